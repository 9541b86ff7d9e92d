//! The Python module `c4._c4`, which the `c4` package re-exports: c4's
//! solver for Python, on every board size the `c4` command takes.
//!
//! [`position`] holds `c4.Position`, [`solver`] `c4.Solver`;
//! [`interrupt`] runs their searches off the Python thread so that the GIL
//! is released and Ctrl-C is heard; [`resources`] checks the memory and
//! threads asked for; [`window`] holds the windowed solve of
//! `c4.cluster`. The module-level functions (`c4.solve`, ...) are Python
//! code, in `python/c4/__init__.py`.

mod interrupt;
mod level;
mod position;
mod resources;
mod review;
mod solver;
mod window;

use pyo3::prelude::*;

/// c4's solver (the compiled part of the ``c4`` package).
#[pymodule]
#[pyo3(name = "_c4")]
fn c4_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::Position>()?;
    m.add_class::<solver::Solver>()?;
    m.add_class::<review::Review>()?;
    m.add_class::<review::MoveReview>()?;
    m.add_class::<review::PlayerSummary>()?;
    m.add_class::<level::LevelPlayer>()?;
    m.add_function(wrap_pyfunction!(window::solve_window, m)?)?;
    m.add_function(wrap_pyfunction!(window::symmetric_key, m)?)?;
    m.add_function(wrap_pyfunction!(window::seed_bounds, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
