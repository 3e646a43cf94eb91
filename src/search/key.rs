//! The transposition key: the whole position, canonicalised and packed into a few words.
//!
//! Two positions get the same key exactly when they have the same future: hands are sorted
//! (slot order does not matter when every card is known) and every card that can never be
//! played is written as the same "trash" code. Nothing is truncated, so a table hit is never a
//! collision.

use smallvec::SmallVec;

use crate::card::Card;
use crate::rules::Rules;
use crate::state::{Deal, State, NOT_FINAL};

/// A packed canonical position. Standard games fit the three inline words; only unusual
/// configurations (many players with big hands) spill to the heap.
pub type Key = SmallVec<[u64; 3]>;

/// Code of an empty slot.
const EMPTY: u8 = 0;
/// Code shared by all cards that can never be played.
pub const TRASH: u8 = 1;

/// The canonical code of a card in `state`: [`TRASH`] for a card that can never be played,
/// otherwise its kind plus two.
#[inline]
pub fn card_code(rules: &Rules, state: &State, card: Card) -> u8 {
    if state.is_trash(rules, card) {
        TRASH
    } else {
        card.kind() as u8 + 2
    }
}

struct Bits {
    words: Key,
    used: u32,
}

impl Bits {
    #[inline]
    fn push(&mut self, value: u64, width: u32) {
        if self.used.is_multiple_of(64) {
            self.words.push(0);
        }
        let off = self.used % 64;
        let last = self.words.len() - 1;
        self.words[last] |= value << off;
        if off + width > 64 {
            self.words.push(value >> (64 - off));
        }
        self.used += width;
    }
}

/// Packs the canonical form of `state`.
pub fn key(deal: &Deal, state: &State) -> Key {
    let rules = &deal.rules;
    let mut bits = Bits {
        words: SmallVec::new(),
        used: 0,
    };
    for &h in &state.stacks[..rules.variant.suits.len()] {
        bits.push(h as u64, 3);
    }
    bits.push(state.clues as u64, 4);
    bits.push(state.strikes as u64, 3);
    bits.push(state.drawn as u64, 6);
    bits.push(state.turn as u64, 3);
    let fin = if state.final_turns == NOT_FINAL {
        15
    } else {
        state.final_turns.min(14)
    };
    bits.push(fin as u64, 4);
    // A card is trash when at or below its firework, or above the first rank of its suit with
    // no copy left (computed once per suit rather than once per card).
    let mut first_gone = [u8::MAX; crate::rules::MAX_SUITS];
    for (s, gone) in first_gone
        .iter_mut()
        .enumerate()
        .take(rules.variant.suits.len())
    {
        let top = state.stacks[s];
        *gone = (top + 1..=rules.variant.ranks)
            .find(|&r| {
                let c = Card::new(s as u8, r);
                deal.copies(c.kind()) == state.lost(c)
            })
            .unwrap_or(u8::MAX);
    }
    for p in 0..rules.players as usize {
        let hand = state.hand(p);
        let mut codes = [EMPTY; crate::rules::MAX_HAND];
        for (i, &c) in hand.iter().enumerate() {
            let s = c.suit() as usize;
            codes[i] = if c.rank() <= state.stacks[s] || c.rank() > first_gone[s] {
                TRASH
            } else {
                c.kind() as u8 + 2
            };
        }
        let codes = &mut codes[..(rules.hand_size as usize).max(hand.len())];
        codes.sort_unstable();
        for &c in codes.iter() {
            bits.push(c as u64, 5);
        }
    }
    bits.words
}
