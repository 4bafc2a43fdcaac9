"""``ConversionConfig(category_labels=True)``: our extension of the 2012 conversion (docs/tedeval.md,
"Category labels") for bracketed input (a node without function tags is labeled with its category, part-of-
speech nodes included; docs/tedeval.md "Category labels").  Expected label sets are written out by hand from
that rule."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from evalcore.conversion import ConversionConfig, LabelMap, to_span_tree
from evalcore.formats.conllu import parse_conllu
from evalcore.formats.ptb import parse_ptb
from evalcore.labelalign import align, count_pairs
from evalcore.metrics.tedeval import TedConfig
from evalcore.trees import Span, SpanTree, Tree

ON = ConversionConfig(category_labels=True)


def tree(text: str) -> Tree:
    (t,) = parse_ptb(text)
    return t


def labeled(st_: SpanTree) -> dict[Span, frozenset[str]]:
    return {span: labels for span, labels in st_.items if labels}


def s(*words: int) -> Span:
    return frozenset(words)


SENTENCE = "(S (NP-SBJ (D the) (N dog)) (VP (V barks) (PP-LOC (P in) (NP (N town)))))"


def test_categories_label_the_nodes_without_function_tags() -> None:
    """Words 0 the, 1 dog, 2 barks, 3 in, 4 town.  NP-SBJ keeps SBJ only; D, N, VP, V, P, NP, N get
    their category; VP and V, NP and N share a span (unary merge: the union)."""
    got = to_span_tree(tree(SENTENCE), ON)
    assert labeled(got) == {
        s(0, 1): frozenset({"SBJ"}),
        s(0): frozenset({"D"}),
        s(1): frozenset({"N"}),
        s(2, 3, 4): frozenset({"VP"}),
        s(2): frozenset({"V"}),
        s(3, 4): frozenset({"LOC"}),
        s(3): frozenset({"P"}),
        s(4): frozenset({"NP", "N"}),
    }
    assert got.root_labels == frozenset({"S"})


def test_without_the_flag_only_function_tags_label() -> None:
    got = to_span_tree(tree(SENTENCE), ConversionConfig())
    assert labeled(got) == {s(0, 1): frozenset({"SBJ"}), s(3, 4): frozenset({"LOC"})}
    assert got.root_labels == frozenset()


def test_indices_are_not_functions_and_separators_are_the_configs() -> None:
    """``NP-1`` has an index, no function: its category labels it; ``NP*OB1`` splits only with '*'
    among the separators; ``NP=2`` is an index too."""
    t = tree("(IP (NP-1 (N a)) (NP*OB1 (N b)) (NP=2 (PRO c)))")
    assert labeled(to_span_tree(t, ON)) == {
        s(0): frozenset({"NP", "N"}),
        s(1): frozenset({"NP*OB1", "N"}),  # '*' is not a separator by default: one category
        s(2): frozenset({"NP", "PRO"}),
    }
    farpahc = ConversionConfig(function_separators="-=*", category_labels=True)
    assert labeled(to_span_tree(t, farpahc))[s(1)] == frozenset({"OB1", "N"})


def test_maps_and_case_folding_apply_to_category_labels() -> None:
    t = tree("(S (NP-SBJ (N Kim)) (VP (V left)))")
    conv = ConversionConfig(label_map=LabelMap((("N", "hd"), ("VP", "root"))), category_labels=True)
    assert labeled(to_span_tree(t, conv)) == {s(0): frozenset({"SBJ", "hd"}), s(1): frozenset({"root", "V"})}
    folded = ConversionConfig(fold_case=True, category_labels=True)
    assert labeled(to_span_tree(t, folded)) == {s(0): frozenset({"sbj", "n"}), s(1): frozenset({"vp", "v"})}


def test_dependency_trees_do_not_change() -> None:
    (dep,) = parse_conllu(
        "1\tthe\t_\tDET\t_\t_\t2\tdet\t_\t_\n2\tdog\t_\tNOUN\t_\t_\t3\tnsubj\t_\t_\n3\tbarks\t_\tVERB\t_\t_\t0\troot\t_\t_\n\n"
    )
    assert to_span_tree(dep, ON) == to_span_tree(dep, ConversionConfig())


def test_signature_names_the_option_only_when_on() -> None:
    off = TedConfig(ConversionConfig()).signature(labeled=True)
    assert "cat" not in off
    on = TedConfig(ON).signature(labeled=True)
    assert on == off.replace("|v", "|cat:yes|v", 1)
    t = tree(SENTENCE)
    assert align(count_pairs([t], [t], ON), conversion=ON).signature.endswith("|cat:yes|v0.1.0")
    assert "cat" not in align(count_pairs([t], [t])).signature


# ---------------------------------------------------------------------------
# property: on random trees, the flag adds exactly the categories of the nodes without functions,
# and with it off the label sets are the function tags (the expected sets computed from the
# hand-written table below, not from the code under test)

# label → (category, function tags) by docs/tedeval.md, "Category labels" with separators '-='
LABELS = {
    "NP": ("NP", ()),
    "VP": ("VP", ()),
    "PP": ("PP", ()),
    "NP-SBJ": ("NP", ("SBJ",)),
    "NP-OB1-2": ("NP", ("OB1",)),
    "ADVP-LOC-TMP": ("ADVP", ("LOC", "TMP")),
    "IP=3": ("IP", ()),
    "S-MAT": ("S", ("MAT",)),
}
POS = {"N": "N", "D": "D", "V": "V", "P": "P"}


@dataclass(frozen=True)
class Node:
    label: str
    kids: tuple[Node | str, ...]  # a str kid is a word under a part-of-speech node ``label``


def _nodes(depth: int) -> st.SearchStrategy[Node]:
    pos = st.builds(lambda p: Node(p, ("w",)), st.sampled_from(sorted(POS)))
    if depth == 0:
        return pos
    return st.one_of(
        pos,
        st.builds(
            lambda label, kids: Node(label, tuple(kids)),
            st.sampled_from(sorted(LABELS)),
            st.lists(_nodes(depth - 1), min_size=1, max_size=3),
        ),
    )


def _text(n: Node | str) -> str:
    if isinstance(n, str):
        return n
    return f"({n.label} " + " ".join(_text(k) for k in n.kids) + ")"


def _expected(top: Node, categories: bool) -> tuple[dict[Span, frozenset[str]], frozenset[str]]:
    mapping: dict[Span, set[str]] = {}
    counter = iter(range(10_000))

    def walk(n: Node) -> Span:
        if n.kids == ("w",):
            span = s(next(counter))
            names: tuple[str, ...] = (POS[n.label],) if categories else ()
        else:
            span = frozenset().union(*(walk(k) for k in n.kids if isinstance(k, Node)))
            category, functions = LABELS[n.label]
            names = functions or ((category,) if categories else ())
        mapping.setdefault(span, set()).update(names)
        return span

    full = walk(top)
    root = frozenset(mapping.pop(full, set()))
    return {x: frozenset(v) for x, v in mapping.items() if v}, root


@given(_nodes(4))
def test_flag_adds_the_categories_of_nodes_without_functions_and_off_is_functions_only(top: Node) -> None:
    t = tree(f"( {_text(top)} )")
    for categories in (False, True):
        got = to_span_tree(t, ConversionConfig(category_labels=categories))
        want, root = _expected(top, categories)
        assert labeled(got) == want
        assert got.root_labels == root
