"""PARSEVAL exactly as evalb computes it (docs/freval.md, "PARSEVAL as evalb computes it"; evalb README
§4–§7).

Bracket extraction follows ``evalb.c`` step by step, driven by an evalb parameter file
(:mod:`evalcore.formats.prm`): reading (evalb's ``read_line``, :func:`evalcore.formats.evalb.read_evalb`),
quote repair (``fix_quote``), the sentence's status, the massage of brackets and the greedy multiset
matching, as docs/freval.md, "How brackets are extracted (evalb's steps)" lists them.  The brackets
that remain keep their tree structure (each one's parent is its nearest remaining ancestor), which
FREVAL needs (:mod:`evalcore.metrics.freval`).  Where we differ from evalb (no fixed limits, a line
evalb cannot read, differing sentence counts, ``MAX_ERROR``): docs/freval.md, "Decisions (where evalb
is silent or where we differ)" and "Inputs evalb's sample does not have".
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import ne
from types import MappingProxyType
from typing import Literal, NamedTuple, TypeVar

from evalcore.display import Tabular
from evalcore.errors import MismatchError
from evalcore.formats.evalb import (
    CountReading,
    EvalbLine,
    EvalbReading,
    QuoteTerm,
    RawBracket,
    evalb_line_reader,
    read_evalb,
)
from evalcore.formats.prm import COLLINS, EvalbParams
from evalcore.formats.ptb import PtbLine
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.metrics.base import make_signature, ratio

__all__ = [
    "MAX_KEPT_PROBLEMS",
    "ROOT_LABELS",
    "STATUS_CODE",
    "Bracket",
    "ParsevalConfig",
    "ParsevalCounts",
    "ParsevalResult",
    "ParsevalScore",
    "SentenceComparison",
    "SentenceRow",
    "Status",
    "compare_corpus",
    "compare_lines",
    "compare_readings",
    "compare_sentence",
    "counts_of",
    "fix_quote",
    "label_fate",
    "massage",
    "paired_lines",
    "parseval_corpus",
    "parseval_lines",
    "parseval_rows",
    "row_of",
    "rows_supported",
    "score",
    "strip_functions",
]

MAX_KEPT_PROBLEMS = 1000
"""Error and skip sentences kept by a streaming run (:func:`parseval_corpus`); later ones are counted
only (a file of millions of empty lines is millions of skip sentences)."""

ROOT_LABELS: tuple[str, ...] = ("ROOT", "TOP")
"""Nonterminal labels :attr:`ParsevalConfig.delete_root` deletes whatever the parameter file says (the
FREVAL paper, footnote 8; Stanford and Berkeley parsers and GUM write ``(ROOT ...)``).  By default
only the parameter file's ``DELETE_LABEL`` are deleted, as evalb does (``COLLINS.prm`` deletes TOP,
not ROOT)."""

Status = Literal["ok", "error", "skip"]
STATUS_CODE: Mapping[str, int] = MappingProxyType({"ok": 0, "error": 1, "skip": 2})
"""evalb's numeric status column: 0 ok, 1 error, 2 skip."""


@dataclass(frozen=True, slots=True)
class ParsevalConfig:
    """Bracket-extraction settings; every one appears in :meth:`signature`."""

    params: EvalbParams = COLLINS
    function_separators: str = "-="
    # opt-in; evalb and FREVAL count the outer '( )' (docs/freval.md, "FREVAL")
    drop_unlabeled_root: bool = False
    collapse_unary: bool = False
    delete_root: bool = False  # opt-in: ROOT and TOP deleted (ROOT_LABELS); default: as the .prm says

    def extraction_items(self) -> list[tuple[str, object]]:
        """The settings that decide which brackets are scored and how they match."""
        p = self.params
        return [
            ("prm", p.signature_value()),
            ("labeled", p.labeled),
            ("strip", self.function_separators or "none"),
            ("outer", "drop" if self.drop_unlabeled_root else "keep"),
            ("root", "delete" if self.delete_root else "prm"),
            ("unary", "collapse" if self.collapse_unary else "keep"),
        ]

    def signature(self) -> str:
        return make_signature("parseval", [*self.extraction_items(), ("cutoff", self.params.cutoff_len)])


# ---------------------------------------------------------------------------
# Quote repair (fix_quote) and massage (massage_data); reading (evalb's read_line) is
# evalcore.formats.evalb.read_evalb


@dataclass(frozen=True, slots=True)
class Bracket:
    """A scored bracket: span ``[start, end)``, label without function tags, parent bracket (-1: root)."""

    start: int
    end: int
    label: str
    parent: int


def strip_functions(label: str, separators: str = "-=") -> str:
    """evalb's ``modify_label``: cut the label at the first separator (even at position 0)."""
    for i, ch in enumerate(label):
        if ch in separators:
            return label[:i]
    return label


