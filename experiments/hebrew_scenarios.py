"""Hebrew: gold / predicted / raw input, the scenario table of ACL 2012 (Tables 1–2).

Tsarfaty, Nivre & Andersson (ACL 2012) claim that parsers evaluated on gold
segmentation and gold tags look much better than they are on raw text, and
that TEDEVAL over lattices measures all three scenarios on one scale.  We
rebuild their table from the data that exists here:

    python experiments/hebrew_scenarios.py train     # trains 2 spaCy pipelines, parses (minutes), evaluates
    python experiments/hebrew_scenarios.py evaluate  # writes docs/results/hebrew_scenarios.{csv,md,svg}
    python experiments/hebrew_scenarios.py train --reuse-models   # parse again with the trained models
    python experiments/hebrew_scenarios.py check-retrain --model ud-htb   # retrain one model, compare

Training is deterministic where spaCy allows it (``experiments/spacy_training.py``: seed 0, one
thread, ``PYTHONHASHSEED=0``; two runs on one machine give the same parses); on another machine
the scores move, and ``check-retrain`` retrains one model into a temporary folder and checks every
cell of its rows against the committed table within ±1.5 points (exit 1 otherwise).

Both read ``../shared/data`` (``--data``) and write the parses to
``/tmp/evalcore-hebrew`` (``--parses`` or ``$EVALCORE_HEBREW_PARSES``), never
into the repository: UD Hebrew-HTB is CC BY-NC-SA and the SPMRL Hebrew
treebank research-only, so only the tables are committed.

**UD Hebrew-HTB** (scored against the CoNLL 2018 shared task's gold, UD 2.2
test, 491 sentences).  A tagger + parser (spaCy 3.8, CPU, blank "he", no
downloads, fixed seed) is trained on the *dev* set of the newer release in
``hebrew/ud_htb`` (484 sentences: the first 90% train, the last 10% choose
the best checkpoint), after converting three conventions that changed since
UD 2.2 back to UD 2.2's (:func:`to_ud22`).  The parser sees the tags (its
token vectors embed TAG, trained on the tagger's own predictions), as the
paper's MaltParser and EasyFirst did.  Rows:

* *gold*: the gold words and gold UPOS of UD 2.2 test, spaCy's parser only;
* *predicted*: the gold words, spaCy's tagger and parser;
* *raw*: the words of the shared task's UDPipe 1.2 preprocessing of the raw
  text (``blind-input.he_htb-udpipe.conllu.gz``), spaCy's tagger and parser --
  a pipeline like the paper's raw dependency rows;
* *raw*: the five CoNLL 2018 systems' outputs (their own segmentation, tags
  and trees).

**SPMRL Hebrew** (dev, 500 sentences, scored with the gold lattices).  The
same pipeline trained on the SPMRL *test* gold (716 sentences; the only other
gold here), then: *gold* (gold morphemes and CPOS), *predicted* (gold
morphemes, spaCy tags), *raw* over the two segmentation baselines of
``scripts/spmrl_segmentation_baseline.py`` (most frequent analysis, first
path; their tags replaced by spaCy's), plus the gold against itself (all
1.0) and the baselines alone (SEGEVAL only).

Every score is computed with evalcore's joint evaluation
(:mod:`evalcore.metrics.joint`, as ``evalcore lattice`` does).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"
NAME = "hebrew_scenarios"
DEFAULT_DATA = ROOT.parent / "shared" / "data"
DEFAULT_PARSES = Path(os.environ.get("EVALCORE_HEBREW_PARSES", "/tmp/evalcore-hebrew"))
SEED = 0
MAX_EPOCHS = 10
HELD_OUT = 0.1
SYSTEMS = ("HIT-SCIR-18", "ONLP-lab", "Stanford-18", "UDPipe-Future", "conll18-baseline")
BASELINES = ("most-frequent", "first-path")

sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "experiments"))

from spacy_training import TOLERANCE, deterministic_process, epochs_run, record_progress  # noqa: E402
from spmrl_segmentation_baseline import most_frequent_path, train_counts  # noqa: E402

from evalcore.families.lattice import LatticeSettings, joint_config  # noqa: E402
from evalcore.formats.conllu import parse_conllu, read_conllu, write_conllu  # noqa: E402
from evalcore.formats.lattice import read_lattices, read_tokens, write_lattices  # noqa: E402
from evalcore.formats.objects import spacy_head, spacy_label  # noqa: E402
from evalcore.lattice.paths import first_path  # noqa: E402
from evalcore.lattice.reading import GoldInput, load_pairing, read_gold  # noqa: E402
from evalcore.metrics import attachment  # noqa: E402
from evalcore.metrics.joint import JointConfig, JointResult, with_aligned_attachment  # noqa: E402
from evalcore.metrics.joint import evaluate as joint_evaluate  # noqa: E402
from evalcore.report.tables import csv_text, text_table  # noqa: E402
from evalcore.trees import Arc, DepTree, Lattice, Token  # noqa: E402

# ---------------------------------------------------------------------------
# where things are


@dataclass(frozen=True)
class Data:
    """The shared data folder (research data: read in place, never copied)."""

    root: Path

    @property
    def ud_dev(self) -> Path:
        return self.root / "hebrew" / "ud_htb" / "he_htb-ud-dev.conllu"

    @property
    def ud_test_newer(self) -> Path:
        return self.root / "hebrew" / "ud_htb" / "he_htb-ud-test.conllu"

    @property
    def conll2018(self) -> Path:
        return self.root / "parser_outputs" / "conll2018" / "he_htb"

    @property
    def ud22_gold(self) -> Path:
        return self.conll2018 / "gold.he_htb.conllu.gz"

    @property
    def udpipe_input(self) -> Path:
        return self.conll2018 / "blind-input.he_htb-udpipe.conllu.gz"

    def system(self, name: str) -> Path:
        return self.conll2018 / f"{name}.he_htb.conllu.gz"

    @property
    def spmrl(self) -> Path:
        return self.root / "hebrew" / "spmrl_hebtb"

    @property
    def spmrl_dev_conll(self) -> Path:
        return self.spmrl / "dev_hebtb-gold.conll"

    @property
    def spmrl_dev_lattices(self) -> Path:
        return self.spmrl / "dev_hebtb-gold.lattices"

    @property
    def spmrl_dev_ma(self) -> Path:
        return self.spmrl / "dev_hebtb.lattices.gz"

    @property
    def spmrl_dev_tokens(self) -> Path:
        return self.spmrl / "dev_hebtb.tokens"

    @property
    def spmrl_test_conll(self) -> Path:
        return self.spmrl / "test_hebtb-gold.conll"

    @property
    def spmrl_test_lattices(self) -> Path:
        return self.spmrl / "test_hebtb-gold.lattices"

    @property
    def spmrl_test_tokens(self) -> Path:
        return self.spmrl / "test_hebtb.tokens"

    def files(self) -> list[Path]:
        return [
            self.ud_dev,
            self.ud_test_newer,
            self.ud22_gold,
            self.udpipe_input,
            *(self.system(s) for s in SYSTEMS),
            self.spmrl_dev_conll,
            self.spmrl_dev_lattices,
            self.spmrl_dev_ma,
            self.spmrl_dev_tokens,
            self.spmrl_test_conll,
            self.spmrl_test_lattices,
            self.spmrl_test_tokens,
        ]

    def missing(self) -> list[Path]:
        return [p for p in self.files() if not p.exists()]


@dataclass(frozen=True)
class Parses:
    """spaCy's parses (derived from non-commercial data: outside the repository)."""

    root: Path

    def ud(self, scenario: str) -> Path:
        return self.root / f"he_htb-test.spacy.{scenario}.conllu"

    def spmrl(self, scenario: str) -> Path:
        return self.root / f"spmrl-dev.spacy.{scenario}.conll"

    def spmrl_lattice(self, baseline: str) -> Path:
        return self.root / f"spmrl-dev.{baseline}.lattices"

    def files(self) -> list[Path]:
        return [
            *(self.ud(s) for s in ("gold", "predicted", "raw-udpipe")),
            *(self.spmrl(s) for s in ("gold", "predicted", *(f"raw-{b}" for b in BASELINES))),
            *(self.spmrl_lattice(b) for b in BASELINES),
        ]

    def missing(self) -> list[Path]:
        return [p for p in self.files() if not p.exists()]


