"""``evalcore attach GOLD SYSTEM`` (text / JSON / CSV) when SYSTEM has another tokenization.

* Parity: on the 10 raw-text system outputs of ``../shared/data`` the default command's figures
  (the universal part of DEPREL on a CoNLL-U gold; ``--deprel-base`` the same) equal the official
  scorer's ``-v`` table (committed fixtures in tests/fixtures/reference/conll18/) to two
  decimals; with ``--full-labels`` every row that does not compare DEPRELs is the same and
  LAS/CLAS/MLAS/BLEX are at most the scorer's.
* A hand-counted pair (another tokenization and another sentence split, a DEPREL subtype).
* Options the alignment cannot honour (--no-punct, --max-len): exit 2 with one
  ``FILE:LINE: message`` line.
* Same tokens: the aligned evaluation with full labels finds exactly ``evalcore attach``'s UAS
  and LAS counts (two implementations, one answer).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ec_support import ASSETS, CONLL18_FIXTURES, CONLL18_RAW, CliResult, conll18_files

from evalcore.formats.conllu import read_conllu
from evalcore.metrics.attachment import AttachConfig, attach_corpus
from evalcore.metrics.conll18 import METRICS, evaluate_conll18

RunCli = Callable[..., CliResult]
WriteFile = Callable[[str, str | bytes], str]

FIXTURES = CONLL18_FIXTURES
RAW = CONLL18_RAW
DEPREL_ROWS = {"LAS", "CLAS", "MLAS", "BLEX"}
_files = conll18_files


def scorer_table(name: str) -> dict[str, list[str]]:
    """The scorer's ``-v`` table: metric -> [precision, recall, F1, aligned accuracy or '']."""
    out = {}
    for line in (FIXTURES / f"{name}.verbose.txt").read_text().splitlines()[2:]:
        cells = [c.strip() for c in line.split("|")]
        out[cells[0]] = cells[1:]
    return out


def as_json(result: CliResult) -> dict[str, Any]:
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert isinstance(data, dict)
    return data


def two_decimals(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.2f}"


@pytest.mark.slow
@pytest.mark.parametrize("name", RAW)
def test_default_command_equals_the_scorer_on_raw_text(run_cli: RunCli, data: Path, name: str) -> None:
    gold, system = _files(data, name)
    expected = scorer_table(name)
    base = as_json(run_cli("attach", str(gold), str(system), "--format", "json"))
    assert base == as_json(run_cli("attach", str(gold), str(system), "--deprel-base", "--format", "json"))
    assert base["alignment"] == "characters"
    assert "|deprel:base|" in base["signature"]
    assert [m["metric"] for m in base["metrics"]] == list(METRICS) == list(expected)
    for m in base["metrics"]:
        got = [two_decimals(m[k]) for k in ("precision", "recall", "f1", "aligned_accuracy")]
        assert got == expected[m["metric"]], m["metric"]
    # full labels: rows without DEPREL unchanged, the others can only lose
    full = as_json(run_cli("attach", str(gold), str(system), "--full-labels", "--format", "json"))
    assert "|deprel:full|" in full["signature"]
    for mb, mf in zip(base["metrics"], full["metrics"], strict=True):
        if mb["metric"] in DEPREL_ROWS:
            assert mf["correct"] <= mb["correct"]
            assert (mf["gold"], mf["system"], mf["aligned"]) == (mb["gold"], mb["system"], mb["aligned"])
        else:
            assert mf == mb


# --------------------------------------------------------------------------- hand count

GOLD = (
    "# sent_id = g1\n"
    "1\tNew\t_\tX\t_\t_\t2\tflat\t_\t_\n"
    "2\tYork\t_\tX\t_\t_\t4\tnsubj\t_\t_\n"
    "3\tis\t_\tX\t_\t_\t4\taux:pass\t_\t_\n"
    "4\tbig\t_\tX\t_\t_\t0\troot\t_\t_\n"
    "5\t.\t_\tX\t_\t_\t4\tpunct\t_\t_\n"
    "\n"
    "# sent_id = g2\n"
    "1\tYes\t_\tX\t_\t_\t0\troot\t_\t_\n"
    "2\t.\t_\tX\t_\t_\t1\tpunct\t_\t_\n"
    "\n"
)
SYSTEM = (
    "# sent_id = s1\n"
    "1\tNew York\t_\tX\t_\t_\t3\tnsubj:pass\t_\t_\n"
    "2\tis\t_\tX\t_\t_\t3\taux\t_\t_\n"
    "3\tbig\t_\tX\t_\t_\t0\troot\t_\t_\n"
    "4\t.\t_\tX\t_\t_\t3\tpunct\t_\t_\n"
    "5\tYes\t_\tX\t_\t_\t3\tparataxis\t_\t_\n"
    "6\t.\t_\tX\t_\t_\t5\tpunct\t_\t_\n"
    "\n"
)

