//! `hanabi-solver solve`: the maximum score of a deal or position with every card known, and a
//! line to it.
//!
//! What is solved: a seed, a whole deck (`--deck`), a position file (`FILE.hanabi` or
//! `--position FILE`), or the position at some turn of a hanab.live game export
//! (`GAME.json --turn N`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use clap::Args;
use hanabi_solver::error::Error;
use hanabi_solver::game::card::Card;
use hanabi_solver::game::rules::{score_words, Rules, DEFAULT_NAMES};
use hanabi_solver::hanablive::{self, GameExport};
use hanabi_solver::hidden::{exact, sample_until, ExactConfig};
use hanabi_solver::line::describe;
use hanabi_solver::position::{self, Position};
use hanabi_solver::search::reason::{loss_reason_until, REASON_NODES};
use hanabi_solver::search::{deadline_after, solve, SolveConfig, Tuning};
use hanabi_solver::seed::{seed_from_link, shuffled_deck};
use hanabi_solver::state::{Deal, State, NOT_FINAL};

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A seed: a hanab.live seed name (p2v0s1 = 2 players, variant 0, seed 1), a seed link
    /// (https://hanab.live/seed/p2v0s1), or any string with --players. A name ending in .hanabi is a position file (see --position); one ending
    /// in .json is a hanab.live game export (see --turn).
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
    /// With a hanab.live game export (GAME.json): solve the position at this turn, numbered as
    /// hanab.live's replays number turns: turn 1 is the start of the game, turn N the position
    /// before the game's N-th action. Default 1.
    #[arg(long, value_name = "N")]
    pub turn: Option<usize>,
    /// Which cards are known: `open` (every card, the default), `cheat` (every hand known, the
    /// draw pile hidden; with --exact or --samples), or `seat=K` for a game export at a turn:
    /// player K's view, the pile and K's own hand hidden, each of K's cards narrowed to what
    /// the clues K was given allow (with --samples; K a name or a seat number from 1). Position
    /// files keep their `?` cards hidden whatever the view.
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
    /// Write the optimal line as a hanab.live game JSON that `replay` and hanab.live can load.
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
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
        })
    }
}

/// What `solve` works on, ready for the search.
struct Problem {
    /// "seed p2v0s1", "position FILE", ...
    label: String,
    deal: Deal,
    state: State,
    names: Vec<String>,
    /// The whole deck, when the position is the start of a deal.
    deck: Option<Vec<Card>>,
    /// The game export and the action index of the position, for a hanab.live game.
    game: Option<(GameExport, usize)>,
    /// Whether the position is a game in progress (printed in full).
    in_progress: bool,
    /// Number of the first turn of the line (1, or the game turn).
    first_turn: usize,
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

/// Which cards are known.
#[derive(Clone, Debug, PartialEq, Eq)]
enum View {
    /// Every card.
    Open,
    /// Every hand, not the draw pile.
    Cheat,
    /// One seat's view: the pile and that seat's own hand hidden (a name or a seat number
    /// counted from 1, resolved once the players are known).
    Seat(String),
}

fn parse_view(view: Option<&str>) -> anyhow::Result<View> {
    match view {
        None | Some("open") => Ok(View::Open),
        Some("cheat") => Ok(View::Cheat),
        Some(v) if v.starts_with("seat=") && v.len() > 5 => Ok(View::Seat(v[5..].to_string())),
        Some(v) => bail!(
            "unknown --view {v:?}: use open (every card known), cheat (hands known, draw pile \
             hidden) or seat=K (K's view: the pile and K's own hand hidden; K a name or a seat \
             number from 1)"
        ),
    }
}

fn position_problem(path: &Path) -> anyhow::Result<Problem> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let pos = position::read(&text).map_err(|f| anyhow!("{}: {f}", path.display()))?;
    let (deal, state) = pos.open().map_err(|e| match e {
        Error::Position { line, message } => anyhow!(
            "{}: line {line}: {message}; use --exact for exact values when only pile cards are \
             hidden, or --samples N (e.g. --samples 1000) for a sampled estimate",
            path.display()
        ),
        other => anyhow!("{}: {other}", path.display()),
    })?;
    Ok(Problem {
        label: format!("position {}", path.display()),
        deal,
        state,
        names: pos.names,
        deck: None,
        game: None,
        in_progress: true,
        first_turn: 1,
    })
}

