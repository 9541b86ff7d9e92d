//! SplitMix64: the crate's one seedable pseudo-random generator, used to draw
//! test positions and book samples and to spread book keys over shards.
//!
//! SplitMix64 (Steele, Lea and Flood, 2014) is a 64-bit counter stepped by an
//! odd constant and scrambled by two multiply-xorshift rounds. It passes the
//! usual statistical batteries, is a handful of instructions, and is fully
//! determined by its seed: the same seed must give the same test set and the
//! same shards on every machine and Rust version (which the `rand` crate does
//! not promise across releases).

/// The counter's step: the odd integer nearest `2^64` over the golden ratio.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// A SplitMix64 generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    /// The counter; the output is a scrambled copy of it.
    state: u64,
}

impl SplitMix64 {
    /// A generator whose output is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, every value about equally likely (the bias of the
    /// multiply-and-shift reduction is below `n / 2^64`). Precondition: `n > 0`.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0) has no value to return");
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `low..=high`. Precondition: `low <= high`.
    pub fn in_range(&mut self, low: usize, high: usize) -> usize {
        assert!(low <= high, "empty range {low}..={high}");
        low + self.below(high - low + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // The first outputs of the reference C implementation for seed 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn same_seed_same_numbers() {
        let a: Vec<u64> = {
            let mut r = SplitMix64::new(42);
            (0..10).map(|_| r.next_u64()).collect()
        };
        let mut r = SplitMix64::new(42);
        assert!(a.iter().all(|&x| x == r.next_u64()));
        assert_ne!(SplitMix64::new(43).next_u64(), a[0]);
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7)] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        for _ in 0..1000 {
            assert!((4..=14).contains(&rng.in_range(4, 14)));
        }
        assert_eq!(rng.in_range(3, 3), 3);
    }
}
