"""Why each operation of an edit script costs or is forgiven (docs/tedeval.md, "Why an operation is
counted or discounted").

EACL 2012 §3.3: the parse ``p`` of scheme ``g`` is scored by ``ES(p, G)`` minus the operations it
shares with ``ES(g, G)``, its own gold's way to the generalization ``G``.  So a discounted operation
is *excused by* one operation of ``ES(g, G)``, the same deletion (or insertion, or relabeling) of the
same label on the same span, which exists because another gold does not have what ``g`` has there.
An operation *contradicts* a gold when that gold sides with the tree the operation moves away from:
a deletion or relabeling of the parse's ``(label, span)`` contradicts each gold without that pair;
an insertion of the target's pair contradicts each gold that has it.

The reasons are declared once (:data:`REASONS`): each is one column of the inspector's edit-script
table, one line of the hover text on the drawn node and one field of the CSV export.  The *origin*
of an operation of a parse of raw text (docs/rawtext.md, "Segmentation or attachment") is one of
them, shown only for such a parse (:func:`block_reasons`): segmentation, when its node covers a
displaced word, else attachment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from evalcore.atlas import script_groups
from evalcore.choices import PROTOCOL_2011
from evalcore.conversion import ConversionConfig
from evalcore.experiment_raw import BlockMark, BlockReport
from evalcore.generalization import WILDCARDS
from evalcore.inspection import OpMark, ParseView, SentenceReport, span_words
from evalcore.trees import EditOp, SpanTree

__all__ = [
    "REASONS",
    "GoldAt",
    "OpWhy",
    "OperationTable",
    "Reason",
    "block_reasons",
    "contradicts",
    "gold_at",
    "hover_lines",
    "operation_table",
    "reasons_of",
]


@dataclass(frozen=True, slots=True)
class GoldAt:
    """What one gold has on a span: a node with ``labels`` (possibly none), or no node."""

    scheme: str
    node: bool
    labels: tuple[str, ...]

    def text(self, span: str) -> str:
        """``gold B has hd on {2}``, ``gold B has no node on {2,3}``, ``gold B has a node without label
        on {2}``."""
        if not self.node:
            return f"gold {self.scheme} has no node on {span}"
        if not self.labels:
            return f"gold {self.scheme} has a node without label on {span}"
        return f"gold {self.scheme} has {'+'.join(self.labels)} on {span}"


def gold_at(tree: SpanTree, scheme: str, op: EditOp) -> GoldAt:
    """What ``tree`` (the gold of ``scheme``) has on ``op``'s span."""
    labels = tree.by_span.get(op.span)
    return GoldAt(scheme, labels is not None, tuple(sorted(labels or ())))


def _holds(tree: SpanTree, op: EditOp, label: str) -> bool:
    """Whether ``tree`` has ``label`` on ``op``'s span as the scripts compare it: the span alone when
    the operation is unlabeled or of the 2011 protocol (a node per span, ``*`` equal to any label),
    else the ``(label, span)`` pair."""
    labels = tree.by_span.get(op.span)
    if labels is None:
        return False
    if not label:
        return True
    if tree.protocol == PROTOCOL_2011:
        if op.kind != "rel":
            return True
        own = next(iter(labels)) if labels else "*"
        return own == label or own in WILDCARDS or label in WILDCARDS
    return label in labels


def contradicts(tree: SpanTree, op: EditOp) -> bool:
    """Whether the gold ``tree`` sides against the parse on ``op`` (module docstring): it lacks the
    pair a deletion or relabeling takes from the parse, or has the pair an insertion adds."""
    if op.kind == "ins":
        return _holds(tree, op, op.label)
    return not _holds(tree, op, op.label)


@dataclass(frozen=True, slots=True)
class OpWhy:
    """One operation of a drawn script with everything its reasons read.

    ``mark``: the operation, whether it is discounted and where it is drawn; ``own``: the parse's own
    scheme (whose gold's script excuses, when discounted); ``golds``: what each gold of the sentence
    has on the operation's span (their order); ``contradicted``: the schemes whose gold sides against
    the parse on it; ``construction``: the atlas's construction group of the operation
    (:func:`evalcore.atlas.script_groups`); ``words``: the sentence's words.  For a parse of raw
    text (:func:`block_reasons`): ``origin``, where the operation comes from (``segmentation (...)``
    or ``attachment``; empty for a parse of the gold's words), and ``sentence``, the sentence whose
    words ``words`` are (a block has several).
    """

    mark: OpMark
    own: str
    target: str
    golds: tuple[GoldAt, ...]
    contradicted: tuple[str, ...]
    construction: str
    words: tuple[str, ...]
    origin: str = ""
    sentence: str = ""
    gold_op: EditOp | None = None  # the operation over the gold words its parse words are aligned to
    gold_sentence: str = ""  # their gold sentence, when the block has several

    @property
    def op(self) -> EditOp:
        return self.mark.op

    @property
    def segmentation(self) -> bool:
        """The operation comes from segmentation (docs/rawtext.md, "Segmentation or attachment")."""
        return self.origin.startswith(SEGMENTATION)

    def span_text(self, limit: int | None = None) -> str:
        """``{2,3}`` with the words of the span: ``{2,3} on Sunday`` (a block's: ``s2: {2,3} on
        Sunday``)."""
        positions = ",".join(str(i + 1) for i in sorted(self.op.span))
        where = f"{self.sentence}: " if self.sentence else ""
        return f"{where}{{{positions}}} {span_words(self.op.span, self.words, limit)}"


