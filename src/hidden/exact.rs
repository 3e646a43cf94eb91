//! Exact values when only the draw pile is hidden: expectimax over every order of the hidden
//! pile cards.
//!
//! Every hand is known; each hidden pile slot holds one of the unseen cards, all orders of them
//! equally likely, and a card is revealed when it is drawn, so players choose knowing every
//! draw so far but none to come. For every legal action of the player to move this gives the
//! exact probability of reaching the perfect score under the play that maximises it, and the
//! exact expected final score under the play that maximises that (the two best plays may
//! differ; each value is exact for its own goal).
//!
//! Values are kept as whole numbers, never fractions. With `u` hidden cards left in the pile,
//! kinds occurring `c_1, ..., c_m` times, there are `N = u! / (c_1! ... c_m!)` equally likely
//! orders. A position's value is stored as counts over those orders: `wins` (orders won by the
//! best play, a probability times `N`) and `score_sum` (the expected score times `N`). Drawing a
//! card of kind `k` happens with probability `c_k / u` and leaves `N c_k / u` orders, so the
//! parent's counts are the plain sums of its children's counts, and a choice between actions
//! (same pile, same `N`) takes the larger count. Exact division happens once, when printing.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use dashmap::DashMap;
use rayon::prelude::*;

use super::sample::action_name;
use crate::error::Error;
use crate::game::card::{Card, KindSet, KINDS};
use crate::position::Position;
use crate::search::bounds::{upper_bound, BoundSet};
use crate::search::key::{card_code, key, Key, TRASH};
use crate::search::order::misplay_dominated;
use crate::state::{Action, Deal, State};

/// A position's value as counts over the orders of the hidden cards left to draw: the orders
/// the play that maximises them wins, and the sum, over all the orders, of the final score of
/// the play that maximises that sum.
type OrderCounts = (u128, u128);

/// Bytes one table entry may take (key words, the two counts, the map's spare room).
const BYTES_PER_ENTRY: usize = 128;

/// The default largest number of hidden-pile orders `--exact` takes on.
///
/// Measured on real 2-player endgames (positions/hidden/, 2 cores): 8 hidden cards (20,160
/// orders) take 0.35 s, 12 (59,875,200 orders) about 20 s, 13 (778,377,600 orders) more than
/// 150 s. The work grows with the orders, so the default stops just above 12 hidden cards.
pub const DEFAULT_MAX_ORDERS: u128 = 100_000_000;

/// Limits of an exact analysis.
#[derive(Clone, Debug)]
pub struct ExactConfig {
    /// Root actions analysed at once.
    pub threads: usize,
    /// Memory cap of the table, in MiB; once full, new positions are no longer stored (the
    /// answer stays exact, it only takes longer).
    pub tt_mb: usize,
    /// Stop with [`ExactError::Stopped`] after this long.
    pub time_limit: Option<Duration>,
    /// Refuse positions whose hidden pile has more orders than this.
    pub max_orders: u128,
}

impl Default for ExactConfig {
    fn default() -> Self {
        ExactConfig {
            threads: 1,
            tt_mb: 1024,
            time_limit: None,
            max_orders: DEFAULT_MAX_ORDERS,
        }
    }
}

/// A fraction in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fraction {
    pub num: u128,
    pub den: u128,
}

impl Fraction {
    pub fn new(num: u128, den: u128) -> Fraction {
        let g = gcd(num, den).max(1);
        Fraction {
            num: num / g,
            den: den / g,
        }
    }

    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// One root action, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactMove {
    pub action: Action,
    /// "play r3 (slot 1)", "discard y1 (slot 4)", "clue Bob red", "deck play".
    pub name: String,
    /// Hand slot as hanab.live numbers it (1 = newest), for plays and discards.
    pub slot: Option<u8>,
    /// Probability of reaching the perfect score after this action, with the best play after.
    pub win_probability: Fraction,
    /// Expected final score after this action, with the play that maximises it.
    pub expected_score: Fraction,
}

