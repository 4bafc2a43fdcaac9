"""evalb parameter files (``.prm``): the settings of bracket extraction (docs/freval.md, "Brackets and
matching").

The format is evalb's (README §6, ``evalb.c``'s ``read_parameter_file``):
one ``KEYWORD value`` per line; lines starting with ``#`` or shorter than 3
characters are ignored; the keyword must be the line's first word.

=========================== ==========================================================
``DEBUG n``                 read and ignored (evalb's debug printing)
``MAX_ERROR n``             stop after this many error sentences (see ``parseval``)
``CUTOFF_LEN n``            second summary block: sentences of at most n words
``LABELED 0|1``             unlabeled / labeled bracket matching
``DELETE_LABEL X``          a preterminal X is removed with its word; a nonterminal
                            X is removed and its children kept
``DELETE_LABEL_FOR_LENGTH`` words with this tag do not count for the sentence length
``QUOTE_LABEL X``           a tag that may be a mislabeled quote (evalb 2006)
``EQ_LABEL A B``            labels A and B are equal (non-directional, not transitive)
``EQ_WORD A B``             words A and B are equal
=========================== ==========================================================

Like evalb, an unknown keyword or a malformed ``EQ_*`` line is reported and
skipped (it lands in :attr:`EvalbParams.warnings`); a non-numeric value of a
numeric keyword is an :class:`InputFormatError` naming the line (evalb's
``atoi`` would silently read 0).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from evalcore.errors import InputFormatError
from evalcore.formats._io import BLANKS, InputSource, iter_lines, shown, source_name
from evalcore.limits import DEFAULT_LIMITS, Limits

__all__ = ["COLLINS", "EvalbParams", "parse_prm", "read_prm"]

_INT = re.compile(r"^[+-]?[0-9]+")  # atoi: ASCII digits
_BLANK_RUN = re.compile(r"[ \t\n\r\f\v]+")


@dataclass(frozen=True, slots=True)
class EvalbParams:
    """The settings of one evalb parameter file (defaults: evalb's built-in ones)."""

    delete_labels: tuple[str, ...] = ()
    delete_labels_for_length: tuple[str, ...] = ()
    quote_labels: tuple[str, ...] = ()
    eq_labels: tuple[tuple[str, str], ...] = ()
    eq_words: tuple[tuple[str, str], ...] = ()
    cutoff_len: int = 40
    labeled: bool = True
    max_error: int = 10
    debug: int = 0
    name: str = "evalb-defaults"
    warnings: tuple[str, ...] = ()

    def digest(self) -> str:
        """A short hash of every setting that changes a number (not the name, debug or warnings)."""
        text = repr(
            (
                self.delete_labels,
                self.delete_labels_for_length,
                self.quote_labels,
                self.eq_labels,
                self.eq_words,
                self.cutoff_len,
                self.labeled,
                self.max_error,
            )
        )
        return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]

    def signature_value(self) -> str:
        """``NAME#digest`` for signatures: the file's base name plus what it sets."""
        base = self.name.replace("\\", "/").rsplit("/", 1)[-1] or "prm"
        return f"{base}#{self.digest()}"

    def label_eq(self, a: str, b: str) -> bool:
        """evalb's ``label_comp``: equal, or an ``EQ_LABEL`` pair in either order."""
        return a == b or any((a == x and b == y) or (a == y and b == x) for x, y in self.eq_labels)

    def word_eq(self, a: str, b: str) -> bool:
        """evalb's ``word_comp``: equal, or an ``EQ_WORD`` pair in either order."""
        return a == b or any((a == x and b == y) or (a == y and b == x) for x, y in self.eq_words)

    def with_overrides(
        self,
        *,
        labeled: bool | None = None,
        cutoff_len: int | None = None,
        max_error: int | None = None,
    ) -> EvalbParams:
        """A copy with command-line overrides (evalb's ``-c`` and ``-e``, and ``--unlabeled``)."""
        out = self
        if labeled is not None:
            out = replace(out, labeled=labeled)
        if cutoff_len is not None:
            out = replace(out, cutoff_len=cutoff_len)
        if max_error is not None:
            out = replace(out, max_error=max_error)
        return out


