#!/usr/bin/env python3
"""Labels a file of positions with their scores across machines, with Dask.

    python scripts/dask-label.py IN OUT --scheduler tcp://HOST:8786
    python scripts/dask-label.py IN OUT --local 2

IN has one position a line, read as `c4 solve` reads a line of stdin
(docs/input.md): a move string, then optionally a score, which must be one
the position can have (it is checked, never used). OUT gets `MOVES SCORE` for each good line, in
the input's order. A line that is not a position is reported on standard
error as `line N: why` and left out; the other lines go on, and the exit
status is then 1.

The lines are cut into chunks of --chunk lines, one Dask task a chunk. Each
worker thread solves with the c4 package's default solver of the board (one
per thread, kept from task to task: 64 MiB, the built-in 7x6 book). With
--scheduler the tasks go to a running cluster (`dask scheduler` on one
machine, `dask worker tcp://HOST:8786 --nthreads 1` on each, with the c4
package installed); --local N starts a cluster of N worker processes here.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter


def label_chunk(lines, width, height, weak):
    """The (line number, output line or None, error or None) of each
    numbered line of a chunk, and the address of the worker that ran it."""
    import c4
    from distributed import get_worker

    # This worker thread's default solver of the board; a line goes through
    # solve_many, which reads it as a line of a set (MOVES [SCORE]).
    solver = c4._solver("", width, height)
    out = []
    for number, text in lines:
        moves = text.split()[0] if text.split() else ""
        try:
            [score] = solver.solve_many([text], weak=weak)
        except ValueError as e:
            # solve_many names the line of its own one-line batch.
            out.append((number, None, str(e).removeprefix("line 1: ")))
        else:
            out.append((number, f"{moves} {score}", None))
    return get_worker().address, out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", help="address of a running Dask scheduler")
    where.add_argument("--local", type=int, metavar="N", help="start N local worker processes")
    parser.add_argument("--chunk", type=int, default=1000, help="lines a task (1000)")
    parser.add_argument("--width", type=int, default=7)
    parser.add_argument("--height", type=int, default=6)
    parser.add_argument("--weak", action="store_true", help="only win (1), draw (0) or loss (-1)")
    args = parser.parse_args(argv)
    if args.chunk < 1 or (args.local is not None and args.local < 1):
        parser.error("--chunk and --local take a number from 1 up")

    from distributed import Client, LocalCluster

    with open(args.input, encoding="utf-8", errors="replace") as f:
        numbered = [(n, line.rstrip("\n")) for n, line in enumerate(f, 1) if line.strip()]
    chunks = [numbered[i : i + args.chunk] for i in range(0, len(numbered), args.chunk)]

    if args.local is not None:
        cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True)
        client = Client(cluster)
    else:
        cluster, client = None, Client(args.scheduler)
    try:
        futures = client.map(
            label_chunk, chunks, width=args.width, height=args.height, weak=args.weak, pure=False
        )
        results = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    errors = 0
    per_worker = Counter()
    with open(args.output, "w", encoding="utf-8") as out:
        for worker, chunk in results:
            per_worker[worker] += 1
            for number, line, error in chunk:
                if error is None:
                    out.write(line + "\n")
                else:
                    errors += 1
                    print(f"line {number}: {error}", file=sys.stderr)
    spread = ", ".join(f"{n} on {w}" for w, n in sorted(per_worker.items()))
    print(
        f"{len(numbered) - errors} lines labelled, {errors} errors; {len(chunks)} chunks: {spread}",
        file=sys.stderr,
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
