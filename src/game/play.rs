//! The order cards go onto the fireworks, and the questions that follow from it: is a card
//! playable, already played, dead, does it complete its stack, how high can a stack still go.
//!
//! A stack is described by its height: how many cards are on it. Each card has a place on its
//! suit's stack ([`PlayOrder::place`]), and the card at each place is [`PlayOrder::card_at`]. A
//! standard stack counts up from 1, so a card's place is its rank; a reversed suit counts down
//! from the top rank. The state, the search, replay and positions ask a variant's [`PlayOrder`],
//! so no other code knows which way a stack goes.

use std::ops::RangeInclusive;

use crate::game::card::Card;

/// Which way each stack of a variant is played, and how many cards finish one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayOrder {
    /// Bit `s` set: suit `s` is played from the top rank down to 1.
    reversed: u8,
    /// Cards in a finished stack (the highest rank).
    stack_size: u8,
}

impl PlayOrder {
    /// Every stack counts up from 1 to `stack_size`.
    pub const fn ascending(stack_size: u8) -> PlayOrder {
        PlayOrder {
            reversed: 0,
            stack_size,
        }
    }

    /// The suits whose bit is set in `reversed` count down; the others up.
    pub const fn with_reversed(stack_size: u8, reversed: u8) -> PlayOrder {
        PlayOrder {
            reversed,
            stack_size,
        }
    }

    /// Cards in a finished stack.
    #[inline]
    pub const fn stack_size(self) -> u8 {
        self.stack_size
    }

    /// Whether suit `suit` is played from the top rank down.
    #[inline]
    pub const fn is_reversed(self, suit: u8) -> bool {
        self.reversed & (1 << suit) != 0
    }

    /// The place of `card` on its suit's stack: it goes on when the stack holds `place - 1`
    /// cards.
    #[inline]
    pub const fn place(self, card: Card) -> u8 {
        if self.is_reversed(card.suit()) {
            self.stack_size + 1 - card.rank()
        } else {
            card.rank()
        }
    }

    /// The card that goes on stack `suit` at `place` (1-based).
    #[inline]
    pub const fn card_at(self, suit: u8, place: u8) -> Card {
        if self.is_reversed(suit) {
            Card::new(suit, self.stack_size + 1 - place)
        } else {
            Card::new(suit, place)
        }
    }

    /// Whether `card` can be played on a stack of `height` cards.
    #[inline]
    pub const fn is_playable(self, height: u8, card: Card) -> bool {
        self.place(card) == height + 1
    }

    /// Whether a card like `card` is already on a stack of `height` cards.
    #[inline]
    pub const fn is_played(self, height: u8, card: Card) -> bool {
        self.place(card) <= height
    }

    /// Whether playing `card` finishes its stack (and gives back a token).
    #[inline]
    pub const fn completes(self, card: Card) -> bool {
        self.place(card) == self.stack_size
    }

    /// The places still to fill on a stack of `height` cards, in the order they are filled.
    #[inline]
    pub fn places_after(self, height: u8) -> RangeInclusive<u8> {
        height + 1..=self.stack_size
    }

    /// Whether `card` can never be played on a stack of `height` cards of its suit: it is
    /// already played, or a card it needs before it has no copy left (`copy_left`).
    #[inline]
    pub fn is_dead(self, height: u8, card: Card, copy_left: impl Fn(Card) -> bool) -> bool {
        self.is_played(height, card)
            || (height + 1..self.place(card)).any(|p| !copy_left(self.card_at(card.suit(), p)))
    }

    /// The height stack `suit` can still reach from `height`: up to the first place whose card
    /// has no copy left (`copy_left`).
    #[inline]
    pub fn max_reachable(self, suit: u8, height: u8, copy_left: impl Fn(Card) -> bool) -> u8 {
        self.places_after(height)
            .find(|&p| !copy_left(self.card_at(suit, p)))
            .map_or(self.stack_size, |p| p - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_order_counts_up() {
        let o = PlayOrder::ascending(5);
        let r3 = Card::new(0, 3);
        assert!(o.is_playable(2, r3) && !o.is_playable(1, r3) && !o.is_playable(3, r3));
        assert!(o.is_played(3, r3) && !o.is_played(2, r3));
        assert!(o.completes(Card::new(1, 5)) && !o.completes(r3));
        assert!(o.is_dead(0, r3, |c| c.rank() != 2));
        assert!(!o.is_dead(2, r3, |c| c.rank() != 2));
        assert_eq!(o.max_reachable(0, 0, |c| c.rank() != 4), 3);
        assert_eq!(o.max_reachable(0, 4, |_| true), 5);
        assert_eq!(o.places_after(3).collect::<Vec<_>>(), [4, 5]);
    }

    #[test]
    fn a_reversed_suit_counts_down() {
        // Suit 1 reversed, suit 0 not.
        let o = PlayOrder::with_reversed(5, 0b10);
        let (r1, y5, y1, y4) = (
            Card::new(0, 1),
            Card::new(1, 5),
            Card::new(1, 1),
            Card::new(1, 4),
        );
        assert!(o.is_playable(0, r1) && o.is_playable(0, y5) && !o.is_playable(0, y1));
        assert!(o.is_playable(1, y4) && o.is_played(1, y5) && !o.is_played(1, y4));
        assert!(o.completes(y1) && !o.completes(y5));
        assert_eq!(o.card_at(1, 1), y5);
        // With every y5 gone, nothing of the suit can be played.
        assert!(o.is_dead(0, y4, |c| c != y5));
        assert_eq!(o.max_reachable(1, 0, |c| c != Card::new(1, 3)), 2);
    }
}
