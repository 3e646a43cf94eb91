//! Exact team play when nobody sees their own cards.
//!
//! A position is given by what every player knows: the fireworks, discards, tokens, strikes,
//! each hand card's clue knowledge (a set of kinds it may be), whose turn, turns left. A *world*
//! is one way to put the unseen cards in the hidden hand slots and the pile that fits that
//! knowledge; every world is equally likely. A player sees every hand but its own, so a player's
//! observations are the public history and the other hands. The *team value* is the best, over
//! joint strategies in which each player's action depends only on its own observations, of the
//! number of worlds won (or, as a second goal, of the total final score); divided by the number
//! of worlds it is a probability (or an expected score).
//!
//! The search follows the common-information view of such games: at a public node (a history
//! every player saw, and the set of worlds that fit it), the team picks a *prescription*: one
//! action for each class of worlds the player to move cannot tell apart (worlds with the same
//! other hands). The worlds then split by what everyone saw of the action (the card played or
//! discarded, the slots a clue touched and what it said), and each part is a public node again.
//! Deterministic prescriptions lose nothing, and the player's past observations add nothing to
//! the classes: every card that left another hand was seen by all as it left.
//!
//! The value of a node is the best prescription's total over its parts. The prescriptions are
//! searched branch and bound, class by class:
//! - the *every-card-known* bound: a world can do no better than its perfect-information value,
//!   so a class taking an action is worth at most the sum of those values after it;
//! - the *per-view* prescription (each class taking the action best by that bound) played out at
//!   every node is a strategy, so its total is a lower bound that starts the search;
//! - parts where the game is over add their worlds' outcomes, and a node's value is kept in one
//!   table keyed by its history and its worlds, so a part met again under another prescription
//!   costs nothing.
//!
//! With a time limit the search stops and reports what it proved: the best strategy found (a
//! lower bound) and the per-view bound (an upper bound).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::exact::Fraction;
use super::worlds::{MergeDead, Worlds, WorldsError};
use crate::game::card::Card;
use crate::game::rules::Rules;
use crate::game::variant::ClueReveals;
use crate::position::Position;
use crate::search::{SharedSearch, SolveConfig};
use crate::state::{Action, Deal, State};

/// What the team plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TeamGoal {
    /// Reach the most the fireworks can still reach (the position's maximum).
    Win,
    /// The final score.
    Score,
}

/// A move of the player to move as it is made: a clue says whom it goes to and which clue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TeamAction {
    Play(u8),
    Discard(u8),
    /// The `index`-th clue of its type (`colour`, else rank) in the variant's list, to `target`.
    Clue {
        target: u8,
        colour: bool,
        index: u8,
    },
    DeckPlay,
}

impl TeamAction {
    /// The rule engine's action (a clue's type matters only in Alternating Clues).
    pub fn engine(self, rules: &Rules) -> Action {
        match self {
            TeamAction::Play(i) => Action::Play(i),
            TeamAction::Discard(i) => Action::Discard(i),
            TeamAction::DeckPlay => Action::DeckPlay,
            TeamAction::Clue { colour, .. } if rules.tokens().alternating => {
                if colour {
                    Action::ColourClue
                } else {
                    Action::RankClue
                }
            }
            TeamAction::Clue { .. } => Action::Clue,
        }
    }
}

/// A first move of the player to move, as the per-move values group them: a play or discard of
/// a slot, or a clue to a player (which clue may differ with what the mover sees).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FirstMove {
    Play(u8),
    Discard(u8),
    ClueTo(u8),
    DeckPlay,
}

impl FirstMove {
    fn admits(self, action: TeamAction) -> bool {
        match (self, action) {
            (FirstMove::Play(a), TeamAction::Play(b))
            | (FirstMove::Discard(a), TeamAction::Discard(b)) => a == b,
            (FirstMove::ClueTo(t), TeamAction::Clue { target, .. }) => t == target,
            (FirstMove::DeckPlay, TeamAction::DeckPlay) => true,
            _ => false,
        }
    }

