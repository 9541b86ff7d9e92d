"""c4 in OpenSpiel's ``connect_four`` (``pyspiel``, PyPI package
``open_spiel``).

Conventions of the game, and how they map to c4:

* **Actions** are 0-based columns, left to right: action ``a`` is c4's
  column ``a + 1``.
* **States** keep the history of actions (``state.history()``), so
  :func:`to_position` replays it: the position has the game's own move
  order, and no grid has to be read.
* **Players:** player 0 moves first (``x`` in OpenSpiel's drawing, c4's
  player 1, ``X``), player 1 second (``o``, c4's player 2).
* **Sizes:** the game's parameters ``columns`` and ``rows`` (7 and 6 by
  default: ``pyspiel.load_game("connect_four", {"columns": 8, "rows": 5})``)
  and ``x_in_row`` (4). c4 plays four in a row on boards from 4x4 up:
  another ``x_in_row`` or a board c4 does not take is a ``ValueError``.

A game between c4's perfect bot and OpenSpiel's random bot::

    import pyspiel
    from c4.envs import openspiel

    game = pyspiel.load_game("connect_four")
    bots = [openspiel.bot(4), pyspiel.make_uniform_random_bot(1, 7)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    print(returns)    # [1.0, -1.0]: the first player won
"""

from __future__ import annotations

import functools
from typing import Any

from .._c4 import Position
from . import Player, action, resolve

__all__ = ["OpenSpielAgent", "agent", "bot", "to_position"]


def board_size(game: Any) -> tuple[int, int]:
    """The (columns, rows) of a ``connect_four`` game; ``ValueError`` for
    another game or another ``x_in_row``."""
    name = game.get_type().short_name
    if name != "connect_four":
        raise ValueError(f"c4 plays OpenSpiel's connect_four, not {name}")
    parameters = game.get_parameters()
    in_row = parameters.get("x_in_row", 4)
    if in_row != 4:
        raise ValueError(f"c4 plays four in a row, and this game asks for x_in_row={in_row}")
    return int(parameters.get("columns", 7)), int(parameters.get("rows", 6))


def to_position(state: Any) -> Position:
    """The :class:`c4.Position` of a ``connect_four`` state, its moves the
    state's history of actions (0-based columns)."""
    width, height = board_size(state.get_game())
    position = Position.from_bitbully(list(state.history()), width, height)
    if not state.is_terminal() and state.current_player() + 1 != position.side_to_move:
        raise ValueError(
            f"the state has player {state.current_player()} to move, but its history "
            f"gives c4's player {position.side_to_move}"
        )
    return position


class OpenSpielAgent:
    """A c4 agent in OpenSpiel's convention: ``agent(state)`` returns the
    0-based action of the player to move."""

    def __init__(self, player: Player = 4, seed: int = 0):
        self.agent = resolve(player, seed)

    def __call__(self, state: Any) -> int:
        return action(self.agent, to_position(state))

    def __repr__(self) -> str:
        return f"OpenSpielAgent({self.agent!r})"


def agent(player: Player = 4, seed: int = 0) -> OpenSpielAgent:
    """A function from a ``connect_four`` state to the 0-based action c4's
    level ``player`` (0-4 or its name; perfect play by default), or the c4
    agent ``player``, plays."""
    return OpenSpielAgent(player, seed)


@functools.lru_cache(maxsize=None)
def _bot_class() -> type:
    """The ``pyspiel.Bot`` subclass of :func:`bot` (pyspiel imported on
    first use)."""
    import pyspiel

    class C4Bot(pyspiel.Bot):
        """A ``pyspiel.Bot`` that plays as a c4 agent."""

        def __init__(self, agent: OpenSpielAgent):
            pyspiel.Bot.__init__(self)
            self.agent = agent

        def step(self, state: Any) -> int:
            return self.agent(state)

        def restart_at(self, state: Any) -> None:
            pass

        def provides_policy(self) -> bool:
            return False

        def __repr__(self) -> str:
            return f"C4Bot({self.agent.agent!r})"

    return C4Bot


def bot(player: Player = 4, seed: int = 0) -> Any:
    """A ``pyspiel.Bot`` for ``connect_four`` (``pyspiel.evaluate_bots``
    and OpenSpiel's other bot drivers take it) that plays c4's level
    ``player`` (perfect play by default) or the c4 agent ``player``."""
    return _bot_class()(agent(player, seed))
