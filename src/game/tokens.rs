//! The clue-token economy of a variant: what a clue costs, what a discard and a finished stack
//! give back, whether a discard is legal with every token available, and whether clue types
//! must alternate.
//!
//! Tokens are counted in units. One unit is one token, except in Clue Starved, where discards
//! and finished stacks give half a token: there a unit is half a token (as the site counts), a
//! clue costs two and the maximum doubles. The state and the search only ever see units; the
//! words for people ([`TokenRules::text`]) turn them back into tokens.

use crate::game::catalogue::VariantFacts;

/// The clue-token rules of one variant, in units (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TokenRules {
    /// Units per token: 2 in Clue Starved, else 1.
    pub scale: u8,
    /// Units a clue costs.
    pub clue_cost: u8,
    /// Units a discard gives (never above the maximum).
    pub discard_gain: u8,
    /// Units a finished stack gives: 0 in Throw It in a Hole.
    pub stack_gain: u8,
    /// A discard is legal with every token available (and then gives nothing): the variants
    /// with an Orange suit.
    pub discard_at_max: bool,
    /// A clue must not be of the previous clue's type (Alternating Clues).
    pub alternating: bool,
}

impl TokenRules {
    /// The rule book's economy: a token per clue, a token back per discard and finished stack.
    pub const STANDARD: TokenRules = TokenRules {
        scale: 1,
        clue_cost: 1,
        discard_gain: 1,
        stack_gain: 1,
        discard_at_max: false,
        alternating: false,
    };

    /// The economy the site's facts describe.
    pub fn from_facts(facts: &VariantFacts) -> TokenRules {
        let t = facts.clue_tokens();
        TokenRules {
            scale: t.scale,
            clue_cost: t.clue_cost,
            discard_gain: t.discard_gain,
            stack_gain: t.stack_complete_gain,
            discard_at_max: t.discard_at_max,
            alternating: facts.flags.alternating_clues,
        }
    }

    /// `units` as tokens for people: `3`, or `3.5` in Clue Starved.
    ///
    /// ```
    /// use hanabi_solver::game::tokens::TokenRules;
    /// let starved = TokenRules { scale: 2, clue_cost: 2, ..TokenRules::STANDARD };
    /// assert_eq!(starved.text(7), "3.5");
    /// assert_eq!(TokenRules::STANDARD.text(7), "7");
    /// ```
    pub fn text(self, units: u8) -> String {
        let whole = units / self.scale;
        let rest = units % self.scale;
        if rest == 0 {
            whole.to_string()
        } else {
            // Only scale 2 exists: a rest is half a token.
            format!("{whole}.5")
        }
    }

    /// Tokens written as `3` or `3.5` in units, or `None` when the text is not a count of
    /// tokens this economy can hold (a half token outside Clue Starved).
    ///
    /// ```
    /// use hanabi_solver::game::tokens::TokenRules;
    /// let starved = TokenRules { scale: 2, clue_cost: 2, ..TokenRules::STANDARD };
    /// assert_eq!(starved.units("3.5"), Some(7));
    /// assert_eq!(TokenRules::STANDARD.units("3.5"), None);
    /// assert_eq!(TokenRules::STANDARD.units("3"), Some(3));
    /// ```
    pub fn units(self, text: &str) -> Option<u8> {
        let (whole, half) = match text.split_once('.') {
            Some((w, "5")) => (w, true),
            Some((w, "0")) => (w, false),
            Some(_) => return None,
            None => (text, false),
        };
        let whole: u8 = whole.parse().ok()?;
        if half && self.scale != 2 {
            return None;
        }
        whole.checked_mul(self.scale)?.checked_add(u8::from(half))
    }
}
