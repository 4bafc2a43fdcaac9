"""Deep links: the one parser of the query string (``?data=fr_gsd&sent=5&step=on_sunday``;
docs/app.md, "Links").

A link comes from anywhere (a colleague's mail, a hostile page), so every value is validated here,
once, by a declarative table (:data:`LINK_KEYS`: each key a kind and what it allows), and
:func:`parse_link` turns the raw query into a frozen :class:`DeepLink` -- the values that passed,
and one short line per *problem*, which the page shows instead of failing.  No value from a link is
used before it passed this parser (``tests/test_links.py`` walks every page with hostile values).
A new view setting is one :class:`LinkKey` in :data:`LINK_KEYS` (or a declared ``link=``) and its
key in the page's entry of :data:`PAGE_KEYS`.

The settings in the URL (:func:`seed_widget`, :func:`keep_widget`, :func:`report_link_problem`)
are in the last section, the only one that imports streamlit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, TypeVar

from evalcore.atlas import GROUPINGS as ATLAS_GROUPINGS
from evalcore.declare import declared
from evalcore.families.attach import AttachSettings
from evalcore.families.freval import FrevalSettings
from evalcore.families.lattice import LatticeSettings
from evalcore.families.tedeval import TedevalSettings
from evalcore.metrics.breakdown import GROUPINGS as BREAKDOWN_GROUPINGS
from workbench.datasets import BUILTINS
from workbench.fit import ZOOMS

__all__ = [
    "ATLAS_KEYS",
    "BREAKDOWN_SORTS",
    "CROSS_SCHEME_KEYS",
    "DECLARED",
    "FREVAL_KEYS",
    "LATTICE_KEYS",
    "LINK_KEYS",
    "NED_KEYS",
    "NED_SECTIONS",
    "PAGE_KEYS",
    "STREAMLIT_KEYS",
    "TOUR_STEPS",
    "UNIT_SOURCES",
    "UPLOAD_KEY",
    "DeepLink",
    "LinkKey",
    "LinkValue",
    "SentenceRef",
    "current_link",
    "declared_keys",
    "followed",
    "inspector_url",
    "keep_widget",
    "linked",
    "parse_link",
    "report_link_problem",
    "seed_widget",
    "show_link_problems",
    "widget_value",
    "write_link",
]

UPLOAD_KEY = "upload"
"""The ``data=`` value of the "Your files (upload)" dataset."""

TOUR_STEPS: tuple[str, ...] = ("on_sunday", "coordination", "verb_group", "john_loves_mary", "bclm_hneim")
"""The steps of the tour page (``pages/5_Tour.py``), in order."""

TARGETS: tuple[str, ...] = ("general", "single")
"""``target=``: the edit script to the generalized gold (TEDEVAL MULTIPLE) or to the single gold."""

ORDERS: tuple[str, ...] = ("file", "worst", "worst-lted", "gold-gap")
"""``order=``: file order, the page's worst-first order (LAS on the inspector), worst L-TED first,
largest gold-vs-gold discrepancy first."""

UNIT_SOURCES: tuple[str, ...] = ("schemes", "ud", "sud", "request")
"""``units=`` (Atlas) and the source of ``unit=SOURCE:NAME``: where the constructions come from
(:data:`workbench.units.SOURCES`)."""

OP_STATUSES: tuple[str, ...] = ("counted", "discounted")
OP_KINDS: tuple[str, ...] = ("ins", "del", "rel")

INSPECTOR_KEYS: tuple[str, ...] = (
    "data",
    "sent",
    "protocol",
    "labeled",
    "target",
    "parse",
    "order",
    "minwords",
    "label",
    "opstatus",
    "opkind",
    "oplabel",
    "find",
    "punct",
    "side",
    "zoom",
    "funcsep",
    "group",
    "pattern",
    "unit",
)
"""The keys of the sentence inspector: every setting that changes what it shows."""

ATLAS_KEYS: tuple[str, ...] = (
    "data",
    "protocol",
    "skip",
    "against",
    "scripts",
    "grouping",
    "parse",
    "group",
    "units",
    "pattern",
    "unit",
)
"""The keys of the Atlas page (``group``: GROUPING:NAME, the group whose sentences are listed;
``units``, ``pattern`` and ``unit``: the constructions as units of evaluation, docs/app.md)."""

NED_SECTIONS: tuple[str, ...] = ("sentence", "corpus", "conll18", "breakdown")
"""``section=`` on the Attachment & NED page: the tab shown (only its content is made)."""

BREAKDOWN_SORTS: tuple[str, ...] = ("group", "LAS", "UAS", "tokens")
"""``sort=`` on the Attachment & NED page: the grouping's order, worst LAS / UAS first, most tokens."""

