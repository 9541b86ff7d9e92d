//! Generating test sets: random positions, solved exactly and graded.
//!
//! # Which positions
//! A candidate is a random game of `n` moves, `n` drawn uniformly from the
//! range asked for. At each move the player picks uniformly among the moves
//! that neither win at once (that would end the game) nor let the opponent
//! win at once; if there is no such move, among those that do not win. The
//! candidate is dropped if the side to move can then win at once: like the
//! standard sets, a generated set has no position that is already won and
//! none that is won in one move (those need no search, they test nothing).
//! A position already drawn, or whose mirror image was, is dropped too.
//!
//! # Grading
//! Each remaining candidate is solved exactly from a cleared table; its
//! node count gives its [`Difficulty`] (see [`Grading`]). With a difficulty
//! asked for, candidates of other classes are dropped.
//!
//! # Node budget
//! A solve cannot be interrupted, and a random position a few moves into the
//! game may take hours. So each candidate is first searched with a node
//! budget ([`Engine::solve_within`]): the smaller of [`GenerateConfig::max_nodes`]
//! and, when a class is asked for, the most nodes that class allows (an
//! easy candidate is abandoned as soon as it is known not to be easy). Only
//! candidates found within budget are solved by the [`Engine`], whose node
//! count grades them.
//!
//! # Determinism
//! Candidates are drawn one after another from one seeded generator, solved
//! in batches on the worker threads, and accepted in the order they were
//! drawn; the output depends on the seed and the configuration, not on the
//! number of threads.

use std::collections::HashSet;

use thiserror::Error;

use super::{Difficulty, Grading, TestCase};
use crate::board::BoardSize;
use crate::engine::{self, Engine};
use crate::game::Game;
use crate::parallel::{PoolError, WorkerPool};
use crate::rng::SplitMix64;
use crate::rules::moves_to_string;
use crate::settings::DEFAULT_TABLE_BYTES;

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateConfig {
    /// Positions wanted.
    pub count: usize,
    /// The fewest moves played in a position (at least 1: the empty board
    /// has no move string to write).
    pub min_moves: usize,
    /// The most moves played in a position (below the number of cells).
    pub max_moves: usize,
    /// Keep only positions of this class; `None` keeps every class.
    pub difficulty: Option<Difficulty>,
    /// Node thresholds of the classes.
    pub grading: Grading,
    /// Seed of the random generator.
    pub seed: u64,
    /// Worker threads solving candidates.
    pub threads: usize,
    /// Transposition table size of each worker, in bytes.
    pub table_bytes: usize,
    /// Candidates to draw at most (rejected ones included) before giving up.
    pub max_tries: usize,
    /// Skip candidates whose solve would take more nodes than this; `None`
    /// for no limit (which may take hours on positions of few moves).
    pub max_nodes: Option<u64>,
}

/// The default [`GenerateConfig::max_nodes`]: 100 times the least hard
/// position, a few seconds of solving.
pub const DEFAULT_MAX_NODES: u64 = 20_000_000;

impl Default for GenerateConfig {
    /// 100 positions of 4 to 14 moves, any class, seed 0, one thread, the
    /// default table size, up to 100,000 candidates and
    /// [`DEFAULT_MAX_NODES`] nodes a position.
    fn default() -> Self {
        GenerateConfig {
            count: 100,
            min_moves: 4,
            max_moves: 14,
            difficulty: None,
            grading: Grading::STANDARD,
            seed: 0,
            threads: 1,
            table_bytes: DEFAULT_TABLE_BYTES,
            max_tries: 100_000,
            max_nodes: Some(DEFAULT_MAX_NODES),
        }
    }
}

/// The most bytes a candidate's key takes in the set of keys drawn: a
/// 16-byte key and a control byte per slot, in a hash table at least 7/16
/// full (it doubles once 7/8 full), so up to 39 bytes a key.
pub const KEY_SET_BYTES: usize = 40;

