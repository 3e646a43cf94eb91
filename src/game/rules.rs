//! The rule options of one game: variant, players, hand size, tokens, strikes and the toggles
//! that change legality. Built only through [`Rules::new`], which refuses impossible values.

use crate::error::Error;
use crate::game::card::Card;
use crate::game::tokens::TokenRules;
use crate::game::variant::Variant;

/// Most players a game may have.
pub const MAX_PLAYERS: usize = 6;
/// Largest hand size; the state keeps hands in fixed arrays of this length.
pub const MAX_HAND: usize = 8;

/// Options as the user gives them; `None` means the default for the player count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub hand_size: Option<u8>,
    pub clues: Option<u8>,
    pub strikes: Option<u8>,
    pub empty_clues: bool,
    pub deck_plays: bool,
    pub endless: bool,
}

/// Checked rules of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub variant: Variant,
    pub players: u8,
    pub hand_size: u8,
    /// Clue tokens when all are available (8 by default), in the variant's units (see
    /// [`TokenRules`]: 16 half tokens in Clue Starved).
    pub max_clues: u8,
    /// Strikes that end the game (3 by default).
    pub max_strikes: u8,
    pub empty_clues: bool,
    pub deck_plays: bool,
    /// No final round; the outcome is perfect or loss.
    pub endless: bool,
}

/// Hand size for a player count, as the rule books and hanab.live deal.
pub fn default_hand_size(players: u8) -> u8 {
    match players {
        2 | 3 => 5,
        4 | 5 => 4,
        _ => 3,
    }
}

impl Rules {
    /// Checks every option against the variant and the player count.
    ///
    /// ```
    /// use hanabi_solver::game::{rules::{Options, Rules}, variant::Variant};
    /// let r = Rules::new(Variant::no_variant(), 4, &Options::default()).unwrap();
    /// assert_eq!((r.hand_size, r.max_clues, r.max_strikes), (4, 8, 3));
    /// assert!(Rules::new(Variant::no_variant(), 7, &Options::default()).is_err());
    /// ```
    pub fn new(variant: Variant, players: u8, options: &Options) -> Result<Rules, Error> {
        if !(2..=MAX_PLAYERS as u8).contains(&players) {
            return Err(Error::Option(format!(
                "players must be 2 to 6, not {players}"
            )));
        }
        let hand_size = options.hand_size.unwrap_or(default_hand_size(players));
        if !(1..=MAX_HAND as u8).contains(&hand_size) {
            return Err(Error::Option(format!(
                "hand size must be 1 to {MAX_HAND}, not {hand_size}"
            )));
        }
        let dealt = players as usize * hand_size as usize;
        if dealt > variant.deck_size() {
            return Err(Error::Option(format!(
                "{players} hands of {hand_size} need {dealt} cards but {} has only {}",
                variant.name,
                variant.deck_size()
            )));
        }
        let tokens = options.clues.unwrap_or(8);
        if !(1..=15).contains(&tokens) {
            return Err(Error::Option(format!(
                "clue tokens must be 1 to 15, not {tokens}"
            )));
        }
        let max_clues = tokens * variant.tokens().scale;
        let max_strikes = options.strikes.unwrap_or(3);
        if !(1..=7).contains(&max_strikes) {
            return Err(Error::Option(format!(
                "strikes must be 1 to 7, not {max_strikes}"
            )));
        }
        Ok(Rules {
            variant,
            players,
            hand_size,
            max_clues,
            max_strikes,
            empty_clues: options.empty_clues,
            deck_plays: options.deck_plays,
            endless: options.endless,
        })
    }

    /// The options that would rebuild these rules.
    pub fn options(&self) -> Options {
        Options {
            hand_size: Some(self.hand_size),
            clues: Some(self.max_tokens()),
            strikes: Some(self.max_strikes),
            empty_clues: self.empty_clues,
            deck_plays: self.deck_plays,
            endless: self.endless,
        }
    }

    /// The variant's clue-token economy.
    #[inline]
    pub fn tokens(&self) -> TokenRules {
        self.variant.tokens()
    }

    /// The number of tokens at the maximum, as the options give it (8 by default).
    pub fn max_tokens(&self) -> u8 {
        self.max_clues / self.tokens().scale
    }

    pub fn perfect_score(&self) -> u8 {
        self.variant.perfect_score()
    }

    /// Whether a clue may touch no card (the empty-clues option, or a clue type that touches
    /// nothing in this variant): then a token alone pays for a clue, whoever holds what.
    pub fn clue_may_touch_nothing(&self) -> bool {
        self.empty_clues || self.variant.has_blind_clue()
    }

    /// The slots of `hand` (bit `i` for slot `i`, oldest first) that the `index`-th clue of a
    /// type (`colour`, else rank) in the variant's list touches, if that clue may be given to
    /// this hand: it touches a card, or empty clues are on, or its type is blind. Tokens and
    /// Alternating Clues are the state's to check.
    pub fn clue_touch(&self, colour: bool, index: usize, hand: &[Card]) -> Option<u16> {
        let v = &self.variant;
        let clue = v.clues_of_type(colour).get(index)?;
        let touched = hand
            .iter()
            .enumerate()
            .filter(|(_, c)| c.kind_bit() & clue.touches != 0)
            .fold(0u16, |m, (i, _)| m | 1 << i);
        (touched != 0 || self.empty_clues || v.clue_type_is_blind(colour)).then_some(touched)
    }
}

/// Seat names used when a game does not name its players.
pub const DEFAULT_NAMES: [&str; MAX_PLAYERS] =
    ["Alice", "Bob", "Cathy", "Donald", "Emily", "Frank"];

/// The score-scale words of the rule book for `score` out of `perfect` (scaled to a 25-point game
/// for other deck sizes).
///
/// ```
/// assert_eq!(hanabi_solver::game::rules::score_words(25, 25), "legendary, everyone left speechless");
/// assert_eq!(hanabi_solver::game::rules::score_words(3, 25), "horrible, booed by the crowd");
/// ```
pub fn score_words(score: u8, perfect: u8) -> &'static str {
    if score >= perfect {
        return "legendary, everyone left speechless";
    }
    let scaled = (score as u32 * 25) / perfect.max(1) as u32;
    match scaled {
        0..=5 => "horrible, booed by the crowd",
        6..=10 => "mediocre, just a hint of scattered applause",
        11..=15 => "honorable attempt, but quickly forgotten",
        16..=20 => "excellent, crowd pleasing",
        _ => "amazing, they will be talking about it for weeks",
    }
}
