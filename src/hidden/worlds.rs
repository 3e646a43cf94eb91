//! The worlds of a team position: the ways the unseen cards may lie in the hidden hand slots and
//! the pile, given what each holder knows of its own cards.
//!
//! Late in a real game most unseen cards are *dead* (already played, or a card below them is
//! gone), and a 4-player final round can have 10^15 ways to place them. Those cards cannot
//! change what the fireworks reach: a dead card never plays, so whether it is in a hand, the
//! pile or the discards changes no other card's fate, and a play of it is a misplay whichever
//! dead card it is. [`Worlds::of`] therefore falls back, when the worlds are too many, to
//! *merged* worlds: one per placement of the cards still alive, dead cards standing as one
//! kind, each weighted by the number of worlds it stands for. A team that tells dead cards
//! apart only by what is public plays the merged game (see [`Worlds::merged`]).

use std::collections::HashMap;

use crate::game::card::{Card, KindSet, KINDS};
use crate::game::rules::Rules;
use crate::position::Position;
use crate::state::{Deal, State};

/// When dead cards are merged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MergeDead {
    /// Only when the worlds told apart are more than the cap.
    #[default]
    WhenTooMany,
    /// Always (to compare the merged game with the exact one).
    Always,
}

/// Why the worlds of a position cannot be listed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorldsError {
    #[error("{0}")]
    Position(String),
    #[error("more than {max} worlds (ways the hidden cards may lie) fit the position{}, more than --max-worlds {max}: exact team play is for endgames with few cards unknown to their holders (try a later turn, or raise --max-worlds if memory allows)", if *.merged { " even with its dead cards merged" } else { "" })]
    TooMany { max: u64, merged: bool },
    #[error("no arrangement of the unseen cards fits what the players know of their cards")]
    None,
    #[error("dead cards cannot be merged in {0}: a dead card's kind decides which clues can be given there")]
    CannotMerge(String),
}

/// The worlds of a position: the deals (one per distinct pile), each world's state and weight.
pub struct Worlds {
    pub deals: Vec<Deal>,
    pub deal_of: Vec<u32>,
    pub states: Vec<State>,
    /// How many arrangements of card kinds each world stands for, divided by their greatest
    /// common divisor: all 1 unless dead cards are merged.
    pub weights: Vec<u64>,
    /// Arrangements of card kinds that fit the position, all equally likely.
    pub arrangements: u128,
    /// Whether dead cards are merged: each world is then one placement of the live cards, its
    /// state one arrangement of the dead cards that fits, and what players see of a dead card
    /// is only that it is dead.
    pub merged: bool,
}

/// The symbol of a dead card in a merged placement.
const DEAD: usize = KINDS;

impl Worlds {
    /// The worlds of `position`, each distinct arrangement of card kinds once (copies of a kind
    /// are interchangeable, and every arrangement stands for the same number of arrangements of
    /// physical cards); merged as `merge` says when they are more than `max`.
    pub fn of(position: &Position, max: u64, merge: MergeDead) -> Result<Worlds, WorldsError> {
        if merge == MergeDead::Always {
            return Worlds::merged(position, max);
        }
        match Worlds::apart(position, max) {
            Err(WorldsError::TooMany { .. }) if can_merge(&position.rules) => {
                Worlds::merged(position, max)
            }
            other => other,
        }
    }

    /// Every arrangement of the unseen kinds that fits the hints, each a world of weight 1.
    pub fn apart(position: &Position, max: u64) -> Result<Worlds, WorldsError> {
        let mut counts = vec![0u8; KINDS + 1];
        for c in position.unseen() {
            counts[c.kind()] += 1;
        }
        let masks = slot_masks(position);
        let fills = placements(&masks, &mut counts, max)
            .ok_or(WorldsError::TooMany { max, merged: false })?;
        let cards = fills.into_iter().map(|fill| {
            fill.into_iter()
                .map(|k| Card::from_kind(k as usize))
                .collect()
        });
        Worlds::build(position, cards.map(|c| (c, 1)).collect(), false)
    }