Kind = Literal["choice", "sentence", "number", "flag", "text", "name"]

DECLARED: tuple[type, ...] = (FrevalSettings, TedevalSettings, AttachSettings, LatticeSettings)
"""The settings declarations (:mod:`evalcore.families`) whose fields' ``link=`` keys the pages bind
(:func:`workbench.settings_form.settings_form`); a key declared twice takes its first declaration."""


def linked(cls: type) -> tuple[str, ...]:
    """The ``link=`` keys of ``cls``'s declared settings (:mod:`evalcore.declare`), in their order."""
    return tuple(d.option.link for d in declared(cls) if d.option.link is not None)


CROSS_SCHEME_KEYS = ("data", *linked(TedevalSettings), "golds", "labelmaps", "row", "worst")
"""The keys of the cross-scheme page: every setting that changes what it shows (the declared ones of
``evalcore tedeval``, :class:`~evalcore.families.tedeval.TedevalSettings`, and the page's own)."""

FREVAL_KEYS = ("data", *linked(FrevalSettings), "variants", "baseline", "run", "sentno")
"""The keys of the FREVAL page (``sentno``: the sentence of the one-sentence view, evalb's number)."""

LATTICE_KEYS = ("data", "sent", *linked(LatticeSettings), "prediction")
"""The keys of the Lattice page (``pages/3_Lattice.py``)."""

NED_KEYS = (
    "data",
    "sent",
    "find",
    "order",
    "gold",
    "system",
    *linked(AttachSettings),
    "by",
    "sort",
    "group",
    "section",
)
"""The keys of the Attachment & NED page (``pages/4_NED.py``)."""

APP_RANGE: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "maxerror": (0, 1_000_000),
        "maxsize": (1, 10_000),
        "cutoff": (0, 100_000),
        "maxlen": (1, 1000),
        "shuffles": (0, 100_000),
        "seed": (0, 2**31 - 1),
    }
)
"""The numbers a link may ask for, where the app bounds a setting more than the command line does."""


