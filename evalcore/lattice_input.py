"""Reading gold and predicted analyses for joint segmentation + parsing (SPEC §2, §6).

What users have, and how it is read (each side independently):

* **bracketed trees over lexemes** (``(IN B)`` leaves; ACL 2012 Figure 1),
  optionally with a one-path lattice file giving each leaf its token id and
  states;
* **CoNLL-X over morphemes with a lattice file**: SPMRL gold
  (``*-gold.conll`` + ``*-gold.lattices``) or yap's output (``output.conll``
  + ``output.mapping``); yap's ``output.segmentation`` (one token a line,
  segments joined by ``:``) may stand in for the mapping.  The i-th morpheme
  is the i-th arc of the path; their forms must agree;
* **a one-path lattice file alone** (segmentation and tags, no tree: SEGEVAL
  only), e.g. a segmentation baseline;
* **CoNLL-U with multiword tokens** (UD parsers from raw text, CoNLL 2018):
  a range ``n-m`` is one space-delimited token whose words are its segments.
  When both sides are CoNLL without lattice files, sentences and tokens are
  aligned by character offsets (:mod:`evalcore.textalign`); otherwise
  sentences are paired in order and must be as many.

A sentence whose dependency analysis is not a tree (cycle, no root) keeps its
lexemes (SEGEVAL still applies) and gets ``problem`` instead of a tree.

Every file argument is a path or an :class:`InMemoryFile` (the bytes of an
upload with its name: the name gives the extension and appears in messages),
so the app reads uploads without writing them to disk.

Streaming: :class:`PairStream` reads a gold and a predicted file in step
(both files and their lattice files), one sentence pair at a time, so the
``lattice`` command holds one sentence pair, not the corpus.  The batch API
(:func:`read_gold`, :func:`read_side`, :func:`load_pairing`) collects the
same stream for the app and the experiments.  Reading obeys
``ReadOptions.limits`` (:mod:`evalcore.limits`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Literal, TypeVar

from evalcore.errors import InputFormatError, MismatchError
from evalcore.formats._io import InputSource, blocks, iter_lines
from evalcore.formats.conllu import read_conllu
from evalcore.formats.detect import sniff_kind
from evalcore.formats.lattice import read_lattices
from evalcore.formats.ptb import read_ptb
from evalcore.lattice import (
    Block,
    LatticeTree,
    Lexeme,
    TagColumn,
    lexeme_of,
    path_arcs,
    token_blocks,
    tree_from_constituency,
    tree_from_dependency,
)
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.textalign import (
    TokenizedSentence,
    align_tokens,
    iter_tokenize,
    stream_alignment,
    surface_tokens,
)
from evalcore.trees import DepTree, Tree

__all__ = [
    "Analysis",
    "FileInput",
    "GoldInput",
    "InMemoryFile",
    "InputKind",
    "PairStream",
    "Pairing",
    "ReadOptions",
    "SentencePair",
    "input_kind",
    "iter_side",
    "load_pairing",
    "read_gold",
    "read_segmentation",
    "read_side",
]

InputKind = Literal["lattice", "segmentation", "brackets", "conll"]
T = TypeVar("T")
Protocol = Literal["2011", "2012"]


@dataclass(frozen=True, slots=True)
class InMemoryFile:
    """A file given as bytes (an upload); ``name`` supplies the extension and the name in messages."""

    name: str
    data: bytes


FileInput = str | InMemoryFile
"""A path, or an :class:`InMemoryFile`."""


def _open(f: FileInput) -> tuple[InputSource, str]:
    """What the readers take (path or bytes) and the name for messages."""
    if isinstance(f, InMemoryFile):
        return f.data, f.name
    return f, f


def _name(f: FileInput | None) -> str | None:
    return None if f is None else f.name if isinstance(f, InMemoryFile) else f


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How inputs become lexemes and trees; every field enters the lattice signature."""

    tag_column: TagColumn = "cpos"
    protocol: Protocol = "2012"  # dependency → function tree (SPEC §4.1 / §5.1)
    deprel_base: bool = False  # compare only the universal part of a deprel (before ':')
    limits: Limits = field(default=DEFAULT_LIMITS, compare=False)  # resource limits: no number changes


