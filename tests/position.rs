//! Tests of `Position`: win detection in every direction and at the edges,
//! parsing and its errors, the full-board draw, `Display`, keys and mirror
//! symmetry, and property tests against the independent model in
//! `common::Naive`.

mod common;

use std::collections::HashMap;

use c4::{ParseError, Player, Position, Solver};
use common::minimax::reference_score_of;
use common::{Naive, Rng, moves_from_string, moves_string, random_finished_game, random_game};
use proptest::prelude::*;

type P = Position<7, 6>;

/// A legal 42-move game in which nobody ever connects four (found by a random
/// search and checked here against the naive model).
const DRAW: &str = "216625765776667477515522445213132131343443";

/// A legal 42-move game whose last move (the second player's, filling the
/// board) connects four on a "\" diagonal through the top row.
const WIN_ON_LAST_CELL: &str = "624437261172655643134513176635453157227274";

fn parse(s: &str) -> P {
    P::parse(s).unwrap_or_else(|e| panic!("'{s}' should parse: {e}"))
}

/// A game that ends with a win on its last move.
struct WinCase {
    /// What the case is about.
    name: &'static str,
    /// The moves; the last one wins.
    moves: &'static str,
    /// The direction of the four, as (column step, row step).
    direction: (isize, isize),
    /// The four cells of the line, 0-based (column, row).
    cells: [(usize, usize); 4],
}

const UP: (isize, isize) = (0, 1);
const RIGHT: (isize, isize) = (1, 0);
const UP_RIGHT: (isize, isize) = (1, 1);
const DOWN_RIGHT: (isize, isize) = (1, -1);

const WIN_CASES: &[WinCase] = &[
    WinCase {
        name: "vertical, left column, bottom",
        moves: "1212121",
        direction: UP,
        cells: [(0, 0), (0, 1), (0, 2), (0, 3)],
    },
    WinCase {
        name: "vertical, right column, bottom",
        moves: "7676767",
        direction: UP,
        cells: [(6, 0), (6, 1), (6, 2), (6, 3)],
    },
    WinCase {
        name: "vertical, left column, up to the top row",
        moves: "21211313131",
        direction: UP,
        cells: [(0, 2), (0, 3), (0, 4), (0, 5)],
    },
    WinCase {
        name: "vertical by the second player, right column",
        moves: "17171727",
        direction: UP,
        cells: [(6, 0), (6, 1), (6, 2), (6, 3)],
    },
    WinCase {
        name: "horizontal, bottom row, left edge",
        moves: "1122334",
        direction: RIGHT,
        cells: [(0, 0), (1, 0), (2, 0), (3, 0)],
    },
    WinCase {
        name: "horizontal, bottom row, right edge",
        moves: "7766554",
        direction: RIGHT,
        cells: [(3, 0), (4, 0), (5, 0), (6, 0)],
    },
    WinCase {
        name: "horizontal, top row, left edge",
        moves: "14111625263343524614313423727274",
        direction: RIGHT,
        cells: [(0, 5), (1, 5), (2, 5), (3, 5)],
    },
    WinCase {
        name: "horizontal, top row, right edge",
        moves: "475644727766627512733461355564514",
        direction: RIGHT,
        cells: [(3, 5), (4, 5), (5, 5), (6, 5)],
    },
    WinCase {
        name: "diagonal /, from the bottom-left corner",
        moves: "12234334744",
        direction: UP_RIGHT,
        cells: [(0, 0), (1, 1), (2, 2), (3, 3)],
    },
    WinCase {
        name: "diagonal /, to the top-right corner",
        moves: "31467575714541672776566",
        direction: UP_RIGHT,
        cells: [(3, 2), (4, 3), (5, 4), (6, 5)],
    },
    WinCase {
        name: "diagonal \\, to the bottom-right corner",
        moves: "76654554144",
        direction: DOWN_RIGHT,
        cells: [(3, 3), (4, 2), (5, 1), (6, 0)],
    },
    WinCase {
        name: "diagonal \\, from the top-left corner",
        moves: "263124231133341774621152",
        direction: DOWN_RIGHT,
        cells: [(0, 5), (1, 4), (2, 3), (3, 2)],
    },
    WinCase {
        name: "diagonal \\ through the top row, on the last cell of the board",
        moves: WIN_ON_LAST_CELL,
        direction: DOWN_RIGHT,
        cells: [(3, 5), (4, 4), (5, 3), (6, 2)],
    },
];

