"""Why an operation counts (docs/tedeval.md, "Why an operation is counted or discounted"): the
examples of "Edit scripts, discount and score" (*would have worked*, EMNLP 2011 (6a)/(6b)) read by
hand under both protocols, and properties of the rule on random trees."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_tedeval_properties import dep_trees

from evalcore.examples import VERB_GROUP
from evalcore.families.tedeval import TedevalSettings, conversion_config
from evalcore.inspection import SentenceReport, inspect_sentence
from evalcore.reasons import REASONS, contradicts, hover_lines, operation_table, reasons_of
from evalcore.render.edits import marked_tree_dot
from evalcore.trees import DepTree


def _report(protocol: str = "2012") -> SentenceReport:
    """The parse that follows (6a) and calls *worked* ``obj``, with the golds 6a and 6b."""
    choice = VERB_GROUP.choice("obj")
    parse = VERB_GROUP.tree(choice.spec, "p")
    settings = TedevalSettings(protocol=protocol)  # type: ignore[arg-type]
    return inspect_sentence(VERB_GROUP.golds(), [("p", choice.own, parse)], conversion_config(settings))


def _whys(protocol: str, labeled: bool = True) -> list[tuple[str, bool, tuple[str, ...], str]]:
    """(operation, discounted, contradicted golds, excused-by text) of :func:`_report`'s parse
    against 6a+6b."""
    report = _report(protocol)
    view = report.parses[0]
    whys = reasons_of(report, view, view.marks(report.general, labeled), single=False, target="6a+6b")
    excuse = next(r for r in REASONS if r.name == "excused by")
    return [(" ".join(str(w.op).split()), w.mark.discounted, w.contradicted, excuse.text(w)) for w in whys]


def test_2012_labeled_by_hand() -> None:
    # 6a: (hd,{1}) (vg,{2,3}) (hd,{2}) (vg,{3}); 6b: (vg,{1,2}) (vg,{1}) (hd,{2}) (hd,{3});
    # p: 6a with (obj,{3}).  hd {1}: 6b has vg there; {2,3}: 6b has no such node; obj {3}: 6a has
    # vg, 6b hd -- neither has obj.
    assert _whys("2012") == [
        (
            "del hd {1}",
            True,
            ("6b",),
            "gold 6a's own script: del hd {1} “would”; 6a+6b lacks it (gold 6b has vg on {1})",
        ),
        (
            "del vg {2,3}",
            True,
            ("6b",),
            "gold 6a's own script: del vg {2,3} “have worked”; 6a+6b lacks it (gold 6b has no node on {2,3})",
        ),
        ("del obj {3}", False, ("6a", "6b"), ""),
    ]


def test_2012_unlabeled_reads_spans() -> None:
    assert _whys("2012", labeled=False) == [
        (
            "del {2,3}",
            True,
            ("6b",),
            "gold 6a's own script: del {2,3} “have worked”; 6a+6b lacks it (gold 6b has no node on {2,3})",
        )
    ]


def test_2011_relabel_contradicts_only_a_gold_with_another_label() -> None:
    # 2011: 6a has vg on {3}, 6b has * there (its head): '*' equals any label, so only 6a contradicts
    # the parse's obj; rel obj→vg {3} is counted (the docs' table: 2 − 1 discounted = 1)
    got = _whys("2011")
    assert [(op, disc, against) for op, disc, against, _ in got] == [
        ("del vg {2,3}", True, ("6b",)),
        ("rel obj→vg {3}", False, ("6a",)),
    ]


def test_single_gold_reads_that_gold_only_and_discounts_nothing() -> None:
    report = _report()
    view = report.parses[0]
    whys = reasons_of(report, view, view.single_marks(report.gold("6a")), single=True, target="gold 6a")
    # 2012 against 6a alone: del obj {3}, ins vg {3} (the docs' table)
    assert [(" ".join(str(w.op).split()), w.contradicted) for w in whys] == [
        ("del obj {3}", ("6a",)),
        ("ins vg {3}", ("6a",)),
    ]
    assert all(len(w.golds) == 1 and not w.mark.discounted for w in whys)


def test_table_hover_and_csv_come_from_one_declaration() -> None:
    report = _report()
    view = report.parses[0]
    marks = view.marks(report.general)
    whys = reasons_of(report, view, marks, single=False, target="G")
    table = operation_table(whys, sentence="s1", parse="p", target="G", protocol="2012", labeled=True)
    # every reason declared, but an optional one (the origin of a parse of raw text) that no operation
    # of this parse of the gold's words has (tests/test_rawtext_inspect.py: a block's table has it)
    names = [r.name for r in REASONS if not r.optional]
    assert [r.name for r in REASONS if r.optional] == ["origin"]
    assert list(table.columns[-len(names) :]) == names and "origin" not in table.columns
    assert list(table.export_columns[-len(names) - 3 : -3]) == names
    assert table.export_columns[:5] == ("sentence", "parse", "target", "protocol", "measure")
    dot = marked_tree_dot(view.span_tree, marks, notes=[hover_lines(w) for w in whys])
    assert dot.count("tooltip=") == 3  # one node per deletion, each with its reasons
    assert "excused by: gold 6a's own script: del hd {1}" in dot


def _gen(trees: list[DepTree], protocol: str) -> tuple[object, ...]:
    golds = [(f"s{k}", t) for k, t in enumerate(trees[:2])]
    return golds, [("p", "s0", trees[2])], conversion_config(TedevalSettings(protocol=protocol))  # type: ignore[arg-type]


@given(st.integers(1, 7).flatmap(lambda n: st.lists(dep_trees(n), min_size=3, max_size=3)), st.booleans())
def test_2012_discounted_exactly_when_the_own_gold_does_not_contradict(
    trees: list[DepTree], lab: bool
) -> None:
    """2012: G keeps the pairs every gold has, so a counted deletion's pair is not in the own gold
    and a counted insertion's is; a discounted operation is one the own gold makes itself."""
    golds, parses, config = _gen(trees, "2012")
    report = inspect_sentence(golds, parses, config)  # type: ignore[arg-type]
    view = report.parses[0]
    own = report.gold("s0")
    for w in reasons_of(report, view, view.marks(report.general, lab), single=False, target="G"):
        assert w.mark.discounted == (not contradicts(own, w.op)), w.op
        assert ("s0" in w.contradicted) == contradicts(own, w.op)


@pytest.mark.parametrize("protocol", ["2011", "2012"])
def test_a_parse_equal_to_a_gold_contradicts_only_the_other(protocol: str) -> None:
    golds = VERB_GROUP.golds()
    report = inspect_sentence(
        golds, [("p", "6a", golds[0][1])], conversion_config(TedevalSettings(protocol=protocol))
    )  # type: ignore[arg-type]
    view = report.parses[0]
    whys = reasons_of(report, view, view.marks(report.general), single=False, target="G")
    assert whys and all(w.mark.discounted and w.contradicted == ("6b",) for w in whys)
