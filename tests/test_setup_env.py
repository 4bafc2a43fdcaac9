"""The README's set-up on a stock Debian/Ubuntu Python.

From a fresh copy of the repository (the files ``git ls-files`` names, which
is what a clone holds), with ``PATH`` restricted to ``/usr/bin:/bin`` so that
``python3`` is the system interpreter (externally managed under PEP 668 on
Debian 12 / Ubuntu 24.04), run the set-up step of ``make app`` and check:

* ``.venv/bin/evalcore --version`` works and ``.venv`` was made from that
  system interpreter;
* nothing changed in the system interpreter's site-packages directories or
  in the user site (a pip install there would add or touch entries);
* a second run reuses the environment and installs nothing.

The package downloads come from uv's cache, warm after the outer set-up.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from ec_support import ROOT, fresh_copy

SYSTEM_PY = Path("/usr/bin/python3")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # a fresh set-up: minutes, not a hang


def _site_dirs(env: dict[str, str]) -> list[Path]:
    """The system interpreter's site-packages directories and its user site."""
    code = (
        "import site, sysconfig\n"
        "paths = {sysconfig.get_paths()[k] for k in ('purelib', 'platlib')}\n"
        "paths.update(site.getsitepackages())\n"
        "paths.add(site.getusersitepackages())\n"
        "print('\\n'.join(sorted(paths)))\n"
    )
    out = subprocess.run(
        [str(SYSTEM_PY), "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    return [Path(line) for line in out.splitlines() if line]


def _snapshot(dirs: list[Path]) -> dict[str, tuple[int, int]]:
    """Every entry two levels down: (size, mtime_ns).  A pip install adds or touches entries."""
    snap: dict[str, tuple[int, int]] = {}
    for d in dirs:
        if not d.exists():
            snap[str(d)] = (-1, -1)
            continue
        st = d.stat()
        snap[str(d)] = (st.st_size, st.st_mtime_ns)
        for entry in d.iterdir():
            st = entry.lstat()
            snap[str(entry)] = (st.st_size, st.st_mtime_ns)
            if entry.is_dir() and not entry.is_symlink():
                for sub in entry.iterdir():
                    st = sub.lstat()
                    snap[str(sub)] = (st.st_size, st.st_mtime_ns)
    return snap


def test_make_app_setup_on_the_system_python(tmp_path: Path) -> None:
    if not SYSTEM_PY.exists():
        pytest.skip("no /usr/bin/python3 on this machine (the test is about Debian/Ubuntu's interpreter)")
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: cannot tell which files a clone holds")
    clone = tmp_path / "clone"
    fresh_copy(clone)
    assert (clone / "uv.lock").is_file(), "the lock file must be committed"
    assert not (clone / ".venv").exists()

    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYENV", "PYTHON", "UV_"))}
    env["PATH"] = "/usr/bin:/bin"
    found = subprocess.run(["bash", "-c", "command -v python3"], env=env, capture_output=True, text=True)
    assert found.stdout.strip() == str(SYSTEM_PY)

    dirs = _site_dirs(env)
    before = _snapshot(dirs)

    # the set-up step of `make app` (the server itself is started by the e2e tests)
    first = subprocess.run(
        ["bash", "scripts/setup.sh", "app"], cwd=clone, env=env, capture_output=True, text=True, timeout=900
    )
    assert first.returncode == 0, first.stdout + first.stderr
    assert "creating .venv with /usr/bin/python3" in first.stdout

    venv_py = clone / ".venv" / "bin" / "python"
    base = subprocess.run(
        [str(venv_py), "-c", "import sys; print(sys.base_prefix, sys.prefix != sys.base_prefix)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert base == ["/usr", "True"], base

    version = subprocess.run(
        [str(clone / ".venv" / "bin" / "evalcore"), "--version"], env=env, capture_output=True, text=True
    )
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("evalcore "), version.stdout

    # the app's own dependencies are in .venv
    imports = subprocess.run(
        [str(venv_py), "-c", "import streamlit, graphviz, plotly, evalcore"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert imports.returncode == 0, imports.stderr

    after = _snapshot(dirs)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed, f"the set-up changed the system interpreter's site-packages: {changed[:10]}"

    # again: reuses .venv and installs nothing
    second = subprocess.run(
        ["bash", "scripts/setup.sh", "app"], cwd=clone, env=env, capture_output=True, text=True, timeout=300
    )
    assert second.returncode == 0, second.stdout + second.stderr
    assert "creating" not in second.stdout and "installing the locked" not in second.stdout, second.stdout

    # a changed lock (or pyproject.toml) triggers a reinstall
    with (clone / "pyproject.toml").open("a") as f:
        f.write("\n# touched by the set-up test\n")
    third = subprocess.run(
        ["bash", "scripts/setup.sh", "app"], cwd=clone, env=env, capture_output=True, text=True, timeout=300
    )
    assert third.returncode == 0, third.stdout + third.stderr
    assert "installing the locked 'app' set" in third.stdout
    assert "creating" not in third.stdout
