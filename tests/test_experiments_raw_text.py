"""The committed parses of French-GSD test's raw text (``experiments/french_raw_text.py``; issue 29's
data): their text is the gold's, so the CoNLL 2018 character alignment can align them, and their
CoNLL 2018 scores are the ones reported in ``docs/results/french_raw_text.training.json``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import CliResult

from evalcore.formats.conllu import read_conllu
from evalcore.metrics.conll18 import evaluate_conll18
from evalcore.trees import DepTree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "experiments"))

import french_raw_text  # noqa: E402

RunCli = Callable[..., CliResult]
RAW = {"spacy-ud": "ud", "spacy-ud-seed1": "ud", "spacy-sud": "sud"}  # raw parse -> its own scheme


def _gold(scheme: str) -> list[DepTree]:
    return list(read_conllu(french_raw_text.gold_path(scheme, "test")))


def _raw(name: str) -> list[DepTree]:
    return list(read_conllu(french_raw_text.raw_parse_path(name)))


def _token_chars(trees: list[DepTree]) -> str:
    """The non-space characters of the tokens' FORMs (a multiword token's own FORM, not its
    words'), in order: what the CoNLL 2018 scorer compares."""
    out: list[str] = []
    for t in trees:
        covered: set[int] = set()
        ranges = {}
        for e in t.extras:
            if e.is_range:
                first, last = (int(x) for x in e.id.split("-"))
                covered.update(range(first, last + 1))
                ranges[first] = e.form
        for tok in t.tokens:
            if tok.id in ranges:
                out.append(ranges[tok.id])
            elif tok.id not in covered:
                out.append(tok.form)
    return "".join("".join(out).split())


@pytest.mark.parametrize("name", sorted(RAW))
def test_raw_parse_has_the_gold_text_character_for_character(name: str) -> None:
    gold = _gold(RAW[name])
    raw = _raw(name)
    gold_text = " ".join(t.text for t in gold)  # the raw text the parse was made from
    # the parse's sentences, each followed by a space unless its last token says SpaceAfter=No
    rebuilt = "".join(t.text + ("" if t.tokens[-1].misc == "SpaceAfter=No" else " ") for t in raw)
    assert rebuilt.rstrip(" ") == gold_text
    for t in raw:  # each # text is its words with their spaces
        words = "".join(w.form + ("" if w.misc == "SpaceAfter=No" else " ") for w in t.tokens)
        assert words.rstrip(" ") == t.text, t.sent_id
    assert _token_chars(raw) == _token_chars(gold) == "".join(gold_text.split())
    # and the segmentation really differs from the gold's (else the experiment shows nothing)
    assert len(raw) != len(gold)
    assert sum(len(t) for t in raw) != sum(len(t) for t in gold)


@pytest.mark.parametrize("name", sorted(RAW))
def test_raw_parse_has_one_tree_per_sentence(name: str) -> None:
    """The CoNLL 2018 scorer accepts exactly one root per sentence."""
    for t in _raw(name):
        assert t.structure_problem() is None, t.sent_id
        assert sum(tok.head == 0 for tok in t.tokens) == 1, t.sent_id


# Regression pin: evalcore's own CoNLL 2018 figures for the committed raw parses, as reported in
# docs/results/french_raw_text.training.json (F1 in %, two decimals, as `evalcore attach` prints
# them; LAS on the relations' universal part, the scorer's).  Tokens, Sentences and Words do not
# depend on the gold's scheme: UD and SUD share their tokens, words and sentences.
SEGMENTATION = {"Tokens": 98.85, "Sentences": 88.42, "Words": 94.63}
PINNED_F1 = {
    ("spacy-ud", "ud"): {**SEGMENTATION, "UAS": 72.33, "LAS": 66.22},
    ("spacy-ud", "sud"): {**SEGMENTATION, "UAS": 38.60, "LAS": 20.19},
    ("spacy-ud-seed1", "ud"): {**SEGMENTATION, "UAS": 72.89, "LAS": 66.50},
    ("spacy-ud-seed1", "sud"): {**SEGMENTATION, "UAS": 39.27, "LAS": 20.53},
    ("spacy-sud", "ud"): {**SEGMENTATION, "UAS": 41.14, "LAS": 20.71},
    ("spacy-sud", "sud"): {**SEGMENTATION, "UAS": 73.59, "LAS": 69.08},
}
# (correct, gold, system): 9,738 gold tokens in 416 sentences (10,018 words), 9,786 spaCy tokens
# (= words: no multiword tokens) in 396 sentences
PINNED_COUNTS = {"Tokens": (9650, 9738, 9786), "Sentences": (359, 416, 396), "Words": (9370, 10018, 9786)}


def _table_f1(out: str) -> dict[str, float]:
    """F1 per metric from `evalcore attach`'s CoNLL 2018 table."""
    rows: dict[str, float] = {}
    for line in out.splitlines():
        cells = line.split()
        if cells and cells[0] in french_raw_text.SCORED and len(cells) >= 4:
            rows[cells[0]] = float(cells[3])
    return rows


@pytest.mark.slow  # the whole test set aligned by characters, twice (0.2–0.3 s in all here)
@pytest.mark.parametrize(("name", "against"), sorted(PINNED_F1))
def test_raw_parse_conll18_scores_regression_pin(name: str, against: str, run_cli: RunCli) -> None:
    gold = french_raw_text.gold_path(against, "test")
    parse = french_raw_text.raw_parse_path(name)
    res = run_cli("attach", str(gold), str(parse))
    assert res.code == 0, res.err
    assert "aligned by characters (CoNLL 2018)" in res.out
    assert _table_f1(res.out) == PINNED_F1[(name, against)]
    assert all(PINNED_F1[(name, against)][m] < 100 for m in ("Tokens", "Sentences", "Words"))
    # the committed report has the same figures (to 6 places, from evalcore's API)
    report = json.loads(french_raw_text.REPORT.read_text(encoding="utf-8"))
    (row,) = (r for r in report["scores"] if r["parse"] == name and r["against"] == f"{against}-gold")
    result = evaluate_conll18(gold, parse)
    for metric, counts in PINNED_COUNTS.items():
        s = result.get(metric)
        assert (s.correct, s.gold, s.system) == counts
    for metric in french_raw_text.SCORED:
        s = result.get(metric)
        assert row[metric]["f1"] == round(s.f1, 6)
        assert (row[metric]["correct"], row[metric]["gold"], row[metric]["system"]) == (
            s.correct,
            s.gold,
            s.system,
        )


@pytest.mark.slow  # ~15 s: six parses, two of raw text, 10,000 shuffles and the ranking's tests
def test_the_raw_text_evaluation_reproduces_the_committed_tables(tmp_path: Path) -> None:
    """docs/results/french_raw_text.{md,csv,tex}, byte for byte (docs/findings.md, "Raw text")."""
    french_raw_text.write_evaluation(*french_raw_text.evaluate(), tmp_path)
    for ext in ("md", "csv", "tex"):
        name = f"french_raw_text.{ext}"
        assert (tmp_path / name).read_bytes() == (ROOT / "docs" / "results" / name).read_bytes(), name