def require_data(data: Data) -> None:
    missing = data.missing()
    if missing:
        sys.exit(
            f"hebrew_scenarios: the Hebrew research data is not there ({missing[0]} and "
            f"{len(missing) - 1} more missing). It is read in place from ../shared/data "
            "(--data); see its README. Nothing was written."
        )


def outside_repository(path: Path) -> Path:
    """The parses folder, refused if it lies inside the repository (licenses: never commit them)."""
    resolved = path.resolve()
    if resolved == ROOT or ROOT in resolved.parents:
        sys.exit(
            f"hebrew_scenarios: {path} is inside the repository; the parses are derived from "
            "non-commercial / research-only data and must stay outside it"
        )
    return resolved


# ---------------------------------------------------------------------------
# UD 2.2 conventions


def _feats(token: Token) -> set[str]:
    return set(token.feats.split("|"))


def to_ud22(token: Token) -> tuple[Token, str | None]:
    """Undo three conventions the newer UD Hebrew-HTB changed since UD 2.2 (returns the rule applied).

    * ``det:def``: the article ה (DET, PronType=Art) is ``det:def`` in UD 2.2, ``det`` later;
    * ``PART``: the accusative marker את (Case=Acc) and free-standing של (Case=Gen, no ``_``)
      are PART in UD 2.2, ADP later (the clitic ``_של_`` stays ADP);
    * copula: היה and other AUX with VerbType=Cop are VERB in UD 2.2, attached as ``aux``
      where the newer release says ``cop``.
    Heads never change.
    """
    feats = _feats(token)
    if token.upos == "DET" and "PronType=Art" in feats and token.deprel == "det":
        return replace(token, deprel="det:def"), "det:def"
    if token.upos == "ADP" and ("Case=Acc" in feats or ("Case=Gen" in feats and "_" not in token.form)):
        return replace(token, upos="PART", xpos="PART"), "PART"
    if token.upos == "AUX" and "VerbType=Cop" in feats:
        deprel = "aux" if token.deprel == "cop" else token.deprel
        return replace(token, upos="VERB", xpos="VERB", deprel=deprel), "copula"
    return token, None


def harmonize(trees: Iterable[DepTree]) -> tuple[list[DepTree], dict[str, int]]:
    """:func:`to_ud22` on every word; how often each rule applied."""
    counts: dict[str, int] = {"det:def": 0, "PART": 0, "copula": 0}
    out = []
    for tree in trees:
        toks = []
        for tok in tree.tokens:
            new, rule = to_ud22(tok)
            if rule is not None:
                counts[rule] += 1
            toks.append(new)
        out.append(replace(tree, tokens=tuple(toks)))
    return out, counts


# ---------------------------------------------------------------------------
# training and parsing (needs spaCy: bash scripts/setup.sh experiments)


def _tok2vec(attrs: list[str], rows: list[int]) -> dict[str, Any]:
    """The "efficiency" preset's token vectors (CNN, width 96, depth 4), embedding ``attrs``."""
    return {
        "@architectures": "spacy.Tok2Vec.v2",
        "embed": {
            "@architectures": "spacy.MultiHashEmbed.v2",
            "width": 96,
            "attrs": attrs,
            "rows": rows,
            "include_static_vectors": False,
        },
        "encode": {
            "@architectures": "spacy.MaxoutWindowEncoder.v2",
            "width": 96,
            "depth": 4,
            "window_size": 1,
            "maxout_pieces": 3,
        },
    }


