//! The board as `c4 play` draws it: the last stone played in brackets, and
//! X and O in red and yellow when colour is on.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};

use c4::rules::column_char;
use c4::{Game, Player};

/// The style of a player's stones in colour: X red, O yellow, both bold.
fn style(player: Player) -> Style {
    let colour = match player {
        Player::First => AnsiColor::Red,
        Player::Second => AnsiColor::Yellow,
    };
    Style::new().fg_color(Some(colour.into())).bold()
}

/// Draws `game` top row first, one character per cell (`X`, `O` or `.`)
/// after a space, with the top stone of column `last` (0-based, the last
/// move) between brackets instead of spaces, the column labels below and a
/// line saying whose turn it is or how the game ended, as the library draws
/// a position. With `colour`, stones are written in ANSI colours.
pub fn draw(game: &Game, last: Option<usize>, colour: bool) -> String {
    let width = game.width();
    // The cell of the last stone: its column and row.
    let marked = last.and_then(|col| {
        let height = game.column_height(col);
        (height > 0).then(|| (col, height - 1))
    });
    let mut text = String::new();
    for row in (0..game.height()).rev() {
        for col in 0..width {
            let here = marked == Some((col, row));
            let after_marked = col > 0 && marked == Some((col - 1, row));
            text.push(if here {
                '['
            } else if after_marked {
                ']'
            } else {
                ' '
            });
            match game.stone_at(col, row) {
                None => text.push('.'),
                Some(player) if colour => {
                    let style = style(player);
                    let _ = write!(text, "{style}{}{style:#}", player.symbol());
                }
                Some(player) => text.push(player.symbol()),
            }
        }
        if marked == Some((width - 1, row)) {
            text.push(']');
        }
        text.push('\n');
    }
    for col in 0..width {
        text.push(' ');
        text.push(column_char(col));
    }
    text.push('\n');
    if game.is_won() {
        let winner = game.side_to_move().other().symbol();
        let _ = write!(text, "{winner} has won on move {}", game.moves_played());
    } else if game.is_full() {
        text.push_str("the board is full: draw");
    } else {
        let _ = write!(
            text,
            "{} to move (move {})",
            game.side_to_move().symbol(),
            game.moves_played() + 1
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4::BoardSize;

    fn game(moves: &str) -> Game {
        Game::parse(BoardSize::new(4, 4).unwrap(), moves).unwrap()
    }

    #[test]
    fn the_last_stone_is_in_brackets() {
        assert_eq!(
            draw(&game("1124"), Some(3), false),
            " . . . .\n . . . .\n O . . .\n X X .[O]\n 1 2 3 4\nX to move (move 5)"
        );
        assert_eq!(
            draw(&game("112"), Some(0), false),
            " . . . .\n . . . .\n[O]. . .\n X X . .\n 1 2 3 4\nO to move (move 4)"
        );
        assert_eq!(
            draw(&game(""), None, false),
            " . . . .\n . . . .\n . . . .\n . . . .\n 1 2 3 4\nX to move (move 1)"
        );
    }

    #[test]
    fn the_end_of_the_game_is_said() {
        let won = Game::parse(BoardSize::STANDARD, "1212121").unwrap();
        assert!(draw(&won, Some(0), false).ends_with("\nX has won on move 7"));
        let full = game("1234123421433412");
        assert!(full.is_full() && !full.is_won());
        assert!(draw(&full, Some(1), false).ends_with("\nthe board is full: draw"));
    }

    #[test]
    fn colour_only_when_asked() {
        let plain = draw(&game("12"), Some(1), false);
        assert!(!plain.contains('\x1b'), "{plain}");
        let coloured = draw(&game("12"), Some(1), true);
        // X red (31) and O yellow (33), each reset after its letter.
        assert!(coloured.contains("\x1b[1m\x1b[31mX\x1b[0m"), "{coloured:?}");
        assert!(
            coloured.contains("[\x1b[1m\x1b[33mO\x1b[0m]"),
            "{coloured:?}"
        );
    }
}
