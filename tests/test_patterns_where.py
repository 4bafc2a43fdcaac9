"""Attachment scores restricted to the words a request covers (docs/patterns.md, "Scores restricted
to a construction"): the page's worked example -- its gold, its parse and its table of counts
worked by hand -- read from the page and checked through the command line and the API."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from test_patterns import ERRORS, FILE_ERRORS

import evalcore

DOC = Path(__file__).resolve().parents[1] / "docs" / "patterns.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```conllu\n(.*?)```", TEXT, flags=re.S)
GOLD, PARSE = BLOCKS[0], BLOCKS[1]  # the worked example's sentence, then the restricted scores' parse
METRICS = ("uas", "las", "label", "undirected", "ned")


def _table() -> list[tuple[str | None, int, tuple[Fraction, ...]]]:
    lines = TEXT.split("<!-- where-worked-example -->", 1)[1].strip().splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        request = None if cells[0] == "(none)" else cells[0].strip("`")
        rows.append((request, int(cells[1]), tuple(Fraction(c) for c in cells[2:7])))
    return rows


ROWS = _table()


def test_the_page_has_the_worked_example() -> None:
    assert len(ROWS) == 3 and ROWS[0][0] is None
    assert "1\tLe\t" in GOLD and "3\test\têtre\tVERB" in PARSE


@pytest.mark.parametrize(("request_", "tokens", "expected"), ROWS, ids=["none", "det", "cop"])
def test_the_command_line_and_the_api_give_the_page_numbers(
    request_: str | None,
    tokens: int,
    expected: tuple[Fraction, ...],
    run_cli: Callable[..., object],
    write_file: Callable[[str, str], str],
) -> None:
    gold, parse = write_file("gold.conllu", GOLD), write_file("parse.conllu", PARSE)
    extra = ["--where", request_] if request_ is not None else []
    res = run_cli("attach", gold, parse, "--format", "json", *extra)
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    doc = json.loads(res.out)  # type: ignore[attr-defined]
    assert doc["tokens"] == tokens
    assert tuple(doc[m] for m in METRICS) == pytest.approx(tuple(float(f) for f in expected))
    assert ("|where:" in doc["signature"]) == (request_ is not None)
    api = evalcore.attach(gold, parse, where=request_)
    assert api.to_dict() == doc


def test_a_request_in_a_file_and_a_bad_request(
    run_cli: Callable[..., object], write_file: Callable[[str, str], str]
) -> None:
    gold, parse = write_file("gold.conllu", GOLD), write_file("parse.conllu", PARSE)
    req = write_file("det.req", "% determiners\npattern { H -[1=det]-> X }\n")
    res = run_cli("attach", gold, parse, "--format", "json", "--where", req)
    assert json.loads(res.out)["tokens"] == 4  # type: ignore[attr-defined]
    bad = write_file("bad.req", "% two lines\npattern { H -[]-> X }\n")
    res = run_cli("attach", gold, parse, "--where", bad)
    assert res.code == 2 and f"{bad}:2:" in res.err  # type: ignore[attr-defined]
    res = run_cli("attach", gold, parse, "--where", "pattern { X [upos==NOUN] }")
    assert res.code == 2 and "--where:1:" in res.err  # type: ignore[attr-defined]


@pytest.mark.slow  # imports the raw-text AppTest module's example
def test_a_parse_of_the_raw_text_is_scored_on_its_aligned_words(
    run_cli: Callable[..., object], write_file: Callable[[str, str | bytes], str]
) -> None:
    """Other words than the gold's: scored on the aligned words the request covers (docs/patterns.md,
    "On a parse of raw text"; its worked example is tests/test_patterns_where_raw.py), signed
    ``where:``; ``pattern { H -> X }`` covers every word of a tree with an arc, so here every row is
    the unrestricted one."""
    from test_app_raw_text import GOLD as RAW_GOLD
    from test_app_raw_text import RAW

    gold, parse = write_file("gold.conllu", RAW_GOLD), write_file("raw.conllu", RAW)
    plain = run_cli("attach", gold, parse, "--format", "json")
    assert plain.code == 0  # type: ignore[attr-defined]
    res = run_cli("attach", gold, parse, "--where", "pattern { H -> X }", "--format", "json")
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    doc = json.loads(res.out)  # type: ignore[attr-defined]
    assert doc["alignment"] == "characters" and "|where:" in doc["signature"]
    assert doc["metrics"] == json.loads(plain.out)["metrics"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("what", "text", "line", "words"), ERRORS, ids=[e[0] for e in ERRORS])
def test_every_malformed_request_exits_2_with_its_file_and_line(
    what: str,
    text: str,
    line: int,
    words: str,
    run_cli: Callable[..., object],
    write_file: Callable[[str, str], str],
) -> None:
    """tests/test_patterns.py's malformed requests, given to the command in a file: exit code 2 and
    the message names the file and the line."""
    gold, parse = write_file("gold.conllu", GOLD), write_file("parse.conllu", PARSE)
    req = write_file("q.req", text)
    res = run_cli("attach", gold, parse, "--where", req)
    assert res.code == 2, what  # type: ignore[attr-defined]
    assert f"{req}:{line}: " in res.err and words in res.err  # type: ignore[attr-defined]


@pytest.mark.parametrize(("what", "text", "line", "words"), FILE_ERRORS, ids=[e[0] for e in FILE_ERRORS])
def test_every_malformed_pattern_file_stops_the_atlas_with_exit_2(
    what: str,
    text: str,
    line: int,
    words: str,
    run_cli: Callable[..., object],
    write_file: Callable[[str, str], str],
) -> None:
    gold = write_file("gold.conllu", GOLD)
    bad = write_file("c.pat", text)
    res = run_cli("atlas", "--scheme", "ud", gold, "--pattern", bad, "--no-ranking")
    assert res.code == 2, what  # type: ignore[attr-defined]
    assert words in res.err and f"{bad}:{line}: " in res.err  # type: ignore[attr-defined]


def test_a_request_file_past_the_block_bound_exits_2_naming_it(
    run_cli: Callable[..., object], write_file: Callable[[str, str], str]
) -> None:
    """A request or pattern file is one block of input: past --max-block-bytes, exit 2 with the file."""
    gold, parse = write_file("gold.conllu", GOLD), write_file("parse.conllu", PARSE)
    big = write_file("big.req", "% " + "x" * 2000 + "\npattern { H -[1=det]-> X }\n")
    res = run_cli("attach", gold, parse, "--where", big, "--max-block-bytes", "1000")
    assert res.code == 2 and big in res.err and "--max-block-bytes" in res.err  # type: ignore[attr-defined]
    assert run_cli("attach", gold, parse, "--where", big).code == 0  # type: ignore[attr-defined]
    res = run_cli(
        "atlas", "--scheme", "ud", gold, "--pattern", big, "--max-block-bytes", "1000", "--no-ranking"
    )
    assert res.code == 2 and big in res.err  # type: ignore[attr-defined]
