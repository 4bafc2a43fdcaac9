"""The PARSEVAL family: evalb's bracket scores (docs/freval.md; Black et al. 1991, evalb's README),
declared once for every face (docs/architecture.md, "The registry of metric families").

Start-up: the metric is imported when :func:`run` runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from evalcore.declare import check, setting
from evalcore.families.common import Warn, numbers
from evalcore.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from evalcore.formats._io import InputSource
    from evalcore.formats.prm import EvalbParams
    from evalcore.metrics.parseval import ParsevalConfig, ParsevalResult, SentenceComparison, SentenceRow

__all__ = [
    "BracketInputs",
    "Extraction",
    "ParsevalSettings",
    "batch_values",
    "extraction_config",
    "run",
]

Layout = Literal["auto", "line", "tree"]
EvalbVersion = Literal["2006", "1997"]


@dataclass(frozen=True, slots=True)
class Extraction:
    """How bracketed files are read and their brackets extracted (evalb's parameter file and the
    options over it; docs/freval.md)."""

    prm: str | None = setting(
        None,
        "evalb parameter file (default: COLLINS.prm's settings)",
        flag="--prm",
        link="prm",
        metavar="FILE",
    )
    unlabeled: bool = setting(
        False, "unlabeled brackets (overrides LABELED)", flag="--unlabeled", link="unlabeled"
    )
    max_error: int | None = setting(
        None, "override MAX_ERROR (evalb's -e)", flag="--max-error", metavar="N", minimum=0, link="maxerror"
    )
    layout: Layout = setting(
        "auto",
        "line: one sentence per line as evalb reads (empty line = skip, bad line = error); "
        "tree: one sentence per tree, any line breaks; auto (default): line if a file's first tree "
        "ends on its first line",
        flag="--input",
    )
    drop_unlabeled_root: bool = setting(
        False,
        "delete the outer unlabeled bracket of '( (S ...) )' like ROOT and TOP (default: it is a "
        "bracket with the empty label and counts, as in evalb and the FREVAL tool: one more matched "
        "bracket per valid sentence when both files have it)",
        flag="--drop-unlabeled-root",
        link="droproot",
        negation=(
            "--keep-unlabeled-root",
            "the default (count the outer unlabeled bracket); accepted so that older scripts keep working",
        ),
    )
    delete_root: bool = setting(
        False,
        "delete brackets labeled ROOT or TOP (as the FREVAL paper did; Stanford and Berkeley parsers "
        "and GUM write (ROOT ...)) whatever the parameter file says (default: only its DELETE_LABEL "
        "labels, as evalb: COLLINS.prm deletes TOP, not ROOT); the signature says root:delete",
        flag="--delete-root",
        link="deleteroot",
    )
    function_separators: str = setting(
        "-=",
        "a label is cut at the first of these characters (evalb: '-='; for FarPaHC's NP*SBJ write "
        "--function-separators='-=*')",
        flag="--function-separators",
        metavar="CHARS",
        link="funcsep",
    )


@dataclass(frozen=True, slots=True)
class ParsevalSettings(Extraction):
    """``evalcore parseval``'s settings: the extraction, evalb's length cutoff, the report's
    layout, and (API only) whether every sentence's comparison is kept."""

    cutoff_len: int | None = setting(
        None, "override CUTOFF_LEN (evalb's -c)", flag="--cutoff-len", metavar="N", minimum=0
    )
    evalb_version: EvalbVersion = setting(
        "2006",
        "report layout: 2006 (current evalb, with the F-measure line) or 1997 (evalb's sample.rsl)",
        flag="--evalb-version",
        api=None,
    )
    keep_sentences: bool = setting(
        False,
        "keep every sentence's comparison, its brackets and their matching (False: only the error "
        "and skip sentences, and the files are counted on the count-only path, about 5 times faster)",
    )


@dataclass(frozen=True, slots=True)
class BracketInputs:
    """A gold file and a parser's output over the same sentences (a path, bytes or in-memory
    text, with the names used in messages)."""

    gold: InputSource
    test: InputSource
    gold_name: str | None = None
    test_name: str | None = None


