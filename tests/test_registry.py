"""The registry of metric families (docs/architecture.md): every face is generated from a family's
declared settings or dispatches through its ``run``.

* enumeration: every option of a family's command is a declared setting (or one of the few
  options that say how the command writes), and every declared setting is reachable from the
  API (a keyword of the same default) and from batch (a key of the manifest's ``[gold.FAMILY]``
  table, or the gold's own key);
* parity (Hypothesis): settings drawn from the declaration give, on the shipped data, the same
  numbers from the command's ``--format json``, the API's ``to_dict()`` and batch's rows;
* the declarations' machinery: choices come from the ``Literal`` types, a manifest's table is
  checked key by key.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import inspect
import io
import json
import typing
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from registry_support import command_line, drawn_settings

import evalcore
from evalcore.batch import (
    ELSEWHERE,
    METRICS,
    BatchRow,
    GoldEntry,
    Manifest,
    SystemEntry,
    read_manifest,
    run_batch,
)
from evalcore.cli import build_parser, main
from evalcore.conversion import Protocol
from evalcore.declare import InvalidSetting, accepted, declared, from_mapping
from evalcore.families.atlas import AtlasResult, AtlasSettings
from evalcore.families.freval import FrevalSettings
from evalcore.families.parseval import Extraction, ParsevalSettings
from evalcore.formats.ptb import write_ptb
from evalcore.limits import LIMIT_SPECS, Limits
from evalcore.patterns import shipped
from evalcore.registry import FAMILIES, Family, family_named, family_of
from evalcore.resampling import PairedTestSettings

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "assets" / "evalb" / "sample"
EVALB = ROOT / "assets" / "evalb"
DECLARED = [f for f in FAMILIES if f.settings is not None]

# options of a command that are not settings of its family: how the command writes its output
WRITING = {"--format", "--help"}
# evalcore attach: tables added beside the scores (the same numbers per group, the relation table),
# not settings of the scores; the API and batch give the scores only
WRITING |= {"--by", "--confusion"}
# options that name a family's input files, not settings: tedeval's schemes and a parse's label donor
# (in-memory trees in the API: TedevalInputs)
INPUTS = {"--scheme", "--label-from", "--gold-lattice", "--pred-lattice", "--ambiguity-lattice"}
# families batch cannot take: a manifest's [[gold]] is one gold scored against its systems
NOT_IN_BATCH = {
    "align-labels": "two golds of the same sentences and no system",
    "lattice": "a prediction may need its own lattice file (--pred-lattice), which a manifest's systems "
    "do not name",
    "atlas": "several schemes' golds and their parses (test_batch_does_not_take_the_atlas)",
}
# the experiment's options, declared with evalcore tedeval's settings (not the atlas's)
EXPERIMENT = {
    "--scheme", "--protocol", "--labels-map", "--average", "--function-sep", "--fold-case",
    "--category-labels", "--projectivize", "--label-from", "--skip-mismatched", "--shuffles",
    "--seed", "--test", "--bootstrap", "--level", "--labels",
}  # fmt: skip
# and the shorthands of one of them (--labels)
EXPERIMENT_ALIASES = {"--deprel-base", "--full-labels"}
# how evalcore atlas writes: the text's groups (--top, --grouping), the MISC export's file
ATLAS_WRITING = {"--top", "--grouping", "--export-misc"}
# options of a family's command that another family declares, or that say how it writes, by family
NOT_ITS_OWN = {"atlas": EXPERIMENT | EXPERIMENT_ALIASES | ATLAS_WRITING}
# settings the manifest names at the gold's level, not in [gold.FAMILY] (a path relative to it)
GOLD_KEYS = {"prm"}


def _options(family: Family) -> dict[str, argparse.Action]:
    parser = build_parser(only=family.name)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = sub.choices[family.name]
    return {flag: a for a in command._actions for flag in a.option_strings}


@pytest.mark.parametrize("family", DECLARED, ids=lambda f: f.name)
def test_every_option_of_the_command_is_declared(family: Family) -> None:
    assert family.settings is not None
    flags = {d.option.flag for d in declared(family.settings)}
    flags |= {d.option.negation[0] for d in declared(family.settings) if d.option.negation}
    flags |= {a[0] for d in declared(family.settings) for a in d.option.aliases}
    limits = {s.flag for s in LIMIT_SPECS if s.flag}
    undeclared = (
        set(_options(family))
        - flags
        - limits
        - WRITING
        - INPUTS
        - NOT_ITS_OWN.get(family.name, set())
        - {"-h"}
    )
    assert undeclared == set()


@pytest.mark.parametrize("family", DECLARED, ids=lambda f: f.name)
def test_every_declared_option_is_reachable_from_each_face(family: Family) -> None:
    assert family.settings is not None
    options = _options(family)
    api = inspect.signature(getattr(evalcore, family.name.replace("-", "_"))).parameters
    assert (family.name in METRICS) == (family.name not in NOT_IN_BATCH)
    table = {d.keyword for d in accepted(family.settings)} - GOLD_KEYS
    for d in declared(family.settings):
        if d.option.flag is not None:
            action = options[d.option.flag]
            default = tuple(action.default) if d.kind == "list" else action.default  # append: a list
            assert action.dest == d.name and default == d.default
            assert (action.choices or ()) == (d.choices or ())
        if d.keyword is None:  # how the command writes (a report's layout): no API or batch form
            assert d.option.flag is not None
            continue
        assert api[d.keyword].kind is inspect.Parameter.KEYWORD_ONLY
        assert api[d.keyword].default == d.default, d.name
        if d.option.flag is not None:
            assert d.keyword in table | GOLD_KEYS
    if family.name not in METRICS:  # batch does not take the family (test_batch_does_not_take_the_atlas)
        return
    elsewhere = ELSEWHERE.get(family.name, frozenset())  # in the manifest's [settings], or none
    for d in accepted(family.settings):
        if d.keyword not in GOLD_KEYS | elsewhere:  # the [gold.FAMILY] table takes it
            leave = frozenset(GOLD_KEYS) | elsewhere
            assert from_mapping(family.settings, {d.keyword: d.default}, leave=leave) == family.settings()


def test_choices_come_from_the_literal_types() -> None:
    hints = typing.get_type_hints(ParsevalSettings)
    for d in declared(ParsevalSettings):
        if d.kind == "choice":
            assert d.choices == typing.get_args(hints[d.name])
    assert {d.name: d.choices for d in declared(ParsevalSettings) if d.choices} == {
        "layout": ("auto", "line", "tree"),
        "evalb_version": ("2006", "1997"),
    }


def test_a_manifest_table_is_checked_key_by_key() -> None:
    assert from_mapping(ParsevalSettings, {"unlabeled": True, "cutoff_len": 40}) == ParsevalSettings(
        unlabeled=True, cutoff_len=40
    )
    for table, message in (
        ({"unlabled": True}, "unknown setting 'unlabled'"),
        ({"unlabeled": 1}, "unlabeled must be true or false"),
        ({"layout": "lines"}, "layout must be one of auto, line, tree"),
        ({"cutoff_len": "40"}, "cutoff_len must be an integer"),
        ({"keep_sentences": False}, "unknown setting 'keep_sentences'"),  # not a command's option
        ({"evalb_version": "1997"}, "unknown setting 'evalb_version'"),  # how the command writes
    ):
        with pytest.raises(ValueError, match=message):
            from_mapping(ParsevalSettings, table, leave=frozenset(GOLD_KEYS))
    with pytest.raises(InvalidSetting, match="cutoff_len must be >= 0") as caught:
        from_mapping(ParsevalSettings, {"cutoff_len": -1})
    assert caught.value.field.option.flag == "--cutoff-len"


def test_the_registry_finds_a_family_by_name_and_by_result() -> None:
    result = evalcore.parseval(SAMPLE / "sample.gld", SAMPLE / "sample.tst")
    assert family_of(result) is family_named("parseval")
    assert family_of(object()) is None
    with pytest.raises(KeyError):
        family_named("bleu")


def test_extraction_is_shared_by_parseval_and_freval() -> None:
    """FREVAL's command takes the extraction's options, declared once."""
    freval = _options(family_named("freval"))
    for d in declared(Extraction):
        assert d.option.flag is not None and freval[d.option.flag].dest == d.name


# ---------------------------------------------------------------------------
# parity


PRMS = (None, EVALB / "COLLINS.prm", EVALB / "new.prm", SAMPLE / "sample.prm")


EXTRACTION_VALUES: dict[str, st.SearchStrategy[object]] = {
    "prm": st.sampled_from([None if p is None else str(p) for p in PRMS]),
    "function_separators": st.sampled_from(["-=", "-=*", "="]),
    "max_error": st.sampled_from([None, 10, 1000]),
    "cutoff_len": st.one_of(st.none(), st.integers(0, 60)),
}


def parseval_settings() -> st.SearchStrategy[ParsevalSettings]:
    """Settings drawn from the declaration: each field from its kind and choices."""
    return drawn_settings(ParsevalSettings, EXTRACTION_VALUES)


def _batch_numbers(s: ParsevalSettings, gold: Path, test: Path) -> dict[str, float]:
    entry = GoldEntry("g", str(gold), 1, (SystemEntry("s", str(test), 2),), ("parseval",), s.prm, (s,))
    rows = run_batch(Manifest("m.toml", (entry,)), Limits())
    return {r.score: r.value for r in rows}


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=parseval_settings())
def test_parseval_faces_agree(s: ParsevalSettings) -> None:
    """On evalb's sample (errors and skips included): the command (the count-only path, or the
    readings' path with ``--input tree``), the API (every sentence kept: the trees' path) and
    batch."""
    gold, test = SAMPLE / "sample.gld", SAMPLE / "sample.tst"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["parseval", str(gold), str(test), *command_line(s), "--format", "json"])
    kwargs = {d.keyword: getattr(s, d.name) for d in accepted(ParsevalSettings)}
    try:
        api = evalcore.parseval(gold, test, **kwargs).to_dict()  # type: ignore[arg-type]
    except evalcore.EvalcoreError as exc:  # e.g. more errors than MAX_ERROR: the same refusal
        assert code == 2 and str(exc) in err.getvalue()
        with pytest.raises(evalcore.EvalcoreError, match=str(exc)[:30].replace("(", r"\(")):
            _batch_numbers(s, gold, test)
        return
    assert code == 0, err.getvalue()
    assert json.loads(out.getvalue()) == json.loads(json.dumps(api))
    batch = _batch_numbers(s, gold, test)
    expected = {k: api["all"][k] for k in batch}  # type: ignore[index]
    assert batch == expected


# FREVAL: the extraction's settings as PARSEVAL's, the sizes and their weights, the resampling
ALPHAS = (None, "0.5,0.5", "1", "0.2,0.3,0.5")


def freval_settings() -> st.SearchStrategy[FrevalSettings]:
    """FREVAL's settings drawn from the declaration (small resamplings: the test's time)."""
    return drawn_settings(
        FrevalSettings,
        {
            **EXTRACTION_VALUES,
            "alpha": st.sampled_from(ALPHAS),
            "max_size": st.one_of(st.none(), st.integers(1, 5)),
            "bootstrap": st.sampled_from([None, 30]),
            "level": st.sampled_from([0.9, 0.95]),
            "shuffles": st.sampled_from([50, 200]),
            "seed": st.integers(0, 2**16),
        },
    )


def _freval_batch(s: FrevalSettings, gold: Path, tests: tuple[Path, ...]) -> list[BatchRow]:
    left = ELSEWHERE["freval"] | {"prm"}
    table = replace(s, **{d.name: d.default for d in accepted(FrevalSettings) if d.keyword in left})
    systems = tuple(SystemEntry(f"s{k}", str(t), 2 + k) for k, t in enumerate(tests))
    entry = GoldEntry("g", str(gold), 1, systems, ("freval",), s.prm, (table,))
    manifest = Manifest("m.toml", (entry,), PairedTestSettings(s.shuffles, s.seed))
    return run_batch(manifest, Limits())


def test_collapse_unary_reaches_freval_from_each_face(tmp_path: Path) -> None:
    """A noun phrase over a noun phrase of the same words: 4 gold brackets (S, NP, NP, VP), 3 in
    the parse; merged (``collapse_unary``), 3 and 3 (hand count).  Size 1 is PARSEVAL: recall 3/4,
    then 3/3, from the API and the command line alike."""
    gold, test = tmp_path / "g.mrg", tmp_path / "t.mrg"
    gold.write_text("(S (NP (NP (DT the) (NN dog))) (VP (VBZ barks)))\n")
    test.write_text("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))\n")
    for collapse, recall in ((False, 0.75), (True, 1.0)):
        api = evalcore.freval(gold, test, max_size=1, collapse_unary=collapse)
        assert (api.score.per_size[0].recall, api.score.per_size[0].precision) == (recall, 1.0)
        flags = ["--collapse-unary"] if collapse else []
        code, out, _ = _cli(["freval", str(gold), str(test), "--max-size=1", *flags, "--format", "json"])
        assert code == 0 and json.loads(out)["per_size"][0]["recall"] == recall


def test_a_manifest_freval_table_takes_the_settings_batch_can_honour(tmp_path: Path) -> None:
    """``[gold.freval]`` takes FREVAL's settings by their API names; the resampling's are not its
    (the paired test is the manifest's ``[settings]``, the table has no intervals)."""
    gold = SAMPLE / "sample.gld"
    head = f'[[gold]]\nname = "g"\nfile = "{gold}"\nmetrics = ["freval"]\n[gold.systems]\ns = "{gold}"\n'
    manifest = tmp_path / "m.toml"
    manifest.write_text(head + "[gold.freval]\nmax_size = 2\nalpha = '0.5,0.5'\n")
    (entry,) = read_manifest(str(manifest)).golds
    assert entry.settings_of(FrevalSettings) == FrevalSettings(max_size=2, alpha="0.5,0.5")
    for key in ("bootstrap = 100", "seed = 1", "shuffles = 10", "level = 0.9"):
        manifest.write_text(head + f"[gold.freval]\n{key}\n")
        with pytest.raises(evalcore.InputFormatError, match=f"unknown setting '{key.split()[0]}'"):
            read_manifest(str(manifest))


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _freval_faces(s: FrevalSettings, two: bool) -> None:
    gold, test = SAMPLE / "sample.gld", SAMPLE / "sample.tst"
    test_b = (gold,) if two else ()  # the gold taken as a second parse
    code, out, err = _cli(
        ["freval", str(gold), str(test), *map(str, test_b), *command_line(s), "--format", "json"]
    )
    kwargs = {d.keyword: getattr(s, d.name) for d in accepted(FrevalSettings)}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a parameter file's warnings (on stderr for the command)
            result = evalcore.freval(gold, test, *test_b, **kwargs)  # type: ignore[arg-type]
    except (evalcore.EvalcoreError, ValueError) as exc:  # the same refusal
        assert code == 2 and str(exc) in err, (str(exc), err)
        return
    assert code == 0, err
    api = result.to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))
    rows = _freval_batch(s, gold, (test, *test_b))
    scores = {r.score: r.value for r in rows if r.kind == "score" and r.system == "s0"}
    assert scores == {k: result.score.__getattribute__(k) for k in ("flr", "flp", "f1")}
    if two:
        metrics = {m["metric"]: m for m in api["metrics"]}  # type: ignore[attr-defined]
        p_values = {r.score: r.value for r in rows if r.kind == "p"}
        assert p_values == {k: metrics[k]["p_value"] for k in ("flr", "flp", "f1")}


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=freval_settings(), two=st.booleans())
def test_freval_faces_agree(s: FrevalSettings, two: bool) -> None:
    """On evalb's sample (errors and skips included), one parse or two (the gold as the second):
    the command's ``--format json``, the API's ``to_dict()`` (every sentence kept), batch's rows
    (FLR / FLP / F1 and, for two parses, their paired tests' p-values)."""
    _freval_faces(s, two)


