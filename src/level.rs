//! Move choice by playing level: how `c4` picks its move when it plays below
//! perfect strength, from the beginner (level 0) to perfect play (level 4).
//!
//! Every level is a pure function of the position, the exact score of each
//! column (asked for only when the level needs them) and a seeded
//! [`SplitMix64`]: the same seed gives the same moves.
//!
//! Two rules make up the levels:
//! - the *beginner's rule*: a move that wins at once if there is one (chosen
//!   at random among them); otherwise a random move among those that do not
//!   lose at once (after which the opponent cannot connect four with its
//!   next stone); otherwise, when every move loses at once, any move. It
//!   needs no search.
//! - the *strong rule*: a random move among those that keep the outcome
//!   perfect play gives (a win stays a win, a draw a draw), by the exact
//!   column scores; when every move loses, one of those that lose last.
//!
//! | level | name | rule |
//! | --- | --- | --- |
//! | 0 | beginner | a random legal move with probability 1/4 (the mistake), else the beginner's rule |
//! | 1 | novice | the beginner's rule with probability 1/2 (the mistake), else the strong rule |
//! | 2 | intermediate | the beginner's rule with probability 1/5 (the mistake), else the strong rule |
//! | 3 | strong | the strong rule: never gives away the outcome of perfect play |
//! | 4 | perfect | the best-scoring column, the most central among equals (the move of `c4 solve --pv`) |
//!
//! The mistake is rolled first, so a move chosen by mistake needs no scores.

use std::fmt;

use crate::game::Game;
use crate::rng::SplitMix64;
use crate::rules::Score;
use crate::solver::ordering::center_first_columns;

/// A playing level, `0` (beginner) to [`Level::PERFECT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// How a level picks its move when its mistake roll does not fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Any legal move.
    Random,
    /// The beginner's rule (see the module documentation).
    Beginner,
    /// The strong rule.
    Strong,
    /// The best score, most central among equals.
    Perfect,
}

/// What each level does: its name, the chance of a mistake as a fraction
/// `(numerator, denominator)`, the rule a mistake follows, and the rule it
/// follows otherwise.
const LEVELS: [(&str, (u64, u64), Rule, Rule); 5] = [
    ("beginner", (1, 4), Rule::Random, Rule::Beginner),
    ("novice", (1, 2), Rule::Beginner, Rule::Strong),
    ("intermediate", (1, 5), Rule::Beginner, Rule::Strong),
    ("strong", (0, 1), Rule::Beginner, Rule::Strong),
    ("perfect", (0, 1), Rule::Beginner, Rule::Perfect),
];

/// Why a number is not a level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("there is no level {0}: levels run from 0 (beginner) to 4 (perfect)")]
pub struct LevelError(pub u64);

impl Level {
    /// The beginner.
    pub const BEGINNER: Level = Level(0);
    /// Perfect play, the top level.
    pub const PERFECT: Level = Level(LEVELS.len() as u8 - 1);

    /// Level `n`, if there is one.
    pub fn new(n: u64) -> Result<Level, LevelError> {
        if n < LEVELS.len() as u64 {
            Ok(Level(n as u8))
        } else {
            Err(LevelError(n))
        }
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (0..LEVELS.len() as u8).map(Level)
    }

    /// The level's number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The level's name: beginner, novice, intermediate, strong, perfect.
    pub fn name(self) -> &'static str {
        LEVELS[self.0 as usize].0
    }

    /// One line saying how the level plays.
    pub fn description(self) -> &'static str {
        match self.0 {
            0 => "a random move that does not lose at once; one move in four is any move at all",
            1 => "half of its moves keep the perfect-play outcome, the others are a beginner's",
            2 => "four moves in five keep the perfect-play outcome, one is a beginner's",
            3 => "never gives away the outcome of perfect play, but does not hurry",
            _ => "perfect play: the best score, the most central column among equals",
        }
    }

    /// Picks the move of this level in `game` (a game that is not over).
    ///
    /// `scores` gives the exact score of every column for the side to move
    /// (`None` for a full column), as [`Engine::analyze`] does; it is called
    /// at most once, and only when the rule drawn needs it, so its error (a
    /// search that was stopped, say) is passed on. The result is the 0-based
    /// column, and whether the mistake roll fired.
    ///
    /// [`Engine::analyze`]: crate::Engine::analyze
    pub fn choose<E>(
        self,
        game: &Game,
        rng: &mut SplitMix64,
        scores: impl FnOnce() -> Result<Vec<Option<Score>>, E>,
    ) -> Result<Choice, E> {
        assert!(!game.is_game_over(), "no move to choose: the game is over");
        let (_, (num, den), on_mistake, rule) = LEVELS[self.0 as usize];
        let mistake = num > 0 && rng.next_u64() % den < num;
        let rule = if mistake { on_mistake } else { rule };
        let column = match rule {
            Rule::Random => pick(rng, legal_columns(game)),
            Rule::Beginner => pick(rng, beginner_columns(game)),
            Rule::Strong => pick(rng, strong_columns(&scores()?)),
            Rule::Perfect => perfect_column(game.width(), &scores()?),
        };
        Ok(Choice { column, mistake })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0, self.name())
    }
}