    /// The merged worlds: one per placement of the live unseen cards that fits the hints, the
    /// other hidden slots holding dead cards, weighted by the arrangements of the dead cards
    /// that fit.
    pub fn merged(position: &Position, max: u64) -> Result<Worlds, WorldsError> {
        let rules = &position.rules;
        if !can_merge(rules) {
            return Err(WorldsError::CannotMerge(rules.variant.name.clone()));
        }
        let unseen = position.unseen();
        let (_, public) = position
            .fill(&unseen)
            .map_err(|e| WorldsError::Position(e.to_string()))?;
        let mut counts = vec![0u8; KINDS + 1];
        let mut dead = [0u8; KINDS];
        let mut dead_set: KindSet = 0;
        for &c in &unseen {
            if public.is_trash(rules, c) {
                dead[c.kind()] += 1;
                dead_set |= c.kind_bit();
                counts[DEAD] += 1;
            } else {
                counts[c.kind()] += 1;
            }
        }
        let hints = slot_masks(position);
        let masks: Vec<u64> = hints
            .iter()
            .map(|&m| {
                let m = m & ((1 << KINDS) - 1);
                (m & !dead_set) | if m & dead_set != 0 { 1 << DEAD } else { 0 }
            })
            .collect();
        let fills = placements(&masks, &mut counts, max)
            .ok_or(WorldsError::TooMany { max, merged: true })?;
        // Placements with the same dead slots share their count.
        let mut by_dead_slots: HashMap<Vec<usize>, Option<(u128, Vec<Card>)>> = HashMap::new();
        let mut weighted = Vec::with_capacity(fills.len());
        for fill in fills {
            let slots: Vec<usize> = (0..fill.len())
                .filter(|&i| fill[i] as usize == DEAD)
                .collect();
            let dead_fill = by_dead_slots
                .entry(slots.clone())
                .or_insert_with(|| {
                    let slot_hints: Vec<KindSet> =
                        slots.iter().map(|&i| hints[i] & dead_set).collect();
                    dead_arrangements(&slot_hints, &dead)
                })
                .clone();
            let Some((count, dead_cards)) = dead_fill else {
                continue;
            };
            let mut dead_cards = dead_cards.into_iter();
            let cards: Vec<Card> = fill
                .iter()
                .map(|&k| match k as usize {
                    DEAD => dead_cards.next().expect("one per dead slot"),
                    k => Card::from_kind(k),
                })
                .collect();
            weighted.push((cards, count));
        }
        Worlds::build(position, weighted, true)
    }

