//! Strategies after Victor Allis's strategic rules ("A Knowledge-based
//! Approach of Connect-Four", 1988): for a position and the player who
//! controls the zugzwang, a set of compatible rule applications whose cells
//! settle every group (possible four) the opponent can still complete. Such
//! a set guarantees that player at least a draw; with a group of its own
//! whose empty cells it is sure to get (an aftereven), a win.
//!
//! # The strategy: the controller answers every move
//! A strategy is played by the controller, the player *not* to move, and
//! only when the number of empty cells is even: the opponent moves, the
//! controller answers, and the empty cells are filled two at a time. Each
//! column's empty cells are cut into, bottom up:
//!
//! - a **ladder** (maybe none): cross pairs with one partner column, level
//!   by level; both bottom cells are playable now, and each rung becomes
//!   playable all at once when the rung below is filled. When the opponent
//!   plays one cell of a rung, the controller answers on the other: it gets
//!   one cell of each rung, the opponent choosing which;
//! - **stacked pairs** to the top: two cells one above the other. The upper
//!   one cannot be played before the lower one, so the opponent takes the
//!   lower and the controller answers directly above it;
//! - in a column with an odd number of cells above its ladder, its top
//!   cell, which is paired with the top cell of one other such column
//!   (the columns of a **highinverse**). When the opponent plays one of
//!   the two tops, the controller plays the lowest empty cell of the other
//!   column: its top if the column is full below it, else the lower cell of
//!   a stacked pair, after which that column's remaining cells pair up one
//!   cell higher (the controller answers above again, and gets the top).
//!
//! After every answer each rung and each stacked pair is full or empty, so
//! a move of the opponent's is always the lower cell of a stacked pair, a
//! cell of a rung whose partner is playable, or a top: the controller always
//! has its answer, and the opponent gets exactly the cells these answers
//! leave it. A group of the opponent's is settled, never completed, when it
//! holds a cell the controller is sure to get (the upper cell of a stacked
//! pair in a column without a top), both cells of a rung, or, for a
//! highinverse, a cell the controller gets in every case of which top the
//! opponent plays first and when (if it plays the top of column `c` first,
//! the controller has every upper cell of `c`'s pairs, the other top, and
//! in the other column the upper cells of the pairs filled before and the
//! lower cells of those after). The choices the opponent makes in different
//! rungs and highinverses are independent, so a group is settled when one
//! of them settles it.
//!
//! # The rules
//! Allis's rules, as the parts of such a strategy:
//!
//! - **claimeven**: a stacked pair whose upper cell is in an even row
//!   (rows counted from 1 at the bottom) in a column without a top; the
//!   controller gets the even cell. Solves every group with that cell.
//! - **vertical**: a stacked pair whose upper cell is in an odd row, in a
//!   column without a top. Allis only promises one of the two cells (his
//!   controller may have to play the lower one itself); here the
//!   controller never does, and gets the upper cell. Solves every group
//!   with it, those with both cells among them.
//! - **baseinverse**: a ladder's bottom rung, two cells playable now.
//!   Solves every group with both cells.
//! - **inverse**: a ladder's higher rung. Solves every group with both
//!   cells; with the rung below, it is Allis's lowinverse's pair of pairs.
//! - **highinverse**: two columns with tops, as above. With one stacked
//!   pair under each top it is Allis's highinverse (the two upper cells,
//!   the two middle ones, and each column's two verticals are solved);
//!   here any number of pairs.
//! - **aftereven**: a group of the controller's, with no stone of the
//!   opponent's, whose every empty cell the controller is sure to get: it
//!   completes the group unless the game ends first. A group of the
//!   opponent's that has, in the column of each of those cells, a cell
//!   above it, is filled only after them: the controller completes its four
//!   first. Solves those groups, and once every other group is settled the
//!   controller wins.
//!
//! Which applications combine: those of one assignment of the columns, as
//! above (each empty cell has one part; each column at most one ladder and
//! at most one highinverse, and a column's highinverse partner is its
//! ladder's partner if it has a ladder, so that the shift never falls in a
//! rung); an aftereven rests on the claimevens and verticals of the same
//! assignment and combines with all of them. [`find`] tries every
//! assignment.
//!
//! Left out, because their guarantees need the controller to answer on a
//! cell outside its pairs (a free move that Allis's proofs account for and
//! this scheme never makes), and a sound version within it could not be
//! written: Allis's lowinverse with its extra guarantee (the verticals of
//! both columns), baseclaim, before and specialbefore. [`find`] is sound
//! without them, and proves fewer positions than Allis's program.
//!
//! # Any board size
//! Nothing assumes 7x6: rows are odd or even counted from the bottom on any
//! height, and any number of columns is assigned (wide boards within
//! [`MAX_ASSIGNMENTS`]). On a board with an odd number of cells the first
//! player is the one with an even number of empty cells to answer in.
//!
//! # Who is the controller
//! [`find`] looks for a strategy of the player not to move;
//! [`find_after_move`], for the player to move, for a move after which it
//! has one (a one-move search on top of the rules).

mod assign;
mod describe;

pub use assign::{MAX_ASSIGNMENTS, find, find_after_move};
pub use describe::{describe, draw, threats};

use crate::rules::Player;

/// A cell: 0-based column and row (0 = bottom).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// 0-based column, left to right.
    pub col: usize,
    /// 0-based row, 0 at the bottom.
    pub row: usize,
}

impl Cell {
    /// The cell in board notation: column letter and 1-based row (`d2`).
    pub fn name(&self) -> String {
        format!("{}{}", column_letter(self.col), self.row + 1)
    }
}