def test_freval_faces_agree_example() -> None:
    """One example of the property, in the fast loop: a limit, weights, a bootstrap, two parses."""
    _freval_faces(FrevalSettings(max_size=2, alpha="0.5,0.5", bootstrap=30, shuffles=50), True)
    _freval_faces(FrevalSettings(prm=str(SAMPLE / "sample.prm"), strict=True, bootstrap=30), False)


# the atlas: its own settings (the experiment's are evalcore tedeval's), on excerpts of the shipped
# French GSD (UD and SUD golds, three spaCy parses) and evalb's sample (constituency: FREVAL rows)
FR = ROOT / "assets" / "fr_gsd"
FR_FILES = {
    "ud": (FR / "fr_gsd-ud-test.r2.16.conllu.gz", ("spacy-ud", "spacy-ud-seed1")),
    "sud": (FR / "fr_gsd-sud-test.r2.16.conllu.gz", ("spacy-sud",)),
}


def _head(path: Path, sentences: int) -> str:
    """The first ``sentences`` CoNLL-U sentences of ``path``."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        blocks = f.read().split("\n\n")
    return "\n\n".join(blocks[:sentences]) + "\n\n"


@pytest.fixture(scope="module")
def atlas_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, tuple[Path, ...]]]:
    """Each French scheme's gold and parses, their first 12 sentences, as files."""
    folder = tmp_path_factory.mktemp("atlas")
    out = {}
    for scheme, (gold, parses) in FR_FILES.items():
        (folder / f"{scheme}.conllu").write_text(_head(gold, 12), encoding="utf-8")
        written = []
        for p in parses:
            (folder / f"{p}.conllu").write_text(_head(FR / "parses" / f"fr_gsd-test.{p}.conllu.gz", 12))
            written.append(folder / f"{p}.conllu")
        out[scheme] = (folder / f"{scheme}.conllu", tuple(written))
    return out