# Hand count.  Characters: NewYorkisbig.Yes.  Gold tokens New|York|is|big|.|Yes|. (7 words, 2
# sentences), system tokens "New York"|is|big|.|Yes|. (6 words, 1 sentence): 5 tokens and words
# align (is big . Yes .), no sentence does.  Heads: is->big, big root, .->big, .->Yes right;
# Yes is a gold root but hangs from big in the system: UAS 4.  LAS with full labels: is is
# aux:pass in the gold, aux in the system: 3 (base: 4).  Content words: gold New York big Yes (4),
# system "New York" big Yes (3), aligned big Yes (2): CLAS 1 (big).  MLAS: big's functional child
# is (aux:pass / aux) must have the same relation: 0 with full labels, 1 with base.  BLEX = CLAS
# (gold lemmas are _).  Rows: (correct, gold, system, aligned).
HAND = {
    "Tokens": (5, 7, 6, None),
    "Sentences": (0, 2, 1, None),
    "Words": (5, 7, 6, None),
    "UPOS": (5, 7, 6, 5),
    "UAS": (4, 7, 6, 5),
    "LAS": (3, 7, 6, 5),
    "CLAS": (1, 4, 3, 2),
    "MLAS": (0, 4, 3, 2),
    "BLEX": (1, 4, 3, 2),
}
HAND_BASE = HAND | {"LAS": (4, 7, 6, 5), "MLAS": (1, 4, 3, 2)}


@pytest.fixture
def raw_pair(write_file: WriteFile) -> tuple[str, str]:
    return write_file("gold.conllu", GOLD), write_file("sys.conllu", SYSTEM)


def test_hand_count_json(run_cli: RunCli, raw_pair: tuple[str, str]) -> None:
    gold, system = raw_pair
    for extra, expected in ((("--full-labels",), HAND), ((), HAND_BASE), (("--deprel-base",), HAND_BASE)):
        doc = as_json(run_cli("attach", gold, system, "--format", "json", *extra))
        rows = {m["metric"]: m for m in doc["metrics"]}
        for metric, (correct, g, s, aligned) in expected.items():
            m = rows[metric]
            assert (m["correct"], m["gold"], m["system"], m["aligned"]) == (correct, g, s, aligned), metric
            assert m["precision"] == pytest.approx(correct / s)
            assert m["recall"] == pytest.approx(correct / g)
            assert m["f1"] == pytest.approx(2 * correct / (g + s))
            assert m["aligned_accuracy"] == (None if aligned is None else pytest.approx(correct / aligned))
        assert doc["first_difference"].startswith(f"{system}:2: sentence 'g1': token 1 is 'New York'"), doc


def test_hand_count_text(run_cli: RunCli, raw_pair: tuple[str, str]) -> None:
    result = run_cli("attach", *raw_pair, "--labels", "full")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("aligned by characters (CoNLL 2018): the tokens differ from the gold's at ")
    assert lines[1].startswith("relation labels: full (each DEPREL as written")
    rows = {line.split()[0]: line.split()[1:] for line in lines[5:18]}
    # LAS 3 of 6 system / 7 gold words, 5 aligned: 50.00 42.86 46.15 60.00
    assert rows["LAS"] == ["50.00", "42.86", "46.15", "60.00", "3", "7", "6", "5"]
    assert rows["MLAS"] == ["0.00", "0.00", "0.00", "0.00", "0", "4", "3", "2"]
    assert rows["Sentences"] == ["0.00", "0.00", "0.00", "0", "2", "1"]
    assert (
        lines[-1] == "signature: conll18|align:chars|deprel:full|feats:universal|punct:yes|avg:micro|v0.1.0"
    )
    assert "  \n" not in result.out


