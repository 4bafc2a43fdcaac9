"""``evalcore batch MANIFEST``: a shared task's evaluations in parallel, one tidy table (docs/batch.md).

The manifest is read and checked whole first (a bad one: exit 2, ``MANIFEST:LINE: message``);
the evaluations then run on ``--jobs N`` local processes (:class:`concurrent.futures.ProcessPoolExecutor`)
or, with ``--dask ADDRESS``, on an existing Dask cluster (``dask.distributed``, the ``[dask]``
extra).  :mod:`evalcore.batch` makes the jobs; :mod:`evalcore.report.batch` writes the table.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from evalcore.batch import BatchRow, Manifest, read_manifest, run_batch, serial_map
from evalcore.errors import one_line
from evalcore.limits import Limits
from evalcore.report.batch import batch_output

__all__ = ["register", "run", "run_local", "run_on_dask"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "batch",
        help="a shared task from a manifest: every gold × system × metric in parallel, one tidy table",
        description=(
            "Run every evaluation a TOML manifest lists (golds, their systems, metrics: attach, parseval, "
            "freval, tedeval) and the paired test between every two systems of a gold, in parallel on "
            "the local cores or on a Dask cluster; write one table (a row per gold, system, metric and "
            "score, and one per pair and score with its p-value)."
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
    p.add_argument("--format", choices=("text", "csv", "json"), default="text")
    p.set_defaults(run=run)


def run_local(manifest: Manifest, limits: Limits, jobs: int) -> list[BatchRow]:
    """On ``jobs`` local processes (``1``: in this process)."""
    if jobs == 1:
        return run_batch(manifest, limits, serial_map)
    context = multiprocessing.get_context("spawn")  # no fork of a threaded parent
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:

        def mapper(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[object]:
            return list(pool.map(fn, items))

        return run_batch(manifest, limits, mapper)


def run_on_dask(manifest: Manifest, limits: Limits, address: str) -> list[BatchRow]:
    """On the Dask cluster at ``address``: each round is ``Client.map`` then ``Client.gather``."""
    from distributed import Client

    with Client(address, set_as_default=False) as client:  # type: ignore[no-untyped-call]

        def mapper(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[object]:
            futures = client.map(fn, list(items), pure=False)
            return list(client.gather(futures))

        return run_batch(manifest, limits, mapper)


def run(args: argparse.Namespace) -> int:
    if args.jobs < 0:
        print("evalcore batch: --jobs must be >= 0", file=sys.stderr)
        return 2
    if args.dask and importlib.util.find_spec("distributed") is None:
        print(
            one_line(
                "evalcore batch: --dask needs the [dask] extra (distributed): pip install 'evalcore[dask]'"
            ),
            file=sys.stderr,
        )
        return 2
    manifest = read_manifest(args.manifest, args.limits)
    if args.dask:
        rows = run_on_dask(manifest, args.limits, args.dask)
    else:
        rows = run_local(manifest, args.limits, args.jobs or os.cpu_count() or 1)
    sys.stdout.write(batch_output(args.format, rows))
    return 0
