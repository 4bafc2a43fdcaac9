"""Uploads that must not hurt the session, under Streamlit's AppTest.

* uploads are keyed by role: a parse named like the gold is kept beside it, and the clash is shown
  (the inspector, and the FREVAL and Lattice pages, whose gold and parse slots are separate);
* a per-session budget of decompressed bytes (``EVALCORE_SESSION_BYTES``), counted while the
  upload is decompressed: a file that does not fit is refused with a message, nothing is lost;
* the 199 MB-expanding comment bomb costs a message, quickly, and the data loaded before stays;
* CSV downloads neutralize formula cells.

The scores on screen are evalcore's own for the same bytes (the upload's gold against its parse:
'the' has the wrong head, 'cat' the wrong label).
"""

from __future__ import annotations

import gzip
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from app_view import page_text
from streamlit.testing.v1 import AppTest

from workbench.widgets import csv_bytes

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile_corpus import COMMENT_LINE, gzip_repeat

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"

GOLD = b"""# sent_id = u1
# text = the cat sleeps
1\tthe\tthe\tDET\t_\t_\t2\tdet\t_\t_
2\tcat\tcat\tNOUN\t_\t_\t3\tnsubj\t_\t_
3\tsleeps\tsleep\tVERB\t_\t_\t0\troot\t_\t_

"""
PARSE = GOLD.replace(b"2\tdet", b"3\tdet").replace(b"3\tnsubj", b"3\tobj")
STRIP = "UAS **0.6667** · LAS **0.3333**"


def upload_app() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["data"] = "upload"
    at.run()
    assert not at.exception
    return at


def text(at: AppTest) -> str:
    """Markdown and drawings (app_view.page_text)."""
    return page_text(at)


def test_a_parse_named_like_the_gold_is_kept_beside_it_and_the_clash_shown() -> None:
    at = upload_app()
    at.file_uploader(key="wb_upload_gold").upload("test.conllu", GOLD).run()
    at.file_uploader(key="wb_upload_parse").upload("test.conllu", PARSE).run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any("a gold file of the same name is loaded" in w and "test.conllu (parse)" in w for w in warnings)
    assert STRIP in text(at)  # the parse is scored against the gold: nothing was replaced
    loaded = text(at)
    assert "`test.conllu` (gold)" in loaded.replace("\\", "") and "test.conllu (parse)" in loaded.replace(
        "\\", ""
    )


def _slot_page(name: str) -> AppTest:
    """A page of slot uploads (FREVAL, Lattice), with "Your files (upload)" chosen."""
    at = upload_app()
    at.switch_page(name).run()
    assert not at.exception
    return at


def _slot_upload(at: AppTest, slot: str, name: str, data: bytes) -> None:
    at.file_uploader(key=f"wb_slot:{slot}").upload(name, data).run()
    assert not at.exception, [e.value for e in at.exception]


def _clashes(at: AppTest) -> list[str]:
    return [w.value.replace("\\", "") for w in at.warning if "of the same name are loaded" in w.value]


def test_freval_page_shows_a_parse_named_like_the_gold() -> None:
    """evalb's sample under one name for the gold and the parse: the clash is shown, and the numbers
    are still the gold against the parse (recall 87.76, precision 90.53: evalb's own sample.rsl)."""
    at = _slot_page("pages/2_FREVAL.py")
    sample = ROOT / "assets" / "evalb" / "sample"
    _slot_upload(at, "freval_gold", "sample.txt", (sample / "sample.gld").read_bytes())
    _slot_upload(at, "freval_prm", "sample.prm", (sample / "sample.prm").read_bytes())
    assert _clashes(at) == []
    _slot_upload(at, "freval_tests", "sample.txt", (sample / "sample.tst").read_bytes())
    (clash,) = _clashes(at)
    assert clash.startswith("sample.txt: a gold file and a parser output file of the same name are loaded")
    assert "neither replaces the other" in clash
    m = {x.label: x.value for x in at.metric}
    assert m["LR₁ (evalb recall)"] == "87.76" and m["LP₁ (evalb precision)"] == "90.53"


def _loaded(at: AppTest) -> list[str]:
    return [m.value for m in at.sidebar.markdown if m.value.startswith("Loaded:")]


