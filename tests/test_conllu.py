"""CoNLL-U / CoNLL-X reader and CoNLL-U writer (docs/formats.md, "CoNLL-U and CoNLL-X")."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from ec_support import ASSETS, conllu_line, conllu_sentence

from evalcore.errors import InputFormatError, TreeStructureError
from evalcore.formats.conllu import parse_conllu, read_conllu, write_conllu

UD_SENTENCE = """\
# newdoc id = doc1
# sent_id = s1
# text = Du vin.
1-2\tDu\t_\t_\t_\t_\t_\t_\t_\t_
1\tDe\tde\tADP\t_\t_\t3\tcase\t_\t_
2\tle\tle\tDET\t_\tDefinite=Def\t3\tdet\t_\t_
3\tvin\tvin\tNOUN\t_\tGender=Masc\t0\troot\t_\tSpaceAfter=No
3.1\tboit\tboire\tVERB\t_\t_\t_\t_\t0:root\t_
4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_

"""


def test_reads_fields_comments_and_lines() -> None:
    (t,) = parse_conllu(UD_SENTENCE, name="x.conllu")
    assert t.sent_id == "s1"
    assert t.text == "Du vin."
    assert t.comments == ("# newdoc id = doc1", "# sent_id = s1", "# text = Du vin.")
    assert t.forms == ("De", "le", "vin", ".")
    assert t.heads == (3, 3, 0, 3)
    assert t.deprels == ("case", "det", "root", "punct")
    assert t.tokens[1].feats == "Definite=Def"
    assert t.tokens[2].misc == "SpaceAfter=No"
    assert t.source is not None
    assert (t.source.file, t.source.line) == ("x.conllu", 5)
    assert t.source.token_lines == (5, 6, 7, 9)


def test_multiword_tokens_and_empty_nodes_are_kept_but_are_not_nodes() -> None:
    (t,) = parse_conllu(UD_SENTENCE)
    assert len(t) == 4
    assert [(e.id, e.after, e.is_range, e.form) for e in t.extras] == [
        ("1-2", 0, True, "Du"),
        ("3.1", 3, False, "boit"),
    ]
    assert t.children[3] == (1, 2, 4)
    assert t.children[0] == (3,)


def test_write_reproduces_the_input() -> None:
    assert write_conllu(parse_conllu(UD_SENTENCE)) == UD_SENTENCE
    assert write_conllu([]) == ""


def test_several_sentences_and_blank_line_runs() -> None:
    text = conllu_sentence([0, 1], sent_id="a") + "\n\n" + conllu_sentence([0], sent_id="b")
    trees = parse_conllu(text)
    assert [t.sent_id for t in trees] == ["a", "b"]
    assert trees[1].source is not None and trees[1].source.line == 8


def test_conllx_without_comments_and_with_phead_columns() -> None:
    line = "1\tJohn\tjohn\tN\tNNP\t_\t2\tSBJ\t2\tSBJ\n2\truns\trun\tV\tVBZ\t_\t0\tROOT\t0\tROOT\n\n"
    (t,) = parse_conllu(line)
    assert t.sent_id == ""
    assert t.label == "at line 1"
    assert t.tokens[0].deps == "2"  # PHEAD kept raw in the 9th column
    assert t.heads == (2, 0)


def test_eight_columns_as_written_by_yap_and_maltparser() -> None:
    text = "1\tגנן\tגנן\tNN\tNN\tgen=M\t2\tsubj\n2\tגידל\tגידל\tVB\tVB\t_\t0\tROOT\n\n"
    (t,) = parse_conllu(text)
    assert t.heads == (2, 0)
    assert (t.tokens[0].deps, t.tokens[0].misc) == ("_", "_")


def test_ud_v1_comments_give_text_and_old_style_sent_id() -> None:
    text = "# sentence-text: What if\n# sent_id 12\n" + conllu_line(1, "What", 0) + "\n\n"
    (t,) = parse_conllu(text)
    assert (t.text, t.sent_id) == ("What if", "12")


def test_sent_id_without_a_value_stays_empty() -> None:
    (t,) = parse_conllu("# sent_id = \n" + conllu_line(1, "a", 0) + "\n")
    assert t.sent_id == ""


def test_comment_only_block_is_not_a_sentence() -> None:
    text = "# global.columns = ID FORM\n\n" + conllu_sentence([0])
    assert len(parse_conllu(text)) == 1
    assert parse_conllu("# only a comment\n") == []


@pytest.mark.parametrize(
    "content",
    [b"", b"\n", b"\n\n\n", b"\xef\xbb\xbf", b"   \n\t\n"],
    ids=["empty", "newline", "blank-lines", "bom-only", "whitespace"],
)
def test_empty_inputs_are_zero_sentences(content: bytes) -> None:
    assert list(read_conllu(content, name="e")) == []


def test_bom_crlf_and_missing_final_blank_line_are_accepted() -> None:
    plain = conllu_sentence([0, 1], sent_id="a") + conllu_sentence([2, 0], sent_id="b")
    expected = parse_conllu(plain)
    variants = {
        "bom": b"\xef\xbb\xbf" + plain.encode(),
        "crlf": plain.replace("\n", "\r\n").encode(),
        "no-final-blank": plain.rstrip("\n").encode(),
        "all-three": b"\xef\xbb\xbf" + plain.rstrip("\n").replace("\n", "\r\n").encode(),
    }
    for name, raw in variants.items():
        got = list(read_conllu(raw, name=name))
        assert got == expected, name
        assert got[0].sent_id == "a", name  # the BOM is not part of the first comment


def test_gzip_path_and_gzip_bytes(tmp_path: Path) -> None:
    text = conllu_sentence([0, 1], sent_id="z")
    path = tmp_path / "x.conllu.gz"
    path.write_bytes(gzip.compress(text.encode()))
    assert [t.sent_id for t in read_conllu(path)] == ["z"]
    assert [t.sent_id for t in read_conllu(gzip.compress(text.encode()), name="up")] == ["z"]


@pytest.mark.slow
def test_shipped_treebanks_read_and_write_back_byte_for_byte() -> None:
    for name, sentences, tokens in [
        ("fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz", 416, 10018),
        ("fr_gsd/fr_gsd-sud-test.r2.16.conllu.gz", 416, 10018),
        ("en_ewt/en_ewt-ud-test.r2.16.conllu.gz", 2077, 25094),
        ("en_ewt/en-ud-test.r1.4.conllu.gz", 2077, None),
    ]:
        path = ASSETS / name
        trees = list(read_conllu(path))
        assert len(trees) == sentences, name
        if tokens is not None:
            assert sum(len(t) for t in trees) == tokens, name
        assert write_conllu(trees).encode("utf-8") == gzip.decompress(path.read_bytes()), name


def test_ewt_r14_has_text_but_no_sent_id() -> None:
    first = next(iter(read_conllu(ASSETS / "en_ewt" / "en-ud-test.r1.4.conllu.gz")))
    assert first.sent_id == ""
    assert first.text == "What if Google Morphed Into GoogleOS?"


def test_spmrl_hebrew_dev_gold_has_seven_cyclic_trees(data: Path) -> None:
    path = data / "hebrew" / "spmrl_hebtb" / "dev_hebtb-gold.conll"
    trees = list(read_conllu(path, on_invalid="keep"))
    assert len(trees) == 500
    bad = [t for t in trees if t.structure_problem() is not None]
    assert len(bad) == 7
    with pytest.raises(TreeStructureError) as info:
        list(read_conllu(path))
    assert str(info.value).startswith(f"{path}:")


# ---------------------------------------------------------------------------
# Reader errors: one line FILE:LINE: what is wrong


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("1\ta\t_\t_\t_\t_\t0\troot\t_\n", 1, "expected 10 tab-separated columns, found 9"),
        ("1 a _ _ _ _ 0 root _ _\n", 1, "found 1"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\t\n", 1, "found 11"),
        ("x\ta\t_\t_\t_\t_\t0\troot\t_\t_\n", 1, "ID 'x' is not an integer, range or decimal"),
        ("01\ta\t_\t_\t_\t_\t0\troot\t_\t_\n", 1, "ID '01'"),
        ("2\ta\t_\t_\t_\t_\t0\troot\t_\t_\n", 1, "ID '2' out of sequence (expected 1)"),
        (conllu_line(1, "a", 0) + "\n" + conllu_line(1, "b", 1) + "\n", 2, "out of sequence (expected 2)"),
        (conllu_line(1, "a", "_") + "\n", 1, "HEAD '_' of token 1 is not a non-negative integer"),
        (conllu_line(1, "a", "-1") + "\n", 1, "HEAD '-1'"),
        (conllu_line(1, "a", "1.5") + "\n", 1, "HEAD '1.5'"),
        (conllu_line(1, "a", "٣") + "\n", 1, "HEAD '٣'"),
        # a HEAD past 18 digits is past any sentence, quoted as written (leading zeros kept); past
        # int()'s 4,300 digits too
        (conllu_line(1, "a", "0" * 5 + "1" * 20) + "\n", 1, f"HEAD '{'0' * 5 + '1' * 20}' points past"),
        (
            conllu_line(1, "a", "9" * 5000) + "\n",
            1,
            f"HEAD '{'9' * 39}…' points past the sentence (1 tokens)",
        ),
        ("#c\n" + conllu_line(1, "a", 0) + "\n" + conllu_line(2, "b", 3) + "\n", 3, "HEAD '3' points past"),
    ],
)
def test_format_errors_name_file_and_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(InputFormatError) as info:
        parse_conllu(text, name="f.conllu")
    message = str(info.value)
    assert message.startswith(f"f.conllu:{line}: ")
    assert fragment in message
    assert "\n" not in message


def test_head_out_of_range_is_a_format_error_even_when_keeping_invalid_trees() -> None:
    with pytest.raises(InputFormatError, match=r"^g:2: HEAD '9' points past the sentence \(2 tokens\)"):
        parse_conllu(conllu_sentence([0, 9]), name="g", on_invalid="keep")


@pytest.mark.parametrize(
    ("heads", "line", "fragment"),
    [
        ([0, 3, 2], 2, "cycle through token 2"),
        ([2, 1], 1, "sentence has no root"),
        ([0, 2], 2, "token 2 is its own head"),
    ],
)
def test_structure_errors_raise_or_are_kept(heads: list[int], line: int, fragment: str) -> None:
    text = conllu_sentence(heads)
    with pytest.raises(TreeStructureError) as info:
        parse_conllu(text, name="t")
    assert str(info.value).startswith(f"t:{line}: {fragment}")
    (kept,) = parse_conllu(text, name="t", on_invalid="keep")
    assert kept.structure_problem() is not None


def test_error_names_the_sentence() -> None:
    text = "# sent_id = s9\n" + conllu_line(1, "a", 0) + "\n" + "2\tb\t_\n"
    with pytest.raises(InputFormatError) as info:
        parse_conllu(text, name="f")
    assert str(info.value) == "f:3: expected 10 tab-separated columns, found 3 (sentence s9)"


def test_invalid_utf8_names_the_line() -> None:
    raw = (conllu_line(1, "a", 0) + "\n").encode() + b"2\t\xff\t_\t_\t_\t_\t1\tdep\t_\t_\n"
    with pytest.raises(InputFormatError, match=r"^u:2: not valid UTF-8"):
        list(read_conllu(raw, name="u"))


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.conllu"
    with pytest.raises(InputFormatError, match=r"nope\.conllu: cannot open"):
        list(read_conllu(missing))


def test_a_directory_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFormatError, match="cannot open"):
        list(read_conllu(tmp_path))


def test_truncated_gzip_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "t.conllu.gz"
    path.write_bytes(gzip.compress((conllu_sentence([0, 1]) * 50).encode())[:40])
    with pytest.raises(InputFormatError, match="cannot read"):
        list(read_conllu(path))
