//! The root of the search: narrowing the score between a line found and an upper bound,
//! splitting the first plies across threads, and honouring time and memory limits.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::beam::{beam, Ranking};
use super::bounds::{goal_bound, upper_bound};
use super::dfs::{
    past_deadline, pool_applies, relaxation_applies, relaxed_root, Answer, Searcher, Tuning,
};
use super::goal::Goal;
use super::key::{goal_key, Key};
use super::order::ordered_moves;
use super::table::Table;
use crate::state::{Action, Deal, State};

/// How to search.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Worker threads (1: a plain sequential search with a reproducible node count).
    pub threads: usize,
    /// Memory cap of the transposition table, in MiB.
    pub tt_mb: usize,
    /// Stop after this long; the result then holds proven bounds, not an answer.
    pub time_limit: Option<Duration>,
    /// Stop after about this many nodes (exactly reproducible with one thread); like the time
    /// limit, the result then holds proven bounds.
    pub max_nodes: Option<u64>,
    pub tuning: Tuning,
    /// Stop once this is set (by another thread); the result then holds proven bounds. The
    /// search sets it itself when its time limit passes.
    pub cancel: Option<Arc<AtomicBool>>,
    /// An upper bound that another solver proves while the search runs (the SAT solver beside
    /// it): the search asks nothing above it.
    pub ceiling: Option<Arc<Ceiling>>,
}

/// A proven upper bound on the best score that another thread may lower during a search.
///
/// Lowering it interrupts the search's questions of the moment (which may be about a score
/// now known out of reach); the search then asks again below it. The search in turn publishes
/// its own bounds here, so that the other solver asks only about the scores still open.
#[derive(Debug)]
pub struct Ceiling {
    score: AtomicU8,
    lowered: AtomicBool,
    /// The upper bound a search had proven itself when it first took this one instead
    /// (`u8::MAX` until then).
    own: AtomicU8,
    /// The score of the search's best line so far (0 until it publishes one).
    searched_lo: AtomicU8,
    /// The search's upper bound so far (`u8::MAX` until it publishes one).
    searched_hi: AtomicU8,
    /// Set while the other solver asks for the search's core (see [`Ceiling::step_aside`]).
    yielding: AtomicBool,
}

impl Ceiling {
    /// No bound yet beyond `score` (the perfect score, say).
    pub fn new(score: u8) -> Ceiling {
        Ceiling {
            score: AtomicU8::new(score),
            lowered: AtomicBool::new(false),
            own: AtomicU8::new(u8::MAX),
            searched_lo: AtomicU8::new(0),
            searched_hi: AtomicU8::new(u8::MAX),
            yielding: AtomicBool::new(false),
        }
    }

    /// Asks the search to leave its core to the other solver from now on: its depth-first
    /// questions then pause for `YIELD_PAUSE` after every thousand nodes or so, which leaves
    /// them about a tenth of a core. For a caller that runs both solvers on fewer cores than
    /// threads, where the other solver is the one likely to settle the deal.
    pub fn step_aside(&self) {
        self.yielding.store(true, Ordering::Relaxed);
    }

    /// The bounds the search has proven so far: a line reaches the first, nothing reaches
    /// above the second (which may be this ceiling, once the search took it).
    pub fn searched(&self) -> (u8, u8) {
        (
            self.searched_lo.load(Ordering::Relaxed),
            self.searched_hi.load(Ordering::Relaxed),
        )
    }

    /// Records the search's bounds of the moment (each only ever narrows).
    pub(crate) fn publish(&self, lo: u8, hi: u8) {
        self.searched_lo.fetch_max(lo, Ordering::Relaxed);
        self.searched_hi.fetch_min(hi, Ordering::Relaxed);
    }

    /// Records that no line reaches above `score`.
    pub fn lower(&self, score: u8) {
        if self.score.fetch_min(score, Ordering::Relaxed) > score {
            self.lowered.store(true, Ordering::Relaxed);
        }
    }

    pub fn score(&self) -> u8 {
        self.score.load(Ordering::Relaxed)
    }

    /// The upper bound a search had proven itself when it took this one, lower, instead;
    /// `None` if it never did.
    pub fn own_bound(&self) -> Option<u8> {
        Some(self.own.load(Ordering::Relaxed)).filter(|&b| b != u8::MAX)
    }

