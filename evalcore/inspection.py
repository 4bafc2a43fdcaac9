"""One sentence, every view: what the sentence inspector shows (docs/tedeval.md, "Definitions";
docs/app.md, "Sentence inspector (home page)"), computed here, not in a page.

Every gold's and parse's function tree, the generalized gold, each parse's TedEval SINGLE and
MULTIPLE scripts split into counted and discounted operations placed on the drawings
(:func:`inspect_sentence`); one sentence's attachment scores, verdicts and per-token judgements
(:func:`sentence_attachment`, :func:`arc_verdicts`: the arcs drawn red or orange are the words the
scores count as wrong, docs/attachment.md, "The five numbers").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from evalcore.conversion import (
    ConversionConfig,
    LabelMap,
    SchemeLabelMaps,
    first_difference,
    to_span_tree,
    words_of,
)
from evalcore.display import Reported
from evalcore.errors import EvalcoreError, MismatchError
from evalcore.families.attach import AttachSettings, attach_config
from evalcore.formats.detect import dialect_of
from evalcore.generalization import generalize_all, tl_unify
from evalcore.metrics.attachment import (
    AttachConfig,
    AttachCounts,
    AttachScore,
    TokenJudgement,
    check_same_tokens,
    judge_tokens,
    score,
    sentence_counts,
)
from evalcore.metrics.rawtext import RawOp
from evalcore.metrics.tedeval import SentenceTed, sentence_ted
from evalcore.trees import ArcVerdict, DepTree, EditOp, MFTree, SpanTree, Tree

__all__ = [
    "ArcVerdict",
    "Neutralized",
    "OpMark",
    "OperationFilter",
    "ParseView",
    "SentenceAttachment",
    "SentenceReport",
    "arc_verdicts",
    "inspect_sentence",
    "label_matches",
    "mark_operations",
    "neutralized_relabels",
    "sentence_attachment",
    "span_words",
    "with_discount",
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
    single_scheme: str = ""  # the gold of ``single`` (default: ``scheme``, its own gold)

    def marks(self, general: SpanTree, labeled: bool = True) -> tuple[OpMark, ...]:
        ted = self.multiple[1 if labeled else 0]
        return mark_operations(ted, self.span_tree.to_mftree(), general.to_mftree())

    def single_marks(self, gold: SpanTree, labeled: bool = True) -> tuple[OpMark, ...]:
        """The script against the single gold ``gold`` (TEDEVAL SINGLE: nothing is discounted)."""
        ted = self.single[1 if labeled else 0]
        return mark_operations(ted, self.span_tree.to_mftree(), gold.to_mftree())


@dataclass(frozen=True)
class SentenceReport(Reported):
    golds: tuple[tuple[str, AnyTree, SpanTree], ...]  # (scheme, gold tree, function tree)
    general: SpanTree
    parses: tuple[ParseView, ...]
    config: ConversionConfig

    def gold(self, scheme: str) -> SpanTree:
        """The function tree of ``scheme``'s gold."""
        for name, _, st in self.golds:
            if name == scheme:
                return st
        raise KeyError(scheme)


def with_discount(script: Sequence[EditOp], discounted: Sequence[EditOp]) -> Iterator[tuple[EditOp, bool]]:
    """Each operation of ``script`` with whether it is discounted (an operation discounted ``k``
    times: its first ``k`` occurrences, as :func:`evalcore.ted.spans.intersect` picks them).  The
    discounted operations come in the script's order, so one pointer walks them; a multiset is the
    fallback otherwise."""
    if not discounted:
        return ((op, False) for op in script)
    out: list[tuple[EditOp, bool]] = []
    j = 0
    for op in script:
        hit = j < len(discounted) and op == discounted[j]
        j += hit
        out.append((op, hit))
    if j == len(discounted):
        return iter(out)
    budget = Counter(discounted)
    marked = []
    for op in script:
        hit = budget[op] > 0
        budget[op] -= hit
        marked.append((op, hit))
    return iter(marked)


