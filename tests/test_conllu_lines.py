"""The one line parser and the two readings above it, on malformed and unusual lines.

Each file of ``tests/fixtures/reference/conll18_lines/`` holds one kind of line (docs/decisions.md,
"One CoNLL-U line parser, two readings", has the whole table).  ``NAME.scorer.txt`` is what the
CoNLL 2018 scorer (``conll18_ud_eval.py -c NAME.conllu NAME.conllu``, ufal/conll2018 commit
f2bc4dd; the commands are in ``tests/fixtures/reference/COMMANDS.txt``) does with it: its exit
code, then its ``-c`` table or the last line of its error.  The scorer's reading
(:mod:`evalcore.metrics.conll18`) must do the same: the same table, or the same refusal with the
scorer's text, as a typed error naming the file, the scorer's line and the sentence.

The tree reader (:func:`evalcore.formats.conllu.read_conllu`) follows the CoNLL-U grammar
instead (docs/formats.md, "CoNLL-U and CoNLL-X"); its expected outcomes below are counted by
hand on the files (each is one to four lines).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ec_support import ROOT

from evalcore.cli import main
from evalcore.errors import EvalcoreError, InputFormatError, TreeStructureError
from evalcore.formats.columns import (
    Columns,
    comment_ids,
    form_chars,
    id_kind,
    natural,
    parse_line,
    split_lines,
)
from evalcore.formats.conllu import TREE_COLUMNS, parse_conllu, read_conllu
from evalcore.metrics.conll18 import evaluate_conll18
from evalcore.report.conll18 import format_conll18_counts

LINES = ROOT / "tests" / "fixtures" / "reference" / "conll18_lines"
CASES = sorted(p.name.removesuffix(".conllu") for p in LINES.glob("*.conllu"))


def scorer(case: str) -> tuple[int, str]:
    """The scorer's exit code, and its table (exit 0) or its error (the last line of stderr)."""
    first, rest = (LINES / f"{case}.scorer.txt").read_text(encoding="utf-8").split("\n", 1)
    return int(first.removeprefix("exit: ")), rest


def test_every_case_has_the_scorers_output() -> None:
    assert len(CASES) == 33
    for case in CASES:
        assert (LINES / f"{case}.scorer.txt").is_file(), case


@pytest.mark.parametrize("case", CASES)
def test_the_scorers_reading_does_what_the_scorer_does(case: str) -> None:
    """Accepted: the scorer's ``-c`` table, byte for byte.  Refused: the scorer's message (its
    "at line N" is the error's line), a typed error naming the file."""
    path = LINES / f"{case}.conllu"
    code, said = scorer(case)
    if code == 0:
        result = evaluate_conll18(path, path)
        assert format_conll18_counts(result.scores) + "\n" == said
        return
    assert code == 1
    m = re.fullmatch(r"UDError: (.*?)(?: at line (\d+))?(: '.*')?\n", said, re.S)
    assert m is not None, said
    message, line = m.group(1) + (m.group(3) or ""), m.group(2)
    with pytest.raises(EvalcoreError) as err:
        evaluate_conll18(path, path)
    e = err.value
    assert isinstance(e, (InputFormatError, TreeStructureError))
    assert e.message == message
    assert e.file == str(path)
    if line is not None:
        assert e.line == int(line)


def test_the_sentence_of_an_error_is_named_as_the_tree_reader_names_it() -> None:
    """``# sent_id s9`` (the UD v1 form): both readings call the sentence ``s9`` (the scorer's
    reading said ``# sent_id s9`` before they shared ``comment_ids``)."""
    path = LINES / "sent_id_no_equals.conllu"
    with pytest.raises(TreeStructureError) as scorer_err:
        evaluate_conll18(path, path)
    with pytest.raises(TreeStructureError) as tree_err:
        list(read_conllu(path))
    assert scorer_err.value.sentence == tree_err.value.sentence == "s9"
    assert str(scorer_err.value).endswith("There is a cycle in a sentence (sentence s9)")


