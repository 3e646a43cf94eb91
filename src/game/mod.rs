//! The rules of Hanabi as hanab.live plays them, in one place: cards and kinds ([`card`]), the
//! catalogue of every variant's facts ([`catalogue`]), a playable variant with its deck, clue
//! touching and card names ([`variant`]), the order cards are played in ([`play`]), the clue-token
//! economy ([`tokens`]) and the options of one game ([`rules`]). The state, the search, replay, positions and the command
//! line ask these modules; none of them restates a rule.

pub mod card;
pub mod catalogue;
pub mod play;
pub mod rules;
pub mod tokens;
pub mod variant;
