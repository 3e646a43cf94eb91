//! `hanabi-solver review GAME`: a whole game, turn by turn.

use std::fmt::Write as _;

use clap::Args;
use hanabi_solver::analysis;

use super::solve::SearchArgs;

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game: a hanab.live export file (GAME.json), a finished game on the site by id
    /// (194321) or address (https://hanab.live/replay/194321, .../shared-replay/ID or
    /// .../export/ID; downloaded from --site), or a replay link
    /// (https://hanab.live/replay-json/..., as `solve --link` prints). An existing file of that
    /// name is always read as a file.
    pub game: String,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub site: super::SiteArg,
    /// Print JSON instead of text: per turn `turn`, `player`, `action`, `max_before`,
    /// `max_after` (and their `_upper` bounds), `proven`, `best_moves`, `link` and, for a turn
    /// that lowered the maximum, `best_link`; at the top `link` and `lost_at`.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ReviewArgs) -> anyhow::Result<()> {
    let config = args.search.config()?;
    let site = &args.site.site;
    let game = analysis::read_game(&args.game, site)?;
    let review = analysis::review(&game, &args.game, &config, site)?;
    let mut out = String::new();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&review)?)?;
    } else {
        write!(out, "{review}")?;
    }
    outln!("{}", out.trim_end());
    Ok(())
}
