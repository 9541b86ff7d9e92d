"""One position solved across a Dask cluster, resumable and verified
(docs/cluster.md).

    python -m c4.cluster solve MOVES --store S.sqlite --scheduler tcp://HOST:8786
    python -m c4.cluster verify --store S.sqlite

or from Python::

    import c4.cluster
    score = c4.cluster.solve("", width=8, height=5, store="8x5.sqlite",
                             scheduler="tcp://HOST:8786")
    report = c4.cluster.verify("8x5.sqlite")
    solver = c4.Solver(8, 5); c4.cluster.seed(solver, "8x5.sqlite")

A driver searches the upper tree (``depth`` stones below the root) and
hands its frontier positions, each with a window, to the workers as
tasks; each finished task is committed to the SQLite store before it
counts, so the same call again goes on where a killed one stopped.
Workers need the same ``c4`` package (``pip install c4-solver`` or
``./python``) and ``distributed``; start them with ``dask worker ADDR
--nthreads 1`` or any Dask cluster manager.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Optional

from .driver import ClusterError, Driver, connect
from .progress import Progress
from .store import FORMAT, Store, StoreError, StoreFull
from .seed import seed
from .verify import Report, verify

__all__ = [
    "ClusterError",
    "FORMAT",
    "Report",
    "Store",
    "StoreError",
    "StoreFull",
    "default_depth",
    "seed",
    "solve",
    "verify",
]


def default_depth(width: int, height: int, moves_played: int = 0) -> int:
    """The frontier's depth below a root when none is given: deep enough
    that a cluster of a few dozen threads has tasks for all, shallow enough
    that a task's search is long beside the driver's time per task (see
    docs/cluster.md for the measurements)."""
    cells = width * height
    empty = cells - moves_played
    if empty <= 24:
        return 2
    if empty <= 36:
        return 3
    return 4


def solve(
    moves: str = "",
    *,
    store: str,
    scheduler: Optional[str] = None,
    local: Optional[int] = None,
    width: int = 7,
    height: int = 6,
    weak: bool = False,
    depth: Optional[int] = None,
    table: str = "64M",
    book: Optional[str] = "builtin",
    progress: Optional[str] = None,
    progress_every: float = 10.0,
    retries: int = 2,
    max_store_bytes: Optional[int] = None,
    connect_timeout: float = 10.0,
    log=sys.stderr,
) -> int:
    """The score of ``moves`` (its sign with ``weak=True``: 1, 0, -1),
    solved on the Dask scheduler at ``scheduler`` (or a new cluster of
    ``local`` worker processes here), every finished task committed to
    ``store`` first.

    Args:
        depth: the frontier's distance below the root in stones
            (``default_depth`` when None). The store's bounds serve any
            depth; ``verify`` replays the depth a result was found at.
        table, book: each worker's solver (as ``c4.Solver`` takes them).
        progress: ``"bar"``, ``"log"`` or None.
        retries: runs again of a failed task before the solve fails.
        max_store_bytes: a size limit of the store file, or None.

    Raises ``ValueError`` for a bad position, ``StoreError`` (``StoreFull``)
    for a store that cannot be used, ``ClusterError`` for a scheduler that
    cannot be reached or a task that keeps failing.
    """
    return asyncio.run(
        _solve(moves, store, scheduler, local, width, height, weak, depth, table, book,
               progress, progress_every, retries, max_store_bytes, connect_timeout, log)
    )


async def _solve(moves, store_path, scheduler, local, width, height, weak, depth, table, book,
                 progress_mode, progress_every, retries, max_store_bytes, connect_timeout, log) -> int:
    from .. import Position, Solver, __version__
    from .._c4 import symmetric_key

    if (scheduler is None) == (local is None):
        raise ValueError("give exactly one of scheduler= and local=")
    root = Position(moves, width, height)
    depth = default_depth(width, height, root.moves_played) if depth is None else depth
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    key_solver = Solver(width, height, table="1M", book=None)
    root_key = symmetric_key(key_solver, root)
    store = Store(store_path, width, height, __version__, max_bytes=max_store_bytes)
    try:
        client, cluster = await connect(scheduler, local, connect_timeout)
        try:
            address = scheduler if scheduler is not None else cluster.scheduler_address
            print(f"dashboard: {client.dashboard_link}", file=log, flush=True)
            threads = sum((await client.nthreads()).values())
            stored = sum(1 for _ in store.tasks())
            progress = Progress(progress_mode, out=log, every=progress_every, stored=stored,
                                threads=threads)
            run = store.begin_run(root.moves, weak, depth, address)
            driver = Driver(client, store, depth=depth, table=table, book=book,
                            key_solver=key_solver, run=run, progress=progress, retries=retries)
            ticker = asyncio.ensure_future(_tick(progress))
            try:
                score = await driver.solve(root, weak)
            finally:
                ticker.cancel()
                progress.close()
            store.record_result(root_key, root.moves, weak, depth, score, run)
            store.end_run(run)
            print(
                f"solved {root.moves or '(empty)'} on {width}x{height}: {score} "
                f"({'weak' if weak else 'exact'}; {driver.solved} tasks solved in this run, "
                f"{driver.nodes} nodes; {stored} tasks were in the store)",
                file=log, flush=True,
            )
            return score
        finally:
            await client.close()
            if cluster is not None:
                await cluster.close()
    finally:
        store.close()


async def _tick(progress: Progress) -> None:
    while True:
        progress.tick()
        await asyncio.sleep(0.2)