def spacy_config(seed: int, max_epochs: int) -> Any:
    """spaCy's "efficiency" tagger + parser, with the parser's token vectors embedding TAG.

    The preset shares one tok2vec between tagger and parser and never looks at
    tags; here each has its own, the parser's with the tag as a feature, and
    the tagger annotates the training sentences for the parser
    (``annotating_components``), so the parser learns on predicted tags.
    """
    from spacy.cli.init_config import init_config

    config = init_config(lang="he", pipeline=["tagger", "parser"], optimize="efficiency", gpu=False)
    config["nlp"]["pipeline"] = ["tagger", "parser"]
    del config["components"]["tok2vec"]
    config["components"]["tagger"]["model"]["tok2vec"] = _tok2vec(
        ["NORM", "PREFIX", "SUFFIX", "SHAPE"], [5000, 1000, 2500, 2500]
    )
    config["components"]["parser"]["model"]["tok2vec"] = _tok2vec(
        ["NORM", "PREFIX", "SUFFIX", "SHAPE", "TAG"], [5000, 1000, 2500, 2500, 200]
    )
    config["components"]["parser"]["min_action_freq"] = 1  # keep every label of a small treebank
    config["training"]["annotating_components"] = ["tagger"]
    config["training"]["max_epochs"] = max_epochs
    config["training"]["max_steps"] = 0
    config["training"]["patience"] = 10_000
    config["training"]["eval_frequency"] = 50
    config["system"]["seed"] = seed
    return config


def _docbin(trees: Sequence[DepTree], vocab: Any) -> Any:
    from spacy.tokens import Doc, DocBin

    db = DocBin()
    for t in trees:
        db.add(
            Doc(
                vocab,
                words=[tok.form for tok in t.tokens],
                tags=[tok.upos for tok in t.tokens],
                heads=[tok.head - 1 if tok.head else i for i, tok in enumerate(t.tokens)],
                deps=[tok.deprel for tok in t.tokens],
            )
        )
    return db


def train_model(
    name: str, trees: Sequence[DepTree], workdir: Path, max_epochs: int, reuse: bool = False
) -> tuple[Any, dict]:
    """Train on the first 90% of ``trees`` (sentences that are trees), choose the checkpoint on the rest.

    ``reuse``: load the model (and its training report) a previous run left in ``workdir``.
    """
    import spacy
    from spacy.cli.train import train as spacy_train

    wd = workdir / name
    best = wd / "model" / "model-best"
    if reuse and (wd / "report.json").exists():
        print(f"{name}: reusing {best}", file=sys.stderr)
        return spacy.load(best), json.loads((wd / "report.json").read_text())
    usable = [t for t in trees if t.structure_problem() is None]
    cut = int(len(usable) * (1 - HELD_OUT))
    wd.mkdir(parents=True, exist_ok=True)
    blank = spacy.blank("he")
    _docbin(usable[:cut], blank.vocab).to_disk(wd / "train.spacy")
    _docbin(usable[cut:], blank.vocab).to_disk(wd / "heldout.spacy")
    config = spacy_config(SEED, max_epochs)
    record_progress(config, wd)
    config.to_disk(wd / "config.cfg")
    t0 = time.perf_counter()
    spacy_train(
        wd / "config.cfg",
        wd / "model",
        overrides={"paths.train": str(wd / "train.spacy"), "paths.dev": str(wd / "heldout.spacy")},
    )
    seconds = time.perf_counter() - t0
    perf = json.loads((best / "meta.json").read_text())["performance"]
    report = {
        "model": name,
        "seed": SEED,
        "max_epochs": max_epochs,
        **epochs_run(wd).as_json(),
        "train_sentences": cut,
        "held_out_sentences": len(usable) - cut,
        "not_a_tree_skipped": len(trees) - len(usable),
        "train_seconds": round(seconds, 1),
        "held_out_tag_acc": perf.get("tag_acc"),
        "held_out_uas": perf.get("dep_uas"),
        "held_out_las": perf.get("dep_las"),
    }
    (wd / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"{name}: trained in {seconds:.0f} s", file=sys.stderr)
    return spacy.load(best), report


def parse(nlp: Any, sentences: Sequence[Sequence[str]], tags: Sequence[Sequence[str]] | None) -> list[list]:
    """``(tag, head, deprel)`` per word (head 0 = root, label ``ROOT``): one tree per sentence.

    With ``tags`` (gold) only the parser runs; else tagger and parser.  The
    first word is marked as the only sentence start, so spaCy never splits a
    sentence into several trees.
    """
    from spacy.tokens import Doc

    docs = []
    for k, words in enumerate(sentences):
        doc = Doc(nlp.vocab, words=list(words), tags=list(tags[k]) if tags is not None else None)
        for i, tok in enumerate(doc):
            tok.is_sent_start = i == 0
        docs.append(doc)
    pipe = nlp.get_pipe("parser").pipe(docs) if tags is not None else nlp.pipe(docs)
    out = []
    for doc in pipe:
        out.append([(d.tag_, spacy_head(d), spacy_label(d, "ROOT")) for d in doc])
    return out


def _with_parse(tree: DepTree, analysis: list, root: str, keep_tags: bool) -> DepTree:
    toks = []
    for tok, (tag, head, deprel) in zip(tree.tokens, analysis, strict=True):
        deprel = root if head == 0 else deprel
        if keep_tags:
            toks.append(replace(tok, head=head, deprel=deprel, deps="_"))
        else:
            toks.append(
                replace(tok, upos=tag, xpos=tag, lemma="_", feats="_", head=head, deprel=deprel, deps="_")
            )
    return replace(tree, tokens=tuple(toks))


