"""What a Dask worker runs: one task of a distributed solve, a position
searched in a window with c4's solver.

Each worker thread keeps one solver per board and settings from task to
task (its table learns across the tasks it is given), as
``scripts/dask-label.py`` does.
"""

from __future__ import annotations

import threading
import time
from typing import Dict, Optional, Tuple

_local = threading.local()


def _solver(width: int, height: int, table: str, book: Optional[str]):
    """This thread's solver of the board and settings."""
    from .. import Solver

    solvers: Dict[Tuple, object] = _local.__dict__.setdefault("solvers", {})
    settings = (width, height, table, book)
    solver = solvers.get(settings)
    if solver is None:
        solver = solvers[settings] = Solver(width, height, table=table, book=book, threads=1)
    return solver


def solve_task(
    moves: str, width: int, height: int, alpha: int, beta: int, table: str, book: Optional[str]
) -> Dict[str, object]:
    """The value of the position ``moves`` in the window ``(alpha, beta)``
    (fail-soft, see ``c4._c4.solve_window``), with the nodes and seconds it
    took, the worker's address and the solver's version."""
    from .. import __version__
    from .._c4 import solve_window

    solver = _solver(width, height, table, book)
    start = time.perf_counter()
    value, nodes = solve_window(solver, moves, alpha, beta)
    seconds = time.perf_counter() - start
    try:
        from distributed import get_worker

        worker = get_worker().address
    except (ImportError, ValueError):
        worker = "local"
    return {
        "value": value,
        "nodes": nodes,
        "seconds": seconds,
        "worker": worker,
        "solver_version": __version__,
    }
