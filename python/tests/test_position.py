"""c4.Position: moves, rules, drawings and conversions."""

from __future__ import annotations

import pickle

import pytest

import c4
from minimax import replay, won


def test_moves_and_turns() -> None:
    p = c4.Position("4453")
    assert (p.width, p.height, p.moves, p.moves_played) == (7, 6, "4453", 4)
    assert p.move_list == [4, 4, 5, 3]
    assert p.side_to_move == 1
    assert p.play(4).side_to_move == 2
    assert p.play(4) == c4.Position("44534")
    assert p.play("12") == c4.Position("445312")
    assert p.play("12").moves == "445312"
    assert p.legal_moves() == [1, 2, 3, 4, 5, 6, 7]
    assert c4.Position("444444").legal_moves() == [1, 2, 3, 5, 6, 7]
    assert not c4.Position("444444").can_play(4)
    assert not p.can_play(0) and not p.can_play(8)
    # Equal when the stones are, whatever the order.
    assert c4.Position("1234") == c4.Position("3214")
    assert hash(c4.Position("1234")) == hash(c4.Position("3214"))
    assert len({c4.Position("1234"), c4.Position("3214"), c4.Position("12")}) == 2
    assert repr(p) == "Position('4453')"
    assert repr(c4.Position("1", 6, 5)) == "Position('1', width=6, height=5)"
    assert pickle.loads(pickle.dumps(c4.Position("33", 6, 5))) == c4.Position("33", 6, 5)
    assert p.mirrored() == c4.Position("4435")


def test_wins_against_the_rules_written_here() -> None:
    p = c4.Position("121212")
    assert p.can_win_next() and p.is_winning_move(1) and not p.is_winning_move(2)
    done = p.play(1)
    assert done.is_won() and done.is_game_over() and done.winner() == 1
    assert done.legal_moves() == []
    assert not done.can_win_next()
    for moves in ["1122334", "4455667", "1223334444", "12", ""]:
        pos = c4.Position(moves)
        assert pos.is_won() == won(replay(moves, 7, 6)), moves


def test_the_drawing_is_c4s() -> None:
    text = str(c4.Position("4453"))
    lines = text.splitlines()
    assert lines[-3] == ". . O X X . ."
    assert lines[-4] == ". . . O . . ."
    assert lines[-2] == "1 2 3 4 5 6 7"
    assert "X to move (move 5)" in lines[-1]


def test_rows_are_top_row_first() -> None:
    p = c4.Position("4453")
    rows = p.rows()
    assert len(rows) == 6 and all(len(r) == 7 for r in rows)
    assert rows[-1] == [0, 0, 2, 1, 1, 0, 0]
    assert rows[-2] == [0, 0, 0, 2, 0, 0, 0]
    assert all(v == 0 for r in rows[:-2] for v in r)
    back = c4.Position.from_rows(rows)
    assert back == p
    assert c4.Position(back.moves) == p  # a line that reaches it
    assert c4.Position.from_rows([[0] * 5] * 4) == c4.Position("", 5, 4)


def test_numpy_round_trip() -> None:
    np = pytest.importorskip("numpy")
    p = c4.Position("445326", 7, 6)
    a = p.to_numpy()
    assert a.shape == (6, 7) and a.dtype == np.int8
    assert a[5].tolist() == [0, 1, 2, 1, 1, 2, 0]
    assert c4.Position.from_numpy(a) == p
    assert c4.Position.from_numpy(a.astype(np.float64)) == p
    wide = c4.Position("1a", 10, 4)
    assert wide.to_numpy().shape == (4, 10)
    assert c4.Position.from_numpy(wide.to_numpy()) == wide
    with pytest.raises(ValueError, match="2-D"):
        c4.Position.from_numpy(np.zeros(42))
    with pytest.raises(ValueError, match="not values of type"):
        c4.Position.from_numpy(np.full((6, 7), 0.5))


def test_bitbully_and_pons_move_strings() -> None:
    assert c4.Position.from_bitbully("3342") == c4.Position("4453")
    assert c4.Position.from_bitbully([3, 3, 4, 2]) == c4.Position("4453")
    assert c4.Position.from_bitbully(range(7)) == c4.Position("1234567")
    assert c4.Position.from_bitbully("") == c4.Position()
    assert c4.Position.from_bitbully([9, 0], 10, 4) == c4.Position("a1", 10, 4)
    assert c4.Position.from_pons("4453") == c4.Position("4453")
    assert c4.Position.from_pons("12", 5, 4) == c4.Position("12", 5, 4)
    with pytest.raises(ValueError, match=r"move 3: character '7' is not a column \(0-6"):
        c4.Position.from_bitbully("337")
    with pytest.raises(ValueError, match=r"move 7 \(column 3, 0-based\): column 4 is already full"):
        c4.Position.from_bitbully("3333333")
    with pytest.raises(TypeError):
        c4.Position.from_bitbully([3, "x"])


def test_grids_that_no_game_reaches() -> None:
    rows = [[0] * 7 for _ in range(6)]
    rows[0][0] = 1  # floating on the top row
    with pytest.raises(ValueError, match="row 1, column 1: a stone above an empty cell"):
        c4.Position.from_rows(rows)
    rows = [[0] * 7 for _ in range(6)]
    rows[5][:2] = [1, 1]
    with pytest.raises(ValueError, match="2 stones of the first player and 0"):
        c4.Position.from_rows(rows)
    rows = [[0] * 7 for _ in range(6)]
    rows[5][3] = 7
    with pytest.raises(ValueError, match="row 6, column 4: 7 is not a cell"):
        c4.Position.from_rows(rows)
    with pytest.raises(ValueError, match="row 2 has 6 cells"):
        c4.Position.from_rows([[0] * 7, [0] * 6, [0] * 7, [0] * 7])
    with pytest.raises(ValueError, match="too small"):
        c4.Position.from_rows([[0] * 3] * 6)
    # Both players have four: the game would have ended first.
    rows = [[0] * 7 for _ in range(6)]
    rows[5] = [1, 1, 1, 1, 2, 2, 2]
    rows[4] = [0, 0, 0, 0, 2, 0, 0]
    with pytest.raises(ValueError, match="no game reaches"):
        c4.Position.from_rows(rows)
