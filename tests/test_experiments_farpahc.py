"""The FarPaHC cross-framework experiment (experiments/farpahc_eacl.py).

* The cleaning of Penn-Helsinki trees and the cut of a UD sentence, on hand-written examples.
* ``prepare`` on ../shared/data writes exactly the committed evaluation and map-set files.
* ``evaluate`` on the committed files writes exactly the committed table (slow).
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import pytest

from evalcore.formats.conllu import parse_conllu

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "experiments"))

import farpahc_eacl as fe  # noqa: E402


def _tree(text: str) -> fe.Br:
    from evalcore.formats.ptb import parse_ptb

    (t,) = parse_ptb(text)
    out = fe.nested(t)
    assert isinstance(out, fe.Br)
    return out


def test_cleaning_removes_empty_elements_code_and_punctuation_lemmas() -> None:
    """Hand-made psd tree: the CODE node, the trace ``*T*-1`` with its NP, the null ``0`` with its
    WNP go; ``,-,`` becomes ``,``; the case of part-of-speech tags (``PRO-N``) goes, the
    phrases' function tags stay."""
    raw = _tree(
        "( (IP-MAT (CODE VS:I_1P) (NP-SBJ (PRO-N eg)) (, ,-,)"
        " (CP-REL (WNP-1 0) (C sum) (IP-SUB (NP-OB1 *T*-1) (VBDI fór))) (. .-.)) (ID X,.1))"
    )
    assert fe.tree_id(raw) == "X,.1"
    got = fe.bracketed(fe.combined([fe.clean(raw)]))
    assert got == "( (IP-MAT (NP-SBJ (PRO eg)) (, ,) (CP-REL (C sum) (IP-SUB (VBDI fór))) (. .)))"


def test_split_clitics_are_joined_at_the_first_part() -> None:
    """``frásögn$ $ina`` → ``frásögnina`` (UD's word); across brackets the second part's bracket,
    left empty, goes: ``(ADV tá$) (CP (C $ið) …)`` → ``(ADV táið) (CP …)``."""
    raw = _tree("( (IP-MAT (NP-OB1 (N-A frásögn$) (D-A $ina)) (ADVP (ADV tá$)) (CP-REL (C $ið) (VBDI fór))))")
    cleaned = fe.clean(raw)
    assert fe.words(cleaned) == ("frásögnina", "táið", "fór")
    assert (
        fe.bracketed(cleaned) == "( (IP-MAT (NP-OB1 (N frásögnina)) (ADVP (ADV táið)) (CP-REL (VBDI fór))))"
    )


def test_cut_makes_words_with_an_outside_head_roots() -> None:
    """A 5-word sentence made of two psd trees (words 1–2 and 3–5): word 4's head is word 2, outside
    the second piece, so it becomes its root; words 3 and 5 keep their heads (renumbered)."""
    text = "".join(
        f"{i}\t{w}\t_\t_\t_\t_\t{h}\t{r}\t_\t_\n"
        for i, w, h, r in (
            (1, "a", 2, "nsubj"),
            (2, "b", 0, "root"),
            (3, "c", 4, "nsubj"),
            (4, "d", 2, "conj"),
            (5, "e", 4, "obj"),
        )
    )
    (u,) = parse_conllu("# sent_id = s\n" + text + "\n")
    piece = fe.cut(u, 2, 5, "X,.2")
    assert [(t.id, t.form, t.head, t.deprel) for t in piece.tokens] == [
        (1, "c", 2, "nsubj"),
        (2, "d", 0, "root"),
        (3, "e", 2, "obj"),
    ]
    assert piece.sent_id == "X,.2"


