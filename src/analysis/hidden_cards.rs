//! The answers for a position with hidden cards: exact values over every order of a hidden
//! pile, or an optimistic estimate from sampled fillings. Each report serializes as
//! `solve --json` prints it and reads as `solve` prints it.
//!
//! As in [`super::report`], the serialized fields are declared in alphabetical order, the
//! order the command has always printed its keys in.

use std::fmt;
use std::time::Instant;

use serde::Serialize;

use crate::hidden::{exact, sample_until, ExactConfig};
use crate::search::SolveConfig;

use super::view::ViewedPosition;
use super::AnalysisError;

/// What the first line of a hidden-card report says of the position.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSetting {
    pub players: u8,
    pub variant: String,
    pub hand_size: u8,
}

impl GameSetting {
    fn of(viewed: &ViewedPosition) -> GameSetting {
        let rules = &viewed.position.rules;
        GameSetting {
            players: rules.players,
            variant: rules.variant.name.clone(),
            hand_size: rules.hand_size,
        }
    }

    /// The first line of a report.
    fn header(&self, label: &str, to_move: &str, hidden: usize) -> String {
        format!(
            "Position: {label}, {} players, {} (hand size {}); {to_move} to move; {hidden} hidden card{}",
            self.players,
            self.variant,
            self.hand_size,
            if hidden == 1 { "" } else { "s" }
        )
    }
}

/// What the move lists say of slots.
const SLOTS: &str = "Slots are numbered as on hanab.live: 1 is the newest card. Moves equal in \
                     every figure share a line.";

/// `moves` in groups equal in `key`, each group where its first move was, moves in their order:
/// the moves that share a line of a report (here and in a review's moves that kept a maximum).
pub(super) fn group<M, K: PartialEq>(moves: &[M], key: impl Fn(&M) -> K) -> Vec<Vec<&M>> {
    let mut groups: Vec<(K, Vec<&M>)> = Vec::new();
    for m in moves {
        let k = key(m);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, members)) => members.push(m),
            None => groups.push((k, vec![m])),
        }
    }
    groups.into_iter().map(|(_, members)| members).collect()
}

/// The names of a group of moves, one after another, as they share a line.
pub(super) fn names<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// Exact values of every action of the player to move, over every order of the hidden pile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactReport {
    /// Hidden cards in the pile.
    pub hidden: usize,
    /// Always "exact": tells this report from a [`SampleReport`].
    pub mode: &'static str,
    /// Best first (win probability, then expected score).
    pub moves: Vec<ExactMoveReport>,
    pub nodes: u64,
    /// Distinct orders of the hidden cards, all equally likely, in decimal (it may not fit
    /// in a JSON number).
    pub orders: String,
    pub perfect_score: u8,
    /// What the position is ([`ViewedPosition::label`]).
    pub position: String,
    pub seconds: f64,
    pub table_entries: usize,
    pub to_move: String,
    #[serde(skip)]
    pub setting: GameSetting,
}

/// One action's exact values, as a number and as a fraction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactMoveReport {
    /// "play r3 (slot 1)", "discard y1 (slot 4)", "clue Bob red", "deck play".
    pub action: String,
    pub expected_score: f64,
    pub expected_score_fraction: String,
    /// Hand slot as hanab.live numbers it (1 = newest), for plays and discards.
    pub slot: Option<u8>,
    pub win_probability: f64,
    pub win_probability_fraction: String,
}

