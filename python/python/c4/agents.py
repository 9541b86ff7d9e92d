"""Agents that play c4's levels: callables from a :class:`c4.Position` to a
1-based column.

An *agent* here is any callable that takes a :class:`c4.Position` (a game
not over) and returns the 1-based column it plays. :func:`level_agent`
makes one that plays as ``c4 play --level N`` does, from 0 (beginner) to 4
(perfect), its random choices drawn from a seeded generator (the library's,
so a level and a seed give the same moves in Python as in the library).
The adapters of :mod:`c4.envs` wrap such an agent in each environment's
calling convention; :func:`c4.evaluate` grades one against a level.

>>> import c4
>>> perfect = c4.level_agent(4)
>>> perfect(c4.Position("44533"))
4
"""

from __future__ import annotations

from typing import Callable, Union

from ._c4 import LevelPlayer, Position, Solver

__all__ = ["Agent", "LEVELS", "LevelAgent", "level_agent", "level_number"]

#: An agent: a callable from a position (a game not over) to a 1-based column.
Agent = Callable[[Position], int]

#: c4's levels as ``(number, name, description)``, weakest first.
LEVELS: tuple[tuple[int, str, str], ...] = tuple(LevelPlayer.levels())

_NAMES = {name: number for number, name, _ in LEVELS}


def level_number(level: Union[int, str]) -> int:
    """The number (0 to 4) of a level given by number or by name
    (``"beginner"``, ``"novice"``, ``"intermediate"``, ``"strong"``,
    ``"perfect"``); ``ValueError`` for any other value."""
    if isinstance(level, bool):
        raise TypeError(f"a level is a number 0-4 or a name, not {level!r}")
    if isinstance(level, str):
        try:
            return _NAMES[level.strip().lower()]
        except KeyError:
            names = ", ".join(_NAMES)
            raise ValueError(f"there is no level {level!r}: the levels are {names} (0 to 4)") from None
    if not hasattr(level, "__index__"):
        raise TypeError(f"a level is a number 0-4 or a name, not {level!r}")
    number = level.__index__()  # any integer, NumPy's too
    if not 0 <= number < len(LEVELS):
        raise ValueError(f"there is no level {level!r}: levels run from 0 (beginner) to 4 (perfect)")
    return number


class LevelAgent:
    """An agent that plays one of c4's levels.

    ``agent(position)`` returns the 1-based column the level plays; the
    generator of its random choices is seeded with ``seed`` and goes on from
    move to move (make a new agent, or call :meth:`reseed`, to replay a
    game). Level 4 plays the best score, the most central column among
    equals (``c4.best_move``); levels 1 to 3 need every column's score,
    which ``solver`` gives (by default one solver a board size, with the
    built-in 7x6 book and a 64 MiB table, made when first needed).
    """

    def __init__(self, level: Union[int, str] = 4, seed: int = 0, solver: Solver | None = None):
        self._level = level_number(level)
        self._seed = _check_seed(seed)
        self._player = LevelPlayer(self._level, self._seed)
        self._solver = solver
        self._solvers: dict[tuple[int, int], Solver] = {}
        self.mistakes = 0
        """How many of its moves the level's mistake roll chose."""

    @property
    def level(self) -> int:
        """The level's number, 0 to 4."""
        return self._level

    @property
    def name(self) -> str:
        """The level's name."""
        return LEVELS[self._level][1]

    def reseed(self, seed: int) -> None:
        """Starts the generator again from ``seed``."""
        self._seed = _check_seed(seed)
        self._player = LevelPlayer(self._level, self._seed)

    def solver(self, width: int, height: int) -> Solver:
        """The solver this agent uses on a ``width`` x ``height`` board."""
        if self._solver is not None:
            if (self._solver.width, self._solver.height) != (width, height):
                raise ValueError(
                    f"this agent's solver is for {self._solver.width}x{self._solver.height},"
                    f" not {width}x{height}"
                )
            return self._solver
        solver = self._solvers.get((width, height))
        if solver is None:
            solver = self._solvers[(width, height)] = Solver(width, height)
        return solver

    def __call__(self, position: Position) -> int:
        if not isinstance(position, Position):
            raise TypeError(f"an agent takes a c4.Position, not {type(position).__name__}")
        # The solver is made (and asked) only when the level needs scores.
        scores = lambda: self.solver(position.width, position.height).analyze(position)  # noqa: E731
        column, mistake = self._player.choose(position, scores)
        self.mistakes += mistake
        return column

    def __repr__(self) -> str:
        return f"LevelAgent(level={self._level} ({self.name}), seed={self._seed})"


def level_agent(level: Union[int, str] = 4, seed: int = 0, solver: Solver | None = None) -> LevelAgent:
    """An agent playing c4's level ``level`` (0-4 or its name; 4, perfect
    play, by default), its random choices seeded with ``seed``."""
    return LevelAgent(level, seed, solver)


def _check_seed(seed: int) -> int:
    """``seed`` if it is an integer from 0 to 2**64 - 1; else a clear error."""
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise TypeError(f"a seed is an integer, not {seed!r}")
    seed = seed.__index__()
    if not 0 <= seed < 2**64:
        raise ValueError(f"a seed is an integer from 0 to 2**64 - 1, not {seed}")
    return seed
