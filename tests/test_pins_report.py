"""Report columns that a wrong sign or a copied column would leave plausible, pinned by hand counts.

The pair used throughout: the gold "the cat sleeps" (the det→cat, cat nsubj→sleeps, sleeps
root) and a parse where 'the' hangs from 'sleeps' (wrong head) and 'cat' is obj (wrong
relation): UAS 2/3, LAS 1/3; against the gold itself, UAS = LAS = 1.

* ``evalcore attach GOLD A B`` prints B − A (docs/attachment.md: "the difference B − A"): with
  A = the parse, B = the gold, UAS +33.33 and LAS +66.67 points, in text, JSON and CSV.
* The Attachment & NED page's breakdown: each group's LAS interval is the bootstrap of that
  group's LAS, not of its UAS.  By relation, 'nsubj' has one gold token, 'cat', with the right
  head and the wrong relation: UAS 100 and LAS 0 in every resample of the one sentence, so the
  UAS interval is [100, 100] and the LAS interval [0, 0].
* The page's corpus intervals leave out the sentences --max-len excludes (and skipped ones).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace

import pytest
from streamlit.testing.v1 import AppTest

from evalcore.cli import main
from evalcore.families.attach import AttachSettings
from evalcore.formats.conllu import parse_conllu
from evalcore.metrics.attachment import AttachCounts
from workbench.attachment_view import breakdown_frame, breakdown_view, corpus_intervals

ROOT = Path(__file__).resolve().parents[1]
GOLD = (
    "# sent_id = u1\n"
    "1\tthe\tthe\tDET\t_\t_\t2\tdet\t_\t_\n"
    "2\tcat\tcat\tNOUN\t_\t_\t3\tnsubj\t_\t_\n"
    "3\tsleeps\tsleep\tVERB\t_\t_\t0\troot\t_\t_\n\n"
)
PARSE = GOLD.replace("2\tdet", "3\tdet").replace("3\tnsubj", "3\tobj")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_the_difference_is_b_minus_a(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, parse = tmp_path / "gold.conllu", tmp_path / "a.conllu"
    gold.write_text(GOLD, encoding="utf-8")
    parse.write_text(PARSE, encoding="utf-8")
    argv = ["attach", str(gold), f"A={parse}", f"B={gold}", "--shuffles", "9"]
    rows = {line.split()[0]: line.split()[1:4] for line in _run(capsys, *argv).splitlines()[2:7]}
    assert rows["UAS"] == ["66.67", "100.00", "33.33"]
    assert rows["LAS"] == ["33.33", "100.00", "66.67"]
    doc = json.loads(_run(capsys, *argv, "--format", "json"))
    diff = {m["metric"]: m["difference"] for m in doc["metrics"]}
    assert diff["uas"] == pytest.approx(1 / 3) and diff["las"] == pytest.approx(2 / 3)
    csv = _run(capsys, *argv, "--format", "csv").splitlines()
    assert csv[0].split(",")[:4] == ["metric", "a", "b", "difference"]
    assert float(csv[2].split(",")[3]) == pytest.approx(2 / 3)  # las
    # the other order: A = the gold, B = the parse
    swapped = ["attach", str(gold), f"A={gold}", f"B={parse}", "--shuffles", "9"]
    rows = {line.split()[0]: line.split()[1:4] for line in _run(capsys, *swapped).splitlines()[2:7]}
    assert rows["UAS"] == ["100.00", "66.67", "-33.33"]


def test_the_breakdowns_las_interval_is_the_las_bootstrap() -> None:
    """workbench.attachment_view, as the page calls it (one scored sentence; by relation)."""
    g = SimpleNamespace(digest="pins-gold", dep_trees=tuple(parse_conllu(GOLD)), dialect="conllu")
    s = SimpleNamespace(digest="pins-parse", dep_trees=tuple(parse_conllu(PARSE)))
    corpus = SimpleNamespace(
        indices=(0,), result=SimpleNamespace(per_sentence=(("u1", AttachCounts(3, 2, 1)),))
    )
    view = breakdown_view(g, s, corpus, AttachSettings(), "deprel")  # type: ignore[arg-type]
    frame = breakdown_frame(view).set_index("group")
    nsubj = frame.loc["nsubj"]
    assert (nsubj["UAS"], nsubj["UAS low"], nsubj["UAS high"]) == (100.0, 100.0, 100.0)
    assert (nsubj["LAS"], nsubj["LAS low"], nsubj["LAS high"]) == (0.0, 0.0, 0.0)
    det = frame.loc["det"]  # 'the': wrong head, right relation
    assert (det["UAS high"], det["LAS high"], det["label acc"]) == (0.0, 0.0, 100.0)


def test_the_apps_intervals_leave_out_excluded_sentences() -> None:
    """The page's corpus intervals resample the scored sentences only (as ``--bootstrap`` does,
    tests/test_pins_significance.py): one scored sentence of UAS 2/3 and LAS 1/3, three
    excluded by --max-len and one skipped; every resample is the scored sentence."""
    per: Sequence[AttachCounts] = [
        AttachCounts(3, 2, 1, 2, 2, 3, sentences=1),
        *[AttachCounts(excluded=1)] * 3,
        AttachCounts(skipped=1),
    ]
    ivs = dict(corpus_intervals(per))
    assert (ivs["UAS"].low, ivs["UAS"].high) == pytest.approx((2 / 3, 2 / 3))
    assert (ivs["LAS"].low, ivs["LAS"].high) == pytest.approx((1 / 3, 1 / 3))


@pytest.mark.slow
def test_the_pages_las_interval_is_the_las_bootstrap() -> None:
    """The same numbers read from the rendered page: the two files uploaded on the home page,
    then the Attachment & NED page's breakdown (by relation, the default)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["data"] = "upload"
    at.run()
    at.file_uploader(key="wb_upload_gold").upload("gold.conllu", GOLD.encode()).run()
    at.file_uploader(key="wb_upload_parse").upload("parse.conllu", PARSE.encode()).run()
    at.query_params["section"] = "breakdown"
    at.switch_page("pages/4_NED.py").run()
    assert not at.exception, [e.value for e in at.exception]
    frame = next(df.value for df in at.dataframe if "LAS low" in df.value.columns).set_index("group")
    nsubj = frame.loc["nsubj"]
    assert (nsubj["UAS"], nsubj["UAS low"], nsubj["UAS high"]) == (100.0, 100.0, 100.0)
    assert (nsubj["LAS"], nsubj["LAS low"], nsubj["LAS high"]) == (0.0, 0.0, 0.0)
