//! `hanabi-solver solve`: the maximum score of a deal or position with every card known, and a
//! line to it.
//!
//! What is solved: a seed, a whole deck (`--deck`), a position file (`FILE.hanabi` or
//! `--position FILE`), or the position at some turn of a hanab.live game (`GAME --turn N`:
//! an export file, a game on the site by id or address, or a replay link). This module turns
//! the arguments into a [`Source`] and a [`View`], checks the options that only make sense
//! together, and prints what the library's [`analysis`] reports; the files it writes come from
//! the library too.

use std::fmt::Display;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, bail, Context};
use clap::Args;
use hanabi_solver::analysis::{
    self, time_left, AnalysisError, ExactReport, Problem, SampleReport, Source, TeamReport, View,
    ViewedPosition,
};
use hanabi_solver::hanablive::address::GameAddress;
use hanabi_solver::hanablive::{self, link};
use hanabi_solver::hidden::team::TeamConfig;
use hanabi_solver::hidden::worlds::MergeDead;
use hanabi_solver::hidden::ExactConfig;
use hanabi_solver::search::{deadline_after, SolveConfig, Tuning};
use hanabi_solver::seed::seed_from_link;
use serde::Serialize;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A seed: a hanab.live seed name (p2v0s1 = 2 players, variant 0, seed 1), a seed link
    /// (https://hanab.live/seed/p2v0s1), or any string with --players. A name ending in .hanabi
    /// is a position file (see --position); one ending in .json is a hanab.live game export.
    /// A game on the site, by id (194321) or address (https://hanab.live/replay/194321#N,
    /// .../shared-replay/ID or .../export/ID), is downloaded from --site, and a replay link
    /// (https://hanab.live/replay-json/...#N) is a game too; either opens at its turn N (see
    /// --turn). A bare number is a game id, unless --players makes it a seed string.
    #[arg(required_unless_present_any = ["deck", "position"])]
    pub seed: Option<String>,
    /// The whole deck instead of a seed, top first, e.g. "r1 y3 b2 ...". Seat 0 is dealt the
    /// first cards, as hanab.live deals.
    #[arg(long, conflicts_with_all = ["seed", "position"])]
    pub deck: Option<String>,
    /// A position file to solve (the .hanabi format of positions/README.md): hands, fireworks,
    /// discards, tokens and the draw pile of a game in progress. It sets the rules itself.
    #[arg(long, value_name = "FILE", conflicts_with = "seed")]
    pub position: Option<PathBuf>,
    /// With a hanab.live game (GAME.json, a game id or address, a replay link): solve the
    /// position at this turn, numbered as
    /// hanab.live's replays number turns: turn 1 is the start of the game, turn N the position
    /// before the game's N-th action. Default 1.
    #[arg(long, value_name = "N")]
    pub turn: Option<usize>,
    /// Which cards are known: `open` (every card, the default), `cheat` (every hand known, the
    /// draw pile hidden; with --exact or --samples), or `seat=K` for a game export at a turn:
    /// player K's view, the pile and K's own hand hidden, each of K's cards narrowed to what
    /// the clues K was given allow (with --samples; K a name or a seat number from 1), or
    /// `team`: every hand hidden from its holder, each card narrowed to what the clues its
    /// holder was given allow, and the pile hidden. Position files keep their hidden cards (`?`,
    /// `r?`, `?1`, `?{r1,r3}`) hidden whatever the view, and are the team's view as written.
    #[arg(long, value_name = "VIEW")]
    pub view: Option<String>,
    /// Write a position of the optimal line as a position file (.hanabi): by default the
    /// position solved, or the one before --write-turn.
    #[arg(long, value_name = "FILE")]
    pub write_position: Option<PathBuf>,
    /// With --write-position: the turn of the printed line before which to write the position.
    #[arg(long, value_name = "N", requires = "write_position")]
    pub write_turn: Option<usize>,
    #[command(flatten)]
    pub game: super::GameArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub sat: super::SatArgs,
    /// Write the optimal line as a hanab.live game JSON that `replay` and hanab.live can load.
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
    /// Print the hanab.live replay link of the optimal line (https://hanab.live/replay-json/...,
    /// which opens the game on the site without an account): for a seed or a deck the whole
    /// line, for a game export at a turn the game as played up to that turn and then the line,
    /// opening at that turn. A link carries no game options, so a game with options (empty
    /// clues, deck plays, ...) is refused: use --export.
    #[arg(long)]
    pub link: bool,
    #[command(flatten)]
    pub site: super::SiteArg,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// For a position file with hidden cards (`?`): fill them with N random orderings of the
    /// unseen cards and solve every action of the player to move in each, as if every card
    /// were known (an optimistic estimate). Works without hidden cards too. --threads is how
    /// many samples run at once; --max-nodes and --tt-mb apply to each solve. --time-limit
    /// covers the whole run: samples not started by then are left out, and the output says
    /// how many were taken.
    #[arg(long, value_name = "N")]
    pub samples: Option<usize>,
    /// With --samples: the seed of the random orderings (the same seed gives the same numbers
    /// on any number of threads).
    #[arg(long, value_name = "S", default_value_t = 0, requires = "samples")]
    pub rng_seed: u64,
    /// For a position whose hidden cards (`?`, or --view cheat) are all in the draw pile: the
    /// exact win probability and expected score of every action of the player to move, over
    /// every order of the hidden cards, players seeing each card as it is drawn. Exact
    /// fractions. --threads is how many actions are analysed at once; --time-limit and --tt-mb
    /// apply.
    #[arg(long, conflicts_with = "samples")]
    pub exact: bool,
    /// With --exact: refuse a hidden pile with more equally likely orders than this (the work
    /// grows with it; 8 different hidden cards have 40,320 orders).
    #[arg(long, value_name = "N", default_value_t = hanabi_solver::hidden::exact::DEFAULT_MAX_ORDERS, requires = "exact")]
    pub max_orders: u128,
    /// Team play with hidden hands: nobody sees their own cards. The position's hidden hand
    /// cards (`?`, `r?`, `?1`, `?{r1,r3}` in a position file; for a game at --turn, every hand
    /// card, narrowed by the clues given) are seen by everyone but their holder, the pile by
    /// nobody. Prints the exact win probability and expected score of the team's best joint
    /// strategy, each player acting only on what it has seen, and the value of each first
    /// move, beside the every-card-known and per-view figures (upper bounds). --time-limit
    /// stops with proven bounds.
    #[arg(long, conflicts_with_all = ["samples", "exact"])]
    pub team: bool,
    /// With --team: the most worlds (ways the hidden cards may lie) searched one by one; each
    /// is kept in memory. Past it, the dead cards (those that can never be played) are merged:
    /// one world per placement of the live cards, and the team value becomes proven bounds
    /// (exact where they meet). A position with more merged worlds than this is refused.
    #[arg(long, value_name = "N", default_value_t = hanabi_solver::hidden::team::DEFAULT_MAX_WORLDS, requires = "team")]
    pub max_worlds: u64,
    /// With --team: merge the dead cards even when the worlds are few (to compare the bounds
    /// of the merged search with the exact value).
    #[arg(long, requires = "team")]
    pub merge_dead: bool,
}

