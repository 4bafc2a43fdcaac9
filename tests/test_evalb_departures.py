"""evalcore against evalb and the FREVAL tool on inputs that users' files contain and evalb's sample
does not: a line that lost a ``)``, ``(ROOT ...)`` trees, Unicode spaces inside a word, ``(X )``.

Every expected value here was printed by a reference tool (``tests/fixtures/reference/departures/``,
made by ``scripts/make_reference_fixtures.py --only-departures``; the command behind each file is in
its ``COMMANDS.txt``): ``evalb2000`` (evalb 2006 with 2,000-word limits, the build of
``../shared/data/evalb/departures``) and the FREVAL Java tool.  The four reproducers of
``../shared/data/evalb/departures`` are copied there with evalb's output as it was made.

* ``evalcore parseval`` prints evalb's standard output byte for byte, and its error lines carry
  evalb's messages, sentence by sentence;
* so does every reader of the evalb path: the command's count-only path
  (:func:`~evalcore.metrics.parseval.parseval_rows`), :func:`~evalcore.formats.evalb.read_evalb_lines`
  (one pass over each line), :func:`~evalcore.formats.ptb.read_ptb_sentences` then
  :func:`~evalcore.formats.evalb.read_evalb` (trees), and :func:`evalcore.parseval`;
* ``evalcore freval`` gives evalb's sentence counts, and at size 1 evalb's totals; where the FREVAL
  tool counts otherwise the test says what it prints (docs/freval.md).

The inputs on which evalb reads outside its line or its stack, or stops, are pinned as the known
differences they are (docs/freval.md, "Inputs evalb's sample does not have").
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from ec_support import ASSETS, DATA

import evalcore
from evalcore.cli import main
from evalcore.formats.evalb import read_evalb_lines
from evalcore.formats.prm import read_prm
from evalcore.formats.ptb import detect_layout, read_ptb_sentences
from evalcore.metrics.parseval import ParsevalConfig, parseval_corpus, parseval_lines
from evalcore.report.parseval import format_evalb_report

DEP = Path(__file__).resolve().parent / "fixtures" / "reference" / "departures"
VAR = DEP / "variations"
PRMS = {
    "COLLINS.prm": ASSETS / "evalb" / "COLLINS.prm",
    "new.prm": ASSETS / "evalb" / "new.prm",
    "sample.prm": ASSETS / "evalb" / "sample" / "sample.prm",
    "collins_delete_root.prm": DEP.parent / "prm" / "collins_delete_root.prm",
}
REPRODUCERS = ("first_line_unbalanced", "root_label", "nbsp_word", "empty_word")
# evalb reads outside its stack (a ")" too many), stops (a word ")" does not close at once; MAX_ERROR),
# or reads past the end of the line into its stale buffer (a line ending with "(LABEL" after a longer one)
KNOWN = (
    "too_many_close",
    "word_not_closed",
    "unbalanced_max_error",
    "unbalanced_label_at_end_stale",
    "bom_test",
)


def _commands() -> dict[str, tuple[str, list[str]]]:
    """Per evalb2000 run: its parameter file's name and its options, from COMMANDS.txt."""
    out: dict[str, tuple[str, list[str]]] = {}
    lines = (DEP / "COMMANDS.txt").read_text(encoding="utf-8").splitlines()
    for head, cmd in itertools.pairwise(lines):
        m = re.match(r"departures/(.+?)(?:/evalb2000)?\.stdout, \.stderr, \.rc:$", head)
        if m and "evalb2000" in cmd and not m.group(1).endswith(".freval"):
            argv = cmd.split()
            prm = Path(argv[argv.index("-p") + 1]).name
            options = argv[argv.index("-p") + 2 : -2]
            out[m.group(1).removeprefix("variations/")] = (prm, options)
    return out


COMMANDS = _commands()


def _case(name: str) -> tuple[Path, Path, Path]:
    """gold, test and the stem of evalb's outputs."""
    if name in REPRODUCERS:
        return DEP / name / "gold.txt", DEP / name / "test.txt", DEP / name / "evalb2000"
    return VAR / f"{name}.gold", VAR / f"{name}.test", VAR / name


