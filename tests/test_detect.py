"""One table of file suffixes (evalcore.formats.detect.SUFFIX_FORMATS) behind every face that
chooses a reader by name: the command line (sniff_kind), the lattice reader (input_kind) and the
workbench's uploads (detect_format).  Expected formats: docs/formats.md, *Which reader reads what*."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalcore.formats.detect import SUFFIX_FORMATS, sniff_kind, suffix_format
from evalcore.lattice.reading import input_kind
from workbench.datasets import detect_format

# a text that says another format than the suffix: the suffix decides
OTHER_TEXT = {
    "conllu": b"(S (NN a))\n",
    "ptb": b"1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n",
    "lattice": b"(S (NN a))\n",
    "segmentation": b"(S (NN a))\n",
    "tokens": b"(S (NN a))\n",
    "prm": b"(S (NN a))\n",
}


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("a.conllu", "conllu"),
        ("a.conll.gz", "conllu"),
        ("A.CONLLX", "conllu"),
        ("wsj_0001.mrg", "ptb"),
        ("sample.tst", "ptb"),
        ("x.brackets.GZ", "ptb"),
        ("dev.lat", "lattice"),
        ("dev.LAT.gz", "lattice"),
        ("output.mapping", "lattice"),
        ("output.segmentation", "segmentation"),
        ("dev.tokens", "tokens"),
        ("COLLINS.prm", "prm"),
        ("notes.txt", None),
        ("upload", None),
        ("x.gz", None),
        ("x.lat.txt", None),  # the last suffix decides
    ],
)
def test_suffix_format(name: str, fmt: str | None) -> None:
    assert suffix_format(name) == fmt


@pytest.mark.parametrize("suffix", sorted(SUFFIX_FORMATS))
def test_every_face_reads_the_suffix_from_the_one_table(suffix: str, tmp_path: Path) -> None:
    fmt = SUFFIX_FORMATS[suffix]
    path = tmp_path / f"f{suffix}"
    path.write_bytes(OTHER_TEXT[fmt])
    if fmt in ("conllu", "ptb"):
        assert sniff_kind(path) == ("conll" if fmt == "conllu" else "brackets")
        assert input_kind(str(path)) == ("conll" if fmt == "conllu" else "brackets")
    if fmt in ("lattice", "segmentation"):
        assert input_kind(str(path)) == fmt
    if fmt != "segmentation":  # the app reads no segmentation file
        assert detect_format(path.name, path.read_bytes()) == fmt


def test_lat_is_a_lattice_everywhere(tmp_path: Path) -> None:
    arcs = tmp_path / "dev.lat"
    arcs.write_bytes(b"0\t1\tw\tw\tNN\tNN\t_\t1\n")
    assert input_kind(str(arcs)) == "lattice"
    assert detect_format(arcs.name, arcs.read_bytes()) == "lattice"
    assert suffix_format("dev.lat") == "lattice"


# a first line and what it says, by docs/formats.md ("A name the table does not know is read by
# its text"); the lattice reader sees lattices and segmentations there, the app every format but
# segmentation, the commands brackets or CoNLL
FIRST_LINES = [
    (b"  (S (NN a))\n", "ptb"),
    (b"0\t1\tw\tw\tNN\tNN\t_\t1\n", "lattice"),
    (
        b"0\t1\tw\tw\tNN\tNN\t_\t\xd9\xa1\n",
        "conllu",
    ),  # an Arabic-Indic digit is not a TOKEN_ID: 8 columns, CoNLL
    (b"\tb:h:gn\n", "segmentation"),
    (b"1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n", "conllu"),
    (b"word\n", "tokens"),
    (b"two words\n", None),
]


@pytest.mark.parametrize(("text", "fmt"), FIRST_LINES)
def test_the_first_line_rule_is_one_for_every_face(text: bytes, fmt: str | None, tmp_path: Path) -> None:
    from evalcore.errors import InputFormatError
    from evalcore.formats.detect import line_format

    assert line_format(text.decode()) == fmt
    path = tmp_path / "unnamed.txt"
    path.write_bytes(b"# a comment\n\n" + text)
    if fmt in ("lattice", "segmentation"):
        assert input_kind(str(path)) == fmt
    else:
        assert input_kind(str(path)) == ("brackets" if fmt == "ptb" else "conll")
    assert sniff_kind(path) == ("brackets" if fmt == "ptb" else "conll")
    if fmt is None or fmt == "segmentation":
        with pytest.raises(InputFormatError, match="cannot tell the format"):
            detect_format(path.name, path.read_bytes())
    else:
        assert detect_format(path.name, path.read_bytes()) == fmt
