"""Writers for rates and scores per construction (docs/patterns.md, "Constructions as units of evaluation").

Pure functions from :class:`evalcore.construction_scores.ConstructionReport` to text tables and
JSON-ready values; ``evalcore atlas --pattern`` prints them after the atlas.
"""

from __future__ import annotations

from evalcore.construction_scores import ConstructionReport, ScoreCell
from evalcore.report.atlas import FLIP_HEADERS, flip_rows
from evalcore.report.tables import Cell, pick, text_table

__all__ = ["constructions_json", "constructions_text", "order_text", "score_text"]


def score_text(cell: ScoreCell | None) -> str:
    """``81.23 [80.38, 82.11] (1)``: percent, the interval when there is one, the rank; ``n/a`` over
    nothing (no token, no node)."""
    if cell is None:
        return ""
    if not cell.n:
        return "n/a"
    iv = cell.interval
    band = f" [{100 * iv.low:.2f}, {100 * iv.high:.2f}]" if iv is not None else ""
    return f"{100 * cell.value:.2f}{band} ({cell.rank})"


def order_text(ranks: list[tuple[str, int]]) -> str:
    """``a > b = c``: the parses from best to worst, equal ranks joined by ``=``."""
    out = ""
    last = None
    for parse, rank in sorted(ranks, key=lambda t: (t[1], t[0])):
        out += ("" if last is None else (" = " if rank == last else " > ")) + parse
        last = rank
    return out


def constructions_text(report: ConstructionReport) -> str:
    """The rates, then every construction's scores per row, then the flips per construction."""
    out: list[str] = []
    schemes = list(dict.fromkeys(s for _, s in report.parses))
    rate_rows: list[list[Cell]] = []
    for r in report.rates:
        rate_rows.append(
            [
                r.construction,
                f"{r.a} / {r.b}",
                r.words_a,
                r.words_b,
                r.words,
                r.agree,
                f"{100 * r.share:.1f}%" if r.words else "n/a",
            ]
        )
    out.append(
        "== rates per construction: the words it covers in either gold, and those on which the golds "
        "agree (the same head in both) ==\n"
    )
    out.append(
        text_table(["construction", "golds", "words a", "words b", "words", "agree", "agree %"], rate_rows)
    )
    names = [p for p, _ in report.parses]
    out.append(
        "\n== scores per construction, percent [bootstrap interval] (rank); UAS/LAS on the gold words "
        "it covers, U-TED/L-TED on the operations and nodes it owns; 'own gold' = each parse against "
        f"its own scheme's gold ({', '.join(schemes)}) ==\n"
    )
    rows: list[list[Cell]] = []
    for s in report.scores:
        first = True
        for row, (against, metric, cells) in zip(s.rows, s.cells, strict=True):
            if not any(c.n for c in cells):
                continue  # the construction covers nothing here (no token, no node)
            by = {c.parse: c for c in cells}
            order = order_text([(c.parse, c.rank) for c in row.cells])
            rows.append(
                [
                    s.construction if first else "",
                    metric,
                    against,
                    *(score_text(by.get(p)) for p in names),
                    order,
                ]
            )
            first = False
    out.append(text_table(["construction", "metric", "against", *names, "order"], rows))
    frows: list[list[Cell]] = [[s.construction, *row] for s in report.scores for row in flip_rows(s.flips)]
    out.append(
        "\n== flips per construction: pairs of parses that 'own gold' and the generalizations order "
        "differently on the construction ==\n"
    )
    out.append(text_table(["construction", *FLIP_HEADERS], frows) if frows else "no flips\n")
    out.append(f"\n{report.sentences} sentences\nsignature: {report.signature}\n")
    return "".join(out)


def constructions_json(report: ConstructionReport) -> dict[str, object]:
    def cell(c: ScoreCell) -> dict[str, object]:
        got = pick(c, "parse", "scheme", "value", "x", "n", "rank")
        if c.interval is not None:
            got |= {"low": c.interval.low, "high": c.interval.high}
        return got

    return {
        "signature": report.signature,
        "sentences": report.sentences,
        "constructions": list(report.units),
        "rates": [
            pick(r, "construction", "a", "b", "words_a", "words_b", "words", "agree", "share")
            for r in report.rates
        ],
        "scores": [
            {"construction": s.construction, "against": a, "metric": m, "cells": [cell(c) for c in cells]}
            for s in report.scores
            for a, m, cells in s.cells
        ],
        "tests": [
            {"construction": s.construction}
            | pick(t, "a", "b", "metric", "against", "difference", "p_value", "significant")
            for s in report.scores
            for t in s.tests
        ],
        "flips": [
            {"construction": s.construction}
            | pick(f, "a", "b", "significant")
            | {
                "a_ahead": [f"{v.metric} vs {v.against}" for v in f.a_ahead],
                "b_ahead": [f"{v.metric} vs {v.against}" for v in f.b_ahead],
            }
            for s in report.scores
            for f in s.flips
        ],
    }
