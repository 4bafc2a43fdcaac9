"""The attachment family: UAS, LAS, label accuracy, undirected, NED (docs/attachment.md, "The five
numbers"), with bootstrap intervals and the paired test of a second system (docs/tedeval.md, "The
cross-scheme experiment and significance"); docs/architecture.md, "The registry of metric families".

Start-up: the metric's light module only (its ``Literal`` types); the rest when :func:`run` runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from evalcore.choices import Dialect, Labels, universal_labels
from evalcore.declare import InvalidSetting, check, declared, setting
from evalcore.display import Tabular
from evalcore.errors import EvalcoreError, MismatchError
from evalcore.families.common import Resampling, numbers, relation_labels
from evalcore.gcpause import paused_gc
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.metrics.attachment import AttachResult, PunctTags

if TYPE_CHECKING:
    from evalcore.formats._io import InputSource
    from evalcore.metrics.aligned import SentenceRecord
    from evalcore.metrics.attachment import AttachConfig
    from evalcore.metrics.breakdown import BreakdownResult
    from evalcore.metrics.conll18 import Conll18Result
    from evalcore.patterns import Where
    from evalcore.resampling import Intervals, PairedComparison
    from evalcore.trees import DepTree

OnPair = Callable[["DepTree", "DepTree"], object]

__all__ = [
    "NOT_ALIGNED",
    "AlignedOutcome",
    "AttachInputs",
    "AttachOutcome",
    "AttachSettings",
    "attach_config",
    "batch_values",
    "read_where",
    "run",
    "run_aligned",
    "run_any",
]


@dataclass(frozen=True)
class AttachSettings(Resampling):
    """``evalcore attach``'s settings: which tokens and sentences count, how labels compare, what is
    kept, and the resampling (bootstrap intervals, the paired test of two systems)."""

    no_punct: bool = setting(
        False, "leave gold punctuation tokens out of the counts", flag="--no-punct", link="nopunct"
    )
    punct_tags: PunctTags = setting(
        "ptb",
        "with --no-punct, which tokens are punctuation: ptb (default: UPOS PUNCT, the PTB tags "
        ", . : `` '' -LRB- -RRB-, SPMRL yy*) or nedpl (NED.pl's XPOS tags, which add # ( ) SYM LS: "
        "the NED paper's WSJ10 tables); signature punct:no-nedpl",
        flag="--punct-tags",
    )
    max_len: int | None = setting(
        None,
        "only sentences of at most N (counted) tokens",
        flag="--max-len",
        metavar="N",
        minimum=0,
        link="maxlen",
    )
    labels: Labels = relation_labels()
    strict: bool = setting(
        False,
        "fail (exit 2) on a sentence that is not a tree, instead of skipping and counting it",
        flag="--strict",
    )
    per_sentence: bool = setting(False, "also report every sentence's counts", flag="--per-sentence")
    where: str | None = setting(
        None,
        "only the gold words a pattern covers (docs/patterns.md, 'Scores restricted to a construction'): "
        "a request, e.g. 'pattern { H -[cop]-> X }', or the path of a file holding one; signature where:HASH",
        flag="--where",
        metavar="PATTERN",
    )


RESAMPLING = frozenset(d.name for d in declared(Resampling))
"""The settings :class:`AttachSettings` inherits from :class:`Resampling` (the command prints their
flags after its breakdowns')."""


@dataclass(frozen=True, slots=True)
class AttachInputs:
    """The gold, a system over the same tokens and, to compare two, a second one (a path, bytes or
    in-memory text, with the names used in messages)."""

    gold: InputSource
    system: InputSource
    system_b: InputSource | None = None
    gold_name: str | None = None
    system_name: str | None = None
    system_b_name: str | None = None
    names: tuple[str, str] = ("A", "B")  # the two systems in the paired test's report


@dataclass(frozen=True, slots=True)
class AttachOutcome(AttachResult):
    """The system's :class:`~evalcore.metrics.attachment.AttachResult` with what the resampling
    settings asked for: ``intervals`` (``bootstrap``), and with a second system its result
    (``system_b``) and each score's paired test (``comparison``, the systems named ``names``)."""

    intervals: Intervals | None = None
    system_b: AttachResult | None = None
    comparison: PairedComparison | None = None
    names: tuple[str, str] = ("A", "B")


def attach_config(
    settings: AttachSettings, dialect: Dialect, limits: Limits = DEFAULT_LIMITS
) -> AttachConfig:
    """The metric's configuration on a gold of ``dialect``
    (:func:`evalcore.formats.detect.conll_dialect`, which decides ``labels="auto"``; raises
    :class:`~evalcore.declare.InvalidSetting`: a negative ``max_len``, or ``punct_tags`` without
    ``no_punct``)."""
    from evalcore.metrics.attachment import AttachConfig

    check(settings, ("max_len",))
    if settings.punct_tags != "ptb" and not settings.no_punct:
        field = next(d for d in declared(AttachSettings) if d.name == "punct_tags")
        raise InvalidSetting(field, "says which tokens --no-punct leaves out: give --no-punct")
    return AttachConfig(
        no_punct=settings.no_punct,
        max_len=settings.max_len,
        deprel_base=universal_labels(settings.labels, dialect),
        skip_invalid=not settings.strict,
        punct_tags=settings.punct_tags,
        where=read_where(settings.where, limits) if settings.where is not None else None,
    )


def read_where(value: str, limits: Limits = DEFAULT_LIMITS) -> Where:
    """``--where``'s request: the text itself when it holds a ``{``, else the file it names, read
    as a pattern file is (:func:`evalcore.patterns.read_text`, bounded); raises
    :class:`~evalcore.errors.PatternError` with the file, or ``--where``, and the line.  Its search in
    each tree is bounded by ``limits.pattern_steps`` (docs/robustness.md, "Pattern searches")."""
    from evalcore.patterns import read_text, where

    if "{" in value:
        if len(value.encode("utf-8")) > limits.block_bytes:
            raise limits.error(
                "block_bytes", f"--where has more than {limits.block_bytes} bytes", file="--where"
            )
        return where(value, limits=limits)
    return where(read_text(value, limits), file=value, limits=limits)


def run(
    inputs: AttachInputs,
    settings: AttachSettings,
    limits: Limits = DEFAULT_LIMITS,
    *,
    on_pair: OnPair | None = None,
) -> AttachOutcome:
    """The attachment scores of ``inputs`` over the same tokens, streaming (one sentence pair in
    memory; every sentence's counts kept only for ``per_sentence``, ``bootstrap`` or a second
    system).  Raises ``ValueError`` for resampling settings out of range,
    :class:`~evalcore.declare.InvalidSetting` for the others, and
    :class:`~evalcore.errors.MismatchError` where a system's tokens differ from the gold's.
    ``on_pair(gold, system)`` sees every scored pair of the first system."""
    from evalcore.formats.conllu import read_conllu
    from evalcore.formats.detect import conll_dialect
    from evalcore.metrics.attachment import attach_corpus

    boot = settings.bootstrap_settings()
    paired = settings.paired_settings()
    config = attach_config(settings, conll_dialect(inputs.gold, inputs.gold_name, limits), limits)

    def score(system: InputSource, name: str | None, keep: bool, seen: OnPair | None = None) -> AttachResult:
        gold = read_conllu(inputs.gold, name=inputs.gold_name, on_invalid="keep", limits=limits)
        test = read_conllu(system, name=name, on_invalid="keep", limits=limits)
        return attach_corpus(gold, test, config, per_sentence=keep, on_pair=seen)

    keep = settings.per_sentence or boot is not None or inputs.system_b is not None
    a = score(inputs.system, inputs.system_name, keep, on_pair)
    b: AttachResult | None = None
    ivs: Intervals | None = None
    cmp: PairedComparison | None = None
    if inputs.system_b is not None:
        from evalcore.resampling import attach_pair_tables, compare

        b = score(inputs.system_b, inputs.system_b_name, True)
        ta, tb = attach_pair_tables([c for _, c in a.per_sentence], [c for _, c in b.per_sentence])
        cmp = compare(ta, tb, paired, boot)
    elif boot is not None:
        from evalcore.resampling import attach_table, intervals

        ivs = intervals(attach_table([c for _, c in a.per_sentence]), boot)
    values = {f.name: getattr(a, f.name) for f in fields(AttachResult)}
    if not settings.per_sentence:
        values["per_sentence"] = ()
    return AttachOutcome(**values, intervals=ivs, system_b=b, comparison=cmp, names=inputs.names)


def batch_values(result: AttachResult) -> tuple[tuple[str, float], ...]:
    """The named numbers of a batch table's rows: the five scores."""
    return numbers(result.score, "uas", "las", "label", "undirected", "ned")


NOT_ALIGNED = ("no_punct", "max_len")
"""The settings a character alignment cannot honour (they need a token-by-token pairing; the
alignment is always strict and honours ``labels``; ``where`` restricts its rows of words:
docs/patterns.md, "On a parse of raw text")."""


@dataclass(frozen=True, slots=True)
class AlignedOutcome(Tabular):
    """A system of another tokenization, scored on the CoNLL 2018 character alignment
    (docs/attachment.md, "Every analysis on aligned words"): the scorer's rows (``result``; per
    gold sentence in ``result.sentences`` when kept), why it was aligned (``difference``: where
    the tokens first differ), and what the settings asked for: the breakdowns and confusion, the
    per-gold-sentence records, the bootstrap intervals, a second system and the paired test."""

    result: Conll18Result
    difference: str
    breakdowns: BreakdownResult | None = None
    records: tuple[SentenceRecord, ...] = ()
    intervals: Intervals | None = None
    system_b: Conll18Result | None = None
    comparison: PairedComparison | None = None
    names: tuple[str, str] = ("A", "B")
    by: tuple[str, ...] = ()  # the breakdowns asked for (``--by``)
    confusion: bool = False  # the confusion table asked for (``--confusion``)
    deprel_base: bool = True  # relation labels compared by their universal part


def run_aligned(
    inputs: AttachInputs,
    settings: AttachSettings,
    limits: Limits = DEFAULT_LIMITS,
    *,
    by: tuple[str, ...] = (),
    confusion: bool = False,
    difference: MismatchError | None = None,
) -> AlignedOutcome:
    """Score ``inputs`` on the CoNLL 2018 character alignment (``align_words``, the one alignment):
    the breakdowns ``by`` and the ``confusion`` on aligned words, ``per_sentence`` records, the
    bootstrap's intervals, a second system's paired test.  Raises
    :class:`~evalcore.errors.EvalcoreError` for a setting of :data:`NOT_ALIGNED` (named where the
    tokens first ``difference``) and :class:`~evalcore.errors.MismatchError` where the texts differ."""
    given = [
        d.option.flag or d.name
        for d in declared(AttachSettings)
        if d.name in NOT_ALIGNED and getattr(settings, d.name) != d.default
    ]
    if settings.where is not None and (by or confusion):
        raise _refused(
            "--where restricts the scorer's rows on aligned words, not yet the breakdowns: give "
            "--by and --confusion without it, or a system over the gold's tokens",
            difference,
        )
    if given:
        raise _refused(
            f"{', '.join(given)} need the same tokens in both files, but the system's tokens "
            "differ from the gold's here (such a system is scored by character alignment, "
            "CoNLL 2018, which cannot honour them)",
            difference,
        )
    # the alignment keeps every word, and the analyses make acyclic values: the cyclic collector's
    # full passes would walk them all again and again (paused, then the caller's setting)
    with paused_gc():
        return _aligned(inputs, settings, limits, by, confusion, difference)


def _refused(message: str, difference: MismatchError | None) -> EvalcoreError:
    """What the aligned path cannot do, said where the tokens first ``difference``."""
    if difference is None:
        return EvalcoreError(message)
    return EvalcoreError(
        f"{message}; first difference: {difference.message}",
        file=difference.file,
        line=difference.line,
        sentence=difference.sentence,
    )


def _aligned(
    inputs: AttachInputs,
    settings: AttachSettings,
    limits: Limits,
    by: tuple[str, ...],
    confusion: bool,
    difference: MismatchError | None,
) -> AlignedOutcome:
    from evalcore.formats.detect import conll_dialect
    from evalcore.metrics.conll18 import align_words, evaluate_conll18

    boot = settings.bootstrap_settings()
    paired = settings.paired_settings()
    base = universal_labels(settings.labels, conll_dialect(inputs.gold, inputs.gold_name, limits))
    parts = None
    records: tuple[SentenceRecord, ...] = ()
    keep = boot is not None or inputs.system_b is not None
    where = read_where(settings.where, limits) if settings.where is not None else None
    # read_all=False: the first character that cannot be aligned ends it (not the scorer's order)
    if by or confusion or settings.per_sentence or where is not None:
        from evalcore.metrics.aligned import aligned_breakdowns, restrict, sentence_records

        alignment = align_words(
            inputs.gold, inputs.system, gold_name=inputs.gold_name, system_name=inputs.system_name,
            limits=limits, deprel_base=base, read_all=False,
        )  # fmt: skip
        if where is not None:  # the rows of words over the words it covers (docs/patterns.md)
            alignment = restrict(alignment, where, base)
        result = alignment.result
        if by or confusion:
            parts = aligned_breakdowns(alignment, by, base)
        if settings.per_sentence:
            records = sentence_records(alignment)
    else:
        result = evaluate_conll18(
            inputs.gold, inputs.system, gold_name=inputs.gold_name, system_name=inputs.system_name,
            limits=limits, deprel_base=base, per_sentence=keep, read_all=False,
        )  # fmt: skip
    ivs: Intervals | None = None
    b: Conll18Result | None = None
    cmp: PairedComparison | None = None
    if inputs.system_b is not None:
        from evalcore.resampling import compare, conll18_table

        if where is None:
            b = evaluate_conll18(
                inputs.gold, inputs.system_b, gold_name=inputs.gold_name, system_name=inputs.system_b_name,
                limits=limits, deprel_base=base, per_sentence=True, read_all=False,
            )  # fmt: skip
        else:
            from evalcore.metrics.aligned import restrict

            b = restrict(align_words(
                inputs.gold, inputs.system_b, gold_name=inputs.gold_name, system_name=inputs.system_b_name,
                limits=limits, deprel_base=base, read_all=False,
            ), where, base).result  # fmt: skip
        cmp = compare(conll18_table(result.sentences), conll18_table(b.sentences), paired, boot)
    elif boot is not None:
        from evalcore.resampling import conll18_table, intervals

        ivs = intervals(conll18_table(result.sentences), boot)
    why = "" if difference is None else str(difference)
    return AlignedOutcome(result, why, parts, records, ivs, b, cmp, inputs.names, by, confusion, base)


def run_any(
    inputs: AttachInputs,
    settings: AttachSettings,
    limits: Limits = DEFAULT_LIMITS,
    *,
    by: tuple[str, ...] = (),
    confusion: bool = False,
    on_pair: OnPair | None = None,
) -> AttachOutcome | AlignedOutcome:
    """The path choice of ``evalcore attach``, for every face: :func:`run` over the same tokens
    (streaming; ``on_pair`` sees each pair), and where a system's tokens differ from the gold's
    (a :class:`~evalcore.errors.MismatchError`) :func:`run_aligned` from the start, which says
    where they first differed.  A system whose text differs too raises the first difference."""
    try:
        return run(inputs, settings, limits, on_pair=on_pair)
    except MismatchError as first:
        try:
            return run_aligned(inputs, settings, limits, by=by, confusion=confusion, difference=first)
        except MismatchError as text:
            # not another tokenization of the same text: where the tokens first differ, and where
            # the characters do
            raise MismatchError(
                f"{first.message}; the text differs too (system file line {text.line}): "
                "no character alignment either",
                file=first.file,
                line=first.line,
                sentence=first.sentence,
            ) from None
