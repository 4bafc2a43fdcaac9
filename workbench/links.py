"""Deep links: the one parser of the query string (``?data=fr_gsd&sent=5&step=on_sunday``).

A link comes from anywhere (a colleague's mail, a hostile page), so every
value is validated here, once, by a declarative table (:data:`LINK_KEYS`):
each key has a kind and what it allows, and :func:`parse_link` turns the raw
query into a frozen :class:`DeepLink` -- the values that passed, and a list
of *problems* (one short line each) that the page shows instead of failing.
Numbers are ASCII digits only (``²``, ``①`` or Arabic-Indic digits are not
numbers here, though ``str.isdigit`` says so), of bounded length (no 5,000-digit
integer reaches ``int()``); text is printable and at most ``max_length``
characters; a key no page knows is reported and ignored.  No value from a
link is ever used before it passed this parser (``tests/test_links.py`` walks
every page with hostile values for each of its keys).

Extending it to more view settings (protocol, labeled, target, parse tab,
order, filters, per-page choices) is one :class:`LinkKey` per setting in
:data:`LINK_KEYS` and the key in the pages' entry of :data:`PAGE_KEYS`; the
kinds ``choice``, ``number``, ``flag`` and ``text`` cover them.

No streamlit here except in :func:`current_link` and :func:`show_link_problems`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from workbench.datasets import BUILTINS

__all__ = [
    "LINK_KEYS",
    "PAGE_KEYS",
    "STREAMLIT_KEYS",
    "TOUR_STEPS",
    "UPLOAD_KEY",
    "DeepLink",
    "LinkKey",
    "LinkValue",
    "SentenceRef",
    "current_link",
    "parse_link",
    "show_link_problems",
]

UPLOAD_KEY = "upload"
"""The ``data=`` value of the "Your files (upload)" dataset."""

TOUR_STEPS: tuple[str, ...] = ("on_sunday", "coordination", "verb_group", "john_loves_mary", "bclm_hneim")
"""The steps of the tour page (``pages/5_Tour.py``), in order."""

Kind = Literal["choice", "sentence", "number", "flag", "text"]


@dataclass(frozen=True, slots=True)
class LinkKey:
    """One query-string key: its kind and what it allows.

    * ``choice``: one of ``choices``;
    * ``sentence``: a 1-based sentence number (ASCII digits) or a sentence id (printable text);
    * ``number``: ASCII digits, ``minimum``..``maximum``;
    * ``flag``: ``1/0``, ``true/false``, ``yes/no``, ``on/off``;
    * ``text``: printable text.

    Every kind is at most ``max_length`` characters.
    """

    name: str
    kind: Kind
    help: str
    choices: tuple[str, ...] = ()
    max_length: int = 200
    minimum: int = 0
    maximum: int = 999_999_999


@dataclass(frozen=True, slots=True)
class SentenceRef:
    """``sent=``: a 1-based position (``number``) or a sentence id (``id``); exactly one is set."""

    number: int | None = None
    id: str | None = None


LinkValue = str | int | bool | SentenceRef

LINK_KEYS: Mapping[str, LinkKey] = MappingProxyType(
    {
        k.name: k
        for k in (
            LinkKey(
                "data",
                "choice",
                "the dataset",
                choices=(*(s.key for s in BUILTINS), UPLOAD_KEY),
                max_length=40,
            ),
            LinkKey("sent", "sentence", "the sentence: its number (1 = first) or its id", max_length=200),
            LinkKey("step", "choice", "the step of the tour", choices=TOUR_STEPS, max_length=40),
        )
    }
)
"""Every key a page reads from the query string."""

PAGE_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "app.py": ("data", "sent"),
        "pages/1_Cross_scheme.py": ("data",),
        "pages/2_FREVAL.py": ("data",),
        "pages/3_Lattice.py": ("data", "sent"),
        "pages/4_NED.py": ("data", "sent"),
        "pages/5_Tour.py": ("step",),
        "pages/6_Atlas.py": ("data",),
    }
)
"""The keys each page reads (the hostile-link test walks them all)."""

STREAMLIT_KEYS = frozenset({"embed", "embed_options"})
"""Query keys Streamlit itself reads: never reported."""

_ASCII_NUMBER = re.compile(r"[0-9]{1,9}")
_FLAGS = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}


@dataclass(frozen=True)
class DeepLink:
    """The values of a link that passed the parser, and what was wrong with the others."""

    values: Mapping[str, LinkValue] = field(default_factory=lambda: MappingProxyType({}))
    problems: tuple[str, ...] = ()

    def text(self, name: str) -> str | None:
        value = self.values.get(name)
        return value if isinstance(value, str) else None

    def number(self, name: str) -> int | None:
        value = self.values.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def flag(self, name: str) -> bool | None:
        value = self.values.get(name)
        return value if isinstance(value, bool) else None

    def sentence(self, name: str = "sent") -> SentenceRef | None:
        value = self.values.get(name)
        return value if isinstance(value, SentenceRef) else None


def _shown(text: str, limit: int = 30) -> str:
    clean = "".join(ch if ch.isprintable() else "?" for ch in text[: limit + 1])
    return clean if len(text) <= limit else clean[: limit - 1] + "…"


def _check(key: LinkKey, raw: str) -> tuple[LinkValue | None, str | None]:
    """The value of one key, or why it is refused."""
    if len(raw) > key.max_length:
        return None, f"{key.name}: too long ({len(raw):,} characters; at most {key.max_length})"
    if not raw.isprintable():
        return None, f"{key.name}: '{_shown(raw)}' holds control characters"
    if key.kind == "choice":
        if raw in key.choices:
            return raw, None
        return None, f"{key.name}: unknown value '{_shown(raw)}' (one of: {', '.join(key.choices)})"
    if key.kind == "flag":
        flag = _FLAGS.get(raw.lower())
        return (flag, None) if flag is not None else (None, f"{key.name}: '{_shown(raw)}' is not yes or no")
    if key.kind == "text":
        return raw, None
    number = _number(key, raw)
    if isinstance(number, int):
        if key.kind == "sentence":
            return (
                (SentenceRef(number=number), None)
                if number >= 1
                else (None, f"{key.name}: numbers start at 1")
            )
        if not key.minimum <= number <= key.maximum:
            return None, f"{key.name}: {number} is not between {key.minimum} and {key.maximum}"
        return number, None
    if key.kind == "sentence" and number is None:
        return SentenceRef(id=raw), None  # an id: any printable text
    return None, number or f"{key.name}: '{_shown(raw)}' is not a number"


def _number(key: LinkKey, raw: str) -> int | str | None:
    """An int for ASCII digits; a problem for digits that are not plain ASCII ones or too many;
    ``None`` for anything else."""
    if _ASCII_NUMBER.fullmatch(raw):
        return int(raw)
    if raw.isascii() and raw.isdigit():
        return f"{key.name}: a number of {len(raw):,} digits is too large"
    if raw and all(ch.isdigit() or ch.isdecimal() or ch.isnumeric() for ch in raw):
        return f"{key.name}: '{_shown(raw)}' is not written with the digits 0-9"
    return None


def parse_link(query: Mapping[str, str | Iterable[str]], keys: Mapping[str, LinkKey] = LINK_KEYS) -> DeepLink:
    """Validate a query string (``{key: value or [values]}``) against ``keys``.

    Empty values are ignored (as if the key were absent); a key given several times uses the
    last value (and says so); an unknown key is reported and ignored.
    """
    values: dict[str, LinkValue] = {}
    problems: list[str] = []
    for name, given in query.items():
        raws = [given] if isinstance(given, str) else list(given)
        key = keys.get(name)
        if key is None:
            if name not in STREAMLIT_KEYS:
                problems.append(f"'{_shown(name)}': not a parameter of this app (ignored)")
            continue
        if len(raws) > 1:
            problems.append(f"{name}: given {len(raws)} times; the last one is used")
        raw = raws[-1] if raws else ""
        if not raw:
            continue
        value, problem = _check(key, raw)
        if problem is not None:
            problems.append(problem + " (ignored)")
        elif value is not None:
            values[name] = value
    return DeepLink(MappingProxyType(values), tuple(problems))


def current_link() -> DeepLink:
    """The link of the page being drawn (``st.query_params``), parsed."""
    import streamlit as st

    query = {name: st.query_params.get_all(name) for name in st.query_params}
    return parse_link(query)


def show_link_problems(link: DeepLink) -> None:
    """One sidebar caption listing what the parser refused (nothing when the link is clean)."""
    if not link.problems:
        return
    import streamlit as st

    from workbench.widgets import md_escape

    st.sidebar.warning(
        "Some parts of the link were not used: " + "; ".join(md_escape(p) for p in link.problems), icon="🔗"
    )
