//! Every tunable of the solver in one place: its reason and one measured
//! figure. Figures are one thread, no book, on a 2-core x86-64 VM unless
//! said otherwise; the sweeps behind them are in `docs/experiments.md`.

/// Default transposition table size in bytes (64 MiB): large enough that the
/// standard sets rarely evict a useful entry, small enough for one table per
/// thread anywhere. The empty board searches the same nodes with 1 GiB
/// (`c4 solve --no-book --stats --tt-size 1G ''`).
pub const DEFAULT_TABLE_BYTES: usize = 64 << 20;

/// Enhanced transposition cutoffs are tried at nodes with at least this many
/// empty cells: nearer the end, the extra probes cost more than the nodes
/// they save. Middle-Medium: -23% nodes and -15% time against no ETC
/// (`c4 bench --no-book`). The same nodes prefer a move's refutation
/// square (`Searcher::refutation_square`): from 4, 6 or 10 empty cells the
/// nodes are within 0.1% of 8 on Middle-Medium.
pub const ETC_MIN_EMPTY: i32 = 8;

// The stages of the game (`solver::stage`): each bounded in one unit, the
// stones or the empty cells of the root.

/// The earliest positions have fewer stones than this (on boards bigger
/// than 7x6: more empty cells than 7x6 has then). Their searches outgrow
/// the small table, so they keep the full one (see
/// [`SPLIT_SMALL_MAX_EMPTY`]); the later ones use the small table alone.
/// `444` on 2 threads: 4.7 s with the small table against 6.5 s with 64
/// MiB (`c4 solve --no-book --threads 2 444`).
pub const EARLIEST_END_STONES: usize = 3;

/// The opening has fewer stones than this. Its scores lie near zero, so a
/// strong solve probes the sign right after the big-win and big-loss
/// probes, then walks away from zero: bisecting spends whole proofs there.
/// The empty board 476M -> 377M nodes (`c4 solve --no-book --stats
/// --threads 1 ''`). Its threats are too few to guess the winner by
/// (`probes::sign_probe`).
pub const OPENING_END_STONES: usize = 8;

/// The middle game, past the opening, has at most this many empty cells:
/// the costly scores lie near zero again, and the sign is probed first too
/// (see [`OPENING_END_STONES`]). Middle-Medium 22,462 -> 20,363 nodes a
/// position (-9.3%, `c4 bench --no-book`). Between the opening and the
/// middle game (the opening's end), scores mostly lie far from zero and the
/// probes walk in from the extremes. Boards of four rows probe the sign
/// first at every stage (`probes::probes_sign_first`).
pub const MIDDLE_GAME_MAX_EMPTY: usize = 27;

/// The late game has at most this many empty cells: a strong solve makes
/// one search with the window of its whole score range instead of
/// null-window probes, since near the end every probe walks most of the
/// small tree again. End-Easy 38.0 -> 23.9 nodes a position (`c4 bench
/// --no-book`).
pub const LATE_GAME_MAX_EMPTY: usize = 18;

/// Big scores are common in positions of fewer stones than this, so a weak
/// solve there first probes for a big win and a big loss: early positions
/// often have large scores, later ones rarely. Begin-Easy 18,478 -> 1,687
/// nodes a position (`c4 bench --weak --no-book`).
pub const BIG_SCORES_END_STONES: usize = 16;

/// A solver with several threads searches a position in parallel only if it
/// has at least this many empty cells: below that the search takes less time
/// than starting the threads (tens of microseconds).
pub const PARALLEL_MIN_EMPTY: usize = 20;
// The parallel probes know nothing of the late game's full window; they only
// run from positions of at least `PARALLEL_MIN_EMPTY` empty cells, so a solve
// uses the same search whatever its thread count.
const _: () = assert!(LATE_GAME_MAX_EMPTY < PARALLEL_MIN_EMPTY);

/// Positions with fewer stones than this share a table entry with their
/// mirror image: later ones rarely meet it, and the mirror costs an eighth
/// of a node's time. Below 12 or 8 stones instead: first 20 Begin-Hard
/// lines 10.07M / 10.09M nodes a line against 10.07M, time within the
/// noise (`c4 bench --no-book --limit 20`).
pub const SYMMETRY_MAX_MOVES: usize = 16;

/// A weak solve's probes for a big win and a big loss (see
/// [`BIG_SCORES_END_STONES`]) ask whether the score lies beyond this fraction
/// (numerator, denominator) of the best win and of the worst loss: a probe
/// nearer the extreme costs less when it fails, and the early positions that
/// win or lose big still pass it. Three fifths against one half, nodes, one
/// thread: weak Begin-Easy -55%, Begin-Medium (first 200) -10%, Begin-Hard
/// (first 20) -1.8% (`c4 bench --weak --no-book`).
pub const WEAK_PROBE_FRACTION: (i32, i32) = (3, 5);

