//! hanab.live game exports: read them, replay them with every action checked, write them.
//!
//! An export (the JSON behind hanab.live's "export game" and JSON replays) holds the player
//! names, the whole deck top first, the actions and the options:
//!
//! ```json
//! {"players": ["Alice", "Bob"], "deck": [{"suitIndex": 0, "rank": 1}, ...],
//!  "actions": [{"type": 3, "target": 1, "value": 5}, {"type": 0, "target": 7}],
//!  "options": {"variant": "No Variant", "emptyClues": true}}
//! ```
//!
//! Action types: 0 play and 1 discard (`target` is the card's order, its index in the deck),
//! 2 colour clue and 3 rank clue (`target` is the seat clued, `value` the index into the
//! variant's clue colours or the rank), 4 and 5 game over (`target` is the player who ended it,
//! `value` hanab.live's end condition).
//!
//! The deal is hanab.live's block deal ([`Deal::from_deck`]); every card drawn takes the next
//! deck index. [`Tracker`] keeps the deck order of each hand slot next to the [`State`], so that
//! card orders map to slots and back.
//!
//! hanab.live ends a game on its own in two cases where [`State`] plays on: when the score
//! reaches the most that is still possible, and in the final round when no player still to move
//! holds a card that can be played (see [`live_end`]). Neither can change the score; a replay
//! treats the game as over at that point, and [`export_line`] stops there.

pub mod address;
pub mod fetch;
pub mod link;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::game::card::{Card, KindSet};

use crate::game::rules::{default_hand_size, Options, Rules};
use crate::game::variant::{Clue, Variant};
use crate::line::{action_words, GivenClue};
use crate::state::{self, Action, Deal, State};

/// Action type: play a card (`target` = its order).
pub const PLAY: i64 = 0;
/// Action type: discard a card (`target` = its order).
pub const DISCARD: i64 = 1;
/// Action type: colour clue (`target` = seat, `value` = index into the clue colours).
pub const COLOUR_CLUE: i64 = 2;
/// Action type: rank clue (`target` = seat, `value` = rank).
pub const RANK_CLUE: i64 = 3;
/// Action type: the game was ended from outside (`target` = the player, `value` = end condition).
pub const GAME_OVER: i64 = 4;
/// Action type: the players voted to end the game (`target` = -1).
pub const GAME_OVER_BY_VOTE: i64 = 5;

/// hanab.live's end condition "terminated by a player", used when an export must end a game
/// that is still going on.
pub const TERMINATED: i64 = 4;

/// One hanab.live game export. Fields this crate does not use (notes, characters, ...) are
/// accepted and ignored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameExport {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    pub players: Vec<String>,
    /// The whole deck, top first.
    pub deck: Vec<DeckCard>,
    pub actions: Vec<ExportAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<GameOptions>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

/// One card of the deck as hanab.live writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeckCard {
    pub suit_index: i64,
    pub rank: i64,
}

/// One action as hanab.live writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportAction {
    /// 0 play, 1 discard, 2 colour clue, 3 rank clue, 4 or 5 game over.
    #[serde(rename = "type")]
    pub kind: i64,
    pub target: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

impl ExportAction {
    pub fn play(order: usize) -> ExportAction {
        ExportAction {
            kind: PLAY,
            target: order as i64,
            value: None,
        }
    }

    pub fn discard(order: usize) -> ExportAction {
        ExportAction {
            kind: DISCARD,
            target: order as i64,
            value: None,
        }
    }

    /// A clue: `kind` is [`COLOUR_CLUE`] or [`RANK_CLUE`].
    pub fn clue(kind: i64, seat: u8, value: u8) -> ExportAction {
        ExportAction {
            kind,
            target: seat as i64,
            value: Some(value as i64),
        }
    }

    /// A game-over action by `seat` with hanab.live end condition `condition`.
    pub fn game_over(seat: u8, condition: i64) -> ExportAction {
        ExportAction {
            kind: GAME_OVER,
            target: seat as i64,
            value: Some(condition),
        }
    }
}

/// The `options` object. Flags this crate implements are typed; every other key is kept in
/// `other` and checked by [`GameExport::rules`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameOptions {
    /// hanab.live's variant name ("No Variant" when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_plays: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_clues: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_extra_card: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_less_card: Option<bool>,
    /// All or Nothing: the endless mode of this crate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_or_nothing: Option<bool>,
    /// Old games could start with another seat; only 0 is supported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_player: Option<i64>,
    #[serde(flatten)]
    pub other: BTreeMap<String, serde_json::Value>,
}

/// Options that do not change the rules of play.
const HARMLESS_OPTIONS: &[&str] = &[
    "timed",
    "timeBase",
    "timePerTurn",
    "tableName",
    "maxPlayers",
    "numPlayers",
];

