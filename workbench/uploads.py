"""Where a page's data comes from: the dataset choice (built-in or uploaded, shared by every page and
written to the URL), the inspector's gold and parse uploads, the size limit, and the file slots of
pages whose inputs are not a gold + parses set (FREVAL, lattices), which never lose what was loaded.

The limits (``server.maxUploadSize``, :data:`GZIP_FACTOR`, the session's budget), the slots kept by
role, and uploads never written nor run (``tests/test_app_pages.py`` checks the sources): docs/app.md,
"Datasets", and docs/robustness.md, "App limits".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from evalcore.errors import EvalcoreError
from evalcore.formats._io import decompressed_size
from workbench.cache import app_limits, load_builtin, load_files, read_file
from workbench.datasets import (
    BUILTINS,
    FORMAT_NAMES,
    DatasetSpec,
    FileFormat,
    FileSpec,
    LoadedDataset,
    builtin,
    detect_format,
)
from workbench.links import UPLOAD_KEY, current_link, show_link_problems
from workbench.sessions import forget_streamlit_files, held_besides, holds_uploads
from workbench.text import md_code, md_escape

__all__ = [
    "DEFAULT_DATASET",
    "GZIP_FACTOR",
    "MB",
    "UPLOAD_KEY",
    "Upload",
    "UploadRecord",
    "accept_upload",
    "budget_problem",
    "budget_used",
    "choose_dataset",
    "choose_source",
    "clear_slots",
    "current_dataset_key",
    "forget_button",
    "loaded_names",
    "refusal",
    "show_name_clashes",
    "size_problem",
    "upload_limit_mb",
    "upload_panel",
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


def budget_used(pending: str = "") -> int:
    """What the server holds for this session: the decompressed bytes of the files it accepted
    (every upload slot and the inspector's), and every other file Streamlit keeps for it (refused
    files still in an upload box, files posted to the upload endpoint; :mod:`workbench.sessions`)
    but ``pending``, the id of the file being checked."""
    used = 0
    accepted: set[str] = {pending}
    for key, value in st.session_state.items():
        if key == "_wb_uploads" or str(key).startswith("_wb_slot:"):
            for u in dict(value).values():  # type: ignore[call-overload]
                used += getattr(u, "size", 0)
                accepted.add(getattr(u, "file_id", ""))
    return used + held_besides(accepted)


def budget_problem(
    name: str, data: bytes, *, replacing: int = 0, file_id: str = ""
) -> tuple[int, str | None]:
    """The decompressed size of an upload and, if it does not fit in what is left of the session's
    budget (``replacing`` bytes are freed by the file it replaces), why it is refused.  The size
    is counted while decompressing, and counting stops once the budget is passed."""
    budget = app_limits().session_bytes
    left = max(budget - budget_used(file_id) + replacing, 0)
    size = decompressed_size(data, left, name) if data[:2] == b"\x1f\x8b" else len(data)
    if size <= left:
        return size, None
    return size, (
        f"{name}: more than {_mb(left)} once decompressed, and this session has only {_mb(left)} left of "
        f"its budget of {_mb(budget)} for loaded files (EVALCORE_SESSION_BYTES); it was not read, and the "
        "files loaded before are kept. Forget uploaded files to make room (refused files left in an "
        "upload box count too: remove them there)."
    )


@dataclass(frozen=True, slots=True)
class Upload:
    """An accepted uploaded file (bytes in memory only); ``size``: its bytes once decompressed."""

    name: str
    data: bytes
    size: int = 0
    file_id: str = ""  # Streamlit's id of the uploaded file (what its upload manager holds)


def uploader_key(base: str) -> str:
    """The key of the file uploader ``base``: ``base`` itself until its files are forgotten, then a
    new key each time (a file uploader keeps its files until it is replaced: emptying what the
    session accepted from it is not enough, the next run would accept them again)."""
    epoch = int(st.session_state.get(f"_wb_epoch:{base}", 0))
    return base if epoch == 0 else f"{base}~{epoch}"


def _replace_uploader(state: MutableMapping[str, object], base: str) -> None:
    """Draw the file uploader ``base`` anew, empty, from the next run on (:func:`uploader_key`)."""
    epoch = state.get(f"_wb_epoch:{base}", 0)
    state[f"_wb_epoch:{base}"] = (epoch if isinstance(epoch, int) else 0) + 1


def _state_dict(key: str) -> dict[str, Any]:
    """The session's dict under ``key`` (made empty the first time)."""
    value = st.session_state.setdefault(key, {})
    assert isinstance(value, dict)
    return value


