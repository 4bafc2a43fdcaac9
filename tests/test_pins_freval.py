"""FREVAL behaviours pinned to the FREVAL Java tool's output and to hand counts.

* ``--cutoff-len N`` keeps the sentences of *exactly* N words (evalb's ``Len.``: gold words, the
  period counted, ``-NONE-`` not), as the tool's ``Freval.cutOffLengths`` block does;
* α's L, unlimited, is the largest valid *gold* tree (docs/freval.md; Bastings & Sima'an §3:
  α_max = 1 is "the Exact Match for the largest trees in the treebank"), not the test's;
* rescoring counts made with a size limit, at that limit and below it, gives the tool's numbers
  at each limit, and refuses the sizes that were not counted.

The tool's outputs and the inputs are in ``tests/fixtures/reference/pins`` (``COMMANDS.txt``:
the exact commands); the hand counts are written out in each test.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from ec_support import ASSETS

import evalcore
from evalcore.cli import main

PINS = Path(__file__).resolve().parent / "fixtures" / "reference" / "pins"
COLLINS = ASSETS / "evalb" / "COLLINS.prm"
CUTOFF = (str(PINS / "freval_cutoff.gld"), str(PINS / "freval_cutoff.tst"))
ALPHA = (str(PINS / "freval_alpha.gld"), str(PINS / "freval_alpha.tst"))


@dataclass(frozen=True)
class Block:
    """One ``=== Summary (...) ===`` block of the FREVAL tool."""

    sentences: tuple[int, int, int, int]  # all, error, skip, valid
    rows: dict[int, tuple[int, int, int]]  # size -> matched, gold, test
    total: tuple[str, str, str]  # the mixed R, P, F1 as printed (percent, 2 decimals)
    weights: tuple[float, ...]  # the a(n) column


def tool_blocks(name: str) -> dict[str, Block]:
    text = (PINS / name).read_text(encoding="utf-8")
    out = {}
    for title, body in re.findall(r"=== Summary \((.*?)\) ===\n(.*?)(?=\n\n\n|\Z)", text, re.S):
        counts = tuple(
            int(re.search(rf"^Number of {k}\s*=\s*(\d+)$", body, re.M).group(1))  # type: ignore[union-attr]
            for k in ("sentence", "Error sentence", "Skip  sentence", "Valid sentence")
        )
        rows, weights = {}, []
        for m in re.finditer(
            r"^\s+(\d+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)$", body, re.M
        ):
            rows[int(m.group(1))] = (int(m.group(3)), int(m.group(4)), int(m.group(5)))
            weights.append(float(m.group(2)))
        total = re.search(r"^-+\n\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", body, re.M)
        assert total is not None
        out[title] = Block(counts, rows, (total.group(1), total.group(2), total.group(3)), tuple(weights))  # type: ignore[arg-type]
    return out


def tool_lengths(name: str) -> dict[int, int]:
    """The tool's per-sentence ``Len`` column (ID -> Len)."""
    text = (PINS / name).read_text(encoding="utf-8")
    return {int(i): int(n) for i, n in re.findall(r"^\s+(\d+)\s+(\d+)\s+1\s", text, re.M)}


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


# ---------------------------------------------------------------------------
# --cutoff-len N at exactly N words


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_cutoff_len_keeps_sentences_of_exactly_n_words(
    limit: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hand count of evalb's length (``Len.``) of the five sentences: 4 (The cat sat down), 4 (It ran
    away . : the period counts), 5 (The dog ate bones . : 4 words are left after the period is
    deleted, but its length is 5), 4 (``-NONE-`` came back home . : the trace does not count), 3.
    ``--cutoff-len 4`` keeps sentences 1, 2, 4 and 5 -- three of them of exactly 4 words -- as the
    FREVAL tool's ``Summary (len<=4)`` block does, with its per-size counts at limits 1-3."""
    name = f"freval_cutoff.L{limit}.txt"
    assert tool_lengths(name) == {1: 4, 2: 4, 3: 5, 4: 4, 5: 3}
    block = tool_blocks(name)["len<=4"]
    assert block.sentences == (4, 0, 0, 4)
    # the command line
    argv = ["freval", *CUTOFF, "--prm", str(COLLINS), "--max-size", str(limit), "--cutoff-len", "4"]
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["sentences"], data["errors"], data["skipped"], data["valid"]) == block.sentences
    assert {r["size"]: (r["matched"], r["gold"], r["test"]) for r in data["per_size"]} == block.rows
    # the API, with every sentence's length kept
    result = evalcore.freval(*CUTOFF, prm=COLLINS, max_size=limit, cutoff_len=4)
    assert [c.length for c in result.comparisons] == [4, 4, 5, 4, 3]
    assert {r.size: (r.matched, r.gold, r.test) for r in result.score.per_size} == block.rows
    assert (result.score.sentences, result.score.valid) == (4, 4)
    # every list reaches the limit here, so the tool's a(n) is 1/L and its mixed line is ours
    assert block.weights == pytest.approx([1 / limit] * limit, abs=1e-6)
    s = result.score
    assert (_pct(s.flr), _pct(s.flp), _pct(s.f1)) == block.total


