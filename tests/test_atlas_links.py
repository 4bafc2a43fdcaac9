"""From the Atlas to the inspector: the grouping of one operation, the
``group=`` link key, which inspector view shows an atlas cell, and the inspector highlighting
exactly the operations the atlas counts in the group (AppTest for the page side); and the
ranking's FREVAL F1 rows where constituency input is given (item 3, hand counts).

Expected groups are hand-derived on 'il est malade' (UD and SUD, written out below); on the
French data the inspector's highlighting is checked against the atlas's own classified
operations (both from evalcore.atlas, through two different paths: the experiment's scripts
and the inspector's per-sentence report)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from app_view import status_table
from streamlit.testing.v1 import AppTest
from test_app_tedeval import no_exception, run_app
from test_atlas import _copula_pair
from test_atlas import french as french_schemes

from evalcore.atlas import GROUPINGS, Atlas, AtlasConfig, build_atlas, op_group, ops_of, script_groups
from evalcore.conversion import ConversionConfig
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.families.tedeval import TedevalSettings
from evalcore.formats.ptb import parse_ptb
from evalcore.metrics.tedeval import TedConfig
from evalcore.ranking import OWN_GOLD, RankingConfig, freval_metric, rank_parses
from evalcore.trees import EditOp
from workbench.atlas_links import GroupRef, InspectorTarget, highlight_flags, inspector_target, parse_group
from workbench.atlas_view import atlas_schemes, group_sentences, sentence_queries
from workbench.cache import load_builtin
from workbench.datasets import LoadedDataset, builtin
from workbench.links import INSPECTOR_KEYS, inspector_link, parse_link
from workbench.tedeval import parse_choices, sentence_tedeval

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
TIMEOUT = 180


# ---------------------------------------------------------------------------
# the group of one operation (evalcore.atlas.op_group / script_groups)


def test_group_of_one_operation_by_hand() -> None:
    """'il est malade': UD il←malade (nsubj), est←malade (cop); SUD il←est (subj), est root,
    malade←est (comp:pred).  The SUD gold read as a parse of UD: deletions are looked up in the SUD
    tree, insertions in the UD tree (test_atlas.test_small_experiment_by_hand has the script)."""
    ud, sud = _copula_pair()
    del_subj = EditOp("del", "subj", frozenset({0}))
    del_hd = EditOp("del", "hd", frozenset({1}))
    del_pred = EditOp("del", "comp:pred", frozenset({2}))
    ins_cop = EditOp("ins", "cop", frozenset({1}))
    ins_hd = EditOp("ins", "hd", frozenset({2}))
    # 'est' in SUD is the root whose comp:pred dependent marks a copula; in UD it is the cop itself
    assert op_group(del_hd, "construction", sud) == "copula"
    assert op_group(del_hd, "head", sud) == "AUX root"
    assert op_group(ins_cop, "head", ud) == "AUX cop"
    assert op_group(ins_cop, "construction", ud) == "copula"
    assert op_group(del_subj, "construction", sud) == "other"
    assert op_group(del_pred, "operation", sud) == "del comp:pred"
    assert op_group(del_pred, "length", sud) == "1"
    # no dependency tree: no head word
    assert op_group(del_hd, "head", None) == "_ _"
    assert op_group(del_hd, "construction", None) == "other"
    script = (del_subj, del_hd, del_pred, ins_cop, ins_hd)
    assert script_groups(script, "construction", sud, ud) == ("other", "copula", "copula", "copula", "copula")
    assert script_groups(script, "head", sud, ud) == (
        "PRON subj",
        "AUX root",
        "ADJ comp:pred",
        "AUX cop",
        "ADJ root",
    )
    flags = highlight_flags(GroupRef("construction", "copula"), script, sud, ud, ConversionConfig())
    assert flags == (False, True, True, True, True)


# ---------------------------------------------------------------------------
# the link key


def test_group_link_values() -> None:
    assert parse_group("construction:copula") == GroupRef("construction", "copula")
    # a head group has a colon of its own: the first one separates the grouping
    assert parse_group("head:NOUN obl:arg") == GroupRef("head", "NOUN obl:arg")
    assert parse_group("length:5-9") == GroupRef("length", "5-9")
    assert parse_group("operation:rel obl→nmod") == GroupRef("operation", "rel obl→nmod")
    assert "not GROUPING:NAME" in str(parse_group("copula"))
    assert "not GROUPING:NAME" in str(parse_group("construction:"))
    assert "unknown grouping 'shape'" in str(parse_group("shape:copula"))
    assert "no construction group 'copulas'" in str(parse_group("construction:copulas"))
    assert "no length group '7'" in str(parse_group("length:7"))
    # the one validating parser takes it as a name of the inspector (printable, bounded)
    assert "group" in INSPECTOR_KEYS
    link = parse_link({"group": "construction:copula"})
    assert link.text("group") == "construction:copula" and not link.problems
    assert parse_link({"group": "x" * 201}).problems
    assert parse_link({"group": "construction:\x00"}).problems


# ---------------------------------------------------------------------------
# which inspector view shows an atlas cell (the French built-in data)


@cache
def french() -> LoadedDataset:
    return load_builtin(builtin("fr_gsd"))


def test_inspector_view_of_each_french_cell() -> None:
    """The dataset: UD and SUD golds; spaCy's UD parsers are scored with the UD gold, its SUD parser
    with the SUD gold.  The inspector draws a parse's script to the gold it is scored with
    (``single``) or to the generalization of both golds (``general``); a gold read as a parse
    against the other gold is its own inspector parse."""
    loaded = french()
    expected = [
        # (atlas parse, its scheme, target) -> (inspector parse, inspector target)
        (("spaCy UD parser", "UD", "UD+SUD"), ("spaCy UD parser", "general")),
        (("spaCy UD parser", "UD", "UD"), ("spaCy UD parser", "single")),
        (("spaCy SUD parser", "SUD", "SUD"), ("spaCy SUD parser", "single")),
        (("gold:SUD", "SUD", "UD"), ("SUD gold as a parse, against UD gold", "single")),
        (("gold:UD", "UD", "UD+SUD"), ("UD gold as a parse, against SUD gold", "general")),
        # a parse against the other scheme's gold: the inspector's parse "NAME, against GOLD"
        (("spaCy UD parser", "UD", "SUD"), ("spaCy UD parser, against SUD gold", "single")),
        (("spaCy SUD parser", "SUD", "UD"), ("spaCy SUD parser, against UD gold", "single")),
    ]
    for cell, (parse, target) in expected:
        assert inspector_target(loaded, *cell) == InspectorTarget(parse, target), cell
    # what it cannot draw, it says
    assert "no operation" in inspector_target(loaded, "gold:UD", "UD", "UD").reason
    assert "not to UD+XX" in inspector_target(loaded, "spaCy UD parser", "UD", "UD+XX").reason
    assert "no parse nobody" in inspector_target(loaded, "nobody", "UD", "UD").reason


def _small(loaded: LoadedDataset, n: int) -> list[Scheme]:
    def cut(t: NamedTrees) -> NamedTrees:
        return replace(t, trees=t.trees[:n])

    return [Scheme(s.name, cut(s.gold), tuple(cut(p) for p in s.parses)) for s in atlas_schemes(loaded)]


@cache
def small_atlas(n: int, protocol: str) -> Atlas:
    config = AtlasConfig(TedConfig(ConversionConfig(protocol=protocol)), skip_mismatched=True)  # type: ignore[arg-type]
    atlas, _ = build_atlas(_small(french(), n), config, keep_ops=True)
    return atlas


@pytest.mark.parametrize(("n", "protocol"), [(40, "2012"), (15, "2011")])
@pytest.mark.slow
def test_the_inspector_highlights_what_the_atlas_counts(n: int, protocol: str) -> None:
    """For every cell the inspector can draw and every sentence: the operations of the inspector's
    script (workbench.tedeval.sentence_tedeval, the page's own report) with their group in each
    grouping, and whether discounted, are the atlas's classified operations of that sentence --
    the same multiset.  So a sentence opened from a group shows exactly that group's operations."""
    loaded = french()
    atlas = small_atlas(n, protocol)
    conversion = ConversionConfig(protocol=protocol)  # type: ignore[arg-type]
    choices = {c.name: c for c in parse_choices(loaded)}
    ids = {s.sent_id: s.index for s in loaded.sentences}
    checked = 0
    for cell in atlas.cells:
        where = inspector_target(loaded, cell.parse, cell.scheme, cell.target)
        if not where.parse:
            continue
        choice = choices[where.parse]
        single = where.target == "single"
        target = choice.single if single else choice.own
        by_sentence: dict[str, Counter[tuple[object, ...]]] = {}
        for o in atlas.ops:
            if (o.parse, o.target, o.labeled) == (cell.parse, cell.target, cell.labeled):
                key = (o.op, o.discounted, *(o.group(g) for g in GROUPINGS))
                by_sentence.setdefault(o.sent_id, Counter())[key] += 1
        for sid, index in ids.items():
            if index >= n:
                continue
            view = sentence_tedeval(loaded, index, conversion, (choice,)).view(choice.name)
            assert view is not None, (cell.parse, sid)
            ted = (view.single if single else view.multiple)[1 if cell.labeled else 0]
            discounted = Counter(ted.discounted)
            groups = [
                script_groups(ted.script, g, choice.analysis.trees[index], target.trees[index], conversion)
                for g in GROUPINGS
            ]
            mine: Counter[tuple[object, ...]] = Counter()
            for k, op in enumerate(ted.script):
                disc = discounted[op] > 0
                discounted[op] -= disc
                mine[(op, disc, *(g[k] for g in groups))] += 1
            assert mine == by_sentence.get(sid, Counter()), (cell.parse, cell.target, cell.labeled, sid)
            checked += sum(mine.values())
    assert checked > 1000  # the comparison is not vacuous


# ---------------------------------------------------------------------------
# the pages (AppTest)


def test_atlas_sentence_links_carry_the_inspector_view() -> None:
    """The Atlas's sentence links open the inspector at the sentence with the cell's parse, target,
    scripts, protocol and group; a cell the inspector cannot draw links to the sentence only."""
    loaded = french()
    atlas = small_atlas(40, "2012")
    copula = GroupRef("construction", "copula")
    rows = group_sentences(loaded, atlas, "spaCy UD parser", "UD+SUD", False, copula, TedevalSettings())
    assert len(rows) > 0
    sid = rows[0].sent_id
    assert inspector_link(dict(rows[0].query)) == (
        f"./?data=fr_gsd&sent={sid}&parse=spaCy+UD+parser&target=general&labeled=no&protocol=2012"
        "&group=construction%3Acopula"
    )
    cross = group_sentences(loaded, atlas, "spaCy UD parser", "SUD", True, copula, TedevalSettings())
    assert len(cross) > 0
    assert inspector_link(dict(cross[0].query)) == (
        f"./?data=fr_gsd&sent={cross[0].sent_id}&parse=spaCy+UD+parser%2C+against+SUD+gold"
        "&target=single&labeled=yes&protocol=2012&group=construction%3Acopula"
    )
    # a cell the inspector cannot draw: the sentence only
    nowhere = InspectorTarget(reason="no such view")
    assert sentence_queries(
        loaded, ["s1"], nowhere, labeled=True, protocol="2012", group=GroupRef("length", "1")
    ) == [{"data": "fr_gsd", "sent": "s1"}]


@pytest.mark.parametrize(("n", "protocol"), [(40, "2012"), (15, "2011")])
@pytest.mark.slow
def test_a_group_lists_its_sentences_by_the_atlas_own_count_then_length(n: int, protocol: str) -> None:
    """Each listed sentence's count of the group's operations (all, and counted) is the atlas's own
    count of that sentence's classified operations in the group (evalcore.atlas, kept operations --
    computed apart from the inspector's scripts the list counts with); the list is ordered by that
    count per word, then by length, then file order (docs/decisions.md), and holds exactly the
    atlas's sentences of the group."""
    loaded = french()
    atlas = small_atlas(n, protocol)
    lengths = {s.sent_id: s.length for s in loaded.sentences}
    order = [s.sent_id for s in loaded.sentences]
    checked = 0
    for parse, target in (("spaCy UD parser", "UD+SUD"), ("spaCy SUD parser", "SUD"), ("gold:SUD", "UD")):
        for labeled in (False, True):
            cell = atlas.cell(parse, target, labeled)
            assert cell is not None
            ops = [o for o in ops_of(atlas, parse, target, labeled)]
            for row in cell.grouped("construction"):
                ref = GroupRef("construction", row.group)
                mine = [o for o in ops if o.group("construction") == row.group]
                total = Counter(o.sent_id for o in mine)
                counted = Counter(o.sent_id for o in mine if not o.discounted)
                got = group_sentences(
                    loaded,
                    atlas,
                    parse,
                    target,
                    labeled,
                    ref,
                    TedevalSettings(protocol=protocol),  # type: ignore[arg-type]
                )
                assert {g.sent_id for g in got} == set(row.sentences) == set(total)
                assert [(g.sent_id, g.operations, g.counted) for g in got] == sorted(
                    ((sid, total[sid], counted[sid]) for sid in total),
                    key=lambda t: (-t[1] / lengths[t[0]], lengths[t[0]], order.index(t[0])),
                )
                checked += len(got)
    assert checked > 100  # not vacuous


def _copula_sentence(labeled: bool) -> tuple[str, int, int]:
    """A French sentence where the spaCy UD parser has copula operations against UD+SUD: its id, the
    number of them and the number of operations of its script (the atlas's count)."""
    atlas = small_atlas(40, "2012")
    ops = [o for o in atlas.ops if (o.parse, o.target, o.labeled) == ("spaCy UD parser", "UD+SUD", labeled)]
    copula = Counter(o.sent_id for o in ops if o.group("construction") == "copula")
    sid, count = copula.most_common(1)[0]
    return sid, count, sum(1 for o in ops if o.sent_id == sid)


@pytest.mark.slow
def test_inspector_highlights_the_group_of_the_link() -> None:
    sid, count, total = _copula_sentence(True)
    at = run_app(
        data="fr_gsd",
        sent=sid,
        parse="spaCy UD parser",
        target="general",
        labeled="yes",
        protocol="2012",
        group="construction:copula",
    )
    no_exception(at)
    # the link round trip: the inspector keeps the view (and the group) in its URL
    assert at.query_params["group"] == "construction:copula"
    assert at.query_params["sent"] == sid
    said = " ".join(i.value for i in at.info)
    assert f"◆ {count} of the {total} operations of this script are in the atlas group" in said
    table = status_table(at)
    assert table.columns[0] == "group"
    assert (table["group"] == "◆").sum() == count and len(table) == total
    # the highlight is cleared with a button: out of the URL, no group column
    at.button(key="wb_group_clear").click().run()
    no_exception(at)
    assert "group" not in at.query_params
    table = status_table(at)
    assert "group" not in table.columns and len(table) == total


@pytest.mark.slow
def test_inspector_says_an_unknown_group_is_not_used() -> None:
    sid, _, _ = _copula_sentence(True)
    at = run_app(data="fr_gsd", sent=sid, parse="spaCy UD parser", group="shape:copula")
    no_exception(at)
    warned = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "unknown grouping 'shape'" in warned
    table = status_table(at)
    assert "group" not in table.columns  # nothing highlighted
    at = run_app(data="fr_gsd", sent=sid, parse="spaCy UD parser", group="construction:copulas")
    assert "no construction group 'copulas'" in " ".join(w.value for w in at.warning).replace("\\", "")


@pytest.mark.slow
def test_follow_an_atlas_page_link_into_the_inspector() -> None:
    """The Atlas page's link of a sentence (its query string) opens the inspector with the group's
    operations highlighted."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["data"] = "fr_gsd"
    at.run()
    at.switch_page("pages/6_Atlas.py").run()
    no_exception(at)
    at.radio(key="atlas_scripts").set_value("labeled").run()
    at.selectbox(key="atlas_parse:fr_gsd").set_value("spaCy UD parser").run()
    at.selectbox(key="atlas_group:fr_gsd:construction").set_value("copula").run()
    no_exception(at)
    link = at.get("page_link")[0].proto
    query = dict(part.split("=", 1) for part in link.query_string.split("&"))
    assert query["group"] == "construction%3Acopula" and query["target"] == "general"
    assert query["labeled"] == "yes" and query["parse"] == "spaCy+UD+parser"
    inspector = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in query.items():
        inspector.query_params[k] = v.replace("+", " ").replace("%3A", ":")
    inspector.run()
    no_exception(inspector)
    said = " ".join(i.value for i in inspector.info)
    assert "operations of this script are in the atlas group" in said and "◆ 0 of" not in said


# ---------------------------------------------------------------------------
# ranking flips: FREVAL F1 by size where constituency input is given

PTB_GOLD = "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))\n(S (NP (DT a) (NN cat)) (VP (VBZ sleeps)))\n"
PTB_A = "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))\n(S (NP (DT a)) (VP (NN cat) (VBZ sleeps)))\n"
PTB_B = "(S (NP (DT the)) (VP (NN dog) (VBZ barks)))\n(S (NP (DT a)) (VP (NN cat) (VBZ sleeps)))\n"


def test_freval_f1_rows_by_hand() -> None:
    """Gold: S[0,3] → NP[0,2], VP[2,3] (3 brackets; fragments: 3 of size 1, 2 of size 2 (S-NP,
    S-VP), 1 of size 3).  A parse with NP[0,1], VP[1,3] matches S only: size 1 M=1 of G=T=3, no
    larger fragment matched (every node must match, docs/freval.md, "Brackets and matching").  Parse A is
    right on sentence 1 and wrong that way on 2; B is wrong on both.  F1_s = 2·ΣM / Σ(G+T):
    A: s=1 2·(3+1)/12 = 2/3, s=2 2·(2+0)/8 = 1/2, s=3 2·(1+0)/4 = 1/2;
    B: s=1 2·(1+1)/12 = 1/3, s=2 0, s=3 0."""

    def named(name: str, text: str) -> NamedTrees:
        return NamedTrees(name, tuple(parse_ptb(text)))

    schemes = [Scheme("ptb", named("gold", PTB_GOLD), (named("A", PTB_A), named("B", PTB_B)))]
    result = run_experiment(schemes, ExperimentConfig(shuffles=0))
    ranking = rank_parses(result, schemes, RankingConfig(shuffles=200, seed=1))
    expected = {1: (2 / 3, 1 / 3), 2: (1 / 2, 0.0), 3: (1 / 2, 0.0)}
    for against in (OWN_GOLD, "ptb"):
        for size, (a, b) in expected.items():
            row = ranking.row(against, freval_metric(size))
            assert row is not None, (against, size)
            assert row.cell("A").score == pytest.approx(a)  # type: ignore[union-attr]
            assert row.cell("B").score == pytest.approx(b)  # type: ignore[union-attr]
            assert row.order() == ("A", "B")
            assert ranking.test("A", "B", against, freval_metric(size)) is not None
    assert ranking.row(OWN_GOLD, freval_metric(4)) is None  # sizes 1..3 by default
    assert "frevalsizes:3" in ranking.signature


@pytest.mark.slow
def test_no_freval_rows_for_dependency_input() -> None:
    schemes = [
        Scheme(
            s.name,
            replace(s.gold, trees=s.gold.trees[:5]),
            tuple(replace(p, trees=p.trees[:5]) for p in s.parses),
        )
        for s in french_schemes()
    ]

    result = run_experiment(schemes, ExperimentConfig(shuffles=0))
    ranking = rank_parses(result, schemes, RankingConfig(shuffles=10))
    assert not [r for r in ranking.rows if r.metric.startswith("FREVAL")]
    assert {r.metric for r in ranking.rows} == {"UAS", "LAS", "NED", "U-TED", "L-TED"}


def test_cli_freval_rows_and_bad_sizes(run_cli: object, write_file: object) -> None:
    gold = write_file("gold.mrg", PTB_GOLD)  # type: ignore[operator]
    a = write_file("a.mrg", PTB_A)  # type: ignore[operator]
    b = write_file("b.mrg", PTB_B)  # type: ignore[operator]
    args = ["atlas", "--scheme", "ptb", gold, f"A={a}", f"B={b}", "--shuffles", "10"]
    res = run_cli(*args, "--freval-sizes", "2")  # type: ignore[operator]
    assert res.code == 0, res.err
    assert "FREVAL F1 s=1" in res.out and "FREVAL F1 s=2" in res.out and "FREVAL F1 s=3" not in res.out
    assert "0.6667 (1)" in res.out and "0.3333 (2)" in res.out
    res = run_cli(*args, "--freval-sizes", "0")  # type: ignore[operator]
    assert res.code == 2 and len(res.err.strip().splitlines()) == 1 and "--freval-sizes" in res.err
