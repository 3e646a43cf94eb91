//! The hot loop: "can this position still reach score k?", depth first.
//!
//! Free of allocation (moves and keys live inline) and of logging. Each call reads as numbered
//! steps: terminal check, bound cutoff, table probe, ordered moves, store.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use smallvec::SmallVec;

use super::bounds::{goal_bound, BoundSet};
use super::goal::Goal;
use super::key::{code_toward, goal_key, TRASH};
use super::order::{moves_toward, ordered_moves};
use super::table::Table;
use crate::state::{Action, Deal, State, NOT_FINAL};

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
    /// Lower the upper bound with the relaxed game (free clues) where it applies.
    pub relaxed: bool,
    /// Leave out moves that another move provably does at least as well as (misplays while a
    /// discard is legal).
    pub dominance: bool,
    /// Below the perfect score, put "can the game reach k?" as one question per way of
    /// sharing k between the suits (see [`super::goal::Goal`]).
    pub goals: bool,
    /// With `relaxed`: ask the pool game (see [`pool_applies`]) before the relaxed game.
    pub pool: bool,
    /// In the pool game, where a card the question needs can be played, play it and try
    /// nothing else (see `forced_pool_play`).
    pub pool_plays: bool,
}

impl Tuning {
    pub const FULL: Tuning = Tuning {
        bounds: BoundSet::ALL,
        merge: true,
        table: true,
        relaxed: true,
        dominance: true,
        goals: true,
        pool: true,
        pool_plays: true,
    };
}

/// One thread's search: shared table and stop flags, its own node count.
pub struct Searcher<'a> {
    pub deal: &'a Deal,
    pub table: &'a Table,
    pub tuning: Tuning,
    /// Search the relaxed game (see [`relaxed_root`]) instead of the real one.
    pub relaxed: bool,
    /// What the question's `k` counts: the score, or the progress toward narrower goal.
    pub goal: Goal,
    /// With `relaxed`: search the pool game instead (see [`pool_applies`]).
    pub pool: bool,
    /// Set when a limit is reached: every search returns [`Answer::Stopped`].
    pub stop: &'a AtomicBool,
    /// Set when a sibling search has already answered yes.
    pub done: &'a AtomicBool,
    /// When to set `stop` by itself.
    pub deadline: Option<Instant>,
    /// Give up (answer [`Answer::Stopped`]) after this many nodes, without setting `stop`.
    pub node_limit: u64,
    pub nodes: u64,
    /// While set, the search pauses at each check of the clock (see `Ceiling::step_aside`).
    pub yielding: Option<&'a AtomicBool>,
}