fn game_problem(path: &Path, turn: usize) -> anyhow::Result<Problem> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let game = hanablive::read(&text).with_context(|| path.display().to_string())?;
    if turn == 0 {
        bail!("--turn counts from 1 (turn 1 is the start of the game)");
    }
    let index = turn - 1;
    let tracker = if index <= game.actions.len() {
        Some(hanablive::replay_to(&game, index).with_context(|| path.display().to_string())?)
    } else {
        None
    };
    if tracker.as_ref().is_none_or(|t| t.is_over()) {
        let (last, end) = last_open_turn(&game).with_context(|| path.display().to_string())?;
        bail!(
            "--turn {turn}: the turns of {} that can be solved are 1 to {last} (the game is \
             over at turn {}: {end})",
            path.display(),
            last + 1
        );
    }
    let tracker = tracker.expect("checked above");
    Ok(Problem {
        label: format!("game {} at turn {turn}", path.display()),
        deal: tracker.deal().clone(),
        state: *tracker.state(),
        names: tracker.names().to_vec(),
        deck: None,
        in_progress: index > 0,
        game: Some((game, index)),
        first_turn: turn,
    })
}

/// The last turn of `game` with the game still in play, and why it is over after it (or that
/// the export stops there).
fn last_open_turn(game: &GameExport) -> anyhow::Result<(usize, String)> {
    for index in 1..=game.actions.len() {
        let t = hanablive::replay_to(game, index)?;
        if t.is_over() {
            return Ok((index, t.end_reason()));
        }
    }
    Ok((
        game.actions.len() + 1,
        "the export has no more actions".to_string(),
    ))
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

/// Refuses rule options next to a file that sets the rules itself.
fn check_no_rule_flags(args: &SolveArgs, what: &str) -> anyhow::Result<()> {
    let flags = rule_flags(args);
    if !flags.is_empty() {
        bail!(
            "{} cannot be used with a {what} file: the file sets the rules",
            flags.join(", ")
        );
    }
    Ok(())
}

fn problem(args: &SolveArgs) -> anyhow::Result<Problem> {
    let source = args.seed.as_deref();
    let position = position_path(args);
    let game = source.filter(|s| is_ext(s, ".json")).map(PathBuf::from);
    if position.is_some() || game.is_some() {
        check_no_rule_flags(args, if game.is_some() { "game" } else { "position" })?;
    }
    if args.turn.is_some() && game.is_none() {
        bail!("--turn needs a hanab.live game export (GAME.json)");
    }
    if let Some(path) = position {
        return position_problem(&path);
    }
    if let Some(path) = game {
        return game_problem(&path, args.turn.unwrap_or(1));
    }
    let (label, rules, deck) = match (&args.seed, &args.deck) {
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
            ("the given deck".to_string(), rules, deck)
        }
        (Some(seed), None) => {
            let seed = seed_from_link(seed);
            let rules = args.game.rules_for_seed(seed)?;
            let deck = shuffled_deck(seed, &rules.variant);
            (format!("seed {seed}"), rules, deck)
        }
        (None, None) => bail!("give a seed (e.g. p2v0s1), --deck or a position file"),
    };
    let (deal, state) = Deal::from_deck(rules.clone(), &deck)?;
    Ok(Problem {
        label,
        deal,
        state,
        names: DEFAULT_NAMES[..rules.players as usize]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        deck: Some(deck),
        game: None,
        in_progress: false,
        first_turn: 1,
    })
}

/// The optimal line of a game export as a hanab.live game: the game's actions up to the
/// position, then the line.
fn export_game(
    game: &GameExport,
    index: usize,
    line: &[hanabi_solver::state::Action],
) -> anyhow::Result<GameExport> {
    let mut t = hanablive::replay_to(game, index)?;
    let mut actions = game.actions[..index].to_vec();
    for (i, &action) in line.iter().enumerate() {
        if t.is_over() {
            break;
        }
        let a = t
            .to_export(action)
            .map_err(|e| anyhow!("internal error: line action {i}: {e}"))?;
        t.step(&a)
            .map_err(|e| anyhow!("internal error: line action {i}: {e}"))?;
        actions.push(a);
    }
    if !t.is_over() {
        actions.push(hanablive::ExportAction::game_over(
            t.state().turn,
            hanablive::TERMINATED,
        ));
    }
    let mut out = hanablive::export(&t.deal().rules, &game.players, t.deck(), &actions)?;
    out.id = game.id;
    out.seed = game.seed.clone();
    Ok(out)
}

