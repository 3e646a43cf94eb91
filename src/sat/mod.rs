//! Deciding "can the game from this position end with at least k points?" with a SAT solver.
//!
//! The search ([`crate::search`]) settles almost every deal at once, but a few hard deals
//! (many players, a suit with one copy of each card) leave it between bounds for minutes: it
//! must refute every line one by one. A CDCL solver learns why whole families of lines fail,
//! and settles those deals in seconds. The formulas ([`encode`], a block per turn; [`draws`], a
//! block per card drawn) are exact: a model is a line reaching k, which is replayed through the
//! rules before it is believed, and no model means no line reaches k. The solver is CaDiCaL,
//! built from source by the `cadical` crate.

pub mod cnf;
pub mod draws;
pub mod encode;
pub mod lrat;
pub mod proof;

use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use thiserror::Error;

use crate::game::rules::Rules;
use crate::line::final_state;
use crate::state::{Action, Deal, State};
use cnf::{Cnf, Lit};
use draws::DrawEncoding;
use encode::Encoding;

/// The formula asked of the solver, in one of its two forms: one block per turn ([`encode`]),
/// or outside endless mode one block per card drawn ([`draws`]). Both are exact; on the hard
/// many-player deals the first tends to find lines sooner and the second to refute sooner
/// ([`crate::portfolio`] asks both where it has the cores).
pub enum Formula {
    Turns(Encoding),
    Draws(DrawEncoding),
}

impl Formula {
    /// The formula for `state` asking for `scores` (with the implied constraints): the
    /// per-draw form where `by_draws` asks for it and it applies, asking for the highest of
    /// `scores` alone; otherwise the per-turn form, asking for the lowest outright and the
    /// others under assumptions ([`Encoding::for_scores`]).
    pub fn for_scores(
        deal: &Deal,
        state: &State,
        scores: RangeInclusive<u8>,
        by_draws: bool,
    ) -> Formula {
        if by_draws && DrawEncoding::models(deal) {
            Formula::Draws(DrawEncoding::new(deal, state, *scores.end(), true))
        } else {
            Formula::Turns(Encoding::for_scores(deal, state, scores, true))
        }
    }

    /// The clauses, for the solver.
    pub fn cnf(&self) -> &Cnf {
        match self {
            Formula::Turns(e) => &e.cnf,
            Formula::Draws(e) => &e.cnf,
        }
    }

    /// The assumption that asks for `target` (`Some(None)`: the formula asks it outright), or
    /// `None` where the formula cannot be asked for it. Only the per-turn form asks for more
    /// than one score.
    pub fn asks(&self, rules: &Rules, target: u8) -> Option<Option<Lit>> {
        match self {
            Formula::Turns(e) => e.asks(rules, target),
            Formula::Draws(e) => (e.target() == target).then_some(None),
        }
    }

    /// The literal of a short question for `target` ([`ShortFirst`]): only the per-turn form
    /// has one.
    fn ends_short(&self, rules: &Rules, target: u8, short: usize) -> Option<Lit> {
        match self {
            Formula::Turns(e) => e.ends_short(rules, target, short),
            Formula::Draws(_) => None,
        }
    }

    /// The line a model gives, as actions from `state`.
    pub fn line(&self, deal: &Deal, state: &State, value: impl Fn(Lit) -> bool) -> Vec<Action> {
        match self {
            Formula::Turns(e) => e.line(deal, state, value),
            Formula::Draws(e) => e.line(deal, state, value),
        }
    }
}

/// What the asker expects a question's answer to be, which picks CaDiCaL's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Lines and refutations alike: CaDiCaL's default configuration.
    Either,
    /// Mostly refutations: CaDiCaL's `unsat` configuration, which stays in its focused mode.
    /// `solve`'s race asks the per-draw formula so, beside a per-turn thread that finds the
    /// lines: 10 hard 5- and 6-player Black seeds took 47 s in all with it and 60 s with the
    /// default, run back to back (`solve SEED --time-limit 30`, 2 cores; p5v2s5313 stayed
    /// open either way). Asked alone on the 83 hardest 5- and 6-player Black seeds of the
    /// 2 s rows, the per-draw formula left 12 and 41 open (three runs) under `unsat`, 13 and
    /// 44 under the default; the per-turn formula 22 and 45 under `unsat` (one run), against
    /// 21 and 40. But a batch's single SAT thread, when it asked the per-draw formula for the
    /// perfect score of a deal whose search line was long and one point short (winnable or not
    /// alike; it now asks the per-turn formula there, [`crate::portfolio`]), did better under
    /// the default: on the 59 hardest 5- and 6-player Black seeds of the
    /// 2 s rows (2 s each, two at once, four runs alternating), 47, 53, 51 and 50 stayed open
    /// with it, 50, 54, 54 and 52 under `unsat` (lines sooner: p5v2s3907 and p6v2s5411 settled
    /// in every run with it, in none without; refutations later: p6v2s3465 in one run against
    /// four). Whole 2 s rows do not show it above their noise (6 players: 38 and 32 undecided
    /// with it, 33 and 35 without, run alternately).
    Refutation,
}

