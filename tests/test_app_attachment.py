"""The Attachment & NED page (``pages/4_NED.py``, URL ``/NED``) under AppTest.

Expected numbers come from outside evalcore: the official CoNLL 2018 scorer's
table for French-GSD UD gold against SUD gold
(``tests/fixtures/reference/conll2018/fr_gsd.ud_vs_sud.verbose.txt``, every
one of its 13 rows) and NED.pl's token count for the same pair (10018
tokens, ``tests/fixtures/reference/ned/fr_gsd.ud_vs_sud.txt``): the breakdown
and the confusion table must add up to those.  Every new choice of the page is
in its link: a fresh session opened on the copied link shows the same view,
and a value the page does not offer is reported.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
import test_app_pages as pages
from app_view import tables
from streamlit.testing.v1 import AppTest

from evalcore.metrics.breakdown import Confusion, HeadErrors
from workbench.attachment_view import clicked_group, confusion_frame, head_errors_frame, interval
from workbench.links import PAGE_KEYS, parse_link

ROOT = Path(__file__).resolve().parents[1]
NED = "pages/4_NED.py"
REFERENCE = ROOT / "tests" / "fixtures" / "reference"


def page_opened_on(**query: str) -> AppTest:
    """A fresh session opened on a link to the page (test_app_pages' helper)."""
    return pages.page_opened_on(NED, **query)


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    shown = [df.value for df in at.dataframe] + tables(at)
    return next(df for df in shown if column in df.columns)


def link_of(at: AppTest) -> dict[str, str]:
    return {k: at.query_params[k] for k in at.query_params}


def _scorer_table(name: str) -> list[list[str]]:
    lines = (REFERENCE / "conll2018" / f"{name}.verbose.txt").read_text(encoding="utf-8").splitlines()
    return [[c.strip() for c in line.split("|")] for line in lines[2:]]


@pytest.mark.slow
def test_page_opens_on_one_section_and_makes_only_its_content() -> None:
    """First render: the page opens on "One sentence"; the other sections' tables and
    charts are made only when their tab is chosen (tabs with on_change="rerun")."""
    at = page_opened_on(data="fr_gsd")
    assert at.session_state["ned_section_tab"] == "One sentence"
    assert not any("AligndAcc" in df.value.columns for df in at.dataframe)
    assert not at.get("plotly_chart")
    at.session_state["ned_section_tab"] = "CoNLL 2018 table"  # the user chooses the tab
    at.run()
    pages.no_exception(at)
    assert any("AligndAcc" in df.value.columns for df in at.dataframe)
    assert link_of(at)["section"] == "conll18"


@pytest.mark.slow
def test_page_shows_the_scorers_table_breakdown_and_confusion() -> None:
    at = page_opened_on(data="fr_gsd", section="conll18")
    assert "Attachment & NED" in [t.value for t in at.title]
    # the parity table: the official scorer's 13 rows, each cell as the scorer prints it (two
    # decimals; the aligned accuracy of Tokens, Sentences and Words blank, never "None")
    parity = frame_with(at, "AligndAcc")
    shown = [[str(r.Metric), *r[2:]] for r in parity.itertuples()]
    assert shown == _scorer_table("fr_gsd.ud_vs_sud")
    at = page_opened_on(data="fr_gsd", section="breakdown")
    # the breakdown by relation adds up to NED.pl's 10018 tokens and the scorer's UAS 51.64
    groups = frame_with(at, "gold tokens")
    total = int((REFERENCE / "ned" / "fr_gsd.ud_vs_sud.txt").read_text().split("/")[1].split()[0])
    assert total == 10018 and int(groups["gold tokens"].sum()) == int(groups["system tokens"].sum()) == total
    right_heads = (groups["UAS"] * groups["gold tokens"] / 100).sum()
    assert f"{100 * right_heads / total:.2f}" == "51.64"
    assert (groups["UAS low"] <= groups["UAS"]).all() and (groups["UAS"] <= groups["UAS high"]).all()
    # the head/label error classes: every counted token once; heads right = the scorer's UAS
    errors = frame_with(at, "percent")
    counts = dict(zip(errors["tokens"], errors["count"], strict=True))
    assert sum(counts.values()) == total
    heads_right = counts["head and relation right"] + counts["right head, wrong relation"]
    assert f"{100 * heads_right / total:.2f}" == "51.64"
    # the sentences of the chosen group link to the inspector
    sentences = frame_with(at, "inspect")
    assert len(sentences) and all(u.startswith("./?data=fr_gsd&sent=") for u in sentences["inspect"])
    assert int(groups.loc[groups["group"] == groups["group"].iloc[0], "sentences"].iloc[0]) == len(sentences)


@pytest.mark.slow
def test_link_reopens_the_same_view() -> None:
    """Every new choice (gold, system, nopunct, maxlen, labels, by, sort, group) goes into the
    link; a fresh session opened on it shows the same numbers and the same choices."""
    at = page_opened_on(data="fr_gsd", section="breakdown")
    at.selectbox(key="ned_gold:fr_gsd").select("SUD gold").run()
    at.selectbox(key="ned_system:fr_gsd").select("spaCy SUD parser").run()
    at.toggle(key="ned_no_punct").set_value(True).run()
    at.number_input(key="ned_max_len").set_value(30).run()
    at.radio(key="ned_labels").set_value("full").run()
    at.selectbox(key="ned_by").select("distance").run()
    at.selectbox(key="ned_sort").select("LAS").run()
    at.selectbox(key="ned_group:fr_gsd:distance").select("2").run()
    pages.no_exception(at)
    link = link_of(at)
    assert {k: link[k] for k in ("gold", "system", "nopunct", "maxlen", "labels", "by", "sort", "group")} == {
        "gold": "SUD gold",
        "system": "spaCy SUD parser",
        "nopunct": "yes",
        "maxlen": "30",
        "labels": "full",
        "by": "distance",
        "sort": "LAS",
        "group": "2",
    }
    assert set(link) <= set(PAGE_KEYS[NED])
    shown = {m.label: m.value for m in at.metric}
    fresh = page_opened_on(**link)
    assert {m.label: m.value for m in fresh.metric} == shown
    assert fresh.selectbox(key="ned_system:fr_gsd").value == "spaCy SUD parser"
    assert (
        fresh.selectbox(key="ned_by").value == "distance" and fresh.selectbox(key="ned_sort").value == "LAS"
    )
    assert fresh.selectbox(key="ned_group:fr_gsd:distance").value == "2"
    assert fresh.number_input(key="ned_max_len").value == 30 and fresh.radio(key="ned_labels").value == "full"
    assert frame_with(fresh, "gold tokens").equals(frame_with(at, "gold tokens"))
    # defaults are left out of the link
    plain = link_of(page_opened_on(data="fr_gsd"))
    assert not {"nopunct", "maxlen", "labels", "by", "sort", "group", "section"} & set(plain)


@pytest.mark.slow
def test_unknown_values_in_the_link_are_reported() -> None:
    at = page_opened_on(data="fr_gsd", by="sideways", system="nobody", group="xyz")
    warned = " ".join(w.value for w in at.sidebar.warning).replace("\\", "")
    assert "by: unknown value 'sideways'" in warned
    assert "system: 'nobody' is not offered here" in warned
    assert "group: 'xyz' is not offered here" in warned
    assert at.selectbox(key="ned_by").value == "deprel"  # the page's default, said, not silent


def test_link_keys_of_the_page_parse() -> None:
    link = parse_link({"by": "upos", "sort": "tokens", "maxlen": "12", "nopunct": "yes", "group": "NOUN"})
    assert not link.problems
    assert link.values["by"] == "upos" and link.values["maxlen"] == 12 and link.values["nopunct"] is True
    bad = parse_link({"by": "colour", "sort": "random", "maxlen": "5000"})
    assert len(bad.problems) == 3 and not bad.values


def test_clicked_group_reads_streamlits_selection_event() -> None:
    event = SimpleNamespace(selection=SimpleNamespace(points=[{"x": "nsubj", "y": 80.0, "curve_number": 0}]))
    assert clicked_group(event) == "nsubj"
    assert clicked_group(SimpleNamespace(selection=SimpleNamespace(points=[]))) is None
    assert clicked_group(None) is None


def test_confusion_frame_keeps_every_token() -> None:
    """Hand-made table: 3 relations on each side (gold nsubj 6, obj 3, amod 2; system nsubj 5,
    obj 4, nmod 2), the top 2 kept, the third summed as (other)."""
    conf = Confusion(
        ((("nsubj", "nsubj"), 5), (("nsubj", "obj"), 1), (("obj", "obj"), 3), (("amod", "nmod"), 2)),
        HeadErrors(6, 2, 1, 2),
    )
    table = confusion_frame(conf, top=2)
    assert list(table.index) == ["nsubj", "obj", "(other)"]
    assert list(table.columns) == ["nsubj", "obj", "(other)"]
    assert int(table.to_numpy().sum()) == 11 and int(table.loc["(other)", "(other)"]) == 2
    errors = head_errors_frame(conf)
    assert list(errors["count"]) == [6, 2, 1, 2] and errors["percent"].sum() == pytest.approx(100)


def test_interval_contains_the_point() -> None:
    """The page's one bootstrap call: a ratio of sums, seeded (the same twice)."""
    pairs = [(3, 4), (1, 5), (6, 6), (2, 7), (0, 3)]
    a, b = interval(pairs), interval(pairs)
    assert a == b and a.point == pytest.approx(12 / 25) and a.low <= a.point <= a.high