def _admitted(name: str, data: bytes, replacing: int, file_id: str) -> tuple[int, str | None]:
    """The decompressed size of an upload and why it is refused (:func:`size_problem`, then
    :func:`budget_problem`), or ``None``."""
    problem = size_problem(name, data)
    if problem is not None:
        return 0, problem
    return budget_problem(name, data, replacing=replacing, file_id=file_id)


def refusal(name: str, read: Callable[[], object], nothing: str | None = None) -> str | None:
    """An upload's check (``validate`` of :func:`upload_slot`): the reader's message, ``NAME: no NOTHING
    in this file`` when ``read()`` finds nothing (``nothing`` given), else ``None``."""
    try:
        if not read() and nothing is not None:
            return f"{name}: no {nothing} in this file"
    except EvalcoreError as exc:
        return str(exc)
    return None


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
    store, errors = _state_dict(f"_wb_slot:{key}"), _state_dict(f"_wb_slot_errors:{key}")
    seen = st.session_state.setdefault(f"_wb_slot_seen:{key}", set())
    value = st.sidebar.file_uploader(
        label, accept_multiple_files=multiple, key=uploader_key(f"wb_slot:{key}"), help=help
    )
    files = list(value or []) if multiple else ([value] if value is not None else [])
    for up in files:
        if up.file_id in seen:
            continue
        seen.add(up.file_id)
        data = up.getvalue()
        freed = getattr(store.get(up.name), "size", 0) if multiple else sum(u.size for u in store.values())
        size, err = _admitted(up.name, data, freed, up.file_id)
        if err is None and validate is not None:
            err = validate(up.name, data)
        if err is not None:
            errors[up.name] = err
            continue
        errors.pop(up.name, None)
        if not multiple:
            store.clear()
        store[up.name] = Upload(up.name, data, size, up.file_id)
        holds_uploads()
    for err in errors.values():
        st.error(err, icon="⚠️")
    return list(store.values())


def slot_files(key: str) -> list[Upload]:
    """The files accepted so far by the slot ``key`` of :func:`upload_slot`, without drawing it
    (another page's uploads, e.g. the cross-scheme page's label maps read by the inspector)."""
    store = st.session_state.get(f"_wb_slot:{key}", {})
    return list(store.values()) if isinstance(store, dict) else []


