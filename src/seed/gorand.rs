//! Go's `math/rand` generator (the seeded source behind `rand.Seed`), bit for bit.
//!
//! hanab.live shuffles its decks with this generator, so reproducing a deal needs the same
//! numbers. The source itself (an additive lagged Fibonacci generator, 607 words with a tap at
//! 273, seeded through a Lehmer generator and Go's table of "cooked" start values) comes from
//! the `srand` crate, which ports it exactly; this module adds the bounded draws (`Int31n`,
//! `Int63n`, `Intn`) with Go's rejection rule, which is what decides every swap of the shuffle.

use srand::{RngSource, Source};

/// A generator that draws the same numbers as Go's `rand.New(rand.NewSource(seed))`.
///
/// ```
/// use hanabi_solver::seed::GoRand;
/// let mut r = GoRand::new(0);
/// // Go's own regression values for seed 0.
/// assert_eq!(r.int63(), 8717895732742165505);
/// assert_eq!(r.int31(), 526058514);
/// ```
pub struct GoRand {
    source: RngSource,
}

impl GoRand {
    /// Seeds as Go's `Source.Seed(seed)`: the seed is reduced modulo 2^31 - 1 (negative seeds
    /// wrap, 0 becomes 89482311).
    pub fn new(seed: i64) -> GoRand {
        GoRand {
            source: RngSource::new(seed),
        }
    }

    /// A non-negative 63-bit number (Go's `Int63`).
    pub fn int63(&mut self) -> i64 {
        self.source.int64()
    }

    /// A non-negative 31-bit number: the top 31 bits of [`GoRand::int63`] (Go's `Int31`).
    pub fn int31(&mut self) -> i32 {
        (self.int63() >> 32) as i32
    }

    /// A number in `0..n` (Go's `Int31n`): a mask when `n` is a power of two, otherwise draws
    /// above the largest multiple of `n` are rejected and the remainder is returned.
    ///
    /// # Panics
    /// If `n <= 0`, as Go does.
    pub fn int31n(&mut self, n: i32) -> i32 {
        assert!(n > 0, "int31n needs a positive bound, not {n}");
        if n & (n - 1) == 0 {
            return self.int31() & (n - 1);
        }
        let max = ((1u32 << 31) - 1 - (1u32 << 31) % n as u32) as i32;
        let mut v = self.int31();
        while v > max {
            v = self.int31();
        }
        v % n
    }

    /// A number in `0..n` (Go's `Int63n`), by the same rule as [`GoRand::int31n`].
    ///
    /// # Panics
    /// If `n <= 0`, as Go does.
    pub fn int63n(&mut self, n: i64) -> i64 {
        assert!(n > 0, "int63n needs a positive bound, not {n}");
        if n & (n - 1) == 0 {
            return self.int63() & (n - 1);
        }
        let max = ((1u64 << 63) - 1 - (1u64 << 63) % n as u64) as i64;
        let mut v = self.int63();
        while v > max {
            v = self.int63();
        }
        v % n
    }

    /// A number in `0..n` (Go's `Intn` on a 64-bit machine): [`GoRand::int31n`] when `n` fits
    /// in 31 bits, [`GoRand::int63n`] otherwise.
    ///
    /// # Panics
    /// If `n == 0` or `n` does not fit in an `i64`.
    pub fn intn(&mut self, n: usize) -> usize {
        assert!(n > 0, "intn needs a positive bound");
        if n <= i32::MAX as usize {
            self.int31n(n as i32) as usize
        } else {
            let n = i64::try_from(n).expect("intn bound fits in i64");
            self.int63n(n) as usize
        }
    }
}

#[cfg(test)]
mod tests {
    //! Expected values are Go's own golden outputs for `rand.New(rand.NewSource(0))`, published
    //! in Go's `math/rand` regression test; each sequence starts from a fresh seed 0.

    use super::GoRand;

    #[test]
    fn int63_matches_go() {
        let mut r = GoRand::new(0);
        let got: Vec<i64> = (0..5).map(|_| r.int63()).collect();
        assert_eq!(
            got,
            [
                8717895732742165505,
                2259404117704393152,
                6050128673802995827,
                501233450539197794,
                3390393562759376202
            ]
        );
    }

    #[test]
    fn int31_matches_go() {
        let mut r = GoRand::new(0);
        let got: Vec<i32> = (0..5).map(|_| r.int31()).collect();
        assert_eq!(
            got,
            [2029793274, 526058514, 1408655353, 116702506, 789387515]
        );
    }

    /// The bounds Go's test cycles through, which exercise the mask path, the rejection path and
    /// the largest bounds.
    const BOUNDS_31: [i32; 9] = [
        1,
        10,
        32,
        1 << 20,
        (1 << 20) + 1,
        1_000_000_000,
        1 << 30,
        i32::MAX - 1,
        i32::MAX,
    ];

    #[test]
    fn int31n_matches_go() {
        let mut r = GoRand::new(0);
        let got: Vec<i32> = (0..12).map(|i| r.int31n(BOUNDS_31[i % 9])).collect();
        assert_eq!(
            got,
            [0, 4, 25, 310570, 857611, 621654496, 413258767, 1407315077, 1926657288, 0, 8, 27]
        );
    }

    #[test]
    fn intn_matches_go() {
        let bounds: [usize; 13] = [
            1,
            10,
            32,
            1 << 20,
            (1 << 20) + 1,
            1_000_000_000,
            1 << 30,
            (1 << 31) - 2,
            (1 << 31) - 1,
            1_000_000_000_000_000_000,
            1 << 60,
            (1 << 63) - 2,
            (1 << 63) - 1,
        ];
        let mut r = GoRand::new(0);
        let got: Vec<usize> = (0..16).map(|i| r.intn(bounds[i % 13])).collect();
        assert_eq!(
            got,
            [
                0,
                4,
                25,
                310570,
                857611,
                621654496,
                413258767,
                1407315077,
                1926657288,
                543572285742637646,
                355889821886249464,
                8325060299420976708,
                7837839688282259259,
                0,
                2,
                14
            ]
        );
    }

    #[test]
    fn int63n_matches_go() {
        let mut r = GoRand::new(0);
        let got: Vec<i64> = [1i64, 10, 32, 1 << 20, (1 << 20) + 1]
            .iter()
            .map(|&n| r.int63n(n))
            .collect();
        assert_eq!(got, [0, 2, 19, 959842, 688912]);
    }

    #[test]
    fn seeds_equal_modulo_2_pow_31_minus_1_and_zero_is_special() {
        let m = (1i64 << 31) - 1;
        let draw = |seed: i64| {
            let mut r = GoRand::new(seed);
            (r.int63(), r.int63())
        };
        assert_eq!(draw(5), draw(5 + m));
        assert_eq!(draw(-5), draw(m - 5));
        assert_eq!(draw(0), draw(89482311));
        assert_eq!(draw(0), draw(m));
    }
}
