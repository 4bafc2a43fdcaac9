"""English: spaCy (ClearNLP labels) vs UD, and UD v1 vs UD v2, on EWT test.

How much of the apparent error is scheme?  Three "parses" of EWT test:

* ``spacy-sm``: spaCy ``en_core_web_sm`` 3.8.0 on gold words (ClearNLP-style
  labels: a genuinely different scheme from UD);
* ``ud1-gold``: the UD v1 (r1.4) gold, scored as if it were a parse;
* ``ud2-gold``: the UD v2 (r2.16) gold itself (the ceiling).

Schemes: ``ud2`` (gold r2.16; parses spacy-sm, ud2-gold) and ``ud1`` (gold
r1.4; parse ud1-gold).  7 sentences whose words differ between the two
releases are skipped (and counted).  All files are shipped in assets/en_ewt.

    python experiments/english_spacy_ud.py     # writes docs/results/english_spacy_ud.{csv,md,tex}
"""

from __future__ import annotations

from pathlib import Path

from tables import write_tables

from evalcore.experiment import ExperimentResult, NamedTrees, Scheme, run_experiment
from evalcore.families.tedeval import TedevalSettings, experiment_config
from evalcore.formats.conllu import read_conllu

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets" / "en_ewt"
NAME = "english_spacy_ud"


def _named(name: str, file: str) -> NamedTrees:
    path = ASSETS / file
    return NamedTrees(name, tuple(read_conllu(path, on_invalid="keep")), str(path))


def evaluate(shuffles: int = 10_000, seed: int = 0) -> ExperimentResult:
    ud2 = _named("ud2-gold", "en_ewt-ud-test.r2.16.conllu.gz")
    ud1 = _named("ud1-gold", "en-ud-test.r1.4.conllu.gz")
    spacy = _named("spacy-sm", "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz")
    schemes = [Scheme("ud2", ud2, (spacy, ud2)), Scheme("ud1", ud1, (ud1,))]
    settings = TedevalSettings(shuffles=shuffles, seed=seed, skip_mismatched=True)
    return run_experiment(schemes, experiment_config(settings))


if __name__ == "__main__":
    write_tables(evaluate(), NAME)
