"""Writers of the joint segmentation + parsing evaluation (``evalcore lattice``; docs/lattice.md, "What is
compared"): the scenario table of ACL 2012 (Tables 1–2) as text and CSV, the JSON document, every sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from evalcore.display import Table, rows_of
from evalcore.metrics.joint import JointResult, SentenceJoint
from evalcore.metrics.segeval import score as seg_score
from evalcore.report.resampling import bootstrap_json, interval_text, level_header
from evalcore.report.tables import Cell, csv_text, text_table
from evalcore.resampling import BootstrapSettings, Intervals

__all__ = [
    "HEADERS",
    "add_intervals_json",
    "intervals_of",
    "intervals_text",
    "result_document",
    "result_json",
    "results_csv",
    "results_csv_intervals",
    "results_json",
    "results_text",
    "scenario_table",
    "table_rows",
]

HEADERS = (
    "system",
    "scenario",
    "SEGEVAL U",
    "SEGEVAL L",
    "classic",
    "classic U",
    "classic L",
    "TEDEVAL U",
    "TEDEVAL L",
    "tok.acc U",
    "tok.acc L",
)


def _pct(value: float | None) -> float | None:
    return None if value is None else 100.0 * value


def table_rows(results: Sequence[JointResult], percent: bool = True) -> list[list[Cell]]:
    """One row per prediction, in :data:`HEADERS` order (``None`` prints as N/A)."""
    f = _pct if percent else (lambda v: v)
    rows: list[list[Cell]] = []
    for r in results:
        c = r.classic
        rows.append(
            [
                r.name,
                r.scenario,
                f(r.segeval.unlabeled),
                f(r.segeval.labeled),
                c.metric if c else "N/A",
                f(c.unlabeled) if c else None,
                f(c.labeled) if c else None,
                f(r.ted_unlabeled.score) if r.ted_unlabeled else None,
                f(r.ted_labeled.score) if r.ted_labeled else None,
                f(r.segeval.token_accuracy_unlabeled),
                f(r.segeval.token_accuracy_labeled),
            ]
        )
    return rows


def scenario_table(result: JointResult) -> Table:
    """One prediction's row of the scenario table, as fractions (``None``: N/A)."""
    return Table(HEADERS, rows_of(table_rows([result], percent=False)), result.signature)


def _ul(u: float | None, lab: float | None) -> dict[str, float | None]:
    return {"U": u, "L": lab}


def _sentence_json(s: SentenceJoint) -> dict[str, object]:
    seg = seg_score(s.seg)
    out: dict[str, object] = {"index": s.index, "sent_id": s.sent_id}
    out["segeval"] = _ul(seg.unlabeled, seg.labeled)
    if s.ted_unlabeled is not None and s.ted_labeled is not None:
        out["tedeval"] = _ul(s.ted_unlabeled.score, s.ted_labeled.score)
        out["ted"] = {"U": s.ted_unlabeled.distance, "L": s.ted_labeled.distance}
        out["size"] = {"parse": s.ted_labeled.parse_size, "gold": s.ted_labeled.gold_size}
        out["ops"] = [str(op) for op in s.ted_labeled.ops]
    else:
        out["tedeval"] = out["ted"] = out["size"] = out["ops"] = None
    out["skipped"] = s.skipped
    out["gold_in_lattice"] = s.check.gold_inside if s.check else None
    out["pred_in_lattice"] = s.check.pred_inside if s.check else None
    return out


