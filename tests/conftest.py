"""Shared fixtures and Hypothesis profiles for the evalcore test suite.

Paths
-----
``ROOT``   the project checkout; ``ASSETS`` its shipped data (always present).
``DATA``   ``../shared/data`` beside the checkout (CI lays a copy there).  Tests
           that read it take the ``data`` fixture, which skips *with the reason
           printed* (pytest runs with ``-ra``) when the folder is absent.

Hypothesis
----------
``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) selects a derandomized profile
with 200 examples a property: the same examples on every run, so CI is
reproducible.  The default ``dev`` profile draws 50 random examples a
property (different ones on every run), which keeps the fast suite
(``-m "not slow and not e2e"``) under 90 s on a 2-core machine.  Neither has a
deadline (CI machines are slow and shared).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import ASSETS, DATA, CliResult
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=200,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=50)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def assets() -> Path:
    """The project's shipped data (``assets/``)."""
    return ASSETS


@pytest.fixture(scope="session")
def data() -> Path:
    """``../shared/data``; skips with a visible reason when it is not there."""
    if not DATA.is_dir():
        pytest.skip(f"shared data folder not found at {DATA} (tests on the real data need ../shared/data)")
    return DATA


@pytest.fixture
def write_file(tmp_path: Path) -> Callable[[str, str | bytes], str]:
    """``write_file(name, content)`` -> path string; text is written as UTF-8 with no newline translation."""

    def write(name: str, content: str | bytes) -> str:
        path = tmp_path / name
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return str(path)

    return write


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run ``evalcore`` in-process: ``run_cli("attach", gold, system, "--format", "json")``."""
    from evalcore.cli import main

    def run(*argv: str) -> CliResult:
        capsys.readouterr()  # drop anything printed before
        code = main(list(argv))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run
