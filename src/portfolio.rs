//! Deciding whether a deal can be won: the search, with the SAT solver beside it for the deals
//! the search does not settle quickly.
//!
//! The search ([`crate::search`]) decides almost every deal in milliseconds, far sooner than
//! the SAT solver ([`crate::sat`]) could even finish; a few hard deals it leaves between bounds
//! for minutes, and those the SAT solver settles in seconds. So the search starts alone, and a
//! deal it has not settled after a short while gets the SAT solver in a second thread; the first
//! of the two to decide stops the other. An easy deal costs what it did before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::sat::{self, Decision, Expect, Formula, Ladder, SatError, ShortFirst, Stop};
use crate::search::{self, deadline_after, Ceiling, Solution, SolveConfig};
use crate::spare_cores::{self, SpareCores};
use crate::state::{Action, Deal, State};

/// Which solver settled a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    Search,
    Sat,
    /// Neither, before the time limit.
    Neither,
}

/// What [`decide`] found: the search's proven bounds, narrowed by the SAT solver's answer.
#[derive(Clone, Debug)]
pub struct Decided {
    pub solution: Solution,
    pub by: DecidedBy,
    /// How long a core lent by the batch worked on the deal ([`SatPlan::spare`]), beside the
    /// deal's own: solving time the deal's `seconds` do not count.
    pub lent_seconds: f64,
}

/// With 2 players, the SAT solver joins the search only where the time limit leaves it at
/// least this long after `sat_after`. The 2-player deals the search leaves open are mostly
/// hard refutations that the SAT solver does not settle either (of the first nine 6 Suits seeds
/// left open at 2 s, it settled none in 60 s each), and meanwhile it takes a core from the
/// search. With 3 or more players it joins under any limit that leaves it time: there it
/// refutes most perfect scores the search leaves open in a tenth of a second (measured on
/// 3-player Black, `p3v2s1..10000` at 2 s a seed: 12 seeds left undecided by the search
/// alone, 1 with the SAT solver from 0.5 s).
pub const SAT_MIN_TIME_2P: Duration = Duration::from_secs(5);

/// Whether the SAT solver joins a search of a deal for `players` that has not settled it after
/// `sat_after`, under `time_limit`: where the limit leaves it time after `sat_after`, and with 2
/// players at least [`SAT_MIN_TIME_2P`].
///
/// ```
/// use std::time::Duration;
/// use hanabi_solver::portfolio::{sat_joins, SAT_MIN_TIME_2P};
/// let (s, ms) = (Duration::from_secs, Duration::from_millis);
/// assert!(sat_joins(2, None, ms(500)));
/// assert!(sat_joins(2, Some(ms(500) + SAT_MIN_TIME_2P), ms(500)));
/// assert!(!sat_joins(2, Some(ms(499) + SAT_MIN_TIME_2P), ms(500)));
/// assert!(sat_joins(3, Some(s(2)), ms(500)));
/// assert!(!sat_joins(5, Some(ms(500)), ms(500)));
/// ```
pub fn sat_joins(players: u8, time_limit: Option<Duration>, sat_after: Duration) -> bool {
    let min_time = if players <= 2 {
        SAT_MIN_TIME_2P
    } else {
        Duration::ZERO
    };
    time_limit.is_none_or(|limit| limit > sat_after && limit >= sat_after + min_time)
}

/// From this many players, a single-threaded search steps aside once the SAT solver joins it
/// ([`Ceiling::step_aside`]): it keeps about a tenth of a core, and the SAT solver the rest.
/// There the deals the search has not settled in `sat_after` are the SAT solver's to settle,
/// and the two would otherwise share a core with the batch's other seeds. Measured on a
/// 2-core machine with 2 s a seed (two seeds at once), on the Black seeds that took over
/// 0.3 s: with 5 and 6 players, 31 and 53 left undecided with the search at full speed, 23 and
/// 43 with it stepping aside. With 4 players the search kept its core while the SAT solver
/// asked the whole formula at once (10 left at full speed, 14 stepping aside); since it asks
/// for a short line first ([`crate::sat::ShortFirst`]), stepping aside pays there too (11 to
/// 13 left at full speed in three runs, 9 in each of three stepping aside).
pub const SEARCH_STEPS_ASIDE_FROM: u8 = 4;

