//! The chance to win from a position of a real game where the players see every hand but not
//! the draw pile: for the action taken and for the best one. Exact over every order of the
//! hidden pile where that is small enough ([`crate::hidden::exact()`]); otherwise estimated from
//! sampled piles, each solved with every card known, which can only overstate the chance.

use std::fmt;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::hidden::sample::action_name;
use crate::hidden::{exact, root_actions, sample_until, wilson, Exact, ExactConfig, ExactError};
use crate::position::{Position, PositionFile};
use crate::search::{deadline_after, SolveConfig};
use crate::state::{Action, Deal, State};

use super::AnalysisError;

/// The largest number of pile orders a review solves exactly: about a second a turn on the
/// real endgames measured in [`mod@crate::hidden::exact`] (8 hidden cards, 20,160 orders, take
/// 0.35 s); earlier turns are sampled.
pub const REVIEW_MAX_ORDERS: u128 = 1_000_000;

/// Table size for one turn's exact analysis: the pile positions of one turn are few.
const REVIEW_TT_MB: usize = 256;

/// The time a turn's exact attempt, and then its sampling, may take where no time limit is
/// given.
pub const DEFAULT_TURN_TIME: Duration = Duration::from_secs(1);

/// The most nodes one sampled pile's search takes where no node limit is given: a pile that
/// makes the deal hard to decide would otherwise take the turn's whole time. A sample left
/// undecided widens the interval instead ([`Chance::unproven`]).
pub const SAMPLE_NODES: u64 = 50_000;

/// How the chance to win is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChanceMode {
    /// Over every order of the hidden pile, all equally likely, each player seeing each card
    /// as it is drawn: the true value under the best play.
    Exact,
    /// The share of sampled piles from which the perfect score can still be reached with
    /// every card known: an estimate that can only be too high.
    Sampled,
}

/// One action's chance to win.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Chance {
    /// The action, in words ("play r3", "discard y1", "clue").
    pub action: String,
    pub win: f64,
    /// The exact value as a fraction in lowest terms ("3/4"), in exact mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fraction: Option<String>,
    /// The 95% interval of a sampled estimate: from the piles proven won counted as the only
    /// wins to the undecided ones counted as wins too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<(f64, f64)>,
    /// Sampled piles a limit left undecided (neither proven won nor proven lost).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unproven: Option<usize>,
}

impl fmt::Display for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let percent = |p: f64| format!("{:.1}%", 100.0 * p);
        match (&self.fraction, self.interval) {
            (Some(fraction), _) => write!(f, "{} ({fraction})", percent(self.win)),
            (None, Some((lo, hi))) => {
                write!(
                    f,
                    "~{} [{}-{}]",
                    percent(self.win),
                    percent(lo),
                    percent(hi)
                )
            }
            (None, None) => write!(f, "~{}", percent(self.win)),
        }
    }
}

impl Chance {
    /// The figure alone, for a table: "75.0%" when exact, "~75.0%" when sampled.
    pub fn short(&self) -> String {
        let mark = if self.fraction.is_some() { "" } else { "~" };
        format!("{mark}{:.1}%", 100.0 * self.win)
    }
}

/// The chance to win before one action of a game, with the pile hidden.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WinChance {
    pub mode: ChanceMode,
    /// The action the player took.
    pub taken: Chance,
    /// The action with the best chance (the taken one when none is better).
    pub best: Chance,
    /// Hidden pile cards.
    pub hidden: usize,
    /// Samples taken, in sampled mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub samples: Option<usize>,
}

/// Limits of the chance analysis of one turn.
#[derive(Clone, Debug)]
pub struct ChanceConfig {
    /// The search's limits; its time limit bounds each turn's exact attempt and then, if that
    /// gives no answer, the sampling (else [`DEFAULT_TURN_TIME`] each); each sampled pile's search takes at most its node
    /// limit (else [`SAMPLE_NODES`]).
    pub search: SolveConfig,
    /// Samples per turn where the exact analysis does not answer.
    pub samples: usize,
    pub rng_seed: u64,
}

