"""The lattice page's data: joint segmentation + parsing inputs read from bytes, scored (cached), and
each sentence's drawings (docs/lattice.md, "What is compared"; ACL 2012).

Inputs are what ``evalcore lattice`` takes -- a gold file (with its lattice file), predicted files
(each with its lattice or mapping file) and the ambiguity lattices of the gold sentences -- given as
:class:`~evalcore.lattice.reading.InMemoryFile` values (uploads are never written to disk).  Scores
come from :func:`evalcore.metrics.joint.evaluate`, the drawings from
:mod:`evalcore.render.lattice_draw` and :func:`evalcore.render.dot.lattice_to_dot`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

import pandas as pd

from evalcore.errors import EvalcoreError
from evalcore.formats.lattice import read_lattices, read_tokens
from evalcore.lattice.model import Analysis, Lexeme, Pairing, ReadOptions
from evalcore.lattice.reading import InMemoryFile, input_kind, load_pairing, read_gold, read_side
from evalcore.metrics.joint import JointConfig, JointResult, SentenceJoint, evaluate, with_aligned_attachment
from evalcore.metrics.lattice_tedeval import LatticeEditOp
from evalcore.metrics.segeval import SegScore
from evalcore.metrics.segeval import score as seg_score
from evalcore.render.dot import NodeStyleName, lattice_to_dot
from evalcore.render.lattice_draw import distinct_arcs, lattice_tree_to_dot, place_path, union_lattice
from evalcore.render.text import is_rtl_text
from evalcore.report.lattice import HEADERS, table_rows
from evalcore.trees import Lattice
from workbench.cache import app_limits, cached, digest
from workbench.datasets import ASSETS, DatasetSpec, SentenceInfo
from workbench.uploads import refusal

__all__ = [
    "GOLD_SLOTS",
    "PRED_SLOTS",
    "LatticeData",
    "LatticeInputs",
    "Prediction",
    "SentenceView",
    "builtin_inputs",
    "evaluate_inputs",
    "file_stem",
    "ops_frame",
    "pair_by_stem",
    "scenario_frame",
    "sentence_infos",
    "sentence_view",
    "validate_ambiguity",
    "validate_analysis",
    "validate_lattice_file",
]


GOLD_SLOTS = ("lattice_gold", "lattice_gold_lattice")
PRED_SLOTS = ("lattice_preds", "lattice_pred_lattices", "lattice_ambiguity")
"""The Lattice page's upload slots (:func:`workbench.uploads.upload_slot`): the gold's, the predictions'."""


@dataclass(frozen=True)
class Prediction:
    """A predicted file and, if it has one, its lattice / mapping / segmentation file."""

    name: str
    file: InMemoryFile
    lattice: InMemoryFile | None = None


@dataclass(frozen=True)
class LatticeInputs:
    """Everything one evaluation reads; ``tokens`` (a ``.tokens`` file) only names the sentences."""

    gold: InMemoryFile | None
    gold_lattice: InMemoryFile | None
    predictions: tuple[Prediction, ...]
    ambiguity: InMemoryFile | None = None
    tokens: InMemoryFile | None = None

    def _files(self) -> list[InMemoryFile | None]:
        files = [self.gold, self.gold_lattice, self.ambiguity, self.tokens]
        for p in self.predictions:
            files += [p.file, p.lattice]
        return files

    def digests(self) -> list[str]:
        """The content digest of every file (:func:`workbench.cache.digest`)."""
        return [digest(bytes(f.data)) for f in self._files() if f is not None]

    def key(self) -> str:
        """A content key: names and SHA-1 of every file."""
        h = hashlib.sha1(usedforsecurity=False)
        for p in self.predictions:
            h.update(p.name.encode("utf-8") + b"\0")
        for f in self._files():
            h.update(b"-\0" if f is None else f.name.encode("utf-8") + b"\0" + hashlib.sha1(f.data).digest())
        return h.hexdigest()


def _mem(path: str) -> InMemoryFile:
    return InMemoryFile(PurePath(path).name, (ASSETS / path).read_bytes())


