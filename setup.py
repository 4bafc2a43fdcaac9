"""The one build step pyproject.toml cannot say: the workbench travels in the wheel (issue 18, part 3).

``app.py``, ``pages/``, ``.streamlit/config.toml`` and the shipped data of ``assets/`` stay at the
top of the repository (``make app`` runs them there).  The wheel carries a copy of them as the
package ``evalcore_app`` (``workbench/`` is a package of its own), which ``evalcore app`` runs
(:mod:`evalcore.appdir` finds either).  An editable install (``scripts/setup.sh``) skips the copy:
the checkout is the app.  The sdist carries the originals (``MANIFEST.in``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
APP_PACKAGE = "evalcore_app"
APP_FILES = ("app.py", ".streamlit/config.toml")
APP_TREES = ("pages", "assets")
SKIPPED = {"__pycache__", ".DS_Store"}
INIT = '''"""The evalcore workbench as installed from the wheel: ``app.py``, ``pages/``,
``.streamlit/config.toml`` and the shipped data of ``assets/`` (licenses in ``assets/README.md``).

Run it with ``evalcore app`` (docs/app.md); the copy is made by the build (``setup.py``).
"""
'''


def _app_files() -> list[Path]:
    """Every file of the app, relative to the repository's top."""
    out = [Path(name) for name in APP_FILES]
    for tree in APP_TREES:
        for path in sorted((ROOT / tree).rglob("*")):
            rel = path.relative_to(ROOT)
            if path.is_file() and not SKIPPED & set(rel.parts) and path.suffix != ".pyc":
                out.append(rel)
    return out


class BuildPyWithApp(build_py):
    """``build_py`` plus the copy of the app under ``evalcore_app/``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / APP_PACKAGE
        for rel in _app_files():
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / rel, dest)
        (target / "__init__.py").write_text(INIT, encoding="utf-8")


setup(cmdclass={"build_py": BuildPyWithApp})
