//! The order cards go onto the fireworks, and the questions that follow from it: is a card
//! playable, already played, dead, does it complete its stack, how high can a stack still go.
//!
//! A stack is described by its height: how many cards are on it. Each card has a place on its
//! suit's stack ([`place`]), and the card at each place is [`card_at`]. In the standard play
//! order every stack counts up from 1, so a card's place is its rank. The state, the search,
//! replay and positions ask these functions, so a play order that differs (part of the play-rule
//! families) changes here.

use std::ops::RangeInclusive;

use crate::game::card::Card;

/// The place of `card` on its suit's stack: it goes on when the stack holds `place - 1` cards.
#[inline]
pub const fn place(card: Card) -> u8 {
    card.rank()
}

/// The card that goes on stack `suit` at `place` (1-based).
#[inline]
pub const fn card_at(suit: u8, place: u8) -> Card {
    Card::new(suit, place)
}

/// Whether `card` can be played on a stack of `height` cards.
#[inline]
pub const fn is_playable(height: u8, card: Card) -> bool {
    place(card) == height + 1
}

/// Whether a card like `card` is already on a stack of `height` cards.
#[inline]
pub const fn is_played(height: u8, card: Card) -> bool {
    place(card) <= height
}

/// Whether playing `card` finishes its stack of `stack_size` cards (and gives back a token).
#[inline]
pub const fn completes(card: Card, stack_size: u8) -> bool {
    place(card) == stack_size
}

/// The places still to fill on a stack of `height` cards, in the order they are filled.
#[inline]
pub fn places_after(height: u8, stack_size: u8) -> RangeInclusive<u8> {
    height + 1..=stack_size
}

/// Whether `card` can never be played on a stack of `height` cards of suit `card.suit()`: it is
/// already played, or a card it needs below it has no copy left (`copy_left`).
#[inline]
pub fn is_dead(height: u8, card: Card, copy_left: impl Fn(Card) -> bool) -> bool {
    is_played(height, card)
        || (height + 1..place(card)).any(|p| !copy_left(card_at(card.suit(), p)))
}

/// The height stack `suit` can still reach from `height`: up to the first place whose card has
/// no copy left (`copy_left`).
#[inline]
pub fn max_reachable(suit: u8, height: u8, stack_size: u8, copy_left: impl Fn(Card) -> bool) -> u8 {
    places_after(height, stack_size)
        .find(|&p| !copy_left(card_at(suit, p)))
        .map_or(stack_size, |p| p - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_order_counts_up() {
        let r3 = Card::new(0, 3);
        assert!(is_playable(2, r3) && !is_playable(1, r3) && !is_playable(3, r3));
        assert!(is_played(3, r3) && !is_played(2, r3));
        assert!(completes(Card::new(1, 5), 5) && !completes(r3, 5));
        assert!(is_dead(0, r3, |c| c.rank() != 2));
        assert!(!is_dead(2, r3, |c| c.rank() != 2));
        assert_eq!(max_reachable(0, 0, 5, |c| c.rank() != 4), 3);
        assert_eq!(max_reachable(0, 4, 5, |_| true), 5);
        assert_eq!(places_after(3, 5).collect::<Vec<_>>(), [4, 5]);
    }
}
