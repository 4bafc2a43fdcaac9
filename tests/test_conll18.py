"""The CoNLL 2018 shared-task evaluation (evalcore.metrics.conll18) against the official scorer.

* Parity: on the 9 CoNLL 2018 system outputs and spaCy's 2 EWT parses of ``../shared/data``, the
  scorer's ``-v`` and ``-c`` tables (committed in tests/fixtures/reference/conll18/, with the
  command that made them) equal evalcore's byte for byte.
* Hand-made cases (multiword tokens, sentence splits, tokenization), counted by hand below, and
  the alignment cases of the scorer's own unit tests (``TestAlignment`` in conll18_ud_eval.py:
  the expected aligned-word counts are the scorer's).
* Inputs the scorer refuses: typed errors with the scorer's message, file, line and sentence.
* Properties: system == gold scores 100 everywhere; per-sentence counts add up to the document;
  counts of two documents add up to the counts of their concatenation.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import ROOT, CliResult, load_script, run_module
from hypothesis import given
from hypothesis import strategies as st
from scorer_cases import SCORER_CASES, scorer_conllu

from evalcore.errors import InputFormatError, MismatchError, TreeStructureError
from evalcore.metrics.base import total
from evalcore.metrics.conll18 import METRICS, Conll18Counts, evaluate_conll18
from evalcore.report.conll18 import format_conll18_counts, format_conll18_table

FIXTURES = ROOT / "tests" / "fixtures" / "reference" / "conll18"


# the systems scripts/make_reference_fixtures.py made the fixtures of (one list)
SHARED_TASK: tuple[tuple[str, str], ...] = load_script("make_reference_fixtures").CONLL18_SYSTEMS
assert len(SHARED_TASK) == 9  # the 2 x 2 English and French systems and he_htb's five
PAIRS = [f"{lang}.{system}" for lang, system in SHARED_TASK] + ["en_ewt.spacy_gold_tok", "en_ewt.spacy_raw"]


def _files(data: Path, name: str) -> tuple[Path, Path]:
    lang, system = name.split(".", 1)
    if system.startswith("spacy_"):
        kind = system.removeprefix("spacy_").replace("_", "-")
        spacy = data / "parser_outputs" / "spacy_en_ewt_test"
        return (
            data / "en_ewt" / "en_ewt-ud-test.r2.16.conllu",
            spacy / f"en_ewt-ud-test.spacy-sm.{kind}.conllu",
        )
    folder = data / "parser_outputs" / "conll2018" / lang
    return folder / f"gold.{lang}.conllu.gz", folder / f"{system}.{lang}.conllu.gz"


@pytest.mark.slow
@pytest.mark.parametrize("name", PAIRS)
def test_tables_equal_the_scorers(data: Path, name: str) -> None:
    """Every figure of ``conll18_ud_eval.py -v`` and every count of ``-c``, byte for byte."""
    gold, system = _files(data, name)
    result = evaluate_conll18(gold, system)
    assert format_conll18_counts(result.scores) + "\n" == (FIXTURES / f"{name}.counts.txt").read_text()
    assert format_conll18_table(result.scores) + "\n" == (FIXTURES / f"{name}.verbose.txt").read_text()


def test_fixture_list_is_complete() -> None:
    """The committed fixtures are exactly the 11 pairs the issue names (both tables each)."""
    names = sorted(p.name for p in FIXTURES.glob("*.txt") if p.name != "COMMANDS.txt")
    assert names == sorted(f"{n}.{k}.txt" for n in PAIRS for k in ("counts", "verbose"))


@pytest.mark.slow
def test_per_sentence_counts_add_up_on_real_data(data: Path) -> None:
    """Raw-text system (different tokens and words): the gold-sentence counts add up to the document's."""
    gold, system = _files(data, "he_htb.UDPipe-Future")
    result = evaluate_conll18(gold, system, per_sentence=True)
    assert len(result.sentences) == result.counts.sentences_gold == 491
    assert total(result.sentences, Conll18Counts()) == result.counts
    # the per-sentence mode changes no number (fixture = the scorer's counts)
    assert (
        format_conll18_counts(result.scores) + "\n"
        == (FIXTURES / "he_htb.UDPipe-Future.counts.txt").read_text()
    )


# --------------------------------------------------------------------------- hand-made cases

Word = tuple[str, str, str, int, str]  # form, lemma, upos, head, deprel


