"""Label random positions with their exact scores, with a progress bar:
the README's example, timed.

The positions are those of random games: from the empty 7x6 board, each
side plays a uniformly random move that does not connect four (so no game
ends) for a number of moves drawn uniformly from 0 to 36. That is the kind
of position self-play agents see, from the opening (answered by the
built-in book up to its depth) to the end game.

    python python/bench/label_random.py --count 10000 --threads 1
"""

from __future__ import annotations

import argparse
import random
import time

import c4


def random_position(rng: random.Random, max_moves: int = 36) -> c4.Position:
    """A position of a random game, not over, after 0 to max_moves moves."""
    position = c4.Position()
    for _ in range(rng.randint(0, max_moves)):
        moves = [col for col in position.legal_moves() if not position.is_winning_move(col)]
        if not moves:
            break
        position = position.play(rng.choice(moves))
    return position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    positions = [random_position(rng) for _ in range(args.count)]
    solver = c4.Solver()
    try:
        from tqdm import tqdm
    except ImportError:  # the bar is optional
        tqdm = None
    bar = tqdm(total=len(positions), unit="pos") if tqdm else None
    start = time.perf_counter()
    scores: list[int] = []
    for i in range(0, len(positions), 200):
        chunk = positions[i : i + 200]
        scores += solver.solve_many(chunk, threads=args.threads)
        if bar:
            bar.update(len(chunk))
    elapsed = time.perf_counter() - start
    if bar:
        bar.close()
    wins = sum(s > 0 for s in scores)
    draws = sum(s == 0 for s in scores)
    print(
        f"{len(scores)} positions in {elapsed:.1f} s ({elapsed / len(scores) * 1e3:.2f} ms each): "
        f"{wins} won, {draws} drawn, {len(scores) - wins - draws} lost by the side to move"
    )


if __name__ == "__main__":
    main()
