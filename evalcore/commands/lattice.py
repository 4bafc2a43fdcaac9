"""``evalcore lattice GOLD PRED...``: joint segmentation + parsing evaluation (SPEC §6; ACL 2012).

SEGEVAL, token segmentation accuracy, TedEval over lattices (U/L) and the
classic metric where it applies, one row per predicted file: the scenario
table of the paper (Tables 1–2).

Streams: each prediction is read in step with the gold (and the lattice
files), one sentence pair at a time; only the sums are kept, and every
sentence's record only with ``--per-sentence``.
"""

from __future__ import annotations

import argparse
import sys

from evalcore.commands._output import csv_text, json_text, named_path, text_table, warn
from evalcore.errors import InputFormatError
from evalcore.formats.lattice import read_lattices
from evalcore.lattice.reading import PairStream
from evalcore.metrics.joint import JointConfig, JointResult, SentenceJoint, evaluate_stream
from evalcore.metrics.segeval import score as seg_score

__all__ = ["register", "result_json", "run", "table_rows"]

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


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "lattice",
        help="joint segmentation + parsing: SEGEVAL, TedEval over lattices, gold/predicted/raw scenarios",
        description=(
            "Score each PRED against GOLD when segmentation may differ (ACL 2012; SPEC §6). Inputs: "
            "bracketed trees over lexemes, CoNLL-X over morphemes with lattice files (SPMRL, yap), "
            "one-path lattice files (segmentation only), or CoNLL-U with multiword tokens (raw-text "
            "parsers; aligned with gold by characters). Name a prediction with NAME=PATH."
        ),
    )
    p.add_argument("gold", help="gold file (.gz accepted)")
    p.add_argument("pred", nargs="+", help="predicted file(s), optionally NAME=PATH")
    p.add_argument("--gold-lattice", metavar="F", help="gold lattice path file (token ids and states)")
    p.add_argument(
        "--pred-lattice",
        metavar="F",
        action="append",
        default=[],
        help="predicted lattice path (yap output.mapping) or yap output.segmentation; once per PRED",
    )
    p.add_argument(
        "--ambiguity-lattice",
        metavar="F",
        help="MA lattices of the gold sentences: report analyses outside them (needs token ids)",
    )
    p.add_argument("--tag-column", choices=("cpos", "fpos"), default="cpos", help="lattice/CoNLL tag column")
    p.add_argument(
        "--protocol",
        choices=("2012", "2011"),
        default="2012",
        help="dependency → function tree: 2012 (hd heads, default) or 2011 (* heads)",
    )
    p.add_argument(
        "--scenario",
        choices=("auto", "gold", "predicted", "raw"),
        default="auto",
        help="the scenario to print (default: detected from the data)",
    )
    p.add_argument(
        "--deprel-base",
        action="store_true",
        help="compare only the universal part of dependency labels (before ':'), as CoNLL 2018 LAS does",
    )
    p.add_argument("--average", choices=("global", "sentence"), default="global")
    p.add_argument(
        "--per-sentence",
        action="store_true",
        help="also list every sentence (text), or add them as per_sentence (JSON); keeps them in memory",
    )
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    p.set_defaults(run=run)


def _pct(value: float | None) -> float | None:
    return None if value is None else 100.0 * value


def table_rows(results: list[JointResult], percent: bool = True) -> list[list[str | int | float | None]]:
    """One row per prediction, in :data:`HEADERS` order (``None`` prints as N/A)."""
    f = _pct if percent else (lambda v: v)
    rows: list[list[str | int | float | None]] = []
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
    """The JSON of one prediction (issue 5 layout)."""
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
        "lattice_check": (
            {
                "sentences": lc.sentences,
                "gold_outside": lc.gold_outside,
                "gold_outside_segments": lc.gold_outside_segments,
                "pred_outside": lc.pred_outside,
                "pred_outside_segments": lc.pred_outside_segments,
                "gold_tokens_outside": lc.gold_tokens_outside,
                "gold_tokens_outside_segments": lc.gold_tokens_outside_segments,
                "tokens": lc.tokens,
            }
            if lc
            else None
        ),
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
    rows: list[list[str | int | float | None]] = []
    for s in r.sentences:
        d = _sentence_json(s)
        seg = d["segeval"]
        ted = d["tedeval"]
        assert isinstance(seg, dict)
        rows.append(
            [
                s.index,
                s.sent_id,
                seg["L"],
                ted["U"] if isinstance(ted, dict) else None,
                ted["L"] if isinstance(ted, dict) else None,
                s.ted_labeled.distance if s.ted_labeled else None,
                "; ".join(str(op) for op in s.ted_labeled.ops) if s.ted_labeled else (s.skipped or ""),
            ]
        )
    return text_table(["#", "sent_id", "SEG L", "TED U", "TED L", "dist", "operations (labeled)"], rows)


def run(args: argparse.Namespace) -> int:
    preds = [named_path(p) for p in args.pred]
    lattices: list[str | None] = list(args.pred_lattice)
    if not lattices:
        lattices = [None] * len(preds)
    if len(lattices) != len(preds):
        raise InputFormatError(
            f"{len(preds)} predictions but {len(lattices)} --pred-lattice files (one per PRED, in order)",
            file=args.pred_lattice[0],
        )
    config = JointConfig(args.tag_column, args.protocol, args.average, args.deprel_base, args.limits)
    scenario = None if args.scenario == "auto" else args.scenario
    results: list[JointResult] = []

    def skipped(s: SentenceJoint) -> None:
        if s.invalid:
            label = f"sentence {s.index}" + (f" ({s.sent_id})" if s.sent_id else "")
            warn(f"{s.where}: {label} skipped: {s.skipped}")

    for name, path in preds:
        lat = lattices[len(results)]
        # the ambiguity lattices are read in step with the gold, once per prediction
        ambiguity = (
            None
            if args.ambiguity_lattice is None
            else read_lattices(args.ambiguity_lattice, limits=args.limits)
        )
        stream = PairStream(
            args.gold,
            path,
            gold_lattice=args.gold_lattice,
            pred_lattice=lat,
            options=config.read_options,
            ambiguity=ambiguity,
        )
        if ambiguity is not None and stream.mode != "index":
            raise InputFormatError(
                "--ambiguity-lattice needs token ids on both sides, and two CoNLL files without lattice "
                "files are aligned by characters instead: give --gold-lattice and --pred-lattice",
                file=args.ambiguity_lattice,
            )
        result = evaluate_stream(
            stream,
            config,
            name=name,
            scenario=scenario,
            keep_sentences=args.per_sentence,
            on_sentence=skipped,
        )
        results.append(result)
    if args.format == "json":
        payload = (
            result_json(results[0])
            if len(results) == 1
            else {
                "signature": results[0].signature,
                "systems": [result_json(r) for r in results],
            }
        )
        sys.stdout.write(json_text(payload))
    elif args.format == "csv":
        plain = table_rows(results, percent=False)
        rows = [[*row, r.signature] for row, r in zip(plain, results, strict=True)]
        sys.stdout.write(csv_text([*HEADERS, "signature"], rows))
    else:
        sys.stdout.write(text_table(HEADERS, table_rows(results), digits=2))
        sys.stdout.write(
            "(percent; N/A: the classic metric needs the gold segmentation; PARSEVAL is labeled only; "
            "TEDEVAL needs trees)\n\n"
        )
        for r in results:
            sys.stdout.write(_notes(r) + "\n")
        sys.stdout.write(f"signature: {results[0].signature}\n")
        if args.per_sentence:
            for r in results:
                sys.stdout.write(f"\n{r.name}\n" + _per_sentence_text(r))
    return 0
