"""An exhaustive minimax of Connect Four on small boards, written here from
the rules alone: the tests' witness that shares no code with c4.

A board is a tuple of columns, each a tuple of players (1 or 2) bottom
first. The score is Pascal Pons's: for the side to move, (cells + 1 -
moves) // 2 after it connects four with move number ``moves``, minus that
for a loss, 0 for a draw.
"""

from __future__ import annotations

from functools import lru_cache

Board = tuple[tuple[int, ...], ...]


def replay(moves: str, width: int, height: int) -> Board:
    """The board after a move string of 1-based columns (no checks)."""
    columns: list[list[int]] = [[] for _ in range(width)]
    for index, ch in enumerate(moves):
        columns[int(ch) - 1].append(1 + index % 2)
    return tuple(tuple(c) for c in columns)


def _cell(board: Board, col: int, row: int) -> int:
    if 0 <= col < len(board) and 0 <= row < len(board[col]):
        return board[col][row]
    return 0


def wins(board: Board, col: int, player: int, height: int) -> bool:
    """Whether ``player`` dropping a stone in ``col`` connects four."""
    row = len(board[col])
    if row >= height:
        return False
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while _cell(board, c, r) == player:
                count += 1
                c, r = c + sign * dc, r + sign * dr
        if count >= 4:
            return True
    return False


def won(board: Board) -> bool:
    """Whether some player has four in a row."""
    for col, column in enumerate(board):
        for row, player in enumerate(column):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(_cell(board, col + k * dc, row + k * dr) == player for k in range(4)):
                    return True
    return False


def score(board: Board, height: int) -> int:
    """The exact score for the side to move (the game not over)."""
    return _search(board, height)


@lru_cache(maxsize=None)
def _search(board: Board, height: int) -> int:
    """`score`, remembered: positions recur across the tests' calls."""
    cells = len(board) * height
    moves = sum(len(c) for c in board)
    player = 1 + moves % 2
    playable = [col for col in range(len(board)) if len(board[col]) < height]
    for col in playable:
        if wins(board, col, player, height):
            return (cells + 1 - moves) // 2
    if moves + 1 == cells:
        return 0  # the last stone, not a win: a draw
    best = -cells
    for col in playable:
        child = board[:col] + (board[col] + (player,),) + board[col + 1 :]
        best = max(best, -_search(child, height))
    return best
