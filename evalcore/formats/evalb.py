"""evalb's reading of a bracketed sentence (``read_line`` of ``evalb.c``; SPEC §7, step 1).

What evalb sees of one sentence, driven by an evalb parameter file
(:mod:`evalcore.formats.prm`): a node whose only child is a word is a
preterminal (tag + word); words count for the sentence length unless their tag
is a ``DELETE_LABEL_FOR_LENGTH``; a preterminal whose tag is a
``DELETE_LABEL`` is removed *with its word*; every other node is a raw bracket
over the words (kept so far) that it dominates.  ``QUOTE_LABEL`` terminals are
remembered for evalb 2006's quote repair.  The scoring steps that follow
(quote repair, massage, matching) are :mod:`evalcore.metrics.parseval`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.formats.prm import EvalbParams
from evalcore.trees import Tree

__all__ = ["QUOTE_WORDS", "EvalbReading", "QuoteTerm", "RawBracket", "read_evalb"]

QUOTE_WORDS = frozenset({"'", '"', "/"})
"""Words that make a ``QUOTE_LABEL`` terminal a possible mislabeled quote (evalb's ``is_quote_term``)."""


@dataclass(frozen=True, slots=True)
class RawBracket:
    """A bracket as read: ``[start, end)`` over kept words, raw label, raw parent index (-1: none)."""

    start: int
    end: int
    label: str
    parent: int


@dataclass(frozen=True, slots=True)
class QuoteTerm:
    """A ``QUOTE_LABEL`` terminal (kept or deleted) and where to re-insert it (evalb's ``s_term_ind``)."""

    word: str
    tag: str
    index: int  # number of kept words before it
    bracket: int  # number of brackets opened before it
    parent: int  # the innermost bracket open around it (-1: none); the others are its ancestors


@dataclass(frozen=True, slots=True)
class EvalbReading:
    """One side of a sentence after evalb's reading step."""

    words: tuple[str, ...]
    tags: tuple[str, ...]
    brackets: tuple[RawBracket, ...]
    quotes: tuple[QuoteTerm, ...]
    length: int  # words not tagged DELETE_LABEL_FOR_LENGTH, counted before deletion
    error: str = ""


def read_evalb(trees: Sequence[Tree], params: EvalbParams, error: str = "") -> EvalbReading:
    """Words, tags, raw brackets and quote terminals of the trees of one sentence (step 1).

    Iterative preorder walk with an explicit stack (no recursion).
    """
    delete = frozenset(params.delete_labels)
    delete_len = frozenset(params.delete_labels_for_length)
    quote_labels = frozenset(params.quote_labels)
    words: list[str] = []
    tags: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    labels: list[str] = []
    parents: list[int] = []
    quotes: list[QuoteTerm] = []
    length = 0
    for tree in trees:
        nodes = tree.nodes
        open_brackets: list[int] = []
        work: list[int] = [0]  # node i to read, or ~i (negative) to close bracket node i
        while work:
            i = work.pop()
            if i < 0:
                ends[open_brackets.pop()] = len(words)
                continue
            node = nodes[i]
            if node.terminal is not None:
                # a word beside other children: evalb stops reading here ("More than two elements")
                error = error or f"more than two elements in a bracket (word '{node.label}')"
                continue
            children = node.children
            if len(children) == 1 and (child := nodes[children[0]]).terminal is not None:
                tag = node.label
                word = child.label
                if tag not in delete_len:
                    length += 1
                if tag in quote_labels and word in QUOTE_WORDS:
                    parent = open_brackets[-1] if open_brackets else -1
                    quotes.append(QuoteTerm(word, tag, len(words), len(starts), parent))
                if tag not in delete:
                    words.append(word)
                    tags.append(tag)
                continue
            parents.append(open_brackets[-1] if open_brackets else -1)
            starts.append(len(words))
            ends.append(-1)
            labels.append(node.label)
            open_brackets.append(len(starts) - 1)
            work.append(~i)
            work.extend(reversed(children))
    brackets = tuple(
        RawBracket(s, e, lab, p) for s, e, lab, p in zip(starts, ends, labels, parents, strict=True)
    )
    return EvalbReading(tuple(words), tuple(tags), brackets, tuple(quotes), length, error)
