//! `hanabi-solver seeds`: solves a range of seeds in parallel (one seed per thread), appends a
//! JSON line per seed to `--out` as each finishes (skipping seeds the file already holds), and
//! prints a summary; `--summarize` rebuilds the summary from such files.
//!
//! A regular `--out` file is locked (an exclusive advisory lock, `flock` on Unix) for the whole
//! run, so that a second run writing it at once is refused instead of solving the same seeds
//! again and doubling their lines. `--out -` streams the lines to standard output (the summary
//! then goes to standard error), and an `--out` that is not a regular file (a pipe, a FIFO,
//! /dev/stdout) is written without being read back or locked.

use std::collections::HashSet;
use std::fs::{File, Metadata, OpenOptions, TryLockError};
use std::io::{BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use clap::Args;
use hanabi_solver::analysis::problem::Problem;
use hanabi_solver::analysis::seed_record;
use hanabi_solver::batch::{self, Entry, Game, Record, Shard, Summary};
use hanabi_solver::game::rules::Rules;
use hanabi_solver::portfolio::{self, SatPlan};
use hanabi_solver::sat::proof::score_out_of_reach;
use hanabi_solver::search::reason::LossReason;
use hanabi_solver::search::SolveConfig;
use hanabi_solver::spare_cores::SpareCores;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use super::{longer_time_limit, GameArgs};

#[derive(Args, Debug)]
pub struct SeedsArgs {
    /// First seed number: the suffix of hanab.live seed names p{players}v{variant id}s{number},
    /// or the number after --prefix.
    #[arg(long, default_value_t = 1, value_name = "A")]
    pub from: u64,
    /// How many seeds: numbers A, A+1, ..., A+C-1.
    #[arg(long, value_name = "C", required_unless_present = "summarize")]
    pub count: Option<u64>,
    /// Seed strings are {prefix}{number} instead of hanab.live's names; players and variant then
    /// come from the options (or from the name, if it is a hanab.live name).
    #[arg(long, value_name = "STR")]
    pub prefix: Option<String>,
    /// Solve only the I-th of N disjoint slices of the range (seed number i is in slice
    /// ((i - A) mod N) + 1), e.g. to run the slices on N machines and concatenate their --out
    /// files.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    #[command(flatten)]
    pub game: GameArgs,
    /// Threads in all (default: all cores, at most 1024): --threads / --cores-per-seed seeds
    /// are solved at once.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Cores each seed holds, 1 or 2. With 1 (the default) each seed is solved on one thread,
    /// the SAT solver, where it joins, sharing that core with the search (a hard seed may
    /// borrow a second core, see --no-lending). With 2, half as many
    /// seeds are solved at once, and a seed the search has not settled after --sat-after gets
    /// the SAT solver on a second core of its own; with 4 or more players the search then
    /// hands its own core to a second SAT formula (a block per card drawn) at 0.9 s. The hard
    /// seeds then settle sooner (6-player Black at 2 s a seed: about half as many left
    /// undecided), the easy ones take as long as before, and a run takes longer in all.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u8).range(1..=2))]
    pub cores_per_seed: u8,
    /// With one core a seed, never lend a core to a hard seed. By default a worker done with
    /// its seed first lends its core to any seed that asks for one (with 4 or more players, a
    /// seed one core has not settled in 0.9 s asks, for a second SAT formula) and takes the
    /// next seed once the loan is back, so the few hard seeds get two cores and the others
    /// one; a worker with no seed left lends until the last seeds are done.
    #[arg(long)]
    pub no_lending: bool,
    /// With one core a seed, solve every seed in one pass. By default, with a time limit, the
    /// SAT solver, 4 or more players and cores lent (several threads, not --no-lending), a
    /// run makes two: every seed first gets the search
    /// alone on one core until --sat-after, and the seeds still open then get both the SAT
    /// solver's formulas, one core each, one seed per two cores, for the rest of their time
    /// limit, starting from the bounds the first pass proved. The hard seeds then never
    /// share the machine with another seed (6-player Black at 2 s a seed: about half as many
    /// left undecided, and the run no slower); their records are written at the end.
    #[arg(long)]
    pub one_pass: bool,
    /// Memory cap of each seed's transposition table, in MiB (default: 4096 shared by the
    /// seeds solved at once, at most solve's 1024 each: 1024 with up to 4 threads,
    /// 256 with 16). A seed whose search outgrows its table starts the table afresh and slows
    /// down, which matters for long time limits.
    #[arg(long, value_name = "MIB")]
    pub tt_mb: Option<usize>,
    /// Stop each seed after this many seconds; it then counts as undecided, with the bounds
    /// proven so far. A limit too long for any clock (1e30) is no limit.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    #[command(flatten)]
    pub sat: super::SatArgs,
    /// Stop each seed after about this many search nodes (like --time-limit, but reproducible).
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Append one JSON line per seed to this file as each finishes (seed, deck, max_score,
    /// winnable (null when undecided), proven, bounds, nodes, seconds, and for a seed proven not
    /// winnable the reason). If the file exists, the seeds it holds are skipped, so an
    /// interrupted run is resumed by running it again. The file is locked while a run writes it:
    /// a second run writing it at once is refused. `-` writes the lines to standard output (the
    /// summary then goes to standard error); a pipe or FIFO is written without resuming.
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Solve again the seeds the --out file holds as undecided (a limit stopped them), for
    /// instance with a longer --time-limit: their new records are appended, and the summaries
    /// keep a proven record of a seed over an undecided one.
    #[arg(long, requires = "out")]
    pub retry_undecided: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Solve nothing: summarise these --out files (a seed in several is counted once).
    #[arg(
        long,
        value_name = "FILE.jsonl",
        num_args = 1..,
        conflicts_with_all = ["count", "out", "shard", "prefix"]
    )]
    pub summarize: Vec<PathBuf>,
}

