"""TedEval over lattices, SEGEVAL, paths in lattices (docs/lattice.md, "SEGEVAL and token accuracy"; ACL
2012)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import ASSETS, CliResult
from hypothesis import given
from hypothesis import strategies as st

from evalcore.errors import InputFormatError
from evalcore.formats.conllu import read_conllu
from evalcore.formats.lattice import read_lattices, write_lattices
from evalcore.formats.ptb import parse_ptb
from evalcore.lattice.model import (
    Block,
    LatticeTree,
    Lexeme,
    lexeme_of,
    token_blocks,
    tree_from_constituency,
    tree_from_dependency,
)
from evalcore.lattice.paths import check_path, first_path, lexemes_of_path, path_arcs
from evalcore.lattice.reading import load_pairing
from evalcore.metrics.joint import evaluate
from evalcore.metrics.lattice_tedeval import sentence_ted
from evalcore.metrics.segeval import lcs_length, score, sentence_counts
from evalcore.trees import Arc, Lattice

GOLDEN = Path(__file__).parent / "golden" / "lattice" / "bclm_hneim_figure1.json"
YAP = ASSETS / "hebrew_yap"


def _golden() -> dict[str, object]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _path(rows: list[list[object]]) -> list[Lexeme]:
    return [Lexeme(str(seg), str(tag), int(tok), int(s), int(e)) for s, e, seg, tag, tok in rows]  # type: ignore[call-overload]


def _lattice_text(rows: list[list[object]]) -> str:
    return "".join(f"{s}\t{e}\t{seg}\t{seg}\t{tag}\t{tag}\t_\t{tok}\n" for s, e, seg, tag, tok in rows) + "\n"


# ---------------------------------------------------------------------------
# the paper's example (ACL 2012 Figure 1; docs/lattice.md, "The paper's example (ACL 2012 Figure 1)")


def test_bclm_hneim_golden() -> None:
    case = _golden()
    gold_case, parse_case, expected = case["gold"], case["parse"], case["expected"]
    assert isinstance(gold_case, dict) and isinstance(parse_case, dict) and isinstance(expected, dict)
    gold = tree_from_constituency(parse_ptb(gold_case["tree"])[0], _path(gold_case["lattice"]))
    parse = tree_from_constituency(parse_ptb(parse_case["tree"])[0], _path(parse_case["lattice"]))
    assert gold.bracketed() == gold_case["bracketed"]
    assert parse.bracketed() == parse_case["bracketed"]
    assert (len(gold), len(parse)) == (gold_case["size"], parse_case["size"])
    result = sentence_ted(parse, gold)
    assert result.distance == expected["ted"]
    assert round(result.score, 4) == expected["score"]
    assert result.norm == 14 + 10 - 2
    assert [str(op) for op in result.ops] == expected["ops"]
    # unlabeled: no label or tag differs in a way that changes the optimum here
    assert sentence_ted(parse, gold, labeled=False).distance == expected["ted"]


def test_bclm_hneim_without_token_ids_matches_by_segment_tag_and_order() -> None:
    case = _golden()
    gold = tree_from_constituency(parse_ptb(case["gold"]["tree"])[0])  # type: ignore[index]
    parse = tree_from_constituency(parse_ptb(case["parse"]["tree"])[0])  # type: ignore[index]
    assert all(lx.token is None for lx in gold.path)
    assert sentence_ted(parse, gold).distance == 6


def test_bclm_hneim_cli(write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]) -> None:
    case = _golden()
    g, p = case["gold"], case["parse"]
    assert isinstance(g, dict) and isinstance(p, dict)
    gold = write_file("gold.mrg", g["tree"] + "\n")
    pred = write_file("pred.mrg", p["tree"] + "\n")
    gl = write_file("gold.lattices", _lattice_text(g["lattice"]))
    pl = write_file("pred.lattices", _lattice_text(p["lattice"]))
    res = run_cli(
        "lattice",
        gold,
        pred,
        "--gold-lattice",
        gl,
        "--pred-lattice",
        pl,
        "--format",
        "json",
        "--per-sentence",
    )  # per-sentence records only on request (the command streams)
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["scenario"] == "raw"
    assert round(out["tedeval"]["L"], 4) == case["expected"]["score"]  # type: ignore[index]
    assert out["per_sentence"][0]["ops"] == case["expected"]["ops"]  # type: ignore[index]
    assert out["per_sentence"][0]["ted"] == {"U": 6, "L": 6}
    assert out["per_sentence"][0]["size"] == {"parse": 10, "gold": 14}
    assert out["classic"] is None  # N/A in the raw scenario
    # token BCLM: gold B H CL FL HM vs B CL FL HM -> d = 1; HNEIM: H NEIM vs HNEIM -> d = 3
    assert out["segeval"]["U"] == pytest.approx(1 - 4 / 12)
    assert out["token_seg_accuracy"] == {"U": 0.0, "L": 0.0}
    text = run_cli("lattice", gold, pred, "--gold-lattice", gl, "--pred-lattice", pl, "--per-sentence")
    assert "add NP ⟨1,5⟩" in text.out and "N/A" in text.out


def test_lexemes_match_only_within_their_token() -> None:
    gold = parse_ptb("(TOP (A x) (B y))")[0]
    parse = parse_ptb("(TOP (A x) (B y))")[0]
    g = tree_from_constituency(gold, [Lexeme("x", "A", 1, 0, 1), Lexeme("y", "B", 2, 1, 2)])
    same = tree_from_constituency(parse, [Lexeme("x", "A", 1, 0, 1), Lexeme("y", "B", 2, 1, 2)])
    moved = tree_from_constituency(parse, [Lexeme("x", "A", 1, 0, 1), Lexeme("y", "B", 1, 1, 2)])
    assert sentence_ted(same, g).distance == 0
    assert sentence_ted(moved, g).distance == 2  # y of token 1 is not y of token 2: DEL + ADD
    retagged = tree_from_constituency(
        parse_ptb("(TOP (A x) (C y))")[0], [Lexeme("x", "A", 1, 0, 1), Lexeme("y", "C", 2, 1, 2)]
    )
    assert sentence_ted(retagged, g).distance == 2
    assert sentence_ted(retagged, g, labeled=False).distance == 0


def test_roots_are_never_edited() -> None:
    g = tree_from_constituency(parse_ptb("(TOP (A x))")[0])
    p = tree_from_constituency(parse_ptb("(ROOT (A x))")[0])
    r = sentence_ted(p, g)
    assert (r.distance, r.norm, r.score) == (0, 2, 1.0)


def test_gold_against_itself_scores_one() -> None:
    tree = tree_from_constituency(parse_ptb(_golden()["gold"]["tree"])[0])  # type: ignore[index]
    r = sentence_ted(tree, tree)
    assert (r.distance, r.score, r.ops) == (0, 1.0, ())


# ---------------------------------------------------------------------------
# lattices and paths


def test_path_arcs_and_errors() -> None:
    (mapping,) = read_lattices(YAP / "output.mapping")
    assert [a.segment for a in path_arcs(mapping)] == ["גנן", "גידל", "דגן", "ב", "ה", "גן", "."]
    (ma,) = read_lattices(YAP / "input.lattice")
    with pytest.raises(
        InputFormatError, match=r"input\.lattice:2: not a single path: a second arc leaves state 0"
    ):
        path_arcs(ma)
    gap = Lattice((Arc(0, 1, "a", token_id=1), Arc(2, 3, "b", token_id=2)))
    with pytest.raises(InputFormatError, match="no arc leaves state 1"):
        path_arcs(gap)


def test_yap_path_lies_in_its_ambiguity_lattice_despite_other_state_numbers() -> None:
    (ma,) = read_lattices(YAP / "input.lattice")
    path = lexemes_of_path(next(iter(read_lattices(YAP / "output.mapping"))))
    check = check_path(path, ma)
    assert check.inside and check.inside_segments and check.tokens == 5
    # the mapping numbers דגן 2->3, the ambiguity lattice 2->5: aligned through token ids
    assert check.states[2] == (2, 5)
    assert check.states[3:6] == ((5, 6), (6, 7), (7, 8))
    wrong_tag = [*path[:2], Lexeme("דגן", "VB", 3, 2, 3), *path[3:]]
    c2 = check_path(wrong_tag, ma)
    assert (c2.inside, c2.inside_segments, c2.outside, c2.states[2]) == (False, True, (3,), None)
    foreign = [*path[:2], Lexeme("דגנים", "NN", 3, 2, 3), *path[3:]]
    c3 = check_path(foreign, ma)
    assert (c3.inside, c3.inside_segments, c3.outside_segments) == (False, False, (3,))
    unknown_token = [*path, Lexeme("x", "NN", 9, 7, 8)]
    assert check_path(unknown_token, ma).outside == (9,)


def test_first_path_is_a_path_of_the_lattice() -> None:
    (ma,) = read_lattices(YAP / "input.lattice")
    arcs = first_path(ma)
    assert [a.segment for a in arcs] == ["גנן", "גידל", "דג", "את", "הן", "ב", "גן", "."]
    assert check_path([lexeme_of(a) for a in arcs], ma).inside


# ---------------------------------------------------------------------------
# SEGEVAL (docs/lattice.md, "SEGEVAL and token accuracy")


def test_lcs() -> None:
    assert lcs_length("ABCBDAB", "BDCABA") == 4
    assert lcs_length([], ["a"]) == 0


def test_segeval_of_the_first_path_baseline_on_the_yap_sample(write_file: Callable[[str, str], str]) -> None:
    """Computed by hand: per token d(U)/d(L) = 0/2, 0/0, 4/4, 1/1, 0/0 over 7 gold + 8 predicted segments."""
    (ma,) = read_lattices(YAP / "input.lattice")
    baseline = write_file("baseline.lattices", write_lattices([Lattice(first_path(ma))]))
    pairing = load_pairing(str(YAP / "output.mapping"), baseline)
    result = evaluate(pairing)
    seg = result.segeval
    assert (seg.counts.d_unlabeled, seg.counts.d_labeled, seg.counts.norm) == (5, 7, 15)
    assert seg.unlabeled == pytest.approx(1 - 5 / 15)
    assert seg.labeled == pytest.approx(1 - 7 / 15)
    assert (seg.token_accuracy_unlabeled, seg.token_accuracy_labeled) == (3 / 5, 2 / 5)
    assert result.scenario == "raw" and result.ted_labeled is None and result.classic is None


def test_segeval_blocks_with_several_tokens_are_never_exact() -> None:
    gold = [Lexeme("a", "X", 1, 0, 1), Lexeme("b", "X", 1, 1, 2)]
    pred = [Lexeme("a", "X", 1, 0, 1), Lexeme("b", "X", 1, 1, 2)]
    one = sentence_counts(gold, pred, [Block(1, 1, 1)])
    two = sentence_counts(gold, pred, [Block(1, 2, 1)])  # gold had two tokens where the system had one
    assert (one.exact_unlabeled, one.gold_tokens, one.d_unlabeled) == (1, 1, 0)
    assert (two.exact_unlabeled, two.gold_tokens, two.d_unlabeled) == (0, 2, 0)
    assert score(one + two).token_accuracy_unlabeled == pytest.approx(1 / 3)


def test_segeval_missing_token_and_no_token_ids() -> None:
    gold = [Lexeme("a", "X", 1, 0, 1), Lexeme("b", "Y", 2, 1, 2)]
    pred = [Lexeme("a", "X", 1, 0, 1)]
    c = sentence_counts(gold, pred, token_blocks(gold, pred))
    assert (c.d_unlabeled, c.norm, c.gold_tokens, c.exact_unlabeled) == (1, 3, 2, 1)
    bare = [Lexeme("a", "X", None, 0, 1)]
    c2 = sentence_counts(bare, bare, token_blocks(bare, bare))
    assert (c2.d_labeled, c2.gold_tokens) == (0, 0)
    assert score(c2).token_accuracy_labeled is None


# ---------------------------------------------------------------------------
# dependency trees over lattices


def test_yap_dependency_function_tree_over_lexemes() -> None:
    (dep,) = read_conllu(YAP / "output.conll")
    path = lexemes_of_path(next(iter(read_lattices(YAP / "output.mapping"))))
    tree = tree_from_dependency(dep, path)
    assert tree.bracketed() == (
        "ROOT(subj(NN:גנן), hd(VB:גידל), obj(hd(NN:דגן), prepmod(hd(PREPOSITION:ב), "
        "pobj(def(DEF:ה), hd(NN:גן)))), punct(yyDOT:.))"
    )
    assert len(tree) == 18 and tree.path == path
    t2011 = tree_from_dependency(dep, path, "2011")
    assert t2011.labels[0] == "<ROOT>" and t2011.labels[1] == "ROOT" and len(t2011) == 19


def test_yap_sample_cli_with_mapping_and_segmentation(run_cli: Callable[..., CliResult]) -> None:
    conll, mapping, seg, ma = (
        str(YAP / f) for f in ("output.conll", "output.mapping", "output.segmentation", "input.lattice")
    )
    res = run_cli(
        "lattice", conll, f"yap={conll}", "--gold-lattice", mapping, "--pred-lattice", seg,
        "--ambiguity-lattice", ma, "--format", "json", "--per-sentence",
    )  # fmt: skip
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["system"] == "yap" and out["scenario"] == "gold"
    assert out["segeval"] == out["tedeval"] == out["token_seg_accuracy"] == {"U": 1.0, "L": 1.0}
    assert out["classic"]["metric"] == "attachment" and out["classic"]["L"] == 1.0
    assert out["lattice_check"]["gold_outside"] == 0
    assert out["per_sentence"][0]["gold_in_lattice"] is True
    assert out["signature"].startswith("lattice|tag:cpos|proto:2012|deprel:full|avg:global|align:index|v")


def test_predicted_scenario_is_detected(write_file: Callable[[str, str], str]) -> None:
    text = (YAP / "output.conll").read_text(encoding="utf-8")
    retagged = write_file(
        "retag.conll", text.replace("\tNN\tNN\tgen=M|num=S\t2\tsubj", "\tNNP\tNNP\tgen=M|num=S\t2\tsubj")
    )
    mapping = str(YAP / "output.mapping")
    pairing = load_pairing(str(YAP / "output.conll"), retagged, gold_lattice=mapping, pred_lattice=mapping)
    result = evaluate(pairing)
    assert result.detected == "predicted"
    assert result.segeval.unlabeled == 1.0 and result.segeval.labeled < 1.0
    assert result.classic is not None and result.classic.labeled == 1.0  # same heads and labels
    assert result.ted_unlabeled is not None and result.ted_unlabeled.score == 1.0
    assert result.ted_labeled is not None and result.ted_labeled.distance == 2  # DEL + ADD of the lexeme


def test_cli_errors_name_file_and_line(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    conll, mapping = str(YAP / "output.conll"), str(YAP / "output.mapping")
    two = write_file("two.lattices", (YAP / "output.mapping").read_text(encoding="utf-8") * 2)
    res = run_cli("lattice", conll, conll, "--gold-lattice", mapping, "--pred-lattice", two)
    assert res.code == 2 and "1 CoNLL sentences but 2 lattice paths" in res.err
    bad = write_file(
        "bad.lattices", (YAP / "output.mapping").read_text(encoding="utf-8").replace("גידל", "גדל", 1)
    )
    res = run_cli("lattice", conll, conll, "--gold-lattice", mapping, "--pred-lattice", bad)
    assert res.code == 2 and "output.conll:2:" in res.err and "differs from segment" in res.err
    res = run_cli("lattice", conll, conll, conll, "--pred-lattice", mapping)
    assert res.code == 2 and "2 predictions but 1 --pred-lattice" in res.err
    res = run_cli("lattice", str(YAP / "output.mapping"), str(YAP / "input.lattice"))
    assert res.code == 2 and "input.lattice:2: not a single path" in res.err


def test_scenario_table_gold_predicted_raw(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    """The paper's table layout (Tables 1–2): one parser, three scenarios, classic metric N/A for raw."""
    case = _golden()
    g, p = case["gold"], case["parse"]
    assert isinstance(g, dict) and isinstance(p, dict)
    gold_tree = str(g["tree"])
    gold = write_file("gold.mrg", gold_tree + "\n")
    gl = write_file("gold.lattices", _lattice_text(g["lattice"]))
    wrong_bracket = write_file("p_gold.mrg", gold_tree.replace("(ADJP", "(NP") + "\n")
    wrong_tag = write_file("p_pred.mrg", gold_tree.replace("(JJ NEIM)", "(VB NEIM)") + "\n")
    raw = write_file("p_raw.mrg", str(p["tree"]) + "\n")
    pl = write_file("pred.lattices", _lattice_text(p["lattice"]))
    res = run_cli(
        "lattice", gold, f"ps-gold={wrong_bracket}", f"ps-pred={wrong_tag}", f"ps-raw={raw}",
        "--gold-lattice", gl, "--pred-lattice", gl, "--pred-lattice", gl, "--pred-lattice", pl,
        "--format", "json",
    )  # fmt: skip
    assert res.code == 0, res.err
    rows = {s["system"]: s for s in json.loads(res.out)["systems"]}
    assert [rows[k]["scenario"] for k in ("ps-gold", "ps-pred", "ps-raw")] == ["gold", "predicted", "raw"]
    assert rows["ps-gold"]["classic"]["metric"] == "parseval" and rows["ps-gold"]["classic"]["L"] < 1
    assert rows["ps-pred"]["classic"]["L"] == 1.0  # brackets right, one tag wrong
    assert rows["ps-raw"]["classic"] is None
    assert rows["ps-pred"]["segeval"] == {"U": 1.0, "L": pytest.approx(1 - 2 / 14)}
    assert rows["ps-gold"]["tedeval"]["U"] == 1.0 and rows["ps-gold"]["tedeval"]["L"] < 1.0
    assert rows["ps-raw"]["tedeval"]["L"] == pytest.approx(1 - 6 / 22)
    text = run_cli(
        "lattice", gold, f"ps-gold={wrong_bracket}", f"ps-raw={raw}",
        "--gold-lattice", gl, "--pred-lattice", gl, "--pred-lattice", pl,
    ).out  # fmt: skip
    assert "ps-gold" in text and "parseval" in text and "N/A" in text


