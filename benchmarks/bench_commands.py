"""No command slower: each command on the shipped or real data, this tree against an earlier one,
as CPU time in the same rounds (paired).

    python benchmarks/bench_commands.py --baseline DIR [--rounds 5] [--only NAME ...] [--instructions]

``DIR`` is an earlier tree (``git archive 7b2eaa3 | tar -x -C /tmp/base``: before the registry of
metric families, docs/architecture.md).  Each command runs as a subprocess with ``PYTHONPATH`` set
to one tree or the other, the two taking turns within each round; its CPU time (user + system,
``os.wait4``) is measured and both outputs must be byte-identical.  Printed: the median CPU of
each tree and the median of each round's ratio (this tree / the baseline).  ``--instructions``
counts each command's instructions once per tree instead (valgrind's ``cachegrind``, as
``bench_parseval.py --instructions``): the load of a shared machine does not change them.

The commands: ``tedeval`` on the French GSD test (UD and SUD, three spaCy parses, 1,000 trials),
``attach`` (EWT test, UD v2 gold against spaCy), ``parseval`` and ``freval`` (the WSJ sample against
its seed-1 perturbation, ``bench_parseval.py``'s pair; FREVAL on FarPaHC split 0), ``atlas`` (the
French GSD test's two schemes and parses, 1,000 trials), and the CoNLL 2018 shared task's raw-text
parses (``../shared/data/parser_outputs/conll2018``, UDPipe-Future against the gold):
``attach --format conll18`` on English EWT and French GSD, plain ``attach`` on French GSD.

The subprocesses run in a temporary folder: ``python -m`` puts the current folder first on
``sys.path``, so run from a checkout they would import that checkout's evalcore, not ``DIR``'s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
SHARED = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "tests"))

from bench_parseval import instructions  # noqa: E402
from wsj_perturb import write_pair  # noqa: E402

FR = ASSETS / "fr_gsd"
FR_SCHEMES = [
    *("--scheme", "ud", str(FR / "fr_gsd-ud-test.r2.16.conllu.gz")),
    f"spacy-ud={FR / 'parses' / 'fr_gsd-test.spacy-ud.conllu.gz'}",
    f"spacy-ud1={FR / 'parses' / 'fr_gsd-test.spacy-ud-seed1.conllu.gz'}",
    *("--scheme", "sud", str(FR / "fr_gsd-sud-test.r2.16.conllu.gz")),
    f"spacy-sud={FR / 'parses' / 'fr_gsd-test.spacy-sud.conllu.gz'}",
]
EWT = ASSETS / "en_ewt"
FAR = ASSETS / "farpahc"
CONLL18 = SHARED / "parser_outputs" / "conll2018"


def commands(wsj: tuple[Path, Path]) -> dict[str, list[str]]:
    """Each benchmarked command line (after ``python -m evalcore``)."""
    gold, test = map(str, wsj)
    ewt = sorted(EWT.rglob("*.conllu*"))
    ewt_gold = next(str(p) for p in ewt if "ud-test" in p.name and "r2" in p.name)
    ewt_spacy = next(str(p) for p in ewt if "spacy" in p.name)
    prm = str(ASSETS / "evalb" / "COLLINS.prm")
    return {
        "tedeval (French GSD test)": ["tedeval", *FR_SCHEMES, "--shuffles", "1000"],
        "attach (EWT test, spaCy)": ["attach", ewt_gold, ewt_spacy, "--format", "json"],
        "parseval (WSJ sample)": ["parseval", gold, test, "--prm", prm, "--max-error", "100000"],
        "freval (FarPaHC split 0)": [
            "freval",
            str(FAR / "far_split0testing.oneline.psd.gz"),
            str(FAR / "far_split0machineparsed.psd.gz"),
            "--prm",
            str(FAR / "sample.prm.as_used_for_far0eval"),
            "--function-separators=-=*",
        ],
        "atlas (French GSD test)": ["atlas", *FR_SCHEMES, "--shuffles", "1000"],
        **{
            f"attach{' --format conll18' * conll18} ({lang}, UDPipe-Future)": [
                "attach",
                *(["--format", "conll18"] * conll18),
                str(CONLL18 / lang / f"gold.{lang}.conllu.gz"),
                str(CONLL18 / lang / f"UDPipe-Future.{lang}.conllu.gz"),
                *(["--format", "json"] * (not conll18)),
            ]
            for lang, conll18 in (("en_ewt", True), ("fr_gsd", True), ("fr_gsd", False))
        },
    }


FULL_LABELS = ("--labels", "full")
"""Given to this tree's plain ``attach`` runs: the default relation labels on CoNLL-U became the
CoNLL 2018 scorer's universal part on purpose (docs/attachment.md, "Relation labels"), and a tree
from before that compares full labels; asked for them, this tree prints the same document."""


def this_tree_argv(argv: list[str]) -> list[str]:
    """``argv`` as this tree runs it (:data:`FULL_LABELS` for a plain ``attach``)."""
    plain_attach = argv[0] == "attach" and "conll18" not in argv
    return [*argv, *FULL_LABELS] if plain_attach else argv


def tree_env(tree: Path) -> dict[str, str]:
    """The environment of a run importing evalcore from ``tree``, with its bytecode compiled once
    (:func:`compile_trees`): a machine that sets ``PYTHONDONTWRITEBYTECODE`` would otherwise
    compile every module on every run, and a tree with more source would pay for it in each."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {
        **env,
        "PYTHONPATH": str(tree),
        "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "bench_pyc"),
    }


