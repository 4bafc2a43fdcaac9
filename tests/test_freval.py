"""FREVAL (docs/freval.md, "FREVAL"): per-size counts, FLR/FLP/F1, PARSEVAL at size 1, the CLI and the plot
tables."""

from __future__ import annotations

import csv
import io
import json
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.cli import main
from evalcore.formats.prm import COLLINS, EvalbParams, read_prm
from evalcore.formats.ptb import PtbLine, parse_ptb_line, read_ptb_sentences, write_ptb
from evalcore.fragments import fragment_polynomials
from evalcore.metrics.freval import (
    EMPTY_SIZES_LISTED,
    FrevalConfig,
    f1_by_size_frame,
    freval_corpus,
    score,
    sentence_counts,
    table1_frame,
)
from evalcore.metrics.parseval import ParsevalConfig, SentenceComparison, compare_sentence, parseval_corpus

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets" / "evalb"
SAMPLE = ASSETS / "sample"
DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.exists(), reason=f"shared data folder {DATA} is absent")


def _sentences(path: Path) -> list[PtbLine]:
    return list(read_ptb_sentences(path))


# ---------------------------------------------------------------------------
# FREVAL at size 1 is PARSEVAL, on every file we have


def _file_pairs() -> list[tuple[str, Path, Path, EvalbParams]]:
    pairs = [
        ("sample/sample.prm", SAMPLE / "sample.gld", SAMPLE / "sample.tst", read_prm(SAMPLE / "sample.prm")),
        ("sample/new.prm", SAMPLE / "sample.gld", SAMPLE / "sample.tst", read_prm(ASSETS / "new.prm")),
        ("sample/COLLINS", SAMPLE / "sample.gld", SAMPLE / "sample.tst", COLLINS),
    ]
    if DATA.exists():
        bug = DATA / "evalb" / "bug"
        far = DATA / "farpahc" / "berkeley_split0"
        far_prm = read_prm(far / "sample.prm.as_used_for_far0eval")
        pairs += [
            ("bug/new.prm", bug / "bug.gld", bug / "bug.tst", read_prm(ASSETS / "new.prm")),
            ("farpahc", far / "far_split0testing.oneline.psd", far / "far_split0machineparsed.psd", far_prm),
            ("farpahc-pretty", far / "far_split0testing.psd", far / "far_split0machineparsed.psd", far_prm),
        ]
    return pairs


