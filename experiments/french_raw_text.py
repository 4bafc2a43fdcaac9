"""Parses of French-GSD test's *raw text* by the spaCy UD and SUD parsers (issue 29's data).

The committed parses (``assets/fr_gsd/parses/fr_gsd-test.raw.*``) were made on 2026-11-28 by the
three models of ``french_ud_sud.py`` retrained with its settings (UD, UD with seed 1, SUD); on
this machine they are not the models of the committed gold-word parses (``gold_words`` in
``docs/results/french_raw_text.training.json``).

The parsers of ``experiments/french_ud_sud.py`` were trained and evaluated on gold words.  Here
the same models parse the raw text, tokenized and split into sentences by spaCy's rule-based
French tools, so that their tokens, words and sentences differ from the golds' (cross-scheme
TedEval for parses of raw text scores them).  To re-run it (spaCy: ``bash scripts/setup.sh
experiments``; CPU only, no downloads), from the repository's root:

    W=/tmp/evalcore-french
    .venv/bin/python experiments/french_ud_sud.py train --workdir $W   # the three models
    cp docs/results/french_ud_sud.training.json $W/     # that training's record (times, epochs)
    git checkout -- docs/results/french_ud_sud.* assets/fr_gsd/parses/fr_gsd-test.spacy-*.conllu.gz
    .venv/bin/python experiments/french_raw_text.py parse --workdir $W
    .venv/bin/python experiments/french_raw_text.py score   # evalcore only: the CoNLL 2018 rows again
    .venv/bin/python experiments/french_raw_text.py evaluate   # evalcore only: docs/results/french_raw_text.*

(``evaluate`` scores the retrained models' parses of the gold words, committed as
``assets/fr_gsd/parses/fr_gsd-test.retrained.NAME.conllu.gz``, copied from ``french_ud_sud.py
train``'s rewrite of ``fr_gsd-test.NAME.conllu.gz`` before the ``git checkout``.)

``french_ud_sud.py train`` trains the models into ``$W/NAME`` (minutes each; deterministic
process, ``MAX_EPOCHS``) and also rewrites the committed gold-word parses, their tables and
``docs/results/french_ud_sud.training.json``: the ``git checkout`` puts the committed ones back
(on another machine the retrained models differ from the committed ones, see the report's
``gold_words``).  ``parse`` loads each model from ``$W/NAME/model/model-best``, writes
``assets/fr_gsd/parses/fr_gsd-test.raw.NAME.conllu.gz`` (gzip without a time stamp: the same
parse gives the same bytes) and ``docs/results/french_raw_text.training.json``: the spaCy
version; per model its seed, epochs, training time (from ``$W/french_ud_sud.training.json``,
``--training-report``), held-out UAS/LAS, its parse of the gold words next to the committed one
(``gold_words``: identical or not, words that differ, both UAS/LAS on the UD or SUD gold); and
the CoNLL 2018 Tokens, Sentences, Words, UAS and LAS of each raw parse against both golds
(``scores``).  ``score`` recomputes ``scores`` from the committed raw parses.

**The raw text.**  The ``# text`` lines of the UD gold r2.16 (the SUD gold has the same ones),
joined with single spaces: one document of 49,636 characters.

**Tokens and sentences.**  ``spacy.blank("fr")``'s tokenizer and its rule-based ``sentencizer``
pipe (default punctuation) on that one document.  Words are spaCy's tokens: no multiword-token
lines (*du*, *au*, *des* stay one word where the gold has two), no lemma, and no UPOS (the models
have no tagger or morphologizer; a model that had one would fill UPOS and XPOS).  ``SpaceAfter=No``
marks a token not followed by a space (also at the end of a sentence), and each sentence's
``# text`` is its characters without the space that follows it.  The parse's text is the gold's:
the sentences' words, each followed by a space unless ``SpaceAfter=No``, give the raw text back
character for character (checked when parsing; 3 of the sentencizer's boundaries fall where the
text has no space, e.g. between the opening quote of ``"C'est`` and its word), so the FORMs'
characters are the gold's, which the CoNLL 2018 character alignment needs.  A whitespace token
(two spaces in a row; the French raw text has none) would be dropped.

**Which sentence boundaries.**  The file's sentences are exactly the sentencizer's.  spaCy's
parser sets sentence starts of its own (on gold words the UD parser split 7 of the 416 test
sentences and the SUD parser 24: several roots in one sentence), and the CoNLL 2018 scorer
accepts one root per sentence only.  Each sentencizer sentence is therefore parsed as its own
``Doc`` whose first token starts a sentence and whose other tokens are marked as not starting
one (``Doc(..., sent_starts=[True, False, ...])``), a constraint spaCy's transition-based
parser obeys: one tree per sentence.  The report counts the sentences the parser would have split
without it (``parser_would_split``).  The pipeline's components (``tok2vec``, ``parser``) are
run in order on that ``Doc``; the model's own tokenizer is never used.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from french_ud_sud import MODELS, gold_path, parse_path
from spacy_training import deterministic_process, epochs_run, parse_gold_words
from tables import RESULTS

from evalcore.formats.conllu import read_conllu, write_conllu
from evalcore.formats.objects import spacy_head, spacy_label
from evalcore.metrics.conll18 import MetricScore, evaluate_conll18
from evalcore.trees import DepTree, Token

ROOT = Path(__file__).resolve().parent.parent
PARSES = ROOT / "assets" / "fr_gsd" / "parses"
REPORT = RESULTS / "french_raw_text.training.json"
RAW_MODELS = ("spacy-ud", "spacy-ud-seed1", "spacy-sud")
SCORED = ("Tokens", "Sentences", "Words", "UAS", "LAS")
SENT_ID = "fr-gsd-test-raw-{:03d}"


def raw_parse_path(name: str) -> Path:
    return PARSES / f"fr_gsd-test.raw.{name}.conllu.gz"


def gold_texts(scheme: str = "ud") -> list[str]:
    """The gold's ``# text`` lines, in order."""
    return [t.text for t in read_conllu(gold_path(scheme, "test"))]