    /// For a search between `lo` (a line's score) and its own bound `hi`, at the start of a
    /// round: the upper bound to take instead where this one is lower (`hi` is then recorded
    /// as the search's own), with the last round's interruption cleared. Never below `lo`: a
    /// ceiling under a line found would be a fault of the other solver, which its caller
    /// checks; the search keeps what its line shows.
    fn take(&self, lo: u8, hi: u8) -> Option<u8> {
        self.lowered.store(false, Ordering::Relaxed);
        let cap = self.score().max(lo);
        (cap < hi).then(|| {
            self.own.fetch_min(hi, Ordering::Relaxed);
            cap
        })
    }
}

impl Default for SolveConfig {
    fn default() -> Self {
        SolveConfig {
            threads: 1,
            tt_mb: 1024,
            time_limit: None,
            max_nodes: None,
            tuning: Tuning::FULL,
            cancel: None,
            ceiling: None,
        }
    }
}

/// What a search proved.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The best final score: exact when `proven`, otherwise the lower bound.
    pub max_score: u8,
    pub perfect_score: u8,
    /// False only when a limit stopped the search before the bounds met.
    pub proven: bool,
    /// A score some line reaches.
    pub lower_bound: u8,
    /// A score no line can beat.
    pub upper_bound: u8,
    /// A line from the position reaching `lower_bound`.
    pub line: Vec<Action>,
    pub nodes: u64,
    pub seconds: f64,
    /// Transposition-table entries stored.
    pub table_entries: usize,
}

impl Solution {
    /// Proven to reach the perfect score.
    pub fn winnable(&self) -> bool {
        self.lower_bound == self.perfect_score
    }

    /// Winnable (`Some(true)`), proven not (`Some(false)`), or left open by a limit (`None`).
    pub fn verdict(&self) -> Option<bool> {
        verdict(self.lower_bound, self.upper_bound, self.perfect_score)
    }
}

/// Whether proven bounds `lower..=upper` on the maximum score show the perfect score reached
/// (`Some(true)`), out of reach (`Some(false)`), or neither (`None`).
pub fn verdict(lower: u8, upper: u8, perfect: u8) -> Option<bool> {
    if lower >= perfect {
        Some(true)
    } else if upper < perfect {
        Some(false)
    } else {
        None
    }
}

/// How long a search that steps aside ([`Ceiling::step_aside`]) pauses after each check of
/// its clock (every 1,024 nodes, a millisecond or so of work).
pub const YIELD_PAUSE: Duration = Duration::from_millis(10);

/// Plies of the tree split across threads.
const SPLIT_DEPTH: u32 = 2;

struct Ctx<'a> {
    deal: &'a Deal,
    /// What the questions' `k` counts (see [`Goal`]).
    goal: Goal,
    /// Search the relaxed game (with `pool`, the pool game) instead of the real one; the
    /// table must then be the relaxed games' table.
    relaxed: bool,
    pool: bool,
    table: &'a Table,
    tuning: Tuning,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    /// Node budget of each sequential sub-search of one question.
    node_limit: u64,
    nodes: &'a AtomicU64,
    /// Set while the search steps aside for another solver ([`Ceiling::step_aside`]).
    yielding: Option<&'a AtomicBool>,
}

