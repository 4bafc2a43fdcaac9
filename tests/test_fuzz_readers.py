"""Hostile input: every reader, fed arbitrary bytes and mutated real files, fails only with a typed
error that names the file and the line (``docs/robustness.md``).

Inputs come from three generators:

* arbitrary bytes, arbitrary Unicode text, and text over the characters the formats are made of
  (brackets, tabs, digits, ``#``, ``=``...);
* windows of real files (``assets/``, always there; ``../shared/data``, skipped visibly when absent)
  after random mutations: byte flips, deleted / duplicated / swapped lines, swapped columns, replaced
  fields (huge numbers, non-ASCII digits...), truncation, inserted tabs, brackets, line ends, BOMs,
  right-to-left marks, invalid UTF-8, long runs of one character, CRLF line ends, a BOM, and gzip
  (valid, truncated, corrupted, or garbage behind a gzip header);
* every reader also gets the other formats' files.

What a reader may do with such input: return what it read (which the next steps of the pipeline
must then handle: conversions, scoring, path enumeration), or raise an
:class:`~evalcore.errors.EvalcoreError` whose ``file`` is the name given, whose ``line`` is a line
of the input (1-based), and whose message is one line of bounded length.  Anything else
(``IndexError``, ``ValueError``, ``UnicodeError``, ``zlib.error``, ``RecursionError``...) fails the test.

The default run draws a few hundred inputs per reader; the ``slow`` tests draw 10,000 per reader
with a fixed seed (``EVALCORE_FUZZ_SEED`` to change it) and check that they did.
"""

from __future__ import annotations

import gzip
import os
import random
import zlib
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

import pytest
from ec_support import ASSETS, DATA
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from evalcore.conversion import read_label_map, to_span_tree, words_of
from evalcore.errors import EvalcoreError
from evalcore.formats.conllu import read_conllu
from evalcore.formats.detect import read_trees
from evalcore.formats.lattice import read_lattices, read_tokens
from evalcore.formats.prm import read_prm
from evalcore.formats.ptb import detect_layout, read_ptb, read_ptb_lines, read_ptb_sentences
from evalcore.limits import Limits
from evalcore.metrics.attachment import sentence_counts
from evalcore.metrics.freval import sentence_counts as freval_counts
from evalcore.metrics.parseval import ParsevalConfig, compare_sentence
from evalcore.trees import DepTree

NAME = "uploads/fuzzed input"  # no suffix: read_trees must sniff the content
FAST_EXAMPLES = settings.default.max_examples * 3 // 2  # 300 in CI's profile, 75 in the local one
SLOW_EXAMPLES = 10_000
FUZZ_SEED = int(os.environ.get("EVALCORE_FUZZ_SEED", "20261126"))
MAX_MESSAGE = 400  # characters of str(error) beyond the file name

# ---------------------------------------------------------------------------
# Readers, each followed by what the pipeline does next with what it read


def _conllu(data: bytes) -> None:
    for tree in read_conllu(data, name=NAME):
        to_span_tree(tree)
        sentence_counts(tree, tree)


def _conllu_keep(data: bytes) -> None:
    for tree in read_conllu(data, name=NAME, on_invalid="keep"):
        if tree.structure_problem() is None:
            to_span_tree(tree)
            sentence_counts(tree, tree)


def _ptb(data: bytes) -> None:
    for tree in read_ptb(data, name=NAME):
        words_of(tree)
        to_span_tree(tree)


def _ptb_lines(data: bytes) -> None:
    config = ParsevalConfig()
    for i, line in enumerate(read_ptb_lines(data, name=NAME), start=1):
        comp = compare_sentence(line, line, config, i)
        freval_counts(comp)


def _ptb_sentences(data: bytes) -> None:
    detect_layout(data, name=NAME)
    config = ParsevalConfig()
    for i, line in enumerate(read_ptb_sentences(data, name=NAME), start=1):
        comp = compare_sentence(line, line, config, i)
        freval_counts(comp)


