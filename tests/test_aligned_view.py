"""The app's pieces for a parse of the raw text, without a running app (docs/app.md, "Parses of the
raw text"): the files put together (``workbench.datasets.assemble`` with ``workbench.cache.fit``),
the scorer's table as printed, the gold sentences worst first and one sentence's counts, and the
sidebar's "Loaded:" entries.

Expected numbers: the hand counts of the two-sentence example in ``tests/test_app_raw_text.py``
(its docstring; ``conll18_ud_eval.py -v`` prints the same).
"""

from __future__ import annotations

from test_app_raw_text import GOLD, OTHER_TEXT, RAW, SAME_COUNT

from evalcore.metrics.conll18 import evaluate_conll18
from workbench.attachment_view import (
    aligned_sentences_frame,
    aligned_worst,
    scorer_frame,
    sentence_counts_frame,
)
from workbench.cache import fit, read_file
from workbench.datasets import DatasetSpec, FileSpec, LoadedDataset, assemble
from workbench.uploads import loaded_names


def _dataset(*files: tuple[str, str, bytes]) -> LoadedDataset:
    """``(name, role, bytes)`` files as the upload panel gives them (parses against the first gold),
    put together as the app does."""
    gold = next(name for name, role, _ in files if role == "gold")
    read = [
        read_file(FileSpec(name, name, "conllu", role, against=gold if role == "parse" else ""), data)  # type: ignore[arg-type]
        for name, role, data in files
    ]
    spec = DatasetSpec("upload", "your files", "dependency", tuple(a.spec for a in read))
    return assemble(spec, read, align=fit)


def test_a_parse_of_the_raw_text_is_kept_aligned_and_another_text_refused() -> None:
    loaded = _dataset(
        ("gold.conllu", "gold", GOLD), ("raw.conllu", "parse", RAW), ("other.conllu", "parse", OTHER_TEXT)
    )
    assert [a.name for a in loaded.analyses] == ["gold.conllu"]  # paired by position: the gold alone
    assert [(p.name, p.gold.name) for p in loaded.aligned] == [("raw.conllu", "gold.conllu")]
    assert loaded.aligned[0].difference == "raw.conllu: the system file has 1 sentences but the gold has 2"
    assert loaded.has("raw.conllu") and not loaded.has("other.conllu")
    [error] = loaded.errors
    assert error.startswith("other.conllu:5: ")  # the line where the characters differ
    assert "not a parse of this gold's text" in error and error.endswith("(file not used)")
    assert loaded_names(loaded) == ["`gold.conllu` (gold)", "`raw.conllu` (parse of the raw text)"]
    assert [s.sent_id for s in loaded.sentences] == ["s1", "s2"]  # the gold's sentences


def test_without_the_alignment_a_parse_of_other_sentences_is_not_used() -> None:
    read = [
        read_file(FileSpec(n, n, "conllu", r, against="g"), d)
        for n, r, d in (("g", "gold", GOLD), ("p", "parse", RAW))
    ]  # type: ignore[arg-type]
    loaded = assemble(DatasetSpec("upload", "x", "dependency", tuple(a.spec for a in read)), read)
    assert not loaded.aligned and not loaded.has("p")
    assert loaded.errors == (
        "p: 1 sentences, but g has 2; files of one dataset must describe the same sentences (file not used)",
    )


def test_a_parse_of_the_gold_sentences_in_other_words_is_also_paired_by_position() -> None:
    """ "sleeps." one word: the gold's two sentences, other words; kept aligned and, as before,
    among the analyses drawn sentence by sentence (not compared word by word)."""
    merged = GOLD.replace(b"3\tsleeps\tsleep\tVERB", b"3\tsleeps.\tsleep\tVERB").replace(
        b"4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_\n", b""
    )
    loaded = _dataset(("gold.conllu", "gold", GOLD), ("merged.conllu", "parse", merged))
    assert [a.name for a in loaded.analyses] == ["gold.conllu", "merged.conllu"]
    assert [p.name for p in loaded.aligned] == ["merged.conllu"]
    assert "token 3 is 'sleeps.'" in loaded.aligned[0].difference
    assert loaded.default_pair() is None  # no parse of the gold's words: nothing to pair word by word
    assert loaded_names(loaded) == ["`gold.conllu` (gold)", "`merged.conllu` (parse of the raw text)"]


def test_the_gold_sentences_in_other_characters_are_kept_as_before() -> None:
    """Two sentences, "sleep" for "sleeps": not aligned by characters, but kept and drawn sentence by
    sentence (not compared), as yap's morphemes are for the Lattice page (tests/test_handoff.py)."""
    loaded = _dataset(("gold.conllu", "gold", GOLD), ("same_count.conllu", "parse", SAME_COUNT))
    assert [a.name for a in loaded.analyses] == ["gold.conllu", "same_count.conllu"]
    assert not loaded.aligned and not loaded.errors


def test_a_parse_of_the_gold_words_is_paired_by_position() -> None:
    loaded = _dataset(("gold.conllu", "gold", GOLD), ("same.conllu", "parse", GOLD))
    assert [a.name for a in loaded.analyses] == ["gold.conllu", "same.conllu"]
    assert not loaded.aligned and not loaded.errors


def test_the_scorers_table_as_printed() -> None:
    rows = {r[0]: list(r) for r in scorer_frame(evaluate_conll18(GOLD, RAW).scores).itertuples(index=False)}
    assert rows["Tokens"] == ["Tokens", "83.33", "71.43", "76.92", ""]  # blank, as the scorer prints
    assert rows["LAS"] == ["LAS", "50.00", "42.86", "46.15", "60.00"]  # 3/6, 3/7, 6/13, 3/5
    assert rows["CLAS"] == ["CLAS", "25.00", "25.00", "25.00", "33.33"]  # 1/4, 1/4, 2/8, 1/3


def test_gold_sentences_worst_first_with_their_share_of_the_words() -> None:
    loaded = _dataset(("gold.conllu", "gold", GOLD), ("raw.conllu", "parse", RAW))
    result = evaluate_conll18(GOLD, RAW, per_sentence=True)
    assert aligned_worst(result) == {0: 2 / 7, 1: 4 / 6}
    frame = aligned_sentences_frame(loaded, result)
    assert list(frame["sentence"]) == ["s1", "s2"]
    assert list(frame["gold words"]) == [4, 3] and list(frame["system words"]) == [3, 3]
    assert list(frame["LAS"]) == [28.57, 66.67] and list(frame["UAS"]) == [28.57, 66.67]
    assert list(frame["inspect"]) == ["./?data=upload&sent=s1", "./?data=upload&sent=s2"]
    # Dogs and "." attached elsewhere: s2 has no word right (LAS F1 0.00) and comes first
    worse = RAW.replace(b"\t5\tnsubj\t", b"\t3\tnsubj\t").replace(b"\t5\tpunct\t", b"\t4\tpunct\t")
    other = aligned_sentences_frame(loaded, evaluate_conll18(GOLD, worse, per_sentence=True))
    assert list(other["sentence"]) == ["s2", "s1"] and list(other["LAS"]) == [0.0, 28.57]
    counts = sentence_counts_frame(result.sentences[0])
    las = counts[counts["Metric"] == "LAS"].iloc[0]
    assert (las["correct"], las["gold"], las["system"], las["F1 Score"]) == (1, 4, 3, "28.57")
    assert list(counts["Metric"]) == [
        "Words",
        "UPOS",
        "XPOS",
        "UFeats",
        "AllTags",
        "Lemmas",
        "UAS",
        "LAS",
        "CLAS",
        "MLAS",
        "BLEX",
    ]