impl<'a> Ctx<'a> {
    fn clone_ref(&self) -> Ctx<'a> {
        Ctx { ..*self }
    }

    fn searcher<'b>(&'b self, done: &'b AtomicBool) -> Searcher<'b> {
        Searcher {
            deal: self.deal,
            table: self.table,
            tuning: self.tuning,
            stop: self.stop,
            done,
            deadline: self.deadline,
            node_limit: self.node_limit,
            relaxed: self.relaxed,
            pool: self.pool,
            goal: self.goal,
            nodes: 0,
            yielding: self.yielding,
        }
    }

    /// The table key of `state` in this context's game and goal.
    fn key(&self, state: &State) -> Key {
        goal_key(self.deal, state, &self.goal, self.relaxed, self.pool)
    }

    /// `reach` with the first `depth` plies searched in parallel.
    fn reach_split(&self, state: &State, k: u8, depth: u32, done: &AtomicBool) -> Answer {
        if depth == 0 || state.is_over() {
            let mut s = self.searcher(done);
            let answer = s.reach(state, k);
            self.nodes.fetch_add(s.nodes, Ordering::Relaxed);
            return answer;
        }
        let children = self.searcher(done).children(state, k);
        // The question's budget is shared among the children, so that splitting it across
        // threads does not multiply it.
        let share = Ctx {
            node_limit: (self.node_limit / children.len().max(1) as u64).max(1),
            ..self.clone_ref()
        };
        let found = AtomicBool::new(false);
        let answers: Vec<Answer> = children
            .par_iter()
            .map(|(_, child)| {
                // A leaf search looks at the clock only every thousand nodes, and a split
                // question has thousands of leaves: each looks once before it starts.
                if found.load(Ordering::Relaxed)
                    || done.load(Ordering::Relaxed)
                    || past_deadline(self.deadline, self.stop)
                {
                    return Answer::Stopped;
                }
                let answer = share.reach_split(child, k, depth - 1, &found);
                if answer == Answer::Yes {
                    found.store(true, Ordering::Relaxed);
                }
                answer
            })
            .collect();
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let answer = if answers.contains(&Answer::Yes) {
            Answer::Yes
        } else if answers.contains(&Answer::Stopped) {
            Answer::Stopped
        } else {
            Answer::No
        };
        if self.tuning.table {
            let key = self.key(state);
            match answer {
                Answer::Yes => self
                    .table
                    .raise_lower(key, k, self.deal.rules.perfect_score()),
                Answer::No => self.table.lower_upper(key, k - 1),
                Answer::Stopped => {}
            }
        }
        answer
    }

    /// A line from `state` reaching `k`, which must be known reachable, or `None` when a limit
    /// (the deadline or another thread's stop) ends the search first: rebuilding a line is part
    /// of the work a time limit covers.
    ///
    /// At each step a child the table already knows reaches `k` is taken first: with threads,
    /// the child that proved it may not be the first in order, and the siblings before it may
    /// be open (stopped when it answered), so searching them again could take as long as the
    /// whole question. Otherwise the children are searched in the order the search used, so the
    /// table holds the answer for almost every step.
    fn line(&self, state: &State, k: u8) -> Option<Vec<Action>> {
        let never = AtomicBool::new(false);
        let unlimited = Ctx {
            node_limit: u64::MAX,
            ..*self
        };
        let mut searcher = unlimited.searcher(&never);
        let mut line = Vec::new();
        let mut s = *state;
        while !s.is_over() {
            let Some((a, child)) = self.step_toward(&mut searcher, &s, k) else {
                // Stopped; or (never seen) no child reaches k: then no line is claimed.
                self.nodes.fetch_add(searcher.nodes, Ordering::Relaxed);
                return None;
            };
            line.push(a);
            s = child;
        }
        self.nodes.fetch_add(searcher.nodes, Ordering::Relaxed);
        Some(line)
    }

    /// A move from `state` that keeps `k` reachable: a child the table (or the game's end)
    /// already shows reaching it, else the first the search proves does. `None` if stopped.
    fn step_toward(
        &self,
        searcher: &mut Searcher,
        state: &State,
        k: u8,
    ) -> Option<(Action, State)> {
        let children = searcher.children(state, k);
        let known = children.iter().find(|(_, child)| {
            if child.is_over() {
                self.goal.score(&self.deal.rules, child) >= k
            } else {
                self.tuning.table && self.table.get(&self.key(child)).is_some_and(|b| b.lo >= k)
            }
        });
        if let Some(&step) = known {
            return Some(step);
        }
        for &(a, child) in &children {
            match searcher.reach(&child, k) {
                Answer::Yes => return Some((a, child)),
                Answer::No => {}
                Answer::Stopped => return None,
            }
        }
        None
    }
}

/// How a round's work is shared between finding lines and refuting scores, which depends on
/// the number of players.
///
/// The hardest deals to decide are those that cannot be won, and there a relaxation is what
/// proves it; on deals that can be won the relaxed games only delay the line, which the beam
/// after each round often finds where the depth-first questions do not. With 2 players the
/// deals that cannot be won are many and hard; with more, the deals left open are mostly won
/// ones whose line is hard to find.
#[derive(Clone, Copy, Debug)]
struct Shares {
    /// How many times the real questions' budget the relaxed games (each of them) get.
    relaxed: u64,
    /// The beam keeps one position per this many nodes of the round's budget (a beam
    /// evaluates roughly its width times the moves of a game).
    beam_nodes_per_width: u64,
}

/// The shares for `players` players, as measured (one thread a deal):
///
/// - 2 players: relaxed 8, beam 500. With 16 the slowest hard deck took 7.2 s and p4v0s1791
///   (won) 2.6 s; with 4, 9.1 s and 0.6 s; 8 keeps every hard deck well under 10 s and loses
///   less on won deals. With a relaxed share of 2 `bench --set refute-2p` takes 59% more
///   nodes, with a beam of 50 37% more; neither decides more of `p2v2s1..2000` at 2 s.
/// - 3 or more: relaxed 2, beam 50. At 2 s a seed, two seeds at once, the undecided seeds of
///   `p3v2s1..2000` went from 5 to 4 with the relaxed share and to 1 with the beam too; of
///   `p4v2s1..2000` from 18 to 13 and 9; of `p5v2s1..1000` from 16 to 14 and 10; of
///   `p6v2s1..500` from 14 to 14 and 7; each row sooner.
fn shares(players: u8) -> Shares {
    if players <= 2 {
        Shares {
            relaxed: 8,
            beam_nodes_per_width: 500,
        }
    } else {
        Shares {
            relaxed: 2,
            beam_nodes_per_width: 50,
        }
    }
}

