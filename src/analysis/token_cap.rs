//! Whether a deal lost for its clue tokens is lost to their cap alone, and the loss reasons
//! the search leaves untold, by the SAT solver.
//!
//! A deal lost "for clue tokens" could be won if every clue were free (the relaxed game), so
//! what the tokens lack is either their number or their timing. The cap decides the timing:
//! the team never holds more than the maximum (8 unless `--clues` says otherwise), a discard
//! is not allowed at the maximum (in most variants) and a stack finished then gains nothing,
//! so tokens that come while the team is full cannot be saved for the clues needed later.
//! The same deal with a maximum no line can reach tells the two apart: where that deal can be
//! won, the cap alone loses the real one. (On the 6-player Black seeds the 2 s row proves
//! lost, these are the slow refutations: every one took the row over half a second, against
//! 27 of the 878 lost otherwise; see the README.)

use std::time::Instant;

use crate::sat::draws::DrawEncoding;
use crate::sat::{self, Decision, Expect, SatError, Stop};
use crate::search::dfs::{pool_applies, relaxation_applies};
use crate::search::reason::{loss_reason_told, LossReason, REASON_NODES};
use crate::state::{Deal, State};

/// Conflicts the SAT solver may take to tell whether the deal can be won without the cap
/// (the per-draw formula asks no short question first, so this is all it takes): a limit,
/// not a deadline, so that a batch's reasons are the same on every machine. On the 6-player
/// Black seeds lost only to the cap the question mostly takes 0.01 to 2 s (p6v2s4123: 7 s, the
/// formula with the cap lifted being large whatever the limit). Where it cannot tell, the
/// whole limit is spent: on the 82 deals of the tables' rows lost for their clue tokens or to
/// the cap, every reason is the same at 50,000 conflicts as at 200,000, where the reasons took
/// 65 s in all instead of 101 s (p5v2s6968, clue tokens, 5.8 s instead of 20 s); at 20,000,
/// three deals lost to the cap (p6v2s3465, 4123 and 7157) read as lost for clue tokens.
pub const TOKEN_CAP_CONFLICTS: i32 = 50_000;

/// `deal` with the cap on clue tokens lifted: a maximum above every count of tokens a line
/// from `state` can hold (the tokens now, plus a discard's gain for every card left in the
/// pile and the hands and a finished stack's for every suit), so that no gain is ever lost to
/// it and no discard refused. `None` where such a maximum does not fit the count's type.
/// For the SAT solver only: the search's table keys hold at most 31 tokens
/// ([`crate::search::key`]), which this maximum exceeds on most deals.
pub fn without_token_cap(deal: &Deal, state: &State) -> Option<Deal> {
    let rules = &deal.rules;
    let tokens = rules.tokens();
    let cards = deal.pile_left(state) as u32
        + (0..rules.players as usize)
            .map(|p| state.hand(p).len() as u32)
            .sum::<u32>();
    let most = u32::from(state.clues)
        + u32::from(tokens.discard_gain) * cards
        + u32::from(tokens.stack_gain) * rules.variant.suits.len() as u32;
    let max_clues = u8::try_from(most + 1).ok()?;
    let mut uncapped = deal.clone();
    uncapped.rules.max_clues = uncapped.rules.max_clues.max(max_clues);
    Some(uncapped)
}

/// Whether some line from `state` reaches the perfect score once the cap on clue tokens is
/// lifted ([`without_token_cap`]): `Some(true)` where the solver found one (its line checked
/// against the uncapped deal's rules); `Some(false)` where none does; `None` where the SAT
/// formula does not model the rules, the maximum does not fit, or the solver did not tell
/// within [`TOKEN_CAP_CONFLICTS`] or before `deadline`. The question is the per-draw
/// formula's where it applies ([`sat::reach_by`]): on these deals it answers sooner.
pub fn winnable_without_token_cap(
    deal: &Deal,
    state: &State,
    deadline: Option<Instant>,
) -> Result<Option<bool>, SatError> {
    let Some(uncapped) = without_token_cap(deal, state) else {
        return Ok(None);
    };
    if sat::encode::applies(&uncapped, state).is_err() {
        return Ok(None);
    }
    let perfect = deal.rules.perfect_score();
    Ok(
        match sat::reach_by(&uncapped, state, perfect, limited(deadline), true)? {
            Decision::Reached(_) => Some(true),
            Decision::Unreachable => Some(false),
            Decision::Open => None,
        },
    )
}

