"""``evalcore batch`` on parses of raw text: the CoNLL 2018 shared task's evaluation (docs/batch.md,
"Parses of raw text").

* A hand-counted example from the scorer's own alignment tests (``tests/scorer_cases.py``): a
  system that splits a gold token is scored by the character alignment (``conll18``), with the
  bootstrap interval counted by hand over its two sentences; a same-token system of the same gold
  keeps its ``attach`` rows and is scored as ``conll18`` too, so the pair is tested.
* On the real CoNLL 2018 outputs (``../shared/data``), every F1 and aligned accuracy of the batch
  table equals ``conll18_ud_eval.py -v``'s committed output (tests/fixtures/reference/conll18) to
  the printed digit: fr_gsd and en_ewt (two systems each), he_htb (five systems; non-commercial,
  read from ../shared/data only, the test skips with its reason when it is absent), and spaCy's
  gold-tokenized and raw-text EWT parses of one gold under ``attach`` (the mixed gold: the
  gold-tokenized one keeps its ``attach`` rows, both get the scorer's).
* Intervals and p-values are those the single command computes from the same counts (a
  cross-check of two paths, not reference values).
* The table is the same on ``--jobs 2`` and on a Dask ``LocalCluster``, byte for byte in CSV.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ec_support import DATA, ROOT
from scorer_cases import scorer_conllu

from evalcore.batch import BatchRow, read_manifest, run_batch, serial_map
from evalcore.cli import main
from evalcore.limits import Limits
from evalcore.metrics.conll18 import METRICS as CONLL18_ROWS
from evalcore.report.batch import BATCH_COLUMNS

CONLL2018 = DATA / "parser_outputs" / "conll2018"
REFERENCE = ROOT / "tests" / "fixtures" / "reference" / "conll18"
SHUFFLES = 1000
SEED = 7

# the scorer's TestAlignment case (["a", "bc", "d"], ["a", "b", "c", "d"], 2 aligned words), then a
# sentence both tokenize alike
GOLD = scorer_conllu(["a", "bc", "d"], ["e", "f"])
RAW = scorer_conllu(["a", "b", "c", "d"], ["e", "f"])


def _manifest(
    tmp_path: Path, golds: dict[str, tuple[Path, list[str], dict[str, Path]]], **settings: object
) -> Path:
    text = "[settings]\n" + "".join(
        f"{k} = {v!r}\n" for k, v in {"shuffles": SHUFFLES, "seed": SEED, **settings}.items()
    )
    for name, (gold, metrics, systems) in golds.items():
        text += (
            f'\n[[gold]]\nname = "{name}"\nfile = "{gold}"\nmetrics = {json.dumps(metrics)}\n[gold.systems]\n'
        )
        text += "".join(f'"{s}" = "{path}"\n' for s, path in systems.items())
    path = tmp_path / "task.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _small(tmp_path: Path, metrics: list[str]) -> list[BatchRow]:
    (tmp_path / "gold.conllu").write_text(GOLD, encoding="utf-8")
    (tmp_path / "raw.conllu").write_text(RAW, encoding="utf-8")
    systems = {"raw": tmp_path / "raw.conllu", "same": tmp_path / "gold.conllu"}
    manifest = _manifest(tmp_path, {"g": (tmp_path / "gold.conllu", metrics, systems)})
    return run_batch(read_manifest(str(manifest)), Limits(), serial_map)


def _values(rows: list[BatchRow], system: str, metric: str = "conll18") -> dict[str, BatchRow]:
    return {r.score: r for r in rows if (r.system, r.metric, r.kind) == (system, metric, "score")}


def test_a_split_token_is_scored_by_the_character_alignment_hand_counted(tmp_path: Path) -> None:
    """Gold a|bc|d e|f, system a|b|c|d e|f: 5 gold words, 6 system words, 4 aligned (the scorer's
    test says 2 in the first sentence), every aligned word's head and relation right.  Every F1 of
    a word row is 2·4 / (5 + 6) = 8/11; the aligned accuracies 4/4.  The bootstrap resamples the two
    sentences: twice the first gives 2·4 / (6 + 8) = 4/7, twice the second 1, each a quarter of the
    resamples, so the 95% interval is [4/7, 1]."""
    rows = _small(tmp_path, ["attach"])
    raw = _values(rows, "raw")
    for score in ("Tokens f1", "Words f1", "UPOS f1", "UAS f1", "LAS f1", "CLAS f1", "BLEX f1"):
        assert raw[score].value == pytest.approx(8 / 11), score
    assert raw["LAS aligned_accuracy"].value == 1.0
    assert raw["Sentences f1"].value == 1.0
    assert (raw["LAS f1"].low, raw["LAS f1"].high) == (pytest.approx(4 / 7), 1.0)
    assert "bootstrap:1000|level:0.95|seed:7" in raw["LAS f1"].signature
    # the same-token system: its attach rows as today, and the scorer's rows to be tested against
    assert {s: r.value for s, r in _values(rows, "same", "attach").items()} == {
        "uas": 1.0,
        "las": 1.0,
        "label": 1.0,
        "undirected": 1.0,
        "ned": 1.0,
    }
    assert all(r.value == 1.0 for r in _values(rows, "same").values())
    assert "raw" not in {r.system for r in rows if r.metric == "attach"}
    pairs = [r for r in rows if r.kind == "p"]
    assert {(r.system, r.other, r.metric) for r in pairs} == {("raw", "same", "conll18")}
    assert len(pairs) == len(raw) == 23  # 13 F1s and 10 aligned accuracies
    assert "trials:1000|seed:7" in pairs[0].signature and "bootstrap" not in pairs[0].signature
    # manifest order: attach, then conll18 (each system's scores), then the p-values
    assert [(r.metric, r.system, r.kind) for r in rows][:6] == [("attach", "same", "score")] * 5 + [
        ("conll18", "raw", "score")
    ]


def test_the_metric_conll18_scores_every_system_by_the_alignment(tmp_path: Path) -> None:
    detected = _small(tmp_path, ["attach"])
    explicit = _small(tmp_path, ["conll18"])
    assert explicit == [r for r in detected if r.metric == "conll18"]
    both = _small(tmp_path, ["attach", "conll18"])  # the raw system's rows once, not twice
    assert both == detected


def test_a_system_of_another_text_is_exit_2_and_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "gold.conllu").write_text(GOLD, encoding="utf-8")
    (tmp_path / "other.conllu").write_text(scorer_conllu(["a", "b", "x", "d"], ["e", "f"]), encoding="utf-8")
    manifest = _manifest(
        tmp_path, {"g": (tmp_path / "gold.conllu", ["attach"], {"o": tmp_path / "other.conllu"})}
    )
    assert main(["batch", str(manifest), "--jobs", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "other.conllu:3:" in captured.err


def test_keep_going_a_system_of_another_text_fails_once_and_the_others_are_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "gold.conllu").write_text(GOLD, encoding="utf-8")
    (tmp_path / "raw.conllu").write_text(RAW, encoding="utf-8")
    (tmp_path / "other.conllu").write_text(scorer_conllu(["a", "b", "x", "d"], ["e", "f"]), encoding="utf-8")
    systems = {
        "raw": tmp_path / "raw.conllu",
        "o": tmp_path / "other.conllu",
        "same": tmp_path / "gold.conllu",
    }
    manifest = _manifest(tmp_path, {"g": (tmp_path / "gold.conllu", ["attach"], systems)})
    assert main(["batch", str(manifest), "--jobs", "1", "--keep-going", "--format", "csv"]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "other.conllu:3:" in captured.err  # once, not again as conll18
    lines = [line.split(",") for line in captured.out.splitlines()[1:]]
    assert {(c[1], c[2], c[3]) for c in lines} == {
        ("same", "", "attach"),
        ("raw", "", "conll18"),
        ("same", "", "conll18"),
        ("raw", "same", "conll18"),
    }


@pytest.mark.parametrize(
    ("setting", "words"),
    [("bootstrap = 0", "bootstrap must be a positive integer"), ("level = 1.5", "level must be a number")],
)
def test_a_bad_bootstrap_setting_names_its_line(
    tmp_path: Path, setting: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "gold.conllu").write_text(GOLD, encoding="utf-8")
    path = tmp_path / "task.toml"
    gold = tmp_path / "gold.conllu"
    path.write_text(
        f'[settings]\nseed = 1\n{setting}\n\n[[gold]]\nname = "g"\nfile = "{gold}"\nmetrics = ["conll18"]\n'
        f'[gold.systems]\na = "{gold}"\n',
        encoding="utf-8",
    )
    assert main(["batch", str(path)]) == 2
    assert f"task.toml:3: {words}" in capsys.readouterr().err


# --- the real CoNLL 2018 outputs -----------------------------------------------------------------


def _reference(treebank: str, system: str) -> dict[str, str]:
    """``conll18_ud_eval.py -v``'s committed table: ``"LAS f1" -> "85.74"`` and so on."""
    out: dict[str, str] = {}
    for line in (REFERENCE / f"{treebank}.{system}.verbose.txt").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if cells[0] in CONLL18_ROWS:
            out[f"{cells[0]} f1"] = cells[3]
            if cells[4]:
                out[f"{cells[0]} aligned_accuracy"] = cells[4]
    return out


