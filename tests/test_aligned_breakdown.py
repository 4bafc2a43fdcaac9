"""``--by`` and ``--confusion`` on character-aligned words (evalcore.metrics.aligned;
docs/attachment.md, "Every analysis on aligned words").

* The worked example of docs/attachment.md (tests/test_alignment.py), counted by hand: the deprel
  and distance breakdowns (a key read on the gold word for recall, on the system word for
  precision), length keyed by gold sentences, a cross-table, the confusion and its examples.
* On the real CoNLL 2018 outputs (en_ewt, fr_gsd; he_htb skips with a visible reason when
  ../shared/data is absent): the totals of every breakdown and of one cross-table are the scorer's
  Words, UAS and LAS rows (the committed ``conll18_ud_eval.py -c`` and ``-v`` outputs).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import ROOT, CliResult
from test_alignment import GOLD, SYSTEM, worked_example

from evalcore.choices import GROUPINGS
from evalcore.metrics.aligned import aligned_breakdowns
from evalcore.metrics.breakdown import GroupCounts, HeadErrors, score_breakdown
from evalcore.metrics.conll18 import align_words

FIXTURES = ROOT / "tests" / "fixtures" / "reference" / "conll18"
RunCli = Callable[..., CliResult]
WriteFile = Callable[[str, str | bytes], str]


def _groups(by: str) -> dict[str, GroupCounts]:
    return dict(aligned_breakdowns(worked_example(), [by]).get(by).groups)


def test_deprel_by_hand() -> None:
    # gold: nsubj Ben, aux can, advmod not/home, root go/Run, punct "."
    # system: nsubj Ben, aux cannot, root go/Run, punct ".", obj home
    # aligned: Ben (right), go (right), "." (wrong head), Run (right), home (right head, obj)
    g = _groups("deprel")
    assert g["nsubj"] == GroupCounts(1, 1, 1, 1, 1, 1, 1, 1)
    assert g["aux"] == GroupCounts(1, 1, 0, 0, 0, 0, 0, 0)  # can / cannot: not aligned
    assert g["advmod"] == GroupCounts(2, 0, 1, 0, 0, 0, 0, 0)  # home: right head only
    assert g["obj"] == GroupCounts(0, 1, 0, 0, 0, 1, 0, 0)
    assert g["punct"] == GroupCounts(1, 1, 0, 0, 1, 0, 0, 1)
    assert g["root"] == GroupCounts(2, 2, 2, 2, 2, 2, 2, 2)
    assert list(g) == ["advmod", "aux", "nsubj", "obj", "punct", "root"]


def test_distance_read_on_each_side_by_hand() -> None:
    # gold distances: Ben 3 (3-6), can 2, not 1, go root, "." 1 | Run root, home 1
    # system: Ben 2, cannot 1, go root | "." 1, Run root, home 1 (in the system's own sentences)
    g = _groups("distance")
    assert list(g) == ["root", "1", "2", "3-6"]
    assert g["root"] == GroupCounts(2, 2, 2, 2, 2, 2, 2, 2)
    assert g["1"] == GroupCounts(3, 3, 1, 0, 1, 1, 0, 1)  # home right head; "." right label
    assert g["2"] == GroupCounts(1, 1, 0, 0, 0, 1, 1, 1)  # gold "can" (not aligned), system Ben
    assert g["3-6"] == GroupCounts(1, 0, 1, 1, 1, 0, 0, 0)  # gold Ben


def test_length_is_the_gold_sentences_and_cross_table_by_hand() -> None:
    # gold sentences of 5 and 2 words: one bin; "." (system sentence 2) belongs to gold sentence 1
    # labels right: Ben, go, ".", Run (home: obj for advmod)
    assert _groups("length") == {"1-10": GroupCounts(7, 6, 4, 3, 4, 4, 3, 4)}
    cross = _groups("deprel+length")
    assert cross["advmod|1-10"] == GroupCounts(2, 0, 1, 0, 0, 0, 0, 0)
    assert len(cross) == 6
    row = {
        r.group: r for r in score_breakdown(aligned_breakdowns(worked_example(), ["length"]).get("length"))
    }
    # LAS precision 3/6, recall 3/7, F1 = 2 * 3 / (7 + 6) as the scorer's LAS F1
    assert row["1-10"].f1 == pytest.approx(6 / 13)


def test_confusion_by_hand() -> None:
    conf = aligned_breakdowns(worked_example(), []).confusion
    assert dict(conf.cells) == {
        ("advmod", "obj"): 1,
        ("nsubj", "nsubj"): 1,
        ("punct", "punct"): 1,
        ("root", "root"): 2,
    }
    # Ben, go, Run right; home: right head, wrong label; ".": wrong head, right label
    assert conf.errors == HeadErrors(3, 1, 1, 0)
    assert conf.examples == ((("advmod", "obj"), ("g2",)),)


def _scorer_counts(name: str) -> dict[str, tuple[int, ...]]:
    out = {}
    for line in (FIXTURES / f"{name}.counts.txt").read_text().splitlines()[2:]:
        cells = [c.strip() for c in line.split("|")]
        out[cells[0]] = tuple(int(c) for c in cells[1:] if c)
    return out


def _scorer_f1(name: str, metric: str) -> str:
    for line in (FIXTURES / f"{name}.verbose.txt").read_text().splitlines()[2:]:
        cells = [c.strip() for c in line.split("|")]
        if cells[0] == metric:
            return cells[3]
    raise AssertionError(metric)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en_ewt.UDPipe-Future", "fr_gsd.UDPipe-Future", "he_htb.ONLP-lab"])
def test_totals_of_every_breakdown_are_the_scorers_rows(data: Path, name: str) -> None:
    lang, system = name.split(".", 1)
    folder = data / "parser_outputs" / "conll2018" / lang
    a = align_words(folder / f"gold.{lang}.conllu.gz", folder / f"{system}.{lang}.conllu.gz")
    by = [*GROUPINGS, "deprel+length", "upos+depth"]
    parts = aligned_breakdowns(a, by)
    scorer = _scorer_counts(name)
    las, uas = scorer["LAS"], scorer["UAS"]  # correct, gold, system, aligned
    for key in by:
        t = parts.get(key).total()
        assert (t.gold, t.system) == las[1:3], key
        assert t.gold_las == t.system_las == las[0], key
        assert t.gold_uas == t.system_uas == uas[0], key
        assert f"{100 * 2 * t.gold_las / (t.gold + t.system):.2f}" == _scorer_f1(name, "LAS"), key
    e = parts.confusion.errors
    assert e.both_right + e.label_wrong + e.head_wrong + e.both_wrong == scorer["Words"][0]
    assert e.both_right == las[0]
    assert sum(n for _, n in parts.confusion.cells) == las[3]


def test_cli_by_and_confusion_on_aligned_words(run_cli: RunCli, write_file: WriteFile) -> None:
    gold, system = write_file("gold.conllu", GOLD), write_file("sys.conllu", SYSTEM)
    doc = json.loads(
        run_cli(
            "attach", gold, system, "--by", "deprel+length,distance", "--confusion", "--format", "json"
        ).out
    )
    assert [b["by"] for b in doc["breakdowns"]] == ["deprel+length", "distance"]
    assert "align:chars" in doc["breakdowns"][0]["signature"]
    row = next(g for g in doc["breakdowns"][0]["groups"] if g["group"] == "advmod|1-10")
    assert (row["gold"], row["system"], row["gold_uas"]) == (2, 0, 1)
    cell = next(c for c in doc["confusion"]["cells"] if c["gold"] == "advmod")
    assert cell == {"gold": "advmod", "system": "obj", "count": 1, "examples": ["g2"]}
    text = run_cli("attach", gold, system, "--by", "distance", "--confusion")
    assert text.code == 0, text.err
    assert "by distance" in text.out
    assert "advmod  obj         1  g2" in text.out
    csv = run_cli("attach", gold, system, "--by", "upos", "--format", "csv")
    assert csv.out.splitlines()[0].startswith("by,group,gold,system")


@pytest.mark.parametrize("bad", ["deprel+deprel", "deprel+length+upos", "deprel+size"])
def test_cli_refuses_a_bad_cross_table(
    run_cli: RunCli, write_file: WriteFile, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = write_file("gold.conllu", GOLD)
    with pytest.raises(SystemExit) as exc:
        run_cli("attach", gold, gold, "--by", bad)
    assert exc.value.code == 2
    assert "--by" in capsys.readouterr().err


def test_length_of_a_moved_word_is_its_gold_sentences() -> None:
    """The system's "." is word 1 of its second sentence, but belongs to gold sentence 1: were that
    sentence 12 words long, "." would be in 11-20 (and Run, home in 1-10)."""
    from evalcore.metrics.aligned import word_keys

    system = [w for s in worked_example().sentences for w in s.system]
    units = [0, 0, 0, 0, 1, 1]
    assert word_keys(system, units, [12, 2], "length", True) == ["11-20"] * 4 + ["1-10"] * 2


@pytest.mark.slow
def test_two_raw_text_systems_in_every_format(run_cli: RunCli, data: Path) -> None:
    """``GOLD A B`` with two raw-text parses: each row of both systems, in text, JSON and CSV, is
    the scorer's (the committed ``-v`` tables of French-GSD, to the printed digit)."""
    folder = data / "parser_outputs" / "conll2018" / "fr_gsd"
    files = [str(folder / f"{n}.fr_gsd.conllu.gz") for n in ("gold", "UDPipe-Future", "conll18-baseline")]
    options = ["--deprel-base", "--shuffles", "100"]
    las = [_scorer_f1(f"fr_gsd.{n}", "LAS") for n in ("UDPipe-Future", "conll18-baseline")]
    csv = run_cli("attach", *files, *options, "--format", "csv")
    assert csv.code == 0, csv.err
    row = next(line.split(",") for line in csv.out.splitlines() if line.startswith("LAS f1,"))
    assert [f"{100 * float(v):.2f}" for v in row[1:3]] == las
    doc = json.loads(run_cli("attach", *files, *options, "--format", "json").out)
    assert "align:chars" in doc["signature"]
    text = run_cli("attach", *files, *options)
    assert text.code == 0, text.err
    line = next(x for x in text.out.splitlines() if x.startswith("LAS f1 "))
    assert line.split()[2:4] == las


