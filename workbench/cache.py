"""Streamlit caches around evalcore: every key is file *content* (a SHA-1 digest) plus settings
(docs/app.md, "Speed"): files read once per content (``st.cache_resource``), corpus scores in chunks
behind a progress bar (``st.cache_data``), what comes from an upload in its session's own cache
(:class:`Cached`), uploads read under :func:`app_limits`.

Every function raises :class:`evalcore.errors.EvalcoreError` on bad input;
pages catch it and show ``str(error)`` (``FILE:LINE: message``).
"""

from __future__ import annotations

import functools
import hashlib
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, ParamSpec, TypeVar

import streamlit as st

from evalcore.errors import EvalcoreError, InputFormatError
from evalcore.families.attach import AttachSettings, attach_config
from evalcore.formats.conllu import read_conllu, write_conllu
from evalcore.formats.lattice import read_lattices, read_tokens
from evalcore.formats.ptb import read_ptb
from evalcore.limits import Limits
from evalcore.metrics.attachment import AttachCounts, AttachResult, attach_corpus, score
from evalcore.metrics.conll18 import Alignment, Conll18Result, align_words
from workbench.datasets import (
    ASSETS,
    Analysis,
    DatasetSpec,
    FileFormat,
    FileSpec,
    LoadedDataset,
    Pairing,
    assemble,
    first_difference,
    pair_trees,
    read_ptb_lines,
)

__all__ = [
    "CHUNK",
    "Cached",
    "CorpusAttach",
    "aligned",
    "app_limits",
    "builtin_digests",
    "cached",
    "conll18_scores",
    "corpus_attach",
    "digest",
    "fit",
    "in_chunks",
    "is_builtin",
    "load_builtin",
    "load_files",
    "read_file",
    "run_with_progress",
]

CHUNK = 250  # sentences per cached scoring chunk

T = TypeVar("T")


P = ParamSpec("P")
R = TypeVar("R")


@st.cache_resource(show_spinner=False)
def builtin_digests() -> frozenset[str]:
    """The content digests of every file that ships with the app (``assets/``): what every session
    may share."""
    return frozenset(digest(p.read_bytes()) for p in ASSETS.rglob("*") if p.is_file())


def is_builtin(digests: Iterable[str]) -> bool:
    """Every digest is a shipped file's (an empty list is: nothing of an upload)."""
    shipped = builtin_digests()
    return all(d in shipped for d in digests)


class Cached(Generic[P, R]):
    """One cached function, twice: a cache shared by every session for what is computed from
    shipped files only, and each session's own cache (``scope="session"``: Streamlit clears it
    when the session's connection closes) for what is computed from an upload.  ``by(*digests)``
    picks the cache from the content digests of the files the call reads, so a closed session's
    uploads leave nothing behind in a shared cache (three sessions that uploaded 10.8 MB each
    left 400 MB of trees there)."""

    def __init__(self, fn: Callable[P, R], shared: Callable[P, R], own: Callable[P, R]) -> None:
        self._fn, self._shared, self._own = fn, shared, own

    def by(self, *digests: str) -> Callable[P, R]:
        if is_builtin(digests):
            return self._shared
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        # outside a session (a test calling a view function bare) there is no session to keep it
        return self._own if get_script_run_ctx(suppress_warning=True) is not None else self._fn


def cached(kind: str, **options: Any) -> Callable[[Callable[P, R]], Cached[P, R]]:
    """``@cached("resource" | "data", max_entries=...)``: :class:`Cached` over ``st.cache_resource``
    or ``st.cache_data`` with ``options``."""
    maker: Any = st.cache_resource if kind == "resource" else st.cache_data

    def wrap(fn: Callable[P, R]) -> Cached[P, R]:
        return Cached(fn, maker(**options)(fn), maker(scope="session", **options)(fn))

    return wrap


def app_limits() -> Limits:
    """The resource limits of the app: the defaults, raised or lowered by ``EVALCORE_MAX_*``
    environment variables (``EVALCORE_SESSION_BYTES`` for the per-session budget).  A malformed
    variable is reported in the server's log and the defaults are used."""
    try:
        return Limits.from_env()
    except InputFormatError as exc:
        print(f"evalcore workbench: {exc}; using the default limits", file=sys.stderr)
        return Limits()


def digest(data: bytes) -> str:
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


