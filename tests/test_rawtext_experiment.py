"""Parses of raw text in `evalcore tedeval` and `evalcore atlas` (docs/rawtext.md): a CoNLL 2018
system output scored against its UD 2.2 gold, its UAS the reference scorer's; and a parse with the
gold's own words but two sentences merged: every other sentence keeps exactly the numbers of the
words path."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import evalcore
from evalcore.experiment_raw import is_raw, surface
from evalcore.formats.conllu import read_conllu, write_conllu
from evalcore.trees import DepTree

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "parser_outputs" / "conll2018" / "fr_gsd"
REFERENCE = ROOT / "tests" / "fixtures" / "reference" / "conll18" / "fr_gsd.UDPipe-Future.counts.txt"
FR = ROOT / "assets" / "fr_gsd"


def _reference_f1(metric: str) -> float:
    """UAS or LAS F1 = 2·correct / (gold + predicted), from the official scorer's counts (committed)."""
    line = next(x for x in REFERENCE.read_text(encoding="utf-8").splitlines() if x.startswith(f"{metric} "))
    correct, gold, predicted = (int(v) for v in re.findall(r"\d+", line)[:3])
    return 2 * correct / (gold + predicted)


@pytest.mark.slow  # the whole French test set, aligned and scored on both paths
@pytest.mark.skipif(not DATA.exists(), reason="needs ../shared/data")
def test_udpipe_future_against_its_ud_2_2_gold(run_cli: Callable[..., object]) -> None:
    gold, system = DATA / "gold.fr_gsd.conllu.gz", DATA / "UDPipe-Future.fr_gsd.conllu.gz"

    def tedeval(*extra: str) -> dict[str, object]:
        args = ("--scheme", "ud", str(gold), f"udpf={system}", "--shuffles", "10", "--format", "json")
        res = run_cli("tedeval", *args, *extra)
        assert res.code == 0, res.err  # type: ignore[attr-defined]
        return json.loads(res.out)  # type: ignore[attr-defined,no-any-return]

    doc: dict[str, Any] = tedeval("--per-sentence")
    cells = {(r["against"], r["metric"]): r["score"] for r in doc["rows"] if r["parse"] == "udpf"}
    assert cells[("ud", "UAS")] == pytest.approx(_reference_f1("UAS"), abs=1e-12)
    # the scorer compares the universal part of the relations: the default on a CoNLL-U gold
    assert cells[("ud", "LAS")] == pytest.approx(_reference_f1("LAS"), abs=1e-12)
    assert doc["signature"].endswith("|deprel:base|v" + evalcore.__version__)
    blocks = [s for s in doc["per_sentence"] if not s["labeled"]]
    paths = {s["path"] for s in blocks}
    assert paths == {"words", "general"}
    # 416 gold sentences, 407 parse sentences (the scorer's counts): every sentence in one block
    assert sorted(g for s in blocks for g in s["gold_sentences"]) == list(range(416))
    assert sorted(p for s in blocks for p in s["parse_sentences"]) == list(range(407))
    assert sum(s["delta"] for s in blocks) / sum(s["norm"] for s in blocks) == pytest.approx(
        1 - cells[("ud", "U-TED")]
    )
    doc_full: dict[str, Any] = tedeval("--labels", "full")
    las_full = next(r["score"] for r in doc_full["rows"] if (r["parse"], r["metric"]) == ("udpf", "LAS"))
    # UDPipe-Future writes no subtype where the gold has one: relations whole agree less often
    assert las_full < cells[("ud", "LAS")]
    assert "|deprel:full|" in doc_full["signature"]
    atlas = run_cli("atlas", "--scheme", "ud", str(gold), f"udpf={system}", "--no-ranking")
    assert atlas.code == 0, atlas.err  # type: ignore[attr-defined]


def _merged(trees: list[DepTree], at: int = 0) -> list[DepTree]:
    """Sentences ``at`` and ``at + 1`` as one: the second's tokens renumbered after the first's,
    its root attached to the first's root (``parataxis``), its text after a space."""
    a, b = trees[at], trees[at + 1]
    n = len(a.tokens)
    root = next(t.id for t in a.tokens if t.head == 0)
    moved = tuple(
        replace(
            t,
            id=t.id + n,
            head=root if t.head == 0 else t.head + n,
            deprel="parataxis" if t.head == 0 else t.deprel,
        )
        for t in b.tokens
    )
    extras = (
        *a.extras,
        *(
            replace(e, id="-".join(str(int(x) + n) for x in e.id.split("-")), after=e.after + n)
            for e in b.extras
        ),
    )
    text = f"{a.text} {b.text}"
    one = DepTree((*a.tokens, *moved), "merged", text, ("# sent_id = merged", f"# text = {text}"), extras)
    return [*trees[:at], one, *trees[at + 2 :]]


