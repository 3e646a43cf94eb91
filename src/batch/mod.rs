//! Batches of seeds: the JSON-lines record written for each solved seed, reading such a file
//! back (to resume an interrupted run or to summarise finished ones), splitting a range of seeds
//! into shards, solving them on several threads ([`solve_each`]), and the statistics over many
//! seeds.
//!
//! A batch file holds one JSON object a line, each ending with a newline. A run appends a line as
//! each seed finishes, so after an interruption only the last line can be incomplete: readers
//! ignore such a line (and a resuming run cuts it off), while a bad line anywhere else is an
//! error, since the file was then damaged by something else.

mod workers;

pub use workers::solve_each;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::BufRead;
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::game::rules::Rules;
use crate::sat::proof::Certificate;
use crate::search::{verdict, Solution};

/// What can go wrong reading batch files or asking for a shard.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BatchError {
    #[error("{0}")]
    Io(String),
    /// A line that is not a seed record, with more lines after it.
    #[error("{file}line {line}: not a seed record ({message}); only the last line of a file may be incomplete")]
    BadLine {
        file: String,
        line: usize,
        message: String,
    },
    /// Records of different games where one game was expected.
    #[error("{file}line {line}: {message}")]
    OtherGame {
        file: String,
        line: usize,
        message: String,
    },
    /// Two proven records of one seed that disagree.
    #[error("seed {seed} has two proven records with different maximum scores ({a} and {b})")]
    Conflict { seed: String, a: u8, b: u8 },
    /// Records of one seed whose bounds cross: one has a line above what another proves the
    /// most.
    #[error(
        "seed {seed} has records that contradict each other: a line reaches {lower}, yet \
         another record proves at most {upper}"
    )]
    Contradiction { seed: String, lower: u8, upper: u8 },
    #[error("invalid shard {0:?}: write I/N with 1 <= I <= N, e.g. 2/8 (the second of 8 slices)")]
    Shard(String),
}

/// `"FILE "` for error messages, or nothing when there is no file name.
fn file_prefix(name: &str) -> String {
    if name.is_empty() {
        String::new()
    } else {
        format!("{name} ")
    }
}

/// The rules a seed was solved under, as they appear in a record. Two records are of the same
/// game when these are equal.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub players: u8,
    /// hanab.live's name of the variant, or a research deck's description.
    pub variant: String,
    /// hanab.live's variant id (none for research decks).
    pub variant_id: Option<u32>,
    pub hand_size: u8,
    pub clues: u8,
    pub strikes: u8,
    pub empty_clues: bool,
    pub deck_plays: bool,
    pub endless: bool,
}

impl Game {
    pub fn of(rules: &Rules) -> Game {
        Game {
            players: rules.players,
            variant: rules.variant.name.clone(),
            variant_id: rules.variant.id,
            hand_size: rules.hand_size,
            clues: rules.max_tokens(),
            strikes: rules.max_strikes,
            empty_clues: rules.empty_clues,
            deck_plays: rules.deck_plays,
            endless: rules.endless,
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} players, {}, hand size {}, {} clues, {} strikes",
            self.players, self.variant, self.hand_size, self.clues, self.strikes
        )?;
        for (on, what) in [
            (self.empty_clues, "empty clues"),
            (self.deck_plays, "deck plays"),
            (self.endless, "endless"),
        ] {
            if on {
                write!(f, ", {what}")?;
            }
        }
        Ok(())
    }
}

/// What the search found for one seed.
///
/// Reading a record derives `winnable` from the bounds, whatever the line says: files written
/// before undecided seeds got `null` there hold `false` for them.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(from = "SeedResultFields")]
pub struct SeedResult {
    /// The best final score: exact when `proven`, otherwise the lower bound.
    pub max_score: u8,
    pub perfect_score: u8,
    /// `Some(true)` when proven to reach the perfect score, `Some(false)` when proven not to
    /// (the upper bound is below it, even if the maximum score itself is not proven), `None`
    /// (`null` in the JSON) when a limit stopped the search before either was proven.
    pub winnable: Option<bool>,
    /// False when a limit stopped the search before the bounds met: the maximum score is not
    /// proven, and the seed counts as undecided.
    pub proven: bool,
    pub lower_bound: u8,
    pub upper_bound: u8,
    pub nodes: u64,
    /// Wall-clock time spent solving this seed: on one core, with a lent one beside it for
    /// `lent_seconds` of it.
    pub seconds: f64,
    /// Of the solving time, the time of a second core lent by the batch to this seed
    /// (`seeds`' lending, [`crate::spare_cores`]), beside `seconds` of its own core.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lent_seconds: f64,
    /// For a seed proven not winnable: why, as [`crate::search::reason::LossReason::name`]
    /// gives it (absent when the solver could not tell, and in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The SAT solver settled what the search left open (see [`crate::portfolio`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_sat: bool,
    /// With `--certify`, for an upper bound below the perfect score: the checked proof that no
    /// line goes above it ([`crate::sat::proof`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Certificate>,
}

