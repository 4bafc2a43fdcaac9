"""A parse of raw text in the inspector (docs/app.md, "A parse of raw text on the cross-scheme page and in
the inspector"), under AppTest: for a gold sentence, the block's edit script against the target chosen
in the sidebar -- its summary, its function trees with the operations from segmentation marked ✂ and
teal, and its table with the origin of every operation.  The expected counts are docs/rawtext.md's
table (unlabeled), read from the page as tests/test_rawtext.py reads it.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import test_app_pages as pages
from app_view import drawings, tables
from streamlit.testing.v1 import AppTest
from test_rawtext import CASES, ROWS

ROOT = Path(__file__).resolve().parents[1]


def inspector_with(case: str, sent: str, **query: str) -> AppTest:
    """The inspector at ``sent`` after uploading the case's own gold first (the parse is scored
    against it), the other gold and the parse."""
    (ud, sud, parse), own = CASES[case]
    texts = {"ud": ud, "sud": sud}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=pages.TIMEOUT)
    for k, v in {"data": "upload", "sent": sent, **query}.items():
        at.query_params[k] = v
    at.run()
    box = at.file_uploader(key="wb_upload_gold")
    for s in (own, "sud" if own == "ud" else "ud"):
        box.upload(f"{s}.conllu", (texts[s] + "\n").encode("utf-8"))
    box.run()
    at.file_uploader(key="wb_upload_parse").upload(f"{case}-parse.conllu", (parse + "\n").encode()).run()
    pages.no_exception(at)
    return at


def doc_row(case: str, target: str) -> tuple[int, int, int, int]:
    """(operations, δ, normalizer, from segmentation) of docs/rawtext.md's table."""
    return next((ops, d, n, seg) for c, t, ops, d, n, seg in ROWS if (c, t) == (case, target))


def script_table(at: AppTest) -> pd.DataFrame:
    return next(t for t in tables(at) if "origin" in t.columns)


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
@pytest.mark.parametrize("sent", ["moved-1", "moved-2"])
def test_either_gold_sentence_of_the_moved_boundary_shows_the_blocks_script(sent: str) -> None:
    at = inspector_with("moved", sent, labeled="no")
    ops, delta, norm, seg = doc_row("moved", "ud+sud")
    summary = next(m.value for m in at.markdown if m.value.startswith("U-TED of the block"))
    counts = f"{ops} operations: {delta} counted, {ops - delta} discounted, {seg} from segmentation (✂)"
    assert counts in summary
    assert f"δ = {delta} · |p| + |G| = {norm}" in summary
    block = next(m.value for m in at.markdown if m.value.startswith("**The block of this sentence**"))
    assert "`moved\\-1`, `moved\\-2`" in block and "`moved\\-parse\\-1`, `moved\\-parse\\-2`" in block
    table = script_table(at)
    assert len(table) == ops
    assert sum(table["origin"].str.startswith("✂ segmentation")) == seg
    assert sum(table["origin"] == "attachment") == ops - seg
    assert set(table.loc[table["status"] == "discounted", "origin"]) == {"attachment"}  # {mangé une pomme}
    # the function trees: two parse sentences (deletions) and two gold sentences (insertions);
    # the two operations from segmentation (the full stop's) are drawn teal with ✂
    svgs = [d for d in drawings(at) if "deletions" in d or "insertions" in d]
    assert len(svgs) == 4
    assert sum(d.count('class="node segmentation"') for d in svgs) == seg


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
def test_the_single_gold_target_and_the_merged_token() -> None:
    """Against its own gold alone (SUD), the merged *au*: every operation from segmentation."""
    at = inspector_with("merged", "merged", labeled="no", target="single")
    ops, delta, norm, seg = doc_row("merged", "sud")
    summary = next(m.value for m in at.markdown if m.value.startswith("U-TED of the block"))
    assert "against *gold sud\\.conllu*" in summary and "no discount" in summary
    assert f"δ = {delta} · |p| + |G| = {norm}" in summary
    table = script_table(at)
    assert len(table) == ops and sum(table["origin"].str.startswith("✂")) == seg == ops


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
def test_the_2011_protocol_is_said_to_be_undefined_for_a_parse_of_raw_text() -> None:
    at = inspector_with("split", "split", protocol="2011")
    assert any("2012 protocol only" in i.value for i in at.info)
    assert not any("origin" in t.columns for t in tables(at))


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
def test_the_score_strip_gives_the_blocks_tedeval() -> None:
    """Under the sentence's UAS and LAS F1, its block's U-TED single (against SUD, its own gold) and
    multiple (against the generalization): docs/rawtext.md's δ over the normalizer."""
    at = inspector_with("moved", "moved-2")
    _, d_single, n_single, _ = doc_row("moved", "sud")
    _, d_multiple, n_multiple, _ = doc_row("moved", "ud+sud")
    (strip,) = [m.value for m in at.markdown if "TedEval of its block" in m.value]
    single, multiple = strip.split(" — multiple")
    assert f"single: U-TED **{1 - d_single / n_single:.4f}**" in single
    assert ", against *sud\\.conllu\\+ud\\.conllu* (discounted with *sud\\.conllu*): U-TED " in multiple
    assert f"U-TED **{1 - d_multiple / n_multiple:.4f}**" in multiple


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
def test_a_parse_of_raw_text_with_the_golds_sentence_count_is_not_called_not_compared() -> None:
    """The 'merged' parse has the gold's one sentence but other words: it is a parse of the raw text,
    drawn and scored by characters under the gold, not a parse left "not compared" (the warning the
    inspector gave before, with its word difference)."""
    at = inspector_with("merged", "merged", labeled="no")
    assert not [w.value for w in at.warning if "not compared" in w.value]
    aligned = [m.value for m in at.markdown if m.value.startswith("#### merged\\-parse\\.conllu, aligned")]
    assert aligned == ["#### merged\\-parse\\.conllu, aligned by characters with sud\\.conllu"]


