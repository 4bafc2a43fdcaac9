"""Interrupts: every command stops on the first SIGINT, SIGTERM or SIGHUP, and its children with it
(docs/robustness.md, "Interrupts: every command stops, its children with it").

:func:`stop_on_signals` (around every command) turns the first of those signals into
:class:`Interrupted` in the main thread and ignores later ones during the bounded cleanup;
:func:`worker_initializer` (first in every ``evalcore batch`` worker) ignores SIGINT and dies with its
parent (:func:`die_with_parent`); :func:`signals_blocked` holds the stop signals back while workers
start; :func:`stop_children` ends them.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = [
    "STOP_SIGNALS",
    "Interrupted",
    "die_with_parent",
    "signals_blocked",
    "stop_children",
    "stop_on_signals",
    "worker_initializer",
]

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that stop a command (SIGHUP: its terminal was closed)."""

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class Interrupted(KeyboardInterrupt):
    """A stop signal arrived (``signum``); a :class:`KeyboardInterrupt`, so that whatever cleans up
    after Ctrl-C cleans up after it too."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Inside: the first stop signal raises :class:`Interrupted` (main thread only; elsewhere this
    does nothing); the previous handlers come back on the way out."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> None:
        if fired:  # the cleanup of the first one is running
            return
        fired.append(signum)
        raise Interrupted(signum)

    previous: dict[signal.Signals, object] = {}
    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) is not signal.SIG_IGN:
            previous[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)  # type: ignore[arg-type]


@contextmanager
def signals_blocked() -> Iterator[None]:
    """The stop signals held back (pending, not lost) in this thread while inside; child processes
    and threads started inside start with them blocked (POSIX; elsewhere this does nothing)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process (SIGKILL) when its parent ends, however it ends (Linux:
    ``prctl(PR_SET_PDEATHSIG)``, through ctypes; elsewhere nothing).  If ``parent`` already ended
    before that was set up, exit now."""
    if sys.platform.startswith("linux"):
        import ctypes  # only in child processes (start-up)

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no libc to call: the parent stops its workers itself
            pass
    if os.getppid() != parent:
        os._exit(1)


def worker_initializer(parent: int) -> None:
    """First thing in a worker process started by ``parent`` (see the module's text)."""
    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def stop_children(grace: float = 1.0) -> None:
    """End every child process :mod:`multiprocessing` started: SIGTERM, then SIGKILL for those
    still running after ``grace`` seconds; wait for them."""
    import multiprocessing

    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    deadline = time.monotonic() + grace
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
    for child in children:
        if child.is_alive():
            child.kill()
            child.join(1.0)
    # a child's pipe closes a moment before it can be waited for: until then it still looks alive
    while any(child.is_alive() for child in children) and time.monotonic() < deadline + 1.0:
        time.sleep(0.005)
