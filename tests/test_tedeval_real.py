"""TedEval on real treebanks: French-GSD UD vs SUD, EWT with spaCy parses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalcore.conversion import ConversionConfig
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.detect import read_trees
from evalcore.metrics.tedeval import TedConfig

SCORER = Path(__file__).parent / "fixtures" / "reference" / "conll2018" / "fr_gsd.ud_vs_sud.verbose.txt"


def _scorer_f1(metric: str) -> float:
    """The official CoNLL 2018 scorer's F1 of ``metric`` (percent, two decimals), committed."""
    line = next(x for x in SCORER.read_text(encoding="utf-8").splitlines() if x.startswith(f"{metric} "))
    return float(line.split("|")[3]) / 100


def _named(path: Path, name: str) -> NamedTrees:
    return NamedTrees(name, tuple(read_trees(path)), str(path))


@pytest.fixture(scope="module")
def french(assets: Path) -> tuple[NamedTrees, NamedTrees]:
    d = assets / "fr_gsd"
    return (
        _named(d / "fr_gsd-ud-test.r2.16.conllu.gz", "ud_gold"),
        _named(d / "fr_gsd-sud-test.r2.16.conllu.gz", "sud_gold"),
    )


@pytest.mark.parametrize("protocol", ["2012", "2011"])
@pytest.mark.slow
def test_two_golds_agree_under_generalization(french: tuple[NamedTrees, NamedTrees], protocol: str) -> None:
    ud, sud = french
    config = ExperimentConfig(TedConfig(ConversionConfig(protocol=protocol)), shuffles=200)  # type: ignore[arg-type]
    result = run_experiment([Scheme("ud", ud, (ud,)), Scheme("sud", sud, (sud,))], config)
    rows = {(r.against, r.metric): r for r in result.rows}
    assert result.sentences == 416
    # the scorer's LAS (relations by their universal part, the default on these CoNLL-U golds)
    las = rows[("sud", "LAS")].cell("ud_gold")
    assert las is not None and las.score == pytest.approx(_scorer_f1("LAS"), abs=5e-5)  # 28.02
    assert rows[("sud", "UAS")].cell("ud_gold").score == pytest.approx(_scorer_f1("UAS"), abs=5e-5)  # type: ignore[union-attr]
    assert "|deprel:base|" in result.signature
    for metric in ("U-TED", "L-TED"):
        row = rows[("ud+sud", metric)]
        assert {c.parse: c.score for c in row.cells} == {"ud_gold": 1.0, "sud_gold": 1.0}
        # against the other scheme's gold alone, the scheme difference costs points
        assert rows[("sud", metric)].cell("ud_gold").score < 1.0  # type: ignore[union-attr]
        # identical scores are never significantly different
        assert all(not t.significant and t.p_value == 1.0 for t in row.tests)


@pytest.mark.slow  # two runs over 2,070 EWT sentences
def test_ewt_spacy_uas_beside_uted(run_cli, data: Path) -> None:  # type: ignore[no-untyped-def]
    gold = data / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
    v1 = data / "en_ewt" / "en-ud-test.r1.4.conllu"
    spacy = data / "parser_outputs" / "spacy_en_ewt_test" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu"
    res = run_cli(
        "tedeval",
        "--scheme",
        "ud2",
        str(gold),
        f"spacy={spacy}",
        "--scheme",
        "ud1",
        str(v1),
        "--skip-mismatched",
        "--format",
        "json",
    )
    assert res.code == 0, res.err
    out = json.loads(res.out)
    # v1 and v2 differ in the words of 7 sentences (exact string comparison)
    assert out["skipped_mismatched"] == 7
    assert out["sentences"] == 2070
    by = {(r["against"], r["metric"]): r["score"] for r in out["rows"]}
    for metric in ("UAS", "LAS", "U-TED", "L-TED"):
        assert 0.0 < by[("ud2", metric)] < 1.0
    assert by[("ud2", "U-TED")] > by[("ud2", "UAS")]  # tree distance is kinder than head matching
    assert ("ud2+ud1", "U-TED") in by and ("ud2+ud1", "L-TED") in by
    # the text report shows UAS and U-TED side by side
    text = run_cli(
        "tedeval",
        "--scheme",
        "ud2",
        str(gold),
        f"spacy={spacy}",
        "--scheme",
        "ud1",
        str(v1),
        "--skip-mismatched",
    )
    assert "UAS" in text.out and "U-TED" in text.out and "skipped 7 (words differ)" in text.out


def test_ewt_without_skip_names_first_mismatch(run_cli, data: Path) -> None:  # type: ignore[no-untyped-def]
    gold = data / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
    v1 = data / "en_ewt" / "en-ud-test.r1.4.conllu"
    res = run_cli("tedeval", "--scheme", "ud2", str(gold), "--scheme", "ud1", str(v1))
    assert res.code == 2
    (line,) = res.err_lines
    assert line.startswith(f"{v1}:10392: sentence 649 ('email-enronsent32_01-0050'): word 15 is 'Inc.One'")


def test_constituency_against_dependency_gold(run_cli, data: Path) -> None:  # type: ignore[no-untyped-def]
    """EACL 2012 setting: a bracketed parse and a CoNLL-U gold of the same sentences (GUM)."""
    dep = data / "gum" / "dep" / "GUM_bio_dvorak.conllu"
    ptb = data / "gum" / "const" / "GUM_bio_dvorak.ptb"
    res = run_cli(
        "tedeval",
        "--scheme",
        "ud",
        str(dep),
        f"udgold={dep}",
        "--scheme",
        "ptb",
        str(ptb),
        f"ptbgold={ptb}",
        "--shuffles",
        "100",
        "--format",
        "json",
    )
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["sentences"] == 29 and out["skipped_mismatched"] == 0
    by = {(r["parse"], r["against"], r["metric"]): r["score"] for r in out["rows"]}
    assert by[("ptbgold", "ud+ptb", "U-TED")] == 1.0
    assert by[("udgold", "ud+ptb", "U-TED")] == 1.0
    assert by[("ptbgold", "ud", "U-TED")] < 1.0
    assert ("ptbgold", "ud", "UAS") not in by  # no attachment score for a constituency parse