def read_unparsed(path: Path) -> list[DepTree]:
    """A CoNLL-U file without trees (HEAD and DEPREL ``_``, the shared task's preprocessed input),
    read with every word attached to the root; only its words and multiword tokens are used."""
    lines = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if len(cols) == 10 and cols[0].isdigit() and cols[6] == "_":
                cols[6], cols[7] = "0", "dep"
            lines.append("\t".join(cols))
    return parse_conllu("\n".join(lines) + "\n", name=str(path), on_invalid="keep")


def _write(path: Path, trees: Iterable[DepTree]) -> None:
    path.write_text(write_conllu(trees), encoding="utf-8")


def _baseline_paths(data: Data) -> dict[str, list[tuple[Arc, ...]]]:
    """The two segmentation baselines of ``scripts/spmrl_segmentation_baseline.py`` over the dev lattices."""
    ma = list(read_lattices(data.spmrl_dev_ma))
    dev_tokens = list(read_tokens(data.spmrl_dev_tokens))
    counts = train_counts(data.spmrl_test_lattices, data.spmrl_test_tokens)
    return {
        "most-frequent": [
            tuple(most_frequent_path(lat, toks, counts)) for lat, toks in zip(ma, dev_tokens, strict=True)
        ],
        "first-path": [first_path(lat) for lat in ma],
    }


def train_ud(data: Data, parses: Parses, workdir: Path, max_epochs: int, reuse: bool = False) -> dict:
    """UD Hebrew-HTB: trained on the newer release's dev (converted to UD 2.2), parses UD 2.2 test."""
    dev, rules = harmonize(read_conllu(data.ud_dev, on_invalid="keep"))
    nlp, info = train_model("ud-htb", dev, workdir, max_epochs, reuse)
    info["train_data"] = f"{data.ud_dev.name} (newer UD release, {len(dev)} sentences)"
    info["converted_to_ud22"] = rules
    gold = list(read_conllu(data.ud22_gold, on_invalid="keep"))
    words = [[t.form for t in g.tokens] for g in gold]
    with_tags = parse(nlp, words, [[t.upos for t in g.tokens] for g in gold])
    _write(parses.ud("gold"), (_with_parse(g, a, "root", True) for g, a in zip(gold, with_tags, strict=True)))
    predicted = parse(nlp, words, None)
    _write(
        parses.ud("predicted"),
        (_with_parse(g, a, "root", False) for g, a in zip(gold, predicted, strict=True)),
    )
    udpipe = read_unparsed(data.udpipe_input)
    raw = parse(nlp, [[t.form for t in u.tokens] for u in udpipe], None)
    _write(
        parses.ud("raw-udpipe"), (_with_parse(u, a, "root", False) for u, a in zip(udpipe, raw, strict=True))
    )
    return info


def train_spmrl(data: Data, parses: Parses, workdir: Path, max_epochs: int, reuse: bool = False) -> dict:
    """SPMRL Hebrew: trained on the test gold, parses dev (gold, predicted tags, the two baselines)."""
    test = list(read_conllu(data.spmrl_test_conll, on_invalid="keep"))
    nlp, info = train_model("spmrl", test, workdir, max_epochs, reuse)
    info["train_data"] = f"{data.spmrl_test_conll.name} ({len(test)} sentences)"
    dev_gold = list(read_conllu(data.spmrl_dev_conll, on_invalid="keep"))
    words = [[t.form for t in g.tokens] for g in dev_gold]
    with_tags = parse(nlp, words, [[t.upos for t in g.tokens] for g in dev_gold])
    _write(
        parses.spmrl("gold"),
        (_with_parse(g, a, "ROOT", True) for g, a in zip(dev_gold, with_tags, strict=True)),
    )
    predicted = parse(nlp, words, None)
    _write(
        parses.spmrl("predicted"),
        (_with_parse(g, a, "ROOT", False) for g, a in zip(dev_gold, predicted, strict=True)),
    )
    for baseline, paths in _baseline_paths(data).items():
        parses.spmrl_lattice(baseline).write_text(write_lattices(Lattice(p) for p in paths), encoding="utf-8")
        analyses = parse(nlp, [[a.segment for a in p] for p in paths], None)
        trees = [
            DepTree(
                tuple(
                    Token(k + 1, a.segment, a.lemma, tag, tag, "_", head, "ROOT" if head == 0 else rel)
                    for k, (a, (tag, head, rel)) in enumerate(zip(p, an, strict=True))
                ),
                sent_id=str(i + 1),
            )
            for i, (p, an) in enumerate(zip(paths, analyses, strict=True))
        ]
        _write(parses.spmrl(f"raw-{baseline}"), trees)
    return info


def train(
    data: Data, parses: Parses, workdir: Path, max_epochs: int, reuse: bool = False
) -> dict[str, object]:
    import spacy

    parses.root.mkdir(parents=True, exist_ok=True)
    models = [
        train_ud(data, parses, workdir, max_epochs, reuse),
        train_spmrl(data, parses, workdir, max_epochs, reuse),
    ]
    report: dict[str, object] = {"spacy": spacy.__version__, "models": models}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{NAME}.training.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


# ---------------------------------------------------------------------------
# evaluation (evalcore only)


@dataclass(frozen=True)
class Row:
    """One row of the scenario tables."""

    treebank: str  # "ud" | "spmrl"
    parser: str
    input: str
    labels: str  # "full" | "base" (dependency labels compared without subtypes)
    result: JointResult

    @property
    def scenario(self) -> str:
        return self.result.scenario


