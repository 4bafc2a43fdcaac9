"""The wheel brings the workbench (docs/app.md "From the wheel").

From a fresh copy of the checkout: ``python -m build`` makes the sdist and the wheel; a fresh
virtual environment gets the wheel alone (no streamlit: ``evalcore --version`` and ``evalcore
attach`` on the data the wheel carries work, ``evalcore app`` says to install ``evalcore[app]``
and exits 2), then the wheel with ``[app]``: ``evalcore app`` serves its health endpoint and home
page, and the installed ``app.py`` runs its home page on the built-in data (Streamlit's AppTest).

Offline and fast: every install takes the versions of the already-resolved ``.venv`` (a
constraints file from ``uv pip freeze``) from uv's warm cache (``UV_OFFLINE=1``); only when the
cache cannot serve them is the index asked.  The steps' times are printed (``-s``).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from ec_support import ROOT, fresh_copy

import evalcore

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

FR = "assets/fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz"
FR_PARSE = "assets/fr_gsd/parses/fr_gsd-test.spacy-ud.conllu.gz"


def _env() -> dict[str, str]:
    """The environment without this checkout's virtual environment or import path."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    return env


def _uv_offline_first(args: list[str], cwd: Path, log: list[str]) -> None:
    """``python -m uv ARGS`` (or build, which takes uv as its installer) from the cache; the index
    only if the cache cannot serve it."""
    for offline in (True, False):
        env = _env() | ({"UV_OFFLINE": "1"} if offline else {})
        done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
        if offline and done.returncode != 0:
            log.append("offline failed: " + " ".join(done.stderr.split())[-300:])
        if done.returncode == 0:
            log.append(
                f"{Path(args[2]).name if args[1] == '-m' else args[0]} {'offline' if offline else 'online'}"
            )
            return
    raise AssertionError(f"{' '.join(args)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode("utf-8", "replace")


def test_wheel_installs_and_serves_the_workbench(tmp_path: Path) -> None:
    times: dict[str, float] = {}
    log: list[str] = []
    py = sys.executable
    start = time.perf_counter()

    src = tmp_path / "src"
    fresh_copy(src, untracked=True)
    dist = tmp_path / "dist"
    _uv_offline_first([py, "-m", "build", "--installer", "uv", "--outdir", str(dist), str(src)], src, log)
    times["build"] = time.perf_counter() - start
    wheels = sorted(dist.glob("*.whl"))
    assert len(wheels) == 1 and len(list(dist.glob("*.tar.gz"))) == 1
    wheel = wheels[0]
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert {
        "evalcore_app/app.py",
        "evalcore_app/.streamlit/config.toml",
        "evalcore_app/assets/README.md",
    } <= names
    assert "evalcore_app/pages/1_Cross_scheme.py" in names and "workbench/datasets.py" in names
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist: streamlit")]
    assert requires and all('extra == "app"' in line for line in requires)  # the core needs no streamlit

    # the versions this checkout resolved (uv.lock), as constraints: the cache serves them
    frozen = subprocess.run(
        [py, "-m", "uv", "pip", "freeze", "--python", py], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    constraints = tmp_path / "constraints.txt"
    constraints.write_text(
        "\n".join(x for x in frozen if x and not x.startswith(("-e", "evalcore"))) + "\n", encoding="utf-8"
    )
    venv = tmp_path / "venv"
    subprocess.run([py, "-m", "uv", "venv", "--quiet", "--python", py, str(venv)], env=_env(), check=True)
    bin_ = venv / "bin"
    install = [
        py,
        "-m",
        "uv",
        "pip",
        "install",
        "--quiet",
        "--python",
        str(bin_ / "python"),
        "-c",
        str(constraints),
    ]

    t = time.perf_counter()
    _uv_offline_first([*install, str(wheel)], tmp_path, log)
    times["install core"] = time.perf_counter() - t

    def evalcore_(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(bin_ / "evalcore"), *args], cwd=tmp_path, env=_env(), capture_output=True, text=True
        )

    version = evalcore_("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"evalcore {evalcore.__version__}"
    no_app = evalcore_("app")
    assert no_app.returncode == 2
    assert no_app.stderr.count("\n") == 1 and "pip install 'evalcore[app]'" in no_app.stderr
    assert "Traceback" not in no_app.stderr

    # one metric on the data the wheel carries equals the checkout's command on the checkout's files
    app_dir = Path(
        subprocess.run(
            [
                str(bin_ / "python"),
                "-c",
                "import evalcore_app, os; print(os.path.dirname(evalcore_app.__file__))",
            ],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    assert venv in app_dir.parents
    installed = evalcore_("attach", str(app_dir / FR), str(app_dir / FR_PARSE), "--format", "json")
    assert installed.returncode == 0, installed.stderr
    checkout = subprocess.run(
        [str(Path(py).parent / "evalcore"), "attach", FR, FR_PARSE, "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(installed.stdout) == json.loads(checkout.stdout)
    assert json.loads(installed.stdout)["tokens"] == 10018  # French-GSD test: 10,018 words (UD 2.16 stats)

    t = time.perf_counter()
    _uv_offline_first([*install, f"{wheel}[app]"], tmp_path, log)
    times["install [app]"] = time.perf_counter() - t

    # the installed app.py runs its home page on the built-in data
    t = time.perf_counter()
    probe = (
        "from streamlit.testing.v1 import AppTest\n"
        f"at = AppTest.from_file({str(app_dir / 'app.py')!r}, default_timeout=120)\n"
        "at.run()\n"
        "assert not at.exception, [e.message for e in at.exception]\n"
        "print(at.title[0].value if at.title else '', '|', len(at.selectbox), 'selectboxes')\n"
    )
    apptest = subprocess.run(
        [str(bin_ / "python"), "-c", probe], cwd=app_dir, env=_env(), capture_output=True, text=True
    )
    assert apptest.returncode == 0, apptest.stderr[-3000:]
    times["AppTest home page"] = time.perf_counter() - t

    # `evalcore app` serves: health "ok", then the home page
    port = _free_port()
    t = time.perf_counter()
    server = subprocess.Popen(
        [str(bin_ / "evalcore"), "app", "--port", str(port)],
        cwd=tmp_path,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        health = ""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and server.poll() is None:
            try:
                health = _get(f"http://127.0.0.1:{port}/_stcore/health")[1]
            except OSError:
                time.sleep(0.3)
                continue
            if health == "ok":
                break
        assert health == "ok", f"no health: {server.poll()}"
        times["app health ok"] = time.perf_counter() - t
        status, page = _get(f"http://127.0.0.1:{port}/")
        assert status == 200 and "<html" in page.lower()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            out = server.communicate(timeout=20)[0]
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            out = server.communicate()[0]
    assert "127.0.0.1" in out or f":{port}" in out  # streamlit's banner: bound to the loopback address
    times["total"] = time.perf_counter() - start
    print("wheel test:", ", ".join(f"{k} {v:.1f} s" for k, v in times.items()), "|", "; ".join(log))
    print("installed app:", apptest.stdout.strip())
