"""The WSJ sample's dependencies as the NED paper evaluated them: gold, and a right-branching baseline.

    python tests/ned_wsj.py OUT_DIR

writes, from ``../shared/data/ptb_wsj_sample/dependency_dp`` (word TAB tag TAB head, 1,823
sentences), four files: ``gold.dp`` and ``rb.dp`` in NED.pl's three-column format, and
``gold.conllu`` and ``rb.conllu`` (the tag in XPOS) for ``evalcore attach``.  ``rb`` is the
right-branching baseline of unsupervised parsing, over the words NED.pl does not take for
punctuation (each such word's head is the next one, the last one is the root); a punctuation
token keeps its gold head, which NED.pl never scores.  No head points at a punctuation token, on
which NED.pl dies.  Used by ``scripts/make_reference_fixtures.py`` (NED.pl's output is committed,
never the WSJ text: LDC) and by ``tests/test_reference_tools.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

NEDPL_TAGS = frozenset(
    {",", ".", ":", "#", "(", ")", "-LRB-", "-RRB-", "``", "''", "`'", "'`", "LS", "SYM", ""}
)
"""NED.pl's PUNCT_DFLT pattern spelled out (and ``PUNCT``), independent of evalcore's copy."""


def _sentences(data: Path) -> list[list[tuple[str, str, int]]]:
    out: list[list[tuple[str, str, int]]] = []
    for path in sorted((data / "ptb_wsj_sample" / "dependency_dp").glob("*.dp")):
        block: list[tuple[str, str, int]] = []
        for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
            if not line.strip():
                if block:
                    out.append(block)
                block = []
                continue
            word, tag, head = line.split("\t")
            block.append((word, tag, int(head)))
    return out


def _right_branching(sentence: list[tuple[str, str, int]]) -> list[int]:
    words = [i + 1 for i, (_, tag, _) in enumerate(sentence) if tag not in NEDPL_TAGS and tag != "PUNCT"]
    heads = [h for _, _, h in sentence]
    for here, nxt in zip(words, [*words[1:], 0], strict=True):
        heads[here - 1] = nxt
    return heads


def write_ned_pair(data: Path, out: Path) -> dict[str, Path]:
    """``gold.dp``, ``rb.dp``, ``gold.conllu``, ``rb.conllu`` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    sentences = _sentences(data)
    files = {name: out / name for name in ("gold.dp", "rb.dp", "gold.conllu", "rb.conllu")}
    texts: dict[str, list[str]] = {name: [] for name in files}
    for sentence in sentences:
        for name, heads in (("gold", [h for _, _, h in sentence]), ("rb", _right_branching(sentence))):
            for i, ((word, tag, _), head) in enumerate(zip(sentence, heads, strict=True), start=1):
                texts[f"{name}.dp"].append(f"{word}\t{tag}\t{head}")
                deprel = "root" if head == 0 else "dep"
                texts[f"{name}.conllu"].append(f"{i}\t{word}\t_\t_\t{tag}\t_\t{head}\t{deprel}\t_\t_")
            texts[f"{name}.dp"].append("")
            texts[f"{name}.conllu"].append("")
    for name, path in files.items():
        path.write_text("\n".join(texts[name]) + "\n", encoding="utf-8")
    return files


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    for path in write_ned_pair(root.parent / "shared" / "data", Path(sys.argv[1])).values():
        print(path)