def builtin_inputs(spec: DatasetSpec) -> LatticeInputs:
    """A built-in lattice dataset: ``parse`` files (each with the ``path`` file of the same rank), the
    ``lattice`` file as ambiguity lattice, a ``gold`` file if there is one."""
    parses = [f for f in spec.files if f.role == "parse"]
    paths = [f for f in spec.files if f.role == "path"]
    preds = tuple(
        Prediction(f.name, _mem(f.path), _mem(paths[k].path) if k < len(paths) else None)
        for k, f in enumerate(parses)
    )
    gold = next((f for f in spec.files if f.role == "gold"), None)
    ambiguity = next((f for f in spec.files if f.role == "lattice"), None)
    tokens = next((f for f in spec.files if f.role == "tokens"), None)
    return LatticeInputs(
        _mem(gold.path) if gold else None,
        None,
        preds,
        _mem(ambiguity.path) if ambiguity else None,
        _mem(tokens.path) if tokens else None,
    )


def file_stem(name: str) -> str:
    """``output.conll`` and ``output.mapping`` share the stem ``output`` (a gzip suffix ignored)."""
    base = name.removesuffix(".gz")
    return base.rsplit(".", 1)[0] if "." in base else base


def pair_by_stem(files: Sequence[InMemoryFile], lattices: Sequence[InMemoryFile]) -> tuple[Prediction, ...]:
    """Predicted files with the lattice file of the same stem (``output.conll`` + ``output.mapping``)."""
    by_stem = {file_stem(f.name): f for f in lattices}
    return tuple(Prediction(f.name, f, by_stem.get(file_stem(f.name))) for f in files)


# ---------------------------------------------------------------------------
# validation of single uploads (messages: FILE:LINE: what is wrong)


def _app_options() -> ReadOptions:
    """Reading an upload on its own: the app's resource limits (:func:`workbench.cache.app_limits`)."""
    return ReadOptions(limits=app_limits())


def validate_analysis(name: str, data: bytes) -> str | None:
    """A gold or predicted file read on its own (CoNLL, brackets, one-path lattice, segmentation)."""
    return refusal(name, lambda: read_side(InMemoryFile(name, data), options=_app_options()), "sentence")


def validate_lattice_file(name: str, data: bytes) -> str | None:
    """A lattice (one path per sentence), mapping or segmentation file going with a CoNLL/bracket file."""
    f = InMemoryFile(name, data)
    try:
        if input_kind(f, app_limits()) not in ("lattice", "segmentation"):
            return (
                f"{name}: not a lattice file (FROM TO FORM LEMMA CPOS FPOS FEATS TOKEN_ID) "
                "nor a yap .segmentation file"
            )
        read_side(f, options=_app_options())
    except EvalcoreError as exc:
        return str(exc)
    return None


def validate_ambiguity(name: str, data: bytes) -> str | None:
    return refusal(
        name, lambda: any(True for _ in read_lattices(data, name=name, limits=app_limits())), "lattice"
    )


# ---------------------------------------------------------------------------
# evaluation


@dataclass(frozen=True)
class LatticeData:
    """Read and scored inputs; ``errors`` name the file that stopped a prediction (the others stay)."""

    inputs: LatticeInputs
    config: JointConfig
    gold: tuple[Analysis, ...] | None
    predictions: dict[str, tuple[Analysis, ...]] = field(default_factory=dict)
    pairings: dict[str, Pairing] = field(default_factory=dict)
    results: dict[str, JointResult] = field(default_factory=dict)
    ambiguity: tuple[Lattice, ...] | None = None
    tokens: tuple[tuple[str, ...], ...] | None = None
    errors: tuple[str, ...] = ()


