"""Line input shared by every reader: paths, gzip, uploaded bytes, BOM, CRLF.

``iter_lines`` yields ``(lineno, text)`` with 1-based line numbers and the line
end stripped.  Text must be UTF-8 (a BOM is accepted); anything else is an
:class:`InputFormatError` naming the line.
"""

from __future__ import annotations

import gzip
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from evalcore.errors import InputFormatError

__all__ = ["InputSource", "iter_lines", "source_name"]

InputSource = str | os.PathLike[str] | bytes
"""A path, or the raw bytes of an uploaded file (then pass ``name``)."""


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
    try:
        for lineno, raw in enumerate(fh, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputFormatError(
                    f"not valid UTF-8 (byte {exc.start + 1} of the line)", file=fname, line=lineno
                ) from None
            if lineno == 1 and text.startswith("\ufeff"):
                text = text[1:]
            yield lineno, text.rstrip("\r\n")
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise InputFormatError(f"cannot read: {exc}", file=fname) from exc
    finally:
        fh.close()
