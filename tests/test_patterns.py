"""The pattern language: reading, errors, matching (docs/patterns.md).

Expected counts are hand counts on hand-made trees, or read from the worked example of
docs/patterns.md ("A worked example"); the properties hold on random trees (Hypothesis).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.errors import EvalcoreError, InputFormatError, PatternError
from evalcore.formats.conllu import parse_conllu
from evalcore.patterns import (
    Constraint,
    LabelTest,
    compile_request,
    construction_of,
    constructions,
    count,
    matches,
    parse_pattern_file,
    parse_request,
    read_pattern_file,
    shipped,
)
from evalcore.trees import DepTree, Token

DOC = Path(__file__).resolve().parent.parent / "docs" / "patterns.md"


def tree(*rows: tuple[str, str, int, str], feats: dict[int, str] | None = None) -> DepTree:
    """A tree from (form, upos, head, deprel) rows; ``feats``: FEATS of some words (1-based)."""
    feats = feats or {}
    return DepTree(
        tuple(
            Token(k, form, form.lower(), upos, "_", feats.get(k, "_"), head, rel)
            for k, (form, upos, head, rel) in enumerate(rows, 1)
        )
    )


# "Il a été vu par Marie": a SUD-like tree with @ extensions, and a UD one.
SUD = tree(
    ("Il", "PRON", 2, "subj@pass"),
    ("a", "AUX", 0, "root"),
    ("été", "AUX", 2, "comp:aux@tense"),
    ("vu", "VERB", 3, "comp:aux@pass"),
    ("par", "ADP", 4, "comp:obl@agent"),
    ("Marie", "PROPN", 5, "comp:obj"),
    feats={1: "Number=Sing|Person=3", 4: "Tense=Past|VerbForm=Part"},
)
UD = tree(
    ("Il", "PRON", 4, "nsubj:pass"),
    ("a", "AUX", 4, "aux:tense"),
    ("été", "AUX", 4, "aux:pass"),
    ("vu", "VERB", 0, "root"),
    ("par", "ADP", 6, "case"),
    ("Marie", "PROPN", 4, "obl:agent"),
    feats={1: "Number=Sing|Person=3", 4: "Tense=Past|VerbForm=Part"},
)


def n(request: str, t: DepTree) -> int:
    return count(parse_request(request), [t])


# ---------------------------------------------------------------------------
# reading


def test_a_request_reads_into_its_clauses() -> None:
    r = parse_request('pattern { V [upos=VERB|AUX, lemma="être", !Typo, Tense]; V -[nsubj:pass|1=obj]-> S }\n'
                      "without { S << V }  % a comment")  # fmt: skip
    (p,), (w,) = r.patterns, r.withouts
    assert p.nodes[0].constraints == (
        Constraint("upos", "=", ("VERB", "AUX")),
        Constraint("lemma", "=", ("être",)),
        Constraint("Typo", "absent"),
        Constraint("Tense", "present"),
    )
    assert p.edges[0].labels == (LabelTest("rel", "nsubj:pass"), LabelTest("1", "obj"))
    assert (p.edges[0].source, p.edges[0].target, p.edges[0].negated) == ("V", "S", False)
    assert (w.orders[0].left, w.orders[0].right, w.orders[0].immediate, w.line) == ("S", "V", False, 2)
    assert r.names == ("V", "S")


def test_clauses_split_on_semicolons_and_new_lines_and_nodes_merge() -> None:
    r = parse_request("pattern {\n  X [upos=NOUN]\n  X [Number=Plur]; H -[^det|2=pass]-> X\n  H < X\n}")
    assert [c.name for c in r.patterns[0].nodes] == ["X", "X"]
    assert r.patterns[0].edges[0].negated
    assert n("pattern { X [upos=PROPN]; X [Number=Sing] }", UD) == 0  # both constraints hold together


ERRORS = [
    # (what, request text, line, words the message holds)
    ("unbalanced {", "pattern { X [upos=VERB]\n", 1, "unbalanced '{'"),
    ("unbalanced }", "pattern { X [] }\n}", 2, "unbalanced '}'"),
    ("unknown block", "patern { X [] }", 1, "unknown block keyword 'patern'"),
    ("not a clause", "pattern {\n X [] ;\n X.lemma = Y.lemma }", 3, "not a node, edge or order clause"),
    ("a bare name", "pattern { X }", 1, "not a node, edge or order clause"),
    ("unterminated string", 'pattern {\n X [lemma="être] }', 2, "unterminated string"),
    ("invalid regex", 'pattern { X [form=re"(ab"] }', 1, "invalid regular expression"),
    ("empty request", "% nothing\n", 1, "empty request"),
    ("only without", "without { X [] }", 1, "empty request"),
    ("empty pattern", "pattern {}", 1, "empty 'pattern {}'"),
    ("double =", "pattern { X [upos==VERB] }", 1, "bad constraint"),
    ("no feature", "pattern { X [=VERB] }", 1, "bad constraint"),
    ("empty labels", "pattern { X -[]-> Y }", 1, "bad label list"),
    ("empty alternative", "pattern { X -[nsubj|]-> Y }", 1, "bad label list"),
    ("named edge", "pattern { e: X -> Y }", 1, "unsupported Grew feature: named edges"),
    ("global", "global { is_projective }\npattern { X [] }", 1, "unsupported Grew feature: 'global"),
    ("edge feature", "pattern { X -[enhanced=yes]-> Y }", 1, "unsupported Grew feature: edge feature"),
    ("edge features joined", "pattern { X -[1=nsubj, 2=pass]-> Y }", 1, "unsupported Grew feature"),
    ("bad node name", "pattern { 1X [] }", 1, "bad node name"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "text", "line", "words"), ERRORS, ids=[e[0] for e in ERRORS])
def test_a_malformed_request_is_a_pattern_error_naming_file_and_line(
    what: str, text: str, line: int, words: str
) -> None:
    with pytest.raises(PatternError) as info:
        parse_request(text, file="q.pat", line=1)
    assert info.value.line == line, str(info.value)
    assert words in str(info.value)
    assert str(info.value).startswith(f"q.pat:{line}: ")
    assert isinstance(info.value, InputFormatError) and isinstance(info.value, EvalcoreError)


FILE_ERRORS = [
    ("header without request", "construction a\npattern { X [] }\nconstruction b\n% a\n", 3, "no request"),
    ("request before header", "% fine\npattern { X [] }\nconstruction a\npattern { X [] }\n", 2, "before"),
    ("bad name", "construction Punct\npattern { X [] }\n", 1, "bad construction name 'Punct'"),
    ("no X", "construction a\npattern { H -> Y }\n", 1, "no node X"),
    ("error in a request", "construction a\n\npattern { X [upos==A] }\n", 3, "bad constraint"),
    ("no construction", "% nothing\n", 1, "no construction"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "text", "line", "words"), FILE_ERRORS, ids=[e[0] for e in FILE_ERRORS])
def test_a_malformed_pattern_file_is_a_pattern_error(what: str, text: str, line: int, words: str) -> None:
    with pytest.raises(PatternError) as info:
        parse_pattern_file(text, "c.pat")
    assert (info.value.file, info.value.line) == ("c.pat", line), str(info.value)
    assert words in str(info.value)


def test_a_pattern_file_reads_headers_descriptions_and_alternatives(tmp_path: Path) -> None:
    path = tmp_path / "mine.pat"
    path.write_text(
        "% header comment\n\nconstruction cop % the copula\npattern { H -[cop]-> X }\n"
        "construction cop\npattern { X [upos=AUX] }\nwithout { X [Typo] }\n",
        encoding="utf-8",
    )
    pf = read_pattern_file(path)
    assert [(c.name, c.description, c.line, c.request.line) for c in pf.constructions] == [
        ("cop", "the copula", 3, 4),
        ("cop", "", 5, 6),
    ]
    assert pf.names == ("cop", "other")
    path.write_bytes(b"construction a\npattern { X [form=\xff] }\n")
    with pytest.raises(PatternError, match=r"mine.pat:2: not UTF-8"):
        read_pattern_file(path)


# ---------------------------------------------------------------------------
# matching, by hand on UD and SUD


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("pattern { X [upos=AUX] }", 2),
        ("pattern { X [upos<>AUX|VERB] }", 3),  # Il, par, Marie
        ("pattern { X [Person=3] }", 1),
        ("pattern { X [Person<>3] }", 5),  # an absent feature has none of the values
        ("pattern { X [Tense] }", 1),
        ("pattern { X [!Tense] }", 5),
        ('pattern { X [form=re"[A-Z].*"] }', 2),  # Il, Marie
        ('pattern { X [lemma="été"] }', 1),
        ("pattern { X [xpos=AUX] }", 0),  # '_' is an absent column
        ("pattern { H -[comp:aux]-> X }", 2),  # the @ part is left out
        ("pattern { H -[comp:aux@pass]-> X }", 1),  # written with @: compared whole
        ("pattern { H -[1=comp]-> X }", 4),
        ("pattern { H -[2=aux]-> X }", 2),
        ("pattern { H -[deep=pass]-> X }", 2),  # subj@pass, comp:aux@pass
        ("pattern { H -[^1=comp]-> X }", 1),  # subj@pass
        ("pattern { H -> X }", 5),
        ("pattern { H -[1=comp]-> X; H -[1=subj]-> Y }", 1),
        ("pattern { A [upos=AUX]; B [upos=AUX] }", 2),  # injective
        ("pattern { X [upos=AUX]; X < Y }", 2),
        ("pattern { X [upos=AUX]; Y < X }", 2),
        ("pattern { X [upos=PRON]; X << Y }", 5),
        ("pattern { H -[1=comp]-> X } without { X -> Y }", 1),  # Marie
        ("pattern { H -> X } without { X [upos=AUX] }", 4),  # 5 arcs, one into été
        ("pattern { H -> X } without { H -> Y; Y << X }", 4),  # a -> été has Il before it
        ("pattern { X [upos=ADP] } pattern { H -[1=comp]-> X }", 1),  # blocks taken together
    ],
)
def test_matches_on_a_sud_tree_by_hand(request_text: str, expected: int) -> None:
    assert n(request_text, SUD) == expected


def test_ud_relations_and_bindings() -> None:
    r = parse_request("pattern { V [upos=VERB]; V -[1=aux]-> A }")
    assert [b.items() for b in matches(r, UD)] == [(("V", 4), ("A", 2)), (("V", 4), ("A", 3))]
    assert matches(r, UD).__next__()["A"] == 2
    assert n("pattern { V -[nsubj:pass]-> S; V -[obl:agent]-> O; O -[case]-> P }", UD) == 1
    assert n("pattern { H -[nsubj]-> X }", UD) == 0  # the whole relation: nsubj:pass is not nsubj
    assert n("pattern { H -[1=nsubj]-> X }", UD) == 1


def test_a_compiled_request_gives_the_same_matches() -> None:
    r = parse_request("pattern { H -> X; H -> Y; X << Y }")
    assert list(matches(compile_request(r), UD)) == list(matches(r, UD))
    assert count(r, [UD, SUD]) == n(r_text := "pattern { H -> X; H -> Y; X << Y }", UD) + n(r_text, SUD)


# ---------------------------------------------------------------------------
# constructions


def test_tiers_a_word_is_before_what_it_governs_and_other_heads_are_tier_1_only() -> None:
    pf = parse_pattern_file(
        "construction punctuation\npattern { P -[punct]-> X }\n"
        "construction adposition\npattern { P [upos=ADP]; P -[1=comp]-> X }\n"
        "construction determiner\npattern { H -[det]-> X }\n"
    )
    t = tree(
        ("le", "DET", 3, "det"),
        (",", "PUNCT", 3, "punct"),
        ("chat", "NOUN", 4, "comp:obj"),
        ("de", "ADP", 0, "root"),
    )
    # chat: a comp of an ADP (tier 1) before its det dependent (tier 2); de takes nothing from
    # chat (the entry's head is P) nor from the comma
    assert constructions(pf, t) == ("determiner", "punctuation", "adposition", "other")
    assert construction_of(pf, t, 3) == "adposition"
    assert construction_of(pf, t, 9) == "other"


def _doc_example() -> tuple[DepTree, list[tuple[int, str]], list[tuple[str, int]]]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### A worked example")
    section = text[start : text.index("\n## ", start)]  # the example's own section only
    conllu = section[section.index("```conllu\n") + 10 :]
    t = parse_conllu(conllu[: conllu.index("```")])[0]
    words = [
        (int(m.group(1)), m.group(2).strip())
        for m in re.finditer(r"^\| (\d+) \| \w+ \| .* \| (\w+) \|$", section, re.M)
    ]
    counts = [
        (m.group(1), int(m.group(2))) for m in re.finditer(r"^\| `(pattern .*?)` \| (\d+) \|", section, re.M)
    ]
    return t, words, counts


def test_the_worked_example_of_the_docs() -> None:
    t, words, counts = _doc_example()
    assert len(t) == 6 and len(words) == 6 and len(counts) == 4
    got = constructions(read_pattern_file(shipped("ud")), t)
    assert [(w, got[w - 1]) for w, _ in words] == words
    for request_text, expected in counts:
        assert count(parse_request(request_text), [t]) == expected, request_text


# ---------------------------------------------------------------------------
# properties on random trees


@st.composite
def random_trees(draw: st.DrawFn) -> DepTree:
    """A random tree of 1..9 words: each word after the first in a random order takes its head
    among those before it; UPOS and relations from small sets."""
    size = draw(st.integers(1, 9))
    order = draw(st.permutations(range(1, size + 1)))
    heads = {order[0]: 0}
    for k in range(1, size):
        heads[order[k]] = order[draw(st.integers(0, k - 1))]
    upos = draw(st.lists(st.sampled_from(["NOUN", "VERB", "ADP", "DET"]), min_size=size, max_size=size))
    rels = draw(
        st.lists(st.sampled_from(["nsubj", "obj", "case", "det", "obl:arg"]), min_size=size, max_size=size)
    )
    return DepTree(
        tuple(
            Token(w, f"w{w}", "_", upos[w - 1], "_", "_", heads[w], "root" if heads[w] == 0 else rels[w - 1])
            for w in range(1, size + 1)
        )
    )  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(random_trees())
def test_injectivity_and_order(t: DepTree) -> None:
    size = len(t)
    assert n("pattern { A []; B [] }", t) == size * (size - 1)
    assert n("pattern { A []; B []; A << B }", t) == size * (size - 1) // 2
    assert n("pattern { A < B }", t) == size - 1
    assert n("pattern { A -> B }", t) == size - sum(1 for tok in t.tokens if tok.head == 0)


WITHOUTS = ["X -[1=obl]-> Y", "X [upos=NOUN]", "Y -[det]-> X; Y << X", "X -> Y; Y -> Z"]


@settings(max_examples=60, deadline=None)
@given(
    random_trees(),
    st.sampled_from(["pattern { H -> X }", "pattern { X [upos=NOUN|VERB] }"]),
    st.sampled_from(WITHOUTS),
)
def test_a_without_block_splits_the_matches_of_the_request(t: DepTree, base: str, extra: str) -> None:
    names = parse_request(base).names
    every = {b.words for b in matches(parse_request(base), t)}
    kept = {b.words for b in matches(parse_request(f"{base} without {{ {extra} }}"), t)}
    extended = {b.words[: len(names)] for b in matches(parse_request(f"{base} pattern {{ {extra} }}"), t)}
    assert kept | extended == every
    assert not kept & extended
