"""Files a command writes: checked before the work starts, then written atomically (docs/robustness.md,
"Files a command writes: checked first, written atomically").

A command declares such an option with :class:`OutputOption`; the command line checks it
(:func:`check_output`: not a folder, a writable folder, not one of the command's inputs compared as
files) before the command runs.  :func:`open_output` and :func:`write_text` write a temporary file
beside the target and rename it onto the target; a failure leaves the old file as it was.  A path
that exists and is not a regular file (``/dev/null``, a pipe) is written in place.
"""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TextIO

from evalcore.errors import OutputError

__all__ = [
    "OutputOption",
    "OutputPath",
    "OutputRequest",
    "check_output",
    "check_requested_outputs",
    "open_output",
    "write_text",
]

_TEMP_NAME_ROOM = 100
"""Characters of the target's name kept in the temporary file's name (names have at most 255 bytes)."""


@dataclass(frozen=True, slots=True)
class OutputRequest:
    """An output path as the command line gave it, not yet checked (``option``: ``--export-misc``)."""

    path: str
    option: str


@dataclass(frozen=True, slots=True)
class OutputPath:
    """A checked output: ``given`` as the user wrote it (for messages), ``real`` with every
    symbolic link resolved (the file replaced), ``in_place`` for an existing file that is not a
    regular file (a device or a pipe: written as it is), ``existed`` if a file was there."""

    given: str
    real: str
    in_place: bool = False
    existed: bool = False
    option: str = ""  # the option that named it, for messages

    def __str__(self) -> str:
        return self.given


class OutputOption(argparse.Action):
    """``parser.add_argument("--out", action=OutputOption, ...)``: an option that names a file the
    command writes.  Its value is an :class:`OutputRequest`, which the command line turns into a
    checked :class:`OutputPath` before the command runs (:func:`check_requested_outputs`); so
    every such option gets the checks, and tests find every one of them by this class."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, OutputRequest(str(values), option_string or self.dest))


def _fail(path: str, message: str, option: str = "") -> OutputError:
    return OutputError(f"{option}: {message}" if option else message, file=path)


def _refuse_inputs(
    path: str, target: os.stat_result, inputs: Iterable[str | os.PathLike[str]], option: str
) -> None:
    for given in inputs:
        try:
            other = os.stat(given)
        except (OSError, ValueError):  # an input that cannot be read is the reader's to report
            continue
        if (target.st_dev, target.st_ino) == (other.st_dev, other.st_ino):
            raise _fail(
                path,
                f"this is the input file {os.fspath(given)}; writing it would destroy it: "
                "choose another output file",
                option,
            )


def check_output(path: str, inputs: Iterable[str | os.PathLike[str]] = (), option: str = "") -> OutputPath:
    """``path`` checked as an output of a command reading ``inputs`` (see the module's text);
    raises :class:`~evalcore.errors.OutputError`.  ``option`` (``--export-misc``) names it in
    a message about an empty path."""
    if not path:
        raise _fail(option or "<output>", "the output path is empty")
    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        st = None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise _fail(path, f"cannot write here: {reason}", option) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise _fail(path, "this is a folder; give the path of a file", option)
        _refuse_inputs(path, st, inputs, option)
        if not os.access(path, os.W_OK):
            raise _fail(path, "cannot write here: the file is read-only", option)
        if not stat.S_ISREG(st.st_mode):
            return OutputPath(path, path, in_place=True, existed=True, option=option)
    real = os.path.realpath(path)
    folder = os.path.dirname(real) or os.curdir
    if not os.path.isdir(folder):
        raise _fail(path, f"cannot write here: the folder {folder} does not exist", option)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _fail(path, f"cannot write here: the folder {folder} is not writable", option)
    return OutputPath(path, real, in_place=False, existed=st is not None, option=option)


def check_requested_outputs(
    args: argparse.Namespace, inputs: Callable[[argparse.Namespace], Iterable[str]] | None
) -> None:
    """Every :class:`OutputRequest` among ``args`` replaced by its checked :class:`OutputPath`
    (``inputs(args)``: the files the command reads).  A command with an output option must say
    what it reads (``set_defaults(inputs=...)``)."""
    requests = {dest: v for dest, v in vars(args).items() if isinstance(v, OutputRequest)}
    if not requests:
        return
    if inputs is None:
        raise TypeError("a command with an output option must set_defaults(inputs=...)")
    read = list(inputs(args))
    for dest, request in requests.items():
        setattr(args, dest, check_output(request.path, read, request.option))


def _temporary(folder: str, name: str) -> tuple[int, str]:
    """A new file in ``folder``, created exclusively with the permissions a new file gets (0666
    less the umask): its descriptor and path."""
    import secrets  # only when a file is written (hashlib and OpenSSL: kept out of start-up)

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        path = os.path.join(folder, f".{name[:_TEMP_NAME_ROOM]}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue


def _sync_folder(folder: str) -> None:
    """``fsync`` the folder, so that the rename itself reaches the disk (not every system can)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_error(out: OutputPath, exc: OSError) -> OutputError:
    reason = exc.strerror or str(exc)
    if out.in_place:
        return _fail(out.given, f"cannot write: {reason}", out.option)
    kept = "the old file is left as it was" if out.existed else "no file was made"
    return _fail(out.given, f"cannot write: {reason}; {kept}", out.option)


@contextmanager
def open_output(target: OutputPath | str) -> Iterator[TextIO]:
    """A text file (UTF-8) to write the output to; it replaces the target when the ``with``
    block ends without an error, and nothing changes otherwise (see the module's text)."""
    out = target if isinstance(target, OutputPath) else check_output(target)
    if out.in_place:
        try:
            with open(out.given, "w", encoding="utf-8") as fh:
                yield fh
        except OSError as exc:
            raise _write_error(out, exc) from None
        return
    folder, name = os.path.split(out.real)
    try:
        fd, temporary = _temporary(folder or os.curdir, name)
    except OSError as exc:
        raise _write_error(out, exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            if out.existed:  # the new file keeps the old one's permissions
                os.fchmod(fh.fileno(), stat.S_IMODE(os.stat(out.real).st_mode))
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temporary, out.real)
    except BaseException as exc:  # an interrupt too: the old file stays, the temporary goes
        with suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise _write_error(out, exc) from None
        raise
    _sync_folder(folder or os.curdir)


def write_text(target: OutputPath | str, text: str) -> None:
    """``text`` written to ``target`` atomically (:func:`open_output`)."""
    with open_output(target) as fh:
        fh.write(text)