def _reinsert(
    words: list[str],
    tags: list[str],
    brackets: list[list[int]],
    parents: Sequence[int],
    quote: QuoteTerm,
    index: int,
) -> None:
    """evalb's ``reinsert_term``: put a deleted quote terminal back at ``index``."""
    words.insert(index, quote.word)
    tags.insert(index, quote.tag)
    for k in range(quote.bracket, len(brackets)):
        brackets[k][0] += 1
        brackets[k][1] += 1
    k = quote.parent
    while k >= 0:  # the brackets open around it: its innermost one and that one's ancestors
        brackets[k][1] += 1
        k = parents[k]


def fix_quote(
    gold: EvalbReading, test: EvalbReading, params: EvalbParams
) -> tuple[EvalbReading, EvalbReading]:
    """evalb 2006's repair of mislabeled quotes (step 2), run only when the word counts differ.

    For each test quote terminal and each gold one at the same word index
    with a different tag: if exactly one of the two tags is deleted, the
    deleted terminal is re-inserted on its side (and the later quote indices
    of that side move by one), as ``fix_quote`` does.
    """
    if not gold.quotes or not test.quotes:
        return gold, test
    delete = frozenset(params.delete_labels)
    sides = []
    for r in (gold, test):
        sides.append(
            (
                list(r.words),
                list(r.tags),
                [[b.start, b.end] for b in r.brackets],
                [q.index for q in r.quotes],
            )
        )
    gw, gt, gb, gidx = sides[0]
    tw, tt, tb, tidx = sides[1]
    gpar = [b.parent for b in gold.brackets]
    tpar = [b.parent for b in test.brackets]
    for i, tq in enumerate(test.quotes):
        ind = tidx[i]
        for j, gq in enumerate(gold.quotes):
            if gidx[j] != ind or gq.tag == tq.tag:
                continue
            if gq.tag in delete and tq.tag not in delete:
                _reinsert(gw, gt, gb, gpar, gq, ind)
                for k in range(j, len(gidx)):
                    gidx[k] += 1
            elif tq.tag in delete and gq.tag not in delete:
                _reinsert(tw, tt, tb, tpar, tq, ind)
                for k in range(i, len(tidx)):
                    tidx[k] += 1

    def rebuild(r: EvalbReading, w: list[str], t: list[str], b: list[list[int]]) -> EvalbReading:
        brackets = tuple(
            RawBracket(se[0], se[1], x.label, x.parent) for se, x in zip(b, r.brackets, strict=True)
        )
        return EvalbReading(tuple(w), tuple(t), brackets, r.quotes, r.length, r.error)

    return rebuild(gold, gw, gt, gb), rebuild(test, tw, tt, tb)


def _deleted_labels(params: EvalbParams, delete_root: bool = False) -> frozenset[str]:
    """Labels ``label_comp``-equal to a ``DELETE_LABEL`` (or to ROOT/TOP, with ``delete_root``)."""
    base = set(params.delete_labels) | (set(ROOT_LABELS) if delete_root else set())
    out = set(base)
    for a, b in params.eq_labels:
        if a in base:
            out.add(b)
        if b in base:
            out.add(a)
    return frozenset(out)


def label_fate(config: ParsevalConfig) -> Callable[[str], str | None]:
    """What the massage makes of a raw label (step 4), the one copy of that rule: the label cut at
    the first function separator, or ``None`` when the bracket is deleted (a ``DELETE_LABEL`` or
    one ``EQ_LABEL``-equal to it; ROOT and TOP with ``delete_root``; the unlabeled outer bracket
    with ``drop_unlabeled_root``)."""
    separators = config.function_separators
    deleted = _deleted_labels(config.params, config.delete_root)
    drop_root = config.drop_unlabeled_root

    def fate(raw: str) -> str | None:
        label = strip_functions(raw, separators)
        if (raw == "" and drop_root) or label in deleted:
            return None
        return label

    return fate


def massage(
    reading: EvalbReading, config: ParsevalConfig, labels: dict[str, str | None] | None = None
) -> tuple[Bracket, ...]:
    """The brackets that are scored (step 4), parents re-linked to the nearest kept ancestor.

    ``labels``: what each raw label becomes (:func:`label_fate`), filled as labels are met; a
    caller comparing many sentences under one ``config`` passes the same dictionary to each call.
    """
    if labels is None:
        labels = {}
    fate: Callable[[str], str | None] | None = None
    nearest: list[int] = []  # per raw bracket: itself (kept index) or its nearest kept ancestor
    out: list[Bracket] = []
    for b in reading.brackets:
        anc = nearest[b.parent] if b.parent >= 0 else -1
        keep = b.start != b.end
        label: str | None = b.label
        if keep:
            label = labels.get(b.label, "(")  # "(": not met yet (no label holds a bracket)
            if label == "(":
                if fate is None:
                    fate = label_fate(config)
                label = labels[b.label] = fate(b.label)
            if label is None:
                keep = False
        if keep and config.collapse_unary and anc >= 0:
            up = out[anc]
            if up.start == b.start and up.end == b.end and up.label == label:
                # NP -> NP over the same words: one node (docs/freval.md, "FREVAL" --collapse-unary)
                keep = False
        if keep:
            assert label is not None
            out.append(Bracket(b.start, b.end, label, anc))
            nearest.append(len(out) - 1)
        else:
            nearest.append(anc)
    return tuple(out)


