"""Time the discrepancy atlas on the shipped French-GSD test data: 416 sentences, UD and
SUD golds, the three committed spaCy parses, both golds also taken as parses; every script against
each gold and the UD+SUD generalization, labeled and unlabeled, grouped four ways.

    python benchmarks/bench_atlas.py [--repeat N]

Prints, best of N: reading the five files, the atlas (experiment with scripts + grouping), and the
TedEval experiment alone on the same inputs (as ``evalcore tedeval`` runs it: without and with its
10,000 significance shuffles), with the ratios; then the ranking (every pair of parses on every
row, 10,000 shuffles each) and the two commands as subprocesses.  The budget is 5 s for the atlas.
Wall and CPU seconds are both printed: on a shared machine the wall time is the CPU time plus
the waiting for a core.  Not a test: machines are noisy.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from evalcore.atlas import atlas_counts, build_atlas, run_atlas_experiment, with_golds_as_parses
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import read_conllu
from evalcore.ranking import RankingConfig, rank_parses

BUDGET = 5.0
FR = Path(__file__).resolve().parents[1] / "assets" / "fr_gsd"
PARSES = (("ud", "spacy-ud"), ("ud", "spacy-ud-seed1"), ("sud", "spacy-sud"))


def files() -> list[tuple[str, str, Path]]:
    """(scheme, name, path): the two golds, then the parses."""
    out = [(s, f"{s}-gold", FR / f"fr_gsd-{s}-test.r2.16.conllu.gz") for s in ("ud", "sud")]
    out += [(s, p, FR / "parses" / f"fr_gsd-test.{p}.conllu.gz") for s, p in PARSES]
    return out


def read() -> tuple[Scheme, ...]:
    named = {n: NamedTrees(n, tuple(read_conllu(p, on_invalid="keep")), str(p)) for _, n, p in files()}
    return tuple(
        Scheme(s, named[f"{s}-gold"], tuple(named[p] for ps, p in PARSES if ps == s)) for s in ("ud", "sud")
    )


def best(fn: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """Best wall and CPU seconds over ``repeat`` runs, and the last result."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus), out


def command(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, of the child process) of one ``evalcore`` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "evalcore", *args], check=True, capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    t_read, c_read, schemes = best(read, args.repeat)
    assert isinstance(schemes, tuple)
    print(f"read 5 files (416 sentences each): {t_read:.2f} s wall, {c_read:.2f} s CPU")

    t_atlas, c_atlas, _ = best(lambda: build_atlas(schemes), args.repeat)
    run, result = run_atlas_experiment(schemes)
    t_group, c_group, _ = best(lambda: atlas_counts(run, result), args.repeat)
    total = t_read + t_atlas
    print(
        f"atlas (5 parses incl. 2 golds x 3 targets x U/L, 4 groupings): {t_atlas:.2f} s wall "
        f"({c_atlas:.2f} s CPU), of which grouping {t_group:.2f} s ({c_group:.2f} s CPU); with reading "
        f"{total:.2f} s wall = {total / BUDGET:.2f} of the {BUDGET:.0f} s budget, "
        f"{c_read + c_atlas:.2f} s CPU = {(c_read + c_atlas) / BUDGET:.2f} of it"
    )

    golds = with_golds_as_parses(schemes)
    t_ted0, c_ted0, _ = best(lambda: run_experiment(schemes, ExperimentConfig(shuffles=0)), args.repeat)
    t_ted0g, c_ted0g, _ = best(lambda: run_experiment(golds, ExperimentConfig(shuffles=0)), args.repeat)
    t_ted, c_ted, _ = best(lambda: run_experiment(schemes, ExperimentConfig()), 1)
    for what, t, c in (
        ("3 parses, no shuffles", t_ted0, c_ted0),
        ("5 parses incl. the golds, no shuffles", t_ted0g, c_ted0g),
        ("3 parses, 10,000 shuffles per pair and row (the command's default)", t_ted, c_ted),
    ):
        print(
            f"tedeval experiment, {what}: {t:.2f} s wall, {c:.2f} s CPU; atlas / that: "
            f"{t_atlas / t:.2f} (wall), {c_atlas / c:.2f} (CPU)"
        )

    parses = [p for _, p in PARSES]
    t_rank, c_rank, _ = best(
        lambda: rank_parses(result, run, RankingConfig(shuffles=10_000, seed=0), parses=parses), 1
    )
    print(f"ranking (17 rows x 3 pairs, 10,000 shuffles each): {t_rank:.2f} s ({c_rank:.2f} s CPU)")

    scheme_args = []
    for s in ("ud", "sud"):
        scheme_args += ["--scheme", s, str(FR / f"fr_gsd-{s}-test.r2.16.conllu.gz")]
        scheme_args += [f"{p}={FR / 'parses' / f'fr_gsd-test.{p}.conllu.gz'}" for ps, p in PARSES if ps == s]
    w_atlas = min(
        command(["atlas", *scheme_args, "--no-ranking", "--format", "json"]) for _ in range(args.repeat)
    )
    w_ted = command(["tedeval", *scheme_args, "--format", "json"])
    w_ted0 = min(
        command(["tedeval", *scheme_args, "--shuffles", "0", "--format", "json"]) for _ in range(args.repeat)
    )
    print(
        f"subprocess (wall / CPU s): evalcore atlas --no-ranking {w_atlas[0]:.2f} / {w_atlas[1]:.2f}; "
        f"evalcore tedeval {w_ted[0]:.2f} / {w_ted[1]:.2f}; tedeval --shuffles 0 {w_ted0[0]:.2f} / "
        f"{w_ted0[1]:.2f}; atlas / tedeval = {w_atlas[0] / w_ted[0]:.2f} / {w_atlas[1] / w_ted[1]:.2f}, "
        f"atlas / tedeval --shuffles 0 = {w_atlas[0] / w_ted0[0]:.2f} / {w_atlas[1] / w_ted0[1]:.2f}"
    )


if __name__ == "__main__":
    main()