/// Size of the small table that searches from most positions use (see
/// [`EARLIEST_END_STONES`]): probes land at random places, and 1 MiB
/// stays in a core's L2 or a near L3 where 64 MiB goes to DRAM. First 20
/// Begin-Hard lines 0.89 s a line against 0.96 s with 2 MiB, though it
/// searches more nodes (`c4 bench --no-book --limit 20`, alternated runs).
pub const SMALL_TABLE_BYTES: usize = 1 << 20;

/// Size of the table that the threads of a parallel search from a root past
/// the earliest share for their big nodes (see [`PARALLEL_SPLIT_MAX_EMPTY`]): a
/// fresh 64 MiB table costs a short solve its page faults, and 4 MiB stays
/// in L3. First 20 Begin-Hard lines each solved alone on 2 threads: 0.03-0.06
/// s of system time in all against 0.21-0.41 s with the 64 MiB table
/// (`c4 solve --no-book --threads 2`).
pub const SHARED_TABLE_BYTES: usize = 4 << 20;

/// In a search from one of the earliest positions, nodes with at most this
/// many empty cells store their bounds in the small table, the others in the
/// full one: deep results are cheap to search again, and their probes stay
/// in cache. The empty board with 1 GiB: 77.0 s unsplit, 40.1 s split
/// (`c4 solve --no-book --threads 1 --tt-size 1G ''`). 18 rather than 22
/// saves nodes, not time that shows: 7x6 on 2 threads, seven alternated
/// runs, 218M-238M nodes against 236M-258M, median 11.7 s against 12.1 s
/// (`c4 solve --no-book --stats --threads 2 ''`).
pub const SPLIT_SMALL_MAX_EMPTY: usize = 18;

/// A parallel search from a root past the earliest with at most this many empty cells
/// keeps one small table for all its threads: a table for its big nodes
/// would hold few of them. From such roots with more, each thread keeps
/// the deep nodes in a small table of its own (see
/// [`PARALLEL_SPLIT_MAX_EMPTY`]).
pub const SHARED_SMALL_MAX_ROOT_EMPTY: usize = 22;

/// In a parallel search from a root past the earliest with more than
/// [`SHARED_SMALL_MAX_ROOT_EMPTY`] empty cells, nodes with more than this many
/// empty cells go to the table the threads share, so that a probe started
/// after another reads what that one proved; the deeper ones stay in each
/// thread's small table. First 20 Begin-Hard lines each solved alone on 2
/// threads: 231M-241M nodes against 258M-261M at 22
/// (`c4 solve --no-book --stats --threads 2`).
pub const PARALLEL_SPLIT_MAX_EMPTY: usize = 18;

/// Boards of this height bet that the first player does not win: a strong
/// solve from a position where the first player is to move probes "is the
/// score at least 0?" as its sign probe, instead of "is it above 0?". On
/// four rows the second player follows up on the even rows, and every known
/// board of four rows and at least four columns is a draw or a win for the
/// second player, so the bet saves the proof of "not above 0" that a loss
/// does not need. 9x4 empty board: 129.4M -> 122.2M nodes
/// (`c4 solve --no-book --stats --threads 1 --width 9 --height 4 ''`).
pub const SECOND_PLAYER_BOARD_HEIGHT: usize = 4;

/// In the middle game (see [`MIDDLE_GAME_MAX_EMPTY`]) a strong solve's big-win and
/// big-loss probes ask whether the score lies beyond this fraction
/// (numerator, denominator) of the best win and of the worst loss, instead
/// of one half. There the two probes proved their bound on 3 of 1,713
/// tries on Middle-Medium: a probe nearer the extreme is refuted sooner,
/// and the big scores of easy positions mostly still pass it. Nodes, one
/// thread, against one half: Middle-Medium 8,438,219 -> 7,997,248 (-5.2%,
/// 441 fewer a line), Middle-Easy 109,366 -> 132,394 (+21%, 23 more a
/// line); the mid-game sets of 9x4, 10x4, 11x4, 8x5 and 7x7 -0.8% to
/// -0.001%; the Begin sets unchanged (`c4 bench --no-book`). On boards of
/// more than four rows the side of the sign bet asks beyond
/// [`MIDDLE_GAME_BET_SIDE_PROBE_FRACTION`] instead.
pub const MIDDLE_GAME_BIG_PROBE_FRACTION: (i32, i32) = (2, 3);

/// In the middle game, on boards other than four rows, the big probe on the
/// side the sign probe bets on (the big win for the bet `0`, the big loss
/// for `-1`; see `probes::sign_probe`) asks beyond this fraction instead
/// of [`MIDDLE_GAME_BIG_PROBE_FRACTION`]: the bet names the likelier
/// winner, whose big scores between one half and two thirds the farther
/// bar leaves to the walk from zero, a value at a time. Nodes, one thread,
/// against two thirds on both sides: Middle-Easy 132.4 -> 111.5 a line
/// (-15.8%), Middle-Medium 7,997 -> 8,238 (+3.0%), 8x5 and 7x7 within
/// 0.03% (`c4 bench --no-book`). On four rows, where the bet is not the
/// likelier big score, 9x4 +0.4%.
pub const MIDDLE_GAME_BET_SIDE_PROBE_FRACTION: (i32, i32) = (1, 2);

