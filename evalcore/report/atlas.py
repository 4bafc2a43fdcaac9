"""Writers for the discrepancy atlas and the ranking flips: text tables, JSON, CSV, CoNLL-U MISC.

Pure functions from :class:`evalcore.atlas.Atlas` / :class:`evalcore.ranking.Ranking` to
strings or JSON-ready values; the command (:mod:`evalcore.commands.atlas`) only prints them.
See docs/atlas.md for the columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from evalcore.atlas import (
    GROUPINGS,
    Atlas,
    ClassifiedOp,
    Grouping,
    length_bucket,
    operation_group,
    word_verdicts,
)
from evalcore.choices import LABELS_FULL
from evalcore.display import Table, rows_of
from evalcore.families.attach import AttachSettings, attach_config
from evalcore.formats.conllu import write_conllu
from evalcore.metrics.attachment import judge_tokens
from evalcore.ranking import OWN_GOLD, Flip, Ranking
from evalcore.report.tables import Cell, csv_text, pick, text_table
from evalcore.trees import DepTree, Token

if TYPE_CHECKING:
    from evalcore.families.atlas import AtlasResult

__all__ = [
    "FLIP_HEADERS",
    "GROUP_HEADERS",
    "OP_HEADERS",
    "atlas_json",
    "atlas_result_json",
    "atlas_table",
    "atlas_text",
    "flip_rows",
    "group_rows",
    "misc_tree",
    "op_rows",
    "ranking_json",
    "ranking_text",
    "split_misc",
]

GROUP_HEADERS = (
    "parse",
    "scheme",
    "target",
    "labeled",
    "grouping",
    "group",
    "counted",
    "discounted",
    "share",
    "n_sentences",
    "sentences",
)

OP_HEADERS = (
    "parse",
    "target",
    "labeled",
    "sent_id",
    "index",
    "operation",
    "kind",
    "label",
    "new_label",
    "span",
    "status",
    "side",
    "head_word",
    "upos",
    "deprel",
    "op_group",
    "head_group",
    "construction",
    "length",
)


def group_rows(atlas: Atlas, groupings: Sequence[Grouping] = GROUPINGS) -> list[list[Cell]]:
    """One row per (parse, target, labeled, grouping, group); sentence ids space-separated."""
    rows: list[list[Cell]] = []
    for c in atlas.cells:
        for g in c.groups:
            if g.grouping in groupings:
                rows.append(
                    [
                        c.parse,
                        c.scheme,
                        c.target,
                        "yes" if c.labeled else "no",
                        g.grouping,
                        g.group,
                        g.counted,
                        g.discounted,
                        round(g.share, 6),
                        len(g.sentences),
                        " ".join(g.sentences),
                    ]
                )
    return rows


def op_rows(ops: Iterable[ClassifiedOp]) -> list[list[Cell]]:
    """One row per operation, with its group in each grouping (``--per-sentence``)."""
    return [
        [
            o.parse,
            o.target,
            "yes" if o.labeled else "no",
            o.sent_id,
            o.index,
            str(o.op),
            o.op.kind,
            o.op.label,
            o.op.new_label,
            " ".join(str(i + 1) for i in sorted(o.op.span)),
            "discounted" if o.discounted else "counted",
            o.side,
            o.where.word,
            o.where.upos,
            o.where.deprel,
            operation_group(o.op),
            o.where.head_group,
            o.where.construction,
            length_bucket(len(o.op.span)),
        ]
        for o in ops
    ]


_CELL_KEYS = ("parse", "scheme", "target", "labeled")


def atlas_json(
    atlas: Atlas, ranking: Ranking | None = None, *, per_sentence: bool = False
) -> dict[str, object]:
    out: dict[str, object] = pick(
        atlas, "signature", "sentences", "skipped_mismatched", "skipped_invalid"
    ) | {
        "cells": [pick(c, *_CELL_KEYS, "delta", "norm", "score") for c in atlas.cells],
        "groups": [
            pick(c, *_CELL_KEYS)
            | pick(g, "grouping", "group", "counted", "discounted", "share")
            | {"n_sentences": len(g.sentences), "sentences": list(g.sentences)}
            for c in atlas.cells
            for g in c.groups
        ],
    }
    if ranking is not None:
        out["ranking"] = ranking_json(ranking)
    if per_sentence:
        ops = [dict(zip(OP_HEADERS, r, strict=True)) for r in op_rows(atlas.ops)]
        for o in ops:
            o["labeled"] = o["labeled"] == "yes"
        out["operations"] = ops
    return out


def atlas_result_json(result: AtlasResult, *, per_sentence: bool = False) -> dict[str, object]:
    """``evalcore atlas --format json``'s document of a result (:func:`atlas_json`), with the rates
    and scores per construction under ``constructions`` when pattern files were given."""
    out = atlas_json(result.atlas, result.ranking, per_sentence=per_sentence)
    if result.constructions is not None:
        from evalcore.report.constructions import constructions_json

        out["constructions"] = constructions_json(result.constructions)
    return out


def atlas_table(result: AtlasResult) -> Table:
    """One row per group of every (parse, target, scripts), as the command's CSV."""
    return Table(GROUP_HEADERS, rows_of(group_rows(result.atlas)), result.signature)


