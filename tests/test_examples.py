"""The papers' examples (evalcore.examples), the edit-script drawings (evalcore.render.edits) and the
per-sentence scores of the cross-scheme experiment -- what the tour and the inspector show.

The examples are checked against the golden files (tests/golden/), so the tour cannot drift
from the numbers the papers print.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from tedeval_helpers import from_spec

from evalcore.conversion import ConversionConfig
from evalcore.examples import (
    BCLM_HNEIM,
    COORDINATION,
    DEP_EXAMPLES,
    JOHN_LOVES_MARY,
    ON_SUNDAY,
    PAPER_TREES,
    VERB_GROUP,
)
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import read_conllu
from evalcore.formats.ptb import parse_ptb
from evalcore.inspection import inspect_sentence
from evalcore.lattice.model import Lexeme, tree_from_constituency
from evalcore.metrics.attachment import score, sentence_counts
from evalcore.metrics.lattice_tedeval import sentence_ted as lattice_ted
from evalcore.reasons import operation_table, reasons_of
from evalcore.render.edits import lattice_ted_dots, marked_tree, marked_tree_dot
from evalcore.trees import bracketed

GOLDEN = Path(__file__).parent / "golden"
ASSETS = Path(__file__).resolve().parents[1] / "assets"


def _path(rows: list[list[object]]) -> list[Lexeme]:
    return [Lexeme(str(seg), str(tag), int(tok), int(s), int(e)) for s, e, seg, tag, tok in rows]  # type: ignore[call-overload]


def _golden(name: str) -> dict[str, object]:
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------
# the examples agree with the golden files


@pytest.mark.parametrize(
    ("key", "golden"),
    [
        ("4a", "tedeval/4a_on_sunday_prep.json"),
        ("4b", "tedeval/4b_on_sunday_pobj.json"),
        ("5a", "tedeval/5a_coordination_conjunction_head.json"),
        ("5b", "tedeval/5b_coordination_first_conjunct_head.json"),
        ("5c", "tedeval/5c_coordination_chain.json"),
        ("6a", "tedeval/6a_verb_group_auxiliary_head.json"),
        ("6b", "tedeval/6b_verb_group_main_verb_head.json"),
    ],
)
def test_paper_trees_match_golden(key: str, golden: str) -> None:
    case = _golden(golden)
    (spec,) = case["inputs"]  # type: ignore[misc]
    words, dep = PAPER_TREES[key]
    assert spec["dep"] == {"words": list(words), "heads": list(dep.heads), "deprels": list(dep.deprels)}
    assert bracketed(from_spec(spec, "2011")) == case["expected"]


def test_examples_use_the_paper_trees() -> None:
    assert [spec for _, _, spec in COORDINATION.schemes] == [PAPER_TREES[k][1] for k in ("5a", "5b", "5c")]
    assert [spec for _, _, spec in VERB_GROUP.schemes] == [PAPER_TREES[k][1] for k in ("6a", "6b")]
    for ex in DEP_EXAMPLES:
        assert ex.default in {c.key for c in ex.choices}
        schemes = {name for name, _, _ in ex.schemes}
        assert all(c.own in schemes for c in ex.choices)
        for c in ex.choices:
            assert ex.tree(c.spec).structure_problem() is None


def test_on_sunday_las_collapses_tedeval_does_not() -> None:
    gold_a = ON_SUNDAY.gold("A")
    flipped = ON_SUNDAY.choice("on")
    parse = ON_SUNDAY.tree(flipped.spec)
    assert score(sentence_counts(gold_a, parse)).las == pytest.approx(1 / 3)
    for protocol in ("2011", "2012"):
        report = inspect_sentence(
            ON_SUNDAY.golds(), [("p", flipped.own, parse)], ConversionConfig(protocol=protocol)
        )
        assert report.parses[0].multiple[1].score == 1.0
    # 2011: the unification-like generalization keeps the specific labels (docs/tedeval.md, "Generalization
    # and unification (2011 protocol)", our decision)
    report = inspect_sentence(ON_SUNDAY.golds(), [], ConversionConfig(protocol="2011"))
    assert bracketed(report.general) == "root( *(arrive), tmod( prep(on), pobj(Sunday) ) )"
    error = ON_SUNDAY.choice("arrive")
    report = inspect_sentence(ON_SUNDAY.golds(), [("p", error.own, ON_SUNDAY.tree(error.spec))])
    assert report.parses[0].multiple[1].score < 1.0


def test_every_coordination_scheme_scores_one() -> None:
    report = inspect_sentence(
        COORDINATION.golds(),
        [(c.key, c.own, COORDINATION.tree(c.spec)) for c in COORDINATION.choices],
        ConversionConfig(protocol="2011"),
    )
    assert bracketed(report.general) == "X( conj(earth), conj(wind), cc(and), conj(fire) )"
    scores = {v.name: v.multiple[1].score for v in report.parses}
    assert scores == {"5a": 1.0, "5b": 1.0, "5c": 1.0, "error": pytest.approx(1 - 1 / 11)}


def test_verb_group_section_53() -> None:
    choice = VERB_GROUP.choice("obj")
    report = inspect_sentence(VERB_GROUP.golds(), [("p", choice.own, VERB_GROUP.tree(choice.spec))])
    unlabeled, labeled = report.parses[0].multiple
    assert (labeled.score, unlabeled.score, labeled.delta, len(labeled.discounted)) == (0.8, 1.0, 1, 2)
    case = _golden("tedeval/sec53_would_have_worked_score.json")
    assert labeled.score == case["expected"]["labeled"]  # type: ignore[index]


def test_john_loves_mary_figures_1_and_4() -> None:
    ex = JOHN_LOVES_MARY
    fig1 = _golden("tedeval/fig1_ptb_functions_to_mftree.json")
    assert fig1["inputs"] == [{"ptb": ex.ptb_functions}]
    fig4 = _golden("tedeval/fig4_tl_unification.json")
    assert fig4["inputs"][0] == {"ptb": ex.ptb_bare}  # type: ignore[index]
    golds = [("PTB", ex.ptb(True)), ("SD", ex.sd_tree())]
    bare = inspect_sentence(golds, [("p", "PTB", ex.ptb(False))]).parses[0]  # type: ignore[list-item]
    tl = inspect_sentence(golds, [("p", "PTB", ex.ptb(False))], label_from={"p": ex.sd_tree()})  # type: ignore[list-item]
    assert bracketed(tl.general) == "{root}( {sbj}John, {hd}loves, {obj}Mary )"
    assert bracketed(tl.parses[0].span_tree) == fig4["expected"]
    assert (bare.multiple[0].score, bare.multiple[1].score) == (1.0, 0.0)
    assert (tl.parses[0].multiple[0].score, tl.parses[0].multiple[1].score) == (1.0, 1.0)


def test_bclm_hneim_matches_the_golden_file() -> None:
    case = _golden("lattice/bclm_hneim_figure1.json")
    gold, parse = case["gold"], case["parse"]
    assert isinstance(gold, dict) and isinstance(parse, dict)
    figure1 = BCLM_HNEIM.parse("figure1")
    assert BCLM_HNEIM.gold.tree == gold["tree"] and figure1.tree == parse["tree"]
    # same lexemes (segment, tag, token) in the same order; states follow one shared lattice here
    assert [list(r[2:]) for r in BCLM_HNEIM.gold.path] == [r[2:] for r in gold["lattice"]]  # type: ignore[index]
    assert [list(r[2:]) for r in figure1.path] == [r[2:] for r in parse["lattice"]]  # type: ignore[index]
    result = lattice_ted(figure1.lattice_tree(), BCLM_HNEIM.gold.lattice_tree())
    expected = case["expected"]
    assert isinstance(expected, dict)
    assert (result.distance, round(result.score, 4)) == (expected["ted"], expected["score"]) == (6, 0.7273)
    golden_trees = (
        tree_from_constituency(parse_ptb(str(parse["tree"]))[0], _path(parse["lattice"])),  # type: ignore[arg-type]
        tree_from_constituency(parse_ptb(str(gold["tree"]))[0], _path(gold["lattice"])),  # type: ignore[arg-type]
    )
    golden_ops = lattice_ted(*golden_trees).ops
    assert [(o.kind, o.label) for o in result.ops] == [(o.kind, o.label) for o in golden_ops]
    # every path is a path of the drawn lattice
    lattice = BCLM_HNEIM.lattice()
    for analysis in (BCLM_HNEIM.gold, *BCLM_HNEIM.parses):
        assert lattice.contains_path(analysis.arcs())
    assert lattice_ted(BCLM_HNEIM.parse("gold").lattice_tree(), BCLM_HNEIM.gold.lattice_tree()).score == 1.0


# ---------------------------------------------------------------------------
# drawings of edit scripts


def test_marks_on_the_section_53_parse() -> None:
    choice = VERB_GROUP.choice("obj")
    report = inspect_sentence(VERB_GROUP.golds(), [("p", choice.own, VERB_GROUP.tree(choice.spec))])
    view = report.parses[0]
    marks = view.marks(report.general)
    mf, styles, texts = marked_tree(view.span_tree, marks, "parse")
    by_text = {texts[i]: styles[i] for i in styles}
    assert by_text == {"−hd": "discounted", "−vg": "discounted", "−obj": "counted"}
    for i in styles:  # each mark sits on the node with the operation's span
        assert any(mf.spans[i] == m.op.span for m in marks)
    assert marked_tree(report.general, marks, "general")[1] == {}  # no insertion here
    dot = marked_tree_dot(view.span_tree, marks, title="p")
    assert dot.count('class="counted"') == 1 and dot.count('class="discounted"') == 2
    whys = reasons_of(report, view, marks, single=False, target="A+B")
    table = operation_table(whys, sentence="s", parse="p", target="A+B", protocol="2012", labeled=True)
    assert [row[:3] for row in table.rows] == [
        ("del obj {3}", "counted", "{3} worked"),
        ("del hd {1}", "discounted", "{1} would"),
        ("del vg {2,3}", "discounted", "{2,3} have worked"),
    ]
    assert subprocess.run(["dot", "-Tsvg"], input=dot, text=True, capture_output=True, check=True).stdout


def test_marks_for_insertions_relabelings_and_mixed_nodes() -> None:
    # 2011: a relabeling is drawn on the parse as old→new
    choice = VERB_GROUP.choice("obj")
    conf = ConversionConfig(protocol="2011")
    report = inspect_sentence(VERB_GROUP.golds(), [("p", choice.own, VERB_GROUP.tree(choice.spec))], conf)
    marks = report.parses[0].marks(report.general)
    texts = marked_tree(report.parses[0].span_tree, marks, "parse")[2]
    assert "obj→vg" in texts.values()
    # insertions are drawn on the generalized gold: the bare PTB parse of John loves Mary
    ex = JOHN_LOVES_MARY
    golds = [("PTB", ex.ptb(True)), ("SD", ex.sd_tree())]
    bare = inspect_sentence(golds, [("p", "PTB", ex.ptb(False))])  # type: ignore[list-item]
    marks = bare.parses[0].marks(bare.general)
    styles, texts = marked_tree(bare.general, marks, "general")[1:]
    assert sorted(texts.values()) == ["+hd", "+obj", "+sbj"] and set(styles.values()) == {"counted"}
    # a node with a counted and a discounted label: the discounted one in parentheses
    mixed = inspect_sentence([("PTB", ex.ptb(True)), ("SD", ex.sd_tree())], [("p", "PTB", ex.ptb(True))])
    p = parse_ptb("(S-root (NP-sbj-x (NN-hd John)) (VP-prd (V-hd loves) (NP-obj (NN-hd Mary))))")[0]
    report = inspect_sentence([("PTB", ex.ptb(True)), ("SD", ex.sd_tree())], [("p", "PTB", p)])
    marks = report.parses[0].marks(report.general)
    texts = marked_tree(report.parses[0].span_tree, marks, "parse")[2]
    assert "(−hd), sbj, −x" in texts.values()  # sbj kept, hd discounted, x counted
    assert mixed.parses[0].multiple[1].score == 1.0


def test_lattice_ted_drawings() -> None:
    parse, gold = BCLM_HNEIM.parse("figure1").lattice_tree(), BCLM_HNEIM.gold.lattice_tree()
    result = lattice_ted(parse, gold)
    p_dot, g_dot = lattice_ted_dots(parse, gold, result.pairs)
    assert p_dot.count('class="deleted"') == 1 and "VB:HNEIM" in p_dot
    assert g_dot.count('class="inserted"') == 5
    for dot in (p_dot, g_dot):
        subprocess.run(["dot", "-Tsvg"], input=dot, text=True, capture_output=True, check=True)


# ---------------------------------------------------------------------------
# the experiment's per-sentence scores (the cross-scheme page's row listing, the inspector's ordering)


@pytest.mark.slow
def test_experiment_sentence_scores_add_up() -> None:
    def named(name: str, path: Path) -> NamedTrees:
        return NamedTrees(name, tuple(read_conllu(path)), str(path))

    ud = named("ud", ASSETS / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz")
    sud = named("sud", ASSETS / "fr_gsd" / "fr_gsd-sud-test.r2.16.conllu.gz")
    seen: list[tuple[int, int]] = []
    # each gold also read as a parse of its own scheme
    result = run_experiment(
        [
            Scheme("UD", ud, (NamedTrees("ud-parse", ud.trees),)),
            Scheme("SUD", sud, (NamedTrees("sud", sud.trees),)),
        ],
        ExperimentConfig(shuffles=0),
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen and seen[-1][0] == seen[-1][1]
    assert result.indices == tuple(range(416)) and result.sent_ids[0] == "fr-ud-test_00001"
    uas = result.sentence_scores("UD", "UAS", "sud")
    row = result.row("UD", "UAS")
    assert row is not None
    cell = row.cell("sud")
    assert cell is not None and round(cell.score, 4) == 0.5164
    assert sum(x for x, _ in cell.pairs) / sum(n for _, n in cell.pairs) == cell.score
    assert all(uas[i] == (x / n if n else 1.0) for i, (x, n) in enumerate(cell.pairs))
    lted = result.sentence_scores("UD+SUD", "L-TED", "sud")
    assert set(lted.values()) == {1.0}  # a gold against a generalization it takes part in
    assert result.sentence_scores("UD", "L-TED", "nope") == {}
    assert result.sentence_scores("nowhere", "L-TED", "sud") == {}