/// Node budget of each question in the first round; it doubles every round.
const QUICK_NODES: u64 = 20_000;

/// The widest beam: its two layers and history stay a few megabytes.
const MAX_BEAM: u64 = 16_384;

/// One goal of the question "can the game reach hi?" (see [`Goal`]) and what is known of it.
#[derive(Clone, Copy)]
struct OpenGoal {
    goal: Goal,
    /// No line reaches it (in the real game, or in the relaxed one, which bounds it).
    refuted: bool,
    /// The pool game reaches it, so only the relaxed or the real game can refute it.
    pool_reaches: bool,
    /// The relaxed game reaches it, so only the real game can refute it.
    relaxed_reaches: bool,
}

/// Most goals a question is split into (see [`Goal`]); beyond this the question is put whole.
const MAX_GOALS: usize = 8;

/// Whether the question "can the game reach `k`?" is put as one question per goal: below the
/// perfect score, when the ways of sharing `k` are few. A goal names the cards above each
/// height, which needs each card's place fixed in advance: not where the players choose the
/// stacks' ways (Up or Down, Sudoku).
fn split_goals(rules: &crate::game::rules::Rules, k: u8) -> bool {
    !rules.endless
        && k < rules.perfect_score()
        && !rules.variant.play_order().ways_chosen_in_play()
        && Goal::count_splits(rules, k) <= MAX_GOALS
}

fn final_score(deal: &Deal, state: &State, line: &[Action]) -> u8 {
    let mut s = *state;
    for &a in line {
        s = s.apply_unchecked(deal, a);
    }
    s.score(&deal.rules)
}

/// A quick line: always the first ordered move. Its score is a proven lower bound.
fn greedy(deal: &Deal, state: &State, merge: bool) -> (u8, Vec<Action>) {
    let mut s = *state;
    let mut line = Vec::new();
    while !s.is_over() {
        let a = ordered_moves(deal, &s, merge, false)[0];
        line.push(a);
        s = s.apply_unchecked(deal, a);
    }
    (s.score(&deal.rules), line)
}

/// The instant `limit` after `start`, or `None` (no deadline) for no limit or one so far away
/// that no clock can name it (`--time-limit 1e19`).
pub fn deadline_after(start: Instant, limit: Option<Duration>) -> Option<Instant> {
    limit.and_then(|d| start.checked_add(d))
}

/// The best final score from `state` under `deal`, with a line that reaches it.
///
/// The answer does not depend on `config.threads`; only speed and node counts do.
pub fn solve(deal: &Deal, state: &State, config: &SolveConfig) -> Solution {
    let tables = Tables::new(config);
    solve_with(deal, state, config, &tables, true, None)
}

/// The best final score after each of `states` (positions of the same deal), without lines.
///
/// One pair of tables serves every position, so what one search learns about a position the
/// others meet is reused: the root actions of a position share most of their futures. Each
/// answer is exactly what [`solve`] gives (its `max_score` and `proven`), one thread each.
pub fn solve_all(deal: &Deal, states: &[State], config: &SolveConfig) -> Vec<Solution> {
    let search = SharedSearch::new(deal, config);
    states.iter().map(|s| search.value(s, None)).collect()
}

/// Searches of many positions of one deal that share one pair of tables: what one search
/// learns about a position the others meet is reused. A game's positions one after another
/// (the review of a game) or the positions after each root action (the hidden-card modes)
/// cost little more together than the hardest of them.
pub struct SharedSearch<'a> {
    deal: &'a Deal,
    config: &'a SolveConfig,
    tables: Tables,
}

impl<'a> SharedSearch<'a> {
    pub fn new(deal: &'a Deal, config: &'a SolveConfig) -> SharedSearch<'a> {
        SharedSearch {
            deal,
            config,
            tables: Tables::new(config),
        }
    }

    /// The best final score from `state`, without a line. `ceiling` is a proven bound the
    /// caller already has (the value of a position this one follows in a game can be no more
    /// than the value of the one before it): the search stops as soon as a line reaches it,
    /// where it would otherwise still have to refute everything above.
    pub fn value(&self, state: &State, ceiling: Option<u8>) -> Solution {
        solve_with(self.deal, state, self.config, &self.tables, false, ceiling)
    }
}

