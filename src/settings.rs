//! Every tunable of the solver in one place, each with the reason for its value.

/// Default transposition table size in bytes (64 MiB: 4M buckets, 8M
/// entries). Large enough that the standard test sets rarely evict a useful
/// entry, small enough that one table per thread fits anywhere; the empty
/// board wants more (`--tt-size 1G`).
pub const DEFAULT_TABLE_BYTES: usize = 64 << 20;

/// Enhanced transposition cutoffs are tried at nodes with at least this many
/// empty cells. Near the end of the game subtrees are so small that the extra
/// table probes cost more than the nodes they save. Measured on Middle-Medium:
/// thresholds 4, 8 and 12 save 27%, 23% and 14% of the nodes, and 8 was the
/// fastest (15% less time than no ETC).
pub const ETC_MIN_EMPTY: i32 = 8;

/// A solver with several threads searches a position in parallel only if it
/// has at least this many empty cells: below that the search takes less time
/// than starting the threads (tens of microseconds), so it runs on one.
pub const PARALLEL_MIN_EMPTY: usize = 20;

/// A strong solve of a position with at most this many empty cells makes one
/// search with the window of its whole score range instead of null-window
/// probes (see `exact_score` in `src/solver/mod.rs`). Near the end of the
/// game the tree is small and every probe walks most of it again; one
/// full-window search walks it once. Nodes, one thread, thresholds 0 (never)
/// / 12 / 16 / 18 / 20 / 22 / 24: End-Easy 38.0 / 28.8 / 23.8 / 23.8 / 23.8
/// / 23.8 / 23.8, Middle-Easy 280 / 275 (at 14) / 267 / 263 / 267 / 297 /
/// 376, Middle-Medium 22,507 / 22,507 / 22,492 / 22,462 / 22,394 / 22,360 /
/// 22,339 (End-Easy is 23.9 at 18 with the solver's rule that ranges of
/// three values keep their null windows); the Begin sets start further from
/// the end and do not change. Instructions on End-Easy and Middle-Easy
/// together (callgrind): -7.3% at 18. Above 20 Middle-Easy, whose positions
/// have 14 to 27 empty cells, loses: with many cells left a wide window
/// prunes much less.
pub const FULL_WINDOW_MAX_EMPTY: usize = 18;
// The parallel probes (`Solver::parallel_probes`) know nothing of the full
// window; they only run from positions of at least `PARALLEL_MIN_EMPTY`
// empty cells, so a solve uses the same search whatever its thread count.
const _: () = assert!(FULL_WINDOW_MAX_EMPTY < PARALLEL_MIN_EMPTY);

/// Positions with fewer stones than this are stored under a key shared with
/// their mirror image.
pub const SYMMETRY_MAX_MOVES: usize = 16;

/// A weak solve of a position with fewer stones than this first probes for a
/// big win and a big loss (see `weak_score` in `src/solver/mod.rs`): early
/// positions often have large scores, later ones rarely.
pub const WEAK_PROBES_MAX_MOVES: usize = 16;

/// Size of the small table that searches from most positions use (see
/// [`SMALL_TABLE_MIN_STONES`]). A search probes the table at random places,
/// so its speed is the memory latency of the table: 1 MiB stays in this
/// machine's caches (1 MiB of L2 per core, 32 MiB of L3; the TLB reaches a
/// few MiB) where a 64 MiB table goes to DRAM on most probes. Measured with
/// `c4 bench`, one thread, table cleared per position, mean time by table
/// size 512K / 1M / 2M / 4M / 8M / 64M: Middle-Medium 1.27 / 1.35 / 1.32 /
/// 2.57 / - / 3.09 ms, Begin-Medium (first 40) 32.7 / 34.4 / 30.0 / 41.8 /
/// 61.1 / 68.6 ms, Begin-Hard (first 5) 1.07 / 0.89 / 0.87 / 1.05 / 1.61 /
/// 2.01 s (the 64M column and 4M Middle-Medium with a background job
/// running, the rest quiet), although the small table costs nodes
/// (Begin-Hard first 5 +11%).
///
/// Those runs left 2 MiB against 1 MiB too close to call, and 2 MiB was
/// kept until 2026-11-24, when old and new sizes were alternated in one session (one
/// binary, medians): 1 MiB was faster everywhere although it costs nodes.
/// Middle-Medium (1000, four runs each) 1.53 ms against 1.64 ms (22,507
/// against 22,470 nodes); first 20 Begin-Hard lines (three runs) 0.89 s
/// against 0.96 s (12.52M against 11.55M nodes); first 40 Begin-Medium
/// 36.7 ms against 42.8 ms (537,464 against 521,626). Two threads gain
/// most, each with a table in its own core's L2 instead of two 2 MiB
/// tables competing for L3: `c4 bench --threads 2`, wall time, first 200
/// Begin-Medium lines 5.2-6.1 s against 6.2-6.3 s (one thread 9.9 s
/// against 10.1 s), all 1000 Middle-Medium lines 1.08-1.19 s against
/// 0.91-1.36 s (one thread 2.07-2.32 s against 2.42-2.64 s); the empty
/// board, 2 threads, 1 GiB, 21.7 s (549M nodes) against 25.1 s (506M).
pub const SMALL_TABLE_BYTES: usize = 1 << 20;