def compile_trees(*trees: Path) -> None:
    """Each tree's evalcore compiled to bytecode (under ``PYTHONPYCACHEPREFIX``), before any run."""
    for tree in trees:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree / "evalcore")], env=tree_env(tree), check=True
        )


def timed(tree: Path, argv: list[str]) -> tuple[float, bytes]:
    """CPU seconds of ``python -m evalcore ARGV`` importing evalcore from ``tree``, and its output."""
    env = tree_env(tree)
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "evalcore", *argv],
            stdout=out,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=tempfile.gettempdir(),  # not a checkout: its evalcore would come first on sys.path
        )
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"{tree}: evalcore {' '.join(argv[:2])} failed")
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, out.read()


def counted(tree: Path, argv: list[str], out: Path) -> tuple[float, bytes]:
    """Instructions of ``python -m evalcore ARGV`` importing evalcore from ``tree``, and its output."""
    # one BLAS thread: under valgrind the threads' spinning counts as instructions, varying twofold
    env = {**tree_env(tree), "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    n = instructions([sys.executable, "-m", "evalcore", *argv], out, env, Path(tempfile.gettempdir()))
    return n / 1e6, out.read_bytes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", type=Path, required=True, help="an earlier tree (git archive REV)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", nargs="*", help="the commands whose name starts with one of these")
    ap.add_argument("--instructions", action="store_true", help="count instructions (cachegrind), one round")
    args = ap.parse_args()
    compile_trees(args.baseline, ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        wsj = write_pair(SHARED, Path(tmp), 1)
        chosen = {k: v for k, v in commands(wsj).items() if not args.only or k.startswith(tuple(args.only))}
        rounds, unit = (1, "M instructions") if args.instructions else (args.rounds, "CPU seconds (median)")
        print(f"{rounds} rounds, {unit}; this tree {ROOT}, baseline {args.baseline}")
        print("| command | baseline | this tree | ratio (median of rounds) |\n|---|---:|---:|---:|")
        for name, argv in chosen.items():
            before, after, ratios = [], [], []
            for _ in range(rounds):
                if args.instructions:
                    b, b_out = counted(args.baseline, argv, Path(tmp) / "before.out")
                    a, a_out = counted(ROOT, this_tree_argv(argv), Path(tmp) / "after.out")
                else:
                    b, b_out = timed(args.baseline, argv)
                    a, a_out = timed(ROOT, this_tree_argv(argv))
                if a_out != b_out:
                    raise SystemExit(f"{name}: the outputs differ")
                before.append(b)
                after.append(a)
                ratios.append(a / b)
            print(
                f"| {name} | {statistics.median(before):.2f} | {statistics.median(after):.2f} "
                f"| {statistics.median(ratios):.2f}x |",
                flush=True,
            )
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
