"""``evalcore attach GOLD SYSTEM`` from the command line (in-process, and once as ``python -m evalcore``)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ec_support import ASSETS, CliResult, conllu_sentence, run_module

from evalcore import __version__

RunCli = Callable[..., CliResult]
WriteFile = Callable[[str, str | bytes], str]

FR_UD = str(ASSETS / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz")
FR_SUD = str(ASSETS / "fr_gsd" / "fr_gsd-sud-test.r2.16.conllu.gz")
EWT = str(ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz")
SPACY = str(ASSETS / "en_ewt" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz")

JSON_KEYS = {"uas", "las", "label", "undirected", "ned", "tokens", "sentences", "skipped", "signature"}


def as_json(result: CliResult) -> dict[str, Any]:
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert isinstance(data, dict)
    return data


@pytest.fixture
def small_pair(write_file: WriteFile) -> tuple[str, str]:
    """Gold = NED Figure 3(a) plus a sentence with punctuation; system = Figure 3(b) and a wrong label."""
    gold = conllu_sentence([0, 1, 2], sent_id="fig3") + conllu_sentence(
        [0, 1, 1],
        sent_id="p",
        forms=["a", "b", "."],
        deprels=["root", "obj:x", "punct"],
        upos=["X", "X", "PUNCT"],
    )
    system = conllu_sentence([0, 3, 1], sent_id="fig3") + conllu_sentence(
        [0, 1, 1],
        sent_id="p",
        forms=["a", "b", "."],
        deprels=["root", "obj", "punct"],
        upos=["X", "X", "PUNCT"],
    )
    return write_file("gold.conllu", gold), write_file("sys.conllu", system)


def test_text_output_is_an_aligned_table(run_cli: RunCli, small_pair: tuple[str, str]) -> None:
    r = run_cli("attach", *small_pair)
    assert r.code == 0 and r.err == ""
    lines = r.out.splitlines()
    # the header says how labels compare: a .conllu gold, so the universal part (CoNLL 2018)
    assert lines[0].startswith("relation labels: universal (the DEPREL before ':'")
    table = lines[1:8]
    assert table[0].split() == ["metric", "score", "%"]
    assert set(table[1].replace(" ", "")) == {"-"}
    assert [row.split()[0] for row in table[2:]] == ["UAS", "LAS", "label", "undirected", "NED"]
    # every row of the table ends at the same column: numbers are right-aligned
    assert len({len(row) for row in table}) == 1
    assert table[2].split()[-2:] == ["0.6667", "66.67"]  # UAS 4/6
    assert "6 tokens in 2 sentences; skipped 0" in r.out
    assert "signature: attach|punct:yes|maxlen:none|deprel:base|invalid:skip|v" in r.out
    full = run_cli("attach", *small_pair, "--full-labels")
    assert full.out.startswith("relation labels: full (each DEPREL as written")
    assert "|deprel:full|" in full.out


def test_json_output(run_cli: RunCli, small_pair: tuple[str, str]) -> None:
    data = as_json(run_cli("attach", *small_pair, "--format", "json"))
    assert set(data) >= JSON_KEYS
    for key in ("uas", "las", "label", "undirected", "ned"):
        value = data[key]
        assert isinstance(value, float) and 0.0 <= value <= 1.0
    assert data["uas"] == pytest.approx(4 / 6)
    assert data["las"] == pytest.approx(4 / 6)  # universal labels: gold obj:x = system obj (a CoNLL-U gold)
    assert data["undirected"] == pytest.approx(5 / 6)
    assert data["ned"] == 1.0
    assert (data["tokens"], data["sentences"], data["skipped"]) == (6, 2, 0)


def test_csv_output(run_cli: RunCli, small_pair: tuple[str, str]) -> None:
    r = run_cli("attach", *small_pair, "--format", "csv")
    assert r.code == 0
    rows = list(csv.reader(io.StringIO(r.out)))
    assert rows[0] == ["metric", "value"]
    table = dict(rows[1:])
    assert float(table["UAS"]) == pytest.approx(4 / 6)
    assert table["tokens"] == "6"
    assert table["signature"].startswith("attach|")


def test_options_change_numbers_and_signature(run_cli: RunCli, small_pair: tuple[str, str]) -> None:
    base = as_json(run_cli("attach", *small_pair, "--format", "json"))
    no_punct = as_json(run_cli("attach", *small_pair, "--no-punct", "--format", "json"))
    assert no_punct["tokens"] == 5
    assert "punct:no" in no_punct["signature"]
    deprel = as_json(run_cli("attach", *small_pair, "--deprel-base", "--format", "json"))
    assert deprel == base  # --deprel-base is the default on CoNLL-U input
    for full_flags in (["--full-labels"], ["--labels", "full"]):
        full = as_json(run_cli("attach", *small_pair, *full_flags, "--format", "json"))
        assert full["las"] == pytest.approx(3 / 6) and base["las"] == pytest.approx(4 / 6)
        assert "deprel:full" in full["signature"] and "deprel:base" in base["signature"]
    short = as_json(run_cli("attach", *small_pair, "--max-len", "2", "--no-punct", "--format", "json"))
    assert (short["sentences"], short["excluded_by_length"], short["tokens"]) == (1, 1, 2)
    assert "maxlen:2" in short["signature"]
    strict = as_json(run_cli("attach", *small_pair, "--strict", "--format", "json"))
    assert "invalid:strict" in strict["signature"]


def test_per_sentence_counts(run_cli: RunCli, small_pair: tuple[str, str]) -> None:
    data = as_json(run_cli("attach", *small_pair, "--per-sentence", "--format", "json"))
    per = data["per_sentence"]
    assert [(s["sent_id"], s["tokens"], s["uas"], s["ned"]) for s in per] == [
        ("fig3", 3, 1, 3),
        ("p", 3, 3, 3),
    ]
    text = run_cli("attach", *small_pair, "--per-sentence")
    assert "sent_id" in text.out and "fig3" in text.out


def test_empty_files_score_nothing_and_say_so(run_cli: RunCli, write_file: WriteFile) -> None:
    empty = write_file("empty.conllu", "")
    data = as_json(run_cli("attach", empty, empty, "--format", "json"))
    assert (data["tokens"], data["sentences"], data["uas"]) == (0, 0, None)
    text = run_cli("attach", empty, empty)
    assert text.code == 0
    assert "N/A" in text.out and "0 tokens in 0 sentences" in text.out


def test_version_and_help(run_cli: RunCli, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run_cli("--version")
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"evalcore {__version__}"
    with pytest.raises(SystemExit):
        run_cli("attach", "--help")
    assert "--deprel-base" in capsys.readouterr().out


def test_negative_max_len_is_refused(run_cli: RunCli, small_pair: tuple[str, str]) -> None:
    r = run_cli("attach", *small_pair, "--max-len", "-1")
    assert r.code == 2
    assert r.err_lines == ["evalcore attach: --max-len must be >= 0"]


# ---------------------------------------------------------------------------
# Shipped data and the real entry point


def test_fr_gsd_ud_vs_sud_from_assets(run_cli: RunCli) -> None:
    r = run_cli("attach", FR_UD, FR_SUD)
    assert r.code == 0
    assert r.out.splitlines()[3].split()[:2] == ["UAS", "0.5164"]


def test_python_dash_m_evalcore_entry_point() -> None:
    proc = run_module("attach", FR_UD, FR_SUD, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert round(data["uas"], 4) == 0.5164
    assert data["tokens"] == 10018
    bad = run_module("attach", FR_UD, "no-such-file.conllu")
    assert bad.returncode == 2
    assert bad.stderr.splitlines() == ["no-such-file.conllu: cannot open: No such file or directory"]
    assert "Traceback" not in bad.stderr


# ---------------------------------------------------------------------------
# "Must show" checks of the foundation issue, on ../shared/data


def test_must_show_fr_gsd_uas(run_cli: RunCli, data: Path) -> None:
    folder = data / "fr_gsd_ud_sud"
    r = run_cli(
        "attach", str(folder / "fr_gsd-ud-test.r2.16.conllu"), str(folder / "fr_gsd-sud-test.r2.16.conllu")
    )
    assert r.code == 0
    assert r.out.splitlines()[3].split()[:2] == ["UAS", "0.5164"]


def test_must_show_ewt_matches_conll2018_scorer(run_cli: RunCli, data: Path) -> None:
    """Numbers printed by conll18_ud_eval.py -v on these two files: UAS 56.40, LAS 36.40.

    See CONLL18_UAS in test_attachment.py for how they were produced; the scorer's LAS is
    the universal deprel over all tokens: the default on this CoNLL-U gold (``--deprel-base``)
    without ``--no-punct``.
    """
    gold = data / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
    system = data / "parser_outputs" / "spacy_en_ewt_test" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu"
    result = as_json(run_cli("attach", str(gold), str(system), "--format", "json"))
    assert result == as_json(run_cli("attach", str(gold), str(system), "--deprel-base", "--format", "json"))
    assert f"{100 * result['uas']:.2f}" == "56.40"
    assert f"{100 * result['las']:.2f}" == "36.40"
    assert result["tokens"] == 25094