impl Expect {
    /// CaDiCaL's name of the configuration.
    fn config(self) -> &'static str {
        match self {
            Expect::Either => "default",
            Expect::Refutation => "unsat",
        }
    }
}

/// What the solver settled about a position and a target score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A line reaching the target, checked against the rules.
    Reached(Vec<Action>),
    /// No line reaches the target.
    Unreachable,
    /// Stopped by the deadline or the cancel flag first.
    Open,
}

/// Why no decision could be made.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SatError {
    /// The position uses a rule the formula does not model.
    #[error("the SAT encoding does not model {0}")]
    NotModelled(&'static str),
    /// A model whose line does not win under the rules: a fault in the encoding.
    #[error("the SAT model's line does not win: {0}")]
    BadLine(String),
    /// The solver's proof that no line reaches a score does not check: a fault in the solver.
    #[error("the SAT solver's proof that no line reaches {0} does not check: {1}")]
    BadProof(u8, String),
    /// A line reaches a score that was proven out of reach: a fault in whatever proved it.
    #[error("a line reaches {0}, which was proven out of reach")]
    Contradicted(u8),
}

/// When to give up: at a deadline, once another thread sets `cancel`, or after a number of
/// conflicts.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    pub deadline: Option<Instant>,
    pub cancel: Option<Arc<AtomicBool>>,
    /// Give up once this ceiling falls below this score: the question is settled elsewhere.
    pub below: Option<(Arc<crate::search::Ceiling>, u8)>,
    /// Give up after this many conflicts of the whole formula (the short question has its
    /// own, [`ShortFirst`]): a limit that, unlike a deadline, gives the same answer on every
    /// machine.
    pub conflicts: Option<i32>,
}

impl cadical::Callbacks for Stop {
    fn terminate(&mut self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.below.as_ref().is_some_and(|(c, t)| c.score() < *t)
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// A first, narrower question asked before the whole formula: is there a line reaching the
/// target that ends the game `turns` turns before the horizon ([`encode::horizon`])?
///
/// The horizon leaves room for every clue the tokens could ever pay for, but a line that
/// reaches the target rarely gives them all, and with the game's end brought forward the
/// solver finds such a line far sooner. The question is asked of the same solver under an
/// assumption, so what it learns serves the whole formula next; a model is a line like any
/// other, replayed through the rules, and "no such short line" proves nothing and only
/// leads on to the whole formula. On the perfect-score formulas of the 89 hardest 6-player
/// Black seeds of the 2 s row (two solved at once on a 2-core machine), 61 of the winnable
/// ones were settled within 2 s this way, 45 by the whole formula alone; the lost ones took
/// about a quarter longer (32 s in all, 25 s before).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShortFirst {
    /// How many turns before the horizon the short line must end the game.
    pub turns: usize,
    /// The conflicts the short question may take before the whole formula is asked.
    pub conflicts: i32,
}

impl ShortFirst {
    /// Four turns short, for at most 30,000 conflicts (a second or so on the formulas above):
    /// three and four turns gave the most settled within 2 s (61 winnable ones each), eight
    /// then four fewer (52), and the conflict limit keeps a short question that has no quick
    /// answer from holding up the whole one (10,000 settled 57).
    pub const DEFAULT: ShortFirst = ShortFirst {
        turns: 4,
        conflicts: 30_000,
    };
}

/// Whether `cnf` is satisfiable, asked once of a fresh solver configured for what `expect`s,
/// until `stop` (`None` where it stopped first). For the formulas of relaxed games
/// ([`draws::DrawEncoding::free_clues`]), whose models are not lines of the real game: there
/// is no line to read back and replay, so the answer rests on the formula's tests.
pub fn satisfiable(cnf: &Cnf, expect: Expect, stop: Stop) -> Option<bool> {
    let mut solver = solver_of(cnf, expect);
    if let Some(conflicts) = stop.conflicts {
        limit_conflicts(&mut solver, conflicts);
    }
    solver.set_callbacks(Some(stop));
    solver.solve()
}

/// A fresh solver configured for what `expect`s, holding `cnf`.
fn solver_of(cnf: &Cnf, expect: Expect) -> cadical::Solver<Stop> {
    let mut solver: cadical::Solver<Stop> =
        cadical::Solver::with_config(expect.config()).expect("CaDiCaL has this configuration");
    for clause in cnf.clauses() {
        solver.add_clause(clause.iter().copied());
    }
    solver
}

/// At most `conflicts` conflicts for the solver's next question (CaDiCaL resets its limits
/// after each).
fn limit_conflicts(solver: &mut cadical::Solver<Stop>, conflicts: i32) {
    solver
        .set_limit("conflicts", conflicts)
        .expect("CaDiCaL has a conflict limit");
}

/// Whether some line from `state` ends the game with a score of at least `target`, by the SAT
/// solver ([`Decision::Reached`] then holds the line): a formula of its own, asked once.
pub fn reach(deal: &Deal, state: &State, target: u8, stop: Stop) -> Result<Decision, SatError> {
    reach_by(deal, state, target, stop, false)
}

/// [`reach`] with the per-draw formula ([`draws`]) where `by_draws` asks for it and it
/// applies, expecting a refutation as `solve`'s race does ([`Expect`]), and otherwise the
/// per-turn one ([`encode`]).
pub fn reach_by(
    deal: &Deal,
    state: &State,
    target: u8,
    stop: Stop,
    by_draws: bool,
) -> Result<Decision, SatError> {
    encode::applies(deal, state).map_err(SatError::NotModelled)?;
    let formula = Formula::for_scores(deal, state, target..=target, by_draws);
    let expect = match formula {
        Formula::Draws(_) => Expect::Refutation,
        Formula::Turns(_) => Expect::Either,
    };
    Ladder::new(formula, Some(ShortFirst::DEFAULT), expect).ask(deal, state, target, stop)
}

/// A formula in a solver, asked for one target score after another.
///
/// The per-turn formula ([`Encoding::for_scores`]) asks for each score above its lowest under
/// an assumption, so once the solver has refuted the perfect score it can be asked for one
/// point less and keep what it learned: why the clues run short, which cards cannot all be
/// saved. The next question then starts from that, not from nothing. On the 20 5- and
/// 6-player Black seeds the 2 s rows left open with the perfect score refuted (two at once,
/// this machine), the best line after the refutation took 0.31 s where a fresh formula took
/// 1.01 s (p5v2s2727), 0.22 s against 1.00 s (p6v2s808), 1.11 s against 2.22 s (p6v2s8608),
/// and the perfect score, asked of the lower formula, about as long as of its own. Asked of
/// the perfect score's own formula, the questions do not change: the batch asks for a lower
/// score outright only where the search's line leaves it open ([`crate::portfolio`]).
pub struct Ladder {
    formula: Formula,
    solver: cadical::Solver<Stop>,
    short_first: Option<ShortFirst>,
}

impl Ladder {
    /// `formula` in a fresh solver configured for what `expect`s, each question asked first
    /// for a short line where `short_first` says so and the formula has one.
    pub fn new(formula: Formula, short_first: Option<ShortFirst>, expect: Expect) -> Ladder {
        let solver = solver_of(formula.cnf(), expect);
        Ladder {
            formula,
            solver,
            short_first,
        }
    }

