"""Significance and resampling at the points where a wrong rule would still give plausible numbers.

* **p = 0.05 is not significant.**  docs/tedeval.md, "The cross-scheme experiment and significance" /
docs/attachment.md: ``p = (r + 1) / (N + 1)``,
  ``n.s.`` marks p ≥ 0.05.  Twenty identical sentences, on each of which B beats A by the same
  margin: a shuffle reaches the observed difference only when it swaps all twenty sentences or
  none (swapping k of them scales the difference by |20 − 2k| / 20), which happens with
  probability 2 · 2⁻²⁰ per shuffle; with N = 19 shuffles r = 0 (the seed is fixed), so
  p = 1/20 = 0.05 exactly, and with N = 39, p = 1/40 = 0.025.  The mark is checked where each
  command, the TedEval experiment and the atlas's ranking decide it.
* **Bootstrap rows of sentences excluded by ``--max-len``** are not resampled: one kept sentence
  of UAS 2/3 gives every resample 2/3, so its interval is [66.67, 66.67] (Efron & Tibshirani
  1993 ch. 13: a resample of the scored sentences); three excluded sentences resampled as zero
  rows would give resamples with no token at all.
* **SEGEVAL's interval is of 1 − d/n** (ACL 2012 §4; docs/lattice.md, "SEGEVAL and token accuracy"): on the
paper's Figure 1
  sentence alone, every resample is that sentence, so the interval is the point 1 − 4/12.
* **FREVAL in batch** scores the pair over sizes 1..L with L the largest valid gold tree of
  *either* system (docs/freval.md, "FLR, FLP and F1"), as ``evalcore freval GOLD A B`` does (docs/batch.md:
  every number of the batch is the single command's).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ec_support import ROOT

from evalcore.batch import read_manifest, run_batch
from evalcore.cli import main
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import parse_conllu
from evalcore.limits import DEFAULT_LIMITS
from evalcore.ranking import RankingConfig, rank_parses
from evalcore.significance import SignificanceResult, approximate_randomization

GOLD = (
    "1\tthe\tthe\tDET\t_\t_\t2\tdet\t_\t_\n"
    "2\tcat\tcat\tNOUN\t_\t_\t3\tnsubj\t_\t_\n"
    "3\tsleeps\tsleep\tVERB\t_\t_\t0\troot\t_\t_\n"
)
# 'the' hangs from the verb (wrong head), 'cat' is obj (wrong label): UAS 2/3, LAS 1/3
PARSE = GOLD.replace("2\tdet", "3\tdet").replace("3\tnsubj", "3\tobj")
LONG = (
    "1\tdogs\tdog\tNOUN\t_\t_\t2\tnsubj\t_\t_\n"
    "2\tbark\tbark\tVERB\t_\t_\t0\troot\t_\t_\n"
    "3\tat\tat\tADP\t_\t_\t4\tcase\t_\t_\n"
    "4\tcats\tcat\tNOUN\t_\t_\t2\tobl\t_\t_\n"
)


def _doc(*sentences: str) -> str:
    return "".join(f"# sent_id = s{i}\n{s}\n" for i, s in enumerate(sentences, 1))


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- p = 0.05


def test_p_of_exactly_005_is_not_significant() -> None:
    a = [(2.0, 3.0)] * 20  # UAS 2/3 on each of 20 sentences
    b = [(3.0, 3.0)] * 20
    at_boundary = approximate_randomization(a, b, shuffles=19, seed=12345)
    assert at_boundary.p_value == 0.05 and not at_boundary.significant
    below = approximate_randomization(a, b, shuffles=39, seed=12345)
    assert below.p_value == 0.025 and below.significant
    assert not SignificanceResult(0.05, 0.1, 19, "ar", 1).significant


def test_the_ns_mark_and_p_of_the_paired_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``evalcore attach GOLD A B``: UAS p 0.0500 n.s. with 19 shuffles, 0.0250 unmarked with 39;
    NED is equal (both 100: 'the' and 'cat' keep their gold grandparent or parent), p 1.0000 n.s."""
    gold = _write(tmp_path, "gold.conllu", _doc(*[GOLD] * 20))
    parse = _write(tmp_path, "a.conllu", _doc(*[PARSE] * 20))
    for shuffles, p, mark in (("19", "0.0500", "n.s."), ("39", "0.0250", "")):
        out = _run(capsys, "attach", gold, f"A={parse}", f"B={gold}", "--shuffles", shuffles)
        rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:7]}
        assert rows["UAS"] == ["66.67", "100.00", "33.33", p, *([mark] if mark else [])]
        assert rows["NED"] == ["100.00", "100.00", "0.00", "1.0000", "n.s."]


def _scheme(parse: str) -> Scheme:
    gold = tuple(parse_conllu(_doc(*[GOLD] * 20)))
    return Scheme(
        "ud",
        NamedTrees("gold", gold),
        (NamedTrees("A", tuple(parse_conllu(_doc(*[parse] * 20)))), NamedTrees("B", gold)),
    )


@pytest.mark.parametrize(("shuffles", "p", "significant"), [(19, 0.05, False), (39, 0.025, True)])
def test_the_experiments_and_the_rankings_tests_at_the_boundary(
    shuffles: int, p: float, significant: bool
) -> None:
    """The TedEval experiment's '?' (not significantly different from the row's best) and the
    atlas's verdicts use the same rule: UAS of A (2/3) against B (1) on 20 sentences."""
    scheme = _scheme(PARSE)
    result = run_experiment([scheme], ExperimentConfig(shuffles=shuffles))
    row = result.row("ud", "UAS")
    assert row is not None and row.best == ("B",)
    (test,) = row.tests
    assert (test.p_value, test.significant) == (p, significant)
    assert row.not_significant_with_best("A") is not significant
    ranking = rank_parses(result, [scheme], RankingConfig(shuffles=shuffles))
    verdict = ranking.test("A", "B", "own gold", "UAS")
    assert verdict is not None
    assert (verdict.p_value, verdict.significant) == (p, significant)


