"""Word-preserving perturbations of the WSJ sample, for comparing evalcore with evalb and FREVAL.

Independent of evalcore on purpose (its own reader and writer), so that the
files it writes are the same whatever evalcore's code does.  The same seed
gives the same bytes (``random.Random`` with ``random()``, ``choice()`` and
``randrange()`` only), which ``tests/fixtures/reference/MANIFEST.txt`` records
as SHA-256 digests; the tests check them before comparing.

The WSJ trees come from ``../shared/data/ptb_wsj_sample`` (LDC fair use, not
for the repository): only the *reports* of the reference tools on these files
are committed, never the trees.

Run as a script to write the files: ``python tests/wsj_perturb.py OUTDIR SEED ...``.
"""

from __future__ import annotations

import hashlib
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

Tree = tuple[str, tuple["Tree | str", ...]]
"""``(label, children)``; a child that is a ``str`` is a word (its parent is then a preterminal)."""

# evalb's fixed limits (evalb.c): words and brackets per sentence, characters per line
MAX_WORDS = 200
MAX_BRACKETS = 200
MAX_LINE = 4000  # below MAX_SENT_LEN (5000) with room for inserted brackets

LABELS = ("NP", "VP", "PP", "S", "SBAR", "ADJP", "ADVP", "PRT", "NP-SBJ", "VP-1", "X", "TOP", "QP", "WHNP")
TAGS = ("NN", "NNS", "NNP", "VB", "VBD", "VBZ", "JJ", "IN", "DT", "RB", "CD", "PRP")
KEEP_TAGS = frozenset({"-NONE-", ",", ":", "``", "''", ".", "?", "!", "TOP", "S1"})  # never retagged


@dataclass(frozen=True)
class Rates:
    """Per-bracket probabilities of each edit (and per preterminal, of a new tag)."""

    relabel: float = 0.08
    flatten: float = 0.08  # splice a child bracket's children into this bracket
    group: float = 0.08  # put 2+ adjacent children (not all) under a new bracket
    shift: float = 0.06  # move the last child of a bracket into the next sibling bracket (a crossing)
    retag: float = 0.02  # another tag, never to or from a deleted/punctuation tag
    drop_outer: float = 0.03  # the test tree loses its outer unlabeled bracket


def read_trees(text: str) -> list[Tree]:
    """The trees of a ``.mrg`` file (pretty-printed or not)."""
    tokens = re.findall(r"\(|\)|[^\s()]+", text)
    out: list[Tree] = []
    stack: list[tuple[str, list[Tree | str]]] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok == "(":
            label = ""
            if i + 1 < len(tokens) and tokens[i + 1] not in ("(", ")"):
                label = tokens[i + 1]
                i += 1
            stack.append((label, []))
        elif tok == ")":
            label, kids = stack.pop()
            node: Tree = (label, tuple(kids))
            if stack:
                stack[-1][1].append(node)
            else:
                out.append(node)
        else:
            stack[-1][1].append(tok)
        i += 1
    if stack:
        raise ValueError("unbalanced brackets")
    return out


def one_line(tree: Tree) -> str:
    """evalb's one-tree-per-line form: ``(S (NP (DT a) (NN b)) ...)``; the outer bracket is ``( (S ...))``."""
    label, kids = tree
    parts = [k if isinstance(k, str) else one_line(k) for k in kids]
    return f"({label} {' '.join(parts)})"


def _is_preterminal(t: Tree) -> bool:
    return len(t[1]) == 1 and isinstance(t[1][0], str)


def _count(tree: Tree) -> tuple[int, int]:
    """(words, brackets) as evalb counts them: preterminals are words, other nodes brackets."""
    if _is_preterminal(tree):
        return 1, 0
    w, b = 0, 1
    for k in tree[1]:
        if not isinstance(k, str):
            kw, kb = _count(k)
            w, b = w + kw, b + kb
    return w, b


def _movable(t: Tree | str) -> bool:
    """A bracket (not a preterminal) with two or more children: it can give its last one away."""
    return not isinstance(t, str) and not _is_preterminal(t) and len(t[1]) >= 2


def within_evalb_limits(tree: Tree) -> bool:
    words, brackets = _count(tree)
    return words <= MAX_WORDS and brackets <= MAX_BRACKETS and len(one_line(tree)) <= MAX_LINE


