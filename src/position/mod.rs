//! Endgame positions: a game caught in the middle, possibly with cards nobody has seen.
//!
//! A position is read in two steps. [`text::parse`] turns a `.hanabi` file into a
//! [`PositionFile`]: plain data, every card an `Option<Card>` (`None` is a `?`, a card not
//! known), what each holder knows of its hidden hand cards ([`PositionFile::hints`], from `r?`,
//! `?1` or `?{r1,r3}`), with the line each part came from. [`Position::new`] then checks what the file means
//! (card counts, hand sizes, tokens, whose turn, the final round) and gives a [`Position`]; when
//! no card is hidden, [`Position::open`] turns it into the [`Deal`] and [`State`] the solver
//! takes. A later hidden-card mode fills the `?` from [`Position::unseen`] with
//! [`Position::fill`].
//!
//! [`text::to_text`] writes a position back, so any state of a game (an optimal line, a
//! hanab.live replay) can be saved as a file.
//!
//! Every fault is an [`Error::Position`] naming its line; a file is checked as a whole and all
//! its faults are reported together ([`Faults`]).

mod check;
pub mod text;

use std::fmt;

use crate::error::{escape_controls, Error};
use crate::game::card::{Card, KindSet, KINDS};
use crate::game::play::Stack;
use crate::game::rules::{default_hand_size, Rules};
use crate::game::variant::Variant;
use crate::state::{Deal, State, NOT_FINAL};

pub use text::{hand_card_text, parse, parse_hand_card, to_text};

/// A position file as written: plain data, nothing checked beyond the syntax.
///
/// Hands are oldest card first (the order of [`State::hand`]); the deck is the draw pile, top
/// first. Optional keys are `None` when the file leaves them out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionFile {
    pub variant: Variant,
    /// One name per seat, seat 0 first.
    pub names: Vec<String>,
    pub hand_size: Option<u8>,
    /// Clue tokens available now, in the variant's units (half tokens in Clue Starved, see
    /// [`crate::game::tokens::TokenRules`]).
    pub clues: u8,
    /// Clue tokens when all are available (8 when `None`), in whole tokens.
    pub max_clues: Option<u8>,
    /// In Alternating Clues, the type of the last clue given (`Some(true)` colour, `Some(false)`
    /// rank); `None` before any clue.
    pub last_clue: Option<bool>,
    /// Strikes taken so far.
    pub strikes: u8,
    /// Strikes that end the game (3 when `None`).
    pub max_strikes: Option<u8>,
    /// Each firework, in the variant's suit order.
    pub stacks: Vec<Stack>,
    /// Cards discarded or misplayed so far.
    pub discards: Vec<Card>,
    /// One hand per seat, oldest card first; `None` is a card not known.
    pub hands: Vec<Vec<Option<Card>>>,
    /// For each hand card (as `hands`), the kinds its holder knows it may be: [`ALL_KINDS`]
    /// when the file does not narrow it (a known card, or `?`), else the kinds of the deck that
    /// `r?`, `?1` or `?{r1,r3}` allow (never all of them). A missing entry is [`ALL_KINDS`].
    pub hints: Vec<Vec<KindSet>>,
    /// The draw pile, top first; `None` is a card not known.
    pub deck: Vec<Option<Card>>,
    /// Seat to move.
    pub turn: u8,
    /// Turns left in the final round (only once the pile is empty, outside endless mode).
    pub final_turns: Option<u8>,
    pub endless: bool,
    pub empty_clues: bool,
    pub deck_plays: bool,
    /// Where each part was written.
    pub lines: Lines,
}

/// The line (1-based) each key of a [`PositionFile`] came from; 0 for a part the file left out
/// or that did not come from a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    pub variant: usize,
    pub players: usize,
    pub hand_size: usize,
    pub clues: usize,
    pub max_clues: usize,
    pub last_clue: usize,
    pub strikes: usize,
    pub max_strikes: usize,
    pub stacks: usize,
    pub discards: usize,
    /// One per seat.
    pub hands: Vec<usize>,
    pub deck: usize,
    pub turn: usize,
    pub final_turns: usize,
    pub endless: usize,
    pub empty_clues: usize,
    pub deck_plays: usize,
    /// The file's last line, named by faults about keys that are missing.
    pub last: usize,
}

/// Every fault found in a position file, in line order; never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Faults(pub Vec<Error>);

impl Faults {
    /// The first fault.
    pub fn first(&self) -> &Error {
        &self.0[0]
    }

