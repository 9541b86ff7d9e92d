"""Scores against independent witnesses: the standard test sets, the
published values of small boards, and an exhaustive minimax written here."""

from __future__ import annotations

import random

import pytest

import c4
from conftest import read_set
from minimax import replay, score, wins

# Lines of each standard set solved here (the whole run stays short).
LINES_PER_SET = {
    "Test_L3_R1": 200,  # End-Easy
    "Test_L2_R1": 200,  # Middle-Easy
    "Test_L2_R2": 100,  # Middle-Medium
    "Test_L1_R1": 100,  # Begin-Easy
    "Test_L1_R2": 50,  # Begin-Medium
    "Test_L1_R3": 30,  # Begin-Hard
}


def test_the_readme_examples() -> None:
    assert c4.solve("4453") == -2
    assert c4.solve("4453", weak=True) == -1
    scores = c4.analyze("44533")
    assert len(scores) == 7 and None not in scores
    assert max(scores) == c4.solve("44533")
    assert scores[c4.best_move("44533") - 1] == max(scores)


@pytest.mark.parametrize("name", sorted(LINES_PER_SET))
def test_standard_sets_with_the_book(standard_sets, name: str) -> None:
    lines = read_set(standard_sets / name, LINES_PER_SET[name])
    solver = c4.Solver()
    assert solver.solve_many(m for m, _ in lines) == [s for _, s in lines]
    weak = solver.solve_many((m for m, _ in lines), weak=True)
    assert weak == [(s > 0) - (s < 0) for _, s in lines]


def test_standard_set_lines_as_they_are_and_without_the_book(standard_sets) -> None:
    # Lines fed with their score, as `c4` reads a test set; no book.
    with open(standard_sets / "Test_L2_R2", encoding="utf-8") as f:
        lines = [next(f) for _ in range(40)]
    expected = [int(line.split()[1]) for line in lines]
    solver = c4.Solver(book=None, table="16M")
    assert solver.solve_many(lines, clear=True) == expected
    assert [solver.solve(line.split()[0]) for line in lines[:10]] == expected[:10]


def test_threads_give_the_same_scores(standard_sets) -> None:
    lines = read_set(standard_sets / "Test_L2_R2", 60)
    moves = [m for m, _ in lines]
    expected = [s for _, s in lines]
    solver = c4.Solver(book=None, table="8M")
    assert solver.solve_many(moves, threads=2, clear=True) == expected
    assert solver.solve_many(moves, threads=3) == expected
    assert solver.solve_many(iter(moves), threads=0, weak=True) == [
        (s > 0) - (s < 0) for s in expected
    ]
    searching_together = c4.Solver(book=None, table="8M", threads=2)
    assert searching_together.threads == 2
    assert [searching_together.solve(m) for m in moves[:15]] == expected[:15]


# Tromp's published outcomes of the empty board (docs/board-sizes.md): the
# first player wins (1), the game is a draw (0) or the second player wins
# (-1); with the move the game ends on, which fixes the exact score.
PUBLISHED = [
    # (width, height, outcome, last move)
    (4, 4, 0, 16),
    (5, 4, 0, 20),
    (4, 5, 0, 20),
    (6, 4, -1, 24),
    (5, 5, 0, 25),
    (7, 4, 0, 28),
    (6, 5, 0, 30),
    (8, 4, -1, 32),
    (7, 6, 1, 41),
]