/// Whether a time is zero: a seed that was lent no core.
fn is_zero(seconds: &f64) -> bool {
    *seconds == 0.0
}

/// A [`SeedResult`] as a line holds it, before `winnable` is derived from the bounds.
#[derive(Deserialize)]
struct SeedResultFields {
    max_score: u8,
    perfect_score: u8,
    proven: bool,
    lower_bound: u8,
    upper_bound: u8,
    nodes: u64,
    seconds: f64,
    #[serde(default)]
    lent_seconds: f64,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    by_sat: bool,
    #[serde(default)]
    certificate: Option<Certificate>,
}

impl From<SeedResultFields> for SeedResult {
    fn from(f: SeedResultFields) -> SeedResult {
        SeedResult {
            max_score: f.max_score,
            perfect_score: f.perfect_score,
            winnable: verdict(f.lower_bound, f.upper_bound, f.perfect_score),
            proven: f.proven,
            lower_bound: f.lower_bound,
            upper_bound: f.upper_bound,
            nodes: f.nodes,
            seconds: f.seconds,
            lent_seconds: f.lent_seconds,
            reason: f.reason,
            by_sat: f.by_sat,
            certificate: f.certificate,
        }
    }
}

impl SeedResult {
    pub fn of(solution: &Solution) -> SeedResult {
        SeedResult {
            max_score: solution.max_score,
            perfect_score: solution.perfect_score,
            winnable: solution.verdict(),
            proven: solution.proven,
            lower_bound: solution.lower_bound,
            upper_bound: solution.upper_bound,
            nodes: solution.nodes,
            seconds: solution.seconds,
            lent_seconds: 0.0,
            reason: None,
            by_sat: false,
            certificate: None,
        }
    }

    /// This result of a batch's second pass over a seed ([`crate::portfolio::SatPlan::known`]),
    /// counting the first pass's time and nodes: `seconds` is the seed's time in both, and the
    /// second core it held in this pass, the batch's, counts as lent.
    pub fn after_first_pass(mut self, first: &SeedResult) -> SeedResult {
        self.lent_seconds = self.seconds;
        self.seconds += first.seconds;
        self.nodes += first.nodes;
        self
    }

    /// Proven to reach the perfect score.
    pub fn proven_winnable(&self) -> bool {
        self.winnable == Some(true)
    }

    /// The maximum score proven below the perfect score: a decided seed that is not winnable.
    /// (An undecided seed is never counted here, whatever its upper bound.)
    pub fn proven_not_winnable(&self) -> bool {
        self.proven && self.winnable == Some(false)
    }

    /// The upper bound is below the perfect score (proven, whether the seed is decided or not).
    pub fn bound_below_perfect(&self) -> bool {
        self.upper_bound < self.perfect_score
    }

    /// A checked proof certifies the upper bound (`--certify`).
    pub fn certified(&self) -> bool {
        self.certificate.as_ref().is_some_and(|c| c.checked)
    }

    /// Undecided, and not proven unwinnable either: the perfect score may still be reached.
    pub fn maybe_winnable(&self) -> bool {
        !self.proven && self.winnable.is_none()
    }

    /// Takes `upper`, proven elsewhere and at least the lower bound ([`unique`] refuses
    /// crossing bounds first), as the upper bound where it is lower: the verdict follows, and
    /// where the bounds now meet the maximum score is proven.
    fn narrow_upper_bound(&mut self, upper: u8) {
        if upper >= self.upper_bound || self.proven {
            return;
        }
        self.upper_bound = upper;
        self.winnable = verdict(self.lower_bound, self.upper_bound, self.perfect_score);
        if self.lower_bound == self.upper_bound {
            self.proven = true;
            self.max_score = self.lower_bound;
        }
    }
}