/// Options that change the rules in ways this crate does not model, with a word on what they do.
const UNSUPPORTED_OPTIONS: &[(&str, &str)] = &[
    ("cardCycle", "discarding moves cards around the hand"),
    (
        "detrimentalCharacters",
        "players have characters that restrict their actions",
    ),
    (
        "speedrun",
        "the game ends with 0 as soon as a perfect score is impossible",
    ),
];

/// Reads a game export. JSON that does not parse gives [`Error::Json`] with serde's message.
pub fn read(text: &str) -> Result<GameExport, Error> {
    // Editors on some systems start a UTF-8 file with a byte-order mark; JSON has no use for it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let game: GameExport = serde_json::from_str(text).map_err(|e| Error::Json(e.to_string()))?;
    check_names(&game)?;
    Ok(game)
}

/// Refuses control characters (line breaks among them) in the strings that messages repeat:
/// player names, option keys, the variant and the seed. hanab.live allows none of them, and a
/// message must stay on one line.
fn check_names(game: &GameExport) -> Result<(), Error> {
    let named = game
        .players
        .iter()
        .map(|p| ("player name", p.as_str()))
        .chain(game.options.iter().flat_map(|o| {
            o.other
                .keys()
                .map(|k| ("option", k.as_str()))
                .chain(o.variant.iter().map(|v| ("variant", v.as_str())))
        }))
        .chain(game.seed.iter().map(|s| ("seed", s.as_str())));
    for (what, text) in named {
        if text.chars().any(crate::error::breaks_line) {
            return Err(Error::Json(format!(
                "the {what} {text:?} holds a control character"
            )));
        }
    }
    Ok(())
}

/// The export as pretty-printed JSON.
pub fn to_json(game: &GameExport) -> String {
    serde_json::to_string_pretty(game).expect("a game export always serializes")
}

impl GameExport {
    /// The checked rules of this game: the variant by its hanab.live name, the player count from
    /// the names, the hand size and toggles from the options.
    pub fn rules(&self) -> Result<Rules, Error> {
        let opts = self.options.clone().unwrap_or_default();
        let variant = Variant::parse(opts.variant.as_deref().unwrap_or("No Variant"))?;
        if let Some(p) = opts.starting_player {
            if p != 0 {
                return Err(Error::Option(format!(
                    "hanab.live option startingPlayer = {p} is not supported (seat 0 always starts)"
                )));
            }
        }
        for (key, value) in &opts.other {
            if HARMLESS_OPTIONS.contains(&key.as_str()) || !is_set(value) {
                continue;
            }
            let what = UNSUPPORTED_OPTIONS
                .iter()
                .find(|u| u.0 == key)
                .map(|u| format!(" ({})", u.1))
                .unwrap_or_default();
            return Err(Error::Option(format!(
                "hanab.live option {key} is not supported{what}"
            )));
        }
        let players = u8::try_from(self.players.len()).unwrap_or(u8::MAX);
        let extra = opts.one_extra_card.unwrap_or(false) as i32
            - opts.one_less_card.unwrap_or(false) as i32;
        let hand_size = (extra != 0 && (2..=6).contains(&players))
            .then(|| (default_hand_size(players) as i32 + extra) as u8);
        Rules::new(
            variant,
            players,
            &Options {
                hand_size,
                clues: None,
                strikes: None,
                empty_clues: opts.empty_clues.unwrap_or(false),
                deck_plays: opts.deck_plays.unwrap_or(false),
                endless: opts.all_or_nothing.unwrap_or(false),
            },
        )
    }

    /// The deck as cards of `variant`; a suit index or rank the variant lacks is an
    /// [`Error::Deck`]. (Whether the cards make up the variant's deck is checked by
    /// [`Deal::from_deck`].)
    pub fn cards(&self, variant: &Variant) -> Result<Vec<Card>, Error> {
        self.deck
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let bad = || {
                    Error::Deck(format!(
                        "card {i} of the deck, with suitIndex {} and rank {}, is not in {}",
                        c.suit_index, c.rank, variant.name
                    ))
                };
                let suit = usize::try_from(c.suit_index).map_err(|_| bad())?;
                let rank = usize::try_from(c.rank).map_err(|_| bad())?;
                variant.card(suit, rank).map_err(|_| bad())
            })
            .collect()
    }
}

fn is_set(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Bool(b) => *b,
        serde_json::Value::Null => false,
        serde_json::Value::Number(n) => n.as_f64() != Some(0.0),
        serde_json::Value::String(s) => !s.is_empty(),
        serde_json::Value::Array(a) => !a.is_empty(),
        serde_json::Value::Object(o) => !o.is_empty(),
    }
}

