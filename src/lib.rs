//! hanabi-solver: an exact model of Hanabi (hanab.live's rules and variants) and a solver that
//! finds the maximum score of a deal when every card is known.

pub mod analysis;
pub mod batch;
pub mod bench;
pub mod benchset;
pub mod error;
pub mod game;
pub mod hanablive;
pub mod hidden;
pub mod line;
pub mod portfolio;
pub mod position;
pub mod sat;
pub mod search;
pub mod seed;
pub mod spare_cores;
pub mod state;

pub use error::Error;