def mark_operations(ted: SentenceTed, parse_mf: MFTree, general_mf: MFTree) -> tuple[OpMark, ...]:
    """Place each operation of ``ted.script`` on the parse (del, rel) or the generalized gold (ins)."""
    out: list[OpMark] = []
    for op, is_disc in with_discount(ted.script, ted.discounted):
        side, mf = ("general", general_mf) if op.kind == "ins" else ("parse", parse_mf)
        node = next((i for i in mf.internal() if i != 0 and mf.spans[i] == op.span), -1)
        out.append(OpMark(op, is_disc, side, node))
    return tuple(out)


def _check_words(golds: Sequence[tuple[str, AnyTree]], others: Sequence[tuple[str, AnyTree]]) -> None:
    """Every tree of the sentence over the first gold's words (docs/tedeval.md, "Edit scripts, discount and
    score": TedEval compares trees over one word sequence), else a :class:`MismatchError` naming the first
    word that differs."""
    if not golds:
        return
    ref_name, ref = golds[0]
    ref_words = words_of(ref)
    named = [(f"gold '{s}'", t) for s, t in golds[1:]] + [(f"parse '{n}'", t) for n, t in others]
    for what, tree in named:
        words = words_of(tree)
        if words == ref_words:
            continue
        k, got, want = first_difference(words, ref_words)
        src = tree.source
        raise MismatchError(
            f"{what} has {len(words)} words and gold '{ref_name}' {len(ref_words)}: word {k + 1} is "
            f"'{got}' in the {what.split()[0]} but '{want}' in the gold (the trees of a sentence must "
            "be over the same words)",
            file=src.file if src is not None else None,
            line=(src.token_line(k) if k < len(words) else src.line) if src is not None else None,
        )


def inspect_sentence(
    golds: Sequence[tuple[str, AnyTree]],
    parses: Sequence[tuple[str, str, AnyTree]],
    config: ConversionConfig | None = None,
    *,
    single_against: Mapping[str, str] | None = None,
    label_from: Mapping[str, AnyTree] | None = None,
) -> SentenceReport:
    """``golds``: (scheme, tree) per scheme; ``parses``: (name, scheme, tree).  Trees must be over
    the same words: a :class:`MismatchError` names the first tree and word that differ.

    ``scheme`` is the parse's *own* gold (the one whose script is discounted, MULTIPLE);
    ``single_against`` maps a parse name to the scheme its SINGLE score is taken against
    (default: its own gold) -- e.g. a gold of one scheme read as a parse of another.
    ``label_from`` maps a parse name to a dependency analysis of the same parse whose labels
    are TL-unified into it (EACL 2012 §3.2, docs/tedeval.md, "Multi-function trees (2012 protocol)" ``--label-
    from``).
    """
    config = config or ConversionConfig()
    single_against = single_against or {}
    label_from = label_from or {}
    _check_words(golds, [(name, tree) for name, _, tree in parses] + list(label_from.items()))
    gold_st = [(scheme, tree, to_span_tree(tree, config.for_scheme(scheme))) for scheme, tree in golds]
    own = {scheme: st for scheme, _, st in gold_st}
    general = generalize_all(st for _, _, st in gold_st)
    views = []
    for name, scheme, tree in parses:
        # the parse's own scheme's label map (docs/tedeval.md, "Per-scheme label maps")
        conv = config.for_scheme(scheme)
        st = to_span_tree(tree, conv)
        if name in label_from:
            st = tl_unify(st, to_span_tree(label_from[name], conv))
        g = own[scheme]
        s_scheme = single_against.get(name, scheme)
        s_gold = own[s_scheme]
        single = (
            sentence_ted(st, s_gold, s_gold, labeled=False),
            sentence_ted(st, s_gold, s_gold, labeled=True),
        )
        multiple = (sentence_ted(st, g, general, labeled=False), sentence_ted(st, g, general, labeled=True))
        views.append(ParseView(name, scheme, tree, st, single, multiple, s_scheme))
    return SentenceReport(tuple(gold_st), general, tuple(views), config)