#[test]
fn wins_in_every_direction_and_at_the_edges() {
    for case in WIN_CASES {
        let name = case.name;
        let all = moves_from_string(case.moves);
        let (&last, before) = all.split_last().unwrap();
        let n = all.len();

        // The test data itself: exactly the intended four, made by the last move.
        let naive_before = Naive::<7, 6>::from_moves(before);
        assert!(!naive_before.won, "{name}: test data wins early");
        let naive_after = Naive::<7, 6>::from_moves(&all);
        let winner = naive_before.player_to_move();
        assert_eq!(
            naive_after.fours(winner),
            vec![(case.direction, case.cells)],
            "{name}: test data makes another four"
        );

        // Before the winning move.
        let pos = P::parse(&case.moves[..n - 1]).unwrap();
        assert!(!pos.is_won(), "{name}");
        assert!(!pos.is_game_over(), "{name}");
        assert!(pos.can_win_next(), "{name}: can_win_next");
        for col in 0..7 {
            if pos.can_play(col) {
                assert_eq!(
                    pos.is_winning_move(col),
                    naive_before.is_winning_move(col),
                    "{name}: is_winning_move({col})"
                );
            }
        }
        assert!(pos.is_winning_move(last), "{name}: is_winning_move");
        // The winning cell is among the winning cells of the side to move.
        let cell_bit = 1u64 << (last * 7 + naive_before.heights[last]);
        assert_ne!(pos.winning_cells() & cell_bit, 0, "{name}: winning_cells");

        // After it.
        let won = P::parse(case.moves).unwrap();
        assert!(won.is_won(), "{name}: is_won");
        assert!(won.is_game_over(), "{name}");
        assert_eq!(won.moves_played(), n, "{name}");
        let symbol = if n % 2 == 1 { 'X' } else { 'O' };
        assert!(
            won.to_string()
                .ends_with(&format!("{symbol} has won on move {n}")),
            "{name}: Display:\n{won}"
        );
        // Whatever the column, a further move is refused at its index.
        for col in '1'..='7' {
            let s = format!("{}{col}", case.moves);
            assert_eq!(
                P::parse(&s),
                Err(ParseError::GameOver { index: n }),
                "{name}: {s}"
            );
            let s = format!(" \t{}{col}4", case.moves);
            assert_eq!(
                P::parse(&s),
                Err(ParseError::GameOver { index: n + 2 }),
                "{name}: {s:?}"
            );
        }
        // A trailing newline after the win is not a move.
        assert_eq!(P::parse(&format!("{}\r\n", case.moves)), Ok(won), "{name}");
    }
}

#[test]
fn win_on_the_last_cell_is_game_over_not_too_many_moves() {
    let pos = parse(WIN_ON_LAST_CELL);
    assert!(pos.is_full());
    assert!(pos.is_won());
    assert!(pos.to_string().ends_with("O has won on move 42"), "{pos}");
    for col in '1'..='7' {
        assert_eq!(
            P::parse(&format!("{WIN_ON_LAST_CELL}{col}")),
            Err(ParseError::GameOver { index: 42 })
        );
    }
    // The second player wins with its 21st stone: 22 - 21 = 1 before the
    // move, -1 for the first player after it (witness: the minimax).
    assert_eq!(reference_score_of::<7, 6>(WIN_ON_LAST_CELL), -1);
    assert_eq!(reference_score_of::<7, 6>(&WIN_ON_LAST_CELL[..41]), 1);
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 20).unwrap();
    assert_eq!(solver.solve(&pos), -1);
    assert_eq!(solver.solve_weak(&pos), -1);
    let before = parse(&WIN_ON_LAST_CELL[..41]);
    assert!(before.can_win_next());
    assert_eq!(solver.solve(&before), 1);
    assert_eq!(solver.best_move(&before), Some((3, 1)));
}

#[test]
fn no_false_win_across_the_column_boundary() {
    // X holds rows 3-5 of column 1 and row 0 of column 2: neighbours in the
    // bit order (through the sentinel bit), but not a line.
    let s = "211117171";
    let naive = Naive::<7, 6>::from_moves(&moves_from_string(s));
    assert!(!naive.won && naive.fours(1).is_empty(), "test data");
    assert_eq!(naive.cells[0], [2, 1, 2, 1, 1, 1]);
    assert_eq!(naive.cells[1][0], 1);
    let pos = parse(s);
    assert!(!pos.is_won());
    assert!(!P::has_four(pos.opponent()) && !P::has_four(pos.current()));
    assert_eq!(P::parse(&format!("{s}5")).map(|p| p.is_won()), Ok(false));
}

