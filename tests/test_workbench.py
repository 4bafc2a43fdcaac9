"""The app's data layer without streamlit: dataset registry, format detection, pairing, evalb lines."""

from __future__ import annotations

import gzip

import pytest

from evalcore.errors import InputFormatError, MismatchError
from evalcore.formats.conllu import parse_conllu, read_conllu
from workbench.datasets import (
    ASSETS,
    BUILTINS,
    builtin,
    detect_format,
    pair_trees,
    read_ptb_lines,
    sentence_infos,
)


def test_builtin_files_exist_and_parses_name_a_loaded_gold() -> None:
    keys = [b.key for b in BUILTINS]
    assert keys == ["fr_gsd", "en_ewt", "hebrew_yap", "evalb", "farpahc"]
    for spec in BUILTINS:
        names = {f.name for f in spec.files}
        for f in spec.files:
            assert (ASSETS / f.path).is_file(), f.path
            if f.role == "parse" and f.against:
                assert f.against in names
                assert spec.file(f.against).role == "gold"
    assert builtin("fr_gsd").kind == "dependency"
    with pytest.raises(KeyError):
        builtin("nope")


@pytest.mark.parametrize(
    ("name", "data", "fmt"),
    [
        ("x.conllu", b"", "conllu"),
        ("x.conll.gz", b"", "conllu"),
        ("sample.tst", b"", "ptb"),
        ("a.lattice", b"", "lattice"),
        ("a.tokens", b"", "tokens"),
        ("upload", b"# c\n1\tw\t_\t_\t_\t_\t0\troot\t_\t_\n", "conllu"),
        ("upload", b"1\tw\tw\tNN\tNN\t_\t0\troot\n", "conllu"),
        ("upload", b"0\t1\tw\tw\tNN\tNN\t_\t1\n", "lattice"),
        ("upload", b"\n(S (NP x))\n", "ptb"),
        ("upload", gzip.compress(b"(S (NP x))\n", mtime=0), "ptb"),  # mtime=0: one id on every worker
        ("upload", b"word\nother\n", "tokens"),
    ],
)
def test_detect_format(name: str, data: bytes, fmt: str) -> None:
    assert detect_format(name, data) == fmt


def test_detect_format_says_where_it_gave_up() -> None:
    with pytest.raises(InputFormatError, match=r"^notes\.txt:2: cannot tell the format"):
        detect_format("notes.txt", b"\nsome words here\n")
    with pytest.raises(InputFormatError, match="empty"):
        detect_format("e", b"\n\n")


@pytest.mark.slow
def test_pair_trees_strict_and_skipping() -> None:
    v2 = list(read_conllu(ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz"))
    v1 = list(read_conllu(ASSETS / "en_ewt" / "en-ud-test.r1.4.conllu.gz"))
    with pytest.raises(MismatchError):
        pair_trees(v2, v1)
    pairing = pair_trees(v2, v1, skip_mismatch=True)
    assert len(pairing.left_out) == 7
    assert len(pairing.pairs) == len(v2) - 7
    assert pairing.left_out[0].startswith(v2[648].sent_id)
    one = parse_conllu("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n")
    with pytest.raises(MismatchError, match="1 sentences but the gold has 2"):
        pair_trees(one + one, one)


def test_evalb_lines_follow_evalb() -> None:
    data = (ASSETS / "evalb" / "sample" / "sample.tst").read_bytes()
    trees = read_ptb_lines(data, "sample.tst")
    assert len(trees) == 24  # evalb's 24 sentences (a file-level reading finds 25 trees)
    assert trees[10] is None and trees[13] is None  # empty lines: evalb's skip sentences 11 and 14
    forest = trees[7]
    assert forest is not None and forest.nodes[0].label == "" and len(forest.nodes[0].children) == 4
    assert forest.words == ("this", "is", "a", "test")
    infos = sentence_infos(trees)
    assert infos[10].text == "(empty line)" and infos[7].sent_id == "8"
    with pytest.raises(InputFormatError, match=r"^bad:2: "):
        read_ptb_lines(b"(S (A x))\n(S (A x)\n", "bad")


def test_sentence_ids_are_unique() -> None:
    trees = parse_conllu(
        "# sent_id = a\n1\tx\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
        "# sent_id = a\n1\ty\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
        "1\tz\t_\t_\t_\t_\t0\troot\t_\t_\n"
    )
    assert [i.sent_id for i in sentence_infos(trees)] == ["a", "2", "3"]