/// The exact analysis of a position whose draw pile is (partly) hidden.
#[derive(Clone, Debug, PartialEq)]
pub struct Exact {
    /// Hidden cards in the pile.
    pub hidden: usize,
    /// Distinct orders of them (copies of a card not told apart), all equally likely.
    pub orders: u128,
    pub perfect_score: u8,
    /// Sorted by win probability, then expected score (highest first), then root order.
    pub moves: Vec<ExactMove>,
    /// Positions visited.
    pub nodes: u64,
    pub seconds: f64,
    pub table_entries: usize,
}

/// Why no exact answer came.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ExactError {
    #[error("{0}")]
    Position(#[from] Error),
    #[error("--exact needs every card in the hands known, but {0} hand card{s} hidden (`?`); use --samples N, which fills hidden hand cards at random", s = if *.0 == 1 { " is" } else { "s are" })]
    HiddenHand(usize),
    #[error("the {hidden} hidden pile cards have {orders} equally likely orders, more than the {limit} --exact takes on (the work grows with the orders: 12 hidden cards, 6 x 10^7 orders, take about 20 s); use --samples N for an estimate, or raise --max-orders")]
    TooLarge {
        hidden: usize,
        orders: String,
        limit: u128,
    },
    #[error("stopped at the time limit after {seconds:.1} s ({nodes} positions) without an exact answer; raise --time-limit or use --samples N")]
    Stopped { seconds: f64, nodes: u64 },
}

/// The number of distinct orders of a multiset with these multiplicities, or `None` when it
/// does not fit in a `u128`.
pub fn orders(counts: &[u8]) -> Option<u128> {
    // Multiply in the binomials C(n, c) one kind at a time; every partial result is whole.
    let mut total: u128 = 1;
    let mut n: u128 = 0;
    for &c in counts {
        for i in 1..=c as u128 {
            n += 1;
            // The new total, total * n / i, is the multinomial of the cards so far, a whole
            // number; with g = gcd(total, i), i / g is coprime to total / g, so it divides n,
            // and dividing first keeps the product from overflowing needlessly.
            let g = gcd(total, i);
            total = (total / g).checked_mul(n / (i / g))?;
        }
    }
    Some(total)
}

/// Kinds of the unseen cards: how many of each are still hidden in the pile.
type Counts = [u8; KINDS];

/// The largest number of hidden cards whose orders (`u!`, times the top score) fit a `u128`.
const MAX_HIDDEN: usize = 33;

/// The hidden cards left as a key: two bits per kind that can still be played (or that no clue
/// touches), and the number of the rest (which can never be played and are all clue targets
/// alike, so which of them is where does not matter).
fn pack(rules: &crate::game::rules::Rules, state: &State, counts: &Counts) -> u128 {
    let mut packed = 0u128;
    let mut trash = 0u128;
    for (k, &c) in counts.iter().enumerate() {
        if c == 0 {
            continue;
        }
        if card_code(rules, state, Card::from_kind(k)) == TRASH {
            trash += c as u128;
        } else {
            packed |= (c as u128) << (2 * k);
        }
    }
    packed | (trash << 60)
}

/// What the search shares between threads.
struct Shared {
    table: DashMap<(Key, u128), OrderCounts, ahash::RandomState>,
    len: AtomicUsize,
    cap: usize,
    nodes: AtomicU64,
    stop: AtomicBool,
    deadline: Option<Instant>,
    perfect: u8,
    /// For each pile index: whether that card is hidden.
    hidden_at: Vec<bool>,
    /// `factorial[u]`: the orders of `u` hidden cards told apart copy by copy.
    factorial: Vec<u128>,
}

/// The bounds that hold whatever the order of the pile: copies left and turns left (not the
/// draw timing and hand capacity, which need the order).
const ORDER_FREE: BoundSet = BoundSet {
    copies: true,
    pace: true,
    timing: false,
    capacity: false,
    schedule: false,
    seats: false,
};

