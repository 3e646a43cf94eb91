//! Sound upper bounds on the score a position can still reach, cheap enough to test at every
//! node before any move is generated.

use super::goal::Goal;
use crate::state::{Deal, State, NOT_FINAL};

/// Which bounds are on. All are on in normal use; tests turn each off to show it changes
/// speed, never answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundSet {
    /// Cards still in existence: a firework stops below the first rank with no copy left.
    pub copies: bool,
    /// Turns left: one play per card action before the pile runs out, one per final turn.
    pub pace: bool,
    /// When each needed card can first be drawn: a firework's cards must be played in order,
    /// each after it is drawn, all before the game ends. The pile's last card can only be
    /// played on the game's last turn (its drawer's final turn), unless deck plays are on.
    pub timing: bool,
    /// Hand capacity (with `timing`): once the last copy of a card to be played is drawn,
    /// some copy must stay in a hand until it can be played. Every card action before the pile
    /// runs out takes a card from the hands, which hold a fixed number of cards, so at each one
    /// at least one card in the hands must be playable or free to go. Where the cards that
    /// timing allows would overfill the hands by `e`, at least `e` of them are never played:
    /// giving up a card removes at most one card from every action's count.
    pub capacity: bool,
    /// One play per turn (with `timing`): the plays that timing allows no sooner than card
    /// action `t` must all fit in the actions from `t` to the end, for every `t`.
    pub schedule: bool,
}

impl BoundSet {
    pub const ALL: BoundSet = BoundSet {
        copies: true,
        pace: true,
        timing: true,
        capacity: true,
        schedule: true,
    };
    pub const NONE: BoundSet = BoundSet {
        copies: false,
        pace: false,
        timing: false,
        capacity: false,
        schedule: false,
    };
}

/// An upper bound on the final score reachable from `state` (which must not be over).
pub fn upper_bound(deal: &Deal, state: &State, set: BoundSet) -> u8 {
    goal_bound(deal, state, set, &Goal::full(&deal.rules))
}

/// An upper bound on the progress toward `goal` (see [`Goal::score`]) reachable from `state`
/// (which must not be over). Only the cards the goal asks for count: the others need not be
/// played, so they take no place in the timing, the hands or the schedule.
pub fn goal_bound(deal: &Deal, state: &State, set: BoundSet, goal: &Goal) -> u8 {
    let rules = &deal.rules;
    let v = &rules.variant;
    let perfect = goal.total();
    let nsuits = v.suits.len();
    let current: u8 = goal.score(rules, state);
    let pile_left = deal.pile_left(state);
    let order = v.play_order();
    // Card actions (plays or discards) still possible; each can add at most one to the score.
    let slots: u8 = card_actions_left(deal, state);
    let mut in_hand: u64 = 0;
    let mut held = 0u8;
    if set.timing {
        for p in 0..rules.players as usize {
            for &c in state.hand(p) {
                in_hand |= 1 << c.kind();
            }
            held += state.hand(p).len() as u8;
        }
    }
    // The capacity rule's tally: `keep[a]` counts the needed cards that must be in a hand,
    // and cannot be played, at card action `a` (1 = the next). Only before the last draw.
    let capacity = set.capacity && set.timing && !rules.endless && state.final_turns == NOT_FINAL;
    let mut keep = [0i8; 72];
    // The schedule rule's tally: `first[a]` counts the cards first playable at action `a`.
    let schedule = set.schedule && set.timing && !rules.endless;
    let mut first = [0u8; 72];
    let mut total = 0u8;
    // Points the stacks whose way is still open (Up or Down, Sudoku) may add: they take no
    // part in the timing, capacity and schedule tallies, which follow one plan card by card.
    let mut open_gain = 0u8;
    for s in 0..nsuits as u8 {
        let top = goal.cap(s as usize);
        let stack = state.stacks[s as usize];
        if order.is_open(stack) {
            let reach = open_reach(deal, state, s, set.copies, top);
            open_gain += reach - stack.height();
            total += reach;
            continue;
        }
        let mut h = stack.height().min(top);
        let mut last_slot = 0u8;
        while h < top {
            let card = order.card_at(s, stack, h + 1);
            let kind = card.kind();
            // Above the firework, so none is played: copies left are the deck's minus the lost.
            if set.copies && deal.copies(kind) == state.lost(card) {
                break;
            }
            if set.timing && !rules.endless {
                // The first card action at which this card could be played.
                let earliest = if in_hand & (1 << kind) != 0 {
                    1
                } else {
                    match deal.next_copy(state.drawn, kind) {
                        None => break,
                        Some(j) => {
                            let offset = j - state.drawn;
                            if offset + 1 < pile_left {
                                offset + 2
                            } else if rules.deck_plays {
                                // Played blind from the pile.
                                offset + 1
                            } else {
                                // The last card drawn: its drawer's next turn is the game's last.
                                slots
                            }
                        }
                    }
                };
                let slot = earliest.max(last_slot + 1);
                if slot > slots {
                    break;
                }
                last_slot = slot;
                first[slot as usize] += 1;
                if capacity {
                    // Held from the action after its last copy is drawn (or now) until `slot`.
                    let from = deal
                        .last_copy(state.drawn, kind)
                        .map_or(1, |j| j - state.drawn + 2);
                    if from < slot {
                        keep[from as usize] += 1;
                        keep[slot as usize] -= 1;
                    }
                }
            }
            h += 1;
        }
        total += h;
    }
    if rules.endless {
        return if total == perfect { perfect } else { 0 };
    }
    if capacity {
        total = total.saturating_sub(over_capacity(rules, &keep, held, pile_left));
    }
    if set.pace {
        total = total.min(current.saturating_add(slots));
    }
    if schedule {
        total = total.min(current + most_plays(&first, slots) + open_gain);
    }
    total.min(perfect)
}

