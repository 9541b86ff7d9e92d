//! Finding a strategy: every assignment of the columns (ladders,
//! highinverses, stacked pairs) tried, and what each settles.

use super::{Answer, Application, Cell, Group, Rule, Strategy, all_groups};
use crate::game::Game;
use crate::rules::Player;

/// Most column assignments [`find`] tries before it gives up (no strategy
/// found): every assignment of boards up to 8 columns, and a bound on wide
/// boards, where the matchings of columns grow beyond counting.
pub const MAX_ASSIGNMENTS: usize = 100_000;

/// The board as [`find`] sees it: who holds each cell, column heights.
struct Board {
    width: usize,
    height: usize,
    /// `cells[col * height + row]`.
    cells: Vec<Option<Player>>,
    heights: Vec<usize>,
    groups: Vec<Group>,
}

impl Board {
    fn of(game: &Game) -> Board {
        let (width, height) = (game.width(), game.height());
        let mut cells = Vec::with_capacity(width * height);
        for col in 0..width {
            for row in 0..height {
                cells.push(game.stone_at(col, row));
            }
        }
        let heights = (0..width).map(|c| game.column_height(c)).collect();
        Board {
            width,
            height,
            cells,
            heights,
            groups: all_groups(width, height),
        }
    }

    fn at(&self, cell: Cell) -> Option<Player> {
        self.cells[cell.col * self.height + cell.row]
    }

    fn empty(&self, col: usize) -> usize {
        self.height - self.heights[col]
    }
}

/// How one column's empty cells are played: a ladder of `rungs` cross
/// pairs with `partner` at the bottom (none if `rungs` is 0), then stacked
/// pairs; with `tops`, an odd number of cells above the ladder, the top
/// one paired with `partner`'s top (a highinverse).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ColumnPlan {
    partner: usize,
    rungs: usize,
    tops: bool,
}

/// A cell's part in a full assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A ladder's rung, with its partner.
    Rung(Cell),
    /// The lower cell of a stacked pair in a column without tops.
    Lower,
    /// The upper cell of a stacked pair in a column without tops: the
    /// controller's.
    Upper,
    /// The lower or upper cell of the `i`-th (0-based) stacked pair of a
    /// highinverse's column.
    HighLower(usize),
    HighUpper(usize),
    /// A highinverse's top cell.
    Top,
}

/// The roles of every empty cell under a full assignment.
struct Pairing {
    roles: Vec<Option<Role>>,
    plans: Vec<ColumnPlan>,
}

impl Pairing {
    fn of(board: &Board, plans: &[ColumnPlan]) -> Pairing {
        let mut roles = vec![None; board.width * board.height];
        for (col, plan) in plans.iter().enumerate() {
            let base = board.heights[col];
            for k in 0..plan.rungs {
                let other = Cell {
                    col: plan.partner,
                    row: board.heights[plan.partner] + k,
                };
                roles[col * board.height + base + k] = Some(Role::Rung(other));
            }
            let mut row = base + plan.rungs;
            let mut pair = 0;
            while row + 1 < board.height {
                let (lower, upper) = if plan.tops {
                    (Role::HighLower(pair), Role::HighUpper(pair))
                } else {
                    (Role::Lower, Role::Upper)
                };
                roles[col * board.height + row] = Some(lower);
                roles[col * board.height + row + 1] = Some(upper);
                row += 2;
                pair += 1;
            }
            if row < board.height {
                roles[col * board.height + row] = Some(Role::Top);
            }
        }
        Pairing {
            roles,
            plans: plans.to_vec(),
        }
    }

    fn role(&self, board: &Board, cell: Cell) -> Option<Role> {
        self.roles[cell.col * board.height + cell.row]
    }

    /// Whether the controller is sure to get `cell`.
    fn sure(&self, board: &Board, cell: Cell) -> bool {
        self.role(board, cell) == Some(Role::Upper)
    }

    /// Whether the highinverse of columns `c` and `d` leaves the controller
    /// a cell of `group` whatever the opponent does: in every case of which
    /// top the opponent plays first (`c`'s, say: the controller then has
    /// all of `c`'s upper cells, `d`'s top, and in `d` the upper cells of
    /// the pairs filled before and the lower cells of those after).
    fn high_settles(&self, board: &Board, c: usize, d: usize, group: &Group) -> bool {
        let parts = |col: usize| {
            let (mut lowers, mut uppers, mut top) = (Vec::new(), Vec::new(), false);
            for cell in group
                .iter()
                .filter(|g| g.col == col && board.at(**g).is_none())
            {
                match self.role(board, *cell) {
                    Some(Role::HighLower(i)) => lowers.push(i),
                    Some(Role::HighUpper(i)) => uppers.push(i),
                    Some(Role::Top) => top = true,
                    _ => {}
                }
            }
            (lowers, uppers, top)
        };
        let pairs = |col: usize| {
            let plan = self.plans[col];
            (board.empty(col) - plan.rungs) / 2
        };
        let first_top = |first: usize, other: usize| {
            let (_, first_uppers, _) = parts(first);
            let (lowers, uppers, top) = parts(other);
            if !first_uppers.is_empty() || top {
                return true;
            }
            (0..=pairs(other)).all(|filled| {
                uppers.iter().any(|&i| i < filled) || lowers.iter().any(|&i| i >= filled)
            })
        };
        first_top(c, d) && first_top(d, c)
    }
}

