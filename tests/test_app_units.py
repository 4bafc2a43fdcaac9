"""Constructions as units of evaluation on the Atlas page (docs/app.md, "Constructions on the Atlas
page"), in Streamlit's AppTest on the built-in French data: a pasted request's rate and scores are
evalcore's (construction_report on the files read by evalcore itself), the shipped files' rates are
the command line's (a regression pin: `evalcore atlas --pattern ... --format json`), a malformed
request is said with its line, and a listed sentence opens the inspector with the construction's
words boxed and its operations marked (as many ◆ as the listing counts)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from app_view import tables
from streamlit.testing.v1 import AppTest

import evalcore
from evalcore.atlas import AtlasConfig, build_atlas, with_golds_as_parses
from evalcore.construction_scores import Coverage, construction_report
from evalcore.experiment import NamedTrees, Scheme
from evalcore.families.tedeval import TedevalSettings, ted_config
from evalcore.patterns import SHIPPED, where
from evalcore.ranking import RankingConfig
from evalcore.report.constructions import score_text
from evalcore.resampling_settings import BootstrapSettings
from workbench.units import REQUEST, SOURCES, UnitRef, linked_unit, parse_unit, unit_words

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
TIMEOUT = 300  # the atlas of 416 sentences, 5 analyses, on a shared machine
FR = ROOT / "assets" / "fr_gsd"
COP = "pattern { X -[cop]-> Y }"
FILES = (
    ("UD", "UD gold", FR / "fr_gsd-ud-test.r2.16.conllu.gz"),
    ("SUD", "SUD gold", FR / "fr_gsd-sud-test.r2.16.conllu.gz"),
)
PARSES = (
    ("UD", "spaCy UD parser", FR / "parses" / "fr_gsd-test.spacy-ud.conllu.gz"),
    ("UD", "spaCy UD parser, seed 1", FR / "parses" / "fr_gsd-test.spacy-ud-seed1.conllu.gz"),
    ("SUD", "spaCy SUD parser", FR / "parses" / "fr_gsd-test.spacy-sud.conllu.gz"),
)

EXAMPLE = """# sent_id = example
# text = Le chat est sur la table
1	Le	le	DET	_	_	2	det	_	_
2	chat	chat	NOUN	_	_	6	nsubj	_	_
3	est	être	AUX	_	_	6	cop	_	_
4	sur	sur	ADP	_	_	6	case	_	_
5	la	le	DET	_	_	6	det	_	_
6	table	table	NOUN	_	_	0	root	_	_

"""


def test_the_unit_key_and_the_words_of_a_construction_by_hand() -> None:
    """docs/patterns.md's worked sentence: `H -[cop]-> X` covers est (3) and table (6); under
    ud.pat, copula is est (tier 1) and table (tier 2: its cop dependent), adposition is sur."""
    assert ("schemes", *SHIPPED, REQUEST) == SOURCES
    assert parse_unit("schemes:copula") == UnitRef("schemes", "copula")
    assert isinstance(parse_unit("copula"), str) and isinstance(parse_unit("nope:copula"), str)
    (tree,) = evalcore.read(EXAMPLE)
    got = linked_unit("request:pattern", "pattern { H -[cop]-> X }", ("UD", "SUD"))
    assert not isinstance(got, str)
    assert unit_words(got.coverage, "pattern", tree, "UD") == {3, 6}
    files = linked_unit("schemes:copula", "", ("UD", "SUD"))
    assert not isinstance(files, str)
    assert unit_words(files.coverage, "copula", tree, "UD") == {3, 6}
    assert unit_words(files.coverage, "adposition", tree, "UD") == {4}
    bad = linked_unit("request:pattern", "pattern { X -[cop]-> Y ", ("UD",))
    assert isinstance(bad, str) and "pattern:1:" in bad
    assert isinstance(linked_unit("request:pattern", "", ("UD",)), str)  # no request to use


def _atlas_page() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["data"] = "fr_gsd"
    at.run()
    at.switch_page("pages/6_Atlas.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _frame(at: AppTest, column: str) -> object:
    """The page's last table (data frame or HTML table) that has ``column`` (the constructions'
    section is the last)."""
    return [t for t in [d.value for d in at.dataframe] + tables(at) if column in t.columns][-1]


def _api_report(text: str) -> object:
    """The request's rates and scores from evalcore alone (files read by evalcore, not the app)."""

    def named(name: str, path: Path) -> NamedTrees:
        return NamedTrees(name, tuple(evalcore.read(str(path))))

    schemes = tuple(
        Scheme(s, named(g, p), tuple(named(n, q) for t, n, q in PARSES if t == s)) for s, g, p in FILES
    )
    settings = TedevalSettings(skip_mismatched=True)
    config = AtlasConfig(ted_config(settings, ["UD", "SUD"]), True, True)
    _, result = build_atlas(schemes, config)
    return construction_report(
        with_golds_as_parses(schemes),
        result,
        config,
        Coverage(request=where(text)),
        RankingConfig(),
        parses=[n for _, n, _ in PARSES],
        bootstrap=BootstrapSettings(200),
        tests=False,
    )