@cached("resource", show_spinner=False, max_entries=16)
def _evaluate(key: str, signature: str, _inputs: LatticeInputs, _config: JointConfig) -> LatticeData:
    inputs, config = _inputs, _config
    errors: list[str] = []
    options = config.read_options
    ambiguity = tokens = None
    if inputs.ambiguity is not None:
        try:
            ambiguity = tuple(
                read_lattices(inputs.ambiguity.data, name=inputs.ambiguity.name, limits=config.limits)
            )
        except EvalcoreError as exc:
            errors.append(str(exc))
    if inputs.tokens is not None:
        try:
            tokens = tuple(read_tokens(inputs.tokens.data, name=inputs.tokens.name, limits=config.limits))
        except EvalcoreError as exc:
            errors.append(str(exc))
    gold_input = None
    if inputs.gold is not None:
        try:
            gold_input = read_gold(inputs.gold, inputs.gold_lattice, options)
        except EvalcoreError as exc:
            errors.append(str(exc))
    predictions: dict[str, tuple[Analysis, ...]] = {}
    pairings: dict[str, Pairing] = {}
    results: dict[str, JointResult] = {}
    for p in inputs.predictions:
        try:
            predictions[p.name] = tuple(read_side(p.file, p.lattice, options))
            if gold_input is None:
                continue
            pairing = load_pairing(gold_input, p.file, pred_lattice=p.lattice, ambiguity=ambiguity)
            amb = ambiguity if pairing.mode == "index" else None
            result = evaluate(pairing, config, name=p.name, ambiguity=amb)
            # raw dependency input: aligned UAS/LAS (docs/lattice.md, "The classic metric")
            if inputs.gold is not None:
                g = inputs.gold
                result = with_aligned_attachment(
                    result, pairing.mode, g.data, p.file.data, gold_name=g.name, pred_name=p.file.name,
                    deprel_base=config.deprel_base, limits=config.limits,
                )  # fmt: skip
            results[p.name] = result
            pairings[p.name] = pairing
        except EvalcoreError as exc:  # the command line's message; the file it names is the prediction's
            errors.append(str(exc) if p.file.name in str(exc) else f"{p.name}: {exc}")
    gold = gold_input.analyses if gold_input is not None else None
    return LatticeData(inputs, config, gold, predictions, pairings, results, ambiguity, tokens, tuple(errors))


def evaluate_inputs(inputs: LatticeInputs, config: JointConfig) -> LatticeData:
    """Read and score everything (cached on file contents and settings)."""
    return _evaluate.by(*inputs.digests())(inputs.key(), config.signature(), inputs, config)


def scenario_frame(data: LatticeData) -> pd.DataFrame:
    """The paper's scenario table (percent, ``None`` = N/A), one row per prediction, with the signature."""
    results = list(data.results.values())
    frame = pd.DataFrame(table_rows(results), columns=list(HEADERS))
    frame["signature"] = [r.signature for r in results]
    return frame


def _text_of(lexemes: Sequence[Lexeme]) -> str:
    tokens: list[list[str]] = []
    last: object = object()
    for lx in lexemes:
        if lx.token != last or lx.token is None:
            tokens.append([])
            last = lx.token
        tokens[-1].append(lx.segment)
    return " ".join("+".join(t) for t in tokens)


def sentence_infos(data: LatticeData) -> tuple[SentenceInfo, ...]:
    """Picker entries: gold sentences (else the first prediction's), named by sent_id or position."""
    sides = data.gold if data.gold is not None else next(iter(data.predictions.values()), ())
    out = []
    seen: set[str] = set()
    for i, a in enumerate(sides):
        if data.tokens is not None and i < len(data.tokens):
            text = " ".join(data.tokens[i])
        elif a.dep is not None and a.dep.text:
            text = a.dep.text
        else:
            text = _text_of(a.lexemes)
        sid = a.sent_id if a.sent_id and a.sent_id not in seen else str(i + 1)
        seen.add(sid)
        out.append(SentenceInfo(i, sid, text, len({lx.token for lx in a.lexemes})))
    return tuple(out)


# ---------------------------------------------------------------------------
# one sentence


@dataclass(frozen=True)
class SentenceView:
    """What the page draws for one sentence and one prediction."""

    lattice_dot: str
    lattice_kind: str  # "ambiguity" | "union"
    gold_tree_dot: str | None
    pred_tree_dot: str | None
    joint: SentenceJoint | None
    segeval: SegScore | None
    notes: tuple[str, ...]
    rtl: bool  # the sentence is in a right-to-left script (the trees are mirrored)


def _styles(n: int, mapped: set[int], style: NodeStyleName) -> dict[int, NodeStyleName]:
    return {i: style for i in range(1, n) if i not in mapped}


