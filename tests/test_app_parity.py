"""The parity property's workbench leg (docs/architecture.md, "The registry of metric families"):
settings drawn from a family's declaration, given to a page through its link (the ``link=`` keys
of the declaration), give on the rendered page the numbers the API's ``to_dict()`` gives for the
same settings on the same built-in data.  The numbers are read from the page (its metrics, its
tables), never from the function the page calls.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_view import table_with
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

import evalcore
from evalcore.declare import declared
from evalcore.families.freval import FrevalSettings
from workbench.freval_view import BUILTIN_PRM
from workbench.settings_form import link_text

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


@st.composite
def freval_settings(draw: st.DrawFn) -> FrevalSettings:
    """The settings the FREVAL page binds, each drawn from its declaration's kind (the parameter
    file among those the dataset offers)."""
    values: dict[str, object] = {}
    for d in LINKED:
        if d.name == "prm":
            values[d.name] = draw(st.sampled_from([*PRMS, BUILTIN_PRM]))
        elif d.kind == "flag":
            values[d.name] = draw(st.booleans())
        elif d.kind == "str":
            values[d.name] = draw(st.sampled_from(["-=", "-=*", "="]))
        elif d.name == "max_size":
            values[d.name] = draw(st.sampled_from([None, 1, 3, 20]))
        else:
            values[d.name] = draw(st.sampled_from([None, 0, 3, 8, 40, 1000]))
    return FrevalSettings(**values)  # type: ignore[arg-type]


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
