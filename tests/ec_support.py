"""Helpers shared by the test modules (imported as ``from ec_support import ...``).

Kept out of ``conftest.py`` so that importing them never depends on which
``conftest`` module Python finds first.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"

CONLL18_FIXTURES = ROOT / "tests" / "fixtures" / "reference" / "conll18"
CONLL18_RAW = (
    "en_ewt.UDPipe-Future",
    "en_ewt.conll18-baseline",
    "fr_gsd.UDPipe-Future",
    "fr_gsd.conll18-baseline",
    "he_htb.UDPipe-Future",
    "he_htb.conll18-baseline",
    "he_htb.HIT-SCIR-18",
    "he_htb.ONLP-lab",
    "he_htb.Stanford-18",
    "en_ewt.spacy_raw",
)
"""The raw-text system outputs with a committed scorer table in ``CONLL18_FIXTURES`` (besides
``en_ewt.spacy_gold_tok``, spaCy's parse of the gold words)."""


def conll18_files(data: Path, name: str) -> tuple[Path, Path]:
    """The gold and system files of a ``CONLL18_FIXTURES`` table, in ``data`` (``../shared/data``)."""
    lang, system = name.split(".", 1)
    spacy = data / "parser_outputs" / "spacy_en_ewt_test"
    if system in ("spacy_raw", "spacy_gold_tok"):
        kind = "raw" if system == "spacy_raw" else "gold-tok"
        gold = data / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
        return gold, spacy / f"en_ewt-ud-test.spacy-sm.{kind}.conllu"
    folder = data / "parser_outputs" / "conll2018" / lang
    return folder / f"gold.{lang}.conllu.gz", folder / f"{system}.{lang}.conllu.gz"


def conllu_line(
    idx: int | str,
    form: str,
    head: int | str,
    deprel: str = "dep",
    upos: str = "X",
    xpos: str = "_",
) -> str:
    """One 10-column CoNLL-U token line."""
    return "\t".join((str(idx), form, "_", upos, xpos, "_", str(head), deprel, "_", "_"))


def conllu_sentence(
    heads: Sequence[int],
    *,
    sent_id: str | None = None,
    forms: Sequence[str] | None = None,
    deprels: Sequence[str] | None = None,
    upos: Sequence[str] | None = None,
) -> str:
    """A sentence block (ending with its blank line) from a head list; forms default to w1..wn."""
    n = len(heads)
    forms = forms or [f"w{i}" for i in range(1, n + 1)]
    deprels = deprels or ["root" if h == 0 else "dep" for h in heads]
    upos = upos or ["X"] * n
    lines = [f"# sent_id = {sent_id}"] if sent_id is not None else []
    lines += [conllu_line(i + 1, forms[i], heads[i], deprels[i], upos[i]) for i in range(n)]
    return "\n".join(lines) + "\n\n"


@dataclass(frozen=True)
class CliResult:
    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return self.err.splitlines()


def run_module(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m evalcore ARGV`` in a fresh interpreter (the real entry point)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, "-m", "evalcore", *argv],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=env,
        timeout=120,
        check=False,
    )


def fresh_copy(dest: Path, *, untracked: bool = False) -> None:
    """Copy the tracked files of the checkout (what ``git clone`` gives) to ``dest``; with
    ``untracked``, also the files not yet added that ``.gitignore`` does not exclude (work in progress)."""
    import shutil

    more = ["--others", "--exclude-standard"] if untracked else []
    names = subprocess.run(
        ["git", "ls-files", "-z", "--cached", *more], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for raw in names:
        if not raw:
            continue
        rel = raw.decode()
        src = ROOT / rel
        if not src.is_file():  # deleted in the working tree
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module (registered in ``sys.modules``: its dataclasses need it)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
