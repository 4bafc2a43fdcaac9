"""Bootstrap intervals and paired tests on per-sentence count vectors, for every metric family
(evalcore.resampling, evalcore.significance; docs/tedeval.md, "The cross-scheme experiment and significance"),
and their command-line forms."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from evalcore.cli import main
from evalcore.formats.conllu import read_conllu
from evalcore.metrics.attachment import attach_corpus
from evalcore.metrics.conll18 import evaluate_conll18
from evalcore.metrics.freval import FrevalConfig, freval_corpus
from evalcore.resampling import (
    BootstrapSettings,
    PairedTestSettings,
    attach_table,
    compare,
    conll18_table,
    freval_limit,
    freval_table,
    intervals,
    paired_tests,
    with_settings,
)
from evalcore.significance import bootstrap_intervals, randomization_tests

ROOT = Path(__file__).resolve().parent.parent
FR = ROOT / "assets/fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz"
FR_A = ROOT / "assets/fr_gsd/parses/fr_gsd-test.spacy-ud.conllu.gz"
FR_B = ROOT / "assets/fr_gsd/parses/fr_gsd-test.spacy-ud-seed1.conllu.gz"
DATA = ROOT.parent / "shared/data"
EVALB = DATA / "evalb/sample"
C18 = DATA / "parser_outputs/conll2018/en_ewt"


def _f1_scorer(sums: np.ndarray) -> np.ndarray:
    """Fields (matched, gold, system) -> F1 = 2m / (g + s), written here independently."""
    m, g, s = sums[:, 0], sums[:, 1], sums[:, 2]
    return (2 * m / (g + s))[:, None]


# ---------------------------------------------------------------- the generalized core


def test_paired_ar_on_f1_equals_exhaustive_enumeration() -> None:
    """Three sentences: all 2^3 swap patterns enumerated by hand (a reference written here). The AR
    estimate with many shuffles converges on the exhaustive share of patterns at least as extreme;
    here 4 of 8 patterns (the swaps that keep or mirror the observed split) reach the observed
    difference, so p ≈ 0.5."""
    a = [(3, 4, 4), (1, 5, 3), (2, 2, 2)]  # (matched, gold, system) per sentence
    b = [(4, 4, 4), (3, 5, 5), (2, 2, 2)]

    def f1(rows: list[tuple[int, int, int]]) -> float:
        m, g, s = (sum(r[i] for r in rows) for i in range(3))
        return 2 * m / (g + s)

    observed = abs(f1(a) - f1(b))
    hits = 0
    for swaps in itertools.product((False, True), repeat=3):
        pa = [y if sw else x for x, y, sw in zip(a, b, swaps, strict=True)]
        pb = [x if sw else y for x, y, sw in zip(a, b, swaps, strict=True)]
        hits += abs(f1(pa) - f1(pb)) >= observed - 1e-12
    exact = hits / 8
    assert exact == 0.5  # hand count: the third sentence is identical, so swaps come in equal pairs
    (r,) = randomization_tests(a, b, _f1_scorer, shuffles=40_000, seed=3)
    assert r.observed == pytest.approx(observed)
    assert r.p_value == pytest.approx(exact, abs=0.01)


def test_f1_is_resampled_from_counts_not_from_sentence_scores() -> None:
    """A sentence F1 average would give (1 + 0) / 2 = 0.5; the corpus F1 of the summed counts is
    2·9 / (10 + 10) = 0.9 (one big correct sentence, one tiny wrong one)."""
    rows = [(9, 9, 9), (0, 1, 1)]
    (iv,) = bootstrap_intervals(rows, _f1_scorer, samples=200, seed=1)
    assert iv.point == pytest.approx(0.9)
    # every resample is one of: both sentences (0.9), only the first (1.0), only the second (0.0)
    assert iv.high == pytest.approx(1.0) and iv.low == pytest.approx(0.0)


def test_identical_systems_have_p_one_for_every_metric() -> None:
    rng = random.Random(4)
    rows = [(rng.randint(0, 5), rng.randint(5, 9), rng.randint(5, 9)) for _ in range(30)]
    results = randomization_tests(rows, rows, _f1_scorer, shuffles=300, seed=2)
    assert [r.p_value for r in results] == [1.0]


def test_bootstrap_intervals_seeded() -> None:
    rng = random.Random(8)
    rows = [(rng.randint(0, 5), rng.randint(5, 9), rng.randint(5, 9)) for _ in range(40)]
    one = bootstrap_intervals(rows, _f1_scorer, samples=300, seed=7)
    assert one == bootstrap_intervals(rows, _f1_scorer, samples=300, seed=7)
    assert one != bootstrap_intervals(rows, _f1_scorer, samples=300, seed=8)


def test_chunking_does_not_change_the_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    import evalcore.significance as sig

    rng = random.Random(9)
    rows = [(rng.randint(0, 5), rng.randint(5, 9), rng.randint(5, 9)) for _ in range(25)]
    rows_b = [(m + rng.choice((0, 1)), g, s) for m, g, s in rows]
    big = bootstrap_intervals(rows, _f1_scorer, samples=120, seed=5)
    big_t = randomization_tests(rows, rows_b, _f1_scorer, shuffles=120, seed=5)
    monkeypatch.setattr(sig, "_CELLS", 30)  # one trial per chunk
    assert bootstrap_intervals(rows, _f1_scorer, samples=120, seed=5) == big
    assert randomization_tests(rows, rows_b, _f1_scorer, shuffles=120, seed=5) == big_t


def test_with_settings_inserts_before_the_version() -> None:
    assert with_settings("attach|punct:yes|v0.1.0", [("bootstrap", 10), ("level", "0.9")]) == (
        "attach|punct:yes|bootstrap:10|level:0.9|v0.1.0"
    )


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="bootstrap"):
        BootstrapSettings(0)
    with pytest.raises(ValueError, match="level"):
        BootstrapSettings(10, 1.5)
    with pytest.raises(ValueError, match="shuffles"):
        PairedTestSettings(0)


# ---------------------------------------------------------------- attachment on real data


def _attach_counts(path: Path = FR_A) -> list:  # type: ignore[type-arg]
    result = attach_corpus(read_conllu(FR), read_conllu(path))
    return [c for _, c in result.per_sentence]


@pytest.mark.slow
def test_attach_intervals_contain_the_point_and_shrink_with_more_sentences() -> None:
    """French GSD test (416 sentences), spaCy's parse: the first 50 sentences vs all of them."""
    counts = _attach_counts()
    settings = BootstrapSettings(1000, 0.95, 12345)
    whole = intervals(attach_table(counts), settings)
    first = intervals(attach_table(counts[:50]), settings)
    corpus = attach_corpus(read_conllu(FR), read_conllu(FR_A)).score
    for name, point in zip(
        whole.names, (corpus.uas, corpus.las, corpus.label, corpus.undirected, corpus.ned), strict=True
    ):
        iv, small = whole.get(name), first.get(name)
        assert iv.point == pytest.approx(point)  # the scorer of all sentences is the corpus score
        assert iv.low <= iv.point <= iv.high
        assert small.low <= small.point <= small.high
        assert iv.high - iv.low < small.high - small.low


