"""The shipped pattern files give every word the atlas's construction (docs/patterns.md, "The
shipped files"): ``atlas.pat``, the atlas's default, on every tree whatever its scheme; ``ud.pat`` on
UD trees and ``sud.pat`` on SUD trees, gold and parses.

The expected constructions are the committed oracle ``tests/fixtures/constructions/`` (its
README.md): every word's construction under the rules in code that ``atlas.pat`` replaced, written
before they were deleted, on French-GSD test and dev (UD, SUD), the three spaCy parses, and EWT's,
FarPaHC's, GUM's and yap's CoNLL-U files -- the projectivized trees too.  These tests compared the
files with those rules directly until then (docs/decisions.md, "The atlas's constructions: one
declaration, the pattern file").
"""

from __future__ import annotations

import gzip
import hashlib
import sys
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from evalcore.atlas import CONSTRUCTIONS, construction_of
from evalcore.conversion import projectivize
from evalcore.formats.conllu import read_conllu
from evalcore.patterns import CompiledFile, compile_file, constructions, read_pattern_file, shipped
from evalcore.trees import DepTree

ORACLE = Path(__file__).resolve().parent / "fixtures" / "constructions"
sys.path.insert(0, str(ORACLE))

from make_constructions import CODES, SOURCES, source_path, source_text  # noqa: E402

FRENCH_TEST = {  # the French-GSD test files (shipped) and the family file of their scheme
    "fr_gsd-ud-test": "ud",
    "fr_gsd-sud-test": "sud",
    "fr_gsd-test.spacy-ud": "ud",
    "fr_gsd-test.spacy-ud-seed1": "ud",
    "fr_gsd-test.spacy-sud": "sud",
}
FAMILY = {**FRENCH_TEST, "fr_gsd-ud-dev": "ud", "fr_gsd-sud-dev": "sud"}
SLOW = {  # over 1 s of CPU each
    "fr_gsd-ud-dev",
    "fr_gsd-sud-dev",
    "en_ewt-ud-test.r2.16",
    "en-ud-test.r1.4",
    "en_ewt-ud-test.spacy-sm",
}


@cache
def _file(family: str) -> CompiledFile:
    return compile_file(read_pattern_file(shipped(family)))


@cache
def _trees(name: str) -> tuple[DepTree, ...]:
    path = source_path(dict(SOURCES)[name])
    if not path.is_file():
        pytest.skip(f"{name}: {path} not found")
    return tuple(read_conllu(path, on_invalid="keep"))


def _oracle(name: str) -> tuple[str, list[list[str]]]:
    """The oracle's header (the source's digest, trees and words) and its rows."""
    lines = gzip.decompress((ORACLE / f"{name}.txt.gz").read_bytes()).decode("utf-8").split("\n")
    assert lines[0] == f"# {dict(SOURCES)[name]}" and lines[-1] == ""
    return lines[1], [line.split("\t") for line in lines[2:-1]]


def _codes(cf: CompiledFile, tree: DepTree) -> str:
    return "".join(CODES[c] for c in constructions(cf, tree))


def _agrees(cf: CompiledFile, name: str, *, lifted: bool = True) -> int:
    """Check ``cf`` on every tree of oracle ``name`` (and on its lifted trees); its words."""
    header, rows = _oracle(name)
    trees = _trees(name)
    path = source_path(dict(SOURCES)[name])
    digest = hashlib.sha256(source_text(path).encode("utf-8")).hexdigest()
    words = sum(len(t.tokens) for t in trees)
    assert header == f"# sha256 {digest} trees {len(trees)} words {words}", "the source changed"
    for t, row in zip(trees, rows, strict=True):
        assert row[0] == t.sent_id and _codes(cf, t) == row[1], t.sent_id
        if lifted and len(row) == 3:
            assert _codes(cf, projectivize(t)[0]) == row[2], t.sent_id
    return words


def _params(names: Iterable[str]) -> list[Any]:
    """The names, those of :data:`SLOW` marked slow."""
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in names]


@pytest.mark.parametrize("name", _params([n for n, _ in SOURCES]))
def test_atlas_pat_gives_the_oracle_on_every_word(name: str) -> None:
    """The atlas's default file, on every tree of every file whatever its scheme, and on the
    projectivized trees (the 2011 protocol's)."""
    assert _agrees(_file("atlas"), name) > 0


@pytest.mark.parametrize("name", _params(FAMILY))
def test_ud_pat_and_sud_pat_give_the_oracle_on_their_schemes_trees(name: str) -> None:
    words = _agrees(_file(FAMILY[name]), name, lifted=False)
    assert words == (35_721 if "dev" in name else 10_018)


def test_construction_of_reads_the_default_file() -> None:
    """``evalcore.atlas.construction_of`` (one word) is the file's, word by word."""
    _, rows = _oracle("fr_gsd-sud-test")
    for t, row in list(zip(_trees("fr_gsd-sud-test"), rows, strict=True))[:40]:
        assert "".join(CODES[construction_of(t, w)] for w in range(1, len(t.tokens) + 1)) == row[1]
    assert construction_of(_trees("fr_gsd-sud-test")[0], 0) == "other"
    assert construction_of(_trees("fr_gsd-sud-test")[0], 10_000) == "other"


@pytest.mark.parametrize("family", [pytest.param("atlas", marks=pytest.mark.slow), "ud", "sud"])
def test_removing_any_one_entry_changes_a_word_of_french_test(family: str) -> None:
    """No entry is dead weight: without any one of them some word of the French-GSD test files
    (the atlas's: all five; a family's: those of its scheme) gets another construction.  (The
    PUNCT entry shows only on the spaCy parses: the golds' PUNCT words are all ``punct``.)"""
    cf = _file(family)
    names = [n for n, f in FRENCH_TEST.items() if family in ("atlas", f)]
    expected = {n: [row[1] for row in _oracle(n)[1]] for n in names}
    for k, entry in enumerate(cf.patterns.constructions):
        kept = cf.patterns.constructions[:k] + cf.patterns.constructions[k + 1 :]
        without = compile_file(replace(cf.patterns, constructions=kept))
        changed = any(
            _codes(without, t) != codes
            for n in names
            for t, codes in zip(_trees(n), expected[n], strict=True)
        )
        assert changed, f"{family}.pat line {entry.line}: {entry.name}"


def test_the_atlas_constructions_are_the_default_files_in_its_order() -> None:
    """:data:`evalcore.atlas.CONSTRUCTIONS` is read from ``atlas.pat``'s headers (names in order,
    each with its description; ``other`` last); ``ud.pat`` and ``sud.pat`` name the same ones in
    the same order; the oracle's codes are these constructions."""
    default = read_pattern_file(shipped("atlas"))
    order = [name for name, _ in CONSTRUCTIONS]
    assert order == list(default.names) == list(CODES)
    assert all(description for _, description in CONSTRUCTIONS)
    for family in ("ud", "sud"):
        assert list(read_pattern_file(shipped(family)).names) == order, family