/// The most an open stack (Up or Down, Sudoku) of suit `s` can reach: the best of its ways
/// under the copies bound (with `copies`), else `top`. Kept out of [`goal_bound`]'s loop, which
/// most variants never take this way.
#[inline(never)]
fn open_reach(deal: &Deal, state: &State, s: u8, copies: bool, top: u8) -> u8 {
    if !copies {
        return top;
    }
    deal.rules
        .variant
        .play_order()
        .max_reachable(s, state.stacks[s as usize], |c| {
            deal.copies(c.kind()) != state.lost(c)
        })
}

/// Card actions still possible, each of which can add at most one to the score: every card
/// of the pile and one per player before the pile runs out, the turns left in the final round.
fn card_actions_left(deal: &Deal, state: &State) -> u8 {
    if deal.rules.endless {
        u8::MAX
    } else if state.final_turns != NOT_FINAL {
        state.final_turns
    } else {
        deal.pile_left(state) + deal.rules.players
    }
}

/// The most plays that fit one per action into actions `1..=slots`, when `first[a]` plays
/// can happen no sooner than action `a`: for every `t`, the plays before `t` plus one per
/// action from `t` on.
fn most_plays(first: &[u8; 72], slots: u8) -> u8 {
    // From action 1 on: one play per action.
    let mut most = slots;
    let mut before = 0u8;
    for (t, &n) in first.iter().enumerate().take(slots as usize + 1).skip(1) {
        // The plays possible by action t, then one per action after it.
        before += n;
        most = most.min(before + slots - t as u8);
    }
    most
}

/// By how many cards the cards that must be kept, unplayable, overfill the hands at the worst
/// card action before the pile runs out (see [`BoundSet::capacity`]); each action needs one
/// card in the hands that is playable or free to go. `keep` holds the differences of those
/// counts per action.
fn over_capacity(
    rules: &crate::game::rules::Rules,
    keep: &[i8; 72],
    held: u8,
    pile_left: u8,
) -> u8 {
    // With deck plays, the action that would draw the last card can play it blind instead.
    let actions = if rules.deck_plays {
        pile_left.saturating_sub(1)
    } else {
        pile_left
    };
    let mut must_keep = 0i8;
    let mut worst = 0i8;
    for &d in &keep[1..=actions as usize] {
        must_keep += d;
        worst = worst.max(must_keep - held as i8 + 1);
    }
    worst as u8
}