#[test]
fn full_columns_are_refused_with_index_and_column() {
    for (s, index, column) in [
        ("4444444", 6, 4),
        ("1111111", 6, 1),
        ("7777777", 6, 7),
        (" \t4444444", 8, 4),
        ("4444441235674", 12, 4),
    ] {
        assert_eq!(
            P::parse(s),
            Err(ParseError::ColumnFull { index, column }),
            "{s:?}"
        );
    }
    // Six stones fill a column, and the rest of the board is still open.
    let pos = parse("444444");
    assert!(!pos.can_play(3));
    assert!((0..7).filter(|&c| c != 3).all(|c| pos.can_play(c)));
    assert_eq!(pos.column_height(3), 6);
    assert!(!pos.can_play(7), "a column past the board");
    let err = P::parse("4444444").unwrap_err();
    assert_eq!(err.index(), 6);
    assert_eq!(err.to_string(), "character 7: column 4 is already full");
}

#[test]
fn full_board_draw() {
    let moves = moves_from_string(DRAW);
    assert_eq!(moves.len(), 42);
    let naive = Naive::<7, 6>::from_moves(&moves);
    assert!(!naive.won && naive.is_full(), "test data");

    let pos = parse(DRAW);
    assert_eq!(pos.moves_played(), 42);
    assert!(pos.is_full());
    assert!(!pos.is_won());
    assert!(pos.is_game_over());
    assert_eq!(pos.possible(), 0);
    assert!((0..7).all(|c| !pos.can_play(c)));
    assert!(
        pos.to_string().ends_with("the board is full: draw"),
        "{pos}"
    );
    // Every prefix is neither won nor full.
    for n in 0..42 {
        let p = parse(&DRAW[..n]);
        assert!(
            !p.is_won() && !p.is_full() && !p.is_game_over(),
            "prefix {n}"
        );
    }

    // A full board without a win scores 0 (witness: the minimax).
    assert_eq!(reference_score_of::<7, 6>(DRAW), 0);
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 20).unwrap();
    assert_eq!(solver.solve(&pos), 0);
    assert_eq!(solver.solve_weak(&pos), 0);
    assert_eq!(solver.analyze(&pos), vec![None; 7]);
    assert_eq!(solver.best_move(&pos), None);
    assert!(solver.principal_variation(&pos).is_empty());

    // A 43rd move: the library reports TooManyMoves (checked before the
    // column), for any column of the board; a character that is no column is
    // still an InvalidColumn.
    for col in '1'..='7' {
        assert_eq!(
            P::parse(&format!("{DRAW}{col}")),
            Err(ParseError::TooManyMoves { index: 42 })
        );
    }
    assert_eq!(
        P::parse(&format!("  {DRAW}5")),
        Err(ParseError::TooManyMoves { index: 44 })
    );
    assert_eq!(
        P::parse(&format!("{DRAW}8")),
        Err(ParseError::InvalidColumn {
            index: 42,
            ch: '8',
            width: 7
        })
    );
    assert_eq!(
        P::parse(&format!("{DRAW}1")).unwrap_err().to_string(),
        "character 43: more moves than cells, the board is already full"
    );
}

#[test]
fn parse_errors_carry_the_character_index() {
    let invalid = |index, ch| {
        Err(ParseError::InvalidColumn {
            index,
            ch,
            width: 7,
        })
    };
    assert_eq!(P::parse("0"), invalid(0, '0'));
    assert_eq!(P::parse("8"), invalid(0, '8'));
    assert_eq!(P::parse("9"), invalid(0, '9'));
    assert_eq!(P::parse("x"), invalid(0, 'x'));
    assert_eq!(P::parse("a"), invalid(0, 'a'));
    assert_eq!(P::parse("A"), invalid(0, 'A'));
    assert_eq!(P::parse("4450"), invalid(3, '0'));
    assert_eq!(P::parse("4458"), invalid(3, '8'));
    assert_eq!(P::parse("44x5"), invalid(2, 'x'));
    assert_eq!(P::parse("-4"), invalid(0, '-'));
    assert_eq!(P::parse("+4"), invalid(0, '+'));
    // Inner whitespace is not ignored.
    assert_eq!(P::parse("44 53"), invalid(2, ' '));
    assert_eq!(P::parse("44\r\n53"), invalid(2, '\r'));
    // Leading whitespace counts in the index.
    assert_eq!(P::parse("   0"), invalid(3, '0'));
    assert_eq!(P::parse("\t\n 44x"), invalid(5, 'x'));
    // Unicode: indexes count characters, not bytes.
    assert_eq!(P::parse("é"), invalid(0, 'é'));
    assert_eq!(P::parse("4é"), invalid(1, 'é'));
    assert_eq!(P::parse("4\u{665}"), invalid(1, '\u{665}')); // Arabic-Indic five
    assert_eq!(P::parse("\u{3000}\u{3000}48"), invalid(3, '8'));
    assert_eq!(P::parse("\u{a0}4🙂"), invalid(2, '🙂'));
    assert_eq!(P::parse("🙂4"), invalid(0, '🙂'));
    // The index is the first bad character's, before any later problem.
    assert_eq!(
        P::parse("4444444x"),
        Err(ParseError::ColumnFull {
            index: 6,
            column: 4
        })
    );
    assert_eq!(P::parse("12x4444444"), invalid(2, 'x'));
    // After a win, an invalid character is still reported as such.
    assert_eq!(P::parse("1212121x"), invalid(7, 'x'));

    // Whitespace around the moves is ignored, including a trailing "\r\n".
    let p = parse("4453");
    assert_eq!(P::parse("4453\r\n"), Ok(p));
    assert_eq!(P::parse("4453\n"), Ok(p));
    assert_eq!(P::parse("  4453  \r\n"), Ok(p));
    assert_eq!(P::parse("\t4453\r"), Ok(p));
    assert_eq!(P::parse(""), Ok(P::new()));
    assert_eq!(P::parse(" \r\n"), Ok(P::new()));

    // The messages say the 1-based character number.
    assert_eq!(
        P::parse("  48").unwrap_err().to_string(),
        "character 4 ('8') is not a column (1-7)"
    );
    assert_eq!(
        P::parse("12121212").unwrap_err().to_string(),
        "character 8: the game was already won by the previous move"
    );
    assert_eq!(P::parse("  48").unwrap_err().index(), 3);
}

