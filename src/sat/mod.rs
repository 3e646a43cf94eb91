//! Deciding "can the game from this position end with at least k points?" with a SAT solver.
//!
//! The search ([`crate::search`]) settles almost every deal at once, but a few hard deals
//! (many players, a suit with one copy of each card) leave it between bounds for minutes: it
//! must refute every line one by one. A CDCL solver learns why whole families of lines fail,
//! and settles those deals in seconds. The formula ([`encode`]) is exact: a model is a line
//! reaching k, which is replayed through the rules before it is believed, and no model means no
//! line reaches k. The solver is CaDiCaL, built from source by the `cadical` crate.

pub mod cnf;
pub mod encode;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use thiserror::Error;

use crate::line::final_state;
use crate::state::{Action, Deal, State};
use encode::Encoding;

/// What the solver settled about a position and a target score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A line reaching the target, checked against the rules.
    Reached(Vec<Action>),
    /// No line reaches the target.
    Unreachable,
    /// Stopped by the deadline or the cancel flag first.
    Open,
}

/// Why no decision could be made.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SatError {
    /// The position uses a rule the formula does not model.
    #[error("the SAT encoding does not model {0}")]
    NotModelled(&'static str),
    /// A model whose line does not win under the rules: a fault in the encoding.
    #[error("the SAT model's line does not win: {0}")]
    BadLine(String),
}

/// When to give up: at a deadline, or once another thread sets `cancel`.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    pub deadline: Option<Instant>,
    pub cancel: Option<Arc<AtomicBool>>,
}

impl cadical::Callbacks for Stop {
    fn terminate(&mut self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// Whether some line from `state` ends the game with a score of at least `target`, by the SAT
/// solver ([`Decision::Reached`] then holds the line).
pub fn reach(deal: &Deal, state: &State, target: u8, stop: Stop) -> Result<Decision, SatError> {
    encode::applies(deal, state).map_err(SatError::NotModelled)?;
    let encoding = Encoding::new(deal, state, target, true);
    solve(deal, state, target, &encoding, stop)
}

/// Solves `encoding` (of `state` and `target`) and checks the line of a model.
pub fn solve(
    deal: &Deal,
    state: &State,
    target: u8,
    encoding: &Encoding,
    stop: Stop,
) -> Result<Decision, SatError> {
    let mut solver: cadical::Solver<Stop> = cadical::Solver::new();
    for clause in encoding.cnf.clauses() {
        solver.add_clause(clause.iter().copied());
    }
    solver.set_callbacks(Some(stop));
    match solver.solve() {
        None => Ok(Decision::Open),
        Some(false) => Ok(Decision::Unreachable),
        Some(true) => {
            let line = encoding.line(deal, state, |l| solver.value(l) == Some(true));
            check_line(deal, state, target, &line)?;
            Ok(Decision::Reached(line))
        }
    }
}

/// Replays `line` from `state` and checks that it ends the game with at least `target`.
fn check_line(deal: &Deal, state: &State, target: u8, line: &[Action]) -> Result<(), SatError> {
    let rules = &deal.rules;
    let s = final_state(deal, state, line).map_err(SatError::BadLine)?;
    if !s.is_over() {
        Err(SatError::BadLine("the game is not over after it".into()))
    } else if s.score(rules) < target {
        Err(SatError::BadLine(format!(
            "it ends at {} where {target} was asked",
            s.score(rules)
        )))
    } else {
        Ok(())
    }
}
