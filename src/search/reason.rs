//! Why a deal cannot reach the perfect score, as far as the solver can tell.
//!
//! The search proves a deal unwinnable without saying why. The reason given here is the first
//! of a series of ever finer relaxations that already rules the perfect score out: a deal
//! that fails a coarse test fails for that reason whatever the players do. Every test is one
//! the solver itself relies on, so each reason is proven, not guessed.

use super::bounds::{upper_bound, BoundSet};
use super::dfs::{relaxation_applies, Answer};
use super::root::ask_relaxed;
use crate::state::{Deal, State};
use std::time::Instant;

/// The first relaxation that rules the perfect score out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LossReason {
    /// Every copy of a card the fireworks still need is already gone (discarded or misplayed):
    /// the most they can reach is below the perfect score whatever is played.
    LostCard,
    /// A card comes out of the pile too late to be played in time (or a firework's cards
    /// come in an order that cannot all be played before the game ends).
    LateCard,
    /// At some point the hands cannot hold every card that must be kept for later.
    FullHands,
    /// Too many cards become playable too late to be played one a turn.
    LatePlays,
    /// Even with unlimited clue tokens and the hands as one shared hand (the pool game), the
    /// cards cannot all be kept and played in time.
    SharedHand,
    /// Even with unlimited clue tokens (any player may act at any time), the cards cannot
    /// all be played from the hands they land in; where the pool game applies, one shared
    /// hand would have done.
    Hands,
    /// Winnable with unlimited clue tokens, but not with the real ones: the players run out
    /// of clues to stall with while they wait for the right cards. Where a clue can be
    /// impossible with tokens left (a hand of Null cards; in Alternating Clues, a hand that
    /// only the type just used touches), that counts here too. Deals shown to be lost to the
    /// tokens' cap alone count apart ([`LossReason::TokenCap`]).
    ClueTokens,
    /// Winnable if the team could hold any number of tokens, but not with the maximum (8 by
    /// default): the tokens come when the team is full and cannot be saved for the clues
    /// needed later. The search never tells this one; the analysis asks the SAT solver about
    /// the clue-token losses ([`crate::analysis::token_cap`]).
    TokenCap,
}

impl LossReason {
    /// A short name, as written in batch files.
    pub fn name(self) -> &'static str {
        match self {
            LossReason::LostCard => "lost-card",
            LossReason::LateCard => "late-card",
            LossReason::FullHands => "full-hands",
            LossReason::LatePlays => "late-plays",
            LossReason::SharedHand => "shared-hand",
            LossReason::Hands => "hands",
            LossReason::ClueTokens => "clue-tokens",
            LossReason::TokenCap => "token-cap",
        }
    }

    /// The reason in words.
    pub fn describe(self) -> &'static str {
        match self {
            LossReason::LostCard => "every copy of a card still needed is gone",
            LossReason::LateCard => "a card comes out of the pile too late to be played",
            LossReason::FullHands => "the hands cannot hold every card that must be kept",
            LossReason::LatePlays => "too many cards become playable too late, one play a turn",
            LossReason::SharedHand => {
                "even with unlimited clues and one shared hand, the cards cannot all be kept and \
                 played in time"
            }
            LossReason::Hands => "even with unlimited clues, the cards are in the wrong hands",
            LossReason::ClueTokens => {
                "the clues run short: too few tokens, or no clue the rules allow (winnable if a \
                 clue were always free)"
            }
            LossReason::TokenCap => {
                "the tokens cannot be saved up: winnable if the team could hold more than the \
                 maximum"
            }
        }
    }

    /// Every reason, coarsest first.
    pub const ALL: [LossReason; 8] = [
        LossReason::LostCard,
        LossReason::LateCard,
        LossReason::FullHands,
        LossReason::LatePlays,
        LossReason::SharedHand,
        LossReason::Hands,
        LossReason::ClueTokens,
        LossReason::TokenCap,
    ];
}

/// Nodes the pool game, and then the relaxed game, may each take by default to tell a reason:
/// enough for nearly every deal, a fraction of a second.
pub const REASON_NODES: u64 = 2_000_000;

/// Why the perfect score cannot be reached from `state`, which the caller has proven. `None`
/// when the position is over, when the pool game or the relaxed game was not decided within
/// `node_limit` nodes, and in endless mode when neither a lost card nor the hands' capacity
/// tells (there the game has no end to be late for, and the relaxed games do not apply).
pub fn loss_reason(deal: &Deal, state: &State, node_limit: u64) -> Option<LossReason> {
    loss_reason_until(deal, state, node_limit, None)
}

/// [`loss_reason`], giving up (`None`) at `deadline`: a command's time limit covers it too.
pub fn loss_reason_until(
    deal: &Deal,
    state: &State,
    node_limit: u64,
    deadline: Option<Instant>,
) -> Option<LossReason> {
    loss_reason_told(deal, state, node_limit, deadline, || None)
}

/// [`loss_reason_until`], where `relaxed_told` may answer the last question, whether the
/// relaxed game reaches the perfect score, before the search asks it (`None`: it cannot
/// tell, and the search asks). It is asked only where the coarser tests have not told, so
/// an answer that costs more than they do costs nothing on the deals they settle. The
/// analysis answers it with the relaxed game's SAT formula
/// ([`crate::analysis::token_cap::winnable_with_free_clues`]), which on the 5- and 6-player
/// deals where that question is asked at all answers in a hundredth of a second where the
/// search spends seconds of its node limit and mostly stops undecided.
pub fn loss_reason_told(
    deal: &Deal,
    state: &State,
    node_limit: u64,
    deadline: Option<Instant>,
    relaxed_told: impl FnOnce() -> Option<bool>,
) -> Option<LossReason> {
    if state.is_over() {
        return None;
    }
    let perfect = deal.rules.perfect_score();
    // A card already gone rules the perfect score out before any question of time.
    if state.max_reachable_score(&deal.rules) < perfect {
        return Some(LossReason::LostCard);
    }
    // The seat rule is left to the relaxed game, which keeps the seats too: a deal it rules
    // out is lost for the hands its cards land in.
    let timing = BoundSet {
        capacity: false,
        schedule: false,
        seats: false,
        ..BoundSet::ALL
    };
    let capacity = BoundSet {
        capacity: true,
        ..timing
    };
    if deal.rules.endless {
        return (upper_bound(deal, state, capacity) < perfect).then_some(LossReason::FullHands);
    }
    for (set, reason) in [
        (timing, LossReason::LateCard),
        (capacity, LossReason::FullHands),
        (BoundSet::ALL.without_seats(), LossReason::LatePlays),
    ] {
        if upper_bound(deal, state, set) < perfect {
            return Some(reason);
        }
    }
    // Can the pool game (`true`) or the relaxed game reach the perfect score?
    let ask = |pool| {
        ask_relaxed(deal, state, pool, node_limit, deadline, |searcher, root| {
            searcher.reach(root, perfect)
        })
    };
    match ask(true) {
        Some(Answer::No) => return Some(LossReason::SharedHand),
        Some(Answer::Stopped) => return None,
        // The pool game reaches it (or does not apply): the finer relaxed game decides.
        Some(Answer::Yes) | None => {}
    }
    let told = relaxation_applies(deal, state).then(relaxed_told).flatten();
    let reaches = match told {
        Some(told) => told,
        None => match ask(false)? {
            Answer::No => false,
            Answer::Yes => true,
            Answer::Stopped => return None,
        },
    };
    Some(if reaches {
        LossReason::ClueTokens
    } else {
        LossReason::Hands
    })
}