def raw_text() -> str:
    """The test set's raw text: the UD gold's ``# text`` lines joined with single spaces (the SUD
    gold's are the same; checked)."""
    ud = gold_texts("ud")
    if gold_texts("sud") != ud:
        raise SystemExit("the UD and SUD golds' texts differ")
    return " ".join(ud)


@dataclass(frozen=True)
class Segment:
    """One sentence of the rule-based split: its words and whether a space follows each."""

    words: tuple[str, ...]
    spaces: tuple[bool, ...]

    @property
    def chars(self) -> str:
        """The sentence's characters, with the space that follows it if one does."""
        return "".join(w + (" " if s else "") for w, s in zip(self.words, self.spaces, strict=True))

    @property
    def text(self) -> str:
        """The sentence's characters, without the space that ends it (its ``# text``)."""
        return self.chars.rstrip(" ")


def segment(text: str) -> list[Segment]:
    """``text`` tokenized by ``spacy.blank("fr")`` and split by its ``sentencizer`` (whitespace
    tokens dropped: they are spaces, not characters of a word)."""
    import spacy

    nlp = spacy.blank("fr")
    nlp.add_pipe("sentencizer")
    out = []
    for sent in nlp(text).sents:
        toks = [t for t in sent if not t.is_space]
        if toks:
            out.append(Segment(tuple(t.text for t in toks), tuple(bool(t.whitespace_) for t in toks)))
    return out


def _run(nlp: Any, seg: Segment, constrained: bool) -> Any:
    from spacy.tokens import Doc

    starts: list[bool | int | None] | None = None
    if constrained:
        starts = [True, *[False] * (len(seg.words) - 1)]
    doc = Doc(nlp.vocab, words=list(seg.words), spaces=list(seg.spaces), sent_starts=starts)
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return doc


def _field(value: str) -> str:
    return value or "_"


