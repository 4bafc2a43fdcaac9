"""Settings in the page and in its link, one way (docs/app.md, "Links").

:func:`bind` ties one widget (its session key) to one key of the link (validated by
:mod:`workbench.links`): before the widget is drawn it takes the value of a link followed (else the
one it had, kept across pages, else its default), a value the page does not offer is said in the
sidebar; after, its value is written back to the URL (a default left out), so a copied link
reopens the same view.

:func:`settings_form` draws a family's declared settings (:mod:`evalcore.declare`): each widget is
made from its declaration (a toggle for a flag, a radio for a ``Literal``'s choices, a number or a
text box; the declared help; the field's ``link=`` key) and the frozen settings value is returned,
which is the cache key of what the page computes from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import streamlit as st

from evalcore.declare import Declared, declared
from workbench.links import LINK_KEYS, LinkValue, SentenceRef, keep_widget, report_link_problem, seed_widget

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["Field", "bind", "choice_names", "link_text", "settings_form"]

S = TypeVar("S", bound="DataclassInstance")
T = TypeVar("T")


def choice_names(cls: type, name: str, *shown: str) -> dict[str, str]:
    """How a page shows each choice of the declared setting ``name`` of ``cls``, given in the order of
    its ``Literal`` (:func:`evalcore.declare.declared`): a choice declared and not named here (or the
    reverse) is a ``ValueError`` when the page is loaded."""
    (d,) = (d for d in declared(cls) if d.name == name)
    return dict(zip(d.choices, shown, strict=True))


def link_text(value: object) -> str:
    """A widget's value as the link writes it (flags yes/no, lists comma-separated)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _accept(value: LinkValue, default: object, offered: Sequence[object] | None, many: bool) -> object | None:
    """The widget's value for a link's (validated) value, or ``None`` when the page cannot take it."""
    if isinstance(value, SentenceRef):
        value = value.number if value.number is not None else str(value.id)
    if many:
        items = [v.strip() for v in str(value).split(",") if v.strip()]
        return items if items and (offered is None or all(v in offered for v in items)) else None
    if isinstance(default, bool) != isinstance(value, bool):
        return None
    return value if offered is None or value in offered else None


def _refused(name: str, value: LinkValue, offered: Sequence[object] | None) -> str:
    if isinstance(value, SentenceRef):
        value = value.number if value.number is not None else str(value.id)
    text, named = link_text(value), [link_text(o) for o in offered or () if o != ""]
    more = f", … ({len(named):,} in all)" if len(named) > 12 else ""
    listed = f" (one of: {', '.join(named[:12])}{more})" if named else ""
    return f"{name}: '{text if len(text) <= 40 else text[:39] + '…'}' is not offered here{listed}"


def bind(
    name: str | None,
    widget: str,
    default: T,
    draw: Callable[..., object],
    *args: object,
    offered: Sequence[object] | None = None,
    many: bool = False,
    **kwargs: object,
) -> T:
    """Draw the widget of session key ``widget`` (``draw(*args, key=widget, **kwargs)``, e.g.
    ``st.toggle``) bound to the link key ``name`` (``None``: not in the link, only kept across
    pages); ``offered``: the values the widget offers (``None``: any value of the key's kind);
    ``many``: a multiselect, written comma-separated.  Returns its value."""
    if name is None:
        st.session_state.setdefault(widget, default)
    else:
        fallback: object = default
        refused = seed_widget(name, widget, fallback, lambda v: _accept(v, fallback, offered, many))
        if refused is not None:
            report_link_problem(_refused(name, refused, offered))
    current = st.session_state.get(widget)
    if offered is not None and many and isinstance(current, list):
        st.session_state[widget] = [v for v in current if v in offered]  # an option gone (another dataset)
    elif offered is not None and not many and current not in offered:
        st.session_state[widget] = default
    draw(*args, key=widget, **kwargs)
    value: T = st.session_state.get(widget, default)
    if name is not None:
        keep_widget(name, widget, None if value == default or value is None else link_text(value))
    return value


@dataclass(frozen=True)
class Field:
    """How the page shows one declared setting: its label (the flag is added), where it is drawn,
    and, for a text setting, the values the page offers (a select box)."""

    label: str
    where: Any = None  # a column, an expander, the sidebar (None: the form's)
    widget: str | None = None  # its session key (None: the form's prefix and the field's name)
    offered: Sequence[str] | None = None
    names: Mapping[str, str] | None = None  # how a choice is shown
    placeholder: str | None = None  # a number left empty (its default None)


def _widget(
    d: Declared, f: Field, holder: Any
) -> tuple[Any, tuple[object, ...], dict[str, Any], list[str] | None]:
    """The widget of a declared setting: its function, arguments and keywords, and the values it offers."""
    label = f"{f.label} ({d.option.flag})" if d.option.flag else f.label
    kwargs: dict[str, Any] = {"help": d.option.help}
    if d.kind == "flag":
        return holder.toggle, (label,), kwargs, None
    if d.kind == "choice" or f.offered is not None:
        options, names = list(f.offered if f.offered is not None else d.choices), f.names or {}
        kwargs["format_func"] = lambda o: names.get(o, o)
        if f.offered is not None:
            return holder.selectbox, (label, options), kwargs, options
        return holder.radio, (label, options), {**kwargs, "horizontal": True}, options
    if d.kind in ("int", "float"):
        key = LINK_KEYS.get(d.option.link or "")
        low, top = (key.minimum, key.maximum) if key is not None else (d.option.minimum or 0, None)
        return (
            holder.number_input,
            (label,),
            {**kwargs, "min_value": low, "max_value": top, "placeholder": f.placeholder},
            None,
        )
    return holder.text_input, (label,), kwargs, None


def settings_form(base: S, fields: Mapping[str, str | Field], *, prefix: str, where: Any = None) -> S:
    """The settings of ``base``'s declaration named in ``fields`` (field name: its label or
    :class:`Field`) drawn as widgets bound to their link keys, in that order (``base`` gives the
    defaults: a page's own, such as a dataset's separators, are left out of the link); the others
    stay as in ``base``.  Returns the frozen settings value."""
    by_name = {d.name: d for d in declared(type(base))}
    values: dict[str, object] = {}
    for name, shown in fields.items():
        d = by_name[name]
        f = Field(shown) if isinstance(shown, str) else shown
        widget = f.widget or f"{prefix}_{name}"
        draw, args, kwargs, offered = _widget(d, f, f.where or where or st)
        value = bind(d.option.link, widget, getattr(base, name), draw, *args, offered=offered, **kwargs)
        values[name] = int(value) if d.kind == "int" and value is not None else value
    return dataclasses.replace(base, **values)