def _lattices(data: bytes) -> None:
    for lattice in read_lattices(data, name=NAME):
        for _ in lattice.paths(limit=50):
            pass


def _tokens(data: bytes) -> None:
    for _ in read_tokens(data, name=NAME):
        pass


def _prm(data: bytes) -> None:
    read_prm(data, name=NAME).signature_value()


def _label_map(data: bytes) -> None:
    mapping = read_label_map(data, name=NAME)
    mapping.fingerprint()
    mapping.apply("nsubj")


def _trees(data: bytes) -> None:
    for tree in read_trees(data, name=NAME):
        words_of(tree)
        if not isinstance(tree, DepTree) or tree.structure_problem() is None:
            to_span_tree(tree)


READERS: dict[str, Callable[[bytes], None]] = {
    "conllu": _conllu,
    "conllu-keep": _conllu_keep,
    "ptb": _ptb,
    "ptb-lines": _ptb_lines,
    "ptb-sentences": _ptb_sentences,
    "lattices": _lattices,
    "tokens": _tokens,
    "prm": _prm,
    "label-map": _label_map,
    "trees": _trees,
}
FORMAT_OF = {
    "conllu": "conllu",
    "conllu-keep": "conllu",
    "ptb": "ptb",
    "ptb-lines": "ptb",
    "ptb-sentences": "ptb",
    "lattices": "lattice",
    "tokens": "tokens",
    "prm": "prm",
    "label-map": "labels",
    "trees": "conllu",
}


CR_ENDS = frozenset({"conllu", "conllu-keep", "lattices", "tokens", "trees"})
"""Readers of the CoNLL-U family: a lone CR ends a line there, as in the CoNLL 2018 scorer."""


def _line_count(data: bytes, cr_ends: bool = False) -> int | None:
    """Physical lines of the (decompressed) input (with ``cr_ends``, a lone CR ends one too: Python's
    universal newlines); ``None`` if it cannot be decompressed."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error):
            return None
        if data[:2] == b"\x1f\x8b":
            return None  # gzip inside gzip: the reader sees the inner gzip's bytes
    if cr_ends:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return max(1, data.count(b"\n") + (0 if data.endswith(b"\n") else 1))


def check(reader: str, data: bytes) -> None:
    """Run one reader; only a well-formed :class:`EvalcoreError` may come out."""
    try:
        READERS[reader](data)
    except EvalcoreError as exc:
        assert exc.file == NAME, (type(exc).__name__, str(exc))
        assert exc.line is not None and exc.line >= 1, str(exc)
        lines = _line_count(data, reader in CR_ENDS)
        assert lines is None or exc.line <= lines, (str(exc), lines)
        text = str(exc)
        assert text.startswith(f"{NAME}:{exc.line}: "), text
        assert "\n" not in text and "\r" not in text, text
        assert len(text) <= len(NAME) + MAX_MESSAGE, text[:200]


# ---------------------------------------------------------------------------
# Real files


def _files(root: Path, patterns: Iterable[str]) -> list[Path]:
    return sorted(p for pattern in patterns for p in root.glob(pattern) if p.is_file())


ASSET_FILES: dict[str, list[Path]] = {
    "conllu": _files(ASSETS, ["en_ewt/*.conllu.gz", "fr_gsd/*.conllu.gz", "hebrew_yap/output.conll"]),
    "ptb": _files(ASSETS, ["evalb/sample/sample.gld", "evalb/sample/sample.tst"]),
    "lattice": _files(ASSETS, ["hebrew_yap/input.lattice", "hebrew_yap/output.mapping"]),
    "tokens": _files(ASSETS, ["hebrew_yap/input.txt", "hebrew_yap/output.segmentation"]),
    "prm": _files(ASSETS, ["evalb/*.prm", "evalb/sample/sample.prm"]),
}
SHARED_FILES: dict[str, list[Path]] = {
    "conllu": _files(
        DATA,
        [
            "en_ewt/*.conllu",
            "fr_gsd_ud_sud/*.conllu",
            "gum/dep/*.conllu",
            "farpahc/ud/*.conllu",
            "hebrew/spmrl_hebtb/*.conll",
            "hebrew/ud_htb/*.conllu",
            "parser_outputs/*/*/*.conllu*",
            "parser_outputs/*/*.conllu",
        ],
    ),
    "ptb": _files(
        DATA,
        [
            "gum/const/*.ptb",
            "ptb_wsj_sample/combined_mrg/wsj_00[0-4]*.mrg",
            "farpahc/psd/*.psd",
            "farpahc/berkeley_split0/*.psd",
            "evalb/bug/*.gld",
            "evalb/bug/*.tst",
            "evalb/sample/sample.*",
        ],
    ),
    "lattice": _files(DATA, ["hebrew/spmrl_hebtb/*lattices*", "hebrew/yap_sample/*.lattice"]),
    "tokens": _files(DATA, ["hebrew/spmrl_hebtb/*.tokens", "hebrew/yap_sample/input.txt"]),
    "prm": _files(DATA, ["evalb/*.prm", "farpahc/berkeley_split0/sample.prm*"]),
}
LABEL_MAP = b"# UD v1 -> v2\ndobj=obj\nnsubjpass = nsubj:pass\n\n  csubjpass=csubj:pass\nSUB=SBJ\n"


@cache
def _lines_of(path: Path) -> tuple[tuple[bytes, ...], tuple[int, ...]]:
    """A file's lines (with their ends) and the indices where a sentence or tree may start."""
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    lines = tuple(raw.splitlines(keepends=True))
    starts = tuple(
        i for i, line in enumerate(lines) if i == 0 or not lines[i - 1].strip() or line.startswith(b"(")
    )
    return lines, starts or (0,)