    /// The worlds of these fills of the hidden slots, each with its count of arrangements.
    fn build(
        position: &Position,
        fills: Vec<(Vec<Card>, u128)>,
        merged: bool,
    ) -> Result<Worlds, WorldsError> {
        if fills.is_empty() {
            return Err(WorldsError::None);
        }
        let arrangements = fills.iter().fold(0u128, |a, f| a.saturating_add(f.1));
        let divisor = fills.iter().fold(0, |g, f| gcd(g, f.1));
        // Totals of scores over the weights must fit the search's counters (a count that
        // saturated is too many in any case).
        let most = u128::from(position.rules.perfect_score().max(1));
        let fits = arrangements < u128::MAX
            && (arrangements / divisor)
                .checked_mul(most)
                .is_some_and(|t| t <= u64::MAX as u128);
        if !fits {
            return Err(WorldsError::TooMany {
                max: u64::MAX / most as u64,
                merged,
            });
        }
        let mut worlds = Worlds {
            deals: Vec::new(),
            deal_of: Vec::with_capacity(fills.len()),
            states: Vec::with_capacity(fills.len()),
            weights: Vec::with_capacity(fills.len()),
            arrangements,
            merged,
        };
        let mut pile_index: HashMap<Vec<Card>, u32> = HashMap::new();
        for (fill, count) in fills {
            let (deal, state) = position
                .fill(&fill)
                .map_err(|e| WorldsError::Position(e.to_string()))?;
            let index = *pile_index.entry(deal.pile.clone()).or_insert_with(|| {
                worlds.deals.push(deal);
                worlds.deals.len() as u32 - 1
            });
            worlds.deal_of.push(index);
            worlds.states.push(state);
            worlds.weights.push((count / divisor) as u64);
        }
        Ok(worlds)
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The sum of the weights: what the totals of the search are out of.
    pub fn total_weight(&self) -> u64 {
        self.weights.iter().sum()
    }
}

/// Whether merging dead cards keeps every world of a merged one alike: a dead card's kind must
/// not decide whether a clue can be given (every card takes some clue, or a clue needs to touch
/// nothing), nor, in Alternating Clues, which type of clue.
pub fn can_merge(rules: &Rules) -> bool {
    let v = &rules.variant;
    !rules.tokens().alternating && (v.every_card_clueable() || rules.clue_may_touch_nothing())
}

/// Each hidden slot's hint, in [`Position::fill`]'s order: hand cards, then the pile (any kind).
fn slot_masks(position: &Position) -> Vec<KindSet> {
    let mut masks = position.hidden_hand_hints();
    masks.extend(
        position
            .pile
            .iter()
            .filter(|c| c.is_none())
            .map(|_| u64::MAX),
    );
    masks
}

/// Every sequence of symbols (kinds, or [`DEAD`]) for the slots `masks` using up `counts`,
/// or `None` when there are more than `max`.
fn placements(masks: &[u64], counts: &mut [u8], max: u64) -> Option<Vec<Vec<u8>>> {
    fn go(
        masks: &[u64],
        counts: &mut [u8],
        current: &mut Vec<u8>,
        out: &mut Vec<Vec<u8>>,
        max: u64,
    ) -> bool {
        let slot = current.len();
        if slot == masks.len() {
            if out.len() as u64 >= max {
                return false;
            }
            out.push(current.clone());
            return true;
        }
        for k in 0..counts.len() {
            if counts[k] == 0 || masks[slot] & (1 << k) == 0 {
                continue;
            }
            counts[k] -= 1;
            current.push(k as u8);
            let fits = go(masks, counts, current, out, max);
            current.pop();
            counts[k] += 1;
            if !fits {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    go(
        masks,
        counts,
        &mut Vec::with_capacity(masks.len()),
        &mut out,
        max,
    )
    .then_some(out)
}

/// The number of ways to put the dead cards `dead` (copies per kind) in slots with these hints
/// (kinds of distinct arrangements, as [`Worlds::apart`] counts them), and one such way; `None`
/// when there is none. Slots that allow every dead kind are filled last, all at once: any
/// arrangement of what is left fits them.
fn dead_arrangements(hints: &[KindSet], dead: &[u8; KINDS]) -> Option<(u128, Vec<Card>)> {
    let all: KindSet = (0..KINDS).filter(|&k| dead[k] > 0).map(|k| 1 << k).sum();
    let narrow: Vec<usize> = (0..hints.len())
        .filter(|&i| hints[i] & all != all)
        .collect();
    let free = hints.len() - narrow.len();
    let mut memo: HashMap<(usize, [u8; KINDS]), u128> = HashMap::new();
    let mut left = *dead;
    let count = narrow_ways(hints, &narrow, 0, &mut left, free, &mut memo);
    if count == 0 {
        return None;
    }
    // One arrangement: the first narrow choice that leaves a way, then the rest in kind order.
    let mut cards = vec![Card::NONE; hints.len()];
    let mut left = *dead;
    for (j, &slot) in narrow.iter().enumerate() {
        let k = (0..KINDS)
            .find(|&k| {
                if left[k] == 0 || hints[slot] & 1 << k == 0 {
                    return false;
                }
                left[k] -= 1;
                let ways = narrow_ways(hints, &narrow, j + 1, &mut left, free, &mut memo);
                left[k] += 1;
                ways > 0
            })
            .expect("a way is left");
        left[k] -= 1;
        cards[slot] = Card::from_kind(k);
    }
    let mut rest = (0..KINDS).flat_map(|k| std::iter::repeat_n(k, left[k] as usize));
    for c in cards.iter_mut().filter(|c| **c == Card::NONE) {
        *c = Card::from_kind(rest.next().expect("counted"));
    }
    Some((count, cards))
}

/// The ways to fill the narrow slots `narrow[j..]` from `left`, times the arrangements of what
/// remains in the `free` slots.
fn narrow_ways(
    hints: &[KindSet],
    narrow: &[usize],
    j: usize,
    left: &mut [u8; KINDS],
    free: usize,
    memo: &mut HashMap<(usize, [u8; KINDS]), u128>,
) -> u128 {
    if j == narrow.len() {
        return multinomial(left, free);
    }
    if let Some(&v) = memo.get(&(j, *left)) {
        return v;
    }
    let mut total: u128 = 0;
    for k in 0..KINDS {
        if left[k] == 0 || hints[narrow[j]] & 1 << k == 0 {
            continue;
        }
        left[k] -= 1;
        total = total.saturating_add(narrow_ways(hints, narrow, j + 1, left, free, memo));
        left[k] += 1;
    }
    memo.insert((j, *left), total);
    total
}

/// The distinct orders of the multiset `counts` (which holds `n` cards), saturating.
fn multinomial(counts: &[u8; KINDS], n: usize) -> u128 {
    debug_assert_eq!(counts.iter().map(|&c| c as usize).sum::<usize>(), n);
    let mut result: u128 = 1;
    let mut placed: u128 = 0;
    for &c in counts {
        for i in 1..=c as u128 {
            placed += 1;
            // result * placed / i stays whole: it is a product of binomial coefficients.
            result = result.saturating_mul(placed) / i;
        }
    }
    result
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
