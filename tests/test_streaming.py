"""Streaming: the command line holds one sentence at a time, whatever the corpus length.

The readers the commands use are wrapped so that every tree they hand out is tracked with a weak
reference: the most trees alive at once must stay a small constant (a command that kept the trees,
or read a whole file before scoring, holds them all).  The results the commands compute are
captured too: no per-sentence records unless asked for.  ``tedeval`` keeps one ``(x, n)`` pair per
sentence and cell for its significance tests, by design, and no trees.
``benchmarks/bench_scale.py`` measures time and peak memory on 10k-100k sentences.
"""

from __future__ import annotations

import re
import tracemalloc
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from ec_support import CliResult, conllu_sentence

import evalcore.commands.tedeval as tedeval_cmd
import evalcore.formats._io as io_module
import evalcore.formats.conllu as conllu_module
import evalcore.formats.detect as detect_module
import evalcore.formats.evalb as evalb_module
import evalcore.formats.ptb as ptb_module
import evalcore.metrics.attachment as attachment_module
import evalcore.metrics.freval as freval_module
import evalcore.metrics.parseval as parseval_module
import evalcore.significance as sig
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import read_conllu
from evalcore.formats.detect import read_trees
from evalcore.formats.evalb import EvalbLine
from evalcore.formats.ptb import PtbLine, read_ptb_sentences
from evalcore.metrics.attachment import attach_corpus
from evalcore.metrics.freval import FrevalConfig, freval_corpus
from evalcore.metrics.parseval import parseval_corpus
from evalcore.trees import DepTree, Tree

N = 600
RunCli = Callable[..., CliResult]

HEADS = ([0, 1, 2, 1, 4, 4, 3, 7, 1, 9], [2, 0, 2, 3, 3, 5, 6, 2, 8, 8], [0, 1, 1, 3, 3, 1, 6, 6, 8, 1])
PTB = (
    "(S (NP (DT the) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (DT the) (NN mat)))) (. .))",
    "(S (NP (DT the) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (DT the)) (NN mat))) (. .))",
    "(S (NP (DT the)) (NN cat) (VP (VBD sat) (PP (IN on) (NP (DT the) (NN mat)))) (. .))",
)
SHORT = "(S (NP (DT the) (NN cat)) (VP (VBD sat)) (. .))"  # a "Length unmatch" error sentence


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("corpus")
    out = {}
    for name, shift in (("gold", 0), ("sys", 1)):
        path = d / f"{name}.conllu"
        path.write_text("".join(conllu_sentence(HEADS[(i + shift) % 3], sent_id=f"s{i}") for i in range(N)))
        out[name] = str(path)
        path = d / f"{name}.ptb"
        lines = [SHORT if shift and i % 100 == 7 else PTB[(i + shift) % 3] for i in range(N)]
        path.write_text("\n".join(lines) + "\n")
        out[f"{name}.ptb"] = str(path)
    return out


@dataclass
class Tracker:
    """Counts the trees handed out and the most alive at once (weak references)."""

    handed: int = 0
    alive: int = 0
    most: int = 0
    _refs: list[weakref.finalize] = field(default_factory=list)

    def _gone(self) -> None:
        self.alive -= 1

    def track(self, tree: object) -> None:
        self.handed += 1
        self.alive += 1
        self.most = max(self.most, self.alive)
        weakref.finalize(tree, self._gone)

    def trees(self, stream: Iterable[DepTree | Tree]) -> Iterator[DepTree | Tree]:
        for tree in stream:
            self.track(tree)
            yield tree

    def readings(self, stream: Iterable[EvalbLine]) -> Iterator[EvalbLine]:
        """``evalcore parseval`` reads no trees: each sentence's reading is tracked instead."""
        for line in stream:
            self.track(line)
            yield line

    def lines(self, stream: Iterable[PtbLine]) -> Iterator[PtbLine]:
        for line in stream:
            for tree in line.trees:
                self.track(tree)
            yield line