    fn of(action: TeamAction) -> FirstMove {
        match action {
            TeamAction::Play(i) => FirstMove::Play(i),
            TeamAction::Discard(i) => FirstMove::Discard(i),
            TeamAction::Clue { target, .. } => FirstMove::ClueTo(target),
            TeamAction::DeckPlay => FirstMove::DeckPlay,
        }
    }
}

/// Limits of a team search.
#[derive(Clone, Debug)]
pub struct TeamConfig {
    /// Stop after this long; the values are then proven bounds.
    pub time_limit: Option<Duration>,
    /// Refuse positions with more worlds than this (each world is kept in memory).
    pub max_worlds: u64,
    /// When dead cards are merged ([`Worlds::of`]).
    pub merge_dead: MergeDead,
    /// The perfect-information searches that give each world's bound.
    pub search: SolveConfig,
}

/// Default cap on worlds: about a gibibyte of states at the root.
pub const DEFAULT_MAX_WORLDS: u64 = 2_000_000;

impl Default for TeamConfig {
    fn default() -> TeamConfig {
        TeamConfig {
            time_limit: None,
            max_worlds: DEFAULT_MAX_WORLDS,
            merge_dead: MergeDead::default(),
            search: SolveConfig {
                tt_mb: 64,
                ..SolveConfig::default()
            },
        }
    }
}

/// Proven bounds on a total over the worlds (worlds won, or final scores summed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TotalBounds {
    pub lo: u64,
    pub hi: u64,
}

impl TotalBounds {
    pub fn exact(&self) -> bool {
        self.lo == self.hi
    }

    /// The bounds as fractions of `worlds`.
    pub fn fractions(&self, worlds: u64) -> (Fraction, Fraction) {
        (
            Fraction::new(self.lo as u128, worlds as u128),
            Fraction::new(self.hi as u128, worlds as u128),
        )
    }
}

/// The values of one goal.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalValues {
    pub goal: TeamGoal,
    /// The team's best.
    pub team: TotalBounds,
    /// Every card known to everyone, averaged over the worlds: an upper bound of the team value.
    pub cheat: TotalBounds,
    /// Each class of the player to move taking its best move by the every-card-known values,
    /// as if everyone saw every card afterwards: what determinizing engines report, an upper
    /// bound too.
    pub per_view: TotalBounds,
    /// The per-view choice made by every player at every turn, played out: a strategy, so a
    /// lower bound.
    pub per_view_played: u64,
    /// The team value when the player to move makes this move first (where it is legal).
    pub moves: Vec<(FirstMove, TotalBounds)>,
}

impl GoalValues {
    /// Turns the values of the merged game (dead cards told apart by nothing but what is
    /// public) into proven bounds of the real one: its strategies are strategies of the real
    /// game, so its values are lower bounds there, and the every-card-known figures are upper
    /// bounds of both. The per-view estimate of the real game lies between the merged one
    /// (coarser classes) and the every-card-known one.
    /// Each first move's upper bound is set where it is computed (each world's best move).
    fn widen_to_real_game(&mut self) {
        let cheat = self.cheat.hi;
        self.team.hi = cheat.max(self.team.lo);
        self.per_view.hi = cheat.max(self.per_view.lo);
    }
}

/// The answer of [`team`].
#[derive(Clone, Debug, PartialEq)]
pub struct Team {
    /// What the totals of [`TotalBounds`] are out of: the worlds, or with dead cards merged, the
    /// sum of their weights.
    pub total: u64,
    /// Arrangements of card kinds that fit the position, all equally likely.
    pub arrangements: u128,
    /// With dead cards merged, the number of merged worlds searched.
    pub merged_worlds: Option<u64>,
    /// The most the fireworks can still reach: what winning means.
    pub target: u8,
    pub win: GoalValues,
    pub score: GoalValues,
    /// Public nodes searched, both goals together.
    pub nodes: u64,
    pub seconds: f64,
}

