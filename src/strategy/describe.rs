//! A strategy as a player reads it: each rule application in words, and the
//! board with the cells the rules use marked.

use super::{Application, Cell, Rule, Strategy, column_letter, group_name};
use crate::game::Game;

/// One sentence per rule application, cells in board notation (`d2`,
/// groups as `a1-d4`), the controller named by its symbol.
pub fn describe(strategy: &Strategy) -> Vec<String> {
    let me = strategy.controller.symbol();
    let you = strategy.controller.other().symbol();
    strategy
        .applications
        .iter()
        .map(|a| sentence(a, me, you))
        .collect()
}

fn names(cells: &[Cell]) -> String {
    cells.iter().map(Cell::name).collect::<Vec<_>>().join(", ")
}

fn solved(a: &Application) -> String {
    if a.solved.is_empty() {
        return String::new();
    }
    let groups: Vec<String> = a.solved.iter().map(group_name).collect();
    format!("; refutes {}", groups.join(", "))
}

fn sentence(a: &Application, me: char, you: char) -> String {
    let name = a.rule.name();
    match a.rule {
        Rule::Claimeven | Rule::Vertical => format!(
            "{name} {}-{}: when {you} plays {}, {me} answers on {}; {me} gets {}{}",
            a.cells[0].name(),
            a.cells[1].name(),
            a.cells[0].name(),
            a.cells[1].name(),
            a.cells[1].name(),
            solved(a)
        ),
        Rule::Baseinverse | Rule::Inverse => format!(
            "{name} {} {}: when {you} plays one, {me} answers on the other; {me} gets one of them{}",
            a.cells[0].name(),
            a.cells[1].name(),
            solved(a)
        ),
        Rule::Highinverse => {
            let cols: Vec<char> = {
                let mut c: Vec<char> = a
                    .cells
                    .iter()
                    .map(|c| super::column_letter(c.col))
                    .collect();
                c.dedup();
                c
            };
            let tops: Vec<String> = cols
                .iter()
                .filter_map(|&l| {
                    a.cells
                        .iter()
                        .rev()
                        .find(|c| super::column_letter(c.col) == l)
                })
                .map(Cell::name)
                .collect();
            format!(
                "{name} {} (columns {}): {me} answers above {you} in both columns; when {you} plays \
                 one top cell ({}), {me} plays the lowest empty cell of the other column{}",
                names(&a.cells),
                cols.iter()
                    .map(char::to_string)
                    .collect::<Vec<_>>()
                    .join(" and "),
                tops.join(" or "),
                solved(a)
            )
        }
        Rule::Aftereven => format!(
            "{name} {}: {me} gets its empty cells {} by the pairs above, so it completes this four \
             before {you} completes any four that needs a cell above them, and wins{}",
            a.group.as_ref().map(group_name).unwrap_or_default(),
            names(&a.cells),
            solved(a)
        ),
    }
}

/// The board, top row first, with row numbers on the left and column
/// letters below: stones as `X` and `O`; empty cells the controller is sure
/// to get in its lower-case symbol (`o`, `x`), the lower cells of its
/// stacked pairs as `.`, the cells of cross pairs (baseinverse, inverse)
/// as `*`, a highinverse's cells as `+`, and the empty cells of an
/// aftereven group as `#`.
pub fn draw(game: &Game, strategy: &Strategy) -> String {
    let (width, height) = (game.width(), game.height());
    let mut marks = vec![None; width * height];
    for a in &strategy.applications {
        let mark = match a.rule {
            Rule::Baseinverse | Rule::Inverse => Some('*'),
            Rule::Highinverse => Some('+'),
            Rule::Aftereven => Some('#'),
            Rule::Claimeven | Rule::Vertical => None,
        };
        for (k, c) in a.cells.iter().enumerate() {
            let ch = mark.unwrap_or(if k == 1 {
                strategy.controller.symbol().to_ascii_lowercase()
            } else {
                '.'
            });
            let slot = &mut marks[c.col * height + c.row];
            if *slot != Some('#') {
                *slot = Some(ch);
            }
        }
    }
    let label = height.to_string().len();
    let mut out = String::new();
    for row in (0..height).rev() {
        out.push_str(&format!("{:>label$} ", row + 1));
        for col in 0..width {
            let ch = match game.stone_at(col, row) {
                Some(p) => p.symbol(),
                None => marks[col * height + row].unwrap_or('.'),
            };
            out.push(ch);
            if col + 1 < width {
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(label + 1));
    let letters: Vec<String> = (0..width).map(|c| column_letter(c).to_string()).collect();
    out.push_str(&letters.join(" "));
    out
}

/// The threats of a position: every empty cell that would complete a four
/// of one player's (three of its stones and the cell), with that player,
/// left to right and bottom up. A threat in an odd row (counted from 1) is
/// the first player's hope in a zugzwang, one in an even row the second's.
pub fn threats(game: &Game) -> Vec<(crate::rules::Player, Cell)> {
    let (width, height) = (game.width(), game.height());
    let mut out = Vec::new();
    for col in 0..width {
        for row in game.column_height(col)..height {
            let cell = Cell { col, row };
            for player in [crate::rules::Player::First, crate::rules::Player::Second] {
                let completes = super::all_groups(width, height).iter().any(|g| {
                    g.contains(&cell)
                        && g.iter()
                            .all(|&c| c == cell || game.stone_at(c.col, c.row) == Some(player))
                });
                if completes {
                    out.push((player, cell));
                }
            }
        }
    }
    out
}