def test_the_command_line_says_the_scorers_refusal_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(LINES / "comment_inside.conllu")
    assert main(["attach", path, path, "--format", "conll18"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith(
        "comment_inside.conllu:2: The CoNLL-U line does not contain 10 tab-separated columns: '# note'"
    )


# The tree reader, counted by hand on each file: (sentences, tokens, multiword ranges and empty
# nodes) when it reads the file, else (error type, line, message).
ACCEPTED: dict[str, tuple[int, int, int]] = {
    "columns_8": (1, 1, 0),  # MaltParser / yap output
    "empty_node": (1, 2, 1),
    "two_roots": (1, 2, 0),  # several roots are not an error here (CoNLL-X data has them)
    "form_space": (1, 2, 0),
    "form_nbsp_only": (1, 2, 0),
    "form_empty": (1, 2, 0),
    "fields_empty": (1, 2, 0),
    "fields_underscore": (1, 1, 0),
    "comment_inside": (1, 2, 0),
    "comment_only_block": (1, 1, 0),  # a block of comments only is a file header, not a sentence
    "blank_lines_two": (2, 2, 0),  # a run of blank lines is one boundary
    "blank_line_spaces": (1, 1, 0),  # a line of spaces is a blank line
    "no_final_blank": (1, 1, 0),
    "leading_blank": (1, 1, 0),
}
REFUSED: dict[str, tuple[type[Exception], int, str]] = {
    "columns_9": (InputFormatError, 2, "expected 10 tab-separated columns, found 9"),
    "columns_11": (InputFormatError, 2, "expected 10 tab-separated columns, found 11"),
    "id_empty": (InputFormatError, 2, "ID '' is not an integer, range or decimal"),
    "id_word": (InputFormatError, 2, "ID 'x' is not an integer, range or decimal"),
    "id_plus": (InputFormatError, 2, "ID '+2' is not an integer, range or decimal"),
    "id_leading_zero": (InputFormatError, 2, "ID '02' is not an integer, range or decimal"),
    "range_bad": (InputFormatError, 1, "ID '1-x' is not an integer, range or decimal"),
    "range_reversed": (InputFormatError, 1, "ID '2-1' is not an integer, range or decimal"),
    "range_unchecked_ids": (InputFormatError, 2, "ID '7' out of sequence (expected 1)"),
    "range_word_columns_11": (InputFormatError, 2, "expected 10 tab-separated columns, found 11"),
    "empty_node_odd": (InputFormatError, 2, "ID 'x.y' is not an integer, range or decimal"),
    "head_out_of_range": (InputFormatError, 2, "HEAD '5' points past the sentence (2 tokens)"),
    "head_negative": (InputFormatError, 2, "HEAD '-1' of token 2 is not a non-negative integer"),
    "head_plus": (InputFormatError, 2, "HEAD '+1' of token 2 is not a non-negative integer"),
    "head_underscore": (InputFormatError, 2, "HEAD '_' of token 2 is not a non-negative integer"),
    "head_empty": (InputFormatError, 2, "HEAD '' of token 2 is not a non-negative integer"),
    "cycle": (TreeStructureError, 1, "sentence has no root (no token with HEAD 0)"),
    "no_root": (TreeStructureError, 1, "token 1 is its own head"),
    "sent_id_no_equals": (TreeStructureError, 2, "sentence has no root (no token with HEAD 0)"),
}


def test_the_tables_cover_every_case() -> None:
    assert sorted([*ACCEPTED, *REFUSED]) == CASES


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_what_the_tree_reader_reads(case: str) -> None:
    trees = list(read_conllu(LINES / f"{case}.conllu"))
    got = (len(trees), sum(len(t.tokens) for t in trees), sum(len(t.extras) for t in trees))
    assert got == ACCEPTED[case]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_the_tree_reader_refuses(case: str) -> None:
    error, line, message = REFUSED[case]
    with pytest.raises(error) as err:
        list(read_conllu(LINES / f"{case}.conllu"))
    assert (err.value.line, err.value.message) == (line, message)  # type: ignore[attr-defined]


def test_forms_are_kept_as_written_by_the_tree_reader() -> None:
    """The tree reader keeps "b c" and an empty FORM; only the character alignment drops spaces."""
    (tree,) = read_conllu(LINES / "form_space.conllu")
    assert tree.tokens[1].form == "b c"
    (tree,) = read_conllu(LINES / "form_empty.conllu")
    assert tree.tokens[1].form == ""


# --------------------------------------------------------------------------- the parser itself

TEN = Columns((10,), "not 10 but {found}: '{line}'")


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("", "blank"),
        ("# sent_id = 1", "comment"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "word"),
        ("1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_", "range"),
        ("1.1\ta\t_\t_\t_\t_\t_\t_\t_\t_", "empty"),
        ("1.1-2\ta\t_\t_\t_\t_\t_\t_\t_\t_", "empty"),  # the scorer looks for "." first
        ("x\ta\t_\t_\t_\t_\t_\t_\t_\t_", "word"),  # a bad word ID is the reader's to refuse
    ],
)
def test_kinds(line: str, kind: str) -> None:
    assert parse_line(line, TEN, "f", 1)[0] == kind
    if kind not in ("blank", "comment"):  # parse_line writes id_kind's rule out (its hot path)
        assert id_kind(line.partition("\t")[0]) == kind


def test_a_comment_inside_a_scorer_sentence_is_a_line_like_any_other() -> None:
    with pytest.raises(InputFormatError) as err:
        parse_line("# note", TEN, "f", 3, "s1", comments=False)
    assert str(err.value) == "f:3: not 10 but 1: '# note' (sentence s1)"
    assert id_kind("#") == "word"