/// One line of a batch file: a seed, its game, its deck (card names, top first) and the outcome.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Record {
    pub seed: String,
    #[serde(flatten)]
    pub game: Game,
    pub deck: Vec<String>,
    #[serde(flatten)]
    pub outcome: SeedResult,
}

impl Record {
    /// One JSON line, newline included.
    pub fn to_line(&self) -> String {
        let mut s = serde_json::to_string(self).expect("a record serialises");
        s.push('\n');
        s
    }

    /// The record without its deck, as files are read back.
    pub fn entry(&self) -> Entry {
        Entry {
            seed: self.seed.clone(),
            game: self.game.clone(),
            outcome: self.outcome.clone(),
            line: 0,
        }
    }
}

/// A record read back from a file, without the deck (which summaries never need).
#[derive(Deserialize, Debug, Clone, PartialEq)]
pub struct Entry {
    pub seed: String,
    #[serde(flatten)]
    pub game: Game,
    #[serde(flatten)]
    pub outcome: SeedResult,
    /// The 1-based line of the file it came from (0 when it did not come from a file).
    #[serde(skip)]
    pub line: usize,
}

/// The records of one batch file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Loaded {
    pub entries: Vec<Entry>,
    /// Length in bytes of the file up to the end of the last complete line: what is left after
    /// cutting off an incomplete last line.
    pub good_len: u64,
    /// The 1-based number of an incomplete last line (no newline at its end, or not a record),
    /// which was ignored.
    pub partial_line: Option<usize>,
}

/// Reads the records of a batch file from `reader`; `name` (the file's name, or empty) goes into
/// error messages. Blank lines are skipped. An incomplete last line is reported in
/// [`Loaded::partial_line`], not as an error; a bad line followed by others is an error naming it.
pub fn read_records(mut reader: impl BufRead, name: &str) -> Result<Loaded, BatchError> {
    let mut loaded = Loaded::default();
    let mut buf = Vec::new();
    let mut offset: u64 = 0;
    let mut line = 0;
    // A bad line not yet known to be the last one: (line, message).
    let mut pending: Option<(usize, String)> = None;
    loop {
        buf.clear();
        let n = reader
            .read_until(b'\n', &mut buf)
            .map_err(|e| BatchError::Io(format!("{}reading failed: {e}", file_prefix(name))))?;
        if n == 0 {
            break;
        }
        line += 1;
        let complete = buf.last() == Some(&b'\n');
        let start = offset;
        offset += n as u64;
        if buf.iter().all(u8::is_ascii_whitespace) {
            if complete && pending.is_none() {
                loaded.good_len = offset;
            }
            continue;
        }
        if let Some((bad, message)) = pending.take() {
            return Err(BatchError::BadLine {
                file: file_prefix(name),
                line: bad,
                message,
            });
        }
        if !complete {
            loaded.partial_line = Some(line);
            break;
        }
        match serde_json::from_slice::<Entry>(&buf) {
            Ok(mut entry) => {
                entry.line = line;
                loaded.entries.push(entry);
                loaded.good_len = offset;
            }
            Err(e) => {
                // serde_json ends its message with "at line 1 column N": keep the column only.
                let text = e.to_string();
                let what = text.split(" at line ").next().unwrap_or(&text);
                pending = Some((line, format!("{what} at column {}", e.column())));
                loaded.good_len = start;
            }
        }
    }
    if let Some((bad, _)) = pending {
        loaded.partial_line = Some(bad);
    }
    Ok(loaded)
}

/// [`read_records`] on a file.
pub fn read_file(path: &Path) -> Result<Loaded, BatchError> {
    let name = path.display().to_string();
    if path.is_dir() {
        return Err(BatchError::Io(format!("{name} is a directory, not a file")));
    }
    let file = std::fs::File::open(path).map_err(|e| BatchError::Io(format!("{name}: {e}")))?;
    read_records(std::io::BufReader::new(file), &name)
}

/// Checks that every entry is of `game`; `expected_what` says where `game` came from (for the
/// message), `name` is the file's name.
pub fn check_game(
    entries: &[Entry],
    game: &Game,
    expected_what: &str,
    name: &str,
) -> Result<(), BatchError> {
    match entries.iter().find(|e| e.game != *game) {
        None => Ok(()),
        Some(e) => Err(BatchError::OtherGame {
            file: file_prefix(name),
            line: e.line,
            message: format!(
                "seed {} is for {} but {expected_what} is for {game}",
                e.seed, e.game
            ),
        }),
    }
}

