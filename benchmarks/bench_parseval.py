"""``evalcore parseval`` against the compiled evalb on the WSJ sample repeated N times (issue 18,
part 4: within 5x of evalb's wall time at x10).

    python benchmarks/bench_parseval.py --evalb PATH/evalb [--scale 10] [--repeat 3]

The pair is the one ``tests/test_reference_tools.py`` compares byte for byte: the 1,920 WSJ trees
of ``../shared/data/ptb_wsj_sample`` (one per line) against their seed-1 perturbation
(``tests/wsj_perturb.py``), each file repeated ``--scale`` times, written to a temporary folder
(never the repository).  Both tools run as subprocesses with ``COLLINS.prm`` and ``-e 100000``;
printed: best wall time and the CPU time of that run (``os.wait4``), the ratios, and whether the
two reports are byte-identical.  evalb is not shipped: compile ``evalb.c`` (``gcc -o evalb
evalb.c``) from its distribution and pass the path (or set ``$EVALB``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "tests"))

from wsj_perturb import write_pair  # noqa: E402


def timed(argv: list[str], out: Path) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run, its standard output written to ``out``."""
    with out.open("wb") as sink:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=sink, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def best(argv: list[str], out: Path, repeat: int) -> tuple[float, float]:
    return min(timed(argv, out) for _ in range(repeat))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--evalb", default=os.environ.get("EVALB", ""), help="the compiled evalb")
    ap.add_argument("--scale", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if not args.evalb or not Path(args.evalb).is_file():
        raise SystemExit("pass --evalb PATH (or set $EVALB): evalb compiled from its C source")
    if not (SHARED / "ptb_wsj_sample").is_dir():
        raise SystemExit(f"{SHARED / 'ptb_wsj_sample'} is absent: the WSJ sample is not shipped")
    prm = ROOT / "assets" / "evalb" / "COLLINS.prm"
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        gold1, test1 = write_pair(SHARED, d, 1)
        gold, test = d / "gold", d / "test"
        gold.write_bytes(gold1.read_bytes() * args.scale)
        test.write_bytes(test1.read_bytes() * args.scale)
        ev = [args.evalb, "-e", "100000", "-p", str(prm), str(gold), str(test)]
        ec = [sys.executable, "-m", "evalcore", "parseval", str(gold), str(test)]
        ec += ["--prm", str(prm), "--max-error", "100000"]
        ev_wall, ev_cpu = best(ev, d / "evalb.out", args.repeat)
        ec_wall, ec_cpu = best(ec, d / "evalcore.out", args.repeat)
        same = (d / "evalb.out").read_bytes() == (d / "evalcore.out").read_bytes()
    print(f"WSJ sample x{args.scale} (seed-1 perturbation), COLLINS.prm, best of {args.repeat}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; Python {sys.version.split()[0]}")
    print(f"{'':<18} {'wall':>9} {'CPU':>9}")
    print(f"{'evalb':<18} {ev_wall:>8.2f}s {ev_cpu:>8.2f}s")
    print(f"{'evalcore parseval':<18} {ec_wall:>8.2f}s {ec_cpu:>8.2f}s")
    print(f"{'ratio':<18} {ec_wall / ev_wall:>8.1f}x {ec_cpu / ev_cpu:>8.1f}x   (target: <= 5x wall)")
    print(f"reports byte-identical: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
