"""Outputs and signals (docs/robustness.md): what ``tests/test_outputs_signals.py`` and
``benchmarks/bench_signals.py`` share.

* :func:`output_options` finds every option of every command that names a file the command
  writes, from the argparse parsers (the options declared with
  :class:`evalcore.outputs.OutputOption`; a test checks that no other option looks like one).
  :data:`INVOCATIONS` gives, for each command that has one, a small run of it on generated files
  and the files it reads.
* :func:`run_evalcore` runs ``python -m evalcore`` in a child capped at 500 MiB of address space,
  optionally with a file-size limit (``RLIMIT_FSIZE``, what ``prlimit --fsize`` sets: a "full
  disk") or killed (SIGKILL) at its first write of a file in a given folder (the writes are
  caught by wrapping :func:`io.open`, through which ``open``, ``Path.write_text`` and
  ``os.fdopen`` all go).
* :func:`interrupt` starts a command, sends it a signal, and measures how long the command and
  every process it started take to be gone (the processes are found by an environment variable
  every child inherits).
"""

from __future__ import annotations

import argparse
import gzip
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from evalcore.cli import build_parser
from evalcore.outputs import OutputOption

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
MiB = 1 << 20
MEMORY_CAP = 500 * MiB
GUARD = 60.0  # seconds: a hang guard, far above the expected times

# ---------------------------------------------------------------------------
# the output options


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def output_options() -> list[tuple[str, str]]:
    """``(command, option)`` for every option declared as an output (its longest spelling)."""
    found = []
    for name, parser in subcommands().items():
        for action in parser._actions:
            if isinstance(action, OutputOption):
                found.append((name, max(action.option_strings, key=len)))
    return found


def sentences(src: Path, count: int) -> str:
    """The first ``count`` sentence blocks of a (gzipped) CoNLL-U file."""
    with gzip.open(src, "rt", encoding="utf-8") as fh:
        blocks = fh.read().split("\n\n")
    return "\n\n".join(blocks[:count]) + "\n\n"


@dataclass(frozen=True)
class Invocation:
    """A run of a command without its output option: its arguments and the files it reads."""

    args: list[str]
    inputs: list[Path]


def _atlas(folder: Path) -> Invocation:
    folder.mkdir(parents=True, exist_ok=True)
    gold = folder / "gold.conllu"
    parse = folder / "parse.conllu"
    gold.write_text(sentences(ASSETS / "fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz", 30), encoding="utf-8")
    parse.write_text(sentences(ASSETS / "fr_gsd/parses/fr_gsd-test.spacy-ud.conllu.gz", 30), encoding="utf-8")
    return Invocation(["atlas", "--no-ranking", "--scheme", "ud", str(gold), str(parse)], [gold, parse])


def _batch(folder: Path) -> Invocation:
    folder.mkdir(parents=True, exist_ok=True)
    sample = ASSETS / "evalb/sample"
    files = {name: folder / name for name in ("sample.gld", "sample.tst", "sample.prm")}
    for name, path in files.items():
        path.write_bytes((sample / name).read_bytes())
    manifest = folder / "task.toml"
    manifest.write_text(
        '[settings]\nshuffles = 100\n\n[[gold]]\nname = "sample"\nfile = "sample.gld"\n'
        'prm = "sample.prm"\nmetrics = ["parseval", "freval"]\n\n[gold.systems]\n'
        'tst = "sample.tst"\ngld = "sample.gld"\n',
        encoding="utf-8",
    )
    return Invocation(["batch", str(manifest), "--jobs", "1", "--format", "csv"], [manifest, *files.values()])


INVOCATIONS: dict[str, Callable[[Path], Invocation]] = {"atlas": _atlas, "batch": _batch}
"""A command with an output option must have an invocation here (a test checks it)."""


# ---------------------------------------------------------------------------
# running a command in a child


@dataclass(frozen=True)
class Outcome:
    code: int | None  # None: stopped by the guard; negative: killed by that signal
    seconds: float
    stdout: str
    stderr: str
    peak_mib: float = 0.0  # the child's own peak resident memory (VmHWM; ru_maxrss if it was killed)


_BOOT = """\
import atexit, os, resource, runpy, sys
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
def _peak():
    if os.environ.get("EVALCORE_PEAK_FILE"):
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                open(os.environ["EVALCORE_PEAK_FILE"], "w").write(line.split()[1])
atexit.register(_peak)
if {fsize}:
    resource.setrlimit(resource.RLIMIT_FSIZE, ({fsize}, {fsize}))
if os.environ.get("EVALCORE_KILL_AT_WRITE_IN"):
{kill}
sys.argv[0] = "evalcore"
runpy.run_module("evalcore", run_name="__main__", alter_sys=True)
"""

