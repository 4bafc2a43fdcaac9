"""The Atlas page (pages/6_Atlas.py) in Streamlit's AppTest, on the built-in French data: the first
view groups every operation against UD+SUD by construction; a group lists its sentences, each a link
to the inspector.  The numbers are evalcore.atlas's (tests/test_atlas.py checks them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from evalcore.atlas import build_atlas
from evalcore.families.tedeval import TedevalSettings
from workbench.atlas_links import GroupRef
from workbench.atlas_view import atlas_schemes, group_frame, group_sentences, sentence_frame, targets
from workbench.cache import load_builtin
from workbench.datasets import builtin

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
TIMEOUT = 180  # the atlas of 416 sentences, 5 analyses, on a shared machine


def _page(**query: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    at.switch_page("pages/6_Atlas.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.slow  # builds the French atlas
def test_first_view_answers_which_conventions_separate_ud_from_sud() -> None:
    at = _page(data="fr_gsd")
    assert at.title[0].value == "Discrepancy atlas"
    target = at.selectbox(key="atlas_target:fr_gsd")
    assert target.value == "UD+SUD"
    table = at.dataframe[0].value
    # the SUD gold read as a parse: every operation against UD+SUD discounted, adposition first
    sud = table[table["parse"] == "gold:SUD"]
    assert sud.iloc[0]["group"] == "adposition" and (sud["counted"] == 0).all()
    assert sud.iloc[0]["discounted"] == 1115  # regression pin: evalcore atlas's own count
    # the chart is there
    assert len(at.get("plotly_chart")) == 1


@pytest.mark.slow
def test_a_group_lists_its_sentences_with_links_to_the_inspector() -> None:
    at = _page(data="fr_gsd")
    at.selectbox(key="atlas_parse:fr_gsd").set_value("spaCy SUD parser").run()
    at.selectbox(key="atlas_group:fr_gsd:construction").set_value("copula").run()
    assert not at.exception
    sentences = at.dataframe[1].value
    assert len(sentences) > 0
    # the best examples first: the most of the group's operations per word, then the shortest
    keys = list(zip(-sentences["group operations"] / sentences["words"], sentences["words"], strict=True))
    assert keys == sorted(keys) and (sentences["group operations"] >= 1).all()
    assert (sentences["counted"] <= sentences["group operations"]).all()
    sid = str(sentences.iloc[0]["sentence"])
    links = at.get("page_link")
    # the link carries the cell's view and the group (tests/test_atlas_links.py follows it)
    assert links and links[0].proto.query_string == (
        f"data=fr_gsd&sent={sid}&parse=spaCy+SUD+parser&target=general&labeled=no&protocol=2012"
        "&group=construction%3Acopula"
    )
    # following the link lands in the inspector at that sentence
    inspector = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    inspector.query_params["data"] = "fr_gsd"
    inspector.query_params["sent"] = sid
    inspector.run()
    assert not inspector.exception
    assert inspector.query_params["sent"] == sid


def test_view_functions_on_a_small_dataset() -> None:
    """The view's tables without streamlit: a target list with the generalization first, one row per
    (parse, group), and the sentences of a group."""
    loaded = load_builtin(builtin("fr_gsd"))
    schemes = atlas_schemes(loaded)
    assert [p.name for s in schemes for p in s.parses] == [
        "spaCy UD parser",
        "spaCy UD parser, seed 1",
        "spaCy SUD parser",
    ]  # the stand-in (the SUD gold read as a parse of UD) is left out: the atlas adds every gold itself
    small = [s.__class__(s.name, s.gold.__class__(s.gold.name, s.gold.trees[:5]), ()) for s in schemes]
    atlas, _ = build_atlas(small)
    assert targets(atlas) == ["UD+SUD", "UD", "SUD"]
    table = group_frame(atlas, "UD", False, "construction")
    assert set(table["parse"]) == {"gold:SUD"}  # a gold against itself is left out
    group = table.iloc[0]["group"]
    ref = GroupRef("construction", str(group))
    sentences = sentence_frame(
        group_sentences(loaded, atlas, "gold:SUD", "UD", False, ref, TedevalSettings())
    )
    assert len(sentences) == table.iloc[0]["sentences"]


def _opened(**query: str) -> AppTest:
    """The Atlas page opened by a link (set after the switch: the inspector, which AppTest runs
    first, would take the keys it shares with the page, ``parse``, ``protocol``, ``group``)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    at.switch_page("pages/6_Atlas.py")
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.slow
def test_the_atlas_view_is_in_its_link_and_a_link_reopens_it() -> None:
    """Every choice of the page is in the URL (defaults left out); a link with them reopens the same
    view; ``group=GROUPING:NAME`` chooses the grouping too; a value the page does not offer is said."""
    at = _page(data="fr_gsd")
    at.selectbox(key="atlas_target:fr_gsd").set_value("UD").run()
    at.radio(key="atlas_scripts").set_value("labeled").run()
    at.selectbox(key="atlas_parse:fr_gsd").set_value("spaCy SUD parser").run()
    at.selectbox(key="atlas_group:fr_gsd:construction").set_value("copula").run()
    assert not at.exception
    # (``sent`` is the inspector's: AppTest ran it first and keeps the URL across switch_page)
    link = {k: at.query_params[k] for k in at.query_params if k != "sent"}
    assert link == {
        "data": "fr_gsd",
        "against": "UD",
        "scripts": "labeled",
        "parse": "spaCy SUD parser",
        "group": "construction:copula",
    }
    again = _opened(**link)
    assert again.selectbox(key="atlas_target:fr_gsd").value == "UD"
    assert again.radio(key="atlas_scripts").value == "labeled"
    assert again.selectbox(key="atlas_parse:fr_gsd").value == "spaCy SUD parser"
    assert again.selectbox(key="atlas_group:fr_gsd:construction").value == "copula"
    assert again.dataframe[1].value.equals(at.dataframe[1].value)  # the same sentences
    # the group's grouping wins over the default one
    other = _opened(data="fr_gsd", scripts="labeled", group="operation:del case")
    assert other.selectbox(key="atlas_grouping").value == "operation"
    assert other.selectbox(key="atlas_group:fr_gsd:operation").value == "del case"
    # unlabeled scripts have no label: the page says the parse has no such group
    unlabeled = _opened(data="fr_gsd", group="operation:del case")
    said = " ".join(w.value for w in unlabeled.warning).replace("\\", "")
    assert "has no unlabeled operation in 'del case'" in said
    # values the page does not offer are said in the sidebar
    bad = _opened(data="fr_gsd", against="XX", group="construction:copulas")
    said = " ".join(w.value for w in bad.warning).replace("\\", "")
    assert "against: 'XX' is not offered here" in said and "no construction group 'copulas'" in said
    assert bad.selectbox(key="atlas_target:fr_gsd").value == "UD+SUD"