impl GenerateConfig {
    /// The most memory a generation takes besides its solvers: the
    /// positions found, each with its moves, and the key of every candidate
    /// drawn (kept to drop repeats; [`KEY_SET_BYTES`] bytes a key).
    pub fn set_bytes(&self) -> usize {
        let per_case = std::mem::size_of::<GeneratedCase>().saturating_add(self.max_moves);
        self.count
            .saturating_mul(per_case)
            .saturating_add(self.max_tries.saturating_mul(KEY_SET_BYTES))
    }
}

/// A generated position with its exact score, the nodes its solve took and
/// its class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedCase {
    /// The position, its move string and its exact score.
    pub case: TestCase,
    /// Nodes of the strong solve from a cleared table.
    pub nodes: u64,
    /// The class `nodes` falls in.
    pub difficulty: Difficulty,
}

/// How far a generation has got, reported after each batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateProgress {
    /// Positions kept so far.
    pub found: usize,
    /// Positions wanted.
    pub wanted: usize,
    /// Candidates drawn so far.
    pub tried: usize,
    /// Candidates searched so far (those not dropped before searching).
    pub searched: usize,
    /// Searched candidates abandoned over the node budget.
    pub over_budget: usize,
}

/// Why a set could not be generated.
#[derive(Debug, Error)]
pub enum GenerateError {
    /// The move range is empty or outside the board.
    #[error(
        "no position has from {min} to {max} moves: the fewest must be at least 1 and no more \
         than the most, and the most at most {last} on this board",
        last = cells - 1
    )]
    InvalidRange {
        /// The fewest moves asked for.
        min: usize,
        /// The most moves asked for.
        max: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// The workers could not be set up.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// Too many candidates were drawn without finding enough positions.
    #[error(
        "gave up after {tried} candidates: found {found} of the {wanted} positions wanted \
         (try a wider move range, another difficulty or more tries)"
    )]
    GaveUp {
        /// Positions found.
        found: usize,
        /// Positions wanted.
        wanted: usize,
        /// Candidates drawn.
        tried: usize,
    },
}

/// Generates `config.count` positions of `board` as described in the
/// module documentation, calling `progress` after each batch.
pub fn generate(
    board: BoardSize,
    config: &GenerateConfig,
    progress: impl Fn(GenerateProgress),
) -> Result<Vec<GeneratedCase>, GenerateError> {
    let cells = board.cells();
    if config.min_moves == 0 || config.min_moves > config.max_moves || config.max_moves >= cells {
        return Err(GenerateError::InvalidRange {
            min: config.min_moves,
            max: config.max_moves,
            cells,
        });
    }
    let budget = node_budget(config);
    let pool = WorkerPool::new(config.threads, || {
        Ok(Grader {
            solver: engine::new(board, config.table_bytes)?,
        })
    })?;
    // Enough candidates per batch to keep every worker busy, few enough that
    // the last batch does not solve many more hard positions than needed.
    let batch_size = 8 * pool.threads();
    let mut rng = SplitMix64::new(config.seed);
    let mut seen = HashSet::new();
    let mut found = Vec::with_capacity(config.count);
    let mut tried = 0;
    let mut searched = 0;
    let mut over_budget = 0;
    while found.len() < config.count {
        if tried >= config.max_tries {
            return Err(GenerateError::GaveUp {
                found: found.len(),
                wanted: config.count,
                tried,
            });
        }
        let mut batch = Vec::with_capacity(batch_size);
        while batch.len() < batch_size && tried < config.max_tries {
            tried += 1;
            let Some((position, moves)) =
                random_position(board, &mut rng, config.min_moves, config.max_moves)
            else {
                continue;
            };
            if seen.insert(position.symmetric_key().0) {
                batch.push((position, moves));
            }
        }
        searched += batch.len();
        let graded = pool.map(&batch, |grader, (position, moves)| {
            grader.grade(position, moves, budget, &config.grading)
        });
        over_budget += graded.iter().filter(|g| g.is_none()).count();
        let wanted = |g: &GeneratedCase| config.difficulty.is_none_or(|d| d == g.difficulty);
        let room = config.count - found.len();
        found.extend(graded.into_iter().flatten().filter(wanted).take(room));
        progress(GenerateProgress {
            found: found.len(),
            wanted: config.count,
            tried,
            searched,
            over_budget,
        });
    }
    Ok(found)
}