/// The position in words, for a game in progress.
fn position_words(p: &Problem) -> Vec<String> {
    let rules = &p.deal.rules;
    let v = &rules.variant;
    let s = &p.state;
    let mut out = Vec::new();
    let stacks: Vec<String> = (0..v.suits.len())
        .map(|i| v.stack_name(i as u8, s.stacks[i]))
        .collect();
    let left = p.deal.pile_left(s);
    let round = if s.final_turns != NOT_FINAL {
        format!(
            ", final round: {} turn{} left",
            s.final_turns,
            if s.final_turns == 1 { "" } else { "s" }
        )
    } else {
        String::new()
    };
    let count = |n: u8, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let tokens_words = |rules: &Rules, units: u8| {
        let text = rules.tokens().text(units);
        format!("{text} clue{}", if text == "1" { "" } else { "s" })
    };
    out.push(format!(
        "Position: {} to move; fireworks {} (score {}); {}, {}; {} in the deck{round}",
        p.names[s.turn as usize],
        stacks.join(" "),
        s.score(rules),
        tokens_words(rules, s.clues),
        count(s.strikes, "strike"),
        count(left, "card"),
    ));
    for (seat, name) in p.names.iter().enumerate() {
        let hand: Vec<String> = s.hand(seat).iter().map(|&c| v.card_name(c)).collect();
        out.push(format!("  {name}: {}", hand.join(" ")));
    }
    out
}

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    // The time limit covers the whole command: reading and setting up the problem too.
    let started = Instant::now();
    let mut config = args.search.config()?;
    let deadline = deadline_after(started, config.time_limit);
    let view = parse_view(args.view.as_deref())?;
    if args.exact || args.samples.is_some() || view != View::Open {
        return run_hidden(&args, view, &config, started);
    }
    let p = problem(&args)?;
    config.time_limit = time_left(deadline);
    if args.export.is_some() && p.deck.is_none() && p.game.is_none() {
        bail!("--export needs a whole game: a seed, --deck or a hanab.live game export, not a position file");
    }
    let (deal, state, names) = (&p.deal, &p.state, &p.names);
    let rules = &deal.rules;
    let solution = solve(deal, state, &config);
    let (mut steps, end) = describe(deal, state, &solution.line, names)
        .map_err(|(i, e)| anyhow!("internal error: line action {i} is illegal: {e}"))?;
    if end.score(rules) != solution.lower_bound {
        bail!(
            "internal error: the line scores {} but the search claims {}",
            end.score(rules),
            solution.lower_bound
        );
    }
    for s in &mut steps {
        s.turn += p.first_turn - 1;
    }
    if let Some(path) = &args.export {
        let game = match (&p.deck, &p.game) {
            (Some(deck), _) => hanablive::export_line(deck, rules, names, &solution.line)?,
            (None, Some((game, index))) => export_game(game, *index, &solution.line)?,
            (None, None) => unreachable!("checked above"),
        };
        std::fs::write(path, hanablive::to_json(&game))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let mut wrote_turn = None;
    if let Some(path) = &args.write_position {
        let turn = args.write_turn.unwrap_or(p.first_turn);
        let last = p.first_turn + solution.line.len() - 1;
        if turn < p.first_turn || turn > last {
            bail!(
                "--write-turn {turn}: the line's turns are {} to {last}",
                p.first_turn
            );
        }
        let mut s = *state;
        for &a in &solution.line[..turn - p.first_turn] {
            s = s
                .apply(deal, a)
                .map_err(|e| anyhow!("internal error: {e}"))?;
        }
        let mut text = if turn == p.first_turn {
            format!("# {}\n", p.label)
        } else {
            format!(
                "# {}: the position before turn {turn} of an optimal line\n",
                p.label
            )
        };
        text += &position::write(deal, &s, names);
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
        wrote_turn = Some((turn, path));
    }
    let perfect = solution.perfect_score;
    let v = &rules.variant;
    // For a position proven not winnable: the first test that rules the perfect score out.
    let reason = if solution.proven && !solution.winnable() {
        loss_reason_until(deal, state, REASON_NODES, deadline)
    } else {
        None
    };
    if args.json {
        let mut out = serde_json::json!({
            "deal": p.label,
            "players": rules.players,
            "names": names,
            "variant": v.name,
            "variant_id": v.id,
            "endless": rules.endless,
            "max_score": solution.max_score,
            "perfect_score": perfect,
            "winnable": solution.verdict(),
            "proven": solution.proven,
            "lower_bound": solution.lower_bound,
            "upper_bound": solution.upper_bound,
            "score_words": score_words(solution.max_score, perfect),
            "line": steps,
            "nodes": solution.nodes,
            "seconds": solution.seconds,
            "table_entries": solution.table_entries,
        });
        if let Some(r) = reason {
            out["reason"] = serde_json::json!(r.name());
        }
        if let Some(deck) = &p.deck {
            out["deck"] =
                serde_json::json!(deck.iter().map(|&c| v.card_name(c)).collect::<Vec<_>>());
        }
        if p.in_progress || p.game.is_some() {
            let s = state;
            let cards = |cs: &[Card]| cs.iter().map(|&c| v.card_name(c)).collect::<Vec<_>>();
            out["position"] = serde_json::json!({
                "turn": p.first_turn,
                "to_move": names[s.turn as usize],
                "hands": (0..names.len()).map(|i| cards(s.hand(i))).collect::<Vec<_>>(),
                "pile": cards(&deal.pile[s.drawn as usize..]),
                "stacks": s.stacks[..v.suits.len()].iter().map(|h| h.height()).collect::<Vec<_>>(),
                "score": s.score(rules),
                "clues": tokens_json(rules, s.clues),
                "strikes": s.strikes,
                "final_turns": (s.final_turns != NOT_FINAL).then_some(s.final_turns),
            });
        }
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    outln!(
        "Deal: {}, {} players, {} (hand size {}, {} clues, {} strikes{})",
        p.label,
        rules.players,
        v.name,
        rules.hand_size,
        rules.max_tokens(),
        rules.max_strikes,
        if rules.endless { ", endless" } else { "" }
    );
    if p.in_progress {
        for line in position_words(&p) {
            outln!("{line}");
        }
    }
    if solution.proven {
        let verdict = if solution.winnable() {
            "winnable".to_string()
        } else if rules.endless {
            "not winnable: every line loses".to_string()
        } else {
            "not winnable".to_string()
        };
        outln!(
            "Maximum score: {} of {perfect}: {verdict} ({})",
            solution.max_score,
            score_words(solution.max_score, perfect)
        );
        if let Some(r) = reason {
            outln!("Why {perfect} is out of reach: {}.", r.describe());
        }
    } else {
        outln!(
            "Not proven (time limit): the maximum score is at least {} and at most {} of {perfect}",
            solution.lower_bound,
            solution.upper_bound
        );
    }
    let what = if solution.proven {
        "An optimal line"
    } else {
        "The best line found"
    };
    outln!(
        "{what} ({} turns, reaching {}):",
        steps.len(),
        end.score(rules)
    );
    for s in &steps {
        outln!("  {:>3}. {}", s.turn, s.text);
    }
    outln!(
        "Searched {} positions in {:.3} s ({} table entries).",
        solution.nodes,
        solution.seconds,
        solution.table_entries
    );
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

/// What the time left before `deadline` is, for a search that starts now (at least a
/// millisecond, so a search past its deadline stops at once with what it proved).
fn time_left(deadline: Option<Instant>) -> Option<Duration> {
    deadline.map(|d| {
        d.saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1))
    })
}

