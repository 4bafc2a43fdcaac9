"""Time the pages other than the inspector in a real browser (issue 14): first render of each page in
a fresh browser context, the FREVAL page on evalb's 24-sentence sample, and the cross-scheme page's
"also score each gold as a parse".

    python benchmarks/bench_pages.py                 # every case, 5 measurements each
    python benchmarks/bench_pages.py --repeat 9 first-freval golds

Starts ``streamlit run app.py`` on a free 127.0.0.1 port (``tests/e2e/appserver.py``), drives
Debian's chromium (``/usr/bin/chromium``) through Playwright and prints per case the first
measurement apart (the first time this server computes something: nothing in its caches yet),
then the median, minimum and maximum of ``--repeat`` more, the target of the issue, and the
machine's load (``uptime``) before and after.

**Finished view**: Streamlit's app root says the script is not running, no element is stale or
spinning, the case's marker (a CSS selector, and a text) is in the page, and the browser has painted
two frames since.  A first render is timed from just before ``goto()`` in a new browser context (a
new session: nothing of an earlier visit in its state, whatever the server caches for all sessions).
"golds" is timed from just before the click on the toggle, in a new session each time, with the
page already showing the table without the golds.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from appserver import CHROMIUM, CHROMIUM_ARGS, running_app  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

TIMEOUT_MS = 240_000
VIEWPORT = {"width": 1400, "height": 1000}
FINISHED_JS = """
([marker, text]) => {
  const app = document.querySelector('[data-testid=stApp]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  const busy = '[data-stale=true], [data-testid=stSpinner], [data-testid=stProgress]';
  if (document.querySelector(busy)) return false;
  if (marker && !document.querySelector(marker)) return false;
  if (text && !document.body.innerText.includes(text)) return false;
  return true;
}
"""
TWO_FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


@dataclass(frozen=True, slots=True)
class Case:
    """A page opened at ``path``; finished when ``marker`` (CSS) and ``text`` are in it."""

    path: str
    marker: str
    text: str
    target: float


FIRST: dict[str, Case] = {
    "first-cross-scheme": Case("/Cross_scheme?data=fr_gsd", "table", "UD+SUD", 2.0),
    "first-freval": Case("/FREVAL?data=evalb", "svg.wb-chart g.line", "87.76", 2.0),
    "first-lattice": Case("/Lattice?data=hebrew_yap", "div.wb-figure svg", "", 2.0),
    "first-ned": Case("/NED?data=fr_gsd", "svg.dep-tree", "NED", 2.0),
    "first-tour": Case("/Tour", "div.wb-figure svg", "discounted", 2.0),
}
GOLDS_TARGET = 3.0


def load() -> str:
    out = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    return out.split("load average:")[-1].strip() if "load average" in out else out


def wait_finished(page: Page, marker: str, text: str) -> None:
    page.wait_for_function(FINISHED_JS, arg=[marker, text], timeout=TIMEOUT_MS, polling=25)
    page.evaluate(TWO_FRAMES_JS)


def first_render(browser: Browser, url: str, case: Case) -> float:
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        start = time.perf_counter()
        page.goto(url + case.path)
        wait_finished(page, case.marker, case.text)
        return time.perf_counter() - start
    finally:
        context.close()


def golds_click(browser: Browser, url: str) -> float:
    """Cross-scheme page on French-GSD, then a click on "Also score each gold as a parse"."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(url + "/Cross_scheme?data=fr_gsd")
        wait_finished(page, "table", "UD+SUD")
        toggle = page.get_by_text("Also score each gold as a parse")
        start = time.perf_counter()
        toggle.click()
        wait_finished(page, "table", "(as a parse)")
        return time.perf_counter() - start
    finally:
        context.close()


def measure(fn: Callable[[], float], repeat: int) -> tuple[float, list[float]]:
    first = fn()
    return first, [fn() for _ in range(repeat)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", help=f"of: {', '.join([*FIRST, 'golds'])} (default: all)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    chosen = args.cases or [*FIRST, "golds"]
    unknown = [c for c in chosen if c not in FIRST and c != "golds"]
    if unknown:
        ap.error(f"unknown case(s): {', '.join(unknown)}")
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    print(f"load before: {load()}")
    with running_app() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            print(f"{'case':<20} {'first':>7} {'median':>7} {'min':>6} {'max':>6} {'target':>7}")
            for name in chosen:
                if name == "golds":
                    first, rest = measure(lambda: golds_click(browser, url), args.repeat)
                    target = GOLDS_TARGET
                else:
                    case = FIRST[name]
                    first, rest = measure(lambda case=case: first_render(browser, url, case), args.repeat)
                    target = case.target
                med = statistics.median(rest) if rest else first
                lo, hi = (min(rest), max(rest)) if rest else (first, first)
                verdict = "ok" if med <= target else "OVER"
                print(
                    f"{name:<20} {first:7.2f} {med:7.2f} {lo:6.2f} {hi:6.2f} {target:6.1f}s {verdict}",
                    flush=True,
                )
        finally:
            browser.close()
    print(f"load after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
