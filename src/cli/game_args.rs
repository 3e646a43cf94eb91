//! The rule options shared by every command that sets up a game.

use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use hanabi_solver::game::catalogue::Catalogue;
use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::seed::parse_seed_name;

/// Options that say which game is played. Unset values come from the seed name or the defaults.
#[derive(Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// Number of players, 2 to 6 (taken from a hanab.live seed name such as p2v0s1 if omitted).
    #[arg(long)]
    pub players: Option<u8>,
    /// Variant: a hanab.live variant name ("Pink (5 Suits)", any case) or id, or a short name
    /// such as no-variant or black (`hanabi-solver variants WORDS` finds names and ids).
    #[arg(long)]
    pub variant: Option<String>,
    /// Research deck: number of ordinary suits, 1 to 6 (overrides --variant).
    #[arg(long)]
    pub suits: Option<u8>,
    /// Research deck: number of ranks, 1 to 5 (with --suits; default 5).
    #[arg(long, requires = "suits")]
    pub ranks: Option<u8>,
    /// Cards per hand (default: 5 for 2-3 players, 4 for 4-5, 3 for 6).
    #[arg(long)]
    pub hand_size: Option<u8>,
    /// Clue tokens, all available at the start (default 8).
    #[arg(long)]
    pub clues: Option<u8>,
    /// Strikes that end the game (default 3).
    #[arg(long)]
    pub strikes: Option<u8>,
    /// Allow clues that touch no card.
    #[arg(long)]
    pub empty_clues: bool,
    /// Allow playing the last card of the pile blind.
    #[arg(long)]
    pub deck_plays: bool,
    /// Endless mode: no final round; the outcome is perfect or loss.
    #[arg(long)]
    pub endless: bool,
    /// Take variants (by --variant or seed name) from newer copies of hanab.live's files: a
    /// folder holding variants.json and suits.json, or a variants.json with suits.json beside it
    /// (see `variants --help`).
    #[arg(long, value_name = "DIR|FILE")]
    pub variants_json: Option<PathBuf>,
}

impl GameArgs {
    pub fn options(&self) -> Options {
        Options {
            hand_size: self.hand_size,
            clues: self.clues,
            strikes: self.strikes,
            empty_clues: self.empty_clues,
            deck_plays: self.deck_plays,
            endless: self.endless,
        }
    }

    /// The variant these arguments name, falling back to `default` (from a seed name) and then
    /// to No Variant.
    pub fn variant(&self, default: Option<Variant>) -> anyhow::Result<Variant> {
        if let Some(s) = self.suits {
            return Ok(Variant::research(s, self.ranks.unwrap_or(5))?);
        }
        match &self.variant {
            Some(v) => Ok(self.with_catalogue(|cat| Variant::parse_in(cat, v))?),
            None => Ok(default.unwrap_or_else(Variant::no_variant)),
        }
    }

    /// Runs `f` on the catalogue these arguments name: the built-in one, or the site's files
    /// given with --variants-json.
    fn with_catalogue<T>(
        &self,
        f: impl FnOnce(&Catalogue) -> Result<T, hanabi_solver::Error>,
    ) -> anyhow::Result<T> {
        match &self.variants_json {
            Some(path) => Ok(f(&super::variants::load(path)?)?),
            None => Ok(f(Catalogue::builtin())?),
        }
    }

    /// Checked rules, with `players` and `variant` defaults taken from a seed name if any.
    pub fn rules(
        &self,
        seed_players: Option<u8>,
        seed_variant: Option<Variant>,
    ) -> anyhow::Result<Rules> {
        let variant = self.variant(seed_variant)?;
        let players = self.players.or(seed_players).ok_or_else(|| {
            anyhow::anyhow!("say how many players with --players (or use a seed name like p2v0s1)")
        })?;
        Ok(Rules::new(variant, players, &self.options())?)
    }

    /// Rules for a seed string: a hanab.live name `p{players}v{id}s{n}` fixes players and
    /// variant (options that contradict it are refused); any other string needs `--players`.
    pub fn rules_for_seed(&self, seed: &str) -> anyhow::Result<Rules> {
        let game = self;
        let Some((players, variant_id)) = parse_seed_name(seed)? else {
            if game.players.is_none() {
                bail!(
                    "{:?} is not a hanab.live seed name (p{{players}}v{{variant id}}s{{suffix}}, e.g. p2v0s1), \
                     so say how many players with --players",
                    seed
                );
            }
            return game.rules(None, None);
        };
        let variant = self
            .with_catalogue(|cat| Variant::by_id_in(cat, variant_id))
            .with_context(|| format!("seed {}", seed))?;
        if let Some(p) = game.players {
            if p != players {
                bail!(
                    "seed {} is a {players}-player seed but --players says {p}",
                    seed
                );
            }
        }
        if game.variant.is_some() || game.suits.is_some() {
            let given = game.variant(None)?;
            if given.id != Some(variant_id) {
                bail!(
                    "seed {} is for {} (id {variant_id}) but the options ask for {}",
                    seed,
                    variant.name,
                    given.name
                );
            }
        }
        game.rules(Some(players), Some(variant))
    }
}
