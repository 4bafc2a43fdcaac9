"""The papers' examples as data, with builders (no I/O, no streamlit).

The guided tour (``pages/5_Tour.py``; docs/app.md, "Tour page") and the tests, which check them against
``tests/golden/``, use them: EMNLP 2011 examples (4)–(6), EACL 2012 Figures 1 and 4 (*John loves
Mary*), ACL 2012 Figure 1 (*BCLM HNEIM*).  Each dependency example lists its schemes (one gold tree
each) and the parses a user can pick, each with the scheme it was "trained on" by default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.choices import PROTOCOL_2011, PROTOCOL_2012, Protocol
from evalcore.formats.ptb import parse_ptb
from evalcore.lattice.model import LatticeTree, Lexeme, tree_from_constituency
from evalcore.trees import Arc, DepTree, Lattice, Token, Tree

__all__ = [
    "BCLM_HNEIM",
    "COORDINATION",
    "DEP_EXAMPLES",
    "JOHN_LOVES_MARY",
    "ON_SUNDAY",
    "PAPER_TREES",
    "VERB_GROUP",
    "Choice",
    "DepExample",
    "DepSpec",
    "LatticeAnalysis",
    "LatticeExample",
    "PtbSdExample",
    "dep_tree",
]


def dep_tree(
    words: Sequence[str],
    heads: Sequence[int],
    deprels: Sequence[str],
    upos: Sequence[str] | None = None,
    sent_id: str = "",
) -> DepTree:
    """A dependency tree from parallel lists (heads 1-based, 0 = root)."""
    tags = list(upos) if upos is not None else ["_"] * len(words)
    tokens = tuple(
        Token(i + 1, w, upos=t, head=h, deprel=r)
        for i, (w, h, r, t) in enumerate(zip(words, heads, deprels, tags, strict=True))
    )
    return DepTree(tokens, sent_id, " ".join(words))


@dataclass(frozen=True, slots=True)
class DepSpec:
    """Heads (1-based, 0 = root) and relations over an example's words."""

    heads: tuple[int, ...]
    deprels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """A parse the user can pick: its analysis and the scheme whose gold it is scored with."""

    key: str
    label: str
    spec: DepSpec
    own: str  # the scheme the parser was trained on (default)
    note: str = ""


@dataclass(frozen=True)
class DepExample:
    """One phrase, several schemes (a gold tree each), and parses to choose from."""

    key: str
    title: str
    source: str
    words: tuple[str, ...]
    upos: tuple[str, ...]
    schemes: tuple[tuple[str, str, DepSpec], ...]  # (name, description, gold)
    choices: tuple[Choice, ...]
    question: str
    protocol: Protocol = PROTOCOL_2011
    default: str = ""  # key of the choice shown first

    def tree(self, spec: DepSpec, sent_id: str = "") -> DepTree:
        return dep_tree(self.words, spec.heads, spec.deprels, self.upos, sent_id or self.key)

    def gold(self, scheme: str) -> DepTree:
        for name, _, spec in self.schemes:
            if name == scheme:
                return self.tree(spec, f"{self.key}-{name}")
        raise KeyError(scheme)

    def golds(self) -> list[tuple[str, DepTree]]:
        return [(name, self.gold(name)) for name, _, _ in self.schemes]

    def choice(self, key: str) -> Choice:
        for c in self.choices:
            if c.key == key:
                return c
        raise KeyError(key)


# ---------------------------------------------------------------------------
# EMNLP 2011 (4)–(6), as in tests/golden/tedeval/*.json (X = the phrase's own relation)

