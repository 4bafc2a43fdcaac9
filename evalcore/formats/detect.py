"""Which format a file is in: by its name's last suffix (``.gz`` looked through), else by its text.

:data:`SUFFIX_FORMATS` is the one table of file suffixes (docs/formats.md, *Which reader reads
what*): the command line, the lattice reader and the workbench's uploads all ask
:func:`suffix_format`.  When the suffix does not tell, :func:`sniff_kind` reads the first
non-blank, non-comment line (``(`` = brackets, else CoNLL).  :func:`conll_dialect` tells CoNLL-U
from CoNLL-X (docs/decisions.md, "Relation labels by the gold's format").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import PurePath
from types import MappingProxyType
from typing import Literal

from evalcore.choices import Dialect
from evalcore.formats._io import InputSource, iter_lines, source_name
from evalcore.formats.conllu import read_conllu
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.trees import DepTree, Tree

__all__ = [
    "DIALECT_SUFFIXES",
    "SUFFIX_FORMATS",
    "SuffixFormat",
    "conll_dialect",
    "dialect_of",
    "line_format",
    "read_trees",
    "sniff_kind",
    "suffix_format",
]

SuffixFormat = Literal["conllu", "ptb", "lattice", "segmentation", "tokens", "prm"]
"""What a suffix says a file is: CoNLL-U/X, brackets, an SPMRL/yap lattice, yap's segmentation,
one token per line, an evalb parameter file."""

SUFFIX_FORMATS: Mapping[str, SuffixFormat] = MappingProxyType(
    {
        ".conllu": "conllu",
        ".conll": "conllu",
        ".conllx": "conllu",
        ".conll06": "conllu",
        ".conll07": "conllu",
        ".mrg": "ptb",
        ".ptb": "ptb",
        ".psd": "ptb",
        ".tree": "ptb",
        ".trees": "ptb",
        ".gld": "ptb",
        ".tst": "ptb",
        ".brackets": "ptb",
        ".penn": "ptb",
        ".lattice": "lattice",
        ".lattices": "lattice",
        ".lat": "lattice",
        ".mapping": "lattice",
        ".segmentation": "segmentation",
        ".tokens": "tokens",
        ".prm": "prm",
    }
)
"""Every file suffix evalcore knows (lower case), and the format it means."""

Kind = Literal["conll", "brackets"]

DIALECT_SUFFIXES: Mapping[str, Dialect] = MappingProxyType(
    {".conllu": "conllu", ".conllx": "conllx", ".conll06": "conllx", ".conll07": "conllx"}
)
"""The suffixes that say which CoNLL a file is (lower case; ``.conll`` says neither)."""


def _named_dialect(name: str | None) -> Dialect | None:
    """The CoNLL that the last suffix of ``name`` says (``.gz`` looked through), or ``None``."""
    suffixes = PurePath(name).suffixes if name else []
    if suffixes and suffixes[-1].lower() == ".gz":
        suffixes = suffixes[:-1]
    return DIALECT_SUFFIXES.get(suffixes[-1].lower()) if suffixes else None


def dialect_of(name: str | None, first: DepTree | None) -> Dialect:
    """CoNLL-U or CoNLL-X (docs/decisions.md, "Relation labels by the gold's format"): by the last
    suffix of ``name`` when :data:`DIALECT_SUFFIXES` has it, else CoNLL-U when the ``first``
    sentence has a comment line or a multiword-token / empty-node line (CoNLL-X has neither), else
    CoNLL-X."""
    named = _named_dialect(name)
    if named is not None:
        return named
    return "conllu" if first is not None and (first.comments or first.extras) else "conllx"


def conll_dialect(source: InputSource, name: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Dialect:
    """:func:`dialect_of` a CoNLL file: by its name, else by its first sentence (read only then)."""
    fname = source_name(source, name)
    named = _named_dialect(fname)
    if named is not None:
        return named
    for first in read_conllu(source, name=name, on_invalid="keep", limits=limits):
        return dialect_of(None, first)  # the reader is closed as it is dropped
    return dialect_of(None, None)


def suffix_format(name: str) -> SuffixFormat | None:
    """The format the last suffix of ``name`` says (case ignored, a final ``.gz`` looked through),
    or ``None`` when it says none (:data:`SUFFIX_FORMATS`)."""
    suffixes = PurePath(name).suffixes
    if suffixes and suffixes[-1].lower() == ".gz":
        suffixes = suffixes[:-1]
    return SUFFIX_FORMATS.get(suffixes[-1].lower()) if suffixes else None


def line_format(line: str) -> SuffixFormat | None:
    """What a file's first line that is neither blank nor a comment says the file is, where its
    suffix says nothing (docs/formats.md, *Which reader reads what*): ``(``, brackets; 8
    tab-separated columns whose FROM, TO and TOKEN_ID are natural numbers, a lattice; an empty
    column then segments, yap's segmentation; 10 or 8 columns, CoNLL; one column without a space,
    one token per line; anything else, ``None``."""
    from evalcore.formats.columns import natural
    from evalcore.formats.lattice import LATTICE_COLUMNS

    text = line.strip()
    if text.startswith("("):
        return "ptb"
    cols = line.rstrip("\r\n").split("\t")
    if len(cols) in LATTICE_COLUMNS.widths and None not in map(natural, (cols[0], cols[1], cols[7])):
        return "lattice"
    if len(cols) == 2 and cols[0] == "" and cols[1].strip():
        return "segmentation"
    if len(cols) in (8, 10):
        return "conllu"
    if len(cols) == 1 and " " not in text:
        return "tokens"
    return None


def sniff_kind(source: InputSource, name: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Kind:
    """Brackets or CoNLL: by the suffix (:func:`suffix_format`), else by the first line that is
    neither blank nor a comment (``(``: brackets)."""
    fname = source_name(source, name)
    fmt = suffix_format(fname)
    if fmt == "ptb":
        return "brackets"
    if fmt == "conllu":
        return "conll"
    for lineno, line in iter_lines(source, fname, limits, runs=True, cr_ends=True):
        if lineno > limits.block_lines:
            break  # only comments so far: more than a sentence block may hold; the reader says so
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        return "brackets" if text.startswith("(") else "conll"
    return "conll"


def read_trees(
    source: InputSource, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> Iterator[DepTree | Tree]:
    """Stream dependency trees (invalid ones kept, see :meth:`DepTree.structure_problem`) or
    constituency trees."""
    if sniff_kind(source, name, limits) == "brackets":
        from evalcore.formats.ptb import read_ptb

        yield from read_ptb(source, name=name, limits=limits)
    else:
        yield from read_conllu(source, name=name, on_invalid="keep", limits=limits)