    /// The line of each fault, in order.
    pub fn lines(&self) -> Vec<usize> {
        self.0
            .iter()
            .map(|e| match e {
                Error::Position { line, .. } => *line,
                _ => 0,
            })
            .collect()
    }

    fn sorted(mut faults: Vec<Error>) -> Faults {
        debug_assert!(!faults.is_empty());
        faults.sort_by_key(|e| match e {
            Error::Position { line, .. } => *line,
            _ => 0,
        });
        Faults(faults)
    }
}

/// Faults a message lists before it only counts the rest: a file with thousands of faults
/// still gives a line a reader can take in.
const FAULTS_LISTED: usize = 5;

impl fmt::Display for Faults {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().take(FAULTS_LISTED).enumerate() {
            if i > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{e}")?;
        }
        let more = self.0.len().saturating_sub(FAULTS_LISTED);
        if more > 0 {
            write!(
                f,
                "; and {more} more fault{} ({} in all)",
                if more == 1 { "" } else { "s" },
                self.0.len()
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Faults {}

impl From<Faults> for Error {
    /// The first fault.
    fn from(f: Faults) -> Error {
        f.0.into_iter().next().expect("faults are never empty")
    }
}

/// "1 card is" / "3 cards are" (verbs empty: "1 card" / "3 cards").
fn cards(n: usize, one: &str, many: &str) -> String {
    let (noun, verb) = if n == 1 {
        ("card", one)
    } else {
        ("cards", many)
    };
    if verb.is_empty() {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun} {verb}")
    }
}

/// A fault of `line`. Text of the file quoted in `message` may hold control characters (a lone
/// carriage return, a form feed): they are escaped so that the message stays on one line.
fn fault(line: usize, message: impl Into<String>) -> Error {
    Error::Position {
        line,
        message: escape_controls(&message.into()),
    }
}

/// A hint that allows every card kind.
pub const ALL_KINDS: KindSet = KindSet::MAX;

/// A checked position: the rules, and every card where it is, known or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub rules: Rules,
    pub names: Vec<String>,
    /// One hand per seat, oldest card first; `None` is a card not known.
    pub hands: Vec<Vec<Option<Card>>>,
    /// The draw pile, top first; `None` is a card not known.
    pub pile: Vec<Option<Card>>,
    /// Each firework, in suit order.
    pub stacks: Vec<Stack>,
    pub discards: Vec<Card>,
    /// Clue tokens available, in the variant's units.
    pub clues: u8,
    /// The last clue's type in Alternating Clues (see [`PositionFile::last_clue`]).
    pub last_clue: Option<bool>,
    pub strikes: u8,
    pub turn: u8,
    /// Turns left in the final round, or [`NOT_FINAL`].
    pub final_turns: u8,
    /// Line of the first `?`, for messages (0 when nothing is hidden).
    hidden_line: usize,
    /// For each hand card, a mask of the card kinds it may be (bit `kind`): what its holder
    /// knows of it, from the file ([`PositionFile::hints`]: `r?`, `?1`, `?{r1,r3}`) or from
    /// clues ([`Position::hide_hand`]). [`ALL_KINDS`] for a card not narrowed; it only matters
    /// for hidden cards.
    pub hints: Vec<Vec<KindSet>>,
}

impl Position {
    /// Checks what a file means; every fault found is reported with its line.
    pub fn new(file: &PositionFile) -> Result<Position, Faults> {
        let faults = check::shape(file);
        if !faults.is_empty() {
            return Err(Faults::sorted(faults));
        }
        let mut faults = Vec::new();
        let rules = check::rules(file, &mut faults);
        let v = &file.variant;
        let players = file.names.len();
        let hand_size = file
            .hand_size
            .unwrap_or_else(|| default_hand_size(players as u8));
        let tokens = v.tokens();
        // An out-of-range max-clues is a fault above; saturating keeps this check quiet then.
        let max_clues = file.max_clues.unwrap_or(8).saturating_mul(tokens.scale);
        let max_strikes = file.max_strikes.unwrap_or(3);

        check::limits(
            file,
            (hand_size, max_clues, max_strikes),
            &tokens,
            &mut faults,
        );
        let (seen, hidden_line) = check::copies(file, &mut faults);
        let final_turns = check::final_turns(file, &mut faults);
        check::not_over(file, &tokens, &mut faults);
        let hints = check::hand_hints(file);
        check::hints_fit(file, &hints, &seen, &mut faults);
        if !faults.is_empty() {
            return Err(Faults::sorted(faults));
        }
        Ok(Position {
            rules: rules.expect("no fault, so the rules are built"),
            names: file.names.clone(),
            hands: file.hands.clone(),
            pile: file.deck.clone(),
            stacks: file.stacks.clone(),
            discards: file.discards.clone(),
            clues: file.clues,
            last_clue: file.last_clue,
            strikes: file.strikes,
            turn: file.turn,
            final_turns,
            hidden_line,
            hints,
        })
    }