def capture(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[Any]:
    """Replace ``module.name`` by a wrapper that records what it returns."""
    results: list[Any] = []
    real = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        out = real(*args, **kwargs)
        results.append(out)
        return out

    monkeypatch.setattr(module, name, wrapper)
    return results


def test_the_tracker_sees_trees_that_are_kept(corpus: dict[str, str]) -> None:
    tracker = Tracker()
    kept = list(tracker.trees(read_conllu(corpus["gold"])))
    assert tracker.handed == tracker.most == N
    del kept
    assert tracker.alive == 0
    tracker = Tracker()
    for _ in tracker.trees(read_conllu(corpus["gold"])):
        pass
    assert tracker.handed == N and tracker.most <= 2


# ---------------------------------------------------------------------------
# attach


def test_attach_corpus_without_per_sentence_records(corpus: dict[str, str]) -> None:
    gold, system = corpus["gold"], corpus["sys"]
    full = attach_corpus(read_conllu(gold), read_conllu(system))
    lean = attach_corpus(read_conllu(gold), read_conllu(system), per_sentence=False)
    assert lean.counts == full.counts and lean.score == full.score
    assert lean.per_sentence == () and len(full.per_sentence) == N


@pytest.mark.parametrize("per_sentence", [False, True])
def test_attach_command_streams(
    corpus: dict[str, str], run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, per_sentence: bool
) -> None:
    tracker = Tracker()
    real = conllu_module.read_conllu  # the attach family's run imports both when it runs
    monkeypatch.setattr(conllu_module, "read_conllu", lambda *a, **k: tracker.trees(real(*a, **k)))
    results = capture(monkeypatch, attachment_module, "attach_corpus")
    options = ("--per-sentence",) if per_sentence else ()
    r = run_cli("attach", corpus["gold"], corpus["sys"], "--format", "json", *options)
    assert r.code == 0, r.err
    assert tracker.handed == 2 * N
    assert tracker.most <= 4  # a gold and a system sentence at a time (and the next being read)
    (result,) = results
    assert len(result.per_sentence) == (N if per_sentence else 0)


# ---------------------------------------------------------------------------
# parseval and freval


def test_parseval_and_freval_keep_only_problem_sentences(corpus: dict[str, str]) -> None:
    gold, test = corpus["gold.ptb"], corpus["sys.ptb"]
    full = parseval_corpus(read_ptb_sentences(gold), read_ptb_sentences(test))
    seen: list[int] = []
    lean = parseval_corpus(
        read_ptb_sentences(gold),
        read_ptb_sentences(test),
        keep_sentences=False,
        on_sentence=lambda s: seen.append(s.index),
    )
    assert (lean.all, lean.cutoff) == (full.all, full.cutoff)
    assert full.all.counts.errors == N // 100
    assert lean.sentences == tuple(s for s in full.sentences if s.status != "ok")
    assert seen == list(range(1, N + 1))
    f_full = freval_corpus(read_ptb_sentences(gold), read_ptb_sentences(test), FrevalConfig())
    f_lean = freval_corpus(
        read_ptb_sentences(gold), read_ptb_sentences(test), FrevalConfig(), keep_sentences=False
    )
    assert f_lean.counts == f_full.counts and f_lean.score == f_full.score
    assert f_lean.comparisons == tuple(c for c in f_full.comparisons if c.status != "ok")
    assert len(f_lean.comparisons) == N // 100 and f_lean.per_sentence == ()


@pytest.mark.parametrize(
    ("command", "module", "function", "fmt"),
    [
        # --input tree: evalcore parseval's reader of readings (the line layout counts, below)
        ("parseval", parseval_module, "parseval_lines", "evalb"),
        ("parseval", parseval_module, "parseval_lines", "json"),
        ("freval", freval_module, "freval_comparisons", "text"),  # imported by the family's run
        ("freval", freval_module, "freval_comparisons", "json"),
    ],
)
def test_bracket_commands_stream(
    corpus: dict[str, str],
    run_cli: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    module: object,
    function: str,
    fmt: str,
) -> None:
    tracker = Tracker()
    real = ptb_module.read_ptb_sentences  # imported by the family's run when it runs
    monkeypatch.setattr(ptb_module, "read_ptb_sentences", lambda *a, **k: tracker.lines(real(*a, **k)))
    read = evalb_module.read_evalb_sentences  # evalcore parseval: evalb's reading, no trees
    monkeypatch.setattr(evalb_module, "read_evalb_sentences", lambda *a, **k: tracker.readings(read(*a, **k)))
    results = capture(monkeypatch, module, function)
    layout = ("--input", "tree")  # both commands read evalb's readings; the tree layout builds trees
    r = run_cli(command, corpus["gold.ptb"], corpus["sys.ptb"], "--format", fmt, *layout)
    assert r.code == 0, r.err
    assert tracker.handed == 2 * N
    assert tracker.most <= 4
    (result,) = results
    kept = result.sentences if command == "parseval" else result.comparisons
    assert len(kept) == N // 100 and all(s.status == "error" for s in kept)
    assert r.err.count("Length unmatch") == N // 100
    if fmt == "evalb":
        rows = [line for line in r.out.splitlines() if re.match(r"^ *\d+ +\d+ +[012] ", line)]
        assert [int(line.split()[0]) for line in rows] == list(range(1, N + 1))  # a line a sentence


@pytest.mark.parametrize("fmt", ["evalb", "json"])
def test_parseval_count_path_streams(
    corpus: dict[str, str], run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """The line layout's count-only path reads the two files' lines in step (one gold line,
    then one test line): neither file is read whole before the sentences are compared."""
    handed = {corpus["gold.ptb"]: 0, corpus["sys.ptb"]: 0}
    lead: list[int] = []  # per line handed: gold lines handed minus test lines handed
    real = io_module.iter_lines  # imported by the family's run when it runs

    def lines(source: str, *a: Any, **k: Any) -> Iterator[tuple[int, str]]:
        for item in real(source, *a, **k):
            handed[source] += 1
            lead.append(handed[corpus["gold.ptb"]] - handed[corpus["sys.ptb"]])
            yield item

    monkeypatch.setattr(io_module, "iter_lines", lines)
    results = capture(monkeypatch, parseval_module, "parseval_rows")
    r = run_cli("parseval", corpus["gold.ptb"], corpus["sys.ptb"], "--format", fmt)
    assert r.code == 0, r.err
    assert list(handed.values()) == [N, N]
    assert set(lead) == {0, 1}  # in step
    (result,) = results
    assert len(result.sentences) == N // 100 and all(s.status == "error" for s in result.sentences)
    assert r.err.count("Length unmatch") == N // 100
    if fmt == "evalb":
        rows = [line for line in r.out.splitlines() if re.match(r"^ *\d+ +\d+ +[012] ", line)]
        assert [int(line.split()[0]) for line in rows] == list(range(1, N + 1))  # a line a sentence


# ---------------------------------------------------------------------------
# tedeval


def _schemes(gold: str, system: str, trees: bool) -> list[Scheme]:
    def named(name: str, path: str) -> NamedTrees:
        return NamedTrees(name, tuple(read_trees(path)) if trees else (), path)

    return [Scheme("a", named("ga", gold), (named("p", system),)), Scheme("b", named("gb", system))]


@pytest.mark.slow
def test_streamed_experiment_equals_the_in_memory_one(corpus: dict[str, str]) -> None:
    config = ExperimentConfig(shuffles=200)
    in_memory = run_experiment(_schemes(corpus["gold"], corpus["sys"], True), config, details=True)

    def reader(named: NamedTrees) -> Iterator[DepTree | Tree]:
        return read_trees(named.path)

    streamed = run_experiment(
        _schemes(corpus["gold"], corpus["sys"], False), config, details=True, reader=reader
    )
    assert streamed == in_memory
    assert streamed.sentences == N
    assert streamed.sent_ids == in_memory.sent_ids and streamed.indices == tuple(range(N))


def test_tedeval_command_streams(
    corpus: dict[str, str], run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    tracker = Tracker()
    real = tedeval_cmd.read_trees
    monkeypatch.setattr(tedeval_cmd, "read_trees", lambda *a, **k: tracker.trees(real(*a, **k)))
    # the family's run reads the files (evalcore.families.tedeval imports the reader when it runs)
    monkeypatch.setattr(detect_module, "read_trees", lambda *a, **k: tracker.trees(real(*a, **k)))
    gold, system = corpus["gold"], corpus["sys"]
    r = run_cli("tedeval", "--scheme", "a", gold, f"p={system}", "--scheme", "b", system, "--shuffles", "50")
    assert r.code == 0, r.err
    assert tracker.handed >= 3 * N  # three files: gold a, parse p, gold b
    assert tracker.most <= 8


# ---------------------------------------------------------------------------
# significance: bounded chunks, same p-values


@pytest.mark.parametrize("method", ["ar", "bootstrap"])
def test_significance_does_not_depend_on_the_chunk_size(monkeypatch: pytest.MonkeyPatch, method: str) -> None:
    a = [(float(i % 7), 10.0) for i in range(300)]
    b = [(float((i * 3) % 8), 10.0) for i in range(300)]
    default = sig.significance(a, b, method=method, trials=700, seed=3)  # type: ignore[arg-type]
    monkeypatch.setattr(sig, "_CELLS", 1000)  # 3 trials a chunk
    assert sig._chunk(700, 300) == 3
    small = sig.significance(a, b, method=method, trials=700, seed=3)  # type: ignore[arg-type]
    assert small == default


@pytest.mark.slow
def test_significance_memory_is_bounded() -> None:
    a = [(1.0, 2.0)] * 50_000
    b = [(2.0, 2.0)] * 50_000
    tracemalloc.start()
    try:
        sig.approximate_randomization(a, b, shuffles=2000, seed=1)
        used = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # one chunk of 2,000 trials x 50,000 sentences would be 800 MB of float64; bounded: ~40 MB
    assert used < 80 * 1024 * 1024
