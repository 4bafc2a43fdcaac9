"""The hostile corpus: small generators of the inputs that took evalcore down, and a
runner that executes a command in a subprocess under a memory cap and a hang guard.

Nothing big is committed: every file is generated into a folder on demand, the gzip bombs as
*multi-member* gzip files (one small compressed member repeated: 6 GB of comment lines is a
6 MB file written in a moment, and every gzip reader decompresses the members one after the
other).  Used by ``tests/test_hostile.py`` (slow tests: each case must end with exit 0 or 2, no
traceback and, for an error, one ``FILE:LINE`` line of a few hundred bytes) and by
``benchmarks/bench_hostile.py`` (time and peak memory of each case).
"""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
MiB = 1024 * 1024
MEMORY_CAP = 500 * MiB  # address space of the child (resource.RLIMIT_AS)
HANG_GUARD = 60.0  # seconds: a guard far above the expected time, not a performance assertion
MAX_ERROR_BYTES = 600  # "one FILE:LINE line of at most a few hundred bytes"

# ---------------------------------------------------------------------------
# generators


def gzip_repeat(path: Path, unit: bytes, total: int) -> Path:
    """A gzip file that decompresses to ``unit`` repeated up to ``total`` bytes: one member of
    16 MiB (or less) compressed once and written again and again (a multi-member gzip; deflate
    reaches about 1,000:1 on such data, so 199 MB take about 200 KB)."""
    block = unit * max(1, min(16 * MiB, total) // len(unit))
    member = gzip.compress(block, compresslevel=9, mtime=0)
    count = max(1, total // len(block))
    rest = unit * ((total - count * len(block)) // len(unit))  # the last units, within one of total
    with open(path, "wb") as fh:
        for _ in range(count):
            fh.write(member)
        if rest:
            fh.write(gzip.compress(rest, compresslevel=9, mtime=0))
    return path


def write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def token_line(i: int, form: str, head: int, deprel: str = "dep") -> str:
    return f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{deprel}\t_\t_"


def chain_conllu(n: int, sent_id: str = "chain") -> str:
    """One sentence: word 1 is the root, word i depends on word i - 1 (n words deep)."""
    lines = [f"# sent_id = {sent_id}"]
    lines += [token_line(i, f"w{i}", i - 1, "root" if i == 1 else "dep") for i in range(1, n + 1)]
    return "\n".join(lines) + "\n\n"


def chain_fan_conllu(depth: int, tokens: int) -> str:
    """The largest tree the default limits allow, for memory: a chain of ``depth`` words whose last
    word heads all the others (``tokens`` words in all; ``depth + 1`` words deep)."""
    lines = ["# sent_id = chain-fan"]
    for i in range(1, tokens + 1):
        head = 0 if i == 1 else i - 1 if i <= depth else depth
        lines.append(token_line(i, f"w{i}", head, "root" if i == 1 else "dep"))
    return "\n".join(lines) + "\n\n"


def unary_ptb(depth: int) -> str:
    """One word under ``depth`` unary brackets, on one line."""
    return "(X " * depth + "(W w)" + ")" * depth + "\n"


def nested_ptb(depth: int) -> str:
    """A right-branching chain: ``depth`` brackets, each with a word and the next bracket."""
    return "".join(f"(X (W w{i}) " for i in range(depth)) + ")" * depth + "\n"


SMALL_GOLD = chain_conllu(3, "s1") + chain_conllu(2, "s2")
COMMENT_LINE = b"#" * 8191 + b"\n"
"""A comment line of 8 KiB, one byte repeated: deflate packs it about 900 to 1 (199 MB in about 250 KB)."""


# ---------------------------------------------------------------------------
# cases


@dataclass(frozen=True)
class Case:
    """One hostile input and the command run on it: ``make(folder)`` writes the files and returns
    the command-line arguments after ``evalcore``.  ``expect`` is the exit code it must end with."""

    name: str
    what: str
    make: Callable[[Path], list[str]]
    expect: int
    csv_check: bool = False  # stdout is CSV: no cell may start like a formula
    has_line: bool = True  # the error names a line (not so for a whole file refused, or an object)


def _comment_bomb_gz(folder: Path) -> Path:
    # 199 MB of '#' comment lines in about 200 KB: the upload that took the workbench down
    return gzip_repeat(folder / "comments199.conllu.gz", COMMENT_LINE, 199 * 10**6)


def _comment_bomb_6gb(folder: Path) -> Path:
    return gzip_repeat(folder / "comments6g.conllu.gz", COMMENT_LINE, 6 * 10**9)


def _newlines_6gb(folder: Path, name: str) -> Path:
    return gzip_repeat(folder / name, b"\n", 6 * 10**9)


def _gold(folder: Path) -> Path:
    return write(folder / "gold.conllu", SMALL_GOLD)


def _pair(folder: Path, name: str, text: str | bytes) -> list[Path]:
    """The same content as gold and as system/test file."""
    stem, dot, ext = name.partition(".")
    return [write(folder / name, text), write(folder / f"{stem}2{dot}{ext}", text)]


def _c(args: Sequence[str | Path]) -> list[str]:
    return [str(a) for a in args]


def _ted(*files: str | Path) -> list[str | Path]:
    return ["tedeval", "--scheme", "a", *files, "--shuffles", "10"]


def _token_block(folder: Path) -> Path:
    return write(folder / "block50.conllu", (token_line(1, "w", 0, "root") + "\n") * (50 * 10**6 // 30))


def _comments_49(folder: Path) -> Path:
    return write(folder / "c49.conllu", (b"# " + b"c" * 61 + b"\n") * (49 * MiB // 64))


_CR = SMALL_GOLD.replace("\n", "\r")
_BAD_ORDER = "0\t1\ta\ta\tX\tX\t_\t2\n1\t2\tb\tb\tX\tX\t_\t1\n\n"
_ARCS = "".join(f"{i}\t{i + 1}\tw\tw\tX\tX\t_\t{i + 1}\n" for i in range(20_000)) + "\n"
_RAISE_100K = ["--max-depth", "100001", "--format", "json"]
_RAISE_10K = ["--max-depth", "10001", "--max-tokens", "10001", "--format", "json"]


CASES: tuple[Case, ...] = (
    Case(
        "comment-bomb-gz-199MB/attach", "gzip of 199 MB of comment lines (one block)",
        lambda d: _c(["attach", _comment_bomb_gz(d), _comment_bomb_gz(d)]), 2,
    ),
    Case(
        "comment-bomb-gz-199MB/tedeval", "the same, cross-scheme TedEval",
        lambda d: _c(_ted(_comment_bomb_gz(d), _comment_bomb_gz(d))), 2,
    ),
    Case(
        "comment-bomb-gz-199MB/lattice", "the same, lattice evaluation",
        lambda d: _c(["lattice", _comment_bomb_gz(d), _comment_bomb_gz(d)]), 2,
    ),
    Case(
        "comment-bomb-gz-6GB/tedeval", "gzip (6 MB) of 6 GB of comment lines",
        lambda d: _c(_ted(_gold(d), _comment_bomb_6gb(d))), 2,
    ),
    Case(
        "comment-bomb-gz-6GB/attach", "the same through attach",
        lambda d: _c(["attach", _gold(d), _comment_bomb_6gb(d)]), 2,
    ),
    Case(
        "comment-bomb-gz-6GB/lattice", "the same through lattice",
        lambda d: _c(["lattice", _gold(d), _comment_bomb_6gb(d)]), 2,
    ),
    Case(
        "comment-file-49MiB/attach", "a plain 49 MiB comment-only file",
        lambda d: _c(["attach", _comments_49(d), _gold(d)]), 2,
    ),
    Case(
        "one-block-50MB/attach", "a plain 50 MB file of token lines without a blank line",
        lambda d: _c(["attach", _token_block(d), _gold(d)]), 2,
    ),
    Case(
        "endless-line-gz/attach", "gzip of one 6 GB line",
        lambda d: _c(["attach", gzip_repeat(d / "line.conllu.gz", b"a" * 64, 6 * 10**9), _gold(d)]), 2,
    ),
    Case(
        "newline-bomb-gz/parseval", "gzip of 6 GB of empty lines (evalb: one skip sentence each)",
        lambda d: _c(["parseval", _newlines_6gb(d, "nl.tst.gz"), _newlines_6gb(d, "nl2.tst.gz")]), 2,
    ),
    Case(
        "newline-bomb-gz/attach", "the same through attach",
        lambda d: _c(["attach", _newlines_6gb(d, "nl.conllu.gz"), _gold(d)]), 2,
    ),
    Case(
        "unary-100k/parseval", "one word under 100,000 unary brackets",
        lambda d: _c(["parseval", *_pair(d, "u.tst", unary_ptb(100_000))]), 2,
    ),
    Case(
        "unary-100k/freval", "the same through freval",
        lambda d: _c(["freval", *_pair(d, "u.tst", unary_ptb(100_000))]), 2,
    ),
    Case(
        "unary-100k-raised/parseval", "the same with --max-depth 100001: linear extraction and matching",
        lambda d: _c(["parseval", *_pair(d, "u.tst", unary_ptb(100_000)), *_RAISE_100K]), 0,
    ),
    Case(
        "unary-100k-raised/freval", "the same through freval (JSON)",
        lambda d: _c(["freval", *_pair(d, "u.tst", unary_ptb(100_000)), *_RAISE_100K]), 0,
    ),
    Case(
        "nested-10k/freval", "10,000-deep right-branching nesting",
        lambda d: _c(["freval", *_pair(d, "n.tst", nested_ptb(10_000))]), 2,
    ),
    Case(
        "nested-10k-raised/freval", "the same with --max-depth and --max-tokens 10001",
        lambda d: _c(["freval", *_pair(d, "n.tst", nested_ptb(10_000)), *_RAISE_10K]), 0,
    ),
    Case(
        "chain-5000/lattice", "a 5,000-word dependency chain",
        lambda d: _c(["lattice", *_pair(d, "c.conllu", chain_conllu(5000))]), 2,
    ),
    Case(
        "chain-5000/tedeval", "the same through tedeval",
        lambda d: _c(_ted(*_pair(d, "c.conllu", chain_conllu(5000)))), 2,
    ),
    Case(
        "chain-1000/lattice", "the deepest chain the defaults allow (1,000 words)",
        lambda d: _c(["lattice", *_pair(d, "c.conllu", chain_conllu(1000))]), 0,
    ),
    Case(
        "chain-1000/tedeval", "the same through tedeval",
        lambda d: _c(_ted(*_pair(d, "c.conllu", chain_conllu(1000)))), 0,
    ),
    Case(
        "chain-fan-default-max/tedeval", "the largest sentence the defaults allow: 1,024 deep, 2,000 words",
        lambda d: _c(_ted(*_pair(d, "c.conllu", chain_fan_conllu(1023, 2000)))), 0,
    ),
    Case(
        "chain-fan-default-max/lattice", "the same through lattice",
        lambda d: _c(["lattice", *_pair(d, "c.conllu", chain_fan_conllu(1023, 2000))]), 0,
    ),
    Case(
        "chain-2000-raised/lattice", "a 2,000-word chain with --max-depth 2000 (span path of the TED)",
        lambda d: _c(["lattice", *_pair(d, "c.conllu", chain_conllu(2000)), "--max-depth", "2000"]), 0,
    ),
    Case(
        "cr-only/attach", "CR-only line ends on both sides (read as the CoNLL 2018 scorer reads them)",
        lambda d: _c(["attach", *_pair(d, "cr.conllu", _CR)]), 0,
    ),
    Case(
        "cr-only/tedeval", "the same through tedeval", lambda d: _c(_ted(*_pair(d, "cr.conllu", _CR))), 0,
    ),
    Case(
        "empty/attach", "two empty files: nothing scored, N/A",
        lambda d: _c(["attach", *_pair(d, "e.conllu", "")]), 0,
    ),
    Case(
        "empty-vs-gold/lattice", "an empty prediction against a gold",
        lambda d: _c(["lattice", _gold(d), write(d / "e.conllu", "")]), 2,
    ),
    Case(
        "comments-only/tedeval", "a comment-only parse against a gold",
        lambda d: _c(_ted(_gold(d), write(d / "c.conllu", "# a\n# b\n"))), 2,
    ),
    Case(
        "huge-form/attach", "a token whose form is 10 MB",
        lambda d: _c(["attach", write(d / "f.conllu", token_line(1, "x" * 10**7, 0, "root")), _gold(d)]), 2,
    ),
    Case(
        "long-form-mismatch/attach", "forms of 500,000 characters that differ: the message quotes them",
        lambda d: _c([
            "attach",
            write(d / "f.conllu", token_line(1, "x" * 500_000, 0, "root") + "\n\n"),
            write(d / "g.conllu", token_line(1, "y" * 500_000, 0, "root") + "\n\n"),
        ]),
        2,
    ),
    Case(
        "long-sent-id/attach", "a 100,000-character sentence id in a mismatch message",
        lambda d: _c([
            "attach",
            write(d / "s.conllu", chain_conllu(2, "i" * 100_000)),
            write(d / "s2.conllu", chain_conllu(3, "i" * 100_000)),
        ]),
        2,
    ),
    Case(
        "lattice-token-order/lattice", "token ids out of order along a lattice path",
        lambda d: _c(["lattice", *_pair(d, "g.lattice", _BAD_ORDER)]), 2,
    ),
    Case(
        "lattice-arcs/lattice", "a lattice of 20,000 arcs",
        lambda d: _c(["lattice", write(d / "g.lattice", _ARCS), write(d / "p.lattice", _BAD_ORDER)]), 2,
    ),
    Case(
        "words-on-a-line/parseval", "2,001 one-word trees on one evalb line",
        lambda d: _c(["parseval", *_pair(d, "w.tst", "(X a)" * 2001 + "\n")]), 2,
    ),
    Case(
        "formula-names/tedeval-csv", "scheme and parse names that a spreadsheet runs as formulas",
        lambda d: _c([
            "tedeval", "--scheme", "=1+1", _gold(d), f"+cmd={_gold(d)}", f"@SUM={_gold(d)}",
            "--shuffles", "10", "--format", "csv",
        ]),
        0, True,
    ),
    Case(
        "formula-names/lattice-csv", "a prediction named like a formula",
        lambda d: _c(["lattice", _gold(d), f"+2+3={_gold(d)}", "--format", "csv"]), 0, True,
    ),
)  # fmt: skip
"""Every hostile case; the issue's findings first, then the limits' neighbours."""


# ---------------------------------------------------------------------------
# running under a cap


@dataclass(frozen=True)
class Outcome:
    code: int | None  # None: killed by the hang guard
    seconds: float
    peak_mib: float
    stdout: str
    stderr: str


# The child caps its own address space, then runs the command line.  At exit it writes its peak
# resident memory (VmHWM: per address space, so not inflated by the parent it was forked from, as
# ru_maxrss is) to the file named by EVALCORE_PEAK_FILE.
_BOOT = (
    "import atexit, os, resource, runpy, sys\n"
    "resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))\n"
    "def _peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            open(os.environ['EVALCORE_PEAK_FILE'], 'w').write(line.split()[1])\n"
    "atexit.register(_peak)\n"
    "sys.argv[0] = 'evalcore'\n"
    "if sys.argv[1:2] == ['--api']:  # a case of the public API: its code, not the command line\n"
    "    exec(sys.argv[2], {{'__name__': '__main__'}})\n"
    "else:\n"
    "    runpy.run_module('evalcore', run_name='__main__', alter_sys=True)\n"
)


def run_capped(
    args: Sequence[str], *, cap: int = MEMORY_CAP, guard: float = HANG_GUARD, cwd: Path | None = None
) -> Outcome:
    """``python -m evalcore ARGS`` in a child limited to ``cap`` bytes of address space, killed after
    ``guard`` seconds; wall time and the child's own peak resident memory (``wait4``)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    peak_file = tempfile.NamedTemporaryFile(prefix="evalcore-peak-", delete=False)  # noqa: SIM115
    peak_file.close()
    env["EVALCORE_PEAK_FILE"] = peak_file.name
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT.format(cap=cap), *args],
            stdout=out,
            stderr=err,
            cwd=cwd or ROOT,
            env=env,
        )
        code: int | None = None
        usage = None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                code = os.waitstatus_to_exitcode(status)
                break
            if time.perf_counter() - start > guard:
                proc.kill()
                _, _, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        proc.returncode = code if code is not None else -9
        out.seek(0)
        err.seek(0)
        stdout = out.read(200_000).decode("utf-8", "replace")
        stderr = err.read(200_000).decode("utf-8", "replace")
    written = Path(peak_file.name).read_text().strip()
    Path(peak_file.name).unlink()
    peak_kib = int(written) if written.isdigit() else usage.ru_maxrss  # killed: what wait4 says
    return Outcome(code, seconds, peak_kib / 1024, stdout, stderr)


ERROR_LINE = re.compile(r"^.+?:\d+: \S")
ERROR_FILE = re.compile(r"^\S.*?: \S")


def problems(case: Case, outcome: Outcome) -> list[str]:
    """What is wrong with how a case ended (empty when it ended as it must)."""
    found: list[str] = []
    if outcome.code is None:
        found.append(f"still running after {HANG_GUARD:.0f} s (killed)")
        return found
    if outcome.code != case.expect:
        found.append(f"exit {outcome.code}, expected {case.expect}: {outcome.stderr[-400:]!r}")
    if "Traceback" in outcome.stderr:
        found.append(f"a traceback: {outcome.stderr[-400:]!r}")
    if outcome.code == 2:
        lines = outcome.stderr.splitlines()
        if len(lines) != 1:
            found.append(f"{len(lines)} stderr lines, expected one: {outcome.stderr[:400]!r}")
        elif not (ERROR_LINE if case.has_line else ERROR_FILE).match(lines[0]):
            found.append(f"not a {'FILE:LINE' if case.has_line else 'FILE:'} line: {lines[0][:300]!r}")
        if any(len(line.encode("utf-8")) > MAX_ERROR_BYTES for line in lines):
            found.append(f"an error line of more than {MAX_ERROR_BYTES} bytes")
    if case.csv_check and outcome.code == 0:
        import csv
        import io

        for row in csv.reader(io.StringIO(outcome.stdout)):
            for cell in row:
                if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    found.append(f"CSV cell starts like a formula: {cell[:40]!r}")
    return found


def make_all(folder: Path) -> dict[str, list[str]]:
    """Generate every case's files into ``folder`` (its own sub-folder each); the arguments by name."""
    out: dict[str, list[str]] = {}
    for case in CASES:
        sub = folder / re.sub(r"[^A-Za-z0-9]+", "_", case.name)
        sub.mkdir(parents=True, exist_ok=True)
        out[case.name] = case.make(sub)
    return out


# ---------------------------------------------------------------------------
# scale: what grows with the input's length, the number of parses, a setting or a map
# (docs/robustness.md, "Size, parses, settings and maps")


BIG_SENTENCES = 200_000


def many_sentences(path: Path, n: int = BIG_SENTENCES) -> Path:
    """``n`` sentences of 8 words (sent_id ``s1``...), written in pieces: 1.8 million lines, 53 MB,
    in about a second.  Kept when it is already there (the tests make it once)."""
    if path.exists():
        return path
    body = "".join(
        f"{i}\tw{i}\t_\tX\t_\t_\t{0 if i == 1 else 1}\t{'root' if i == 1 else 'dep'}\t_\t_\n"
        for i in range(1, 9)
    )
    with open(path, "w", encoding="utf-8") as fh:
        for lo in range(1, n + 1, 10_000):
            fh.write("".join(f"# sent_id = s{k}\n{body}\n" for k in range(lo, min(n, lo + 9_999) + 1)))
    return path


def _big(folder: Path) -> Path:
    return many_sentences(folder / "big200k.conllu")


def _first_of_big(folder: Path) -> Path:
    """A one-sentence gold: the big file's first sentence."""
    with open(_big(folder), encoding="utf-8") as fh:
        first = fh.read(4096).split("\n\n", 1)[0]
    return write(folder / "one.conllu", first + "\n\n")


def _empty(folder: Path) -> Path:
    return write(folder / "empty.conllu", "")


def _distinct_parses(folder: Path, n: int) -> list[str]:
    """A gold of 6 chain sentences of 9 words and ``n`` parses of it, each with its own errors (in
    sentence s, as many words attached to the first word as the parse number's base-6 digit s):
    every cell of the table is a different sample, so no test is skipped as equal to another."""
    gold_sentences = [chain_conllu(9, f"c{s}") for s in range(6)]
    gold = write(folder / "gold.conllu", "".join(gold_sentences))
    args = [str(gold)]
    for k in range(1, n + 1):
        out = []
        for s in range(6):
            wrong = (k // 6**s) % 6  # 0..5 words re-attached: k's base-6 digits, distinct parses
            lines = [f"# sent_id = c{s}"]
            for i in range(1, 10):
                head = i - 1 if i == 1 or i > wrong + 2 else 1 if i > 2 else i - 1
                lines.append(token_line(i, f"w{i}", head, "root" if i == 1 else "dep"))
            out.append("\n".join(lines) + "\n\n")
        args.append(f"p{k}={write(folder / f'p{k}.conllu', ''.join(out))}")
    return args


def _same_parses(folder: Path, n: int) -> list[str]:
    """The issue's reproducer: one sentence, its own gold given as ``n`` parses."""
    good = write(folder / "good.conllu", chain_conllu(6, "one"))
    return [str(good), *(f"s{k}={good}" for k in range(1, n + 1))]


def _manifest(folder: Path, n: int) -> Path:
    good = write(folder / "good.conllu", chain_conllu(6, "one"))
    systems = "".join(f's{k} = "{good.name}"\n' for k in range(1, n + 1))
    return write(
        folder / "task.toml",
        f'[[gold]]\nname = "g"\nfile = "{good.name}"\nmetrics = ["tedeval"]\n\n[gold.systems]\n{systems}',
    )


def _ewt(folder: Path, n: int = 60) -> list[Path]:
    """The first ``n`` sentences of English-EWT test (gold) and of spaCy's parse of it."""
    out = []
    for name, src in (
        ("g.conllu", "en_ewt/en_ewt-ud-test.r2.16.conllu.gz"),
        ("p.conllu", "en_ewt/en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz"),
    ):
        with gzip.open(ASSETS / src, "rt", encoding="utf-8") as fh:
            text = fh.read()
        out.append(write(folder / name, "\n\n".join(text.split("\n\n")[:n]) + "\n\n"))
    return out


def _big_map(folder: Path) -> Path:
    """The largest map the defaults allow: 20,000 pairs, none of which rewrites an EWT label."""
    return write(folder / "big.map", "".join(f"L{i}=M{i}\n" for i in range(20_000)))


def _fifo(folder: Path) -> Path:
    path = folder / "parse.conllu"
    if not path.exists():
        os.mkfifo(path)
    return path


_SAMPLE = ASSETS / "evalb" / "sample"


def _api(code: str) -> list[str]:
    """An API case: ``code`` runs in the capped child; an evalcore error is printed as the command
    line prints it (one line, exit 2)."""
    return [
        "--api",
        "import sys, evalcore\nfrom evalcore.errors import EvalcoreError\ntry:\n"
        + "".join(f"    {line}\n" for line in code.splitlines())
        + "except EvalcoreError as exc:\n    print(exc, file=sys.stderr)\n    sys.exit(2)\n",
    ]


_ENDLESS = (
    "from evalcore.trees import DepTree, Token\n"
    "def endless():\n"
    "    while True:\n"
    "        yield DepTree((Token(1, 'a', head=0, deprel='root'), Token(2, 'b', head=1)))\n"
    "from evalcore.limits import Limits\n"
    "evalcore.read(endless(), limits=Limits(input_lines=100_000))\n"
)

SCALE_CASES: tuple[Case, ...] = (
    Case(
        "gold-empty-200k/attach", "an empty gold against 200,000 sentences: named at the first",
        lambda d: _c(["attach", _empty(d), _big(d)]), 2,
    ),
    Case(
        "gold-one-200k/attach", "a one-sentence gold against the same",
        lambda d: _c(["attach", _first_of_big(d), _big(d)]), 2,
    ),
    Case(
        "gold-empty-200k/lattice", "the empty gold through lattice (raw text aligned by characters)",
        lambda d: _c(["lattice", _empty(d), _big(d)]), 2,
    ),
    Case(
        "gold-one-200k/lattice", "the one-sentence gold through lattice",
        lambda d: _c(["lattice", _first_of_big(d), _big(d)]), 2,
    ),
    Case(
        "gold-empty-200k/tedeval", "the empty gold through tedeval",
        lambda d: _c(["tedeval", "--scheme", "a", _empty(d), _big(d)]), 2,
    ),
    Case(
        "parses-100/tedeval", "one sentence, its gold as 100 parses (10,000 shuffles)",
        lambda d: _c(["tedeval", "--scheme", "g", *_same_parses(d, 100)]), 0,
    ),
    Case(
        "parses-200/tedeval", "the same with 200 parses",
        lambda d: _c(["tedeval", "--scheme", "g", *_same_parses(d, 200)]), 0,
    ),
    Case(
        "parses-100-distinct/tedeval", "6 sentences, 100 different parses: 19,800 tests of 200 shuffles",
        lambda d: _c(["tedeval", "--scheme", "g", *_distinct_parses(d, 100), "--shuffles", "200"]), 0,
    ),
    Case(
        "parses-200-distinct/tedeval", "the same with 200 parses: 79,600 tests",
        lambda d: _c(["tedeval", "--scheme", "g", *_distinct_parses(d, 200), "--shuffles", "200"]), 0,
    ),
    Case(
        "manifest-200/batch", "a manifest of 200 systems of one gold (tedeval)",
        lambda d: _c(["batch", _manifest(d, 200), "--format", "csv"]), 0,
    ),
    Case(
        "max-size-1e6/freval", "--max-size 1000000 on evalb's sample",
        lambda d: _c(["freval", _SAMPLE / "sample.gld", _SAMPLE / "sample.tst", "--max-size", "1000000"]), 0,
    ),
    Case(
        "max-size-1e9/freval", "--max-size 1000000000, JSON",
        lambda d: _c([
            "freval", _SAMPLE / "sample.gld", _SAMPLE / "sample.tst", "--max-size", "1000000000",
            "--format", "json",
        ]),
        0,
    ),
    Case(
        "map-empty/tedeval", "60 EWT sentences against spaCy's parse, no label map",
        lambda d: _c(["tedeval", "--scheme", "ud", *_ewt(d), "--shuffles", "1000"]), 0,
    ),
    Case(
        "map-20000/tedeval", "the same with the largest map allowed (20,000 pairs)",
        lambda d: _c([
            "tedeval", "--scheme", "ud", *_ewt(d), "--shuffles", "1000", "--labels-map", _big_map(d),
        ]),
        0,
    ),
    Case(
        "map-comments-gz/tedeval", "a label map that is an 11 MB gzip of comment lines",
        lambda d: _c([
            "tedeval", "--scheme", "ud", *_ewt(d, 5), "--labels-map",
            gzip_repeat(d / "comments.map.gz", COMMENT_LINE, 11 * 10**9),
        ]),
        2,
    ),
    Case(
        "fifo/attach", "a named pipe (FIFO) as the parse",
        lambda d: _c(["attach", _gold(d), _fifo(d)]), 2, has_line=False,
    ),
    Case(
        "api-inspect-words/inspect", "evalcore.inspect: a 4-word gold and a 2-word parse",
        lambda d: _api(
            "from evalcore.formats.conllu import parse_conllu\n"
            f"g = parse_conllu({chain_conllu(4)!r})[0]\n"
            f"p = parse_conllu({chain_conllu(2)!r})[0]\n"
            "evalcore.inspect({'ud': g}, {'sys': ('ud', p)})\n"
        ),
        2,
    ),
    Case(
        "api-spacy-no-lemma/read", "a spaCy-like Doc whose tokens have no lemma_",
        lambda d: _api(
            "class T:\n"
            "    i, text, dep_, pos_, tag_, whitespace_ = 0, 'Hi', 'ROOT', '', '', ' '\n"
            "    head = property(lambda self: self)\n"
            "class S:\n"
            "    start = 0\n"
            "    def __iter__(self): return iter([T()])\n"
            "class D:\n"
            "    vocab, sents = None, [S()]\n"
            "evalcore.read(D())\n"
        ),
        2, has_line=False,
    ),
    Case(
        "api-string-300MB/read", "a 300 MB string of comment lines (one block) given to evalcore.read",
        lambda d: _api("evalcore.read('# comment\\n' * 30_000_000)\n"), 2,
    ),
    Case(
        "api-endless-generator/read", "an endless generator of trees (line limit 100,000)",
        lambda d: _api(_ENDLESS), 2,
    ),
)  # fmt: skip
"""The cases of what grows with the input's length, the parses, a setting or a map."""
