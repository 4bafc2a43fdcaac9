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

The fast loop's guard
---------------------
Every test's CPU time (setup, call and teardown; this process and the
processes it waited for) is measured.  At the end of a run, the tests *not*
marked ``slow`` or ``e2e`` that took more than ``--slow-cpu`` seconds (1.0)
are listed under "not marked slow but over ..." so that a new expensive test
is noticed and marked (``docs/decisions.md``, "The fast loop").  CPU time,
not wall time: on a shared machine the wall time of one test depends on the
load, its CPU time hardly does.  ``--cpu-durations=N`` lists the N most
expensive tests.  Nothing fails on a time: this is a report.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable, Generator
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


# ---------------------------------------------------------------------------
# the fast loop's guard: CPU seconds per test, reported (never asserted)

_CPU = "cpu_seconds"
_START = pytest.StashKey[float]()


def _cpu_now() -> float:
    """CPU seconds of this process and of the child processes it has waited for."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("evalcore")
    group.addoption(
        "--slow-cpu",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="list the tests not marked slow or e2e that took more CPU seconds than this (default 1.0)",
    )
    group.addoption(
        "--cpu-durations",
        type=int,
        default=0,
        metavar="N",
        help="list the N tests that took the most CPU seconds",
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None]:
    item.stash[_START] = _cpu_now()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None]:
    yield
    if _START in item.stash:  # the teardown report carries it, also from a pytest-xdist worker
        item.user_properties.append((_CPU, _cpu_now() - item.stash[_START]))


class _CpuGuard:
    """Collects the teardown reports' CPU seconds and lists them at the end of the run."""

    def __init__(self, config: pytest.Config) -> None:
        self.limit: float = config.getoption("--slow-cpu")
        self.top: int = config.getoption("--cpu-durations")
        self.times: list[tuple[float, str, bool]] = []  # seconds, test, marked slow or e2e

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown":
            return
        for name, value in report.user_properties:
            if name == _CPU:
                marked = "slow" in report.keywords or "e2e" in report.keywords
                self.times.append((float(value), report.nodeid, marked))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        over = sorted((t for t in self.times if not t[2] and t[0] > self.limit), reverse=True)
        if over:
            terminalreporter.section(
                f"not marked slow but over {self.limit:g} s of CPU ({len(over)}): mark them slow "
                "or make them cheaper (docs/decisions.md, the fast loop)",
                yellow=True,
            )
            for seconds, nodeid, _ in over:
                terminalreporter.write_line(f"{seconds:7.2f} s  {nodeid}")
        if self.top:
            terminalreporter.section(f"the {self.top} tests that took the most CPU")
            for seconds, nodeid, marked in sorted(self.times, reverse=True)[: self.top]:
                terminalreporter.write_line(f"{seconds:7.2f} s  {nodeid}{'  (slow)' if marked else ''}")
            total = sum(t[0] for t in self.times)
            terminalreporter.write_line(f"CPU seconds of all {len(self.times)} tests: {total:.1f}")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without pytest-xdist) reports
        config.pluginmanager.register(_CpuGuard(config), "evalcore-cpu-guard")