/// The most seeds one run solves: the numbers still to do are listed in memory.
const MAX_RUN_SEEDS: u64 = 100_000_000;

/// Where the JSON lines go.
struct Out {
    /// The file (holding its lock, if it is a regular file) or standard output.
    writer: Box<dyn Write>,
    /// The name for messages.
    name: String,
    /// Whether the lines go to standard output, so that the summary must not.
    is_stdout: bool,
    /// Whether it is a regular file, read back to resume.
    regular: bool,
}

/// Whether `meta` is of the file standard output is.
#[cfg(unix)]
fn is_stdout(meta: &Metadata) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return false;
    };
    match File::from(fd).metadata() {
        Ok(m) => (m.dev(), m.ino()) == (meta.dev(), meta.ino()),
        Err(_) => false,
    }
}

#[cfg(not(unix))]
fn is_stdout(_: &Metadata) -> bool {
    false
}

/// Opens `--out`. A regular file (made if missing) is locked, then the records it holds (all of
/// which must be of `game`) are read and returned, and an incomplete last line left by an
/// interrupted run is cut off. `-` is standard output; anything else that is not a regular file
/// (a pipe, a FIFO, a device) is only written: nothing is read back and nothing is locked.
fn open_out(path: &Path, game: &Game) -> anyhow::Result<(Out, Vec<Entry>)> {
    if path.as_os_str() == "-" {
        let out = Out {
            writer: Box::new(std::io::stdout()),
            name: "standard output".to_string(),
            is_stdout: true,
            regular: false,
        };
        return Ok((out, Vec::new()));
    }
    let name = path.display().to_string();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => bail!("--out {name} is a directory, not a file"),
        Ok(meta) if !meta.is_file() => {
            let file = OpenOptions::new()
                .append(true)
                .open(path)
                .with_context(|| format!("opening {name} to write"))?;
            let out = Out {
                writer: Box::new(file),
                name,
                is_stdout: is_stdout(&meta),
                regular: false,
            };
            return Ok((out, Vec::new()));
        }
        _ => {}
    }
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .with_context(|| format!("opening {name} to write"))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => bail!(
            "{name} is being written by another seeds run (it holds the file's lock); wait for \
             it or choose another --out"
        ),
        // A file system without locks (some network ones): still write, with a warning.
        Err(TryLockError::Error(e)) => eprintln!(
            "note: {name} cannot be locked here ({e}); make sure no other run writes it at once"
        ),
    }
    let loaded = batch::read_records(BufReader::new(&file), &name)?;
    batch::check_game(&loaded.entries, game, "this run", &name)
        .map_err(|e| anyhow!("{e}; write to another --out file"))?;
    let meta = file.metadata().with_context(|| format!("reading {name}"))?;
    if loaded.good_len < meta.len() {
        file.set_len(loaded.good_len)
            .with_context(|| format!("cutting off the incomplete end of {name}"))?;
        if let Some(line) = loaded.partial_line {
            eprintln!(
                "note: {name}: line {line} was incomplete (an interrupted run); removed it, so \
                 its seed is solved again"
            );
        }
    }
    let out = Out {
        writer: Box::new(file),
        name,
        is_stdout: is_stdout(&meta),
        regular: true,
    };
    Ok((out, loaded.entries))
}

fn progress(total: usize) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total as u64), target);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} seeds, {msg}, {per_sec}, {elapsed} elapsed, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    bar.set_message("0 winnable");
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// The summary of a run, with what only a run knows.
#[derive(Serialize)]
struct RunReport<'a> {
    game: &'a Game,
    first_seed: String,
    last_seed: String,
    shard: Option<String>,
    out: Option<String>,
    already_done: usize,
    solved_now: usize,
    /// Seeds solved at once.
    threads: usize,
    /// Cores each seed held (`--cores-per-seed`).
    cores_per_seed: usize,
    tt_mb: usize,
    time_limit: Option<f64>,
    max_nodes: Option<u64>,
    wall_seconds: f64,
    /// Seeds solved now per second of wall-clock time.
    seeds_per_second: Option<f64>,
    #[serde(flatten)]
    summary: &'a Summary,
}

