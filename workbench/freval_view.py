"""The FREVAL page's data: bracketed files and evalb parameter files read from bytes, FREVAL runs
(cached on file contents and settings) and the tables the page shows.

Files are read as ``evalcore freval`` reads them (:func:`evalcore.formats.ptb.read_ptb_sentences`,
layout detected per file: one sentence per line as evalb, or pretty-printed trees), so the numbers
on the page are the command line's.  Every run counts fragments of every size (no size limit): the
size limit of the curves and Table 1's limits are applied afterwards with
:meth:`~evalcore.metrics.freval.FrevalResult.rescore`, which does not recount.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import pandas as pd
import streamlit as st

from evalcore.errors import EvalcoreError
from evalcore.formats.prm import COLLINS, EvalbParams, read_prm
from evalcore.formats.ptb import PtbLine, read_ptb_sentences
from evalcore.metrics.freval import (
    FrevalConfig,
    FrevalResult,
    FrevalScore,
    f1_by_size_frame,
    freval_corpus,
    table1_frame,
)
from evalcore.metrics.parseval import ParsevalConfig
from workbench.datasets import ASSETS, DatasetSpec, FileSpec

__all__ = [
    "BUILTIN_PRM",
    "VARIANTS",
    "FrevalSettings",
    "Series",
    "TreeFile",
    "builtin_files",
    "counts_frame",
    "curves_frame",
    "params_of",
    "problems_frame",
    "run_series",
    "sentences",
    "summary_frame",
    "table1",
    "validate_prm",
    "validate_trees",
]

BUILTIN_PRM = "COLLINS.prm (built in)"

VARIANTS: dict[str, tuple[bool, bool]] = {
    # name -> (labels ignored, strict edges)
    "as set": (False, False),
    "labels ignored": (True, False),
    "edges checked (--strict)": (False, True),
}
"""Ways to score each parser file; every chosen one is a curve of its own."""


@dataclass(frozen=True)
class TreeFile:
    """A bracketed or parameter file in memory (built-in asset or upload)."""

    name: str
    data: bytes = b""

    @cached_property
    def digest(self) -> str:
        return hashlib.sha1(self.data, usedforsecurity=False).hexdigest()


def builtin_files(spec: DatasetSpec) -> tuple[TreeFile | None, list[TreeFile], list[TreeFile]]:
    """Gold, parser files and parameter files of a built-in constituency dataset."""
    gold = next((f for f in spec.files if f.role == "gold" and f.fmt == "ptb"), None)
    tests = [f for f in spec.files if f.role == "parse" and f.fmt == "ptb"]
    params = [f for f in spec.files if f.fmt == "prm"]

    def load(f: FileSpec) -> TreeFile:
        return TreeFile(f.name, (ASSETS / f.path).read_bytes())

    return (load(gold) if gold else None), [load(f) for f in tests], [load(f) for f in params]


@st.cache_resource(show_spinner=False, max_entries=64)
def _sentences(digest: str, name: str, _data: bytes) -> tuple[PtbLine, ...]:
    return tuple(read_ptb_sentences(_data, name=name, layout="auto"))


def sentences(f: TreeFile) -> tuple[PtbLine, ...]:
    """The file's sentences as evalb sees them (cached on content); raises EvalcoreError."""
    return _sentences(f.digest, f.name, f.data)


def validate_trees(name: str, data: bytes) -> str | None:
    """The reader's message if the file cannot be read as bracketed trees, else ``None``."""
    try:
        if not sentences(TreeFile(name, data)):
            return f"{name}: no sentence in this file"
    except EvalcoreError as exc:
        return str(exc)
    return None


@st.cache_resource(show_spinner=False, max_entries=32)
def _params(digest: str, name: str, _data: bytes) -> EvalbParams:
    return read_prm(_data, name=name)


def params_of(f: TreeFile | None) -> EvalbParams:
    """The parameter file's settings; ``None`` = evalb's COLLINS.prm (built in)."""
    return COLLINS if f is None else _params(f.digest, f.name, f.data)


def validate_prm(name: str, data: bytes) -> str | None:
    try:
        params_of(TreeFile(name, data))
    except EvalcoreError as exc:
        return str(exc)
    return None


@dataclass(frozen=True, slots=True)
class FrevalSettings:
    """The page's settings (the command line's options of the same names)."""

    unlabeled: bool = False  # --unlabeled
    cutoff_len: int | None = None  # --cutoff-len
    max_size: int | None = None  # --max-size: curves and headline numbers (Table 1 has its own limits)
    separators: str = "-="  # --function-separators
    drop_unlabeled_root: bool = False  # --drop-unlabeled-root (default: counted, as evalb does)
    max_error: int | None = None  # --max-error

    def config(self, params: EvalbParams, variant: str = "as set") -> FrevalConfig:
        """The FrevalConfig of a run (always without a size limit; see the module doc)."""
        no_labels, strict = VARIANTS[variant]
        p = params.with_overrides(
            labeled=False if (self.unlabeled or no_labels) else None, max_error=self.max_error
        )
        extraction = ParsevalConfig(
            params=p, function_separators=self.separators, drop_unlabeled_root=self.drop_unlabeled_root
        )
        return FrevalConfig(extraction=extraction, strict=strict, cutoff_len=self.cutoff_len)


