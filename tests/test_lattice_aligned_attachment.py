"""The raw row of the scenario table on dependency input (docs/lattice.md, "Scenarios").

For two CoNLL-U files paired by characters, the *raw* row's classic metric is
the CoNLL 2018 scorer's aligned UAS/LAS F1.  Expected figures come from the
official scorer's ``-v`` tables committed in tests/fixtures/reference/conll18/
(the command that made them is in that folder's COMMANDS.txt), read here, not
typed in; and from a hand count on a two-sentence example.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import ROOT, CliResult

from evalcore.lattice.reading import InMemoryFile, read_gold
from evalcore.metrics.joint import JointConfig
from workbench.lattice_view import LatticeInputs, Prediction, evaluate_inputs

FIXTURES = ROOT / "tests" / "fixtures" / "reference" / "conll18"
HE_SYSTEMS = ("HIT-SCIR-18", "ONLP-lab", "Stanford-18", "UDPipe-Future", "conll18-baseline")


def _scorer_f1(system: str, metric: str) -> float:
    """The F1 column of the scorer's ``-v`` table for ``he_htb``."""
    for line in (FIXTURES / f"he_htb.{system}.verbose.txt").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if cells[0] == metric:
            return float(cells[3])
    raise AssertionError(f"{metric} not in the fixture")


@pytest.mark.slow
def test_raw_rows_show_the_scorers_uas_las(data: Path, run_cli: Callable[..., CliResult]) -> None:
    """All five he_htb shared-task systems in one run: each raw row's classic U/L equal the
    scorer's UAS/LAS F1 to two decimals; SEGEVAL and TEDEVAL still there."""
    folder = data / "parser_outputs" / "conll2018" / "he_htb"
    preds = [f"{s}={folder / f'{s}.he_htb.conllu.gz'}" for s in HE_SYSTEMS]
    res = run_cli("lattice", str(folder / "gold.he_htb.conllu.gz"), *preds, "--format", "json")
    assert res.code == 0, res.err
    rows = {r["system"]: r for r in json.loads(res.out)["systems"]}
    for s in HE_SYSTEMS:
        row = rows[s]
        assert row["scenario"] == "raw"
        assert row["classic"]["metric"] == "aligned attachment"
        assert row["classic"]["signature"].startswith("conll18|")
        assert round(100 * row["classic"]["U"], 2) == _scorer_f1(s, "UAS"), s
        assert round(100 * row["classic"]["L"], 2) == _scorer_f1(s, "LAS"), s
        assert row["segeval"]["L"] is not None and row["tedeval"]["L"] is not None


CONLLU_GOLD = (
    "# text = ab c\n"
    "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "1\ta\t_\tX\t_\t_\t3\tcase\t_\t_\n"
    "2\tb\t_\tX\t_\t_\t3\tdet\t_\t_\n"
    "3\tc\t_\tX\t_\t_\t0\troot\t_\t_\n\n"
)
# the system does not split "ab": its word "ab" aligns with no gold word (LCS of forms),
# "c" aligns and is right (root, label root).
CONLLU_RAW = "# text = ab c\n1\tab\t_\tX\t_\t_\t2\tnmod:poss\t_\t_\n2\tc\t_\tX\t_\t_\t0\troot\t_\t_\n\n"


def test_hand_counted_raw_row(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    """Hand count: gold has 3 words, the system 2; 1 aligned word (``c``) with the right head and
    label: UAS = LAS = F1 = 2·1 / (3 + 2) = 0.4."""
    gold, pred = write_file("g.conllu", CONLLU_GOLD), write_file("p.conllu", CONLLU_RAW)
    res = run_cli("lattice", gold, f"raw={pred}", "--format", "json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["scenario"] == "raw"
    assert out["classic"]["U"] == pytest.approx(0.4) and out["classic"]["L"] == pytest.approx(0.4)
    text = run_cli("lattice", gold, f"raw={pred}").out
    assert "aligned attachment" in text and "40.00" in text


def test_gold_segmentation_rows_keep_todays_attachment(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    """Same words on both sides: the classic metric is today's attachment (full labels), not the
    aligned one; a hand count: 3 words, heads all right, one label wrong: UAS 1, LAS 2/3."""
    gold = write_file("g.conllu", CONLLU_GOLD)
    pred = write_file("p.conllu", CONLLU_GOLD.replace("\tdet\t", "\tamod\t"))
    out = json.loads(run_cli("lattice", gold, pred, "--format", "json").out)
    assert out["scenario"] != "raw"
    assert out["classic"]["metric"] == "attachment"
    assert out["classic"]["U"] == 1.0 and out["classic"]["L"] == pytest.approx(2 / 3)


def test_scorer_refusal_leaves_na_with_the_reason(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    """A prediction with two roots in a sentence: the scenario table skips that sentence, the
    scorer refuses the whole file, so the column stays N/A and the note says why (never a
    number over part of the file)."""
    gold = write_file("g.conllu", CONLLU_GOLD)
    two_roots = CONLLU_RAW.replace("1\tab\t_\tX\t_\t_\t2\tnmod:poss", "1\tab\t_\tX\t_\t_\t0\troot")
    pred = write_file("p.conllu", two_roots)
    res = run_cli("lattice", gold, f"raw={pred}", "--format", "json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["classic"] is None
    assert "2 roots in a sentence" in out["classic_note"]
    assert "aligned attachment N/A" in run_cli("lattice", gold, f"raw={pred}").out


def test_lattice_page_data_carries_the_aligned_scores() -> None:
    """The Lattice page's evaluation (uploads are bytes) fills the raw row too: same hand count."""
    inputs = LatticeInputs(
        InMemoryFile("g.conllu", CONLLU_GOLD.encode()),
        None,
        (Prediction("raw", InMemoryFile("p.conllu", CONLLU_RAW.encode())),),
    )
    data = evaluate_inputs(inputs, JointConfig())
    c = data.results["raw"].classic
    assert c is not None and c.metric == "aligned attachment"
    assert c.unlabeled == pytest.approx(0.4) and c.labeled == pytest.approx(0.4)
    assert read_gold(InMemoryFile("g.conllu", CONLLU_GOLD.encode())).tokenized is not None