CSV_HEADERS = [
    "treebank",
    "parser",
    "input",
    "scenario",
    "labels",
    "sentences",
    "unaligned_gold",
    "unaligned_pred",
    "skipped",
    "segeval_u",
    "segeval_l",
    "uas",
    "las",
    "tedeval_u",
    "tedeval_l",
    "tokacc_u",
    "tokacc_l",
]


def _cell(value: float | None) -> str:
    return "N/A" if value is None else f"{value:.4f}"


def csv_row(row: Row) -> list[str]:
    r = row.result
    c = r.classic
    return [
        row.treebank,
        row.parser,
        row.input,
        row.scenario,
        row.labels,
        str(len(r.sentences)),
        str(len(r.unaligned_gold)),
        str(len(r.unaligned_pred)),
        str(r.skipped),
        _cell(r.segeval.unlabeled),
        _cell(r.segeval.labeled),
        _cell(c.unlabeled if c else None),
        _cell(c.labeled if c else None),
        _cell(r.ted_unlabeled.score if r.ted_unlabeled else None),
        _cell(r.ted_labeled.score if r.ted_labeled else None),
        _cell(r.segeval.token_accuracy_unlabeled),
        _cell(r.segeval.token_accuracy_labeled),
    ]


def _ud_config(labels: str) -> JointConfig:
    # the UD files are CoNLL-U; the labels are said, not decided by the format
    return joint_config(LatticeSettings(labels="universal" if labels == "base" else "full"), "conllu")


def _ud_gold(data: Data, labels: str) -> GoldInput:
    return read_gold(str(data.ud22_gold), options=_ud_config(labels).read_options)


def ud_raw_rows(data: Data, labels: Sequence[str] = ("full", "base")) -> list[Row]:
    """The five CoNLL 2018 systems (raw text) against the UD 2.2 gold: needs the shared data only."""
    rows = []
    for lab in labels:
        gold = _ud_gold(data, lab)
        for name in SYSTEMS:
            pairing = load_pairing(gold, str(data.system(name)))
            result = joint_evaluate(pairing, _ud_config(lab), name=name)
            # raw text: the CoNLL 2018 scorer's aligned UAS/LAS (docs/lattice.md, "The classic metric")
            result = with_aligned_attachment(
                result, pairing.mode, str(data.ud22_gold), str(data.system(name))
            )
            rows.append(Row("ud", name, "raw text (own segmentation)", lab, result))
    return rows


UD_SPACY_INPUTS = (
    ("gold", "gold words, gold UPOS"),
    ("predicted", "gold words, spaCy tags"),
    ("raw-udpipe", "UDPipe 1.2 words (shared-task preprocessing), spaCy tags"),
)


def ud_spacy_rows(data: Data, parses: Parses, labels: Sequence[str] = ("full", "base")) -> list[Row]:
    rows = []
    for lab in labels:
        gold = _ud_gold(data, lab)
        for scenario, what in UD_SPACY_INPUTS:
            pairing = load_pairing(gold, str(parses.ud(scenario)))
            result = joint_evaluate(pairing, _ud_config(lab), name=f"spacy-{scenario}")
            result = with_aligned_attachment(
                result, pairing.mode, str(data.ud22_gold), str(parses.ud(scenario))
            )
            rows.append(Row("ud", "spaCy (UD dev)", what, lab, result))
    return rows


def _spmrl_gold(data: Data) -> GoldInput:
    return read_gold(str(data.spmrl_dev_conll), str(data.spmrl_dev_lattices))


def _ambiguity(data: Data) -> list[Lattice]:
    return list(read_lattices(data.spmrl_dev_ma))


def spmrl_reference_rows(data: Data) -> list[Row]:
    """The gold against itself and the two segmentation baselines alone: needs the shared data only."""
    gold = _spmrl_gold(data)
    ma = _ambiguity(data)
    rows = [
        Row(
            "spmrl",
            "gold",
            "gold morphemes and tags (sanity check)",
            "full",
            joint_evaluate(
                load_pairing(gold, str(data.spmrl_dev_conll), pred_lattice=str(data.spmrl_dev_lattices)),
                name="gold",
                ambiguity=ma,
            ),
        )
    ]
    with tempfile.TemporaryDirectory(prefix="evalcore-hebrew-") as tmp:
        for baseline, paths in _baseline_paths(data).items():
            path = Path(tmp) / f"{baseline}.lattices"
            path.write_text(write_lattices(Lattice(p) for p in paths), encoding="utf-8")
            result = joint_evaluate(load_pairing(gold, str(path)), name=baseline, ambiguity=ma)
            what = "segmentation and MA tags only"
            rows.append(Row("spmrl", f"baseline: {baseline}", what, "full", result))
    return rows


SPMRL_SPACY_INPUTS = (
    ("gold", "gold morphemes, gold CPOS"),
    ("predicted", "gold morphemes, spaCy tags"),
    *((f"raw-{b}", f"{b} segmentation, spaCy tags") for b in BASELINES),
)


def spmrl_spacy_rows(data: Data, parses: Parses) -> list[Row]:
    gold = _spmrl_gold(data)
    ma = _ambiguity(data)
    rows = []
    for scenario, what in SPMRL_SPACY_INPUTS:
        lattice = (
            parses.spmrl_lattice(scenario.removeprefix("raw-"))
            if scenario.startswith("raw-")
            else data.spmrl_dev_lattices
        )
        pairing = load_pairing(gold, str(parses.spmrl(scenario)), pred_lattice=str(lattice))
        result = joint_evaluate(pairing, name=f"spacy-{scenario}", ambiguity=ma)
        rows.append(Row("spmrl", "spaCy (SPMRL test)", what, "full", result))
    return rows


@dataclass(frozen=True)
class ConventionGap:
    """The newer UD release's test gold, converted by :func:`to_ud22`, against the UD 2.2 gold."""

    sentences: int  # with the same words in both releases
    of: int
    words: int
    upos: float
    upos_unconverted: float
    uas: float
    las: float
    las_unconverted: float


