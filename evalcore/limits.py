"""Resource limits: one policy for every reader, every command and the app (docs/robustness.md,
"Resource limits: one policy"): each limit has a default, a flag and an environment variable, one
message when it is passed, and the readers apply them while streaming.  :class:`Limits` is a frozen
value passed down explicitly (no global state).
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Literal

from evalcore.errors import InputFormatError, LimitError

__all__ = [
    "DEFAULT_LIMITS",
    "LIMIT_SPECS",
    "LimitSpec",
    "Limits",
    "add_limit_arguments",
    "format_size",
    "from_args",
    "parse_size",
]

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

Unit = Literal["bytes", "count"]


@dataclass(frozen=True, slots=True)
class LimitSpec:
    """How one limit is named, raised and documented."""

    name: str  # the attribute of Limits
    flag: str  # command-line flag ("" for the app-only budget)
    env: str  # environment variable
    unit: Unit
    what: str  # one line for --help and the docs table


LIMIT_SPECS: tuple[LimitSpec, ...] = (
    LimitSpec(
        "input_bytes", "--max-input-bytes", "EVALCORE_MAX_INPUT_BYTES", "bytes",
        "bytes of one input file, counted after gzip decompression while it is read",
    ),
    LimitSpec(
        "input_lines", "--max-input-lines", "EVALCORE_MAX_INPUT_LINES", "count",
        "lines of one input file (blank and comment lines included)",
    ),
    LimitSpec("line_bytes", "--max-line-bytes", "EVALCORE_MAX_LINE_BYTES", "bytes", "bytes of one line"),
    LimitSpec(
        "block_lines", "--max-block-lines", "EVALCORE_MAX_BLOCK_LINES", "count",
        "lines of one sentence block (a CoNLL sentence with its comments, a lattice, a bracketed tree)",
    ),
    LimitSpec(
        "block_bytes", "--max-block-bytes", "EVALCORE_MAX_BLOCK_BYTES", "bytes",
        "bytes of one sentence block",
    ),
    LimitSpec(
        "tokens", "--max-tokens", "EVALCORE_MAX_TOKENS", "count",
        "tokens (words, leaves, .tokens lines) of one sentence",
    ),
    LimitSpec(
        "depth", "--max-depth", "EVALCORE_MAX_DEPTH", "count",
        "depth of one tree: brackets open at once, or words on the longest head chain",
    ),
    LimitSpec(
        "lattice_arcs", "--max-lattice-arcs", "EVALCORE_MAX_LATTICE_ARCS", "count", "arcs of one lattice"
    ),
    LimitSpec(
        "ted_memory", "--max-ted-memory", "EVALCORE_MAX_TED_MEMORY", "bytes",
        "memory of one general tree edit distance (lattice TedEval), estimated before it is allocated",
    ),
    LimitSpec(
        "pattern_steps", "--max-pattern-steps", "EVALCORE_MAX_PATTERN_STEPS", "count",
        "candidate words one request's search may try in one sentence: attach --where, atlas --pattern",
    ),
    LimitSpec(
        "session_bytes", "", "EVALCORE_SESSION_BYTES", "bytes",
        "workbench: decompressed bytes of all the files one session has loaded",
    ),
)  # fmt: skip
"""Every limit, in the order of the documentation table."""

_SPEC = {s.name: s for s in LIMIT_SPECS}


@dataclass(frozen=True, slots=True)
class Limits:
    """The resource limits (see :data:`LIMIT_SPECS` for what each one bounds)."""

    input_bytes: int = 1 * GiB
    input_lines: int = 10_000_000
    line_bytes: int = 1 * MiB
    block_lines: int = 20_000
    block_bytes: int = 2 * MiB
    tokens: int = 2_000
    depth: int = 1_024
    lattice_arcs: int = 10_000
    ted_memory: int = 256 * MiB
    pattern_steps: int = 1_000_000  # docs/robustness.md, "Pattern searches": 100x the most seen
    session_bytes: int = 500_000_000

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"limit {f.name} must be a positive integer, got {value!r}")

    def raised(self, **values: int) -> Limits:
        """A copy with some limits changed."""
        return replace(self, **values)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, base: Limits | None = None) -> Limits:
        """``base`` (default: the defaults) with every ``EVALCORE_MAX_*`` variable set in ``env``
        (default: ``os.environ``); a malformed value is an :class:`InputFormatError` naming it."""
        env = os.environ if env is None else env
        out = base or cls()
        changes: dict[str, int] = {}
        for spec in LIMIT_SPECS:
            raw = env.get(spec.env)
            if raw is None or not raw.strip():
                continue
            try:
                changes[spec.name] = parse_size(raw) if spec.unit == "bytes" else parse_count(raw)
            except ValueError as exc:
                raise InputFormatError(f"environment variable {spec.env}: {exc}") from None
        return replace(out, **changes) if changes else out

    def error(
        self,
        name: str,
        what: str,
        *,
        file: str | None = None,
        line: int | None = None,
        sentence: str | None = None,
        kind: type[LimitError] = LimitError,
    ) -> LimitError:
        """The error for passing limit ``name``: ``what (limit N; raise with FLAG or ENV)``, of class
        ``kind`` (a subclass of :class:`LimitError`, such as
        :class:`~evalcore.errors.PatternLimitError`)."""
        spec = _SPEC[name]
        how = f"{spec.flag} or {spec.env}" if spec.flag else spec.env
        value = getattr(self, name)
        return kind(
            f"{what} (limit {value}; raise with {how})", limit=name, file=file, line=line, sentence=sentence
        )


DEFAULT_LIMITS = Limits()
"""The defaults (a frozen value; the environment is read only by :meth:`Limits.from_env`)."""


_SIZE = re.compile(r"^([0-9]{1,15})\s*([KMGT]?)(i?B)?$", re.IGNORECASE)
_FACTORS = {"": 1, "K": KiB, "M": MiB, "G": GiB, "T": 1024 * GiB}


def parse_size(text: str) -> int:
    """``1048576``, ``512K``, ``64M``, ``2G`` or ``2GiB`` → bytes (binary units); ASCII digits only."""
    m = _SIZE.match(text.strip())
    if m is None or not m.group(1).isascii():
        raise ValueError(f"expected a size such as 1048576, 512K, 64M or 2G, got '{text[:40]}'")
    value = int(m.group(1)) * _FACTORS[m.group(2).upper()]
    if value < 1:
        raise ValueError("a limit must be at least 1")
    return value


def parse_count(text: str) -> int:
    """A positive integer of ASCII digits (``_`` and ``,`` allowed between digits: ``20_000``)."""
    digits = text.strip().replace("_", "").replace(",", "")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 15:
        raise ValueError(f"expected a positive integer, got '{text[:40]}'")
    value = int(digits)
    if value < 1:
        raise ValueError("a limit must be at least 1")
    return value


def format_size(n: int) -> str:
    """``1073741824`` → ``1 GiB`` (exact binary units when they divide, else bytes)."""
    for unit, factor in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= factor and n % factor == 0:
            return f"{n // factor:,} {unit}"
    return f"{n:,} bytes"


def _arg_type(spec: LimitSpec) -> object:
    def convert(text: str) -> int:
        try:
            return parse_size(text) if spec.unit == "bytes" else parse_count(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = "size" if spec.unit == "bytes" else "count"
    return convert


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """Add a "resource limits" group with one flag per limit (default: environment, then built-in)."""
    group = parser.add_argument_group(
        "resource limits",
        "raise a limit when a real file passes it (also with the environment variable named in "
        "the message); sizes take K, M, G suffixes",
    )
    for spec in LIMIT_SPECS:
        if not spec.flag:
            continue
        default = getattr(DEFAULT_LIMITS, spec.name)
        shown = format_size(default) if spec.unit == "bytes" else f"{default:,}"
        group.add_argument(
            spec.flag,
            dest=f"limit_{spec.name}",
            type=_arg_type(spec),  # type: ignore[arg-type]
            metavar="N",
            help=f"{spec.what} (default {shown}; {spec.env})",
        )


def from_args(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> Limits:
    """The limits of a command line: flags over environment variables over the defaults."""
    limits = Limits.from_env(env)
    changes = {
        spec.name: getattr(args, f"limit_{spec.name}")
        for spec in LIMIT_SPECS
        if spec.flag and getattr(args, f"limit_{spec.name}", None) is not None
    }
    return replace(limits, **changes) if changes else limits
