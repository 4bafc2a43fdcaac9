"""Start ``streamlit run app.py`` on a free local port, for the end-to-end test and the screenshot script.

Binds to 127.0.0.1 only, headless, usage statistics off.  The server is
always terminated (then killed if it does not stop) when the context exits.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from evalcore.commands.app import server_environment, streamlit_command
from evalcore.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited early with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200 and resp.read().strip() == b"ok":
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise TimeoutError(f"streamlit did not become healthy within {timeout:.0f} s")


@contextmanager
def running_app(timeout: float = 60.0) -> Iterator[str]:
    """Yield the base URL of a fresh app server; stop it afterwards."""
    with running_server(timeout) as (url, _pid, _log):
        yield url


@contextmanager
def running_server(
    timeout: float = 60.0, env: Mapping[str, str] | None = None
) -> Iterator[tuple[str, int, Path]]:
    """:func:`running_app`, with more environment variables, yielding the URL, the server's pid and
    its log file (one a server: two test workers never share one)."""
    port = free_port()
    cmd = streamlit_command("app.py", port, ["--server.fileWatcherType", "none"])  # what `evalcore app` runs
    artifacts = ROOT / "tests" / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    log_path = artifacts / f"streamlit-{port}.log"
    log = open(log_path, "wb")  # noqa: SIM115 - closed below
    env = {
        **server_environment(Limits.from_env()),  # what `evalcore app` gives the server
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
        **(env or {}),
    }
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, timeout)
        yield url, proc.pid, log_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


# ---------------------------------------------------------------------------
# waiting for the page (end-to-end tests and benchmarks/bench_browser.py): conditions, never sleeps

# the script has finished, nothing is stale or spinning, the marker (a CSS selector) and the text are there
SETTLED_JS = """
([marker, text]) => {
  const app = document.querySelector('[data-testid=stApp]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-stale=true]')) return false;
  if (document.querySelector('[data-testid=stSpinner], [data-testid=stProgress]')) return false;
  if (marker && !document.querySelector(marker)) return false;
  if (text && !document.body.innerText.includes(text)) return false;
  return true;
}
"""

STARTED_JS = """
(text) => {
  const app = document.querySelector('[data-testid=stApp]');
  return (app && app.getAttribute('data-test-script-state') !== 'notRunning')
    || document.body.innerText.includes(text);
}
"""


def wait_settled(page: object, text: str = "", marker: str = "", timeout_ms: float = 180_000) -> None:
    """Until the run is over, nothing is left over from the run before, and ``marker`` / ``text``
    are on the page."""
    page.wait_for_function(SETTLED_JS, arg=[marker, text], timeout=timeout_ms, polling="raf")  # type: ignore[attr-defined]


def wait_started(page: object, text: str, timeout_ms: float = 180_000) -> None:
    """After a click: the rerun has begun (or has already shown ``text``)."""
    page.wait_for_function(STARTED_JS, arg=text, timeout=timeout_ms, polling="raf")  # type: ignore[attr-defined]
