//! The hot loop: "can this position still reach score k?", depth first.
//!
//! Free of allocation (moves and keys live inline) and of logging. Each call reads as numbered
//! steps: terminal check, bound cutoff, table probe, ordered moves, store.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use smallvec::SmallVec;

use super::bounds::{upper_bound, BoundSet};
use super::key::key;
use super::order::ordered_moves;
use super::table::Table;
use crate::state::{Action, Deal, State};

/// The answer to one yes/no question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    /// A limit or another thread's success stopped the search before it knew.
    Stopped,
}

/// What a search may use; every switch exists so tests can compare with and without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    pub bounds: BoundSet,
    /// Merge moves on equivalent cards.
    pub merge: bool,
    /// Use the transposition table.
    pub table: bool,
}

impl Tuning {
    pub const FULL: Tuning = Tuning {
        bounds: BoundSet::ALL,
        merge: true,
        table: true,
    };
}

/// One thread's search: shared table and stop flags, its own node count.
pub struct Searcher<'a> {
    pub deal: &'a Deal,
    pub table: &'a Table,
    pub tuning: Tuning,
    /// Set when a limit is reached: every search returns [`Answer::Stopped`].
    pub stop: &'a AtomicBool,
    /// Set when a sibling search has already answered yes.
    pub done: &'a AtomicBool,
    /// When to set `stop` by itself.
    pub deadline: Option<Instant>,
    /// Give up (answer [`Answer::Stopped`]) after this many nodes, without setting `stop`.
    pub node_limit: u64,
    pub nodes: u64,
}

impl Searcher<'_> {
    #[cold]
    fn should_stop(&self) -> bool {
        if self.nodes >= self.node_limit {
            return true;
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        self.stop.load(Ordering::Relaxed) || self.done.load(Ordering::Relaxed)
    }

    /// The children of `state` that might still reach `k`, with the actions leading to them:
    /// highest bound first, the move order breaking ties. Children whose bound falls short of
    /// `k` are dropped.
    pub fn children(&self, state: &State, k: u8) -> SmallVec<[(Action, State); 24]> {
        let rules = &self.deal.rules;
        let mut scored: SmallVec<[(u8, Action, State); 24]> = SmallVec::new();
        for action in ordered_moves(self.deal, state, self.tuning.merge) {
            let child = state.apply_unchecked(self.deal, action);
            let ub = if child.is_over() {
                child.score(rules)
            } else {
                upper_bound(self.deal, &child, self.tuning.bounds)
            };
            if ub >= k {
                scored.push((ub, action, child));
            }
        }
        scored.sort_by_key(|x| std::cmp::Reverse(x.0));
        scored.into_iter().map(|(_, a, c)| (a, c)).collect()
    }

    /// Can the game from `state` end with a score of at least `k`?
    pub fn reach(&mut self, state: &State, k: u8) -> Answer {
        if !state.is_over() && k > 0 && upper_bound(self.deal, state, self.tuning.bounds) < k {
            self.nodes += 1;
            return Answer::No;
        }
        self.reach_within_bound(state, k)
    }

    /// [`Searcher::reach`] for a position whose bound is already known to be at least `k`
    /// (the children that [`Searcher::children`] returns).
    fn reach_within_bound(&mut self, state: &State, k: u8) -> Answer {
        self.nodes += 1;
        if self.nodes & 0x3ff == 0 && self.should_stop() {
            return Answer::Stopped;
        }
        let rules = &self.deal.rules;
        // 1. Terminal positions score themselves.
        if state.is_over() {
            return if state.score(rules) >= k {
                Answer::Yes
            } else {
                Answer::No
            };
        }
        if k == 0 {
            return Answer::Yes;
        }
        // 2. Bound cutoff: done by the caller, which has the bound already.
        // 3. Table probe.
        let key = if self.tuning.table {
            let key = key(self.deal, state);
            if let Some(b) = self.table.get(&key) {
                if b.lo >= k {
                    return Answer::Yes;
                }
                if b.hi < k {
                    return Answer::No;
                }
            }
            Some(key)
        } else {
            None
        };
        // 4. Ordered moves.
        let children = self.children(state, k);
        for (_, child) in &children {
            match self.reach_within_bound(child, k) {
                Answer::Yes => {
                    if let Some(key) = key {
                        self.table.raise_lower(key, k, rules.perfect_score());
                    }
                    return Answer::Yes;
                }
                Answer::Stopped => return Answer::Stopped,
                Answer::No => {}
            }
        }
        // 5. Store the refutation.
        if let Some(key) = key {
            self.table.lower_upper(key, k - 1);
        }
        Answer::No
    }
}