COLLINS = EvalbParams(
    delete_labels=("TOP", "-NONE-", ",", ":", "``", "''", "."),
    delete_labels_for_length=("-NONE-",),
    eq_labels=(("ADVP", "PRT"),),
    cutoff_len=40,
    labeled=True,
    max_error=10,
    name="COLLINS.prm",
)
"""evalb's ``COLLINS.prm`` (the default of docs/freval.md, "Brackets and matching"), built in so no file is
needed."""


def _int_value(value: str, key: str, fname: str, lineno: int) -> int:
    m = _INT.match(value.strip(BLANKS))
    if m is None or len(m.group().lstrip("+-").lstrip("0")) > 18:  # int() refuses > 4,300 digits
        raise InputFormatError(
            f"{key} needs an integer value (at most 18 digits), got '{shown(value.strip(BLANKS))}'",
            file=fname,
            line=lineno,
        )
    sign = "-" if m.group().startswith("-") else ""
    return int(sign + (m.group().lstrip("+-").lstrip("0") or "0"))


def parse_prm(
    lines: Iterable[tuple[int, str]], *, name: str = "<prm>", limits: Limits = DEFAULT_LIMITS
) -> EvalbParams:
    """Parse ``(lineno, text)`` lines of a parameter file (see the module docstring).

    The file is one block: at most ``limits.block_lines`` settings and ``limits.block_bytes``
    bytes, comment lines included (a file of comments costs what a block of them costs)."""
    delete: list[str] = []
    delete_len: list[str] = []
    quote: list[str] = []
    eq_labels: list[tuple[str, str]] = []
    eq_words: list[tuple[str, str]] = []
    warnings: list[str] = []
    settings: dict[str, int] = {}
    kept = size = 0
    for lineno, raw in lines:
        size += len(raw) + 1
        if size > limits.block_bytes:
            what = f"parameter file has more than {limits.block_bytes} bytes"
            raise limits.error("block_bytes", what, file=name, line=lineno)
        text = raw.rstrip(BLANKS)  # evalb's isspace: ASCII blanks only (a no-break space is text)
        if text.startswith("#") or len(text) < 3:
            continue
        if text[0] in BLANKS:  # evalb matches keywords at the start of the line only
            warnings.append(f"{name}:{lineno}: line starts with blanks, ignored (evalb ignores it too)")
            continue
        kept += 1
        if kept > limits.block_lines:
            what = f"parameter file has more than {limits.block_lines} settings"
            raise limits.error("block_lines", what, file=name, line=lineno)
        parts = _BLANK_RUN.split(text, 1)
        key = parts[0]
        value = parts[1].strip(BLANKS) if len(parts) > 1 else ""
        if not value:
            warnings.append(f"{name}:{lineno}: empty value for {key}")
        if key in ("DEBUG", "MAX_ERROR", "CUTOFF_LEN", "LABELED"):
            settings[key] = _int_value(value, key, name, lineno)
        elif key == "DELETE_LABEL":
            delete.append(value)
        elif key == "DELETE_LABEL_FOR_LENGTH":
            delete_len.append(value)
        elif key == "QUOTE_LABEL":
            quote.append(value)
        elif key in ("EQ_LABEL", "EQ_WORD"):
            pair = _BLANK_RUN.split(value)
            if len(pair) != 2:
                warnings.append(f"{name}:{lineno}: {key} requires two values, line ignored")
                continue
            (eq_labels if key == "EQ_LABEL" else eq_words).append((pair[0], pair[1]))
        else:
            warnings.append(f"{name}:{lineno}: unknown keyword '{key}' in parameter file, line ignored")
    return EvalbParams(
        delete_labels=tuple(delete),
        delete_labels_for_length=tuple(delete_len),
        quote_labels=tuple(quote),
        eq_labels=tuple(eq_labels),
        eq_words=tuple(eq_words),
        cutoff_len=settings.get("CUTOFF_LEN", 40),
        labeled=settings.get("LABELED", 1) != 0,
        max_error=settings.get("MAX_ERROR", 10),
        debug=settings.get("DEBUG", 0),
        name=name,
        warnings=tuple(warnings),
    )


def read_prm(source: InputSource, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS) -> EvalbParams:
    """Read an evalb parameter file (path or bytes)."""
    fname = source_name(source, name)
    return parse_prm(iter_lines(source, fname, limits, runs=True), name=fname, limits=limits)
