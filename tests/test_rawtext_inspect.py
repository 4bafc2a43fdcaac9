"""One block of a parse of raw text as the inspector draws it (docs/rawtext.md, "The block of a sentence
in the inspector"): :func:`evalcore.experiment_raw.inspect_block` scores the block as the experiment
does, and places every operation on its sentence's tree; :func:`evalcore.reasons.block_reasons` gives
each its reasons, the origin (segmentation or attachment) among them.  The expected counts are
docs/rawtext.md's table, read from the page (tests/test_rawtext.py)."""

from __future__ import annotations

import pytest
from test_rawtext import CASES, ROWS

from evalcore.conversion import ConversionConfig
from evalcore.experiment_raw import SENTENCE_NODE, BlockReport, inspect_block
from evalcore.formats.conllu import read_conllu, write_conllu
from evalcore.metrics.conll18 import align_words
from evalcore.reasons import REASONS, block_reasons, operation_table
from evalcore.render.edits import marked_tree_dot
from evalcore.trees import DepTree, Token


def _block(case: str, target: str, *, labeled: bool = False, index: int = 0) -> BlockReport:
    (ud, sud, parse), own = CASES[case]
    files = {n: (t + "\n").encode("utf-8") for n, t in (("ud", ud), ("sud", sud), ("parse", parse))}
    trees = {n: list(read_conllu(data, name=n)) for n, data in files.items()}
    alignment = align_words(files[own], files["parse"])
    golds = {"ud": trees["ud"], "sud": trees["sud"]}
    return inspect_block(
        alignment, index, trees["parse"], golds, own, target.split("+"), ConversionConfig(), labeled=labeled
    )


@pytest.mark.parametrize(("case", "target", "ops", "delta", "norm", "segmentation"), ROWS)
def test_the_block_has_the_pages_counts_and_every_operation_is_drawn(
    case: str, target: str, ops: int, delta: int, norm: int, segmentation: int
) -> None:
    report = _block(case, target)
    assert (len(report.marks), report.ted.delta, report.ted.norm) == (ops, delta, norm)
    assert report.segmentation == segmentation
    assert all(m.mark.node >= 0 for m in report.marks)  # on a node of its sentence's tree
    whys = block_reasons(report, ConversionConfig(), target=target)
    table = operation_table(whys, sentence=case, parse="p", target=target, protocol="2012", labeled=False)
    names = [r.name for r in REASONS]  # every reason declared, the optional origin too
    assert list(table.columns[-len(names) :]) == names
    assert list(table.export_columns[-len(names) - 3 : -3]) == names
    origin = table.columns.index("origin")
    assert sum(row[origin].startswith("✂ segmentation") for row in table.rows) == segmentation
    assert sum(row[origin] == "attachment" for row in table.rows) == ops - segmentation
    assert sum(w.segmentation for w in whys) == segmentation


def test_the_moved_boundary_block_holds_both_sentences_from_either_gold_sentence() -> None:
    first, second = _block("moved", "ud+sud"), _block("moved", "ud+sud", index=1)
    assert first.block == second.block
    assert (first.block.gold, first.block.parse) == ((0, 1), (0, 1))
    assert len(first.parse) == 2 and len(first.target_trees) == 2


def test_the_origin_says_which_words_and_how() -> None:
    whys = block_reasons(_block("merged", "sud"), ConversionConfig(), target="sud")
    origins = {w.span_text(): w.origin for w in whys}
    assert origins["merged-parse: {3} au"] == "✂ segmentation (the word 'au' has no counterpart in the gold)"
    assert (
        origins["merged: {4,5} le marché"] == "✂ segmentation (the word 'le' has no counterpart in the parse)"
    )
    moved = block_reasons(_block("moved", "sud"), ConversionConfig(), target="sud")
    assert {w.origin for w in moved} == {
        "✂ segmentation ('.' is in another sentence in the gold)",
        "✂ segmentation ('.' is in another sentence in the parse)",
    }


def test_a_parse_deletion_reads_the_golds_on_the_gold_words_it_is_aligned_to() -> None:
    """The split parse's *est* is its word 3, the gold's word 2: what the gold has is said there."""
    whys = block_reasons(_block("split", "sud", labeled=True), ConversionConfig(), target="sud")
    (est,) = [w for w in whys if w.span_text() == "split-parse: {3} est"]
    assert est.origin == "attachment"
    assert [r.text(est) for r in REASONS if r.name == "contradicts"] == ["gold sud has hd on {2}"]
    (jean,) = [w for w in whys if w.span_text() == "split-parse: {1} Jean"]
    assert jean.golds == () and [r.text(jean) for r in REASONS if r.name == "contradicts"] == [""]