def atlas_text(atlas: Atlas, *, top: int = 5, groupings: Sequence[Grouping] = ("construction",)) -> str:
    """Per grouping, a table of the ``top`` groups of every (parse, target, scripts)."""
    out: list[str] = []
    for grouping in groupings:
        headers = ["parse", "target", "scripts", "δ", "score", "group", "counted", "discounted", "share"]
        rows: list[list[Cell]] = []
        for c in atlas.cells:
            if c.parse.startswith("gold:") and c.target == c.scheme:
                continue  # a gold against itself: no operations
            for k, g in enumerate(c.top(grouping, top)):
                first = k == 0
                rows.append(
                    [
                        c.parse if first else "",
                        c.target if first else "",
                        ("labeled" if c.labeled else "unlabeled") if first else "",
                        c.delta if first else "",
                        f"{c.score:.4f}" if first else "",
                        g.group,
                        g.counted,
                        g.discounted,
                        f"{100 * g.share:.1f}%",
                    ]
                )
        out.append(f"== top {top} groups by {grouping} (share = counted / δ) ==\n")
        out.append(text_table(headers, rows))
        out.append("\n")
    out.append(
        f"{atlas.sentences} sentences; skipped {atlas.skipped_mismatched} (words differ), "
        f"{atlas.skipped_invalid} (not a tree)\nsignature: {atlas.signature}\n"
    )
    return "".join(out)


# ---------------------------------------------------------------------------
# ranking


FLIP_HEADERS = ("pair", "significant flip", "row", "order", "gap (points)", "p", "")
"""The columns of a flips table (:func:`flip_rows`)."""


def flip_rows(flips: Iterable[Flip]) -> list[list[Cell]]:
    """One row per row of a flip where one parse is ahead: the pair, whether both orders are
    significant somewhere, the row, the order there, the gap in points, its p-value."""
    rows: list[list[Cell]] = []
    for f in flips:
        for v in (*f.a_ahead, *f.b_ahead):
            leader, other = (f.a, f.b) if v.ahead == f.a else (f.b, f.a)
            rows.append(
                [
                    f"{f.a} / {f.b}",
                    "yes" if f.significant else "no",
                    f"{v.metric} vs {v.against}",
                    f"{leader} > {other}",
                    f"{100 * abs(v.difference):+.2f}",
                    f"{v.p_value:.4f}",
                    "" if v.significant else "n.s.",
                ]
            )
    return rows


def ranking_text(ranking: Ranking) -> str:
    """The ranks per row, then every flip of a pair with the p-value of each order."""
    headers = ["metric", "against", *(p for p, _ in ranking.parses), "order"]
    rows: list[list[Cell]] = []
    for row in ranking.rows:
        cells: list[Cell] = [row.metric, row.against]
        for p, _ in ranking.parses:
            c = row.cell(p)
            cells.append(f"{c.score:.4f} ({c.rank})" if c is not None else "")
        cells.append(" > ".join(row.order()))
        rows.append(cells)
    out = ["== ranking (score, rank) per metric; 'own gold' = each parse against its own scheme's gold ==\n"]
    out.append(text_table(headers, rows))
    out.append("\n== flips: pairs ordered one way by some rows and the other way by others ==\n")
    frows = flip_rows(ranking.flips)
    out.append(text_table(list(FLIP_HEADERS), frows) if frows else "no flips\n")
    out.append(f"\nsignature: {ranking.signature}\n")
    return "".join(out)