@pytest.mark.parametrize(
    ("name", "gold", "test", "params"),
    # the FarPaHC split (over a second of CPU each) is left to make test
    [pytest.param(*p, marks=[pytest.mark.slow] if p[0].startswith("farpahc") else []) for p in _file_pairs()],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_size_one_is_parseval_on_files(name: str, gold: Path, test: Path, params: EvalbParams) -> None:
    for extraction in (ParsevalConfig(params), ParsevalConfig(params.with_overrides(labeled=False))):
        g, t = _sentences(gold), _sentences(test)
        p = parseval_corpus(g, t, extraction)
        for strict in (False, True):
            f = freval_corpus(g, t, FrevalConfig(extraction, max_size=1, strict=strict)).score
            assert f.flr == p.all.recall
            assert f.flp == p.all.precision
            assert (f.per_size[0].matched, f.per_size[0].gold, f.per_size[0].test) == (
                p.all.counts.matched,
                p.all.counts.gold,
                p.all.counts.test,
            )
            assert (f.sentences, f.valid, f.errors, f.skipped) == (
                p.all.counts.sentences,
                p.all.counts.valid,
                p.all.counts.errors,
                p.all.counts.skipped,
            )


@needs_data
def test_size_one_is_parseval_on_wsj_sample() -> None:
    files = sorted((DATA / "ptb_wsj_sample" / "combined_mrg").glob("wsj_00[0-2]*.mrg"))
    gold = [s for f in files for s in read_ptb_sentences(f)]
    # a "parser" that calls every VP an NP and every PP an ADVP: plenty of non-matches
    test = []
    for s in gold:
        text = write_ptb(s.trees).replace("(VP", "(NP").replace("(PP", "(ADVP")
        test.append(PtbLine(s.line, parse_ptb_line(text.strip()), "", "test"))
    p = parseval_corpus(gold, test)
    f = freval_corpus(gold, test, FrevalConfig(max_size=1)).score
    assert (f.flr, f.flp) == (p.all.recall, p.all.precision)
    assert p.all.counts.valid == len(gold) and p.all.recall < 0.8


# ---------------------------------------------------------------------------
# random tree pairs (hypothesis)

LABELS = ("A", "B", "C", "A-SBJ", "TOP")
TAGS = ("X", "Y", "-NONE-", ",")


@st.composite
def bracketed(draw: st.DrawFn, words: tuple[str, ...]) -> str:
    """A random tree over ``words``, written with brackets (built iteratively)."""
    out: list[str] = []
    stack: list[tuple[int, int, int] | None] = [(0, len(words), 0)]  # None = close a bracket
    while stack:
        item = stack.pop()
        if item is None:
            out.append(")")
            continue
        s, e, depth = item
        if e - s == 1 and (depth >= 3 or draw(st.booleans())):
            out.append(f"({draw(st.sampled_from(TAGS))} {words[s]})")
            continue
        out.append(f"({draw(st.sampled_from(LABELS))}")
        stack.append(None)
        if depth >= 3:
            cuts = list(range(s + 1, e))
        else:
            cuts = (
                sorted(draw(st.sets(st.integers(min_value=s + 1, max_value=e - 1), max_size=3)))
                if e - s > 1
                else []
            )
        bounds = [s, *cuts, e]
        children = [(bounds[k], bounds[k + 1], depth + 1) for k in range(len(bounds) - 1)]
        stack.extend(reversed(children))
    return " ".join(out)


@st.composite
def tree_pairs(draw: st.DrawFn) -> tuple[str, str]:
    n = draw(st.integers(min_value=1, max_value=5))
    words = tuple(f"w{i}" for i in range(n))
    return draw(bracketed(words)), draw(bracketed(words))


def _compare(gold: str, test: str, params: EvalbParams = COLLINS) -> SentenceComparison:
    g = PtbLine(1, parse_ptb_line(gold), "", "g")
    t = PtbLine(1, parse_ptb_line(test), "", "t")
    return compare_sentence(g, t, ParsevalConfig(params), 1)


def _enumerate(c: SentenceComparison, strict: bool) -> tuple[list[int], list[int], list[int]]:
    """Gold, test and matched fragments by size, straight from the definitions (brute force)."""

    def connected(nodes: tuple[int, ...], parents: list[int]) -> bool:
        chosen = set(nodes)
        return sum(1 for v in nodes if parents[v] not in chosen) == 1

    def count(parents: list[int], keep: object = None) -> list[int]:
        out = [0] * len(parents)
        for size in range(1, len(parents) + 1):
            for sub in combinations(range(len(parents)), size):
                if connected(sub, parents) and (keep is None or keep(sub)):  # type: ignore[operator]
                    out[size - 1] += 1
        return out

    gp = [b.parent for b in c.gold]
    tp = [b.parent for b in c.test]

    def matched(sub: tuple[int, ...]) -> bool:
        if any(c.gold_partner[v] < 0 for v in sub):
            return False
        if strict:
            for v in sub:
                p = gp[v]
                if p in sub and c.test[c.gold_partner[v]].parent != c.gold_partner[p]:
                    return False
        return True

    return count(gp), count(tp), count(gp, matched)


def _padded(v: tuple[int, ...], n: int) -> list[int]:
    return list(v) + [0] * (n - len(v))


@settings(max_examples=200, deadline=None)
@given(tree_pairs(), st.booleans())
@pytest.mark.slow
def test_dp_counts_equal_definitions(pair: tuple[str, str], strict: bool) -> None:
    c = _compare(*pair)
    if c.status != "ok":
        return
    counts = sentence_counts(c, FrevalConfig(strict=strict))
    gold, test, matched = _enumerate(c, strict)
    assert _padded(counts.gold, len(gold)) == gold
    assert _padded(counts.test, len(test)) == test
    assert _padded(counts.matched, len(gold)) == matched


@settings(max_examples=200, deadline=None)
@given(tree_pairs())
@pytest.mark.slow
def test_size_one_is_parseval_on_random_pairs(pair: tuple[str, str]) -> None:
    g = [PtbLine(1, parse_ptb_line(pair[0]), "", "g")]
    t = [PtbLine(1, parse_ptb_line(pair[1]), "", "t")]
    p = parseval_corpus(g, t)
    f = freval_corpus(g, t, FrevalConfig(max_size=1)).score
    assert (f.flr, f.flp) == (p.all.recall, p.all.precision)


@settings(max_examples=200, deadline=None)
@given(tree_pairs())
def test_strict_matching_is_symmetric(pair: tuple[str, str]) -> None:
    a, b = _compare(pair[0], pair[1]), _compare(pair[1], pair[0])
    if a.status != "ok":
        return
    strict = FrevalConfig(strict=True)
    assert sentence_counts(a, strict).matched == sentence_counts(b, strict).matched
    loose = sentence_counts(a, FrevalConfig())
    assert all(x <= y for x, y in zip(sentence_counts(a, strict).matched, loose.matched, strict=False))


def test_identical_trees_match_everywhere() -> None:
    line = [PtbLine(1, parse_ptb_line("(S (NP (D a) (N b)) (VP (V c) (NP (N d))))"), "", "x")]
    s = freval_corpus(line, line).score
    assert s.limit == 4
    assert all(r.recall == r.precision == r.f1 == 1.0 for r in s.per_size)
    assert s.flr == pytest.approx(1.0) and s.flp == pytest.approx(1.0)


def test_one_label_error_ruins_larger_fragments() -> None:
    """The paper's motivating example: VP vs XP keeps 3 of 4 brackets but few larger fragments."""
    gold = [PtbLine(1, parse_ptb_line("(S (NP (N John)) (VP (V loves) (NP (N Mary))))"), "", "g")]
    test = [PtbLine(1, parse_ptb_line("(S (NP (N John)) (XP (V loves) (NP (N Mary))))"), "", "t")]
    s = freval_corpus(gold, test).score
    assert [r.gold for r in s.per_size] == [4, 3, 2, 1]
    assert [r.matched for r in s.per_size] == [3, 1, 0, 0]


# ---------------------------------------------------------------------------
# evalb's sample: sentence 22, alpha, cut-offs


def test_sentence_22_of_evalbs_sample() -> None:
    """44 words, 34 brackets: S over 11 x (A, B>A); 6^11 fragments are topped by S alone."""
    gold = _sentences(SAMPLE / "sample.gld")[21]
    comp = compare_sentence(gold, gold, ParsevalConfig(read_prm(SAMPLE / "sample.prm")), 22)
    assert len(comp.gold) == 34
    top = fragment_polynomials([b.parent for b in comp.gold])[0]
    assert top is not None and sum(top) == 6**11
    counts = sentence_counts(comp)
    assert len(counts.gold) == 34 and counts.gold[-1] == 1 and counts.matched == counts.gold


def test_uniform_alpha_and_limits() -> None:
    g, t = _sentences(SAMPLE / "sample.gld"), _sentences(SAMPLE / "sample.tst")
    cfg = ParsevalConfig(read_prm(SAMPLE / "sample.prm"))
    full = freval_corpus(g, t, FrevalConfig(cfg))
    assert full.score.limit == 34  # the largest valid gold tree
    s = full.score
    assert s.flr == pytest.approx(sum(r.recall for r in s.per_size) / 34)
    limited = freval_corpus(g, t, FrevalConfig(cfg, max_size=15)).score
    assert limited.per_size == s.per_size[:15]
    assert full.rescore(15).flr == limited.flr
    # a rescored score says the limit it was scored with: the signature of counting up to 15
    assert full.rescore(15).signature == limited.signature != full.score.signature
    with pytest.raises(ValueError):
        freval_corpus(g, t, FrevalConfig(cfg, max_size=15)).rescore(25)


def test_given_alpha() -> None:
    g, t = _sentences(SAMPLE / "sample.gld"), _sentences(SAMPLE / "sample.tst")
    cfg = ParsevalConfig(read_prm(SAMPLE / "sample.prm"))
    r = freval_corpus(g, t, FrevalConfig(cfg, alpha=(0.5, 0.5))).score
    assert r.flr == pytest.approx((r.per_size[0].recall + r.per_size[1].recall) / 2)
    for bad in ((0.5, 0.4), (-1.0, 2.0), ()):
        with pytest.raises(ValueError):
            FrevalConfig(cfg, alpha=bad)
    with pytest.raises(ValueError):
        FrevalConfig(cfg, max_size=1, alpha=(0.5, 0.5))


def test_cutoff_len() -> None:
    g, t = _sentences(SAMPLE / "sample.gld"), _sentences(SAMPLE / "sample.tst")
    cfg = ParsevalConfig(read_prm(SAMPLE / "sample.prm"))
    r = freval_corpus(g, t, FrevalConfig(cfg, max_size=1, cutoff_len=40))
    p = parseval_corpus(g, t, cfg)
    assert r.score.sentences == p.cutoff.counts.sentences == 23
    assert r.score.flr == p.cutoff.recall


def test_score_of_nothing() -> None:
    from evalcore.metrics.freval import FrevalCounts

    s = score(FrevalCounts())
    assert (s.limit, s.flr, s.flp, s.f1, s.per_size) == (0, 0.0, 0.0, 0.0, ())


# ---------------------------------------------------------------------------
# CLI


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(["freval", str(SAMPLE / "sample.gld"), str(SAMPLE / "sample.tst"), *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _cli(capsys, "--prm", str(SAMPLE / "sample.prm"), "--max-size", "1", "--format", "json")
    assert rc == 0
    data = json.loads(out)
    assert list(data) == [
        "signature",
        "sentences",
        "valid",
        "errors",
        "skipped",
        "per_size",
        "flr",
        "flp",
        "f1",
    ]
    assert list(data["per_size"][0]) == ["size", "matched", "gold", "test", "recall", "precision", "f1"]
    assert (data["sentences"], data["valid"], data["errors"], data["skipped"]) == (24, 17, 5, 2)
    assert round(100 * data["flr"], 2) == 87.76 and round(100 * data["flp"], 2) == 90.53
    assert "maxsize:1" in data["signature"]


def test_cli_unlimited_json_has_exact_big_counts(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _cli(capsys, "--prm", str(SAMPLE / "sample.prm"), "--format", "json")
    data = json.loads(out)
    assert rc == 0 and len(data["per_size"]) == 34
    assert max(r["gold"] for r in data["per_size"]) > 10**6


def test_cli_csv_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _cli(capsys, "--max-size", "3", "--format", "csv", "--unlabeled")
    rows = list(csv.reader(io.StringIO(out)))
    assert rc == 0 and rows[0] == ["size", "matched", "gold", "test", "recall", "precision", "f1"]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "all"]
    rc, out, err = _cli(capsys, "--prm", str(SAMPLE / "sample.prm"))
    assert rc == 0 and "FLR 99.10" not in err
    assert "1-15" in out and "signature: freval|" in out
    assert "Words unmatch (is|was)" in err


def test_cli_bad_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(capsys, "--alpha", "0.5,0.2")[0] == 2
    assert _cli(capsys, "--alpha", "x")[0] == 2
    assert _cli(capsys, "--max-size", "0")[0] == 2
    rc, _, err = _cli(capsys, "--prm", str(SAMPLE / "missing.prm"))
    assert rc == 2 and err.count("\n") == 1 and "missing.prm" in err


# ---------------------------------------------------------------------------
# plot-ready tables (paper Figures 1-3, Table 1)


def test_plot_tables() -> None:
    g, t = _sentences(SAMPLE / "sample.gld"), _sentences(SAMPLE / "sample.tst")
    cfg = ParsevalConfig(read_prm(SAMPLE / "sample.prm"))
    results = {
        "parser": freval_corpus(g, t, FrevalConfig(cfg)),
        "gold": freval_corpus(g, g, FrevalConfig(cfg)),
    }
    frame = f1_by_size_frame(results, baseline="gold")
    assert list(frame.columns) == ["parser", "size", "recall", "precision", "f1", "f1_minus_baseline"]
    assert len(frame) == 2 * 34
    assert (frame[frame.parser == "gold"].f1_minus_baseline == 0).all()
    first = frame[(frame.parser == "parser") & (frame["size"] == 1)].iloc[0]
    assert first.f1_minus_baseline == pytest.approx(first.f1 - 1.0)
    with pytest.raises(KeyError):
        f1_by_size_frame(results, baseline="nobody")
    table = table1_frame(results)
    assert list(table.columns.get_level_values(0).unique()) == ["1", "1-15", "1-25", "all"]
    p = parseval_corpus(g, t, cfg)
    assert table.loc["parser", ("1", "FLR")] == pytest.approx(100 * p.all.recall)
    assert table.loc["gold", ("all", "F1")] == pytest.approx(100.0)


# ---------------------------------------------------------------------------
# a size limit past the largest tree costs what the largest tree costs


def test_a_size_limit_past_the_largest_tree_is_the_definition_at_the_cost_of_the_tree() -> None:
    """The sample's largest tree has 34 brackets (the unlimited run's last size).  With L past it,
    FLR and FLP are still the definition, Σ_{s<=L} LR_s / L (sizes 35..L have no fragments and
    add 0).  Up to 1,000 such sizes are listed as any size (zero rows, as before); more are one
    empty range, computed and printed once (L = 10^9 took 8 GB, and L = 10^6 took 120 s)."""
    full = freval_corpus(_sentences(SAMPLE / "sample.gld"), _sentences(SAMPLE / "sample.tst")).score
    assert full.limit == len(full.per_size) == 34 and full.empty_sizes is None
    assert EMPTY_SIZES_LISTED == 1000
    for limit in (34, 35, 50, 34 + 1000, 34 + 1001, 10**9):
        sc = freval_corpus(
            _sentences(SAMPLE / "sample.gld"), _sentences(SAMPLE / "sample.tst"), FrevalConfig(max_size=limit)
        ).score
        assert sc.per_size[:34] == full.per_size and sc.limit == limit
        if limit <= 34 + 1000:  # listed one by one
            assert [r.size for r in sc.per_size] == list(range(1, limit + 1)) and sc.empty_sizes is None
            assert all((r.matched, r.gold, r.test, r.f1) == (0, 0, 0, 0.0) for r in sc.per_size[34:])
        else:  # one range
            assert len(sc.per_size) == 34 and sc.empty_sizes == (35, limit)
        assert sc.flr == sum((1 / limit) * r.recall for r in full.per_size)  # α_s = 1/L
        assert sc.flp == sum((1 / limit) * r.precision for r in full.per_size)


def test_cli_prints_the_sizes_past_the_largest_tree_as_one_row(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _cli(capsys, "--max-size", "1000000000")
    assert rc == 0
    table = out.split("\n\n")[0].splitlines()
    assert len(table) == 2 + 34 + 1
    assert table[-1].split() == ["35-1000000000", "0", "0", "0", "0.00", "0.00", "0.00"]
    assert "(uniform alpha over sizes 1-1000000000)" in out and "maxsize:1000000000|" in out
    rc, out, _ = _cli(capsys, "--max-size", "35")  # one size past the tree: a row as any other
    assert out.split("\n\n")[0].splitlines()[-1].split() == ["35", "0", "0", "0", "0.00", "0.00", "0.00"]
    rc, out, _ = _cli(capsys, "--max-size", "1000000", "--format", "json")
    entries = json.loads(out)["per_size"]
    assert len(entries) == 35 and entries[-1] == {
        "size": 35, "last_size": 1000000, "matched": 0, "gold": 0, "test": 0,
        "recall": 0.0, "precision": 0.0, "f1": 0.0,
    }  # fmt: skip
    rc, out, _ = _cli(capsys, "--max-size", "1000000", "--format", "csv", "--bootstrap", "50")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[-2][:7] == ["35-1000000", "0", "0", "0", "0.0", "0.0", "0.0"]
    assert rows[-2][7:] == ["0.0"] * 6 and rows[-1][0] == "all" and len(rows) == 1 + 34 + 2


def test_intervals_past_the_largest_tree_weigh_every_size_of_the_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The resampled FLR / FLP weigh each size 1/L too, L the limit asked (the table stops at the
    largest tree, its sizes above are 0): the interval holds the point estimate (with 1/34, the
    sample's largest tree, it would be near 1, far above the point 3.4e-5)."""
    rc, out, _ = _cli(capsys, "--max-size", "1000000", "--bootstrap", "100", "--format", "json")
    doc = json.loads(out)
    assert rc == 0 and 0 < doc["flr"] < 1e-4
    for name in ("flr", "flp"):
        assert doc[f"{name}_low"] <= doc[name] <= doc[f"{name}_high"] < 1e-4, name


def test_the_command_reads_the_line_layout_without_trees_and_counts_the_same() -> None:
    """The family reads evalb's readings (a line-layout file without building its trees); on evalb's
    own sample (its error and skip sentences included) the counts per sentence and the scores are
    those of the sentences' trees (whose size 1 is pinned to evalb's own output by
    test_size_one_is_parseval_on_files)."""
    from evalcore.families.freval import FrevalInputs, FrevalSettings, run

    params = read_prm(SAMPLE / "sample.prm")
    config = FrevalConfig(ParsevalConfig(params=params), max_size=4)
    by_trees = freval_corpus(
        read_ptb_sentences(SAMPLE / "sample.gld"), read_ptb_sentences(SAMPLE / "sample.tst"), config
    )
    settings = FrevalSettings(prm=str(SAMPLE / "sample.prm"), max_size=4, keep_sentences=True)
    by_readings = run(FrevalInputs(SAMPLE / "sample.gld", SAMPLE / "sample.tst"), settings)
    assert by_readings.per_sentence == by_trees.per_sentence
    assert by_readings.counts == by_trees.counts and by_readings.score == by_trees.score
    assert [c.status for c in by_readings.comparisons] == [c.status for c in by_trees.comparisons]
    assert {c.status for c in by_trees.comparisons} >= {"ok", "error", "skip"}  # every kind of sentence