#[test]
fn play_str_stops_before_the_bad_character() {
    let mut p = parse("44");
    assert_eq!(
        p.play_str("53x1"),
        Err(ParseError::InvalidColumn {
            index: 2,
            ch: 'x',
            width: 7
        })
    );
    assert_eq!(p, parse("4453"));
    let mut p = parse("4444");
    assert_eq!(
        p.play_str(" 4 4"),
        Err(ParseError::InvalidColumn {
            index: 2,
            ch: ' ',
            width: 7
        })
    );
    assert_eq!(p, parse("44444"));
    let mut p = parse("44444");
    assert_eq!(
        p.play_str("  44"),
        Err(ParseError::ColumnFull {
            index: 3,
            column: 4
        })
    );
    assert_eq!(p, parse("444444"));
    let mut p = parse("121212");
    assert_eq!(p.play_str("12"), Err(ParseError::GameOver { index: 1 }));
    assert_eq!(p, parse("1212121"));
}

#[test]
fn column_characters_round_trip() {
    for col in 0..35 {
        let ch = c4::position::column_char(col);
        assert_eq!(c4::position::column_from_char(ch, 35), Some(col));
        assert_eq!(
            c4::position::column_from_char(ch.to_ascii_uppercase(), 35),
            Some(col)
        );
        assert_eq!(c4::position::column_from_char(ch, col), None);
    }
    assert_eq!(c4::position::column_char(0), '1');
    assert_eq!(c4::position::column_char(8), '9');
    assert_eq!(c4::position::column_char(9), 'a');
    assert_eq!(c4::position::column_from_char('0', 35), None);
    assert_eq!(c4::position::moves_to_string(&[3, 3, 9, 0]), "44a1");
}

#[test]
fn letters_name_columns_ten_and_up() {
    type Wide = Position<10, 5>;
    let a = Wide::parse("a").unwrap();
    assert_eq!(a.column_height(9), 1);
    assert_eq!(Wide::parse("A"), Ok(a));
    assert_eq!(Wide::parse("9a").unwrap().column_height(8), 1);
    assert_eq!(
        Wide::parse("ab"),
        Err(ParseError::InvalidColumn {
            index: 1,
            ch: 'b',
            width: 10
        })
    );
    assert_eq!(
        Wide::parse("aaaaaa"),
        Err(ParseError::ColumnFull {
            index: 5,
            column: 10
        })
    );
    assert_eq!(
        Wide::parse("a9").unwrap().to_string(),
        ". . . . . . . . . .\n\
         . . . . . . . . . .\n\
         . . . . . . . . . .\n\
         . . . . . . . . . .\n\
         . . . . . . . . O X\n\
         1 2 3 4 5 6 7 8 9 a\n\
         X to move (move 3)"
    );
    // On a narrow board the digits past the width are not columns.
    assert_eq!(
        Position::<4, 4>::parse("5"),
        Err(ParseError::InvalidColumn {
            index: 0,
            ch: '5',
            width: 4
        })
    );
}

#[test]
fn small_board_full_without_a_win() {
    // 4x4: columns filled in the order below leave no four (checked with the
    // model), and a 17th move is one too many.
    let mut rng = Rng(4);
    let mut found = None;
    for _ in 0..10_000 {
        if let Some(g) = random_game::<4, 4>(&mut rng, 16) {
            found = Some(g);
            break;
        }
    }
    let game = found.expect("a drawn 4x4 game");
    let s = moves_string(&game);
    let pos = Position::<4, 4>::parse(&s).unwrap();
    assert!(pos.is_full() && !pos.is_won());
    assert!(pos.to_string().ends_with("the board is full: draw"));
    assert_eq!(
        Position::<4, 4>::parse(&format!("{s}1")),
        Err(ParseError::TooManyMoves { index: 16 })
    );
}