@pytest.mark.parametrize("width,height,outcome,last", PUBLISHED)
def test_published_values_of_the_empty_board(width, height, outcome, last) -> None:
    cells = width * height
    # A win on move `last`: the winner has (cells + 1 - last) // 2 stones left
    # (plus one), the Pons score; a draw is 0.
    exact = 0 if outcome == 0 else outcome * ((cells + 2 - last) // 2)
    empty = c4.Position("", width, height)
    assert c4.solve(empty, weak=True) == outcome
    assert c4.solve(empty) == exact
    line = c4.pv(empty)
    assert len(line) == last
    end = empty.play("".join(str(c) for c in line))
    assert end.is_game_over()
    assert end.winner() == {1: 1, -1: 2, 0: None}[outcome]


def random_position(rng: random.Random, width: int, height: int, stones: int) -> str | None:
    """A move string of `stones` random moves that does not end the game,
    and after which the side to move cannot win at once; None if the
    draw ran into a finished game."""
    columns = [0] * width
    board = tuple(() for _ in range(width))
    moves = ""
    for index in range(stones):
        player = 1 + index % 2
        free = [c for c in range(width) if columns[c] < height]
        rng.shuffle(free)
        col = next((c for c in free if not wins(board, c, player, height)), None)
        if col is None:
            return None
        board = board[:col] + (board[col] + (player,),) + board[col + 1 :]
        columns[col] += 1
        moves += str(col + 1)
    return moves


@pytest.mark.parametrize("width,height,stones,count", [(4, 4, 4, 40), (5, 4, 8, 30), (4, 5, 8, 30)])
def test_small_boards_against_exhaustive_minimax(width, height, stones, count) -> None:
    rng = random.Random(width * 100 + height)
    solver = c4.Solver(width, height, table="1M")
    checked = 0
    while checked < count:
        moves = random_position(rng, width, height, stones)
        if moves is None:
            continue
        expected = score(replay(moves, width, height), height)
        assert solver.solve(moves) == expected, moves
        assert solver.solve(moves, weak=True) == (expected > 0) - (expected < 0), moves
        scores = solver.analyze(moves)
        # Each column's score is minus the score after it (or a win now).
        for col, got in enumerate(scores):
            board = replay(moves, width, height)
            if len(board[col]) == height:
                assert got is None
                continue
            player = 1 + len(moves) % 2
            if wins(board, col, player, height):
                want = (width * height + 1 - len(moves)) // 2
            elif len(moves) + 1 == width * height:
                want = 0
            else:
                want = -score(replay(moves + str(col + 1), width, height), height)
            assert got == want, (moves, col + 1)
        assert max(s for s in scores if s is not None) == expected
        best = solver.best_move(moves)
        assert scores[best - 1] == expected
        checked += 1


def test_the_principal_variation_plays_out_its_score() -> None:
    solver = c4.Solver(5, 4, table="1M")
    rng = random.Random(7)
    for _ in range(20):
        moves = random_position(rng, 5, 4, 6)
        if moves is None:
            continue
        expected = solver.solve(moves)
        end = c4.Position(moves, 5, 4).play("".join(map(str, solver.pv(moves))))
        assert end.is_game_over()
        if expected == 0:
            assert end.winner() is None
        else:
            mover = 1 + len(moves) % 2
            assert end.winner() == (mover if expected > 0 else 3 - mover)
            # The winner's score: stones it had left, plus one.
            assert abs(expected) == (20 + 2 - end.moves_played) // 2


def test_a_finished_game_has_no_move() -> None:
    won = c4.Position("1212121")
    assert won.is_won() and won.winner() == 1
    assert c4.best_move(won) is None
    assert c4.pv(won) == []
    assert c4.analyze(won) == [None] * 7
    assert c4.solve(won) == -((42 + 2 - 7) // 2)


def test_a_solver_keeps_its_table_and_clears_it(standard_sets) -> None:
    moves, expected = read_set(standard_sets / "Test_L2_R2", 1)[0]
    solver = c4.Solver(book=None, table="8M")
    assert solver.solve(moves) == expected
    first = solver.node_count
    assert first > 0
    assert solver.solve(moves) == expected
    again = solver.node_count - first
    solver.clear()
    solver.reset_node_count()
    assert solver.node_count == 0
    assert solver.solve(moves) == expected
    # The table remembered the first search: solving again took fewer nodes
    # than solving from a cleared table.
    assert again < solver.node_count


def test_other_boards_through_the_module_functions() -> None:
    p = c4.Position("33", 6, 5)
    assert c4.solve(p) == c4.solve("33", width=6, height=5)
    wide = c4.Position("", 10, 4)
    assert wide.legal_moves() == list(range(1, 11))
    # A big board (128-bit keys): a won-next position answers at once.
    big = c4.Position("1a1a1a", 10, 10)
    assert big.can_win_next()
    assert c4.solve(big) == (100 + 1 - 6) // 2
    assert c4.best_move(big) == 1
