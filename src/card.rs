//! A card: a suit index and a rank, packed in one byte.
//!
//! Packing keeps hands small enough that the search can copy whole states instead of undoing moves.

use std::fmt;

/// One card. `Card::NONE` marks an empty slot; real cards have rank 1..=5 and suit 0..=5.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Card(u8);

impl Card {
    /// The empty slot.
    pub const NONE: Card = Card(0);

    /// A card of `suit` (0-based, variant order) and `rank` (1-based).
    ///
    /// ```
    /// use hanabi_solver::card::Card;
    /// let c = Card::new(2, 4);
    /// assert_eq!((c.suit(), c.rank()), (2, 4));
    /// ```
    pub const fn new(suit: u8, rank: u8) -> Card {
        debug_assert!(suit < 6 && rank >= 1 && rank <= 5);
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

    /// Dense index of the card's kind, `suit * 5 + rank - 1`, in `0..30`.
    pub const fn kind(self) -> usize {
        (self.suit() as usize) * 5 + self.rank() as usize - 1
    }

    /// The card of a kind index (the inverse of [`Card::kind`]).
    #[inline]
    pub const fn from_kind(kind: usize) -> Card {
        Card::new((kind / 5) as u8, (kind % 5) as u8 + 1)
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
