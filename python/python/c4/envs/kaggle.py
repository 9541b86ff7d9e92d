"""c4 in Kaggle's ConnectX (``kaggle_environments.make("connectx")``).

Conventions of the environment, and how they map to c4:

* **Actions** are 0-based columns, left to right: action ``a`` is c4's
  column ``a + 1``.
* **Observations** have ``board``, a flat list of ``rows * columns`` cells
  in row-major order, **top row first** (``board[0]`` is the top-left cell,
  ``board[columns]`` the cell below it), 0 empty, 1 and 2 the players'
  stones; and ``mark``, the mark of the agent to move.
* **Players:** the first agent of ``env.run([first, second])`` has mark 1
  and moves first (c4's player 1, ``X``); mark 2 is c4's player 2.
* **Sizes:** the configuration's ``columns`` and ``rows`` (7 and 6 by
  default; ConnectX takes any from 1) and ``inarow`` (4 by default). c4
  plays four in a row on boards from 4x4 up (those the ``c4`` command
  takes): another ``inarow`` or a board c4 does not take is a
  ``ValueError``.
* **Move order:** the board does not record it; :func:`to_position` gives a
  position whose moves are a line that reaches the board (the stones
  played in turn, bottom up in each column, no one connecting four before
  the last stone), which is all c4 needs to solve it.

An episode of c4's perfect play against ConnectX's built-in negamax agent::

    from kaggle_environments import make
    from c4.envs import kaggle

    env = make("connectx")
    steps = env.run([kaggle.agent(4), "negamax"])
    print(steps[-1][0].reward)    # 1: the first player won
"""

from __future__ import annotations

from typing import Any, Optional

from .._c4 import Position
from . import Player, action, field, resolve

__all__ = ["KaggleAgent", "agent", "to_position"]


def board_size(configuration: Optional[Any] = None) -> tuple[int, int]:
    """The (columns, rows) of a ConnectX configuration (7x6 when it is
    ``None`` or leaves them out); ``ValueError`` unless it asks for four
    in a row."""
    if configuration is None:
        return 7, 6
    columns = field(configuration, "columns", 7)
    rows = field(configuration, "rows", 6)
    inarow = field(configuration, "inarow", 4)
    if inarow != 4:
        raise ValueError(f"c4 plays four in a row, and this configuration asks for inarow={inarow}")
    return int(columns), int(rows)


def to_position(observation: Any, configuration: Optional[Any] = None) -> Position:
    """The :class:`c4.Position` of a ConnectX observation (its ``board``,
    and its ``mark`` checked to be the side to move) under
    ``configuration`` (7x6 when ``None``).

    Raises ``ValueError`` for another ``inarow``, a board of the wrong
    length or with values other than 0, 1 and 2, a board no game reaches,
    a board size c4 does not take, or a ``mark`` that is not the side to
    move.
    """
    columns, rows = board_size(configuration)
    board = field(observation, "board")
    if board is None:
        raise ValueError("a ConnectX observation has a board")
    board = list(board)
    if len(board) != rows * columns:
        raise ValueError(
            f"a ConnectX board of {columns} columns and {rows} rows has {rows * columns} cells, "
            f"not {len(board)}"
        )
    for i, cell in enumerate(board):
        if cell not in (0, 1, 2):
            raise ValueError(f"cell {i} of the board (row {i // columns}, column {i % columns}, 0-based) "
                             f"holds {cell!r}, not 0, 1 or 2")
    grid = [[int(cell) for cell in board[r * columns:(r + 1) * columns]] for r in range(rows)]
    position = Position.from_rows(grid)
    mark = field(observation, "mark")
    if mark is not None and not position.is_game_over() and mark != position.side_to_move:
        raise ValueError(
            f"the observation's mark is {mark}, but the board has player {position.side_to_move} to move"
        )
    return position


class KaggleAgent:
    """A c4 agent in ConnectX's convention: ``agent(observation,
    configuration)`` returns the 0-based column to play."""

    def __init__(self, player: Player = 4, seed: int = 0):
        self.agent = resolve(player, seed)

    def __call__(self, observation: Any, configuration: Optional[Any] = None) -> int:
        return action(self.agent, to_position(observation, configuration))

    def __repr__(self) -> str:
        return f"KaggleAgent({self.agent!r})"


def agent(player: Player = 4, seed: int = 0) -> KaggleAgent:
    """A ConnectX agent playing c4's level ``player`` (0-4 or its name;
    perfect play by default) or the c4 agent ``player`` (a callable from a
    :class:`c4.Position` to a 1-based column)."""
    return KaggleAgent(player, seed)
