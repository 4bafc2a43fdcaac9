"""A prediction identical to its gold scores 100 under every combination of ``evalcore lattice``'s
options, or is refused with one line (docs/lattice.md, "What is compared").

The expected values come from the definitions, not from evalcore: for identical analyses every
token's segment sequences are equal, so SEGEVAL's ``d = |p| + |g| − 2·LCS`` is 0 and SEGEVAL is 1;
identical trees have TED 0, so TEDEVAL is 1; identical heads and labels give UAS = LAS = 1; identical
brackets give PARSEVAL F1 = 1 (ACL 2012 §3–4; docs/lattice.md, "The classic metric").  A metric that needs
what one side lacks is N/A, never a number: TEDEVAL and the classic metric need trees on both sides, the
labeled scores need tags on both sides (a yap ``.segmentation`` file has none), token accuracy needs token ids
on both sides (bare brackets have none).

Each dataset gives the same analysis in every form the command reads (a *representation*: the
positional file and the lattice file that goes with it, ``--gold-lattice`` / ``--pred-lattice``).
The matrix is gold representation × predicted representation × ``--ambiguity-lattice`` (given or
not) × ``--tag-column`` × ``--protocol`` × ``--deprel-base`` / ``--full-labels`` × ``--average`` (and, for the
presentation, ``--scenario`` × ``--format`` × ``--per-sentence``).  Two cells are refused, each with
one ``FILE: message`` line naming the option: ``--ambiguity-lattice`` with two CoNLL files without
lattice files (aligned by characters, no token ids), and bracketed trees given a segmentation file
as their lattice file.  A prediction given as CoNLL without its token boundaries (the bug of issue
12: SEGEVAL 15.64, TEDEVAL 66.21 on the SPMRL excerpt) gets the gold's, because its segments are the
gold's (``evalcore.lattice.reading``, rule 1).

The fast tests run the full input × scoring-option product on the shipped data (the yap sentence,
the paper's BCLM HNEIM example, French-GSD UD) and the presentation product on one cell per N/A
pattern; ``-m slow`` runs the literal full product and the SPMRL excerpt (``../shared/data``).
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from functools import cache
from itertools import product
from pathlib import Path
from typing import Literal

import pytest
from ec_support import ASSETS, DATA, CliResult, conllu_sentence

from evalcore.cli import build_parser
from evalcore.errors import EvalcoreError
from evalcore.formats.lattice import read_lattices, write_lattices
from evalcore.lattice.paths import path_arcs, token_splits
from evalcore.limits import from_args
from evalcore.report.lattice import HEADERS
from evalcore.trees import Arc, Lattice

GOLDEN = Path(__file__).parent / "golden" / "lattice" / "bclm_hneim_figure1.json"
SPMRL = DATA / "hebrew" / "spmrl_hebtb" / "excerpt_dev_first50"

TreeKind = Literal["dep", "ptb"]


@dataclass(frozen=True)
class Rep:
    """One way to give an analysis: the positional file and the lattice file that goes with it."""

    name: str
    file: str
    lattice: str | None
    tree: TreeKind | None  # what the representation has: a dependency or bracketed tree, or none
    tokens: bool  # token ids (bare brackets have none)
    tagged: bool  # a yap .segmentation file has no tags
    conll_alone: bool = False  # CoNLL without a lattice file (aligned by characters when both sides are)
    refused: str | None = None  # the command refuses this representation with a line containing this


@dataclass(frozen=True)
class Dataset:
    name: str
    reps: tuple[Rep, ...]
    ambiguity: str | None
    sentences: int
    not_trees: int  # gold sentences that are not trees (warned, left out of TedEval and the classic metric)


@dataclass(frozen=True)
class Scoring:
    """The options that change numbers."""

    tag: str = "cpos"
    protocol: str = "2012"
    deprel_base: bool = False
    average: str = "global"

    def argv(self) -> list[str]:
        out = ["--tag-column", self.tag, "--protocol", self.protocol, "--average", self.average]
        return [*out, "--deprel-base" if self.deprel_base else "--full-labels"]


@dataclass(frozen=True)
class Presentation:
    """The options that change only what is printed."""

    scenario: str = "auto"
    format: str = "json"
    per_sentence: bool = False

    def argv(self) -> list[str]:
        out = ["--scenario", self.scenario, "--format", self.format]
        return [*out, "--per-sentence"] if self.per_sentence else out


SCORINGS = tuple(
    Scoring(t, p, d, a)
    for t, p, d, a in product(("cpos", "fpos"), ("2012", "2011"), (False, True), ("global", "sentence"))
)
FULL = Presentation(per_sentence=True)
"""JSON with every sentence (``--per-sentence``): the per-sentence numbers are checked too."""
PRESENTATIONS = tuple(
    Presentation(s, f, ps)
    for s, f, ps in product(("auto", "gold", "predicted", "raw"), ("text", "json", "csv"), (False, True))
)


@dataclass(frozen=True)
class Expected:
    """What a cell must print: all numbers 1 (100 %), N/A where a metric does not apply."""

    labeled: bool
    tokens: bool
    trees: bool
    classic: str | None  # "attachment" | "parseval" | None
    detected: str


def expectation(g: Rep, p: Rep, ambiguity: bool) -> Expected | str:
    """The refusal line's key words, or what the numbers must be."""
    for rep in (g, p):
        if rep.refused is not None:
            return rep.refused
    if ambiguity and g.conll_alone and p.conll_alone:
        return "--ambiguity-lattice needs token ids on both sides"
    trees = g.tree is not None and p.tree is not None
    labeled = g.tagged and p.tagged
    return Expected(
        labeled=labeled,
        tokens=g.tokens and p.tokens,
        trees=trees,
        classic=("attachment" if g.tree == "dep" else "parseval") if trees else None,
        detected="gold" if g.tagged == p.tagged else "predicted",  # tags equal (or absent on both sides)
    )


