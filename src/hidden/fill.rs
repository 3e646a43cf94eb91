//! Random fillings of a position's hidden cards, uniform over the fillings its clue hints allow.
//!
//! Without hints every order of the unseen cards is equally likely, and a plain shuffle draws
//! one. With hints (a seat's own hand narrowed by the clues it was given), the hidden hand cards
//! are drawn one slot at a time with exact conditional probabilities: a card kind `k` for the
//! next slot is chosen with weight `copies left of k` times the number of ways to fill the
//! remaining slots afterwards (copies told apart, so each card-level filling counts once). The
//! counts are computed once per position; the pile then gets the remaining cards in a uniformly
//! random order.

use std::collections::HashMap;

use super::sample::SplitMix64;
use crate::error::Error;
use crate::game::card::{Card, KindSet, KINDS};
use crate::position::Position;

/// Kinds remaining, and which were used, as fixed arrays.
type Counts = [u8; KINDS];

/// Draws fillings of a position's `?` cards, in the order [`Position::fill`] takes them.
pub struct Filler {
    unseen: Vec<Card>,
    /// Hint of each hidden hand card, in fill order; empty when no card is narrowed.
    masks: Vec<KindSet>,
    counts: Counts,
    /// `ways[(slot, used)]`: the fillings of slots `slot..` when the kinds in `used` are taken.
    ways: HashMap<(usize, Counts), u64>,
}

impl Filler {
    /// The filler of `position`; an error when no filling fits its hints.
    pub fn new(position: &Position) -> Result<Filler, Error> {
        let unseen = position.unseen();
        let mut counts = [0u8; KINDS];
        for c in &unseen {
            counts[c.kind()] += 1;
        }
        let mut filler = Filler {
            unseen,
            masks: Vec::new(),
            counts,
            ways: HashMap::new(),
        };
        if position.has_hints() {
            filler.masks = position
                .hands
                .iter()
                .zip(&position.hints)
                .flat_map(|(hand, hints)| {
                    hand.iter()
                        .zip(hints)
                        .filter(|(c, _)| c.is_none())
                        .map(|(_, &h)| h)
                })
                .collect();
            if filler.count(0, &[0; KINDS]) == 0 {
                return Err(Error::Option(
                    "no arrangement of the unseen cards fits the clues given".into(),
                ));
            }
        }
        Ok(filler)
    }

    /// Fillings of slots `slot..` with the kinds in `used` already taken (memoised).
    fn count(&mut self, slot: usize, used: &Counts) -> u64 {
        if slot == self.masks.len() {
            return 1;
        }
        if let Some(&w) = self.ways.get(&(slot, *used)) {
            return w;
        }
        let mut total = 0u64;
        for k in 0..KINDS {
            let left = self.counts[k] - used[k];
            if left == 0 || self.masks[slot] & (1 << k) == 0 {
                continue;
            }
            let mut next = *used;
            next[k] += 1;
            total += left as u64 * self.count(slot + 1, &next);
        }
        self.ways.insert((slot, *used), total);
        total
    }

    /// One random filling.
    pub fn fill(&self, rng: &mut SplitMix64) -> Vec<Card> {
        let mut cards = self.unseen.clone();
        if self.masks.is_empty() {
            rng.shuffle(&mut cards);
            return cards;
        }
        let mut used = [0u8; KINDS];
        let mut hand = Vec::with_capacity(self.masks.len());
        for slot in 0..self.masks.len() {
            let total = self.ways[&(slot, used)];
            let mut pick = ((rng.next_u64() as u128 * total as u128) >> 64) as u64;
            for k in 0..KINDS {
                let left = self.counts[k] - used[k];
                if left == 0 || self.masks[slot] & (1 << k) == 0 {
                    continue;
                }
                let mut next = used;
                next[k] += 1;
                let after = if slot + 1 == self.masks.len() {
                    1
                } else {
                    self.ways[&(slot + 1, next)]
                };
                let w = left as u64 * after;
                if pick < w {
                    used = next;
                    hand.push(Card::from_kind(k));
                    break;
                }
                pick -= w;
            }
        }
        // The rest, in a random order, for the pile (and any hidden card after the hands).
        for &c in &hand {
            let i = cards.iter().position(|&x| x == c).expect("counted");
            cards.remove(i);
        }
        rng.shuffle(&mut cards);
        hand.extend(cards);
        hand
    }
}
