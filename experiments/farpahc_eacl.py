"""The EACL 2012 cross-framework experiment on FarPaHC: a constituency parser and a dependency
parser scored on one scale, with and without aligned label sets.

FarPaHC is the one treebank we carry where both frameworks have a hand-made gold for the same
sentences: constituency trees with function tags (``psd/``, the 1928 Acts text, Penn-Helsinki
style) and their UD conversion (``ud/``, whose ``# X_ID`` comments name the source trees).

    python experiments/farpahc_eacl.py prepare    # pairs the golds: assets/farpahc/eacl/, assets/gum/
    python experiments/farpahc_eacl.py train      # trains the spaCy parser, writes its parse (8 min)
    python experiments/farpahc_eacl.py evaluate   # writes docs/results/{farpahc_eacl,gum_ptb_ud}.{csv,md}

**prepare** (needs ``../shared/data/farpahc``).  Every UD sentence of the Acts text is paired with
its psd tree(s) by ``X_ID`` (a UD sentence made of several psd trees gets them side by side under
one root).  The psd trees are cleaned the way the UD conversion read them: ``CODE``/``ID`` nodes
and empty elements (``*T*-1``, ``*ICH*``, ``*con*``, ``0``…) are removed with the ancestors they
leave empty, punctuation leaves lose their lemma (``,-,`` → ``,``), split clitics are joined
(``frásögn$ $ina`` → ``frásögnina``, the joined word takes the first part's place) and
part-of-speech tags lose their case (``N-A`` → ``N``: not a function).  The same cleaning is
applied to the Berkeley split-0 trees.  The **evaluation set** is the psd trees of Acts sentences
whose psd and UD words agree that are in the Berkeley fold's test part (with the same words in the
Berkeley parse), each with its words of the UD sentence (:func:`cut`); every agreeing Acts sentence
without such a tree is the **map set**, on which ``evalcore align-labels`` proposes the label map
(``maps/psd-to-ud.proposed.map``; reviewed by hand into ``maps/psd-to-ud.map``), never on the
evaluation sentences.  GUM (``../shared/data/gum``): 4 documents are its map set, 4 are scored.

**train** (needs spaCy: ``bash scripts/setup.sh experiments``).  spaCy's transition-based parser
("efficiency" preset, blank pipeline, CPU) trained on every FarPaHC UD sentence outside the
evaluation set (John train and the Acts sentences without an evaluated tree; every 10th held out to
choose the checkpoint), on gold words, 8 epochs; it parses the evaluation sentences.  Deterministic
where spaCy allows it (``experiments/spacy_training.py``); records
``docs/results/farpahc_eacl.training.json``.  It overwrites the committed parse, so ``git diff``
shows any change; then run ``evaluate``.  A retrained parse's cells may differ from the committed
table by up to :data:`spacy_training.TOLERANCE` points on another machine.

**evaluate** (evalcore and the committed files in ``assets/`` only): two schemes, ``psd`` (gold:
the cleaned psd trees; parse: Berkeley) and ``ud`` (gold: UD; parse: spaCy), U-TED and L-TED
against each gold and their generalization, with significance (docs/tedeval.md, "The cross-scheme experiment
and significance"), once without label maps and once with the reviewed per-scheme map; the share of the
labeled/unlabeled gap the map closes, what relabelling could reach at most, and the counted edits that remain.
Then the same twice with
``--category-labels`` (our extension of the 2012 conversion (docs/tedeval.md, "Category labels"): psd brackets
without a function tag labeled with their category, part-of-speech nodes included; docs/tedeval.md), without
maps and with the reviewed category map (``maps/psd-cat-to-ud.map``, from ``maps/psd-cat-to-ud.proposed.map``
that
``align-labels --category-labels`` proposes on the map set), with the done-when inequality cell by
cell.  Then GUM: its PTB trees against its UD gold, with and without its map.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tables import CSV_HEADERS, RESULTS, csv_rows, markdown_table

from evalcore.conversion import SchemeLabelMaps, read_label_map, to_span_tree
from evalcore.experiment import ExperimentResult, NamedTrees, Scheme, run_experiment
from evalcore.families.tedeval import TedevalSettings, conversion_config, experiment_config, ted_config
from evalcore.formats.conllu import read_conllu, write_conllu
from evalcore.formats.ptb import parse_ptb, read_ptb
from evalcore.report.tables import csv_text
from evalcore.report.tedeval import table_rows
from evalcore.trees import DepTree, Span, SpanTree, Tree, split_label

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets" / "farpahc"
EACL = ASSETS / "eacl"
DATA = ROOT.parent / "shared" / "data" / "farpahc"
SEED = 0
SHUFFLES = 10_000
NAME = "farpahc_eacl"

# ---------------------------------------------------------------------------
# bracketed trees as nested values (the script's own small representation)


@dataclass(frozen=True)
class Br:
    """A bracket: a label and children (brackets or words)."""

    label: str
    kids: tuple[Br | str, ...]


def nested(tree: Tree, i: int = 0) -> Br | str:
    n = tree.nodes[i]
    if n.terminal is not None:
        return n.label
    return Br(n.label, tuple(nested(tree, c) for c in n.children))


def leaves(b: Br | str) -> Iterator[str]:
    if isinstance(b, str):
        yield b
        return
    for k in b.kids:
        yield from leaves(k)


def bracketed(b: Br | str) -> str:
    if isinstance(b, str):
        return b
    return f"({b.label} " + " ".join(bracketed(k) for k in b.kids) + ")"


def tree_id(b: Br) -> str | None:
    """The ``(ID …)`` of a psd tree, under its outer bracket."""
    for k in b.kids:
        if isinstance(k, Br) and k.label == "ID" and len(k.kids) == 1 and isinstance(k.kids[0], str):
            return k.kids[0]
    return None


_EMPTY = re.compile(r"^(\*.*|0)$")  # Penn-Helsinki empty elements: *T*-1, *ICH*-2, *con*, *pro*, *exp*, 0
_PUNCT_LEMMA = re.compile(r"^([^\w\s]+)-\1$")  # ",-," -> ","
_METADATA = frozenset({"ID", "CODE"})
_POS_CASE = re.compile(r"(?<=.)[-*][NADG]$")  # N-A, PRO*N: the case of a part-of-speech tag, not a function


@dataclass(frozen=True)
class Cleaning:
    """Which cleaning steps to apply (all of them for the experiment; fewer to count what each fixes)."""

    empty: bool = True
    punct: bool = True
    join: bool = True
    pos_case: bool = True  # words do not change: not one of the STAGES


def _drop(b: Br | str, c: Cleaning) -> Br | str | None:
    if isinstance(b, str):
        if c.empty and _EMPTY.match(b):
            return None
        return _PUNCT_LEMMA.sub(r"\1", b) if c.punct else b
    if c.empty and b.label in _METADATA:
        return None
    kids = tuple(k for k in (_drop(k, c) for k in b.kids) if k is not None)
    if not kids:
        return None
    if c.pos_case and all(isinstance(k, str) for k in kids):
        return Br(_POS_CASE.sub("", b.label), kids)
    return Br(b.label, kids)


def _join(b: Br) -> Br:
    """Join ``X$ $Y`` leaves into ``XY`` at the first part's place; brackets left empty go."""
    words = list(leaves(b))
    merged: dict[int, str] = {}
    gone: set[int] = set()
    i = 0
    while i < len(words):
        j, text = i, words[i]
        while text.endswith("$") and j + 1 < len(words) and words[j + 1].startswith("$"):
            j += 1
            text = text[:-1] + words[j][1:]
            gone.add(j)
        if j > i:
            merged[i] = text
        i = j + 1
    if not gone:
        return b
    pos = iter(range(len(words)))

    def walk(x: Br | str) -> Br | str | None:
        if isinstance(x, str):
            k = next(pos)
            return None if k in gone else merged.get(k, x)
        kids = tuple(y for y in (walk(y) for y in x.kids) if y is not None)
        return Br(x.label, kids) if kids else None

    out = walk(b)
    assert isinstance(out, Br)
    return out


