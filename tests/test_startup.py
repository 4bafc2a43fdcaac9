"""Start-up of the command line: only the chosen command's module is imported.

Structural checks, not timings (the figures are printed by ``benchmarks/bench_startup.py``): a fresh
interpreter that imports :mod:`evalcore.cli`, or builds the parser for ``--help`` or for one
command, has not imported numpy, pandas, edist or another command's module; and the one-line helps
that ``evalcore --help`` prints without importing the modules are the ones the modules register.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from evalcore.cli import COMMANDS, build_parser, chosen_command

HEAVY = ("numpy", "pandas", "edist", "scipy")
USES = {"freval": {"parseval"}}  # freval takes parseval's bracket-extraction arguments


def _loaded_after(code: str) -> list[str]:
    """Top-level names of the modules loaded by ``code`` in a fresh interpreter, plus command modules."""
    probe = (
        "import sys\n"
        f"{code}\n"
        "import json\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} "
        "| {m for m in sys.modules if m.startswith('evalcore.commands.')})))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(out.stdout)
    return loaded


def test_importing_the_cli_loads_no_heavy_library_and_no_command() -> None:
    loaded = _loaded_after("import evalcore.cli")
    assert "evalcore" in loaded  # the probe does see the package
    assert [m for m in HEAVY if m in loaded] == []
    assert [m for m in loaded if m.startswith("evalcore.commands.")] == []


@pytest.mark.parametrize("command", ["", "attach", "parseval", "freval", "app", "batch"])
def test_building_one_commands_parser_imports_only_that_command(command: str) -> None:
    loaded = _loaded_after(f"from evalcore.cli import build_parser; build_parser(only={command!r})")
    assert [m for m in HEAVY if m in loaded] == []
    commands = {m.removeprefix("evalcore.commands.") for m in loaded if m.startswith("evalcore.commands.")}
    assert commands - {command, "_common"} <= USES.get(command, set())
    if command:
        assert command in commands


def test_the_help_table_is_what_the_modules_register() -> None:
    parser = build_parser()  # every module imported, each registering its own help
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    registered = [(action.dest, action.help) for action in sub._choices_actions]
    assert registered == list(COMMANDS)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--help"], ""),
        ([], ""),
        (["attach", "g.conllu", "s.conllu"], "attach"),
        (["--version", "freval"], "freval"),
        (["nosuch", "attach"], ""),  # the first positional is not a command: argparse reports it
        (["-h", "parseval"], "parseval"),
    ],
)
def test_chosen_command(argv: list[str], expected: str) -> None:
    assert chosen_command(argv) == expected


def test_a_placeholder_parser_is_never_run() -> None:
    """Each real command sets ``run``; a placeholder does not, and ``main`` then builds the whole parser."""
    args = build_parser(only="attach").parse_args(["parseval"])
    assert not hasattr(args, "run")
    args = build_parser(only="parseval").parse_args(["parseval", "g", "t"])
    assert callable(args.run)


def test_importing_evalcore_stays_light() -> None:
    """``import evalcore`` (the public API of docs/api.md) loads no heavy library, no metric, no
    reader, writer or drawing: each API function imports what it runs when called."""
    loaded = _loaded_after("import evalcore; evalcore.attach; evalcore.lattice; evalcore.tedeval")
    assert [m for m in HEAVY if m in loaded] == []
    probe = (
        "import sys, evalcore\n"
        "print(sorted(m for m in sys.modules if m.startswith(('evalcore.metrics', 'evalcore.report', "
        "'evalcore.render', 'evalcore.formats', 'evalcore.experiment', 'evalcore.notebook'))))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_light_import_check_sees_a_heavy_one() -> None:
    """The probe itself: running an evaluation loads what it needs (TedEval's significance test: numpy)."""
    loaded = _loaded_after(
        "import evalcore\n"
        "t = evalcore.read('1\\ta\\t_\\t_\\t_\\t_\\t0\\troot\\t_\\t_\\n\\n')\n"
        "evalcore.tedeval({'g': (t, {'p': t})}, shuffles=10)"
    )
    assert "numpy" in loaded


# Running a command on one sentence: what it does not import (lazy imports).
LAZY = {
    "attach": (
        "evalcore.resampling",
        "evalcore.significance",
        "evalcore.metrics.breakdown",
        "evalcore.metrics.conll18",
        "evalcore.report.conll18",
        "secrets",
        "hashlib",
        "evalcore.report.breakdown",
        "evalcore.report.resampling",
        "json",
        "csv",
        "gzip",
        "tempfile",
    ),
    "parseval": (
        "evalcore.resampling",
        "secrets",
        "evalcore.report.resampling",
        "json",
        "csv",
        "gzip",
        "tempfile",
    ),
    "freval": (
        "evalcore.resampling",
        "evalcore.significance",
        "evalcore.report.resampling",
        "numpy",
        "json",
        "csv",
        "gzip",
        "tempfile",
    ),
}
CONLLU_SENTENCE = "1\tHello\thello\tINTJ\tUH\t_\t0\troot\t_\t_\n2\t!\t!\tPUNCT\t.\t_\t1\tpunct\t_\t_\n\n"
PTB_SENTENCE = "(S (NP (DT the) (NN dog)) (VP (VBD ran)))\n"


def _modules_after_running(argv: list[str]) -> set[str]:
    probe = (
        "import sys, io, contextlib\n"
        "from evalcore.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    code = main({argv!r})\n"
        "loaded = sorted(sys.modules)\n"
        "import json\n"
        "sys.stdout.write(json.dumps([code, out.getvalue(), loaded]))\n"
    )
    # the probe imports json itself only after the command ran and its modules were listed
    # (the settings of --bootstrap and of the paired test are checked by every run of attach and
    # freval: evalcore.resampling_settings is loaded, the resampling and the significance tests not)
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    code, output, loaded = json.loads(res.stdout)
    assert code == 0 and output  # the command did run
    return set(loaded)


@pytest.mark.parametrize("command", ["attach", "parseval", "freval"])
def test_a_command_on_one_sentence_imports_only_what_it_uses(command: str, tmp_path: Path) -> None:
    if command == "attach":
        gold = tmp_path / "g.conllu"
        gold.write_text(CONLLU_SENTENCE, encoding="utf-8")
    else:
        gold = tmp_path / "g.gld"
        gold.write_text(PTB_SENTENCE, encoding="utf-8")
    loaded = _modules_after_running([command, str(gold), str(gold)])
    assert f"evalcore.commands.{command}" in loaded
    assert sorted(m for m in LAZY[command] if m in loaded) == []
    assert [m for m in HEAVY if m in loaded] == []
