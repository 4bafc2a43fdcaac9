"""Datasets the workbench knows: the built-in registry, format detection, and pairing.

No streamlit here (``workbench.cache`` wraps these functions in caches), so
all of it is testable without a running app.

A dataset is a set of files, each with a *role*:

* ``gold`` -- a scheme's gold analysis (``scheme`` names the scheme);
* ``parse`` -- a system analysis, scored against the gold named in
  ``against`` (empty: no gold exists, the parse is only drawn);
* ``lattice`` / ``path`` / ``tokens`` / ``params`` -- inputs for the lattice
  and FREVAL pages (the morphological ambiguity lattice, a predicted or gold
  path, the raw tokens, an evalb parameter file).

Sentences are aligned by position across the files of a dataset (docs/formats.md, "Pairing files:
the same sentences, the same words"); a pairing is ``strict`` (different words are a
:class:`MismatchError`, as in the CLI) unless the file says ``skip-mismatch``: then such sentences
are left out and listed (English UD v1 vs v2, docs/app.md, "Datasets").
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from evalcore.appdir import app_root
from evalcore.choices import Dialect
from evalcore.errors import EvalcoreError, InputFormatError, MismatchError
from evalcore.formats.detect import dialect_of, line_format, suffix_format
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.metrics.attachment import check_same_tokens
from evalcore.trees import DepTree, Tree
from workbench.text import shortened

__all__ = [
    "ASSETS",
    "BUILTINS",
    "AlignedParse",
    "Analysis",
    "DatasetSpec",
    "FileFormat",
    "FileSpec",
    "LoadedDataset",
    "Pairing",
    "Role",
    "SentenceInfo",
    "assemble",
    "builtin",
    "detect_format",
    "first_difference",
    "not_aligned",
    "pair_trees",
    "read_ptb_lines",
    "sentence_infos",
]

ASSETS = app_root() / "assets"
"""The built-in data: ``assets/`` of the checkout or of the wheel's ``evalcore_app`` (evalcore.appdir)."""

FileFormat = Literal["conllu", "ptb", "lattice", "tokens", "prm"]
Role = Literal["gold", "parse", "lattice", "path", "tokens", "params"]
Kind = Literal["dependency", "constituency", "lattice"]

FORMAT_NAMES: dict[str, str] = {
    "conllu": "CoNLL-U / CoNLL-X",
    "ptb": "Penn Treebank brackets",
    "lattice": "SPMRL / yap lattice",
    "tokens": ".tokens (one token per line)",
    "prm": "evalb parameter file",
}


@dataclass(frozen=True, slots=True)
class FileSpec:
    """One file of a dataset.  ``path`` is relative to ``assets/`` for built-ins."""

    name: str
    path: str
    fmt: FileFormat
    role: Role
    scheme: str = ""
    against: str = ""  # parses: the ``name`` of the gold file it is scored against
    note: str = ""
    align: Literal["strict", "skip-mismatch"] = "strict"
    per_line: bool = False  # PTB: evalb's convention, one sentence per line (see read_ptb_lines)
    fallback: bool = False  # a stand-in parse, used only when the dataset has no other parse


@dataclass(frozen=True, slots=True)
class DatasetSpec:
    key: str  # the ``?data=`` value
    title: str
    kind: Kind
    files: tuple[FileSpec, ...]
    description: str = ""
    license: str = ""
    default_pair: tuple[str, str] | None = None  # (gold, system) names first shown on the NED page
    start: str = ""  # the sentence a first visit shows (a short, telling one); "": the first

    def file(self, name: str) -> FileSpec:
        for f in self.files:
            if f.name == name:
                return f
        raise KeyError(name)


