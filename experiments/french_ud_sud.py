"""Cross-scheme experiment on French-GSD: the same parser trained on UD and on SUD.

EMNLP 2011's claim, on freely licensed data: parsers trained on different
annotation schemes look far apart when each is scored against one scheme's
gold, and much closer against the generalized gold.

    python experiments/french_ud_sud.py train      # trains 3 spaCy parsers, writes the parses (minutes)
    python experiments/french_ud_sud.py train --models spacy-ud   # retrain one of them
    python experiments/french_ud_sud.py evaluate   # writes docs/results/french_ud_sud.{csv,md,tex}

Training: spaCy's transition-based parser (tok2vec CNN + parser, the
"efficiency" preset, blank French pipeline, CPU, no downloads), trained on the
French-GSD *dev* set (1,476 sentences; the first 90% train, the last 10% choose
the checkpoint), once on UD and once on SUD annotations, plus a second UD
model with another seed (the "not significant" reference point), each for 10
epochs (the best of the evaluations every 100 updates is kept). Each parses
the 416 test sentences on gold tokens; the parses are written gzipped to
``assets/fr_gsd/parses/`` (CC BY-SA 4.0 like the treebank).  Training is
deterministic where spaCy allows it (``experiments/spacy_training.py``: the
model's seed, one thread, ``PYTHONHASHSEED=0``) and records the epochs it ran
and the epoch of the checkpoint used in ``docs/results/french_ud_sud.training.json``.

The evaluation step needs only evalcore and the committed parses; a test
re-runs it and compares with the committed table.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

from spacy_training import deterministic_process, epochs_run, parse_gold_words, train_parser
from tables import RESULTS, write_tables

from evalcore.choices import LABELS_AUTO, Labels
from evalcore.experiment import ExperimentResult, NamedTrees, Scheme, run_experiment
from evalcore.families.tedeval import TedevalSettings, experiment_config
from evalcore.formats.conllu import read_conllu, write_conllu

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets" / "fr_gsd"
PARSES = ASSETS / "parses"
DATA = ROOT.parent / "shared" / "data" / "fr_gsd_ud_sud"
SEED = 0
SHUFFLES = 10_000
MAX_EPOCHS = 10  # the committed parses' setting: retrained with it, spacy-ud reproduces them byte for byte

MODELS = (  # (parse name, scheme, training seed)
    ("spacy-ud", "ud", 0),
    ("spacy-ud-seed1", "ud", 1),
    ("spacy-sud", "sud", 0),
)


def gold_path(scheme: str, split: str) -> Path:
    if split == "test":
        return ASSETS / f"fr_gsd-{scheme}-test.r2.16.conllu.gz"
    return DATA / f"fr_gsd-{scheme}-{split}.r2.16.conllu"


def parse_path(name: str) -> Path:
    return PARSES / f"fr_gsd-test.{name}.conllu.gz"


# ---------------------------------------------------------------------------
# training (needs spaCy: bash scripts/setup.sh experiments)


def train(workdir: Path, max_epochs: int, only: tuple[str, ...] = ()) -> dict[str, object]:
    """Train the models (``only``: these of :data:`MODELS`; the report keeps the others' entries)."""
    import spacy

    PARSES.mkdir(parents=True, exist_ok=True)
    report_path = RESULTS / "french_ud_sud.training.json"
    previous = json.loads(report_path.read_text())["models"] if only and report_path.exists() else []
    entries = {m["parse"]: m for m in previous}
    for name, scheme, seed in MODELS:
        if only and name not in only:
            continue
        trees = list(read_conllu(gold_path(scheme, "dev")))
        cut = int(len(trees) * 0.9)
        wd = workdir / name
        nlp, seconds = train_parser("fr", trees[:cut], trees[cut:], wd, seed, max_epochs)
        parsed = parse_gold_words(nlp, read_conllu(gold_path(scheme, "test")))
        with gzip.open(parse_path(name), "wt", encoding="utf-8") as fh:
            fh.write(write_conllu(parsed))
        meta = json.loads((wd / "model" / "model-best" / "meta.json").read_text())
        entries[name] = {
            "parse": name,
            "scheme": scheme,
            "seed": seed,
            "max_epochs": max_epochs,
            **epochs_run(wd).as_json(),
            "train_sentences": cut,
            "early_stop_sentences": len(trees) - cut,
            "train_seconds": round(seconds, 1),
            "dev_uas": meta["performance"].get("dep_uas"),
            "dev_las": meta["performance"].get("dep_las"),
        }
        print(f"{name}: trained in {seconds:.0f} s", file=sys.stderr)
    models = [entries[n] for n, _, _ in MODELS if n in entries]
    report: dict[str, object] = {"spacy": spacy.__version__, "models": models}
    report_path.write_text(json.dumps(report, indent=2) + "\n")
    return report


# ---------------------------------------------------------------------------
# evaluation (evalcore only)


def evaluate(shuffles: int = SHUFFLES, seed: int = SEED, labels: Labels = LABELS_AUTO) -> ExperimentResult:
    """The committed table's experiment (``labels``: how LAS compares relations, docs/tedeval.md,
    "Relation labels in LAS"; the committed table is the default's)."""

    def named(name: str, path: Path) -> NamedTrees:
        return NamedTrees(name, tuple(read_conllu(path, on_invalid="keep")), str(path))

    schemes = []
    for scheme in ("ud", "sud"):
        parses = tuple(named(n, parse_path(n)) for n, s, _ in MODELS if s == scheme)
        schemes.append(Scheme(scheme, named(f"{scheme}-gold", gold_path(scheme, "test")), parses))
    settings = TedevalSettings(shuffles=shuffles, seed=seed, labels=labels)
    return run_experiment(schemes, experiment_config(settings))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    t = sub.add_parser("train")
    t.add_argument("--workdir", default="/tmp/evalcore-french")
    t.add_argument("--max-epochs", type=int, default=MAX_EPOCHS)
    t.add_argument("--models", nargs="+", choices=[m for m, _, _ in MODELS], default=[], help="default: all")
    sub.add_parser("evaluate")
    args = ap.parse_args()
    if args.step == "train":
        deterministic_process()
        train(Path(args.workdir), args.max_epochs, tuple(args.models))
    write_tables(evaluate(), "french_ud_sud")


if __name__ == "__main__":
    main()
