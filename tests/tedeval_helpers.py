"""Builders shared by the TedEval tests."""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.conversion import ConversionConfig, to_span_tree
from evalcore.formats.conllu import parse_conllu
from evalcore.formats.ptb import parse_ptb
from evalcore.trees import DepTree, SpanTree


def dep(words: Sequence[str], heads: Sequence[int], deprels: Sequence[str], sent_id: str = "") -> DepTree:
    lines = [f"# sent_id = {sent_id}"] if sent_id else []
    lines += [
        f"{i + 1}\t{w}\t_\t_\t_\t_\t{h}\t{r}\t_\t_"
        for i, (w, h, r) in enumerate(zip(words, heads, deprels, strict=True))
    ]
    return parse_conllu("\n".join(lines) + "\n")[0]


def from_spec(spec: dict[str, object], protocol: str) -> SpanTree:
    """A golden-file input: ``{"dep": {...}}`` or ``{"ptb": "..."}``."""
    config = ConversionConfig(protocol=protocol)  # type: ignore[arg-type]
    if "dep" in spec:
        d = spec["dep"]
        assert isinstance(d, dict)
        return to_span_tree(dep(d["words"], d["heads"], d["deprels"]), config)
    text = spec["ptb"]
    assert isinstance(text, str)
    return to_span_tree(parse_ptb(text)[0], config)


def from_pairs(words: Sequence[str], pairs: Sequence[Sequence[object]], protocol: str = "2012") -> SpanTree:
    """A SpanTree from ``[label, [1-based positions]]`` pairs (docs/tedeval.md, "Edit scripts, discount and
    score" notation)."""
    mapping: dict[frozenset[int], frozenset[str]] = {}
    for label, positions in pairs:
        assert isinstance(label, str) and isinstance(positions, list)
        span = frozenset(p - 1 for p in positions)
        mapping[span] = mapping.get(span, frozenset()) | {label}
    return SpanTree.build(words, mapping, protocol)  # type: ignore[arg-type]
