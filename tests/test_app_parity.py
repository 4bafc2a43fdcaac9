"""The parity property's workbench leg (docs/architecture.md, "The registry of metric families"):
settings drawn from a family's declaration, given to a page through its link (the ``link=`` keys
of the declaration), give on the rendered page the numbers the API's ``to_dict()`` (FREVAL) or the
command's ``--format json`` (cross-scheme TedEval, attachment, lattice, atlas) gives for the same
settings on the same data (built in; the lattice page's: the CoNLL 2018 French files, uploaded).
The numbers are read from the page (its metrics, its tables), never from the function the page
calls.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from app_view import table_with, upload
from ec_support import DATA
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from registry_support import command_line, drawn_settings
from streamlit.testing.v1 import AppTest

import evalcore
from evalcore.atlas import GROUPINGS
from evalcore.cli import main
from evalcore.declare import Declared, declared
from evalcore.families.attach import AttachSettings
from evalcore.families.freval import FrevalSettings
from evalcore.families.lattice import LatticeSettings
from evalcore.families.tedeval import TedevalSettings
from workbench.atlas_view import atlas_schemes
from workbench.cache import load_builtin
from workbench.datasets import builtin
from workbench.freval_view import BUILTIN_PRM
from workbench.settings_form import link_text
from workbench.tedeval import experiment_schemes

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
EVALB = ROOT / "assets" / "evalb"
SAMPLE = EVALB / "sample"
PRMS = {
    "sample.prm": SAMPLE / "sample.prm",
    "COLLINS.prm": EVALB / "COLLINS.prm",
    "new.prm": EVALB / "new.prm",
}


LINKED = tuple(d for d in declared(FrevalSettings) if d.option.link is not None)
"""The settings the FREVAL page binds to its link."""


def freval_settings() -> st.SearchStrategy[FrevalSettings]:
    """The settings the FREVAL page binds, each drawn from its declaration's kind (the parameter
    file among those the dataset offers)."""
    special: dict[str, st.SearchStrategy[object]] = {
        "prm": st.sampled_from([*PRMS, BUILTIN_PRM]),
        "function_separators": st.sampled_from(["-=", "-=*", "="]),
        "max_size": st.sampled_from([None, 1, 3, 20]),
    }
    lengths = st.sampled_from([None, 0, 3, 8, 40, 1000])
    special |= {d.name: lengths for d in LINKED if d.kind == "int" and d.name not in special}
    return drawn_settings(FrevalSettings, special, LINKED)


def _link(x: FrevalSettings) -> dict[str, str]:
    """The page's link for these settings: the declared fields by their ``link=`` keys."""
    query = {"data": "evalb"}
    for d in LINKED:
        value = getattr(x, d.name)
        if value is not None and value != d.default:
            query[str(d.option.link)] = link_text(value)
    return query