def test_without_cutoff_every_sentence_counts() -> None:
    """The tool's ``Summary (All)`` block: five sentences, the 5-word one included."""
    block = tool_blocks("freval_cutoff.L3.txt")["All"]
    result = evalcore.freval(*CUTOFF, prm=COLLINS, max_size=3)
    assert block.sentences == (5, 0, 0, 5)
    assert {r.size: (r.matched, r.gold, r.test) for r in result.score.per_size} == block.rows


# ---------------------------------------------------------------------------
# α's L: the largest valid gold tree


def test_alpha_runs_up_to_the_largest_gold_tree_not_the_test_tree() -> None:
    """Hand count.  Sentence 1: gold ``S → A`` (2 brackets), test ``S → A → B → C`` (4); S and A
    match.  Sentence 2: the same 2-bracket tree on both sides.  Fragments by size:
    gold 4, 2; test 6, 4, 2, 1; matched 4, 2.  L = 2 (the largest gold tree; docs/freval.md):
    FLR = (4/4 + 2/2) / 2 = 1, FLP = (4/6 + 2/4) / 2 = 7/12, F1 = 2·(7/12) / (1 + 7/12) = 14/19.
    The FREVAL tool gives the same counts (its sizes 1-2, the ones with gold fragments) but
    divides by 4, the length of its longest count list -- the largest *test* tree
    (docs/freval.md, "The FREVAL tool's divisor"): its line is 50.00 / 29.17 / 36.84."""
    block = tool_blocks("freval_alpha.txt")["All"]
    assert block.rows == {1: (4, 4, 6), 2: (2, 2, 4)}
    assert block.weights == (0.25, 0.25)
    assert block.total == ("50.00", "29.17", "36.84")
    result = evalcore.freval(*ALPHA, prm=COLLINS)
    s = result.score
    assert s.limit == 2
    assert [(r.matched, r.gold, r.test) for r in s.per_size] == [(4, 4, 6), (2, 2, 4)]
    assert s.flr == pytest.approx(1.0)
    assert s.flp == pytest.approx(7 / 12)
    assert s.f1 == pytest.approx(14 / 19)
    # the sizes beyond L have test fragments only: they are counted but not mixed in
    assert result.counts.test == (6, 4, 2, 1)
    # the tool's line is what L = 4 would give
    four = result.rescore(4)
    assert (_pct(four.flr), _pct(four.flp), _pct(four.f1)) == block.total


# ---------------------------------------------------------------------------
# rescoring counts made with a size limit


def test_rescoring_at_and_below_the_limit_the_counts_were_made_with() -> None:
    """Counts made with ``max_size=3`` (``--cutoff-len 4``): rescored at 3 they give the FREVAL
    tool's ``len<=4`` line at limit 3, at 2 and 1 its lines at limits 2 and 1 (the tool counted
    each limit anew); limits above 3, or unlimited (L = the largest gold tree, 4 brackets here),
    need counts that were not made."""
    result = evalcore.freval(*CUTOFF, prm=COLLINS, max_size=3, cutoff_len=4)
    for limit in (3, 2, 1):
        block = tool_blocks(f"freval_cutoff.L{limit}.txt")["len<=4"]
        s = result.rescore(limit)
        assert s.limit == limit
        assert {r.size: (r.matched, r.gold, r.test) for r in s.per_size} == block.rows
        assert (_pct(s.flr), _pct(s.flp), _pct(s.f1)) == block.total
    assert result.rescore(3) == result.score
    for beyond in (4, None):
        with pytest.raises(ValueError, match="counts were made with max_size=3"):
            result.rescore(beyond)
    # unlimited counts rescore to any limit, and give the same numbers
    unlimited = evalcore.freval(*CUTOFF, prm=COLLINS, cutoff_len=4)
    assert unlimited.score.limit == 4
    for limit in (3, 2, 1):
        assert unlimited.rescore(limit).per_size == result.rescore(limit).per_size
        assert unlimited.rescore(limit).flr == pytest.approx(result.rescore(limit).flr)
