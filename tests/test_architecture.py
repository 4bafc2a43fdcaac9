"""The house's rooms (docs ARCHITECTURE), checked on the source with ``ast``.

* **Layers**: data flows one way, files → trees → conversions → counts → scores → reports → API.
  A module imports only from its own layer or lower ones::

      errors, limits, version, display, appdir, outputs, interrupts, gcpause < trees < formats
      < conversion, generalization, fragments, ted/, lattice/ < metrics/, significance
      < experiment, inspection, examples, atlas, patterns/, ranking, resampling, batch, labelalign
      < report/, render/
      < commands/, cli, the package's public API (``evalcore/__init__.py``)

  Every module of ``evalcore/`` must be placed in a layer here (a new module fails until it is).
* **Writers** live in ``evalcore/report/``: nothing outside ``evalcore/commands/`` and
  ``evalcore/cli.py`` imports ``evalcore.commands`` (pages, workbench, experiments included).
* **Functions stay readable**: none in ``evalcore/`` is longer than :data:`MAX_FUNCTION_LINES`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "evalcore"

LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "evalcore.errors",
        "evalcore.limits",
        "evalcore.version",
        "evalcore.display",
        "evalcore.appdir",
        "evalcore.outputs",
        "evalcore.interrupts",
        "evalcore.gcpause",
        "evalcore.declare",
        "evalcore.choices",
    ),
    ("evalcore.trees",),
    ("evalcore.formats",),
    (
        "evalcore.conversion",
        "evalcore.generalization",
        "evalcore.fragments",
        "evalcore.ted",
        "evalcore.lattice",
        "evalcore.patterns",
    ),
    ("evalcore.metrics", "evalcore.significance", "evalcore.resampling_settings"),
    (
        "evalcore.experiment",
        "evalcore.experiment_raw",
        "evalcore.inspection",
        "evalcore.examples",
        "evalcore.atlas",
        "evalcore.construction_scores",
        "evalcore.reasons",
        "evalcore.ranking",
        "evalcore.resampling",
        "evalcore.batch",
        "evalcore.labelalign",
        "evalcore.families",
        "evalcore.registry",
    ),
    ("evalcore.report", "evalcore.render"),
    (
        "evalcore.commands",
        "evalcore.cli",
        "evalcore.__main__",
        "evalcore",
        "evalcore.api",
        "evalcore.notebook",
    ),
)
LAYER_NAMES = (
    "errors/limits",
    "trees",
    "formats",
    "conversion/ted/lattice",
    "metrics",
    "experiment/inspection",
    "report/render",
    "commands/cli/API",
)

MAX_FUNCTION_LINES = 120


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int | None:
    """The layer of an ``evalcore`` module: the one whose longest prefix names it."""
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for layer, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            # the package itself ("evalcore") is its public API, not a prefix of every module
            named = module == prefix or (prefix != "evalcore" and module.startswith(prefix + "."))
            if named and (best is None or len(prefix) > best[0]):
                best = (len(prefix), layer)
    return None if best is None else best[1]


def imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """Every ``evalcore`` module imported anywhere in the file (functions included), with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([base] if base else [])])
            if base == "evalcore":
                for alias in node.names:  # `from evalcore import X`: the package itself, or a module
                    sub = f"evalcore.{alias.name}"
                    yield (sub if (PACKAGE / alias.name).exists() or (PACKAGE / f"{alias.name}.py").exists()
                           else "evalcore"), node.lineno  # fmt: skip
            else:
                yield base, node.lineno


def sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_module_has_a_layer() -> None:
    unplaced = [module_name(p) for p in sources(PACKAGE) if layer_of(module_name(p)) is None]
    assert unplaced == [], f"place these modules in LAYERS: {unplaced}"


def upward_imports(files: list[Path], root: Path = ROOT) -> list[str]:
    found = []
    for path in files:
        module = module_name(path, root)
        own = layer_of(module)
        assert own is not None, module
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for imported, line in imports(tree, module, path.name == "__init__.py"):
            if not imported.startswith("evalcore"):
                continue
            target = layer_of(imported)
            assert target is not None, f"{path}:{line}: {imported} has no layer"
            if target > own:
                found.append(
                    f"{path.relative_to(root)}:{line}: {module} ({LAYER_NAMES[own]}) imports "
                    f"{imported} ({LAYER_NAMES[target]})"
                )
    return found


