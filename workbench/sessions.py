"""What the server holds for one session, bounded by the session's budget and released when the
session ends (docs/robustness.md, "App limits": what a session holds, the upload endpoint's 413,
what a closed session leaves).

:func:`held_besides` counts the upload manager's files of this session that it did not accept (for
:func:`workbench.uploads.budget_used`); :func:`_guard_uploads` makes the upload manager refuse a file
past the budget and one more file; :func:`hold_session` releases the session's uploads when its
connection closes.  Where Streamlit's runtime (``Runtime.instance()``) is absent (``AppTest``) or
has no such upload manager, nothing is wrapped and only the session's own state counts.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

__all__ = ["forget_streamlit_files", "held_besides", "hold_session", "holds_uploads", "session_id"]

UPLOAD_KEYS = ("_wb_uploads", "_wb_slot:")
"""Session-state keys (exact, or prefixes ending in ``:``) of the files a session accepted."""


def session_id() -> str | None:
    """This script run's session (``None`` outside a run)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return None if ctx is None else ctx.session_id


def _manager() -> Any | None:
    """Streamlit's upload manager, if it keeps files in memory by session (``file_storage``)."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None
    mgr = Runtime.instance().uploaded_file_mgr
    return mgr if isinstance(getattr(mgr, "file_storage", None), dict) else None


def _files_of(mgr: Any, sid: str) -> list[Any]:
    """The upload manager's files (``UploadedFileRec``) of session ``sid``."""
    storage = mgr.file_storage.get(sid)
    return list(storage.values()) if storage else []


def held_besides(accepted: Collection[str]) -> int:
    """Bytes of the files Streamlit holds for this session other than ``accepted`` (file ids):
    refused uploads still in an upload box, replaced ones, files posted without a widget."""
    mgr, sid = _manager(), session_id()
    if mgr is None or sid is None:
        return 0
    return sum(len(rec.data) for rec in _files_of(mgr, sid) if rec.file_id not in accepted)


def holds_uploads() -> None:
    """This session has accepted an upload: when its connection closes it is shut down, not kept
    for reconnection (``Runtime.mark_session_nonresumable``), so that Streamlit frees all it held
    -- session state, widgets (a sentence picker's options are the sentences), fragments, files."""
    from streamlit.runtime import Runtime

    sid = session_id()
    if sid is not None and Runtime.exists():
        Runtime.instance().mark_session_nonresumable(sid)


def forget_streamlit_files() -> None:
    """Drop every file Streamlit holds for this session (what "Forget uploaded files" frees)."""
    mgr, sid = _manager(), session_id()
    if mgr is not None and sid is not None:
        mgr.remove_session_files(sid)


# ---------------------------------------------------------------------------
# the budget at the upload endpoint


def _refuse(budget: int, held: int, size: int) -> Exception:
    from starlette.exceptions import HTTPException

    return HTTPException(
        status_code=413,
        detail=(
            f"this session already holds {held} bytes of uploaded files; {size} more would pass "
            f"{budget} bytes (its budget, EVALCORE_SESSION_BYTES, and one file of server.maxUploadSize)"
        ),
    )


@dataclass
class _UploadGuard:
    """Installed once per server: the upload manager's ``add_file``, refusing a file that would
    take the session's files in the manager past the session budget."""

    installed: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


@st.cache_resource(show_spinner=False)
def _guard() -> _UploadGuard:
    _two_malloc_arenas()
    return _UploadGuard()


M_ARENA_MAX = -8  # glibc's mallopt parameter


