"""Rates and scores per construction (docs/patterns.md, "Constructions as units of evaluation"): the
page's worked example -- its three trees and its two tables, counted by hand -- read from the page
and checked through the API and the command line; and on random trees, the property that makes the
restriction an attribution: every operation and every node has one owner, so the constructions' δ
and normalizers add up to the cell's, and a construction's δ is the atlas's counted for its group."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalcore
from evalcore.atlas import AtlasConfig, SchemePatterns, build_atlas
from evalcore.construction_scores import Coverage, construction_report
from evalcore.experiment import NamedTrees, Scheme
from evalcore.families.atlas import AtlasResult
from evalcore.patterns import compile_file, read_pattern_file, shipped
from evalcore.ranking import RankingConfig
from evalcore.trees import DepTree, Token

DOC = Path(__file__).resolve().parents[1] / "docs" / "patterns.md"
TEXT = DOC.read_text(encoding="utf-8")
SECTION = TEXT.split("## Constructions as units of evaluation", 1)[1].split("\n## ", 1)[0]
BLOCKS = re.findall(r"```conllu\n(.*?)```", TEXT, flags=re.S)
UD_GOLD = BLOCKS[0]  # "A worked example"'s sentence
UD_PARSE = next(b for b in BLOCKS if "\tVERB\t_\t_\t0\troot" in b)  # the restricted scores' parse
SUD_GOLD = next(b for b in BLOCKS if "comp:pred" in b)  # this section's SUD gold
PATTERNS = ("ud=" + str(shipped("ud")), "sud=" + str(shipped("sud")))


def _rows(marker: str) -> list[list[str]]:
    lines = SECTION.split(marker, 1)[1].strip().splitlines()
    out = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        out.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))])
    return out


RATES = _rows("<!-- construction-rates -->")
SCORES = _rows("<!-- construction-scores -->")


def _ted(cell: str) -> tuple[int, int]:
    """``1 / (3 + 1)`` -> (1, 4)."""
    m = re.fullmatch(r"(\d+) / \((\d+) \+ (\d+)\)", cell)
    assert m is not None, cell
    return int(m[1]), int(m[2]) + int(m[3])


def test_the_page_has_the_worked_example() -> None:
    assert len(RATES) == 3 and len(SCORES) == 12
    assert "4\tsur\tsur\tADP\t_\t_\t3\tcomp:pred" in SUD_GOLD and "3\test\têtre\tVERB" in UD_PARSE


@pytest.fixture
def report(write_file: Callable[[str, str], str]) -> AtlasResult:
    ud, sud, p = (
        write_file(n, t)
        for n, t in (("ud.conllu", UD_GOLD), ("sud.conllu", SUD_GOLD), ("p.conllu", UD_PARSE))
    )
    return evalcore.atlas({"ud": (ud, {"p": p}), "sud": (sud, {})}, patterns=PATTERNS, shuffles=10)


def test_the_api_gives_the_page_rates(report: AtlasResult) -> None:
    c = report.constructions
    assert c is not None
    for name, in_ud, in_sud, words, agree in RATES:
        r = c.rate(name, "ud", "sud")
        assert r is not None
        assert (r.words_a, r.words_b, r.words, r.agree) == (int(in_ud), int(in_sud), int(words), int(agree))
    assert all(r.words == 0 for r in c.rates if r.construction not in {row[0] for row in RATES})


def test_the_api_gives_the_page_scores(report: AtlasResult) -> None:
    c = report.constructions
    assert c is not None
    totals: dict[str, list[int]] = {}
    for name, against, uas, ted, value in SCORES:
        scores = c.of(name)
        assert scores is not None
        cell = scores.cell(against, "U-TED", "p")
        assert cell is not None
        delta, norm = _ted(ted)
        assert (cell.x, cell.n) == (delta, norm)
        assert cell.value == pytest.approx(float(Fraction(value)))
        t = totals.setdefault(against, [0, 0])
        t[0] += delta
        t[1] += norm
        att = scores.cell(against, "UAS", "p")
        if uas == "—":
            assert att is None or att.n == 0
        else:
            assert att is not None
            assert (att.x, att.n) == tuple(int(v) for v in uas.split("/"))
    # the page's sums, and the whole scores of the experiment
    assert totals == {"ud": [1, 15], "sud": [1, 17], "ud+sud": [1, 15]}
    for cell in report.atlas.cells:
        if cell.parse == "p" and not cell.labeled:
            assert [cell.delta, cell.norm] == totals[cell.target]


def test_the_command_line_prints_the_page_numbers(
    run_cli: Callable[..., object], write_file: Callable[[str, str], str]
) -> None:
    ud, sud, p = (
        write_file(n, t)
        for n, t in (("ud.conllu", UD_GOLD), ("sud.conllu", SUD_GOLD), ("p.conllu", UD_PARSE))
    )
    args = ["--scheme", "ud", ud, f"p={p}", "--scheme", "sud", sud, "--shuffles", "10"]
    args += [a for pat in PATTERNS for a in ("--pattern", pat)]
    res = run_cli("atlas", *args, "--format", "json")
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    doc = json.loads(res.out)["constructions"]  # type: ignore[attr-defined]
    rates = {r["construction"]: r for r in doc["rates"]}
    for name, in_ud, in_sud, words, agree in RATES:
        assert [rates[name][k] for k in ("words_a", "words_b", "words", "agree")] == [
            int(in_ud), int(in_sud), int(words), int(agree)
        ]  # fmt: skip
    cells = {(s["construction"], s["against"], s["metric"]): s["cells"][0] for s in doc["scores"]}
    for name, against, _, ted, _ in SCORES:
        assert (cells[(name, against, "U-TED")]["x"], cells[(name, against, "U-TED")]["n"]) == _ted(ted)
    text = run_cli("atlas", *args)
    assert text.code == 0  # type: ignore[attr-defined]
    out = text.out  # type: ignore[attr-defined]
    assert "== rates per construction" in out and "== scores per construction" in out
    row = next(line for line in out.splitlines() if line.startswith("copula ") and "ud / sud" in line)
    assert row.split()[-5:] == ["2", "2", "3", "0", "0.0%"]


def test_without_pattern_files_nothing_changes(
    run_cli: Callable[..., object], write_file: Callable[[str, str], str]
) -> None:
    ud, sud, p = (
        write_file(n, t)
        for n, t in (("ud.conllu", UD_GOLD), ("sud.conllu", SUD_GOLD), ("p.conllu", UD_PARSE))
    )
    res = run_cli("atlas", "--scheme", "ud", ud, f"p={p}", "--scheme", "sud", sud, "--format", "json")
    assert "constructions" not in json.loads(res.out)  # type: ignore[attr-defined]
    res = run_cli("atlas", "--scheme", "ud", ud, f"p={p}", "--scheme", "sud", sud)
    assert "per construction" not in res.out  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# property: the constructions add up, and equal the atlas's groups


UPOS = ["NOUN", "VERB", "ADP", "DET", "AUX", "PUNCT", "SCONJ", "CCONJ"]
RELS = ["nsubj", "obj", "case", "det", "cop", "aux", "mark", "cc", "conj", "punct", "obl", "fixed"]


def _tree(draw: st.DrawFn, size: int, upos: list[str]) -> DepTree:
    order = draw(st.permutations(range(1, size + 1)))
    heads = {order[0]: 0}
    for k in range(1, size):
        heads[order[k]] = order[draw(st.integers(0, k - 1))]
    rels = draw(st.lists(st.sampled_from(RELS), min_size=size, max_size=size))
    return DepTree(
        tuple(
            Token(w, f"w{w}", "_", upos[w - 1], "_", "_", heads[w], "root" if heads[w] == 0 else rels[w - 1])
            for w in range(1, size + 1)
        )
    )  # fmt: skip


@st.composite
def sentences(draw: st.DrawFn) -> tuple[DepTree, DepTree, DepTree, DepTree]:
    """Two golds, a parse of each scheme, over the same words."""
    size = draw(st.integers(1, 8))
    upos = draw(st.lists(st.sampled_from(UPOS), min_size=size, max_size=size))
    return (
        _tree(draw, size, upos),
        _tree(draw, size, upos),
        _tree(draw, size, upos),
        _tree(draw, size, upos),
    )


@settings(max_examples=40, deadline=None)
@given(st.lists(sentences(), min_size=1, max_size=3), st.sampled_from(["2012", "2011"]))
def test_constructions_add_up_to_the_cells_and_equal_the_atlas_groups(
    sents: list[tuple[DepTree, DepTree, DepTree, DepTree]], protocol: str
) -> None:
    from evalcore.conversion import ConversionConfig
    from evalcore.metrics.tedeval import TedConfig

    def named(name: str, k: int) -> NamedTrees:
        return NamedTrees(name, tuple(s[k] for s in sents))

    schemes = (
        Scheme("a", named("a-gold", 0), (named("pa", 2),)),
        Scheme("b", named("b-gold", 1), (named("pb", 3),)),
    )
    ud = compile_file(read_pattern_file(str(shipped("ud"))))
    sud = compile_file(read_pattern_file(str(shipped("sud"))))
    pats = (SchemePatterns("a", ud, "ud.pat", "0"), SchemePatterns("b", sud, "sud.pat", "1"))
    config = AtlasConfig(TedConfig(ConversionConfig(protocol=protocol)), patterns=pats)  # type: ignore[arg-type]
    atlas, result = build_atlas(schemes, config)
    rep = construction_report(
        schemes, result, config, Coverage(pats), RankingConfig(shuffles=10), parses=["pa", "pb"], tests=False
    )
    for cell in atlas.cells:
        if cell.parse.startswith("gold:"):
            continue
        metric = "L-TED" if cell.labeled else "U-TED"
        got = [s.cell(cell.target, metric, cell.parse) for s in rep.scores]
        assert sum(g.x for g in got if g is not None) == cell.delta
        assert sum(g.n for g in got if g is not None) == cell.norm
        groups = {g.group: g.counted for g in cell.grouped("construction")}
        for s, g in zip(rep.scores, got, strict=True):
            assert (g.x if g is not None else 0) == groups.get(s.construction, 0)
    tokens = sum(len(t[0]) for t in sents)
    for against in ("a", "b"):
        got = [s.cell(against, "UAS", "pa") for s in rep.scores]
        assert sum(g.n for g in got if g is not None) == tokens


def test_golds_agree_on_a_word_by_its_head_not_its_relation(tmp_path: Path) -> None:
    """By hand: *Il mange la pomme* in UD (`obj`) and in SUD (`comp:obj`): the determiner covers
    *la* and *pomme* in both; both words keep their head (relations differ): 2 of 2 agree.  The
    subject *Il* and the root *mange* are `other` in both, with the same heads: 2 of 2."""
    ud = "1\tIl\til\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tmange\tmanger\tVERB\t_\t_\t0\troot\t_\t_\n3\tla\tle\tDET\t_\t_\t4\tdet\t_\t_\n4\tpomme\tpomme\tNOUN\t_\t_\t2\tobj\t_\t_\n\n"  # noqa: E501
    sud = ud.replace("nsubj", "subj").replace("\tobj\t", "\tcomp:obj\t")
    (tmp_path / "ud.conllu").write_text(ud, encoding="utf-8")
    (tmp_path / "sud.conllu").write_text(sud, encoding="utf-8")
    (tmp_path / "p.conllu").write_text(ud, encoding="utf-8")
    r = evalcore.atlas(
        {
            "ud": (str(tmp_path / "ud.conllu"), {"p": str(tmp_path / "p.conllu")}),
            "sud": (str(tmp_path / "sud.conllu"), {}),
        },
        patterns=PATTERNS,
        no_ranking=True,
    )
    assert r.constructions is not None
    det = r.constructions.rate("determiner", "ud", "sud")
    other = r.constructions.rate("other", "ud", "sud")
    assert det is not None and other is not None
    assert (det.words, det.agree, other.words, other.agree) == (2, 2, 2, 2)


def test_a_scheme_given_no_file_covers_no_construction() -> None:
    """``--pattern sud=sud.pat`` alone: the scores per construction read sud.pat on the SUD trees and
    leave every word of the UD trees ``other`` -- the atlas's default file groups operations, but
    only a file given makes constructions units of evaluation (docs/patterns.md).  *il est à Paris*
    in SUD: *à* is the predicate under the copula (copula before adposition), *Paris* a comp of an
    ADP."""
    rows = [("il", "PRON", 2, "subj"), ("est", "AUX", 0, "root"), ("à", "ADP", 2, "comp:pred")]
    rows.append(("Paris", "PROPN", 3, "comp:obj"))
    t = DepTree(tuple(Token(w, f, "_", u, "_", "_", h, r) for w, (f, u, h, r) in enumerate(rows, 1)))
    sud = compile_file(read_pattern_file(str(shipped("sud"))))
    coverage = Coverage((SchemePatterns("sud", sud, "sud.pat", "0"),))
    assert coverage.of_tree(t, "sud") == ("other", "copula", "copula", "adposition")
    assert coverage.of_tree(t, "ud") == ("other",) * 4
    assert coverage.units()[-1] == "other" and "copula" in coverage.units()
