"""Every analysis of the attachment scores on character-aligned words (docs/attachment.md, "Every
analysis on aligned words"): MaltEval's breakdowns (Nilsson & Nivre 2008) and the relation confusion
on the CoNLL 2018 alignment of a raw-text parse to its gold (Zeman et al. 2018, §2;
:func:`evalcore.metrics.conll18.align_words`).

A group counts the gold words whose gold property is the group (all of them: a gold word the system
did not produce counts against recall) and the system words whose system property is the group (an
extra system word counts against precision); its correct counts are the aligned pairs the scorer
judges correct, read on either side.  So the totals of every breakdown are the scorer's Words/UAS/LAS
rows.  A property of a sentence (length) is the gold sentence's: a system word takes that of the gold
sentence its first character falls in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, cast

from evalcore.metrics.base import make_signature, ratio
from evalcore.metrics.breakdown import (
    EXAMPLES,
    Breakdown,
    BreakdownResult,
    Confusion,
    GroupCounts,
    HeadErrors,
    cross_parts,
    length_bin,
    sorted_groups,
    tree_keys,
)
from evalcore.metrics.conll18 import (
    CONTENT_DEPRELS,
    AlignedPair,
    AlignedSentence,
    AlignedWord,
    Alignment,
    Conll18Counts,
    Conll18Result,
    score,
    signature,
)

if TYPE_CHECKING:
    from evalcore.patterns import Where

__all__ = [
    "SentenceRecord",
    "aligned_breakdowns",
    "aligned_confusion",
    "aligned_groups_by_sentence",
    "aligned_signature",
    "restrict",
    "sentence_records",
    "word_keys",
]


@dataclass(frozen=True, slots=True)
class _Sides:
    """Every gold and system word of an alignment, by ``index``, and their gold sentence."""

    gold: tuple[AlignedWord, ...]
    system: tuple[AlignedWord, ...]
    gold_unit: tuple[int, ...]  # the gold sentence of each gold word
    system_unit: tuple[int, ...]  # ... of each system word (where its first character falls)
    lengths: tuple[int, ...]  # words of each gold sentence
    made: dict[tuple[str, bool], tuple[list[str], list[str]]]  # keys made so far (one analysis run)


def _sides(alignment: Alignment) -> _Sides:
    gold: list[AlignedWord] = []
    system: list[AlignedWord | None] = []
    gold_unit: list[int] = []
    system_unit: list[int] = []
    for s in alignment.sentences:
        gold.extend(s.gold)
        gold_unit.extend([s.index] * len(s.gold))
        for w in s.system:
            while len(system) <= w.index:
                system.append(None)
                system_unit.append(0)
            system[w.index] = w
            system_unit[w.index] = s.index
    words = tuple(w for w in system if w is not None)
    assert len(words) == len(system)  # every system word belongs to one gold sentence
    lengths = tuple(len(s.gold) for s in alignment.sentences)
    return _Sides(tuple(gold), words, tuple(gold_unit), tuple(system_unit), lengths, {})


def _sentences(words: Sequence[AlignedWord]) -> Iterable[Sequence[AlignedWord]]:
    """The words of each of their own sentences (document order)."""
    start = 0
    for i in range(1, len(words) + 1):
        if i == len(words) or words[i].sentence != words[start].sentence:
            yield words[start:i]
            start = i


def word_keys(
    words: Sequence[AlignedWord], units: Sequence[int], lengths: Sequence[int], by: str, deprel_base: bool
) -> list[str]:
    """Each word's property ``by`` (one key, or two joined by ``+``: a cross-table): read on its
    own sentence, except length, the gold sentence's (``units``: each word's gold sentence)."""
    parts = cross_parts(by)
    if len(parts) > 1:
        keys = [word_keys(words, units, lengths, p, deprel_base) for p in parts]
        return ["|".join(k) for k in zip(*keys, strict=True)]
    if by == "deprel":
        if not deprel_base:
            return [w.deprel for w in words]
        base = {d: d.split(":", 1)[0] for d in {w.deprel for w in words}}
        return [base[w.deprel] for w in words]
    if by == "upos":
        return [w.upos for w in words]
    if by == "length":
        bins = [length_bin(n) for n in lengths]
        return [bins[u] for u in units]
    out: list[str] = []
    for sent in _sentences(words):
        out.extend(tree_keys(by, [w.head for w in sent]))
    return out


def _keys(sides: _Sides, by: str, deprel_base: bool) -> tuple[list[str], list[str]]:
    """The gold words' and the system words' keys ``by``, each grouping's made once per alignment."""
    parts = cross_parts(by)
    if len(parts) > 1:
        both = [_keys(sides, p, deprel_base) for p in parts]
        return (
            ["|".join(k) for k in zip(*(g for g, _ in both), strict=True)],
            ["|".join(k) for k in zip(*(s for _, s in both), strict=True)],
        )
    made = sides.made.get((by, deprel_base))
    if made is None:
        made = (
            word_keys(sides.gold, sides.gold_unit, sides.lengths, by, deprel_base),
            word_keys(sides.system, sides.system_unit, sides.lengths, by, deprel_base),
        )
        sides.made[(by, deprel_base)] = made
    return made


