"""Behaviours no earlier test pinned to a number from outside the code.

* evalb 2006's quote repair (the index of a repaired quote moves; ``/`` is a quote word), EQ_LABEL
  in both directions, crossing brackets in sentences over 256 words: evalb's own report
  (``tests/fixtures/reference/pins``, ``COMMANDS.txt``), byte for byte, on the command line's
  count-only path and on the library's tree path;
* NED of a root word (it has no grandparent) and ROOT as a grandparent: NED.pl;
* the atlas under the 2011 protocol (its groupings read the lifted tree) and its shares (counted
  / Σδ): hand counts on docs/tedeval.md's worked example and on a lifted arc;
* label alignment's ties and coverage: hand counts (docs/labels.md);
* the sentence average of no sentence (docs/tedeval.md, docs/lattice.md);
* ``--tag-column fpos`` in the lattice path check: hand counts (docs/lattice.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from ec_support import ASSETS

import evalcore
from evalcore.atlas import AtlasCell, AtlasConfig, build_atlas
from evalcore.cli import main
from evalcore.conversion import ConversionConfig
from evalcore.examples import dep_tree
from evalcore.experiment import NamedTrees, Scheme
from evalcore.labelalign import AlignSettings, CoCounts, align
from evalcore.metrics import lattice_tedeval, tedeval
from evalcore.metrics.tedeval import TedConfig
from evalcore.report.parseval import format_evalb_report
from evalcore.trees import DepTree

PINS = Path(__file__).resolve().parent / "fixtures" / "reference" / "pins"
EVALB = ASSETS / "evalb"


def _evalb_case(capsys: pytest.CaptureFixture[str], name: str, prm: Path, report: str) -> str:
    """evalb's report, after checking that ``evalcore parseval`` (the count-only path) and
    ``evalcore.parseval`` (its rows, and with every sentence kept, the tree path) print it byte
    for byte."""
    gold, test = str(PINS / f"{name}.gld"), str(PINS / f"{name}.tst")
    expected = (PINS / report).read_text(encoding="utf-8")
    assert main(["parseval", gold, test, "--prm", str(prm)]) == 0
    assert capsys.readouterr().out == expected
    assert format_evalb_report(evalcore.parseval(gold, test, prm=prm)) == expected
    kept = evalcore.parseval(gold, test, prm=prm, keep_sentences=True)
    assert kept.rows == () and format_evalb_report(kept) == expected
    return expected


def _rows(report: str) -> list[tuple[int, ...]]:
    """evalb's per-sentence lines: ID, Len., Stat., matched, gold, test, crossing, words, tags."""
    body = report.split("=" * 76 + "\n")[1]
    out = []
    for line in body.splitlines():
        f = line.split()
        out.append((int(f[0]), int(f[1]), int(f[2]), *(int(x) for x in f[5:11])))
    return out


# ---------------------------------------------------------------------------
# evalb: quote repair, EQ_LABEL, crossing brackets past 256 words


def test_quote_repair_moves_the_repaired_quotes_index(capsys: pytest.CaptureFixture[str]) -> None:
    """evalb 2006 with new.prm (QUOTE_LABEL '' and POS; '' deleted, POS kept).  Hand count of its
    ``fix_quote``, which compares quote terminals by their index among the kept words:

    1. gold ``a ('' ') b``, test ``a (POS ') (POS ') b``: the gold quote (index 1) is re-inserted for
       the first test quote, and its index moves to 2 -- so it matches the second test quote too
       and is re-inserted again: 4 words each side, valid (3 brackets, 3 matched; tags 2 of 4).
    2. gold ``a ('' ') b ('' ') c``, test with POS: the second gold quote is re-inserted at its
       moved index 3, after the first repair: 5 words, valid, every bracket matched.
    3. ``/`` is a quote word: test ``('' /)`` deleted, gold ``(NN /)`` kept: re-inserted on the
       test side, valid (tags 3 of 4).  4. the same with the brackets changed: 2 of 3 matched."""
    report = _evalb_case(capsys, "evalb_quote", EVALB / "new.prm", "evalb_quote.new_prm.rsl")
    assert _rows(report) == [
        (1, 3, 0, 3, 3, 3, 0, 4, 2),
        (2, 5, 0, 4, 4, 4, 0, 5, 3),
        (3, 4, 0, 3, 3, 3, 0, 4, 3),
        (4, 4, 0, 2, 3, 4, 0, 4, 3),
    ]


