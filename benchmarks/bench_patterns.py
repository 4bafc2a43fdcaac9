"""Time the pattern matcher: every entry of the shipped ``ud.pat`` and some linguists' requests
(at least 20 in all) over French-GSD UD dev r2.16 (1,476 sentences, 35,721 words).

    python benchmarks/bench_patterns.py [--repeat N] [--file PATH]

Prints, best of N, the total (one index per tree, built once and shared, plus every request) and
each request's seconds, with the machine's load average before and after; then ``constructions``
of every word under ``ud.pat``.  The target is under 5 s in all (docs/patterns.md, "Time").
Not a test: machines are noisy.  Last, the largest search of one request in one sentence, in
candidate words (``search_steps``, what ``--max-pattern-steps`` bounds: docs/robustness.md,
"Pattern searches"), for every entry of ``ud.pat`` and ``sud.pat`` and the extra requests over the
file and, when it is there, its SUD twin.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from evalcore.formats.conllu import read_conllu
from evalcore.patterns import (
    compile_file,
    compile_request,
    constructions,
    count,
    index_tree,
    parse_request,
    read_pattern_file,
    search_steps,
    shipped,
)
from evalcore.patterns.match import Matcher, TreeIndex

BUDGET = 5.0
ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT.parent / "shared" / "data" / "fr_gsd_ud_sud" / "fr_gsd-ud-dev.r2.16.conllu"

EXTRA = (
    ("passive with agent", "pattern { V -[nsubj:pass]-> S; V -[obl:agent]-> A; A -[case]-> P }"),
    (
        "relative clause on a subject",
        "pattern { V -[1=nsubj]-> N; N -[acl:relcl]-> R; R -> Q; Q [PronType=Rel] }",
    ),
    ("clitic object before its verb", "pattern { V [upos=VERB]; V -[obj]-> O; O [upos=PRON]; O << V }"),
    (
        "verb without a subject",
        "pattern { V [upos=VERB, VerbForm=Fin] } without { V -[1=nsubj|1=csubj]-> S }",
    ),
    ("de + plural noun", 'pattern { N [upos=NOUN, Number=Plur]; N -[case]-> P; P [lemma="de"] }'),
    ("coordinated adjectives", "pattern { A [upos=ADJ]; A -[conj]-> B; B [upos=ADJ]; B -[cc]-> C }"),
    ("infinitive with a preposition", "pattern { V [VerbForm=Inf]; V -[mark]-> M; M [upos=ADP|SCONJ] }"),
    ("proper noun compound", 'pattern { N [upos=PROPN, form=re"[A-Z].*"]; N -[flat:name]-> M; N < M }'),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--file", type=Path, default=DEV)
    args = ap.parse_args()
    if not args.file.is_file():
        raise SystemExit(f"bench_patterns: {args.file} not found (French-GSD dev lives in ../shared/data)")
    load_before = os.getloadavg()
    trees = list(read_conllu(args.file))
    words = sum(len(t) for t in trees)
    pf = read_pattern_file(shipped("ud"))
    named = [(f"ud.pat:{c.line} {c.name}", c.request) for c in pf.constructions]
    named += [(name, parse_request(text)) for name, text in EXTRA]
    print(f"{len(trees)} sentences, {words} words; {len(named)} requests; load average {load_before}")
    best_total, best_each, counts = float("inf"), [float("inf")] * len(named), [0] * len(named)
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        indexes = [index_tree(t) for t in trees]
        t_index = time.perf_counter() - t0
        for k, (_, request) in enumerate(named):
            s = time.perf_counter()
            counts[k] = count(compile_request(request), indexes)
            best_each[k] = min(best_each[k], time.perf_counter() - s)
        best_total = min(best_total, time.perf_counter() - t0)
    for (name, _), seconds, n in zip(named, best_each, counts, strict=True):
        print(f"  {seconds:7.3f} s  {n:6d} matches  {name}")
    print(f"index of every tree: {t_index:.3f} s (last run)")
    print(f"TOTAL {len(named)} requests: {best_total:.2f} s wall (best of {args.repeat}), budget {BUDGET} s")
    cf = compile_file(pf)
    c0, w0 = time.process_time(), time.perf_counter()
    for t in trees:
        constructions(cf, t)
    print(f"constructions of every word under ud.pat: {time.perf_counter() - w0:.2f} s wall, "
          f"{time.process_time() - c0:.2f} s CPU")  # fmt: skip
    print(f"load average after: {os.getloadavg()}")
    steps_report([(name, compile_request(parse_request(text))) for name, text in EXTRA], args.file)


def largest_steps(requests: list[tuple[str, Matcher]], path: Path) -> None:
    """Print the largest ``search_steps`` of each request over the sentences of ``path``, then the
    largest of all, with the sentence and its length."""
    indexes: list[TreeIndex] = [index_tree(t) for t in read_conllu(path)]
    top: tuple[int, str, str, int] = (0, "", "", 0)
    for name, m in requests:
        steps, ix = max(((search_steps(m, ix), ix) for ix in indexes), key=lambda p: p[0])
        print(f"  {steps:6d} steps  {name}")
        top = max(top, (steps, name, ix.tree.sent_id, ix.n))
    steps, name, sentence, n = top
    print(f"largest search in {path.name}: {steps} candidate words ({name}, sentence {sentence}, {n} words)")


def steps_report(extra: list[tuple[str, Matcher]], path: Path) -> None:
    named = list(extra)
    for family in ("ud", "sud"):
        pf = read_pattern_file(shipped(family))
        named += [(f"{family}.pat:{c.line} {c.name}", compile_request(c.request)) for c in pf.constructions]
    twin = path.with_name(path.name.replace("-ud-", "-sud-"))
    for p in (path, twin) if twin != path and twin.is_file() else (path,):
        largest_steps(named, p)


if __name__ == "__main__":
    main()
