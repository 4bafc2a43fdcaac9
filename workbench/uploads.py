"""Uploads: the size limit, file slots that never lose what was loaded, and the dataset choice of pages
whose inputs are not a gold + parses set (FREVAL, lattices).

**Limits.** Streamlit refuses a file larger than ``server.maxUploadSize``
(MB, ``.streamlit/config.toml``) in the browser, at the widget.  The app
checks again on the server (:func:`size_problem`), against the same limit,
and says in the page which file was refused and why; a gzipped file must
also not decompress to more than :data:`GZIP_FACTOR` times that limit (a
small file can expand to gigabytes).  Either way nothing is read from the
file and everything loaded before stays.

**Never written, never run.** Uploaded bytes stay in memory (Streamlit keeps
them in its in-memory upload manager; the app keeps them in session state and
in caches keyed on their SHA-1).  They are only passed, as ``bytes``, to
evalcore's readers; no code here or in the pages writes them to a file or
runs them (``tests/test_app_pages.py`` checks the sources for file writes,
subprocesses and ``eval``/``exec``).
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st

from workbench.datasets import BUILTINS, DatasetSpec, builtin
from workbench.widgets import UPLOAD_KEY, current_dataset_key, md_escape

__all__ = [
    "GZIP_FACTOR",
    "MB",
    "Upload",
    "choose_source",
    "forget_button",
    "size_problem",
    "upload_limit_mb",
    "upload_slot",
]

MB = 1024 * 1024
GZIP_FACTOR = 4
"""A gzipped upload may decompress to at most this many times the upload limit."""


def upload_limit_mb() -> int:
    """``server.maxUploadSize`` (MB), the limit Streamlit applies at the widget."""
    return int(st.get_option("server.maxUploadSize"))


def _mb(n: int) -> str:
    return f"{n / MB:.1f} MB"


def _decompressed_over(data: bytes, limit: int) -> bool:
    """Does the gzip stream ``data`` decompress to more than ``limit`` bytes?  (Reads at most that far.)"""
    total = 0
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
            while chunk := fh.read(1 << 20):
                total += len(chunk)
                if total > limit:
                    return True
    except (OSError, EOFError, zlib.error):
        return False  # a corrupt stream: the reader reports it with the line
    return False


def size_problem(name: str, data: bytes, limit_mb: int | None = None) -> str | None:
    """Why an uploaded file is refused for its size, or ``None`` (the message names the file and limit)."""
    limit_mb = upload_limit_mb() if limit_mb is None else limit_mb
    limit = limit_mb * MB
    if len(data) > limit:
        return (
            f"{name}: the file has {_mb(len(data))}, more than the upload limit of {limit_mb} MB per file "
            "(server.maxUploadSize in .streamlit/config.toml); it was not read, and the files loaded "
            "before are kept."
        )
    if data[:2] == b"\x1f\x8b" and _decompressed_over(data, GZIP_FACTOR * limit):
        return (
            f"{name}: the gzipped file decompresses to more than {GZIP_FACTOR * limit_mb} MB "
            f"({GZIP_FACTOR} × the upload limit of {limit_mb} MB); it was not read, and the files loaded "
            "before are kept."
        )
    return None


@dataclass(frozen=True, slots=True)
class Upload:
    """An accepted uploaded file (bytes in memory only)."""

    name: str
    data: bytes


def _state(key: str, default: object) -> object:
    return st.session_state.setdefault(key, default)


def upload_slot(
    label: str,
    *,
    key: str,
    validate: Callable[[str, bytes], str | None] | None = None,
    multiple: bool = False,
    help: str | None = None,
) -> list[Upload]:
    """A sidebar file uploader whose accepted files are kept in session state.

    Every new file is checked for its size (:func:`size_problem`), then by
    ``validate(name, data)`` (an error text, e.g. a reader's
    ``FILE:LINE: message``).  A refused file is shown with ``st.error`` and
    never replaces or removes what was accepted before; in a single-file slot
    an accepted file replaces the previous one.
    """
    store = _state(f"_wb_slot:{key}", {})
    errors = _state(f"_wb_slot_errors:{key}", {})
    seen = _state(f"_wb_slot_seen:{key}", set())
    assert isinstance(store, dict) and isinstance(errors, dict) and isinstance(seen, set)
    value = st.sidebar.file_uploader(label, accept_multiple_files=multiple, key=f"wb_slot:{key}", help=help)
    files = list(value or []) if multiple else ([value] if value is not None else [])
    for up in files:
        if up.file_id in seen:
            continue
        seen.add(up.file_id)
        data = up.getvalue()
        err = size_problem(up.name, data)
        if err is None and validate is not None:
            err = validate(up.name, data)
        if err is not None:
            errors[up.name] = err
            continue
        errors.pop(up.name, None)
        if not multiple:
            store.clear()
        store[up.name] = Upload(up.name, data)
    for err in errors.values():
        st.error(err, icon="⚠️")
    return list(store.values())


def forget_button(keys: Sequence[str], *, label: str = "Forget uploaded files") -> None:
    """A sidebar button that empties the given slots (and their messages)."""
    if st.sidebar.button(label, key=f"wb_forget:{':'.join(keys)}"):
        for key in keys:
            for prefix in ("_wb_slot:", "_wb_slot_errors:", "_wb_slot_seen:"):
                st.session_state.pop(prefix + key, None)
        st.rerun()


def _on_change() -> None:
    st.session_state["_wb_dataset"] = st.session_state["wb_dataset"]


def choose_source(kinds: Sequence[str]) -> DatasetSpec | None:
    """Sidebar dataset choice among the built-ins of ``kinds`` and "Your files (upload)".

    Shares the choice (session and ``?data=``) with the other pages; returns
    the built-in's spec, or ``None`` for uploads (the page shows its own slots).
    """
    keys = [s.key for s in BUILTINS if s.kind in kinds] + [UPLOAD_KEY]
    key = current_dataset_key()
    if key not in keys:
        key = keys[0]
    st.session_state["_wb_dataset"] = key
    st.session_state["wb_dataset"] = key
    st.sidebar.selectbox(
        "Dataset",
        keys,
        key="wb_dataset",
        format_func=lambda k: "Your files (upload)" if k == UPLOAD_KEY else builtin(k).title,
        on_change=_on_change,
    )
    st.query_params["data"] = key
    st.session_state["_wb_data_url"] = key  # as widgets.choose_dataset: the link this app wrote
    if key == UPLOAD_KEY:
        return None
    spec = builtin(key)
    st.sidebar.caption(f"{md_escape(spec.description)} License: {md_escape(spec.license)}.")
    return spec