/// The most nodes a candidate may take: [`GenerateConfig::max_nodes`], and
/// below the next class's threshold when a class is asked for.
fn node_budget(config: &GenerateConfig) -> Option<u64> {
    let class_ceiling = match config.difficulty {
        Some(Difficulty::Easy) => Some(config.grading.medium_from.saturating_sub(1)),
        Some(Difficulty::Medium) => Some(config.grading.hard_from.saturating_sub(1)),
        Some(Difficulty::Hard) | None => None,
    };
    match (class_ceiling, config.max_nodes) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A worker's state: the solver that grades.
struct Grader {
    /// Solves and grades the candidates within budget.
    solver: Box<dyn Engine>,
}

impl Grader {
    /// Solves `position` from a cleared table and grades it; `None` if it
    /// takes more than `budget` nodes.
    fn grade(
        &mut self,
        position: &Game,
        moves: &str,
        budget: Option<u64>,
        grading: &Grading,
    ) -> Option<GeneratedCase> {
        self.solver.clear();
        self.solver.reset_node_count();
        let score = match budget {
            Some(limit) => self.solver.solve_within(position, limit)?,
            None => self.solver.solve(position),
        };
        let nodes = self.solver.node_count();
        // The limit is checked every thousand nodes or so: keep it exact.
        if budget.is_some_and(|limit| nodes > limit) {
            return None;
        }
        Some(GeneratedCase {
            case: TestCase {
                moves: moves.to_owned(),
                score,
                position: *position,
            },
            nodes,
            difficulty: grading.classify(nodes),
        })
    }
}

/// Plays a random game of `min..=max` moves on `board` (see the module
/// documentation); returns the position and its move string, or `None` if
/// it is not a candidate (the side to move could win at once, or the game
/// got stuck).
pub fn random_position(
    board: BoardSize,
    rng: &mut SplitMix64,
    min: usize,
    max: usize,
) -> Option<(Game, String)> {
    let target = rng.in_range(min, max);
    let mut pos = Game::new(board);
    let mut moves = Vec::with_capacity(target);
    while moves.len() < target {
        let not_winning =
            (0..board.width()).filter(|&c| pos.can_play(c) && !pos.is_winning_move(c));
        let safe: Vec<usize> = not_winning
            .clone()
            .filter(|&c| !pos.after(c).can_win_next())
            .collect();
        let choices = if safe.is_empty() {
            not_winning.collect()
        } else {
            safe
        };
        if choices.is_empty() {
            return None;
        }
        let col = choices[rng.below(choices.len())];
        pos.play_col(col);
        moves.push(col);
    }
    if pos.is_game_over() || pos.can_win_next() {
        return None;
    }
    Some((pos, moves_to_string(&moves)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;
    use crate::testset::parse_line;

    /// The standard board.
    const STANDARD: BoardSize = BoardSize::STANDARD;

    fn config(count: usize, min: usize, max: usize) -> GenerateConfig {
        GenerateConfig {
            count,
            min_moves: min,
            max_moves: max,
            table_bytes: 1 << 22,
            ..GenerateConfig::default()
        }
    }

    #[test]
    fn positions_are_legal_in_range_not_won_and_unique() {
        let cases = generate(STANDARD, &config(60, 20, 30), |_| {}).unwrap();
        assert_eq!(cases.len(), 60);
        let mut keys = HashSet::new();
        for g in &cases {
            let p = &g.case.position;
            assert_eq!(Game::parse(STANDARD, &g.case.moves).as_ref(), Ok(p));
            assert!((20..=30).contains(&p.moves_played()));
            assert!(!p.is_game_over() && !p.can_win_next(), "{}", g.case.moves);
            assert!(
                keys.insert(p.symmetric_key().0),
                "duplicate {}",
                g.case.moves
            );
            // The line written re-reads to the same case.
            assert_eq!(
                parse_line(STANDARD, &g.case.to_string()).as_ref(),
                Ok(&g.case)
            );
        }
    }

    #[test]
    fn scores_and_classes_are_right() {
        let mut cfg = config(20, 18, 24);
        cfg.grading = Grading {
            medium_from: 500,
            hard_from: 5_000,
        };
        cfg.difficulty = Some(Difficulty::Medium);
        let cases = generate(STANDARD, &cfg, |_| {}).unwrap();
        assert_eq!(cases.len(), 20);
        let mut solver = Solver::<7, 6>::with_table_bytes(1 << 22).unwrap();
        for g in &cases {
            assert_eq!(g.difficulty, Difficulty::Medium);
            assert!((500..5_000).contains(&g.nodes), "{} nodes", g.nodes);
            solver.clear();
            solver.reset_node_count();
            assert_eq!(solver.solve(&g.case.position.fixed()), g.case.score);
            assert_eq!(solver.node_count(), g.nodes);
        }
    }

    #[test]
    fn same_seed_same_set_whatever_the_threads() {
        let one = generate(STANDARD, &config(12, 16, 30), |_| {}).unwrap();
        let two = generate(
            STANDARD,
            &GenerateConfig {
                threads: 2,
                ..config(12, 16, 30)
            },
            |_| {},
        )
        .unwrap();
        assert_eq!(one, two);
        let other = generate(
            STANDARD,
            &GenerateConfig {
                seed: 1,
                ..config(12, 16, 30)
            },
            |_| {},
        )
        .unwrap();
        assert_ne!(one, other);
    }

    #[test]
    fn mirror_images_count_as_duplicates() {
        // Two moves on 4x4: 4 * 4 = 16 positions, 8 up to mirror image (an
        // even width has no middle column to be its own mirror), and nobody
        // can win at once after two moves.
        let cfg = GenerateConfig {
            max_tries: 10_000,
            ..config(8, 2, 2)
        };
        let cases = generate(BoardSize::new(4, 4).unwrap(), &cfg, |_| {}).unwrap();
        assert_eq!(cases.len(), 8);
        let err = generate(
            BoardSize::new(4, 4).unwrap(),
            &GenerateConfig { count: 9, ..cfg },
            |_| {},
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                GenerateError::GaveUp {
                    found: 8,
                    wanted: 9,
                    tried: 10_000
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn the_node_budget_holds_and_follows_the_class() {
        let cfg = GenerateConfig {
            max_nodes: Some(300),
            ..config(30, 16, 26)
        };
        let last = std::cell::Cell::new(None);
        let cases = generate(STANDARD, &cfg, |p| last.set(Some(p))).unwrap();
        assert!(cases.iter().all(|g| g.nodes <= 300));
        assert!(last.get().unwrap().over_budget > 0);

        let grading = Grading::STANDARD;
        let with = |difficulty, max_nodes| {
            node_budget(&GenerateConfig {
                difficulty,
                max_nodes,
                ..GenerateConfig::default()
            })
        };
        assert_eq!(with(None, None), None);
        assert_eq!(with(None, Some(7)), Some(7));
        assert_eq!(
            with(Some(Difficulty::Easy), Some(1 << 40)),
            Some(grading.medium_from - 1)
        );
        assert_eq!(
            with(Some(Difficulty::Medium), None),
            Some(grading.hard_from - 1)
        );
        assert_eq!(with(Some(Difficulty::Hard), Some(9)), Some(9));
    }

    #[test]
    fn rejects_impossible_ranges() {
        for (min, max) in [(0, 3), (5, 4), (10, 42)] {
            assert!(matches!(
                generate(STANDARD, &config(1, min, max), |_| {}),
                Err(GenerateError::InvalidRange { .. })
            ));
        }
    }

    #[test]
    fn works_on_other_board_sizes() {
        let cases = generate(BoardSize::new(5, 4).unwrap(), &config(10, 3, 10), |_| {}).unwrap();
        let mut solver = Solver::<5, 4>::with_table_bytes(1 << 20).unwrap();
        for g in &cases {
            assert_eq!(solver.solve(&g.case.position.fixed()), g.case.score);
        }
    }

    #[test]
    fn reports_progress() {
        let last = std::cell::Cell::new(None);
        generate(STANDARD, &config(10, 25, 35), |p| last.set(Some(p))).unwrap();
        let p = last.get().unwrap();
        assert_eq!((p.found, p.wanted), (10, 10));
        assert!(p.tried >= p.searched && p.searched >= 10);
    }
}