/// Why a team search cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TeamError {
    #[error(transparent)]
    Worlds(#[from] WorldsError),
    #[error("{0} hides a player's own played cards from it, which team play does not model")]
    PlaysHidden(String),
}

/// The moves the player to move may make in `state`, each clue given concretely. With dead
/// cards merged, only clues that touch a live card: whether a clue touches a dead card is not
/// known in a merged world, and a clue that touches a live card can be given in every world
/// it stands for.
pub fn team_actions(deal: &Deal, state: &State, merged: bool) -> Vec<TeamAction> {
    let rules = &deal.rules;
    let mut out = Vec::new();
    if state.is_over() {
        return out;
    }
    let p = state.turn as usize;
    let n = state.hand(p).len() as u8;
    out.extend((0..n).map(TeamAction::Play));
    if state.can_discard(rules) {
        out.extend((0..n).map(TeamAction::Discard));
    }
    let tokens = rules.tokens();
    if state.clues >= tokens.clue_cost {
        for target in (0..rules.players as usize).filter(|&t| t != p) {
            let before = out.len();
            let hand = state.hand(target);
            let live: Vec<Card>;
            let hand = if merged {
                live = hand
                    .iter()
                    .copied()
                    .filter(|&c| !state.is_trash(rules, c))
                    .collect();
                &live[..]
            } else {
                hand
            };
            for colour in [true, false] {
                if tokens.alternating && state.last_clue == Some(colour) {
                    continue;
                }
                for index in 0..rules.variant.clues_of_type(colour).len() {
                    if rules.clue_touch(colour, index, hand).is_some() {
                        out.push(TeamAction::Clue {
                            target: target as u8,
                            colour,
                            index: index as u8,
                        });
                    }
                }
            }
            if merged
                && out.len() == before
                && rules.variant.every_card_clueable()
                && !state.hand(target).is_empty()
            {
                // Only dead cards to touch: some clue can be given in every world, which one
                // depending on the world, and the merged game sees only whom it went to.
                out.push(TeamAction::Clue {
                    target: target as u8,
                    colour: false,
                    index: ANY_CLUE,
                });
            }
        }
    }
    if state.can_deck_play(deal) {
        out.push(TeamAction::DeckPlay);
    }
    out
}

/// What every player sees of `action` in a world, as one number: the action's public form and
/// the card it showed (a play or discard) or the slots a clue touched and what it said. With
/// dead cards merged, a dead card shows only that it is dead and a clue only what it said.
fn observe(deal: &Deal, state: &State, action: TeamAction, merged: bool) -> u64 {
    let rules = &deal.rules;
    let p = state.turn as usize;
    let shown = |c: Card| seen_kind(rules, state, c, merged) as u64;
    match action {
        TeamAction::Play(i) => shown(state.hand(p)[i as usize]) << 8 | (i as u64) << 2,
        TeamAction::Discard(i) => shown(state.hand(p)[i as usize]) << 8 | (i as u64) << 2 | 1,
        TeamAction::DeckPlay => shown(deal.pile[state.drawn as usize]) << 8 | 2,
        TeamAction::Clue {
            target,
            colour,
            index,
        } => {
            if index == ANY_CLUE {
                return (target as u64) << 2 | 3;
            }
            let touched = if merged {
                0
            } else {
                rules
                    .clue_touch(colour, index as usize, state.hand(target as usize))
                    .expect("a legal clue")
            };
            let said = match rules.variant.clue_reveals() {
                ClueReveals::Value => 1 + u64::from(colour) * 64 + index as u64,
                ClueReveals::Type => 1 + u64::from(colour) * 64,
                ClueReveals::Nothing => 0,
            };
            (touched as u64) << 24 | said << 8 | (target as u64) << 2 | 3
        }
    }
}

/// What a player sees of card `c`: its kind, or with dead cards merged, [`DEAD_SEEN`] for a
/// dead card (whether a card is dead is public: it follows from the fireworks and discards).
fn seen_kind(rules: &Rules, state: &State, c: Card, merged: bool) -> u8 {
    if merged && state.is_trash(rules, c) {
        DEAD_SEEN
    } else {
        c.kind() as u8
    }
}

