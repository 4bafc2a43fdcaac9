"""The public API: ``evalcore.attach``, ``parseval``, ``freval``,
``tedeval``, ``lattice``, ``read``, ``inspect``; their inputs; the results' tables; the drawings.

The API's numbers are the command line's: each function's ``to_dict()`` is compared with
``evalcore COMMAND --format json`` on the same real files (excerpts of the shipped treebanks,
to stay fast; docs/api.md's examples do it on whole files in ``tests/test_api_docs.py``).
Hand-counted expectations are written out where a test builds its own sentences.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import evalcore
from evalcore.formats.conllu import write_conllu
from evalcore.trees import DepTree, Token

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
EWT_GOLD = ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz"
EWT_SPACY = ASSETS / "en_ewt" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz"
UD = ASSETS / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz"
SUD = ASSETS / "fr_gsd" / "fr_gsd-sud-test.r2.16.conllu.gz"
UD_PARSE = ASSETS / "fr_gsd" / "parses" / "fr_gsd-test.spacy-ud.conllu.gz"
SAMPLE = ASSETS / "evalb" / "sample"
FAR_GOLD = ASSETS / "farpahc" / "far_split0testing.oneline.psd.gz"
FAR_TEST = ASSETS / "farpahc" / "far_split0machineparsed.psd.gz"
YAP = ASSETS / "hebrew_yap"
FIX = ROOT / "tests" / "fixtures"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot draws these")


def cli_json(*args: object) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "evalcore", *map(str, args), "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    doc: dict[str, object] = json.loads(done.stdout)
    return doc


def excerpt_conllu(src: Path, dest: Path, n: int) -> Path:
    """The first ``n`` sentences of a shipped treebank, as a file of its own."""
    dest.write_text(write_conllu(evalcore.read(src, format="conllu")[:n]), encoding="utf-8")  # type: ignore[arg-type]
    return dest


def excerpt_lines(src: Path, dest: Path, n: int) -> Path:
    """The first ``n`` lines (evalb: sentences) of a one-tree-per-line file."""
    with gzip.open(src, "rt", encoding="utf-8") as f:
        dest.write_text("".join(line for _, line in zip(range(n), f, strict=False)), encoding="utf-8")
    return dest


@pytest.fixture(scope="module")
def ewt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("ewt")
    return excerpt_conllu(EWT_GOLD, tmp / "gold.conllu", 80), excerpt_conllu(
        EWT_SPACY, tmp / "spacy.conllu", 80
    )


# ---------------------------------------------------------------------------
# the same numbers as the command line


@pytest.mark.slow
def test_attach_is_the_command_lines(ewt: tuple[Path, Path]) -> None:
    gold, system = ewt
    assert evalcore.attach(gold, system).to_dict() == cli_json("attach", gold, system)
    api = evalcore.attach(gold, system, no_punct=True, deprel_base=True, max_len=15, per_sentence=True)
    flags = ("--no-punct", "--deprel-base", "--max-len", "15", "--per-sentence")
    assert api.to_dict() == cli_json("attach", gold, system, *flags)
    assert len(api.per_sentence) == 80
    full = evalcore.attach(gold, system, labels="full")
    assert full.to_dict() == cli_json("attach", gold, system, "--full-labels")


def test_parseval_is_the_command_lines() -> None:
    gold, test, prm = SAMPLE / "sample.gld", SAMPLE / "sample.tst", SAMPLE / "sample.prm"
    assert evalcore.parseval(gold, test, prm=prm).to_dict() == cli_json("parseval", gold, test, "--prm", prm)
    api = evalcore.parseval(gold, test, unlabeled=True, cutoff_len=10)
    assert api.to_dict() == cli_json("parseval", gold, test, "--unlabeled", "--cutoff-len", "10")


def test_freval_is_the_command_lines(tmp_path: Path) -> None:
    gold, test = (
        excerpt_lines(FAR_GOLD, tmp_path / "g.psd", 40),
        excerpt_lines(FAR_TEST, tmp_path / "t.psd", 40),
    )
    api = evalcore.freval(gold, test, max_size=2, alpha=(0.25, 0.75), function_separators="-=*", strict=True)
    flags = ("--max-size", "2", "--alpha", "0.25,0.75", "--function-separators=-=*", "--strict")
    cli = cli_json("freval", gold, test, *flags)
    assert api.to_dict() == cli


@pytest.mark.slow
def test_tedeval_is_the_command_lines(tmp_path: Path) -> None:
    ud, sud = excerpt_conllu(UD, tmp_path / "ud.conllu", 25), excerpt_conllu(SUD, tmp_path / "sud.conllu", 25)
    parse = excerpt_conllu(UD_PARSE, tmp_path / "parse.conllu", 25)
    api = evalcore.tedeval(
        {"ud": (ud, {"p": parse}), "sud": (sud, [f"s={sud}"])},
        protocol="2011",
        shuffles=200,
        per_sentence=True,
    )
    cli = cli_json("tedeval", "--scheme", "ud", ud, f"p={parse}", "--scheme", "sud", sud, f"s={sud}",
                   "--protocol", "2011", "--shuffles", "200", "--per-sentence")  # fmt: skip
    assert api.to_dict() == cli
    # the same files given as trees: the same experiment
    trees = evalcore.tedeval(
        {
            "ud": (evalcore.read(ud), {"p": evalcore.read(parse)}),
            "sud": (evalcore.read(sud), {"s": evalcore.read(sud)}),
        },
        protocol="2011",
        shuffles=200,
        per_sentence=True,
    )
    assert trees.to_dict() == cli


@pytest.mark.slow
def test_tedeval_takes_the_commands_label_options(tmp_path: Path) -> None:
    """``labels_map`` (several files), ``scheme_labels_maps`` and ``category_labels`` are
    ``--labels-map FILE``, ``--labels-map SCHEME=FILE`` and ``--category-labels``."""
    gold = tmp_path / "gold.mrg"
    gold.write_text("(S (NP-SBJ (NN John)) (VP (VBZ loves) (NP-OBJ (NN Mary))))\n", encoding="utf-8")
    parse = tmp_path / "parse.mrg"
    parse.write_text("(S (NP-SBJ (NN John)) (VP (VBZ loves) (NP-PRD (NN Mary))))\n", encoding="utf-8")
    first, second = tmp_path / "first.map", tmp_path / "second.map"
    first.write_text("PRD=TMP\n", encoding="utf-8")
    second.write_text("TMP=OBJ\n", encoding="utf-8")
    schemes = {"a": (gold, {"p": parse}), "b": (gold, {"q": gold})}
    plain = evalcore.tedeval(schemes, shuffles=10)
    every = evalcore.tedeval(schemes, labels_map=[first, second], shuffles=10)
    own = evalcore.tedeval(schemes, scheme_labels_maps={"a": first}, labels_map=second, shuffles=10)
    cat = evalcore.tedeval(schemes, category_labels=True, shuffles=10)
    base = (
        "tedeval",
        "--scheme",
        "a",
        gold,
        f"p={parse}",
        "--scheme",
        "b",
        gold,
        f"q={gold}",
        "--shuffles",
        "10",
    )
    assert every.to_dict() == cli_json(*base, "--labels-map", first, "--labels-map", second)
    assert own.to_dict() == cli_json(*base, "--labels-map", f"a={first}", "--labels-map", second)
    assert cat.to_dict() == cli_json(*base, "--category-labels")
    assert len({plain.signature, every.signature, own.signature, cat.signature}) == 4
    with pytest.raises(ValueError, match="scheme_labels_maps names no scheme: c"):
        evalcore.tedeval(schemes, scheme_labels_maps={"c": first}, shuffles=10)


def test_lattice_is_the_command_lines() -> None:
    args = (FIX / "yap_alternative.conll", YAP / "output.conll")
    api = evalcore.lattice(
        *args, gold_lattice=FIX / "yap_alternative.lattice", pred_lattice=YAP / "output.mapping"
    )
    cli = cli_json("lattice", *args, "--gold-lattice", FIX / "yap_alternative.lattice", "--pred-lattice",
                   YAP / "output.mapping")  # fmt: skip
    assert api.to_dict() == cli
    # the files' bytes, named by their extensions
    in_memory = evalcore.lattice(
        args[0].read_text(encoding="utf-8"),
        args[1].read_bytes(),
        gold_lattice=(FIX / "yap_alternative.lattice").read_text(encoding="utf-8"),
        pred_lattice=(YAP / "output.mapping").read_text(encoding="utf-8"),
        name="output",
    )
    assert in_memory.segeval == api.segeval and in_memory.ted_labeled == api.ted_labeled


# ---------------------------------------------------------------------------
# inputs


def test_every_kind_of_input_gives_the_same_result(ewt: tuple[Path, Path], tmp_path: Path) -> None:
    conllu = pytest.importorskip("conllu")
    gold, system = ewt
    expected = evalcore.attach(gold, system).to_dict()
    gz = tmp_path / "system.conllu.gz"
    gz.write_bytes(gzip.compress(system.read_bytes()))
    text = system.read_text(encoding="utf-8")
    for given in (
        str(system),
        gz,
        text,
        system.read_bytes(),
        evalcore.read(system),
        iter(evalcore.read(system)),
        conllu.parse(text),
    ):
        assert evalcore.attach(gold, given).to_dict() == expected, type(given)
    one = conllu.parse(text)[0]  # one TokenList: one sentence
    first = evalcore.attach(gold, system, per_sentence=True).per_sentence[0][1]
    assert evalcore.attach(evalcore.read(gold)[:1], one).counts == first


def test_constituency_trees_in_memory(tmp_path: Path) -> None:
    gold, test = (
        excerpt_lines(FAR_GOLD, tmp_path / "g.psd", 30),
        excerpt_lines(FAR_TEST, tmp_path / "t.psd", 30),
    )
    from_files = evalcore.parseval(gold, test, function_separators="-=*")
    from_trees = evalcore.parseval(evalcore.read(gold), evalcore.read(test), function_separators="-=*")
    assert from_trees.all == from_files.all
    assert [type(t).__name__ for t in evalcore.read(gold, format="ptb")[:1]] == ["Tree"]


@dataclass
class FakeToken:
    """A stand-in for ``spacy.tokens.Token``: what :mod:`evalcore.formats.objects` reads."""

    i: int
    text: str
    dep_: str
    head_i: int
    doc: FakeDoc
    whitespace_: str = " "
    lemma_: str = ""
    pos_: str = ""
    tag_: str = ""

    @property
    def head(self) -> FakeToken:
        return self.doc.tokens[self.head_i]


@dataclass
class FakeSpan:
    start: int
    tokens: list[FakeToken]

    def __iter__(self) -> Iterator[FakeToken]:
        return iter(self.tokens)


@dataclass
class FakeDoc:
    """A stand-in for a parsed ``spacy.tokens.Doc``: ``sents``, ``vocab``, ``has_annotation``."""

    tokens: list[FakeToken] = field(default_factory=list)
    bounds: list[tuple[int, int]] = field(default_factory=list)
    parsed: bool = True
    vocab: object = None

    @property
    def sents(self) -> Iterator[FakeSpan]:
        return (FakeSpan(a, self.tokens[a:b]) for a, b in self.bounds)

    def has_annotation(self, what: str) -> bool:
        return self.parsed and what == "DEP"


def fake_doc(sentences: list[list[tuple[str, int, str]]]) -> FakeDoc:
    """``(form, head index in the Doc, spaCy label)`` per token; a token that is its own head is a root."""
    doc = FakeDoc()
    for words in sentences:
        start = len(doc.tokens)
        for form, head, dep in words:
            doc.tokens.append(FakeToken(len(doc.tokens), form, dep, head, doc))
        doc.bounds.append((start, len(doc.tokens)))
    return doc


def dep_tree(words: list[tuple[str, int, str]]) -> DepTree:
    return DepTree(tuple(Token(i, f, head=h, deprel=d) for i, (f, h, d) in enumerate(words, start=1)))


def test_a_spacy_doc_is_read_as_its_trees() -> None:
    gold = [
        dep_tree([("I", 2, "nsubj"), ("saw", 0, "root"), ("her", 2, "obj")]),
        dep_tree([("She", 2, "nsubj"), ("left", 0, "root")]),
    ]
    # one Doc of two sentences; heads are Doc indices.  "her" is attached to "I" (wrong head);
    # spaCy names its roots ROOT, read as "root".
    doc = fake_doc(
        [
            [("I", 1, "nsubj"), ("saw", 1, "ROOT"), ("her", 0, "obj")],
            [("She", 4, "nsubj"), ("left", 4, "ROOT")],
        ]
    )
    result = evalcore.attach(gold, doc)
    # hand count: 5 tokens, 4 right heads (all but "her"), and those 4 have the right labels
    assert (result.score.tokens, result.score.uas, result.score.las) == (5, 4 / 5, 4 / 5)
    assert evalcore.attach(gold, [doc]).to_dict() == result.to_dict()  # a list of Docs
    trees = evalcore.read(doc)
    assert [t.heads for t in trees] == [(2, 0, 1), (2, 0)]  # type: ignore[union-attr]
    assert [t.deprels for t in trees] == [("nsubj", "root", "obj"), ("nsubj", "root")]  # type: ignore[union-attr]
    with pytest.raises(evalcore.InputFormatError, match="no dependency parse"):
        evalcore.attach(gold, FakeDoc(parsed=False))


def test_a_conllu_tokenlist_is_read_through_evalcores_reader() -> None:
    class Serialized:  # what evalcore asks of a conllu.TokenList: serialize()
        def serialize(self) -> str:
            return "1\tIt\t_\t_\t_\t_\t2\tnsubj\t_\t_\n2\tworks\t_\t_\t_\t_\t0\troot\t_\t_\n"

    gold = "1\tIt\t_\t_\t_\t_\t2\tnsubj\t_\t_\n2\tworks\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
    assert evalcore.attach(gold, [Serialized()]).score.las == 1.0
    assert evalcore.attach(gold, Serialized()).score.las == 1.0


def test_wrong_inputs_are_typed_errors(tmp_path: Path) -> None:
    gold = [dep_tree([("a", 0, "root")])]
    with pytest.raises(TypeError, match="cannot read a int"):
        evalcore.attach(gold, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="cannot read a dict"):
        evalcore.attach(gold, [{"form": "a"}])
    with pytest.raises(TypeError, match="mixed"):
        evalcore.read([gold[0], evalcore.read(SAMPLE / "sample.gld")[0]])
    missing = tmp_path / "nope.conllu"
    with pytest.raises(evalcore.InputFormatError, match="cannot open") as err:
        evalcore.attach(gold, missing)
    assert err.value.file == str(missing)
    with pytest.raises(evalcore.MismatchError):
        evalcore.attach(gold, gold * 2)
    bad = "1\ta\t_\t_\t_\t_\tx\troot\t_\t_\n\n"
    with pytest.raises(evalcore.InputFormatError) as err:
        evalcore.attach(gold, bad)
    assert (err.value.file, err.value.line) == ("system", 1)
    with pytest.raises(ValueError, match="max_len"):
        evalcore.attach(gold, gold, max_len=-1)


def test_the_lattice_function_survives_the_lattice_package() -> None:
    """``evalcore.lattice`` is the function even after ``evalcore.lattice.reading`` is imported."""
    code = "import evalcore.lattice.reading, evalcore; print(callable(evalcore.lattice))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


# ---------------------------------------------------------------------------
# tables


def test_tables_and_frames() -> None:
    pytest.importorskip("pandas")
    gold, test = SAMPLE / "sample.gld", SAMPLE / "sample.tst"
    result = evalcore.parseval(gold, test, prm=SAMPLE / "sample.prm")
    df = result.to_pandas()
    assert list(df["subset"]) == ["all", "len<=40"]
    assert df.attrs["signature"] == result.signature
    # evalb's sample.rsl: recall 87.76 (all), 81.25 (len<=40)
    assert [round(100 * r, 2) for r in df["recall"]] == [87.76, 81.25]
    fr = evalcore.freval(gold, test, max_size=2).to_pandas()
    assert list(fr["size"]) == [1, 2, "all"]
    table = result.table()
    assert table.headers == tuple(df.columns) and len(table.rows) == 2


def test_the_html_table_escapes_every_name(tmp_path: Path) -> None:
    ud = excerpt_conllu(UD, tmp_path / "ud.conllu", 3)
    result = evalcore.tedeval({"a<b>&c": (ud, {'<script>x</script>&"q"': ud})}, shuffles=10)
    html = result._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;x&lt;/script&gt;&amp;&quot;q&quot;" in html
    assert "a&lt;b&gt;&amp;c" in html
    root = ET.fromstring(html)  # well-formed
    assert root.tag == "table" and result.signature in "".join(root.itertext())
    cells = ["".join(td.itertext()) for td in root.iter("td")]
    assert '<script>x</script>&"q"' in cells and "1.0000" in cells


# ---------------------------------------------------------------------------
# drawings


HOSTILE = "<&>"


def test_a_dependency_tree_draws_itself_escaped() -> None:
    tree = dep_tree([(HOSTILE, 2, "a&b"), ("x<y", 0, "root")])
    svg = tree._repr_svg_()
    assert svg is not None and svg.startswith("<svg")
    text = "".join(ET.fromstring(svg).itertext())
    assert HOSTILE in text and "x<y" in text and "a&b" in text
    real = evalcore.read(EWT_GOLD)[0]._repr_svg_()
    assert real is not None and "GoogleOS" in real


@needs_dot
def test_constituency_function_trees_and_lattices_draw_themselves() -> None:
    tree = evalcore.read(f"(S (NP ({HOSTILE} x&y)) (VP (V sleeps)))\n")[0]
    svg = tree._repr_svg_()
    assert svg is not None
    text = "".join(ET.fromstring(svg).itertext())
    assert HOSTILE in text and "x&y" in text and "sleeps" in text
    lattice = evalcore.read(YAP / "input.lattice", format="lattice")[0]
    lsvg = lattice._repr_svg_()
    assert lsvg is not None and "בגן" in "".join(ET.fromstring(lsvg).itertext())
    ud, sud = evalcore.read(UD)[0], evalcore.read(SUD)[0]
    report = evalcore.inspect(golds={"ud": ud, "sud": sud}, parses={"<p>": ("ud", sud)})
    fsvg = report.general._repr_svg_()  # a function tree
    assert fsvg is not None and ud.forms[1] in "".join(ET.fromstring(fsvg).itertext())  # type: ignore[union-attr]


@needs_dot
def test_edit_scripts_show_their_drawings_and_operations() -> None:
    ud, sud = evalcore.read(UD)[0], evalcore.read(SUD)[0]
    report = evalcore.inspect(golds={"ud": ud, "sud": sud}, parses={"<p>": ("ud", sud)})
    html = report._repr_html_()
    root = ET.fromstring(html)
    assert len(root.findall(".//{http://www.w3.org/2000/svg}svg")) == 2  # parse, generalized gold
    assert "&lt;p&gt;" in html and "<p>:" not in html
    ted = report.parses[0].multiple[1]
    script = ted._repr_html_()
    rows = ET.fromstring(script).findall(".//tr")
    assert len(rows) == 1 + len(ted.script)  # the header, one row per operation
    assert str(ted.script[0]) in script.replace("&gt;", ">")


def test_without_graphviz_a_dot_drawing_falls_back_to_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``dot`` on the PATH: ``_repr_svg_`` is ``None`` (Jupyter then shows the text); the
    dependency drawing needs no Graphviz and an edit script's page shows its DOT, escaped."""
    import evalcore.notebook

    monkeypatch.setattr(evalcore.notebook.shutil, "which", lambda _name: None)
    tree = evalcore.read(f"(S (NP {HOSTILE}) (VP sleeps))\n")[0]
    assert tree._repr_svg_() is None
    assert dep_tree([(HOSTILE, 0, "root")])._repr_svg_() is not None
    ud, sud = evalcore.read(UD)[0], evalcore.read(SUD)[0]
    page = evalcore.inspect(golds={"ud": ud, "sud": sud}, parses={"p": ("ud", sud)})._repr_html_()
    assert "<svg" not in page and "digraph" in page
    ET.fromstring(page)  # the DOT text is escaped