def _evalb(name: str) -> tuple[str, str, int]:
    stem = _case(name)[2]
    read = Path(f"{stem}.stdout").read_bytes().decode("utf-8")
    err = Path(f"{stem}.stderr").read_bytes().decode("utf-8")
    return read, err, int(Path(f"{stem}.rc").read_text())


def _argv(name: str) -> list[str]:
    gold, test, _ = _case(name)
    prm, options = COMMANDS[name]
    return ["parseval", str(gold), str(test), "--prm", str(PRMS[prm]), *_max_error(options)]


def _max_error(options: list[str]) -> list[str]:
    return ["--max-error", options[options.index("-e") + 1]] if "-e" in options else []


def _messages(stderr: str) -> dict[int, list[str]]:
    """evalb's ``LINE : message`` lines, by line."""
    out: dict[int, list[str]] = {}
    for line in stderr.splitlines():
        m = re.match(r"^(\d+) : (.*)$", line)
        if m:
            out.setdefault(int(m.group(1)), []).append(m.group(2))
    return out


def _our_messages(stderr: str) -> dict[int, list[str]]:
    """evalcore's ``error: GOLD:LINE: sentence N: m1; m2`` lines, by line (evalcore's own words on a
    skip sentence left out: evalb says nothing there)."""
    out: dict[int, list[str]] = {}
    for line in stderr.splitlines():
        m = re.match(r"^(?:error|skip): .*?:(\d+): sentence \d+: (.*)$", line)
        if m:
            said = [x for x in m.group(2).split("; ") if x != "no words in the test sentence"]
            if said:
                out[int(m.group(1))] = said
    return out


COMPARED = [n for n in COMMANDS if n not in KNOWN]


def test_every_fixture_is_compared_or_a_known_difference() -> None:
    assert len(COMMANDS) == 4 + len(list(VAR.glob("*.gold")))
    assert set(REPRODUCERS) <= set(COMPARED)
    assert set(KNOWN) <= set(COMMANDS)


