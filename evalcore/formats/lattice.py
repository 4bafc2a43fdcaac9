"""SPMRL / yap lattices and ``.tokens`` files (docs/formats.md, "SPMRL / yap lattices").

Lattice lines are ``FROM TO FORM LEMMA CPOS FPOS FEATS TOKEN_ID``, tab
separated, a blank line between sentences.  A *gold lattice* file holds one
path per sentence; an *MA lattice* the full ambiguity lattice.  Empty fields
(yap writes ``\t\t`` for no features) are kept as the empty string.

Limits (:class:`evalcore.limits.Limits`): lines and bytes of a block, arcs of
a lattice, tokens of a ``.tokens`` sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from evalcore.formats._io import InputSource, blocks, iter_lines, shown, source_name
from evalcore.formats.columns import MAX_DIGITS, TOO_LARGE, Columns, natural, refused
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.trees import Arc, Lattice, Source

__all__ = ["read_lattices", "read_tokens", "write_lattices", "write_tokens"]


LATTICE_COLUMNS = Columns(
    (8,),
    "expected 8 tab-separated lattice columns (FROM TO FORM LEMMA CPOS FPOS FEATS TOKEN_ID), found {found}",
)
"""The lattice reader's column rule (the one line parser's splitting; a lattice line has no ID)."""


def _int_field(raw: str, what: str, fname: str, lineno: int) -> int:
    value = natural(raw)
    if value is None:
        raise refused(f"{what} '{shown(raw)}' is not a non-negative integer", fname, lineno)
    if value == TOO_LARGE:  # no lattice has that many states
        raise refused(f"{what} '{shown(raw)}' is too large (more than {MAX_DIGITS} digits)", fname, lineno)
    return value


def read_lattices(
    source: InputSource, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> Iterator[Lattice]:
    """Stream the lattices of an SPMRL/yap lattice file."""
    fname = source_name(source, name)
    for block in blocks(iter_lines(source, fname, limits, runs=True, cr_ends=True), fname, limits):
        arcs: list[Arc] = []
        for lineno, line in block:
            if len(arcs) >= limits.lattice_arcs:
                raise limits.error(
                    "lattice_arcs",
                    f"lattice starting at line {block[0][0]} has more than {limits.lattice_arcs} arcs",
                    file=fname,
                    line=lineno,
                )
            cols = LATTICE_COLUMNS.split(line, fname, lineno)
            start = _int_field(cols[0], "FROM state", fname, lineno)
            end = _int_field(cols[1], "TO state", fname, lineno)
            if end <= start:
                raise refused(f"arc goes backwards or nowhere ({start} -> {end})", fname, lineno)
            tok = _int_field(cols[7], "TOKEN_ID", fname, lineno)
            arcs.append(Arc(start, end, cols[2], cols[3], cols[4], cols[5], cols[6], tok))
        yield Lattice(tuple(arcs), Source(fname, block[0][0]))


def write_lattices(lattices: Iterable[Lattice]) -> str:
    """Serialize lattices; inverse of :func:`read_lattices`."""
    out: list[str] = []
    for lat in lattices:
        for a in lat.arcs:
            out.append(
                "\t".join(
                    (str(a.start), str(a.end), a.segment, a.lemma, a.cpos, a.fpos, a.feats, str(a.token_id))
                )
            )
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def read_tokens(
    source: InputSource, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> Iterator[tuple[str, ...]]:
    """Stream sentences of a ``.tokens`` file: one token per line, blank line between."""
    fname = source_name(source, name)
    for block in blocks(iter_lines(source, fname, limits, runs=True, cr_ends=True), fname, limits):
        toks: list[str] = []
        for lineno, line in block:
            if len(toks) >= limits.tokens:
                raise limits.error(
                    "tokens", f"sentence has more than {limits.tokens} tokens", file=fname, line=lineno
                )
            tok = line.strip()
            if "\t" in tok or " " in tok:
                raise refused("a .tokens line holds one token (found whitespace inside)", fname, lineno)
            toks.append(tok)
        yield tuple(toks)


def write_tokens(sentences: Iterable[Iterable[str]]) -> str:
    """Serialize token sentences; inverse of :func:`read_tokens`."""
    out: list[str] = []
    for sent in sentences:
        out.extend(sent)
        out.append("")
    return "\n".join(out) + ("\n" if out else "")
