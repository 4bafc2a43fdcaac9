"""The faces of one family against each other: ``evalcore parseval`` (the command line),
``evalcore.parseval`` (the API) and batch's parseval job, on the WSJ sample repeated N times, as
CPU time in one run (docs/architecture.md: every face calls the family's ``run``).

    python benchmarks/bench_faces.py [--scale 3] [--rounds 5] [--baseline DIR]

The pair is ``bench_parseval.py``'s: the 1,920 WSJ trees of ``../shared/data/ptb_wsj_sample``
(one per line) against their seed-1 perturbation (``tests/wsj_perturb.py``), each repeated
``--scale`` times, with ``COLLINS.prm`` (``--max-error 100000`` on the command line and in the
API; batch takes the parameter file's own).  Each face runs as a subprocess (interpreter start-up
included) and its CPU time (user + system, ``os.wait4``) is measured; the faces take turns within
each of ``--rounds`` rounds (paired), and the median CPU and the median of each round's ratio to
the command line are printed, with every face's F1 (they must agree).

``--baseline DIR``: also time the same faces on the tree in ``DIR`` (e.g. ``git archive`` of an
earlier commit), in the same rounds: before and after, paired.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "tests"))

from wsj_perturb import write_pair  # noqa: E402

API = """
import sys, evalcore
r = evalcore.parseval(sys.argv[1], sys.argv[2], prm=sys.argv[3], max_error=100000{keep})
print(f"{{100 * r.all.f1:.2f}}")
"""

BATCH = """
import sys
from evalcore.batch import GoldEntry, Manifest, SystemEntry, run_batch
from evalcore.limits import Limits
gold = GoldEntry("wsj", sys.argv[1], 1, (SystemEntry("sys", sys.argv[2], 2),), ("parseval",), sys.argv[3])
rows = run_batch(Manifest("bench.toml", (gold,)), Limits())
print(f"{100 * next(r.value for r in rows if r.score == 'f1'):.2f}")
"""


def faces(gold: Path, test: Path, prm: Path) -> dict[str, list[str]]:
    """Each face's command line; its standard output ends with F1 (in %, two decimals)."""
    files = [str(gold), str(test), str(prm)]
    return {
        "evalcore parseval": [
            *(sys.executable, "-m", "evalcore", "parseval", *files[:2]),
            *("--prm", files[2], "--max-error", "100000", "--format", "json"),
        ],
        "evalcore.parseval": [sys.executable, "-c", API.format(keep=""), *files],
        "evalcore.parseval (keep)": [sys.executable, "-c", API.format(keep=", keep_sentences=True"), *files],
        "batch parseval": [sys.executable, "-c", BATCH, *files],
    }


def timed(argv: list[str], tree: Path) -> tuple[float, str]:
    """CPU seconds (user + system) of one run in ``tree``, and the F1 it printed."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.Popen(argv, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:5])} failed in {tree}")
    if out.lstrip().startswith("{"):  # the command's JSON: its -- All -- F1
        return usage.ru_utime + usage.ru_stime, f"{100 * json.loads(out)['all']['f1']:.2f}"
    return usage.ru_utime + usage.ru_stime, out.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", type=Path, help="another tree of the project to time the same way")
    args = ap.parse_args()
    if not (SHARED / "ptb_wsj_sample").is_dir():
        raise SystemExit(f"{SHARED / 'ptb_wsj_sample'} is absent: the WSJ sample is not shipped")
    trees = {"": ROOT} | ({"before: ": args.baseline.resolve()} if args.baseline else {})
    prm = ROOT / "assets" / "evalb" / "COLLINS.prm"
    cpu: dict[str, list[float]] = {}
    ratio: dict[str, list[float]] = {}
    f1: dict[str, set[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        gold1, test1 = write_pair(SHARED, d, 1)
        gold, test = d / "gold", d / "test"
        gold.write_bytes(gold1.read_bytes() * args.scale)
        test.write_bytes(test1.read_bytes() * args.scale)
        runs = [
            (tag + face, tree, argv)
            for tag, tree in trees.items()
            for face, argv in faces(gold, test, prm).items()
        ]
        for r in range(args.rounds):
            this: dict[str, float] = {}
            for name, tree, argv in runs[r % len(runs) :] + runs[: r % len(runs)]:  # each starts a round
                seconds, score = timed(argv, tree)
                this[name] = seconds
                cpu.setdefault(name, []).append(seconds)
                f1.setdefault(name, set()).add(score)
            for name, seconds in this.items():
                cli = "before: evalcore parseval" if name.startswith("before: ") else "evalcore parseval"
                ratio.setdefault(name, []).append(seconds / this[cli])
    print(f"WSJ sample x{args.scale} (seed-1 perturbation), COLLINS.prm, {args.rounds} rounds, CPU seconds")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; Python {sys.version.split()[0]}")
    print(f"{'face':<36} {'median CPU':>10} {'/ command':>10}  F1")
    for name, values in cpu.items():
        print(
            f"{name:<36} {statistics.median(values):>9.2f}s {statistics.median(ratio[name]):>9.2f}x"
            f"  {', '.join(sorted(f1[name]))}"
        )


if __name__ == "__main__":
    main()