    /// Hides `seat`'s hand, each card narrowed to the kinds in `masks` (one per slot, oldest
    /// first, as [`crate::hanablive::clue_knowledge`] gives them).
    pub fn hide_hand(&mut self, seat: usize, masks: &[KindSet]) {
        for (slot, c) in self.hands[seat].iter_mut().enumerate() {
            *c = None;
            self.hints[seat][slot] = masks.get(slot).copied().unwrap_or(ALL_KINDS);
        }
    }

    /// The hint of each hidden hand card, in the order [`Position::fill`] takes the cards
    /// (hands in seat order, oldest card first).
    pub fn hidden_hand_hints(&self) -> Vec<KindSet> {
        self.hands
            .iter()
            .zip(&self.hints)
            .flat_map(|(hand, hints)| {
                hand.iter()
                    .zip(hints)
                    .filter(|(c, _)| c.is_none())
                    .map(|(_, &h)| h)
            })
            .collect()
    }

    /// Whether any hidden hand card is narrowed by a hint.
    pub fn has_hints(&self) -> bool {
        let all: KindSet = self
            .rules
            .variant
            .deck()
            .iter()
            .fold(0, |m, c| m | 1 << c.kind());
        self.hands.iter().zip(&self.hints).any(|(hand, hints)| {
            hand.iter()
                .zip(hints)
                .any(|(c, &h)| c.is_none() && h & all != all)
        })
    }

    /// How many cards are not known (`?`).
    pub fn hidden(&self) -> usize {
        self.hands
            .iter()
            .flatten()
            .chain(&self.pile)
            .filter(|c| c.is_none())
            .count()
    }

    /// The cards the `?` stand for, as a sorted multiset: the variant's deck minus the
    /// fireworks, the discards and every known card.
    pub fn unseen(&self) -> Vec<Card> {
        let v = &self.rules.variant;
        let mut left = [0u8; KINDS];
        for c in v.deck() {
            left[c.kind()] += 1;
        }
        let played = self
            .stacks
            .iter()
            .enumerate()
            .flat_map(|(s, &stack)| v.play_order().cards_on(s as u8, stack));
        let known = self.hands.iter().flatten().chain(&self.pile).flatten();
        for c in played
            .chain(self.discards.iter().copied())
            .chain(known.copied())
        {
            left[c.kind()] = left[c.kind()].saturating_sub(1);
        }
        v.deck()
            .into_iter()
            .filter(|c| {
                let k = c.kind();
                if left[k] > 0 {
                    left[k] -= 1;
                    true
                } else {
                    false
                }
            })
            .collect()
    }

    /// The deal and state with the `?` filled by `cards`, in order: hands in seat order (oldest
    /// card first), then the deck from the top. `cards` must be a reordering of
    /// [`Position::unseen`].
    pub fn fill(&self, cards: &[Card]) -> Result<(Deal, State), Error> {
        let mut want = self.unseen();
        let mut got = cards.to_vec();
        want.sort_unstable();
        got.sort_unstable();
        if want != got {
            return Err(fault(
                self.hidden_line,
                format!(
                    "the {} hidden cards are not the {} cards left unseen",
                    cards.len(),
                    want.len()
                ),
            ));
        }
        let mut fill = cards.iter().copied();
        let mut next = |c: &Option<Card>| c.unwrap_or_else(|| fill.next().expect("counted"));
        let mut state = State::empty();
        for (p, hand) in self.hands.iter().enumerate() {
            for c in hand {
                state.push(p, next(c));
            }
        }
        let pile: Vec<Card> = self.pile.iter().map(&mut next).collect();
        for (s, &stack) in self.stacks.iter().enumerate() {
            state.stacks[s] = stack;
        }
        for &c in &self.discards {
            state.add_lost(c, 1);
        }
        state.clues = self.clues;
        state.last_clue = self.last_clue;
        state.strikes = self.strikes;
        state.turn = self.turn;
        state.final_turns = self.final_turns;
        Ok((Deal::with_pile(self.rules.clone(), pile), state))
    }

    /// Hides every card of the draw pile (as `?`): the view of players who see every hand.
    pub fn hide_pile(&mut self) {
        for c in &mut self.pile {
            *c = None;
        }
    }

