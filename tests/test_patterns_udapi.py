"""Match counts of the shipped UD patterns against udapi (docs/patterns.md, "Cross-checks").

For each entry of ``assets/patterns/ud.pat`` a udapi query is written here by hand, separately
from the pattern: a predicate over a udapi node (the X of the entry; its parent is the H or P of a
two-node entry).  The expected counts are udapi's, over French-GSD UD test r2.16 read by udapi's
own CoNLL-U reader; ours must be the same.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evalcore.formats.conllu import read_conllu
from evalcore.patterns import count, parse_request, read_pattern_file, shipped

udapi_document = pytest.importorskip("udapi.core.document", reason="udapi is in the 'dev' extra")

GOLD = Path(__file__).resolve().parent.parent / "assets" / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz"

Node = Any  # a udapi node (udapi ships no types)


def attached(n: Node) -> bool:
    """The node has a word as its head (an edge H -> X needs one; the root's parent is udapi's root)."""
    return not n.parent.is_root()


# One query per entry of ud.pat, in the file's order: (construction, predicate on X).
QUERIES: list[tuple[str, Callable[[Node], bool]]] = [
    ("punctuation", lambda n: n.upos == "PUNCT"),
    ("punctuation", lambda n: n.udeprel == "punct" and attached(n)),
    ("multiword", lambda n: n.udeprel in ("fixed", "flat") and attached(n)),
    ("multiword", lambda n: n.feats["ExtPos"] != ""),
    ("copula", lambda n: n.deprel == "cop" and attached(n)),
    ("auxiliary", lambda n: n.udeprel == "aux" and attached(n)),
    ("subordination", lambda n: n.deprel == "mark" and attached(n)),
    ("subordination", lambda n: n.upos == "SCONJ"),
    ("adposition", lambda n: n.deprel == "case" and attached(n)),
    ("adposition", lambda n: n.upos == "ADP"),
    ("coordination", lambda n: (n.udeprel == "cc" or n.deprel == "conj") and attached(n)),
    ("determiner", lambda n: n.udeprel == "det" and attached(n)),
]

# Requests of more nodes, each with its udapi count written as a sum over nodes.
MORE: list[tuple[str, Callable[[Node], int]]] = [
    (  # a passive with an agent: V's nsubj:pass children × its obl:agent children
        "pattern { V -[nsubj:pass]-> S; V -[obl:agent]-> A }",
        lambda v: sum(c.deprel == "nsubj:pass" for c in v.children)
        * sum(c.deprel == "obl:agent" for c in v.children),
    ),
    (  # a noun with a determiner before an adjective, both its dependents
        "pattern { N [upos=NOUN]; N -[det]-> D; N -[amod]-> A; D << A }",
        lambda v: (v.upos == "NOUN")
        * sum(d.deprel == "det" and a.deprel == "amod" and d.ord < a.ord for d in v.children for a in v.children),  # noqa: E501
    ),
    (  # a verb with no subject
        "pattern { V [upos=VERB] } without { V -[1=nsubj|1=csubj]-> S }",
        lambda v: v.upos == "VERB" and not any(c.udeprel in ("nsubj", "csubj") for c in v.children),
    ),
]  # fmt: skip


@pytest.fixture(scope="module")
def udapi_nodes(tmp_path_factory: pytest.TempPathFactory) -> list[Node]:
    plain = tmp_path_factory.mktemp("udapi") / "fr_gsd-ud-test.conllu"
    plain.write_bytes(gzip.decompress(GOLD.read_bytes()))
    doc = udapi_document.Document()
    doc.load_conllu(str(plain))
    return [node for bundle in doc.bundles for root in bundle.trees for node in root.descendants]


@pytest.fixture(scope="module")
def trees() -> list[Any]:
    return list(read_conllu(GOLD))


def test_udapi_read_every_word(udapi_nodes: list[Node]) -> None:
    assert len(udapi_nodes) == 10_018


def test_every_shipped_ud_entry_counts_as_its_udapi_query(udapi_nodes: list[Node], trees: list[Any]) -> None:
    pf = read_pattern_file(shipped("ud"))
    assert [c.name for c in pf.constructions] == [name for name, _ in QUERIES]
    for entry, (_, query) in zip(pf.constructions, QUERIES, strict=True):
        expected = sum(1 for node in udapi_nodes if query(node))
        assert count(entry.request, trees) == expected, f"{entry.name} (line {entry.line}): udapi {expected}"


@pytest.mark.parametrize(
    ("request_text", "query"), MORE, ids=["passive-agent", "det-before-amod", "no-subject"]
)
def test_longer_requests_count_as_udapi_says(
    udapi_nodes: list[Node], trees: list[Any], request_text: str, query: Callable[[Node], int]
) -> None:
    expected = sum(int(query(node)) for node in udapi_nodes)
    assert expected > 0
    assert count(parse_request(request_text), trees) == expected
