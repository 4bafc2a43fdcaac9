"""The render layer: layout geometry, arc statuses, escaping in SVG and DOT, right-to-left text.

DOT output is fed to the real Graphviz ``dot`` (skipped, with the reason
shown, only if it is not installed; CI installs it).
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from itertools import combinations, pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalcore.formats.conllu import read_conllu
from evalcore.formats.lattice import read_lattices
from evalcore.formats.ptb import read_ptb
from evalcore.inspection import arc_verdicts
from evalcore.metrics.attachment import AttachConfig
from evalcore.render.dot import NODE_STYLES, dep_to_dot, lattice_to_dot, tree_to_dot
from evalcore.render.layout import DepLayout, layout_dep, merge_grids, word_grid
from evalcore.render.svg import dep_svg
from evalcore.render.text import dot_html, dot_quoted, neutralize, text_width, xml_escape
from evalcore.trees import Arc, DepTree, Lattice, MFNode, MFTree, Token, Tree

ROOT = Path(__file__).resolve().parents[1]
ASSETS = ROOT / "assets"
SVG_NS = "{http://www.w3.org/2000/svg}"

SCRIPT = "<script>alert(1)</script>"
DOT_INJECTION = '"]; a -> b [label="x'
HOSTILE = [
    SCRIPT,
    DOT_INJECTION,
    "a&b <i>x</i> 'q' \"dq\"",
    "{braces} [brackets] \\N \\l back\\slash",
    "line\nbreak\rcarriage\ttab",
    "rlo\u202eevil\u202c rlm\u200f lri\u2066x\u2069",
    "]]>--><!--",
]

DOT = shutil.which("dot")
needs_dot = pytest.mark.skipif(
    DOT is None, reason="Graphviz `dot` is not installed (apt-get install graphviz)"
)


# ---------------------------------------------------------------------------
# helpers


def dep(
    heads: list[int], labels: list[str] | None = None, forms: list[str] | None = None, **kw: str
) -> DepTree:
    n = len(heads)
    labels = labels or ["dep"] * n
    forms = forms or [f"w{i + 1}" for i in range(n)]
    toks = tuple(
        Token(i + 1, forms[i], upos=kw.get("upos", "NOUN"), head=heads[i], deprel=labels[i]) for i in range(n)
    )
    return DepTree(toks, sent_id=kw.get("sent_id", "s1"))


def random_tree(n: int, rng: random.Random, projective: bool) -> list[int]:
    """Random heads for n words (one root), projective or not."""
    if projective:
        # random binary-ish bracketing: attach each word to a neighbour chain, built left to right
        heads = [0] * n
        order = list(range(1, n + 1))
        root = rng.choice(order)
        stack = [root]
        placed = {root}
        for w in sorted(order, key=lambda w: abs(w - root)):
            if w in placed:
                continue
            # attach to the closest placed word on the side of the root: keeps arcs nested
            side = [p for p in placed if (p - w) * (root - w) > 0 or p == root]
            heads[w - 1] = min(side, key=lambda p: abs(p - w))
            placed.add(w)
            stack.append(w)
        return heads
    heads = [0] * n
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    for k, w in enumerate(perm[1:], start=1):
        heads[w - 1] = perm[rng.randrange(k)]
    return heads


LABELS = ["nsubj", "obj", "obl", "det", "case", "amod", "advmod", "punct", "conj", "cc", "nmod", "aux:pass",
          "comp:obj", "mod@relcl", "flat:name", "acl:relcl", "compound:prt", "x"]  # fmt: skip


def boxes_overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_geometry(lay: DepLayout) -> None:
    """Everything the layout promises (module docstring of evalcore.render.layout)."""
    words = sorted(lay.words, key=lambda w: w.x)
    for a, b in pairwise(words):
        assert a.right <= b.left + 1e-6, f"words {a.id} and {b.id} overlap"
    boxes = [lay.label_box(a) for a in lay.arcs]
    for (i, p), (j, q) in combinations(enumerate(boxes), 2):
        assert not boxes_overlap(p, q), (
            f"labels of arcs {lay.arcs[i].dependent} and {lay.arcs[j].dependent} overlap"
        )
    for box in boxes:
        assert box[0] >= 0 and box[2] <= lay.width, "a label sticks out of the drawing"
        assert box[1] >= 0 and box[3] <= lay.base_y, "a label is below the arcs' feet"
    by_id = {w.id: w for w in lay.words}
    for a in lay.arcs:
        dep_word = by_id[a.dependent]
        assert dep_word.left <= a.x_dep <= dep_word.right
        if not a.vertical:
            head_word = by_id[a.head]
            assert head_word.left <= a.x_head <= head_word.right
    # ports are distinct at every word
    ends: dict[float, int] = {}
    for a in lay.arcs:
        for x in {a.x_dep, a.x_head}:
            ends[round(x, 3)] = ends.get(round(x, 3), 0) + 1
    assert all(
        c == 1 for x, c in ends.items() if x not in {round(a.x_dep, 3) for a in lay.arcs if a.vertical}
    )
    # nested arcs are lower; same-level segments do not touch
    flat = [a for a in lay.arcs if not a.vertical]
    for a, b in combinations(flat, 2):
        a_lo, a_hi = sorted((a.head, a.dependent))
        b_lo, b_hi = sorted((b.head, b.dependent))
        if (a_lo, a_hi) == (b_lo, b_hi):  # a 2-cycle (invalid input): one above the other
            assert a.level != b.level
        elif a_lo <= b_lo and b_hi <= a_hi:
            assert b.level < a.level, f"arc {b.dependent} is nested in arc {a.dependent} but not below it"
        elif b_lo <= a_lo and a_hi <= b_hi:
            assert a.level < b.level
        if a.level == b.level:
            assert a.right < b.left or b.right < a.left, (
                f"arcs {a.dependent} and {b.dependent} share a segment"
            )


# ---------------------------------------------------------------------------
# geometry


@pytest.mark.parametrize("projective", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_sixty_words_no_overlapping_labels(seed: int, projective: bool) -> None:
    rng = random.Random(seed)
    n = 60
    gold_heads = random_tree(n, rng, projective)
    sys_heads = [
        h if rng.random() < 0.6 else random_tree(n, rng, projective)[i] for i, h in enumerate(gold_heads)
    ]
    gold_labels = [rng.choice(LABELS) for _ in range(n)]
    sys_labels = [g if rng.random() < 0.6 else rng.choice(LABELS) for g in gold_labels]
    forms = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 14))) for _ in range(n)
    ]
    gold = dep(gold_heads, gold_labels, forms)
    system = dep(sys_heads, sys_labels, forms)
    check_geometry(layout_dep(gold))
    lay = layout_dep(system, arc_verdicts(gold, system))
    check_geometry(lay)
    assert lay.compared
    assert lay.status_counts().get("wrong-head", 0) > 0


@pytest.mark.parametrize("shape", ["chain", "flat", "flat-right", "alternating"])
def test_extreme_shapes_sixty_words(shape: str) -> None:
    n = 60
    if shape == "chain":
        heads = [i + 2 if i + 1 < n else 0 for i in range(n)]
    elif shape == "flat":
        heads = [0] + [1] * (n - 1)
    elif shape == "flat-right":
        heads = [n] * (n - 1) + [0]
    else:
        heads = [0] + [1 if i % 2 else i for i in range(1, n)]
    labels = ["a-much-longer-label:than-usual" if i % 3 == 0 else "x" for i in range(n)]
    lay = layout_dep(dep(heads, labels))
    check_geometry(lay)


@pytest.mark.slow
@given(st.integers(min_value=1, max_value=60), st.randoms(use_true_random=False), st.booleans())
def test_property_no_overlap(n: int, rng: random.Random, projective: bool) -> None:
    heads = random_tree(n, rng, projective)
    labels = [rng.choice(LABELS) for _ in range(n)]
    gold = dep(heads, labels)
    other = dep(random_tree(n, rng, not projective), [rng.choice(LABELS) for _ in range(n)])
    check_geometry(layout_dep(other, arc_verdicts(gold, other)))


def test_invalid_trees_still_draw() -> None:
    # a cycle 1 -> 2 -> 1 and a self-loop: drawn, not crashing (the reader keeps them with on_invalid="keep")
    lay = layout_dep(dep([2, 1, 3, 0]))
    check_geometry(lay)
    assert [a.vertical for a in lay.arcs] == [False, False, True, True]


def test_long_chains_are_iterative() -> None:
    n = 1000
    chain = layout_dep(dep([i + 2 if i + 1 < n else 0 for i in range(n)]))
    assert chain.levels <= 3  # adjacent arcs share the lowest levels
    flat = layout_dep(dep([0] + [1] * 199))
    assert flat.levels == 200  # 199 nested arcs + the root arrow above them


def test_arc_height_follows_nesting_not_distance() -> None:
    """Arcs are as high as what they span needs, not as long as they are.  Word 1 heads
    word 30 (distance 29) over a chain 2 -> 3 -> ... -> 30 of adjacent arcs: the chain is one level
    (depth 1), the long arc sits on it (depth 2), the root arrow of word 1 above that (3)."""
    n = 30
    heads = [0] + [i + 2 for i in range(1, n - 1)] + [1]  # word k+1's head; word 30's head is word 1
    lay = layout_dep(dep(heads, ["root"] + ["dep"] * (n - 2) + ["obj"]))
    level = {a.dependent: a.level for a in lay.arcs}
    assert {level[k] for k in range(2, n)} == {1}
    assert level[n] == 2
    assert level[1] == 3 and lay.levels == 3
    check_geometry(lay)


def test_word_spacing_fits_adjacent_labels() -> None:
    lay = layout_dep(dep([2, 0], ["a-very-long-relation-name:subtype", "root"], ["a", "b"]))
    arc = next(a for a in lay.arcs if a.dependent == 1)
    assert arc.level == 1  # the label fits between the two words, no need to climb
    check_geometry(lay)


def test_grid_aligns_words_across_drawings() -> None:
    forms = ["Le", "chat", "dort", "profondément", "."]
    a = dep([2, 3, 0, 3, 3], ["det", "nsubj", "root", "advmod", "punct"], forms)
    b = dep([2, 0, 2, 3, 2], ["det", "root", "comp:a-rather-long-label", "mod", "punct"], forms)
    # the grid comes from the same drawings (b compared with a: longer "x (gold y)" labels)
    grid = merge_grids([word_grid(layout_dep(a)), word_grid(layout_dep(b, arc_verdicts(a, b)))])
    assert grid is not None
    la, lb = layout_dep(a, grid=grid), layout_dep(b, arc_verdicts(a, b), grid=grid)
    assert [w.x for w in la.words] == pytest.approx([w.x for w in lb.words])
    check_geometry(la)
    check_geometry(lb)
    assert merge_grids([word_grid(la), word_grid(layout_dep(dep([0, 1])))]) is None  # lengths differ


# ---------------------------------------------------------------------------
# statuses


def test_arc_statuses_and_label_text() -> None:
    gold = dep([2, 0, 2, 3], ["nsubj", "root", "obj", "case"])
    system = dep([2, 0, 2, 2], ["nsubj", "root", "obl", "case"])
    lay = layout_dep(system, arc_verdicts(gold, system))
    status = {a.dependent: a.status for a in lay.arcs}
    assert status == {1: "correct", 2: "correct", 3: "wrong-label", 4: "wrong-head"}
    texts = {a.dependent: a.text for a in lay.arcs}
    assert texts[3] == "obl (gold obj)"
    assert texts[4] == "case"
    wrong = next(a for a in lay.arcs if a.dependent == 4)
    assert (wrong.gold_head, wrong.gold_label) == (3, "case")
    assert all(a.status == "plain" for a in layout_dep(gold).arcs)


def test_deprel_base_follows_the_metric() -> None:
    gold = dep([0, 1], ["root", "obl:mod"])
    system = dep([0, 1], ["root", "obl:arg"])
    assert layout_dep(system, arc_verdicts(gold, system)).arcs[1].status == "wrong-label"
    base = arc_verdicts(gold, system, AttachConfig(deprel_base=True))
    assert layout_dep(system, base).arcs[1].status == "correct"


def test_compare_needs_same_length() -> None:
    with pytest.raises(ValueError, match="cannot compare"):
        arc_verdicts(dep([0, 1, 1]), dep([0, 1]))
    with pytest.raises(ValueError, match="cannot compare"):
        layout_dep(dep([0, 1]), arc_verdicts(dep([0, 1, 1]), dep([0, 1, 1])))


def test_svg_marks_statuses_with_classes_colours_and_dashes() -> None:
    gold = dep([2, 0, 2, 3], ["nsubj", "root", "obj", "case"])
    system = dep([2, 0, 2, 2], ["nsubj", "root", "obl", "case"])
    root = ET.fromstring(dep_svg(layout_dep(system, arc_verdicts(gold, system))))
    groups = {
        g.get("data-dep"): g for g in root.iter(f"{SVG_NS}g") if "arc" in (g.get("class") or "").split()
    }
    assert "arc-wrong-head" in groups["4"].get("class", "")
    assert "arc-wrong-label" in groups["3"].get("class", "")
    assert "arc-correct" in groups["1"].get("class", "")
    head_path = groups["4"].find(f"{SVG_NS}path")
    label_path = groups["3"].find(f"{SVG_NS}path")
    assert head_path is not None and label_path is not None
    assert head_path.get("stroke") == "#d62728" and head_path.get("stroke-dasharray")
    assert label_path.get("stroke") == "#e07b00" and label_path.get("stroke-dasharray")
    assert head_path.get("stroke-dasharray") != label_path.get("stroke-dasharray")  # not colour alone
    labels = [t.text for t in root.iter(f"{SVG_NS}text")]
    assert "obl (gold obj)" in labels


# ---------------------------------------------------------------------------
# escaping


def test_neutralize_makes_controls_visible() -> None:
    assert neutralize("a\nb") == "a\\nb"
    assert neutralize("x\u202ey") == "x\\u202ey"
    assert neutralize("bell\x07") == "bell\\x07"
    assert neutralize("plain <text> & {}") == "plain <text> & {}"
    assert xml_escape(SCRIPT) == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert dot_quoted('a"b\\N') == '"a\\"b\\\\N"'
    assert dot_html("a\\N <b>") == "a\\\\N &lt;b&gt;"
    assert text_width("\u202e", 10) > 0  # the escape text is what gets drawn and measured


@pytest.mark.parametrize("hostile", HOSTILE)
def test_svg_draws_hostile_strings_literally(hostile: str) -> None:
    tree = DepTree(
        (
            Token(1, hostile, hostile, hostile, hostile, head=0, deprel=hostile),
            Token(2, "ok", upos=hostile, head=1, deprel=hostile),
        ),
        sent_id=hostile,
    )
    gold = DepTree(
        (Token(1, hostile, head=0, deprel="root"), Token(2, "ok", head=1, deprel=hostile + "2")), sent_id="g"
    )
    svg = dep_svg(layout_dep(tree, arc_verdicts(gold, tree)), title=hostile)
    root = ET.fromstring(svg)  # well-formed XML whatever the input
    tags = {el.tag.removeprefix(SVG_NS) for el in root.iter()}
    assert tags <= {"svg", "title", "rect", "g", "path", "text"}, tags
    assert all(not k.lower().startswith("on") for el in root.iter() for k in el.attrib)
    texts = [t.text or "" for t in root.iter(f"{SVG_NS}text")] + [
        t.text or "" for t in root.iter(f"{SVG_NS}title")
    ]
    assert neutralize(hostile) in texts  # the form, drawn as it is (controls made visible)
    assert f"{neutralize(hostile)} (gold {neutralize(hostile)}2)" in texts  # a wrong label
    for ch in "\n\r\t\u202e\u200f\u2066":
        assert all(ch not in t for t in texts)


def _dot_svg(dot_source: str) -> ET.Element:
    assert DOT is not None
    proc = subprocess.run([DOT, "-Tsvg"], input=dot_source.encode("utf-8"), capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    assert b"Warning" not in proc.stderr and b"Error" not in proc.stderr, proc.stderr.decode(
        "utf-8", "replace"
    )
    return ET.fromstring(proc.stdout)


def _node_titles(svg: ET.Element) -> list[str]:
    out = []
    for g in svg.iter(f"{SVG_NS}g"):
        if "node" in (g.get("class") or "").split():
            title = g.find(f"{SVG_NS}title")
            out.append(title.text if title is not None and title.text else "")
    return out


def _all_text(svg: ET.Element) -> str:
    return "".join(t.text or "" for t in svg.iter(f"{SVG_NS}text"))


@needs_dot
def test_dot_tree_with_hostile_labels_is_inert() -> None:
    tree = Tree.from_nested((SCRIPT, (DOT_INJECTION, "w\\N"), ("{x|y}", "\u202eword"), ("ok\nnext", "<b>")))
    source = tree_to_dot(tree, styles={1: "deleted", 3: "inserted"}, title=DOT_INJECTION)
    svg = _dot_svg(source)
    titles = _node_titles(svg)
    assert sorted(titles) == sorted(f"n{i}" for i in range(len(tree.nodes)))  # no node "a" or "b" injected
    text = _all_text(svg)
    for s in (SCRIPT, DOT_INJECTION, "w\\N", "{x|y}", "\\u202eword", "ok\\nnext", "<b>"):
        assert s in text, s
    assert not list(svg.iter(f"{SVG_NS}script"))


@needs_dot
def test_dot_mftree_and_styles() -> None:
    nodes = (
        MFNode(frozenset({"root"}), (1, 3)),
        MFNode(frozenset({"sbj", "hd"}), (2,)),
        MFNode(frozenset(), (), 0, "John"),
        MFNode(frozenset(), (4,)),
        MFNode(frozenset(), (), 1, SCRIPT),
    )
    mf = MFTree(nodes, ("John", SCRIPT))
    source = tree_to_dot(mf, styles=dict(zip(range(4), NODE_STYLES, strict=False)))  # type: ignore[arg-type]
    text = _all_text(_dot_svg(source))
    assert "hd, sbj" in text and "∅" in text and SCRIPT in text
    with pytest.raises(ValueError, match="unknown node style"):
        tree_to_dot(mf, styles={0: "bogus"})  # type: ignore[dict-item]


@needs_dot
def test_dot_terminals_in_word_order_on_one_rank() -> None:
    tree = next(iter(read_ptb(ASSETS / "evalb" / "sample" / "sample.gld")))
    svg = _dot_svg(tree_to_dot(tree))
    xs: dict[str, float] = {}
    ys: dict[str, float] = {}
    for g in svg.iter(f"{SVG_NS}g"):
        if "node" not in (g.get("class") or "").split():
            continue
        title = g.find(f"{SVG_NS}title")
        text = g.find(f"{SVG_NS}text")
        assert title is not None and text is not None and title.text
        xs[title.text] = float(text.get("x", "0"))
        ys[title.text] = float(text.get("y", "0"))
    terms = sorted((n.terminal, f"n{i}") for i, n in enumerate(tree.nodes) if n.terminal is not None)
    assert [xs[name] for _, name in terms] == sorted(xs[name] for _, name in terms)
    assert len({ys[name] for _, name in terms}) == 1
    assert "ordering=out" in tree_to_dot(tree)


@needs_dot
def test_dot_lattice_right_to_left_with_paths() -> None:
    lattice = next(iter(read_lattices(ASSETS / "hebrew_yap" / "input.lattice")))
    paths = list(lattice.paths(limit=20))
    gold, pred = paths[0], paths[-1]
    source = lattice_to_dot(lattice, gold_path=gold, pred_path=pred, title="yap")
    assert "rankdir=RL" in source
    svg = _dot_svg(source)
    edges = [g for g in svg.iter(f"{SVG_NS}g") if (g.get("class") or "").startswith("edge")]
    assert len(edges) == len(lattice.arcs)
    classes = [g.get("class") or "" for g in edges]
    assert sum("gold" in c for c in classes) == len(gold)
    assert sum("pred" in c for c in classes) == len(pred)
    # state 0 is drawn right of the last state
    pos = {}
    for g in svg.iter(f"{SVG_NS}g"):
        if "node" in (g.get("class") or "").split():
            title, ellipse = g.find(f"{SVG_NS}title"), g.find(f"{SVG_NS}ellipse")
            assert title is not None and ellipse is not None
            pos[title.text] = float(ellipse.get("cx", "0"))
    assert pos[f"s{lattice.first_state}"] > pos[f"s{lattice.last_state}"]
    text = _all_text(svg)
    assert "גנן/NN" in text


@needs_dot
def test_dot_lattice_hostile_and_out_of_lattice_path() -> None:
    lat = Lattice(
        (Arc(0, 1, SCRIPT, cpos=DOT_INJECTION, token_id=1), Arc(1, 2, "x\ny", cpos="T", token_id=2))
    )
    stray = Arc(0, 2, "zz", cpos="Q", token_id=1)
    source = lattice_to_dot(lat, gold_path=[lat.arcs[0], stray], pred_path=list(lat.arcs))
    svg = _dot_svg(source)
    assert sorted(_node_titles(svg)) == ["s0", "s1", "s2"]
    text = _all_text(svg)
    assert f"{SCRIPT}/{DOT_INJECTION}" in text
    assert "x\\ny/T" in text
    assert "zz/Q (not in lattice)" in text


@needs_dot
@pytest.mark.parametrize("hostile", HOSTILE)
def test_dot_dependencies_hostile(hostile: str) -> None:
    tree = DepTree(
        (Token(1, hostile, upos=hostile, head=2, deprel=hostile), Token(2, "v", head=0, deprel="root")),
        sent_id="x",
    )
    gold = DepTree(
        (Token(1, hostile, head=2, deprel="obj"), Token(2, "v", head=0, deprel="root")), sent_id="x"
    )
    svg = _dot_svg(dep_to_dot(layout_dep(tree, arc_verdicts(gold, tree)), title=hostile))
    assert sorted(_node_titles(svg)) == ["w0", "w1", "w2"]
    shown = neutralize(hostile)
    node_texts = {
        (g.find(f"{SVG_NS}title").text or ""): [t.text or "" for t in g.iter(f"{SVG_NS}text")]  # type: ignore[union-attr]
        for g in svg.iter(f"{SVG_NS}g")
        if "node" in (g.get("class") or "").split()
    }
    assert node_texts["w1"] == [shown, shown]  # the form and the tag, each drawn literally
    edge_texts = [
        t.text or ""
        for g in svg.iter(f"{SVG_NS}g")
        if "edge" in (g.get("class") or "")
        for t in g.iter(f"{SVG_NS}text")
    ]
    assert f"{shown} (gold obj)" in edge_texts


@pytest.mark.slow
@needs_dot
def test_dot_accepts_real_data() -> None:
    ud = list(read_conllu(ASSETS / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz"))[:5]
    sud = list(read_conllu(ASSETS / "fr_gsd" / "fr_gsd-sud-test.r2.16.conllu.gz"))[:5]
    for g, s in zip(ud, sud, strict=True):
        svg = _dot_svg(dep_to_dot(layout_dep(s, arc_verdicts(g, s))))
        assert len(_node_titles(svg)) == len(g.tokens) + 1
    for tree in list(read_ptb(ASSETS / "evalb" / "sample" / "sample.gld"))[:3]:
        _dot_svg(tree_to_dot(tree))


# ---------------------------------------------------------------------------
# right to left


def test_rtl_sentence_is_mirrored_and_words_marked() -> None:
    heb = next(iter(read_conllu(ASSETS / "hebrew_yap" / "output.conll")))
    lay = layout_dep(heb)
    assert lay.rtl
    xs = [w.x for w in sorted(lay.words, key=lambda w: w.id)]
    assert xs == sorted(xs, reverse=True)  # word 1 on the right
    check_geometry(lay)
    root = ET.fromstring(dep_svg(lay))
    assert root.get("data-rtl") == "yes"
    forms = {t.text: t for t in root.iter(f"{SVG_NS}text") if (t.get("class") or "") == "form"}
    assert forms["גידל"].get("direction") == "rtl"
    assert forms["גידל"].get("unicode-bidi") == "embed"
    assert forms["."].get("direction") is None  # neutral text keeps the default
    assert not layout_dep(dep([0, 1])).rtl
    assert layout_dep(dep([0, 1]), rtl=True).rtl  # can be forced


def test_rtl_marks_inside_forms_cannot_reorder_the_drawing() -> None:
    tree = dep([0, 1], forms=["abc\u202edef", "\u200fxyz"])
    svg = dep_svg(layout_dep(tree))
    assert "\u202e" not in svg and "\u200f" not in svg
    assert "abc\\u202edef" in svg and "\\u200fxyz" in svg


def test_render_never_imports_streamlit() -> None:
    code = (
        "import sys, evalcore.render, evalcore.render.dot, evalcore.render.svg, evalcore.render.layout; "
        "sys.exit(1 if 'streamlit' in sys.modules else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_render_imports_no_metric() -> None:
    """Drawings take verdicts (layout takes verdicts): importing every
    render module loads no ``evalcore.metrics`` module, directly or through another module."""
    modules = sorted(p.stem for p in (ROOT / "evalcore" / "render").glob("*.py") if p.stem != "__init__")
    assert {"layout", "svg", "dot", "edits", "lattice_draw"} <= set(modules)
    code = (
        "import sys, importlib\n"
        f"for m in {modules!r}: importlib.import_module('evalcore.render.' + m)\n"
        "bad = sorted(m for m in sys.modules if m.startswith('evalcore.metrics'))\n"
        "print(' '.join(bad)); sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, f"render loads {proc.stdout.strip()} {proc.stderr}"
