"""The CoNLL 2018 shared-task evaluation (Zeman et al. 2018, §2; the official ``conll18_ud_eval.py``).

The character alignment of the whole document, the 13 rows and the errors are those of
docs/attachment.md, "A system of another tokenization (the CoNLL 2018 alignment)";
``deprel_base=False`` compares DEPRELs as written, as ``evalcore attach`` does by default.

Everything is computed as additive counts (:class:`Conll18Counts`) then
scored (:func:`score`).  Both files are streamed in document order: the
alignment keeps a window of the words not yet decided, so memory does not grow
with the document.  Inputs the scorer refuses raise a typed error with the
scorer's message, the file, the line and the sentence; when both files are
wrong, the gold file's error is the one raised (the scorer reads it first).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from functools import partial
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from evalcore.errors import EvalcoreError, LimitError, MismatchError, TreeStructureError
from evalcore.formats._io import InputSource, iter_lines, shown, source_name
from evalcore.formats.columns import Columns, comment_ids, form_chars, parse_line, refused
from evalcore.gcpause import paused_gc
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.metrics.base import add_fields, make_signature, ratio

__all__ = [
    "CONTENT_DEPRELS",
    "FUNCTIONAL_DEPRELS",
    "METRICS",
    "UNIVERSAL_FEATURES",
    "AlignedPair",
    "AlignedSentence",
    "AlignedWord",
    "Alignment",
    "Conll18Counts",
    "Conll18Result",
    "Measure",
    "MetricScore",
    "align_words",
    "evaluate_conll18",
    "lcs_pairs",
    "multiword_span",
    "ratio_pairs",
    "score",
    "signature",
]

CONTENT_DEPRELS = frozenset(
    {
        "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative",
        "expl", "dislocated", "advcl", "advmod", "discourse", "nmod", "appos",
        "nummod", "acl", "amod", "conj", "fixed", "flat", "compound", "list",
        "parataxis", "orphan", "goeswith", "reparandum", "root", "dep",
    }
)  # fmt: skip
"""Relations of content words (the scorer's ``CONTENT_DEPRELS``; CLAS, MLAS, BLEX count these)."""

FUNCTIONAL_DEPRELS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
"""Relations of the functional children that MLAS checks with their head."""

UNIVERSAL_FEATURES = frozenset(
    {
        "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender",
        "Animacy", "Number", "Case", "Definite", "Degree", "VerbForm", "Mood",
        "Tense", "Aspect", "Voice", "Evident", "Polarity", "Person", "Polite",
    }
)  # fmt: skip
"""The features UFeats, AllTags and MLAS compare (all others are dropped before comparing)."""

METRICS = (
    "Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags",
    "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX",
)  # fmt: skip
"""The scorer's rows, in its order."""


def signature(deprel_base: bool = True, where: str | None = None) -> str:
    """The shared task's settings; ``deprel:full`` when DEPRELs are compared as written
    (``evalcore attach``'s default text/JSON/CSV output of an aligned system); ``where:HASH`` when
    the rows of words are restricted to a construction (docs/patterns.md, "On a parse of raw text")."""
    return make_signature(
        "conll18",
        [
            ("align", "chars"),
            ("deprel", "base" if deprel_base else "full"),
            ("feats", "universal"),
            ("punct", True),
            ("avg", "micro"),
            *([("where", where)] if where is not None else []),
        ],
    )


@dataclass(frozen=True, slots=True)
class Conll18Counts:
    """Everything the scores need; adds with ``+`` (documents, or gold sentences)."""

    tokens_gold: int = 0
    tokens_system: int = 0
    tokens_correct: int = 0
    sentences_gold: int = 0
    sentences_system: int = 0
    sentences_correct: int = 0
    words_gold: int = 0
    words_system: int = 0
    words_aligned: int = 0
    content_gold: int = 0  # words with a content relation (CLAS/MLAS/BLEX totals)
    content_system: int = 0
    content_aligned: int = 0  # aligned pairs whose gold word has a content relation
    upos: int = 0  # correct counts, over aligned pairs
    xpos: int = 0
    ufeats: int = 0
    alltags: int = 0
    lemmas: int = 0
    uas: int = 0
    las: int = 0
    clas: int = 0
    mlas: int = 0
    blex: int = 0

    def __add__(self, other: Conll18Counts) -> Conll18Counts:
        return Conll18Counts(**add_fields(self, other))


_FIELDS = tuple(f.name for f in fields(Conll18Counts))
_IDX = {name: i for i, name in enumerate(_FIELDS)}
_WORDS_ALIGNED, _CONTENT_ALIGNED, _UPOS = _IDX["words_aligned"], _IDX["content_aligned"], _IDX["upos"]
_WORDS_SYSTEM, _CONTENT_SYSTEM, _TOKENS_SYSTEM = (
    _IDX[f] for f in ("words_system", "content_system", "tokens_system")
)
# the hot loop indexes the correct counts from _UPOS, in the field order above:
# upos xpos ufeats alltags lemmas uas las clas mlas blex


@dataclass(frozen=True, slots=True)
class MetricScore:
    """One row of the scorer's table: counts (as ``-c`` prints them) and scores in [0, 1].

    ``aligned_accuracy`` is ``None`` for Tokens, Sentences and Words (the scorer leaves it blank).
    """

    metric: str
    correct: int
    gold: int
    system: int
    aligned: int | None
    precision: float
    recall: float
    f1: float
    aligned_accuracy: float | None


def _row(metric: str, correct: int, gold: int, system: int, aligned: int | None) -> MetricScore:
    return MetricScore(
        metric,
        correct,
        gold,
        system,
        aligned,
        ratio(correct, system),
        ratio(correct, gold),
        ratio(2 * correct, gold + system),
        None if aligned is None else ratio(correct, aligned),
    )


def score(counts: Conll18Counts) -> tuple[MetricScore, ...]:
    """The 13 rows of :data:`METRICS` (the scorer's ``Score``)."""
    c = counts
    words = (c.words_gold, c.words_system, c.words_aligned)
    content = (c.content_gold, c.content_system, c.content_aligned)
    return (
        _row("Tokens", c.tokens_correct, c.tokens_gold, c.tokens_system, None),
        _row("Sentences", c.sentences_correct, c.sentences_gold, c.sentences_system, None),
        _row("Words", c.words_aligned, c.words_gold, c.words_system, None),
        _row("UPOS", c.upos, *words),
        _row("XPOS", c.xpos, *words),
        _row("UFeats", c.ufeats, *words),
        _row("AllTags", c.alltags, *words),
        _row("Lemmas", c.lemmas, *words),
        _row("UAS", c.uas, *words),
        _row("LAS", c.las, *words),
        _row("CLAS", c.clas, *content),
        _row("MLAS", c.mlas, *content),
        _row("BLEX", c.blex, *content),
    )


@dataclass(frozen=True, slots=True)
class Conll18Result:
    """Counts of the document, its scores, the signature, and (if asked) counts per gold sentence.

    A per-sentence count holds the gold words and tokens of that sentence and the system words
    and tokens that start inside its characters, so the per-sentence counts add up to ``counts``.
    """

    counts: Conll18Counts
    scores: tuple[MetricScore, ...]
    signature: str
    sentences: tuple[Conll18Counts, ...] = ()

    def get(self, metric: str) -> MetricScore:
        return self.scores[METRICS.index(metric)]


@dataclass(frozen=True, slots=True)
class AlignedWord:
    """One word of the gold or the system file, as written, and its place in the alignment.

    ``index`` is its position among its file's words (0-based, document order) and ``aligned`` the
    ``index`` of the other file's word aligned with it (``None``: not aligned); ``sentence`` is its
    own sentence in its own file (0-based) and ``id``/``head`` its ID and HEAD there (0: the root);
    ``start``/``end`` are its token's characters in the document's text (a multiword token's for
    each of its words)."""

    index: int
    sentence: int
    id: int
    head: int
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str
    deprel: str
    start: int
    end: int
    multi: bool
    line: int
    aligned: int | None


@dataclass(frozen=True, slots=True)
class AlignedPair:
    """The scorer's verdicts on one aligned pair (``gold`` and ``system``: the words' ``index``).

    ``uas``: the system head's aligned word is the gold head (both roots, or both heads aligned
    together); ``label``: the DEPRELs compared as the scorer compares them; ``content``: the gold
    word's relation is a content one (CLAS, MLAS, BLEX count only those); ``ned``: the system head
    is the gold head, the gold head's head, or a gold child of the word
    (docs/attachment.md, "Undirected and NED, on the NED paper's Figure 3").
    """

    gold: int
    system: int
    upos: bool
    xpos: bool
    ufeats: bool
    alltags: bool
    lemma: bool
    uas: bool
    las: bool
    label: bool
    content: bool
    clas: bool
    mlas: bool
    blex: bool
    ned: bool


@dataclass(frozen=True, slots=True)
class AlignedSentence:
    """One gold sentence: its words, the system words whose first character falls inside it, the
    aligned pairs of its gold words, and its counts (which add up to the document's)."""

    index: int
    sent_id: str | None
    start: int
    end: int
    gold: tuple[AlignedWord, ...]
    system: tuple[AlignedWord, ...]
    pairs: tuple[AlignedPair, ...]
    counts: Conll18Counts


@dataclass(frozen=True, slots=True)
class Alignment:
    """The character alignment of a system to its gold, sentence by gold sentence, and the scores
    (``result.sentences`` holds each sentence's counts)."""

    sentences: tuple[AlignedSentence, ...]
    result: Conll18Result


Measure = Literal["f1", "precision", "recall", "aligned_accuracy"]

_TOTALS: dict[str, tuple[str, str, str]] = {  # metric -> (gold, system, aligned) fields
    "Tokens": ("tokens_gold", "tokens_system", ""),
    "Sentences": ("sentences_gold", "sentences_system", ""),
    "Words": ("words_gold", "words_system", ""),
    **{m: ("words_gold", "words_system", "words_aligned") for m in METRICS[3:10]},
    **{m: ("content_gold", "content_system", "content_aligned") for m in METRICS[10:]},
}
_CORRECT = dict(
    zip(METRICS, ("tokens_correct", "sentences_correct", "words_aligned", *_FIELDS[12:]), strict=True)
)


def ratio_pairs(
    units: Sequence[Conll18Counts], metric: str, measure: Measure = "f1"
) -> list[tuple[int, int]]:
    """``(x, n)`` per unit (e.g. per gold sentence) with ``Σx / Σn`` = the corpus score: F1 is
    ``2·correct / (gold + system)``, so every measure is a ratio of sums and the tests of
    :mod:`evalcore.significance` (approximate randomization, bootstrap) apply to it."""
    gold_f, system_f, aligned_f = _TOTALS[metric]
    correct_f = _CORRECT[metric]
    out = []
    for u in units:
        c, g, s = getattr(u, correct_f), getattr(u, gold_f), getattr(u, system_f)
        if measure == "f1":
            out.append((2 * c, g + s))
        elif measure == "precision":
            out.append((c, s))
        elif measure == "recall":
            out.append((c, g))
        elif aligned_f:
            out.append((c, getattr(u, aligned_f)))
        else:
            raise ValueError(f"{metric} has no aligned accuracy")
    return out


# --------------------------------------------------------------------------- reading


class _NotAligned:
    """The scorer's ``"NotAligned"``: the head of a system word whose head is not aligned."""

    __slots__ = ()


_NOT_ALIGNED = _NotAligned()


_REMEMBERED = 10_000


class _Normals:
    """The normal forms of FEATS and DEPREL values met in one file, remembered (a treebank repeats
    few of them): only short values, and at most ``_REMEMBERED`` of each, so no input makes them grow."""

    __slots__ = ("feats", "keep", "relations")

    def __init__(self) -> None:
        self.keep = False  # each word keeps its columns (align_words)
        self.feats: dict[str, str] = {"_": ""}
        self.relations: dict[str, tuple[str, bool, bool]] = {}


def _universal(feats: str, memo: dict[str, str]) -> str:
    """FEATS as UFeats compares them: the universal features only, sorted (``""`` for ``_``)."""
    kept = "|".join(sorted(f for f in feats.split("|") if f.split("=", 1)[0] in UNIVERSAL_FEATURES))
    if len(feats) <= 200 and len(memo) < _REMEMBERED:
        memo[feats] = kept
    return kept


def _relation(full: str, memo: dict[str, tuple[str, bool, bool]]) -> tuple[str, bool, bool]:
    """The universal relation of a DEPREL, and whether it is a content and a functional one
    (both are always told by the universal relation)."""
    deprel = full.split(":")[0]
    out = deprel, deprel in CONTENT_DEPRELS, deprel in FUNCTIONAL_DEPRELS
    if len(full) <= 200 and len(memo) < _REMEMBERED:
        memo[full] = out
    return out


class _Word:
    """One word (a syntactic word; inside a multiword token, ``start``/``end`` are the token's)."""

    __slots__ = (
        "aligned",
        "cols",
        "content",
        "deprel",
        "end",
        "fchildren",
        "feats",
        "form",
        "functional",
        "head",
        "id",
        "index",
        "last",
        "lemma",
        "line",
        "multi",
        "parent",
        "sent",
        "start",
        "unit",
        "upos",
        "xpos",
    )

    index: int  # its position among its file's words, its sentence's, its ID (set by align_words only)
    sent: int
    id: int
    cols: list[str]

    def __init__(
        self, start: int, end: int, cols: list[str], multi: bool, line: int, base: bool, normals: _Normals
    ) -> None:
        if normals.keep:  # the columns as written (the FORM without spaces), for align_words only:
            self.cols = cols  # kept for every word, they would slow the scorer's pass (more to collect)
        self.start = start
        self.end = end
        self.multi = multi
        self.line = line
        self.form = cols[1].lower()
        self.lemma = cols[2]
        self.upos = cols[3]
        self.xpos = cols[4]
        feats = normals.feats.get(cols[5])
        self.feats = _universal(cols[5], normals.feats) if feats is None else feats
        self.head = cols[6]
        full = cols[7]
        deprel, self.content, self.functional = normals.relations.get(full) or _relation(
            full, normals.relations
        )
        self.deprel = deprel if base else full  # what LAS (and MLAS's children) compare
        self.parent: _Word | None = None
        self.fchildren: list[_Word] = []
        self.aligned: _Word | _NotAligned = _NOT_ALIGNED
        self.unit = 0
        self.last = 0  # absolute index of the last word of its sentence (system words)


@dataclass(slots=True)
class _Sentence:
    words: list[_Word]
    tokens: list[tuple[int, int, int]]  # (start, end, line)
    text: str  # its tokens' characters
    start: int
    end: int
    sent_id: str | None


SCORER_COLUMNS = Columns((10,), "The CoNLL-U line does not contain 10 tab-separated columns: '{line}'")
"""The scorer's column rule and message (without its "at line N": the FILE:LINE prefix says it)."""


def _too_many(limits: Limits, fname: str, lineno: int, sent_id: str | None) -> LimitError:
    return limits.error(
        "tokens", f"sentence has more than {limits.tokens} words", file=fname, line=lineno, sentence=sent_id
    )


def _link(words: list[_Word], fname: str, lineno: int, sent_id: str | None) -> None:
    """Heads to parents, cycles and head range checked, one root (the scorer's ``process_word``)."""
    n = len(words)
    done = [False] * n
    busy = [False] * n
    for i in range(n):
        chain: list[int] = []
        j = i
        while not done[j]:
            if busy[j]:
                raise TreeStructureError(
                    "There is a cycle in a sentence", file=fname, line=lineno, sentence=sent_id
                )
            w = words[j]
            try:
                head = int(w.head)
            except ValueError:
                raise refused(f"Cannot parse HEAD '{shown(w.head)}'", fname, w.line, sent_id) from None
            if head < 0 or head > n:
                raise TreeStructureError(
                    f"HEAD '{shown(w.head)}' points outside of the sentence",
                    file=fname,
                    line=lineno,
                    sentence=sent_id,
                )
            if head == 0:
                done[j] = True
                break
            busy[j] = True
            chain.append(j)
            j = head - 1
        for k in reversed(chain):
            words[k].parent = words[int(words[k].head) - 1]
            busy[k] = False
            done[k] = True
    roots = 0
    for w in words:
        if w.parent is None:
            roots += 1
        elif w.functional:
            w.parent.fchildren.append(w)
    if roots != 1:
        raise TreeStructureError(
            f"There are {roots} roots in a sentence", file=fname, line=lineno, sentence=sent_id
        )


def _sentences(
    source: InputSource, fname: str, limits: Limits, base: bool, keep: bool = False
) -> Iterator[_Sentence]:
    """The scorer's ``load_conllu``, one sentence at a time (``base``: DEPREL subtypes dropped)."""
    lines = iter_lines(source, fname, limits, cr_ends=True)  # the scorer opens files in text mode
    normals = _Normals()  # this file's FEATS and DEPREL normal forms
    normals.keep = keep
    index = 0
    words: list[_Word] = []
    tokens: list[tuple[int, int, int]] = []
    pieces: list[str] = []
    start: int | None = None
    sent_id: str | None = None
    last = 0
    for lineno, line in lines:
        last = lineno
        # the scorer knows comments only between sentences; inside one a "#" line is a word line
        kind, cols = parse_line(line, SCORER_COLUMNS, fname, lineno, sent_id, comments=start is None)
        if kind == "comment":
            sent_id = comment_ids(line, sent_id or "", "")[0] or None
            continue
        if start is None:
            start = index
            words, tokens, pieces = [], [], []
        if kind == "blank":  # every blank line ends a sentence (a second one: a sentence of 0 roots)
            _link(words, fname, lineno, sent_id)
            yield _Sentence(words, tokens, "".join(pieces), start, index, sent_id)
            start = None
            sent_id = None
            continue
        if kind == "empty":
            continue
        wid = cols[0]
        form = form_chars(cols[1])
        if not form:
            raise refused("There is an empty FORM in the CoNLL-U file", fname, lineno, sent_id)
        if len(words) >= limits.tokens:
            raise _too_many(limits, fname, lineno, sent_id)
        cols[1] = form
        pieces.append(form)
        end = index + len(form)
        tokens.append((index, end, lineno))
        if kind == "range":
            try:
                first, last_id = map(int, wid.split("-"))
            except ValueError:
                raise refused(
                    f"Cannot parse multi-word token ID '{shown(wid)}'", fname, lineno, sent_id
                ) from None
            for _ in range(first, last_id + 1):
                if len(words) >= limits.tokens:
                    raise _too_many(limits, fname, lineno, sent_id)
                nxt = next(lines, None)
                wline, wtext = (lineno + 1, "") if nxt is None else nxt
                last = wline
                cols = SCORER_COLUMNS.split(wtext, fname, wline, sent_id)  # read as a word whatever it is
                words.append(_Word(index, end, cols, True, wline, base, normals))
        else:
            try:
                word_id = int(wid)
            except ValueError:
                raise refused(f"Cannot parse word ID '{shown(wid)}'", fname, lineno, sent_id) from None
            if word_id != len(words) + 1:
                expected = f"expected '{len(words) + 1}'"
                raise refused(
                    f"Incorrect word ID '{shown(wid)}' for word '{shown(form)}', {expected}",
                    fname,
                    lineno,
                    sent_id,
                )
            try:
                head = int(cols[6])
            except ValueError:
                raise refused(f"Cannot parse HEAD '{shown(cols[6])}'", fname, lineno, sent_id) from None
            if head < 0:
                raise refused("HEAD cannot be negative", fname, lineno, sent_id)
            words.append(_Word(index, end, cols, False, lineno, base, normals))
        index = end
    if start is not None:
        raise refused("The CoNLL-U file does not end with empty line", fname, last, sent_id)


# --------------------------------------------------------------------------- the scorer's word alignment
# (also the "Words" metric's, evalcore.metrics.words)


if TYPE_CHECKING:  # a type only (no class made at import)

    class _Spanned(Protocol):
        """A word as a multiword span sees it: its token's characters, whether the token is multiword,
        and its lower-cased FORM."""

        start: int
        end: int
        multi: bool
        form: str

    _W = TypeVar("_W", bound=_Spanned)


def _beyond_end(w: _Spanned | None, end: int) -> bool:
    if w is None:
        return True
    if w.multi:
        return w.start >= end
    return w.end > end


def multiword_span(
    gword: Callable[[int], _Spanned | None], sword: Callable[[int], _Spanned | None], gi: int, si: int
) -> tuple[int, int, int, int]:
    """The scorer's ``find_multiword_span`` from gold word ``gi`` and system word ``si`` (one of
    them in a multiword token): ``(gs, ss, gi, si)``, its words ``gs:gi`` and ``ss:si``.
    ``gword(i)`` and ``sword(i)`` give word ``i`` of each file, ``None`` past its end."""
    g, s = gword(gi), sword(si)
    assert g is not None and s is not None
    if g.multi:
        end = g.end
        if not s.multi and s.start < g.start:
            si += 1
    else:
        end = s.end
        if not g.multi and g.start < s.start:
            gi += 1
    gs, ss = gi, si
    while True:
        g, s = gword(gi), sword(si)
        if _beyond_end(g, end) and _beyond_end(s, end):
            break
        if g is not None and (s is None or g.start <= s.start):
            if g.multi and g.end > end:
                end = g.end
            gi += 1
        else:
            assert s is not None
            if s.multi and s.end > end:
                end = s.end
            si += 1
    return gs, ss, gi, si


def lcs_pairs(gold: Sequence[_W], system: Sequence[_W]) -> list[tuple[_W, _W]]:
    """The pairs of words the scorer aligns in a multiword span, by their lower-cased
    FORMs: an equal FORM is taken at once, else the walk follows the LCS table."""
    ng, ns = len(gold), len(system)
    lcs = [[0] * (ns + 1) for _ in range(ng + 1)]
    for a in reversed(range(ng)):
        row, below = lcs[a], lcs[a + 1]
        fa = gold[a].form
        for b in reversed(range(ns)):
            v = 1 + below[b + 1] if fa == system[b].form else 0
            row[b] = max(v, below[b], row[b + 1])
    pairs = []
    a = b = 0
    while a < ng and b < ns:
        if gold[a].form == system[b].form:
            pairs.append((gold[a], system[b]))
            a += 1
            b += 1
        elif lcs[a][b] == lcs[a + 1][b]:
            a += 1
        else:
            b += 1
    return pairs


# --------------------------------------------------------------------------- streaming alignment


class _Side:
    """One file: a window of its words (absolute indices), its tokens and characters not yet compared."""

    def __init__(
        self, source: InputSource, fname: str, limits: Limits, base: bool, keep: bool = False
    ) -> None:
        self.fname = fname
        self.it = _sentences(source, fname, limits, base, keep)
        self.words: list[_Word] = []
        self.base = 0  # absolute index of words[0]
        self.eof = False
        self.chars = 0  # characters read so far
        self.text: list[str] = []  # characters not yet compared with the other file (pieces)
        self.text_start = 0  # absolute index of the first of them
        self.where: deque[tuple[int, int, str | None]] = deque()  # (token start, line, sent_id) of them
        self.tokens: deque[tuple[int, int, int]] = deque()  # token spans not yet matched
        self.sents: deque[tuple[int, int, int]] = deque()  # (start, end, unit) not yet matched

    def __len__(self) -> int:
        return self.base + len(self.words)


_TRIM = 4096
"""Words a window keeps behind both pointers before it forgets them."""


class _Aligner:
    def __init__(
        self,
        gold: InputSource,
        system: InputSource,
        gold_name: str | None,
        system_name: str | None,
        limits: Limits,
        per_sentence: bool,
        deprel_base: bool = True,
        read_all: bool = True,
        keep: bool = False,
    ) -> None:
        self.g = _Side(gold, source_name(gold, gold_name), limits, deprel_base, keep)
        self.s = _Side(system, source_name(system, system_name), limits, deprel_base, keep)
        self.deprel_base = deprel_base
        self.per_sentence = per_sentence or keep
        self.keep = keep  # keep every word and pair (align_words)
        self.kept: list[tuple[_Sentence, list[_Word], list[AlignedPair]]] = []  # per gold sentence
        self.system_sentences = 0
        self.limits = limits
        self.units: list[list[int]] = [[0] * len(_FIELDS)]
        self.gold_starts: list[int] = []  # first character of each gold sentence (per_sentence only)
        self.pending: deque[tuple[_Word, _Word]] = deque()
        self.mismatch: MismatchError | None = None
        self.read_all = read_all  # after a text difference, read both files for their errors

    # -- loading, in step on both sides -------------------------------------------------

    def _read(self, side: _Side) -> bool:
        """Read one more sentence of ``side``; False at the end of the file."""
        if side.eof:
            return False
        try:
            sent = next(side.it)
        except StopIteration:
            side.eof = True
            return False
        except EvalcoreError as exc:
            if side is self.s:
                self._drain(self.g)  # the scorer reads the gold file first: its error wins
            raise exc from None
        is_gold = side is self.g
        last = len(side) + len(sent.words) - 1
        side.words.extend(sent.words)
        side.chars = sent.end
        if sent.tokens:
            side.text.append(sent.text)
            for start, _end, line in sent.tokens:
                side.where.append((start, line, sent.sent_id))
        if is_gold:
            unit = len(self.gold_starts)
            if self.per_sentence:
                self.gold_starts.append(sent.start)
                self.units.append([0] * len(_FIELDS))
                unit += 1
            else:
                unit = 0
            u = self.units[unit]
            u[_IDX["words_gold"]] += len(sent.words)
            u[_IDX["content_gold"]] += sum(1 for w in sent.words if w.content)
            u[_IDX["tokens_gold"]] += len(sent.tokens)
            u[_IDX["sentences_gold"]] += 1
            if unit:  # 0 already
                for w in sent.words:
                    w.unit = unit
            if self.keep:
                self._keep(sent, len(self.kept), last + 1 - len(sent.words))
                self.kept.append((sent, [], []))
            self.g.sents.append((sent.start, sent.end, unit))
            self.g.tokens.extend((a, b, unit) for a, b, _line in sent.tokens)
        else:
            while self.g.chars < sent.end and self._read(self.g):
                pass
            per, units = self.per_sentence, self.units
            for w in sent.words:
                w.last = last
                if per:
                    w.unit = self._unit(w.start)
                u = units[w.unit]
                u[_WORDS_SYSTEM] += 1
                u[_CONTENT_SYSTEM] += w.content
            for a, b, _line in sent.tokens:
                unit = self._unit(a) if per else 0
                units[unit][_TOKENS_SYSTEM] += 1
                self.s.tokens.append((a, b, unit))
            if self.keep:
                self._keep(sent, self.system_sentences, last + 1 - len(sent.words))
                self.system_sentences += 1
                for w in sent.words:
                    if w.unit <= len(self.kept):
                        self.kept[w.unit - 1][1].append(w)
            unit = self._unit(sent.start)
            self.units[unit][_IDX["sentences_system"]] += 1
            self.s.sents.append((sent.start, sent.end, unit))
        self._compare()
        self._spans(self.g.tokens, self.s.tokens, "tokens_correct")
        self._spans(self.g.sents, self.s.sents, "sentences_correct")
        return True

    @staticmethod
    def _keep(sent: _Sentence, number: int, first: int) -> None:
        for k, w in enumerate(sent.words):
            w.index = first + k
            w.sent = number
            w.id = k + 1

    def _unit(self, char: int) -> int:
        if not self.per_sentence:
            return 0
        return max(1, bisect_right(self.gold_starts, char))

    def _drain(self, side: _Side) -> None:
        """Read ``side`` to its end (for its errors), keeping nothing."""
        try:
            for _ in side.it:
                pass
        finally:
            side.eof = True

    def _spans(
        self, gold: deque[tuple[int, int, int]], system: deque[tuple[int, int, int]], field: str
    ) -> None:
        """The scorer's ``spans_score``, advanced as far as both sides allow."""
        k = _IDX[field]
        while gold and system:
            gs, ge, unit = gold[0]
            ss, se, _ = system[0]
            if ss < gs:
                system.popleft()
            elif gs < ss:
                gold.popleft()
            else:
                if ge == se:
                    self.units[unit][k] += 1
                gold.popleft()
                system.popleft()

    def _compare(self) -> None:
        """Compare the characters both files have read; remember the first difference (also where
        one file has ended and the other has characters left: they cannot be aligned)."""
        g, s = self.g, self.s
        if self.mismatch is not None:
            return
        if not g.text or not s.text:
            if (g.eof and s.text) or (s.eof and g.text):
                self._mismatch(0)
            return
        gt, st = "".join(g.text), "".join(s.text)
        n = min(len(gt), len(st))
        if gt[:n] == st[:n]:
            g.text, s.text = ([gt[n:]] if len(gt) > n else []), ([st[n:]] if len(st) > n else [])
            g.text_start = s.text_start = g.text_start + n
            for side in (g, s):
                while len(side.where) > 1 and side.where[1][0] <= side.text_start:
                    side.where.popleft()
            return
        i = next(i for i in range(n) if gt[i] != st[i])
        self._mismatch(i)

    def _mismatch(self, i: int) -> None:
        """The scorer's error at character ``text_start + i``, with 20 characters of each file."""
        g, s = self.g, self.s
        for side in (g, s):
            while sum(map(len, side.text)) < i + 20 and not side.eof:
                try:
                    sent = next(side.it)
                except StopIteration:
                    side.eof = True
                    break
                side.text.append(sent.text)
        gt, st = "".join(g.text), "".join(s.text)
        at = s.text_start + i
        line, sent_id = None, None
        for start, ln, sid in s.where:
            if start > at:
                break
            line, sent_id = ln, sid
        self.mismatch = MismatchError(
            "The concatenation of tokens in gold file and in system file differ! "
            f"First 20 differing characters in gold file: '{gt[i : i + 20]}' "
            f"and system file: '{st[i : i + 20]}'",
            file=s.fname,
            line=line,
            sentence=sent_id,
        )

    def _word(self, side: _Side, i: int) -> _Word | None:
        while i >= len(side):
            if not self._read(side):
                return None
        return side.words[i - side.base]

    # -- the scorer's align_words -----------------------------------------------------

    def run(self) -> Conll18Result:
        gi = si = 0
        gside, sside, pending = self.g, self.s, self.pending
        gwords, swords = gside.words, sside.words  # the windows (trimmed in place)
        gword, sword = partial(self._word, gside), partial(self._word, sside)  # word i, read if need be
        while self.mismatch is None:
            k = gi - gside.base  # the word at gi, read if not yet in the window
            g = gwords[k] if k < len(gwords) else gword(gi)
            k = si - sside.base
            s = swords[k] if k < len(swords) else sword(si)
            if g is None or s is None:
                break
            if g.multi or s.multi:
                gs, ss, gi, si = multiword_span(gword, sword, gi, si)
                if si > ss and gi > gs:
                    self._lcs_align(gs, ss, gi, si)
            elif g.start == s.start and g.end == s.end:
                s.aligned = g
                pending.append((g, s))
                gi += 1
                si += 1
            elif g.start <= s.start:
                gi += 1
            else:
                si += 1
            if pending and pending[0][1].last < si:
                self._flush(si)
            if gi - gside.base > _TRIM or si - sside.base > _TRIM:
                self._trim(gi, si)
        # the rest of both files: read for their errors and the character check
        while self.mismatch is None and self._read(self.g):
            pass
        while self.mismatch is None and self._read(self.s):
            pass
        if self.mismatch is None:
            gt, st = "".join(self.g.text), "".join(self.s.text)
            if gt or st:
                self._mismatch(0)
        if self.mismatch is not None:
            if self.read_all:  # the scorer reads both files whole first: a format error wins
                self._drain(self.g)
                self._drain(self.s)
            raise self.mismatch
        self._flush(len(self.s))
        units = [Conll18Counts(*u) for u in self.units]
        counts = units[0]
        for u in units[1:]:
            counts = counts + u
        return Conll18Result(
            counts, score(counts), signature(self.deprel_base), tuple(units[1:]) if self.per_sentence else ()
        )

    def _lcs_align(self, gs: int, ss: int, gi: int, si: int) -> None:
        gw = [self.g.words[i - self.g.base] for i in range(gs, gi)]
        sw = [self.s.words[i - self.s.base] for i in range(ss, si)]
        ng, ns = len(gw), len(sw)
        if max(ng, ns) > self.limits.tokens:  # the LCS table is ng x ns: bounded like a sentence
            raise self.limits.error(
                "tokens",
                f"multiword span of {ng} gold and {ns} system words (more than {self.limits.tokens})",
                file=self.s.fname,
                line=sw[0].line,
            )
        pairs = lcs_pairs(gw, sw)
        for g, s in pairs:
            s.aligned = g
        self.pending.extend(pairs)

    def _trim(self, gi: int, si: int) -> None:
        """Forget words both pointers have passed (pending pairs keep their own references)."""
        for side, i in ((self.g, gi), (self.s, si)):
            drop = i - side.base
            if drop > _TRIM:
                del side.words[:drop]
                side.base = i

    def _flush(self, si: int) -> None:
        """Score the aligned pairs whose system sentence is fully decided (all its words before ``si``)."""
        pending = self.pending
        units = self.units
        keep = self.keep
        while pending:
            g, s = pending[0]
            if s.last >= si:  # a word of its sentence (its head, a functional child) is still open
                return
            pending.popleft()
            u = units[g.unit]
            u[_WORDS_ALIGNED] += 1
            sp = s.parent
            uas = g.parent is (None if sp is None else sp.aligned)
            upos = g.upos == s.upos
            xpos = g.xpos == s.xpos
            feats = g.feats == s.feats
            lemma = g.lemma == "_" or g.lemma == s.lemma
            las = uas and g.deprel == s.deprel
            u[_UPOS] += upos
            u[_UPOS + 1] += xpos
            u[_UPOS + 2] += feats
            u[_UPOS + 3] += upos and xpos and feats
            u[_UPOS + 4] += lemma
            u[_UPOS + 5] += uas
            u[_UPOS + 6] += las
            if g.content:
                u[_CONTENT_ALIGNED] += 1
                if las:
                    u[_UPOS + 7] += 1  # clas
                    u[_UPOS + 9] += lemma  # blex
                    if upos and feats and _children(g, s):
                        u[_UPOS + 8] += 1  # mlas
            if keep:
                self._keep_pair(g, s, upos, xpos, feats, lemma, uas)

    def _keep_pair(
        self, g: _Word, s: _Word, upos: bool, xpos: bool, feats: bool, lemma: bool, uas: bool
    ) -> None:
        """Keep the pair and the scorer's verdicts on it (the same as :meth:`_flush` counted)."""
        label = g.deprel == s.deprel
        las = uas and label
        clas = g.content and las
        head = s.parent.aligned if s.parent is not None else None  # the gold word it stands for
        child = isinstance(head, _Word) and head.parent is g
        grand = g.parent is not None and g.parent.parent is head
        self.kept[g.unit - 1][2].append(
            AlignedPair(
                g.index,
                s.index,
                upos,
                xpos,
                feats,
                upos and xpos and feats,
                lemma,
                uas,
                las,
                label,
                g.content,
                clas,
                clas and upos and feats and _children(g, s),
                clas and lemma,
                uas or child or grand,
            )
        )

    def release(self) -> None:
        """Break the kept words' cycles (a head and its functional children) after :meth:`sentences`:
        nothing reads the words afterwards, and reference counting then frees them."""
        for sent, system, _ in self.kept:
            for w in sent.words:
                w.fchildren.clear()
            for w in system:
                w.fchildren.clear()
        for side in (self.g, self.s):
            for w in side.words:
                w.fchildren.clear()

    def sentences(self) -> tuple[AlignedSentence, ...]:
        """The kept sentences as values (after :meth:`run`)."""
        gold_of = {p.system: p.gold for _, _, pairs in self.kept for p in pairs}
        system_of = {g: s for s, g in gold_of.items()}
        units = self.units
        out = []
        for i, (sent, system, pairs) in enumerate(self.kept):
            out.append(
                AlignedSentence(
                    i,
                    sent.sent_id,
                    sent.start,
                    sent.end,
                    tuple(_aligned_word(w, system_of.get(w.index)) for w in sent.words),
                    tuple(_aligned_word(w, gold_of.get(w.index)) for w in system),
                    tuple(sorted(pairs, key=lambda p: p.gold)),
                    Conll18Counts(*units[i + 1]),
                )
            )
        return tuple(out)


def _aligned_word(w: _Word, aligned: int | None) -> AlignedWord:
    c = w.cols
    return AlignedWord(
        w.index,
        w.sent,
        w.id,
        int(c[6]),
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
        c[7],
        w.start,
        w.end,
        w.multi,
        w.line,
        aligned,
    )


def _children(g: _Word, s: _Word) -> bool:
    gc, sc = g.fchildren, s.fchildren
    if len(gc) != len(sc):
        return False
    return all(
        a is b.aligned and a.deprel == b.deprel and a.upos == b.upos and a.feats == b.feats
        for a, b in zip(gc, sc, strict=True)
    )


def evaluate_conll18(
    gold: InputSource,
    system: InputSource,
    *,
    gold_name: str | None = None,
    system_name: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    per_sentence: bool = False,
    deprel_base: bool = True,
    read_all: bool = True,
) -> Conll18Result:
    """The CoNLL 2018 evaluation of ``system`` against ``gold`` (paths or bytes; gzip is read).

    ``per_sentence`` also returns the counts of each gold sentence (for significance tests and
    bootstrap intervals).  ``deprel_base=False`` compares DEPRELs as written in LAS, CLAS, MLAS and
    BLEX (``evalcore attach``'s own definition; content and functional relations are still told by
    the universal part).  Raises :class:`InputFormatError`, :class:`TreeStructureError` or
    :class:`MismatchError` where the scorer raises ``UDError``.

    The text is compared as it is read, and a difference is found at its character (also where
    one file ends and the other goes on).  ``read_all`` (the scorer's order) then reads both
    files to their end, keeping nothing, so that a format error anywhere in them is raised
    instead; ``read_all=False`` raises the difference at once (``evalcore attach``'s own path:
    an empty gold against a long parse is named in a moment, not after the whole parse).
    """
    aligner = _Aligner(gold, system, gold_name, system_name, limits, per_sentence, deprel_base, read_all)
    return aligner.run()


def align_words(
    gold: InputSource,
    system: InputSource,
    *,
    gold_name: str | None = None,
    system_name: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    deprel_base: bool = True,
    read_all: bool = True,
) -> Alignment:
    """The CoNLL 2018 character alignment of ``system`` to ``gold`` as a value: per gold sentence,
    its words, the system words that start inside it, and each aligned pair with the scorer's
    verdicts (the same pass as :func:`evaluate_conll18`, which it equals on every count).

    Every use of the alignment of a raw-text parse calls this function (docs/attachment.md, "Every
    analysis on aligned words").  It keeps every word (memory grows with the document); the
    arguments and errors are :func:`evaluate_conll18`'s."""
    aligner = _Aligner(gold, system, gold_name, system_name, limits, True, deprel_base, read_all, keep=True)
    # every word is kept, and the cyclic collector's full passes would walk them all again and again
    # (its cycles, word <-> parent, are broken once the words' values are made: reference counting
    # frees them, and the collector's first pass after a paused experiment has not to find them)
    with paused_gc():
        result = aligner.run()
        sentences = aligner.sentences()
        aligner.release()
        return Alignment(sentences, result)