# ---------------------------------------------------------------------------
# Sentence comparison and counts


@dataclass(frozen=True, slots=True)
class ParsevalCounts:
    """evalb's totals; add with ``+``.  ``gold``/``test``/``matched`` are bracket counts."""

    sentences: int = 0
    errors: int = 0
    skipped: int = 0
    gold: int = 0
    test: int = 0
    matched: int = 0
    complete: int = 0
    crossing: int = 0
    no_crossing: int = 0
    two_or_less: int = 0
    words: int = 0
    correct_tags: int = 0

    @property
    def valid(self) -> int:
        return self.sentences - self.errors - self.skipped

    def __add__(self, other: ParsevalCounts) -> ParsevalCounts:
        return ParsevalCounts(
            self.sentences + other.sentences,
            self.errors + other.errors,
            self.skipped + other.skipped,
            self.gold + other.gold,
            self.test + other.test,
            self.matched + other.matched,
            self.complete + other.complete,
            self.crossing + other.crossing,
            self.no_crossing + other.no_crossing,
            self.two_or_less + other.two_or_less,
            self.words + other.words,
            self.correct_tags + other.correct_tags,
        )


@dataclass(frozen=True, slots=True)
class SentenceComparison:
    """One sentence pair after evalb's steps: status, scored brackets and their matching."""

    index: int  # 1-based sentence number (evalb's ID column)
    gold_line: int
    test_line: int
    status: Status
    message: str  # why error/skip (evalb's message), else ""
    length: int  # evalb's Len. column (gold words, DELETE_LABEL_FOR_LENGTH aside)
    words: int  # gold words after deletion (evalb's wn1)
    gold: tuple[Bracket, ...] = ()
    test: tuple[Bracket, ...] = ()
    gold_partner: tuple[int, ...] = ()  # index of the matched test bracket, -1 if none
    test_partner: tuple[int, ...] = ()
    crossing: int = 0
    correct_tags: int = 0
    scored: bool = False  # steps 4-5 ran: every "ok" sentence, and an error one evalb still scores
    evalb_errors: int = 0  # evalb's error messages on this sentence (MAX_ERROR counts them)

    @property
    def matched(self) -> int:
        return sum(1 for p in self.gold_partner if p >= 0)

    def counts(self) -> ParsevalCounts:
        if self.status == "error":
            return ParsevalCounts(sentences=1, errors=1)
        if self.status == "skip":
            return ParsevalCounts(sentences=1, skipped=1)
        m = self.matched
        g, t = len(self.gold), len(self.test)
        return ParsevalCounts(
            sentences=1,
            gold=g,
            test=t,
            matched=m,
            complete=int(g == t == m),
            crossing=self.crossing,
            no_crossing=int(self.crossing == 0),
            two_or_less=int(self.crossing <= 2),
            words=self.words,
            correct_tags=self.correct_tags,
        )


def _match(
    gold: Sequence[Bracket], test: Sequence[Bracket], params: EvalbParams
) -> tuple[list[int], list[int]]:
    """evalb's greedy multiset matching: gold in order, each takes the first free equal test bracket.

    Free test brackets wait in queues by span (and label, when labeled), in test order; a gold
    bracket takes the first of the queues of the labels ``EQ_LABEL``-equal to its own.  Each queue
    is only ever taken from its front, so this is evalb's choice in O(brackets) time, whatever
    the number of brackets over one span (a unary chain of 100,000 brackets over one word).
    """
    labeled = params.labeled
    queues: dict[tuple[int, int, str], deque[int]] = {}
    for j, t in enumerate(test):
        queues.setdefault((t.start, t.end, t.label if labeled else ""), deque()).append(j)
    equal: dict[str, set[str]] = {}
    if labeled:
        for a, b in params.eq_labels:
            equal.setdefault(a, {a}).add(b)
            equal.setdefault(b, {b}).add(a)
    gp = [-1] * len(gold)
    tp = [-1] * len(test)
    for i, g in enumerate(gold):
        labels = equal.get(g.label, (g.label,)) if labeled else ("",)
        best: deque[int] | None = None
        for label in labels:
            q = queues.get((g.start, g.end, label))
            if q and (best is None or q[0] < best[0]):
                best = q
        if best is not None:
            j = best.popleft()
            gp[i] = j
            tp[j] = i
    return gp, tp