PAPER_TREES: dict[str, tuple[tuple[str, ...], DepSpec]] = {
    "4a": (("on", "Sunday"), DepSpec((2, 0), ("prep", "X"))),
    "4b": (("on", "Sunday"), DepSpec((0, 1), ("X", "pobj"))),
    "5a": (("earth", "wind", "and", "fire"), DepSpec((3, 3, 0, 3), ("conj", "conj", "X", "conj"))),
    "5b": (("earth", "wind", "and", "fire"), DepSpec((0, 1, 1, 1), ("X", "conj", "cc", "conj"))),
    "5c": (("earth", "wind", "and", "fire"), DepSpec((0, 1, 2, 3), ("X", "coord", "coord", "conj"))),
    "6a": (("would", "have", "worked"), DepSpec((0, 1, 2), ("X", "vg", "vg"))),
    "6b": (("would", "have", "worked"), DepSpec((2, 3, 0), ("vg", "vg", "X"))),
}
"""The paper's trees exactly as its examples give them (``X``: the relation of the whole phrase)."""


_NOUN_HEADS = DepSpec((0, 3, 1), ("root", "prep", "tmod"))  # (4a)
_PREPOSITION_HEADS = DepSpec((0, 1, 2), ("root", "tmod", "pobj"))  # (4b)

ON_SUNDAY = DepExample(
    key="on_sunday",
    title="arrive on Sunday — who heads a prepositional phrase?",
    source="EMNLP 2011, examples (4a) and (4b)",
    words=("arrive", "on", "Sunday"),
    upos=("VERB", "ADP", "PROPN"),
    schemes=(
        ("A", "(4a) the noun heads: arrive → Sunday → on (prep)", _NOUN_HEADS),
        ("B", "(4b) the preposition heads: arrive → on → Sunday (pobj)", _PREPOSITION_HEADS),
    ),
    choices=(
        Choice("sunday", "Sunday — the noun heads, as in scheme A (4a)", _NOUN_HEADS, "A"),
        Choice("on", "on — the preposition heads, as in scheme B (4b)", _PREPOSITION_HEADS, "B"),
        Choice(
            "arrive",
            "neither — both words hang from 'arrive' (a real error)",
            DepSpec((0, 1, 1), ("root", "prep", "tmod")),
            "A",
            note="The phrase 'on Sunday' is lost: no scheme has this analysis.",
        ),
    ),
    question="Which word heads 'on Sunday' in the parse?",
    # 2012: the scheme's own conventions show as discounted deletions (under 2011, '*' heads equal any
    # label and the script is empty), so the tour's first step shows discounting at once
    protocol=PROTOCOL_2012,
    default="sunday",
)

COORDINATION = DepExample(
    key="coordination",
    title="earth wind and fire — three ways to annotate coordination",
    source="EMNLP 2011, examples (5a), (5b) and (5c)",
    words=PAPER_TREES["5a"][0],
    upos=("NOUN", "NOUN", "CCONJ", "NOUN"),
    schemes=(
        ("5a", "the conjunction heads (Prague style)", PAPER_TREES["5a"][1]),
        ("5b", "the first conjunct heads (Stanford style)", PAPER_TREES["5b"][1]),
        ("5c", "a chain: each word heads the rest (Mel'čuk style)", PAPER_TREES["5c"][1]),
    ),
    choices=(
        Choice("5a", "the conjunction 'and' heads (5a)", PAPER_TREES["5a"][1], "5a"),
        Choice("5b", "the first conjunct 'earth' heads (5b)", PAPER_TREES["5b"][1], "5b"),
        Choice("5c", "a chain earth → wind → and → fire (5c)", PAPER_TREES["5c"][1], "5c"),
        Choice(
            "error",
            "as (5b), but 'and' attached to 'wind' (a real error)",
            DepSpec((0, 1, 2, 1), ("X", "conj", "cc", "conj")),
            "5b",
            note="This bracket {wind and} exists in no scheme.",
        ),
    ),
    question="Which analysis does the parse give?",
    protocol=PROTOCOL_2011,
    default="5a",
)

