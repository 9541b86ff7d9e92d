"""The upper tree of a distributed solve: the positions the driver expands
itself above the frontier, in the order it tries them, with the scores it
knows without a search, and the interval arithmetic that turns bounds of
the frontier's positions into bounds of the root (the proof that
``verify`` checks).

Scores are c4's: for the side to move, positive for a win (its stones left
when it connects four, plus one), negative for a loss, 0 for a draw. A
position's value is the best over its children of minus the child's.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from .._c4 import Position

Interval = Tuple[int, int]


def score_range(position: Position) -> Interval:
    """The lowest and highest score a position of this many stones can
    have (c4's ``score_range``)."""
    cells = position.width * position.height
    moves = position.moves_played
    return -((cells - moves) // 2), (cells + 1 - moves) // 2


def known_score(position: Position) -> Optional[int]:
    """The score of ``position`` when no search is needed: a game already
    over, a win with the next stone, or a board with one cell left that no
    stone wins on; else None."""
    cells = position.width * position.height
    moves = position.moves_played
    if position.is_won():
        return -((cells + 2 - moves) // 2)
    if position.is_full():
        return 0
    if position.can_win_next():
        return (cells + 1 - moves) // 2
    if moves == cells - 1:
        return 0
    return None


def column_order(width: int) -> List[int]:
    """The 1-based columns, centre first: the driver's move order."""
    return sorted(range(1, width + 1), key=lambda c: (abs(2 * c - (width + 1)), c))


def children(position: Position) -> List[Position]:
    """The positions after each legal move, centre first, one of each pair
    of mirror images (a child that is another's mirror has its score). Not
    called on a position whose score is known."""
    out: List[Position] = []
    seen = set()
    for column in column_order(position.width):
        if not position.can_play(column):
            continue
        child = position.play(column)
        mirror = child.mirrored()
        if child in seen or mirror in seen:
            continue
        seen.add(child)
        out.append(child)
    return out


def combine(children_intervals: List[Interval]) -> Interval:
    """The interval of a position from its children's: the best move's value
    is at least the best of the children's lowest and at most the best of
    their highest (negamax)."""
    return (
        max(-high for _, high in children_intervals),
        max(-low for low, _ in children_intervals),
    )


def narrow(interval: Interval, alpha: int, beta: int, value: int) -> Interval:
    """``interval`` narrowed by what a fail-soft search of the window
    ``(alpha, beta)`` that returned ``value`` proves: at most ``value`` if
    it is at most ``alpha``, at least ``value`` if it is at least ``beta``,
    exactly ``value`` in between."""
    low, high = interval
    if value <= alpha:
        return low, min(high, value)
    if value >= beta:
        return max(low, value), high
    return max(low, value), min(high, value)


def answer(interval: Interval, alpha: int, beta: int) -> Optional[int]:
    """The fail-soft value in ``(alpha, beta)`` that a known ``interval``
    holding the score gives without a search, or None if it does not
    decide the window."""
    low, high = interval
    if high <= alpha:
        return high
    if low >= beta:
        return low
    if low == high:
        return low
    return None


def proven_interval(
    root: Position,
    depth: int,
    frontier: Callable[[Position], Interval],
    memo: Optional[Dict[Position, Interval]] = None,
) -> Interval:
    """The interval of ``root``'s score that the frontier's bounds prove:
    the upper tree to ``depth`` stones below the root is expanded as the
    driver expands it (mirror images merged), every position whose score
    is known counts as exact, and every frontier position has the interval
    ``frontier(position)`` gives."""
    memo = {} if memo is None else memo

    def interval(position: Position, ply: int) -> Interval:
        key = position if position in memo else position.mirrored()
        if key in memo:
            return memo[key]
        known = known_score(position)
        if known is not None:
            found = (known, known)
        elif ply >= depth:
            found = frontier(position)
        else:
            found = combine([interval(child, ply + 1) for child in children(position)])
        memo[position] = found
        return found

    return interval(root, 0)