/// The `index` of a clue to a player whose cards are all dead, with dead cards merged: some
/// clue that touches one of them.
const ANY_CLUE: u8 = u8::MAX;

/// How a dead card looks with dead cards merged: no kind has this number.
const DEAD_SEEN: u8 = u8::MAX;

/// One world at a node: its index and its state there.
type Entry = (u32, State);

/// One move of a class: the move, the sum of its worlds' every-card-known bounds after it, and
/// each world after it with what everyone saw.
type ClassMove = (TeamAction, u64, Vec<(u64, Entry)>);

/// One class of worlds at a node: the worlds after each of its moves.
struct Class {
    /// Best bound first.
    options: Vec<ClassMove>,
}

/// The search of one goal over one position's worlds.
struct Search<'a> {
    worlds: &'a Worlds,
    goal: TeamGoal,
    target: u8,
    searches: Vec<Option<SharedSearch<'a>>>,
    config: &'a SolveConfig,
    cheat: HashMap<(u32, State), u64>,
    /// Exact totals of nodes, by history and worlds.
    table: HashMap<(Vec<u64>, Vec<u32>), u64>,
    /// Per-view play totals, by history and worlds.
    played: HashMap<(Vec<u64>, Vec<u32>), u64>,
    deadline: Option<Instant>,
    stopped: bool,
    nodes: u64,
}