@dataclass(frozen=True, slots=True)
class Neutralized:
    """A relabel that per-scheme label maps neutralized (docs/tedeval.md, "Per-scheme label maps"): on
    ``span`` the parse's label
    ``parse_label`` and the gold's ``gold_label`` differ as written, and both read ``label`` once
    mapped; ``entries`` are the map entries that did it, ``(scheme, OLD, NEW)``."""

    span: frozenset[int]
    parse_label: str
    gold_label: str
    label: str
    entries: tuple[tuple[str, str, str], ...]


def neutralized_relabels(
    parse: AnyTree, parse_scheme: str, gold: AnyTree, gold_scheme: str, config: ConversionConfig
) -> tuple[Neutralized, ...]:
    """The labels of ``parse`` and ``gold`` (its own or single gold) on the same span that differ
    before the maps of ``config`` (``scheme_maps`` and ``label_map``) and agree after them, each
    with the map entries that rewrote it, in span order."""
    raw = replace(config, label_map=LabelMap(), scheme_maps=SchemeLabelMaps(), fold_case=False)
    p_spans, g_spans = to_span_tree(parse, raw), to_span_tree(gold, raw).by_span
    p_map, g_map = config.for_scheme(parse_scheme).label_map, config.for_scheme(gold_scheme).label_map
    out: list[Neutralized] = []
    for span, labels in p_spans.items:
        other = g_spans.get(span, frozenset())
        for pl in sorted(labels - other):
            for gl in sorted(other - labels):
                if p_map.apply(pl) != g_map.apply(gl):
                    continue
                entries = [(parse_scheme, *e) for e in (p_map.entry(pl),) if e is not None]
                entries += [(gold_scheme, *e) for e in (g_map.entry(gl),) if e is not None]
                out.append(Neutralized(span, pl, gl, p_map.apply(pl), tuple(entries)))
    return tuple(out)


def span_words(span: frozenset[int], words: Sequence[str], limit: int | None = 60) -> str:
    """The words of a span in sentence order (``…`` after ``limit`` characters, ``None``: all); a gap
    in a non-contiguous span is shown as ``…``."""
    pos = sorted(span)
    parts: list[str] = []
    for k, i in enumerate(pos):
        if k and i != pos[k - 1] + 1:
            parts.append("…")
        parts.append(words[i] if 0 <= i < len(words) else "?")
    text = " ".join(parts)
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def arc_verdicts(
    gold: DepTree, system: DepTree, config: AttachConfig | None = None
) -> tuple[ArcVerdict, ...]:
    """One verdict per token of ``system`` against ``gold`` (same words), for the dependency drawing:
    ``correct`` (LAS), ``wrong-label`` (UAS but not LAS) or ``wrong-head``, with the gold arc.

    The verdicts are :func:`evalcore.metrics.attachment.judge_tokens`' (docs/attachment.md, "The five
    numbers"), so
    ``config.deprel_base`` decides, as in the scores (by default: ``labels="auto"`` on the gold
    tree's format, :func:`evalcore.formats.detect.dialect_of`), whether ``obl:mod`` vs ``obl:arg`` is a
    wrong label.  Raises ``ValueError`` if the two trees have different numbers of tokens.
    """
    if len(gold.tokens) != len(system.tokens):
        raise ValueError(
            f"cannot compare sentence '{system.label}' ({len(system.tokens)} tokens) "
            f"with gold '{gold.label}' ({len(gold.tokens)} tokens)"
        )
    config = config or attach_config(AttachSettings(), dialect_of(None, gold))
    return _verdicts(gold, judge_tokens(gold, system, config))


def _verdicts(gold: DepTree, judgements: Sequence[TokenJudgement]) -> tuple[ArcVerdict, ...]:
    return tuple(
        ArcVerdict("correct" if j.las else "wrong-label" if j.uas else "wrong-head", g.head, g.deprel)
        for j, g in zip(judgements, gold.tokens, strict=True)
    )


