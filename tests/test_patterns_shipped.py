"""The shipped pattern files give every word the atlas's construction (docs/patterns.md, "The
shipped files"): ``ud.pat`` on UD trees, ``sud.pat`` on SUD trees, gold and parses.

The expected constructions are :func:`evalcore.atlas.construction_of`'s, rules written in code
separately from the files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evalcore.atlas import construction_of as atlas_construction
from evalcore.formats.conllu import read_conllu
from evalcore.patterns import compile_file, constructions, read_pattern_file, shipped

FR = Path(__file__).resolve().parent.parent / "assets" / "fr_gsd"


def _same_as_atlas(family: str, path: Path) -> int:
    cf = compile_file(read_pattern_file(shipped(family)))
    words = 0
    for t in read_conllu(path):
        expected = tuple(atlas_construction(t, w) for w in range(1, len(t) + 1))
        assert constructions(cf, t) == expected, t.sent_id
        words += len(t)
    return words


@pytest.mark.parametrize(
    ("family", "name"),
    [
        ("ud", "fr_gsd-ud-test.r2.16.conllu.gz"),
        ("sud", "fr_gsd-sud-test.r2.16.conllu.gz"),
        ("ud", "parses/fr_gsd-test.spacy-ud.conllu.gz"),
        ("ud", "parses/fr_gsd-test.spacy-ud-seed1.conllu.gz"),
        ("sud", "parses/fr_gsd-test.spacy-sud.conllu.gz"),
    ],
)
def test_shipped_files_agree_with_the_atlas_on_french_gsd_test(family: str, name: str) -> None:
    assert _same_as_atlas(family, FR / name) == 10_018


@pytest.mark.slow
@pytest.mark.parametrize("family", ["ud", "sud"])
def test_shipped_files_agree_with_the_atlas_on_french_gsd_dev(data: Path, family: str) -> None:
    path = data / "fr_gsd_ud_sud" / f"fr_gsd-{family}-dev.r2.16.conllu"
    if not path.is_file():
        pytest.skip(f"French-GSD dev not found at {path}")
    assert _same_as_atlas(family, path) == 35_721


def test_every_shipped_construction_is_an_atlas_construction_in_its_order() -> None:
    from evalcore.atlas import CONSTRUCTIONS

    order = [name for name, _ in CONSTRUCTIONS]
    for family in ("ud", "sud"):
        names = read_pattern_file(shipped(family)).names
        assert list(names) == order, family