def conllu(*sentences: list[Word | tuple[str, list[Word]]]) -> str:
    """CoNLL-U text; a ``(token form, [words])`` item is a multiword token."""
    out: list[str] = []
    for sent in sentences:
        i = 0
        for item in sent:
            if isinstance(item[1], list):
                token, words = item[0], item[1]
                out.append(f"{i + 1}-{i + len(words)}\t{token}\t_\t_\t_\t_\t_\t_\t_\t_")
            else:
                words = [item]  # type: ignore[list-item]
            for form, lemma, upos, head, deprel in words:  # type: ignore[misc]
                i += 1
                out.append(f"{i}\t{form}\t{lemma}\t{upos}\t_\t_\t{head}\t{deprel}\t_\t_")
        out.append("")
    return "\n".join(out) + "\n"


def counts_of(gold: str, system: str) -> dict[str, tuple[int, int, int, int | None]]:
    result = evaluate_conll18(gold.encode(), system.encode(), gold_name="gold", system_name="system")
    return {r.metric: (r.correct, r.gold, r.system, r.aligned) for r in result.scores}


def test_multiword_token_split_in_gold_only() -> None:
    """Gold splits French "du" into "de le"; the system keeps one word "du".

    Hand count: characters Il|parle|du|chat|. ; the multiword span is "du": gold words de, le vs
    system du, no equal FORM, so none align.  Aligned: Il parle chat . (4 of 6 gold, 5 system).
    Heads and labels of the 4 are right.  Content words (gold): Il nsubj, parle root, chat obl = 3;
    system: Il, parle, chat = 3 (du is case).  MLAS: chat's functional children are [de case,
    le det] in gold and [du case] in the system: wrong; Il and parle have none: right -> 2.
    Lemmas: gold "chat" has lemma "_", so any system lemma is right -> 4 of 4.
    """
    gold = conllu(
        [
            ("Il", "il", "PRON", 2, "nsubj"),
            ("parle", "parler", "VERB", 0, "root"),
            ("du", [("de", "de", "ADP", 5, "case"), ("le", "le", "DET", 5, "det")]),
            ("chat", "_", "NOUN", 2, "obl:arg"),
            (".", ".", "PUNCT", 2, "punct"),
        ]
    )
    system = conllu(
        [
            ("Il", "il", "PRON", 2, "nsubj"),
            ("parle", "parler", "VERB", 0, "root"),
            ("du", "du", "ADP", 4, "case"),
            ("chat", "chats", "NOUN", 2, "obl"),
            (".", ".", "PUNCT", 2, "punct"),
        ]
    )
    c = counts_of(gold, system)
    assert c["Tokens"] == (5, 5, 5, None)
    assert c["Sentences"] == (1, 1, 1, None)
    assert c["Words"] == (4, 6, 5, None)
    assert c["UPOS"] == c["UAS"] == c["LAS"] == c["Lemmas"] == (4, 6, 5, 4)  # obl:arg = obl
    assert c["CLAS"] == c["BLEX"] == (3, 3, 3, 3)
    assert c["MLAS"] == (2, 3, 3, 3)
    result = evaluate_conll18(gold.encode(), system.encode())
    words = result.get("Words")
    assert (words.precision, words.recall, words.f1) == (4 / 5, 4 / 6, 8 / 11)
    assert result.get("MLAS").aligned_accuracy == 2 / 3


def test_multiword_token_on_both_sides_aligns_by_lcs() -> None:
    """Spanish "dámelo" = dá me lo in gold; the system splits it as "dá melo": the LCS of the
    lower-cased FORMs aligns dá only (1 of 3 gold words, 1 of 2 system words)."""
    gold = conllu(
        [
            (
                "dámelo",
                [
                    ("dá", "dar", "VERB", 0, "root"),
                    ("me", "yo", "PRON", 1, "iobj"),
                    ("lo", "él", "PRON", 1, "obj"),
                ],
            )
        ]
    )
    system = conllu([("dámelo", [("DÁ", "dar", "VERB", 0, "root"), ("melo", "yo", "PRON", 1, "obj")])])
    c = counts_of(gold, system)
    assert c["Tokens"] == (1, 1, 1, None)
    assert c["Words"] == (1, 3, 2, None)
    assert c["UAS"] == c["LAS"] == c["Lemmas"] == (1, 3, 2, 1)
    assert c["CLAS"] == (1, 3, 2, 1)  # root, iobj, obj are content; aligned: dá (root)


