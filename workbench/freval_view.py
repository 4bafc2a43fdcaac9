"""The FREVAL page's data: bracketed files and evalb parameter files read from bytes, FREVAL runs
(cached on file contents and settings) and the tables the page shows.

Files are read as ``evalcore freval`` reads them (:func:`evalcore.formats.ptb.read_ptb_sentences`,
layout detected per file: one sentence per line as evalb, or pretty-printed trees), so the numbers
on the page are the command line's.  Every run counts fragments of every size (no size limit): the
size limit of the curves and Table 1's limits are applied afterwards with
:meth:`~evalcore.metrics.freval.FrevalResult.rescore`, which does not recount.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import pandas as pd

from evalcore.errors import EvalcoreError
from evalcore.families.freval import FrevalSettings, freval_config
from evalcore.formats.evalb import read_evalb
from evalcore.formats.prm import COLLINS, EvalbParams, read_prm
from evalcore.formats.ptb import PtbLine, read_ptb_sentences
from evalcore.fragments import fragment_counts
from evalcore.limits import Limits
from evalcore.metrics.freval import (
    FrevalResult,
    FrevalScore,
    f1_by_size_frame,
    freval_corpus,
    table1_frame,
)
from evalcore.metrics.parseval import Bracket, SentenceComparison
from evalcore.render.dot import NodeStyleName, tree_to_dot
from evalcore.trees import Node, Tree
from workbench.cache import app_limits, cached, digest
from workbench.datasets import ASSETS, DatasetSpec, FileSpec
from workbench.uploads import refusal

__all__ = [
    "BUILTIN_PRM",
    "VARIANTS",
    "SentenceView",
    "Series",
    "TreeFile",
    "builtin_files",
    "counts_frame",
    "curves_frame",
    "params_of",
    "problems_frame",
    "run_series",
    "sentence_view",
    "sentences",
    "sentences_frame",
    "summary_frame",
    "table1",
    "validate_prm",
    "validate_trees",
]

BUILTIN_PRM = "COLLINS.prm (built in)"

VARIANTS: dict[str, tuple[bool, bool]] = {
    # name -> (labels ignored, strict edges)
    "as set": (False, False),
    "labels ignored": (True, False),
    "edges checked (--strict)": (False, True),
}
"""Ways to score each parser file; every chosen one is a curve of its own."""


@dataclass(frozen=True)
class TreeFile:
    """A bracketed or parameter file in memory (built-in asset or upload)."""

    name: str
    data: bytes = b""

    @cached_property
    def digest(self) -> str:
        return digest(self.data)


def builtin_files(spec: DatasetSpec) -> tuple[TreeFile | None, list[TreeFile], list[TreeFile]]:
    """Gold, parser files and parameter files of a built-in constituency dataset."""
    gold = next((f for f in spec.files if f.role == "gold" and f.fmt == "ptb"), None)
    tests = [f for f in spec.files if f.role == "parse" and f.fmt == "ptb"]
    params = [f for f in spec.files if f.fmt == "prm"]

    def load(f: FileSpec) -> TreeFile:
        return TreeFile(f.name, (ASSETS / f.path).read_bytes())

    return (load(gold) if gold else None), [load(f) for f in tests], [load(f) for f in params]


@cached("resource", show_spinner=False, max_entries=64)
def _sentences(digest: str, name: str, limits: str, _data: bytes, _limits: Limits) -> tuple[PtbLine, ...]:
    return tuple(read_ptb_sentences(_data, name=name, layout="auto", limits=_limits))


def sentences(f: TreeFile) -> tuple[PtbLine, ...]:
    """The file's sentences as evalb sees them (cached on content), read under the app's limits
    (:func:`workbench.cache.app_limits`); raises EvalcoreError."""
    limits = app_limits()
    return _sentences.by(f.digest)(f.digest, f.name, repr(limits), f.data, limits)


def validate_trees(name: str, data: bytes) -> str | None:
    """The reader's message if the file cannot be read as bracketed trees, else ``None``."""
    return refusal(name, lambda: sentences(TreeFile(name, data)), "sentence")


@cached("resource", show_spinner=False, max_entries=32)
def _params(digest: str, name: str, _data: bytes) -> EvalbParams:
    return read_prm(_data, name=name)


