"""The inspector's sentence report (evalcore.inspection): scores and operations placed on drawings."""

from __future__ import annotations

from tedeval_helpers import dep

from evalcore.inspection import inspect_sentence

W = ["would", "have", "worked"]


def test_report_for_section_53_example() -> None:
    g1 = dep(W, [0, 1, 2], ["root", "vg", "vg"])
    g2 = dep(W, [2, 3, 0], ["vg", "vg", "root"])
    p = dep(W, [0, 1, 2], ["root", "vg", "obj"])
    report = inspect_sentence([("a", g1), ("b", g2)], [("p", "a", p), ("g1", "a", g1)])
    view = report.parses[0]
    unlabeled, labeled = view.multiple
    assert labeled.score == 0.8 and unlabeled.score == 1.0
    assert report.parses[1].multiple[1].score == 1.0
    marks = view.marks(report.general)
    assert {(str(m.op), m.discounted, m.on) for m in marks} == {
        ("del hd {1}", True, "parse"),
        ("del vg {2,3}", True, "parse"),
        ("del obj {3}", False, "parse"),
    }
    mf = view.span_tree.to_mftree()
    for m in marks:  # every operation points at the node with its span
        assert m.node > 0 and mf.spans[m.node] == m.op.span
    # against its own gold alone, p only relabels one node
    assert [str(op) for op in view.single[1].script] == ["del obj {3}", "ins vg {3}"]
