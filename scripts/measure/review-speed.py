#!/usr/bin/env python3
"""Games of one c4 level against another, for `c4 review`, and the time a
review takes beside `c4 analyze` on each position of the same games.

    python scripts/measure/review-speed.py games N LEVEL_A LEVEL_B > games.txt
    python scripts/measure/review-speed.py time games.txt [C4_BINARY]

`games` plays N games between c4's levels (`c4 play --level`; the
c4 package's LevelPlayer, seeded with the game's number), LEVEL_A first in
the even-numbered games and LEVEL_B first in the others, and prints one
move string a line.

`time` runs, one thread, on the same machine one after the other:
`c4 review --threads 1` on the whole file, then `c4 analyze` on every
position before a move of every game (one process per position, as a user
would run it), and prints the mean CPU time (user and system) and wall
time per game of each, and their ratio of CPU times;
with the c4 package importable, also `Solver.review` beside
`Solver.analyze` on each position, in one process.
CPU times hold on a loaded machine far better than wall times; the ratio,
measured in one run, is the figure to compare.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time


def games(n: int, level_a: int, level_b: int) -> None:
    import c4
    from c4._c4 import LevelPlayer

    solver = c4.Solver()
    for number in range(n):
        first, second = (level_a, level_b) if number % 2 == 0 else (level_b, level_a)
        players = [
            LevelPlayer(first, seed=2 * number),
            LevelPlayer(second, seed=2 * number + 1),
        ]
        position = c4.Position("")
        while not position.is_game_over():
            player = players[position.moves_played % 2]
            column, _ = player.choose(position, lambda: solver.analyze(position))
            position = position.play(column)
        print(position.moves, flush=True)


def children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def self_cpu() -> float:
    """CPU seconds (user and system) of this process, its threads included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(binary: str, path: str) -> None:
    with open(path) as f:
        lines = [line.strip() for line in f if line.strip()]
    start, cpu = time.perf_counter(), children_cpu()
    with open(path) as f:
        subprocess.run(
            [binary, "review", "--threads", "1", "--json"],
            stdin=f,
            stdout=subprocess.DEVNULL,
            check=True,
        )
    review = time.perf_counter() - start
    review_cpu = children_cpu() - cpu
    start, cpu = time.perf_counter(), children_cpu()
    for line in lines:
        for n in range(len(line)):
            subprocess.run(
                [binary, "analyze", "--json", line[:n]],
                stdout=subprocess.DEVNULL,
                check=True,
            )
    analyze = time.perf_counter() - start
    analyze_cpu = children_cpu() - cpu
    try:
        import c4
    except ImportError:
        c4 = None
    if c4 is not None:
        # The same in one process, on fresh solvers of the same table and
        # book: no process start or book load on either side.
        solver = c4.Solver()
        start = self_cpu()
        for line in lines:
            solver.review(line)
        py_review = self_cpu() - start
        solver = c4.Solver()
        start = self_cpu()
        for line in lines:
            for n in range(len(line)):
                solver.analyze(line[:n])
        py_analyze = self_cpu() - start
    moves = sum(len(line) for line in lines)
    print(f"{len(lines)} games, {moves} moves ({moves / len(lines):.1f} a game)")
    per_game = 1000 / len(lines)
    print("mean a game, ms:               CPU     wall")
    print(f"c4 review --threads 1:        {review_cpu * per_game:7.1f}  {review * per_game:7.1f}")
    print(f"c4 analyze on each position:  {analyze_cpu * per_game:7.1f}  {analyze * per_game:7.1f}")
    print(f"review / analyze (CPU):       {review_cpu / analyze_cpu:.3f}")
    if c4 is not None:
        print(f"Solver.review:                {py_review * per_game:7.1f}")
        print(f"Solver.analyze each position: {py_analyze * per_game:7.1f}")
        print(f"review / analyze (CPU):       {py_review / py_analyze:.3f}")


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "games":
        games(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "time":
        timed(sys.argv[3] if len(sys.argv) == 4 else "c4", sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