/// One thread's search: its own copy of the deal, whose hidden pile slots it overwrites with
/// the card being drawn before each draw.
struct Walker<'a> {
    shared: &'a Shared,
    deal: Deal,
    nodes: u64,
}

struct Stopped;

/// A move at a decision node: the action, what makes it equivalent to another, and a bound
/// on the score after it.
type Move = (Action, (u8, u8), u8);

impl Walker<'_> {
    /// `(wins, score_sum)` over the `u!` orders of the `u` hidden cards left (`counts`, copies
    /// told apart): the best play's number of won orders and its total score over them.
    fn value(
        &mut self,
        state: &State,
        counts: &mut Counts,
        u: usize,
    ) -> Result<OrderCounts, Stopped> {
        let n = self.shared.factorial[u];
        let rules = &self.deal.rules;
        if state.is_over() {
            let score = state.score(rules);
            return Ok((
                if score == self.shared.perfect { n } else { 0 },
                n * score as u128,
            ));
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            self.shared.nodes.fetch_add(4096, Ordering::Relaxed);
            if self.shared.stop.load(Ordering::Relaxed)
                || self.shared.deadline.is_some_and(|d| Instant::now() >= d)
            {
                self.shared.stop.store(true, Ordering::Relaxed);
                return Err(Stopped);
            }
        }
        let k = (key(&self.deal, state), pack(rules, state, counts));
        if let Some(v) = self.shared.table.get(&k) {
            return Ok(*v);
        }
        let bound = upper_bound(&self.deal, state, ORDER_FREE);
        // Two plays (or discards) of cards with the same code lead to the same future.
        let mut moves: smallvec::SmallVec<[Move; 24]> = smallvec::SmallVec::new();
        let hand = state.hand(state.turn as usize);
        let no_misplays = misplay_dominated(&self.deal, state);
        for action in state.legal_actions(&self.deal) {
            if let Action::Play(i) = action {
                // Discarding the card instead is never worse, for every order of the pile.
                if no_misplays && !state.is_playable(rules, hand[i as usize]) {
                    continue;
                }
            }
            let tag = match action {
                Action::Play(i) => (0, card_code(rules, state, hand[i as usize])),
                Action::Discard(i) => (1, card_code(rules, state, hand[i as usize])),
                Action::Clue => (2, 0),
                Action::DeckPlay => (3, 0),
                Action::ColourClue => (4, 0),
                Action::RankClue => (5, 0),
            };
            if moves.iter().any(|m| m.1 == tag) {
                continue;
            }
            // The bound after the move does not depend on the card drawn (a drawn card moves
            // from the pile to a hand, and both count as left), except for a blind deck play.
            let after = if action == Action::DeckPlay {
                bound
            } else {
                let child = state.apply_unchecked(&self.deal, action);
                if child.is_over() {
                    child.score(rules)
                } else {
                    upper_bound(&self.deal, &child, ORDER_FREE)
                }
            };
            moves.push((action, tag, after));
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.2));
        let mut best = (0u128, 0u128);
        for (action, _, after) in moves {
            // Skip a move that cannot beat the best score so far. It cannot beat the best
            // win count either: a move that can still win has the perfect bound, and the best
            // score reaches the perfect bound only when every order is won.
            if n * after as u128 <= best.1 {
                continue;
            }
            let v = self.after(state, action, counts, u)?;
            best = (best.0.max(v.0), best.1.max(v.1));
            if best.1 == n * bound as u128 {
                // Every order reaches the bound (and so, if it is perfect, is won).
                break;
            }
        }
        if self.shared.len.load(Ordering::Relaxed) < self.shared.cap
            && self.shared.table.insert(k, best).is_none()
        {
            self.shared.len.fetch_add(1, Ordering::Relaxed);
        }
        Ok(best)
    }

    /// The counts after `action`: a sum over the card drawn when it draws a hidden card.
    fn after(
        &mut self,
        state: &State,
        action: Action,
        counts: &mut Counts,
        u: usize,
    ) -> Result<OrderCounts, Stopped> {
        let at = state.drawn as usize;
        let draws = !action.is_clue() && at < self.deal.pile.len();
        if !(draws && self.shared.hidden_at[at]) {
            let child = state.apply_unchecked(&self.deal, action);
            return self.value(&child, counts, u);
        }
        // Each copy of each hidden card is drawn in (u - 1)! of the u! orders; cards that can
        // never be played (and that a clue touches, see `card_code`) are interchangeable, so
        // one of them stands for all.
        let rules = &self.deal.rules;
        let is_trash: KindSet = (0..counts.len())
            .filter(|&k| counts[k] > 0 && card_code(rules, state, Card::from_kind(k)) == TRASH)
            .fold(0, |m, k| m | 1 << k);
        let mut trash: Option<usize> = None;
        let mut trash_copies = 0u8;
        let mut total = (0u128, 0u128);
        for kind in 0..counts.len() {
            let c = counts[kind];
            if c == 0 {
                continue;
            }
            if is_trash & (1 << kind) != 0 {
                trash.get_or_insert(kind);
                trash_copies += c;
                continue;
            }
            let v = self.draw(state, action, counts, u, kind)?;
            total = (total.0 + c as u128 * v.0, total.1 + c as u128 * v.1);
        }
        if let Some(kind) = trash {
            let v = self.draw(state, action, counts, u, kind)?;
            let c = trash_copies as u128;
            total = (total.0 + c * v.0, total.1 + c * v.1);
        }
        Ok(total)
    }

    /// The value after `action` when the hidden card drawn is of `kind`.
    fn draw(
        &mut self,
        state: &State,
        action: Action,
        counts: &mut Counts,
        u: usize,
        kind: usize,
    ) -> Result<OrderCounts, Stopped> {
        let at = state.drawn as usize;
        self.deal.pile[at] = Card::from_kind(kind);
        let child = state.apply_unchecked(&self.deal, action);
        counts[kind] -= 1;
        let v = self.value(&child, counts, u - 1);
        counts[kind] += 1;
        v
    }
}