@cached("resource", show_spinner=False, max_entries=64)
def _read(
    content_digest: str,
    fmt: FileFormat,
    name: str,
    per_line: bool,
    limits: str,
    _data: bytes,
    _limits: Limits,
) -> tuple[Any, ...]:
    """Read a file; keyed on its content digest, format, name (names appear in messages) and limits."""
    if fmt == "conllu":
        return tuple(read_conllu(_data, name=name, on_invalid="keep", limits=_limits))
    if fmt == "ptb" and per_line:
        return read_ptb_lines(_data, name, _limits)
    if fmt == "ptb":
        return tuple(read_ptb(_data, name=name, limits=_limits))
    if fmt == "lattice":
        return tuple(read_lattices(_data, name=name, limits=_limits))
    if fmt == "tokens":
        return tuple(read_tokens(_data, name=name, limits=_limits))
    # parameter files are kept as text for the FREVAL page
    return (_data.decode("utf-8", errors="replace"),)


def read_file(spec: FileSpec, data: bytes, *, name: str | None = None) -> Analysis:
    """Read one file into an :class:`Analysis` (cached on content).

    Messages name the file by ``name``, by default ``spec.path`` (the asset
    path of a built-in file, the file name of an upload).
    """
    d = digest(data)
    limits = app_limits()
    read = _read.by(d)
    trees = read(d, spec.fmt, name or spec.path, spec.per_line, repr(limits), data, limits)
    return Analysis(spec, d, trees, data)


def run_with_progress(
    label: str, steps: Sequence[tuple[str, Callable[[], T]]], *, show: bool = True
) -> list[T]:
    """Run ``steps`` in order, advancing a progress bar between them; the bar is removed at the end."""
    if not show or not steps:
        return [fn() for _, fn in steps]
    bar = st.progress(0.0, text=label)
    out: list[T] = []
    try:
        for k, (what, fn) in enumerate(steps):
            bar.progress(k / len(steps), text=f"{label}: {what} ({k + 1}/{len(steps)})")
            out.append(fn())
        bar.progress(1.0, text=f"{label}: done")
    finally:
        bar.empty()
    return out


def _seen() -> set[str]:
    seen = st.session_state.setdefault("_wb_seen", set())
    assert isinstance(seen, set)
    return seen


def in_chunks(
    label: str, n: int, size: int, done: str, run: Callable[[int, int], T], *, show: bool = True
) -> list[T]:
    """``run(a, b)`` over the sentences ``0..n`` in chunks of ``size``, behind a progress bar the
    first time this session asks for ``done`` (and ``show``)."""
    bounds = [(a, min(a + size, n)) for a in range(0, n, size)]
    steps = [(f"sentences {a + 1}-{b}", functools.partial(run, a, b)) for a, b in bounds]
    parts = run_with_progress(label, steps, show=show and done not in _seen())
    _seen().add(done)
    return parts


def load_files(spec: DatasetSpec, blobs: Sequence[tuple[FileSpec, bytes]]) -> LoadedDataset:
    """Read every file of a dataset, with a progress bar the first time this session sees them.

    A file that cannot be read becomes one line in ``errors``; the others load.
    """
    keys = [f"{digest(data)}:{f.fmt}:{f.name}" for f, data in blobs]
    fresh = any(k not in _seen() for k in keys)
    errors: list[str] = []

    def step(f: FileSpec, data: bytes) -> Callable[[], Analysis | None]:
        def run() -> Analysis | None:
            from evalcore.errors import EvalcoreError

            try:
                return read_file(f, data)
            except EvalcoreError as exc:
                errors.append(str(exc))
                return None

        return run

    results = run_with_progress(
        f"Reading {spec.title}", [(f.name, step(f, data)) for f, data in blobs], show=fresh
    )
    _seen().update(keys)
    return assemble(spec, [a for a in results if a is not None], errors, align=fit)


def load_builtin(spec: DatasetSpec) -> LoadedDataset:
    """A built-in dataset: files read from ``assets/`` (the same file is read once even if listed twice)."""
    cache: dict[str, bytes] = {}
    blobs: list[tuple[FileSpec, bytes]] = []
    for f in spec.files:
        if f.path not in cache:
            cache[f.path] = (ASSETS / f.path).read_bytes()
        blobs.append((f, cache[f.path]))
    return load_files(spec, blobs)


# ---------------------------------------------------------------------------
# corpus attachment scores


@cached("resource", show_spinner=False, max_entries=32)
def _pairing(
    gold_digest: str, system_digest: str, skip_mismatch: bool, _gold: Analysis, _system: Analysis
) -> Pairing:
    return pair_trees(_gold.dep_trees, _system.dep_trees, skip_mismatch=skip_mismatch)


@cached("data", show_spinner=False, max_entries=256)
def _attach_chunk(
    gold_digest: str,
    system_digest: str,
    skip_mismatch: bool,
    settings: AttachSettings,
    start: int,
    stop: int,
    _gold: Analysis,
    _system: Analysis,
) -> AttachResult:
    pairing = _pairing.by(gold_digest, system_digest)(
        gold_digest, system_digest, skip_mismatch, _gold, _system
    )
    chunk = pairing.pairs[start:stop]
    config = attach_config(settings, _gold.dialect)
    return attach_corpus([g for _, g, _ in chunk], [s for _, _, s in chunk], config)