impl ExactReport {
    /// Analyses `viewed`, whose hidden cards must all be in the pile.
    pub fn new(
        viewed: &ViewedPosition,
        config: &ExactConfig,
    ) -> Result<ExactReport, AnalysisError> {
        let pos = &viewed.position;
        let result = exact(pos, config).map_err(|error| AnalysisError::Exact {
            label: viewed.label.clone(),
            error,
        })?;
        Ok(ExactReport {
            hidden: result.hidden,
            mode: "exact",
            moves: result
                .moves
                .iter()
                .map(|m| ExactMoveReport {
                    action: m.name.clone(),
                    expected_score: m.expected_score.to_f64(),
                    expected_score_fraction: m.expected_score.to_string(),
                    slot: m.slot,
                    win_probability: m.win_probability.to_f64(),
                    win_probability_fraction: m.win_probability.to_string(),
                })
                .collect(),
            nodes: result.nodes,
            orders: result.orders.to_string(),
            perfect_score: result.perfect_score,
            position: viewed.label.clone(),
            seconds: result.seconds,
            table_entries: result.table_entries,
            to_move: pos.names[pos.turn as usize].clone(),
            setting: GameSetting::of(viewed),
        })
    }
}

/// The report as `solve --exact` prints it (no newline after the last line).
impl fmt::Display for ExactReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}",
            self.setting
                .header(&self.position, &self.to_move, self.hidden)
        )?;
        writeln!(
            f,
            "Exact values: the hidden pile cards come in any of {} equally likely orders; \
             players see every hand and each card as it is drawn. \"win\" is the probability \
             of reaching {} with the play that maximises it, \"score\" the expected final score \
             with the play that maximises that.",
            self.orders, self.perfect_score
        )?;
        writeln!(f, "{SLOTS}")?;
        let w = self
            .moves
            .iter()
            .map(|m| m.win_probability_fraction.len())
            .max()
            .unwrap_or(0)
            .max(3);
        let e = self
            .moves
            .iter()
            .map(|m| m.expected_score_fraction.len())
            .max()
            .unwrap_or(0)
            .max("expected score".len());
        writeln!(
            f,
            "  {:>8}  {:>w$}  {:>7}  {:<e$}  action",
            "win", "", "score", "expected score"
        )?;
        let groups = group(&self.moves, |m| {
            (
                m.win_probability_fraction.clone(),
                m.expected_score_fraction.clone(),
            )
        });
        for moves in groups {
            let m = moves[0];
            writeln!(
                f,
                "  {:>7.3}%  {:>w$}  {:>7.3}  {:<e$}  {}",
                100.0 * m.win_probability,
                m.win_probability_fraction,
                m.expected_score,
                m.expected_score_fraction,
                names(moves.iter().map(|m| m.action.as_str()))
            )?;
        }
        write!(
            f,
            "Searched {} positions in {:.3} s ({} table entries).",
            self.nodes, self.seconds, self.table_entries
        )
    }
}

/// An optimistic estimate of every action of the player to move: each sample fills the hidden
/// cards at random and is solved as if every card were known.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleReport {
    pub hidden: usize,
    /// Always "samples": tells this report from an [`ExactReport`].
    pub mode: &'static str,
    pub moves: Vec<SampledMoveReport>,
    /// Always true: real play, which cannot see the hidden cards, can only do as well or worse.
    pub optimistic: bool,
    pub perfect_score: u8,
    /// What the position is ([`ViewedPosition::label`]).
    pub position: String,
    pub requested_samples: usize,
    pub rng_seed: u64,
    /// Samples taken: fewer than requested when the time limit came first.
    pub samples: usize,
    pub to_move: String,
    /// Solves, over every action and sample, stopped at a limit before they were proven.
    pub unproven: usize,
    #[serde(skip)]
    pub setting: GameSetting,
}

/// One action's estimate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampledMoveReport {
    pub action: String,
    pub ci95: Interval95,
    pub expected_score: f64,
    pub slot: Option<u8>,
    /// Samples of this action whose solve stopped at a limit (its score a proven lower bound).
    pub unproven: usize,
    pub win_probability: f64,
}

/// 95% confidence intervals of an estimate, as `[low, high]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Interval95 {
    pub expected_score: (f64, f64),
    pub win_probability: (f64, f64),
}

