"""The FREVAL and lattice pages under Streamlit's AppTest, and the app's upload limits.

Known numbers on screen are the command line's for the same files: evalb's
sample with ``sample.prm`` gives recall 87.76 and F1 89.12 at size 1 (evalb's
own ``sample.rsl``), FarPaHC split 0 gives evalb's numbers at size 1 (the
committed evalb report, ``tests/fixtures/reference``) and, with the outer
bracket dropped, the FREVAL Table 1 of ``docs/freval.md`` (a regression pin);
the yap sentence scored against an uploaded analysis
(``tests/fixtures/yap_alternative.*``, בגן read as ב + גן) gives what
``evalcore lattice`` prints for those files.
"""

from __future__ import annotations

import ast
import contextlib
import gzip
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from app_view import drawings, page_text, table_with, tables, upload
from streamlit import config as st_config
from streamlit.testing.v1 import AppTest

from evalcore.lattice.reading import load_pairing
from evalcore.metrics.joint import evaluate
from workbench.uploads import GZIP_FACTOR, size_problem

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
FREVAL = "pages/2_FREVAL.py"
LATTICE = "pages/3_Lattice.py"
EVALB = ROOT / "assets" / "evalb"
YAP = ROOT / "assets" / "hebrew_yap"
FIX = ROOT / "tests" / "fixtures"
REFERENCE = FIX / "reference"
TIMEOUT = 60


