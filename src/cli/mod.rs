//! Command-line parsing (clap derive) and dispatch to one module per command.

mod bench;
mod deal;
mod game_args;
mod replay;
mod solve;

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
    /// Find the maximum score of a deal with every card known, and an optimal line.
    Solve(solve::SolveArgs),
}

pub fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Bench(args) => bench::run(args),
        Command::Deal(args) => deal::run(args),
        Command::Replay(args) => replay::run(args),
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
