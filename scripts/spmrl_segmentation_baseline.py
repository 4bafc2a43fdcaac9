"""Two segmentation baselines for SPMRL Hebrew dev, scored with SEGEVAL (docs/lattice.md, "SEGEVAL
and token accuracy").

    python scripts/spmrl_segmentation_baseline.py [--data ../shared/data] [--out DIR]

* ``first-path``: in every token's ambiguity lattice, follow the first arc
  (file order) that can still reach the token's end;
* ``most-frequent``: the analysis (segments + CPOS tags) seen most often for
  the same token form in the *test* gold lattices (the only other gold the
  data folder has), among the analyses the token's ambiguity lattice offers;
  tokens never seen fall back to the first path.

Each baseline is written as a one-path lattice file (in ``--out``, default a
temporary folder) and scored against ``dev_hebtb-gold.lattices`` exactly as
``evalcore lattice GOLD BASELINE --ambiguity-lattice dev_hebtb.lattices.gz``
would.  The data is read in place and never copied into the repository.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from evalcore.formats.lattice import read_lattices, read_tokens, write_lattices
from evalcore.lattice.paths import first_path, lexemes_of_path, token_lattices, token_paths
from evalcore.lattice.reading import load_pairing
from evalcore.metrics.joint import JointResult, evaluate
from evalcore.trees import Arc, Lattice

Analysis = tuple[tuple[str, str], ...]


def _analysis(arcs: tuple[Arc, ...] | list[Arc]) -> Analysis:
    return tuple((a.segment, a.cpos) for a in arcs)


def train_counts(gold_lattices: Path, tokens: Path) -> dict[str, Counter[Analysis]]:
    """Token form → how often each gold analysis was seen."""
    counts: dict[str, Counter[Analysis]] = {}
    for lat, toks in zip(read_lattices(gold_lattices), read_tokens(tokens), strict=True):
        by_token: dict[int, list[Arc]] = {}
        for a in sorted(lat.arcs, key=lambda a: a.start):
            by_token.setdefault(a.token_id, []).append(a)
        for tid, arcs in by_token.items():
            counts.setdefault(toks[tid - 1], Counter())[_analysis(arcs)] += 1
    return counts


def most_frequent_path(
    lattice: Lattice, forms: tuple[str, ...], counts: dict[str, Counter[Analysis]]
) -> list[Arc]:
    fallback = first_path(lattice)
    out: list[Arc] = []
    for tl in sorted(token_lattices(lattice).values(), key=lambda t: t.entry):
        seen = counts.get(forms[tl.token - 1], Counter())
        best: tuple[Arc, ...] | None = None
        best_count = 0
        for arcs in token_paths(tl):
            c = seen.get(_analysis(arcs), 0)
            if c > best_count:
                best, best_count = arcs, c
        out.extend(best if best is not None else [a for a in fallback if a.token_id == tl.token])
    return out


def report(name: str, r: JointResult) -> str:
    s = r.segeval
    lc = r.lattice_check
    outside = f"; predicted analyses outside the lattice: {lc.pred_outside}/{lc.sentences}" if lc else ""
    return (
        f"{name:14s} SEGEVAL U {100 * s.unlabeled:6.2f}  L {100 * s.labeled:6.2f}   token accuracy "
        f"U {100 * (s.token_accuracy_unlabeled or 0):6.2f}  L {100 * (s.token_accuracy_labeled or 0):6.2f}"
        f"   ({s.counts.gold_tokens} tokens, {s.counts.sentences} sentences{outside})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    ap.add_argument("--out", help="folder for the baseline lattice files (default: a temporary folder)")
    args = ap.parse_args()
    d = Path(args.data) / "hebrew" / "spmrl_hebtb"
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="spmrl-baseline-"))
    out.mkdir(parents=True, exist_ok=True)
    gold = d / "dev_hebtb-gold.lattices"
    ma = list(read_lattices(d / "dev_hebtb.lattices.gz"))
    dev_tokens = list(read_tokens(d / "dev_hebtb.tokens"))
    counts = train_counts(d / "test_hebtb-gold.lattices", d / "test_hebtb.tokens")

    first = out / "dev_first_path.lattices"
    first.write_text(write_lattices(Lattice(first_path(lat)) for lat in ma), encoding="utf-8")
    frequent = out / "dev_most_frequent.lattices"
    frequent.write_text(
        write_lattices(
            Lattice(tuple(most_frequent_path(lat, toks, counts)))
            for lat, toks in zip(ma, dev_tokens, strict=True)
        ),
        encoding="utf-8",
    )
    print(f"SPMRL Hebrew dev ({len(ma)} sentences); baseline files in {out}")
    oracle = evaluate(load_pairing(str(gold), str(gold)), ambiguity=ma)
    lc = oracle.lattice_check
    assert lc is not None
    print(
        f"gold analyses outside the ambiguity lattice: {lc.gold_outside}/{lc.sentences} sentences by "
        f"segment+CPOS ({lc.gold_outside_segments} by segments alone); tokens: {lc.gold_tokens_outside}/"
        f"{lc.tokens} by segment+CPOS, {lc.gold_tokens_outside_segments} by segments alone"
    )
    for name, path in (("first-path", first), ("most-frequent", frequent)):
        result = evaluate(load_pairing(str(gold), str(path)), name=name, ambiguity=ma)
        print(report(name, result))
    # sanity: every baseline path is a path of its lattice
    assert all(len(lexemes_of_path(lat)) for lat in read_lattices(first))


if __name__ == "__main__":
    main()
