"""``evalcore app [--port N] [-- STREAMLIT OPTIONS]``: the workbench, from a checkout or the wheel
(docs/app.md).  The server is a child process that ends with this one (on a stop signal: SIGTERM,
then SIGKILL after :data:`STOP_GRACE` seconds; :func:`evalcore.interrupts.die_with_parent`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import subprocess
import sys

from evalcore.commands._common import refuse
from evalcore.interrupts import STOP_SIGNALS, die_with_parent, signals_blocked
from evalcore.limits import LIMIT_SPECS, Limits

__all__ = [
    "APP_MODULES",
    "STOP_GRACE",
    "register",
    "run",
    "serve",
    "server_environment",
    "streamlit_command",
]

STOP_GRACE = 1.0
"""Seconds the server has to stop after SIGTERM before it is killed."""

APP_MODULES = ("streamlit", "graphviz", "plotly")
"""What the workbench imports beyond the core: the ``[app]`` extra of pyproject.toml."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "app",
        help="the workbench (Streamlit) on the built-in data; needs the [app] extra",
        description=(
            "Start the evalcore workbench on http://127.0.0.1:PORT (headless, no usage statistics), "
            "from this checkout or from the copy the wheel installed. Needs the [app] extra: "
            "pip install 'evalcore[app]'. Options after -- go to `streamlit run` as they are."
        ),
    )
    p.add_argument("--port", type=int, default=8501, metavar="N", help="port to serve on (default 8501)")
    p.add_argument(
        "streamlit_options",
        nargs=argparse.REMAINDER,
        metavar="-- STREAMLIT OPTIONS",
        help="more `streamlit run` options, e.g. -- --theme.base dark",
    )
    p.set_defaults(run=run)


def streamlit_command(app_py: str, port: int, extra: list[str]) -> list[str]:
    """The ``streamlit run`` command line: loopback only, headless, no usage statistics."""
    options = extra[1:] if extra[:1] == ["--"] else extra
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        app_py,
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        *options,
    ]


def server_environment(limits: Limits, base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of the Streamlit server: ``base`` (default ``os.environ``), the limits'
    ``EVALCORE_MAX_*`` variables, and ``MALLOC_ARENA_MAX=2`` unless it is set (why: docs/robustness.md,
    "App limits")."""
    env = dict(os.environ if base is None else base)
    env.setdefault("MALLOC_ARENA_MAX", "2")
    return {**env, **limits_environment(limits)}


def limits_environment(limits: Limits) -> dict[str, str]:
    """``EVALCORE_MAX_*`` for every limit: the app reads its limits from the environment."""
    return {spec.env: str(getattr(limits, spec.name)) for spec in LIMIT_SPECS}


def run(args: argparse.Namespace) -> int:
    missing = [name for name in APP_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        return refuse(
            "app",
            f"the workbench needs the [app] extra ({', '.join(missing)} not installed): "
            "pip install 'evalcore[app]'",
        )
    from evalcore.appdir import app_root

    root = app_root()
    env = server_environment(args.limits)
    command = streamlit_command(str(root / "app.py"), args.port, list(args.streamlit_options))
    # the folder of app.py is the working directory: streamlit reads .streamlit/config.toml there
    return serve(command, str(root), env)


def serve(command: list[str], cwd: str, env: dict[str, str], grace: float = STOP_GRACE) -> int:
    """Run the server ``command`` until it ends; its exit code.  It dies with this process (Linux:
    ``PR_SET_PDEATHSIG``, set in the child before it runs the server); on a stop signal it gets
    SIGTERM, and SIGKILL after ``grace`` seconds, before the signal stops this process."""
    parent = os.getpid()
    with signals_blocked():  # the child takes them back once it is set up (below)
        server = subprocess.Popen(command, cwd=cwd, env=env, preexec_fn=lambda: _server_child(parent))
    try:
        return server.wait()
    except BaseException:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(grace)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        raise


def _server_child(parent: int) -> None:
    """In the server's process before it runs: the stop signals' default actions (not this
    process's handlers, which raise), die with ``parent``, then take the signals back."""
    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, signal.SIG_DFL)
    die_with_parent(parent)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
