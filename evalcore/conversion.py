"""Trees → function trees (TedEval).

Dependency → function tree (EMNLP 2011 §3.1; docs/tedeval.md, "Function trees (2011 protocol)"),
dependency → multi-function tree (EACL 2012 §3.1; docs/tedeval.md, "Multi-function trees (2012
protocol)") and constituency with function tags → multi-function tree (the same section).  All
return a :class:`~evalcore.trees.SpanTree`: over a fixed word sequence a node *is* its span, which is
all TedEval needs (§4.3, §5.3).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from evalcore.choices import PROTOCOL_2011, PROTOCOL_2012, Protocol
from evalcore.errors import InputFormatError
from evalcore.formats._io import InputSource, iter_lines, source_name
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.trees import DepTree, Span, SpanTree, Token, Tree, split_label, strip_empty, unwrap

__all__ = [
    "HEAD_2011",
    "HEAD_2012",
    "ConversionConfig",
    "LabelMap",
    "Protocol",
    "SchemeLabelMaps",
    "dep_to_span_tree",
    "first_difference",
    "is_projective",
    "projectivize",
    "ptb_to_span_tree",
    "read_label_map",
    "to_span_tree",
    "unescape_ptb",
    "words_of",
]

HEAD_2011 = "*"
HEAD_2012 = "hd"


@dataclass(frozen=True, slots=True)
class LabelMap:
    """``SUB=SBJ`` pairs applied to every label before conversion (docs/tedeval.md, "Per-scheme label maps").

    The pairs are made into a table once, when the map is made (the first pair of a label
    wins), and so is the fingerprint: applying a map costs one look-up per label, whatever
    its size (a 20,000-pair map scanned pair by pair made ``tedeval`` 4.6 times slower)."""

    pairs: tuple[tuple[str, str], ...] = ()
    _table: Mapping[str, str] = field(init=False, repr=False, compare=False)
    _fingerprint: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        table: dict[str, str] = {}
        for old, new in self.pairs:
            table.setdefault(old, new)
        object.__setattr__(self, "_table", table)
        text = "\n".join(f"{a}={b}" for a, b in self.pairs)
        fingerprint = hashlib.sha256(text.encode()).hexdigest()[:8] if self.pairs else "none"
        object.__setattr__(self, "_fingerprint", fingerprint)

    def apply(self, label: str) -> str:
        return self._table.get(label, label)

    def entry(self, label: str) -> tuple[str, str] | None:
        """The ``(OLD, NEW)`` pair that rewrites ``label`` (the first one, as :meth:`apply`), or ``None``."""
        new = self._table.get(label)
        return None if new is None else (label, new)

    def then(self, other: LabelMap) -> LabelMap:
        """This map followed by ``other``: one map whose :meth:`apply` is ``other.apply(self.apply(x))``."""
        if not other.pairs:
            return self
        if not self.pairs:
            return other
        first = self._table
        pairs = [(old, other.apply(new)) for old, new in first.items()]
        pairs += [(old, new) for old, new in other.pairs if old not in first]
        return LabelMap(tuple(pairs))

    def fingerprint(self) -> str:
        return self._fingerprint


def read_label_map(
    source: InputSource, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> LabelMap:
    """Read ``OLD=NEW`` lines (``#`` comments and blank lines ignored).

    ``source`` is a path, or the raw bytes of an uploaded file (then pass ``name``).  The whole
    map is kept, and the file is one block: at most ``limits.block_lines`` pairs and
    ``limits.block_bytes`` bytes, comment and blank lines included (a file of comments costs what
    a block of them costs in every reader).
    """
    fname = source_name(source, name)
    pairs: list[tuple[str, str]] = []
    size = 0
    for lineno, line in iter_lines(source, fname, limits, runs=True):
        size += len(line) + 1
        if size > limits.block_bytes:
            what = f"label map has more than {limits.block_bytes} bytes"
            raise limits.error("block_bytes", what, file=fname, line=lineno)
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if text.count("=") != 1:
            raise InputFormatError("expected one 'OLD=NEW' pair per line", file=fname, line=lineno)
        old, new = (part.strip() for part in text.split("="))
        if not old or not new:
            raise InputFormatError("empty label in 'OLD=NEW'", file=fname, line=lineno)
        if len(pairs) >= limits.block_lines:
            what = f"label map has more than {limits.block_lines} pairs"
            raise limits.error("block_lines", what, file=fname, line=lineno)
        pairs.append((old, new))
    return LabelMap(tuple(pairs))


@dataclass(frozen=True, slots=True)
class SchemeLabelMaps:
    """Per-scheme label maps: scheme name → :class:`LabelMap`, applied to that scheme's gold and
    parses only (``--labels-map SCHEME=FILE``, docs/tedeval.md "Per-scheme label maps").

    A frozen value: ``maps`` are ``(scheme, map)`` pairs, one per scheme, in the order given."""

    maps: tuple[tuple[str, LabelMap], ...] = ()

    def __post_init__(self) -> None:
        names = [name for name, _ in self.maps]
        if len(set(names)) != len(names):
            raise ValueError(f"one label map per scheme, got {names}")

    @classmethod
    def of(cls, maps: Mapping[str, LabelMap]) -> SchemeLabelMaps:
        return cls(tuple(maps.items()))

    @property
    def schemes(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.maps)

    def get(self, scheme: str) -> LabelMap:
        """The scheme's map (an empty map for a scheme without one)."""
        return next((m for name, m in self.maps if name == scheme), LabelMap())

    def fingerprint(self) -> str:
        """``SCHEME=<fingerprint>`` per scheme, comma-separated (empty without maps)."""
        return ",".join(f"{name}={m.fingerprint()}" for name, m in self.maps)


@dataclass(frozen=True, slots=True)
class ConversionConfig:
    """Settings of the conversions; all enter the TedEval signature.

    ``label_map`` applies to every scheme; ``scheme_maps`` to one scheme's gold and parses each,
    before ``label_map`` (:meth:`for_scheme`)."""

    protocol: Protocol = PROTOCOL_2012
    label_map: LabelMap = LabelMap()
    function_separators: str = "-="
    fold_case: bool = False
    # 2012 only; the 2011 protocol always projectivizes (docs/tedeval.md, "Function trees (2011 protocol)")
    projectivize: bool = False
    scheme_maps: SchemeLabelMaps = SchemeLabelMaps()
    category_labels: bool = False  # our extension (docs/tedeval.md "Category labels")

    def for_scheme(self, scheme: str) -> ConversionConfig:
        """The conversion of one scheme's trees: its own map (if any), then the map of every scheme."""
        if not self.scheme_maps.maps:
            return self
        own = self.scheme_maps.get(scheme)
        return replace(self, label_map=own.then(self.label_map), scheme_maps=SchemeLabelMaps())

    def map_signature(self) -> str:
        """The signature's ``map`` value: the map of every scheme's fingerprint, then each scheme's."""
        per_scheme = self.scheme_maps.fingerprint()
        return self.label_map.fingerprint() + ("," + per_scheme if per_scheme else "")


# ---------------------------------------------------------------------------
# projectivity (Nivre & Nilsson 2005 lifting, no label encoding)


def _heads(tree: DepTree) -> list[int]:
    return [0, *(t.head for t in tree.tokens)]


def _dominance(heads: Sequence[int]) -> tuple[list[int], list[int]]:
    """Preorder intervals from v0: ``w`` dominates ``v`` iff ``enter[w] <= enter[v] <= leave[w]``.

    Iterative; words not reachable from v0 (cycles) get ``-1`` and dominate nothing.  The same
    relation as comparing yield sets, in O(n) instead of O(n²) (long chains).
    """
    n = len(heads)
    kids: list[list[int]] = [[] for _ in range(n)]
    for d in range(1, n):
        if 0 <= heads[d] < n:
            kids[heads[d]].append(d)
    enter = [-1] * n
    leave = [-2] * n
    clock = 0
    stack: list[tuple[int, bool]] = [(0, False)]
    while stack:
        w, done = stack.pop()
        if done:
            leave[w] = clock - 1
            continue
        if enter[w] >= 0:
            continue
        enter[w] = clock
        clock += 1
        stack.append((w, True))
        stack.extend((c, False) for c in kids[w])
    return enter, leave


def _is_lifted_arc(heads: Sequence[int], d: int, enter: Sequence[int], leave: Sequence[int]) -> bool:
    """True if the arc into ``d`` is non-projective: a word between ``d`` and its head is not
    dominated by the head.  Arcs from v0 (which dominates every word) are always projective."""
    h = heads[d]
    lo, hi = (h, d) if h < d else (d, h)
    if h == 0 or hi - lo <= 1:
        return False
    first, last = enter[h], leave[h]
    between = enter[lo + 1 : hi]
    return first < 0 or min(between) < first or max(between) > last


def _shortest_non_projective(heads: Sequence[int]) -> int | None:
    """The dependent of the shortest non-projective arc, leftmost on ties (docs/tedeval.md, "Function trees
    (2011 protocol)"), or ``None``.

    Arcs are tried shortest first and the search stops at the first non-projective one, so long
    projective arcs are rarely looked at (a 1,000-word tree needing 997 lifts takes well under a
    second; checking every arc in every round took seconds).
    """
    enter, leave = _dominance(heads)
    order = sorted((abs(h - d), min(h, d), d) for d, h in enumerate(heads) if d and h and abs(h - d) > 1)
    for _, _, d in order:
        if _is_lifted_arc(heads, d, enter, leave):
            return d
    return None


def is_projective(tree: DepTree) -> bool:
    return _shortest_non_projective(_heads(tree)) is None


def projectivize(tree: DepTree) -> tuple[DepTree, int]:
    """Lift non-projective arcs until the tree is projective; return it and the number of lifts.

    The shortest non-projective arc is lifted first, leftmost on ties (docs/tedeval.md, "Function trees (2011
    protocol)"); lifting ``h → d`` makes ``d`` a dependent of ``h``'s head.  Labels are kept.
    """
    heads = _heads(tree)
    lifts = 0
    while True:
        d = _shortest_non_projective(heads)
        if d is None:
            break
        heads[d] = heads[heads[d]]
        lifts += 1
    if not lifts:
        return tree, 0
    tokens = tuple(replace(t, head=heads[t.id]) for t in tree.tokens)
    return replace(tree, tokens=tokens), lifts


# ---------------------------------------------------------------------------
# dependency → function tree


def _yields(tree: DepTree) -> list[frozenset[int]]:
    """``yields[w]`` = 0-based positions dominated by word w (1-based), iteratively."""
    n = len(tree.tokens)
    kids = tree.children
    out: list[frozenset[int]] = [frozenset()] * (n + 1)
    stack: list[tuple[int, bool]] = [(0, False)]
    while stack:
        w, done = stack.pop()
        if done:
            acc = {w - 1} if w else set()
            for c in kids[w]:
                acc |= out[c]
            out[w] = frozenset(acc)
        else:
            stack.append((w, True))
            stack.extend((c, False) for c in kids[w])
    return out


def _label(tok: Token, config: ConversionConfig) -> str:
    label = config.label_map.apply(tok.deprel)
    return label.lower() if config.fold_case else label


def dep_to_span_tree(tree: DepTree, config: ConversionConfig = ConversionConfig()) -> SpanTree:
    """Dependency tree → function tree (2011) or multi-function tree (2012) (docs/tedeval.md, "Function trees
    (2011 protocol)" and "Multi-function trees (2012 protocol)").

    The 2011 protocol projectivizes first (so does 2012 with ``projectivize``).
    """
    if config.protocol == PROTOCOL_2011 or config.projectivize:
        tree, _ = projectivize(tree)
    n = len(tree.tokens)
    head_label = HEAD_2011 if config.protocol == PROTOCOL_2011 else HEAD_2012
    ys = _yields(tree)
    kids = tree.children
    mapping: dict[Span, frozenset[str]] = {}
    for tok in tree.tokens:
        label = _label(tok, config)
        span = ys[tok.id]
        mapping[span] = mapping.get(span, frozenset()) | {label}
        if kids[tok.id]:
            word = frozenset((tok.id - 1,))
            mapping[word] = mapping.get(word, frozenset()) | {head_label}
    root_labels: frozenset[str] = frozenset()
    if config.protocol == PROTOCOL_2012:
        full = frozenset(range(n))
        root_labels = mapping.pop(full, frozenset())
    return SpanTree.build(tree.forms, mapping, config.protocol, tree.sent_id, root_labels)


# ---------------------------------------------------------------------------
# constituency → multi-function tree


def ptb_to_span_tree(tree: Tree, config: ConversionConfig = ConversionConfig()) -> SpanTree:
    """Constituency tree with function tags → multi-function tree (docs/tedeval.md, "Multi-function trees
    (2012 protocol)"; with ``config.category_labels``, our extension of §5.1: docs/tedeval.md, "Category
    labels").

    ``-NONE-`` and emptied ancestors are removed, outer ``""``/ROOT/TOP brackets and FarPaHC ``ID``
    nodes are dropped; each node's labels = its function tags; nodes over one span merge.
    """
    if config.protocol != PROTOCOL_2012:
        raise InputFormatError(
            "the 2011 protocol compares dependency trees only; use --protocol 2012 for constituency input",
            file=tree.source.file if tree.source else None,
            line=tree.source.line if tree.source else None,
        )
    clean = unwrap(strip_empty(unwrap(tree)))
    n = len(clean.words)
    spans = clean.spans
    mapping: dict[Span, frozenset[str]] = {}
    for i in clean.internal():
        raw = clean.nodes[i].label
        parts = split_label(raw, config.function_separators)
        names = parts.functions
        if config.category_labels and not names and parts.category:
            names = (parts.category,)
        funcs = {config.label_map.apply(f) for f in names}
        if config.fold_case:
            funcs = {f.lower() for f in funcs}
        span = spans[i]
        if not span:
            continue
        mapping[span] = mapping.get(span, frozenset()) | funcs
    full = frozenset(range(n))
    root_labels = mapping.pop(full, frozenset())
    words = tuple(unescape_ptb(w) for w in clean.words)
    return SpanTree.build(words, mapping, PROTOCOL_2012, clean.sent_id, root_labels)


def to_span_tree(tree: DepTree | Tree, config: ConversionConfig = ConversionConfig()) -> SpanTree:
    """Dispatch on the input kind."""
    if isinstance(tree, DepTree):
        return dep_to_span_tree(tree, config)
    return ptb_to_span_tree(tree, config)


PTB_ESCAPES = (
    ("-LRB-", "("),
    ("-RRB-", ")"),
    ("-LCB-", "{"),
    ("-RCB-", "}"),
    ("-LSB-", "["),
    ("-RSB-", "]"),
)
PTB_QUOTES = {"``": '"', "''": '"'}


def unescape_ptb(word: str) -> str:
    r"""Read PTB escapes as the characters they stand for (``-LRB-`` → ``(``, also inside a word;
    ``\`\``` and ``''`` → ``"``), so a bracketed parse and a CoNLL-U gold compare equal."""
    if word in PTB_QUOTES:
        return PTB_QUOTES[word]
    if "-" in word:
        for escape, char in PTB_ESCAPES:
            word = word.replace(escape, char)
    return word


def words_of(tree: DepTree | Tree) -> tuple[str, ...]:
    """The word sequence TedEval compares: CoNLL forms, or the words of a bracketed tree with
    traces and metadata removed and PTB escapes read (:func:`unescape_ptb`)."""
    if isinstance(tree, DepTree):
        return tree.forms
    return tuple(unescape_ptb(w) for w in unwrap(strip_empty(unwrap(tree))).words)


def first_difference(words: Sequence[str], ref_words: Sequence[str]) -> tuple[int, str, str]:
    """Where two word sequences first differ: the 0-based position and the word of each there
    (``<end>`` past a sequence's end), as the mismatch messages quote them."""
    k = next(
        (j for j, (a, b) in enumerate(zip(words, ref_words, strict=False)) if a != b),
        min(len(words), len(ref_words)),
    )
    got = words[k] if k < len(words) else "<end>"
    want = ref_words[k] if k < len(ref_words) else "<end>"
    return k, got, want
