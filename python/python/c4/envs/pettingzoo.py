"""c4 in PettingZoo's ``connect_four_v3`` (``pettingzoo.classic``).

Conventions of the environment, and how they map to c4:

* **Actions** are 0-based columns, left to right: action ``a`` is c4's
  column ``a + 1``.
* **Observations** are given to the agent to move (``env.last()`` in the
  AEC loop): a dict with ``"observation"``, an ``int8`` array of rows x
  columns x 2 (6 x 7 x 2), **top row first**, plane 0 the stones of the
  agent to move and plane 1 its opponent's, and ``"action_mask"``, 1 for
  each column with room.
* **Players:** ``player_0`` moves first (c4's player 1, ``X``),
  ``player_1`` second. The observation does not say which the agent to
  move is: it is the first player when both have as many stones, the
  second when it has one stone fewer. So :func:`to_position` reads only an
  observation of the agent to move (``env.observe(name)`` of the other
  agent, whose planes are the other way round, would be misread).
* **Move order:** the grid does not record it; :func:`to_position` gives a
  position whose moves are a line that reaches the grid (the stones played
  in turn, bottom up in each column, no one connecting four before the
  last stone), which is all c4 needs to solve it.

An episode, both players perfect::

    import pettingzoo
    from c4.envs import pettingzoo as pz

    env = pettingzoo.make("aec", "classic/connect_four-v3")  # before 1.27: connect_four_v3.env()
    env.reset(seed=0)
    perfect = pz.agent(4)
    for name in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else perfect(observation))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from .._c4 import Position
from . import Player, action, resolve

__all__ = ["PettingZooAgent", "agent", "to_position"]


def to_position(observation: Any) -> Position:
    """The :class:`c4.Position` of an observation of the agent to move: the
    dict ``env.last()`` gives, or its ``"observation"`` array (rows x
    columns x 2, top row first; nested lists do too).

    Raises ``ValueError`` for an array of the wrong shape or values, for
    stone counts that are not those of the agent to move (as many as its
    opponent's, or one fewer), and for a grid no game reaches.
    """
    planes = observation["observation"] if isinstance(observation, Mapping) else observation
    grid = planes.tolist() if hasattr(planes, "tolist") else planes
    try:
        width = len(grid[0])
        cells = [[(int(cell[0]), int(cell[1])) for cell in row] for row in grid]
        square = all(len(row) == width for row in cells) and all(
            len(cell) == 2 for row in grid for cell in row
        )
    except (TypeError, IndexError, ValueError):
        square = False
    if not square:
        raise ValueError("a connect_four_v3 observation is an array of rows x columns x 2")
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            if cell not in ((0, 0), (1, 0), (0, 1)):
                raise ValueError(
                    f"row {r}, column {c} (0-based, top row first) holds {list(cell)}: "
                    "each cell is [0, 0], [1, 0] or [0, 1]"
                )
    own = sum(cell[0] for row in cells for cell in row)
    other = sum(cell[1] for row in cells for cell in row)
    if own == other:
        mine, theirs = 1, 2
    elif own + 1 == other:
        mine, theirs = 2, 1
    else:
        raise ValueError(
            f"the agent to move has {own} stones and its opponent {other}: not an observation "
            "of the agent to move (it has as many stones as its opponent, or one fewer)"
        )
    rows = [[mine if cell[0] else theirs if cell[1] else 0 for cell in row] for row in cells]
    return Position.from_rows(rows)


class PettingZooAgent:
    """A c4 agent in PettingZoo's convention: ``agent(observation,
    action_mask=None)`` returns the 0-based action of the agent to move.
    ``observation`` is the dict ``env.last()`` gives (its ``action_mask`` is
    then used) or its array; the action is checked against the mask."""

    def __init__(self, player: Player = 4, seed: int = 0):
        self.agent = resolve(player, seed)

    def __call__(self, observation: Any, action_mask: Optional[Any] = None) -> int:
        position = to_position(observation)
        if action_mask is None and isinstance(observation, Mapping):
            action_mask = observation.get("action_mask")
        chosen = action(self.agent, position)
        if action_mask is not None and not action_mask[chosen]:
            raise ValueError(f"action {chosen} is legal in c4's position but masked out: {list(action_mask)}")
        return chosen

    def __repr__(self) -> str:
        return f"PettingZooAgent({self.agent!r})"


def agent(player: Player = 4, seed: int = 0) -> PettingZooAgent:
    """A PettingZoo agent playing c4's level ``player`` (0-4 or its name;
    perfect play by default) or the c4 agent ``player`` (a callable from a
    :class:`c4.Position` to a 1-based column)."""
    return PettingZooAgent(player, seed)
