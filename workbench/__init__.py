"""UI support for the Streamlit workbench (``app.py``, ``pages/``): datasets, caches, widgets.

Only the app imports this package; ``evalcore`` never imports streamlit.

* :mod:`workbench.datasets` -- the built-in dataset registry, format detection,
  pairing of gold and system sentences (no streamlit).
* :mod:`workbench.cache` -- ``st.cache_resource`` / ``st.cache_data`` wrappers
  keyed on file content and settings, with progress bars.
* :mod:`workbench.widgets` -- dataset choice and uploads, the sentence picker,
  figures with SVG/DOT downloads, CSV downloads, URL (deep link) sync.
"""
