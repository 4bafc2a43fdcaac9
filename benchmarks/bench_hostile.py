"""Time and peak memory of every case of the hostile corpus (``CASES`` and
``SCALE_CASES``; ``docs/robustness.md``).

    python benchmarks/bench_hostile.py [--only SUBSTRING ...] [--cap MIB]

Generates each case's files (``tests/hostile_corpus.py``: small generators, into a temporary
folder), runs the command as a subprocess capped at 500 MiB of address space with a 60 s guard,
and prints its exit code, wall time and peak resident memory (the child's own ``ru_maxrss``).
Target: every case under 10 s.  A case that ends otherwise than it must is marked FAIL.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hostile_corpus import CASES, MEMORY_CAP, SCALE_CASES, problems, run_capped  # noqa: E402

TARGET = 10.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", default=[], help="run the cases whose name contains one of these")
    ap.add_argument("--cap", type=int, default=MEMORY_CAP >> 20, help="memory cap in MiB (default 500)")
    args = ap.parse_args()
    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f} at start; cap {args.cap} MiB, target {TARGET:.0f} s"
    )
    print("\n| case | what | exit | seconds | peak RSS (MiB) | |")
    print("|---|---|---:|---:|---:|---|")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="evalcore-hostile-") as tmp:
        for case in CASES + SCALE_CASES:
            if args.only and not any(o in case.name for o in args.only):
                continue
            folder = Path(tmp) / case.name.replace("/", "_")
            folder.mkdir(parents=True)
            outcome = run_capped(case.make(folder), cap=args.cap << 20)
            bad = problems(case, outcome)
            slow = outcome.seconds > TARGET
            failures += bool(bad) or slow
            note = "FAIL: " + "; ".join(bad) if bad else ("over target" if slow else "ok")
            code = "killed" if outcome.code is None else str(outcome.code)
            print(
                f"| {case.name} | {case.what} | {code} | {outcome.seconds:.2f} | {outcome.peak_mib:.0f} | "
                f"{note[:200]} |",
                flush=True,
            )
            for f in folder.iterdir():
                f.unlink()  # (a named pipe too)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
