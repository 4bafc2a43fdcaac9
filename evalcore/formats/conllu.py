"""CoNLL-U and CoNLL-X reader and CoNLL-U writer (docs/formats.md, "CoNLL-U and CoNLL-X": what is
accepted, kept and refused, with each message).

Lines are split and classified by the one line parser (:mod:`evalcore.formats.columns`); this
reader adds the CoNLL-U grammar of IDs and HEADs above it.  An ID that is a plain integer is read
directly (most lines); ranges, decimals and malformed IDs go through the ``conllu`` library's own
ID parser, imported only then.  All fields but ID and HEAD are kept as raw strings, so that
``write_conllu(read_conllu(x))`` reproduces ``x``.  Resource limits (:class:`evalcore.limits.Limits`)
are applied while reading: lines and bytes of a sentence block, tokens, and the tree's depth.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal

from evalcore.errors import TreeStructureError
from evalcore.formats._io import InputSource, blocks, iter_lines, shown, source_name
from evalcore.formats.columns import (
    MAX_DIGITS,
    TOO_LARGE,
    Columns,
    comment_ids,
    natural,
    refused,
    split_lines,
)
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.trees import DepTree, ExtraLine, Source, Token

__all__ = ["parse_conllu", "read_conllu", "write_conllu"]

OnInvalid = Literal["raise", "keep"]


TREE_COLUMNS = Columns((10, 8), "expected 10 tab-separated columns, found {found}")
"""The tree reader's column rule: CoNLL-U and CoNLL-X (10), MaltParser / yap output (8)."""


def _grammar_id(raw: str, fname: str, lineno: int) -> int | None:
    """An ID the CoNLL-U grammar accepts (the ``conllu`` library's ``parse_id_value``): the integer
    of a word, ``None`` for a range or an empty node; anything else is refused."""
    if raw.isascii() and raw.isdigit() and (raw[0] != "0" or raw == "0"):  # conllu's ID_SINGLE
        # an integer; past MAX_DIGITS no sentence is that long: the caller reports it out of sequence
        return int(raw) if len(raw) <= MAX_DIGITS else TOO_LARGE
    from conllu.exceptions import ParseException  # rare lines: ranges, decimals, errors
    from conllu.parser import parse_id_value

    try:
        value = parse_id_value(raw)
    except ParseException:
        value = None
    except ValueError:  # a well-formed range or decimal whose numbers are too long for int()
        return None
    if isinstance(value, int) and raw.isdigit():
        return value
    if isinstance(value, tuple):
        return None
    raise refused(f"ID '{shown(raw)}' is not an integer, range or decimal", fname, lineno)


def _depth(heads: list[int]) -> tuple[int, int]:
    """Words on the longest head chain from the root, and a deepest word (0-based); iterative.
    Words on a cycle (not reachable from the root) are not counted."""
    n = len(heads)
    kids: list[list[int]] = [[] for _ in range(n + 1)]
    for d, h in enumerate(heads, start=1):
        if 0 <= h <= n:
            kids[h].append(d)
    depth = [0] * (n + 1)
    best, deepest = 0, 0
    stack = [0]
    while stack:
        w = stack.pop()
        for c in kids[w]:
            depth[c] = depth[w] + 1
            if depth[c] > best:
                best, deepest = depth[c], c - 1
            stack.append(c)
    return best, deepest