    /// Whether the ladder can be asked for `target`.
    pub fn asks_for(&self, rules: &Rules, target: u8) -> bool {
        self.formula.asks(rules, target).is_some()
    }

    /// Whether some line from `state` (the position the formula was made for) ends the game
    /// with at least `target`, which the formula must ask for ([`Ladder::asks_for`]): first,
    /// where the short question applies, for a line ending it early, then for any line. The
    /// line of a model is checked against the rules. Asking for a score the formula does not
    /// ask for is a fault of the caller, and panics.
    pub fn ask(
        &mut self,
        deal: &Deal,
        state: &State,
        target: u8,
        stop: Stop,
    ) -> Result<Decision, SatError> {
        let rules = &deal.rules;
        let assume = self
            .formula
            .asks(rules, target)
            .expect("the formula asks for this score");
        let solver = &mut self.solver;
        let most_conflicts = stop.conflicts;
        solver.set_callbacks(Some(stop));
        let short = self.short_first.and_then(|s| {
            let lit = self.formula.ends_short(rules, target, s.turns)?;
            Some((lit, s.conflicts))
        });
        let found_short = short.is_some_and(|(ends_short, conflicts)| {
            limit_conflicts(solver, conflicts);
            solver.solve_with(assume.into_iter().chain([ends_short])) == Some(true)
        });
        // Otherwise (no short line, or out of conflicts) the whole formula decides.
        let answer = if found_short {
            Some(true)
        } else {
            if let Some(conflicts) = most_conflicts {
                limit_conflicts(solver, conflicts);
            }
            solver.solve_with(assume)
        };
        match answer {
            None => Ok(Decision::Open),
            Some(false) => Ok(Decision::Unreachable),
            Some(true) => {
                let line = self
                    .formula
                    .line(deal, state, |l| solver.value(l) == Some(true));
                check_line(deal, state, target, &line)?;
                Ok(Decision::Reached(line))
            }
        }
    }
}

/// Replays `line` from `state` and checks that it ends the game with at least `target`.
pub(crate) fn check_line(
    deal: &Deal,
    state: &State,
    target: u8,
    line: &[Action],
) -> Result<(), SatError> {
    let rules = &deal.rules;
    let s = final_state(deal, state, line).map_err(SatError::BadLine)?;
    if !s.is_over() {
        Err(SatError::BadLine("the game is not over after it".into()))
    } else if s.score(rules) < target {
        Err(SatError::BadLine(format!(
            "it ends at {} where {target} was asked",
            s.score(rules)
        )))
    } else {
        Ok(())
    }
}
