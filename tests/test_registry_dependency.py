"""The registry's parity for the dependency families (docs/architecture.md, "The registry of metric
families"): ``evalcore attach`` and ``evalcore align-labels``, their command's ``--format json``, the
API's ``to_dict()`` and (attach) batch's rows on the shipped French GSD and GUM data.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from registry_support import command_line, drawn_settings

import evalcore
from evalcore.batch import ELSEWHERE, GoldEntry, Manifest, SystemEntry, read_manifest, run_batch
from evalcore.cli import main
from evalcore.declare import InvalidSetting, accepted, from_mapping
from evalcore.families.align_labels import AlignLabelsSettings
from evalcore.families.attach import AttachSettings
from evalcore.limits import Limits
from evalcore.registry import family_named, family_of
from evalcore.resampling import PairedTestSettings

ROOT = Path(__file__).resolve().parent.parent


def test_a_manifest_takes_the_attach_table_but_not_its_resampling(tmp_path: Path) -> None:
    """``[gold.attach]`` takes the scores' settings; the resampling's are refused
    (``evalcore.batch.ELSEWHERE``)."""
    gold = ROOT / "assets" / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz"
    head = f'[[gold]]\nname = "g"\nfile = "{gold}"\nmetrics = ["attach"]\nsystems = {{ s = "{gold}" }}\n'
    manifest = tmp_path / "m.toml"
    manifest.write_text(head + '[gold.attach]\nno_punct = true\npunct_tags = "nedpl"\nmax_len = 10\n')
    (entry,) = read_manifest(str(manifest)).golds
    assert entry.settings_of(AttachSettings) == AttachSettings(no_punct=True, punct_tags="nedpl", max_len=10)
    for key in sorted(ELSEWHERE["attach"]):
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


ATTACH_VALUES: dict[str, st.SearchStrategy[object]] = {
    "max_len": st.sampled_from([None, -1, 0, 12, 40]),
    "bootstrap": st.sampled_from([None, None, 20]),
    "level": st.sampled_from([0.95, 0.9]),
    "shuffles": st.sampled_from([50, 200]),
    "seed": st.sampled_from([12345, 7]),
    # no restriction, or the gold words of a construction (docs/patterns.md)
    "where": st.sampled_from([None, None, "pattern { H -[1=det]-> X }", "pattern { H -[cop]-> X }"]),
}


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
    code, doc, err = _cli_json(["attach", str(FR_GOLD), *map(str, systems), *command_line(s)])
    kwargs = {d.keyword: getattr(s, d.name) for d in accepted(AttachSettings)}
    try:
        api = evalcore.attach(FR_GOLD, *systems, **kwargs)  # type: ignore[arg-type]
    except ValueError as exc:  # a setting out of range: the command refuses it too, by its flag
        flag = exc.field.option.flag if isinstance(exc, InvalidSetting) else ""
        assert code == 2 and (flag or str(exc)) in err
        return
    assert code == 0, err
    assert doc == json.loads(json.dumps(api.to_dict()))
    table = {k: v for k, v in kwargs.items() if k not in ELSEWHERE["attach"]}
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
    """One example, fast: NED.pl's punctuation left out, short sentences, full relation labels, and
    bootstrap intervals (kept by the result, its sentences not: ``per_sentence`` is not asked)."""
    s = AttachSettings(no_punct=True, punct_tags="nedpl", max_len=12, labels="full", bootstrap=20, seed=7)
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
    _check_attach(values.draw(drawn_settings(AttachSettings, ATTACH_VALUES)), two)


GUM = ROOT / "assets" / "gum"
ALIGN_VALUES: dict[str, st.SearchStrategy[object]] = {
    "function_sep": st.sampled_from(["-=", ":", "-=:"]),
    "min_support": st.sampled_from([0, 1, 5, 50]),
    "min_share": st.sampled_from([0.0, 0.5, 0.9, 1.5]),
}


def _check_align(s: AlignLabelsSettings) -> None:
    """Batch has no form of align-labels (``NOT_IN_BATCH``): the command and the API."""
    a, b = GUM / "gum-eval.conllu.gz", GUM / "gum-eval.ptb.gz"
    code, doc, err = _cli_json(["align-labels", str(a), str(b), *command_line(s)])
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
    _check_align(values.draw(drawn_settings(AlignLabelsSettings, ALIGN_VALUES)))
