"""The public API under hostile and mistaken input (docs/robustness.md, "The public API"): words
checked by ``inspect``, one typed error for an object that is not a parsed spaCy ``Doc``, in-memory
input read under the limits while it streams, and named pipes refused instead of waited on."""

from __future__ import annotations

import os
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from ec_support import conllu_sentence, run_module

import evalcore
from evalcore.errors import EvalcoreError, InputFormatError, LimitError, MismatchError
from evalcore.formats.conllu import parse_conllu
from evalcore.limits import Limits
from evalcore.trees import DepTree, Token

# --------------------------------------------------------------------------- inspect checks the words


def test_inspect_refuses_a_parse_over_other_words() -> None:
    """A 4-word gold and a 2-word parse: the docstring says the words are checked, and they are (it
    returned a report with a TedEval score of 0.0 before)."""
    gold = parse_conllu(conllu_sentence([2, 0, 2, 3]), name="g.conllu")[0]
    short = parse_conllu(conllu_sentence([2, 0]), name="p.conllu")[0]
    with pytest.raises(MismatchError) as err:
        evalcore.inspect({"ud": gold}, {"sys": ("ud", short)})
    assert str(err.value) == (
        "p.conllu:1: parse 'sys' has 2 words and gold 'ud' 4: word 3 is '<end>' in the parse but 'w3' "
        "in the gold (the trees of a sentence must be over the same words)"
    )
    other = parse_conllu(conllu_sentence([2, 0, 2, 3], forms=["w1", "w2", "x", "w4"]), name="o.conllu")[0]
    with pytest.raises(
        MismatchError, match=r"^o\.conllu:3: gold 'sud' has 4 words and gold 'ud' 4: word 3 is 'x'"
    ):
        evalcore.inspect({"ud": gold, "sud": other}, {})
    assert evalcore.inspect({"ud": gold}, {"sys": ("ud", gold)}).parses[0].single[0].delta == 0


# --------------------------------------------------------------------------- not quite a spaCy Doc


@dataclass
class _Token:
    i: int
    text: str
    dep_: str
    whitespace_: str = " "
    pos_: str = ""
    tag_: str = ""

    @property
    def head(self) -> _Token:
        return self  # every token a root: the reader never gets that far


@dataclass
class _Span:
    start: int
    tokens: list[_Token]

    def __iter__(self) -> Iterator[_Token]:
        return iter(self.tokens)


@dataclass
class _Doc:
    """Looks like a spaCy ``Doc`` (``sents``, ``vocab``) but its tokens have no ``lemma_``."""

    vocab: object = None

    @property
    def sents(self) -> Iterator[_Span]:
        yield _Span(0, [_Token(0, "Hi", "ROOT")])


def test_an_object_that_is_not_quite_a_spacy_doc_is_one_typed_error() -> None:
    with pytest.raises(InputFormatError) as err:
        evalcore.read(_Doc())
    assert str(err.value).startswith(
        "input: sentence 1 of the spaCy Doc: a token or sentence has no 'lemma_'"
    )
    assert "\n" not in str(err.value)
    with pytest.raises(InputFormatError, match=r"^gold: sentence 1 of the spaCy Doc"):
        evalcore.attach(_Doc(), _Doc())


# --------------------------------------------------------------------------- limits while streaming


@pytest.mark.slow
def test_an_endless_generator_stops_at_the_line_limit() -> None:
    """Sentences are written out one at a time and counted: past the line limit no more are taken,
    and the reader refuses the text at the line a file of it would be refused at."""
    pulled = 0

    def endless() -> Iterator[DepTree]:
        nonlocal pulled
        while True:
            pulled += 1
            yield DepTree((Token(1, "a", head=0, deprel="root"), Token(2, "b", head=1)))

    limits = Limits(input_lines=30_000)
    with pytest.raises(LimitError) as err:
        evalcore.read(endless(), limits=limits)
    assert str(err.value).startswith("input.conllu:30001: file has more than 30000 lines")
    assert pulled == 30_000 // 3 + 1  # 3 lines a sentence; the first one past the limit is the last taken
    with pytest.raises(LimitError, match=r"^gold\.conllu:30001: file has more than 30000 lines"):
        evalcore.attach(endless(), endless(), limits=limits)


def test_a_string_is_read_as_it_streams_without_an_encoded_copy() -> None:
    """Text given as a ``str`` is encoded a chunk at a time as the reader reads it (a 1 GB string
    peaked at 1.9 GB: the whole was encoded before the limits were applied)."""
    text = "# a comment\n" * 2_000_000  # 24 MB of text in one block
    tracemalloc.start()
    try:
        with pytest.raises(LimitError, match=r"^input:20001: sentence block starting at line 1 has more"):
            evalcore.read(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20, peak  # chunks of 1 MiB and one block, not a 24 MB copy
    trees = evalcore.read(conllu_sentence([0, 1], forms=["é", "ß"]) * 3)  # normal text: the same trees
    assert [t.forms for t in trees] == [("é", "ß")] * 3  # type: ignore[union-attr]


def test_text_that_is_not_utf8_encodable_is_a_message() -> None:
    with pytest.raises(InputFormatError, match=r"^input:1: not valid UTF-8"):
        evalcore.read("1\t\ud800\t_\tX\t_\t_\t0\troot\t_\t_\n\n")


# --------------------------------------------------------------------------- named pipes


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    """Opening a FIFO waits for a writer (forever, without one), and evalcore reads its inputs
    more than once; it is refused before it is opened, with one line."""
    fifo = tmp_path / "parse.conllu"
    os.mkfifo(fifo)
    with pytest.raises(InputFormatError) as err:
        evalcore.read(fifo)
    assert str(err.value) == (
        f"{fifo}: cannot read a named pipe (FIFO): evalcore reads an input file more than once and "
        "would wait on a pipe; save it to a file first"
    )
    (tmp_path / "gold.conllu").write_text(conllu_sentence([0]))
    res = run_module("attach", str(tmp_path / "gold.conllu"), str(fifo))
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "named pipe (FIFO)" in res.stderr
    assert isinstance(err.value, EvalcoreError)