BUILTINS: tuple[DatasetSpec, ...] = (
    DatasetSpec(
        key="fr_gsd",
        title="French-GSD test: UD and SUD golds, spaCy parses",
        kind="dependency",
        files=(
            FileSpec("UD gold", "fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz", "conllu", "gold", "UD"),
            FileSpec("SUD gold", "fr_gsd/fr_gsd-sud-test.r2.16.conllu.gz", "conllu", "gold", "SUD"),
            FileSpec(
                "spaCy UD parser",
                "fr_gsd/parses/fr_gsd-test.spacy-ud.conllu.gz",
                "conllu",
                "parse",
                "UD",
                against="UD gold",
                note="spaCy 3.8 trained on French-GSD dev with UD trees (experiments/french_ud_sud.py, "
                "docs/findings.md); it parsed the gold words.",
            ),
            FileSpec(
                "spaCy UD parser, seed 1",
                "fr_gsd/parses/fr_gsd-test.spacy-ud-seed1.conllu.gz",
                "conllu",
                "parse",
                "UD",
                against="UD gold",
                note="The same UD training with another random seed.",
            ),
            FileSpec(
                "spaCy SUD parser",
                "fr_gsd/parses/fr_gsd-test.spacy-sud.conllu.gz",
                "conllu",
                "parse",
                "SUD",
                against="SUD gold",
                note="spaCy 3.8 trained on French-GSD dev with SUD trees; it parsed the gold words.",
            ),
            FileSpec(
                "SUD gold, read as a parse of the UD gold",
                "fr_gsd/fr_gsd-sud-test.r2.16.conllu.gz",
                "conllu",
                "parse",
                "SUD",
                against="UD gold",
                note="Not a parser: the SUD gold scored against the UD gold, to show how two correct "
                "analyses of the same words disagree (shown only when no parse is available).",
                fallback=True,
            ),
        ),
        description="416 sentences of French-GSD r2.16 in Universal Dependencies and in "
        "Surface-Syntactic UD: the same words, two schemes; and parses by spaCy models trained on each.",
        license="CC BY-SA 4.0",
        default_pair=("UD gold", "SUD gold"),
        # 11 words, a copula and an adposition (UD and SUD head them differently), the UD parser's
        # wrong heads around the copula and the SUD parser's wrong label: the tree fits the screen
        start="fr-ud-dev_01489",
    ),
    DatasetSpec(
        key="en_ewt",
        title="English-EWT test: UD v2 gold, spaCy parses, UD v1 gold",
        kind="dependency",
        files=(
            FileSpec(
                "UD v2 gold (r2.16)", "en_ewt/en_ewt-ud-test.r2.16.conllu.gz", "conllu", "gold", "UD v2"
            ),
            FileSpec("UD v1 gold (r1.4)", "en_ewt/en-ud-test.r1.4.conllu.gz", "conllu", "gold", "UD v1"),
            FileSpec(
                "spaCy en_core_web_sm 3.8 (ClearNLP labels)",
                "en_ewt/en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz",
                "conllu",
                "parse",
                "ClearNLP",
                against="UD v2 gold (r2.16)",
                note="spaCy parsed the gold words; its labels follow ClearNLP, not UD, and no ClearNLP gold "
                "exists, so it is scored against the UD v2 gold: label scores mostly measure the scheme gap.",
            ),
            FileSpec(
                "UD v1 gold, read as a parse of the UD v2 gold",
                "en_ewt/en-ud-test.r1.4.conllu.gz",
                "conllu",
                "parse",
                "UD v1",
                against="UD v2 gold (r2.16)",
                note="Not a parser: the UD v1 gold scored against the UD v2 gold. The 7 sentences whose "
                "words changed between the releases are left out of the comparison.",
                align="skip-mismatch",
            ),
        ),
        description="2,077 sentences of the English Web Treebank test set.",
        license="CC BY-SA 4.0",
    ),
    DatasetSpec(
        key="hebrew_yap",
        title="Hebrew: the yap sentence (lattice + dependencies)",
        kind="lattice",
        files=(
            FileSpec(
                "yap dependency parse (morphemes)",
                "hebrew_yap/output.conll",
                "conllu",
                "parse",
                "SPMRL",
                note="yap's predicted morphemes and dependencies; no gold ships with this sentence.",
            ),
            FileSpec("ambiguity lattice", "hebrew_yap/input.lattice", "lattice", "lattice"),
            FileSpec("yap predicted path", "hebrew_yap/output.mapping", "lattice", "path"),
            FileSpec("tokens", "hebrew_yap/input.txt", "tokens", "tokens"),
        ),
        description="One sentence from the yap parser's README: its morphological ambiguity lattice, "
        "yap's chosen path and its dependency parse over morphemes.",
        license="Apache-2.0",
    ),
    DatasetSpec(
        key="evalb",
        title="evalb's sample (constituency)",
        kind="constituency",
        files=(
            FileSpec("evalb sample gold", "evalb/sample/sample.gld", "ptb", "gold", "PTB", per_line=True),
            FileSpec(
                "evalb sample test",
                "evalb/sample/sample.tst",
                "ptb",
                "parse",
                "PTB",
                against="evalb sample gold",
                note="evalb reads one sentence per line: an empty line is a sentence without a parse, "
                "and line 8 holds four bracketings without a common root (drawn under an empty root).",
                per_line=True,
            ),
            FileSpec("sample.prm", "evalb/sample/sample.prm", "prm", "params"),
            FileSpec("COLLINS.prm", "evalb/COLLINS.prm", "prm", "params"),
            FileSpec("new.prm", "evalb/new.prm", "prm", "params"),
        ),
        description="The 24 toy sentences evalb ships to test itself, with its parameter files.",
        license="public domain",
    ),
    DatasetSpec(
        key="farpahc",
        title="Faroese (FarPaHC): gold vs the Berkeley parser (constituency)",
        kind="constituency",
        files=(
            FileSpec(
                "FarPaHC gold (split 0 test)",
                "farpahc/far_split0testing.oneline.psd.gz",
                "ptb",
                "gold",
                "FarPaHC",
            ),
            FileSpec(
                "Berkeley parser",
                "farpahc/far_split0machineparsed.psd.gz",
                "ptb",
                "parse",
                "FarPaHC",
                against="FarPaHC gold (split 0 test)",
                note="The Berkeley parser's output for split 0 of a parsing experiment on the treebank; "
                "20 of the 372 sentences have other words than the gold (evalb's error sentences).",
            ),
            FileSpec(
                "sample.prm.as_used_for_far0eval", "farpahc/sample.prm.as_used_for_far0eval", "prm", "params"
            ),
        ),
        description="372 sentences of the Faroese Parsed Historical Corpus (hand-built trees with function "
        "tags written NP*SBJ) and the Berkeley parser's trees for them, with the evalb parameter file "
        "used for that evaluation.",
        license="LGPL-3.0",
    ),
)