def _finish(
    lines: list[tuple[int, str]],
    fname: str,
    on_invalid: OnInvalid,
    limits: Limits = DEFAULT_LIMITS,
) -> DepTree:
    comments: list[str] = []
    tokens: list[Token] = []
    token_lines: list[int] = []
    huge_heads: dict[int, str] = {}  # token index -> HEAD as written, when too long for an int
    extras: list[ExtraLine] = []
    sent_id = ""
    text = ""
    fields = split_lines(lines, TREE_COLUMNS)
    for (lineno, line), cols in zip(lines, fields, strict=False):  # fields may stop short
        if cols is None:
            comments.append(line)
            sent_id, text = comment_ids(line, sent_id, text)
            continue
        raw_id = cols[0]
        if raw_id.isdigit() and raw_id.isascii() and raw_id[0] != "0" and len(raw_id) <= MAX_DIGITS:
            tid: int | None = int(raw_id)  # most lines (a "word"): _grammar_id's first case, without the call
        else:  # a range, an empty node, "0", or an ID the grammar refuses (the grammar agrees with kind)
            tid = _grammar_id(raw_id, fname, lineno)
        if tid is None:  # a range or an empty node (the grammar agrees with ``kind`` on both)
            extras.append(ExtraLine(raw_id, tuple(cols[1:]), len(tokens)))
            continue
        if len(tokens) >= limits.tokens:
            raise limits.error(
                "tokens",
                f"sentence has more than {limits.tokens} tokens",
                file=fname,
                line=lineno,
                sentence=shown(sent_id, 60) or None,
            )
        if tid != len(tokens) + 1:
            raise refused(
                f"ID '{shown(cols[0])}' out of sequence (expected {len(tokens) + 1})",
                fname,
                lineno,
                sent_id or None,
            )
        head_raw = cols[6]
        if head_raw.isdigit() and head_raw.isascii() and len(head_raw) <= MAX_DIGITS:
            head: int | None = int(head_raw)  # natural's rule without the call (most lines)
        else:
            head = natural(head_raw)
        if head is None:
            raise refused(
                f"HEAD '{shown(head_raw)}' of token {tid} is not a non-negative integer",
                fname,
                lineno,
                sent_id or None,
            )
        if head == TOO_LARGE:  # past the sentence anyway
            huge_heads[len(tokens)] = head_raw
        if len(cols) == 8:
            cols = [*cols, "_", "_"]
        tokens.append(
            Token(tid, cols[1], cols[2], cols[3], cols[4], cols[5], head, cols[7], cols[8], cols[9])
        )
        token_lines.append(lineno)
    if len(fields) < len(lines):  # split_lines stopped at a line of another column count
        lineno, line = lines[len(fields)]
        raise TREE_COLUMNS.refusal(line, line.count("\t") + 1, fname, lineno, sent_id or None)
    first = lines[0][0]
    tree = DepTree(
        tuple(tokens),
        sent_id,
        text,
        tuple(comments),
        tuple(extras),
        Source(fname, token_lines[0] if token_lines else first, tuple(token_lines)),
    )
    n = len(tokens)
    for i, t in enumerate(tokens):
        if t.head > n:
            past = f"points past the sentence ({n} tokens)"
            raise refused(
                f"HEAD '{shown(huge_heads.get(i, str(t.head)))}' {past}",
                fname,
                token_lines[i],
                sent_id or None,
            )
    if n > limits.depth:  # a chain holds each word once: a shorter sentence is never too deep
        depth, deepest = _depth([t.head for t in tokens])
        if depth > limits.depth:
            raise limits.error(
                "depth",
                f"tree is {depth} words deep (its longest head chain)",
                file=fname,
                line=token_lines[deepest],
                sentence=shown(sent_id, 60) or None,
            )
    if on_invalid == "raise" and tokens:
        problem = tree.structure_problem()
        if problem is not None:
            idx, msg = problem
            raise TreeStructureError(msg, file=fname, line=token_lines[idx], sentence=sent_id or None)
    return tree


def read_conllu(
    source: InputSource,
    *,
    name: str | None = None,
    on_invalid: OnInvalid = "raise",
    limits: Limits = DEFAULT_LIMITS,
) -> Iterator[DepTree]:
    """Stream the sentences of a CoNLL-U / CoNLL-X file (path, or bytes with ``name``).

    ``on_invalid="keep"`` yields sentences with a cycle or without a root
    instead of raising :class:`TreeStructureError`; callers then check
    :meth:`DepTree.structure_problem`.  Format errors always raise, and so
    does a sentence past one of the ``limits`` (:class:`~evalcore.errors.LimitError`).
    """
    fname = source_name(source, name)
    for block in blocks(iter_lines(source, fname, limits, runs=True, cr_ends=True), fname, limits):
        if all(line.startswith("#") for _, line in block):
            continue  # a comment-only block (e.g. a file header) is not a sentence
        yield _finish(block, fname, on_invalid, limits)


def parse_conllu(
    text: str, *, name: str = "<string>", on_invalid: OnInvalid = "raise", limits: Limits = DEFAULT_LIMITS
) -> list[DepTree]:
    """Read all sentences from a string (tests, the app's examples)."""
    return list(read_conllu(text.encode("utf-8"), name=name, on_invalid=on_invalid, limits=limits))


def write_conllu(trees: Iterable[DepTree]) -> str:
    """Serialize to CoNLL-U text; inverse of :func:`read_conllu` (property-tested)."""
    out: list[str] = []
    for tree in trees:
        out.extend(tree.comments)
        extras = sorted(tree.extras, key=lambda e: e.after)
        k = 0
        for i, t in enumerate(tree.tokens):
            # a range or empty node preceded by `after` tokens comes before token `after`
            while k < len(extras) and extras[k].after <= i:
                out.append("\t".join((extras[k].id, *extras[k].fields)))
                k += 1
            fields = (t.form, t.lemma, t.upos, t.xpos, t.feats, str(t.head), t.deprel, t.deps, t.misc)
            out.append("\t".join((str(t.id), *fields)))
        for e in extras[k:]:
            out.append("\t".join((e.id, *e.fields)))
        out.append("")
    return "\n".join(out) + ("\n" if out else "")
