"""The registry's parity for the TedEval families (docs/architecture.md, "The registry of metric
families"): ``evalcore tedeval`` on the shipped French GSD in UD and SUD, ``evalcore lattice`` on the
shipped yap Hebrew files; the command's ``--format json``, the API's ``to_dict()`` and (tedeval)
batch's rows.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from registry_support import command_line, drawn_settings

import evalcore
from evalcore.batch import GoldEntry, Manifest, SystemEntry, read_manifest, run_batch
from evalcore.cli import main
from evalcore.declare import accepted
from evalcore.families import tedeval as tedeval_family
from evalcore.families.lattice import LatticeSettings
from evalcore.families.tedeval import TedevalSettings
from evalcore.limits import Limits

ROOT = Path(__file__).resolve().parent.parent


FR = ROOT / "assets" / "fr_gsd"
MAPS = ROOT / "assets" / "labelmaps"


def _first_sentences(source: Path, target: Path, count: int) -> str:
    """The first ``count`` sentences of a shipped CoNLL-U file, written to ``target``."""
    with gzip.open(source, "rt", encoding="utf-8") as f:
        text = f.read()
    target.write_text("\n\n".join(text.split("\n\n")[:count]) + "\n\n", encoding="utf-8")
    return str(target)


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("french")
    files = {
        "ud": FR / "fr_gsd-ud-test.r2.16.conllu.gz",
        "sud": FR / "fr_gsd-sud-test.r2.16.conllu.gz",
        "spacy": FR / "parses" / "fr_gsd-test.spacy-ud.conllu.gz",
        "seed1": FR / "parses" / "fr_gsd-test.spacy-ud-seed1.conllu.gz",
        "spacy_sud": FR / "parses" / "fr_gsd-test.spacy-sud.conllu.gz",
    }
    return {k: _first_sentences(v, folder / f"{k}.conllu", 8) for k, v in files.items()}


LABEL_MAPS = ((), (f"ud={MAPS / 'ud-sud.fr_gsd.map'}",), (str(MAPS / "sud-ud.fr_gsd.map"),))


def tedeval_settings() -> st.SearchStrategy[TedevalSettings]:
    """Settings drawn from the declaration: each field from its kind and choices."""
    return drawn_settings(
        TedevalSettings,
        {
            "labels_map": st.sampled_from(LABEL_MAPS),
            "function_sep": st.sampled_from(["-=", ":"]),
            "bootstrap": st.sampled_from([None, 40]),
            "level": st.sampled_from([0.9, 0.95]),
            "shuffles": st.sampled_from([20, 100]),
            "seed": st.sampled_from([0, 7, 12345]),
        },
    )


def _cli_json(argv: list[str]) -> dict[str, object]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert code == 0, err.getvalue()
    document: dict[str, object] = json.loads(out.getvalue())
    return document


def _api_kwargs(s: TedevalSettings) -> dict[str, object]:
    kwargs: dict[str, object] = {str(d.keyword): getattr(s, d.name) for d in accepted(TedevalSettings)}
    every = [m for m in s.labels_map if not m.startswith("ud=")]
    kwargs["labels_map"] = every
    own = [m.removeprefix("ud=") for m in s.labels_map if m.startswith("ud=")]
    kwargs["scheme_labels_maps"] = {"ud": own[0]} if own else {}
    return kwargs


def _tedeval_faces(s: TedevalSettings, f: dict[str, str]) -> None:
    schemes = ["--scheme", "ud", f["ud"], f"spacy={f['spacy']}", f"seed1={f['seed1']}"]
    schemes += ["--scheme", "sud", f["sud"], f"spacy_sud={f['spacy_sud']}"]
    cli = _cli_json(["tedeval", *schemes, *command_line(s), "--format", "json"])
    api = evalcore.tedeval(
        {
            "ud": (f["ud"], {"spacy": f["spacy"], "seed1": f["seed1"]}),
            "sud": (f["sud"], {"spacy_sud": f["spacy_sud"]}),
        },
        **_api_kwargs(s),  # type: ignore[arg-type]
    ).to_dict()
    assert cli == json.loads(json.dumps(api))
    # batch: one gold (one scheme), its systems; its table takes every setting but the label maps
    one = replace(s, labels_map=())
    systems = (SystemEntry("spacy", f["spacy"], 2), SystemEntry("seed1", f["seed1"], 3))
    entry = GoldEntry("ud", f["ud"], 1, systems, ("tedeval",), None, (one,))
    rows = run_batch(Manifest("m.toml", (entry,)), Limits())
    ud = {"spacy": f["spacy"], "seed1": f["seed1"]}
    alone = evalcore.tedeval({"ud": (f["ud"], ud)}, **_api_kwargs(one))  # type: ignore[arg-type]
    expected = {(p, n): v for p in ("spacy", "seed1") for n, v in tedeval_family.batch_values(alone, p)}
    assert {(r.system, r.score): r.value for r in rows if r.kind == "score"} == expected
    tests = {(t.a, t.b, row.metric): t.p_value for row in alone.rows for t in row.tests}
    assert {(r.system, r.other, r.score): r.value for r in rows if r.kind == "p"} == tests
    assert {r.signature for r in rows} == {alone.signature}


def test_tedeval_faces_agree_on_the_defaults(french: dict[str, str]) -> None:
    _tedeval_faces(TedevalSettings(shuffles=20), french)


@pytest.mark.slow
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(s=tedeval_settings())
def test_tedeval_faces_agree(s: TedevalSettings, french: dict[str, str]) -> None:
    """Two schemes, three parses: the command's --format json, the API's to_dict() (label maps by its
    two keywords), and batch's rows of one scheme (the API's numbers and p-values)."""
    _tedeval_faces(s, french)


# ---------------------------------------------------------------------------
# lattice: yap's shipped Hebrew output, with its lattice files

YAP = ROOT / "assets" / "hebrew_yap"


def lattice_settings() -> st.SearchStrategy[LatticeSettings]:
    """Settings drawn from the declaration."""
    return drawn_settings(
        LatticeSettings,
        {
            "bootstrap": st.sampled_from([None, 30]),
            "level": st.sampled_from([0.9, 0.95]),
            "seed": st.sampled_from([0, 12345]),
        },
    )


def _lattice_faces(s: LatticeSettings, pred_lattice: Path) -> None:
    gold, pred = YAP / "output.conll", YAP / "output.conll"
    files = [str(gold), f"yap={pred}", "--gold-lattice", str(YAP / "output.mapping")]
    files += ["--pred-lattice", str(pred_lattice), "--ambiguity-lattice", str(YAP / "input.lattice")]
    cli = _cli_json(["lattice", *files, *command_line(s), "--format", "json"])
    kwargs = {d.keyword: getattr(s, d.name) for d in accepted(LatticeSettings)}
    api = evalcore.lattice(
        gold,
        pred,
        gold_lattice=YAP / "output.mapping",
        pred_lattice=pred_lattice,
        ambiguity_lattice=YAP / "input.lattice",
        name="yap",
        **kwargs,  # type: ignore[arg-type]
    ).to_dict()
    assert cli == json.loads(json.dumps(api))


def test_lattice_faces_agree_on_the_defaults() -> None:
    _lattice_faces(LatticeSettings(), YAP / "output.segmentation")


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=lattice_settings(), segmentation=st.booleans())
def test_lattice_faces_agree(s: LatticeSettings, segmentation: bool) -> None:
    """yap's output against its own mapping (the gold scenario) or its segmentation: the command's
    --format json and the API's to_dict(), bootstrap intervals included."""
    _lattice_faces(s, YAP / ("output.segmentation" if segmentation else "output.mapping"))


