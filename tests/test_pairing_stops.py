"""Streams read in step stop at the first sentence that cannot be paired (docs/robustness.md,
"Streaming and memory"): an empty or one-sentence gold against a long parse is named at once,
not after the whole parse has been read (it took 153-193 s and 574 MB at 200,000 sentences).

Each test puts something after the point of failure that the reader would meet if it read on (a
malformed line, or an iterator that fails when pulled too far): the error that comes out shows
where reading stopped.  The timing at 200,000 sentences is in ``tests/test_hostile_scale.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from ec_support import conllu_sentence, run_module

from evalcore.errors import InputFormatError, MismatchError
from evalcore.experiment import NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import parse_conllu
from evalcore.lattice.textalign import TokenizedSentence, stream_alignment, tokenize
from evalcore.metrics.conll18 import evaluate_conll18
from evalcore.trees import DepTree

ONE = conllu_sentence([0, 1, 1], sent_id="s1", forms=["The", "cat", "sat"])
TWO = conllu_sentence([2, 0], sent_id="s2", forms=["It", "purred"])
MORE = TWO * 3  # 24 characters: the 20 a text-difference message quotes
BAD = "this is not a CoNLL-U line\n\n"  # met only by a reader that goes on past the difference


class _Pulled(Exception):
    """An iterator was read past the sentence where the difference is."""


def _at_most(items: list[TokenizedSentence] | list[DepTree], n: int) -> Iterator[object]:
    yield from items[:n]
    raise _Pulled(f"sentence {n + 1} was read")


# --------------------------------------------------------------------------- attach (CoNLL 2018 alignment)


def test_conll18_the_gold_ends_and_the_system_goes_on_stops_there() -> None:
    """``read_all=False`` (evalcore attach's own path): the text check fails at the first system
    character past the gold's end, with the scorer's message; the malformed line further on is
    never read.  ``read_all=True`` (the scorer's order) reads on, and the format error wins."""
    gold, system = ONE.encode(), (ONE + MORE + BAD).encode()
    with pytest.raises(MismatchError) as err:
        evaluate_conll18(gold, system, gold_name="g", system_name="s", read_all=False)
    assert (err.value.file, err.value.line, err.value.sentence) == ("s", 7, "s2")  # s2's first token
    assert "in gold file: '' and system file: 'ItpurredItpurredItpu'" in err.value.message
    with pytest.raises(InputFormatError, match="10 tab-separated columns"):
        evaluate_conll18(gold, system, gold_name="g", system_name="s")


def test_conll18_the_system_ends_and_the_gold_goes_on_stops_there() -> None:
    gold, system = (ONE + MORE + BAD).encode(), ONE.encode()
    with pytest.raises(MismatchError, match="in gold file: 'ItpurredItpurredItpu' and system file: ''"):
        evaluate_conll18(gold, system, read_all=False)
    with pytest.raises(InputFormatError):
        evaluate_conll18(gold, system)


def test_conll18_an_empty_gold_is_named_at_the_first_system_sentence() -> None:
    with pytest.raises(MismatchError) as err:
        evaluate_conll18(b"", (ONE + MORE + BAD).encode(), system_name="s", read_all=False)
    assert (err.value.line, err.value.sentence) == (2, "s1")
    assert "in gold file: '' and system file: 'ThecatsatItpurredItp'" in err.value.message


def test_attach_names_an_empty_gold_without_reading_the_parse(tmp_path: Path) -> None:
    """The command: the same-token path meets the parse's first sentence without a partner, the
    character alignment is tried and fails at once; the line the old run reached at the end of the
    parse (and failed on, after reading it all) is never read."""
    (tmp_path / "g.conllu").write_text("")
    (tmp_path / "s.conllu").write_text(ONE + MORE + BAD)
    res = run_module("attach", str(tmp_path / "g.conllu"), str(tmp_path / "s.conllu"))
    assert res.returncode == 2, res.stderr
    assert res.stderr.splitlines() == [
        f"{tmp_path / 's.conllu'}:2: the system file has more sentences: sentence 1 ('s1') has no "
        "counterpart in the gold file, which ends after 0; the text differs too (system file line 2): "
        "no character alignment either"
    ]


# --------------------------------------------------------------------------- lattice (raw text)


def _sentences(text: str) -> list[TokenizedSentence]:
    return tokenize(parse_conllu(text, on_invalid="keep"))


@pytest.mark.parametrize("gold_first", [True, False])
def test_stream_alignment_stops_where_one_file_ends(gold_first: bool) -> None:
    """One side ends after ``ONE``: the other's next sentence is where the text cannot be aligned;
    its iterator is pulled only for the 20 characters the message quotes (three more sentences)."""
    short, long_ = _sentences(ONE), _sentences(ONE + MORE + MORE)
    gold, pred = (short, _at_most(long_, 4)) if gold_first else (_at_most(long_, 4), short)
    with pytest.raises(MismatchError) as err:
        for _ in stream_alignment(gold, pred):  # type: ignore[arg-type]
            pass
    quoted = (
        "gold '' vs system 'ItpurredItpurredItpu'"
        if gold_first
        else "gold 'ItpurredItpurredItpu' vs system ''"
    )
    assert f"first difference at character 10: {quoted}" in err.value.message


def test_lattice_names_an_empty_gold_without_reading_the_prediction(tmp_path: Path) -> None:
    (tmp_path / "g.conllu").write_text("")
    (tmp_path / "p.conllu").write_text(ONE + MORE + BAD)
    res = run_module("lattice", str(tmp_path / "g.conllu"), str(tmp_path / "p.conllu"))
    assert res.returncode == 2, res.stderr
    assert len(res.stderr.splitlines()) == 1
    assert res.stderr.startswith(f"{tmp_path / 'p.conllu'}:2: the two files do not spell the same text")
    assert "first difference at character 1: gold '' vs system 'ThecatsatItpurredItp'" in res.stderr


# --------------------------------------------------------------------------- tedeval


@pytest.mark.parametrize("gold_longer", [True, False])
def test_tedeval_stops_at_the_first_sentence_without_a_counterpart(gold_longer: bool) -> None:
    one, many = parse_conllu(ONE), parse_conllu(ONE + TWO + TWO)
    streams = {
        "g": _at_most(many, 2) if gold_longer else iter(one),
        "p": iter(one) if gold_longer else _at_most(many, 2),
    }
    scheme = Scheme("a", NamedTrees("g", (), "g"), (NamedTrees("p", (), "p"),))
    with pytest.raises(MismatchError) as err:
        run_experiment([scheme], reader=lambda named: streams[named.name])  # type: ignore[arg-type,return-value]
    expected = (
        "gold 'g' has more sentences than 'p', which ends after 1: sentence 2 of 'g' has no counterpart"
        if gold_longer
        else "'p' has more sentences than gold 'g', which ends after 1: sentence 2 of 'p' has no counterpart"
    )
    assert err.value.message == expected


@pytest.mark.slow
def test_conll18_in_the_scorers_order_reads_on_keeping_nothing(tmp_path: Path) -> None:
    """``read_all=True`` reads the rest for its errors, as the scorer does, but keeps none of its
    text: an empty gold against 20,000 sentences used to keep every character and token position
    until the end (574 MB at 200,000 sentences)."""
    import tracemalloc

    (tmp_path / "s.conllu").write_text((ONE + TWO) * 10_000)  # 1.4 MB, read from the file
    tracemalloc.start()
    try:
        with pytest.raises(MismatchError, match="in gold file: '' and system file: 'ThecatsatItpurredThe'"):
            evaluate_conll18(b"", tmp_path / "s.conllu")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * 2**20, peak  # the reader's buffers (it was 35 MB)
