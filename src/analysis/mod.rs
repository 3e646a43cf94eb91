//! Analysis of one position: what is solved (a seed, a deck, a position file, a hanab.live game
//! at a turn) as which player sees it, the search run on it, and a report of the answer that
//! serializes itself and reads as text.
//!
//! The command line only turns its arguments into a [`Source`] and a [`View`] and prints the
//! report that comes back, so that anything else that solves positions (the seeds of a batch,
//! every turn of a game under review) asks the same questions and gets the same answers.

pub mod chart;
mod error;
pub mod hidden_cards;
pub mod loss;
pub mod problem;
pub mod report;
pub mod review;
pub mod team_play;
pub mod token_cap;
pub mod view;
pub mod win_chance;

use std::time::{Duration, Instant};

pub use error::AnalysisError;
pub use hidden_cards::{ExactReport, SampleReport};
pub use problem::{read_game, GameTurn, Problem, Source};
pub use report::{PositionReport, SolveReport};
pub use review::{review, GameReview, MoveGroup, Progress, ReviewOptions, TurnReview};
pub use team_play::TeamReport;
pub use view::{View, ViewedPosition};
pub use win_chance::{ChanceConfig, WinChance};

use crate::batch::{Game, Record, SeedResult};
use crate::game::rules::Rules;
use crate::portfolio::{self, DecidedBy};
use crate::sat::proof::{certify_unreachable, score_out_of_reach, Certificate};
use crate::sat::SatError;
use crate::search::reason::LossReason;
use crate::search::{Solution, SolveConfig};

/// Solves `problem` within `config`'s limits and reports the answer, its line checked against
/// the rules. `deadline`, the end of the caller's whole time, also bounds the search for why a
/// position proven not winnable is lost. Where the search has not settled the problem after
/// `sat_after`, the SAT solver runs beside it ([`portfolio::decide`]). With `certify`, a best
/// score proven below the perfect score gets a checked proof ([`certify_upper_bound`]) before
/// `deadline` if it can.
pub fn solve(
    problem: &Problem,
    config: &SolveConfig,
    deadline: Option<Instant>,
    sat_after: Option<Duration>,
    certify: bool,
) -> Result<SolveReport, AnalysisError> {
    let plan = portfolio::SatPlan::after(sat_after);
    let decided = portfolio::decide(&problem.deal, &problem.state, config, plan)
        .map_err(|e| AnalysisError::Internal(e.to_string()))?;
    let reason = loss_reason(problem, &decided.solution, deadline)
        .map_err(|e| AnalysisError::Internal(e.to_string()))?;
    let mut report = SolveReport::new(problem, &decided.solution, reason)?;
    report.by_sat = decided.by == DecidedBy::Sat;
    if certify {
        report.certificate = certify_upper_bound(problem, &decided.solution, deadline)
            .map_err(|e| AnalysisError::Internal(e.to_string()))?;
    }
    Ok(report)
}

/// Where `solution` proves the best score below the perfect score: a checked proof that no
/// line reaches one point more (in endless mode, the perfect score), made before `deadline`
/// if it can be ([`certify_unreachable`]). `None` where no such bound is proven.
pub fn certify_upper_bound(
    problem: &Problem,
    solution: &Solution,
    deadline: Option<Instant>,
) -> Result<Option<Certificate>, SatError> {
    let rules = &problem.deal.rules;
    let perfect = rules.perfect_score();
    if solution.upper_bound >= perfect {
        return Ok(None);
    }
    let target = score_out_of_reach(solution.upper_bound, perfect, rules.endless);
    certify_unreachable(&problem.deal, &problem.state, target, deadline).map(Some)
}

/// For a problem `solution` proves not winnable: the first test that rules the perfect score
/// out, or `None` when none decides within the usual node limit or before `deadline`. A deal
/// lost for its clue tokens is lost to their cap ([`LossReason::TokenCap`]) where the SAT
/// solver finds it winnable without the cap ([`token_cap`]). The error is a fault of the SAT
/// encoding (a line that does not win).
pub fn loss_reason(
    problem: &Problem,
    solution: &Solution,
    deadline: Option<Instant>,
) -> Result<Option<LossReason>, SatError> {
    if !solution.proven || solution.winnable() {
        return Ok(None);
    }
    token_cap::loss_reason(&problem.deal, &problem.state, deadline)
}