def test_bootstrap_and_breakdowns_together_on_aligned_words(run_cli: RunCli, write_file: WriteFile) -> None:
    gold, system = write_file("gold.conllu", GOLD), write_file("sys.conllu", SYSTEM)
    doc = json.loads(
        run_cli("attach", gold, system, "--by", "upos", "--bootstrap", "50", "--format", "json").out
    )
    assert doc["breakdowns"][0]["by"] == "upos"
    assert "intervals" in json.dumps(doc)


def test_per_sentence_records_by_hand(run_cli: RunCli, write_file: WriteFile) -> None:
    """Keyed by gold sentences: g1 has 5 gold words and 4 system words ("." included), 3 aligned,
    UAS 2, LAS 2, NED 2; g2 has 2 and 2, 2 aligned, UAS 2, LAS 1, NED 2."""
    gold, system = write_file("gold.conllu", GOLD), write_file("sys.conllu", SYSTEM)
    doc = json.loads(run_cli("attach", gold, system, "--per-sentence", "--format", "json").out)
    rows = [
        [r[k] for k in ("sentence", "gold", "system", "aligned", "uas", "las", "ned")]
        for r in doc["sentences"]
    ]
    assert rows == [["g1", 5, 4, 3, 2, 2, 2], ["g2", 2, 2, 2, 2, 1, 2]]
    assert doc["sentences"][1]["las_f1"] == pytest.approx(2 * 1 / 4)
    text = run_cli("attach", gold, system, "--per-sentence").out
    total = next(line.split() for line in text.splitlines() if line.startswith("(all)"))
    # UAS F1 2*4/13, LAS F1 2*3/13 (the scorer's), NED F1 2*4/13
    assert total == ["(all)", "7", "6", "5", "4", "3", "4", "61.54", "46.15", "61.54"]
    csv = run_cli("attach", gold, system, "--per-sentence", "--format", "csv").out.splitlines()
    assert csv[0].startswith("sentence,index,gold,system,aligned,uas,las,ned")
    assert len(csv) == 3


