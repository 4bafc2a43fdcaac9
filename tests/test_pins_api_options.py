"""Keyword arguments of the public API that a test must notice being ignored (docs/api.md).

``tedeval(seed=..., fold_case=..., projectivize=...)``, ``lattice(tag_column=...)``,
``inspect(projectivize=..., fold_case=...)``, ``freval(cutoff_len=...)`` (tests/test_pins_freval.py).
Each is pinned to a hand count on a small tree written out here (docs/tedeval.md: 2012 function
trees, the labeled distance is the symmetric difference of (label, span) pairs, the score
``1 − δ/(|p| + |G|)``; docs/lattice.md: SEGEVAL ``d = |p| + |g| − 2·LCS`` per token), or, for the
random seed, to the command line's JSON with the same ``--seed`` (docs/api.md: the API's numbers are
the command's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import evalcore
from evalcore.cli import main
from evalcore.examples import dep_tree
from evalcore.experiment import ExperimentResult
from evalcore.formats.conllu import write_conllu
from evalcore.trees import DepTree

ROOT = Path(__file__).resolve().parent.parent
PINS = ROOT / "tests" / "fixtures" / "reference" / "pins"

# "ran the fast dog": the parse attaches "the" to "dog" across "fast" (a non-projective arc);
# lifted (Nivre & Nilsson, docs/tedeval.md "Protocols"), "the" hangs from "ran": the gold.
FORMS = ["ran", "the", "fast", "dog"]
UPOS = ["VERB", "DET", "ADV", "NOUN"]


def non_projective() -> DepTree:
    return dep_tree(FORMS, [0, 4, 1, 1], ["root", "det", "advmod", "obj"], UPOS, "s1")


def lifted() -> DepTree:
    return dep_tree(FORMS, [0, 1, 1, 1], ["root", "det", "advmod", "obj"], UPOS, "s1")


def scores(result: ExperimentResult, parse: str = "p") -> dict[tuple[str, str], float]:
    rows: list[dict[str, Any]] = result.to_dict()["rows"]  # type: ignore[assignment]
    return {(r["against"], r["metric"]): r["score"] for r in rows if r["parse"] == parse}


# ---------------------------------------------------------------------------
# tedeval


def test_tedeval_projectivize_lifts_the_parse() -> None:
    """Hand count, 2012 protocol.  Parse pairs: (hd,{1}) (det,{2}) (advmod,{3}) (obj,{2,4}) (hd,{4})
    -- "dog" has a dependent, so its node spans {2,4} with "dog" as its hd; gold pairs: (hd,{1})
    (det,{2}) (advmod,{3}) (obj,{4}).  Labeled δ = 3 (del obj{2,4}, del hd{4}, ins obj{4}) over
    5 + 4: L-TED 1 − 3/9 = 2/3; unlabeled δ = 1 (the span {2,4}): U-TED 8/9.  Projectivized, the
    parse is the gold: 1.0, 1.0."""
    experiment = {"a": ([lifted()], {"p": [non_projective()]})}
    plain_result = evalcore.tedeval(experiment, shuffles=0)
    plain = scores(plain_result)
    assert plain[("a", "L-TED")] == pytest.approx(2 / 3)
    assert plain[("a", "U-TED")] == pytest.approx(8 / 9)
    lift = evalcore.tedeval(experiment, shuffles=0, projectivize=True)
    assert scores(lift)[("a", "L-TED")] == scores(lift)[("a", "U-TED")] == 1.0
    assert "|proj:yes|" in lift.signature and "|proj:no|" in plain_result.signature


def test_tedeval_fold_case_folds_the_labels() -> None:
    """Hand count: gold "he runs" (he ← runs nsubj), parse the same with NSUBJ.  Pairs (nsubj,{1})
    (hd,{2}) against (NSUBJ,{1}) (hd,{2}): labeled δ = 2 (a deletion and an insertion) over 2 + 2,
    L-TED 1 − 2/4 = 0.5; with case folded the labels agree: 1.0.  U-TED is 1.0 either way."""
    gold = dep_tree(["he", "runs"], [2, 0], ["nsubj", "root"], sent_id="s1")
    parse = dep_tree(["he", "runs"], [2, 0], ["NSUBJ", "root"], sent_id="s1")
    experiment = {"a": ([gold], {"p": [parse]})}
    kept = evalcore.tedeval(experiment, shuffles=0)
    folded = evalcore.tedeval(experiment, shuffles=0, fold_case=True)
    assert scores(kept)[("a", "L-TED")] == pytest.approx(0.5)
    assert scores(folded)[("a", "L-TED")] == 1.0
    assert scores(kept)[("a", "U-TED")] == scores(folded)[("a", "U-TED")] == 1.0
    assert "|case:fold|" in folded.signature and "|case:keep|" in kept.signature


def _two_parses(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Eight sentences of "a b c d"; p attaches "a" wrongly in the first three, q mislabels "d"
    in the last five: their differences are small enough that the shuffles decide the p-value."""
    words = ["a", "b", "c", "d"]
    gold = [dep_tree(words, [2, 0, 2, 3], ["x", "root", "y", "z"], sent_id=f"s{k}") for k in range(8)]
    p = [
        dep_tree(words, [3, 0, 2, 3] if k < 3 else [2, 0, 2, 3], ["x", "root", "y", "z"], sent_id=f"s{k}")
        for k in range(8)
    ]
    q = [
        dep_tree(words, [2, 0, 2, 3], ["x", "root", "y", "w" if k >= 3 else "z"], sent_id=f"s{k}")
        for k in range(8)
    ]
    out = []
    for name, trees in (("gold", gold), ("p", p), ("q", q)):
        path = tmp_path / f"{name}.conllu"
        path.write_text(write_conllu(trees), encoding="utf-8")
        out.append(path)
    return out[0], out[1], out[2]


