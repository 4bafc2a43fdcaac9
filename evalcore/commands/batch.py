"""``evalcore batch MANIFEST``: a shared task's evaluations in parallel, one tidy table (docs/batch.md):
on ``--jobs N`` local processes or, with ``--dask ADDRESS``, on a Dask cluster.  The first failed job
stops the run and its workers (``--keep-going``: the others run); local workers ignore Ctrl-C and
die with their parent (:mod:`evalcore.interrupts`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import socket
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any

from evalcore.batch import (
    BatchRow,
    Manifest,
    read_manifest,
    run_batch,
    run_batch_outcome,
    serial_map,
)
from evalcore.commands._common import refuse, say, warn
from evalcore.interrupts import signals_blocked, stop_children, worker_initializer
from evalcore.limits import Limits
from evalcore.outputs import OutputOption, write_text
from evalcore.report.batch import batch_output, ranked, selected

__all__ = [
    "DASK_TIMEOUT",
    "SchedulerUnreachable",
    "dask_mapper",
    "local_mapper",
    "register",
    "run",
    "run_local",
    "run_on_dask",
]

Mapper = Callable[[Callable[[Any], Any], Sequence[Any]], list[Any]]

DASK_TIMEOUT = 5.0
"""Seconds to wait for the Dask scheduler to answer (``--dask-timeout``; distributed's own is 30)."""


class SchedulerUnreachable(Exception):
    """The Dask scheduler did not answer: the address, the seconds waited and why."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "batch",
        help="a shared task from a manifest: every gold × system × metric in parallel, one tidy table",
        description=(
            "Run every evaluation a TOML manifest lists (golds, their systems, metrics: attach, conll18, "
            "parseval, freval, tedeval) and the paired test between every two systems of a gold, in "
            "parallel on the local cores or on a Dask cluster; write one table (a row per gold, system, "
            "metric and score, with its bootstrap interval for conll18, and one per pair and score with "
            "its p-value). A parse of raw text (tokens that differ from the gold's) is scored as in the "
            "CoNLL 2018 shared task (conll18)."
        ),
    )
    p.add_argument("manifest", help="the manifest (TOML; files in it are relative to its folder)")
    p.add_argument(
        "--jobs",
        type=int,
        default=0,
        metavar="N",
        help="local worker processes (default: the number of cores; 1: in this process)",
    )
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://10.0.0.5:8786); "
        "needs the [dask] extra",
    )
    p.add_argument(
        "--dask-timeout",
        type=float,
        default=DASK_TIMEOUT,
        metavar="SECONDS",
        help=f"how long to wait for the Dask scheduler to answer (default {DASK_TIMEOUT:g})",
    )
    p.add_argument(
        "--keep-going",
        action="store_true",
        help="when a job fails, run the others: the table of those that finished, each failure on "
        "stderr, exit 2 (default: the first failure stops the run)",
    )
    p.add_argument(
        "-o",
        "--output",
        action=OutputOption,
        metavar="FILE",
        help="write the table to FILE instead of standard output (atomically: a failed or "
        "interrupted run leaves FILE as it was)",
    )
    p.add_argument("--format", choices=("text", "csv", "json"), default="text")
    p.add_argument(
        "--scores",
        type=_names,
        metavar="NAME,...",
        help="only the rows of these scores (and their p-values), e.g. 'LAS f1,MLAS f1' or 'las,f1'",
    )
    p.add_argument(
        "--rank",
        action="store_true",
        help="each gold and metric's scores grouped by score, the systems best first (a ranking)",
    )
    p.set_defaults(run=run, input_files=input_files)


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one score name")
    return names


def input_files(args: argparse.Namespace) -> list[str]:
    """The manifest and every file it names (an output must be none of them)."""
    manifest = read_manifest(args.manifest, args.limits)
    files = [args.manifest]
    for gold in manifest.golds:
        files += [gold.path, *(s.path for s in gold.systems), *([gold.prm] if gold.prm else [])]
    return files


def _first_failure(futures: Sequence[Future[Any]]) -> None:
    """Wait until every future is done or one has failed; raise the error of the first failed one
    (in the order of ``futures``) at once, without waiting for the others."""
    done, _ = wait(futures, return_when=FIRST_EXCEPTION)
    for future in futures:
        if future in done and future.exception() is not None:
            future.result()


@contextmanager
def local_mapper(jobs: int) -> Iterator[Mapper]:
    """A ``map`` on ``jobs`` worker processes (``1``: in this process).  The workers start with
    the stop signals held back, ignore SIGINT and die with this process
    (:func:`evalcore.interrupts.worker_initializer`); an error or an interrupt stops them all."""
    if jobs == 1:
        yield serial_map
        return
    import multiprocessing

    context = multiprocessing.get_context("spawn")  # no fork of a threaded parent
    pool = ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=worker_initializer, initargs=(os.getpid(),)
    )

    def mapper(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
        with signals_blocked():  # workers and the pool's threads start with them blocked
            futures = [pool.submit(fn, item) for item in items]
        _first_failure(futures)
        return [f.result() for f in futures]

    try:
        yield mapper
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        stop_children()
        # the pool's thread sees its workers gone and closes its pipes: wait for it, or the exit of
        # the interpreter may write to one being closed ("Exception ignored ... Bad file descriptor")
        pool.shutdown(wait=True)
        raise
    pool.shutdown(wait=True)


@contextmanager
def dask_mapper(address: str, timeout: float = DASK_TIMEOUT) -> Iterator[Mapper]:
    """A ``map`` on the Dask cluster at ``address``: ``Client.map`` then ``Client.gather``.
    :class:`SchedulerUnreachable` if the scheduler does not answer within ``timeout`` seconds."""
    _listening(address, timeout)
    client = _client(address, timeout)
    with client:

        def mapper(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
            futures = client.map(fn, list(items), pure=False)
            return list(client.gather(futures))

        yield mapper


def _client(address: str, timeout: float) -> Any:
    """``distributed.Client(address)``, once a Dask handshake with the scheduler has succeeded
    within ``timeout`` seconds (and one more): distributed's own ``timeout`` bounds the TCP
    connection, not the handshake, so a server that accepts and says nothing held the client for
    ever, and one that answers something else made it fail with a ``MemoryError``."""
    import asyncio

    from distributed import Client
    from distributed.comm.core import connect

    async def handshake() -> None:
        reached = connect(address, timeout=timeout)  # type: ignore[no-untyped-call]
        comm = await asyncio.wait_for(reached, timeout + 1)
        await comm.close()

    start = time.monotonic()
    try:
        asyncio.run(handshake())
        return Client(address, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError, MemoryError) as exc:
        # MemoryError: something answered at that address, not a Dask scheduler
        why = "it did not answer as a Dask scheduler" if isinstance(exc, MemoryError) else str(exc)
        raise _unreachable(address, start, why or "no answer") from None


def _listening(address: str, timeout: float) -> None:
    """A ``tcp://HOST:PORT`` address where nothing listens is said at once (distributed would try
    again until its timeout); other addresses are left to distributed."""
    found = re.fullmatch(r"(?:tcp://)?\[?([^\[\]/]+?)\]?:(\d{1,5})/?", address)
    if found is None:
        return
    start = time.monotonic()
    try:
        socket.create_connection((found.group(1), int(found.group(2))), timeout=timeout).close()
    except OSError as exc:
        raise _unreachable(address, start, exc.strerror or str(exc) or type(exc).__name__) from None


def _unreachable(address: str, start: float, why: str) -> SchedulerUnreachable:
    waited = time.monotonic() - start
    return SchedulerUnreachable(
        f"cannot reach the Dask scheduler at {address} (waited {waited:.1f} s): {why}"
    )


def run_local(manifest: Manifest, limits: Limits, jobs: int) -> list[BatchRow]:
    """On ``jobs`` local processes (``1``: in this process)."""
    with local_mapper(jobs) as mapper:
        return run_batch(manifest, limits, mapper)


def run_on_dask(
    manifest: Manifest, limits: Limits, address: str, timeout: float = DASK_TIMEOUT
) -> list[BatchRow]:
    """On the Dask cluster at ``address``: each round is ``Client.map`` then ``Client.gather``."""
    with dask_mapper(address, timeout) as mapper:
        return run_batch(manifest, limits, mapper)


def run(args: argparse.Namespace) -> int:
    if args.jobs < 0:
        return refuse("batch", "--jobs must be >= 0")
    if not args.dask_timeout > 0:
        return refuse("batch", "--dask-timeout must be more than 0 seconds")
    if args.dask and importlib.util.find_spec("distributed") is None:
        return refuse("batch", "--dask needs the [dask] extra (distributed): pip install 'evalcore[dask]'")
    manifest = read_manifest(args.manifest, args.limits)
    try:
        cm = (
            dask_mapper(args.dask, args.dask_timeout)
            if args.dask
            else local_mapper(args.jobs or os.cpu_count() or 1)
        )
        with cm as mapper:
            outcome = run_batch_outcome(manifest, args.limits, mapper, keep_going=args.keep_going)
    except SchedulerUnreachable as exc:
        return refuse("batch", str(exc))
    rows = list(outcome.rows)
    if args.scores:
        rows, missing = selected(rows, args.scores)
        for name in missing:
            warn(f"no row of the table has the score {name!r}")
    table = batch_output(args.format, ranked(rows) if args.rank else rows)
    if args.output is not None:
        write_text(args.output, table)
    else:
        sys.stdout.write(table)
    for failure in outcome.failures:
        say(failure.message)
    return 2 if outcome.failures else 0
