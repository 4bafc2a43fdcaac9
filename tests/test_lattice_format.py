"""SPMRL / yap lattice files and ``.tokens`` files (docs/formats.md, "SPMRL / yap lattices")."""

from __future__ import annotations

from pathlib import Path

import pytest
from ec_support import ASSETS

from evalcore.errors import InputFormatError
from evalcore.formats.lattice import read_lattices, read_tokens, write_lattices, write_tokens
from evalcore.trees import Arc, Lattice

YAP = ASSETS / "hebrew_yap"

SMALL = """\
0\t1\tB\tB\tIN\tIN\t_\t1
0\t2\tBCLM\tBCLM\tNN\tNN\tgen=M\t1
1\t2\tCLM\tCLM\tNN\tNN\t\t1
2\t3\tHNEIM\tHNEIM\tJJ\tJJ\tnum=P\t2

0\t1\tX\tX\tNN\tNN\t_\t1

"""


def test_reads_arcs_and_keeps_empty_fields() -> None:
    first, second = list(read_lattices(SMALL.encode(), name="s.lattice"))
    assert first.arcs[0] == Arc(0, 1, "B", "B", "IN", "IN", "_", 1)
    assert first.arcs[2].feats == ""  # yap writes an empty FEATS column
    assert first.source is not None and (first.source.file, first.source.line) == ("s.lattice", 1)
    assert second.source is not None and second.source.line == 6
    assert first.states == (0, 1, 2, 3)
    assert (first.first_state, first.last_state) == (0, 3)
    assert first.token_ids == (1, 2)
    assert [a.segment for a in first.outgoing(0)] == ["B", "BCLM"]


def test_paths_enumerate_the_ambiguity() -> None:
    lat = next(iter(read_lattices(SMALL.encode())))
    paths = [tuple(a.segment for a in p) for p in lat.paths()]
    assert sorted(paths) == [("B", "CLM", "HNEIM"), ("BCLM", "HNEIM")]
    assert len(list(lat.paths(limit=1))) == 1
    assert lat.contains_path(next(lat.paths()))
    assert not lat.contains_path([Arc(0, 3, "BCLMHNEIM", cpos="NN")])


def test_empty_lattice() -> None:
    lat = Lattice(())
    assert (lat.states, lat.first_state, lat.last_state) == ((), 0, 0)
    assert list(lat.paths()) == [()]


def test_write_reproduces_the_input() -> None:
    assert write_lattices(read_lattices(SMALL.encode())) == SMALL
    assert write_lattices([]) == ""


def test_yap_sample_files() -> None:
    (ma,) = read_lattices(YAP / "input.lattice")
    (path,) = read_lattices(YAP / "output.mapping")
    assert len(ma.arcs) == 29
    assert ma.token_ids == (1, 2, 3, 4, 5)
    assert len(list(ma.paths())) == 325
    assert [a.segment for a in path.arcs] == ["גנן", "גידל", "דגן", "ב", "ה", "גן", "."]
    assert path.arcs[-1].cpos == "yyDOT"
    assert len(list(path.paths())) == 1
    assert write_lattices([ma]).encode() == (YAP / "input.lattice").read_bytes()


def test_bom_crlf_and_missing_final_blank_line() -> None:
    expected = list(read_lattices(SMALL.encode()))
    raw = b"\xef\xbb\xbf" + SMALL.rstrip("\n").replace("\n", "\r\n").encode()
    assert list(read_lattices(raw, name="x")) == expected
    assert list(read_lattices(b"", name="e")) == []


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("0\t1\tB\tB\tIN\tIN\t1", "expected 8 tab-separated lattice columns"),
        ("0\t1\tB\tB\tIN\tIN\t_\t1\t9", "found 9"),
        ("0 1 B B IN IN _ 1", "found 1"),
        ("a\t1\tB\tB\tIN\tIN\t_\t1", "FROM state 'a' is not a non-negative integer"),
        ("0\t-1\tB\tB\tIN\tIN\t_\t1", "TO state '-1'"),
        ("0\t1\tB\tB\tIN\tIN\t_\tx", "TOKEN_ID 'x'"),
        ("2\t1\tB\tB\tIN\tIN\t_\t1", "arc goes backwards or nowhere (2 -> 1)"),
        ("1\t1\tB\tB\tIN\tIN\t_\t1", "(1 -> 1)"),
    ],
)
def test_lattice_errors_name_file_and_line(line: str, fragment: str) -> None:
    text = "0\t1\tA\tA\tNN\tNN\t_\t1\n" + line + "\n"
    with pytest.raises(InputFormatError) as info:
        list(read_lattices(text.encode(), name="l.lattice"))
    assert str(info.value).startswith("l.lattice:2: ")
    assert fragment in str(info.value)


# ---------------------------------------------------------------------------
# .tokens


def test_tokens_read_and_write() -> None:
    text = "גנן\nגידל\n\nבגן\n.\n"
    sentences = list(read_tokens(text.encode(), name="t.tokens"))
    assert sentences == [("גנן", "גידל"), ("בגן", ".")]
    assert write_tokens(sentences) == "גנן\nגידל\n\nבגן\n.\n\n"
    assert list(read_tokens(write_tokens(sentences).encode())) == sentences
    assert write_tokens([]) == ""


def test_tokens_yap_input() -> None:
    assert list(read_tokens(YAP / "input.txt")) == [("גנן", "גידל", "דגן", "בגן", ".")]


def test_tokens_line_with_two_tokens_is_an_error() -> None:
    with pytest.raises(InputFormatError, match=r"^t:2: a \.tokens line holds one token"):
        list(read_tokens(b"a\nb c\n", name="t"))


def test_spmrl_dev_excerpt(data: Path) -> None:
    folder = data / "hebrew" / "spmrl_hebtb" / "excerpt_dev_first50"
    gold = list(read_lattices(folder / "dev_hebtb-gold.lattices"))
    ma = list(read_lattices(folder / "dev_hebtb.lattices"))
    tokens = list(read_tokens(folder / "dev_hebtb.tokens"))
    assert len(gold) == len(ma) == len(tokens) == 50
    # a gold lattice is one path per sentence, over the sentence's tokens
    assert all(len(list(g.paths(limit=2))) == 1 for g in gold)
    assert all(g.token_ids == tuple(range(1, len(t) + 1)) for g, t in zip(gold, tokens, strict=True))


def test_spmrl_full_files(data: Path) -> None:
    folder = data / "hebrew" / "spmrl_hebtb"
    assert sum(1 for _ in read_lattices(folder / "dev_hebtb.lattices.gz")) == 500
    assert sum(1 for _ in read_lattices(folder / "test_hebtb-gold.lattices")) == 716
    assert sum(1 for _ in read_tokens(folder / "test_hebtb.tokens")) == 716
