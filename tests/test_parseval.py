"""evalb-compatible PARSEVAL (docs/freval.md, "PARSEVAL as evalb computes it"): evalb's own sample, its bug
case, FarPaHC, and the rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evalcore.cli import main
from evalcore.errors import InputFormatError, MismatchError
from evalcore.formats.evalb import read_evalb
from evalcore.formats.prm import COLLINS, EvalbParams, parse_prm, read_prm
from evalcore.formats.ptb import PtbLine, detect_layout, parse_ptb_line, read_ptb_sentences
from evalcore.metrics.parseval import (
    ParsevalConfig,
    compare_sentence,
    massage,
    parseval_corpus,
    strip_functions,
)
from evalcore.report.parseval import format_evalb_report

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets" / "evalb"
SAMPLE = ASSETS / "sample"
DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.exists(), reason=f"shared data folder {DATA} is absent")


def _summary_block(report: str) -> str:
    return report[report.index("=== Summary ===") :]


def _summary_numbers(report: str) -> dict[tuple[str, str], float]:
    """``{("All", "Bracketing Recall"): 87.76, ...}`` from an evalb report."""
    out: dict[tuple[str, str], float] = {}
    block = ""
    for line in _summary_block(report).splitlines():
        m = re.match(r"^-- (.*) --$", line.strip())
        if m:
            block = m.group(1)
            continue
        if "=" in line and block:
            key, value = line.split("=", 1)
            out[(block, key.strip())] = float(value)
    return out


def _run(gold: Path, test: Path, prm: Path | EvalbParams, **kw: object) -> str:
    params = read_prm(prm) if isinstance(prm, Path) else prm
    config = ParsevalConfig(params, **kw)  # type: ignore[arg-type]
    result = parseval_corpus(read_ptb_sentences(gold), read_ptb_sentences(test), config)
    return format_evalb_report(result, "1997")


def _line(text: str, line: int = 1) -> PtbLine:
    return PtbLine(line, parse_ptb_line(text), "", "<t>")


# ---------------------------------------------------------------------------
# evalb's own sample


def test_sample_report_is_evalbs_sample_rsl() -> None:
    expected = (SAMPLE / "sample.rsl").read_text(encoding="utf-8")
    ours = _run(SAMPLE / "sample.gld", SAMPLE / "sample.tst", SAMPLE / "sample.prm")
    assert _summary_block(ours) == _summary_block(expected)
    assert ours == expected  # per-sentence lines too


def test_sample_summary_numbers_from_rsl() -> None:
    expected = _summary_numbers((SAMPLE / "sample.rsl").read_text(encoding="utf-8"))
    params = read_prm(SAMPLE / "sample.prm")
    result = parseval_corpus(
        read_ptb_sentences(SAMPLE / "sample.gld"),
        read_ptb_sentences(SAMPLE / "sample.tst"),
        ParsevalConfig(params),
    )
    c = result.all.counts
    assert c.sentences == expected[("All", "Number of sentence")]
    assert c.errors == expected[("All", "Number of Error sentence")]
    assert c.skipped == expected[("All", "Number of Skip  sentence")]
    assert c.valid == expected[("All", "Number of Valid sentence")]
    assert round(100 * result.all.recall, 2) == expected[("All", "Bracketing Recall")]
    assert round(100 * result.all.precision, 2) == expected[("All", "Bracketing Precision")]
    assert round(100 * result.cutoff.recall, 2) == expected[("len<=40", "Bracketing Recall")]


def test_sample_issue_literals_both_prm_files() -> None:
    ours = _summary_numbers(_run(SAMPLE / "sample.gld", SAMPLE / "sample.tst", SAMPLE / "sample.prm"))
    assert ours[("All", "Bracketing Recall")] == 87.76
    assert ours[("All", "Bracketing Precision")] == 90.53
    new = _summary_numbers(_run(SAMPLE / "sample.gld", SAMPLE / "sample.tst", ASSETS / "new.prm"))
    assert new[("All", "Bracketing Recall")] == 87.23
    assert new[("All", "Bracketing Precision")] == 90.11


def test_cli_prints_evalbs_report(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        [
            "parseval",
            str(SAMPLE / "sample.gld"),
            str(SAMPLE / "sample.tst"),
            "--prm",
            str(SAMPLE / "sample.prm"),
            "--evalb-version",
            "1997",
        ]
    )
    out = capsys.readouterr()
    assert rc == 0
    assert out.out == (SAMPLE / "sample.rsl").read_text(encoding="utf-8")
    assert "sentence 12: Words unmatch (is|was)" in out.err


def test_cli_2006_layout_has_fmeasure(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        ["parseval", str(SAMPLE / "sample.gld"), str(SAMPLE / "sample.tst"), "--prm", str(ASSETS / "new.prm")]
    )
    out = capsys.readouterr().out
    assert rc == 0
    numbers = _summary_numbers(out)
    r, p = numbers[("All", "Bracketing Recall")], numbers[("All", "Bracketing Precision")]
    assert numbers[("All", "Bracketing FMeasure")] == pytest.approx(2 * p * r / (p + r), abs=0.01)


def test_outer_bracket_counts_by_default_and_drop_is_opt_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/freval.md, "FREVAL": evalb counts the outer '( )' (hand count: S, NP, VP + the outer bracket = 4,
    all matched);
    ``--drop-unlabeled-root`` leaves 3; ``--keep-unlabeled-root`` is the default's old name."""
    gold = tmp_path / "g.mrg"
    test = tmp_path / "t.mrg"
    gold.write_text("( (S (NP (N a)) (VP (V b))))\n")
    test.write_text("( (S (NP (N a)) (VP (V b))))\n")

    def run(*opts: str) -> tuple[int, dict[str, object]]:
        capsys.readouterr()
        rc = main(["parseval", str(gold), str(test), "--format", "json", *opts])
        return rc, json.loads(capsys.readouterr().out)

    rc, default = run()
    assert rc == 0 and default["all"]["gold"] == default["all"]["matched"] == 4  # type: ignore[index]
    assert "|outer:keep|" in default["signature"]  # type: ignore[operator]
    rc, dropped = run("--drop-unlabeled-root")
    assert rc == 0 and dropped["all"]["gold"] == dropped["all"]["matched"] == 3  # type: ignore[index]
    assert "|outer:drop|" in dropped["signature"]  # type: ignore[operator]
    rc, kept = run("--keep-unlabeled-root")
    assert rc == 0 and kept == default
    with pytest.raises(SystemExit) as exc:  # the two contradict each other: argparse's usage error
        main(["parseval", str(gold), str(test), "--keep-unlabeled-root", "--drop-unlabeled-root"])
    assert exc.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@needs_data