_SLICED_CROSSING = 256
"""Up to this many word positions, crossing brackets are found with ``min``/``max`` over slices."""


def _crossing(gold: Sequence[Bracket], test: Sequence[Bracket]) -> int:
    """Number of test brackets crossing at least one gold bracket (:func:`_crossing_spans`).

    A bracket a line left open (end -1, evalb's) crosses nothing: evalb's test ``gs < s < ge < e``
    or ``s < gs < e < ge`` fails whichever side it is on.  Such a gold bracket is left out here (it
    may start after every end, past the tables); such a test bracket has no position inside it,
    which :func:`_crossing_spans` skips."""
    return _crossing_spans(
        [(g.start, g.end, "") for g in gold if g.end >= 0], [(t.start, t.end, "") for t in test]
    )


def _crossing_spans(gold: Sequence[tuple[int, int, str]], test: Sequence[tuple[int, int, str]]) -> int:
    """Number of test brackets crossing at least one gold bracket (evalb counts on the test side).

    Test ``[s, e)`` crosses gold ``[gs, ge)`` when ``gs < s < ge < e`` or ``s < gs < e < ge``
    (:func:`_crossing_pairs`, the definition): when some gold bracket ending strictly inside
    ``(s, e)`` starts before ``s``, or some gold bracket starting strictly inside ends after
    ``e``.  With the smallest start of the gold brackets ending at each position and the largest
    end of those starting there, that is a ``min`` and a ``max`` over the positions inside: over
    a slice for sentences of up to :data:`_SLICED_CROSSING` positions, else with range-minimum
    and range-maximum tables, O((g + t) log n).
    """
    n = max([b[1] for b in gold] + [b[1] for b in test] + [0]) + 1
    big = n + 1
    min_start = [big] * n  # by end position: the smallest start of a gold bracket ending there
    max_end = [-1] * n  # by start position: the largest end of a gold bracket starting there
    for gs, ge, _ in gold:
        if gs < min_start[ge]:
            min_start[ge] = gs
        if ge > max_end[gs]:
            max_end[gs] = ge
    count = 0
    if n <= _SLICED_CROSSING:
        for s, e, _ in test:
            if e - s > 1 and (min(min_start[s + 1 : e]) < s or max(max_end[s + 1 : e]) > e):
                count += 1
        return count
    lows, highs = _sparse(min_start, min), _sparse(max_end, max)
    for s, e, _ in test:
        lo, hi = s + 1, e - 1  # positions strictly inside
        if lo > hi:
            continue
        if _query(lows, lo, hi, min) < s or _query(highs, lo, hi, max) > e:
            count += 1
    return count


def _crossing_few(gold: Sequence[tuple[int, int, str]], test: Iterable[tuple[int, int, str]], n: int) -> int:
    """:func:`_crossing_spans` for a sentence of ``n`` positions, by the definition
    (:func:`_crossing_pairs`) up to :data:`_SLICED_CROSSING` positions: the counting mode's test
    brackets that are not gold brackets are few, and a plain loop over the gold brackets for each
    of them costs less than the tables; longer sentences go to :func:`_crossing_spans`."""
    if n > _SLICED_CROSSING:
        return _crossing_spans(gold, list(test))
    count = 0
    for s, e, _ in test:
        for gs, ge, _ in gold:
            if (gs < s < ge < e) or (s < gs < e < ge):
                count += 1
                break
    return count


def _crossing_pairs(gold: Sequence[Bracket], test: Sequence[Bracket]) -> int:
    spans = [(g.start, g.end) for g in gold]
    n = 0
    for t in test:
        s, e = t.start, t.end
        for gs, ge in spans:
            if (gs < s < ge < e) or (s < gs < e < ge):
                n += 1
                break
    return n


def _sparse(values: list[int], pick: Callable[[int, int], int]) -> list[list[int]]:
    """Sparse table: ``table[k][i]`` = ``pick`` over ``values[i : i + 2**k]``."""
    table = [values]
    width = 1
    while 2 * width <= len(values):
        prev = table[-1]
        table.append([pick(prev[i], prev[i + width]) for i in range(len(prev) - width)])
        width *= 2
    return table


def _query(table: list[list[int]], lo: int, hi: int, pick: Callable[[int, int], int]) -> int:
    """``pick`` over ``values[lo : hi + 1]`` (``lo <= hi``) in O(1)."""
    k = (hi - lo + 1).bit_length() - 1
    return pick(table[k][lo], table[k][hi - (1 << k) + 1])


def compare_sentence(gold: PtbLine, test: PtbLine, config: ParsevalConfig, index: int) -> SentenceComparison:
    """Steps 1–5 for one sentence pair."""
    params = config.params
    g = EvalbLine(gold.line, read_evalb(gold.trees, params, gold.error, gold.unclosed), gold.file)
    t = EvalbLine(test.line, read_evalb(test.trees, params, test.error, test.unclosed), test.file)
    return compare_readings(g, t, config, index)