@st.cache_resource(show_spinner=False, max_entries=128)
def _run(
    gold_digest: str, test_digest: str, key: str, _gold: TreeFile, _test: TreeFile, _config: FrevalConfig
) -> FrevalResult:
    return freval_corpus(sentences(_gold), sentences(_test), _config)


@dataclass(frozen=True)
class Series:
    """One curve: a parser file scored under one variant (or the error that stopped it)."""

    name: str
    file: str
    variant: str
    result: FrevalResult | None
    error: str | None = None

    def scored(self, max_size: int | None) -> FrevalScore:
        assert self.result is not None
        return self.result.rescore(max_size) if max_size is not None else self.result.score


def run_series(
    gold: TreeFile,
    tests: Sequence[TreeFile],
    params: EvalbParams,
    settings: FrevalSettings,
    variants: Sequence[str] = ("as set",),
) -> list[Series]:
    """FREVAL of every parser file under every variant against ``gold`` (cached)."""
    out: list[Series] = []
    chosen = [v for v in VARIANTS if v in variants] or ["as set"]
    for test in tests:
        for variant in chosen:
            name = test.name if variant == "as set" else f"{test.name} ({variant})"
            config = settings.config(params, variant)
            key = f"{config.signature()}|maxerr:{config.extraction.params.max_error}"
            try:
                result = _run(gold.digest, test.digest, key, gold, test, config)
            except EvalcoreError as exc:
                out.append(Series(name, test.name, variant, None, str(exc)))
                continue
            out.append(Series(name, test.name, variant, result))
    return out


def _ok(series: Sequence[Series]) -> list[Series]:
    return [s for s in series if s.result is not None]


def curves_frame(series: Sequence[Series], max_size: int | None, baseline: str | None = None) -> pd.DataFrame:
    """``parser, size, recall, precision, f1[, f1_minus_baseline]`` in percent (the paper's Figures 1–3)."""
    frame = f1_by_size_frame({s.name: s.scored(max_size) for s in _ok(series)}, baseline=baseline)
    for col in ("recall", "precision", "f1", "f1_minus_baseline"):
        if col in frame:
            frame[col] = 100 * frame[col]
    return frame


def table1(series: Sequence[Series]) -> pd.DataFrame:
    """The paper's Table 1 (FLR, FLP, F1 in percent for sizes 1, 1–15, 1–25, all), one row per curve."""
    results: Mapping[str, FrevalResult] = {s.name: s.result for s in _ok(series) if s.result is not None}
    return table1_frame(results)


def counts_frame(series: Sequence[Series], max_size: int | None) -> pd.DataFrame:
    """Per curve and size: matched, gold and test fragments and LR_s, LP_s, F1_s (percent)."""
    rows = []
    for s in _ok(series):
        for r in s.scored(max_size).per_size:
            rows.append(
                {
                    "parser": s.name,
                    "size": r.size,
                    "matched": r.matched,
                    "gold": r.gold,
                    "test": r.test,
                    "LR_s %": 100 * r.recall,
                    "LP_s %": 100 * r.precision,
                    "F1_s %": 100 * r.f1,
                }
            )
    return pd.DataFrame(
        rows, columns=["parser", "size", "matched", "gold", "test", "LR_s %", "LP_s %", "F1_s %"]
    )


def summary_frame(series: Sequence[Series], max_size: int | None) -> pd.DataFrame:
    """Per curve: FLR, FLP, F1 (percent) under the chosen size limit, sentence counts and the signature."""
    rows = []
    for s in _ok(series):
        sc = s.scored(max_size)
        rows.append(
            {
                "parser": s.name,
                "FLR %": 100 * sc.flr,
                "FLP %": 100 * sc.flp,
                "F1 %": 100 * sc.f1,
                "sizes": f"1-{sc.limit}",
                "sentences": sc.sentences,
                "valid": sc.valid,
                "errors": sc.errors,
                "skipped": sc.skipped,
                "signature": sc.signature,
            }
        )
    return pd.DataFrame(rows)


def problems_frame(s: Series) -> pd.DataFrame:
    """The error and skip sentences of one run (excluded from every count, as evalb does)."""
    assert s.result is not None
    rows = [
        {
            "sentence": c.index,
            "gold line": c.gold_line,
            "test line": c.test_line,
            "status": c.status,
            "why": c.message,
        }
        for c in s.result.comparisons
        if c.status != "ok"
    ]
    return pd.DataFrame(rows, columns=["sentence", "gold line", "test line", "status", "why"])
