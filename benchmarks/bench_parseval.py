"""``evalcore parseval`` against the compiled evalb on the WSJ sample repeated N times, in every
line form and with every shipped parameter file (target: within 5x of evalb's CPU at x10).

    python benchmarks/bench_parseval.py [--evalb PATH] [--build LABEL] [--scale 10] [--repeat 3]
                                        [--forms spaced,glued,bare] [--prm COLLINS.prm,new.prm,sample.prm]
                                        [--baseline DIR] [--instructions]

The pair is the one ``tests/test_reference_tools.py`` compares byte for byte: the 1,920 WSJ trees
of ``../shared/data/ptb_wsj_sample`` (one per line) against their seed-1 perturbation
(``tests/wsj_perturb.py``), each file repeated ``--scale`` times, written to a temporary folder
(never the repository), in three line forms:

* ``spaced``: as the perturbation writes it, ``( (S ...))`` (a blank after the outer ``(``);
* ``glued``: ``((S ...))``, the same trees with no blank after the outer ``(``;
* ``bare``: ``(S ...)``, the outer unlabeled bracket removed.

For each form and each parameter file of ``assets/evalb`` (``COLLINS.prm``, ``new.prm``,
``sample/sample.prm``) both tools run as subprocesses with ``-e 100000``; printed: best wall time and
the CPU time of that run (``os.wait4``), the CPU ratio, and whether the two reports are
byte-identical.  ``--baseline DIR`` also times the same command from another tree (e.g.
``git archive main | tar -x -C /tmp/base``) right after evalcore in each row: a before/after pair in
one run (the CPU time of this shared machine varies twofold with its load; the pair does not).

The reference is evalb compiled with ``gcc -O2`` (``--build`` names the build in the output; the
default binary is ``/work/reftools/EVALB/evalb_O2`` or ``$EVALB``).  evalb's Makefile builds with
no optimisation, which is about half as fast: a ratio against that build flatters evalcore.  evalb
is not shipped: compile ``evalb.c`` from its distribution (``gcc -O2 -o evalb_O2 evalb.c``).

``--instructions`` counts instructions instead of timing (valgrind's ``cachegrind``, which the load
of a shared machine does not change): each row is run at x1 and at x2, and the count at ``--scale``
is ``I(x1) + (scale - 1) x (I(x2) - I(x1))`` (start-up and the first reading once, then the cost of
one more copy of the data: the memory of gaps read makes the first copy dearer than the others).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
SAMPLE = ROOT / "assets" / "evalb" / "sample"
WARM = [sys.executable, "-m", "evalcore", "parseval", str(SAMPLE / "sample.gld"), str(SAMPLE / "sample.tst")]
"""A small run before the timed ones: writes (or loads) the byte-code."""
sys.path.insert(0, str(ROOT / "tests"))

from wsj_perturb import write_pair  # noqa: E402

PRMS = {
    "COLLINS.prm": ROOT / "assets" / "evalb" / "COLLINS.prm",
    "new.prm": ROOT / "assets" / "evalb" / "new.prm",
    "sample.prm": ROOT / "assets" / "evalb" / "sample" / "sample.prm",
}
_OUTER = re.compile(r"^\( (\(.*\))\)$")


def reform(line: str, form: str) -> str:
    """One line of the pair in ``form`` (the perturbation writes ``spaced``)."""
    if form == "glued":
        return "((" + line[3:] if line.startswith("( (") else line
    if form == "bare":
        m = _OUTER.match(line)
        return m.group(1) if m else line
    return line


def timed(argv: list[str], out: Path, env: dict[str, str], cwd: Path = ROOT) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run, its standard output written to ``out``."""
    with out.open("wb") as sink:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=sink, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def best(
    argv: list[str], out: Path, repeat: int, env: dict[str, str], cwd: Path = ROOT
) -> tuple[float, float]:
    """The run of least CPU among ``repeat`` runs."""
    return min((timed(argv, out, env, cwd) for _ in range(repeat)), key=lambda wc: wc[1])