/// One entry per seed, in order of first appearance. Of several entries of a seed a proven one
/// is kept (the first); two proven ones with different maximum scores are an error, as are
/// bounds that cross (a line above what another record proves the most). Of undecided ones,
/// the one with the best line is kept (the later of equals: a retry usually had the longer
/// limit), its upper bound narrowed to the lowest any of them proved: every bound is a proof,
/// so the seed's summary counts what all its records together show (it is decided once the
/// bounds meet).
pub fn unique(entries: impl IntoIterator<Item = Entry>) -> Result<Vec<Entry>, BatchError> {
    let mut out: Vec<Entry> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for e in entries {
        let Some(&i) = index.get(&e.seed) else {
            index.insert(e.seed.clone(), out.len());
            out.push(e);
            continue;
        };
        let (kept, new) = (&out[i].outcome, &e.outcome);
        if kept.proven && new.proven && kept.max_score != new.max_score {
            return Err(BatchError::Conflict {
                seed: e.seed,
                a: kept.max_score,
                b: new.max_score,
            });
        }
        let lower = kept.lower_bound.max(new.lower_bound);
        let upper = kept.upper_bound.min(new.upper_bound);
        if lower > upper {
            return Err(BatchError::Contradiction {
                seed: e.seed,
                lower,
                upper,
            });
        }
        if kept.proven {
            continue;
        }
        if new.proven || new.lower_bound >= kept.lower_bound {
            out[i] = e;
        }
        out[i].outcome.narrow_upper_bound(upper);
    }
    Ok(out)
}

/// The `index`-th (1-based) of `count` disjoint slices of a range of seeds: seed number `i` of a
/// range starting at `from` belongs to slice `(i - from) mod count + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole range.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether seed number `i` of a range starting at `from` is in this slice.
    pub fn contains(&self, i: u64, from: u64) -> bool {
        (i - from) % self.count + 1 == self.index
    }

    /// How many of the seed numbers `from..=last` are in this slice (0 when `last < from`;
    /// `u64::MAX` for the one count that does not fit, all of `0..=u64::MAX`).
    pub fn len(&self, from: u64, last: u64) -> u64 {
        match last.checked_sub(from) {
            Some(span) if self.index - 1 <= span => {
                ((span - (self.index - 1)) / self.count).saturating_add(1)
            }
            _ => 0,
        }
    }

    /// The seed numbers of `from..=last` in this slice, in order, without visiting the others.
    pub fn numbers(&self, from: u64, last: u64) -> impl Iterator<Item = u64> {
        let first = from
            .checked_add(self.index - 1)
            .filter(|&first| first <= last);
        let step = self.count;
        std::iter::successors(first, move |&i| {
            i.checked_add(step).filter(|&next| next <= last)
        })
    }
}

impl FromStr for Shard {
    type Err = BatchError;

