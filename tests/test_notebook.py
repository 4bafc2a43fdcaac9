"""docs/example.ipynb runs: executed with nbclient on the project's own Python.

The kernel is this interpreter (the project's ``.venv``): a kernel spec naming ``sys.executable``
is written into a temporary ``JUPYTER_PATH``, so nothing installed outside the project is used.
The executed notebook must show the app's drawings (SVG: the displaCy-style dependency tree,
Graphviz's constituency tree, function trees with the edit script, the lattice) and the
numbers of docs/api.md -- which ``tests/test_api_docs.py`` checks against the command line and,
for PARSEVAL, against evalb's own ``sample.rsl``.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "example.ipynb"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(300),
    pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot draws the trees"),
]


def _kernel(tmp: Path) -> str:
    """A kernel spec for this interpreter, in a folder of its own (returned: its name)."""
    spec = tmp / "jupyter" / "kernels" / "evalcore-venv"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "evalcore (.venv)", "language": "python"})
    )
    return "evalcore-venv"


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    tmp = tmp_path_factory.mktemp("nb")
    name = _kernel(tmp)
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", str(tmp / "jupyter"))
    mp.setenv("JUPYTER_RUNTIME_DIR", str(tmp / "runtime"))
    mp.setenv("JUPYTER_DATA_DIR", str(tmp / "data"))
    mp.setenv("IPYTHONDIR", str(tmp / "ipython"))
    try:
        nb = nbformat.read(NOTEBOOK, as_version=4)
        client = nbclient.NotebookClient(
            nb, kernel_name=name, timeout=240, resources={"metadata": {"path": str(ROOT)}}
        )
        client.execute()
    finally:
        mp.undo()
    return [c for c in nb.cells if c.cell_type == "code"]


def _data(cell: dict[str, object], mime: str) -> str:
    outputs = cell["outputs"]
    assert isinstance(outputs, list)
    found = [o["data"][mime] for o in outputs if "data" in o and mime in o["data"]]
    assert found, f"no {mime} output in cell: {cell['source']!r}"
    return "".join(found[0]) if isinstance(found[0], list) else str(found[0])


def _cell(cells: list[dict[str, object]], starting: str) -> dict[str, object]:
    return next(c for c in cells if str(c["source"]).lstrip().startswith(starting))


def test_no_cell_fails(executed: list[dict[str, object]]) -> None:
    for cell in executed:
        outputs = cell["outputs"]
        assert isinstance(outputs, list)
        assert [o for o in outputs if o.get("output_type") == "error"] == []


def test_the_results_are_tables_with_the_docs_numbers(executed: list[dict[str, object]]) -> None:
    attach = _data(executed[0], "text/html")
    assert "<table" in attach and "attach|punct:yes" in attach
    assert ">0.3640<" in attach and ">0.5640<" in attach  # LAS (universal labels), UAS as in docs/api.md
    parseval = _data(_cell(executed, "bracketed ="), "text/html")
    assert ">0.8776<" in parseval and ">0.9053<" in parseval  # evalb's sample.rsl: 87.76, 90.53
    freval = _data(_cell(executed, "fragments ="), "text/html")  # pandas' own table
    assert "0.728240" in freval  # FREVAL F1 of docs/api.md (0.7282)
    ted = _data(_cell(executed, "experiment ="), "text/html")
    assert "0.8549" in ted and "ud+sud" in ted
    joint = _data(_cell(executed, "joint ="), "text/html")
    assert ">0.9231<" in joint and ">0.8000<" in joint  # SEGEVAL, TEDEVAL L of docs/api.md


def test_the_drawings_are_the_apps(executed: list[dict[str, object]]) -> None:
    dep = _data(_cell(executed, "trees ="), "image/svg+xml")
    assert 'class="dep-tree"' in dep and "GoogleOS" in dep  # the displaCy-style SVG of the app
    tree = _data(_cell(executed, 'evalcore.read("assets/evalb'), "image/svg+xml")
    assert tree.startswith("<svg") and 'class="graph"' in tree  # Graphviz
    lattice = _data(_cell(executed, "lattices ="), "image/svg+xml")
    assert lattice.startswith("<svg") and "בגן" in lattice
    general = _data(_cell(executed, "report.general"), "image/svg+xml")
    assert general.startswith("<svg")
    report = _data(_cell(executed, "ud ="), "text/html")
    assert report.count("<svg") == 2  # the parse with its deletions, the generalized gold with insertions
    assert "counted" in report and "deletions" in report and "insertions" in report
