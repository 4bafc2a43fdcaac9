"""Hand-offs between pages: files uploaded on one page opened on another, without uploading them again.

The inspector compares a parse with its gold word by word; a parse of raw text (a segmentation of
its own: Hebrew prefixes split differently, a token merged) has other words than the gold and
cannot be compared there.  The Lattice page scores exactly that (SEGEVAL and TedEval over the
lattice, docs/lattice.md, "What is compared").  :func:`offer_lattice_page` says so in the inspector
and, on a click, carries the inspector's uploads into the Lattice page's upload slots (:func:`lattice_slots`,
:func:`carry_to_lattice`) and switches to that page.

The bytes are not copied (the slots hold the same ``bytes`` objects) and are only read, as every
upload; each carried file is checked by the Lattice page's own validators first, and a file it
cannot read is named, not carried.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass

import streamlit as st

from workbench.lattice_view import (
    GOLD_SLOTS,
    PRED_SLOTS,
    file_stem,
    validate_ambiguity,
    validate_analysis,
    validate_lattice_file,
)
from workbench.text import md_escape
from workbench.uploads import UPLOAD_KEY, Upload, UploadRecord, clear_slots

__all__ = [
    "LATTICE_PAGE",
    "LatticeHandoff",
    "carry_to_lattice",
    "lattice_slots",
    "offer_lattice_page",
]

LATTICE_PAGE = "pages/3_Lattice.py"
_SLOTS = (*GOLD_SLOTS, *PRED_SLOTS)


@dataclass(frozen=True, slots=True)
class LatticeHandoff:
    """What goes into each Lattice page slot (slot key -> files), and what could not go (messages)."""

    slots: tuple[tuple[str, tuple[Upload, ...]], ...]
    problems: tuple[str, ...] = ()

    def files(self, slot: str) -> tuple[Upload, ...]:
        return next((files for key, files in self.slots if key == slot), ())

    @property
    def scorable(self) -> bool:
        """A gold and at least one predicted file: the Lattice page can score them."""
        return bool(self.files("lattice_gold")) and bool(self.files("lattice_preds"))


def lattice_slots(records: Sequence[UploadRecord]) -> LatticeHandoff:
    """The inspector's uploads sorted into the Lattice page's slots.

    The first gold goes to "Gold file"; every parse to "Predicted file(s)"; a lattice file whose
    stem is the gold's goes with the gold (``--gold-lattice``), one whose stem is a parse's with
    that parse (``--pred-lattice``: lattice, mapping or segmentation), any other lattice file is
    the gold sentences' ambiguity lattice (the first one; the slot takes one).  ``.tokens`` and
    parameter files have no slot there and are named in ``problems``, as every file the Lattice
    page's validators refuse (with their message).
    """
    problems: list[str] = []
    slots: dict[str, list[Upload]] = {key: [] for key in _SLOTS}

    def put(slot: str, r: UploadRecord, error: str | None) -> None:
        if error is not None:
            problems.append(error)
        else:
            slots[slot].append(Upload(r.file or r.name, r.data, r.size))

    golds = [r for r in records if r.role == "gold"]
    parses = [r for r in records if r.role == "parse"]
    for r in golds[:1]:
        put("lattice_gold", r, validate_analysis(r.file or r.name, r.data))
    for r in golds[1:]:
        problems.append(f"{r.file or r.name}: the Lattice page takes one gold file; not carried")
    for r in parses:
        put("lattice_preds", r, validate_analysis(r.file or r.name, r.data))
    gold_stems = {file_stem(r.file or r.name) for r in golds[:1]}
    parse_stems = {file_stem(r.file or r.name) for r in parses}
    for r in records:
        name = r.file or r.name
        if r.role == "lattice":
            if file_stem(name) in gold_stems and not slots["lattice_gold_lattice"]:
                put("lattice_gold_lattice", r, validate_lattice_file(name, r.data))
            elif file_stem(name) in parse_stems:
                put("lattice_pred_lattices", r, validate_lattice_file(name, r.data))
            elif not slots["lattice_ambiguity"]:
                put("lattice_ambiguity", r, validate_ambiguity(name, r.data))
            else:
                problems.append(f"{name}: a second ambiguity lattice file; not carried")
        elif r.role not in ("gold", "parse"):
            problems.append(f"{name}: the Lattice page has no slot for a {r.role} file; not carried")
    return LatticeHandoff(
        tuple((key, tuple(files)) for key, files in slots.items() if files), tuple(problems)
    )


def carry_to_lattice(state: MutableMapping[str, object], handoff: LatticeHandoff) -> None:
    """Put ``handoff``'s files into the Lattice page's slots in ``state`` (``st.session_state``),
    replacing what those slots held, and choose "Your files (upload)" as the dataset."""
    clear_slots(state, _SLOTS)
    for key, files in handoff.slots:
        state[f"_wb_slot:{key}"] = {u.name: u for u in files}
    state["_wb_dataset"] = UPLOAD_KEY
    state["_wb_data_url"] = UPLOAD_KEY


def offer_lattice_page(*, key: str = "wb_to_lattice") -> LatticeHandoff:
    """In the inspector, when a parse's words differ from its gold's (a parse of raw text): say that
    the Lattice page scores such a parse, and offer a button that opens the uploaded files there.
    Returns what the button carries (nothing is shown if no gold and parse could be carried)."""
    uploads = dict(st.session_state.get("_wb_uploads", {})).values()  # the inspector's, in upload order
    handoff = lattice_slots([r for r in uploads if isinstance(r, UploadRecord)])
    if not handoff.scorable:
        return handoff
    st.info(
        "A parse of raw text (its words are not the gold's, e.g. another segmentation) cannot be "
        "compared word by word here. The Lattice page scores it: segmentation (SEGEVAL) and TedEval "
        "over the lattice (docs/lattice.md, 'What is compared').",
        icon="🔀",
    )
    if st.button("Open these files on the Lattice page", key=key, type="primary"):
        carry_to_lattice(st.session_state, handoff)  # type: ignore[arg-type]
        st.switch_page(LATTICE_PAGE)  # ends this run
    for problem in handoff.problems:
        st.caption(md_escape(problem))
    return handoff