def clean(b: Br, c: Cleaning = Cleaning()) -> Br:
    """The psd/Berkeley tree as the UD conversion read it (see the module docstring)."""
    out = _drop(b, c)
    if not isinstance(out, Br):
        return Br(b.label, ())
    return _join(out) if c.join else out


def syntax_of(b: Br) -> tuple[Br, ...]:
    """The syntactic children of an outer bracket (``( (IP-MAT …) (ID …) )`` → the IP-MAT)."""
    if b.label in ("", "TOP", "ROOT"):
        return tuple(k for k in b.kids if isinstance(k, Br) and k.label not in _METADATA)
    return (b,)


def combined(trees: Sequence[Br]) -> Br:
    """Several trees' syntax side by side under one unlabeled root (a UD sentence made of several)."""
    return Br("", tuple(s for t in trees for s in syntax_of(t)))


def words(b: Br) -> tuple[str, ...]:
    return tuple(leaves(b))


# ---------------------------------------------------------------------------
# prepare: pair the golds, find the Berkeley fold's sentences


def read_nested(path: Path) -> list[Br]:
    out = []
    for t in read_ptb(path):
        n = nested(t)
        assert isinstance(n, Br)
        out.append(n)
    return out


def x_ids(tree: DepTree) -> tuple[str, ...]:
    for c in tree.comments:
        m = re.match(r"#\s*X_IDs?\s*=\s*(.*)", c)
        if m:
            return tuple(x.strip() for x in m.group(1).split(";"))
    return ()


@dataclass
class Alignment:
    """The Acts UD sentences paired with their cleaned psd trees, and what the pairing found."""

    ud: list[DepTree] = field(default_factory=list)  # Acts UD sentences whose two golds agree word for word
    psd: list[Br] = field(default_factory=list)  # their cleaned psd trees (combined when several)
    ids: list[tuple[str, ...]] = field(default_factory=list)
    acts: int = 0
    missing: int = 0
    stage_matches: dict[str, int] = field(default_factory=dict)
    leftover: Counter[str] = field(default_factory=Counter)
    leftover_examples: list[str] = field(default_factory=list)

    def report(self) -> str:
        lines = [f"Acts UD sentences: {self.acts}; X_ID not in the psd file: {self.missing}"]
        lines += [f"  word for word {k}: {v}" for k, v in self.stage_matches.items()]
        lines += [f"  still different ({sum(self.leftover.values())}): {dict(self.leftover)}"]
        lines += ["    " + e for e in self.leftover_examples]
        return "\n".join(lines)


STAGES = (
    ("as read", Cleaning(empty=False, punct=False, join=False)),
    ("+ empty elements and CODE removed", Cleaning(empty=True, punct=False, join=False)),
    ("+ punctuation lemma removed", Cleaning(empty=True, punct=True, join=False)),
    ("+ split clitics joined", Cleaning()),
)


def _difference(a: Sequence[str], b: Sequence[str]) -> str:
    k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    x = a[k] if k < len(a) else "<end>"
    y = b[k] if k < len(b) else "<end>"
    return f"psd '{x}' / UD '{y}' (word {k + 1})"


def _why(p: Sequence[str], u: Sequence[str]) -> str:
    if "".join(p) == "".join(u):
        return "tokenization"
    if [w for w in p if w.isalnum()] == [w for w in u if w.isalnum()]:
        return "punctuation"
    return "other words"


