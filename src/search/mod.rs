//! Exact search with every card known: the best final score of a position and a line reaching it.
//!
//! The search answers yes/no questions ("can the game still reach k?", `dfs.rs`). The root
//! (`root.rs`) narrows the answer between the score of a line found (first a greedy play-out)
//! and an upper bound, which the relaxed game with free clues can lower. The table keeps bounds
//! between questions, so later ones reuse earlier work.

pub mod beam;
pub mod bounds;
pub mod dfs;
pub mod goal;
pub mod key;
pub mod order;
pub mod reason;
mod root;
pub mod table;

pub use dfs::{Answer, Tuning};
pub use root::{
    deadline_after, pool_max, relaxed_max, relaxed_reaches, relaxed_reaches_tuned, solve,
    solve_all, verdict, Ceiling, SharedSearch, Solution, SolveConfig,
};
