"""The discrepancy atlas: every operation in exactly one group per grouping, group totals
that reconcile with the δ behind the printed scores, the construction patterns on hand-made UD and
SUD trees, the French ranking flip, and the CoNLL-U export."""

from __future__ import annotations

import csv
import gc
import io
import json
import sys
from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_tedeval_properties import dep_trees

from evalcore.atlas import (
    CONSTRUCTIONS,
    GROUPINGS,
    AtlasConfig,
    AtlasCounts,
    GroupCounts,
    atlas_counts,
    build_atlas,
    construction_of,
    gold_parse_name,
    head_word,
    length_bucket,
    operation_group,
    run_atlas_experiment,
    score,
    with_golds_as_parses,
)
from evalcore.conversion import ConversionConfig
from evalcore.examples import dep_tree
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import read_conllu, write_conllu
from evalcore.metrics.tedeval import TedConfig
from evalcore.ranking import OWN_GOLD, RankingConfig, rank_parses
from evalcore.report.atlas import split_misc
from evalcore.trees import DepTree, EditOp

ROOT = Path(__file__).resolve().parent.parent
FR = ROOT / "assets" / "fr_gsd"
FR_PARSES = (("ud", "spacy-ud"), ("ud", "spacy-ud-seed1"), ("sud", "spacy-sud"))


def _named(name: str, path: Path) -> NamedTrees:
    return NamedTrees(name, tuple(read_conllu(path, on_invalid="keep")), str(path))


@cache
def french() -> tuple[Scheme, ...]:
    """The shipped French-GSD test data: UD and SUD golds, the three committed spaCy parses."""
    out = []
    for scheme in ("ud", "sud"):
        parses = tuple(
            _named(p, FR / "parses" / f"fr_gsd-test.{p}.conllu.gz") for s, p in FR_PARSES if s == scheme
        )
        out.append(
            Scheme(scheme, _named(f"{scheme}-gold", FR / f"fr_gsd-{scheme}-test.r2.16.conllu.gz"), parses)
        )
    return tuple(out)


@cache
def french_atlas() -> tuple[object, object]:
    return build_atlas(french(), keep_ops=True)


# ---------------------------------------------------------------------------
# reconciliation on the French data


@pytest.mark.slow  # the whole experiment with scripts kept: 3-6 s
def test_group_totals_equal_the_delta_behind_the_printed_scores() -> None:
    """For every parse (the golds too, as parses of their scheme) and every target, labeled and
    unlabeled: each grouping's Σ counted equals Σδ of the U-TED/L-TED cell the tedeval table prints,
    and 1 − Σcounted/Σnorm is its score.  The experiment is run again here, without the atlas."""
    atlas, _ = french_atlas()
    printed = run_experiment(with_golds_as_parses(french()), ExperimentConfig(shuffles=0))
    checked = 0
    for row in printed.rows:
        if row.metric not in ("U-TED", "L-TED"):
            continue
        for cell in row.cells:
            a = atlas.cell(cell.parse, row.against, row.metric == "L-TED")  # type: ignore[attr-defined]
            assert a is not None, (cell.parse, row.against)
            delta = sum(x for x, _ in cell.pairs)
            norm = sum(n for _, n in cell.pairs)
            assert (a.delta, a.norm) == (delta, norm)
            for grouping in GROUPINGS:
                assert sum(g.counted for g in a.grouped(grouping)) == delta, (
                    cell.parse,
                    row.against,
                    grouping,
                )
            assert a.score == pytest.approx(cell.score, abs=1e-12)
            checked += 1
    # 5 parses x (2 golds + 1 generalization) x (U, L)
    assert checked == 5 * 3 * 2


