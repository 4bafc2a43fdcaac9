"""``evalcore app``: where it finds the workbench, what it runs, and the one line
it prints without the ``[app]`` extra.  The wheel itself is tested in ``tests/test_wheel.py`` (slow)."""

from __future__ import annotations

import argparse
import subprocess
import sys

from ec_support import ROOT

from evalcore.appdir import app_root, checkout_root
from evalcore.cli import build_parser
from evalcore.commands.app import limits_environment, streamlit_command
from evalcore.limits import Limits


def test_a_checkout_runs_its_own_app_py() -> None:
    assert checkout_root() == ROOT
    assert app_root() == ROOT
    assert (app_root() / "assets" / "README.md").is_file()


def test_streamlit_runs_on_the_loopback_headless_without_usage_statistics() -> None:
    command = streamlit_command("/x/app.py", 8600, ["--", "--theme.base", "dark"])
    assert command[:5] == [sys.executable, "-m", "streamlit", "run", "/x/app.py"]
    pairs = dict(zip(command[5:-2:2], command[6:-2:2], strict=True))
    assert pairs == {
        "--server.address": "127.0.0.1",
        "--server.port": "8600",
        "--server.headless": "true",
        "--browser.gatherUsageStats": "false",
    }
    assert command[-2:] == ["--theme.base", "dark"]  # the options after -- are passed as they are


def test_the_port_and_streamlit_options_are_parsed() -> None:
    args = build_parser(only="app").parse_args(["app", "--port", "9001", "--", "--theme.base", "dark"])
    assert isinstance(args, argparse.Namespace)
    assert args.port == 9001 and args.streamlit_options == ["--", "--theme.base", "dark"]


def test_the_limit_flags_reach_the_app_as_its_environment() -> None:
    env = limits_environment(Limits().raised(tokens=5000))
    assert env["EVALCORE_MAX_TOKENS"] == "5000"
    assert Limits.from_env(env) == Limits().raised(tokens=5000)  # the app reads back the same limits


def test_without_the_app_extra_one_line_and_exit_2() -> None:
    # streamlit made unimportable (a None entry in sys.modules), as in an install without [app]
    probe = (
        "import sys\n"
        "sys.modules['streamlit'] = None\n"
        "from evalcore.cli import main\n"
        "sys.exit(main(['app']))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "streamlit not installed" in done.stderr and "pip install 'evalcore[app]'" in done.stderr
