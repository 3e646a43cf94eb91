//! A card: a suit index and a rank, packed in one byte.
//!
//! Packing keeps hands small enough that the search can copy whole states instead of undoing moves.

use std::fmt;

/// Most suits of any variant.
pub const MAX_SUITS: usize = 6;
/// Highest rank a stack can reach: the longest stack.
pub const MAX_RANK: usize = 5;
/// The rank the START card of Up or Down carries here (hanab.live numbers it 7): above every
/// stack rank, so it fits the card's three rank bits.
pub const START: u8 = 6;
/// Number of card kinds (suit and rank pairs) any variant can have: the length of every
/// per-kind table. The START cards come after every ranked kind, so variants without them
/// keep their kinds below `MAX_SUITS * MAX_RANK` (and their table keys narrow).
pub const KINDS: usize = RANKED_KINDS + MAX_SUITS;
/// The kinds of the ranked cards, numbered before the START cards.
pub const RANKED_KINDS: usize = MAX_SUITS * MAX_RANK;

/// A set of card kinds, one bit per [`Card::kind`].
pub type KindSet = u64;
const _: () = assert!(KINDS <= KindSet::BITS as usize);

/// One card. `Card::NONE` marks an empty slot; real cards have rank 1..=[`MAX_RANK`] (or
/// [`START`]) and suit 0..[`MAX_SUITS`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Card(u8);

impl Card {
    /// The empty slot.
    pub const NONE: Card = Card(0);

    /// A card of `suit` (0-based, variant order) and `rank` (1-based).
    ///
    /// ```
    /// use hanabi_solver::game::card::Card;
    /// let c = Card::new(2, 4);
    /// assert_eq!((c.suit(), c.rank()), (2, 4));
    /// ```
    pub const fn new(suit: u8, rank: u8) -> Card {
        debug_assert!(
            (suit as usize) < MAX_SUITS
                && rank >= 1
                && (rank as usize <= MAX_RANK || rank == START)
        );
        Card(suit << 3 | rank)
    }

    /// The START card of `suit` (Up or Down).
    pub const fn start(suit: u8) -> Card {
        Card::new(suit, START)
    }

    /// Whether this is a START card.
    #[inline]
    pub const fn is_start(self) -> bool {
        self.rank() == START
    }

    pub const fn suit(self) -> u8 {
        self.0 >> 3
    }

    pub const fn rank(self) -> u8 {
        self.0 & 7
    }

    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Dense index of the card's kind in `0..KINDS`: `suit * MAX_RANK + rank - 1`, and the
    /// START cards after all of those.
    #[inline(always)]
    pub const fn kind(self) -> usize {
        KIND_OF[self.0 as usize] as usize
    }

    /// The card's kind as a one-element [`KindSet`].
    #[inline]
    pub const fn kind_bit(self) -> KindSet {
        1 << self.kind()
    }

    /// The card of a kind index (the inverse of [`Card::kind`]).
    #[inline]
    pub const fn from_kind(kind: usize) -> Card {
        if kind >= RANKED_KINDS {
            Card::start((kind - RANKED_KINDS) as u8)
        } else {
            Card::new((kind / MAX_RANK) as u8, (kind % MAX_RANK) as u8 + 1)
        }
    }
}

/// [`Card::kind`] of every card byte, looked up rather than computed: one load, no branch for
/// the START cards. Bytes that are no card map to 0.
const KIND_OF: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut b = 0;
    while b < 64 {
        let (suit, rank) = (b >> 3, b & 7);
        if suit < MAX_SUITS && rank >= 1 && rank <= MAX_RANK {
            table[b] = (suit * MAX_RANK + rank - 1) as u8;
        } else if suit < MAX_SUITS && rank == START as usize {
            table[b] = (RANKED_KINDS + suit) as u8;
        }
        b += 1;
    }
    table
};

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "--")
        } else {
            write!(f, "s{}r{}", self.suit(), self.rank())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_dense_and_invert() {
        let mut seen = [false; KINDS];
        for s in 0..MAX_SUITS as u8 {
            for r in (1..=MAX_RANK as u8).chain([START]) {
                let c = Card::new(s, r);
                assert_eq!(Card::from_kind(c.kind()), c);
                assert!(!seen[c.kind()]);
                seen[c.kind()] = true;
            }
        }
        assert!(seen.iter().all(|&x| x));
        // Variants without START cards keep their kinds below 30.
        assert_eq!(Card::new(5, 5).kind(), 29);
        assert!(Card::start(0).is_start() && !Card::new(0, 5).is_start());
    }
}
