"""The sentence inspector under Streamlit's AppTest: links that carry every
setting, gold read as a parse of another gold, the gold-vs-gold order and the filters.

Expected numbers are hand counts written out below (docs/tedeval.md, "Multi-function trees (2012 protocol)"
and "Edit scripts, discount and score": a multi-function tree's
``(label, span)`` pairs, root excluded; SINGLE counts every operation of the symmetric difference)
or, for the French link round trip, computed here with evalcore's ``inspect_sentence``,
independently of the page code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_view import status_table
from streamlit.testing.v1 import AppTest
from test_app_tedeval import markdown_text, no_exception, run_app

from evalcore.conversion import ConversionConfig
from evalcore.formats.conllu import read_conllu
from evalcore.inspection import inspect_sentence

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
FR = ROOT / "assets" / "fr_gsd"
FR_UD = FR / "fr_gsd-ud-test.r2.16.conllu.gz"
FR_SUD = FR / "fr_gsd-sud-test.r2.16.conllu.gz"
FR_SPACY_SUD = FR / "parses" / "fr_gsd-test.spacy-sud.conllu.gz"


def widget(at: AppTest, prefix: str) -> object:
    """The widget whose key starts with ``prefix`` (keys carry the dataset and a digest)."""
    return next(w for w in [*at.selectbox, *at.radio, *at.toggle] if str(w.key).startswith(prefix))


def op_table(at: AppTest) -> list[tuple[str, str]]:
    table = status_table(at)
    return list(zip(table["operation"], table["status"], strict=True))


def sentence_options(at: AppTest) -> list[str]:
    box = next(s for s in at.selectbox if str(s.key).startswith("wb_sent:main:"))
    return [o.split(" · ")[0] for o in box.options]


def sentence_label(at: AppTest) -> str:
    return next(s for s in at.selectbox if str(s.key).startswith("wb_sent:main:")).label


# ---------------------------------------------------------------------------
# links (item 3)


@pytest.mark.slow
def test_link_carries_every_setting_and_reopens_with_the_same_numbers() -> None:
    at = run_app(data="fr_gsd", sent="fr-ud-test_00030")
    at.radio(key="wb_protocol").set_value("2011").run()
    at.radio(key="wb_script").set_value("single").run()
    widget(at, "wb_parse:").set_value("spaCy SUD parser").run()
    at.toggle(key="wb_labeled").set_value(False).run()
    at.toggle(key="wb_side").set_value(False).run()
    no_exception(at)
    link = {k: at.query_params[k] for k in at.query_params}
    assert link["protocol"] == "2011" and link["target"] == "single" and link["parse"] == "spaCy SUD parser"
    assert link["labeled"] == "no" and link["side"] == "no" and link["sent"] == "fr-ud-test_00030"
    before = markdown_text(at)
    # the numbers on screen, computed here with evalcore (2011 protocol; the SUD parse's own gold SUD)
    ud, sud, parse = (list(read_conllu(f))[29] for f in (FR_UD, FR_SUD, FR_SPACY_SUD))
    view = inspect_sentence(
        [("UD", ud), ("SUD", sud)], [("spaCy SUD parser", "SUD", parse)], ConversionConfig(protocol="2011")
    ).parses[0]
    single = view.single[0]  # unlabeled, against its single gold: the script drawn
    assert "U-TED of *spaCy SUD parser* against *gold SUD* (unlabeled, no discount)" in before
    assert f"score 1 − {single.delta}/{single.norm} = **{single.score:.4f}**" in before
    # a script with something in it, and a number the 2012 protocol would not give
    two012 = inspect_sentence([("UD", ud), ("SUD", sud)], [("p", "SUD", parse)]).parses[0].single[0]
    assert single.delta > 0 and f"{two012.score:.4f}" != f"{single.score:.4f}"
    # a fresh session opened on the link: the same settings, the same text
    again = run_app(**link)
    no_exception(again)
    assert again.radio(key="wb_protocol").value == "2011"
    assert again.radio(key="wb_script").value == "single"
    assert widget(again, "wb_parse:").value == "spaCy SUD parser"
    assert again.toggle(key="wb_labeled").value is False
    assert again.toggle(key="wb_side").value is False
    assert markdown_text(again) == before
    assert {k: again.query_params[k] for k in again.query_params} == link


GOLD_ONE = (
    b"# sent_id = u1\n1\tIt\tit\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tworks\twork\tVERB\t_\t_\t0\troot\t_\t_\n\n"
)


def test_defaults_stay_out_of_the_link() -> None:
    at = run_app(data="fr_gsd")
    no_exception(at)
    assert set(at.query_params) == {"data", "sent"}


def test_unknown_sentence_is_said_not_replaced_silently() -> None:
    at = run_app(data="fr_gsd", sent="fr-ud-test_99999")
    no_exception(at)
    warnings = " ".join(w.value for w in at.warning)
    assert "The link asks for sentence **fr\\-ud\\-test\\_99999**" in warnings
    assert "416 sentences" in warnings
    assert "an id such as `fr-ud-test_00001`" in warnings  # in a code span: no escaping backslashes
    at = run_app(data="fr_gsd", sent="417")
    assert "The link asks for sentence **417**" in " ".join(w.value for w in at.warning)


def test_choosing_your_files_asks_for_no_sentence_of_the_dataset_before() -> None:
    """The sentence in the link was the built-in data's, written by the app: choosing "Your files"
    (then uploading) shows the upload's first sentence without a warning about the old one."""
    at = run_app(data="en_ewt")
    no_exception(at)
    assert "sent" in at.query_params
    at.selectbox(key="wb_dataset").select("upload").run()
    no_exception(at)
    at.file_uploader(key="wb_upload_gold").upload("g.conllu", GOLD_ONE).run()
    no_exception(at)
    assert not [w.value for w in at.warning if "asks for sentence" in w.value]


