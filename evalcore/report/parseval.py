"""Writers of PARSEVAL (``evalcore parseval``; docs/freval.md, "PARSEVAL as evalb computes it"): evalb's
report, line for line as the compiled evalb prints it (2006, or the 1997 layout of evalb's ``sample.rsl``),
the JSON document, and the error and skip sentences for stderr."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from evalcore.display import Cell, Table
from evalcore.errors import one_line
from evalcore.metrics.parseval import (
    ParsevalCounts,
    ParsevalResult,
    ParsevalScore,
    SentenceComparison,
    SentenceRow,
    row_of,
)
from evalcore.report.tables import pick

__all__ = [
    "EVALB_HEADER",
    "RowTexts",
    "evalb_report_tail",
    "evalb_row_line",
    "evalb_sentence_line",
    "format_evalb_report",
    "parseval_json",
    "parseval_table",
    "problem_lines",
]


def _pct(num: int, den: int) -> float:
    return 100.0 * num / den if den > 0 else 0.0


def _summary(c: ParsevalCounts, version: str) -> list[str]:
    sentn = c.sentences - c.errors - c.skipped
    r = _pct(c.matched, c.gold)
    p = _pct(c.matched, c.test)
    lines = [
        f"Number of sentence        = {c.sentences:6d}",
        f"Number of Error sentence  = {c.errors:6d}",
        f"Number of Skip  sentence  = {c.skipped:6d}",
        f"Number of Valid sentence  = {sentn:6d}",
        f"Bracketing Recall         = {r:6.2f}",
        f"Bracketing Precision      = {p:6.2f}",
    ]
    if version != "1997":
        # 0/0: evalb computes 2*p*r/(p+r) in C and prints the NaN that x86-64 makes of it, '-nan'
        fm = f"{2 * p * r / (p + r):6.2f}" if p + r else f"{'-nan':>6}"
        lines.append(f"Bracketing FMeasure       = {fm}")
    lines += [
        f"Complete match            = {(100.0 * c.complete / sentn if sentn > 0 else 0.0):6.2f}",
        f"Average crossing          = {(1.0 * c.crossing / sentn if sentn > 0 else 0.0):6.2f}",
        f"No crossing               = {(100.0 * c.no_crossing / sentn if sentn > 0 else 0.0):6.2f}",
        f"2 or less crossing        = {(100.0 * c.two_or_less / sentn if sentn > 0 else 0.0):6.2f}",
        f"Tagging accuracy          = {_pct(c.correct_tags, c.words):6.2f}",
    ]
    return lines


EVALB_HEADER = (
    "  Sent.                        Matched  Bracket   Cross        Correct Tag",
    " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy",
    "=" * 76,
)


def evalb_sentence_line(s: SentenceComparison, version: str = "2006", texts: RowTexts | None = None) -> str:
    """One sentence's line of evalb's report (see :func:`format_evalb_report`)."""
    return evalb_row_line(row_of(s), version, texts)


class _Texts(dict[object, str]):
    """A number's text as one ``%`` format writes it, made once per number (the same few come back
    on every line of evalb's report; cleared when full: it cannot grow)."""

    def __init__(self, text: Callable[[object], str]) -> None:
        super().__init__()
        self.text = text

    def __missing__(self, key: object) -> str:
        if len(self) >= 50_000:
            self.clear()
        text = self[key] = self.text(key)
        return text


class RowTexts:
    """The number texts of one report's lines (one per report or command run: no state outlives it)."""

    def __init__(self) -> None:
        self.d3 = _Texts("%3d".__mod__)
        self.d4 = _Texts("%4d".__mod__)
        self.pct = _Texts(lambda nd: format(_pct(*nd), "6.2f"))  # type: ignore[misc]  # keyed by (num, den)


def evalb_row_line(row: SentenceRow, version: str = "2006", texts: RowTexts | None = None) -> str:
    """The line of evalb's report of a :class:`~evalcore.metrics.parseval.SentenceRow`, as
    ``"%4d  %3d    %d  %6.2f %6.2f   %3d    %3d  %3d    %3d   %4d  %4d   %6.2f"`` prints it (each
    number's text made once, :class:`_Texts`); an error or skip line evalb does not score prints 0
    words, except in the 1997 layout, which prints the gold words on every line."""
    number, length, status, m, g, t, crossing, _, tags, _ = row
    words = row.gold_words if version == "1997" else row.words
    texts = texts or RowTexts()
    d3, d4, pct = texts.d3, texts.d4, texts.pct
    return (
        f"{number:4d}  {d3[length]}    {status:d}  {pct[m, g]} {pct[m, t]}   {d3[m]}    {d3[g]}  {d3[t]}"
        f"    {d3[crossing]}   {d4[words]}  {d4[tags]}   {pct[tags, words]}"
    )