/// The move a level chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The 0-based column.
    pub column: usize,
    /// Whether the level's mistake roll fired (the move then follows the
    /// weaker rule of its level).
    pub mistake: bool,
}

/// A uniformly random element of `columns` (not empty).
fn pick(rng: &mut SplitMix64, columns: Vec<usize>) -> usize {
    columns[rng.below(columns.len())]
}

/// The columns that are not full.
fn legal_columns(game: &Game) -> Vec<usize> {
    (0..game.width()).filter(|&c| game.can_play(c)).collect()
}

/// Whether playing `col` lets the opponent connect four with its next stone.
pub fn loses_at_once(game: &Game, col: usize) -> bool {
    let child = game.after(col);
    !child.is_won() && child.can_win_next()
}

/// The columns the beginner's rule chooses among: those that win at once,
/// else those that do not lose at once, else every legal one.
fn beginner_columns(game: &Game) -> Vec<usize> {
    let legal = legal_columns(game);
    let wins: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&c| game.is_winning_move(c))
        .collect();
    if !wins.is_empty() {
        return wins;
    }
    let safe: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&c| !loses_at_once(game, c))
        .collect();
    if safe.is_empty() { legal } else { safe }
}

/// The best of the scores of the legal columns of a game not over.
fn best_score(scores: &[Option<Score>]) -> Score {
    scores
        .iter()
        .flatten()
        .copied()
        .max()
        .expect("a game not over has a legal column")
}

/// The columns the strong rule chooses among: the outcome of the best score
/// kept (any win, any draw), or the best score itself when every move loses.
fn strong_columns(scores: &[Option<Score>]) -> Vec<usize> {
    let best = best_score(scores);
    scores
        .iter()
        .enumerate()
        .filter_map(|(c, s)| s.map(|s| (c, s)))
        .filter(|&(_, s)| {
            if best < 0 {
                s == best
            } else {
                s.signum() == best.signum()
            }
        })
        .map(|(c, _)| c)
        .collect()
}