impl Searcher<'_> {
    #[cold]
    fn should_stop(&self) -> bool {
        if self.nodes >= self.node_limit {
            return true;
        }
        if self.yielding.is_some_and(|y| y.load(Ordering::Relaxed)) {
            std::thread::sleep(super::root::YIELD_PAUSE);
        }
        past_deadline(self.deadline, self.stop) || self.done.load(Ordering::Relaxed)
    }

    /// The bounds this search may use: the pool game's hands are one pool, so the seat rule
    /// (which asks whose hand holds a card) does not bound it.
    #[inline]
    fn bounds(&self) -> BoundSet {
        if self.relaxed && self.pool {
            self.tuning.bounds.without_seats()
        } else {
            self.tuning.bounds
        }
    }

    /// The children of `state` that might still reach `k`, with the actions leading to them:
    /// highest bound first, the move order breaking ties. Children whose bound falls short of
    /// `k` are dropped.
    pub fn children(&self, state: &State, k: u8) -> SmallVec<[(Action, State); 32]> {
        let rules = &self.deal.rules;
        let mut scored: SmallVec<[(u8, Action, State); 32]> = SmallVec::new();
        let mut moves: SmallVec<[(u8, Action); 64]> = SmallVec::new();
        if self.relaxed {
            relaxed_moves(
                self.deal,
                state,
                self.tuning,
                &self.goal,
                self.pool,
                &mut moves,
            );
        } else {
            let turn = state.turn;
            moves.extend(
                ordered_moves(self.deal, state, self.tuning.merge, self.tuning.dominance)
                    .into_iter()
                    .map(|a| (turn, a)),
            );
        }
        for (seat, action) in moves {
            let child = if self.relaxed {
                let mut from = *state;
                from.turn = seat;
                // No tokens for card actions (discards are legal); one for a pass.
                from.clues = if action == Action::Clue {
                    rules.tokens().clue_cost
                } else {
                    0
                };
                let mut child = from.apply_unchecked(self.deal, action);
                relax(&mut child, self.pool);
                child
            } else {
                state.apply_unchecked(self.deal, action)
            };
            let ub = if child.is_over() {
                self.goal.score(rules, &child)
            } else {
                goal_bound(self.deal, &child, self.bounds(), &self.goal)
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
        if !state.is_over() && k > 0 && goal_bound(self.deal, state, self.bounds(), &self.goal) < k
        {
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
            return if self.goal.score(rules, state) >= k {
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
            let key = goal_key(self.deal, state, &self.goal, self.relaxed, self.pool);
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

/// Whether a search must stop: `stop` is set, or `deadline` has passed (which sets `stop`, so
/// that every search sharing it stops at its next look).
pub(super) fn past_deadline(deadline: Option<Instant>, stop: &AtomicBool) -> bool {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        stop.store(true, Ordering::Relaxed);
    }
    stop.load(Ordering::Relaxed)
}

/// Whether the relaxed game bounds the real one from `state`. It needs every player to hold a
/// card whenever it is their turn (no endless mode, and two or more cards in every hand now:
/// hands only shrink in the final round, by one card a player), so that the relaxed game never
/// ends for want of a legal action where the real one goes on.
pub fn relaxation_applies(deal: &Deal, state: &State) -> bool {
    !deal.rules.endless && (0..deal.rules.players as usize).all(|p| state.hand(p).len() >= 2)
}

/// A position of the relaxed game: clue tokens are unlimited, so a clue is a free pass. Before
/// the pile runs out any player may therefore act next, and whose turn it is does not matter;
/// in the final round passes still use up turns. Every real line is a relaxed line, so the
/// relaxed game's best score bounds the real one from above, and its positions are far fewer.
pub fn relaxed_root(state: &State) -> State {
    let mut s = *state;
    relax(&mut s, false);
    s
}

/// Whether the pool game bounds the relaxed game from `state`: as [`relaxation_applies`], and
/// every hand holds at least as many cards as there are players, so no hand can run empty
/// before the last turn of the final round however its turns are taken (a player with no card
/// and no token would end the game early).
///
/// The pool game relaxes the relaxed game further: the hands are one pool, any card of which
/// may be played or discarded at any card action, the final round included (one action per
/// player still, in any order, from any hand). Which hand holds a card only mattered for the
/// final round, and the bounds never look at it, so a relaxed line's image in the pool game is
/// never pruned; the pool game has far fewer positions (a pool of ten cards splits into two
/// hands of five in up to 252 ways).
pub fn pool_applies(deal: &Deal, state: &State) -> bool {
    relaxation_applies(deal, state)
        && (0..deal.rules.players as usize)
            .all(|p| state.hand(p).len() >= deal.rules.players as usize)
}

/// Brings a position into the relaxed game's canonical form: no tokens counted (nor the last
/// clue's type), and before the final round, seat 0 to move (any seat may act).
fn relax(s: &mut State, pool: bool) {
    s.clues = 0;
    // Any clue type may follow: a pass is a pass.
    s.last_clue = None;
    if (pool || s.final_turns == NOT_FINAL) && !s.is_over() {
        s.turn = 0;
    }
}

/// Moves of the relaxed game: before the final round, every player's card actions; in the
/// final round, the mover's card actions and a pass. In the pool game, every player's card
/// actions in the final round too, and one move for each kind of card whichever hand holds it.
fn relaxed_moves(
    deal: &Deal,
    state: &State,
    tuning: Tuning,
    goal: &Goal,
    pool: bool,
    out: &mut SmallVec<[(u8, Action); 64]>,
) {
    let beyond = (!goal.is_full()).then_some(goal);
    if pool && tuning.pool_plays {
        if let Some(play) = forced_pool_play(deal, state, beyond) {
            out.push(play);
            return;
        }
    }
    let players = deal.rules.players;
    let seats = if pool || state.final_turns == NOT_FINAL {
        0..players
    } else {
        state.turn..state.turn + 1
    };
    // Plays and discards already generated, by card code (pool game).
    let mut played: u64 = 0;
    let mut discarded: u64 = 0;
    for seat in seats {
        let mut from = *state;
        from.turn = seat;
        // No tokens in hand: discards are legal and no clue is generated here.
        from.clues = 0;
        for a in moves_toward(deal, &from, tuning.merge, tuning.dominance, beyond) {
            if pool {
                let (seen, slot) = match a {
                    Action::Play(i) => (&mut played, i),
                    Action::Discard(i) => (&mut discarded, i),
                    // A blind play from the pile is the same from every seat.
                    Action::DeckPlay if seat == 0 => {
                        out.push((seat, a));
                        continue;
                    }
                    Action::DeckPlay | Action::Clue | Action::ColourClue | Action::RankClue => {
                        continue
                    }
                };
                let card = state.hand(seat as usize)[slot as usize];
                let code = code_toward(&deal.rules, state, card, beyond);
                if *seen & (1 << code) != 0 {
                    continue;
                }
                *seen |= 1 << code;
            }
            out.push((seat, a));
        }
    }
    if state.final_turns != NOT_FINAL {
        out.push((state.turn, Action::Clue));
    }
}

/// In the pool game, a play that is at least as good as every other move: a card that can be
/// played now and that the question needs (not trash, nor above the goal `beyond`), from the
/// seat holding it. `None` where there is none, where the players choose the stacks' ways
/// (playing would commit a stack) or with deck plays (a blind play from the pile ends it
/// without a draw).
///
/// Why playing such a card `c` at once loses nothing: take any line `L` of the pool game from
/// here, and let `L'` play `c` first and then follow `L`, leaving out `L`'s first action on a
/// copy of `c` (a play or a discard), or where `L` never acts on one, `L`'s last action. `L'`
/// has as many card actions and turns as `L`, so the final round comes after the same number of
/// card actions and lasts as many turns; each card `L` acts on is in the pool at that point of
/// `L'` too (the pool only gains the cards `L'` draws one action sooner, and never needs the
/// copy of `c` it played), and in the pool game any card may be played at any card action,
/// the final round's included. Until `L` plays a copy of `c`, `L'`'s firework of `c` is one card
/// higher and the others are the same: an action of `L` that would now succeed where it failed
/// (a card above `c`), or fail where it succeeded (another copy of `c`), is made a discard
/// instead, which is always legal there (no tokens) and costs no strike. So `L'` never has
/// more strikes than `L`, its fireworks are never lower, and it ends no later; what it left
/// out of `L` is one copy of `c` acted on (which `L'` played) or `L`'s last action (worth at most
/// the one point that `c` brings). `L'` scores at least as much as `L`, toward any goal that
/// counts `c`.
fn forced_pool_play(deal: &Deal, state: &State, beyond: Option<&Goal>) -> Option<(u8, Action)> {
    let rules = &deal.rules;
    if rules.deck_plays || rules.variant.play_order().ways_chosen_in_play() {
        return None;
    }
    for seat in 0..rules.players {
        for (i, &card) in state.hand(seat as usize).iter().enumerate() {
            if state.is_playable(rules, card) && code_toward(rules, state, card, beyond) != TRASH {
                return Some((seat, Action::Play(i as u8)));
            }
        }
    }
    None
}
