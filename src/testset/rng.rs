//! The random generator of test-set generation: the crate's SplitMix64
//! ([`crate::rng`]), under the path the test-set code names it by.

pub use crate::rng::SplitMix64;