@dataclass(frozen=True)
class Analysis:
    """One side of one sentence: the lexemes of its path and, if the input has one, its tree.

    ``dep`` / ``ptb`` keep the input tree for the classic metrics (attachment,
    PARSEVAL); ``problem`` says why a tree-bearing input has no usable tree.
    """

    lexemes: tuple[Lexeme, ...]
    tree: LatticeTree | None = None
    dep: DepTree | None = None
    ptb: Tree | None = None
    problem: str | None = None
    sent_id: str = ""
    where: str = ""


@dataclass(frozen=True)
class SentencePair:
    """A gold and a predicted analysis of the same sentence, with their alignment blocks."""

    index: int  # 1-based position in the gold file
    gold: Analysis
    pred: Analysis
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Pairing:
    """All sentence pairs, and the sentences that could not be aligned (raw-text mode)."""

    pairs: tuple[SentencePair, ...]
    mode: Literal["index", "characters"]
    gold_sentences: int
    pred_sentences: int
    unaligned_gold: tuple[int, ...] = ()  # 1-based gold sentence numbers
    unaligned_pred: tuple[int, ...] = ()


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def input_kind(path: FileInput, limits: Limits = DEFAULT_LIMITS) -> InputKind:
    """Lattice (8 columns, FROM TO … TOKEN_ID all integers), yap segmentation, brackets or CoNLL."""
    src, name = _open(path)
    suffixes = [s.lower() for s in PurePath(name).suffixes if s.lower() != ".gz"]
    if suffixes and suffixes[-1] in (".lattice", ".lattices", ".mapping"):
        return "lattice"
    if suffixes and suffixes[-1] == ".segmentation":
        return "segmentation"
    for lineno, line in iter_lines(src, name, limits, runs=True):
        if lineno > limits.block_lines:
            break  # only comments so far: more than a sentence block may hold; the reader says so
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) == 8 and _digits(cols[0]) and _digits(cols[1]) and _digits(cols[7]):
            return "lattice"
        if len(cols) == 2 and cols[0] == "" and cols[1].strip():
            return "segmentation"
        break
    return "brackets" if sniff_kind(src, name, limits) == "brackets" else "conll"


def read_segmentation(path: FileInput, limits: Limits = DEFAULT_LIMITS) -> list[tuple[tuple[str, ...], ...]]:
    """yap's ``output.segmentation``: per sentence, per token, its segments (``ב:ה:גן``)."""
    return list(_iter_segmentation(path, limits))


def _iter_segmentation(path: FileInput, limits: Limits) -> Iterator[tuple[tuple[str, ...], ...]]:
    src, name = _open(path)
    for block in blocks(iter_lines(src, name, limits, runs=True), name, limits):
        current: list[tuple[str, ...]] = []
        for lineno, line in block:
            text = line.split("\t")[-1].strip()
            segs = tuple(s for s in text.split(":") if s)
            if not segs:
                raise InputFormatError("a segmentation line without segments", file=name, line=lineno)
            current.append(segs)
        yield tuple(current)


def _where(file: str, line: int | None) -> str:
    return f"{file}:{line}" if line is not None else file


def _paths_of(
    lattice_file: FileInput, tag_column: TagColumn, limits: Limits = DEFAULT_LIMITS
) -> tuple[Iterator[tuple[Lexeme, ...]], InputKind]:
    """The one-path lattices (or yap segmentation) of a file, as lexeme paths, read lazily."""
    kind = input_kind(lattice_file, limits)
    src, name = _open(lattice_file)
    if kind == "segmentation":
        return _segmentation_paths(lattice_file, limits), kind
    if kind != "lattice":
        raise InputFormatError(
            "expected a lattice file (FROM TO FORM LEMMA CPOS FPOS FEATS TOKEN_ID) "
            "or a yap .segmentation file",
            file=name,
        )
    lattices = read_lattices(src, name=name, limits=limits)
    return (tuple(lexeme_of(a, tag_column) for a in path_arcs(lat)) for lat in lattices), kind