@dataclass(frozen=True)
class SentenceAttachment:
    """One parse against its gold on one sentence: everything the pages show of it (docs/attachment.md, "The
    five numbers").

    ``mismatch``: why the two cannot be compared (their words differ; then nothing else is set);
    ``problem``: why the sentence is not scored in the corpus (not a tree: heads out of range, no
    root, a cycle); it is still judged token by token.  ``excluded``: longer than
    ``config.max_len``, so left out of the corpus numbers; ``counts`` and ``score`` are then those
    of the whole sentence (``max_len`` lifted), as the sentence is shown in full.
    """

    config: AttachConfig
    mismatch: str | None = None
    problem: str | None = None
    excluded: bool = False
    judgements: tuple[TokenJudgement, ...] = ()
    verdicts: tuple[ArcVerdict, ...] = ()
    counts: AttachCounts = field(default_factory=AttachCounts)
    score: AttachScore | None = None

    @property
    def scored(self) -> bool:
        """Compared, and a tree on both sides: the sentence counts in the corpus numbers."""
        return self.mismatch is None and self.problem is None


def sentence_attachment(
    gold: DepTree, system: DepTree, config: AttachConfig | None = None
) -> SentenceAttachment:
    """The attachment view of one sentence: per-token judgements (:func:`judge_tokens`), the
    drawing's verdicts (:func:`arc_verdicts`), counts and scores -- one computation for every page."""
    config = config or attach_config(AttachSettings(), dialect_of(None, gold))
    try:
        check_same_tokens(gold, system)
    except EvalcoreError as exc:
        return SentenceAttachment(config, mismatch=exc.message)
    problem = gold.structure_problem() or system.structure_problem()
    judgements = tuple(judge_tokens(gold, system, config))
    verdicts = _verdicts(gold, judgements)
    counts = sentence_counts(gold, system, config)
    excluded = bool(counts.excluded)
    if excluded:
        counts = sentence_counts(gold, system, replace(config, max_len=None))
    return SentenceAttachment(
        config,
        None,
        problem[1] if problem is not None else None,
        excluded,
        judgements,
        verdicts,
        counts,
        score(counts, config),
    )


def label_matches(wanted: str, label: str) -> bool:
    """``label`` is ``wanted``, or ``wanted`` is its part before ``:`` (``obl`` matches ``obl:mod``)."""
    return label == wanted or label.split(":", 1)[0] == wanted


@dataclass(frozen=True, slots=True)
class OperationFilter:
    """Which operations of an edit script a user looks for: ``status`` ``counted`` / ``discounted``,
    ``kind`` ``ins`` / ``del`` / ``rel`` and a ``label`` involved (the label inserted or deleted, or
    either side of a relabeling; :func:`label_matches`); an empty field takes anything."""

    status: str = ""
    kind: str = ""
    label: str = ""

    @property
    def active(self) -> bool:
        return bool(self.status or self.kind or self.label)

    def operations(self, ted: SentenceTed) -> tuple[EditOp, ...]:
        """The operations of ``ted.script`` that match (a discounted operation is counted once per
        discount, as :func:`mark_operations` places them)."""
        return tuple(
            op
            for op, discounted in with_discount(ted.script, ted.discounted)
            if self._wants(op.kind, (op.label, op.new_label) if op.kind == "rel" else (op.label,), discounted)
        )

    def _wants(self, kind: str, labels: Sequence[str], discounted: bool) -> bool:
        """Whether one operation (its kind, the labels it involves, discounted or not) matches."""
        return (
            (not self.status or self.status == ("discounted" if discounted else "counted"))
            and (not self.kind or self.kind == kind)
            and (not self.label or any(label_matches(self.label, x) for x in labels))
        )

    def matches(self, ted: SentenceTed) -> bool:
        """Whether the script has at least one matching operation (always, when nothing is asked)."""
        return not self.active or bool(self.operations(ted))

    def matches_block(self, ops: Sequence[RawOp]) -> bool:
        """:meth:`matches` for the script of a block of a parse of raw text (docs/rawtext.md): its
        deletions and insertions, each counted or discounted (no relabeling)."""
        return not self.active or any(self._wants(op.kind, (op.label,), op.discounted) for op in ops)
