//! Variants: which suits a deck holds, how many copies of each card, and which colours clues name.

use crate::card::Card;
use crate::error::{escape_controls, Error};
use crate::game::catalogue::Catalogue;

/// How one suit behaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suit {
    pub name: &'static str,
    /// Letter used in card names (`r1`, `k5`).
    pub letter: char,
    /// One card of each rank ("dark" suits such as Black) instead of 3/2/2/2/1.
    pub one_each: bool,
    /// Touched by every colour clue and never named by one (Rainbow).
    pub rainbow: bool,
}

const fn suit(name: &'static str, letter: char) -> Suit {
    Suit {
        name,
        letter,
        one_each: false,
        rainbow: false,
    }
}

const RED: Suit = suit("Red", 'r');
const YELLOW: Suit = suit("Yellow", 'y');
const GREEN: Suit = suit("Green", 'g');
const BLUE: Suit = suit("Blue", 'b');
const PURPLE: Suit = suit("Purple", 'p');
const TEAL: Suit = suit("Teal", 't');
const BLACK: Suit = Suit {
    name: "Black",
    letter: 'k',
    one_each: true,
    rainbow: false,
};
const RAINBOW: Suit = Suit {
    name: "Rainbow",
    letter: 'm',
    one_each: false,
    rainbow: true,
};

/// The six ordinary suits, in the order research decks take them.
const ORDINARY: [Suit; 6] = [RED, YELLOW, GREEN, BLUE, PURPLE, TEAL];

/// A deck: its suits in hanab.live order and the number of ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// hanab.live's name, or a description of a research deck.
    pub name: String,
    /// hanab.live's variant id, when the variant exists there.
    pub id: Option<u32>,
    pub suits: Vec<Suit>,
    pub ranks: u8,
}

/// The hanab.live variants this project knows: (CLI name, hanab.live name, id, suits).
const KNOWN: &[(&str, &str, u32, &[Suit])] = &[
    (
        "no-variant",
        "No Variant",
        0,
        &[RED, YELLOW, GREEN, BLUE, PURPLE],
    ),
    (
        "six-suits",
        "6 Suits",
        1,
        &[RED, YELLOW, GREEN, BLUE, PURPLE, TEAL],
    ),
    (
        "black",
        "Black (6 Suits)",
        2,
        &[RED, YELLOW, GREEN, BLUE, PURPLE, BLACK],
    ),
    (
        "rainbow",
        "Rainbow (6 Suits)",
        3,
        &[RED, YELLOW, GREEN, BLUE, PURPLE, RAINBOW],
    ),
    ("four-suits", "4 Suits", 15, &[RED, YELLOW, GREEN, BLUE]),
    (
        "rainbow-5",
        "Rainbow (5 Suits)",
        16,
        &[RED, YELLOW, GREEN, BLUE, RAINBOW],
    ),
    ("three-suits", "3 Suits", 18, &[RED, GREEN, BLUE]),
    (
        "black-5",
        "Black (5 Suits)",
        21,
        &[RED, YELLOW, GREEN, BLUE, BLACK],
    ),
];

impl Variant {
    /// No Variant: five ordinary suits.
    pub fn no_variant() -> Variant {
        Variant::by_id(0).expect("No Variant is known")
    }

    /// A hanab.live variant by its id.
    pub fn by_id(id: u32) -> Result<Variant, Error> {
        KNOWN
            .iter()
            .find(|k| k.2 == id)
            .map(|k| Variant {
                name: k.1.to_string(),
                id: Some(k.2),
                suits: k.3.to_vec(),
                ranks: 5,
            })
            .ok_or_else(|| match Catalogue::builtin().by_id(id) {
                Some(v) => Error::NotPlayedYet {
                    id,
                    name: v.name.clone(),
                },
                None => Error::UnknownVariant(format!("id {id}")),
            })
    }