/// Whether some line of the relaxed game (clues free, [`DrawEncoding::free_clues`]) from
/// `state` reaches the perfect score: `None` where the formula does not model the rules
/// (or in endless mode), or the solver did not tell within [`TOKEN_CAP_CONFLICTS`] or before
/// `deadline`.
pub fn winnable_with_free_clues(
    deal: &Deal,
    state: &State,
    deadline: Option<Instant>,
) -> Option<bool> {
    if sat::encode::applies(deal, state).is_err() || !DrawEncoding::models(deal) {
        return None;
    }
    let formula = DrawEncoding::free_clues(deal, state, deal.rules.perfect_score());
    sat::satisfiable(&formula.cnf, Expect::Refutation, limited(deadline))
}

/// When a question of this module gives up: after [`TOKEN_CAP_CONFLICTS`], or at `deadline`.
fn limited(deadline: Option<Instant>) -> Stop {
    Stop {
        deadline,
        conflicts: Some(TOKEN_CAP_CONFLICTS),
        ..Stop::default()
    }
}

/// Why the perfect score is out of reach from `state`, which must be proven: the search's
/// reason ([`loss_reason_told`], within its usual node limit and `deadline`), told apart by
/// [`refined_by_sat`]. Whether the relaxed game reaches the perfect score, the search's last
/// and slowest question, is asked of the relaxed game's formula first
/// ([`winnable_with_free_clues`]), and of the search only where the formula does not tell.
/// The two are exact models of the same game, so the reason is the one the search would
/// give, or a finer one where the search would stop at its node limit. This is where a
/// batch's worker spent most of its time outside the seeds' solving: on the 5- and 6-player
/// Black seeds lost for their hands or their tokens, the search took 3 to 4 s of its node
/// limit and mostly stopped undecided, where the formula answers in about 0.01 s.
pub fn loss_reason(
    deal: &Deal,
    state: &State,
    deadline: Option<Instant>,
) -> Result<Option<LossReason>, SatError> {
    // The formula's answer, once asked: `refine` does not ask it again.
    let mut free_clues = None;
    let reason = loss_reason_told(deal, state, REASON_NODES, deadline, || {
        *free_clues.insert(winnable_with_free_clues(deal, state, deadline))
    });
    refine(deal, state, reason, deadline, free_clues)
}

/// The search's loss reason `reason` for `state` (which must be proven not winnable), told
/// apart by the SAT solver where it can:
/// - a deal the solver finds winnable once the cap is lifted is lost to the cap
///   ([`LossReason::TokenCap`]). That is asked where the search found the deal lost for its
///   clue tokens, and where it could not tell (`None`: its pool or relaxed game stopped at the
///   node limit, or does not apply), outside endless mode: a deal winnable without the cap is
///   winnable with free clues too, and the bounds the search tests first do not count tokens,
///   so no coarser reason holds;
/// - where the search could not tell and the relaxed game applies, its formula
///   ([`winnable_with_free_clues`]) tells "clue tokens" (winnable with free clues) from
///   "hands" (lost even so), the latter only where the pool game, the coarser relaxation,
///   does not apply.
///
/// The error is a fault of the SAT encoding (a line that does not win).
pub fn refined_by_sat(
    deal: &Deal,
    state: &State,
    reason: Option<LossReason>,
    deadline: Option<Instant>,
) -> Result<Option<LossReason>, SatError> {
    refine(deal, state, reason, deadline, None)
}

/// [`refined_by_sat`], where `free_clues` is the relaxed game's formula's answer
/// ([`winnable_with_free_clues`]) if it was asked already: it is not asked twice.
fn refine(
    deal: &Deal,
    state: &State,
    reason: Option<LossReason>,
    deadline: Option<Instant>,
    free_clues: Option<Option<bool>>,
) -> Result<Option<LossReason>, SatError> {
    let may_be_the_cap = match reason {
        Some(LossReason::ClueTokens) => true,
        None => !state.is_over() && !deal.rules.endless,
        Some(_) => false,
    };
    if may_be_the_cap && winnable_without_token_cap(deal, state, deadline)? == Some(true) {
        return Ok(Some(LossReason::TokenCap));
    }
    if reason.is_none() && may_be_the_cap && relaxation_applies(deal, state) {
        // The search's relaxed game did not tell: the relaxed game's formula may. Lost there is
        // "hands" only where the pool game, the coarser relaxation, does not apply.
        let free_clues =
            free_clues.unwrap_or_else(|| winnable_with_free_clues(deal, state, deadline));
        return Ok(match free_clues {
            Some(true) => Some(LossReason::ClueTokens),
            Some(false) if !pool_applies(deal, state) => Some(LossReason::Hands),
            _ => None,
        });
    }
    Ok(reason)
}
