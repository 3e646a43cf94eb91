//! `hanabi-solver solve`: the maximum score of a deal with every card known, and a line to it.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Args;
use hanabi_solver::hanablive;
use hanabi_solver::line::describe;
use hanabi_solver::rules::{score_words, DEFAULT_NAMES};
use hanabi_solver::search::{solve, SolveConfig, Tuning};
use hanabi_solver::seed::shuffled_deck;
use hanabi_solver::state::Deal;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A seed: a hanab.live seed name (p2v0s1 = 2 players, variant 0, seed 1) or any string
    /// with --players.
    #[arg(required_unless_present = "deck")]
    pub seed: Option<String>,
    /// The whole deck instead of a seed, top first, e.g. "r1 y3 b2 ...". Seat 0 is dealt the
    /// first cards, as hanab.live deals.
    #[arg(long, conflicts_with = "seed")]
    pub deck: Option<String>,
    #[command(flatten)]
    pub game: super::GameArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Write the optimal line as a hanab.live game JSON that `replay` and hanab.live can load.
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Limits and resources of a search.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Worker threads (default: all cores). The answer is the same for any number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Memory cap of the transposition table, in MiB.
    #[arg(long, default_value_t = 1024)]
    pub tt_mb: usize,
    /// Stop after this many seconds; the result then gives proven bounds, marked unproven.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Stop after about this many search nodes (reproducible with --threads 1); like the time
    /// limit, the result then gives proven bounds.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
}

impl SearchArgs {
    pub fn config(&self) -> anyhow::Result<SolveConfig> {
        let threads = match self.threads {
            Some(0) => bail!("--threads must be at least 1"),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        if self.tt_mb == 0 {
            bail!("--tt-mb must be at least 1");
        }
        let time_limit = match self.time_limit {
            None => None,
            Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
            Some(t) => bail!("--time-limit must be a positive number of seconds, not {t}"),
        };
        Ok(SolveConfig {
            threads,
            tt_mb: self.tt_mb,
            time_limit,
            max_nodes: self.max_nodes,
            tuning: Tuning::FULL,
        })
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    let config = args.search.config()?;
    let (label, rules, deck) = match (&args.seed, &args.deck) {
        (_, Some(text)) => {
            let rules = args.game.rules(None, None)?;
            let deck = text
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .map(|t| {
                    rules
                        .variant
                        .parse_card(t.trim_matches(|c| c == '[' || c == ']'))
                })
                .collect::<Result<Vec<_>, _>>()?;
            ("the given deck".to_string(), rules, deck)
        }
        (Some(seed), None) => {
            let rules = args.game.rules_for_seed(seed)?;
            let deck = shuffled_deck(seed, &rules.variant);
            (format!("seed {seed}"), rules, deck)
        }
        (None, None) => bail!("give a seed (e.g. p2v0s1) or --deck"),
    };
    let (deal, state) = Deal::from_deck(rules.clone(), &deck)?;
    let solution = solve(&deal, &state, &config);
    let names: Vec<String> = DEFAULT_NAMES[..rules.players as usize]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (steps, end) = describe(&deal, &state, &solution.line, &names)
        .map_err(|(i, e)| anyhow::anyhow!("internal error: line action {i} is illegal: {e}"))?;
    if end.score(&rules) != solution.lower_bound {
        bail!(
            "internal error: the line scores {} but the search claims {}",
            end.score(&rules),
            solution.lower_bound
        );
    }
    if let Some(path) = &args.export {
        let game = hanablive::export_line(&deck, &rules, &names, &solution.line)?;
        std::fs::write(path, hanablive::to_json(&game))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let perfect = solution.perfect_score;
    if args.json {
        let v = &rules.variant;
        let out = serde_json::json!({
            "deal": label,
            "players": rules.players,
            "variant": v.name,
            "variant_id": v.id,
            "deck": deck.iter().map(|&c| v.card_name(c)).collect::<Vec<_>>(),
            "endless": rules.endless,
            "max_score": solution.max_score,
            "perfect_score": perfect,
            "winnable": solution.winnable(),
            "proven": solution.proven,
            "lower_bound": solution.lower_bound,
            "upper_bound": solution.upper_bound,
            "score_words": score_words(solution.max_score, perfect),
            "line": steps,
            "nodes": solution.nodes,
            "seconds": solution.seconds,
            "table_entries": solution.table_entries,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    let v = &rules.variant;
    println!(
        "Deal: {label}, {} players, {} (hand size {}, {} clues, {} strikes{})",
        rules.players,
        v.name,
        rules.hand_size,
        rules.max_clues,
        rules.max_strikes,
        if rules.endless { ", endless" } else { "" }
    );
    if solution.proven {
        let verdict = if solution.winnable() {
            "winnable".to_string()
        } else if rules.endless {
            "not winnable: every line loses".to_string()
        } else {
            "not winnable".to_string()
        };
        println!(
            "Maximum score: {} of {perfect}: {verdict} ({})",
            solution.max_score,
            score_words(solution.max_score, perfect)
        );
    } else {
        println!(
            "Not proven (time limit): the maximum score is at least {} and at most {} of {perfect}",
            solution.lower_bound, solution.upper_bound
        );
    }
    let what = if solution.proven {
        "An optimal line"
    } else {
        "The best line found"
    };
    println!(
        "{what} ({} turns, reaching {}):",
        steps.len(),
        end.score(&rules)
    );
    for s in &steps {
        println!("  {:>3}. {}", s.turn, s.text);
    }
    println!(
        "Searched {} positions in {:.3} s ({} table entries).",
        solution.nodes, solution.seconds, solution.table_entries
    );
    if let Some(path) = &args.export {
        println!("Wrote the line as a hanab.live game to {}.", path.display());
    }
    Ok(())
}
