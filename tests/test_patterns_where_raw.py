"""Scores restricted to a construction on a parse of the raw text (docs/patterns.md, "On a parse of
raw text"): the page's gold, its five-word parse and its table of counts worked by hand, read from
the page and checked through the command line (exit 0, counts and printed percentages) and the API;
then the rule's edges (a request covering every word, the options it does not take)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

import evalcore

DOC = Path(__file__).resolve().parents[1] / "docs" / "patterns.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```conllu\n(.*?)```", TEXT, flags=re.S)
GOLD = BLOCKS[0] + "\n"  # the worked example's sentence (a blank line ends it, as the scorer wants)
RAW = next(b for b in BLOCKS if "# sent_id = raw" in b) + "\n"  # the parse of its raw text, five words
# the page's prose: Le, chat, est, table have the same characters on both sides, whatever the request
TOKENS = (4, 6, 5)  # (correct, gold, system)

Row = tuple[str | None, dict[str, tuple[int, int, int, int]]]  # metric -> (correct, gold, system, aligned)


def _counts(cell: str) -> tuple[int, ...]:
    return tuple(int(n) for n in cell.split("/"))


def _table() -> list[Row]:
    lines = TEXT.split("<!-- where-raw-text-example -->", 1)[1].strip().splitlines()
    rows: list[Row] = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        request = None if cells[0] == "(none)" else cells[0].strip("`")
        gold, system, aligned = _counts(cells[1])
        cgold, csystem, caligned = _counts(cells[4])
        rows.append(
            (
                request,
                {
                    "Words": (aligned, gold, system, aligned),  # the Words row's correct: its aligned pairs
                    "UAS": (int(cells[2]), gold, system, aligned),
                    "LAS": (int(cells[3]), gold, system, aligned),
                    "CLAS": (int(cells[5]), cgold, csystem, caligned),
                    "MLAS": (int(cells[6]), cgold, csystem, caligned),
                    "BLEX": (int(cells[7]), cgold, csystem, caligned),
                },
            )
        )
    return rows


ROWS = _table()


def _pct(x: Fraction) -> str:
    return f"{float(100 * x):.2f}"


def test_the_page_has_the_raw_text_example() -> None:
    assert len(ROWS) == 3 and ROWS[0][0] is None
    assert "4\tsur la\tsur le\tADP" in RAW and "1\tLe\t" in GOLD


@pytest.mark.parametrize(("request_", "expected"), ROWS, ids=["none", "det", "cop"])
def test_the_command_line_and_the_api_give_the_page_counts(
    request_: str | None,
    expected: dict[str, tuple[int, int, int, int]],
    run_cli: Callable[..., object],
    write_file: Callable[[str, str], str],
) -> None:
    gold, raw = write_file("gold.conllu", GOLD), write_file("raw.conllu", RAW)
    extra = ["--where", request_] if request_ is not None else []
    res = run_cli("attach", gold, raw, "--format", "json", *extra)
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    doc = json.loads(res.out)  # type: ignore[attr-defined]
    assert doc["alignment"] == "characters"
    rows = {m["metric"]: m for m in doc["metrics"]}
    tokens = rows["Tokens"]
    assert (tokens["correct"], tokens["gold"], tokens["system"]) == TOKENS
    for metric, (correct, g, s, aligned) in expected.items():
        row = rows[metric]
        got = (row["correct"], row["gold"], row["system"])
        assert got == (correct, g, s), metric
        if metric != "Words":
            assert row["aligned"] == aligned, metric
        assert row["precision"] == pytest.approx(float(Fraction(correct, s)))
        assert row["recall"] == pytest.approx(float(Fraction(correct, g)))
        assert row["f1"] == pytest.approx(float(Fraction(2 * correct, g + s)))
    assert ("|where:" in doc["signature"]) == (request_ is not None)
    assert evalcore.attach(gold, raw, where=request_).to_dict() == doc

    # the text: exit 0, the same counts and their percentages as printed
    res = run_cli("attach", gold, raw, *extra)
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    printed = {line.split()[0]: line.split()[1:] for line in res.out.splitlines() if line[:1].isupper()}  # type: ignore[attr-defined]
    for metric, (correct, g, s, aligned) in expected.items():
        p, r, f1 = Fraction(correct, s), Fraction(correct, g), Fraction(2 * correct, g + s)
        cells = [_pct(p), _pct(r), _pct(f1)]
        if metric != "Words":
            cells.append(_pct(Fraction(correct, aligned)))
        assert printed[metric][: len(cells)] == cells, metric
        assert printed[metric][len(cells) : len(cells) + 3] == [str(correct), str(g), str(s)], metric
    note = "restricted by --where: Words ... BLEX count only the words it covers"
    assert (note in res.out) == (request_ is not None)  # type: ignore[attr-defined]


def test_a_request_covering_every_word_gives_the_scorers_table(
    run_cli: Callable[..., object], write_file: Callable[[str, str], str]
) -> None:
    """``pattern { X [] }`` covers every word of both trees: every row is the unrestricted one."""
    gold, raw = write_file("gold.conllu", GOLD), write_file("raw.conllu", RAW)
    plain = json.loads(run_cli("attach", gold, raw, "--format", "json").out)  # type: ignore[attr-defined]
    every = json.loads(
        run_cli("attach", gold, raw, "--format", "json", "--where", "pattern { X [] }").out  # type: ignore[attr-defined]
    )
    assert every["metrics"] == plain["metrics"]
    assert every["signature"] != plain["signature"] and "|where:" in every["signature"]


def test_per_sentence_and_a_second_system_count_the_restricted_words(
    run_cli: Callable[..., object], write_file: Callable[[str, str], str]
) -> None:
    """The `det` row: the one gold sentence's record holds its 4 covered gold words, 2 covered parse
    words, 2 pairs, 1 right (hand count above); the parse against itself differs by nothing."""
    gold, raw = write_file("gold.conllu", GOLD), write_file("raw.conllu", RAW)
    det = "pattern { H -[1=det]-> X }"
    res = run_cli("attach", gold, raw, "--where", det, "--per-sentence", "--format", "json")
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    (record,) = json.loads(res.out)["sentences"]  # type: ignore[attr-defined]
    counts = tuple(record[k] for k in ("gold", "system", "aligned", "uas", "las"))
    assert counts == (4, 2, 2, 1, 1)
    res = run_cli("attach", gold, raw, raw, "--where", det, "--shuffles", "20", "--format", "json")
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    doc = json.loads(res.out)  # type: ignore[attr-defined]
    assert "|where:" in doc["signature"]
    uas = next(m for m in doc["metrics"] if m["metric"] == "UAS f1")
    assert uas["a"] == uas["b"] == pytest.approx(1 / 3) and uas["difference"] == 0


@pytest.mark.parametrize(
    ("options", "words"),
    [(("--by", "deprel"), "--where"), (("--confusion",), "--where"), (("--format", "conll18"), "--where")],
    ids=["by", "confusion", "conll18"],
)
def test_what_where_does_not_take_on_a_parse_of_raw_text(
    options: tuple[str, ...],
    words: str,
    run_cli: Callable[..., object],
    write_file: Callable[[str, str], str],
) -> None:
    gold, raw = write_file("gold.conllu", GOLD), write_file("raw.conllu", RAW)
    res = run_cli("attach", gold, raw, "--where", "pattern { H -[cop]-> X }", *options)
    assert res.code == 2 and words in res.err  # type: ignore[attr-defined]
    assert run_cli("attach", gold, raw, *options).code == 0  # type: ignore[attr-defined]


def test_a_malformed_request_still_exits_2_with_its_file_and_line(
    run_cli: Callable[..., object], write_file: Callable[[str, str], str]
) -> None:
    gold, raw = write_file("gold.conllu", GOLD), write_file("raw.conllu", RAW)
    bad = write_file("bad.req", "% two lines\npattern { H -[]-> X }\n")
    res = run_cli("attach", gold, raw, "--where", bad)
    assert res.code == 2 and f"{bad}:2:" in res.err  # type: ignore[attr-defined]