/// The groups still open for `player`: no stone of its opponent's and at
/// least one empty cell.
fn open_groups(board: &Board, player: Player) -> Vec<Group> {
    board
        .groups
        .iter()
        .filter(|g| {
            g.iter().all(|&c| board.at(c) != Some(player.other()))
                && g.iter().any(|&c| board.at(c).is_none())
        })
        .copied()
        .collect()
}

/// What settles a group of the opponent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Settled {
    /// The controller's sure cell, or a rung's cell (the cell names the
    /// application).
    By(Cell),
    /// The aftereven group of this index.
    After(usize),
}

fn settle(board: &Board, pairing: &Pairing, group: &Group, afters: &[Group]) -> Option<Settled> {
    let empty = || group.iter().filter(|c| board.at(**c).is_none());
    if let Some(&cell) = empty().find(|&&c| pairing.sure(board, c)) {
        return Some(Settled::By(cell));
    }
    for &cell in empty() {
        if let Some(Role::Rung(other)) = pairing.role(board, cell)
            && group.contains(&other)
        {
            return Some(Settled::By(cell.min(other)));
        }
    }
    for &cell in empty() {
        let plan = pairing.plans[cell.col];
        if plan.tops
            && !matches!(pairing.role(board, cell), Some(Role::Rung(_)))
            && pairing.high_settles(
                board,
                cell.col.min(plan.partner),
                cell.col.max(plan.partner),
                group,
            )
        {
            return Some(Settled::By(cell));
        }
    }
    afters
        .iter()
        .position(|a| is_after(board, a, group))
        .map(Settled::After)
}

/// Whether `group` has, in the column of each empty cell of the aftereven
/// group `after`, a cell above that cell.
fn is_after(board: &Board, after: &Group, group: &Group) -> bool {
    after
        .iter()
        .filter(|c| board.at(**c).is_none())
        .all(|a| group.iter().any(|g| g.col == a.col && g.row > a.row))
}

/// The controller's aftereven groups under a pairing: its open groups whose
/// empty cells are all sure to be its.
fn afterevens(board: &Board, pairing: &Pairing, controller: Player) -> Vec<Group> {
    open_groups(board, controller)
        .into_iter()
        .filter(|g| {
            g.iter()
                .all(|&c| board.at(c).is_some() || pairing.sure(board, c))
        })
        .collect()
}

/// Looks for a strategy of the player not to move in `game`: a pairing of
/// the empty cells (see the module's documentation) that settles every
/// group the player to move can still complete. Among those found it
/// returns a winning one if any, and then the one with the fewest cross
/// pairs and highinverses. `None` when the game is over, the number of
/// empty cells is odd, or no assignment settles every group (within
/// [`MAX_ASSIGNMENTS`]).
pub fn find(game: &Game) -> Option<Strategy> {
    if game.is_game_over() || !game.empty_cells().is_multiple_of(2) {
        return None;
    }
    let board = Board::of(game);
    let controller = game.side_to_move().other();
    let threats = open_groups(&board, controller.other());
    let mut search = Search {
        board: &board,
        controller,
        threats: &threats,
        plans: vec![None; board.width],
        tried: 0,
        best: None,
    };
    search.assign(0);
    let (plans, _) = search.best?;
    Some(build(&board, controller, &threats, &plans))
}

/// Looks for a move of the player to move in `game` after which it has a
/// strategy ([`find`] on the position after it): the leftmost such move
/// that wins, else the leftmost. The move is a 0-based column.
pub fn find_after_move(game: &Game) -> Option<(usize, Strategy)> {
    if game.is_game_over() {
        return None;
    }
    let mut best: Option<(usize, Strategy)> = None;
    for col in (0..game.width()).filter(|&c| game.can_play(c)) {
        let child = game.after(col);
        if child.is_won() {
            continue;
        }
        if let Some(strategy) = find(&child) {
            let better = match &best {
                None => true,
                Some((_, b)) => strategy.wins && !b.wins,
            };
            if better {
                best = Some((col, strategy));
            }
        }
    }
    best
}

/// The backtracking over column plans.
struct Search<'a> {
    board: &'a Board,
    controller: Player,
    threats: &'a [Group],
    plans: Vec<Option<ColumnPlan>>,
    tried: usize,
    /// The best full assignment: plans, and (wins, structures).
    best: Option<(Vec<ColumnPlan>, (bool, usize))>,
}