def test_unknown_values_are_said() -> None:
    at = run_app(data="fr_gsd", parse="no such parser", label="zzz", order="best", protocol="2013")
    no_exception(at)
    shown = " ".join(w.value for w in at.warning).replace("\\", "")  # markdown escapes taken out
    assert "parse: 'no such parser' is not offered here" in shown
    assert "label: 'zzz' is not offered here (one of: acl, acl:relcl," in shown and "in all)" in shown
    assert "order: unknown value 'best'" in shown  # refused by the parser itself
    assert "protocol: unknown value '2013'" in shown
    # and the defaults are used
    assert at.radio(key="wb_protocol").value == "2012"
    assert widget(at, "wb_parse:").value == "spaCy UD parser"


# ---------------------------------------------------------------------------
# gold vs gold (item 4) and filters (item 5) on golds written out here

# docs/tedeval.md, "Edit scripts, discount and score"'s two golds of "would have worked" (s1), and three
# 4-word sentences:
# s2 the same in both; s3 "well" is advmod in a, obl in b; s4 "cats" is obj of "saw" in a,
# nmod of "dog" in b.
GOLD_A = """# sent_id = s1
# text = would have worked
1\twould\t_\tAUX\t_\t_\t0\troot\t_\t_
2\thave\t_\tAUX\t_\t_\t1\tvg\t_\t_
3\tworked\t_\tVERB\t_\t_\t2\tvg\t_\t_

# sent_id = s2
# text = the cat sat down
1\tthe\t_\tDET\t_\t_\t2\tdet\t_\t_
2\tcat\t_\tNOUN\t_\t_\t3\tnsubj\t_\t_
3\tsat\t_\tVERB\t_\t_\t0\troot\t_\t_
4\tdown\t_\tADV\t_\t_\t3\tadvmod\t_\t_

# sent_id = s3
# text = John sleeps very well
1\tJohn\t_\tPROPN\t_\t_\t2\tnsubj\t_\t_
2\tsleeps\t_\tVERB\t_\t_\t0\troot\t_\t_
3\tvery\t_\tADV\t_\t_\t4\tadvmod\t_\t_
4\twell\t_\tADV\t_\t_\t2\tadvmod\t_\t_

# sent_id = s4
# text = the dog saw cats
1\tthe\t_\tDET\t_\t_\t2\tdet\t_\t_
2\tdog\t_\tNOUN\t_\t_\t3\tnsubj\t_\t_
3\tsaw\t_\tVERB\t_\t_\t0\troot\t_\t_
4\tcats\t_\tNOUN\t_\t_\t3\tobj\t_\t_

"""
GOLD_B = (
    GOLD_A.replace(
        "1\twould\t_\tAUX\t_\t_\t0\troot\t_\t_\n2\thave\t_\tAUX\t_\t_\t1\tvg\t_\t_\n3\tworked\t_\tVERB\t_\t_\t2\tvg",
        "1\twould\t_\tAUX\t_\t_\t2\tvg\t_\t_\n2\thave\t_\tAUX\t_\t_\t3\tvg\t_\t_\n3\tworked\t_\tVERB\t_\t_\t0\troot",
    )
    .replace("4\twell\t_\tADV\t_\t_\t2\tadvmod", "4\twell\t_\tADV\t_\t_\t2\tobl")
    .replace("4\tcats\t_\tNOUN\t_\t_\t3\tobj", "4\tcats\t_\tNOUN\t_\t_\t2\tnmod")
)
A_AS_PARSE = "a.conllu as a parse, against b.conllu"