def test_bug_case_matches_evalb_2006() -> None:
    """evalb's ``bug/`` case: quote re-insertion (``QUOTE_LABEL``) repairs all 5 length mismatches."""
    bug = DATA / "evalb" / "bug"
    params = read_prm(ASSETS / "new.prm")
    result = parseval_corpus(
        read_ptb_sentences(bug / "bug.gld"), read_ptb_sentences(bug / "bug.tst"), ParsevalConfig(params)
    )
    ours = format_evalb_report(result, "2006")
    expected = (bug / "bug.rsl-new").read_text(encoding="utf-8")

    def norm(text: str) -> list[str]:  # the shipped file has its leading blanks stripped
        return [x.strip() for x in text.splitlines() if x.strip()]

    assert norm(_summary_block(ours)) == norm(_summary_block(expected))
    assert norm(ours)[3:8] == norm(expected)[3:8]  # per-sentence lines


# ---------------------------------------------------------------------------
# parameter files


def test_builtin_collins_equals_the_file() -> None:
    assert read_prm(ASSETS / "COLLINS.prm").digest() == COLLINS.digest()


def test_prm_parsing_rules() -> None:
    text = [
        "# comment",
        "",
        "LABELED 0",
        "DELETE_LABEL TOP",
        "DELETE_LABEL_FOR_LENGTH -NONE-",
        "EQ_LABEL ADVP",
        "EQ_WORD a b",
        "FOO bar",
        "CUTOFF_LEN 10   ",
    ]
    p = parse_prm(list(enumerate(text, start=1)), name="x.prm")
    assert not p.labeled
    assert p.delete_labels == ("TOP",)
    assert p.delete_labels_for_length == ("-NONE-",)
    assert p.eq_labels == ()
    assert p.eq_words == (("a", "b"),)
    assert p.cutoff_len == 10
    assert any("EQ_LABEL requires two values" in w for w in p.warnings)
    assert any("unknown keyword 'FOO'" in w for w in p.warnings)
    with pytest.raises(InputFormatError) as err:
        parse_prm([(3, "MAX_ERROR many")], name="bad.prm")
    assert str(err.value).startswith("bad.prm:3: ")


