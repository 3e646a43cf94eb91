//! Command-line parsing (clap derive) and dispatch to one module per command.

/// `println!` that returns the write error instead of panicking, so that a reader that stops
/// early (`| head`) ends the program quietly (see `main`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)?
    }};
}

mod bench;
mod deal;
mod game_args;
mod replay;
mod review;
mod seeds;
mod site;
mod solve;
mod variants;

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};

pub use game_args::GameArgs;
pub use site::SiteArg;

use std::time::Duration;

use anyhow::bail;

/// The most worker threads an option may ask for: far above any machine's cores, and few
/// enough that starting them takes no noticeable time.
pub const MAX_THREADS: usize = 1024;

/// `--threads`: at least 1, at most [`MAX_THREADS`]; by default every core.
pub fn threads_option(threads: Option<usize>) -> anyhow::Result<usize> {
    match threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) if n > MAX_THREADS => {
            bail!("--threads must be at most {MAX_THREADS}, not {n}")
        }
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// `--time-limit`: a positive number of seconds. One too long for any clock (`1e30`) is no
/// limit at all.
pub fn time_limit_option(seconds: Option<f64>) -> anyhow::Result<Option<Duration>> {
    match seconds {
        None => Ok(None),
        Some(t) if t.is_finite() && t > 0.0 => Ok(Duration::try_from_secs_f64(t).ok()),
        Some(t) => bail!("--time-limit must be a positive number of seconds, not {t}"),
    }
}

/// The time limit to solve again with what a limit stopped (a batch's undecided seeds, a deal
/// `solve` left unproven): five times that limit (`previous`, in seconds, rounded), and at
/// least a minute. In the rows of `results/` most seeds a limit stopped needed only a few
/// times as long, and a minute settled nearly every seed the 2 s rows left; a run that already
/// had a minute needs more than the same again.
pub fn longer_time_limit(previous: Option<f64>) -> u64 {
    let previous = previous.map_or(0, |s| s.round() as u64);
    previous.saturating_mul(5).max(60)
}

/// Whether `e` is a write to a reader that has gone away (`| head`): the program then ends
/// quietly, with success, as command-line tools do.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

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
    /// Replay a hanab.live game (an export file, a game id or address on the site, or a replay
    /// link), checking every action against the rules.
    Replay(replay::ReplayArgs),
    /// Review a whole hanab.live game turn by turn: the most the team could still score with
    /// every card known before and after each action, the actions that lowered it and the moves
    /// that would have kept it, with links that open the game on hanab.live. --time-limit
    /// applies to each position.
    Review(review::ReviewArgs),
    /// Solve a range of seeds in parallel, one JSON line per seed (resumable), and summarise.
    Seeds(seeds::SeedsArgs),
    /// Find the maximum score of a deal with every card known, and an optimal line.
    Solve(solve::SolveArgs),
    /// List and search every hanab.live variant, or show one: suits, deck, clues, which clues
    /// touch each card, and whether the solver plays it.
    Variants(variants::VariantsArgs),
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
        Command::Review(args) => review::run(args),
        Command::Seeds(args) => seeds::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Variants(args) => variants::run(args),
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

/// When the SAT solver joins the search (`solve` on a deal, `seeds`).
#[derive(Args, Debug, Clone)]
pub struct SatArgs {
    /// Start the SAT solver beside the search on a deal the search has not settled after this
    /// many seconds (the hard ones: the search settles most deals in milliseconds). Whichever
    /// settles it first stops the other, within the same --time-limit. With 2 players, a time
    /// limit that leaves the SAT solver less than 5 s keeps it out (there it would only slow
    /// the search down); with more, it joins whenever the limit leaves it any time. Where the
    /// deal has several threads (`solve`) and 4 or more players, two SAT solvers race, one
    /// formula each: a block per turn (finds winning lines sooner) and a block per card drawn
    /// (refutes sooner).
    #[arg(long, default_value_t = 0.5, value_name = "SECONDS")]
    pub sat_after: f64,
    /// Use the search alone, without the SAT solver.
    #[arg(long)]
    pub no_sat: bool,
    /// Certify every score proven out of reach with a checked proof: where the best score is
    /// proven below the perfect score, the SAT solver is asked afresh for one point more and
    /// writes an LRAT proof that no line reaches it, which an independent checker then
    /// verifies (a winning line is always checked by replaying it). Each proof may take up to
    /// --time-limit of its own (with `solve`, what is left of it); one that is not done by
    /// then is reported as not certified. Works with --no-sat too.
    #[arg(long)]
    pub certify: bool,
}

impl SatArgs {
    /// The delay before the SAT solver starts, or `None` for the search alone (also under a
    /// node limit, whose counts must be reproducible).
    pub fn sat_after(&self, max_nodes: Option<u64>) -> anyhow::Result<Option<Duration>> {
        if !(self.sat_after.is_finite() && (0.0..=1e9).contains(&self.sat_after)) {
            bail!(
                "--sat-after must be a number of seconds from 0 to 1e9, not {}",
                self.sat_after
            );
        }
        Ok((!self.no_sat && max_nodes.is_none()).then(|| Duration::from_secs_f64(self.sat_after)))
    }
}
