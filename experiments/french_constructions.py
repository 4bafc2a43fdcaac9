"""Constructions as units of evaluation on French-GSD test: which constructions carry the ranking flip?

The parses and golds of ``french_ud_sud.py`` (spacy-ud, spacy-ud-seed1 on UD; spacy-sud on SUD;
French-GSD test r2.16, 416 sentences; dev was the parsers' training data), the atlas's
constructions from the shipped pattern files (``assets/patterns/ud.pat`` for UD, ``sud.pat`` for
SUD), and per construction (docs/patterns.md, "Constructions as units of evaluation"): the rates
between the UD and the SUD gold, every parse's UAS/LAS on the words it covers and TedEval on the
operations and nodes it owns against each gold, its own gold and UD+SUD, with bootstrap intervals
(1,000 resamples), approximate-randomization tests (10,000 shuffles, seed 12345) and the flips.

    python experiments/french_constructions.py     # writes docs/results/french_constructions.{md,csv,txt}

The same numbers as ``evalcore atlas --scheme ud UD spacy-ud=… spacy-ud-seed1=… --scheme sud SUD
spacy-sud=… --pattern ud=assets/patterns/ud.pat --pattern sud=assets/patterns/sud.pat
--bootstrap 1000`` (its last tables are the ``.txt``).  A slow test re-runs this and compares with
the committed files byte for byte.
"""

from __future__ import annotations

from pathlib import Path

from french_ud_sud import MODELS, gold_path, parse_path
from tables import RESULTS, markdown_table

from evalcore.construction_scores import ConstructionReport
from evalcore.experiment import NamedTrees, Scheme
from evalcore.families.atlas import AtlasInputs, AtlasResult, AtlasSettings, run
from evalcore.families.tedeval import TedevalSettings
from evalcore.formats.conllu import read_conllu
from evalcore.patterns import shipped
from evalcore.report.constructions import constructions_text, order_text
from evalcore.report.tables import csv_text

NAME = "french_constructions"
SHUFFLES, SEED, BOOTSTRAP = 10_000, 12345, 1000
CSV_HEADERS = [
    "construction",
    "against",
    "metric",
    "parse",
    "scheme",
    "score",
    "low",
    "high",
    "rank",
    "x",
    "n",
]
FAIR = (("own gold", "UAS"), ("own gold", "LAS"), ("ud+sud", "U-TED"), ("ud+sud", "L-TED"))


def evaluate() -> AtlasResult:
    def named(name: str, path: Path) -> NamedTrees:
        return NamedTrees(name, tuple(read_conllu(path, on_invalid="keep")), str(path))

    schemes = []
    for scheme in ("ud", "sud"):
        parses = tuple(named(n, parse_path(n)) for n, s, _ in MODELS if s == scheme)
        schemes.append(Scheme(scheme, named(f"{scheme}-gold", gold_path(scheme, "test")), parses))
    settings = AtlasSettings(patterns=(f"ud={shipped('ud')}", f"sud={shipped('sud')}"))
    experiment = TedevalSettings(shuffles=SHUFFLES, seed=SEED, bootstrap=BOOTSTRAP)
    return run(AtlasInputs(tuple(schemes), experiment), settings)


def _pct(v: float) -> str:
    return f"{100 * v:.2f}"


def csv_rows(report: ConstructionReport) -> list[list[str | int | float | None]]:
    out: list[list[str | int | float | None]] = []
    for s in report.scores:
        for against, metric, cells in s.cells:
            for c in cells:
                iv = c.interval
                out.append(
                    [
                        s.construction,
                        against,
                        metric,
                        c.parse,
                        c.scheme,
                        f"{c.value:.4f}" if c.n else "",
                        f"{iv.low:.4f}" if iv is not None and c.n else "",
                        f"{iv.high:.4f}" if iv is not None and c.n else "",
                        c.rank,
                        f"{c.x:g}",
                        f"{c.n:g}",
                    ]
                )
    return out


def markdown(report: ConstructionReport) -> str:
    parses = [p for p, _ in report.parses]
    rates = [
        [r.construction, str(r.words_a), str(r.words_b), str(r.words), str(r.agree), f"{100 * r.share:.1f}%"]
        for r in report.rates
    ]
    rows = []
    for s in report.scores:
        for against, metric in FAIR:
            got = {c.parse: c for a, m, cells in s.cells if (a, m) == (against, metric) for c in cells}
            if not any(c.n for c in got.values()):
                continue
            rows.append(
                [s.construction, f"{metric} vs {against}"]
                + [_pct(got[p].value) if got[p].n else "n/a" for p in parses]
                + [order_text([(p, got[p].rank) for p in parses])]
            )
    flips = []
    for s in report.scores:
        for f in s.flips:
            if not f.significant:
                continue
            for v in (*f.a_ahead, *f.b_ahead):
                if not v.significant:
                    continue
                leader, other = (f.a, f.b) if v.ahead == f.a else (f.b, f.a)
                gap = f"{100 * abs(v.difference):.2f}"
                row = f"{v.metric} vs {v.against}"
                flips.append([s.construction, row, f"{leader} > {other}", gap, f"{v.p_value:.4f}"])
    return (
        "# Constructions as units of evaluation: French-GSD test r2.16, UD and SUD\n\n"
        'Made by `experiments/french_constructions.py` (docs/patterns.md, "Constructions as units of '
        'evaluation"); every number, with its bootstrap interval, is in `french_constructions.csv`, and '
        "the command's full tables in `french_constructions.txt`.\n\n"
        "## Rates: how often the UD and SUD golds agree on each construction\n\n"
        "Words it covers in the UD gold, in the SUD gold, in either; those both golds attach to the same "
        "head.\n\n"
        + markdown_table(["construction", "words ud", "words sud", "words", "agree", "share"], rates)
        + "\n## Scores per construction on the fair rows\n\n"
        "UAS/LAS against each parse's own scheme's gold (on the gold words the construction covers), "
        "TedEval against the UD+SUD generalization (on the operations and nodes it owns), percent.\n\n"
        + markdown_table(["construction", "row", *parses, "order"], rows)
        + "\n## Significant flips per construction\n\n"
        "Pairs of parses that two fair rows order differently, each order significant on some row "
        f"(approximate randomization, {SHUFFLES:,} shuffles, p < 0.05); only the significant rows are "
        "listed.\n\n"
        + (
            markdown_table(["construction", "row", "order", "gap (points)", "p"], flips)
            if flips
            else "No significant flip.\n"
        )
        + f"\n{report.sentences} sentences. Signature: `{report.signature}`\n"
    )


def write(result: AtlasResult, out: Path = RESULTS) -> None:
    report = result.constructions
    assert report is not None
    (out / f"{NAME}.md").write_text(markdown(report), encoding="utf-8")
    (out / f"{NAME}.csv").write_text(csv_text(CSV_HEADERS, csv_rows(report)), encoding="utf-8")
    (out / f"{NAME}.txt").write_text(constructions_text(report), encoding="utf-8")


if __name__ == "__main__":
    write(evaluate())