#[test]
fn display_shows_board_and_turn() {
    assert_eq!(
        P::new().to_string(),
        ". . . . . . .\n\
         . . . . . . .\n\
         . . . . . . .\n\
         . . . . . . .\n\
         . . . . . . .\n\
         . . . . . . .\n\
         1 2 3 4 5 6 7\n\
         X to move (move 1)"
    );
    assert_eq!(
        parse("4453").to_string(),
        ". . . . . . .\n\
         . . . . . . .\n\
         . . . . . . .\n\
         . . . . . . .\n\
         . . . O . . .\n\
         . . O X X . .\n\
         1 2 3 4 5 6 7\n\
         X to move (move 5)"
    );
    assert_eq!(
        parse("44537").to_string(),
        ". . . . . . .\n\
         . . . . . . .\n\
         . . . . . . .\n\
         . . . . . . .\n\
         . . . O . . .\n\
         . . O X X . X\n\
         1 2 3 4 5 6 7\n\
         O to move (move 6)"
    );
    assert_eq!(
        parse("1212121").to_string(),
        ". . . . . . .\n\
         . . . . . . .\n\
         X . . . . . .\n\
         X O . . . . .\n\
         X O . . . . .\n\
         X O . . . . .\n\
         1 2 3 4 5 6 7\n\
         X has won on move 7"
    );
    assert_eq!(
        Position::<4, 4>::parse("1234").unwrap().to_string(),
        ". . . .\n\
         . . . .\n\
         . . . .\n\
         X O X O\n\
         1 2 3 4\n\
         X to move (move 5)"
    );
    let p = parse("4453");
    assert_eq!(p.side_to_move(), Player::First);
    assert_eq!(p.stone_at(3, 0), Some(Player::First));
    assert_eq!(p.stone_at(3, 1), Some(Player::Second));
    assert_eq!(p.stone_at(2, 0), Some(Player::Second));
    assert_eq!(p.stone_at(3, 2), None);
}

/// Every position reachable on a 4x4 board (games stop at a win), by depth-
/// first search over the naive model, with the library position alongside.
fn all_4x4_positions() -> HashMap<Naive<4, 4>, Position<4, 4>> {
    fn visit(
        naive: Naive<4, 4>,
        pos: Position<4, 4>,
        seen: &mut HashMap<Naive<4, 4>, Position<4, 4>>,
    ) {
        if seen.insert(naive, pos).is_some() || naive.won || naive.is_full() {
            return;
        }
        for col in 0..4 {
            if naive.can_play(col) {
                let (mut n, mut p) = (naive, pos);
                n.play(col);
                p.play_col(col);
                visit(n, p, seen);
            }
        }
    }
    let mut seen = HashMap::new();
    visit(Naive::new(), Position::new(), &mut seen);
    seen
}

#[test]
fn keys_are_unique_over_every_4x4_position() {
    let all = all_4x4_positions();
    assert!(all.len() > 10_000, "only {} positions", all.len());
    let mut by_key: HashMap<u64, Naive<4, 4>> = HashMap::new();
    for (naive, pos) in &all {
        assert!(pos.key() < 1 << Position::<4, 4>::KEY_BITS);
        if let Some(other) = by_key.insert(pos.key(), *naive) {
            panic!(
                "key {} shared by two positions:\n{naive:?}\n{other:?}",
                pos.key()
            );
        }
        // The mirror image: same symmetric key; the same key only if the
        // position is its own mirror.
        let mirror = pos.mirrored();
        assert_eq!(mirror.key(), Position::<4, 4>::mirror(pos.key()));
        assert_eq!(mirror.symmetric_key().0, pos.symmetric_key().0);
        assert_eq!(mirror.key() == pos.key(), mirror == *pos);
        assert_eq!(
            pos.symmetric_key().0,
            pos.key().min(Position::<4, 4>::mirror(pos.key())),
            "symmetric key is the smaller key"
        );
    }
}

#[test]
fn keys_are_unique_over_7x6_positions_up_to_eight_moves() {
    // Number of distinct positions after n moves (games stop at a win), the
    // known counts for the standard board.
    const KNOWN: [usize; 9] = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275];
    let mut level: HashMap<Naive<7, 6>, P> = HashMap::from([(Naive::new(), P::new())]);
    let mut by_key: HashMap<u64, Naive<7, 6>> = HashMap::new();
    for (depth, &known) in KNOWN.iter().enumerate() {
        assert_eq!(level.len(), known, "positions after {depth} moves");
        let mut next = HashMap::new();
        for (naive, pos) in &level {
            if let Some(other) = by_key.insert(pos.key(), *naive) {
                panic!("key {} shared by\n{pos}\nand {other:?}", pos.key());
            }
            if naive.won {
                continue;
            }
            for col in (0..7).filter(|&c| naive.can_play(c)) {
                let (mut n, mut p) = (*naive, *pos);
                n.play(col);
                p.play_col(col);
                next.insert(n, p);
            }
        }
        level = next;
    }
}