def _segmentation_paths(path: FileInput, limits: Limits) -> Iterator[tuple[Lexeme, ...]]:
    for sentence in _iter_segmentation(path, limits):
        lexemes: list[Lexeme] = []
        for tok, segs in enumerate(sentence, start=1):
            for seg in segs:
                k = len(lexemes)
                lexemes.append(Lexeme(seg, "", tok, k, k + 1))
        yield tuple(lexemes)


def _dep_analysis(dep: DepTree, path: Sequence[Lexeme], options: ReadOptions, fname: str) -> Analysis:
    where = _where(fname, dep.source.line if dep.source else None)
    if len(path) != len(dep.tokens):
        raise MismatchError(
            f"{len(dep.tokens)} morphemes in the CoNLL sentence but {len(path)} segments in its lattice path",
            file=fname,
            line=dep.source.line if dep.source else None,
            sentence=dep.sent_id or None,
        )
    lexemes = []
    for k, (tok, lx) in enumerate(zip(dep.tokens, path, strict=True)):
        if tok.form != lx.segment:
            raise MismatchError(
                f"morpheme {k + 1} '{tok.form}' differs from segment '{lx.segment}' of the lattice path",
                file=fname,
                line=dep.source.token_line(k) if dep.source else None,
                sentence=dep.sent_id or None,
            )
        tag = tok.upos if options.tag_column == "cpos" else tok.xpos
        lexemes.append(Lexeme(lx.segment, tag, lx.token, lx.start, lx.end))
    lex = tuple(lexemes)
    problem = dep.structure_problem()
    if problem is not None:
        if dep.source is not None:  # name the offending token's line (SPEC §2)
            where = _where(dep.source.file, dep.source.token_line(problem[0]))
        return Analysis(lex, None, dep, None, problem[1], dep.sent_id, where)
    return Analysis(lex, _dep_tree(dep, lex, options), dep, None, None, dep.sent_id, where)


def _dep_tree(dep: DepTree, lexemes: Sequence[Lexeme], options: ReadOptions) -> LatticeTree:
    if options.deprel_base:
        dep = replace(dep, tokens=tuple(replace(t, deprel=t.deprel.split(":", 1)[0]) for t in dep.tokens))
    return tree_from_dependency(dep, lexemes, options.protocol)


def _ud_lexemes(dep: DepTree, token_ids: Sequence[int], tag_column: TagColumn) -> tuple[Lexeme, ...]:
    """Words as lexemes; ``token_ids[k]`` is the token (or block) of word k."""
    out = []
    for k, tok in enumerate(dep.tokens):
        tag = tok.upos if tag_column == "cpos" else tok.xpos
        out.append(Lexeme(tok.form, tag, token_ids[k], k, k + 1))
    return tuple(out)


def _ud_token_ids(dep: DepTree) -> list[int]:
    ids = [0] * len(dep.tokens)
    for t, (_, words, _, _) in enumerate(surface_tokens(dep), start=1):
        for w in words:
            ids[w] = t
    return ids


def _ud_analysis(dep: DepTree, token_ids: Sequence[int], options: ReadOptions) -> Analysis:
    where = _where(dep.source.file, dep.source.line) if dep.source else ""
    lex = _ud_lexemes(dep, token_ids, options.tag_column)
    problem = dep.structure_problem()
    if problem is not None:
        if dep.source is not None:  # name the offending token's line (SPEC §2)
            where = _where(dep.source.file, dep.source.token_line(problem[0]))
        return Analysis(lex, None, dep, None, problem[1], dep.sent_id, where)
    return Analysis(lex, _dep_tree(dep, lex, options), dep, None, None, dep.sent_id, where)


