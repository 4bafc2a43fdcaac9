"""Mutation testing of the evaluation core: a fixed list of single-point mutants.

    .venv/bin/python scripts/mutation.py                 # run every mutant (about 15–25 min here)
    .venv/bin/python scripts/mutation.py --check         # only check that every snippet still occurs
    .venv/bin/python scripts/mutation.py --only M012 M040 --jobs 2 --timeout 300
    .venv/bin/python scripts/mutation.py --markdown      # the list as a Markdown table (docs/mutation.md)

Run by hand, not in CI.  Each mutant (:data:`MUTANTS`, in :mod:`mutants`) is one
change to one place of the core: a file, an exact snippet of its text that must
occur exactly once (in the whole file, or in a named function or method), its
replacement, the name of the operator that made it, and the fast test files that
should notice.  A mutant whose snippet no longer occurs exactly once is
reported **stale** and not run: after editing the core, update its snippet.

The repository is copied to a temporary folder (one copy per job) with
``../shared`` linked beside it, so the tests that read the shared data find it;
the real files are never edited.  For each mutant the copy's file is rewritten,
``pytest -x -q -m "not slow and not e2e"`` runs its test files with the copy
first on ``PYTHONPATH`` (no byte-code written, Hypothesis' derandomized ``ci``
profile), the file is restored.  A failing run (or one past ``--timeout``)
*kills* the mutant, a passing one lets it *survive*.  The kill rate is
killed / (killed + survived); the exit status is 1 when it is below ``--min-rate``
or a mutant is stale.  Results and survivors are documented in docs/mutation.md.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from queue import Queue

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutants import MUTANTS, Mutant

ROOT = Path(__file__).resolve().parent.parent
IGNORE = shutil.ignore_patterns(
    ".venv", ".git", "__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", ".ruff_cache", "*.egg-info"
)


# ---------------------------------------------------------------------------
# locating and applying a mutant


def _function_range(tree: ast.Module, text: str, qualname: str) -> tuple[int, int] | None:
    """Character range ``[start, end)`` of function ``name`` or method ``Class.name`` in ``text``."""
    parts = qualname.split(".")
    body: list[ast.stmt] = tree.body
    node: ast.AST | None = None
    for k, part in enumerate(parts):
        node = None
        for stmt in body:  # the last definition: a function's @overload stubs come before it
            kinds = (ast.FunctionDef, ast.AsyncFunctionDef) if k == len(parts) - 1 else (ast.ClassDef,)
            if isinstance(stmt, kinds) and stmt.name == part:
                node = stmt
        if node is None:
            return None
        body = node.body  # type: ignore[attr-defined]
    assert node is not None and node.end_lineno is not None
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts[node.lineno - 1], starts[node.end_lineno]


def locate(mutant: Mutant, text: str) -> tuple[int, str]:
    """Offset of the mutant's snippet in ``text``, or -1 and why it is stale."""
    lo, hi = 0, len(text)
    if mutant.function:
        try:
            tree = ast.parse(text)
        except SyntaxError as err:
            return -1, f"cannot parse {mutant.file}: {err}"
        found = _function_range(tree, text, mutant.function)
        if found is None:
            return -1, f"no function {mutant.function} in {mutant.file}"
        lo, hi = found
    count = text.count(mutant.original, lo, hi)
    if count != 1:
        where = f"{mutant.function}()" if mutant.function else mutant.file
        return -1, f"snippet occurs {count} times in {where}"
    return text.index(mutant.original, lo, hi), ""


def mutate(mutant: Mutant, text: str) -> tuple[str | None, str]:
    """The mutated text, or ``None`` and why the mutant is stale (or invalid)."""
    at, why = locate(mutant, text)
    if at < 0:
        return None, why
    new = text[:at] + mutant.replacement + text[at + len(mutant.original) :]
    try:
        ast.parse(new)
    except SyntaxError as err:
        return None, f"the mutated file does not parse: {err}"
    return new, ""


# ---------------------------------------------------------------------------
# running


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    status: str  # killed | survived | timeout | stale
    seconds: float
    detail: str = ""


def _copy(dest: Path) -> Path:
    repo = dest / "repo"
    shutil.copytree(ROOT, repo, ignore=IGNORE, symlinks=True)
    shared = ROOT.parent / "shared"
    if shared.exists():
        (dest / "shared").symlink_to(shared.resolve())
    return repo