def atlas_settings() -> st.SearchStrategy[AtlasSettings]:
    """The atlas's settings drawn from the declaration (the export's are the command's only)."""
    sizes = st.integers(1, 3)
    special: dict[str, st.SearchStrategy[object]] = {
        d.name: sizes for d in accepted(AtlasSettings) if d.kind == "int"
    }
    # the default (atlas.pat), or the shipped UD file for every scheme's trees (docs/patterns.md)
    special["patterns"] = st.sampled_from([(), (str(shipped("ud")),)])
    return drawn_settings(AtlasSettings, special)


def _atlas_faces(
    s: AtlasSettings, schemes: dict[str, tuple[Path, tuple[Path, ...]]], protocol: str, seed: int
) -> AtlasResult:
    argv = ["atlas", "--protocol", protocol, "--shuffles", "50", "--seed", str(seed), "--format", "json"]
    for scheme, (gold, parses) in schemes.items():
        argv += ["--scheme", scheme, str(gold), *map(str, parses)]
    code, out, err = _cli([*argv, *command_line(s)])
    kwargs = {d.keyword: getattr(s, d.name) for d in accepted(AtlasSettings)}
    api = evalcore.atlas(
        {k: (g, list(map(str, ps))) for k, (g, ps) in schemes.items()},
        protocol=protocol,  # type: ignore[arg-type]
        shuffles=50,
        seed=seed,
        **kwargs,  # type: ignore[arg-type]
    )
    assert code == 0, err
    assert json.loads(out) == json.loads(json.dumps(api.to_dict()))
    assert ("ranking" in api.to_dict()) == (not s.no_ranking and api.ranking is not None)
    return api