VERB_GROUP = DepExample(
    key="verb_group",
    title="would have worked — auxiliaries, and what is counted",
    source="EMNLP 2011, examples (6a) and (6b); docs/tedeval.md, 'Edit scripts, discount and score' (the 0.8 "
    "example)",
    words=PAPER_TREES["6a"][0],
    upos=("AUX", "AUX", "VERB"),
    schemes=(
        ("6a", "the auxiliary heads: would → have → worked (vg)", PAPER_TREES["6a"][1]),
        ("6b", "the main verb heads: worked → have → would (vg)", PAPER_TREES["6b"][1]),
    ),
    choices=(
        Choice("6a", "the auxiliary heads, as in (6a)", PAPER_TREES["6a"][1], "6a"),
        Choice("6b", "the main verb heads, as in (6b)", PAPER_TREES["6b"][1], "6b"),
        Choice(
            "obj",
            "as (6a), but 'worked' is labeled obj (docs/tedeval.md, 'Edit scripts, discount and score')",
            DepSpec((0, 1, 2), ("X", "vg", "obj")),
            "6a",
            note="One real error (the label of 'worked'); everything else follows scheme (6a).",
        ),
    ),
    question="What does the parse say?",
    protocol=PROTOCOL_2012,
    default="obj",
)

DEP_EXAMPLES: tuple[DepExample, ...] = (ON_SUNDAY, COORDINATION, VERB_GROUP)


# ---------------------------------------------------------------------------
# EACL 2012, Figures 1 and 4


@dataclass(frozen=True)
class PtbSdExample:
    """*John loves Mary* in two frameworks: PTB (with and without function labels) and SD."""

    key: str
    title: str
    source: str
    words: tuple[str, ...]
    upos: tuple[str, ...]
    ptb_functions: str
    ptb_bare: str
    sd: DepSpec

    def ptb(self, functions: bool = True) -> Tree:
        return parse_ptb(self.ptb_functions if functions else self.ptb_bare, name=self.key)[0]

    def sd_tree(self) -> DepTree:
        return dep_tree(self.words, self.sd.heads, self.sd.deprels, self.upos, f"{self.key}-sd")


JOHN_LOVES_MARY = PtbSdExample(
    key="john_loves_mary",
    title="John loves Mary — phrase structure and dependencies",
    source="EACL 2012, Figures 1 and 4; docs/tedeval.md, 'Multi-function trees (2012 protocol)' and "
    "'Subsumption, generalization and TL-unification (2012 protocol)'",
    words=("John", "loves", "Mary"),
    upos=("PROPN", "VERB", "PROPN"),
    ptb_functions="(S-root (NP-sbj (NN-hd John)) (VP-prd (V-hd loves) (NP-obj (NN-hd Mary))))",
    ptb_bare="(S (NP (NN John)) (VP (V loves) (NP (NN Mary))))",
    sd=DepSpec((2, 0, 2), ("sbj", "root", "obj")),
)


# ---------------------------------------------------------------------------
# ACL 2012, Figure 1 (tests/golden/lattice/bclm_hneim_figure1.json)


@dataclass(frozen=True, slots=True)
class LatticeAnalysis:
    """A tree over lexemes and its path: ``(start, end, segment, tag, token)`` per lexeme."""

    key: str
    label: str
    tree: str
    path: tuple[tuple[int, int, str, str, int], ...]
    note: str = ""

    def lexemes(self) -> list[Lexeme]:
        return [Lexeme(seg, tag, tok, s, e) for s, e, seg, tag, tok in self.path]

    def lattice_tree(self) -> LatticeTree:
        return tree_from_constituency(parse_ptb(self.tree, name=self.key)[0], self.lexemes())

    def arcs(self) -> tuple[Arc, ...]:
        return tuple(Arc(s, e, seg, seg, tag, tag, "_", tok) for s, e, seg, tag, tok in self.path)


@dataclass(frozen=True)
class LatticeExample:
    key: str
    title: str
    source: str
    tokens: tuple[str, ...]
    hebrew: str
    gloss: str
    hebrew_segments: tuple[tuple[str, str], ...]  # (transliteration, Hebrew) per segment
    gold: LatticeAnalysis
    parses: tuple[LatticeAnalysis, ...]
    lattice_arcs: tuple[tuple[int, int, str, str, int], ...]  # both analyses in one lattice

    def lattice(self) -> Lattice:
        return Lattice(
            tuple(Arc(s, e, seg, seg, tag, tag, "_", tok) for s, e, seg, tag, tok in self.lattice_arcs)
        )

    def parse(self, key: str) -> LatticeAnalysis:
        for p in self.parses:
            if p.key == key:
                return p
        raise KeyError(key)