def ranking_json(ranking: Ranking) -> dict[str, object]:
    return {
        "signature": ranking.signature,
        "sentences": ranking.sentences,
        "own_gold": OWN_GOLD,
        "rows": [
            pick(r, "metric", "against")
            | {
                "scores": {c.parse: c.score for c in r.cells},
                "ranks": {c.parse: c.rank for c in r.cells},
            }
            for r in ranking.rows
        ],
        "tests": [
            pick(t, "a", "b", "metric", "against", "difference", "p_value", "significant")
            for t in ranking.tests
        ],
        "flips": [
            pick(f, "a", "b", "significant")
            | {
                "a_ahead": [f"{v.metric} vs {v.against}" for v in f.a_ahead],
                "b_ahead": [f"{v.metric} vs {v.against}" for v in f.b_ahead],
            }
            for f in ranking.flips
        ],
    }


def group_csv(atlas: Atlas) -> str:
    return csv_text(GROUP_HEADERS, group_rows(atlas))


def op_csv(ops: Iterable[ClassifiedOp]) -> str:
    return csv_text(OP_HEADERS, op_rows(ops))


# ---------------------------------------------------------------------------
# CoNLL-U with verdicts in MISC


MISC_KEYS = ("TedEval", "NED")


def split_misc(misc: str) -> dict[str, str]:
    """``A=1|B=2`` → ``{"A": "1", "B": "2"}`` (an attribute without ``=`` maps to ``""``)."""
    if misc in ("", "_"):
        return {}
    out = {}
    for part in misc.split("|"):
        key, _, value = part.partition("=")
        out[key] = value
    return out


def _ned_verdicts(gold: DepTree, parse: DepTree) -> tuple[str, ...]:
    out = []
    for j in judge_tokens(gold, parse, attach_config(AttachSettings(labels=LABELS_FULL), "conllx")):
        out.append("correct" if j.uas else "neutral" if j.ned else "wrong")
    return tuple(out)


def misc_tree(
    tree: DepTree,
    ops: Iterable[ClassifiedOp],
    *,
    ned_gold: DepTree | None = None,
    ned_parse: DepTree | None = None,
    constructions: Sequence[str] | None = None,
) -> DepTree:
    """``tree`` with each word's verdicts added to MISC: ``TedEval=counted:del:cop,discounted:ins:hd``
    (the operations whose span the word heads, :func:`evalcore.atlas.word_verdicts`) and, with
    ``ned_gold`` and ``ned_parse``, ``NED=correct|neutral|wrong`` for the parse's word (docs/attachment.md,
    "The five numbers"); with ``constructions`` (each word's, docs/patterns.md, "Pattern files and
    constructions"), ``Construction=NAME`` on each word whose construction is not ``other``.
    Earlier ``TedEval``/``NED`` attributes (and ``Construction`` with ``constructions``) are
    replaced; other attributes are kept."""
    verdicts = word_verdicts(ops, len(tree.tokens))
    ned = _ned_verdicts(ned_gold, ned_parse) if ned_gold is not None and ned_parse is not None else None
    keys = MISC_KEYS if constructions is None else (*MISC_KEYS, "Construction")
    tokens: list[Token] = []
    for k, t in enumerate(tree.tokens):
        attrs = [
            p
            for p in (t.misc.split("|") if t.misc not in ("", "_") else [])
            if p.partition("=")[0] not in keys
        ]
        if constructions is not None and constructions[k] != "other":
            attrs.append(f"Construction={constructions[k]}")
        if verdicts[k]:
            # a MISC value: no ``|`` (the attribute separator) and no white space
            value = "".join("_" if ch.isspace() else "/" if ch == "|" else ch for ch in ",".join(verdicts[k]))
            attrs.append("TedEval=" + value)
        if ned is not None:
            attrs.append(f"NED={ned[k]}")
        tokens.append(replace(t, misc="|".join(attrs) or "_"))
    return replace(tree, tokens=tuple(tokens))


def misc_conllu(trees: Iterable[DepTree]) -> str:
    return write_conllu(trees)
