"""The inspector's raw-text parse opened on the Lattice page (workbench/handoff.py).

yap's output (ב+ה+גן: other words than the gold's ב+גן) uploaded in the inspector with its mapping
and the gold analysis with its lattice path: the inspector cannot compare them word by word; carried
into the Lattice page's slots, the page scores them as when the same files are uploaded there
(TEDEVAL L 80.00, SEGEVAL U 92.31: the command line's numbers for these files, as in
tests/test_app_pages.py::test_lattice_page_uploads_only_and_a_bad_file_keeps_data).
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from workbench.handoff import carry_to_lattice, lattice_slots
from workbench.uploads import UPLOAD_KEY, UploadRecord

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
FIX = ROOT / "tests" / "fixtures"
YAP = ROOT / "assets" / "hebrew_yap"


def _record(name: str, path: Path, fmt: str, role: str) -> UploadRecord:
    data = path.read_bytes()
    return UploadRecord(name, data, fmt, role, len(data), name)  # type: ignore[arg-type]


RECORDS = [
    _record("gold.conll", FIX / "yap_alternative.conll", "conllu", "gold"),
    _record("gold.lattice", FIX / "yap_alternative.lattice", "lattice", "lattice"),
    _record("output.conll", YAP / "output.conll", "conllu", "parse"),
    _record("output.mapping", YAP / "output.mapping", "lattice", "lattice"),
    _record("input.lattice", YAP / "input.lattice", "lattice", "lattice"),
    _record("input.tokens", YAP / "input.txt", "tokens", "tokens"),
]


def test_lattice_slots_sort_the_files_by_role_and_stem() -> None:
    handoff = lattice_slots(RECORDS)
    named = {slot: [u.name for u in files] for slot, files in handoff.slots}
    assert named == {
        "lattice_gold": ["gold.conll"],
        "lattice_gold_lattice": ["gold.lattice"],
        "lattice_preds": ["output.conll"],
        "lattice_pred_lattices": ["output.mapping"],
        "lattice_ambiguity": ["input.lattice"],
    }
    assert handoff.scorable
    assert handoff.problems == ("input.tokens: the Lattice page has no slot for a tokens file; not carried",)
    assert handoff.files("lattice_preds")[0].data is RECORDS[2].data  # not copied
    bad = UploadRecord("broken.conll", b"1\tx\t_\n", "conllu", "parse", 6, "broken.conll")  # type: ignore[arg-type]
    refused = lattice_slots([RECORDS[0], bad])
    assert not refused.scorable and refused.problems[0].startswith("broken.conll")
    state: dict[str, object] = {"_wb_slot:lattice_preds": {"old": None}, "_wb_slot_seen:lattice_preds": {"x"}}
    carry_to_lattice(state, handoff)
    assert set(state["_wb_slot:lattice_preds"]) == {"output.conll"}  # type: ignore[arg-type]
    assert "_wb_slot_seen:lattice_preds" not in state
    assert state["_wb_dataset"] == UPLOAD_KEY


def test_carried_files_are_scored_on_the_lattice_page() -> None:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["data"] = "upload"
    at.run()
    for role, r in (("gold", RECORDS[0]), ("parse", RECORDS[2]), ("parse", RECORDS[3]), ("gold", RECORDS[1])):
        at.file_uploader(key=f"wb_upload_{role}").upload(r.name, r.data).run()
    assert not at.exception
    # the inspector refuses to compare the raw-text parse word by word
    assert any("not compared with gold.conll" in w.value for w in at.warning)
    records = [r for r in at.session_state["_wb_uploads"].values()]
    handoff = lattice_slots(records)
    assert handoff.scorable and handoff.problems == ()
    state: dict[str, object] = {}
    carry_to_lattice(state, handoff)
    for k, v in state.items():
        at.session_state[k] = v
    at.switch_page("pages/3_Lattice.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="wb_dataset").value == UPLOAD_KEY
    m = {x.label: x.value for x in at.metric}
    assert m["TEDEVAL L (sentence)"] == "80.00" and m["SEGEVAL U (sentence)"] == "92.31", m


def test_the_inspector_offers_the_lattice_page_and_its_button_opens_it() -> None:
    """The inspector's one call (offer_lattice_page): its button carries the uploads and switches page;
    the Lattice page then shows the command line's numbers for these files."""
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["data"] = "upload"
    at.run()
    for role, r in (("gold", RECORDS[0]), ("parse", RECORDS[2]), ("parse", RECORDS[3]), ("gold", RECORDS[1])):
        at.file_uploader(key=f"wb_upload_{role}").upload(r.name, r.data).run()
    assert not at.exception
    assert any("The Lattice page scores it" in i.value for i in at.info)
    at.button(key="wb_to_lattice").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="wb_dataset").value == UPLOAD_KEY
    m = {x.label: x.value for x in at.metric}
    assert m["TEDEVAL L (sentence)"] == "80.00" and m["SEGEVAL U (sentence)"] == "92.31", m