def _env(repo: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(repo) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["HYPOTHESIS_PROFILE"] = "ci"
    return env


def _pytest(repo: Path, tests: Sequence[str], timeout: float) -> tuple[int | None, str, float]:
    """Run the test files in the copy; return code (``None`` on timeout), output tail, seconds."""
    cmd = [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-x", "-q", "--no-header",
        "-m", "not slow and not e2e", *tests,
    ]  # fmt: skip
    start = time.monotonic()
    proc = subprocess.Popen(
        cmd,
        cwd=repo,
        env=_env(repo),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: a timeout ends it and its children only
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out[-2000:], time.monotonic() - start
    return proc.returncode, out[-2000:], time.monotonic() - start


def _check_copy(repo: Path) -> None:
    """The copy, not the checkout, must be what the tests import."""
    probe = subprocess.run(
        [sys.executable, "-c", "import evalcore; print(evalcore.__file__)"],
        cwd=repo,
        env=_env(repo),
        capture_output=True,
        text=True,
        check=True,
    )
    if not Path(probe.stdout.strip()).resolve().is_relative_to(repo.resolve()):
        raise SystemExit(f"the copy is not imported first: evalcore comes from {probe.stdout.strip()}")


def run_one(mutant: Mutant, repo: Path, timeout: float) -> Outcome:
    target = repo / mutant.file
    original = target.read_text(encoding="utf-8")
    new, why = mutate(mutant, original)
    if new is None:
        return Outcome(mutant, "stale", 0.0, why)
    target.write_text(new, encoding="utf-8")
    try:
        code, tail, seconds = _pytest(repo, mutant.tests, timeout)
    finally:
        target.write_text(original, encoding="utf-8")
    if code is None:
        return Outcome(mutant, "timeout", seconds, f"no result after {timeout:.0f} s")
    if code == 0:
        return Outcome(mutant, "survived", seconds, tail.strip().splitlines()[-1] if tail.strip() else "")
    failed = [line for line in tail.splitlines() if line.startswith(("FAILED", "ERROR"))]
    return Outcome(mutant, "killed", seconds, failed[0] if failed else f"pytest exit {code}")


def _describe(m: Mutant) -> str:
    where = f"{m.file}:{m.function}" if m.function else m.file
    return f"{m.id} {where} [{m.operator}]"


def markdown(mutants: Sequence[Mutant]) -> str:
    def cell(text: str) -> str:
        return "`" + " ⏎ ".join(x.strip() for x in text.splitlines()).replace("|", "\\|") + "`"

    rows = ["| id | file | function | operator | original → replacement |", "|---|---|---|---|---|"]
    for m in mutants:
        rows.append(
            f"| {m.id} | {m.file.removeprefix('evalcore/')} | {m.function or ''} | {m.operator} | "
            f"{cell(m.original)} → {cell(m.replacement) if m.replacement.strip() else '(deleted)'} |"
        )
    return "\n".join(rows) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="ID", help="run only these mutants")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at a time (one tree copy each)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant (a timeout kills)")
    ap.add_argument("--min-rate", type=float, default=95.0, help="kill rate (%%) below which exit is 1")
    ap.add_argument("--check", action="store_true", help="only report stale mutants")
    ap.add_argument("--markdown", action="store_true", help="print the list as a Markdown table")
    args = ap.parse_args(argv)

    ids = [m.id for m in MUTANTS]
    if len(set(ids)) != len(ids):
        raise SystemExit("duplicate mutant ids")
    unknown = sorted(set(args.only or ()) - set(ids))
    if unknown:
        raise SystemExit(f"no mutant {', '.join(unknown)} (ids run from {ids[0]} to {ids[-1]})")
    chosen = [m for m in MUTANTS if not args.only or m.id in args.only]
    if args.markdown:
        print(markdown(chosen), end="")
        return 0
    stale = []
    for m in chosen:
        new, why = mutate(m, (ROOT / m.file).read_text(encoding="utf-8"))
        missing = [t for t in m.tests if not (ROOT / t).exists()]
        if new is None or missing:
            stale.append(Outcome(m, "stale", 0.0, why or f"no test file {', '.join(missing)}"))
    for o in stale:
        print(f"stale     {_describe(o.mutant)}: {o.detail}")
    if args.check:
        print(f"{len(chosen)} mutants, {len(stale)} stale")
        return 1 if stale else 0
    stale_ids = {o.mutant.id for o in stale}
    runnable = [m for m in chosen if m.id not in stale_ids]

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="evalcore-mutation-") as tmp:
        copies: Queue[Path] = Queue()
        for k in range(max(1, args.jobs)):
            repo = _copy(Path(tmp) / f"w{k}")
            copies.put(repo)
        repo0 = copies.queue[0]
        _check_copy(repo0)
        union = list(dict.fromkeys(t for m in runnable for t in m.tests))
        print(f"baseline: {len(union)} test files, unmutated ...", flush=True)
        code, tail, seconds = _pytest(repo0, union, args.timeout * 3)
        if code != 0:
            print(tail)
            raise SystemExit(f"the unmutated tests do not pass (exit {code}): fix them first")
        print(f"baseline passes in {seconds:.0f} s; {len(runnable)} mutants to run", flush=True)

        lock = threading.Lock()
        outcomes: list[Outcome] = []

        def work(m: Mutant) -> Outcome:
            repo = copies.get()
            try:
                o = run_one(m, repo, args.timeout)
            finally:
                copies.put(repo)
            with lock:
                outcomes.append(o)
                line = (
                    f"[{len(outcomes):3d}/{len(runnable)}] {o.status:<8}  {_describe(m)}  {o.seconds:5.1f} s"
                )
                print(line + (f"  -- {o.detail}" if o.status != "killed" else ""), flush=True)
            return o

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(work, runnable))
    elapsed = time.monotonic() - started

    killed = [o for o in results if o.status in ("killed", "timeout")]
    survived = [o for o in results if o.status == "survived"]
    decided = len(killed) + len(survived)
    rate = 100.0 * len(killed) / decided if decided else 100.0
    print()
    print(
        f"{len(chosen)} mutants: {len(killed)} killed "
        f"({sum(o.status == 'timeout' for o in killed)} by timeout), {len(survived)} survived, "
        f"{len(stale)} stale; kill rate {rate:.1f}% in {elapsed / 60:.1f} min"
    )
    for o in survived:
        m = o.mutant
        print(f"survived  {_describe(m)}\n          {m.original!r} -> {m.replacement!r}")
    return 0 if rate >= args.min_rate and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