def show_name_clashes(gold: Iterable[str], parses: Iterable[str], *, parse_role: str) -> tuple[str, ...]:
    """Warn about every file name used by a gold upload and a ``parse_role`` upload at once
    (``gold``, ``parses``: the names of the uploads of each role).

    Their slots are separate, so neither replaces the other (the gold stays the gold), but messages
    and tables name files by their names: the warning says so (as the inspector's clash does).
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


def clear_slots(state: MutableMapping[str, object], keys: Iterable[str]) -> None:
    """Empty the slots ``keys`` of :func:`upload_slot` in ``state`` (their files and messages, and
    their uploaders: drawn anew, empty)."""
    for key in keys:
        for prefix in ("_wb_slot:", "_wb_slot_errors:", "_wb_slot_seen:"):
            state.pop(prefix + key, None)
        _replace_uploader(state, f"wb_slot:{key}")


def forget_button(keys: Sequence[str], *, label: str = "Forget uploaded files") -> None:
    """A sidebar button that empties the given slots (and their messages)."""
    if st.sidebar.button(label, key=f"wb_forget:{':'.join(keys)}"):
        clear_slots(st.session_state, keys)  # type: ignore[arg-type]
        forget_streamlit_files()
        st.rerun()


# ---------------------------------------------------------------------------
# the dataset of the session

DEFAULT_DATASET = "fr_gsd"


def _on_dataset_change() -> None:
    st.session_state["_wb_dataset"] = st.session_state["wb_dataset"]


def current_dataset_key() -> str:
    """The dataset of this session; a ``?data=`` the app did not write itself (a link followed
    within the session, e.g. from the cross-scheme page) takes over."""
    keys = [s.key for s in BUILTINS] + [UPLOAD_KEY]
    wanted = current_link().text("data")
    external = wanted is not None and wanted in keys and wanted != st.session_state.get("_wb_data_url")
    if "_wb_dataset" not in st.session_state or external:
        st.session_state["_wb_dataset"] = wanted if wanted in keys else DEFAULT_DATASET
    key = st.session_state["_wb_dataset"]
    return key if key in keys else DEFAULT_DATASET


def _dataset_select(builtins: Sequence[str]) -> str:
    """The sidebar's dataset box over ``builtins`` and "Your files (upload)": the session's choice
    (shared by every page), written to the URL as ``?data=``."""
    keys = [*builtins, UPLOAD_KEY]
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
        format_func=lambda key: "Your files (upload)" if key == UPLOAD_KEY else builtin(key).title,
        on_change=_on_dataset_change,
    )
    st.query_params["data"] = key
    st.session_state["_wb_data_url"] = key  # the link this app wrote (not one followed)
    return key


def choose_source(kinds: Sequence[str] | None) -> DatasetSpec | None:
    """Sidebar dataset choice among the built-ins of ``kinds`` (``None``: all) and "Your files
    (upload)", shared (session and ``?data=``) with the other pages; returns the built-in's spec,
    or ``None`` for uploads (the page shows its own slots)."""
    key = _dataset_select([s.key for s in BUILTINS if kinds is None or s.kind in kinds])
    if key == UPLOAD_KEY:
        return None
    spec = builtin(key)
    st.sidebar.caption(f"{md_escape(spec.description)} License: {md_escape(spec.license)}.")
    return spec


def choose_dataset(*, kinds: Sequence[str] | None = None) -> LoadedDataset | None:
    """Sidebar dataset choice (built-in or upload); loads it with progress; shows per-file errors.

    ``kinds`` limits the built-ins offered (e.g. ``("dependency", "lattice")``).
    Returns ``None`` when there is nothing to show yet (no upload).
    """
    builtin_spec = choose_source(kinds)
    if builtin_spec is None:
        spec, blobs, loaded_line = upload_panel()
        if not blobs:
            st.info("Upload a gold file (and parse files) in the sidebar, or pick a built-in dataset.")
            return None
        loaded = load_files(spec, blobs)
        names = loaded_names(loaded)
        if names:
            loaded_line.markdown("Loaded: " + ", ".join(names))
    else:
        loaded = load_builtin(builtin_spec)
    for err in loaded.errors:
        st.error(err, icon="⚠️")
    return loaded


def loaded_names(loaded: LoadedDataset) -> list[str]:
    """The sidebar's "Loaded:" entries: the files of the dataset that are used, ``NAME`` (role);
    a file refused when put together (other sentences, another text) is not among them."""
    out = []
    for f in loaded.spec.files:
        if loaded.has(f.name):
            how = " (parse of the raw text)" if loaded.aligned_parse(f.name) is not None else f" ({f.role})"
            out.append(md_code(f.name) + how)
    return out


# ---------------------------------------------------------------------------
# the inspector's uploads: gold and parse files (kept in memory only)


@dataclass(frozen=True, slots=True)
class UploadRecord:
    name: str  # as shown and used in the dataset: the file name, or "NAME (role)" on a name clash
    data: bytes
    fmt: FileFormat
    role: str  # "gold" | "parse" | "lattice" | "tokens" | "params"
    size: int = 0  # bytes once decompressed (the session budget)
    file: str = ""  # the uploaded file's own name
    file_id: str = ""  # Streamlit's id of the uploaded file (what its upload manager holds)


def _uploads() -> dict[str, UploadRecord]:
    return _state_dict("_wb_uploads")


def _upload_errors() -> dict[str, str]:
    return _state_dict("_wb_upload_errors")


def _upload_key(role: str, name: str) -> str:
    return f"{role}:{name}"


def _upload_clashes() -> dict[str, str]:
    return _state_dict("_wb_upload_clashes")


def accept_upload(
    name: str, data: bytes, wanted_role: str, fmt_choice: str = "auto", size: int = 0, file_id: str = ""
) -> str | None:
    """Validate one uploaded file; on success store it under its role and name (replacing a file
    of the same role and name, never one of another role).

    A file whose name is already used by a file of another role (a parse named like its gold)
    is kept as ``NAME (role)``, and the clash is shown.  Returns the error text
    (``FILE:LINE: message``) or ``None``.  A bad file never removes what was loaded before.
    """
    try:
        fmt: FileFormat = detect_format(name, data) if fmt_choice == "auto" else fmt_choice  # type: ignore[assignment]
        extra_roles = {"lattice": "lattice", "tokens": "tokens", "prm": "params"}  # what a file of no tree is
        role = wanted_role if fmt in ("conllu", "ptb") else extra_roles[fmt]
        spec = FileSpec(name, name, fmt, role, scheme=name)  # type: ignore[arg-type]
        analysis = read_file(spec, data, name=name)
        if fmt in ("conllu", "ptb") and not analysis.trees:
            raise EvalcoreError("no sentence in this file", file=name)
    except EvalcoreError as exc:
        return str(exc)
    others = [r for k, r in _uploads().items() if k != _upload_key(role, name) and r.file == name]
    shown = name
    if others:
        shown = f"{name} ({role})"
        _upload_clashes()[_upload_key(role, name)] = (
            f"{name}: a {others[0].role} file of the same name is loaded; this {role} file is kept beside "
            f"it as '{shown}' (it replaces nothing)."
        )
    _uploads()[_upload_key(role, name)] = UploadRecord(shown, data, fmt, role, size, name, file_id)
    holds_uploads()
    return None


def upload_panel() -> tuple[DatasetSpec, list[tuple[FileSpec, bytes]], DeltaGenerator]:
    """Sidebar uploaders; returns the upload dataset's spec, its files' bytes, and the place of the
    "Loaded:" line (written by :func:`choose_dataset` once it knows which files are used)."""
    side = st.sidebar
    side.markdown(
        "**Your files** — CoNLL-U/X, PTB brackets, SPMRL/yap lattices, .tokens (gzip accepted). "
        "They stay in memory and are only read, never run or saved."
    )
    fmt_choice = side.selectbox(
        "Format", ["auto", *FORMAT_NAMES], format_func=lambda f: "detect" if f == "auto" else FORMAT_NAMES[f]
    )
    processed = st.session_state.setdefault("_wb_upload_seen", set())
    for role, label in (("gold", "Gold file(s)"), ("parse", "Parse file(s)")):
        files = side.file_uploader(label, accept_multiple_files=True, key=uploader_key(f"wb_upload_{role}"))
        for up in files or []:
            token = f"{role}:{up.file_id}:{fmt_choice}"
            if token in processed:
                continue
            processed.add(token)
            data = up.getvalue()
            old = _uploads().get(_upload_key(role, up.name))
            size, err = _admitted(up.name, data, old.size if old else 0, up.file_id)
            err = err or accept_upload(up.name, data, role, fmt_choice, size, up.file_id)
            if err is None:
                _upload_errors().pop(up.name, None)
            else:
                _upload_errors()[up.name] = err
    for err in _upload_errors().values():
        st.error(err, icon="⚠️")
    for clash in _upload_clashes().values():
        st.warning(clash, icon="⚠️")
    records = list(_uploads().values())
    golds = [r for r in records if r.role == "gold"]
    loaded_line = side.empty()  # "Loaded: ...", written once the files are put together (loaded_names)
    if records and side.button("Forget uploaded files"):
        _uploads().clear()
        _upload_errors().clear()
        _upload_clashes().clear()
        for role in ("gold", "parse"):
            _replace_uploader(st.session_state, f"wb_upload_{role}")  # type: ignore[arg-type]
        forget_streamlit_files()
        st.rerun()
    against = ""
    if golds:
        against = golds[0].name
        if len(golds) > 1:
            against = side.selectbox("Score parses against", [g.name for g in golds])
    files: list[tuple[FileSpec, bytes]] = []
    for r in records:
        spec = FileSpec(
            r.name, r.name, r.fmt, r.role, scheme=r.name, against=against if r.role == "parse" else ""
        )  # type: ignore[arg-type]
        files.append((spec, r.data))
    kind = "dependency" if any(r.fmt == "conllu" for r in records) else "constituency"
    spec = DatasetSpec(UPLOAD_KEY, "your files", kind, tuple(f for f, _ in files))  # type: ignore[arg-type]
    return spec, files, loaded_line
