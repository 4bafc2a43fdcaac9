"""The joint segmentation and parsing family (ACL 2012; docs/lattice.md, "What is compared");
docs/architecture.md, "The registry of metric families" (batch does not take it).

Start-up: the metric is imported when :func:`run` runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from evalcore.choices import (
    AVERAGES,
    PROTOCOL_2012,
    Average,
    Dialect,
    Labels,
    Protocol,
    Scenario,
    TagColumn,
    universal_labels,
)
from evalcore.declare import setting
from evalcore.families.common import Resampling, relation_labels
from evalcore.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from evalcore.formats._io import InputSource
    from evalcore.lattice.reading import FileInput
    from evalcore.metrics.joint import JointConfig, JointResult, SentenceJoint

__all__ = ["LatticeInputs", "LatticeSettings", "file_input", "gold_dialect", "joint_config", "run"]

Detected = Literal["auto", Scenario]
"""The scenario to score: detected from the data (``auto``), or one of :data:`Scenario`."""


@dataclass(frozen=True)
class LatticeSettings(Resampling):
    """``evalcore lattice``'s settings: how inputs become lexemes and trees, the scenario, the
    averaging and the bootstrap intervals (no paired test: ``shuffles`` is not a setting here)."""

    tag_column: TagColumn = setting("cpos", "lattice/CoNLL tag column", flag="--tag-column", link="tag")
    protocol: Protocol = setting(
        PROTOCOL_2012,
        "dependency → function tree: 2012 (hd heads, default) or 2011 (* heads)",
        flag="--protocol",
        link="protocol",
    )
    scenario: Detected = setting(
        "auto", "the scenario to print (default: detected from the data)", flag="--scenario"
    )
    labels: Labels = relation_labels()
    average: Average = setting(AVERAGES[0], "", flag="--average")
    per_sentence: bool = setting(
        False,
        "also list every sentence (text), or add them as per_sentence (JSON); keeps them in memory",
        flag="--per-sentence",
    )
    shuffles: int = 10_000  # not declared: the family has no paired test
    seed: int = setting(12345, "random seed of --bootstrap", flag="--seed")


@dataclass(frozen=True, slots=True)
class LatticeInputs:
    """One prediction and its gold (a path, bytes or in-memory text, with the names used in
    messages), their lattice files, and the ambiguity lattices of the gold sentences."""

    gold: InputSource
    pred: InputSource
    name: str = "pred"  # the prediction's name in the table
    gold_name: str | None = None
    pred_name: str | None = None
    gold_lattice: FileInput | None = None
    pred_lattice: FileInput | None = None
    ambiguity: InputSource | None = None
    ambiguity_name: str | None = None


def file_input(source: InputSource, name: str | None) -> FileInput:
    """A lattice reader's input: a path, or in-memory text with its name in messages."""
    from evalcore.lattice.reading import InMemoryFile

    if isinstance(source, str | os.PathLike):
        return os.fspath(source)
    return InMemoryFile(name or "<input>", source)


def gold_dialect(gold: FileInput, limits: Limits = DEFAULT_LIMITS) -> Dialect:
    """The CoNLL of a CoNLL gold (:func:`evalcore.formats.detect.conll_dialect`), which decides
    ``labels="auto"``; a gold of another kind (a lattice, brackets) has no relation labels:
    ``"conllx"``, labels as written."""
    from evalcore.formats.detect import conll_dialect
    from evalcore.lattice.reading import InMemoryFile, input_kind

    if input_kind(gold, limits) != "conll":
        return "conllx"
    if isinstance(gold, InMemoryFile):
        return conll_dialect(gold.data, gold.name, limits)
    return conll_dialect(gold, None, limits)


def joint_config(settings: LatticeSettings, dialect: Dialect, limits: Limits = DEFAULT_LIMITS) -> JointConfig:
    """The joint metric's configuration on a gold of ``dialect`` (which decides ``labels="auto"``,
    :func:`evalcore.formats.detect.conll_dialect`): how inputs are read and trees compared."""
    from evalcore.metrics.joint import JointConfig

    base = universal_labels(settings.labels, dialect)
    return JointConfig(settings.tag_column, settings.protocol, settings.average, base, limits)


def run(
    inputs: LatticeInputs,
    settings: LatticeSettings,
    limits: Limits = DEFAULT_LIMITS,
    *,
    on_sentence: Callable[[SentenceJoint], None] | None = None,
    names: tuple[str, str, str] = ("ambiguity_lattice", "gold_lattice", "pred_lattice"),
) -> JointResult:
    """The joint evaluation of ``inputs.pred`` against ``inputs.gold``, streaming (docs/lattice.md;
    ``ValueError`` for a bootstrap out of range, before any file is read).  ``on_sentence`` sees every
    sentence's record; ``names``: how messages name the ambiguity, gold and predicted lattices."""
    from evalcore.errors import InputFormatError
    from evalcore.formats.lattice import read_lattices
    from evalcore.lattice.reading import PairStream
    from evalcore.metrics.joint import evaluate_stream, with_aligned_attachment
    from evalcore.resampling import intervals, lattice_row, lattice_table

    boot = settings.bootstrap_settings()
    config = joint_config(settings, gold_dialect(file_input(inputs.gold, inputs.gold_name), limits), limits)
    average = settings.average == "sentence"
    rows: list[tuple[tuple[float, float], ...]] = []  # each sentence's (x, n) pairs, for resampling

    def seen(s: SentenceJoint) -> None:
        if boot is not None:
            rows.append(lattice_row(s, average))
        if on_sentence is not None:
            on_sentence(s)

    ambiguity = None
    if inputs.ambiguity is not None:
        ambiguity = read_lattices(inputs.ambiguity, name=inputs.ambiguity_name, limits=limits)
    stream = PairStream(
        file_input(inputs.gold, inputs.gold_name),
        file_input(inputs.pred, inputs.pred_name),
        gold_lattice=inputs.gold_lattice,
        pred_lattice=inputs.pred_lattice,
        options=config.read_options,
        ambiguity=ambiguity,
    )
    if ambiguity is not None and stream.mode != "index":
        a, g, p = names
        raise InputFormatError(
            f"{a} needs token ids on both sides, and two CoNLL files without lattice files are aligned "
            f"by characters instead: give {g} and {p}",
            file=inputs.ambiguity if isinstance(inputs.ambiguity, str) else None,
        )
    scenario = None if settings.scenario == "auto" else settings.scenario
    result = evaluate_stream(
        stream,
        config,
        name=inputs.name,
        scenario=scenario,
        keep_sentences=settings.per_sentence,
        on_sentence=seen,
    )
    result = with_aligned_attachment(
        result,
        stream.mode,
        inputs.gold,
        inputs.pred,
        deprel_base=config.deprel_base,
        gold_name=inputs.gold_name,
        pred_name=inputs.pred_name,
        limits=limits,
    )
    if boot is None:
        return result
    ivs = intervals(lattice_table(rows, average), boot)
    bootstrap = (boot.samples, boot.level, boot.seed)
    return replace(result, intervals=tuple(zip(ivs.names, ivs.values, strict=True)), bootstrap=bootstrap)