/// Names for seats when none are given: Alice, Bob, Cathy, Donald, Emily, Frank.
pub fn default_names(players: u8) -> Vec<String> {
    ["Alice", "Bob", "Cathy", "Donald", "Emily", "Frank"]
        .iter()
        .cycle()
        .take(players as usize)
        .map(|s| s.to_string())
        .collect()
}

/// How a game-over action (type 4 or 5) ended the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOver {
    /// Index of the action in the export.
    pub index: usize,
    /// The action's `target`: the seat that ended the game, or -1.
    pub target: i64,
    /// hanab.live's end condition (3 timeout, 4 terminated, 6 idle, 8 All or Nothing failed,
    /// 10 terminated by vote), if given.
    pub condition: Option<i64>,
    /// What happened, in words.
    pub text: String,
}

/// What one checked action did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedStep {
    /// The engine's action; `None` for a game-over action.
    pub action: Option<Action>,
    /// In words: "Alice plays r1", "Cathy clues Donald 3 (touches 2 cards)".
    pub text: String,
}

/// A game in progress: the deal, the state, the player names and the deck order of the card in
/// every hand slot.
#[derive(Clone, Debug)]
pub struct Tracker {
    deal: Deal,
    state: State,
    names: Vec<String>,
    /// Deck order of the whole deck's first pile card: players × hand size.
    dealt: usize,
    /// The whole deck, top first.
    deck: Vec<Card>,
    /// `orders[seat][slot]`: the deck order of that card (slots oldest first, as in [`State`]).
    orders: Vec<Vec<u8>>,
    /// Why hanab.live would call the game over, once it is.
    ended: Option<String>,
    game_over: Option<GameOver>,
    /// Actions applied so far, game-over actions included.
    steps: usize,
}

impl Tracker {
    /// The starting position of `deck` (top first, block deal) under `rules`, with one name per
    /// seat. The deck must be exactly the variant's cards.
    pub fn new(rules: Rules, deck: &[Card], names: Vec<String>) -> Result<Tracker, Error> {
        if names.len() != rules.players as usize {
            return Err(Error::Option(format!(
                "{} player names given for {} players",
                names.len(),
                rules.players
            )));
        }
        let h = rules.hand_size as usize;
        let n = rules.players as usize;
        let (deal, state) = Deal::from_deck(rules, deck)?;
        let orders = (0..n)
            .map(|p| (p * h..(p + 1) * h).map(|o| o as u8).collect())
            .collect();
        let mut t = Tracker {
            deal,
            state,
            names,
            dealt: n * h,
            deck: deck.to_vec(),
            orders,
            ended: None,
            game_over: None,
            steps: 0,
        };
        t.ended = t.check_end();
        Ok(t)
    }

    /// The deal: rules and draw pile.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The current position.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// One name per seat.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Deck orders of `seat`'s cards, oldest first (parallel to `state.hand(seat)`).
    pub fn hand_orders(&self, seat: usize) -> &[u8] {
        &self.orders[seat]
    }

    /// The whole deck, top first.
    pub fn deck(&self) -> &[Card] {
        &self.deck
    }

    /// Whether hanab.live would call the game over: by the rules of [`State`], by its own early
    /// end ([`live_end`]), or by a game-over action.
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// The game-over action that ended the game, if one did.
    pub fn game_over(&self) -> Option<&GameOver> {
        self.game_over.as_ref()
    }

    /// The score hanab.live records: the fireworks' total, 0 after the last strike (or a lost
    /// All or Nothing game), and 0 when a game-over action ended the game.
    pub fn score(&self) -> u8 {
        if self.game_over.is_some() {
            0
        } else {
            self.state.score(&self.deal.rules)
        }
    }

    /// Why the game ended, or that it is still going on.
    pub fn end_reason(&self) -> String {
        match (&self.game_over, &self.ended) {
            (Some(g), _) => format!("the game-over action at turn {}: {}", g.index + 1, g.text),
            (None, Some(why)) => why.clone(),
            (None, None) => state::end_reason(&self.deal.rules, &self.state).to_string(),
        }
    }

    fn check_end(&self) -> Option<String> {
        if self.state.is_over() {
            Some(state::end_reason(&self.deal.rules, &self.state).to_string())
        } else {
            live_end(&self.deal, &self.state).map(str::to_string)
        }
    }

    fn name(&self, seat: usize) -> &str {
        &self.names[seat]
    }

    /// Where the card of deck order `order` is, for error messages.
    fn whereabouts(&self, order: usize) -> String {
        for (p, orders) in self.orders.iter().enumerate() {
            if orders.iter().any(|&o| o as usize == order) {
                return format!("it is in {}'s hand", self.name(p));
            }
        }
        if order >= self.dealt + self.state.drawn as usize {
            "it is still in the draw pile".to_string()
        } else {
            "it was already played or discarded".to_string()
        }
    }

