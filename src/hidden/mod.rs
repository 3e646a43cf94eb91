//! Positions with hidden cards (`?`): exact values when only the pile is hidden, and estimates
//! from sampled determinizations otherwise.
//!
//! [`exact::exact`] averages over every order of a hidden draw pile, players seeing each card as
//! it is drawn: exact win probabilities and expected scores. [`sample::sample`] fills the `?` of a [`Position`](crate::position::Position) with many random
//! orderings of the unseen cards and, for each, solves every root action of the player to move
//! exactly with every card known. The result is an *optimistic* estimate: each sample is solved
//! as if every card were known, so real play, which cannot see the hidden cards, can only do as
//! well or worse. [`fill::Filler`] draws the fillings, uniformly among those that fit the clue
//! hints of a seat's own hand.
//!
//! Root actions are identified by what the mover does, not by the card it moves: a play or
//! discard by its hand slot (the same in every sample), named by the card when the file knows
//! it ("play r3 (slot 1)") and by the slot when it is hidden ("play slot 2"), slots numbered as
//! hanab.live numbers them (1 = the newest card).

pub mod exact;
pub mod fill;
pub mod sample;
pub mod team;
pub mod worlds;

pub use exact::{exact, Exact, ExactConfig, ExactError, ExactMove, Fraction};
pub use fill::Filler;
pub use sample::{
    evaluate, root_actions, sample, sample_until, Estimate, MoveEstimate, SampledScore, SplitMix64,
};

/// The mean of a sample given as counts (`counts[x]` samples of value `x`) and its 95% interval
/// (normal approximation with the sample standard deviation), clamped to `[lo, hi]`. One value
/// gives a zero-width interval. Exact integer sums, so the result does not depend on the order
/// samples were counted in.
pub fn mean_interval(counts: &[u64], lo: f64, hi: f64) -> (f64, (f64, f64)) {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return (0.0, (lo, hi));
    }
    let sum: u128 = counts
        .iter()
        .enumerate()
        .map(|(x, &c)| x as u128 * c as u128)
        .sum();
    let nf = n as f64;
    let mean = sum as f64 / nf;
    let sd = if n > 1 {
        let squares: f64 = counts
            .iter()
            .enumerate()
            .map(|(x, &c)| c as f64 * (x as f64 - mean) * (x as f64 - mean))
            .sum();
        (squares / (nf - 1.0)).sqrt()
    } else {
        0.0
    };
    let half = 1.96 * sd / nf.sqrt();
    (mean, ((mean - half).max(lo), (mean + half).min(hi)))
}

/// The share `k / n` and its 95% Wilson score interval.
pub fn wilson(k: usize, n: usize) -> (f64, (f64, f64)) {
    if n == 0 {
        return (0.0, (0.0, 1.0));
    }
    let z = 1.96f64;
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (p, ((centre - half).max(0.0), (centre + half).min(1.0)))
}