    /// The deal and state when every card is known; a position with `?` is an error that says
    /// how many cards are hidden.
    pub fn open(&self) -> Result<(Deal, State), Error> {
        let hidden = self.hidden();
        if hidden > 0 {
            return Err(fault(
                self.hidden_line,
                format!(
                    "{hidden} card{} hidden (`?`); the perfect-information solver needs every card known",
                    if hidden == 1 { " is" } else { "s are" }
                ),
            ));
        }
        self.fill(&[])
    }
}

/// Hidden hand cards matched to the unseen cards one at a time (Kuhn's augmenting paths, a
/// card kind taking as many cards as it has unseen copies): whether every card added so far
/// can be some card its hint allows, no unseen copy given twice.
struct HintFit {
    /// Unseen copies of each kind.
    left: [u8; KINDS],
    /// Copies of each kind given to a card.
    used: [u8; KINDS],
    /// Each card's hint and the kind it is given.
    cards: Vec<(KindSet, usize)>,
}

impl HintFit {
    fn new(left: [u8; KINDS]) -> HintFit {
        HintFit {
            left,
            used: [0; KINDS],
            cards: Vec::new(),
        }
    }

    /// Adds a card narrowed to `hint`; false (and the card left out) when no matching fits it.
    fn add(&mut self, hint: KindSet) -> bool {
        self.cards.push((hint, KINDS));
        let i = self.cards.len() - 1;
        if self.augment(i, &mut 0) {
            true
        } else {
            self.cards.pop();
            false
        }
    }

    /// Gives card `i` a kind, moving other cards along a path of kinds not yet `visited`.
    fn augment(&mut self, i: usize, visited: &mut KindSet) -> bool {
        let hint = self.cards[i].0;
        for k in 0..KINDS {
            if hint & 1 << k == 0 || self.left[k] == 0 || *visited & 1 << k != 0 {
                continue;
            }
            *visited |= 1 << k;
            let free = self.used[k] < self.left[k];
            let moved = free
                || (0..self.cards.len())
                    .any(|j| j != i && self.cards[j].1 == k && self.augment(j, visited));
            if moved {
                let old = self.cards[i].1;
                if old < KINDS {
                    self.used[old] -= 1;
                }
                self.used[k] += 1;
                self.cards[i].1 = k;
                return true;
            }
        }
        false
    }
}

/// The text of the position file for `state` of `deal` ([`PositionFile::from_state`]).
pub fn write(deal: &Deal, state: &State, names: &[String]) -> String {
    to_text(&PositionFile::from_state(deal, state, names))
}

/// Reads and checks a whole position file in one step.
pub fn read(text: &str) -> Result<Position, Faults> {
    Position::new(&parse(text)?)
}

impl PositionFile {
    /// The file of a checked position, hidden cards and what their holders know of them
    /// included (a position a view made, say): [`to_text`] writes it, and [`read`] reads it
    /// back to the same position.
    pub fn from_position(position: &Position) -> PositionFile {
        let rules = &position.rules;
        let v = &rules.variant;
        let hints = position
            .hands
            .iter()
            .zip(&position.hints)
            .map(|(hand, hints)| {
                hand.iter()
                    .enumerate()
                    .map(|(slot, c)| match c {
                        Some(_) => ALL_KINDS,
                        None => text::normal_hint(v, hints.get(slot).copied().unwrap_or(ALL_KINDS)),
                    })
                    .collect()
            })
            .collect();
        PositionFile {
            variant: v.clone(),
            names: position.names.clone(),
            hand_size: (rules.hand_size != default_hand_size(rules.players))
                .then_some(rules.hand_size),
            clues: position.clues,
            max_clues: (rules.max_tokens() != 8).then_some(rules.max_tokens()),
            last_clue: position.last_clue,
            strikes: position.strikes,
            max_strikes: (rules.max_strikes != 3).then_some(rules.max_strikes),
            stacks: position.stacks.clone(),
            discards: position.discards.clone(),
            hands: position.hands.clone(),
            hints,
            deck: position.pile.clone(),
            turn: position.turn,
            final_turns: (position.final_turns != NOT_FINAL && !rules.endless)
                .then_some(position.final_turns),
            endless: rules.endless,
            empty_clues: rules.empty_clues,
            deck_plays: rules.deck_plays,
            lines: Lines::default(),
        }
    }