@pytest.mark.parametrize("at", [0, 70])
def test_streamed_files_give_the_numbers_of_trees_in_memory(
    tmp_path: Path, at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command streams its files; from a first difference on, its first pass keeps what it
    reads (a parse of raw text and its gold are then read again only up to that sentence: ``at``
    0 and 70).  Every cell's pairs are those of the same trees given in memory."""
    from evalcore.experiment import NamedTrees, Scheme, run_experiment
    from evalcore.families.tedeval import TedevalSettings, experiment_config

    k = 80
    golds = {s: list(read_conllu(str(FR / f"fr_gsd-{s}-test.r2.16.conllu.gz")))[:k] for s in ("ud", "sud")}
    files = {name: tmp_path / f"{name}.conllu" for name in ("ud", "sud", "raw")}
    for name, trees in (("ud", golds["ud"]), ("sud", golds["sud"]), ("raw", _merged(golds["ud"], at))):
        files[name].write_text(write_conllu(trees), encoding="utf-8")
    config = experiment_config(TedevalSettings(shuffles=10))

    def named(name: str, held: bool) -> NamedTrees:
        trees = tuple(read_conllu(str(files[name]))) if held else ()
        return NamedTrees(name, trees, str(files[name]))

    def run(held: bool) -> evalcore.ExperimentResult:  # type: ignore[name-defined]
        schemes = [
            Scheme("ud", named("ud", held), (named("raw", held),)),
            Scheme("sud", named("sud", held), ()),
        ]
        return run_experiment(schemes, config, reader=None if held else lambda f: read_conllu(f.path))

    import evalcore.experiment as experiment

    kept: list[int] = []
    whole = experiment._Tape.whole
    monkeypatch.setattr(
        experiment._Tape, "whole", lambda self, head: kept.append(self.start) or whole(self, head)
    )
    memory, streamed = run(True), run(False)
    assert [r.cells[0].pairs for r in streamed.rows] == [r.cells[0].pairs for r in memory.rows]
    assert any(b.path == "general" for b in streamed.raw_blocks) and len(streamed.rows) == 10
    assert kept == [at, at]  # the parse and its gold kept by the first pass from their first difference


def test_the_other_sentences_keep_the_words_path_numbers(tmp_path: Path) -> None:
    """The gold-words property: a parse of raw text whose sentences, but for the first two, are the
    gold's words gives those sentences exactly the numbers of the words path."""
    k = 25  # spacy-ud gives sentence 31 two roots, which the CoNLL 2018 alignment refuses
    golds = {s: list(read_conllu(str(FR / f"fr_gsd-{s}-test.r2.16.conllu.gz")))[:k] for s in ("ud", "sud")}
    parse = list(read_conllu(str(FR / "parses" / "fr_gsd-test.spacy-ud.conllu.gz")))[:k]
    files = {}
    for name, trees in (("ud", golds["ud"]), ("sud", golds["sud"]), ("p", parse), ("raw", _merged(parse))):
        files[name] = tmp_path / f"{name}.conllu"
        files[name].write_text(write_conllu(trees), encoding="utf-8")
    assert not is_raw(golds["ud"], parse) and is_raw(golds["ud"], _merged(parse))
    assert "".join(surface(t) for t in parse) == "".join(surface(t) for t in _merged(parse))

    def run(p: Path) -> evalcore.ExperimentResult:  # type: ignore[name-defined]
        return evalcore.tedeval(
            {"ud": (str(files["ud"]), {"p": str(p)}), "sud": (str(files["sud"]), {})}, shuffles=10
        )

    words, raw = run(files["p"]), run(files["raw"])
    for row in words.rows:
        other = raw.row(row.against, row.metric)
        assert other is not None
        a, b = row.cells[0].pairs, other.cells[0].pairs
        assert len(a) == len(b) == k
        if row.metric in ("U-TED", "L-TED"):
            assert a[2:] == b[2:]  # the words path, sentence by sentence
            assert b[1] == (0.0, 0.0) and b[0] != a[0]  # the merged block's pair on its first sentence


@pytest.mark.slow  # the French test set's raw text, two parses, every target
def test_the_atlas_on_the_spacy_parses_of_the_raw_text(run_cli: Callable[..., object]) -> None:
    """`evalcore atlas` on the committed raw-text parses against UD, SUD and UD+SUD exits 0, and each
    of its unlabeled cells gives the score of the committed table (docs/results/french_raw_text.csv:
    the experiment's own numbers, a regression pin of the two faces' agreement)."""
    import csv
    import io
    import json as _json

    raw = {s: FR / "parses" / f"fr_gsd-test.raw.spacy-{s}.conllu.gz" for s in ("ud", "sud")}
    args = ["--no-ranking", "--format", "json"]
    for s in ("ud", "sud"):
        args += ["--scheme", s, str(FR / f"fr_gsd-{s}-test.r2.16.conllu.gz"), f"raw:spacy-{s}={raw[s]}"]
    res = run_cli("atlas", *args)
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    cells = {(c["parse"], c["target"]): c for c in _json.loads(res.out)["cells"] if not c["labeled"]}  # type: ignore[attr-defined]
    table = ROOT / "docs" / "results" / "french_raw_text.csv"
    rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8"))))[1:]
    pinned = {
        (r[0], r[2]): float(r[4])
        for r in rows
        if r[3] == "U-TED" and r[0] in ("raw:spacy-ud", "raw:spacy-sud")
    }
    for (parse, target), score in pinned.items():
        assert round(cells[(parse, target)]["score"], 4) == score