def test_freval_forget_uploaded_files_forgets_them() -> None:
    """ "Forget uploaded files" on the FREVAL page: nothing is listed as loaded, the uploaders are
    drawn anew and empty (an uploader keeps its files until it is replaced: emptying the store alone
    let the next run accept them again), and a file uploaded next shows its own outcome only."""
    at = _slot_page("pages/2_FREVAL.py")
    sample = ROOT / "assets" / "evalb" / "sample"
    _slot_upload(at, "freval_gold", "sample.gld", (sample / "sample.gld").read_bytes())
    _slot_upload(at, "freval_tests", "sample.tst", (sample / "sample.tst").read_bytes())
    _slot_upload(at, "freval_tests", "broken.mrg", b"(S (NP (DT a)\n")
    assert _loaded(at) == ["Loaded: `sample.gld`, `sample.tst`"]
    assert any(e.value.startswith("broken.mrg:1:") for e in at.error)
    at.sidebar.button(key="wb_forget:freval_gold:freval_tests:freval_prm").click().run()
    assert not at.exception
    at.run()  # the run after: the old uploaders' files are not accepted again
    assert _loaded(at) == [] and not at.error and not at.metric
    keys = {u.key for u in at.get("file_uploader")}
    assert keys == {"wb_slot:freval_gold~1", "wb_slot:freval_tests~1", "wb_slot:freval_prm~1"}
    at.file_uploader(key="wb_slot:freval_gold~1").upload("other.mrg", b"(S (NP (DT a)))\n").run()
    assert _loaded(at) == ["Loaded: `other.mrg`"] and not at.error


def test_inspector_forget_uploaded_files_forgets_them() -> None:
    at = upload_app()
    at.file_uploader(key="wb_upload_gold").upload("test.conllu", GOLD).run()
    assert any("test.conllu" in line for line in _loaded(at))
    next(b for b in at.sidebar.button if b.label == "Forget uploaded files").click().run()
    at.run()
    assert not at.exception and not any("test.conllu" in line for line in _loaded(at))
    assert {u.key for u in at.get("file_uploader")} == {"wb_upload_gold~1", "wb_upload_parse~1"}


def test_lattice_page_shows_predicted_files_named_like_the_gold_files() -> None:
    """The uploaded analysis as gold and yap's output as prediction, each file under the other side's
    name: two clashes shown, and the numbers are still yap's against the analysis (those of
    test_app_pages.py::test_lattice_page_uploads_only_and_a_bad_file_keeps_data, the command line's;
    the prediction scored against itself would print 100)."""
    at = _slot_page("pages/3_Lattice.py")
    fix, yap = ROOT / "tests" / "fixtures", ROOT / "assets" / "hebrew_yap"
    _slot_upload(at, "lattice_gold", "analysis.conll", (fix / "yap_alternative.conll").read_bytes())
    _slot_upload(
        at, "lattice_gold_lattice", "analysis.lattice", (fix / "yap_alternative.lattice").read_bytes()
    )
    _slot_upload(at, "lattice_preds", "analysis.conll", (yap / "output.conll").read_bytes())
    _slot_upload(at, "lattice_pred_lattices", "analysis.lattice", (yap / "output.mapping").read_bytes())
    clashes = _clashes(at)
    assert [c.split(":", 1)[0] for c in clashes] == ["analysis.conll", "analysis.lattice"], clashes
    assert all("a gold file and a predicted file of the same name are loaded" in c for c in clashes)
    m = {x.label: x.value for x in at.metric}
    assert m["TEDEVAL L (sentence)"] == "80.00" and m["SEGEVAL U (sentence)"] == "92.31", m


def test_the_session_budget_refuses_what_does_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALCORE_SESSION_BYTES", str(len(GOLD) + len(PARSE) + 10))
    at = upload_app()
    at.file_uploader(key="wb_upload_gold").upload("gold.conllu", GOLD).run()
    at.file_uploader(key="wb_upload_parse").upload("parse.conllu.gz", gzip.compress(PARSE)).run()
    assert STRIP in text(at)
    big = gzip.compress(PARSE * 50)  # small once compressed, 50 times the budget decompressed
    at.file_uploader(key="wb_upload_parse").upload("more.conllu.gz", big).run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any(e.startswith("more.conllu.gz: more than") and "EVALCORE_SESSION_BYTES" in e for e in errors), (
        errors
    )
    assert STRIP in text(at)  # what was loaded is still there