def parse_segments(nlp: Any, segments: Sequence[Segment]) -> tuple[list[DepTree], int]:
    """Each segment parsed as one sentence (one tree, see the module's docstring); also how many
    segments the parser alone would have split into several sentences."""
    trees: list[DepTree] = []
    would_split = 0
    for k, seg in enumerate(segments, start=1):
        doc = _run(nlp, seg, constrained=True)
        roots = sum(t.head.i == t.i for t in doc)
        if roots != 1:
            raise RuntimeError(f"sentence {k}: the parser gave {roots} roots despite the constraint")
        free = _run(nlp, seg, constrained=False)
        would_split += sum(t.head.i == t.i for t in free) > 1
        tokens = tuple(
            Token(
                id=t.i + 1,
                form=t.text,
                upos=_field(t.pos_) if doc.has_annotation("POS") else "_",
                xpos=_field(t.tag_) if doc.has_annotation("TAG") else "_",
                head=spacy_head(t),
                deprel=spacy_label(t, "root"),
                misc="_" if t.whitespace_ else "SpaceAfter=No",
            )
            for t in doc
        )
        text = doc.text.rstrip(" ")
        sent_id = SENT_ID.format(k)
        trees.append(
            DepTree(
                tokens, sent_id=sent_id, text=text, comments=(f"# sent_id = {sent_id}", f"# text = {text}")
            )
        )
    return trees, would_split


def _gzip(text: str) -> bytes:
    return gzip.compress(text.encode("utf-8"), mtime=0)


def _attachment(trees: Sequence[DepTree], gold: Sequence[DepTree]) -> tuple[float, float]:
    """UAS and LAS (relations compared whole, punctuation counted: the committed table's) on gold words."""
    pairs = [
        (p, g) for pt, gt in zip(trees, gold, strict=True) for p, g in zip(pt.tokens, gt.tokens, strict=True)
    ]
    heads = sum(p.head == g.head for p, g in pairs)
    labels = sum(p.head == g.head and p.deprel == g.deprel for p, g in pairs)
    return round(heads / len(pairs), 6), round(labels / len(pairs), 6)


def _gold_words(nlp: Any, name: str, scheme: str) -> dict[str, Any]:
    """``nlp``'s parse of the gold words next to the committed gold-word parse: identical text or
    not, how many words differ in head or relation, and both parses' UAS and LAS."""
    gold = list(read_conllu(gold_path(scheme, "test")))
    fresh = parse_gold_words(nlp, gold)
    committed = list(read_conllu(parse_path(name), on_invalid="keep"))
    with gzip.open(parse_path(name), "rt", encoding="utf-8") as fh:
        identical = fh.read() == write_conllu(fresh)
    differ = sum(
        (a.head, a.deprel) != (b.head, b.deprel)
        for f, c in zip(fresh, committed, strict=True)
        for a, b in zip(f.tokens, c.tokens, strict=True)
    )
    uas, las = _attachment(fresh, gold)
    committed_uas, committed_las = _attachment(committed, gold)
    return {
        "identical_to_committed": identical,
        "words_head_or_relation_differ": differ,
        "words": sum(len(t) for t in gold),
        "uas": uas,
        "las": las,
        "committed_uas": committed_uas,
        "committed_las": committed_las,
    }


def _held_out(nlp: Any, score: str) -> float:
    """A held-out score of the model's checkpoint, to 10 places (as its ``meta.json`` writes it)."""
    return round(float(nlp.meta["performance"][score]), 10)


def _train_seconds(name: str, nlp: Any, training_report: Path | None) -> float | None:
    """The training time ``french_ud_sud.py train`` recorded for this model (its report, written
    with the model; None if that report does not describe it: other held-out scores)."""
    if training_report is None or not training_report.exists():
        return None
    for m in json.loads(training_report.read_text())["models"]:
        if m["parse"] == name and "epochs_run" in m and m["dev_uas"] == _held_out(nlp, "dep_uas"):
            return float(m["train_seconds"])
    return None


