"""Time c4's Python module against `c4 bench` and against BitBully, on the
same standard-set lines, in one run.

Every solver runs without an opening book, on one thread, its table cleared
before each position (`solve_many(..., clear=True)`, `c4 bench --no-book`,
BitBully's `reset_transposition_table()`), and every score is checked
against the set's. Rounds alternate the solvers so that a change in the
machine's load weighs on all of them alike; the best round of each is
reported, as a mean time a position, with the ratios. BitBully's reset
zeroes its whole table (tens of milliseconds), so its time is given twice:
with the reset, and of its searches alone.

    nice -n 10 python python/bench/bench.py --c4 target/release/c4 \
        --sets ../shared/testsets --rounds 3 --rounds-begin 1

BitBully is timed if it is importable (pip install bitbully), c4's command
if --c4 names its binary. Run with `nice -n 10` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import c4


def read_set(path: Path, limit: int | None) -> list[tuple[str, int]]:
    lines = []
    for text in path.read_text().splitlines():
        if text.strip() and not text.startswith("#"):
            moves, score = text.split()
            lines.append((moves, int(score)))
    return lines[:limit] if limit else lines


def time_python(lines: list[tuple[str, int]], table: str) -> tuple[float, int]:
    """Seconds a position and nodes a position, c4's Python module."""
    solver = c4.Solver(book=None, table=table)
    solver.solve("4453")  # the table's pages, as the command touches them
    solver.clear()
    solver.reset_node_count()
    start = time.perf_counter()
    scores = solver.solve_many((m for m, _ in lines), clear=True)
    elapsed = time.perf_counter() - start
    assert scores == [s for _, s in lines], "c4 (Python): wrong scores"
    return elapsed / len(lines), solver.node_count // len(lines)


def time_command(binary: str, lines: list[tuple[str, int]], table: str) -> tuple[float, float]:
    """Seconds a position (its wall time over its positions, as measured
    for the module) and nodes a position, `c4 bench --no-book`."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("".join(f"{m} {s}\n" for m, s in lines))
        f.flush()
        out = subprocess.run(
            [binary, "bench", "--no-book", "--threads", "1", "--tt-size", table, "--json", f.name],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    row = json.loads(out.splitlines()[0])
    assert row["mismatches"] == 0 and row["positions"] == len(lines), "c4 bench: wrong scores"
    return row["wall_time_s"] / row["positions"], row["mean_nodes"]


def time_bitbully(lines: list[tuple[str, int]]) -> tuple[float, float]:
    """Seconds a position, BitBully without a book, its table reset before
    each: with the reset, and of its search alone (the reset zeroes its
    whole table, about 70 ms on this machine, where c4's clear is a new
    table generation)."""
    import bitbully

    agent = bitbully.BitBully(opening_book=None)
    boards = [bitbully.Board.from_moves([int(ch) - 1 for ch in m]) for m, _ in lines]
    searching = 0.0
    start = time.perf_counter()
    scores = []
    for board in boards:
        agent.reset_transposition_table()
        solve_start = time.perf_counter()
        scores.append(agent.mtdf(board))
        searching += time.perf_counter() - solve_start
    elapsed = time.perf_counter() - start
    assert scores == [s for _, s in lines], "BitBully: wrong scores"
    return elapsed / len(lines), searching / len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=Path, default=Path("../shared/testsets"))
    parser.add_argument("--c4", help="the c4 binary, to time `c4 bench` too")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of Middle-Medium")
    parser.add_argument("--rounds-begin", type=int, default=1, help="rounds of Begin-Hard")
    parser.add_argument("--table", default="64M")
    parser.add_argument("--begin-hard", type=int, default=20, help="lines of Test_L1_R3")
    parser.add_argument("--only", choices=["middle", "begin"], help="one of the two sets")
    args = parser.parse_args()
    try:
        import bitbully  # noqa: F401

        have_bitbully = True
    except ImportError:
        have_bitbully = False
        print("BitBully is not installed: not timed", file=sys.stderr)
    sets = {
        "Middle-Medium (Test_L2_R2)": read_set(args.sets / "Test_L2_R2", None),
        f"Begin-Hard, first {args.begin_hard} (Test_L1_R3)": read_set(
            args.sets / "Test_L1_R3", args.begin_hard
        ),
    }
    if args.only:
        sets = {k: v for k, v in sets.items() if k.lower().startswith(args.only)}
    for name, lines in sets.items():
        best: dict[str, float] = {}
        nodes = 0
        rounds = args.rounds if name.startswith("Middle") else args.rounds_begin
        for _ in range(rounds):
            py, nodes = time_python(lines, args.table)
            best["c4 Python"] = min(best.get("c4 Python", py), py)
            if args.c4:
                cmd, command_nodes = time_command(args.c4, lines, args.table)
                assert command_nodes == nodes or abs(command_nodes - nodes) <= 1, (command_nodes, nodes)
                best["c4 bench"] = min(best.get("c4 bench", cmd), cmd)
            if have_bitbully:
                bb, bb_search = time_bitbully(lines)
                best["BitBully"] = min(best.get("BitBully", bb), bb)
                best["BitBully search"] = min(best.get("BitBully search", bb_search), bb_search)
        print(f"\n{name}: {len(lines)} lines, best of {rounds} rounds, {nodes:,} nodes a position (c4)")
        for solver, seconds in best.items():
            print(f"  {solver:16} {seconds * 1e6:12.1f} us a position")
        if "c4 bench" in best:
            print(f"  c4 Python / c4 bench: {best['c4 Python'] / best['c4 bench']:.3f}")
        if "BitBully" in best:
            print(f"  c4 Python / BitBully (its reset included): {best['c4 Python'] / best['BitBully']:.3f}")
            print(f"  c4 Python / BitBully search alone: {best['c4 Python'] / best['BitBully search']:.3f}")


if __name__ == "__main__":
    main()
