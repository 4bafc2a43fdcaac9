"""The reproduction experiments: re-running the evaluation step on the committed parses
gives exactly the committed tables.  Training itself is not run here."""

from __future__ import annotations

import csv
import io
import sys
from functools import cache
from pathlib import Path

import pytest

from evalcore.choices import LABELS_FULL
from evalcore.experiment import ExperimentResult

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "experiments"))

import english_spacy_ud  # noqa: E402
import french_constructions  # noqa: E402
import french_ud_sud  # noqa: E402
import tables  # noqa: E402


def _committed(name: str) -> list[list[str]]:
    text = (ROOT / "docs" / "results" / f"{name}.csv").read_text(encoding="utf-8")
    return list(csv.reader(io.StringIO(text)))


def _fresh(result: object) -> list[list[str]]:
    rows = [tables.CSV_HEADERS, *tables.csv_rows(result)]  # type: ignore[arg-type]
    return [[str(c) for c in r] for r in rows]


@pytest.mark.slow  # 5–15 s each: the whole experiment's evaluation step
@pytest.mark.parametrize(
    ("name", "module"), [("french_ud_sud", french_ud_sud), ("english_spacy_ud", english_spacy_ud)]
)
def test_evaluation_reproduces_committed_table(name: str, module: object) -> None:
    result = _evaluate(module)
    assert _fresh(result) == _committed(name)


@cache
def _evaluate(module: object) -> ExperimentResult:
    return module.evaluate()  # type: ignore[attr-defined, no-any-return]


@pytest.mark.slow
def test_french_ranking_flips_between_native_scores_and_the_generalized_gold() -> None:
    """EMNLP 2011's central point, on the committed parses (docs/findings.md): scored against their
    own scheme's gold, the SUD parser ranks above the UD parser (UAS +1.84, LAS +3.19 points
    with the relations' universal parts compared, the default on these CoNLL-U golds, and +3.64
    with the relations compared whole); against the UD+SUD generalization the UD parser ranks
    above it (U-TED +0.81, L-TED +0.82), and the approximate-randomization test (10,000 shuffles)
    calls that difference significant.

    Regression pin: the gaps are evalcore's own numbers for the committed parses (the committed
    table, docs/results/french_ud_sud.csv); what the test guards is the documented flip."""
    result = _evaluate(french_ud_sud)

    def score(against: str, metric: str, parse: str, of: ExperimentResult = result) -> float:
        row = of.row(against, metric)
        cell = row.cell(parse) if row is not None else None
        assert cell is not None
        return 100 * cell.score

    native_uas = score("sud", "UAS", "spacy-sud") - score("ud", "UAS", "spacy-ud")
    native_las = score("sud", "LAS", "spacy-sud") - score("ud", "LAS", "spacy-ud")
    assert (round(native_uas, 2), round(native_las, 2)) == (1.84, 3.19)
    whole = french_ud_sud.evaluate(shuffles=0, labels=LABELS_FULL)  # type: ignore[attr-defined]
    whole_las = score("sud", "LAS", "spacy-sud", whole) - score("ud", "LAS", "spacy-ud", whole)
    assert round(whole_las, 2) == 3.64
    for metric, gap in (("U-TED", 0.81), ("L-TED", 0.82)):
        assert round(score("ud+sud", metric, "spacy-ud") - score("ud+sud", metric, "spacy-sud"), 2) == gap
        row = result.row("ud+sud", metric)
        assert row is not None
        (test,) = [t for t in row.tests if {t.a, t.b} == {"spacy-ud", "spacy-sud"}]
        assert test.significant and test.p_value < 0.05


def test_french_table_shows_the_papers_effect() -> None:
    """Against one scheme's gold the other scheme's parser looks far worse; against UD+SUD the gap
    shrinks to about a point (the EMNLP 2011 claim)."""
    rows = {(r[0], r[2], r[3]): float(r[4]) for r in _committed("french_ud_sud")[1:]}
    gap_uas = rows[("spacy-ud", "ud", "UAS")] - rows[("spacy-sud", "ud", "UAS")]
    gap_general = rows[("spacy-ud", "ud+sud", "U-TED")] - rows[("spacy-sud", "ud+sud", "U-TED")]
    assert gap_uas > 0.3
    assert abs(gap_general) < 0.05
    for parse in ("spacy-ud", "spacy-ud-seed1", "spacy-sud"):
        assert (parse, "ud+sud", "L-TED") in rows


@pytest.mark.slow  # ~15 s: the atlas with pattern files, 10,000 shuffles and 1,000 resamples
def test_french_constructions_reproduce_the_committed_tables(tmp_path: Path) -> None:
    """docs/results/french_constructions.{md,csv,txt}, byte for byte (docs/findings.md, "Which
    constructions carry the flip")."""
    french_constructions.write(french_constructions.evaluate(), tmp_path)
    for ext in ("md", "csv", "txt"):
        name = f"french_constructions.{ext}"
        assert (tmp_path / name).read_bytes() == (ROOT / "docs" / "results" / name).read_bytes(), name
