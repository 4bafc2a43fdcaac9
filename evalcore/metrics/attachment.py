"""The attachment family: UAS, LAS, label accuracy, undirected, NED (docs/attachment.md, "The five numbers").

NED follows Schwartz et al. (ACL 2011, §5): a token counts as correct if its
system head is its gold head, a gold child of it (undirected), or its gold
grandparent.  ROOT is the grandparent of a token attached to the root word,
so an edge flip at the top of the tree is neutralized like any other.

Punctuation (decided on the *gold* token; only the counts change): docs/attachment.md,
"Punctuation" -- :func:`is_punct`, or NED.pl's tags with ``punct_tags="nedpl"`` (:data:`NEDPL_PUNCT`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal, get_args

from evalcore.display import Tabular
from evalcore.errors import EvalcoreError, MismatchError, TreeStructureError
from evalcore.metrics.base import add_fields, make_signature, ratio
from evalcore.patterns.match import Where
from evalcore.trees import DepTree, Token

__all__ = [
    "NEDPL_PUNCT",
    "AttachConfig",
    "AttachCounts",
    "AttachResult",
    "AttachScore",
    "TokenJudgement",
    "attach_corpus",
    "check_same_tokens",
    "is_nedpl_punct",
    "is_punct",
    "judge_tokens",
    "paired_sentences",
    "score",
    "sentence_counts",
]

PTB_PUNCT = frozenset({",", ".", ":", "``", "''", "-LRB-", "-RRB-"})

NEDPL_PUNCT = frozenset(
    {",", ".", ":", "#", "(", ")", "-LRB-", "-RRB-", "``", "''", "`'", "'`", "LS", "SYM", ""}
)
"""The tags NED.pl (the NED paper's script) takes for punctuation: its pattern
``([,.:#()]|-[LR]RB-|[`']{2}|LS|SYM||PUNCT)`` matched against the whole tag (the empty alternative
makes the empty tag punctuation too), and ``PUNCT``; NED.pl reads the tag from CoNLL's fifth
column (XPOS).  Unlike :data:`PTB_PUNCT` it has ``#``, ``SYM``, ``LS``, ``(`` and ``)``."""

PunctTags = Literal["ptb", "nedpl"]

NedReason = Literal["parent", "child", "grandparent"]


def is_punct(token: Token) -> bool:
    """UPOS ``PUNCT``, a PTB punctuation tag, or an SPMRL ``yy*`` tag (docs/attachment.md, "Punctuation")."""
    return any(tag == "PUNCT" or tag in PTB_PUNCT or tag.startswith("yy") for tag in (token.upos, token.xpos))


def is_nedpl_punct(token: Token) -> bool:
    """The XPOS is one NED.pl takes for punctuation (:data:`NEDPL_PUNCT`, or ``PUNCT``)."""
    return token.xpos in NEDPL_PUNCT or token.xpos == "PUNCT"


def _base(deprel: str) -> str:
    return deprel.split(":", 1)[0]


@dataclass(frozen=True, slots=True)
class AttachConfig:
    """Settings that change the numbers; all appear in :meth:`signature`."""

    no_punct: bool = False
    max_len: int | None = None
    deprel_base: bool = False
    skip_invalid: bool = True
    punct_tags: PunctTags = "ptb"  # which tags no_punct leaves out: is_punct, or NED.pl's (is_nedpl_punct)
    where: Where | None = None  # only the gold words a request covers (docs/patterns.md)

    def __post_init__(self) -> None:
        if self.punct_tags not in get_args(PunctTags):
            raise ValueError(
                f"punct_tags must be one of {', '.join(get_args(PunctTags))}, got {self.punct_tags!r}"
            )

    @property
    def is_punct(self) -> Callable[[Token], bool]:
        """The punctuation test of ``punct_tags``."""
        return is_nedpl_punct if self.punct_tags == "nedpl" else is_punct

    @property
    def punct_value(self) -> str:
        """The signature's ``punct`` value: ``yes`` (counted), ``no``, ``no-nedpl`` (NED.pl's tags out)."""
        if not self.no_punct:
            return "yes"
        return "no" if self.punct_tags == "ptb" else "no-nedpl"

    def signature(self) -> str:
        return make_signature(
            "attach",
            [
                ("punct", self.punct_value),
                ("maxlen", self.max_len),
                ("deprel", "base" if self.deprel_base else "full"),
                ("invalid", "skip" if self.skip_invalid else "strict"),
                *([("where", self.where.digest())] if self.where is not None else []),
            ],
        )


@dataclass(frozen=True, slots=True)
class TokenJudgement:
    """Why one token counts or not under each attachment metric."""

    index: int  # 1-based token id
    counted: bool  # False for punctuation under no_punct
    uas: bool
    las: bool
    label: bool
    undirected: bool
    ned: bool
    ned_reason: NedReason | None


@dataclass(frozen=True, slots=True)
class AttachCounts:
    """Per-sentence or corpus counts; add with ``+``."""

    tokens: int = 0
    uas: int = 0
    las: int = 0
    label: int = 0
    undirected: int = 0
    ned: int = 0
    sentences: int = 0
    skipped: int = 0
    excluded: int = 0  # sentences longer than max_len

    def __add__(self, other: AttachCounts) -> AttachCounts:
        return AttachCounts(**add_fields(self, other))


@dataclass(frozen=True, slots=True)
class AttachScore:
    uas: float
    las: float
    label: float
    undirected: float
    ned: float
    tokens: int
    sentences: int
    skipped: int
    excluded: int
    signature: str


def judge_tokens(
    gold: DepTree, system: DepTree, config: AttachConfig = AttachConfig()
) -> list[TokenJudgement]:
    """Per-token verdicts; the single source of every attachment count.  A token counts unless it is
    gold punctuation under ``no_punct``, or a gold word outside what ``config.where`` covers
    (docs/patterns.md, "Scores restricted to a construction")."""
    ghead = gold.heads
    out: list[TokenJudgement] = []
    punct = config.is_punct
    covered = config.where.covered(gold) if config.where is not None else None
    for g, s in zip(gold.tokens, system.tokens, strict=True):
        counted = not (config.no_punct and punct(g)) and (covered is None or g.id in covered)
        head_ok = s.head == g.head
        # equal labels have equal universal parts: the parts are cut only for labels that differ
        label_ok = g.deprel == s.deprel or (config.deprel_base and _base(g.deprel) == _base(s.deprel))
        reason: NedReason | None = None
        if head_ok:
            reason = "parent"
        elif s.head != 0 and ghead[s.head - 1] == g.id:
            reason = "child"
        elif g.head != 0 and ghead[g.head - 1] == s.head:
            reason = "grandparent"  # includes ROOT (0) as grandparent of the root word's dependents
        out.append(
            TokenJudgement(
                g.id,
                counted,
                head_ok,
                head_ok and label_ok,
                label_ok,
                reason in ("parent", "child"),
                reason is not None,
                reason,
            )
        )
    return out


def _kept_length(tree: DepTree, config: AttachConfig) -> int:
    if config.no_punct:
        punct = config.is_punct
        return sum(1 for t in tree.tokens if not punct(t))
    return len(tree.tokens)


def sentence_counts(gold: DepTree, system: DepTree, config: AttachConfig = AttachConfig()) -> AttachCounts:
    """Counts for one sentence pair (tokens must already be checked equal)."""
    if config.max_len is not None and _kept_length(gold, config) > config.max_len:
        return AttachCounts(excluded=1)
    tok = uas = las = lab = und = ned = 0
    for j in judge_tokens(gold, system, config):
        if not j.counted:
            continue
        tok += 1
        uas += j.uas
        las += j.las
        lab += j.label
        und += j.undirected
        ned += j.ned
    return AttachCounts(tok, uas, las, lab, und, ned, sentences=1)


def score(counts: AttachCounts, config: AttachConfig = AttachConfig()) -> AttachScore:
    """Micro-averaged scores over the tokens of the summed counts."""
    n = counts.tokens
    return AttachScore(
        ratio(counts.uas, n),
        ratio(counts.las, n),
        ratio(counts.label, n),
        ratio(counts.undirected, n),
        ratio(counts.ned, n),
        n,
        counts.sentences,
        counts.skipped,
        counts.excluded,
        config.signature(),
    )


def _where(tree: DepTree, index: int = -1) -> tuple[str | None, int | None]:
    if tree.source is None:
        return None, None
    return tree.source.file, tree.source.token_line(index) if index >= 0 else tree.source.line


def check_same_tokens(gold: DepTree, system: DepTree) -> None:
    """Raise :class:`MismatchError` naming the sentence and its first differing token.

    Forms are compared first, so a re-tokenized sentence is reported where it
    starts to differ; a sentence that is only longer in one file is reported
    at its first extra token, in the file that has it.
    """
    common = min(len(gold.tokens), len(system.tokens))
    for i in range(common):
        g, s = gold.tokens[i], system.tokens[i]
        if g.form != s.form:
            file, line = _where(system, i)
            gfile, gline = _where(gold, i)
            raise MismatchError(
                f"sentence '{gold.label}': token {g.id} is '{s.form}' in the system file "
                f"but '{g.form}' in the gold ({gfile}:{gline})",
                file=file,
                line=line,
            )
    if len(gold.tokens) != len(system.tokens):
        longer, which, shorter, other = (
            (system, "system", gold, "gold")
            if len(system.tokens) > common
            else (gold, "gold", system, "system")
        )
        extra = longer.tokens[common]
        file, line = _where(longer, common)
        ofile, oline = _where(shorter)
        raise MismatchError(
            f"sentence '{gold.label}': token {extra.id} '{extra.form}' of the {which} file has no "
            f"counterpart: the {other} sentence has {len(shorter.tokens)} tokens ({ofile}:{oline})",
            file=file,
            line=line,
        )


def paired_sentences(gold: Iterable[DepTree], system: Iterable[DepTree]) -> Iterator[tuple[DepTree, DepTree]]:
    """Zip two sentence streams, raising :class:`MismatchError` if their lengths differ."""
    gi, si = iter(gold), iter(system)
    count = 0
    while True:
        g = next(gi, None)
        s = next(si, None)
        if g is None and s is None:
            return
        count += 1
        if g is None or s is None:
            extra = s if g is None else g
            assert extra is not None  # both None returned above
            which, other = ("system", "gold") if g is None else ("gold", "system")
            file, line = _where(extra)
            raise MismatchError(
                f"the {which} file has more sentences: sentence {count} ('{extra.label}') "
                f"has no counterpart in the {other} file, which ends after {count - 1}",
                file=file,
                line=line,
            )
        yield g, s


MAX_WARNINGS = 1000
"""Skipped sentences named one by one in :attr:`AttachResult.warnings`; the others are counted."""


@dataclass(frozen=True, slots=True)
class AttachResult(Tabular):
    """Corpus score, per-sentence counts, and warnings about skipped sentences.

    ``per_sentence`` is empty when :func:`attach_corpus` was asked not to keep it.
    ``to_dict()`` / ``to_pandas()`` / the notebook table: :class:`evalcore.display.Tabular`.
    """

    score: AttachScore
    counts: AttachCounts
    per_sentence: tuple[tuple[str, AttachCounts], ...]
    warnings: tuple[str, ...]

    @property
    def signature(self) -> str:
        return self.score.signature


def _problem(tree: DepTree) -> TreeStructureError | None:
    """The first reason ``tree`` is not a tree, as an error naming FILE:LINE, or ``None``."""
    problem = tree.structure_problem()
    if problem is None:
        return None
    idx, msg = problem
    file, line = _where(tree, idx)
    return TreeStructureError(msg, file=file, line=line, sentence=tree.sent_id or None)


def _skip_warning(error: TreeStructureError) -> str:
    """``FILE:LINE: message (sentence ID skipped)`` -- one line, the sentence named once."""
    which = f"sentence {error.sentence}" if error.sentence else "sentence"
    return str(EvalcoreError(f"{error.message} ({which} skipped)", file=error.file, line=error.line))


def attach_corpus(
    gold: Iterable[DepTree],
    system: Iterable[DepTree],
    config: AttachConfig = AttachConfig(),
    *,
    per_sentence: bool = True,
    on_pair: Callable[[DepTree, DepTree], object] | None = None,
) -> AttachResult:
    """Score a corpus; streams, one sentence pair at a time.

    Sentences whose gold or system analysis is not a tree are skipped and
    counted (docs/decisions.md, "Sentences that are not trees: skipped and counted"), or raise with
    ``skip_invalid=False``.

    ``per_sentence=False`` keeps no per-sentence counts (``result.per_sentence``
    is empty), so memory does not grow with the corpus: warnings are kept for the
    first :data:`MAX_WARNINGS` skipped sentences, then one line says how many more.
    ``on_pair(gold, system)`` sees every pair that is scored (checked, not skipped), in the same
    pass (``evalcore attach --by`` sums its breakdowns there).
    """
    counts = AttachCounts()
    per: list[tuple[str, AttachCounts]] = []
    warnings: list[str] = []
    for index, (g, s) in enumerate(paired_sentences(gold, system), start=1):
        check_same_tokens(g, s)
        problem = _problem(g) or _problem(s)
        if problem is not None:
            if not config.skip_invalid:
                raise problem
            if len(warnings) < MAX_WARNINGS:
                warnings.append(_skip_warning(problem))
            c = AttachCounts(skipped=1)
        else:
            c = sentence_counts(g, s, config)
            if on_pair is not None:
                on_pair(g, s)
        if per_sentence:
            per.append((g.sent_id or str(index), c))
        counts = counts + c
    if counts.skipped > len(warnings):
        warnings.append(
            f"... and {counts.skipped - len(warnings)} more sentences skipped (not trees; not listed)"
        )
    return AttachResult(score(counts, config), counts, tuple(per), tuple(warnings))