    /// A variant by CLI name (`no-variant`, `black`, ...), hanab.live name (`Black (6 Suits)`,
    /// any case) or id (`2`).
    ///
    /// ```
    /// use hanabi_solver::variant::Variant;
    /// assert_eq!(Variant::parse("Rainbow (6 Suits)").unwrap().id, Some(3));
    /// assert_eq!(Variant::parse("black").unwrap().suits.len(), 6);
    /// assert!(Variant::parse("nope").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Variant, Error> {
        let t = text.trim();
        if let Ok(id) = t.parse::<u32>() {
            return Variant::by_id(id);
        }
        KNOWN
            .iter()
            .find(|k| k.0.eq_ignore_ascii_case(t) || k.1.eq_ignore_ascii_case(t))
            .map(|k| Variant::by_id(k.2).expect("known id"))
            .ok_or_else(|| match Catalogue::builtin().by_name(t) {
                Some(v) => Error::NotPlayedYet {
                    id: v.id,
                    name: v.name.clone(),
                },
                None => Error::UnknownVariant(escape_controls(t)),
            })
    }

    /// The names accepted by [`Variant::parse`], for help texts and error messages.
    pub fn known_names() -> Vec<String> {
        KNOWN
            .iter()
            .map(|k| format!("{} (\"{}\", id {})", k.0, k.1, k.2))
            .collect()
    }

    /// A research deck as in DeepMind's Hanabi Learning Environment: `suits` ordinary suits
    /// (1..=6) of `ranks` ranks (1..=5).
    pub fn research(suits: u8, ranks: u8) -> Result<Variant, Error> {
        if !(1..=6).contains(&suits) {
            return Err(Error::Option(format!(
                "--suits must be 1 to 6, not {suits}"
            )));
        }
        if !(1..=5).contains(&ranks) {
            return Err(Error::Option(format!(
                "--ranks must be 1 to 5, not {ranks}"
            )));
        }
        Ok(Variant {
            name: format!("{suits} suits x {ranks} ranks"),
            id: None,
            suits: ORDINARY[..suits as usize].to_vec(),
            ranks,
        })
    }

    /// Copies of each card of `suit` and `rank` in the deck.
    pub fn copies(&self, suit: u8, rank: u8) -> u8 {
        if self.suits[suit as usize].one_each || self.ranks == 1 {
            1
        } else if rank == 1 {
            3
        } else if rank == self.ranks {
            1
        } else {
            2
        }
    }

    /// The unshuffled deck as hanab.live builds it: suits in variant order, ranks ascending,
    /// copies adjacent.
    pub fn deck(&self) -> Vec<Card> {
        let mut deck = Vec::new();
        for s in 0..self.suits.len() as u8 {
            for r in 1..=self.ranks {
                for _ in 0..self.copies(s, r) {
                    deck.push(Card::new(s, r));
                }
            }
        }
        deck
    }

    pub fn deck_size(&self) -> usize {
        (0..self.suits.len() as u8)
            .map(|s| {
                (1..=self.ranks)
                    .map(|r| self.copies(s, r) as usize)
                    .sum::<usize>()
            })
            .sum()
    }

    /// Number of suits times number of ranks.
    pub fn perfect_score(&self) -> u8 {
        self.suits.len() as u8 * self.ranks
    }

    /// Suit indices that a colour clue can name, in hanab.live's clue-colour order.
    pub fn clue_colours(&self) -> Vec<u8> {
        (0..self.suits.len() as u8)
            .filter(|&s| !self.suits[s as usize].rainbow)
            .collect()
    }

    /// Whether a colour clue naming suit index `colour` touches `card`.
    pub fn colour_touches(&self, colour: u8, card: Card) -> bool {
        card.suit() == colour || self.suits[card.suit() as usize].rainbow
    }

    /// The card's name: suit letter then rank (`r1`).
    pub fn card_name(&self, card: Card) -> String {
        if card.is_none() {
            return "??".to_string();
        }
        format!("{}{}", self.suits[card.suit() as usize].letter, card.rank())
    }

    /// Reads a card name (`r1`; `w` is accepted for the fifth suit, as the physical editions
    /// call it white).
    pub fn parse_card(&self, text: &str) -> Result<Card, Error> {
        let bad = || Error::Card(text.to_string(), self.letters());
        let mut chars = text.trim().chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        let rank: u8 = chars.as_str().parse().map_err(|_| bad())?;
        let suit = self
            .suits
            .iter()
            .position(|s| s.letter == letter)
            .or_else(|| (letter == 'w' && self.suits.len() >= 5).then_some(4))
            .ok_or_else(bad)?;
        if rank < 1 || rank > self.ranks {
            return Err(bad());
        }
        Ok(Card::new(suit as u8, rank))
    }

    fn letters(&self) -> String {
        self.suits.iter().map(|s| s.letter).collect()
    }

    /// Checks that a suit index and rank name a card of this variant.
    pub fn card(&self, suit: usize, rank: usize) -> Result<Card, Error> {
        if suit >= self.suits.len() || rank < 1 || rank > self.ranks as usize {
            return Err(Error::Deck(format!(
                "card with suitIndex {suit} and rank {rank} is not in {}",
                self.name
            )));
        }
        Ok(Card::new(suit as u8, rank as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by tests/fuzz.rs: a variant name with a vertical tab was quoted raw in the error,
    /// which then took two lines.
    #[test]
    fn unknown_variant_with_a_control_character_is_one_line() {
        let e = Variant::parse("A\u{b}o-variant").unwrap_err().to_string();
        assert!(e.starts_with("unknown variant A\\u{b}o-variant;"), "{e}");
        let e = Variant::parse("a\nb\r\u{2028}\u{feff}c\td")
            .unwrap_err()
            .to_string();
        assert!(e.contains("a\\nb\\r\\u{2028}\\u{feff}c\td"), "{e}");
    }
}
