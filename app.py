"""evalcore workbench: the home page (sentence inspector).

Run with ``make app`` (see README).  Pages live in ``pages/``; every number
shown is computed by ``evalcore``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from evalcore.formats.conllu import read_conllu
from evalcore.metrics.attachment import AttachConfig, attach_corpus

ASSETS = Path(__file__).parent / "assets"

st.set_page_config(page_title="evalcore workbench", layout="wide")
st.title("evalcore — cross-annotation parser evaluation")

gold = ASSETS / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz"
other = ASSETS / "fr_gsd" / "fr_gsd-sud-test.r2.16.conllu.gz"
if gold.exists() and other.exists():
    result = attach_corpus(read_conllu(gold), read_conllu(other), AttachConfig())
    st.write("French-GSD test, the UD gold scored against the SUD gold (same sentences, two schemes):")
    cols = st.columns(5)
    for col, (name, value) in zip(
        cols,
        [("UAS", result.score.uas), ("LAS", result.score.las), ("undirected", result.score.undirected),
         ("NED", result.score.ned), ("sentences", result.score.sentences)],
        strict=True,
    ):
        col.metric(name, f"{value:.4f}" if isinstance(value, float) else value)