@dataclass(frozen=True, slots=True)
class LinkKey:
    """One query-string key: its kind and what it allows.

    * ``choice``: one of ``choices``;
    * ``sentence``: a 1-based sentence number (ASCII digits) or a sentence id (printable text);
    * ``number``: ASCII digits, ``minimum``..``maximum``;
    * ``flag``: ``1/0``, ``true/false``, ``yes/no``, ``on/off``;
    * ``text``: printable text (any printable text is a value: a search, separators);
    * ``name``: printable text naming something of the dataset (a parse, a label): the page
      looks it up and reports a name it does not know (:func:`report_link_problem`).

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

_DECLARED_KINDS: Mapping[str, Kind] = MappingProxyType(
    {"flag": "flag", "choice": "choice", "int": "number", "str": "text"}
)


def declared_keys(classes: Iterable[type], bounds: Mapping[str, tuple[int, int]]) -> tuple[LinkKey, ...]:
    """The link keys of the declared settings of ``classes`` (:mod:`evalcore.declare`): each field
    with a ``link=`` gives its key, of its kind, with its help, choices and minimum (``bounds``: the
    app's range, by key)."""
    keys: dict[str, LinkKey] = {}
    for cls in classes:
        for d in declared(cls):
            name = d.option.link
            if name is None or name in keys:
                continue
            low, top = bounds.get(name, (d.option.minimum or 0, 999_999_999))
            kind = _DECLARED_KINDS[d.kind]
            keys[name] = LinkKey(name, kind, d.option.help, d.choices, minimum=low, maximum=top)
    return tuple(keys.values())


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
            LinkKey("sent", "sentence", "the sentence: its number (1 = first) or its id"),
            LinkKey("step", "choice", "the step of the tour", choices=TOUR_STEPS, max_length=40),
            # the inspector's settings (other pages may read those that mean the same for them)
            LinkKey("own", "name", "the tour's parser's own gold (its scheme)", max_length=100),
            LinkKey("labeled", "flag", "the labeled edit script (no: unlabeled)", max_length=10),
            LinkKey(
                "target",
                "choice",
                "the edit script to the generalized gold or to the single gold",
                choices=TARGETS,
                max_length=10,
            ),
            LinkKey("parse", "name", "the parse (or gold read as a parse) of the edit script"),
            LinkKey("order", "choice", "the order of the sentences", choices=ORDERS, max_length=20),
            LinkKey("minwords", "number", "hide sentences shorter than this", maximum=9999, max_length=4),
            LinkKey("label", "name", "only sentences with this relation label", max_length=100),
            LinkKey(
                "opstatus",
                "choice",
                "only sentences with a counted / discounted operation",
                choices=OP_STATUSES,
                max_length=12,
            ),
            LinkKey(
                "opkind",
                "choice",
                "only sentences with an insertion / deletion / relabeling",
                choices=OP_KINDS,
                max_length=12,
            ),
            LinkKey("oplabel", "name", "only sentences with an operation on this label", max_length=100),
            LinkKey("find", "text", "only sentences whose id, number or words contain this"),
            LinkKey(
                "pattern",
                "text",
                "only sentences a request matches in a gold tree (docs/patterns.md), e.g. "
                "'pattern { H -[cop]-> X }'",
                max_length=1000,
            ),
            LinkKey("punct", "flag", "count punctuation (no: --no-punct)", max_length=10),
            LinkKey("side", "flag", "schemes side by side (no: stacked)", max_length=10),
            LinkKey("zoom", "choice", "drawing size", choices=ZOOMS, max_length=10),
            LinkKey(
                "group",
                "name",
                "an atlas group, GROUPING:NAME (construction:copula): its sentences (Atlas), its "
                "operations highlighted (inspector); on the Attachment & NED page, the breakdown "
                "group whose sentences are listed",
            ),
            LinkKey(
                "unit",
                "name",
                "a construction, SOURCE:NAME (schemes:copula; request:pattern, the request of "
                "pattern=): its scores and sentences (Atlas), its words and operations highlighted "
                "(inspector)",
            ),
            # the cross-scheme page's own choices (pages/1_Cross_scheme.py)
            LinkKey("golds", "flag", "also score each gold as a parse", max_length=10),
            LinkKey(
                "labelmaps",
                "name",
                "per-scheme label maps, SCHEME:MAP comma-separated (a shipped map or an uploaded one)",
                max_length=400,
            ),
            LinkKey("row", "name", "the row whose sentences are listed (against · metric)"),
            LinkKey("worst", "name", "the parse the sentences are ordered by, worst first"),
            # the FREVAL page's own choices (pages/2_FREVAL.py)
            LinkKey("variants", "name", "ways to score each file, comma-separated"),
            LinkKey("baseline", "name", "the curve the others are compared with", max_length=400),
            LinkKey("run", "name", "the run of the one-sentence view", max_length=400),
            LinkKey("sentno", "number", "the sentence of the one-sentence view", minimum=1, max_length=9),
            # the Atlas page's own choices (pages/6_Atlas.py)
            LinkKey("against", "name", "the atlas's target: a gold's scheme or a generalization"),
            LinkKey("scripts", "choice", "unlabeled or labeled scripts", choices=("unlabeled", "labeled")),
            LinkKey(
                "grouping", "choice", "the grouping of the operations", choices=ATLAS_GROUPINGS, max_length=20
            ),
            LinkKey(
                "units",
                "choice",
                "the constructions scored: each scheme's shipped pattern file, one for every scheme, or "
                "a request (pattern=)",
                choices=UNIT_SOURCES,
                max_length=20,
            ),
            # the Lattice page's own choices (pages/3_Lattice.py)
            LinkKey("prediction", "name", "the prediction of the one-sentence view"),
            # the Attachment & NED page's own choices (pages/4_NED.py)
            LinkKey("gold", "name", "the gold analysis"),
            LinkKey("system", "name", "the analysis scored against the gold"),
            LinkKey(
                "section",
                "choice",
                "the section of the Attachment & NED page",
                choices=NED_SECTIONS,
                max_length=12,
            ),
            LinkKey(
                "by",
                "choice",
                "the grouping of the breakdown (--by)",
                choices=BREAKDOWN_GROUPINGS,
                max_length=12,
            ),
            LinkKey(
                "sort",
                "choice",
                "the order of the breakdown's groups",
                choices=BREAKDOWN_SORTS,
                max_length=10,
            ),
            *declared_keys(DECLARED, APP_RANGE),
        )
    }
)
"""Every key a page reads from the query string: the pages' own, and the ``link=`` keys of the
settings declared in evalcore (:data:`DECLARED`)."""

