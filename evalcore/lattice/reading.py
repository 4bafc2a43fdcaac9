"""Reading gold and predicted analyses for joint segmentation + parsing (docs/formats.md, "Common to every
reader"; docs/lattice.md, "Inputs").

docs/lattice.md, "Inputs" says what is read (bracketed trees over lexemes, CoNLL-X over morphemes with
a lattice or yap segmentation file, a one-path lattice file alone, CoNLL-U with multiword tokens aligned
by characters) and the three cases in which a side that does not state its token boundaries gets them
(else a :class:`~evalcore.errors.MismatchError`).  A sentence whose dependency analysis is not a tree
keeps its lexemes (SEGEVAL still applies) and gets ``problem`` instead of a tree.

Every file argument is a path or an :class:`InMemoryFile` (an upload's bytes and name: read without
writing them to disk).  :class:`PairStream` reads a gold and a predicted file in step, one sentence
pair at a time; the batch API (:func:`read_gold`, :func:`read_side`, :func:`load_pairing`) collects
the same stream.  Reading obeys ``ReadOptions.limits`` (:mod:`evalcore.limits`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal, NoReturn, TypeVar

from evalcore.errors import InputFormatError, MismatchError
from evalcore.formats._io import InMemoryText, InputSource, blocks, iter_lines
from evalcore.formats.columns import id_kind
from evalcore.formats.conllu import read_conllu
from evalcore.formats.detect import line_format, sniff_kind, suffix_format
from evalcore.formats.lattice import read_lattices
from evalcore.formats.ptb import read_ptb
from evalcore.lattice.model import (
    DEFAULT_READ_OPTIONS,
    Analysis,
    Lexeme,
    Pairing,
    ReadOptions,
    SentencePair,
    TagColumn,
    lexeme_of,
    token_blocks,
    tree_from_constituency,
    tree_from_dependency,
)
from evalcore.lattice.paths import path_arcs, token_splits
from evalcore.lattice.textalign import (
    TokenizedSentence,
    align_tokens,
    iter_tokenize,
    stream_alignment,
    surface_tokens,
)
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.trees import DepTree, Lattice, Tree

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


@dataclass(frozen=True, slots=True)
class InMemoryFile:
    """A file given as bytes (an upload) or as text (the public API's in-memory input); ``name``
    supplies the extension and the name in messages."""

    name: str
    data: bytes | InMemoryText


FileInput = str | InMemoryFile
"""A path, or an :class:`InMemoryFile`."""


def _open(f: FileInput) -> tuple[InputSource, str]:
    """What the readers take (path or bytes) and the name for messages."""
    if isinstance(f, InMemoryFile):
        return f.data, f.name
    return f, f


def _name(f: FileInput | None) -> str | None:
    return None if f is None else f.name if isinstance(f, InMemoryFile) else f


def input_kind(path: FileInput, limits: Limits = DEFAULT_LIMITS) -> InputKind:
    """Lattice (8 columns, FROM TO … TOKEN_ID all integers), yap segmentation, brackets or CoNLL."""
    src, name = _open(path)
    fmt = suffix_format(name)
    if fmt == "lattice" or fmt == "segmentation":
        return fmt
    for lineno, line in iter_lines(src, name, limits, runs=True, cr_ends=True):
        if lineno > limits.block_lines:
            break  # only comments so far: more than a sentence block may hold; the reader says so
        if not line.strip() or line.startswith("#"):
            continue
        by_line = line_format(line)
        if by_line == "lattice" or by_line == "segmentation":
            return by_line
        break
    return "brackets" if sniff_kind(src, name, limits) == "brackets" else "conll"


def read_segmentation(path: FileInput, limits: Limits = DEFAULT_LIMITS) -> list[tuple[tuple[str, ...], ...]]:
    """yap's ``output.segmentation``: per sentence, per token, its segments (``ב:ה:גן``; a token ``:``
    is the one segment ``:``)."""
    return list(_iter_segmentation(path, limits))


def _iter_segmentation(path: FileInput, limits: Limits) -> Iterator[tuple[tuple[str, ...], ...]]:
    src, name = _open(path)
    for block in blocks(iter_lines(src, name, limits, runs=True, cr_ends=True), name, limits):
        current: list[tuple[str, ...]] = []
        for lineno, line in block:
            text = line.split("\t")[-1].strip()
            # ':' joins segments; a token made only of colons (the punctuation ':') is one segment
            segs = tuple(s for s in text.split(":") if s) or ((text,) if text else ())
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
    return _tree_analysis(dep, tuple(lexemes), options, where, True)


def _tree_analysis(
    dep: DepTree, lex: tuple[Lexeme, ...], options: ReadOptions, where: str, stated: bool
) -> Analysis:
    """The analysis of ``dep`` over ``lex``: its tree, or the ``problem`` that it is not one."""
    problem = dep.structure_problem()
    if problem is not None:
        # name the offending token's line (docs/formats.md, "Common to every reader")
        if dep.source is not None:
            where = _where(dep.source.file, dep.source.token_line(problem[0]))
        return Analysis(lex, None, dep, None, problem[1], dep.sent_id, where, stated)
    tree = dep
    if options.deprel_base:
        tree = replace(dep, tokens=tuple(replace(t, deprel=t.deprel.split(":", 1)[0]) for t in dep.tokens))
    lattice_tree = tree_from_dependency(tree, lex, options.protocol)
    return Analysis(lex, lattice_tree, dep, None, None, dep.sent_id, where, stated)


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


def _ud_analysis(dep: DepTree, token_ids: Sequence[int], options: ReadOptions, stated: bool) -> Analysis:
    where = _where(dep.source.file, dep.source.line) if dep.source else ""
    return _tree_analysis(dep, _ud_lexemes(dep, token_ids, options.tag_column), options, where, stated)


def _states_tokens(path: FileInput, limits: Limits) -> bool:
    """A CoNLL file says which token each word belongs to when it has multiword-token lines (CoNLL-U).

    A property of the whole file, found by a first pass over its lines that stops at the first
    range ID (``n-m``); memory: one line, under the same limits as the reading itself.
    """
    src, name = _open(path)
    for _, line in iter_lines(src, name, limits, runs=True, cr_ends=True):
        if line.startswith("#"):
            continue
        if id_kind(line.partition("\t")[0]) == "range":
            return True
    return False


def read_side(
    path: FileInput, lattice: FileInput | None = None, options: ReadOptions = DEFAULT_READ_OPTIONS
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
    path: FileInput, lattice: FileInput | None = None, options: ReadOptions = DEFAULT_READ_OPTIONS
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
        for tree, tree_path in pairs:
            lt = tree_from_constituency(tree, tree_path)
            where = _where(fname, tree.source.line if tree.source else None)
            yield Analysis(lt.path, lt, None, tree, None, tree.sent_id, where)
        return
    deps = read_conllu(src, name=fname, on_invalid="keep", limits=limits)
    if paths is None:
        stated = _states_tokens(path, limits)
        for d in deps:
            yield _ud_analysis(d, _ud_token_ids(d), options, stated)
        return
    for d, p in _zip_counted(deps, paths, "CoNLL sentences", fname, lattice_name):
        yield _dep_analysis(d, p, options, fname)


def _index_pair(
    i: int, g: Analysis, p: Analysis, lattice: Lattice | None, gold_path: str, pred_path: str
) -> SentencePair:
    """Sentence ``i`` of both files paired in order; a side that does not state its token boundaries
    gets them by the three cases of docs/lattice.md, "Inputs" (``lattice``: its ambiguity lattice)."""
    g_tok = all(lx.token is not None for lx in g.lexemes)
    p_tok = all(lx.token is not None for lx in p.lexemes)
    if g_tok != p_tok:
        g, p = _drop_tokens(g), _drop_tokens(p)
    elif g_tok:
        if g.tokens_stated and not p.tokens_stated:
            p = _recover_tokens(p, g, lattice, i, "prediction", pred_path)
        elif p.tokens_stated and not g.tokens_stated:
            g = _recover_tokens(g, p, lattice, i, "gold", gold_path)
        _same_tokens(g, p, i, pred_path)
    return SentencePair(i, g, p, token_blocks(g.lexemes, p.lexemes))


_SUPPLY = {
    "prediction": "--pred-lattice (its lattice path, or yap's output.mapping or .segmentation)",
    "gold": "--gold-lattice (its lattice path)",
}


def _split_by_count(segments: int, tokens: Sequence[int]) -> list[int] | None:
    """The only assignment of ``segments`` to ``tokens`` (each has at least one), when the counts force it."""
    if len(tokens) == 1:
        return [tokens[0]] * segments
    if segments == len(tokens):
        return list(tokens)
    return None


def _recover_tokens(
    a: Analysis, other: Analysis, lattice: Lattice | None, index: int, side: str, path: str
) -> Analysis:
    """``a`` with the token ids of the three cases of docs/lattice.md, "Inputs", else a MismatchError."""
    segments = [lx.segment for lx in a.lexemes]
    tokens = sorted({lx.token for lx in other.lexemes if lx.token is not None})
    ids: Sequence[int] | None = None
    if segments == [lx.segment for lx in other.lexemes]:
        ids = [lx.token for lx in other.lexemes if lx.token is not None]
    else:
        ids = _split_by_count(len(segments), tokens)
    note = f"they are not the {'gold' if side == 'prediction' else 'prediction'}'s segments"
    if ids is None and lattice is not None:
        splits = token_splits(segments, lattice)
        if len(splits) == 1 and sorted(set(splits[0])) == tokens:
            ids = splits[0]
        else:
            note += f" and the ambiguity lattice allows {'no' if not splits else 'more than one'} split"
    elif ids is None:
        note += " (--ambiguity-lattice may settle it)"
    if ids is None:
        line = a.dep.source.line if a.dep is not None and a.dep.source is not None else None
        raise MismatchError(
            f"sentence {index}: the {side} does not say which of the {len(tokens)} tokens its "
            f"{len(segments)} segments belong to (no lattice file, no multiword-token lines); "
            f"{note}: give the token boundaries with {_SUPPLY[side]}",
            file=path,
            line=line,
            sentence=a.sent_id or None,
        )
    return replace(_with_tokens(a, ids), tokens_stated=True)


def _same_tokens(g: Analysis, p: Analysis, index: int, pred_path: str) -> None:
    """Paired in order, both sides must analyse the same tokens (their ids say which)."""
    g_ids = sorted({lx.token for lx in g.lexemes if lx.token is not None})
    p_ids = sorted({lx.token for lx in p.lexemes if lx.token is not None})
    if g_ids != p_ids:
        line = p.dep.source.line if p.dep is not None and p.dep.source is not None else None
        raise MismatchError(
            f"sentence {index}: the gold has {len(g_ids)} tokens and the prediction {len(p_ids)} "
            f"(token ids {_id_range(g_ids)} and {_id_range(p_ids)}); sentences paired in order must "
            "analyse the same tokens",
            file=pred_path,
            line=line,
            sentence=p.sent_id or g.sent_id or None,
        )


def _id_range(ids: Sequence[int]) -> str:
    return f"{ids[0]}–{ids[-1]}" if ids else "none"


def _with_tokens(a: Analysis, ids: Sequence[int | None]) -> Analysis:
    """``a`` with lexeme ``k`` in token ``ids[k]`` (its tree's lexemes too, matched by their states)."""
    lex = tuple(replace(lx, token=t) for lx, t in zip(a.lexemes, ids, strict=True))
    tree = a.tree
    if tree is not None:
        by_position = {(lx.start, lx.end): new for lx, new in zip(a.lexemes, lex, strict=True)}
        tree = replace(
            tree, lexemes=tuple(by_position[(lx.start, lx.end)] if lx else None for lx in tree.lexemes)
        )
    return replace(a, lexemes=lex, tree=tree)


def _drop_tokens(a: Analysis) -> Analysis:
    """Forget token ids (when only one side has them, lexemes match by segment, tag and order)."""
    return _with_tokens(a, [None] * len(a.lexemes))


def _retoken(a: Analysis, mapping: Sequence[int]) -> Analysis:
    """Renumber token ids: token ``t`` (1-based) becomes ``mapping[t - 1]`` (an alignment block)."""
    return _with_tokens(a, [mapping[lx.token - 1] if lx.token else None for lx in a.lexemes])


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
    path: FileInput, lattice: FileInput | None = None, options: ReadOptions = DEFAULT_READ_OPTIONS
) -> GoldInput:
    """Read the gold side once (docs/lattice.md, "Inputs")."""
    src, name = _open(path)
    if lattice is None and input_kind(path, options.limits) == "conll":
        sentences = tuple(
            iter_tokenize(read_conllu(src, name=name, on_invalid="keep", limits=options.limits))
        )
        stated = any(e.is_range for s in sentences for e in s.tree.extras)
        analyses = tuple(_ud_analysis(s.tree, _ud_token_ids(s.tree), options, stated) for s in sentences)
        return GoldInput(name, None, options, analyses, sentences)
    analyses = tuple(read_side(path, lattice, options))
    return GoldInput(name, _name(lattice), options, analyses, None)


