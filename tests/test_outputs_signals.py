"""Nothing lost, nothing stuck (docs/robustness.md): outputs, interrupts, one-line messages.

* **Outputs.** Every option of every command that names a file the command writes is found from
  the argparse parsers (:func:`outputs_signals.output_options`; a new one is enumerated without
  touching this file, and an option that looks like an output but is not declared as one fails
  a test).  On each: an input given as the output (plain, through a symbolic link, a hard link
  and a relative spelling) is refused before any work; SIGKILL at the first write, a file-size
  limit (``prlimit --fsize``) and ``/dev/full`` leave the old file as it was; a path that cannot
  be written is refused before any work.  Each refusal: exit 2, one line, no traceback.
* **Interrupts.** ``batch --jobs 2``, ``tedeval`` and ``evalcore app`` stop within 2 s of SIGINT
  (to the process group, as Ctrl-C sends it) and of SIGTERM (to the command alone), with every
  process they started; a SIGKILL of ``batch`` or ``app`` leaves no orphan either.
* **Messages.** Control characters from the input are escaped in every message; a negative
  seed, a manifest nested too deeply and an unreachable Dask scheduler are one line.
* **Batch.** A bad file is named before any job runs; the first failed job stops the others;
  ``--keep-going`` prints what finished.

Every command runs in a child capped at 500 MiB of address space, with a hang guard.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from outputs_signals import (
    ASSETS,
    INVOCATIONS,
    REPRODUCERS,
    ROOT,
    SIGNAL_CASES,
    Reproducer,
    SignalCase,
    child_env,
    immutable,
    long_manifest,
    one_line_problems,
    output_options,
    run_evalcore,
    stop_case,
    subcommands,
)

from evalcore.batch import read_manifest, run_batch, run_batch_outcome, serial_map
from evalcore.cli import main
from evalcore.errors import InputFormatError, OutputError, one_line
from evalcore.limits import Limits
from evalcore.outputs import check_output, open_output, write_text

OPTIONS = output_options()
# the fast run checks the quick commands' outputs; atlas and batch (a second of start-up each) run
# in make test
CHECKED = [
    pytest.param(c, o, marks=(pytest.mark.slow,) if c in ("atlas", "batch") else (), id=f"{c}-{o}")
    for c, o in OPTIONS
]
OLD = b"the old file: it must survive\n" * 200


def _id(value: object) -> str:
    return "-".join(value) if isinstance(value, tuple) else str(value)


# --- which options write files ------------------------------------------------------------------


NOT_OUTPUTS = {
    ("atlas", "--export-parse"): "the name of a parse",
    ("atlas", "--export-target"): "the name of a scheme or generalization",
    ("atlas", "--export-side"): "gold or parse",
}
"""Options that look like outputs by their name or help and are not."""


def _looks_like_an_output(action: argparse.Action) -> bool:
    names = " ".join(action.option_strings)
    return bool(
        re.search(r"(^|\s)-o\b|--(out|output|export|save|dump|write|report)", names)
        or re.search(r"OUT", str(action.metavar or ""))
        or re.search(r"\b(write|writes|save|saves)\b[^.;]*\b(file|to)\b", action.help or "", re.IGNORECASE)
    )


def test_the_output_options_are_found_from_the_parsers() -> None:
    assert ("atlas", "--export-misc") in OPTIONS and ("batch", "--output") in OPTIONS
    for command, option in OPTIONS:
        assert command in INVOCATIONS, f"give {command} (which writes {option}) an invocation in INVOCATIONS"


def test_no_other_option_looks_like_an_output() -> None:
    declared = set(OPTIONS)
    for command, parser in subcommands().items():
        for action in parser._actions:
            if not action.option_strings or action.nargs == 0 or isinstance(action, argparse._HelpAction):
                continue
            key = (command, max(action.option_strings, key=len))
            if _looks_like_an_output(action) and key not in declared:
                assert key in NOT_OUTPUTS, f"{key} looks like an output: declare it with OutputOption"


def _snapshot(paths: list[Path]) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in paths}


@pytest.mark.slow
@pytest.mark.parametrize(("command", "option"), CHECKED)
def test_the_option_writes_its_file(command: str, option: str, tmp_path: Path) -> None:
    run = INVOCATIONS[command](tmp_path)
    out = tmp_path / "out" / "result.txt"
    out.parent.mkdir()
    done = run_evalcore([*run.args, option, str(out)])
    assert done.code == 0, done.stderr
    assert out.stat().st_size > 0 and sorted(out.parent.iterdir()) == [out]  # no temporary left
    if command == "batch":  # the file holds what standard output would have
        assert out.read_text(encoding="utf-8") == run_evalcore(run.args).stdout


@pytest.mark.parametrize(("command", "option"), CHECKED)
def test_an_input_given_as_the_output_is_refused(command: str, option: str, tmp_path: Path) -> None:
    run = INVOCATIONS[command](tmp_path / "in")
    first = run.inputs[0] if command != "batch" else run.inputs[2]  # batch: a data file, not the manifest
    other = tmp_path / "other"
    other.mkdir()
    (other / "link").symlink_to(first)
    os.link(first, other / "hard")
    spellings: list[tuple[str, Path | None]] = [(str(p), None) for p in run.inputs]
    spellings += [
        (str(other / "link"), None),  # a symbolic link to an input
        (str(other / "hard"), None),  # a hard link: the same file by inode
        (f"../in/./{first.name}", other),  # a relative spelling, from another folder
    ]
    before = _snapshot(run.inputs)
    for spelled, cwd in spellings:
        done = run_evalcore([*run.args, option, spelled], cwd=cwd)
        assert one_line_problems(done) == [], (spelled, done.stderr)
        assert option in done.stderr and "input file" in done.stderr, done.stderr
    assert _snapshot(run.inputs) == before


@pytest.mark.parametrize(("command", "option"), CHECKED)
def test_sigkill_at_the_first_write_leaves_the_old_file(command: str, option: str, tmp_path: Path) -> None:
    run = INVOCATIONS[command](tmp_path / "in")
    old = tmp_path / "out" / "result.txt"
    old.parent.mkdir()
    old.write_bytes(OLD)
    done = run_evalcore([*run.args, option, str(old)], kill_at_write_in=old.parent)
    assert done.code == -signal.SIGKILL, f"not killed at a write: exit {done.code} {done.stderr}"
    assert old.read_bytes() == OLD
    # a SIGKILL cannot be cleaned up after: at most the temporary file is left beside the old one
    left = [p.name for p in old.parent.iterdir() if p != old]
    assert all(re.fullmatch(r"\.result\.txt\.[0-9a-f]{8}\.tmp", name) for name in left), left


@pytest.mark.parametrize(("command", "option"), CHECKED)
def test_a_full_disk_leaves_the_old_file(command: str, option: str, tmp_path: Path) -> None:
    run = INVOCATIONS[command](tmp_path / "in")
    old = tmp_path / "out" / "result.txt"
    old.parent.mkdir()
    old.write_bytes(OLD)
    done = run_evalcore([*run.args, option, str(old)], fsize=512)  # as `prlimit --fsize=512`
    assert one_line_problems(done) == [], done.stderr
    assert "File too large" in done.stderr and "the old file is left as it was" in done.stderr
    assert old.read_bytes() == OLD and sorted(old.parent.iterdir()) == [old]  # the temporary is gone
    full = run_evalcore([*run.args, option, "/dev/full"])  # a device is written in place
    assert one_line_problems(full) == [] and "No space left on device" in full.stderr, full.stderr


@pytest.mark.parametrize(("command", "option"), CHECKED)
def test_a_path_that_cannot_be_written_is_refused(command: str, option: str, tmp_path: Path) -> None:
    run = INVOCATIONS[command](tmp_path / "in")
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    for path, words in (
        (tmp_path / "nosuch" / "x.out", "does not exist"),
        (tmp_path, "is a folder"),
        (a_file / "x.out", "Not a directory"),
    ):
        done = run_evalcore([*run.args, option, str(path)])
        assert one_line_problems(done) == [] and words in done.stderr, (path, done.stderr)
    with immutable(locked) as made:
        if not made:
            pytest.skip("cannot make a folder unwritable here (chattr failed)")
        done = run_evalcore([*run.args, option, str(locked / "x.out")])
    assert one_line_problems(done) == [] and "not writable" in done.stderr, done.stderr


def test_the_output_is_checked_before_the_command_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import evalcore.commands.atlas as atlas

    def must_not_run(args: argparse.Namespace) -> int:
        raise AssertionError("the command ran")

    monkeypatch.setattr(atlas, "run", must_not_run)
    run = INVOCATIONS["atlas"](tmp_path)
    for out in (str(run.inputs[1]), str(tmp_path / "nosuch" / "x.conllu"), str(tmp_path)):
        assert main([*run.args, "--export-misc", out]) == 2
        assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("case", REPRODUCERS, ids=lambda c: c.name)
def test_every_reproducer_is_one_line_under_the_cap(case: Reproducer, tmp_path: Path) -> None:
    """The issue's reproducers, each as a new user would meet it: exit 2, one line, no traceback,
    nothing on stdout, under 500 MiB of address space (times and memory: the benchmark)."""
    folder = tmp_path / "case"
    folder.mkdir()
    argv, options = case.make(folder)
    done = run_evalcore(argv, **options)  # type: ignore[arg-type]
    assert one_line_problems(done) == [], (case.what, done.stderr[-500:])


# --- the atomic writer itself -------------------------------------------------------------------


def test_an_interrupt_or_an_error_while_writing_leaves_the_old_file(tmp_path: Path) -> None:
    old = tmp_path / "old.txt"
    old.write_bytes(OLD)
    with pytest.raises(KeyboardInterrupt), open_output(str(old)) as fh:
        fh.write("half of the new text")
        raise KeyboardInterrupt
    with pytest.raises(OutputError) as info, open_output(str(old)) as fh:
        fh.write("half")
        raise OSError(28, "No space left on device")
    assert str(info.value) == f"{old}: cannot write: No space left on device; the old file is left as it was"
    assert old.read_bytes() == OLD and sorted(tmp_path.iterdir()) == [old]


def test_the_new_file_keeps_the_old_ones_permissions_and_a_link_its_target(tmp_path: Path) -> None:
    old = tmp_path / "old.txt"
    old.write_bytes(OLD)
    old.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(old)
    write_text(str(link), "new\n")
    assert link.is_symlink() and old.read_text(encoding="utf-8") == "new\n"
    assert stat.S_IMODE(old.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.txt"
    write_text(str(fresh), "x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask
    write_text(check_output("/dev/null"), "thrown away")  # a device: written in place
    assert Path("/dev/null").is_char_device()


def test_an_input_is_recognized_by_its_inode(tmp_path: Path) -> None:
    data = tmp_path / "data.conllu"
    data.write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="input file"):
        check_output(str(tmp_path / "." / "data.conllu"), [data], "--out")
    assert check_output(str(tmp_path / "new.conllu"), [data]).existed is False
    copy = tmp_path / "copy.conllu"  # the same bytes, another file: it may be written
    copy.write_bytes(data.read_bytes())
    assert check_output(str(copy), [data]).existed is True


# --- messages -----------------------------------------------------------------------------------

C0_C1 = [*range(0x00, 0x09), *range(0x0E, 0x1C), 0x1F, *range(0x7F, 0x85), *range(0x86, 0xA0)]
CONTROLS = "".join(map(chr, C0_C1))  # the line breaks (LF, VT, FF, CR, FS, GS, RS, NEL) become spaces
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def test_one_line_escapes_every_control_character() -> None:
    text = one_line(f"a{CONTROLS}{BIDI}\tb\x1b]0;title\x07c")
    assert not any(ch in text for ch in CONTROLS + BIDI)
    assert "\t" in text and "\\x1b]0;title\\x07c" in text and "\\u202e" in text


def test_the_escape_and_bell_of_a_head_column_are_escaped(tmp_path: Path) -> None:
    bad = tmp_path / "esc.conllu"
    bad.write_bytes(b"1\tThe\t_\tX\t_\t_\t\x1b]0;pwned\x07\x1b[31m\troot\t_\t_\n\n")
    done = run_evalcore(["attach", str(bad), str(bad)])
    assert one_line_problems(done) == [], done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "\\x1b]0;pwned\\x07\\x1b[31m" in done.stderr


def test_a_file_name_with_control_characters_is_escaped(tmp_path: Path) -> None:
    done = run_evalcore(["attach", str(tmp_path / "a\x1b[2Jb\x07.conllu"), str(tmp_path / "x.conllu")])
    assert one_line_problems(done) == [] and "\x1b" not in done.stderr and "\\x1b[2Jb\\x07" in done.stderr


def test_a_usage_error_escapes_what_it_quotes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["attach", "--max-tokens", "\x1b[31mX", "g", "s"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "\x1b" not in err and "got '\\x1b[31mX'" in err


@pytest.mark.slow
def test_commands_print_on_stderr_only_through_one_place() -> None:
    """``evalcore/commands/_common.py`` (``say``, ``warn``, ``refuse``) and ``evalcore/cli.py``
    are the only modules that print on stderr, and they print through ``one_line``."""
    allowed = {ROOT / "evalcore/commands/_common.py", ROOT / "evalcore/cli.py"}
    for path in sorted((ROOT / "evalcore").rglob("*.py")):
        if path in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "stderr":
                raise AssertionError(f"{path.relative_to(ROOT)}:{node.lineno}: print through _common.say")


# --- settings -----------------------------------------------------------------------------------

FR = ASSETS / "fr_gsd"
FR_GOLD, FR_A, FR_B = (
    FR / "fr_gsd-ud-test.r2.16.conllu.gz",
    FR / "parses/fr_gsd-test.spacy-ud.conllu.gz",
    FR / "parses/fr_gsd-test.spacy-ud-seed1.conllu.gz",
)
SAMPLE = ASSETS / "evalb/sample"


def _small(folder: Path) -> list[str]:
    from outputs_signals import sentences

    files = []
    for name, src in (("g.conllu", FR_GOLD), ("a.conllu", FR_A), ("b.conllu", FR_B)):
        (folder / name).write_text(sentences(src, 20), encoding="utf-8")
        files.append(str(folder / name))
    return files


NEGATIVE_SEEDS = {
    "attach-two-systems": lambda g, a, b: ["attach", g, a, b],
    "attach-bootstrap": lambda g, a, b: ["attach", g, a, "--bootstrap", "10"],
    "tedeval": lambda g, a, b: ["tedeval", "--scheme", "s", g, a, b],
    "tedeval-bootstrap": lambda g, a, b: ["tedeval", "--scheme", "s", g, a, "--bootstrap", "10"],
    "atlas": lambda g, a, b: ["atlas", "--scheme", "s", g, a, b],
    "freval-two-systems": lambda g, a, b: [
        "freval", str(SAMPLE / "sample.gld"), str(SAMPLE / "sample.tst"), str(SAMPLE / "sample.gld")
    ],
    "lattice-bootstrap": lambda g, a, b: ["lattice", g, a, "--bootstrap", "10"],
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(NEGATIVE_SEEDS))
def test_a_negative_seed_is_one_line(case: str, tmp_path: Path) -> None:
    done = run_evalcore([*NEGATIVE_SEEDS[case](*_small(tmp_path)), "--seed", "-1"])
    assert one_line_problems(done) == [], done.stderr
    assert "--seed must be a non-negative integer, got -1" in done.stderr


def _manifest(folder: Path, systems: dict[str, Path], *, metrics: str = '["attach"]', head: str = "") -> Path:
    path = folder / "task.toml"
    lines = "\n".join(f'{name} = "{file}"' for name, file in systems.items())
    path.write_text(
        f'{head}[[gold]]\nname = "fr"\nfile = "{FR_GOLD}"\nmetrics = {metrics}\n[gold.systems]\n{lines}\n',
        encoding="utf-8",
    )
    return path


def test_a_negative_seed_in_a_manifest_names_its_line(tmp_path: Path) -> None:
    path = _manifest(tmp_path, {"a": FR_A}, head="[settings]\nseed = -5\n\n")
    done = run_evalcore(["batch", str(path)])
    assert one_line_problems(done) == [], done.stderr
    assert done.stderr.startswith(f"{path}:2: seed must be a non-negative integer")


def test_a_manifest_nested_too_deeply_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("[settings]\nseed = 1\nx = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    done = run_evalcore(["batch", str(path)])
    assert one_line_problems(done) == [], done.stderr
    assert done.stderr.startswith(f"{path}:3: not a TOML manifest: arrays or tables nested too deeply")


def test_a_dask_address_where_nothing_listens_is_one_line_at_once(tmp_path: Path) -> None:
    path = _manifest(tmp_path, {"a": FR_A})
    done = run_evalcore(["batch", str(path), "--dask", "tcp://127.0.0.1:1"])
    assert one_line_problems(done) == [], done.stderr
    assert done.stderr.startswith(
        "evalcore batch: cannot reach the Dask scheduler at tcp://127.0.0.1:1 (waited "
    )
    assert "Connection refused" in done.stderr


@pytest.mark.slow
def test_a_dask_scheduler_that_does_not_answer_is_one_line_after_the_timeout(tmp_path: Path) -> None:
    """A server that accepts the connection and says nothing held distributed's client for ever
    (its timeout bounds the connection, not the handshake)."""
    pytest.importorskip("distributed")
    path = _manifest(tmp_path, {"a": FR_A})
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        done = run_evalcore(["batch", str(path), "--dask", address, "--dask-timeout", "2"])
    assert one_line_problems(done) == [], done.stderr
    found = re.search(rf"the Dask scheduler at {address} \(waited ([0-9.]+) s\): no answer", done.stderr)
    assert found, done.stderr
    assert 2.0 <= float(found.group(1)) <= 4.0  # the timeout it was given (and one second), not for ever


# --- batch: files checked first, fail fast, --keep-going -----------------------------------------

# Control bytes, a tab and line breaks (LF at byte 10, CR at 13): line 1 has two columns.
BINARY = bytes(range(256)) * 16


def _five_good_and_a_binary(folder: Path) -> tuple[Path, Path]:
    binary = folder / "system6.conllu"
    binary.write_bytes(BINARY)
    systems = {f"s{i}": FR_A if i % 2 else FR_B for i in range(1, 6)} | {"s6": binary}
    return _manifest(folder, systems), binary


def test_a_binary_file_is_named_before_any_job_runs(tmp_path: Path) -> None:
    path, binary = _five_good_and_a_binary(tmp_path)

    def no_job(fn: object, items: object) -> list[object]:
        raise AssertionError("a job ran")

    with pytest.raises(InputFormatError) as info:
        run_batch(read_manifest(str(path)), Limits(), no_job)
    message = str(info.value)
    assert (
        message.startswith(f"{binary}:1: expected 10 tab-separated columns")
        and f"system 's6' of gold 'fr', {path}:" in message
    )
    done = run_evalcore(["batch", str(path), "--jobs", "2"])
    assert one_line_problems(done) == [] and done.stderr.startswith(f"{binary}:1: "), done.stderr


@pytest.mark.slow
def test_keep_going_prints_the_rows_of_the_jobs_that_finished(tmp_path: Path) -> None:
    path, binary = _five_good_and_a_binary(tmp_path)
    done = run_evalcore(["batch", str(path), "--jobs", "1", "--keep-going", "--format", "csv"])
    assert done.code == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [done.stderr.strip()] and done.stderr.startswith(f"{binary}:1: ")
    rows = done.stdout.splitlines()[1:]
    systems = {row.split(",")[1] for row in rows}
    assert systems == {"s1", "s2", "s3", "s4", "s5"}
    assert len(rows) == 5 * 5 + 10 * 5  # 5 scores of 5 systems, 5 p-values of the 10 pairs
    outcome = run_batch_outcome(read_manifest(str(path)), Limits(), serial_map, keep_going=True)
    assert [(f.gold, f.metric, f.systems) for f in outcome.failures] == [("fr", "attach", ("s6",))]


@pytest.mark.slow
def test_a_job_that_fails_while_running_is_kept_going_past(tmp_path: Path) -> None:
    from outputs_signals import sentences

    late = tmp_path / "late.conllu"  # the second sentence is bad: found by the job, not the check
    good = sentences(FR_A, 2).split("\n\n")
    late.write_text(good[0] + "\n\n1\tword\t_\tX\t_\t_\tnot-a-head\tdep\t_\t_\n\n", encoding="utf-8")
    path = _manifest(tmp_path, {"a": FR_A, "late": late})
    stopped = run_evalcore(["batch", str(path), "--jobs", "2"])
    assert one_line_problems(stopped) == [] and stopped.stderr.startswith(f"{late}:"), stopped.stderr
    kept = run_evalcore(["batch", str(path), "--jobs", "2", "--keep-going", "--format", "csv"])
    assert kept.code == 2 and kept.stderr.startswith(f"{late}:") and kept.stderr.count("\n") == 1
    assert {row.split(",")[1] for row in kept.stdout.splitlines()[1:]} == {"a"}


def test_the_first_failed_job_stops_the_others_at_once() -> None:
    """A job fails while another would run for 30 s: the error comes back at once and the
    workers are stopped (``time.sleep(-1)`` raises ``ValueError`` in its worker).  In a fresh
    interpreter: spawned workers import the parent's ``__main__``, which Streamlit's AppTest
    replaces in a test process."""
    probe = (
        "import multiprocessing, time\n"
        "from evalcore.commands.batch import local_mapper\n"
        "start = time.monotonic()\n"
        "try:\n"
        "    with local_mapper(2) as mapper:\n"
        "        mapper(time.sleep, [30, -1])\n"
        "except ValueError as exc:\n"
        "    took = round(time.monotonic() - start, 1)\n"
        "    print(str(exc).replace(' ', '_'), took, len(multiprocessing.active_children()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, env=child_env(), timeout=120
    )
    message, elapsed, children = done.stdout.split()
    assert "non-negative" in message, done.stderr
    assert float(elapsed) < 20  # not after the 30 s job
    assert children == "0"


def test_a_signal_ignored_at_the_start_stays_ignored() -> None:
    from evalcore.interrupts import Interrupted, stop_on_signals

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stop_on_signals():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN  # nohup: left as it was
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN)
            with pytest.raises(Interrupted) as info:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(1)  # the handler runs at the next instruction
            assert info.value.signum == signal.SIGTERM and info.value.name == "SIGTERM"
            os.kill(os.getpid(), signal.SIGINT)  # a second signal: the cleanup of the first runs on
            time.sleep(0.2)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


# --- interrupts ---------------------------------------------------------------------------------

DEADLINE = 2.0  # seconds from the signal until the command and every process it started are gone


def _signal_params() -> list[object]:
    params: list[object] = []
    for case in SIGNAL_CASES:  # each over a second of CPU (a command's start-up and its children's)
        for sig, group in ((signal.SIGINT, True), (signal.SIGTERM, False)):
            params.append(
                pytest.param(case, sig, group, marks=[pytest.mark.slow], id=f"{case.name}-{sig.name}")
            )
    return params


def _stop_problems(case: SignalCase, sig: signal.Signals, done_code: int | None, stderr: str) -> list[str]:
    found = []
    if done_code != 128 + sig:
        found.append(f"exit {done_code}, expected {128 + sig}")
    if "Traceback" in stderr:
        found.append("a traceback")
    last = stderr.splitlines()[-1] if stderr.strip() else ""
    if last != f"evalcore {case.name.split('-')[0]}: stopped by {sig.name}":
        found.append(f"last line {last!r}")
    return found


@pytest.mark.timeout(180)
@pytest.mark.parametrize(("case", "sig", "to_group"), _signal_params())
def test_a_command_stops_within_2_s_of_a_signal_with_its_children(
    case: SignalCase, sig: signal.Signals, to_group: bool
) -> None:
    if case.name == "app":
        pytest.importorskip("streamlit")
    stopped = stop_case(case, sig, to_group)
    assert stopped.left == [], f"orphans: {stopped.left}"
    assert stopped.seconds_all <= DEADLINE, stopped
    assert _stop_problems(case, sig, stopped.code, stopped.stderr) == [], stopped.stderr[-500:]
    if case.name != "app":  # Streamlit writes its own lines before evalcore's last one
        assert stopped.stdout == ""  # no partial output
        assert stopped.stderr.count("\n") == 1


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", [pytest.param("batch-jobs-2"), pytest.param("app", marks=pytest.mark.slow)])
def test_a_sigkill_of_the_command_leaves_no_orphan(name: str) -> None:
    if name == "app":
        pytest.importorskip("streamlit")
    case = next(c for c in SIGNAL_CASES if c.name == name)
    stopped = stop_case(case, signal.SIGKILL, to_group=False)
    assert stopped.code == -signal.SIGKILL and stopped.processes_before >= 2
    assert stopped.left == [] and stopped.seconds_all <= DEADLINE, stopped


@pytest.mark.timeout(180)
def test_an_interrupted_batch_leaves_its_output_file_as_it_was(tmp_path: Path) -> None:
    from outputs_signals import interrupt

    old = tmp_path / "out" / "table.csv"
    old.parent.mkdir()
    old.write_bytes(OLD)
    args = ["batch", str(long_manifest(tmp_path)), "--jobs", "2", "--output", str(old)]
    stopped = interrupt(args, signal.SIGTERM, ready=lambda pid, procs: len(procs) >= 4, to_group=False)
    assert stopped.code == 128 + signal.SIGTERM and stopped.left == []
    assert old.read_bytes() == OLD and sorted(old.parent.iterdir()) == [old]