impl<'a> Search<'a> {
    fn new(
        worlds: &'a Worlds,
        goal: TeamGoal,
        target: u8,
        limit: Option<Duration>,
        config: &'a SolveConfig,
        start: Instant,
    ) -> Search<'a> {
        Search {
            worlds,
            goal,
            target,
            searches: (0..worlds.deals.len()).map(|_| None).collect(),
            config,
            cheat: HashMap::new(),
            table: HashMap::new(),
            played: HashMap::new(),
            deadline: limit.map(|t| start + t),
            stopped: false,
            nodes: 0,
        }
    }

    fn deal(&self, world: u32) -> &'a Deal {
        &self.worlds.deals[self.worlds.deal_of[world as usize] as usize]
    }

    /// A finished world's worth, times its weight.
    fn outcome(&self, world: u32, state: &State) -> u64 {
        let score = state.score(&self.deal(world).rules);
        let worth = match self.goal {
            TeamGoal::Win => u64::from(score >= self.target),
            TeamGoal::Score => u64::from(score),
        };
        worth * self.worlds.weights[world as usize]
    }

    /// The most a world can be worth from `state` with every card known (a proven bound),
    /// times its weight. With dead cards merged it bounds every world the merged one stands
    /// for: with every card known, which dead card lies where changes nothing.
    fn cheat(&mut self, world: u32, state: &State) -> u64 {
        if state.is_over() {
            return self.outcome(world, state);
        }
        let weight = self.worlds.weights[world as usize];
        let d = self.worlds.deal_of[world as usize];
        if let Some(&v) = self.cheat.get(&(d, *state)) {
            return v * weight;
        }
        let deal = self.deal(world);
        let config = self.config;
        let search =
            self.searches[d as usize].get_or_insert_with(|| SharedSearch::new(deal, config));
        let ceiling = match self.goal {
            TeamGoal::Win => Some(self.target),
            TeamGoal::Score => None,
        };
        let bound = search.value(state, ceiling).upper_bound;
        let v = match self.goal {
            TeamGoal::Win => u64::from(bound >= self.target),
            TeamGoal::Score => u64::from(bound),
        };
        self.cheat.insert((d, *state), v);
        v * weight
    }

    /// The every-card-known bound of first move `m`: each world at its best move among those
    /// `m` admits (its best move where `m` is not legal there), summed.
    fn world_move_bound(&mut self, root: &[Entry], m: FirstMove) -> u64 {
        let mut total = 0;
        for &(w, s) in root {
            let deal = self.deal(w);
            let mut best = None;
            for a in team_actions(deal, &s, false) {
                if m.admits(a) {
                    let v = self.cheat(w, &s.apply_unchecked(deal, a.engine(&deal.rules)));
                    best = best.max(Some(v));
                }
            }
            total += match best {
                Some(v) => v,
                None => self.cheat(w, &s),
            };
        }
        total
    }

    fn out_of_time(&mut self) -> bool {
        if !self.stopped {
            if let Some(deadline) = self.deadline {
                self.stopped = Instant::now() >= deadline;
            }
        }
        self.stopped
    }

    /// The classes of the player to move at a node, each with its moves (only those `first`
    /// admits, where it admits any).
    fn classes(&mut self, entries: &[Entry], first: Option<FirstMove>) -> Vec<Class> {
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for (i, (_, state)) in entries.iter().enumerate() {
            let seen = self.view(state);
            let next = members.len();
            let c = *index.entry(seen).or_insert(next);
            if c == next {
                members.push(Vec::new());
            }
            members[c].push(i);
        }
        let mut classes = Vec::with_capacity(members.len());
        for member in members {
            let (w0, s0) = entries[member[0]];
            let mut actions = team_actions(self.deal(w0), &s0, self.worlds.merged);
            if let Some(first) = first {
                if actions.iter().any(|&a| first.admits(a)) {
                    actions.retain(|&a| first.admits(a));
                }
            }
            let mut options = Vec::with_capacity(actions.len());
            for action in actions {
                let mut bound = 0;
                let mut after = Vec::with_capacity(member.len());
                for &i in &member {
                    let (w, s) = entries[i];
                    let deal = self.deal(w);
                    let seen = observe(deal, &s, action, self.worlds.merged);
                    let next = s.apply_unchecked(deal, action.engine(&deal.rules));
                    bound += self.cheat(w, &next);
                    after.push((seen, (w, next)));
                }
                options.push((action, bound, after));
            }
            options.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            classes.push(Class { options });
        }
        // Big classes first: their choice moves the bounds most.
        classes.sort_by_key(|c| std::cmp::Reverse(c.options[0].2.len()));
        classes
    }

    /// The per-view prescription (each class its best-bound move) played out from a node with
    /// these classes: the worlds grouped by what was seen, each part played out the same way.
    fn per_view_total(&mut self, history: &mut Vec<u64>, classes: &[Class]) -> u64 {
        let mut parts: HashMap<u64, Vec<Entry>> = HashMap::new();
        for class in classes {
            for &(seen, entry) in &class.options[0].2 {
                parts.entry(seen).or_default().push(entry);
            }
        }
        let mut parts: Vec<(u64, Vec<Entry>)> = parts.into_iter().collect();
        parts.sort_by_key(|p| p.0);
        let mut total = 0;
        for (seen, mut part) in parts {
            part.sort_by_key(|e| e.0);
            total += self.part_total(history, seen, &part, true);
        }
        total
    }

    /// The total of a part after `seen` was added to `history`.
    fn part_total(
        &mut self,
        history: &mut Vec<u64>,
        seen: u64,
        part: &[Entry],
        played: bool,
    ) -> u64 {
        if part[0].1.is_over() {
            return part.iter().map(|(w, s)| self.outcome(*w, s)).sum();
        }
        history.push(seen);
        let v = if played {
            self.played_total(history, part)
        } else {
            self.total(history, part, None).lo
        };
        history.pop();
        v
    }

    /// The per-view prescription at every node, played out.
    fn played_total(&mut self, history: &mut Vec<u64>, entries: &[Entry]) -> u64 {
        let key = (
            history.clone(),
            entries.iter().map(|e| e.0).collect::<Vec<u32>>(),
        );
        if let Some(&v) = self.played.get(&key) {
            return v;
        }
        let classes = self.classes(entries, None);
        let total = self.per_view_total(history, &classes);
        self.played.insert(key, total);
        total
    }

    /// The team's best total at a node, its first move restricted by `first`: exact, or proven
    /// bounds when the time ran out.
    fn total(
        &mut self,
        history: &mut Vec<u64>,
        entries: &[Entry],
        first: Option<FirstMove>,
    ) -> TotalBounds {
        self.nodes += 1;
        let key = (
            history.clone(),
            entries.iter().map(|e| e.0).collect::<Vec<u32>>(),
        );
        if first.is_none() {
            if let Some(&v) = self.table.get(&key) {
                return TotalBounds { lo: v, hi: v };
            }
        }
        let classes = self.classes(entries, first);
        let hi: u64 = classes.iter().map(|c| c.options[0].1).sum();
        // The per-view prescription played out: a strategy to beat.
        let mut best = self.per_view_total(history, &classes);
        if best < hi && !self.out_of_time() {
            // suffix[i]: the bound of classes i.. each at its best.
            let mut suffix = vec![0u64; classes.len() + 1];
            for i in (0..classes.len()).rev() {
                suffix[i] = suffix[i + 1] + classes[i].options[0].1;
            }
            let mut parts = Parts::default();
            self.branch(history, &classes, &suffix, &mut parts, 0, &mut best, hi);
        }
        let exact = !self.stopped;
        if exact && first.is_none() {
            self.table.insert(key, best);
        }
        TotalBounds {
            lo: best,
            hi: if exact { best } else { hi },
        }
    }

    /// Adds class move `option` to `parts`; returns the parts it changed, with their values
    /// before.
    fn add(
        &mut self,
        history: &mut Vec<u64>,
        parts: &mut Parts,
        option: &ClassMove,
    ) -> Vec<(u64, u64)> {
        let mut changed: Vec<(u64, u64)> = Vec::new();
        for &(seen, entry) in &option.2 {
            if !changed.iter().any(|c| c.0 == seen) {
                changed.push((seen, parts.values.get(&seen).copied().unwrap_or(0)));
            }
            parts.worlds.entry(seen).or_default().push(entry);
            if last_turn(&entry.1) {
                let sums = self.last_turn_sums(&entry);
                let tally = parts.last.entry(seen).or_default();
                tally.add(self.view(&entry.1), &sums, true);
            }
        }
        for &(seen, before) in &changed {
            let after = match parts.last.get(&seen) {
                Some(tally) => tally.value,
                None => {
                    let mut part = parts.worlds[&seen].clone();
                    part.sort_by_key(|e| e.0);
                    self.part_total(history, seen, &part, false)
                }
            };
            parts.values.insert(seen, after);
            parts.sum = parts.sum + after - before;
        }
        changed
    }

    /// Takes class move `option` out of `parts` again, `changed` being what [`Search::add`]
    /// returned.
    fn remove(&mut self, parts: &mut Parts, option: &ClassMove, changed: &[(u64, u64)]) {
        for &(seen, entry) in option.2.iter().rev() {
            let part = parts.worlds.get_mut(&seen).expect("added");
            part.pop();
            if part.is_empty() {
                parts.worlds.remove(&seen);
            }
            if last_turn(&entry.1) {
                let sums = self.last_turn_sums(&entry);
                let view = self.view(&entry.1);
                let tally = parts.last.get_mut(&seen).expect("added");
                tally.add(view, &sums, false);
                if !parts.worlds.contains_key(&seen) {
                    parts.last.remove(&seen);
                }
            }
        }
        for &(seen, before) in changed {
            let now = parts.values.get(&seen).copied().unwrap_or(0);
            parts.sum = parts.sum + before - now;
            if parts.worlds.contains_key(&seen) {
                parts.values.insert(seen, before);
            } else {
                parts.values.remove(&seen);
            }
        }
    }

    /// What the player to move sees in `state`: the other hands (dead cards only as dead
    /// where they are merged).
    fn view(&self, state: &State) -> Vec<u8> {
        let p = state.turn as usize;
        let rules = &self.worlds.deals[0].rules;
        let merged = self.worlds.merged;
        (0..rules.players as usize)
            .filter(|&q| q != p)
            .flat_map(|q| {
                let hand = state.hand(q);
                std::iter::once(hand.len() as u8)
                    .chain(hand.iter().map(|&c| seen_kind(rules, state, c, merged)))
            })
            .collect()
    }

    /// A world on the last turn: its worth after each move of the player to move, in the
    /// order of [`team_actions`] (the same for every world that player cannot tell apart).
    fn last_turn_sums(&self, &(w, state): &Entry) -> Vec<u64> {
        let deal = self.deal(w);
        team_actions(deal, &state, self.worlds.merged)
            .into_iter()
            .map(|a| self.outcome(w, &state.apply_unchecked(deal, a.engine(&deal.rules))))
            .collect()
    }

    /// Tries the moves of classes `i..` given the parts the classes before made, keeping the
    /// best total found in `best`. A part's value can only fall short of its own value plus
    /// the bounds of the worlds added to it later (telling a part's worlds apart from the
    /// added ones would help no one less), so the parts' values plus the later classes'
    /// bounds bound every prescription below this one.
    #[allow(clippy::too_many_arguments)]
    fn branch(
        &mut self,
        history: &mut Vec<u64>,
        classes: &[Class],
        suffix: &[u64],
        parts: &mut Parts,
        i: usize,
        best: &mut u64,
        hi: u64,
    ) {
        if i == classes.len() {
            *best = (*best).max(parts.sum);
            return;
        }
        // Each move's bound with this class added, best first.
        let mut order: Vec<(u64, usize)> = Vec::with_capacity(classes[i].options.len());
        for (k, option) in classes[i].options.iter().enumerate() {
            if parts.sum + option.1 + suffix[i + 1] <= *best {
                continue;
            }
            let changed = self.add(history, parts, option);
            order.push((parts.sum + suffix[i + 1], k));
            self.remove(parts, option, &changed);
            if self.out_of_time() {
                return;
            }
        }
        order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (bound, k) in order {
            if bound <= *best {
                break;
            }
            let option = &classes[i].options[k];
            let changed = self.add(history, parts, option);
            self.branch(history, classes, suffix, parts, i + 1, best, hi);
            self.remove(parts, option, &changed);
            if *best >= hi || self.out_of_time() {
                return;
            }
        }
    }
}