def test_sentence_split_differs() -> None:
    """Gold has two sentences "A b ." "C d ."; the system one of six words, d attached to b.

    Sentences: the system span [0, 6) starts with gold [0, 3) but does not end with it: 0 of 2
    (precision 0 of 1).  Words all align (6).  UAS: C's system head d is aligned to gold d: right;
    d (gold root, system head b): wrong -> 5.  Content (nsubj, root): A b C d = 4 gold; system A
    b C d(parataxis) = 4; CLAS 3.
    """
    gold = conllu(
        [("A", "a", "X", 2, "nsubj"), ("b", "b", "X", 0, "root"), (".", ".", "PUNCT", 2, "punct")],
        [("C", "c", "X", 2, "nsubj"), ("d", "d", "X", 0, "root"), (".", ".", "PUNCT", 2, "punct")],
    )
    system = conllu(
        [
            ("A", "a", "X", 2, "nsubj"),
            ("b", "b", "X", 0, "root"),
            (".", ".", "PUNCT", 2, "punct"),
            ("C", "c", "X", 5, "nsubj"),
            ("d", "d", "X", 2, "parataxis"),
            (".", ".", "PUNCT", 5, "punct"),
        ]
    )
    c = counts_of(gold, system)
    assert c["Sentences"] == (0, 2, 1, None)
    assert c["Tokens"] == (6, 6, 6, None)
    assert c["Words"] == (6, 6, 6, None)
    assert c["UAS"] == c["LAS"] == (5, 6, 6, 6)
    assert c["CLAS"] == (3, 4, 4, 4)
    # and the other way round: system splits where gold does not
    back = counts_of(system, gold)
    assert back["Sentences"] == (0, 1, 2, None)
    assert back["UAS"] == (5, 6, 6, 6)


def test_tokenization_differs() -> None:
    """Gold "New York is big" (4 tokens), the system "NewYork is big" (3): same characters.

    Tokens and words right: is, big (2).  UAS: is -> big right, big root right -> 2.  Content:
    gold New compound, York nsubj, big root = 3; system NewYork nsubj, big root = 2; aligned content
    words: big -> CLAS 1 of (gold 3, system 2, aligned 1).  MLAS: big's functional children
    [is cop] on both sides, is aligned -> 1.
    """
    gold = conllu(
        [
            ("New", "New", "PROPN", 2, "compound"),
            ("York", "York", "PROPN", 4, "nsubj"),
            ("is", "be", "AUX", 4, "cop"),
            ("big", "big", "ADJ", 0, "root"),
        ]
    )
    system = conllu(
        [
            ("NewYork", "NewYork", "PROPN", 3, "nsubj"),
            ("is", "be", "AUX", 3, "cop"),
            ("big", "big", "ADJ", 0, "root"),
        ]
    )
    c = counts_of(gold, system)
    assert c["Tokens"] == (2, 4, 3, None)
    assert c["Words"] == (2, 4, 3, None)
    assert c["UAS"] == c["LAS"] == (2, 4, 3, 2)
    assert c["CLAS"] == c["MLAS"] == c["BLEX"] == (1, 3, 2, 1)


def test_space_inside_a_form_is_ignored() -> None:
    """Zs characters are removed from FORMs: gold "10 000" (one token) = system "10" "000"."""
    gold = conllu([("10\u00a0000", "10000", "NUM", 0, "root")])
    system = conllu([("10", "10", "NUM", 0, "root"), ("000", "000", "NUM", 1, "flat")])
    c = counts_of(gold, system)
    assert c["Tokens"] == (0, 1, 2, None)
    assert c["Words"] == (0, 1, 2, None)


def test_features_and_subtypes_as_the_scorer_compares_them() -> None:
    """UFeats keeps universal features only (in sorted order); deprel subtypes are dropped."""
    gold = "1\ta\ta\tX\tx1\tNumber=Sing|Foo=Bar|Case=Nom\t0\troot\t_\t_\n"
    gold += "2\tb\tb\tX\tx\t_\t1\tnmod:poss\t_\t_\n\n"
    system = "1\ta\ta\tX\tx2\tCase=Nom|Number=Sing\t0\troot\t_\t_\n2\tb\tb\tY\tx\tFoo=Baz\t1\tnmod\t_\t_\n\n"
    c = counts_of(gold, system)
    assert c["UFeats"] == (2, 2, 2, 2)  # Foo is not universal: "Case=Nom|Number=Sing" and "" on both sides
    assert c["XPOS"] == (1, 2, 2, 2)
    assert c["UPOS"] == (1, 2, 2, 2)
    assert c["AllTags"] == (0, 2, 2, 2)
    assert c["LAS"] == (2, 2, 2, 2)
    assert c["MLAS"] == (1, 2, 2, 2)  # b has UPOS X vs Y