def test_hand_count_csv(run_cli: RunCli, raw_pair: tuple[str, str]) -> None:
    result = run_cli("attach", *raw_pair, "--format", "csv", "--deprel-base")
    assert result.code == 0, result.err
    rows = list(csv.DictReader(io.StringIO(result.out)))
    assert [r["metric"] for r in rows] == list(METRICS)
    las = next(r for r in rows if r["metric"] == "LAS")
    assert (las["correct"], las["gold"], las["system"], las["aligned"]) == ("4", "7", "6", "5")
    assert float(las["f1"]) == pytest.approx(8 / 13)
    assert {r["signature"] for r in rows} == {
        "conll18|align:chars|deprel:base|feats:universal|punct:yes|avg:micro|v0.1.0"
    }


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--no-punct"], "--no-punct"),
        (["--max-len", "10"], "--max-len"),
        # --by, --confusion and --per-sentence run on the aligned words (tests/test_aligned_breakdown.py)
        (["--by", "upos", "--no-punct", "--format", "json"], "--no-punct"),
    ],
)
def test_options_the_alignment_cannot_honour(
    run_cli: RunCli,
    raw_pair: tuple[str, str],
    options: list[str],
    named: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gold, system = raw_pair
    # relative names: a long temporary path (pytest-xdist's) would be shortened in the middle of the
    # message, where the differing tokens are
    monkeypatch.chdir(Path(system).parent)
    gold, system = Path(gold).name, Path(system).name
    result = run_cli("attach", gold, system, *options)
    assert result.code == 2
    assert result.out == ""
    assert len(result.err_lines) == 1
    line = result.err_lines[0]
    # FILE:LINE of the first difference (a long temporary path is shortened in the middle)
    assert line.startswith(system[:20])
    assert f"sys.conllu:2: {named} need the same tokens in both files" in line
    assert "'New York' in the system file" in line


def test_strict_is_accepted_and_a_cycle_is_an_error(run_cli: RunCli, write_file: WriteFile) -> None:
    """The alignment is always strict: --strict changes nothing; a cycle is the scorer's error."""
    gold = write_file("gold.conllu", GOLD)
    ok = run_cli("attach", gold, write_file("sys.conllu", SYSTEM), "--strict")
    assert ok.code == 0, ok.err
    cyclic = SYSTEM.replace("3\tbig\t_\tX\t_\t_\t0\troot", "3\tbig\t_\tX\t_\t_\t2\troot")
    bad = write_file("cycle.conllu", cyclic)
    result = run_cli("attach", gold, bad)
    assert result.code == 2
    assert len(result.err_lines) == 1
    assert result.err_lines[0].endswith("cycle.conllu:8: There is a cycle in a sentence (sentence s1)")


def test_other_text_is_an_error_naming_both_differences(run_cli: RunCli, write_file: WriteFile) -> None:
    """Not another tokenization of the same text: exit 2, one line, FILE:LINE of the first token
    difference (sys.conllu:2, 'New York'), then the line where the characters differ (6, 'No')."""
    gold = write_file("gold.conllu", GOLD)
    system = write_file("sys.conllu", SYSTEM.replace("Yes", "No"))
    result = run_cli("attach", gold, system)
    assert result.code == 2
    assert result.out == ""
    assert len(result.err_lines) == 1
    line = result.err_lines[0]
    assert "sys.conllu:2: sentence 'g1': token 1 is 'New York' in the system file" in line
    assert line.endswith("; the text differs too (system file line 6): no character alignment either")


# --------------------------------------------------------------------------- same tokens


def test_same_tokens_keep_the_streaming_path(run_cli: RunCli) -> None:
    """Same tokens: today's output (the attach table), not the aligned one."""
    gold = str(ASSETS / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz")
    system = str(ASSETS / "fr_gsd" / "parses" / "fr_gsd-test.spacy-ud.conllu.gz")
    doc = as_json(run_cli("attach", gold, system, "--format", "json"))
    assert "alignment" not in doc
    assert doc["signature"].startswith("attach|")


@pytest.mark.parametrize("deprel_base", [False, True])
@pytest.mark.slow
def test_alignment_on_same_tokens_counts_what_attach_counts(deprel_base: bool) -> None:
    """English-EWT gold against spaCy's parse of the gold words: the CoNLL 2018 alignment with the
    same DEPREL setting finds the same UAS and LAS counts as the same-token path."""
    gold = ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz"
    system = ASSETS / "en_ewt" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz"
    attach = attach_corpus(
        read_conllu(gold), read_conllu(system), AttachConfig(deprel_base=deprel_base), per_sentence=False
    )
    aligned = evaluate_conll18(gold, system, deprel_base=deprel_base)
    assert attach.counts.skipped == 0
    assert aligned.counts.words_aligned == aligned.counts.words_gold == attach.counts.tokens
    assert (aligned.counts.uas, aligned.counts.las) == (attach.counts.uas, attach.counts.las)