def _two_malloc_arenas() -> None:
    """At most two glibc heap arenas for the server's threads (``MALLOC_ARENA_MAX=2``; why:
    docs/decisions.md and docs/robustness.md).  Set here it only limits the arenas made after the
    first run: ``evalcore app`` sets ``MALLOC_ARENA_MAX=2`` before the server starts."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, 2)


def _guard_uploads(budget: int) -> None:
    """Wrap the upload manager's ``add_file`` (once): a session's files there stay within
    ``budget`` bytes and one file of at most ``server.maxUploadSize``."""
    guard = _guard()
    with guard.lock:
        mgr = _manager()
        if guard.installed or mgr is None:
            return
        mgr.add_file = bounded(mgr, budget + int(st.get_option("server.maxUploadSize")) * 1024 * 1024)
        guard.installed = True


def bounded(mgr: Any, most: int) -> Callable[[str, Any], None]:
    """``mgr.add_file``, refusing (HTTP 413) a file that would take the session's files in ``mgr``
    past ``most`` bytes."""
    add_file: Callable[[str, Any], None] = mgr.add_file

    def bounded_add_file(session_id: str, file: Any) -> None:
        held = sum(len(rec.data) for rec in _files_of(mgr, session_id) if rec.file_id != file.file_id)
        if held + len(file.data) > most:
            raise _refuse(most, held, len(file.data))
        add_file(session_id, file)

    return bounded_add_file


# ---------------------------------------------------------------------------
# the end of a session


@dataclass(frozen=True)
class _Hold:
    """Made once per session; released (``on_release``) when Streamlit clears the session's
    caches, i.e. when its connection closes or it is shut down."""

    session_id: str
    state: Any  # the session's SafeSessionState
    fragments: Any  # its FragmentStorage (fragments' closures hold what they show: a dataset's trees)


def _release(hold: _Hold) -> None:
    """The session's connection has closed: drop what it uploaded (its state and fragments, if it
    held an upload; Streamlit shuts such a session down, :func:`holds_uploads`) and every file
    Streamlit kept for it, then give the memory back.  A session that held nothing of the kind
    is left as it is (it may reconnect)."""
    mgr = _manager()
    files = bool(mgr is not None and _files_of(mgr, hold.session_id))
    uploads = any(
        (key in UPLOAD_KEYS or key.startswith(UPLOAD_KEYS[1])) and value
        for key, value in hold.state.filtered_state.items()
    )
    if uploads:
        for key in list(hold.state.filtered_state):
            with contextlib.suppress(KeyError, AttributeError):
                del hold.state[key]
        with contextlib.suppress(AttributeError):
            hold.fragments.clear()
    if files and mgr is not None:
        mgr.remove_session_files(hold.session_id)
    if uploads or files:
        timer = threading.Timer(2.0, _give_back, (RELEASED.format(hold.session_id),))
        timer.daemon = True
        timer.start()
    else:
        _window().ended()


class _ReconnectWindow:
    """The sessions that ended holding no upload, kept by Streamlit for reconnection
    (``server.disconnectedSessionTTL``, 120 s by default): once the last one's window has closed,
    they are dropped from Streamlit's store and their memory is given back (one timer for all of
    them, moved on by each session that ends meanwhile)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.lock = threading.Lock()
        self.due = 0.0
        self.timer: threading.Timer | None = None

    def ended(self) -> None:
        with self.lock:
            self.due = time.monotonic() + self.seconds + 1.0
            if self.timer is None:
                self._start(self.seconds + 1.0)

    def _start(self, wait: float) -> None:
        self.timer = threading.Timer(wait, self._closed)
        self.timer.daemon = True
        self.timer.start()

    def _closed(self) -> None:
        with self.lock:
            wait = self.due - time.monotonic()
            if wait > 0:
                self._start(wait)
                return
            self.timer = None
        _give_back(RELEASED_IDLE.format(_expire_stored_sessions()))


def _expire_stored_sessions() -> int:
    """Drop the disconnected sessions whose reconnection window has closed from Streamlit's store
    (a ``TTLCache``, which otherwise drops them only when another session is stored); the number it
    still keeps (-1: no such store)."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return -1
    try:
        store = Runtime.instance()._session_mgr._session_storage._cache
        store.expire()
        return len(store)
    except AttributeError:
        return -1


@st.cache_resource(show_spinner=False)
def _window() -> _ReconnectWindow:
    return _ReconnectWindow(float(st.get_option("server.disconnectedSessionTTL")))


RELEASED = "evalcore: the memory of ended session {} is given back"
"""The server log's line once an ended session's uploads are freed (what an operator, and
tests/e2e/test_server_memory.py, wait for)."""


RELEASED_IDLE = (
    "evalcore: the memory of the sessions that ended without uploads is given back "
    "({} disconnected sessions still kept)"
)
"""The server log's line once the sessions that ended holding nothing are past their reconnection
window and dropped (and how many Streamlit still keeps: 0 when no other session has ended since)."""


def _give_back(line: str) -> None:
    """Collect what the ended session left in reference cycles, and hand the freed memory back to
    the system (glibc keeps freed heap pages otherwise: the server would stay at its peak)."""
    import ctypes
    import gc

    from streamlit.logger import get_logger

    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    get_logger(__name__).info(line)


@st.cache_resource(show_spinner=False, scope="session", on_release=_release)
def _hold(sid: str, _state: Any, _fragments: Any) -> _Hold:
    return _Hold(sid, _state, _fragments)


def hold_session(budget: int) -> None:
    """Every run (``app.py``): the upload endpoint's budget check, and this session's release
    when it ends."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    _guard_uploads(budget)
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        _hold(ctx.session_id, ctx.session_state, ctx.fragment_storage)