def window(path: Path, rng: random.Random) -> bytes:
    """A few consecutive lines of a real file; most often whole sentences (or trees)."""
    if path.name == "LABELS":
        return LABEL_MAP
    lines, starts = _lines_of(path)
    if rng.random() < 0.8:
        k = rng.randrange(len(starts))
        start = starts[k]
        end = starts[k + rng.randint(1, 4)] if k + 4 < len(starts) else len(lines)
        end = min(end, start + 200)
    else:
        start = rng.randrange(len(lines) or 1)
        end = start + rng.randint(1, 60)
    return b"".join(lines[start:end])


FIELDS = [
    b"",
    b"_",
    b"-1",
    b"0",
    b"00",
    b"1",
    b"2",
    b"99999",
    b"1-2",
    b"2-1",
    b"1.1",
    b"0.1",
    b"9" * 5000,
    b"1-" + b"9" * 5000,
    b"\xc2\xb2",  # superscript two: str.isdigit() but not int()
    b"\xd9\xa1",  # Arabic-Indic digit one
    b"\xef\xbc\x91",  # fullwidth digit one
    b"(",
    b")",
    b"()",
    b"-NONE-",
    b"#",
    b"root",
]
INSERTS = [
    b"\t",
    b"(",
    b")",
    b"()",
    b"\n",
    b"\r",
    b"\r\n",
    b"\n\n",
    b" ",
    b"#",
    b"=",
    b"-",
    b"*",
    b"\x00",
    b"\x0b",
    b"\x0c",
    b"\x1c",  # a str.splitlines() line break that is not a line end in files
    b"\xc2\x85",  # NEL
    b"\xe2\x80\xa8",  # LINE SEPARATOR
    b"\xef\xbb\xbf",  # BOM in the middle
    b"\xe2\x80\x8f",  # RIGHT-TO-LEFT MARK
    b"\xe2\x80\xae",  # RIGHT-TO-LEFT OVERRIDE
    b"\xed\xa0\x80",  # an encoded surrogate: invalid UTF-8
    b"\xff",
    b"\xc3",  # a truncated two-byte sequence
    b"\x1f\x8b",  # gzip magic in the middle
    b"<script>alert(1)</script>",
    b'"]; a -> b [label="x',
]


