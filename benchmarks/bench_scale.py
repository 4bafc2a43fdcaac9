"""Time and peak memory of the command line on large corpora (10k / 30k / 100k sentences;
200,000 sentences, and ``lattice``).

    python benchmarks/bench_scale.py [--sizes 10000,30000,100000]
                                     [--commands attach,parseval,freval,tedeval,lattice]
                                     [--shuffles N] [--keep DIR]

Builds the corpora by repeating real data in a temporary folder (never in the repository; ``--keep
DIR`` writes them to DIR instead and leaves them there), runs each command as a subprocess, and
reports its wall-clock time and peak resident memory (``os.wait4``: the child's own maximum RSS),
then the ratios between sizes.  Linear time gives a time ratio near the size ratio (10 for 10k ->
100k); memory that does not depend on the corpus length gives a memory ratio near 1.

Data (the first that exists):

* attach, tedeval: English-EWT test, gold UD 2.16, UD 1.4 and spaCy ``en_core_web_sm`` on gold
  words (``../shared/data``, else the gzipped copies in ``assets/en_ewt``);
* parseval, freval: FarPaHC split 0, gold vs Berkeley parser, one tree per line (``../shared/data``),
  else evalb's 24-sentence sample (``assets/evalb/sample``).

``tedeval`` runs two schemes (UD 2 with the spaCy parse, UD 1 with the UD 2 gold as its "parse"),
``--skip-mismatched`` (7 EWT sentences differ in words between the versions) and ``--shuffles``
significance trials (default 1,000 here to keep the run modest; the command's default is 10,000).
``lattice`` scores the spaCy parse against the UD 2 gold as raw text (both CoNLL-U without lattice
files: sentences and tokens aligned by characters), SEGEVAL, lattice TedEval and the rest.
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
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
ASSETS = ROOT / "assets"


def _first(*paths: Path) -> Path:
    for p in paths:
        if p.is_file():
            return p
    raise SystemExit(f"none of these files exists: {', '.join(map(str, paths))}")


def sources() -> dict[str, Path]:
    ewt, sp = SHARED / "en_ewt", SHARED / "parser_outputs" / "spacy_en_ewt_test"
    far = SHARED / "farpahc" / "berkeley_split0"
    out = {
        "ud2": _first(
            ewt / "en_ewt-ud-test.r2.16.conllu", ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz"
        ),
        "ud1": _first(ewt / "en-ud-test.r1.4.conllu", ASSETS / "en_ewt" / "en-ud-test.r1.4.conllu.gz"),
        "spacy": _first(
            sp / "en_ewt-ud-test.spacy-sm.gold-tok.conllu",
            ASSETS / "en_ewt" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz",
        ),
    }
    if (far / "far_split0testing.oneline.psd").is_file():
        out["gold_ptb"] = far / "far_split0testing.oneline.psd"
        out["test_ptb"] = far / "far_split0machineparsed.psd"
    else:
        out["gold_ptb"] = ASSETS / "evalb" / "sample" / "sample.gld"
        out["test_ptb"] = ASSETS / "evalb" / "sample" / "sample.tst"
    return out


def _text(path: Path) -> str:
    raw = path.read_bytes()
    return (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")


def conllu_blocks(path: Path) -> list[str]:
    """Sentence blocks, each ending with its blank line."""
    return [b.strip("\n") + "\n\n" for b in _text(path).split("\n\n") if b.strip()]


def ptb_lines(path: Path) -> list[str]:
    return [line + "\n" for line in _text(path).splitlines()]


def repeat(units: list[str], count: int) -> Iterator[str]:
    for i in range(count):
        yield units[i % len(units)]


def write(path: Path, units: Iterator[str]) -> Path:
    with open(path, "w", encoding="utf-8") as fh:
        for u in units:
            fh.write(u)
    return path


@dataclass(frozen=True)
class Run:
    command: str
    sentences: int
    seconds: float
    peak_mb: float
    status: int


def measure(cmd: list[str], out_dir: Path) -> tuple[float, float, int]:
    """Wall seconds, peak RSS (MiB) and exit status of one subprocess."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    with open(out_dir / "stdout", "wb") as out, open(out_dir / "stderr", "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss is in KiB on Linux, in bytes on macOS
    peak = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return seconds, peak, proc.returncode


def build(size: int, src: dict[str, Path], folder: Path) -> dict[str, Path]:
    files = {name: conllu_blocks(src[name]) for name in ("ud2", "ud1", "spacy")}
    out = {
        name: write(folder / f"{name}.{size}.conllu", repeat(blocks, size)) for name, blocks in files.items()
    }
    for name in ("gold_ptb", "test_ptb"):
        out[name] = write(folder / f"{name}.{size}.psd", repeat(ptb_lines(src[name]), size))
    return out


def commands(files: dict[str, Path], shuffles: int) -> dict[str, list[str]]:
    py = [sys.executable, "-m", "evalcore"]
    ptb = [str(files["gold_ptb"]), str(files["test_ptb"]), "--max-error", "1000000000", "--format", "json"]
    return {
        "attach": [*py, "attach", str(files["ud2"]), str(files["spacy"]), "--format", "json"],
        "parseval": [*py, "parseval", *ptb],
        "freval": [*py, "freval", *ptb],
        "tedeval": [
            *py,
            "tedeval",
            "--scheme",
            "ud2",
            str(files["ud2"]),
            f"spacy={files['spacy']}",
            "--scheme",
            "ud1",
            str(files["ud1"]),
            f"ud2gold={files['ud2']}",
            "--skip-mismatched",
            "--shuffles",
            str(shuffles),
            "--format",
            "json",
        ],
        "lattice": [*py, "lattice", str(files["ud2"]), f"spacy={files['spacy']}", "--format", "json"],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10000,30000,100000", help="sentence counts, comma separated")
    ap.add_argument("--commands", default="attach,parseval,freval,tedeval,lattice")
    ap.add_argument("--shuffles", type=int, default=1000, help="tedeval significance trials (default 1000)")
    ap.add_argument("--keep", metavar="DIR", help="write the corpora to DIR and keep them")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    wanted = args.commands.split(",")
    src = sources()
    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} at start"
    )
    print(
        "data: "
        + ", ".join(
            f"{k}={v.relative_to(ROOT.parent) if ROOT.parent in v.parents else v}" for k, v in src.items()
        )
    )
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="evalcore-scale-") as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for size in sizes:
            files = build(size, src, folder)
            cmds = commands(files, args.shuffles)
            for name in wanted:
                seconds, peak, status = measure(cmds[name], Path(tmp))
                runs.append(Run(name, size, seconds, peak, status))
                note = "" if status == 0 else f"  exit {status}: {(Path(tmp) / 'stderr').read_text()[-300:]}"
                print(f"{name:9s} {size:>7,} sentences  {seconds:7.2f} s  {peak:8.1f} MiB{note}", flush=True)
            if not args.keep:
                for f in files.values():
                    f.unlink()
    print("\n| command | sentences | seconds | peak RSS (MiB) | time ratio | memory ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in wanted:
        mine = [r for r in runs if r.command == name]
        base = mine[0]
        for r in mine:
            print(
                f"| {name} | {r.sentences:,} | {r.seconds:.2f} | {r.peak_mb:.0f} | "
                f"{r.seconds / base.seconds:.2f} | {r.peak_mb / base.peak_mb:.2f} |"
            )
    return 0 if all(r.status == 0 for r in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