def result_json(r: JointResult) -> dict[str, object]:
    """The JSON of one prediction: one entry of ``evalcore lattice --format json``."""
    c = r.classic
    lc = r.lattice_check
    ted = _ul(r.ted_unlabeled.score, r.ted_labeled.score) if r.ted_unlabeled and r.ted_labeled else None
    classic = {"metric": c.metric, "U": c.unlabeled, "L": c.labeled, "signature": c.signature} if c else None
    return {
        "signature": r.signature,
        "system": r.name,
        "scenario": r.scenario,
        "detected_scenario": r.detected,
        "sentences": r.pairs,
        "gold_sentences": r.gold_sentences,
        "pred_sentences": r.pred_sentences,
        "unaligned": {"gold": list(r.unaligned_gold), "pred": list(r.unaligned_pred)},
        "skipped": r.skipped,
        "segeval": _ul(r.segeval.unlabeled, r.segeval.labeled),
        "tedeval": ted,
        "token_seg_accuracy": _ul(r.segeval.token_accuracy_unlabeled, r.segeval.token_accuracy_labeled),
        "classic": classic,
        "classic_note": r.classic_note,  # why the classic metric is N/A where it could apply
        "lattice_check": asdict(lc) if lc else None,
        "signatures": {
            "segeval": r.segeval.signature,
            "tedeval": r.ted_labeled.signature if r.ted_labeled else None,
        },
    } | ({"per_sentence": [_sentence_json(s) for s in r.sentences]} if r.sentences else {})


def _notes(r: JointResult) -> str:
    lines = [
        f"{r.name}: {r.pairs} sentence pairs scored (gold {r.gold_sentences}, predicted "
        f"{r.pred_sentences}); unaligned: {len(r.unaligned_gold)} gold, {len(r.unaligned_pred)} predicted; "
        f"skipped {r.skipped} (not a tree); detected scenario: {r.detected}"
    ]
    if r.classic_note:
        lines.append(f"  {r.classic_note}")
    lc = r.lattice_check
    if lc is not None:
        lines.append(
            f"  outside the ambiguity lattice: gold {lc.gold_outside}/{lc.sentences} sentences "
            f"({lc.gold_outside_segments} by segments alone; tokens: {lc.gold_tokens_outside}/{lc.tokens}, "
            f"{lc.gold_tokens_outside_segments} by segments), "
            f"predicted {lc.pred_outside}/{lc.sentences} ({lc.pred_outside_segments} by segments)"
        )
    return "\n".join(lines)


def _per_sentence_text(r: JointResult) -> str:
    rows: list[list[Cell]] = []
    for s in r.sentences:
        u, lab = s.ted_unlabeled, s.ted_labeled
        both = u is not None and lab is not None
        rows.append(
            [
                s.index,
                s.sent_id,
                seg_score(s.seg).labeled,
                u.score if u is not None and both else None,
                lab.score if lab is not None and both else None,
                lab.distance if lab else None,
                "; ".join(str(op) for op in lab.ops) if lab else (s.skipped or ""),
            ]
        )
    return text_table(["#", "sent_id", "SEG L", "TED U", "TED L", "dist", "operations (labeled)"], rows)


def results_json(results: Sequence[JointResult]) -> dict[str, object]:
    """The JSON document: one prediction's (:func:`result_json`), or every prediction's under
    ``systems`` with the first one's signature."""
    if len(results) == 1:
        return result_json(results[0])
    return {"signature": results[0].signature, "systems": [result_json(r) for r in results]}


def results_csv(results: Sequence[JointResult]) -> str:
    """The scenario table as fractions (empty cell: N/A), one line per prediction with its signature."""
    plain = table_rows(results, percent=False)
    rows = [[*row, r.signature] for row, r in zip(plain, results, strict=True)]
    return csv_text([*HEADERS, "signature"], rows)


def results_text(results: Sequence[JointResult], per_sentence: bool = False) -> str:
    """The scenario table in percent, what N/A means, one note per prediction, the signature; then
    every sentence of every prediction if asked."""
    out = text_table(HEADERS, table_rows(results), digits=2)
    out += (
        "(percent; classic on raw dependency input: the CoNLL 2018 scorer's aligned UAS/LAS F1, DEPREL "
        "subtypes ignored unless deprel:full; N/A: the classic metric needs the gold segmentation "
        "(PARSEVAL) or CoNLL-U text to align by characters; PARSEVAL is labeled only; "
        "TEDEVAL needs trees)\n\n"
    )
    for r in results:
        out += _notes(r) + "\n"
    out += f"signature: {results[0].signature}\n"
    if per_sentence:
        for r in results:
            out += f"\n{r.name}\n" + _per_sentence_text(r)
    return out


