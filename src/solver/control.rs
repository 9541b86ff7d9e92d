//! What a caller outside the search sees and does while it runs: the stop
//! flag's answer ([`Interrupted`]) and the progress a solver reports
//! ([`Progress`]: nodes searched, the score interval proved so far).

use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

use crate::rules::Score;

/// The answer of an interruptible solve whose stop flag was raised before
/// the score was found (see [`Solver::set_stop_flag`](super::Solver::set_stop_flag)).
/// The solver stays usable: a stopped search stores nothing in the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("the search was stopped before it found the score")]
pub struct Interrupted;

/// A solver's progress, shared with whoever watches it from another thread
/// (see [`Solver::set_progress`](super::Solver::set_progress)). Reading it
/// is two relaxed loads; the search writes it once every
/// [`PROGRESS_POLL_NODES`](crate::settings::PROGRESS_POLL_NODES) nodes and at
/// the end of each probe, so watching costs the search nothing measurable.
#[derive(Debug)]
pub struct Progress {
    /// Nodes searched, added to as the searches go.
    nodes: AtomicU64,
    /// The interval `[min, max]` proved for the score being solved, packed
    /// (see [`pack`]).
    interval: AtomicU64,
}

impl Default for Progress {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress {
    /// No nodes yet, nothing proved: the interval is `(Score::MIN, Score::MAX)`.
    pub fn new() -> Self {
        Progress {
            nodes: AtomicU64::new(0),
            interval: AtomicU64::new(pack(Score::MIN, Score::MAX)),
        }
    }

    /// Nodes searched by the solvers reporting here since this was made. It
    /// lags the searches by at most a poll interval per thread; once a solve
    /// has returned it holds all of its nodes.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// `(min, max)`: the score of the position being solved is proved to lie
    /// in `[min, max]`. A solve starts it at the position's score range and
    /// narrows it as each null-window probe ends; when the solve returns `s`
    /// it is `(s, s)`. Weak solves narrow it within `[-1, 1]`. Only
    /// completed probes narrow it, so it is true at every moment (given a
    /// book with true scores).
    pub fn interval(&self) -> (Score, Score) {
        unpack(self.interval.load(Ordering::Relaxed))
    }

    /// Adds `nodes` searched.
    pub(crate) fn add_nodes(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    /// A new solve: nothing is known of its score but that it lies in
    /// `[min, max]`.
    pub(crate) fn begin(&self, min: Score, max: Score) {
        self.interval.store(pack(min, max), Ordering::Relaxed);
    }

    /// A probe proved the score to lie in `[min, max]` (`min <= max`): the
    /// interval becomes its intersection with that, each bound clipped to
    /// the interval so that it never empties (in a weak solve's `[-1, 1]`,
    /// "at most -5" means -1). Threads may prove bounds in any order; the
    /// intersection only narrows, so the last one to report cannot widen
    /// it again.
    pub(crate) fn narrow(&self, min: Score, max: Score) {
        let _ = self
            .interval
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |word| {
                let (a, b) = unpack(word);
                Some(pack(a.max(min.min(b)), b.min(max.max(a))))
            });
    }
}

/// Two scores in one atomic word.
pub(crate) fn pack(a: Score, b: Score) -> u64 {
    ((a as u32 as u64) << 32) | b as u32 as u64
}

/// The two scores of [`pack`].
pub(crate) fn unpack(word: u64) -> (Score, Score) {
    ((word >> 32) as u32 as i32, word as u32 as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_only_narrows() {
        let p = Progress::new();
        assert_eq!(p.interval(), (Score::MIN, Score::MAX));
        p.begin(-18, 18);
        p.narrow(Score::MIN, 4);
        p.narrow(-2, Score::MAX);
        // A bound proved earlier, reported late, cannot widen it.
        p.narrow(Score::MIN, 9);
        assert_eq!(p.interval(), (-2, 4));
        p.narrow(3, 3);
        assert_eq!(p.interval(), (3, 3));
        // A weak solve's interval: a bound beyond it clips to its end.
        p.begin(-1, 1);
        p.narrow(Score::MIN, -5);
        assert_eq!(p.interval(), (-1, -1));
        p.add_nodes(5);
        p.add_nodes(7);
        assert_eq!(p.nodes(), 12);
    }
}
