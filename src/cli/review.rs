//! `hanabi-solver review GAME`: a whole game, turn by turn.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use hanabi_solver::analysis::{self, chart, ChanceConfig, Progress, ReviewOptions};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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
    /// Also give, for each turn, the chance to win of the action taken and of the best action
    /// when the players see every hand but not the draw pile: exact over every order of the
    /// pile where it has at most 1,000,000 orders (the last turns), else the share of
    /// --samples random piles from which the perfect score is still reachable with every card
    /// known (an estimate that can only be too high, with its 95% interval). --time-limit
    /// bounds each turn's exact attempt and then its sampling (1 s each by default).
    #[arg(long)]
    pub hidden: bool,
    /// With --hidden: random piles per turn where the exact answer is out of reach.
    #[arg(long, value_name = "N", default_value_t = 100, requires = "hidden")]
    pub samples: usize,
    /// With --hidden: the seed of the random piles (the same seed gives the same figures).
    #[arg(long, value_name = "S", default_value_t = 0, requires = "hidden")]
    pub rng_seed: u64,
    /// Draw the most reachable score over the turns (and with --hidden the chances to win)
    /// as an SVG picture in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Print JSON instead of text: per turn `turn`, `player`, `action`, `max_before`,
    /// `max_after` (and their `_upper` bounds), `proven`, `best_moves`, `best_move_groups`
    /// (the same moves in groups equal in every figure, each with the `max` and `upper` they
    /// keep and its `moves`), `link` and, for a turn that lowered the maximum, `lost` (what it
    /// lost) and `best_link`; with --hidden `chance`
    /// (`mode` "exact" or "sampled", `taken` and `best` each with `action`, `win` and a
    /// `fraction` or an `interval`); at the top `link` and `lost_at`.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ReviewArgs) -> anyhow::Result<()> {
    let config = args.search.config()?;
    if args.hidden && args.samples == 0 {
        bail!("--samples must be at least 1");
    }
    let site = &args.site.site;
    let game = analysis::read_game(&args.game, site)?;
    let options = ReviewOptions {
        chances: args.hidden.then(|| ChanceConfig {
            search: config.clone(),
            samples: args.samples,
            rng_seed: args.rng_seed,
        }),
        search: config,
        site: site.clone(),
    };
    let bar = progress_bar();
    let review = analysis::review(&game, &args.game, &options, &mut |p: Progress| {
        if bar.length() != Some(p.total as u64) {
            bar.set_length(p.total as u64);
            bar.set_message(p.stage);
        }
        bar.set_position(p.done as u64);
    })?;
    bar.finish_and_clear();
    if let Some(path) = &args.svg {
        let svg = chart::review_svg(&review)?;
        std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut out = String::new();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&review)?)?;
    } else {
        write!(out, "{review}")?;
    }
    outln!("{}", out.trim_end());
    Ok(())
}

/// A bar on stderr when it is a terminal, hidden otherwise.
fn progress_bar() -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(None, target);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} {elapsed}") {
        bar.set_style(style);
    }
    bar
}