    /// The file that describes `state` of `deal`: the cards still in the pile become the deck,
    /// every card is known. `names` gives one name per seat, changed where needed so that the
    /// file reads back: whitespace, `:`, `#` and `,` become `_`, a name that cannot be one
    /// (empty, `?`, all digits) becomes `seat{p}`, and a name already taken gets `_` appended.
    pub fn from_state(deal: &Deal, state: &State, names: &[String]) -> PositionFile {
        let rules = &deal.rules;
        let v = &rules.variant;
        let n = rules.players as usize;
        let mut taken: Vec<String> = Vec::with_capacity(n);
        for p in 0..n {
            let name = names
                .get(p)
                .cloned()
                .unwrap_or_else(|| crate::game::rules::DEFAULT_NAMES[p].to_string());
            let clean: String = name
                .chars()
                .map(|c| {
                    if c.is_whitespace() || c == ':' || c == '#' || c == ',' {
                        '_'
                    } else {
                        c
                    }
                })
                .collect();
            let mut name = if clean == "?" || clean.chars().all(|c| c.is_ascii_digit()) {
                format!("seat{p}")
            } else {
                clean
            };
            while taken.contains(&name) {
                name.push('_');
            }
            taken.push(name);
        }
        let names = taken;
        let mut discards = Vec::new();
        for c in v.deck() {
            let lost = state.lost(c) as usize;
            if discards.iter().filter(|&&d| d == c).count() < lost {
                discards.push(c);
            }
        }
        PositionFile {
            variant: v.clone(),
            names,
            hand_size: (rules.hand_size != default_hand_size(rules.players))
                .then_some(rules.hand_size),
            clues: state.clues,
            max_clues: (rules.max_tokens() != 8).then_some(rules.max_tokens()),
            last_clue: state.last_clue,
            strikes: state.strikes,
            max_strikes: (rules.max_strikes != 3).then_some(rules.max_strikes),
            stacks: state.stacks[..v.suits.len()].to_vec(),
            discards,
            hands: (0..n)
                .map(|p| state.hand(p).iter().map(|&c| Some(c)).collect())
                .collect(),
            hints: (0..n)
                .map(|p| vec![ALL_KINDS; state.hand(p).len()])
                .collect(),
            deck: deal.pile[state.drawn as usize..]
                .iter()
                .map(|&c| Some(c))
                .collect(),
            turn: state.turn,
            final_turns: (state.final_turns != NOT_FINAL && !rules.endless)
                .then_some(state.final_turns),
            endless: rules.endless,
            empty_clues: rules.empty_clues,
            deck_plays: rules.deck_plays,
            lines: Lines::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Options;

    fn one_line(e: &impl fmt::Display) {
        let text = e.to_string();
        assert!(
            !text.contains(['\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}']),
            "{text:?}"
        );
    }

    /// Found by tests/fuzz.rs: a file with old Mac line ends (lone CRs) is one line to the
    /// parser, and its fault quoted that line, CRs and all.
    #[test]
    fn faults_quoting_control_characters_are_one_line() {
        let text = "variant: no-variant\rplayers: Alice Bob\rclues: 8\rstrikes: 0\r";
        let faults = read(text).unwrap_err();
        one_line(&faults);
        assert!(
            faults.to_string().contains("no-variant\\rplayers"),
            "{faults}"
        );
        one_line(&read("clues: 1\r2\nvariant: black\u{2028}\n\u{feff}turn: x").unwrap_err());
    }

    /// Found by tests/fuzz.rs: a game export whose players share a name (or have names a
    /// position file cannot hold) gave position files that did not read back, so `solve
    /// GAME.json --write-position` wrote files it then refused.
    #[test]
    fn positions_of_games_with_odd_names_read_back() {
        let rules = Rules::new(Variant::no_variant(), 5, &Options::default()).unwrap();
        let (deal, state) = Deal::from_deck(rules, &Variant::no_variant().deck()).unwrap();
        for names in [
            ["Alice", "Alice", "Bob", "Cathy", "Donald"],
            ["123", "seat0", "?", "", "a b"],
            ["a_b", "a b", "a:b", "a#b", "a,b"],
        ] {
            let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
            let text = write(&deal, &state, &names);
            let pos = read(&text).unwrap_or_else(|f| panic!("{f}: {text}"));
            assert_eq!(pos.open().unwrap().1, state);
        }
        let names = ["Alice", "Alice", "Bob", "Cathy", "Donald"].map(String::from);
        let file = PositionFile::from_state(&deal, &state, &names);
        assert_eq!(file.names, ["Alice", "Alice_", "Bob", "Cathy", "Donald"]);
    }
}
