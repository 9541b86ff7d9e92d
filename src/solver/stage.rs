//! The stages of the game, as the solver tells them at a root: which
//! searches are small, where scores lie near zero, where the tree is small
//! enough for one window, where threads pay. The probe policy (`probes`),
//! the table placement (`placement`) and the threads (`parallel`) ask a
//! root's [`Stage`] rather than count stones or empty cells themselves.

use crate::Bitboard;
use crate::position::Position;
use crate::settings::{
    BIG_SCORES_END_STONES, EARLIEST_END_STONES, LATE_GAME_MAX_EMPTY, MIDDLE_GAME_MAX_EMPTY,
    OPENING_END_STONES, PARALLEL_MIN_EMPTY, SECOND_PLAYER_BOARD_HEIGHT,
};

/// Cells of the standard 7x6 board, by which the earliest stage of bigger
/// boards is counted (see [`Stage::earliest`]).
const STANDARD_CELLS: usize = 7 * 6;

/// Whether a board of `height` rows is one of four rows, where the second
/// player follows up on the even rows (see [`SECOND_PLAYER_BOARD_HEIGHT`]):
/// the sign bet, the probe order and the move order differ there.
pub(crate) const fn is_four_row_board(height: usize) -> bool {
    height == SECOND_PLAYER_BOARD_HEIGHT
}

/// Where in the game a root stands: computed once per root (`Root::of`)
/// from its stones, its empty cells and its board.
///
/// Each stage is bounded in one unit: the earliest positions, the
/// opening and the stretch where big scores are common end at a stone
/// count; the middle and the late game begin at a count of empty cells.
/// Along a game on 7x6 the stages come in order (earliest: 0-2 stones,
/// opening: 3-7, opening's end: 8-14, middle: 15-23, late: 24 on), the
/// late game being the end of the middle one. They overlap where the board
/// is far from 7x6: on 4x4 every position is late, its first ones earliest
/// too; on 8x8 a position of 8 stones is still earliest. So each is a
/// question, not a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stage {
    /// Stones on the board.
    stones: usize,
    /// Empty cells.
    empty: usize,
    /// Whether the board has four rows (see [`is_four_row_board`]).
    four_rows: bool,
}

impl Stage {
    /// The stage of `pos`.
    pub fn of<const W: usize, const H: usize, B: Bitboard>(pos: &Position<W, H, B>) -> Stage {
        Stage {
            stones: pos.moves_played(),
            empty: pos.empty_cells(),
            four_rows: is_four_row_board(H),
        }
    }

    /// The earliest positions: fewer than [`EARLIEST_END_STONES`] stones,
    /// or on boards bigger than 7x6 more empty cells than 7x6 has then.
    /// Their searches outgrow the small table (see `placement`), and on
    /// several threads they neither share the sign probe nor watch their
    /// paths (see `probes::choose_probe`, `Cooperation::watching_path`).
    pub fn earliest(self) -> bool {
        self.stones < EARLIEST_END_STONES || self.empty > STANDARD_CELLS - EARLIEST_END_STONES
    }

    /// The opening, the earliest positions included: fewer than
    /// [`OPENING_END_STONES`] stones. Its scores lie near zero and its
    /// threats are too few to guess the winner (see `probes::sign_probe`).
    pub fn opening(self) -> bool {
        self.stones < OPENING_END_STONES
    }

    /// The middle game: past the opening, and at most
    /// [`MIDDLE_GAME_MAX_EMPTY`] empty cells (the late game included).
    /// Scores lie near zero again, and big scores are rarely proved.
    pub fn middle(self) -> bool {
        !self.opening() && self.empty <= MIDDLE_GAME_MAX_EMPTY
    }

    /// The opening's end: past the opening, before the middle game (8 to
    /// 14 stones on 7x6). Its scores mostly lie far from zero.
    pub fn openings_end(self) -> bool {
        !self.opening() && !self.middle()
    }

    /// The late game: at most [`LATE_GAME_MAX_EMPTY`] empty cells, where
    /// the whole tree is small.
    pub fn late(self) -> bool {
        self.empty <= LATE_GAME_MAX_EMPTY
    }

    /// Where big scores are common: fewer than [`BIG_SCORES_END_STONES`]
    /// stones (see `probes::weak_score`).
    pub fn big_scores_common(self) -> bool {
        self.stones < BIG_SCORES_END_STONES
    }

    /// Whether a search from here is worth several threads: at least
    /// [`PARALLEL_MIN_EMPTY`] empty cells (past the late game).
    pub fn worth_threads(self) -> bool {
        self.empty >= PARALLEL_MIN_EMPTY
    }

    /// Whether the board has four rows (see [`is_four_row_board`]).
    pub fn four_rows(self) -> bool {
        self.four_rows
    }
}

#[cfg(test)]
mod tests {
    use super::Stage;
    use crate::position::Position;

    fn stage<const W: usize, const H: usize>(moves: &str) -> Stage {
        Stage::of(&Position::<W, H, u64>::parse(moves).unwrap())
    }

    /// The stages a stage answers yes to, in order.
    fn names(s: Stage) -> Vec<&'static str> {
        [
            (s.earliest(), "earliest"),
            (s.opening(), "opening"),
            (s.openings_end(), "opening's end"),
            (s.middle(), "middle"),
            (s.late(), "late"),
        ]
        .into_iter()
        .filter_map(|(yes, name)| yes.then_some(name))
        .collect()
    }

    #[test]
    fn a_game_on_seven_by_six_passes_the_stages_in_order() {
        // Witness: the bounds in settings (3 and 8 stones, 27 and 18 empty
        // cells) on a 42-cell board, along a game that plays the first
        // column (from the left) that does not win.
        let mut pos = Position::<7, 6, u64>::parse("").unwrap();
        let mut seen = Vec::new();
        for stones in 0..42 {
            let s = Stage::of(&pos);
            let expected: &[&str] = match stones {
                0..=2 => &["earliest", "opening"],
                3..=7 => &["opening"],
                8..=14 => &["opening's end"],
                15..=23 => &["middle"],
                _ => &["middle", "late"],
            };
            assert_eq!(names(s), expected, "{stones} stones");
            assert_eq!(s.big_scores_common(), stones < 16, "{stones} stones");
            assert_eq!(s.worth_threads(), stones <= 22, "{stones} stones");
            assert!(!s.four_rows());
            seen.push(names(s));
            if stones == 41 {
                break;
            }
            let col = (0..7)
                .find(|&col| pos.can_play(col) && !pos.is_winning_move(col))
                .expect("a move that does not end the game");
            pos.play_col(col);
        }
        seen.dedup();
        assert_eq!(seen.len(), 5, "five stretches: {seen:?}");
    }

    #[test]
    fn boards_far_from_seven_by_six_overlap_stages() {
        // 8x8: 8 stones leave 56 empty cells, more than 7x6 has after 3.
        assert_eq!(
            names(stage::<8, 8>("12345678")),
            ["earliest", "opening's end"]
        );
        // 4x4: every position is late, the first ones earliest as well.
        assert_eq!(names(stage::<4, 4>("")), ["earliest", "opening", "late"]);
        // 9x4: four rows; 8 stones leave 28 empty cells, the opening's end.
        let wide = stage::<9, 4>("59376426");
        assert!(wide.four_rows());
        assert_eq!(names(wide), ["opening's end"]);
        assert_eq!(names(stage::<9, 4>("593764261")), ["middle"]);
    }
}