def _printed(rows: list[BatchRow], gold: str, system: str) -> dict[str, str]:
    """The table's scores as the scorer prints them (``%.2f`` of the percentage)."""
    return {
        r.score: f"{100 * r.value:.2f}"
        for r in rows
        if (r.gold, r.system, r.metric, r.kind) == (gold, system, "conll18", "score")
    }


def _conll2018(treebank: str, systems: tuple[str, ...]) -> tuple[Path, list[str], dict[str, Path]]:
    folder = CONLL2018 / treebank
    return (
        folder / f"gold.{treebank}.conllu.gz",
        ["attach"],
        {s: folder / f"{s}.{treebank}.conllu.gz" for s in systems},
    )


FR_EN = {
    "fr_gsd": ("UDPipe-Future", "conll18-baseline"),
    "en_ewt": ("UDPipe-Future", "conll18-baseline"),
}


@pytest.fixture(scope="module")
def fr_en(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[BatchRow]]:
    if not CONLL2018.is_dir():
        pytest.skip(f"the CoNLL 2018 outputs are not at {CONLL2018} (they are read from ../shared/data)")
    manifest = _manifest(tmp_path_factory.mktemp("fr_en"), {t: _conll2018(t, s) for t, s in FR_EN.items()})
    return manifest, run_batch(read_manifest(str(manifest)), Limits(), serial_map)