def test_remembered_features_and_relations_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """FEATS and DEPREL normal forms are remembered up to a bound, and read alike past it."""
    from evalcore.metrics import conll18

    made: list[conll18._Normals] = []

    class Recorded(conll18._Normals):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(conll18, "_Normals", Recorded)
    monkeypatch.setattr(conll18, "_REMEMBERED", 3)

    def text(feats: str, rel: str) -> str:
        lines = (
            f"{i + 1}\tw{i}\tw\tX\t_\t{feats.format(i)}\t{min(i, 1)}\t{rel.format(i)}\t_\t_" for i in range(8)
        )
        return "\n".join(lines).replace("nmod:a0", "root").replace("nmod:b0", "root") + "\n\n"

    c = counts_of(text("Case=C{0}|Foo=F{0}", "nmod:a{0}"), text("Foo=G{0}|Case=C{0}", "nmod:b{0}"))
    assert c["UFeats"] == c["LAS"] == (8, 8, 8, 8)
    assert len(made) == 2  # one per file read: nothing is remembered across evaluations
    assert all(len(n.feats) <= 3 and len(n.relations) <= 3 for n in made)
    assert all(len(n.feats) == 3 and len(n.relations) == 3 for n in made)  # filled up to the bound


# (gold, system, aligned words): the scorer's own TestAlignment cases (tests/scorer_cases.py)
@pytest.mark.parametrize(("gold", "system", "aligned"), SCORER_CASES)
def test_scorer_alignment_cases(gold: list[str], system: list[str], aligned: int) -> None:
    g, s = scorer_conllu(gold), scorer_conllu(system)
    n_gold = sum(max(1, len(w.split(" ")) - 1) for w in gold)
    n_system = sum(max(1, len(w.split(" ")) - 1) for w in system)
    assert counts_of(g, s)["Words"] == (aligned, n_gold, n_system, None)


def test_scorer_refuses_different_text() -> None:
    """The scorer's ``test_exception``: gold "a", system "b"."""
    with pytest.raises(MismatchError) as err:
        evaluate_conll18(
            scorer_conllu(["a"]).encode(), scorer_conllu(["b"]).encode(), system_name="sys.conllu"
        )
    assert str(err.value) == (
        "sys.conllu:1: The concatenation of tokens in gold file and in system file differ! "
        "First 20 differing characters in gold file: 'a' and system file: 'b'"
    )


def test_text_mismatch_names_line_and_sentence() -> None:
    gold = conllu([("a", "a", "X", 0, "root")], [("bcd", "b", "X", 0, "root"), ("e", "e", "X", 1, "dep")])
    system = "# sent_id = s1\n" + conllu([("a", "a", "X", 0, "root")]) + "# sent_id = s2\n"
    system += conllu([("b", "b", "X", 0, "root"), ("xd", "x", "X", 1, "dep")])
    with pytest.raises(MismatchError) as err:
        evaluate_conll18(gold.encode(), system.encode(), system_name="sys")
    e = err.value
    assert (e.file, e.line, e.sentence) == ("sys", 6, "s2")
    assert "First 20 differing characters in gold file: 'cde' and system file: 'xd'" in e.message


def test_one_file_longer_is_a_mismatch() -> None:
    gold = conllu([("a", "a", "X", 0, "root")], [("b", "b", "X", 0, "root")])
    system = conllu([("a", "a", "X", 0, "root")])
    with pytest.raises(MismatchError, match="in gold file: 'b' and system file: ''"):
        evaluate_conll18(gold.encode(), system.encode())


ROOT_LINE = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n"