#[derive(Serialize)]
struct FilesReport<'a> {
    files: Vec<String>,
    game: Option<&'a Game>,
    /// Records of seeds that appeared before (counted once).
    duplicates: usize,
    #[serde(flatten)]
    summary: &'a Summary,
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The undecided seeds (and the bounds without a proof) named, at most this many: a user
/// settling them needs their names, and a long list would bury the figures (every record is in
/// the --out file).
const UNDECIDED_NAMED: usize = 10;

/// The undecided seeds of `entries` with their proven bounds, the first [`UNDECIDED_NAMED`]
/// of them in seed order, then `settle`: how to settle them.
fn print_undecided(w: &mut dyn Write, entries: &[Entry], settle: &str) -> std::io::Result<()> {
    let undecided: Vec<&Entry> = entries.iter().filter(|e| !e.outcome.proven).collect();
    if undecided.is_empty() {
        return Ok(());
    }
    let label = "undecided (best line found to proven most)";
    name_first(w, label, undecided, |e| {
        let o = &e.outcome;
        format!("{} ({} to {})", e.seed, o.lower_bound, o.upper_bound)
    })?;
    writeln!(w, "  to settle them: {settle}")
}

/// The seeds whose upper bound is below the perfect score but has no checked proof, the first
/// [`UNDECIDED_NAMED`] of them in seed order with the score each leaves to certify, then how to
/// certify one.
fn print_uncertified(w: &mut dyn Write, entries: &[Entry]) -> std::io::Result<()> {
    let left: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.outcome.bound_below_perfect() && !e.outcome.certified())
        .collect();
    if left.is_empty() {
        return Ok(());
    }
    name_first(w, "not certified", left, |e| {
        let o = &e.outcome;
        let score = score_out_of_reach(o.upper_bound, o.perfect_score, e.game.endless);
        format!("{} ({score} out of reach)", e.seed)
    })?;
    writeln!(
        w,
        "  to certify one with more time: hanabi-solver solve SEED --certify --time-limit 600"
    )
}

/// One line: `label`, then the first [`UNDECIDED_NAMED`] of `entries` in seed order (p2v0s9
/// before p2v0s10, whatever order the workers finished in) as `describe` writes each, and how
/// many more there are.
fn name_first(
    w: &mut dyn Write,
    label: &str,
    mut entries: Vec<&Entry>,
    describe: impl Fn(&Entry) -> String,
) -> std::io::Result<()> {
    entries.sort_by(|a, b| (a.seed.len(), &a.seed).cmp(&(b.seed.len(), &b.seed)));
    let named: Vec<String> = entries
        .iter()
        .take(UNDECIDED_NAMED)
        .map(|e| describe(e))
        .collect();
    let more = entries.len() - named.len();
    writeln!(
        w,
        "  {label}: {}{}",
        named.join(", "),
        if more > 0 {
            format!(", and {more} more")
        } else {
            String::new()
        }
    )
}

/// How to settle the undecided seeds of a run: solve them again with a longer limit than
/// `time_limit` (a larger node limit where `by_nodes`), from the --out file that holds them
/// (`out`, where the run wrote a regular file).
fn settle_hint(out: Option<&str>, by_nodes: bool, time_limit: Option<f64>) -> String {
    let limit = if by_nodes {
        "a larger --max-nodes (or none)".to_string()
    } else {
        format!(
            "a longer limit (--time-limit {}, say)",
            longer_time_limit(time_limit)
        )
    };
    match out {
        Some(path) => format!(
            "run the same command again with --retry-undecided and {limit}: it solves only the \
             undecided seeds of {path} again"
        ),
        None => format!(
            "run the same command with --out FILE.jsonl, then again with --retry-undecided and \
             {limit}"
        ),
    }
}

