"""The label-set aligner (``evalcore align-labels``, docs/labels.md): hand-counted examples, the
self-recovery property on real sentences, and the UD v1 → v2 pairs of EWT."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from itertools import islice

import pytest
from ec_support import ASSETS, conllu_sentence
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.conversion import read_label_map
from evalcore.formats.conllu import read_conllu
from evalcore.labelalign import AlignSettings, align, align_files, count_pairs
from evalcore.trees import DepTree

EWT_V1 = ASSETS / "en_ewt" / "en-ud-test.r1.4.conllu.gz"
EWT_V2 = ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz"

# Three sentences, a dependency annotation A and a constituency annotation B (function tags).
DEP_A = "".join(
    [
        conllu_sentence([2, 0, 2], forms=["John", "loves", "Mary"], deprels=["nsubj", "root", "dobj"]),
        conllu_sentence([2, 0], forms=["Mary", "sleeps"], deprels=["nsubj", "root"]),
        conllu_sentence([2, 0], forms=["John", "sleeps"], deprels=["nsubj", "root"]),
    ]
)
PTB_B = (
    "(S (NP-SBJ John) (VP (V loves) (NP-OBJ Mary)))\n"
    "(S (NP-SBJ Mary) (VP sleeps))\n"
    "(S (NP-OBJ John) (VP sleeps))\n"  # an odd tag on purpose: nsubj is SBJ twice, OBJ once
)


def _files(write_file: Callable[[str, str | bytes], str]) -> tuple[str, str]:
    return write_file("a.conllu", DEP_A), write_file("b.mrg", PTB_B)


def test_hand_counted_dependency_onto_constituency(write_file) -> None:  # type: ignore[no-untyped-def]
    """Counted by hand (the full-sentence span is never counted, docs/tedeval.md, "Multi-function trees (2012
    protocol)"): A's spans: s1 {John}=nsubj, {loves}=hd (a head with dependents), {Mary}=dobj; s2
    {Mary}=nsubj, {sleeps}=hd; s3 {John}=nsubj, {sleeps}=hd.  B's: s1 {John}=SBJ, {loves Mary}=VP (no
    function), {loves}=V (none), {Mary}=OBJ; s2 {Mary}=SBJ, {sleeps}=none; s3 {John}=OBJ, {sleeps}=none.
    occ(nsubj)=3, occ(hd)=3, occ(dobj)=1; co(nsubj,SBJ)=2, co(nsubj,OBJ)=1, co(dobj,OBJ)=1; hd is
    never on a B-labeled span.  With support >= 1 and share >= 0.5: nsubj → SBJ (2/3), dobj → OBJ
    (1/1), hd a conflict.  Coverage (2 + 1 + 0) / 7 = 3/7; baseline (no label has the same name) 0."""
    a, b = _files(write_file)
    (al,) = align_files(a, b, AlignSettings(min_support=1, min_share=0.5))
    by = {p.label: p for p in al.proposals}
    assert {k: p.occurrences for k, p in by.items()} == {"nsubj": 3, "hd": 3, "dobj": 1}
    assert by["nsubj"].candidates == (("SBJ", 2), ("OBJ", 1))
    assert by["dobj"].candidates == (("OBJ", 1),) and by["hd"].candidates == ()
    assert al.label_map.pairs == (("nsubj", "SBJ"), ("dobj", "OBJ"))
    assert [p.label for p in al.conflicts] == ["hd"]
    assert al.coverage == pytest.approx(3 / 7) and al.baseline == 0.0 and al.occurrences == 7
    assert al.sentences == 3
    # support 2 drops dobj (1 co-occurrence); share 0.7 drops nsubj (2/3)
    (al2,) = align_files(a, b, AlignSettings(min_support=2, min_share=0.5))
    assert al2.label_map.pairs == (("nsubj", "SBJ"),)
    (al3,) = align_files(a, b, AlignSettings(min_support=1, min_share=0.7))
    assert al3.label_map.pairs == (("dobj", "OBJ"),)


def test_hand_counted_other_direction(write_file) -> None:  # type: ignore[no-untyped-def]
    """B onto A: occ(SBJ)=2, co(SBJ,nsubj)=2; occ(OBJ)=2, co(OBJ,dobj)=1, co(OBJ,nsubj)=1 -- a tie,
    broken by name (dobj < nsubj), share 1/2."""
    a, b = _files(write_file)
    ab, ba = align_files(a, b, AlignSettings(1, 0.5), direction="both")
    assert ab.source == "A" and ba.source == "B"
    by = {p.label: p for p in ba.proposals}
    assert by["SBJ"].target == "nsubj" and by["SBJ"].support == 2 and by["SBJ"].share == 1.0
    assert by["OBJ"].target == "dobj" and by["OBJ"].support == 1 and by["OBJ"].share == 0.5
    assert ba.coverage == pytest.approx(3 / 4)


def test_cli_map_format_reads_back_and_other_formats(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    a, b = _files(write_file)
    res = run_cli("align-labels", a, b, "--min-support", "1")
    assert res.code == 0, res.err
    assert "nsubj=SBJ" in res.out.splitlines() and "dobj=OBJ" in res.out.splitlines()
    assert "# conflict: hd (3) not mapped, never on a span labeled in B" in res.out
    mapping = read_label_map(write_file("out.map", res.out))  # the output is a --labels-map file
    assert mapping.pairs == (("nsubj", "SBJ"), ("dobj", "OBJ"))
    out = json.loads(run_cli("align-labels", a, b, "--min-support", "1", "--format", "json").out)
    assert out[0]["map"] == [{"old": "nsubj", "new": "SBJ"}, {"old": "dobj", "new": "OBJ"}]
    nsubj = next(row for row in out[0]["labels"] if row["label"] == "nsubj")
    assert nsubj["candidates"] == [{"label": "SBJ", "count": 2}, {"label": "OBJ", "count": 1}]
    csv = run_cli("align-labels", a, b, "--min-support", "1", "--format", "csv").out.splitlines()
    assert csv[0] == "from,onto,label,new,status,occurrences,best,support,share,reason"
    assert "a,b,nsubj,SBJ,renamed,3,SBJ,2,0.6667," in csv
    text = run_cli("align-labels", a, b, "--direction", "both", "--format", "text").out
    assert "labels of a onto labels of b" in text and "labels of b onto labels of a" in text


def test_cli_mismatched_words_and_bad_settings(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    a, _ = _files(write_file)
    other = write_file("o.mrg", PTB_B.replace("(V loves)", "(V hates)"))
    res = run_cli("align-labels", a, other)
    assert res.code == 2 and len(res.err_lines) == 1
    assert res.err_lines[0].startswith(f"{other}:1: sentence 1: word 2 is 'hates'")
    ok = run_cli("align-labels", a, other, "--skip-mismatched", "--min-support", "1", "--format", "json")
    assert ok.code == 0 and json.loads(ok.out)[0]["skipped_mismatched"] == 1
    assert "skipped 1 sentence(s)" in ok.err
    short = write_file("short.mrg", PTB_B.splitlines()[0] + "\n")
    res = run_cli("align-labels", a, short)
    assert res.code == 2 and "has more sentences" in res.err
    res = run_cli("align-labels", a, a, "--min-share", "2")
    assert res.code == 2 and "min_share" in res.err


@lru_cache(maxsize=1)
def _ewt_sentences() -> tuple[DepTree, ...]:
    return tuple(islice(read_conllu(EWT_V2), 300))


def _relabel(tree: DepTree, mapping: dict[str, str]) -> DepTree:
    return replace(tree, tokens=tuple(replace(t, deprel=mapping[t.deprel]) for t in tree.tokens))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_self_alignment_recovers_an_injective_relabelling(data: st.DataObject) -> None:
    """A scheme aligned with a relabelled copy of itself (random injective relabelling of real EWT
    sentences) gets the relabelling back exactly: every label that occurs below the root maps to
    its image (and the conversion's own ``hd`` to itself)."""
    pool = _ewt_sentences()
    picks = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=20, unique=True))
    trees = [pool[i] for i in picks]
    labels = sorted({t.deprel for tree in trees for t in tree.tokens})
    fresh = [f"X{k}" for k in range(len(labels))]
    images = data.draw(st.permutations(labels + fresh))[: len(labels)]
    relabel = dict(zip(labels, images, strict=True))
    copy = [_relabel(t, relabel) for t in trees]
    counts = count_pairs(trees, copy)
    al = align(counts, AlignSettings(min_support=1, min_share=1.0))
    assert al.conflicts == ()
    got = {p.label: p.target for p in al.proposals}
    assert got == {a: relabel.get(a, a) for a in got}  # hd is no deprel: it maps to itself
    below_root = {
        t.deprel
        for tree in trees
        for t in tree.tokens
        if t.head != 0 or sum(u.head == 0 for u in tree.tokens) > 1
    }
    assert below_root <= set(got)
    assert al.coverage == 1.0


@pytest.mark.slow
def test_ewt_ud_v1_onto_v2_proposes_the_v2_renamings() -> None:
    """UD v1 (r1.4) onto UD v2 (r2.16) gold of EWT test, sentences matched by their words.  The
    expected pairs are renamings listed in the UD v2 change log ("Changes from v1 to v2",
    https://universaldependencies.org/v2/summary.html): dobj → obj, nsubjpass → nsubj:pass,
    auxpass → aux:pass, mwe → fixed.  The 7 sentences whose words differ are docs/tedeval.md's."""
    (al,) = align_files(str(EWT_V1), str(EWT_V2), names=("v1", "v2"), skip_mismatched=True)
    pairs = set(al.label_map.pairs)
    assert {("dobj", "obj"), ("nsubjpass", "nsubj:pass"), ("auxpass", "aux:pass"), ("mwe", "fixed")} <= pairs
    assert al.skipped_mismatched == 7 and al.sentences == 2077 - 7
    assert al.coverage > al.baseline