    /// Deck order of the pile's top card, if any card is left.
    fn top_order(&self) -> Option<usize> {
        (self.deal.pile_left(&self.state) > 0).then_some(self.dealt + self.state.drawn as usize)
    }

    /// Checks one hanab.live action against the rules and applies it. The error says why the
    /// action is illegal.
    pub fn step(&mut self, a: &ExportAction) -> Result<CheckedStep, String> {
        if let Some(why) = &self.ended {
            return Err(format!("the game is already over ({why})"));
        }
        let (action, given) = match a.kind {
            PLAY | DISCARD => (self.card_action(a)?, None),
            COLOUR_CLUE | RANK_CLUE => {
                let (action, given) = self.clue_action(a)?;
                (action, Some(given))
            }
            GAME_OVER | GAME_OVER_BY_VOTE => return Ok(self.end_by(a)),
            other => return Err(format!("unknown action type {other} (0 to 5 exist)")),
        };
        let seat = self.state.turn as usize;
        let before = self.state;
        let after = before.apply(&self.deal, action)?;
        let text = action_words(&self.deal, &self.names, &before, action, given, &after);
        if let Action::Play(i) | Action::Discard(i) = action {
            debug_assert_eq!(
                self.deck[self.orders[seat][i as usize] as usize],
                before.hand(seat)[i as usize]
            );
            self.orders[seat].remove(i as usize);
        }
        if after.drawn > before.drawn && action != Action::DeckPlay {
            self.orders[seat].push((self.dealt + before.drawn as usize) as u8);
        }
        self.state = after;
        self.ended = self.check_end();
        self.steps += 1;
        Ok(CheckedStep {
            action: Some(action),
            text,
        })
    }

    /// The engine's action for a hanab.live play or discard (`a.target` is the card's deck
    /// order): the slot of the mover's card, or a deck play of the pile's top card.
    fn card_action(&self, a: &ExportAction) -> Result<Action, String> {
        let seat = self.state.turn as usize;
        let deck_size = self.dealt + self.deal.pile.len();
        if let Some(v) = a.value {
            if v != 0 {
                return Err(format!(
                    "a play or discard takes no value, but it has value {v}"
                ));
            }
        }
        let order = usize::try_from(a.target)
            .ok()
            .filter(|&o| o < deck_size)
            .ok_or_else(|| {
                format!(
                    "there is no card {}: the deck has {deck_size} cards",
                    a.target
                )
            })?;
        if let Some(slot) = self.orders[seat].iter().position(|&o| o as usize == order) {
            let slot = slot as u8;
            Ok(if a.kind == PLAY {
                Action::Play(slot)
            } else {
                Action::Discard(slot)
            })
        } else if a.kind == PLAY
            && self.top_order() == Some(order)
            && self.state.can_deck_play(&self.deal)
        {
            Ok(Action::DeckPlay)
        } else {
            let mut why = self.whereabouts(order);
            if a.kind == PLAY && self.top_order() == Some(order) && self.deal.rules.deck_plays {
                why.push_str("; a deck play needs exactly one card left in the pile");
            }
            Err(format!(
                "card {order} is not in {}'s hand ({why})",
                self.name(seat)
            ))
        }
    }

    /// The engine's action for a hanab.live colour or rank clue, and the clue as given: to
    /// another seat, a clue of the variant, with a token to pay for it, touching a card unless
    /// the rules allow empty clues or the clue type may touch nothing in this variant.
    fn clue_action(&self, a: &ExportAction) -> Result<(Action, GivenClue), String> {
        let rules = &self.deal.rules;
        let seat = self.state.turn as usize;
        let target = usize::try_from(a.target)
            .ok()
            .filter(|&t| t < rules.players as usize)
            .ok_or_else(|| {
                format!(
                    "there is no seat {} to clue: the game has {} players",
                    a.target, rules.players
                )
            })?;
        if target == seat {
            return Err(format!("{} cannot clue themselves", self.name(seat)));
        }
        let colour = a.kind == COLOUR_CLUE;
        let kind = if colour { "colour" } else { "rank" };
        let value = a
            .value
            .ok_or_else(|| format!("a {kind} clue needs a value"))?;
        let variant = &rules.variant;
        let clue = clue_of(variant, colour, value)?;
        let touched = clue.touches;
        let touches = move |card: Card| card.kind_bit() & touched != 0;
        let may_touch_nothing = rules.empty_clues || variant.clue_type_is_blind(colour);
        let typed = if !rules.tokens().alternating {
            Action::Clue
        } else if colour {
            Action::ColourClue
        } else {
            Action::RankClue
        };
        if self.state.clues < rules.tokens().clue_cost {
            // The state's own words (a whole token, in Clue Starved).
            return Err(self
                .state
                .apply(&self.deal, typed)
                .err()
                .unwrap_or_default());
        }
        let count = self
            .state
            .hand(target)
            .iter()
            .filter(|&&c| touches(c))
            .count();
        if count == 0 && !may_touch_nothing {
            return Err(format!(
                "the clue touches no card in {}'s hand (empty clues are off)",
                self.name(target)
            ));
        }
        Ok((
            typed,
            GivenClue {
                target: target as u8,
                kind: a.kind,
                value: clue.value,
            },
        ))
    }