@pytest.mark.slow
@pytest.mark.parametrize(("treebank", "system"), [(t, s) for t, ss in FR_EN.items() for s in ss])
def test_french_and_english_systems_equal_the_scorer(
    fr_en: tuple[Path, list[BatchRow]], treebank: str, system: str
) -> None:
    _, rows = fr_en
    expected = _reference(treebank, system)
    assert len(expected) == 23
    assert _printed(rows, treebank, system) == expected


@pytest.mark.slow
def test_every_two_systems_of_a_gold_are_tested(fr_en: tuple[Path, list[BatchRow]]) -> None:
    _, rows = fr_en
    pairs = {(r.gold, r.system, r.other) for r in rows if r.kind == "p"}
    assert pairs == {(t, "UDPipe-Future", "conll18-baseline") for t in FR_EN}
    las = {r.gold: r.value for r in rows if r.kind == "p" and r.score == "LAS f1"}
    assert all(p < 0.05 for p in las.values())  # 85.74 vs 81.05 (fr), 82.51 vs 77.56 (en)


@pytest.mark.slow
def test_the_same_table_on_two_processes_and_on_dask(
    fr_en: tuple[Path, list[BatchRow]], capsys: pytest.CaptureFixture[str]
) -> None:
    from distributed import LocalCluster

    manifest, rows = fr_en
    assert main(["batch", str(manifest), "--jobs", "2", "--format", "csv"]) == 0
    local = capsys.readouterr().out
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        assert main(["batch", str(manifest), "--dask", cluster.scheduler_address, "--format", "csv"]) == 0
        dask = capsys.readouterr().out
    assert local == dask
    lines = local.splitlines()
    assert lines[0] == ",".join(BATCH_COLUMNS) and len(lines) == len(rows) + 1


HE = ("UDPipe-Future", "conll18-baseline", "HIT-SCIR-18", "ONLP-lab", "Stanford-18")


@pytest.mark.slow
def test_the_hebrew_systems_equal_the_scorer(tmp_path: Path) -> None:
    """he_htb is non-commercial: read from ../shared/data, never copied (its scores are quoted)."""
    if not (CONLL2018 / "he_htb").is_dir():
        pytest.skip(
            f"he_htb (non-commercial) is not at {CONLL2018 / 'he_htb'}: it is read from ../shared/data only"
        )
    manifest = _manifest(tmp_path, {"he_htb": _conll2018("he_htb", HE)}, shuffles=100)
    rows = run_batch(read_manifest(str(manifest)), Limits(), serial_map)
    for system in HE:
        assert _printed(rows, "he_htb", system) == _reference("he_htb", system), system
    assert len({(r.system, r.other) for r in rows if r.kind == "p"}) == 10