/// Limits and resources of a search.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Worker threads (default: all cores). The answer is the same for any number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Memory cap of the transposition table, in MiB.
    #[arg(long, default_value_t = 1024)]
    pub tt_mb: usize,
    /// Stop after this many seconds; the result then gives proven bounds, marked unproven.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Stop after about this many search nodes (reproducible with --threads 1); like the time
    /// limit, the result then gives proven bounds.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
}

impl SearchArgs {
    pub fn config(&self) -> anyhow::Result<SolveConfig> {
        let threads = super::threads_option(self.threads)?;
        if self.tt_mb == 0 {
            bail!("--tt-mb must be at least 1");
        }
        let time_limit = super::time_limit_option(self.time_limit)?;
        Ok(SolveConfig {
            threads,
            tt_mb: self.tt_mb,
            time_limit,
            max_nodes: self.max_nodes,
            tuning: Tuning::FULL,
            ..SolveConfig::default()
        })
    }
}

/// The rule options given on the command line, which a position or game file cannot take.
fn rule_flags(args: &SolveArgs) -> Vec<&'static str> {
    let g = &args.game;
    let mut out = Vec::new();
    for (given, name) in [
        (g.players.is_some(), "--players"),
        (g.variant.is_some(), "--variant"),
        (g.suits.is_some(), "--suits"),
        (g.ranks.is_some(), "--ranks"),
        (g.hand_size.is_some(), "--hand-size"),
        (g.clues.is_some(), "--clues"),
        (g.strikes.is_some(), "--strikes"),
        (g.empty_clues, "--empty-clues"),
        (g.deck_plays, "--deck-plays"),
        (g.endless, "--endless"),
    ] {
        if given {
            out.push(name);
        }
    }
    out
}

/// Whether `name` ends in `ext` (any case) with something before it. A name whose last bytes
/// fall inside a multi-byte character does not.
fn is_ext(name: &str, ext: &str) -> bool {
    name.len() > ext.len()
        && name
            .get(name.len() - ext.len()..)
            .is_some_and(|tail| tail.eq_ignore_ascii_case(ext))
}