def read_side(
    path: FileInput, lattice: FileInput | None = None, options: ReadOptions = ReadOptions()
) -> list[Analysis]:
    """All analyses of one file (paired later by position)."""
    return list(iter_side(path, lattice, options))


def _zip_counted(
    items: Iterator[T], paths: Iterator[tuple[Lexeme, ...]], what: str, fname: str, lattice_name: str | None
) -> Iterator[tuple[T, tuple[Lexeme, ...]]]:
    """Items of a file with the paths of its lattice file, in step; different counts are a
    :class:`MismatchError` naming both (the rest of the longer file is counted, not kept)."""
    n = 0
    for item in items:
        path = next(paths, None)
        if path is None:
            rest = 1 + sum(1 for _ in items)
            raise MismatchError(f"{n + rest} {what} but {n} lattice paths in {lattice_name}", file=fname)
        n += 1
        yield item, path
    rest = sum(1 for _ in paths)
    if rest:
        raise MismatchError(f"{n} {what} but {n + rest} lattice paths in {lattice_name}", file=fname)


def iter_side(
    path: FileInput, lattice: FileInput | None = None, options: ReadOptions = ReadOptions()
) -> Iterator[Analysis]:
    """The analyses of one file, one sentence at a time (with its lattice file read in step)."""
    limits = options.limits
    kind = input_kind(path, limits)
    src, fname = _open(path)
    lattice_name = _name(lattice)
    paths: Iterator[tuple[Lexeme, ...]] | None = None
    lattice_kind: InputKind | None = None
    if lattice is not None:
        paths, lattice_kind = _paths_of(lattice, options.tag_column, limits)
    if kind in ("lattice", "segmentation"):
        if lattice is not None:
            raise InputFormatError("a lattice file needs no second lattice file", file=fname)
        own, _ = _paths_of(path, options.tag_column, limits)
        for p in own:
            yield Analysis(p, where=fname)
        return
    if kind == "brackets":
        if lattice_kind == "segmentation":
            raise InputFormatError(
                "bracketed trees take a lattice file, not a segmentation", file=lattice_name
            )
        trees = read_ptb(src, name=fname, limits=limits)
        pairs: Iterable[tuple[Tree, tuple[Lexeme, ...] | None]] = (
            _zip_counted(trees, paths, "trees", fname, lattice_name)
            if paths is not None
            else ((t, None) for t in trees)
        )
        for tree, p in pairs:
            lt = tree_from_constituency(tree, p)
            where = _where(fname, tree.source.line if tree.source else None)
            yield Analysis(lt.path, lt, None, tree, None, tree.sent_id, where)
        return
    deps = read_conllu(src, name=fname, on_invalid="keep", limits=limits)
    if paths is None:
        for d in deps:
            yield _ud_analysis(d, _ud_token_ids(d), options)
        return
    for d, p in _zip_counted(deps, paths, "CoNLL sentences", fname, lattice_name):
        yield _dep_analysis(d, p, options, fname)


def _index_pair(i: int, g: Analysis, p: Analysis) -> SentencePair:
    g_tok = all(lx.token is not None for lx in g.lexemes)
    p_tok = all(lx.token is not None for lx in p.lexemes)
    if g_tok != p_tok:
        g, p = _drop_tokens(g), _drop_tokens(p)
    return SentencePair(i, g, p, token_blocks(g.lexemes, p.lexemes))


def _drop_tokens(a: Analysis) -> Analysis:
    """Forget token ids (when only one side has them, lexemes match by segment, tag and order)."""
    lex = tuple(replace(lx, token=None) for lx in a.lexemes)
    tree = a.tree
    if tree is not None:
        tree = replace(tree, lexemes=tuple(replace(lx, token=None) if lx else None for lx in tree.lexemes))
    return replace(a, lexemes=lex, tree=tree)


