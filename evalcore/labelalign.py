"""Label-set alignment: propose a label map between two annotations of the same sentences.

docs/labels.md, "Method", with the maths: both annotations become multi-function trees (docs/tedeval.md,
"Multi-function trees (2012 protocol)"), every label of A on a span is paired with B's labels on it,
and each label ``a`` of A gets the B label it co-occurs with most, kept when its support and share
pass the thresholds; coverage and baseline say how many of A's label occurrences the map (or no map)
gets right.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from evalcore.conversion import ConversionConfig, LabelMap, first_difference, to_span_tree, words_of
from evalcore.errors import MismatchError
from evalcore.families.tedeval import TedevalSettings, conversion_config
from evalcore.formats._io import InputSource, source_name
from evalcore.formats.detect import read_trees
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.metrics.base import Signature, ratio
from evalcore.trees import DepTree, SpanTree, Tree

__all__ = [
    "AlignSettings",
    "CoCounts",
    "Direction",
    "LabelAlignment",
    "Proposal",
    "align",
    "align_files",
    "count_pairs",
    "span_pairs",
]

AnyTree = DepTree | Tree
Direction = Literal["a-b", "b-a", "both"]


@dataclass(frozen=True, slots=True)
class AlignSettings:
    """The aligner's thresholds (docs/labels.md); they enter the signature."""

    min_support: int = 5
    min_share: float = 0.5

    def __post_init__(self) -> None:
        if self.min_support < 1:
            raise ValueError(f"min_support must be at least 1, got {self.min_support}")
        if not 0.0 <= self.min_share <= 1.0:
            raise ValueError(f"min_share must be in [0, 1], got {self.min_share}")


@dataclass(frozen=True, slots=True)
class CoCounts:
    """Label occurrences of A and B and their co-occurrences on the same spans, over a corpus."""

    occurrences_a: tuple[tuple[str, int], ...] = ()
    occurrences_b: tuple[tuple[str, int], ...] = ()
    pairs: tuple[tuple[str, str, int], ...] = ()  # (label of A, label of B, spans carrying both)
    sentences: int = 0
    skipped_mismatched: int = 0
    skipped_invalid: int = 0

    def flipped(self) -> CoCounts:
        """The same counts with A and B exchanged."""
        return CoCounts(
            self.occurrences_b,
            self.occurrences_a,
            tuple(sorted((b, a, n) for a, b, n in self.pairs)),
            self.sentences,
            self.skipped_mismatched,
            self.skipped_invalid,
        )


@dataclass(frozen=True, slots=True)
class Proposal:
    """What the aligner proposes for one label of A."""

    label: str
    occurrences: int
    best: str | None  # the B label with the most co-occurrences (None: never on a B-labeled span)
    support: int  # co(label, best)
    candidates: tuple[tuple[str, int], ...]  # B labels by co-occurrence count, highest first
    kept: bool

    @property
    def share(self) -> float:
        return ratio(self.support, self.occurrences)

    @property
    def target(self) -> str:
        """The label the map gives: ``best`` if kept, else the label itself."""
        return self.best if self.kept and self.best is not None else self.label

    def reason(self, settings: AlignSettings) -> str:
        """Why a proposal is not kept ('' if it is)."""
        if self.kept:
            return ""
        if self.best is None:
            return "never on a span labeled in B"
        if self.support < settings.min_support:
            return f"support {self.support} < {settings.min_support}"
        return f"share {self.share:.2f} < {settings.min_share:.2f}"


@dataclass(frozen=True)
class LabelAlignment:
    """The proposed map from A's labels onto B's, with its counts (docs/labels.md)."""

    source: str
    target: str
    proposals: tuple[Proposal, ...]  # one per label of A, most frequent first
    settings: AlignSettings
    sentences: int
    skipped_mismatched: int
    skipped_invalid: int
    coverage: float
    baseline: float
    occurrences: int
    signature: str = field(default="")

    @property
    def label_map(self) -> LabelMap:
        """The kept pairs that rename a label (``OLD=NEW``), most frequent first."""
        return LabelMap(tuple((p.label, p.target) for p in self.proposals if p.kept and p.target != p.label))

    @property
    def conflicts(self) -> tuple[Proposal, ...]:
        return tuple(p for p in self.proposals if not p.kept)


def span_pairs(a: SpanTree, b: SpanTree) -> Iterator[tuple[str, str | None]]:
    """Every label of A on every span, with each label of B on the same span (``None`` if B has no
    label there).  The full-sentence span is not among the items (docs/tedeval.md, "Multi-function trees (2012
    protocol)")."""
    b_spans = b.by_span
    for span, labels in a.items:
        others = b_spans.get(span, frozenset())
        for label in sorted(labels):
            if not others:
                yield label, None
            for other in sorted(others):
                yield label, other


