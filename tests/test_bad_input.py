"""Bad input to ``evalcore attach``: never a traceback, never a silent number.

Every error is exit code 2 and exactly one stderr line ``FILE:LINE: what is wrong``.
Sentences that are not trees (a cycle, no root) are skipped and counted by default
(a ``warning: FILE:LINE: ...`` line, ``skipped`` in the output) and are an error
with ``--strict`` (docs/decisions.md, "Sentences that are not trees: skipped and counted").  Empty files, a
UTF-8 BOM, CRLF line ends and a missing final blank line are accepted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from ec_support import CliResult, conllu_line, conllu_sentence

RunCli = Callable[..., CliResult]
WriteFile = Callable[[str, str | bytes], str]

GOOD = conllu_sentence([0, 1, 2], sent_id="s1") + conllu_sentence([2, 0], sent_id="s2")


def assert_one_error_line(result: CliResult, file: str, line: int | None, *fragments: str) -> str:
    """Exit code 2, nothing on stdout, exactly one stderr line starting with FILE:LINE: ."""
    assert result.code == 2, (result.out, result.err)
    assert result.out == ""
    assert len(result.err_lines) == 1, result.err_lines
    message = result.err_lines[0]
    where = re.escape(file) + (f":{line}" if line is not None else "")
    assert re.match(f"^{where}: ", message), message
    assert "Traceback" not in result.err
    for fragment in fragments:
        assert fragment in message, message
    return message


class Attach:
    """``attach(gold_text, system_text, *options)``: writes gold.conllu / system.conllu and runs the CLI."""

    def __init__(self, run_cli: RunCli, write_file: WriteFile) -> None:
        self.run_cli = run_cli
        self.write_file = write_file
        self.gold = ""
        self.system = ""

    def __call__(self, gold: str | bytes, system: str | bytes, *options: str) -> CliResult:
        self.gold = self.write_file("gold.conllu", gold)
        self.system = self.write_file("system.conllu", system)
        return self.run_cli("attach", self.gold, self.system, *options)


@pytest.fixture
def attach(run_cli: RunCli, write_file: WriteFile) -> Attach:
    return Attach(run_cli, write_file)


# ---------------------------------------------------------------------------
# Always errors (exit 2)


def test_head_out_of_range_in_gold(attach: Attach) -> None:
    bad = conllu_sentence([0, 1, 7], sent_id="s1") + conllu_sentence([2, 0], sent_id="s2")
    r = attach(bad, GOOD)
    assert_one_error_line(r, attach.gold, 4, "HEAD '7' points past the sentence (3 tokens)", "s1")


def test_head_out_of_range_in_system(attach: Attach) -> None:
    bad = conllu_sentence([0, 1, 2], sent_id="s1") + conllu_sentence([3, 0], sent_id="s2")
    r = attach(GOOD, bad)
    assert_one_error_line(r, attach.system, 7, "HEAD '3' points past the sentence (2 tokens)")


def test_head_out_of_range_even_without_strict_is_not_skipped(attach: Attach) -> None:
    bad = conllu_sentence([0, 9], sent_id="only")
    r = attach(bad, bad, "--format", "json")
    assert_one_error_line(r, attach.gold, 3, "HEAD '9'")


def test_non_integer_id(attach: Attach) -> None:
    bad = GOOD.replace("\n2\tw2\t", "\ntwo\tw2\t", 1)
    r = attach(bad, GOOD)
    assert_one_error_line(r, attach.gold, 3, "ID 'two' is not an integer")


def test_id_out_of_sequence(attach: Attach) -> None:
    bad = GOOD.replace("\n3\tw3\t", "\n4\tw3\t", 1)
    r = attach(GOOD, bad)
    assert_one_error_line(r, attach.system, 4, "ID '4' out of sequence (expected 3)")


def test_non_integer_head(attach: Attach) -> None:
    bad = conllu_sentence([0, 1, 2], sent_id="s1") + "# sent_id = s2\n" + conllu_line(1, "w1", "two") + "\n"
    r = attach(GOOD, bad + conllu_line(2, "w2", 0) + "\n\n")
    assert_one_error_line(r, attach.system, 7, "HEAD 'two' of token 1 is not a non-negative integer")


def test_negative_head(attach: Attach) -> None:
    bad = GOOD.replace("\tw2\t_\tX\t_\t_\t1\t", "\tw2\t_\tX\t_\t_\t-1\t", 1)
    assert bad != GOOD
    r = attach(bad, GOOD)
    assert_one_error_line(r, attach.gold, 3, "HEAD '-1'")


@pytest.mark.parametrize(
    ("mangle", "found"),
    [
        (lambda line: line.rsplit("\t", 1)[0], "found 9"),
        (lambda line: line + "\textra", "found 11"),
        (lambda line: line.replace("\t", " "), "found 1"),
        (lambda line: "\t".join(line.split("\t")[:6]), "found 6"),
    ],
    ids=["nine", "eleven", "spaces", "six"],
)
def test_wrong_column_count(attach: Attach, mangle: Callable[[str], str], found: str) -> None:
    lines = GOOD.split("\n")
    lines[6] = mangle(lines[6])  # token 1 of sentence s2
    r = attach(GOOD, "\n".join(lines))
    assert_one_error_line(r, attach.system, 7, "expected 10 tab-separated columns", found, "s2")


def test_gold_has_more_sentences(attach: Attach) -> None:
    gold = GOOD + conllu_sentence([0], sent_id="s3")
    r = attach(gold, GOOD)
    assert_one_error_line(r, attach.gold, 11, "the gold file has more sentences", "sentence 3 ('s3')")


def test_system_has_more_sentences(attach: Attach) -> None:
    system = GOOD + conllu_sentence([0], sent_id="s3")
    r = attach(GOOD, system)
    assert_one_error_line(r, attach.system, 11, "the system file has more sentences", "('s3')")


def test_empty_system_file_against_a_gold(attach: Attach) -> None:
    r = attach(GOOD, "")
    assert_one_error_line(r, attach.gold, 2, "the gold file has more sentences", "sentence 1 ('s1')")


def test_token_forms_differ(attach: Attach) -> None:
    system = GOOD.replace("\tw2\t", "\tW2\t", 2).replace("\tW2\t", "\tw2\t", 1)  # only s2's token 2
    r = attach(GOOD, system)
    assert_one_error_line(
        r, attach.system, 8, "sentence 's2': token 2 is 'W2' in the system file but 'w2' in the gold"
    )


def test_token_counts_differ(attach: Attach) -> None:
    system = conllu_sentence([0, 1], sent_id="s1") + conllu_sentence([2, 0], sent_id="s2")
    r = attach(GOOD, system)
    assert_one_error_line(
        r, attach.gold, 4, "sentence 's1': token 3 'w3' of the gold file has no counterpart"
    )


def test_invalid_utf8(attach: Attach) -> None:
    raw = GOOD.encode().replace(b"w3", b"w\xff", 1)
    r = attach(raw, GOOD)
    assert_one_error_line(r, attach.gold, 4, "not valid UTF-8")


def test_missing_file(run_cli: RunCli, write_file: WriteFile) -> None:
    gold = write_file("gold.conllu", GOOD)
    r = run_cli("attach", gold, "/nonexistent/system.conllu")
    assert_one_error_line(r, "/nonexistent/system.conllu", None, "cannot open")


# ---------------------------------------------------------------------------
# Not a tree: skipped and counted by default, an error with --strict

CYCLE = conllu_sentence([0, 3, 2], sent_id="s1") + conllu_sentence([2, 0], sent_id="s2")
NO_ROOT = conllu_sentence([0, 1, 2], sent_id="s1") + conllu_sentence([2, 1], sent_id="s2")


def test_cycle_is_skipped_and_counted_by_default(attach: Attach) -> None:
    r = attach(CYCLE, GOOD, "--format", "json")
    assert r.code == 0
    data = json.loads(r.out)
    assert (data["skipped"], data["sentences"], data["tokens"]) == (1, 1, 2)
    assert r.err_lines == [f"warning: {attach.gold}:3: cycle through token 2 ('w2') (sentence s1 skipped)"]


def test_cycle_in_the_system_is_skipped_too(attach: Attach) -> None:
    r = attach(GOOD, CYCLE)
    assert r.code == 0
    assert r.err_lines[0].startswith(f"warning: {attach.system}:3: cycle")
    assert "skipped 1 (not a tree)" in r.out


def test_cycle_with_strict(attach: Attach) -> None:
    r = attach(CYCLE, GOOD, "--strict")
    assert_one_error_line(r, attach.gold, 3, "cycle through token 2 ('w2')", "s1")


def test_no_root_is_skipped_and_counted_by_default(attach: Attach) -> None:
    r = attach(GOOD, NO_ROOT, "--format", "json")
    assert r.code == 0
    assert json.loads(r.out)["skipped"] == 1
    assert r.err_lines == [
        f"warning: {attach.system}:7: sentence has no root (no token with HEAD 0) (sentence s2 skipped)"
    ]


def test_no_root_with_strict(attach: Attach) -> None:
    r = attach(GOOD, NO_ROOT, "--strict")
    assert_one_error_line(r, attach.system, 7, "sentence has no root", "s2")


def test_self_loop_with_strict(attach: Attach) -> None:
    bad = conllu_sentence([0, 2], sent_id="s1")
    r = attach(bad, bad, "--strict")
    assert_one_error_line(r, attach.gold, 3, "token 2 is its own head")


# ---------------------------------------------------------------------------
# Accepted: the same numbers as the clean file


def scores(result: CliResult) -> dict[str, Any]:
    assert result.code == 0, result.err
    assert result.err == ""
    data = json.loads(result.out)
    assert isinstance(data, dict)
    return data


SYSTEM = conllu_sentence([0, 3, 1], sent_id="s1") + conllu_sentence([2, 0], sent_id="s2")


@pytest.mark.parametrize(
    "transform",
    [
        lambda t: b"\xef\xbb\xbf" + t.encode(),
        lambda t: t.replace("\n", "\r\n").encode(),
        lambda t: t.rstrip("\n").encode(),
        lambda t: b"\xef\xbb\xbf" + t.rstrip("\n").replace("\n", "\r\n").encode(),
        lambda t: ("\n\n" + t.replace("\n\n", "\n\n\n")).encode(),
    ],
    ids=["bom", "crlf", "no-final-blank-line", "all-three", "extra-blank-lines"],
)
def test_accepted_variants_give_the_same_numbers(attach: Attach, transform: Callable[[str], bytes]) -> None:
    expected = scores(attach(GOOD, SYSTEM, "--format", "json"))
    assert expected["tokens"] == 5
    assert scores(attach(transform(GOOD), SYSTEM, "--format", "json")) == expected
    assert scores(attach(GOOD, transform(SYSTEM), "--format", "json")) == expected


def test_empty_files_are_accepted(attach: Attach) -> None:
    data = scores(attach("", "", "--format", "json"))
    assert (data["tokens"], data["sentences"], data["skipped"]) == (0, 0, 0)
    assert data["uas"] is None  # nothing was scored: no number pretends otherwise
