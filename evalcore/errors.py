"""Typed errors.  Every input error names the file, the 1-based line and what is wrong.

``str(error)`` is always one line ``FILE:LINE: message``, made by :func:`one_line`, the one place every
message passes through (docs/robustness.md, "Messages: one line, no terminal escapes").
"""

from __future__ import annotations

import re

__all__ = [
    "MAX_MESSAGE",
    "EvalcoreError",
    "InputFormatError",
    "LimitError",
    "MismatchError",
    "OutputError",
    "PatternError",
    "PatternLimitError",
    "TreeStructureError",
    "UnificationError",
    "escape_controls",
    "one_line",
]

MAX_MESSAGE = 400
"""Longest ``str(error)`` (characters): a hostile input can never make a message of megabytes."""


_FILE_ROOM = 60
"""Characters a file name keeps at least in a message (its beginning and its end, the file's own name)."""


_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""What a terminal may act on, after the line breaks are gone: C0 controls but the tab, DEL, C1
controls (ESC starts a terminal's escape sequences, BEL rings, CSI ``\\x9b`` is a one-byte ``ESC [``),
and the bidirectional embeddings, overrides and isolates, which reorder what is shown after them."""


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` with every control character of :data:`_CONTROL` written as ``\\xNN`` or ``\\uNNNN``
    (as Python writes it in a ``repr``); the tab and printable text are kept as they are."""
    return _CONTROL.sub(_escaped, text)


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` on one line (every line break Python knows becomes a space), its control characters
    escaped (:func:`escape_controls`), and at most ``limit`` characters: a longer text keeps its
    beginning and its end (where a limit message says how to raise the limit) around ``…``."""
    text = escape_controls(" ".join(text.splitlines()))
    if len(text) <= limit:
        return text
    tail = limit // 3
    return text[: limit - tail - 1] + "…" + text[-tail:]


class EvalcoreError(Exception):
    """Base of every error evalcore raises on purpose."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        sentence: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.sentence = sentence

    def __str__(self) -> str:
        rest = f": {self.message}"
        if self.sentence and self.sentence not in self.message:
            sentence = self.sentence if len(self.sentence) <= 60 else self.sentence[:59] + "…"
            rest += f" (sentence {sentence})"
        line = f":{self.line}" if self.line is not None else ""
        # a long file name yields its room to the message (down to _FILE_ROOM characters)
        room = max(_FILE_ROOM, MAX_MESSAGE - len(rest) - len(line))
        where = one_line(self.file or "<input>", min(200, room))
        # one line of bounded length, whatever the input held
        return one_line(f"{where}{line}{rest}")


class InputFormatError(EvalcoreError):
    """A file cannot be read: bad encoding, wrong column count, a non-integer ID or HEAD..."""


class LimitError(InputFormatError):
    """An input passes one of the resource limits of :mod:`evalcore.limits`; the message names
    the limit and how to raise it: ``FILE:LINE: ... (limit N; raise with --max-... or EVALCORE_MAX_...)``."""

    def __init__(
        self,
        message: str,
        *,
        limit: str,
        file: str | None = None,
        line: int | None = None,
        sentence: str | None = None,
    ) -> None:
        super().__init__(message, file=file, line=line, sentence=sentence)
        self.limit = limit


class PatternError(InputFormatError):
    """A request or a pattern file cannot be read (docs/patterns.md, "Errors"): ``FILE:LINE: message``,
    the line 1-based in the file (or in the request's text)."""


class PatternLimitError(LimitError, PatternError):
    """A request's search in one sentence tries more candidate words than ``--max-pattern-steps``
    allows (docs/robustness.md, "Pattern searches"): a :class:`LimitError` (the limit's message, the
    request's ``FILE:LINE``, the sentence) that is also a :class:`PatternError`, so that whatever says a
    malformed request (the inspector's pattern filter) says this one too."""


class TreeStructureError(EvalcoreError):
    """A sentence was read but is not a tree: a cycle, no root, a head out of range."""


class MismatchError(EvalcoreError):
    """Gold and system files do not describe the same sentences or tokens."""


class OutputError(EvalcoreError):
    """A file a command was asked to write cannot be written, or would overwrite one of its inputs
    (``OUT: message``; :mod:`evalcore.outputs`)."""


class UnificationError(EvalcoreError):
    """Two trees cannot be unified (crossing spans or conflicting labels)."""
