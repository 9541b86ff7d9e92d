//! Allis's strategic rules (`c4::strategy`) against exact scores on 7x6:
//! every line of the standard sets (their scores are exact), and positions
//! of random games solved by the solver. Every bound a strategy claims must
//! hold: a strategy for the player not to move says the mover scores at
//! most 0 (below 0 if it wins); one for the mover after a move, that the
//! move scores at least 0 (above 0 if it wins).
//!
//! `cargo test --release` checks every standard-set line and a sample of
//! random positions ([`RANDOM_SAMPLE`]); `scripts/check/check-explain.sh` runs
//! the ignored test below on 100,000 random positions and prints the
//! coverage by stones played.

mod common;

use std::collections::BTreeMap;

use c4::strategy;
use c4::{BoardSize, Game, Score};
use common::sets::standard_sets;
use common::{Rng, moves_string, random_game};

/// Random positions checked in every test run.
const RANDOM_SAMPLE: usize = 300;

/// Stones played -> (positions, with a strategy for the waiting side, with
/// one for the mover).
type Coverage = BTreeMap<usize, (usize, usize, usize)>;

/// Checks the claims on `game` against `score` (exact, for the side to
/// move; `weak` if only its sign is known) and `move_score` (the exact or
/// weak score of a column for the mover). Returns (found for the waiting
/// side, found for the mover).
fn check(
    game: &Game,
    score: Score,
    mut move_score: impl FnMut(usize) -> Score,
    label: &str,
) -> (bool, bool) {
    let waiting = strategy::find(game);
    if let Some(s) = &waiting {
        assert!(
            score <= 0,
            "{label}: strategy for the waiting side, mover scores {score}"
        );
        if s.wins {
            assert!(
                score < 0,
                "{label}: claimed win for the waiting side, mover scores {score}"
            );
        }
    }
    let mover = strategy::find_after_move(game);
    if let Some((col, s)) = &mover {
        assert!(
            score >= 0,
            "{label}: strategy after {col} but the mover scores {score}"
        );
        let after = move_score(*col);
        assert!(
            after >= 0,
            "{label}: strategy after {col}, that move scores {after}"
        );
        if s.wins {
            assert!(
                after > 0,
                "{label}: claimed win after {col}, that move scores {after}"
            );
        }
    }
    (waiting.is_some(), mover.is_some())
}

fn print_coverage(title: &str, coverage: &Coverage) {
    println!("{title}: stones, positions, waiting side found, mover found");
    for (stones, (n, w, m)) in coverage {
        println!("  {stones:2} {n:6} {w:6} {m:6}");
    }
    let (n, w, m) = coverage
        .values()
        .fold((0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    println!("  all {n} {w} {m}");
}

#[test]
fn claims_agree_with_every_standard_set_line() {
    let Some(sets) = standard_sets() else {
        return;
    };
    let board = BoardSize::STANDARD;
    let mut solver = c4::engine::new(board, 16 << 20).unwrap();
    for name in [
        "Test_L3_R1",
        "Test_L2_R1",
        "Test_L2_R2",
        "Test_L1_R1",
        "Test_L1_R2",
        "Test_L1_R3",
    ] {
        let mut coverage = Coverage::new();
        for line in sets.load(name, None) {
            let game = Game::parse(board, &line.moves).unwrap();
            let label = format!("{name} line {}", line.line);
            // Only a claimed mover strategy needs the move's score: the
            // solver's, weak (its sign is all a claim says).
            let found = check(
                &game,
                line.score,
                |col| -solver.solve_weak(&game.after(col)),
                &label,
            );
            let entry = coverage.entry(game.moves_played()).or_default();
            entry.0 += 1;
            entry.1 += usize::from(found.0);
            entry.2 += usize::from(found.1);
        }
        print_coverage(name, &coverage);
    }
}

/// Checks `count` positions of random 7x6 games (seeded) against the solver.
fn random_positions(count: usize, seed: u64) -> Coverage {
    let board = BoardSize::STANDARD;
    let mut solver = c4::engine::new(board, 64 << 20).unwrap();
    if let Some(book) = c4::AnyBook::builtin(board) {
        solver.set_book(Some(book.unwrap())).unwrap();
    }
    let mut rng = Rng(seed);
    let mut coverage = Coverage::new();
    let mut done = 0;
    while done < count {
        // Stones drawn from 12 to 41, where the solver is quick.
        let stones = 12 + rng.below(30);
        let Some(moves) = random_game::<7, 6>(&mut rng, stones) else {
            continue;
        };
        let game = Game::parse(board, &moves_string(&moves)).unwrap();
        if game.is_game_over() || game.can_win_next() {
            continue;
        }
        done += 1;
        let waiting = strategy::find(&game);
        let mover = strategy::find_after_move(&game);
        if waiting.is_some() || mover.is_some() {
            let score = solver.solve_weak(&game);
            let label = format!("random position {}", moves_string(&moves));
            check(
                &game,
                score,
                |col| -solver.solve_weak(&game.after(col)),
                &label,
            );
        }
        let entry = coverage.entry(stones).or_default();
        entry.0 += 1;
        entry.1 += usize::from(waiting.is_some());
        entry.2 += usize::from(mover.is_some());
        if done % 5000 == 0 {
            println!("{done} random positions checked, no false claim");
        }
    }
    coverage
}

#[test]
fn claims_agree_with_the_solver_on_random_positions() {
    let coverage = random_positions(RANDOM_SAMPLE, 0x5eed_a111);
    print_coverage("random sample", &coverage);
}

/// The full run: `C4_EXPLAIN_RANDOM` positions (100,000 by default).
#[test]
#[ignore = "long: run by scripts/check/check-explain.sh"]
fn claims_agree_with_the_solver_on_many_random_positions() {
    let count = std::env::var("C4_EXPLAIN_RANDOM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let coverage = random_positions(count, 0xa111_5000);
    print_coverage("random positions", &coverage);
}
