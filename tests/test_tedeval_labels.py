"""How the cross-scheme experiment's LAS compares relation labels (docs/tedeval.md, "Relation
labels in LAS"): decided on each gold by its format, as ``evalcore attach`` decides it, for parses
of the gold's words and of raw text alike, and said in the signature.

The expected values are counted by hand on a four-word sentence whose parse has every head right
and two relations that differ from the gold's only by their subtype (``nsubj:pass`` / ``nsubj``,
``obl:arg`` / ``obl``) and one that differs whole (``aux:pass`` / ``dep``): LAS 3/4 by the universal
part, 1/4 compared whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import evalcore
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, deprel_text, run_experiment
from evalcore.formats.conllu import parse_conllu

GOLD = """# sent_id = s1
# text = Il fut vu hier
1\tIl\til\tPRON\t_\t_\t3\tnsubj:pass\t_\t_
2\tfut\têtre\tAUX\t_\t_\t3\taux:pass\t_\t_
3\tvu\tvoir\tVERB\t_\t_\t0\troot\t_\t_
4\thier\thier\tADV\t_\t_\t3\tobl:arg\t_\t_

"""
PARSE = GOLD.replace("nsubj:pass", "nsubj").replace("obl:arg", "obl").replace("aux:pass", "dep")
BASE, FULL = 3 / 4, 1 / 4  # counted by hand (the module's docstring)


def _las(result: object, against: str = "ud") -> float:
    row = result.row(against, "LAS")  # type: ignore[attr-defined]
    assert row is not None
    return float(row.cells[0].score)


def _schemes(gold_name: str, gold_text: str = GOLD) -> list[Scheme]:
    gold = NamedTrees(gold_name, tuple(parse_conllu(gold_text)))
    return [Scheme("ud", gold, (NamedTrees("p", tuple(parse_conllu(PARSE))),))]


@pytest.mark.parametrize(
    ("name", "labels", "expected", "said"),
    [
        ("g.conllu", "auto", BASE, "base"),  # CoNLL-U by its name: the scorer's rule
        ("g.conllx", "auto", FULL, "full"),  # CoNLL-X by its name: eval.pl's rule
        ("g.conll", "auto", BASE, "base"),  # no telling name: the first sentence has comments
        ("g.conllu", "full", FULL, "full"),
        ("g.conllx", "universal", BASE, "base"),
    ],
)
def test_las_by_the_gold_format_and_the_setting(name: str, labels: str, expected: float, said: str) -> None:
    result = run_experiment(_schemes(name), ExperimentConfig(shuffles=0, labels=labels))  # type: ignore[arg-type]
    assert _las(result) == pytest.approx(expected, abs=1e-12)
    assert f"|deprel:{said}|" in result.signature
    assert result.deprel == said


def test_a_gold_without_comments_and_without_a_telling_name_is_conllx() -> None:
    bare = "\n".join(x for x in GOLD.splitlines() if not x.startswith("#")) + "\n"
    result = run_experiment(_schemes("upload", bare), ExperimentConfig(shuffles=0))
    assert _las(result) == pytest.approx(FULL, abs=1e-12)
    assert "|deprel:full|" in result.signature


def test_golds_of_two_formats_are_said_per_scheme() -> None:
    schemes = _schemes("a.conllu")
    other = NamedTrees("b.conllx", tuple(parse_conllu(GOLD)))
    schemes.append(Scheme("x", other, (NamedTrees("q", tuple(parse_conllu(PARSE))),)))
    result = run_experiment(schemes, ExperimentConfig(shuffles=0))
    assert _las(result, "ud") == pytest.approx(BASE, abs=1e-12)
    row = result.row("x", "LAS")
    assert row is not None and row.cell("q").score == pytest.approx(FULL, abs=1e-12)  # type: ignore[union-attr]
    assert "|deprel:ud=base,x=full|" in result.signature
    assert deprel_text(()) == "none"
    assert ExperimentConfig().deprel_text() == "auto"  # before the golds are known


def test_the_command_the_api_and_attach_agree(tmp_path: Path, run_cli: Callable[..., object]) -> None:
    gold, parse = tmp_path / "gold.conllu", tmp_path / "parse.conllu"
    gold.write_text(GOLD, encoding="utf-8")
    parse.write_text(PARSE, encoding="utf-8")
    for flag, expected in ((None, BASE), ("full", FULL), ("universal", BASE)):
        extra = ["--labels", flag] if flag else []
        res = run_cli(
            "tedeval",
            "--scheme",
            "ud",
            str(gold),
            f"p={parse}",
            "--shuffles",
            "0",
            "--format",
            "json",
            *extra,
        )
        assert res.code == 0, res.err  # type: ignore[attr-defined]
        doc = json.loads(res.out)  # type: ignore[attr-defined]
        las = next(r["score"] for r in doc["rows"] if r["metric"] == "LAS")
        assert las == pytest.approx(expected, abs=1e-12)
        api = evalcore.tedeval({"ud": (str(gold), {"p": str(parse)})}, shuffles=0, labels=flag or "auto")
        assert _las(api) == pytest.approx(expected, abs=1e-12)
        attach = evalcore.attach(str(gold), str(parse), labels=flag or "auto")
        assert attach.score.las == pytest.approx(expected, abs=1e-12)


GOLD2 = (
    GOLD
    + """# sent_id = s2
