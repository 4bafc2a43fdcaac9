"""Every worked example of docs/tedeval.md, "Definitions", one golden file each
(tests/golden/tedeval/*.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tedeval_helpers import from_pairs, from_spec

from evalcore.generalization import generalize, subsumes, tl_unify, unify
from evalcore.metrics.tedeval import sentence_ted
from evalcore.ted.spans import edit_script
from evalcore.trees import bracketed

GOLDEN = sorted((Path(__file__).parent / "golden" / "tedeval").glob("*.json"))
OPS = {"generalize": generalize, "unify": unify, "tl_unify": tl_unify}


def _load(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["source"], f"{path.name} must name its source"
    return data


def test_all_examples_present() -> None:
    assert len(GOLDEN) >= 15


@pytest.mark.parametrize("path", [p for p in GOLDEN if _load(p)["kind"] != "score"], ids=lambda p: p.stem)
def test_tree_example(path: Path) -> None:
    ex = _load(path)
    protocol = ex["protocol"]
    trees = [from_spec(spec, protocol) for spec in ex["inputs"]]  # type: ignore[union-attr]
    if ex["kind"] == "convert":
        (result,) = trees
    else:
        result = OPS[ex["kind"]](*trees)  # type: ignore[index]
        if ex["kind"] == "generalize":
            assert all(subsumes(result, t) for t in trees)
        if ex["kind"] == "unify":
            assert all(subsumes(t, result) for t in trees)
    assert bracketed(result) == ex["expected"]


@pytest.mark.parametrize("path", [p for p in GOLDEN if _load(p)["kind"] == "score"], ids=lambda p: p.stem)
def test_score_example(path: Path) -> None:
    ex = _load(path)
    words = ex["words"]
    gold1 = from_pairs(words, ex["gold1"])  # type: ignore[arg-type]
    gold2 = from_pairs(words, ex["gold2"])  # type: ignore[arg-type]
    parse = from_pairs(words, ex["parse"])  # type: ignore[arg-type]
    exp = ex["expected"]
    assert isinstance(exp, dict)
    general = generalize(gold1, gold2)
    assert general.pairs == from_pairs(words, exp["general_pairs"]).pairs
    labeled = sentence_ted(parse, gold1, general, labeled=True)
    assert len(edit_script(parse, general)) == exp["es_parse_cost"]
    assert len(labeled.discounted) == exp["discounted"]
    assert labeled.delta == exp["delta"]
    assert labeled.score == pytest.approx(exp["labeled"])
    assert sentence_ted(parse, gold1, general, labeled=False).score == pytest.approx(exp["unlabeled"])
    assert sentence_ted(gold1, gold1, general).score == pytest.approx(exp["gold1_labeled"])
