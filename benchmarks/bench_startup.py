"""CPU time of the command line on one-sentence inputs, beyond the interpreter's own start-up
(under 80 ms for ``--help``, ``attach``, ``parseval``, ``freval``).

    python benchmarks/bench_startup.py [--repeat N] [--target-ms 80]

Each case runs N times (default 5) as a fresh ``python -m evalcore ...`` subprocess; the child's
user + system CPU time comes from ``os.wait4`` (what ``/usr/bin/time -f %U+%S`` prints).  The
baseline is ``python -c pass`` under the same interpreter, measured the same way.  Printed per case:
the median CPU, the median beyond the baseline, and that figure over the target.  CPU rather than
wall time, so that a shared machine's waiting for a core does not count.

Byte-code as an installed package has it: the children run with ``PYTHONDONTWRITEBYTECODE`` unset
and ``PYTHONPYCACHEPREFIX`` pointing into the temporary folder, so the warm-up run writes the
``.pyc`` files there (never into the repository) and the measured runs load them instead of
compiling every module again (``pip install`` compiles a wheel's modules the same way).  With
``--no-bytecode`` the environment is left as it is.

One-sentence inputs (written to a temporary folder): the first sentence of English-EWT test
(gold UD 2.16 against itself) for ``attach``, and the first tree of evalb's sample (``sample.gld``
against ``sample.tst``) for ``parseval`` and ``freval``.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"


def cpu_seconds(argv: list[str], env: dict[str, str] | None = None) -> float:
    """User + system CPU seconds of one run of ``argv`` (its output discarded)."""
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited with {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def one_sentence_inputs(folder: Path) -> dict[str, Path]:
    with gzip.open(ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz", "rt", encoding="utf-8") as f:
        first = f.read().split("\n\n", 1)[0] + "\n\n"
    conllu = folder / "one.conllu"
    conllu.write_text(first, encoding="utf-8")
    out = {"conllu": conllu}
    for name in ("gld", "tst"):
        line = (ASSETS / "evalb" / "sample" / f"sample.{name}").read_text(encoding="utf-8").splitlines()[0]
        path = folder / f"one.{name}"
        path.write_text(line + "\n", encoding="utf-8")
        out[name] = path
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--target-ms", type=float, default=80.0)
    ap.add_argument("--no-bytecode", action="store_true", help="leave PYTHONDONTWRITEBYTECODE as it is")
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        f = one_sentence_inputs(Path(tmp))
        env: dict[str, str] | None = None
        if not args.no_bytecode:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        cases: list[tuple[str, list[str]]] = [
            ("python -c pass", [py, "-c", "pass"]),
            ("evalcore --help", [py, "-m", "evalcore", "--help"]),
            ("evalcore attach", [py, "-m", "evalcore", "attach", str(f["conllu"]), str(f["conllu"])]),
            ("evalcore parseval", [py, "-m", "evalcore", "parseval", str(f["gld"]), str(f["tst"])]),
            ("evalcore freval", [py, "-m", "evalcore", "freval", str(f["gld"]), str(f["tst"])]),
        ]
        for _, argv in cases:  # warm the file cache and write the byte-code
            cpu_seconds(argv, env)
        medians = {
            name: statistics.median(cpu_seconds(a, env) for _ in range(args.repeat)) for name, a in cases
        }
    base = medians["python -c pass"]
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; Python {sys.version.split()[0]}")
    print("byte-code: " + ("as the environment says" if args.no_bytecode else "written once, then loaded"))
    head = f"CPU (median of {args.repeat})"
    print(f"{'case':<20} {head:>22} {'beyond python':>14} {'/ target':>9}")
    for name, cpu in medians.items():
        extra = cpu - base
        ratio = "" if name == "python -c pass" else f"{extra * 1000 / args.target_ms:.2f}"
        print(f"{name:<20} {cpu * 1000:>19.0f} ms {extra * 1000:>11.0f} ms {ratio:>9}")
    print(f"target: {args.target_ms:.0f} ms of CPU beyond the interpreter (ratio <= 1.00 meets it)")


if __name__ == "__main__":
    main()