def align_golds(data: Path = DATA) -> Alignment:
    by_id: dict[str, Br] = {}
    for t in read_nested(data / "psd" / "1928.ntacts.rel-bib.psd"):
        i = tree_id(t)
        if i is not None:
            by_id[i] = t
    a = Alignment()
    counts = Counter[str]()
    for split in ("dev", "test"):
        for u in read_conllu(data / "ud" / f"fo_farpahc-ud-{split}.conllu"):
            ids = x_ids(u)
            if not ids or not ids[0].startswith("1928.NTACTS"):
                continue
            a.acts += 1
            if any(i not in by_id for i in ids):
                a.missing += 1
                continue
            raw = [by_id[i] for i in ids]
            for name, c in STAGES:
                if words(combined([clean(t, c) for t in raw])) == u.forms:
                    counts[name] += 1
            final = combined([clean(t) for t in raw])
            if words(final) == u.forms:
                a.ud.append(u)
                a.psd.append(final)
                a.ids.append(ids)
            else:
                a.leftover[_why(words(final), u.forms)] += 1
                if len(a.leftover_examples) < 8:
                    a.leftover_examples.append(f"{u.sent_id}: {_difference(words(final), u.forms)}")
    a.stage_matches = {name: counts[name] for name, _ in STAGES}
    return a


def cut(u: DepTree, start: int, end: int, sent_id: str) -> DepTree:
    """Words ``start..end-1`` (0-based) of a UD sentence as a sentence of their own: a word whose
    head lies outside becomes a root (relation ``root``)."""
    toks = []
    for t in u.tokens[start:end]:
        inside = start < t.head <= end
        toks.append(
            replace(
                t,
                id=t.id - start,
                head=t.head - start if inside else 0,
                deprel=t.deprel if inside else "root",
                deps="_",
            )
        )
    text = " ".join(t.form for t in toks)
    return DepTree(tuple(toks), sent_id, text, (f"# sent_id = {sent_id}", f"# text = {text}"))


@dataclass
class Fold:
    """The evaluation set: the psd trees of the Berkeley fold's test part that belong to an Acts
    sentence whose golds agree, each with its words of the UD sentence (:func:`cut`) and the
    Berkeley parse's tree (same words)."""

    ids: list[str] = field(default_factory=list)
    ud: list[DepTree] = field(default_factory=list)
    psd: list[Br] = field(default_factory=list)
    berkeley: list[Br] = field(default_factory=list)
    in_fold: int = 0  # psd trees of agreeing Acts sentences found in the fold
    parse_words_differ: int = 0  # of those, the Berkeley parse has other words
    multi_root: int = 0  # UD cuts with more than one root


def berkeley_fold(a: Alignment, data: Path = DATA) -> tuple[Fold, list[int]]:
    """The evaluation set, and the positions in ``a`` of the map set: the agreeing sentences none of
    whose trees is in the fold."""
    base = data / "berkeley_split0"
    gold = [clean(t) for t in read_nested(base / "far_split0testing.psd")]
    parse = [clean(t) for t in read_nested(base / "far_split0machineparsed.psd")]
    by_words: dict[tuple[str, ...], int] = {}
    for k, g in enumerate(gold):
        by_words.setdefault(words(g), k)
    fold = Fold()
    rest: list[int] = []
    for pos, (u, p, ids) in enumerate(zip(a.ud, a.psd, a.ids, strict=True)):
        start = 0
        hit = False
        for part, xid in zip(syntax_of(p), ids, strict=True):
            w = tuple(leaves(part))
            end = start + len(w)
            k = by_words.get(w)
            if k is not None:
                hit = True
                fold.in_fold += 1
                machine = combined([parse[k]])
                if words(machine) != w:
                    fold.parse_words_differ += 1
                else:
                    piece = cut(u, start, end, xid)
                    fold.multi_root += sum(t.head == 0 for t in piece.tokens) > 1
                    fold.ids.append(xid)
                    fold.ud.append(piece)
                    fold.psd.append(combined([part]))
                    fold.berkeley.append(machine)
            start = end
        if not hit:
            rest.append(pos)
    return fold, rest


def fold_tree_ids(data: Path = DATA) -> set[str]:
    """IDs of every Acts psd tree whose words are a tree of the Berkeley fold's test part."""
    gold = {words(clean(t)) for t in read_nested(data / "berkeley_split0" / "far_split0testing.psd")}
    out = set()
    for t in read_nested(data / "psd" / "1928.ntacts.rel-bib.psd"):
        i = tree_id(t)
        if i is not None and words(combined([clean(t)])) in gold:
            out.add(i)
    return out


def training_trees(data: Path = DATA) -> list[DepTree]:
    """Every FarPaHC UD sentence none of whose psd trees is in the Berkeley fold (John train, and the
    Acts sentences of dev and test outside the evaluation set), in file order."""
    held = fold_tree_ids(data)
    out = []
    for split in ("train", "dev", "test"):
        for u in read_conllu(data / "ud" / f"fo_farpahc-ud-{split}.conllu"):
            if not set(x_ids(u)) & held:
                out.append(u)
    return out


def eval_path(what: str) -> Path:
    ext = "conllu" if what in ("ud-gold", "spacy") else "psd"
    return EACL / f"farpahc-eacl.{what}.{ext}.gz"


def maps_path(what: str) -> Path:
    ext = "conllu" if what == "ud-gold" else "psd"
    return EACL / f"farpahc-mapset.{what}.{ext}.gz"