def _listed(at: AppTest) -> str:
    return next(s for s in at.selectbox if str(s.key).startswith("wb_sent:main:")).label


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
@pytest.mark.parametrize(
    ("filters", "listed"),
    [
        ({"opstatus": "discounted"}, 2),  # docs/rawtext.md: {mangé une pomme}, discounted against UD+SUD
        ({"opstatus": "discounted", "opkind": "del"}, 2),  # ... and a deletion
        ({"opstatus": "discounted", "opkind": "ins"}, 0),  # no insertion is discounted
        ({"opstatus": "discounted", "target": "single"}, 0),  # against its own gold, nothing is
        ({"opstatus": "counted", "target": "single"}, 2),
    ],
)
def test_the_operation_filters_read_the_blocks_script(filters: dict[str, str], listed: int) -> None:
    """The sentence list's operation filters on a parse of the raw text: a gold sentence is kept when
    its block's script has such an operation (both sentences of the 'moved' block share it)."""
    at = inspector_with("moved", "moved-1", labeled="no", **filters)
    assert _listed(at) == f"Sentence ({listed} of 2)"


@pytest.mark.slow  # AppTest sessions: over 1 s of CPU
def test_a_parse_of_raw_text_against_another_gold() -> None:
    """The SUD 'moved' parse chosen against the UD gold (as any parse can be): its block's script
    against that gold alone, with docs/rawtext.md's counts for (moved, ud)."""
    at = inspector_with("moved", "moved-1", labeled="no", target="single")
    box = next(s for s in at.selectbox if str(s.key).startswith("wb_parse:"))
    assert "moved-parse.conllu, against ud.conllu" in box.options
    box.set_value("moved-parse.conllu, against ud.conllu").run()
    pages.no_exception(at)
    ops, delta, norm, seg = doc_row("moved", "ud")
    summary = next(m.value for m in at.markdown if m.value.startswith("U-TED of the block"))
    assert "against *gold ud\\.conllu*" in summary and "no discount" in summary
    assert f"δ = {delta} · |p| + |G| = {norm}" in summary
    table = script_table(at)
    assert len(table) == ops and sum(table["origin"].str.startswith("✂ segmentation")) == seg
