"""Uploads: the size limit, file slots that never lose what was loaded, and the dataset choice of pages
whose inputs are not a gold + parses set (FREVAL, lattices).

**Limits.** Streamlit refuses a file larger than ``server.maxUploadSize``
(MB, ``.streamlit/config.toml``) in the browser, at the widget.  The app
checks again on the server (:func:`size_problem`), against the same limit,
and says in the page which file was refused and why; a gzipped file must
also not decompress to more than :data:`GZIP_FACTOR` times that limit (a
small file can expand to gigabytes: its decompressed bytes are counted as
they are decompressed, and counting stops at the limit).  Every session has
a budget of decompressed bytes for all the files it holds
(``EVALCORE_SESSION_BYTES``, default 500 MB; :func:`budget_problem`): a file
that does not fit is refused, and forgetting files makes room.  Either way
nothing is read from a refused file and everything loaded before stays;
what is read is read under the app's resource limits (:func:`workbench.cache.app_limits`).

**Roles.** Gold and parser files have their own slots, so a parse named like
the gold never replaces it; the clash is shown (:func:`show_name_clashes`), as
the inspector shows its own.

**Never written, never run.** Uploaded bytes stay in memory (Streamlit keeps
them in its in-memory upload manager; the app keeps them in session state and
in caches keyed on their SHA-1).  They are only passed, as ``bytes``, to
evalcore's readers; no code here or in the pages writes them to a file or
runs them (``tests/test_app_pages.py`` checks the sources for file writes,
subprocesses and ``eval``/``exec``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import streamlit as st

from evalcore.formats._io import decompressed_size
from workbench.cache import app_limits
from workbench.datasets import BUILTINS, DatasetSpec, builtin
from workbench.links import current_link, show_link_problems
from workbench.widgets import UPLOAD_KEY, current_dataset_key, md_escape

__all__ = [
    "GZIP_FACTOR",
    "MB",
    "Upload",
    "budget_problem",
    "budget_used",
    "choose_source",
    "forget_button",
    "show_name_clashes",
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
    if data[:2] == b"\x1f\x8b" and decompressed_size(data, GZIP_FACTOR * limit) > GZIP_FACTOR * limit:
        return (
            f"{name}: the gzipped file decompresses to more than {GZIP_FACTOR * limit_mb} MB "
            f"({GZIP_FACTOR} × the upload limit of {limit_mb} MB); it was not read, and the files loaded "
            "before are kept."
        )
    return None


def budget_used() -> int:
    """Decompressed bytes of the files this session holds (every upload slot and the inspector's)."""
    used = 0
    for key, value in st.session_state.items():
        if key == "_wb_uploads" or str(key).startswith("_wb_slot:"):
            used += sum(getattr(u, "size", 0) for u in dict(value).values())  # type: ignore[call-overload]
    return used


def budget_problem(name: str, data: bytes, *, replacing: int = 0) -> tuple[int, str | None]:
    """The decompressed size of an upload and, if it does not fit in what is left of the session's
    budget (``replacing`` bytes are freed by the file it replaces), why it is refused.  The size
    is counted while decompressing, and counting stops once the budget is passed."""
    budget = app_limits().session_bytes
    left = max(budget - budget_used() + replacing, 0)
    size = decompressed_size(data, left, name) if data[:2] == b"\x1f\x8b" else len(data)
    if size <= left:
        return size, None
    return size, (
        f"{name}: more than {_mb(left)} once decompressed, and this session has only {_mb(left)} left of "
        f"its budget of {_mb(budget)} for loaded files (EVALCORE_SESSION_BYTES); it was not read, and the "
        "files loaded before are kept. Forget uploaded files to make room."
    )


@dataclass(frozen=True, slots=True)
class Upload:
    """An accepted uploaded file (bytes in memory only); ``size``: its bytes once decompressed."""

    name: str
    data: bytes
    size: int = 0


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
        size = 0
        if err is None:
            freed = (
                sum(u.size for u in store.values())
                if not multiple
                else getattr(store.get(up.name), "size", 0)
            )
            size, err = budget_problem(up.name, data, replacing=freed)
        if err is None and validate is not None:
            err = validate(up.name, data)
        if err is not None:
            errors[up.name] = err
            continue
        errors.pop(up.name, None)
        if not multiple:
            store.clear()
        store[up.name] = Upload(up.name, data, size)
    for err in errors.values():
        st.error(err, icon="⚠️")
    return list(store.values())


def show_name_clashes(gold: Iterable[str], parses: Iterable[str], *, parse_role: str) -> tuple[str, ...]:
    """Warn about every file name used by a gold upload and a ``parse_role`` upload at once
    (``gold``, ``parses``: the names of the uploads of each role).

    Their slots are separate, so neither replaces the other (the gold stays the gold), but messages
    and tables name files by their names: the warning says so (issue 13, as the inspector's clash).
    Returns the warnings shown.
    """
    shown = []
    for name in sorted(set(gold) & set(parses)):
        text = (
            f"{md_escape(name)}: a gold file and a {parse_role} file of the same name are loaded; each is "
            "kept in its own slot (neither replaces the other), but messages and tables call both "
            f"'{md_escape(name)}'. Rename one to tell them apart."
        )
        st.warning(text, icon="⚠️")
        shown.append(text)
    return tuple(shown)


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
    show_link_problems(current_link())
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
