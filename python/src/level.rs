//! `c4._c4.LevelPlayer`: the move c4's playing levels (`c4 play --level`)
//! pick, for Python agents and `c4.evaluate`.
//!
//! The choice is the library's ([`c4::level::Level::choose`], seeded
//! [`SplitMix64`]): the same level and seed give the same moves as the
//! library's. The column scores a level needs come from a Python callable
//! (a solver's `analyze`), called only when the level's rule needs them, so
//! the search runs as every other `Solver` call does (GIL released, Ctrl-C
//! heard).

use c4::Score;
use c4::level::Level;
use c4::rng::SplitMix64;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::position::Position;

/// A player of one of c4's levels, 0 (beginner) to 4 (perfect), drawing its
/// moves from a generator seeded with ``seed``.
///
/// ``choose(position, scores)`` gives the 1-based column the level plays
/// and whether its mistake roll fired; ``scores`` is a callable with no
/// arguments that returns every column's score for the side to move,
/// column 1 first, ``None`` for a full column (``Solver.analyze``'s list).
/// It is called at most once, only when the level's rule needs the scores.
#[pyclass(module = "c4", name = "LevelPlayer")]
pub struct LevelPlayer {
    /// The level.
    level: Level,
    /// The generator of its random choices.
    rng: SplitMix64,
}

#[pymethods]
impl LevelPlayer {
    #[new]
    #[pyo3(signature = (level, seed = 0))]
    fn new(level: i64, seed: u64) -> PyResult<LevelPlayer> {
        let level = u64::try_from(level)
            .map_err(|_| {
                PyValueError::new_err(format!(
                    "there is no level {level}: levels run from 0 (beginner) to 4 (perfect)"
                ))
            })
            .and_then(|n| Level::new(n).map_err(|e| PyValueError::new_err(e.to_string())))?;
        Ok(LevelPlayer {
            level,
            rng: SplitMix64::new(seed),
        })
    }

    /// The level's number, 0 to 4.
    #[getter]
    fn level(&self) -> u8 {
        self.level.number()
    }

    /// The level's name: beginner, novice, intermediate, strong, perfect.
    #[getter]
    fn name(&self) -> &'static str {
        self.level.name()
    }

    /// One line saying how the level plays.
    #[getter]
    fn description(&self) -> &'static str {
        self.level.description()
    }

    /// Every level as ``(number, name, description)``, weakest first.
    #[staticmethod]
    fn levels() -> Vec<(u8, &'static str, &'static str)> {
        Level::all()
            .map(|l| (l.number(), l.name(), l.description()))
            .collect()
    }

    /// The 1-based column this level plays in ``position`` (a game not
    /// over), and whether its mistake roll fired.
    fn choose(
        &mut self,
        position: &Position,
        scores: &Bound<'_, PyAny>,
    ) -> PyResult<(usize, bool)> {
        let game = position.game();
        if game.is_game_over() {
            return Err(PyValueError::new_err("no move to choose: the game is over"));
        }
        let get_scores = || -> PyResult<Vec<Option<Score>>> {
            let list: Vec<Option<Score>> = scores.call0()?.extract()?;
            let fits = list.len() == game.width()
                && list
                    .iter()
                    .enumerate()
                    .all(|(c, s)| s.is_some() == game.can_play(c));
            if !fits {
                // Written as Python writes the list: [1, None, -2].
                let shown: Vec<String> = list
                    .iter()
                    .map(|s| s.map_or("None".to_owned(), |s| s.to_string()))
                    .collect();
                return Err(PyValueError::new_err(format!(
                    "scores [{}] are not one score for each of the {} columns, \
                     None exactly for the full ones",
                    shown.join(", "),
                    game.width()
                )));
            }
            Ok(list)
        };
        let choice = self.level.choose(&game, &mut self.rng, get_scores)?;
        Ok((choice.column + 1, choice.mistake))
    }

    fn __repr__(&self) -> String {
        format!("LevelPlayer({})", self.level)
    }
}
