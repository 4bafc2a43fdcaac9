"""evalcore workbench -- the entry point: page configuration and navigation, nothing else.

Run with ``make app`` (see README).  The home page is the sentence inspector
(:mod:`workbench.inspector`); the other pages live in ``pages/``.  Every
number shown is computed by ``evalcore``; ``workbench/`` holds the views,
shared widgets and caches.
"""

from __future__ import annotations

import streamlit as st

from workbench.cache import app_limits
from workbench.inspector import home
from workbench.sessions import hold_session

st.set_page_config(page_title="evalcore workbench", layout="wide")
hold_session(app_limits().session_bytes)  # what this session holds: bounded, and released when it ends
st.navigation(
    [
        home(),
        st.Page("pages/1_Cross_scheme.py", title="Cross scheme", url_path="Cross_scheme"),
        st.Page("pages/2_FREVAL.py", title="FREVAL", url_path="FREVAL"),
        st.Page("pages/3_Lattice.py", title="Lattice", url_path="Lattice"),
        st.Page("pages/4_NED.py", title="Attachment & NED", url_path="NED"),
        st.Page("pages/5_Tour.py", title="Tour", url_path="Tour"),
        st.Page("pages/6_Atlas.py", title="Atlas", url_path="Atlas"),
    ]
).run()