@pytest.mark.slow
def test_atlas_scores_are_the_committed_table() -> None:
    """The committed table (docs/results/french_ud_sud.csv, made by experiments/french_ud_sud.py)
    printed U-TED/L-TED to 4 digits; the atlas's Σcounted gives the same numbers."""
    atlas, _ = french_atlas()
    text = (ROOT / "docs" / "results" / "french_ud_sud.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    seen = 0
    for r in rows:
        if r["metric"] not in ("U-TED", "L-TED"):
            continue
        cell = atlas.cell(r["parse"], r["against"], r["metric"] == "L-TED")  # type: ignore[attr-defined]
        counted = sum(g.counted for g in cell.grouped("construction"))
        assert f"{1 - counted / cell.norm:.4f}" == r["score"]
        seen += 1
    assert seen == 18


@pytest.mark.slow
def test_every_operation_is_in_exactly_one_group_per_grouping() -> None:
    atlas, _ = french_atlas()
    ops = atlas.ops  # type: ignore[attr-defined]
    assert ops
    for cell in atlas.cells:  # type: ignore[attr-defined]
        mine = [o for o in ops if (o.parse, o.target, o.labeled) == (cell.parse, cell.target, cell.labeled)]
        for grouping in GROUPINGS:
            counted = Counter(o.group(grouping) for o in mine if not o.discounted)
            discounted = Counter(o.group(grouping) for o in mine if o.discounted)
            rows = cell.grouped(grouping)
            assert len({g.group for g in rows}) == len(rows)  # no group twice
            assert {g.group: g.counted for g in rows if g.counted} == dict(counted)
            assert {g.group: g.discounted for g in rows if g.discounted} == dict(discounted)
            assert sum(g.counted + g.discounted for g in rows) == len(mine)
        for g in cell.grouped("construction"):
            assert g.group in {name for name, _ in CONSTRUCTIONS}


@pytest.mark.slow
def test_a_gold_against_the_generalization_is_all_discounted() -> None:
    """δ(g, g, G) = 0 (docs/tedeval.md, "Edit scripts, discount and score"): a gold read as a parse of its own
    scheme has every operation discounted against any generalization containing it, and nothing discounted
    against a single gold."""
    atlas, _ = french_atlas()
    for scheme, other in (("ud", "sud"), ("sud", "ud")):
        general = atlas.cell(gold_parse_name(scheme), "ud+sud", True)  # type: ignore[attr-defined]
        assert general.delta == 0 and all(g.counted == 0 for g in general.groups)
        assert sum(g.discounted for g in general.grouped("operation")) > 0
        single = atlas.cell(gold_parse_name(scheme), other, True)  # type: ignore[attr-defined]
        assert all(g.discounted == 0 for g in single.groups)


@pytest.mark.slow
def test_the_ud_sud_gap_is_mostly_adpositions() -> None:
    """The two French golds differ most in who heads an adposition phrase (SUD: the adposition,
    UD: the noun): the SUD gold read as a parse against the UD gold.  Every UD `case` word is a
    leaf whose span `{w}` is labeled `case` in UD and never in SUD (there the adposition is `hd`
    of its phrase or a leaf with another relation), so the labeled script has exactly one
    `ins case` per `case` word of the UD gold (1,309, counted in the file here)."""
    atlas, _ = french_atlas()
    cell = atlas.cell(gold_parse_name("sud"), "ud", True)  # type: ignore[attr-defined]
    groups = {g.group: g for g in cell.grouped("operation")}
    ud = french()[0].gold.trees
    n_case = sum(1 for t in ud for tok in t.tokens if tok.deprel == "case")  # type: ignore[union-attr]
    assert groups["ins case"].counted == n_case == 1309
    top = cell.grouped("construction")[0]
    assert top.group == "adposition"


# ---------------------------------------------------------------------------
# ranking flips (docs/findings.md, French section)


@pytest.mark.slow  # 10,000 shuffles on every row
def test_french_ranking_flip_with_its_p_values() -> None:
    """docs/findings.md (from experiments/french_ud_sud.py evaluate, 10,000 shuffles, seed 0):
    against their own scheme's gold the SUD parser is ahead, UAS 82.88 vs 81.04 (+1.84, p = 0.003,
    0.0027 unrounded); against the UD+SUD generalization the UD parser is ahead, U-TED 91.63 vs
    90.82 (+0.81, p = 0.0007) and L-TED 85.49 vs 84.67 (+0.82, p = 0.017)."""
    _, result = french_atlas()
    ranking = rank_parses(
        result,  # type: ignore[arg-type]
        with_golds_as_parses(french()),
        RankingConfig(shuffles=10_000, seed=0),
        parses=["spacy-ud", "spacy-sud"],
    )
    uas = ranking.test("spacy-sud", "spacy-ud", OWN_GOLD, "UAS")
    assert uas is not None
    assert round(100 * uas.difference, 2) == 1.84 and uas.significant
    assert round(uas.p_value, 4) == 0.0027
    uted = ranking.test("spacy-ud", "spacy-sud", "ud+sud", "U-TED")
    assert uted is not None
    assert round(100 * uted.difference, 2) == 0.81 and round(uted.p_value, 4) == 0.0007
    lted = ranking.test("spacy-ud", "spacy-sud", "ud+sud", "L-TED")
    assert lted is not None
    assert round(100 * lted.difference, 2) == 0.82 and round(lted.p_value, 3) == 0.017
    row = ranking.row(OWN_GOLD, "UAS")
    assert row is not None and row.order() == ("spacy-sud", "spacy-ud")
    row = ranking.row("ud+sud", "U-TED")
    assert row is not None and row.order() == ("spacy-ud", "spacy-sud")
    (flip,) = ranking.flips
    assert {flip.a, flip.b} == {"spacy-ud", "spacy-sud"} and flip.significant
    # single foreign-gold rows are ranked but not used for flips
    assert all(v.against in (OWN_GOLD, "ud+sud") for v in (*flip.a_ahead, *flip.b_ahead))


# ---------------------------------------------------------------------------
# construction patterns, hand-made trees


def _c(tree: DepTree) -> list[str]:
    return [construction_of(tree, w) for w in range(1, len(tree.tokens) + 1)]


def test_copula_ud_and_sud() -> None:
    # UD: "il est malade": the predicate heads, the copula is `cop`
    ud = dep_tree(["il", "est", "malade"], [3, 3, 0], ["nsubj", "cop", "root"], ["PRON", "AUX", "ADJ"])
    assert _c(ud) == ["other", "copula", "copula"]
    # SUD: the copula heads, the predicate is `comp:pred`
    sud = dep_tree(["il", "est", "malade"], [2, 0, 2], ["subj", "root", "comp:pred"], ["PRON", "AUX", "ADJ"])
    assert _c(sud) == ["other", "copula", "copula"]


def test_auxiliary_chain_ud_and_sud() -> None:
    ud = dep_tree(["il", "a", "mangé"], [3, 3, 0], ["nsubj", "aux:tense", "root"], ["PRON", "AUX", "VERB"])
    assert _c(ud) == ["other", "auxiliary", "auxiliary"]
    sud = dep_tree(
        ["il", "a", "mangé"], [2, 0, 2], ["subj", "root", "comp:aux@tense"], ["PRON", "AUX", "VERB"]
    )
    assert _c(sud) == ["other", "auxiliary", "auxiliary"]


def test_adposition_noun_ud_and_sud() -> None:
    ud = dep_tree(["va", "à", "Paris"], [0, 3, 1], ["root", "case", "obl:arg"], ["VERB", "ADP", "PROPN"])
    assert _c(ud) == ["other", "adposition", "adposition"]
    sud = dep_tree(
        ["va", "à", "Paris"], [0, 1, 2], ["root", "comp:obl", "comp:obj"], ["VERB", "ADP", "PROPN"]
    )
    assert _c(sud) == ["other", "adposition", "adposition"]


def test_subordinate_clause_with_marker_ud_and_sud() -> None:
    words = ["veut", "qu'", "il", "vienne"]
    ud = dep_tree(words, [0, 4, 4, 1], ["root", "mark", "nsubj", "ccomp"], ["VERB", "SCONJ", "PRON", "VERB"])
    assert _c(ud) == ["other", "subordination", "other", "subordination"]
    sud = dep_tree(
        words, [0, 1, 4, 2], ["root", "comp:obj", "subj", "comp:obj"], ["VERB", "SCONJ", "PRON", "VERB"]
    )
    # SUD: the marker heads its clause, the verb is its complement; the main verb, as in UD, is other
    assert _c(sud) == ["other", "subordination", "other", "subordination"]


def test_coordination_determiner_multiword_punctuation_other() -> None:
    words = ["le", "chat", "et", "Jean", "Dupont", "parce", "que", "."]
    heads = [2, 0, 4, 2, 4, 2, 6, 2]
    rels = ["det", "root", "cc", "conj", "flat:name", "mark", "fixed", "punct"]
    upos = ["DET", "NOUN", "CCONJ", "PROPN", "PROPN", "ADV", "SCONJ", "PUNCT"]
    t = dep_tree(words, heads, rels, upos)
    # chat: no role of its own (root); its dependents: det, conj, mark, punct -> the first in
    # priority order among multiword < copula < auxiliary < subordination < ... : subordination
    assert _c(t) == [
        "determiner",
        "subordination",
        "coordination",
        "coordination",  # conj (own role) wins over its flat child
        "multiword",
        "subordination",  # mark: own role; its `fixed` child would say multiword (tier 2 only)
        "multiword",
        "punctuation",
    ]
    assert (
        construction_of(dep_tree(["il", "dort"], [2, 0], ["nsubj", "root"], ["PRON", "VERB"]), 1) == "other"
    )


def test_priority_within_the_dependents_tier() -> None:
    """A noun with a `case` and a `det` dependent is an adposition phrase, not a determiner one;
    a predicate with `cop` and `aux` dependents is a copula construction."""
    np = dep_tree(["de", "la", "maison"], [3, 3, 0], ["case", "det", "root"], ["ADP", "DET", "NOUN"])
    assert construction_of(np, 3) == "adposition"
    cl = dep_tree(["a", "été", "malade"], [3, 3, 0], ["aux:tense", "cop", "root"], ["AUX", "AUX", "ADJ"])
    assert construction_of(cl, 3) == "copula"
    # the word's own role first: an ADP heading a `fixed` expression is an adposition ...
    ext = dep_tree(["à", "propos"], [0, 1], ["root", "fixed"], ["ADP", "NOUN"])
    assert construction_of(ext, 1) == "adposition"
    # ... unless it carries ExtPos (UD 2.16 marks the head of a fixed expression so; SUD keeps it)
    head = replace(ext.tokens[0], feats="ExtPos=ADV")
    assert construction_of(replace(ext, tokens=(head, ext.tokens[1])), 1) == "multiword"


def test_head_word_leftmost_outside_head_and_non_contiguous_spans() -> None:
    # w1 <- root, w3 <- w1, w2 <- w1, w4 <- w2 (non-projective: w2's yield {2, 4} skips w3)
    t = dep_tree(["a", "b", "c", "d"], [0, 1, 1, 2], ["root", "x", "y", "z"])
    assert head_word(t, frozenset({1, 3})) == 2  # 0-based positions: b and d; b's head is outside
    # two words of the span with heads outside: the leftmost
    assert head_word(t, frozenset({2, 3})) == 3
    assert head_word(t, frozenset({0, 1, 2, 3})) == 1


def test_groups_of_one_operation() -> None:
    assert operation_group(EditOp("del", "cop", frozenset({1}))) == "del cop"
    assert operation_group(EditOp("rel", "obl", frozenset({1}), "nmod")) == "rel obl→nmod"
    assert operation_group(EditOp("ins", "", frozenset({1, 2}))) == "ins (span)"
    assert [length_bucket(n) for n in (1, 4, 5, 9, 10, 19, 20, 300)] == [
        "1",
        "4",
        "5-9",
        "5-9",
        "10-19",
        "10-19",
        "20+",
        "20+",
    ]


def _copula_pair() -> tuple[DepTree, DepTree]:
    upos = ["PRON", "AUX", "ADJ"]
    ud = dep_tree(["il", "est", "malade"], [3, 3, 0], ["nsubj", "cop", "root"], upos, "s1")
    sud = dep_tree(["il", "est", "malade"], [2, 0, 2], ["subj", "root", "comp:pred"], upos, "s1")
    return ud, sud


def test_build_atlas_leaves_the_collector_as_it_found_it() -> None:
    """The cyclic collector is paused while the atlas is built, then restored: on if it was on (also
    after an error), off if the caller had turned it off."""
    ud, sud = _copula_pair()
    schemes = (Scheme("ud", NamedTrees("ud", (ud,))), Scheme("sud", NamedTrees("sud", (sud,))))
    seen: list[bool] = []
    with pytest.MonkeyPatch.context() as mp:
        fail = lambda *a, **k: seen.append(gc.isenabled()) or 1 / 0  # noqa: E731
        mp.setattr(sys.modules["evalcore.atlas"], "atlas_counts", fail)
        with pytest.raises(ZeroDivisionError):
            build_atlas(schemes)
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        build_atlas(schemes)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_small_experiment_by_hand() -> None:
    """'il est malade' in UD and SUD, the SUD gold read as a parse (2012 protocol, docs/tedeval.md, "Edit
    scripts, discount and score").

    UD spans: {il}:nsubj, {est}:cop, {malade}:hd (the full span is the root, never scored).
    SUD spans: {il}:subj, {est}:hd, {malade}:comp:pred.  Generalization: the three word spans with
    no labels.  SUD gold against the UD gold, labeled: del subj/hd/comp:pred, ins nsubj/cop/hd = 6,
    nothing discounted; unlabeled: the same spans, 0 operations.  Constructions: 'il' other,
    'est' copula (cop in UD; in SUD it heads a comp:pred), 'malade' copula."""
    ud, sud = _copula_pair()
    schemes = (Scheme("ud", NamedTrees("ud", (ud,))), Scheme("sud", NamedTrees("sud", (sud,))))
    atlas, _ = build_atlas(schemes, keep_ops=True)
    cell = atlas.cell("gold:sud", "ud", True)
    assert cell is not None and cell.delta == 6 and cell.norm == 6
    assert {g.group: g.counted for g in cell.grouped("construction")} == {"copula": 4, "other": 2}
    assert {g.group: g.counted for g in cell.grouped("operation")} == {
        "del subj": 1,
        "del hd": 1,
        "del comp:pred": 1,
        "ins nsubj": 1,
        "ins cop": 1,
        "ins hd": 1,
    }
    assert {g.group for g in cell.grouped("head")} == {
        "PRON subj",
        "PRON nsubj",
        "AUX root",
        "AUX cop",
        "ADJ comp:pred",
        "ADJ root",
    }
    assert atlas.cell("gold:sud", "ud", False).delta == 0  # type: ignore[union-attr]
    shares = {g.group: g.share for g in cell.grouped("construction")}
    assert shares == {"copula": 4 / 6, "other": 2 / 6}
    assert all(g.sentences == ("s1",) for g in cell.groups)


# ---------------------------------------------------------------------------
# properties


@given(
    st.integers(1, 7).flatmap(lambda n: st.tuples(dep_trees(n), dep_trees(n))),
    st.sampled_from(["2011", "2012"]),
)
@pytest.mark.slow
def test_random_pairs_reconcile_and_group_once(trees: tuple[DepTree, DepTree], protocol: str) -> None:
    """On random (possibly non-projective) trees: per grouping Σcounted = Σδ, Σ(counted+discounted)
    = number of operations, and the counts of each sentence alone add up to the whole corpus's."""
    gold, parse = (replace(t, sent_id=f"s{k}") for k, t in enumerate(trees))
    g2, p2 = replace(parse, sent_id="s2"), replace(gold, sent_id="s2")
    schemes = (
        Scheme("a", NamedTrees("ga", (gold, g2)), (NamedTrees("p", (parse, p2)),)),
        Scheme("b", NamedTrees("gb", (parse, p2))),
    )
    config = AtlasConfig(TedConfig(ConversionConfig(protocol)))  # type: ignore[arg-type]
    run, result = run_atlas_experiment(schemes, config)
    counts, ops = atlas_counts(run, result, config, keep_ops=True)
    for c in counts.cells:
        mine = [o for o in ops if (o.parse, o.target, o.labeled) == (c.parse, c.target, c.labeled)]
        for grouping in GROUPINGS:
            groups = [g for gg, _, g in c.groups if gg == grouping]
            assert sum(g.counted for g in groups) == c.delta
            assert sum(g.counted + g.discounted for g in groups) == len(mine)
    # halves: the same experiment on each sentence alone, added
    halves = AtlasCounts()
    for k in range(2):
        part = tuple(
            Scheme(
                s.name,
                NamedTrees(s.gold.name, (s.gold.trees[k],)),
                tuple(NamedTrees(p.name, (p.trees[k],)) for p in s.parses),
            )
            for s in schemes
        )
        r2, res2 = run_atlas_experiment(part, config)
        halves = halves + atlas_counts(r2, res2, config)[0]
    whole = {c.key: c for c in counts.cells}
    assert {c.key: (c.delta, c.norm, c.groups) for c in halves.cells} == {
        k: (c.delta, c.norm, c.groups) for k, c in whole.items()
    }
    assert score(halves).cells == score(counts).cells


@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5), st.integers(0, 5))
def test_group_counts_add(a: int, b: int, c: int, d: int) -> None:
    x = GroupCounts(a, b, frozenset({"s1"}))
    y = GroupCounts(c, d, frozenset({"s2"}))
    assert x + y == y + x == GroupCounts(a + c, b + d, frozenset({"s1", "s2"}))
    assert x + GroupCounts() == x