#[test]
fn mirror_symmetry() {
    let s = "4453212";
    let mirrored: String = s
        .chars()
        .map(|c| char::from_digit(8 - c.to_digit(10).unwrap(), 10).unwrap())
        .collect();
    let (p, m) = (parse(s), parse(&mirrored));
    assert_eq!(p.mirrored(), m);
    assert_eq!(m.mirrored(), p);
    assert_ne!(p.key(), m.key());
    assert_eq!(p.symmetric_key().0, m.symmetric_key().0);
    assert_ne!(p.symmetric_key().1, m.symmetric_key().1);
    // A position is its own mirror only if it is symmetric.
    let asym = parse("444435");
    assert_ne!(asym, asym.mirrored());
    let sym = parse("4444");
    assert_eq!(sym, sym.mirrored());
    assert_eq!(sym.symmetric_key(), (sym.key(), false));
}

/// The parser's specification, written out on the naive model: leading and
/// trailing whitespace is skipped, indexes count characters of the whole
/// string, and each character is checked in this order: is it a column of
/// the board, is the game already won, is the board full, is the column full.
fn reference_parse<const W: usize, const H: usize>(s: &str) -> Result<Naive<W, H>, ParseError> {
    let lead = s.chars().take_while(|c| c.is_whitespace()).count();
    let mut b = Naive::<W, H>::new();
    for (i, ch) in s.trim().chars().enumerate() {
        let index = lead + i;
        let col = match ch {
            '1'..='9' => Some(ch as usize - '1' as usize),
            'a'..='z' => Some(ch as usize - 'a' as usize + 9),
            'A'..='Z' => Some(ch as usize - 'A' as usize + 9),
            _ => None,
        }
        .filter(|&c| c < W)
        .ok_or(ParseError::InvalidColumn {
            index,
            ch,
            width: W,
        })?;
        if b.won {
            return Err(ParseError::GameOver { index });
        }
        if b.is_full() {
            return Err(ParseError::TooManyMoves { index });
        }
        if !b.can_play(col) {
            return Err(ParseError::ColumnFull {
                index,
                column: col + 1,
            });
        }
        b.play(col);
    }
    Ok(b)
}

/// Whether a library position holds the same stones as a naive board.
fn same_board<const W: usize, const H: usize>(pos: &Position<W, H>, naive: &Naive<W, H>) -> bool {
    pos.moves_played() == naive.moves
        && (0..W).all(|c| {
            (0..H).all(|r| {
                let want = match naive.cells[c][r] {
                    0 => None,
                    1 => Some(Player::First),
                    _ => Some(Player::Second),
                };
                pos.stone_at(c, r) == want
            })
        })
}

/// Checks `Position::<W, H>::parse(s)` against the reference, and a
/// successful parse against replaying the characters one by one.
fn check_parse<const W: usize, const H: usize>(s: &str) -> Result<(), TestCaseError> {
    let got = Position::<W, H>::parse(s);
    let want = reference_parse::<W, H>(s);
    match (&got, &want) {
        (Ok(pos), Ok(naive)) => {
            prop_assert!(same_board(pos, naive), "{s:?}: board differs:\n{pos}");
            let mut replay = Position::<W, H>::new();
            for ch in s.trim().chars() {
                let col = ch.to_digit(36).unwrap() as usize - 1;
                prop_assert!(replay.can_play(col), "{s:?}: replay");
                replay.play_col(col);
            }
            prop_assert_eq!(&replay, pos, "{:?}: replay differs", s);
        }
        (Err(e), Err(f)) => prop_assert_eq!(e, f, "{:?}", s),
        _ => prop_assert!(false, "{s:?}: parse gave {got:?}, expected {want:?}"),
    }
    Ok(())
}

