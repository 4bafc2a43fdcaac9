"""Time TedEval on EWT test (docs/architecture.md, "Performance targets"): spaCy parses vs the UD v2
gold, UD v1 as a second scheme, both protocols, labeled + unlabeled; and 10,000 shuffles for one pair.

    python benchmarks/bench_tedeval.py [--data ../shared/data]

Prints seconds per stage and the ratio to the 5 s budget.  Not a test: machines are noisy.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from evalcore.conversion import ConversionConfig, to_span_tree
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.detect import read_trees
from evalcore.generalization import generalize
from evalcore.metrics.tedeval import TedConfig, sentence_ted
from evalcore.significance import approximate_randomization

BUDGET = 5.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    args = ap.parse_args()
    d = Path(args.data)
    gold_p = d / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
    v1_p = d / "en_ewt" / "en-ud-test.r1.4.conllu"
    spacy_p = d / "parser_outputs" / "spacy_en_ewt_test" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu"

    t0 = time.perf_counter()
    gold = NamedTrees("ud2", tuple(read_trees(gold_p)), str(gold_p))
    v1 = NamedTrees("ud1", tuple(read_trees(v1_p)), str(v1_p))
    spacy = NamedTrees("spacy", tuple(read_trees(spacy_p)), str(spacy_p))
    t_read = time.perf_counter() - t0
    print(f"read 3 files ({len(gold.trees)} sentences each): {t_read:.2f} s")

    for protocol in ("2012", "2011"):
        conv = ConversionConfig(protocol=protocol)  # type: ignore[arg-type]
        t0 = time.perf_counter()
        keep = [i for i in range(len(gold.trees)) if gold.trees[i].forms == v1.trees[i].forms]  # type: ignore[union-attr]
        g = [to_span_tree(gold.trees[i], conv) for i in keep]
        h = [to_span_tree(v1.trees[i], conv) for i in keep]
        p = [to_span_tree(spacy.trees[i], conv) for i in keep]
        gen = [generalize(a, b) for a, b in zip(g, h, strict=True)]
        for labeled in (True, False):
            for x, y, z in zip(p, g, gen, strict=True):
                sentence_ted(x, y, z, labeled=labeled)
                sentence_ted(x, y, y, labeled=labeled)
        dt = time.perf_counter() - t0
        print(
            f"protocol {protocol}: convert 3x{len(keep)} + generalize + L and U TED vs gold and vs "
            f"generalization: {dt:.2f} s  ({dt / BUDGET:.2f} of the 5 s budget)"
        )

    cfg = ExperimentConfig(TedConfig(), shuffles=10_000, skip_mismatched=True)
    t0 = time.perf_counter()
    run_experiment([Scheme("ud2", gold, (spacy,)), Scheme("ud1", v1)], cfg)
    print(f"full experiment (UAS, LAS, U-TED, L-TED, 3 'against' columns): {time.perf_counter() - t0:.2f} s")

    conv = ConversionConfig()
    sents = [
        sentence_ted(to_span_tree(a, conv), to_span_tree(b, conv), to_span_tree(b, conv))
        for a, b in zip(spacy.trees, gold.trees, strict=True)
    ]
    pa = [(float(s.delta), float(s.norm)) for s in sents]
    pb = [(0.0, float(s.norm)) for s in sents]
    t0 = time.perf_counter()
    approximate_randomization(pa, pb, shuffles=10_000, seed=1)
    dt = time.perf_counter() - t0
    print(
        f"10,000 shuffles, one pair, {len(pa)} sentences: {dt:.2f} s  ({dt / BUDGET:.2f} of the 5 s budget)"
    )


if __name__ == "__main__":
    main()
