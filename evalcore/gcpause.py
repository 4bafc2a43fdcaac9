"""The cyclic garbage collector paused for a computation (docs/decisions.md, "The cyclic garbage
collector is paused while an experiment runs").

Reference counting frees almost everything an experiment makes; what the cyclic collector adds is
its full passes over every live object (the trees of every file), which took a third of the time
of the experiment over a parse of raw text.  Its state is restored on the way out: if it was
running, it runs again (and collects what cycles were left, such as the CoNLL 2018 alignment's
words)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]


@contextmanager
def paused_gc() -> Iterator[None]:
    """Run the body with the cyclic garbage collector off; it is on again after if it was before."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
