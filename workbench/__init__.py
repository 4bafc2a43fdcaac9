"""UI support for the Streamlit workbench (``app.py``, ``pages/``): datasets, caches, widgets and
the pages' views (docs/architecture.md).  Only the app imports this package; ``evalcore`` never
imports streamlit.
"""
