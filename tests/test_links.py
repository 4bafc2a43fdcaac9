"""Deep links: one validating parser of the query string (``workbench/links.py``), and a
walk of every page with hostile values for each key it reads, asserting that no traceback
(``stException``) reaches the page and that the refused value is reported in the page.

The hostile values are the ones the hostile-input run used (a 5,000-digit number, ``²`` and ``①``,
which ``str.isdigit`` accepts and ``int`` refuses) and their neighbours.  The full walk is slow
(every page × every key × every value, one key at a time: ``make test``).  The fast run visits every
page with all of its keys set to one of four values at once (28 visits instead of one per key and
value, 296): the parser's verdict on each value is pinned by the unit tests above, and the visit
checks that no traceback reaches the page and that the page names every key it did not use.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from workbench.datasets import BUILTINS
from workbench.links import LINK_KEYS, PAGE_KEYS, TOUR_STEPS, SentenceRef, parse_link

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"

HOSTILE = (
    "9" * 5000,
    "²",
    "①",
    "٣",  # Arabic-Indic three
    "１２",  # full-width digits
    "0",
    "-1",
    "99999999999",
    "1e9",
    "<script>alert(1)</script>",
    '"]; a -> b [label="x',
    "\x00",
    "a\u202eb",
    "x" * 100_000,
    " ",
    "upload",
    "../../etc/passwd",
)
QUICK = ("9" * 5000, "²", "①", "<script>alert(1)</script>")
OVER_A_SECOND = {"app.py", "pages/1_Cross_scheme.py", "pages/6_Atlas.py"}
"""Pages whose render takes over a second of CPU: ``make test`` renders them, the fast run does not."""


# ---------------------------------------------------------------------------
# the parser


def test_numbers_are_ascii_digits_of_bounded_length() -> None:
    assert parse_link({"sent": "12"}).sentence() == SentenceRef(number=12)
    for raw in ("²", "①", "٣", "１２"):
        link = parse_link({"sent": raw})
        assert link.sentence() is None
        assert link.problems == (f"sent: '{raw}' is not written with the digits 0-9 (ignored)",)
    link = parse_link({"sent": "9" * 5000})
    assert link.sentence() is None and link.problems == (
        "sent: too long (5,000 characters; at most 200) (ignored)",
    )
    assert parse_link({"sent": "9" * 12}).problems == ("sent: a number of 12 digits is too large (ignored)",)
    assert parse_link({"sent": "0"}).problems == ("sent: numbers start at 1 (ignored)",)


def test_sentence_ids_are_printable_text() -> None:
    assert parse_link({"sent": "fr-ud-test_00005"}).sentence() == SentenceRef(id="fr-ud-test_00005")
    link = parse_link({"sent": "a\x00b"})
    assert link.sentence() is None and "control characters" in link.problems[0]
    assert parse_link({"sent": "x" * 201}).sentence() is None


def test_choices_unknown_and_repeated_keys() -> None:
    keys = [s.key for s in BUILTINS]
    assert parse_link({"data": keys[0]}).text("data") == keys[0]
    assert parse_link({"data": "upload"}).text("data") == "upload"
    bad = parse_link({"data": "no-such", "step": "coordination", "zz": "1", "embed": "true"})
    assert bad.text("data") is None and bad.text("step") == "coordination"
    assert bad.problems[0].startswith("data: unknown value 'no-such' (one of: ")
    assert bad.problems[1:] == ("'zz': not a parameter of this app (ignored)",)  # embed is Streamlit's
    twice = parse_link({"sent": ["1", "2"]})
    assert twice.sentence() == SentenceRef(number=2)
    assert twice.problems == ("sent: given 2 times; the last one is used",)
    assert parse_link({"sent": ""}) == parse_link({})


def test_the_table_knows_every_key_the_pages_read() -> None:
    for page, keys in PAGE_KEYS.items():
        assert (ROOT / page).is_file(), page
        assert set(keys) <= set(LINK_KEYS)
    assert {k for keys in PAGE_KEYS.values() for k in keys} == set(LINK_KEYS)
    assert set(PAGE_KEYS) == {"app.py", *(f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py"))}


def test_generated_page_keys_keep_the_old_links() -> None:
    """The keys of the pages whose settings are declared (``linked``: the ``link=`` keys of the
    declarations) are at least those each page read when they were listed by hand."""
    old = {
        "pages/1_Cross_scheme.py": "data protocol shuffles seed test average skip golds funcsep labelmaps "
        "row worst",
        "pages/2_FREVAL.py": "data prm maxsize cutoff unlabeled funcsep droproot deleteroot maxerror "
        "variants baseline run sentno",
        "pages/3_Lattice.py": "data sent tag protocol labels prediction",
        "pages/4_NED.py": "data sent find order gold system nopunct maxlen labels by sort group section",
    }
    for page, keys in old.items():
        assert set(keys.split()) <= set(PAGE_KEYS[page]), page


def test_tour_steps_are_the_tour_pages_steps() -> None:
    text = (ROOT / "pages" / "5_Tour.py").read_text(encoding="utf-8")
    for step in TOUR_STEPS:
        assert f'("{step}", ' in text


def test_no_page_reads_the_query_string_itself() -> None:
    """Only workbench/links.py reads st.query_params; the others only write it (or link to a page)."""
    writes = re.compile(r"query_params\[\"[a-z]+\"\] = |query_params=\{")
    for path in [APP, *(ROOT / "pages").glob("*.py"), *(ROOT / "workbench").glob("*.py")]:
        if path.name == "links.py":
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if "query_params" in line:
                assert writes.search(line), (path, line)


# ---------------------------------------------------------------------------
# every page with hostile values


def _visit(page: str, query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    if page == "app.py":
        for k, v in query.items():
            at.query_params[k] = v
        return at.run()
    at.run()
    at.switch_page(page)
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def _walk(values: tuple[str, ...]) -> list[tuple[str, str, str]]:
    return [(page, key, value) for page, keys in PAGE_KEYS.items() for key in keys for value in values]


def _reported(key: str, value: str) -> bool:
    """Whether the page must say that ``key=value`` was not used (``_check``'s rule)."""
    return bool(
        value.strip()
        and value not in LINK_KEYS[key].choices
        and not (
            LINK_KEYS[key].kind == "sentence"
            and value.isprintable()
            and not value.isdigit()
            and len(value) <= 200
        )
        # a flag, a number or free text (a search, separators) the parser accepts is a value the page
        # uses as such (no=0 is "no"; a search for "²" finds nothing), not a problem to report
        and not (LINK_KEYS[key].kind in ("flag", "number", "text") and not parse_link({key: value}).problems)
    )


def _check(page: str, key: str, value: str) -> None:
    at = _visit(page, {key: value})
    assert not at.exception, (page, key, value[:40], [e.value[:300] for e in at.exception])
    shown = " ".join(w.value for w in at.warning)
    if _reported(key, value):
        assert "Some parts of the link were not used" in shown, (page, key, value[:40], shown[:300])


@pytest.mark.slow
@pytest.mark.parametrize(("page", "key", "value"), _walk(HOSTILE), ids=lambda v: str(v)[:20])
def test_every_page_survives_every_hostile_value(page: str, key: str, value: str) -> None:
    """One key at a time, every hostile value: the whole walk (``make test``)."""
    _check(page, key, value)


def _all_at_once() -> list[object]:
    """Every page with every quick value; the fast run renders each page but those of
    OVER_A_SECOND once (its value taken in turn from QUICK), ``make test`` all of them."""
    out: list[object] = []
    for i, page in enumerate(sorted(PAGE_KEYS)):
        for j, value in enumerate(QUICK):
            quick = j == i % len(QUICK) and page not in OVER_A_SECOND
            marks = () if quick else (pytest.mark.slow,)
            out.append(pytest.param(page, value, marks=marks, id=f"{page}-{value[:20]}"))
    return out


@pytest.mark.parametrize(("page", "value"), _all_at_once())
def test_every_page_survives_unknown_keys_and_all_keys_at_once(page: str, value: str) -> None:
    """All of a page's keys hostile in one visit, with an unknown key: no traceback, and every key
    whose value is not used is named in the sidebar's warning (the fast run; one key at a time is
    the slow walk above)."""
    at = _visit(page, {"zz<b>": "1", **{k: value for k in PAGE_KEYS[page]}})
    assert not at.exception, [e.value[:300] for e in at.exception]
    shown = " ".join(w.value for w in at.warning)
    assert "Some parts of the link were not used" in shown
    assert "not a parameter of this app" in shown
    said = re.sub(r"\\(.)", r"\1", shown)  # the Markdown escapes taken out ("sent\\: ..." is "sent: ...")
    unnamed = [k for k in PAGE_KEYS[page] if _reported(k, value) and not re.search(f"(used: |; ){k}: ", said)]
    assert not unnamed, (page, value[:40], unnamed, shown[:600])
