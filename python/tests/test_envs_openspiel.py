"""c4 in OpenSpiel's connect_four: the state read as a c4.Position from
its history of actions (0-based columns, player 0 first), checked against
OpenSpiel's own drawing of the board, and whole games of c4's bot, in
OpenSpiel's own driver (pyspiel.evaluate_bots) and step by step."""

from __future__ import annotations

import random

import pytest
from envs_common import require, verdicts

import c4
from c4.envs import openspiel

pyspiel = require("pyspiel", "open_spiel")


def drawn_rows(state) -> list[list[int]]:
    """The grid of OpenSpiel's drawing of a connect_four state (``x`` the
    first player, ``o`` the second, top row first), as c4's rows()."""
    cells = {".": 0, "x": 1, "o": 2}
    return [[cells[ch] for ch in line] for line in str(state).split()]


def play(game, bots, seed: int = 0):
    """Plays a game of ``bots`` (index = OpenSpiel player) step by step and
    returns the final state; checks c4's reading of every state on the way."""
    state = game.new_initial_state()
    while not state.is_terminal():
        position = openspiel.to_position(state)
        assert position.rows() == drawn_rows(state)
        assert position.side_to_move == state.current_player() + 1
        state.apply_action(bots[state.current_player()].step(state))
    assert openspiel.to_position(state).rows() == drawn_rows(state)
    return state


class RandomBot(pyspiel.Bot):
    """A uniformly random legal bot of our own, seeded."""

    def __init__(self, seed: int):
        pyspiel.Bot.__init__(self)
        self.rng = random.Random(seed)

    def step(self, state):
        return self.rng.choice(state.legal_actions())

    def restart_at(self, state):
        pass


def moves_of(state) -> str:
    return openspiel.to_position(state).moves


def test_each_state_is_the_position_of_its_history() -> None:
    game = pyspiel.load_game("connect_four")
    for seed in range(3):
        state = play(game, [RandomBot(seed), RandomBot(50 + seed)])
        history = state.history()
        assert moves_of(state) == "".join(str(a + 1) for a in history)
        winner = openspiel.to_position(state).winner()
        assert state.returns() == {1: [1.0, -1.0], 2: [-1.0, 1.0], None: [0.0, 0.0]}[winner]


@pytest.mark.parametrize("opponent", ["random", 0, 2, 3, 4])
def test_the_perfect_bot_first_wins_with_only_best_moves(opponent) -> None:
    game = pyspiel.load_game("connect_four")
    second = RandomBot(1) if opponent == "random" else openspiel.bot(opponent, seed=21)
    state = play(game, [openspiel.bot(4), second])
    assert state.returns() == [1.0, -1.0], moves_of(state)
    assert set(verdicts(moves_of(state), 1)) == {"best"}, moves_of(state)


def test_the_bot_plays_in_openspiel_s_own_driver() -> None:
    # pyspiel.evaluate_bots (OpenSpiel's C++ loop) calls our Python bot.
    game = pyspiel.load_game("connect_four")
    for seed in range(2):
        returns = pyspiel.evaluate_bots(
            game.new_initial_state(), [openspiel.bot(4), pyspiel.make_uniform_random_bot(1, seed)], seed
        )
        assert returns == [1.0, -1.0]


def test_the_perfect_bot_second_plays_only_best_moves() -> None:
    game = pyspiel.load_game("connect_four")
    for first in [RandomBot(8), openspiel.bot(1, seed=3)]:
        state = play(game, [first, openspiel.bot(4)])
        assert set(verdicts(moves_of(state), 2)) == {"best"}, moves_of(state)


def test_the_function_agent_and_other_sizes() -> None:
    # 5 columns, 4 rows: a draw with perfect play (Tromp); c4 reads the
    # parameters, and two perfect agents draw.
    game = pyspiel.load_game("connect_four", {"columns": 5, "rows": 4})
    agent = openspiel.agent(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert openspiel.to_position(state).rows() == drawn_rows(state)
        state.apply_action(agent(state))
    position = openspiel.to_position(state)
    assert (position.width, position.height) == (5, 4)
    assert state.returns() == [0.0, 0.0] and position.winner() is None
    assert set(verdicts(position.moves, 1, 5, 4)) == set(verdicts(position.moves, 2, 5, 4)) == {"best"}


def test_other_games_and_rules_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="x_in_row=5"):
        openspiel.to_position(pyspiel.load_game("connect_four", {"x_in_row": 5}).new_initial_state())
    with pytest.raises(ValueError, match="not tic_tac_toe"):
        openspiel.to_position(pyspiel.load_game("tic_tac_toe").new_initial_state())
    with pytest.raises(ValueError):  # a board c4 does not take
        openspiel.to_position(pyspiel.load_game("connect_four", {"columns": 3, "rows": 3}).new_initial_state())
    state = pyspiel.load_game("connect_four").new_initial_state()
    for a in [0, 1, 0, 1, 0, 1, 0]:
        state.apply_action(a)
    assert state.is_terminal()
    with pytest.raises(ValueError, match="game is over"):
        openspiel.agent(4)(state)