def params_of(f: TreeFile | None) -> EvalbParams:
    """The parameter file's settings; ``None`` = evalb's COLLINS.prm (built in)."""
    return COLLINS if f is None else _params.by(f.digest)(f.digest, f.name, f.data)


def validate_prm(name: str, data: bytes) -> str | None:
    return refusal(name, lambda: params_of(TreeFile(name, data)))


@cached("resource", show_spinner=False, max_entries=128)
def _run(
    gold_digest: str,
    test_digest: str,
    prm_digest: str,
    settings: FrevalSettings,
    _gold: TreeFile,
    _test: TreeFile,
    _params: EvalbParams,
) -> FrevalResult:
    """A run, keyed on the files' contents and the frozen settings (always without a size limit;
    see the module doc)."""
    return freval_corpus(sentences(_gold), sentences(_test), freval_config(settings, params=_params))


@dataclass(frozen=True)
class Series:
    """One curve: a parser file scored under one variant (or the error that stopped it)."""

    name: str
    file: str
    variant: str
    result: FrevalResult | None
    error: str | None = None

    def scored(self, max_size: int | None) -> FrevalScore:
        assert self.result is not None
        return self.result.rescore(max_size) if max_size is not None else self.result.score


def run_series(
    gold: TreeFile,
    tests: Sequence[TreeFile],
    prm: TreeFile | None,
    settings: FrevalSettings,
    variants: Sequence[str] = ("as set",),
) -> list[Series]:
    """FREVAL of every parser file under every variant against ``gold`` (cached) under ``settings``
    with the parameter file ``prm`` (``None``: COLLINS.prm), every size counted (``max_size`` is
    the page's to apply)."""
    out: list[Series] = []
    params, files = params_of(prm), () if prm is None else (prm.digest,)
    for test in tests:
        for variant in [v for v in VARIANTS if v in variants] or ["as set"]:
            name = test.name if variant == "as set" else f"{test.name} ({variant})"
            no_labels, strict = VARIANTS[variant]
            chosen = replace(
                settings, unlabeled=settings.unlabeled or no_labels, strict=strict, max_size=None
            )
            run = _run.by(gold.digest, test.digest, *files)
            try:
                result = run(gold.digest, test.digest, "".join(files), chosen, gold, test, params)
            except EvalcoreError as exc:
                out.append(Series(name, test.name, variant, None, str(exc)))
                continue
            out.append(Series(name, test.name, variant, result))
    return out


def _ok(series: Sequence[Series]) -> list[Series]:
    return [s for s in series if s.result is not None]


def curves_frame(series: Sequence[Series], max_size: int | None, baseline: str | None = None) -> pd.DataFrame:
    """``parser, size, recall, precision, f1[, f1_minus_baseline]`` in percent (the paper's Figures 1–3)."""
    frame = f1_by_size_frame({s.name: s.scored(max_size) for s in _ok(series)}, baseline=baseline)
    for col in ("recall", "precision", "f1", "f1_minus_baseline"):
        if col in frame:
            frame[col] = 100 * frame[col]
    return frame


def table1(series: Sequence[Series]) -> pd.DataFrame:
    """The paper's Table 1 (FLR, FLP, F1 in percent for sizes 1, 1–15, 1–25, all), one row per curve."""
    results: Mapping[str, FrevalResult] = {s.name: s.result for s in _ok(series) if s.result is not None}
    return table1_frame(results)


def counts_frame(series: Sequence[Series], max_size: int | None) -> pd.DataFrame:
    """Per curve and size: matched, gold and test fragments and LR_s, LP_s, F1_s (percent)."""
    rows = [
        (s.name, r.size, r.matched, r.gold, r.test, 100 * r.recall, 100 * r.precision, 100 * r.f1)
        for s in _ok(series)
        for r in s.scored(max_size).per_size
    ]
    return pd.DataFrame(
        rows, columns=["parser", "size", "matched", "gold", "test", "LR_s %", "LP_s %", "F1_s %"]
    )