# ---------------------------------------------------------------------------
# the command


def _fr_args(*extra: str) -> list[str]:
    return [
        "atlas",
        "--scheme",
        "ud",
        str(FR / "fr_gsd-ud-test.r2.16.conllu.gz"),
        f"spacy-ud={FR / 'parses' / 'fr_gsd-test.spacy-ud.conllu.gz'}",
        "--scheme",
        "sud",
        str(FR / "fr_gsd-sud-test.r2.16.conllu.gz"),
        f"spacy-sud={FR / 'parses' / 'fr_gsd-test.spacy-sud.conllu.gz'}",
        *extra,
    ]


def _small(write_file: object) -> list[str]:
    """'il est malade' in UD and SUD (as in test_small_experiment_by_hand); the UD gold's last word
    has a MISC attribute, which the export must keep."""
    ud, sud = _copula_pair()
    last = replace(ud.tokens[2], misc="SpaceAfter=No")
    head = ("# sent_id = s1",)
    ud = write_conllu([replace(ud, tokens=(*ud.tokens[:2], last), comments=head)])
    sud = write_conllu([replace(sud, comments=head)])
    return [
        "atlas",
        "--scheme",
        "ud",
        write_file("ud.conllu", ud),  # type: ignore[operator]
        f"p={write_file('p.conllu', ud)}",  # type: ignore[operator]
        "--scheme",
        "sud",
        write_file("sud.conllu", sud),  # type: ignore[operator]
        "--shuffles",
        "10",
    ]


