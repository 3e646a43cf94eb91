//! The answer for a position with every card known: the maximum score, an optimal line in
//! words, and what the search cost. It serializes as `solve --json` prints it and reads as
//! `solve` prints it.
//!
//! The serialized fields are declared in alphabetical order, the order the command has always
//! printed its keys in (they were once gathered in a sorted map); a test holds them to it.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::game::card::Card;
use crate::game::rules::{score_words, Rules};
use crate::line::{describe_game, newest_first, Step};
use crate::search::reason::LossReason;
use crate::search::Solution;
use crate::state::{Action, NOT_FINAL};

use super::loss::{lost_cards, lost_words, LostCard};
use super::problem::Problem;
use super::AnalysisError;
use crate::sat::proof::Certificate;

/// What the search found for a problem, checked against the rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveReport {
    /// What was solved ([`Problem::label`]).
    pub deal: String,
    /// The whole deck, top first, when the position is the start of a deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    pub endless: bool,
    /// The line found, each action replayed through the rules; turns are numbered from the
    /// problem's first turn.
    pub line: Vec<Step>,
    /// The cards still needed whose every copy is gone, for a position where some are: each
    /// named, with the turn that lost its last copy where the game's history is known.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lost_cards: Vec<LostCard>,
    pub lower_bound: u8,
    /// The best final score: exact when `proven`, otherwise the lower bound.
    pub max_score: u8,
    pub names: Vec<String>,
    pub nodes: u64,
    pub perfect_score: u8,
    pub players: u8,
    /// The position solved, for a game in progress or a point of a game export.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<PositionReport>,
    /// False when a limit stopped the search before the bounds met.
    pub proven: bool,
    /// For a position proven not winnable: the first test that rules the perfect score out,
    /// when one was found in time.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "reason_name"
    )]
    pub reason: Option<LossReason>,
    /// The rule book's words for the maximum score.
    pub score_words: &'static str,
    pub seconds: f64,
    /// The hanab.live seed of the deal, when there is one (a seed solved, or a game export that
    /// names its seed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    pub table_entries: usize,
    /// The SAT solver settled what the search left open (see [`crate::portfolio`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_sat: bool,
    /// With `--certify`, for an upper bound below the perfect score: the checked proof that no
    /// line goes above it ([`crate::sat::proof`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Certificate>,
    pub upper_bound: u8,
    pub variant: String,
    /// hanab.live's id of the variant (none for research decks).
    pub variant_id: Option<u32>,
    /// Winnable, proven not, or left open by a limit (`null`).
    pub winnable: Option<bool>,
    /// The line as actions, to export it or write a position of it.
    #[serde(skip)]
    pub actions: Vec<Action>,
    /// What the text says of the rules besides the JSON's fields.
    #[serde(skip)]
    pub rules: Rules,
    /// The position in words, for a game in progress (the text shows it; the JSON has
    /// `position`).
    #[serde(skip)]
    pub position_words: Option<Vec<String>>,
}

/// A position solved, as the report shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionReport {
    pub clues: ClueTokens,
    /// Turns left in the final round (`null` before it).
    pub final_turns: Option<u8>,
    /// One hand per seat, as hanab.live shows it: the newest card (slot 1) first.
    pub hands: Vec<Vec<String>>,
    /// The draw pile, top first.
    pub pile: Vec<String>,
    pub score: u8,
    /// The height of each firework, in suit order.
    pub stacks: Vec<u8>,
    pub strikes: u8,
    pub to_move: String,
    /// The turn number of the position (1 at the start of a game).
    pub turn: usize,
}

/// Clue tokens as a number: whole, or with a half in Clue Starved.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ClueTokens {
    Whole(u8),
    Half(f64),
}

impl ClueTokens {
    /// `units` of the variant's clue tokens.
    pub fn of(rules: &Rules, units: u8) -> ClueTokens {
        let scale = rules.tokens().scale;
        if units.is_multiple_of(scale) {
            ClueTokens::Whole(units / scale)
        } else {
            ClueTokens::Half(f64::from(units) / f64::from(scale))
        }
    }
}

fn reason_name<S: Serializer>(reason: &Option<LossReason>, s: S) -> Result<S::Ok, S::Error> {
    reason.map(LossReason::name).serialize(s)
}