_BCLM_GOLD_TREE = (
    "(TOP (PP (IN B) (NP (NP (DEF H) (NP (NN CL) (PP (POSS FL) (PRN HM)))) (ADJP (DEF H) (JJ NEIM)))))"
)
_BCLM_GOLD_PATH = (
    (0, 1, "B", "IN", 1),
    (1, 2, "H", "DEF", 1),
    (2, 3, "CL", "NN", 1),
    (3, 4, "FL", "POSS", 1),
    (4, 5, "HM", "PRN", 1),
    (5, 6, "H", "DEF", 2),
    (6, 7, "NEIM", "JJ", 2),
)
# both parses' BCLM: B+CL+FL+HM, without the gold's covert H
_BCLM_PARSE_PATH = (
    (0, 1, "B", "IN", 1),
    (1, 3, "CL", "NN", 1),
    (3, 4, "FL", "POSS", 1),
    (4, 5, "HM", "PRN", 1),
)

# States follow one lattice holding both analyses (BCLM: 0–5, HNEIM: 5–7), so the two paths can
# be drawn together; the golden file numbers each path on its own.  TedEval matches lexemes by
# token, segment and tag, so the states change no number.
BCLM_HNEIM = LatticeExample(
    key="bclm_hneim",
    title="BCLM HNEIM — when the parser's words are not the gold's words",
    source="ACL 2012 (Tsarfaty, Nivre & Andersson), Figure 1; docs/lattice.md, 'The paper's example (ACL "
    "2012 Figure 1)'",
    tokens=("BCLM", "HNEIM"),
    hebrew="בצלם הנעים",
    gloss="'in their pleasant shadow' (gold: B+H+CL+FL+HM, H+NEIM)",
    hebrew_segments=(
        ("B", "ב"),
        ("H", "ה"),
        ("CL", "צל"),
        ("FL", "של"),
        ("HM", "הם"),
        ("NEIM", "נעים"),
        ("HNEIM", "הנעים"),
    ),
    gold=LatticeAnalysis(
        "gold",
        "gold (Figure 1, tree 1)",
        _BCLM_GOLD_TREE,
        _BCLM_GOLD_PATH,
    ),
    parses=(
        LatticeAnalysis(
            "figure1",
            "the paper's parse: HNEIM is one word, a verb (Figure 1, tree 2)",
            "(TOP (PP (IN B) (NP (NP (NN CL) (PP (POSS FL) (PRN HM))) (VB HNEIM))))",
            (*_BCLM_PARSE_PATH, (5, 7, "HNEIM", "VB", 2)),
            note="TED = 6: delete VB:HNEIM; add the middle NP, both DEF:H, ADJP and JJ:NEIM.",
        ),
        LatticeAnalysis(
            "split",
            "HNEIM split as the gold (H + NEIM), but BCLM still without the covert H",
            "(TOP (PP (IN B) (NP (NP (NN CL) (PP (POSS FL) (PRN HM))) (ADJP (DEF H) (JJ NEIM)))))",
            (*_BCLM_PARSE_PATH, *_BCLM_GOLD_PATH[5:]),
            note="Only the first token's analysis differs: add the middle NP and DEF:H.",
        ),
        LatticeAnalysis(
            "gold",
            "the gold analysis itself",
            _BCLM_GOLD_TREE,
            _BCLM_GOLD_PATH,
        ),
    ),
    # the gold's arcs, and the parses' CL over 1–3 and HNEIM over 5–7
    lattice_arcs=(
        *_BCLM_GOLD_PATH[:3],
        (1, 3, "CL", "NN", 1),
        *_BCLM_GOLD_PATH[3:],
        (5, 7, "HNEIM", "VB", 2),
    ),
)