def _write_gz(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as fh:
        fh.write(text.encode("utf-8"))


def _psd_text(trees: Iterable[Br]) -> str:
    """One tree a line, in the same order as the UD file (whose sent_ids name the psd trees)."""
    return "".join(bracketed(t) + "\n" for t in trees)


def prepare(data: Path = DATA) -> str:
    """Write the evaluation set and the map set into ``assets/farpahc/eacl/``; return the report."""
    a = align_golds(data)
    fold, rest = berkeley_fold(a, data)
    _write_gz(eval_path("psd-gold"), _psd_text(fold.psd))
    _write_gz(eval_path("berkeley"), _psd_text(fold.berkeley))
    _write_gz(eval_path("ud-gold"), write_conllu(fold.ud))
    _write_gz(maps_path("psd-gold"), _psd_text(a.psd[k] for k in rest))
    _write_gz(maps_path("ud-gold"), write_conllu([a.ud[k] for k in rest]))
    report = [
        a.report(),
        f"Berkeley fold: {fold.in_fold} psd trees of agreeing Acts sentences are in its test part; "
        f"{fold.parse_words_differ} have other words in the Berkeley parse; evaluation set "
        f"{len(fold.ud)} trees ({sum(len(u) for u in fold.ud)} words; UD cuts with several roots: "
        f"{fold.multi_root})",
        f"map set: {len(rest)} agreeing Acts sentences without a tree in the fold "
        f"({sum(len(a.ud[k]) for k in rest)} words)",
    ]
    return "\n".join(report)


PROPOSED = EACL / "maps" / "psd-to-ud.proposed.map"
CAT_PROPOSED = EACL / "maps" / "psd-cat-to-ud.proposed.map"


def propose(*, categories: bool = False) -> str:
    """``evalcore align-labels`` on the map set (psd labels onto UD's, the aligner's defaults),
    written to ``maps/psd-to-ud.proposed.map`` (with ``categories``: ``--category-labels``, into
    ``maps/psd-cat-to-ud.proposed.map``); the reviewed map beside it is edited by hand."""
    from evalcore.labelalign import align_files
    from evalcore.report.labels import alignment_map

    conv = conversion_config(TedevalSettings(function_sep=SEPARATORS, category_labels=categories))
    found = align_files(
        str(maps_path("psd-gold")), str(maps_path("ud-gold")), conversion=conv, names=("psd", "ud")
    )
    text = alignment_map(found)
    out = CAT_PROPOSED if categories else PROPOSED
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return text


# ---------------------------------------------------------------------------
# training (needs spaCy: bash scripts/setup.sh experiments)

MAX_EPOCHS = 8  # the committed parse's setting (460 s on this shared 2-core machine)
TRAIN_SEED = 0


def train(
    workdir: Path,
    max_epochs: int,
    seed: int,
    data: Path = DATA,
    *,
    parse_out: Path | None = None,
    report_out: Path | None = RESULTS / f"{NAME}.training.json",
) -> dict[str, object]:
    """Train the parser on the sentences outside the evaluation set, parse the evaluation set (into
    ``parse_out``, by default the committed parse's file) and write the report (unless ``None``)."""
    import json

    import spacy
    from spacy_training import epochs_run, parse_gold_words, train_parser

    trees = training_trees(data)
    held_out = trees[9::10]  # every 10th sentence chooses the checkpoint
    train_trees = [t for k, t in enumerate(trees) if k % 10 != 9]
    nlp, seconds = train_parser("xx", train_trees, held_out, workdir, seed, max_epochs)
    parsed = parse_gold_words(nlp, read_conllu(eval_path("ud-gold")))
    _write_gz(parse_out or eval_path("spacy"), write_conllu(parsed))
    meta = json.loads((workdir / "model" / "model-best" / "meta.json").read_text())
    report: dict[str, object] = {
        "spacy": spacy.__version__,
        "models": [
            {
                "parse": "spacy",
                "scheme": "ud",
                "seed": seed,
                "max_epochs": max_epochs,
                **epochs_run(workdir).as_json(),
                "train_sentences": len(train_trees),
                "early_stop_sentences": len(held_out),
                "train_seconds": round(seconds, 1),
                "dev_uas": meta["performance"].get("dep_uas"),
                "dev_las": meta["performance"].get("dep_las"),
            }
        ],
    }
    if report_out is not None:
        report_out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"spacy: trained in {seconds:.0f} s", file=sys.stderr)
    return report


# ---------------------------------------------------------------------------
# evaluation (evalcore and the committed files only)

SEPARATORS = "-=*"  # FarPaHC writes NP-SBJ (psd) and NP*SBJ (the Berkeley fold)
# the reviewed per-scheme maps (docs/tedeval.md, "Multi-function trees (2012 protocol)")
MAPS = {"psd": EACL / "maps" / "psd-to-ud.map"}
# with --category-labels (our extension: docs/tedeval.md "Category labels")
CAT_MAPS = {"psd": EACL / "maps" / "psd-cat-to-ud.map"}


def _named(name: str, path: Path) -> NamedTrees:
    trees: Iterable[DepTree | Tree] = (
        read_conllu(path) if path.name.endswith(".conllu.gz") else read_ptb(path)
    )
    return NamedTrees(name, tuple(trees), str(path))


def schemes(spacy_parse: Path | None = None) -> list[Scheme]:
    """``psd``: the cleaned psd gold and the Berkeley parse; ``ud``: the UD gold and the spaCy parse
    (the committed one unless ``spacy_parse``)."""
    return [
        Scheme(
            "psd", _named("psd-gold", eval_path("psd-gold")), (_named("berkeley", eval_path("berkeley")),)
        ),
        Scheme(
            "ud",
            _named("ud-gold", eval_path("ud-gold")),
            (_named("spacy", spacy_parse or eval_path("spacy")),),
        ),
    ]


def evaluate(
    with_maps: bool,
    shuffles: int = SHUFFLES,
    seed: int = SEED,
    *,
    details: bool = False,
    spacy_parse: Path | None = None,
    categories: bool = False,
) -> ExperimentResult:
    """The table without or with the reviewed maps; with ``categories``, brackets without a
    function tag labeled with their category (``--category-labels``) and the category maps."""
    settings = TedevalSettings(
        function_sep=SEPARATORS, category_labels=categories, shuffles=shuffles, seed=seed
    )
    config = experiment_config(settings, ted_config(settings))
    if not with_maps:
        return run_experiment(schemes(spacy_parse), config, details=details)
    paths = CAT_MAPS if categories else MAPS
    maps = SchemeLabelMaps.of({scheme: read_label_map(path) for scheme, path in paths.items()})
    return run_experiment(schemes(spacy_parse), config, label_maps=maps, details=details)