/// Solves the deal of `seed` under `rules` as one record of a batch of seeds (`game` says which
/// rules they are), after checking that the line finishes the game at the score claimed. A deal
/// the search has not settled after `plan.after` gets the SAT solver beside it
/// ([`portfolio::decide`]). With `certify`, a best score proven below the perfect score gets
/// a checked proof ([`certify_upper_bound`]), with the time limit's length of its own.
pub fn seed_record(
    seed: &str,
    rules: &Rules,
    game: &Game,
    config: &SolveConfig,
    plan: portfolio::SatPlan,
    certify: bool,
) -> Result<Record, AnalysisError> {
    let problem = Problem::from_seed(seed, rules.clone())?;
    let (deal, state) = (&problem.deal, &problem.state);
    let decided = portfolio::decide(deal, state, config, plan)
        .map_err(|e| AnalysisError::Internal(format!("seed {seed}: {e}")))?;
    let solution = decided.solution;
    let mut s = *state;
    for (i, &a) in solution.line.iter().enumerate() {
        s = s.apply(deal, a).map_err(|e| {
            AnalysisError::Internal(format!("seed {seed}: line action {i} is illegal: {e}"))
        })?;
    }
    if !s.is_over() || s.score(rules) != solution.lower_bound {
        return Err(AnalysisError::Internal(format!(
            "seed {seed}: the line does not finish the game at the score the search claims ({})",
            solution.lower_bound
        )));
    }
    let solution = with_known(solution, plan.known)
        .map_err(|e| AnalysisError::Internal(format!("seed {seed}: {e}")))?;
    let mut outcome = SeedResult::of(&solution);
    outcome.by_sat = decided.by == DecidedBy::Sat;
    outcome.lent_seconds = decided.lent_seconds;
    outcome.reason = loss_reason(&problem, &solution, None)
        .map_err(|e| AnalysisError::Internal(format!("seed {seed}: {e}")))?
        .map(|r| r.name().to_string());
    if certify {
        let deadline = config.time_limit.map(|limit| Instant::now() + limit);
        outcome.certificate = certify_upper_bound(&problem, &solution, deadline)
            .map_err(|e| AnalysisError::Internal(format!("seed {seed}: {e}")))?;
    }
    Ok(Record {
        seed: seed.to_string(),
        game: game.clone(),
        deck: problem
            .deck
            .iter()
            .flatten()
            .map(|&c| rules.variant.card_name(c))
            .collect(),
        outcome,
    })
}

/// `solution`'s bounds narrowed by those proven before it (`known`, a first pass over the
/// deal: [`portfolio::SatPlan::known`]); its line, already checked, is left as it is. The
/// error is bounds that cross: one of the two passes proved something false.
fn with_known(mut solution: Solution, known: Option<(u8, u8)>) -> Result<Solution, String> {
    let Some((lo, hi)) = known else {
        return Ok(solution);
    };
    let lower = solution.lower_bound.max(lo);
    let upper = solution.upper_bound.min(hi);
    if lower > upper {
        return Err(format!(
            "the passes' bounds cross: a line reaches {lower}, and {upper} was proven the most"
        ));
    }
    solution.lower_bound = lower;
    solution.upper_bound = upper;
    solution.max_score = lower;
    solution.proven = lower == upper;
    Ok(solution)
}

/// The time left before `deadline` for a search that starts now: at least a millisecond, so
/// that a search past its deadline stops at once with what it proved.
pub fn time_left(deadline: Option<Instant>) -> Option<Duration> {
    deadline.map(|d| {
        d.saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solution(lower: u8, upper: u8) -> Solution {
        Solution {
            max_score: lower,
            perfect_score: 30,
            proven: lower == upper,
            lower_bound: lower,
            upper_bound: upper,
            line: Vec::new(),
            nodes: 0,
            seconds: 0.0,
            table_entries: 0,
        }
    }

    /// A second pass's bounds narrowed by the first's: the higher lower bound, the lower upper
    /// one, proven where they meet; bounds that cross are an error, never a silent pick.
    #[test]
    fn known_bounds_narrow_a_solution_and_crossing_ones_are_an_error() {
        let s = with_known(solution(24, 29), Some((27, 30))).unwrap();
        assert_eq!((s.lower_bound, s.upper_bound, s.max_score), (27, 29, 27));
        assert!(!s.proven);
        let s = with_known(solution(24, 27), Some((27, 30))).unwrap();
        assert!(s.proven && s.max_score == 27 && s.verdict() == Some(false));
        let s = with_known(solution(30, 30), Some((27, 30))).unwrap();
        assert!(s.proven && s.winnable());
        let s = with_known(solution(24, 29), None).unwrap();
        assert_eq!((s.lower_bound, s.upper_bound, s.proven), (24, 29, false));
        assert!(with_known(solution(24, 26), Some((27, 30))).is_err());
        assert!(with_known(solution(29, 30), Some((25, 28))).is_err());
    }
}
