"""The command line of ``c4.cluster`` (docs/cluster.md):

    python -m c4.cluster solve MOVES --store S.sqlite --scheduler tcp://HOST:8786 [--weak]
    python -m c4.cluster solve MOVES --store S.sqlite --local 2
    python -m c4.cluster verify --store S.sqlite [--sample N | --all]

``solve`` prints ``MOVES SCORE`` as ``c4 solve`` does (``(empty)`` names
the empty board on standard error only). Errors are one line on standard
error, ``error: ...``, and exit status 2 (1 when ``verify`` finds a
problem).
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional


def _bytes(text: str) -> int:
    """``"64M"`` -> 67108864."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper()
    try:
        if text and text[-1] in units:
            return int(float(text[:-1]) * units[text[-1]])
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (bytes, or 512K, 64M, 2G)") from None


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m c4.cluster", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    solve = commands.add_parser("solve", help="solve one position on a Dask cluster")
    solve.add_argument("moves", nargs="?", default="", help="the root's moves ('' for the empty board)")
    solve.add_argument("--store", required=True, help="the SQLite store (created if absent)")
    where = solve.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", help="the Dask scheduler's address, tcp://HOST:8786")
    where.add_argument("--local", type=int, metavar="N", help="start N worker processes here")
    solve.add_argument("--width", type=int, default=7)
    solve.add_argument("--height", type=int, default=6)
    solve.add_argument("--weak", action="store_true", help="only win (1), draw (0) or loss (-1)")
    solve.add_argument("--depth", type=int, help="the frontier, in stones below the root")
    solve.add_argument("--table", default="64M", help="each worker's table (64M)")
    solve.add_argument("--no-book", action="store_true", help="workers solve without c4's book")
    solve.add_argument("--progress", action="store_true", help="log lines instead of a bar")
    solve.add_argument("--progress-every", type=float, default=10.0, metavar="SECONDS")
    solve.add_argument("--retries", type=int, default=2, help="runs again of a failing task (2)")
    solve.add_argument("--max-store-bytes", type=_bytes, help="a size limit of the store file")
    solve.add_argument("--connect-timeout", type=float, default=10.0, metavar="SECONDS")

    check = commands.add_parser("verify", help="check that a store proves its results")
    check.add_argument("--store", required=True)
    amount = check.add_mutually_exclusive_group()
    amount.add_argument("--sample", type=int, default=20, help="tasks solved again (20)")
    amount.add_argument("--all", action="store_true", help="solve every task again")
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--table", default="64M")
    check.add_argument("--no-book", action="store_true")

    args = parser.parse_args(argv)
    from . import ClusterError, StoreError, solve as run_solve, verify

    try:
        if args.command == "solve":
            if args.local is not None and args.local < 1:
                parser.error("--local takes a number from 1 up")
            progress = "log" if args.progress else ("bar" if sys.stderr.isatty() else None)
            score = run_solve(
                args.moves, store=args.store, scheduler=args.scheduler, local=args.local,
                width=args.width, height=args.height, weak=args.weak, depth=args.depth,
                table=args.table, book=None if args.no_book else "builtin", progress=progress,
                progress_every=args.progress_every, retries=args.retries,
                max_store_bytes=args.max_store_bytes, connect_timeout=args.connect_timeout,
            )
            print(f"{args.moves} {score}".strip() if args.moves else str(score), flush=True)
            return 0
        report = verify(
            args.store, sample=None if args.all else args.sample, seed=args.seed, table=args.table,
            book=None if args.no_book else "builtin",
        )
        for problem in report.problems:
            print(f"problem: {problem}", file=sys.stderr)
        verdict = "verified" if report.ok else "NOT verified"
        print(f"{args.store}: {verdict}: {report.roots} root results, {report.tasks} tasks, "
              f"{report.resolved} solved again", flush=True)
        return 0 if report.ok else 1
    except (ClusterError, StoreError, ValueError, MemoryError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