def test_cli_json_csv_and_per_sentence(run_cli: object, write_file: object) -> None:
    args = _small(write_file)
    res = run_cli(*args, "--format", "json", "--per-sentence")  # type: ignore[operator]
    assert res.code == 0, res.err
    data = json.loads(res.out)
    rows = [
        r for r in data["groups"] if r["parse"] == "gold:sud" and r["target"] == "ud" and r["labeled"] is True
    ]
    cons = {r["group"]: r["counted"] for r in rows if r["grouping"] == "construction"}
    assert cons == {"copula": 4, "other": 2}
    assert all(r["sentences"] == ["s1"] for r in rows)
    ops = [
        o
        for o in data["operations"]
        if o["parse"] == "gold:sud" and o["target"] == "ud" and o["labeled"] is True
    ]
    assert len(ops) == 6 and {o["construction"] for o in ops} == {"copula", "other"}
    res = run_cli(*args, "--format", "csv")  # type: ignore[operator]
    assert res.code == 0
    table = list(csv.DictReader(io.StringIO(res.out)))
    assert {"parse", "target", "grouping", "group", "counted", "discounted", "share", "sentences"} <= set(
        table[0]
    )
    res = run_cli(*args, "--format", "csv", "--per-sentence")  # type: ignore[operator]
    ops_csv = list(csv.DictReader(io.StringIO(res.out)))
    assert (
        len(
            [o for o in ops_csv if o["parse"] == "gold:sud" and o["target"] == "ud" and o["labeled"] == "yes"]
        )
        == 6
    )
    res = run_cli(*args)  # type: ignore[operator]
    assert res.code == 0 and "top 5 groups by construction" in res.out and "signature: atlas|" in res.out


