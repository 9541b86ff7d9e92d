"""c4: a Connect Four perfect-play solver, on every board size from 4x4 up.

Positions are move strings of 1-based columns (``"4453"``: the first player
played column 4, the second column 4, ...; ``a``, ``b``, ... for columns 10
and up) or :class:`Position` objects. Scores are for the side to move:
positive when it wins (the number of its own stones left when it connects
four, plus one), negative when it loses, 0 for a draw.

>>> import c4
>>> c4.solve("4453")
-2
>>> c4.solve("4453", weak=True)
-1
>>> c4.analyze("44533")
[-4, -2, 2, 2, -2, -2, -2]
>>> c4.best_move("44533")
4

The functions below use one :class:`Solver` per board size and per thread,
with the default table (64 MiB) and c4's built-in opening book; make a
:class:`Solver` to choose the table, the book or the threads, or to solve
many positions at once (:meth:`Solver.solve_many`).
"""

from __future__ import annotations

import threading
from typing import Union

from ._c4 import MoveReview, PlayerSummary, Position, Review, Solver, __version__
from .agents import LEVELS, LevelAgent, level_agent
from .evaluation import Evaluation, evaluate

__all__ = [
    "Evaluation",
    "LEVELS",
    "LevelAgent",
    "MoveReview",
    "PlayerSummary",
    "Position",
    "Solver",
    "analyze",
    "best_move",
    "evaluate",
    "level_agent",
    "pv",
    "review",
    "Review",
    "solve",
    "__version__",
]

PositionLike = Union[str, bytes, Position]

_local = threading.local()


def _solver(position: PositionLike, width: int | None, height: int | None) -> Solver:
    """This thread's default solver of the board of ``position``."""
    if isinstance(position, Position):
        board = (width or position.width, height or position.height)
    else:
        board = (width or 7, height or 6)
    solvers = _local.__dict__.setdefault("solvers", {})
    solver = solvers.get(board)
    if solver is None:
        solver = solvers[board] = Solver(*board)
    return solver


def solve(
    position: PositionLike,
    *,
    weak: bool = False,
    width: int | None = None,
    height: int | None = None,
) -> int:
    """The score of ``position`` for the side to move.

    ``weak=True`` gives only its sign: 1 win, 0 draw, -1 loss. The board is
    the position's, or ``width`` x ``height`` for a move string (7x6 by
    default). Raises ``ValueError`` for a move string that does not replay,
    naming the character at fault.
    """
    return _solver(position, width, height).solve(position, weak=weak)


def analyze(
    position: PositionLike, *, width: int | None = None, height: int | None = None
) -> list[int | None]:
    """The score of each column for the side to move, column 1 first.

    ``None`` for a full column, and for every column once the game is over.
    """
    return _solver(position, width, height).analyze(position)


def best_move(
    position: PositionLike, *, width: int | None = None, height: int | None = None
) -> int | None:
    """A best move (1-based column), the centre-most among equals; ``None``
    once the game is over."""
    return _solver(position, width, height).best_move(position)


def pv(
    position: PositionLike, *, width: int | None = None, height: int | None = None
) -> list[int]:
    """A perfect-play line to the end of the game, as 1-based columns."""
    return _solver(position, width, height).pv(position)


def review(
    game: Union[str, bytes, Position, "list[int]"],
    *,
    weak: bool = False,
    width: int | None = None,
    height: int | None = None,
) -> Review:
    """The review of ``game`` move by move against perfect play.

    ``game`` is a move string, a :class:`Position` (the moves that reached
    it) or a list of 1-based columns, from the empty board. Each move gets a
    :class:`MoveReview` (the best score and the played score for the mover,
    the best columns and a verdict: best, slower, mistake or blunder) and
    each player a :class:`PlayerSummary`. ``weak=True`` judges only win,
    draw or loss. Raises ``ValueError`` naming the move that does not replay.

    >>> r = review("14")
    >>> r.moves[0].verdict, r.moves[0].best_columns
    ('blunder', [4])
    """
    return _solver(game if isinstance(game, Position) else "", width, height).review(
        game, weak=weak
    )