def convention_gap(data: Data) -> ConventionGap:
    """How far apart the two releases are on the same test sentences (the ceiling of a parser
    trained on the newer release and scored against UD 2.2)."""
    old = list(read_conllu(data.ud22_gold, on_invalid="keep"))
    new = list(read_conllu(data.ud_test_newer, on_invalid="keep"))
    converted, _ = harmonize(new)
    same = [
        (o, n, c)
        for o, n, c in zip(old, new, converted, strict=True)
        if o.forms == n.forms and o.structure_problem() is None and n.structure_problem() is None
    ]
    conv = unconv = attachment.AttachCounts()
    upos = upos_raw = words = 0
    for o, n, c in same:
        conv = conv + attachment.sentence_counts(o, c)
        unconv = unconv + attachment.sentence_counts(o, n)
        words += len(o.tokens)
        upos += sum(a.upos == b.upos for a, b in zip(o.tokens, c.tokens, strict=True))
        upos_raw += sum(a.upos == b.upos for a, b in zip(o.tokens, n.tokens, strict=True))
    s_conv = attachment.score(conv)
    s_unconv = attachment.score(unconv)
    return ConventionGap(
        len(same), len(old), words, upos / words, upos_raw / words, s_conv.uas, s_conv.las, s_unconv.las
    )


@dataclass(frozen=True)
class Results:
    rows: tuple[Row, ...]
    gap: ConventionGap
    training: dict | None


def evaluate(data: Data, parses: Parses) -> Results:
    ud = ud_spacy_rows(data, parses) + ud_raw_rows(data)
    # full-label rows first, then the base-label ones, each in table order
    ud.sort(key=lambda r: r.labels != "full")
    spmrl = spmrl_reference_rows(data)
    spmrl = spmrl[:1] + spmrl_spacy_rows(data, parses) + spmrl[1:]
    training_path = RESULTS / f"{NAME}.training.json"
    training = json.loads(training_path.read_text()) if training_path.exists() else None
    return Results(tuple(ud + spmrl), convention_gap(data), training)


# ---------------------------------------------------------------------------
# the retraining check: one model retrained, its rows against the committed table


RowKey = tuple[str, str, str, str]  # treebank, parser, input, labels


@dataclass(frozen=True)
class CellCheck:
    """One number of a retrained row next to the committed one (percent points)."""

    row: RowKey
    metric: str
    committed: float
    fresh: float

    @property
    def diff(self) -> float:
        return self.fresh - self.committed

    def within(self, tolerance: float) -> bool:
        return abs(self.diff) <= tolerance + 1e-9


def committed_rows() -> dict[RowKey, list[str]]:
    """``docs/results/hebrew_scenarios.csv`` by (treebank, parser, input, labels)."""
    rows = list(csv.reader(io.StringIO((RESULTS / f"{NAME}.csv").read_text(encoding="utf-8"))))
    if rows[0] != CSV_HEADERS:
        raise ValueError(f"{NAME}.csv: unexpected header {rows[0]}")
    return {(r[0], r[1], r[2], r[4]): r for r in rows[1:]}


def compare_rows(rows: Sequence[Row], committed: dict[RowKey, list[str]]) -> list[CellCheck]:
    """Every numeric cell of ``rows`` against the committed row (N/A must stay N/A)."""
    first = CSV_HEADERS.index("segeval_u")
    out = []
    for row in rows:
        key = (row.treebank, row.parser, row.input, row.labels)
        old, new = committed[key], csv_row(row)
        if old[:first] != new[:first]:
            raise ValueError(f"{key}: sentences or scenario differ: {old[:first]} vs {new[:first]}")
        for metric, a, b in zip(CSV_HEADERS[first:], old[first:], new[first:], strict=True):
            if (a == "N/A") != (b == "N/A"):
                raise ValueError(f"{key} {metric}: committed {a}, retrained {b}")
            if a != "N/A":
                out.append(CellCheck(key, metric, 100 * float(a), 100 * float(b)))
    return out


RETRAIN = {"ud-htb": (train_ud, ud_spacy_rows), "spmrl": (train_spmrl, spmrl_spacy_rows)}


def check_retrain(
    data: Data, parses: Parses, model: str, max_epochs: int = MAX_EPOCHS
) -> tuple[dict, list[CellCheck]]:
    """Retrain ``model`` (``ud-htb`` or ``spmrl``) into ``parses``, score its rows, compare them."""
    trainer, rows_of = RETRAIN[model]
    parses.root.mkdir(parents=True, exist_ok=True)
    info = trainer(data, parses, parses.root / "work", max_epochs)
    rows = rows_of(data, parses)
    return info, compare_rows(rows, committed_rows())


def print_checks(info: dict, checks: Sequence[CellCheck], tolerance: float) -> bool:
    rows = [
        [" / ".join((c.row[2], c.row[3])), c.metric, f"{c.committed:.2f}", f"{c.fresh:.2f}", f"{c.diff:+.2f}"]
        for c in checks
    ]
    print(text_table(["input / labels", "metric", "committed", "retrained", "diff"], rows))
    worst = max(checks, key=lambda c: abs(c.diff))
    ok = all(c.within(tolerance) for c in checks)
    print(
        f"{info['model']}: {info['train_seconds']} s, {info['epochs_run']} epochs (best checkpoint at epoch "
        f"{info['best_checkpoint_epoch']}); held-out UAS {100 * info['held_out_uas']:.2f}. {len(checks)} "
        f"cells, largest difference {worst.diff:+.2f} ({worst.metric}, {worst.row[2]}); tolerance "
        f"±{tolerance} points: {'PASS' if ok else 'FAIL'}"
    )
    return ok


# ---------------------------------------------------------------------------
# tables and plot