/// The parts a partial prescription made: worlds by what everyone saw, each part's exact
/// value, and their sum.
#[derive(Default)]
struct Parts {
    worlds: HashMap<u64, Vec<Entry>>,
    values: HashMap<u64, u64>,
    sum: u64,
    /// The parts on the last turn, whose values are kept as tallies.
    last: HashMap<u64, LastTurn>,
}

/// Whether every move of the player to move ends the game (the final round's last turn).
fn last_turn(state: &State) -> bool {
    !state.is_over() && state.final_turns == 1
}

/// A part on the last turn, valued as worlds come and go: no one moves after the player to
/// move, so each class of worlds it cannot tell apart simply takes its best move, and the
/// part is worth the sum of those.
#[derive(Default)]
struct LastTurn {
    /// Per class (by what the mover sees): the worlds' worth after each move, summed.
    classes: HashMap<Vec<u8>, Vec<u64>>,
    value: u64,
}

impl LastTurn {
    /// Adds (or, with `add` false, takes out) a world of class `view` worth `sums`.
    fn add(&mut self, view: Vec<u8>, sums: &[u64], add: bool) {
        let class = self
            .classes
            .entry(view)
            .or_insert_with(|| vec![0; sums.len()]);
        let before = class.iter().copied().max().unwrap_or(0);
        for (total, &x) in class.iter_mut().zip(sums) {
            if add {
                *total += x;
            } else {
                *total -= x;
            }
        }
        let after = class.iter().copied().max().unwrap_or(0);
        self.value = self.value + after - before;
    }
}