@pytest.mark.slow
def test_attach_pair_identical_systems_p_is_one_and_values_are_the_corpus_scores() -> None:
    counts = _attach_counts()
    from evalcore.resampling import attach_pair_tables

    ta, tb = attach_pair_tables(counts, counts)
    cmp = compare(ta, tb, PairedTestSettings(200, 1))
    assert all(t.p_value == 1.0 for t in cmp.tests)
    corpus = attach_corpus(read_conllu(FR), read_conllu(FR_A)).score
    assert cmp.a[:2] == pytest.approx((corpus.uas, corpus.las))


# ---------------------------------------------------------------- CoNLL 2018 aligned path

needs_c18 = pytest.mark.skipif(not C18.exists(), reason="../shared/data absent")


@needs_c18
@pytest.mark.slow
def test_conll18_per_sentence_intervals_contain_the_scorers_f1() -> None:
    result = evaluate_conll18(
        str(C18 / "gold.en_ewt.conllu.gz"), str(C18 / "UDPipe-Future.en_ewt.conllu.gz"), per_sentence=True
    )
    ivs = intervals(conll18_table(result.sentences), BootstrapSettings(300, 0.95, 3))
    for row in result.scores:
        iv = ivs.get(f"{row.metric} f1")
        assert iv.point == pytest.approx(row.f1)
        assert iv.low <= iv.point <= iv.high
        if row.aligned_accuracy is not None:
            assert ivs.get(f"{row.metric} aligned_accuracy").point == pytest.approx(row.aligned_accuracy)


