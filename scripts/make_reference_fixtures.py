"""Run the reference tools and write their outputs as test fixtures (tests/fixtures/reference/).

    python3 scripts/make_reference_fixtures.py --reftools /work/reftools [--data ../shared/data]

Run by hand, never in CI: it needs the reference tools built from their public
sources (see tests/fixtures/reference/README.md for how) and ``../shared/data``.
Only the tools' *outputs* are written (reports of numbers; no treebank text),
plus ``COMMANDS.txt`` with the exact command behind each file and
``MANIFEST.txt`` with the SHA-256 of the generated WSJ input files, which the
tests regenerate with ``tests/wsj_perturb.py`` and check before comparing.

Tools (under ``--reftools``):
  EVALB/evalb                       evalb 2006, compiled from its C source
  freval/bin                        the FREVAL Java tool (bastings.freval.Freval)
  conll2018/conll18_ud_eval.py      the CoNLL 2018 shared-task scorer
  ned/NED/NED.pl                    NED.pl (with ParseSentence.pm and POS.pm beside it)

``--only-conll18`` writes only ``conll18/`` (the scorer on the CoNLL 2018 shared-task outputs and
spaCy's EWT parses; its commands in ``conll18/COMMANDS.txt``).  ``--only-departures`` writes only
``departures/`` (``EVALB/evalb2000``, evalb with MAX_WORD_IN_SENT and MAX_BRACKET_IN_SENT 2000, and
the FREVAL tool on inputs users' files contain; its commands in ``departures/COMMANDS.txt``).
"""

from __future__ import annotations

import argparse
import gzip
import random
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from wsj_perturb import sha256, write_gum_pair, write_pair  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "reference"
EVALB_ASSETS = ROOT / "assets" / "evalb"
MAX_ERROR = "100000"
FREVAL_SIZES = (1, 2, 3, 4)
EVALB_FIXTURES = (
    "sample.sample_prm",
    "sample.COLLINS_prm",
    "sample.new_prm",
    "sample.labeled0_prm",
    "bug.sample_prm",
    "bug.COLLINS_prm",
    "bug.new_prm",
    "farpahc_split0",
    "wsj.1.COLLINS_prm",
    "wsj.2.COLLINS_prm",
    "wsj.3.new_prm",
)
# the FREVAL tool never applies equivalentWords: sample.prm without its EQ_WORD line (README)
FREVAL_FIXTURES = (
    "sample.noeqword_prm",
    "sample.COLLINS_prm",
    "sample.new_prm",
    "bug.COLLINS_prm",
    "bug.new_prm",
    "farpahc_split0",
    "wsj.1.COLLINS_prm",
    "wsj.3.new_prm",
)


@dataclass(frozen=True)
class Pair:
    """A gold and a test file scored with one parameter file."""

    name: str
    gold: Path
    test: Path
    prm: Path


class Recorder:
    """Runs commands and records them with readable roots ($REPO, $DATA, $REFTOOLS, $TMP)."""

    def __init__(self, roots: dict[str, Path]) -> None:
        self.roots = roots
        self.lines: list[str] = []

    def show(self, arg: str) -> str:
        for name, path in self.roots.items():
            arg = arg.replace(str(path), f"${name}")
        return arg

    def run(self, argv: list[str], fixture: str, *, cwd: Path | None = None, note: str = "") -> str:
        res = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, check=False)
        if res.returncode != 0:
            raise SystemExit(f"failed ({res.returncode}): {shlex.join(argv)}\n{res.stderr}")
        where = f"(cd {self.show(str(cwd))} && " if cwd else ""
        cmd = self.show(shlex.join(argv))
        self.lines.append(f"{fixture}:\n    {where}{cmd}{')' if cwd else ''}{note}")
        return res.stdout


def write(rel: str, text: str) -> None:
    path = OUT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if rel.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    else:
        path.write_text(text, encoding="utf-8")


def derived_prms() -> tuple[Path, Path]:
    """evalb's sample.prm unlabeled, and without its EQ_WORD line (see the README)."""
    sample = (EVALB_ASSETS / "sample" / "sample.prm").read_text(encoding="utf-8")
    labeled0 = sample.replace("LABELED 1 ", "LABELED 0 ", 1)
    assert labeled0 != sample
    noeq = "".join(x for x in sample.splitlines(keepends=True) if not x.startswith("EQ_WORD"))
    write("prm/sample_labeled0.prm", labeled0)
    write("prm/sample_noeqword.prm", noeq)
    return OUT / "prm" / "sample_labeled0.prm", OUT / "prm" / "sample_noeqword.prm"


def freval_properties(prm: Path) -> str:
    """The FREVAL tool's properties equivalent to an evalb parameter file (size limit left as @L@)."""
    lists: dict[str, list[str]] = {k: [] for k in ("DELETE_LABEL", "DELETE_LABEL_FOR_LENGTH", "QUOTE_LABEL")}
    eq: dict[str, list[str]] = {"EQ_LABEL": [], "EQ_WORD": []}
    labeled, cutoff = "true", "40"
    for line in prm.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        key = parts[0]
        if key == "LABELED":
            labeled = "true" if parts[1] == "1" else "false"
        elif key == "CUTOFF_LEN":
            cutoff = parts[1]
        elif key in eq:
            eq[key].append("===".join(parts[1:3]))
        elif key in lists:
            lists[key].append(parts[1])
    # an empty equivalence list makes the tool read pair[1] of a one-element array: a placeholder pair
    none = "__none__===__none__"
    return (
        "Freval.debug=0\n"
        f"Freval.maxErrors={MAX_ERROR}\n"
        f"Freval.cutOffLengths={cutoff}\n"
        f"Freval.labeled={labeled}\n"
        "Freval.adjustLabels=true\n"
        "Freval.fragmentSizeLimit=@L@\n"
        f"Freval.deleteLabels={' '.join(lists['DELETE_LABEL'])}\n"
        f"Freval.deleteLabelsForLength={' '.join(lists['DELETE_LABEL_FOR_LENGTH'])}\n"
        f"Freval.quoteLabels={' '.join(lists['QUOTE_LABEL'])}\n"
        f"Freval.equivalentLabels={' '.join(eq['EQ_LABEL']) or none}\n"
        f"Freval.equivalentWords={' '.join(eq['EQ_WORD']) or none}\n"
    )


