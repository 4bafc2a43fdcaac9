"""The CoNLL 2018 shared task in batch (docs/batch.md, "Parses of raw text"): ``evalcore batch
docs/examples/conll2018.toml`` (9 systems of he_htb, fr_gsd, en_ewt; every score with a bootstrap
interval, every pair tested) on ``--jobs 2`` and on a Dask ``LocalCluster`` of two worker
processes, against the reference scorer alone (``conll18_ud_eval.py`` on the 9 pairs one after
the other: the scores only, no intervals and no tests), as wall time in one run.

    python benchmarks/bench_batch_conll18.py [--rounds 3] [--scorer PATH/conll18_ud_eval.py]

The three take turns within each round (paired); the medians and the median of each round's
ratio to the scorer are printed, and the two batch tables must be the same, byte for byte (CSV).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "docs" / "examples" / "conll2018.toml"
CONLL2018 = ROOT.parent / "shared" / "data" / "parser_outputs" / "conll2018"
SCORER = Path("/work/reftools/conll2018/conll18_ud_eval.py")


def _wall(run: Callable[[], str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = run()
    return time.perf_counter() - start, out


def _batch(*flags: str) -> Callable[[], str]:
    argv = [sys.executable, "-m", "evalcore", "batch", str(MANIFEST), "--format", "csv", *flags]
    return lambda: subprocess.run(argv, check=True, capture_output=True, text=True, cwd=ROOT).stdout


def _scorer(scorer: Path, pairs: list[tuple[Path, Path]]) -> Callable[[], str]:
    def run() -> str:
        return "".join(
            subprocess.run(
                [sys.executable, str(scorer), str(g), str(s)], check=True, capture_output=True, text=True
            ).stdout
            for g, s in pairs
        )

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scorer", type=Path, default=SCORER)
    args = parser.parse_args()
    from distributed import LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        pairs = []
        for gz in sorted(CONLL2018.glob("*/*.conllu.gz")):
            if gz.name.startswith(("gold.", "blind-input")):
                continue
            plain = Path(tmp) / gz.name.removesuffix(".gz")
            plain.write_bytes(gzip.decompress(gz.read_bytes()))
            gold = Path(tmp) / f"gold.{gz.parent.name}.conllu"
            if not gold.exists():
                gold.write_bytes(
                    gzip.decompress((gz.parent / f"gold.{gz.parent.name}.conllu.gz").read_bytes())
                )
            pairs.append((gold, plain))
        with LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            runs = {
                "conll18_ud_eval.py x9": _scorer(args.scorer, pairs),
                "batch --jobs 2": _batch("--jobs", "2"),
                "batch --dask LocalCluster(2)": _batch("--dask", cluster.scheduler_address),
            }
            times: dict[str, list[float]] = {name: [] for name in runs}
            for _ in range(args.rounds):
                tables = {}
                for name, run in runs.items():
                    seconds, tables[name] = _wall(run)
                    times[name].append(seconds)
                assert tables["batch --jobs 2"] == tables["batch --dask LocalCluster(2)"], "tables differ"
    base = times["conll18_ud_eval.py x9"]
    print(f"{len(pairs)} system outputs, {args.rounds} rounds; the two batch tables are the same")
    for name, ts in times.items():
        ratio = statistics.median(t / b for t, b in zip(ts, base, strict=True))
        print(f"{name:32s} median {statistics.median(ts):6.2f} s wall  {ratio:5.2f}x the scorer")


if __name__ == "__main__":
    main()