    /// Reads `I/N`.
    fn from_str(s: &str) -> Result<Shard, BatchError> {
        let bad = || BatchError::Shard(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for a proportion: `successes` of `n` trials, `z` the normal
/// quantile (`Z95` for 95%). `(0, 1)` when `n` is 0.
pub fn wilson_interval(successes: usize, n: usize, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The median of sorted values (the mean of the two middle ones for an even count; 0 if empty).
pub fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The `p`-th percentile (0 < p <= 100) of sorted values by the nearest-rank method: the
/// smallest value with at least p% of the values at or below it (0 if empty).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return 0.0;
    }
    let rank = ((p / 100.0) * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

/// How many times each score occurs.
pub fn histogram(scores: impl IntoIterator<Item = u8>) -> BTreeMap<u8, usize> {
    let mut h = BTreeMap::new();
    for s in scores {
        *h.entry(s).or_insert(0) += 1;
    }
    h
}

/// Figures over the seeds of one game.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Summary {
    pub seeds: usize,
    /// Proven winnable.
    pub winnable: usize,
    /// `winnable / seeds`: the share proven winnable, a lower bound on the winnable share when
    /// seeds are undecided.
    pub winnable_share: f64,
    /// The 95% Wilson interval of `winnable_share`.
    pub winnable_ci95: [f64; 2],
    /// `(winnable + maybe_winnable) / seeds`: the winnable share if every undecided seed that
    /// may be winnable were, an upper bound (equal to `winnable_share` when none is undecided).
    pub winnable_share_max: f64,
    /// Maximum score proven below the perfect score. Undecided seeds are never counted here.
    pub not_winnable: usize,
    /// Maximum score not proven (a limit stopped the search).
    pub undecided: usize,
    /// Undecided seeds that may still be winnable (neither winnable nor out of reach proven);
    /// the other undecided seeds are proven not winnable, their maximum score unknown.
    pub maybe_winnable: usize,
    /// Seeds by proven maximum score (undecided seeds are left out).
    pub histogram: BTreeMap<u8, usize>,
    /// Mean maximum score over the decided seeds (none if no seed is decided).
    pub mean_max_score: Option<f64>,
    pub perfect_score: Option<u8>,
    pub median_seconds: f64,
    pub p99_seconds: f64,
    pub max_seconds: f64,
    /// Solving time added over all seeds, the time of cores lent to them included.
    pub total_seconds: f64,
    /// Of the solving time, the time of cores the batch lent to its hard seeds
    /// ([`crate::spare_cores`]), and how many seeds were lent one.
    pub lent_seconds: f64,
    pub lent_a_core: usize,
    /// Seeds per second of one thread (one core): `seeds / total_seconds`.
    pub seeds_per_thread_second: Option<f64>,
    pub nodes: u64,
    /// Seeds proven not winnable, by reason (see [`crate::search::reason`]); `unknown` for
    /// those whose reason was not found.
    pub loss_reasons: BTreeMap<String, usize>,
    /// Where any record holds a certificate (`--certify`): how many of the bounds below the
    /// perfect score have a checked proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certified: Option<Certified>,
}

/// The upper bounds below the perfect score of a batch, and how many of them a checked proof
/// certifies ([`crate::sat::proof`]).
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Certified {
    /// Seeds whose proven upper bound is below the perfect score (undecided ones included).
    pub bounds: usize,
    /// Of those, the seeds whose bound a checked proof certifies.
    pub checked: usize,
}

impl Summary {
    /// The figures over `entries`, which should hold each seed once (see [`unique`]).
    pub fn of(entries: &[Entry]) -> Summary {
        let n = entries.len();
        let outcomes = || entries.iter().map(|e| &e.outcome);
        let winnable = outcomes().filter(|o| o.proven_winnable()).count();
        let maybe_winnable = outcomes().filter(|o| o.maybe_winnable()).count();
        let share = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let decided: Vec<u8> = outcomes()
            .filter(|o| o.proven)
            .map(|o| o.max_score)
            .collect();
        let mut times: Vec<f64> = outcomes().map(|o| o.seconds).collect();
        times.sort_by(f64::total_cmp);
        let total_seconds: f64 = outcomes().map(|o| o.seconds + o.lent_seconds).sum();
        let (lo, hi) = wilson_interval(winnable, n, Z95);
        Summary {
            seeds: n,
            winnable,
            winnable_share: share(winnable),
            winnable_ci95: [lo, hi],
            winnable_share_max: share(winnable + maybe_winnable),
            not_winnable: outcomes().filter(|o| o.proven_not_winnable()).count(),
            undecided: n - decided.len(),
            maybe_winnable,
            mean_max_score: (!decided.is_empty())
                .then(|| decided.iter().map(|&s| s as f64).sum::<f64>() / decided.len() as f64),
            histogram: histogram(decided),
            perfect_score: outcomes().map(|o| o.perfect_score).max(),
            median_seconds: median(&times),
            p99_seconds: percentile(&times, 99.0),
            max_seconds: times.last().copied().unwrap_or(0.0),
            total_seconds,
            lent_seconds: outcomes().map(|o| o.lent_seconds).sum(),
            lent_a_core: outcomes().filter(|o| o.lent_seconds > 0.0).count(),
            seeds_per_thread_second: (total_seconds > 0.0).then(|| n as f64 / total_seconds),
            nodes: outcomes().map(|o| o.nodes).sum(),
            loss_reasons: outcomes().filter(|o| o.proven_not_winnable()).fold(
                BTreeMap::new(),
                |mut m, o| {
                    *m.entry(o.reason.clone().unwrap_or_else(|| "unknown".into()))
                        .or_default() += 1;
                    m
                },
            ),
            certified: outcomes()
                .any(|o| o.certificate.is_some())
                .then(|| Certified {
                    bounds: outcomes().filter(|o| o.bound_below_perfect()).count(),
                    checked: outcomes()
                        .filter(|o| o.bound_below_perfect() && o.certified())
                        .count(),
                }),
        }
    }
}
