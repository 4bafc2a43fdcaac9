"""A shared task from a manifest: every gold × system × metric, and the paired tests (docs/batch.md).

:func:`read_manifest` checks the manifest whole, :func:`plan` turns it into independent *score jobs*
(one per gold × system × metric; one per gold for ``tedeval``), :func:`run_batch` runs them, then the
*pair jobs* of the paired tests, through a ``map`` function (in this process, on local processes or
on Dask: docs/batch.md), after :func:`check_files` has read every file up to its first sentence.
A parse of raw text (its tokens differ from the gold's) is scored as the CoNLL 2018 shared task
scores it (``conll18``: the character alignment of :func:`evalcore.metrics.conll18.evaluate_conll18`,
Zeman et al. 2018, §2), with bootstrap intervals (docs/batch.md, "Parses of raw text").
Writers: :mod:`evalcore.report.batch`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Literal, TypeAlias, TypeVar

from evalcore.declare import accepted, from_mapping
from evalcore.errors import EvalcoreError, InputFormatError, LimitError, MismatchError, one_line
from evalcore.families import attach as attach_family
from evalcore.families import freval as freval_family
from evalcore.families import parseval as parseval_family
from evalcore.families import tedeval as tedeval_family
from evalcore.formats.conllu import read_conllu
from evalcore.formats.detect import read_trees
from evalcore.formats.prm import read_prm
from evalcore.formats.ptb import read_ptb_sentences
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.registry import FAMILIES
from evalcore.resampling import (
    BootstrapSettings,
    PairedTestSettings,
    attach_pair_tables,
    compare,
    conll18_table,
    freval_limit,
    freval_table,
    intervals,
)

if TYPE_CHECKING:  # the metrics are imported by the jobs that run them (a batch of one metric
    # imports only that one)
    from evalcore.metrics.attachment import AttachCounts
    from evalcore.metrics.conll18 import Conll18Counts
    from evalcore.metrics.freval import FrevalCounts

__all__ = [
    "ELSEWHERE",
    "METRICS",
    "BatchOutcome",
    "BatchRow",
    "GoldEntry",
    "JobFailure",
    "Manifest",
    "PairJob",
    "ScoreJob",
    "SystemEntry",
    "check_files",
    "plan",
    "read_manifest",
    "run_batch",
    "run_batch_outcome",
    "run_pair_job",
    "run_pair_job_kept",
    "run_score_job",
    "run_score_job_kept",
]

Metric = Literal["attach", "conll18", "parseval", "freval", "tedeval"]
METRICS: tuple[Metric, ...] = ("attach", "conll18", "parseval", "freval", "tedeval")
PAIRED: tuple[Metric, ...] = ("attach", "conll18", "freval")
"""The metrics whose score jobs return per-sentence counts, tested pair by pair in the second round."""

MAX_SYSTEMS = 200
"""Systems of one gold: the pairs grow as its square (200 systems: 19,900 paired tests)."""

_GOLD_KEYS = frozenset({"name", "file", "metrics", "systems", "prm"}) | {
    f.name for f in FAMILIES if f.settings is not None and f.name in METRICS
}
_SETTINGS_KEYS = ("shuffles", "seed", "bootstrap", "level")
ELSEWHERE: dict[str, frozenset[str]] = {
    # the paired tests take the manifest's [settings] (one test for every metric), and the
    # table's rows have no intervals (no bootstrap) and no sentences
    "attach": attach_family.RESAMPLING | {"per_sentence"},
    "freval": frozenset({"bootstrap", "level", "shuffles", "seed"}),
    # label maps' files would be named relative to the current folder, not the manifest's
    "tedeval": frozenset({"labels_map"}),
}
"""Settings of a family that its ``[gold.FAMILY]`` table does not take, by family."""
S = TypeVar("S")
E = TypeVar("E", parseval_family.ParsevalSettings, freval_family.FrevalSettings)


@dataclass(frozen=True, slots=True)
class SystemEntry:
    name: str
    path: str
    line: int  # of the manifest


@dataclass(frozen=True, slots=True)
class GoldEntry:
    name: str
    path: str
    line: int
    systems: tuple[SystemEntry, ...]
    metrics: tuple[Metric, ...]
    prm: str | None = None  # an evalb parameter file for parseval and freval (default: COLLINS.prm)
    settings: tuple[object, ...] = ()  # the [gold.FAMILY] tables: a family's settings value each

    def settings_of(self, cls: type[S]) -> S:
        """This gold's settings of a family (its ``[gold.FAMILY]`` table, else the defaults)."""
        return next((s for s in self.settings if isinstance(s, cls)), None) or cls()


