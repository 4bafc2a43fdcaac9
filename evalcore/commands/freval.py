"""``evalcore freval GOLD TEST``: PARSEVAL per fragment size, FLR / FLP / F1 (SPEC §7).

Brackets are extracted exactly as ``evalcore parseval`` (evalb) does, so
``--max-size 1`` prints evalb's recall and precision.
"""

from __future__ import annotations

import argparse
import sys

from evalcore.commands._output import Cell, csv_text, json_text, text_table
from evalcore.commands.parseval import add_extraction_args, extraction_config, report_problems, stream_pair
from evalcore.metrics.freval import TABLE1_LIMITS, FrevalConfig, FrevalResult, freval_corpus, limit_name

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "freval",
        help="FREVAL: bracket precision/recall per fragment size (Bastings & Sima'an)",
        description="FREVAL of TEST against GOLD: LR_s, LP_s, F1_s per fragment size s, and FLR, FLP, F1 "
        "mixed with uniform (or --alpha) weights.  Brackets as evalb extracts them.",
    )
    add_extraction_args(p)
    p.add_argument("--max-size", type=int, metavar="L", help="fragment sizes 1..L (default: all)")
    p.add_argument(
        "--cutoff-len", type=int, metavar="N", help="only sentences of at most N words (evalb's length)"
    )
    p.add_argument(
        "--alpha",
        metavar="W1,W2,...",
        help="weights of sizes 1, 2, ... summing to 1 (default: uniform over 1..L)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="a matched fragment must also have its parent-child edges in the test tree",
    )
    p.add_argument(
        "--collapse-unary",
        action="store_true",
        help="merge a bracket into its parent when both have the same label and words (NP -> NP)",
    )
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    p.set_defaults(run=run)


def _as_json(result: FrevalResult) -> dict[str, object]:
    s = result.score
    return {
        "signature": s.signature,
        "sentences": s.sentences,
        "valid": s.valid,
        "errors": s.errors,
        "skipped": s.skipped,
        "per_size": [
            {
                "size": r.size,
                "matched": r.matched,
                "gold": r.gold,
                "test": r.test,
                "recall": r.recall,
                "precision": r.precision,
                "f1": r.f1,
            }
            for r in s.per_size
        ],
        "flr": s.flr,
        "flp": s.flp,
        "f1": s.f1,
    }


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def _text(result: FrevalResult) -> str:
    s = result.score
    rows: list[list[Cell]] = [
        [r.size, r.matched, r.gold, r.test, _pct(r.recall), _pct(r.precision), _pct(r.f1)] for r in s.per_size
    ]
    out = [text_table(["size", "matched", "gold", "test", "LR_s %", "LP_s %", "F1_s %"], rows)]
    weights = "uniform" if result.config.alpha is None else "given"
    out.append(
        f"\nFLR {_pct(s.flr)}  FLP {_pct(s.flp)}  F1 {_pct(s.f1)}  ({weights} alpha over sizes 1-{s.limit})\n"
        f"{s.sentences} sentences: {s.valid} valid, {s.errors} errors, {s.skipped} skipped "
        "(error and skip sentences are excluded, as evalb does)\n"
    )
    if result.config.max_size is None:
        t1 = []
        for limit in TABLE1_LIMITS:
            sc = result.rescore(limit)
            t1.append([limit_name(limit), _pct(sc.flr), _pct(sc.flp), _pct(sc.f1)])
        out.append("\nsize limits as in the paper's Table 1 (uniform alpha):\n")
        out.append(text_table(["sizes", "FLR %", "FLP %", "F1 %"], t1))
    out.append(f"signature: {s.signature}\n")
    return "".join(out)


def _csv(result: FrevalResult) -> str:
    s = result.score
    rows: list[list[Cell]] = [
        [r.size, r.matched, r.gold, r.test, r.recall, r.precision, r.f1] for r in s.per_size
    ]
    rows.append(["all", None, None, None, s.flr, s.flp, s.f1])
    return csv_text(["size", "matched", "gold", "test", "recall", "precision", "f1"], rows)


def _alpha(text: str | None) -> tuple[float, ...] | None:
    if text is None:
        return None
    try:
        return tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise ValueError(f"--alpha must be comma-separated numbers, got '{text}'") from None


def run(args: argparse.Namespace) -> int:
    try:
        if args.max_error is not None and args.max_error < 0:
            raise ValueError("--max-error must be >= 0")
        config = FrevalConfig(
            extraction=extraction_config(args),
            max_size=args.max_size,
            alpha=_alpha(args.alpha),
            strict=args.strict,
            cutoff_len=args.cutoff_len,
        )
    except ValueError as exc:
        print(f"evalcore freval: {exc}", file=sys.stderr)
        return 2
    gold, test = stream_pair(args)
    result = freval_corpus(gold, test, config, keep_sentences=False)  # streams
    report_problems(result.comparisons, args.gold, result.counts.errors + result.counts.skipped)
    if args.format == "json":
        sys.stdout.write(json_text(_as_json(result)))
    elif args.format == "csv":
        sys.stdout.write(_csv(result))
    else:
        sys.stdout.write(_text(result))
    return 0