/// The position file named by the arguments, if any.
fn position_path(args: &SolveArgs) -> Option<PathBuf> {
    args.position.clone().or_else(|| {
        args.seed
            .as_deref()
            .filter(|s| is_ext(s, ".hanabi"))
            .map(PathBuf::from)
    })
}

/// Whether the positional argument `arg` names a game rather than a seed: an export file
/// (`.json`), a replay link, a game on the site (an id or an address of it) or another web
/// address (which reading then refuses, naming the addresses it takes). A seed link is a seed,
/// and a bare number given with `--players` a seed string, as any string is with it.
fn is_game(arg: &str, args: &SolveArgs) -> bool {
    if is_ext(arg, ".json") {
        return true;
    }
    match GameAddress::classify(arg) {
        GameAddress::File(_) | GameAddress::SeedLink(_) => false,
        GameAddress::ReplayLink(_) | GameAddress::OtherUrl(_) => true,
        GameAddress::GameId(_) => {
            !arg.bytes().all(|b| b.is_ascii_digit()) || args.game.players.is_none()
        }
    }
}

/// What the arguments ask to solve. Rule options are refused next to a file that sets the
/// rules itself; a seed or deck gets its rules from the options (and the seed name).
fn source(args: &SolveArgs) -> anyhow::Result<Source> {
    let position = position_path(args);
    let game_arg = args.seed.as_deref().filter(|s| is_game(s, args));
    let game = game_arg.map(PathBuf::from);
    if position.is_some() || game.is_some() {
        let flags = rule_flags(args);
        if !flags.is_empty() {
            bail!(
                "{} cannot be used with a {} file: the file sets the rules",
                flags.join(", "),
                if game.is_some() { "game" } else { "position" }
            );
        }
    }
    if args.turn.is_some() && game.is_none() {
        bail!("--turn needs a hanab.live game export (GAME.json), a game id or address, or a replay link");
    }
    if let Some(path) = position {
        return Ok(Source::PositionFile(path));
    }
    if let Some(path) = game {
        // A replay link's or replay address's `#N` opens turn N, as on the site.
        let turn = args
            .turn
            .or_else(|| game_arg.and_then(link::link_turn))
            .unwrap_or(1);
        return Ok(Source::Game {
            path,
            turn,
            site: args.site.site.clone(),
        });
    }
    match (&args.seed, &args.deck) {
        (_, Some(text)) => {
            let rules = args.game.rules(None, None)?;
            let deck = text
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .map(|t| {
                    rules
                        .variant
                        .parse_card(t.trim_matches(|c| c == '[' || c == ']'))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Source::Deck { deck, rules })
        }
        (Some(seed), None) => {
            let seed = seed_from_link(seed);
            let rules = args.game.rules_for_seed(seed)?;
            Ok(Source::Seed {
                seed: seed.to_string(),
                rules,
            })
        }
        (None, None) => bail!("give a seed (e.g. p2v0s1), --deck or a position file"),
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    // The time limit covers the whole command: reading and setting up the problem too.
    let started = Instant::now();
    let mut config = args.search.config()?;
    let deadline = deadline_after(started, config.time_limit);
    let view: View = match &args.view {
        Some(text) => text.parse()?,
        None => View::Open,
    };
    if args.exact || args.samples.is_some() || args.team || view != View::Open {
        if args.sat.certify {
            bail!(
                "--certify certifies the best score of a position with every card known; it does \
                 not apply to --exact, --samples, --team or --view"
            );
        }
        return run_hidden(&args, view, &config, deadline);
    }
    let p = Problem::new(&source(&args)?)?;
    config.time_limit = time_left(deadline);
    if (args.export.is_some() || args.link) && !p.is_whole_game() {
        return Err(AnalysisError::NotAWholeGame.into());
    }
    let sat_after = args.sat.sat_after(config.max_nodes)?;
    let report = analysis::solve(&p, &config, deadline, sat_after, args.sat.certify)?;
    let link = if args.link {
        let id = p.deal.rules.variant.id.ok_or_else(|| {
            anyhow!("--link needs a hanab.live variant (the site cannot show a research deck)")
        })?;
        let game = p.export_line(&report.actions)?;
        Some(link::replay_link(
            &args.site.site,
            &game,
            id,
            Some(p.first_turn),
        )?)
    } else {
        None
    };
    if let Some(path) = &args.export {
        let game = p.export_line(&report.actions)?;
        std::fs::write(path, hanablive::to_json(&game))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let mut wrote_turn = None;
    if let Some(path) = &args.write_position {
        let turn = args.write_turn.unwrap_or(p.first_turn);
        let text = p.position_on_line(&report.actions, turn)?;
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
        wrote_turn = Some((turn, path));
    }
    if args.json {
        let mut value = serde_json::to_value(&report)?;
        if let Some(link) = &link {
            value["link"] = serde_json::Value::from(link.as_str());
        }
        outln!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    print_report(&report, false)?;
    if !report.proven {
        if let Some(hint) = unproven_hint(args.search.time_limit, args.search.max_nodes) {
            outln!("{hint}");
        }
    }
    if let Some(link) = &link {
        outln!("On hanab.live (opens at turn {}): {link}", p.first_turn);
    }
    if let Some(path) = &args.export {
        outln!("Wrote the line as a hanab.live game to {}.", path.display());
    }
    if let Some((turn, path)) = wrote_turn {
        outln!(
            "Wrote the position before turn {turn} to {}.",
            path.display()
        );
    }
    Ok(())
}

/// How to settle a deal that a limit stopped: the same command with a longer limit, five
/// times the time (at least a minute, as `seeds` suggests for its undecided seeds) or ten
/// times the nodes. `None` where no limit was given.
fn unproven_hint(time_limit: Option<f64>, max_nodes: Option<u64>) -> Option<String> {
    let longer = |t| format!("--time-limit {}", super::longer_time_limit(t));
    let more = |n: u64| format!("--max-nodes {}", n.saturating_mul(10));
    let limits = match (time_limit, max_nodes) {
        (None, None) => return None,
        (t @ Some(_), None) => longer(t),
        (None, Some(n)) => more(n),
        (t @ Some(_), Some(n)) => format!("{} and {}", longer(t), more(n)),
    };
    Some(format!(
        "To settle it, run it again with a longer limit ({limits}, say)."
    ))
}

/// `--exact`, `--samples N` or a view with hidden cards: a position with hidden cards, which
/// has no line of play.
fn run_hidden(
    args: &SolveArgs,
    view: View,
    config: &SolveConfig,
    deadline: Option<Instant>,
) -> anyhow::Result<()> {
    for (given, name) in [
        (args.export.is_some(), "--export"),
        (args.link, "--link"),
        (args.write_position.is_some(), "--write-position"),
    ] {
        if given {
            bail!("{name} needs a line of play, which --exact, --samples, --team and --view cheat do not give");
        }
    }
    if args.team {
        if view != View::Open {
            bail!(
                "--team makes its own view (every hand hidden from its holder): leave out --view"
            );
        }
        if args.search.max_nodes.is_some() {
            bail!("--max-nodes does not apply to --team; use --time-limit");
        }
        let viewed = ViewedPosition::new(&source(args)?, &View::Team)?;
        let team_config = TeamConfig {
            time_limit: time_left(deadline),
            max_worlds: args.max_worlds,
            merge_dead: if args.merge_dead {
                MergeDead::Always
            } else {
                MergeDead::WhenTooMany
            },
            search: SolveConfig {
                threads: 1,
                time_limit: None,
                max_nodes: None,
                ..config.clone()
            },
        };
        return print_report(&TeamReport::new(&viewed, &team_config)?, args.json);
    }
    let viewed = ViewedPosition::new(&source(args)?, &view)?;
    if args.exact {
        if args.search.max_nodes.is_some() {
            bail!("--max-nodes does not apply to --exact; use --time-limit");
        }
        let exact_config = ExactConfig {
            threads: config.threads,
            tt_mb: config.tt_mb,
            time_limit: time_left(deadline),
            max_orders: args.max_orders,
        };
        return print_report(&ExactReport::new(&viewed, &exact_config)?, args.json);
    }
    match args.samples {
        Some(0) => bail!("--samples must be at least 1"),
        Some(n) => print_report(
            &SampleReport::new(&viewed, n, args.rng_seed, config, deadline)?,
            args.json,
        ),
        None if view == View::Cheat => bail!(
            "--view cheat hides the draw pile: add --exact for exact values, or --samples N for a \
             sampled estimate"
        ),
        None if view == View::Team => bail!(
            "--view team hides the pile and every hand: add --samples N for a sampled estimate \
             (--exact needs every hand known)"
        ),
        None => bail!(
            "--view seat=K hides the pile and K's hand: add --samples N for a sampled estimate \
             (--exact needs every hand known)"
        ),
    }
}

/// Prints `report` as JSON or as text.
fn print_report(report: &(impl Serialize + Display), json: bool) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(report)?);
    } else {
        outln!("{report}");
    }
    Ok(())
}