@pytest.mark.slow
def test_no_module_imports_from_a_higher_layer() -> None:
    assert upward_imports(sources(PACKAGE)) == []


def test_the_layer_check_catches_an_upward_import(tmp_path: Path) -> None:
    """The check itself: a metric importing a writer, and a reader importing a metric, are caught;
    a metric importing a reader is not.  (The probe is written under ``tmp_path``, never into the
    package, where a test running in parallel would see it.)"""
    bad = tmp_path / "evalcore" / "metrics" / "probe.py"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "from evalcore.report.tables import text_table\n"
        "from evalcore.formats.ptb import read_ptb\n"
        "def f() -> None:\n    import evalcore.cli\n",
        encoding="utf-8",
    )
    found = upward_imports([bad], root=tmp_path)
    assert len(found) == 2
    assert "imports evalcore.report.tables (report/render)" in found[0]
    assert ":4: " in found[1] and "evalcore.cli (commands/cli/API)" in found[1]
    assert layer_of("evalcore.lattice.reading") == 3 and layer_of("evalcore") == 7
    assert layer_of("evalcore.limits") == 0 and layer_of("evalcore.lattice_probe") is None


def _importers_of_commands(root: Path = ROOT) -> list[str]:
    files = sources(root / "evalcore")
    for folder in ("pages", "workbench", "experiments"):
        files += sources(root / folder)
    if (root / "app.py").exists():
        files.append(root / "app.py")
    found = []
    for path in files:
        rel = path.relative_to(root)
        if rel.parts[:2] == ("evalcore", "commands") or rel == Path("evalcore/cli.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = module_name(path, root) if rel.parts[0] == "evalcore" else rel.stem
        for imported, line in imports(tree, module, path.name == "__init__.py"):
            if imported == "evalcore.commands" or imported.startswith("evalcore.commands."):
                found.append(f"{rel}:{line}: {imported}")
    return found


@pytest.mark.slow
def test_only_the_command_line_imports_the_commands() -> None:
    """Writers are in evalcore/report/: pages, workbench, experiments and the library never reach
    into the command line for them."""
    assert _importers_of_commands() == []


def test_the_commands_check_catches_an_importer(tmp_path: Path) -> None:
    """The check itself, on a made-up tree: a workbench module, a page and a library module that
    import the command line are caught (three spellings); the command line itself is not."""
    files = {
        "workbench/view.py": "from evalcore.commands.tedeval import latex_table\n",
        "pages/1_Page.py": "import evalcore.commands._common\n",
        "evalcore/metrics/probe.py": "from evalcore import commands\n",
        "evalcore/commands/tedeval.py": "from evalcore.commands._common import warn\n",
        "evalcore/cli.py": "from evalcore.commands import tedeval\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    assert sorted(_importers_of_commands(tmp_path)) == [
        "evalcore/metrics/probe.py:1: evalcore.commands",
        "pages/1_Page.py:1: evalcore.commands._common",
        "workbench/view.py:1: evalcore.commands.tedeval",
    ]


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def long_functions(files: list[Path], limit: int = MAX_FUNCTION_LINES, root: Path = ROOT) -> list[str]:
    """Functions (methods and nested functions too) longer than ``limit`` lines, decorators and
    docstrings included: from the ``def`` line to the last line of the body."""
    found = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in _functions(tree):
            start = min([fn.lineno, *(d.lineno for d in fn.decorator_list)])
            length = (fn.end_lineno or fn.lineno) - start + 1
            if length > limit:
                found.append(f"{path.relative_to(root)}:{fn.lineno}: {fn.name} has {length} lines")
    return found


@pytest.mark.slow
def test_no_function_is_longer_than_the_limit() -> None:
    assert long_functions(sources(PACKAGE)) == []


@pytest.mark.parametrize(("lines", "expected"), [(119, 0), (120, 0), (121, 1)])
def test_the_length_check_counts_lines(tmp_path: Path, lines: int, expected: int) -> None:
    """A function of ``lines`` lines (its ``def`` line, then ``lines - 1`` statements)."""
    path = tmp_path / "probe.py"
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 1))
    path.write_text(f"def f() -> None:\n{body}", encoding="utf-8")
    assert len(long_functions([path], root=tmp_path)) == expected


