"""The atlas's construction grouping read from pattern files (``evalcore atlas --pattern``,
docs/patterns.md): the shipped ud.pat and sud.pat reproduce the atlas's default, atlas.pat (the rules
in code once; tests/test_patterns_shipped.py checks it on the committed oracle) -- every cell's
counted and discounted operations per construction, and every other grouping, on French-GSD test
under both protocols; without a file every scheme reads the default, whatever its name; a malformed
file stops the command with its file and line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_atlas import FR, french

from evalcore.atlas import Atlas, AtlasConfig, build_atlas, default_patterns
from evalcore.conversion import ConversionConfig
from evalcore.families.atlas import read_patterns
from evalcore.metrics.tedeval import TedConfig
from evalcore.patterns import shipped

SHIPPED = (f"ud={shipped('ud')}", f"sud={shipped('sud')}")


def _groups(atlas: Atlas) -> list[tuple[object, ...]]:
    return [
        (c.parse, c.target, c.labeled, g.grouping, g.group, g.counted, g.discounted, g.sentences)
        for c in atlas.cells
        for g in c.groups
    ]


@pytest.mark.slow
@pytest.mark.parametrize("protocol", ["2012", "2011"])
def test_the_shipped_files_reproduce_the_atlas_groups_on_french_test(protocol: str) -> None:
    ted = TedConfig(ConversionConfig(protocol=protocol))  # type: ignore[arg-type]
    schemes = french()
    code, _ = build_atlas(schemes, AtlasConfig(ted))
    patterns = read_patterns(SHIPPED, [s.name for s in schemes])
    files, _ = build_atlas(schemes, AtlasConfig(ted, patterns=patterns))
    assert _groups(files) == _groups(code)
    constructions = [g for g in _groups(code) if g[3] == "construction"]
    assert len({g[4] for g in constructions}) == 9  # every construction and 'other' occur: not vacuous
    assert "|pat:ud=ud.pat:" in files.signature and "|pat:" not in code.signature


def test_a_pattern_file_for_every_scheme_and_one_for_a_scheme(tmp_path: Path) -> None:
    every = tmp_path / "every.pat"
    every.write_text("construction verb\npattern { X [upos=VERB] }\n", encoding="utf-8")
    read = read_patterns((str(every), f"sud={shipped('sud')}"), ["ud", "sud"])
    assert [(p.scheme, p.name) for p in read] == [(None, "every.pat"), ("sud", "sud.pat")]
    config = AtlasConfig(patterns=read)
    assert config.patterns_of("sud") is read[1].file
    assert config.patterns_of("ud") is read[0].file  # no file of its own: the one for every scheme


def test_a_malformed_pattern_file_exits_2_with_its_file_and_line(
    run_cli: Callable[..., object], write_file: Callable[[str, str], str]
) -> None:
    bad = write_file("bad.pat", "construction copula\npattern { H -[cop]-> X }\npattern { X [upos==AUX] }\n")
    gold = str(FR / "fr_gsd-ud-test.r2.16.conllu.gz")
    res = run_cli("atlas", "--scheme", "ud", gold, "--pattern", bad, "--no-ranking")
    assert res.code == 2  # type: ignore[attr-defined]
    assert f"{bad}:3:" in res.err  # type: ignore[attr-defined]


def test_the_atlas_groups_by_the_file_it_is_given(tmp_path: Path) -> None:
    """A file of one construction: every operation falls in it or in 'other' (the first French
    sentences; the default file would give copula, adposition, determiner...)."""
    verbs = tmp_path / "verbs.pat"
    verbs.write_text("construction verb\npattern { X [upos=VERB] }\n", encoding="utf-8")
    schemes = [s.__class__(s.name, s.gold.__class__(s.gold.name, s.gold.trees[:8]), ()) for s in french()]
    code, _ = build_atlas(schemes, AtlasConfig())
    files, _ = build_atlas(schemes, AtlasConfig(patterns=read_patterns((str(verbs),), ["ud", "sud"])))
    named = {g[4] for g in _groups(files) if g[3] == "construction"}
    assert named == {"verb", "other"}
    assert len({g[4] for g in _groups(code) if g[3] == "construction"}) > 2


def test_without_a_file_every_scheme_reads_the_default_whatever_its_name() -> None:
    """No --pattern: the trees of every scheme, named ud, sud or anything else (a PTB conversion),
    take atlas.pat's constructions; the signature names no file."""
    config = AtlasConfig()
    for scheme in ("ud", "sud", "ptb", "x"):
        assert config.patterns_of(scheme) is default_patterns() and config.given_patterns_of(scheme) is None
    schemes = [s.__class__(s.name, s.gold.__class__(s.gold.name, s.gold.trees[:8]), ()) for s in french()]
    renamed = [s.__class__({"ud": "ptb", "sud": "x"}[s.name], s.gold, ()) for s in schemes]
    named, _ = build_atlas(schemes, AtlasConfig())
    other, _ = build_atlas(renamed, AtlasConfig())
    constructions = [g[3:] for g in _groups(named) if g[3] == "construction"]
    assert constructions == [g[3:] for g in _groups(other) if g[3] == "construction"]
    assert len({g[1] for g in constructions}) > 2 and "|pat:" not in other.signature