# SIGKILL at the first write of a file opened for writing in the watched folder: half of what is
# written reaches the file first, so a writer that is not atomic leaves a cut file behind.
_KILL_AT_WRITE = """\
    import builtins, io, signal
    _watched = os.path.realpath(os.environ["EVALCORE_KILL_AT_WRITE_IN"])
    _open = io.open

    def _where(file):
        try:
            return os.readlink(f"/proc/self/fd/{file}") if isinstance(file, int) else os.path.realpath(file)
        except OSError:
            return ""

    class _KillAtWrite:
        def __init__(self, fh):
            self._fh = fh
        def write(self, data):
            self._fh.write(data[: max(1, len(data) // 2)])
            self._fh.flush()
            os.kill(os.getpid(), signal.SIGKILL)
        def __getattr__(self, name):
            return getattr(self._fh, name)
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            return self._fh.__exit__(*exc)

    def _watching_open(file, mode="r", *args, **kwargs):
        fh = _open(file, mode, *args, **kwargs)
        if any(c in mode for c in "wax+") and os.path.dirname(_where(file)) == _watched:
            return _KillAtWrite(fh)
        return fh

    io.open = builtins.open = _watching_open
"""


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.pop("EVALCORE_KILL_AT_WRITE_IN", None)
    env.update(extra)
    return env


def boot(cap: int = MEMORY_CAP, fsize: int = 0) -> str:
    return _BOOT.format(cap=cap, fsize=fsize, kill=_KILL_AT_WRITE)


def run_evalcore(
    args: Sequence[str],
    *,
    cwd: Path | None = None,
    fsize: int = 0,
    kill_at_write_in: Path | None = None,
    cap: int = MEMORY_CAP,
    guard: float = GUARD,
) -> Outcome:
    """``python -m evalcore ARGS`` in a child under ``cap`` bytes of address space and ``fsize``
    bytes per written file (0: no limit), killed at its first write in ``kill_at_write_in``."""
    extra = {"EVALCORE_KILL_AT_WRITE_IN": str(kill_at_write_in)} if kill_at_write_in else {}
    with tempfile.TemporaryDirectory(prefix="evalcore-run-") as tmp:
        peak_file = Path(tmp) / "peak"
        extra["EVALCORE_PEAK_FILE"] = str(peak_file)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.perf_counter()
            child = subprocess.Popen(
                [sys.executable, "-c", boot(cap, fsize), *args],
                stdout=out,
                stderr=err,
                cwd=cwd or ROOT,
                env=child_env(**extra),
            )
            code: int | None = None
            while True:
                pid, status, usage = os.wait4(child.pid, os.WNOHANG)
                if pid:
                    code = os.waitstatus_to_exitcode(status)
                    break
                if time.perf_counter() - start > guard:
                    child.kill()
                    _, _, usage = os.wait4(child.pid, 0)
                    break
                time.sleep(0.01)
            seconds = time.perf_counter() - start
            child.returncode = code if code is not None else -9
            out.seek(0)
            err.seek(0)
            stdout = out.read().decode("utf-8", "replace")
            stderr = err.read().decode("utf-8", "replace")
        written = peak_file.read_text().strip() if peak_file.exists() else ""
    peak_kib = int(written) if written.isdigit() else usage.ru_maxrss
    return Outcome(code, seconds, stdout, stderr, peak_kib / 1024)


def one_line_problems(outcome: Outcome) -> list[str]:
    """What is wrong with a refused run: it must end with exit 2, one line on stderr, no
    traceback, nothing on stdout."""
    found = []
    if outcome.code != 2:
        found.append(f"exit {outcome.code}, expected 2")
    if "Traceback" in outcome.stderr:
        found.append("a traceback")
    if len(outcome.stderr.splitlines()) != 1:
        found.append(f"{len(outcome.stderr.splitlines())} lines on stderr, expected one")
    if outcome.stdout:
        found.append(f"output on stdout: {outcome.stdout[:100]!r}")
    return found


# ---------------------------------------------------------------------------
# signals


def processes_with(token: str) -> list[int]:
    """The processes whose environment holds ``EVALCORE_PROBE=token`` (a command and every process
    it started, whoever their parent is now)."""
    mark = f"EVALCORE_PROBE={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if mark in fh.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue
    return found