/// The letter of 0-based column `col` in board notation: `a` to `z`, then
/// `A` to `Z` on boards wider than 26 columns.
pub fn column_letter(col: usize) -> char {
    match col {
        0..26 => (b'a' + col as u8) as char,
        26..52 => (b'A' + (col - 26) as u8) as char,
        _ => '?',
    }
}

/// A group: four cells in a line, from one end to the other.
pub type Group = [Cell; 4];

/// The name of a group in board notation: its two ends (`a1-d4`).
pub fn group_name(group: &Group) -> String {
    format!("{}-{}", group[0].name(), group[3].name())
}

/// Which rule an application is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// A stacked pair, upper cell in an even row: the controller gets it.
    Claimeven,
    /// A stacked pair, upper cell in an odd row: the controller gets it.
    Vertical,
    /// Two cells playable now: the controller gets one of them.
    Baseinverse,
    /// Two cells above a baseinverse or inverse of the same two columns: the
    /// controller gets one of them.
    Inverse,
    /// Two columns, each with an odd number of cells left above its
    /// ladder: stacked pairs and the top cell; the two top cells are one
    /// pair (see the module's documentation).
    Highinverse,
    /// A group of the controller's whose empty cells it is sure to get:
    /// groups filled only after it are won first.
    Aftereven,
}

impl Rule {
    /// The rule's name, as in Allis's thesis (`inverse` is this module's).
    pub fn name(self) -> &'static str {
        match self {
            Rule::Claimeven => "claimeven",
            Rule::Vertical => "vertical",
            Rule::Baseinverse => "baseinverse",
            Rule::Inverse => "inverse",
            Rule::Highinverse => "highinverse",
            Rule::Aftereven => "aftereven",
        }
    }
}

/// One rule application of a strategy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Application {
    /// The rule.
    pub rule: Rule,
    /// Its cells: a pair (lower then upper for a stacked pair, left then
    /// right for a cross pair); a highinverse's cells column by column,
    /// bottom up, the left column first; an aftereven's group's empty cells.
    pub cells: Vec<Cell>,
    /// The cells the controller is sure to get by it (the upper cell of a
    /// stacked pair; none for the others, where it gets one cell of each
    /// pair, the opponent choosing).
    pub claimed: Vec<Cell>,
    /// For an aftereven, its group.
    pub group: Option<Group>,
    /// The opponent's groups this application is the first to settle (each
    /// group is listed under one application only).
    pub solved: Vec<Group>,
}

/// How the controller answers a move on an empty cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    /// On the cell directly above (stacked pairs).
    Above,
    /// On this cell (a ladder's rung).
    On(Cell),
    /// On the lowest empty cell of this column (a highinverse's top).
    LowestOf(usize),
}

/// A strategy for the controller, the player not to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strategy {
    /// The player the strategy is for.
    pub controller: Player,
    /// Whether it wins (an aftereven), rather than draws at least.
    pub wins: bool,
    /// The rule applications: the pairs, then the aftereven if any.
    pub applications: Vec<Application>,
    /// Every empty cell's answer, by cell index `col * height + row`.
    pub(crate) answers: Vec<Option<Answer>>,
    /// The board's height, for the index.
    pub(crate) height: usize,
}

impl Strategy {
    /// The controller's answer when the opponent has just played `cell`,
    /// `heights` being every column's number of stones after that move.
    /// `None` for a cell that was not empty when the strategy was found, or
    /// a position the strategy cannot arise in.
    pub fn reply(&self, cell: Cell, heights: &[usize]) -> Option<Cell> {
        let answer = (*self.answers.get(cell.col * self.height + cell.row)?)?;
        let target = match answer {
            Answer::Above => Cell {
                col: cell.col,
                row: cell.row + 1,
            },
            Answer::On(other) => other,
            Answer::LowestOf(col) => Cell {
                col,
                row: *heights.get(col)?,
            },
        };
        (target.row < self.height && heights.get(target.col) == Some(&target.row)).then_some(target)
    }

    /// Every group the strategy settles, with the application settling it.
    pub fn solved_groups(&self) -> impl Iterator<Item = (&Application, &Group)> {
        self.applications
            .iter()
            .flat_map(|a| a.solved.iter().map(move |g| (a, g)))
    }
}

/// Every group of four cells in a line on a `width` x `height` board.
pub fn all_groups(width: usize, height: usize) -> Vec<Group> {
    let mut groups = Vec::new();
    let (w, h) = (width as isize, height as isize);
    for col in 0..w {
        for row in 0..h {
            for (dc, dr) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (ec, er) = (col + 3 * dc, row + 3 * dr);
                if ec < 0 || ec >= w || er < 0 || er >= h {
                    continue;
                }
                let cell = |k: isize| Cell {
                    col: (col + k * dc) as usize,
                    row: (row + k * dr) as usize,
                };
                groups.push([cell(0), cell(1), cell(2), cell(3)]);
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    #[test]
    fn groups_are_counted_on_the_standard_board() {
        assert_eq!(all_groups(7, 6).len(), 69);
        assert_eq!(all_groups(4, 4).len(), 10);
    }

    #[test]
    fn cell_and_group_names_are_in_board_notation() {
        let g = all_groups(7, 6);
        assert_eq!(Cell { col: 3, row: 1 }.name(), "d2");
        assert!(g.iter().any(|g| group_name(g) == "a1-d4"));
    }

    #[test]
    fn no_strategy_is_found_with_an_odd_number_of_empty_cells() {
        let board = BoardSize::new(4, 4).unwrap();
        let game = crate::game::Game::parse(board, "1").unwrap();
        assert_eq!(game.empty_cells(), 15);
        assert!(find(&game).is_none());
    }
}