def page(name: str, **query: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    at.switch_page(name).run()
    no_exception(at)
    return at


def page_opened_on(name: str, **query: str) -> AppTest:
    """A fresh session opened on a link to page ``name`` (as a browser does: the link's settings are
    read by that page, not first by the inspector, which shares some keys such as ``protocol``)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    for k, v in query.items():
        at.query_params[k] = v
    at.switch_page(name).run()
    no_exception(at)
    return at


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


TABLE1_INDEX = "parser"  # Table 1's first column: its index (evalcore.metrics.freval.table1_frame)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


@pytest.fixture()
def upload_limit_1mb() -> Iterator[None]:
    """``server.maxUploadSize`` = 1 MB for one test (AppTest runs the app in this process)."""
    before = st_config.get_option("server.maxUploadSize")
    st_config.set_option("server.maxUploadSize", 1)
    try:
        yield
    finally:
        st_config.set_option("server.maxUploadSize", before)


# ---------------------------------------------------------------------------
# FREVAL


def _evalb_summary(fixture: str, key: str) -> str:
    """A number of the ``-- All --`` block of a committed evalb 2006 report (tests/fixtures/reference)."""
    text = (REFERENCE / "evalb" / f"{fixture}.rsl").read_text(encoding="utf-8")
    block = text[text.index("-- All --") :]
    return next(line.split("=")[1].strip() for line in block.splitlines() if line.startswith(key))


def test_freval_closed_expanders_make_no_tables_until_opened() -> None:
    """A closed expander's tables are not made (the browser rendered them all the
    same); opened, "Counts per size" is there, and its size-1 row gives evalb's recall and precision
    (committed evalb report of the sample: matched / gold, matched / test)."""
    columns = ["parser", "size", "matched", "gold", "test"]
    at = page(FREVAL, data="evalb")
    assert not any(list(df.value.columns)[:5] == columns for df in at.dataframe)
    at.session_state["freval_x_counts"] = True  # the user opens "Counts per size"
    at.run()
    no_exception(at)
    counts = next(df.value for df in at.dataframe if list(df.value.columns)[:5] == columns)
    one = counts[counts["size"] == 1].iloc[0]
    matched, gold, test = int(one["matched"]), int(one["gold"]), int(one["test"])
    assert f"{100 * matched / gold:.2f}" == _evalb_summary("sample.sample_prm", "Bracketing Recall")
    assert f"{100 * matched / test:.2f}" == _evalb_summary("sample.sample_prm", "Bracketing Precision")


def test_freval_evalb_sample_matches_evalb() -> None:
    at = page(FREVAL, data="evalb")
    assert not at.error
    m = metrics(at)
    assert m["LR₁ (evalb recall)"] == "87.76"  # evalb's sample.rsl
    assert m["LP₁ (evalb precision)"] == "90.53"
    assert m["F1₁"] == "89.12" == _evalb_summary("sample.sample_prm", "Bracketing FMeasure")
    table = table_with(at, "1 F1").set_index(TABLE1_INDEX)  # Table 1, shown with two decimals
    assert round(table.loc["evalb sample test", "1 F1"], 2) == 89.12
    charts = [d for d in drawings(at) if "<svg" in d and 'class="wb-chart"' in d]
    assert len(charts) == 2  # F1_s and F1_s minus the baseline's (SVG, workbench/charts.py)
    assert all('data-name="evalb sample test"' in c for c in charts)
    assert at.query_params["data"] == "evalb"


def test_regression_pin_freval_evalb_sample_all_sizes() -> None:
    """Regression pin: 99.17 is what evalcore freval printed on these files (no reference tool
    finishes an unlimited run on sentence 22, and the FREVAL tool's divisor differs, docs/freval.md)."""
    at = page(FREVAL, data="evalb")
    assert metrics(at)["F1 (sizes 1-34)"] == "99.17"
    table = table_with(at, "all F1").set_index(TABLE1_INDEX)
    assert round(table.loc["evalb sample test", "all F1"], 2) == 99.17


@pytest.mark.slow
def test_freval_one_sentence_shows_missed_and_extra_brackets_on_the_trees() -> None:
    """The per-sentence view of evalb's sample.  Counted by hand from sample.gld/.tst:
    sentence 8 is gold (S (A this) (B is (A a test))) against a test line with no bracket at all
    (four bare tags): 4 brackets missed, and all 4 + 3 + 2 + 1 = 10 gold fragments (S-A, S-B, B-A;
    S-A-B, S-B-A; S-A-B-A) -- the worst sentence, first; S is in 1 + 2 + 2 + 1 = 6 of them, each A
    in 4 (A, S-A, S-A-B, S-A-B-A / A, B-A, S-B-A, S-A-B-A).  Sentence 6 is test (S (A this is)
    (A a test)): gold A (this) and B (is a test) are missed, test A (this is) is extra; only S and
    A (a test) match and they do not touch, so 2 of the 10 gold fragments are matched."""
    at = page(FREVAL, data="evalb")
    assert "One sentence: missed and extra brackets" in [h.value for h in at.subheader]
    picker = at.selectbox(key="freval_sent:evalb:evalb sample test")
    assert picker.value == 8
    sizes = next(t for t in tables(at) if list(t.columns) == ["size", "gold", "test", "matched", "missed"])
    assert list(sizes["gold"]) == [4, 3, 2, 1] and list(sizes["missed"]) == [4, 3, 2, 1]
    missed = table_with(at, "missed", "fragments spoiled")
    assert list(zip(missed["missed"], missed["fragments spoiled"], strict=True)) == [
        ("S", 6),
        ("A", 4),
        ("B", 6),
        ("A", 4),
    ]
    dots = [d for d in drawings(at) if "<svg" in d and "wb-dot" in d]
    assert len(dots) == 2
    assert dots[0].count('class="node deleted"') == 4 and 'class="node inserted"' not in dots[1]
    picker.set_value(6).run()
    no_exception(at)
    missed = table_with(at, "fragments spoiled")
    extra = next(t for t in tables(at) if list(t.columns) == ["extra", "from word", "to word"])
    assert [tuple(r) for r in missed.itertuples(index=False)] == [("A", 1, 1, 4), ("B", 2, 4, 6)]
    assert [tuple(r) for r in extra.itertuples(index=False)] == [("A", 1, 2)]
    sizes = next(t for t in tables(at) if list(t.columns)[-1] == "missed")
    assert int(sizes["matched"].sum()) == 2 and int(sizes["missed"].sum()) == 8
    dots = [d for d in drawings(at) if "<svg" in d and "wb-dot" in d]
    assert dots[0].count('class="node deleted"') == 2 and dots[1].count('class="node inserted"') == 1


@pytest.mark.slow
def test_freval_link_reopens_the_same_view() -> None:
    """The FREVAL page's choices are in its link; a fresh session opened on it shows the
    same numbers and the same sentence; a value it does not offer is reported."""
    at = page(FREVAL, data="evalb")
    at.toggle(key="freval_unlabeled").set_value(True).run()
    at.number_input(key="freval_max_size").set_value(3).run()
    at.selectbox(key="freval_sent:evalb:evalb sample test").set_value(6).run()
    no_exception(at)
    link = {k: at.query_params[k] for k in at.query_params}
    assert link["unlabeled"] == "yes" and link["maxsize"] == "3" and link["sentno"] == "6"
    shown = metrics(at)
    fresh = page(FREVAL, **link)
    assert metrics(fresh) == shown and fresh.selectbox(key="freval_sent:evalb:evalb sample test").value == 6
    assert metrics(fresh)["F1 (sizes 1-3)"] == shown["F1 (sizes 1-3)"]
    bad = page(FREVAL, data="evalb", prm="nope.prm", variants="as set,sideways", sentno="99")
    warned = " ".join(w.value for w in bad.sidebar.warning).replace("\\", "")
    assert "prm: 'nope.prm' is not offered here" in warned
    assert "variants: 'as set,sideways' is not offered here" in warned
    assert "sentno: '99' is not offered here" in warned


@pytest.mark.slow
def test_freval_farpahc_default_is_evalb() -> None:
    """The outer '( )' counts by default, as in evalb: size 1 is evalb 2006's own report on these files."""
    at = page(FREVAL, data="farpahc")
    m = metrics(at)
    assert m["LR₁ (evalb recall)"] == _evalb_summary("farpahc_split0", "Bracketing Recall") == "77.53"
    assert m["LP₁ (evalb precision)"] == _evalb_summary("farpahc_split0", "Bracketing Precision")
    assert m["F1₁"] == _evalb_summary("farpahc_split0", "Bracketing FMeasure")
    assert "20 errors" in "\n".join(c.value for c in at.caption)


@pytest.mark.slow
def test_regression_pin_freval_farpahc_table1_outer_bracket_dropped() -> None:
    """Regression pin: the 1-15, 1-25 and all rows are what evalcore freval --drop-unlabeled-root printed
    (docs/freval.md); only the size-1 row has a reference (evalb on these files, outer bracket dropped)."""
    at = page(FREVAL, data="farpahc")
    at.toggle(key="freval_drop_unlabeled_root").set_value(True).run()
    no_exception(at)
    table = table_with(at, "1 F1").set_index(TABLE1_INDEX)  # Table 1
    row = table.loc["Berkeley parser"]
    assert [round(row[f"{s} F1"], 2) for s in ("1", "1-15", "1-25", "all")] == [74.77, 17.89, 10.74, 5.59]
    assert "20 errors" in "\n".join(c.value for c in at.caption)


@pytest.mark.slow
def test_freval_settings_change_the_numbers() -> None:
    at = page(FREVAL, data="evalb")
    at.toggle(key="freval_unlabeled").set_value(True).run()
    no_exception(at)
    unlabeled = _evalb_summary("sample.labeled0_prm", "Bracketing Recall")  # evalb, sample.prm with LABELED 0
    assert metrics(at)["LR₁ (evalb recall)"] == unlabeled == "89.80"
    at.number_input(key="freval_max_size").set_value(1).run()
    no_exception(at)
    assert metrics(at)["FLR (sizes 1-1)"] == unlabeled  # with L = 1, FLR is evalb's recall
    at.selectbox(key="freval_prm:evalb:4").select("COLLINS.prm (built in)").run()
    no_exception(at)
    assert "prm:COLLINS.prm" in table_with(at, "signature")["signature"].iloc[0]


@pytest.mark.slow
def test_freval_uploads_good_then_bad_keeps_data() -> None:
    at = page(FREVAL, data="upload")
    assert any("Upload a gold file" in i.value for i in at.info)
    upload(at, "freval_gold", "sample.gld", (EVALB / "sample" / "sample.gld").read_bytes())
    upload(at, "freval_tests", "sample.tst", (EVALB / "sample" / "sample.tst").read_bytes())
    upload(at, "freval_prm", "sample.prm", (EVALB / "sample" / "sample.prm").read_bytes())
    assert metrics(at)["LR₁ (evalb recall)"] == "87.76"
    # a parser file that cannot be read, and a gold file that cannot be read: both refused with the
    # reader's FILE:LINE message; nothing loaded before is lost
    upload(at, "freval_tests", "broken.mrg", b"(S (NP (DT a)\n  (NN b)\n")
    upload(at, "freval_gold", "broken-gold.mrg", b"(S (NP (DT a)\n")
    errs = errors(at)
    assert any(e.startswith("broken.mrg:1:") and "not closed" in e for e in errs), errs
    assert any(e.startswith("broken-gold.mrg:1:") for e in errs), errs
    assert metrics(at)["LR₁ (evalb recall)"] == "87.76"


def test_upload_over_the_size_limit_is_refused_with_a_message(upload_limit_1mb: None) -> None:
    at = page(FREVAL, data="upload")
    good = (EVALB / "sample" / "sample.gld").read_bytes()
    upload(at, "freval_gold", "sample.gld", good)
    upload(at, "freval_tests", "sample.tst", (EVALB / "sample" / "sample.tst").read_bytes())
    upload(at, "freval_prm", "sample.prm", (EVALB / "sample" / "sample.prm").read_bytes())
    assert metrics(at)["LR₁ (evalb recall)"] == "87.76"
    big = good * (1 + (1024 * 1024) // len(good))  # just over 1 MB
    upload(at, "freval_tests", "big.tst", big)
    errs = errors(at)
    assert any(
        e.startswith("big.tst: the file has 1.0 MB, more than the upload limit of 1 MB per file")
        for e in errs
    ), errs
    assert "1 MB" in errs[0] and "server.maxUploadSize" in errs[0]
    assert metrics(at)["LR₁ (evalb recall)"] == "87.76"  # what was loaded stays


def test_inspector_upload_over_the_size_limit(upload_limit_1mb: None) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["data"] = "upload"
    at.run()
    no_exception(at)
    gold = b"1\tthe\t_\tDET\t_\t_\t2\tdet\t_\t_\n2\tcat\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n"
    at.file_uploader(key="wb_upload_gold").upload("gold.conllu", gold).run()
    at.file_uploader(key="wb_upload_parse").upload("huge.conllu", gold * 30_000).run()
    no_exception(at)
    assert any(e.startswith("huge.conllu: the file has") and "1 MB" in e for e in errors(at)), errors(at)
    assert 'class="dep-tree"' in page_text(at)  # the gold is still drawn


def test_gzip_that_expands_past_the_limit_is_refused() -> None:
    bomb = gzip.compress(b"\0" * (GZIP_FACTOR * 1024 * 1024 + 1))
    assert len(bomb) < 1024 * 1024
    msg = size_problem("bomb.conllu.gz", bomb, limit_mb=1)
    assert msg is not None and msg.startswith(
        "bomb.conllu.gz: the gzipped file decompresses to more than 4 MB"
    )
    assert size_problem("ok.conllu.gz", gzip.compress(b"x" * 1000), limit_mb=1) is None
    assert size_problem("corrupt.gz", b"\x1f\x8b not gzip", limit_mb=1) is None  # the reader reports it


# ---------------------------------------------------------------------------
# lattices


def _expected_yap_scores() -> tuple[float, float, float]:
    pairing = load_pairing(
        str(FIX / "yap_alternative.conll"),
        str(YAP / "output.conll"),
        gold_lattice=str(FIX / "yap_alternative.lattice"),
        pred_lattice=str(YAP / "output.mapping"),
    )
    r = evaluate(pairing)
    assert r.ted_unlabeled is not None and r.ted_labeled is not None
    return r.segeval.unlabeled, r.ted_unlabeled.score, r.ted_labeled.score


def test_lattice_page_yap_without_gold() -> None:
    at = page(LATTICE, data="hebrew_yap")
    assert not at.error
    assert any("No gold analysis ships with this dataset" in i.value for i in at.info)
    text = page_text(at)
    assert 'data-rtl="yes"' in text and 'class="edge pred"' in text and 'class="edge gold' not in text
    assert "גידל" in text
    assert not at.metric  # nothing to score against


def test_lattice_page_yap_against_an_uploaded_analysis() -> None:
    at = page(LATTICE, data="hebrew_yap")
    upload(at, "lattice_gold", "yap_alternative.conll", (FIX / "yap_alternative.conll").read_bytes())
    upload(
        at, "lattice_gold_lattice", "yap_alternative.lattice", (FIX / "yap_alternative.lattice").read_bytes()
    )
    seg_u, ted_u, ted_l = _expected_yap_scores()
    m = metrics(at)
    assert m["SEGEVAL U (sentence)"] == f"{100 * seg_u:.2f}" == "92.31"
    assert m["TEDEVAL U (sentence)"] == f"{100 * ted_u:.2f}" == "86.67"
    assert m["TEDEVAL L (sentence)"] == f"{100 * ted_l:.2f}" == "80.00"
    table = at.dataframe[0].value
    assert table["scenario"].iloc[0] == "raw" and round(table["SEGEVAL U"].iloc[0], 2) == 92.31
    text = page_text(at)
    assert 'class="edge gold"' in text and 'class="edge pred"' in text  # ב+גן (gold) vs ב+ה+גן (yap)
    assert 'class="node deleted"' in text and 'class="node inserted"' in text  # the trees' edit script


@pytest.mark.slow
def test_lattice_page_uploads_only_and_a_bad_file_keeps_data() -> None:
    at = page(LATTICE, data="upload")
    upload(at, "lattice_gold", "gold.conll", (FIX / "yap_alternative.conll").read_bytes())
    upload(at, "lattice_gold_lattice", "gold.lattice", (FIX / "yap_alternative.lattice").read_bytes())
    upload(at, "lattice_preds", "output.conll", (YAP / "output.conll").read_bytes())
    upload(at, "lattice_pred_lattices", "output.mapping", (YAP / "output.mapping").read_bytes())
    upload(at, "lattice_ambiguity", "input.lattice", (YAP / "input.lattice").read_bytes())
    assert metrics(at)["TEDEVAL L (sentence)"] == "80.00"
    # a predicted file whose head column is broken: refused, the rest stays
    bad = (YAP / "output.conll").read_bytes().replace(b"\t2\tsubj", b"\tX\tsubj")
    upload(at, "lattice_preds", "other.conll", bad)
    assert any(e.startswith("other.conll:1:") for e in errors(at)), errors(at)
    assert metrics(at)["TEDEVAL L (sentence)"] == "80.00"


def _scenario_row(at: AppTest) -> dict[str, object]:
    table = at.dataframe[0].value
    assert len(table) == 1
    return {str(k): v for k, v in table.iloc[0].items()}


def test_lattice_page_a_prediction_equal_to_its_gold_without_its_tokens_scores_100() -> None:
    """Gold CoNLL + lattice path, the same CoNLL as prediction without its lattice file.
    Its segments are the gold's, so it takes the gold's token boundaries: 100 everywhere."""
    at = page(LATTICE, data="upload")
    upload(at, "lattice_gold", "gold.conll", (YAP / "output.conll").read_bytes())
    upload(at, "lattice_gold_lattice", "gold.mapping", (YAP / "output.mapping").read_bytes())
    upload(at, "lattice_preds", "pred.conll", (YAP / "output.conll").read_bytes())
    assert not at.error
    m = metrics(at)
    for label in ("SEGEVAL U", "SEGEVAL L", "TEDEVAL U", "TEDEVAL L"):
        assert m[f"{label} (sentence)"] == "100.00", m
    # the yap sentence's function tree has 18 nodes (tests/test_lattice.py): norm 18 + 18 - 2
    assert m["TED L"] == "0 / 34" and m["tokens right (L)"] == "100.00"
    row = _scenario_row(at)
    assert row["scenario"] == "gold" and row["classic"] == "attachment"
    numbers = [v for k, v in row.items() if k not in ("system", "scenario", "classic", "signature")]
    assert numbers == [100.0] * 8


@pytest.mark.slow
def test_lattice_page_spmrl_excerpt_equal_to_its_gold_scores_100(data: Path) -> None:
    """The issue's files (SPMRL excerpt, 50 sentences) uploaded the same way."""
    d = data / "hebrew" / "spmrl_hebtb" / "excerpt_dev_first50"
    at = page(LATTICE, data="upload")
    upload(at, "lattice_gold", "dev_hebtb-gold.conll", (d / "dev_hebtb-gold.conll").read_bytes())
    upload(
        at, "lattice_gold_lattice", "dev_hebtb-gold.lattices", (d / "dev_hebtb-gold.lattices").read_bytes()
    )
    upload(at, "lattice_preds", "pred.conll", (d / "dev_hebtb-gold.conll").read_bytes())
    assert not at.error
    row = _scenario_row(at)
    assert row["scenario"] == "gold"
    numbers = [v for k, v in row.items() if k not in ("system", "scenario", "classic", "signature")]
    assert numbers == [100.0] * 8


def test_lattice_page_refuses_like_the_command_line(
    tmp_path: Path,
) -> None:
    """A prediction whose segments are not the gold's and that does not say which token they belong
    to: the page shows the command line's line and no number."""
    from evalcore.cli import main

    at = page(LATTICE, data="upload")
    upload(at, "lattice_gold", "output.conll", (YAP / "output.conll").read_bytes())
    upload(at, "lattice_gold_lattice", "output.mapping", (YAP / "output.mapping").read_bytes())
    upload(at, "lattice_preds", "yap_alternative.conll", (FIX / "yap_alternative.conll").read_bytes())
    # the command line on the same files, named as the uploads are
    for name, src in (
        ("output.conll", YAP / "output.conll"),
        ("output.mapping", YAP / "output.mapping"),
        ("yap_alternative.conll", FIX / "yap_alternative.conll"),
    ):
        (tmp_path / name).write_bytes(src.read_bytes())
    err = io.StringIO()
    with (
        contextlib.chdir(tmp_path),
        contextlib.redirect_stderr(err),
        contextlib.redirect_stdout(io.StringIO()),
    ):
        code = main(["lattice", "output.conll", "yap_alternative.conll", "--gold-lattice", "output.mapping"])
    assert code == 2
    (line,) = err.getvalue().splitlines()
    assert "give the token boundaries with --pred-lattice" in line
    assert errors(at) == [line]
    assert not at.metric and not at.dataframe and not tables(at)


# ---------------------------------------------------------------------------
# uploads are only read


FORBIDDEN_NAMES = {"exec", "eval", "compile", "__import__"}  # builtins called by name
FORBIDDEN_ATTRS = {"system", "popen", "write_bytes", "write_text", "NamedTemporaryFile", "mkstemp", "mkdtemp"}
FORBIDDEN_MODULES = {"subprocess", "tempfile", "pickle", "shutil"}


def _app_sources() -> list[Path]:
    return [APP, *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "workbench").glob("*.py"))]


