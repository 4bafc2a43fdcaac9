"""Readers and writers (SPEC §2).  Every reader streams and raises typed errors with FILE:LINE."""

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
