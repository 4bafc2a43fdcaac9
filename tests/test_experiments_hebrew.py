"""The Hebrew scenario experiment (issue 7): what can be recomputed from ../shared/data gives exactly
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
    assert all(r.result.classic is None for r in rows)  # the classic metric is N/A for raw input


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
    reason=f"spaCy parses not in {hs.DEFAULT_PARSES} (run experiments/hebrew_scenarios.py train)",
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
