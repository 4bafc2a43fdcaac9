"""Relation labels by the gold's format (docs/attachment.md, "Relation labels"; docs/decisions.md,
"Relation labels by the gold's format").

* The format rule on the real files of ``../shared/data``: every ``.conllu`` file is CoNLL-U by its
  name and by its first sentence alone; the SPMRL Hebrew and yap ``.conll`` files are CoNLL-X.
* The rule's cases on hand-made files: the name first, then comments / multiword / empty-node lines.
* ``--labels auto`` compares the universal part on CoNLL-U and the whole label on CoNLL-X (a
  hand-counted pair, the same lines in both formats), in every face: the command, the API, lattice.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from ec_support import ASSETS, CliResult

import evalcore
from evalcore.choices import LABELS, universal_labels
from evalcore.formats.detect import conll_dialect, dialect_of

RunCli = Callable[..., CliResult]
WriteFile = Callable[[str, str | bytes], str]


def _text(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def test_the_real_files_formats(data: Path) -> None:
    conllu = sorted(p for p in data.rglob("*") if p.name.endswith((".conllu", ".conllu.gz")))
    assert len(conllu) >= 30  # UD EWT, GUM, FarPaHC, French GSD UD/SUD, HTB, the CoNLL 2018 outputs
    for path in conllu:
        assert conll_dialect(path) == "conllu", path  # by its name
        if path.name.startswith("blind-input"):
            continue  # the shared task's tokenized input: HEAD '_', not a tree, never a gold
        assert conll_dialect(_text(path)) == "conllu", path  # by its first sentence, no name
    conllx = sorted(data.rglob("*.conll"))
    assert {p.name for p in conllx} == {"dev_hebtb-gold.conll", "test_hebtb-gold.conll", "output.conll"}
    for path in conllx:
        assert conll_dialect(path) == "conllx", path
        assert conll_dialect(_text(path)) == "conllx", path


LINE = "1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n"


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("g.conllu", LINE + "\n", "conllu"),  # the name says it, the content does not matter
        ("g.conllu.gz", LINE + "\n", "conllu"),
        ("g.CONLLX", "# sent_id = 1\n" + LINE + "\n", "conllx"),
        ("g.conll07", "# sent_id = 1\n" + LINE + "\n", "conllx"),
        ("g.conll", "# sent_id = 1\n" + LINE + "\n", "conllu"),  # .conll: the first sentence
        ("g.conll", LINE + "\n", "conllx"),
        (
            "g.txt",
            "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n" + LINE + "2\tb\t_\tX\t_\t_\t1\tdep\t_\t_\n\n",
            "conllu",
        ),
        (None, LINE + "1.1\tx\t_\tX\t_\t_\t_\t_\t0:root\t_\n\n", "conllu"),
        (None, LINE + "\n# a comment in the second sentence only\n" + LINE + "\n", "conllx"),
        (None, "", "conllx"),  # no sentence: nothing says CoNLL-U
    ],
)
def test_the_rule(name: str | None, text: str, expected: str) -> None:
    assert conll_dialect(text.encode(), name) == expected


def test_universal_labels_by_choice_and_format() -> None:
    got = {(labels, d): universal_labels(labels, d) for labels in LABELS for d in ("conllu", "conllx")}
    assert got == {
        ("auto", "conllu"): True,
        ("auto", "conllx"): False,
        ("universal", "conllu"): True,
        ("universal", "conllx"): True,
        ("full", "conllu"): False,
        ("full", "conllx"): False,
    }
    assert dialect_of("x.conllx", None) == "conllx" and dialect_of(None, None) == "conllx"


# Hand count: 4 words; the system gets every head right; labels: root = root, nsubj:pass vs nsubj,
# obl:tmod vs obl:npmod, punct = punct.  Universal parts: 4 of 4 equal (LAS 1); as written: 2 of 4
# (LAS 0.5).
GOLD_ROWS = [("It", 3, "nsubj:pass"), ("was", 3, "aux"), ("done", 0, "root"), ("today", 3, "obl:tmod")]
SYSTEM_ROWS = [("It", 3, "nsubj"), ("was", 3, "aux"), ("done", 0, "root"), ("today", 3, "obl:npmod")]


def _sentence(rows: list[tuple[str, int, str]], comment: bool) -> str:
    head = "# sent_id = s1\n# text = It was done today\n" if comment else ""
    body = "".join(f"{i}\t{f}\t_\tX\tX\t_\t{h}\t{r}\t_\t_\n" for i, (f, h, r) in enumerate(rows, 1))
    return head + body + "\n"


@pytest.fixture
def pairs(write_file: WriteFile) -> dict[str, tuple[str, str]]:
    """The same pair as CoNLL-U (.conllu) and as CoNLL-X (.conll without comments)."""
    return {
        "conllu": (
            write_file("g.conllu", _sentence(GOLD_ROWS, True)),
            write_file("s.conllu", _sentence(SYSTEM_ROWS, True)),
        ),
        "conllx": (
            write_file("g.conll", _sentence(GOLD_ROWS, False)),
            write_file("s.conll", _sentence(SYSTEM_ROWS, False)),
        ),
    }


def _las(result: CliResult) -> tuple[float, str]:
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    return doc["las"], doc["signature"]


@pytest.mark.parametrize(
    ("dialect", "flags", "las", "deprel"),
    [
        ("conllu", [], 1.0, "base"),
        ("conllx", [], 0.5, "full"),
        ("conllu", ["--full-labels"], 0.5, "full"),
        ("conllu", ["--labels", "full"], 0.5, "full"),
        ("conllx", ["--deprel-base"], 1.0, "base"),
        ("conllx", ["--labels", "universal"], 1.0, "base"),
        ("conllu", ["--labels", "auto"], 1.0, "base"),
    ],
)
def test_command_by_format_and_choice(
    run_cli: RunCli,
    pairs: dict[str, tuple[str, str]],
    dialect: str,
    flags: list[str],
    las: float,
    deprel: str,
) -> None:
    gold, system = pairs[dialect]
    got, signature = _las(run_cli("attach", gold, system, *flags, "--format", "json"))
    assert got == las and f"|deprel:{deprel}|" in signature
    # the API: the same choice, the same number
    labels = (
        {"--full-labels": "full", "--deprel-base": "universal"}.get(flags[0], flags[-1]) if flags else "auto"
    )
    api = evalcore.attach(gold, system, labels=labels)  # type: ignore[arg-type]
    assert api.score.las == las and api.signature == signature


def test_text_header_says_the_choice(run_cli: RunCli, pairs: dict[str, tuple[str, str]]) -> None:
    universal = run_cli("attach", *pairs["conllu"]).out.splitlines()[0]
    full = run_cli("attach", *pairs["conllx"]).out.splitlines()[0]
    assert universal.startswith("relation labels: universal (the DEPREL before ':'")
    assert full.startswith("relation labels: full (each DEPREL as written")


def test_flags_exclude_each_other(run_cli: RunCli, pairs: dict[str, tuple[str, str]]) -> None:
    with pytest.raises(SystemExit) as exc:
        run_cli("attach", *pairs["conllu"], "--deprel-base", "--full-labels")
    assert exc.value.code == 2


def test_api_deprel_base_is_universal(pairs: dict[str, tuple[str, str]]) -> None:
    gold, system = pairs["conllx"]
    assert evalcore.attach(gold, system, deprel_base=True).score.las == 1.0
    assert evalcore.attach(gold, system).score.las == 0.5
    with pytest.raises(ValueError, match="contradicts"):
        evalcore.attach(gold, system, deprel_base=True, labels="full")


@pytest.mark.parametrize(
    ("dialect", "table", "las"),
    [
        ("conllx", "deprel_base = true", 1.0),  # the command's --deprel-base, the API's deprel_base=True
        ("conllx", 'labels = "universal"\ndeprel_base = true', 1.0),
        ("conllu", "full_labels = true", 0.5),  # --full-labels
        ("conllu", "deprel_base = false", 1.0),  # nothing asked: auto
    ],
)
def test_batch_takes_the_flags_names(
    pairs: dict[str, tuple[str, str]], tmp_path: Path, dialect: str, table: str, las: float
) -> None:
    """A manifest's ``[gold.attach]`` names a flag that gives one choice as the API names it
    (``deprel_base``), and the command's other shorthand (``full_labels``) alike."""
    from evalcore.batch import read_manifest, run_batch, serial_map
    from evalcore.limits import Limits

    gold, system = pairs[dialect]
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        f'[[gold]]\nname = "g"\nfile = "{gold}"\nmetrics = ["attach"]\n[gold.systems]\n'
        f'"s" = "{system}"\n[gold.attach]\n{table}\n',
        encoding="utf-8",
    )
    rows = run_batch(read_manifest(str(manifest)), Limits(), serial_map)
    assert next(r.value for r in rows if r.score == "las") == las