/// The position a hidden-card analysis works on, and its label: a position file as written
/// (its `?` hidden), or any other problem with every card known; `--view cheat` then hides the
/// draw pile.
fn hidden_position(args: &SolveArgs, view: &View) -> anyhow::Result<(String, Position)> {
    for (given, name) in [
        (args.export.is_some(), "--export"),
        (args.write_position.is_some(), "--write-position"),
    ] {
        if given {
            bail!("{name} needs a line of play, which --exact, --samples and --view cheat do not give");
        }
    }
    let (label, mut pos) = match position_path(args) {
        Some(path) => {
            check_no_rule_flags(args, "position")?;
            if args.turn.is_some() {
                bail!("--turn needs a hanab.live game export (GAME.json)");
            }
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            let pos = position::read(&text).map_err(|f| anyhow!("{}: {f}", path.display()))?;
            (path.display().to_string(), pos)
        }
        None => {
            let p = problem(args)?;
            let file = position::PositionFile::from_state(&p.deal, &p.state, &p.names);
            let pos = Position::new(&file)
                .map_err(|f| anyhow!("internal error: the position does not read back: {f}"))?;
            (p.label, pos)
        }
    };
    match view {
        View::Open => {}
        View::Cheat => pos.hide_pile(),
        View::Seat(who) => {
            let source = args.seed.as_deref().filter(|s| is_ext(s, ".json"));
            let Some(path) = source else {
                bail!(
                    "--view seat=K needs a hanab.live game export (GAME.json --turn N): the \
                     clues a seat was given come from the game's actions"
                );
            };
            let seat = match who.parse::<usize>() {
                Ok(k) if (1..=pos.names.len()).contains(&k) => k - 1,
                Ok(k) => bail!(
                    "--view seat={k}: seats are numbered 1 to {}",
                    pos.names.len()
                ),
                Err(_) => pos.names.iter().position(|n| n == who).ok_or_else(|| {
                    anyhow!(
                        "--view seat={who}: no player of that name; the players are {}",
                        pos.names.join(", ")
                    )
                })?,
            };
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
            let game = hanablive::read(&text).with_context(|| path.to_string())?;
            let index = args.turn.unwrap_or(1) - 1;
            let masks =
                hanablive::clue_knowledge(&game, index, seat).with_context(|| path.to_string())?;
            pos.hide_pile();
            pos.hide_hand(seat, &masks);
        }
    }
    Ok((label, pos))
}

