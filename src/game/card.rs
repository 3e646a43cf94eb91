//! A card: a suit index and a rank, packed in one byte.
//!
//! Packing keeps hands small enough that the search can copy whole states instead of undoing moves.

use std::fmt;

/// Most suits of any variant.
pub const MAX_SUITS: usize = 6;
/// Highest rank a card can carry.
pub const MAX_RANK: usize = 5;
/// Number of card kinds (suit and rank pairs) any variant can have: the length of every
/// per-kind table.
pub const KINDS: usize = MAX_SUITS * MAX_RANK;

/// A set of card kinds, one bit per [`Card::kind`].
pub type KindSet = u32;
const _: () = assert!(KINDS <= KindSet::BITS as usize);

/// One card. `Card::NONE` marks an empty slot; real cards have rank 1..=[`MAX_RANK`] and suit
/// 0..[`MAX_SUITS`].
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
        debug_assert!((suit as usize) < MAX_SUITS && rank >= 1 && rank as usize <= MAX_RANK);
        Card(suit << 3 | rank)
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

    /// Dense index of the card's kind, `suit * MAX_RANK + rank - 1`, in `0..KINDS`.
    pub const fn kind(self) -> usize {
        (self.suit() as usize) * MAX_RANK + self.rank() as usize - 1
    }

    /// The card's kind as a one-element [`KindSet`].
    #[inline]
    pub const fn kind_bit(self) -> KindSet {
        1 << self.kind()
    }

    /// The card of a kind index (the inverse of [`Card::kind`]).
    #[inline]
    pub const fn from_kind(kind: usize) -> Card {
        Card::new((kind / MAX_RANK) as u8, (kind % MAX_RANK) as u8 + 1)
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "--")
        } else {
            write!(f, "s{}r{}", self.suit(), self.rank())
        }
    }
}
