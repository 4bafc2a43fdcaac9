"""The readers' fast paths (issue 18, part 4) against what they replace.

* CoNLL-U: a plain-integer ID is read without the ``conllu`` library, and comments are split without
  it; the library's own ``parse_id_value`` / ``parse_comment_line`` are the reference here.
* PTB: :func:`parse_ptb_line` (evalb's line reader, one loop over lists) gives the same trees as
  :func:`read_ptb` (the tree-layout reader, still the :class:`_Builder` state machine) on any
  well-formed line, and the same errors on malformed and over-limit lines.
"""

from __future__ import annotations

import pytest
from conllu.exceptions import ParseException
from conllu.parser import parse_comment_line, parse_id_value
from hypothesis import given
from hypothesis import strategies as st
from test_properties_formats import numbered, ptb_tree

from evalcore.errors import InputFormatError, LimitError
from evalcore.formats.conllu import _comment_pair, _id_kind
from evalcore.formats.ptb import parse_ptb, parse_ptb_line, write_ptb
from evalcore.limits import Limits
from evalcore.trees import Tree

ID_CHARS = st.sampled_from(list("0123456789-.x ٣"))


def _library_id_kind(raw: str) -> int | str | None:
    """The reader's contract in terms of the conllu library: int, None (range/decimal) or 'error'."""
    try:
        value = parse_id_value(raw)
    except ParseException:
        return "error"
    except ValueError:
        return None
    if isinstance(value, int) and raw.isdigit():
        return value if len(raw) <= 18 else "huge"
    if isinstance(value, tuple):
        return None
    return "error"


KNOWN_IDS = st.sampled_from(["0", "01", "1", "10", "3-4", "4-3", "5.1", "5.0", "1" * 25, "0" + "1" * 25])


@given(st.text(ID_CHARS, min_size=1, max_size=6) | KNOWN_IDS)
def test_id_fast_path_agrees_with_the_conllu_library(raw: str) -> None:
    expected = _library_id_kind(raw)
    try:
        got: int | str | None = _id_kind(raw, "f", 1)
    except InputFormatError:
        got = "error"
    if expected == "huge":
        assert isinstance(got, int) and got >= 10**18
    else:
        assert got == expected


@given(st.text(st.sampled_from(list("# =abtext_sendi \u00a0")), max_size=12))
def test_comment_split_agrees_with_the_conllu_library(body: str) -> None:
    line = "#" + body
    pairs = parse_comment_line(line)
    key, value = pairs[0] if pairs else ("", None)
    if key in ("newpar", "newdoc"):  # the library's own metadata parsers; the reader uses neither key
        return
    assert _comment_pair(line) == (key, value)


@given(st.lists(ptb_tree(), min_size=1, max_size=4))
def test_line_reader_reads_generated_trees_as_the_tree_reader_does(trees: list[Tree]) -> None:
    line = write_ptb(numbered(trees)).replace("\n", " ")
    assert parse_ptb_line(line) == tuple(parse_ptb(line)) == tuple(numbered(trees))


@pytest.mark.parametrize(
    "line",
    [
        "(S (NP (DT the) (NN dog)) (VP (VBD ran)))",
        "( (S (NP John) (VP runs)) )",
        "(P this) (Q is)",
        "(S (NP-SBJ-1 (-NONE- *T*-1)) (. .))",
        "(S(NP(DT a)(NN b))(. .))",
    ],
)
def test_line_reader_builds_what_the_tree_reader_builds(line: str) -> None:
    assert parse_ptb_line(line) == tuple(parse_ptb(line))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("(S (NP a)", "unbalanced brackets (1 '(' not closed)"),
        ("(S (NP a)))", "unbalanced brackets (too many ')')"),
        ("word (S a)", "text 'word' outside any bracket (expected '(')"),
    ],
)
def test_line_reader_errors(line: str, message: str) -> None:
    with pytest.raises(InputFormatError) as exc:
        parse_ptb_line(line, name="f.tst", line=7)
    assert exc.value.message == message
    assert str(exc.value).startswith("f.tst:7:")


def test_line_reader_accepts_empty_constituents_as_evalb_does() -> None:
    (tree,) = parse_ptb_line("(S (X) () (NN a))")
    assert [n.label for n in tree.nodes] == ["S", "X", "", "NN", "a"]
    assert tree.nodes[1].children == () and tree.nodes[1].terminal is None


@pytest.mark.parametrize(
    ("line", "limits", "what"),
    [
        ("(A (B (C x)))", Limits(depth=2), "tree is more than 2 brackets deep"),
        ("(S (A x) (B y) (C z))", Limits(tokens=2), "tree has more than 2 words"),
        ("(A x y) (B z)", Limits(tokens=2), "line has more than 2 words"),
    ],
)
def test_line_reader_limits(line: str, limits: Limits, what: str) -> None:
    with pytest.raises(LimitError) as exc:
        parse_ptb_line(line, limits=limits)
    assert what in exc.value.message
