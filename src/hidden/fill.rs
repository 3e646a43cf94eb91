//! Random fillings of a position's hidden cards, uniform over the fillings its clue hints allow.
//!
//! Without hints every order of the unseen cards is equally likely, and a plain shuffle draws
//! one. With hints (a seat's own hand narrowed by the clues it was given), the hidden hand cards
//! are drawn one slot at a time with exact conditional probabilities: a card kind `k` for the
//! next slot is chosen with weight `copies left of k` times the number of ways to fill the
//! remaining slots afterwards (copies told apart, so each card-level filling counts once). The
//! counts are computed once per position; the pile then gets the remaining cards in a uniformly
//! random order.
//!
//! The counts are memoised by what the remaining slots can tell apart: from a slot on, two kinds
//! that the same remaining hints allow are interchangeable, so the fillings depend only on the
//! copies left of each such group of kinds (as a sorted list), and kinds no remaining hint
//! allows do not matter. Every hand of a team view is narrowed, and this keeps its count small.

use std::collections::{BTreeMap, HashMap};

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
    /// For each slot, the kinds with unseen copies that a hint of the slot or a later one
    /// allows, grouped by which of those hints allow them.
    groups: Vec<Vec<Vec<usize>>>,
    /// The fillings of slots `slot..`, by [`Filler::key`] of the slot and the kinds taken.
    ways: HashMap<(usize, Vec<u8>), u128>,
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
            groups: Vec::new(),
            ways: HashMap::new(),
        };
        if position.has_hints() {
            filler.masks = position.hidden_hand_hints();
            filler.groups = (0..filler.masks.len())
                .map(|slot| {
                    let mut groups: BTreeMap<Vec<bool>, Vec<usize>> = BTreeMap::new();
                    for k in (0..KINDS).filter(|&k| counts[k] > 0) {
                        let allowed: Vec<bool> = filler.masks[slot..]
                            .iter()
                            .map(|&m| m & 1 << k != 0)
                            .collect();
                        if allowed.contains(&true) {
                            groups.entry(allowed).or_default().push(k);
                        }
                    }
                    groups.into_values().collect()
                })
                .collect();
            match filler.count(0, &[0; KINDS]) {
                Some(0) => {
                    return Err(Error::Option(
                        "no arrangement of the unseen cards fits the clues given".into(),
                    ))
                }
                Some(_) => {}
                None => {
                    return Err(Error::Option(format!(
                        "too many ways to deal the unseen cards to the {} hidden hand cards that \
                         clues narrow: more than 2^128",
                        filler.masks.len()
                    )))
                }
            }
        }
        Ok(filler)
    }

    /// What the fillings of slots `slot..` depend on when the kinds in `used` are taken: the
    /// copies left of each kind of each group of [`Filler::groups`], sorted within the group.
    fn key(&self, slot: usize, used: &Counts) -> Vec<u8> {
        let mut key = Vec::new();
        for group in &self.groups[slot] {
            let start = key.len();
            key.extend(group.iter().map(|&k| self.counts[k] - used[k]));
            key[start..].sort_unstable();
        }
        key
    }

    /// Fillings of slots `slot..` with the kinds in `used` already taken (memoised); `None`
    /// when they do not fit in a `u128`.
    fn count(&mut self, slot: usize, used: &Counts) -> Option<u128> {
        if slot == self.masks.len() {
            return Some(1);
        }
        let key = (slot, self.key(slot, used));
        if let Some(&w) = self.ways.get(&key) {
            return Some(w);
        }
        let mut total = 0u128;
        for k in 0..KINDS {
            let left = self.counts[k] - used[k];
            if left == 0 || self.masks[slot] & (1 << k) == 0 {
                continue;
            }
            let mut next = *used;
            next[k] += 1;
            let after = self.count(slot + 1, &next)?;
            total = total.checked_add((left as u128).checked_mul(after)?)?;
        }
        self.ways.insert(key, total);
        Some(total)
    }

    /// The fillings of slots `slot..` with the kinds in `used` taken, as [`Filler::count`]
    /// found them.
    fn ways(&self, slot: usize, used: &Counts) -> u128 {
        if slot == self.masks.len() {
            1
        } else {
            self.ways[&(slot, self.key(slot, used))]
        }
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
            let total = self.ways(slot, &used);
            // One draw by multiply-shift while the total fits in 64 bits; two, reduced modulo
            // the total (a bias below 2^-64), beyond.
            let mut pick = if total <= u64::MAX as u128 {
                (rng.next_u64() as u128 * total) >> 64
            } else {
                (((rng.next_u64() as u128) << 64) | rng.next_u64() as u128) % total
            };
            for k in 0..KINDS {
                let left = self.counts[k] - used[k];
                if left == 0 || self.masks[slot] & (1 << k) == 0 {
                    continue;
                }
                let mut next = used;
                next[k] += 1;
                let w = left as u128 * self.ways(slot + 1, &next);
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