def test_eq_label_in_both_directions(capsys: pytest.CaptureFixture[str]) -> None:
    """COLLINS.prm's ``EQ_LABEL ADVP PRT`` and an added ``EQ_LABEL RP RB``: gold ADVP/RB against test
    PRT/RP (sentence 1) and gold PRT/RP against test ADVP/RB (2) both match, as ADVP/PRT does against
    PRT/ADVP in one sentence (3); evalb's ``label_comp`` tries both orders of a pair.  Sentence 4's
    test NP is no PRT: 3 of 4 brackets.  Every tag counts as correct (13 of 13)."""
    report = _evalb_case(capsys, "evalb_eq_label", PINS / "eq_label.prm", "evalb_eq_label.rsl")
    assert [r[3:6] for r in _rows(report)] == [(4, 4, 4), (4, 4, 4), (5, 5, 5), (3, 4, 4)]
    assert [r[8] for r in _rows(report)] == [3, 3, 4, 3]
    # FREVAL's size 1 is evalb's PARSEVAL (docs/freval.md), on the same matching
    size1 = evalcore.freval(
        PINS / "evalb_eq_label.gld", PINS / "evalb_eq_label.tst", prm=PINS / "eq_label.prm", max_size=1
    )
    assert (size1.score.per_size[0].matched, size1.score.per_size[0].gold) == (16, 17)


def test_crossing_brackets_in_sentences_over_256_words(capsys: pytest.CaptureFixture[str]) -> None:
    """evalb2000 (evalb with room for 2,000 words) on sentences of 12, 257, 300, 380 and 480 words
    (make_cross_long.py): its Cross column is 0, 71, 123, 114, 126 -- 434 in all."""
    report = _evalb_case(capsys, "evalb_cross_long", EVALB / "COLLINS.prm", "evalb_cross_long.rsl")
    rows = _rows(report)
    assert [r[1] for r in rows] == [12, 257, 300, 380, 480]
    assert [r[6] for r in rows] == [0, 71, 123, 114, 126]


# ---------------------------------------------------------------------------
# NED: NED.pl


def test_ned_of_a_root_word_and_root_as_a_grandparent() -> None:
    """NED.pl (``ned.txt``, ``ned.per_sentence.txt``) on three sentences (heads, 0 = ROOT):

    1. gold 0 1 2 3, test 3 1 0 3: the root word w1 hangs from its grandchild w3 (wrong: a root word
       has no grandparent, only its own children are right); w3 hangs from ROOT, three levels up
       (wrong): 2 of 4.
    2. gold 0 1 2, test 2 0 2: the root word v1 hangs from its gold child (right); v2, whose gold
       head is the root word, hangs from ROOT, its grandparent (right): 3 of 3.
    3. gold 2 0 2 5 3, test 2 0 2 3 4: u4 under its grandparent, u5 under its gold child: 5 of 5."""
    total = re.fullmatch(r"(\d+)/(\d+) \((\d\.\d{3})\)\n", (PINS / "ned.txt").read_text(encoding="utf-8"))
    assert total is not None and total.groups() == ("10", "12", "0.833")
    per = [
        tuple(map(int, re.match(r"(\d+)/(\d+)", line).groups()))  # type: ignore[union-attr]
        for line in (PINS / "ned.per_sentence.txt").read_text(encoding="utf-8").splitlines()
    ]
    result = evalcore.attach(PINS / "ned.gold.conll", PINS / "ned.test.conll", per_sentence=True)
    assert (result.counts.ned, result.counts.tokens) == (10, 12)
    assert [(c.ned, c.tokens) for _, c in result.per_sentence] == per == [(2, 4), (3, 3), (5, 5)]
    assert f"{result.score.ned:.3f}" == total.group(3)