PAGE_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "app.py": INSPECTOR_KEYS,
        "pages/1_Cross_scheme.py": CROSS_SCHEME_KEYS,
        "pages/2_FREVAL.py": FREVAL_KEYS,
        "pages/3_Lattice.py": LATTICE_KEYS,
        "pages/4_NED.py": NED_KEYS,
        "pages/5_Tour.py": ("step", "parse", "own", "protocol", "zoom"),
        "pages/6_Atlas.py": ATLAS_KEYS,
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
    if key.kind in ("text", "name"):
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


def inspector_url(dataset: str, sent: str) -> str:
    """A relative link to the sentence inspector at one sentence (its ``data=`` and ``sent=``)."""
    return inspector_link({"data": dataset, "sent": sent})


def inspector_link(query: Mapping[str, str]) -> str:
    """A relative link to the sentence inspector with this query string (e.g. one of
    :func:`workbench.atlas_links.inspector_query`)."""
    from urllib.parse import urlencode

    return "./?" + urlencode(dict(query))


def current_link() -> DeepLink:
    """The link of the page being drawn (``st.query_params``), parsed."""
    import streamlit as st

    query = {name: st.query_params.get_all(name) for name in st.query_params}
    return parse_link(query)


# ---------------------------------------------------------------------------
# settings that live in the URL (streamlit below)

_WRITTEN = "_wb_link_written"  # {key: the text this app last wrote to the URL, or None: taken out}
_KEEP = "_wb_keep:"  # + a widget key: its value, kept while other pages are shown

T = TypeVar("T")


def _written() -> dict[str, str | None]:
    import streamlit as st

    written = st.session_state.setdefault(_WRITTEN, {})
    assert isinstance(written, dict)
    return written


def followed(name: str) -> LinkValue | None:
    """The link's value of ``name`` (validated) when the app did not write it itself: a link opened
    in a new session, or followed within one.  ``None`` otherwise (and when the link has no value)."""
    import streamlit as st

    value = current_link().values.get(name)
    if value is None:
        return None
    raw = st.query_params.get_all(name)
    return value if (raw[-1] if raw else None) != _written().get(name) else None


def write_link(name: str, text: str | None) -> None:
    """Put ``name=text`` in the URL (``None``: take the key out, the default) and remember it was
    written by the app (so it is not taken for a link followed)."""
    import streamlit as st

    if text is None:
        if name in st.query_params:
            del st.query_params[name]
    elif st.query_params.get(name) != text:
        st.query_params[name] = text
    _written()[name] = text


def seed_widget(
    name: str, widget: str, default: T, accept: Callable[[LinkValue], T | None]
) -> LinkValue | None:
    """Before drawing the widget of session key ``widget`` bound to the link key ``name``: its value
    is the link's when a link was followed (``accept`` turns the validated link value into the
    widget's, or ``None`` if this page cannot take it), else the one it had (kept across pages),
    else ``default``.  Returns the link's value when ``accept`` refused it (the page says so)."""
    import streamlit as st

    value = followed(name)
    if value is not None:
        taken = accept(value)
        if taken is not None:
            st.session_state[widget] = taken
            return None
    if widget not in st.session_state:
        st.session_state[widget] = st.session_state.get(_KEEP + widget, default)
    return value


def keep_widget(name: str, widget: str, text: str | None) -> None:
    """After drawing the widget: keep its value for when the page is shown again, and write
    ``text`` (its value in the URL, ``None`` for the default) to the URL."""
    import streamlit as st

    st.session_state[_KEEP + widget] = st.session_state.get(widget)
    write_link(name, text)


def widget_value(widget: str, default: object) -> object:
    """The value of a bound widget, also on a page that does not draw it (the value kept), else
    ``default``."""
    import streamlit as st

    if widget in st.session_state:
        return st.session_state[widget]
    return st.session_state.get(_KEEP + widget, default)


def report_link_problem(problem: str) -> None:
    """Say in the sidebar that a value of the link was not used (a name the dataset does not have)."""
    import streamlit as st

    from workbench.text import md_escape

    st.sidebar.warning(f"Some parts of the link were not used: {md_escape(problem)} (ignored)", icon="🔗")


def show_link_problems(link: DeepLink) -> None:
    """One sidebar caption listing what the parser refused (nothing when the link is clean)."""
    if not link.problems:
        return
    import streamlit as st

    from workbench.text import md_escape

    st.sidebar.warning(
        "Some parts of the link were not used: " + "; ".join(md_escape(p) for p in link.problems), icon="🔗"
    )