@pytest.mark.slow
def test_prepare_writes_the_committed_files(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The evaluation and map-set files are what ``prepare`` makes from ../shared/data/farpahc, byte
    for byte (gzip without a time stamp)."""
    committed = {
        p.name: p.read_bytes() for p in sorted(fe.EACL.glob("farpahc-*.gz")) if ".spacy." not in p.name
    }
    monkeypatch.setattr(fe, "EACL", tmp_path)
    report = fe.prepare(data / "farpahc")
    fresh = {p.name: p.read_bytes() for p in sorted(tmp_path.glob("farpahc-*.gz"))}
    assert fresh == committed
    assert "evaluation set 111 trees" in report  # regression pin: the count documented in docs/findings.md


def test_committed_parse_has_the_gold_words() -> None:
    """The committed spaCy parse is of the evaluation set's words, sentence by sentence."""
    from evalcore.formats.conllu import read_conllu

    gold = [t.forms for t in read_conllu(fe.eval_path("ud-gold"))]
    parse = [t.forms for t in read_conllu(fe.eval_path("spacy"))]
    assert parse == gold
    with gzip.open(fe.eval_path("spacy"), "rt", encoding="utf-8") as fh:
        assert fh.read().count("\troot\t") >= len(gold)


@pytest.mark.slow  # 10-20 s: eight evaluations, 10,000 shuffles (FarPaHC, GUM; with and without categories)
def test_evaluation_reproduces_committed_table(tmp_path: Path) -> None:
    fe.evaluate_and_write(tmp_path)
    for stem in (fe.NAME, fe.GUM_NAME):
        for ext in ("md", "csv"):
            name = f"{stem}.{ext}"
            assert (tmp_path / name).read_bytes() == (fe.RESULTS / name).read_bytes(), name


@pytest.mark.slow
def test_proposed_map_is_what_align_labels_proposes_on_the_map_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``maps/psd-to-ud.proposed.map`` is ``evalcore align-labels``' output on the committed map set."""
    committed = fe.PROPOSED.read_text(encoding="utf-8")
    monkeypatch.setattr(fe, "PROPOSED", tmp_path / "proposed.map")
    assert fe.propose() == committed


def test_reviewed_map_differs_from_the_proposal_only_by_the_documented_review() -> None:
    """The reviewed map = the proposal without ``MAT=conj`` and with ``VOC=vocative`` for ``VOC=hd``
    (the two changes its header explains)."""
    from evalcore.conversion import read_label_map

    proposed = dict(read_label_map(fe.PROPOSED).pairs)
    reviewed = dict(read_label_map(fe.MAPS["psd"]).pairs)
    assert proposed.pop("MAT") == "conj"
    assert proposed["VOC"] == "hd"
    proposed["VOC"] = "vocative"
    assert reviewed == proposed


@pytest.mark.slow
def test_category_proposal_is_what_align_labels_proposes_with_category_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``maps/psd-cat-to-ud.proposed.map`` is ``evalcore align-labels --category-labels``' output on
    the committed map set (regression pin of the aligner's counts)."""
    committed = fe.CAT_PROPOSED.read_text(encoding="utf-8")
    monkeypatch.setattr(fe, "CAT_PROPOSED", tmp_path / "proposed.map")
    assert fe.propose(categories=True) == committed
    assert "|cat:yes|" in committed


def test_category_map_differs_from_the_proposal_only_by_the_documented_review() -> None:
    """The reviewed category map = the proposal without ``MAT=conj``, with ``VOC=vocative`` for
    ``VOC=hd`` and with ``PP=obl`` added (the three changes its header explains)."""
    from evalcore.conversion import read_label_map

    proposed = dict(read_label_map(fe.CAT_PROPOSED).pairs)
    reviewed = dict(read_label_map(fe.CAT_MAPS["psd"]).pairs)
    assert proposed.pop("MAT") == "conj"
    assert proposed["VOC"] == "hd"
    proposed["VOC"] = "vocative"
    assert "PP" not in proposed
    proposed["PP"] = "obl"
    assert reviewed == proposed


def test_gum_category_map_is_what_align_labels_proposes_kept_as_proposed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``assets/gum/maps/ptb-cat-to-ud.proposed.map`` is ``align-labels --category-labels``' output
    on GUM's committed map set (regression pin); the reviewed map has the same pairs (its header:
    kept as proposed)."""
    from evalcore.conversion import read_label_map

    committed = fe.GUM_CAT_PROPOSED.read_text(encoding="utf-8")
    monkeypatch.setattr(fe, "GUM_CAT_PROPOSED", tmp_path / "proposed.map")
    assert fe.propose_gum_categories() == committed
    assert read_label_map(fe.GUM_CAT_MAP).pairs == read_label_map(tmp_path / "proposed.map").pairs


def test_prepare_gum_writes_the_committed_files(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GUM's map-set and evaluation files and the proposed map are what ``prepare_gum`` makes from
    ../shared/data/gum, byte for byte."""
    committed = {p.name: p.read_bytes() for p in sorted(fe.GUM.glob("gum-*.gz"))}
    proposed = fe.GUM_PROPOSED.read_text(encoding="utf-8")
    monkeypatch.setattr(fe, "GUM", tmp_path)
    monkeypatch.setattr(fe, "GUM_PROPOSED", tmp_path / "proposed.map")
    assert fe.prepare_gum(data / "gum") == proposed
    assert {p.name: p.read_bytes() for p in sorted(tmp_path.glob("gum-*.gz"))} == committed


@pytest.mark.slow  # two evaluations with 10,000 shuffles
def test_check_retrain_compares_every_spacy_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``check-retrain`` without spaCy: a "retraining" that writes the committed parse gives
    difference 0.00 (exit 0); one whose parse attaches every word to the first word
    is beyond the tolerance (exit 1)."""
    from evalcore.formats.conllu import read_conllu, write_conllu

    def same(workdir: Path, max_epochs: int, seed: int, **kw: Path) -> dict[str, object]:
        kw["parse_out"].write_bytes(fe.eval_path("spacy").read_bytes())
        return {}

    monkeypatch.setattr(fe, "train", same)
    assert fe.check_retrain(tmp_path, 1, 0, 1.5) == 0
    out = capsys.readouterr().out
    assert "largest difference 0.00 points" in out
    assert out.count("committed") == 16  # 8 spaCy cells (UAS, LAS, U-/L-TED x 3) without and with maps

    def flat(workdir: Path, max_epochs: int, seed: int, **kw: Path) -> dict[str, object]:
        from dataclasses import replace

        trees = [
            replace(t, tokens=tuple(replace(k, head=0 if k.id == 1 else 1) for k in t.tokens))
            for t in read_conllu(fe.eval_path("spacy"))
        ]
        fe._write_gz(kw["parse_out"], write_conllu(trees))
        return {}

    monkeypatch.setattr(fe, "train", flat)
    assert fe.check_retrain(tmp_path, 1, 0, 1.5) == 1