# text = Il dort
1\tIl\til\tPRON\t_\t_\t2\tnsubj\t_\t_
2\tdort\tdormir\tVERB\t_\t_\t0\troot\t_\t_

"""
)
# the parse of the raw text: the two sentences as one, the second's root under the first's
RAW = """# sent_id = r1
# text = Il fut vu hier Il dort
1\tIl\til\tPRON\t_\t_\t3\tnsubj\t_\t_
2\tfut\têtre\tAUX\t_\t_\t3\tdep\t_\t_
3\tvu\tvoir\tVERB\t_\t_\t0\troot\t_\t_
4\thier\thier\tADV\t_\t_\t3\tobl\t_\t_
5\tIl\til\tPRON\t_\t_\t6\tnsubj\t_\t_
6\tdort\tdormir\tVERB\t_\t_\t3\tparataxis\t_\t_

"""


@pytest.mark.parametrize(("labels", "las"), [("auto", 4 / 6), ("full", 2 / 6), ("universal", 4 / 6)])
def test_a_parse_of_raw_text_compares_relations_alike(labels: str, las: float) -> None:
    """Counted by hand: the six words align one to one; *dort* has the wrong head (the gold's root,
    the parse's *vu*); of the five right heads, *fut* has another relation whole and by its
    universal part (``dep``), *Il* and *hier* only by their subtypes: LAS F1 2·4/(6 + 6) by the
    universal part, 2·2/(6 + 6) whole; UAS 2·5/12."""
    gold = NamedTrees("g.conllu", tuple(parse_conllu(GOLD2)))
    raw = NamedTrees("raw", tuple(parse_conllu(RAW)))
    result = run_experiment([Scheme("ud", gold, (raw,))], ExperimentConfig(shuffles=0, labels=labels))  # type: ignore[arg-type]
    assert result.raw_blocks, "scored as a parse of raw text"
    assert _las(result) == pytest.approx(las, abs=1e-12)
    uas = result.row("ud", "UAS")
    assert uas is not None and uas.cells[0].score == pytest.approx(5 / 6, abs=1e-12)


@pytest.mark.parametrize(
    ("name", "labels", "correct", "said"),
    [
        ("gold.conllu", "auto", 3, "base"),
        ("gold.conllx", "auto", 1, "full"),
        ("gold.conllu", "full", 1, "full"),
        ("gold.conllx", "universal", 3, "base"),
    ],
)
def test_the_atlas_ranking_and_construction_scores_follow_the_experiment(
    tmp_path: Path, name: str, labels: str, correct: int, said: str, run_cli: Callable[..., object]
) -> None:
    """The atlas's ranking and its scores per construction take the experiment's LAS (and its
    ``labels`` setting, the command's ``--labels``): over every construction the parse's right
    (head, relation) pairs add up to the hand count (3 by the universal part, the default on a
    CoNLL-U gold; 1 whole, the default on CoNLL-X), and the signatures say which."""
    from evalcore.patterns import shipped

    gold, parse = tmp_path / name, tmp_path / "p.conllu"
    gold.write_text(GOLD, encoding="utf-8")
    parse.write_text(PARSE, encoding="utf-8")
    pattern = f"ud={shipped('ud')}"
    report = evalcore.atlas(
        {"ud": (str(gold), {"p": str(parse), "g": str(gold)})},
        patterns=(pattern,),
        shuffles=10,
        labels=labels,  # type: ignore[arg-type]
    )
    assert report.ranking is not None and report.constructions is not None
    assert f"|deprel:{said}|" in report.ranking.signature
    assert f"|deprel:{said}|" in report.constructions.signature
    cells = [s.cell("ud", "LAS", "p") for s in report.constructions.scores]
    assert sum(c.x for c in cells if c is not None) == correct
    assert sum(c.n for c in cells if c is not None) == 4
    res = run_cli("atlas", "--scheme", "ud", str(gold), f"p={parse}", f"g={gold}", "--pattern", pattern,
                  "--shuffles", "10", "--labels", labels, "--format", "json")  # fmt: skip
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    assert f"|deprel:{said}|" in json.loads(res.out)["ranking"]["signature"]  # type: ignore[attr-defined]
