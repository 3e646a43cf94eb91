//! The transposition key: the whole position, canonicalised and packed into a few words.
//!
//! Two positions get the same key exactly when they have the same future: hands are sorted
//! (slot order does not matter when every card is known) and every card that can never be
//! played is written as the same "trash" code. Nothing is truncated, so a table hit is never a
//! collision.

use smallvec::SmallVec;

use super::goal::Goal;
use crate::game::card::Card;
use crate::game::rules::Rules;
use crate::state::{Deal, State, NOT_FINAL};

/// A packed canonical position. Standard games fit the three inline words; only unusual
/// configurations (many players with big hands) spill to the heap.
pub type Key = SmallVec<[u64; 3]>;

/// Code of an empty slot.
const EMPTY: u8 = 0;
/// Code shared by all cards that can never be played.
pub const TRASH: u8 = 1;

/// The canonical code of a card in `state`: [`TRASH`] for a card that can never be played and
/// that is interchangeable with the other such cards ([`crate::game::variant::Variant::dead_cards_merge`]:
/// not a Null card, which no clue touches), otherwise its kind plus two.
#[inline]
pub fn card_code(rules: &Rules, state: &State, card: Card) -> u8 {
    if state.is_trash(rules, card) && rules.variant.dead_cards_merge(card) {
        TRASH
    } else {
        card.kind() as u8 + 2
    }
}

/// [`card_code`] in a search toward a goal: with `beyond` (the relaxed games, see
/// [`super::order::moves_toward`]), a card above that goal's heights is [`TRASH`] too.
#[inline]
pub fn code_toward(rules: &Rules, state: &State, card: Card, beyond: Option<&Goal>) -> u8 {
    match beyond {
        Some(goal) if goal.beyond(card) => TRASH,
        _ => card_code(rules, state, card),
    }
}

/// [`card_code`] where the players choose the stacks' ways, out of line: there a card has no
/// one place, so the state answers card by card, and [`pack`]'s loop stays small elsewhere.
#[inline(never)]
fn chosen_way_code(rules: &Rules, state: &State, card: Card) -> u8 {
    card_code(rules, state, card)
}

struct Bits {
    words: Key,
    used: u32,
}

impl Bits {
    #[inline]
    fn push(&mut self, value: u64, width: u32) {
        if self.used.is_multiple_of(64) {
            self.words.push(0);
        }
        let off = self.used % 64;
        let last = self.words.len() - 1;
        self.words[last] |= value << off;
        if off + width > 64 {
            self.words.push(value >> (64 - off));
        }
        self.used += width;
    }
}

/// The key of `state` in a search toward `goal`: the position's own key, followed by the
/// goal's heights unless it is the full goal (whose answers are plain scores). With
/// `beyond_is_trash` (the relaxed game, see [`super::order::moves_toward`]), cards above the
/// goal's heights are written as trash, and fireworks above them as at them.
///
/// With `pool` (the pool game of [`super::dfs::pool_applies`]), the hands are written as one
/// pool, followed by a marker bit that keeps these keys apart from the relaxed game's.
pub fn goal_key(deal: &Deal, state: &State, goal: &Goal, beyond_is_trash: bool, pool: bool) -> Key {
    if goal.is_full() && !pool {
        return key(deal, state);
    }
    let beyond = (beyond_is_trash && !goal.is_full()).then_some(goal);
    let mut bits = pack(deal, state, beyond, pool);
    if !goal.is_full() {
        for &c in &goal.caps()[..deal.rules.variant.suits.len()] {
            bits.push(c as u64, 4);
        }
    }
    if pool {
        bits.push(1, 1);
    }
    bits.words
}

/// Packs the canonical form of `state`.
pub fn key(deal: &Deal, state: &State) -> Key {
    pack(deal, state, None, false).words
}