/// From this many players, a search with several threads (the deal has the cores to itself,
/// as in `solve`) gets two SAT threads beside it, one per formula ([`crate::sat::Formula`]):
/// on the hard 4- to 6-player Black deals the per-draw formula refutes sooner and the
/// per-turn one finds lines sooner (`solve` on 9 hard 4-player seeds: 40 s in all racing,
/// 63 s with the per-turn formula alone). With fewer players the deals the search leaves open
/// are mostly long refutations the search itself finishes, and a second SAT thread would take
/// a core from it.
pub const TWO_FORMULAS_FROM: u8 = 4;

/// How many points below the highest score still open the per-turn formula's lowest score
/// lies ([`Ladder`]): the scores between are asked of the same solver, one after another,
/// keeping what it learned. Where the search's line is 28 points of 30, the formula asks for
/// 29 outright and for 30 under an assumption; where its line is 29, it asks for 30 alone, as
/// before. On the 146 5- and 6-player Black seeds whose 2 s run ended below 30 or with a line
/// below 29 (2 s each, two at once, each seed run with and without), 24 and 29 stayed
/// undecided in two passes with the ladder, 31 and 32 without (17 and 18 of the 6-player
/// ones against 22 and 22); one step instead of two left 26. A lower formula's game is longer
/// (the horizon leaves room for the discards a lower score allows), which made the perfect
/// score no quicker to reach: asked of the 29-point formula, 99 winnable seeds of those rows
/// took 50 s in all, 42 s asked of their own.
pub const LADDER_STEPS: u8 = 2;

/// Whether a search of the deal from `state` with a core of its own beside the SAT solver's
/// hands it to the per-draw formula ([`SatPlan::own_core`]): where the SAT solver models the
/// rules, with [`TWO_FORMULAS_FROM`] players or more and the per-draw formula.
pub fn hands_over(deal: &Deal, state: &State) -> bool {
    sat::encode::applies(deal, state).is_ok() && draws_race(deal)
}

/// Whether the per-draw formula races the per-turn one where the deal has the cores: with
/// [`TWO_FORMULAS_FROM`] players or more, where it models the deal.
fn draws_race(deal: &Deal) -> bool {
    deal.rules.players >= TWO_FORMULAS_FROM && sat::draws::DrawEncoding::models(deal)
}

/// When and where the SAT solver joins the search ([`decide`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SatPlan<'a> {
    /// Join a search that has not settled the deal after this long; `None`: the search alone.
    pub after: Option<Duration>,
    /// The deal has a second core of its own beside the search's single thread (a batch
    /// giving each seed two cores, `seeds --cores-per-seed 2`): the SAT solver's per-turn
    /// formula runs there, and the search keeps its core at full speed (it steps aside only
    /// where the two share one), until [`HANDS_OVER_AFTER`] (or the SAT solver's start, if
    /// later), when it gives its core to the per-draw formula ([`crate::sat::Formula`]).
    pub own_core: bool,
    /// The batch's workers lend their cores to its hard seeds: a deal of
    /// [`TWO_FORMULAS_FROM`] players or more that one core has not settled after
    /// [`SpareCores::after`] (and `after`) asks for a second, and the per-draw formula runs
    /// there.
    pub spare: Option<&'a SpareCores>,
    /// Where the search hands its core over ([`SatPlan::own_core`]): this long after the
    /// deal's start (`None`: after [`HANDS_OVER_AFTER`]). A batch's second pass over its hard
    /// seeds hands it over at once: the search has had its time in the first.
    pub hands_over_after: Option<Duration>,
    /// Bounds on the best score proven before (a first pass over the deal): a line reaches the
    /// first, and none goes above the second. The SAT solver asks only about the scores
    /// between, as if the search had proven them. The solution's own bounds do not include
    /// them: its line reaches its own lower bound.
    pub known: Option<(u8, u8)>,
}

impl SatPlan<'_> {
    /// The SAT solver after `after` (if any), sharing the deal's cores with the search.
    pub fn after(after: Option<Duration>) -> SatPlan<'static> {
        SatPlan {
            after,
            ..SatPlan::default()
        }
    }
}