    /// Records a game-over action (a player's end of the game, or a vote): the game ends here.
    fn end_by(&mut self, a: &ExportAction) -> CheckedStep {
        let who = usize::try_from(a.target)
            .ok()
            .filter(|&t| t < self.deal.rules.players as usize)
            .map(|t| self.name(t).to_string());
        let text = game_over_text(a.value, who.as_deref());
        self.game_over = Some(GameOver {
            index: self.steps,
            target: a.target,
            condition: a.value,
            text: text.clone(),
        });
        self.ended = Some(text.clone());
        self.steps += 1;
        CheckedStep {
            action: None,
            text: format!("game over: {text}"),
        }
    }

    /// The hanab.live action for an engine action in the current position: a play or discard
    /// targets the slot's card order, a deck play the pile's top card, and a clue becomes a real
    /// clue from [`clue_for`] (with empty clues and no card to touch, a clue to the
    /// next seat).
    pub fn to_export(&self, action: Action) -> Result<ExportAction, String> {
        let seat = self.state.turn as usize;
        match action {
            Action::Play(i) | Action::Discard(i) => {
                let &order = self.orders[seat].get(i as usize).ok_or_else(|| {
                    format!(
                        "{} has {} cards, no slot {i}",
                        self.name(seat),
                        self.orders[seat].len()
                    )
                })?;
                Ok(if matches!(action, Action::Play(_)) {
                    ExportAction::play(order as usize)
                } else {
                    ExportAction::discard(order as usize)
                })
            }
            Action::DeckPlay => self
                .top_order()
                .map(ExportAction::play)
                .ok_or_else(|| "the draw pile is empty".to_string()),
            Action::Clue | Action::ColourClue | Action::RankClue => {
                let rules = &self.deal.rules;
                match clue_of_type(rules, &self.state, seat as u8, action.clue_type()) {
                    Some((target, kind, value)) => {
                        Ok(ExportAction::clue(kind as i64, target, value))
                    }
                    None => Err(
                        "no clue touches a card of another player (empty clues are off)"
                            .to_string(),
                    ),
                }
            }
        }
    }
}

/// The clue of `variant` that hanab.live records as `value` (a colour's index, or a rank clue's
/// value), or why there is none.
fn clue_of(variant: &Variant, colour: bool, value: i64) -> Result<&Clue, String> {
    if colour {
        variant.colour_clue(value).ok_or_else(|| {
            let n = variant.colour_clues().len();
            format!(
                "colour value {value} is out of range: {} has {n} clue colours{}",
                variant.name,
                if n == 0 {
                    String::new()
                } else {
                    format!(" (0 to {})", n - 1)
                }
            )
        })
    } else {
        variant.rank_clue(value).ok_or_else(|| {
            let values: Vec<String> = variant
                .rank_clues()
                .iter()
                .map(|c| c.value.to_string())
                .collect();
            if values.is_empty() {
                format!(
                    "rank value {value} is not a clue: {} has no rank clues",
                    variant.name
                )
            } else {
                format!(
                    "rank value {value} is not a clue: {} has rank clues {}",
                    variant.name,
                    values.join(" ")
                )
            }
        })
    }
}

fn game_over_text(condition: Option<i64>, who: Option<&str>) -> String {
    let who = who.unwrap_or("a player");
    match condition {
        Some(3) => format!("{who} ran out of time"),
        Some(4) => format!("{who} ended the game"),
        Some(6) => "the game was idle for too long".to_string(),
        Some(8) => "a perfect score became impossible (All or Nothing)".to_string(),
        Some(10) => "the players voted to end the game".to_string(),
        Some(c) => format!("the game was ended (end condition {c})"),
        None => "the game was ended".to_string(),
    }
}

/// The most the fireworks can still reach (see [`State::max_reachable_score`]).
pub fn max_achievable(rules: &Rules, state: &State) -> u8 {
    state.max_reachable_score(rules)
}

/// Whether hanab.live ends a game that [`State`] would play on, and why (see
/// [`State::settled`]).
pub fn live_end(deal: &Deal, state: &State) -> Option<&'static str> {
    if state.is_over() {
        return None;
    }
    state.settled(deal)
}

/// One replayed action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    /// Index of the action in the export (0-based).
    pub index: usize,
    /// hanab.live's turn number (1-based).
    pub turn: usize,
    /// Seat whose turn it was.
    pub seat: u8,
    pub player: String,
    /// The engine's action; `None` for a game-over action.
    pub action: Option<Action>,
    /// What happened, in words.
    pub text: String,
}

