"""Time cross-scheme TedEval on parses of raw text against the same parsers on gold words
(docs/rawtext.md; issue 29's target: under 3x the gold-tokenization time).

    python benchmarks/bench_rawtext.py [--repeat N]

French-GSD r2.16, UD and SUD golds, every parse scored against UD, SUD and UD+SUD
(`evalcore tedeval`'s experiment, 1,000 shuffles), best of N, with the load average:

* **test**: the retrained spaCy parses of the gold words (``fr_gsd-test.retrained.spacy-{ud,sud}``) and of the
  raw text (``fr_gsd-test.raw.spacy-{ud,sud}``, ``experiments/french_raw_text.py``), when present;
* **dev**: the UD and SUD golds read as parses of their own words, and the same trees as a parse of
  raw text two ways: with their multiword tokens unsplit (``au`` one word, as a tokenizer that does
  not split contractions makes it; the sentence boundaries agree), and with their sentences joined
  two by two (the second's root under the first's, as ``parataxis``: every block takes the general
  algorithm, the worst case for the time).

and **the command**: ``evalcore tedeval --shuffles 1000`` on the French test files as a user runs
it (a new interpreter, the files read from disk, the byte code cached), on the gold-word parses
and on the raw-text parses.

The ratio raw / words is the figure to watch.  Not a test: machines are noisy.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from evalcore.experiment import NamedTrees, Scheme, run_experiment
from evalcore.families.tedeval import TedevalSettings, experiment_config
from evalcore.formats.conllu import read_conllu, write_conllu
from evalcore.trees import DepTree

ROOT = Path(__file__).resolve().parents[1]
FR = ROOT / "assets" / "fr_gsd"
DATA = ROOT.parent / "shared" / "data" / "fr_gsd_ud_sud"


def _named(name: str, path: Path) -> NamedTrees:
    return NamedTrees(name, tuple(read_conllu(str(path), on_invalid="keep")), str(path))


def _joined(trees: list[DepTree]) -> list[DepTree]:
    """Sentences joined two by two (docs of this script)."""
    out = []
    for k in range(0, len(trees) - 1, 2):
        a, b = trees[k], trees[k + 1]
        n = len(a.tokens)
        root = next(t.id for t in a.tokens if t.head == 0)
        moved = tuple(
            replace(
                t,
                id=t.id + n,
                head=root if t.head == 0 else t.head + n,
                deprel="parataxis" if t.head == 0 else t.deprel,
            )
            for t in b.tokens
        )
        extras = (
            *a.extras,
            *(
                replace(e, id="-".join(str(int(x) + n) for x in e.id.split("-")), after=e.after + n)
                for e in b.extras
                if e.is_range
            ),
        )
        text = f"{a.text} {b.text}"
        out.append(
            DepTree((*a.tokens, *moved), f"j{k}", text, (f"# sent_id = j{k}", f"# text = {text}"), extras)
        )
    if len(trees) % 2:
        out.append(trees[-1])
    return out


def _unsplit(tree: DepTree) -> DepTree:
    """The sentence with its multiword tokens as single words (``au``, not ``à le``), as a tokenizer
    that does not split contractions gives them: the token takes the head and relation of its word
    whose head is outside it, the other words' dependents move to it."""
    ranges = []
    for e in tree.extras:
        if e.is_range:
            lo, _, hi = e.id.partition("-")
            ranges.append((int(lo), int(hi), e.form))
    if not ranges:
        return tree
    new_id: dict[int, int] = {}
    keep: list[tuple[int, str]] = []  # (old id standing for the token, form)
    k = 0
    covered = {w: (lo, hi, form) for lo, hi, form in ranges for w in range(lo, hi + 1)}
    for t in tree.tokens:
        if t.id in covered:
            lo, hi, form = covered[t.id]
            inside = range(lo, hi + 1)
            head_word = next((w for w in inside if tree.tokens[w - 1].head not in inside), lo)
            if t.id == lo:
                k += 1
                keep.append((head_word, form))
            new_id[t.id] = k
        else:
            k += 1
            new_id[t.id] = k
            keep.append((t.id, t.form))
    tokens = []
    for i, (old, form) in enumerate(keep, start=1):
        t = tree.tokens[old - 1]
        head = 0 if t.head == 0 else new_id[t.head]
        tokens.append(replace(t, id=i, form=form, head=head if head != i else 0))
    return DepTree(tuple(tokens), tree.sent_id, tree.text, tree.comments, ())