/// Where the SAT solver has a core of its own ([`SatPlan::own_core`]) and the deal has
/// [`TWO_FORMULAS_FROM`] players or more, a single-threaded search that has not settled the
/// deal this long after its start hands its core to the per-draw formula, which then races
/// the per-turn one. The search settles most of the hard deals it settles at all within a
/// second, and the per-draw formula is the quicker of the two on many of the deals the
/// per-turn one leaves open. On the 160 hardest 6-player Black seeds of a 2 s row (2 s each,
/// one at a time on this 2-core machine), handing over at 0.7, 0.9 and 1.2 s left 9, 8 and
/// 10 (and 10) undecided, the search keeping its core to the end 13, and two seeds at once
/// with one core each (the default) 20.
pub const HANDS_OVER_AFTER: Duration = Duration::from_millis(900);

/// Where a batch lends cores to its hard seeds ([`SatPlan::spare`]), a deal of
/// [`TWO_FORMULAS_FROM`] players or more that one core has not settled this long after its
/// start asks for a second core, for the per-draw formula ([`SpareCores::new`]). Whole
/// 6-player Black 2 s rows on the 2-core machine (two seeds at once) left 16, 16, 17, 16 and
/// 17 seeds undecided asking at 0.9 s, 17 asking at 0.5 s, and 24 and 19 without lending; asking
/// as the SAT solver joins, with the deal then run as with a core of its own, left 22 (the
/// loans, held longer, kept the other worker from the easy seeds). Once the workers no longer
/// spent seconds on the loss reasons ([`crate::analysis::token_cap::loss_reason`]), the rows
/// left 15, 15 and 18 asking at 0.9 s, 16 at 0.7 s and 14 at 0.5 s: within a row's noise.
pub const BORROWS_AFTER: Duration = HANDS_OVER_AFTER;

/// Which formula a SAT thread asks ([`Formula`]).
///
/// A batch's single SAT thread asks the per-turn formula alone. It used to ask the per-draw
/// formula for the perfect score where the search's best line was one point short and ended
/// within three turns of the horizon (the per-draw formula then refuted sooner); since the
/// per-turn formula counts the plays left ([`crate::sat::encode::COUNT_EVERY`]) it is the
/// quicker of the two there as well: on the 17 6-player Black seeds a 2 s row left open at 29
/// to 30 points, asked for 30 one at a time for 6 s each, it took 38 s in all and settled 11
/// within 1.5 s, the per-draw formula 57 s and 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asking {
    /// The per-turn formula, several scores in one solver ([`Ladder`]).
    Turns,
    /// The per-draw formula (outside endless mode), one score at a time.
    Draws,
}

impl Asking {
    /// What this thread's questions mostly are ([`Expect`]): refutations for the per-draw
    /// thread of a race, whose per-turn thread finds the lines; either for the per-turn one.
    fn expect(self) -> Expect {
        match self {
            Asking::Draws => Expect::Refutation,
            Asking::Turns => Expect::Either,
        }
    }
}

/// What the SAT solver proved: no line reaches above `upper`, and `line` reaches `lower`.
#[derive(Clone, Debug, Default)]
struct SatBounds {
    upper: Option<u8>,
    lower: Option<(u8, Vec<Action>)>,
}

/// Whether `state` can reach the perfect score, with the best score found and proven bounds.
///
/// The search runs under `config`. Once `plan.after` has passed without the best score settled,
/// the SAT solver runs beside it until the same time limit, if that leaves it time
/// ([`sat_joins`]; and it goes on alone where the search stopped at a node limit). It asks
/// first for the highest score the search has not ruled out, then (where that is out of reach)
/// for one point less at a time, until some score is reached or the search's line already
/// reaches it: that is the best score. Each score it proves out of reach
/// becomes the search's ceiling at once ([`Ceiling`]), so the search stops asking for it; a
/// line from it was replayed through the rules. The first of the two to settle the best score
/// stops the other. Where the search has more than one thread (the cores are the deal's
/// alone, as in `solve`) and the deal has [`TWO_FORMULAS_FROM`] players or more, two SAT
/// threads race instead, one with each formula
/// ([`crate::sat::Formula`]): a score either refutes stops the other's question on it, and a
/// line either finds settles the deal. A batch, whose seeds share the cores, asks one formula
/// at a time, the per-turn one (`Asking`), unless the deal has a core of its own for it
/// ([`SatPlan::own_core`]): then the search keeps its core, and hands it to the per-draw
/// formula after [`HANDS_OVER_AFTER`]. Where the batch lends cores ([`SatPlan::spare`]), a
/// deal of [`TWO_FORMULAS_FROM`] players or more still open after [`SpareCores::after`] asks
/// for one, and runs the per-draw formula there once it is lent. Where the SAT encoding does
/// not model the rules (or `plan.after` is `None`), this is the search alone.
///
/// The error is a SAT line that does not reach its score under the rules: a fault in the
/// encoding, which must not pass silently (nothing the SAT solver says can then be trusted).
pub fn decide(
    deal: &Deal,
    state: &State,
    config: &SolveConfig,
    plan: SatPlan<'_>,
) -> Result<Decided, SatError> {
    let modelled = sat::encode::applies(deal, state).is_ok();
    let joins = |after: &Duration| sat_joins(deal.rules.players, config.time_limit, *after);
    let Some(sat_after) = plan.after.filter(|after| modelled && joins(after)) else {
        return Ok(searched(search::solve(deal, state, config)));
    };
    Race::new(deal, state, config, sat_after, plan).run()
}