/// A whole replayed game.
#[derive(Clone, Debug)]
pub struct Replay {
    pub deal: Deal,
    pub names: Vec<String>,
    /// `states[i]` is the position before action `i`; the last is the final position.
    pub states: Vec<State>,
    /// The engine actions in order (game-over actions left out): a line from the first state.
    pub actions: Vec<Action>,
    pub turns: Vec<TurnRecord>,
    /// The score hanab.live records (0 after a strike-out, a lost All or Nothing game or a
    /// game-over action).
    pub score: u8,
    /// The fireworks' total at the end.
    pub fireworks: u8,
    /// Whether the game is over (it is not when an export stops in the middle).
    pub finished: bool,
    /// Why the game ended, or "the game is still going on".
    pub end_reason: String,
    /// The game-over action (type 4 or 5) that ended the game, if any.
    pub game_over: Option<GameOver>,
}

impl Replay {
    pub fn final_state(&self) -> &State {
        self.states.last().expect("a replay has its first state")
    }
}

/// Sets up a game export: rules, deck, names.
pub fn start(game: &GameExport) -> Result<Tracker, Error> {
    let rules = game.rules()?;
    let deck = game.cards(&rules.variant)?;
    Tracker::new(rules, &deck, game.players.clone())
}

/// Replays a whole export, checking every action. An illegal action gives
/// [`Error::Illegal`] with its index.
pub fn replay(game: &GameExport) -> Result<Replay, Error> {
    run(game, game.actions.len())
}

/// The position before action `index` (0-based; hanab.live's turn `index + 1`), with the
/// actions before it checked. `index` may be the number of actions (the final position).
pub fn replay_to(game: &GameExport, index: usize) -> Result<Tracker, Error> {
    if index > game.actions.len() {
        return Err(Error::Option(format!(
            "there is no turn {}: the game's turns are 1 to {}",
            index + 1,
            game.actions.len() + 1
        )));
    }
    let mut t = start(game)?;
    for (i, a) in game.actions[..index].iter().enumerate() {
        step_at(&mut t, a, i)?;
    }
    Ok(t)
}

/// What `seat` knows of each card in its own hand before action `index`, from the clues it was
/// given while holding it: one mask per hand slot (oldest first), bit `kind` set for every card
/// kind the clues leave possible (a touched card matches every clue that touched it, an
/// untouched card none of the clues it was passed over by).
pub fn clue_knowledge(game: &GameExport, index: usize, seat: usize) -> Result<Vec<KindSet>, Error> {
    let mut t = start(game)?;
    if seat >= t.deal.rules.players as usize {
        return Err(Error::Option(format!(
            "there is no seat {} (the game has {} players)",
            seat + 1,
            t.deal.rules.players
        )));
    }
    if index > game.actions.len() {
        return Err(Error::Option(format!(
            "there is no turn {}: the game's turns are 1 to {}",
            index + 1,
            game.actions.len() + 1
        )));
    }
    let variant = t.deal.rules.variant.clone();
    let all = variant.kinds();
    let mut known = vec![all; t.deck.len()];
    for (i, a) in game.actions[..index].iter().enumerate() {
        // The step checks the action (a clue's value among them); a clue changes no hand, so
        // the seat's cards after it are the ones it touched or left out.
        let mover = t.state.turn as usize;
        let step = step_at(&mut t, a, i)?;
        // Where plays are hidden, the seat never sees its own played cards, nor anyone's blind
        // play from the deck: it no longer knows the stacks.
        let unseen_play = match step.action {
            Some(Action::Play(_)) => mover == seat,
            Some(Action::DeckPlay) => true,
            _ => false,
        };
        if unseen_play && variant.plays_hidden() {
            return Err(Error::Option(format!(
                "--view seat: in {} plays are hidden, and {} never saw the card {} played at \
                 turn {}, so its view of the stacks is not known; --view cheat hides the pile \
                 and keeps the hands",
                variant.name,
                t.names[seat],
                t.names[mover],
                i + 1
            )));
        }
        if matches!(a.kind, COLOUR_CLUE | RANK_CLUE) && a.target == seat as i64 {
            let colour = a.kind == COLOUR_CLUE;
            let value = a.value.unwrap_or(0);
            let touched = variant.clue(colour, value).map_or(0, |c| c.touches);
            // What the seat can tell the clue was (Cow & Pig and Duck hide its value): a card
            // touched is one that one of those clues touches, a card left out one that one of
            // them leaves out.
            let seen = variant.clues_seen_as(colour, value);
            let could_touch = seen.iter().fold(0, |set, c| set | c.touches);
            let could_miss = seen.iter().fold(0, |set, c| set | !c.touches);
            for &order in t.hand_orders(seat) {
                let card = t.deck[order as usize];
                known[order as usize] &= if card.kind_bit() & touched != 0 {
                    could_touch
                } else {
                    could_miss
                };
            }
        }
    }
    Ok(t.hand_orders(seat)
        .iter()
        .map(|&o| known[o as usize])
        .collect())
}

