"""Per-scheme label maps in the library (SPEC §5.1; docs/tedeval.md "Per-scheme label maps")."""

from __future__ import annotations

import pytest
from ec_support import conllu_sentence

from evalcore.conversion import ConversionConfig, LabelMap, SchemeLabelMaps, to_span_tree
from evalcore.errors import MismatchError
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import read_conllu
from evalcore.inspection import inspect_sentence
from evalcore.metrics.tedeval import TedConfig

WORDS = ["would", "have", "worked"]


def _tree(deprels: list[str]):  # type: ignore[no-untyped-def]
    text = conllu_sentence([0, 1, 2], forms=WORDS, deprels=deprels, sent_id="s1")
    return next(iter(read_conllu(text.encode(), name="t.conllu")))


def test_then_composes_in_order() -> None:
    first = LabelMap((("a", "b"), ("c", "d"), ("a", "zz")))  # the first pair of 'a' wins, as in apply
    second = LabelMap((("b", "x"), ("e", "f")))
    both = first.then(second)
    for label in ("a", "b", "c", "d", "e", "g"):
        assert both.apply(label) == second.apply(first.apply(label))
    assert both.apply("a") == "x" and both.apply("b") == "x" and both.apply("e") == "f"
    assert LabelMap().then(second) == second and first.then(LabelMap()) == first
    assert first.entry("a") == ("a", "b") and first.entry("q") is None


def test_for_scheme_applies_own_map_then_every_scheme_map() -> None:
    conv = ConversionConfig(
        label_map=LabelMap((("vg", "VG"),)),
        scheme_maps=SchemeLabelMaps.of({"a": LabelMap((("obj", "vg"),))}),
    )
    a, b = conv.for_scheme("a"), conv.for_scheme("b")
    assert a.label_map.apply("obj") == "VG"  # obj → vg (a's own) → VG (every scheme)
    assert b.label_map.apply("obj") == "obj" and b.label_map.apply("vg") == "VG"
    assert a.scheme_maps == SchemeLabelMaps() and ConversionConfig().for_scheme("a") == ConversionConfig()
    with pytest.raises(ValueError):
        SchemeLabelMaps((("a", LabelMap()), ("a", LabelMap())))


def test_run_experiment_takes_label_maps_by_keyword() -> None:
    gold = NamedTrees("g", (_tree(["root", "vg", "vg"]),))
    parse = NamedTrees("p", (_tree(["root", "vg", "obj"]),))
    schemes = [Scheme("a", gold, (parse,))]
    plain = run_experiment(schemes, ExperimentConfig(shuffles=10))
    maps = SchemeLabelMaps.of({"a": LabelMap((("obj", "vg"),))})
    mapped = run_experiment(schemes, ExperimentConfig(shuffles=10), label_maps=maps)
    assert plain.row("a", "L-TED").cells[0].score < 1.0  # type: ignore[union-attr]
    assert mapped.row("a", "L-TED").cells[0].score == 1.0  # type: ignore[union-attr]  # identical trees
    assert "|map:none,a=" in mapped.signature and "|map:none|" in plain.signature
    config = ExperimentConfig(TedConfig(ConversionConfig(scheme_maps=maps)), shuffles=10)
    assert run_experiment(schemes, config).signature == mapped.signature
    with pytest.raises(MismatchError, match="label map for no scheme: b"):
        run_experiment(
            schemes, ExperimentConfig(shuffles=10), label_maps=SchemeLabelMaps.of({"b": LabelMap()})
        )


def test_inspector_converts_each_scheme_with_its_map() -> None:
    maps = SchemeLabelMaps.of({"a": LabelMap((("obj", "vg"),))})
    report = inspect_sentence(
        [("a", _tree(["root", "vg", "vg"]))],
        [("p", "a", _tree(["root", "vg", "obj"]))],
        ConversionConfig(scheme_maps=maps),
    )
    assert report.parses[0].single[1].delta == 0
    mapped_gold = to_span_tree(_tree(["root", "vg", "vg"]))
    assert report.parses[0].span_tree == mapped_gold  # obj read as vg: the parse's tree is its gold's


def test_neutralized_relabels_name_the_map_entry() -> None:
    """'worked' is vg in the gold and obj in the parse: the map obj=vg of the parse's scheme makes
    them agree (one neutralized relabel on span {3rd word}); a map of another scheme does not."""
    from evalcore.inspection import neutralized_relabels

    gold, parse = _tree(["root", "vg", "vg"]), _tree(["root", "vg", "obj"])
    conv = ConversionConfig(scheme_maps=SchemeLabelMaps.of({"a": LabelMap((("obj", "vg"),))}))
    (n,) = neutralized_relabels(parse, "a", gold, "a", conv)
    assert (n.span, n.parse_label, n.gold_label, n.label) == (frozenset({2}), "obj", "vg", "vg")
    assert n.entries == (("a", "obj", "vg"),)
    assert neutralized_relabels(parse, "b", gold, "b", conv) == ()
    # a map on the gold's side: vg=obj on the gold's scheme only
    gold_side = ConversionConfig(scheme_maps=SchemeLabelMaps.of({"g": LabelMap((("vg", "obj"),))}))
    (m,) = neutralized_relabels(parse, "p", gold, "g", gold_side)
    assert m.entries == (("g", "vg", "obj"),) and m.label == "obj"