def freval_summary(stdout: str) -> str:
    """The tool's ``=== Summary (All) ===`` block, through its FLR/FLP/F1 line."""
    lines = stdout.splitlines()
    start = lines.index("=== Summary (All) ===")
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("-----"))
    return "\n".join(lines[start : end + 2]) + "\n"


def conllu_heads(src: Path, dst: Path) -> None:
    """NED.pl's one-column input: each word's HEAD, a blank line between sentences."""
    opener = gzip.open if src.suffix == ".gz" else open
    out = []
    with opener(src, "rt", encoding="utf-8") as f:  # type: ignore[operator]
        for line in f:
            line = line.rstrip("\n")
            if not line:
                out.append("")
            elif not line.startswith("#"):
                cols = line.split("\t")
                if cols[0].isdigit():
                    out.append(cols[6])
    dst.write_text("\n".join(out) + "\n", encoding="utf-8")


def gunzip(src: Path, dst: Path) -> Path:
    dst.write_bytes(gzip.decompress(src.read_bytes()) if src.suffix == ".gz" else src.read_bytes())
    return dst


CONLL18_SYSTEMS = (
    ("en_ewt", "UDPipe-Future"),
    ("en_ewt", "conll18-baseline"),
    ("fr_gsd", "UDPipe-Future"),
    ("fr_gsd", "conll18-baseline"),
    ("he_htb", "UDPipe-Future"),
    ("he_htb", "conll18-baseline"),
    ("he_htb", "HIT-SCIR-18"),
    ("he_htb", "ONLP-lab"),
    ("he_htb", "Stanford-18"),
)


def conll18_fixtures(ref: Path, data: Path, tmp: Path) -> None:
    """``conll18_ud_eval.py -v`` and ``-c`` on the CoNLL 2018 systems (parsed from raw text) and on
    spaCy's EWT parses (gold words and raw text); written to ``conll18/`` with its own COMMANDS.txt."""
    rec = Recorder({"TMP": tmp, "REFTOOLS": ref, "DATA": data, "REPO": ROOT})
    scorer = str(ref / "conll2018" / "conll18_ud_eval.py")
    shared = data / "parser_outputs" / "conll2018"
    pairs: list[tuple[str, Path, Path]] = [
        (
            f"{lang}.{system}",
            shared / lang / f"gold.{lang}.conllu.gz",
            shared / lang / f"{system}.{lang}.conllu.gz",
        )
        for lang, system in CONLL18_SYSTEMS
    ]
    spacy = data / "parser_outputs" / "spacy_en_ewt_test"
    ewt = data / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
    pairs += [
        ("en_ewt.spacy_gold_tok", ewt, spacy / "en_ewt-ud-test.spacy-sm.gold-tok.conllu"),
        ("en_ewt.spacy_raw", ewt, spacy / "en_ewt-ud-test.spacy-sm.raw.conllu"),
    ]
    for name, gold, system in pairs:
        g = gunzip(gold, tmp / f"conll18.{name}.gold.conllu")
        t = gunzip(system, tmp / f"conll18.{name}.system.conllu")
        rec.lines.append(
            f"$TMP/conll18.{name}.gold.conllu, .system.conllu:\n"
            f"    gunzip -c (or cp) of {rec.show(str(gold))}, {rec.show(str(system))}"
        )
        for flag, kind in (("-v", "verbose"), ("-c", "counts")):
            rel = f"conll18/{name}.{kind}.txt"
            write(rel, rec.run([sys.executable, scorer, flag, str(g), str(t)], rel, note=" (stdout)"))
    write("conll18/COMMANDS.txt", "\n".join(rec.lines) + "\n")


# ---------------------------------------------------------------------------
# departures/: inputs users' files contain where evalcore once read otherwise than evalb


DEPARTURES = ("first_line_unbalanced", "root_label", "nbsp_word", "empty_word")
"""The four reproducers of ``$DATA/evalb/departures`` (copied with evalb's output as it is there)."""

_G3 = (
    "( (S (NP (NN a)) (VP (VB b))) )",
    "( (S (NP (NN c)) (VP (VB d))) )",
    "( (S (NP (NN e)) (VP (VB f))) )",
)
_B3 = (  # each line of _G3 with the ")" of its NP left out
    "( (S (NP (NN a) (VP (VB b))) )",
    "( (S (NP (NN c) (VP (VB d))) )",
    "( (S (NP (NN e) (VP (VB f))) )",
)
_ROOT = (
    "(ROOT (S (NP (NNP Dvorak)) (VP (VBD was) (NP (DT a) (NN composer))) (. .)))",
    "(ROOT (S (NP (NNP Dvorak)) (VBD was) (NP (DT a) (NN composer)) (. .)))",
)


def _random_tree(rng: random.Random, words: list[str], depth: int = 0) -> list[str]:
    """A bracketing over ``words`` as tokens: ``(LABEL``, ``)`` and whole preterminals ``(TAG word)``."""
    if len(words) == 1:
        return [f"({rng.choice(['NN', 'VB', 'DT', 'JJ', ',', '.', 'CD'])} {words[0]})"]
    cut = sorted(rng.sample(range(1, len(words)), min(len(words) - 1, rng.randint(1, 3))))
    parts = [words[a:b] for a, b in zip([0, *cut], [*cut, len(words)], strict=True)]
    label = rng.choice(["S", "NP", "VP", "PP", "SBAR", "ADJP", "NP-SBJ", "PP-LOC=2", "-NONE-", "X"])
    out = [f"({label}"]
    for part in parts:
        out += _random_tree(rng, part, depth + 1)
    if rng.random() < 0.1:
        out.insert(rng.randint(1, len(out)), "(-NONE- *T*-1)")
    return [*out, ")"]