def count_pairs(
    trees_a: Iterable[AnyTree],
    trees_b: Iterable[AnyTree],
    conv_a: ConversionConfig | None = None,
    conv_b: ConversionConfig | None = None,
    *,
    skip_mismatched: bool = False,
    names: tuple[str, str] = ("A", "B"),
) -> CoCounts:
    """Count label co-occurrences over sentences read in step (sentence ``i`` of A with sentence
    ``i`` of B).  Words must match (as in ``evalcore tedeval``): a difference is a
    :class:`MismatchError` naming the file, line and word, or, with ``skip_mismatched``, the
    sentence is skipped and counted.  Dependency trees that are not trees are skipped and counted."""
    conv_a = conv_a or conversion_config(TedevalSettings())
    conv_b = conv_a if conv_b is None else conv_b
    occ_a: Counter[str] = Counter()
    occ_b: Counter[str] = Counter()
    co: Counter[tuple[str, str]] = Counter()
    kept = mismatched = invalid = 0
    it_a, it_b = iter(trees_a), iter(trees_b)
    index = 0
    while True:
        ta, tb = next(it_a, None), next(it_b, None)
        if ta is None or tb is None:
            if ta is not None or tb is not None:
                longer, extra = (names[0], ta) if ta is not None else (names[1], tb)
                src = getattr(extra, "source", None)
                raise MismatchError(
                    f"'{longer}' has more sentences than the other file (sentence {index + 1} has no "
                    "counterpart)",
                    file=src.file if src is not None else longer,
                    line=src.line if src is not None else None,
                )
            break
        index += 1
        wa, wb = words_of(ta), words_of(tb)
        if wa != wb:
            if skip_mismatched:
                mismatched += 1
                continue
            k, got, want = first_difference(wb, wa)
            src = tb.source
            raise MismatchError(
                f"sentence {index}: word {k + 1} is '{got}' in '{names[1]}' but '{want}' in "
                f"'{names[0]}' (use --skip-mismatched to skip such sentences)",
                file=src.file if src else names[1],
                line=src.token_line(k) if src else None,
            )
        if any(isinstance(t, DepTree) and t.structure_problem() is not None for t in (ta, tb)):
            invalid += 1
            continue
        sa, sb = to_span_tree(ta, conv_a), to_span_tree(tb, conv_b)
        kept += 1
        for _, labels in sa.items:
            occ_a.update(labels)
        for _, labels in sb.items:
            occ_b.update(labels)
        co.update((x, y) for x, y in span_pairs(sa, sb) if y is not None)
    return CoCounts(
        _sorted_counts(occ_a),
        _sorted_counts(occ_b),
        tuple(sorted((a, b, n) for (a, b), n in co.items())),
        kept,
        mismatched,
        invalid,
    )


def _sorted_counts(counts: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def align(
    counts: CoCounts,
    settings: AlignSettings = AlignSettings(),
    *,
    source: str = "A",
    target: str = "B",
    conversion: ConversionConfig | None = None,
) -> LabelAlignment:
    """Propose the many-to-one map from A's labels onto B's (module docstring; docs/labels.md)."""
    conversion = conversion or conversion_config(TedevalSettings())
    by_a: dict[str, Counter[str]] = {}
    for a, b, n in counts.pairs:
        by_a.setdefault(a, Counter())[b] += n
    proposals: list[Proposal] = []
    covered = same = total = 0
    for label, occ in counts.occurrences_a:
        cands = by_a.get(label, Counter())
        ranked = tuple(sorted(cands.items(), key=lambda kv: (-kv[1], kv[0] != label, kv[0])))
        best, support = ranked[0] if ranked else (None, 0)
        kept = best is not None and support >= settings.min_support and support / occ >= settings.min_share
        p = Proposal(label, occ, best, support, ranked, kept)
        proposals.append(p)
        total += occ
        covered += cands.get(p.target, 0)
        same += cands.get(label, 0)
    signature = Signature.of(
        "labelalign",
        [
            ("support", settings.min_support),
            ("share", f"{settings.min_share:g}"),
            ("sep", conversion.function_separators),
            ("case", "fold" if conversion.fold_case else "keep"),
            *((("cat", True),) if conversion.category_labels else ()),
        ],
    )
    return LabelAlignment(
        source,
        target,
        tuple(proposals),
        settings,
        counts.sentences,
        counts.skipped_mismatched,
        counts.skipped_invalid,
        ratio(covered, total, empty=1.0),  # no label to cover: nothing is missed
        ratio(same, total, empty=1.0),
        total,
        str(signature),
    )


def align_files(
    path_a: InputSource,
    path_b: InputSource,
    settings: AlignSettings = AlignSettings(),
    conversion: ConversionConfig | None = None,
    *,
    direction: Direction = "a-b",
    names: tuple[str, str] = ("A", "B"),
    skip_mismatched: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    file_names: tuple[str | None, str | None] = (None, None),
) -> tuple[LabelAlignment, ...]:
    """Read two files (CoNLL-U/X or bracketed, in any mix; paths, or in-memory input named
    ``file_names`` in messages), count and align: A onto B, B onto A, or both (in that order)."""
    conversion = conversion or conversion_config(TedevalSettings())
    counts = count_pairs(
        read_trees(path_a, name=file_names[0], limits=limits),
        read_trees(path_b, name=file_names[1], limits=limits),
        conversion,
        skip_mismatched=skip_mismatched,
        names=(source_name(path_a, file_names[0]), source_name(path_b, file_names[1])),
    )
    out: list[LabelAlignment] = []
    if direction in ("a-b", "both"):
        out.append(align(counts, settings, source=names[0], target=names[1], conversion=conversion))
    if direction in ("b-a", "both"):
        out.append(align(counts.flipped(), settings, source=names[1], target=names[0], conversion=conversion))
    return tuple(out)
