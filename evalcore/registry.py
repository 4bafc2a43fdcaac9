"""The registry of metric families (docs/architecture.md, "The registry of metric families"): every
face dispatches through it, and the notebook finds a result's writers here by the result's class name.

Start-up: importing the registry imports the declarations only, never a metric or a writer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from evalcore.families import align_labels, atlas, attach, freval, lattice, parseval, tedeval

__all__ = ["FAMILIES", "Family", "family_named", "family_of"]


@dataclass(frozen=True, slots=True)
class Family:
    """One metric family as every face sees it."""

    name: str  # the command (``evalcore NAME``)
    result: str  # its result's class, ``module.Class``
    writers: str  # its module of writers in evalcore.report
    table: str  # the writer of its tidy table (the CSV's rows)
    json: str  # the writer of its ``--format json`` document
    per_sentence: str | None = None  # the result's field that, when filled, asks the JSON for sentences
    settings: type | None = None  # its settings declaration
    batch: Callable[..., tuple[tuple[str, float], ...]] | None = None  # its batch table's numbers


FAMILIES: tuple[Family, ...] = (
    Family(
        "attach", "evalcore.metrics.attachment.AttachResult", "evalcore.report.attach",
        "attach_result_table", "attach_json", per_sentence="per_sentence", settings=attach.AttachSettings,
        batch=attach.batch_values,
    ),
    Family(
        "parseval", "evalcore.metrics.parseval.ParsevalResult", "evalcore.report.parseval",
        "parseval_table", "parseval_json", settings=parseval.ParsevalSettings, batch=parseval.batch_values,
    ),
    Family(
        "freval", "evalcore.metrics.freval.FrevalResult", "evalcore.report.freval",
        "freval_table", "freval_json", settings=freval.FrevalSettings, batch=freval.batch_values,
    ),
    Family(
        "tedeval", "evalcore.experiment.ExperimentResult", "evalcore.report.tedeval",
        "result_table", "result_json", per_sentence="details", settings=tedeval.TedevalSettings,
        batch=tedeval.batch_values,
    ),
    Family(
        "lattice", "evalcore.metrics.joint.JointResult", "evalcore.report.lattice",
        "scenario_table", "result_document", settings=lattice.LatticeSettings,
    ),
    Family(
        "atlas", "evalcore.families.atlas.AtlasResult", "evalcore.report.atlas",
        "atlas_table", "atlas_result_json", per_sentence="per_sentence", settings=atlas.AtlasSettings,
    ),
    Family(
        "align-labels", "evalcore.families.align_labels.LabelAlignments", "evalcore.report.labels",
        "alignments_table", "alignments_document", settings=align_labels.AlignLabelsSettings,
    ),
)  # fmt: skip
"""Every family, in the order of the command line's help."""


def family_named(name: str) -> Family:
    """The family of ``evalcore NAME``."""
    for family in FAMILIES:
        if family.name == name:
            return family
    raise KeyError(f"no metric family {name!r}")


def family_of(result: object) -> Family | None:
    """The family whose result ``result`` is (by its class's name, or a base class's), or ``None``."""
    names = {f"{cls.__module__}.{cls.__qualname__}" for cls in type(result).__mro__}
    return next((f for f in FAMILIES if f.result in names), None)
