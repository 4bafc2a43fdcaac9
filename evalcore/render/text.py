"""Text helpers shared by every writer: neutralizing, escaping, width estimates, direction.

All escaping of user-supplied strings (forms, lemmas, labels, tags, sentence
ids) for SVG and DOT lives here, so that one audited place decides what a
hostile string becomes:

* :func:`neutralize` makes a string *visible and inert*: control characters
  (``\\n``, ``\\t``, ``\\x07`` ...) and Unicode bidi controls (RLM, RLO, PDI ...)
  are replaced by their escape text (``\\n``, ``\\u202e``), so a newline cannot
  break a DOT statement and a right-to-left override cannot reorder the
  drawing.  Everything else, ``<``, ``&``, quotes, braces and backslashes
  included, is kept, to be escaped by the writer's own rule below.
* :func:`xml_escape` (SVG), :func:`dot_html` (Graphviz HTML-like labels) and :func:`dot_quoted` (a
  double-quoted DOT string) then escape for their target.

Width estimates use the advance widths of DejaVu Sans (the font the SVG asks
for first; Verdana has nearly the same metrics): exact for ASCII, and on the
generous side elsewhere, so that estimated boxes never come out too small.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "BIDI_CONTROLS",
    "dot_html",
    "dot_quoted",
    "is_rtl_text",
    "neutralize",
    "text_width",
    "xml_escape",
]

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

# DejaVu Sans advance widths (em) for ASCII 32..126
_ASCII_EM = (
    0.318, 0.401, 0.46, 0.838, 0.636, 0.95, 0.78, 0.275, 0.39, 0.39, 0.5, 0.838, 0.318, 0.361, 0.318, 0.337,
    0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.337, 0.337, 0.838, 0.838, 0.838,
    0.531, 1.0, 0.684, 0.686, 0.698, 0.77, 0.632, 0.575, 0.775, 0.752, 0.295, 0.295, 0.656, 0.557, 0.863,
    0.748, 0.787, 0.603, 0.787, 0.695, 0.635, 0.611, 0.732, 0.684, 0.989, 0.685, 0.611, 0.685, 0.39, 0.337,
    0.39, 0.838, 0.5, 0.5, 0.613, 0.635, 0.55, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278,
    0.974, 0.634, 0.612, 0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592, 0.592, 0.525, 0.636,
    0.337, 0.636, 0.838,
)  # fmt: skip
_OTHER_EM = 0.72  # generous for non-ASCII letters (Latin accents ~0.62, Hebrew <= 0.71)
_WIDE_EM = 1.0  # East Asian wide / full-width
_BOLD = 1.12


def neutralize(text: str) -> str:
    """Make control and bidi-control characters visible as escape text (see module doc)."""
    if text.isprintable() and not (BIDI_CONTROLS & set(text)):
        return text
    out: list[str] = []
    for ch in text:
        if ch in _NAMED:
            out.append(_NAMED[ch])
        elif ch in BIDI_CONTROLS:
            out.append(f"\\u{ord(ch):04x}")
        elif unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") or ch in "\u2028\u2029\ufeff":
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def xml_escape(text: str) -> str:
    """Neutralize, then escape for XML text and attribute values (``&<>"'``)."""
    return (
        neutralize(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


_DOT_HTML_EXTRA = str.maketrans({"[": "&#91;", "]": "&#93;", "|": "&#124;", "{": "&#123;", "}": "&#125;"})


def dot_html(text: str) -> str:
    """Escape for the inside of a Graphviz HTML-like label ``<...>``.

    Graphviz treats the body as XML (entities are decoded) but still expands
    ``\\N``, ``\\G`` and the like in the text, even when the backslash comes
    from ``&#92;``; a doubled backslash is the one way to draw a literal one,
    so backslashes are doubled.  ``[ ] | { }`` are written as character
    references too: a label that is only ``]`` stops ``dot`` with a syntax
    error (found by the hostile-input run, docs/robustness.md).  An empty string becomes
    a no-break space so the label is never empty.
    """
    escaped = xml_escape(text).replace("\\", "\\\\").translate(_DOT_HTML_EXTRA)
    return escaped if escaped else "&#160;"


def dot_quoted(text: str) -> str:
    """A complete double-quoted DOT string: ``\\`` doubled, ``"`` escaped, controls neutralized.

    Doubling the backslash also defuses Graphviz's label escapes (``\\N`` is
    the node name, ``\\l`` a left-justified line break).
    """
    return '"' + neutralize(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _char_em(ch: str) -> float:
    code = ord(ch)
    if 32 <= code < 127:
        return _ASCII_EM[code - 32]
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me", "Cf"):
        return 0.0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return _WIDE_EM
    return _OTHER_EM


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """Estimated rendered width in px of ``neutralize(text)`` at font ``size`` px."""
    em = sum(_char_em(ch) for ch in neutralize(text))
    return em * size * (_BOLD if bold else 1.0)


def is_rtl_text(text: str) -> bool:
    """True if the first strong character is right-to-left (Hebrew, Arabic, ...)."""
    for ch in text:
        bidi = unicodedata.bidirectional(ch)
        if bidi in ("R", "AL"):
            return True
        if bidi == "L":
            return False
    return False