/// The exact value of every legal action of the player to move in `position`, whose hands
/// must be fully known; hidden pile cards are averaged over every order.
pub fn exact(position: &Position, config: &ExactConfig) -> Result<Exact, ExactError> {
    let start = Instant::now();
    let hidden = Hidden::of(position, config)?;
    // Any filling gives the deal's shape; the hidden slots are overwritten before each draw.
    let (deal, state) = position.fill(&hidden.cards)?;
    let shared = Shared::new(position, config, start, hidden.cards.len());
    let actions = state.legal_actions(&deal).into_vec();
    let values = value_actions(&shared, &deal, &state, &actions, &hidden, config.threads)?;
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let seconds = start.elapsed().as_secs_f64();
    let values: Vec<OrderCounts> = values
        .into_iter()
        .collect::<Result<_, _>>()
        .map_err(|Stopped| ExactError::Stopped { seconds, nodes })?;
    let orders_told_apart = shared.factorial[hidden.cards.len()];
    Ok(Exact {
        hidden: hidden.cards.len(),
        orders: hidden.orders,
        perfect_score: shared.perfect,
        moves: ranked_moves(position, &actions, values, orders_told_apart),
        nodes,
        seconds,
        table_entries: shared.len.load(Ordering::Relaxed),
    })
}

/// The unseen cards an exact analysis averages over, once it has checked it can.
struct Hidden {
    /// The cards, in no particular order.
    cards: Vec<Card>,
    /// How many of each kind.
    counts: Counts,
    /// The distinct orders of the cards (copies of a kind not told apart).
    orders: u128,
}

