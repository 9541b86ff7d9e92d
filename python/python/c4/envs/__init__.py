"""Adapters between c4 and the agents' environments: PettingZoo's
``connect_four_v3`` (:mod:`c4.envs.pettingzoo`), Kaggle's ConnectX
(:mod:`c4.envs.kaggle`) and OpenSpiel's ``connect_four``
(:mod:`c4.envs.openspiel`).

Each module has ``to_position``, from the environment's observation or
state to a :class:`c4.Position`, and ``agent``, a player in the
environment's calling convention. The environments number columns from 0
(leftmost), c4 from 1: the action ``a`` is c4's column ``a + 1``. None of
these modules imports its environment's package until it needs it (only
OpenSpiel's bot does), so they cost nothing to import.

``agent(player, seed)`` takes the player as a c4 level (0 beginner to 4
perfect, or its name; see :data:`c4.LEVELS`) or as any c4 agent: a callable
from a :class:`c4.Position` to a 1-based column.
"""

from __future__ import annotations

from typing import Any, Callable, Union

from .._c4 import Position
from ..agents import level_agent

__all__ = ["kaggle", "openspiel", "pettingzoo"]

Player = Union[int, str, Callable[[Position], int]]


def resolve(player: Player, seed: int) -> Callable[[Position], int]:
    """The c4 agent ``player`` names: itself if it is callable, else the
    level it names, seeded with ``seed``."""
    if callable(player):
        return player
    return level_agent(player, seed)


def action(agent: Callable[[Position], int], position: Position) -> int:
    """The 0-based action of ``agent``'s move in ``position``, checked to be
    a legal column."""
    if position.is_game_over():
        raise ValueError("no move to play: the game is over")
    column = agent(position)
    if isinstance(column, bool) or not hasattr(column, "__index__"):
        raise TypeError(f"the agent returned {column!r}, not a column number")
    column = column.__index__()
    if not position.can_play(column):
        raise ValueError(
            f"the agent played column {column} (1-based), which is not legal here "
            f"(legal: {', '.join(map(str, position.legal_moves()))})"
        )
    return column - 1


def field(obj: Any, name: str, default: Any = None) -> Any:
    """``obj[name]`` or ``obj.name`` (environments give both kinds), or
    ``default`` when it has neither."""
    try:
        return obj[name]
    except (TypeError, KeyError, IndexError):
        return getattr(obj, name, default)

