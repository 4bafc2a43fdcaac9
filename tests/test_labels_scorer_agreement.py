"""One number for one name: on the 11 files with committed CoNLL 2018 scorer outputs (the 9 shared-task
system outputs of ``../shared/data/parser_outputs/conll2018`` and spaCy's two parses of English-EWT,
``tests/fixtures/reference/conll18/*.verbose.txt`` with COMMANDS.txt), every face prints the scorer's
LAS (and CLAS, MLAS, BLEX where it prints them) to the printed digit, with default settings:

* ``evalcore attach`` text and JSON (the universal part of DEPREL is the default on CoNLL-U);
* ``evalcore attach --format conll18`` (the scorer's table, byte for byte);
* ``evalcore lattice`` (its classic column: LAS, the aligned F1 on raw text, the attachment score
  over the same words);
* the API: ``evalcore.attach`` (over the same words, and aligned by characters), ``evalcore.lattice``, and
  ``evalcore.metrics.conll18.evaluate_conll18`` (the library's aligned evaluation);
* the app: the Attachment & NED page's corpus numbers, from the pieces that compute them (the files
  put together as uploads); batch: tests/test_batch_raw_text.py.

The expected numbers are the scorer's own output, not evalcore's.  he_htb is licensed for
non-commercial use: its files are read from ``../shared/data`` (skipped with the reason when absent)
and no text of them is committed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import CONLL18_FIXTURES, CONLL18_RAW, CliResult, conll18_files

import evalcore
from evalcore.families.attach import AlignedOutcome
from evalcore.metrics.conll18 import evaluate_conll18

RunCli = Callable[..., CliResult]

FIXTURES = CONLL18_FIXTURES
RAW = list(CONLL18_RAW)
SAME_WORDS = "en_ewt.spacy_gold_tok"
ROWS = ("LAS", "CLAS", "MLAS", "BLEX")
_files = conll18_files


def scorer_f1(name: str) -> dict[str, str]:
    """The committed ``-v`` table's F1 column (as printed: two decimals)."""
    lines = (FIXTURES / f"{name}.verbose.txt").read_text().splitlines()[2:]
    return {cells[0]: cells[3] for cells in ([c.strip() for c in line.split("|")] for line in lines)}


def pct(value: float) -> str:
    return f"{100 * value:.2f}"


def test_the_list_is_every_committed_table() -> None:
    assert sorted(p.name.removesuffix(".verbose.txt") for p in FIXTURES.glob("*.verbose.txt")) == sorted(
        [*RAW, SAME_WORDS]
    )


@pytest.mark.slow
@pytest.mark.timeout(600)  # four reads of both files (EWT: 25,000 words), under the default on a busy machine
@pytest.mark.parametrize("name", [*RAW, SAME_WORDS])
def test_attach_faces_print_the_scorers_numbers(run_cli: RunCli, data: Path, name: str) -> None:
    gold, system = (str(p) for p in _files(data, name))
    expected = scorer_f1(name)

    # --format conll18: the scorer's table itself
    table = run_cli("attach", gold, system, "--format", "conll18")
    assert table.code == 0 and table.out == (FIXTURES / f"{name}.verbose.txt").read_text()

    text = run_cli("attach", gold, system)
    doc = json.loads(run_cli("attach", gold, system, "--format", "json").out)
    if name == SAME_WORDS:  # the same words: the five numbers, LAS = the scorer's LAS F1
        assert text.out.splitlines()[0].startswith("relation labels: universal")
        las_row = next(line.split() for line in text.out.splitlines() if line.startswith("LAS "))
        assert las_row[2] == expected["LAS"]
        assert pct(doc["las"]) == expected["LAS"]
        assert pct(evalcore.attach(gold, system).score.las) == expected["LAS"]
    else:  # another tokenization: the aligned table, every row the scorer's
        rows = {line.split()[0]: line.split()[1:] for line in text.out.splitlines() if line.split()}
        metrics = {m["metric"]: m for m in doc["metrics"]}
        api = evalcore.attach(gold, system)
        assert isinstance(api, AlignedOutcome)
        for row in ROWS:
            assert rows[row][2] == expected[row], row
            assert pct(metrics[row]["f1"]) == expected[row], row
            assert pct(api.result.get(row).f1) == expected[row], row
    library = evaluate_conll18(gold, system)
    assert {row: pct(library.get(row).f1) for row in ROWS} == {row: expected[row] for row in ROWS}


@pytest.mark.slow
@pytest.mark.timeout(900)  # the joint evaluation (TedEval over lattices) twice, on up to 2,077 sentences
@pytest.mark.parametrize("name", [*RAW, SAME_WORDS])
def test_lattice_prints_the_scorers_las(run_cli: RunCli, data: Path, name: str) -> None:
    """``evalcore lattice`` and ``evalcore.lattice``: the classic column's LAS (same words: the
    attachment score; raw text: the aligned F1) is the scorer's."""
    gold, system = (str(p) for p in _files(data, name))
    expected = scorer_f1(name)
    lattice = json.loads(run_cli("lattice", gold, system, "--format", "json").out)
    assert pct(lattice["classic"]["L"]) == expected["LAS"]
    api = evalcore.lattice(gold, system)
    assert api.classic is not None and pct(api.classic.labeled) == expected["LAS"]


@pytest.mark.slow
@pytest.mark.timeout(600)  # the files put together as the upload panel does, then scored (EWT: 25,000 words)
@pytest.mark.parametrize("name", [*RAW, SAME_WORDS])
def test_the_app_shows_the_scorers_numbers(data: Path, name: str) -> None:
    """The Attachment & NED page's corpus numbers, from the pieces it shows them with (the files put
    together as uploads, ``workbench.datasets.assemble``): a parse of the raw text's UAS, LAS, CLAS,
    MLAS and BLEX tiles (percent, two decimals), and a parse of the gold's words' LAS."""
    from evalcore.families.attach import AttachSettings
    from workbench.cache import conll18_scores, corpus_attach, fit, read_file
    from workbench.datasets import DatasetSpec, FileSpec, assemble

    files = [
        (p.name, role, p.read_bytes()) for p, role in zip(_files(data, name), ("gold", "parse"), strict=True)
    ]
    gold_name = files[0][0]
    read = [
        read_file(FileSpec(n, n, "conllu", role, against=gold_name if role == "parse" else ""), d)  # type: ignore[arg-type]
        for n, role, d in files
    ]
    loaded = assemble(
        DatasetSpec("upload", "your files", "dependency", tuple(a.spec for a in read)), read, align=fit
    )
    expected = scorer_f1(name)
    if name == SAME_WORDS:
        gold, system = loaded.dep("gold")[0], loaded.dep("parse")[0]
        assert pct(corpus_attach(gold, system, AttachSettings()).result.score.las) == expected["LAS"]
    else:
        (parse,) = loaded.aligned
        shown = conll18_scores(parse.gold, parse.analysis)
        assert {m: f"{100 * shown.get(m).f1:.2f}" for m in ("UAS", *ROWS)} == {
            m: expected[m] for m in ("UAS", *ROWS)
        }
