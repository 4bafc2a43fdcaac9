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
import inspect
import io
import json
import typing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import evalcore
from evalcore.batch import METRICS, GoldEntry, Manifest, SystemEntry, read_manifest, run_batch
from evalcore.cli import build_parser, main
from evalcore.declare import InvalidSetting, accepted, declared, from_mapping
from evalcore.families.align_labels import AlignLabelsSettings
from evalcore.families.attach import AttachSettings
from evalcore.families.parseval import Extraction, ParsevalSettings
from evalcore.limits import LIMIT_SPECS, Limits
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
# settings the manifest names at the gold's level, not in [gold.FAMILY] (a path relative to it)
GOLD_KEYS = {"prm"}
# families batch cannot take: a manifest's [[gold]] is one gold scored against its systems
NOT_IN_BATCH = {"align-labels": "two golds of the same sentences and no system"}
# settings of a [gold.FAMILY] table that batch takes elsewhere or has no form of: the paired tests'
# shuffles and seed are the manifest's [settings], and its rows have no intervals and no sentences
NOT_IN_TABLE = {"attach": {"bootstrap", "level", "shuffles", "seed", "per_sentence"}}


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
    limits = {s.flag for s in LIMIT_SPECS if s.flag}
    undeclared = set(_options(family)) - flags - limits - WRITING - {"-h"}
    assert undeclared == set()


@pytest.mark.parametrize("family", DECLARED, ids=lambda f: f.name)
def test_every_declared_option_is_reachable_from_each_face(family: Family) -> None:
    assert family.settings is not None
    options = _options(family)
    api = inspect.signature(getattr(evalcore, family.name.replace("-", "_"))).parameters
    assert (family.name in METRICS) == (family.name not in NOT_IN_BATCH)
    table = {d.keyword for d in accepted(family.settings)} - GOLD_KEYS - NOT_IN_TABLE.get(family.name, set())
    if family.name in NOT_IN_BATCH:
        table = set()
    for d in declared(family.settings):
        if d.option.flag is not None:
            action = options[d.option.flag]
            assert action.dest == d.name and action.default == d.default
            assert (action.choices or ()) == (d.choices or ())
        if d.keyword is None:  # how the command writes (a report's layout): no API or batch form
            assert d.option.flag is not None
            continue
        assert api[d.keyword].kind is inspect.Parameter.KEYWORD_ONLY
        assert api[d.keyword].default == d.default, d.name
        if d.option.flag is not None and family.name not in NOT_IN_BATCH:
            assert d.keyword in table | GOLD_KEYS | NOT_IN_TABLE.get(family.name, set())


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


@st.composite
def parseval_settings(draw: st.DrawFn) -> ParsevalSettings:
    """Settings drawn from the declaration: each field from its kind and choices."""
    values: dict[str, object] = {}
    for d in accepted(ParsevalSettings):
        if d.name == "prm":
            prm = draw(st.sampled_from(PRMS))
            values[d.name] = None if prm is None else str(prm)
        elif d.kind == "flag":
            values[d.name] = draw(st.booleans())
        elif d.kind == "choice":
            values[d.name] = draw(st.sampled_from(d.choices))
        elif d.name == "function_separators":
            values[d.name] = draw(st.sampled_from(["-=", "-=*", "="]))
        elif d.name == "max_error":
            values[d.name] = draw(st.sampled_from([None, 10, 1000]))
        else:
            values[d.name] = draw(st.one_of(st.none(), st.integers(0, 60)))
    return ParsevalSettings(**values)  # type: ignore[arg-type]


def _argv(s: ParsevalSettings) -> list[str]:
    """The command line of ``s`` (the inverse of the generated parser)."""
    argv = []
    for d in accepted(ParsevalSettings):
        value = getattr(s, d.name)
        assert d.option.flag is not None
        if d.kind == "flag":
            argv += [d.option.flag] if value else []
        elif value is not None and value != d.default:
            argv += [f"{d.option.flag}={value}"]
    return argv


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
        code = main(["parseval", str(gold), str(test), *_argv(s), "--format", "json"])
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


