"""Bounded by design: the limits policy, the readers that apply it while streaming, the
algorithms that cannot blow up, and the safe exports.

Every expected message is written out here; every limit is passed at the line the test says, with
``FILE:LINE: ... (limit N; raise with --flag or EVALCORE_...)``.  The algorithms are checked
against the definitions they replace (pair-by-pair crossing, evalb's first-free matching, the
general tree edit distance, the polynomial sum) on random inputs, and on sizes the old code could
not handle.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from ec_support import CliResult, conllu_sentence
from hypothesis import given
from hypothesis import strategies as st

from evalcore.cli import COMMANDS, build_parser
from evalcore.errors import EvalcoreError, LimitError, one_line
from evalcore.formats._io import decompressed_size, iter_lines
from evalcore.formats.conllu import parse_conllu, read_conllu
from evalcore.formats.lattice import read_lattices, read_tokens
from evalcore.formats.prm import COLLINS, EvalbParams
from evalcore.formats.ptb import parse_ptb, parse_ptb_line, read_ptb_lines
from evalcore.fragments import fragment_counts, fragment_polynomials
from evalcore.lattice.model import tree_from_dependency
from evalcore.lattice.paths import path_arcs
from evalcore.lattice.reading import _ud_lexemes
from evalcore.limits import LIMIT_SPECS, Limits, format_size, parse_size
from evalcore.metrics.lattice_tedeval import sentence_ted, ted_memory_estimate
from evalcore.metrics.parseval import _SLICED_CROSSING, Bracket, _crossing, _crossing_pairs, _match
from evalcore.render.dot import dep_to_dot, tree_to_dot
from evalcore.render.layout import layout_dep
from evalcore.render.text import dot_html
from evalcore.report.tables import LATEX_ESCAPES
from evalcore.ted.general import OrderedTree, ted_mapping, ted_same_yield

RunCli = Callable[..., CliResult]
WriteFile = Callable[[str, str | bytes], str]


def error_of(fn: Callable[[], object]) -> EvalcoreError:
    with pytest.raises(EvalcoreError) as info:
        fn()
    return info.value


# ---------------------------------------------------------------------------
# the policy


def test_every_limit_has_a_default_a_flag_and_a_variable() -> None:
    limits = Limits()
    names = {s.name for s in LIMIT_SPECS}
    assert names == set(Limits.__dataclass_fields__)
    for spec in LIMIT_SPECS:
        assert getattr(limits, spec.name) >= 1
        assert spec.env.startswith("EVALCORE_")
        assert spec.flag.startswith("--max-") or spec.name == "session_bytes"  # the app's budget: no CLI


def test_every_limit_is_in_the_docs_table_and_in_every_commands_help() -> None:
    """The faces of LIMIT_SPECS: each limit's flag (with its default) in every command's ``--help``
    (generated), its flag and variable on a row of the table of docs/robustness.md, "Resource
    limits: one policy" (written by hand)."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "robustness.md").read_text(encoding="utf-8")
    section = doc.split("## Resource limits: one policy\n", 1)[1].split("\n## ", 1)[0]
    rows = [row for row in section.splitlines() if row.startswith("| ")]
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert {name for name, _ in COMMANDS} <= set(commands)
    for spec in LIMIT_SPECS:
        assert any(spec.env in row and spec.flag in row for row in rows), spec.name
        if not spec.flag:
            continue
        default = getattr(Limits(), spec.name)
        shown = format_size(default) if spec.unit == "bytes" else f"{default:,}"
        for name, command in commands.items():
            text = " ".join(command.format_help().split())
            assert spec.flag in text and f"(default {shown}; {spec.env})" in text, (name, spec.name)


def test_sizes_and_environment() -> None:
    assert parse_size("1048576") == parse_size("1M") == parse_size("1MiB") == 1 << 20
    assert parse_size("2G") == 2 << 30
    for bad in ("", "-1", "1.5M", "²", "1X", "0"):
        with pytest.raises(ValueError):
            parse_size(bad)
    env = {"EVALCORE_MAX_DEPTH": "5000", "EVALCORE_MAX_LINE_BYTES": "64K", "EVALCORE_MAX_TOKENS": " "}
    limits = Limits.from_env(env)
    assert (limits.depth, limits.line_bytes, limits.tokens) == (5000, 65536, Limits().tokens)
    err = error_of(lambda: Limits.from_env({"EVALCORE_MAX_DEPTH": "lots"}))
    assert (
        str(err)
        == "<input>: environment variable EVALCORE_MAX_DEPTH: expected a positive integer, got 'lots'"
    )
    with pytest.raises(ValueError):
        Limits(depth=0)


