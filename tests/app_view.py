"""What an AppTest run shows: its Markdown and its drawings (the SVG host of
:mod:`workbench.svghost`, which AppTest lists as an element it does not model)."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from workbench.svghost import COMPONENT_NAME


def _hosts(at: AppTest) -> list[dict[str, object]]:
    out = []
    for el in at.get("bidi_component"):
        proto = el.proto  # type: ignore[attr-defined]
        if proto.component_name == COMPONENT_NAME:
            out.append(json.loads(proto.json))
    return out


def drawings(at: AppTest) -> list[str]:
    """The HTML of every drawing box on the page, in page order."""
    return [str(h["html"]) for h in _hosts(at)]


def download_names(at: AppTest) -> list[str]:
    """The file names of every download link under the drawings."""
    return [str(f["name"]) for h in _hosts(at) for f in h["files"]]  # type: ignore[attr-defined]


def page_text(at: AppTest) -> str:
    """Every Markdown element's text, then every drawing's HTML, one per line."""
    return "\n".join([m.value for m in at.markdown] + drawings(at))
