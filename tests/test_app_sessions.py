"""What the server holds for a session (workbench/sessions.py, workbench/cache.py; docs/robustness.md
"App limits").  The end-to-end check (memory back after sessions close, refused uploads counted)
is tests/e2e/test_server_memory.py; these are the pieces.
"""

from __future__ import annotations

import pytest
from starlette.exceptions import HTTPException
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

from evalcore.commands.app import server_environment
from evalcore.limits import Limits
from workbench.cache import ASSETS, Cached, builtin_digests, digest, is_builtin
from workbench.sessions import bounded


def _rec(file_id: str, size: int) -> UploadedFileRec:
    return UploadedFileRec(file_id, f"{file_id}.conllu", "application/octet-stream", b"x" * size)


def test_the_upload_endpoint_bounds_what_a_session_holds() -> None:
    """Files posted to the upload endpoint, with or without a widget, stay within the session's
    bound (they were all accepted: 12 x 40 MB outside a 500 MB budget)."""
    mgr = MemoryUploadedFileManager("/upload")
    add = bounded(mgr, 100)
    add("s1", _rec("a", 60))
    add("s1", _rec("a", 70))  # the same file again replaces it: 70 held, not 130
    with pytest.raises(HTTPException) as err:
        add("s1", _rec("b", 31))
    assert err.value.status_code == 413 and "already holds 70 bytes" in err.value.detail
    add("s1", _rec("b", 30))  # exactly the bound
    add("s2", _rec("c", 100))  # another session has its own
    assert sum(len(r.data) for r in mgr.file_storage["s1"].values()) == 100
    mgr.remove_session_files("s1")
    add("s1", _rec("d", 100))


def test_what_comes_from_an_upload_is_never_cached_for_every_session() -> None:
    """Shipped files' digests pick the cache every session shares; any other file's, the session's
    own (outside a session, none: computed and not kept)."""
    shipped = builtin_digests()
    sample = digest((ASSETS / "evalb" / "sample" / "sample.gld").read_bytes())
    assert sample in shipped and len(shipped) >= 50
    assert is_builtin([sample]) and is_builtin([]) and not is_builtin([sample, digest(b"an upload")])
    calls: list[int] = []

    def fn(x: int) -> int:
        calls.append(x)
        return x

    def shared(x: int) -> int:
        return -x

    def own(x: int) -> int:
        return 10 * x

    c = Cached(fn, shared, own)
    assert c.by(sample)(2) == -2 and calls == []
    assert c.by(sample, digest(b"upload"))(3) == 3 and calls == [3]  # bare: not kept anywhere


def test_the_server_gets_two_malloc_arenas_unless_told_otherwise() -> None:
    env = server_environment(Limits(), {"PATH": "/bin"})
    assert env["MALLOC_ARENA_MAX"] == "2" and env["PATH"] == "/bin"
    assert env["EVALCORE_SESSION_BYTES"] == "500000000"
    assert server_environment(Limits(), {"MALLOC_ARENA_MAX": "8"})["MALLOC_ARENA_MAX"] == "8"
