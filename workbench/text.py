"""Text for the page: markdown escaping and file-name stems (no streamlit, imports nothing of the
workbench, so every other module may use it)."""

from __future__ import annotations

import re

__all__ = ["md_escape", "safe_stem"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def md_escape(text: str) -> str:
    """Escape text for st.markdown: no markdown, no HTML, controls made visible, one line."""
    from evalcore.render.text import neutralize

    return _MD_SPECIAL.sub(r"\\\1", neutralize(text))


def safe_stem(text: str) -> str:
    """A file-name stem made of ``[A-Za-z0-9_.-]`` only."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._")
    return stem[:80] or "figure"