/// The real game's table and the relaxed game's, under one memory cap.
struct Tables {
    real: Table,
    relaxed: Table,
}

impl Tables {
    /// The memory cap covers both tables: the relaxed game's gets a quarter when it can be
    /// used (not when that quarter is under a mebibyte).
    fn new(config: &SolveConfig) -> Tables {
        let relaxed_mb = if config.tuning.relaxed && config.tt_mb >= 4 {
            config.tt_mb / 4
        } else {
            0
        };
        Tables {
            real: Table::with_megabytes(config.tt_mb - relaxed_mb),
            relaxed: Table::with_megabytes(relaxed_mb),
        }
    }
}

/// [`solve`] with given tables; without `want_line` the line is left empty (the score is the
/// same, and finding the line is skipped).
fn solve_with(
    deal: &Deal,
    state: &State,
    config: &SolveConfig,
    tables: &Tables,
    want_line: bool,
    ceiling: Option<u8>,
) -> Solution {
    let start = Instant::now();
    let rules = &deal.rules;
    // The relaxed game is searched when it has a table (see `Tables::new`) and applies here.
    let use_relaxed = tables.relaxed.capacity() > 0 && relaxation_applies(deal, state);
    let own_stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let no_ceiling = AtomicBool::new(false);
    let root = Root {
        ctx: Ctx {
            deal,
            goal: Goal::full(rules),
            relaxed: false,
            pool: false,
            table: &tables.real,
            tuning: config.tuning,
            stop: config.cancel.as_deref().unwrap_or(&own_stop),
            deadline: deadline_after(start, config.time_limit),
            node_limit: u64::MAX,
            nodes: &nodes,
            yielding: config.ceiling.as_deref().map(|c| &c.yielding),
        },
        state,
        config,
        relaxed_table: &tables.relaxed,
        relaxed_root: relaxed_root(state),
        use_relaxed,
        use_pool: use_relaxed && config.tuning.pool && pool_applies(deal, state),
        depth: if config.threads > 1 { SPLIT_DEPTH } else { 0 },
        shares: shares(rules.players),
        want_line,
        // Set when the ceiling is lowered: the round's questions stop, and the next round asks
        // below it.
        interrupt: config
            .ceiling
            .as_deref()
            .map_or(&no_ceiling, |c| &c.lowered),
    };
    let mut progress = root.start(ceiling);
    // One thread searches right here: no pool to build, which matters for the many small
    // solves of batches and samples.
    if config.threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .build()
            .expect("a thread pool can be built")
            .install(|| root.narrow(&mut progress));
    } else {
        root.narrow(&mut progress);
    }
    let Progress { lo, hi, line, .. } = progress;
    Solution {
        max_score: lo,
        perfect_score: rules.perfect_score(),
        proven: lo == hi,
        lower_bound: lo,
        upper_bound: hi,
        line: if want_line { line } else { Vec::new() },
        nodes: nodes.load(Ordering::Relaxed),
        seconds: start.elapsed().as_secs_f64(),
        table_entries: tables.real.len() + tables.relaxed.len(),
    }
}

/// One search of a root position: what stays fixed while [`Root::narrow`] closes the bounds.
struct Root<'a> {
    /// The real game's questions (the full goal, the real table, the limits).
    ctx: Ctx<'a>,
    state: &'a State,
    config: &'a SolveConfig,
    relaxed_table: &'a Table,
    relaxed_root: State,
    use_relaxed: bool,
    use_pool: bool,
    /// Plies of each question split across threads.
    depth: u32,
    shares: Shares,
    want_line: bool,
    /// Set when another solver lowers the ceiling: the round's questions stop.
    interrupt: &'a AtomicBool,
}

/// What the root knows so far: a line reaching `lo`, no line above `hi`, the goals of the
/// question "can the real game reach `hi`?" not yet refuted, and the round's budget.
struct Progress {
    lo: u8,
    hi: u8,
    line: Vec<Action>,
    goals: Vec<OpenGoal>,
    /// Node budget of each question this round; it doubles every round.
    round_budget: u64,
    /// Rounds so far: the salt of each round's noisy beam.
    round: u64,
}

/// What one round's questions showed.
enum RoundEnd {
    /// A goal at `hi` is reached (and, where a line is wanted, the line was rebuilt or a limit
    /// struck first): the search is over.
    Reached,
    /// Every goal at `hi` is refuted: the next round asks one point lower.
    Refuted,
    /// Some goals are still open.
    Open,
}