def sentence_view(data: LatticeData, prediction: str | None, index: int) -> SentenceView:
    """The lattice, the trees and the scores of sentence ``index`` (0-based, gold order)."""
    tag = data.config.tag_column
    notes: list[str] = []
    gold: Analysis | None = None
    pred: Analysis | None = None
    joint: SentenceJoint | None = None
    if data.gold is not None and index < len(data.gold):
        gold = data.gold[index]
    if prediction is not None and prediction in data.pairings:
        pair = next((p for p in data.pairings[prediction].pairs if p.index == index + 1), None)
        result = data.results[prediction]
        joint = next((s for s in result.sentences if s.index == index + 1), None)
        if pair is None:
            notes.append(
                f"{prediction} has no sentence aligned with this gold sentence (left out of its scores)."
            )
        else:
            gold, pred = pair.gold, pair.pred
    elif prediction is not None and prediction in data.predictions:
        preds = data.predictions[prediction]
        pred = preds[index] if index < len(preds) else None
    paths = [a.lexemes for a in (gold, pred) if a is not None]
    ambiguity = data.ambiguity[index] if data.ambiguity is not None and index < len(data.ambiguity) else None
    with_tokens = all(lx.token is not None for p in paths for lx in p)
    gold_arcs = pred_arcs = None
    if ambiguity is not None and with_tokens and (joint is None or data.pairings[prediction].mode == "index"):
        kind = "ambiguity"
        lattice = distinct_arcs(ambiguity, tag)
        gold_arcs = place_path(gold.lexemes, ambiguity, tag) if gold is not None else None
        pred_arcs = place_path(pred.lexemes, ambiguity, tag) if pred is not None else None
    else:
        kind = "union"
        if ambiguity is not None:
            notes.append(
                "The analyses have no token ids (or were aligned by characters): they cannot be placed in "
                "the ambiguity lattice, so the lattice drawn is made of the analyses themselves."
            )
        lattice, placed = union_lattice(*paths) if paths else (Lattice(()), ())
        k = 0
        if gold is not None:
            gold_arcs, k = placed[0], 1
        if pred is not None:
            pred_arcs = placed[k]
    title = "ambiguity lattice" if kind == "ambiguity" else "the analyses as a lattice"
    lattice_dot = lattice_to_dot(lattice, gold_path=gold_arcs, pred_path=pred_arcs, tag=tag, title=title)
    ted = joint.ted_labeled if joint is not None else None
    gold_styles = (
        _styles(len(gold.tree), {g for _, g in ted.pairs}, "inserted") if ted and gold and gold.tree else {}
    )
    pred_styles = (
        _styles(len(pred.tree), {p for p, _ in ted.pairs}, "deleted") if ted and pred and pred.tree else {}
    )
    gold_dot = (
        lattice_tree_to_dot(gold.tree, styles=gold_styles, title="gold", name="gold")
        if gold is not None and gold.tree is not None
        else None
    )
    pred_dot = (
        lattice_tree_to_dot(pred.tree, styles=pred_styles, title=prediction, name="pred")
        if pred is not None and pred.tree is not None
        else None
    )
    for a, who in ((gold, "gold"), (pred, prediction or "prediction")):
        if a is not None and a.problem:
            notes.append(f"The {who} analysis is not a tree ({a.problem}; {a.where}): no tree is drawn.")
    seg = seg_score(joint.seg, data.config.seg) if joint is not None else None
    rtl = is_rtl_text(" ".join(lx.segment for p in paths for lx in p))
    return SentenceView(lattice_dot, kind, gold_dot, pred_dot, joint, seg, tuple(notes), rtl)


def ops_frame(ops: Sequence[LatticeEditOp]) -> pd.DataFrame:
    """The edit script: deletions from the prediction, additions of gold nodes, with their states."""
    rows = [
        (
            op.kind,
            op.label,
            "yes" if op.lexeme else "no",
            f"{op.start}–{op.end}",
            "" if op.token is None else str(op.token),
        )
        for op in ops
    ]
    return pd.DataFrame(rows, columns=["operation", "node", "lexeme", "states", "token"])