def test_the_message_names_the_limit_and_how_to_raise_it() -> None:
    err = Limits(depth=3).error("depth", "tree is more than 3 brackets deep", file="f.mrg", line=7)
    assert isinstance(err, LimitError) and err.limit == "depth"
    assert str(err) == (
        "f.mrg:7: tree is more than 3 brackets deep (limit 3; raise with --max-depth or EVALCORE_MAX_DEPTH)"
    )


def test_messages_are_one_bounded_line() -> None:
    long = EvalcoreError("x" * 10_000 + " (limit 5; raise with --max-depth)", file="f" * 1000, line=3)
    text = str(long)
    assert len(text) <= 400 and "\n" not in text and text.endswith("(limit 5; raise with --max-depth)")
    assert one_line("a\nb\rc") == "a b c"


# ---------------------------------------------------------------------------
# readers, while streaming


def test_file_limits_bytes_lines_line_length() -> None:
    data = b"a\nbb\nccc\n"
    err = error_of(lambda: list(iter_lines(data, "f", Limits(input_bytes=5))))
    assert str(err) == (
        "f:3: file has more than 5 bytes (after decompression) (limit 5; raise with --max-input-bytes or "
        "EVALCORE_MAX_INPUT_BYTES)"
    )
    err = error_of(lambda: list(iter_lines(data, "f", Limits(input_lines=2))))
    assert str(err).startswith("f:3: file has more than 2 lines (limit 2; raise with --max-input-lines")
    err = error_of(lambda: list(iter_lines(data, "f", Limits(line_bytes=2))))
    assert str(err).startswith("f:3: line longer than 2 bytes (limit 2; raise with --max-line-bytes")
    bomb = gzip.compress(b"\n" * 5_000_000)  # 5 MB of empty lines in a few kB
    err = error_of(lambda: list(iter_lines(bomb, "b.gz", Limits(input_lines=1000))))
    assert err.line == 1001
    assert decompressed_size(bomb, 1000) == 1001 and decompressed_size(bomb, 10**9) == 5_000_000


def test_cr_only_line_ends_are_read_in_conllu_and_refused_in_brackets() -> None:
    """CoNLL-U is read with Python's universal newlines, as the CoNLL 2018 scorer reads it
    (docs/decisions.md); in a bracketed file a CR inside a line is refused, naming the line."""
    text = conllu_sentence([0, 1]) + "\n" + conllu_sentence([2, 0])
    cr = list(read_conllu(text.replace("\n", "\r").encode(), name="m"))
    lf = list(read_conllu(text.encode(), name="m"))
    assert [t.heads for t in cr] == [t.heads for t in lf] == [(0, 1), (2, 0)]
    assert [t.source.line for t in cr if t.source] == [t.source.line for t in lf if t.source]
    err = error_of(lambda: list(read_ptb_lines(b"(S (NN a))\r(S (NN b))\r", name="t")))
    assert str(err).startswith("t:1: carriage return (CR) inside a line: the file seems to have CR-only")
    assert list(iter_lines(b"a\r\nb\r\n", "crlf")) == [(1, "a"), (2, "b")]  # CRLF is fine
    assert list(iter_lines(b"a\rb\r\rc\n\rd", "cr", cr_ends=True)) == [
        (1, "a"), (2, "b"), (3, ""), (4, "c"), (5, ""), (6, "d"),
    ]  # fmt: skip