MUTATIONS = (
    "flip",
    "delete-line",
    "duplicate-line",
    "swap-lines",
    "swap-columns",
    "replace-field",
    "truncate",
    "insert",
    "run",
    "crlf",
    "bom",
)
WRAPS = ("none",) * 8 + ("gzip", "gzip-truncated", "gzip-corrupt", "gzip-junk")


def mutate(data: bytes, rng: random.Random) -> bytes:
    """Apply 0-4 random mutations (mostly 1 or 2), then maybe gzip (valid or broken)."""
    buf = bytearray(data)
    for _ in range(rng.choice((0, 1, 1, 1, 2, 2, 3, 4))):
        kind = rng.choice(MUTATIONS)
        size = len(buf)
        if kind == "flip" and size:
            buf[rng.randrange(size)] = rng.randrange(256)
        elif kind == "truncate":
            del buf[rng.randint(0, size) :]
        elif kind == "insert":
            at = rng.randint(0, size)
            buf[at:at] = rng.choice(INSERTS)
        elif kind == "run":
            at = rng.randint(0, size)
            buf[at:at] = rng.choice([b"(", b")", b"9", b"a", b"\t", b"\n", b"#"]) * rng.randint(100, 5000)
        elif kind == "crlf":
            buf = bytearray(bytes(buf).replace(b"\n", b"\r\n"))
        elif kind == "bom":
            buf[0:0] = b"\xef\xbb\xbf"
        else:
            lines = bytes(buf).split(b"\n")
            k = rng.randrange(len(lines))
            if kind == "delete-line":
                del lines[k]
            elif kind == "duplicate-line":
                lines.insert(k, lines[k])
            elif kind == "swap-lines":
                j = rng.randrange(len(lines))
                lines[k], lines[j] = lines[j], lines[k]
            else:
                cols = lines[k].split(b"\t")
                i = rng.randrange(len(cols))
                if kind == "swap-columns":
                    j = rng.randrange(len(cols))
                    cols[i], cols[j] = cols[j], cols[i]
                else:
                    cols[i] = rng.choice(FIELDS)
                lines[k] = b"\t".join(cols)
            buf = bytearray(b"\n".join(lines))
    out = bytes(buf)
    wrap = rng.choice(WRAPS)
    if wrap == "gzip":
        out = gzip.compress(out, mtime=0)
    elif wrap == "gzip-truncated":
        z = gzip.compress(out, mtime=0)
        out = z[: rng.randint(2, max(2, len(z) - 1))]
    elif wrap == "gzip-corrupt":
        z = bytearray(gzip.compress(out, mtime=0))
        z[rng.randrange(2, len(z))] ^= rng.randint(1, 255)
        out = bytes(z)
    elif wrap == "gzip-junk":
        out = b"\x1f\x8b" + rng.randbytes(rng.randint(0, 200))
    return out


def mutated(own: list[Path], others: list[Path]) -> st.SearchStrategy[bytes]:
    """A window of a real file (of the reader's own format 4 times in 5), mutated.

    Hypothesis chooses a seed; the file, the window and the mutations are drawn from
    ``random.Random(seed)`` (far cheaper than drawing each through Hypothesis, and as reproducible:
    a failure prints the bytes).
    """

    def make(key: int) -> bytes:
        rng = random.Random(key)
        files = own if own and (not others or rng.random() < 0.8) else others
        return mutate(window(rng.choice(files), rng), rng)

    return st.integers(0, 2**63 - 1).map(make)


FORMAT_CHARS = "()\t\n\r #_=-*.0123456789 NPVSabc\u200f\ufeff"
ARBITRARY = st.one_of(
    st.binary(max_size=2000),
    st.text(max_size=500).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.text(alphabet=FORMAT_CHARS, max_size=800).map(lambda t: t.encode("utf-8")),
)