def summary_frame(series: Sequence[Series], max_size: int | None) -> pd.DataFrame:
    """Per curve: FLR, FLP, F1 (percent) under the chosen size limit, sentence counts and the signature."""
    rows = []
    for s in _ok(series):
        sc = s.scored(max_size)
        rows.append(
            {
                "parser": s.name,
                "FLR %": 100 * sc.flr,
                "FLP %": 100 * sc.flp,
                "F1 %": 100 * sc.f1,
                "sizes": f"1-{sc.limit}",
                "sentences": sc.sentences,
                "valid": sc.valid,
                "errors": sc.errors,
                "skipped": sc.skipped,
                "signature": sc.signature,
            }
        )
    return pd.DataFrame(rows)


def problems_frame(s: Series) -> pd.DataFrame:
    """The error and skip sentences of one run (excluded from every count, as evalb does)."""
    assert s.result is not None
    rows = [
        (c.index, c.gold_line, c.test_line, c.status, c.message)
        for c in s.result.comparisons
        if c.status != "ok"
    ]
    return pd.DataFrame(rows, columns=["sentence", "gold line", "test line", "status", "why"])


# ---------------------------------------------------------------------------
# one sentence: which brackets and fragments were missed or extra


def _sizes(counts: Sequence[int], max_size: int | None) -> int:
    return sum(counts if max_size is None else counts[:max_size])


def sentences_frame(s: Series, max_size: int | None) -> pd.DataFrame:
    """Every sentence of a run: its brackets (gold, test, matched, missed = gold not matched, extra =
    test not matched) and fragments of sizes 1..``max_size`` (gold, matched, missed = gold not
    matched), worst first (most missed fragments); error, skip and cut-off sentences last."""
    assert s.result is not None
    rows = []
    for comp, counts in zip(s.result.comparisons, s.result.per_sentence, strict=True):
        ok = comp.status == "ok" and counts.valid == 1
        gold_f, matched_f = _sizes(counts.gold, max_size), _sizes(counts.matched, max_size)
        rows.append(
            {
                "sentence": comp.index,
                "words": comp.length,
                "status": comp.status if comp.status != "ok" or ok else "cut off (--cutoff-len)",
                "gold brackets": len(comp.gold) if ok else None,
                "test brackets": len(comp.test) if ok else None,
                "missed brackets": len(comp.gold) - comp.matched if ok else None,
                "extra brackets": len(comp.test) - comp.matched if ok else None,
                "gold fragments": gold_f if ok else None,
                "missed fragments": gold_f - matched_f if ok else None,
                "fragment recall %": (100 * matched_f / gold_f if gold_f else 100.0) if ok else None,
            }
        )
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    for col in frame.columns[3:-1]:
        frame[col] = frame[col].astype("Int64")
    frame["_bad"] = frame["missed fragments"].isna()
    frame = frame.sort_values(["_bad", "missed fragments", "sentence"], ascending=[True, False, True])
    return frame.drop(columns="_bad").reset_index(drop=True)


@dataclass(frozen=True)
class SentenceView:
    """One sentence of a run drawn: the gold tree with its missed brackets marked (each with the
    number of gold fragments it spoils), the test tree with its extra brackets marked, and the
    per-size fragment counts of the sentence."""

    comparison: SentenceComparison
    gold_dot: str
    test_dot: str
    missed: tuple[tuple[str, int, int, int], ...]  # (label, first word, last word (1-based), fragments)
    extra: tuple[tuple[str, int, int], ...]
    sizes: pd.DataFrame