@pytest.mark.parametrize(
    ("text", "error", "message", "line"),
    [
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t0\troot\t_\t_\n\n", TreeStructureError,
         "There are 2 roots in a sentence", 3),
        ("1\ta\ta\tX\t_\t_\t2\tdep\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n", TreeStructureError,
         "There is a cycle in a sentence", 3),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t3\tdep\t_\t_\n\n", TreeStructureError,
         "HEAD '3' points outside of the sentence", 3),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\n\n", InputFormatError,
         "The CoNLL-U line does not contain 10 tab-separated columns", 1),
        (ROOT_LINE, InputFormatError, "The CoNLL-U file does not end with empty line", 1),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n3\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n", InputFormatError,
         "Incorrect word ID '3' for word 'b', expected '2'", 2),
        ("1\ta\ta\tX\t_\t_\t-1\troot\t_\t_\n\n", InputFormatError, "HEAD cannot be negative", 1),
        ("1\ta\ta\tX\t_\t_\tx\troot\t_\t_\n\n", InputFormatError, "Cannot parse HEAD 'x'", 1),
        ("1\t \ta\tX\t_\t_\t0\troot\t_\t_\n\n", InputFormatError,
         "There is an empty FORM in the CoNLL-U file", 1),
        ("1-x\tab\t_\t_\t_\t_\t_\t_\t_\t_\n\n", InputFormatError,
         "Cannot parse multi-word token ID '1-x'", 1),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n\n", TreeStructureError, "There are 0 roots in a sentence", 3),
    ],
)  # fmt: skip
def test_refused_input(text: str, error: type[Exception], message: str, line: int) -> None:
    """The scorer's UDError messages (without its "at line N", which is the FILE:LINE prefix)."""
    good = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n"
    with pytest.raises(error) as err:
        evaluate_conll18(good.encode(), text.encode(), system_name="sys.conllu")
    assert err.value.message.startswith(message)  # type: ignore[attr-defined]
    assert (err.value.file, err.value.line) == ("sys.conllu", line)  # type: ignore[attr-defined]
    assert str(err.value).startswith(f"sys.conllu:{line}: {message}")


def test_gold_error_wins_over_an_earlier_system_error() -> None:
    """The scorer reads the whole gold file first: a late gold error is reported, not the system's."""
    good = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n"
    bad_gold = good * 3 + "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n"
    bad_system = "1\ta\ta\tX\t_\t_\t0\troot\t_\n\n" + good * 3
    with pytest.raises(TreeStructureError) as err:
        evaluate_conll18(bad_gold.encode(), bad_system.encode(), gold_name="g", system_name="s")
    assert (err.value.file, err.value.line) == ("g", 9)


def test_format_error_wins_over_a_text_mismatch() -> None:
    gold = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n" + "1\tb\tb\tX\t_\t_\t0\troot\t_\t_\n"  # no final empty line
    system = "1\tz\tz\tX\t_\t_\t0\troot\t_\t_\n\n"
    with pytest.raises(InputFormatError, match="does not end with empty line"):
        evaluate_conll18(gold.encode(), system.encode())


def test_signature_and_zero_aligned_accuracy() -> None:
    """No content word aligned: CLAS aligned accuracy is 0 (the scorer prints 0.00, and a blank
    in the -c table), Words' is None (blank)."""
    gold = conllu([("ab", "ab", "X", 0, "root")])
    system = conllu([("a", "a", "X", 0, "root"), ("b", "b", "X", 1, "dep")])
    result = evaluate_conll18(gold.encode(), system.encode())
    assert result.signature.startswith("conll18|align:chars|deprel:base|feats:universal")
    assert result.get("CLAS").aligned_accuracy == 0.0
    assert result.get("Words").aligned_accuracy is None
    table = format_conll18_table(result.scores).splitlines()
    assert table[12] == "CLAS       |      0.00 |      0.00 |      0.00 |      0.00"
    assert table[4] == "Words      |      0.00 |      0.00 |      0.00 |"
    assert (
        format_conll18_counts(result.scores).splitlines()[12]
        == "CLAS       |         0 |         1 |         2 |          "
    )


# --------------------------------------------------------------------------- properties

DEPRELS = ["nsubj", "obj", "root", "det", "case", "punct", "amod", "aux:pass", "nmod:poss", "cc", "conj"]
FORMS = ["a", "b", "ab", "c", "A", "ß", "x y"]