def test_scores_and_rank_select_and_order_the_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--scores`` keeps the rows of the named scores (and their p-values); ``--rank`` orders each
    gold × metric's systems best first: the same-token system (LAS F1 1) before the raw one (8/11),
    whatever the manifest's order."""
    _small(tmp_path, ["attach"])  # writes the files and the manifest
    argv = ["batch", str(tmp_path / "task.toml"), "--jobs", "1", "--format", "csv"]
    assert main([*argv, "--scores", "LAS f1,uas,nosuch", "--rank"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "warning: no row of the table has the score 'nosuch'\n"
    cells = [line.split(",")[:6] for line in captured.out.splitlines()[1:]]
    assert cells == [
        ["g", "same", "", "attach", "uas", "score"],
        ["g", "same", "", "conll18", "LAS f1", "score"],
        ["g", "raw", "", "conll18", "LAS f1", "score"],
        ["g", "raw", "same", "conll18", "LAS f1", "p"],
    ]
    assert main([*argv, "--scores", "LAS f1"]) == 0  # without --rank: the manifest's order
    assert [line.split(",")[1] for line in capsys.readouterr().out.splitlines()[1:]] == ["raw", "same", "raw"]


def test_rank_puts_fewer_crossing_brackets_first() -> None:
    from evalcore.report.batch import ranked

    def row(system: str, score: str, value: float) -> BatchRow:
        return BatchRow("g", system, "", "parseval", score, "score", value, "sig")

    rows = [
        row("a", "f1", 0.8),
        row("a", "average_crossing", 1.5),
        row("b", "f1", 0.9),
        row("b", "average_crossing", 0.5),
    ]
    assert [(r.score, r.system) for r in ranked(rows)] == [
        ("f1", "b"),
        ("f1", "a"),
        ("average_crossing", "b"),
        ("average_crossing", "a"),
    ]


def test_the_worked_example_manifest_of_the_docs_is_valid() -> None:
    if not CONLL2018.is_dir():
        pytest.skip(f"the CoNLL 2018 outputs are not at {CONLL2018} (they are read from ../shared/data)")
    manifest = read_manifest(str(ROOT / "docs/examples/conll2018.toml"))
    assert [(g.name, g.metrics, len(g.systems)) for g in manifest.golds] == [
        ("he_htb", ("conll18",), 5),
        ("fr_gsd", ("conll18",), 2),
        ("en_ewt", ("conll18",), 2),
    ]
    assert (manifest.paired.shuffles, manifest.bootstrap.samples, manifest.bootstrap.seed) == (
        10000,
        1000,
        12345,
    )


@pytest.mark.slow
def test_a_gold_tokenized_and_a_raw_text_spacy_parse_of_one_gold_equal_the_scorer(tmp_path: Path) -> None:
    """spaCy's EWT parses under ``attach``: the gold-tokenized one keeps its ``attach`` rows, the raw
    one makes the gold a ``conll18`` gold, and both equal the scorer's committed tables (the two
    spaCy files among the 11 with committed scorer outputs)."""
    spacy = DATA / "parser_outputs" / "spacy_en_ewt_test"
    if not spacy.is_dir():
        pytest.skip(f"spaCy's EWT parses are not at {spacy} (they are read from ../shared/data)")
    systems = {
        "spacy_gold_tok": spacy / "en_ewt-ud-test.spacy-sm.gold-tok.conllu",
        "spacy_raw": spacy / "en_ewt-ud-test.spacy-sm.raw.conllu",
    }
    manifest = _manifest(
        tmp_path, {"en_ewt": (DATA / "en_ewt" / "en_ewt-ud-test.r2.16.conllu", ["attach"], systems)}
    )
    rows = run_batch(read_manifest(str(manifest)), Limits(), serial_map)
    for system in systems:
        assert _printed(rows, "en_ewt", system) == _reference("en_ewt", system), system
    assert {r.system for r in rows if r.metric == "attach"} == {"spacy_gold_tok"}
    # one attach system: no attach pair; the two are tested on the scorer's counts
    assert {(r.system, r.other, r.metric) for r in rows if r.kind == "p"} == {
        ("spacy_gold_tok", "spacy_raw", "conll18")
    }


@pytest.mark.slow
def test_intervals_and_p_values_are_those_of_the_single_command(fr_en: tuple[Path, list[BatchRow]]) -> None:
    """Cross-check of two paths through evalcore (not reference values): the rows' intervals are
    ``attach --format conll18 --bootstrap 1000 --seed 7``'s, the p-values ``attach GOLD A B
    --format conll18 --shuffles 1000 --seed 7``'s (both from the per-gold-sentence counts)."""
    from evalcore.metrics.conll18 import evaluate_conll18
    from evalcore.resampling import BootstrapSettings, PairedTestSettings, compare, conll18_table, intervals

    _, rows = fr_en
    gold, _, systems = _conll2018("fr_gsd", FR_EN["fr_gsd"])
    tables = [
        conll18_table(evaluate_conll18(gold, systems[s], per_sentence=True).sentences)
        for s in FR_EN["fr_gsd"]
    ]
    ivs = intervals(tables[0], BootstrapSettings(1000, 0.95, SEED))
    got = {
        r.score: (r.low, r.high)
        for r in rows
        if (r.gold, r.system, r.kind) == ("fr_gsd", "UDPipe-Future", "score")
    }
    assert got == {n: (iv.low, iv.high) for n, iv in zip(ivs.names, ivs.values, strict=True)}
    cmp = compare(tables[0], tables[1], PairedTestSettings(SHUFFLES, SEED))
    p = {r.score: r.value for r in rows if (r.gold, r.kind) == ("fr_gsd", "p")}
    assert p == {n: t.p_value for n, t in zip(cmp.names, cmp.tests, strict=True)}