def evalb_report_tail(result: ParsevalResult, version: str = "2006") -> list[str]:
    """The lines of evalb's report after the sentence lines: the total line and the summary."""
    out = ["=" * 76]
    c = result.all.counts
    total = ""
    if c.gold > 0 and c.test > 0:
        r, p = _pct(c.matched, c.gold), _pct(c.matched, c.test)
        total = " " * 16 + f"{r:6.2f} {p:6.2f} "
        if version == "1997":  # sample.rsl: the number of sentences without crossing
            total += f"{c.matched:6d} {c.gold:6d} {c.test:4d}  {c.no_crossing:5d}"
        else:  # evalb.c (2006) print_total: "%6d %5d %5d  %5d", the total number of crossing brackets
            total += f"{c.matched:6d} {c.gold:5d} {c.test:5d}  {c.crossing:5d}"
    total += f"  {c.words:5d} {c.correct_tags:5d}   {_pct(c.correct_tags, c.words):6.2f}"
    out.append(total)
    out.append("=== Summary ===")
    out.append("")
    out.append("-- All --")
    out += _summary(c, version)
    out.append("")
    out.append(f"-- len<={result.config.params.cutoff_len} --")
    out += _summary(result.cutoff.counts, version)
    return out


def format_evalb_report(result: ParsevalResult, version: str = "2006") -> str:
    """evalb's standard output, line for line, so that it can be diffed with evalb's.

    ``version="2006"``: the evalb in use today (``evalb.c`` compiled from its
    2006 source; with the F-measure line; its error lines print 0 words; the
    total line's crossing column is the total number of crossing brackets).
    ``version="1997"``: the original layout, as in the ``sample.rsl`` shipped
    with evalb, whose total line prints the number of sentences *without*
    crossing in that column.  (``result`` must keep every sentence's row, or every sentence.)
    """
    rows = result.rows or tuple(row_of(s) for s in result.sentences)
    texts = RowTexts()
    out = [*EVALB_HEADER, *(evalb_row_line(r, version, texts) for r in rows)]
    out += evalb_report_tail(result, version)
    return "\n".join(out) + "\n"


def _score_json(s: ParsevalScore) -> dict[str, object]:
    return (
        pick(s.counts, "sentences", "errors", "skipped", "valid")
        | pick(
            s,
            "recall",
            "precision",
            "f1",
            "complete_match",
            "average_crossing",
            "no_crossing",
            "two_or_less_crossing",
            "tagging_accuracy",
        )
        | pick(s.counts, "matched", "gold", "test", "words", "correct_tags")
    )


def parseval_table(result: ParsevalResult) -> Table:
    """Two rows, ``all`` and ``len<=CUTOFF`` (evalb's two summaries), with the JSON keys as columns
    (scores as fractions)."""
    rows: list[tuple[Cell, ...]] = []
    for name, s in (("all", result.all), (f"len<={result.config.params.cutoff_len}", result.cutoff)):
        doc = _score_json(s)
        rows.append((name, *(v for v in doc.values() if isinstance(v, int | float))))
    headers = ("subset", *_score_json(result.all).keys())
    return Table(headers, tuple(rows), result.signature)


def parseval_json(result: ParsevalResult) -> dict[str, object]:
    """The JSON document: all sentences and those within the length cutoff, and the error and
    skip sentences kept."""
    return {
        "signature": result.signature,
        "all": _score_json(result.all),
        "cutoff_len": result.config.params.cutoff_len,
        "cutoff": _score_json(result.cutoff),
        "problems": [
            {"sentence": s.index} | pick(s, "gold_line", "test_line", "status", "message")
            for s in result.sentences
            if s.status != "ok"
        ],
    }


def problem_lines(comparisons: Iterable[SentenceComparison], gold_name: str, total: int = 0) -> Iterator[str]:
    """One line per error or skip sentence kept (evalb prints its errors on stderr too), and one for
    those beyond (``total`` error and skip sentences in all)."""
    listed = 0
    for s in comparisons:
        if s.status != "ok":
            listed += 1
            yield one_line(f"{s.status}: {gold_name}:{s.gold_line}: sentence {s.index}: {s.message}")
    if total > listed:
        yield f"... and {total - listed} more error or skip sentences (counted, not listed)"
