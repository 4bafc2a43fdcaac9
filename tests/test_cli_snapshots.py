"""Regression pins: the command line prints byte for byte what it printed when the snapshots were made.

The invocations are the small, shipped-data subset of ``scripts/cli_snapshot.py`` (help texts, every
command and ``--format`` on the built-in data, the error lines); their stdout, stderr and exit code
are committed under ``tests/golden/cli_snapshots/`` (written by
``python scripts/cli_snapshot.py write tests/golden/cli_snapshots --small``).  The numbers in them
are evalcore's own: the tests that check them against papers and reference tools are elsewhere;
these only pin that a refactoring changes no byte.  Run in-process here; the script runs
``python -m evalcore`` (and the full list, over ``../shared/data`` too).
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
from ec_support import load_script

from evalcore.cli import main

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = Path(__file__).parent / "golden" / "cli_snapshots"


SCRIPT = load_script("cli_snapshot")
SMALL = SCRIPT.selected(small=True)


def test_the_subset_is_committed_whole() -> None:
    names = {p.name.rsplit(".", 1)[0] for p in SNAPSHOTS.iterdir()}
    assert names == {i.name for i in SMALL}
    assert not any(i.needs_data for i in SMALL)  # shipped data only


def _run(argv: tuple[str, ...]) -> tuple[bytes, bytes, int]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse: --help, --version, usage errors
            code = exc.code if isinstance(exc.code, int) else 0
    return out.getvalue().encode("utf-8"), err.getvalue().encode("utf-8"), code


@pytest.mark.parametrize(("name", "argv"), [(i.name, i.argv) for i in SMALL], ids=[i.name for i in SMALL])
def test_cli_output_regression_pin(name: str, argv: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    for var in [k for k in os.environ if k.startswith("EVALCORE_MAX_")]:
        monkeypatch.delenv(var)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(ROOT)
    out, err, code = _run(argv)
    assert code == int((SNAPSHOTS / f"{name}.code").read_text())
    assert out.decode() == (SNAPSHOTS / f"{name}.stdout").read_bytes().decode()
    assert err.decode() == (SNAPSHOTS / f"{name}.stderr").read_bytes().decode()
