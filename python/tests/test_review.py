"""c4.review, Solver.review and Solver.review_many: every record checked
against scores Solver.solve gives for the positions before and after each
move (not against the review's code), on 7x6 with the book and on small
boards; the weak review's signs; errors naming the move; batches on
threads."""

from __future__ import annotations

import json
import random

import pytest

import c4


def verdict(best: int, played: int) -> str:
    """The verdict by its definition."""
    if played == best:
        return "best"
    if (played > 0) - (played < 0) == (best > 0) - (best < 0):
        return "slower"
    if best > 0 and played < 0:
        return "blunder"
    return "mistake"


def random_game(rng: random.Random, width: int, height: int) -> str:
    """A game of random legal moves played to its end."""
    moves = ""
    while True:
        position = c4.Position(moves, width, height)
        if position.is_game_over():
            return moves
        legal = [c for c in range(1, width + 1) if position.can_play(c)]
        moves += str(rng.choice(legal))


def check_against_solve(review: c4.Review, solver: c4.Solver, weak: bool = False) -> None:
    """Every move's scores, best columns and verdict from Solver.solve on
    the position before the move and each of its children."""
    width, height = review.width, review.height
    game = review.game
    assert len(review.moves) == len(game)
    for n, (ch, m) in enumerate(zip(game, review.moves)):
        before = c4.Position(game[:n], width, height)
        best = solver.solve(before, weak=weak)
        children = {
            col: -solver.solve(before.play(col), weak=weak)
            for col in range(1, width + 1)
            if before.can_play(col)
        }
        assert (m.number, m.player, m.column) == (n + 1, n % 2 + 1, int(ch))
        assert m.best_score == best == max(children.values()), (game, n)
        assert m.played_score == children[int(ch)], (game, n)
        assert m.best_columns == [c for c, s in sorted(children.items()) if s == best]
        assert m.verdict == verdict(best, m.played_score), (game, n)
    for p, summary in enumerate(review.players):
        mine = review.moves[p::2]
        assert summary.player == p + 1
        assert summary.moves == len(mine)
        assert summary.best == sum(m.verdict == "best" for m in mine)
        assert summary.slower == sum(m.verdict == "slower" for m in mine)
        assert summary.mistakes == sum(m.verdict == "mistake" for m in mine)
        assert summary.blunders == sum(m.verdict == "blunder" for m in mine)
        if mine:
            assert summary.share_best == pytest.approx(summary.best / len(mine))
        changed = [m.number for m in mine if m.verdict in ("mistake", "blunder")]
        assert summary.result_changed == (changed[0] if changed else None)


def test_reviews_agree_with_solve_on_7x6() -> None:
    solver = c4.Solver()
    rng = random.Random(5)
    games = [random_game(rng, 7, 6) for _ in range(3)] + ["4455443", "14"]
    seen = set()
    for game in games:
        review = solver.review(game)
        check_against_solve(review, solver)
        seen.update(m.verdict for m in review.moves)
        assert review.finished == c4.Position(game).is_game_over()
        weak = solver.review(game, weak=True)
        assert weak.weak
        check_against_solve(weak, solver, weak=True)
        for s, w in zip(review.moves, weak.moves):
            assert (w.best_score, w.played_score) == (
                (s.best_score > 0) - (s.best_score < 0),
                (s.played_score > 0) - (s.played_score < 0),
            )
    assert {"best", "blunder"} <= seen


@pytest.mark.parametrize("width,height", [(4, 4), (5, 4), (4, 5)])
def test_reviews_agree_with_solve_on_small_boards(width: int, height: int) -> None:
    solver = c4.Solver(width, height, book=None, table="4M")
    rng = random.Random(width * 10 + height)
    for _ in range(4):
        review = solver.review(random_game(rng, width, height))
        check_against_solve(review, solver)


def test_the_records_and_the_module_function() -> None:
    review = c4.review("14")
    first = review.moves[0]
    # 7x6 first moves score -2 -1 0 1 0 -1 -2: column 1 gives the win away.
    assert (first.best_score, first.played_score, first.best_columns) == (1, -2, [4])
    assert first.verdict == "blunder"
    assert review.players[0].result_changed == 1
    assert review.turning_point == 1
    assert (review.start, review.end, review.finished) == ("first", "second", False)
    assert review.players[1].share_best == 1.0
    assert "verdict='blunder'" in repr(first)
    assert c4.review([1, 4]).moves == review.moves
    assert c4.review(c4.Position("14")).moves == review.moves
    small = c4.review("1212", width=4, height=4)
    assert (small.width, small.height) == (4, 4)
    data = json.loads(review.to_json())
    assert data["game"] == "14" and data["moves"][0]["verdict"] == "blunder"
    empty = c4.review("")
    assert empty.moves == () and empty.start == "first"
    assert empty.players[0].share_best is None


@pytest.mark.parametrize(
    "game,message",
    [
        ("1111111", "move 7: column 1 is already full"),
        ("4x", "move 2: 'x' is not a column (1-7)"),
        ("12121213", "move 8 (column 3): the game was already won on move 7"),
        ([4, 8], "move 2: 8 is not a column (1-7)"),
    ],
)
def test_bad_games_name_the_move(game, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        c4.review(game)


def test_review_many_in_order_on_threads() -> None:
    solver = c4.Solver()
    rng = random.Random(9)
    games = [random_game(rng, 7, 6) for _ in range(5)]
    one = solver.review_many(games)
    two = solver.review_many(games, threads=2)
    assert [r.game for r in one] == games
    assert [r.moves for r in one] == [r.moves for r in two]
    assert [r.to_json() for r in one] == [solver.review(g).to_json() for g in games]
    with pytest.raises(ValueError, match=r"game 2: move 7: column 1 is already full"):
        solver.review_many(["44", "1111111"])
    with pytest.raises(TypeError):
        solver.review(3.5)
