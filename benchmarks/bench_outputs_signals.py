"""The reproducers of the outputs and messages, and how fast each command stops after a signal with
every process it started (docs/robustness.md).

    python benchmarks/bench_outputs_signals.py [--repeat N] [--only NAME ...] [--skip-signals]

First every refused run of ``tests/outputs_signals.py: REPRODUCERS`` (an input as the output, a
full disk, a negative seed, a manifest nested too deeply, an unreachable Dask scheduler, ...),
each in a child capped at 500 MiB of address space: exit code, seconds, peak resident memory (the
child's own VmHWM; the batch workers' are not counted).  Target: exit 2, one line, 10 s.

For ``batch --jobs 2`` (a French-GSD manifest: a TedEval job and five systems' attachment scores
and paired tests; the command, the resource tracker and two workers), ``tedeval`` (French-GSD, two
schemes, three parses) and ``evalcore app`` (Streamlit, once it answers its health check): SIGINT
to the process group (as Ctrl-C sends it), SIGTERM to the command alone, SIGKILL to the command
alone.  Prints the seconds from the signal until the command ended and until every process it
started was gone (found by an environment variable they inherit), the processes there were, the
exit code and the processes left after 60 s (orphans).  Target: 2 s, no orphan.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from outputs_signals import REPRODUCERS, SIGNAL_CASES, one_line_problems, run_evalcore, stop_case  # noqa: E402

TARGET = 2.0
REPRODUCER_TARGET = 10.0
SIGNALS = ((signal.SIGINT, True), (signal.SIGTERM, False), (signal.SIGKILL, False))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each case (default 3; median shown)")
    ap.add_argument("--only", nargs="*", default=[], help="signal cases: batch-jobs-2, tedeval, app")
    ap.add_argument("--skip-signals", action="store_true", help="the reproducers only")
    args = ap.parse_args()
    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f} at start; {args.repeat} runs each, median (max)"
    )
    failures = reproducers()
    if args.skip_signals:
        return 1 if failures else 0
    print("\n| command | signal | to | processes | exit | command gone (s) | all gone (s) | orphans |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for case in SIGNAL_CASES:
        if args.only and case.name not in args.only:
            continue
        for sig, group in SIGNALS:
            runs = [stop_case(case, sig, group) for _ in range(args.repeat)]
            command = [r.seconds_command for r in runs]
            every = [r.seconds_all for r in runs]
            orphans = max(len(r.left) for r in runs)
            codes = sorted({r.code for r in runs}, key=str)
            ok = orphans == 0 and max(every) <= TARGET
            failures += not ok
            print(
                f"| {case.name} | {sig.name} | {'group' if group else 'command'} | "
                f"{max(r.processes_before for r in runs)} | {', '.join(map(str, codes))} | "
                f"{statistics.median(command):.2f} ({max(command):.2f}) | "
                f"{statistics.median(every):.2f} ({max(every):.2f}) | {orphans} |" + ("" if ok else " FAIL")
            )
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 1 if failures else 0


def reproducers() -> int:
    print("\n| case | what | exit | seconds | peak RSS (MiB) | |")
    print("|---|---|---:|---:|---:|---|")
    failures = 0
    for case in REPRODUCERS:
        with tempfile.TemporaryDirectory(prefix="evalcore-repro-") as tmp:
            folder = Path(tmp) / "case"
            folder.mkdir()
            argv, options = case.make(folder)
            done = run_evalcore(argv, **options)  # type: ignore[arg-type]
        problems = one_line_problems(done)
        failures += bool(problems) or done.seconds > REPRODUCER_TARGET
        mark = "ok" if not problems and done.seconds <= REPRODUCER_TARGET else "FAIL " + "; ".join(problems)
        print(
            f"| {case.name} | {case.what} | {done.code} | {done.seconds:.2f} | {done.peak_mib:.0f} | {mark} |"
        )
    return failures


if __name__ == "__main__":
    raise SystemExit(main())
