//! `hanabi-solver replay GAME.json`.

use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A hanab.live game export (JSON).
    pub game: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_args: ReplayArgs) -> anyhow::Result<()> {
    anyhow::bail!("replay is not built yet")
}