# ---------------------------------------------------------------------------
# extraction rules (evalb README §6, §7)


def _brackets(text: str, params: EvalbParams = COLLINS, **kw: object) -> list[tuple[str, int, int, int]]:
    reading = read_evalb(parse_ptb_line(text), params)
    return [(b.label, b.start, b.end, b.parent) for b in massage(reading, ParsevalConfig(params, **kw))]  # type: ignore[arg-type]


def test_preterminal_deletion_removes_the_word() -> None:
    reading = read_evalb(parse_ptb_line("(S (NP (DT the) (NN dog)) (, ,) (VP (VBZ runs)) (. .))"), COLLINS)
    assert reading.words == ("the", "dog", "runs")
    assert reading.length == 5  # only DELETE_LABEL_FOR_LENGTH words leave the length
    assert _brackets("(S (NP (DT the) (NN dog)) (, ,) (VP (VBZ runs)) (. .))") == [
        ("S", 0, 3, -1),
        ("NP", 0, 2, 0),
        ("VP", 2, 3, 0),
    ]


def test_nonterminal_deletion_keeps_the_children() -> None:
    params = EvalbParams(delete_labels=("VP",))
    assert _brackets("(S (NP (DT a)) (VP (V b) (NP (N c))))", params) == [
        ("S", 0, 3, -1),
        ("NP", 0, 1, 0),
        ("NP", 2, 3, 0),  # re-linked to S
    ]


def test_empty_nodes_removed_recursively() -> None:
    text = "(S (NP-SBJ (-NONE- *)) (VP (VBD left) (SBAR (-NONE- 0) (S (-NONE- *T*-1)))))"
    assert _brackets(text) == [("S", 0, 1, -1), ("VP", 0, 1, 0)]


def test_function_tags_and_indices_stripped() -> None:
    assert strip_functions("NP-SBJ-1") == "NP"
    assert strip_functions("NP=2") == "NP"
    assert strip_functions("NP*SBJ") == "NP*SBJ"  # evalb cuts at '-' and '=' only
    assert strip_functions("NP*SBJ", "-=*") == "NP"
    assert [b[0] for b in _brackets("(S (NP-SBJ-1 (N a)) (VP=2 (V b)))")] == ["S", "NP", "VP"]


def test_root_and_top_follow_the_parameter_file_unless_delete_root() -> None:
    empty = EvalbParams()
    # evalb deletes what DELETE_LABEL names, nothing else (COLLINS.prm: TOP, not ROOT)
    assert [b[0] for b in _brackets("(ROOT (S (A (X a)) (B (X b))))", empty)] == ["ROOT", "S", "A", "B"]
    assert [b[0] for b in _brackets("(ROOT (S (A (X a)) (B (X b))))")] == ["ROOT", "S", "A", "B"]
    assert [b[0] for b in _brackets("(TOP-1 (S (A (X a)) (B (X b))))")] == ["S", "A", "B"]
    # delete_root: ROOT and TOP go whatever the file says (the FREVAL paper's footnote 8)
    for text in ("(ROOT (S (A (X a)) (B (X b))))", "(TOP-1 (S (A (X a)) (B (X b))))"):
        assert [b[0] for b in _brackets(text, empty, delete_root=True)] == ["S", "A", "B"]
    assert ParsevalConfig(empty).signature().split("|")[5] == "root:prm"
    assert ParsevalConfig(empty, delete_root=True).signature().split("|")[5] == "root:delete"
    dropped = _brackets("( (S (A (X a)) (B (X b))))", empty, drop_unlabeled_root=True)
    assert [b[0] for b in dropped] == ["S", "A", "B"]
    # the default, as evalb: the outer '( )' is a bracket with the empty label (docs/freval.md, "Brackets and
    # matching")
    kept = _brackets("( (S (A (X a)) (B (X b))))", empty)
    assert [b[0] for b in kept] == ["", "S", "A", "B"]