def test_a_block_is_refused_at_the_line_that_passes_the_limit() -> None:
    comments = b"# c\n" * 100 + b"1\tw\t_\tX\t_\t_\t0\troot\t_\t_\n\n"
    err = error_of(lambda: list(read_conllu(comments, name="c", limits=Limits(block_lines=50))))
    assert str(err) == (
        "c:51: sentence block starting at line 1 has more than 50 lines (limit 50; raise with "
        "--max-block-lines or EVALCORE_MAX_BLOCK_LINES)"
    )
    err = error_of(lambda: list(read_conllu(comments, name="c", limits=Limits(block_bytes=40))))
    assert err.line == 11 and "has more than 40 bytes" in str(err)
    assert len(list(read_conllu(comments, name="c", limits=Limits(block_lines=101)))) == 1


def test_tokens_and_depth_of_a_dependency_tree() -> None:
    chain = conllu_sentence([0, 1, 2, 3, 4], sent_id="c")  # 5 words deep
    err = error_of(lambda: parse_conllu(chain, name="d", limits=Limits(tokens=4)))
    assert str(err).startswith("d:6: sentence has more than 4 tokens (limit 4; raise with --max-tokens")
    err = error_of(lambda: parse_conllu(chain, name="d", limits=Limits(depth=4)))
    assert str(err).startswith(
        "d:6: tree is 5 words deep (its longest head chain) (limit 4; raise with --max-depth"
    )
    assert parse_conllu(chain, limits=Limits(depth=5))[0].heads == (0, 1, 2, 3, 4)
    flat = conllu_sentence([0, 1, 1, 1, 1])
    assert len(parse_conllu(flat, limits=Limits(depth=2))[0].tokens) == 5


def test_brackets_depth_words_and_tree_size() -> None:
    err = error_of(lambda: parse_ptb("(A (B\n(C (D x))))", name="p", limits=Limits(depth=3)))
    assert str(err).startswith("p:2: tree is more than 3 brackets deep (limit 3; raise with --max-depth")
    err = error_of(lambda: parse_ptb("(S (A a) (B b) (C c))", name="p", limits=Limits(tokens=2)))
    assert str(err).startswith("p:1: tree has more than 2 words (limit 2")
    pretty = "(S\n" + "(X x)\n" * 10 + ")\n"
    err = error_of(lambda: parse_ptb(pretty, name="p", limits=Limits(block_lines=5)))
    assert str(err).startswith("p:6: tree starting at line 1 has more than 5 lines (limit 5")
    # evalb's layout: a line past a limit stops the reading; a malformed line stays an error sentence
    lines = b"(S (A a))\n(S (A a) x\n" + b"(X " * 10 + b"(A a)" + b")" * 10 + b"\n"
    err = error_of(lambda: list(read_ptb_lines(lines, name="l", limits=Limits(depth=5))))
    assert isinstance(err, LimitError) and err.line == 3
    assert parse_ptb_line("(X a)(X b)", limits=Limits(tokens=2))
    with pytest.raises(LimitError):
        parse_ptb_line("(X a)(X b)(X c)", limits=Limits(tokens=2))


def test_lattices_arcs_and_token_order() -> None:
    arcs = "".join(f"{i}\t{i + 1}\tw\tw\tX\tX\t_\t{i + 1}\n" for i in range(20))
    err = error_of(lambda: list(read_lattices(arcs.encode(), name="l", limits=Limits(lattice_arcs=10))))
    assert str(err).startswith("l:11: lattice starting at line 1 has more than 10 arcs (limit 10")
    (lattice,) = read_lattices(b"0\t1\ta\ta\tX\tX\t_\t2\n1\t2\tb\tb\tX\tX\t_\t1\n", name="o")
    err = error_of(lambda: path_arcs(lattice))
    assert str(err) == (
        "o:2: token ids out of order along the path: token 1 after token 2 (a path's arcs go through the "
        "tokens in order)"
    )
    err = error_of(lambda: list(read_tokens(b"a\nb\nc\n", name="t", limits=Limits(tokens=2))))
    assert str(err).startswith("t:3: sentence has more than 2 tokens")


