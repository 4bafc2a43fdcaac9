"""``evalcore app [--port N] [-- STREAMLIT OPTIONS]``: the workbench, from a checkout or the wheel.

Runs ``streamlit run app.py`` in the folder :func:`evalcore.appdir.app_root` finds (the checkout,
or the ``evalcore_app`` copy a wheel installs), bound to 127.0.0.1, headless, usage statistics
off, with that folder's ``.streamlit/config.toml``.  The limit flags (``--max-tokens``...) reach
the app as their ``EVALCORE_MAX_*`` variables.  Streamlit, graphviz and plotly are the ``[app]``
extra: without them the command says so in one line and exits 2.  docs/app.md documents it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys

from evalcore.errors import one_line
from evalcore.limits import LIMIT_SPECS, Limits

__all__ = ["APP_MODULES", "missing_modules", "register", "run", "server_environment", "streamlit_command"]

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


def missing_modules() -> list[str]:
    """The modules of the ``[app]`` extra that are not installed."""
    return [name for name in APP_MODULES if importlib.util.find_spec(name) is None]


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
    ``EVALCORE_MAX_*`` variables, and ``MALLOC_ARENA_MAX=2`` unless it is set: glibc gives each
    thread a heap arena of its own, Streamlit runs every script run in a thread, and memory freed
    in one arena is not reused by another, so the memory of closed sessions stayed with the server
    (docs/robustness.md, "App limits")."""
    env = dict(os.environ if base is None else base)
    env.setdefault("MALLOC_ARENA_MAX", "2")
    return {**env, **limits_environment(limits)}


def limits_environment(limits: Limits) -> dict[str, str]:
    """``EVALCORE_MAX_*`` for every limit: the app reads its limits from the environment."""
    return {spec.env: str(getattr(limits, spec.name)) for spec in LIMIT_SPECS}


def run(args: argparse.Namespace) -> int:
    missing = missing_modules()
    if missing:
        print(
            one_line(
                f"evalcore app: the workbench needs the [app] extra ({', '.join(missing)} not installed): "
                "pip install 'evalcore[app]'"
            ),
            file=sys.stderr,
        )
        return 2
    from evalcore.appdir import app_root

    root = app_root()
    env = server_environment(args.limits)
    command = streamlit_command(str(root / "app.py"), args.port, list(args.streamlit_options))
    # the folder of app.py is the working directory: streamlit reads .streamlit/config.toml there
    return subprocess.call(command, cwd=root, env=env)