def test_batch_refuses_names_that_contradict_each_other(
    pairs: dict[str, tuple[str, str]], tmp_path: Path
) -> None:
    from evalcore.batch import read_manifest
    from evalcore.errors import InputFormatError

    gold, system = pairs["conllu"]
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        f'[[gold]]\nname = "g"\nfile = "{gold}"\nmetrics = ["attach"]\n[gold.systems]\n'
        f'"s" = "{system}"\n[gold.attach]\nlabels = "full"\ndeprel_base = true\n',
        encoding="utf-8",
    )
    with pytest.raises(
        InputFormatError, match=r"m\.toml:9: \[gold\.attach\]: deprel_base contradicts labels"
    ):
        read_manifest(str(manifest))


def test_in_memory_gold_is_decided_by_its_first_sentence(pairs: dict[str, tuple[str, str]]) -> None:
    for dialect, las in (("conllu", 1.0), ("conllx", 0.5)):
        gold, system = (Path(p).read_bytes() for p in pairs[dialect])
        assert evalcore.attach(gold, system).score.las == las


def test_breakdown_and_confusion_follow_the_choice(
    run_cli: RunCli, pairs: dict[str, tuple[str, str]]
) -> None:
    for dialect, groups in (
        ("conllu", {"nsubj", "aux", "root", "obl"}),
        ("conllx", {r for _, _, r in GOLD_ROWS + SYSTEM_ROWS}),
    ):
        doc = json.loads(
            run_cli("attach", *pairs[dialect], "--by", "deprel", "--confusion", "--format", "json").out
        )
        assert {g["group"] for g in doc["breakdowns"][0]["groups"]} == groups
        wrong = doc["confusion"]["errors"]["label_wrong"]
        assert wrong == (0 if dialect == "conllu" else 2)


def test_lattice_follows_the_choice(run_cli: RunCli, pairs: dict[str, tuple[str, str]]) -> None:
    """The lattice command's classic LAS (same tokens: the gold scenario) and its labeled TedEval."""
    base = json.loads(run_cli("lattice", *pairs["conllu"], "--format", "json").out)
    full = json.loads(run_cli("lattice", *pairs["conllu"], "--full-labels", "--format", "json").out)
    assert base["classic"]["L"] == 1.0 and full["classic"]["L"] == 0.5
    assert "|deprel:base|" in base["signature"] and "|deprel:full|" in full["signature"]
    conllx = json.loads(run_cli("lattice", *pairs["conllx"], "--format", "json").out)
    assert conllx["classic"]["L"] == 0.5 and "|deprel:full|" in conllx["signature"]
    api = evalcore.lattice(*pairs["conllu"])
    assert api.classic is not None and api.classic.labeled == 1.0


def test_assets_pairs_default_to_universal() -> None:
    """The shipped English-EWT gold (a .conllu.gz) and spaCy's parse of its words."""
    gold = ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz"
    assert conll_dialect(gold) == "conllu"