# ---------------------------------------------------------------------------
# running the command (in-process; the parser is built once, errors handled as evalcore.cli.main does)


@cache
def _parser() -> object:
    return build_parser()


def run_lattice(argv: list[str]) -> CliResult:
    parser = _parser()
    args = parser.parse_args(["lattice", *argv])  # type: ignore[attr-defined]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            args.limits = from_args(args)  # the resource limits, as evalcore.cli.main sets them
            code = int(args.run(args))
        except EvalcoreError as exc:
            print(str(exc), file=sys.stderr)
            code = 2
    return CliResult(code, out.getvalue(), err.getvalue())


def command(ds: Dataset, g: Rep, p: Rep, ambiguity: bool, s: Scoring, pr: Presentation) -> list[str]:
    argv = [g.file, f"pred={p.file}"]
    if g.lattice is not None:
        argv += ["--gold-lattice", g.lattice]
    if p.lattice is not None:
        argv += ["--pred-lattice", p.lattice]
    if ambiguity:
        assert ds.ambiguity is not None
        argv += ["--ambiguity-lattice", ds.ambiguity]
    return [*argv, *s.argv(), *pr.argv()]


def _one(flag: bool) -> float | None:
    return 1.0 if flag else None


def _check_refusal(res: CliResult, words: str, argv: list[str]) -> None:
    assert res.code == 2 and res.out == "", argv
    lines = res.err.splitlines()
    assert len(lines) == 1 and words in lines[0], (argv, res.err)
    assert "Traceback" not in res.err


def _check_json(out: dict[str, object], exp: Expected, ds: Dataset, pr: Presentation) -> None:
    assert out["segeval"] == {"U": 1.0, "L": _one(exp.labeled)}
    assert out["token_seg_accuracy"] == {"U": _one(exp.tokens), "L": _one(exp.tokens and exp.labeled)}
    assert out["tedeval"] == ({"U": 1.0, "L": 1.0} if exp.trees else None)
    classic = out["classic"]
    if exp.classic is None:
        assert classic is None
    else:
        assert isinstance(classic, dict) and classic["metric"] == exp.classic
        assert classic["U"] == (1.0 if exp.classic == "attachment" else None) and classic["L"] == 1.0
    assert out["detected_scenario"] == exp.detected
    assert out["scenario"] == (exp.detected if pr.scenario == "auto" else pr.scenario)
    assert out["sentences"] == out["gold_sentences"] == out["pred_sentences"] == ds.sentences
    assert out["unaligned"] == {"gold": [], "pred": []}
    assert out["skipped"] == (ds.not_trees if exp.trees else 0)
    if not pr.per_sentence:  # the sentences are listed only on request (the command streams)
        assert "per_sentence" not in out
        return
    per = out["per_sentence"]
    assert isinstance(per, list) and len(per) == ds.sentences
    for s in per:
        assert s["segeval"] == {"U": 1.0, "L": _one(exp.labeled)}
        assert s["tedeval"] in (({"U": 1.0, "L": 1.0}, None) if exp.trees else (None,))
        assert s["ted"] in (({"U": 0, "L": 0}, None) if exp.trees else (None,))
    assert sum(s["tedeval"] is None for s in per) == (ds.not_trees if exp.trees else ds.sentences)