fn step_at(t: &mut Tracker, a: &ExportAction, index: usize) -> Result<CheckedStep, Error> {
    t.step(a).map_err(|reason| Error::Illegal { index, reason })
}

fn run(game: &GameExport, limit: usize) -> Result<Replay, Error> {
    let mut t = start(game)?;
    let mut states = vec![t.state];
    let mut actions = Vec::new();
    let mut turns = Vec::new();
    for (index, a) in game.actions[..limit].iter().enumerate() {
        let seat = t.state.turn;
        let step = step_at(&mut t, a, index)?;
        if let Some(action) = step.action {
            actions.push(action);
        }
        states.push(t.state);
        turns.push(TurnRecord {
            index,
            turn: index + 1,
            seat,
            player: t.names[seat as usize].clone(),
            action: step.action,
            text: step.text,
        });
    }
    Ok(Replay {
        score: t.score(),
        fireworks: t.state.stacks[..t.deal.rules.variant.suits.len()]
            .iter()
            .map(|s| s.height())
            .sum(),
        finished: t.is_over(),
        end_reason: t.end_reason(),
        game_over: t.game_over.clone(),
        names: t.names.clone(),
        deal: t.deal,
        states,
        actions,
        turns,
    })
}

/// hanab.live's options for `rules`: the variant name and the flags that differ from the
/// defaults. Rules hanab.live cannot express (research decks, other token or strike counts, a
/// hand size other than the default ±1) are an error.
pub fn live_options(rules: &Rules) -> Result<GameOptions, Error> {
    if rules.variant.id.is_none() {
        return Err(Error::Option(format!(
            "{} is not a hanab.live variant",
            rules.variant.name
        )));
    }
    if rules.max_tokens() != 8 || rules.max_strikes != 3 {
        return Err(Error::Option(format!(
            "hanab.live always has 8 clue tokens and 3 strikes, not {} and {}",
            rules.max_tokens(),
            rules.max_strikes
        )));
    }
    let default = default_hand_size(rules.players);
    let (extra, less) = match rules.hand_size as i32 - default as i32 {
        0 => (false, false),
        1 => (true, false),
        -1 => (false, true),
        _ => {
            return Err(Error::Option(format!(
                "hanab.live can only deal {} to {} cards a hand to {} players, not {}",
                default - 1,
                default + 1,
                rules.players,
                rules.hand_size
            )))
        }
    };
    let flag = |b: bool| b.then_some(true);
    Ok(GameOptions {
        variant: Some(rules.variant.name.clone()),
        deck_plays: flag(rules.deck_plays),
        empty_clues: flag(rules.empty_clues),
        one_extra_card: flag(extra),
        one_less_card: flag(less),
        all_or_nothing: flag(rules.endless),
        starting_player: None,
        other: BTreeMap::new(),
    })
}

/// A game export of `deck` (top first) under `rules`, with these names and actions. The
/// actions are written as given, not checked.
pub fn export(
    rules: &Rules,
    names: &[String],
    deck: &[Card],
    actions: &[ExportAction],
) -> Result<GameExport, Error> {
    if names.len() != rules.players as usize {
        return Err(Error::Option(format!(
            "{} player names given for {} players",
            names.len(),
            rules.players
        )));
    }
    Ok(GameExport {
        id: None,
        players: names.to_vec(),
        deck: deck
            .iter()
            .map(|c| DeckCard {
                suit_index: c.suit() as i64,
                rank: Variant::site_rank(*c) as i64,
            })
            .collect(),
        actions: actions.to_vec(),
        options: Some(live_options(rules)?),
        seed: None,
    })
}

/// A legal clue the player in seat `mover` can give, as (target seat, action type, value): the
/// first clue of the variant (ranks, then colours) that touches a card of the next player who
/// holds a touchable card; failing that, where a clue may touch nothing (empty clues, or a
/// blind clue type), a clue of such a type to the next seat. `None` when no clue is legal.
pub fn clue_for(rules: &Rules, state: &State, mover: u8) -> Option<(u8, u8, u8)> {
    clue_of_type(rules, state, mover, None)
}

/// [`clue_for`] among the clues of one type only: colour clues (`Some(true)`), rank clues
/// (`Some(false)`), or either (`None`). Alternating Clues needs the type the line chose.
pub fn clue_of_type(
    rules: &Rules,
    state: &State,
    mover: u8,
    colour: Option<bool>,
) -> Option<(u8, u8, u8)> {
    first_clue(rules, mover, colour, |seat, touched| {
        state
            .hand(seat)
            .iter()
            .any(|card| card.kind_bit() & touched != 0)
    })
}