def extraction_config(
    extraction: Extraction,
    limits: Limits = DEFAULT_LIMITS,
    on_warning: Warn | None = None,
    *,
    cutoff_len: int | None = None,
    collapse_unary: bool = False,
    params: EvalbParams | None = None,
) -> ParsevalConfig:
    """The metric's configuration: the parameter file (``params`` if already read, else
    ``extraction.prm``'s, default COLLINS.prm's settings; its warnings given to ``on_warning``)
    with the overrides."""
    from evalcore.formats.prm import COLLINS, read_prm
    from evalcore.metrics.parseval import ParsevalConfig

    if params is None:
        params = read_prm(extraction.prm, limits=limits) if extraction.prm is not None else COLLINS
    for w in params.warnings:
        if on_warning is not None:
            on_warning(w)
    params = params.with_overrides(
        labeled=False if extraction.unlabeled else None, cutoff_len=cutoff_len, max_error=extraction.max_error
    )
    return ParsevalConfig(
        params=params,
        function_separators=extraction.function_separators,
        drop_unlabeled_root=extraction.drop_unlabeled_root,
        collapse_unary=collapse_unary,
        delete_root=extraction.delete_root,
    )


def run(
    inputs: BracketInputs,
    settings: ParsevalSettings,
    limits: Limits = DEFAULT_LIMITS,
    *,
    on_warning: Warn | None = None,
    on_row: Callable[[SentenceRow], None] | None = None,
    on_sentence: Callable[[SentenceComparison], None] | None = None,
    keep_rows: bool = False,
) -> ParsevalResult:
    """evalb's PARSEVAL of ``inputs`` (raises :class:`~evalcore.declare.InvalidSetting`).

    Unless every sentence's comparison is to be kept, two files in evalb's line layout are
    counted on the count-only path (brackets as tuples, docs/freval.md), which computes the same
    numbers and messages as the comparison of readings; ``on_row`` sees each sentence's numbers
    there, ``on_sentence`` each comparison on the other paths.  ``keep_rows``: the result keeps
    every sentence's numbers (``rows``, the lines of evalb's report) on every path."""
    if keep_rows and not settings.keep_sentences:
        from evalcore.metrics.parseval import row_of

        kept: list[SentenceRow] = []

        def row(r: SentenceRow) -> None:
            kept.append(r)
            if on_row is not None:
                on_row(r)

        def sentence(s: SentenceComparison) -> None:
            kept.append(row_of(s))
            if on_sentence is not None:
                on_sentence(s)

        result = run(inputs, settings, limits, on_warning=on_warning, on_row=row, on_sentence=sentence)
        return dataclasses.replace(result, rows=tuple(kept))
    from evalcore.formats._io import iter_lines, source_name
    from evalcore.formats.evalb import read_evalb_sentences
    from evalcore.formats.ptb import detect_layout, read_ptb_sentences
    from evalcore.metrics.parseval import parseval_corpus, parseval_lines, parseval_rows, rows_supported

    check(settings, ("cutoff_len", "max_error"))
    config = extraction_config(settings, limits, on_warning, cutoff_len=settings.cutoff_len)
    gname, tname = source_name(inputs.gold, inputs.gold_name), source_name(inputs.test, inputs.test_name)

    def layout(source: InputSource, name: str) -> str:
        chosen: str = settings.layout
        return detect_layout(source, name=name, limits=limits) if chosen == "auto" else chosen

    if settings.keep_sentences:
        return parseval_corpus(
            read_ptb_sentences(inputs.gold, name=gname, layout=settings.layout, limits=limits),
            read_ptb_sentences(inputs.test, name=tname, layout=settings.layout, limits=limits),
            config,
            on_sentence=on_sentence,
        )
    if rows_supported(config) and layout(inputs.gold, gname) == layout(inputs.test, tname) == "line":
        return parseval_rows(
            iter_lines(inputs.gold, gname, limits),
            iter_lines(inputs.test, tname, limits),
            config,
            names=(gname, tname),
            limits=limits,
            on_row=on_row,
        )
    params = config.params
    gold = read_evalb_sentences(inputs.gold, params, name=gname, layout=settings.layout, limits=limits)
    test = read_evalb_sentences(inputs.test, params, name=tname, layout=settings.layout, limits=limits)
    return parseval_lines(gold, test, config, keep_sentences=False, on_sentence=on_sentence)


def batch_values(result: ParsevalResult) -> tuple[tuple[str, float], ...]:
    """The named numbers of a batch table's rows: evalb's ``-- All --`` scores."""
    names = ("recall", "precision", "f1", "complete_match", "average_crossing", "tagging_accuracy")
    return numbers(result.all, *names)
