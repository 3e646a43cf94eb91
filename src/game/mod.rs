//! What a hanab.live game is, for every variant the site offers: the catalogue of variant facts
//! (suits, clue colours and ranks, rule flags) and what follows from them (decks, clue touching,
//! maximum score, which play-rule family a variant belongs to).
//!
//! The rest of the program still plays on [`crate::variant::Variant`]; this module is the data
//! foundation that later code asks about any variant id or name.

pub mod catalogue;