impl Search<'_> {
    fn assign(&mut self, col: usize) {
        if self.tried >= MAX_ASSIGNMENTS
            || self.best.as_ref().is_some_and(|(_, (w, n))| *w && *n == 0)
        {
            return;
        }
        if col == self.board.width {
            self.tried += 1;
            self.evaluate();
            return;
        }
        if self.plans[col].is_some() {
            return self.assign(col + 1);
        }
        let empty = self.board.empty(col);
        if empty.is_multiple_of(2) {
            self.plans[col] = Some(ColumnPlan {
                partner: col,
                rungs: 0,
                tops: false,
            });
            self.assign(col + 1);
        }
        for other in col + 1..self.board.width {
            if self.plans[other].is_some() {
                continue;
            }
            let other_empty = self.board.empty(other);
            for rungs in 0..=empty.min(other_empty) {
                let (left, right) = (empty - rungs, other_empty - rungs);
                if left % 2 != right % 2 || (rungs == 0 && left.is_multiple_of(2)) {
                    continue;
                }
                let tops = left % 2 == 1;
                self.plans[col] = Some(ColumnPlan {
                    partner: other,
                    rungs,
                    tops,
                });
                self.plans[other] = Some(ColumnPlan {
                    partner: col,
                    rungs,
                    tops,
                });
                self.assign(col + 1);
                self.plans[other] = None;
            }
        }
        self.plans[col] = None;
    }

    fn evaluate(&mut self) {
        let plans: Vec<ColumnPlan> = self.plans.iter().map(|p| p.expect("assigned")).collect();
        let pairing = Pairing::of(self.board, &plans);
        let afters = afterevens(self.board, &pairing, self.controller);
        if self
            .threats
            .iter()
            .any(|group| settle(self.board, &pairing, group, &afters).is_none())
        {
            return;
        }
        let wins = !afters.is_empty();
        let structures = plans
            .iter()
            .map(|p| p.rungs + usize::from(p.tops))
            .sum::<usize>();
        let better = match &self.best {
            None => true,
            Some((_, (best_wins, best_n))) => {
                (wins && !best_wins) || (wins == *best_wins && structures < *best_n)
            }
        };
        if better {
            self.best = Some((plans, (wins, structures)));
        }
    }
}

/// The strategy of a full assignment that settles every threat.
fn build(board: &Board, controller: Player, threats: &[Group], plans: &[ColumnPlan]) -> Strategy {
    let pairing = Pairing::of(board, plans);
    let afters = afterevens(board, &pairing, controller);
    let mut applications: Vec<Application> = Vec::new();
    let mut index_of = std::collections::HashMap::new();
    let mut answers = vec![None; board.width * board.height];
    let mut push = |apps: &mut Vec<Application>, rule, cells: Vec<Cell>, claimed| {
        for &c in &cells {
            index_of.insert(c, apps.len());
        }
        apps.push(Application {
            rule,
            cells,
            claimed,
            group: None,
            solved: Vec::new(),
        });
    };
    for col in 0..board.width {
        let plan = plans[col];
        if plan.tops && plan.partner > col {
            let mut cells = Vec::new();
            for c in [col, plan.partner] {
                for row in board.heights[c] + plan.rungs..board.height {
                    cells.push(Cell { col: c, row });
                }
            }
            push(&mut applications, Rule::Highinverse, cells, Vec::new());
        }
        for row in board.heights[col]..board.height {
            let cell = Cell { col, row };
            let answer = match pairing.role(board, cell) {
                Some(Role::Rung(other)) => {
                    if other.col > col {
                        let rule = if row == board.heights[col] {
                            Rule::Baseinverse
                        } else {
                            Rule::Inverse
                        };
                        push(&mut applications, rule, vec![cell, other], Vec::new());
                    }
                    Answer::On(other)
                }
                Some(Role::Lower) => {
                    let upper = Cell { col, row: row + 1 };
                    let rule = if (row + 2).is_multiple_of(2) {
                        Rule::Claimeven
                    } else {
                        Rule::Vertical
                    };
                    push(&mut applications, rule, vec![cell, upper], vec![upper]);
                    Answer::Above
                }
                Some(Role::Top) => Answer::LowestOf(plan.partner),
                _ => Answer::Above,
            };
            answers[col * board.height + row] = Some(answer);
        }
    }
    let mut after_apps: Vec<(usize, usize)> = Vec::new();
    let wins = !afters.is_empty();
    for group in threats {
        let settled = settle(board, &pairing, group, &afters).expect("every threat is settled");
        let app = match settled {
            Settled::By(cell) => index_of[&cell],
            Settled::After(a) => match after_apps.iter().find(|(i, _)| *i == a) {
                Some(&(_, app)) => app,
                None => {
                    applications.push(after_application(board, &afters[a]));
                    after_apps.push((a, applications.len() - 1));
                    applications.len() - 1
                }
            },
        };
        applications[app].solved.push(*group);
    }
    if wins && after_apps.is_empty() {
        applications.push(after_application(board, &afters[0]));
    }
    Strategy {
        controller,
        wins,
        applications,
        answers,
        height: board.height,
    }
}

fn after_application(board: &Board, group: &Group) -> Application {
    let empty: Vec<Cell> = group
        .iter()
        .filter(|c| board.at(**c).is_none())
        .copied()
        .collect();
    Application {
        rule: Rule::Aftereven,
        cells: empty.clone(),
        claimed: empty,
        group: Some(*group),
        solved: Vec::new(),
    }
}
