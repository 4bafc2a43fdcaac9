"""Read a treebank whatever its format: CoNLL-U/X (dependency) or bracketed (constituency).

Extensions ``.mrg .ptb .psd .tree .trees .gld .tst .brackets`` mean brackets,
``.conllu .conll .conllx`` mean CoNLL; otherwise the first non-blank,
non-comment character decides (``(`` = brackets).  ``.gz`` is looked through.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePath
from typing import Literal

from evalcore.formats._io import InputSource, iter_lines, source_name
from evalcore.formats.conllu import read_conllu
from evalcore.formats.ptb import read_ptb
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.trees import DepTree, Tree

__all__ = ["BRACKET_SUFFIXES", "CONLL_SUFFIXES", "read_trees", "sniff_kind"]

BRACKET_SUFFIXES = frozenset(
    {".mrg", ".ptb", ".psd", ".tree", ".trees", ".gld", ".tst", ".brackets", ".penn"}
)
CONLL_SUFFIXES = frozenset({".conllu", ".conll", ".conllx", ".conll06", ".conll07"})

Kind = Literal["conll", "brackets"]


def sniff_kind(source: InputSource, name: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Kind:
    fname = source_name(source, name)
    suffixes = [s.lower() for s in PurePath(fname).suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    if suffixes and suffixes[-1] in BRACKET_SUFFIXES:
        return "brackets"
    if suffixes and suffixes[-1] in CONLL_SUFFIXES:
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
        yield from read_ptb(source, name=name, limits=limits)
    else:
        yield from read_conllu(source, name=name, on_invalid="keep", limits=limits)