def test_flags_and_variables_raise_the_limits(
    run_cli: RunCli, write_file: WriteFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = write_file("deep.tst", "(X " * 1500 + "(W w)" + ")" * 1500 + "\n")
    r = run_cli("parseval", deep, deep)
    assert r.code == 2 and r.err.startswith(f"{deep}:1: tree is more than 1024 brackets deep (limit 1024;")
    r = run_cli("parseval", deep, deep, "--max-depth", "2000", "--format", "json")
    assert r.code == 0 and json.loads(r.out)["all"]["recall"] == 1.0
    monkeypatch.setenv("EVALCORE_MAX_DEPTH", "2000")
    assert run_cli("freval", deep, deep, "--format", "json").code == 0
    r = run_cli("freval", deep, deep, "--max-depth", "100")  # the flag wins over the variable
    assert r.code == 2 and "(limit 100;" in r.err
    monkeypatch.setenv("EVALCORE_MAX_DEPTH", "many")
    r = run_cli("freval", deep, deep)
    assert r.code == 2 and r.err.strip() == (
        "<input>: environment variable EVALCORE_MAX_DEPTH: expected a positive integer, got 'many'"
    )


# ---------------------------------------------------------------------------
# evalb's matching and crossing brackets: the same answers, linear in unary chains


def _brackets(rng: random.Random, n_words: int, count: int, labels: str) -> list[Bracket]:
    out = []
    for _ in range(count):
        s = rng.randrange(n_words)
        e = rng.randrange(s + 1, n_words + 1)
        out.append(Bracket(s, e, rng.choice(labels), -1))
    return out


def _match_by_definition(
    gold: list[Bracket], test: list[Bracket], params: EvalbParams
) -> tuple[list[int], list[int]]:
    """evalb: each gold bracket, in order, takes the first unused test bracket with its span and an
    equal label (or any label, unlabeled)."""
    gp, tp = [-1] * len(gold), [-1] * len(test)
    for i, g in enumerate(gold):
        for j, t in enumerate(test):
            same = tp[j] < 0 and (g.start, g.end) == (t.start, t.end)
            if same and (not params.labeled or params.label_eq(g.label, t.label)):
                gp[i], tp[j] = j, i
                break
    return gp, tp


@given(st.integers(0, 10**6), st.booleans())
def test_matching_and_crossing_agree_with_their_definitions(seed: int, labeled: bool) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 8)
    gold = _brackets(rng, n, rng.randint(0, 12), "ABP")
    test = _brackets(rng, n, rng.randint(0, 12), "ABP")
    params = replace(COLLINS, labeled=labeled, eq_labels=(("A", "P"),))
    assert _match(gold, test, params) == _match_by_definition(gold, test, params)
    big = gold * 30  # many brackets over few positions: min and max over slices
    assert _crossing(big, test * 30) == 30 * _crossing_pairs(gold, test)
    assert _crossing(gold, test) == _crossing_pairs(gold, test)
    # past the sliced threshold (positions): the range tables
    far = [Bracket(b.start + _SLICED_CROSSING, b.end + _SLICED_CROSSING, b.label, b.parent) for b in gold]
    far_test = [
        Bracket(b.start + _SLICED_CROSSING, b.end + _SLICED_CROSSING, b.label, b.parent) for b in test
    ]
    assert _crossing(far, far_test) == _crossing_pairs(gold, test)


@pytest.mark.slow
def test_a_unary_chain_of_100000_brackets_is_matched_in_one_pass() -> None:
    chain = [Bracket(0, 1, "X", i - 1) for i in range(100_000)]
    gp, tp = _match(chain, chain, COLLINS)
    assert gp == list(range(100_000)) and tp == list(range(100_000))
    assert _crossing(chain, chain) == 0


# ---------------------------------------------------------------------------
# FREVAL's fragment counts: unary runs in one step, equal to the polynomial sum


def _sum_of_polynomials(
    parents: list[int], include: list[bool] | None, edges: list[bool] | None, limit: int | None
) -> tuple[int, ...]:
    total: list[int] = []
    for f in fragment_polynomials(parents, include, edges, limit):
        if f is None:
            continue
        total.extend([0] * (len(f) - len(total)))
        for k, v in enumerate(f):
            total[k] += v
    while total and total[-1] == 0:
        total.pop()
    return tuple(total)


