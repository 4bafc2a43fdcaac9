"""The readers' fast paths against what they replace.

* CoNLL-U: a plain-integer ID is read without the ``conllu`` library, and comments are split without
  it; the library's own ``parse_id_value`` / ``parse_comment_line`` are the reference here.
* PTB: :func:`parse_ptb_line` (evalb's line reader, one loop over lists) gives the same trees as
  :func:`read_ptb` (the tree-layout reader, still the :class:`_Builder` state machine) on any
  well-formed line, and the same errors on malformed and over-limit lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from conllu.exceptions import ParseException
from conllu.parser import parse_comment_line, parse_id_value
from hypothesis import given
from hypothesis import strategies as st
from test_properties_formats import numbered, ptb_tree

from evalcore.errors import InputFormatError, LimitError, MismatchError
from evalcore.formats.columns import comment_ids
from evalcore.formats.conllu import _grammar_id
from evalcore.formats.evalb import (
    UNBALANCED,
    EvalbLine,
    EvalbReading,
    RawBracket,
    evalb_line_reader,
    read_evalb,
)
from evalcore.formats.prm import COLLINS, EvalbParams
from evalcore.formats.ptb import UnclosedLineError, parse_ptb, parse_ptb_line, write_ptb
from evalcore.limits import DEFAULT_LIMITS as DEFAULT
from evalcore.limits import Limits
from evalcore.metrics.parseval import (
    ParsevalConfig,
    SentenceRow,
    massage,
    parseval_lines,
    parseval_rows,
    row_of,
    rows_supported,
)
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
        got: int | str | None = _grammar_id(raw, "f", 1)
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
    sent_id, text = comment_ids(line, "", "")
    if key == "sent_id":
        assert (sent_id, text) == (value, "")
    elif key == "text":
        assert (sent_id, text) == ("", value)
    elif not line[1:].strip().startswith(("sent_id ", "sentence-text:")):  # the UD v1 forms
        assert (sent_id, text) == ("", "")


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
        ("(A (X x) (Y y)) (B z)", Limits(tokens=2), "line has more than 2 words"),
        ("(A (X x) (Y y)) (B (Z z)", Limits(tokens=2), "line has more than 2 words"),
    ],
)
def test_line_reader_limits(line: str, limits: Limits, what: str) -> None:
    with pytest.raises(LimitError) as exc:
        parse_ptb_line(line, limits=limits)
    assert what in exc.value.message


# ---------------------------------------------------------------------------
# evalb's reading step in one pass (evalb_line_reader) against the tree reader + read_evalb

QUOTED = replace(COLLINS, quote_labels=("''", "POS", "X"))
LINE_ATOMS = st.sampled_from(
    ["(", "(", "(", ")", ")", ")", "X", "NP-SBJ", "-NONE-", "''", ",", "'", '"', "/", "a"]
)
SPACES = st.sampled_from(["", " ", "  ", "\t"])


def _by_trees(text: str, params: EvalbParams, limits: Limits) -> EvalbReading | str:
    """What the line reader of trees and :func:`read_evalb` make of ``text`` (or the limit's message)."""
    try:
        trees = parse_ptb_line(text, name="f.tst", line=3, limits=limits)
    except LimitError as exc:
        return str(exc)
    except UnclosedLineError as exc:  # evalb reads on
        return read_evalb(exc.trees, params, exc.message, exc.unclosed)
    except InputFormatError as exc:
        return read_evalb((), params, exc.message)
    return read_evalb(trees, params)


def _in_one_pass(text: str, params: EvalbParams, limits: Limits) -> EvalbReading | str:
    try:
        return evalb_line_reader(params, limits)(text, "f.tst", 3)
    except LimitError as exc:
        return str(exc)


@given(
    st.lists(st.tuples(LINE_ATOMS, SPACES), max_size=30),
    st.sampled_from([COLLINS, QUOTED]),
    st.sampled_from([Limits(), Limits(depth=3), Limits(tokens=3), Limits(depth=1)]),
)
def test_evalb_line_reader_reads_any_line_as_the_tree_reader_does(
    tokens: list[tuple[str, str]], params: EvalbParams, limits: Limits
) -> None:
    text = "".join(atom + (space or " " if atom not in "()" else space) for atom, space in tokens)
    assert _in_one_pass(text, params, limits) == _by_trees(text, params, limits)


@given(st.lists(ptb_tree(), min_size=1, max_size=3), st.sampled_from([COLLINS, QUOTED]))
def test_evalb_line_reader_reads_generated_trees_as_read_evalb(
    trees: list[Tree], params: EvalbParams
) -> None:
    line = write_ptb(numbered(trees)).replace("\n", " ")
    assert _in_one_pass(line, params, Limits()) == _by_trees(line, params, Limits())


@pytest.mark.parametrize(
    "line",
    [
        "(S (NP (DT the) (NN dog)) (VP (VBD ran)))",
        "( (S (NP-SBJ (NNP Pierre) (NNP Vinken) ) (, ,) (VP (VBZ is) (NP (-NONE- *T*-1))) (. .)) )",
        "(S (NP (NNS investors) (POS ')) (VP (VBD said) (`` ``) (S (NP x) ('' ''))))",
        "(P this) (Q is)",
        "(NN alone)",
        "(S (X) () (NN a))",
        "(S (NP a b) (VP c))",  # evalb cannot read it: a word beside another child
        "(S (NP a)",
        "word (S a)",
        "",
    ],
)
@pytest.mark.parametrize("params", [COLLINS, QUOTED])
def test_evalb_line_reader_on_known_lines(line: str, params: EvalbParams) -> None:
    assert _in_one_pass(line, params, Limits()) == _by_trees(line, params, Limits())


def test_evalb_line_reader_keeps_the_limits_and_their_messages() -> None:
    deep = "(A (B (C (D x))))"
    assert _in_one_pass(deep, COLLINS, Limits(depth=2)).endswith(  # type: ignore[union-attr]
        "tree is more than 2 brackets deep (limit 2; raise with --max-depth or EVALCORE_MAX_DEPTH)"
    )
    assert _in_one_pass("(S (A x) (B y) (C z))", COLLINS, Limits(tokens=2)) == _by_trees(
        "(S (A x) (B y) (C z))", COLLINS, Limits(tokens=2)
    )
    assert "f.tst:3:" in str(_in_one_pass(deep, COLLINS, Limits(depth=2)))


# ---------------------------------------------------------------------------
# The count-only path of evalcore parseval (evalb_line_reader in its counting mode, parseval_rows) against
# evalb_line_reader + massage + compare_readings (parseval_lines)

EQUAL = replace(COLLINS, eq_labels=(("ADVP", "PRT"), ("X", "NP")), delete_labels_for_length=("-NONE-", ","))
CONFIGS = [
    ParsevalConfig(COLLINS),
    ParsevalConfig(QUOTED),
    ParsevalConfig(EQUAL),
    ParsevalConfig(replace(COLLINS, labeled=False)),
    ParsevalConfig(COLLINS, drop_unlabeled_root=True),
    ParsevalConfig(COLLINS, function_separators=""),
    ParsevalConfig(replace(COLLINS, delete_labels_for_length=("-NONE-", "X"))),  # a kept tag
]


def _count_reading(text: str, config: ParsevalConfig, limits: Limits) -> object:
    labels: dict[str, str | None] = {}
    classes = {"ADVP": "ADVP", "PRT": "ADVP", "X": "NP", "NP": "NP"} if config.params.eq_labels else {}

    def scored(raw: str) -> str | None:
        labels[raw] = None
        kept = massage(
            EvalbReading(("w",), ("T",), (RawBracket(0, 1, raw, -1),), (), 1), config
        )  # what the massage makes of one bracket with this label
        if not kept:
            return None
        return classes.get(kept[0].label, kept[0].label) if config.params.labeled else ""

    got = evalb_line_reader(config.params, limits, count=scored)(text)
    if got is None:
        return None
    kept, keys, length = got  # kept preterminals as "TAG word": split here into words and tags
    assert all(p.count(" ") == 1 for p in kept)
    return [p.partition(" ")[2] for p in kept], [p.partition(" ")[0] for p in kept], keys, length


def _check_count_reading(text: str, config: ParsevalConfig, limits: Limits) -> None:
    got = _count_reading(text, config, limits)
    full = _by_trees(text, config.params, limits)
    if got is None:
        return  # read by evalb_line_reader: the equivalences above
    assert isinstance(full, EvalbReading) and not full.error
    classes = {"PRT": "ADVP", "X": "NP"} if config.params.eq_labels else {}
    expected = sorted(
        (b.start, b.end, classes.get(b.label, b.label) if config.params.labeled else "")
        for b in massage(full, config)
    )
    words, tags, keys, length = got  # type: ignore[misc]
    assert (tuple(words), tuple(tags), sorted(keys), length) == (
        full.words,
        full.tags,
        expected,
        full.length,
    )


@given(
    st.lists(st.tuples(LINE_ATOMS, SPACES), max_size=30),
    st.sampled_from(CONFIGS),
    st.sampled_from([Limits(), Limits(depth=3), Limits(tokens=3), Limits(depth=1)]),
)
def test_count_reader_reads_any_line_as_evalb_line_reader_and_massage(
    tokens: list[tuple[str, str]], config: ParsevalConfig, limits: Limits
) -> None:
    text = "".join(atom + (space or " " if atom not in "()" else space) for atom, space in tokens)
    _check_count_reading(text, config, limits)


@given(st.lists(ptb_tree(), min_size=1, max_size=3), st.sampled_from(CONFIGS))
def test_count_reader_reads_generated_trees_as_evalb_line_reader_and_massage(
    trees: list[Tree], config: ParsevalConfig
) -> None:
    line = write_ptb(numbered(trees)).replace("\n", " ")
    assert _count_reading(line, config, Limits()) is not None  # a generated tree is read in one pass
    _check_count_reading(line, config, Limits())
    glued = line.replace("( (", "((").replace(" (", "(")  # "((S", "(S(NP": the same reading
    assert _count_reading(glued, config, Limits()) == _count_reading(line, config, Limits())


def test_count_reader_reads_a_wsj_line_and_declines_what_it_cannot_read() -> None:
    config = ParsevalConfig(COLLINS)
    line = "( (S (NP-SBJ (NNP Pierre) (NNP Vinken) ) (, ,) (VP (VBZ is) (NP (-NONE- *T*-1))) (. .)) )"
    words, tags, keys, length = _count_reading(line, config, Limits())  # type: ignore[misc]
    # hand count: "," "." and -NONE- are DELETE_LABELs; NP over the trace is empty and dropped
    assert (words, tags, length) == (["Pierre", "Vinken", "is"], ["NNP", "NNP", "VBZ"], 5)
    assert sorted(keys) == [(0, 2, "NP"), (0, 3, ""), (0, 3, "S"), (2, 3, "VP")]
    # a kept tag that does not count for the length (hand count: "," "is" "." of the five)
    for_length = ParsevalConfig(replace(COLLINS, delete_labels_for_length=("-NONE-", "NNP")))
    assert _count_reading(line, for_length, Limits())[3] == 3  # type: ignore[index]
    for bad in ["(S (NP a b) (VP c))", "(S (NP a)", "(S (NP a)))", "word (S a)", "( NP (NN a))"]:
        assert _count_reading(bad, config, Limits()) is None
    # as many ")" as "(", but a word outside a preterminal, or an empty bracket: declined too
    for bad in ["(S (NP a (NN b))))", "(S (X ) (NN a))))", "(S (A x) y (B z)))"]:
        assert _count_reading(bad, config, Limits()) is None
    # glued brackets: one bracket per "(" (hand count: the outer "" and S over the word)
    for glued, brackets in [
        ("((S (NN a)))", [(0, 1, ""), (0, 1, "S")]),
        ("(S(NP (NN a)))", [(0, 1, "NP"), (0, 1, "S")]),
    ]:
        words, tags, keys, length = _count_reading(glued, config, Limits())  # type: ignore[misc]
        assert (words, tags, sorted(keys), length) == (["a"], ["NN"], brackets, 1)
    for glued in ["((S (NN a)))", "(S(NP (NN a)))", "((S(NP-SBJ (NN a))(VP (VBD b))))"]:
        _check_count_reading(glued, config, Limits())
    # written otherwise than "(TAG word)" and "(LABEL ": read by evalb_line_reader (the same reading)
    for odd in [
        "(S (NN  a))",
        "(S (NN\ta))",
        "(S (X) (NN a))",
        "(S (X  ) (NN a))",
    ]:
        assert _count_reading(odd, config, Limits()) is None
        assert not evalb_line_reader(COLLINS)(odd, "f", 1).error
    # evalb reads no further than "(NN a " and "( NN" (a word not closed at once): error sentences
    for bad, word in [("(S (NN a ))", "a"), ("(S ( NN a))", "NN")]:
        assert _count_reading(bad, config, Limits()) is None
        assert (
            evalb_line_reader(COLLINS)(bad, "f", 1).error
            == f"more than two elements in a bracket (word '{word}')"
        )
    # "((S" is two brackets: here one "(" too many, which only the bracket count shows
    assert _count_reading("((S (NN a))", config, Limits()) is None
    assert evalb_line_reader(COLLINS)("((S (NN a))", "f", 1).read_errors == (UNBALANCED,)
    assert _count_reading("(A (B (C (D x))))", config, Limits(depth=4)) is None  # near the limit
    assert _count_reading("(S (A x) (B y) (C z))", config, Limits(tokens=2)) is None
    # a quote terminal: read (its repair needs words of another count, which parseval_rows compares
    # on evalb_line_reader's readings)
    quoted = "(S (NP (NNS investors) (POS ')) (VP (VBD said)))"
    assert _count_reading(quoted, ParsevalConfig(QUOTED), Limits()) == _count_reading(
        quoted, config, Limits()
    )
    _check_count_reading(quoted, ParsevalConfig(QUOTED), Limits())


def _rows_and_lines(
    gold: list[str], test: list[str], config: ParsevalConfig, limits: Limits = DEFAULT
) -> tuple[object, object]:
    """What each path makes of two files: (rows, scores, problems) or the error's text."""

    def numbered_lines(texts: list[str]) -> list[tuple[int, str]]:
        return list(enumerate(texts, start=1))

    rows: list[SentenceRow] = []
    try:
        r = parseval_rows(
            numbered_lines(gold),
            numbered_lines(test),
            config,
            names=("g", "t"),
            limits=limits,
            on_row=rows.append,
        )
        fast: object = (rows, r.all, r.cutoff, r.sentences)
    except (InputFormatError, LimitError, MismatchError) as exc:
        fast = str(exc)
    old: list[SentenceRow] = []
    read = evalb_line_reader(config.params, limits)

    def lines(texts: list[str], name: str) -> Iterator[EvalbLine]:
        for k, text in enumerate(texts, start=1):
            yield EvalbLine(k, read(text, name, k), name)

    try:
        s = parseval_lines(
            lines(gold, "g"),
            lines(test, "t"),
            config,
            keep_sentences=False,
            on_sentence=lambda c: old.append(row_of(c)),
        )
        slow: object = (old, s.all, s.cutoff, s.sentences)
    except (InputFormatError, LimitError, MismatchError) as exc:
        slow = str(exc)
    return fast, slow


LINE_OR_TREE = st.one_of(
    st.lists(ptb_tree(), min_size=1, max_size=2).map(lambda ts: write_ptb(numbered(ts)).replace("\n", " ")),
    st.lists(st.tuples(LINE_ATOMS, SPACES), max_size=20).map(
        lambda toks: "".join(a + (s or " " if a not in "()" else s) for a, s in toks)
    ),
)


@given(
    st.lists(st.tuples(LINE_OR_TREE, LINE_OR_TREE, st.booleans()), max_size=6),
    st.sampled_from(CONFIGS),
    st.integers(0, 2),
    st.integers(0, 2),
    st.sampled_from([Limits(), Limits(depth=4)]),
)
def test_parseval_rows_counts_as_parseval_lines(
    pairs: list[tuple[str, str, bool]],
    config: ParsevalConfig,
    max_error: int,
    extra: int,
    limits: Limits,
) -> None:
    config = replace(config, params=config.params.with_overrides(max_error=max_error, cutoff_len=3))
    gold = [g for g, _, _ in pairs]
    test = [g if same else t for g, t, same in pairs]  # same lines: the ok sentences are common
    for k in range(extra):  # one file longer than the other
        (gold if k % 2 else test).append("(S (NN a))")
    fast, slow = _rows_and_lines(gold, test, config, limits)
    assert fast == slow


def test_parseval_rows_on_the_wsj_sample_as_parseval_lines(tmp_path: Path) -> None:
    data = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
    if not (data / "ptb_wsj_sample").is_dir():
        pytest.skip("the WSJ sample is not shipped")
    from wsj_perturb import write_pair

    gold_file, test_file = write_pair(data, tmp_path, 1)  # the pair the reference-tool test uses
    gold = gold_file.read_text(encoding="utf-8").splitlines()[:300]
    test = test_file.read_text(encoding="utf-8").splitlines()[:300]
    for config in CONFIGS:
        fast, slow = _rows_and_lines(gold, test, config)
        assert fast == slow
        assert isinstance(fast, tuple) and fast[1].counts.matched > 0


def test_parseval_rows_refuses_what_it_does_not_compute() -> None:
    odd = ParsevalConfig(replace(COLLINS, eq_labels=(("A", "B"), ("B", "C"))))  # A~B, B~C, not A~C
    assert not rows_supported(odd)
    assert not rows_supported(ParsevalConfig(COLLINS, collapse_unary=True))
    assert rows_supported(ParsevalConfig(EQUAL))
    with pytest.raises(ValueError, match="rows_supported"):
        parseval_rows([], [], odd)


def test_count_reader_gaps_that_only_close_only_open_or_hold_a_counted_deleted_word() -> None:
    # hand count, COLLINS.prm: "," is a DELETE_LABEL that counts for the length, -NONE- one that
    # does not; the gap ") (, ,) (VP " closes NP, holds the comma and opens VP; ")) " only closes
    line = "(S (NP (DT a) (NN b)) (, ,) (VP (VB c) (NP (-NONE- *))) (ADVP (RB d)))"
    words, tags, keys, length = _count_reading(line, ParsevalConfig(COLLINS), Limits())  # type: ignore[misc]
    assert (words, tags, length) == (["a", "b", "c", "d"], ["DT", "NN", "VB", "RB"], 5)
    assert keys == [(0, 2, "NP"), (2, 3, "VP"), (3, 4, "ADVP"), (0, 4, "S")]


def test_kept_preterminals_split_where_the_sides_differ() -> None:
    # hand count: DELETE_LABEL_FOR_LENGTH NN leaves NNS counted ("NN " is the prefix, not "NN");
    # four words, NN one of them: length 3
    short = ParsevalConfig(replace(COLLINS, delete_labels_for_length=("-NONE-", "NN")))
    line = "(S (NP (DT a) (NN b) (NNS c)) (VP (VB d)))"
    assert _count_reading(line, short, Limits())[3] == 3  # type: ignore[index]
    # a word that differs: the pair leaves the counting path ("Words unmatch", one error); a tag
    # that differs costs one tag (3 of 4), EQ_LABEL ADVP PRT none
    rows: list[SentenceRow] = []
    other_word = line.replace("(NN b)", "(NN x)")
    parseval_rows(
        [(1, line), (2, line)],
        [(1, other_word), (2, line.replace("(NN b)", "(JJ b)"))],
        ParsevalConfig(COLLINS),
        on_row=rows.append,
    )
    assert [(r.status, r.words, r.correct_tags) for r in rows] == [(1, 0, 0), (0, 4, 3)]