# ---------------------------------------------------------------- FREVAL

needs_evalb = pytest.mark.skipif(not EVALB.exists(), reason="../shared/data absent")


@needs_evalb
@pytest.mark.parametrize(
    "config", [FrevalConfig(), FrevalConfig(max_size=4), FrevalConfig(alpha=(0.5, 0.25, 0.25))]
)
def test_freval_scorer_of_all_sentences_is_the_corpus_score(config: FrevalConfig) -> None:
    """Unlimited (L = largest gold tree), limited and weighted: the vectorized scorer on the summed
    counts gives exactly what freval's score() prints, per size and mixed."""
    from evalcore.formats.ptb import read_ptb_sentences

    result = freval_corpus(
        read_ptb_sentences(str(EVALB / "sample.gld")), read_ptb_sentences(str(EVALB / "sample.tst")), config
    )
    limit = freval_limit(result.per_sentence, config)
    assert limit == result.score.limit
    table = freval_table(result.per_sentence, config, limit)
    point = table.scorer(table.rows.sum(axis=0)[None, :])[0]
    values = dict(zip(table.names, point, strict=True))
    for r in result.score.per_size:
        assert values[f"recall_{r.size}"] == pytest.approx(r.recall)
        assert values[f"precision_{r.size}"] == pytest.approx(r.precision)
        assert values[f"f1_{r.size}"] == pytest.approx(r.f1)
    assert (values["flr"], values["flp"], values["f1"]) == pytest.approx(
        (result.score.flr, result.score.flp, result.score.f1)
    )
    ivs = intervals(table, BootstrapSettings(200, 0.9, 2))
    for name in ("flr", "flp", "f1"):
        assert ivs.get(name).low <= ivs.get(name).point <= ivs.get(name).high


def test_freval_unlimited_limit_follows_the_resample() -> None:
    """Uniform α over 1..L with L the largest gold tree *of the resample*: a resample of only the
    small sentence scores its one size with weight 1, as score() would on those counts."""
    from evalcore.metrics.freval import FrevalCounts, score

    small = FrevalCounts(gold=(2,), test=(2,), matched=(1,), sentences=1, largest_gold=1)
    big = FrevalCounts(gold=(3, 2), test=(3, 2), matched=(3, 2), sentences=1, largest_gold=2)
    config = FrevalConfig()
    table = freval_table([small, big], config, 2)
    only_small = table.scorer(table.rows[:1])[0]
    expected = score(small)
    assert only_small[-3:] == pytest.approx((expected.flr, expected.flp, expected.f1))
    assert expected.flr == pytest.approx(0.5)  # hand count: 1 of 2 gold brackets matched, L = 1


# ---------------------------------------------------------------- command line


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.slow
def test_cli_attach_bootstrap_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _run(capsys, "attach", str(FR), str(FR_A), "--bootstrap", "200", "--seed", "4")
    assert code == 0
    assert "95% CI" in text and "|bootstrap:200|level:0.95|seed:4|v" in text
    code, out, _ = _run(
        capsys, "attach", str(FR), str(FR_A), "--bootstrap", "200", "--seed", "4", "--format", "json"
    )
    doc = json.loads(out)
    assert doc["bootstrap"] == {"samples": 200, "level": 0.95, "seed": 4}
    for key in ("uas", "las", "label", "undirected", "ned"):
        assert doc["intervals"][key]["low"] <= doc[key] <= doc["intervals"][key]["high"]
        assert f"{100 * doc['intervals'][key]['low']:.2f}" in text  # the text prints the same interval
    code, csv, _ = _run(capsys, "attach", str(FR), str(FR_A), "--bootstrap", "50", "--format", "csv")
    assert csv.splitlines()[0] == "metric,value,low,high"