# --------------------------------------------------------------------------- --bootstrap


def _shown(results: Sequence[JointResult]) -> list[list[bool]]:
    """Which of :data:`~evalcore.resampling.LATTICE_METRICS` each prediction prints (not N/A)."""
    rows = table_rows(results, percent=False)
    # LATTICE_METRICS order: SEGEVAL U, L, TEDEVAL U, L, tok.acc U, L, classic U, L
    # classic: attachment counted over the gold segmentation; not PARSEVAL, nor an aligned raw score
    columns = (2, 3, 7, 8, 9, 10, 5, 6)
    out = []
    for r, row in zip(results, rows, strict=True):
        attach = r.classic is not None and r.classic.metric == "attachment" and r.detected != "raw"
        out.append([row[c] is not None and (i < 6 or attach) for i, c in enumerate(columns)])
    return out


def intervals_text(results: Sequence[JointResult], ivs: Sequence[Intervals]) -> str:
    """``--bootstrap``: each prediction's intervals of the scenario table's scores (percent), the
    resampling settings and the signature with them."""
    st = ivs[0].settings
    rows: list[list[Cell]] = [
        [r.name, *(interval_text(iv) if show else "-" for iv, show in zip(i.values, shown, strict=True))]
        for r, i, shown in zip(results, ivs, _shown(results), strict=True)
    ]
    return (
        f"\n{level_header(st)} (bootstrap percentile, {st.samples} resamples of the sentence pairs, "
        f"seed {st.seed}; percent; -: no interval; classic: attachment only):\n"
        + text_table(["system", *ivs[0].names], rows)
        + f"signature: {st.sign(results[0].signature)}\n"
    )


def add_intervals_json(
    doc: dict[str, object], results: Sequence[JointResult], ivs: Sequence[Intervals]
) -> None:
    """Add ``bootstrap`` and each prediction's ``intervals`` (``{metric: {low, high}}``, N/A scores
    left out) to the :func:`results_json` document."""
    systems = doc["systems"] if len(results) > 1 else [doc]
    assert isinstance(systems, list)
    for system, i, shown in zip(systems, ivs, _shown(results), strict=True):
        system["intervals"] = {
            n: {"low": iv.low, "high": iv.high}
            for n, iv, show in zip(i.names, i.values, shown, strict=True)
            if show
        }
    doc["bootstrap"] = bootstrap_json(ivs[0].settings)


def results_csv_intervals(results: Sequence[JointResult], ivs: Sequence[Intervals]) -> str:
    """:func:`results_csv` with ``low``/``high`` columns for each score that has an interval."""
    plain = table_rows(results, percent=False)
    names = ivs[0].names
    rows = [
        [
            *row,
            *(
                v
                for iv, show in zip(i.values, shown, strict=True)
                for v in ((iv.low, iv.high) if show else (None, None))
            ),
            st,
        ]
        for row, i, shown, st in zip(
            plain,
            ivs,
            _shown(results),
            (i.settings.sign(r.signature) for r, i in zip(results, ivs, strict=True)),
            strict=True,
        )
    ]
    extra = [f"{n} {b}" for n in names for b in ("low", "high")]
    return csv_text([*HEADERS, *extra, "signature"], rows)


def intervals_of(result: JointResult) -> Intervals | None:
    """The bootstrap intervals a result holds (``--bootstrap``), or ``None``."""
    if result.bootstrap is None:
        return None
    names = tuple(n for n, _ in result.intervals)
    return Intervals(names, tuple(v for _, v in result.intervals), BootstrapSettings(*result.bootstrap))


def result_document(result: JointResult) -> dict[str, object]:
    """The ``--format json`` document of one prediction, its bootstrap intervals included."""
    doc = results_json([result])
    ivs = intervals_of(result)
    if ivs is not None:
        add_intervals_json(doc, [result], [ivs])
    return doc
