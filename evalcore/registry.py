"""The registry of metric families (docs/architecture.md, "The registry of metric families"): every
face dispatches through it, and the notebook finds a result's writers here by the result's class name
(a family may have more than one result: ``attach`` over the same words, and aligned by characters).

Start-up: importing the registry imports the declarations only, never a metric or a writer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from evalcore.families import align_labels, atlas, attach, freval, lattice, parseval, tedeval

__all__ = ["FAMILIES", "Family", "Writers", "family_named", "family_of", "writers_of"]


@dataclass(frozen=True, slots=True)
class Writers:
    """A result class and its writers in evalcore.report."""

    result: str  # the result's class, ``module.Class``
    module: str  # its module of writers
    table: str  # the writer of its tidy table (the CSV's rows)
    json: str  # the writer of its ``--format json`` document
    per_sentence: str | None = None  # the result's field that, when filled, asks the JSON for sentences


@dataclass(frozen=True, slots=True)
class Family:
    """One metric family as every face sees it."""

    name: str  # the command (``evalcore NAME``)
    results: tuple[Writers, ...]  # its results' classes and writers (attach: the same words, aligned)
    settings: type | None = None  # its settings declaration
    batch: Callable[..., tuple[tuple[str, float], ...]] | None = None  # its batch table's numbers


FAMILIES: tuple[Family, ...] = (
    Family(
        "attach",
        (
            Writers("evalcore.metrics.attachment.AttachResult", "evalcore.report.attach",
                    "attach_result_table", "attach_json", per_sentence="per_sentence"),
            Writers("evalcore.families.attach.AlignedOutcome", "evalcore.report.aligned", "aligned_table",
                    "aligned_outcome_json", per_sentence="records"),
        ),
        settings=attach.AttachSettings, batch=attach.batch_values,
    ),
    Family(
        "parseval", (Writers("evalcore.metrics.parseval.ParsevalResult", "evalcore.report.parseval",
                             "parseval_table", "parseval_json"),),
        settings=parseval.ParsevalSettings, batch=parseval.batch_values,
    ),
    Family(
        "freval", (Writers("evalcore.metrics.freval.FrevalResult", "evalcore.report.freval", "freval_table",
                           "freval_json"),),
        settings=freval.FrevalSettings, batch=freval.batch_values,
    ),
    Family(
        "tedeval", (Writers("evalcore.experiment.ExperimentResult", "evalcore.report.tedeval", "result_table",
                            "result_json", per_sentence="details"),),
        settings=tedeval.TedevalSettings, batch=tedeval.batch_values,
    ),
    Family(
        "lattice", (Writers("evalcore.metrics.joint.JointResult", "evalcore.report.lattice", "scenario_table",
                            "result_document"),),
        settings=lattice.LatticeSettings,
    ),
    Family(
        "atlas", (Writers("evalcore.families.atlas.AtlasResult", "evalcore.report.atlas", "atlas_table",
                          "atlas_result_json", per_sentence="per_sentence"),),
        settings=atlas.AtlasSettings,
    ),
    Family(
        "align-labels", (Writers("evalcore.families.align_labels.LabelAlignments", "evalcore.report.labels",
                                 "alignments_table", "alignments_document"),),
        settings=align_labels.AlignLabelsSettings,
    ),
)  # fmt: skip
"""Every family, in the order of the command line's help."""


def family_named(name: str) -> Family:
    """The family of ``evalcore NAME``."""
    for family in FAMILIES:
        if family.name == name:
            return family
    raise KeyError(f"no metric family {name!r}")


def writers_of(result: object) -> tuple[Family, Writers] | None:
    """The family and writers of ``result`` (by its class's name, or a base class's), or ``None``."""
    names = {f"{cls.__module__}.{cls.__qualname__}" for cls in type(result).__mro__}
    return next(((f, w) for f in FAMILIES for w in f.results if w.result in names), None)


def family_of(result: object) -> Family | None:
    """The family whose result ``result`` is, or ``None``."""
    found = writers_of(result)
    return None if found is None else found[0]
