"""Type stubs of c4's compiled module (re-exported by the c4 package)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, Optional, Union

__version__: str

PositionLike = Union[str, bytes, "Position"]

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