# --------------------------------------------------------------------------- --max-len and the bootstrap


def test_bootstrap_leaves_out_the_sentences_max_len_excludes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One 3-token sentence (UAS 2/3, LAS 1/3) and three 4-token sentences, excluded by
    ``--max-len 3``: the interval is that of the one scored sentence, [66.67, 66.67]."""
    gold = _write(tmp_path, "gold.conllu", _doc(GOLD, LONG, LONG, LONG))
    parse = _write(tmp_path, "a.conllu", _doc(PARSE, LONG, LONG, LONG))
    doc = json.loads(
        _run(capsys, "attach", gold, parse, "--max-len", "3", "--bootstrap", "200", "--format", "json")
    )
    assert doc["intervals"]["uas"] == {"low": pytest.approx(2 / 3), "high": pytest.approx(2 / 3)}
    assert doc["intervals"]["las"] == {"low": pytest.approx(1 / 3), "high": pytest.approx(1 / 3)}


# --------------------------------------------------------------------------- SEGEVAL


def test_segeval_interval_is_of_one_minus_d_over_n(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ACL 2012 Figure 1 (tests/golden/lattice/bclm_hneim_figure1.json): BCLM gives d = 1, HNEIM
    d = 3, of |p| + |g| = 12 morphemes, so SEGEVAL U = 1 − 4/12; one sentence: every resample is
    it, the interval is that point (d/n would be 4/12)."""
    case = json.loads((ROOT / "tests/golden/lattice/bclm_hneim_figure1.json").read_text(encoding="utf-8"))

    def lattice(rows: list[list[object]]) -> str:
        return (
            "".join(f"{s}\t{e}\t{seg}\t{seg}\t{tag}\t{tag}\t_\t{tok}\n" for s, e, seg, tag, tok in rows)
            + "\n"
        )

    files = {
        "gold.mrg": case["gold"]["tree"] + "\n",
        "pred.mrg": case["parse"]["tree"] + "\n",
        "gold.lattices": lattice(case["gold"]["lattice"]),
        "pred.lattices": lattice(case["parse"]["lattice"]),
    }
    p = {name: _write(tmp_path, name, text) for name, text in files.items()}
    argv = [p["gold.mrg"], p["pred.mrg"], "--gold-lattice", p["gold.lattices"], "--pred-lattice"]
    doc = json.loads(
        _run(capsys, "lattice", *argv, p["pred.lattices"], "--bootstrap", "50", "--format", "json")
    )
    assert doc["segeval"]["U"] == pytest.approx(1 - 4 / 12)
    assert doc["intervals"]["SEGEVAL U"] == {
        "low": pytest.approx(1 - 4 / 12),
        "high": pytest.approx(1 - 4 / 12),
    }


# --------------------------------------------------------------------------- FREVAL in batch

FREVAL_GOLD = """(S (NP (NNS cats)) (VP (VBP sleep)))
(S (NP (DT the) (NN dog)) (VP (VBD sat) (PP (IN on) (NP (DT the) (NN mat)))))
(S (NP (NNS dogs)) (VP (VBP bark)))
(S (NP (NNS birds)) (VP (VBP sing)))
"""
# A drops 'on the mat' from sentence 2 (evalb's "Length unmatch": an error sentence, no counts)
FREVAL_A = """(S (NP (NNS cats)) (VP (VBP sleep)))
(S (NP (DT the) (NN dog)) (VP (VBD sat)))
(S (NNS dogs) (VP (VBP bark)))
(S (NP (NNS birds)) (VP (VBP sing)))
"""
FREVAL_B = """(S (NNS cats) (VP (VBP sleep)))
(S (NP (DT the) (NN dog)) (VP (VBD sat) (PP (IN on) (DT the) (NN mat))))
(S (NP (NNS dogs)) (VP (VBP bark)))
(S (NP (NNS birds)) (VP (VBP sing)))
"""


def test_batch_freval_pair_scores_the_largest_gold_tree_of_either_system(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The largest gold tree is sentence 2 (S, NP, VP, PP, NP: 5 brackets); it is an error for
    A, so A alone would give L = 3 (the other trees: S, NP, VP).  The pair is scored over sizes
    1..5 (the command's JSON names F1 up to size 5), and batch's p-values are the command's."""
    gold, a, b = (
        _write(tmp_path, n, t) for n, t in (("g.mrg", FREVAL_GOLD), ("a.mrg", FREVAL_A), ("b.mrg", FREVAL_B))
    )
    command = json.loads(
        _run(
            capsys, "freval", gold, f"a={a}", f"b={b}", "--shuffles", "200", "--seed", "5", "--format", "json"
        )
    )
    names = [m["metric"] for m in command["metrics"]]
    assert names[-6:] == ["recall_5", "precision_5", "f1_5", "flr", "flp", "f1"]
    manifest = tmp_path / "task.toml"
    manifest.write_text(
        f'[settings]\nshuffles = 200\nseed = 5\n\n[[gold]]\nname = "g"\nfile = "{gold}"\n'
        f'metrics = ["freval"]\n\n[gold.systems]\na = "{a}"\nb = "{b}"\n',
        encoding="utf-8",
    )
    rows = run_batch(read_manifest(str(manifest)), DEFAULT_LIMITS)
    batch_p = {r.score: r.value for r in rows if r.kind == "p"}
    expected = {m["metric"]: m["p_value"] for m in command["metrics"] if m["metric"] in ("flr", "flp", "f1")}
    assert batch_p == expected
