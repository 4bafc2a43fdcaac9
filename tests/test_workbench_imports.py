"""The workbench's modules import one another without a loop, and each imports
on its own in a fresh interpreter.

The graph is read from the sources (every ``import workbench.X`` / ``from workbench.X import``,
at the top of a module or inside a function: a loop hidden in a function is still a loop).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKBENCH = ROOT / "workbench"


def _modules() -> list[str]:
    return sorted(p.stem for p in WORKBENCH.glob("*.py") if p.stem != "__init__")


def import_graph() -> dict[str, set[str]]:
    """module -> the workbench modules it imports (anywhere in its source)."""
    graph: dict[str, set[str]] = {}
    for name in _modules():
        tree = ast.parse((WORKBENCH / f"{name}.py").read_text(encoding="utf-8"))
        deps: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("workbench."):
                    deps.add(node.module.split(".")[1])
                elif node.module == "workbench":
                    deps.update(a.name for a in node.names)
            elif isinstance(node, ast.Import):
                deps.update(a.name.split(".")[1] for a in node.names if a.name.startswith("workbench."))
        graph[name] = deps - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import loop (``[a, b, a]``), or ``None``."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_cycle_finder_finds_a_loop() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


@pytest.mark.slow
def test_workbench_has_no_import_loop() -> None:
    graph = import_graph()
    assert {"uploads", "widgets", "inspector", "links"} <= set(graph)
    assert "uploads" in graph["widgets"]  # the direction kept: widgets -> uploads, never back
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


FORKED_IMPORTS = """
import importlib, os, sys
import pandas, streamlit  # the heavy third-party imports, once; no workbench module yet
assert not any(m == "workbench" or m.startswith("workbench.") for m in sys.modules)
failed = []
for name in sys.argv[1:]:
    pid = os.fork()
    if pid == 0:  # a child that has imported no workbench module: this one alone
        try:
            importlib.import_module("workbench." + name)
        except BaseException as exc:
            print(name, type(exc).__name__, exc)
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if status:
        failed.append(name)
sys.exit(1 if failed else 0)
"""


@pytest.mark.slow
def test_each_workbench_module_imports_alone_in_a_fresh_interpreter() -> None:
    """One forked child per module, none of the workbench imported before it: an import that works
    only after another module was imported first (a loop) fails here."""
    proc = subprocess.run(
        [sys.executable, "-c", FORKED_IMPORTS, *_modules()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-2000:]