/// Strings that are mostly moves: many digits of valid columns, a few of
/// every other kind of character, sometimes surrounded by whitespace.
fn mostly_moves() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        30 => (b'1'..=b'7').prop_map(char::from),
        1 => prop::sample::select(vec!['0', '8', '9', 'a', 'G', 'x', ' ', '\r', '\n', '\t', 'é']),
        1 => any::<char>(),
    ];
    let pad = prop::sample::select(vec!["", "", " ", "\t ", "\r\n", "\u{3000}"]);
    (pad.clone(), prop::collection::vec(ch, 0..60), pad)
        .prop_map(|(a, body, b)| format!("{a}{}{b}", body.into_iter().collect::<String>()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parser_never_panics_on_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..80)) {
        let s = String::from_utf8_lossy(&bytes);
        check_parse::<7, 6>(&s)?;
        check_parse::<4, 4>(&s)?;
    }

    #[test]
    fn parser_never_panics_on_random_strings(s in any::<String>()) {
        check_parse::<7, 6>(&s)?;
    }

    #[test]
    fn parser_matches_reference_on_mostly_moves(s in mostly_moves()) {
        check_parse::<7, 6>(&s)?;
        check_parse::<4, 4>(&s)?;
        check_parse::<5, 4>(&s)?;
        check_parse::<8, 6>(&s)?;
    }
}

/// Compares everything the library says about `pos` with the naive model.
fn check_against_naive<const W: usize, const H: usize>(
    moves: &[usize],
    pos: &Position<W, H>,
    naive: &Naive<W, H>,
) -> Result<(), TestCaseError> {
    let s = moves_string(moves);
    prop_assert!(same_board(pos, naive), "{s}: stones differ");
    prop_assert_eq!(pos.moves_played(), naive.moves);
    prop_assert_eq!(pos.is_won(), naive.won, "{}: is_won", s);
    prop_assert_eq!(pos.is_full(), naive.is_full(), "{}: is_full", s);
    prop_assert_eq!(pos.is_game_over(), naive.won || naive.is_full());
    let expected_side = if naive.player_to_move() == 1 {
        Player::First
    } else {
        Player::Second
    };
    prop_assert_eq!(pos.side_to_move(), expected_side);
    for c in 0..W {
        prop_assert_eq!(
            pos.column_height(c),
            naive.heights[c],
            "{}: height {}",
            s,
            c
        );
        prop_assert_eq!(pos.can_play(c), naive.can_play(c), "{}: can_play {}", s, c);
    }
    if naive.won {
        return Ok(());
    }
    let me = naive.player_to_move();
    let them = 3 - me;
    let mut can_win = false;
    for c in 0..W {
        for r in naive.heights[c]..H {
            let bit = 1u64 << (c * (H + 1) + r);
            prop_assert_eq!(
                pos.winning_cells() & bit != 0,
                naive.makes_four(c, r, me),
                "{}: winning_cells at column {} row {}",
                s,
                c,
                r
            );
            prop_assert_eq!(
                pos.opponent_winning_cells() & bit != 0,
                naive.makes_four(c, r, them),
                "{}: opponent_winning_cells at column {} row {}",
                s,
                c,
                r
            );
        }
        if naive.can_play(c) {
            prop_assert_eq!(
                pos.is_winning_move(c),
                naive.is_winning_move(c),
                "{}: is_winning_move({})",
                s,
                c
            );
            can_win |= naive.is_winning_move(c);
        }
    }
    prop_assert_eq!(pos.can_win_next(), can_win, "{}: can_win_next", s);
    Ok(())
}

/// Plays a whole random game and checks every position of it.
fn check_game<const W: usize, const H: usize>(seed: u64) -> Result<(), TestCaseError> {
    let moves = random_finished_game::<W, H>(&mut Rng(seed));
    let mut pos = Position::<W, H>::new();
    let mut naive = Naive::<W, H>::new();
    check_against_naive(&[], &pos, &naive)?;
    for (i, &c) in moves.iter().enumerate() {
        pos.play_col(c);
        naive.play(c);
        check_against_naive(&moves[..=i], &pos, &naive)?;
    }
    Ok(())
}