def _time(schemes: list[Scheme], repeat: int) -> float:
    config = experiment_config(TedevalSettings(shuffles=1000))
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        run_experiment(schemes, config)
        best = min(best, time.perf_counter() - t0)
    return best


def _pair(name: str, words: list[Scheme], raw: list[Scheme], repeat: int) -> None:
    load0 = os.getloadavg()[0]
    tw = _time(words, repeat)
    tr = _time(raw, repeat)
    load1 = os.getloadavg()[0]
    print(
        f"{name}: words {tw:.2f} s, raw text {tr:.2f} s, ratio {tr / tw:.2f} "
        f"(load {load0:.1f} -> {load1:.1f})"
    )


def _command(parses: dict[str, Path], golds: dict[str, Path], repeat: int) -> float:
    """Best wall time of ``evalcore tedeval`` on the files (a new interpreter each time)."""
    argv = [sys.executable, "-m", "evalcore", "tedeval", "--shuffles", "1000"]
    for s in ("ud", "sud"):
        argv += ["--scheme", s, str(golds[s]), str(parses[s])]
    # as after an install: the modules' byte code cached (a first run writes it)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
        best = min(best, time.perf_counter() - t0)
    return best


def _commands(golds: dict[str, Path], repeat: int) -> None:
    load0 = os.getloadavg()[0]
    words = {s: FR / "parses" / f"fr_gsd-test.retrained.spacy-{s}.conllu.gz" for s in golds}
    raw = {s: FR / "parses" / f"fr_gsd-test.raw.spacy-{s}.conllu.gz" for s in golds}
    tw, tr = _command(words, golds, repeat), _command(raw, golds, repeat)
    load1 = os.getloadavg()[0]
    print(
        f"French test, the command: words {tw:.2f} s, raw text {tr:.2f} s, ratio {tr / tw:.2f} "
        f"(load {load0:.1f} -> {load1:.1f})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    golds = {s: _named(f"{s}-gold", FR / f"fr_gsd-{s}-test.r2.16.conllu.gz") for s in ("ud", "sud")}
    raw = {s: FR / "parses" / f"fr_gsd-test.raw.spacy-{s}.conllu.gz" for s in ("ud", "sud")}
    if all(p.exists() for p in raw.values()):
        words = [
            Scheme(
                s,
                golds[s],
                (_named(f"spacy-{s}", FR / "parses" / f"fr_gsd-test.retrained.spacy-{s}.conllu.gz"),),
            )
            for s in golds
        ]
        rawp = [Scheme(s, golds[s], (_named(f"raw-{s}", raw[s]),)) for s in golds]
        _pair("French test, spaCy UD and SUD parsers (416 sentences)", words, rawp, args.repeat)
        _commands({s: FR / f"fr_gsd-{s}-test.r2.16.conllu.gz" for s in golds}, args.repeat)
    else:
        print("French test: the raw-text parses are not committed yet (experiments/french_raw_text.py)")
    dev = {s: DATA / f"fr_gsd-{s}-dev.r2.16.conllu" for s in ("ud", "sud")}
    if all(p.exists() for p in dev.values()):
        with tempfile.TemporaryDirectory() as tmp:
            words, unsplit, joined = [], [], []
            for s, path in dev.items():
                gold = _named(f"{s}-gold", path)
                trees = [t for t in gold.trees if isinstance(t, DepTree)]
                files = {"unsplit": [_unsplit(t) for t in trees], "joined": _joined(trees)}
                for what, made in files.items():
                    (Path(tmp) / f"{s}.{what}.conllu").write_text(write_conllu(made), encoding="utf-8")
                words.append(Scheme(s, gold, (replace(gold, name=f"{s}-words"),)))
                unsplit.append(Scheme(s, gold, (_named(f"{s}-unsplit", Path(tmp) / f"{s}.unsplit.conllu"),)))
                joined.append(Scheme(s, gold, (_named(f"{s}-joined", Path(tmp) / f"{s}.joined.conllu"),)))
            _pair(
                "French dev, golds as parses, contractions unsplit (1,476 sentences)",
                words,
                unsplit,
                args.repeat,
            )
            _pair("French dev, golds as parses, sentences joined two by two", words, joined, args.repeat)


if __name__ == "__main__":
    main()