def test_family_chooses_the_path(write_file: WriteFile) -> None:
    """The API and batch get the command's choice from the family: same tokens, or aligned."""
    from evalcore.families.attach import AlignedOutcome, AttachInputs, AttachOutcome, AttachSettings, run_any

    gold, system = write_file("gold.conllu", GOLD), write_file("sys.conllu", SYSTEM)
    same = run_any(AttachInputs(gold, gold), AttachSettings())
    assert isinstance(same, AttachOutcome)
    aligned = run_any(AttachInputs(gold, system), AttachSettings(per_sentence=True), by=("deprel",))
    assert isinstance(aligned, AlignedOutcome)
    assert aligned.result.counts.las == 3
    assert [r.las for r in aligned.records] == [2, 1]
    assert aligned.breakdowns is not None and aligned.breakdowns.get("deprel").total().gold == 7
    assert aligned.difference.startswith(system)


def test_groups_by_sentence_by_hand() -> None:
    """The app's per-sentence counts of a group: the system's "." starts in the first gold sentence
    (its characters are there), so both root words are right in their own sentence and the
    punctuation's wrong head (right label) is the first sentence's; every group's sentences add up
    to its corpus row."""
    from evalcore.metrics.aligned import aligned_groups_by_sentence

    per = aligned_groups_by_sentence(worked_example(), "deprel")
    assert per["root"] == {0: GroupCounts(1, 1, 1, 1, 1, 1, 1, 1), 1: GroupCounts(1, 1, 1, 1, 1, 1, 1, 1)}
    assert per["punct"] == {0: GroupCounts(1, 1, 0, 0, 1, 0, 0, 1)}
    assert per["obj"] == {1: GroupCounts(0, 1, 0, 0, 0, 1, 0, 0)}
    for key in ("deprel", "length", "deprel+length"):
        corpus = dict(aligned_breakdowns(worked_example(), [key]).get(key).groups)
        by_sentence = aligned_groups_by_sentence(worked_example(), key)
        assert {g: sum(c.values(), GroupCounts()) for g, c in by_sentence.items()} == corpus, key


