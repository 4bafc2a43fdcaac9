"""A class on one server: many browser sessions at once against one ``streamlit run app.py``.

    python benchmarks/bench_class.py [--sessions 30] [--rounds 3] [--churn 200]

Starts the app on a free 127.0.0.1 port (``tests/e2e/appserver.py``), opens ``--sessions`` browser
contexts in one headless Chromium (Debian's ``/usr/bin/chromium``), each on the home page (the
sentence inspector, French-GSD), then, ``--rounds`` times, every session does the same action at
once: the next sentence (▶), the other TedEval protocol, the Atlas page, the FREVAL page, back to
the inspector.  An action is clicked in every session first, then each session is polled until its
view is finished (the script not running, nothing stale, its own marker shown): its time is from
its click to the poll that sees it done (polls every few ms, round robin).  Printed per action:
p50 and p95 over the sessions and rounds, against the same action in one session alone; the
server's CPU seconds per action (``/proc``), the load generator's own CPU (this process and
Chromium's processes) apart from it, errors (exceptions shown), and the server's resident memory
after each round.  Then ``--churn`` sessions are opened and closed one after the other (home page,
then closed): the server's memory at the end against the start (no per-session leak: within 10 %).

Bounded: at most 60 sessions, 10 rounds, 400 churned sessions; every wait has a time limit.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from appserver import CHROMIUM, CHROMIUM_ARGS, SETTLED_JS, running_server, wait_settled  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

from workbench.sessions import RELEASED_IDLE  # noqa: E402

IDLE_MARK = RELEASED_IDLE.split("{}")[0].encode()

TIMEOUT_S = float(os.environ.get("BENCH_CLASS_TIMEOUT", "300"))
TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    """A process's CPU seconds so far (user + system)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def chromium_cpu() -> float:
    """The CPU seconds of every Chromium process on the machine (the load generator's browser)."""
    total = 0.0
    for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/comm") as fh:
                if "chrom" not in fh.read():
                    continue
            total += cpu_of(pid)
        except OSError:
            continue
    return total


@dataclass(frozen=True)
class Action:
    """What every session does at once: ``click(page, k)`` then wait for ``done(k)`` (a CSS marker,
    the title of the page it ends on)."""

    name: str
    click: Callable[[Page, int], None]
    done: Callable[[int], tuple[str, str]]


def _sidebar(name: str) -> Callable[[Page, int], None]:
    return lambda page, _k: page.locator("[data-testid=stSidebarNav] a", has_text=name).first.click()


def _protocol(page: Page, k: int) -> None:
    page.get_by_text("2011" if k % 2 == 0 else "2012", exact=True).first.click()


ACTIONS = (
    Action(
        "next sentence (▶)",
        lambda page, _k: page.get_by_role("button", name="▶").click(),
        lambda k: ("svg.dep-tree", ""),
    ),
    Action("other protocol", _protocol, lambda k: ("svg.dep-tree", "")),
    Action("Atlas page", _sidebar("Atlas"), lambda k: ("", "Discrepancy atlas")),
    Action("FREVAL page", _sidebar("FREVAL"), lambda k: ("", "FREVAL: PARSEVAL per fragment size")),
    Action(
        "back to the inspector",
        _sidebar("Sentence inspector"),
        lambda k: ("", "Sentence inspector"),  # the FREVAL page chose a constituency dataset
    ),
)


TITLE_JS = (
    "(t) => [...document.querySelectorAll('[data-testid=stMain] h1')].some(h => h.innerText.trim() === t)"
)


def _done(page: Page, marker: str, title: str) -> bool:
    """The run is over, nothing stale, ``marker`` (CSS) shown and the page's title is ``title``."""
    return bool(page.evaluate(SETTLED_JS, [marker, ""])) and (
        not title or bool(page.evaluate(TITLE_JS, title))
    )


def run_action(pages: list[Page], action: Action, k: int) -> tuple[list[float], int]:
    """Click in every session, then poll each until done: the seconds of each, and the errors."""
    starts = []
    for page in pages:
        starts.append(time.perf_counter())
        action.click(page, k)
    marker, text = action.done(k)
    times: list[float | None] = [None] * len(pages)
    deadline = time.monotonic() + TIMEOUT_S
    time.sleep(0.05)  # let the clicks reach the server before the first poll
    while any(t is None for t in times):
        if time.monotonic() > deadline:
            why = (  # what keeps a late session from done: its script state, stale and busy elements
                "() => [document.querySelector('[data-testid=stApp]')"
                ".getAttribute('data-test-script-state'), "
                "document.querySelectorAll('[data-stale=true]').length, "
                "document.querySelectorAll('[data-testid=stSpinner], [data-testid=stProgress]').length]"
            )
            late = [(p.url, p.evaluate(why)) for p, t in zip(pages, times, strict=True) if t is None]
            raise SystemExit(f"{action.name}: not done within {TIMEOUT_S:.0f} s: {late}")
        for i, page in enumerate(pages):
            if times[i] is None and _done(page, marker, text):
                times[i] = time.perf_counter() - starts[i]
    errors = sum(page.locator("[data-testid=stException]").count() for page in pages)
    return [t for t in times if t is not None], errors


