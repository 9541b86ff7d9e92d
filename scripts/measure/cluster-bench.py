#!/usr/bin/env python3
"""Measures c4.cluster's distributed solve against one process
(docs/cluster.md, "How efficient the split is").

    python scripts/measure/cluster-bench.py --board 8x5 --workers 1 2
    python scripts/measure/cluster-bench.py --board 7x7 --workers 1 2 --depth 4

For the board's empty position it solves once in this process (c4.Solver,
one thread, the same table and book as a worker's), then on a fresh local
Dask cluster of each number of single-threaded worker processes, each time
with a new store. It prints one Markdown row a run: the score, the wall
time, the tasks, their total nodes and the ratio to the single process's,
the tasks' summed search seconds, and the driver's own CPU seconds a task
(this process: the driver and the local scheduler, whose event loop it
shares). Run it alone on the machine (`flock /tmp/c4-cpu.lock ...`).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="8x5")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--depth", type=int)
    parser.add_argument("--table", default="64M")
    parser.add_argument("--no-single", action="store_true", help="skip the single-process run")
    args = parser.parse_args()
    width, height = (int(x) for x in args.board.lower().split("x"))

    import c4
    import c4.cluster

    print(f"| board | run | depth | score | wall s | tasks | nodes | vs 1 process | task s | driver CPU ms/task |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    single_nodes = None
    if not args.no_single:
        solver = c4.Solver(width, height, table=args.table, threads=1)
        start = time.perf_counter()
        score = solver.solve("")
        wall = time.perf_counter() - start
        single_nodes = solver.node_count
        print(f"| {args.board} | 1 process | - | {score} | {wall:.1f} | - | {single_nodes:,} | 1.00 | - | - |",
              flush=True)
    depth = args.depth if args.depth is not None else c4.cluster.default_depth(width, height)
    for workers in args.workers:
        with tempfile.TemporaryDirectory() as scratch:
            store = os.path.join(scratch, "bench.sqlite")
            cpu, start = time.process_time(), time.perf_counter()
            score = c4.cluster.solve("", store=store, local=workers, width=width, height=height,
                                     depth=depth, table=args.table, log=open(os.devnull, "w"))
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu
            with sqlite3.connect(store) as db:
                tasks, nodes, seconds = db.execute(
                    "SELECT count(*), sum(nodes), sum(seconds) FROM tasks").fetchone()
        ratio = f"{nodes / single_nodes:.2f}" if single_nodes else "-"
        print(f"| {args.board} | {workers} workers | {depth} | {score} | {wall:.1f} | {tasks} | {nodes:,} | "
              f"{ratio} | {seconds:.1f} | {1000 * cpu / max(tasks, 1):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
