//! What the workers of `c4 serve` compute: a query of the page's API
//! ([`c4::page_api`]) under the server's per-request node limit and the
//! request's stop flag, as the server's reply.

use std::sync::atomic::AtomicBool;

use c4::Engine;
use c4::page_api::{Query, Stop};

/// One request's work.
#[derive(Debug, Clone)]
pub struct Task {
    /// The query, read and checked before it is queued.
    pub query: Query,
    /// The most nodes the whole request may search.
    pub max_nodes: u64,
}

/// A worker's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The answer's JSON, newline included.
    Json(String),
    /// The request needed more than `max_nodes` nodes: no answer.
    NodeLimit {
        /// The limit.
        max_nodes: u64,
    },
    /// The request's time ran out (`--max-seconds`): no answer.
    TimeLimit,
    /// The client went away; nobody reads this.
    Cancelled,
    /// The solver failed (a bug).
    Failed,
}

impl Task {
    /// Computes the answer with `solver` (for the task's board, cleared),
    /// stopping when `cancel` is set.
    pub fn run(&self, solver: &mut dyn Engine, cancel: &AtomicBool) -> Reply {
        match self.query.answer(solver, self.max_nodes, cancel) {
            Ok(json) => Reply::Json(json + "\n"),
            Err(Stop::Cancelled) => Reply::Cancelled,
            Err(Stop::Inconsistent) => Reply::Failed,
            Err(Stop::NodeLimit) => Reply::NodeLimit {
                max_nodes: self.max_nodes,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4::BoardSize;
    use c4::page_api::{Request, Route, read};

    fn task(route: Route, moves: &str, max_nodes: u64) -> Task {
        let params = [("moves", moves), ("level", "4")];
        let params = &params[..if route == Route::Move { 2 } else { 1 }];
        let Ok(Request::Query(query)) = read(route, params.iter().copied(), || 1) else {
            panic!("a query");
        };
        Task { query, max_nodes }
    }

    #[test]
    fn the_limit_and_the_flag_are_the_replies() {
        // The empty board without a book takes far more than 1000 nodes.
        let mut solver = c4::engine::new(BoardSize::STANDARD, 1 << 20).unwrap();
        for route in [Route::Analyze, Route::Solve, Route::Move] {
            assert_eq!(
                task(route, "", 1000).run(solver.as_mut(), &AtomicBool::new(false)),
                Reply::NodeLimit { max_nodes: 1000 },
                "{route:?}"
            );
        }
        let cancelled = task(Route::Analyze, "4453", u64::MAX);
        assert_eq!(
            cancelled.run(solver.as_mut(), &AtomicBool::new(true)),
            Reply::Cancelled
        );
        let Reply::Json(json) =
            task(Route::Solve, "4453", u64::MAX).run(solver.as_mut(), &AtomicBool::new(false))
        else {
            panic!("solved");
        };
        assert!(json.ends_with("}\n"), "{json:?}");
    }
}
