"""Time joint segmentation + parsing evaluation (docs/architecture.md, "Performance targets"): the
five CoNLL 2018 he_htb systems against the shared task's gold, raw-text scenario (491 gold sentences each).

    python benchmarks/bench_lattice.py [--data ../shared/data] [--repeat N]

Prints seconds per stage (read + align by characters, SEGEVAL, TedEval U + L), the whole
``evalcore lattice`` command in-process, the budget ratio (30 s), and the markdown table that
``docs/lattice.md`` shows, with the shared task's "Words" F1 computed as ``conll18_ud_eval.py``
defines it.  Not a test: machines are noisy.  The he_htb data is non-commercial and is only read
from ``../shared/data``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import time
from pathlib import Path

from evalcore.cli import main as cli_main
from evalcore.formats.conllu import read_conllu
from evalcore.lattice.reading import load_pairing, read_gold
from evalcore.lattice.textalign import tokenize
from evalcore.metrics.joint import evaluate
from evalcore.metrics.lattice_tedeval import sentence_ted
from evalcore.metrics.segeval import sentence_counts
from evalcore.metrics.words import words_counts

BUDGET = 30.0
SYSTEMS = ("HIT-SCIR-18", "ONLP-lab", "Stanford-18", "UDPipe-Future", "conll18-baseline")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    ap.add_argument("--repeat", type=int, default=1, help="best of N for the whole command")
    args = ap.parse_args()
    he = Path(args.data) / "parser_outputs" / "conll2018" / "he_htb"
    gold = str(he / "gold.he_htb.conllu.gz")
    systems = [(name, str(he / f"{name}.he_htb.conllu.gz")) for name in SYSTEMS]

    t_read = t_seg = t_ted = 0.0
    pair_ms: list[float] = []
    sizes: list[int] = []
    results = []
    t0 = time.perf_counter()
    gold_input = read_gold(gold)
    t_read += time.perf_counter() - t0
    for name, path in systems:
        t0 = time.perf_counter()
        pairing = load_pairing(gold_input, path)
        t_read += time.perf_counter() - t0
        t0 = time.perf_counter()
        for pair in pairing.pairs:
            sentence_counts(pair.gold.lexemes, pair.pred.lexemes, pair.blocks)
        t_seg += time.perf_counter() - t0
        for pair in pairing.pairs:
            g, p = pair.gold.tree, pair.pred.tree
            if g is None or p is None:
                continue
            t0 = time.perf_counter()
            sentence_ted(p, g, labeled=False)
            sentence_ted(p, g, labeled=True)
            dt = time.perf_counter() - t0
            t_ted += dt
            pair_ms.append(1000 * dt / 2)
            sizes.append(len(p) + len(g))
        results.append((name, evaluate(pairing, name=name)))
    print(f"read gold once + 5 systems, align by characters: {t_read:.2f} s")
    print(f"SEGEVAL, 5 systems: {t_seg:.2f} s")
    print(
        f"TedEval U + L, {len(pair_ms)} sentence pairs x 2: {t_ted:.2f} s "
        f"(median {statistics.median(pair_ms):.2f} ms, max {max(pair_ms):.1f} ms a tree pair; "
        f"median {statistics.median(sizes) // 2} nodes a tree, max {max(sizes) // 2})"
    )

    best = float("inf")
    for _ in range(max(1, args.repeat)):
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            code = cli_main(["lattice", gold, *(f"{n}={p}" for n, p in systems), "--format", "json"])
        best = min(best, time.perf_counter() - t0)
        assert code == 0
    print(
        f"`evalcore lattice` in-process, 5 systems x 491 sentences: {best:.2f} s "
        f"({best / BUDGET:.2f} of the 30 s budget)"
    )

    g_tok = tokenize(read_conllu(gold, on_invalid="keep"))
    print()
    print(
        "| system | CoNLL 2018 Words F1 | sentences scored | unaligned (gold / system) "
        "| SEGEVAL U | SEGEVAL L | TEDEVAL U | TEDEVAL L | token acc. U | token acc. L |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (name, path), (_, r) in zip(systems, results, strict=True):
        words = words_counts(g_tok, tokenize(read_conllu(path, on_invalid="keep")))
        assert r.ted_unlabeled is not None and r.ted_labeled is not None
        s = r.segeval
        print(
            f"| {name} | {100 * words.f1:.2f} | {len(r.sentences)} | "
            f"{len(r.unaligned_gold)} / {len(r.unaligned_pred)} | "
            f"{100 * s.unlabeled:.2f} | {100 * s.labeled:.2f} | "
            f"{100 * r.ted_unlabeled.score:.2f} | {100 * r.ted_labeled.score:.2f} | "
            f"{100 * (s.token_accuracy_unlabeled or 0):.2f} | {100 * (s.token_accuracy_labeled or 0):.2f} |"
        )
    print(f"\nsignature: {results[0][1].signature}")


if __name__ == "__main__":
    main()