def uploaded() -> AppTest:
    assert GOLD_B.count("\tvg\t") == 2 and "obl" in GOLD_B and "nmod" in GOLD_B  # the replacements took
    at = run_app(data="upload")
    at.file_uploader(key="wb_upload_gold").set_value(
        [("a.conllu", GOLD_A.encode(), "text/plain"), ("b.conllu", GOLD_B.encode(), "text/plain")]
    ).run()
    no_exception(at)
    return at


@pytest.mark.slow
def test_gold_as_parse_against_the_other_gold_and_the_generalization() -> None:
    at = uploaded()
    assert widget(at, "wb_parse:").value == A_AS_PARSE  # the first choice when there is no parse
    assert "whoever opens it must upload the same files" in " ".join(i.value for i in at.info)
    at.radio(key="wb_script").set_value("single").run()
    no_exception(at)
    # s1, hand count (docs/tedeval.md, "Edit scripts, discount and score"): a = (hd,{1}) (vg,{2,3}) (hd,{2})
    # (vg,{3}); b = (vg,{1,2}) (vg,{1})
    # (hd,{2}) (hd,{3}); single: 3 deletions + 3 insertions, all counted; 1 - 6/(4+4) = 0.25
    rows = op_table(at)
    assert len(rows) == 6 and {s for _, s in rows} == {"counted"}
    assert sorted(op.split()[0] for op, _ in rows) == ["del"] * 3 + ["ins"] * 3
    text = markdown_text(at)
    assert "L-TED of *a\\.conllu as a parse, against b\\.conllu* against *gold " in text
    assert "6 operations: 6 counted, 0 discounted · δ = 6 · |p| + |G| = 8 · score 1 − 6/8 = **0.2500**" in (
        text
    )
    # unlabeled: spans {2,3} (a) and {1,2} (b) differ: 1 - 2/8 = 0.75
    at.toggle(key="wb_labeled").set_value(False).run()
    assert "2 operations: 2 counted, 0 discounted · δ = 2 · |p| + |G| = 8 · score 1 − 2/8 = **0.7500**" in (
        markdown_text(at)
    )
    # against the generalization G = {(hd,{2})}, discounted with a itself: the 3 deletions of a's
    # own script are all forgiven, delta = 0
    at.toggle(key="wb_labeled").set_value(True).run()
    at.radio(key="wb_script").set_value("general").run()
    no_exception(at)
    assert "3 operations: 0 counted, 3 discounted · δ = 0 · |p| + |G| = 5" in markdown_text(at)
    assert {s for _, s in op_table(at)} == {"discounted"}


def test_gold_vs_gold_order_largest_discrepancy_first() -> None:
    at = uploaded()
    at.selectbox(key="wb_order:main").select("gold-gap").run()
    no_exception(at)
    assert at.query_params["order"] == "gold-gap"
    # L-TED of a read as a parse of b (hand counts): s1 0.25; s4 1 - 4/10 = 0.6 (del nsubj{1,2},
    # obj{4}; ins nsubj{1,2,4}, nmod{4}); s3 1 - 2/10 = 0.8 (advmod{3,4} vs obl{3,4}); s2 1.0.
    # A worst-first order hides sentences under 4 words by default: s1 is left out.
    assert sentence_options(at) == ["s4", "s3", "s2"]
    assert sentence_label(at) == "Sentence (3 of 4)"
    assert "3 of 4 sentences match (at least 4 words)" in " ".join(c.value for c in at.caption)
    assert at.query_params["sent"] == "s4"  # a new order starts at its top
    at.number_input(key="wb_minwords:main").set_value(1).run()
    assert sentence_options(at) == ["s1", "s4", "s3", "s2"]
    assert at.query_params["minwords"] == "1"


