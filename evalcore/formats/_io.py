"""Line input shared by every reader: paths, gzip, uploaded bytes, BOM, CRLF, resource limits
(docs/formats.md, "Common to every reader"; CR-only line ends: docs/decisions.md).

``iter_lines`` yields ``(lineno, text)`` with 1-based line numbers and the line
end stripped.  Input is read in chunks of :data:`CHUNK` bytes, after decompression, and the
limits of :class:`evalcore.limits.Limits` are applied as the bytes arrive, so a gzip bomb
costs at most the limit.  :func:`blocks` groups lines into blank-line separated sentence blocks
under the block limits, refusing a block at the line that passes the limit.  ``shown`` shortens
a piece of input quoted in an error message.
"""

from __future__ import annotations

import io
import os
import stat
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from evalcore.errors import InputFormatError
from evalcore.limits import DEFAULT_LIMITS, Limits

__all__ = [
    "BLANKS",
    "CHUNK",
    "InMemoryText",
    "InputSource",
    "blocks",
    "decompressed_size",
    "iter_lines",
    "shown",
    "source_name",
]

BLANKS = " \t\n\r\f\v"
"""What separates labels and words in evalb's files: the ASCII blanks of C's ``isspace`` (evalb calls
no ``setlocale``), as evalb reads them.  A no-break space or any other Unicode space is part of a
word (``(CD 2\u00a0000)`` is one word); Python's ``str.split()`` and ``\\s`` would cut there."""

CHUNK = 1 << 20
"""Bytes read (after decompression) at a time."""


@dataclass(frozen=True, slots=True)
class InMemoryText:
    """A file's content held as a ``str`` (the public API's in-memory input), read like a file: it
    is encoded to UTF-8 a chunk at a time as it is read, so the limits apply while it streams and
    no encoded copy of the whole is ever made (a 1 GB string peaked at 1.9 GB before)."""

    text: str


InputSource = str | os.PathLike[str] | bytes | InMemoryText
"""A path, the raw bytes of an uploaded file, or text held in memory (then pass ``name``)."""


class _TextStream(io.RawIOBase):
    """:class:`InMemoryText` as a binary stream: each read encodes the next characters."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._pos = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        """The next ``size`` characters (all of them without ``size``), encoded."""
        end = len(self._text) if size is None or size < 0 else self._pos + max(size // 4, 1)
        piece = self._text[self._pos : end]
        self._pos += len(piece)
        return piece.encode("utf-8", "surrogatepass")

    read1 = read


def shown(text: str, limit: int = 40) -> str:
    """``text`` as quoted in an error message: at most ``limit`` characters (then ``…``)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def source_name(source: InputSource, name: str | None = None) -> str:
    """The name used in error messages."""
    if name is not None:
        return name
    if isinstance(source, bytes):
        return "<upload>"
    if isinstance(source, InMemoryText):
        return "<text>"
    return str(source)


def _gunzip(fileobj: io.BufferedIOBase) -> io.BufferedIOBase:
    import gzip  # only for compressed input (kept out of start-up)

    return gzip.GzipFile(fileobj=fileobj)


def _open_binary(source: InputSource, name: str) -> io.BufferedIOBase:
    if isinstance(source, bytes):
        raw = io.BytesIO(source)
        if source[:2] == b"\x1f\x8b":
            return _gunzip(raw)
        return raw
    if isinstance(source, InMemoryText):
        return _TextStream(source.text)  # type: ignore[return-value]  # read1/read/close are all we use
    path = Path(source)
    _regular_or_device(path, name)
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise InputFormatError(f"cannot open: {exc.strerror}", file=name) from exc
    head = fh.read(2)
    fh.seek(0)
    if head == b"\x1f\x8b":
        return _gunzip(fh)
    return fh