/// The figures of a summary as text (the first lines, which say what was summarised, are the
/// caller's), the undecided seeds among `entries` named with `settle`, how to settle them.
fn print_summary(
    w: &mut dyn Write,
    s: &Summary,
    entries: &[Entry],
    settle: &str,
) -> std::io::Result<()> {
    let [lo, hi] = s.winnable_ci95;
    writeln!(
        w,
        "Winnable (proven): {} of {} ({}; 95% Wilson interval {} to {})",
        s.winnable,
        s.seeds,
        percent(s.winnable_share),
        percent(lo),
        percent(hi)
    )?;
    writeln!(w, "Not winnable (proven): {}", s.not_winnable)?;
    if s.undecided > 0 {
        let out_of_reach = s.undecided - s.maybe_winnable;
        writeln!(
            w,
            "Undecided (a limit stopped the search): {}, of which {} may still be winnable{}",
            s.undecided,
            s.maybe_winnable,
            if out_of_reach > 0 {
                format!(
                    " (the other {out_of_reach} cannot be won, but their maximum score is not \
                     proven)"
                )
            } else {
                String::new()
            }
        )?;
        writeln!(
            w,
            "  so the winnable share is between {} and {}",
            percent(s.winnable_share),
            percent(s.winnable_share_max)
        )?;
        print_undecided(w, entries, settle)?;
    } else {
        writeln!(w, "Undecided: 0")?;
    }
    if !s.histogram.is_empty() {
        writeln!(w, "Maximum scores (decided seeds):")?;
        let decided = (s.seeds - s.undecided) as f64;
        for (score, n) in s.histogram.iter().rev() {
            writeln!(w, "  {score:>3} {n:>8} {:>7}", percent(*n as f64 / decided))?;
        }
    }
    if !s.loss_reasons.is_empty() {
        writeln!(w, "Why the seeds proven not winnable are lost (the first test that rules the perfect score out):")?;
        for reason in LossReason::ALL {
            if let Some(n) = s.loss_reasons.get(reason.name()) {
                writeln!(w, "  {n:>8}  {:<12} {}", reason.name(), reason.describe())?;
            }
        }
        for (name, n) in &s.loss_reasons {
            if !LossReason::ALL.iter().any(|r| r.name() == name) {
                writeln!(w, "  {n:>8}  {name:<12} not found within the node limit")?;
            }
        }
    }
    if let Some(c) = s.certified {
        writeln!(
            w,
            "Certified (a checked proof that no line goes above the bound): {} of the {} seeds \
             with an upper bound below the perfect score",
            c.checked, c.bounds
        )?;
        print_uncertified(w, entries)?;
    }
    if let Some(mean) = s.mean_max_score {
        writeln!(
            w,
            "Mean maximum score: {mean:.3} of {} (over {} decided seeds)",
            s.perfect_score.unwrap_or(0),
            s.seeds - s.undecided
        )?;
    }
    writeln!(
        w,
        "Time per seed: median {:.4} s, p99 {:.4} s, max {:.4} s (total {:.1} s{})",
        s.median_seconds,
        s.p99_seconds,
        s.max_seconds,
        s.total_seconds,
        match s.lent_a_core {
            0 => String::new(),
            n => format!(
                ", of which {:.1} s on a second core lent to {n} hard seed{}",
                s.lent_seconds,
                if n == 1 { "" } else { "s" }
            ),
        }
    )
}