/// `--exact`, `--samples N` or `--view cheat`: a position with hidden cards.
fn run_hidden(
    args: &SolveArgs,
    view: View,
    config: &SolveConfig,
    started: Instant,
) -> anyhow::Result<()> {
    let deadline = deadline_after(started, config.time_limit);
    let (label, pos) = hidden_position(args, &view)?;
    if args.exact {
        return run_exact(args, &label, &pos, config, deadline);
    }
    match args.samples {
        Some(n) => run_samples(args, n, &label, &pos, config, deadline),
        None if view == View::Cheat => bail!(
            "--view cheat hides the draw pile: add --exact for exact values, or --samples N for a \
             sampled estimate"
        ),
        None => bail!(
            "--view seat=K hides the pile and K's hand: add --samples N for a sampled estimate \
             (--exact needs every hand known)"
        ),
    }
}

/// The first line of a hidden-card analysis.
fn position_header(label: &str, pos: &Position, hidden: usize) -> String {
    let rules = &pos.rules;
    format!(
        "Position: {label}, {} players, {} (hand size {}); {} to move; {} hidden card{}",
        rules.players,
        rules.variant.name,
        rules.hand_size,
        pos.names[pos.turn as usize],
        hidden,
        if hidden == 1 { "" } else { "s" }
    )
}