@given(st.integers(0, 10**6))
def test_fragment_counts_equal_the_sum_of_the_polynomials(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    parents = [-1] + [max(0, i - 1) if rng.random() < 0.6 else rng.randrange(i) for i in range(1, n)]
    include = [rng.random() < 0.9 for _ in range(n)] if rng.random() < 0.5 else None
    edges = [rng.random() < 0.9 for _ in range(n)] if rng.random() < 0.5 else None
    limit = rng.choice([None, 1, 2, 5])
    assert fragment_counts(parents, include, edges, limit) == _sum_of_polynomials(
        parents, include, edges, limit
    )


def test_a_chain_of_100000_brackets_is_counted_in_linear_time() -> None:
    n = 100_000
    counts = fragment_counts([-1, *range(n - 1)])
    assert len(counts) == n and counts[0] == n and counts[999] == n - 999 and counts[-1] == 1
    assert fragment_counts([-1, *range(n - 1)], max_size=3) == (n, n - 1, n - 2)


# ---------------------------------------------------------------------------
# the general tree edit distance: a memory bound, and a span path that is exact when it answers


def _random_tree(rng: random.Random, leaves: list[str], unary: bool) -> OrderedTree:
    nodes: list[object] = [("lex", w) for w in leaves]
    while len(nodes) > 1 or rng.random() < 0.2:
        i = rng.randrange(len(nodes))
        j = rng.randrange(i, min(len(nodes), i + 3))
        if j == i and not unary:
            continue
        nodes = [*nodes[:i], ("node", rng.choice("AB"), nodes[i : j + 1]), *nodes[j + 1 :]]
    root = nodes[0] if nodes[0][0] == "node" else ("node", "R", [nodes[0]])  # type: ignore[index]
    keys: list[object] = []
    kids: list[list[int]] = []
    stack: list[tuple[object, int]] = [(root, -1)]
    while stack:
        node, parent = stack.pop()
        idx = len(keys)
        if parent >= 0:
            kids[parent].append(idx)
        keys.append((node[0], node[1]))  # type: ignore[index]
        kids.append([])
        if node[0] == "node":  # type: ignore[index]
            stack.extend((c, idx) for c in reversed(node[2]))  # type: ignore[index]
    return OrderedTree(tuple(keys), tuple(tuple(k) for k in kids))  # type: ignore[arg-type]


@given(st.integers(0, 10**6), st.booleans(), st.booleans())
def test_the_span_path_answers_only_with_the_optimal_distance(seed: int, unary: bool, pin: bool) -> None:
    rng = random.Random(seed)
    leaves = [f"w{i}" for i in range(rng.randint(1, 8))]
    x = _random_tree(rng, leaves, unary)
    y = x if rng.random() < 0.3 else _random_tree(rng, leaves, unary)
    fast = ted_same_yield(x, y, pin_roots=pin)
    if fast is not None:
        assert fast.distance == ted_mapping(x, y, pin_roots=pin).distance
    if x == y:
        assert fast is not None and fast.distance == 0


def test_the_span_path_is_not_exact_in_general_so_it_declines() -> None:
    """A pair over the same 9 leaves where deleting leaves maps more nodes: span arithmetic says 10,
    the tree edit distance is 8 (found by random search; docs/robustness.md)."""
    kx = ("A", "B", "A", "w0", "w1", "w2", "B", "w3", "A", "w4", "w5", "A", "w6", "w7", "w8")
    cx = ((1, 6), (2, 5), (3, 4), (), (), (), (7, 8, 11), (), (9, 10), (), (), (12, 13, 14), (), (), ())
    ky = ("A", "B", "w0", "w1", "B", "B", "A", "w2", "A", "w3", "w4", "w5", "w6", "w7", "w8")
    cy = ((1, 4), (2, 3), (), (), (5, 13, 14), (6, 12), (7, 8), (), (9, 10, 11), (), (), (), (), (), ())
    x, y = OrderedTree(kx, cx), OrderedTree(ky, cy)
    assert ted_mapping(x, y, pin_roots=True).distance == 8
    assert ted_same_yield(x, y, pin_roots=True) is None


def test_a_2000_word_chain_takes_the_span_path_and_a_big_pair_is_refused_before_allocating() -> None:
    (dep,) = parse_conllu(conllu_sentence([0, *range(1, 2000)], sent_id="chain"), limits=Limits(depth=2000))
    lexemes = _ud_lexemes(dep, list(range(1, 2001)), "cpos")
    tree = tree_from_dependency(dep, lexemes)
    assert sentence_ted(tree, tree).distance == 0  # no n × m table: 6,000 × 6,000 nodes would be 864 MB
    relabeled = replace(
        tree,
        labels=tuple("x" if lx is None else lab for lab, lx in zip(tree.labels, tree.lexemes, strict=True)),
    )
    internal = sum(lx is None for lx in tree.lexemes)
    # every internal node but the (pinned) root relabeled: proven optimal by the count bound
    assert sentence_ted(tree, relabeled).distance == 2 * (internal - 1)
    last = max(i for i, lx in enumerate(tree.lexemes) if lx is not None)
    moved = list(tree.lexemes)
    moved[last] = replace(moved[last], segment="other")  # another segmentation: the general algorithm
    other = replace(tree, lexemes=tuple(moved))
    need = ted_memory_estimate(len(tree), len(other))
    assert need > Limits().ted_memory
    err = error_of(lambda: sentence_ted(tree, other))
    assert isinstance(err, LimitError) and err.limit == "ted_memory"
    assert "(limit 268435456; raise with --max-ted-memory or EVALCORE_MAX_TED_MEMORY)" in str(err)


# ---------------------------------------------------------------------------
# exports


def test_cli_csv_neutralizes_formula_cells(run_cli: RunCli, write_file: WriteFile) -> None:
    gold = write_file("g.conllu", conllu_sentence([0, 1], sent_id="s"))
    r = run_cli(
        "tedeval",
        "--scheme",
        "=1+1",
        gold,
        f"+cmd={gold}",
        f"@SUM={gold}",
        "--shuffles",
        "0",
        "--format",
        "csv",
    )
    assert r.code == 0, r.err
    cells = {c for line in r.out.splitlines()[1:] for c in line.split(",")[:3]}
    assert {"'+cmd", "'@SUM", "'=1+1"} <= cells
    assert not any(c[:1] in "=+-@" for c in cells if c)
    r = run_cli("lattice", gold, f"+x={gold}", "--format", "csv")
    assert r.out.splitlines()[1].startswith("'+x,")


def test_latex_writes_a_backslash_as_textbackslash() -> None:
    assert "a\\b{c}".translate(LATEX_ESCAPES) == r"a\textbackslash{}b\{c\}"
    assert "50%_#$&~^".translate(LATEX_ESCAPES) == r"50\%\_\#\$\&\textasciitilde{}\textasciicircum{}"


HOSTILE_LABELS = ("]", "[", "<", ">", "|", "{", "}", "]]>", "a]b", "\\N", "&amp;")


def test_dot_labels_escape_brackets_bars_and_braces() -> None:
    assert dot_html("]") == "&#93;" and dot_html("[|{}") == "&#91;&#124;&#123;&#125;"
    assert dot_html("<b>") == "&lt;b&gt;"


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz 'dot' is not installed")
@pytest.mark.parametrize("label", HOSTILE_LABELS)
def test_dot_accepts_every_hostile_label(label: str) -> None:
    (dep,) = parse_conllu(conllu_sentence([0, 1], forms=[label, "b"], deprels=["root", label]))
    word = label.replace("(", "").replace(")", "") or "x"
    (tree,) = parse_ptb(f"(S (X {word}))")
    for dot in (dep_to_dot(layout_dep(dep, None)), tree_to_dot(tree)):
        done = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (label, done.stderr)


# ---------------------------------------------------------------------------
# the lattice command streams


def test_lattice_keeps_no_sentence_unless_asked(
    run_cli: RunCli, write_file: WriteFile, tmp_path: Path
) -> None:
    text = "".join(conllu_sentence([0, 1, 1], sent_id=f"s{i}", forms=["a", f"b{i}", "c"]) for i in range(50))
    gold = write_file("g.conllu", text)
    pred = write_file("p.conllu", text.replace("\t1\tdep", "\t2\tdep"))
    lean = json.loads(run_cli("lattice", gold, pred, "--format", "json").out)
    full = json.loads(run_cli("lattice", gold, pred, "--format", "json", "--per-sentence").out)
    assert "per_sentence" not in lean and len(full["per_sentence"]) == 50
    assert lean["sentences"] == 50
    assert {k: v for k, v in full.items() if k != "per_sentence"} == lean