def builtin(key: str) -> DatasetSpec:
    for spec in BUILTINS:
        if spec.key == key:
            return spec
    raise KeyError(key)


# ---------------------------------------------------------------------------
# format detection


def _head_text(data: bytes, limit: int = 65536) -> str:
    raw = data
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
                raw = fh.read(limit)
        except (OSError, EOFError):
            return ""
    return raw[:limit].decode("utf-8", errors="replace")


def detect_format(name: str, data: bytes) -> FileFormat:
    """The format of an uploaded file: by its suffix (:func:`evalcore.formats.detect.suffix_format`,
    the one table of suffixes), else by its first line.

    Raises :class:`InputFormatError` (naming the file) when neither tells.
    """
    by_suffix = suffix_format(name)
    if by_suffix is not None and by_suffix != "segmentation":  # the app reads no segmentation file
        return by_suffix
    for lineno, line in enumerate(_head_text(data).splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        by_line = line_format(line)
        if by_line is not None and by_line != "segmentation":
            return by_line
        cols = line.split("\t")
        raise InputFormatError(
            f"cannot tell the format from this line ({len(cols)} tab-separated columns); "
            "choose the format by hand",
            file=name,
            line=lineno,
        )
    raise InputFormatError("the file is empty", file=name)


def read_ptb_lines(data: bytes, name: str, limits: Limits = DEFAULT_LIMITS) -> tuple[Tree | None, ...]:
    """evalb's reading of a bracketed file: one sentence per line.

    An empty line is a sentence without a tree (``None``); several bracketings
    on one line are one sentence, joined under a root with the empty label
    (as :func:`evalcore.formats.ptb.read_ptb` does for an outer bracket).
    Errors name the file and the line.
    """
    from evalcore.formats._io import iter_lines
    from evalcore.formats.ptb import parse_ptb
    from evalcore.trees import Node

    out: list[Tree | None] = []
    for lineno, line in iter_lines(data, name, limits):
        if not line.strip():
            out.append(None)
            continue
        try:
            trees = parse_ptb(line, name=name, limits=limits)
        except InputFormatError as exc:
            raise InputFormatError(exc.message, file=name, line=lineno) from None
        if len(trees) == 1:
            t = trees[0]
            out.append(Tree(t.nodes, t.words, str(len(out) + 1), t.source))
            continue
        nodes: list[Node] = [Node("", ())]
        words: list[str] = []
        tops: list[int] = []
        for t in trees:
            offset = len(nodes)
            tops.append(offset)
            for n in t.nodes:
                term = None if n.terminal is None else n.terminal + len(words)
                nodes.append(Node(n.label, tuple(c + offset for c in n.children), term))
            words.extend(t.words)
        nodes[0] = Node("", tuple(tops))
        out.append(Tree(tuple(nodes), tuple(words), str(len(out) + 1)))
    return tuple(out)


# ---------------------------------------------------------------------------
# loaded values


@dataclass(frozen=True, slots=True)
class SentenceInfo:
    """What the sentence picker shows and the URL carries."""

    index: int  # 0-based position in the files
    sent_id: str  # the file's sent_id, or the 1-based position as text
    text: str
    length: int

    def title(self, width: int = 80) -> str:
        return f"{self.sent_id} · {self.length} w · {shortened(self.text, width)}"


@dataclass(frozen=True)
class Analysis:
    """One file read: its spec, its content digest (cache key), its trees and its bytes (what the
    CoNLL 2018 scorer reads, so that its messages name the file's own lines)."""

    spec: FileSpec
    digest: str
    trees: tuple[DepTree, ...] | tuple[Tree | None, ...]
    data: bytes = field(default=b"", repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def dep_trees(self) -> tuple[DepTree, ...]:
        assert self.spec.fmt == "conllu"
        return self.trees  # type: ignore[return-value]

    @property
    def dialect(self) -> Dialect:
        """CoNLL-U or CoNLL-X, as the command line decides it (which decides ``labels="auto"``)."""
        first = self.dep_trees[0] if self.spec.fmt == "conllu" and self.trees else None
        return dialect_of(self.spec.path or self.spec.name, first)

    @property
    def ptb_trees(self) -> tuple[Tree | None, ...]:
        """Constituency trees; ``None`` for an empty line of a per-line (evalb) file."""
        assert self.spec.fmt == "ptb"
        return self.trees  # type: ignore[return-value]


def sentence_infos(trees: Sequence[DepTree] | Sequence[Tree | None]) -> tuple[SentenceInfo, ...]:
    """Picker entries; ids unique (a repeated or missing sent_id falls back to the position)."""
    out: list[SentenceInfo] = []
    seen: set[str] = set()
    for i, t in enumerate(trees):
        if isinstance(t, DepTree):
            sid, text, n = t.sent_id, t.text or " ".join(t.forms), len(t.tokens)
        elif t is None:
            sid, text, n = "", "(empty line)", 0
        else:
            sid, text, n = "", " ".join(t.words), len(t.words)
        if not sid or sid in seen:
            sid = str(i + 1)
        seen.add(sid)
        out.append(SentenceInfo(i, sid, text, n))
    return tuple(out)


@dataclass(frozen=True)
class Pairing:
    """Gold and system sentences paired by position; ``left_out`` are ``sent_id (reason)`` strings."""

    pairs: tuple[tuple[int, DepTree, DepTree], ...]
    left_out: tuple[str, ...]


def pair_trees(gold: Iterable[DepTree], system: Iterable[DepTree], *, skip_mismatch: bool = False) -> Pairing:
    """Pair sentences by position.

    Different sentence counts are always a :class:`MismatchError`.  Different
    words in a sentence are one too, unless ``skip_mismatch``: then the
    sentence is left out and listed.
    """
    gold_t, sys_t = tuple(gold), tuple(system)
    if len(gold_t) != len(sys_t):
        where = sys_t[-1].source if sys_t else None
        raise MismatchError(
            f"the system file has {len(sys_t)} sentences but the gold has {len(gold_t)}",
            file=where.file if where else None,
        )
    pairs: list[tuple[int, DepTree, DepTree]] = []
    left_out: list[str] = []
    for i, (g, s) in enumerate(zip(gold_t, sys_t, strict=True)):
        try:
            check_same_tokens(g, s)
        except MismatchError as exc:
            if not skip_mismatch:
                raise
            left_out.append(f"{g.sent_id or i + 1}: {exc.message}")
            continue
        pairs.append((i, g, s))
    return Pairing(tuple(pairs), tuple(left_out))


def first_difference(gold: Sequence[DepTree], system: Sequence[DepTree]) -> str | None:
    """Where ``system`` stops pairing with ``gold`` sentence by sentence and word by word (the
    message of :func:`pair_trees`), or ``None`` when every sentence has the gold's words."""
    try:
        pair_trees(gold, system)
    except MismatchError as exc:
        return str(exc)
    return None


@dataclass(frozen=True)
class AlignedParse:
    """A parse of the raw text: its words or sentences differ from its gold's, but its characters
    are the gold's, so it is scored by the CoNLL 2018 character alignment (docs/app.md, "Parses of
    the raw text").  ``difference``: where its words first differ from the gold's."""

    analysis: Analysis
    gold: Analysis
    difference: str

    @property
    def name(self) -> str:
        return self.analysis.name


@dataclass(frozen=True)
class LoadedDataset:
    """A dataset's files read into evalcore values, with the problems met on the way.

    ``analyses`` holds the gold and parse files (dependency or constituency)
    that agree with the reference on the number of sentences; ``extras`` the
    other files (lattices, tokens, parameter files) read as they are;
    ``errors`` one ``FILE:LINE: message`` line per file that could not be used; ``aligned`` the
    parses of the raw text (their words differ from their gold's, their characters do not), which
    are scored by character alignment.  Such a parse with as many sentences as the gold is in
    ``analyses`` too (drawn beside the gold, not compared word by word, as before); one with
    other sentences is only in ``aligned``.
    """

    spec: DatasetSpec
    analyses: tuple[Analysis, ...]
    extras: tuple[Analysis, ...]
    errors: tuple[str, ...]
    sentences: tuple[SentenceInfo, ...]
    aligned: tuple[AlignedParse, ...] = ()

    def _all(self) -> tuple[Analysis, ...]:
        return (*self.analyses, *(p.analysis for p in self.aligned), *self.extras)

    def analysis(self, name: str) -> Analysis:
        for a in self._all():
            if a.name == name:
                return a
        raise KeyError(name)

    def has(self, name: str) -> bool:
        """``name`` is loaded: read, and usable (a file refused for its sentences or text is not)."""
        return any(a.name == name for a in self._all())

    def aligned_parse(self, name: str) -> AlignedParse | None:
        return next((p for p in self.aligned if p.name == name), None)

    def _of(self, fmt: FileFormat, role: Role | None) -> tuple[Analysis, ...]:
        return tuple(a for a in self.analyses if a.spec.fmt == fmt and role in (None, a.spec.role))

    def dep(self, role: Role | None = None) -> tuple[Analysis, ...]:
        return self._of("conllu", role)

    def ptb(self, role: Role | None = None) -> tuple[Analysis, ...]:
        return self._of("ptb", role)

    def showcase_pair(self) -> tuple[Analysis, Analysis] | None:
        """The pair the NED page opens with: the spec's ``default_pair`` if loaded, else the first pair."""
        if self.spec.default_pair is not None:
            gold, system = self.spec.default_pair
            if self.has(gold) and self.has(system):
                return self.analysis(gold), self.analysis(system)
        return self.default_pair()

    def gold_of(self, parse: Analysis) -> Analysis | None:
        """The gold a parse is scored against, if it is loaded."""
        if parse.spec.against and self.has(parse.spec.against):
            return self.analysis(parse.spec.against)
        return None

    def sentence_labels(self) -> tuple[frozenset[str], ...]:
        """Per sentence, the relation labels of its gold and parse trees (dependency relations;
        the node labels of bracketed trees)."""
        out: list[set[str]] = [set() for _ in self.sentences]
        for a in self.analyses:
            for i, tree in enumerate(a.trees[: len(out)]):
                if isinstance(tree, DepTree):
                    out[i].update(t.deprel for t in tree.tokens)
                elif isinstance(tree, Tree):
                    out[i].update(tree.nodes[k].label for k in tree.internal() if tree.nodes[k].label)
        return tuple(frozenset(x) for x in out)

    def default_pair(self) -> tuple[Analysis, Analysis] | None:
        """The first (gold, parse) dependency pair of the same words, or two golds if no parse has
        a gold."""
        for p in self.dep("parse"):
            g = self.gold_of(p)
            if g is not None and self.aligned_parse(p.name) is None:  # paired word by word
                return g, p
        golds = self.dep("gold")
        if len(golds) >= 2:
            return golds[0], golds[1]
        return None


Align = Callable[[Analysis, Analysis], str | None]
"""``align(gold, parse)``: ``None`` when the parse has the gold's words sentence by sentence, else
where they first differ (the parse is then scored by character alignment); raises
:class:`EvalcoreError` when not even the characters are the gold's (``workbench.cache.fit``)."""


def not_aligned(parse: str, gold: str, exc: EvalcoreError) -> str:
    """Why the parse ``parse``, whose words differ from ``gold``'s, cannot be aligned with it by
    characters (``exc``: the scorer's error), and what would make it usable."""
    if isinstance(exc, MismatchError):
        return (
            f"{exc}: the characters differ from {gold}'s, so {parse} is not a parse of this gold's "
            "text. A parse of the same text (the same characters, tokenized and split into sentences "
            "in any way) is aligned by characters as in CoNLL 2018; upload the gold of this text, or "
            "choose it under 'Score parses against'"
        )
    return f"{exc} ({parse} cannot be aligned with {gold} by characters)"


def assemble(
    spec: DatasetSpec,
    read: Sequence[Analysis],
    errors: Sequence[str] = (),
    align: Align | None = None,
) -> LoadedDataset:
    """Put read files together; a tree file whose sentence count differs from the reference is an error.

    The reference is the first gold file (else the first tree file).  A
    ``fallback`` parse is dropped when any other parse was read.  With ``align``, a CoNLL-U parse
    whose words differ from its gold's is kept as an :class:`AlignedParse` when its characters are
    the gold's (a parse of the raw text); when they are not, it is refused with the reason if its
    sentences are not the gold's either, and kept as before (drawn, not compared) if they are.
    """
    trees = [a for a in read if a.spec.fmt in ("conllu", "ptb") and a.spec.role in ("gold", "parse")]
    if any(a.spec.role == "parse" and not a.spec.fallback for a in trees):
        trees = [a for a in trees if not a.spec.fallback]
    extras = tuple(a for a in read if a.spec.role not in ("gold", "parse"))
    errs = list(errors)
    reference = next((a for a in trees if a.spec.role == "gold"), trees[0] if trees else None)
    kept: list[Analysis] = []
    aligned: list[AlignedParse] = []
    for a in trees:
        gold = _gold_for(a, trees, reference) if align is not None else None
        if align is not None and gold is not None:
            try:
                difference = align(gold, a)
            except EvalcoreError as exc:
                if len(a.trees) != len(gold.trees):
                    errs.append(f"{not_aligned(a.name, gold.name, exc)} (file not used)")
                    continue
                # the gold's sentences in other words and characters (e.g. yap's morphemes): drawn
                # beside the gold, not compared; the Lattice page scores it
                difference = None
            if difference is not None:
                aligned.append(AlignedParse(a, gold, difference))
                if len(a.trees) != len(gold.trees):
                    continue  # its sentences are not the gold's: nothing to pair by position
        if reference is not None and len(a.trees) != len(reference.trees):
            errs.append(
                f"{a.name}: {len(a.trees)} sentences, but {reference.name} has {len(reference.trees)}; "
                "files of one dataset must describe the same sentences (file not used)"
            )
            continue
        kept.append(a)
    infos = sentence_infos(reference.trees) if reference is not None else ()
    return LoadedDataset(spec, tuple(kept), extras, tuple(errs), infos, tuple(aligned))


def _gold_for(a: Analysis, trees: Sequence[Analysis], reference: Analysis | None) -> Analysis | None:
    """The CoNLL-U gold a CoNLL-U parse is checked against (its ``against``, else the reference),
    or ``None`` when it is not such a parse (a gold, a stand-in, a pairing that skips mismatches)."""
    if a.spec.role != "parse" or a.spec.fmt != "conllu" or a.spec.fallback or a.spec.align != "strict":
        return None
    named = next((g for g in trees if g.name == a.spec.against and g.spec.role == "gold"), None)
    gold = named if named is not None else reference
    if gold is None or gold.spec.role != "gold" or gold.spec.fmt != "conllu":
        return None
    return gold