def test_a_manifest_takes_the_attach_table_but_not_its_resampling(tmp_path: Path) -> None:
    """``[gold.attach]`` takes the scores' settings; the resampling's are refused (``NOT_IN_TABLE``)."""
    gold = ROOT / "assets" / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz"
    head = f'[[gold]]\nname = "g"\nfile = "{gold}"\nmetrics = ["attach"]\nsystems = {{ s = "{gold}" }}\n'
    manifest = tmp_path / "m.toml"
    manifest.write_text(head + '[gold.attach]\nno_punct = true\npunct_tags = "nedpl"\nmax_len = 10\n')
    (entry,) = read_manifest(str(manifest)).golds
    assert entry.settings == (AttachSettings(no_punct=True, punct_tags="nedpl", max_len=10),)
    for key in sorted(NOT_IN_TABLE["attach"]):
        manifest.write_text(head + f"[gold.attach]\n{key} = 1\n")
        with pytest.raises(evalcore.InputFormatError, match=f"unknown setting '{key}'"):
            read_manifest(str(manifest))
    manifest.write_text(head.replace('"attach"', '"attach", "align-labels"'))
    with pytest.raises(evalcore.InputFormatError, match="unknown metric 'align-labels'"):
        read_manifest(str(manifest))


# ---------------------------------------------------------------------------
# parity: attach and align-labels


FR = ROOT / "assets" / "fr_gsd"
FR_GOLD = FR / "fr_gsd-ud-test.r2.16.conllu.gz"
FR_A = FR / "parses" / "fr_gsd-test.spacy-ud.conllu.gz"
FR_B = FR / "parses" / "fr_gsd-test.spacy-ud-seed1.conllu.gz"


def _drawn(draw: st.DrawFn, cls: type, special: dict[str, st.SearchStrategy[object]]) -> dict[str, object]:
    """A value of each accepted setting of ``cls``: from ``special``, else from its kind and choices."""
    values: dict[str, object] = {}
    for d in accepted(cls):
        if d.name in special:
            values[d.name] = draw(special[d.name])
        elif d.kind == "flag":
            values[d.name] = draw(st.booleans())
        else:
            assert d.kind == "choice", d.name  # every other kind has its own strategy
            values[d.name] = draw(st.sampled_from(d.choices))
    return values


ATTACH_VALUES: dict[str, st.SearchStrategy[object]] = {
    "max_len": st.sampled_from([None, -1, 0, 12, 40]),
    "bootstrap": st.sampled_from([None, None, 20]),
    "level": st.sampled_from([0.95, 0.9]),
    "shuffles": st.sampled_from([50, 200]),
    "seed": st.sampled_from([12345, 7]),
}


def _command_line(settings: object) -> list[str]:
    """The flags of ``settings`` (the inverse of the generated parser)."""
    argv = []
    for d in accepted(type(settings)):
        value = getattr(settings, d.name)
        assert d.option.flag is not None
        if d.kind == "flag":
            argv += [d.option.flag] if value else []
        elif value is not None and value != d.default:
            argv += [f"{d.option.flag}={value}"]
    return argv


def _cli_json(argv: list[str]) -> tuple[int, object, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*argv, "--format", "json"])
    return code, json.loads(out.getvalue()) if code == 0 else None, err.getvalue()


def _check_attach(s: AttachSettings, two: bool) -> None:
    systems = [FR_A, FR_B] if two else [FR_A]
    if two and s.per_sentence:
        s = AttachSettings(
            **{**{d.name: getattr(s, d.name) for d in accepted(AttachSettings)}, "per_sentence": False}
        )
    code, doc, err = _cli_json(["attach", str(FR_GOLD), *map(str, systems), *_command_line(s)])
    kwargs = {d.keyword: getattr(s, d.name) for d in accepted(AttachSettings)}
    try:
        api = evalcore.attach(FR_GOLD, *systems, **kwargs)  # type: ignore[arg-type]
    except ValueError as exc:  # a setting out of range: the command refuses it too, by its flag
        flag = exc.field.option.flag if isinstance(exc, InvalidSetting) else ""
        assert code == 2 and (flag or str(exc)) in err
        return
    assert code == 0, err
    assert doc == json.loads(json.dumps(api.to_dict()))
    table = {k: v for k, v in kwargs.items() if k not in NOT_IN_TABLE["attach"]}
    entry = GoldEntry(
        "g",
        str(FR_GOLD),
        1,
        tuple(SystemEntry(p.name, str(p), 2) for p in systems),
        ("attach",),
        None,
        (from_mapping(AttachSettings, table),),
    )
    rows = run_batch(Manifest("m.toml", (entry,)), Limits())
    scores = {r.score: r.value for r in rows if r.system == FR_A.name and r.kind == "score"}
    assert scores == dict(family_named("attach").batch(api))  # type: ignore[misc]
    if two:
        assert api.comparison is not None
        p = {r.score: r.value for r in rows if r.kind == "p"}
        if (s.shuffles, s.seed) == (10_000, 12345):  # batch's paired test: the manifest's settings
            assert p == dict(
                zip(api.comparison.names, (t.p_value for t in api.comparison.tests), strict=True)
            )


