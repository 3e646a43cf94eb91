//! Why points are out of reach, in words a player can check against the game: the last copy
//! of a card still needed gone (which card, and at which turn), a strike that ended the game,
//! too few turns left.
//!
//! Every answer comes from the rules' own questions: the most the fireworks can still reach
//! with the copies left ([`PlayOrder::max_score`](crate::game::play::PlayOrder::max_score)),
//! whether the game is lost, and the timing bound the search proves with.

use serde::Serialize;

use crate::game::card::Card;
use crate::game::rules::Rules;
use crate::search::bounds::{upper_bound, BoundSet};
use crate::state::{Deal, State, Status};

/// A card still needed whose every copy is gone, and, where the game's history is known, how
/// and when its last copy went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostCard {
    /// The card's name (`y5`).
    pub card: String,
    /// How its last copy went: `discarded` or `misplayed`; absent without a history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub how: Option<&'static str>,
    /// The turn of the action that lost it (hanab.live's numbering); absent without a history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<usize>,
    /// The whole of it in words: "y5 was discarded at turn 3".
    pub text: String,
}

/// The cards whose every copy is gone while the fireworks still need them, in suit and rank
/// order: each one a card without which the most the fireworks can still reach is lower, all
/// the others gone being given back. (With r2 and r4 both gone, both are named; in Up or Down a
/// lost 1 is not, since a stack can go down, or up from START, without it.)
pub fn needed_cards_gone(rules: &Rules, state: &State) -> Vec<Card> {
    let order = rules.variant.play_order();
    let stacks = &state.stacks[..rules.variant.suits.len()];
    let mut gone = rules.variant.deck();
    gone.dedup();
    gone.retain(|&c| state.lost(c) > 0 && state.remaining(rules, c) == 0);
    let reach = |without: Option<Card>| {
        order.max_score(stacks, |c| {
            state.remaining(rules, c) > 0 || (Some(c) != without && gone.contains(&c))
        })
    };
    let all_back = reach(None);
    gone.iter()
        .copied()
        .filter(|&c| reach(Some(c)) < all_back)
        .collect()
}

/// The cards still needed that are gone in the last of `states` ([`needed_cards_gone`]), each
/// with the action that lost its last copy: `states` are the positions of a game from its start
/// (`states[i]` before its `i + 1`-th turn), or just the one position when there is no history.
pub fn lost_cards(deal: &Deal, states: &[State]) -> Vec<LostCard> {
    let rules = &deal.rules;
    let Some(last) = states.last() else {
        return Vec::new();
    };
    needed_cards_gone(rules, last)
        .into_iter()
        .map(|card| {
            let when = states
                .windows(2)
                .rposition(|w| w[1].lost(card) > w[0].lost(card))
                .map(|i| (i + 1, went(&states[i], &states[i + 1])));
            lost_card(rules, card, when)
        })
        .collect()
}

/// How a card went between two positions: a strike means it was misplayed.
fn went(before: &State, after: &State) -> &'static str {
    if after.strikes > before.strikes {
        "misplayed"
    } else {
        "discarded"
    }
}

fn lost_card(rules: &Rules, card: Card, when: Option<(usize, &'static str)>) -> LostCard {
    let name = rules.variant.card_name(card);
    let last = if rules.variant.copies(card.suit(), card.rank()) > 1 {
        " (its last copy)"
    } else {
        ""
    };
    let text = match when {
        Some((turn, how)) => format!("{name} was {how} at turn {turn}{last}"),
        None => format!("no copy of {name} is left"),
    };
    LostCard {
        card: name,
        how: when.map(|w| w.1),
        turn: when.map(|w| w.0),
        text,
    }
}

/// The lost cards in one sentence: "y5 was discarded at turn 3 and b4 was misplayed at turn 9".
pub fn lost_words(lost: &[LostCard]) -> String {
    let texts: Vec<&str> = lost.iter().map(|l| l.text.as_str()).collect();
    match texts.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Why an action, from `before` to `after`, lowered the most the team could
/// still score from `max_before`, in words: a strike that ended the game; the last copy of a
/// card still needed discarded or misplayed (named); too few turns left for the cards still
/// needed (the timing bound the search proves with is below `max_before`); otherwise, that the
/// remaining turns no longer allow it.
pub fn turn_loss(deal: &Deal, before: &State, after: &State, max_before: u8) -> String {
    let rules = &deal.rules;
    if after.status == Status::Lost
        && after.strikes > before.strikes
        && after.strikes >= rules.max_strikes
    {
        return format!("strike {} ended the game, which scores 0", after.strikes);
    }
    let was_gone = needed_cards_gone(rules, before);
    let newly: Vec<Card> = needed_cards_gone(rules, after)
        .into_iter()
        .filter(|c| !was_gone.contains(c))
        .collect();
    let named = |cards: &[Card]| {
        cards
            .iter()
            .map(|&c| rules.variant.card_name(c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The action lost one card; a play that chooses a stack's way (Up or Down, Sudoku) can
    // instead make cards already gone needed.
    let lost_now: Vec<Card> = newly
        .iter()
        .copied()
        .filter(|&c| after.lost(c) > before.lost(c))
        .collect();
    if !lost_now.is_empty() {
        return format!(
            "the last copy of {} was {}",
            named(&lost_now),
            went(before, after)
        );
    }
    if !newly.is_empty() {
        return format!(
            "the way it started its firework needs {}, of which no copy is left",
            named(&newly)
        );
    }
    let too_late = if after.is_over() {
        after.status == Status::Finished
    } else {
        let timing = BoundSet {
            capacity: false,
            schedule: false,
            seats: false,
            ..BoundSet::ALL
        };
        upper_bound(deal, after, timing) < max_before
    };
    if too_late {
        "too few turns left to play every card still needed".to_string()
    } else {
        "the remaining turns no longer allow it".to_string()
    }
}
