//! Move generation for the search: equivalent moves merged, the rest in a promising order.
//!
//! Two cards with the same canonical code (the same card, or any two cards that can never be
//! played) lead to positions with the same key, so only one of them is tried.

use smallvec::SmallVec;

use super::goal::Goal;
use super::key::{code_toward, TRASH};
use crate::state::{Action, Deal, State};

/// Moves of one position, best first.
pub type Moves = SmallVec<[Action; 24]>;

/// The distinct moves of the player to move, ordered: plays (fives first, then low ranks), a
/// clue, discards of trash, then of cards with another copy left, misplays of trash, discards
/// of last copies, and last the misplays of useful cards.
///
/// With `dominance`, misplays are left out while a discard is legal: discarding the same card
/// is never worse (see [`misplay_dominated`]).
pub fn ordered_moves(deal: &Deal, state: &State, merge: bool, dominance: bool) -> Moves {
    moves_toward(deal, state, merge, dominance, None)
}

/// [`ordered_moves`], where with `beyond` the cards above that goal's heights count as trash:
/// one discard for all of them, and no play. Only for the relaxed game (where a discard is
/// always legal and tokens do not exist): there playing such a card, or discarding it, or any
/// trash card, leads to positions with the same future toward the goal.
pub fn moves_toward(
    deal: &Deal,
    state: &State,
    merge: bool,
    dominance: bool,
    beyond: Option<&Goal>,
) -> Moves {
    let rules = &deal.rules;
    let order = rules.variant.play_order();
    let p = state.turn as usize;
    let hand = state.hand(p);
    let mut scored: SmallVec<[(u8, Action); 24]> = SmallVec::new();
    let mut seen: u64 = 0;
    let can_discard = state.can_discard(rules);
    let misplays = !(dominance && misplay_dominated(deal, state));
    for (i, &card) in hand.iter().enumerate() {
        let code = code_toward(rules, state, card, beyond);
        if merge {
            if seen & (1 << code) != 0 {
                continue;
            }
            seen |= 1 << code;
        }
        let slot = i as u8;
        if code != TRASH && state.is_playable(rules, card) {
            let pri = if order.completes(state.stacks[card.suit() as usize]) {
                0
            } else {
                1 + order.place(card)
            };
            scored.push((pri, Action::Play(slot)));
            if can_discard {
                scored.push((60, Action::Discard(slot)));
            }
            continue;
        }
        if code == TRASH {
            if can_discard {
                scored.push((20, Action::Discard(slot)));
            }
            if misplays {
                scored.push((40, Action::Play(slot)));
            }
            continue;
        }
        let spare = state.remaining(rules, card) > 1;
        if can_discard {
            scored.push((
                if spare {
                    30 + order.place(card)
                } else {
                    50 + order.place(card)
                },
                Action::Discard(slot),
            ));
        }
        if misplays {
            scored.push((70 + order.place(card), Action::Play(slot)));
        }
    }
    for clue in state.clue_actions(rules) {
        scored.push((10, clue));
    }
    if state.can_deck_play(deal) {
        let card = deal.pile[state.drawn as usize];
        scored.push((
            if state.is_playable(rules, card) {
                0
            } else {
                80
            },
            Action::DeckPlay,
        ));
    }
    scored.sort_by_key(|&(pri, _)| pri);
    scored.into_iter().map(|(_, a)| a).collect()
}

/// Whether every misplay of the player to move is dominated by discarding the same card: true
/// whenever a discard is legal (fewer clue tokens than the maximum).
///
/// Both moves lose the card and draw the same next card; the discard leaves one more token and
/// one strike fewer. From the discarded position, copy any line of the misplayed one; when that
/// line discards with its tokens one short of the maximum (ours at the maximum, where a discard
/// is illegal), misplay that card instead: our spare strike pays for it, and the two positions
/// are then the same. A five played at the maximum likewise makes the tokens equal, with our
/// strikes still fewer. Every turn of the copy is legal, ends the game no sooner and scores the
/// same, so the discard's best score is at least the misplay's, whatever order the cards are
/// drawn in (which makes it hold for the hidden-pile search too).
#[inline]
pub fn misplay_dominated(deal: &Deal, state: &State) -> bool {
    state.can_discard(&deal.rules)
}