/// Which threads work on a deal beside the search, and what each asks ([`decide`]).
#[derive(Clone, Copy, Debug)]
struct Roles<'a> {
    /// The single-threaded search leaves its core to the SAT solver once it joins
    /// ([`SEARCH_STEPS_ASIDE_FROM`]).
    steps_aside: bool,
    /// Two SAT threads, one per formula (a search with several threads).
    two_formulas: bool,
    /// The search hands its core to the per-draw formula at [`HANDS_OVER_AFTER`] (the SAT
    /// solver has a core of its own).
    hands_over: bool,
    /// The cores the batch lends, where this deal may borrow one.
    spare: Option<&'a SpareCores>,
}

impl<'a> Roles<'a> {
    fn of(deal: &Deal, config: &SolveConfig, plan: SatPlan<'a>) -> Roles<'a> {
        let players = deal.rules.players;
        let single = config.threads == 1;
        let own_core = plan.own_core && single;
        let draws = draws_race(deal);
        Roles {
            steps_aside: players >= SEARCH_STEPS_ASIDE_FROM && single && !own_core,
            two_formulas: !single && draws,
            hands_over: own_core && draws,
            spare: plan.spare.filter(|_| single && !own_core && draws),
        }
    }

    /// Whether a second thread beside the SAT solver's works on the deal
    /// ([`Race::second_core`]): to tell the search when to hand its core over, or to borrow
    /// a core.
    fn second_core(&self) -> bool {
        self.hands_over || self.spare.is_some()
    }
}

/// The threads deciding one deal ([`decide`]), and what they share.
struct Race<'a> {
    deal: &'a Deal,
    state: &'a State,
    /// The search's configuration, with its stop flag and the ceiling.
    config: SolveConfig,
    roles: Roles<'a>,
    start: Instant,
    sat_after: Duration,
    /// When the search hands its core over, from `start` ([`SatPlan::hands_over_after`]).
    hands_over_after: Duration,
    ceiling: Arc<Ceiling>,
    /// Raised once the deal is settled: every SAT question gives up.
    cancel: Arc<AtomicBool>,
    /// When every SAT question gives up: the time limit, or `cancel`.
    stop: Stop,
    /// Where the search hands its core over, the flag it stops at instead of `cancel`,
    /// which must stay down for the SAT solver beside it: raised to hand over, and whenever
    /// `cancel` is.
    search_stop: Arc<AtomicBool>,
    /// Set (and signalled) when the search has returned: whether it settled the best score.
    finished: (Mutex<Option<bool>>, Condvar),
}

