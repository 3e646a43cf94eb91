//! `hanabi-solver review GAME`: a whole game, turn by turn.

use std::fmt::Write as _;

use clap::Args;
use hanabi_solver::analysis;
use hanabi_solver::hanablive::link;

use super::solve::SearchArgs;

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game: a hanab.live export file (GAME.json) or a replay link
    /// (https://hanab.live/replay-json/..., as `solve --link` prints).
    pub game: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// The server the links point at.
    #[arg(long, value_name = "URL", default_value = link::SITE)]
    pub site: String,
    /// Print JSON instead of text: per turn `turn`, `player`, `action`, `max_before`,
    /// `max_after` (and their `_upper` bounds), `proven`, `best_moves`, `link` and, for a turn
    /// that lowered the maximum, `lost` (what it lost) and `best_link`; at the top `link` and
    /// `lost_at`.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ReviewArgs) -> anyhow::Result<()> {
    let config = args.search.config()?;
    let game = analysis::read_game(&args.game)?;
    let review = analysis::review(&game, &args.game, &config, &args.site)?;
    let mut out = String::new();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&review)?)?;
    } else {
        write!(out, "{review}")?;
    }
    outln!("{}", out.trim_end());
    Ok(())
}
