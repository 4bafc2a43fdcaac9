"""Make the label maps shipped in ``assets/labelmaps/`` (docs/labels.md "Maps we ship").

Each map is ``evalcore align-labels`` run on two annotations of the same sentences, then the
hand edits listed below (pairs dropped or added, each with its reason), written with a
provenance header.  Run from the repository root:

    .venv/bin/python scripts/make_labelmaps.py [--check]

``--check`` compares the files with what this script makes and exits 1 on a difference.
``assets/labelmaps/farpahc-ud.map`` is not made here: it is a link to the FarPaHC experiment's
reviewed map (``assets/farpahc/eacl/maps/psd-to-ud.map``; ``experiments/farpahc_eacl.py prepare``
proposes it on the map set, its header lists the review), so the map the app offers is the one
the experiment scores with.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from evalcore.conversion import ConversionConfig
from evalcore.labelalign import AlignSettings, align_files
from evalcore.report.labels import alignment_map

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "labelmaps"
MADE = "2026-11-26"  # the date the maps were made and reviewed (fixed, so the files are reproducible)
UD_V2_LOG = "UD v2 change log, https://universaldependencies.org/v2/summary.html"


@dataclass(frozen=True)
class MapSpec:
    file: str
    title: str
    a: tuple[str, str]  # (name, path relative to the root)
    b: tuple[str, str]
    function_sep: str = "-="
    skip_mismatched: bool = False
    drop: tuple[tuple[str, str, str], ...] = ()  # (old, new, why)
    add: tuple[tuple[str, str, str], ...] = ()


SPECS = (
    MapSpec(
        "ud1-ud2.en_ewt.map",
        "UD v1 relation names onto UD v2 (English, EWT test: r1.4 vs r2.16 gold)",
        ("v1", "assets/en_ewt/en-ud-test.r1.4.conllu.gz"),
        ("v2", "assets/en_ewt/en_ewt-ud-test.r2.16.conllu.gz"),
        skip_mismatched=True,
        drop=(
            ("name", "hd", "a head switch (v2 flat heads the first word), not a renaming"),
            ("goeswith", "hd", "a head switch, not a renaming"),
        ),
        add=(
            ("name", "flat", UD_V2_LOG),
            ("csubjpass", "csubj:pass", UD_V2_LOG + " (1 occurrence in EWT test)"),
        ),
    ),
    MapSpec(
        "clearnlp-ud2.en_ewt.map",
        "spaCy's ClearNLP relation names onto UD v2 (English, EWT test: en_core_web_sm parse on "
        "gold tokens vs the r2.16 gold)",
        ("spacy", "assets/en_ewt/en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz"),
        ("ud2", "assets/en_ewt/en_ewt-ud-test.r2.16.conllu.gz"),
        skip_mismatched=True,
        add=(
            ("csubjpass", "csubj:pass", "ClearNLP's passive clausal subject (3 occurrences, support 1)"),
            ("preconj", "cc:preconj", "ClearNLP's preconjunct (share 0.38: its spans differ)"),
        ),
    ),
    MapSpec(
        "ud-sud.fr_gsd.map",
        "UD relation names onto SUD (French, GSD test r2.16: UD vs SUD gold)",
        ("ud", "assets/fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz"),
        ("sud", "assets/fr_gsd/fr_gsd-sud-test.r2.16.conllu.gz"),
        drop=tuple(
            (old, "hd", "a function word UD attaches low is SUD's head: a head switch, not a renaming")
            for old in ("case", "mark", "cop", "aux:tense", "aux:pass", "aux:caus")
        ),
    ),
    MapSpec(
        "sud-ud.fr_gsd.map",
        "SUD relation names onto UD (French, GSD test r2.16: SUD vs UD gold)",
        ("sud", "assets/fr_gsd/fr_gsd-sud-test.r2.16.conllu.gz"),
        ("ud", "assets/fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz"),
    ),
)


def make(spec: MapSpec) -> str | None:
    """The file's text, or ``None`` if its inputs are not here."""
    path_a, path_b = ROOT / spec.a[1], ROOT / spec.b[1]
    if not (path_a.exists() and path_b.exists()):
        return None
    (al,) = align_files(
        str(path_a),
        str(path_b),
        AlignSettings(),
        ConversionConfig(function_separators=spec.function_sep),
        names=(spec.a[0], spec.b[0]),
        skip_mismatched=spec.skip_mismatched,
    )
    sep = f" --function-sep='{spec.function_sep}'" if spec.function_sep != "-=" else ""
    skip = " --skip-mismatched" if spec.skip_mismatched else ""
    head = [
        f"# {spec.title}",
        f"# made {MADE} by scripts/make_labelmaps.py: the proposal of",
        f"#   evalcore align-labels {spec.a[0]}={spec.a[1]} {spec.b[0]}={spec.b[1]}{sep}{skip}",
        "# (defaults: --min-support 5 --min-share 0.5), reviewed by hand:",
    ]
    head += [f"#   dropped {old}={new}: {why}" for old, new, why in spec.drop]
    head += [f"#   added {old}={new}: {why}" for old, new, why in spec.add]
    if not spec.drop and not spec.add:
        head.append("#   no pair changed")
    head.append("# the counts and coverage below are the aligner's, before the hand edits")
    head.append("# use: evalcore tedeval ... --labels-map SCHEME=THIS_FILE (docs/labels.md)")
    dropped = {f"{old}={new}": why for old, new, why in spec.drop}
    body = []
    for line in alignment_map([al]).splitlines():
        body.append(f"# dropped by hand: {line}" if line in dropped else line)
    missing = sorted(set(dropped) - set(alignment_map([al]).splitlines()))
    if missing:
        raise SystemExit(f"{spec.file}: the aligner no longer proposes {missing}; review the edits")
    body += [f"# added by hand: {why}\n{old}={new}" for old, new, why in spec.add]
    return "\n".join(head) + "\n#\n" + "\n".join(body) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="compare with the files; exit 1 on a difference")
    args = parser.parse_args(argv)
    status = 0
    for spec in SPECS:
        text = make(spec)
        target = OUT / spec.file
        if text is None:
            print(f"{spec.file}: inputs missing, left as it is", file=sys.stderr)
            continue
        if args.check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                print(f"{spec.file}: differs from what scripts/make_labelmaps.py makes", file=sys.stderr)
                status = 1
        else:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