@pytest.mark.parametrize("path", _app_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_app_code_never_writes_or_runs_uploads(path: Path) -> None:
    """No file writes, temporary files, subprocesses or eval/exec in the app's own code.

    (Graphviz's ``dot`` is run by the ``graphviz`` package on DOT text made by
    our writers, never on an upload.)
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            assert not {n.split(".")[0] for n in names} & FORBIDDEN_MODULES, (path, ast.dump(node))
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            forbidden = FORBIDDEN_NAMES if isinstance(f, ast.Name) else FORBIDDEN_ATTRS
            assert name not in forbidden, (path, node.lineno, name)
            if name == "open":
                modes = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)]
                modes += [
                    k.value.value
                    for k in node.keywords
                    if k.arg == "mode" and isinstance(k.value, ast.Constant)
                ]
                assert all(set(str(m)) <= set("rbt") for m in modes), (path, node.lineno, modes)


@pytest.mark.slow
def test_choosing_another_dataset_on_the_freval_page_sticks() -> None:
    at = page(FREVAL, data="fr_gsd")  # not a constituency dataset: the page falls back to evalb
    assert at.query_params["data"] == "evalb"
    at.selectbox(key="wb_dataset").select("farpahc").run()
    no_exception(at)
    assert at.query_params["data"] == "farpahc"
    at.run()
    assert at.selectbox(key="wb_dataset").value == "farpahc"
    assert "Berkeley parser" in list(table_with(at, "1 F1")[TABLE1_INDEX])


def test_lattice_link_holds_the_settings() -> None:
    """The Lattice page's options in its link; a fresh session opened on it has them."""
    at = page(LATTICE, data="hebrew_yap")
    at.selectbox(key="lattice_protocol").select("2011").run()
    at.radio(key="lattice_labels").set_value("universal").run()
    no_exception(at)
    assert at.query_params["protocol"] == "2011" and at.query_params["labels"] == "universal"
    assert "tag" not in at.query_params  # the default is left out
    fresh = page_opened_on(
        LATTICE, data="hebrew_yap", protocol="2011", labels="universal", tag="fpos", prediction="x"
    )
    assert (
        fresh.selectbox(key="lattice_protocol").value == "2011"
        and fresh.radio(key="lattice_labels").value == "universal"
    )
    assert fresh.selectbox(key="lattice_tag").value == "fpos"
    warned = " ".join(w.value for w in fresh.sidebar.warning).replace("\\", "")
    assert "prediction: 'x' is not offered here" in warned