def aligned_signature(by: str, deprel_base: bool) -> str:
    return make_signature(
        "breakdown",
        [("by", by), ("align", "chars"), ("deprel", "base" if deprel_base else "full"), ("bins", "evalpl")],
    )


def _pairs(alignment: Alignment) -> list[AlignedPair]:
    return [p for s in alignment.sentences for p in s.pairs]


def _group_counts(
    gold_keys: Sequence[Hashable],
    system_keys: Sequence[Hashable],
    pairs: Sequence[AlignedPair],
) -> dict[Hashable, GroupCounts]:
    """The counts of each key: gold words by ``gold_keys``, system words by ``system_keys`` (both
    by ``index``), the verdicts of each aligned pair on both sides."""
    gold_of = [p.gold for p in pairs]
    system_of = [p.system for p in pairs]
    # each pair's verdicts as a number: uas 1, las 2, label 4 (counted at C speed below)
    verdicts = [p.uas + 2 * p.las + 4 * p.label for p in pairs]
    acc: dict[Hashable, list[int]] = {}
    for k, n in Counter(gold_keys).items():
        acc.setdefault(k, [0] * 8)[0] += n
    for k, n in Counter(system_keys).items():
        acc.setdefault(k, [0] * 8)[1] += n
    for keys, index, at in ((gold_keys, gold_of, 2), (system_keys, system_of, 5)):
        for (k, v), n in Counter(zip([keys[i] for i in index], verdicts, strict=True)).items():
            a = acc[k]
            a[at] += n * (v & 1)
            a[at + 1] += n * (v >> 1 & 1)
            a[at + 2] += n * (v >> 2 & 1)
    return {k: GroupCounts(*v) for k, v in acc.items()}


def aligned_breakdowns(alignment: Alignment, by: Sequence[str], deprel_base: bool = True) -> BreakdownResult:
    """The breakdowns ``by`` (and the confusion table) of an alignment (module docstring)."""
    sides = _sides(alignment)
    pairs = _pairs(alignment)
    out = []
    for key in by:
        gk, sk = _keys(sides, key, deprel_base)
        groups = cast("dict[str, GroupCounts]", _group_counts(gk, sk, pairs))
        out.append(Breakdown(key, sorted_groups(groups, key)))
    return BreakdownResult(
        tuple(out),
        aligned_confusion(alignment, deprel_base, sides),
        tuple(aligned_signature(b, deprel_base) for b in by),
    )


def aligned_groups_by_sentence(
    alignment: Alignment, by: str, deprel_base: bool = True
) -> dict[str, dict[int, GroupCounts]]:
    """Each group of the breakdown ``by``, its counts in each gold sentence with a word of it (a
    system word's: the gold sentence its first character falls in); they add up to the group's
    row of :func:`aligned_breakdowns` (the app's intervals and its lists of a group's sentences)."""
    sides = _sides(alignment)
    gk, sk = _keys(sides, by, deprel_base)
    counts = _group_counts(
        list(zip(gk, sides.gold_unit, strict=True)),
        list(zip(sk, sides.system_unit, strict=True)),
        _pairs(alignment),
    )
    out: dict[str, dict[int, GroupCounts]] = {}
    for key, c in counts.items():
        group, unit = cast("tuple[str, int]", key)
        out.setdefault(group, {})[unit] = c
    return out


def aligned_confusion(
    alignment: Alignment, deprel_base: bool = True, sides: _Sides | None = None
) -> Confusion:
    """Gold x system relations of the aligned pairs, their head/label error classes, and the first
    :data:`EXAMPLES` gold sentences of each confusion (by ID, else ``#N``, N counted from 1)."""
    sides = _sides(alignment) if sides is None else sides
    grel, srel = _keys(sides, "deprel", deprel_base)
    pairs = _pairs(alignment)
    cells = Counter((grel[p.gold], srel[p.system]) for p in pairs)
    classes = Counter((p.uas, p.label) for p in pairs)
    examples: dict[tuple[str, str], list[str]] = {}
    for sent in alignment.sentences:
        for p in sent.pairs:
            cell = grel[p.gold], srel[p.system]
            if cell[0] != cell[1]:
                seen = examples.setdefault(cell, [])
                name = sent.sent_id or f"#{sent.index + 1}"
                if len(seen) < EXAMPLES and name not in seen:
                    seen.append(name)
    return Confusion(
        tuple(sorted(cells.items())),
        HeadErrors(*(classes[c] for c in ((True, True), (True, False), (False, True), (False, False)))),
        tuple(sorted((k, tuple(v)) for k, v in examples.items())),
    )