def compare_readings(
    gold: EvalbLine,
    test: EvalbLine,
    config: ParsevalConfig,
    index: int,
    labels: dict[str, str | None] | None = None,
) -> SentenceComparison:
    """Steps 2–5 for one sentence pair read by evalb's step 1 (:mod:`evalcore.formats.evalb`);
    ``labels`` as in :func:`massage`."""
    params = config.params
    g, t = gold.reading, test.reading
    # evalb's messages in its order: reading the gold line, the test line, then comparing them
    said = g.read_errors + t.read_errors

    def bad(status: Status, message: str, words: int) -> SentenceComparison:
        calls = len(said) + (status == "error")  # a skip is not one of evalb's errors
        return SentenceComparison(
            index,
            gold.line,
            test.line,
            status,
            "; ".join([*said, message]),
            g.length,
            words,
            evalb_errors=calls,
        )

    if g.error or t.error:
        which = "gold" if g.error else "test"
        return bad("error", f"cannot read {which} line: {g.error or t.error}", len(g.words))
    if not t.words:
        return bad("skip", "no words in the test sentence", len(g.words))
    if len(g.words) != len(t.words):
        g, t = fix_quote(g, t, params)
        if len(g.words) != len(t.words):
            return bad("error", f"Length unmatch ({len(g.words)}|{len(t.words)})", len(g.words))
    if g.words != t.words:
        for a, b in zip(g.words, t.words, strict=True):
            if a != b and not params.word_eq(a, b):
                return bad("error", f"Words unmatch ({a}|{b})", len(g.words))
    gb = massage(g, config, labels)
    tb = massage(t, config, labels)
    gp, tp = _match(gb, tb, params)
    correct = sum(1 for a, b in zip(g.tags, t.tags, strict=True) if a == b or params.label_eq(a, b))
    return SentenceComparison(
        index,
        gold.line,
        test.line,
        "error" if said else "ok",  # a line read with evalb's errors: scored, left out of the totals
        "; ".join(said),
        g.length,
        len(g.words),
        gb,
        tb,
        tuple(gp),
        tuple(tp),
        _crossing(gb, tb),
        correct,
        True,
        len(said),
    )


_Line = TypeVar("_Line", PtbLine, EvalbLine)


def paired_lines(gold: Iterable[_Line], test: Iterable[_Line]) -> Iterator[tuple[_Line, _Line]]:
    """Zip gold and test sentences; differing counts are a :class:`MismatchError` (docs/formats.md, "Pairing
    files: the same sentences, the same words")."""
    gi, ti = iter(gold), iter(test)
    n = 0
    while True:
        g = next(gi, None)
        t = next(ti, None)
        if g is None and t is None:
            return
        if g is None or t is None:
            extra, which, other = (t, "test", "gold") if g is None else (g, "gold", "test")
            assert extra is not None
            raise MismatchError(
                f"{which} has more sentences than {other}: {other} ends after {n} sentences",
                file=extra.file or None,
                line=extra.line,
            )
        n += 1
        yield g, t


# ---------------------------------------------------------------------------
# Scores and the corpus


@dataclass(frozen=True, slots=True)
class ParsevalScore:
    """Fractions in [0, 1] (evalb prints them x100); ``counts`` are the summed evalb totals."""

    recall: float
    precision: float
    f1: float
    complete_match: float
    average_crossing: float
    no_crossing: float
    two_or_less_crossing: float
    tagging_accuracy: float
    counts: ParsevalCounts
    signature: str


def score(counts: ParsevalCounts, signature: str = "") -> ParsevalScore:
    """Scores from summed counts (evalb's ``print_total``)."""
    r = ratio(counts.matched, counts.gold)
    p = ratio(counts.matched, counts.test)
    valid = counts.valid
    return ParsevalScore(
        recall=r,
        precision=p,
        f1=ratio(2 * r * p, r + p),
        complete_match=ratio(counts.complete, valid),
        average_crossing=ratio(counts.crossing, valid),
        no_crossing=ratio(counts.no_crossing, valid),
        two_or_less_crossing=ratio(counts.two_or_less, valid),
        tagging_accuracy=ratio(counts.correct_tags, counts.words),
        counts=counts,
        signature=signature,
    )


@dataclass(frozen=True)
class ParsevalResult(Tabular):
    """All sentences, the ``-- All --`` score and the ``-- len<=CUTOFF --`` score.

    ``sentences`` holds every sentence, or only the error and skip sentences when
    :func:`parseval_corpus` was asked not to keep the others (``keep_sentences=False``);
    ``rows``, when kept, every sentence's numbers (the lines of evalb's report).
    """

    sentences: tuple[SentenceComparison, ...]
    all: ParsevalScore
    cutoff: ParsevalScore
    config: ParsevalConfig
    rows: tuple[SentenceRow, ...] = ()

    @property
    def signature(self) -> str:
        return self.all.signature


