"""Type stubs of the c4 package."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional, Union

from ._c4 import MoveReview as MoveReview
from ._c4 import PlayerSummary as PlayerSummary
from ._c4 import Position as Position
from ._c4 import Review as Review
from ._c4 import Solver as Solver
from ._c4 import __version__ as __version__
from .agents import LEVELS as LEVELS
from .agents import LevelAgent as LevelAgent
from .agents import level_agent as level_agent
from .evaluation import Evaluation as Evaluation
from .evaluation import evaluate as evaluate

PositionLike = Union[str, bytes, Position]

def solve(
    position: PositionLike,
    *,
    weak: bool = False,
    width: Optional[int] = None,
    height: Optional[int] = None,
) -> int:
    """The score of ``position`` for the side to move (``weak``: its sign)."""

def analyze(
    position: PositionLike, *, width: Optional[int] = None, height: Optional[int] = None
) -> list[Optional[int]]:
    """The score of each column, column 1 first; ``None`` for a full column."""

def best_move(
    position: PositionLike, *, width: Optional[int] = None, height: Optional[int] = None
) -> Optional[int]:
    """A best move (1-based column); ``None`` once the game is over."""

def pv(
    position: PositionLike, *, width: Optional[int] = None, height: Optional[int] = None
) -> list[int]:
    """A perfect-play line to the end of the game (1-based columns)."""

def review(
    game: Union[str, bytes, Position, Sequence[int]],
    *,
    weak: bool = False,
    width: Optional[int] = None,
    height: Optional[int] = None,
) -> Review:
    """The review of ``game`` move by move against perfect play."""
