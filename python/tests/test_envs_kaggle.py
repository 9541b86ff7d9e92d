"""c4 in Kaggle's ConnectX: the observation read as a c4.Position (a flat
board, top row first, columns 0-based, mark 1 first), and whole episodes
run by kaggle_environments on 7x6 and on the other sizes c4 takes, four in
a row."""

from __future__ import annotations

import pytest
from envs_common import require, verdicts
from minimax import replay, score

import c4
from c4.envs import kaggle

kaggle_environments = require("kaggle_environments", "kaggle-environments")

#: c4's character of each 0-based column.
COLUMNS = "123456789abcdefghijklmnop"


def run(agents, **configuration):
    """Runs one ConnectX episode and returns the c4 move string of its
    actions, the two rewards and the environment. Actions are read from the
    steps the environment recorded (the active agent's action each step)."""
    env = kaggle_environments.make("connectx", configuration=configuration, debug=True)
    steps = env.run(agents)
    actions = []
    for before, after in zip(steps, steps[1:]):
        active = [i for i, agent in enumerate(before) if agent["status"] == "ACTIVE"]
        assert len(active) == 1
        actions.append(after[active[0]]["action"])
    for agent in steps[-1]:
        assert agent["status"] == "DONE", agent["status"]
    moves = "".join(COLUMNS[a] for a in actions)
    return moves, [agent["reward"] for agent in steps[-1]], env


class Recorder:
    """A ConnectX agent that remembers the position c4 reads from each of
    its observations, then plays like ``inner``."""

    def __init__(self, inner):
        self.inner = inner
        self.seen = []

    def __call__(self, observation, configuration):
        self.seen.append((observation["step"], kaggle.to_position(observation, configuration)))
        return self.inner(observation, configuration)


def test_each_observation_is_the_position_of_the_actions_so_far() -> None:
    for columns, rows in [(7, 6), (5, 4), (8, 7)]:
        first, second = Recorder(kaggle.agent(0, seed=1)), Recorder(kaggle.agent(0, seed=2))
        moves, _, _ = run([first, second], columns=columns, rows=rows)
        assert len(first.seen) + len(second.seen) == len(moves)
        for step, position in first.seen + second.seen:
            assert position == c4.Position(moves[:step], columns, rows), (moves, step)
            assert position.side_to_move == 1 + step % 2


def test_the_board_is_read_row_major_top_row_first() -> None:
    # Mark 1 in column 1 (action 0), mark 2 in column 7: the bottom row is
    # the last `columns` cells.
    board = [0] * 42
    board[35], board[41] = 1, 2
    position = kaggle.to_position({"board": board, "mark": 1}, {"columns": 7, "rows": 6, "inarow": 4})
    assert position == c4.Position("17")
    board = [0] * 20  # 5 columns, 4 rows
    board[15], board[10] = 1, 2
    assert kaggle.to_position({"board": board, "mark": 1}, {"columns": 5, "rows": 4}) == c4.Position("11", 5, 4)


@pytest.mark.parametrize("opponent", ["random", "negamax", 1, 3])
def test_the_perfect_agent_first_wins_on_7x6_with_only_best_moves(opponent) -> None:
    second = opponent if isinstance(opponent, str) else kaggle.agent(opponent, seed=9)
    moves, rewards, _ = run([kaggle.agent(4), second])
    assert rewards == [1, -1], moves
    assert c4.Position(moves).winner() == 1
    assert set(verdicts(moves, 1)) == {"best"}, moves


@pytest.mark.parametrize("columns, rows", [(4, 4), (5, 4), (4, 5), (6, 5), (7, 4)])
def test_the_perfect_agent_keeps_perfect_play_s_result_on_other_sizes(columns, rows) -> None:
    # The first player's result is at least perfect play's (the sign of the
    # empty board's score), against a random opponent and against the
    # perfect agent itself (exactly perfect play's), and each of its moves is
    # best. On the smallest boards the tests' own minimax is the witness of
    # both the result and the moves.
    outcome = (c4.solve("", width=columns, height=rows) > 0) - (c4.solve("", width=columns, height=rows) < 0)
    for second in ["random", kaggle.agent(4)]:
        moves, rewards, _ = run([kaggle.agent(4), second], columns=columns, rows=rows)
        assert rewards[0] >= outcome, moves
        if second != "random":
            assert rewards[0] == outcome, moves
        assert set(verdicts(moves, 1, columns, rows)) == {"best"}, moves
        if columns * rows <= 20:
            assert outcome == 0  # Tromp: 4x4, 5x4 and 4x5 are draws
            # The tests' minimax takes seconds from the empty 4x4 board, too
            # long from the first moves of larger ones.
            for k in range(0 if columns * rows == 16 else 8, len(moves), 2):
                board = replay(moves[:k], columns, rows)
                children = [moves[:k] + str(c) for c in range(1, columns + 1) if len(board[c - 1]) < rows]
                best = max(_child_value(m, columns, rows) for m in children)
                assert _child_value(moves[: k + 1], columns, rows) == best, (moves, k)


def _child_value(moves: str, width: int, height: int) -> int:
    """The minimax score, for the player who played its last move, of the
    position after ``moves``."""
    from minimax import won

    board = replay(moves, width, height)
    stones = len(moves)
    if won(board):
        return (width * height + 1 - (stones - 1)) // 2
    if stones == width * height:
        return 0
    return -score(board, height)


def test_the_perfect_agent_second_plays_only_best_moves() -> None:
    for first in ["random", kaggle.agent(2, seed=4)]:
        moves, rewards, _ = run([first, kaggle.agent(4)])
        assert set(verdicts(moves, 2)) == {"best"}, moves
        assert rewards[1] == {1: -1, 2: 1, None: 0}[c4.Position(moves).winner()]


def test_other_rules_and_sizes_are_clear_errors() -> None:
    empty = {"board": [0] * 42, "mark": 1}
    with pytest.raises(ValueError, match="four in a row.*inarow=5"):
        kaggle.to_position(empty, {"columns": 7, "rows": 6, "inarow": 5})
    with pytest.raises(ValueError, match="has 42 cells, not 41"):
        kaggle.to_position({"board": [0] * 41, "mark": 1})
    with pytest.raises(ValueError):  # a board c4 does not take
        kaggle.to_position({"board": [0] * 9, "mark": 1}, {"columns": 3, "rows": 3, "inarow": 4})
    with pytest.raises(ValueError, match="cell 3 .* holds 7"):
        kaggle.to_position({"board": [0, 0, 0, 7] + [0] * 38, "mark": 1})
    with pytest.raises(ValueError, match="mark is 2, but the board has player 1 to move"):
        kaggle.to_position({"board": [0] * 42, "mark": 2})
    # In the environment, the agent's error is the episode's: the first
    # agent fails on a board of three in a row.
    env = kaggle_environments.make("connectx", configuration={"inarow": 3}, debug=False)
    steps = env.run([kaggle.agent(4), "random"])
    assert steps[-1][0]["status"] == "ERROR"


def test_the_module_examples_run() -> None:
    # The docstring's example: perfect play against the built-in negamax.
    env = kaggle_environments.make("connectx")
    steps = env.run([kaggle.agent(4), "negamax"])
    assert steps[-1][0].reward == 1
