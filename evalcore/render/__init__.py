"""Drawings as data, then small writers (SVG, DOT) that escape every string.

* :mod:`evalcore.render.layout` -- pure geometry of a dependency drawing
  (displaCy style), compared against a gold tree or not.
* :mod:`evalcore.render.svg` -- SVG for that geometry.
* :mod:`evalcore.render.dot` -- DOT for trees, multi-function trees, lattices
  and dependency drawings.
* :mod:`evalcore.render.text` -- the one place that neutralizes and escapes text.

No streamlit, no I/O.
"""

from evalcore.render.dot import NODE_STYLES, dep_to_dot, lattice_to_dot, tree_to_dot
from evalcore.render.layout import ArcBox, DepLayout, LayoutStyle, WordBox, layout_dep
from evalcore.render.svg import STATUS_STYLES, dep_svg

__all__ = [
    "NODE_STYLES",
    "STATUS_STYLES",
    "ArcBox",
    "DepLayout",
    "LayoutStyle",
    "WordBox",
    "dep_svg",
    "dep_to_dot",
    "lattice_to_dot",
    "layout_dep",
    "tree_to_dot",
]