def _retoken(a: Analysis, mapping: Sequence[int]) -> Analysis:
    """Renumber token ids: token ``t`` (1-based) becomes ``mapping[t - 1]`` (an alignment block)."""
    lex = tuple(replace(lx, token=mapping[lx.token - 1] if lx.token else None) for lx in a.lexemes)
    tree = a.tree
    if tree is not None:
        by_position = {(lx.start, lx.end): new for lx, new in zip(a.lexemes, lex, strict=True)}
        tree = replace(
            tree, lexemes=tuple(by_position[(lx.start, lx.end)] if lx else None for lx in tree.lexemes)
        )
    return replace(a, lexemes=lex, tree=tree)


@dataclass(frozen=True)
class GoldInput:
    """A gold file read once, to be paired with several predictions (:func:`load_pairing`).

    ``tokenized`` is set for CoNLL input without a lattice file (raw-text
    alignment by characters becomes possible).  ``path`` and ``lattice`` are
    the files' names (the path, or an in-memory file's name).
    """

    path: str
    lattice: str | None
    options: ReadOptions
    analyses: tuple[Analysis, ...]
    tokenized: tuple[TokenizedSentence, ...] | None


def read_gold(
    path: FileInput, lattice: FileInput | None = None, options: ReadOptions = ReadOptions()
) -> GoldInput:
    """Read the gold side once (SPEC §6)."""
    src, name = _open(path)
    if lattice is None and input_kind(path, options.limits) == "conll":
        sentences = tuple(
            iter_tokenize(read_conllu(src, name=name, on_invalid="keep", limits=options.limits))
        )
        analyses = tuple(_ud_analysis(s.tree, _ud_token_ids(s.tree), options) for s in sentences)
        return GoldInput(name, None, options, analyses, sentences)
    analyses = tuple(read_side(path, lattice, options))
    return GoldInput(name, _name(lattice), options, analyses, None)


