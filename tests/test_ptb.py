"""Penn-Treebank bracket reader and writer, label splitting, trace removal, unwrapping (docs/formats.md,
"Penn-Treebank brackets"; docs/tedeval.md, "Multi-function trees (2012 protocol)")."""

from __future__ import annotations

from pathlib import Path

import pytest
from ec_support import ASSETS

from evalcore.errors import InputFormatError, LimitError
from evalcore.formats.ptb import parse_ptb, read_ptb, write_ptb
from evalcore.limits import Limits
from evalcore.trees import LabelParts, Tree, split_label, strip_empty, unwrap

PRETTY = """
( (S
    (NP-SBJ-1 (NNP Pierre) (NNP Vinken) )
    (VP (MD will)
      (VP (VB join)
        (NP (DT the) (NN board) )
        (S (NP-SBJ (-NONE- *-1) ) )))
    (. .) ))
( (S
    (NP-SBJ (NNP Mr.) )
    (VP (VBZ is) )))
"""


def test_pretty_printed_trees_with_outer_empty_bracket() -> None:
    trees = parse_ptb(PRETTY, name="w.mrg")
    assert len(trees) == 2
    first = trees[0]
    assert first.root.label == ""
    assert first.nodes[first.root.children[0]].label == "S"
    assert first.words == ("Pierre", "Vinken", "will", "join", "the", "board", "*-1", ".")
    assert [t.sent_id for t in trees] == ["1", "2"]
    assert first.source is not None and (first.source.file, first.source.line) == ("w.mrg", 2)
    assert trees[1].source is not None and trees[1].source.line == 9


def test_nothing_is_dropped_on_reading() -> None:
    t = parse_ptb(PRETTY)[0]
    labels = [n.label for n in t.nodes if not n.is_terminal]
    assert "NP-SBJ-1" in labels
    assert "-NONE-" in labels


def test_one_tree_per_line_and_several_trees_on_one_line() -> None:
    text = "(S (A a) (B b))\n(S (A c))\n(P this) (Q is)\n"
    trees = parse_ptb(text)
    assert [t.to_nested() for t in trees] == [
        ("S", ("A", "a"), ("B", "b")),
        ("S", ("A", "c")),
        ("P", "this"),
        ("Q", "is"),
    ]
    assert [t.source.line for t in trees if t.source is not None] == [1, 2, 3, 3]


def test_tree_spanning_lines_and_brackets_without_spaces() -> None:
    (t,) = parse_ptb("((S(NP (D the)\n(N dog))(VP (V ran))))")
    assert t.to_nested() == ("", ("S", ("NP", ("D", "the"), ("N", "dog")), ("VP", ("V", "ran"))))


def test_preterminals_and_spans() -> None:
    (t,) = parse_ptb("(S (NP (D the) (N dog)) (V ran))")
    assert [t.nodes[i].label for i in t.preterminals()] == ["D", "N", "V"]
    assert t.spans[0] == frozenset({0, 1, 2})
    np_index = t.root.children[0]
    assert t.spans[np_index] == frozenset({0, 1})


def test_farpahc_star_function_tags_stay_in_the_label() -> None:
    (t,) = parse_ptb("(TOP (IP*MAT (NP*SBJ (NPR*N Asa)) (VBDI átti) (. ;)))")
    assert t.nodes[1].label == "IP*MAT"
    assert t.words == ("Asa", "átti", ";")


def test_empty_input_is_zero_trees() -> None:
    assert parse_ptb("") == []
    assert list(read_ptb(b"\xef\xbb\xbf\r\n\r\n", name="e")) == []


def test_bom_and_crlf() -> None:
    raw = b"\xef\xbb\xbf(S (A a)\r\n (B b))\r\n"
    (t,) = read_ptb(raw, name="b")
    assert t.to_nested() == ("S", ("A", "a"), ("B", "b"))


# ---------------------------------------------------------------------------
# split_label (docs/tedeval.md, "Multi-function trees (2012 protocol)")


@pytest.mark.parametrize(
    ("raw", "separators", "expected"),
    [
        ("NP", "-=", LabelParts("NP", (), ())),
        ("NP-SBJ", "-=", LabelParts("NP", ("SBJ",), ())),
        ("NP-SBJ-1", "-=", LabelParts("NP", ("SBJ",), ("1",))),
        ("NP=2", "-=", LabelParts("NP", (), ("2",))),
        ("NP-SBJ=2", "-=", LabelParts("NP", ("SBJ",), ("2",))),
        ("PP-LOC-CLR", "-=", LabelParts("PP", ("LOC", "CLR"), ())),
        ("-NONE-", "-=", LabelParts("-NONE-", (), ())),
        ("-LRB-", "-=", LabelParts("-LRB-", (), ())),
        ("-RRB-", "-=", LabelParts("-RRB-", (), ())),
        ("NP*SBJ", "-=", LabelParts("NP*SBJ", (), ())),
        ("NP*SBJ", "-=*", LabelParts("NP", ("SBJ",), ())),
        ("IP-MAT-SPE", "-=*", LabelParts("IP", ("MAT", "SPE"), ())),
        ("", "-=", LabelParts("", (), ())),
        ("-", "-=", LabelParts("-", (), ())),
        ("S-", "-=", LabelParts("S", (), ())),
    ],
)
def test_split_label(raw: str, separators: str, expected: LabelParts) -> None:
    assert split_label(raw, separators) == expected


# ---------------------------------------------------------------------------
# strip_empty and unwrap


