//! Positions back from their keys: decoding a key, taking back the last
//! mover's stone, and finding a line of moves that reaches a position, on
//! the raw [`Stones`] of a board chosen at run time.

use std::collections::HashSet;

use super::Stones;
use crate::board::BoardSize;

impl Stones {
    /// The position of `board` whose key is `key`, if `key` describes a
    /// possible position: every column's stones packed from the bottom, the
    /// side to move having played as many stones as its turn says (half the
    /// stones, rounded down) and no four of its own. (Not every such
    /// position is reachable in a game: [`Stones::line`] finds a game.)
    ///
    /// Within a column of height `h`, the key holds `stones + 2^h - 1` (the
    /// side to move's stones plus the full mask below the column's top);
    /// these values fill `[2^h - 1, 2^(h+1) - 2]`, disjoint for every `h`, so
    /// the height is the bit length of `value + 1` minus one.
    pub(crate) fn from_key(board: BoardSize, key: u128) -> Option<Stones> {
        if key.checked_shr(board.key_bits()).unwrap_or(0) != 0 {
            return None;
        }
        let column_bits = board.height() + 1;
        let column = (1u128 << column_bits) - 1;
        let (mut current, mut mask) = (0u128, 0u128);
        for col in 0..board.width() {
            let value = (key >> (col * column_bits)) & column;
            let height = 127 - (value + 1).leading_zeros() as usize;
            if height > board.height() {
                return None;
            }
            let below = (1u128 << height) - 1;
            current |= (value - below) << (col * column_bits);
            mask |= below << (col * column_bits);
        }
        let moves = mask.count_ones();
        let stones = Stones {
            board,
            current,
            mask,
            moves,
        };
        // The side to move's stones hold no four: no game reaches that, the
        // game ended before its turn.
        (current.count_ones() == moves / 2 && !stones.has_four(current)).then_some(stones)
    }

    /// The position before the last mover played in 0-based column `col`:
    /// `None` if the column is empty or its top stone is not the last
    /// mover's. Whether that position can arise in a game is not checked.
    /// Panics outside the board.
    pub(crate) fn parent(&self, col: usize) -> Option<Stones> {
        let height = self.column_height(col);
        let top = self.cell_bit(col, height.checked_sub(1)?);
        let last_mover = self.mask ^ self.current;
        (last_mover & top != 0).then_some(Stones {
            board: self.board,
            current: last_mover ^ top,
            mask: self.mask ^ top,
            moves: self.moves - 1,
        })
    }

    /// A sequence of moves (0-based columns) that reaches this position from
    /// the empty board, or `None` if none does (a position that cannot arise
    /// in a game).
    ///
    /// Books store positions, not games; this finds a game by taking stones
    /// off the top of the columns, the last mover's first, never passing
    /// through a finished position: a depth-first search that remembers the
    /// positions it found no way back from, so that it visits each at most
    /// once (an unreachable position in an untrusted file cannot make it run
    /// for long).
    pub(crate) fn line(&self) -> Option<Vec<usize>> {
        fn back(stones: &Stones, line: &mut Vec<usize>, dead: &mut HashSet<u128>) -> bool {
            if stones.moves == 0 {
                return true;
            }
            if dead.contains(&stones.key()) {
                return false;
            }
            for col in 0..stones.board.width() {
                // Before the last mover's stone on top of `col`, the last mover
                // was to move, holding its stones but that one.
                let Some(before) = stones
                    .parent(col)
                    .and_then(|parent| Stones::from_key(stones.board, parent.key()))
                else {
                    continue;
                };
                if before.is_won() {
                    continue;
                }
                line.push(col);
                if back(&before, line, dead) {
                    return true;
                }
                line.pop();
            }
            dead.insert(stones.key());
            false
        }
        let mut line = Vec::new();
        back(self, &mut line, &mut HashSet::new()).then(|| {
            line.reverse();
            line
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replayed(board: BoardSize, moves: &str) -> Stones {
        let mut stones = Stones::new(board);
        stones.play_str(moves).unwrap();
        stones
    }

    #[test]
    fn a_key_decodes_to_its_position_and_a_line_replays_it() {
        for board in [BoardSize::STANDARD, BoardSize::new(8, 8).unwrap()] {
            let stones = replayed(board, "44536");
            assert_eq!(Stones::from_key(board, stones.key()), Some(stones));
            let line = stones.line().unwrap();
            let mut again = Stones::new(board);
            for col in line {
                again.play_col(col);
            }
            assert_eq!(again, stones);
        }
        // A key past the board's bits, and a side to move holding fewer
        // stones than its turn says, are no positions.
        let board = BoardSize::STANDARD;
        assert_eq!(Stones::from_key(board, 1u128 << 60), None);
        assert_eq!(Stones::from_key(board, 0b11), None);
    }

    #[test]
    fn a_parent_takes_back_the_last_movers_top_stone() {
        let board = BoardSize::STANDARD;
        let stones = replayed(board, "4453");
        // The last mover (second player) has the top stones of columns 3 and 4.
        assert_eq!(stones.parent(2), Some(replayed(board, "445")));
        assert_eq!(stones.parent(0), None);
        assert_eq!(stones.parent(4), None);
    }
}