# ---------------------------------------------------------------------------
# the atlas: the 2011 protocol and the shares


def _cell(atlas: object, parse: str, target: str, labeled: bool = True) -> AtlasCell:
    cell = atlas.cell(parse, target, labeled)  # type: ignore[attr-defined]
    assert cell is not None
    return cell  # type: ignore[no-any-return]


def _groups(cell: AtlasCell, grouping: str) -> dict[str, tuple[int, int, float]]:
    return {g.group: (g.counted, g.discounted, g.share) for g in cell.grouped(grouping)}  # type: ignore[arg-type]


def test_atlas_shares_divide_by_the_counted_delta() -> None:
    """docs/tedeval.md's worked example ("would have worked"): A = {hd}would {vg}({hd}have
    {vg}worked), B = {vg}({vg}would {hd}have) {hd}worked, and p = A with worked labeled obj.
    Against the generalization ``a+b`` (pairs (hd,{2})): ES(p, G) = del hd{1}, del vg{2,3},
    del obj{3}; the first two are in ES(A, G) and discounted: δ = 1, |p| + |G| = 5.  A share is
    counted / Σδ (docs/atlas.md): del obj 1/1, del hd and del vg 0 (each 1 discounted).
    Against A alone (nothing discounted): del obj{3}, ins vg{3}: δ = 2 over 8, shares 1/2 each."""
    words = ["would", "have", "worked"]
    a = dep_tree(words, [0, 1, 2], ["root", "vg", "vg"], sent_id="s1")
    b = dep_tree(words, [2, 3, 0], ["vg", "vg", "root"], sent_id="s1")
    p = dep_tree(words, [0, 1, 2], ["root", "vg", "obj"], sent_id="s1")
    schemes = (
        Scheme("a", NamedTrees("A", (a,)), (NamedTrees("p", (p,)),)),
        Scheme("b", NamedTrees("B", (b,))),
    )
    atlas, _ = build_atlas(schemes, AtlasConfig(golds_as_parses=False))
    general = _cell(atlas, "p", "a+b")
    assert (general.delta, general.norm) == (1, 5)
    assert general.score == pytest.approx(0.8)
    assert _groups(general, "operation") == {
        "del obj": (1, 0, 1.0),
        "del hd": (0, 1, 0.0),
        "del vg": (0, 1, 0.0),
    }
    assert _groups(general, "length") == {"1": (1, 1, 1.0), "2": (0, 1, 0.0)}
    own = _cell(atlas, "p", "a")
    assert (own.delta, own.norm) == (2, 8)
    assert _groups(own, "operation") == {"del obj": (1, 0, 0.5), "ins vg": (1, 0, 0.5)}
    assert _cell(atlas, "p", "a+b", labeled=False).delta == 0


FORMS = ["ran", "the", "fast", "dog"]
UPOS = ["VERB", "DET", "ADV", "NOUN"]


def _lifted_pair() -> tuple[DepTree, DepTree]:
    """The parse attaches "the" to "dog" across "fast" (non-projective); the gold attaches it to
    "ran" -- the parse lifted -- and calls "dog" nmod where the parse says obj."""
    parse = dep_tree(FORMS, [0, 4, 1, 1], ["root", "det", "advmod", "obj"], UPOS, "s1")
    gold = dep_tree(FORMS, [0, 1, 1, 1], ["root", "det", "advmod", "nmod"], UPOS, "s1")
    return parse, gold