# ---------------------------------------------------------------------------
# the families' own rules, pinned to the docs (the faces above share them, so only these see a
# change of a rule)


def test_a_labels_map_item_names_a_scheme_only_when_its_prefix_is_one() -> None:
    """docs/tedeval.md, "Per-scheme label maps": ``SCHEME=FILE`` when the text before the first
    ``=`` is a scheme's name, else the whole text is a path."""
    items = ["ud=a.map", "maps/v1=v2.txt", "x.map", "sud=b=c.map"]
    assert tedeval_family.label_map_items(items, ["ud", "sud"]) == [
        ("ud", "a.map"),
        (None, "maps/v1=v2.txt"),
        (None, "x.map"),
        ("sud", "b=c.map"),
    ]


def test_the_api_reads_a_path_that_looks_like_a_scheme_map_as_a_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``labels_map`` is every scheme's: a file named ``ud=x.map`` is that file, not scheme ud's
    ``x.map`` (which does not exist)."""
    monkeypatch.chdir(tmp_path)
    Path("ud=x.map").write_text("nsubj=SUBJ\n", encoding="utf-8")
    gold = _first_sentences(FR / "fr_gsd-ud-test.r2.16.conllu.gz", tmp_path / "g.conllu", 3)
    result = evalcore.tedeval({"ud": (gold, {"self": gold})}, labels_map="ud=x.map", shuffles=10)
    assert result.sentences == 3


def test_batch_names_tedeval_scores_as_docs_batch_says(french: dict[str, str]) -> None:
    """docs/batch.md: a tedeval gold's scores are ``UAS LAS U-TED L-TED`` (one scheme: no
    generalization); against another scheme's gold or a generalization, ``METRIC@sud``,
    ``METRIC@ud+sud``."""
    systems = (SystemEntry("spacy", french["spacy"], 2),)
    entry = GoldEntry("ud", french["ud"], 1, systems, ("tedeval",), None, (TedevalSettings(shuffles=10),))
    rows = run_batch(Manifest("m.toml", (entry,)), Limits())
    assert [r.score for r in rows] == ["UAS", "LAS", "U-TED", "L-TED"]
    both = evalcore.tedeval(
        {"ud": (french["ud"], {"spacy": french["spacy"]}), "sud": (french["sud"], {})}, shuffles=10
    )
    names = [n for n, _ in tedeval_family.batch_values(both, "spacy")]
    own = ["UAS", "LAS", "U-TED", "L-TED"]
    assert names == [*own, *(f"{m}@sud" for m in own), "U-TED@ud+sud", "L-TED@ud+sud"]


def test_a_manifest_settings_give_tedeval_its_seed_and_shuffles(tmp_path: Path) -> None:
    """docs/batch.md: ``[settings]``' ``shuffles`` and ``seed`` apply to tedeval unless its
    ``[gold.tedeval]`` table sets them."""
    gold = tmp_path / "g.conllu"
    _first_sentences(FR / "fr_gsd-ud-test.r2.16.conllu.gz", gold, 3)
    one = 'file = "g.conllu"\nmetrics = ["tedeval"]\nsystems = { s = "g.conllu" }\n'
    text = f'[settings]\nshuffles = 50\nseed = 7\n\n[[gold]]\nname = "a"\n{one}\n[[gold]]\nname = "b"\n{one}'
    text += "[gold.tedeval]\nseed = 3\n"
    (tmp_path / "m.toml").write_text(text, encoding="utf-8")
    a, b = read_manifest(str(tmp_path / "m.toml")).golds
    assert (a.settings_of(TedevalSettings).shuffles, a.settings_of(TedevalSettings).seed) == (50, 7)
    assert (b.settings_of(TedevalSettings).shuffles, b.settings_of(TedevalSettings).seed) == (50, 3)


def test_a_stated_scenario_is_the_one_scored() -> None:
    """docs/lattice.md: ``--scenario`` names the scenario printed instead of the detected one."""
    files = {"gold_lattice": YAP / "output.mapping", "pred_lattice": YAP / "output.segmentation"}
    detected = evalcore.lattice(YAP / "output.conll", YAP / "output.conll", **files)
    other = next(s for s in ("gold", "predicted", "raw") if s != detected.detected)
    stated = evalcore.lattice(YAP / "output.conll", YAP / "output.conll", scenario=other, **files)  # type: ignore[arg-type]
    assert (stated.scenario, stated.detected) == (other, detected.detected)


def test_lattice_intervals_resample_the_sentences_rows() -> None:
    """The bootstrap resamples each sentence's (x, n) pairs of the scenario table
    (evalcore.resampling.lattice_row; averaged by sentence, TedEval's pair is (score, 1))."""
    from evalcore.resampling import BootstrapSettings, intervals, lattice_row, lattice_table

    files = {"gold_lattice": YAP / "output.mapping", "pred_lattice": YAP / "output.segmentation"}
    for average in ("global", "sentence"):
        r = evalcore.lattice(
            YAP / "output.conll",
            YAP / "output.conll",
            average=average,
            per_sentence=True,
            bootstrap=50,
            **files,
        )  # type: ignore[arg-type]
        by_hand = intervals(
            lattice_table(
                [lattice_row(s, average == "sentence") for s in r.sentences], average == "sentence"
            ),
            BootstrapSettings(50, 0.95, 12345),
        )
        assert r.intervals == tuple(zip(by_hand.names, by_hand.values, strict=True))
