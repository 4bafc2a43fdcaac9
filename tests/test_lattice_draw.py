"""Lattice drawings (evalcore.render.lattice_draw) and reading lattice inputs from bytes (InMemoryFile)."""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import pytest

from evalcore.errors import InputFormatError
from evalcore.formats.lattice import read_lattices
from evalcore.lattice.model import Lexeme
from evalcore.lattice.reading import InMemoryFile, load_pairing, read_gold, read_side
from evalcore.metrics.joint import evaluate
from evalcore.render.dot import lattice_to_dot
from evalcore.render.lattice_draw import (
    distinct_arcs,
    lattice_tree_to_dot,
    lattice_tree_to_tree,
    place_path,
    union_lattice,
)

ROOT = Path(__file__).resolve().parents[1]
YAP = ROOT / "assets" / "hebrew_yap"
FIX = ROOT / "tests" / "fixtures"


def mem(path: Path, name: str | None = None, *, gz: bool = False) -> InMemoryFile:
    data = path.read_bytes()
    return InMemoryFile(name or path.name, gzip.compress(data) if gz else data)


def test_in_memory_files_give_the_same_scores_as_paths() -> None:
    by_path = evaluate(
        load_pairing(
            str(FIX / "yap_alternative.conll"),
            str(YAP / "output.conll"),
            gold_lattice=str(FIX / "yap_alternative.lattice"),
            pred_lattice=str(YAP / "output.mapping"),
        )
    )
    by_bytes = evaluate(
        load_pairing(
            mem(FIX / "yap_alternative.conll"),
            mem(YAP / "output.conll", "output.conll.gz", gz=True),
            gold_lattice=mem(FIX / "yap_alternative.lattice"),
            pred_lattice=mem(YAP / "output.mapping"),
        )
    )
    assert by_bytes.segeval == by_path.segeval
    assert by_bytes.ted_labeled == by_path.ted_labeled
    assert by_bytes.ted_labeled is not None and round(by_bytes.ted_labeled.score, 4) == 0.8


def test_in_memory_file_errors_name_the_upload() -> None:
    bad = InMemoryFile("mine.conll", b"1\tx\t_\tNN\tNN\t_\tX\tsubj\t_\t_\n\n")
    with pytest.raises(InputFormatError) as info:
        read_side(bad)
    assert str(info.value).startswith("mine.conll:1:")
    gold = read_gold(mem(FIX / "yap_alternative.conll"), mem(FIX / "yap_alternative.lattice"))
    assert gold.path == "yap_alternative.conll" and gold.lattice == "yap_alternative.lattice"


def test_place_path_uses_the_ambiguity_lattice_states() -> None:
    lattice = next(read_lattices(YAP / "input.lattice"))
    pred = read_side(str(YAP / "output.conll"), str(YAP / "output.mapping"))[0]
    arcs = place_path(pred.lexemes, lattice)
    # output.mapping numbers its states 0..7; in the ambiguity lattice דגן is 2 -> 5 and ב ה גן 5 -> 8
    assert [(a.start, a.end, a.segment) for a in arcs] == [
        (0, 1, "גנן"),
        (1, 2, "גידל"),
        (2, 5, "דגן"),
        (5, 6, "ב"),
        (6, 7, "ה"),
        (7, 8, "גן"),
        (8, 9, "."),
    ]


def test_place_path_outside_the_lattice_gets_new_states() -> None:
    lattice = next(read_lattices(YAP / "input.lattice"))
    path = (
        Lexeme("גנן", "NN", 1, 0, 1),
        Lexeme("גידל", "NN", 2, 1, 2),  # segments in the lattice, tag not: the lattice's states
        Lexeme("ד", "X", 3, 2, 3),  # segments not in the lattice: new states inside the token
        Lexeme("גן", "X", 3, 3, 4),
    )
    arcs = place_path(path, lattice)
    assert (arcs[1].start, arcs[1].end) == (1, 2)
    assert arcs[2].start == 2 and arcs[3].end == 5 and arcs[2].end == arcs[3].start > 9
    dot = lattice_to_dot(lattice, gold_path=arcs)
    assert dot.count("not in lattice") == 3


def test_union_lattice_shares_agreeing_arcs_and_branches_elsewhere() -> None:
    gold = read_side(str(FIX / "yap_alternative.conll"), str(FIX / "yap_alternative.lattice"))[0]
    pred = read_side(str(YAP / "output.conll"), str(YAP / "output.mapping"))[0]
    lattice, (g, p) = union_lattice(gold.lexemes, pred.lexemes)
    assert [(a.start, a.end) for a in g] == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 6), (6, 7)]
    assert [(a.start, a.end) for a in p] == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)]
    assert len(lattice.arcs) == 8  # 5 shared + gold גן + predicted ה, גן
    assert lattice.states == tuple(range(8))


def test_distinct_arcs_keeps_one_arc_per_label() -> None:
    lattice = next(read_lattices(YAP / "input.lattice"))
    slim = distinct_arcs(lattice)
    keys = [(a.start, a.end, a.segment, a.cpos) for a in slim.arcs]
    assert len(keys) == len(set(keys)) < len(lattice.arcs)
    assert set(keys) == {(a.start, a.end, a.segment, a.cpos) for a in lattice.arcs}


def test_lattice_tree_mirrored_for_right_to_left() -> None:
    pred = read_side(str(YAP / "output.conll"), str(YAP / "output.mapping"))[0]
    assert pred.tree is not None
    ltr, where = lattice_tree_to_tree(pred.tree)
    rtl, _ = lattice_tree_to_tree(pred.tree, rtl=True)
    assert ltr.words == ("גנן", "גידל", "דגן", "ב", "ה", "גן", ".")
    assert rtl.words == tuple(reversed(ltr.words))
    # every node of the lattice tree has its node(s), a lexeme its tag node and its word
    assert len(where) == len(pred.tree) and len(ltr.nodes) == len(pred.tree) + len(pred.tree.path)
    k = next(i for i, lx in enumerate(pred.tree.lexemes) if lx is not None and lx.segment == "ה")
    tag, word = where[k]
    assert ltr.nodes[tag].label == "DEF" and ltr.nodes[word].label == "ה"
    dot = lattice_tree_to_dot(pred.tree, styles={k: "deleted"}, title="yap")
    assert 'class="deleted"' in dot and dot.count('class="deleted"') == 2


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot is not installed")
def test_hostile_segments_survive_dot() -> None:
    hostile = '<script>alert(1)</script>"]; a -> b [label="x'
    path = (Lexeme(hostile, "<b>", 1, 0, 1), Lexeme("\\N", "X", 2, 1, 2))
    lattice, (arcs,) = union_lattice(path)
    dot = lattice_to_dot(lattice, pred_path=arcs)
    svg = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True, check=True).stdout
    assert "<script>" not in svg and "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