def _late_imports(files: list[Path], root: Path = ROOT) -> list[str]:
    """``importlib.import_module("evalcore...")`` of a module in a higher layer (the named part of
    the name: ``f"evalcore.commands.{name}"`` names ``evalcore.commands``), except in
    ``display.py``: the one hook of values to their writers (in :mod:`evalcore.notebook`)."""
    found = []
    for path in files:
        module = module_name(path, root)
        if module == "evalcore.display":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "import_module"
                and node.args
            ):
                continue
            arg = node.args[0]
            first = arg.values[0] if isinstance(arg, ast.JoinedStr) and arg.values else arg
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            named = first.value.rstrip(".")
            target, own = layer_of(named), layer_of(module)
            if named.startswith("evalcore") and target is not None and own is not None and target > own:
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


@pytest.mark.slow
def test_only_the_display_hook_imports_a_higher_layer_by_name() -> None:
    """Importing by module name would go around the layers; only :mod:`evalcore.display` (which
    looks up the values' writers in :mod:`evalcore.notebook`) does it upwards."""
    assert _late_imports(sources(PACKAGE)) == []


def test_the_late_import_check_catches_one(tmp_path: Path) -> None:
    bad = tmp_path / "evalcore" / "trees.py"
    bad.parent.mkdir()
    bad.write_text(
        'import importlib\nimportlib.import_module("evalcore.report.attach")\n'
        'importlib.import_module(f"evalcore.render.{1}")\nimportlib.import_module("evalcore.errors")\n',
        encoding="utf-8",
    )
    assert _late_imports([bad], root=tmp_path) == ["evalcore/trees.py:2", "evalcore/trees.py:3"]
    assert _late_imports([PACKAGE / "display.py"]) == []  # the hook itself


# ---------------------------------------------------------------------------
# only the registry builds a family's configuration (docs/architecture.md, "The registry of metric
# families"): the faces give a settings value to the family's ``run``

# the configuration of each family whose settings are declared, and where it may be built: the
# registry, and the metric that defines it (its defaults)
FAMILY_CONFIGS = {
    "ParsevalConfig": ("evalcore/families/", "evalcore/metrics/"),
    "AttachConfig": ("evalcore/families/", "evalcore/metrics/"),
    "FrevalConfig": ("evalcore/families/", "evalcore/metrics/"),
    "ExperimentConfig": ("evalcore/families/", "evalcore/metrics/", "evalcore/experiment.py"),
    "TedConfig": ("evalcore/families/", "evalcore/metrics/"),
    # the conversion's defaults, and the lattice metric's own conversion of each tree
    "ConversionConfig": (
        "evalcore/families/",
        "evalcore/metrics/",
        "evalcore/conversion.py",
        "evalcore/inspection.py",
        "evalcore/lattice/model.py",
    ),
    "JointConfig": ("evalcore/families/", "evalcore/metrics/"),
}


def configurations_built(files: list[Path], root: Path = ROOT) -> list[str]:
    """``FILE:LINE: Config`` for every call of a family's configuration outside where it may be built."""
    found = []
    for path in files:
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if name in FAMILY_CONFIGS and not rel.startswith(FAMILY_CONFIGS[name]):
                found.append(f"{rel}:{node.lineno}: {name}")
    return found


@pytest.mark.slow
def test_only_the_registry_builds_a_family_configuration() -> None:
    files = [*sources(PACKAGE), ROOT / "app.py"]
    for folder in ("pages", "workbench", "experiments"):
        files += sources(ROOT / folder)
    assert configurations_built(files) == []


def test_the_configuration_check_catches_a_module_that_builds_one(tmp_path: Path) -> None:
    probe = {
        "evalcore/atlas.py": "from evalcore.metrics import parseval\nCONFIG = parseval.ParsevalConfig()\n",
        "workbench/view.py": "from evalcore.metrics.parseval import ParsevalConfig\n"
        "config = ParsevalConfig(function_separators='-=*')\n",
        "evalcore/families/parseval.py": "from evalcore.metrics import parseval\nparseval.ParsevalConfig()\n",
    }
    for rel, text in probe.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    files = sorted(tmp_path.rglob("*.py"))
    assert configurations_built(files, root=tmp_path) == [
        "evalcore/atlas.py:2: ParsevalConfig",
        "workbench/view.py:2: ParsevalConfig",
    ]
