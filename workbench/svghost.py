"""Drawings into the page without Markdown: one ``st.components.v2`` component, no iframe
(docs/app.md, "Speed" and "Safety of drawings").

The host sets the box's HTML with the browser's own parser (``innerHTML``, only when it changed)
inside the page's DOM (``isolate_styles=False``: the page's CSS and the tests' selectors reach it);
a drawing's downloads (SVG, DOT) are links under its box made in the browser from the text sent with
it, their labels and file names set as text, never as HTML.  (``st.markdown`` parsed every SVG
twice and made a React element of each node; ``st.html``'s sanitizer drops SVG.)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

__all__ = ["COMPONENT_NAME", "DownloadFile", "show_html"]

COMPONENT_NAME = "evalcore_svg_host"


@dataclass(frozen=True, slots=True)
class DownloadFile:
    """A file offered under a drawing: the link's text, the file's name, type and content.

    ``drawing``: instead of ``text``, the ``drawing``-th SVG of the box as the page shows it (its
    size at 100 %, without the box's styling), so that an SVG is not sent twice."""

    label: str
    file_name: str
    mime: str
    text: str = ""
    drawing: int | None = None


_HOST_JS = """
export default function(component) {
  const { data, parentElement } = component;
  let host = parentElement.querySelector(':scope > div.wb-host');
  if (!host) {
    host = document.createElement('div');
    host.className = 'wb-host';
    parentElement.appendChild(host);
  }
  if (host.__wbHtml !== data.html) {
    host.innerHTML = data.html;
    host.__wbHtml = data.html;
  }
  if (data.scroll && !host.__wbScrolled) {
    // once per element: the page scrolls to it, and again whenever what is above it grows (drawings
    // fitted, elements still arriving), for 5 s or until the user scrolls, clicks or types
    host.__wbScrolled = true;
    const go = () => parentElement.scrollIntoView({ block: 'start' });
    const content = document.querySelector('[data-testid=stMainBlockContainer]') || document.body;
    const watch = new ResizeObserver(go);
    const events = ['wheel', 'touchstart', 'keydown', 'mousedown'];
    const stop = () => {
      watch.disconnect();
      events.forEach((e) => window.removeEventListener(e, stop, true));
    };
    events.forEach((e) => window.addEventListener(e, stop, true));
    watch.observe(content);
    go();
    setTimeout(stop, 5000);
  }
  let bar = parentElement.querySelector(':scope > div.wb-downloads');
  const files = data.files || [];
  if (!files.length) {
    if (bar) bar.remove();
    return;
  }
  if (!bar) {
    bar = document.createElement('div');
    bar.className = 'wb-downloads';
    bar.style.cssText = 'font-size:0.85rem;color:#555;margin:2px 0 8px 0;'
      + 'display:flex;flex-wrap:wrap;gap:4px 12px';
    parentElement.appendChild(bar);
  }
  bar.replaceChildren();
  const head = document.createElement('span');
  head.textContent = 'Download:';
  bar.appendChild(head);
  for (const f of files) {
    const a = document.createElement('a');
    a.className = 'wb-download';
    a.textContent = f.label;
    a.download = f.name;
    a.href = '#';
    a.dataset.file = f.name;
    a.style.cursor = 'pointer';
    a.onclick = (e) => {
      e.preventDefault();
      let text = f.text;
      if (f.drawing !== undefined) {
        const svg = host.querySelectorAll('.wb-fit-inner > svg')[f.drawing].cloneNode(true);
        svg.removeAttribute('style');
        svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
        text = new XMLSerializer().serializeToString(svg);
      }
      const url = URL.createObjectURL(new Blob([text], { type: f.mime }));
      const tmp = document.createElement('a');
      tmp.href = url;
      tmp.download = f.name;
      document.body.appendChild(tmp);
      tmp.click();
      tmp.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    };
    bar.appendChild(a);
  }
}
"""


@functools.cache
def _host() -> Callable[..., Any]:
    """The component, registered once per process (a constant, like a module's function)."""
    return st.components.v2.component(COMPONENT_NAME, js=_HOST_JS, isolate_styles=False)  # type: ignore[no-any-return]


def host_data(html: str, files: Sequence[DownloadFile] = (), *, scroll: bool = False) -> dict[str, object]:
    """What the component receives (JSON): the box's HTML, the files offered under it and, when
    ``scroll``, that the page scrolls to it once."""
    data: dict[str, object] = {"html": html, "files": [_file(f) for f in files]}
    if scroll:
        data["scroll"] = True
    return data


def _file(f: DownloadFile) -> dict[str, object]:
    out: dict[str, object] = {"label": f.label, "name": f.file_name, "mime": f.mime}
    if f.drawing is None:
        out["text"] = f.text
    else:
        out["drawing"] = f.drawing
    return out


def show_html(html: str, *, key: str, files: Sequence[DownloadFile] = (), scroll: bool = False) -> None:
    """Put ``html`` (ours: every data string escaped) in the page, with download links for ``files``;
    ``scroll``: the page scrolls to it when it first appears (e.g. the inspector's edit script,
    opened from the Atlas).

    ``key`` keeps the element across reruns (a new sentence updates it in place)."""
    data = host_data(html, files, scroll=scroll)
    _host()(data=data, key=f"wbhost:{key}", width="stretch", height="content")