@pytest.mark.parametrize("name", COMPARED)
def test_parseval_prints_evalbs_report_and_messages(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    out, err, rc = _evalb(name)
    assert rc == 0
    capsys.readouterr()
    assert main(_argv(name)) == 0
    ours = capsys.readouterr()
    assert ours.out.splitlines() == out.splitlines()  # a readable diff first
    assert ours.out == out
    assert _our_messages(ours.err) == _messages(err)


@pytest.mark.parametrize("name", REPRODUCERS)
def test_the_reproducers_output_as_shared(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``evalb.out`` as ``../shared/data/evalb/departures`` has it: evalb's standard output, with its
    standard error lines before it and a last line ``evalb rc=0`` in first_line_unbalanced."""
    shared = (DEP / name / "evalb.out").read_text(encoding="utf-8")
    stdout = "".join(x for x in shared.splitlines(keepends=True) if not re.match(r"^\d+ : |^evalb rc=", x))
    capsys.readouterr()
    assert main(_argv(name)) == 0
    ours = capsys.readouterr()
    assert ours.out == stdout
    said = [x.split(" : ", 1)[1] for x in shared.splitlines() if re.match(r"^\d+ : ", x)]
    assert [m for ms in _our_messages(ours.err).values() for m in ms] == (
        said or _flat(_messages(_evalb(name)[1]))
    )


def _flat(messages: dict[int, list[str]]) -> list[str]:
    return [m for _, ms in sorted(messages.items()) for m in ms]


@pytest.mark.parametrize("name", COMPARED)
def test_every_reader_of_the_evalb_path_gives_evalbs_report(name: str) -> None:
    out, _, _ = _evalb(name)
    gold, test, _ = _case(name)
    prm, options = COMMANDS[name]
    params = read_prm(str(PRMS[prm]))
    if "-e" in options:
        params = params.with_overrides(max_error=int(options[options.index("-e") + 1]))
    config = ParsevalConfig(params)
    by_lines = parseval_lines(
        read_evalb_lines(str(gold), params), read_evalb_lines(str(test), params), config
    )
    assert format_evalb_report(by_lines) == out
    for layout in ("auto", "line"):
        by_trees = parseval_corpus(
            read_ptb_sentences(str(gold), layout=layout), read_ptb_sentences(str(test), layout=layout), config
        )
        assert format_evalb_report(by_trees) == out, layout
    api = evalcore.parseval(str(gold), str(test), prm=PRMS[prm], max_error=params.max_error)
    assert format_evalb_report(api) == out


def _evalb_counts(report: str) -> tuple[tuple[int, int, int, int], tuple[int, int, int] | None]:
    """evalb's ``-- All --`` sentence counts and its total line's matched, gold and test brackets."""
    counts = tuple(
        int(re.search(rf"^Number of {k}\s*=\s*(\d+)$", report, re.M).group(1))  # type: ignore[union-attr]
        for k in ("sentence", "Error sentence", "Skip  sentence", "Valid sentence")
    )
    total = report.split("=" * 76 + "\n")[2].split("\n", 1)[0].split()
    brackets = (int(total[2]), int(total[3]), int(total[4])) if len(total) > 5 else None
    return (counts[0], counts[1], counts[2], counts[3]), brackets


@pytest.mark.parametrize("name", COMPARED)
def test_freval_counts_evalbs_sentences_and_at_size_1_its_brackets(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _, _ = _evalb(name)
    sentences, brackets = _evalb_counts(out)
    argv = ["freval", *_argv(name)[1:], "--max-size", "1", "--format", "json"]
    capsys.readouterr()
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["sentences"], data["errors"], data["skipped"], data["valid"]) == sentences
    size1 = {r["size"]: (r["matched"], r["gold"], r["test"]) for r in data["per_size"]}[1]
    assert size1 == (brackets or (0, 0, 0))


# ---------------------------------------------------------------------------
# the two reproducers' numbers, and the layout of a file whose first line is broken


def test_first_line_unbalanced_is_read_line_by_line_and_scored_as_evalb() -> None:
    gold, test, _ = _case("first_line_unbalanced")
    assert detect_layout(str(test)) == "line"  # the file's first tree does not close on its line
    result = evalcore.parseval(str(gold), str(test))
    s = result.sentences[0]
    # evalb's line "1  2  1  50.00  50.00  2  4  4  0  2  2  100.00": the outer bracket never ends
    assert (s.status, s.scored, s.matched, len(s.gold), len(s.test), s.words, s.correct_tags) == (
        "error", True, 2, 4, 4, 2, 2,
    )  # fmt: skip
    assert (result.all.counts.sentences, result.all.counts.errors, result.all.counts.valid) == (3, 1, 2)


def test_root_follows_the_parameter_file_and_delete_root_is_delete_label_root(
    capsys: pytest.CaptureFixture[str],
) -> None:
    gold, test, _ = _case("root_label")
    r = evalcore.parseval(str(gold), str(test))
    assert round(100 * r.all.f1, 2) == 88.89  # evalb.out: recall 80.00, precision 100.00, F 88.89
    assert "|root:prm|" in r.signature
    # --delete-root = COLLINS.prm with DELETE_LABEL ROOT, which evalb printed (root_delete_label)
    capsys.readouterr()
    assert main(["parseval", str(gold), str(test), "--delete-root"]) == 0
    assert capsys.readouterr().out == _evalb("root_delete_label")[0]
    assert "|root:delete|" in evalcore.parseval(str(gold), str(test), delete_root=True).signature


# ---------------------------------------------------------------------------
# the known differences, pinned


def test_a_close_bracket_too_many_is_an_error_sentence_without_numbers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """evalb pops its empty stack (reading ``stack[-1]``, before the array: C's undefined behaviour;
    in these builds a zero, so the sentence's first bracket gets the end), says "too many open
    bracket" at the end and prints the numbers; evalcore prints the zero line, with the same totals."""
    out, err, _ = _evalb("too_many_close")
    assert (
        out.splitlines()[3] == "   1    2    1   75.00  75.00     3      4    4      0      2     2   100.00"
    )
    assert err == "1 : Bracketing is unbalanced (too many open bracket)\n"
    capsys.readouterr()
    assert main(_argv("too_many_close")) == 0
    ours = capsys.readouterr()
    assert (
        ours.out.splitlines()[3]
        == "   1    2    1    0.00   0.00     0      0    0      0      0     0     0.00"
    )
    assert (
        ours.out.splitlines()[:3] + ours.out.splitlines()[4:] == out.splitlines()[:3] + out.splitlines()[4:]
    )
    assert "cannot read test line: unbalanced brackets (too many ')')" in ours.err


def test_a_word_not_closed_at_once_stops_evalb_and_is_an_error_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, err, rc = _evalb("word_not_closed")  # "(NN a )"
    assert rc == 1 and out.count("\n") == 3  # the header only
    assert err.splitlines()[:2] == ["1 : More than two elements in a bracket", "1 : Reading sentence"]
    capsys.readouterr()
    assert main(_argv("word_not_closed")) == 0
    ours = capsys.readouterr()
    assert "sentence 1: cannot read test line: more than two elements in a bracket (word 'a')" in ours.err
    assert "Number of Error sentence  =      1" in ours.out


def test_a_byte_order_mark_stops_evalb_and_evalcore_drops_it(capsys: pytest.CaptureFixture[str]) -> None:
    """evalb reads the BOM's bytes as text before the first "(" ("Reading sentence") and loops until
    MAX_ERROR stops it (exit 1, no report); evalcore drops a BOM at the start of any file and prints
    the report of the file without it (two valid sentences)."""
    out, err, rc = _evalb("bom_test")
    assert rc == 1 and out.count("\n") == 3 and set(err.splitlines()) == {"1 : Reading sentence"}
    capsys.readouterr()
    assert main(_argv("bom_test")) == 0
    ours = capsys.readouterr()
    assert "Number of Valid sentence  =      2" in ours.out and ours.err == ""


def test_max_error_counts_evalbs_messages(capsys: pytest.CaptureFixture[str]) -> None:
    """Two messages a line (unbalanced, then Length unmatch) and -e 2: evalb stops at its 4th message,
    on line 2, after printing line 1 (exit 1); evalcore stops there too, naming line 2 (exit 2)."""
    out, err, rc = _evalb("unbalanced_max_error")
    assert rc == 1 and out.splitlines()[3:] == [
        "   1    2    1    0.00   0.00     0      0    0      0      0     0     0.00"
    ]
    assert list(_messages(err)) == [1, 2]
    capsys.readouterr()
    assert main(_argv("unbalanced_max_error")) == 2
    assert "unbalanced_max_error.gold:2: 4 errors" in capsys.readouterr().err


def test_a_line_ending_with_a_label_makes_evalb_read_its_stale_buffer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """ "(TOP (PP" after a longer line: evalb reads past the end of the line into what its 5,000-byte
    buffer still holds and finds two words there (length 2); evalcore reads none (length 0).  Both
    make the sentence an error; the totals are the same."""
    out, err, _ = _evalb("unbalanced_label_at_end_stale")
    assert (
        out.splitlines()[4] == "   2    2    1    0.00   0.00     0      0    0      0      0     0     0.00"
    )
    assert _messages(err)[2] == ["Bracketing is unbalanced (too many open bracket)", "Length unmatch (2|3)"]
    capsys.readouterr()
    assert main(_argv("unbalanced_label_at_end_stale")) == 0
    ours = capsys.readouterr()
    assert (
        ours.out.splitlines()[4]
        == "   2    0    1    0.00   0.00     0      0    0      0      0     0     0.00"
    )
    assert _our_messages(ours.err)[2] == [
        "More than two elements in a bracket",
        "Bracketing is unbalanced (too many open bracket)",
        "Length unmatch (0|3)",
    ]
    assert ours.out.split("=" * 76)[2:] == out.split("=" * 76)[2:]  # the totals


# ---------------------------------------------------------------------------
# the FREVAL tool on the same inputs (sizes up to 4, COLLINS.prm): what it prints, against evalcore


def _tool(name: str) -> tuple[tuple[int, int, int, int], dict[int, tuple[int, int, int]], str]:
    """The tool's '=== Summary (All) ===' sentence counts and per-size counts, and its stderr."""
    stem = DEP / name / "freval" if name in REPRODUCERS else VAR / f"{name}.freval"
    text = Path(f"{stem}.stdout").read_text(encoding="utf-8")
    block = text.split("=== Summary (All) ===")[1].split("=== Summary (len")[0]
    counts = tuple(
        int(re.search(rf"^Number of {k}\s*=\s*(\d+)$", block, re.M).group(1))  # type: ignore[union-attr]
        for k in ("sentence", "Error sentence", "Skip  sentence", "Valid sentence")
    )
    rows = {
        int(m.group(1)): (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        for m in re.finditer(r"^\s+(\d+)(?:\s+(?:[\d.]+|NaN)){4}\s+(\d+)\s+(\d+)\s+(\d+)$", block, re.M)
    }
    return (
        (counts[0], counts[1], counts[2], counts[3]),
        rows,
        Path(f"{stem}.stderr").read_text(encoding="utf-8"),
    )


def _ours(name: str) -> tuple[tuple[int, int, int, int], dict[int, tuple[int, int, int]]]:
    gold, test, _ = _case(name)
    r = evalcore.freval(str(gold), str(test), max_size=4)
    c = r.counts
    rows = {s.size: (s.matched, s.gold, s.test) for s in r.score.per_size if s.gold and s.test}
    return (c.sentences, c.errors, c.skipped, r.score.valid), rows


def test_freval_tool_agrees_on_root_nbsp_and_empty_words() -> None:
    for name in ("root_label", "nbsp_word", "empty_word"):
        counts, rows, _ = _tool(name)
        assert _ours(name) == (counts, rows), name
    assert _tool("root_label")[1] == {1: (4, 5, 4), 2: (2, 4, 3), 3: (1, 4, 3), 4: (0, 3, 1)}


def test_freval_tool_drops_a_pair_whose_line_it_cannot_read() -> None:
    """The tool throws on the unbalanced line, counts a processing error and goes on with the next
    pair: 2 sentences, no error; evalcore counts evalb's 3 sentences and 1 error."""
    counts, rows, err = _tool("first_line_unbalanced")
    assert counts == (2, 0, 0, 2) and "Bracketing is unbalanced (too many open brackets)" in err
    assert _ours("first_line_unbalanced") == ((3, 1, 0, 2), rows)
    counts, _, _ = _tool("unbalanced_middle")
    assert counts == (2, 0, 0, 2)
    assert _ours("unbalanced_middle")[0] == (3, 1, 0, 2)


def test_freval_tool_differs_on_a_phrasal_none_and_an_empty_bracket() -> None:
    """``(NP (-NONE- (NN fuel)))``: evalb cuts the label ``-NONE-`` at its first ``-`` and scores an
    unlabeled bracket (9 test brackets); the tool deletes it (8).  ``(X)`` in the gold and ``()`` in
    the test: evalb drops brackets over no word; the tool takes each for a word ("Words unmatch (X|a)")."""
    counts, rows, _ = _tool("phrasal_none")
    assert (counts, rows[1]) == ((2, 0, 0, 2), (8, 8, 8))
    assert _ours("phrasal_none")[1][1] == (8, 8, 9) == _evalb_counts(_evalb("phrasal_none")[0])[1]
    counts, rows, _ = _tool("empty_bracket")
    assert counts == (2, 1, 0, 1)
    assert "1 : Words unmatch (X|a)" in Path(VAR / "empty_bracket.freval.stderr").read_text(encoding="utf-8")
    assert _ours("empty_bracket")[0] == (2, 0, 0, 2) == _evalb_counts(_evalb("empty_bracket")[0])[0]


def test_freval_tool_gets_out_of_step_on_an_unbalanced_gold_line_and_stops_at_a_blank_one() -> None:
    """The tool reads the gold line first: when it throws, the test line is not read, and each later
    gold line meets the test line before it ("Words unmatch (c|a)"); an empty gold line ends the
    tool's reading.  evalcore counts evalb's sentences."""
    counts, _, err = _tool("unbalanced_gold")
    assert counts == (2, 2, 0, 0) and "2 : Words unmatch (c|a)" in err
    assert _ours("unbalanced_gold")[0] == (3, 1, 0, 2) == _evalb_counts(_evalb("unbalanced_gold")[0])[0]
    counts, _, _ = _tool("blank_gold_line")
    assert counts == (1, 0, 0, 1)
    assert _ours("blank_gold_line")[0] == (3, 1, 0, 2) == _evalb_counts(_evalb("blank_gold_line")[0])[0]


def test_freval_tool_splits_words_on_javas_unicode_spaces() -> None:
    """Java's ``Character.isWhitespace`` is true of U+2009, U+3000, U+1680, U+2028 and U+001C (not of
    U+00A0 nor U+0085): the tool fails to read all four lines; evalb reads them as words."""
    counts, _, err = _tool("unicode_spaces")
    assert counts == (0, 0, 0, 0) and err.count("More than two elements in a bracket") == 4
    assert _ours("unicode_spaces")[0] == (2, 0, 0, 2) == _evalb_counts(_evalb("unicode_spaces")[0])[0]


# ---------------------------------------------------------------------------
# the layout of real files


@pytest.mark.skipif(not DATA.is_dir(), reason=f"shared data folder not found at {DATA}")
def test_pretty_printed_files_whose_first_tree_is_one_line_are_trees() -> None:
    """GUM's .ptb files start with a one-line tree, then pretty-print (once read line by line)."""
    gum = DATA / "gum" / "const" / "GUM_bio_dvorak.ptb"
    assert gum.read_text(encoding="utf-8").splitlines()[0].count("(") == 4
    assert detect_layout(str(gum)) == "tree"
    assert detect_layout(str(DATA / "ptb_wsj_sample" / "combined_mrg" / "wsj_0052.mrg")) == "tree"


# ---------------------------------------------------------------------------
# reader choices (docs/decisions.md): CR-only line ends, a byte-order mark, evalb's -nan in JSON

CONLL18 = DEP / "conll18"


def test_cr_only_line_ends_read_as_the_conll_2018_scorer_reads_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The scorer opens files in text mode (universal newlines): its table on the CR-only copies is
    its table on the LF files; ``evalcore attach --format conll18`` prints that table on both."""
    lf = (CONLL18 / "lf.verbose.txt").read_text(encoding="utf-8")
    assert (CONLL18 / "cr.verbose.txt").read_text(encoding="utf-8") == lf
    for gold, system in (("gold", "system"), ("gold_cr", "system_cr"), ("gold_cr", "system")):
        capsys.readouterr()
        argv = [
            "attach",
            str(CONLL18 / f"{gold}.conllu"),
            str(CONLL18 / f"{system}.conllu"),
            "--format",
            "conll18",
        ]
        assert main(argv) == 0
        assert capsys.readouterr().out == lf, (gold, system)


def test_a_byte_order_mark_is_read_where_the_scorer_refuses_it(capsys: pytest.CaptureFixture[str]) -> None:
    """The scorer takes the BOM for part of the first line and stops (exit 1); evalcore drops it, as
    Python's ``utf-8-sig`` does, and prints the scorer's table of the file without it."""
    assert (CONLL18 / "bom.rc").read_text() == "1\n"
    said = (CONLL18 / "bom.stderr_last_line.txt").read_text(encoding="utf-8")
    assert said.startswith("UDError: The CoNLL-U line does not contain 10 tab-separated columns at line 1")
    assert (CONLL18 / "gold_bom.conllu").read_bytes()[:3] == b"\xef\xbb\xbf"
    capsys.readouterr()
    argv = ["attach", str(CONLL18 / "gold_bom.conllu"), str(CONLL18 / "system.conllu"), "--format", "conll18"]
    assert main(argv) == 0
    assert capsys.readouterr().out == (CONLL18 / "lf.verbose.txt").read_text(encoding="utf-8")


def test_evalbs_nan_f_measure_is_0_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    """No valid sentence: evalb prints ``-nan`` (C's 0/0 on x86-64), and so does evalcore's report;
    the JSON document, which has no NaN, says 0.0 (F1 of recall and precision 0, docs/decisions.md)."""
    out, _, _ = _evalb("empty_word")
    assert "Bracketing FMeasure       =   -nan" in out
    capsys.readouterr()
    assert main([*_argv("empty_word"), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["all"]["recall"], doc["all"]["precision"], doc["all"]["f1"], doc["all"]["valid"]) == (
        0.0,
        0.0,
        0.0,
        0,
    )
    assert evalcore.parseval(*map(str, _case("empty_word")[:2])).all.f1 == 0.0


def test_the_blanks_python_adds_are_part_of_labels_and_words_on_the_count_only_path() -> None:
    """A character ``str.isspace`` takes for a blank and C's ``isspace`` does not (evalb's blanks are
    ``BLANKS``: a no-break space, ...) is part of a label or a word, in the counting mode as in the
    line reader (hand reading of evalb's ``read_line``: it stops a label or word at C's blanks and
    brackets only)."""
    from evalcore.formats._io import BLANKS
    from evalcore.formats.evalb import evalb_line_reader
    from evalcore.formats.prm import COLLINS
    from evalcore.metrics.parseval import label_fate

    odd = [c for c in map(chr, range(0x110000)) if c.isspace() and c not in BLANKS]
    assert len(odd) == 23  # U+001C-001F, U+0085, U+00A0, U+1680, U+2000-200A, U+2028, U+2029, ...
    count = evalb_line_reader(COLLINS, count=label_fate(ParsevalConfig(COLLINS)))
    read = evalb_line_reader(COLLINS)
    for c in odd:
        line = f"( (S{c} (NP{c}X (NN a{c}b)) (VP (VB{c} c) (, ,))))"
        kept, keys, length = count(line)  # type: ignore[misc]
        # hand count: two words; the outer "", S+c over both, NP+c+X over the first, VP over the second
        assert (kept, length) == ([f"NN a{c}b", f"VB{c} c"], 3)
        tags, words = zip(*(p.split(" ") for p in kept), strict=True)
        assert sorted(keys) == [(0, 1, f"NP{c}X"), (0, 2, ""), (0, 2, f"S{c}"), (1, 2, "VP")]
        full = read(line, "f", 1)
        assert (full.words, full.tags, full.length) == (words, tags, length)


def test_a_parameter_file_splits_on_ascii_blanks_only() -> None:
    """evalb reads its parameter file with C's ``isspace`` and ``sscanf("%s %s")``: a no-break space
    is part of a label (hand reading of ``read_parameter_file``/``set_param`` in evalb.c)."""
    from evalcore.formats.prm import parse_prm

    lines = ["DELETE_LABEL NN\u00a0X\u00a0", "EQ_LABEL A\u00a0B C", "EQ_LABEL D\u2009E"]
    p = parse_prm(list(enumerate(lines, start=1)), name="nbsp.prm")
    assert p.delete_labels == ("NN\u00a0X\u00a0",)
    assert p.eq_labels == (("A\u00a0B", "C"),)  # "D\u2009E" is one value: a warning, the line ignored
    assert p.warnings == ("nbsp.prm:3: EQ_LABEL requires two values, line ignored",)


# ---------------------------------------------------------------------------
# the tree layout (pretty-printed files) reads the same words, and the layout is told apart

TREE_READABLE = (
    "root_label",
    "nbsp_word",
    "empty_word_both",
    "empty_label_word",
    "phrasal_none",
    "ascii_blanks",
)
"""Inputs whose every line is a whole tree and no bracket is empty: the tree reader reads them too."""


@pytest.mark.parametrize("name", TREE_READABLE)
def test_the_tree_layout_reads_these_words_as_evalb(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main([*_argv(name), "--input", "tree"]) == 0
    assert capsys.readouterr().out == _evalb(name)[0]


def test_the_tree_reader_reads_empty_words_and_tags_as_evalb() -> None:
    """``(X )``: tag X over the empty word; ``( )``: both empty; ``( X)``: the empty tag over X, also
    across a line break in a pretty-printed tree; ``(X)`` and ``( X )`` have no word there."""
    from evalcore.errors import InputFormatError
    from evalcore.formats.ptb import parse_ptb

    def leaves(text: str) -> list[tuple[str, str]]:
        tree = parse_ptb(text)[0]
        return [
            (n.label, tree.nodes[n.children[0]].label)
            for n in tree.nodes
            if len(n.children) == 1 and tree.nodes[n.children[0]].terminal is not None
        ]

    assert leaves("(S (X ) ( ) ( a) (NN b))") == [("X", ""), ("", ""), ("", "a"), ("NN", "b")]
    assert leaves("(S\n  (X\n  )\n  (NN b))") == [("X", ""), ("NN", "b")]
    for bad in ("(S (X) (NN b))", "(S ( X ) (NN b))"):
        with pytest.raises(InputFormatError, match="has no children"):
            parse_ptb(bad)


@pytest.mark.parametrize(
    ("text", "layout"),
    [
        (b"( (S (NP (NN a) (VP (VB b))) )\n( (S (NP (NN c)) (VP (VB d))) )\n", "line"),  # a broken first line
        (b"(S (NP (DT a)\n  (NN b)\n", "tree"),  # indented inside an open tree (a truncated .mrg)
        (b"(S\n(NP (NN a))\n(VP (VB b)))\n", "tree"),  # not indented, but closes line 1's bracket
        (b"(S (NP (DT a)\n", "tree"),  # one tree, never closed: the tree reader says so
        (b"(S (NN a))\n\n(X a) (X b)\n(S (A (X a))\n", "line"),  # a whole tree on line 1
        (b"(ROOT (NN a))\n\n(ROOT\n  (S (NN b)))\n", "tree"),  # GUM: a one-line tree, then pretty-printed
        (b"word (S (NN a))\n", "line"),  # text before any bracket: a malformed line
    ],
)
def test_layout_detection(text: bytes, layout: str) -> None:
    assert detect_layout(text, name="x") == layout


@pytest.mark.skipif(not DATA.is_dir(), reason=f"shared data folder not found at {DATA}")
def test_gums_root_trees_give_evalbs_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GUM's 320 ``(ROOT ...)`` trees against their seed-1 perturbation (``write_gum_pair``, checked
    against the digests the fixture was made from): ``evalcore parseval`` prints evalb's report
    (F 88.32; with ROOT always deleted, as before, every sentence line differed and F was 87.93)."""
    from wsj_perturb import sha256, write_gum_pair

    gold, test = write_gum_pair(DATA, tmp_path, 1)
    recorded = dict(reversed(x.split()) for x in (DEP / "gum.MANIFEST.txt").read_text().splitlines())
    assert (sha256(gold), sha256(test)) == (recorded["gum.gld"], recorded["gum.1.tst"])
    expected = (DEP / "gum.1.COLLINS_prm.rsl").read_text(encoding="utf-8")
    assert "Bracketing FMeasure       =  88.32" in expected
    capsys.readouterr()
    assert main(["parseval", str(gold), str(test)]) == 0
    assert capsys.readouterr().out == expected
    deleted = evalcore.parseval(str(gold), str(test), delete_root=True)
    assert f"{100 * deleted.all.f1:.2f}" == "87.93"
