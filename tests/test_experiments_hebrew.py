"""The Hebrew scenario experiment: what can be recomputed from ../shared/data gives exactly
the committed table.

The raw rows of the CoNLL 2018 systems, the SPMRL gold against itself and the two segmentation
baselines need only the shared data.  The spaCy rows (gold / predicted / raw input) need the parses
that ``experiments/hebrew_scenarios.py train`` writes outside the repository (default
``/tmp/evalcore-hebrew``); they are checked only when those parses are there.  The data is
research-only and never shipped, so without it the test is skipped with the reason.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "experiments"))

import hebrew_scenarios as hs  # noqa: E402

DATA = hs.Data(hs.DEFAULT_DATA)
PARSES = hs.Parses(hs.DEFAULT_PARSES)

needs_data = pytest.mark.skipif(
    bool(DATA.missing()),
    reason=f"Hebrew research data not available ({hs.DEFAULT_DATA}; never shipped with the repository)",
)


def _committed() -> dict[tuple[str, str, str, str], list[str]]:
    text = (ROOT / "docs" / "results" / "hebrew_scenarios.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == hs.CSV_HEADERS
    # key: treebank, parser, input, labels
    return {(r[0], r[1], r[2], r[4]): r for r in rows[1:]}


def _scorer_uas_las(system: str) -> tuple[float, float]:
    """UAS and LAS F1 of the official scorer's ``-v`` table (tests/fixtures/reference/conll18)."""
    table = ROOT / "tests" / "fixtures" / "reference" / "conll18" / f"he_htb.{system}.verbose.txt"
    f1 = {}
    for line in table.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if cells[0] in ("UAS", "LAS"):
            f1[cells[0]] = float(cells[3])
    return f1["UAS"], f1["LAS"]


def _check(rows: list[hs.Row]) -> None:
    committed = _committed()
    assert rows
    for row in rows:
        fresh = hs.csv_row(row)
        assert committed[(row.treebank, row.parser, row.input, row.labels)] == fresh


@pytest.mark.slow  # the whole experiment's evaluation step
@needs_data
def test_raw_rows_of_the_conll2018_systems_reproduce_the_committed_table() -> None:
    rows = hs.ud_raw_rows(DATA)
    _check(rows)
    assert {r.scenario for r in rows} == {"raw"}
    # raw dependency input: the CoNLL 2018 scorer's aligned UAS/LAS F1 (docs/lattice.md, "Scenarios"),
    # equal to the official scorer's committed tables to two decimals
    for r in rows:
        c = r.result.classic
        assert c is not None and c.metric == "aligned attachment"
        assert (round(100 * c.unlabeled, 2), round(100 * c.labeled, 2)) == _scorer_uas_las(r.parser)


@pytest.mark.slow  # the whole experiment's evaluation step
@needs_data
def test_spmrl_gold_and_baseline_rows_reproduce_the_committed_table() -> None:
    rows = hs.spmrl_reference_rows(DATA)
    _check(rows)
    gold = rows[0].result
    assert gold.scenario == "gold"
    assert gold.segeval.labeled == gold.ted_labeled.score == gold.classic.labeled == 1.0  # type: ignore[union-attr]


@pytest.mark.slow
@needs_data
@pytest.mark.skipif(
    bool(PARSES.missing()),
    reason=f"spaCy parses not in {hs.DEFAULT_PARSES}: they derive from non-commercial data and are never "
    "committed (experiments/hebrew_scenarios.py train writes them; check-retrain compares a retrained "
    "model with the table, see test_retraining_one_model_stays_within_the_tolerance)",
)
def test_spacy_rows_reproduce_the_committed_table() -> None:
    ud = hs.ud_spacy_rows(DATA, PARSES)
    spmrl = hs.spmrl_spacy_rows(DATA, PARSES)
    _check(ud + spmrl)
    for rows in (ud[:3], spmrl):
        assert [r.scenario for r in rows[:2]] == ["gold", "predicted"]
        assert {r.scenario for r in rows[2:]} == {"raw"}


