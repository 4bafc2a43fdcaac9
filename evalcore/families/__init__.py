"""The metric families' declarations, one module each; the registry is :mod:`evalcore.registry`."""
