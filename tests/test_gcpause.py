"""The cyclic garbage collector paused for a computation (evalcore.gcpause): off inside, restored
after, on an error too; the experiment leaves it as it found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from evalcore.gcpause import paused_gc


@pytest.fixture
def gc_state() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("gc_state")
@pytest.mark.parametrize("enabled", [True, False])
def test_the_state_is_restored(enabled: bool) -> None:
    gc.enable() if enabled else gc.disable()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():  # nested: the inner one leaves it off
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled() is enabled


@pytest.mark.usefixtures("gc_state")
def test_an_error_restores_it() -> None:
    gc.enable()
    with pytest.raises(ValueError), paused_gc():
        raise ValueError("inside")
    assert gc.isenabled()


@pytest.mark.usefixtures("gc_state")
def test_the_experiment_leaves_it_on() -> None:
    import evalcore

    gc.enable()
    gold = str(Path(__file__).resolve().parents[1] / "assets" / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz")
    evalcore.tedeval({"ud": (gold, {"p": gold})}, shuffles=10)
    assert gc.isenabled()
