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
from evalcore.batch import GoldEntry, Manifest, SystemEntry, run_batch
from evalcore.cli import build_parser, main
from evalcore.declare import InvalidSetting, accepted, declared, from_mapping
from evalcore.families.parseval import Extraction, ParsevalSettings
from evalcore.limits import LIMIT_SPECS, Limits
from evalcore.registry import FAMILIES, Family, family_named, family_of

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "assets" / "evalb" / "sample"
EVALB = ROOT / "assets" / "evalb"
DECLARED = [f for f in FAMILIES if f.settings is not None]

# options of a command that are not settings of its family: how the command writes its output
WRITING = {"--format", "--help"}
# settings the manifest names at the gold's level, not in [gold.FAMILY] (a path relative to it)
GOLD_KEYS = {"prm"}
# options that name a family's input files, not settings: tedeval's schemes and a parse's label donor
# (in-memory trees in the API: TedevalInputs)
INPUTS = {"--scheme", "--label-from", "--gold-lattice", "--pred-lattice", "--ambiguity-lattice"}
# families batch cannot take, and why
NO_BATCH = {
    "lattice": "a prediction may need its own lattice file (--pred-lattice), which a manifest's systems "
    "do not name",
}
# settings batch does not take: label map files, which a manifest would name relative to itself
NOT_IN_BATCH = {"labels_map"}


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
    undeclared = set(_options(family)) - flags - limits - WRITING - INPUTS - {"-h"}
    assert undeclared == set()


@pytest.mark.parametrize("family", DECLARED, ids=lambda f: f.name)
def test_every_declared_option_is_reachable_from_each_face(family: Family) -> None:
    assert family.settings is not None
    options = _options(family)
    api = inspect.signature(getattr(evalcore, family.name.replace("-", "_"))).parameters
    table = {d.keyword for d in accepted(family.settings)} - GOLD_KEYS - NOT_IN_BATCH
    assert (family.batch is None) == (family.name in NO_BATCH)
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
        if d.option.flag is not None and family.batch is not None:
            assert d.keyword in table | GOLD_KEYS | NOT_IN_BATCH
            if d.keyword in table:  # a manifest's [gold.FAMILY] table takes it
                assert from_mapping(family.settings, {d.keyword: d.default}) == family.settings()


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