def _expected_row(exp: Expected, pr: Presentation, percent: bool) -> list[str]:
    """The scenario-table row after the system name, as printed (text: percent, 2 digits; CSV: plain)."""
    one, na = ("100.00", "N/A") if percent else ("1.0", "")

    def v(flag: bool) -> str:
        return one if flag else na

    scenario = exp.detected if pr.scenario == "auto" else pr.scenario
    return [
        scenario,
        one,
        v(exp.labeled),
        exp.classic or "N/A",
        v(exp.classic == "attachment"),
        v(exp.classic is not None),
        v(exp.trees),
        v(exp.trees),
        v(exp.tokens),
        v(exp.tokens and exp.labeled),
    ]


def check_cell(ds: Dataset, g: Rep, p: Rep, ambiguity: bool, s: Scoring, pr: Presentation) -> None:
    argv = command(ds, g, p, ambiguity, s, pr)
    res = run_lattice(argv)
    exp = expectation(g, p, ambiguity)
    if isinstance(exp, str):
        _check_refusal(res, exp, argv)
        return
    assert res.code == 0, (argv, res.err)
    warnings = [line for line in res.err.splitlines() if line]
    assert len(warnings) == (ds.not_trees if g.tree or p.tree else 0), (argv, res.err)
    assert all(w.startswith("warning: ") and "skipped" in w for w in warnings), (argv, res.err)
    if pr.format == "json":
        _check_json(json.loads(res.out), exp, ds, pr)
    elif pr.format == "csv":
        rows = list(csv.reader(io.StringIO(res.out)))
        assert rows[0] == [*HEADERS, "signature"] and len(rows) == 2, argv
        assert rows[1][1:-1] == _expected_row(exp, pr, percent=False), argv
    else:
        lines = res.out.splitlines()
        assert lines[0].split() == " ".join(HEADERS).split(), argv
        assert lines[2].split()[1:] == _expected_row(exp, pr, percent=True), (argv, res.out)
        assert f"{ds.sentences} sentence pairs scored" in res.out
        if pr.per_sentence:
            _check_per_sentence_text(res.out, exp, ds)


def _check_per_sentence_text(out: str, exp: Expected, ds: Dataset) -> None:
    """Rows ``# sent_id SEG-L TED-U TED-L dist operations``: 1, 1, 1, 0 and no operation."""
    table = out.split("\npred\n", 1)[1].splitlines()
    assert table[0].split()[:2] == ["#", "sent_id"] and len(table) == 2 + ds.sentences
    for row in table[2:]:
        cells = row.split()[1:]
        if cells[0] not in ("1.0000", "N/A"):
            cells = cells[1:]  # the sent_id
        assert cells[0] == ("1.0000" if exp.labeled else "N/A"), row
        if exp.trees and "not a tree" not in row:
            assert cells[1:] == ["1.0000", "1.0000", "0"], row
        else:
            assert cells[1:4] == ["N/A", "N/A", "N/A"], row


# ---------------------------------------------------------------------------
# datasets: the same analysis in every representation


def _segmentation(lattice_file: Path) -> str:
    """yap's output.segmentation for one-path lattices: a line per token, its segments joined by ':'."""
    out = []
    for lat in read_lattices(lattice_file):
        tokens: dict[int, list[str]] = {}
        for arc in path_arcs(lat):
            tokens.setdefault(arc.token_id, []).append(arc.segment)
        out.append("".join(f"\t{':'.join(segs)}\n" for _, segs in sorted(tokens.items())) + "\n")
    return "".join(out)