@dataclass(frozen=True, slots=True)
class Manifest:
    path: str
    golds: tuple[GoldEntry, ...]
    paired: PairedTestSettings = field(default_factory=PairedTestSettings)
    bootstrap: BootstrapSettings = field(default_factory=BootstrapSettings)  # conll18's intervals


@dataclass(frozen=True, slots=True)
class BatchRow:
    """One number of the table: a score of ``system`` (``other`` empty), or the p-value of the
    paired test of ``score`` between ``system`` and ``other`` (``kind`` ``"p"``); ``low`` and
    ``high`` bound a score's bootstrap interval (``conll18``; ``None`` for the others)."""

    gold: str
    system: str
    other: str
    metric: Metric
    score: str
    kind: Literal["score", "p"]
    value: float
    signature: str
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class JobFailure:
    """A job that failed (``keep_going``): its gold, metric and systems, and its one-line error."""

    gold: str
    metric: Metric
    systems: tuple[str, ...]
    message: str


@dataclass(frozen=True, slots=True)
class BatchOutcome:
    """The rows of every job that finished, in manifest order, and the jobs that failed."""

    rows: tuple[BatchRow, ...]
    failures: tuple[JobFailure, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoreJob:
    """One gold × system × metric (``tedeval``: one gold, every system)."""

    gold: GoldEntry
    metric: Metric
    systems: tuple[SystemEntry, ...]
    limits: Limits
    paired: PairedTestSettings
    bootstrap: BootstrapSettings = field(default_factory=BootstrapSettings)


Counts: TypeAlias = "tuple[AttachCounts, ...] | tuple[FrevalCounts, ...] | tuple[Conll18Counts, ...]"


@dataclass(frozen=True, slots=True)
class ScoreOutput:
    """A score job's rows, and its per-sentence counts for the pair jobs (empty when not paired).

    ``aligned``: an ``attach`` job whose system's tokens differ from the gold's, scored as
    ``conll18`` instead; ``signature``: the one the pair jobs sign (the rows' without the
    bootstrap's settings; empty: the first row's)."""

    rows: tuple[BatchRow, ...]
    counts: Counts = ()
    aligned: bool = False
    signature: str = ""


@dataclass(frozen=True, slots=True)
class PairJob:
    gold: GoldEntry
    metric: Metric
    a: str
    b: str
    counts_a: Counts
    counts_b: Counts
    signature: str
    paired: PairedTestSettings
    scores: tuple[str, ...]  # the scores the table shows (FREVAL's per-size ones are left out)


# --- the manifest ------------------------------------------------------------------------------


def _fail(path: str, line: int | None, message: str) -> InputFormatError:
    return InputFormatError(message, file=path, line=line)


class _Lines:
    """Where things are in the manifest's text (tomllib gives values, not their lines)."""

    _GOLD = re.compile(r"^\s*\[\[\s*gold\s*\]\]")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.golds = [i + 1 for i, s in enumerate(self.lines) if self._GOLD.match(s)]

    def block(self, index: int) -> tuple[int, int]:
        """First and last line of the ``index``-th ``[[gold]]`` (1-based, inclusive)."""
        if index >= len(self.golds):
            return 1, len(self.lines)
        end = self.golds[index + 1] - 1 if index + 1 < len(self.golds) else len(self.lines)
        return self.golds[index], end

    def key(self, name: str, index: int | None = None) -> int | None:
        """The line of the key ``name`` (bare or quoted) of the ``index``-th gold, or anywhere."""
        pattern = re.compile(rf"""^\s*(["']?){re.escape(name)}\1\s*=""")
        return self._first(lambda line: pattern.match(line) is not None, index)

    def find(self, needle: str, index: int | None = None) -> int | None:
        """The first line (of the ``index``-th gold, or anywhere) holding ``needle``."""
        return self._first(lambda line: needle in line, index)

    def _first(self, holds: Callable[[str], bool], index: int | None) -> int | None:
        """The first line of the ``index``-th gold (or anywhere) that ``holds``; else the gold's
        first line (``None`` anywhere)."""
        first, last = (1, len(self.lines)) if index is None else self.block(index)
        found = (n for n in range(first, last + 1) if holds(self.lines[n - 1]))
        return next(found, None if index is None else first)


def _read_bytes(f: BinaryIO, most: int) -> bytes:
    """At most ``most`` bytes of ``f``, read a MiB at a time (``f.read(most)`` would ask for a
    buffer of ``most`` bytes at once: 1 GiB with the default limit, more than a capped process has)."""
    chunks: list[bytes] = []
    total = 0
    while total < most:
        chunk = f.read(min(1 << 20, most - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _read_text(path: str, limits: Limits) -> str:
    try:
        with open(path, "rb") as f:
            raw = _read_bytes(f, limits.input_bytes + 1)
    except OSError as exc:
        raise _fail(path, None, f"cannot read the manifest: {exc.strerror or exc}") from None
    if len(raw) > limits.input_bytes:
        raise LimitError(
            f"manifest has more than {limits.input_bytes} bytes (limit {limits.input_bytes}; "
            "raise with --max-input-bytes or EVALCORE_MAX_INPUT_BYTES)",
            limit="input_bytes",
            file=path,
            line=None,
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _fail(path, line, "the manifest is not UTF-8") from None


def _deepest_line(text: str) -> int:
    """The line where ``[`` and ``{`` are nested deepest (strings not told apart: a hint)."""
    depth = deepest = 0
    line = where = 1
    for char in text:
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, line
        elif char in "]}":
            depth -= 1
        elif char == "\n":
            line += 1
    return where


def _toml(path: str, text: str) -> dict[str, object]:
    try:
        return tomllib.loads(text)
    except RecursionError:  # tomllib recurses once per level of nesting
        raise _fail(
            path, _deepest_line(text), "not a TOML manifest: arrays or tables nested too deeply"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "not valid TOML"
        at_end = re.search(r"\(at end of document\)", str(exc))
        line = int(found.group(1)) if found else (len(text.splitlines()) if at_end else None)
        raise _fail(
            path, line, f"not a TOML manifest: {message.replace('(at end of document)', '')}"
        ) from None


def _string(value: object, path: str, line: int | None, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(path, line, f"{what} must be a non-empty string")
    return value


def _file(value: object, base: Path, path: str, line: int | None, what: str) -> str:
    name = _string(value, path, line, what)
    real = Path(name) if Path(name).is_absolute() else base / name
    if not real.is_file():
        raise _fail(path, line, f"{what} {name!r}: no such file")
    return str(real)


def _settings(raw: object, lines: _Lines, path: str) -> tuple[PairedTestSettings, BootstrapSettings]:
    """The ``[settings]`` table: the paired tests' trials and seed, the bootstrap's resamples and
    level (its seed is the tests')."""
    if raw is None:
        return PairedTestSettings(), BootstrapSettings()
    where = lines.find("[settings]")
    if not isinstance(raw, dict):
        raise _fail(path, where, "settings must be a table")
    for key in raw:
        if key not in _SETTINGS_KEYS:
            raise _fail(
                path, lines.key(key) or where, f"unknown setting {key!r} ({', '.join(_SETTINGS_KEYS)})"
            )
    values: dict[str, int] = {}
    for key in ("shuffles", "seed", "bootstrap"):
        value = raw.get(key)
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < (0 if key == "seed" else 1):
            what = "a non-negative" if key == "seed" else "a positive"
            raise _fail(path, lines.key(key) or where, f"{key} must be {what} integer")
        values[key] = value
    level = raw.get("level", BootstrapSettings().level)
    if isinstance(level, bool) or not isinstance(level, int | float) or not 0 < level < 1:
        raise _fail(path, lines.key("level") or where, "level must be a number between 0 and 1")
    paired = PairedTestSettings(
        values.get("shuffles", PairedTestSettings().shuffles), values.get("seed", PairedTestSettings().seed)
    )
    return paired, BootstrapSettings(values.get("bootstrap", BootstrapSettings().samples), level, paired.seed)


def _metrics(raw: object, path: str, line: int | None) -> tuple[Metric, ...]:
    if not isinstance(raw, list) or not raw:
        raise _fail(path, line, f"metrics must be a non-empty list of {', '.join(METRICS)}")
    out: list[Metric] = []
    for item in raw:
        metric = next((m for m in METRICS if m == item), None)
        if metric is None:
            raise _fail(path, line, f"unknown metric {item!r} (choose from {', '.join(METRICS)})")
        if metric in out:
            raise _fail(path, line, f"metric {metric!r} listed twice")
        out.append(metric)
    return tuple(out)


def _gold(
    raw: object, index: int, lines: _Lines, base: Path, path: str, paired: PairedTestSettings
) -> GoldEntry:
    first, _ = lines.block(index)
    if not isinstance(raw, dict):
        raise _fail(path, first, "each [[gold]] must be a table")
    for key in raw:
        if key not in _GOLD_KEYS:
            raise _fail(
                path,
                lines.key(key, index),
                f"unknown key {key!r} in [[gold]] ({', '.join(sorted(_GOLD_KEYS))})",
            )
    for key in ("name", "file", "metrics", "systems"):
        if key not in raw:
            raise _fail(path, first, f"[[gold]] needs {key!r}")
    name = _string(raw["name"], path, lines.key("name", index), "name")
    gold_path = _file(raw["file"], base, path, lines.key("file", index), "gold file")
    metrics = _metrics(raw["metrics"], path, lines.key("metrics", index))
    prm = None
    if "prm" in raw:
        prm = _file(raw["prm"], base, path, lines.key("prm", index), "prm file")
    systems_raw = raw["systems"]
    where = lines.key("systems", index) or lines.find("systems", index)
    if not isinstance(systems_raw, dict) or not systems_raw:
        raise _fail(path, where, 'systems must be a table of NAME = "FILE" (at least one)')
    if len(systems_raw) > MAX_SYSTEMS:
        raise _fail(path, where, f"more than {MAX_SYSTEMS} systems for one gold")
    systems = []
    for sys_name, sys_file in systems_raw.items():
        line = lines.key(sys_name, index)
        systems.append(
            SystemEntry(sys_name, _file(sys_file, base, path, line, f"system {sys_name!r}"), line or first)
        )
    settings = _family_settings(raw, index, lines, path, paired)
    return GoldEntry(name, gold_path, first, tuple(systems), metrics, prm, settings)


def _family_settings(
    raw: dict[str, object], index: int, lines: _Lines, path: str, paired: PairedTestSettings
) -> tuple[object, ...]:
    """The ``[gold.FAMILY]`` tables of a gold: the settings named by the API's keywords
    (:func:`evalcore.declare.from_mapping`), but those of :data:`ELSEWHERE` and ``prm`` (the gold's);
    the manifest's ``[settings]`` give the ``shuffles`` and ``seed`` a table does not."""
    out: list[object] = []
    for family in FAMILIES:
        if family.settings is None or family.name not in _GOLD_KEYS:
            continue
        leave = frozenset({"prm"}) | ELSEWHERE.get(family.name, frozenset())
        keywords = {d.keyword for d in accepted(family.settings)} - leave
        defaults: dict[str, object] = {k: getattr(paired, k) for k in ("shuffles", "seed") if k in keywords}
        if family.name not in raw:
            if defaults:
                out.append(from_mapping(family.settings, defaults, leave=leave))
            continue
        table = raw[family.name]
        where = lines.find(f"gold.{family.name}", index)
        if not isinstance(table, dict):
            raise _fail(path, where, f"[gold.{family.name}] must be a table of settings")
        try:
            out.append(from_mapping(family.settings, defaults | table, leave=leave))
        except ValueError as exc:
            key = next((k for k in table if str(exc).startswith((f"{k} ", f"unknown setting {k!r}"))), None)
            line = lines.key(key, index) if key is not None else where
            raise _fail(path, line, f"[gold.{family.name}]: {exc}") from None
    return tuple(out)


def read_manifest(path: str, limits: Limits = DEFAULT_LIMITS) -> Manifest:
    """The manifest at ``path`` checked whole before anything runs: every error is an
    :class:`~evalcore.errors.InputFormatError` naming the manifest's line.  Files are relative
    to the manifest's folder."""
    text = _read_text(path, limits)
    data = _toml(path, text)
    lines = _Lines(text)
    for key in data:
        if key not in ("settings", "gold"):
            raise _fail(
                path, lines.key(key) or lines.find(f"[{key}"), f"unknown table {key!r} (settings, gold)"
            )
    golds_raw = data.get("gold")
    if not isinstance(golds_raw, list) or not golds_raw:
        raise _fail(path, 1, "the manifest lists no [[gold]]")
    base = Path(path).resolve().parent
    paired, bootstrap = _settings(data.get("settings"), lines, path)
    golds = tuple(_gold(raw, i, lines, base, path, paired) for i, raw in enumerate(golds_raw))
    seen: set[str] = set()
    for g in golds:
        if g.name in seen:
            raise _fail(path, g.line, f"two golds are named {g.name!r}")
        seen.add(g.name)
    return Manifest(path, golds, paired, bootstrap)


# --- the jobs ----------------------------------------------------------------------------------


def plan(manifest: Manifest, limits: Limits = DEFAULT_LIMITS) -> list[ScoreJob]:
    """Every score job, in manifest order (gold, metric, system)."""
    jobs: list[ScoreJob] = []
    for gold in manifest.golds:
        for metric in gold.metrics:
            if metric == "tedeval":
                jobs.append(ScoreJob(gold, metric, gold.systems, limits, manifest.paired, manifest.bootstrap))
            else:
                jobs.extend(
                    ScoreJob(gold, metric, (s,), limits, manifest.paired, manifest.bootstrap)
                    for s in gold.systems
                )
    return jobs


def _portable(exc: EvalcoreError) -> EvalcoreError:
    """The same one-line error as a class that pickles (to come back from another process)."""
    kind = InputFormatError if isinstance(exc, LimitError) else type(exc)
    return kind(exc.message, file=exc.file, line=exc.line, sentence=exc.sentence)


def _rows(
    job: ScoreJob, system: str, values: Sequence[tuple[str, float]], signature: str
) -> tuple[BatchRow, ...]:
    return tuple(
        BatchRow(job.gold.name, system, "", job.metric, name, "score", float(v), signature)
        for name, v in values
    )


def _score_attach(job: ScoreJob) -> ScoreOutput:
    """Over the same tokens; a system whose tokens differ from the gold's is a parse of raw text,
    scored as ``conll18`` (the CoNLL 2018 alignment is needed exactly there: docs/batch.md)."""
    system = job.systems[0]
    settings = replace(
        job.gold.settings_of(attach_family.AttachSettings), per_sentence=len(job.gold.systems) > 1
    )
    try:
        result = attach_family.run(
            attach_family.AttachInputs(job.gold.path, system.path), settings, job.limits
        )
    except MismatchError:
        return replace(_score_conll18(replace(job, metric="conll18")), aligned=True)
    values = attach_family.batch_values(result)
    return ScoreOutput(
        _rows(job, system.name, values, result.signature), tuple(c for _, c in result.per_sentence)
    )


def _score_conll18(job: ScoreJob) -> ScoreOutput:
    """The CoNLL 2018 shared task's evaluation of one system (Zeman et al. 2018, §2: the
    character alignment, the universal part of DEPREL): the F1 of each of the scorer's rows and
    the aligned accuracy where it prints one, each with a bootstrap interval over the gold
    sentences (:func:`evalcore.resampling.intervals`)."""
    from evalcore.metrics.conll18 import evaluate_conll18

    system = job.systems[0]
    result = evaluate_conll18(job.gold.path, system.path, limits=job.limits, per_sentence=True)
    ivs = intervals(conll18_table(result.sentences), job.bootstrap)
    signature = job.bootstrap.sign(result.signature)
    rows = []
    for name, iv in zip(ivs.names, ivs.values, strict=True):
        metric, measure = name.split(" ")
        row = result.get(metric)
        value = row.f1 if measure == "f1" else row.aligned_accuracy
        assert value is not None  # conll18_names() names an aligned accuracy where the scorer has one
        rows.append(
            BatchRow(
                job.gold.name, system.name, "", job.metric, name, "score", value, signature, iv.low, iv.high
            )
        )
    counts = result.sentences if len(job.gold.systems) > 1 else ()
    return ScoreOutput(tuple(rows), counts, signature=result.signature)


def _bracket_settings(gold: GoldEntry, cls: type[E]) -> E:
    """The gold's ``[gold.FAMILY]`` settings with its parameter file (the command line's streaming)."""
    return replace(gold.settings_of(cls), prm=gold.prm or None, keep_sentences=False)


def _score_parseval(job: ScoreJob) -> ScoreOutput:
    system = job.systems[0]
    settings = _bracket_settings(job.gold, parseval_family.ParsevalSettings)
    inputs = parseval_family.BracketInputs(job.gold.path, system.path)
    result = parseval_family.run(inputs, settings, job.limits)
    return ScoreOutput(_rows(job, system.name, parseval_family.batch_values(result), result.signature))


def _score_freval(job: ScoreJob) -> ScoreOutput:
    system = job.systems[0]
    inputs = freval_family.FrevalInputs(job.gold.path, system.path)
    keep = len(job.gold.systems) > 1
    result = freval_family.run(
        inputs, _bracket_settings(job.gold, freval_family.FrevalSettings), job.limits, keep_counts=keep
    )
    values = freval_family.batch_values(result)
    return ScoreOutput(_rows(job, system.name, values, result.signature), result.per_sentence)


def _score_tedeval(job: ScoreJob) -> ScoreOutput:
    """The one-scheme experiment of ``evalcore tedeval --scheme GOLD SYSTEM...``: every system's
    UAS, LAS, U-TED, L-TED and the test of every pair (its own, docs/tedeval.md, "The cross-scheme experiment
    and significance")."""
    from evalcore.experiment import NamedTrees, Scheme

    scheme = Scheme(
        job.gold.name,
        NamedTrees(job.gold.name, (), job.gold.path),
        tuple(NamedTrees(s.name, (), s.path) for s in job.systems),
    )
    settings = job.gold.settings_of(tedeval_family.TedevalSettings)
    result = tedeval_family.run(tedeval_family.TedevalInputs((scheme,)), settings, job.limits)
    rows: list[BatchRow] = []
    values = [tedeval_family.batch_values(result, s.name) for s in job.systems]
    for scores in zip(*values, strict=True):  # in the table's order: each score, every system
        for s, score in zip(job.systems, scores, strict=True):
            rows += _rows(job, s.name, (score,), result.signature)
    tests: list[BatchRow] = []
    for row in result.rows:
        score = row.metric if row.against == job.gold.name else f"{row.metric}@{row.against}"
        tests += [
            BatchRow(job.gold.name, t.a, t.b, job.metric, score, "p", t.p_value, result.signature)
            for t in row.tests
        ]
    return ScoreOutput(tuple(rows) + tuple(tests))


_SCORERS: dict[Metric, Callable[[ScoreJob], ScoreOutput]] = {
    "attach": _score_attach,
    "conll18": _score_conll18,
    "parseval": _score_parseval,
    "freval": _score_freval,
    "tedeval": _score_tedeval,
}


def run_score_job(job: ScoreJob) -> ScoreOutput:
    """One score job (a top-level function: it is sent to worker processes by name)."""
    try:
        return _SCORERS[job.metric](job)
    except EvalcoreError as exc:
        raise _portable(exc) from None


def run_score_job_kept(job: ScoreJob) -> ScoreOutput | JobFailure:
    """:func:`run_score_job`, its error returned as a :class:`JobFailure` (``keep_going``)."""
    try:
        return run_score_job(job)
    except EvalcoreError as exc:
        return _failure(job, exc)


def _failure(job: ScoreJob, error: EvalcoreError) -> JobFailure:
    return JobFailure(job.gold.name, job.metric, tuple(s.name for s in job.systems), str(error))


def run_pair_job_kept(job: PairJob) -> tuple[BatchRow, ...] | JobFailure:
    """:func:`run_pair_job`, its error returned as a :class:`JobFailure` (``keep_going``)."""
    try:
        return run_pair_job(job)
    except (EvalcoreError, ValueError) as exc:
        return JobFailure(job.gold.name, job.metric, (job.a, job.b), one_line(str(exc)))


def run_pair_job(job: PairJob) -> tuple[BatchRow, ...]:
    """The paired approximate-randomization test of every score between two systems of one gold."""
    from evalcore.metrics.attachment import AttachCounts
    from evalcore.metrics.conll18 import Conll18Counts
    from evalcore.metrics.freval import FrevalCounts

    if job.metric == "attach":
        a_attach = tuple(c for c in job.counts_a if isinstance(c, AttachCounts))
        b_attach = tuple(c for c in job.counts_b if isinstance(c, AttachCounts))
        ta, tb = attach_pair_tables(a_attach, b_attach)
    elif job.metric == "conll18":  # per gold sentence: both systems' rows are paired
        ta = conll18_table([c for c in job.counts_a if isinstance(c, Conll18Counts)])
        tb = conll18_table([c for c in job.counts_b if isinstance(c, Conll18Counts)])
    else:
        config = freval_family.freval_config(_bracket_settings(job.gold, freval_family.FrevalSettings))
        a_fr = tuple(c for c in job.counts_a if isinstance(c, FrevalCounts))
        b_fr = tuple(c for c in job.counts_b if isinstance(c, FrevalCounts))
        limit = max(freval_limit(a_fr, config), freval_limit(b_fr, config))
        ta, tb = freval_table(a_fr, config, limit), freval_table(b_fr, config, limit)
    cmp = compare(ta, tb, job.paired)
    signature = cmp.sign(job.signature)
    return tuple(
        BatchRow(job.gold.name, job.a, job.b, job.metric, name, "p", t.p_value, signature)
        for name, t in zip(cmp.names, cmp.tests, strict=True)
        if name in job.scores
    )


def _pair_jobs(done: Sequence[tuple[ScoreJob, ScoreOutput]]) -> list[PairJob]:
    pairs: list[PairJob] = []
    for gold_name in dict.fromkeys(j.gold.name for j, _ in done):
        for metric in PAIRED:
            same = [(j, o) for j, o in done if j.gold.name == gold_name and j.metric == metric]
            for (ja, oa), (jb, ob) in combinations(same, 2):
                a, b, signature = ja.systems[0].name, jb.systems[0].name, oa.signature or oa.rows[0].signature
                scores = tuple(r.score for r in oa.rows)
                pairs.append(
                    PairJob(ja.gold, ja.metric, a, b, oa.counts, ob.counts, signature, ja.paired, scores)
                )
    return pairs


J = TypeVar("J")
R = TypeVar("R")


def serial_map(fn: Callable[[J], R], items: Sequence[J]) -> list[R]:
    """``map`` in this process (``--jobs 1``)."""
    return [fn(x) for x in items]


def run_batch(
    manifest: Manifest, limits: Limits, mapper: Callable[..., list[object]] = serial_map
) -> list[BatchRow]:
    """Every score job, then every pair job, each round through ``mapper(fn, items)`` (which
    returns the results in the order of ``items``): the table is the same whoever ran what.  The
    files are checked first (:func:`check_files`); the first error stops the run."""
    return list(run_batch_outcome(manifest, limits, mapper).rows)


def run_batch_outcome(
    manifest: Manifest,
    limits: Limits,
    mapper: Callable[..., list[object]] = serial_map,
    *,
    keep_going: bool = False,
) -> BatchOutcome:
    """:func:`run_batch`; with ``keep_going`` a failed job (a bad file found by
    :func:`check_files`, or an error while it ran) is a :class:`JobFailure` and the others run:
    the rows are those of every job that finished, the pair jobs those of two finished systems."""
    bad = check_files(manifest, limits)
    if bad and not keep_going:
        raise next(iter(bad.values()))
    failures: list[JobFailure] = []
    runnable: list[ScoreJob] = []
    for job in plan(manifest, limits):
        problem = next((bad[key] for key in _files_of(job) if key in bad), None)
        if problem is None:
            runnable.append(job)
        else:
            failures.append(_failure(job, problem))
    score = run_score_job_kept if keep_going else run_score_job
    results = mapper(score, runnable) if runnable else []
    done = [(job, out) for job, out in zip(runnable, results, strict=True) if isinstance(out, ScoreOutput)]
    failures += [out for out in results if isinstance(out, JobFailure)]
    done = _aligned(done)
    more = _aligned_jobs(done, manifest)
    extra = mapper(score, more) if more else []
    done += [(job, out) for job, out in zip(more, extra, strict=True) if isinstance(out, ScoreOutput)]
    failures += [out for out in extra if isinstance(out, JobFailure)]
    done.sort(key=lambda d: _job_order(manifest, d[0]))
    pair_jobs = _pair_jobs(done)
    tested = mapper(run_pair_job_kept if keep_going else run_pair_job, pair_jobs) if pair_jobs else []
    failures += [t for t in tested if isinstance(t, JobFailure)]
    rows = [r for _, out in done for r in out.rows]
    rows += [r for t in tested if isinstance(t, tuple) for r in t if isinstance(r, BatchRow)]
    order = {g.name: i for i, g in enumerate(manifest.golds)}
    metric_order = {m: i for i, m in enumerate(METRICS)}
    # manifest order: gold, metric, scores before p-values; a stable sort keeps the jobs' own order
    rows.sort(key=lambda r: (order[r.gold], metric_order[r.metric], r.kind == "p"))
    failures.sort(key=lambda f: (order[f.gold], metric_order[f.metric], len(f.systems) == 2))
    return BatchOutcome(tuple(rows), tuple(failures))


def _aligned(done: list[tuple[ScoreJob, ScoreOutput]]) -> list[tuple[ScoreJob, ScoreOutput]]:
    """The ``attach`` jobs that met a parse of raw text are ``conll18`` jobs; those of a gold that
    lists ``conll18`` itself are dropped (its own jobs score the system)."""
    out: list[tuple[ScoreJob, ScoreOutput]] = []
    for job, result in done:
        if not result.aligned:
            out.append((job, result))
        elif "conll18" not in job.gold.metrics:
            out.append((replace(job, metric="conll18"), result))
    return out


def _aligned_jobs(done: Sequence[tuple[ScoreJob, ScoreOutput]], manifest: Manifest) -> list[ScoreJob]:
    """A gold with a parse of raw text under ``attach`` has its same-token systems scored as
    ``conll18`` too, so that every two of its systems are tested on the same counts (docs/batch.md);
    a system whose job failed is not run again."""
    more: list[ScoreJob] = []
    for gold in manifest.golds:
        mine = [(j, out) for j, out in done if j.gold.name == gold.name]
        if "conll18" in gold.metrics or not any(out.aligned for _, out in mine):
            continue
        more += [replace(j, metric="conll18") for j, out in mine if j.metric == "attach" and not out.aligned]
    return more


def _job_order(manifest: Manifest, job: ScoreJob) -> tuple[int, int, int]:
    """Manifest order: gold, metric, system."""
    gold = next(i for i, g in enumerate(manifest.golds) if g.name == job.gold.name)
    system = next(i for i, s in enumerate(job.gold.systems) if s.name == job.systems[0].name)
    return gold, METRICS.index(job.metric), system


# --- the files, checked before any job runs --------------------------------------------------

_Reader = Literal["conllu", "brackets", "trees", "prm"]
_READER_OF: dict[Metric, _Reader] = {
    "attach": "conllu",
    "conll18": "conllu",
    "parseval": "brackets",
    "freval": "brackets",
    "tedeval": "trees",
}


def _files_of(job: ScoreJob) -> list[tuple[str, _Reader]]:
    """The files a score job reads, each with the reader it reads it with."""
    kind = _READER_OF[job.metric]
    files = [(job.gold.path, kind), *((s.path, kind) for s in job.systems)]
    if job.gold.prm and job.metric in ("parseval", "freval"):
        files.append((job.gold.prm, "prm"))
    return files


def _first_sentence(path: str, kind: _Reader, limits: Limits) -> None:
    """Read ``path`` up to its first sentence (a ``prm`` file whole) with the reader ``kind``."""
    if kind == "prm":
        read_prm(path, limits=limits)
        return
    sentences: Iterator[object]
    if kind == "conllu":
        sentences = read_conllu(path, on_invalid="keep", limits=limits)
    elif kind == "brackets":
        sentences = read_ptb_sentences(path, limits=limits)
    else:
        sentences = read_trees(path, limits=limits)
    try:
        next(sentences, None)
    finally:
        close = getattr(sentences, "close", None)
        if close is not None:
            close()


def check_files(manifest: Manifest, limits: Limits = DEFAULT_LIMITS) -> dict[tuple[str, str], EvalcoreError]:
    """Every file of the manifest read up to its first sentence with the reader of each metric that
    uses it (docs/batch.md): the files that fail, by (path, reader), in manifest order."""
    bad: dict[tuple[str, str], EvalcoreError] = {}
    checked: set[tuple[str, str]] = set()
    for gold in manifest.golds:
        entries = [("gold file", gold.path, gold.line)]
        entries += [(f"system '{s.name}'", s.path, s.line) for s in gold.systems]
        wanted = [(what, path, line, _READER_OF[m]) for m in gold.metrics for what, path, line in entries]
        if gold.prm and ("parseval" in gold.metrics or "freval" in gold.metrics):
            wanted.append(("prm file", gold.prm, gold.line, "prm"))
        for what, path, line, kind in wanted:
            if (path, kind) in checked:
                continue
            checked.add((path, kind))
            try:
                _first_sentence(path, kind, limits)
            except EvalcoreError as exc:
                bad[(path, kind)] = InputFormatError(
                    f"{exc.message} ({what} of gold '{gold.name}', {manifest.path}:{line})",
                    file=exc.file,
                    line=exc.line,
                    sentence=exc.sentence,
                )
    return bad