/// Size of the table that the threads of a parallel search from a position
/// of at least [`SMALL_TABLE_MIN_STONES`] stones share for their nodes with
/// more than [`SPLIT_SMALL_MAX_EMPTY`] empty cells (each keeps the deeper
/// ones in a small table of its own). Such a search stores few big nodes,
/// and the full table (64 MiB by default) cost a solve of one position its
/// page faults: a fresh 64 MiB took up to 0.3 s of system time to fault in
/// on this virtual machine (less when the previous process had just freed
/// the memory), inside a 2-thread solve of a Begin-Hard line that takes
/// 0.2-2 s. The first 20 Begin-Hard lines each solved alone, 2 threads:
/// with the full table's size set by `--tt-size` (two alternated rounds),
/// 64 MiB 0.704 and 0.709 s a line, 16 MiB 0.677 and 0.653 s, 4 MiB 0.631
/// and 0.672 s, nodes within 2%; this table against the 64 MiB full one,
/// system time of the 20 processes 0.03-0.06 s against 0.21-0.41 s, wall
/// time 12.6-12.9 s against 12.2-13.5 s (within the noise), median solve
/// time 0.669 s against 0.687 s (three rounds). 4 MiB also stays in the
/// shared L3 cache.
pub const SHARED_TABLE_BYTES: usize = 4 << 20;

/// Searches from positions with at least this many stones and at most
/// [`SMALL_TABLE_MAX_EMPTY`] empty cells use the small table alone; the
/// others, whose searches are the biggest, split their nodes between the
/// solver's full table (`--tt-size`) and the small one (see
/// [`SPLIT_SMALL_MAX_EMPTY`]).
/// On 7x6 with 2 threads, 3 stones (`444`, 146M nodes) took 4.7 s with the
/// small table against 6.5 s with 64 MiB; 2 stones (`44`, 132M nodes) 6.9 s
/// against 6.2 s: there the small table's extra nodes start to cost more
/// than its faster memory saves.
pub const SMALL_TABLE_MIN_STONES: usize = 3;

/// See [`SMALL_TABLE_MIN_STONES`]: on boards bigger than 7x6, positions with
/// more empty cells than 7x6 has after 3 stones keep the full table.
pub const SMALL_TABLE_MAX_EMPTY: usize = 39;

/// In a search from a position earlier than [`SMALL_TABLE_MIN_STONES`] (or
/// with more than [`SMALL_TABLE_MAX_EMPTY`] empty cells), nodes with at most
/// this many empty cells store their bounds in the small table, the others in
/// the full one. Nearly all nodes are deep ones, cheap to search again, so
/// they lose little in the small table and their probes stay in cache; the
/// few costly results near the root keep the full table's capacity. Empty
/// board, 1 GiB, same session: one thread 77.0 s (339M nodes) unsplit, 40.1
/// s (377M, with the sign-first probes) split at 24; two threads 36.5 s
/// unsplit, 22-26 s split with a small table per thread. Sweep on `44`, 2
/// threads, two runs each: 7.5-9.2 s unsplit, 4.9 s at 24, 6.8-7.4 s at 20,
/// 5.8-7.2 s at 16, and slower with a 1 MiB or 8 MiB small table (noisy;
/// the small table was 2 MiB then, see [`SMALL_TABLE_BYTES`] for why it is
/// 1 MiB now).
/// Later roots keep the small table alone: Begin-Hard (first 10) searched
/// the same nodes within 0.5% split at 24 or not, and its time was no
/// better.
///
/// 22 since the live-window move ordering (2026-11-24, fifth session; see
/// [`LIVE_WINDOWS_MIN_EMPTY`]), which made the trees near the root smaller.
/// Empty board, 2 threads, eight alternated runs each (an experiment
/// binary, in a noisy hour): split at 24, 10.8-13.8 s (median 11.6 s) and
/// 258M-278M nodes (median 269M); at 22, 10.5-12.2 s (median 11.3 s) and
/// 244M-262M (median 253M): fewer nodes in every run, the time level within
/// the noise; at 20 (two runs) 10.2 and 12.8 s, 241M and 253M. One
/// thread, two pairs run at once: 246M nodes and 21.4 / 20.8 s at 24, 238M
/// and 21.5 / 19.3 s at 22. It also sets which parallel
/// searches from later roots split (roots with more empty cells than this):
/// first 20 Begin-Hard lines each solved alone on 2 threads, 12.5 / 13.0 s
/// at 22 against 12.8 / 12.6 s at 24.
pub const SPLIT_SMALL_MAX_EMPTY: usize = 22;

