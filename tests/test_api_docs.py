"""docs/api.md runs as shown, and its numbers are the command line's.

Every ```python block of the page is run in order in one namespace, from the repository's root;
a ```text block right after a block is what it must print (trailing spaces aside).  A block
marked ```python spacy needs spaCy and a model: it runs only where spaCy is installed.

The results the page computes are then compared with ``evalcore COMMAND --format json`` on the
same files and options (the API's ``to_dict()`` is that document), and evalb's figures with
evalb's own output ``assets/evalb/sample/sample.rsl`` (a number from outside evalcore).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "api.md"
CLI = [sys.executable, "-m", "evalcore"]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

BLOCK = re.compile(r"^```(python(?: spacy)?)\n(.*?)^```\n(?:\n```text\n(.*?)^```\n)?", re.S | re.M)


def doc_blocks(text: str) -> list[tuple[str, str, str | None, int]]:
    """(kind, code, expected output or None, line) of every python block of the page."""
    return [
        (m.group(1), m.group(2), m.group(3), text.count("\n", 0, m.start()) + 1) for m in BLOCK.finditer(text)
    ]


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


@pytest.fixture(scope="module")
def namespace() -> dict[str, object]:
    """The page run block by block (each block's output checked as it runs)."""
    mp = pytest.MonkeyPatch()
    mp.chdir(ROOT)
    ns: dict[str, object] = {}
    try:
        for kind, code, expected, line in doc_blocks(DOC.read_text(encoding="utf-8")):
            if kind == "python spacy" and importlib.util.find_spec("spacy") is None:
                continue
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, f"{DOC}:{line}", "exec"), ns)
            if expected is not None:
                assert _lines(out.getvalue()) == _lines(expected), f"docs/api.md:{line}"
    finally:
        mp.undo()
    return ns


def test_the_page_has_an_example_of_every_function() -> None:
    code = "".join(c for _, c, _, _ in doc_blocks(DOC.read_text(encoding="utf-8")))
    for name in ("read", "attach", "parseval", "freval", "tedeval", "atlas", "lattice", "inspect"):
        assert f"evalcore.{name}(" in code, name


def test_every_block_runs_and_prints_what_the_page_shows(namespace: dict[str, object]) -> None:
    blocks = doc_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 14
    assert sum(1 for _, _, expected, _ in blocks if expected is not None) >= 12
    assert "attached" in namespace and "joint" in namespace


def _json(*args: str) -> dict[str, object]:
    done = subprocess.run([*CLI, *args, "--format", "json"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    doc: dict[str, object] = json.loads(done.stdout)
    return doc


def _result(ns: dict[str, object], name: str) -> dict[str, object]:
    value = ns[name]
    to_dict = getattr(value, "to_dict")  # noqa: B009 - any of the result objects
    doc: dict[str, object] = to_dict()
    return doc


EWT = (
    "assets/en_ewt/en_ewt-ud-test.r2.16.conllu.gz",
    "assets/en_ewt/en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz",
)


def test_attach_is_the_command_lines(namespace: dict[str, object]) -> None:
    assert _result(namespace, "attached") == _json("attach", *EWT)
    short = _json("attach", *EWT, "--no-punct", "--max-len", "10", "--per-sentence")
    assert _result(namespace, "short") == short


def test_parseval_is_the_command_lines_and_evalbs(namespace: dict[str, object]) -> None:
    sample = "assets/evalb/sample/"
    cli = _json("parseval", sample + "sample.gld", sample + "sample.tst", "--prm", sample + "sample.prm")
    assert _result(namespace, "bracketed") == cli
    # evalb's own report of the same files (sample.rsl, its "-- All --" summary)
    rsl = (ROOT / sample / "sample.rsl").read_text(encoding="utf-8").split("-- All --")[1]
    recall = float(re.search(r"Bracketing Recall\s*=\s*([\d.]+)", rsl).group(1))  # type: ignore[union-attr]
    precision = float(re.search(r"Bracketing Precision\s*=\s*([\d.]+)", rsl).group(1))  # type: ignore[union-attr]
    s = namespace["bracketed"].all  # type: ignore[attr-defined]
    assert (round(100 * s.recall, 2), round(100 * s.precision, 2)) == (recall, precision) == (87.76, 90.53)


def test_freval_is_the_command_lines(namespace: dict[str, object]) -> None:
    cli = _json(
        "freval",
        "assets/farpahc/far_split0testing.oneline.psd.gz",
        "assets/farpahc/far_split0machineparsed.psd.gz",
        "--prm",
        "assets/farpahc/sample.prm.as_used_for_far0eval",
        "--function-separators=-=*",
        "--max-size",
        "3",
    )
    assert _result(namespace, "fragments") == cli


def test_tedeval_is_the_command_lines(namespace: dict[str, object]) -> None:
    cli = _json(
        "tedeval",
        "--scheme",
        "ud",
        "assets/fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz",
        "parser=assets/fr_gsd/parses/fr_gsd-test.spacy-ud.conllu.gz",
        "--scheme",
        "sud",
        "assets/fr_gsd/fr_gsd-sud-test.r2.16.conllu.gz",
        "sud-parser=assets/fr_gsd/parses/fr_gsd-test.spacy-sud.conllu.gz",
        "--shuffles",
        "1000",
    )
    assert _result(namespace, "experiment") == cli


def test_lattice_is_the_command_lines(namespace: dict[str, object]) -> None:
    cli = _json(
        "lattice",
        "tests/fixtures/yap_alternative.conll",
        "assets/hebrew_yap/output.conll",
        "--gold-lattice",
        "tests/fixtures/yap_alternative.lattice",
        "--pred-lattice",
        "assets/hebrew_yap/output.mapping",
    )
    assert _result(namespace, "joint") == cli


def test_the_inspected_sentence_is_the_command_lines(namespace: dict[str, object]) -> None:
    """The edit scripts of one sentence (``evalcore.inspect``) score what ``evalcore tedeval
    --per-sentence`` reports for that sentence, against its own gold and the generalization."""
    cli = _json(
        "tedeval",
        "--scheme",
        "ud",
        "assets/fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz",
        "parser=assets/fr_gsd/parses/fr_gsd-test.spacy-ud.conllu.gz",
        "--scheme",
        "sud",
        "assets/fr_gsd/fr_gsd-sud-test.r2.16.conllu.gz",
        "--shuffles",
        "10",
        "--per-sentence",
    )
    details = cli["per_sentence"]
    assert isinstance(details, list)
    scores = {d["against"]: d for d in details if d["parse"] == "parser" and d["index"] == 1 and d["labeled"]}
    single, multiple = namespace["single"], namespace["multiple"]
    assert scores["ud"]["score"] == single.score  # type: ignore[attr-defined]
    assert scores["ud+sud"]["score"] == multiple.score  # type: ignore[attr-defined]
    assert len(scores["ud+sud"]["discounted"]) == len(multiple.discounted)  # type: ignore[attr-defined]
