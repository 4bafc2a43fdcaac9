"""Time the workbench in a real browser: medians from a click (or a navigation) to the
finished view, in headless Chromium against ``streamlit run app.py``.

    python benchmarks/bench_browser.py                      # every case
    python benchmarks/bench_browser.py inspector-switch     # only the cases named
    python benchmarks/bench_browser.py --list               # the cases and their targets
    python benchmarks/bench_browser.py first-ned --repeat 9 --url http://127.0.0.1:8501

Starts the app on a free 127.0.0.1 port (``tests/e2e/appserver.py``, as the end-to-end tests do;
``--url`` uses a server already running instead), drives Debian's chromium (``/usr/bin/chromium``)
through Playwright, and prints, per case, the median, the minimum and the maximum of ``--repeat``
measurements, the first measurement apart (the first time the server computes something it has
not cached yet), and the target of the issue, with the machine's load (``uptime``) before and after.

**Finished view**: Streamlit's app root says the script is not running
(``data-test-script-state="notRunning"``), no element is stale (left over from the run before),
the case's own marker is in the page (e.g. the new sentence's id and its drawings), and the browser
has painted two frames since.  A click is timed from just before ``click()``; a first render from
just before ``goto()`` in a new browser context (a new session: nothing of an earlier visit is in
its state, whatever the server keeps in its caches for every session).

Each case is a name in :data:`CASES`; add one by writing a function ``(browser, url, repeat) ->
Timing`` and an entry there.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from appserver import CHROMIUM, CHROMIUM_ARGS, running_server, wait_settled, wait_started  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

TIMEOUT_MS = 180_000
VIEWPORT = {"width": 1400, "height": 1000}

TWO_FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


@dataclass(frozen=True)
class Timing:
    """Seconds of the first measurement and of the ``repeat`` ones after it, and the server's CPU
    seconds in each (first, then the others; empty where the server's process is not known)."""

    first: float
    rest: tuple[float, ...]
    cpu: tuple[float, ...] = ()

    @staticmethod
    def of(pairs: list[tuple[float, float]]) -> Timing:
        """From ``(wall, server CPU)`` per measurement, the first one first."""
        walls = [w for w, _ in pairs]
        return Timing(walls[0], tuple(walls[1:]), tuple(c for _, c in pairs))

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpu[1:] or self.cpu) if self.cpu else None

    @property
    def median(self) -> float:
        return statistics.median(self.rest) if self.rest else self.first


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes), as ``uptime`` prints them."""
    out = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    return out.split("load average:")[-1].strip() if "load average" in out else out


def wait_finished(page: Page, marker: str = "", text: str = "") -> None:
    wait_settled(page, text, marker, TIMEOUT_MS)
    page.evaluate(TWO_FRAMES_JS)


@dataclass(frozen=True)
class Server:
    """The app under test: its URL, and its process (0: a server started elsewhere, ``--url``)."""

    url: str
    pid: int = 0

    def cpu(self) -> float:
        """The server's CPU seconds so far (user + system; 0 when its process is not known)."""
        if not self.pid:
            return 0.0
        with open(f"/proc/{self.pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(server: Server, act: Callable[[], object]) -> tuple[float, float]:
    """``act()``'s wall seconds and the server's CPU seconds meanwhile."""
    cpu, start = server.cpu(), time.perf_counter()
    act()
    return time.perf_counter() - start, server.cpu() - cpu


@contextmanager
def fresh_page(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    try:
        yield ctx.new_page()
    finally:
        ctx.close()


def time_first_render(
    browser: Browser, server: Server, path: str, marker: str, text: str = ""
) -> tuple[float, float]:
    with fresh_page(browser) as page:

        def act() -> None:
            page.goto(server.url + path)
            wait_finished(page, marker, text)

        return measured(server, act)


def first_render(path: str, marker: str, text: str = "") -> Callable[[Browser, Server, int], Timing]:
    """A case: open ``path`` in a new browser context, until ``marker`` (and ``text``) is shown."""

    def run(browser: Browser, server: Server, repeat: int) -> Timing:
        return Timing.of([time_first_render(browser, server, path, marker, text) for _ in range(repeat + 1)])

    return run


def inspector_switch(dataset: str, first: int, prefix: str) -> Callable[[Browser, Server, int], Timing]:
    """A case: the inspector on sentence ``first``; click ▶ ``repeat + 1`` times, timing each click
    until the next sentence's id and drawings are shown and the run is over.  Every sentence is
    one the server has not drawn before in this run (unless it ran this case already)."""

    def run(browser: Browser, server: Server, repeat: int) -> Timing:
        with fresh_page(browser) as page:
            page.goto(f"{server.url}/?data={dataset}&sent={prefix}{first:05d}")
            wait_finished(page, "svg.dep-tree", f"{prefix}{first:05d} —")
            pairs = []
            for k in range(1, repeat + 2):
                sid = f"{prefix}{first + k:05d}"
                button = page.get_by_role("button", name="▶")

                def act(sid: str = sid, button: object = button) -> None:
                    button.click()  # type: ignore[attr-defined]
                    wait_started(page, f"{sid} —", TIMEOUT_MS)
                    wait_finished(page, "svg.dep-tree", f"{sid} —")

                pairs.append(measured(server, act))
        return Timing.of(pairs)

    return run


def click_case(
    path: str, ready: str, click: Callable[[Page], None], done: tuple[str, str]
) -> Callable[[Browser, Server, int], Timing]:
    """A case: ``path`` in a new context each time, until ``ready`` (a marker) is shown; then
    ``click(page)``, timed until ``done`` (marker, text) is shown."""

    def run(browser: Browser, server: Server, repeat: int) -> Timing:
        pairs = []
        for _ in range(repeat + 1):
            with fresh_page(browser) as page:
                page.goto(server.url + path)
                wait_finished(page, ready)

                def act() -> None:
                    click(page)
                    wait_started(page, done[1], TIMEOUT_MS)
                    wait_finished(page, *done)

                pairs.append(measured(server, act))
        return Timing.of(pairs)

    return run


def golds_as_parse() -> Callable[[Browser, Server, int], Timing]:
    """The cross-scheme page on French: switch on "Also score each gold as a parse", until the
    table has the golds' columns (a new context each time)."""
    return click_case(
        "/Cross_scheme?data=fr_gsd",
        "table",
        lambda page: page.get_by_text("Also score each gold as a parse").click(),
        ("table", "(as a parse)"),
    )


def ned_breakdown(dataset: str) -> Callable[[Browser, Server, int], Timing]:
    """A case: the Attachment & NED page on ``dataset`` in a new context; click the "Breakdown and
    confusion" tab, until its confusion table is shown (the first time: nothing cached)."""
    return click_case(
        f"/NED?data={dataset}",
        "svg.dep-tree",
        lambda page: page.get_by_role("tab", name="Breakdown and confusion").click(),
        ("", "Confusion (--confusion)"),
    )


@dataclass(frozen=True)
class Case:
    run: Callable[[Browser, Server, int], Timing]
    target: float  # seconds (the issue's)
    what: str


CASES: dict[str, Case] = {
    "inspector-switch": Case(
        inspector_switch("fr_gsd", 100, "fr-ud-test_"),
        0.5,
        "inspector, French-GSD: ▶ to the next sentence (sentences 101, 102, ...)",
    ),
    "first-inspector": Case(
        first_render("/?data=fr_gsd&sent=fr-ud-test_00005", "svg.dep-tree", "fr-ud-test_00005 —"),
        2.0,
        "first render of the inspector (French-GSD, sentence 5) in a new context",
    ),
    "first-cross-scheme": Case(
        first_render("/Cross_scheme?data=fr_gsd", "table"),
        2.0,
        "first render of the cross-scheme page (French-GSD) in a new context",
    ),
    "first-freval": Case(
        first_render("/FREVAL?data=farpahc", "svg.wb-chart g.line path"),
        2.0,
        "first render of the FREVAL page (FarPaHC) in a new context",
    ),
    "freval-evalb": Case(
        first_render("/FREVAL?data=evalb", "svg.wb-chart g.line path", "87.76"),
        2.0,
        "FREVAL page for evalb's 24-sentence sample in a new context (recall 87.76 shown)",
    ),
    "first-lattice": Case(
        first_render("/Lattice?data=hebrew_yap", "div.wb-figure svg"),
        2.0,
        "first render of the Lattice page (the yap sentence) in a new context",
    ),
    "first-ned": Case(
        first_render("/NED?data=fr_gsd&sent=fr-ud-test_00005", "svg.dep-tree text.note", "0.5164"),
        2.0,
        "first render of the NED/attachment page (French-GSD, sentence 5) in a new context",
    ),
    "first-tour": Case(
        first_render("/Tour", "svg.dep-tree"),
        2.0,
        "first render of the tour (step 1) in a new context",
    ),
    "ned-breakdown-fr": Case(
        ned_breakdown("fr_gsd"), 2.0, "Attachment & NED, French-GSD: the Breakdown and confusion tab"
    ),
    "ned-breakdown-ewt": Case(
        ned_breakdown("en_ewt"),
        2.0,
        "Attachment & NED, English-EWT test (spaCy): the Breakdown and confusion tab",
    ),
    "golds-as-parse": Case(
        golds_as_parse(),
        3.0,
        'cross-scheme page, French-GSD: "also score each gold as a parse" switched on',
    ),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", help=f"case names (default: all): {', '.join(CASES)}")
    ap.add_argument("--repeat", type=int, default=7, help="measurements after the first (default 7)")
    ap.add_argument("--url", help="a running app (default: start one on a free port)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    args = ap.parse_args()
    if args.list:
        for name, case in CASES.items():
            print(f"{name:20} ≤ {case.target:.1f} s  {case.what}")
        return 0
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        ap.error(f"unknown case(s): {', '.join(unknown)} (--list shows them)")
    names = args.cases or list(CASES)
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    print(f"load average before: {load()}")
    results: list[tuple[str, Timing]] = []
    with _server(args.url) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for name in names:
                timing = CASES[name].run(browser, server, args.repeat)
                results.append((name, timing))
                _print_row(name, timing)
        finally:
            browser.close()
    print(f"load average after: {load()}")
    print()
    print("| case | median | min | max | first | target | | server CPU (median) | first |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|")
    for name, t in results:
        rest = t.rest or (t.first,)
        ok = "ok" if t.median <= CASES[name].target else "OVER"
        cpu = "—" if t.cpu_median is None else f"{t.cpu_median:.2f} s"
        first_cpu = f"{t.cpu[0]:.2f} s" if t.cpu else "—"
        print(
            f"| {name} | {t.median:.2f} s | {min(rest):.2f} s | {max(rest):.2f} s | {t.first:.2f} s "
            f"| ≤ {CASES[name].target:.1f} s | {ok} | {cpu} | {first_cpu} |"
        )
    return 0


def _print_row(name: str, t: Timing) -> None:
    rest = " ".join(f"{x:.2f}" for x in t.rest)
    cpu = "" if t.cpu_median is None else f"; server CPU median {t.cpu_median:.2f} s, first {t.cpu[0]:.2f} s"
    print(f"{name}: median {t.median:.2f} s (first {t.first:.2f} s; then {rest}){cpu}", flush=True)


@contextmanager
def _server(url: str | None) -> Iterator[Server]:
    """A server started here (its CPU measured), or the one at ``url``."""
    if url is not None:
        yield Server(url.rstrip("/"))
        return
    with running_server(timeout=120) as (started, pid, _log):
        yield Server(started, pid)


if __name__ == "__main__":
    sys.exit(main())