impl<'a> Race<'a> {
    fn new(
        deal: &'a Deal,
        state: &'a State,
        config: &SolveConfig,
        sat_after: Duration,
        plan: SatPlan<'a>,
    ) -> Race<'a> {
        let start = Instant::now();
        let roles = Roles::of(deal, config, plan);
        let cancel = Arc::new(AtomicBool::new(false));
        let search_stop = Arc::new(AtomicBool::new(false));
        let ceiling = Arc::new(Ceiling::new(deal.rules.perfect_score()));
        if let Some((lo, hi)) = plan.known {
            ceiling.publish(lo, hi);
            ceiling.lower(hi);
        }
        let stops_at = if roles.hands_over {
            &search_stop
        } else {
            &cancel
        };
        let config = SolveConfig {
            cancel: Some(stops_at.clone()),
            ceiling: Some(ceiling.clone()),
            ..config.clone()
        };
        let stop = Stop {
            deadline: deadline_after(start, config.time_limit),
            cancel: Some(cancel.clone()),
            below: None,
            conflicts: None,
        };
        Race {
            deal,
            state,
            config,
            roles,
            start,
            sat_after,
            hands_over_after: plan.hands_over_after.unwrap_or(HANDS_OVER_AFTER),
            ceiling,
            cancel,
            stop,
            search_stop,
            finished: (Mutex::new(None), Condvar::new()),
        }
    }

    /// The search and the SAT solver beside it; their bounds combined.
    fn run(&self) -> Result<Decided, SatError> {
        let (mut solution, searched_on, sat) = std::thread::scope(|scope| {
            let sat = scope.spawn(|| self.sat_thread());
            let (solution, searched_on) = self.search_thread();
            let (lock, signal) = &self.finished;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = Some(solution.proven);
            signal.notify_all();
            if solution.proven {
                // Nothing is left for the SAT solver to settle.
                self.cancel.store(true, Ordering::Relaxed);
            }
            let sat = sat.join().expect("the SAT thread does not panic");
            (solution, searched_on, sat)
        });
        if self.roles.hands_over && !solution.proven {
            // The search stopped at its shorter limit: the deal's time is the SAT solvers'.
            solution.seconds = self.start.elapsed().as_secs_f64();
        }
        let (sat, lent) = sat?;
        let bounds = SatBounds::merge(sat, searched_on?);
        Ok(Decided {
            lent_seconds: lent.as_secs_f64(),
            ..combine(solution, bounds, self.ceiling.own_bound(), self.start)
        })
    }

    /// The search on the deal's first core, then, where it hands that core over (told to at
    /// [`HANDS_OVER_AFTER`], or stopped sooner by a node limit) and the deal is still open, the
    /// per-draw formula on it.
    fn search_thread(&self) -> (Solution, Result<SatBounds, SatError>) {
        let solution = search::solve(self.deal, self.state, &self.config);
        let settled = solution.proven || self.cancel.load(Ordering::Relaxed);
        if settled || !self.roles.hands_over {
            return (solution, Ok(SatBounds::default()));
        }
        (solution, self.ask(Asking::Draws))
    }

    /// The SAT solver from `sat_after`, where the search has not settled the deal by then, on
    /// the search's core, which the search leaves it where it steps aside; both formulas at
    /// once where the search has several threads; and, where there is one, the second thread
    /// beside it ([`Race::second_core`]). Their bounds, and how long a core was lent.
    ///
    /// The second thread starts only here, with the SAT solver: the easy deals, settled
    /// before, pay for no more threads than before.
    fn sat_thread(&self) -> Result<(SatBounds, Duration), SatError> {
        let (lock, signal) = &self.finished;
        let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = signal
            .wait_timeout_while(guard, self.sat_after, |done| done.is_none())
            .unwrap_or_else(|e| e.into_inner());
        if *guard == Some(true) {
            return Ok(Default::default());
        }
        drop(guard);
        if self.roles.steps_aside {
            self.ceiling.step_aside();
        }
        std::thread::scope(|scope| {
            let second = self
                .roles
                .second_core()
                .then(|| scope.spawn(|| self.second_core()));
            let bounds = self.sat_questions();
            let Some(second) = second else {
                return Ok((bounds?, Duration::ZERO));
            };
            let (second, lent) = second.join().expect("the SAT thread does not panic")?;
            Ok((SatBounds::merge(bounds?, second), lent))
        })
    }

    /// The SAT solver's questions: the per-turn formula's, or where the search has several
    /// threads, both formulas'.
    fn sat_questions(&self) -> Result<SatBounds, SatError> {
        if !self.roles.two_formulas {
            return self.ask(Asking::Turns);
        }
        // The per-turn formula tends to find lines sooner, the per-draw one to refute sooner:
        // each asks in its own thread, and what either settles stops the other.
        std::thread::scope(|inner| {
            let turns = inner.spawn(|| self.ask(Asking::Turns));
            let draws = self.ask(Asking::Draws);
            let turns = turns.join().expect("the SAT thread does not panic");
            Ok(SatBounds::merge(turns?, draws?))
        })
    }

    /// Beside the SAT solver, once it has joined. Where it has a core of its own: at
    /// [`HANDS_OVER_AFTER`], tells the search to hand its core to the per-draw formula. Where
    /// the batch lends cores: from [`SpareCores::after`], asks for one and runs the per-draw
    /// formula there. What it proved, and how long it held a core lent.
    fn second_core(&self) -> Result<(SatBounds, Duration), SatError> {
        let Some(spare) = self.roles.spare else {
            if self.wait_until(self.start + self.hands_over_after) {
                self.search_stop.store(true, Ordering::Relaxed);
            }
            return Ok(Default::default());
        };
        let not_before = self.start + spare.after().max(self.sat_after);
        let Some(loan) = spare.borrow(not_before, self.stop.deadline, &self.cancel) else {
            return Ok(Default::default());
        };
        let bounds = self.ask(Asking::Draws)?;
        Ok((bounds, loan.held()))
    }

    /// Waits until `then`: whether the deal is still open then, and time is left.
    fn wait_until(&self, then: Instant) -> bool {
        spare_cores::wait_until(then, self.stop.deadline, &self.cancel)
    }

    /// The SAT solver's bounds, asking `asking`'s formula ([`sat_bounds`]); a line it finds
    /// stops the search, whichever flag it stops at.
    fn ask(&self, asking: Asking) -> Result<SatBounds, SatError> {
        let bounds = sat_bounds(self.deal, self.state, &self.stop, &self.ceiling, asking);
        if self.cancel.load(Ordering::Relaxed) {
            self.search_stop.store(true, Ordering::Relaxed);
        }
        bounds
    }
}

