//! The test sets the tests read: the standard sets (Pascal Pons's, found at
//! run time and never copied into the repository), the repository's own
//! sets in `testsets/`, and the standard-set lines tests cite as witnesses.
//!
//! Where the standard sets are is decided once, here, by the environment
//! variable [`STANDARD_SETS_ENV`]:
//!
//! - unset or empty: `../shared/testsets` beside the crate;
//! - `none`: declared absent (a fresh clone, or CI proving that the tests
//!   pass without them);
//! - any other value: that directory.
//!
//! When they are absent, a test that needs them prints one line on standard
//! error (`skipped TEST: no standard test sets (WHY) ...`) and passes;
//! unless the environment variable `CI` is set and not empty: then absent
//! sets are an error and the test fails.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};

use c4::Score;

/// The environment variable that says where the standard sets are (a
/// directory) or that they are absent (`none`).
pub const STANDARD_SETS_ENV: &str = "C4_STANDARD_SETS";

/// The value of [`STANDARD_SETS_ENV`] that declares the sets absent.
pub const DECLARED_ABSENT: &str = "none";

/// The start of the line a test prints when it skips for want of the sets
/// (`.ci/run` looks for it).
pub const SKIP_PREFIX: &str = "skipped ";

/// The words after the test's name in a skip line.
pub const SKIP_REASON: &str = "no standard test sets";

/// One line of a test set.
#[derive(Debug, Clone)]
pub struct TestLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// The moves, as in the file.
    pub moves: String,
    /// The expected exact score.
    pub score: Score,
}

impl TestLine {
    /// The line as the standard format writes it: `moves score`.
    pub fn text(&self) -> String {
        format!("{} {}", self.moves, self.score)
    }
}

/// `../shared/testsets` beside the crate: where the standard sets are
/// unless [`STANDARD_SETS_ENV`] says otherwise.
pub fn default_standard_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testsets")
}

/// Where the standard sets are, given the value of [`STANDARD_SETS_ENV`]
/// (`None` when unset) and the default directory; `Err` says why they are
/// absent.
pub fn locate_standard_sets(
    setting: Option<&OsStr>,
    default_dir: &Path,
) -> Result<PathBuf, String> {
    let dir = match setting {
        Some(value) if value == DECLARED_ABSENT => {
            return Err(format!("{STANDARD_SETS_ENV}={DECLARED_ABSENT}"));
        }
        Some(value) if !value.is_empty() => PathBuf::from(value),
        _ => default_dir.to_path_buf(),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!("{} is not a directory", dir.display()))
    }
}

/// What a test does when the sets are absent for reason `why`: `Ok` with the
/// line it prints before passing, or, in CI, `Err` with its failure message.
pub fn absence_verdict(test: &str, why: &str, in_ci: bool) -> Result<String, String> {
    if in_ci {
        Err(format!(
            "the standard test sets are missing ({why}), and CI is set, so they are required: \
             put them in ../shared/testsets or set {STANDARD_SETS_ENV}=DIR"
        ))
    } else {
        Ok(format!(
            "{SKIP_PREFIX}{test}: {SKIP_REASON} ({why}); outside CI they are optional \
             (README, \"The standard test sets\")"
        ))
    }
}

/// The standard test sets, found.
pub struct StandardSets {
    /// Their directory.
    pub dir: PathBuf,
}

/// The standard sets as the environment says, or `None` after printing the
/// one skip line of the calling test (a panic instead if `CI` is set). Call
/// it once per test, first.
pub fn standard_sets() -> Option<StandardSets> {
    let setting = std::env::var_os(STANDARD_SETS_ENV);
    let why = match locate_standard_sets(setting.as_deref(), &default_standard_dir()) {
        Ok(dir) => return Some(StandardSets { dir }),
        Err(why) => why,
    };
    let in_ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    let current = std::thread::current();
    // The test harness names each test's thread after the test.
    let test = current.name().filter(|n| *n != "main").unwrap_or("a test");
    match absence_verdict(test, &why, in_ci) {
        Ok(line) => {
            // Straight to the process's stderr, past the harness's capture,
            // so that the skip shows in every run.
            let _ = writeln!(std::io::stderr().lock(), "{line}");
            None
        }
        Err(message) => panic!("{message}"),
    }
}

impl StandardSets {
    /// The first `limit` lines (all if `None`) of set `name` (e.g.
    /// `Test_L2_R2`). Panics on a missing file, a malformed line, or a file
    /// shorter than `limit`.
    pub fn load(&self, name: &str, limit: Option<usize>) -> Vec<TestLine> {
        let path = self.dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "the standard set {name} cannot be read from {}: {e}",
                self.dir.display()
            )
        });
        parse_lines(&path, &text, limit)
    }
}

