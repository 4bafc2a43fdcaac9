"""TedEval scores: discounted tree edit distance against a (generalized) gold.

EMNLP 2011 §3.3 / EACL 2012 §3.3 (docs/tedeval.md, "Edit scripts, discount and score"):

    δ(p, g, G) = cost(ES(p, G)) − cost(ES(p, G) ∩ ES(g, G))
    sentence score = 1 − δ / (|p| + |G|)   (1 if |p| + |G| = 0)
    corpus score   = 1 − Σδ / Σ(|p| + |G|)   (global average, the default)

The operations that ``p`` shares with its own gold ``g`` on the way to ``G``
only undo the idiosyncrasies of ``g``'s scheme, so they are *discounted*.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from evalcore.choices import PROTOCOL_2011, Average
from evalcore.conversion import ConversionConfig
from evalcore.display import Reported
from evalcore.metrics.base import Signature, add_fields, ratio
from evalcore.ted.spans import edit_script, intersect, script_cost, size
from evalcore.trees import EditOp, SpanTree

__all__ = [
    "SentenceTed",
    "TedConfig",
    "TedCounts",
    "TedScore",
    "corpus_counts",
    "score",
    "sentence_ted",
]


@dataclass(frozen=True, slots=True)
class TedConfig:
    """Settings of a TedEval score; all appear in the signature."""

    conversion: ConversionConfig = field(default_factory=ConversionConfig)
    average: Average = "global"

    @property
    def protocol(self) -> str:
        return self.conversion.protocol

    def signature_value(self, labeled: bool | None = None) -> Signature:
        """The signature as a value (:class:`~evalcore.metrics.base.Signature`), to extend."""
        c = self.conversion
        settings: list[tuple[str, object]] = [("proto", c.protocol)]
        if labeled is not None:
            settings.append(("labeled", labeled))
        settings += [
            ("avg", self.average),
            ("map", c.map_signature()),
            ("sep", c.function_separators),
            ("case", "fold" if c.fold_case else "keep"),
            ("proj", True if c.protocol == PROTOCOL_2011 else c.projectivize),
        ]
        if c.category_labels:  # only when on: the signatures of §5.1's conversion stay as they were
            settings.append(("cat", True))
        return Signature.of("tedeval", settings)

    def signature(self, labeled: bool | None = None) -> str:
        return str(self.signature_value(labeled))


@dataclass(frozen=True, slots=True)
class SentenceTed(Reported):
    """One sentence: the script from the parse to G, and which of its operations are discounted."""

    delta: int
    norm: int
    script: tuple[EditOp, ...]
    discounted: tuple[EditOp, ...]

    @property
    def counted(self) -> tuple[EditOp, ...]:
        """The operations that cost: the script minus the discounted ones (multiset)."""
        left = list(self.discounted)
        out = []
        for op in self.script:
            if op in left:
                left.remove(op)
            else:
                out.append(op)
        return tuple(out)

    @property
    def score(self) -> float:
        return 1.0 - self.delta / self.norm if self.norm else 1.0

    def counts(self) -> TedCounts:
        return TedCounts(self.delta, self.norm, 1, self.score)


@dataclass(frozen=True, slots=True)
class TedCounts:
    """Adds with ``+``; ``score_sum`` serves the sentence average."""

    delta: int = 0
    norm: int = 0
    sentences: int = 0
    score_sum: float = 0.0

    def __add__(self, other: TedCounts) -> TedCounts:
        return TedCounts(**add_fields(self, other))


@dataclass(frozen=True, slots=True)
class TedScore:
    score: float
    delta: int
    norm: int
    sentences: int
    signature: str


def sentence_ted(
    parse: SpanTree, own_gold: SpanTree, general: SpanTree, *, labeled: bool = True
) -> SentenceTed:
    """δ(p, g, G) with its scripts (docs/tedeval.md, "Edit scripts, discount and score")."""
    es_p = edit_script(parse, general, labeled=labeled)
    es_g = edit_script(own_gold, general, labeled=labeled)
    shared = intersect(es_p, es_g)
    delta = script_cost(es_p) - script_cost(shared)
    norm = size(parse, labeled=labeled) + size(general, labeled=labeled)
    return SentenceTed(delta, norm, es_p, shared)


def score(counts: TedCounts, config: TedConfig = TedConfig(), *, labeled: bool = True) -> TedScore:
    """Global average ``1 − Σδ/Σnorm`` or, with ``average="sentence"``, the mean sentence score."""
    if config.average == "sentence":
        value = ratio(counts.score_sum, counts.sentences, empty=1.0)
    else:
        value = 1.0 - ratio(counts.delta, counts.norm)
    return TedScore(value, counts.delta, counts.norm, counts.sentences, config.signature(labeled))


def corpus_counts(
    parses: Iterable[SpanTree],
    golds: Iterable[SpanTree],
    generals: Iterable[SpanTree],
    *,
    labeled: bool = True,
) -> TedCounts:
    """Sum of sentence counts."""
    total = TedCounts()
    for p, g, gen in zip(parses, golds, generals, strict=True):
        total = total + sentence_ted(p, g, gen, labeled=labeled).counts()
    return total
