"""Every analysis on aligned words against the CoNLL 2018 scorer alone, paired, on English-EWT x10.

    python benchmarks/bench_aligned.py --scorer PATH/conll18_ud_eval.py [--scale 10] [--pairs 1]

The UDPipe-Future en_ewt output of CoNLL 2018 (parsed from raw text: its tokens, words and
sentences differ from the gold's) and its gold, each concatenated ``--scale`` times, read by

* ``evalcore attach GOLD SYSTEM --by deprel,upos,length,distance,direction,depth,nonproj
  --by deprel+length --confusion``: the scorer's rows, every breakdown, one cross-table and the
  confusion table, all on the character-aligned words (docs/attachment.md, "Every analysis on
  aligned words"), in one process;
* ``conll18_ud_eval.py -v GOLD SYSTEM``: the scorer alone (its table only).

Each run is a fresh subprocess (interpreter start-up included); the two run one after the other
(a *pair*), ``--pairs`` times, so both see the same load.  Printed: each pair's wall-clock and
CPU (user + system) times, peak memory and ratios (scorer / evalcore: > 1 means evalcore, doing
more, is faster; on a loaded machine the CPU ratio is the steadier one), and the load average
before and after.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_conll18 import ROOT, SHARED, repeated

ANALYSES = (
    "--by",
    "deprel,upos,length,distance,direction,depth,nonproj",
    "--by",
    "deprel+length",
    "--confusion",
)


def run_measured(cmd: list[str]) -> tuple[float, float, float, str]:
    """Wall-clock seconds, CPU seconds (user + system), peak RSS (MiB) of that process, stdout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f:
        proc = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        out_f.seek(0)
        err_f.seek(0)
        out, err = out_f.read().decode(), err_f.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scorer", type=Path, default=os.environ.get("CONLL18_UD_EVAL"))
    ap.add_argument("--scale", type=int, default=10, help="repeat each file this many times")
    ap.add_argument("--pairs", type=int, default=1, help="paired runs (evalcore, then the scorer)")
    args = ap.parse_args()
    folder = SHARED / "parser_outputs" / "conll2018" / "en_ewt"
    if not folder.is_dir():
        print(f"skipped: {folder} not found (the benchmark reads ../shared/data)")
        return 0
    if args.scorer is None or not Path(args.scorer).is_file():
        print("the CoNLL 2018 scorer was not given (--scorer PATH/conll18_ud_eval.py)")
        return 2
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="bench-aligned-") as tmp:
        gold = repeated(folder / "gold.en_ewt.conllu.gz", Path(tmp) / "gold.conllu", args.scale)
        system = repeated(folder / "UDPipe-Future.en_ewt.conllu.gz", Path(tmp) / "system.conllu", args.scale)
        ours = [sys.executable, "-m", "evalcore", "attach", str(gold), str(system), *ANALYSES]
        ref = [sys.executable, str(args.scorer), "-v", str(gold), str(system)]
        print(f"EWT x{args.scale}: {' '.join(ANALYSES)}")
        print(
            f"{'pair':>4}  {'evalcore':>9} {'CPU':>8} {'MiB':>6}  {'scorer':>9} {'CPU':>8} {'MiB':>6}  "
            "ratio  CPU ratio"
        )
        for k in range(1, args.pairs + 1):
            t_ours, c_ours, m_ours, out = run_measured(ours)
            if not out.startswith("aligned by characters") or "by deprel+length" not in out:
                raise SystemExit(f"evalcore attach did not give the aligned breakdowns:\n{out[:500]}")
            t_ref, c_ref, m_ref, _ = run_measured(ref)
            print(
                f"{k:>4}  {t_ours:8.2f}s {c_ours:7.2f}s {m_ours:6.0f}  "
                f"{t_ref:8.2f}s {c_ref:7.2f}s {m_ref:6.0f}  {t_ref / t_ours:5.2f}x  {c_ref / c_ours:8.2f}x",
                flush=True,
            )
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