def _pct(value: float | None) -> str:
    return "N/A" if value is None else f"{100 * value:.2f}"


def _md_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    align = ["---" if i < 2 else "---:" for i in range(len(headers))]
    return (
        "| "
        + " | ".join(headers)
        + " |\n| "
        + " | ".join(align)
        + " |\n"
        + "".join("| " + " | ".join(r) + " |\n" for r in rows)
    )


def _paper_cells(row: Row) -> list[str]:
    r = row.result
    c = r.classic
    return [
        _pct(r.segeval.unlabeled),
        _pct(r.segeval.labeled),
        _pct(c.unlabeled if c else None),
        _pct(c.labeled if c else None),
        _pct(r.ted_unlabeled.score if r.ted_unlabeled else None),
        _pct(r.ted_labeled.score if r.ted_labeled else None),
    ]


PAPER_HEADERS = ["SEGEVAL U", "SEGEVAL L", "UAS", "LAS", "TEDEVAL U", "TEDEVAL L"]


def _notes(rows: Sequence[Row]) -> str:
    lines = []
    for row in rows:
        r = row.result
        text = (
            f"* {r.name}: {len(r.sentences)} of {r.gold_sentences} gold sentences scored (unaligned: "
            f"{len(r.unaligned_gold)} gold / {len(r.unaligned_pred)} predicted); {r.skipped} left out of "
            "TEDEVAL and attachment (gold not a tree)"
        )
        if r.classic_note:
            text += f"; {r.classic_note}"
        lc = r.lattice_check
        if lc is not None:
            text += (
                f"; predicted analysis outside the ambiguity lattice in {lc.pred_outside} sentences "
                f"({lc.pred_outside_segments} by segments alone)"
            )
        lines.append(text + ".")
    return "\n".join(lines)


def markdown(results: Results) -> str:
    ud_full = [r for r in results.rows if r.treebank == "ud" and r.labels == "full"]
    ud_base = [r for r in results.rows if r.treebank == "ud" and r.labels == "base"]
    spmrl = [r for r in results.rows if r.treebank == "spmrl"]
    gap = results.gap
    blocks = [
        "# Hebrew: gold / predicted / raw input (ACL 2012 Tables 1–2)",
        "Generated by `python experiments/hebrew_scenarios.py evaluate`. Percent. UAS/LAS of the raw "
        "UD rows: the CoNLL 2018 scorer's aligned UAS/LAS F1 (character alignment of the whole "
        "document, relation subtypes ignored, docs/lattice.md, 'The classic metric'; equal to the official "
        "scorer's); N/A: the "
        "classic metric needs the gold segmentation or CoNLL-U text to align by characters (the SPMRL "
        "morphemes do not spell their tokens), TEDEVAL needs trees. `docs/findings.md` says what it "
        "means. The data is research-only: only these tables are in the repository.",
        "## UD Hebrew-HTB test, against the CoNLL 2018 gold (UD 2.2)",
        _md_table(
            ["parser (trained on)", "scenario: input", *PAPER_HEADERS],
            [[r.parser, f"{r.scenario}: {r.input}", *_paper_cells(r)] for r in ud_full],
        ),
        "The same, dependency labels compared without subtypes (`--deprel-base`, as the shared task's LAS):",
        _md_table(
            ["parser (trained on)", "scenario: input", "LAS", "TEDEVAL L"],
            [
                [
                    r.parser,
                    f"{r.scenario}: {r.input}",
                    _pct(r.result.classic.labeled if r.result.classic else None),
                    _pct(r.result.ted_labeled.score if r.result.ted_labeled else None),
                ]
                for r in ud_base
            ],
        ),
        _notes(ud_full),
        f"Convention gap: on the {gap.sentences} of {gap.of} test sentences whose words are the same "
        f"in both releases, the newer release's gold, converted to UD 2.2 conventions as the training "
        f"data was, scored as a parse against the UD 2.2 gold ({gap.words} words): UPOS "
        f"{_pct(gap.upos)} (unconverted {_pct(gap.upos_unconverted)}), UAS {_pct(gap.uas)}, "
        f"LAS {_pct(gap.las)} (unconverted {_pct(gap.las_unconverted)}).",
        "## SPMRL Hebrew dev, against the gold lattices and dependencies",
        _md_table(
            ["parser (trained on)", "scenario: input", *PAPER_HEADERS, "tok.acc U", "tok.acc L"],
            [
                [
                    r.parser,
                    f"{r.scenario}: {r.input}",
                    *_paper_cells(r),
                    _pct(r.result.segeval.token_accuracy_unlabeled),
                    _pct(r.result.segeval.token_accuracy_labeled),
                ]
                for r in spmrl
            ],
        ),
        _notes(spmrl),
    ]
    lc = spmrl[0].result.lattice_check
    if lc is not None:
        blocks.append(
            f"Gold outside the dev ambiguity lattices: {lc.gold_outside} of {lc.sentences} sentences "
            f"({lc.gold_tokens_outside} of {lc.tokens} tokens) by segment + CPOS, "
            f"{lc.gold_outside_segments} sentences by segments alone."
        )
    if results.training:
        models = results.training["models"]
        blocks.append("## Training (`docs/results/hebrew_scenarios.training.json`)")
        blocks.append(
            _md_table(
                ["model", "trained on", "train / held out", "seconds", "held-out tags", "UAS", "LAS"],
                [
                    [
                        m["model"],
                        str(m["train_data"]),
                        f"{m['train_sentences']} / {m['held_out_sentences']}",
                        f"{m['train_seconds']:.0f}",
                        _pct(m["held_out_tag_acc"]),
                        _pct(m["held_out_uas"]),
                        _pct(m["held_out_las"]),
                    ]
                    for m in models
                ],
            )
        )
        blocks.append(
            f"spaCy {results.training['spacy']}, CPU, seed {models[0]['seed']}, at most "
            f"{models[0]['max_epochs']} epochs; held-out scores of the chosen checkpoint, with "
            "predicted tags."
        )
    sig_ud, sig_spmrl = ud_full[0].result.signature, spmrl[0].result.signature
    blocks.append(f"Signatures: `{sig_ud}` (UD), `{sig_spmrl}` (SPMRL).")
    return "\n\n".join(b.rstrip("\n") for b in blocks) + "\n"


