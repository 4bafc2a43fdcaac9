"""Time and peak memory of ``evalcore.metrics.conll18`` against the CoNLL 2018 scorer, same files.

    python benchmarks/bench_conll18.py --scorer PATH/conll18_ud_eval.py [--scale 1 5 10 50] [--repeat N] \
        [--pair spacy] [--no-scorer-above N]

Pairs (from ../shared/data): English-EWT test against UDPipe-Future's CoNLL 2018 output (parsed
from raw text: tokens, words and sentences differ), and against spaCy's parse of the raw text.
Each file is decompressed into a scratch folder and repeated ``--scale`` times (the alignment
then runs over a document ``scale`` times as long).

Three programs read the same two files: the library (``evaluate_conll18`` and the scorer's
table), the command ``evalcore attach GOLD SYSTEM`` (default text output: it tries the
same-token path, meets the first differing sentence and falls back to the character alignment,
with full DEPRELs), and the scorer ``conll18_ud_eval.py -v``.

Each run is a fresh subprocess (interpreter start-up included, as a shell user sees it); the
figures are the best wall-clock time of ``--repeat`` runs and the peak resident memory
(``ru_maxrss``) of that process.  Also checks that both print the same ``-v`` table.  Printed per
pair and size: the library's time over the scorer's (``ratio``) and the command's (``attach x``:
how many times faster ``evalcore attach`` is than the scorer; it must be > 1 at every size
from x1 to x50).
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"

OURS = (
    "import sys\n"
    "from evalcore.metrics.conll18 import evaluate_conll18\n"
    "from evalcore.report.conll18 import format_conll18_table\n"
    "print(format_conll18_table(evaluate_conll18(sys.argv[1], sys.argv[2]).scores))\n"
)


def attach_command(gold: Path, system: Path) -> list[str]:
    """``evalcore attach GOLD SYSTEM``, the default text output (the aligned path for these pairs)."""
    return [sys.executable, "-m", "evalcore", "attach", str(gold), str(system)]


def pairs() -> list[tuple[str, Path, Path]]:
    gold = SHARED / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
    shared_task = SHARED / "parser_outputs" / "conll2018" / "en_ewt"
    spacy = SHARED / "parser_outputs" / "spacy_en_ewt_test"
    return [
        (
            "EWT vs UDPipe-Future (raw text)",
            shared_task / "gold.en_ewt.conllu.gz",
            shared_task / "UDPipe-Future.en_ewt.conllu.gz",
        ),
        ("EWT vs spaCy (raw text)", gold, spacy / "en_ewt-ud-test.spacy-sm.raw.conllu"),
    ]


def repeated(src: Path, dst: Path, scale: int) -> Path:
    data = gzip.decompress(src.read_bytes()) if src.suffix == ".gz" else src.read_bytes()
    with dst.open("wb") as f:
        for _ in range(scale):
            f.write(data)
    return dst


def run_measured(cmd: list[str]) -> tuple[float, float, str]:
    """Wall-clock seconds, peak RSS (MiB, of that process alone) and stdout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f:
        proc = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out_f.seek(0)
        err_f.seek(0)
        out, err = out_f.read().decode(), err_f.read().decode()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err}")
    return seconds, usage.ru_maxrss / 1024, out


def best(repeat: int, cmd: list[str]) -> tuple[float, float, str]:
    runs = [run_measured(cmd) for _ in range(repeat)]
    return min(r[0] for r in runs), max(r[1] for r in runs), runs[-1][2]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scorer", type=Path, default=os.environ.get("CONLL18_UD_EVAL"), required=False)
    ap.add_argument(
        "--scale", type=int, nargs="+", default=[1, 5, 10, 50], help="repeat each file this many times"
    )
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best time is kept")
    ap.add_argument("--no-scorer-above", type=int, default=10**9, help="skip the scorer above this scale")
    ap.add_argument("--pair", default="", help="only the pairs whose name contains this (e.g. spaCy)")
    args = ap.parse_args()
    if not SHARED.is_dir():
        print(f"skipped: {SHARED} not found (the benchmark reads ../shared/data)")
        return 0
    scorer: Path | None = args.scorer
    if scorer is None or not Path(scorer).is_file():
        print("the CoNLL 2018 scorer was not given (--scorer PATH/conll18_ud_eval.py): evalcore only\n")
        scorer = None
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, best of {args.repeat}"
    )
    print(
        f"{'pair':34} {'scale':>5}  {'evalcore':>9} {'MiB':>6}  {'attach':>9} {'MiB':>6}  "
        f"{'scorer':>9} {'MiB':>6}  ratio  attach x  same table"
    )
    with tempfile.TemporaryDirectory(prefix="bench-conll18-") as tmp:
        for name, gold_src, system_src in pairs():
            if args.pair.lower() not in name.lower():
                continue
            for scale in args.scale:
                gold = repeated(gold_src, Path(tmp) / f"gold.{scale}.conllu", scale)
                system = repeated(system_src, Path(tmp) / f"system.{scale}.conllu", scale)
                t_ours, m_ours, out_ours = best(
                    args.repeat, [sys.executable, "-c", OURS, str(gold), str(system)]
                )
                t_cli, m_cli, out_cli = best(args.repeat, attach_command(gold, system))
                if not out_cli.startswith("aligned by characters"):
                    raise SystemExit(f"evalcore attach did not take the aligned path:\n{out_cli[:500]}")
                if scorer is not None and scale <= args.no_scorer_above:
                    t_ref, m_ref, out_ref = best(
                        args.repeat, [sys.executable, str(scorer), "-v", str(gold), str(system)]
                    )
                    same = "yes" if out_ref == out_ours else "NO"
                    ref = f"{t_ref:8.2f}s {m_ref:6.0f}  {t_ref / t_ours:4.1f}x  {t_ref / t_cli:7.2f}x  {same}"
                else:
                    ref = f"{'-':>9} {'-':>6}  {'-':>5}  {'-':>8}  -"
                print(
                    f"{name:34} {scale:>5}  {t_ours:8.2f}s {m_ours:6.0f}  {t_cli:8.2f}s {m_cli:6.0f}  {ref}",
                    flush=True,
                )
                gold.unlink()
                system.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