def test_attach_faces_agree_on_an_example() -> None:
    """One example, fast: NED.pl's punctuation left out, short sentences, the deprels' base, and
    bootstrap intervals (kept by the result, its sentences not: ``per_sentence`` is not asked)."""
    s = AttachSettings(no_punct=True, punct_tags="nedpl", max_len=12, deprel_base=True, bootstrap=20, seed=7)
    _check_attach(s, two=False)
    result = evalcore.attach(FR_GOLD, FR_A, bootstrap=20, seed=7)
    assert result.intervals is not None and result.per_sentence == ()
    for name in ("uas", "las", "ned"):  # a percentile interval around its score, over varied sentences
        interval = result.intervals.get(name)
        assert interval.low < getattr(result.score, name) < interval.high


def test_batch_tests_two_systems_as_the_command_does() -> None:
    """Batch's paired rows (the manifest's shuffles and seed) are ``evalcore attach GOLD A B``'s tests."""
    code, doc, err = _cli_json(["attach", str(FR_GOLD), str(FR_A), str(FR_B), "--shuffles", "200"])
    assert code == 0, err
    systems = tuple(SystemEntry(p.name, str(p), 2) for p in (FR_A, FR_B))
    entry = GoldEntry("g", str(FR_GOLD), 1, systems, ("attach",))
    rows = run_batch(Manifest("m.toml", (entry,), PairedTestSettings(shuffles=200)), Limits())
    p = {r.score: r.value for r in rows if r.kind == "p"}
    assert p == {m["metric"]: m["p_value"] for m in doc["metrics"]}  # type: ignore[index]


def test_a_setting_out_of_range_is_refused_by_each_face_in_its_own_words() -> None:
    """``punct_tags`` says which tokens ``no_punct`` leaves out; a negative ``max_len``."""
    for kwargs, flags, message in (
        ({"punct_tags": "nedpl"}, ["--punct-tags", "nedpl"], "--punct-tags says which tokens --no-punct"),
        ({"max_len": -1}, ["--max-len", "-1"], "--max-len must be >= 0"),
    ):
        code, _, err = _cli_json(["attach", str(FR_GOLD), str(FR_A), *flags])
        assert code == 2 and f"evalcore attach: {message}" in err
        with pytest.raises(InvalidSetting, match=message.split(" ", 1)[1]) as caught:
            evalcore.attach(FR_GOLD, FR_A, **kwargs)  # type: ignore[arg-type]
        assert caught.value.field.option.flag == flags[0]


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.data(), two=st.booleans())
def test_attach_faces_agree(values: st.DataObject, two: bool) -> None:
    """On French GSD (spaCy's parses): the command's ``--format json`` (one system with its
    intervals, or two with the paired test), the API's ``to_dict()`` and batch's rows."""
    drawn = values.draw(st.composite(lambda draw: _drawn(draw, AttachSettings, ATTACH_VALUES))())
    _check_attach(AttachSettings(**drawn), two)  # type: ignore[arg-type]


GUM = ROOT / "assets" / "gum"
ALIGN_VALUES: dict[str, st.SearchStrategy[object]] = {
    "function_sep": st.sampled_from(["-=", ":", "-=:"]),
    "min_support": st.sampled_from([0, 1, 5, 50]),
    "min_share": st.sampled_from([0.0, 0.5, 0.9, 1.5]),
}


def _check_align(s: AlignLabelsSettings) -> None:
    """Batch has no form of align-labels (``NOT_IN_BATCH``): the command and the API."""
    a, b = GUM / "gum-eval.conllu.gz", GUM / "gum-eval.ptb.gz"
    code, doc, err = _cli_json(["align-labels", str(a), str(b), *_command_line(s)])
    kwargs = {d.keyword: getattr(s, d.name) for d in accepted(AlignLabelsSettings)}
    try:
        api = evalcore.align_labels(a, b, **kwargs)  # type: ignore[arg-type]
    except ValueError as exc:
        assert code == 2 and str(exc) in err
        return
    assert code == 0, err
    assert {"alignments": doc} == json.loads(json.dumps(api.to_dict()))
    assert family_of(api) is family_named("align-labels")


def test_align_labels_faces_agree_on_an_example() -> None:
    _check_align(AlignLabelsSettings(direction="both", min_support=2, fold_case=True, category_labels=True))


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.data())
def test_align_labels_faces_agree(values: st.DataObject) -> None:
    """On GUM's shipped sample (UD and PTB of the same sentences): the command's ``--format json``
    and the API's ``to_dict()``."""
    drawn = values.draw(st.composite(lambda draw: _drawn(draw, AlignLabelsSettings, ALIGN_VALUES))())
    _check_align(AlignLabelsSettings(**drawn))  # type: ignore[arg-type]
