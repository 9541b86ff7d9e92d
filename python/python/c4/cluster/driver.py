"""The driver of a distributed solve: a young-brothers-wait alpha-beta
search over the upper tree, whose frontier positions are Dask tasks solved
by the workers in a window, every answer committed to the store before it
counts (docs/cluster.md says why this split).

At each position above the frontier the eldest child (centre first) is
searched alone with the full window; then its younger brothers are tested
at once with null windows around the eldest's value. A brother that fails
high is searched again with the full window, one at a time; one that
reaches beta cuts the others off (their tasks are cancelled). A frontier
position is answered from the store when its stored bounds decide the
window, else it becomes a task whose window is narrowed by those bounds;
the same task wanted twice at once (a transposition) is submitted once.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
import time
import uuid
from typing import Dict, Optional, Set, Tuple

from .._c4 import Position, symmetric_key
from .progress import Progress
from .store import Store
from .tree import answer, children, known_score, narrow, score_range
from .worker import solve_task


class ClusterError(Exception):
    """A solve that cannot go on, with a sentence saying why; the store
    keeps every task finished before."""


class _Flight:
    """A task in flight and the searches waiting for it."""

    def __init__(self) -> None:
        self.task: "Optional[asyncio.Task[None]]" = None
        self.waiters = 0
        # Set when the driver cancels the task (no search waits for it any
        # more), to tell that from a cancellation by the cluster.
        self.dropped = False
        # The Dask future of the task's latest submission.
        self.future = None

    def drop(self, client) -> None:
        """Cancels the task on the cluster. Its asyncio task is not
        cancelled: cancelling a coroutine in the middle of a gather can
        cancel the client's other gathers (Dask shares them); it ends by
        itself when the cluster reports the cancellation."""
        self.dropped = True
        if self.future is not None:
            cancelled = client.cancel([self.future])
            if inspect.isawaitable(cancelled):
                asyncio.ensure_future(cancelled)


class Driver:
    """One root's solve on a Dask client (asynchronous), with a store.

    Args:
        client: a ``distributed.Client`` made with ``asynchronous=True``.
        store: the open store of the board.
        depth: the frontier's distance below the root, in stones.
        table, book: each worker solver's table size and book (as
            ``c4.Solver`` takes them).
        key_solver: a ``c4.Solver`` of the board, used only for keys.
        run: the store's id of this run.
        progress: the display, or None.
        retries: how many times a failed task is run again (a task whose
            worker dies is run again by the scheduler as well).
    """

    def __init__(
        self,
        client,
        store: Store,
        *,
        depth: int,
        table: str,
        book: Optional[str],
        key_solver,
        run: int,
        progress: Optional[Progress] = None,
        retries: int = 2,
    ) -> None:
        self.client = client
        self.store = store
        self.depth = depth
        self.table = table
        self.book = book
        self.key_solver = key_solver
        self.run = run
        self.progress = progress or Progress(None)
        self.retries = retries
        self.flights: Dict[Tuple[str, int, int], _Flight] = {}
        # Every task's coroutine until it ends, those no search waits for
        # any more included: a task dropped a moment too late may still
        # finish and be stored, and the count must include it.
        self.unfinished: "Set[asyncio.Task[None]]" = set()
        # The dropped ones among them, by task name.
        self.dropped: "Dict[Tuple[str, int, int], asyncio.Task[None]]" = {}
        self.solved = 0
        self.nodes = 0
        self.submissions = 0
        # Names this driver's submissions apart from every other's.
        self.token = uuid.uuid4().hex[:12]

    def key(self, position: Position) -> str:
        return symmetric_key(self.key_solver, position)

    async def search(self, position: Position, alpha: int, beta: int, ply: int = 0) -> int:
        """The fail-soft value of ``position`` in ``(alpha, beta)``."""
        known = known_score(position)
        if known is not None:
            return known
        if ply >= self.depth:
            return await self.leaf(position, alpha, beta)
        kids = children(position)
        best = -(await self.search(kids[0], -beta, -alpha, ply + 1))
        if best >= beta or len(kids) == 1:
            return best
        bar = max(alpha, best)
        tests = [asyncio.ensure_future(self.search(kid, -bar - 1, -bar, ply + 1)) for kid in kids[1:]]
        index = {task: i for i, task in enumerate(tests)}
        tested: Dict[int, int] = {}
        pending = set(tests)
        try:
            while pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    value = -task.result()
                    if value >= beta:
                        return value
                    tested[index[task]] = value
        finally:
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
        tested_bar = bar
        for i in sorted(tested):
            value = tested[i]
            if value > tested_bar:
                # Failed high on the null window: the brother's value lies
                # above the bar, so it is searched with the full window.
                value = -(await self.search(kids[i + 1], -beta, -bar, ply + 1))
                if value >= beta:
                    return value
                bar = max(bar, value)
            best = max(best, value)
        return best

    async def leaf(self, position: Position, alpha: int, beta: int) -> int:
        """A frontier position's value in ``(alpha, beta)``: from the store,
        or from a task."""
        key = self.key(position)
        span = score_range(position)
        interval = self.store.interval(key, span)
        found = answer(interval, alpha, beta)
        if found is not None:
            return found
        window = (max(alpha, interval[0] - 1), min(beta, interval[1] + 1))
        name = (key, window[0], window[1])
        flight = self.flights.get(name)
        late = self.dropped.get(name)
        if flight is None and late is not None:
            # The same task, dropped a moment ago, may yet finish and be
            # stored: wait for its end rather than run it twice.
            await asyncio.wait([late])
            return await self.leaf(position, alpha, beta)
        if flight is None:
            flight = _Flight()
            flight.task = asyncio.ensure_future(self.task(key, position, window, flight))
            self.unfinished.add(flight.task)
            flight.task.add_done_callback(self.unfinished.discard)
            self.flights[name] = flight
        flight.waiters += 1
        try:
            await asyncio.shield(flight.task)
        finally:
            flight.waiters -= 1
            if flight.waiters == 0 and not flight.task.done():
                flight.drop(self.client)
                self.dropped[name] = flight.task
                flight.task.add_done_callback(lambda task, name=name: self._forget_dropped(name, task))
            if flight.waiters == 0 or flight.task.done():
                self.flights.pop(name, None)
        found = answer(self.store.interval(key, span), alpha, beta)
        if found is None:  # the window was narrowed to what decides it
            raise ClusterError(f"position {position.moves}: the task's answer does not decide its window")
        return found

    def _forget_dropped(self, name: Tuple[str, int, int], task: "asyncio.Task[None]") -> None:
        if self.dropped.get(name) is task:
            del self.dropped[name]

    async def task(self, key: str, position: Position, window: Tuple[int, int], flight: _Flight) -> None:
        """Runs the task of ``position`` in ``window`` on the cluster and
        commits its answer. A task the cluster cancels (its client taken
        for lost under load, say) is submitted again, ``retries`` times."""
        width, height = position.width, position.height
        self.progress.submitted()
        try:
            for attempt in range(self.retries + 1):
                self.submissions += 1
                future = self.client.submit(
                    solve_task,
                    position.moves,
                    width,
                    height,
                    window[0],
                    window[1],
                    self.table,
                    self.book,
                    # Unique a submission: a key cancelled a moment ago is
                    # not reused (the driver merges equal tasks in flight).
                    key=f"c4_{width}x{height}_{key}_{window[0]}_{window[1]}_{self.token}.{self.submissions}",
                    pure=False,
                    retries=self.retries,
                )
                flight.future = future
                if flight.dropped:
                    flight.drop(self.client)
                    return
                try:
                    result = await future
                    break
                except BaseException as e:
                    if flight.dropped:
                        return  # no search waits for it: not stored
                    # Dask's own cancellation error is not asyncio's in
                    # every version.
                    if not (isinstance(e, asyncio.CancelledError) or "Cancelled" in type(e).__name__):
                        raise ClusterError(
                            f"the task of position {position.moves or '(empty)'} in the window {window} "
                            f"failed {self.retries + 1} times: {type(e).__name__}: {e}"
                        ) from e
                if future.status == "finished":
                    # Its result is there; only the gather was cut short.
                    try:
                        result = await self.client.gather(future)
                        break
                    except BaseException:
                        if flight.dropped:
                            return
                print(f"warning: the cluster cancelled the task {future.key}; submitting it again",
                      file=sys.stderr, flush=True)
                if attempt == self.retries:
                    raise ClusterError(
                        f"the cluster cancelled the task of position {position.moves or '(empty)'} "
                        f"in the window {window} {attempt + 1} times"
                    )
        finally:
            self.progress.finished_or_dropped()
        if result["solver_version"] != self.store.solver_version:
            raise ClusterError(
                f"worker {result['worker']} runs c4 {result['solver_version']}, the driver "
                f"{self.store.solver_version}: install the same c4 on every machine"
            )
        bounds = narrow(score_range(position), window[0], window[1], result["value"])
        self.store.record(
            key, position.moves, window, result["value"], bounds, result["nodes"],
            result["seconds"], result["worker"], self.run,
        )
        self.solved += 1
        self.nodes += result["nodes"]
        self.progress.solved(result["nodes"])

    async def solve(self, root: Position, weak: bool) -> int:
        """The root's score (its sign if ``weak``), every task stored: one
        young-brothers-wait search of the upper tree with the full window
        (``(-1, 1)`` if ``weak``). Null-window probes of the root, as c4
        solves in one process, took 3.1 times one process's nodes on the
        empty 8x5 board against 1.9 for this (docs/cluster.md)."""
        low, high = score_range(root)
        alpha, beta = (-1, 1) if weak else (low - 1, high + 1)
        try:
            value = await self.search(root, alpha, beta)
        finally:
            # On an error, the tasks no search waits for any more.
            for flight in list(self.flights.values()):
                flight.drop(self.client)
            await self.settle()
        if weak:
            return (value > 0) - (value < 0)
        if not alpha < value < beta:
            raise ClusterError(f"the root's value {value} is outside its score range")
        return value


    async def settle(self, timeout: float = 30.0) -> None:
        """Waits for the tasks still in flight after the search ended (each
        was dropped, but one may have finished at the same moment and is
        then stored), so that ``solved`` and ``nodes`` count every task this
        run stored. Those the cluster has not answered within ``timeout``
        seconds are abandoned, unstored."""
        if not self.unfinished:
            return
        ended, late = await asyncio.wait(set(self.unfinished), timeout=timeout)
        for task in ended:
            if not task.cancelled():
                task.exception()  # a dropped task's error is not the run's
        for task in late:
            task.cancel()
        if late:
            await asyncio.gather(*late, return_exceptions=True)


async def connect(scheduler: Optional[str], local: Optional[int], timeout: float):
    """An asynchronous client of the scheduler at ``scheduler``, or of a new
    cluster of ``local`` worker processes on this machine; and the cluster
    to close (or None). Raises ``ClusterError`` if the scheduler cannot be
    reached within ``timeout`` seconds."""
    from distributed import Client, LocalCluster

    if local is not None:
        cluster = await LocalCluster(
            n_workers=local, threads_per_worker=1, processes=True, asynchronous=True,
            dashboard_address=":0",
        )
        return await Client(cluster, asynchronous=True), cluster
    started = time.monotonic()
    try:
        client = await asyncio.wait_for(
            Client(scheduler, asynchronous=True, timeout=timeout), timeout=timeout + 5
        )
    except (OSError, asyncio.TimeoutError) as e:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {scheduler} "
            f"(gave up after {time.monotonic() - started:.0f} s: {type(e).__name__}: {e}); "
            "is `dask scheduler` running there, and is the address right?"
        ) from None
    return client, None