def _dependency_reps(conll: str, lattice: str, segmentation: str) -> tuple[Rep, ...]:
    return (
        Rep("conll+lattice", conll, lattice, "dep", True, True),
        Rep("conll+segmentation", conll, segmentation, "dep", True, True),
        Rep("conll", conll, None, "dep", True, True, conll_alone=True),
        Rep("lattice", lattice, None, None, True, True),
        Rep("segmentation", segmentation, None, None, True, False),
    )


def yap_dataset(tmp: Path) -> Dataset:
    """The yap sentence (shipped): CoNLL over morphemes, output.mapping, output.segmentation."""
    y = ASSETS / "hebrew_yap"
    reps = _dependency_reps(
        str(y / "output.conll"), str(y / "output.mapping"), str(y / "output.segmentation")
    )
    return Dataset("yap", reps, str(y / "input.lattice"), 1, 0)


def bclm_dataset(tmp: Path) -> Dataset:
    """The paper's gold tree (ACL 2012 Figure 1) over its lattice path; the path is also its MA lattice."""
    case = json.loads(GOLDEN.read_text(encoding="utf-8"))["gold"]
    mrg = tmp / "bclm.mrg"
    mrg.write_text(case["tree"] + "\n", encoding="utf-8")
    lat = tmp / "bclm.lattices"
    rows = case["lattice"]
    lat.write_text("".join(f"{s}\t{e}\t{w}\t{w}\t{t}\t{t}\t_\t{k}\n" for s, e, w, t, k in rows) + "\n")
    seg = tmp / "bclm.segmentation"
    seg.write_text(_segmentation(lat), encoding="utf-8")
    refusal = "bracketed trees take a lattice file, not a segmentation"
    reps = (
        Rep("brackets+lattice", str(mrg), str(lat), "ptb", True, True),
        Rep("brackets+segmentation", str(mrg), str(seg), "ptb", True, True, refused=refusal),
        Rep("brackets", str(mrg), None, "ptb", False, True),
        Rep("lattice", str(lat), None, None, True, True),
        Rep("segmentation", str(seg), None, None, True, False),
    )
    return Dataset("bclm", reps, str(lat), 1, 0)


