//! Exact search with every card known: the best final score of a position and a line reaching it.
//!
//! The root asks yes/no questions ("can the game still reach k?") from the upper bound down,
//! starting above the score of a quick greedy play-out; the first yes is the answer. The table
//! keeps bounds between questions, so later ones reuse earlier work.

pub mod bounds;
pub mod dfs;
pub mod key;
pub mod order;
mod root;
pub mod table;

pub use dfs::{Answer, Tuning};
pub use root::{relaxed_max, solve, Solution, SolveConfig};