def check_retrain(workdir: Path, max_epochs: int, seed: int, tolerance: float) -> int:
    """Retrain into ``workdir`` (the committed parse and report untouched), score the new parse and
    print every ``spacy`` cell next to the committed one; 1 if any differs by more than
    ``tolerance`` points, else 0."""
    import csv
    import io

    parse = workdir / "farpahc-eacl.spacy.conllu.gz"
    train(workdir, max_epochs, seed, parse_out=parse, report_out=workdir / "training.json")
    committed = {
        (r[0], r[3], r[4]): float(r[5])
        for r in list(csv.reader(io.StringIO((RESULTS / f"{NAME}.csv").read_text("utf-8"))))[1:]
        if r[1] == "spacy"
    }
    worst = 0.0
    for maps, with_maps in (("none", False), ("aligned", True)):
        for row in evaluate(with_maps, spacy_parse=parse).rows:
            cell = row.cell("spacy")
            if cell is None:
                continue
            old = committed[(maps, row.against, row.metric)]
            diff = 100 * abs(cell.score - old)
            worst = max(worst, diff)
            print(f"{maps:8} {row.against:7} {row.metric:6} committed {old:.4f} retrained {cell.score:.4f}")
    print(f"largest difference {worst:.2f} points (tolerance {tolerance})")
    return 1 if worst > tolerance else 0


CLOSING = (("berkeley", "ud"), ("spacy", "psd"))  # the cells of the done-when: (parse, against)


@dataclass(frozen=True)
class Closing:
    """How much of the labeled/unlabeled gap a map closes in one cell."""

    parse: str
    against: str
    u_ted: float
    l_without: float
    l_with: float

    @property
    def closed(self) -> float:
        gap = self.u_ted - self.l_without
        return (self.l_with - self.l_without) / gap if gap else 1.0


def closing(
    without: ExperimentResult, with_maps: ExperimentResult, cells: Sequence[tuple[str, str]] = CLOSING
) -> list[Closing]:
    out = []
    for parse, against in cells:
        u, lo, hi = (
            r.cell(parse)
            for r in (
                without.row(against, "U-TED"),
                without.row(against, "L-TED"),
                with_maps.row(against, "L-TED"),
            )
            if r is not None
        )
        assert u is not None and lo is not None and hi is not None
        out.append(Closing(parse, against, u.score, lo.score, hi.score))
    return out


def remaining_edits(result: ExperimentResult, parse: str, against: str) -> Counter[tuple[str, str]]:
    """The counted labeled edits of ``parse`` against ``against``, by (parse label, gold label): a
    label deleted and another inserted on the same span is a relabel; ``∅`` is no label."""
    out: Counter[tuple[str, str]] = Counter()
    for d in result.details:
        if d.parse != parse or d.against != against or not d.labeled:
            continue
        dels: dict[object, list[str]] = {}
        ins: dict[object, list[str]] = {}
        for op in d.ted.counted:
            (dels if op.kind == "del" else ins).setdefault(op.span, []).append(op.label)
        for span in set(dels) | set(ins):
            a, b = sorted(dels.get(span, [])), sorted(ins.get(span, []))
            for k in range(max(len(a), len(b))):
                out[(a[k] if k < len(a) else "∅", b[k] if k < len(b) else "∅")] += 1
    return out


@dataclass(frozen=True)
class Bounds:
    """What relabelling can and cannot do in one cell (labeled scores on the evaluation set).

    ``rename``: the best L-TED any label map could give, every label of the parse paired with one of
    the gold's on the same span (``2m / (|p| + |g|)`` with ``m`` such pairs: a map renames, it
    never removes a label).  ``shared``: the L-TED if the labels outside the maps' common set (the
    names the map rewrites onto) were removed from both trees — what a map that may also delete
    labels would give."""

    parse: str
    against: str
    parse_labels: int
    gold_labels: int
    rename: float
    shared: float


def bounds(parse: str, against: str) -> Bounds:
    maps_given = tuple(f"{scheme}={path}" for scheme, path in MAPS.items())
    conv = conversion_config(TedevalSettings(function_sep=SEPARATORS, labels_map=maps_given), list(MAPS))
    maps = conv.scheme_maps
    by_name = {s.name: s for s in schemes()}
    p_scheme = next(s for s in by_name.values() if any(p.name == parse for p in s.parses))
    p_trees = next(p for p in p_scheme.parses if p.name == parse).trees
    g_trees = by_name[against].gold.trees
    common = {new for m in (maps.get(n) for n in by_name) for _, new in m.pairs}
    n_p = n_g = matched = 0
    delta = norm = 0
    for pt, gt in zip(p_trees, g_trees, strict=True):
        ps = to_span_tree(pt, conv.for_scheme(p_scheme.name))
        gs = to_span_tree(gt, conv.for_scheme(against))
        bp, bg = ps.by_span, gs.by_span
        n_p += len(ps.pairs)
        n_g += len(gs.pairs)
        matched += sum(min(len(bp[x]), len(bg[x])) for x in bp.keys() & bg.keys())
        kp = {(lab, x) for lab, x in ps.pairs if lab in common}
        kg = {(lab, x) for lab, x in gs.pairs if lab in common}
        delta += len(kp ^ kg)
        norm += len(kp) + len(kg)
    return Bounds(parse, against, n_p, n_g, 2 * matched / (n_p + n_g), 1 - delta / norm if norm else 1.0)


def _categories_as_labels(b: Br | str) -> Br | str:
    """A bracket without function tags gets its category as its one function (``PP`` → ``PP-PP``)."""
    if isinstance(b, str):
        return b
    label = b.label
    if label and not split_label(label, SEPARATORS).functions:
        label = f"{label}-{label}"
    return Br(label, tuple(_categories_as_labels(k) for k in b.kids))


def _category_trees(path: Path) -> list[SpanTree]:
    conv = conversion_config(TedevalSettings(function_sep=SEPARATORS))
    out = []
    for t in read_ptb(path):
        n = _categories_as_labels(nested(t))
        out.append(to_span_tree(next(iter(parse_ptb(bracketed(n)))), conv))
    return out


