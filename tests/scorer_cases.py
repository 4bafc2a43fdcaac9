"""The CoNLL 2018 scorer's own alignment tests, kept once for every test module that uses them.

``conll18_ud_eval.py`` (ufal/conll2018, ``evaluation_script/``) ships ``class TestAlignment``:
each case is (gold words, system words, aligned words), written in its notation, where
``"abc a b c"`` is a multiword token ``abc`` of the words a, b, c.  The expected counts are the
scorer's, not evalcore's.
"""

from __future__ import annotations

__all__ = ["SCORER_CASES", "scorer_conllu"]

SCORER_CASES = [
    (["a"], ["a"], 1),
    (["a", "b", "c"], ["a", "b", "c"], 3),
    (["abc a b c"], ["a", "b", "c"], 3),
    (["a", "bc b c", "d"], ["a", "b", "c", "d"], 4),
    (["abcd a b c d"], ["ab a b", "cd c d"], 4),
    (["abc a b c", "de d e"], ["a", "bcd b c d", "e"], 5),
    (["abcd"], ["a", "b", "c", "d"], 0),
    (["abc", "d"], ["a", "b", "c", "d"], 1),
    (["a", "bc", "d"], ["a", "b", "c", "d"], 2),
    (["a", "bc b c", "d"], ["a", "b", "cd"], 2),
    (["abc a BX c", "def d EX f"], ["ab a b", "cd c d", "ef e f"], 4),
    (["ab a b", "cd bc d"], ["a", "bc", "d"], 2),
    (["a", "bc b c", "d"], ["ab AX BX", "cd CX a"], 1),
]


def scorer_conllu(*sentences: list[str]) -> str:
    """CoNLL-U of sentences in the scorer's test notation (``TestAlignment._load_words``).

    Every word has UPOS/XPOS ``X``; the first word of a sentence is its root, the others hang
    from it with ``dep``.
    """
    out = []
    for sent in sentences:
        lines, n = [], 0
        for tok in sent:
            parts = tok.split(" ")
            if len(parts) == 1:
                n += 1
                lines.append(f"{n}\t{parts[0]}\t_\tX\tX\t_\t{0 if n == 1 else 1}\tdep\t_\t_")
            else:
                lines.append(f"{n + 1}-{n + len(parts) - 1}\t{parts[0]}\t_\t_\t_\t_\t_\t_\t_\t_")
                for part in parts[1:]:
                    n += 1
                    lines.append(f"{n}\t{part}\t_\tX\tX\t_\t{0 if n == 1 else 1}\tdep\t_\t_")
        out.append("\n".join(lines) + "\n\n")
    return "".join(out)
