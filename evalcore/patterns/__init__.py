"""Patterns: a subset of Grew's request language, its matcher, and constructions read from pattern
files (docs/patterns.md).

``parse_request`` / ``read_pattern_file`` read; ``matches`` / ``count`` search trees (each search
bounded by ``Limits.pattern_steps``; ``search_steps`` says what one costs);
``constructions`` gives every word's construction under a pattern file; ``shipped`` is the path of
a pattern file shipped with evalcore (``ud`` or ``sud``, and ``atlas``, the atlas's default:
docs/patterns.md, "The shipped files").
"""

from __future__ import annotations

from pathlib import Path

from evalcore.appdir import app_root
from evalcore.errors import PatternError
from evalcore.patterns.match import (
    Binding,
    CompiledFile,
    Matcher,
    TreeIndex,
    Where,
    compile_file,
    compile_request,
    construction_of,
    constructions,
    count,
    found,
    index_tree,
    matches,
    search_steps,
    where,
)
from evalcore.patterns.syntax import (
    Block,
    Constraint,
    Construction,
    EdgeClause,
    LabelTest,
    NodeClause,
    OrderClause,
    PatternFile,
    Request,
    parse_pattern_file,
    parse_request,
    read_pattern_file,
    read_text,
)

__all__ = [
    "DEFAULT",
    "SHIPPED",
    "Binding",
    "Block",
    "CompiledFile",
    "Constraint",
    "Construction",
    "EdgeClause",
    "LabelTest",
    "Matcher",
    "NodeClause",
    "OrderClause",
    "PatternError",
    "PatternFile",
    "Request",
    "TreeIndex",
    "Where",
    "compile_file",
    "compile_request",
    "construction_of",
    "constructions",
    "count",
    "found",
    "index_tree",
    "matches",
    "parse_pattern_file",
    "parse_request",
    "read_pattern_file",
    "read_text",
    "search_steps",
    "shipped",
    "where",
]

SHIPPED = ("ud", "sud")
"""The pattern files shipped in ``assets/patterns/``, one per scheme family."""

DEFAULT = "atlas"
"""The shipped pattern file the atlas reads when it is given none, on every scheme's trees:
``assets/patterns/atlas.pat``, the mixed UD + SUD set (docs/atlas.md, "Constructions: patterns and
priority")."""


def shipped(family: str) -> Path:
    """The path of a shipped pattern file: a scheme family's (``ud`` or ``sud``), or the atlas's
    default (``atlas``, :data:`DEFAULT`)."""
    if family not in (*SHIPPED, DEFAULT):
        raise PatternError(
            f"no shipped pattern file for '{family}' (one of: {', '.join((*SHIPPED, DEFAULT))})", file=family
        )
    return app_root() / "assets" / "patterns" / f"{family}.pat"