/// The SAT solver's bounds on the best score from `state`: from the highest score still open
/// down, one point at a time, until one is reached, or until `stop`. Each score out of reach
/// lowers `ceiling` at once. The scores still open are read afresh before each question from
/// what the search has published in `ceiling`: nothing above its upper bound, and nothing its
/// own line already reaches (it may have settled them while the last question ran). `asking`
/// chooses the formula of each new question and the solver's configuration for it.
fn sat_bounds(
    deal: &Deal,
    state: &State,
    stop: &Stop,
    ceiling: &Arc<Ceiling>,
    asking: Asking,
) -> Result<SatBounds, SatError> {
    sat::encode::applies(deal, state).map_err(SatError::NotModelled)?;
    let rules = &deal.rules;
    let mut bounds = SatBounds::default();
    let floor = state.score(rules);
    let mut target = rules.perfect_score();
    let mut ladder: Option<Ladder> = None;
    loop {
        let (searched_lo, searched_hi) = ceiling.searched();
        target = target.min(searched_hi).min(ceiling.score());
        let reached = floor.max(searched_lo);
        if target <= reached {
            return Ok(bounds);
        }
        let asked = Stop {
            below: Some((ceiling.clone(), target)),
            ..stop.clone()
        };
        if !ladder.as_ref().is_some_and(|l| l.asks_for(rules, target)) {
            // The lowest score worth asking, at most LADDER_STEPS below this one.
            let lowest = target.saturating_sub(LADDER_STEPS).max(reached + 1);
            let by_draws = asking == Asking::Draws;
            let formula = Formula::for_scores(deal, state, lowest..=target, by_draws);
            let expect = asking.expect();
            ladder = Some(Ladder::new(formula, Some(ShortFirst::DEFAULT), expect));
        }
        let ladder = ladder.as_mut().expect("made above");
        match ladder.ask(deal, state, target, asked)? {
            Decision::Reached(line) => {
                // The highest score still open is reached: nothing is left to settle.
                if let Some(cancel) = &stop.cancel {
                    cancel.store(true, Ordering::Relaxed);
                }
                bounds.lower = Some((target, line));
                return Ok(bounds);
            }
            Decision::Unreachable => {
                // In endless mode a game short of the perfect score is lost (it scores 0).
                let upper = if deal.rules.endless { 0 } else { target - 1 };
                bounds.upper = Some(upper);
                ceiling.lower(upper);
                target = upper;
            }
            // Given up: out of time, or the score was refuted by another solver meanwhile.
            Decision::Open if ceiling.score() < target => {}
            Decision::Open => return Ok(bounds),
        }
    }
}