/// The packed position; with `beyond`, cards above that goal count as trash.
fn pack(deal: &Deal, state: &State, beyond: Option<&Goal>, pool: bool) -> Bits {
    let rules = &deal.rules;
    let mut bits = Bits {
        words: SmallVec::new(),
        used: 0,
    };
    let order = rules.variant.play_order();
    let chosen_ways = order.ways_chosen_in_play();
    for (s, &stack) in state.stacks[..rules.variant.suits.len()].iter().enumerate() {
        if chosen_ways {
            // The height and the way chosen (goals are not split in these variants).
            bits.push(stack.bits() as u64, 6);
        } else {
            let h = stack.height();
            bits.push(beyond.map_or(h, |g| h.min(g.cap(s))) as u64, 3);
        }
    }
    // Up to 15 tokens in 4 bits; Clue Starved counts up to 30 half tokens.
    bits.push(state.clues as u64, if rules.max_clues > 15 { 5 } else { 4 });
    if rules.tokens().alternating {
        bits.push(state.last_clue.map_or(0, |colour| 1 + u64::from(colour)), 2);
    }
    bits.push(state.strikes as u64, 3);
    bits.push(state.drawn as u64, 6);
    bits.push(state.turn as u64, 3);
    let fin = if state.final_turns == NOT_FINAL {
        15
    } else {
        state.final_turns.min(14)
    };
    bits.push(fin as u64, 4);
    // A card is trash when already played, or placed above the first card of its suit with no
    // copy left (computed once per suit rather than once per card). Where the players choose
    // the stacks' ways, a card has no one place: the state answers for each card.
    let mut first_gone = [u8::MAX; crate::game::card::MAX_SUITS];
    for (s, gone) in first_gone
        .iter_mut()
        .enumerate()
        .take(rules.variant.suits.len())
    {
        // The first place whose card has no copy left (none is played, being above the top).
        let reach = order.max_reachable(s as u8, state.stacks[s], |c| {
            deal.copies(c.kind()) != state.lost(c)
        });
        *gone = if reach < rules.variant.ranks {
            reach + 1
        } else {
            u8::MAX
        };
        if let Some(g) = beyond {
            *gone = (*gone).min(g.cap(s));
        }
    }
    let code = |c: Card| {
        if chosen_ways {
            return chosen_way_code(rules, state, c);
        }
        let s = c.suit() as usize;
        if (order.is_played(state.stacks[s], c) || order.place(c) > first_gone[s])
            && rules.variant.dead_cards_merge(c)
        {
            TRASH
        } else {
            c.kind() as u8 + 2
        }
    };
    let width = code_width(rules);
    if pool {
        let mut codes = [EMPTY; crate::game::rules::MAX_HAND * crate::game::rules::MAX_PLAYERS];
        let mut cards = 0;
        // As many codes as the relaxed game's keys write (empty slots included), so that the
        // marker bit after them keeps the two apart.
        let mut slots = 0;
        for p in 0..rules.players as usize {
            for &c in state.hand(p) {
                codes[cards] = code(c);
                cards += 1;
            }
            slots += (rules.hand_size as usize).max(state.hand(p).len());
        }
        push_codes(&mut bits, &mut codes[..slots], width);
        return bits;
    }
    for p in 0..rules.players as usize {
        let hand = state.hand(p);
        let mut codes = [EMPTY; crate::game::rules::MAX_HAND];
        for (i, &c) in hand.iter().enumerate() {
            codes[i] = code(c);
        }
        push_codes(
            &mut bits,
            &mut codes[..(rules.hand_size as usize).max(hand.len())],
            width,
        );
    }
    bits
}

/// Writes card codes `width` bits each ([`code_width`]), in sorted order.
#[inline]
fn push_codes(bits: &mut Bits, codes: &mut [u8], width: u32) {
    if width == 5 {
        push_sorted::<5>(bits, codes);
    } else {
        push_sorted::<6>(bits, codes);
    }
}

/// Writes card codes in sorted order: the order of cards in a hand never matters.
fn push_sorted<const WIDTH: u32>(bits: &mut Bits, codes: &mut [u8]) {
    codes.sort_unstable();
    for &c in codes.iter() {
        bits.push(c as u64, WIDTH);
    }
}

/// Bits per card code: five hold every kind plus the two special codes, six where the START
/// cards of Up or Down (numbered after every other kind) are in the deck.
#[inline]
pub fn code_width(rules: &Rules) -> u32 {
    if rules.variant.has_start() {
        6
    } else {
        5
    }
}