def _bracket_tree(brackets: Sequence[Bracket], words: Sequence[str]) -> tuple[Tree, dict[int, int]]:
    """The scored brackets as a tree (words under the smallest bracket covering them; a bare root
    "·" when there are several top brackets or words outside them) and bracket -> node index."""
    n = max([len(words), *(b.end for b in brackets)], default=0)
    shown = [*words, *("?" for _ in range(n - len(words)))]
    kids: dict[int, list[tuple[int, int, int]]] = {-1: []}  # parent -> (start, kind, item)
    covered: dict[int, int] = {}  # word -> innermost bracket
    for k, b in enumerate(brackets):
        kids.setdefault(k, [])
        kids[b.parent if b.parent in kids else -1].append((b.start, 0, k))
        for w in range(b.start, b.end):
            covered[w] = k  # preorder: an inner bracket comes later and wins
    for w in range(n):
        kids[covered.get(w, -1)].append((w, 1, w))
    top = kids[-1]
    synthetic = not (len(top) == 1 and top[0][1] == 0)
    nodes: list[Node | None] = []
    index: dict[int, int] = {}
    # iterative preorder: (kind, item, slot of the parent's child list)
    pending: list[tuple[int, int, int]] = [(0, -1, -1)] if synthetic else [(0, top[0][2], -1)]
    children: dict[int, list[int]] = {}
    labels: dict[int, str] = {}
    terminal: dict[int, int] = {}
    while pending:
        kind, item, parent = pending.pop()
        me = len(nodes)
        nodes.append(None)
        if parent >= 0:
            children[parent].append(me)
        if kind == 1:
            labels[me], terminal[me] = shown[item], item
            continue
        children[me] = []
        labels[me] = "·" if item == -1 else brackets[item].label or "∅"
        if item >= 0:
            index[item] = me
        below = sorted(kids[item])
        pending.extend((k, it, me) for _, k, it in reversed(below))
    out = tuple(Node(labels[i], tuple(children.get(i, ())), terminal.get(i)) for i in range(len(nodes)))
    return Tree(out, tuple(shown)), index


def _spoiled(parents: Sequence[int], node: int, max_size: int | None) -> int:
    """Fragments (sizes 1..max_size) of the tree ``parents`` that contain bracket ``node``."""
    everything = fragment_counts(parents, max_size=max_size)
    without = fragment_counts(parents, [i != node for i in range(len(parents))], max_size=max_size)
    return sum(everything) - sum(without)


def sentence_view(
    gold: TreeFile, test: TreeFile, s: Series, number: int, max_size: int | None
) -> SentenceView:
    """Sentence ``number`` (1-based, evalb's ID) of run ``s`` of ``test`` against ``gold``."""
    assert s.result is not None
    comp = s.result.comparisons[number - 1]
    counts = s.result.per_sentence[number - 1]
    params = s.result.config.extraction.params
    gold_words = read_evalb(sentences(gold)[number - 1].trees, params).words
    test_words = read_evalb(sentences(test)[number - 1].trees, params).words
    gold_tree, gold_index = _bracket_tree(comp.gold, gold_words)
    test_tree, test_index = _bracket_tree(comp.test, test_words)
    parents = [b.parent for b in comp.gold]
    missed = tuple(
        (b.label, b.start + 1, b.end, _spoiled(parents, k, max_size))
        for k, b in enumerate(comp.gold)
        if comp.gold_partner[k] < 0
    )
    extra = tuple((b.label, b.start + 1, b.end) for k, b in enumerate(comp.test) if comp.test_partner[k] < 0)
    gold_styles: dict[int, NodeStyleName] = {
        gold_index[k]: "deleted" for k in range(len(comp.gold)) if comp.gold_partner[k] < 0
    }
    gold_labels = {
        gold_index[k]: f"{b.label or '∅'} ✗{spoil}"
        for (k, b), (_, _, _, spoil) in zip(
            ((k, b) for k, b in enumerate(comp.gold) if comp.gold_partner[k] < 0), missed, strict=True
        )
    }
    test_styles: dict[int, NodeStyleName] = {
        test_index[k]: "inserted" for k in range(len(comp.test)) if comp.test_partner[k] < 0
    }
    limit = len(counts.gold) if max_size is None else min(max_size, len(counts.gold))
    at = [
        (_at_size(counts.gold, k), _at_size(counts.test, k), _at_size(counts.matched, k))
        for k in range(limit)
    ]
    sizes = pd.DataFrame(
        [(k + 1, g, t, m, g - m) for k, (g, t, m) in enumerate(at)],
        columns=["size", "gold", "test", "matched", "missed"],
    )
    return SentenceView(
        comp,
        tree_to_dot(gold_tree, styles=gold_styles, labels=gold_labels, title="gold", name="gold"),
        tree_to_dot(test_tree, styles=test_styles, title=f"test: {s.name}", name="test"),
        missed,
        extra,
        sizes,
    )


def _at_size(v: Sequence[int], k: int) -> int:
    return v[k] if k < len(v) else 0