def _model_entry(
    name: str, scheme: str, seed: int, workdir: Path, nlp: Any, would_split: int, training_report: Path | None
) -> dict[str, Any]:
    config = nlp.config
    return {
        "parse": name,
        "scheme": scheme,
        "seed": seed,
        "config_seed": config["system"]["seed"],
        "max_epochs": config["training"]["max_epochs"],
        **epochs_run(workdir / name).as_json(),
        "train_seconds": _train_seconds(name, nlp, training_report),
        "dev_uas": _held_out(nlp, "dep_uas"),
        "dev_las": _held_out(nlp, "dep_las"),
        "gold_words": _gold_words(nlp, name, scheme),
        "raw_parse": str(raw_parse_path(name).relative_to(ROOT)),
        "parser_would_split": would_split,
    }


def _row(s: MetricScore) -> dict[str, Any]:
    return {
        "precision": round(s.precision, 6),
        "recall": round(s.recall, 6),
        "f1": round(s.f1, 6),
        "aligned_accuracy": None if s.aligned_accuracy is None else round(s.aligned_accuracy, 6),
        "correct": s.correct,
        "gold": s.gold,
        "system": s.system,
    }


def score(names: Sequence[str]) -> list[dict[str, Any]]:
    """The CoNLL 2018 rows of each raw parse against the UD and SUD golds: :data:`SCORED` as the
    scorer computes them (LAS on the relations' universal part, as ``evalcore attach`` prints it),
    and ``LAS-full`` with relations compared whole (``attach --labels full``), as the gold-word
    table's LAS (docs/results/french_ud_sud.md)."""
    rows: list[dict[str, Any]] = []
    for name in names:
        for against in ("ud", "sud"):
            gold, parse = gold_path(against, "test"), raw_parse_path(name)
            result = evaluate_conll18(gold, parse)
            row: dict[str, Any] = {"parse": name, "against": f"{against}-gold"}
            row.update({metric: _row(result.get(metric)) for metric in SCORED})
            row["LAS-full"] = _row(evaluate_conll18(gold, parse, deprel_base=False).get("LAS"))
            rows.append(row)
    return rows


def parse(workdir: Path, names: Sequence[str], training_report: Path | None) -> dict[str, Any]:
    import spacy

    text = raw_text()
    segments = segment(text)
    if "".join(g.chars for g in segments) != text:
        raise RuntimeError("the segments' text is not the raw text")
    PARSES.mkdir(parents=True, exist_ok=True)
    models = []
    for name, scheme, seed in MODELS:
        if name not in names:
            continue
        nlp = spacy.load(workdir / name / "model" / "model-best")
        trees, would_split = parse_segments(nlp, segments)
        raw_parse_path(name).write_bytes(_gzip(write_conllu(trees)))
        models.append(_model_entry(name, scheme, seed, workdir, nlp, would_split, training_report))
        print(f"{name}: {len(trees)} sentences written to {raw_parse_path(name)}", file=sys.stderr)
    report: dict[str, Any] = {
        "spacy": spacy.__version__,
        "raw_text": {
            "from": f"{gold_path('ud', 'test').relative_to(ROOT)}: # text lines joined with spaces",
            "characters": len(text),
            "tokenizer": 'spacy.blank("fr")',
            "sentence_split": "sentencizer (rule-based, default punctuation)",
            "sentences": len(segments),
            "tokens": sum(len(g.words) for g in segments),
            "multiword_tokens": 0,
        },
        "models": models,
        "scores": score([m["parse"] for m in models]),
    }
    REPORT.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return report


def rescore() -> dict[str, Any]:
    """Recompute the report's ``scores`` from the committed raw parses (evalcore only)."""
    report: dict[str, Any] = json.loads(REPORT.read_text())
    report["scores"] = score([m["parse"] for m in report["models"]])
    REPORT.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return report


def _print(report: dict[str, Any]) -> None:
    columns = (*SCORED, "LAS-full")
    print("F1 (%)           against    " + "  ".join(f"{m:>9}" for m in columns))
    for row in report["scores"]:
        cells = "  ".join(f"{100 * row[m]['f1']:9.2f}" for m in columns)
        print(f"{row['parse']:<16} {row['against']:<10} {cells}")


