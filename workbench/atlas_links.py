"""From the Atlas to the inspector: a sentence of an atlas group opened with the group's
operations highlighted (docs/atlas.md, "From a group to the inspector": what the link carries,
and the cells the inspector cannot draw).

The inspector asks :func:`highlight_flags` which operations of the script it draws are in the
group (the atlas's own grouping, :func:`evalcore.atlas.script_groups`).  No streamlit here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.atlas import CONSTRUCTIONS, GROUPINGS, LENGTH_BUCKETS, Grouping, gold_parse_name, script_groups
from evalcore.conversion import ConversionConfig
from evalcore.trees import DepTree, EditOp, Tree
from workbench.datasets import LoadedDataset
from workbench.tedeval import gold_as_parse_name, parse_against_name, parse_choices, scheme_of, tree_golds

__all__ = [
    "GroupRef",
    "InspectorTarget",
    "highlight_flags",
    "inspector_query",
    "inspector_target",
    "parse_group",
]

_NAMED: dict[str, tuple[str, ...]] = {
    "construction": tuple(name for name, _ in CONSTRUCTIONS),
    "length": tuple(name for _, _, name in LENGTH_BUCKETS),
}


@dataclass(frozen=True, slots=True)
class GroupRef:
    """``group=GROUPING:NAME``: one group of one grouping of the atlas."""

    grouping: Grouping
    name: str

    def text(self) -> str:
        return f"{self.grouping}:{self.name}"


def parse_group(text: str) -> GroupRef | str:
    """The group of a ``group=`` value, or what is wrong with it (one line).  The ``construction``
    and ``length`` groups are a closed list; ``operation`` and ``head`` groups are any text (a
    group no operation of a script falls in highlights nothing, and the inspector says so)."""
    grouping, sep, name = text.partition(":")
    if not sep or not name:
        return f"group: '{text}' is not GROUPING:NAME (e.g. construction:copula)"
    if grouping not in GROUPINGS:
        return f"group: unknown grouping '{grouping}' (one of: {', '.join(GROUPINGS)})"
    named = _NAMED.get(grouping)
    if named is not None and name not in named:
        return f"group: no {grouping} group '{name}' (one of: {', '.join(named)})"
    return GroupRef(grouping, name)


@dataclass(frozen=True, slots=True)
class InspectorTarget:
    """Where the inspector shows the script of one atlas cell: its parse (the inspector's name for
    it) and ``target`` (``general`` / ``single``); ``parse`` is empty, and ``reason`` says why,
    when the inspector cannot draw that script."""

    parse: str = ""
    target: str = ""
    reason: str = ""


def inspector_target(loaded: LoadedDataset, parse: str, scheme: str, target: str) -> InspectorTarget:
    """The inspector's view of the atlas cell (``parse`` of ``scheme`` against ``target``, a
    scheme or a generalization ``A+B``), as the workbench names its files
    (:func:`workbench.atlas_view.atlas_schemes`, :func:`workbench.tedeval.parse_choices`)."""
    golds = {scheme_of(g): g for g in tree_golds(loaded)}
    general = "+".join(golds)
    if target != general and target not in golds:
        return InspectorTarget(
            reason=f"the inspector draws scripts to a single gold or to the generalization of all the "
            f"golds ({general}), not to {target}"
        )
    choices = {c.name: c for c in parse_choices(loaded)}
    mine = golds.get(scheme)
    if parse == gold_parse_name(scheme) and mine is not None:
        others = [g for s, g in golds.items() if s != scheme]
        if target == scheme or not others:
            return InspectorTarget(reason=f"{parse} against its own gold has no operation")
        against = golds[target] if target in golds else others[0]
        name = gold_as_parse_name(mine, against)
        if name in choices:
            return InspectorTarget(name, "general" if target == general else "single")
        return InspectorTarget(reason=f"the inspector has no parse {name}")
    choice = choices.get(parse)
    if choice is None or choice.gold_as_parse:
        return InspectorTarget(reason=f"the inspector has no parse {parse}")
    if target == general and scheme_of(choice.own) == scheme:
        return InspectorTarget(parse, "general")
    if target == scheme_of(choice.single):
        return InspectorTarget(parse, "single")
    name = parse_against_name(choice.analysis, golds[target]) if target in golds else ""
    if name in choices:
        return InspectorTarget(name, "single")
    return InspectorTarget(reason=f"the inspector has no script of {parse} to {target}")


def inspector_query(
    loaded: LoadedDataset,
    sent_id: str,
    where: InspectorTarget,
    *,
    labeled: bool,
    protocol: str,
    group: GroupRef,
) -> dict[str, str]:
    """The inspector's query string for one sentence of an atlas group (only ``data`` and ``sent``
    when the inspector cannot draw the cell's script)."""
    query = {"data": loaded.spec.key, "sent": sent_id}
    if not where.parse:
        return query
    return query | {
        "parse": where.parse,
        "target": where.target,
        "labeled": "yes" if labeled else "no",
        "protocol": protocol,
        "group": group.text(),
    }


def highlight_flags(
    group: GroupRef,
    script: Sequence[EditOp],
    parse: DepTree | Tree | None,
    target: DepTree | Tree | None,
    conversion: ConversionConfig,
) -> tuple[bool, ...]:
    """For each operation of ``script`` (an edit script of ``parse``; insertions are looked up in
    ``target``, the gold it is turned into -- for a generalization the parse's own gold), whether
    the atlas puts it in ``group``."""
    return tuple(g == group.name for g in script_groups(script, group.grouping, parse, target, conversion))
