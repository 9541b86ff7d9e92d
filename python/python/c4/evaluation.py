"""``c4.evaluate``: an agent graded against one of c4's levels, as first
and as second player, with every move of the agent judged against perfect
play.

The agent is any callable from a :class:`c4.Position` (a game not over) to
the 1-based column it plays (see :mod:`c4.agents`). Each of its moves gets
the verdict ``c4 review`` gives, from the exact scores of the position
before it (``Solver.analyze``), both for the side that moved:

* *best*: the move's score is the best score;
* *slower*: the same result (win, draw or loss), won later or lost sooner;
* *mistake*: a win becomes a draw, or a draw a loss;
* *blunder*: a win becomes a loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Union

from ._c4 import Position, Solver
from .agents import LEVELS, LevelAgent, _check_seed, level_number

__all__ = ["Evaluation", "GameRecord", "Record", "evaluate", "verdict"]

VERDICTS = ("best", "slower", "mistake", "blunder")

_MASK = (1 << 64) - 1


def verdict(best: int, played: int) -> str:
    """The verdict of a move whose score is ``played`` where the best score
    is ``best`` (both for the side that moved)."""
    if played > best:
        raise ValueError(f"the played score {played} is above the best score {best}")
    if played == best:
        return "best"
    sign = (best > 0) - (best < 0)
    if (played > 0) - (played < 0) == sign:
        return "slower"
    if best > 0 and played < 0:
        return "blunder"
    return "mistake"


def game_seed(seed: int, game: int) -> int:
    """The seed of the opponent in game ``game`` (0-based): output
    ``game + 1`` of SplitMix64 seeded with ``seed``, so that each game draws
    its own moves whatever the other games did."""
    z = (seed + (game + 1) * 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


@dataclass(frozen=True)
class Record:
    """Wins, draws and losses of the agent in a set of games."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """How many games."""
        return self.wins + self.draws + self.losses

    def __str__(self) -> str:
        return f"{self.wins} won, {self.draws} drawn, {self.losses} lost"


@dataclass(frozen=True)
class GameRecord:
    """One game of an evaluation."""

    moves: str
    """The game's move string (1-based columns)."""
    agent_player: int
    """1 when the agent played first, 2 when second."""
    result: str
    """``"win"``, ``"draw"`` or ``"loss"``, for the agent."""
    verdicts: tuple[str, ...]
    """The verdict of each of the agent's moves, in order."""
    opponent_seed: int
    """The seed of the opponent's generator in this game."""

    def count(self, verdict: str) -> int:
        """How many of the agent's moves got ``verdict``."""
        return self.verdicts.count(verdict)


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` found: the results by side, and the verdicts
    of the agent's moves."""

    opponent: int
    """The opponent's level, 0 to 4."""
    seed: int
    width: int
    height: int
    as_first: Record
    """The games the agent began."""
    as_second: Record
    """The games the opponent began."""
    moves: int
    """How many moves the agent played."""
    best: int
    slower: int
    mistakes: int
    blunders: int
    game_records: tuple[GameRecord, ...]
    """Every game, in the order played (the agent first in even ones)."""

    @property
    def games(self) -> int:
        return self.as_first.games + self.as_second.games

    @property
    def wins(self) -> int:
        return self.as_first.wins + self.as_second.wins

    @property
    def draws(self) -> int:
        return self.as_first.draws + self.as_second.draws

    @property
    def losses(self) -> int:
        return self.as_first.losses + self.as_second.losses

    @property
    def best_share(self) -> float:
        """The share of the agent's moves that were best, 0 to 1."""
        return self.best / self.moves if self.moves else 1.0

    @property
    def mistakes_per_game(self) -> float:
        return self.mistakes / self.games

    @property
    def blunders_per_game(self) -> float:
        return self.blunders / self.games

    def __repr__(self) -> str:
        level = f"{self.opponent} ({LEVELS[self.opponent][1]})"
        return (
            f"<Evaluation: {self.games} games on {self.width}x{self.height} against level {level},"
            f" seed {self.seed}: {self.wins} won, {self.draws} drawn, {self.losses} lost"
            f" (as first: {self.as_first}; as second: {self.as_second});"
            f" best moves {100 * self.best_share:.1f}% of {self.moves},"
            f" {self.mistakes_per_game:.2f} mistakes and {self.blunders_per_game:.2f} blunders a game>"
        )


def _tally(results: list[str]) -> Record:
    return Record(results.count("win"), results.count("draw"), results.count("loss"))


def _column(agent_move: object, position: Position, where: str) -> int:
    """The agent's move as a legal 1-based column, or a clear error."""
    if isinstance(agent_move, bool) or not hasattr(agent_move, "__index__"):
        raise TypeError(f"{where}: the agent returned {agent_move!r}, not a column number")
    column = agent_move.__index__()
    if not position.can_play(column):
        legal = ", ".join(map(str, position.legal_moves()))
        raise ValueError(f"{where}: the agent played column {column}, which is not legal (legal: {legal})")
    return column


def evaluate(
    agent: Callable[[Position], int],
    games: int = 100,
    opponent: Union[int, str] = 3,
    seed: int = 0,
    *,
    width: int = 7,
    height: int = 6,
    solver: Optional[Solver] = None,
) -> Evaluation:
    """Plays ``agent`` against c4's level ``opponent`` (0 beginner to 4
    perfect, or its name) for ``games`` games, half as first player (the
    even-numbered games, from 0) and half as second, on a ``width`` x
    ``height`` board, and judges every move of the agent against perfect
    play.

    The opponent of game ``i`` draws its random choices from its own seed,
    :func:`game_seed` of ``seed`` and ``i``, so the same seed gives the same
    games to an agent that plays the same moves in the same positions (an
    agent with randomness of its own must seed it itself). ``solver``
    (by default a new one for the board, with the built-in 7x6 book) scores
    the positions and plays the opponent.

    Raises ``ValueError`` for a number of games that is not even and
    positive, an unknown level, a seed out of range, a board c4 does not
    take, or an agent's move that is not legal (naming the game and the
    move); ``TypeError`` for arguments of the wrong kind.
    """
    if not callable(agent):
        raise TypeError(f"the agent is a callable from a c4.Position to a column, not {agent!r}")
    if isinstance(games, bool) or not hasattr(games, "__index__"):
        raise TypeError(f"games is a number of games, not {games!r}")
    games = games.__index__()
    if games < 2 or games % 2:
        raise ValueError(
            f"games is an even number from 2 up (half as first player, half as second), not {games}"
        )
    level = level_number(opponent)
    seed = _check_seed(seed)
    if solver is None:
        solver = Solver(width, height)
    elif (solver.width, solver.height) != (width, height):
        raise ValueError(
            f"the solver is for {solver.width}x{solver.height}, the games for {width}x{height}"
        )
    empty = Position("", width, height)

    records = []
    for game in range(games):
        agent_player = 1 if game % 2 == 0 else 2
        opponent_seed = game_seed(seed, game)
        rival = LevelAgent(level, opponent_seed, solver)
        position = empty
        verdicts = []
        while not position.is_game_over():
            if position.side_to_move == agent_player:
                where = f"game {game} (the agent {'first' if agent_player == 1 else 'second'}), move {position.moves_played + 1}"
                column = _column(agent(position), position, where)
                scores = solver.analyze(position)
                best = max(s for s in scores if s is not None)
                verdicts.append(verdict(best, scores[column - 1]))
            else:
                column = rival(position)
            position = position.play(column)
        winner = position.winner()
        result = "draw" if winner is None else "win" if winner == agent_player else "loss"
        records.append(GameRecord(position.moves, agent_player, result, tuple(verdicts), opponent_seed))

    all_verdicts = [v for r in records for v in r.verdicts]
    return Evaluation(
        opponent=level,
        seed=seed,
        width=width,
        height=height,
        as_first=_tally([r.result for r in records if r.agent_player == 1]),
        as_second=_tally([r.result for r in records if r.agent_player == 2]),
        moves=len(all_verdicts),
        best=all_verdicts.count("best"),
        slower=all_verdicts.count("slower"),
        mistakes=all_verdicts.count("mistake"),
        blunders=all_verdicts.count("blunder"),
        game_records=tuple(records),
    )