def test_a_parse_of_the_golds_words_has_no_origin_column() -> None:
    """The origin is declared optional: the table of a parse of the gold's words is as before."""
    whys = block_reasons(_block("split", "ud"), ConversionConfig(), target="ud")
    plain = [
        w.__class__(w.mark, w.own, w.target, w.golds, w.contradicted, w.construction, w.words) for w in whys
    ]
    table = operation_table(plain, sentence="s", parse="p", target="ud", protocol="2012", labeled=False)
    assert "origin" not in table.columns and "origin" not in table.export_columns


def test_the_drawing_marks_segmentation_apart() -> None:
    report = _block("split", "ud")
    (k, parse_tree) = (0, report.parse[0].st)
    marks = report.on("parse", k)
    dot = marked_tree_dot(
        parse_tree,
        [m.mark for _, m in marks],
        side="parse",
        segmentation=[m.segmentation for _, m in marks],
    )
    assert dot.count('class="segmentation"') == 3  # Jean, -Marc and {Jean -Marc}
    assert dot.count("✂") == 3 and 'class="counted"' not in dot


JOINED_GOLD = (
    b"# sent_id = a\n# text = Il dort.\n1\tIl\til\tPRON\t_\t_\t2\tnsubj\t_\t_\n"
    b"2\tdort\tdormir\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No\n3\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_\n\n"
    b"# sent_id = b\n# text = Oui.\n1\tOui\toui\tINTJ\t_\t_\t0\troot\t_\tSpaceAfter=No\n"
    b"2\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n\n"
)
JOINED_PARSE = [
    ("Il", 2, "nsubj"),
    ("dort", 0, "root"),
    (".", 2, "punct"),
    ("Oui", 2, "parataxis"),
    (".", 4, "punct"),
]


def _joined(index: int) -> BlockReport:
    """Two gold sentences, the parse's one sentence over both: a sentence node is deleted or inserted."""
    tokens = JOINED_PARSE
    parse = DepTree(
        tuple(Token(k, f, f, "X", "_", "_", h, r) for k, (f, h, r) in enumerate(tokens, 1)), sent_id="p"
    )
    trees = list(read_conllu(JOINED_GOLD, name="gold"))
    alignment = align_words(JOINED_GOLD, write_conllu([parse]).encode())
    return inspect_block(
        alignment, index, [parse], {"ud": trees}, "ud", ["ud"], ConversionConfig(), labeled=False
    )


def test_a_sentence_node_is_drawn_on_the_sentences_top_node() -> None:
    sentences = [m for m in _joined(1).marks if m.raw.sentence_node]
    assert sentences and all(m.mark.node == 0 and m.mark.op.label == SENTENCE_NODE for m in sentences)
    assert all(m.segmentation for m in sentences)


def test_a_discounted_parse_deletion_names_the_own_golds_operation_on_the_gold_words() -> None:
    """The split parse's *est* (its word 3) is excused by the UD gold's deletion of aux on its word 2."""
    whys = block_reasons(_block("split", "ud+sud", labeled=True), ConversionConfig(), target="ud+sud")
    (est,) = [w for w in whys if w.span_text() == "split-parse: {3} est"]
    assert est.mark.discounted
    assert [r.text(est) for r in REASONS if r.name == "excused by"] == [
        "gold ud's own script: del aux {2} “est”; ud+sud lacks it (gold sud has hd on {2})"
    ]


def test_in_a_block_of_several_gold_sentences_the_golds_are_read_in_the_named_one() -> None:
    """The moved boundary's block has two gold sentences: what a gold has on a parse node's words is
    said with the gold sentence they are in."""
    whys = block_reasons(_block("moved", "ud+sud", labeled=True), ConversionConfig(), target="ud+sud")
    (elle,) = [w for w in whys if w.span_text() == "moved-parse-1: {1} Elle"]
    texts = {r.name: r.text(elle) for r in REASONS}
    assert texts["contradicts"] == "gold ud has nsubj on {1} of moved-1"
    assert texts["excused by"].startswith("gold sud's own script: del subj {1} of moved-1 “Elle”")


def test_a_sentence_nodes_operation_reads_no_gold() -> None:
    """A sentence has no span the golds are read on: no gold, no contradiction; its origin says why."""
    report = _joined(0)
    whys = [w for w in block_reasons(report, ConversionConfig(), target="ud") if w.op.label == SENTENCE_NODE]
    assert whys and all(w.golds == () and w.segmentation for w in whys)
    assert all([r.text(w) for r in REASONS if r.name == "contradicts"] == [""] for w in whys)