@st.composite
def sentence(draw: Callable[..., object]) -> list[Word | tuple[str, list[Word]]]:
    n = draw(st.integers(1, 7))
    order: list[int] = draw(st.permutations(range(1, n + 1)))  # type: ignore[assignment]
    heads = {order[0]: 0}  # the first word of a random order is the root, each other word
    for k in range(1, n):  # attaches to a word before it in that order: a tree
        heads[order[k]] = draw(st.sampled_from(order[:k]))  # type: ignore[assignment]
    words: list[Word] = []
    for w in range(1, n + 1):
        rel = "root" if heads[w] == 0 else draw(st.sampled_from(DEPRELS))
        words.append((draw(st.sampled_from(FORMS)), draw(st.sampled_from(["_", "l"])), "X", heads[w], rel))
    items: list[Word | tuple[str, list[Word]]] = []
    i = 0
    while i < n:
        size = draw(st.integers(1, 3))
        chunk = words[i : i + size]
        if len(chunk) > 1:
            items.append(("".join(w[0] for w in chunk), chunk))
        else:
            items.append(chunk[0])
        i += size
    return items


documents = st.lists(sentence(), min_size=1, max_size=4)


@given(documents)
def test_system_equal_to_gold_scores_100(doc: list[list[Word | tuple[str, list[Word]]]]) -> None:
    text = conllu(*doc).encode()
    result = evaluate_conll18(text, text, per_sentence=True)
    for row in result.scores:
        if row.gold:
            assert (row.precision, row.recall, row.f1) == (1.0, 1.0, 1.0), row.metric
            assert row.aligned_accuracy in (None, 1.0)
    assert [r.metric for r in result.scores] == list(METRICS)
    assert total(result.sentences, Conll18Counts()) == result.counts


def _perturb(
    doc: list[list[Word | tuple[str, list[Word]]]], flip: int
) -> list[list[Word | tuple[str, list[Word]]]]:
    """Change every ``flip``-th non-root label (same tokens and heads)."""
    out = []
    k = 0
    for sent in doc:
        items: list[Word | tuple[str, list[Word]]] = []
        for item in sent:
            words = item[1] if isinstance(item[1], list) else [item]
            new: list[Word] = []
            for w in words:  # type: ignore[union-attr]
                form, lemma, upos, head, rel = w  # type: ignore[misc]
                k += 1
                if head and k % flip == 0:
                    rel = "dep" if rel != "dep" else "obj"
                new.append((form, lemma, upos, head, rel))
            items.append((item[0], new) if isinstance(item[1], list) else new[0])  # type: ignore[arg-type]
        out.append(items)
    return out


@given(documents, documents, st.integers(1, 3))
def test_counts_of_documents_add(
    a: list[list[Word | tuple[str, list[Word]]]], b: list[list[Word | tuple[str, list[Word]]]], flip: int
) -> None:
    """counts(A) + counts(B) == counts(A then B); per-sentence counts add up to the document."""
    ga, gb = conllu(*a), conllu(*b)
    sa, sb = conllu(*_perturb(a, flip)), conllu(*_perturb(b, flip))
    ca = evaluate_conll18(ga.encode(), sa.encode()).counts
    cb = evaluate_conll18(gb.encode(), sb.encode()).counts
    both = evaluate_conll18((ga + gb).encode(), (sa + sb).encode(), per_sentence=True)
    assert ca + cb == both.counts
    assert total(both.sentences, Conll18Counts()) == both.counts
    assert both.counts.las <= both.counts.uas <= both.counts.words_aligned


def test_limits_bound_sentences_and_multiword_spans() -> None:
    """A sentence over the word limit, and a multiword span over it (made of small sentences:
    gold "ab" "cd" as two one-token sentences of two words each, system "a" + "bc" (b c) | "d",
    which chains the two gold tokens into one span of 4 gold and 4 system words)."""
    from evalcore.errors import LimitError
    from evalcore.limits import Limits

    three = conllu([("a", "a", "X", 0, "root"), ("b", "b", "X", 1, "dep"), ("c", "c", "X", 1, "dep")])
    with pytest.raises(LimitError, match="sentence has more than 2 words"):
        evaluate_conll18(three.encode(), three.encode(), limits=Limits(tokens=2))
    gold = conllu(
        [("ab", [("a", "a", "X", 0, "root"), ("b", "b", "X", 1, "dep")])],
        [("cd", [("c", "c", "X", 0, "root"), ("d", "d", "X", 1, "dep")])],
    )
    system = conllu(
        [("a", "a", "X", 0, "root"), ("bc", [("b", "b", "X", 1, "dep"), ("c", "c", "X", 1, "dep")])],
        [("d", "d", "X", 0, "root")],
    )
    assert counts_of(gold, system)["Words"] == (4, 4, 4, None)  # the span aligns all four by LCS
    with pytest.raises(LimitError, match="multiword span of 4 gold and 4 system words") as err:
        evaluate_conll18(gold.encode(), system.encode(), limits=Limits(tokens=3), system_name="s")
    assert str(err.value).startswith("s:1: ")


