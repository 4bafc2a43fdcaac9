"""Joint segmentation + parsing evaluation: the scenario table of ACL 2012 (Tables 1–2; docs/lattice.md,
"Scenarios").

For one predicted file against gold: SEGEVAL (U/L) and token segmentation accuracy, lattice TedEval
(U/L), and the classic metric where it applies (docs/lattice.md, "The classic metric"; on *raw*
CoNLL-U input :func:`with_aligned_attachment`), in the scenario detected from the data (or stated).
Counts then score; a sentence whose analysis is not a tree is left out of TedEval and the classic
metric (``skipped``) but counts for SEGEVAL.  :func:`evaluate_stream` keeps one sentence pair in
memory; :func:`evaluate` scores a collected :class:`~evalcore.lattice.model.Pairing` the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from evalcore.choices import PROTOCOL_2012, Average, Protocol, Scenario
from evalcore.display import Tabular
from evalcore.errors import EvalcoreError
from evalcore.formats._io import InputSource
from evalcore.formats.prm import COLLINS
from evalcore.formats.ptb import PtbLine
from evalcore.lattice.model import Pairing, PairSource, ReadOptions, SentencePair, TagColumn
from evalcore.lattice.paths import check_path
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.metrics import attachment, parseval
from evalcore.metrics.base import make_signature
from evalcore.metrics.conll18 import evaluate_conll18
from evalcore.metrics.lattice_tedeval import (
    LatticeTedConfig,
    LatticeTedCounts,
    LatticeTedScore,
    SentenceLatticeTed,
    sentence_ted,
)
from evalcore.metrics.lattice_tedeval import score as ted_score
from evalcore.metrics.segeval import SegConfig, SegCounts, SegScore, sentence_counts
from evalcore.metrics.segeval import score as seg_score
from evalcore.significance import Interval
from evalcore.trees import Lattice

__all__ = [
    "ClassicScore",
    "JointConfig",
    "JointResult",
    "LatticeCheckSummary",
    "Scenario",
    "SentenceCheck",
    "SentenceJoint",
    "detect_scenario",
    "evaluate",
    "evaluate_stream",
    "with_aligned_attachment",
]


@dataclass(frozen=True, slots=True)
class JointConfig:
    """Settings of the joint evaluation; all in the signature."""

    tag_column: TagColumn = "cpos"
    protocol: Protocol = PROTOCOL_2012
    average: Average = "global"
    deprel_base: bool = False
    limits: Limits = field(default=DEFAULT_LIMITS, compare=False)  # resource limits: no number changes

    @property
    def read_options(self) -> ReadOptions:
        """The reading settings these scores assume (for :mod:`evalcore.lattice.reading`)."""
        return ReadOptions(self.tag_column, self.protocol, self.deprel_base, self.limits)

    @property
    def ted(self) -> LatticeTedConfig:
        return LatticeTedConfig(self.tag_column, self.protocol, self.average, self.deprel_base)

    @property
    def seg(self) -> SegConfig:
        return SegConfig(self.tag_column)

    def signature(self, align: str = "index") -> str:
        return make_signature(
            "lattice",
            [
                ("tag", self.tag_column),
                ("proto", self.protocol),
                ("deprel", "base" if self.deprel_base else "full"),
                ("avg", self.average),
                ("align", align),
            ],
        )


@dataclass(frozen=True, slots=True)
class SentenceCheck:
    """Whether the gold and the predicted paths lie in the ambiguity lattice (labeled / segments only)."""

    gold_inside: bool
    gold_inside_segments: bool
    pred_inside: bool
    pred_inside_segments: bool
    gold_tokens_outside: int
    gold_tokens_outside_segments: int
    tokens: int


@dataclass(frozen=True)
class SentenceJoint:
    """Everything computed for one sentence pair."""

    index: int
    sent_id: str
    seg: SegCounts
    ted_unlabeled: SentenceLatticeTed | None
    ted_labeled: SentenceLatticeTed | None
    skipped: str | None  # why TedEval was not computed
    # a side's analysis is not a tree (skipped and counted: docs/decisions.md,
    # "Sentences that are not trees: skipped and counted")
    invalid: bool
    where: str  # FILE:LINE of the sentence (of the offending token when invalid)
    check: SentenceCheck | None
    attach: attachment.AttachCounts | None
    parseval: parseval.ParsevalCounts | None


@dataclass(frozen=True, slots=True)
class ClassicScore:
    """The classic metric of the scenario table: attachment (UAS, LAS), PARSEVAL (labeled F1), or on
    raw dependency input the CoNLL 2018 scorer's aligned attachment (UAS, LAS F1; docs/lattice.md,
    "Scenarios")."""

    metric: Literal["attachment", "parseval", "aligned attachment"]
    unlabeled: float | None
    labeled: float
    signature: str


@dataclass(frozen=True, slots=True)
class LatticeCheckSummary:
    """How many gold / predicted analyses lie outside the ambiguity lattice (docs/lattice.md, "What is
    compared")."""

    sentences: int
    gold_outside: int
    gold_outside_segments: int
    pred_outside: int
    pred_outside_segments: int
    gold_tokens_outside: int
    gold_tokens_outside_segments: int
    tokens: int


@dataclass(frozen=True)
class JointResult(Tabular):
    """One row of the scenario table, with its sentences."""

    name: str
    scenario: Scenario
    detected: Scenario
    segeval: SegScore
    ted_unlabeled: LatticeTedScore | None
    ted_labeled: LatticeTedScore | None
    classic: ClassicScore | None
    sentences: tuple[SentenceJoint, ...]
    gold_sentences: int
    pred_sentences: int
    unaligned_gold: tuple[int, ...]
    unaligned_pred: tuple[int, ...]
    skipped: int
    lattice_check: LatticeCheckSummary | None
    signature: str
    pairs: int = 0  # sentence pairs scored (``sentences`` holds them all, or none when streamed)
    classic_note: str | None = None  # why the classic metric is N/A where it could have applied
    # --bootstrap: each score's percentile interval, and the samples, level and seed that made them
    intervals: tuple[tuple[str, Interval], ...] = field(default=(), repr=False)
    bootstrap: tuple[int, float, int] | None = field(default=None, repr=False)


def _same_segmentation(pair: SentencePair) -> bool:
    g, p = pair.gold.lexemes, pair.pred.lexemes
    if any(b.gold_tokens > 1 or b.pred_tokens > 1 for b in pair.blocks):
        return False
    return [(lx.token, lx.segment) for lx in g] == [(lx.token, lx.segment) for lx in p]


def detect_scenario(pairing: Pairing) -> Scenario:
    """*gold* if segments and tags equal gold everywhere, *predicted* if only segments, else *raw*."""
    same_tags = all(_same_tags(p) for p in pairing.pairs)
    unaligned = bool(pairing.unaligned_gold or pairing.unaligned_pred)
    return _scenario(unaligned, all(_same_segmentation(p) for p in pairing.pairs), same_tags)


def _same_tags(pair: SentencePair) -> bool:
    return [lx.tag for lx in pair.gold.lexemes] == [lx.tag for lx in pair.pred.lexemes]


def _scenario(unaligned: bool, same_segmentation: bool, same_tags: bool) -> Scenario:
    """The scenario of :func:`detect_scenario`, from what holds over all sentences."""
    if unaligned or not same_segmentation:
        return "raw"
    return "gold" if same_tags else "predicted"


def _check(pair: SentencePair, lattice: Lattice, tag_column: TagColumn) -> SentenceCheck:
    g = check_path(pair.gold.lexemes, lattice, tag_column)
    p = check_path(pair.pred.lexemes, lattice, tag_column)
    return SentenceCheck(
        g.inside,
        g.inside_segments,
        p.inside,
        p.inside_segments,
        len(g.outside),
        len(g.outside_segments),
        g.tokens,
    )


def _sentence(
    pair: SentencePair, config: JointConfig, classic: bool, lattice: Lattice | None
) -> SentenceJoint:
    g, p = pair.gold, pair.pred
    seg = sentence_counts(g.lexemes, p.lexemes, pair.blocks)
    skipped: str | None = None
    invalid = bool(g.problem or p.problem)
    ted_u = ted_l = None
    if g.tree is None or p.tree is None:
        if invalid:
            which = "gold" if g.problem else "predicted"
            skipped = f"{which} analysis is not a tree: {g.problem or p.problem}"
        elif g.tree is None and p.tree is None:
            skipped = "no tree on either side"
        else:
            skipped = "no gold tree" if g.tree is None else "no predicted tree"
    else:
        ted_u = sentence_ted(p.tree, g.tree, labeled=False, limits=config.limits)
        ted_l = sentence_ted(p.tree, g.tree, labeled=True, limits=config.limits)
    att = pv = None
    if classic and skipped is None:
        if g.dep is not None and p.dep is not None and g.dep.forms == p.dep.forms:
            att = attachment.sentence_counts(
                g.dep, p.dep, attachment.AttachConfig(deprel_base=config.deprel_base)
            )
        elif g.ptb is not None and p.ptb is not None:
            comp = parseval.compare_sentence(
                PtbLine(1, (g.ptb,)), PtbLine(1, (p.ptb,)), parseval.ParsevalConfig(COLLINS), pair.index
            )
            pv = comp.counts()
    check = _check(pair, lattice, config.tag_column) if lattice is not None else None
    sent_id = g.sent_id or p.sent_id
    where = p.where if p.problem and not g.problem else g.where
    return SentenceJoint(pair.index, sent_id, seg, ted_u, ted_l, skipped, invalid, where, check, att, pv)


def evaluate(
    pairing: Pairing,
    config: JointConfig = JointConfig(),
    *,
    name: str = "",
    scenario: Scenario | None = None,
    ambiguity: Sequence[Lattice] | None = None,
) -> JointResult:
    """Score one predicted file (already paired with gold) for the scenario table.

    ``ambiguity``: the MA lattices of the gold sentences (in gold order) to
    check that the gold and predicted paths lie in them (needs token ids).
    """
    lattice_of = None
    if ambiguity is not None:
        lattice_of = lambda index: ambiguity[index - 1] if index - 1 < len(ambiguity) else None  # noqa: E731
    tally = _Tally(config)
    for pair in pairing.pairs:
        tally.add(pair, lattice_of(pair.index) if lattice_of else None, keep=True)
    return tally.result(
        name,
        scenario,
        pairing.mode,
        pairing.gold_sentences,
        pairing.pred_sentences,
        pairing.unaligned_gold,
        pairing.unaligned_pred,
    )


def evaluate_stream(
    stream: PairSource,
    config: JointConfig = JointConfig(),
    *,
    name: str = "",
    scenario: Scenario | None = None,
    keep_sentences: bool = False,
    on_sentence: Callable[[SentenceJoint], None] | None = None,
) -> JointResult:
    """:func:`evaluate` on sentence pairs as they are read (a :class:`PairSource`, e.g.
    :class:`~evalcore.lattice.reading.PairStream`, which reads both files in step).

    Only the sums are kept (``sentences`` is empty unless ``keep_sentences``); ``on_sentence``
    sees every sentence as it is scored.  The stream's ambiguity lattices (``PairStream(...,
    ambiguity=...)``, read in step with the gold sentences) are the ones checked, the same that
    may have settled token boundaries.
    """
    tally = _Tally(config)
    for pair in stream:
        s = tally.add(pair, stream.ambiguity_at(pair.index), keep=keep_sentences)
        if on_sentence is not None:
            on_sentence(s)
    return tally.result(
        name,
        scenario,
        stream.mode,
        stream.gold_sentences,
        stream.pred_sentences,
        tuple(stream.unaligned_gold),
        tuple(stream.unaligned_pred),
    )


class _Tally:
    """Running sums of one prediction's sentences (local to one evaluation)."""

    def __init__(self, config: JointConfig) -> None:
        self.config = config
        self.seg = SegCounts()
        self.tu = LatticeTedCounts()
        self.tl = LatticeTedCounts()
        self.att = attachment.AttachCounts()
        self.pv = parseval.ParsevalCounts()
        self.any_tree = self.any_att = self.any_pv = False
        self.skipped = 0
        self.same_segmentation = True
        self.same_tags = True
        self.checks = [0] * 8
        self.kept: list[SentenceJoint] = []
        self.pairs = 0

    def add(self, pair: SentencePair, lattice: Lattice | None, *, keep: bool) -> SentenceJoint:
        if not all(lx.token is not None for lx in pair.gold.lexemes):
            lattice = None
        same = _same_segmentation(pair)
        self.same_segmentation = self.same_segmentation and same
        self.same_tags = self.same_tags and _same_tags(pair)
        # the classic metric needs the gold segmentation everywhere: counted while that holds
        s = _sentence(pair, self.config, self.same_segmentation, lattice)
        self.pairs += 1
        self.seg = self.seg + s.seg
        if s.ted_unlabeled is not None and s.ted_labeled is not None:
            self.any_tree = True
            self.tu = self.tu + s.ted_unlabeled.counts()
            self.tl = self.tl + s.ted_labeled.counts()
        elif s.invalid:
            self.skipped += 1
        if s.attach is not None:
            self.any_att = True
            self.att = self.att + s.attach
        if s.parseval is not None:
            self.any_pv = True
            self.pv = self.pv + s.parseval
        c = s.check
        if c is not None:
            values = (
                1,
                not c.gold_inside,
                not c.gold_inside_segments,
                not c.pred_inside,
                not c.pred_inside_segments,
                c.gold_tokens_outside,
                c.gold_tokens_outside_segments,
                c.tokens,
            )
            self.checks = [a + int(b) for a, b in zip(self.checks, values, strict=True)]
        if keep:
            self.kept.append(s)
        return s

    def result(
        self,
        name: str,
        scenario: Scenario | None,
        mode: Literal["index", "characters"],
        gold_sentences: int,
        pred_sentences: int,
        unaligned_gold: tuple[int, ...],
        unaligned_pred: tuple[int, ...],
    ) -> JointResult:
        config = self.config
        detected = _scenario(bool(unaligned_gold or unaligned_pred), self.same_segmentation, self.same_tags)
        classic_score: ClassicScore | None = None
        if detected != "raw" and self.any_att:
            a = attachment.score(self.att, attachment.AttachConfig(deprel_base=config.deprel_base))
            classic_score = ClassicScore("attachment", a.uas, a.las, a.signature)
        elif detected != "raw" and self.any_pv:
            sig = parseval.ParsevalConfig(COLLINS).signature()
            classic_score = ClassicScore("parseval", None, parseval.score(self.pv, sig).f1, sig)
        summary = LatticeCheckSummary(*self.checks) if self.checks[0] else None
        return JointResult(
            name,
            scenario or detected,
            detected,
            seg_score(self.seg, config.seg),
            ted_score(self.tu, config.ted, labeled=False) if self.any_tree else None,
            ted_score(self.tl, config.ted, labeled=True) if self.any_tree else None,
            classic_score,
            tuple(self.kept),
            gold_sentences,
            pred_sentences,
            unaligned_gold,
            unaligned_pred,
            self.skipped,
            summary,
            config.signature(mode),
            self.pairs,
        )


def with_aligned_attachment(
    result: JointResult,
    mode: Literal["index", "characters"],
    gold: InputSource,
    pred: InputSource,
    *,
    gold_name: str | None = None,
    pred_name: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    deprel_base: bool = True,
) -> JointResult:
    """The *raw* row of dependency input with its classic metric (docs/lattice.md, "The classic metric"): the
    CoNLL 2018 scorer's UAS and LAS F1 over a character alignment of the whole document
    (:func:`evalcore.metrics.conll18.evaluate_conll18`; DEPREL subtypes ignored, as the scorer
    does, unless ``deprel_base`` is false).  Only for two CoNLL files paired by characters
    (``mode``), whose text is the same; other rows are returned unchanged.  Where the scorer
    refuses the files (e.g. a sentence that is not a tree, which the scenario table only skips),
    the column stays N/A and ``classic_note`` says why.  Reads both files once more, streaming."""
    if result.detected != "raw" or mode != "characters" or result.classic is not None:
        return result
    try:
        r = evaluate_conll18(
            gold, pred, gold_name=gold_name, system_name=pred_name, limits=limits, deprel_base=deprel_base
        )
    except EvalcoreError as exc:
        return replace(
            result, classic_note=f"aligned attachment N/A: the CoNLL 2018 alignment refuses: {exc}"
        )
    classic = ClassicScore("aligned attachment", r.get("UAS").f1, r.get("LAS").f1, r.signature)
    return replace(result, classic=classic)