@dataclass(frozen=True, slots=True)
class SentenceRecord:
    """One gold sentence's counts on aligned words (``--per-sentence``): its gold words, the
    system words that belong to it, the aligned pairs, and the pairs right under UAS, LAS and NED
    (F1 = 2·correct / (gold + system), as the scorer's)."""

    index: int
    sent_id: str | None
    gold: int
    system: int
    aligned: int
    uas: int
    las: int
    ned: int

    def __add__(self, other: SentenceRecord) -> SentenceRecord:
        return SentenceRecord(
            -1,
            None,
            *(
                getattr(self, f) + getattr(other, f)
                for f in ("gold", "system", "aligned", "uas", "las", "ned")
            ),
        )

    def f1(self, name: str) -> float:
        """The F1 of ``uas``, ``las`` or ``ned``."""
        return ratio(2 * int(getattr(self, name)), self.gold + self.system)


def sentence_records(alignment: Alignment) -> tuple[SentenceRecord, ...]:
    """Every gold sentence's :class:`SentenceRecord` (they add up to the scorer's UAS and LAS rows)."""
    return tuple(
        SentenceRecord(
            s.index,
            s.sent_id,
            len(s.gold),
            len(s.system),
            len(s.pairs),
            sum(p.uas for p in s.pairs),
            sum(p.las for p in s.pairs),
            sum(p.ned for p in s.pairs),
        )
        for s in alignment.sentences
    )


# ---------------------------------------------------------------------------
# a score restricted to a construction, on aligned words


def _covered(words: Sequence[AlignedWord], where: Where) -> set[int]:
    """The ``index`` of each of ``words`` that ``where`` covers, matched on the words' own trees
    (the words of each of their sentences, whole)."""
    from evalcore.trees import DepTree, Token

    out: set[int] = set()
    by_sentence: dict[int, list[AlignedWord]] = {}
    for w in words:
        by_sentence.setdefault(w.sentence, []).append(w)
    for sent in by_sentence.values():
        sent.sort(key=lambda w: w.id)
        tree = DepTree(
            tuple(Token(w.id, w.form, w.lemma, w.upos, w.xpos, w.feats, w.head, w.deprel) for w in sent)
        )
        ids = where.covered(tree)
        out.update(w.index for w in sent if w.id in ids)
    return out


def _content(w: AlignedWord) -> bool:
    """The word's relation is a content one (decided on its universal part, as the scorer does)."""
    return w.deprel.split(":", 1)[0] in CONTENT_DEPRELS


def _restricted_counts(sent: AlignedSentence, pairs: Sequence[AlignedPair], gold: Sequence[AlignedWord],
                       system: Sequence[AlignedWord]) -> Conll18Counts:  # fmt: skip
    """The sentence's counts, its words' rows over ``gold``, ``system`` and ``pairs`` only (its
    tokens and sentences as they are)."""
    content = [p for p in pairs if p.content]
    return replace(
        sent.counts,
        words_gold=len(gold),
        words_system=len(system),
        words_aligned=len(pairs),
        content_gold=sum(map(_content, gold)),
        content_system=sum(map(_content, system)),
        content_aligned=len(content),
        upos=sum(p.upos for p in pairs),
        xpos=sum(p.xpos for p in pairs),
        ufeats=sum(p.ufeats for p in pairs),
        alltags=sum(p.alltags for p in pairs),
        lemmas=sum(p.lemma for p in pairs),
        uas=sum(p.uas for p in pairs),
        las=sum(p.las for p in pairs),
        clas=sum(p.clas for p in content),
        mlas=sum(p.mlas for p in content),
        blex=sum(p.blex for p in content),
    )


def restrict(alignment: Alignment, where: Where, deprel_base: bool = True) -> Alignment:
    """The alignment restricted to the words ``where`` covers (docs/patterns.md, "On a parse of raw
    text"): each gold word covered on its gold tree, each system word on its system tree, and the
    aligned pairs whose two words are both covered; the rows of words (Words … BLEX) count only
    those, Tokens and Sentences are the alignment's.  Its sentences hold the kept words and pairs
    (their records, :func:`sentence_records`, are restricted too); the signature says
    ``where:HASH``."""
    gold_words = [w for s in alignment.sentences for w in s.gold]
    system_words = [w for s in alignment.sentences for w in s.system]
    gold_in, system_in = _covered(gold_words, where), _covered(system_words, where)
    sentences = []
    for s in alignment.sentences:
        gold = tuple(w for w in s.gold if w.index in gold_in)
        system = tuple(w for w in s.system if w.index in system_in)
        pairs = tuple(p for p in s.pairs if p.gold in gold_in and p.system in system_in)
        counts = _restricted_counts(s, pairs, gold, system)
        sentences.append(replace(s, gold=gold, system=system, pairs=pairs, counts=counts))
    units = tuple(s.counts for s in sentences)
    total = sum(units, Conll18Counts())
    kept = units if alignment.result.sentences else ()
    result = Conll18Result(total, score(total), signature(deprel_base, where.digest()), kept)
    return Alignment(tuple(sentences), result)
