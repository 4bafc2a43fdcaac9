"""What the spaCy experiments share: a deterministic training process, a record of the epochs run, and
the tolerance a retrained model's table must meet.

**Determinism.**  spaCy seeds Python's, NumPy's and thinc's random generators from ``[system] seed``
(``spacy.util.fix_random_seed``, called by ``spacy train``).  It does not control two other sources
of run-to-run differences: threads (a multi-threaded BLAS or OpenMP sums in another order) and
Python's string hashing (the iteration order of sets of labels).  :func:`deterministic_process`
re-runs the script with ``PYTHONHASHSEED=0`` and one thread for OpenMP, OpenBLAS, MKL, BLIS and
Apple's Accelerate before NumPy is imported.  That makes two runs on one machine identical; another
CPU (another instruction set, another BLAS build) still rounds differently, and those differences grow
over training, so a retrained model's scores move (UD Hebrew, gold input, UAS 76.26 → 77.51 on
another machine): :data:`TOLERANCE`.

**Epochs.**  ``[training] max_epochs`` is an upper bound: ``patience`` may stop training earlier,
and the model used is the best checkpoint (``model-best``).  :func:`record_progress` makes spaCy
log every evaluation to ``train_log.jsonl`` and every update's epoch to ``progress.json``;
:func:`epochs_run` reads back how many epochs ran and at which the best checkpoint was taken.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evalcore.trees import DepTree

__all__ = [
    "DETERMINISTIC_ENV",
    "TOLERANCE",
    "Epochs",
    "deterministic_process",
    "epochs_run",
    "parse_gold_words",
    "parser_config",
    "record_progress",
    "train_parser",
]

TOLERANCE = 1.5
"""Points (percent) a retrained model's score may differ from the committed table, per cell."""

DETERMINISTIC_ENV = {
    "PYTHONHASHSEED": "0",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "BLIS_NUM_THREADS": "1",
    "VECLIB_MAXIMUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
}


def deterministic_process() -> None:
    """Re-execute the running script under :data:`DETERMINISTIC_ENV` unless it already has it.

    Call it first thing in a script's training step (the variables only act before NumPy and
    spaCy start, hence the re-execution); never from a library function or a test process.
    """
    if all(os.environ.get(k) == v for k, v in DETERMINISTIC_ENV.items()):
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, **DETERMINISTIC_ENV})


_CALLBACK = "evalcore.record_progress.v1"


def _register_callback() -> None:
    import spacy

    if _CALLBACK in spacy.registry.callbacks:
        return

    def make(path: str) -> Any:
        def before_update(nlp: Any, info: dict[str, int]) -> None:
            Path(path).write_text(json.dumps({"step": info["step"], "epoch": info["epoch"]}))

        return before_update

    spacy.registry.callbacks.register(_CALLBACK, func=make)


def record_progress(config: Any, workdir: Path) -> None:
    """Make spaCy log evaluations to ``workdir/train_log.jsonl`` and updates to ``workdir/progress.json``."""
    _register_callback()
    for name in ("train_log.jsonl", "progress.json"):
        (workdir / name).unlink(missing_ok=True)  # spaCy's logger refuses to overwrite its file
    config["training"]["logger"] = {
        "@loggers": "spacy.ConsoleLogger.v3",
        "progress_bar": None,
        "console_output": True,
        "output_file": str(workdir / "train_log.jsonl"),
    }
    config["training"]["before_update"] = {"@callbacks": _CALLBACK, "path": str(workdir / "progress.json")}


@dataclass(frozen=True)
class Epochs:
    """How long training ran (epochs and updates, counted from 1) and where its best checkpoint was."""

    epochs: int
    steps: int
    best_epoch: int
    best_step: int

    def as_json(self) -> dict[str, int]:
        return {
            "epochs_run": self.epochs,
            "updates": self.steps,
            "best_checkpoint_epoch": self.best_epoch,
            "best_checkpoint_update": self.best_step,
        }