fn summarize(args: &SeedsArgs) -> anyhow::Result<()> {
    let mut all = Vec::new();
    let mut game: Option<(Game, String)> = None;
    for path in &args.summarize {
        let name = path.display().to_string();
        let loaded = batch::read_file(path)?;
        if let Some(line) = loaded.partial_line {
            eprintln!("note: {name}: line {line} is incomplete (an interrupted run); ignored it");
        }
        if game.is_none() {
            if let Some(first) = loaded.entries.first() {
                game = Some((first.game.clone(), format!("{name} line {}", first.line)));
            }
        }
        if let Some((g, from)) = &game {
            batch::check_game(&loaded.entries, g, from, &name)
                .map_err(|e| anyhow!("{e}; summarise each game separately"))?;
        }
        all.extend(loaded.entries);
    }
    let records = all.len();
    let entries = batch::unique(all)?;
    let summary = Summary::of(&entries);
    let files: Vec<String> = args
        .summarize
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    if args.json {
        let report = FilesReport {
            files,
            game: game.as_ref().map(|g| &g.0),
            duplicates: records - entries.len(),
            summary: &summary,
        };
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    outln!(
        "Seeds: {} in {}{}",
        summary.seeds,
        files.join(", "),
        match &game {
            Some((g, _)) => format!(" ({g})"),
            None => String::new(),
        }
    );
    if records > entries.len() {
        outln!(
            "  ({} records of seeds already seen were counted once)",
            records - entries.len()
        );
    }
    // An undecided seed's time is about the limit that stopped it.
    let stopped_at = entries
        .iter()
        .filter(|e| !e.outcome.proven)
        .map(|e| e.outcome.seconds)
        .reduce(f64::max);
    let settle = format!(
        "solve them again from their file, with the run's own options and a longer limit: \
         seeds ... --out FILE.jsonl --retry-undecided --time-limit {}",
        longer_time_limit(stopped_at)
    );
    print_summary(&mut std::io::stdout(), &summary, &entries, &settle)?;
    if let Some(rate) = summary.seeds_per_thread_second {
        outln!("Speed: {rate:.1} seeds/s per thread (solving time only)");
    }
    Ok(())
}

/// Memory all the seeds' tables may take together by default, in MiB.
const DEFAULT_TT_TOTAL_MB: usize = 4096;

/// Each seed's table cap when `--tt-mb` is not given: [`DEFAULT_TT_TOTAL_MB`] shared by the
/// seeds solved at once, at most solve's default. Few threads thus keep the long searches of
/// hard seeds (60 s and more) from outgrowing their tables; many keep the total bounded.
fn default_tt_mb(threads: usize) -> usize {
    (DEFAULT_TT_TOTAL_MB / threads.max(1)).clamp(1, SolveConfig::default().tt_mb)
}

/// The seeds of a run: numbers `from..=last`, those of one shard.
struct SeedRange {
    from: u64,
    last: u64,
    shard: Shard,
    /// How many seeds of the range are in the shard.
    in_run: u64,
}

impl SeedRange {
    /// The range `--from` and `--count` give, cut to `--shard`.
    fn of(args: &SeedsArgs) -> anyhow::Result<SeedRange> {
        let count = args.count.context("say how many seeds with --count")?;
        if count == 0 {
            bail!("--count 0 gives an empty range of seeds; give --count 1 or more");
        }
        let from = args.from;
        let last = from
            .checked_add(count - 1)
            .context("--from + --count is beyond the largest seed number")?;
        let shard = match &args.shard {
            Some(s) => s.parse::<Shard>()?,
            None => Shard::ALL,
        };
        let in_run = shard.len(from, last);
        if in_run > MAX_RUN_SEEDS {
            bail!(
                "this run would solve {in_run} seeds, more than the {MAX_RUN_SEEDS} one run takes; \
                 split the range with --from and --count, or with --shard"
            );
        }
        Ok(SeedRange {
            from,
            last,
            shard,
            in_run,
        })
    }

    /// Whether seed number `i` is one of this run's.
    fn contains(&self, i: u64) -> bool {
        self.from <= i && i <= self.last && self.shard.contains(i, self.from)
    }
}

/// What seed number i is named: `{prefix}{i}`, the prefix being `--prefix` or hanab.live's
/// `p{players}v{variant id}s`.
fn seed_prefix(args: &SeedsArgs) -> anyhow::Result<String> {
    if let Some(prefix) = &args.prefix {
        return Ok(prefix.clone());
    }
    let players = args.game.players.context(
        "say how many players with --players (the seeds are hanab.live's \
         p{players}v{variant id}s{number}; use --prefix for other seed strings)",
    )?;
    let variant = args.game.variant(None)?;
    let id = variant.id.with_context(|| {
        format!(
            "{} has no hanab.live seed names; use --prefix for other seed strings",
            variant.name
        )
    })?;
    Ok(format!("p{players}v{id}s"))
}

/// What the `--out` file already holds for a run.
struct Resumed {
    /// The records of this run's seeds, one per seed.
    old: Vec<Entry>,
    /// The numbers of the seeds not to solve again.
    done: HashSet<u64>,
    /// How many records are of seeds outside this run.
    outside: usize,
}

impl Resumed {
    /// Sorts `entries` into this run's seeds (`number` gives a seed's number in the run) and
    /// others; a seed already done is one with a record, or with `retry_undecided` one with a
    /// proven record.
    fn of(
        entries: Vec<Entry>,
        number: impl Fn(&str) -> Option<u64>,
        retry_undecided: bool,
    ) -> anyhow::Result<Resumed> {
        let outside = entries.iter().filter(|e| number(&e.seed).is_none()).count();
        let old: Vec<Entry> = entries
            .into_iter()
            .filter(|e| number(&e.seed).is_some())
            .collect();
        let old = batch::unique(old)?;
        let done: HashSet<u64> = old
            .iter()
            .filter(|e| e.outcome.proven || !retry_undecided)
            .filter_map(|e| number(&e.seed))
            .collect();
        Ok(Resumed { old, done, outside })
    }
}

pub fn run(args: SeedsArgs) -> anyhow::Result<()> {
    if !args.summarize.is_empty() {
        return summarize(&args);
    }
    let plan = Plan::of(&args)?;
    let (mut out, entries) = match &args.out {
        Some(path) => {
            let (out, entries) = open_out(path, &plan.game)?;
            (Some(out), entries)
        }
        None => (None, Vec::new()),
    };
    let Resumed { old, done, outside } =
        Resumed::of(entries, |seed| plan.number(seed), args.retry_undecided)?;
    let todo: Vec<u64> = plan
        .range
        .shard
        .numbers(plan.range.from, plan.range.last)
        .filter(|i| !done.contains(i))
        .collect();
    let written = out.as_ref().map(|o| Written {
        name: o.name.clone(),
        regular: o.regular,
        outside,
    });
    if !done.is_empty() {
        eprintln!(
            "{} of the {} seeds are already done in {}; solving the other {}",
            done.len(),
            plan.range.in_run,
            written.as_ref().map_or("", |o| o.name.as_str()),
            todo.len()
        );
    }

    // No more workers than seeds to solve.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.pool_threads(todo.len()))
        .build()
        .context("starting the worker threads")?;
    let start = Instant::now();
    let new = plan.solve(&pool, &todo, out.as_mut())?;
    let wall = start.elapsed().as_secs_f64();
    let solved_now = new.len();
    let mut entries = old;
    entries.extend(new);
    // A seed solved again keeps its proven record (`--retry-undecided`).
    let entries = batch::unique(entries)?;
    let summary = Summary::of(&entries);
    // With the lines on standard output, the summary goes to standard error.
    let lines_on_stdout = out.as_ref().is_some_and(|o| o.is_stdout);
    // Closing the file releases its lock.
    drop(out);
    let mut w: Box<dyn Write> = if lines_on_stdout {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    let report = RunReport {
        game: &plan.game,
        first_seed: plan.name(plan.range.from),
        last_seed: plan.name(plan.range.last),
        shard: args.shard.as_ref().map(|_| plan.range.shard.to_string()),
        out: args.out.as_ref().map(|p| p.display().to_string()),
        already_done: done.len(),
        solved_now,
        threads: plan.workers(todo.len()),
        cores_per_seed: plan.cores_per_seed,
        tt_mb: plan.config.tt_mb,
        time_limit: args.time_limit,
        max_nodes: args.max_nodes,
        wall_seconds: wall,
        seeds_per_second: (solved_now > 0 && wall > 0.0).then(|| solved_now as f64 / wall),
        summary: &summary,
    };
    if args.json {
        writeln!(w, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    let settle = settle_hint(
        written
            .as_ref()
            .filter(|o| o.regular)
            .map(|o| o.name.as_str()),
        args.max_nodes.is_some(),
        args.time_limit,
    );
    print_run(&mut w, &report, written.as_ref(), &entries, &settle)?;
    Ok(())
}

/// What a run solves, and how: read from the options (each checked, in this order) before
/// the `--out` file is opened.
struct Plan {
    range: SeedRange,
    /// Threads in all, at most.
    threads: usize,
    /// Cores each seed holds (`--cores-per-seed`).
    cores_per_seed: usize,
    /// Workers lend their cores to the hard seeds (not `--no-lending`).
    lending: bool,
    /// The options and the deals allow a second pass ([`Plan::two_pass_limits`]).
    second_pass: bool,
    config: SolveConfig,
    sat_after: Option<Duration>,
    /// Certify the bounds below the perfect score with checked proofs (`--certify`).
    certify: bool,
    /// The seeds' names without their number (`p4v2s`).
    prefix: String,
    rules: Rules,
    game: Game,
}

impl Plan {
    fn of(args: &SeedsArgs) -> anyhow::Result<Plan> {
        let range = SeedRange::of(args)?;
        let threads = super::threads_option(args.threads)?;
        let cores_per_seed = usize::from(args.cores_per_seed);
        if threads < cores_per_seed {
            bail!(
                "--cores-per-seed {cores_per_seed} needs --threads of at least {cores_per_seed}, \
                 not {threads}"
            );
        }
        let tt_mb = match args.tt_mb {
            Some(0) => bail!("--tt-mb must be at least 1"),
            Some(mb) => mb,
            None => default_tt_mb(threads / cores_per_seed),
        };
        let time_limit = super::time_limit_option(args.time_limit)?;
        let sat_after = args.sat.sat_after(args.max_nodes)?;
        let config = SolveConfig {
            threads: 1,
            tt_mb,
            time_limit,
            max_nodes: args.max_nodes,
            ..SolveConfig::default()
        };
        let prefix = seed_prefix(args)?;
        let first_seed = format!("{prefix}{}", range.from);
        let last_seed = format!("{prefix}{}", range.last);
        let rules = args.game.rules_for_seed(&first_seed)?;
        if args.game.rules_for_seed(&last_seed)? != rules {
            bail!(
                "seeds {first_seed} and {last_seed} are for different games; choose another \
                 --prefix"
            );
        }
        let game = Game::of(&rules);
        let second_pass = !args.one_pass
            && !args.sat.certify
            && args.max_nodes.is_none()
            && sat_after.zip(time_limit).is_some_and(|(a, t)| a < t)
            && {
                let first = Problem::from_seed(&first_seed, rules.clone())?;
                portfolio::hands_over(&first.deal, &first.state)
            };
        Ok(Plan {
            range,
            threads,
            cores_per_seed,
            lending: !args.no_lending,
            second_pass,
            config,
            sat_after,
            certify: args.sat.certify,
            prefix,
            rules,
            game,
        })
    }

    /// The name of seed number `i`.
    fn name(&self, i: u64) -> String {
        format!("{}{i}", self.prefix)
    }

    /// The number of a seed of this run (of the range and the shard), from its name.
    fn number(&self, seed: &str) -> Option<u64> {
        let i: u64 = seed.strip_prefix(self.prefix.as_str())?.parse().ok()?;
        (self.range.contains(i) && self.name(i) == seed).then_some(i)
    }

    /// The worker threads for `seeds` seeds to solve, one a seed solved at once: `--threads`
    /// over `--cores-per-seed`, but no more than seeds.
    fn workers(&self, seeds: usize) -> usize {
        (self.threads / self.cores_per_seed).min(seeds).max(1)
    }

    /// When the SAT solver joins each seed's search, whether on a core of its own, and the
    /// cores the workers lend, if they do.
    fn sat_plan<'a>(&self, spare: Option<&'a SpareCores>) -> SatPlan<'a> {
        SatPlan {
            after: self.sat_after,
            own_core: self.cores_per_seed > 1,
            spare,
            ..SatPlan::default()
        }
    }

    /// Where the run makes two passes, the first pass's time limit (`--sat-after`) and the
    /// whole one: with one core a seed lent where asked, a time limit longer than
    /// `--sat-after`, the SAT solver, and deals whose search hands its core over
    /// ([`portfolio::hands_over`]); not with `--certify`, `--max-nodes` or `--one-pass`.
    ///
    /// In one pass, a hard seed shares the machine with the other workers' seeds, and a core
    /// lent to it comes only once another worker is done with its own seed: on the 2-core
    /// machine, 6-player Black at 2 s a seed left 13 to 18 undecided in five runs, where the
    /// same seeds alone settle as with two cores of their own (9). The first pass solves
    /// every seed with the search alone until `--sat-after`, one a core; the second gives each
    /// seed still open two cores, one per SAT formula, for the rest of its time limit, from
    /// the bounds the first proved (the search has had its time). Measured with the two
    /// passes as two commands (the second a scratch build handing the core over at once and
    /// given the first pass's bounds): 6-player Black left 9 in 208 s of wall clock (one pass:
    /// 15 in 220 s), 5-player 1 in 104 s (5 in 123 s), 4-player 3 in 51 s (6 in 61 s).
    fn two_pass_limits(&self) -> Option<(Duration, Duration)> {
        let limits = self.sat_after.zip(self.config.time_limit);
        limits.filter(|_| self.second_pass && self.lends())
    }

    /// Seed `seed`'s record, solved under `config` and `plan` ([`seed_record`]).
    fn record(&self, seed: &str, config: &SolveConfig, plan: SatPlan) -> anyhow::Result<Record> {
        seed_record(seed, &self.rules, &self.game, config, plan, self.certify)
            .map_err(anyhow::Error::from)
    }

    /// Whether the workers lend their cores to the hard seeds: with one core a seed and more
    /// than one thread, unless `--no-lending`.
    fn lends(&self) -> bool {
        self.lending && self.cores_per_seed == 1 && self.threads > 1
    }

    /// The pool's threads for `seeds` seeds to solve: the workers, and where they lend, up to
    /// one more a seed, to lend their cores once no seed is left to take (a run of one seed on
    /// two threads lends it the second).
    fn pool_threads(&self, seeds: usize) -> usize {
        if self.lends() {
            self.threads.min(2 * seeds).max(1)
        } else {
            self.workers(seeds)
        }
    }

    /// Solves the seeds numbered `todo` on `pool`'s workers, one thread each, showing
    /// progress; each record is written to `out` as it comes (in two passes, where
    /// [`Plan::two_pass_limits`], the open seeds' at the end). The new entries.
    fn solve(
        &self,
        pool: &rayon::ThreadPool,
        todo: &[u64],
        out: Option<&mut Out>,
    ) -> anyhow::Result<Vec<Entry>> {
        let bar = progress(todo.len());
        let mut sink = Sink {
            out,
            bar: &bar,
            new: Vec::new(),
            winnable: 0,
        };
        let solved = match self.two_pass_limits() {
            Some(limits) => self.solve_in_two_passes(pool, todo, limits, &mut sink),
            None => self.solve_in_one_pass(pool, todo, &mut sink),
        };
        bar.finish_and_clear();
        solved?;
        Ok(sink.new)
    }

    /// Each seed solved whole on one worker, the SAT solver joining after `--sat-after`, cores
    /// lent where asked.
    fn solve_in_one_pass(
        &self,
        pool: &rayon::ThreadPool,
        todo: &[u64],
        sink: &mut Sink,
    ) -> anyhow::Result<()> {
        let spare = self
            .lends()
            .then(|| SpareCores::new(portfolio::BORROWS_AFTER));
        let spare = spare.as_ref();
        batch::solve_each(
            pool,
            todo,
            spare,
            |&i| self.record(&self.name(i), &self.config, self.sat_plan(spare)),
            |record| sink.take(record),
        )
    }

    /// The first pass, the search alone on each seed until `--sat-after` (one a worker of
    /// `pool`), and the second over the seeds it leaves open, one per two cores, both SAT
    /// formulas from the bounds the first proved, for the rest of each seed's time limit
    /// (`limits`: the first pass's and the whole, [`Plan::two_pass_limits`]).
    fn solve_in_two_passes(
        &self,
        pool: &rayon::ThreadPool,
        todo: &[u64],
        (first_limit, limit): (Duration, Duration),
        sink: &mut Sink,
    ) -> anyhow::Result<()> {
        let first_config = SolveConfig {
            time_limit: Some(first_limit),
            ..self.config.clone()
        };
        let mut open: Vec<Record> = Vec::new();
        batch::solve_each(
            pool,
            todo,
            None,
            |&i| self.record(&self.name(i), &first_config, SatPlan::after(None)),
            |record| {
                if record.outcome.proven {
                    sink.take(record)
                } else {
                    open.push(record);
                    Ok(())
                }
            },
        )?;
        if open.is_empty() {
            return Ok(());
        }
        let second_pool = rayon::ThreadPoolBuilder::new()
            .num_threads((self.threads / 2).clamp(1, open.len()))
            .build()
            .context("starting the worker threads")?;
        batch::solve_each(
            &second_pool,
            &open,
            None,
            |first| {
                let spent = Duration::from_secs_f64(first.outcome.seconds);
                let config = SolveConfig {
                    time_limit: Some(limit.saturating_sub(spent).max(Duration::from_millis(1))),
                    ..self.config.clone()
                };
                let plan = SatPlan {
                    after: Some(Duration::ZERO),
                    own_core: true,
                    hands_over_after: Some(Duration::ZERO),
                    known: Some((first.outcome.lower_bound, first.outcome.upper_bound)),
                    ..SatPlan::default()
                };
                let mut record = self.record(&first.seed, &config, plan)?;
                record.outcome = record.outcome.after_first_pass(&first.outcome);
                Ok(record)
            },
            |record| sink.take(record),
        )
    }
}

/// Where a run's records go as they come: the `--out` file, the progress bar and the new
/// entries.
struct Sink<'a> {
    out: Option<&'a mut Out>,
    bar: &'a ProgressBar,
    new: Vec<Entry>,
    winnable: usize,
}

impl Sink<'_> {
    /// Writes `record`'s line, counts it and keeps its entry.
    fn take(&mut self, record: Record) -> anyhow::Result<()> {
        if let Some(out) = self.out.as_mut() {
            out.writer
                .write_all(record.to_line().as_bytes())
                .and_then(|_| out.writer.flush())
                .with_context(|| format!("writing {}", out.name))?;
        }
        if record.outcome.proven_winnable() {
            self.winnable += 1;
        }
        self.new.push(record.entry());
        self.bar.inc(1);
        self.bar.set_message(format!("{} winnable", self.winnable));
        Ok(())
    }
}