def _atlas(conversion: ConversionConfig) -> AtlasCell:
    parse, gold = _lifted_pair()
    schemes = (Scheme("a", NamedTrees("g", (gold,)), (NamedTrees("p", (parse,)),)),)
    atlas, _ = build_atlas(schemes, AtlasConfig(TedConfig(conversion), golds_as_parses=False))
    return _cell(atlas, "p", "a")


def test_atlas_under_the_2011_protocol_reads_the_lifted_tree() -> None:
    """2011 protocol: the parse is projectivized first (docs/tedeval.md "Protocols"; lifting "the"
    to "ran" gives the gold's arcs), so one relabeling is left, ``rel obj→nmod`` on {dog}: δ = 1,
    share 1.  Its head word "dog" is read in the lifted parse (docs/atlas.md: "With --projectivize
    or the 2011 protocol the tree is first lifted"), where it governs nothing: construction
    ``other``.  In the parse as read, "dog" governs the det "the": ``determiner`` -- which is
    what the 2012 protocol, which does not lift, reports for its operations on dog's span {2,4}."""
    cell = _atlas(ConversionConfig("2011"))
    assert cell.delta == 1
    assert _groups(cell, "operation") == {"rel obj→nmod": (1, 0, 1.0)}
    assert _groups(cell, "construction") == {"other": (1, 0, 1.0)}
    assert _groups(cell, "head") == {"NOUN obj": (1, 0, 1.0)}
    # 2012 (docs/tedeval.md: δ is the symmetric difference of (label, span) pairs): del obj{2,4},
    # del hd{4} (dog heads its own phrase), ins nmod{4}: δ 3; the deletions are "determiner"
    cell = _atlas(ConversionConfig("2012"))
    assert cell.delta == 3
    assert _groups(cell, "construction") == {"determiner": (2, 0, 2 / 3), "other": (1, 0, 1 / 3)}
    # 2012 with --projectivize lifts too: del obj{4}, ins nmod{4}, both "other"
    cell = _atlas(ConversionConfig("2012", projectivize=True))
    assert cell.delta == 2
    assert _groups(cell, "construction") == {"other": (2, 0, 1.0)}


# ---------------------------------------------------------------------------
# label alignment: ties and coverage (docs/labels.md, "Method" 4-5)


def test_label_alignment_ties_and_coverage() -> None:
    """Hand-made counts, thresholds support ≥ 2, share ≥ 0.5.

    * z (6 spans): co(z, y) = co(z, z) = 3 -- a tie, won by z itself though y sorts first; kept
      (3 ≥ 2, 3/6 = 0.5), no renaming;
    * p (4): co(p, r) = co(p, q) = 2 -- a tie between two other names, won by the smaller, q;
      kept at a share of exactly 0.5: ``p=q``;
    * n (4): co(n, m) = 1 -- below the support: a conflict, n keeps its name.

    coverage = (co(z, z) + co(p, q) + co(n, n)) / (6 + 4 + 4) = (3 + 2 + 0) / 14 = 5/14;
    baseline = (co(z, z) + co(p, p) + co(n, n)) / 14 = 3/14."""
    counts = CoCounts(
        occurrences_a=(("z", 6), ("n", 4), ("p", 4)),
        occurrences_b=(("y", 3), ("z", 3), ("q", 2), ("r", 2), ("m", 1)),
        pairs=(("n", "m", 1), ("p", "q", 2), ("p", "r", 2), ("z", "y", 3), ("z", "z", 3)),
        sentences=1,
    )
    result = align(counts, AlignSettings(min_support=2, min_share=0.5))
    got = {p.label: (p.best, p.support, p.kept, p.target) for p in result.proposals}
    assert got == {
        "z": ("z", 3, True, "z"),
        "p": ("q", 2, True, "q"),
        "n": ("m", 1, False, "n"),
    }
    assert result.label_map.pairs == (("p", "q"),)
    assert result.coverage == pytest.approx(5 / 14)
    assert result.baseline == pytest.approx(3 / 14)
    assert result.occurrences == 14
    # no label at all: nothing is missed
    empty = align(CoCounts())
    assert (empty.coverage, empty.baseline, empty.occurrences) == (1.0, 1.0, 0)