def test_multiset_matching_readme_7_5() -> None:
    cfg = ParsevalConfig(EvalbParams())
    c = compare_sentence(_line("(S (NP (NP (N a) (N b))))"), _line("(S (NP (N a) (N b)))"), cfg, 1)
    assert (c.matched, len(c.gold), len(c.test)) == (2, 3, 2)  # n=2 gold NP, m=1 test NP
    c = compare_sentence(_line("(S (NP (N a) (N b)))"), _line("(S (NP (NP (NP (N a) (N b)))))"), cfg, 1)
    assert (c.matched, len(c.gold), len(c.test)) == (2, 2, 4)


def test_eq_label_labeled_and_unlabeled() -> None:
    gold, test = _line("(S (ADVP (R a)) (VP (V b)))"), _line("(S (PRT (R a)) (XP (V b)))")
    assert compare_sentence(gold, test, ParsevalConfig(COLLINS), 1).matched == 2  # S, ADVP=PRT
    unlabeled = COLLINS.with_overrides(labeled=False)
    assert compare_sentence(gold, test, ParsevalConfig(unlabeled), 1).matched == 3


def test_crossing_and_tags() -> None:
    cfg = ParsevalConfig(EvalbParams())
    c = compare_sentence(_line("(S (A (X a)) (B (X b) (X c)))"), _line("(S (A (X a) (Y b)) (X c))"), cfg, 1)
    assert c.crossing == 1
    assert c.correct_tags == 2


def test_quote_reinsertion() -> None:
    """A quote deleted in gold (``) but tagged CD in the test is put back (evalb 2006 fix_quote)."""
    params = read_prm(ASSETS / "new.prm")
    gold = _line('(S (NP (DT a) (`` ") (NN b)) (VP (V c)))')
    test = _line('(S (NP (DT a) (CD ") (NN b)) (VP (V c)))')
    c = compare_sentence(gold, test, ParsevalConfig(params), 1)
    assert c.status == "ok"
    assert c.words == 4
    assert (c.matched, len(c.gold), len(c.test)) == (3, 3, 3)


def test_word_and_length_mismatch_are_errors() -> None:
    cfg = ParsevalConfig(COLLINS)
    c = compare_sentence(_line("(S (A (X a)))"), _line("(S (A (X b)))"), cfg, 1)
    assert (c.status, c.message) == ("error", "Words unmatch (a|b)")
    c = compare_sentence(_line("(S (A (X a)))"), _line("(S (A (X a) (X b)))"), cfg, 1)
    assert (c.status, c.message) == ("error", "Length unmatch (1|2)")
    c = compare_sentence(_line("(S (A (X a)))"), PtbLine(1, ()), cfg, 1)
    assert c.status == "skip"


# ---------------------------------------------------------------------------
# reading files as evalb does


def test_layout_detection(tmp_path: Path) -> None:
    assert detect_layout(SAMPLE / "sample.tst") == "line"
    pretty = tmp_path / "pretty.mrg"
    pretty.write_text("( (S\n    (NP (N a))\n    (VP (V b))))\n( (S (NP (N c)) (VP (V d))))\n")
    assert detect_layout(pretty) == "tree"
    assert [s.line for s in read_ptb_sentences(pretty)] == [1, 4]


def test_line_layout_empty_forest_and_malformed_lines(tmp_path: Path) -> None:
    gold = tmp_path / "g"
    test = tmp_path / "t"
    gold.write_text("(S (A (X a)) (B (X b)))\n" * 4)
    test.write_text("(S (A (X a)) (B (X b)))\n\n(X a) (X b)\n(S (A (X a)) (B (X b))\n")
    result = parseval_corpus(read_ptb_sentences(gold), read_ptb_sentences(test), ParsevalConfig(COLLINS))
    statuses = [s.status for s in result.sentences]
    assert statuses == ["ok", "skip", "ok", "error"]
    forest = result.sentences[2]
    assert (forest.matched, len(forest.gold), len(forest.test)) == (0, 3, 0)
    assert "unbalanced" in result.sentences[3].message