def compare_corpus(
    gold: Iterable[PtbLine], test: Iterable[PtbLine], config: ParsevalConfig = ParsevalConfig()
) -> Iterator[SentenceComparison]:
    """Compare sentence pairs in order, stopping as evalb does after too many errors
    (:func:`compare_lines` of the sentences read by :func:`~evalcore.formats.evalb.read_evalb`)."""
    return compare_lines(_readings(gold, config.params), _readings(test, config.params), config)


def _readings(lines: Iterable[PtbLine], params: EvalbParams) -> Iterator[EvalbLine]:
    for x in lines:
        yield EvalbLine(x.line, read_evalb(x.trees, params, x.error, x.unclosed), x.file)


def _too_many_errors(
    errors: int, comp: SentenceComparison, limit: int, file: str, line: int
) -> MismatchError:
    """evalb's stop at its (``MAX_ERROR`` + 2)-th error message, naming the sentence."""
    return MismatchError(
        f"{errors} errors (last: {comp.message}); evalb stops here because "
        f"MAX_ERROR is {limit}: raise it in the parameter file or with --max-error",
        file=file or None,
        line=line,
    )


def compare_lines(
    gold: Iterable[EvalbLine], test: Iterable[EvalbLine], config: ParsevalConfig = ParsevalConfig()
) -> Iterator[SentenceComparison]:
    """Compare read sentence pairs in order, stopping as evalb does after too many errors.

    evalb exits when its error counter, tested as ``count++ > MAX_ERROR``,
    trips: at the (MAX_ERROR + 2)-th error message (one per error sentence, two on an unbalanced
    line of another length, ...).  We raise :class:`MismatchError` at the same sentence, naming it.
    """
    errors = 0
    limit = config.params.max_error
    labels: dict[str, str | None] = {}
    for index, (g, t) in enumerate(paired_lines(gold, test), start=1):
        comp = compare_readings(g, t, config, index, labels)
        if comp.evalb_errors:
            errors += comp.evalb_errors
            if errors > limit + 1:
                raise _too_many_errors(errors, comp, limit, g.file, g.line)
        yield comp


def parseval_corpus(
    gold: Iterable[PtbLine],
    test: Iterable[PtbLine],
    config: ParsevalConfig = ParsevalConfig(),
    *,
    keep_sentences: bool = True,
    on_sentence: Callable[[SentenceComparison], None] | None = None,
) -> ParsevalResult:
    """evalb over two files' sentences (from :func:`evalcore.formats.ptb.read_ptb_sentences`).

    Streams: with ``keep_sentences=False`` only the first :data:`MAX_KEPT_PROBLEMS` error and
    skip sentences are kept (they hold no brackets; the others are counted), so memory does
    not grow with the corpus; ``on_sentence`` sees every sentence as it is compared (the
    command line formats evalb's per-sentence lines with it).
    """
    params = config.params
    return parseval_lines(
        _readings(gold, params),
        _readings(test, params),
        config,
        keep_sentences=keep_sentences,
        on_sentence=on_sentence,
    )


def parseval_lines(
    gold: Iterable[EvalbLine],
    test: Iterable[EvalbLine],
    config: ParsevalConfig = ParsevalConfig(),
    *,
    keep_sentences: bool = True,
    on_sentence: Callable[[SentenceComparison], None] | None = None,
) -> ParsevalResult:
    """:func:`parseval_corpus` of sentences already read (e.g. by
    :func:`evalcore.formats.evalb.read_evalb_lines`, the command line's reader)."""
    sig = config.signature()
    all_counts = ParsevalCounts()
    cut_counts = ParsevalCounts()
    kept: list[SentenceComparison] = []
    for s in compare_lines(gold, test, config):
        c = s.counts()
        all_counts = all_counts + c
        if s.length <= config.params.cutoff_len:
            cut_counts = cut_counts + c
        if keep_sentences or (s.status != "ok" and len(kept) < MAX_KEPT_PROBLEMS):
            kept.append(s)
        if on_sentence is not None:
            on_sentence(s)
    return ParsevalResult(tuple(kept), score(all_counts, sig), score(cut_counts, sig), config)


# ---------------------------------------------------------------------------
# The count-only path of ``evalcore parseval``: evalb's counts without building trees


class SentenceRow(NamedTuple):
    """One line of evalb's report as numbers, as evalb (2006) prints them (brackets, crossing,
    words and tags all 0 on an error or skip line it does not score), and the gold words (evalb's
    ``wn1``, which the 1997 layout prints on every line)."""

    number: int  # evalb's ID column (1-based)
    length: int
    status: int  # STATUS_CODE
    matched: int
    gold: int
    test: int
    crossing: int
    words: int
    correct_tags: int
    gold_words: int


