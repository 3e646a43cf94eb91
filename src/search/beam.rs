//! Lines found quickly: a beam search over whole turns.
//!
//! The exact search proves what a line can reach, but it finds good lines only as fast as its
//! depth-first order allows: one early mistake (say, clues spent that are missing later) is
//! undone only after the whole subtree under it has been searched. A beam keeps the `width`
//! most promising distinct positions after every turn instead, so it tries many different
//! openings at once. Its score is a proven lower bound (the line is real); it proves nothing
//! above that.

use std::cmp::Reverse;
use std::collections::HashSet;
use std::time::Instant;

use super::bounds::upper_bound;
use super::dfs::Tuning;
use super::key::key;
use super::order::ordered_moves;
use crate::state::{Action, Deal, State};

/// How a beam ranks positions after the same number of turns: the higher upper bound first,
/// then more of the score already played, then more clue tokens, then fewer strikes.
type Rank = (u8, u8, u8, Reverse<u8>);

/// One position kept after a turn, and how it was reached.
struct Kept {
    state: State,
    /// Index of its parent among the positions kept one turn earlier.
    parent: u32,
    action: Action,
}

/// What a beam found.
pub struct BeamLine {
    pub score: u8,
    pub line: Vec<Action>,
    /// Positions generated (the beam's share of a search's node count).
    pub nodes: u64,
}

/// The best line a beam of `width` positions finds from `state`, with its final score.
/// Stops early once a line reaches `target` (no line can beat an upper bound). At `deadline`
/// it gives up: then it reports no line (score 0), since a wide beam can take seconds.
pub fn beam(
    deal: &Deal,
    state: &State,
    width: usize,
    target: u8,
    tuning: Tuning,
    deadline: Option<Instant>,
) -> BeamLine {
    let rules = &deal.rules;
    if state.is_over() {
        return BeamLine {
            score: state.score(rules),
            line: Vec::new(),
            nodes: 0,
        };
    }
    let width = width.max(1);
    let mut nodes = 0u64;
    // For each turn, the (parent, action) of every position kept: enough to rebuild a line.
    let mut history: Vec<Vec<(u32, Action)>> = Vec::new();
    let mut layer = vec![Kept {
        state: *state,
        parent: 0,
        action: Action::Clue,
    }];
    // The best finished line: score, turn count, index of its last position's parent, action.
    let mut best: Option<(u8, usize, u32, Action)> = None;
    let mut seen = HashSet::new();
    while !layer.is_empty() {
        history.push(layer.iter().map(|k| (k.parent, k.action)).collect());
        let mut next: Vec<(Rank, Kept)> = Vec::new();
        for (i, kept) in layer.iter().enumerate() {
            if i % 64 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                return BeamLine {
                    score: 0,
                    line: Vec::new(),
                    nodes,
                };
            }
            for action in ordered_moves(deal, &kept.state, tuning.merge, tuning.dominance) {
                let child = kept.state.apply_unchecked(deal, action);
                nodes += 1;
                if child.is_over() {
                    let score = child.score(rules);
                    if best.is_none_or(|b| score > b.0) {
                        best = Some((score, history.len(), i as u32, action));
                    }
                    continue;
                }
                let rank = (
                    upper_bound(deal, &child, tuning.bounds),
                    child.score(rules),
                    child.clues,
                    Reverse(child.strikes),
                );
                if best.is_some_and(|b| rank.0 <= b.0) {
                    continue;
                }
                next.push((
                    rank,
                    Kept {
                        state: child,
                        parent: i as u32,
                        action,
                    },
                ));
            }
        }
        if best.is_some_and(|b| b.0 >= target) {
            break;
        }
        // Stable: among equal ranks, the move order decides.
        next.sort_by_key(|(rank, _)| Reverse(*rank));
        seen.clear();
        layer = next
            .into_iter()
            .filter(|(_, k)| seen.insert(key(deal, &k.state)))
            .take(width)
            .map(|(_, k)| k)
            .collect();
    }
    let Some((score, turns, mut parent, last)) = best else {
        unreachable!("every line ends, and the first layer holds a position in play")
    };
    // Walk back from the last turn to the first.
    let mut line = vec![last];
    for t in (1..turns).rev() {
        let (p, action) = history[t][parent as usize];
        line.push(action);
        parent = p;
    }
    line.reverse();
    BeamLine { score, line, nodes }
}