def categories_estimate() -> dict[tuple[str, str], float]:
    """What-if (not a TedEval setting): every psd bracket without a function tag labeled with its
    category (part-of-speech tags included), mapped onto UD by each label's most frequent UD label
    on the same span in the map set (no review, no threshold); L-TED of the two cells of
    :data:`CLOSING`.  Estimates what a conversion that kept categories would let a map close."""
    conv = conversion_config(TedevalSettings(function_sep=SEPARATORS))
    co: Counter[tuple[str, str]] = Counter()
    ud_map = [to_span_tree(t, conv) for t in read_conllu(maps_path("ud-gold"))]
    for x, y in zip(_category_trees(maps_path("psd-gold")), ud_map, strict=True):
        by = y.by_span
        for span, labels in x.by_span.items():
            co.update((a, b) for a in labels for b in by.get(span, ()))
    best: dict[str, tuple[int, str]] = {}
    for (a, b), n in sorted(co.items()):
        if a not in best or n > best[a][0]:
            best[a] = (n, b)

    def mapped(t: SpanTree) -> set[tuple[str, Span]]:
        return {(best[lab][1] if lab in best else lab, x) for lab, x in t.pairs}

    ud = [set(to_span_tree(t, conv).pairs) for t in read_conllu(eval_path("ud-gold"))]
    spacy = [set(to_span_tree(t, conv).pairs) for t in read_conllu(eval_path("spacy"))]
    berkeley = [mapped(t) for t in _category_trees(eval_path("berkeley"))]
    psd = [mapped(t) for t in _category_trees(eval_path("psd-gold"))]

    def l_ted(parse: list[set[tuple[str, Span]]], gold: list[set[tuple[str, Span]]]) -> float:
        delta = sum(len(p ^ g) for p, g in zip(parse, gold, strict=True))
        return 1 - delta / sum(len(p) + len(g) for p, g in zip(parse, gold, strict=True))

    return {("berkeley", "ud"): l_ted(berkeley, ud), ("spacy", "psd"): l_ted(spacy, psd)}


def _most_frequent(edits: Counter[tuple[str, str]], k: int) -> list[tuple[tuple[str, str], int]]:
    return sorted(edits.items(), key=lambda e: (-e[1], e[0]))[:k]


def _table_md(result: ExperimentResult) -> str:
    headers, rows = table_rows(result)
    return markdown_table(headers, rows) + f"\nSignature: `{result.signature}`\n"


def write_results(
    without: ExperimentResult,
    with_maps: ExperimentResult,
    out: Path,
    categories: tuple[ExperimentResult, ExperimentResult] | None = None,
) -> str:
    """``farpahc_eacl.md`` (both tables, the gap closed, the edits that remain; with
    ``categories``, the two tables of the category-label conversion after them) and ``.csv``."""
    lines = [
        "# FarPaHC: a constituency and a dependency parser on one scale (EACL 2012 protocol)",
        "",
        "Made by `python experiments/farpahc_eacl.py evaluate` from the files in `assets/farpahc/eacl/` "
        "(see the script's docstring and docs/findings.md). Parses: `berkeley` (scheme `psd`: the "
        "Berkeley parser's trees of the FarPaHC split-0 fold, function tags included) and `spacy` "
        "(scheme `ud`: a spaCy parser trained here on FarPaHC UD outside the evaluation set). "
        f"{without.sentences} sentences (psd trees of the Acts text); skipped {without.skipped_mismatched} "
        f"(words differ), {without.skipped_invalid} (not a tree).",
        "",
        "`*` best in row; `?` not significantly different from the best (p ≥ 0.05, approximate "
        "randomization). With two parses per row, the mark says whether the two differ.",
        "",
        "## Without label maps",
        "",
        _table_md(without),
        "## With the aligned label maps",
        "",
        "Per-scheme maps (docs/tedeval.md, 'Multi-function trees (2012 protocol)'): "
        + ", ".join(f"`{k}`: `{p.relative_to(ROOT)}`" for k, p in MAPS.items()),
        "",
        _table_md(with_maps),
        *_closing_lines(closing(without, with_maps)),
    ]
    lines += [
        "",
        "What relabelling can reach at most (see `Bounds` in the script): every word of a UD tree "
        "carries a relation (and every head word `hd`), while the psd trees put function tags on "
        "phrases only, so most labels of one scheme have nothing to be renamed into.",
        "",
        "| parse | against | labels in parse | labels in gold | best L-TED of any renaming map "
        "| L-TED if labels outside the maps' common set were deleted |",
        "|---|---|---|---|---|---|",
    ]
    for parse, against in CLOSING:
        b = bounds(parse, against)
        lines.append(
            f"| {parse} | {against} | {b.parse_labels} | {b.gold_labels} | {b.rename:.4f} | {b.shared:.4f} |"
        )
    estimate = categories_estimate()
    lines += [
        "",
        "What would close the gap: labels on the phrases and words the psd trees leave without a "
        "function tag. Estimate (`categories_estimate` in the script; not a TedEval setting): every "
        "psd bracket without a function tag labeled with its category (part-of-speech tags "
        "included), each label mapped onto its most frequent UD label on the same span in the map "
        "set, no review:",
        "",
        "| parse | against | L-TED (estimate) | share of the gap (without maps) it would close |",
        "|---|---|---|---|",
    ]
    for c in closing(without, with_maps):
        e = estimate[(c.parse, c.against)]
        share = (e - c.l_without) / (c.u_ted - c.l_without) if c.u_ted != c.l_without else 1.0
        lines.append(f"| {c.parse} | {c.against} | {e:.4f} | {share:.4f} |")
    lines += _edit_lines(with_maps, CLOSING)
    results = [("none", without), ("aligned", with_maps)]
    if categories is not None:
        lines += _category_lines(*categories)
        results += [("categories", categories[0]), ("categories-aligned", categories[1])]
    return _write_md_csv(lines, results, out, NAME)


