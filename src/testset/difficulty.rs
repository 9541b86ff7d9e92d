//! Difficulty classes of test positions, graded by the work the solver needs.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// How hard a position is for the solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// Few nodes: below [`Grading::medium_from`].
    Easy,
    /// From [`Grading::medium_from`] to below [`Grading::hard_from`] nodes.
    Medium,
    /// At least [`Grading::hard_from`] nodes.
    Hard,
}

impl Difficulty {
    /// Every class, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// The class's name in lower case, as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

impl fmt::Display for Difficulty {
    /// Writes [`Difficulty::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A difficulty name that is not one of `easy`, `medium`, `hard`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown difficulty '{0}' (expected easy, medium or hard)")]
pub struct UnknownDifficulty(pub String);

impl FromStr for Difficulty {
    type Err = UnknownDifficulty;

    /// Reads a class name, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownDifficulty(s.to_owned()))
    }
}

/// Node-count thresholds between the classes.
///
/// Nodes are counted by a strong solve ([`crate::Solver::solve`]) from a
/// cleared table of the default size, so they are a property of the position
/// for this solver: they do not depend on the machine, the thread or what
/// was solved before. They do change when the search changes (better move
/// ordering makes positions easier), so a set graded today keeps its lines
/// but may not keep its class forever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grading {
    /// The fewest nodes of a medium position.
    pub medium_from: u64,
    /// The fewest nodes of a hard position.
    pub hard_from: u64,
}

impl Grading {
    /// The thresholds of the sets in `testsets/`: easy below 2,000 nodes,
    /// medium below 200,000, hard from there on, two orders of magnitude
    /// per class. On the standard sets (strong, cold 64 MiB table) this
    /// grades End-Easy 100% easy, Middle-Easy 94% easy, Middle-Medium 82%
    /// medium, Begin-Easy 71% easy, and the first lines of Begin-Medium and
    /// Begin-Hard 65% and 100% hard (`testsets/README.md` has the figures).
    pub const STANDARD: Grading = Grading {
        medium_from: 2_000,
        hard_from: 200_000,
    };

    /// The class of a position the solver needed `nodes` nodes for.
    pub fn classify(&self, nodes: u64) -> Difficulty {
        if nodes >= self.hard_from {
            Difficulty::Hard
        } else if nodes >= self.medium_from {
            Difficulty::Medium
        } else {
            Difficulty::Easy
        }
    }
}

impl Default for Grading {
    /// [`Grading::STANDARD`].
    fn default() -> Self {
        Grading::STANDARD
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_at_the_thresholds() {
        let g = Grading {
            medium_from: 10,
            hard_from: 100,
        };
        assert_eq!(g.classify(0), Difficulty::Easy);
        assert_eq!(g.classify(9), Difficulty::Easy);
        assert_eq!(g.classify(10), Difficulty::Medium);
        assert_eq!(g.classify(99), Difficulty::Medium);
        assert_eq!(g.classify(100), Difficulty::Hard);
        assert_eq!(g.classify(u64::MAX), Difficulty::Hard);
    }

    #[test]
    fn names_round_trip() {
        for d in Difficulty::ALL {
            assert_eq!(d.name().parse::<Difficulty>(), Ok(d));
            assert_eq!(d.to_string(), d.name());
        }
        assert_eq!("HARD".parse::<Difficulty>(), Ok(Difficulty::Hard));
        assert!("extreme".parse::<Difficulty>().is_err());
    }
}
