"""The inspector's filter "sentences matching a pattern" (docs/patterns.md): from a link, the
sentence list keeps exactly the sentences one of whose gold trees the request matches -- counted
here from the CoNLL-U files line by line, apart from the matcher; a malformed request is said and
left out of the filters."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from test_app_inspector import sentence_label
from test_app_tedeval import no_exception, run_app

FR = Path(__file__).resolve().parents[1] / "assets" / "fr_gsd"
GOLDS = (FR / "fr_gsd-ud-test.r2.16.conllu.gz", FR / "fr_gsd-sud-test.r2.16.conllu.gz")


def _sentences_with(relation: str) -> int:
    """How many sentences have a word of ``relation`` (its DEPREL without a SUD '@' part) in any of
    the golds, read line by line (the golds have the same sentences in the same order)."""
    found: set[int] = set()
    for path in GOLDS:
        k = 0
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            lines = fh.readlines()
        for line in lines:
            if not line.strip():
                k += 1
            elif not line.startswith("#"):
                cols = line.rstrip("\n").split("\t")
                if cols[0].isdigit() and cols[7].split("@")[0] == relation:
                    found.add(k)
    return len(found)


@pytest.mark.slow
def test_a_pattern_from_a_link_keeps_the_sentences_it_matches() -> None:
    expected = _sentences_with("cop")
    assert 100 < expected < 416  # the copula is common, not everywhere
    at = run_app(data="fr_gsd", pattern="pattern { H -[cop]-> X }")
    no_exception(at)
    assert "Filters (1 active)" in [e.label for e in at.expander]
    assert sentence_label(at) == f"Sentence ({expected} of 416)"
    assert at.query_params["pattern"] == "pattern { H -[cop]-> X }"


@pytest.mark.slow
def test_a_malformed_pattern_is_said_and_not_used() -> None:
    at = run_app(data="fr_gsd", pattern="pattern { H -[]-> X }")
    no_exception(at)
    said = " ".join(e.value for e in at.error)
    assert "The pattern is not used" in said and "pattern:1:" in said and "bad label list" in said
    assert sentence_label(at) == "Sentence (416 of 416)"


@pytest.mark.slow
def test_a_pattern_past_the_step_limit_is_said_and_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """Six free nodes whose first and last must each come before the other, under
    EVALCORE_MAX_PATTERN_STEPS=20000 (docs/robustness.md, "Pattern searches").  No binding exists
    (the filter stops at the first binding, so six free nodes alone would match at once), and the
    order is checked only when F, the last node, is bound: on an n-word sentence the search draws n
    candidates for A and n for each next node under each injective binding of the ones before,
    n + n·n + n·n(n−1) + … + n·n(n−1)…(n−4) steps: 7,422 for 6 words, 25,340 for 7.  The first
    sentence (29 words) passes the limit: the inspector says so, naming the request's line, the
    sentence and the flag, and keeps every sentence."""
    monkeypatch.setenv("EVALCORE_MAX_PATTERN_STEPS", "20000")
    at = run_app(data="fr_gsd", pattern="pattern { A []; B []; C []; D []; E []; F []; A << F; F << A }")
    no_exception(at)
    said = " ".join(e.value for e in at.error)
    assert "The pattern is not used: pattern:1: the request's search in sentence fr-ud-test_00001" in said
    assert "(limit 20000; raise with --max-pattern-steps or EVALCORE_MAX_PATTERN_STEPS)" in said
    assert sentence_label(at) == "Sentence (416 of 416)"