/// The path of the repository's own set `name` (e.g. `end-easy`).
pub fn repo_set_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testsets")
        .join(format!("{name}.txt"))
}

/// The whole text of the repository's set `name`, its `# board` line
/// included.
pub fn repo_set_text(name: &str) -> String {
    let path = repo_set_path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The first `limit` lines (all if `None`) of the repository's set `name`
/// (`#` lines left out). Their scores are the solver's (see
/// `testsets/README.md`): a test comparing the command line with them checks
/// plumbing, not the solver.
pub fn repo_set(name: &str, limit: Option<usize>) -> Vec<TestLine> {
    parse_lines(&repo_set_path(name), &repo_set_text(name), limit)
}

/// Parses `moves score` lines, skipping blank and `#` lines.
fn parse_lines(path: &Path, text: &str, limit: Option<usize>) -> Vec<TestLine> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if limit.is_some_and(|l| lines.len() >= l) {
            break;
        }
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut fields = raw.split_whitespace();
        let (Some(moves), Some(score), None) = (fields.next(), fields.next(), fields.next()) else {
            panic!("{}:{}: malformed line '{raw}'", path.display(), i + 1);
        };
        let score = score
            .parse()
            .unwrap_or_else(|e| panic!("{}:{}: bad score '{score}': {e}", path.display(), i + 1));
        lines.push(TestLine {
            line: i + 1,
            moves: moves.to_string(),
            score,
        });
    }
    if let Some(l) = limit {
        assert_eq!(
            lines.len(),
            l,
            "{} has fewer than {l} lines",
            path.display()
        );
    }
    assert!(!lines.is_empty(), "{} has no positions", path.display());
    lines
}

/// A line of a standard set that a test takes as the witness of a score it
/// writes out. `tests/testsets.rs` checks every one of [`CITED`] against the
/// set itself.
#[derive(Debug, Clone, Copy)]
pub struct Cited {
    /// The set's file, e.g. `Test_L1_R2`.
    pub set: &'static str,
    /// The 1-based line number.
    pub line: usize,
    /// The moves.
    pub moves: &'static str,
    /// The score the set gives.
    pub score: Score,
}

impl Cited {
    /// The line as the set writes it.
    pub fn text(&self) -> String {
        format!("{} {}", self.moves, self.score)
    }
}

/// Begin-Medium (`Test_L1_R2`) line 2: a 12-stone position the side to move
/// loses, O winning with its 20th stone (move 40).
pub const MIDDLE_GAME: Cited = Cited {
    set: "Test_L1_R2",
    line: 2,
    moves: "335662333565",
    score: -2,
};

/// Begin-Hard (`Test_L1_R3`) line 371: the README's first example.
pub const README_EXAMPLE: Cited = Cited {
    set: "Test_L1_R3",
    line: 371,
    moves: "4453",
    score: -2,
};

/// Every cited line.
pub const CITED: [Cited; 2] = [MIDDLE_GAME, README_EXAMPLE];

/// The score of the empty 7x6 board: the first player wins with its 21st
/// and last stone, 22 - 21 = 1. Witnesses: the published solvers of Pascal
/// Pons (blog.gamesolver.org) and Christophe Steininger both give 1, and the
/// first player's win is the result of James D. Allen and of Victor Allis
/// (1988).
pub const EMPTY_BOARD_SCORE: Score = 1;

/// The file of a test set: the standard set `name` (e.g. `Test_L3_R1`)
/// where the environment finds the standard sets (Pons's scores, an
/// independent witness), else the set of this repository's `testsets/` from
/// the same stage of the game (written by `c4 generate`), so that a fresh
/// clone's tests run. Prints nothing: for tests that need positions, not
/// the sets. Panics on a name that is not a standard set's.
pub fn standard_or_own_set(name: &str) -> PathBuf {
    let setting = std::env::var_os(STANDARD_SETS_ENV);
    if let Ok(dir) = locate_standard_sets(setting.as_deref(), &default_standard_dir()) {
        let standard = dir.join(name);
        if standard.is_file() {
            return standard;
        }
    }
    let own = match name {
        "Test_L3_R1" => "end-easy",
        "Test_L2_R1" => "middle-easy",
        "Test_L2_R2" => "middle-medium",
        "Test_L1_R1" => "begin-easy",
        "Test_L1_R2" => "begin-medium",
        "Test_L1_R3" => "begin-hard",
        _ => panic!("{name} is not a standard set"),
    };
    repo_set_path(own)
}

/// The first `limit` lines (all if `None`) of the set
/// [`standard_or_own_set`] gives for `name`.
pub fn standard_or_own(name: &str, limit: Option<usize>) -> Vec<TestLine> {
    let path = standard_or_own_set(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    parse_lines(&path, &text, limit)
}
