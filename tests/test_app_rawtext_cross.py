"""A parse of raw text on the cross-scheme page (docs/app.md, "A parse of raw text on the cross-scheme
page and in the inspector"), under AppTest: uploaded with two golds, its row of scores appears like
any parse's, with the numbers docs/rawtext.md works by hand (its trees and its table of counts are
read from the page, as tests/test_rawtext.py reads them), and its sentences list each gold sentence
with its block's score.

The parse is scored against the first gold uploaded (the page's "Score parses against"), which is
then its own gold: each case uploads its own scheme's gold first, as docs/rawtext.md's cases have
it (split: UD; merged and moved: SUD).
"""

from __future__ import annotations

import pytest
import test_app_pages as pages
from streamlit.testing.v1 import AppTest
from test_rawtext import CASES, ROWS

CROSS = "pages/1_Cross_scheme.py"


def cross_scheme_with(case: str) -> tuple[AppTest, dict[str, str]]:
    """The cross-scheme page after uploading the case's own gold, the other gold and its parse; the
    schemes' names on the page (file names) by the doc's names."""
    (ud, sud, parse), own = CASES[case]
    texts = {"ud": ud, "sud": sud}
    order = [own, "sud" if own == "ud" else "ud"]
    names = {s: f"{s}.conllu" for s in order}
    at = pages.page_opened_on(CROSS, data="upload")
    box = at.file_uploader(key="wb_upload_gold")
    for s in order:
        box.upload(names[s], (texts[s] + "\n").encode("utf-8"))
    box.run()
    at.file_uploader(key="wb_upload_parse").upload(f"{case}-parse.conllu", (parse + "\n").encode()).run()
    pages.no_exception(at)
    return at, names


def shown_table(at: AppTest) -> dict[tuple[str, str], str]:
    """The page's Table 1 (markdown), cell text by (against, metric): one parse column."""
    text = next(m.value for m in at.markdown if m.value.startswith("| against | metric |"))
    out: dict[tuple[str, str], str] = {}
    against = ""
    for line in text.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        against = cells[0].replace("\\", "") or against
        out[(against, cells[1])] = cells[2]
    return out


def against_label(target: str, names: dict[str, str], order: list[str]) -> str:
    """The page's row label of a doc target: ``ud.conllu gold``, or the generalization's."""
    if "+" not in target:
        return f"{names[target]} gold"
    return "+".join(names[s] for s in order) + " (generalized gold)"


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
@pytest.mark.parametrize("case", ["split", "merged", "moved"])
def test_the_raw_parse_has_its_row_with_the_docs_numbers(case: str) -> None:
    at, names = cross_scheme_with(case)
    assert not at.error, [e.value for e in at.error]
    order = list(names)
    table = shown_table(at)
    for row_case, target, _ops, delta, norm, _seg in ROWS:
        if row_case != case:
            continue
        shown = table[(against_label(target, names, order), "U-TED")].strip("*? ")
        assert shown == f"{1 - delta / norm:.4f}", (target, shown)
    assert table[(f"{names[order[0]]} gold", "U-TED")]  # the own gold's row is there
    captions = " ".join(c.value for c in at.caption)
    assert f"*{case}\\-parse\\.conllu*: a parse of the raw text" in captions


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
def test_the_split_case_scores_one_minus_four_fourteenths_against_ud() -> None:
    """docs/rawtext.md, "A split token": δ = 4 over 14 against UD and against UD+SUD, 5 over 15
    against SUD; and the sentences of the generalization's L-TED row hold the one sentence."""
    at, _ = cross_scheme_with("split")
    table = shown_table(at)
    assert table[("ud.conllu gold", "U-TED")].strip("*? ") == f"{1 - 4 / 14:.4f}" == "0.7143"
    assert table[("sud.conllu gold", "U-TED")].strip("*? ") == f"{1 - 5 / 15:.4f}"
    assert table[("ud.conllu+sud.conllu (generalized gold)", "U-TED")].strip("*? ") == "0.7143"
    (sentences,) = [d.value for d in at.dataframe if "sentence" in d.value.columns]
    assert list(sentences["sentence"]) == ["split"]


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
def test_a_moved_boundary_gives_both_gold_sentences_their_blocks_score() -> None:
    """The moved boundary ties both gold sentences into one block: each shows the block's score
    (δ 2 over 19 against UD+SUD, unlabeled; here the labeled row) and names the block."""
    at, _ = cross_scheme_with("moved")
    row = next(s for s in at.selectbox if s.key == "xs_row")
    row.set_value(next(o for o in row.options if "generalized" in o and o.endswith("U-TED"))).run()
    pages.no_exception(at)
    (sentences,) = [d.value for d in at.dataframe if "sentence" in d.value.columns]
    parse = "moved-parse.conllu"
    assert list(sentences[parse]) == [round(1 - 2 / 19, 4)] * 2
    assert set(sentences[f"{parse}: block"]) == {"moved-1 + moved-2"}
