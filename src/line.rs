//! A line of play in words: who did what with which card, checked against the rules.
//!
//! The words are the same wherever an action is told (`solve`'s line, `replay`, `review`), and
//! hand slots are numbered as hanab.live numbers them: slot 1 is the newest card, on the left.
//! [`State`] keeps hands oldest first; [`site_slot`] turns one into the other.

use serde::Serialize;

use crate::game::card::Card;
use crate::game::rules::Rules;
use crate::hanablive::{self, ExportAction, COLOUR_CLUE};
use crate::state::{Action, Deal, State, Status};

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
    /// For a clue: the player clued (a line's clue is the first legal one, [`clue_given`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clued: Option<String>,
    /// The card was the pile's last, played blind (deck-plays option).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deck_play: bool,
    /// The play failed: a strike.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub misplay: bool,
    pub player: String,
    /// Seat of the mover.
    pub seat: u8,
    /// The action as hanab.live writes it (type, target, value), where the cards' deck order
    /// is known (a seed, a deck, a game export); absent for a position file, and once the site
    /// would have ended the game (the score can no longer change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<SiteAction>,
    /// The hand slot played or discarded, numbered as hanab.live numbers it (1 = newest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot: Option<u8>,
    /// The turn in words, e.g. "Alice plays r1 (slot 2)".
    pub text: String,
    /// 1-based turn number.
    pub turn: usize,
}

/// An action in hanab.live's form: `type` 0 play, 1 discard (`target` the card's deck order),
/// 2 colour clue, 3 rank clue (`target` the seat clued, `value` the colour index or rank).
/// The keys are in alphabetical order, as every JSON object this crate prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SiteAction {
    pub target: i64,
    #[serde(rename = "type")]
    pub kind: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

impl From<ExportAction> for SiteAction {
    fn from(a: ExportAction) -> SiteAction {
        SiteAction {
            target: a.target,
            kind: a.kind,
            value: a.value,
        }
    }
}

impl From<SiteAction> for ExportAction {
    fn from(a: SiteAction) -> ExportAction {
        ExportAction {
            kind: a.kind,
            target: a.target,
            value: a.value,
        }
    }
}

/// hanab.live's number of the card at `index` of a hand of `len` cards kept oldest first (as
/// [`State`] keeps them): the site counts from 1 at the newest card.
#[inline]
pub fn site_slot(len: usize, index: usize) -> u8 {
    debug_assert!(index < len);
    (len - index) as u8
}

/// A hand kept oldest first, in the order hanab.live shows it: newest (slot 1) first.
pub fn newest_first<T: Clone>(hand: &[T]) -> Vec<T> {
    hand.iter().rev().cloned().collect()
}

/// A clue given: the seat clued, hanab.live's action type ([`COLOUR_CLUE`] or
/// [`hanablive::RANK_CLUE`]) and value (colour index or rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GivenClue {
    pub target: u8,
    pub kind: i64,
    pub value: u8,
}

impl GivenClue {
    /// The clue's name as players say it: a colour in lower case ("red") or a rank ("3").
    pub fn name(self, rules: &Rules) -> String {
        let v = &rules.variant;
        if self.kind == COLOUR_CLUE {
            v.colour_clue(i64::from(self.value)).map_or_else(
                || format!("colour {}", self.value),
                |c| c.name.to_lowercase(),
            )
        } else {
            v.rank_clue(i64::from(self.value))
                .map_or_else(|| self.value.to_string(), |c| c.name.clone())
        }
    }
}

/// The concrete clue that stands for the line's clue `action` (with every card known, any
/// clue is the same move): the first legal one of its type ([`hanablive::clue_of_type`]).
pub fn clue_given(rules: &Rules, state: &State, action: Action) -> Option<GivenClue> {
    hanablive::clue_of_type(rules, state, state.turn, action.clue_type()).map(
        |(target, kind, value)| GivenClue {
            target,
            kind: i64::from(kind),
            value,
        },
    )
}