def pool(fmt: str, shared: bool) -> tuple[list[Path], list[Path]]:
    """Files of the reader's own format, and of every other format."""
    source = SHARED_FILES if shared else ASSET_FILES
    own = [Path("LABELS")] if fmt == "labels" else list(source.get(fmt, []))
    others = [p for f, files in source.items() if f != fmt for p in files]
    return own, others


def inputs(reader: str, *, shared: bool) -> st.SearchStrategy[bytes]:
    fmt = FORMAT_OF[reader]
    choices = [ARBITRARY, mutated(*pool(fmt, shared=False))]
    if shared:
        choices.append(mutated(*pool(fmt, shared=True)))
    return st.one_of(*choices)


def run_fuzz(reader: str, strategy: st.SearchStrategy[bytes], examples: int, fixed_seed: bool) -> int:
    """Run ``examples`` inputs through ``reader``; return how many were run."""
    count = 0

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )
    @given(strategy)
    def fuzz(data: bytes) -> None:
        nonlocal count
        count += 1
        check(reader, data)

    if fixed_seed:
        fuzz = seed(FUZZ_SEED)(fuzz)
    fuzz()
    return count


SHARED_PRESENT = DATA.is_dir() and any(SHARED_FILES.values())

# ---------------------------------------------------------------------------
# Default run: a few hundred inputs per reader


@pytest.mark.parametrize("reader", list(READERS))
def test_arbitrary_bytes(reader: str) -> None:
    run_fuzz(reader, ARBITRARY, FAST_EXAMPLES, fixed_seed=False)


@pytest.mark.parametrize("reader", list(READERS))
def test_mutated_assets(reader: str) -> None:
    run_fuzz(reader, mutated(*pool(FORMAT_OF[reader], shared=False)), FAST_EXAMPLES, fixed_seed=False)


@pytest.mark.parametrize("reader", list(READERS))
def test_mutated_shared_data(reader: str, data: Path) -> None:
    run_fuzz(reader, mutated(*pool(FORMAT_OF[reader], shared=True)), FAST_EXAMPLES, fixed_seed=False)


# ---------------------------------------------------------------------------
# Slow run (CI): 10,000 inputs per reader, fixed seed


@pytest.mark.slow
@pytest.mark.timeout(600)  # 10,000 inputs: longer than the default, still bounded
@pytest.mark.parametrize("reader", list(READERS))
def test_fuzz_10000(reader: str) -> None:
    ran = run_fuzz(reader, inputs(reader, shared=SHARED_PRESENT), SLOW_EXAMPLES, fixed_seed=True)
    assert ran >= SLOW_EXAMPLES


# ---------------------------------------------------------------------------
# The bugs fuzzing found, kept as plain examples with what must come out

TOKEN = b"1\tw\t_\t_\t_\t_\t0\troot\t_\t_\n"


def _corrupt_gzip() -> bytes:
    z = bytearray(gzip.compress(TOKEN * 50, mtime=0))
    z[15] ^= 0x55  # inside the deflate stream: zlib.error, not OSError
    return bytes(z)


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n\n\n",
        b"\xef\xbb\xbf",
        b"\x1f\x8b",
        b"\x1f\x8b\x08\x00garbage",
        gzip.compress(TOKEN, mtime=0)[:-6],  # mtime=0: the same id on every xdist worker
        _corrupt_gzip(),
        b"(" * 5000,
        b")" * 5000,
        b"(NP (-NONE- *T*-1))\n( (S (NP-SBJ (-NONE- *)) ))\n",
        b"1\tw\t_\t_\t_\t_\t" + b"9" * 5000 + b"\troot\t_\t_\n",
        b"9" * 5000 + b"\t" + b"9" * 5000 + b"\tw\tw\tN\tN\t_\t1\n",
        b"CUTOFF_LEN " + b"4" * 5000 + b"\n",
    ],
    ids=lambda v: repr(v[:12]),
)
def test_examples(reader: str, data: bytes) -> None:
    check(reader, data)


def _error(fn: Callable[[], object]) -> EvalcoreError:
    with pytest.raises(EvalcoreError) as info:
        fn()
    return info.value


