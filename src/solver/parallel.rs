//! Threads searching one position together: the null-window probes run side
//! by side over shared tables, one probe shared by every thread, and the set
//! of big nodes in progress that lets a thread defer another's moves. The
//! solver's threads are started here and nowhere else.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::Bitboard;
use crate::position::Position;
use crate::rules::Score;
use crate::settings::BUSY_SLOTS_BITS;
use crate::solver::Solver;
use crate::solver::busy::Busy;
use crate::solver::control::{pack, unpack};
use crate::solver::probes::{
    FromRoot, ProbePlan, Root, RootSearch, choose_probe, probe, sequential_probe,
};
use crate::solver::search::Searcher;
use crate::solver::stage::Stage;
use crate::solver::table::Tables;

/// Runs `body(thread)` for every `thread` in `0..threads` at once: the last
/// on the calling thread, the others on threads started for the call, and
/// returns when all are done.
///
/// Not generic: the bodies come as one trait object, so the code that
/// starts threads is compiled once, not once per board size and search
/// (five times per size, about a quarter of the library's LLVM IR, before;
/// `cargo llvm-lines --lib`). One indirect call per thread and search costs
/// nothing beside a search worth running on several threads.
fn on_threads(threads: usize, body: &(dyn Fn(usize) + Sync)) {
    std::thread::scope(|scope| {
        for thread in 0..threads.saturating_sub(1) {
            scope.spawn(move || body(thread));
        }
        body(threads - 1);
    });
}

/// `probing` value of a thread that is not probing.
const NOT_PROBING: u64 = u64::MAX;

/// The probe value stored in a `probing` slot, if any.
fn probe_value(slot: u64) -> Option<Score> {
    (slot != NOT_PROBING).then_some(slot as u32 as i32)
}

/// One thread's probe of a parallel solve: `probe(thread, med, stop)` asks
/// "is the score above `med`?" on `thread`'s tables, stopping when `stop`
/// is set, and returns the fail-soft value (`None` if stopped) and the
/// nodes it searched.
type ThreadProbe<'a> = dyn Fn(usize, Score, &AtomicBool) -> (Option<Score>, u64) + Sync + 'a;

/// One thread's whole search of a parallel solve: `search(thread, stop)`
/// returns the answer (`None` if stopped) and the nodes it searched.
type ThreadSearch<'a> = dyn Fn(usize, &AtomicBool) -> (Option<Score>, u64) + Sync + 'a;

/// How the threads of a parallel solve choose their probes (see
/// [`choose_probe`]).
#[derive(Clone, Copy)]
struct ProbeOrder {
    /// The single-thread order of the root's probes (see
    /// `probes::ProbePlan`).
    plan: ProbePlan,
    /// Whether the root is past the earliest positions (see
    /// `Stage::earliest`).
    past_earliest: bool,
}