# ---------------------------------------------------------------------------- evaluation (evalcore only)

EVAL_NAME = "french_raw_text"
EVAL_SHUFFLES, EVAL_SEED = 10_000, 12345


def retrained_path(name: str) -> Path:
    """The retrained model's parse of the gold words (the same model as its raw parse)."""
    return PARSES / f"fr_gsd-test.retrained.{name}.conllu.gz"


def evaluate() -> tuple[Any, Any]:
    """Cross-scheme TedEval (docs/rawtext.md) of each retrained model's parse of the gold words and of
    the raw text, against the UD gold, the SUD gold and UD+SUD, 10,000 shuffles; and the ranking
    with its paired tests and flips (docs/atlas.md, "Ranking flips")."""
    from evalcore.experiment import NamedTrees, Scheme, run_experiment
    from evalcore.families.tedeval import TedevalSettings, experiment_config
    from evalcore.ranking import RankingConfig, rank_parses

    def named(name: str, path: Path) -> NamedTrees:
        return NamedTrees(name, tuple(read_conllu(path, on_invalid="keep")), str(path))

    schemes = []
    for scheme in ("ud", "sud"):
        parses = []
        for name, s, _ in MODELS:
            if s == scheme and name in RAW_MODELS:
                parses.append(named(name, retrained_path(name)))
                parses.append(named(f"raw:{name}", raw_parse_path(name)))
        schemes.append(Scheme(scheme, named(f"{scheme}-gold", gold_path(scheme, "test")), tuple(parses)))
    settings = TedevalSettings(shuffles=EVAL_SHUFFLES, seed=EVAL_SEED)
    result = run_experiment(schemes, experiment_config(settings))
    ranking = rank_parses(result, schemes, RankingConfig(EVAL_SHUFFLES, EVAL_SEED))
    return result, ranking


def write_evaluation(result: Any, ranking: Any, out: Path = RESULTS) -> None:
    """docs/results/french_raw_text.{md,csv,tex}: the experiment's table (as french_ud_sud's) and,
    in the Markdown, the ranking and its flips."""
    from tables import write_tables

    from evalcore.report.atlas import ranking_text

    write_tables(result, EVAL_NAME, out)
    md = out / f"{EVAL_NAME}.md"
    md.write_text(
        "# French-GSD test r2.16: the retrained spaCy parsers on gold words and on the raw text\n\n"
        "Made by `experiments/french_raw_text.py evaluate` (docs/rawtext.md). `NAME`: the model's parse "
        "of the gold words; `raw:NAME`: the same model's parse of the raw text (spaCy's blank French "
        "tokenizer and rule-based sentencizer).\n\n"
        + md.read_text(encoding="utf-8")
        + "\n## Ranking\n\n```\n"
        + ranking_text(ranking)
        + "```\n",
        encoding="utf-8",
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    p = sub.add_parser("parse")
    p.add_argument("--workdir", default="/tmp/evalcore-french", help="french_ud_sud.py train's --workdir")
    p.add_argument("--models", nargs="+", choices=[m for m, _, _ in MODELS], default=list(RAW_MODELS))
    p.add_argument(
        "--training-report",
        help="french_ud_sud.py train's report, for the training times (WORKDIR/french_ud_sud.training.json)",
    )
    sub.add_parser("score")
    sub.add_parser("evaluate", help="evalcore only: docs/results/french_raw_text.{md,csv,tex}")
    args = ap.parse_args()
    if args.step == "evaluate":
        write_evaluation(*evaluate())
    elif args.step == "parse":
        deterministic_process()
        workdir = Path(args.workdir)
        report = (
            Path(args.training_report) if args.training_report else workdir / "french_ud_sud.training.json"
        )
        _print(parse(workdir, args.models, report))
    else:
        _print(rescore())


if __name__ == "__main__":
    main()
