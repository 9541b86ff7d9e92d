"""c4 in PettingZoo's connect_four_v3: the observation read as a
c4.Position (columns 0-based, top row first, planes of the agent to move),
and whole episodes of c4's agents in the AEC loop."""

from __future__ import annotations

import random

import numpy as np
import pytest
from envs_common import require, verdicts

import c4
from c4.envs import pettingzoo as pz

require("pettingzoo.classic.connect_four.connect_four", "pettingzoo")
import pettingzoo  # noqa: E402


def new_env():
    """A connect_four_v3 environment: from PettingZoo's registry (1.27 and
    later), else from the module of older releases."""
    if hasattr(pettingzoo, "make"):
        return pettingzoo.make("aec", "classic/connect_four-v3")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def episode(players, seed: int = 0):
    """Plays one episode of connect_four_v3 between ``players`` (for
    player_0 and player_1, each a function of the observation dict) and
    returns the c4 move string of the actions taken, the rewards, and the
    positions c4 read from each observation before each move."""
    env = new_env()
    env.reset(seed=seed)
    actions, seen = [], []
    rewards = {}
    for name in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[name] = reward
        if terminated or truncated:
            env.step(None)
            continue
        seen.append(pz.to_position(observation))
        a = players[env.agents.index(name)](observation)
        actions.append(int(a))
        env.step(a)
    env.close()
    return "".join(str(a + 1) for a in actions), rewards, seen


def random_player(seed: int):
    """A PettingZoo player of random legal actions, from the action mask."""
    rng = random.Random(seed)

    def play(observation):
        return rng.choice(np.flatnonzero(observation["action_mask"]).tolist())

    return play


def test_each_observation_is_the_position_of_the_actions_so_far() -> None:
    # Random play: before each move, the observation read by c4 has the
    # stones of the actions so far, action a being c4's column a + 1.
    for seed in range(3):
        moves, _, seen = episode([random_player(seed), random_player(100 + seed)], seed)
        assert len(seen) == len(moves) >= 7
        for k, position in enumerate(seen):
            assert position == c4.Position(moves[:k]), (moves, k)
            assert position.side_to_move == 1 + k % 2


def test_the_grid_is_read_top_row_first_from_the_mover_s_planes() -> None:
    # player_0 plays column 1 (action 0), player_1 column 7: from player_0's
    # point of view, its stone is in plane 0 at the bottom-left cell.
    env = new_env()
    env.reset()
    env.step(0)
    env.step(6)
    observation = env.last()[0]
    assert observation["observation"][5, 0, 0] == 1 and observation["observation"][5, 6, 1] == 1
    position = pz.to_position(observation)
    assert position == c4.Position("17")
    assert position.rows()[5] == [1, 0, 0, 0, 0, 0, 2]
    # The same grid as player_1 would see it to move: one stone fewer.
    env.step(3)
    assert pz.to_position(env.last()[0]) == c4.Position("174")


@pytest.mark.parametrize("opponent", ["random", 0, 1, 2, 3, 4])
def test_the_perfect_agent_first_wins_and_plays_only_best_moves(opponent) -> None:
    # 7x6 is a first player's win: perfect play as player_0 wins every
    # episode, whoever plays player_1, and every one of its moves is best.
    perfect = pz.agent(4)
    second = random_player(7) if opponent == "random" else pz.agent(opponent, seed=11)
    moves, rewards, _ = episode([perfect, second])
    assert rewards == {"player_0": 1, "player_1": -1}, moves
    assert c4.Position(moves).winner() == 1
    assert set(verdicts(moves, 1)) == {"best"}, moves


def test_the_perfect_agent_second_plays_only_best_moves() -> None:
    for opponent in [random_player(3), pz.agent(1, seed=5)]:
        moves, rewards, _ = episode([opponent, pz.agent(4)])
        assert set(verdicts(moves, 2)) == {"best"}, moves
        assert rewards["player_1"] == {1: -1, 2: 1, None: 0}[c4.Position(moves).winner()]


def test_a_level_agent_replays_with_its_seed() -> None:
    first = episode([pz.agent(0, seed=42), pz.agent(1, seed=43)])[0]
    again = episode([pz.agent(0, seed=42), pz.agent(1, seed=43)])[0]
    other = episode([pz.agent(0, seed=44), pz.agent(1, seed=43)])[0]
    assert first == again
    assert first != other


def test_the_agent_takes_the_array_and_the_mask_apart() -> None:
    env = new_env()
    env.reset()
    for a in [3, 3, 3, 3, 3, 3]:
        env.step(a)
    observation = env.last()[0]
    agent = pz.agent(lambda position: 4)  # a c4 agent that always plays column 4
    with pytest.raises(ValueError, match="column 4 .* not legal"):
        agent(observation)
    assert pz.agent(4)(observation["observation"], observation["action_mask"]) != 3
    mask = np.ones(7, dtype=np.int8)
    mask[2] = 0
    with pytest.raises(ValueError, match="masked out"):
        pz.agent(lambda position: 3)(observation["observation"], mask)


def test_bad_observations_are_clear_errors() -> None:
    planes = np.zeros((6, 7, 2), dtype=np.int8)
    planes[5, 3] = [1, 1]
    with pytest.raises(ValueError, match=r"row 5, column 3 .* holds \[1, 1\]"):
        pz.to_position(planes)
    planes[5, 3] = [1, 0]
    # One stone of the agent to move and none of its opponent's: the
    # observation of the agent that is not to move.
    with pytest.raises(ValueError, match="not an observation of the agent to move"):
        pz.to_position(planes)
    planes[5, 3] = [0, 1]
    planes[4, 3] = [1, 0]
    planes[3, 3] = [0, 1]
    assert pz.to_position(planes) == c4.Position("444")
    floating = np.zeros((6, 7, 2), dtype=np.int8)
    floating[0, 0] = [0, 1]
    with pytest.raises(ValueError):
        pz.to_position(floating)
    with pytest.raises(ValueError, match="rows x columns x 2"):
        pz.to_position(np.zeros((6, 7), dtype=np.int8))
