"""The bound on a request's search (docs/robustness.md, "Pattern searches"): every candidate word a
search draws is one step of ``--max-pattern-steps`` (``Limits.pattern_steps``), bound or rejected,
``without`` blocks included; the step past the limit is a ``PatternLimitError`` naming the request's
file and line, the sentence and the flag, and the command line exits 2 with it.

The counts of steps are hand counts on hand-made trees, explained next to each.
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import CliResult, run_module

from evalcore.errors import LimitError, PatternError, PatternLimitError
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.patterns import (
    constructions,
    count,
    found,
    matches,
    parse_pattern_file,
    parse_request,
    search_steps,
    where,
)
from evalcore.trees import DepTree, Token

RunCli = Callable[..., CliResult]
WriteFile = Callable[[str, str | bytes], str]

FR = Path(__file__).resolve().parents[1] / "assets" / "fr_gsd"
LONG = "fr-ud-test_00055"  # the longest sentence of French-GSD UD test: 91 words
SIX = "pattern { A []; B []; C []; D []; E []; F [] }"  # 91·90·89·88·87·86 ≈ 4.8·10^11 bindings there
FLAG = "raise with --max-pattern-steps or EVALCORE_MAX_PATTERN_STEPS"


def tree(*rows: tuple[str, str, int, str], sent_id: str = "s1") -> DepTree:
    """A tree from (form, upos, head, deprel) rows."""
    return DepTree(
        tuple(
            Token(k, form, form.lower(), upos, "_", "_", head, rel)
            for k, (form, upos, head, rel) in enumerate(rows, 1)
        ),
        sent_id=sent_id,
    )


# "Le chat dort bien": dort (3) is the root, chat (2) its nsubj, bien (4) its advmod, Le (1) chat's det.
SENTENCE = tree(
    ("Le", "DET", 2, "det"),
    ("chat", "NOUN", 3, "nsubj"),
    ("dort", "VERB", 0, "root"),
    ("bien", "ADV", 3, "advmod"),
)


def _limit(n: int) -> Limits:
    return Limits(pattern_steps=n)


def _error(fn: Callable[[], object]) -> PatternLimitError:
    with pytest.raises(PatternLimitError) as info:
        fn()
    return info.value


def test_two_free_nodes_the_bound_is_exact() -> None:
    """``pattern { A []; B [] }`` on 4 words.  Neither node is constrained nor reached by an edge:
    A is scanned (words 1..4: 4 steps), and for each of the 4 words bound to A, B is scanned (words
    1..4: 4 steps each, the one equal to A's word tried and rejected by injectivity): 4 + 4·4 = 20
    steps, 4·3 = 12 bindings.  The 20th step is B's word 4 under A = 4, rejected: a rejected
    candidate is a step too."""
    request = parse_request("pattern { A []; B [] }", file="two.req", line=3)
    assert count(request, [SENTENCE], limits=_limit(20)) == 12
    assert len(list(matches(request, SENTENCE, limits=_limit(20)))) == 12
    assert search_steps(request, SENTENCE) == 20
    err = _error(lambda: count(request, [SENTENCE], limits=_limit(19)))
    assert isinstance(err, LimitError) and isinstance(err, PatternError) and err.limit == "pattern_steps"
    assert str(err) == (
        "two.req:3: the request's search in sentence s1 tried more than 19 candidate words "
        f"(limit 19; {FLAG})"
    )
    assert (err.file, err.line, err.sentence) == ("two.req", 3, "s1")


def test_found_stops_at_the_first_binding_and_spends_only_what_it_tried() -> None:
    """``found`` stops at the first binding: A = 1 (1 step), B = 1 rejected (2), B = 2 (3): a
    binding after 3 steps."""
    request = parse_request("pattern { A []; B [] }")
    assert found(request, SENTENCE, limits=_limit(3))
    _error(lambda: found(request, SENTENCE, limits=_limit(2)))


def test_without_blocks_spend_the_same_budget() -> None:
    """``pattern { V [upos=VERB]; V -> X } without { X -> Y }``: V is scanned among the VERBs (dort:
    1 step); X is drawn from dort's children (chat, bien: 2 steps).  For X = chat, the ``without``
    block draws Y from chat's children (Le: 1 step), which extends the binding: rejected.  For
    X = bien, Y has no candidate (0 steps): kept.  1 + 2 + 1 = 4 steps, 1 binding; the steps in order
    are V = dort, X = chat, Y = Le, X = bien, so with 3 the ``without`` block's step is the last
    allowed and X = bien is the one past the limit."""
    request = parse_request("pattern { V [upos=VERB]; V -> X } without { X -> Y }")
    assert [b.items() for b in matches(request, SENTENCE, limits=_limit(4))] == [(("V", 3), ("X", 4))]
    assert search_steps(request, SENTENCE) == 4
    _error(lambda: list(matches(request, SENTENCE, limits=_limit(3))))


def test_an_edge_from_a_bound_node_draws_only_its_children() -> None:
    """``pattern { H [upos=VERB]; H -[nsubj]-> S }``: H among the VERBs (dort: 1 step), S among
    dort's children whose relation is nsubj (chat: 1 step): 2 steps, where scanning every word for
    S would take 1 + 4."""
    request = parse_request("pattern { H [upos=VERB]; H -[nsubj]-> S }")
    assert search_steps(request, SENTENCE) == 2
    assert count(request, [SENTENCE], limits=_limit(2)) == 1
    _error(lambda: count(request, [SENTENCE], limits=_limit(1)))


def test_each_entry_of_a_pattern_file_has_its_own_budget_and_is_named_by_its_line() -> None:
    """The first entry takes 1 step (V = dort: X is dort), the second 20 (the two free nodes of
    ``test_two_free_nodes_the_bound_is_exact``): each entry's search has the whole limit, so 20
    passes, and with 19 the error names the second entry's line (5) of the file."""
    pf = parse_pattern_file(
        "% two entries\nconstruction verb\npattern { X [upos=VERB] }\nconstruction pair\n"
        "pattern { X []; B [] }\n",
        "two.pat",
    )
    assert constructions(pf, SENTENCE, limits=_limit(20)) == ("pair", "pair", "verb", "pair")
    err = _error(lambda: constructions(pf, SENTENCE, limits=_limit(19)))
    assert str(err).startswith("two.pat:5: the request's search in sentence s1 tried more than 19 ")


def test_a_restriction_searches_under_the_limits_it_was_made_with() -> None:
    """``where(..., limits=...)`` keeps its limits (the command's) for every ``covered``; they are no
    part of its equality (settings are cache keys)."""
    text = "pattern { A []; B [] }"
    assert where(text, limits=_limit(20)).covered(SENTENCE) == {1, 2, 3, 4}
    err = _error(lambda: where(text, limits=_limit(19)).covered(SENTENCE))
    assert str(err).startswith("--where:1: ")
    assert where(text, limits=_limit(19)) == where(text)
    assert where(text).limits is DEFAULT_LIMITS


def _long_sentence(write_file: WriteFile) -> str:
    """The block of French-GSD UD test's longest sentence (91 words), alone in a file."""
    with gzip.open(FR / "fr_gsd-ud-test.r2.16.conllu.gz", "rt", encoding="utf-8") as fh:
        blocks = fh.read().split("\n\n")
    block = next(b for b in blocks if f"# sent_id = {LONG}\n" in b)
    return write_file("long.conllu", block.strip("\n") + "\n\n")


def test_attach_where_exits_2_naming_the_flag_and_the_sentence(
    run_cli: RunCli, write_file: WriteFile
) -> None:
    gold = _long_sentence(write_file)
    res = run_cli("attach", gold, gold, "--where", SIX, "--max-pattern-steps", "20000")
    assert res.code == 2 and res.out == ""
    assert res.err_lines == [
        f"--where:1: the request's search in sentence {LONG} tried more than 20000 candidate words "
        f"(limit 20000; {FLAG})"
    ]


def test_the_environment_variable_sets_it_too(
    run_cli: RunCli, write_file: WriteFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    gold = _long_sentence(write_file)
    request = write_file("six.req", f"{SIX}\n")
    monkeypatch.setenv("EVALCORE_MAX_PATTERN_STEPS", "5000")
    res = run_cli("attach", gold, gold, "--where", request)
    assert res.code == 2
    assert f"{request}:1: the request's search in sentence {LONG} tried more than 5000" in res.err


def test_atlas_pattern_exits_2_naming_the_entry(run_cli: RunCli, write_file: WriteFile) -> None:
    gold = _long_sentence(write_file)
    pat = write_file("six.pat", f"construction verb\npattern {{ X [upos=VERB] }}\nconstruction six\n"
                     f"{SIX.replace('A []', 'X []')}\n")  # fmt: skip
    res = run_cli("atlas", "--scheme", "ud", gold, gold, "--pattern", pat, "--max-pattern-steps", "20000")
    assert res.code == 2
    assert f"{pat}:4: the request's search in sentence {LONG} tried more than 20000" in res.err
    assert FLAG in res.err and "Traceback" not in res.err


def test_the_default_stops_an_exploding_request_quickly(write_file: WriteFile) -> None:
    """The six free nodes on a 91-word sentence have about 4.8·10^11 bindings: under the default
    limit the command (a fresh interpreter, the real entry point) ends with exit code 2 long before
    the subprocess' generous timeout (120 s, ``run_module``): about 2 s on a 2-core machine at load 3."""
    gold = _long_sentence(write_file)
    start = time.monotonic()
    done = run_module("attach", gold, gold, "--where", SIX)
    took = time.monotonic() - start
    assert done.returncode == 2 and done.stdout == ""
    limit = DEFAULT_LIMITS.pattern_steps
    assert f"--where:1: the request's search in sentence {LONG} tried more than {limit}" in done.stderr
    assert FLAG in done.stderr and "Traceback" not in done.stderr
    assert took < 60, took