/// Move ordering at nodes with at least this many empty cells also counts
/// the live windows through each move's cell (lines of four that hold no
/// stones of both sides): early in the game few moves make threats. The
/// empty board 415M -> 246M nodes (`c4 solve --no-book --stats --threads 1
/// ''`).
pub const LIVE_WINDOWS_MIN_EMPTY: usize = 24;

/// [`LIVE_WINDOWS_MIN_EMPTY`] on boards of [`SECOND_PLAYER_BOARD_HEIGHT`]
/// rows: there the game runs to the last cell and threats come late, so the
/// live windows still order the moves well far from the root. Empty board,
/// one thread: 9x4 88.8M -> 83.0M nodes, 10x4 1.92G -> 1.64G nodes and
/// 116 s -> 106 s (`c4 solve --no-book --stats --threads 1 --width 10
/// --height 4 ''`).
pub const FOUR_ROW_LIVE_WINDOWS_MIN_EMPTY: usize = 12;

/// See [`LIVE_WINDOWS_MIN_EMPTY`]: a move's key is this times its threat
/// score plus [`LIVE_WINDOW_WEIGHT`] per live window. First 20 Begin-Hard
/// lines: 10.02M nodes a line with 5 and 4, 10.11M-10.99M with the other
/// weights tried (`c4 bench --no-book --limit 20`).
pub const THREAT_SCORE_WEIGHT: i32 = 5;

/// See [`THREAT_SCORE_WEIGHT`].
pub const LIVE_WINDOW_WEIGHT: i32 = 4;

/// On boards at least this wide, move ordering takes the moves one set bit
/// at a time, with the column's rank towards the centre in each key for the
/// ties; narrower boards go through the columns from the edges inwards.
/// From seven columns on, a column loop's test for a candidate in each
/// column is a branch the CPU mispredicts, and wider boards hold no
/// candidate in most columns. Instructions (callgrind, `c4 bench --no-book
/// --threads 1`, nodes identical): 9x4 -1.9%, 8x5 -1.8%, 10x4 -2.5% over
/// the first lines of `testsets/mid-WxH.txt`; 7x6 Middle-Medium (first 30)
/// -1.0%, Begin-Medium (5) -1.2%, Begin-Hard (2) -1.3%, weak Middle-Medium
/// -1.1%, with 3-4% fewer mispredicted branches in cachegrind's simulation.
/// Begin-Easy (100) pays +1.3%: its keys arrive out of order and the sorter
/// shifts them.
pub const MOVES_BY_BITS_MIN_WIDTH: usize = 7;

/// The board sizes whose search is compiled a second time for x86-64-v3
/// (AVX2, BMI1/2, LZCNT: x86-64 CPUs since about 2013) and run on the CPUs
/// that have it, chosen when a search starts; the binary still runs on
/// every x86-64. Each size listed costs one more copy of the search to
/// compile, so only the standard board and the other boards the solver is
/// compared on. Intel Xeon (Sapphire Rapids class, KVM), three alternated
/// rounds, nodes identical: Middle-Medium 1,081 against 1,128 µs (-4.2%),
/// weak -3.8%, first 20 Begin-Hard lines -2.3%; the generated mid-game
/// sets (`testsets/mid-WxH.txt`) 10x4 -4%, 11x4 -6.5%, 7x7 -6%, 9x4
/// within the noise. Instructions: -3.6% to -3.8% on the 7x6 sets, 9x4
/// -5.4%, 10x4 -5.2% (callgrind).
pub const NEWER_CPU_COPY_SIZES: &[(usize, usize)] =
    &[(7, 6), (9, 4), (10, 4), (11, 4), (8, 5), (7, 7)];

/// In a search on several threads, nodes with at least this many empty
/// cells mark themselves as being searched and defer the moves another
/// thread is searching: below it the marks cost more than the duplicated
/// work they avoid. First 10 Begin-Hard lines each solved alone on 2
/// threads: 131.5M nodes against 138.0M without deferring.
pub const DEFER_MIN_EMPTY: usize = 22;

/// Slots of the set of nodes being searched (as a power of two): far more
/// than the big nodes on the threads' paths, so marks rarely collide.
pub const BUSY_SLOTS_BITS: u32 = 12;

/// How often (in nodes, a power of two) a search polls the flag by which
/// another thread stops it, and its node limit: often enough for a parallel
/// search to drop a useless probe within tens of microseconds.
pub const STOP_POLL_NODES: u64 = 1 << 10;

/// How often (in nodes, a power of two multiple of [`STOP_POLL_NODES`]) a
/// search reports its nodes to the caller's progress sink and reads the
/// caller's stop flag: about 10 ms of one thread's search, and too rare to
/// cost anything (node counts identical, times within the noise of
/// alternated runs against the build without it, `c4 bench --no-book`).
pub const PROGRESS_POLL_NODES: u64 = 1 << 18;
const _: () = assert!(PROGRESS_POLL_NODES.is_multiple_of(STOP_POLL_NODES));