impl Root<'_> {
    /// The first bounds: a greedy play-out's score and line below, the static bounds (and a
    /// ceiling the caller already has) above.
    fn start(&self, ceiling: Option<u8>) -> Progress {
        let (deal, state) = (self.ctx.deal, self.state);
        let (lo, line) = greedy(deal, state, self.config.tuning.merge);
        let hi = if state.is_over() {
            lo
        } else {
            upper_bound(deal, state, self.config.tuning.bounds)
                .min(ceiling.unwrap_or(u8::MAX))
                .max(lo)
        };
        Progress {
            lo,
            hi,
            line,
            goals: self.open_goals(hi),
            round_budget: QUICK_NODES,
            round: 0,
        }
    }

    /// Narrows the bounds until they meet or a limit strikes.
    ///
    /// Three kinds of question share the work, each with a node budget that doubles every
    /// round, so no one of them can starve the others:
    /// 1. can the real game reach the upper bound? (most deals: yes, found at once). Below the
    ///    perfect score, asked once per goal (see `Goal`): each is far easier to refute;
    /// 2. can the pool game, and then the relaxed game, reach it (each goal)? They are much
    ///    smaller, and where they cannot, neither can the real game;
    /// 3. can the real game beat the best line found? Just above the true maximum the bounds
    ///    cut far more than at the upper bound.
    fn narrow(&self, p: &mut Progress) {
        while p.lo < p.hi && !self.ctx.stop.load(Ordering::Relaxed) {
            self.publish(p);
            if let Some(cap) = self
                .config
                .ceiling
                .as_ref()
                .and_then(|c| c.take(p.lo, p.hi))
            {
                p.hi = cap;
                p.goals = self.open_goals(p.hi);
                continue;
            }
            if p.round_budget.min(self.budget()) == 0 {
                break;
            }
            match self.ask_round(p) {
                RoundEnd::Reached => break,
                RoundEnd::Refuted => {
                    p.hi = if self.ctx.deal.rules.endless {
                        p.lo
                    } else {
                        p.hi - 1
                    };
                    p.goals = self.open_goals(p.hi);
                    continue;
                }
                RoundEnd::Open => {}
            }
            if !self.climb(p) {
                break;
            }
            if p.lo >= p.hi {
                continue;
            }
            self.widen(p);
            p.round_budget = p.round_budget.saturating_mul(2);
            p.round += 1;
        }
        self.publish(p);
    }

    /// Nodes left under `--max-nodes` (each sequential sub-search gets at most this).
    fn budget(&self) -> u64 {
        self.config.max_nodes.map_or(u64::MAX, |m| {
            m.saturating_sub(self.ctx.nodes.load(Ordering::Relaxed))
        })
    }

    /// Tells the other solver (if any) the bounds so far.
    fn publish(&self, p: &Progress) {
        if let Some(c) = &self.config.ceiling {
            c.publish(p.lo, p.hi);
        }
    }

    /// The goals the question "can the game reach k?" is put as, those the bound allows.
    fn open_goals(&self, k: u8) -> Vec<OpenGoal> {
        let (deal, state) = (self.ctx.deal, self.state);
        let rules = &deal.rules;
        let goals = if self.config.tuning.goals && split_goals(rules, k) {
            Goal::splits(rules, k)
                .into_iter()
                .filter(|g| goal_bound(deal, state, self.config.tuning.bounds, g) >= k)
                .collect()
        } else {
            vec![self.ctx.goal]
        };
        goals
            .into_iter()
            .map(|goal| OpenGoal {
                goal,
                refuted: false,
                pool_reaches: false,
                relaxed_reaches: false,
            })
            .collect()
    }

    /// One round's questions at `p.hi`. For every open goal: can the real game reach it? And
    /// if not yet known, the pool game (far smaller: where it cannot reach the goal, neither
    /// can the relaxed game), then the relaxed game. With more threads the two kinds run side
    /// by side, the relaxed games of different goals too. A goal reached ends the search
    /// (its line rebuilt by [`Root::take_line`]); otherwise the refuted goals are dropped, and
    /// the round ends with every goal refuted or some still open.
    fn ask_round(&self, p: &mut Progress) -> RoundEnd {
        let (answers, relaxed): (Vec<Answer>, Vec<OpenGoal>) = if self.config.threads > 1 {
            rayon::join(
                || self.ask_real(p),
                || p.goals.par_iter().map(|g| self.ask_relaxed(p, g)).collect(),
            )
        } else {
            let answers = self.ask_real(p);
            if answers.contains(&Answer::Yes) {
                (answers, p.goals.clone())
            } else {
                let relaxed = p.goals.iter().map(|g| self.ask_relaxed(p, g)).collect();
                (answers, relaxed)
            }
        };
        let reached = answers
            .iter()
            .position(|a| *a == Answer::Yes)
            .map(|i| p.goals[i].goal);
        p.goals = relaxed;
        for (open, answer) in p.goals.iter_mut().zip(&answers) {
            if *answer == Answer::No {
                open.refuted = true;
            }
        }
        if let Some(goal) = reached {
            self.take_line(p, goal);
            return RoundEnd::Reached;
        }
        p.goals.retain(|g| !g.refuted);
        if p.goals.is_empty() {
            RoundEnd::Refuted
        } else {
            RoundEnd::Open
        }
    }

    /// Can the real game reach `p.hi`, goal by goal until one is reached?
    fn ask_real(&self, p: &Progress) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(p.goals.len());
        for open in &p.goals {
            let limited = Ctx {
                node_limit: p.round_budget.min(self.budget()),
                goal: open.goal,
                ..self.ctx.clone_ref()
            };
            let answer = limited.reach_split(self.state, p.hi, self.depth, self.interrupt);
            answers.push(answer);
            if answer == Answer::Yes {
                break;
            }
        }
        answers
    }

    /// `open` after asking the pool game and then the relaxed game whether they reach it at
    /// `p.hi`, where they apply and are not known to.
    fn ask_relaxed(&self, p: &Progress, open: &OpenGoal) -> OpenGoal {
        let mut open = *open;
        let ask = |pool| {
            Ctx {
                relaxed: true,
                pool,
                table: self.relaxed_table,
                goal: open.goal,
                // The relaxed games decide the hard deals; they get the larger share.
                node_limit: p
                    .round_budget
                    .saturating_mul(self.shares.relaxed)
                    .min(self.budget()),
                ..self.ctx.clone_ref()
            }
            .reach_split(&self.relaxed_root, p.hi, self.depth, self.interrupt)
        };
        if self.use_pool && !open.refuted && !open.pool_reaches {
            match ask(true) {
                Answer::No => open.refuted = true,
                Answer::Yes => open.pool_reaches = true,
                Answer::Stopped => {}
            }
        }
        // The relaxed game only once the pool game (where it applies) reaches the goal.
        if self.use_relaxed
            && !open.refuted
            && !open.relaxed_reaches
            && (open.pool_reaches || !self.use_pool)
        {
            match ask(false) {
                Answer::No => open.refuted = true,
                Answer::Yes => open.relaxed_reaches = true,
                Answer::Stopped => {}
            }
        }
        open
    }

    /// `goal` is reached at `p.hi`: the bounds meet, with the line rebuilt where one is wanted,
    /// unless a limit stops the rebuilding first (the bounds then stay those a line shows).
    fn take_line(&self, p: &mut Progress, goal: Goal) {
        if !self.want_line {
            p.lo = p.hi;
            return;
        }
        let ctx = Ctx {
            goal,
            ..self.ctx.clone_ref()
        };
        self.rebuild_line(&ctx, p, p.hi);
    }

    /// Rebuilds a line reaching `k` (known to be reachable under `ctx`'s goal) into `p`. False
    /// when a limit struck first: the bound it would prove is then not claimed, and the
    /// answer stays the bounds that a line shows.
    fn rebuild_line(&self, ctx: &Ctx, p: &mut Progress, k: u8) -> bool {
        let Some(found) = ctx.line(self.state, k) else {
            return false;
        };
        p.lo = final_score(self.ctx.deal, self.state, &found).max(k);
        p.line = found;
        true
    }

    /// Climbs from the best line while each next score is found within the budget: the
    /// questions above were just left open at this budget, so asking them again first would
    /// only repeat them. False when a limit cut the rebuilding of a line short (the search is
    /// then over).
    fn climb(&self, p: &mut Progress) -> bool {
        let deal = self.ctx.deal;
        while !deal.rules.endless && p.lo + 1 < p.hi {
            // `--max-nodes` spent: no step more (each would still take a few nodes).
            let limit = p.round_budget.min(self.budget());
            if limit == 0 {
                break;
            }
            let limited = Ctx {
                node_limit: limit,
                ..self.ctx.clone_ref()
            };
            match limited.reach_split(self.state, p.lo + 1, self.depth, self.interrupt) {
                Answer::Yes if self.want_line => {
                    if !self.rebuild_line(&self.ctx, p, p.lo + 1) {
                        return false;
                    }
                }
                Answer::Yes => p.lo += 1,
                Answer::No => {
                    p.hi = p.lo;
                    break;
                }
                Answer::Stopped => break,
            }
        }
        true
    }

    /// A wider look for a better line, only once a round's questions have left the score open:
    /// most deals are settled by them in far fewer nodes than a beam takes. Not once
    /// `--max-nodes` is spent.
    fn widen(&self, p: &mut Progress) {
        if p.lo >= p.hi || self.ctx.stop.load(Ordering::Relaxed) || self.budget() == 0 {
            return;
        }
        let width = (p.round_budget / self.shares.beam_nodes_per_width).clamp(1, MAX_BEAM) as usize;
        // Two beams that keep different positions (see `Ranking`); the second's noise is fresh
        // every round.
        for ranking in [Ranking::Points, Ranking::Promise { salt: p.round }] {
            if p.lo >= p.hi {
                break;
            }
            let found = beam(
                self.ctx.deal,
                self.state,
                width,
                p.hi,
                ranking,
                self.config.tuning,
                self.ctx.deadline,
            );
            self.ctx.nodes.fetch_add(found.nodes, Ordering::Relaxed);
            if found.score > p.lo {
                p.lo = found.score;
                p.line = found.line;
            }
        }
    }
}