/// Where a run's lines went, for its summary.
struct Written {
    name: String,
    /// A regular file, read back to resume (else standard output, a pipe or a device).
    regular: bool,
    /// How many records of other seeds it holds.
    outside: usize,
}

/// Prints a run's summary as text: the range, what was solved now and what was already done,
/// the counts ([`print_summary`]) and the speed.
fn print_run(
    w: &mut dyn Write,
    report: &RunReport,
    written: Option<&Written>,
    entries: &[Entry],
    settle: &str,
) -> std::io::Result<()> {
    let summary = report.summary;
    let solved_now = report.solved_now;
    writeln!(
        w,
        "Seeds: {}, {} to {}{} ({})",
        summary.seeds,
        report.first_seed,
        report.last_seed,
        match &report.shard {
            Some(shard) => format!(", shard {shard}"),
            None => String::new(),
        },
        report.game
    )?;
    match written {
        Some(o) if !o.regular => writeln!(w, "  {solved_now} solved now, written to {}", o.name)?,
        Some(o) => {
            let path = &o.name;
            writeln!(
                w,
                "  {solved_now} solved now, {} already done in {path}",
                report.already_done
            )?;
            if o.outside > 0 {
                writeln!(
                    w,
                    "  ({path} also holds {} records of other seeds; --summarize {path} \
                     covers them all)",
                    o.outside
                )?;
            }
        }
        None => writeln!(w, "  {solved_now} solved now")?,
    }
    print_summary(w, summary, entries, settle)?;
    let (workers, wall) = (report.threads, report.wall_seconds);
    let cores = report.cores_per_seed;
    match report.seeds_per_second {
        Some(rate) => writeln!(
            w,
            "Speed: {rate:.1} seeds/s ({workers} {}, wall clock {wall:.1} s){}",
            match (workers, cores) {
                (1, 1) => "thread".to_string(),
                (_, 1) => "threads".to_string(),
                (1, c) => format!("seed at a time on {c} cores"),
                (_, c) => format!("seeds at a time on {c} cores each"),
            },
            match (summary.seeds_per_thread_second, cores) {
                (Some(r), 1) => format!("; {r:.1} seeds/s per thread of solving time"),
                // A seed holds its cores for its whole solving time.
                (Some(r), c) => {
                    format!("; {:.1} seeds/s per core of solving time", r / c as f64)
                }
                (None, _) => String::new(),
            }
        ),
        None => writeln!(w, "Speed: nothing was solved now"),
    }
}