impl Hidden {
    /// The unseen cards of `position`, which must have no hidden hand card, and at most
    /// [`MAX_HIDDEN`] of them with at most `config.max_orders` orders.
    fn of(position: &Position, config: &ExactConfig) -> Result<Hidden, ExactError> {
        let hidden_hand = position
            .hands
            .iter()
            .flatten()
            .filter(|c| c.is_none())
            .count();
        if hidden_hand > 0 {
            return Err(ExactError::HiddenHand(hidden_hand));
        }
        let cards = position.unseen();
        let mut counts: Counts = [0; KINDS];
        for c in &cards {
            counts[c.kind()] += 1;
        }
        match orders(&counts) {
            Some(orders) if cards.len() <= MAX_HIDDEN && orders <= config.max_orders => {
                Ok(Hidden {
                    cards,
                    counts,
                    orders,
                })
            }
            orders => Err(ExactError::TooLarge {
                hidden: cards.len(),
                orders: orders.map_or_else(|| "more than 10^38".to_string(), |t| t.to_string()),
                limit: config.max_orders,
            }),
        }
    }
}

impl Shared {
    /// An empty table for `position` under `config`, timed from `start`, with factorials up
    /// to `hidden` cards.
    fn new(position: &Position, config: &ExactConfig, start: Instant, hidden: usize) -> Shared {
        let factorial: Vec<u128> = (0..=hidden as u128)
            .scan(1u128, |f, i| {
                *f *= i.max(1);
                Some(*f)
            })
            .collect();
        Shared {
            table: DashMap::with_hasher(ahash::RandomState::new()),
            len: AtomicUsize::new(0),
            cap: config.tt_mb.saturating_mul(1 << 20) / BYTES_PER_ENTRY,
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            deadline: crate::search::deadline_after(start, config.time_limit),
            perfect: position.rules.perfect_score(),
            hidden_at: position.pile.iter().map(|c| c.is_none()).collect(),
            factorial,
        }
    }
}

/// The counts (wins, score sum) of each of `actions` from `state`, over every order of the
/// hidden cards, the actions shared among `threads` worker threads; [`Stopped`] for those
/// the time limit stopped.
fn value_actions(
    shared: &Shared,
    deal: &Deal,
    state: &State,
    actions: &[Action],
    hidden: &Hidden,
    threads: usize,
) -> Result<Vec<Result<OrderCounts, Stopped>>, ExactError> {
    let run = || {
        actions
            .par_iter()
            .map(|&action| {
                let mut w = Walker {
                    shared,
                    deal: deal.clone(),
                    nodes: 0,
                };
                let mut counts = hidden.counts;
                let v = w.after(state, action, &mut counts, hidden.cards.len());
                shared.nodes.fetch_add(w.nodes % 4096, Ordering::Relaxed);
                v
            })
            .collect::<Vec<_>>()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| Error::Option(format!("cannot start worker threads: {e}")))?;
    Ok(pool.install(run))
}

/// `actions` with their values (counts over `orders` orders: the `u!` orders of the hidden
/// cards, copies told apart), the best first: by the chance of the perfect score, then by the
/// expected score.
fn ranked_moves(
    position: &Position,
    actions: &[Action],
    values: Vec<OrderCounts>,
    orders: u128,
) -> Vec<ExactMove> {
    let mut moves: Vec<ExactMove> = actions
        .iter()
        .zip(values)
        .map(|(&action, (wins, sum))| {
            let (name, slot) = action_name(position, action);
            ExactMove {
                action,
                name,
                slot,
                win_probability: Fraction::new(wins, orders),
                expected_score: Fraction::new(sum, orders),
            }
        })
        .collect();
    // Compare fractions exactly, a/b > c/d when a d > c b, in floating point only if the
    // products overflow.
    moves.sort_by(|a, b| {
        let cmp =
            |x: Fraction, y: Fraction| match (y.num.checked_mul(x.den), x.num.checked_mul(y.den)) {
                (Some(l), Some(r)) => l.cmp(&r),
                _ => y.to_f64().total_cmp(&x.to_f64()),
            };
        cmp(a.win_probability, b.win_probability).then(cmp(a.expected_score, b.expected_score))
    });
    moves
}