/// In a parallel search from a later root (at least
/// [`SMALL_TABLE_MIN_STONES`] stones) with more than
/// [`SPLIT_SMALL_MAX_EMPTY`] empty cells, the nodes with more than this many
/// empty cells go to the table the threads share (`SHARED_TABLE_BYTES`), the
/// deeper ones to each thread's small table. Sharing more of the tree lets a
/// thread that starts a probe after another one read what that one proved:
/// most of the nodes two threads search beyond one thread's are probes that
/// start without the results of the probe before them (a probe of "above
/// 3" started while another thread still proves "above 2" took 9.1M nodes
/// where the same probe after it took 1.0M). The deepest nodes stay
/// private: a shared small table costs a cache-line transfer between the
/// cores at every store. First 20 Begin-Hard lines each solved alone on 2
/// threads (`c4 solve --no-book --stats`, sums of the 20 solves, one
/// experiment binary, 2026-11-25): 22 (the split of the earliest roots,
/// used before) 258.6M / 258.5M nodes and 6.14 / 6.12 s; 20 250.2M /
/// 248.8M and 6.05 / 6.22 s; 18 231.1M / 228.2M and 5.66 / 5.61 s; 16
/// 233.9M / 220.6M and 5.96 / 5.74 s; 14 214.6M / 224.0M and 5.75 / 6.13 s
/// (the 4 MiB shared table misses more); 18 or 16 with an 8 MiB shared
/// table, 5.95-6.16 s. One thread: 201.3M nodes, 8.97-9.92 s. The built
/// binaries alternated, three rounds: 232M-241M nodes and 6.23-6.41 s
/// against 260M-261M and 6.38-6.67 s; with one thread 9.50-10.41 s.
pub const PARALLEL_SPLIT_MAX_EMPTY: usize = 18;

/// A strong solve of a position with fewer stones than this probes the sign
/// of the score right after the two cheap probes for a big win and a big
/// loss, then walks away from zero one value at a time (see
/// `sequential_probe` in `src/solver/mod.rs`). Such early positions mostly
/// have scores near zero, where the bisecting order spends whole proofs on
/// probes that the sign and the walk from it settle anyway. Empty board, one thread: probes 10, -10, -4,
/// 5, 2, -1, 1, 0 (476M nodes, 262M of them in the last) became 10, -10, 0,
/// 1 (377M). First 20 Begin-Hard lines (fewer than 8, 6, 10 stones against
/// none): 12.00M, 12.61M, 12.09M nodes against 12.82M; Begin-Medium (first
/// 50): +0.6% nodes at 8, +2% at 10, +10% at 12, hence 8.
pub const SIGN_FIRST_MAX_MOVES: usize = 8;

/// Positions with at most this many empty cells also probe the sign first
/// (and walk from it, as [`SIGN_FIRST_MAX_MOVES`] describes), unless they
/// are close enough to the end for the single full-window search
/// ([`FULL_WINDOW_MAX_EMPTY`]). In the middle game the score range is still
/// wide (`[-11, 12]` with 24 empty cells) but the scores that cost the most
/// lie near zero, where bisecting makes five to seven probes (for a score
/// of 0: 6, -6, -2, 3, 1, 0, -1) and the sign and the walk make four (6,
/// -6, 0, -1). One thread, no book, nodes against the bisecting order: all
/// 1000 Middle-Medium lines (15 to 27 stones) 22,462 -> 20,363 (-9.3%),
/// Middle-Easy 263 -> 266 (+1%; its positions mostly score far from zero,
/// but they are cheap); at most 28 / 26 / 25 empty cells: Middle-Medium
/// 20,363 / 20,864 / 21,421 (28 gains nothing more there and would reach
/// Begin-Medium's 14-stone lines). Positions with 28 to 34 empty cells (8
/// to 14 stones) keep bisecting: from 30 empty cells on, the first 40
/// Begin-Medium lines took 548,275 nodes against 537,464, and walking on
/// every position from 8 stones on, 602,928 (+12%), since those positions
/// mostly score far from zero and the walk then takes one probe per value.
pub const SIGN_FIRST_MAX_EMPTY: usize = 27;

