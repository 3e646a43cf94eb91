//! Goals: how high each firework must go.
//!
//! A final score of exactly `k` below the perfect score is one of a few ways of sharing `k`
//! between the suits (for one point short, which suit stops a card early). "Can the game reach
//! `k`?" is therefore the union of narrower questions, one per way, and each narrower question
//! is far easier to refute: the bounds then know which cards must be played, instead of having
//! to allow for any of them being the one given up.

use crate::game::card::{Card, MAX_SUITS};
use crate::game::play::PlayOrder;
use crate::game::rules::Rules;
use crate::state::{State, Status};

/// The height each suit's firework must reach; suits past `nsuits` are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Goal {
    caps: [u8; MAX_SUITS],
    /// The variant's play order, to tell which cards lie above a height.
    order: PlayOrder,
    /// Every suit to its top: the plain question about the score.
    full: bool,
}

impl Goal {
    /// Every firework complete: the score itself is the measure.
    pub fn full(rules: &Rules) -> Goal {
        let mut caps = [0; MAX_SUITS];
        caps[..rules.variant.suits.len()].fill(rules.variant.ranks);
        Goal {
            caps,
            order: rules.variant.play_order(),
            full: true,
        }
    }

    /// Every way to share `k` points between the suits, each suit at most its top: a line
    /// scores at least `k` exactly when its fireworks reach one of these.
    pub fn splits(rules: &Rules, k: u8) -> Vec<Goal> {
        let n = rules.variant.suits.len();
        let top = rules.variant.ranks;
        let mut out = Vec::new();
        let mut caps = [0u8; MAX_SUITS];
        fn fill(
            i: usize,
            left: u8,
            n: usize,
            top: u8,
            caps: &mut [u8; MAX_SUITS],
            out: &mut Vec<[u8; MAX_SUITS]>,
        ) {
            if i == n {
                if left == 0 {
                    out.push(*caps);
                }
                return;
            }
            // Highest first: the goals closest to completing every suit come first.
            for h in (0..=top.min(left)).rev() {
                if left - h <= top * (n - i - 1) as u8 {
                    caps[i] = h;
                    fill(i + 1, left - h, n, top, caps, out);
                }
            }
            caps[i] = 0;
        }
        fill(0, k, n, top, &mut caps, &mut out);
        let order = rules.variant.play_order();
        out.into_iter()
            .map(|caps| Goal {
                caps,
                order,
                full: caps[..n].iter().all(|&c| c == top),
            })
            .collect()
    }

    /// How many ways [`Goal::splits`] finds for `k`, without building them.
    pub fn count_splits(rules: &Rules, k: u8) -> usize {
        let top = rules.variant.ranks as usize;
        // ways[s] = ways to share s points among the suits seen so far.
        let mut ways = vec![0usize; k as usize + 1];
        ways[0] = 1;
        for _ in 0..rules.variant.suits.len() {
            let mut next = vec![0usize; k as usize + 1];
            for (s, &w) in ways.iter().enumerate() {
                for h in 0..=top.min(k as usize - s) {
                    next[s + h] = next[s + h].saturating_add(w);
                }
            }
            ways = next;
        }
        ways[k as usize]
    }

    /// The height suit `s` must reach.
    #[inline]
    pub fn cap(&self, s: usize) -> u8 {
        self.caps[s]
    }

    pub fn caps(&self) -> &[u8; MAX_SUITS] {
        &self.caps
    }

    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Whether `card` lies above its suit's height: the goal never needs it played.
    #[inline]
    pub fn beyond(&self, card: Card) -> bool {
        self.order.place(card) > self.caps[card.suit() as usize]
    }

    /// The points the goal asks for.
    pub fn total(&self) -> u8 {
        self.caps.iter().sum()
    }

    /// The progress of `state` toward the goal: each firework counted up to its height (0 for
    /// a lost game). The goal is met when this reaches [`Goal::total`]; for the full goal it
    /// is the score.
    #[inline]
    pub fn score(&self, rules: &Rules, state: &State) -> u8 {
        if state.status == Status::Lost {
            return 0;
        }
        let n = rules.variant.suits.len();
        state.stacks[..n]
            .iter()
            .zip(&self.caps[..n])
            .map(|(h, &c)| h.height().min(c))
            .sum()
    }
}
