//! A line of play in words: who did what with which card, checked against the rules.

use serde::Serialize;

use crate::game::card::Card;
use crate::game::rules::Rules;
use crate::state::{Action, Deal, Outcome, State};

/// One turn of a line.
///
/// The fields are in alphabetical order: `solve --json` has always printed their keys so (they
/// were once gathered in a sorted map).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// `play`, `discard` or `clue`.
    pub action: &'static str,
    /// The card played or discarded (`r1`); absent for clues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// The card was the pile's last, played blind (deck-plays option).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deck_play: bool,
    /// The play failed: a strike.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub misplay: bool,
    pub player: String,
    /// Seat of the mover.
    pub seat: u8,
    /// The turn in words, e.g. "Alice plays r1".
    pub text: String,
    /// 1-based turn number.
    pub turn: usize,
}

/// The card an action moves, if any.
pub fn action_card(deal: &Deal, state: &State, action: Action) -> Option<Card> {
    match action {
        Action::Play(i) | Action::Discard(i) => {
            state.hand(state.turn as usize).get(i as usize).copied()
        }
        Action::DeckPlay => deal.pile.get(state.drawn as usize).copied(),
        Action::Clue | Action::ColourClue | Action::RankClue => None,
    }
}

/// Replays `line` from `state` through the rules (every action checked) and describes each
/// turn. Returns the steps and the final state, or the index and reason of an illegal action.
pub fn describe(
    deal: &Deal,
    state: &State,
    line: &[Action],
    names: &[String],
) -> Result<(Vec<Step>, State), (usize, String)> {
    let rules: &Rules = &deal.rules;
    let mut s = *state;
    let mut steps = Vec::with_capacity(line.len());
    for (i, &a) in line.iter().enumerate() {
        let card = action_card(deal, &s, a);
        let next = s.apply(deal, a).map_err(|e| (i, e))?;
        let seat = s.turn;
        let player = names
            .get(seat as usize)
            .cloned()
            .unwrap_or_else(|| format!("seat {seat}"));
        let name = card.map(|c| rules.variant.card_name(c));
        let misplay = matches!(a, Action::Play(_) | Action::DeckPlay) && next.strikes > s.strikes;
        let (action, text) = match a {
            Action::Clue => ("clue", format!("{player} clues: stall")),
            Action::ColourClue => ("clue", format!("{player} gives a colour clue: stall")),
            Action::RankClue => ("clue", format!("{player} gives a rank clue: stall")),
            Action::Discard(_) => (
                "discard",
                format!("{player} discards {}", name.clone().unwrap_or_default()),
            ),
            Action::Play(_) | Action::DeckPlay => {
                let blind = if a == Action::DeckPlay {
                    " from the deck"
                } else {
                    ""
                };
                let mut t = format!("{player} plays {}{blind}", name.clone().unwrap_or_default());
                if misplay {
                    t.push_str(&format!(" (misplay: strike {})", next.strikes));
                }
                ("play", t)
            }
        };
        steps.push(Step {
            turn: i + 1,
            seat,
            player,
            action,
            card: name,
            misplay,
            deck_play: a == Action::DeckPlay,
            text,
        });
        s = next;
    }
    Ok((steps, s))
}

/// The final state of a line, or an error if it is illegal or does not end the game.
pub fn final_state(deal: &Deal, state: &State, line: &[Action]) -> Result<State, String> {
    let mut s = *state;
    for (i, &a) in line.iter().enumerate() {
        s = s.apply(deal, a).map_err(|e| format!("action {i}: {e}"))?;
    }
    if s.outcome == Outcome::Playing {
        return Err("the line stops before the game ends".into());
    }
    Ok(s)
}
