"""The hostile corpus: every case in a subprocess under a 500 MiB address-space cap and a
60 s hang guard; each must end with the exit code it must end with (0 or 2), no traceback, and an
error must be one ``FILE:LINE: ...`` line of at most a few hundred bytes.  The cases and the runner
are in ``tests/hostile_corpus.py`` (small generators; nothing big is committed); the time and
peak memory of each are printed by ``benchmarks/bench_hostile.py`` and listed in
``docs/robustness.md``.

All cases run in the slow tests; a few run in the default suite too.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from hostile_corpus import CASES, MEMORY_CAP, Case, gzip_repeat, problems, run_capped

QUICK = ("comment-bomb-gz-199MB/attach", "unary-100k/parseval", "cr-only/attach", "formula-names/tedeval-csv")


def _ids(case: Case) -> str:
    return case.name


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_hostile_case_ends_cleanly_under_the_cap(case: Case, tmp_path: Path) -> None:
    outcome = run_capped(case.make(tmp_path))
    assert problems(case, outcome) == [], (case.what, outcome.stderr[-500:])


@pytest.mark.parametrize("case", [c for c in CASES if c.name in QUICK], ids=_ids)
def test_some_hostile_cases_in_the_default_run(case: Case, tmp_path: Path) -> None:
    outcome = run_capped(case.make(tmp_path))
    assert problems(case, outcome) == [], (case.what, outcome.stderr[-500:])


def test_the_cases_cover_the_findings_of_the_issue() -> None:
    names = {c.name.split("/")[0] for c in CASES}
    for finding in (
        "comment-bomb-gz-199MB", "comment-bomb-gz-6GB", "comment-file-49MiB", "one-block-50MB",
        "unary-100k", "nested-10k", "chain-5000", "cr-only", "empty-vs-gold", "comments-only",
        "long-form-mismatch", "long-sent-id", "lattice-token-order", "formula-names",
    ):  # fmt: skip
        assert finding in names
    assert len({c.name for c in CASES}) == len(CASES)


def test_the_gzip_bomb_generator_is_small_and_expands_as_said(tmp_path: Path) -> None:
    bomb = gzip_repeat(tmp_path / "b.gz", b"# comment\n", 199 * 10**6)
    assert bomb.stat().st_size < 400_000  # the issue's bomb: 203 KB for 199 MB
    with gzip.open(bomb, "rb") as fh:  # every member decompresses, one after the other
        total = sum(len(chunk) for chunk in iter(lambda: fh.read(1 << 24), b""))
    assert 198 * 10**6 < total <= 199 * 10**6


def test_the_runner_reports_exit_code_output_and_the_childs_own_peak() -> None:
    ok = run_capped(["--version"])
    assert ok.code == 0 and ok.stdout.startswith("evalcore ") and 5 < ok.peak_mib < MEMORY_CAP / 2**20
    usage = run_capped(["attach"])
    assert usage.code == 2 and "the following arguments are required" in usage.stderr
