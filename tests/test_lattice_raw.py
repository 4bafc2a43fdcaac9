"""Raw-text scenario: CoNLL-U with multiword tokens aligned by characters (docs/lattice.md, "Scenarios",
evalcore.textalign)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from ec_support import CliResult
from scorer_cases import SCORER_CASES, scorer_conllu

from evalcore.errors import MismatchError
from evalcore.formats.conllu import parse_conllu
from evalcore.lattice.model import Block
from evalcore.lattice.textalign import align_sentences, align_tokens, tokenize
from evalcore.metrics.words import words_counts


def _tok(*sentences: list[str]):  # type: ignore[no-untyped-def]
    return tokenize(parse_conllu(scorer_conllu(*sentences), name="x.conllu", on_invalid="keep"))


# The scorer's own TestAlignment cases (tests/scorer_cases.py): our "Words" alignment must agree.
@pytest.mark.parametrize(("gold", "system", "correct"), SCORER_CASES)
def test_words_metric_agrees_with_the_shared_task_scorer(
    gold: list[str], system: list[str], correct: int
) -> None:
    counts = words_counts(_tok(gold), _tok(system))
    n_gold = sum(max(1, len(w.split(" ")) - 1) for w in gold)
    n_sys = sum(max(1, len(w.split(" ")) - 1) for w in system)
    assert (counts.gold, counts.system, counts.correct) == (n_gold, n_sys, correct)
    assert counts.f1 == pytest.approx(2 * correct / (n_gold + n_sys))


def test_different_text_is_an_error() -> None:
    with pytest.raises(MismatchError, match=r"do not spell the same text.*gold 'a' vs system 'b'"):
        words_counts(_tok(["a"]), _tok(["b"]))


def test_sentence_alignment_reports_different_splits() -> None:
    gold = _tok(["ab", "c"], ["d", "e"], ["f"])
    pred = _tok(["ab"], ["c", "d", "e"], ["f"])
    al = align_sentences(gold, pred)
    assert al.pairs == ((2, 2),)
    assert (al.unaligned_gold, al.unaligned_pred) == ((0, 1), (0, 1))


def test_token_blocks() -> None:
    (g,) = _tok(["abc a b c", "de", "f"])
    (p,) = _tok(["ab a b", "cde c de", "f"])
    g_ids, p_ids, blocks = align_tokens(g, p)
    assert (g_ids, p_ids) == ([1, 1, 2], [1, 1, 2])
    assert blocks == (Block(1, 2, 2), Block(2, 1, 1))


def test_raw_scenario_cli(write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]) -> None:
    gold = write_file("gold.conllu", scorer_conllu(["abc a b c", "de"], ["f", "g"]))
    pred = write_file("pred.conllu", scorer_conllu(["abc ab c", "de"], ["f"], ["g"]))
    res = run_cli("lattice", gold, pred, "--format", "json", "--per-sentence")  # records on request
    assert res.code == 0, res.err
    out = json.loads(res.out)
    # docs/lattice.md, "What is compared": raw CoNLL-U input gets the CoNLL 2018 aligned
    # UAS/LAS (its figures
    # are checked against the official scorer in tests/test_lattice_aligned_attachment.py)
    assert out["scenario"] == "raw" and out["classic"]["metric"] == "aligned attachment"
    assert (out["sentences"], out["unaligned"]) == (1, {"gold": [2], "pred": [2, 3]})
    # token abc: gold a b c vs ab c -> LCS 1, d = 3; token de: d = 0; over 4 + 3 segments
    assert out["segeval"]["U"] == pytest.approx(1 - 3 / 7)
    assert out["token_seg_accuracy"]["U"] == pytest.approx(1 / 2)
    ops = out["per_sentence"][0]["ops"]
    assert "del X:ab ⟨0,1⟩" in ops and "add X:a ⟨0,1⟩" in ops and "add X:b ⟨1,2⟩" in ops
    assert 0 < out["tedeval"]["L"] < 1
    text = run_cli("lattice", gold, pred)
    assert "unaligned: 1 gold, 2 predicted" in text.out and "N/A" in text.out
    csv_out = run_cli("lattice", gold, pred, "--format", "csv")
    assert csv_out.out.splitlines()[0].startswith("system,scenario,SEGEVAL U")


def test_raw_scenario_text_mismatch_names_the_line(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    gold = write_file("gold.conllu", scorer_conllu(["ab", "c"]))
    pred = write_file("pred.conllu", scorer_conllu(["ab", "d"]))
    res = run_cli("lattice", gold, pred)
    assert res.code == 2
    assert res.err.startswith(f"{pred}:2: the two files do not spell the same text")


def test_deprel_base_and_several_systems(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    gold_text = scorer_conllu(["ab", "c"]).replace("\t1\tdep\t", "\t1\tnmod:poss\t")
    pred_text = scorer_conllu(["ab", "c"]).replace("\t1\tdep\t", "\t1\tnmod\t")
    gold = write_file("gold.conllu", gold_text)
    pred = write_file("pred.conllu", pred_text)
    full = json.loads(run_cli("lattice", gold, pred, "--full-labels", "--format", "json").out)
    base = json.loads(run_cli("lattice", gold, pred, "--format", "json").out)  # the default on CoNLL-U
    assert base == json.loads(run_cli("lattice", gold, pred, "--deprel-base", "--format", "json").out)
    assert full["detected_scenario"] == "gold"
    assert full["classic"]["L"] == 0.5 and base["classic"]["L"] == 1.0
    assert full["tedeval"]["L"] < 1.0 and base["tedeval"]["L"] == 1.0
    assert "deprel:base" in base["signature"]
    both = json.loads(run_cli("lattice", gold, f"a={pred}", f"b={gold}", "--format", "json").out)
    assert [s["system"] for s in both["systems"]] == ["a", "b"]
    assert both["systems"][1]["tedeval"] == {"U": 1.0, "L": 1.0}
