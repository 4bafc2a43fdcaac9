"""``evalcore attach --by ... --confusion`` (MaltEval-style breakdowns; docs/attachment.md).

* Hand counts on one sentence (written out below) for every grouping, in JSON and in text.
* Property on real data (French-GSD and English-EWT gold against parses and against the other
  scheme, random windows of sentences, random options): per-group counts add up exactly to the
  corpus counts of ``evalcore attach``; the confusion table sums to the counted tokens and its
  error classes to UAS, LAS and label counts.
* Refusals: exit 2 with one line.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from ec_support import ASSETS, CliResult
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.formats.conllu import read_conllu
from evalcore.metrics.attachment import AttachConfig, attach_corpus
from evalcore.metrics.breakdown import GROUPINGS, BreakdownAccumulator

RunCli = Callable[..., CliResult]
WriteFile = Callable[[str, str | bytes], str]


def sentence(rows: list[tuple[str, str, int, str]], sent_id: str) -> str:
    body = "".join(f"{i}\t{f}\t_\t{u}\t_\t_\t{h}\t{r}\t_\t_\n" for i, (f, u, h, r) in enumerate(rows, 1))
    return f"# sent_id = {sent_id}\n{body}\n"


GOLD = sentence(
    [
        ("The", "DET", 2, "det"),
        ("dog", "NOUN", 3, "nsubj"),
        ("barks", "VERB", 0, "root"),
        (".", "PUNCT", 3, "punct"),
    ],
    "s1",
)
SYSTEM = sentence(
    [
        ("The", "DET", 2, "det"),
        ("dog", "NOUN", 3, "obj"),
        ("barks", "VERB", 0, "root"),
        (".", "PUNCT", 2, "punct"),
    ],
    "s1",
)
# Verdicts: The right; dog right head, nsubj read as obj; barks right; '.' head dog (2) instead
# of barks (3), label right.  Keys: (gold, system, gold_uas, gold_las, gold_label, system_uas,
# system_las, system_label) per group, counted by hand:
HAND: dict[str, dict[str, tuple[int, ...]]] = {
    "deprel": {
        "det": (1, 1, 1, 1, 1, 1, 1, 1),
        "nsubj": (1, 0, 1, 0, 0, 0, 0, 0),  # gold nsubj (dog): right head only
        "obj": (0, 1, 0, 0, 0, 1, 0, 0),  # system obj (dog)
        "punct": (1, 1, 0, 0, 1, 0, 0, 1),
        "root": (1, 1, 1, 1, 1, 1, 1, 1),
    },
    "upos": {u: (1, 1, 1, 1, 1, 1, 1, 1) for u in ("DET", "VERB")}
    | {"NOUN": (1, 1, 1, 0, 0, 1, 0, 0), "PUNCT": (1, 1, 0, 0, 1, 0, 0, 1)},
    "length": {"1-10": (4, 4, 3, 2, 3, 3, 2, 3)},
    # gold arcs The->dog 1, dog->barks 1, '.'->barks 1; system '.'->dog is 2 away
    "distance": {
        "root": (1, 1, 1, 1, 1, 1, 1, 1),
        "1": (3, 2, 2, 1, 2, 2, 1, 1),
        "2": (0, 1, 0, 0, 0, 0, 0, 1),
    },
    # The and dog precede their heads (right), '.' follows its head (left) on both sides
    "direction": {
        "root": (1, 1, 1, 1, 1, 1, 1, 1),
        "left": (1, 1, 0, 0, 1, 0, 0, 1),
        "right": (2, 2, 2, 1, 1, 2, 1, 1),
    },
    # gold depths: barks 1, dog 2, '.' 2, The 3; system: barks 1, dog 2, The 3, '.' 3
    "depth": {
        "1": (1, 1, 1, 1, 1, 1, 1, 1),
        "2": (2, 1, 1, 0, 1, 1, 0, 0),
        "3": (1, 2, 1, 1, 1, 1, 1, 2),
    },
    # system '.'->dog spans barks, which dog does not dominate: non-projective
    "nonproj": {
        "projective": (4, 3, 3, 2, 3, 3, 2, 2),
        "non-projective": (0, 1, 0, 0, 0, 0, 0, 1),
    },
}
COUNT_KEYS = (
    "gold",
    "system",
    "gold_uas",
    "gold_las",
    "gold_label",
    "system_uas",
    "system_las",
    "system_label",
)


def as_json(result: CliResult) -> dict[str, Any]:
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert isinstance(data, dict)
    return data


@pytest.fixture
def pair(write_file: WriteFile) -> tuple[str, str]:
    return write_file("gold.conllu", GOLD), write_file("sys.conllu", SYSTEM)


@pytest.mark.parametrize("by", GROUPINGS)
def test_each_grouping_hand_count_json(run_cli: RunCli, pair: tuple[str, str], by: str) -> None:
    doc = as_json(run_cli("attach", *pair, "--by", by, "--format", "json"))
    assert doc["tokens"] == 4  # the corpus part is unchanged
    [b] = doc["breakdowns"]
    assert b["by"] == by
    # a CoNLL-U gold: the universal part of DEPREL by default (these labels have no subtype)
    assert b["signature"].startswith(f"breakdown|by:{by}|punct:yes|maxlen:none|deprel:base|")
    got = {g["group"]: tuple(g[k] for k in COUNT_KEYS) for g in b["groups"]}
    assert got == HAND[by]


def test_scores_and_missing_denominators_json(run_cli: RunCli, pair: tuple[str, str]) -> None:
    """nsubj: 1 gold token, right head, wrong label: UAS 1, LAS 0; no system nsubj: precision
    and F1 null.  obj: only a system token: UAS/LAS/recall null, precision 0.  det: all 1."""
    doc = as_json(run_cli("attach", *pair, "--by", "deprel", "--format", "json"))
    g = {row["group"]: row for row in doc["breakdowns"][0]["groups"]}
    assert (g["nsubj"]["uas"], g["nsubj"]["las"], g["nsubj"]["precision"], g["nsubj"]["f1"]) == (
        1.0,
        0.0,
        None,
        None,
    )
    assert (g["obj"]["uas"], g["obj"]["recall"], g["obj"]["precision"]) == (None, None, 0.0)
    assert (g["det"]["precision"], g["det"]["recall"], g["det"]["f1"]) == (1.0, 1.0, 1.0)
    assert (g["punct"]["label"], g["punct"]["f1"]) == (1.0, 0.0)


def test_several_groupings_in_text(run_cli: RunCli, pair: tuple[str, str]) -> None:
    result = run_cli("attach", *pair, "--by", "deprel,distance", "--by", "deprel")
    assert result.code == 0, result.err
    out = result.out
    assert out.splitlines()[1].startswith("metric ")  # today's table first, under its labels line
    assert out.count("by deprel (") == 1 and out.count("by distance (") == 1  # duplicates dropped
    rows = {
        line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith(("nsubj ", "obj "))
    }
    # group, gold, system, UAS, LAS, label, LAS P, LAS R, LAS F1
    assert rows["nsubj"] == ["1", "0", "1.0000", "0.0000", "0.0000", "N/A", "0.0000", "N/A"]
    assert rows["obj"] == ["0", "1", "N/A", "N/A", "N/A", "0.0000", "N/A", "N/A"]
    alls = [line.split() for line in out.splitlines() if line.startswith("(all)")]
    assert alls == [["(all)", "4", "4", "0.7500", "0.5000", "0.7500", "0.5000", "0.5000", "0.5000"]] * 2


def test_confusion_hand_count(run_cli: RunCli, pair: tuple[str, str]) -> None:
    """Cells: det/det, nsubj/obj, root/root, punct/punct, one each.  Errors: both right 2 (The,
    barks), right head wrong label 1 (dog), wrong head right label 1 ('.'), both wrong 0."""
    doc = as_json(run_cli("attach", *pair, "--confusion", "--format", "json"))
    conf = doc["confusion"]
    cells = {(c["gold"], c["system"]): c["count"] for c in conf["cells"]}
    assert cells == {("det", "det"): 1, ("nsubj", "obj"): 1, ("punct", "punct"): 1, ("root", "root"): 1}
    assert conf["errors"] == {"both_right": 2, "label_wrong": 1, "head_wrong": 1, "both_wrong": 0}
    assert conf["signature"].startswith("confusion|punct:yes|maxlen:none|deprel:base|")
    assert "breakdowns" not in doc

    text = run_cli("attach", *pair, "--confusion").out
    assert "right head, wrong label      1  0.2500" in text
    assert "wrong head, right label      1  0.2500" in text
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("gold \\ system"))
    assert header.split()[3:] == ["det", "obj", "punct", "root", "(all)"]
    nsubj = next(line for line in lines if line.startswith("nsubj "))
    assert nsubj.split() == ["nsubj", ".", "1", ".", ".", "1"]
    assert "nsubj  obj         1" in text  # the list of confusions


def test_csv_outputs(run_cli: RunCli, pair: tuple[str, str]) -> None:
    rows = list(
        csv.DictReader(io.StringIO(run_cli("attach", *pair, "--by", "direction", "--format", "csv").out))
    )
    assert [(r["by"], r["group"], r["gold"], r["system"], r["gold_las"]) for r in rows] == [
        ("direction", "root", "1", "1", "1"),
        ("direction", "left", "1", "1", "0"),
        ("direction", "right", "2", "2", "1"),
    ]
    assert rows[1]["precision"] == "0.0" and rows[1]["label"] == "1.0"
    conf = list(csv.DictReader(io.StringIO(run_cli("attach", *pair, "--confusion", "--format", "csv").out)))
    assert [(r["gold"], r["system"], r["count"]) for r in conf][1] == ("nsubj", "obj", "1")


def test_options_change_the_groups(run_cli: RunCli, pair: tuple[str, str]) -> None:
    """--no-punct drops '.' from every group; --deprel-base merges subtypes; --max-len 3 excludes
    the 4-token sentence (no group at all)."""
    doc = as_json(run_cli("attach", *pair, "--by", "deprel", "--no-punct", "--format", "json"))
    assert "punct" not in {g["group"] for g in doc["breakdowns"][0]["groups"]}
    assert "|punct:no|" in doc["breakdowns"][0]["signature"]
    doc = as_json(
        run_cli("attach", *pair, "--by", "length", "--max-len", "3", "--confusion", "--format", "json")
    )
    assert doc["breakdowns"][0]["groups"] == [] and doc["confusion"]["cells"] == []


@pytest.mark.parametrize(
    "options",
    [
        ["--by", "deprel", "--confusion", "--format", "csv"],
        ["--by", "deprel", "--per-sentence", "--format", "csv"],
        ["--confusion", "--format", "conll18"],
        ["--by", "upos", "--format", "conll18"],
    ],
)
def test_refused_combinations(run_cli: RunCli, pair: tuple[str, str], options: list[str]) -> None:
    result = run_cli("attach", *pair, *options)
    assert result.code == 2
    assert result.out == ""
    assert len(result.err_lines) == 1 and result.err_lines[0].startswith("evalcore attach: ")


def test_unknown_grouping_is_a_usage_error(run_cli: RunCli, pair: tuple[str, str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run_cli("attach", *pair, "--by", "deprel,colour")
    assert exc.value.code == 2


# --------------------------------------------------------------------------- real data

FR = ASSETS / "fr_gsd"
EWT = ASSETS / "en_ewt"
REAL = [
    (FR / "fr_gsd-ud-test.r2.16.conllu.gz", FR / "parses" / "fr_gsd-test.spacy-ud.conllu.gz"),
    (FR / "fr_gsd-ud-test.r2.16.conllu.gz", FR / "fr_gsd-sud-test.r2.16.conllu.gz"),
    (EWT / "en_ewt-ud-test.r2.16.conllu.gz", EWT / "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz"),
]


@settings(max_examples=25)
@given(
    which=st.sampled_from(range(len(REAL))),
    start=st.integers(0, 400),
    length=st.integers(1, 120),
    no_punct=st.booleans(),
    deprel_base=st.booleans(),
    max_len=st.one_of(st.none(), st.integers(0, 40)),
)
@pytest.mark.slow
def test_groups_and_confusion_add_up_to_attach_on_real_data(
    which: int, start: int, length: int, no_punct: bool, deprel_base: bool, max_len: int | None
) -> None:
    """For every grouping: Σ gold = Σ system = tokens, Σ gold_uas = Σ system_uas = UAS count,
    the same for LAS and label; the confusion cells sum to the tokens, the diagonal to the label
    count, and the error classes to the UAS, LAS and label counts."""
    gold, system = REAL[which]
    config = AttachConfig(no_punct=no_punct, deprel_base=deprel_base, max_len=max_len)
    acc = BreakdownAccumulator(GROUPINGS, config)
    window = slice(start, start + length)
    result = attach_corpus(
        islice(read_conllu(gold), window.start, window.stop),
        islice(read_conllu(system), window.start, window.stop),
        config,
        per_sentence=False,
        on_pair=acc.add,
    )
    c = result.counts
    parts = acc.result()
    for b in parts.breakdowns:
        t = b.total()
        assert (t.gold, t.system) == (c.tokens, c.tokens), b.by
        assert (t.gold_uas, t.system_uas) == (c.uas, c.uas), b.by
        assert (t.gold_las, t.system_las) == (c.las, c.las), b.by
        assert (t.gold_label, t.system_label) == (c.label, c.label), b.by
    conf = parts.confusion
    assert sum(n for _, n in conf.cells) == c.tokens
    assert sum(n for (g, s), n in conf.cells if g == s) == c.label
    e = conf.errors
    assert (e.both_right, e.both_right + e.label_wrong, e.both_right + e.head_wrong) == (
        c.las,
        c.uas,
        c.label,
    )
    assert e.both_right + e.label_wrong + e.head_wrong + e.both_wrong == c.tokens


@pytest.mark.slow
def test_cli_groups_add_up_on_a_whole_real_file(run_cli: RunCli) -> None:
    """The command itself, every grouping at once, English-EWT gold against spaCy (skipped
    sentences included): each grouping's gold counts sum to the JSON's tokens."""
    gold, system = REAL[2]
    doc = as_json(
        run_cli(
            "attach", str(gold), str(system), "--by", ",".join(GROUPINGS), "--confusion", "--format", "json"
        )
    )
    assert [b["by"] for b in doc["breakdowns"]] == list(GROUPINGS)
    for b in doc["breakdowns"]:
        assert sum(g["gold"] for g in b["groups"]) == doc["tokens"] == 25094
        assert sum(g["system"] for g in b["groups"]) == doc["tokens"]
        assert sum(g["gold_uas"] for g in b["groups"]) == round(doc["uas"] * doc["tokens"])
        assert sum(g["gold_las"] for g in b["groups"]) == round(doc["las"] * doc["tokens"])
    assert sum(c["count"] for c in doc["confusion"]["cells"]) == doc["tokens"]


@pytest.mark.slow
def test_real_file_by_deprel_reconciles_with_the_scorer_counts(run_cli: RunCli, data: Path) -> None:
    """English-EWT against spaCy's parse of the gold words, --deprel-base: the CoNLL 2018 scorer
    counts UAS 14,153 and LAS 9,135 of 25,094 words (tests/fixtures/reference/conll18/
    en_ewt.spacy_gold_tok.counts.txt); the per-relation counts add up to exactly those."""
    gold = data / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
    system = data / "parser_outputs" / "spacy_en_ewt_test" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu"
    doc = as_json(
        run_cli("attach", str(gold), str(system), "--by", "deprel", "--deprel-base", "--format", "json")
    )
    groups = doc["breakdowns"][0]["groups"]
    assert sum(g["gold"] for g in groups) == 25094
    assert sum(g["gold_uas"] for g in groups) == 14153
    assert sum(g["gold_las"] for g in groups) == 9135
    assert all(":" not in g["group"] for g in groups)
