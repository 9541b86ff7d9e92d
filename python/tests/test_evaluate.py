"""c4.evaluate and c4's level agents: results by side, the verdicts of the
agent's moves (checked against the tests' own minimax on small boards),
reproducibility from the seed, and clear errors for bad arguments."""

from __future__ import annotations

import doctest
import random
import re

import pytest
from minimax import replay, score, won

import c4
import c4.agents


def random_agent(seed: int):
    """An agent of uniformly random legal moves, seeded."""
    rng = random.Random(seed)
    return lambda position: rng.choice(position.legal_moves())


def minimax_scores(moves: str, width: int, height: int) -> dict[int, int]:
    """The minimax score of each legal column after ``moves``, for the side
    to move, by the tests' exhaustive search (no c4 code)."""
    board = replay(moves, width, height)
    stones = len(moves)
    out = {}
    for column in range(1, width + 1):
        if len(board[column - 1]) == height:
            continue
        child = replay(moves + str(column), width, height)
        if won(child):
            out[column] = (width * height + 1 - stones) // 2
        elif stones + 1 == width * height:
            out[column] = 0
        else:
            out[column] = -score(child, height)
    return out


def witness_verdict(best: int, played: int) -> str:
    """The verdicts as the review defines them, written again here."""
    if played == best:
        return "best"
    if (played > 0) == (best > 0) and (played < 0) == (best < 0):
        return "slower"
    return "blunder" if best > 0 and played < 0 else "mistake"


def check_against_minimax(evaluation: c4.Evaluation, start: int = 0) -> None:
    """Every verdict of the agent's moves from stone ``start`` on (the
    minimax of the tests is too slow for the first moves of boards above
    4x4) and every result of ``evaluation``, recomputed from the tests'
    minimax and the rules."""
    w, h = evaluation.width, evaluation.height
    for record in evaluation.game_records:
        expected = []
        for k, ch in enumerate(record.moves):
            if k % 2 == record.agent_player - 1:
                if k < start:
                    expected.append(None)
                    continue
                scores = minimax_scores(record.moves[:k], w, h)
                expected.append(witness_verdict(max(scores.values()), scores[int(ch)]))
        got = [v if e is not None else None for v, e in zip(record.verdicts, expected)]
        assert got == expected, record
        board = replay(record.moves, w, h)
        if won(board):
            winner = 2 - len(record.moves) % 2
            assert record.result == ("win" if winner == record.agent_player else "loss")
        else:
            assert len(record.moves) == w * h and record.result == "draw"


def test_the_perfect_agent_never_loses_first_and_plays_only_best_moves() -> None:
    e = c4.evaluate(c4.level_agent(4), games=4, opponent=3, seed=1)
    assert e.games == 4 and e.as_first.games == e.as_second.games == 2
    assert e.as_first.wins == 2 and e.as_first.losses == 0  # 7x6 is a first player's win
    assert e.best_share == 1.0 and e.best == e.moves > 0
    assert e.slower == e.mistakes == e.blunders == 0


