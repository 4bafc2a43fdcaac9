"""``evalcore attach GOLD SYSTEM``: UAS, LAS, label accuracy, undirected, NED (SPEC §3)."""

from __future__ import annotations

import argparse
import sys

from evalcore.commands._output import csv_text, json_text, text_table, warn
from evalcore.formats.conllu import read_conllu
from evalcore.metrics.attachment import AttachConfig, AttachResult, attach_corpus

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "attach",
        help="attachment scores: UAS, LAS, label accuracy, undirected, NED",
        description="Attachment scores of SYSTEM against GOLD (CoNLL-U or CoNLL-X, same tokens).",
    )
    p.add_argument("gold", help="gold CoNLL-U / CoNLL-X file (.gz accepted)")
    p.add_argument("system", help="system CoNLL-U / CoNLL-X file over the same tokens")
    p.add_argument("--no-punct", action="store_true", help="leave gold punctuation tokens out of the counts")
    p.add_argument("--max-len", type=int, metavar="N", help="only sentences of at most N (counted) tokens")
    p.add_argument("--deprel-base", action="store_true", help="compare only the deprel part before ':'")
    p.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 2) on a sentence that is not a tree, instead of skipping and counting it",
    )
    p.add_argument("--per-sentence", action="store_true", help="also report every sentence's counts")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    p.set_defaults(run=run)


def _values(result: AttachResult) -> list[tuple[str, str, float | None]]:
    """(text name, JSON key, value); ``None`` when no token was scored (never a silent 0)."""
    s = result.score
    pairs = [
        ("UAS", "uas", s.uas),
        ("LAS", "las", s.las),
        ("label acc", "label", s.label),
        ("undirected", "undirected", s.undirected),
        ("NED", "ned", s.ned),
    ]
    return [(name, key, None if s.tokens == 0 else value) for name, key, value in pairs]


def _as_json(result: AttachResult, per_sentence: bool) -> dict[str, object]:
    s = result.score
    out: dict[str, object] = {key: value for _, key, value in _values(result)}
    out |= {
        "tokens": s.tokens,
        "sentences": s.sentences,
        "skipped": s.skipped,
        "excluded_by_length": s.excluded,
        "signature": s.signature,
    }
    if per_sentence:
        out["per_sentence"] = [
            {
                "sent_id": sid,
                "tokens": c.tokens,
                "uas": c.uas,
                "las": c.las,
                "label": c.label,
                "undirected": c.undirected,
                "ned": c.ned,
                "skipped": bool(c.skipped),
                "excluded": bool(c.excluded),
            }
            for sid, c in result.per_sentence
        ]
    return out


def run(args: argparse.Namespace) -> int:
    if args.max_len is not None and args.max_len < 0:
        print("evalcore attach: --max-len must be >= 0", file=sys.stderr)
        return 2
    config = AttachConfig(
        no_punct=args.no_punct,
        max_len=args.max_len,
        deprel_base=args.deprel_base,
        skip_invalid=not args.strict,
    )
    # streams: one sentence pair in memory at a time, per-sentence counts only if asked for
    result = attach_corpus(
        read_conllu(args.gold, on_invalid="keep", limits=args.limits),
        read_conllu(args.system, on_invalid="keep", limits=args.limits),
        config,
        per_sentence=args.per_sentence,
    )
    for w in result.warnings:
        warn(w)
    s = result.score
    values = _values(result)
    if args.format == "json":
        sys.stdout.write(json_text(_as_json(result, args.per_sentence)))
    elif args.format == "csv":
        rows: list[list[str | int | float | None]] = [[name, value] for name, _, value in values]
        rows += [
            ["tokens", s.tokens],
            ["sentences", s.sentences],
            ["skipped", s.skipped],
            ["excluded_by_length", s.excluded],
            ["signature", s.signature],
        ]
        sys.stdout.write(csv_text(["metric", "value"], rows))
    else:
        pct = ["N/A" if v is None else f"{100 * v:.2f}" for _, _, v in values]
        width = max(len(p) for p in [*pct, "%"])
        table = text_table(
            ["metric", "score", "%".rjust(width)],
            [[name, v, p.rjust(width)] for (name, _, v), p in zip(values, pct, strict=True)],
        )
        sys.stdout.write(table)
        sys.stdout.write(
            f"\n{s.tokens} tokens in {s.sentences} sentences; skipped {s.skipped} (not a tree); "
            f"excluded {s.excluded} (longer than --max-len)\nsignature: {s.signature}\n"
        )
        if args.per_sentence:
            rows2: list[list[str | int | float | None]] = [
                [sid, c.tokens, c.uas, c.las, c.label, c.undirected, c.ned, "skipped" if c.skipped else ""]
                for sid, c in result.per_sentence
            ]
            headers = ["sent_id", "tokens", "uas", "las", "label", "undir", "ned", "note"]
            sys.stdout.write("\n" + text_table(headers, rows2))
    return 0