/// The best score of the relaxed game (clue tokens unlimited) from `state`, or `None` where the
/// relaxation does not apply. An upper bound on the real game's best score; exposed for tests.
pub fn relaxed_max(deal: &Deal, state: &State) -> Option<u8> {
    best_relaxed(deal, state, false)
}

/// The best score of the pool game (see [`pool_applies`]) from `state`, or `None` where it
/// does not apply: an upper bound on [`relaxed_max`]. Exposed for tests.
pub fn pool_max(deal: &Deal, state: &State) -> Option<u8> {
    best_relaxed(deal, state, true)
}

/// [`relaxed_max`], or with `pool` [`pool_max`]: the highest score not refuted.
fn best_relaxed(deal: &Deal, state: &State, pool: bool) -> Option<u8> {
    ask_relaxed(deal, state, pool, u64::MAX, None, |searcher, root| {
        let mut k = deal.rules.perfect_score();
        while k > 0 && searcher.reach(root, k) == Answer::No {
            k -= 1;
        }
        k
    })
}

/// Whether the relaxed game (with `pool`, the pool game) from `state` can reach `goal`, or
/// `None` where it does not apply. Exposed for tests.
pub fn relaxed_reaches(deal: &Deal, state: &State, goal: &Goal, pool: bool) -> Option<bool> {
    relaxed_reaches_tuned(deal, state, goal, goal.total(), pool, Tuning::FULL).map(|(yes, _)| yes)
}

