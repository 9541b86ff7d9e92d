"""Type stubs of c4's compiled module (re-exported by the c4 package)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, Optional, Union

__version__: str

PositionLike = Union[str, bytes, "Position"]
GameLike = Union[str, bytes, Sequence[int]]
Verdict = Literal["best", "slower", "mistake", "blunder"]
Outcome = Literal["first", "draw", "second"]

class Position:
    """A Connect Four position on a board of any supported size.

    Columns are 1-based everywhere (``"4453"``; ``a``, ``b``, ... past 9 in
    move strings). Immutable and hashable; equal when the stones are. Grids
    are rows by columns, **top row first**: 0 empty, 1 first player, 2
    second player.
    """

    def __init__(self, moves: str = "", width: int = 7, height: int = 6) -> None:
        """The position after ``moves`` (1-based columns) on a ``width`` x
        ``height`` board; ``ValueError`` names the character at fault."""
    @staticmethod
    def from_pons(moves: str, width: int = 7, height: int = 6) -> Position:
        """The position after Pons's move string (1-based columns)."""
    @staticmethod
    def from_bitbully(
        moves: Union[str, Sequence[int]], width: int = 7, height: int = 6
    ) -> Position:
        """The position after BitBully's moves (0-based columns: ``"3342"``
        or ``[3, 3, 4, 2]`` is ``Position("4453")``)."""
    @staticmethod
    def from_rows(rows: Sequence[Sequence[int]]) -> Position:
        """The position of a grid, top row first (0 / 1 / 2); its size is the
        board's."""
    @staticmethod
    def from_numpy(array: Any) -> Position:
        """The position of a 2-D array (rows by columns, top row first).
        Needs NumPy."""
    def rows(self) -> list[list[int]]:
        """The cells as rows, top row first: 0 empty, 1 first, 2 second player."""
    def to_numpy(self) -> Any:
        """The cells as an ``int8`` NumPy array of shape (height, width), top
        row first. Needs NumPy."""
    @property
    def width(self) -> int:
        """Number of columns."""
    @property
    def height(self) -> int:
        """Number of rows."""
    @property
    def moves(self) -> str:
        """The moves that reached this position, as a move string (1-based)."""
    @property
    def move_list(self) -> list[int]:
        """The moves as 1-based columns."""
    @property
    def moves_played(self) -> int:
        """Number of stones on the board."""
    @property
    def side_to_move(self) -> Literal[1, 2]:
        """1 (first player, X) or 2 (second player, O)."""
    def can_play(self, column: int) -> bool:
        """Whether 1-based ``column`` exists and has room."""
    def legal_moves(self) -> list[int]:
        """The 1-based columns that may be played; none once the game is over."""
    def play(self, move: Union[int, str]) -> Position:
        """The position after a 1-based column or a move string; ``ValueError``
        if it cannot be played."""
    def is_winning_move(self, column: int) -> bool:
        """Whether playing 1-based ``column`` connects four for the side to move."""
    def can_win_next(self) -> bool:
        """Whether the side to move can connect four with its next move."""
    def is_won(self) -> bool:
        """Whether the last move connected four."""
    def is_full(self) -> bool:
        """Whether every cell is filled."""
    def is_game_over(self) -> bool:
        """Whether the last move won or the board is full."""
    def winner(self) -> Optional[Literal[1, 2]]:
        """The player who connected four, or ``None``."""
    def mirrored(self) -> Position:
        """This position with the columns reversed."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

class Solver:
    """A Connect Four solver for one board size; keeps its table between
    calls, uses the built-in opening book by default, releases the GIL while
    searching and stops on Ctrl-C. One call at a time: one solver per thread.

    Scores are for the side to move: positive when it wins (its stones left
    when it connects four, plus one), negative when it loses, 0 for a draw.
    """

    def __init__(
        self,
        width: int = 7,
        height: int = 6,
        *,
        table: Union[int, str, None] = None,
        book: Union[None, Literal["builtin"], str, os.PathLike[str]] = "builtin",
        threads: int = 1,
    ) -> None:
        """``table``: bytes or ``"64M"`` (default 64 MiB); ``book``:
        ``"builtin"``, ``None`` or a book file; ``threads``: threads searching
        each position (0: every core). ``MemoryError`` before allocating if
        the table does not fit."""
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def table_bytes(self) -> int:
        """Bytes of the transposition table."""
    @property
    def threads(self) -> int:
        """Threads searching each position."""
    @property
    def has_book(self) -> bool:
        """Whether an opening book is in use."""
    @property
    def node_count(self) -> int:
        """Nodes searched since creation or :meth:`reset_node_count`."""
    def reset_node_count(self) -> None: ...
    def clear(self) -> None:
        """Forget what the tables learnt (instant)."""
    def solve(self, position: PositionLike, *, weak: bool = False) -> int:
        """The score of ``position``; ``weak=True``: 1 win, 0 draw, -1 loss."""
    def analyze(self, position: PositionLike) -> list[Optional[int]]:
        """The score of each column, column 1 first; ``None`` if full."""
    def best_move(self, position: PositionLike) -> Optional[int]:
        """A best 1-based column, centre-most among equals; ``None`` if over."""
    def pv(self, position: PositionLike) -> list[int]:
        """A perfect-play line to the end of the game (1-based columns)."""
    def solve_many(
        self,
        positions: Iterable[PositionLike],
        *,
        weak: bool = False,
        threads: int = 1,
        clear: bool = False,
    ) -> list[int]:
        """The scores of ``positions`` in input order; ``threads`` positions
        at once, one engine each; ``clear`` forgets the table before each."""
    def review(
        self, game: Union[GameLike, Position], *, weak: bool = False
    ) -> Review:
        """The review of ``game`` move by move against perfect play;
        ``ValueError`` names the move that does not replay."""
    def review_many(
        self,
        games: Iterable[Union[GameLike, Position]],
        *,
        weak: bool = False,
        threads: int = 1,
    ) -> list[Review]:
        """The reviews of ``games`` in input order; ``threads`` games at
        once, one engine each."""

class LevelPlayer:
    """A player of one of c4's levels (0 beginner to 4 perfect), seeded."""

    def __init__(self, level: int, seed: int = 0) -> None: ...
    @property
    def level(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @staticmethod
    def levels() -> list[tuple[int, str, str]]:
        """Every level as ``(number, name, description)``, weakest first."""
    def choose(
        self, position: Position, scores: Callable[[], list[Optional[int]]]
    ) -> tuple[int, bool]:
        """The 1-based column the level plays, and whether its mistake roll
        fired; ``scores()`` is called at most once, when the level needs it."""

class MoveReview:
    """One move of a reviewed game (1-based numbers and columns); scores for
    the mover, from the position before the move."""

    @property
    def number(self) -> int:
        """The move's number in the game, from 1."""
    @property
    def player(self) -> int:
        """1 for the first player (X), 2 for the second (O)."""
    @property
    def column(self) -> int:
        """The column played, from 1."""
    @property
    def best_score(self) -> int:
        """The best score the mover had (a sign when weak)."""
    @property
    def played_score(self) -> int:
        """The score of the move played, for the mover."""
    @property
    def best_columns(self) -> list[int]:
        """Every column with the best score, left to right."""
    @property
    def verdict(self) -> Verdict:
        """``"best"``, ``"slower"``, ``"mistake"`` or ``"blunder"``."""

class PlayerSummary:
    """One player's moves in a reviewed game, added up."""

    @property
    def player(self) -> int:
        """1 for the first player (X), 2 for the second (O)."""
    @property
    def moves(self) -> int:
        """Moves played."""
    @property
    def best(self) -> int:
        """Moves judged ``"best"``."""
    @property
    def slower(self) -> int:
        """Moves judged ``"slower"``."""
    @property
    def mistakes(self) -> int:
        """Moves judged ``"mistake"``."""
    @property
    def blunders(self) -> int:
        """Moves judged ``"blunder"``."""
    @property
    def share_best(self) -> Optional[float]:
        """``best / moves``; ``None`` if the player has not moved."""
    @property
    def result_changed(self) -> Optional[int]:
        """The player's first move that changed the result, or ``None``."""

class Review:
    """A game judged move by move against perfect play."""

    @property
    def width(self) -> int:
        """Number of columns."""
    @property
    def height(self) -> int:
        """Number of rows."""
    @property
    def game(self) -> str:
        """The game, as a move string."""
    @property
    def weak(self) -> bool:
        """Whether scores are signs only (win, draw, loss)."""
    @property
    def moves(self) -> tuple[MoveReview, ...]:
        """One record per move, in order."""
    @property
    def players(self) -> tuple[PlayerSummary, PlayerSummary]:
        """The first player's summary, then the second's."""
    @property
    def start(self) -> Outcome:
        """Who wins the empty board with perfect play."""
    @property
    def end(self) -> Outcome:
        """Who wins after the last move with perfect play (who won, once over)."""
    @property
    def finished(self) -> bool:
        """Whether the game is over."""
    @property
    def turning_point(self) -> Optional[int]:
        """The last move that changed the result, or ``None``."""
    def to_json(self) -> str:
        """The review as one JSON object, as ``c4 review --json`` writes it."""

def solve_window(solver: Solver, position: PositionLike, alpha: int, beta: int) -> tuple[int, int]:
    """The value of ``position`` in the window ``(alpha, beta)`` and the
    nodes it took (fail-soft: at most ``alpha`` an upper bound, at least
    ``beta`` a lower bound, in between the exact score); ``c4.cluster``'s
    task."""

def symmetric_key(solver: Solver, position: PositionLike) -> str:
    """The key a position shares with its mirror image, 32 hex digits."""

def seed_bounds(solver: Solver, position: PositionLike, lower: int, upper: int) -> None:
    """Seeds ``solver``'s tables with ``lower <= score <= upper`` for
    ``position``, proved elsewhere (a wrong bound gives a wrong score);
    ``c4.cluster.seed`` reads them from a store."""