impl SatBounds {
    /// The tighter of two solvers' bounds.
    fn merge(a: SatBounds, b: SatBounds) -> SatBounds {
        let upper = match (a.upper, b.upper) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        let lower = match (a.lower, b.lower) {
            (Some(x), Some(y)) => Some(if x.0 >= y.0 { x } else { y }),
            (x, y) => x.or(y),
        };
        SatBounds { upper, lower }
    }
}

/// The search's solution as it stands: decided by the search, or by neither.
fn searched(solution: Solution) -> Decided {
    let by = if solution.verdict().is_some() {
        DecidedBy::Search
    } else {
        DecidedBy::Neither
    };
    Decided {
        solution,
        by,
        lent_seconds: 0.0,
    }
}

/// The search's solution narrowed by the SAT solver's bounds. `own_bound` is the upper bound
/// the search had proven itself before it took the SAT solver's as its ceiling, if it did:
/// the deal was settled by the SAT solver where the search's own bounds left it open.
fn combine(
    mut solution: Solution,
    sat: SatBounds,
    own_bound: Option<u8>,
    start: Instant,
) -> Decided {
    let (lower, upper) = (solution.lower_bound, solution.upper_bound);
    let own_verdict = search::verdict(lower, own_bound.unwrap_or(upper), solution.perfect_score);
    if let Some(up) = sat.upper {
        solution.upper_bound = solution.upper_bound.min(up);
    }
    if let Some((low, line)) = sat.lower {
        if low > solution.lower_bound {
            solution.lower_bound = low;
            solution.line = line;
        }
    }
    if (solution.lower_bound, solution.upper_bound) != (lower, upper) {
        assert!(
            solution.lower_bound <= solution.upper_bound,
            "the two solvers' bounds cross: a line reaches {} where {} was proven the most",
            solution.lower_bound,
            solution.upper_bound
        );
        solution.max_score = solution.lower_bound;
        solution.proven = solution.lower_bound == solution.upper_bound;
        solution.seconds = start.elapsed().as_secs_f64();
    }
    if own_verdict.is_none() && solution.verdict().is_some() {
        Decided {
            solution,
            by: DecidedBy::Sat,
            lent_seconds: 0.0,
        }
    } else {
        searched(solution)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::{Options, Rules};
    use crate::game::variant::Variant;
    use crate::seed::shuffled_deck;

    /// Endless deals of a tiny research deck, shuffled as hanab.live would for the seeds
    /// `endless1`, `endless2`, ...
    fn endless_deals() -> impl Iterator<Item = (Deal, State)> {
        let options = Options {
            hand_size: Some(1),
            clues: Some(1),
            endless: true,
            ..Options::default()
        };
        let rules = Rules::new(Variant::research(2, 3).unwrap(), 2, &options).unwrap();
        (1..=200).map(move |i| {
            let deck = shuffled_deck(&format!("endless{i}"), &rules.variant);
            Deal::from_deck(rules.clone(), &deck).unwrap()
        })
    }

    /// Only the racing per-draw thread, beside one that finds the lines, expects
    /// refutations; the per-turn thread, racing or alone, expects either answer.
    #[test]
    fn only_the_racing_per_draw_thread_expects_refutations() {
        assert_eq!(Asking::Draws.expect(), Expect::Refutation);
        assert_eq!(Asking::Turns.expect(), Expect::Either);
    }

    /// In endless mode a game short of the perfect score is lost, so where the SAT solver
    /// proves the perfect score out of reach its bound (and the search's ceiling) is 0, and
    /// where it reaches it the line wins: on every deal the search decides, the same answer.
    #[test]
    fn endless_sat_bounds_are_perfect_or_zero() {
        let mut seen = [0usize; 2];
        for (deal, state) in endless_deals() {
            let solution = search::solve(&deal, &state, &SolveConfig::default());
            assert!(solution.proven);
            let ceiling = Arc::new(Ceiling::new(deal.rules.perfect_score()));
            let bounds =
                sat_bounds(&deal, &state, &Stop::default(), &ceiling, Asking::Turns).unwrap();
            if solution.winnable() {
                let (score, _) = bounds.lower.expect("a winning line");
                assert_eq!(score, deal.rules.perfect_score());
                seen[1] += 1;
            } else {
                assert_eq!(bounds.upper, Some(0));
                assert_eq!(ceiling.score(), 0);
                seen[0] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
    }
}
