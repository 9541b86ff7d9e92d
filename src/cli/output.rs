//! Writing results: the exit statuses, stderr messages that never panic,
//! how write errors end a command (a closed pipe quietly), and scores told
//! in words.

use std::io::{self, Write};

use c4::{Game, Player, Score};

/// Exit status: everything went well.
pub const EXIT_OK: u8 = 0;
/// Exit status: some input line was invalid, or a benchmark found a mismatch.
pub const EXIT_BAD_INPUT: u8 = 1;
/// Exit status: the command line itself was wrong (clap uses 2 too), or the
/// run would not fit in memory.
pub const EXIT_USAGE: u8 = 2;

/// Writes one message line on stderr. Errors are ignored: there is nowhere
/// left to report them, and `eprintln!` would panic.
pub fn warn(message: std::fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(message);
    let _ = err.write_all(b"\n");
}

/// The exit status after writing stdout failed with `error`, for a command
/// whose status so far was `code`.
///
/// A closed pipe (`c4 solve < many.txt | head -1`) is how a reader says it has
/// seen enough: the command stops quietly with the status it had so far. Any
/// other write error is reported and the status is 1.
pub fn after_write_error(command: &str, error: &io::Error, code: u8) -> u8 {
    if error.kind() == io::ErrorKind::BrokenPipe {
        code
    } else {
        warn(format_args!(
            "c4 {command}: cannot write the output: {error}"
        ));
        EXIT_BAD_INPUT
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, ..., `21st`, ...
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// How a game ends with perfect play, from an exact score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nobody can force a win.
    Draw,
    /// `winner` connects four with move `on_move` of the game (1-based),
    /// which is its `stone`-th stone from now (0 if it has already won).
    Win {
        /// The player who wins.
        winner: Player,
        /// The game's move number of the winning stone (1-based).
        on_move: usize,
        /// How many stones the winner plays from now, the winning one
        /// included; 0 when the last move has already won.
        stone: usize,
    },
}

/// Reads an exact score of `pos` (for the side to move) as the move on which
/// the game ends. The score of a win is `(W * H + 1 - n) / 2` (rounded down)
/// for a win by move `n + 1` of the game, where `n` has the parity of the
/// winner's turns; this inverts it.
pub fn outcome(pos: &Game, score: Score) -> Outcome {
    if score == 0 {
        return Outcome::Draw;
    }
    let played = pos.moves_played();
    let to_move = pos.side_to_move();
    if pos.is_won() {
        return Outcome::Win {
            winner: to_move.other(),
            on_move: played,
            stone: 0,
        };
    }
    // The winner's first move from now is move `first` of the game, 0-based:
    // `played` for the side to move, `played + 1` for its opponent.
    let (winner, first) = if score > 0 {
        (to_move, played)
    } else {
        (to_move.other(), played + 1)
    };
    let twice = 2 * score.unsigned_abs() as usize;
    // n = cells + 1 - 2s or cells - 2s, whichever has the winner's parity.
    let cells = pos.board().cells();
    let mut before = (cells + 1).saturating_sub(twice);
    if before % 2 != first % 2 {
        before = before.saturating_sub(1);
    }
    let before = before.max(first);
    Outcome::Win {
        winner,
        on_move: before + 1,
        stone: (before - first) / 2 + 1,
    }
}

/// A sentence saying what `score` means for `pos`, e.g. "X wins with its 3rd
/// stone from now (move 9)". With `weak`, the score is only a sign.
pub fn describe(pos: &Game, score: Score, weak: bool) -> String {
    let me = pos.side_to_move().symbol();
    let you = pos.side_to_move().other().symbol();
    if weak {
        return match score.signum() {
            1 => format!("{me} wins with perfect play"),
            -1 => format!("{me} loses: {you} wins with perfect play"),
            _ => "draw with perfect play".to_owned(),
        };
    }
    match outcome(pos, score) {
        Outcome::Draw => "draw with perfect play: the board fills up".to_owned(),
        Outcome::Win {
            winner,
            on_move,
            stone,
        } => {
            let stones = format!("{} stone from now", ordinal(stone));
            if winner == pos.side_to_move() {
                format!("{me} wins with its {stones} (move {on_move})")
            } else {
                format!("{me} loses: {you} wins with its {stones} (move {on_move})")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use c4::BoardSize;

    /// The 7x6 position after `moves`.
    fn parse(moves: &str) -> Game {
        Game::parse(BoardSize::STANDARD, moves).unwrap()
    }

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }

    /// A position with `n` stones and no four in a row; `outcome` only looks
    /// at how many stones there are (whose turn it is), not where they are.
    fn with_stones(n: usize) -> Game {
        let mut pos = Game::new(BoardSize::STANDARD);
        let mut next = 0;
        while pos.moves_played() < n {
            let col = (0..7)
                .map(|d| (next + d) % 7)
                .find(|&c| pos.can_play(c) && !pos.is_winning_move(c))
                .expect("a move that does not win");
            pos.play_col(col);
            next = (col + 3) % 7;
        }
        assert!(!pos.is_won());
        pos
    }

    #[test]
    fn outcome_inverts_the_score() {
        // The empty board: X wins with its last (21st) stone, move 41.
        assert_eq!(
            outcome(&Game::new(BoardSize::STANDARD), 1),
            Outcome::Win {
                winner: Player::First,
                on_move: 41,
                stone: 21
            }
        );
        // X to move with three stones in column 1 wins at once, on move 7.
        let p = parse("121212");
        assert_eq!(
            outcome(&p, p.win_next_score()),
            Outcome::Win {
                winner: Player::First,
                on_move: 7,
                stone: 1
            }
        );
        // O to move after "1212121" has lost on move 7 (the solver's score).
        let won = parse("1212121");
        assert_eq!(
            outcome(&won, -((42 + 2 - 7) / 2)),
            Outcome::Win {
                winner: Player::First,
                on_move: 7,
                stone: 0
            }
        );
        assert_eq!(outcome(&Game::new(BoardSize::STANDARD), 0), Outcome::Draw);
    }

    #[test]
    fn every_win_maps_back_to_its_score() {
        for played in 0..42 {
            let pos = with_stones(played);
            // A win by the side to move, then by its opponent.
            for (sign, first) in [(1, played), (-1, played + 1)] {
                for s in 1..=(42 + 1 - first as i32) / 2 {
                    let Outcome::Win { on_move, stone, .. } = outcome(&pos, sign * s) else {
                        panic!("a nonzero score is a win");
                    };
                    let before = on_move - 1;
                    assert_eq!((42 + 1 - before as i32) / 2, s, "{played} {sign} {s}");
                    assert_eq!(before % 2, first % 2, "{played} {sign} {s}");
                    assert_eq!(first + 2 * (stone - 1), before);
                }
            }
        }
    }
}