impl SolveReport {
    /// The report of `solution` for `problem`, whose line is replayed through the rules and
    /// must reach the score the search claims. `reason` is why the perfect score is out of
    /// reach, for a problem proven not winnable ([`super::loss_reason`]).
    pub fn new(
        problem: &Problem,
        solution: &Solution,
        reason: Option<LossReason>,
    ) -> Result<SolveReport, AnalysisError> {
        let (deal, state, names) = (&problem.deal, &problem.state, &problem.names);
        let rules = &deal.rules;
        let v = &rules.variant;
        let (mut steps, end) = describe_game(deal, state, &solution.line, names, problem.tracker())
            .map_err(|(i, e)| {
                AnalysisError::Internal(format!("line action {i} is illegal: {e}"))
            })?;
        if end.score(rules) != solution.lower_bound {
            return Err(AnalysisError::Internal(format!(
                "the line scores {} but the search claims {}",
                end.score(rules),
                solution.lower_bound
            )));
        }
        for s in &mut steps {
            s.turn += problem.first_turn - 1;
        }
        let cards = |cs: &[Card]| cs.iter().map(|&c| v.card_name(c)).collect::<Vec<_>>();
        let position = (problem.in_progress || problem.game.is_some()).then(|| PositionReport {
            clues: ClueTokens::of(rules, state.clues),
            final_turns: (state.final_turns != NOT_FINAL).then_some(state.final_turns),
            hands: (0..names.len())
                .map(|i| newest_first(&cards(state.hand(i))))
                .collect(),
            pile: cards(&deal.pile[state.drawn as usize..]),
            score: state.score(rules),
            stacks: state.heights()[..v.suits.len()].to_vec(),
            strikes: state.strikes,
            to_move: names[state.turn as usize].clone(),
            turn: problem.first_turn,
        });
        Ok(SolveReport {
            deal: problem.label.clone(),
            deck: problem.deck.as_deref().map(cards),
            endless: rules.endless,
            line: steps,
            lost_cards: lost_cards(&problem.deal, &problem.history()?),
            lower_bound: solution.lower_bound,
            max_score: solution.max_score,
            names: names.clone(),
            nodes: solution.nodes,
            perfect_score: solution.perfect_score,
            players: rules.players,
            position,
            proven: solution.proven,
            reason,
            score_words: score_words(solution.max_score, solution.perfect_score),
            seconds: solution.seconds,
            seed: problem.seed.clone(),
            table_entries: solution.table_entries,
            by_sat: false,
            certificate: None,
            upper_bound: solution.upper_bound,
            variant: v.name.clone(),
            variant_id: v.id,
            winnable: solution.verdict(),
            actions: solution.line.clone(),
            rules: rules.clone(),
            position_words: problem.in_progress.then(|| position_words(problem)),
        })
    }
}

/// The position of a game in progress in words: who is to move, fireworks, tokens, strikes,
/// the pile, then each hand as hanab.live shows it (slot 1, the newest card, first).
fn position_words(p: &Problem) -> Vec<String> {
    let rules = &p.deal.rules;
    let v = &rules.variant;
    let s = &p.state;
    let mut out = Vec::new();
    let stacks: Vec<String> = (0..v.suits.len())
        .map(|i| v.stack_name(i as u8, s.stacks[i]))
        .collect();
    let left = p.deal.pile_left(s);
    let round = if s.final_turns != NOT_FINAL {
        format!(
            ", final round: {} turn{} left",
            s.final_turns,
            if s.final_turns == 1 { "" } else { "s" }
        )
    } else {
        String::new()
    };
    let count = |n: u8, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let tokens_words = |rules: &Rules, units: u8| {
        let text = rules.tokens().text(units);
        format!("{text} clue{}", if text == "1" { "" } else { "s" })
    };
    out.push(format!(
        "Position: {} to move; fireworks {} (score {}); {}, {}; {} in the deck{round}",
        p.names[s.turn as usize],
        stacks.join(" "),
        s.score(rules),
        tokens_words(rules, s.clues),
        count(s.strikes, "strike"),
        count(left, "card"),
    ));
    for (seat, name) in p.names.iter().enumerate() {
        let hand: Vec<String> = s.hand(seat).iter().rev().map(|&c| v.card_name(c)).collect();
        out.push(format!("  {name}: {}", hand.join(" ")));
    }
    out
}

/// The report as `solve` prints it, one line after another (no newline after the last).
impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = &self.rules;
        let perfect = self.perfect_score;
        write!(
            f,
            "Deal: {}, {} players, {} (hand size {}, {} clues, {} strikes{})",
            self.deal,
            rules.players,
            rules.variant.name,
            rules.hand_size,
            rules.max_tokens(),
            rules.max_strikes,
            if rules.endless { ", endless" } else { "" }
        )?;
        for line in self.position_words.iter().flatten() {
            write!(f, "\n{line}")?;
        }
        if self.proven {
            let verdict = if self.lower_bound == perfect {
                "winnable"
            } else if rules.endless {
                "not winnable: every line loses"
            } else {
                "not winnable"
            };
            write!(
                f,
                "\nMaximum score: {} of {perfect}: {verdict} ({})",
                self.max_score, self.score_words
            )?;
            if !self.lost_cards.is_empty() && self.max_score < perfect {
                write!(
                    f,
                    "\nWhy {perfect} is out of reach: {}.",
                    lost_words(&self.lost_cards)
                )?;
            } else if let Some(r) = self.reason {
                write!(f, "\nWhy {perfect} is out of reach: {}.", r.describe())?;
            }
        } else {
            write!(
                f,
                "\nNot proven (a limit stopped the search): the maximum score is at least {} and at most {} of {perfect}",
                self.lower_bound, self.upper_bound
            )?;
        }
        if self.by_sat {
            write!(
                f,
                "\nSettled by the SAT solver beside the search (its line replayed through the rules)."
            )?;
        }
        if let Some(c) = &self.certificate {
            write!(f, "\n{}", c.words())?;
        }
        let what = if self.proven {
            "An optimal line"
        } else {
            "The best line found"
        };
        // The line was checked to reach the lower bound.
        write!(
            f,
            "\n{what} ({} turns, reaching {}):",
            self.line.len(),
            self.lower_bound
        )?;
        for s in &self.line {
            write!(f, "\n  {:>3}. {}", s.turn, s.text)?;
        }
        write!(
            f,
            "\nSearched {} positions in {:.3} s ({} table entries).",
            self.nodes, self.seconds, self.table_entries
        )
    }
}