class _Ahead:
    """The lattices of a file by 1-based sentence index, read forwards only (skipped ones dropped);
    the last one asked for is kept, so that reading and scoring may both ask for it."""

    def __init__(self, lattices: Iterator[Lattice]) -> None:
        self.lattices = lattices
        self.index = 0
        self.current: Lattice | None = None

    def at(self, index: int) -> Lattice | None:
        while self.index < index:
            self.current = next(self.lattices, None)
            self.index += 1
            if self.current is None:
                return None
        return self.current if self.index == index else None


class PairStream:
    """The sentence pairs of a gold and a predicted file, read in step: iterate once.

    Aligned by characters or paired in order as docs/lattice.md, "Inputs" says (a :class:`MismatchError`
    when the shorter file ends).  ``ambiguity``, the MA lattices of the gold sentences in gold order,
    is read in step too (:meth:`ambiguity_at`).  ``gold`` may be a :class:`GoldInput` read once for
    several predictions (its settings then win).  After the iteration, ``gold_sentences``,
    ``pred_sentences`` and the unaligned sentences (1-based) are set.  Memory: one sentence pair.
    """

    def __init__(
        self,
        gold: FileInput | GoldInput,
        pred: FileInput,
        *,
        gold_lattice: FileInput | None = None,
        pred_lattice: FileInput | None = None,
        options: ReadOptions = DEFAULT_READ_OPTIONS,
        ambiguity: Iterable[Lattice] | None = None,
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
        self._ambiguity = _Ahead(iter(ambiguity)) if ambiguity is not None else None
        self.gold_sentences = 0
        self.pred_sentences = 0
        self.unaligned_gold: list[int] = []
        self.unaligned_pred: list[int] = []

    def __iter__(self) -> Iterator[SentencePair]:
        return self._by_characters() if self.mode == "characters" else self._by_index()

    def ambiguity_at(self, index: int) -> Lattice | None:
        """The ambiguity lattice of gold sentence ``index`` (1-based; ``None`` past the file's end).
        Read forwards only: call it for the current pair or a later one."""
        return self._ambiguity.at(index) if self._ambiguity is not None else None

    def _by_index(self) -> Iterator[SentencePair]:
        gold = self.gold
        golds = (
            iter(gold.analyses)
            if isinstance(gold, GoldInput)
            else iter_side(gold, self.gold_lattice, self.options)
        )
        preds = iter_side(self.pred, self.pred_lattice, self.options)
        pred_name = _name(self.pred) or ""
        for g in golds:
            p = next(preds, None)
            if p is None:
                self.gold_sentences += 1 + sum(1 for _ in golds)
                self._different_counts(g, self.gold_name)
            self.gold_sentences += 1
            self.pred_sentences += 1
            i = self.gold_sentences
            yield _index_pair(i, g, p, self.ambiguity_at(i), self.gold_name, pred_name)
        extra = next(preds, None)
        if extra is not None:
            self.pred_sentences += 1 + sum(1 for _ in preds)
            self._different_counts(extra, pred_name)

    def _different_counts(self, extra: Analysis, file: str) -> NoReturn:
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
            # aligned by characters, both sides' tokens are the surface tokens (stated by the text)
            if isinstance(gold, GoldInput):
                g_analysis = gold.analyses[step.gold_index]
            else:
                g_analysis = _ud_analysis(g.tree, _ud_token_ids(g.tree), options, True)
            pred = _ud_analysis(p.tree, _ud_token_ids(p.tree), options, True)
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
    options: ReadOptions = DEFAULT_READ_OPTIONS,
    ambiguity: Sequence[Lattice] | None = None,
) -> Pairing:
    """Read and pair a gold and a predicted file (docs/lattice.md, "Inputs"): a :class:`PairStream`,
    collected."""
    if not isinstance(gold, GoldInput):
        gold = read_gold(gold, gold_lattice, options)
    return PairStream(gold, pred, pred_lattice=pred_lattice, options=options, ambiguity=ambiguity).pairing()
