"""A page's own choices in its link, declared once per page (docs/app.md, "Links").

Each :class:`Bound` ties a widget (its session key) to a query key of :data:`workbench.links.LINK_KEYS`
(validated there, by the one parser): :func:`seed_link` before the widgets are drawn gives each widget
the value of a link followed (else the one it had, else its default), and says in the sidebar when a
value the parser accepted is not one the page offers (a parameter file the dataset does not have);
:func:`keep_link` after they are drawn writes the values back to the URL (defaults left out), so a copied
link reopens the same view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from workbench.links import LinkValue, SentenceRef, keep_widget, report_link_problem, seed_widget

__all__ = ["Bound", "keep_link", "link_text", "seed_link"]


@dataclass(frozen=True, slots=True)
class Bound:
    """Widget ``widget`` (session key) shown in the link as ``name``; ``offered``: the values the
    widget offers (``None``: any value of the key's kind); ``many``: a multiselect, written
    comma-separated."""

    name: str
    widget: str
    default: object
    offered: tuple[object, ...] | None = None
    many: bool = False


def link_text(value: object) -> str:
    """A widget value as written in the link (flags as yes/no, lists comma-separated)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _accept(b: Bound, value: LinkValue) -> object | None:
    if isinstance(value, SentenceRef):
        value = value.number if value.number is not None else str(value.id)
    if b.many:
        items = [v.strip() for v in str(value).split(",") if v.strip()]
        if b.offered is not None and any(v not in b.offered for v in items):
            return None
        return items or None
    if isinstance(b.default, bool) and not isinstance(value, bool):
        return None
    if b.offered is not None and value not in b.offered:
        return None
    return value


def _shown(value: LinkValue) -> str:
    text = (
        str(value.number if value.number is not None else value.id)
        if isinstance(value, SentenceRef)
        else str(value)
    )
    return text if len(text) <= 40 else text[:39] + "…"


def seed_link(bounds: Sequence[Bound]) -> tuple[str, ...]:
    """Before drawing: every bound widget takes the link's value (or keeps its own); a value the
    page does not offer is reported in the sidebar and the widget keeps its own.  Returns the
    problems reported."""
    problems: list[str] = []
    for b in bounds:
        refused = seed_widget(b.name, b.widget, b.default, lambda v, b=b: _accept(b, v))
        if refused is not None:
            offered = "" if b.offered is None else f" (one of: {', '.join(str(o) for o in b.offered)[:200]})"
            problem = f"{b.name}: '{_shown(refused)}' is not offered here{offered}"
            report_link_problem(problem)
            problems.append(problem)
    return tuple(problems)


def keep_link(bounds: Sequence[Bound]) -> None:
    """After drawing: each widget's value kept across pages and written to the URL (a default taken out)."""
    for b in bounds:
        value = st.session_state.get(b.widget, b.default)
        keep_widget(b.name, b.widget, None if value == b.default or value is None else link_text(value))