def percentile(values: list[float], q: float) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else values[0]
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--churn", type=int, default=200)
    args = ap.parse_args()
    if not (1 <= args.sessions <= 60 and 1 <= args.rounds <= 10 and 0 <= args.churn <= 400):
        ap.error("--sessions 1-60, --rounds 1-10, --churn 0-400")
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    print(f"load average before: {os.getloadavg()}")
    with running_server(timeout=120) as (url, pid, log), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            alone = _measure(browser, url, pid, 1, args.rounds)
            print(f"server memory after one session: {rss_mib(pid):.0f} MiB", flush=True)
            many = _measure(browser, url, pid, args.sessions, args.rounds)
            _report(alone, many, args.sessions)
            if args.churn:
                _churn(browser, url, pid, args.churn, log)
        finally:
            browser.close()
    print(f"load average after: {os.getloadavg()}")
    return 0


@dataclass(frozen=True)
class Measured:
    times: dict[str, list[float]]
    server_cpu: dict[str, float]  # per action and session
    generator_cpu: float  # this process and Chromium, for the whole run
    errors: int
    memory: list[float]


def _measure(browser: object, url: str, pid: int, sessions: int, rounds: int) -> Measured:
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(sessions)]  # type: ignore[attr-defined]
    try:
        pages = [c.new_page() for c in contexts]
        for page in pages:
            page.goto(f"{url}/?data=fr_gsd")
        for page in pages:
            page.locator("svg.dep-tree").first.wait_for(timeout=TIMEOUT_S * 1000)
            wait_settled(page, timeout_ms=TIMEOUT_S * 1000)
        times: dict[str, list[float]] = {a.name: [] for a in ACTIONS}
        cpu: dict[str, float] = {a.name: 0.0 for a in ACTIONS}
        errors, memory = 0, []
        gen0 = time.process_time() + chromium_cpu()
        for k in range(rounds):
            if k:  # the FREVAL page chose its own dataset: each round starts on French again (untimed)
                for page in pages:
                    page.goto(f"{url}/?data=fr_gsd")
                for page in pages:
                    page.locator("svg.dep-tree").first.wait_for(timeout=TIMEOUT_S * 1000)
                    wait_settled(page, timeout_ms=TIMEOUT_S * 1000)
            for action in ACTIONS:
                before = cpu_of(pid)
                got, bad = run_action(pages, action, k)
                cpu[action.name] += (cpu_of(pid) - before) / (sessions * rounds)
                times[action.name] += got
                errors += bad
            memory.append(rss_mib(pid))
        generator = time.process_time() + chromium_cpu() - gen0
        return Measured(times, cpu, generator, errors, memory)
    finally:
        for c in contexts:
            c.close()


def _report(alone: Measured, many: Measured, sessions: int) -> None:
    print(
        f"\n| action | 1 session p50 | {sessions} sessions p50 | p95 | max "
        f"| server CPU per action (1 / {sessions}) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for a in ACTIONS:
        one, all_ = alone.times[a.name], many.times[a.name]
        print(
            f"| {a.name} | {statistics.median(one):.2f} s | {statistics.median(all_):.2f} s "
            f"| {percentile(all_, 95):.2f} s | {max(all_):.2f} s "
            f"| {alone.server_cpu[a.name]:.3f} s / {many.server_cpu[a.name]:.3f} s |"
        )
    print(
        f"\nerrors: {alone.errors} (one session), {many.errors} ({sessions} sessions); load generator CPU "
        f"(this process and Chromium): {many.generator_cpu:.1f} s for the {sessions}-session run; "
        f"server memory after each round: {', '.join(f'{m:.0f}' for m in many.memory)} MiB",
        flush=True,
    )


def _churn(browser: object, url: str, pid: int, n: int, log: Path) -> None:
    """``n`` sessions opened and closed one after the other: memory at the start, 5 s after the last
    one closed (Streamlit still keeps them for reconnection), and once the server's log says their
    reconnection window has closed and their memory is given back (``workbench.sessions``)."""
    start = rss_mib(pid)
    peak = start
    lines = log.read_bytes().count(IDLE_MARK)
    for _ in range(n):
        ctx = browser.new_context()  # type: ignore[attr-defined]
        page = ctx.new_page()
        page.goto(f"{url}/?data=fr_gsd")
        page.locator("svg.dep-tree").first.wait_for(timeout=TIMEOUT_S * 1000)
        ctx.close()
        peak = max(peak, rss_mib(pid))
    time.sleep(5.0)
    soon = rss_mib(pid)
    deadline = time.monotonic() + 300.0  # the window is 120 s by default (server.disconnectedSessionTTL)
    while log.read_bytes().count(IDLE_MARK) <= lines and time.monotonic() < deadline:
        time.sleep(1.0)
    time.sleep(2.0)
    end = rss_mib(pid)
    print(
        f"{n} sessions opened and closed: server memory {start:.0f} MiB at the start, peak {peak:.0f}, "
        f"{soon:.0f} 5 s after the last closed ({100 * (soon - start) / start:+.1f} %), {end:.0f} once "
        f"their reconnection window closed ({100 * (end - start) / start:+.1f} %)"
    )


if __name__ == "__main__":
    sys.exit(main())