def test_strip_empty_removes_traces_and_their_empty_ancestors() -> None:
    t = parse_ptb(PRETTY)[0]
    stripped = strip_empty(t)
    assert stripped.words == ("Pierre", "Vinken", "will", "join", "the", "board", ".")
    labels = [n.label for n in stripped.nodes if not n.is_terminal]
    assert "-NONE-" not in labels
    # the (S (NP-SBJ (-NONE- *-1))) clause had nothing but the trace: gone with it
    assert labels.count("S") == 1
    # terminal positions are renumbered 0..n-1 in order
    assert [n.terminal for n in stripped.nodes if n.is_terminal] == list(range(7))
    assert stripped.sent_id == t.sent_id


def test_strip_empty_without_traces_is_identity() -> None:
    (t,) = parse_ptb("(S (A a) (B b))")
    assert strip_empty(t) == t


def test_unwrap_removes_empty_root_and_top_brackets() -> None:
    for text in ["( (S (A a)) )", "(TOP (S (A a)))", "(ROOT (S (A a)))", "( (TOP (S (A a))))"]:
        (t,) = parse_ptb(text)
        assert unwrap(t).to_nested() == ("S", ("A", "a")), text


def test_unwrap_drops_farpahc_id_nodes_under_the_outer_bracket() -> None:
    (t,) = parse_ptb("( (IP-MAT (NP-SBJ (PRO-N eg)) (VBDI skrivaði)) (ID 1928.NTACTS.REL-BIB,.1) )")
    u = unwrap(t)
    assert u.to_nested() == ("IP-MAT", ("NP-SBJ", ("PRO-N", "eg")), ("VBDI", "skrivaði"))
    assert u.words == ("eg", "skrivaði")


def test_unwrap_drops_code_metadata_under_the_outer_bracket() -> None:
    (t,) = parse_ptb("( (CODE {COM:x}) (IP-MAT (VBDI skrivaði)) (ID a.1) )")
    assert unwrap(t).to_nested() == ("IP-MAT", ("VBDI", "skrivaði"))
    (only_code,) = parse_ptb("( (CODE {COM:x}) (ID a.2) )")
    assert unwrap(only_code) == only_code  # nothing syntactic to unwrap to


def test_unwrap_keeps_a_root_with_several_syntactic_children() -> None:
    (t,) = parse_ptb("( (S (A a)) (S (B b)) )")
    assert unwrap(t) == t
    (s,) = parse_ptb("(S (A a))")
    assert unwrap(s) == s


# ---------------------------------------------------------------------------
# Writer


def test_write_one_tree_per_line_and_read_back() -> None:
    trees = parse_ptb(PRETTY)
    text = write_ptb(trees)
    assert text.count("\n") == 2
    assert text.splitlines()[1] == "( (S (NP-SBJ (NNP Mr.)) (VP (VBZ is))))"
    assert parse_ptb(text) == trees
    assert write_ptb([]) == ""


def test_deep_tree_needs_no_recursion() -> None:
    depth = 5000
    text = "(X " * depth + "w" + ")" * depth
    with pytest.raises(LimitError, match=r"<string>:1: tree is more than 1024 brackets deep \(limit 1024;"):
        parse_ptb(text)  # the default depth limit; raised, the reader has no depth problem
    (t,) = parse_ptb(text, limits=Limits(depth=depth))
    assert len(t) == depth + 1
    assert write_ptb([t]).strip() == text
    assert len(strip_empty(t)) == depth + 1


# ---------------------------------------------------------------------------
# Errors: FILE:LINE


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("(S (A a))\n(S (B b)))\n", 2, "unexpected ')' outside any tree"),
        ("(S (A a)\n(B b)\n", 1, "is not closed (1 '(' open at end of file)"),
        ("(S (A a))\nword (S (B b))\n", 2, "text 'word' outside any bracket"),
        ("(S ()\n)", 1, "empty bracket '()'"),
        ("(S\n (X) (A a))", 2, "bracket '(X' has no children"),
    ],
)
def test_bracket_errors_name_file_and_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(InputFormatError) as info:
        parse_ptb(text, name="t.mrg")
    assert str(info.value).startswith(f"t.mrg:{line}: ")
    assert fragment in str(info.value)


# ---------------------------------------------------------------------------
# Real files


def test_evalb_sample_reads_and_round_trips() -> None:
    trees = list(read_ptb(ASSETS / "evalb" / "sample" / "sample.gld"))
    assert len(trees) == 24
    assert parse_ptb(write_ptb(trees), name=str(ASSETS / "evalb" / "sample" / "sample.gld")) == trees


def read_all(paths: list[Path]) -> list[Tree]:
    return [t for p in paths for t in read_ptb(p)]


@pytest.mark.slow
def test_wsj_sample(data: Path) -> None:
    files = sorted((data / "ptb_wsj_sample" / "combined_mrg").glob("wsj_*.mrg"))
    trees = read_all(files)
    assert len(trees) == 1921  # data/README: 1,921 trees
    assert all(t.root.label == "" for t in trees)
    assert any(n.label == "-NONE-" for t in trees for n in t.nodes)
    first = trees[0]
    assert parse_ptb(write_ptb([first]), name=str(files[0])) == [first]


@pytest.mark.slow
def test_farpahc_files(data: Path) -> None:
    split = data / "farpahc" / "berkeley_split0"
    gold = list(read_ptb(split / "far_split0testing.psd"))
    system = list(read_ptb(split / "far_split0machineparsed.psd"))
    oneline = list(read_ptb(split / "far_split0testing.oneline.psd"))
    assert len(gold) == len(system) == len(oneline) == 372
    assert all(t.root.label == "TOP" for t in gold)
    assert any("*SBJ" in n.label for n in gold[1].nodes)
    full = list(read_ptb(data / "farpahc" / "psd" / "1928.ntacts.rel-bib.psd"))
    assert len(full) == 1179  # data/README: 1,179 hand-built trees