/// The team values of `position` for both goals, and per first move of the player to move.
pub fn team(position: &Position, config: &TeamConfig) -> Result<Team, TeamError> {
    let start = Instant::now();
    let variant = &position.rules.variant;
    if variant.plays_hidden() {
        return Err(TeamError::PlaysHidden(variant.name.clone()));
    }
    let worlds = Worlds::of(position, config.max_worlds, config.merge_dead)?;
    let root: Vec<Entry> = (0..worlds.len() as u32)
        .map(|w| (w, worlds.states[w as usize]))
        .collect();
    let first_state = &worlds.states[0];
    let target = first_state.max_reachable_score(&position.rules);
    let mut nodes = 0;
    let mut values = Vec::new();
    for (k, goal) in [TeamGoal::Win, TeamGoal::Score].into_iter().enumerate() {
        // Each goal gets half the time; the win searched first.
        let limit = config.time_limit.map(|t| t * (k as u32 + 1) / 2);
        let mut search = Search::new(&worlds, goal, target, limit, &config.search, start);
        values.push(goal_values(&mut search, &root, goal));
        nodes += search.nodes;
    }
    let score = values.pop().expect("two goals");
    let win = values.pop().expect("two goals");
    Ok(Team {
        total: worlds.total_weight(),
        arrangements: worlds.arrangements,
        merged_worlds: worlds.merged.then_some(worlds.len() as u64),
        target,
        win,
        score,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The values for `goal` that `search` finds from the worlds of `root` ([`GoalValues`]): the
/// team's, with every card known, by the per-view choices (as bounds and played out), and
/// after each first move.
fn goal_values(search: &mut Search, root: &[Entry], goal: TeamGoal) -> GoalValues {
    let merged = search.worlds.merged;
    let cheat_total: u64 = root.iter().map(|(w, s)| search.cheat(*w, s)).sum();
    let (moves, bounds, per_view) = first_moves(search, root);
    let per_view_played = search.played_total(&mut Vec::new(), root);
    let team = search.total(&mut Vec::new(), root, None);
    let moves = moves
        .into_iter()
        .zip(bounds)
        .map(|(m, hi)| {
            let mut value = if search.out_of_time() {
                TotalBounds { lo: 0, hi }
            } else {
                search.total(&mut Vec::new(), root, Some(m))
            };
            if merged {
                value.hi = hi.max(value.lo);
            }
            (m, value)
        })
        .collect();
    let mut values = GoalValues {
        goal,
        team,
        cheat: TotalBounds {
            lo: cheat_total,
            hi: cheat_total,
        },
        per_view: TotalBounds {
            lo: per_view,
            hi: per_view,
        },
        per_view_played,
        moves,
    };
    if merged {
        values.widen_to_real_game();
    }
    values
}

/// The first moves of the player to move in the worlds of `root`, each with a bound on its
/// total for moves the time leaves unsearched (every card known after it), and the per-view
/// total (each class of the player to move taking its best move by the every-card-known
/// values, [`GoalValues::per_view`]).
fn first_moves(search: &mut Search, root: &[Entry]) -> (Vec<FirstMove>, Vec<u64>, u64) {
    let classes = search.classes(root, None);
    let per_view: u64 = classes.iter().map(|c| c.options[0].1).sum();
    let mut moves: Vec<FirstMove> = classes
        .iter()
        .flat_map(|c| c.options.iter().map(|o| FirstMove::of(o.0)))
        .collect();
    moves.sort();
    moves.dedup();
    let bounds = if search.worlds.merged {
        // The merged classes are coarser than what the players see, so the per-class bounds
        // bound only the merged game; each world's own best bounds the real one.
        drop(classes);
        moves
            .iter()
            .map(|&m| search.world_move_bound(root, m))
            .collect()
    } else {
        // Each first move's every-card-known bound: in each class, the best option it admits.
        moves
            .iter()
            .map(|&m| {
                classes
                    .iter()
                    .map(|c| {
                        let admitted = c
                            .options
                            .iter()
                            .filter(|o| m.admits(o.0))
                            .map(|o| o.1)
                            .max();
                        admitted.unwrap_or(c.options[0].1)
                    })
                    .sum()
            })
            .collect()
    };
    (moves, bounds, per_view)
}
