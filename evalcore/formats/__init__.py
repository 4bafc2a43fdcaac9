"""Readers and writers (docs/formats.md, "Common to every reader").  Every reader streams and raises typed
errors with FILE:LINE.

The names below are loaded on first use (PEP 562), so that importing one reader
(``evalcore.formats.ptb``) does not import the others: the command line's start-up
(tests/test_startup.py).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evalcore.formats.conllu import parse_conllu, read_conllu, write_conllu
    from evalcore.formats.lattice import read_lattices, read_tokens, write_lattices, write_tokens
    from evalcore.formats.ptb import parse_ptb, read_ptb, write_ptb

__all__ = [
    "parse_conllu",
    "parse_ptb",
    "read_conllu",
    "read_lattices",
    "read_ptb",
    "read_tokens",
    "write_conllu",
    "write_lattices",
    "write_ptb",
    "write_tokens",
]

_MODULE_OF = {
    name: module
    for module, names in (
        ("conllu", ("parse_conllu", "read_conllu", "write_conllu")),
        ("lattice", ("read_lattices", "read_tokens", "write_lattices", "write_tokens")),
        ("ptb", ("parse_ptb", "read_ptb", "write_ptb")),
    )
    for name in names
}


def __getattr__(name: str) -> object:
    if name not in _MODULE_OF:
        raise AttributeError(f"module 'evalcore.formats' has no attribute {name!r}")
    return getattr(importlib.import_module(f"evalcore.formats.{_MODULE_OF[name]}"), name)