def _category_lines(without: ExperimentResult, with_maps: ExperimentResult) -> list[str]:
    """The tables with ``--category-labels``, the done-when inequality and the edits that remain."""
    cs = closing(without, with_maps)
    return [
        "",
        "# With category labels (`--category-labels`: our extension of the 2012 conversion (docs/tedeval.md, "
        "'Category labels'))",
        "",
        "Every psd bracket without a function tag labeled with its category, part-of-speech nodes "
        'included (docs/tedeval.md "Category labels"); brackets with function tags keep only them. '
        "The UD side does not change. Maps: `align-labels --category-labels` on the map set, "
        "reviewed (the file's header lists the edits).",
        "",
        "## Category labels, without label maps",
        "",
        _table_md(without),
        "## Category labels, with the aligned category maps",
        "",
        "Per-scheme maps: " + ", ".join(f"`{k}`: `{p.relative_to(ROOT)}`" for k, p in CAT_MAPS.items()),
        "",
        _table_md(with_maps),
        *_closing_lines(cs),
        "",
        *_inequality_lines(cs),
        *_edit_lines(with_maps, CLOSING, "Counted labeled edits that remain with category labels and maps"),
    ]


def _closing_lines(cs: Sequence[Closing]) -> list[str]:
    return [
        "## The gap closed by the maps",
        "",
        "The target a map must meet: (L-TED with maps − L-TED without) ≥ 0.5 × (U-TED − L-TED without).",
        "",
        "| parse | against | U-TED | L-TED without | L-TED with | share of the gap closed | target met |",
        "|---|---|---|---|---|---|---|",
        *(
            f"| {c.parse} | {c.against} | {c.u_ted:.4f} | {c.l_without:.4f} | {c.l_with:.4f} | "
            f"{c.closed:.4f} | {'yes' if c.closed >= 0.5 else 'no'} |"
            for c in cs
        ),
    ]


def _inequality_lines(cs: Sequence[Closing]) -> list[str]:
    return [
        "The inequality, cell by cell (L-TED without: the category conversion without maps):",
        "",
        "| parse | against | L-TED with − L-TED without | 0.5 × (U-TED − L-TED without) | holds |",
        "|---|---|---|---|---|",
        *(
            f"| {c.parse} | {c.against} | {c.l_with - c.l_without:.4f} | "
            f"{0.5 * (c.u_ted - c.l_without):.4f} | {'yes' if c.closed >= 0.5 else 'no'} |"
            for c in cs
        ),
    ]


def _edit_lines(
    with_maps: ExperimentResult,
    cells: Sequence[tuple[str, str]],
    title: str = "Counted labeled edits that remain with the maps",
) -> list[str]:
    lines = ["", f"## {title}", ""]
    for parse, against in cells:
        edits = remaining_edits(with_maps, parse, against)
        lines += [
            f"`{parse}` against `{against}`: {sum(edits.values())} counted label edits "
            "(parse label → gold label on the same span; ∅ = no label there), the 25 most frequent:",
            "",
            "| parse label | gold label | count |",
            "|---|---|---|",
            *(f"| {a} | {b} | {n} |" for (a, b), n in _most_frequent(edits, 25)),
            "",
        ]
    return lines


def _write_md_csv(
    lines: list[str], results: Sequence[tuple[str, ExperimentResult]], out: Path, name: str
) -> str:
    """``results``: (the ``maps`` column's value, the table) in the order of the csv."""
    text = "\n".join(lines)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.md").write_text(text, encoding="utf-8")
    rows = [[maps, *r] for maps, result in results for r in csv_rows(result)]
    (out / f"{name}.csv").write_text(csv_text(["maps", *CSV_HEADERS], rows), encoding="utf-8")
    return text


def evaluate_and_write(out: Path | None = None) -> str:
    """Both tables: FarPaHC (``farpahc_eacl.*``) and GUM (``gum_ptb_ud.*``)."""
    without = evaluate(with_maps=False)
    with_maps = evaluate(with_maps=True, details=True)
    categories = (
        evaluate(with_maps=False, categories=True),
        evaluate(with_maps=True, details=True, categories=True),
    )
    text = write_results(without, with_maps, out or RESULTS, categories)
    return text + "\n" + write_gum(out or RESULTS)


# ---------------------------------------------------------------------------
# GUM: a second constituency parse (PTB trees, labels projected from the UD gold) against UD

GUM_DATA = ROOT.parent / "shared" / "data" / "gum"
GUM = ROOT / "assets" / "gum"
GUM_NAME = "gum_ptb_ud"
GUM_MAP_DOCS = ("GUM_academic_discrimination", "GUM_bio_dvorak", "GUM_court_insanity", "GUM_news_nasa")
GUM_MAP = GUM / "maps" / "ptb-to-ud.map"
GUM_PROPOSED = GUM / "maps" / "ptb-to-ud.proposed.map"
# with --category-labels (docs/tedeval.md, "Category labels" extension)
GUM_CAT_MAP = GUM / "maps" / "ptb-cat-to-ud.map"
GUM_CAT_PROPOSED = GUM / "maps" / "ptb-cat-to-ud.proposed.map"


def gum_path(part: str, kind: str) -> Path:
    """``part``: ``eval`` or ``mapset``; ``kind``: ``ptb`` or ``ud``."""
    return GUM / f"gum-{part}.{'conllu' if kind == 'ud' else 'ptb'}.gz"


