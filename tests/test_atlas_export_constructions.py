"""``evalcore atlas --pattern FILE --export-misc OUT`` marks each exported word with its construction
under its scheme's pattern file (docs/atlas.md, "Back to the annotators"); without ``--pattern`` the
file is as before."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from test_patterns_where import GOLD, PARSE

ROOT = Path(__file__).resolve().parents[1]
UD_PAT = str(ROOT / "assets" / "patterns" / "ud.pat")

# The parse of docs/patterns.md's restricted scores (est the root, table its obl), under ud.pat,
# counted by hand from the file's entries in order:
#   Le    det of chat: `H -[1=det]-> X` binds X to it (tier 1)           -> determiner
#   chat  nsubj, no entry binds X; tier 2: H of Le's det                 -> determiner
#   est   VERB root, no entry binds X; its dependents are nsubj and obl,
#         which no entry's edge takes                                    -> other (unmarked)
#   sur   `H -[case]-> X` (tier 1)                                       -> adposition
#   la    `H -[1=det]-> X` (tier 1)                                      -> determiner
#   table obl, no entry binds X; tier 2: case (sur) before det (la)      -> adposition
EXPECTED = ("determiner", "determiner", None, "adposition", "determiner", "adposition")


def _misc(path: str) -> list[str]:
    return [
        line.split("\t")[9]
        for line in Path(path).read_text(encoding="utf-8").splitlines()
        if line[:1].isdigit()
    ]


def test_exported_words_carry_their_construction(
    run_cli: Callable[..., object], write_file: Callable[[str, str], str], tmp_path: Path
) -> None:
    gold, parse = write_file("gold.conllu", GOLD + "\n"), write_file("parse.conllu", PARSE + "\n")
    plain, marked = str(tmp_path / "plain.conllu"), str(tmp_path / "marked.conllu")
    args = ("atlas", "--scheme", "ud", gold, parse, "--no-ranking", "--export-side", "parse")
    assert run_cli(*args, "--export-misc", plain).code == 0  # type: ignore[attr-defined]
    res = run_cli(*args, "--export-misc", marked, "--pattern", UD_PAT)
    assert res.code == 0, res.err  # type: ignore[attr-defined]
    got = [
        next((a.split("=", 1)[1] for a in m.split("|") if a.startswith("Construction=")), None)
        for m in _misc(marked)
    ]
    assert tuple(got) == EXPECTED
    assert "Construction=" not in Path(plain).read_text(encoding="utf-8")
    # apart from the Construction attributes, the same file
    stripped = re.sub(r"Construction=[a-z0-9_-]+\|?", "", Path(marked).read_text(encoding="utf-8"))
    assert stripped == Path(plain).read_text(encoding="utf-8")