WORD = "1\ta\t_\t_\t_\t_\t0\troot\t_\t_"


def test_a_block_is_split_as_each_line_is() -> None:
    """``split_lines`` (the tree reader's one call per sentence) gives ``parse_line``'s fields, up
    to the first line of another column count."""
    block = [(1, "# sent_id = s1"), (2, WORD), (3, "2-3\tbc" + "\t_" * 8), (4, "# inside"), (5, WORD[:-2])]
    split = split_lines(block, TREE_COLUMNS)
    assert len(split) == 4  # line 5 has 9 columns: the list stops before it
    for (lineno, line), cols in zip(block, split, strict=False):
        kind, expected = parse_line(line, TREE_COLUMNS, "f", lineno)
        assert (cols is None) == (kind == "comment")
        assert cols == (None if cols is None else expected)
    assert len(split_lines(block[:4], TREE_COLUMNS)) == 4
    assert split_lines([(1, "# only")], TREE_COLUMNS) == [None]


@pytest.mark.parametrize(
    ("lines", "line", "message", "sentence"),
    [
        # an earlier line's error comes first, though a later line has too few columns
        (
            ["# sent_id = s1", WORD, WORD.replace("1", "3", 1), "2\ta\t_"],
            3,
            "ID '3' out of sequence (expected 2)",
            "s1",
        ),
        # the column count of a word after an earlier error-free line, with the sentence given before it
        (["# sent_id = s1", WORD, "2\tb\t_"], 3, "expected 10 tab-separated columns, found 3", "s1"),
        # a sent_id given after the bad line is not yet known there (as when each line was parsed alone)
        (
            ["# text = t", WORD, "2\tb\t_", "# sent_id = late"],
            3,
            "expected 10 tab-separated columns, found 3",
            None,
        ),
        # a comment inside the sentence, before the bad line, names it
        ([WORD, "# sent_id = inside", "2\tb"], 3, "expected 10 tab-separated columns, found 2", "inside"),
    ],
)
def test_errors_come_in_line_order_with_the_sentence_known_so_far(
    lines: list[str], line: int, message: str, sentence: str | None
) -> None:
    """Counted by hand on the lines: the reader refuses the first bad line, naming the sent_id of the
    comments before it."""
    with pytest.raises(InputFormatError) as err:
        parse_conllu("\n".join(lines) + "\n\n")
    assert (err.value.line, err.value.message, err.value.sentence) == (line, message, sentence)


def test_natural_fields() -> None:
    assert [natural(x) for x in ("0", "007", "12", "", "_", "-1", "+1", " 1", "١")] == [
        0, 7, 12, None, None, None, None, None, None,
    ]  # fmt: skip
    assert natural("9" * 18) == 10**18 - 1
    assert natural("1" + "0" * 18) == natural("9" * 5000) == 10**18  # past any sentence


def test_comment_ids() -> None:
    """``# key = value`` as the conllu library splits it; the UD v1 forms fill what is empty."""
    assert comment_ids("# sent_id = a = b", "", "") == ("a = b", "")
    assert comment_ids("#sent_id=x", "", "") == ("x", "")
    assert comment_ids("# text = Hi there ", "s", "") == ("s", "Hi there")
    assert comment_ids("# sent_id 12", "", "") == ("12", "")
    assert comment_ids("# sent_id 12", "s", "") == ("s", "")
    assert comment_ids("# sentence-text: Hi", "", "") == ("", "Hi")
    assert comment_ids("# sent_id = ", "", "") == ("", "")
    assert comment_ids("# sent_idx = 3", "", "") == ("", "")


def test_form_chars_drop_every_unicode_space() -> None:
    assert form_chars("b c") == "bc"
    assert form_chars("2\u00a0000\u2009x") == "2000x"
    assert form_chars("a\tb") == "a\tb"  # a tab is no Zs space (and no FORM holds one)


def test_lattice_lines_share_the_splitting(tmp_path: Path) -> None:
    from evalcore.formats.lattice import read_lattices

    bad = tmp_path / "l.lattice"
    bad.write_text("0\t1\ta\ta\tNN\tNN\t_\n\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"expected 8 tab-separated lattice columns .* found 7"):
        list(read_lattices(bad))
    bad.write_text("0\t1\ta\ta\tNN\tNN\t_\t1\t_\n\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"expected 8 tab-separated lattice columns .* found 9"):
        list(read_lattices(bad))
    bad.write_text("0\t" + "9" * 19 + "\ta\ta\tNN\tNN\t_\t1\n\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="too large \\(more than 18 digits\\)"):
        list(read_lattices(bad))
