"""Per-scheme label maps in the app (docs/tedeval.md, "Per-scheme label maps"; docs/labels.md): the shipped
maps, the page's choice ``SCHEME:MAP`` (in the link as ``labelmaps=ud1:ud1-ud2.en_ewt,...``), and which labels
a choice merges on the loaded data.  No streamlit here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from evalcore.conversion import LabelMap, SchemeLabelMaps, read_label_map, to_span_tree
from evalcore.experiment import Scheme
from evalcore.families.tedeval import TedevalSettings, conversion_config
from workbench.datasets import ASSETS
from workbench.uploads import Upload

__all__ = [
    "SHIPPED",
    "MergedLabel",
    "choice_text",
    "merged_labels",
    "parse_choice",
    "scheme_maps",
    "shipped_maps",
    "upload_map_name",
]

DEFAULT = TedevalSettings()

SHIPPED = ASSETS / "labelmaps"
"""The maps shipped with evalcore (``assets/labelmaps/*.map``)."""

LABELMAP_SLOT = "xs_labelmap"
"""The upload slot of label maps (the cross-scheme page's sidebar; the inspector reads it too)."""


@cache
def shipped_maps() -> tuple[tuple[str, LabelMap], ...]:
    """The shipped maps by name (the file name without ``.map``), read once."""
    return tuple((path.stem, read_label_map(path)) for path in sorted(SHIPPED.glob("*.map")))


def maps_with(uploads: Iterable[Upload]) -> dict[str, LabelMap]:
    """The shipped maps and the uploaded ones (each already checked by :func:`read_label_map`
    when it was accepted), by name."""
    maps = dict(shipped_maps())
    for up in uploads:
        maps[upload_map_name(up.name)] = read_label_map(up.data, name=up.name)
    return maps


def choice_text(scheme: str, name: str) -> str:
    """One choice as the page's multiselect and link write it: ``SCHEME:MAP``."""
    return f"{scheme}:{name}"


def parse_choice(text: str) -> tuple[str, str]:
    """``SCHEME:MAP`` → (scheme, map name); a map name never has a ``:`` (a scheme name may)."""
    scheme, _, name = text.rpartition(":")
    return scheme, name


def upload_map_name(file_name: str) -> str:
    """An uploaded map's name in the choices and the link (no ',' or ':', which separate them)."""
    stem = file_name.removesuffix(".map").removesuffix(".txt")
    return "upload-" + "".join("_" if ch in ",:" else ch for ch in stem)


def scheme_maps(choices: Iterable[str], maps: Mapping[str, LabelMap]) -> SchemeLabelMaps:
    """The per-scheme maps of the choices (several maps of one scheme apply in the order chosen, as
    with ``--labels-map`` on the command line); a choice naming no map in ``maps`` is left out."""
    own: dict[str, LabelMap] = {}
    for text in choices:
        scheme, name = parse_choice(text)
        if name in maps:
            own[scheme] = own.get(scheme, LabelMap()).then(maps[name])
    return SchemeLabelMaps.of(own)


@dataclass(frozen=True, slots=True)
class MergedLabel:
    """A map entry that rewrote labels of a scheme's trees: how many label occurrences it rewrote
    (in the scheme's gold and parses, every node including the root)."""

    scheme: str
    old: str
    new: str
    occurrences: int


def merged_labels(
    schemes: Sequence[Scheme], maps: SchemeLabelMaps, settings: TedevalSettings = DEFAULT
) -> tuple[MergedLabel, ...]:
    """Each entry of each scheme's map with the label occurrences it rewrites (before any map,
    with ``settings``' protocol and label reading), most first; entries whose label does not occur
    are left out."""
    raw = conversion_config(settings, label_maps=(LabelMap(), SchemeLabelMaps()))
    out: list[MergedLabel] = []
    for s in schemes:
        mapping = maps.get(s.name)
        if not mapping.pairs:
            continue
        counts: Counter[str] = Counter()
        for tree in (t for f in (s.gold, *s.parses) for t in f.trees):
            st = to_span_tree(tree, raw)
            for _, labels in st.items:
                counts.update(labels)
            counts.update(st.root_labels)
        seen: set[str] = set()
        for old, new in mapping.pairs:
            if old in seen or old == new:
                continue
            seen.add(old)
            if counts[old]:
                out.append(MergedLabel(s.name, old, new, counts[old]))
    return tuple(sorted(out, key=lambda m: (-m.occurrences, m.scheme, m.old)))