def ud_dataset(tmp: Path) -> Dataset:
    """French-GSD UD (shipped), the first 4 sentences: CoNLL-U with multiword tokens (du = de le)."""
    with gzip.open(ASSETS / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz", "rt", encoding="utf-8") as f:
        blocks = f.read().split("\n\n")[:4]
    assert any("\n12-13\tdu\t" in b for b in blocks)
    path = tmp / "fr4.conllu"
    path.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    rep = Rep("conllu", str(path), None, "dep", True, True, conll_alone=True)
    return Dataset("ud", (rep,), None, 4, 0)


def spmrl_dataset(tmp: Path, sentences: int) -> Dataset:
    """The SPMRL excerpt (first ``sentences`` of dev), with its MA lattices."""
    if not SPMRL.is_dir():
        pytest.skip(f"SPMRL excerpt not found at {SPMRL} (needs ../shared/data)")

    def head(name: str, out: str) -> str:
        blocks = (SPMRL / name).read_text(encoding="utf-8").split("\n\n")[:sentences]
        path = tmp / out
        path.write_text("\n\n".join(b.strip("\n") for b in blocks) + "\n\n", encoding="utf-8")
        return str(path)

    conll = head("dev_hebtb-gold.conll", f"gold{sentences}.conll")
    lattice = head("dev_hebtb-gold.lattices", f"gold{sentences}.lattices")
    seg = tmp / f"gold{sentences}.segmentation"
    seg.write_text(_segmentation(Path(lattice)), encoding="utf-8")
    ambiguity = head("dev_hebtb.lattices", f"ma{sentences}.lattices")
    return Dataset("spmrl", _dependency_reps(conll, lattice, str(seg)), ambiguity, sentences, 0)


def cells(ds: Dataset) -> Iterator[tuple[Rep, Rep, bool]]:
    for g, p in product(ds.reps, ds.reps):
        for ambiguity in (False, True) if ds.ambiguity is not None else (False,):
            yield g, p, ambiguity


SHIPPED: dict[str, Callable[[Path], Dataset]] = {"yap": yap_dataset, "bclm": bclm_dataset, "ud": ud_dataset}


@pytest.fixture(params=sorted(SHIPPED))
def shipped(request: pytest.FixtureRequest, tmp_path: Path) -> Dataset:
    return SHIPPED[request.param](tmp_path)


# ---------------------------------------------------------------------------
# the issue's command, and the matrix


def test_the_issue_command_scores_100_on_the_spmrl_excerpt(data: Path) -> None:
    """``evalcore lattice --gold-lattice G.lattices G.conll G.conll`` printed SEGEVAL 15.64, TEDEVAL 66.21,
    scenario "raw"; the prediction's segments are the gold's, so it takes the gold's tokens."""
    g, lat = str(SPMRL / "dev_hebtb-gold.conll"), str(SPMRL / "dev_hebtb-gold.lattices")
    for argv in (
        ["--gold-lattice", lat, g, g],
        [g, g, "--pred-lattice", lat],  # the gold without its tokens, the prediction with them
        [lat, g],
        [g, lat],
    ):
        res = run_lattice([*argv, "--format", "json"])
        assert res.code == 0, res.err
        out = json.loads(res.out)
        assert out["detected_scenario"] == "gold" and out["sentences"] == 50, argv
        assert out["segeval"] == out["token_seg_accuracy"] == {"U": 1.0, "L": 1.0}, argv
        assert out["tedeval"] in ({"U": 1.0, "L": 1.0}, None), argv


@pytest.mark.slow
def test_identity_matrix_shipped_inputs_by_scoring_options(shipped: Dataset) -> None:
    """Every gold × predicted representation × ambiguity lattice × every scoring option (JSON)."""
    n = 0
    for (g, p, ambiguity), s in product(cells(shipped), SCORINGS):
        check_cell(shipped, g, p, ambiguity, s, FULL)
        n += 1
    reps = len(shipped.reps)
    assert n == reps * reps * (2 if shipped.ambiguity else 1) * 16


def _one_cell_per_pattern(ds: Dataset) -> list[tuple[Rep, Rep, bool]]:
    """A cell for each distinct expectation (N/A pattern or refusal) of the dataset."""
    seen: dict[object, tuple[Rep, Rep, bool]] = {}
    for g, p, ambiguity in cells(ds):
        seen.setdefault(expectation(g, p, ambiguity), (g, p, ambiguity))
    return list(seen.values())


def test_identity_matrix_presentation_options(shipped: Dataset) -> None:
    """Every --scenario × --format × --per-sentence on one cell per N/A pattern (and each refusal)."""
    for (g, p, ambiguity), pr in product(_one_cell_per_pattern(shipped), PRESENTATIONS):
        check_cell(shipped, g, p, ambiguity, Scoring(), pr)


def test_identity_several_predictions_in_one_run(shipped: Dataset) -> None:
    """Every representation of the prediction as its own row of one table (NAME=PATH; --pred-lattice
    is given for all of them or for none, so those with and those without are two runs)."""
    for g in shipped.reps:
        for with_lattice in (True, False):
            preds = [p for p in shipped.reps if (p.lattice is not None) == with_lattice]
            if not preds:
                continue
            argv = [g.file, *(f"p{k}={p.file}" for k, p in enumerate(preds))]
            if g.lattice is not None:
                argv += ["--gold-lattice", g.lattice]
            argv += [x for p in preds if p.lattice is not None for x in ("--pred-lattice", p.lattice)]
            res = run_lattice([*argv, "--format", "json", "--per-sentence"])
            expected = [expectation(g, p, False) for p in preds]
            refusals = [e for e in expected if isinstance(e, str)]
            if refusals:  # the run stops at the first refused prediction
                _check_refusal(res, refusals[0], argv)
                continue
            assert res.code == 0, (argv, res.err)
            out = json.loads(res.out)
            systems = out["systems"] if len(preds) > 1 else [out]
            assert [s["system"] for s in systems] == [f"p{k}" for k in range(len(preds))]
            for system, exp in zip(systems, expected, strict=True):
                assert isinstance(exp, Expected)
                _check_json(system, exp, shipped, FULL)


@pytest.mark.slow
def test_identity_matrix_shipped_every_option_combination(shipped: Dataset) -> None:
    """The literal product: inputs × scoring options × presentation options."""
    for (g, p, ambiguity), s, pr in product(cells(shipped), SCORINGS, PRESENTATIONS):
        check_cell(shipped, g, p, ambiguity, s, pr)


@pytest.mark.slow
def test_identity_matrix_spmrl_inputs(data: Path, tmp_path: Path) -> None:
    """The SPMRL excerpt's first 8 sentences: every input combination with the default scoring."""
    ds = spmrl_dataset(tmp_path, 8)
    for g, p, ambiguity in cells(ds):
        check_cell(ds, g, p, ambiguity, Scoring(), FULL)


@pytest.mark.slow
def test_identity_matrix_spmrl_excerpt_every_scoring_option(data: Path, tmp_path: Path) -> None:
    """The excerpt's first 20 sentences (417 tokens): every input combination × every scoring option."""
    ds = spmrl_dataset(tmp_path, 20)
    for (g, p, ambiguity), s in product(cells(ds), SCORINGS):
        check_cell(ds, g, p, ambiguity, s, FULL)


def test_refusals_are_one_line_through_main(run_cli: Callable[..., CliResult]) -> None:
    """The two refused cells, through ``evalcore.cli.main``: exit 2, one line, the option named."""
    y = ASSETS / "hebrew_yap"
    conll = str(y / "output.conll")
    res = run_cli("lattice", conll, conll, "--ambiguity-lattice", str(y / "input.lattice"))
    assert res.code == 2 and len(res.err_lines) == 1
    assert res.err_lines[0].startswith(f"{y / 'input.lattice'}: --ambiguity-lattice needs token ids")
    assert "give --gold-lattice and --pred-lattice" in res.err_lines[0]


# ---------------------------------------------------------------------------
# recovering token boundaries a CoNLL file does not state (evalcore.lattice.reading, rules 1-3)


def _two_token_lattice() -> Lattice:
    """Token 1 is *a* or *a b*, token 2 is *b c* or *c*: the segments a b c split two ways,
    (1, 2, 2) and (1, 1, 2); a c splits one way; a x none."""
    arcs = [(0, 2, "a", 1), (0, 1, "a", 1), (1, 2, "b", 1), (2, 3, "b", 2), (3, 4, "c", 2), (2, 4, "c", 2)]
    return Lattice(tuple(Arc(s, e, w, w, "X", "X", "_", t) for s, e, w, t in arcs))


def test_token_splits_counts_the_ways_a_lattice_assigns_segments_to_tokens() -> None:
    lattice = _two_token_lattice()
    assert sorted(token_splits(["a", "b", "c"], lattice)) == [(1, 1, 2), (1, 2, 2)]
    assert token_splits(["a", "c"], lattice) == ((1, 2),)
    assert token_splits(["a", "x"], lattice) == ()
    assert token_splits(["a", "b"], lattice) == ()  # does not reach the last state
    assert len(token_splits(["a", "b", "c"], lattice, limit=1)) == 1


def _conll(forms: list[str]) -> str:
    heads = [0] + [1] * (len(forms) - 1)
    return conllu_sentence(heads, forms=forms, upos=["X"] * len(forms))


def _path(segments: list[tuple[str, int]]) -> str:
    return "".join(f"{k}\t{k + 1}\t{w}\t{w}\tX\tX\t_\t{t}\n" for k, (w, t) in enumerate(segments)) + "\n"


def test_boundaries_by_count_and_by_the_ambiguity_lattice(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    """Rule 2: as many segments as tokens; rule 3: one split in the MA lattice.  The recovered run
    prints what the same prediction prints with its lattice path given (--pred-lattice)."""
    gold = write_file("g.conll", _conll(["a", "b", "c"]))
    gold_lat = write_file("g.lattices", _path([("a", 1), ("b", 1), ("c", 2)]))
    # rule 2: two segments, two tokens -> one segment each
    pred = write_file("p.conll", _conll(["a", "c"]))
    pred_lat = write_file("p.lattices", _path([("a", 1), ("c", 2)]))
    json_all = ("--format", "json", "--per-sentence")
    recovered = run_cli("lattice", gold, pred, "--gold-lattice", gold_lat, *json_all)
    given = run_cli("lattice", gold, pred, "--gold-lattice", gold_lat, "--pred-lattice", pred_lat, *json_all)
    assert recovered.code == given.code == 0, recovered.err
    assert json.loads(recovered.out)["per_sentence"] == json.loads(given.out)["per_sentence"]
    # token 1: gold a b vs a -> d = 3 - 2 = 1; token 2: c vs c -> 0; over 3 + 2 segments
    assert json.loads(recovered.out)["segeval"]["U"] == pytest.approx(1 - 1 / 5)
    # rule 2, one token: every segment is in it (gold a b vs a x y: d = 2 + 3 - 2 = 3 over 5)
    one = write_file("one.lattices", _path([("a", 1), ("b", 1)]))
    one_gold = write_file("one.conll", _conll(["a", "b"]))
    three = write_file("three.conll", _conll(["a", "x", "y"]))
    res = run_cli("lattice", one_gold, three, "--gold-lattice", one, "--format", "json")
    assert res.code == 0 and json.loads(res.out)["segeval"]["U"] == pytest.approx(1 - 3 / 5)
    # gold a b | c, prediction a | b c: token 1: d = 1 + 2 - 2 = 1; token 2: d = 1 + 2 - 2 = 1; over 6
    pred3 = write_file("p3.conll", _conll(["a", "b", "c"]))
    pred3_lat = write_file("p3.lattices", _path([("a", 1), ("b", 2), ("c", 2)]))
    with_path = run_cli(
        "lattice", gold, pred3, "--gold-lattice", gold_lat, "--pred-lattice", pred3_lat, "--format", "json"
    )
    assert json.loads(with_path.out)["segeval"]["U"] == pytest.approx(1 - 2 / 6)
    # without it, its segments are the gold's: rule 1 gives it the gold's boundaries (a b | c)
    same = json.loads(run_cli("lattice", gold, pred3, "--gold-lattice", gold_lat, "--format", "json").out)
    assert same["segeval"]["U"] == 1.0
    # rule 3: four segments over two tokens, the MA lattice allows one split
    ma = write_file(
        "ma.lattices",
        "0\t1\ta\ta\tX\tX\t_\t1\n1\t2\tb\tb\tX\tX\t_\t1\n"
        "2\t3\tc\tc\tX\tX\t_\t2\n3\t4\td\td\tX\tX\t_\t2\n2\t4\tcd\tcd\tX\tX\t_\t2\n\n",
    )
    gold4 = write_file("g4.conll", _conll(["a", "b", "cd"]))
    gold4_lat = write_file("g4.lattices", _path([("a", 1), ("b", 1), ("cd", 2)]))
    pred4 = write_file("p4.conll", _conll(["a", "b", "c", "d"]))
    pred4_lat = write_file("p4.lattices", _path([("a", 1), ("b", 1), ("c", 2), ("d", 2)]))
    base = ["lattice", gold4, pred4, "--gold-lattice", gold4_lat, *json_all]
    refused = run_cli(*base)
    assert refused.code == 2 and len(refused.err_lines) == 1
    assert refused.err_lines[0].startswith(
        f"{pred4}:1: sentence 1: the prediction does not say which of the 2 tokens"
    )
    assert "(--ambiguity-lattice may settle it): give the token boundaries with --pred-lattice" in refused.err
    by_ma = run_cli(*base, "--ambiguity-lattice", ma)
    by_path = run_cli(*base, "--pred-lattice", pred4_lat)
    assert by_ma.code == by_path.code == 0, by_ma.err
    assert (
        json.loads(by_ma.out)["per_sentence"][0]["segeval"]
        == json.loads(by_path.out)["per_sentence"][0]["segeval"]
    )
    # token 2: gold cd vs c d -> d = 1 + 2 = 3 over 3 + 4 segments in all
    assert json.loads(by_ma.out)["segeval"]["U"] == pytest.approx(1 - 3 / 7)


def test_boundaries_refused_when_the_ambiguity_lattice_allows_several_splits(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    gold = write_file("g.conll", _conll(["a", "c"]))
    gold_lat = write_file("g.lattices", _path([("a", 1), ("c", 2)]))
    pred = write_file("p.conll", _conll(["a", "b", "c"]))
    ma = write_file("ma.lattices", write_lattices([_two_token_lattice()]))
    res = run_cli("lattice", gold, pred, "--gold-lattice", gold_lat, "--ambiguity-lattice", ma)
    assert res.code == 2 and res.out == "" and len(res.err_lines) == 1
    assert (
        "the ambiguity lattice allows more than one split: give the token boundaries with --pred-lattice"
        in res.err
    )
    # the gold without its boundaries is refused the same way, naming --gold-lattice
    res = run_cli("lattice", pred, gold, "--pred-lattice", gold_lat, "--ambiguity-lattice", ma)
    assert (
        res.code == 2
        and len(res.err_lines) == 1
        and res.err_lines[0].startswith(f"{pred}:1: sentence 1: the gold")
    )
    assert res.err.rstrip().endswith("give the token boundaries with --gold-lattice (its lattice path)")


def test_sentences_paired_in_order_must_have_the_same_tokens(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    gold = write_file("g.lattices", _path([("a", 1), ("b", 1), ("c", 2)]))
    pred = write_file("p.lattices", _path([("a", 1), ("b", 2), ("c", 3)]))
    res = run_cli("lattice", gold, pred)
    assert res.code == 2 and len(res.err_lines) == 1
    assert "the gold has 2 tokens and the prediction 3 (token ids 1–2 and 1–3)" in res.err


# ---------------------------------------------------------------------------
# the streaming command keeps these rules


def test_recovery_and_lattice_check_read_the_ambiguity_lattices_in_step(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    """Two sentences: the first takes the gold's boundaries (rule 1), the second needs its MA lattice
    (rule 3).  The lattices read for recovery are the ones checked: both sentences are in the check."""
    gold = write_file("g.conll", _conll(["a", "c"]) + _conll(["a", "b", "cd"]))
    gold_lat = write_file("g.lattices", _path([("a", 1), ("c", 2)]) + _path([("a", 1), ("b", 1), ("cd", 2)]))
    pred = write_file("p.conll", _conll(["a", "c"]) + _conll(["a", "b", "c", "d"]))
    ma = write_file(
        "ma.lattices",
        _path([("a", 1), ("c", 2)]) + "0\t1\ta\ta\tX\tX\t_\t1\n1\t2\tb\tb\tX\tX\t_\t1\n"
        "2\t3\tc\tc\tX\tX\t_\t2\n3\t4\td\td\tX\tX\t_\t2\n2\t4\tcd\tcd\tX\tX\t_\t2\n\n",
    )
    res = run_cli(
        "lattice", gold, pred, "--gold-lattice", gold_lat, "--ambiguity-lattice", ma, "--format", "json"
    )
    assert res.code == 0, res.err
    out = json.loads(res.out)
    check = out["lattice_check"]
    assert check["sentences"] == 2 and check["gold_outside"] == check["pred_outside"] == 0
    # sentence 1: a c vs a c, d = 0 over 2 + 2; sentence 2: token 2 cd vs c d, d = 1 + 2 = 3 over 3 + 4
    assert out["segeval"]["U"] == pytest.approx(1 - 3 / 11)


_STATED = (
    "1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n2\tb\tb\tX\tX\t_\t1\tdep\t_\t_\n3\tc\tc\tX\tX\t_\t1\tdep\t_\t_\n\n"
    "1-2\txy\t_\t_\t_\t_\t_\t_\t_\t_\n1\tx\tx\tX\tX\t_\t0\troot\t_\t_\n2\ty\ty\tX\tX\t_\t1\tdep\t_\t_\n\n"
)


def test_a_multiword_token_line_anywhere_states_the_tokens_of_the_whole_file(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    """Whether a CoNLL file states its tokens is a property of the file (read sentence by sentence,
    it is found before the first sentence): the range line of sentence 2 makes sentence 1's words
    a b c three tokens, which the gold's two tokens (a b | c) refuse; without that line the file
    states nothing and sentence 1 takes the gold's boundaries (its segments are the gold's)."""
    gold = write_file("g.lattices", _path([("a", 1), ("b", 1), ("c", 2)]) + _path([("x", 1), ("y", 1)]))
    stated = write_file("stated.conllu", _STATED)
    res = run_cli("lattice", gold, stated)
    assert res.code == 2 and res.out == "" and len(res.err_lines) == 1, res.err
    assert "sentence 1: the gold has 2 tokens and the prediction 3 (token ids 1–2 and 1–3)" in res.err
    silent = write_file("silent.conllu", _STATED.replace("1-2\txy\t_\t_\t_\t_\t_\t_\t_\t_\n", ""))
    res = run_cli("lattice", gold, silent, "--format", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["segeval"] == {"U": 1.0, "L": 1.0}
