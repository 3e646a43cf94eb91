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

/// How a beam orders the positions after the same number of turns, once their upper bounds
/// tie (which they do on most positions, until a line has made its fatal mistake).
///
/// No one order finds every line: each keeps its own kind of position, and a beam that misses
/// a line at one width mostly misses it at the next too. So the search runs two beams after
/// each round, one by points and one by promise, with fresh noise every round. Measured on the
/// 70 won 4- to 6-player Black deals that the 2 s rows left undecided, at width 800: points
/// alone found the perfect line of none; promise of 20; promise with three different salts,
/// of 26 together. On the whole 6-player Black row at 2 s a seed, the undecided seeds went
/// from 73 (points alone) to 56 with the two orders taking turns from round to round, to 50
/// with both every round, and to 46 with both and the noise fresh every round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// More points played first, then more clue tokens, then fewer strikes.
    Points,
    /// The higher `promise`, plus noise drawn from `salt` worth less than a point played, so
    /// that beams with different salts keep different positions.
    Promise { salt: u64 },
}

impl Ranking {
    /// Where `child` stands among the positions of its turn under this ranking, once upper
    /// bounds tie (higher first); `noise` is the beam's noise stream.
    fn order(self, deal: &Deal, child: &State, noise: &mut u64) -> i32 {
        match self {
            Ranking::Points => {
                (i32::from(child.score(&deal.rules)) << 16)
                    | (i32::from(child.clues) << 8)
                    | i32::from(u8::MAX - child.strikes)
            }
            Ranking::Promise { .. } => {
                promise(deal, child) + (splitmix(noise) % (NOISE + 1)) as i32
            }
        }
    }
}

/// The most noise [`Ranking::Promise`] adds to a promise (a point played is worth 120).
const NOISE: u64 = 100;

/// How promising a position is for a beam, beyond its upper bound. Points played weigh most;
/// then the resources a perfect game runs short of: clue tokens (to wait for a card), the
/// pile (with the points, the pace: the discards still affordable), and spare copies in the
/// hands (cards free to go, so that a hand of cards to keep does not force a fatal discard);
/// strikes weigh heavily against. The weights were measured (see [`Ranking`]); others near
/// them find about as many lines.
fn promise(deal: &Deal, state: &State) -> i32 {
    let rules = &deal.rules;
    let mut seen = 0u64;
    let mut spare = 0;
    for p in 0..rules.players as usize {
        for &card in state.hand(p) {
            let bit = 1u64 << card.kind();
            if seen & bit != 0 && !state.is_trash(rules, card) {
                spare += 1;
            }
            seen |= bit;
        }
    }
    120 * i32::from(state.score(rules))
        + 20 * i32::from(state.clues)
        + 20 * i32::from(deal.pile_left(state))
        + 10 * spare
        - 80 * i32::from(state.strikes)
}

/// The next value of a splitmix64 stream: cheap, well-mixed noise, the same for the same
/// salt, so a beam's line does not depend on anything but its arguments.
fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A position's rank: its upper bound, then its order under the ranking.
type Rank = (u8, i32);

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

/// The best line a beam of `width` positions, kept by their upper bound and then `ranking`,
/// finds from `state`, with its final score. Stops early once a line reaches `target` (no line
/// can beat an upper bound). At `deadline` it gives up: then it reports no line (score 0),
/// since a wide beam can take seconds.
pub fn beam(
    deal: &Deal,
    state: &State,
    width: usize,
    target: u8,
    ranking: Ranking,
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
    let mut best: Option<Finished> = None;
    let mut seen = HashSet::new();
    // The noise stream of `Ranking::Promise`.
    let mut noise = match ranking {
        Ranking::Points => 0,
        Ranking::Promise { salt } => salt,
    };
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
                    if best.is_none_or(|b| score > b.score) {
                        best = Some(Finished {
                            score,
                            turns: history.len(),
                            parent: i as u32,
                            last: action,
                        });
                    }
                    continue;
                }
                let order = ranking.order(deal, &child, &mut noise);
                let rank = (upper_bound(deal, &child, tuning.bounds), order);
                if best.is_some_and(|b| rank.0 <= b.score) {
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
        if best.is_some_and(|b| b.score >= target) {
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
    let Some(best) = best else {
        unreachable!("every line ends, and the first layer holds a position in play")
    };
    BeamLine {
        score: best.score,
        line: best.line(&history),
        nodes,
    }
}

/// The best line a beam has finished.
#[derive(Clone, Copy, Debug)]
struct Finished {
    score: u8,
    /// The number of actions in the line (the layers kept when it finished).
    turns: usize,
    /// The index of its last position's parent among the positions kept before its last turn.
    parent: u32,
    last: Action,
}

impl Finished {
    /// Its actions, walked back through `history` (each turn's (parent, action) of every
    /// position kept) from the last turn to the first.
    fn line(self, history: &[Vec<(u32, Action)>]) -> Vec<Action> {
        let mut line = vec![self.last];
        let mut parent = self.parent;
        for t in (1..self.turns).rev() {
            let (p, action) = history[t][parent as usize];
            line.push(action);
            parent = p;
        }
        line.reverse();
        line
    }
}