/// Move ordering at nodes with at least this many empty cells also counts,
/// for each move, the *live* windows through its cell: the lines of four
/// cells that do not hold stones of both sides, so one side may still
/// complete them (see `order_moves` in `src/solver/search.rs`). Early in the
/// game few moves create threats, so the threat counts tie and only the
/// centre-first rule was left to choose; the live windows say which cells
/// still matter. A move's key becomes `THREAT_SCORE_WEIGHT` times its threat
/// score plus `LIVE_WINDOW_WEIGHT` per live window.
///
/// One thread, no book, nodes before -> after: the empty board 415,250,900
/// -> 246,158,313 (-41%; 33.2 s -> 18.1 s, both run at once on the two
/// cores); first 20 Begin-Hard lines 12,520,462 -> 10,065,480 (-20%); first
/// 200 Begin-Medium lines 674,226 -> 594,049 (-12%); Begin-Easy (first 300)
/// 2,058 -> 1,645 (-20%); Middle-Medium 20,363 -> 19,834 (-2.6%);
/// Middle-Easy 266 -> 254. Thresholds 18 / 20 / 22 / 26 / 30 (weights 5 and
/// 4): Middle-Medium 20,060 / - / 19,684 / 20,080 / 20,363, Begin-Hard 20
/// lines - / 10.39M / 10.22M / 10.02M / -, Begin-Medium 200 lines - / 610K /
/// 600K / 588K / -, the empty board - / 242M / 242M / 254M / 277M. Below
/// about 20 empty cells threats are what decide, and the count only adds
/// work.
pub const LIVE_WINDOWS_MIN_EMPTY: usize = 24;

/// See [`LIVE_WINDOWS_MIN_EMPTY`]: the weights of the threat score and of a
/// live window. First 20 Begin-Hard and first 200 Begin-Medium lines, from 26
/// empty cells: 5 and 4 gave 10.02M and 588K nodes; 4 and 3, 10.11M and 588K;
/// 2 and 1, 10.51M and 598K; 1 and 1, 10.14M and 602K (and from 20 empty
/// cells Middle-Medium +4%); 6 and 4 (weights 4 and 3 for windows free of our
/// or of the opponent's stones), 10.99M and 598K; the windows alone (0 and
/// 1), 2.8 times the nodes on the first 5 Begin-Hard lines. Weighting windows
/// by the stones they hold (2/4/6 for 0/1/2 of ours, 3/5 for 1/2 of the
/// opponent's, and similar) moved Begin-Hard by -10% to +10% and Begin-Medium
/// by +1% to +4%, and cost the empty board 258M-269M nodes against 246M.
pub const THREAT_SCORE_WEIGHT: i32 = 5;

/// See [`THREAT_SCORE_WEIGHT`].
pub const LIVE_WINDOW_WEIGHT: i32 = 4;

/// In a search on several threads, nodes with at least this many empty
/// cells mark themselves as being searched, and defer the moves that
/// another thread is searching (see `Busy` in `src/solver/search.rs`).
/// Below it subtrees are small, and the marks would cost more than the
/// duplicated work they avoid. Two threads, the first 10 Begin-Hard lines
/// each solved alone, nodes of both threads summed (means of three runs):
/// 140.6M without deferring, 131.8M / 134.9M / 134.0M / 132.9M at 12 / 16
/// / 22 / 28; times were too noisy that day to choose among these. Against
/// the binary before deferring, four alternated runs: 131.5M against
/// 138.0M nodes, median 6.30 s against 6.53 s. The empty board (two runs
/// each): 21.8-24.7 s against 20.7-26.9 s, no difference seen.
pub const DEFER_MIN_EMPTY: usize = 22;

/// Slots of the set of nodes being searched (as a power of two): far more
/// than the big nodes on the threads' paths, so marks rarely collide.
pub const BUSY_SLOTS_BITS: u32 = 12;