/// The score clamped to `[lo, hi]`, by null-window probes run with
/// `probe` on `threads` threads at once, and the nodes they searched; the
/// score is `None` if `caller_stop` was raised first.
///
/// The threads share the range `[a, b]` known to hold the answer. Each
/// repeatedly probes a value in the range that no other thread is probing
/// (see [`choose_probe`]), so that the few expensive proofs a score needs
/// (for a score of 1: "above 0" and "not above 1") run side by side
/// instead of one after the other. A probe that the others' results made
/// useless is stopped. When only one useful probe is left, the idle
/// threads help it (see [`Searcher::parallel`]).
///
/// Not generic, like [`on_threads`]: only `probe` is compiled per board
/// size.
fn share_probes(
    threads: usize,
    (lo, hi): (Score, Score),
    order: ProbeOrder,
    caller_stop: Option<&AtomicBool>,
    probe: &ThreadProbe<'_>,
) -> (Option<Score>, u64) {
    let range = AtomicU64::new(pack(lo, hi));
    let probing: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(NOT_PROBING)).collect();
    let stops: Vec<AtomicBool> = (0..threads).map(|_| AtomicBool::new(false)).collect();
    let nodes = AtomicU64::new(0);
    on_threads(threads, &|thread| {
        let (range, probing, stops) = (&range, &probing, &stops);
        let mut total = 0;
        // Probes this thread has made: thread 0 follows the
        // single-thread sequence (see `sequential_probe`).
        let mut done = 0;
        loop {
            let (a, b) = unpack(range.load(Ordering::Acquire));
            if a >= b || caller_stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                break;
            }
            let busy: Vec<i32> = probing
                .iter()
                .enumerate()
                .filter(|&(u, _)| u != thread)
                .filter_map(|(_, p)| probe_value(p.load(Ordering::Acquire)))
                .collect();
            let preferred = sequential_probe(done, a, b, order.plan);
            let med = choose_probe(
                thread,
                preferred,
                (a, b),
                &busy,
                order.past_earliest,
                order.plan.sign,
            );
            probing[thread].store(med as u32 as u64, Ordering::Release);
            stops[thread].store(false, Ordering::Release);
            // Re-check: the range may have moved since it was read.
            let (a, b) = unpack(range.load(Ordering::Acquire));
            if med < a || med >= b {
                continue;
            }
            let (r, searched) = probe(thread, med, &stops[thread]);
            total += searched;
            done += 1;
            probing[thread].store(NOT_PROBING, Ordering::Release);
            let Some(r) = r else {
                if caller_stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    // Make the others unwind now rather than at
                    // their next look at the caller's flag.
                    stops.iter().for_each(|s| s.store(true, Ordering::Release));
                }
                continue;
            };
            // Narrow the shared range with what this probe proved.
            let mut current = range.load(Ordering::Acquire);
            loop {
                let (a, b) = unpack(current);
                let (a2, b2) = if r <= med {
                    (a, b.min(r.max(lo)))
                } else {
                    (a.max(r.min(hi)), b)
                };
                match range.compare_exchange(
                    current,
                    pack(a2, b2),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) => break,
                    Err(seen) => current = seen,
                }
            }
            // Stop the probes that no longer matter.
            let (a, b) = unpack(range.load(Ordering::Acquire));
            for (u, p) in probing.iter().enumerate() {
                if let Some(m) = probe_value(p.load(Ordering::Acquire))
                    && (a >= b || m < a || m >= b)
                {
                    stops[u].store(true, Ordering::Release);
                }
            }
        }
        nodes.fetch_add(total, Ordering::Relaxed);
    });
    // The range closes unless the caller stopped the search first.
    let (a, b) = unpack(range.into_inner());
    ((a >= b).then_some(a), nodes.into_inner())
}

/// Runs `search` on `threads` threads at once and returns the first answer
/// and the nodes of all: the first thread to finish stops the others.
/// Not generic, like [`on_threads`].
fn first_answer(threads: usize, search: &ThreadSearch<'_>) -> (Option<Score>, u64) {
    let stop = AtomicBool::new(false);
    let answer = OnceLock::new();
    let nodes = AtomicU64::new(0);
    on_threads(threads, &|thread| {
        let (score, searched) = search(thread, &stop);
        if let Some(score) = score {
            let _ = answer.set(score);
        }
        // Done or stopped by the caller: either way the others can stop.
        stop.store(true, Ordering::Relaxed);
        nodes.fetch_add(searched, Ordering::Relaxed);
    });
    (answer.into_inner(), nodes.into_inner())
}

impl<const W: usize, const H: usize, B: Bitboard> Solver<W, H, B> {
    /// Whether a search of `pos` runs on several threads: only if the solver
    /// has them and the position's stage is worth them (see
    /// [`Stage::worth_threads`]: below that, starting the threads costs more
    /// than the search).
    pub(super) fn parallel(&self, pos: &Position<W, H, B>) -> bool {
        self.threads > 1 && Stage::of(pos).worth_threads()
    }

