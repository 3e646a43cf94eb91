//! `hanabi-solver bench`: solves the fixed deals of `positions/bench/` one at a time and reports
//! speed and a signature (the total node count, which changes only when the search does).

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::bail;
use clap::Args;
use hanabi_solver::bench::{solve_deal, Figures, SetReport};
use hanabi_solver::benchset::{self, BenchSet};
use hanabi_solver::search::SolveConfig;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::solve::SearchArgs;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Set to solve: a file name of the sets folder without `.txt`, `default` (every set not
    /// tagged slow) or `all`. Repeat or separate with commas. Default: `default`.
    #[arg(long = "set", value_name = "NAME", value_delimiter = ',')]
    pub sets: Vec<String>,
    /// Worker threads for each solve. With 1 the node counts, and so the signature, are
    /// reproducible.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Memory cap of the transposition table of each solve, in MiB.
    #[arg(long, default_value_t = 1024)]
    pub tt_mb: usize,
    /// Stop each deal after this many seconds (it then counts as undecided, and the signature
    /// is no longer reproducible). Default: no limit.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Solve only the first N deals of each set.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Folder of the sets (default: positions/bench of the source tree this was built from).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// List the sets and exit.
    #[arg(long)]
    pub list: bool,
    /// Also print every deal's result.
    #[arg(long, short)]
    pub verbose: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

fn progress(total: usize, json: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(total as u64),
        if std::io::stderr().is_terminal() && !json {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar
}

fn list(sets: &[BenchSet]) -> anyhow::Result<()> {
    for s in sets {
        outln!(
            "{:<16} {:>4} deals{}  {}",
            s.name,
            s.deals.len(),
            if s.slow { " (slow)" } else { "       " },
            s.description
        );
    }
    Ok(())
}

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    let config = SearchArgs {
        threads: Some(args.threads),
        tt_mb: args.tt_mb,
        time_limit: args.time_limit,
        max_nodes: None,
    }
    .config()?;
    if args.limit == Some(0) {
        bail!("--limit must be at least 1");
    }
    let dir = args.dir.clone().unwrap_or_else(benchset::default_dir);
    if args.list {
        return list(&benchset::load_all(&dir)?);
    }
    let sets = benchset::select(&dir, &args.sets)?;
    let limit = args.limit.unwrap_or(usize::MAX);
    let total: usize = sets.iter().map(|s| s.deals.len().min(limit)).sum();
    let bar = progress(total, args.json);
    let mut reports = Vec::new();
    for set in &sets {
        let mut results = Vec::new();
        for d in set.deals.iter().take(limit) {
            bar.set_message(format!("{} {}", set.name, d.label));
            results.push(solve_deal(d, &config)?);
            bar.inc(1);
        }
        reports.push(SetReport {
            name: set.name.clone(),
            description: set.description.clone(),
            figures: Figures::of(results.iter()),
            results,
        });
    }
    bar.finish_and_clear();
    let all = Figures::of(reports.iter().flat_map(|r| r.results.iter()));
    let stopped = all.deals - all.decided;
    let mut caveats = Vec::new();
    if config.threads > 1 {
        caveats.push(format!("{} threads", config.threads));
    }
    if stopped > 0 {
        caveats.push(format!("{stopped} deals stopped by the time limit"));
    }
    if args.json {
        let out = serde_json::json!({
            "threads": config.threads,
            "tt_mb": config.tt_mb,
            "time_limit": args.time_limit,
            "limit": args.limit,
            "sets": reports,
            "total": all,
            "signature": all.nodes,
            "reproducible": caveats.is_empty(),
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    print_text(&args, &config, &reports, &all, &caveats)
}

/// The bench's result as text: the settings, a row per set and the total, every deal with
/// `--verbose`, and the signature, marked not reproducible where the settings make it so
/// (`caveats`).
fn print_text(
    args: &BenchArgs,
    config: &SolveConfig,
    reports: &[SetReport],
    all: &Figures,
    caveats: &[String],
) -> anyhow::Result<()> {
    outln!(
        "Bench: {} sets, {} deals, {} thread{}, table {} MiB, {}{}",
        reports.len(),
        all.deals,
        config.threads,
        if config.threads == 1 { "" } else { "s" },
        config.tt_mb,
        match args.time_limit {
            Some(t) => format!("time limit {t} s a deal"),
            None => "no time limit".to_string(),
        },
        match args.limit {
            Some(n) => format!(", first {n} deals of each set"),
            None => String::new(),
        }
    );
    outln!(
        "{:<16} {:>5} {:>7} {:>8} {:>9} {:>9} {:>13} {:>9} {:>8}",
        "set",
        "deals",
        "decided",
        "winnable",
        "deals/s",
        "nodes/s",
        "nodes",
        "median s",
        "max s"
    );
    let row = |name: &str, s: &Figures| -> anyhow::Result<()> {
        outln!(
            "{:<16} {:>5} {:>7} {:>8} {:>9.1} {:>8.2}M {:>13} {:>9.6} {:>8.3}",
            name,
            s.deals,
            s.decided,
            s.winnable,
            s.deals_per_second,
            s.nodes_per_second / 1e6,
            s.nodes,
            s.median_seconds,
            s.max_seconds
        );
        Ok(())
    };
    for r in reports {
        row(&r.name, &r.figures)?;
        if args.verbose {
            for d in &r.results {
                outln!(
                    "    {:<28} {:>2}/{:<2} {:<11} {:>13} nodes {:>9.4} s",
                    d.label,
                    d.max_score,
                    d.perfect_score,
                    if d.proven {
                        "proven".to_string()
                    } else {
                        format!("in {}..={}", d.lower_bound, d.upper_bound)
                    },
                    d.nodes,
                    d.seconds
                );
            }
        }
    }
    row("total", all)?;
    if caveats.is_empty() {
        outln!(
            "signature: {} (total nodes; it changes only when the search does)",
            all.nodes
        );
    } else {
        outln!(
            "signature: {} (total nodes; NOT reproducible: {})",
            all.nodes,
            caveats.join(", ")
        );
    }
    Ok(())
}