@dataclass(frozen=True)
class Stopped:
    """How a command ended after a signal: its exit code, seconds from the signal until it ended
    and until every process it started was gone, those left after ``GUARD`` s, its outputs."""

    code: int | None
    seconds_command: float
    seconds_all: float
    processes_before: int
    left: list[int]
    stdout: str
    stderr: str


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _as_in_a_terminal() -> None:
    """The stop signals' default actions, as in a command started from a terminal: a shell's
    background job (``cmd &`` without job control) starts with SIGINT ignored, and evalcore keeps
    a signal it was started with ignored."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def interrupt(
    args: Sequence[str],
    sig: signal.Signals,
    *,
    ready: Callable[[int, list[int]], bool],
    to_group: bool,
    cap: int | None = MEMORY_CAP,
    cwd: Path | None = None,
) -> Stopped:
    """Start ``evalcore ARGS`` in its own session; once ``ready(its pid, its processes)`` (or after the
    guard), send ``sig`` to its process group (Ctrl-C sends SIGINT to the whole foreground group)
    or to the command alone; measure until the command and every process it started are gone."""
    token = uuid.uuid4().hex
    code = boot(cap) if cap else boot(1 << 62)
    child = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd or ROOT,
        env=child_env(EVALCORE_PROBE=token),
        start_new_session=True,
        preexec_fn=_as_in_a_terminal,
    )
    start = time.monotonic()
    while (
        not ready(child.pid, processes_with(token))
        and child.poll() is None
        and time.monotonic() - start < GUARD
    ):
        time.sleep(0.05)
    before = processes_with(token)
    if child.poll() is not None:
        raise AssertionError(f"evalcore {args[0]} ended (exit {child.returncode}) before it was interrupted")
    sent = time.monotonic()
    if to_group:
        os.killpg(child.pid, sig)
    else:
        child.send_signal(sig)
    try:
        child.wait(GUARD)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    seconds_command = time.monotonic() - sent
    while processes_with(token) and time.monotonic() - sent < GUARD:
        time.sleep(0.01)
    seconds_all = time.monotonic() - sent
    left = processes_with(token)
    for pid in left:  # leave nothing behind for the next test
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    out = child.stdout.read() if child.stdout else b""
    err = child.stderr.read() if child.stderr else b""
    return Stopped(
        child.returncode,
        seconds_command,
        seconds_all,
        len(before),
        left,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
    )


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# a batch long enough to be interrupted: a TedEval job and the attachment scores and paired tests
# of five systems on French-GSD (about 20 s on two busy cores)
def long_manifest(folder: Path) -> Path:
    fr = ASSETS / "fr_gsd"
    a, b = fr / "parses/fr_gsd-test.spacy-ud.conllu.gz", fr / "parses/fr_gsd-test.spacy-ud-seed1.conllu.gz"
    systems = "\n".join(f'{name} = "{path}"' for name, path in zip("abcde", [a, b, a, b, a], strict=True))
    path = folder / "long.toml"
    path.write_text(
        f'[settings]\nshuffles = 10000\n\n[[gold]]\nname = "fr"\n'
        f'file = "{fr / "fr_gsd-ud-test.r2.16.conllu.gz"}"\n'
        f'metrics = ["attach", "tedeval"]\n\n[gold.systems]\n{systems}\n',
        encoding="utf-8",
    )
    return path


def long_tedeval() -> list[str]:
    fr = ASSETS / "fr_gsd"
    return [
        "tedeval",
        "--scheme",
        "ud",
        str(fr / "fr_gsd-ud-test.r2.16.conllu.gz"),
        str(fr / "parses/fr_gsd-test.spacy-ud.conllu.gz"),
        str(fr / "parses/fr_gsd-test.spacy-ud-seed1.conllu.gz"),
        "--scheme",
        "sud",
        str(fr / "fr_gsd-sud-test.r2.16.conllu.gz"),
        str(fr / "parses/fr_gsd-test.spacy-sud.conllu.gz"),
        # a million trials: at work for minutes on any machine (the default 10,000 took 2 s on a fast
        # one, and the command ended before the signal); the signal comes a second into the work
        "--shuffles",
        "1000000",
    ]


@dataclass(frozen=True)
class SignalCase:
    """A command to interrupt, and when it is ready to be (``ready(processes)``)."""

    name: str
    args: Callable[[Path, int], list[str]]  # (folder, port) -> arguments
    ready: Callable[[int], Callable[[int, list[int]], bool]]  # port -> ready(pid, processes)
    cap: int | None = MEMORY_CAP


def catches_sigterm(pid: int) -> bool:
    """Whether ``pid`` has a handler for SIGTERM (``SigCgt`` in ``/proc/PID/status``): evalcore's
    are installed, so the command is past Python's own start-up."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            mask = next((line.split()[1] for line in fh if line.startswith("SigCgt:")), "0")
    except OSError:
        return False
    return bool(int(mask, 16) >> (signal.SIGTERM - 1) & 1)