def _braces(op: EditOp) -> str:
    return "{" + ",".join(str(i + 1) for i in sorted(op.span)) + "}"


def _gold_braces(why: OpWhy) -> str:
    """The span the golds are read on: the operation's, or for a parse of raw text the gold words its
    words are aligned to (``{2} of s2`` when the block has several gold sentences)."""
    at = f" of {why.gold_sentence}" if why.gold_sentence else ""
    return _braces(why.gold_op or why.op) + at


def excuse_text(why: OpWhy) -> str:
    """For a discounted operation: the operation of the own gold's script that excuses it, and what the
    other golds have there (why the generalization lacks or has it); else empty."""
    if not why.mark.discounted:
        return ""
    op, span = why.op, _gold_braces(why)
    others = [g.text(span) for g in why.golds if g.scheme != why.own]
    verb = {"del": "lacks", "ins": "has", "rel": "relabels"}[op.kind]
    where = f"; {why.target} {verb} it" + (f" ({'; '.join(others)})" if others else "")
    words = span_words(op.span, why.words, None)
    own = why.gold_op or op  # a parse of raw text: the own gold's operation is over the gold's words
    at = f" of {why.gold_sentence}" if why.gold_sentence else ""
    return f"gold {why.own}'s own script: {' '.join(str(own).split())}{at} “{words}”{where}"


def contradiction_text(why: OpWhy) -> str:
    """The golds the operation sides against, each with what it has on the span; ``no gold`` when
    none does (an operation only the generalization asks for)."""
    span = _gold_braces(why)
    texts = [g.text(span) for g in why.golds if g.scheme in why.contradicted]
    return "; ".join(texts) if texts else "no gold"


def contradiction_or_none(why: OpWhy) -> str:
    """:func:`contradiction_text`, or nothing when no gold could be read on the span (an operation of
    a parse of raw text over words the golds have not got: its origin says why)."""
    return contradiction_text(why) if why.golds else ""


