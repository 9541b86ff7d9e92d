#!/usr/bin/env python3
"""Samples the frontier of c4.cluster's driver on a board and solves the
sample's tasks, for the plan of docs/cluster.md ("Boards past this
machine").

    python scripts/measure/cluster-plan.py --board 12x4 --depth 8 --sample 20 --seed 1

It walks --sample random paths down the driver's upper tree from the
empty board to --depth stones (centre first, mirror images merged, a
uniform child at each step; --seed), estimates the frontier's size from
the branching met (Knuth's estimator), then solves each walk's frontier
position with a null-window test at 0, the task the driver's young
brothers get most, in this process (one thread, --table), each after a
cleared table. It prints the
frontier's size, then one line a sampled task (its moves, value, nodes,
seconds), and the mean and maximum seconds. A task that takes over
--limit seconds is stopped (Ctrl-C's path) and reported as over the limit.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", required=True)
    parser.add_argument("--depth", type=int, required=True)
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solve", type=int, help="how many of the walks' positions to solve (all)")
    parser.add_argument("--table", default="1G")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds a task at most (600)")
    args = parser.parse_args()
    width, height = (int(x) for x in args.board.lower().split("x"))

    import c4
    from c4._c4 import solve_window
    from c4.cluster.tree import children, known_score

    rng = random.Random(args.seed)
    chosen, products = [], []
    while len(chosen) < args.sample:
        # A random walk down the driver's upper tree (Knuth's estimator:
        # the product of the branching factors met estimates the number of
        # frontier paths).
        position, product = c4.Position("", width, height), 1
        for _ in range(args.depth):
            if known_score(position) is not None:
                break
            kids = children(position)
            product *= len(kids)
            position = rng.choice(kids)
        if known_score(position) is None and position.moves_played == args.depth:
            chosen.append(position)
            products.append(product)
    estimate = sum(products) / len(products)
    print(f"frontier at depth {args.depth}: about {estimate:,.0f} paths (Knuth's estimate, "
          f"{len(products)} walks; transpositions counted apart)", flush=True)
    solver = c4.Solver(width, height, table=args.table, threads=1)
    times, over = [], 0
    for position in chosen[: len(chosen) if args.solve is None else args.solve]:
        solver.clear()
        signal.signal(signal.SIGALRM, lambda *_: signal.raise_signal(signal.SIGINT))
        signal.setitimer(signal.ITIMER_REAL, args.limit)
        start = time.perf_counter()
        try:
            value, nodes = solve_window(solver, position, -1, 0)
        except KeyboardInterrupt:
            over += 1
            print(f"{position.moves} over {args.limit:.0f} s", flush=True)
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        seconds = time.perf_counter() - start
        times.append(seconds)
        print(f"{position.moves} value {value} nodes {nodes} seconds {seconds:.2f}", flush=True)
    if times:
        print(f"frontier ~{estimate:,.0f}; sample {len(chosen)}: mean {sum(times) / len(times):.2f} s, "
              f"max {max(times):.2f} s, {over} over {args.limit:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
