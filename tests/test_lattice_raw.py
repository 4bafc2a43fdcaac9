"""Raw-text scenario: CoNLL-U with multiword tokens aligned by characters (SPEC §6, evalcore.textalign)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from ec_support import CliResult

from evalcore.errors import MismatchError
from evalcore.formats.conllu import parse_conllu
from evalcore.lattice.model import Block
from evalcore.lattice.textalign import align_sentences, align_tokens, tokenize
from evalcore.metrics.words import words_counts


def _conllu(*sentences: list[str]) -> str:
    """Sentences in the scorer's test notation: ``"abc a b c"`` is a multiword token with words a b c."""
    out = []
    for sent in sentences:
        lines, n = [], 0
        for tok in sent:
            parts = tok.split(" ")
            if len(parts) == 1:
                n += 1
                lines.append(f"{n}\t{parts[0]}\t_\tX\tX\t_\t{0 if n == 1 else 1}\tdep\t_\t_")
            else:
                lines.append(f"{n + 1}-{n + len(parts) - 1}\t{parts[0]}\t_\t_\t_\t_\t_\t_\t_\t_")
                for part in parts[1:]:
                    n += 1
                    lines.append(f"{n}\t{part}\t_\tX\tX\t_\t{0 if n == 1 else 1}\tdep\t_\t_")
        out.append("\n".join(lines) + "\n\n")
    return "".join(out)


def _tok(*sentences: list[str]):  # type: ignore[no-untyped-def]
    return tokenize(parse_conllu(_conllu(*sentences), name="x.conllu", on_invalid="keep"))


# The expected counts are the unit tests shipped with the CoNLL 2018 scorer (conll18_ud_eval.py,
# class TestAlignment): our "Words" alignment must agree with the shared task's.
SCORER_CASES = [
    (["a"], ["a"], 1),
    (["a", "b", "c"], ["a", "b", "c"], 3),
    (["abc a b c"], ["a", "b", "c"], 3),
    (["a", "bc b c", "d"], ["a", "b", "c", "d"], 4),
    (["abcd a b c d"], ["ab a b", "cd c d"], 4),
    (["abc a b c", "de d e"], ["a", "bcd b c d", "e"], 5),
    (["abcd"], ["a", "b", "c", "d"], 0),
    (["abc", "d"], ["a", "b", "c", "d"], 1),
    (["a", "bc", "d"], ["a", "b", "c", "d"], 2),
    (["a", "bc b c", "d"], ["a", "b", "cd"], 2),
    (["abc a BX c", "def d EX f"], ["ab a b", "cd c d", "ef e f"], 4),
    (["ab a b", "cd bc d"], ["a", "bc", "d"], 2),
    (["a", "bc b c", "d"], ["ab AX BX", "cd CX a"], 1),
]


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
    gold = write_file("gold.conllu", _conllu(["abc a b c", "de"], ["f", "g"]))
    pred = write_file("pred.conllu", _conllu(["abc ab c", "de"], ["f"], ["g"]))
    res = run_cli("lattice", gold, pred, "--format", "json", "--per-sentence")  # records on request
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["scenario"] == "raw" and out["classic"] is None
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
    gold = write_file("gold.conllu", _conllu(["ab", "c"]))
    pred = write_file("pred.conllu", _conllu(["ab", "d"]))
    res = run_cli("lattice", gold, pred)
    assert res.code == 2
    assert res.err.startswith(f"{pred}:2: the two files do not spell the same text")


def test_deprel_base_and_several_systems(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    gold_text = _conllu(["ab", "c"]).replace("\t1\tdep\t", "\t1\tnmod:poss\t")
    pred_text = _conllu(["ab", "c"]).replace("\t1\tdep\t", "\t1\tnmod\t")
    gold = write_file("gold.conllu", gold_text)
    pred = write_file("pred.conllu", pred_text)
    full = json.loads(run_cli("lattice", gold, pred, "--format", "json").out)
    base = json.loads(run_cli("lattice", gold, pred, "--deprel-base", "--format", "json").out)
    assert full["detected_scenario"] == "gold"
    assert full["classic"]["L"] == 0.5 and base["classic"]["L"] == 1.0
    assert full["tedeval"]["L"] < 1.0 and base["tedeval"]["L"] == 1.0
    assert "deprel:base" in base["signature"]
    both = json.loads(run_cli("lattice", gold, f"a={pred}", f"b={gold}", "--format", "json").out)
    assert [s["system"] for s in both["systems"]] == ["a", "b"]
    assert both["systems"][1]["tedeval"] == {"U": 1.0, "L": 1.0}