def row_of(s: SentenceComparison) -> SentenceRow:
    """The :class:`SentenceRow` of a compared sentence (0 brackets, crossing, words and tags unless
    scored: ok, or an error sentence evalb scores all the same)."""
    if not (s.scored or s.status == "ok"):
        return SentenceRow(s.index, s.length, STATUS_CODE[s.status], 0, 0, 0, 0, 0, 0, s.words)
    return SentenceRow(
        s.index,
        s.length,
        STATUS_CODE[s.status],
        s.matched,
        len(s.gold),
        len(s.test),
        s.crossing,
        s.words,
        s.correct_tags,
        s.words,
    )


def counts_of(rows: Sequence[SentenceRow]) -> ParsevalCounts:
    """evalb's totals of report rows, as :meth:`SentenceComparison.counts` sums them: every row is
    a sentence, an error or a skip by its status; brackets, crossing and tags count on ok rows
    only (an error sentence evalb scores shows its numbers but is left out of the totals)."""
    ok = [r for r in rows if r.status == 0]
    crossing = [r.crossing for r in ok]
    return ParsevalCounts(
        sentences=len(rows),
        errors=sum(1 for r in rows if r.status == STATUS_CODE["error"]),
        skipped=sum(1 for r in rows if r.status == STATUS_CODE["skip"]),
        gold=sum(r.gold for r in ok),
        test=sum(r.test for r in ok),
        matched=sum(r.matched for r in ok),
        complete=sum(1 for r in ok if r.gold == r.test == r.matched),
        crossing=sum(crossing),
        no_crossing=crossing.count(0),
        two_or_less=sum(1 for c in crossing if c <= 2),
        words=sum(r.words for r in ok),
        correct_tags=sum(r.correct_tags for r in ok),
    )


def _label_classes(config: ParsevalConfig) -> dict[str, str] | None:
    """Each ``EQ_LABEL`` label's class representative, or ``None`` when some label is equal to two
    labels that are not equal to each other (then matching is not a multiset intersection)."""
    equal: dict[str, set[str]] = {}
    for a, b in config.params.eq_labels:
        equal.setdefault(a, {a}).add(b)
        equal.setdefault(b, {b}).add(a)
    for same in equal.values():
        if any(equal[x] != same for x in same):
            return None
    return {label: min(same) for label, same in equal.items()}


def rows_supported(config: ParsevalConfig) -> bool:
    """Whether :func:`parseval_rows` computes ``config`` (not with ``collapse_unary``, which needs
    the brackets' parents, nor with an ``EQ_LABEL`` relation that is not an equivalence)."""
    return not config.collapse_unary and _label_classes(config) is not None


def _scorer(config: ParsevalConfig, classes: Mapping[str, str]) -> Callable[[str], str | None]:
    """What a raw label becomes in :func:`massage` (``None``: deleted), then its ``EQ_LABEL`` class
    (``""`` for every label when unlabeled)."""
    labeled = config.params.labeled
    fate = label_fate(config)

    def scored(raw: str) -> str | None:
        label = fate(raw)
        if label is None:
            return None
        return classes.get(label, label) if labeled else ""

    return scored


def _pair_counter(params: EvalbParams) -> Callable[[int, CountReading, CountReading], SentenceRow | None]:
    """``count(index, gold, test)``: the row of an ok sentence pair read in the counting mode;
    ``None`` when the test side has no words or the words differ (the pair is then compared by
    :func:`compare_readings`)."""
    # EQ_LABEL: the pairs of different tags that are equal (either order; evalb's label_comp)
    equal_tags = frozenset((a, b) for x, y in params.eq_labels for a, b in ((x, y), (y, x)) if a != b)
    word_eq = params.word_eq

    def count(index: int, gr: CountReading, tr: CountReading) -> SentenceRow | None:
        gp, tp = gr[0], tr[0]  # "TAG word"
        words = len(gp)
        if not tp or len(tp) != words:
            return None
        correct = words
        if gp != tp:  # split tag and word where the two sides differ
            for g, t in compress(zip(gp, tp, strict=True), map(ne, gp, tp)):
                gtag, _, gword = g.partition(" ")
                ttag, _, tword = t.partition(" ")
                if gword != tword and not word_eq(gword, tword):
                    return None
                if gtag != ttag and (gtag, ttag) not in equal_tags:  # EQ_LABEL: tags may be equal
                    correct -= 1
        gk, tk = gr[1], tr[1]
        ng, nt = len(gk), len(tk)
        if gk == tk:
            matched = ng
            cross = 0
        else:
            gs = set(gk)
            if len(gs) == ng and len(ts := set(tk)) == nt:
                others: Collection[tuple[int, int, str]] = ts - gs
                matched = nt - len(others)
            else:
                free = Counter(tk)
                free.subtract(gk)
                matched = nt - sum(v for v in free.values() if v > 0)
                others = [k for k in tk if k not in gs]
            # only a test bracket that is not a gold bracket can cross one (gold brackets nest)
            cross = _crossing_few(gk, others, words + 1) if others else 0
        return SentenceRow(index, gr[2], 0, matched, ng, nt, cross, words, correct, words)

    return count