impl SampleReport {
    /// Solves `samples` random fillings of `viewed`'s hidden cards (`rng_seed` fixes them),
    /// on `config.threads` threads at once; samples not started by `deadline` are left out.
    pub fn new(
        viewed: &ViewedPosition,
        samples: usize,
        rng_seed: u64,
        config: &SolveConfig,
        deadline: Option<Instant>,
    ) -> Result<SampleReport, AnalysisError> {
        let pos = &viewed.position;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .build()
            .map_err(|e| AnalysisError::Threads(e.to_string()))?;
        let estimate = pool
            .install(|| sample_until(pos, samples, rng_seed, config, deadline))
            .map_err(|error| AnalysisError::Samples {
                label: viewed.label.clone(),
                error,
            })?;
        if estimate.samples == 0 {
            return Err(AnalysisError::NoSample);
        }
        Ok(SampleReport {
            hidden: estimate.hidden,
            mode: "samples",
            moves: estimate
                .moves
                .iter()
                .map(|m| SampledMoveReport {
                    action: m.name.clone(),
                    ci95: Interval95 {
                        expected_score: m.score_ci95,
                        win_probability: m.win_ci95,
                    },
                    expected_score: m.expected_score,
                    slot: m.slot,
                    unproven: m.unproven,
                    win_probability: m.win_probability,
                })
                .collect(),
            optimistic: true,
            perfect_score: estimate.perfect_score,
            position: viewed.label.clone(),
            requested_samples: estimate.requested,
            rng_seed: estimate.rng_seed,
            samples: estimate.samples,
            to_move: pos.names[pos.turn as usize].clone(),
            unproven: estimate.moves.iter().map(|m| m.unproven).sum(),
            setting: GameSetting::of(viewed),
        })
    }
}

/// The report as `solve --samples` prints it (no newline after the last line).
impl fmt::Display for SampleReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}",
            self.setting
                .header(&self.position, &self.to_move, self.hidden)
        )?;
        write!(
            f,
            "\nOptimistic estimate from {} sampled determinizations (rng seed {}): each sample \
             fills the hidden cards at random and is solved as if every card were known, so \
             real play, which cannot see them, can only do as well or worse.",
            self.samples, self.rng_seed
        )?;
        if self.samples < self.requested_samples {
            write!(
                f,
                "\nThe time limit came after {} of the {} samples asked for; the figures cover \
                 those.",
                self.samples, self.requested_samples
            )?;
        }
        write!(f, "\n{SLOTS} The perfect score is {}.", self.perfect_score)?;
        write!(
            f,
            "\n  {:>7}  {:<17} {:>6}  {:<15} {:>8}  action",
            "win", "95% interval", "score", "95% interval", "unproven"
        )?;
        // Equal in every figure printed (the f64s compared bit for bit).
        let groups = group(&self.moves, |m| {
            let (win, score) = (m.ci95.win_probability, m.ci95.expected_score);
            (
                [
                    m.win_probability,
                    win.0,
                    win.1,
                    m.expected_score,
                    score.0,
                    score.1,
                ]
                .map(f64::to_bits),
                m.unproven,
            )
        });
        for moves in groups {
            let m = moves[0];
            let (win, score) = (m.ci95.win_probability, m.ci95.expected_score);
            write!(
                f,
                "\n  {:>6.1}%  [{:>5.1}%, {:>5.1}%] {:>6.2}  [{:>5.2}, {:>5.2}] {:>8}  {}",
                100.0 * m.win_probability,
                100.0 * win.0,
                100.0 * win.1,
                m.expected_score,
                score.0,
                score.1,
                m.unproven,
                names(moves.iter().map(|m| m.action.as_str()))
            )?;
        }
        let n = self.unproven;
        if n > 0 {
            write!(
                f,
                "\n{n} solve{} stopped at a limit before {} proven: {} score{} a proven lower \
                 bound.",
                if n == 1 { " was" } else { "s were" },
                if n == 1 { "it was" } else { "they were" },
                if n == 1 { "its" } else { "their" },
                if n == 1 { " is" } else { "s are" },
            )?;
        }
        Ok(())
    }
}
