//! The windowed solve of the distributed driver (`c4.cluster`): the value
//! of a position searched in a window `(alpha, beta)`, with the nodes it
//! took, and the symmetric key that names a position in the driver's
//! store.

use c4::engine::Engine;
use c4::{Game, Score};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::solver::Solver;

/// The value of `game` in the window `(alpha, beta)`, `alpha < beta`, as a
/// fail-soft alpha-beta search defines it: a value `v <= alpha` proves
/// `score <= v`, a value `v >= beta` proves `score >= v`, and a value
/// strictly inside the window is the exact score. Null-window probes of
/// `engine` answer the two ends; only a score inside the window is then
/// solved exactly, between the bounds the probes proved.
pub(crate) fn window_value(
    engine: &mut dyn Engine,
    game: &Game,
    alpha: Score,
    beta: Score,
) -> Score {
    if game.is_game_over() {
        return engine.solve(game);
    }
    let (lowest, highest) = game.score_range();
    if alpha >= highest {
        return highest;
    }
    if beta <= lowest {
        return lowest;
    }
    // Now lowest - 1 <= alpha < beta <= highest + 1.
    let (alpha, beta) = (alpha.max(lowest - 1), beta.min(highest + 1));
    if alpha >= lowest && !engine.score_at_least(game, alpha + 1) {
        return alpha;
    }
    if beta == alpha + 1 {
        // The probe above said the score reaches beta (or lowest is beta).
        return beta;
    }
    if beta <= highest && engine.score_at_least(game, beta) {
        return beta;
    }
    engine.solve_in(game, alpha + 1, beta - 1)
}

/// The value of ``position`` in the window ``(alpha, beta)`` on ``solver``
/// and the nodes the search took, as ``(value, nodes)``: a value at most
/// ``alpha`` is an upper bound of the score, one at least ``beta`` a lower
/// bound, one in between the exact score (fail-soft alpha-beta). The
/// solver's table is kept, as by ``Solver.solve``.
///
/// Raises ``ValueError`` unless ``alpha < beta``, or for a bad position.
#[pyfunction]
pub(crate) fn solve_window(
    py: Python<'_>,
    solver: &Solver,
    position: &Bound<'_, PyAny>,
    alpha: Score,
    beta: Score,
) -> PyResult<(Score, u64)> {
    if alpha >= beta {
        return Err(PyValueError::new_err(format!(
            "a window needs alpha < beta, not ({alpha}, {beta})"
        )));
    }
    let game = solver.game_of(position, None)?;
    let mut engines = solver.engines()?;
    solver.run(py, &mut engines, |engines| {
        let before = engines.main.node_count();
        let value = window_value(engines.main.as_mut(), &game, alpha, beta);
        Ok((value, engines.main.node_count() - before))
    })
}

/// The key ``position`` shares with its mirror image on ``solver``'s board,
/// as 32 hexadecimal digits: equal for two positions exactly when they hold
/// the same stones or one is the other's mirror image.
#[pyfunction]
pub(crate) fn symmetric_key(solver: &Solver, position: &Bound<'_, PyAny>) -> PyResult<String> {
    let game = solver.game_of(position, None)?;
    Ok(format!("{:032x}", game.symmetric_key().0))
}

/// Seeds ``solver``'s tables with bounds on ``position``'s score proved
/// elsewhere, ``lower <= score <= upper`` (``c4.cluster.seed`` reads them
/// from a store), and its mirror image's: later searches through either
/// may skip it. **A wrong bound
/// gives a wrong score.** Only the solver's own engine is seeded, not the
/// threads of ``solve_many(threads=N)``.
///
/// Raises ``ValueError`` for a bad position, or if ``lower > upper`` once
/// clipped to the position's score range.
#[pyfunction]
pub(crate) fn seed_bounds(
    solver: &Solver,
    position: &Bound<'_, PyAny>,
    lower: Score,
    upper: Score,
) -> PyResult<()> {
    let game = solver.game_of(position, None)?;
    let mut engines = solver.engines()?;
    // The mirror image has the same score; the search merges the two only
    // early in the game.
    for one in [game.mirrored(), game] {
        engines
            .main
            .seed(&one, lower, upper)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(())
}
