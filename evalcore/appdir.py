"""Where the workbench's files are: a source checkout or the wheel's ``evalcore_app`` copy (docs/app.md, "From
the wheel").

:func:`app_root` is the folder of ``app.py``, ``pages/``, ``.streamlit/config.toml`` and ``assets/``,
found without importing streamlit.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from evalcore.errors import EvalcoreError

__all__ = ["APP_PACKAGE", "app_root", "checkout_root"]

APP_PACKAGE = "evalcore_app"


def checkout_root() -> Path | None:
    """The source checkout evalcore runs from (``app.py``, ``pages/`` and ``pyproject.toml`` beside
    the package), or ``None`` for an installed wheel."""
    top = Path(__file__).resolve().parent.parent
    if (top / "app.py").is_file() and (top / "pages").is_dir() and (top / "pyproject.toml").is_file():
        return top
    return None


def app_root() -> Path:
    """The folder of ``app.py``, ``pages/`` and ``assets/``: the checkout first, else the wheel's copy."""
    top = checkout_root()
    if top is not None:
        return top
    spec = importlib.util.find_spec(APP_PACKAGE)
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    raise EvalcoreError(
        f"the workbench's files are missing: no source checkout and no {APP_PACKAGE} package "
        "(reinstall evalcore from its wheel)",
        file="evalcore",
    )
