"""Joint segmentation + parsing cases that older tests did not pin down (docs/lattice.md, "What is compared";
ACL 2012).

A first path that must avoid a dead end, trees that are only a root, a tokenization that
differs while the words agree (the CoNLL 2018 scorer's "Tokens" metric tells them apart),
and which side of the lattice check is counted.  Expected values are hand counts written
out here, or the scorer's output.  These tests kill mutants of ``scripts/mutants.py``
(docs/mutation.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import ASSETS

from evalcore.formats.lattice import read_lattices
from evalcore.formats.ptb import parse_ptb
from evalcore.lattice.model import Block, LatticeTree, Lexeme, lexeme_of, tree_from_constituency
from evalcore.lattice.paths import check_path, first_path
from evalcore.lattice.reading import load_pairing
from evalcore.metrics.joint import evaluate
from evalcore.metrics.lattice_tedeval import LatticeTedConfig, score, sentence_ted
from evalcore.metrics.segeval import sentence_counts
from evalcore.trees import Arc, Lattice

YAP = ASSETS / "hebrew_yap"
FIGURE1 = Path(__file__).parent / "golden" / "lattice" / "bclm_hneim_figure1.json"


def test_first_path_avoids_arcs_that_cannot_reach_the_tokens_end() -> None:
    """Token 1 spans states 0–3: its first arc in file order, 0→1 'a', leads to 1→2 'b', and nothing
    leaves state 2, so no analysis goes that way; the first analysis is 0→3 'abc' (docs/architecture.md, "The
    data model": a path runs from the first to the last state).  Token 2: 3→4 'd'."""
    lattice = Lattice(
        (
            Arc(0, 1, "a", cpos="X", token_id=1),
            Arc(1, 2, "b", cpos="X", token_id=1),
            Arc(0, 3, "abc", cpos="Y", token_id=1),
            Arc(3, 4, "d", cpos="Z", token_id=2),
        )
    )
    path = first_path(lattice)
    assert [(a.start, a.end, a.segment) for a in path] == [(0, 3, "abc"), (3, 4, "d")]
    assert check_path([lexeme_of(a) for a in path], lattice).inside


def test_trees_that_are_only_a_root_score_one() -> None:
    """|p| + |g| − 2 = 0 and TED = 0: a prediction equal to its gold scores 1, as docs/tedeval.md, "Edit
    scripts, discount and score" settles the empty case (1 if the normalizer is 0); roots are never edited
    (ACL 2012 §3)."""
    top = LatticeTree(("TOP",), ((),), (None,))
    root = LatticeTree(("ROOT",), ((),), (None,))
    for p, g in ((top, top), (root, top)):
        r = sentence_ted(p, g)
        assert (r.distance, r.norm, r.score) == (0, 0, 1.0)
    counts = sentence_ted(top, top).counts() + sentence_ted(root, top).counts()
    assert score(counts, LatticeTedConfig(average="sentence")).score == 1.0
    assert score(counts).score == 1.0


def _conllu(tokens: list[str]) -> str:
    """One sentence; ``"ab a b"`` is a multiword token ``ab`` with words ``a``, ``b``; word 1 is the root."""
    lines, n = [], 0
    for tok in tokens:
        parts = tok.split(" ")
        if len(parts) > 1:
            lines.append(f"{n + 1}-{n + len(parts) - 1}\t{parts[0]}\t_\t_\t_\t_\t_\t_\t_\t_")
        for part in parts[1:] if len(parts) > 1 else parts:
            n += 1
            head, rel = (0, "root") if n == 1 else (1, "dep")
            lines.append(f"{n}\t{part}\t_\tX\tX\t_\t{head}\t{rel}\t_\t_")
    return "\n".join(lines) + "\n\n"


def test_one_gold_token_split_in_two_is_the_raw_scenario(write_file: Callable[[str, str], str]) -> None:
    """Gold: token ``ab`` (words a, b) and ``c``; the prediction has tokens a, b, c with the same words,
    tags and heads.  The CoNLL 2018 scorer (conll18_ud_eval.py -v gold.conllu pred.conllu) prints
    Tokens F1 40.00 and Words, UPOS, UAS, LAS 100.00: the words agree, the tokenization does not.
    The prediction did not keep the gold segmentation: scenario *raw*, classic metric N/A (ACL 2012
    Tables 1–2).  SEGEVAL compares the block {ab | a, b}: d = 0, so U = L = 1; of the 2 gold
    tokens only ``c`` is exactly right (docs/lattice.md: a block with more than one token on either
    side is never exact): token accuracy 1/2."""
    gold = write_file("gold.conllu", _conllu(["ab a b", "c"]))
    pred = write_file("pred.conllu", _conllu(["a", "b", "c"]))
    result = evaluate(load_pairing(gold, pred))
    assert result.detected == "raw" and result.classic is None
    (pair,) = load_pairing(gold, pred).pairs
    assert pair.blocks == (Block(1, 1, 2), Block(2, 1, 1))
    seg = result.segeval
    assert (seg.unlabeled, seg.labeled) == (1.0, 1.0)
    assert (seg.token_accuracy_unlabeled, seg.token_accuracy_labeled) == (0.5, 0.5)
    same = evaluate(load_pairing(gold, gold))
    assert same.detected == "gold" and same.classic is not None and same.classic.labeled == 1.0
    # one such sentence among others that keep the gold tokens makes the whole file raw, and the
    # classic metric N/A although the sentence before it (d) kept the gold segmentation
    gold2 = write_file("gold2.conllu", _conllu(["d"]) + _conllu(["ab a b", "c"]))
    pred2 = write_file("pred2.conllu", _conllu(["d"]) + _conllu(["a", "b", "c"]))
    raw2 = evaluate(load_pairing(gold2, pred2))
    assert raw2.detected == "raw" and raw2.classic is None


def test_a_block_with_two_predicted_tokens_is_never_exact() -> None:
    """The mirror of test_lattice's gold-side case: 1 gold token, 2 predicted tokens, same segments."""
    lexemes = [Lexeme("a", "X", 1, 0, 1), Lexeme("b", "X", 1, 1, 2)]
    c = sentence_counts(lexemes, lexemes, [Block(1, 1, 2)])
    assert (c.d_unlabeled, c.gold_tokens, c.exact_unlabeled, c.exact_labeled) == (0, 1, 0, 0)


def test_the_lattice_check_counts_each_side(write_file: Callable[[str, str], str]) -> None:
    """yap's sample: the gold path lies in the ambiguity lattice; a prediction tagging its first token
    גנן as NNP does not (input.lattice offers VB, NN and NNT for it).  Hand count: 1 sentence,
    gold outside 0, predicted outside 1 (by tags; its segments are in the lattice)."""
    text = (YAP / "output.conll").read_text(encoding="utf-8")
    retagged = write_file(
        "retag.conll", text.replace("\tNN\tNN\tgen=M|num=S\t2\tsubj", "\tNNP\tNNP\tgen=M|num=S\t2\tsubj")
    )
    mapping = str(YAP / "output.mapping")
    pairing = load_pairing(str(YAP / "output.conll"), retagged, gold_lattice=mapping, pred_lattice=mapping)
    ambiguity = list(read_lattices(YAP / "input.lattice"))
    result = evaluate(pairing, ambiguity=ambiguity)
    check = result.lattice_check
    assert check is not None
    assert (check.sentences, check.gold_outside, check.pred_outside) == (1, 0, 1)
    assert (check.gold_outside_segments, check.pred_outside_segments) == (0, 0)
    assert result.skipped == 0  # both analyses are trees


def test_segmentation_only_input_skips_no_sentence(write_file: Callable[[str, str], str]) -> None:
    """A one-path lattice file has no tree: TedEval is N/A, and no sentence is "skipped" -- that count is
    for analyses that are not trees (docs/decisions.md, "Sentences that are not trees: skipped and counted"),
    and these have no analysis to be wrong."""
    mapping = str(YAP / "output.mapping")
    result = evaluate(load_pairing(mapping, mapping))
    assert result.ted_labeled is None and result.skipped == 0
    assert result.segeval.labeled == 1.0


@pytest.mark.parametrize("tag_column", ["cpos", "fpos"])
def test_tag_column_chooses_the_tag(write_file: Callable[[str, str], str], tag_column: str) -> None:
    """docs/lattice.md, "What is compared": the tag is the CPOS column unless ``--tag-column fpos``.  Only the
    XPOS (FPOS) of one morpheme differs: labeled SEGEVAL is 1 with CPOS and 1 − 2/14 with FPOS (one lexeme of
    7 on each side: d = 2 over 7 + 7)."""
    from evalcore.lattice.model import ReadOptions

    text = (YAP / "output.conll").read_text(encoding="utf-8")
    assert "\tNN\tNN\tgen=M|num=S\t2\tsubj" in text
    other = write_file(
        "fpos.conll", text.replace("\tNN\tNN\tgen=M|num=S\t2\tsubj", "\tNN\tNNP\tgen=M|num=S\t2\tsubj")
    )
    mapping = str(YAP / "output.mapping")
    options = ReadOptions(tag_column=tag_column)  # type: ignore[arg-type]
    pairing = load_pairing(
        str(YAP / "output.conll"), other, gold_lattice=mapping, pred_lattice=mapping, options=options
    )
    seg = evaluate(pairing).segeval
    expected = 1.0 if tag_column == "cpos" else 1 - 2 / 14
    assert seg.labeled == pytest.approx(expected)


def _figure1() -> tuple[LatticeTree, LatticeTree, LatticeTree, LatticeTree]:
    """The ACL 2012 Figure 1 trees (tests/golden/lattice), with and without token ids."""
    case = json.loads(FIGURE1.read_text(encoding="utf-8"))

    def path(rows: list[list[object]]) -> list[Lexeme]:
        return [Lexeme(str(seg), str(tag), int(tok), int(s), int(e)) for s, e, seg, tag, tok in rows]  # type: ignore[call-overload]

    gold_tree, parse_tree = parse_ptb(case["gold"]["tree"])[0], parse_ptb(case["parse"]["tree"])[0]
    return (
        tree_from_constituency(gold_tree, path(case["gold"]["lattice"])),
        tree_from_constituency(parse_tree, path(case["parse"]["lattice"])),
        tree_from_constituency(gold_tree),
        tree_from_constituency(parse_tree),
    )


def test_token_ids_are_used_only_when_both_trees_have_them() -> None:
    """docs/lattice.md, "Inputs": lexemes match by (segment, tag, token) when both sides carry token ids, by
    segment, tag and order otherwise.  Figure 1 with ids on one side only is still TED 6, score 1 − 6/22."""
    gold, parse, bare_gold, bare_parse = _figure1()
    for p, g in ((parse, bare_gold), (bare_parse, gold), (parse, gold)):
        r = sentence_ted(p, g)
        assert (r.distance, r.norm) == (6, 22)


def test_global_and_sentence_averages_over_two_sentences() -> None:
    """ACL 2012 §3 / docs/lattice.md, "What is compared": corpus score 1 − ΣTED/Σ(|p| + |g| − 2) by default.
    Figure 1 (TED 6 over
    10 + 14 − 2 = 22) and the gold against itself (0 over 14 + 14 − 2 = 26): global 1 − 6/48;
    the mean of sentence scores is ((1 − 6/22) + 1)/2."""
    gold, parse, _, _ = _figure1()
    counts = sentence_ted(parse, gold).counts() + sentence_ted(gold, gold).counts()
    assert (counts.distance, counts.norm, counts.sentences) == (6, 48, 2)
    assert score(counts).score == pytest.approx(1 - 6 / 48)
    assert score(counts, LatticeTedConfig(average="sentence")).score == pytest.approx((1 - 6 / 22 + 1) / 2)
