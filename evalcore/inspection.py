"""One sentence, every view: what the sentence inspector shows (SPEC §4–5), computed here, not in a page.

For one sentence with K schemes (a gold each) and any number of parses:
the function tree of every gold and parse, the generalized gold of all
golds, and for every parse its TedEval scores against its own gold (SINGLE)
and against the generalization (MULTIPLE), labeled and unlabeled, with the
edit script split into *counted* and *discounted* operations, and which
node of which drawing each operation belongs to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.conversion import ConversionConfig, to_span_tree
from evalcore.generalization import generalize_all
from evalcore.metrics.tedeval import SentenceTed, sentence_ted
from evalcore.trees import DepTree, EditOp, MFTree, SpanTree, Tree

__all__ = [
    "OpMark",
    "ParseView",
    "SentenceReport",
    "inspect_sentence",
    "mark_operations",
]

AnyTree = DepTree | Tree


@dataclass(frozen=True, slots=True)
class OpMark:
    """An operation placed on a drawing: the node it concerns, and whether it is discounted."""

    op: EditOp
    discounted: bool
    on: str  # "parse" (deletions, relabels) or "general" (insertions)
    node: int  # index into the MFTree of that side (to_mftree()), -1 if not drawn


@dataclass(frozen=True)
class ParseView:
    name: str
    scheme: str
    tree: AnyTree
    span_tree: SpanTree
    single: tuple[SentenceTed, SentenceTed]  # (unlabeled, labeled) against its own gold
    multiple: tuple[SentenceTed, SentenceTed]  # (unlabeled, labeled) against the generalization

    def marks(self, general: SpanTree, labeled: bool = True) -> tuple[OpMark, ...]:
        ted = self.multiple[1 if labeled else 0]
        return mark_operations(ted, self.span_tree.to_mftree(), general.to_mftree())


@dataclass(frozen=True)
class SentenceReport:
    golds: tuple[tuple[str, AnyTree, SpanTree], ...]  # (scheme, gold tree, function tree)
    general: SpanTree
    parses: tuple[ParseView, ...]
    config: ConversionConfig


def _node_for(mf: MFTree, op: EditOp) -> int:
    spans = mf.spans
    for i, n in enumerate(mf.nodes):
        if n.terminal is None and spans[i] == op.span and i != 0:
            return i
    return -1


def mark_operations(ted: SentenceTed, parse_mf: MFTree, general_mf: MFTree) -> tuple[OpMark, ...]:
    """Place each operation of ``ted.script`` on the parse (del, rel) or the generalized gold (ins)."""
    discounted = list(ted.discounted)
    out: list[OpMark] = []
    for op in ted.script:
        is_disc = op in discounted
        if is_disc:
            discounted.remove(op)
        side, mf = ("general", general_mf) if op.kind == "ins" else ("parse", parse_mf)
        out.append(OpMark(op, is_disc, side, _node_for(mf, op)))
    return tuple(out)


def inspect_sentence(
    golds: Sequence[tuple[str, AnyTree]],
    parses: Sequence[tuple[str, str, AnyTree]],
    config: ConversionConfig | None = None,
) -> SentenceReport:
    """``golds``: (scheme, tree) per scheme; ``parses``: (name, scheme, tree).  Trees must be over
    the same words (checked by the generalization)."""
    config = config or ConversionConfig()
    gold_st = [(scheme, tree, to_span_tree(tree, config)) for scheme, tree in golds]
    own = {scheme: st for scheme, _, st in gold_st}
    general = generalize_all(st for _, _, st in gold_st)
    views = []
    for name, scheme, tree in parses:
        st = to_span_tree(tree, config)
        g = own[scheme]
        single = (sentence_ted(st, g, g, labeled=False), sentence_ted(st, g, g, labeled=True))
        multiple = (sentence_ted(st, g, general, labeled=False), sentence_ted(st, g, general, labeled=True))
        views.append(ParseView(name, scheme, tree, st, single, multiple))
    return SentenceReport(tuple(gold_st), general, tuple(views), config)
