"""The version of evalcore, printed at the end of every signature (``...|v0.1.0``)."""

__version__ = "0.1.0"