def svg(results: Results) -> str:
    """Horizontal bars: SEGEVAL L, TEDEVAL U and TEDEVAL L per row (full labels), axis from 50 to 100."""
    rows = [
        r
        for r in results.rows
        if r.labels == "full" and r.result.ted_unlabeled is not None and r.parser != "gold"
    ]
    series = (
        ("SEGEVAL L", "#999999", lambda r: r.result.segeval.labeled),
        ("TEDEVAL U", "#1f77b4", lambda r: r.result.ted_unlabeled.score),
        ("TEDEVAL L", "#ff7f0e", lambda r: r.result.ted_labeled.score),
    )
    left, width, bar, gap, top = 330, 420, 7, 8, 40
    lo = 50.0

    def x(v: float) -> float:
        return left + width * max(0.0, 100 * v - lo) / (100 - lo)

    height = top + len(rows) * (3 * bar + gap) + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 20}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{left}" y="14" font-weight="bold">Hebrew scenarios: percent (axis from {lo:.0f})</text>',
    ]
    for k, (label, color, _) in enumerate(series):
        parts.append(f'<rect x="{left + 110 * k}" y="22" width="10" height="10" fill="{color}"/>')
        parts.append(f'<text x="{left + 110 * k + 14}" y="31">{label}</text>')
    bottom = top + len(rows) * (3 * bar + gap)
    for tick in range(int(lo), 101, 10):
        tx = x(tick / 100)
        parts.append(f'<line x1="{tx:.1f}" y1="{top - 4}" x2="{tx:.1f}" y2="{bottom}" stroke="#dddddd"/>')
        parts.append(f'<text x="{tx:.1f}" y="{bottom + 14}" text-anchor="middle">{tick}</text>')
    y = top
    for r in rows:
        treebank = "UD" if r.treebank == "ud" else "SPMRL"
        name = f"{treebank} {r.result.name} ({r.scenario})"
        parts.append(f'<text x="{left - 6}" y="{y + 2 * bar}" text-anchor="end">{name}</text>')
        for k, (_, color, value) in enumerate(series):
            v = value(r)
            w = x(v) - left
            parts.append(
                f'<rect x="{left}" y="{y + k * bar}" width="{w:.1f}" height="{bar - 1}" fill="{color}"/>'
            )
        y += 3 * bar + gap
    parts.append("</svg>\n")
    return "\n".join(parts)


def write_outputs(results: Results, out: Path = RESULTS) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = [csv_row(r) for r in results.rows]
    (out / f"{NAME}.csv").write_text(csv_text(CSV_HEADERS, rows), encoding="utf-8")
    (out / f"{NAME}.md").write_text(markdown(results), encoding="utf-8")
    (out / f"{NAME}.svg").write_text(svg(results), encoding="utf-8")
    shown = [r for r in results.rows if r.labels == "full"]
    print(
        text_table(
            ["treebank", "parser", "scenario", "input", *PAPER_HEADERS],
            [[r.treebank, r.parser, r.scenario, r.input, *_paper_cells(r)] for r in shown],
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    for step in ("train", "evaluate", "check-retrain"):
        p = sub.add_parser(step)
        p.add_argument("--data", default=str(DEFAULT_DATA), help="the shared data folder")
        check = step == "check-retrain"
        p.add_argument(
            "--parses",
            default=None if check else str(DEFAULT_PARSES),
            help="where spaCy's parses (and models) go, outside the repository; default "
            + ("a new temporary folder" if check else "$EVALCORE_HEBREW_PARSES or /tmp/evalcore-hebrew"),
        )
        if step == "train":
            p.add_argument("--workdir", help="spaCy's training folders (default: PARSES/work)")
            p.add_argument("--max-epochs", type=int, default=MAX_EPOCHS)
            p.add_argument(
                "--reuse-models",
                action="store_true",
                help="parse again with the models a previous run left in the workdir (no training)",
            )
        if check:
            p.add_argument("--model", choices=sorted(RETRAIN), default="ud-htb", help="the model to retrain")
            p.add_argument("--max-epochs", type=int, default=MAX_EPOCHS)
            p.add_argument("--tolerance", type=float, default=TOLERANCE, help="points per cell (default 1.5)")
    args = ap.parse_args()
    if args.step != "evaluate":
        deterministic_process()
    data = Data(Path(args.data))
    require_data(data)
    if args.step == "check-retrain":
        root = Path(args.parses) if args.parses else Path(tempfile.mkdtemp(prefix="evalcore-retrain-"))
        info, checks = check_retrain(data, Parses(outside_repository(root)), args.model, args.max_epochs)
        ok = print_checks(info, checks, args.tolerance)
        print(f"parses and model: {root}")
        sys.exit(0 if ok else 1)
    parses = Parses(outside_repository(Path(args.parses)))
    if args.step == "train":
        workdir = outside_repository(Path(args.workdir)) if args.workdir else parses.root / "work"
        train(data, parses, workdir, args.max_epochs, args.reuse_models)
    missing = parses.missing()
    if missing:
        sys.exit(
            f"hebrew_scenarios: no parses in {parses.root} ({missing[0].name} missing): "
            "run `python experiments/hebrew_scenarios.py train` first"
        )
    write_outputs(evaluate(data, parses))


if __name__ == "__main__":
    main()