# ---------------------------------------------------------------------------
# the sentence average of no sentence


def test_the_average_of_no_sentence_is_one() -> None:
    """docs/tedeval.md: a corpus with no sentence left scores 1 under both averages (the global
    average's normalizer is 0), and docs/lattice.md says the same of TedEval over lattices."""
    for average in ("global", "sentence"):
        assert tedeval.score(tedeval.TedCounts(), TedConfig(average=average)).score == 1.0
        config = lattice_tedeval.LatticeTedConfig(average=average)
        assert lattice_tedeval.score(lattice_tedeval.LatticeTedCounts(), config).score == 1.0
    # one sentence of score 0.5 and none: the mean is 0.5 (not pulled towards 1)
    half = tedeval.TedCounts(1, 2, 1, 0.5)
    assert tedeval.score(half, TedConfig(average="sentence")).score == 0.5


@pytest.mark.parametrize("average", ["global", "sentence"])
def test_an_experiment_with_every_sentence_skipped(average: str) -> None:
    """The only sentence's words differ ("he runs" / "she runs") and ``skip_mismatched`` skips it:
    U-TED and L-TED are 1 under both averages, UAS and LAS over no token 0 (docs/tedeval.md)."""
    gold = dep_tree(["he", "runs"], [2, 0], ["nsubj", "root"])
    parse = dep_tree(["she", "runs"], [2, 0], ["nsubj", "root"])
    result = evalcore.tedeval(
        {"a": ([gold], {"p": [parse]})},
        average=average,  # type: ignore[arg-type]
        skip_mismatched=True,
        shuffles=0,
    )
    assert (result.sentences, result.skipped_mismatched) == (0, 1)
    doc: dict[str, Any] = result.to_dict()
    rows = {r["metric"]: r["score"] for r in doc["rows"]}
    assert rows == {"UAS": 0.0, "LAS": 0.0, "U-TED": 1.0, "L-TED": 1.0}


# ---------------------------------------------------------------------------
# --tag-column fpos in the lattice path check


@pytest.mark.parametrize("tag_column", ["cpos", "fpos"])
def test_the_lattice_path_check_reads_the_chosen_tag_column(
    tag_column: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``lattice_fpos.*`` (docs/lattice.md: ``--ambiguity-lattice`` reports how many gold and
    predicted analyses lie outside the lattice, by segment + tag and by segments alone).  The
    lattice offers b as CPOS/FPOS Y/YB and c as W/WC; the gold tags b Q/YB and c W/WC, the
    prediction b Q/YB and c W/WX.  By CPOS both analyses leave the lattice at token 1 (Q);
    by FPOS the gold lies in it and the prediction leaves it at token 2 (WX).  By segments
    alone both lie in it."""
    f = {k: str(PINS / f"lattice_fpos.{k}") for k in ("gold.conll", "pred.conll")}
    lat = {k: str(PINS / f"lattice_fpos.{k}.lattice") for k in ("gold", "pred", "ambiguity")}
    argv = ["lattice", f["gold.conll"], f["pred.conll"], "--gold-lattice", lat["gold"]]
    argv += ["--pred-lattice", lat["pred"], "--ambiguity-lattice", lat["ambiguity"]]
    assert main([*argv, "--tag-column", tag_column, "--format", "json", "--per-sentence"]) == 0
    data = json.loads(capsys.readouterr().out)
    check = data["lattice_check"]
    outside = (1, 1, 1) if tag_column == "cpos" else (0, 1, 0)
    assert (check["gold_outside"], check["pred_outside"], check["gold_tokens_outside"]) == outside
    assert (check["gold_outside_segments"], check["pred_outside_segments"]) == (0, 0)