class PairStream:
    """The sentence pairs of a gold and a predicted file, read in step: iterate once.

    Both CoNLL without lattice files: aligned by characters (raw text); otherwise paired in
    order (a :class:`MismatchError` when the files have different numbers of sentences, raised
    when the shorter one ends).  ``gold`` may be a :class:`GoldInput` read once for several
    predictions (its settings then win).  After the iteration, ``gold_sentences``,
    ``pred_sentences`` and the unaligned sentences (1-based) are set.  Memory: one sentence
    pair (and, aligning by characters, the sentences not aligned yet).
    """

    def __init__(
        self,
        gold: FileInput | GoldInput,
        pred: FileInput,
        *,
        gold_lattice: FileInput | None = None,
        pred_lattice: FileInput | None = None,
        options: ReadOptions = ReadOptions(),
    ) -> None:
        self.options = gold.options if isinstance(gold, GoldInput) else options
        limits = self.options.limits
        self.gold, self.pred = gold, pred
        self.gold_lattice = gold_lattice
        self.pred_lattice = pred_lattice
        self.gold_name = gold.path if isinstance(gold, GoldInput) else _open(gold)[1]
        if isinstance(gold, GoldInput):
            gold_chars = gold.tokenized is not None
        else:
            gold_chars = gold_lattice is None and input_kind(gold, limits) == "conll"
        chars = gold_chars and pred_lattice is None and input_kind(pred, limits) == "conll"
        self.mode: Literal["index", "characters"] = "characters" if chars else "index"
        self.gold_sentences = 0
        self.pred_sentences = 0
        self.unaligned_gold: list[int] = []
        self.unaligned_pred: list[int] = []

    def __iter__(self) -> Iterator[SentencePair]:
        return self._by_characters() if self.mode == "characters" else self._by_index()

    def _by_index(self) -> Iterator[SentencePair]:
        gold = self.gold
        golds = (
            iter(gold.analyses)
            if isinstance(gold, GoldInput)
            else iter_side(gold, self.gold_lattice, self.options)
        )
        preds = iter_side(self.pred, self.pred_lattice, self.options)
        for g in golds:
            p = next(preds, None)
            if p is None:
                self.gold_sentences += 1 + sum(1 for _ in golds)
                self._different_counts(g, self.gold_name)
            self.gold_sentences += 1
            self.pred_sentences += 1
            yield _index_pair(self.gold_sentences, g, p)
        extra = next(preds, None)
        if extra is not None:
            self.pred_sentences += 1 + sum(1 for _ in preds)
            self._different_counts(extra, _name(self.pred) or "")

    def _different_counts(self, extra: Analysis, file: str) -> None:
        """The files have different numbers of sentences: named at the first one without a partner."""
        src = (
            extra.dep.source if extra.dep is not None else extra.ptb.source if extra.ptb is not None else None
        )
        raise MismatchError(
            f"gold has {self.gold_sentences} sentences and the prediction {self.pred_sentences}; sentence "
            f"{min(self.gold_sentences, self.pred_sentences) + 1} has no partner (sentences are paired in "
            "order; for raw-text CoNLL-U output give both files without lattices to align by characters)",
            file=src.file if src is not None else file,
            line=src.line if src is not None else None,
        )

    def _by_characters(self) -> Iterator[SentencePair]:
        gold, options = self.gold, self.options
        limits = options.limits
        if isinstance(gold, GoldInput):
            assert gold.tokenized is not None
            g_sents: Iterable[TokenizedSentence] = gold.tokenized
        else:
            g_src, g_name = _open(gold)
            g_sents = iter_tokenize(read_conllu(g_src, name=g_name, on_invalid="keep", limits=limits))
        src, name = _open(self.pred)
        p_sents = iter_tokenize(read_conllu(src, name=name, on_invalid="keep", limits=limits))
        for step in stream_alignment(g_sents, p_sents):
            if step.gold is not None:
                self.gold_sentences = step.gold_index + 1
            if step.pred is not None:
                self.pred_sentences = step.pred_index + 1
            if step.gold is None:
                self.unaligned_pred.append(step.pred_index + 1)
                continue
            if step.pred is None:
                self.unaligned_gold.append(step.gold_index + 1)
                continue
            g, p = step.gold, step.pred
            g_blocks, p_blocks, blocks_ = align_tokens(g, p)
            if isinstance(gold, GoldInput):
                g_analysis = gold.analyses[step.gold_index]
            else:
                g_analysis = _ud_analysis(g.tree, _ud_token_ids(g.tree), options)
            pred = _ud_analysis(p.tree, _ud_token_ids(p.tree), options)
            yield SentencePair(
                step.gold_index + 1, _retoken(g_analysis, g_blocks), _retoken(pred, p_blocks), blocks_
            )

    def pairing(self) -> Pairing:
        """Read everything into a :class:`Pairing` (the batch view)."""
        pairs = tuple(self)
        return Pairing(
            pairs,
            self.mode,
            self.gold_sentences,
            self.pred_sentences,
            tuple(self.unaligned_gold),
            tuple(self.unaligned_pred),
        )


def load_pairing(
    gold: FileInput | GoldInput,
    pred: FileInput,
    *,
    gold_lattice: FileInput | None = None,
    pred_lattice: FileInput | None = None,
    options: ReadOptions = ReadOptions(),
) -> Pairing:
    """Read and pair a gold and a predicted file (SPEC §6): :class:`PairStream`, collected.

    Both CoNLL without lattice files: aligned by characters (raw text);
    otherwise paired in order.  ``gold`` may be a :class:`GoldInput` read
    once for several predictions (its settings then win).  Files are paths
    or :class:`InMemoryFile` values (uploads, never written to disk).
    """
    if not isinstance(gold, GoldInput):
        gold = read_gold(gold, gold_lattice, options)
    return PairStream(gold, pred, pred_lattice=pred_lattice, options=options).pairing()