def _break(rng: random.Random, toks: list[str]) -> list[str]:
    """One of the changes users' files have (never a ')' too many nor a word ``)`` does not close,
    on which evalb reads outside its stack or stops)."""
    toks = list(toks)
    kind = rng.choice(["drop", "drop", "cut", "cut", "empty", "notag", "bracket", "nbsp", "label", "word"])
    closes = [i for i, t in enumerate(toks) if t == ")"]
    terms = [i for i, t in enumerate(toks) if t.endswith(")") and " " in t]
    opens = [i for i, t in enumerate(toks) if not t.endswith(")")]  # "(LABEL"
    if (
        (kind == "drop" and not closes)
        or (kind == "cut" and len(toks) < 2)
        or (kind in ("empty", "notag", "nbsp", "word") and not terms)
        or (kind == "label" and not opens)
    ):
        return toks
    if kind == "drop":
        for i in sorted(rng.sample(closes, rng.randint(1, min(3, len(closes)))), reverse=True):
            del toks[i]
    elif kind == "cut":  # after a ")": a line ending with "(LABEL" makes evalb read its stale buffer
        toks = toks[: rng.choice([i + 1 for i, t in enumerate(toks[:-1]) if t.endswith(")")] or [len(toks)])]
    elif kind in ("empty", "notag", "nbsp"):
        i = rng.choice(terms)
        tag, word = toks[i][1:-1].split(" ")
        toks[i] = {"empty": f"({tag} )", "notag": f"( {word})", "nbsp": f"({tag} {word}\u00a0x)"}[kind]
    elif kind == "bracket":
        toks.insert(rng.randint(1, len(toks) - 1), rng.choice(["(X)", "()"]))
    elif kind == "label":
        i = rng.choice(opens)
        toks[i] = rng.choice(["(ROOT", "(TOP", "(", "(NP", "(S1"])
    else:
        del toks[rng.choice(terms)]
    return toks