@dataclass(frozen=True)
class CorpusAttach:
    """Corpus attachment result plus, per scored sentence, its position in the files."""

    result: AttachResult
    indices: tuple[int, ...]  # per_sentence[k] belongs to sentence indices[k]
    left_out: tuple[str, ...]  # sentences not compared (words differ), "id: reason"

    def by_index(self) -> dict[int, AttachCounts]:
        return {i: c for i, (_, c) in zip(self.indices, self.result.per_sentence, strict=True)}


def corpus_attach(gold: Analysis, system: Analysis, settings: AttachSettings) -> CorpusAttach:
    """Score ``system`` against ``gold`` over the corpus (cached per chunk on the frozen
    ``settings``), with a progress bar.

    Raises :class:`MismatchError` if the files do not pair (different sentence
    counts, or different words unless the system file allows skipping them), and
    :class:`~evalcore.declare.InvalidSetting` for settings out of range.
    """
    skip = system.spec.align == "skip-mismatch"
    config = attach_config(settings, gold.dialect)
    pairing = _pairing.by(gold.digest, system.digest)(gold.digest, system.digest, skip, gold, system)
    attach = _attach_chunk.by(gold.digest, system.digest)
    parts = in_chunks(
        f"Scoring {system.name} against {gold.name}",
        len(pairing.pairs),
        CHUNK,
        f"{gold.digest}:{system.digest}:{skip}:{settings}",
        lambda a, b: attach(gold.digest, system.digest, skip, settings, a, b, gold, system),
    )
    counts = AttachCounts()
    per: list[tuple[str, AttachCounts]] = []
    warnings: list[str] = []
    for part in parts:
        counts = counts + part.counts
        per.extend(part.per_sentence)
        warnings.extend(part.warnings)
    result = AttachResult(score(counts, config), counts, tuple(per), tuple(warnings))
    return CorpusAttach(result, tuple(i for i, _, _ in pairing.pairs), pairing.left_out)


# ---------------------------------------------------------------------------
# parses of the raw text: the CoNLL 2018 character alignment


@dataclass(frozen=True)
class _Aligned:
    """What :func:`align_words` gave (kept in the cache), or the error it raised."""

    alignment: Alignment | None
    error: EvalcoreError | None


@cached("resource", show_spinner=False, max_entries=32)
def _aligned(
    gold_digest: str, system_digest: str, gold_name: str, system_name: str, _gold: Analysis, _system: Analysis
) -> _Aligned:
    gold = _gold.data or write_conllu(_gold.dep_trees).encode("utf-8")
    system = _system.data or write_conllu(_system.dep_trees).encode("utf-8")
    try:
        alignment = align_words(
            gold, system, gold_name=gold_name, system_name=system_name, limits=app_limits()
        )
    except EvalcoreError as exc:
        return _Aligned(None, exc)
    return _Aligned(alignment, None)


def aligned(gold: Analysis, system: Analysis) -> Alignment:
    """The CoNLL 2018 character alignment of ``system`` to ``gold``, word by word
    (:func:`evalcore.metrics.conll18.align_words`, the one alignment: every view of a parse of the raw
    text reads it), cached on their contents.  Raises what the scorer raises (e.g.
    :class:`MismatchError` where the characters differ)."""
    out = _aligned.by(gold.digest, system.digest)(
        gold.digest, system.digest, gold.name, system.name, gold, system
    )
    if out.error is not None:
        raise out.error
    assert out.alignment is not None
    return out.alignment


def conll18_scores(gold: Analysis, system: Analysis) -> Conll18Result:
    """The CoNLL 2018 evaluation of ``system`` against ``gold`` (the scorer's rows of
    :func:`aligned`, with the counts of each gold sentence)."""
    return aligned(gold, system).result


@cached("resource", show_spinner=False, max_entries=64)
def _difference(gold_digest: str, system_digest: str, _gold: Analysis, _system: Analysis) -> str | None:
    return first_difference(_gold.dep_trees, _system.dep_trees)


def fit(gold: Analysis, system: Analysis) -> str | None:
    """``None`` when ``system`` has ``gold``'s words sentence by sentence; else where they first
    differ, once the characters are found to be the gold's (a parse of the raw text, scored by
    :func:`conll18_scores`).  Raises :class:`EvalcoreError` when they are not
    (:func:`workbench.datasets.assemble`'s ``align``)."""
    difference = _difference.by(gold.digest, system.digest)(gold.digest, system.digest, gold, system)
    if difference is not None:
        conll18_scores(gold, system)
    return difference