def _perturb(tree: Tree, rng: random.Random, rates: Rates) -> Tree:
    label, kids = tree
    if _is_preterminal(tree):
        if label not in KEEP_TAGS and rng.random() < rates.retag:
            return (rng.choice(TAGS), kids)
        return tree
    new: list[Tree | str] = [k if isinstance(k, str) else _perturb(k, rng, rates) for k in kids]
    if rng.random() < rates.flatten:
        brackets = [i for i, k in enumerate(new) if not isinstance(k, str) and not _is_preterminal(k)]
        if brackets:
            i = rng.choice(brackets)
            child = new[i]
            assert not isinstance(child, str)
            new[i : i + 1] = list(child[1])
    if rng.random() < rates.shift:
        pairs = [
            i
            for i in range(len(new) - 1)
            if _movable(new[i]) and not isinstance(new[i + 1], str) and not _is_preterminal(new[i + 1])
        ]
        if pairs:
            i = rng.choice(pairs)
            a, b = new[i], new[i + 1]
            assert not isinstance(a, str) and not isinstance(b, str)
            new[i : i + 2] = [(a[0], a[1][:-1]), (b[0], (a[1][-1], *b[1]))]
    if len(new) >= 3 and rng.random() < rates.group:
        start = rng.randrange(len(new) - 1)
        end = rng.randrange(start + 2, len(new) + 1)
        if end - start < len(new):
            new[start:end] = [(rng.choice(LABELS), tuple(new[start:end]))]
    if label and rng.random() < rates.relabel:
        label = rng.choice(LABELS)
    return (label, tuple(new))


def perturb(tree: Tree, rng: random.Random, rates: Rates = Rates()) -> Tree:
    """A tree over the same words (and, but for ``retag``, the same tags) with edited brackets."""
    out = _perturb(tree, rng, rates)
    if out[0] == "" and len(out[1]) == 1 and rng.random() < rates.drop_outer:
        inner = out[1][0]
        assert not isinstance(inner, str)
        out = inner
    return out


def wsj_trees(data: Path) -> list[Tree]:
    """Every tree of ``ptb_wsj_sample/combined_mrg`` (files in name order) within evalb's limits."""
    trees: list[Tree] = []
    for f in sorted((data / "ptb_wsj_sample" / "combined_mrg").glob("wsj_*.mrg")):
        trees += read_trees(f.read_text(encoding="utf-8"))
    return [t for t in trees if within_evalb_limits(t)]


def write_pair(data: Path, out_dir: Path, seed: int) -> tuple[Path, Path]:
    """``wsj.gld`` (once) and ``wsj.SEED.tst``: the gold trees one per line, and their perturbation."""
    gold = wsj_trees(data)
    rng = random.Random(seed)
    test = []
    for t in gold:
        p = perturb(t, rng)
        test.append(p if within_evalb_limits(p) else t)
    out_dir.mkdir(parents=True, exist_ok=True)
    g = out_dir / "wsj.gld"
    g.write_text("".join(one_line(t) + "\n" for t in gold), encoding="utf-8")
    tst = out_dir / f"wsj.{seed}.tst"
    tst.write_text("".join(one_line(t) + "\n" for t in test), encoding="utf-8")
    return g, tst


def write_gum_pair(data: Path, out_dir: Path, seed: int) -> tuple[Path, Path]:
    """``gum.gld`` and ``gum.SEED.tst``: GUM's 320 ``(ROOT ...)`` trees (``gum/const/*.ptb``, files in
    name order) one per line, and their perturbation (as :func:`write_pair`)."""
    gold: list[Tree] = []
    for f in sorted((data / "gum" / "const").glob("*.ptb")):
        gold += read_trees(f.read_text(encoding="utf-8"))
    rng = random.Random(seed)
    test = [p if within_evalb_limits(p := perturb(t, rng)) else t for t in gold]
    out_dir.mkdir(parents=True, exist_ok=True)
    g, tst = out_dir / "gum.gld", out_dir / f"gum.{seed}.tst"
    g.write_text("".join(one_line(t) + "\n" for t in gold), encoding="utf-8")
    tst.write_text("".join(one_line(t) + "\n" for t in test), encoding="utf-8")
    return g, tst


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    out = Path(sys.argv[1])
    for s in sys.argv[2:]:
        for p in write_pair(here.parent.parent / "shared" / "data", out, int(s)):
            print(f"{sha256(p)}  {p.name}")
