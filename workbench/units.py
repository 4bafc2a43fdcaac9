"""Constructions as units of evaluation, from the Atlas to the inspector (docs/app.md,
"Constructions on the Atlas page").

Where the constructions come from (:class:`UnitSource`: the shipped pattern files, or one request
pasted on the page), the one construction followed to the inspector (``unit=SOURCE:NAME``,
:class:`UnitRef`), and what the inspector highlights for it: the words the construction covers in a
drawn tree (:func:`unit_words`) and the operations of a script it owns (:func:`unit_flags`, the
owner of :mod:`evalcore.construction_scores`: the construction of the head word of the operation's
span, in the tree the operation belongs to).  No streamlit here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from evalcore.atlas import atlas_tree, op_side
from evalcore.construction_scores import OTHER, Coverage, WordOwners
from evalcore.conversion import ConversionConfig
from evalcore.families.atlas import read_patterns
from evalcore.patterns import SHIPPED, shipped, where
from evalcore.trees import DepTree, EditOp, Tree
from workbench.links import UNIT_SOURCES

__all__ = [
    "MAX_REQUEST",
    "REQUEST",
    "SOURCES",
    "LinkedUnit",
    "UnitRef",
    "UnitSource",
    "linked_unit",
    "parse_unit",
    "shipped_file",
    "unit_coverage",
    "unit_flags",
    "unit_words",
]

MAX_REQUEST = 1000
"""The longest request pasted or linked (the inspector's pattern box and its ``pattern=`` key)."""

REQUEST = "request"
"""The source of a pasted request: its one construction is named ``pattern``."""

SOURCES: tuple[str, ...] = UNIT_SOURCES
"""Where the constructions come from: each scheme its shipped file (``schemes``: ``sud.pat`` for a
scheme whose name says SUD, ``ud.pat`` for the others), one shipped file for every scheme (``ud``,
``sud``), or the request pasted on the page (``request``, the link's ``pattern=``)."""


def shipped_file(source: str, scheme: str) -> str:
    """The shipped family (``ud`` / ``sud``) whose file gives ``scheme``'s constructions."""
    if source in SHIPPED:
        return source
    return "sud" if "sud" in scheme.lower() else "ud"


@dataclass(frozen=True, slots=True)
class UnitSource:
    """The constructions of a view: ``source`` (one of :data:`SOURCES`) and, for ``request``, its
    text (stripped; at most :data:`MAX_REQUEST` characters)."""

    source: str
    request: str = ""

    def describe(self, schemes: Sequence[str]) -> str:
        """``UD: ud.pat, SUD: sud.pat``, or ``the request``."""
        if self.source == REQUEST:
            return "the request"
        return ", ".join(f"{s}: {shipped_file(self.source, s)}.pat" for s in schemes)


@lru_cache(maxsize=32)
def unit_coverage(source: UnitSource, schemes: tuple[str, ...]) -> Coverage:
    """Each word's construction under ``source`` for trees of ``schemes`` (raises
    :class:`~evalcore.errors.PatternError`, ``pattern:LINE: ...``, for a malformed request)."""
    if source.source == REQUEST:
        return Coverage(request=where(source.request, file="pattern"), name="pattern")
    items = tuple(f"{s}={shipped(shipped_file(source.source, s))}" for s in schemes)
    return Coverage(read_patterns(items, schemes))


@dataclass(frozen=True, slots=True)
class UnitRef:
    """``unit=SOURCE:NAME``: one construction (``NAME``) of one source of constructions."""

    source: str
    name: str

    def text(self) -> str:
        return f"{self.source}:{self.name}"


def parse_unit(text: str) -> UnitRef | str:
    """The construction of a ``unit=`` value, or what is wrong with it (one line).  A name the
    source does not have highlights nothing, and the inspector says so."""
    source, sep, name = text.partition(":")
    if not sep or not name:
        return f"unit: '{text}' is not SOURCE:NAME (e.g. schemes:copula, request:pattern)"
    if source not in SOURCES:
        return f"unit: unknown source '{source}' (one of: {', '.join(SOURCES)})"
    return UnitRef(source, name)


def unit_words(coverage: Coverage, name: str, tree: DepTree, scheme: str) -> frozenset[int]:
    """The 1-based words of ``tree`` (a tree of ``scheme``) whose construction is ``name``."""
    return frozenset(w for w, n in enumerate(coverage.of_tree(tree, scheme), 1) if n == name)


def _owners(
    coverage: Coverage, tree: DepTree | Tree | None, scheme: str, conversion: ConversionConfig
) -> WordOwners | None:
    if not isinstance(tree, DepTree):
        return None
    lifted = atlas_tree(tree, conversion)
    return WordOwners(lifted, coverage.of_tree(lifted, scheme))


def unit_flags(
    coverage: Coverage,
    name: str,
    script: Sequence[EditOp],
    parse: tuple[DepTree | Tree | None, str],
    target: tuple[DepTree | Tree | None, str],
    conversion: ConversionConfig,
) -> tuple[bool, ...]:
    """For each operation of ``script`` (an edit script of the ``parse`` tree, of its scheme;
    insertions are owned in ``target``, the gold it is turned into -- for a generalization the
    parse's own gold), whether construction ``name`` owns it, as the scores per construction count
    (:func:`evalcore.construction_scores.sentence_units`)."""
    sides = {
        "parse": _owners(coverage, parse[0], parse[1], conversion),
        "target": _owners(coverage, target[0], target[1], conversion),
    }
    out = []
    for op in script:
        words = sides[op_side(op)]
        out.append((words.owner(op.span) if words is not None else OTHER) == name)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class LinkedUnit:
    """The construction a link asks the inspector to highlight, with where its constructions come
    from and every word's construction under that source."""

    ref: UnitRef
    source: UnitSource
    coverage: Coverage

    def describe(self, schemes: Sequence[str]) -> str:
        """``copula (UD: ud.pat, SUD: sud.pat)`` or ``pattern (the request)``."""
        return f"{self.ref.name} ({self.source.describe(schemes)})"


def linked_unit(unit: str, request: str, schemes: tuple[str, ...]) -> LinkedUnit | str:
    """The construction of the link's ``unit=`` (and, for a request, its ``pattern=``), or what is
    wrong with them (one line; a malformed request: its ``pattern:LINE: ...`` message)."""
    from evalcore.errors import PatternError

    ref = parse_unit(unit)
    if isinstance(ref, str):
        return ref
    source = UnitSource(ref.source, request.strip() if ref.source == REQUEST else "")
    if ref.source == REQUEST and not source.request:
        return "unit: request:NAME needs the request in pattern="
    try:
        return LinkedUnit(ref, source, unit_coverage(source, schemes))
    except PatternError as exc:
        return f"unit: the request is not used: {exc}"