# --------------------------------------------------------------------------- the command line


@pytest.mark.slow
@pytest.mark.parametrize("name", PAIRS)
def test_cli_format_conll18_prints_the_scorers_table(
    data: Path, name: str, run_cli: Callable[..., CliResult]
) -> None:
    """``evalcore attach GOLD SYSTEM --format conll18`` = ``conll18_ud_eval.py -v``, byte for byte."""
    gold, system = _files(data, name)
    res = run_cli("attach", str(gold), str(system), "--format", "conll18")
    assert (res.code, res.err) == (0, "")
    assert res.out == (FIXTURES / f"{name}.verbose.txt").read_text()


@pytest.mark.slow
def test_cli_format_conll18_as_python_m_evalcore(data: Path) -> None:
    """The real entry point, on a raw-text system (spaCy on the raw text: other tokens and sentences)."""
    gold, system = _files(data, "en_ewt.spacy_raw")
    proc = run_module("attach", str(gold), str(system), "--format", "conll18")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == (FIXTURES / "en_ewt.spacy_raw.verbose.txt").read_text()


def test_cli_format_conll18_accepts_another_tokenization(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    """The scorer's TestAlignment case ``["abc", "d"]`` vs ``["a", "b", "c", "d"]`` (1 aligned word).

    Hand count: gold has 2 tokens/words, the system 4; only ``d`` is aligned (P 1/4, R 1/2,
    F1 1/3).  ``d``'s gold head is ``abc``, which no system word matches: UAS 0 of 1 aligned.
    """
    gold = write_file("gold.conllu", scorer_conllu(["abc", "d"]))
    system = write_file("system.conllu", scorer_conllu(["a", "b", "c", "d"]))
    res = run_cli("attach", gold, system, "--format", "conll18")
    assert (res.code, res.err) == (0, "")
    lines = res.out.splitlines()
    assert lines[:2] == [
        "Metric     | Precision |    Recall |  F1 Score | AligndAcc",
        "-----------+-----------+-----------+-----------+-----------",
    ]
    rows = {line.split("|")[0].strip(): line for line in lines[2:]}
    assert list(rows) == list(METRICS)
    assert rows["Tokens"] == "Tokens     |     25.00 |     50.00 |     33.33 |"
    assert rows["Sentences"] == "Sentences  |    100.00 |    100.00 |    100.00 |"
    assert rows["Words"] == "Words      |     25.00 |     50.00 |     33.33 |"
    assert rows["UPOS"] == "UPOS       |     25.00 |     50.00 |     33.33 |    100.00"
    assert rows["UAS"] == "UAS        |      0.00 |      0.00 |      0.00 |      0.00"


def test_cli_format_conll18_refuses_evalcores_own_options(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    gold = write_file("gold.conllu", scorer_conllu(["a", "b"]))
    res = run_cli("attach", gold, gold, "--format", "conll18", "--full-labels", "--max-len", "5")
    assert (res.code, res.out) == (2, "")
    assert res.err == (
        "evalcore attach: --format conll18 follows the CoNLL 2018 scorer's rules; "
        "--max-len, --labels full cannot be combined with it\n"
    )
    # --deprel-base (--labels universal) is the scorer's own rule: accepted
    same = run_cli("attach", gold, gold, "--format", "conll18", "--deprel-base")
    assert same.code == 0 and same.out == run_cli("attach", gold, gold, "--format", "conll18").out


def test_cli_format_conll18_text_mismatch_is_one_line(
    write_file: Callable[[str, str], str], run_cli: Callable[..., CliResult]
) -> None:
    gold = write_file("gold.conllu", scorer_conllu(["a"]))
    system = write_file("system.conllu", scorer_conllu(["b"]))
    res = run_cli("attach", gold, system, "--format", "conll18")
    assert (res.code, res.out) == (2, "")
    assert res.err.count("\n") == 1 and "Traceback" not in res.err
    assert res.err.startswith(f"{system}:1: ")
    assert "First 20 differing characters in gold file: 'a' and system file: 'b'" in res.err