@pytest.mark.slow
def test_cli_attach_two_systems(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "attach", str(FR), str(FR_A), str(FR_B), "--shuffles", "500", "--format", "json"
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["test"] == {"method": "ar", "shuffles": 500, "seed": 12345}
    single_a = attach_corpus(read_conllu(FR), read_conllu(FR_A)).score
    single_b = attach_corpus(read_conllu(FR), read_conllu(FR_B)).score
    uas = doc["metrics"][0]
    assert uas["metric"] == "uas"
    assert (uas["a"], uas["b"]) == pytest.approx((single_a.uas, single_b.uas))
    assert 1 / 501 <= uas["p_value"] <= 1.0
    code, text, _ = _run(capsys, "attach", str(FR), str(FR_A), str(FR_A), "--shuffles", "100")
    assert code == 0 and "1.0000" in text and "n.s." in text  # identical systems: p = 1


def test_cli_bad_bootstrap_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "attach", str(FR), str(FR_A), "--bootstrap", "0")
    assert code == 2 and "bootstrap" in err
    code, _, err = _run(capsys, "freval", "x.mrg", "y.mrg", "--level", "2", "--bootstrap", "5")
    assert code == 2 and "level" in err


@needs_evalb
def test_cli_freval_bootstrap_and_pair(capsys: pytest.CaptureFixture[str]) -> None:
    gld, tst = str(EVALB / "sample.gld"), str(EVALB / "sample.tst")
    code, out, _ = _run(
        capsys, "freval", gld, tst, "--max-size", "3", "--bootstrap", "100", "--format", "json"
    )
    assert code == 0
    doc = json.loads(out)
    for row in doc["per_size"]:
        assert row["f1_low"] <= row["f1"] <= row["f1_high"]
    assert doc["flr_low"] <= doc["flr"] <= doc["flr_high"] and "bootstrap:100" in doc["signature"]
    code, text, _ = _run(capsys, "freval", gld, tst, "--max-size", "3", "--bootstrap", "100")
    assert "F1_s 95% CI" in text and "FLR " in text
    code, out, _ = _run(
        capsys, "freval", gld, tst, tst, "--max-size", "3", "--shuffles", "100", "--format", "json"
    )
    doc = json.loads(out)
    assert [m["metric"] for m in doc["metrics"]][-3:] == ["flr", "flp", "f1"]
    assert all(m["p_value"] == 1.0 and m["difference"] == 0 for m in doc["metrics"])


@pytest.mark.slow
def test_cli_tedeval_bootstrap_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys,
        "tedeval", "--scheme", "ud", str(FR), f"a={FR_A}", f"b={FR_B}",
        "--shuffles", "100", "--bootstrap", "100", "--format", "json",
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    assert doc["bootstrap"]["samples"] == 100
    for row in doc["rows"]:
        assert row["low"] <= row["score"] <= row["high"]
    # UAS's interval is attach's: the same sentences, counts and seed
    uas_a = next(r for r in doc["rows"] if r["metric"] == "UAS" and r["parse"] == "a")
    ivs = intervals(attach_table(_attach_counts()), BootstrapSettings(100, 0.95, 12345))
    assert ivs.get("uas").point == pytest.approx(uas_a["score"])
    assert (uas_a["low"], uas_a["high"]) == pytest.approx((ivs.get("uas").low, ivs.get("uas").high))


def test_paired_tests_need_the_same_metrics() -> None:
    from evalcore.resampling import ratio_table

    with pytest.raises(ValueError, match="same metrics"):
        paired_tests(ratio_table("x", [(1, 2)]), ratio_table("y", [(1, 2)]), PairedTestSettings(10))