def instructions(argv: list[str], out: Path, env: dict[str, str], cwd: Path = ROOT) -> int:
    """Instructions of one run under valgrind's ``cachegrind`` (no cache simulation), its standard
    output written to ``out``."""
    log = out.with_suffix(".cg")
    grind = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    timed([*grind, f"--log-file={log}", *argv], out, env, cwd)
    found = re.search(r"I\s+refs:\s+([\d,]+)", log.read_text(encoding="utf-8"))
    if found is None:
        raise SystemExit(f"no instruction count in {log}")
    return int(found.group(1).replace(",", ""))


def write_form(gold1: Path, test1: Path, d: Path, form: str, scale: int) -> tuple[Path, Path]:
    """The pair in line form ``form``, each file repeated ``scale`` times."""
    gold, test = d / f"gold.{form}.x{scale}", d / f"test.{form}.x{scale}"
    for src, dst in ((gold1, gold), (test1, test)):
        lines = src.read_text(encoding="utf-8").splitlines()
        dst.write_text("".join(reform(x, form) + "\n" for x in lines) * scale, encoding="utf-8")
    return gold, test


def count_rows(args: argparse.Namespace, d: Path, env: dict[str, str], gold1: Path, test1: Path) -> None:
    """``--instructions``: each row's instructions at x1 and x2, extrapolated to ``--scale``
    (with ``--baseline``, that tree's too)."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (cachegrind)")
    at = f"x{args.scale}"
    head = f"{'form':<7} {'prm':<12} {'evalb x1/x2':>13} {at:>6} {'evalcore x1/x2':>15} {at:>6}"
    head += f" {'ratio':>6}  same"
    print(
        head
        + (f"  {'baseline x1/x2':>15} {at:>6} {'ratio':>6}" if args.baseline else "")
        + "  (M instructions)"
    )
    tools = {"evalb": env, "evalcore": env}
    if args.baseline:
        tools["baseline"] = {**env, "PYTHONPATH": str(args.baseline.resolve())}
        timed(WARM, d / "warm.out", tools["baseline"], args.baseline)  # the baseline's byte-code
    worst = 0.0
    for form in args.forms.split(","):
        pairs = [write_form(gold1, test1, d, form, k) for k in (1, 2)]
        for name in args.prm.split(","):
            prm = PRMS[name]
            counts: dict[str, list[int]] = {tool: [] for tool in tools}
            same = True
            for gold, test in pairs:
                ec = [sys.executable, "-m", "evalcore", "parseval", str(gold), str(test)]
                argv = {
                    "evalb": [args.evalb, "-e", "100000", "-p", str(prm), str(gold), str(test)],
                    "evalcore": [*ec, "--prm", str(prm), "--max-error", "100000"],
                }
                argv["baseline"] = argv["evalcore"]
                for tool, tool_env in tools.items():
                    cwd = args.baseline if tool == "baseline" else ROOT
                    counts[tool].append(instructions(argv[tool], d / f"{tool}.out", tool_env, cwd))
                    same = same and (d / f"{tool}.out").read_bytes() == (d / "evalb.out").read_bytes()
            scaled = {tool: x1 + (args.scale - 1) * (x2 - x1) for tool, (x1, x2) in counts.items()}
            cells = [
                f"{counts[t][0] / 1e6:>6,.0f}/{counts[t][1] / 1e6:>6,.0f} {scaled[t] / 1e6:>6,.0f}"
                for t in ("evalb", "evalcore", "baseline")
                if t in tools
            ]
            ratios = {t: scaled[t] / scaled["evalb"] for t in tools}
            worst = max(worst, ratios["evalcore"])
            row = f"{form:<7} {name:<12} {cells[0]:>20} {cells[1]:>22} {ratios['evalcore']:>5.2f}x  "
            row += "yes " if same else "NO  "
            if args.baseline:
                row += f"  {cells[2]:>22} {ratios['baseline']:>5.2f}x"
            print(row, flush=True)
    print(f"worst instruction ratio at {at}: {worst:.2f}x (target: <= 5x evalb built with {args.build})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.environ.get("EVALB", "/work/reftools/EVALB/evalb_O2")
    ap.add_argument("--evalb", default=default, help="the compiled evalb (default: %(default)s)")
    ap.add_argument("--build", default="gcc -O2", help="how that evalb was built (printed)")
    ap.add_argument("--scale", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--forms", default="spaced,glued,bare")
    ap.add_argument("--prm", default=",".join(PRMS))
    ap.add_argument("--baseline", type=Path, help="another evalcore tree, timed in the same rows")
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions (cachegrind, x1 and x2) instead of timing",
    )
    args = ap.parse_args()
    if not Path(args.evalb).is_file():
        raise SystemExit("pass --evalb PATH (or set $EVALB): evalb compiled from its C source")
    if not (SHARED / "ptb_wsj_sample").is_dir():
        raise SystemExit(f"{SHARED / 'ptb_wsj_sample'} is absent: the WSJ sample is not shipped")
    forms = args.forms.split(",")
    prms = args.prm.split(",")
    print(f"WSJ sample x{args.scale} (seed-1 perturbation), best of {args.repeat} (least CPU)")
    print(f"evalb: {args.evalb} (built with {args.build})")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; Python {sys.version.split()[0]}")
    if args.instructions:
        print("instructions (valgrind cachegrind), extrapolated from x1 and x2")
    head = f"{'form':<7} {'prm':<12} {'evalb wall/CPU':>15} {'evalcore wall/CPU':>18} {'CPU ratio':>9}  same"
    if args.baseline:
        head += f"  {'baseline CPU':>12} {'ratio':>6}"
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        # byte-code written and loaded, as an installed package does (bench_startup.py: this
        # machine's sessions set PYTHONDONTWRITEBYTECODE=1, which recompiles evalcore every run)
        env = {**os.environ, "PYTHONPYCACHEPREFIX": str(d / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        timed(WARM, d / "warm.out", env)  # writes the byte-code
        gold1, test1 = write_pair(SHARED, d, 1)
        if args.instructions:
            count_rows(args, d, env, gold1, test1)
            return
        print(head)
        for form in forms:
            gold, test = write_form(gold1, test1, d, form, args.scale)
            for name in prms:
                prm = PRMS[name]
                ev = [args.evalb, "-e", "100000", "-p", str(prm), str(gold), str(test)]
                ec = [sys.executable, "-m", "evalcore", "parseval", str(gold), str(test)]
                ec += ["--prm", str(prm), "--max-error", "100000"]
                ev_wall, ev_cpu = best(ev, d / "evalb.out", args.repeat, env)
                ec_wall, ec_cpu = best(ec, d / "evalcore.out", args.repeat, env)
                same = (d / "evalb.out").read_bytes() == (d / "evalcore.out").read_bytes()
                ratio = ec_cpu / ev_cpu
                worst = max(worst, ratio)
                row = (
                    f"{form:<7} {name:<12} {ev_wall:>6.2f}s/{ev_cpu:>5.2f}s {ec_wall:>8.2f}s/{ec_cpu:>6.2f}s "
                    f"{ratio:>8.1f}x  {'yes' if same else 'NO'} "
                )
                if args.baseline:
                    base_env = {**env, "PYTHONPATH": str(args.baseline.resolve())}
                    _, base_cpu = best(ec, d / "base.out", args.repeat, base_env, args.baseline)
                    row += f"  {base_cpu:>11.2f}s {base_cpu / ev_cpu:>5.1f}x"
                print(row, flush=True)
    print(f"worst CPU ratio: {worst:.1f}x (target: <= 5x the CPU of evalb built with {args.build})")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
