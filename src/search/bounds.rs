//! Sound upper bounds on the score a position can still reach, cheap enough to test at every
//! node before any move is generated.

use super::goal::Goal;
use crate::game::card::MAX_SUITS;
use crate::game::rules::MAX_PLAYERS;
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
    /// Seats of the last turns (with `timing`; see `seat_bound`): the card action that draws
    /// the pile's last card and the final round's turns are taken by the players in seat
    /// order, so a card played at one of them must be in the hand of that turn's player. Not
    /// for the pool game, where any hand's card may be played at any turn.
    pub seats: bool,
}

impl BoundSet {
    pub const ALL: BoundSet = BoundSet {
        copies: true,
        pace: true,
        timing: true,
        capacity: true,
        schedule: true,
        seats: true,
    };
    pub const NONE: BoundSet = BoundSet {
        copies: false,
        pace: false,
        timing: false,
        capacity: false,
        schedule: false,
        seats: false,
    };

    /// These bounds without the seat rule: the pool game's, where hands are one pool.
    pub const fn without_seats(self) -> BoundSet {
        BoundSet {
            seats: false,
            ..self
        }
    }
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
    // The kinds in each seat's hand.
    let mut kinds_of = [0u64; MAX_PLAYERS];
    let mut held = 0u8;
    if set.timing {
        for (p, kinds) in kinds_of.iter_mut().enumerate().take(rules.players as usize) {
            for &c in state.hand(p) {
                *kinds |= 1 << c.kind();
            }
            in_hand |= *kinds;
            held += state.hand(p).len() as u8;
        }
    }
    // The capacity rule's tally: `keep[a]` counts the needed cards that must be in a hand,
    // and cannot be played, at card action `a` (1 = the next). Only before the last draw.
    // In endless mode too: there the pile's end brings no deadline, but until it runs out the
    // hands are just as full, and a card never played loses the game.
    let capacity = set.capacity && set.timing && state.final_turns == NOT_FINAL;
    let mut keep = [0i8; 72];
    // The schedule rule's tally: `first[a]` counts the cards first playable at action `a`.
    let schedule = set.schedule && set.timing && !rules.endless;
    let mut first = [0u8; 72];
    // The seat rule's chains (see [`seat_bound`]): each suit's cards that timing places at or
    // after the card action that draws the pile's last card (in the final round, all of them).
    let seats = set.seats && set.timing && !rules.endless;
    let mut late = [LateChain::EMPTY; MAX_SUITS];
    // The suits whose late chain holds a card that not every seat may play.
    let mut constrained = 0u8;
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
            if set.timing {
                // The first card action at which this card could be played.
                let mut first_in_pile = None;
                let earliest = if in_hand & (1 << kind) != 0 {
                    1
                } else {
                    match deal.next_copy(state.drawn, kind) {
                        None => break,
                        Some(j) => {
                            first_in_pile = Some(j);
                            let offset = j - state.drawn;
                            if offset + 1 < pile_left || rules.endless && !rules.deck_plays {
                                // Drawn at action `offset + 1` (in endless mode the last card
                                // too: no final round cuts its drawer's turns short).
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
                if seats && slot >= pile_left {
                    // Who may play it from action `pile_left` on: the seats holding a copy,
                    // any seat if the pile holds one before its last card, else `D` if the
                    // last card is one.
                    let in_pile = if in_hand & (1 << kind) != 0 {
                        deal.next_copy(state.drawn, kind)
                    } else {
                        first_in_pile
                    };
                    // Pile cards are drawn at the action after their offset: the last card at
                    // action `pile_left`.
                    let drawn_at = in_pile.map_or(u8::MAX, |j| j - state.drawn + 1);
                    let seats = if drawn_at < pile_left {
                        (1 << rules.players) - 1
                    } else {
                        let mut seats = 0u8;
                        for (p, kinds) in kinds_of.iter().enumerate() {
                            seats |= (((kinds >> kind) & 1) as u8) << p;
                        }
                        seats
                    };
                    let last = drawn_at == pile_left;
                    let all = (1 << rules.players) - 1;
                    late[s as usize].push(seats, last, rules.players, earliest, last_slot);
                    if seats != all {
                        constrained |= 1 << s;
                    }
                }
                last_slot = slot;
                if schedule {
                    first[slot as usize] += 1;
                }
                if capacity {
                    // Held from the action after its last copy is drawn (or now) until `slot`.
                    let from = deal
                        .last_copy(state.drawn, kind)
                        .map_or(1, |j| j - state.drawn + 2);
                    if from < slot {
                        keep[from as usize] += 1;
                        // Only the actions up to the pile's end are tallied (in endless mode
                        // a card's action may lie beyond the array).
                        keep[slot.min(pile_left + 1) as usize] -= 1;
                    }
                }
            }
            h += 1;
        }
        total += h;
    }
    // Each rule below lowers the timing bound on its own: the least of them is a bound.
    let timing_total = total;
    if capacity {
        total = total.saturating_sub(over_capacity(rules, &keep, held, pile_left));
    }
    if rules.endless {
        // Anything short of the perfect score is a loss.
        return if total >= perfect { perfect } else { 0 };
    }
    if set.pace {
        total = total.min(current.saturating_add(slots));
    }
    if schedule {
        total = total.min(current + most_plays(&first, slots) + open_gain);
    }
    if constrained != 0 {
        let seated = seat_bound(
            deal,
            state,
            &late,
            constrained,
            pile_left,
            slots,
            timing_total,
            total.min(perfect),
        );
        total = total.min(seated);
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

/// One suit's cards, in order, that timing places at or after the card action drawing the
/// pile's last card (see [`seat_bound`]), and the action of the suit's card before them (0 for
/// none). For each card: the first action at which timing allows a copy to be played, and the
/// seats that may play it from that action on, written twice over (bits `0..players` and again
/// from bit `players`), so that shifting right by `D` leaves, at bit `r`, whether the player
/// of action `pile_left + r` may play it; bit `2 * players` is set where the pile's last card
/// is a copy.
#[derive(Clone, Copy)]
struct LateChain {
    after: u8,
    len: u8,
    earliest: [u8; 6],
    seats: [u16; 6],
}

impl LateChain {
    const EMPTY: LateChain = LateChain {
        after: 0,
        len: 0,
        earliest: [0; 6],
        seats: [0; 6],
    };

    /// Adds the chain's next card, placed after action `before`.
    #[inline]
    fn push(&mut self, seats: u8, last: bool, players: u8, earliest: u8, before: u8) {
        if self.len == 0 {
            self.after = before;
        }
        let i = self.len as usize;
        self.earliest[i] = earliest;
        self.seats[i] =
            u16::from(seats) | u16::from(seats) << players | u16::from(last) << (2 * players);
        self.len += 1;
    }
}

/// The seat rule: a bound on the score, given the timing bound `timing_total`, from the seats
/// that take the last turns.
///
/// Call `D` the player whose card action draws the pile's last card, action `pile_left` (of
/// the card actions still to come, counted from 1). The final round then gives each player one
/// more turn, in seat order from `D + 1` to `D` again: actions `pile_left + 1` to
/// `pile_left + players`, action `pile_left + j` taken by seat `(D + j) mod players`. (Clues
/// there use up turns, so the numbering is of turns; before the final round, of card actions,
/// any player may take any of them with enough clues to pass the others' turns.) In the final
/// round, action `a` is the `a`-th turn from now and `D` the seat before the one to move.
///
/// A card played at one of these actions is played by that action's player, so it must be in
/// their hand: a copy held now by that seat (cards never change hands), a copy still in the
/// pile before its last card (whoever drew it may be that seat), or the pile's last card,
/// which `D` draws at action `pile_left` and can play at `D`'s final turn (or at once, blind,
/// with deck plays). Each suit's cards are played in order, one per action: taking, card after
/// card, the first action whose player may play it gives each card the earliest action any
/// line can give it, so the cards left over in that schedule are never played. Cards before a
/// suit's late chain keep their timing actions, which come before action `pile_left`, where
/// any seat may act.
///
/// For one `D`, the score is then at most the timing bound less every suit's leftovers. A line
/// has one `D`, so the most of these over the possible `D` is a bound. The search over `D`
/// stops once it reaches `enough` (the other bounds' least), which it can then no longer lower.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn seat_bound(
    deal: &Deal,
    state: &State,
    late: &[LateChain; MAX_SUITS],
    constrained: u8,
    pile_left: u8,
    slots: u8,
    timing_total: u8,
    enough: u8,
) -> u8 {
    let players = deal.rules.players;
    // The seats `D` may be: any before the final round; in it, the seat before the mover.
    let candidates = if state.final_turns == NOT_FINAL {
        (1u8 << players) - 1
    } else {
        1 << ((state.turn + players - 1) % players)
    };
    // Actions `pile_left + r` for `r` up to `span` (`players`, or the final round's turns).
    let span = slots - pile_left;
    let valid = (1u16 << (span + 1)) - 1;
    // The actions that `D` takes whoever `D` is, where `D` may play the pile's last card:
    // `D`'s final turn, and with deck plays the draw itself. Only before the final round.
    let drawer = if state.final_turns == NOT_FINAL {
        (1u16 << players) | u16::from(deal.rules.deck_plays)
    } else {
        0
    };
    let mut best = 0u8;
    for d in 0..players {
        if candidates & (1 << d) == 0 {
            continue;
        }
        let mut cut = 0u8;
        for (s, chain) in late.iter().enumerate() {
            if constrained & (1 << s) == 0 {
                continue;
            }
            let mut before = chain.after;
            let mut fit = 0u8;
            for i in 0..chain.len as usize {
                // Bit `r`: the player of action `pile_left + r` may play this card.
                let mut at = (chain.seats[i] >> d) & valid;
                if chain.seats[i] & (1 << (2 * players)) != 0 {
                    at |= drawer & valid;
                }
                // At least the card's timing action, which is at least `pile_left`.
                let from = chain.earliest[i].max(before + 1);
                debug_assert!(from >= pile_left);
                let r = from - pile_left;
                if r > span || at >> r == 0 {
                    break;
                }
                before = from + (at >> r).trailing_zeros() as u8;
                fit += 1;
            }
            cut += chain.len - fit;
        }
        best = best.max(timing_total - cut);
        if best >= enough {
            break;
        }
    }
    best
}