def test_sentence_count_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "g.tst"
    test = tmp_path / "t.tst"
    gold.write_text("(S (A (X a)))\n(S (A (X a)))\n")
    test.write_text("(S (A (X a)))\n")
    with pytest.raises(MismatchError):
        parseval_corpus(read_ptb_sentences(gold), read_ptb_sentences(test))
    assert main(["parseval", str(gold), str(test)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{gold}:2: ")


def test_max_error_stops_like_evalb(tmp_path: Path) -> None:
    gold = tmp_path / "g"
    test = tmp_path / "t"
    for n_err, ok in ((11, True), (12, False)):  # evalb exits at its (MAX_ERROR + 2)-th error
        gold.write_text("(S (A (X a)))\n" * n_err)
        test.write_text("(S (A (X b)))\n" * n_err)
        run = lambda: parseval_corpus(read_ptb_sentences(gold), read_ptb_sentences(test))  # noqa: E731
        if ok:
            assert run().all.counts.errors == n_err
        else:
            with pytest.raises(MismatchError, match="MAX_ERROR is 10"):
                run()
    params = COLLINS.with_overrides(max_error=50)
    assert (
        parseval_corpus(
            read_ptb_sentences(gold), read_ptb_sentences(test), ParsevalConfig(params)
        ).all.counts.errors
        == 12
    )


def test_deep_chain_without_recursion() -> None:
    depth = 1000
    text = "(A " * depth + "(X w)" + ")" * depth
    c = compare_sentence(_line(text), _line(text), ParsevalConfig(EvalbParams()), 1)
    assert (c.matched, len(c.gold)) == (depth, depth)


# ---------------------------------------------------------------------------
# FarPaHC: gold vs Berkeley parser with the .prm its authors used


@needs_data
def test_farpahc_berkeley_split0() -> None:
    d = DATA / "farpahc" / "berkeley_split0"
    params = read_prm(d / "sample.prm.as_used_for_far0eval")
    test = list(read_ptb_sentences(d / "far_split0machineparsed.psd"))
    dropped = ParsevalConfig(params, drop_unlabeled_root=True)
    one = parseval_corpus(read_ptb_sentences(d / "far_split0testing.oneline.psd"), test, dropped)
    pretty = parseval_corpus(read_ptb_sentences(d / "far_split0testing.psd"), test, dropped)
    c = one.all.counts
    assert (c.sentences, c.errors, c.skipped) == (372, 20, 0)  # data README: 20 word-count mismatches
    assert pretty.all.counts == c  # one tree per line or pretty-printed: same sentences, same numbers
    # evalb itself (and our default) counts the outer '( ... )' of both files as one more matched
    # bracket per valid sentence
    kept = parseval_corpus(
        read_ptb_sentences(d / "far_split0testing.oneline.psd"), test, ParsevalConfig(params)
    ).all.counts
    assert (kept.matched, kept.gold, kept.test) == (c.matched + c.valid, c.gold + c.valid, c.test + c.valid)


def test_evalb_row_line_puts_each_number_in_its_column() -> None:
    from evalcore.metrics.parseval import SentenceRow
    from evalcore.report.parseval import evalb_row_line

    # by hand: recall 5/8 = 62.50, precision 5/10 = 50.00, tags 11/12 = 91.67; the 1997 layout
    # prints the gold words (13) and 11/13 = 84.62
    row = SentenceRow(7, 12, 0, 5, 8, 10, 1, 12, 11, 13)
    assert (
        evalb_row_line(row) == "   7   12    0   62.50  50.00     5      8   10      1     12    11    91.67"
    )
    assert evalb_row_line(row, "1997").endswith("     13    11    84.62")
    assert evalb_row_line(row._replace(number=12345, matched=1000)).startswith(
        "12345   12    0  12500.00 10000.00   1000"
    )
