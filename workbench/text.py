"""Text for the page: markdown escaping and file-name stems (no streamlit, imports nothing of the
workbench, so every other module may use it)."""

from __future__ import annotations

import re

__all__ = ["md_code", "md_escape", "safe_stem", "shortened"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def md_escape(text: str) -> str:
    """Escape text for st.markdown: no markdown, no HTML, controls made visible, one line."""
    from evalcore.render.text import neutralize

    return _MD_SPECIAL.sub(r"\\\1", neutralize(text))


def md_code(text: str) -> str:
    """Text as a markdown code span, shown literally (``md_escape`` inside backticks would show its
    backslashes: "en\\_ewt"): controls made visible, a fence longer than any run of backticks in it."""
    from evalcore.render.text import neutralize

    clean = neutralize(text)
    longest = max((len(run) for run in re.findall(r"`+", clean)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if clean.startswith("`") or clean.endswith("`") or not clean.strip() else ""
    return f"{fence}{pad}{clean}{pad}{fence}"


def shortened(text: str, width: int = 90) -> str:
    """``text`` cut to ``width`` characters, the last one an ellipsis."""
    return text if len(text) <= width else text[: width - 1] + "…"


def safe_stem(text: str) -> str:
    """A file-name stem made of ``[A-Za-z0-9_.-]`` only."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._")
    return stem[:80] or "figure"