def test_a_random_agent_blunders_and_the_counts_add_up() -> None:
    e = c4.evaluate(random_agent(5), games=4, opponent=2, seed=3)
    assert e.blunders > 0 and e.blunders_per_game == e.blunders / 4
    assert e.best + e.slower + e.mistakes + e.blunders == e.moves
    assert e.best_share < 1
    assert e.wins + e.draws + e.losses == 4
    stones = sum(len(r.moves) // 2 + (len(r.moves) % 2 if r.agent_player == 1 else 0) for r in e.game_records)
    assert e.moves == stones
    for r in e.game_records:
        assert c4.Position(r.moves).is_game_over()
        # The verdicts are those of c4's review of the game.
        review = getattr(c4, "review", None)
        if review is not None:
            assert [m.verdict for m in review(r.moves).moves if m.player == r.agent_player] == list(r.verdicts)


@pytest.mark.parametrize("opponent", [0, 1, 3, 4])
def test_the_verdicts_and_results_follow_from_minimax_on_4x4(opponent) -> None:
    for agent in [random_agent(opponent), c4.level_agent(2, seed=opponent)]:
        e = c4.evaluate(agent, games=6, opponent=opponent, seed=opponent, width=4, height=4)
        check_against_minimax(e)


def test_the_verdicts_follow_from_minimax_on_5x4() -> None:
    e = c4.evaluate(random_agent(1), games=2, opponent=1, seed=9, width=5, height=4)
    check_against_minimax(e, start=8)
    assert e.blunders + e.mistakes > 0


def test_levels_3_and_4_keep_the_outcome() -> None:
    # Level 3 never gives away perfect play's result (its moves are best or
    # slower); level 4 plays only best moves. On 5x4 (a draw) neither loses.
    for level, allowed in [(3, {"best", "slower"}), (4, {"best"})]:
        e = c4.evaluate(c4.level_agent(level, seed=2), games=4, opponent=0, seed=4, width=5, height=4)
        assert {v for r in e.game_records for v in r.verdicts} <= allowed
        assert e.losses == 0


def test_the_same_seed_gives_the_same_evaluation() -> None:
    first = c4.evaluate(random_agent(7), games=4, opponent=1, seed=12, width=6, height=5)
    again = c4.evaluate(random_agent(7), games=4, opponent=1, seed=12, width=6, height=5)
    other = c4.evaluate(random_agent(7), games=4, opponent=1, seed=13, width=6, height=5)
    assert first == again
    assert [r.moves for r in first.game_records] != [r.moves for r in other.game_records]
    assert [r.opponent_seed for r in first.game_records] == [c4.evaluation.game_seed(12, i) for i in range(4)]


def test_the_repr_is_readable() -> None:
    e = c4.evaluate(c4.level_agent(4), games=2, opponent="beginner", seed=0, width=4, height=4)
    text = repr(e)
    assert re.fullmatch(
        r"<Evaluation: 2 games on 4x4 against level 0 \(beginner\), seed 0: \d+ won, \d+ drawn, \d+ lost"
        r" \(as first: \d+ won, \d+ drawn, \d+ lost; as second: \d+ won, \d+ drawn, \d+ lost\);"
        r" best moves 100\.0% of \d+, 0\.00 mistakes and 0\.00 blunders a game>",
        text,
    ), text


def test_bad_arguments_are_clear_errors() -> None:
    agent = c4.level_agent(4)
    for games in [0, 3, -2]:
        with pytest.raises(ValueError, match=f"games is an even number from 2 up .*not {games}"):
            c4.evaluate(agent, games=games)
    for games in ["ten", 2.0, True]:
        with pytest.raises(TypeError, match="games is a number"):
            c4.evaluate(agent, games=games)
    with pytest.raises(ValueError, match="there is no level 5"):
        c4.evaluate(agent, games=2, opponent=5)
    with pytest.raises(ValueError, match="there is no level 'grandmaster'.*beginner, novice"):
        c4.evaluate(agent, games=2, opponent="grandmaster")
    with pytest.raises(ValueError, match="there is no level -1"):
        c4.evaluate(agent, games=2, opponent=-1)
    for seed in [-1, 2**64]:
        with pytest.raises(ValueError, match="a seed is an integer from 0"):
            c4.evaluate(agent, games=2, seed=seed)
    with pytest.raises(TypeError, match="a seed is an integer"):
        c4.evaluate(agent, games=2, seed="x")
    with pytest.raises(TypeError, match="callable"):
        c4.evaluate("4453", games=2)
    with pytest.raises(ValueError):
        c4.evaluate(agent, games=2, width=3, height=3)
    with pytest.raises(ValueError, match="the solver is for 7x6, the games for 5x4"):
        c4.evaluate(agent, games=2, width=5, height=4, solver=c4.Solver())
    # The agent's own bad moves name the game and the move.
    with pytest.raises(ValueError, match=r"game 0 \(the agent first\), move 1: the agent played column 5, which is not legal \(legal: 1, 2, 3, 4\)"):
        c4.evaluate(lambda p: 5, games=2, opponent=0, width=4, height=4)
    with pytest.raises(ValueError, match=r"game 1 \(the agent second\), move 2: .*column 8, which is not legal"):
        c4.evaluate(lambda p: c4.best_move(p) if p.side_to_move == 1 else 8, games=2, opponent=4)
    with pytest.raises(TypeError, match="move 1: the agent returned None"):
        c4.evaluate(lambda p: None, games=2)


def test_level_agents() -> None:
    assert [name for _, name, _ in c4.LEVELS] == ["beginner", "novice", "intermediate", "strong", "perfect"]
    assert c4.agents.level_number("Strong") == 3 and c4.agents.level_number(2) == 2
    agent = c4.level_agent("perfect")
    assert agent.level == 4 and agent.name == "perfect"
    # Level 4 is c4's best move, the centre-most among equals.
    for moves in ["", "4453", "44533", "334455", "717273"]:
        assert agent(c4.Position(moves)) == c4.best_move(moves)
    # The same seed replays the same choices, and reseed starts again.
    beginner = c4.level_agent(0, seed=5)
    line = [beginner(c4.Position("4")) for _ in range(20)]
    same = c4.level_agent(0, seed=5)
    assert [same(c4.Position("4")) for _ in range(20)] == line
    beginner.reseed(5)
    assert [beginner(c4.Position("4")) for _ in range(20)] == line
    assert len(set(line)) > 1
    # The beginner takes an immediate win unless its mistake roll fires.
    wins = [c4.level_agent(0, seed=s)(c4.Position("121212")) for s in range(40)]
    assert wins.count(1) > 20
    with pytest.raises(ValueError, match="game is over"):
        agent(c4.Position("1212121"))
    with pytest.raises(TypeError, match="c4.Position"):
        agent("4453")
    # Scores that do not fit the board are named as Python writes them.
    from c4._c4 import LevelPlayer

    with pytest.raises(ValueError, match=r"^scores \[1, None\] are not one score for each of the 7 columns"):
        LevelPlayer(4, 1).choose(c4.Position("4453"), lambda: [1, None])
    assert doctest.testmod(c4.agents).failed == 0
