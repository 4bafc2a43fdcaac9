"""Typed errors.  Every input error names the file, the 1-based line and what is wrong.

``str(error)`` is always one line ``FILE:LINE: message`` so the CLI can print it
as it is and the app can show it in the page.
"""

from __future__ import annotations

__all__ = [
    "EvalcoreError",
    "InputFormatError",
    "MismatchError",
    "TreeStructureError",
    "UnificationError",
]


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
        where = self.file or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        text = f"{where}: {self.message}"
        if self.sentence and self.sentence not in self.message:
            sentence = self.sentence if len(self.sentence) <= 60 else self.sentence[:59] + "…"
            text += f" (sentence {sentence})"
        # one line, whatever the input held: every character str.splitlines() breaks at
        return " ".join(text.splitlines())


class InputFormatError(EvalcoreError):
    """A file cannot be read: bad encoding, wrong column count, a non-integer ID or HEAD..."""


class TreeStructureError(EvalcoreError):
    """A sentence was read but is not a tree: a cycle, no root, a head out of range."""


class MismatchError(EvalcoreError):
    """Gold and system files do not describe the same sentences or tokens."""


class UnificationError(EvalcoreError):
    """Two trees cannot be unified (crossing spans or conflicting labels)."""