def test_the_api_scores_a_parse_of_raw_text_as_the_command_does(
    run_cli: RunCli, write_file: WriteFile
) -> None:
    """``evalcore.attach`` on the worked example: the scorer's LAS row counted by hand (3 right of
    7 gold and 6 system words), and ``to_dict()`` is the command's JSON document, alone, with
    ``--per-sentence``, with ``--bootstrap`` and with a second system (the gold itself)."""
    import evalcore
    from evalcore.families.attach import AlignedOutcome

    gold, system = write_file("gold.conllu", GOLD), write_file("sys.conllu", SYSTEM)
    out = evalcore.attach(gold, system)
    assert isinstance(out, AlignedOutcome)
    las = out.result.get("LAS")
    assert (las.correct, las.gold, las.system) == (3, 7, 6)
    row = next(r for r in out.table().rows if r[0] == "LAS")
    assert row[5:8] == (3, 7, 6) and row[3] == pytest.approx(6 / 13)
    for keywords, flags in [
        ({}, ()),
        ({"per_sentence": True}, ("--per-sentence",)),
        ({"bootstrap": 200, "seed": 3}, ("--bootstrap", "200", "--seed", "3")),
    ]:
        document = json.loads(run_cli("attach", gold, system, *flags, "--format", "json").out)
        assert evalcore.attach(gold, system, **keywords).to_dict() == document, flags
    two = evalcore.attach(gold, system, gold, shuffles=100, seed=3)
    document = json.loads(
        run_cli("attach", gold, system, gold, "--shuffles", "100", "--seed", "3", "--format", "json").out
    )
    assert isinstance(two, AlignedOutcome) and two.to_dict() == document


def test_records_count_ned_apart_from_uas() -> None:
    """NED is not UAS: a system head that is the word's gold child, or its gold grandparent, is
    right under NED (tests/test_alignment.py, the NED example)."""
    from test_alignment import _tree

    from evalcore.metrics.aligned import sentence_records

    (record,) = sentence_records(align_words(_tree([2, 0, 1]), _tree([3, 0, 2])))
    assert (record.gold, record.system, record.aligned, record.uas, record.ned) == (3, 3, 3, 1, 3)
    assert record.f1("ned") == 1.0


def test_cross_table_on_the_same_tokens_by_hand() -> None:
    """The same-token path takes ``a+b`` too: the gold of the worked example against a parse of
    its words where "home" is obj, by deprel+distance (each token's two keys, read on each side)."""
    from evalcore.formats.conllu import read_conllu
    from evalcore.metrics.breakdown import breakdown_corpus

    system = GOLD.replace("\t1\tadvmod\t", "\t1\tobj\t")
    pairs = zip(read_conllu(GOLD.encode()), read_conllu(system.encode()), strict=True)
    parts = breakdown_corpus(pairs, ["deprel+distance"])
    groups = dict(parts.get("deprel+distance").groups)
    # gold: Ben nsubj 3-6, can aux 2, not advmod 1, go root, "." punct 1, Run root, home advmod 1;
    # advmod|1: not and home (right heads), home's label wrong; obj|1: home on the system side
    assert groups["advmod|1"] == GroupCounts(2, 1, 2, 1, 1, 1, 1, 1)
    assert groups["obj|1"] == GroupCounts(0, 1, 0, 0, 0, 1, 0, 0)
    assert list(groups)[:2] == ["advmod|1", "aux|2"]
    total = parts.get("deprel+distance").total()
    assert (total.gold, total.gold_las, total.system_las) == (7, 6, 6)