@pytest.mark.slow  # builds the French atlas
def test_a_pasted_request_shows_its_rate_scores_and_sentences() -> None:
    at = _atlas_page()
    at.radio(key="atlas_units").set_value("request").run()
    box = at.text_input(key="atlas_pattern")
    assert box.proto.max_chars == 1000  # the inspector's pattern box's bound
    box.input(COP).run()
    assert not at.exception, [e.value for e in at.exception]
    report = _api_report(COP)
    rates = _frame(at, "agree %")
    (rate,) = report.rates  # type: ignore[attr-defined]
    row = rates.iloc[0]
    assert (row["construction"], row["words in first"], row["words in second"]) == (
        "pattern",
        rate.words_a,
        0,
    )
    assert (row["words"], row["agree"]) == (rate.words, rate.agree)
    assert rate.words_a > 0 and row["agree %"] == round(100 * rate.share, 1)
    scores = _frame(at, "metric")
    shown = {(r["metric"], r["against"]): r for _, r in scores.iterrows()}
    checked = 0
    for against, metric, cells in report.of("pattern").cells:  # type: ignore[attr-defined]
        if not any(c.n for c in cells):
            assert (metric, against) not in shown
            continue
        for c in cells:
            assert shown[(metric, against)][c.parse] == score_text(c), (metric, against, c.parse)
            checked += 1
    assert checked >= 24  # 3 parses × UAS/LAS/U-TED/L-TED × own gold and UD, U/L-TED × SUD, UD+SUD
    # the sentences: every one covers a word of a gold; the best examples first; each link opens the
    # inspector with the construction and the request
    listed = _frame(at, "group operations")
    keys = list(zip(-listed["group operations"] / listed["words"], listed["words"], strict=True))
    assert len(listed) > 0 and keys == sorted(keys)
    assert listed.iloc[0]["group operations"] >= 1
    link = next(lk for lk in at.get("page_link") if "unit=" in lk.proto.query_string)
    query = dict(parse_qsl(link.proto.query_string))
    assert query["unit"] == "request:pattern" and query["pattern"] == COP
    assert query["sent"] == listed.iloc[0]["sentence"]
    inspector = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in query.items():
        inspector.query_params[k] = v
    inspector.run()
    assert not inspector.exception, [e.value for e in inspector.exception]
    said = [i.value for i in inspector.info if "owned by the construction" in i.value]
    assert said and said[0].startswith(f"◆ {listed.iloc[0]['group operations']} of the ")
    assert inspector.query_params["sent"] == query["sent"]


@pytest.mark.slow
def test_a_malformed_request_is_said_with_its_line() -> None:
    at = _atlas_page()
    at.radio(key="atlas_units").set_value("request").run()
    at.text_input(key="atlas_pattern").input("pattern { X -[cop]-> Y ").run()
    assert not at.exception
    assert any(e.value.startswith("pattern:1: unbalanced '{'") for e in at.error), [e.value for e in at.error]


@pytest.mark.slow
def test_the_shipped_files_rates_are_the_command_lines() -> None:
    """Regression pin: the page's rates with ud.pat / sud.pat are `evalcore atlas --pattern`'s."""
    args = [
        sys.executable,
        "-m",
        "evalcore",
        "atlas",
        "--skip-mismatched",
        "--no-ranking",
        "--format",
        "json",
    ]
    for scheme, _, path in FILES:
        args += ["--scheme", scheme, str(path), *(f"{n}={q}" for s, n, q in PARSES if s == scheme)]
    args += [
        "--pattern",
        f"UD={ROOT / 'assets/patterns/ud.pat'}",
        "--pattern",
        f"SUD={ROOT / 'assets/patterns/sud.pat'}",
    ]
    out = json.loads(subprocess.run(args, capture_output=True, text=True, check=True, cwd=ROOT).stdout)
    at = _atlas_page()
    at.radio(key="atlas_units").set_value("schemes").run()
    assert not at.exception, [e.value for e in at.exception]
    rates = _frame(at, "agree %")
    want = [
        (r["construction"], r["words_a"], r["words_b"], r["words"], r["agree"])
        for r in out["constructions"]["rates"]
    ]
    got = [
        (r["construction"], r["words in first"], r["words in second"], r["words"], r["agree"])
        for _, r in rates.iterrows()
    ]
    assert got == want
    # regression pin: the committed table (docs/results/french_constructions.md; agreement by heads)
    assert ("copula", 277, 293, 354, 38) in got
    at.selectbox(key="atlas_unit:fr_gsd:schemes").set_value("copula").run()
    assert at.query_params["unit"] == "schemes:copula"
    scores = _frame(at, "metric")
    cli = {
        (s["metric"], s["against"]): {c["parse"]: c["value"] for c in s["cells"]}
        for s in out["constructions"]["scores"]
        if s["construction"] == "copula"
    }
    for _, r in scores.iterrows():
        for parse, value in cli[(r["metric"], r["against"])].items():
            assert r[parse].startswith(f"{100 * value:.2f}"), (r["metric"], r["against"], parse)