    /// The tables of each thread of a parallel search from `pos`.
    fn thread_tables(&self, pos: &Position<W, H, B>) -> Vec<Tables<'_, B>> {
        let mut tables = Vec::with_capacity(self.threads);
        for thread in 0..self.threads {
            tables.push(self.tables(pos, thread, true));
        }
        tables
    }

    /// The score of `pos` clamped to `[lo, hi]`, by null-window probes run on
    /// all threads at once over the shared tables (see [`share_probes`]);
    /// `None` if the caller's stop flag (`stoppable`) was raised first.
    pub(super) fn parallel_probes(
        &mut self,
        pos: &Position<W, H, B>,
        lo: Score,
        hi: Score,
        stoppable: bool,
    ) -> Option<Score> {
        let root = Root::of(pos);
        let order = ProbeOrder {
            plan: ProbePlan::of(root),
            past_earliest: !root.stage.earliest(),
        };
        let tables = self.thread_tables(pos);
        let book = self.book.as_deref();
        let (caller_stop, progress) = self.control(stoppable);
        let in_progress = Busy::new(BUSY_SLOTS_BITS);
        let (score, nodes) = share_probes(
            self.threads,
            (lo, hi),
            order,
            caller_stop,
            &|thread, med, stop| {
                let mut searcher = Searcher::parallel(tables[thread], stop)
                    .with_book(book)
                    .with_busy(&in_progress)
                    .with_control(caller_stop, progress);
                if order.past_earliest {
                    // From the earliest roots it cost more than it
                    // saved (see `Searcher::watching_path`).
                    searcher = searcher.watching_path();
                }
                if order.plan.sign < 0 && med == order.plan.sign {
                    // The bet of a loss: its probe expects the root to
                    // fail low (see `Searcher::expecting_fail_low`).
                    searcher = searcher.expecting_fail_low(pos.moves_played() % 2);
                }
                let r = probe(
                    &mut FromRoot {
                        searcher: &mut searcher,
                        pos,
                    },
                    med,
                );
                searcher.publish();
                (r, searcher.nodes)
            },
        );
        self.nodes += nodes;
        score
    }

    /// Runs `search` (which returns `None` only when stopped) from `pos`: on
    /// this thread alone, or, if `pos` is searched in parallel, on every
    /// thread at once. `None` if the caller's stop flag (`stoppable`) was
    /// raised before an answer.
    ///
    /// On several threads every thread runs the same search on the shared
    /// tables, in the same order, deferring the moves another thread is
    /// searching (see [`Busy`]). They duplicate some work, but each finds
    /// results the others then read from the table instead of searching;
    /// the first thread to finish has the answer (all threads compute the
    /// same exact value, since table entries are true bounds) and stops the
    /// others (see [`first_answer`]).
    ///
    /// `search` is a trait object over a trait object, so that it is
    /// compiled once, not once per board size and kind of search: one
    /// indirect call per search from a root.
    pub(super) fn run(
        &mut self,
        pos: &Position<W, H, B>,
        stoppable: bool,
        search: &(dyn Fn(&mut dyn RootSearch) -> Option<Score> + Sync),
    ) -> Option<Score> {
        let (caller_stop, progress) = self.control(stoppable);
        if !self.parallel(pos) {
            let mut searcher = Searcher::new(self.tables(pos, 0, false))
                .with_book(self.book.as_deref())
                .with_control(caller_stop, progress);
            let score = search(&mut FromRoot {
                searcher: &mut searcher,
                pos,
            });
            searcher.publish();
            let nodes = searcher.nodes;
            self.nodes += nodes;
            return score;
        }
        let tables = self.thread_tables(pos);
        let book = self.book.as_deref();
        let busy = Busy::new(BUSY_SLOTS_BITS);
        let (answer, nodes) = first_answer(self.threads, &|thread, stop| {
            let mut searcher = Searcher::parallel(tables[thread], stop)
                .with_book(book)
                .with_busy(&busy)
                .with_control(caller_stop, progress);
            let score = search(&mut FromRoot {
                searcher: &mut searcher,
                pos,
            });
            searcher.publish();
            (score, searcher.nodes)
        });
        self.nodes += nodes;
        answer
    }
}