#[cfg(test)]
mod tests {
    use super::default_tt_mb;
    use crate::cli::longer_time_limit;

    #[test]
    fn undecided_seeds_are_retried_with_a_longer_limit() {
        assert_eq!(longer_time_limit(None), 60);
        assert_eq!(longer_time_limit(Some(2.0)), 60);
        assert_eq!(longer_time_limit(Some(12.0)), 60);
        assert_eq!(longer_time_limit(Some(13.0)), 65);
        assert_eq!(longer_time_limit(Some(60.0)), 300);
        // An undecided seed's time runs a little past its limit.
        assert_eq!(longer_time_limit(Some(60.04)), 300);
        assert_eq!(longer_time_limit(Some(300.0)), 1500);
        assert_eq!(longer_time_limit(Some(f64::NAN)), 60);
        assert_eq!(longer_time_limit(Some(1e300)), u64::MAX);
    }

    #[test]
    fn default_tables_share_a_fixed_total() {
        assert_eq!(default_tt_mb(1), 1024);
        assert_eq!(default_tt_mb(2), 1024);
        assert_eq!(default_tt_mb(4), 1024);
        assert_eq!(default_tt_mb(16), 256);
        assert_eq!(default_tt_mb(1024), 4);
        assert_eq!(default_tt_mb(100_000), 1);
    }
}