/// `--exact`: exact values over every order of the hidden pile.
fn run_exact(
    args: &SolveArgs,
    label: &str,
    pos: &Position,
    config: &SolveConfig,
    deadline: Option<Instant>,
) -> anyhow::Result<()> {
    if args.search.max_nodes.is_some() {
        bail!("--max-nodes does not apply to --exact; use --time-limit");
    }
    let exact_config = ExactConfig {
        threads: config.threads,
        tt_mb: config.tt_mb,
        time_limit: time_left(deadline),
        max_orders: args.max_orders,
    };
    let result = exact(pos, &exact_config).map_err(|e| anyhow!("{label}: {e}"))?;
    if args.json {
        let moves: Vec<_> = result
            .moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "action": m.name,
                    "slot": m.slot,
                    "win_probability": m.win_probability.to_f64(),
                    "win_probability_fraction": m.win_probability.to_string(),
                    "expected_score": m.expected_score.to_f64(),
                    "expected_score_fraction": m.expected_score.to_string(),
                })
            })
            .collect();
        let out = serde_json::json!({
            "mode": "exact",
            "position": label,
            "to_move": pos.names[pos.turn as usize],
            "hidden": result.hidden,
            "orders": result.orders.to_string(),
            "perfect_score": result.perfect_score,
            "moves": moves,
            "nodes": result.nodes,
            "seconds": result.seconds,
            "table_entries": result.table_entries,
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    outln!("{}", position_header(label, pos, result.hidden));
    outln!(
        "Exact values: the hidden pile cards come in any of {} equally likely orders; players \
         see every hand and each card as it is drawn. \"win\" is the probability of reaching {} \
         with the play that maximises it, \"score\" the expected final score with the play that \
         maximises that.",
        result.orders,
        result.perfect_score
    );
    outln!("Slots count from 1, oldest card first.");
    let w = result
        .moves
        .iter()
        .map(|m| m.win_probability.to_string().len())
        .max()
        .unwrap_or(0)
        .max(3);
    outln!(
        "  {:<20} {:>8}  {:>w$}  {:>7}  expected score",
        "action",
        "win",
        "",
        "score"
    );
    for m in &result.moves {
        outln!(
            "  {:<20} {:>7.3}%  {:>w$}  {:>7.3}  {}",
            m.name,
            100.0 * m.win_probability.to_f64(),
            m.win_probability.to_string(),
            m.expected_score.to_f64(),
            m.expected_score
        );
    }
    outln!(
        "Searched {} positions in {:.3} s ({} table entries).",
        result.nodes,
        result.seconds,
        result.table_entries
    );
    Ok(())
}

/// `--samples N`: sampled determinizations of a position with hidden cards.
fn run_samples(
    args: &SolveArgs,
    samples: usize,
    label: &str,
    pos: &Position,
    config: &SolveConfig,
    deadline: Option<Instant>,
) -> anyhow::Result<()> {
    if samples == 0 {
        bail!("--samples must be at least 1");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .context("starting worker threads")?;
    let estimate = pool
        .install(|| sample_until(pos, samples, args.rng_seed, config, deadline))
        .map_err(|e| anyhow!("{label}: {e}"))?;
    if estimate.samples == 0 {
        bail!("the time limit ended before the first sample was solved: allow more time");
    }
    let unproven: usize = estimate.moves.iter().map(|m| m.unproven).sum();
    if args.json {
        let moves: Vec<_> = estimate
            .moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "action": m.name,
                    "slot": m.slot,
                    "win_probability": m.win_probability,
                    "expected_score": m.expected_score,
                    "ci95": {
                        "win_probability": [m.win_ci95.0, m.win_ci95.1],
                        "expected_score": [m.score_ci95.0, m.score_ci95.1],
                    },
                    "unproven": m.unproven,
                })
            })
            .collect();
        let out = serde_json::json!({
            "mode": "samples",
            "position": label,
            "to_move": pos.names[pos.turn as usize],
            "hidden": estimate.hidden,
            "perfect_score": estimate.perfect_score,
            "samples": estimate.samples,
            "requested_samples": estimate.requested,
            "rng_seed": estimate.rng_seed,
            "moves": moves,
            "unproven": unproven,
            "optimistic": true,
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    outln!("{}", position_header(label, pos, estimate.hidden));
    outln!(
        "Optimistic estimate from {} sampled determinizations (rng seed {}): each sample fills \
         the hidden cards at random and is solved as if every card were known, so real play, \
         which cannot see them, can only do as well or worse.",
        estimate.samples,
        estimate.rng_seed
    );
    if estimate.samples < estimate.requested {
        outln!(
            "The time limit came after {} of the {} samples asked for; the figures cover those.",
            estimate.samples,
            estimate.requested
        );
    }
    outln!(
        "Slots count from 1, oldest card first; the perfect score is {}.",
        estimate.perfect_score
    );
    outln!(
        "  {:<20} {:>7}  {:<17} {:>6}  {:<15} {:>8}",
        "action",
        "win",
        "95% interval",
        "score",
        "95% interval",
        "unproven"
    );
    for m in &estimate.moves {
        outln!(
            "  {:<20} {:>6.1}%  [{:>5.1}%, {:>5.1}%] {:>6.2}  [{:>5.2}, {:>5.2}] {:>8}",
            m.name,
            100.0 * m.win_probability,
            100.0 * m.win_ci95.0,
            100.0 * m.win_ci95.1,
            m.expected_score,
            m.score_ci95.0,
            m.score_ci95.1,
            m.unproven
        );
    }
    if unproven > 0 {
        outln!(
            "{unproven} solve{} stopped at a limit before {} proven: {} score{} a proven lower bound.",
            if unproven == 1 { " was" } else { "s were" },
            if unproven == 1 { "it was" } else { "they were" },
            if unproven == 1 { "its" } else { "their" },
            if unproven == 1 { " is" } else { "s are" },
        );
    }
    Ok(())
}

/// Clue tokens for JSON: a whole number, or a number with a half in Clue Starved.
fn tokens_json(rules: &Rules, units: u8) -> serde_json::Value {
    if units.is_multiple_of(rules.tokens().scale) {
        serde_json::json!(units / rules.tokens().scale)
    } else {
        serde_json::json!(f64::from(units) / f64::from(rules.tokens().scale))
    }
}
