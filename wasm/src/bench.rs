//! The worker's benchmark: standard test-set lines solved as
//! `c4 bench --no-book` solves them (`scripts/measure/site-bench.sh`).

use serde_json::{Value, json};

use c4::BoardSize;
use c4::memory::min_table_bytes;
use c4::testset::parse_line;

/// Solves the test-set lines of `lines` on `width` x `height` as `c4 bench
/// --no-book` does (see [`crate::bench`]).
pub fn bench(width: usize, height: usize, lines: &str, table: usize) -> Value {
    let Ok(board) = BoardSize::new(width, height) else {
        return json!({ "error": format!("no {width}x{height} board") });
    };
    let mut solver = c4::engine::new(board, table.max(min_table_bytes(board.key_bits())))
        .expect("the table is sized for the board's keys");
    let (mut positions, mut mismatches) = (0u64, 0u64);
    for line in lines
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
    {
        let (game, expected) = match parse_line(board, line) {
            Ok(case) => (case.position, case.score),
            Err(e) => return json!({ "error": format!("not a test-set line: {line}: {e}") }),
        };
        solver.clear();
        positions += 1;
        if solver.solve(&game) != expected {
            mismatches += 1;
        }
    }
    json!({ "positions": positions, "nodes": solver.node_count(), "mismatches": mismatches })
}
