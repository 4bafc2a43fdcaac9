"""The values of the evaluations' choices, each a ``Literal`` type declared once: every face reads
its choices from these types (:func:`typing.get_args`, docs/architecture.md, "The registry of metric
families") and code names a value by its constant, never by spelling it again.

Start-up: this module imports nothing but the standard library.
"""

from __future__ import annotations

import typing
from typing import Literal

__all__ = [
    "AVERAGES",
    "CROSS",
    "GROUPINGS",
    "LABELS",
    "LABELS_AUTO",
    "LABELS_FULL",
    "LABELS_UNIVERSAL",
    "PROTOCOLS",
    "PROTOCOL_2011",
    "PROTOCOL_2012",
    "TAG_COLUMNS",
    "Average",
    "Dialect",
    "GroupBy",
    "Labels",
    "Protocol",
    "Scenario",
    "TagColumn",
    "universal_labels",
]

Protocol = Literal["2012", "2011"]
"""The protocols of dependency → function trees (docs/tedeval.md), the default first: EACL 2012's
multi-function trees (``hd`` heads), EMNLP 2011's function trees (``*`` heads)."""
PROTOCOLS: tuple[Protocol, ...] = typing.get_args(Protocol)
PROTOCOL_2012, PROTOCOL_2011 = PROTOCOLS

Average = Literal["global", "sentence"]
"""How a TedEval score averages over the sentences (docs/tedeval.md, "Edit scripts, discount and
score"): sums then the ratio (global), or the mean of the sentences' scores."""
AVERAGES: tuple[Average, ...] = typing.get_args(Average)

TagColumn = Literal["cpos", "fpos"]
"""The CoNLL / lattice column a lexeme's tag is read from (docs/lattice.md)."""
TAG_COLUMNS: tuple[TagColumn, ...] = typing.get_args(TagColumn)

Scenario = Literal["gold", "predicted", "raw"]
"""The scenario of joint segmentation and parsing (ACL 2012; docs/lattice.md)."""

GroupBy = Literal["deprel", "upos", "length", "distance", "direction", "depth", "nonproj"]
"""The breakdowns of the attachment scores (``attach --by``; docs/attachment.md, "Breakdowns and
confusion")."""
GROUPINGS: tuple[GroupBy, ...] = typing.get_args(GroupBy)
CROSS = "+"
"""Joins the two groupings of a cross-table (``--by deprel+length``: MaltEval's complex group-by);
its groups are the two keys joined by ``|`` (docs/decisions.md)."""

Labels = Literal["auto", "universal", "full"]
"""How dependency relation labels (DEPREL) compare wherever a number compares them: LAS, label
accuracy, CLAS/MLAS/BLEX, the breakdowns and the confusion table (docs/attachment.md, "Relation
labels"), the default first.  ``auto``: by the gold's format (:data:`Dialect`), the universal part
on CoNLL-U (as the CoNLL 2018 scorer), the full label on CoNLL-X (as CoNLL-X's eval.pl);
``universal``: the part before the first ``:``; ``full``: the label as written."""
LABELS: tuple[Labels, ...] = typing.get_args(Labels)
LABELS_AUTO, LABELS_UNIVERSAL, LABELS_FULL = LABELS

Dialect = Literal["conllu", "conllx"]
"""Which of the two CoNLL formats a gold file is (``evalcore.formats.detect.conll_dialect``)."""


def universal_labels(labels: Labels, dialect: Dialect) -> bool:
    """Whether ``labels`` compares only the universal part of a DEPREL on a gold of ``dialect``."""
    return labels == LABELS_UNIVERSAL or (labels == LABELS_AUTO and dialect == "conllu")
