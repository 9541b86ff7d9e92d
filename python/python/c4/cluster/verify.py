"""Verification of a store: the stored bounds of the frontier, carried up
the upper tree by negamax interval arithmetic, must prove each stored
root result on their own; and a sample of the stored tasks, solved again
here in the window they were solved in, must give the stored values."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import List, Optional

from .._c4 import Position, Solver, solve_window, symmetric_key
from .store import Store, StoreError, board_of
from .tree import proven_interval, score_range


@dataclass
class Report:
    """What ``verify`` checked and what it found wrong (``ok`` when
    nothing)."""

    roots: int = 0
    tasks: int = 0
    resolved: int = 0
    problems: List[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and self.roots > 0


def verify(path: str, *, sample: Optional[int] = 20, seed: int = 0, table: str = "64M",
           book: Optional[str] = "builtin") -> Report:
    """Checks the store at ``path`` (see the module documentation).
    ``sample`` tasks are solved again (None: all of them) with a fresh
    solver of ``table`` and ``book``; ``seed`` picks them."""
    from .. import __version__

    width, height, _ = board_of(path)
    report = Report()
    # A store of another c4 is refused here as the driver refuses it.
    store = Store(path, width, height, __version__, create=False)
    try:
        key_solver = Solver(width, height, table="1M", book=None)
        tasks = list(store.tasks())
        report.tasks = len(tasks)
        for root_key, moves, weak, depth, score in store.results():
            report.roots += 1
            root = Position(moves, width, height)
            if symmetric_key(key_solver, root) != root_key:
                report.problems.append(f"root {moves or '(empty)'}: its key is not the stored {root_key}")
                continue

            def frontier(position: Position):
                return store.interval(symmetric_key(key_solver, position), score_range(position))

            try:
                low, high = proven_interval(root, depth, frontier)
            except StoreError as e:
                report.problems.append(f"root {moves or '(empty)'}: {e}")
                continue
            name = f"root {moves or '(empty)'} ({'weak' if weak else 'exact'}, depth {depth})"
            if weak:
                proved = 1 if low > 0 else -1 if high < 0 else 0 if low == high == 0 else None
            else:
                proved = low if low == high else None
            if proved is None:
                report.problems.append(
                    f"{name}: the stored bounds prove only {low} <= score <= {high}, not the stored {score}"
                )
            elif proved != score:
                report.problems.append(f"{name}: the stored bounds prove {proved}, the stored result is {score}")
        if report.roots == 0:
            report.problems.append(f"{path}: no root result is stored")
        chosen = tasks if sample is None else random.Random(seed).sample(tasks, min(sample, len(tasks)))
        solver = Solver(width, height, table=table, book=book, threads=1)
        for task_id, key, moves, alpha, beta, value, lower, upper, *_ in chosen:
            position = Position(moves, width, height)
            where = f"task {task_id} (position {moves or '(empty)'}, window ({alpha}, {beta}))"
            if symmetric_key(key_solver, position) != key:
                report.problems.append(f"{where}: its key is not the position's")
                continue
            solver.clear()
            again, _ = solve_window(solver, position, alpha, beta)
            report.resolved += 1
            if again != value:
                report.problems.append(f"{where}: solved again, {again}; the store says {value}")
            # The stored bound must be what the value proves.
            low, high = score_range(position)
            expect = (low, min(high, value)) if value <= alpha else (
                (max(low, value), high) if value >= beta else (value, value))
            if (lower, upper) != expect:
                report.problems.append(
                    f"{where}: the stored bound [{lower}, {upper}] is not what its value {value} proves {list(expect)}"
                )
    finally:
        store.close()
    return report
