//! The bench: each deal of a bench set ([`crate::benchset`]) solved one at a time, timed, its
//! line replayed through the rules, and the figures over a set. The `bench` command prints them;
//! the total node count is its signature, which changes only when the search does.

use std::time::Instant;

use serde::Serialize;
use thiserror::Error;

use crate::benchset::BenchDeal;
use crate::line::final_state;
use crate::search::{solve, SolveConfig};

/// A deal whose line does not hold up: a fault of the solver, never of the input.
#[derive(Debug, Error)]
pub enum BenchError {
    #[error("internal error: {label}: {why}")]
    BadLine { label: String, why: String },
}

/// One solved deal.
#[derive(Serialize, Debug)]
pub struct DealResult {
    pub label: String,
    pub max_score: u8,
    pub perfect_score: u8,
    pub proven: bool,
    /// Proven winnable (`true`), proven not (`false`), or left open by a limit (`null`).
    pub winnable: Option<bool>,
    pub lower_bound: u8,
    pub upper_bound: u8,
    pub nodes: u64,
    pub seconds: f64,
}

/// Figures over some deals: how many were decided and won, and how fast.
#[derive(Serialize, Debug)]
pub struct Figures {
    pub deals: usize,
    pub decided: usize,
    pub winnable: usize,
    pub seconds: f64,
    pub deals_per_second: f64,
    pub nodes_per_second: f64,
    pub nodes: u64,
    pub median_seconds: f64,
    pub max_seconds: f64,
}

impl Figures {
    /// The figures over `results`.
    pub fn of<'a>(results: impl Iterator<Item = &'a DealResult>) -> Figures {
        let results: Vec<&DealResult> = results.collect();
        let mut times: Vec<f64> = results.iter().map(|r| r.seconds).collect();
        times.sort_by(f64::total_cmp);
        let n = times.len();
        let median = crate::batch::median(&times);
        let seconds: f64 = times.iter().sum();
        let nodes: u64 = results.iter().map(|r| r.nodes).sum();
        let rate = |x: f64| if seconds > 0.0 { x / seconds } else { 0.0 };
        Figures {
            deals: n,
            decided: results.iter().filter(|r| r.proven).count(),
            winnable: results.iter().filter(|r| r.winnable == Some(true)).count(),
            seconds,
            deals_per_second: rate(n as f64),
            nodes_per_second: rate(nodes as f64),
            nodes,
            median_seconds: median,
            max_seconds: times.last().copied().unwrap_or(0.0),
        }
    }
}

/// One set's deals and their figures.
#[derive(Serialize, Debug)]
pub struct SetReport {
    pub name: String,
    pub description: String,
    #[serde(flatten)]
    pub figures: Figures,
    pub results: Vec<DealResult>,
}

/// Solves one deal, timing it, and checks that the line reaches the score claimed.
pub fn solve_deal(d: &BenchDeal, config: &SolveConfig) -> Result<DealResult, BenchError> {
    let (deal, state) = d.deal();
    let start = Instant::now();
    let solution = solve(&deal, &state, config);
    let seconds = start.elapsed().as_secs_f64();
    let bad = |why: String| BenchError::BadLine {
        label: d.label.clone(),
        why,
    };
    let end =
        final_state(&deal, &state, &solution.line).map_err(|e| bad(format!("the line: {e}")))?;
    if end.score(&deal.rules) != solution.lower_bound {
        return Err(bad(format!(
            "the line does not finish the game at the score the search claims ({})",
            solution.lower_bound
        )));
    }
    Ok(DealResult {
        label: d.label.clone(),
        max_score: solution.max_score,
        perfect_score: solution.perfect_score,
        proven: solution.proven,
        winnable: solution.verdict(),
        lower_bound: solution.lower_bound,
        upper_bound: solution.upper_bound,
        nodes: solution.nodes,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::{DealResult, Figures};

    fn result(seconds: f64, nodes: u64, proven: bool, winnable: Option<bool>) -> DealResult {
        DealResult {
            label: String::new(),
            max_score: 25,
            perfect_score: 25,
            proven,
            winnable,
            lower_bound: 25,
            upper_bound: 25,
            nodes,
            seconds,
        }
    }

    #[test]
    fn figures_count_time_and_nodes() {
        let results = [
            result(3.0, 300, true, Some(true)),
            result(1.0, 100, true, Some(false)),
            result(2.0, 600, false, None),
            result(4.0, 0, true, Some(true)),
        ];
        let f = Figures::of(results.iter());
        assert_eq!((f.deals, f.decided, f.winnable), (4, 3, 2));
        assert_eq!(f.seconds, 10.0);
        assert_eq!(f.median_seconds, 2.5);
        assert_eq!(f.max_seconds, 4.0);
        assert_eq!(f.nodes, 1000);
        assert_eq!(f.nodes_per_second, 100.0);
        assert_eq!(f.deals_per_second, 0.4);
        let none = Figures::of([].iter());
        assert_eq!(
            (none.deals, none.seconds, none.deals_per_second),
            (0, 0.0, 0.0)
        );
    }
}