def test_corrupt_gzip_names_the_line() -> None:
    err = _error(lambda: list(read_conllu(_corrupt_gzip(), name="g.gz")))
    assert str(err).startswith("g.gz:1: cannot read: Error -3 while decompressing data")
    whole = gzip.compress((TOKEN + b"\n") * 5000, mtime=0)
    truncated = whole[: len(whole) // 2]
    err = _error(lambda: list(read_conllu(truncated, name="t.gz")))
    assert err.line is not None and err.line > 1 and "cannot read" in err.message


def test_huge_numbers() -> None:
    huge = "9" * 5000
    err = _error(lambda: list(read_conllu(f"1\tw\t_\t_\t_\t_\t{huge}\troot\t_\t_\n".encode(), name="f")))
    assert str(err) == f"f:1: HEAD '{'9' * 39}…' points past the sentence (1 tokens)"
    err = _error(lambda: list(read_conllu(f"{huge}\tw\t_\t_\t_\t_\t0\troot\t_\t_\n".encode(), name="f")))
    assert str(err) == f"f:1: ID '{'9' * 39}…' out of sequence (expected 1)"
    (tree,) = read_conllu(f"1-{huge}\tww\t_\t_\t_\t_\t_\t_\t_\t_\n".encode() + TOKEN, name="f")
    assert len(tree.tokens) == 1 and len(tree.extras) == 1  # a range stays a range, not a node
    (tree,) = read_conllu(b"1\tw\t_\t_\t_\t_\t" + b"0" * 5000 + b"\troot\t_\t_\n", name="f")
    assert tree.tokens[0].head == 0  # leading zeros are still zero
    err = _error(lambda: list(read_lattices(f"0\t{huge}\ta\ta\tN\tN\t_\t1\n".encode(), name="l")))
    assert str(err) == f"l:1: TO state '{'9' * 39}…' is too large (more than 18 digits)"
    assert list(read_lattices(b"0\t1\ta\ta\tN\tN\t_\t000000000000000000000001\n", name="l"))
    err = _error(lambda: read_prm(f"MAX_ERROR {huge}\n".encode(), name="p"))
    assert str(err).startswith("p:1: MAX_ERROR needs an integer value (at most 18 digits), got '999")
    assert read_prm(b"MAX_ERROR 0000000000000000000000025\n", name="p").max_error == 25


def test_a_tree_of_empty_elements_has_no_words() -> None:
    (tree,) = read_ptb(b"(NP (-NONE- *T*-1))", name="t")
    assert words_of(tree) == ()
    converted = to_span_tree(tree)
    assert converted.words == () and converted.items == ()


def test_messages_stay_short_and_on_one_line() -> None:
    err = _error(lambda: list(read_ptb(b"x" * 100_000, name="t")))
    assert str(err) == f"t:1: text '{'x' * 39}…' outside any bracket (expected '(')"
    err = _error(lambda: list(read_conllu(b"# sent_id = " + b"s" * 500 + b"\n1\tw\n", name="c")))
    assert str(err) == f"c:2: expected 10 tab-separated columns, found 2 (sentence {'s' * 59}…)"
    assert str(EvalcoreError("a\rb\x1cc\u2028d\x85e", file="f", line=3)) == "f:3: a b c d e"


def test_lines_have_a_length_limit() -> None:
    limit = 1024 * 1024
    limits = Limits(line_bytes=limit)  # the default (one limits policy, evalcore/limits.py)
    assert list(read_tokens(b"a" * (limit - 1) + b"\n", name="t", limits=limits)) == [("a" * (limit - 1),)]
    bomb = gzip.compress(b"b\n" + b"a" * (limit + 1))  # a few kB that decompress to one long line
    assert len(bomb) < 5000
    err = _error(lambda: list(read_tokens(bomb, name="t.gz", limits=limits)))
    assert str(err) == (
        "t.gz:2: line longer than 1048576 bytes (limit 1048576; raise with --max-line-bytes or "
        "EVALCORE_MAX_LINE_BYTES)"
    )