def _p_values(doc: dict[str, Any]) -> list[float]:
    return [r["significant_vs"]["q"]["p_value"] for r in doc["rows"] if r["parse"] == "p"]


def test_tedeval_seed_is_the_commands_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``seed=2`` gives the p-values of ``evalcore tedeval --seed 2`` (docs/api.md: the command's
    numbers), which on this input are not those of the default seed 12345; every p-value is
    (r + 1)/(N + 1) with N = 19 shuffles (docs/tedeval.md)."""
    gold, p, q = _two_parses(tmp_path)
    api = evalcore.tedeval({"ud": (gold, {"p": p, "q": q})}, shuffles=19, seed=2)
    argv = ["tedeval", "--scheme", "ud", str(gold), f"p={p}", f"q={q}", "--shuffles", "19", "--seed", "2"]
    assert main([*argv, "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert api.to_dict() == cli
    assert "|seed:2|" in api.signature
    default = evalcore.tedeval({"ud": (gold, {"p": p, "q": q})}, shuffles=19)
    assert _p_values(api.to_dict()) != _p_values(default.to_dict())
    assert all(round(v * 20) == pytest.approx(v * 20) for v in _p_values(cli))


# ---------------------------------------------------------------------------
# inspect


def _single(report: object) -> tuple[float, float]:
    view = report.parses[0]  # type: ignore[attr-defined]
    return view.single[0].score, view.single[1].score


def test_inspect_projectivize_and_fold_case() -> None:
    """The same hand counts as the tedeval tests, one sentence in the inspector: (U-TED, L-TED)
    (8/9, 2/3) for the non-projective parse, (1, 1) projectivized; (1, 0.5) for NSUBJ against
    nsubj, (1, 1) with case folded."""
    golds = {"a": lifted()}
    parses = {"p": ("a", non_projective())}
    assert _single(evalcore.inspect(golds, parses)) == pytest.approx((8 / 9, 2 / 3))
    assert _single(evalcore.inspect(golds, parses, projectivize=True)) == (1.0, 1.0)
    gold = dep_tree(["he", "runs"], [2, 0], ["nsubj", "root"])
    parse = dep_tree(["he", "runs"], [2, 0], ["NSUBJ", "root"])
    assert _single(evalcore.inspect({"a": gold}, {"p": ("a", parse)})) == pytest.approx((1.0, 0.5))
    assert _single(evalcore.inspect({"a": gold}, {"p": ("a", parse)}, fold_case=True)) == (1.0, 1.0)


# ---------------------------------------------------------------------------
# lattice


@pytest.mark.parametrize("tag_column", ["cpos", "fpos"])
def test_lattice_tag_column(tag_column: str) -> None:
    """tests/fixtures/reference/pins/lattice_fpos.*: gold "a b | c" tagged (CPOS/FPOS) X/XA Q/YB W/WC,
    the prediction the same but c W/WX.  By CPOS the two analyses agree: SEGEVAL labeled 1, token
    accuracy 1.  By FPOS token 2 differs: d = 1 + 1 − 2·0 = 2 over Σ(|p| + |g|) = 6, so 1 − 2/6 =
    2/3, and 1 of 2 tokens exact.  The ambiguity lattice offers b as Y/YB and c as W/WC: by CPOS
    both analyses leave it at token 1 (b tagged Q), by FPOS only the prediction does (token 2)."""
    result = evalcore.lattice(
        PINS / "lattice_fpos.gold.conll",
        PINS / "lattice_fpos.pred.conll",
        gold_lattice=PINS / "lattice_fpos.gold.lattice",
        pred_lattice=PINS / "lattice_fpos.pred.lattice",
        ambiguity_lattice=PINS / "lattice_fpos.ambiguity.lattice",
        tag_column=tag_column,  # type: ignore[arg-type]
    )
    seg, check = result.segeval, result.lattice_check
    assert seg.unlabeled == 1.0
    assert check is not None
    if tag_column == "cpos":
        assert (seg.labeled, seg.token_accuracy_labeled) == (1.0, 1.0)
        assert (check.gold_outside, check.pred_outside, check.gold_tokens_outside) == (1, 1, 1)
    else:
        assert seg.labeled == pytest.approx(2 / 3)
        assert seg.token_accuracy_labeled == 0.5
        assert (check.gold_outside, check.pred_outside, check.gold_tokens_outside) == (0, 1, 0)
    assert (check.gold_outside_segments, check.pred_outside_segments) == (0, 0)
    assert f"|tag:{tag_column}|" in result.signature


# ---------------------------------------------------------------------------
# attach: the bootstrap's confidence level (a float keyword)

FR = ROOT / "assets" / "fr_gsd"


def test_attach_level_is_the_commands_level(capsys: pytest.CaptureFixture[str]) -> None:
    """``level=0.8`` gives the command's ``--level 0.8`` intervals (docs/api.md), narrower than the
    default 0.95's from the same seeded resamples (a percentile interval shrinks with its level)."""
    gold, system = FR / "fr_gsd-ud-test.r2.16.conllu.gz", FR / "parses" / "fr_gsd-test.spacy-ud.conllu.gz"
    argv = ["attach", str(gold), str(system), "--bootstrap", "20", "--seed", "7", "--format", "json"]
    assert main([*argv, "--level", "0.8"]) == 0
    expected = json.loads(capsys.readouterr().out)
    narrow = evalcore.attach(gold, system, bootstrap=20, seed=7, level=0.8)
    assert narrow.to_dict() == expected
    wide = evalcore.attach(gold, system, bootstrap=20, seed=7)
    assert narrow.intervals is not None and wide.intervals is not None
    n, w = narrow.intervals.get("las"), wide.intervals.get("las")
    assert w.low <= n.low and n.high <= w.high and (w.low, w.high) != (n.low, n.high)
