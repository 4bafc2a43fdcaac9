"""evalcore: cross-annotation parser evaluation (TedEval, FREVAL, NED, PARSEVAL, attachment).

A pure library with a command line (``evalcore --help``); it never imports
streamlit.  See ``docs/`` for what every number means.
"""

from evalcore.errors import (
    EvalcoreError,
    InputFormatError,
    MismatchError,
    TreeStructureError,
    UnificationError,
)
from evalcore.trees import Arc, DepTree, EditOp, Lattice, MFNode, MFTree, Node, Source, Token, Tree
from evalcore.version import __version__

__all__ = [
    "Arc",
    "DepTree",
    "EditOp",
    "EvalcoreError",
    "InputFormatError",
    "Lattice",
    "MFNode",
    "MFTree",
    "MismatchError",
    "Node",
    "Source",
    "Token",
    "Tree",
    "TreeStructureError",
    "UnificationError",
    "__version__",
]
