"""Line input shared by every reader: paths, gzip, uploaded bytes, BOM, CRLF.

``iter_lines`` yields ``(lineno, text)`` with 1-based line numbers and the line
end stripped.  Text must be UTF-8 (a BOM is accepted); anything else is an
:class:`InputFormatError` naming the line.  So is a corrupt or truncated gzip
stream (the line is the first one that could not be decompressed) and a line
longer than :data:`MAX_LINE_BYTES` (a gzip bomb of one endless line must not
fill the memory).

``shown`` shortens a piece of input quoted in an error message, so that a
hostile file cannot make a message of megabytes.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from evalcore.errors import InputFormatError

__all__ = ["MAX_LINE_BYTES", "InputSource", "iter_lines", "shown", "source_name"]

InputSource = str | os.PathLike[str] | bytes
"""A path, or the raw bytes of an uploaded file (then pass ``name``)."""

MAX_LINE_BYTES = 32 * 1024 * 1024
"""Longest line any reader accepts (32 MiB); longer is an :class:`InputFormatError`."""


def shown(text: str, limit: int = 40) -> str:
    """``text`` as quoted in an error message: at most ``limit`` characters (then ``…``)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def source_name(source: InputSource, name: str | None = None) -> str:
    """The name used in error messages."""
    if name is not None:
        return name
    if isinstance(source, bytes):
        return "<upload>"
    return str(source)


def _open_binary(source: InputSource, name: str) -> IO[bytes]:
    if isinstance(source, bytes):
        raw: IO[bytes] = io.BytesIO(source)
        if source[:2] == b"\x1f\x8b":
            return gzip.GzipFile(fileobj=raw)
        return raw
    path = Path(source)
    try:
        fh: IO[bytes] = open(path, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise InputFormatError(f"cannot open: {exc.strerror}", file=name) from exc
    head = fh.read(2)
    fh.seek(0)
    if head == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=fh)
    return fh


def iter_lines(source: InputSource, name: str | None = None) -> Iterator[tuple[int, str]]:
    """Yield ``(lineno, line)`` without line ends; handles BOM, CRLF, gzip."""
    fname = source_name(source, name)
    fh = _open_binary(source, fname)
    lineno = 0
    try:
        while True:
            try:
                raw = fh.readline(MAX_LINE_BYTES + 1)
            except (OSError, EOFError, zlib.error) as exc:  # corrupt or truncated gzip
                raise InputFormatError(f"cannot read: {exc}", file=fname, line=lineno + 1) from exc
            if not raw:
                return
            lineno += 1
            if len(raw) > MAX_LINE_BYTES:
                raise InputFormatError(
                    f"line longer than {MAX_LINE_BYTES // (1024 * 1024)} MiB", file=fname, line=lineno
                )
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputFormatError(
                    f"not valid UTF-8 (byte {exc.start + 1} of the line)", file=fname, line=lineno
                ) from None
            if lineno == 1 and text.startswith("\ufeff"):
                text = text[1:]
            yield lineno, text.rstrip("\r\n")
    finally:
        fh.close()