@pytest.mark.slow
def test_the_199_mb_comment_bomb_costs_a_message(tmp_path: Path) -> None:
    bomb = gzip_repeat(tmp_path / "bomb.conllu.gz", COMMENT_LINE, 199 * 10**6).read_bytes()
    at = upload_app()
    at.file_uploader(key="wb_upload_gold").upload("gold.conllu", GOLD).run()
    at.file_uploader(key="wb_upload_parse").upload("parse.conllu", PARSE).run()
    start = time.perf_counter()
    at.file_uploader(key="wb_upload_parse").upload("bomb.conllu.gz", bomb).run()
    took = time.perf_counter() - start
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any(e.startswith("bomb.conllu.gz:257: sentence block starting at line 1") for e in errors), errors
    limit = "(limit 2097152; raise with --max-block-bytes or EVALCORE_MAX_BLOCK_BYTES)"
    assert any(limit in e for e in errors)
    assert STRIP in text(at)
    assert took < 60, took  # a guard against a hang, not a timing assertion


def test_csv_downloads_neutralize_formula_cells() -> None:
    frame = pd.DataFrame(
        {"parse": ["=1+1", "+cmd", "-x", "@SUM(A1)", "\tx", "ok"], "score": [-0.5, 1, 2, 3, 4, 5]}
    )
    frame["=head"] = "x"
    lines = csv_bytes(frame).decode("utf-8").splitlines()
    assert lines[0] == "parse,score,'=head"
    assert [line.split(",")[0] for line in lines[1:]] == ["'=1+1", "'+cmd", "'-x", "'@SUM(A1)", "'\tx", "ok"]
    assert lines[1].split(",")[1] == "-0.5"  # numbers stay numbers


def test_loaded_file_names_show_without_backslashes() -> None:
    """The sidebar listed 'en\\_ewt\\-ud\\-test\\.r2\\.16' (markdown escapes inside a code span
    are shown literally); names are now code spans as they are (workbench.widgets.md_code)."""
    at = upload_app()
    at.file_uploader(key="wb_upload_gold").upload("en_ewt-ud-test.r2.16.conllu", GOLD).run()
    assert not at.exception
    loaded = [m.value for m in at.sidebar.markdown if m.value.startswith("Loaded:")]
    assert loaded == ["Loaded: `en_ewt-ud-test.r2.16.conllu` (gold)"]
    fr = _slot_page("pages/2_FREVAL.py")
    sample = ROOT / "assets" / "evalb" / "sample"
    _slot_upload(fr, "freval_gold", "en_ewt.r2.16.gld", (sample / "sample.gld").read_bytes())
    assert "Loaded: `en_ewt.r2.16.gld`" in [m.value for m in fr.sidebar.markdown]


def test_freval_and_lattice_uploads_are_read_under_the_apps_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVALCORE_MAX_* set for the server reach the FREVAL and Lattice pages' readers too (
    one limits policy, applied in the app), not only the inspector's: a 3-word sentence is refused
    under a 2-token limit, and read under the defaults."""
    from workbench.freval_view import validate_trees
    from workbench.lattice_view import validate_analysis, validate_lattice_file

    trees = b"(S (NP (D a) (N b)) (VP (V c)))\n"
    conll = (
        b"1\ta\ta\tD\tD\t_\t2\tdet\t_\t_\n"
        b"2\tb\tb\tN\tN\t_\t3\tnsubj\t_\t_\n"
        b"3\tc\tc\tV\tV\t_\t0\troot\t_\t_\n\n"
    )
    lattice = b"0\t1\ta\ta\tD\tD\t_\t1\n1\t2\tb\tb\tN\tN\t_\t2\n2\t3\tc\tc\tV\tV\t_\t3\n\n"
    assert validate_trees("t.mrg", trees) is None
    assert validate_analysis("g.conll", conll) is None
    assert validate_lattice_file("g.lattice", lattice) is None
    monkeypatch.setenv("EVALCORE_MAX_TOKENS", "2")
    monkeypatch.setenv("EVALCORE_MAX_LATTICE_ARCS", "2")
    tokens = "(limit 2; raise with --max-tokens or EVALCORE_MAX_TOKENS)"
    arcs = "(limit 2; raise with --max-lattice-arcs or EVALCORE_MAX_LATTICE_ARCS)"
    found = {
        "trees": validate_trees("t.mrg", trees),
        "conll": validate_analysis("g.conll", conll),
        "lattice": validate_lattice_file("g.lattice", lattice),
    }
    assert found["trees"] is not None and tokens in found["trees"], found
    assert found["conll"] is not None and tokens in found["conll"], found
    assert found["lattice"] is not None and arcs in found["lattice"], found
