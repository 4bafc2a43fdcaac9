"""Per-scheme label maps in the library (docs/tedeval.md "Per-scheme label maps")."""

from __future__ import annotations

import gzip
import hashlib
import pickle

import pytest
from ec_support import conllu_sentence
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.conversion import ConversionConfig, LabelMap, SchemeLabelMaps, read_label_map, to_span_tree
from evalcore.errors import LimitError, MismatchError
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import read_conllu
from evalcore.formats.prm import read_prm
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


# --------------------------------------------------------------------------- the cost of a map


def _scan(pairs: tuple[tuple[str, str], ...], label: str) -> str:
    """docs/tedeval.md, "Multi-function trees (2012 protocol)"'s map as written: the first ``OLD=NEW`` pair
    whose OLD is the label."""
    return next((new for old, new in pairs if old == label), label)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdefxyz")), max_size=12))
@pytest.mark.slow
def test_a_map_is_a_table_made_once_and_means_the_pairs_in_order(pairs: list[tuple[str, str]]) -> None:
    """apply / entry / then through the table built when the map is made are the pairs read in
    order, the first pair of a label winning; the fingerprint is the same text's hash."""
    m = LabelMap(tuple(pairs))
    other = LabelMap((("x", "y"), ("b", "c")))
    for label in "abcdefxyzq":
        assert m.apply(label) == _scan(m.pairs, label)
        assert m.entry(label) == next(((o, n) for o, n in m.pairs if o == label), None)
        assert m.then(other).apply(label) == other.apply(_scan(m.pairs, label))
    text = "\n".join(f"{a}={b}" for a, b in pairs)
    assert m.fingerprint() == ("none" if not pairs else hashlib.sha256(text.encode()).hexdigest()[:8])
    assert pickle.loads(pickle.dumps(m)) == m and hash(LabelMap(tuple(pairs))) == hash(m)


def test_a_file_of_comments_is_bounded_like_a_block() -> None:
    """A label map (and an evalb parameter file) is one block: comment and blank lines count in
    its bytes, so a gzip of comment lines is refused at the line that passes the block limit (it
    was read to the 1 GiB input limit: over 60 s for an 11 MB gzip)."""
    comments = b"# a comment line of the kind maps start with\n" * 50_000  # 2.3 MB
    with pytest.raises(LimitError) as err:
        read_label_map(gzip.compress(comments), name="c.map.gz")
    assert err.value.limit == "block_bytes" and err.value.line == 46_604  # 45 bytes a line: 2 MiB
    assert str(err.value).startswith("c.map.gz:46604: label map has more than 2097152 bytes")
    with pytest.raises(LimitError, match="parameter file has more than 2097152 bytes"):
        read_prm(gzip.compress(comments), name="c.prm.gz")
    assert read_label_map(b"# header\n\n" * 10 + b"a=b\n", name="ok.map").pairs == (("a", "b"),)
    twenty_thousand = "".join(f"L{i}=M{i}\n" for i in range(20_000)).encode()  # the most pairs allowed
    assert len(read_label_map(twenty_thousand, name="big.map").pairs) == 20_000
