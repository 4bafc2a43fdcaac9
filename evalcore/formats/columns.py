"""The one line parser of tab-separated sentence files (docs/formats.md, "One line parser").

A line is split into its fields and given a kind: ``blank``, ``comment`` (a ``#`` line), or by its
ID a ``word``, a multiword-token ``range`` (``3-4``) or an ``empty`` node (``5.1``), in the CoNLL
2018 scorer's order (a ``.`` first, then a ``-``; on every ID the CoNLL-U grammar accepts, the
grammar's kind too).  What a line must hold is each reader's rule, layered above: its
:class:`Columns` and its checks of IDs and HEADs (the tree reader :mod:`evalcore.formats.conllu`,
the scorer's reading :mod:`evalcore.metrics.conll18`, the lattice reader; docs/decisions.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from evalcore.errors import InputFormatError
from evalcore.formats._io import shown

__all__ = [
    "MAX_DIGITS",
    "TOO_LARGE",
    "Columns",
    "LineKind",
    "comment_ids",
    "form_chars",
    "id_kind",
    "natural",
    "parse_line",
    "refused",
    "split_lines",
]

LineKind = Literal["blank", "comment", "word", "range", "empty"]

MAX_DIGITS = 18
"""Longer integers cannot be an ID, a HEAD or a lattice state of a real sentence (and ``int()``
refuses more than 4,300 digits)."""
TOO_LARGE: int = 10**MAX_DIGITS
"""What :func:`natural` gives for a longer integer: past the end of any sentence."""

_NO_FIELDS: list[str] = []


def refused(message: str, fname: str, lineno: int, sentence: str | None = None) -> InputFormatError:
    """The error for a line a reader refuses, naming its file, line and sentence (to ``raise``)."""
    return InputFormatError(message, file=fname, line=lineno, sentence=sentence)


@dataclass(frozen=True, slots=True)
class Columns:
    """A reader's column rule: the counts it accepts and its message for any other count
    (``{found}``: the count, ``{line}``: the line, shortened)."""

    widths: tuple[int, ...]
    message: str

    def split(self, line: str, fname: str, lineno: int, sentence: str | None = None) -> list[str]:
        """The fields of ``line``, or :class:`InputFormatError` naming file, line and sentence."""
        cols = line.split("\t")
        if len(cols) not in self.widths:
            raise self.refusal(line, len(cols), fname, lineno, sentence)
        return cols

    def refusal(
        self, line: str, found: int, fname: str, lineno: int, sentence: str | None
    ) -> InputFormatError:
        return refused(self.message.format(found=found, line=shown(line)), fname, lineno, sentence)


def id_kind(raw_id: str) -> LineKind:
    """``empty`` for an ID with a ``.``, else ``range`` for one with a ``-``, else ``word`` (the
    scorer's order; whether the ID is well formed is the reader's rule)."""
    if "." in raw_id:
        return "empty"
    if "-" in raw_id:
        return "range"
    return "word"


def parse_line(
    line: str,
    columns: Columns,
    fname: str,
    lineno: int,
    sentence: str | None = None,
    *,
    comments: bool = True,
) -> tuple[LineKind, list[str]]:
    """The kind and fields of one line (no fields for a blank line or a comment).

    ``comments=False``: a ``#`` line is split like any other (inside a sentence the scorer has no
    comments, so such a line is refused for its column count or its ID)."""
    if not line:
        return "blank", _NO_FIELDS
    if comments and line[0] == "#":
        return "comment", _NO_FIELDS
    cols = line.split("\t")  # Columns.split, without the call (most lines)
    if len(cols) not in columns.widths:
        raise columns.refusal(line, len(cols), fname, lineno, sentence)
    raw_id = cols[0]  # id_kind's rule without the call (every line of a file; a test keeps them equal)
    if "." in raw_id:
        return "empty", cols
    return ("range" if "-" in raw_id else "word"), cols


def split_lines(lines: Sequence[tuple[int, str]], columns: Columns) -> list[list[str] | None]:
    """The fields of each line of a sentence block, as :func:`parse_line` splits them (``None`` for
    a comment), up to the first line whose column count ``columns`` refuses: a list shorter than
    ``lines`` stops before that line, which the reader refuses once it has read the lines before
    it (so its errors come in line order).  A block has no blank line.  One call per sentence: the
    tree reader's hot path."""
    fields = [None if line[0] == "#" else line.split("\t") for _, line in lines]
    widths = columns.widths
    if {len(cols) for cols in fields if cols is not None}.issubset(widths):
        return fields
    return fields[: next(i for i, cols in enumerate(fields) if cols is not None and len(cols) not in widths)]


def natural(raw: str) -> int | None:
    """A field of ASCII digits as an integer (leading zeros dropped; :data:`TOO_LARGE` past
    :data:`MAX_DIGITS` digits), ``None`` for anything else (a sign, a space, ``_``, other digits)."""
    if not (raw.isascii() and raw.isdigit()):
        return None
    digits = raw.lstrip("0") or "0"
    return int(digits) if len(digits) <= MAX_DIGITS else TOO_LARGE


def form_chars(form: str) -> str:
    """A FORM's characters in the text both files must share: without any Unicode space (``Zs``),
    as the scorer compares them (so a token written with spaces matches one without)."""
    if form.isascii():
        return form.replace(" ", "")
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


def comment_ids(line: str, sent_id: str, text: str) -> tuple[str, str]:
    """The sentence id and text after the comment ``line``, given those before it.

    ``# key = value`` is split as ``conllu.parser.parse_comment_line`` splits it (both stripped;
    an empty key or value is no pair): ``sent_id`` and ``text`` set them (a later one wins).  The
    UD v1 forms ``# sent_id 12`` and ``# sentence-text: ...`` fill what is still empty."""
    body = line[1:].strip()
    key, eq, value = body.partition("=")
    key, value = key.strip(), value.strip()
    if eq and key == "sent_id" and value:
        return value, text
    if eq and key == "text" and value:
        return sent_id, value
    if body.startswith("sent_id ") and not sent_id:
        return body[len("sent_id ") :].strip().removeprefix("=").strip(), text
    if body.startswith("sentence-text:") and not text:
        return sent_id, body[len("sentence-text:") :].strip()
    return sent_id, text