def parseval_rows(
    gold: Iterable[tuple[int, str]],
    test: Iterable[tuple[int, str]],
    config: ParsevalConfig = ParsevalConfig(),
    *,
    names: tuple[str, str] = ("", ""),
    limits: Limits = DEFAULT_LIMITS,
    on_row: Callable[[SentenceRow], None] | None = None,
) -> ParsevalResult:
    """:func:`parseval_lines` of the *line* layout's ``(line number, text)`` pairs
    (:func:`evalcore.formats._io.iter_lines`), counting only, as ``keep_sentences=False`` does.

    A sentence pair whose lines :func:`~evalcore.formats.evalb.evalb_line_reader` reads in its
    counting mode, with the same words on both sides, is counted from its brackets as
    ``(start, end, label)`` tuples: labels are replaced by their ``EQ_LABEL`` class, so evalb's
    greedy matching is the multiset intersection, and only test brackets that are not gold
    brackets can cross one (gold brackets nest).  Any other pair (errors, skips, quote repair,
    different words) is compared by :func:`compare_readings` on the reader's full readings, so
    statuses, messages, ``MAX_ERROR`` and limits are the same.  ``on_row`` sees every sentence.
    Requires :func:`rows_supported`.
    """
    classes = _label_classes(config)
    if config.collapse_unary or classes is None:
        raise ValueError("parseval_rows: collapse_unary or a non-transitive EQ_LABEL (rows_supported)")
    params = config.params
    count_pair = _pair_counter(params)
    gname, tname = names
    read = evalb_line_reader(params, limits, count=_scorer(config, classes))
    full = evalb_line_reader(params, limits)
    labels: dict[str, str | None] = {}
    limit = params.max_error
    cutoff = params.cutoff_len
    kept: list[SentenceComparison] = []
    totals = ParsevalCounts()  # all sentences
    cut = ParsevalCounts()  # those within the cutoff
    every: list[SentenceRow] = []  # the rows of the last sentences, summed every 1,024
    errors = 0
    index = 0
    ti = iter(test)
    for gline, gtext in gold:
        gr = read(gtext)
        gfull = full(gtext, gname, gline) if gr is None else None  # a limit is raised here
        nxt = next(ti, None)
        if nxt is None:
            raise MismatchError(
                f"gold has more sentences than test: test ends after {index} sentences",
                file=gname or None,
                line=gline,
            )
        index += 1
        tline, ttext = nxt
        tr = gr if ttext == gtext else read(ttext)  # a sentence parsed as the gold one: read once
        row = count_pair(index, gr, tr) if gr is not None and tr is not None else None
        if row is None:
            g = EvalbLine(gline, gfull or full(gtext, gname, gline), gname)
            t = EvalbLine(tline, full(ttext, tname, tline), tname)
            comp = compare_readings(g, t, config, index, labels)
            if comp.evalb_errors:
                errors += comp.evalb_errors
                if errors > limit + 1:
                    raise _too_many_errors(errors, comp, limit, gname, gline)
            if comp.status != "ok" and len(kept) < MAX_KEPT_PROBLEMS:
                kept.append(comp)
            row = row_of(comp)
        every.append(row)
        if len(every) == 1024:
            totals, cut = _summed(totals, cut, every, cutoff)
        if on_row is not None:
            on_row(row)
    extra = next(ti, None)
    if extra is not None:
        if read(extra[1]) is None:
            full(extra[1], tname, extra[0])  # read as the tree path reads it: a limit first
        raise MismatchError(
            f"test has more sentences than gold: gold ends after {index} sentences",
            file=tname or None,
            line=extra[0],
        )
    totals, cut = _summed(totals, cut, every, cutoff)
    sig = config.signature()
    return ParsevalResult(tuple(kept), score(totals, sig), score(cut, sig), config)


def _summed(
    totals: ParsevalCounts, cut: ParsevalCounts, rows: list[SentenceRow], cutoff: int
) -> tuple[ParsevalCounts, ParsevalCounts]:
    """``totals`` and ``cut`` plus the counts of ``rows`` (all, and those of length up to
    ``cutoff``); ``rows`` is emptied."""
    totals = totals + counts_of(rows)
    cut = cut + counts_of([r for r in rows if r.length <= cutoff])
    rows.clear()
    return totals, cut


# ---------------------------------------------------------------------------
# evalb's report layout