def _page(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    for k, v in query.items():
        at.query_params[k] = v
    at.switch_page("pages/2_FREVAL.py").run()
    at.session_state["freval_x_counts"] = True  # "Counts per size" opened
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(x=freval_settings())
def test_freval_page_shows_the_apis_numbers(x: FrevalSettings) -> None:
    """evalb's sample on the FREVAL page, opened on a link, against ``evalcore.freval`` called with
    the same settings by their API keywords."""
    at = _page(_link(x))
    kwargs = {str(d.keyword): getattr(x, d.name) for d in LINKED}
    kwargs["prm"] = None if x.prm == BUILTIN_PRM else PRMS[str(x.prm)]
    try:
        api = evalcore.freval(SAMPLE / "sample.gld", SAMPLE / "sample.tst", **kwargs).to_dict()
    except evalcore.EvalcoreError as exc:  # e.g. more errors than MAX_ERROR: the page says the same
        said = str(exc).replace(str(SAMPLE / "sample.gld"), "evalb sample gold")  # the page's file name
        assert any(said in e.value for e in at.error), (said, [e.value for e in at.error])
        return
    shown = {m.label: m.value for m in at.metric}
    sizes = f"1-{len(api['per_size'])}"  # type: ignore[arg-type]
    for one in api["per_size"][:1]:  # type: ignore[index]  # none when no sentence is kept
        assert shown["LR₁ (evalb recall)"] == _pct(one["recall"])
        assert shown["LP₁ (evalb precision)"] == _pct(one["precision"])
        assert shown["F1₁"] == _pct(one["f1"])
    for metric, key in (("FLR", "flr"), ("FLP", "flp"), ("F1", "f1")):
        assert shown[f"{metric} (sizes {sizes})"] == _pct(api[key])  # type: ignore[arg-type]
    run = table_with(at, "signature").set_index("parser").loc["evalb sample test"]
    assert [int(run[k]) for k in ("sentences", "valid", "errors", "skipped")] == [
        api[k] for k in ("sentences", "valid", "errors", "skipped")
    ]
    assert run["signature"] == api["signature"]
    counts = next(df.value for df in at.dataframe if "LR_s %" in df.value.columns)
    counts = counts[counts["parser"] == "evalb sample test"]
    assert [
        tuple(int(v) for v in r) for r in counts[["size", "matched", "gold", "test"]].itertuples(index=False)
    ] == [
        (s["size"], s["matched"], s["gold"], s["test"])
        for s in api["per_size"]  # type: ignore[union-attr]
    ]


# the cross-scheme page and the attachment page: the command's --format json on the dataset's files

ASSETS = ROOT / "assets"


def _command(argv: list[str]) -> dict[str, object]:
    """``evalcore ARGV --format json``, its document (the command's own output)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*argv, "--format", "json"])
    assert code == 0, err.getvalue()
    document: dict[str, object] = json.loads(out.getvalue())
    return document


def _open(page: str, query: dict[str, str], *, tab: str | None = None) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=300)
    at.run()
    for k, v in query.items():
        at.query_params[k] = v
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.warning or all("link were not used" not in w.value for w in at.warning)
    return at


def _declared_link(settings: object, linked: tuple[Declared, ...]) -> dict[str, str]:
    """Every linked setting of ``settings`` by its ``link=`` key (defaults too: the page's own
    defaults may differ from the command's, e.g. skipping on a dataset that needs it)."""
    return {str(d.option.link): link_text(getattr(settings, d.name)) for d in linked}


XS_LINKED = tuple(d for d in declared(TedevalSettings) if d.option.link not in (None, "funcsep"))
"""The settings the cross-scheme page binds on a dependency dataset (the separators of function
tags are offered on bracketed data only)."""


def tedeval_settings() -> st.SearchStrategy[TedevalSettings]:
    """The cross-scheme page's settings, each drawn from its declaration's kind (few shuffles: the
    test's time)."""
    special = {"shuffles": st.sampled_from([0, 50, 200]), "seed": st.integers(0, 2**16)}
    return drawn_settings(TedevalSettings, special, XS_LINKED)


def _markdown_table(at: AppTest) -> list[list[str]]:
    """The cross-scheme page's table (Markdown): its rows, the cells' Markdown escapes taken out."""
    text = next(m.value for m in at.markdown if m.value.startswith("| against | metric |"))
    lines = [line for k, line in enumerate(text.splitlines()) if k != 1]
    return [[re.sub(r"\\(.)", r"\1", c.strip()) for c in line.strip("|").split("|")] for line in lines]


def _cross_scheme(x: TedevalSettings) -> None:
    at = _open("pages/1_Cross_scheme.py", {"data": "fr_gsd", **_declared_link(x, XS_LINKED)})
    loaded = load_builtin(builtin("fr_gsd"))
    argv = ["tedeval", *command_line(x)]
    for s in experiment_schemes(loaded):
        argv += ["--scheme", s.name, str(ASSETS / str(s.gold.path))]
        argv += [f"{p.name}={ASSETS / str(p.path)}" for p in s.parses]
    document = _command(argv)
    table = _markdown_table(at)
    parses: list[dict[str, str]] = document["parses"]  # type: ignore[assignment]
    names = [p["parse"] for p in parses]
    assert table[0] == ["against", "metric", *(f"{p['parse']} ({p['scheme']})" for p in parses)]
    cells: dict[tuple[str, str], dict[str, str]] = {}
    against = ""
    for row in table[1:]:
        against = row[0].removesuffix(" (generalized gold)").removesuffix(" gold") or against
        cells[against, row[1]] = dict(zip(names, row[2:], strict=True))
    rows: list[dict[str, Any]] = document["rows"]  # type: ignore[assignment]
    expected: dict[tuple[str, str], dict[str, str]] = {}
    for r in rows:
        same = [o for o in rows if (o["against"], o["metric"]) == (r["against"], r["metric"])]
        best = {o["parse"] for o in same if o["best"]}
        text = f"**{r['score']:.4f}**" if r["best"] and len(same) > 1 else f"{r['score']:.4f}"
        if not r["best"] and any(not v["significant"] for o, v in r["significant_vs"].items() if o in best):
            text += " ?"  # not significantly different from the row's best
        expected.setdefault((r["against"], r["metric"]), {})[r["parse"]] = text
    shown = {k: {p: t for p, t in v.items() if t != "—"} for k, v in cells.items()}
    assert shown == expected
    caption = next(c.value for c in at.caption if "Signature:" in c.value)
    assert f"Signature: `{document['signature']}`" in caption
    assert f"{document['sentences']} sentences, skipped {document['skipped_mismatched']} " in caption


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(x=tedeval_settings())
def test_cross_scheme_page_shows_the_commands_numbers(x: TedevalSettings) -> None:
    """French GSD's UD and SUD golds and three spaCy parses on the cross-scheme page, opened on a
    link, against ``evalcore tedeval --format json`` on the same files with the same settings: every
    cell's score (four decimals), the row's best in bold, ``?`` beside a parse not significantly
    different from the best, the signature and the sentences counted."""
    _cross_scheme(x)


@pytest.mark.slow  # 5 s: the experiment twice (the attachment page's example is the fast loop's)
def test_cross_scheme_page_shows_the_commands_numbers_example() -> None:
    """One example of the property: the 2011 protocol, sentence averages, the paired bootstrap."""
    _cross_scheme(TedevalSettings(protocol="2011", average="sentence", test="bootstrap", shuffles=50, seed=7))


NED_LINKED = tuple(d for d in declared(AttachSettings) if d.option.link is not None)
"""The settings the Attachment & NED page binds to its link."""


def attach_settings() -> st.SearchStrategy[AttachSettings]:
    """The attachment page's settings, each drawn from its declaration's kind."""
    return drawn_settings(AttachSettings, {"max_len": st.sampled_from([None, 1, 5, 12, 40])}, NED_LINKED)


NED_PAIR = ("UD gold", "spaCy UD parser")


def _attachment(x: AttachSettings) -> None:
    loaded = load_builtin(builtin("fr_gsd"))
    gold, system = (loaded.analysis(name) for name in NED_PAIR)
    query = {"data": "fr_gsd", "gold": NED_PAIR[0], "system": NED_PAIR[1]}
    query |= {k: v for k, v in _declared_link(x, NED_LINKED).items() if v != "None"}
    at = _open("pages/4_NED.py", query)
    document = _command(
        ["attach", str(ASSETS / str(gold.spec.path)), str(ASSETS / str(system.spec.path)), *command_line(x)]
    )
    shown = {m.label: m.value for m in at.metric}
    scores = (
        ("UAS", "uas"),
        ("LAS", "las"),
        ("label acc", "label"),
        ("undirected", "undirected"),
        ("NED", "ned"),
    )
    for label, key in scores:  # no token counted: null, "—" on the page
        assert shown[label] == ("—" if document[key] is None else f"{document[key]:.4f}"), label
    caption = next(c.value for c in at.caption if "Signature:" in c.value)
    assert f"Signature: `{document['signature']}`" in caption
    assert caption.startswith(f"{document['tokens']} tokens in ")
    assert (
        f"skipped {document['skipped']} (not a tree); excluded {document['excluded_by_length']} " in caption
    )


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(x=attach_settings())
@example(x=AttachSettings(max_len=1))  # no sentence short enough: no score (the command's null)
def test_attachment_page_shows_the_commands_numbers(x: AttachSettings) -> None:
    """French GSD's UD gold and spaCy's UD parse on the Attachment & NED page, opened on a link,
    against ``evalcore attach --format json`` on the same files with the same settings: the five
    scores (four decimals), the tokens, the sentences skipped and excluded, the signature."""
    _attachment(x)


def test_attachment_page_shows_the_commands_numbers_example() -> None:
    """One example of the property in the fast loop: punctuation left out, sentences of at most 12
    tokens, full relation labels (the default on CoNLL-U is the universal part)."""
    _attachment(AttachSettings(no_punct=True, max_len=12, labels="full"))


# the lattice page: uploaded raw-text parses of the CoNLL 2018 shared task (French GSD) against its
# gold, the command's --format json on the same files

LATTICE_LINKED = tuple(d for d in declared(LatticeSettings) if d.option.link is not None)
"""The settings the Lattice page binds to its link."""
FR18 = DATA / "parser_outputs" / "conll2018" / "fr_gsd"
needs_data = pytest.mark.skipif(not FR18.is_dir(), reason=f"shared data folder not found at {DATA}")


def _lattice(x: LatticeSettings, system: str) -> None:
    gold, pred = FR18 / "gold.fr_gsd.conllu.gz", FR18 / f"{system}.fr_gsd.conllu.gz"
    at = _open("pages/3_Lattice.py", {"data": "upload", **_declared_link(x, LATTICE_LINKED)})
    upload(at, "lattice_gold", gold.name, gold.read_bytes())
    upload(at, "lattice_preds", pred.name, pred.read_bytes())
    document = _command(["lattice", str(gold), f"{pred.name}={pred}", *command_line(x)])
    table = next(df.value for df in at.dataframe if "TEDEVAL L" in df.value.columns)
    assert len(table) == 1
    row = table.iloc[0]
    assert (row["system"], row["scenario"], row["signature"]) == (
        document["system"],
        document["scenario"],
        document["signature"],
    )
    classic: dict[str, Any] = document["classic"] or {}  # type: ignore[assignment]
    assert row["classic"] == classic.get("metric", "N/A")
    expected = {
        "SEGEVAL U": document["segeval"]["U"],  # type: ignore[index]
        "SEGEVAL L": document["segeval"]["L"],  # type: ignore[index]
        "classic U": classic.get("U"),
        "classic L": classic.get("L"),
        "TEDEVAL U": document["tedeval"]["U"],  # type: ignore[index]
        "TEDEVAL L": document["tedeval"]["L"],  # type: ignore[index]
        "tok.acc U": document["token_seg_accuracy"]["U"],  # type: ignore[index]
        "tok.acc L": document["token_seg_accuracy"]["L"],  # type: ignore[index]
    }
    for column, value in expected.items():  # percent on the page, fractions in the document
        shown = row[column]
        assert (shown is None or shown != shown) if value is None else shown == 100 * value, column
    unaligned: dict[str, list[int]] = document["unaligned"]  # type: ignore[assignment]
    said = (
        f"{pred.name}: {document['sentences']} sentence pairs scored (gold {document['gold_sentences']}, "
        f"predicted {document['pred_sentences']}); unaligned {len(unaligned['gold'])} gold, "
        f"{len(unaligned['pred'])} predicted; skipped {document['skipped']} (not a tree); detected "
        f"scenario {document['detected_scenario']}"
    )
    captions = [re.sub(r"\\(.)", r"\1", c.value) for c in at.caption]
    assert any(c.startswith(said) for c in captions), (said, captions)


@pytest.mark.slow
@pytest.mark.timeout(900)  # three examples, each the command and the page on 416 sentences
@needs_data
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    x=drawn_settings(LatticeSettings, {}, LATTICE_LINKED),
    system=st.sampled_from(["UDPipe-Future", "conll18-baseline"]),
)
def test_lattice_page_shows_the_commands_numbers(x: LatticeSettings, system: str) -> None:
    """A CoNLL 2018 system's raw-text parse of French GSD and the task's gold, uploaded to the Lattice
    page opened on a link, against ``evalcore lattice --format json`` on the same files with the same
    settings: the scenario row (SEGEVAL, the aligned attachment scores, TEDEVAL, token accuracy), its
    signature and the sentences scored, unaligned and skipped."""
    _lattice(x, system)


@pytest.mark.slow
@needs_data
def test_lattice_page_shows_the_commands_numbers_example() -> None:
    """One example of the property: XPOS tags, the 2011 protocol, full relation labels."""
    _lattice(LatticeSettings(tag_column="fpos", protocol="2011", labels="full"), "UDPipe-Future")


# the atlas page: French GSD's golds and parses, the command's --format json on the same files

ATLAS_OFFERED = ("protocol", "skip_mismatched")
"""The experiment's settings the Atlas page offers (its settings form's fields)."""
ATLAS_LINKED = tuple(d for d in declared(TedevalSettings) if d.name in ATLAS_OFFERED)


def _atlas(x: TedevalSettings, target: int, labeled: bool, grouping: str) -> None:
    loaded = load_builtin(builtin("fr_gsd"))
    argv = ["atlas", "--no-ranking", *command_line(x)]
    for s in atlas_schemes(loaded):
        argv += ["--scheme", s.name, str(ASSETS / str(s.gold.path))]
        argv += [f"{p.name}={ASSETS / str(p.path)}" for p in s.parses]
    document = _command(argv)
    cells: list[dict[str, Any]] = document["cells"]  # type: ignore[assignment]
    names = list(dict.fromkeys(c["target"] for c in cells))
    chosen = sorted(names)[target % len(names)]
    scripts = "labeled" if labeled else "unlabeled"
    query = {"data": "fr_gsd", **_declared_link(x, ATLAS_LINKED)}
    at = _open("pages/6_Atlas.py", query | {"against": chosen, "scripts": scripts, "grouping": grouping})
    groups: list[dict[str, Any]] = document["groups"]  # type: ignore[assignment]
    expected = sorted(
        (g["parse"], g["group"], g["counted"], g["discounted"], round(100 * g["share"], 1), g["n_sentences"])
        for g in groups
        if (g["target"], g["labeled"], g["grouping"]) == (chosen, labeled, grouping)
    )
    if not expected:  # every analysis equals the target: the page says so, with no table
        assert any("No operation against this target" in i.value for i in at.info)
        return
    table = next(df.value for df in at.dataframe if "share of δ" in df.value.columns)
    shown = sorted(
        (str(r[0]), str(r[1]), int(r[2]), int(r[3]), float(r[4]), int(r[5]))
        for r in table[["parse", "group", "counted", "discounted", "share of δ", "sentences"]].itertuples(
            index=False
        )
    )
    assert shown == expected
    caption = next(c.value for c in at.caption if "Signature:" in c.value)
    assert caption == (
        f"{document['sentences']} sentences; skipped {document['skipped_mismatched']} (words differ), "
        f"{document['skipped_invalid']} (not a tree). Signature: `{document['signature']}`"
    )


@pytest.mark.slow
@pytest.mark.timeout(900)  # three examples, each the command and the page on 416 sentences
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    x=drawn_settings(TedevalSettings, {}, ATLAS_LINKED),
    target=st.integers(0, 2),
    labeled=st.booleans(),
    grouping=st.sampled_from(GROUPINGS),
)
def test_atlas_page_shows_the_commands_numbers(
    x: TedevalSettings, target: int, labeled: bool, grouping: str
) -> None:
    """French GSD's UD and SUD golds and spaCy's parses on the Atlas page, opened on a link (the
    experiment's settings, the target, the scripts, the grouping), against ``evalcore atlas --format
    json`` on the same files with the same settings: every group's operations counted and
    discounted, its share of the distance and its sentences, the sentences skipped, the signature."""
    _atlas(x, target, labeled, grouping)


@pytest.mark.slow
def test_atlas_page_shows_the_commands_numbers_example() -> None:
    """One example of the property: the 2011 protocol, labeled scripts by construction against the
    first target in name order."""
    _atlas(TedevalSettings(protocol="2011", skip_mismatched=True), 0, True, "construction")
