"""The ``evalcore tedeval`` command: outputs, per-sentence scripts, errors."""

from __future__ import annotations

import json
from collections.abc import Callable

from ec_support import conllu_sentence

from evalcore.conversion import LabelMap

WORDS = ["would", "have", "worked"]


def _files(write_file: Callable[[str, str | bytes], str]) -> tuple[str, str, str]:
    g1 = write_file(
        "g1.conllu", conllu_sentence([0, 1, 2], forms=WORDS, deprels=["root", "vg", "vg"], sent_id="s1")
    )
    g2 = write_file(
        "g2.conllu", conllu_sentence([2, 3, 0], forms=WORDS, deprels=["vg", "vg", "root"], sent_id="s1")
    )
    p = write_file(
        "p.conllu", conllu_sentence([0, 1, 2], forms=WORDS, deprels=["root", "vg", "obj"], sent_id="s1")
    )
    return g1, g2, p


def test_json_rows_and_per_sentence(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    g1, g2, p = _files(write_file)
    res = run_cli(
        "tedeval", "--scheme", "a", g1, p, "--scheme", "b", g2, "--per-sentence", "--format", "json"
    )
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["signature"].startswith("tedeval|proto:2012|")
    row = next(r for r in out["rows"] if r["against"] == "a+b" and r["metric"] == "L-TED")
    assert row["parse"] == "p" and row["scheme"] == "a"
    assert row["score"] == 0.8  # docs/tedeval.md, "Edit scripts, discount and score"
    assert set(row) >= {"parse", "scheme", "against", "metric", "score", "significant_vs"}
    sent = next(s for s in out["per_sentence"] if s["against"] == "a+b" and s["labeled"])
    assert sent["sent_id"] == "s1"
    assert sent["counted"] == ["del obj {3}"]
    assert sorted(sent["discounted"]) == ["del hd {1}", "del vg {2,3}"]


def test_text_latex_csv(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    g1, g2, p = _files(write_file)
    text = run_cli("tedeval", "--scheme", "a", g1, p, "--scheme", "b", g2)
    assert text.code == 0 and "a+b" in text.out and "0.8000" in text.out and "signature: tedeval|" in text.out
    latex = run_cli("tedeval", "--scheme", "a", g1, p, "--scheme", "b", g2, "--format", "latex")
    assert latex.out.startswith("\\begin{tabular}") and "0.8000" in latex.out
    csv = run_cli("tedeval", "--scheme", "a", g1, p, "--scheme", "b", g2, "--format", "csv")
    assert csv.out.splitlines()[0] == "parse,scheme,against,metric,score,best"


def test_protocol_2011(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    g1, g2, p = _files(write_file)
    res = run_cli(
        "tedeval", "--protocol", "2011", "--scheme", "a", g1, p, "--scheme", "b", g2, "--format", "json"
    )
    out = json.loads(res.out)
    assert "proto:2011" in out["signature"] and "proj:yes" in out["signature"]
    row = next(r for r in out["rows"] if r["against"] == "a+b" and r["metric"] == "U-TED")
    assert row["score"] == 1.0


def test_labels_map_changes_signature_and_scores(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    g1, _, _ = _files(write_file)
    p = write_file(
        "p2.conllu", conllu_sentence([0, 1, 2], forms=WORDS, deprels=["root", "VG", "VG"], sent_id="s1")
    )
    plain = json.loads(run_cli("tedeval", "--scheme", "a", g1, p, "--format", "json").out)
    mapping = write_file("map.txt", "# ours=theirs\nVG=vg\n")
    mapped = json.loads(
        run_cli("tedeval", "--scheme", "a", g1, p, "--labels-map", mapping, "--format", "json").out
    )
    score = {r["metric"]: r["score"] for r in plain["rows"]}
    score_m = {r["metric"]: r["score"] for r in mapped["rows"]}
    assert score["L-TED"] < 1.0 and score_m["L-TED"] == 1.0
    assert "map:none" in plain["signature"] and "map:none" not in mapped["signature"]


def test_mismatched_words_exit_2(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    g1, _, _ = _files(write_file)
    other = write_file("o.conllu", conllu_sentence([0, 1, 2], forms=["would", "has", "worked"], sent_id="s1"))
    res = run_cli("tedeval", "--scheme", "a", g1, other)
    assert res.code == 2
    (line,) = res.err_lines
    assert line.startswith(f"{other}:3: sentence 1 ('s1'): word 2 is 'has'")  # line 3 = word 2
    skipped = run_cli("tedeval", "--scheme", "a", g1, other, "--skip-mismatched", "--format", "json")
    assert skipped.code == 0 and json.loads(skipped.out)["skipped_mismatched"] == 1


def test_bad_labels_map_and_2011_constituency(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    g1, _, p = _files(write_file)
    bad = write_file("bad.map", "VG=vg\nnot a pair\n")
    res = run_cli("tedeval", "--scheme", "a", g1, p, "--labels-map", bad)
    assert res.code == 2 and res.err_lines == [f"{bad}:2: expected one 'OLD=NEW' pair per line"]
    ptb = write_file("t.mrg", "(S (NP would) (VP have worked))\n")
    res = run_cli("tedeval", "--protocol", "2011", "--scheme", "a", ptb)
    assert res.code == 2 and "2011 protocol compares dependency trees only" in res.err


def test_label_from_tl_unifies_a_bare_parse(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    """docs/tedeval.md, "Multi-function trees (2012 protocol)" and "Subsumption, generalization and TL-
    unification (2012 protocol)" (EACL 2012 Figure 4): a bare PTB parse takes its labels from a dependency
    conversion."""
    sd = conllu_sentence([2, 0, 2], forms=["John", "loves", "Mary"], deprels=["sbj", "root", "obj"])
    gold = write_file("sd.conllu", sd)
    conv = write_file("conv.conllu", sd)
    bare = write_file("bare.mrg", "(S (NP (NN John)) (VP (V loves) (NP (NN Mary))))\n")
    plain = json.loads(run_cli("tedeval", "--scheme", "sd", gold, bare, "--format", "json").out)
    res = run_cli("tedeval", "--scheme", "sd", gold, bare, "--label-from", f"bare={conv}", "--format", "json")
    assert res.code == 0, res.err
    labeled = {r["metric"]: r["score"] for r in json.loads(res.out)["rows"]}
    unlabeled_plain = {r["metric"]: r["score"] for r in plain["rows"]}
    assert unlabeled_plain["L-TED"] == 0.0  # no labels at all
    # {root}( {sbj}John, ∅( {hd}loves, {obj}Mary ) ) vs SD: the same 3 pairs -> labeled 1.0
    assert labeled["L-TED"] == 1.0
    assert labeled["U-TED"] == unlabeled_plain["U-TED"] < 1.0  # the extra VP bracket still costs
    bad = run_cli("tedeval", "--scheme", "sd", gold, bare, "--label-from", f"nosuch={conv}")
    assert bad.code == 2 and "names no parse: nosuch" in bad.err


def test_per_scheme_labels_map(run_cli, write_file) -> None:  # type: ignore[no-untyped-def]
    """``--labels-map SCHEME=FILE`` maps that scheme's gold and parses only (docs/tedeval.md, "Per-scheme
    label maps")."""
    g1, g2, p = _files(write_file)  # p differs from its gold g1 by one label: obj for vg on 'worked'
    mapping = write_file("obj.map", "obj=vg\n")

    def l_ted(*extra: str) -> tuple[float, str]:
        res = run_cli("tedeval", "--scheme", "a", g1, p, "--scheme", "b", g2, *extra, "--format", "json")
        assert res.code == 0, res.err
        out = json.loads(res.out)
        row = next(r for r in out["rows"] if r["against"] == "a" and r["metric"] == "L-TED")
        return row["score"], out["signature"]

    plain, sig_plain = l_ted()
    own, sig_own = l_ted("--labels-map", f"a={mapping}")
    other, sig_other = l_ted("--labels-map", f"b={mapping}")
    assert plain < 1.0 and own == 1.0  # mapped, p's tree equals its gold's
    assert other == plain  # b's map leaves scheme a alone
    assert "|map:none|" in sig_plain
    fp = LabelMap((("obj", "vg"),)).fingerprint()
    assert f"|map:none,a={fp}|" in sig_own and f"|map:none,b={fp}|" in sig_other
    # a path with '=' whose prefix names no scheme is a map of every scheme
    odd = write_file("x=y.map", "obj=vg\n")
    every, sig_every = l_ted("--labels-map", odd)
    assert every == 1.0 and "|map:none" not in sig_every
    # SCHEME=FILE for a name that is no scheme is read as a path: a missing file, exit 2
    res = run_cli("tedeval", "--scheme", "a", g1, p, "--labels-map", f"c={mapping}")
    assert res.code == 2 and len(res.err_lines) == 1 and f"c={mapping}" in res.err