/// [`clue_of_type`] where `touches(seat, set)` says whether `seat` holds a card of a kind in
/// `set` (for a position with hidden cards: a known one).
pub fn first_clue(
    rules: &Rules,
    mover: u8,
    colour: Option<bool>,
    touches: impl Fn(usize, KindSet) -> bool,
) -> Option<(u8, u8, u8)> {
    let v = &rules.variant;
    let clues = || {
        let ranks = v.rank_clues().iter().map(|c| (RANK_CLUE as u8, c));
        ranks
            .chain(v.colour_clues().iter().map(|c| (COLOUR_CLUE as u8, c)))
            .filter(move |&(kind, _)| colour.is_none_or(|col| col == (kind as i64 == COLOUR_CLUE)))
    };
    let touching = (1..rules.players)
        .map(|k| (mover + k) % rules.players)
        .find_map(|seat| {
            clues()
                .find(|(_, c)| touches(seat as usize, c.touches))
                .map(|(kind, c)| (seat, kind, c.value))
        });
    touching.or_else(|| {
        let next = (mover + 1) % rules.players;
        clues()
            .find(|&(kind, _)| {
                rules.empty_clues || v.clue_type_is_blind(kind as i64 == COLOUR_CLUE)
            })
            .map(|(kind, c)| (next, kind, c.value))
    })
}

/// Exports a line of engine actions played from the start of `deck` (top first, block deal):
/// each action is checked and becomes a hanab.live action ([`Tracker::to_export`]). If hanab.live
/// would end the game before the line does ([`live_end`]), the rest of the line is left out: it
/// cannot change the score. If the game is still going on after the line, a game-over action
/// (type 4, "terminated") by the player to move is appended; a game that ends by itself gets
/// none. An illegal action is an [`Error::Illegal`] with its index in `line`.
pub fn export_line(
    deck: &[Card],
    rules: &Rules,
    names: &[String],
    line: &[Action],
) -> Result<GameExport, Error> {
    let mut t = Tracker::new(rules.clone(), deck, names.to_vec())?;
    let mut out = Vec::with_capacity(line.len() + 1);
    for (index, &action) in line.iter().enumerate() {
        if t.is_over() {
            if t.state.is_over() {
                return Err(Error::Illegal {
                    index,
                    reason: format!("the game is already over ({})", t.end_reason()),
                });
            }
            break;
        }
        let a = t
            .to_export(action)
            .map_err(|reason| Error::Illegal { index, reason })?;
        t.step(&a)
            .map_err(|reason| Error::Illegal { index, reason })?;
        out.push(a);
    }
    if !t.is_over() {
        out.push(ExportAction::game_over(t.state.turn, TERMINATED));
    }
    export(rules, names, deck, &out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_player_game() -> (Rules, Vec<Card>) {
        let rules = Rules::new(Variant::no_variant(), 2, &Options::default()).unwrap();
        let deck = rules.variant.deck();
        (rules, deck)
    }

    #[test]
    fn orders_follow_draws() {
        let (rules, deck) = two_player_game();
        let mut t = Tracker::new(rules, &deck, default_names(2)).unwrap();
        assert_eq!(t.hand_orders(0), &[0, 1, 2, 3, 4]);
        // Alice plays r1 (order 0) and draws order 10.
        t.step(&ExportAction::play(0)).unwrap();
        assert_eq!(t.hand_orders(0), &[1, 2, 3, 4, 10]);
        assert_eq!(t.deck(), deck);
    }

    #[test]
    fn clue_for_touches_a_card() {
        let (rules, deck) = two_player_game();
        let t = Tracker::new(rules.clone(), &deck, default_names(2)).unwrap();
        let (seat, kind, value) = clue_for(&rules, t.state(), 0).unwrap();
        assert_eq!((seat, kind as i64), (1, RANK_CLUE));
        assert!(t.state().hand(1).iter().any(|c| c.rank() == value));
    }

    #[test]
    fn options_round_trip() {
        let opts = Options {
            hand_size: Some(6),
            deck_plays: true,
            endless: true,
            ..Options::default()
        };
        let rules = Rules::new(Variant::parse("black").unwrap(), 3, &opts).unwrap();
        let game = export(&rules, &default_names(3), &rules.variant.deck(), &[]).unwrap();
        let back = read(&to_json(&game)).unwrap();
        assert_eq!(back.rules().unwrap(), rules);
        let bad = Rules::new(
            Variant::no_variant(),
            3,
            &Options {
                hand_size: Some(7),
                ..Options::default()
            },
        )
        .unwrap();
        assert!(live_options(&bad).is_err());
    }
}
