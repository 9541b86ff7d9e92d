"""Bad input of every kind: a ValueError (TypeError, MemoryError) with the
message the c4 command prints, never a crash."""

from __future__ import annotations

import os

import pytest

import c4


@pytest.mark.parametrize(
    "moves,message",
    [
        ("44x", "character 3 ('x') is not a column (1-7)"),
        ("448", "character 3 ('8') is not a column (1-7)"),
        ("0", "character 1 ('0') is not a column (1-7)"),
        (" 4-4", "character 3 ('-') is not a column (1-7)"),
        ("4444444", "character 7: column 4 is already full"),
        ("12121213", "character 8: the game was already won by the previous move"),
        # A position is a move string alone: a space, a tab or a score in it
        # is refused, naming the character.
        ("44 x", "character 3 (a space) is not a column (1-7)"),
        ("44 53", "character 3 (a space) is not a column (1-7)"),
        ("44\t53", "character 3 (a tab) is not a column (1-7)"),
        ("4453 -2", "character 5 (a space) is not a column (1-7)"),
        ("\ufeff4453", "character 1 (U+FEFF, a byte-order mark) is not a column (1-7)"),
        ("é4", "character 1 ('é') is not a column (1-7)"),
    ],
)
def test_bad_move_strings_name_the_character(moves: str, message: str) -> None:
    with pytest.raises(ValueError) as e:
        c4.solve(moves)
    assert str(e.value) == message
    for call in (c4.analyze, c4.best_move, c4.pv):
        with pytest.raises(ValueError, match="^character"):
            call(moves)


def test_bad_bytes_and_long_lines() -> None:
    with pytest.raises(ValueError, match=r"^character 2: not valid UTF-8$"):
        c4.solve(b"4\xff")
    with pytest.raises(ValueError, match=r"^character 1025: the line is longer"):
        c4.solve("4" + " " * 2000)
    assert c4.solve(b"4453") == -2


def test_a_full_board_takes_no_more_moves() -> None:
    draw = c4.Position("", 4, 4)
    draw = draw.play("".join(map(str, c4.pv(draw))))
    assert draw.is_full() and draw.winner() is None
    with pytest.raises(ValueError) as e:
        c4.Position(draw.moves + "1", 4, 4)
    assert str(e.value) == "character 17: more moves than cells, the board is already full"
    with pytest.raises(ValueError, match="the board is already full"):
        draw.play(1)


def test_bad_moves_on_a_position() -> None:
    p = c4.Position("444444")
    with pytest.raises(ValueError, match="^column 4 is already full$"):
        p.play(4)
    with pytest.raises(ValueError, match=r"^8 is not a column \(1-7\)$"):
        p.play(8)
    with pytest.raises(ValueError, match=r"^character 2 \('9'\) is not a column \(1-7\)$"):
        p.play("19")
    with pytest.raises(ValueError, match="already won"):
        c4.Position("1212121").play(3)
    with pytest.raises(TypeError):
        p.play(4.5)


def test_solve_many_names_the_line() -> None:
    solver = c4.Solver(5, 4, table="1M")
    with pytest.raises(ValueError) as e:
        solver.solve_many(["11", "22", "33x"])
    assert str(e.value) == "line 3: character 3 ('x') is not a column (1-5)"
    with pytest.raises(ValueError, match=r"^line 2: a position of the 7x6 board"):
        solver.solve_many(["1", c4.Position("1")])
    with pytest.raises(TypeError, match="^line 1: a position is a move string"):
        solver.solve_many([12])
    with pytest.raises(TypeError):
        solver.solve_many(5)
    assert solver.solve_many([]) == []


def test_solve_many_reads_test_set_lines_and_checks_their_scores() -> None:
    solver = c4.Solver(5, 4, table="1M")
    # On 5x4, after two stones a score is from -9 to 9.
    assert solver.solve_many(["11 3\n", "22\t-2"]) == solver.solve_many(["11", "22"])
    for line, message in [
        ("11 53", "line 1: character 4: 53 is not a score this position can have "
         "(after 2 stones a score is from -9 to 9)"),
        ("11\t53", "line 1: character 4: 53 is not a score this position can have "
         "(after 2 stones a score is from -9 to 9)"),
        ("11 x", "line 1: character 4: 'x' after the moves is not a score "
         "(a line is the moves, then at most a score)"),
        ("1 1 2", "line 1: character 5: unexpected '2' after the score "
         "(a line is the moves, then at most a score)"),
    ]:
        with pytest.raises(ValueError) as e:
            solver.solve_many([line])
        assert str(e.value) == message
    # A weak solve takes a sign as well as an exact score.
    assert solver.solve_many(["11 1"], weak=True) == solver.solve_many(["11"], weak=True)


def test_bad_boards_tables_threads_and_books(tmp_path) -> None:
    with pytest.raises(ValueError, match=r"^a 3x6 board is too small"):
        c4.Solver(3, 6)
    with pytest.raises(ValueError, match=r"^a 20x20 board is too big"):
        c4.Solver(20, 20)
    with pytest.raises(ValueError, match="too small"):
        c4.Position("", 7, 3)
    with pytest.raises(ValueError, match=r"^a transposition table of 1024 bytes is too small"):
        c4.Solver(table=1024, book=None)
    with pytest.raises(ValueError, match=r"^'64X' is not a size"):
        c4.Solver(table="64X")
    with pytest.raises(ValueError, match="not a usable size"):
        c4.Solver(table=0)
    with pytest.raises(TypeError):
        c4.Solver(table=[64])
    with pytest.raises(MemoryError, match=r"^not enough memory: this needs "):
        c4.Solver(table="1024T")
    with pytest.raises(ValueError, match="threads is far more than this machine can run"):
        c4.Solver(threads=10**6)
    with pytest.raises(ValueError, match="threads is far more"):
        c4.Solver(5, 4, table="1M").solve_many(["1"], threads=10**6)
    with pytest.raises(MemoryError, match="not enough memory"):
        c4.Solver(table="4G", book=None).solve_many(["1"], threads=64)
    with pytest.raises(ValueError, match="^cannot read"):
        c4.Solver(book=tmp_path / "missing.book")
    junk = tmp_path / "junk.book"
    junk.write_bytes(os.urandom(100))
    with pytest.raises(ValueError, match="junk.book: "):
        c4.Solver(book=str(junk))
    with pytest.raises(TypeError, match="book must be"):
        c4.Solver(book=42)
    with pytest.raises(ValueError, match=r"a position of the 6x5 board given to a solver of the 7x6"):
        c4.solve(c4.Position("1", 6, 5), width=7, height=6)
    with pytest.raises(TypeError, match="a position is a move string or a c4.Position, not int"):
        c4.solve(4453)
