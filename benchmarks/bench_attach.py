"""Time ``evalcore attach`` on English-EWT test (gold UD 2.16 vs spaCy on gold words).

    python benchmarks/bench_attach.py [--scorer PATH/conll18_ud_eval.py] [--repeat N]

Measures, best of N runs each:
  * in-process: read both files and score (``attach_corpus``), as a library user would;
  * subprocess: ``python -m evalcore attach GOLD SYSTEM --deprel-base --format json``,
    i.e. with interpreter start-up, as a shell user would;
  * the CoNLL 2018 shared-task scorer on the same files, the same two ways, when its
    path is given (``--scorer`` or ``$CONLL18_UD_EVAL``).  It is not shipped with
    evalcore; see benchmarks/README.md for where to get it.
Also checks that both tools print the same UAS and LAS (to two decimals).

The files are read from ../shared/data when it is there, else from the gzipped copies
in assets/en_ewt (the same sentences; reading gzip costs a little more).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evalcore.formats.conllu import read_conllu  # noqa: E402
from evalcore.metrics.attachment import AttachConfig, attach_corpus  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
T = TypeVar("T")


def ewt_pair() -> tuple[Path, Path, str]:
    gold = SHARED / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
    system = SHARED / "parser_outputs" / "spacy_en_ewt_test" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu"
    if gold.is_file() and system.is_file():
        return gold, system, "../shared/data (plain text)"
    assets = ROOT / "assets" / "en_ewt"
    return (
        assets / "en_ewt-ud-test.r2.16.conllu.gz",
        assets / "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz",
        "assets/en_ewt (gzip)",
    )


def best_of(repeat: int, fn: Callable[[], T]) -> tuple[float, T]:
    """Best wall-clock time of ``repeat`` calls, and the last call's value."""
    best = float("inf")
    value = fn()  # warm-up (file cache, imports), not timed
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def load_scorer(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("conll18_ud_eval", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the scorer from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(cmd: list[str]) -> str:
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    return proc.stdout


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--scorer",
        type=Path,
        default=os.environ.get("CONLL18_UD_EVAL"),
        help="path to conll18_ud_eval.py (default: $CONLL18_UD_EVAL); skipped when absent",
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement; the best is kept")
    args = parser.parse_args()

    gold, system, origin = ewt_pair()
    print(f"files: {origin}")
    print(f"  gold   {gold.name}\n  system {system.name}")
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores\n")
    config = AttachConfig(deprel_base=True)

    def ours() -> tuple[float, float, int]:
        r = attach_corpus(read_conllu(gold), read_conllu(system), config)
        return r.score.uas, r.score.las, r.score.tokens

    t_ours, value = best_of(args.repeat, ours)
    uas, las, tokens = value
    cli = [
        sys.executable,
        "-m",
        "evalcore",
        "attach",
        str(gold),
        str(system),
        "--deprel-base",
        "--format",
        "json",
    ]
    t_ours_cli, out = best_of(max(1, args.repeat // 2 + 1), lambda: run(cli))
    cli_json = json.loads(out)
    assert (cli_json["uas"], cli_json["las"]) == (uas, las)

    rows: list[tuple[str, float, float, str]] = []
    print(f"evalcore attach --deprel-base: UAS {100 * uas:.2f}  LAS {100 * las:.2f}  ({tokens} tokens)")

    scorer_path: Path | None = args.scorer
    if scorer_path is None or not Path(scorer_path).is_file():
        print("CoNLL 2018 scorer: skipped (give --scorer PATH/conll18_ud_eval.py or set CONLL18_UD_EVAL)\n")
        rows.append(("evalcore attach", t_ours, t_ours_cli, ""))
    else:
        scorer = load_scorer(Path(scorer_path))
        if str(gold).endswith(".gz"):
            print("CoNLL 2018 scorer: skipped (it reads plain text only; ../shared/data is absent)\n")
            rows.append(("evalcore attach", t_ours, t_ours_cli, ""))
        else:

            def theirs() -> tuple[float, float]:
                ev = scorer.evaluate(scorer.load_conllu_file(str(gold)), scorer.load_conllu_file(str(system)))
                return ev["UAS"].aligned_accuracy, ev["LAS"].aligned_accuracy

            t_theirs, value2 = best_of(args.repeat, theirs)
            s_uas, s_las = value2
            t_theirs_cli, _ = best_of(
                max(1, args.repeat // 2 + 1),
                lambda: run([sys.executable, str(scorer_path), "-v", str(gold), str(system)]),
            )
            print(f"conll18_ud_eval.py:            UAS {100 * s_uas:.2f}  LAS {100 * s_las:.2f}")
            same = f"{100 * uas:.2f}" == f"{100 * s_uas:.2f}" and f"{100 * las:.2f}" == f"{100 * s_las:.2f}"
            print(f"same to two decimals: {'yes' if same else 'NO'}\n")
            rows.append(
                (
                    "evalcore attach",
                    t_ours,
                    t_ours_cli,
                    f"{t_theirs / t_ours:.1f}x / {t_theirs_cli / t_ours_cli:.1f}x faster",
                )
            )
            rows.append(("conll18_ud_eval.py", t_theirs, t_theirs_cli, "1.0x"))

    name_w = max(len(r[0]) for r in rows)
    print(f"{'':{name_w}}  {'in-process':>10}  {'subprocess':>10}  vs the scorer (in-process / subprocess)")
    for name, a, b, note in rows:
        print(f"{name:{name_w}}  {a:9.3f}s  {b:9.3f}s  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