/// `action` by the player to move in `before`, which led to `after`, in words: "Alice plays r1
/// (slot 3)", "Alice plays r5 (slot 1; a clue token comes back)", "Alice plays r3 (slot 2):
/// misplay (strike 1)", "Bob discards r4 (slot 2)", "Bob plays r2 from the deck", "Alice clues
/// Bob red (touches 2 cards)". A clue names `clue` (or says only that a clue was given, when
/// there is none). The one wording of `solve`, `replay` and `review`.
pub fn action_words(
    deal: &Deal,
    names: &[String],
    before: &State,
    action: Action,
    clue: Option<GivenClue>,
    after: &State,
) -> String {
    let rules = &deal.rules;
    let seat = before.turn as usize;
    let name = seat_name(names, seat);
    let hand = before.hand(seat);
    match action {
        Action::Clue | Action::ColourClue | Action::RankClue => match clue {
            Some(c) => {
                let touched = rules
                    .variant
                    .clue(c.kind == COLOUR_CLUE, i64::from(c.value));
                let count = before
                    .hand(c.target as usize)
                    .iter()
                    .filter(|card| touched.is_some_and(|t| card.kind_bit() & t.touches != 0))
                    .count();
                let cards = match count {
                    0 => "touches no card".to_string(),
                    1 => "touches 1 card".to_string(),
                    k => format!("touches {k} cards"),
                };
                format!(
                    "{name} clues {} {} ({cards})",
                    seat_name(names, c.target as usize),
                    c.name(rules)
                )
            }
            None => format!("{name} clues"),
        },
        Action::Discard(i) => format!(
            "{name} discards {} (slot {})",
            rules.variant.card_name(hand[i as usize]),
            site_slot(hand.len(), i as usize)
        ),
        Action::Play(i) => {
            let card = rules.variant.card_name(hand[i as usize]);
            let slot = format!("slot {}", site_slot(hand.len(), i as usize));
            play_words(&name, &card, Some(&slot), before, after, rules)
        }
        Action::DeckPlay => {
            let card = rules.variant.card_name(deal.pile[before.drawn as usize]);
            play_words(&name, &card, None, before, after, rules)
        }
    }
}

/// A play in words; `slot` is where in the hand it came from (none: from the deck).
fn play_words(
    name: &str,
    card: &str,
    slot: Option<&str>,
    before: &State,
    after: &State,
    rules: &Rules,
) -> String {
    let head = match slot {
        Some(slot) => format!("{name} plays {card} ({slot}"),
        None => format!("{name} plays {card} from the deck"),
    };
    let close = if slot.is_some() { ")" } else { "" };
    if after.strikes > before.strikes {
        format!("{head}{close}: misplay (strike {})", after.strikes)
    } else if after.clues > before.clues {
        let back = if after.clues - before.clues == 1 && rules.tokens().scale == 2 {
            "half a clue token comes back"
        } else {
            "a clue token comes back"
        };
        match slot {
            Some(_) => format!("{head}; {back})"),
            None => format!("{head} ({back})"),
        }
    } else {
        format!("{head}{close}")
    }
}

fn seat_name(names: &[String], seat: usize) -> String {
    names
        .get(seat)
        .cloned()
        .unwrap_or_else(|| format!("seat {}", seat + 1))
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
    describe_game(deal, state, line, names, None)
}

/// [`describe`], with `game` following the same position as a hanab.live game (it knows each
/// card's deck order): each step then has the site's form of its action too, as long as the
/// site would not have ended the game.
pub fn describe_game(
    deal: &Deal,
    state: &State,
    line: &[Action],
    names: &[String],
    mut game: Option<hanablive::Tracker>,
) -> Result<(Vec<Step>, State), (usize, String)> {
    let rules: &Rules = &deal.rules;
    let mut s = *state;
    let mut steps = Vec::with_capacity(line.len());
    for (i, &a) in line.iter().enumerate() {
        let card = action_card(deal, &s, a);
        let next = s.apply(deal, a).map_err(|e| (i, e))?;
        let seat = s.turn;
        let player = seat_name(names, seat as usize);
        let clue = if a.is_clue() {
            clue_given(rules, &s, a)
        } else {
            None
        };
        let site = match game.as_mut().filter(|t| !t.is_over()) {
            Some(t) => {
                debug_assert_eq!(t.state(), &s, "the game follows the line");
                let site = t.to_export(a).map_err(|e| (i, e))?;
                t.step(&site).map_err(|e| (i, e))?;
                Some(SiteAction::from(site))
            }
            None => None,
        };
        let misplay = matches!(a, Action::Play(_) | Action::DeckPlay) && next.strikes > s.strikes;
        let hand_len = s.hand(seat as usize).len();
        let slot = match a {
            Action::Play(k) | Action::Discard(k) => Some(site_slot(hand_len, k as usize)),
            _ => None,
        };
        let action = match a {
            Action::Discard(_) => "discard",
            Action::Play(_) | Action::DeckPlay => "play",
            Action::Clue | Action::ColourClue | Action::RankClue => "clue",
        };
        steps.push(Step {
            turn: i + 1,
            seat,
            text: action_words(deal, names, &s, a, clue, &next),
            player,
            action,
            card: card.map(|c| rules.variant.card_name(c)),
            clued: clue.map(|c| seat_name(names, c.target as usize)),
            misplay,
            deck_play: a == Action::DeckPlay,
            site,
            slot,
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
    if s.status == Status::Playing {
        return Err("the line stops before the game ends".into());
    }
    Ok(s)
}