def _started(count: int) -> Callable[[int], Callable[[int, list[int]], bool]]:
    """Ready once the command has ``count`` processes, its handlers installed, and has run a
    second (it is at work, not starting)."""

    def ready(port: int) -> Callable[[int, list[int]], bool]:
        since: list[float] = []

        def check(pid: int, processes: list[int]) -> bool:
            if not since and catches_sigterm(pid):
                since.append(time.monotonic())
            return len(processes) >= count and bool(since) and time.monotonic() > since[0] + 1.0

        return check

    return ready


def _serving(port: int) -> Callable[[int, list[int]], bool]:
    return lambda pid, processes: http_ok(f"http://127.0.0.1:{port}/_stcore/health")


SIGNAL_CASES: tuple[SignalCase, ...] = (
    # the command, the resource tracker and two workers
    SignalCase("batch-jobs-2", lambda d, p: ["batch", str(long_manifest(d)), "--jobs", "2"], _started(4)),
    SignalCase("tedeval", lambda d, p: long_tedeval(), _started(1)),
    SignalCase("app", lambda d, p: ["app", "--port", str(p)], lambda p: _serving(p), cap=None),
)


def stop_case(case: SignalCase, sig: signal.Signals, to_group: bool) -> Stopped:
    with tempfile.TemporaryDirectory(prefix="evalcore-signal-") as tmp:
        port = free_port()
        return interrupt(
            case.args(Path(tmp), port), sig, ready=case.ready(port), to_group=to_group, cap=case.cap
        )