@st.composite
def lattice_trees(draw: st.DrawFn) -> LatticeTree:
    """Random trees over random lexeme sequences (2 tokens, a few segments and tags)."""
    n = draw(st.integers(min_value=1, max_value=6))
    lexemes = []
    for k in range(n):
        seg, tag = draw(st.sampled_from("ab")), draw(st.sampled_from("XY"))
        lexemes.append(Lexeme(seg, tag, 1 + k * 2 // n, k, k + 1))
    labels, children, lex = ["TOP"], [[]], [None]
    open_nodes = [0]
    for lx in lexemes:
        while draw(st.booleans()) and len(labels) < 12:  # open a phrase under a node on the right edge
            parent = open_nodes[draw(st.integers(min_value=0, max_value=len(open_nodes) - 1))]
            idx = len(labels)
            labels.append(draw(st.sampled_from(["NP", "VP"])))
            children.append([])
            lex.append(None)
            children[parent].append(idx)
            open_nodes = [*open_nodes[: open_nodes.index(parent) + 1], idx]
        parent = open_nodes[draw(st.integers(min_value=0, max_value=len(open_nodes) - 1))]
        open_nodes = open_nodes[: open_nodes.index(parent) + 1]
        idx = len(labels)
        labels.append(lx.tag)
        children.append([])
        lex.append(lx)
        children[parent].append(idx)
    return LatticeTree(tuple(labels), tuple(tuple(c) for c in children), tuple(lex))


@given(lattice_trees(), lattice_trees())
def test_lattice_tedeval_properties(p: LatticeTree, g: LatticeTree) -> None:
    for labeled in (True, False):
        r = sentence_ted(p, g, labeled=labeled)
        assert 0 <= r.distance <= r.norm and 0.0 <= r.score <= 1.0
        assert r.distance == sentence_ted(g, p, labeled=labeled).distance
        assert r.distance == len(r.ops)
        assert sentence_ted(p, p, labeled=labeled).score == 1.0
    assert sentence_ted(p, g, labeled=False).distance <= sentence_ted(p, g).distance