/// Whether the relaxed game (with `pool`, the pool game) from `state` reaches `k` toward
/// `goal`, searched under `tuning`, with the nodes it took; `None` where it does not apply. The
/// answer is the same under any tuning; exposed for tests, which compare the pruning rules'
/// answers and node counts.
pub fn relaxed_reaches_tuned(
    deal: &Deal,
    state: &State,
    goal: &Goal,
    k: u8,
    pool: bool,
    tuning: Tuning,
) -> Option<(bool, u64)> {
    ask_relaxed(deal, state, pool, u64::MAX, None, |searcher, root| {
        searcher.tuning = tuning;
        searcher.goal = *goal;
        (searcher.reach(root, k) == Answer::Yes, searcher.nodes)
    })
}

/// Puts `question` to a search of the relaxed game (with `pool`, the pool game) alone from
/// `state`, given the relaxed root: its own table, at most `node_limit` nodes, stopped at
/// `deadline`. `None` where the relaxation does not apply (or the game is over).
pub(crate) fn ask_relaxed<R>(
    deal: &Deal,
    state: &State,
    pool: bool,
    node_limit: u64,
    deadline: Option<Instant>,
    question: impl FnOnce(&mut Searcher, &State) -> R,
) -> Option<R> {
    let applies = if pool {
        pool_applies(deal, state)
    } else {
        relaxation_applies(deal, state)
    };
    if !applies || state.is_over() {
        return None;
    }
    let table = Table::with_megabytes(64);
    let never = AtomicBool::new(false);
    let mut searcher = Searcher {
        deal,
        table: &table,
        tuning: Tuning::FULL,
        stop: &never,
        done: &never,
        deadline,
        node_limit,
        relaxed: true,
        pool,
        goal: Goal::full(&deal.rules),
        nodes: 0,
        yielding: None,
    };
    Some(question(&mut searcher, &relaxed_root(state)))
}