SEGMENTATION = "✂ segmentation"
ATTACHMENT = "attachment"


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason shown for every operation: a column of the edit-script table and its CSV, and a line
    of the hover text of the node it is drawn on.  ``optional``: its column is shown only when an
    operation has something to say there (the origin: a parse of raw text only)."""

    name: str
    help: str
    text: Callable[[OpWhy], str]
    optional: bool = False


REASONS: tuple[Reason, ...] = (
    Reason(
        "construction",
        "the atlas's construction group of the operation (docs/atlas.md, 'The four groupings')",
        lambda w: w.construction,
    ),
    Reason(
        "excused by",
        "a discounted operation: the same operation in the script of the parse's own gold to the "
        "generalization, and what the other golds have on its span",
        excuse_text,
    ),
    Reason(
        "contradicts",
        "the golds that side against the parse on this operation, and what each has on its span",
        contradiction_or_none,
    ),
    Reason(
        "origin",
        "a parse of raw text: ✂ segmentation when the operation's node covers a word the parse "
        "tokenized otherwise or put in another sentence (docs/rawtext.md, 'Segmentation or "
        "attachment'), else attachment",
        lambda w: w.origin,
        optional=True,
    ),
)
"""The reasons, in their column order (one declaration: table, hover text and CSV read it)."""


def reasons_shown(whys: Sequence[OpWhy]) -> tuple[Reason, ...]:
    """The reasons of :data:`REASONS` a table of ``whys`` has a column for: every one that is not
    optional, and an optional one when some operation has something to say there."""
    return tuple(r for r in REASONS if not r.optional or any(r.text(w) for w in whys))


def hover_lines(why: OpWhy) -> tuple[str, ...]:
    """The hover text of an operation on its drawn node: the operation and its status, then each
    reason of :data:`REASONS` that has something to say."""
    status = "discounted" if why.mark.discounted else "counted"
    head = f"{' '.join(str(why.op).split())} ({status})"
    return (head, *(f"{r.name}: {t}" for r in REASONS if (t := r.text(why))))


def reasons_of(
    report: SentenceReport,
    view: ParseView,
    marks: Sequence[OpMark],
    *,
    single: bool,
    target: str,
) -> tuple[OpWhy, ...]:
    """One :class:`OpWhy` per mark (same order; the marks of the script ``view.single`` or
    ``view.multiple`` as drawn).  ``single``: the script goes to the parse's single gold (nothing is
    discounted; the construction of an insertion is read in that gold), else to the generalization
    (an insertion read in the parse's own gold, as the atlas counts it)."""
    scheme = (view.single_scheme or view.scheme) if single else view.scheme
    deps = {name: tree for name, tree, _ in report.golds}
    groups = script_groups([m.op for m in marks], "construction", view.tree, deps.get(scheme), report.config)
    golds = [(name, st) for name, _, st in report.golds]
    if single:
        golds = [(name, st) for name, st in golds if name == scheme]
    out = []
    for mark, group in zip(marks, groups, strict=True):
        at = tuple(gold_at(st, name, mark.op) for name, st in golds)
        against = tuple(name for name, st in golds if contradicts(st, mark.op))
        out.append(OpWhy(mark, view.scheme, target, at, against, group, report.general.words))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class OperationTable:
    """The edit-script table: ``columns`` and one row of texts per operation (counted first, then by
    position), with the index of each row's mark; ``export`` the CSV's rows (the sentence, parse,
    target, protocol and measure on every row, the full words, and the operation's kind, label and
    drawing apart, for a spreadsheet's filters)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    order: tuple[int, ...]
    export_columns: tuple[str, ...]
    export: tuple[tuple[str, ...], ...]


KIND_NAMES = {"del": "deletion", "ins": "insertion", "rel": "relabeling"}

BASE_COLUMNS = ("operation", "status", "words")
EXPORT_COLUMNS = ("sentence", "parse", "target", "protocol", "measure")


def operation_table(
    whys: Sequence[OpWhy],
    *,
    sentence: str,
    parse: str,
    target: str,
    protocol: str,
    labeled: bool,
    highlighted: Sequence[bool] = (),
) -> OperationTable:
    """The table of the drawn script: :data:`BASE_COLUMNS`, then one column per :data:`REASONS`; with
    ``highlighted`` (one flag per operation) a ``group`` column first (``◆`` for a flagged one).  The
    export has :data:`EXPORT_COLUMNS` first and ``kind``, ``label`` and ``drawn on`` last (on screen
    the drawings and their titles say where an operation is drawn)."""
    flags = list(highlighted) + [False] * (len(whys) - len(highlighted))
    order = sorted(
        range(len(whys)), key=lambda k: (whys[k].mark.discounted, whys[k].sentence, whys[k].op.sort_key())
    )
    shown = reasons_shown(whys)
    columns = (("group",) if highlighted else ()) + BASE_COLUMNS + tuple(r.name for r in shown)
    measure = "labeled" if labeled else "unlabeled"
    rows, export = [], []
    for k in order:
        w = whys[k]
        op = w.op
        label = f"{op.label} → {op.new_label}" if op.kind == "rel" else op.label or "(bracket, unlabeled)"
        group = ("◆" if flags[k] else "",) if highlighted else ()
        status = "discounted" if w.mark.discounted else "counted"
        drawn = "parse" if w.mark.on == "parse" else target
        reasons = tuple(r.text(w) for r in shown)
        operation = " ".join(str(op).split())
        rows.append((*group, operation, status, w.span_text(60), *reasons))
        context = (sentence, parse, target, protocol, measure)
        full = (*group, operation, status, w.span_text(), *reasons)
        export.append((*context, *full, KIND_NAMES[op.kind], label, drawn))
    export_columns = (*EXPORT_COLUMNS, *columns, "kind", "label", "drawn on")
    return OperationTable(columns, tuple(rows), tuple(order), export_columns, tuple(export))


# ---------------------------------------------------------------------------- a parse of raw text


def _quoted(forms: Sequence[str], limit: int = 4) -> str:
    shown = ", ".join(f"'{f}'" for f in forms[:limit])
    return shown + (f" and {len(forms) - limit} more" if len(forms) > limit else "")


def origin_text(report: BlockReport, bm: BlockMark, words: tuple[str, ...]) -> str:
    """Where an operation of a block's script comes from (docs/rawtext.md, "Segmentation or
    attachment"): ``attachment``, or ``✂ segmentation (...)`` saying which words of its node are
    displaced and how: with no counterpart on the other side, or in another sentence."""
    op = bm.raw
    if not op.segmentation:
        return ATTACHMENT
    here, there = ("parse", "gold") if op.side == "parse" else ("gold", "parse")
    if op.sentence_node:
        return f"{SEGMENTATION} (a sentence of the {here} that no sentence of the {there} matches)"
    if op.side == "parse":
        displaced, linked = report.ted.displaced_parse, set(report.block.links)
    else:
        displaced, linked = report.ted.displaced_gold, set(report.block.links.values())
    mine = [i for i in sorted(op.span) if (op.sentence, i) in displaced]
    lone = [words[i] for i in mine if (op.sentence, i) not in linked]
    moved = [words[i] for i in mine if (op.sentence, i) in linked]
    parts = []
    if lone:
        noun = "the word" if len(lone) == 1 else "the words"
        parts.append(
            f"{noun} {_quoted(lone)} {'has' if len(lone) == 1 else 'have'} no counterpart in the {there}"
        )
    if moved:
        verb = "is" if len(moved) == 1 else "are"
        parts.append(f"{_quoted(moved)} {verb} in another sentence in the {there}")
    return f"{SEGMENTATION} ({'; '.join(parts)})"


def _gold_span(report: BlockReport, op: EditOp, bm: BlockMark) -> tuple[int, EditOp] | None:
    """The gold sentence (its place in the block) and the operation over its words that ``op``
    concerns: itself for the target's tree; for the parse's, when every word of its node is aligned
    to one gold sentence (else ``None``: the golds have not got its words)."""
    if bm.raw.sentence_node:  # a sentence has no span the golds are read on
        return None
    if bm.raw.side == "target":
        return bm.position, op
    refs = [report.block.links.get((bm.raw.sentence, i)) for i in op.span]
    if any(r is None for r in refs):
        return None
    sents = {r[0] for r in refs if r is not None}
    if len(sents) != 1:
        return None
    gold = report.block.gold.index(next(iter(sents)))
    return gold, EditOp(op.kind, op.label, frozenset(r[1] for r in refs if r is not None))


def block_reasons(report: BlockReport, conversion: ConversionConfig, *, target: str) -> tuple[OpWhy, ...]:
    """One :class:`OpWhy` per mark of a block's script (its order), for a parse of raw text: the
    reasons of :data:`REASONS` read on the sentence each operation belongs to -- the construction in
    that sentence (the parse's, or for an insertion the own gold's), what each gold has on the span
    (for the parse's nodes, on the gold words they are aligned to, when they all are, in one gold
    sentence), and the origin.  ``target``: the target's name as the table shows it."""
    out = []
    for bm in report.marks:
        op = bm.mark.op
        side = report.parse if bm.raw.side == "parse" else report.own_gold
        sentence = side[bm.position]
        tree = report.parse[bm.position].st if bm.raw.side == "parse" else report.target_trees[bm.position]
        words = tree.words
        lifted = conversion if report.ted.path == "words" else replace(conversion, projectivize=True)
        if bm.raw.sentence_node:
            construction = "sentence"
        elif bm.raw.side == "parse":
            construction = script_groups([op], "construction", sentence.tree, None, lifted)[0]
        else:
            construction = script_groups([op], "construction", None, sentence.tree, lifted)[0]
        at = _gold_span(report, op, bm)
        golds: tuple[GoldAt, ...] = ()
        against: tuple[str, ...] = ()
        gold_op, gold_sentence = None, ""
        if at is not None:
            k, gold_op = at
            if bm.raw.side == "parse" and len(report.own_gold) > 1:
                gold_sentence = report.own_gold[k].st.sent_id or f"gold sentence {report.block.gold[k] + 1}"
            trees = [(name, sts[k]) for name, sts in report.golds]
            if len(report.target) == 1:
                trees = [(name, st) for name, st in trees if name == report.target[0]]
            golds = tuple(gold_at(st, name, gold_op) for name, st in trees)
            against = tuple(name for name, st in trees if contradicts(st, gold_op))
        label = (
            tree.sent_id or f"{'parse' if bm.raw.side == 'parse' else 'gold'} sentence {bm.raw.sentence + 1}"
        )
        out.append(
            OpWhy(
                bm.mark,
                report.own,
                target,
                golds,
                against,
                construction,
                words,
                origin_text(report, bm, words),
                label,
                gold_op if gold_op is not None and gold_op.span != op.span else None,
                gold_sentence,
            )
        )
    return tuple(out)
