//! Command-line parsing (clap derive) and dispatch to one module per command.

mod bench;
mod deal;
mod game_args;
mod replay;
mod seeds;
mod solve;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

pub use game_args::GameArgs;

/// Exact Hanabi solver: hanab.live seeds and games, maximum scores, optimal lines.
#[derive(Parser, Debug)]
#[command(name = "hanabi-solver", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve the fixed bench deals of positions/bench one at a time; report speed and a signature.
    Bench(bench::BenchArgs),
    /// Show the hands and draw pile that a hanab.live seed deals.
    Deal(deal::DealArgs),
    /// Replay a hanab.live game export, checking every action against the rules.
    Replay(replay::ReplayArgs),
    /// Solve a range of seeds in parallel, one JSON line per seed (resumable), and summarise.
    Seeds(seeds::SeedsArgs),
    /// Find the maximum score of a deal with every card known, and an optimal line.
    Solve(solve::SolveArgs),
}

pub fn run() -> anyhow::Result<()> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e)
            if !e.use_stderr()
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            e.exit()
        }
        Err(e) => {
            // clap's own message spans several lines; keep those that name the problem.
            let text = e.to_string();
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("tip:"))
                .collect();
            anyhow::bail!(
                "{} (see --help)",
                lines.join(" ").trim_start_matches("error: ")
            );
        }
    };
    match cli.command {
        Command::Bench(args) => bench::run(args),
        Command::Deal(args) => deal::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Seeds(args) => seeds::run(args),
        Command::Solve(args) => solve::run(args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
