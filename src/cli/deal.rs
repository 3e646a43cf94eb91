//! `hanabi-solver deal SEED`.

use clap::Args;

#[derive(Args, Debug)]
pub struct DealArgs {
    /// Seed name, e.g. p2v0s1.
    pub seed: String,
    #[command(flatten)]
    pub game: super::GameArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_args: DealArgs) -> anyhow::Result<()> {
    anyhow::bail!("deal is not built yet")
}
