"""Per-scheme label maps on the cross-scheme page: chosen per scheme (shipped or
uploaded), in the page's link, applied to the table, and the labels they merged listed."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from workbench.labelmaps import choice_text, merged_labels, parse_choice, scheme_maps, shipped_maps

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
CROSS = "pages/1_Cross_scheme.py"
TIMEOUT = 120
EWT = ROOT / "assets" / "en_ewt"
V1_AS_PARSE = "UD v1 gold, read as a parse of the UD v2 gold"
SPACY = "spaCy en_core_web_sm 3.8 (ClearNLP labels)"


def _deprels(path: Path) -> Counter[str]:
    """Column 8 of every word line, counted without evalcore (multiword ranges and empty nodes out)."""
    counts: Counter[str] = Counter()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                counts[cols[7]] += 1
    return counts


def _page(**query: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["xs_shuffles"] = 0
    at.run()
    at.switch_page(CROSS)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _l_ted(at: AppTest, parse: str) -> float:
    """The L-TED cell of ``parse`` against the UD v2 gold, read from the page's table."""
    lines = at.markdown[0].value.splitlines()
    heads = [h.strip() for h in lines[0].strip("|").split("|")]
    col = next(k for k, h in enumerate(heads) if h.replace("\\", "").startswith(parse))  # Markdown escapes
    against = ""
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        against = cells[0] or against
        if against == "UD v2 gold" and cells[1] == "L-TED":
            return float(cells[col].strip("*? "))
    raise AssertionError("no L-TED row against the UD v2 gold")


def test_choices_and_composition() -> None:
    maps = dict(shipped_maps())
    assert {"ud1-ud2.en_ewt", "clearnlp-ud2.en_ewt", "ud-sud.fr_gsd"} <= set(maps)
    assert parse_choice(choice_text("UD v2", "ud1-ud2.en_ewt")) == ("UD v2", "ud1-ud2.en_ewt")
    assert parse_choice("a:b:c") == ("a:b", "c")  # a scheme name may hold ':', a map name never
    chosen = scheme_maps(["UD v2:ud1-ud2.en_ewt", "UD v2:clearnlp-ud2.en_ewt", "x:nothing"], maps)
    assert chosen.schemes == ("UD v2",)
    assert chosen.get("UD v2").apply("dobj") == "obj" and chosen.get("UD v2").apply("poss") == "nmod:poss"


@pytest.mark.slow
def test_cross_scheme_page_applies_shipped_maps_and_lists_what_they_merged() -> None:
    """The UD v1 gold read as a parse belongs to scheme UD v1 (its own gold), the spaCy parse to UD v2:
    the UD v1 → v2 map goes on UD v1, the ClearNLP → UD map on UD v2."""
    plain = _page(data="en_ewt")
    before = {p: _l_ted(plain, p) for p in (V1_AS_PARSE, SPACY)}
    assert plain.multiselect(key="xs_labelmaps").value == []
    choice = ["UD v1:ud1-ud2.en_ewt", "UD v2:clearnlp-ud2.en_ewt"]
    plain.multiselect(key="xs_labelmaps").set_value(choice).run()
    assert not plain.exception, [e.value for e in plain.exception]
    assert plain.query_params["labelmaps"] == ",".join(choice)
    after = {p: _l_ted(plain, p) for p in (V1_AS_PARSE, SPACY)}
    assert after[V1_AS_PARSE] > before[V1_AS_PARSE]  # v1's names as v2 writes them: fewer relabels
    assert after[SPACY] > before[SPACY]
    merged = next(df.value for df in plain.dataframe if "OLD → NEW" in df.value.columns)
    rows = {(r["scheme"], r["OLD → NEW"]): r["occurrences"] for r in merged.to_dict("records")}
    spacy = _deprels(EWT / "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz")
    v1 = _deprels(EWT / "en-ud-test.r1.4.conllu.gz")
    # UD v1's files: its gold and the same gold read as a parse; UD v2's: its gold (no ClearNLP
    # names) and the spaCy parse
    assert rows[("UD v1", "dobj → obj")] == 2 * v1["dobj"]
    assert rows[("UD v1", "nsubjpass → nsubj:pass")] == 2 * v1["nsubjpass"]
    assert rows[("UD v2", "dobj → obj")] == spacy["dobj"]
    assert rows[("UD v2", "poss → nmod:poss")] == spacy["poss"]

    # the link reopens the same choice and the same table
    fresh = _page(data="en_ewt", labelmaps=",".join(choice))
    assert fresh.multiselect(key="xs_labelmaps").value == choice
    assert {p: _l_ted(fresh, p) for p in (V1_AS_PARSE, SPACY)} == after


@pytest.mark.slow
def test_a_map_the_page_does_not_offer_is_reported(tmp_path: Path) -> None:
    at = _page(data="en_ewt", labelmaps="UD v2:no-such-map")
    shown = " ".join(w.value for w in at.sidebar.warning).replace("\\", "")
    assert "labelmaps: 'UD v2:no-such-map' is not offered here" in shown
    assert at.multiselect(key="xs_labelmaps").value == []


def test_merged_labels_counts_by_hand() -> None:
    """Two files of one scheme: gold labels a, b; parse labels a, a, c (hand count: a 3, c 1)."""
    from ec_support import conllu_sentence

    from evalcore.conversion import LabelMap, SchemeLabelMaps
    from evalcore.experiment import NamedTrees, Scheme
    from evalcore.formats.conllu import read_conllu

    def trees(deprels: list[str]):  # type: ignore[no-untyped-def]
        heads = [0, *([1] * (len(deprels) - 1))]
        text = conllu_sentence(heads, forms=[f"w{k}" for k in range(len(deprels))], deprels=deprels)
        return tuple(read_conllu(text.encode(), name="t.conllu"))

    s = Scheme(
        "s", NamedTrees("g", trees(["root", "a", "b"])), (NamedTrees("p", trees(["root", "a", "a", "c"])),)
    )
    maps = SchemeLabelMaps.of({"s": LabelMap((("a", "x"), ("c", "x"), ("z", "x"), ("a", "y")))})
    got = [(m.scheme, m.old, m.new, m.occurrences) for m in merged_labels([s], maps)]
    assert got == [("s", "a", "x", 3), ("s", "c", "x", 1)]  # z never occurs; a's second pair is dead


@pytest.mark.slow
def test_inspector_shows_the_relabel_a_map_neutralized_with_its_entry() -> None:
    """EWT test sentence 13, 'Click here To view it.': UD v1 labels 'it' dobj, UD v2 obj, and no
    other label differs (read in the two files).  With the UD v1 → v2 map on scheme UD v1 (chosen on
    the cross-scheme page), the inspector lists that one relabel with the entry dobj=obj."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["xs_labelmaps"] = ["UD v1:ud1-ud2.en_ewt"]
    for k, v in {"data": "en_ewt", "sent": "13", "parse": V1_AS_PARSE, "target": "single"}.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    table = next(df.value for df in at.dataframe if "map entry" in df.value.columns)
    assert table.to_dict("records") == [
        {"words": "{5} it", "parse label": "dobj", "gold label": "obj", "map entry": "UD v1: dobj=obj"}
    ]
    assert any("ud1-ud2.en_ewt" in c.value.replace("\\", "") for c in at.sidebar.caption)  # Markdown escapes

    plain = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in {"data": "en_ewt", "sent": "13", "parse": V1_AS_PARSE, "target": "single"}.items():
        plain.query_params[k] = v
    plain.run()
    assert not plain.exception
    assert not any("map entry" in df.value.columns for df in plain.dataframe)  # no map, no panel