/// Checks that `non_losing_moves` holds exactly the moves after which the
/// opponent cannot connect four at once (the side to move cannot win at once).
fn check_non_losing<const W: usize, const H: usize>(moves: &[usize]) -> Result<(), TestCaseError> {
    let pos = common::position_from_moves::<W, H>(moves);
    let naive = Naive::<W, H>::from_moves(moves);
    if pos.can_win_next() || pos.is_game_over() {
        return Ok(());
    }
    let safe = pos.non_losing_moves();
    prop_assert_eq!(safe & !pos.possible(), 0, "not a subset of possible");
    for c in 0..W {
        if !naive.can_play(c) {
            continue;
        }
        let mut after = naive;
        after.play(c);
        let opponent_wins = (0..W).any(|d| after.can_play(d) && after.is_winning_move(d));
        let listed = safe & Position::<W, H>::column_mask(c) != 0;
        prop_assert_eq!(
            listed,
            !opponent_wins,
            "{}: column {} listed {} but the opponent {} win at once after it",
            moves_string(moves),
            c + 1,
            listed,
            if opponent_wins { "can" } else { "cannot" }
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn bitboard_agrees_with_the_naive_model(seed in any::<u64>()) {
        check_game::<7, 6>(seed)?;
        check_game::<4, 4>(seed)?;
        check_game::<5, 4>(seed)?;
        check_game::<4, 5>(seed)?;
        check_game::<8, 7>(seed)?;
    }

    #[test]
    fn non_losing_moves_never_hand_over_a_win(seed in any::<u64>(), n in 0usize..=41) {
        let mut rng = Rng(seed);
        if let Some(moves) = random_game::<7, 6>(&mut rng, n) {
            check_non_losing::<7, 6>(&moves)?;
        }
        if let Some(moves) = random_game::<4, 4>(&mut rng, n.min(15)) {
            check_non_losing::<4, 4>(&moves)?;
        }
    }

    #[test]
    fn mirror_of_random_positions(seed in any::<u64>(), n in 0usize..=42) {
        let moves = random_finished_game::<7, 6>(&mut Rng(seed));
        let moves = &moves[..n.min(moves.len())];
        let mirrored: Vec<usize> = moves.iter().map(|&c| 6 - c).collect();
        let p = parse(&moves_string(moves));
        let m = parse(&moves_string(&mirrored));
        prop_assert_eq!(p.mirrored(), m);
        prop_assert_eq!(m.key(), Position::<7, 6>::mirror(p.key()));
        prop_assert_eq!(p.symmetric_key().0, m.symmetric_key().0);
        prop_assert_eq!(p.key() == m.key(), p == m);
        prop_assert_eq!(p.is_won(), m.is_won());
    }

    /// Playing a move string in two parts with `play_str` is the same as
    /// parsing it whole; on an error, the index is relative to the part
    /// given, and the position stops just before the offending character.
    #[test]
    fn play_str_continues_a_position(prefix in "[1-7]{0,30}", suffix in "[0-8]{0,30}") {
        let whole = format!("{prefix}{suffix}");
        let Ok(mut p) = P::parse(&prefix) else {
            return Ok(());
        };
        match (P::parse(&whole), p.play_str(&suffix)) {
            (Ok(a), Ok(())) => prop_assert_eq!(a, p),
            (Err(e), Err(f)) => {
                prop_assert_eq!(e.index(), f.index() + prefix.len());
                let shifted = match e {
                    ParseError::InvalidColumn { ch, width, .. } => {
                        ParseError::InvalidColumn { index: f.index(), ch, width }
                    }
                    ParseError::ColumnFull { column, .. } => {
                        ParseError::ColumnFull { index: f.index(), column }
                    }
                    ParseError::GameOver { .. } => ParseError::GameOver { index: f.index() },
                    ParseError::TooManyMoves { .. } => {
                        ParseError::TooManyMoves { index: f.index() }
                    }
                };
                prop_assert_eq!(f, shifted);
                prop_assert_eq!(p, parse(&whole[..e.index()]));
            }
            (a, b) => prop_assert!(false, "{whole}: parse {a:?}, play_str {b:?}"),
        }
    }
}

#[test]
fn parents_are_exactly_the_positions_one_move_earlier() {
    let all = all_4x4_positions();
    // What the parents must be: every position (not over) one move before.
    let mut expected: HashMap<u64, Vec<u64>> = HashMap::new();
    for (naive, pos) in &all {
        if naive.won || naive.is_full() {
            continue;
        }
        for col in (0..4).filter(|&c| pos.can_play(c)) {
            let mut child = *pos;
            child.play_col(col);
            expected.entry(child.key()).or_default().push(pos.key());
        }
    }
    let reachable: HashMap<u64, bool> = all
        .iter()
        .map(|(naive, pos)| (pos.key(), naive.won || naive.is_full()))
        .collect();
    let mut checked = 0;
    for pos in all.values() {
        let mut found = Vec::new();
        for parent in pos.parents() {
            assert_eq!(parent.moves_played() + 1, pos.moves_played());
            // Playing the removed stone again gives the position back.
            let col = (0..4)
                .find(|&c| parent.column_height(c) + 1 == pos.column_height(c))
                .expect("one column lost a stone");
            let mut again = parent;
            again.play_col(col);
            assert_eq!(again.key(), pos.key());
            // Parents that a game cannot reach (a four already on the board)
            // are allowed; the others are exactly the expected ones.
            if reachable.get(&parent.key()) == Some(&false) {
                found.push(parent.key());
            }
        }
        let mut want = expected.get(&pos.key()).cloned().unwrap_or_default();
        want.sort_unstable();
        found.sort_unstable();
        assert_eq!(found, want, "parents of {pos:?}");
        checked += usize::from(!want.is_empty());
    }
    assert!(checked > 10_000, "only {checked} positions have parents");
    assert_eq!(Position::<4, 4>::new().parents().count(), 0);
}