def test_cli_bad_export_parse_is_one_line_exit_2(run_cli: object, write_file: object, tmp_path: Path) -> None:
    res = run_cli(*_small(write_file), "--export-misc", str(tmp_path / "o.conllu"), "--export-parse", "nope")  # type: ignore[operator]
    assert res.code == 2 and len(res.err.strip().splitlines()) == 1 and "nope" in res.err


def test_export_misc_round_trips_through_the_reader(
    run_cli: object, write_file: object, tmp_path: Path
) -> None:
    """The SUD gold read as a parse of the UD gold ('il est malade'): the exported UD gold carries,
    word by word, the operations whose span the word heads (by hand: il: del subj, ins nsubj;
    est: del hd, ins cop; malade: del comp:pred, ins hd), and NED verdicts of the SUD analysis
    against the UD gold (docs/attachment.md, "The five numbers"): 'il' → 'est', which is neither its gold
    head, a gold child nor its gold grandparent (root): wrong; 'est' → root, the gold grandparent: neutral;
    'malade' → 'est', a gold child of 'malade': neutral."""
    out = tmp_path / "verdicts.conllu"
    res = run_cli(  # type: ignore[operator]
        *_small(write_file), "--export-misc", str(out), "--export-parse", "gold:sud", "--export-target", "ud"
    )
    assert res.code == 0, res.err
    (tree,) = read_conllu(out)
    misc = [split_misc(t.misc) for t in tree.tokens]
    assert [sorted(m["TedEval"].split(",")) for m in misc] == [
        ["counted:del:subj", "counted:ins:nsubj"],
        ["counted:del:hd", "counted:ins:cop"],
        ["counted:del:comp:pred", "counted:ins:hd"],
    ]
    assert [m["NED"] for m in misc] == ["wrong", "neutral", "neutral"]
    assert misc[2]["SpaceAfter"] == "No"  # other attributes kept
    assert [t.deprel for t in tree.tokens] == ["nsubj", "cop", "root"]  # the UD gold's columns


@pytest.mark.slow
def test_export_misc_on_french_round_trips(run_cli: object, tmp_path: Path) -> None:
    out = tmp_path / "fr.conllu"
    res = run_cli(*_fr_args("--no-ranking", "--format", "json", "--export-misc", str(out)))  # type: ignore[operator]
    assert res.code == 0, res.err
    back = list(read_conllu(out))
    gold = french()[0].gold.trees
    assert len(back) == len(gold) == 416
    # the columns other than MISC are the gold's
    assert [t.heads for t in back] == [t.heads for t in gold]  # type: ignore[union-attr]
    # one verdict per operation of spacy-ud against ud+sud (labeled), and discounted ones among them
    n = sum(
        len(split_misc(t.misc).get("TedEval", "").split(","))
        for s in back
        for t in s.tokens
        if "TedEval=" in t.misc
    )
    atlas, _ = french_atlas()
    cell = atlas.cell("spacy-ud", "ud+sud", True)  # type: ignore[attr-defined]
    assert n == sum(g.counted + g.discounted for g in cell.grouped("operation"))