def open_filters(at: AppTest) -> None:
    """The user opens the Filters box (closed, with no filter set, its boxes are not made)."""
    (key,) = [k for k in at.session_state if str(k).startswith("wb_filters_open:")]
    at.session_state[key] = True
    at.run()


def test_closed_filters_make_no_boxes_until_opened() -> None:
    """With no filter set, the Filters box is closed and its four boxes are not
    made; opened, they are there and a filter set keeps the box open with its count."""
    at = uploaded()
    assert not [w for w in [*at.selectbox] if str(w.key).startswith("wb_filter_")]
    open_filters(at)
    no_exception(at)
    assert len([w for w in at.selectbox if str(w.key).startswith("wb_filter_")]) == 4
    widget(at, "wb_filter_opstatus:").set_value("counted").run()
    assert "Filters (1 active)" in [e.label for e in at.expander]
    assert widget(at, "wb_filter_opstatus:").value == "counted"


def _filtered(**filters: str) -> AppTest:
    at = uploaded()
    at.radio(key="wb_script").set_value("single").run()
    open_filters(at)
    for name, value in filters.items():
        if name == "find":
            at.text_input(key="wb_find:main").set_value(value).run()
        else:
            widget(at, f"wb_filter_{name}:").set_value(value).run()
    no_exception(at)
    return at


@pytest.mark.slow
def test_filters_by_label_operation_and_text_with_counts() -> None:
    # relation label in any tree: obl only in b's s3
    at = _filtered(label="obl")
    assert sentence_options(at) == ["s3"] and sentence_label(at) == "Sentence (1 of 4)"
    assert at.query_params["label"] == "obl"
    # an operation on nmod (a to b, single): only s4's insertion of nmod{4}
    at = _filtered(oplabel="nmod")
    assert sentence_options(at) == ["s4"]
    # an insertion, counted: every sentence where the golds differ
    at = _filtered(opstatus="counted", opkind="ins")
    assert sentence_options(at) == ["s1", "s3", "s4"] and sentence_label(at) == "Sentence (3 of 4)"
    assert at.query_params["opstatus"] == "counted" and at.query_params["opkind"] == "ins"
    # search: "cat" is in s2 ("cat") and s4 ("cats"); combined with a counted insertion: s4
    at = _filtered(find="cat")
    assert sentence_options(at) == ["s2", "s4"]
    at = _filtered(find="cat", opstatus="counted")
    assert sentence_options(at) == ["s4"] and sentence_label(at) == "Sentence (1 of 4)"
    caption = " ".join(c.value for c in at.caption)
    assert "1 of 4 sentences match (the filters, “cat”)" in caption, caption


def test_filter_counted_against_the_generalization_finds_nothing() -> None:
    """A gold read as a parse against the generalization it takes part in: every operation is
    discounted (docs/tedeval.md, "Edit scripts, discount and score"), so no sentence has a counted one; the
    picker says so."""
    at = uploaded()
    open_filters(at)
    widget(at, "wb_filter_opstatus:").set_value("counted").run()
    no_exception(at)
    assert sentence_label(at) == "Sentence (0 of 4)"
    assert "No sentence matches" in " ".join(w.value for w in at.warning)
    widget(at, "wb_filter_opstatus:").set_value("discounted").run()
    assert sentence_options(at) == ["s1", "s3", "s4"]


@pytest.mark.slow
def test_filters_from_a_link_are_shown_active() -> None:
    at = run_app(data="fr_gsd", label="iobj", opkind="ins", minwords="10", order="worst")
    no_exception(at)
    assert "Filters (2 active)" in [e.label for e in at.expander]
    assert widget(at, "wb_filter_label:").value == "iobj"
    assert at.number_input(key="wb_minwords:main").value == 10
    assert at.selectbox(key="wb_order:main").value == "worst"
    assert {k: at.query_params[k] for k in ("label", "opkind", "minwords", "order")} == {
        "label": "iobj",
        "opkind": "ins",
        "minwords": "10",
        "order": "worst",
    }