def random_lines(seed: int, n: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``n`` gold and test lines (seeded): made-up trees of 2-12 words, the test a copy with none, one or
    two of :func:`_break`'s changes (a tenth of the gold lines changed too); ``(ROOT``/``( `` wraps."""
    rng = random.Random(seed)
    gold: list[str] = []
    test: list[str] = []
    for k in range(n):
        words = [f"w{k}_{i}" for i in range(rng.randint(2, 12))]
        toks = _random_tree(rng, words)
        wrap = rng.choice(["", "(", "(ROOT", "(TOP"])
        if wrap:
            toks = [wrap, *toks, ")"]
        g, t = toks, toks
        for _ in range(rng.randint(0, 2)):
            t = _break(rng, t)
        if rng.random() < 0.1:
            g = _break(rng, g)
        gold.append(" ".join(g))
        test.append(" ".join(t))
    return tuple(gold), tuple(test)


@dataclass(frozen=True)
class Variation:
    """A gold and a test file written here (one sentence a line), scored by evalb with ``prm``
    (a file of ``assets/evalb/`` or of ``fixtures/reference/prm/``) and ``options``."""

    name: str
    gold: tuple[str, ...]
    test: tuple[str, ...]
    prm: str = "COLLINS.prm"
    options: tuple[str, ...] = ()
    what: str = ""


VARIATIONS = (
    Variation("unbalanced_gold", (_B3[0], *_G3[1:]), _G3, what="the gold's first line lacks one ')'"),
    Variation("unbalanced_middle", _G3, (_G3[0], _B3[1], _G3[2]), what="the second test line lacks one ')'"),
    Variation("unbalanced_two_lines", _G3, (_B3[0], _G3[1], _B3[2]), what="test lines 1 and 3 lack one ')'"),
    Variation(
        "unbalanced_both_sides", (_B3[0], _G3[1]), (_B3[0], _G3[1]), what="gold and test line 1 lack one ')'"
    ),
    Variation(
        "unbalanced_truncated",
        _G3[:2],
        ("( (S (NP (NN a)) (VP (VB b)", _G3[1]),
        what="a test line cut after its last word: three ')' missing",
    ),
    Variation(
        "unbalanced_label_at_end",
        _G3[:2],
        ("( (S (NP (NN a)) (VP (VB b)) (NP", _G3[1]),
        what="a test line ending with '(NP': evalb's 'More than two elements in a bracket', then unbalanced",
    ),
    Variation(
        "unbalanced_open_late",
        ("( (S (NN a) (NN b) (VP (VB c)", "( (S (NP (NN a) (NN b)) (VP (VB c)"),
        ("( (S (NN a) (NN b) (VP (VB c)", "( (S (NN a) (NP (NN b) (VP (VB c)"),
        what="gold and test lines left open, a bracket opening after every bracket that closes",
    ),
    Variation(
        "unbalanced_label_at_end_stale",
        ("(PP (. w164_0) (DT w164_1) )", "(TOP (PP"),
        ("(PP (. w164_0) ( w164_1)", "(TOP (PP (NN w165_0) (NP-SBJ (NN w165_1) (DT w165_2) ) (, w165_3) ) )"),
        what="a gold line ending with '(PP' read after a longer line: evalb reads past the end of the line "
        "into what its buffer held (two words there); evalcore does not",
    ),
    Variation(
        "unbalanced_no_words",
        _G3[:2],
        ("( (S (NP", _G3[1]),
        what="a test line with no word, unbalanced: a skip sentence with two error messages",
    ),
    Variation(
        "unbalanced_length_unmatch",
        _G3[:2],
        ("( (S (NP (NN a) (NN x) (VP (VB b))) )", _G3[1]),
        what="unbalanced and a word more: two error messages, no numbers",
    ),
    Variation(
        "unbalanced_max_error",
        _G3,
        ("( (S (NP (NN a) (NN x) (VP (VB b))) )", "( (S (NP (NN c) (NN x) (VP (VB d))) )", _G3[2]),
        options=("-e", "2"),
        what="two error messages a line and -e 2: evalb exits at its 4th message, on line 2",
    ),
    Variation(
        "unbalanced_quote_repair",
        ('( (S (NN ") (NP (NN a)) (VP (VB b))) )', _G3[1]),
        ('( (S (`` ") (NP (NN a)) (VP (VB b)))', _G3[1]),
        prm="new.prm",
        what="new.prm's quote repair puts a deleted quote back into a line left unbalanced",
    ),
    Variation(
        "too_many_close",
        _G3[:2],
        ("( (S (NP (NN a))) (VP (VB b))) )", _G3[1]),
        what="one ')' too many: evalb reads before its stack array (C undefined behaviour)",
    ),
    Variation(
        "word_not_closed",
        _G3[:2],
        ("( (S (NP (NN a )) (VP (VB b))) )", _G3[1]),
        what="'(NN a )': evalb loops on 'Reading sentence' until MAX_ERROR stops it (exit 1)",
    ),
    Variation("root_new_prm", _ROOT[:1], _ROOT[1:], prm="new.prm", what="the ROOT trees under new.prm"),
    Variation(
        "root_sample_prm", _ROOT[:1], _ROOT[1:], prm="sample.prm", what="the ROOT trees under sample.prm"
    ),
    Variation(
        "root_delete_label",
        _ROOT[:1],
        _ROOT[1:],
        prm="collins_delete_root.prm",
        what="the ROOT trees with COLLINS.prm plus DELETE_LABEL ROOT (= evalcore --delete-root)",
    ),
    Variation(
        "root_against_outer",
        ("( (S (NP (NNP Dvorak)) (VP (VBD was) (NP (DT a) (NN composer))) (. .)) )",),
        _ROOT[1:],
        what="a PTB gold with '( (S ...) )' against a (ROOT ...) parse",
    ),
    Variation(
        "nbsp_gold_only",
        ("( (NP (CD 2\u00a0000) (NNS euros)) )",),
        ("( (NP (CD 2000) (NNS euros)) )",),
        what="a no-break space in the gold's word only: evalb's 'Words unmatch'",
    ),
    Variation(
        "unicode_spaces",
        (
            "( (NP (CD 2\u2009000) (NN\u3000x) (NNS \u1680euros\u2028\u0085)) )",
            "( (NP (CD 3\x1c000) (NNS yen)) )",
        ),
        (
            "( (NP (CD 2\u2009000) (NN\u3000x) (NNS \u1680euros\u2028\u0085)) )",
            "( (NP (CD 3\x1c000) (NNS yen)) )",
        ),
        what="thin, ideographic and ogham spaces, line and next-line separators, ASCII FS: parts of words",
    ),
    Variation(
        "odd_blank_labels",
        _G3[:2],
        ("( (S (NP\u3000(NN a)) (VP\u00a0(VB b))) )", "( (S (NP\x1c(NN c)) (VP (VB d))) )"),
        what="an ideographic space, a no-break space and ASCII FS after a label: part of the label for evalb",
    ),
    Variation(
        "ascii_blanks",
        _G3[:2],
        ("( (S\t(NP (NN\ta))\v(VP\f(VB  b))) )\r", _G3[1] + "\r"),
        what="tab, vertical tab, form feed, two spaces and CRLF line ends: evalb's blanks",
    ),
    Variation(
        "empty_word_both",
        ("( (S (NP (X ) (NN a)) (VP (VB b))) )",),
        ("( (S (NP (X ) (NN a)) (VP (VB b))) )",),
        what="'(X )' on both sides: a word with an empty form",
    ),
    Variation(
        "empty_label_word",
        ("( (S (NP (NN a)) (VP (VB b))) )",),
        ("( (S (NP ( a)) (VP (VB b))) )",),
        what="'( a)': the empty tag over the word 'a'",
    ),
    Variation(
        "empty_bracket",
        ("( (S (X) (NP (NN a)) (VP (VB b))) )", "( (S (NP (NN c)) (VP (VB d))) )"),
        ("( (S (NP (NN a)) () (VP (VB b))) )", "( (S (NP (NN c)) (VP (VB d))) )"),
        what="'(X)' and '()': brackets over no word, dropped",
    ),
    Variation(
        "phrasal_none",
        ("( (S (NP (NN fuel)) (VP (VB b))) )", _G3[1]),
        ("( (S (NP (-NONE- (NN fuel))) (VP (VB b))) )", _G3[1]),
        what="a phrasal -NONE- bracket: evalb cuts its label at '-' (the empty label) and keeps it",
    ),
    Variation(
        "bom_test",
        _G3[:2],
        ("\ufeff" + _G3[0], _G3[1]),
        what="a test file starting with a byte-order mark: evalb reads it as text and loops until MAX_ERROR",
    ),
    Variation(
        "blank_gold_line",
        (_G3[0], "", _G3[2]),
        _G3,
        what="an empty gold line: evalb's 'Length unmatch (0|2)'; the FREVAL tool stops reading there",
    ),
    Variation(
        "random_lines",
        *random_lines(24, 400),
        options=("-e", "100000"),
        what="400 made-up line pairs (random_lines(24, 400)): dropped ')', cut lines, '(X )', '( x)', '(X)', "
        "no-break spaces, ROOT/TOP labels, deleted words",
    ),
)
"""Variations of the four reproducers, run through evalb 2000 here; evalcore's reports equal
evalb's except on ``too_many_close`` and ``word_not_closed`` (docs/freval.md says how)."""

FREVAL_DEPARTURES = (
    *DEPARTURES,
    "phrasal_none",
    "empty_bracket",
    "unicode_spaces",
    "unbalanced_middle",
    "unbalanced_gold",
    "blank_gold_line",
)
"""The inputs the FREVAL Java tool is run on (fragment sizes up to 4, COLLINS.prm's properties)."""


def departures_fixtures(ref: Path, data: Path, tmp: Path) -> None:
    """``departures/``: evalb 2000 (MAX_WORD/BRACKET_IN_SENT 2000) on the four reproducers of
    ``$DATA/evalb/departures`` and on :data:`VARIATIONS`, and the FREVAL Java tool on
    :data:`FREVAL_DEPARTURES`; stdout, stderr and the exit code of each, with its own COMMANDS.txt."""
    rec = Recorder({"TMP": tmp, "REFTOOLS": ref, "DATA": data, "REPO": ROOT})
    evalb = str(ref / "EVALB" / "evalb2000")
    out = OUT / "departures"
    prms = {
        "COLLINS.prm": EVALB_ASSETS / "COLLINS.prm",
        "new.prm": EVALB_ASSETS / "new.prm",
        "sample.prm": EVALB_ASSETS / "sample" / "sample.prm",
        "collins_delete_root.prm": OUT / "prm" / "collins_delete_root.prm",
    }
    collins = prms["COLLINS.prm"].read_text(encoding="utf-8")
    write(
        "prm/collins_delete_root.prm",
        collins.replace("DELETE_LABEL TOP\n", "DELETE_LABEL TOP\nDELETE_LABEL ROOT\n"),
    )
    rec.lines.append(
        "prm/collins_delete_root.prm:\n    sed 's/^DELETE_LABEL TOP$/DELETE_LABEL TOP\\nDELETE_LABEL ROOT/' "
        "$REPO/assets/evalb/COLLINS.prm"
    )
    cases: list[tuple[str, Path, Path, str]] = []  # name, gold, test, prm key
    for name in DEPARTURES:
        src = data / "evalb" / "departures" / name
        if (src / "COLLINS.prm").read_bytes() != prms["COLLINS.prm"].read_bytes():
            raise SystemExit(f"{src}/COLLINS.prm is not assets/evalb/COLLINS.prm")
        for f in ("gold.txt", "test.txt", "evalb.out"):
            (out / name).mkdir(parents=True, exist_ok=True)
            (out / name / f).write_bytes((src / f).read_bytes())
        rec.lines.append(
            f"departures/{name}/{{gold.txt,test.txt,evalb.out}}:\n    cp of $DATA/evalb/departures/{name}/"
        )
        cases.append((name, out / name / "gold.txt", out / name / "test.txt", "COLLINS.prm"))
    for v in VARIATIONS:
        d = out / "variations"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{v.name}.gold").write_bytes("".join(x + "\n" for x in v.gold).encode("utf-8"))
        (d / f"{v.name}.test").write_bytes("".join(x + "\n" for x in v.test).encode("utf-8"))
        rec.lines.append(
            f"departures/variations/{v.name}.gold, .test:\n    written by this script ({v.what})"
        )
        cases.append((f"variations/{v.name}", d / f"{v.name}.gold", d / f"{v.name}.test", v.prm))
    options = {f"variations/{v.name}": v.options for v in VARIATIONS}
    for name, gold, test, prm in cases:
        argv = [
            evalb,
            "-p",
            str(prms[prm]),
            *options.get(name, ()),
            str(gold),
            str(test),
        ]  # -e after -p: the file's MAX_ERROR would win
        res = subprocess.run(argv, capture_output=True, check=False)
        stem = str(out / name) if "/" in name else str(out / name / "evalb2000")
        Path(stem + ".stdout").write_bytes(res.stdout)
        Path(stem + ".stderr").write_bytes(res.stderr)
        Path(stem + ".rc").write_text(f"{res.returncode}\n", encoding="utf-8")
        rel = Path(stem).relative_to(OUT)
        rec.lines.append(f"{rel}.stdout, .stderr, .rc:\n    {rec.show(shlex.join(argv))}")
    props = tmp / "COLLINS.prm.L4.properties"
    props.write_text(
        (OUT / "freval" / "COLLINS.prm.properties").read_text(encoding="utf-8").replace("@L@", "4"),
        encoding="utf-8",
    )
    where = dict((n, (g, t)) for n, g, t, _ in cases)
    for name in FREVAL_DEPARTURES:
        key = name if name in DEPARTURES else f"variations/{name}"
        gold, test = where[key]
        argv = [
            "java",
            "-cp",
            str(ref / "freval" / "bin"),
            f"-Dproperties={props}",
            f"-Dgold={gold}",
            f"-Dtest={test}",
            "bastings.freval.Freval",
        ]
        res = subprocess.run(argv, capture_output=True, check=False)
        stem = str(out / key) + (".freval" if "/" in key else "/freval")
        Path(stem + ".stdout").write_bytes(res.stdout)
        Path(stem + ".stderr").write_text(
            rec.show(res.stderr.decode("utf-8")), encoding="utf-8"
        )  # $TMP for the path
        Path(stem + ".rc").write_text(f"{res.returncode}\n", encoding="utf-8")
        rel = Path(stem).relative_to(OUT)
        rec.lines.append(
            f"{rel}.stdout, .stderr, .rc:\n    {rec.show(shlex.join(argv))}"
            "  [props: sed 's/@L@/4/' freval/COLLINS.prm.properties]"
        )
    ned_punct_fixtures(ref, data, tmp, rec)
    line_end_fixtures(ref, rec)
    gold, test = write_gum_pair(data, tmp / "gum", 1)
    rec.lines.append(
        "$TMP/gum/gum.gld, gum.1.tst (GUM's 320 (ROOT ...) trees, seed-1 perturbation; not committed):\n"
        "    write_gum_pair of tests/wsj_perturb.py"
    )
    write("departures/gum.MANIFEST.txt", f"{sha256(gold)}  gum.gld\n{sha256(test)}  gum.1.tst\n")
    rel = "departures/gum.1.COLLINS_prm.rsl"
    collins = str(EVALB_ASSETS / "COLLINS.prm")
    write(
        rel,
        rec.run(
            [str(ref / "EVALB" / "evalb2000"), "-p", collins, str(gold), str(test)], rel, note=" (stdout)"
        ),
    )
    write("departures/COMMANDS.txt", "\n".join(rec.lines) + "\n")


CONLLU_TWO = (
    "# text = I paid 5\n"
    "1\tI\tI\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n"
    "2\tpaid\tpay\tVERB\tVBD\t_\t0\troot\t_\t_\n"
    "3\t5\t5\tNUM\tCD\t_\t2\tobj\t_\t_\n"
    "\n"
    "# text = Prices rose .\n"
    "1\tPrices\tprice\tNOUN\tNNS\t_\t2\tnsubj\t_\t_\n"
    "2\trose\trise\tVERB\tVBD\t_\t0\troot\t_\t_\n"
    "3\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_\n"
    "\n"
)
"""Two sentences for the line-end and BOM cases (the system attaches "5" and "." to word 1)."""


def line_end_fixtures(ref: Path, rec: Recorder) -> None:
    """``departures/conll18/``: the CoNLL 2018 scorer (``-v``) on a gold and a system with LF line
    ends, with CR-only line ends, and on the gold with a byte-order mark (which it refuses)."""
    d = OUT / "departures" / "conll18"
    d.mkdir(parents=True, exist_ok=True)
    system = CONLLU_TWO.replace("\t2\tobj\t", "\t1\tobj\t").replace("\t2\tpunct\t", "\t1\tpunct\t")
    files = {
        "gold.conllu": CONLLU_TWO.encode(),
        "system.conllu": system.encode(),
        "gold_cr.conllu": CONLLU_TWO.replace("\n", "\r").encode(),
        "system_cr.conllu": system.replace("\n", "\r").encode(),
        "gold_bom.conllu": b"\xef\xbb\xbf" + CONLLU_TWO.encode(),
    }
    for name, data in files.items():
        (d / name).write_bytes(data)
    rec.lines.append(
        "departures/conll18/{gold,system}.conllu, {gold,system}_cr.conllu, gold_bom.conllu:\n"
        "    written by this script (CONLLU_TWO; _cr: every LF a CR; _bom: EF BB BF first)"
    )
    scorer = str(ref / "conll2018" / "conll18_ud_eval.py")
    for name, gold, system_file in (("lf", "gold", "system"), ("cr", "gold_cr", "system_cr")):
        rel = f"departures/conll18/{name}.verbose.txt"
        argv = [sys.executable, scorer, "-v", str(d / f"{gold}.conllu"), str(d / f"{system_file}.conllu")]
        write(rel, rec.run(argv, rel, note=" (stdout)"))
    argv = [sys.executable, scorer, "-v", str(d / "gold_bom.conllu"), str(d / "system.conllu")]
    res = subprocess.run(argv, capture_output=True, text=True, check=False)
    last = res.stderr.strip().splitlines()[-1]
    write("departures/conll18/bom.stderr_last_line.txt", f"{last}\n")
    write("departures/conll18/bom.rc", f"{res.returncode}\n")
    rec.lines.append(
        "departures/conll18/bom.stderr_last_line.txt, bom.rc:\n"
        f"    {rec.show(shlex.join(argv))}  [kept: the last line of stderr, the exit code]"
    )


def _word(i: object, form: str, head: object, deprel: str = "dep") -> str:
    return "\t".join(map(str, (i, form, form.lower(), "X", "_", "_", head, deprel, "_", "_")))


_ROOT_WORD = _word(1, "a", 0, "root")
_RANGE = "\t".join(("{}", "ab", *("_",) * 8))
LINE_CASES: dict[str, str] = {
    "columns_9": _ROOT_WORD + "\n2\tb\tb\tX\t_\t_\t1\tdep\t_\n\n",
    "columns_8": "1\ta\ta\tX\t_\t_\t0\troot\n\n",
    "columns_11": _ROOT_WORD + "\n" + _word(2, "b", 1) + "\t_\n\n",
    "id_empty": _ROOT_WORD + "\n" + _word("", "b", 1) + "\n\n",
    "id_word": _ROOT_WORD + "\n" + _word("x", "b", 1) + "\n\n",
    "id_plus": _ROOT_WORD + "\n" + _word("+2", "b", 1) + "\n\n",
    "id_leading_zero": _ROOT_WORD + "\n" + _word("02", "b", 1) + "\n\n",
    "range_bad": _RANGE.format("1-x") + "\n" + _ROOT_WORD + "\n" + _word(2, "b", 1) + "\n\n",
    "range_reversed": _RANGE.format("2-1") + "\n" + _ROOT_WORD + "\n\n",
    "range_unchecked_ids": _RANGE.format("1-2")
    + "\n"
    + _word(7, "a", 0, "root")
    + "\n"
    + _word(9, "b", 1)
    + "\n\n",
    "range_word_columns_11": _RANGE.format("1-2") + "\n" + _ROOT_WORD + "\t_\n" + _word(2, "b", 1) + "\n\n",
    "empty_node": _ROOT_WORD + "\n1.1\tz\tz\tX\t_\t_\t_\t_\t1:dep\t_\n" + _word(2, "b", 1) + "\n\n",
    "empty_node_odd": _ROOT_WORD + "\nx.y\tz\tz\tX\t_\t_\t_\t_\t_\t_\n" + _word(2, "b", 1) + "\n\n",
    "head_out_of_range": _ROOT_WORD + "\n" + _word(2, "b", 5) + "\n\n",
    "head_negative": _ROOT_WORD + "\n" + _word(2, "b", -1) + "\n\n",
    "head_plus": _ROOT_WORD + "\n" + _word(2, "b", "+1") + "\n\n",
    "head_underscore": _ROOT_WORD + "\n" + _word(2, "b", "_") + "\n\n",
    "head_empty": _ROOT_WORD + "\n" + _word(2, "b", "") + "\n\n",
    "cycle": _word(1, "a", 2) + "\n" + _word(2, "b", 1) + "\n\n",
    "no_root": _word(1, "a", 1) + "\n\n",
    "two_roots": _ROOT_WORD + "\n" + _word(2, "b", 0, "root") + "\n\n",
    "form_space": _ROOT_WORD + "\n" + _word(2, "b c", 1) + "\n\n",
    "form_nbsp_only": _ROOT_WORD + "\n" + _word(2, "\u00a0", 1) + "\n\n",
    "form_empty": _ROOT_WORD + "\n" + _word(2, "", 1) + "\n\n",
    "fields_empty": _ROOT_WORD + "\n2\tb\t\t\t\t\t1\t\t\t\n\n",
    "fields_underscore": "1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n\n",
    "comment_inside": _ROOT_WORD + "\n# note\n" + _word(2, "b", 1) + "\n\n",
    "comment_only_block": "# header\n\n" + _ROOT_WORD + "\n\n",
    "sent_id_no_equals": "# sent_id s9\n" + _word(1, "a", 2) + "\n" + _word(2, "b", 1) + "\n\n",
    "blank_lines_two": _ROOT_WORD + "\n\n\n" + _ROOT_WORD + "\n\n",
    "blank_line_spaces": _ROOT_WORD + "\n \n",
    "no_final_blank": _ROOT_WORD + "\n",
    "leading_blank": "\n" + _ROOT_WORD + "\n\n",
}
"""One kind of malformed or unusual CoNLL-U line per file (docs/decisions.md, "One CoNLL-U line
parser, two readings"; tests/test_conllu_lines.py)."""


def line_fixtures(ref: Path, rec: Recorder) -> None:
    """``conll18_lines/``: each file of :data:`LINE_CASES`, and the CoNLL 2018 scorer's ``-c`` on it
    against itself: its exit code, then its table (exit 0) or the last line of its error."""
    d = OUT / "conll18_lines"
    d.mkdir(parents=True, exist_ok=True)
    rec.lines.append("conll18_lines/NAME.conllu:\n    written by this script (LINE_CASES)")
    scorer = str(ref / "conll2018" / "conll18_ud_eval.py")
    for name, text in LINE_CASES.items():
        path = d / f"{name}.conllu"
        path.write_text(text, encoding="utf-8")
        argv = [sys.executable, scorer, "-c", str(path), str(path)]
        res = subprocess.run(argv, capture_output=True, text=True, check=False)
        kept = res.stdout if res.returncode == 0 else res.stderr.strip().splitlines()[-1] + "\n"
        write(f"conll18_lines/{name}.scorer.txt", f"exit: {res.returncode}\n{kept}")
        rec.lines.append(
            f"conll18_lines/{name}.scorer.txt:\n    {rec.show(shlex.join(argv))}"
            "  [kept: 'exit: N', then stdout if N is 0, else the last line of stderr]"
        )


NED_SYMBOLS = (
    "1\tI\t_\t_\tPRP\t_\t2\tnsubj\t_\t_\n"
    "2\tpaid\t_\t_\tVBD\t_\t0\troot\t_\t_\n"
    "3\t#\t_\t_\t#\t_\t2\tdep\t_\t_\n"
    "4\t5\t_\t_\tCD\t_\t2\tobj\t_\t_\n"
    "\n"
    "1\tA\t_\t_\tLS\t_\t3\tdep\t_\t_\n"
    "2\tprices\t_\t_\tNNS\t_\t3\tnsubj\t_\t_\n"
    "3\trose\t_\t_\tVBD\t_\t0\troot\t_\t_\n"
    "4\t&\t_\t_\tSYM\t_\t3\tdep\t_\t_\n"
    "5\t$\t_\t_\t$\t_\t3\tobj\t_\t_\n"
    "\n"
)
"""A gold with the tags ``#``, ``LS``, ``SYM`` (NED.pl's punctuation, not evalcore's by default) and ``$``."""


def _ned_system(gold: str) -> str:
    """The gold with the heads of ``#``, ``LS`` and ``SYM`` changed to 1 (wrong under NED too)."""
    out = []
    for line in gold.split("\n"):
        cols = line.split("\t")
        if len(cols) == 10 and cols[4] in ("#", "LS", "SYM"):
            cols[6] = "1" if cols[0] != "1" else "2"
        out.append("\t".join(cols))
    return "\n".join(out)


def ned_punct_fixtures(ref: Path, data: Path, tmp: Path, rec: Recorder) -> None:
    """``departures/ned/``: NED.pl on :data:`NED_SYMBOLS` (written here) and on the WSJ sample's
    dependencies against the right-branching baseline (``tests/ned_wsj.py``; only NED.pl's line
    is written), with ``-ml 10`` (the NED paper's WSJ10) and without."""
    from ned_wsj import write_ned_pair

    ned = ref / "ned" / "NED"
    d = OUT / "departures" / "ned"
    d.mkdir(parents=True, exist_ok=True)
    (d / "symbols.gold.conllu").write_text(NED_SYMBOLS, encoding="utf-8")
    (d / "symbols.system.conllu").write_text(_ned_system(NED_SYMBOLS), encoding="utf-8")
    rec.lines.append(
        "departures/ned/symbols.gold.conllu, symbols.system.conllu:\n    written by this script "
        "(NED_SYMBOLS; the system moves the heads of #, LS and SYM to word 1)"
    )
    g, t = d / "symbols.gold.conllu", d / "symbols.system.conllu"
    rel = "departures/ned/symbols.txt"
    write(rel, rec.run(["perl", "-I.", "NED.pl", "-if", str(t), "-gold", str(g)], rel, cwd=ned))
    files = write_ned_pair(data, tmp / "ned_wsj")
    rec.lines.append("$TMP/ned_wsj/{gold,rb}.{dp,conllu}:\n    python3 tests/ned_wsj.py $TMP/ned_wsj")
    for suffix, extra in (("", []), (".ml10", ["-ml", "10"])):
        rel = f"departures/ned/wsj_rb{suffix}.txt"
        argv = ["perl", "-I.", "NED.pl", "-if", str(files["rb.dp"]), "-gold", str(files["gold.dp"]), *extra]
        write(rel, rec.run(argv, rel, cwd=ned))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reftools", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument(
        "--only-conll18", action="store_true", help="write only conll18/ (the CoNLL 2018 scorer's tables)"
    )
    ap.add_argument(
        "--only-departures",
        action="store_true",
        help="write only departures/ (evalb 2000 and the FREVAL tool on inputs that users' files contain)",
    )
    args = ap.parse_args()
    ref: Path = args.reftools.resolve()
    data: Path = args.data.resolve()
    tmp = Path(tempfile.mkdtemp(prefix="evalcore-reference-"))
    if args.only_departures:
        departures_fixtures(ref, data, tmp)
        print(f"wrote {OUT / 'departures'} (temporary files in {tmp})")
        return 0
    conll18_fixtures(ref, data, tmp)
    if args.only_conll18:
        print(f"wrote {OUT / 'conll18'} (temporary files in {tmp})")
        return 0
    rec = Recorder({"TMP": tmp, "REFTOOLS": ref, "DATA": data, "REPO": ROOT})
    labeled0, noeq = derived_prms()
    rec.lines.append(
        "prm/sample_labeled0.prm:\n    sed 's/^LABELED 1 /LABELED 0 /' $REPO/assets/evalb/sample/sample.prm\n"
        "prm/sample_noeqword.prm:\n    grep -v '^EQ_WORD' $REPO/assets/evalb/sample/sample.prm"
    )

    s = EVALB_ASSETS / "sample"
    bug = data / "evalb" / "bug"
    far = data / "farpahc" / "berkeley_split0"
    far_prm = far / "sample.prm.as_used_for_far0eval"
    collins, new = EVALB_ASSETS / "COLLINS.prm", EVALB_ASSETS / "new.prm"
    sample_prm = s / "sample.prm"
    wsj_dir = tmp / "wsj"
    manifest = []
    wsj: dict[int, tuple[Path, Path]] = {}
    for seed in (1, 2, 3):
        wsj[seed] = write_pair(data, wsj_dir, seed)
    manifest.append(f"{sha256(wsj[1][0])}  wsj.gld")
    manifest += [f"{sha256(wsj[seed][1])}  wsj.{seed}.tst" for seed in (1, 2, 3)]
    rec.lines.append(
        "WSJ inputs ($TMP/wsj/wsj.gld, wsj.SEED.tst; never committed):\n"
        "    python3 tests/wsj_perturb.py $TMP/wsj 1 2 3"
    )

    pairs = {
        p.name: p
        for p in (
            Pair("sample.sample_prm", s / "sample.gld", s / "sample.tst", sample_prm),
            Pair("sample.COLLINS_prm", s / "sample.gld", s / "sample.tst", collins),
            Pair("sample.new_prm", s / "sample.gld", s / "sample.tst", new),
            Pair("sample.labeled0_prm", s / "sample.gld", s / "sample.tst", labeled0),
            Pair("sample.noeqword_prm", s / "sample.gld", s / "sample.tst", noeq),
            Pair("bug.sample_prm", bug / "bug.gld", bug / "bug.tst", sample_prm),
            Pair("bug.COLLINS_prm", bug / "bug.gld", bug / "bug.tst", collins),
            Pair("bug.new_prm", bug / "bug.gld", bug / "bug.tst", new),
            Pair(
                "farpahc_split0",
                far / "far_split0testing.oneline.psd",
                far / "far_split0machineparsed.psd",
                far_prm,
            ),
            Pair("wsj.1.COLLINS_prm", *wsj[1], collins),
            Pair("wsj.2.COLLINS_prm", *wsj[2], collins),
            Pair("wsj.3.new_prm", *wsj[3], new),
        )
    }
    evalb = str(ref / "EVALB" / "evalb")
    for name in EVALB_FIXTURES:
        p = pairs[name]
        big = p.name.startswith("wsj")
        rel = f"evalb/{p.name}.rsl" + (".gz" if big else "")
        extra = ["-e", MAX_ERROR] if big else []
        out = rec.run([evalb, *extra, "-p", str(p.prm), str(p.gold), str(p.test)], rel, note=" (stdout)")
        write(rel, out)

    props_done: set[str] = set()
    for p in (pairs[name] for name in FREVAL_FIXTURES):
        props_rel = f"freval/{p.prm.name}.properties"
        if props_rel not in props_done:
            write(props_rel, freval_properties(p.prm))
            rec.lines.append(
                f"{props_rel}:\n    written by this script from {rec.show(str(p.prm))} "
                "(freval_properties: one Freval.* key per evalb keyword; @L@ = the size limit)"
            )
            props_done.add(props_rel)
        blocks = []
        for size in FREVAL_SIZES:
            props = tmp / f"{p.prm.name}.L{size}.properties"
            props.write_text((OUT / props_rel).read_text(encoding="utf-8").replace("@L@", str(size)))
            argv = [
                "java",
                "-cp",
                str(ref / "freval" / "bin"),
                f"-Dproperties={props}",
                f"-Dgold={p.gold}",
                f"-Dtest={p.test}",
                "bastings.freval.Freval",
            ]
            out = rec.run(
                argv,
                f"freval/{p.name}.txt (block L={size})",
                note=f"  [props: sed 's/@L@/{size}/' {props_rel}; kept: the '=== Summary (All) ===' block]",
            )
            blocks.append(f"# fragmentSizeLimit={size}\n{freval_summary(out)}")
        write(f"freval/{p.name}.txt", "\n".join(blocks))

    ud = ROOT / "assets" / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz"
    sud = ROOT / "assets" / "fr_gsd" / "fr_gsd-sud-test.r2.16.conllu.gz"
    spacy_sud = ROOT / "assets" / "fr_gsd" / "parses" / "fr_gsd-test.spacy-sud.conllu.gz"
    ewt = ROOT / "assets" / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz"
    ewt_spacy = ROOT / "assets" / "en_ewt" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz"
    # (name, gold, system, run the CoNLL 2018 scorer): the scorer refuses the spaCy SUD parse
    # ("There are 2 roots in a sentence"), NED.pl takes it
    dep_pairs = [
        ("en_ewt.spacy_gold_tok", ewt, ewt_spacy, True),
        ("fr_gsd.ud_vs_sud", ud, sud, True),
        ("fr_gsd.sud_vs_spacy_sud", sud, spacy_sud, False),
    ]
    scorer = str(ref / "conll2018" / "conll18_ud_eval.py")
    ned_dir = ref / "ned" / "NED"
    for name, gold, system, with_scorer in dep_pairs:
        g = gunzip(gold, tmp / f"{name}.gold.conllu")
        t = gunzip(system, tmp / f"{name}.system.conllu")
        rec.lines.append(
            f"$TMP/{name}.gold.conllu, .system.conllu:\n"
            f"    gunzip -c of {rec.show(str(gold))}, {rec.show(str(system))}"
        )
        for flag, kind in (("-v", "verbose"), ("-c", "counts")) if with_scorer else ():
            rel = f"conll2018/{name}.{kind}.txt"
            write(rel, rec.run([sys.executable, scorer, flag, str(g), str(t)], rel, note=" (stdout)"))
        gh, th = tmp / f"{name}.gold.heads", tmp / f"{name}.system.heads"
        conllu_heads(g, gh)
        conllu_heads(t, th)
        rec.lines.append(
            f"$TMP/{name}.gold.heads, .system.heads (HEAD of word lines, blank between sentences):\n"
            "    awk -F'\\t' '/^#/{next} NF==0{print \"\"; next} $1 ~ /^[0-9]+$/ {print $7}' "
            "FILE.conllu"
        )
        rel = f"ned/{name}.txt"
        write(rel, rec.run(["perl", "-I.", "NED.pl", "-if", str(th), "-gold", str(gh)], rel, cwd=ned_dir))

    line_fixtures(ref, rec)
    write("COMMANDS.txt", "\n".join(rec.lines) + "\n")
    write("MANIFEST.txt", "\n".join(manifest) + "\n")
    print(f"wrote {OUT} (temporary files in {tmp})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