def prepare_gum(data: Path = GUM_DATA) -> str:
    """The 8 GUM documents: 4 for the map set (:data:`GUM_MAP_DOCS`), 4 to evaluate, each as PTB
    trees and UD gold; then the map ``align-labels`` proposes on the map set."""
    from evalcore.labelalign import align_files
    from evalcore.report.labels import alignment_map

    docs = sorted(p.stem for p in (data / "const").glob("*.ptb"))
    for part, names in (
        ("mapset", [d for d in docs if d in GUM_MAP_DOCS]),
        ("eval", [d for d in docs if d not in GUM_MAP_DOCS]),
    ):
        _write_gz(
            gum_path(part, "ptb"), "".join((data / "const" / f"{d}.ptb").read_text("utf-8") for d in names)
        )
        _write_gz(
            gum_path(part, "ud"), "".join((data / "dep" / f"{d}.conllu").read_text("utf-8") for d in names)
        )
    found = align_files(str(gum_path("mapset", "ptb")), str(gum_path("mapset", "ud")), names=("ptb", "ud"))
    text = alignment_map(found)
    GUM_PROPOSED.parent.mkdir(parents=True, exist_ok=True)
    GUM_PROPOSED.write_text(text, encoding="utf-8")
    return text


def propose_gum_categories() -> str:
    """``align-labels --category-labels`` on GUM's map set, into ``maps/ptb-cat-to-ud.proposed.map``."""
    from evalcore.labelalign import align_files
    from evalcore.report.labels import alignment_map

    conv = conversion_config(TedevalSettings(category_labels=True))
    found = align_files(
        str(gum_path("mapset", "ptb")), str(gum_path("mapset", "ud")), conversion=conv, names=("ptb", "ud")
    )
    text = alignment_map(found)
    GUM_CAT_PROPOSED.write_text(text, encoding="utf-8")
    return text


def evaluate_gum(with_maps: bool, *, details: bool = False, categories: bool = False) -> ExperimentResult:
    """One scheme (UD gold) and one parse (the PTB trees); the map renames PTB function tags (with
    ``categories``: and categories) and leaves UD's lower-case relations alone, so it is given for
    every scheme."""
    label_map = (str(GUM_CAT_MAP if categories else GUM_MAP),) if with_maps else ()
    settings = TedevalSettings(labels_map=label_map, category_labels=categories, shuffles=SHUFFLES, seed=SEED)
    config = experiment_config(settings, ted_config(settings))
    gold = _named("ud-gold", gum_path("eval", "ud"))
    parse = NamedTrees("gum-ptb", tuple(read_ptb(gum_path("eval", "ptb"))), str(gum_path("eval", "ptb")))
    return run_experiment([Scheme("ud", gold, (parse,))], config, details=details)


def write_gum(out: Path) -> str:
    without = evaluate_gum(with_maps=False)
    with_maps = evaluate_gum(with_maps=True, details=True)
    cells = (("gum-ptb", "ud"),)
    lines = [
        "# GUM: PTB trees against the UD gold, with and without an aligned label map",
        "",
        "Made by `python experiments/farpahc_eacl.py evaluate` from `assets/gum/`. The PTB trees are "
        "automatic parses whose function labels were projected from the UD gold (a constituency "
        "parse, not a gold). Map set (the map is proposed there): "
        + ", ".join(GUM_MAP_DOCS)
        + f"; evaluated: the other 4 documents, {without.sentences} sentences; skipped "
        f"{without.skipped_mismatched} (words differ), {without.skipped_invalid} (not a tree).",
        "",
        "## Without label maps",
        "",
        _table_md(without),
        "## With the aligned label map",
        "",
        f"Map for every scheme: `{GUM_MAP.relative_to(ROOT)}`",
        "",
        _table_md(with_maps),
        *_closing_lines(closing(without, with_maps, cells)),
        *_edit_lines(with_maps, cells),
    ]
    cat_without = evaluate_gum(with_maps=False, categories=True)
    cat_with = evaluate_gum(with_maps=True, details=True, categories=True)
    cs = closing(cat_without, cat_with, cells)
    lines += [
        "",
        "# With category labels (`--category-labels`: our extension of the 2012 conversion (docs/tedeval.md, "
        "'Category labels'))",
        "",
        "Every PTB bracket without a function tag labeled with its category, part-of-speech nodes "
        'included (docs/tedeval.md "Category labels"). Map: `align-labels --category-labels` on the '
        f"map set, kept as proposed: `{GUM_CAT_MAP.relative_to(ROOT)}`.",
        "",
        "## Category labels, without label maps",
        "",
        _table_md(cat_without),
        "## Category labels, with the aligned category map",
        "",
        _table_md(cat_with),
        *_closing_lines(cs),
        "",
        *_inequality_lines(cs),
        *_edit_lines(cat_with, cells, "Counted labeled edits that remain with category labels and the map"),
    ]
    results = [("none", without), ("aligned", with_maps)]
    results += [("categories", cat_without), ("categories-aligned", cat_with)]
    return _write_md_csv(lines, results, out, GUM_NAME)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    sub.add_parser("prepare")
    t = sub.add_parser("train")
    t.add_argument("--workdir", default="/tmp/evalcore-farpahc")
    t.add_argument("--max-epochs", type=int, default=MAX_EPOCHS)
    t.add_argument("--seed", type=int, default=TRAIN_SEED)
    c = sub.add_parser("check-retrain", help="retrain into --workdir and compare with the committed table")
    c.add_argument("--workdir", default="/tmp/evalcore-farpahc-check")
    c.add_argument("--max-epochs", type=int, default=MAX_EPOCHS)
    c.add_argument("--seed", type=int, default=TRAIN_SEED)
    c.add_argument(
        "--tolerance", type=float, default=None, help="points per cell (default: spacy_training.TOLERANCE)"
    )
    sub.add_parser("evaluate")
    args = ap.parse_args()
    if args.step == "check-retrain":
        from spacy_training import TOLERANCE, deterministic_process

        deterministic_process()
        tol = TOLERANCE if args.tolerance is None else args.tolerance
        sys.exit(check_retrain(Path(args.workdir), args.max_epochs, args.seed, tol))
    if args.step == "prepare":
        print(prepare())
        print(propose())
        print(propose(categories=True))
        print(prepare_gum())
        print(propose_gum_categories())
        return
    if args.step == "train":
        from spacy_training import deterministic_process

        deterministic_process()
        train(Path(args.workdir), args.max_epochs, args.seed)
        return
    evaluate_and_write()


if __name__ == "__main__":
    main()