def _regular_or_device(path: Path, name: str) -> None:
    """Refuse a named pipe or a socket before opening it: opening a pipe waits for a writer
    (forever, if there is none), and every reader opens its input again to read it a second time
    (the format is sniffed first; a parse of another tokenization is read again to align it), which
    a pipe cannot give.  Regular files and devices (``/dev/null``) are read as files."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # open() says why
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        kind = "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket"
        raise InputFormatError(
            f"cannot read {kind}: evalcore reads an input file more than once and would wait on a "
            "pipe; save it to a file first",
            file=name,
        )


def decompressed_size(source: InputSource, limit: int, name: str | None = None) -> int:
    """The size of ``source`` after gzip decompression, counted while decompressing and stopping
    as soon as it passes ``limit`` (then ``limit + 1`` is returned).  A corrupt stream counts what
    could be read (the reader reports the error with its line)."""
    fname = source_name(source, name)
    total = 0
    fh = _open_binary(source, fname)
    try:
        while total <= limit:
            chunk = fh.read(min(CHUNK, limit + 1 - total))
            if not chunk:
                break
            total += len(chunk)
    except (OSError, EOFError, zlib.error):
        pass
    finally:
        fh.close()
    return min(total, limit + 1)


def _decode(raw: bytes, fname: str, lineno: int) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFormatError(
            f"not valid UTF-8 (byte {exc.start + 1} of the line)", file=fname, line=lineno
        ) from None
    if lineno == 1 and text.startswith("\ufeff"):
        text = text[1:]
    if text.endswith("\r"):
        text = text.rstrip("\r")
    if "\r" in text:
        raise InputFormatError(
            "carriage return (CR) inside a line: the file seems to have CR-only line ends "
            "(old Mac); evalcore reads LF or CRLF line ends",
            file=fname,
            line=lineno,
        )
    return text


def iter_lines(
    source: InputSource,
    name: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    *,
    runs: bool = False,
    cr_ends: bool = False,
) -> Iterator[tuple[int, str]]:
    """Yield ``(lineno, line)`` without line ends; handles BOM, CRLF, gzip; applies the file limits.

    ``runs=True`` yields only the first empty line of a run of empty lines (for readers to which
    any number of empty lines means the same: a file of millions of them is read fast).
    ``cr_ends=True``: a lone CR ends a line too (CR-only line ends read as the CoNLL 2018 scorer
    reads them); otherwise a CR inside a line is an error.
    """
    fname = source_name(source, name)
    max_line = limits.line_bytes
    fh = _open_binary(source, fname)
    lineno = 0
    total = 0
    pending = b""
    blank = False
    try:
        while True:
            try:
                chunk = fh.read1(CHUNK)  # what is decompressed so far: lines before a corrupt part are read
            except (OSError, EOFError, zlib.error) as exc:  # corrupt or truncated gzip
                raise InputFormatError(f"cannot read: {exc}", file=fname, line=lineno + 1) from exc
            total += len(chunk)
            over_bytes = total > limits.input_bytes
            if over_bytes:  # keep what is within the limit, then stop
                chunk = chunk[: len(chunk) - (total - limits.input_bytes)]
            data = pending + chunk if pending else chunk
            held = b""
            if cr_ends and b"\r" in data:  # Python's universal newlines: CRLF, then a lone CR, is an LF
                if chunk and data.endswith(b"\r"):
                    data, held = data[:-1], b"\r"  # the LF of its CRLF may start the next chunk
                data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            lines = data.split(b"\n")
            pending = lines.pop() + held
            if not chunk and not over_bytes and pending:
                lines.append(pending)  # a last line without a line end
                pending = b""
            over_lines = lineno + len(lines) > limits.input_lines
            if over_lines:
                del lines[limits.input_lines - lineno :]
            for raw in lines:
                lineno += 1
                if not raw or raw == b"\r":
                    if not (runs and blank):
                        blank = True
                        yield lineno, ""
                    continue
                blank = False
                if len(raw) > max_line:
                    raise _long_line(raw, limits, fname, lineno)
                yield lineno, _decode(raw, fname, lineno)
            if over_lines:
                what = f"file has more than {limits.input_lines} lines"
                raise limits.error("input_lines", what, file=fname, line=lineno + 1)
            if over_bytes:
                what = f"file has more than {limits.input_bytes} bytes (after decompression)"
                raise limits.error("input_bytes", what, file=fname, line=lineno + 1)
            if len(pending) > max_line:
                raise _long_line(pending, limits, fname, lineno + 1)
            if not chunk:
                return
    finally:
        fh.close()


def _long_line(raw: bytes, limits: Limits, fname: str, lineno: int) -> InputFormatError:
    hint = " (it holds carriage returns: CR-only line ends?)" if b"\r" in raw[: limits.line_bytes] else ""
    return limits.error(
        "line_bytes", f"line longer than {limits.line_bytes} bytes{hint}", file=fname, line=lineno
    )


def blocks(
    numbered: Iterable[tuple[int, str]], fname: str, limits: Limits = DEFAULT_LIMITS
) -> Iterator[list[tuple[int, str]]]:
    """Blank-line separated blocks of ``(lineno, line)``, each within the block limits.

    A block is refused at the line that passes ``block_lines`` or ``block_bytes``, before
    more of it is kept.
    """
    block: list[tuple[int, str]] = []
    size = 0
    max_lines, max_bytes = limits.block_lines, limits.block_bytes
    for lineno, line in numbered:
        if not line or line.isspace():  # also a line of spaces ends a block
            if block:
                yield block
                block = []
                size = 0
            continue
        size += len(line) + 1
        if len(block) >= max_lines:
            raise limits.error(
                "block_lines",
                f"sentence block starting at line {block[0][0]} has more than {max_lines} lines",
                file=fname,
                line=lineno,
            )
        if size > max_bytes:
            raise limits.error(
                "block_bytes",
                f"sentence block starting at line {block[0][0] if block else lineno} has more than "
                f"{max_bytes} bytes",
                file=fname,
                line=lineno,
            )
        block.append((lineno, line))
    if block:
        yield block