# ---------------------------------------------------------------- lattice (SEGEVAL, TedEval, token accuracy)

HE = DATA / "parser_outputs/conll2018/he_htb"


@pytest.mark.skipif(not HE.exists(), reason="../shared/data absent")
@pytest.mark.slow
@pytest.mark.parametrize("average", [False, True])
def test_lattice_intervals_are_around_the_scenario_tables_scores(average: bool) -> None:
    """Hebrew HTB, ONLP-lab's raw-text output: the scorer of all sentences' pairs is the table's
    SEGEVAL, TEDEVAL and token accuracy (global or sentence average), and each interval holds it."""
    from evalcore.lattice.reading import PairStream
    from evalcore.metrics.joint import JointConfig, SentenceJoint, evaluate_stream
    from evalcore.resampling import lattice_row, lattice_table

    config = JointConfig(average="sentence" if average else "global")
    rows: list[tuple[tuple[float, float], ...]] = []

    def keep(s: SentenceJoint) -> None:
        rows.append(lattice_row(s, average))

    stream = PairStream(
        str(HE / "gold.he_htb.conllu.gz"), str(HE / "ONLP-lab.he_htb.conllu.gz"), options=config.read_options
    )
    result = evaluate_stream(stream, config, on_sentence=keep)
    assert result.ted_unlabeled is not None and result.ted_labeled is not None
    ivs = intervals(lattice_table(rows, average), BootstrapSettings(300, 0.95, 1))
    expected = {
        "SEGEVAL U": result.segeval.unlabeled,
        "SEGEVAL L": result.segeval.labeled,
        "TEDEVAL U": result.ted_unlabeled.score,
        "TEDEVAL L": result.ted_labeled.score,
        "tok.acc U": result.segeval.token_accuracy_unlabeled,
        "tok.acc L": result.segeval.token_accuracy_labeled,
    }
    for name, value in expected.items():
        iv = ivs.get(name)
        assert iv.point == pytest.approx(value), name
        assert iv.low <= iv.point <= iv.high
        assert iv.high - iv.low > 0


@pytest.mark.skipif(not HE.exists(), reason="../shared/data absent")
@pytest.mark.slow
def test_cli_lattice_bootstrap_json_and_classic(capsys: pytest.CaptureFixture[str]) -> None:
    gold = str(HE / "gold.he_htb.conllu.gz")
    code, out, _ = _run(capsys, "lattice", gold, f"self={gold}", "--bootstrap", "50", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["bootstrap"]["samples"] == 50
    # the gold against itself: every score and its interval are 1 (classic: attachment, gold scenario)
    assert doc["classic"]["metric"] == "attachment"
    for name, iv in doc["intervals"].items():
        assert (iv["low"], iv["high"]) == (1.0, 1.0), name
    assert set(doc["intervals"]) >= {"SEGEVAL U", "TEDEVAL L", "classic U", "classic L"}


def test_ratio_and_ted_tables_score_their_sums_by_hand() -> None:
    """TedEval ``1 − Σδ/Σnorm`` = 1 − (2 + 6)/(10 + 30) = 0.8; a ratio Σx/Σn = (2 + 6)/40 = 0.2; in
    one table, both from the same resamples."""
    from evalcore.resampling import cells_table, ratio_table

    pairs = [(2.0, 10.0), (6.0, 30.0)]
    settings = BootstrapSettings(100, 0.95, 1)
    assert intervals(ratio_table("t", pairs, "ted"), settings).get("t").point == pytest.approx(0.8)
    assert intervals(ratio_table("r", pairs), settings).get("r").point == pytest.approx(0.2)
    both = intervals(cells_table(("t", "r"), (pairs, pairs), ("ted", "ratio")), settings)
    t, r = both.get("t"), both.get("r")
    assert (t.point, r.point) == pytest.approx((0.8, 0.2))
    assert (t.low, t.high) == pytest.approx((1 - r.high, 1 - r.low))  # the same draws, mirrored