def test_the_atlas_api_takes_the_experiments_options() -> None:
    """The experiment's options of evalcore atlas (evalcore tedeval's) are keywords of
    ``evalcore.atlas`` too, by their names in ``evalcore.tedeval``."""
    atlas, tedeval = (inspect.signature(f).parameters for f in (evalcore.atlas, evalcore.tedeval))
    for flag in EXPERIMENT - {"--scheme", "--label-from", "--labels-map"}:
        name = flag.lstrip("-").replace("-", "_")
        assert (
            atlas[name].default == tedeval[name].default
            and atlas[name].kind is inspect.Parameter.KEYWORD_ONLY
        )
    for name in ("label_from", "labels_map", "scheme_labels_maps"):
        assert atlas[name].default == tedeval[name].default


def test_batch_does_not_take_the_atlas(tmp_path: Path) -> None:
    """The atlas compares several schemes, each a gold with its parses; a batch gold is one file
    with its systems: batch has no atlas entry and refuses a [gold.atlas] table."""
    assert "atlas" not in METRICS
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        '[[gold]]\nname = "g"\nfile = "g.conllu"\nmetrics = ["attach"]\n'
        '[gold.systems]\ns = "s.conllu"\n[gold.atlas]\nno_golds = true\n'
    )
    with pytest.raises(evalcore.InputFormatError, match="atlas"):
        read_manifest(str(manifest))


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    s=atlas_settings(),
    which=st.sampled_from(["ud", "sud", "both"]),
    protocol=st.sampled_from(typing.get_args(Protocol)),
    seed=st.integers(0, 2**16),
)
def test_atlas_faces_agree(
    atlas_files: dict[str, tuple[Path, tuple[Path, ...]]],
    s: AtlasSettings,
    which: str,
    protocol: str,
    seed: int,
) -> None:
    """On the French GSD excerpt, one scheme or both: the command's ``--format json`` and the API's
    ``to_dict()`` (atlas, ranking, operations)."""
    schemes = atlas_files if which == "both" else {which: atlas_files[which]}
    _atlas_faces(s, schemes, protocol, seed)