def epochs_run(workdir: Path) -> Epochs:
    """Read what :func:`record_progress` logged (spaCy numbers epochs and steps from 0)."""
    last = json.loads((workdir / "progress.json").read_text())
    evals = [json.loads(line) for line in (workdir / "train_log.jsonl").read_text().splitlines() if line]
    best = max(evals, key=lambda e: (e["score"], -e["step"]))  # spaCy keeps the earliest best
    return Epochs(last["epoch"] + 1, last["step"] + 1, best["epoch"] + 1, best["step"] + 1)


def parser_config(lang: str, seed: int, max_epochs: int) -> Any:
    """The dependency-parser-only training config of the French and FarPaHC experiments: spaCy's
    "efficiency" preset on CPU, every label kept, ``max_epochs`` epochs (no step limit, no early
    stop), an evaluation every 100 updates (the best is kept), seeded with ``seed``."""
    from spacy.cli.init_config import init_config

    config = init_config(lang=lang, pipeline=["parser"], optimize="efficiency", gpu=False)
    config["components"]["parser"]["min_action_freq"] = 1  # keep every label of a small treebank
    config["system"]["seed"] = seed
    config["training"]["max_epochs"] = max_epochs
    config["training"]["max_steps"] = 0
    config["training"]["patience"] = 1000
    config["training"]["eval_frequency"] = 100
    return config


def parse_gold_words(nlp: Any, trees: Iterable[DepTree]) -> list[DepTree]:
    """Each sentence parsed by ``nlp`` on its own words: heads and relations replaced (a root's
    relation is ``root``), ``DEPS`` emptied, everything else kept."""
    from spacy.tokens import Doc

    from evalcore.formats.objects import spacy_head, spacy_label

    parsed: list[DepTree] = []
    for t in trees:
        doc = nlp(Doc(nlp.vocab, words=[tok.form for tok in t.tokens]))
        toks = tuple(
            replace(
                tok,
                head=spacy_head(d),
                deprel=spacy_label(d, "root"),
                deps="_",
            )
            for tok, d in zip(t.tokens, doc, strict=True)
        )
        parsed.append(replace(t, tokens=toks))
    return parsed


def _docbin(trees: Iterable[DepTree], nlp: Any) -> Any:
    from spacy.tokens import Doc, DocBin

    db = DocBin()
    for t in trees:
        words = [tok.form for tok in t.tokens]
        heads = [tok.head - 1 if tok.head else i for i, tok in enumerate(t.tokens)]
        deps = [tok.deprel for tok in t.tokens]
        db.add(Doc(nlp.vocab, words=words, heads=heads, deps=deps))
    return db


def train_parser(
    lang: str, train: Iterable[DepTree], dev: Iterable[DepTree], workdir: Path, seed: int, max_epochs: int
) -> tuple[Any, float]:
    """Train a :func:`parser_config` parser on ``train`` (``dev`` chooses the checkpoint) in
    ``workdir`` with progress recorded (:func:`record_progress`); the best model and the seconds
    training took."""
    import time

    import spacy
    from spacy.cli.train import train as spacy_train

    workdir.mkdir(parents=True, exist_ok=True)
    blank = spacy.blank(lang)
    _docbin(train, blank).to_disk(workdir / "train.spacy")
    _docbin(dev, blank).to_disk(workdir / "dev.spacy")
    config = parser_config(lang, seed, max_epochs)
    record_progress(config, workdir)
    cfg_path = workdir / "config.cfg"
    config.to_disk(cfg_path)
    t0 = time.perf_counter()
    spacy_train(
        cfg_path,
        workdir / "model",
        overrides={"paths.train": str(workdir / "train.spacy"), "paths.dev": str(workdir / "dev.spacy")},
    )
    seconds = time.perf_counter() - t0
    return spacy.load(workdir / "model" / "model-best"), seconds