@contextmanager
def immutable(folder: Path) -> Iterator[bool]:
    """Make ``folder`` unwritable while the generator is suspended (yields whether it worked):
    ``chmod 555`` for a user, ``chattr +i`` for root (whom permissions do not stop)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield True
        finally:
            folder.chmod(0o755)
        return
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False).returncode == 0
    try:
        yield made
    finally:
        if made:
            subprocess.run(["chattr", "-i", str(folder)], capture_output=True, check=False)


# ---------------------------------------------------------------------------
# the reproducers of the issue, each a run that must end with exit 2 and one line


@dataclass(frozen=True)
class Reproducer:
    """A refused run: ``make(folder)`` writes the files and returns the arguments after
    ``evalcore`` and the keyword arguments of :func:`run_evalcore` (``cwd``, ``fsize``)."""

    name: str
    what: str
    make: Callable[[Path], tuple[list[str], dict[str, object]]]


def _old(folder: Path, name: str = "result.txt") -> Path:
    (folder / "out").mkdir(parents=True, exist_ok=True)
    path = folder / "out" / name
    path.write_bytes(b"the old file\n" * 1000)
    return path


def _fr_three(folder: Path) -> list[str]:
    fr = ASSETS / "fr_gsd"
    names = {"g": "fr_gsd-ud-test.r2.16.conllu.gz", "a": "parses/fr_gsd-test.spacy-ud.conllu.gz"}
    names["b"] = "parses/fr_gsd-test.spacy-ud-seed1.conllu.gz"
    paths = []
    for short, name in names.items():
        path = folder / f"{short}.conllu"
        path.write_text(sentences(fr / name, 20), encoding="utf-8")
        paths.append(str(path))
    return paths


def _manifest_text(gold: Path, systems: dict[str, Path], head: str = "") -> str:
    lines = "\n".join(f'{name} = "{path}"' for name, path in systems.items())
    return f'{head}[[gold]]\nname = "fr"\nfile = "{gold}"\nmetrics = ["attach"]\n[gold.systems]\n{lines}\n'


def _write(path: Path, data: str | bytes) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


_FR_GOLD = ASSETS / "fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz"
_FR_A = ASSETS / "fr_gsd/parses/fr_gsd-test.spacy-ud.conllu.gz"
_NONE: dict[str, object] = {}


def _atlas_into(folder: Path, out: str) -> list[str]:
    return [*_atlas(folder).args, "--export-misc", out]


def _batch_into(folder: Path, out: str) -> list[str]:
    return [*_batch(folder).args, "--output", out]


def _one_system(folder: Path, head: str = "") -> Path:
    return _write(folder / "t.toml", _manifest_text(_FR_GOLD, {"a": _FR_A}, head))


_ESC_HEAD = b"1\tw\t_\tX\t_\t_\t\x1b]0;x\x07\troot\t_\t_\n\n"


def _five_and_a_binary(folder: Path) -> list[str]:
    binary = _write(folder / "binary.conllu", bytes(range(256)) * 16)
    systems = {f"s{i}": _FR_A for i in range(1, 6)} | {"s6": binary}
    return ["batch", str(_write(folder / "task.toml", _manifest_text(_FR_GOLD, systems))), "--jobs", "2"]


REPRODUCERS: tuple[Reproducer, ...] = (
    Reproducer(
        "input-as-output/atlas", "--export-misc names the parse it reads",
        lambda d: (_atlas_into(d, str(d / "parse.conllu")), _NONE),
    ),
    Reproducer(
        "input-as-output-symlink/atlas", "--export-misc is a symbolic link to the parse",
        lambda d: (_atlas_into(d, str(_link(d))), _NONE),
    ),
    Reproducer(
        "input-as-output-relative/atlas", "--export-misc spells the parse from another folder",
        lambda d: (_atlas_into(d, "../" + d.name + "/./parse.conllu"), {"cwd": _sibling(d)}),
    ),
    Reproducer(
        "input-as-output/batch", "--output names a system file of the manifest",
        lambda d: (_batch_into(d, str(d / "sample.tst")), _NONE),
    ),
    Reproducer(
        "fsize/atlas", "--export-misc over an old file under prlimit --fsize=512",
        lambda d: (_atlas_into(d, str(_old(d))), {"fsize": 512}),
    ),
    Reproducer(
        "fsize/batch", "--output over an old file under prlimit --fsize=512",
        lambda d: (_batch_into(d, str(_old(d))), {"fsize": 512}),
    ),
    Reproducer("dev-full/atlas", "--export-misc /dev/full", lambda d: (_atlas_into(d, "/dev/full"), _NONE)),
    Reproducer(
        "no-folder/atlas", "--export-misc /nonexistent/x.conllu",
        lambda d: (_atlas_into(d, "/nonexistent/x.conllu"), _NONE),
    ),
    Reproducer("a-folder/atlas", "--export-misc names a folder", lambda d: (_atlas_into(d, str(d)), _NONE)),
    Reproducer(
        "seed-1/attach", "--seed -1, two systems",
        lambda d: (["attach", *_fr_three(d), "--seed", "-1"], _NONE),
    ),
    Reproducer(
        "seed-1/tedeval", "--seed -1, two parses",
        lambda d: (["tedeval", "--scheme", "s", *_fr_three(d), "--seed", "-1"], _NONE),
    ),
    Reproducer(
        "seed-5/batch", "seed = -5 in the manifest",
        lambda d: (["batch", str(_one_system(d, "[settings]\nseed = -5\n"))], _NONE),
    ),
    Reproducer(
        "nested-toml/batch", "a manifest nested 100,000 levels deep",
        lambda d: (["batch", str(_write(d / "t.toml", "x = " + "[" * 10**5 + "]" * 10**5 + "\n"))], _NONE),
    ),
    Reproducer(
        "dask-unreachable/batch", "--dask tcp://127.0.0.1:1: nothing listens there",
        lambda d: (["batch", str(_one_system(d)), "--dask", "tcp://127.0.0.1:1"], _NONE),
    ),
    Reproducer(
        "esc-head/attach", "ESC and BEL in a HEAD column",
        lambda d: (["attach", *[str(_write(d / "e.conllu", _ESC_HEAD))] * 2], _NONE),
    ),
    Reproducer(
        "binary-system/batch", "five good systems and a binary file", lambda d: (_five_and_a_binary(d), _NONE)
    ),
)  # fmt: skip


def _link(folder: Path) -> Path:
    _atlas(folder)
    link = folder / "link.conllu"
    link.symlink_to(folder / "parse.conllu")
    return link


def _sibling(folder: Path) -> Path:
    other = folder.parent / f"{folder.name}-other"
    other.mkdir(exist_ok=True)
    return other