@pytest.mark.slow
def test_atlas_faces_agree_example(atlas_files: dict[str, tuple[Path, tuple[Path, ...]]]) -> None:
    """One example of the property in the fast loop: both schemes, every operation, the ranking."""
    _atlas_faces(AtlasSettings(per_sentence=True, freval_sizes=2), atlas_files, "2012", 7)


def test_atlas_ranks_constituency_parses_with_freval_rows(tmp_path: Path) -> None:
    """FarPaHC's first 6 trees, gold and the Berkeley parser's, the gold taken as a second parse:
    the command and the API agree, FREVAL's rows included (sizes 1..2)."""
    far = ROOT / "assets" / "farpahc"
    files = []
    for name in ("far_split0testing.oneline.psd.gz", "far_split0machineparsed.psd.gz"):
        trees = [t for t in evalcore.read(far / name, format="ptb")[:6] if isinstance(t, evalcore.Tree)]
        files.append(tmp_path / name.replace(".gz", ""))
        files[-1].write_text(write_ptb(trees), encoding="utf-8")
    schemes = {"far": (files[0], (files[1], files[0]))}
    result = _atlas_faces(AtlasSettings(freval_sizes=2, no_golds=True), schemes, "2012", 3)
    assert result.ranking is not None
    assert {r.metric for r in result.ranking.rows} >= {"FREVAL F1 s=1", "FREVAL F1 s=2"}
    assert not any(r.metric == "FREVAL F1 s=3" for r in result.ranking.rows)
    assert {c.parse for c in result.atlas.cells} == {
        f.name.removesuffix(".psd") for f in files
    }  # no gold:far
    unranked = evalcore.atlas(
        {"far": (files[0], [str(files[1]), str(files[0])])}, no_ranking=True, shuffles=50
    )
    assert unranked.ranking is None and "ranking" not in unranked.to_dict()
    assert {c.parse for c in unranked.atlas.cells} == {f.name.removesuffix(".psd") for f in files} | {
        "gold:far"
    }