/// The chance to win from `state` of `deal` (every hand seen, the pile not) for the action
/// `taken` and for the best action. `names` are the seats' names.
pub fn win_chance(
    deal: &Deal,
    state: &State,
    names: &[String],
    taken: Action,
    config: &ChanceConfig,
) -> Result<WinChance, AnalysisError> {
    let turn_time = config.search.time_limit.unwrap_or(DEFAULT_TURN_TIME);
    let file = PositionFile::from_state(deal, state, names);
    let mut position = Position::new(&file)
        .map_err(|f| AnalysisError::Internal(format!("the position does not read back: {f}")))?;
    position.hide_pile();
    if state.max_reachable_score(&deal.rules) < deal.rules.perfect_score() {
        return no_chance(&position, taken);
    }
    let exact_config = ExactConfig {
        threads: config.search.threads,
        tt_mb: config.search.tt_mb.min(REVIEW_TT_MB),
        time_limit: Some(turn_time),
        max_orders: REVIEW_MAX_ORDERS,
    };
    match exact(&position, &exact_config) {
        Ok(result) => exact_chances(&result, taken),
        Err(ExactError::TooLarge { .. } | ExactError::Stopped { .. }) => {
            sampled_chances(&position, config, turn_time, taken)
        }
        Err(error) => Err(AnalysisError::Internal(format!(
            "the chance to win could not be found: {error}"
        ))),
    }
}

/// Where a card the fireworks need has no copy left: no order of the pile wins, whatever is
/// played. Exact without a search.
fn no_chance(position: &Position, taken: Action) -> Result<WinChance, AnalysisError> {
    let moves = root_actions(position)
        .map_err(|e| AnalysisError::Internal(e.to_string()))?
        .into_iter()
        .map(|a| {
            let chance = Chance {
                action: action_name(position, a).0,
                win: 0.0,
                fraction: Some("0".to_string()),
                interval: None,
                unproven: None,
            };
            (a, chance)
        });
    WinChance::of(ChanceMode::Exact, moves, taken, position.hidden(), None)
}

/// The chances over every order of the pile, as fractions.
fn exact_chances(result: &Exact, taken: Action) -> Result<WinChance, AnalysisError> {
    let moves = result.moves.iter().map(|m| {
        let chance = Chance {
            action: m.name.clone(),
            win: m.win_probability.to_f64(),
            fraction: Some(m.win_probability.to_string()),
            interval: None,
            unproven: None,
        };
        (m.action, chance)
    });
    WinChance::of(ChanceMode::Exact, moves, taken, result.hidden, None)
}

/// The chances over at most `config.samples` random orders of the pile, as many as
/// `turn_time` allows, each with its 95% interval (Wilson's, widened by the piles left
/// unproven): where the orders are too many to go through, or going through them took too
/// long.
fn sampled_chances(
    position: &Position,
    config: &ChanceConfig,
    turn_time: Duration,
    taken: Action,
) -> Result<WinChance, AnalysisError> {
    let deadline = deadline_after(Instant::now(), Some(turn_time));
    let per_pile = SolveConfig {
        max_nodes: config.search.max_nodes.or(Some(SAMPLE_NODES)),
        ..config.search.clone()
    };
    let estimate = sample_until(
        position,
        config.samples,
        config.rng_seed,
        &per_pile,
        deadline,
    )
    .map_err(|e| AnalysisError::Internal(e.to_string()))?;
    let perfect = usize::from(estimate.perfect_score);
    let n = estimate.samples;
    let moves = estimate.moves.iter().map(|m| {
        // An undecided pile has a line below the perfect score and no proof that none
        // reaches it.
        let won = m.score_counts[perfect] as usize;
        let chance = Chance {
            action: m.name.clone(),
            win: m.win_probability,
            fraction: None,
            interval: Some((wilson(won, n).1 .0, wilson(won + m.unproven, n).1 .1)),
            unproven: Some(m.unproven),
        };
        (m.action, chance)
    });
    WinChance::of(
        ChanceMode::Sampled,
        moves,
        taken,
        estimate.hidden,
        Some(estimate.samples),
    )
}

impl WinChance {
    /// From every action's chance, best first: the chance of `taken`, and the best one's, or
    /// the taken one's again where the best is no better (two actions can tie; the taken one
    /// is then named as the best).
    fn of(
        mode: ChanceMode,
        moves: impl Iterator<Item = (Action, Chance)>,
        taken: Action,
        hidden: usize,
        samples: Option<usize>,
    ) -> Result<WinChance, AnalysisError> {
        let moves: Vec<(Action, Chance)> = moves.collect();
        let taken_chance = moves.iter().find(|(a, _)| *a == taken).map(|(_, c)| c);
        let (Some((_, best)), Some(taken_chance)) = (moves.first(), taken_chance) else {
            return Err(AnalysisError::Internal(format!(
                "the action taken ({taken:?}) is not among the legal actions analysed"
            )));
        };
        let best = if best.win > taken_chance.win {
            best
        } else {
            taken_chance
        };
        Ok(WinChance {
            mode,
            taken: taken_chance.clone(),
            best: best.clone(),
            hidden,
            samples,
        })
    }
}