def test_to_ud22_conventions() -> None:
    from evalcore.trees import Token

    art = Token(1, "ה", "ה", "DET", "DET", "PronType=Art", 2, "det")
    acc = Token(1, "את", "את", "ADP", "ADP", "Case=Acc", 2, "case:acc")
    clitic = Token(1, "_של_", "של", "ADP", "ADP", "Case=Gen", 2, "case:gen")
    cop = Token(1, "היה", "היה", "AUX", "AUX", "Tense=Past|VerbType=Cop", 2, "cop")
    assert hs.to_ud22(art) == (Token(1, "ה", "ה", "DET", "DET", "PronType=Art", 2, "det:def"), "det:def")
    assert hs.to_ud22(acc)[0].upos == "PART"
    assert hs.to_ud22(clitic) == (clitic, None)
    new, rule = hs.to_ud22(cop)
    assert (new.upos, new.deprel, new.head, rule) == ("VERB", "aux", 2, "copula")


def test_parses_never_go_into_the_repository(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="inside the repository"):
        hs.outside_repository(ROOT / "docs" / "results")
    assert hs.outside_repository(tmp_path) == tmp_path.resolve()


# ---------------------------------------------------------------------------
# retraining: deterministic where spaCy allows it, checked within a tolerance


def test_tolerance_is_per_cell_in_points() -> None:
    """±1.5 points per cell: the move seen on another machine (UD gold input, UAS 76.26 → 77.51)
    passes, two points do not; N/A cells and row identities must not change."""
    key = ("ud", "spaCy (UD dev)", "gold words, gold UPOS", "full")
    assert hs.TOLERANCE == 1.5
    assert hs.CellCheck(key, "uas", 76.26, 77.51).within(hs.TOLERANCE)
    assert hs.CellCheck(key, "uas", 76.26, 76.26 - 1.5).within(hs.TOLERANCE)
    assert not hs.CellCheck(key, "uas", 76.26, 78.26).within(hs.TOLERANCE)
    committed = hs.committed_rows()
    assert committed[key][hs.CSV_HEADERS.index("uas")] == "0.7626"


def test_epochs_are_read_back_from_spacys_logs(tmp_path: Path) -> None:
    """spaCy numbers epochs and updates from 0; its best checkpoint is the earliest best score."""
    import spacy_training

    (tmp_path / "progress.json").write_text(json.dumps({"step": 1234, "epoch": 9}))
    log = [(0, 0, 0.2), (3, 400, 0.78), (5, 600, 0.78), (9, 1200, 0.77)]
    (tmp_path / "train_log.jsonl").write_text(
        "".join(json.dumps({"epoch": e, "step": s, "score": v}) + "\n" for e, s, v in log)
    )
    got = spacy_training.epochs_run(tmp_path)
    assert got == spacy_training.Epochs(epochs=10, steps=1235, best_epoch=4, best_step=401)
    assert got.as_json()["epochs_run"] == 10


def test_training_runs_in_a_deterministic_process() -> None:
    import spacy_training

    env = spacy_training.DETERMINISTIC_ENV
    assert env["PYTHONHASHSEED"] == "0" and env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == "1"


def test_training_runs_exactly_max_epochs() -> None:
    pytest.importorskip("spacy", reason="needs spaCy: bash scripts/setup.sh experiments")
    config = hs.spacy_config(hs.SEED, hs.MAX_EPOCHS)
    assert config["system"]["seed"] == 0 and config["training"]["max_epochs"] == 10
    # patience (in updates) is never reached: training runs exactly max_epochs
    assert config["training"]["patience"] == 10_000 and config["training"]["max_steps"] == 0


@pytest.mark.slow
@needs_data
@pytest.mark.skipif(
    os.environ.get("EVALCORE_RETRAIN") != "1",
    reason="the retraining check is opt-in (minutes of CPU): EVALCORE_RETRAIN=1, with spaCy "
    "(bash scripts/setup.sh experiments)",
)
def test_retraining_one_model_stays_within_the_tolerance(tmp_path: Path) -> None:
    """Retrain the UD Hebrew-HTB model (experiments/hebrew_scenarios.py check-retrain) and compare
    every cell of its rows with docs/results/hebrew_scenarios.csv, within ±1.5 points."""
    pytest.importorskip("spacy", reason="needs spaCy: bash scripts/setup.sh experiments")
    script = ROOT / "experiments" / "hebrew_scenarios.py"
    res = subprocess.run(
        [sys.executable, str(script), "check-retrain", "--model", "ud-htb", "--parses", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "tolerance ±1.5 points: PASS" in res.stdout