/// The most central column with the best score, on a board `width`
/// columns wide.
fn perfect_column(width: usize, scores: &[Option<Score>]) -> usize {
    let best = best_score(scores);
    center_first_columns(width)
        .find(|&c| scores[c] == Some(best))
        .expect("the best score is some column's")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::engine::{self, Engine};
    use std::convert::Infallible;

    /// A solver of the standard board with a small table.
    fn standard_solver() -> Box<dyn Engine> {
        engine::new(BoardSize::STANDARD, 1 << 20).unwrap()
    }

    /// Positions reached by random legal play from the empty board, of 16 to
    /// 30 stones, none over (late enough that each takes milliseconds to
    /// analyse).
    fn random_positions(count: usize, seed: u64) -> Vec<Game> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let stones = rng.in_range(16, 30);
            let mut pos = Game::new(BoardSize::STANDARD);
            while pos.moves_played() < stones && !pos.is_game_over() {
                let legal = legal_columns(&pos);
                pos.play_col(legal[rng.below(legal.len())]);
            }
            if !pos.is_game_over() {
                out.push(pos);
            }
        }
        out
    }

    fn no_scores() -> Result<Vec<Option<Score>>, Infallible> {
        panic!("this level must not ask for scores here")
    }

    #[test]
    fn numbers_and_names() {
        let names: Vec<&str> = Level::all().map(Level::name).collect();
        assert_eq!(
            names,
            ["beginner", "novice", "intermediate", "strong", "perfect"]
        );
        assert_eq!(Level::new(4), Ok(Level::PERFECT));
        assert_eq!(Level::new(5), Err(LevelError(5)));
        assert_eq!(Level::PERFECT.to_string(), "4 (perfect)");
    }

    #[test]
    fn the_same_seed_gives_the_same_moves() {
        let positions = random_positions(40, 1);
        for level in [Level::BEGINNER, Level::new(1).unwrap()] {
            let mut solver = standard_solver();
            let mut play = |seed| {
                let mut rng = SplitMix64::new(seed);
                positions
                    .iter()
                    .map(|p| {
                        level
                            .choose(p, &mut rng, || Ok::<_, Infallible>(solver.analyze(p)))
                            .unwrap()
                    })
                    .collect::<Vec<_>>()
            };
            let a = play(7);
            assert_eq!(a, play(7));
            assert_ne!(a, play(8), "{level}: another seed, other moves");
        }
    }

    /// The perfect level plays the move the solver calls best (the first
    /// move of the principal variation) and asks for scores each time.
    #[test]
    fn perfect_plays_the_solvers_best_move() {
        let mut solver = standard_solver();
        let mut rng = SplitMix64::new(3);
        for pos in random_positions(60, 2) {
            let scores = solver.analyze(&pos);
            let choice = Level::PERFECT
                .choose(&pos, &mut rng, || Ok::<_, Infallible>(scores.clone()))
                .unwrap();
            let (best, score) = solver.best_move(&pos).unwrap();
            assert_eq!(choice.column, best);
            assert_eq!(scores[choice.column], Some(score));
            assert!(!choice.mistake);
        }
    }

    /// The strong level never changes the outcome: from a won position it
    /// plays a winning move, from a drawn one a drawing move, and when it
    /// loses it loses as late as possible.
    #[test]
    fn strong_keeps_the_outcome() {
        let mut solver = standard_solver();
        let mut rng = SplitMix64::new(4);
        let level = Level::new(3).unwrap();
        let mut differs = false;
        for pos in random_positions(60, 5) {
            let scores = solver.analyze(&pos);
            let best = scores.iter().flatten().copied().max().unwrap();
            for _ in 0..4 {
                let c = level
                    .choose(&pos, &mut rng, || Ok::<_, Infallible>(scores.clone()))
                    .unwrap();
                let s = scores[c.column].expect("a legal column");
                assert!(!c.mistake);
                if best < 0 {
                    assert_eq!(s, best);
                } else {
                    assert_eq!(s.signum(), best.signum(), "{best} {s}");
                }
                // It is not the perfect level in disguise.
                differs |= c.column != perfect_column(7, &scores);
            }
        }
        assert!(differs);
    }

    /// The beginner takes a win in one, never plays a move that loses at once
    /// when another does not unless its mistake roll fired, and makes a
    /// mistake about one move in four. It needs no scores.
    #[test]
    fn beginner_avoids_losing_at_once() {
        let mut rng = SplitMix64::new(6);
        let (mut mistakes, mut moves, mut avoided) = (0, 0, 0);
        for pos in random_positions(2000, 7) {
            let c = Level::BEGINNER.choose(&pos, &mut rng, no_scores).unwrap();
            moves += 1;
            assert!(pos.can_play(c.column));
            if c.mistake {
                mistakes += 1;
                continue;
            }
            let legal = legal_columns(&pos);
            if legal.iter().any(|&m| pos.is_winning_move(m)) {
                assert!(pos.is_winning_move(c.column));
            } else if legal.iter().any(|&m| !loses_at_once(&pos, m)) {
                assert!(!loses_at_once(&pos, c.column));
                if legal.iter().any(|&m| loses_at_once(&pos, m)) {
                    avoided += 1;
                }
            }
        }
        // 1/4 of 2000 is 500; the binomial deviation is about 19.
        assert!((420..=580).contains(&mistakes), "{mistakes} of {moves}");
        assert!(avoided > 50, "{avoided} positions had a move to avoid");
    }

    /// Levels 1 and 2 follow the strong rule unless their mistake roll fires,
    /// and then the beginner's rule; their mistakes come at their rates.
    #[test]
    fn middle_levels_mix_the_rules() {
        let mut solver = standard_solver();
        let positions = random_positions(300, 8);
        let analysed: Vec<_> = positions.iter().map(|p| solver.analyze(p)).collect();
        for (n, expected) in [(1, 150), (2, 60)] {
            let level = Level::new(n).unwrap();
            let mut rng = SplitMix64::new(9 + n);
            let mut mistakes = 0;
            for (pos, scores) in positions.iter().zip(&analysed) {
                let mut asked = false;
                let c = level
                    .choose(pos, &mut rng, || {
                        asked = true;
                        Ok::<_, Infallible>(scores.clone())
                    })
                    .unwrap();
                assert_eq!(
                    asked, !c.mistake,
                    "scores are asked for the strong rule only"
                );
                if c.mistake {
                    mistakes += 1;
                    assert!(beginner_columns(pos).contains(&c.column));
                } else {
                    assert!(strong_columns(scores).contains(&c.column));
                }
            }
            // Binomial deviations: about 8.7 (level 1) and 6.9 (level 2).
            assert!(
                (expected - 35..=expected + 35).contains(&mistakes),
                "level {n}: {mistakes} mistakes in 300"
            );
        }
    }

    #[test]
    fn the_scores_error_is_passed_on() {
        let pos = Game::parse(BoardSize::STANDARD, "4453").unwrap();
        let mut rng = SplitMix64::new(1);
        let r = Level::PERFECT.choose(&pos, &mut rng, || Err::<Vec<Option<Score>>, _>("stopped"));
        assert_eq!(r, Err("stopped"));
    }
}
