"""evalcore: cross-annotation parser evaluation (TedEval, FREVAL, NED, PARSEVAL, attachment).

The public API is docs/api.md (``evalcore.read``, ``evalcore.attach``...); a library with a command
line (``evalcore --help``) that never imports streamlit.  Importing it is light: each function
imports its metric when called (tests/test_startup.py checks it).
"""

# The subpackage evalcore.lattice is loaded before the function evalcore.lattice is bound: Python
# sets a package's attribute when it first loads a subpackage, and would otherwise replace the
# function by the subpackage as soon as anything imported evalcore.lattice.reading.
import sys
import types

from evalcore import lattice as _lattice_package  # noqa: F401  (see above)
from evalcore.api import Input, align_labels, atlas, attach, freval, inspect, lattice, parseval, read, tedeval
from evalcore.errors import (
    EvalcoreError,
    InputFormatError,
    MismatchError,
    TreeStructureError,
    UnificationError,
)
from evalcore.trees import Arc, DepTree, EditOp, Lattice, MFNode, MFTree, Node, Source, Token, Tree
from evalcore.version import __version__


class _Package(types.ModuleType):
    """This package, whose attribute ``atlas`` stays the API's function when the module
    :mod:`evalcore.atlas` is first imported (Python sets a package's attribute to each submodule it
    loads; the module is imported by the function itself, so it cannot be loaded first as
    :mod:`evalcore.lattice` is above)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "atlas" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = [
    "Arc",
    "DepTree",
    "EditOp",
    "EvalcoreError",
    "Input",
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
    "align_labels",
    "atlas",
    "attach",
    "freval",
    "inspect",
    "lattice",
    "parseval",
    "read",
    "tedeval",
]
