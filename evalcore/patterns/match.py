"""Matching requests on dependency trees, and a word's construction under a pattern file.

docs/patterns.md, "Matching" (injective bindings; a ``without`` block rejects a binding it can
extend), "Pattern files and constructions" (tier 1: what the word is; tier 2: what it governs) and
"How the matcher searches" (candidates filtered by node constraints, edges walked from bound nodes
through heads and children, one index per tree shared by all requests).  Every search is bounded:
it may try at most ``limits.pattern_steps`` candidate words in one sentence (docs/robustness.md,
"Pattern searches"), past which it raises :class:`~evalcore.errors.PatternLimitError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from evalcore.errors import PatternLimitError
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.patterns.syntax import (
    FIELDS,
    Block,
    Constraint,
    EdgeClause,
    LabelTest,
    PatternFile,
    Request,
    parse_request,
)
from evalcore.trees import DepTree

__all__ = [
    "Binding",
    "CompiledFile",
    "Matcher",
    "TreeIndex",
    "Where",
    "compile_file",
    "compile_request",
    "construction_of",
    "constructions",
    "count",
    "found",
    "index_tree",
    "matches",
    "search_steps",
    "where",
]

_Rel = tuple[str, str, str, str, str]  # whole relation, without @, universal part, subtype, @ part


@dataclass(frozen=True, slots=True)
class TreeIndex:
    """What every request reads of one tree, computed once (docs/patterns.md, "How the matcher
    searches"): heads, relations cut in their parts, children, columns, parsed FEATS, words by UPOS.
    Lists are indexed by the 1-based word (index 0 is unused)."""

    tree: DepTree
    n: int
    heads: tuple[int, ...]  # 0: the root, or a head out of the sentence (no arc)
    rels: tuple[_Rel, ...]
    children: tuple[tuple[int, ...], ...]
    columns: tuple[tuple[str | None, ...], ...]  # one per FIELDS name; None: '_' (absent), the form excepted
    feats: tuple[Mapping[str, str], ...]
    by_upos: Mapping[str, tuple[int, ...]]


def _rel(deprel: str) -> _Rel:
    core, _, deep = deprel.partition("@")
    univ, _, sub = core.partition(":")
    return (deprel, core, univ, sub, deep)


def _feats(feats: str) -> Mapping[str, str]:
    if feats in ("", "_"):
        return {}
    out: dict[str, str] = {}
    for item in feats.split("|"):
        name, eq, value = item.partition("=")
        if eq and name:
            out[name] = value
    return out


def index_tree(tree: DepTree) -> TreeIndex:
    """The index of ``tree`` that :func:`matches` builds (build it once to run many requests)."""
    toks = tree.tokens
    n = len(toks)
    heads = (0, *(t.head if 0 <= t.head <= n and t.head != t.id else 0 for t in toks))
    rels = (_rel(""), *(_rel(t.deprel) for t in toks))
    columns = tuple(
        (None, *(v if (v != "_" or field == "form") else None for v in (getattr(t, field) for t in toks)))
        for field in FIELDS
    )
    by_upos: dict[str, list[int]] = {}
    for t in toks:
        by_upos.setdefault(t.upos, []).append(t.id)
    return TreeIndex(
        tree,
        n,
        heads,
        rels,
        tree.children,
        columns,
        ({}, *(_feats(t.feats) for t in toks)),
        {k: tuple(v) for k, v in by_upos.items()},
    )


# ---------------------------------------------------------------------------
# compiling a request


_NodeTest = Callable[[TreeIndex, int], bool]
_LabelFn = Callable[[_Rel], bool]


def _value_test(c: Constraint) -> Callable[[str | None], bool]:
    values = frozenset(c.values)
    if c.op == "=":
        return lambda v: v is not None and v in values
    if c.op == "<>":
        return lambda v: v is None or v not in values
    if c.op == "re":
        rx = re.compile(c.values[0])
        return lambda v: v is not None and rx.fullmatch(v) is not None
    if c.op == "present":
        return lambda v: v is not None
    return lambda v: v is None


def _constraint_test(c: Constraint) -> _NodeTest:
    test = _value_test(c)
    if c.feature in FIELDS:
        col = FIELDS.index(c.feature)
        return lambda ix, w: test(ix.columns[col][w])
    name = c.feature
    return lambda ix, w: test(ix.feats[w].get(name))


def _node_test(constraints: Sequence[Constraint]) -> _NodeTest | None:
    tests = tuple(_constraint_test(c) for c in constraints)
    if not tests:
        return None
    if len(tests) == 1:
        return tests[0]
    return lambda ix, w: all(t(ix, w) for t in tests)


def _label_one(t: LabelTest) -> _LabelFn:
    v = t.value
    if t.kind == "rel":
        return (lambda r: r[0] == v) if "@" in v else (lambda r: r[1] == v)
    slot = {"1": 2, "2": 3, "deep": 4}[t.kind]
    return lambda r: r[slot] == v


def _label_fn(edge: EdgeClause) -> _LabelFn | None:
    if not edge.labels:
        return None
    tests = tuple(_label_one(t) for t in edge.labels)
    if edge.negated:
        return lambda r: not any(t(r) for t in tests)
    return lambda r: any(t(r) for t in tests)


@dataclass(frozen=True, slots=True)
class _Check:
    """An edge (``kind`` "edge": an arc a → b whose relation passes ``label``) or an order (a before
    b; ``kind`` "next": immediately) between two bound slots."""

    kind: Literal["edge", "before", "next"]
    a: int
    b: int
    label: _LabelFn | None = None

    def holds(self, ix: TreeIndex, words: list[int]) -> bool:
        x, y = words[self.a], words[self.b]
        if self.kind == "edge":
            return ix.heads[y] == x and (self.label is None or self.label(ix.rels[y]))
        return x < y if self.kind == "before" else y == x + 1


@dataclass(frozen=True, slots=True)
class _Step:
    """Bind the next slot: from all words (``scan``, those of ``upos`` when given), a bound slot's
    children (``child``) or its head (``head``), through an arc whose relation passes ``label``."""

    how: Literal["scan", "child", "head"]
    via: int
    label: _LabelFn | None
    upos: tuple[str, ...] | None
    node: _NodeTest | None
    checks: tuple[_Check, ...]


@dataclass(frozen=True, slots=True)
class _Plan:
    """The search for one set of blocks, slots ``0..start-1`` already bound."""

    start: int
    first: tuple[_Check, ...]  # checks among the bound slots
    first_nodes: tuple[tuple[int, _NodeTest], ...]  # constraints of these blocks on bound slots
    steps: tuple[_Step, ...]
    names: tuple[str, ...]  # slot -> node name


def _upos_values(constraints: Sequence[Constraint]) -> tuple[str, ...] | None:
    for c in constraints:
        if c.feature == "upos" and c.op == "=":
            return c.values
    return None


_Pick = tuple[str, Literal["scan", "child", "head"], int, "_LabelFn | None"]


def _pick(
    edges: Sequence[EdgeClause],
    slot: Mapping[str, int],
    left: Sequence[str],
    cons: Mapping[str, Sequence[Constraint]],
) -> _Pick:
    """The next node to bind: the head of a bound node (one candidate), else a child of one, else
    the most constrained node (a ``upos=`` constraint first), scanned."""
    for e in edges:
        if e.target in slot and e.source in left and e.source != e.target:
            return (e.source, "head", slot[e.target], _label_fn(e))
    for e in edges:
        if e.source in slot and e.target in left and e.source != e.target:
            return (e.target, "child", slot[e.source], _label_fn(e))
    name = max(left, key=lambda n: (_upos_values(cons.get(n, ())) is not None, len(cons.get(n, ()))))
    return (name, "scan", -1, None)


def _plan(blocks: Sequence[Block], bound: Sequence[str]) -> _Plan:
    """Order the new nodes of ``blocks``: walk an edge from a bound node when one leads to them
    (its head first: one candidate), else scan the most constrained node."""
    cons: dict[str, list[Constraint]] = {}
    order: dict[str, None] = {}
    for b in blocks:
        for name in b.names:
            order.setdefault(name)
        for nc in b.nodes:
            cons.setdefault(nc.name, []).extend(nc.constraints)
    edges = [e for b in blocks for e in b.edges]
    orders = [o for b in blocks for o in b.orders]
    names = list(bound)
    slot = {n: k for k, n in enumerate(names)}
    left = [n for n in order if n not in slot]
    done: set[int] = set()

    def checks_now() -> tuple[_Check, ...]:
        out: list[_Check] = []
        for e in edges:
            if e.source in slot and e.target in slot and id(e) not in done:
                done.add(id(e))
                out.append(_Check("edge", slot[e.source], slot[e.target], _label_fn(e)))
        for o in orders:
            if o.left in slot and o.right in slot and id(o) not in done:
                done.add(id(o))
                out.append(_Check("next" if o.immediate else "before", slot[o.left], slot[o.right]))
        return tuple(out)

    first = checks_now()
    first_nodes = tuple((slot[n], t) for n in bound if (t := _node_test(cons.get(n, ()))) is not None)
    steps: list[_Step] = []
    while left:
        name, how, via, label = _pick(edges, slot, left, cons)
        left.remove(name)
        slot[name] = len(names)
        names.append(name)
        node_cons = cons.get(name, ())
        upos = _upos_values(node_cons) if how == "scan" else None
        steps.append(_Step(how, via, label, upos, _node_test(node_cons), checks_now()))
    return _Plan(len(bound), first, first_nodes, tuple(steps), tuple(names))


@dataclass(frozen=True, slots=True)
class Matcher:
    """A request made ready to search (:func:`compile_request`): its plan, then one plan per
    ``without`` block over the pattern's slots."""

    request: Request
    plan: _Plan
    withouts: tuple[_Plan, ...]
    names: tuple[str, ...]  # the request's node names (a binding's order)
    slots: tuple[int, ...]  # the slot of each of ``names``


def compile_request(request: Request, bound: Sequence[str] = ()) -> Matcher:
    """``request`` ready to match many trees; ``bound``: names whose words the caller gives."""
    plan = _plan(request.patterns, bound)
    withouts = tuple(_plan((w,), plan.names) for w in request.withouts)
    names = request.names
    slot = {n: k for k, n in enumerate(plan.names)}
    return Matcher(request, plan, withouts, names, tuple(slot[n] for n in names))


# ---------------------------------------------------------------------------
# searching


def _candidates(step: _Step, ix: TreeIndex, words: list[int]) -> Iterable[int]:
    if step.how == "head":
        h = ix.heads[words[step.via]]
        return (h,) if h and (step.label is None or step.label(ix.rels[words[step.via]])) else ()
    if step.how == "child":
        kids = ix.children[words[step.via]]
        if step.label is None:
            return kids
        label, rels = step.label, ix.rels
        return [c for c in kids if label(rels[c])]
    if step.upos is None:
        return range(1, ix.n + 1)
    if len(step.upos) == 1:
        return ix.by_upos.get(step.upos[0], ())
    return sorted(w for u in set(step.upos) for w in ix.by_upos.get(u, ()))


class _Exhausted(Exception):
    """A search tried all the candidates its :class:`_Budget` allowed (made a
    :class:`~evalcore.errors.PatternLimitError` by :func:`_search`, which knows the request and the tree)."""


class _Budget:
    """The candidate words one search may still try (docs/robustness.md, "Pattern searches"): made by
    each search for itself from ``limits.pattern_steps``, spent by :func:`_extend`, dropped with it."""

    __slots__ = ("left", "limits")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.left = limits.pattern_steps

    @property
    def spent(self) -> int:
        return self.limits.pattern_steps - self.left


def _extend(plan: _Plan, ix: TreeIndex, words: list[int], k: int, budget: _Budget) -> Iterator[None]:
    """Every way to bind the slots of ``plan.steps[k:]`` (each yield: ``words`` filled in).  Every
    candidate word drawn is one step of ``budget``, whether it is then bound or rejected; the step
    past the budget raises :class:`_Exhausted`."""
    if k == len(plan.steps):
        yield None
        return
    step = plan.steps[k]
    at = plan.start + k
    last = k + 1 == len(plan.steps)  # the last slot: a binding is complete (no deeper search)
    node, checks = step.node, step.checks
    for w in _candidates(step, ix, words):
        if not budget.left:
            raise _Exhausted
        budget.left -= 1
        if w in words[:at] or (node is not None and not node(ix, w)):
            continue
        words[at] = w
        if all(c.holds(ix, words) for c in checks):
            if last:
                yield None
            else:
                yield from _extend(plan, ix, words, k + 1, budget)


def _start(plan: _Plan, ix: TreeIndex, words: list[int]) -> bool:
    return all(t(ix, words[s]) for s, t in plan.first_nodes) and all(c.holds(ix, words) for c in plan.first)


def _rejected(m: Matcher, ix: TreeIndex, words: list[int], budget: _Budget) -> bool:
    """Whether a ``without`` block extends the binding in ``words`` (docs/patterns.md, "Matching");
    its candidates are spent from the search's ``budget``."""
    for w in m.withouts:
        ext = words + [0] * len(w.steps)
        if _start(w, ix, ext) and next(_extend(w, ix, ext, 0, budget), 1) is None:
            return True
    return False


def _too_many(m: Matcher, ix: TreeIndex, limits: Limits) -> PatternLimitError:
    """The error of a search of ``m`` that passed ``limits.pattern_steps`` in ``ix``'s sentence: the
    request's file and line, the sentence, the limit's flag."""
    sentence = ix.tree.label[:60]
    error = limits.error(
        "pattern_steps",
        f"the request's search in sentence {sentence} tried more than {limits.pattern_steps} candidate words",
        file=m.request.file,
        line=m.request.line,
        sentence=sentence,
        kind=PatternLimitError,
    )
    assert isinstance(error, PatternLimitError)
    return error


def _search(m: Matcher, ix: TreeIndex, given: Sequence[int], budget: _Budget) -> Iterator[list[int]]:
    """Every binding of ``m`` in ``ix`` that extends ``given`` (``words``, refilled in place), within
    ``budget`` (made by the caller, one per search): the step past it raises
    :class:`~evalcore.errors.PatternLimitError`."""
    words = [*given, *([0] * len(m.plan.steps))]
    if not _start(m.plan, ix, words):
        return
    try:
        for _ in _extend(m.plan, ix, words, 0, budget):
            if not m.withouts or not _rejected(m, ix, words, budget):
                yield words
    except _Exhausted:
        raise _too_many(m, ix, budget.limits) from None


@dataclass(frozen=True, slots=True)
class Binding:
    """One match: each node name of the request's pattern blocks and its 1-based word."""

    names: tuple[str, ...]
    words: tuple[int, ...]

    def __getitem__(self, name: str) -> int:
        return self.words[self.names.index(name)]

    def items(self) -> tuple[tuple[str, int], ...]:
        return tuple(zip(self.names, self.words, strict=True))


def _matcher(request: Request | Matcher) -> Matcher:
    return request if isinstance(request, Matcher) else compile_request(request)


def _index(tree: DepTree | TreeIndex) -> TreeIndex:
    return tree if isinstance(tree, TreeIndex) else index_tree(tree)


def matches(
    request: Request | Matcher, tree: DepTree | TreeIndex, *, limits: Limits = DEFAULT_LIMITS
) -> Iterator[Binding]:
    """Every binding of ``request`` in ``tree``, ordered by the words of its names (the names in
    order of first mention): docs/patterns.md, "Matching".  The search tries at most
    ``limits.pattern_steps`` candidate words (else :class:`~evalcore.errors.PatternLimitError`)."""
    m = _matcher(request)
    ix = _index(tree)
    found = sorted(tuple(words[s] for s in m.slots) for words in _search(m, ix, (), _Budget(limits)))
    return (Binding(m.names, ws) for ws in found)


def found(request: Request | Matcher, tree: DepTree | TreeIndex, *, limits: Limits = DEFAULT_LIMITS) -> bool:
    """Whether ``request`` matches ``tree`` at all (the search stops at the first binding; it tries at
    most ``limits.pattern_steps`` candidate words, else :class:`~evalcore.errors.PatternLimitError`)."""
    return next(_search(_matcher(request), _index(tree), (), _Budget(limits)), None) is not None


def count(
    request: Request | Matcher, trees: Iterable[DepTree | TreeIndex], *, limits: Limits = DEFAULT_LIMITS
) -> int:
    """The number of bindings of ``request`` over ``trees`` (each tree's search tries at most
    ``limits.pattern_steps`` candidate words, else :class:`~evalcore.errors.PatternLimitError`)."""
    m = _matcher(request)
    return sum(sum(1 for _ in _search(m, _index(t), (), _Budget(limits))) for t in trees)


def search_steps(
    request: Request | Matcher, tree: DepTree | TreeIndex, *, limits: Limits = DEFAULT_LIMITS
) -> int:
    """The candidate words the whole search of ``request`` in ``tree`` tries — every binding, as
    :func:`matches` and :func:`count` search, ``without`` blocks included: what
    ``--max-pattern-steps`` bounds (docs/robustness.md, "Pattern searches"), itself bounded by it."""
    budget = _Budget(limits)
    for _ in _search(_matcher(request), _index(tree), (), budget):
        pass
    return budget.spent


# ---------------------------------------------------------------------------
# constructions


@dataclass(frozen=True, slots=True)
class _Entry:
    name: str
    matcher: Matcher
    x: int  # the slot of X
    h: int  # the slot of H when the entry takes tier 2 (an edge H -> X), else -1


@dataclass(frozen=True, slots=True)
class CompiledFile:
    """A pattern file made ready to classify many trees (:func:`compile_file`), under the limits of
    the command that read it (each entry's search in a tree tries at most ``limits.pattern_steps``
    candidate words)."""

    patterns: PatternFile
    entries: tuple[_Entry, ...]
    limits: Limits = field(default=DEFAULT_LIMITS, compare=False, repr=False)


def _takes(request: Request) -> bool:
    """Whether the request has an edge ``H -[…]-> X`` in a pattern block (then tier 2 applies)."""
    return any(e.source == "H" and e.target == "X" for b in request.patterns for e in b.edges)


def compile_file(pf: PatternFile, limits: Limits = DEFAULT_LIMITS) -> CompiledFile:
    """``pf`` ready for :func:`constructions` on many trees, each search bounded by ``limits``."""
    entries = []
    for c in pf.constructions:
        m = compile_request(c.request)
        slot = dict(zip(m.plan.names, range(len(m.plan.names)), strict=True))
        entries.append(_Entry(c.name, m, slot["X"], slot["H"] if _takes(c.request) else -1))
    return CompiledFile(pf, tuple(entries), limits)


def constructions(
    pf: PatternFile | CompiledFile, tree: DepTree | TreeIndex, *, limits: Limits | None = None
) -> tuple[str, ...]:
    """The construction of every word of ``tree`` (docs/patterns.md, "Pattern files and
    constructions"): the first entry binding X to the word (tier 1), else the first entry with an
    edge ``H -[…]-> X`` binding H to the word (tier 2), else ``other``.  One search per entry, each
    trying at most ``limits.pattern_steps`` candidate words (``limits``: the compiled file's when
    not given, :data:`~evalcore.limits.DEFAULT_LIMITS` for a :class:`PatternFile`), else
    :class:`~evalcore.errors.PatternLimitError` naming the entry's line."""
    cf = pf if isinstance(pf, CompiledFile) else compile_file(pf, limits or DEFAULT_LIMITS)
    bound = limits or cf.limits
    ix = _index(tree)
    own: list[str | None] = [None] * (ix.n + 1)
    governs: list[str | None] = [None] * (ix.n + 1)
    for e in cf.entries:
        for words in _search(e.matcher, ix, (), _Budget(bound)):
            x = words[e.x]
            if own[x] is None:
                own[x] = e.name
            if e.h >= 0 and governs[words[e.h]] is None:
                governs[words[e.h]] = e.name
    return tuple(own[w] or governs[w] or "other" for w in range(1, ix.n + 1))


def construction_of(
    pf: PatternFile | CompiledFile, tree: DepTree | TreeIndex, word: int, *, limits: Limits | None = None
) -> str:
    """The construction of one word (1-based; ``other`` out of range): :func:`constructions`."""
    names = constructions(pf, tree, limits=limits)
    return names[word - 1] if 1 <= word <= len(names) else "other"


# ---------------------------------------------------------------------------
# a score restricted to a construction


@dataclass(frozen=True, slots=True)
class Where:
    """A request that restricts a score to the words it covers (docs/patterns.md, "Scores restricted
    to a construction"): the words its matches bind, in the gold tree.  Two are equal when their
    texts are (the compiled search and the limits it runs under are left out of comparisons:
    settings are cache keys)."""

    text: str
    matcher: Matcher = field(compare=False, repr=False)
    limits: Limits = field(default=DEFAULT_LIMITS, compare=False, repr=False)

    def covered(self, tree: DepTree | TreeIndex, *, limits: Limits | None = None) -> frozenset[int]:
        """The 1-based words bound by any match of the request's pattern blocks in ``tree``; the search
        tries at most ``limits.pattern_steps`` candidate words (``limits``: the restriction's own when
        not given), else :class:`~evalcore.errors.PatternLimitError`."""
        m, ix = self.matcher, _index(tree)
        budget = _Budget(limits or self.limits)
        return frozenset(words[s] for words in _search(m, ix, (), budget) for s in m.slots)

    def digest(self) -> str:
        """The first 8 hex digits of the SHA-256 of the request's text (for signatures)."""
        import hashlib

        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:8]


def where(text: str, *, file: str = "--where", line: int = 1, limits: Limits = DEFAULT_LIMITS) -> Where:
    """The restriction of ``text``, a request (raises :class:`~evalcore.errors.PatternError` with
    ``file`` and the line in it), whose searches are bounded by ``limits``."""
    return Where(text, compile_request(parse_request(text, file=file, line=line)), limits)
