//! The question "can the game from this position end with at least k points?" as a formula.
//!
//! The formula has one block per turn up to a horizon no game from the position can outlast
//! ([`horizon`]). Each block says what the player to move does: plays or throws away (discards
//! or misplays) one card of their hand, gives a clue, or, once every firework is complete,
//! nothing. The state between turns is kept in counters written as "at least k" variables
//! (clue tokens, strikes, cards drawn, the height of each firework); a card is in a hand when it
//! was dealt there, or was drawn by that player (each pile card has an owner, the player whose
//! turn drew it) and not yet used. The game ends when every firework is complete or a round
//! after the last draw; the formula asks for a score of at least a target when it ends. It is
//! satisfiable exactly when some legal line reaches the target, and then its model is that line
//! ([`Encoding::line`]). In endless mode there is no final round: the game goes on, hands
//! shrinking, until every firework is complete, and anything less is a loss, so the formula
//! asks for the perfect score; a clue there also needs another player who still holds a card.
//!
//! Nothing is assumed about good play: every legal action of the rules' model is allowed,
//! misplays of any unplayable card included, so no argument about which lines can be left out is
//! needed for the answer to be exact. It covers the rule families where a card's place on its
//! stack is fixed and the token economy is a plain count ([`applies`]).

use std::ops::RangeInclusive;

use super::cnf::{Cnf, Lit};
use crate::game::card::Card;
use crate::game::rules::Rules;
use crate::state::{Action, Deal, State, NOT_FINAL};

/// Why a position is not encoded: a rule the formula does not model.
pub fn applies(deal: &Deal, state: &State) -> Result<(), &'static str> {
    let rules = &deal.rules;
    let v = &rules.variant;
    if state.is_over() {
        return Err("the game is over");
    }
    if v.play_order().ways_chosen_in_play() {
        return Err("the players choose which way a stack goes");
    }
    if rules.tokens().alternating {
        return Err("clue types must alternate");
    }
    if rules.deck_plays {
        return Err("the deck-plays option");
    }
    if !rules.endless && state.final_turns == NOT_FINAL && deal.pile_left(state) == 0 {
        return Err("no final round starts from an empty pile");
    }
    let blind = rules.clue_may_touch_nothing();
    if rules.endless {
        // Hands shrink to nothing: the formula says who still holds a card, which is all a
        // clue needs where every card can be clued.
        return if blind || v.every_card_clueable() {
            Ok(())
        } else {
            Err("a clue may be impossible with a token in hand")
        };
    }
    // A clue must always be possible when a token is: every other player then holds a card
    // that some clue touches. Hands keep their size until the pile is empty, and each player
    // moves at most once after that, so two cards in every hand keep one.
    let min_hand = (0..rules.players as usize)
        .map(|p| state.hand(p).len())
        .min()
        .unwrap_or(0);
    if !blind && (!v.every_card_clueable() || min_hand < 2) {
        return Err("a clue may be impossible with a token in hand");
    }
    Ok(())
}

/// The target the formula asks for: `target` itself, except in endless mode, where a game short
/// of the perfect score is lost, so any target above 0 asks for the perfect score.
fn asked(rules: &Rules, target: u8) -> u8 {
    if rules.endless && target > 0 {
        rules.perfect_score()
    } else {
        target
    }
}

/// The most turns any game from `state` can last that reaches the score `target`.
///
/// The pile has `n` cards left; until it is empty each turn either draws one (a play, discard
/// or misplay) or gives a clue, and after the last draw each player moves once more. Clues are
/// paid with the tokens held now and those gained since: a discard gains at most a discard's
/// worth, and a game reaching the target discards or misplays at most the cards it does not
/// play, and while drawing at most `n` of them and at most its pace ([`pace`]); a finished
/// stack gains at most a stack's worth. (Discards of the final round pay only for clues of the
/// final round, whose turns are counted already.) The token of the stack finished last pays for
/// nothing: finishing the last open stack ends the game, so at most one stack fewer than are
/// open gains a token that a clue can spend. In endless mode the game goes on until every
/// firework is complete: each turn plays one of the cards still needed, throws away one of
/// the others (every one of them may pay for a clue), or gives a clue.
pub fn horizon(deal: &Deal, state: &State, target: u8) -> usize {
    let rules = &deal.rules;
    if !rules.endless && state.final_turns != NOT_FINAL {
        return state.final_turns as usize;
    }
    let tokens = rules.tokens();
    let n = deal.pile_left(state) as usize;
    let players = rules.players as usize;
    let held: usize = (0..players).map(|p| state.hand(p).len()).sum();
    let to_play = asked(rules, target).saturating_sub(state.score(rules)) as usize;
    let spare = (held + n).saturating_sub(to_play);
    let order = rules.variant.play_order();
    let open_stacks = (0..rules.variant.suits.len())
        .filter(|&s| state.stacks[s].height() < order.stack_size())
        .count();
    // The throws that may pay for clues, and the turns that are not clues.
    let (discards, other_turns) = if rules.endless {
        (spare, to_play + spare)
    } else {
        // Discards while the pile lasts: at most the cards not played, the pile, and the pace.
        let pace = pace(deal, state, target).map_or(0, |p| p.max(0) as usize);
        (spare.min(n).min(pace), n + players)
    };
    let spent_stacks = open_stacks.saturating_sub(1);
    let gains = tokens.discard_gain as usize * discards + tokens.stack_gain as usize * spent_stacks;
    let clues = (state.clues as usize + gains) / tokens.clue_cost.max(1) as usize;
    other_turns + clues
}

/// The pace of `state` for the score `target`: the pile's cards plus one turn per player, less
/// the cards still to play. A game reaching the target throws away (discards or misplays) at
/// most this many cards while the pile lasts: if the pile runs out, the `n` turns that drew it
/// played all but the thrown cards and the final round plays at most one card per player; if
/// every firework is complete first, the draws so far played every card still needed.
/// Negative: no line reaches the target. `None` once the pile is empty, and in endless mode,
/// which has no final round to end the game.
pub fn pace(deal: &Deal, state: &State, target: u8) -> Option<isize> {
    let rules = &deal.rules;
    (!rules.endless && state.final_turns == NOT_FINAL).then(|| {
        deal.pile_left(state) as isize + rules.players as isize
            - target.saturating_sub(state.score(rules)) as isize
    })
}

/// Where a card that may still be used is now.
#[derive(Clone, Copy, Debug)]
pub(super) enum Origin {
    /// In this player's hand.
    Hand(usize),
    /// In the pile, with this many cards to be drawn before it.
    Pile(usize),
}

/// One card that may still be used: in a hand now, or in the pile.
#[derive(Clone, Copy, Debug)]
pub(super) struct Piece {
    pub(super) card: Card,
    pub(super) origin: Origin,
    /// The card's place on its stack (1 goes on an empty stack).
    pub(super) place: u8,
}

/// The cards of `state` that may still be used: every hand's, then the pile's, top first.
pub(super) fn pieces(deal: &Deal, state: &State) -> Vec<Piece> {
    let order = deal.rules.variant.play_order();
    let piece = |card: Card, origin| Piece {
        card,
        origin,
        place: order.place(card),
    };
    let hands = (0..deal.rules.players as usize)
        .flat_map(|p| state.hand(p).iter().map(move |&c| (c, Origin::Hand(p))));
    let pile = deal.pile[state.drawn as usize..]
        .iter()
        .enumerate()
        .map(|(r, &c)| (c, Origin::Pile(r)));
    hands.chain(pile).map(|(c, o)| piece(c, o)).collect()
}

/// What one turn of a model does, as variables.
#[derive(Clone, Debug, Default)]
struct Turn {
    /// `(piece, literal)`: the piece is played.
    play: Vec<(usize, Lit)>,
    /// `(piece, literal)`: the piece is discarded or misplayed.
    throw: Vec<(usize, Lit)>,
    /// A thrown piece is misplayed (a strike), not discarded.
    misplay: Lit,
    clue: Lit,
    /// The game is already over (every firework complete, or the final round played): the
    /// turn does nothing.
    idle: Lit,
}

/// The formula for one position, with what is needed to read a line back from a model.
///
/// It asks for its lowest target score outright, and for each higher score under an
/// assumption ([`Encoding::asks`]): one solver can then be asked for the perfect score, and
/// once that is out of reach for one point less, keeping what it learned ([`super::Ladder`]).
pub struct Encoding {
    pub cnf: Cnf,
    pieces: Vec<Piece>,
    turns: Vec<Turn>,
    /// Every score the formula can be asked for, the lowest first.
    rungs: Vec<Rung>,
}

/// A score an [`Encoding`] can be asked for.
#[derive(Clone, Copy, Debug)]
struct Rung {
    score: u8,
    /// Assumed, it asks for the score; `None` for the lowest, which the formula asks outright.
    assume: Option<Lit>,
    /// The game's most turns with this score reached ([`horizon`]), for the short question.
    horizon: usize,
}

/// The rungs of a formula asking for `scores` (each as [`asked`] maps it): the lowest, then
/// each score above it up to the highest with a fresh assumption.
fn rungs(cnf: &mut Cnf, deal: &Deal, state: &State, scores: RangeInclusive<u8>) -> Vec<Rung> {
    let lowest = asked(&deal.rules, *scores.start());
    let above = lowest + 1..=asked(&deal.rules, *scores.end());
    let mut rungs = vec![Rung {
        score: lowest,
        assume: None,
        horizon: horizon(deal, state, lowest),
    }];
    rungs.extend(above.map(|score| Rung {
        score,
        assume: Some(cnf.var()),
        horizon: horizon(deal, state, score),
    }));
    rungs
}

/// For each of `higher` (rungs above the lowest), its pace under its assumption: a throw
/// `counted` against the pace is not one too many (`thrown_so_far` counts those before it).
fn pace_when(
    cnf: &mut Cnf,
    deal: &Deal,
    state: &State,
    higher: &[Rung],
    counted: Lit,
    thrown_so_far: &Counter,
) {
    for rung in higher {
        let pace = pace(deal, state, rung.score).unwrap_or(0);
        let assume = rung.assume.unwrap_or(Cnf::TRUE);
        cnf.clause(&[-assume, -counted, -thrown_so_far.at_least(pace)]);
    }
}

/// For each of `higher` (rungs above the lowest), under its assumption: at least its score of
/// `points`, and with `implied` its own implied constraints (no piece precious for it thrown,
/// and nothing where its pace is already negative).
fn ask_when(
    cnf: &mut Cnf,
    deal: &Deal,
    state: &State,
    higher: &[Rung],
    points: &[Lit],
    (pieces, throws_of): (&[Piece], &[Vec<Lit>]),
    implied: bool,
) {
    let rules = &deal.rules;
    let size = rules.variant.play_order().stack_size() as usize;
    for rung in higher {
        let assume = rung.assume.unwrap_or(Cnf::TRUE);
        cnf.at_least_when(assume, points, rung.score as usize);
        if !implied {
            continue;
        }
        let spare = rules.perfect_score().saturating_sub(rung.score) as usize;
        for (i, &p) in precious(pieces, state, size, spare).iter().enumerate() {
            for &throw in throws_of[i].iter().filter(|_| p) {
                cnf.clause(&[-assume, -throw]);
            }
        }
        if pace(deal, state, rung.score).is_some_and(|p| p < 0) {
            cnf.clause(&[-assume]);
        }
    }
}

/// The per-turn formula counts the plays left (`plays_fit_the_uses_left`) before every this
/// many turns. Resolution finds such counting hard (it is pigeonhole-like): a line that falls
/// behind, with a few stacks each held back by a card drawn late, is otherwise refuted only
/// turns later, one way of catching up at a time. Counted, the hard 6-player Black questions
/// settle far sooner: of the seven perfect-score questions a 2 s row left open that stayed
/// open for 6 s without it (one at a time, this machine), five settled within 1.5 s with it
/// (p6v2s6565 lost in 0.06 s, p6v2s101 won in 0.2 to 0.9 s). Every third turn does better
/// than every turn, with a third of the added clauses (the totaliser of the points, summed
/// one stack after another, and the count took about 1,300 clauses a turn where the count can
/// bite; before every turn they doubled a 6-player Black formula of 74,000 clauses). On 34
/// hard 5- and 6-player Black questions (8 lost, 10 won, 16 below the perfect score; 6 s each),
/// every third turn took 12 s, 18 s and 29 to 33 s in all, every turn 15 s, 20 to 24 s and 32
/// to 39 s, every second turn 16 s, 22 s and 32 s, and no count 20 to 24 s, 23 to 27 s and 46
/// to 51 s. The cheaper totaliser of `points` did not change that: on the 160 hardest
/// 6-player Black seeds of a 2 s row (2 s each, two at once), counting every turn left 36
/// undecided, every second turn 27, every fourth 21, every third 15 to 17 in the same hour
/// (15 to 25 in five runs).
pub const COUNT_EVERY: usize = 3;

/// The fewest points the fireworks must hold once `drawn` more pile cards are drawn, for the game
/// to end with `target`: one play at most per use of a card, and after that draw only the
/// `n - drawn` uses that draw the rest of the pile and the final round's one turn a player are
/// left (clues play nothing). At most the score now where it asks nothing.
pub(super) fn points_needed(deal: &Deal, state: &State, target: u8, drawn: isize) -> isize {
    let n = deal.pile_left(state) as isize;
    target as isize - (n - drawn) - deal.rules.players as isize
}

/// The points the stacks' `heights` add up to, as half a totaliser: "at least k points" only
/// where the heights allow it (for each way of splitting k - 1 between two parts, one of them
/// is above its share), the direction a lower bound on the points needs. The solver then
/// counts: a few stacks each held back by a card drawn late cap the points at once, where the
/// heights alone leave it to find that no turn can play two cards.
///
/// Counts above `most` are never asked for, so none is made, and the stacks are added in
/// pairs, a balanced tree, each split of a count made once: a 6-player Black perfect-score
/// formula (p6v2s509) has 82,000 clauses, where summing the stacks one after another up to
/// the perfect score made 98,000. The solver is a little quicker for it, by less than the
/// noise of whole rows: on the 160 hardest 6-player Black seeds of a 2 s row (2 s each, two
/// at once, run alternately with the fold) 17, 15, 17, 21 and 25 were left undecided against
/// 17, 21, 22, 20, 27 and 22 (the last runs on a busier machine), on the 122 hardest 5-player
/// ones 8 and 8 (11 in a run beside a build) against 10, 9 and 10.
pub(super) fn points(cnf: &mut Cnf, heights: &[Counter], most: usize) -> Counter {
    let mut level: Vec<Counter> = heights.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| match pair {
                [a, b] => a.plus_at_most(cnf, b, most),
                [a] => a.clone(),
                _ => unreachable!("chunks of two"),
            })
            .collect();
    }
    level.pop().expect("at least one stack")
}

/// [`points_needed`] for the per-turn formula, before a turn, for each score it `asks` for under
/// its assumption ([`Cnf::TRUE`] for the one asked outright): for each count `d` of cards drawn
/// so far, at least `d` drawn means at least the points needed then.
fn plays_fit_the_uses_left(
    cnf: &mut Cnf,
    deal: &Deal,
    state: &State,
    asks: &[(u8, Lit)],
    before: &Before,
    t: usize,
) {
    let score = state.score(&deal.rules) as isize;
    let top = asks.iter().map(|&(t, _)| t).max().unwrap_or(0);
    // No more cards are drawn before turn t than t.
    let most_drawn = (before.drawn.max() as isize).min(t as isize);
    // The most points any of the scores asks for before this turn.
    let most = points_needed(deal, state, top, most_drawn);
    if most <= score {
        return;
    }
    let points = points(cnf, &before.heights, most as usize);
    for &(target, assume) in asks {
        for d in 1..=most_drawn {
            let least = points_needed(deal, state, target, d);
            if least > score {
                cnf.clause(&[-assume, -before.drawn.at_least(d), points.at_least(least)]);
            }
        }
    }
}

/// Counters in the "at least k" (order) encoding: `at_least(k)` for any k, constant outside
/// the variables' range.
#[derive(Clone)]
pub(super) struct Counter {
    /// `lits[k - 1]` is "at least k", for k in `1..=lits.len()`.
    lits: Vec<Lit>,
}

impl Counter {
    /// A counter fixed at `value`, with room up to `max`.
    pub(super) fn fixed(value: usize, max: usize) -> Counter {
        Counter {
            lits: (1..=max).map(|k| Cnf::constant(k <= value)).collect(),
        }
    }

    /// A counter of fresh variables up to `max`, kept ordered ("at least k+1" implies "at least
    /// k").
    pub(super) fn fresh(cnf: &mut Cnf, max: usize) -> Counter {
        let lits: Vec<Lit> = (0..max).map(|_| cnf.var()).collect();
        for w in lits.windows(2) {
            cnf.clause(&[-w[1], w[0]]);
        }
        Counter { lits }
    }

    pub(super) fn at_least(&self, k: isize) -> Lit {
        if k <= 0 {
            Cnf::TRUE
        } else {
            self.lits.get(k as usize - 1).copied().unwrap_or(Cnf::FALSE)
        }
    }

    /// A counter that is at least k only where this one and `other` add up to k, for k up to
    /// `most`: fresh variables with "at least k" implying, for each way of splitting k - 1
    /// into i + j within the two counters' ranges, this at least i + 1 or `other` at least
    /// j + 1 (half a totaliser: nothing forces it up). Above `most` it claims nothing.
    pub(super) fn plus_at_most(&self, cnf: &mut Cnf, other: &Counter, most: usize) -> Counter {
        let sum = Counter::fresh(cnf, (self.max() + other.max()).min(most));
        let (a, b) = (self.max() as isize, other.max() as isize);
        for k in 1..=sum.max() as isize {
            for i in (k - 1 - b).max(0)..=(k - 1).min(a) {
                let j = k - 1 - i;
                cnf.clause(&[
                    -sum.at_least(k),
                    self.at_least(i + 1),
                    other.at_least(j + 1),
                ]);
            }
        }
        sum
    }

    /// The "at least k" literals, for k from 1.
    pub(super) fn lits(&self) -> &[Lit] {
        &self.lits
    }

    pub(super) fn max(&self) -> usize {
        self.lits.len()
    }

    /// The counter one more than this one (up to its `max`) where `when` holds, the same
    /// otherwise: a fresh counter with the two steps.
    pub(super) fn plus_one_when(&self, cnf: &mut Cnf, when: Lit) -> Counter {
        let next = Counter::fresh(cnf, self.max());
        self.step(cnf, &[when], &next, 1);
        self.step(cnf, &[-when], &next, 0);
        next
    }

    /// `next` is this counter moved by `delta` (clamped to `0..=max`) wherever every literal
    /// of `when` holds: "next is at least k" is "this is at least k - delta", which the
    /// constants outside the range clamp.
    pub(super) fn step(&self, cnf: &mut Cnf, when: &[Lit], next: &Counter, delta: isize) {
        for k in 1..=next.max() as isize {
            cnf.equal_when(when, next.at_least(k), self.at_least(k - delta));
        }
    }
}

impl Encoding {
    /// The formula for `state` (which [`applies`] must accept): satisfiable exactly when some
    /// line from it ends the game with a score of at least `target`.
    pub fn new(deal: &Deal, state: &State, target: u8, implied: bool) -> Encoding {
        Encoding::for_scores(deal, state, target..=target, implied)
    }

    /// [`Encoding::new`] with the implied constraints and the count of the plays left
    /// (`points_needed`), for a refutation: it settles in milliseconds the bounds the search
    /// proves by counting (too many cards playable too late, one play a turn), which the
    /// formula without it leaves the solver seconds or minutes to find.
    /// Certificates count before every turn, not every [`COUNT_EVERY`]: their figures were
    /// measured so.
    pub fn counted(deal: &Deal, state: &State, target: u8) -> Encoding {
        Encoding::build(deal, state, target..=target, true, 1)
    }

    /// The formula for `state` asking for the lowest of `scores` outright, and for each score
    /// above it under its assumption ([`Encoding::asks`]). The game's turns are those of the
    /// lowest score, the most any of them needs ([`horizon`]); each higher score adds its own
    /// count of points and its own implied constraints, each under its assumption.
    ///
    /// `implied` adds constraints that follow from the others (the pace; a stack below a card
    /// whose every copy left is thrown away; the last copy of a missing card never thrown where
    /// that costs more points than the target leaves, for the perfect score every last copy):
    /// they change no answer, but they spare the solver from learning them. Among them is the
    /// count of the plays left, before every [`COUNT_EVERY`] turns (`plays_fit_the_uses_left`).
    /// Two more that follow for the perfect score are left out on purpose, because they slowed
    /// the solver: each missing card played by some copy (one long clause per card), and every
    /// firework complete within a round of the last draw. Without them, on the hard 4- to
    /// 6-player Black seeds' perfect-score questions (154 formulas), CaDiCaL took 15% to 27%
    /// less time in all and settled more of them within 2 s.
    pub fn for_scores(
        deal: &Deal,
        state: &State,
        scores: RangeInclusive<u8>,
        implied: bool,
    ) -> Encoding {
        Encoding::build(deal, state, scores, implied, COUNT_EVERY)
    }

    /// [`Encoding::for_scores`], with the count of the plays left before every `count_every`
    /// turns where `implied` holds ([`plays_fit_the_uses_left`]).
    fn build(
        deal: &Deal,
        state: &State,
        scores: RangeInclusive<u8>,
        implied: bool,
        count_every: usize,
    ) -> Encoding {
        let rules = &deal.rules;
        let target = asked(rules, *scores.start());
        let horizon = horizon(deal, state, target);
        let mut cnf = Cnf::new();
        // The scores above the lowest, each asked under its own assumption.
        let rungs = rungs(&mut cnf, deal, state, scores);
        let cards = Cards::new(&mut cnf, deal, state, target);
        let mut before = Before::start(&mut cnf, deal, state, &cards);
        // Throws (discards and misplays) while the pile lasts, at most the pace (see `pace`;
        // none once the pile is empty, and no limit in endless mode).
        let pace = pace(deal, state, target);
        if pace.is_some_and(|p| p < 0) {
            cnf.clause(&[]);
        }
        let pace = pace.filter(|_| implied).map(|p| p.max(0) as usize);
        let mut thrown_so_far = Counter::fixed(0, pace.unwrap_or(0));
        let blocks = Blocks {
            deal,
            state,
            cards: &cards,
            higher: &rungs[1..],
            implied,
            pace,
            // Every hand holds a card now, so each keeps its size while the pile lasts.
            hands_full_while_drawing: (0..rules.players as usize)
                .all(|p| !state.hand(p).is_empty()),
        };
        // Each piece's throw literals, one a turn it may be thrown.
        let mut throws_of: Vec<Vec<Lit>> = vec![Vec::new(); cards.pieces.len()];
        let mut turns = Vec::with_capacity(horizon);
        let counting = implied && !rules.endless && state.final_turns == NOT_FINAL;
        // Each score asked, with the assumption that asks for it.
        let asks: Vec<(u8, Lit)> = rungs
            .iter()
            .map(|r| (r.score, r.assume.unwrap_or(Cnf::TRUE)))
            .collect();
        for t in 0..horizon {
            if counting && t % count_every == 0 {
                plays_fit_the_uses_left(&mut cnf, deal, state, &asks, &before, t);
            }
            let turn = blocks.turn(&mut cnf, t, &mut before, &mut thrown_so_far, &mut throws_of);
            turns.push(turn);
        }

        // 7. The end: the target reached when the game is over (at the horizon at the latest).
        let points: Vec<Lit> = before
            .heights
            .iter()
            .flat_map(|h| (1..=h.max() as isize).map(|k| h.at_least(k)))
            .collect();
        cnf.at_least(&points, target as usize);
        let used_by = (&cards.pieces[..], &throws_of[..]);
        ask_when(
            &mut cnf,
            deal,
            state,
            blocks.higher,
            &points,
            used_by,
            implied,
        );
        if implied {
            stays_below_thrown(&mut cnf, &cards.pieces, state, &throws_of, &before.heights);
        }
        Encoding {
            cnf,
            pieces: cards.pieces,
            turns,
            rungs,
        }
    }

    /// The rung that asks for `target` (as [`asked`] maps it).
    fn rung(&self, rules: &Rules, target: u8) -> Option<&Rung> {
        let target = asked(rules, target);
        self.rungs.iter().find(|r| r.score == target)
    }

    /// The assumption that asks for `target`: `Some(None)` for the lowest score, which the
    /// formula asks outright; `None` where `target` is not one of its scores.
    pub fn asks(&self, rules: &Rules, target: u8) -> Option<Option<Lit>> {
        self.rung(rules, target).map(|r| r.assume)
    }

    /// The literal "the game is over `short` turns before the horizon of `target`" (every
    /// turn from there on does nothing), where that horizon leaves a turn before it; `None`
    /// otherwise.
    pub fn ends_short(&self, rules: &Rules, target: u8, short: usize) -> Option<Lit> {
        let t = self
            .rung(rules, target)?
            .horizon
            .checked_sub(short)
            .filter(|&t| t > 0 && short > 0)?;
        Some(self.turns[t].idle)
    }

    /// The line a model gives (`value` reads a variable), as actions from the position: the
    /// turns until the game is won. Slots are found by card, so copies of a card are
    /// interchangeable; the caller replays the line through the rules to certify it.
    pub fn line(&self, deal: &Deal, state: &State, value: impl Fn(Lit) -> bool) -> Vec<Action> {
        let mut line = Vec::new();
        let mut s = *state;
        for turn in &self.turns {
            if value(turn.idle) || s.is_over() {
                break;
            }
            let pick = |list: &[(usize, Lit)]| list.iter().find(|&&(_, l)| value(l)).map(|p| p.0);
            let slot = |i: usize| {
                let card = self.pieces[i].card;
                s.hand(s.turn as usize)
                    .iter()
                    .position(|&c| c == card)
                    .map_or(u8::MAX, |x| x as u8)
            };
            let action = if let Some(i) = pick(&turn.play) {
                Action::Play(slot(i))
            } else if let Some(i) = pick(&turn.throw) {
                if value(turn.misplay) {
                    Action::Play(slot(i))
                } else {
                    Action::Discard(slot(i))
                }
            } else {
                Action::Clue
            };
            line.push(action);
            match s.apply(deal, action) {
                Ok(next) => s = next,
                Err(_) => break,
            }
        }
        line
    }
}

/// What the per-turn formula knows of the cards: the pieces, each pile card's owner, and the
/// pieces never thrown where the implied constraints are asked for.
struct Cards {
    pieces: Vec<Piece>,
    /// Each pile card's owner, one literal a seat: the player whose turn draws it (empty for
    /// a card in a hand).
    owner: Vec<Vec<Lit>>,
    /// The pieces that are the last copy of a card still needed, and cost more points than
    /// the target leaves to lose if thrown (its stack then ends below it, short of the
    /// stack's size by at least `size - place + 1`): with `implied`, none is thrown. For the
    /// perfect score that is every last copy.
    precious: Vec<bool>,
}

impl Cards {
    fn new(cnf: &mut Cnf, deal: &Deal, state: &State, target: u8) -> Cards {
        let rules = &deal.rules;
        let pieces = pieces(deal, state);
        let owner = pieces
            .iter()
            .map(|piece| match piece.origin {
                Origin::Pile(_) => {
                    let lits: Vec<Lit> = (0..rules.players).map(|_| cnf.var()).collect();
                    cnf.exactly_one(&lits);
                    lits
                }
                Origin::Hand(_) => Vec::new(),
            })
            .collect();
        // The points the target leaves to lose: a line reaching it never throws a card that
        // would cost more.
        let spare_points = rules.perfect_score().saturating_sub(target) as usize;
        let size = rules.variant.play_order().stack_size() as usize;
        let precious = precious(&pieces, state, size, spare_points);
        Cards {
            pieces,
            owner,
            precious,
        }
    }
}

/// The game before a turn, as the formula's counters and literals.
struct Before {
    clues: Counter,
    strikes: Counter,
    drawn: Counter,
    heights: Vec<Counter>,
    /// Each piece used (played or thrown) before the turn.
    used: Vec<Lit>,
    /// The game is over before the turn.
    over: Lit,
    /// `empty[b]`: the pile is empty before turn b, for every turn so far and this one.
    empty: Vec<Lit>,
}

impl Before {
    /// The position itself, before turn 0.
    fn start(cnf: &mut Cnf, deal: &Deal, state: &State, cards: &Cards) -> Before {
        let rules = &deal.rules;
        let size = rules.variant.play_order().stack_size() as usize;
        let drawn = Counter::fixed(0, deal.pile_left(state) as usize);
        let heights: Vec<Counter> = (0..rules.variant.suits.len())
            .map(|s| Counter::fixed(state.stacks[s].height() as usize, size))
            .collect();
        let over = won_lit(cnf, &heights);
        let empty = vec![drawn.at_least(drawn.max() as isize)];
        Before {
            clues: Counter::fixed(state.clues as usize, rules.max_clues as usize),
            strikes: Counter::fixed(state.strikes as usize, rules.max_strikes as usize - 1),
            drawn,
            heights,
            used: vec![Cnf::FALSE; cards.pieces.len()],
            over,
            empty,
        }
    }
}

/// What every block of the per-turn formula shares.
struct Blocks<'a> {
    deal: &'a Deal,
    state: &'a State,
    cards: &'a Cards,
    /// The scores above the lowest, each asked under its assumption.
    higher: &'a [Rung],
    implied: bool,
    /// With `implied`, the most throws while the pile lasts (see [`pace`]).
    pace: Option<usize>,
    /// Every hand holds a card at the position, so each keeps its size while the pile lasts.
    hands_full_while_drawing: bool,
}

impl Blocks<'_> {
    /// The block of turn `t`, moving `before` (and the throws counted against the pace) on to
    /// the next turn.
    fn turn(
        &self,
        cnf: &mut Cnf,
        t: usize,
        before: &mut Before,
        thrown_so_far: &mut Counter,
        throws_of: &mut [Vec<Lit>],
    ) -> Turn {
        let rules = &self.deal.rules;
        let players = rules.players as usize;
        let size = rules.variant.play_order().stack_size() as usize;
        let mover = (self.state.turn as usize + t) % players;
        let mut turn = Turn {
            misplay: cnf.var(),
            clue: cnf.var(),
            idle: before.over,
            ..Turn::default()
        };
        // 0. A clue needs another player holding a card, unless a clue may touch nothing
        //    (outside endless mode [`applies`] has made sure one always does).
        if rules.endless && !rules.clue_may_touch_nothing() {
            self.clue_needs_a_holder(cnf, before, &turn, mover, t);
        }
        // 1. The cards the mover may use, once each.
        self.card_uses(cnf, before, &mut turn, mover, t, throws_of);
        let plays: Vec<Lit> = turn.play.iter().map(|&(_, l)| l).collect();
        let throws: Vec<Lit> = turn.throw.iter().map(|&(_, l)| l).collect();
        let all: Vec<Lit> = plays.iter().chain(&throws).copied().collect();
        cnf.at_most_one(&all);
        let played = cnf.or(&plays);
        let thrown = cnf.or(&throws);
        let uses = cnf.or(&[played, thrown]);
        // 2. Exactly one kind of turn; nothing once the game is won.
        cnf.exactly_one(&[uses, turn.clue, turn.idle]);
        cnf.clause(&[-turn.misplay, thrown]);

        // 3. Clue tokens: a clue pays, a discard (legal below the maximum, or always where
        //    the variant allows) and a finished stack gain, up to the maximum.
        let tokens = rules.tokens();
        cnf.clause(&[-turn.clue, before.clues.at_least(tokens.clue_cost as isize)]);
        let next_clues = token_step(
            cnf,
            rules,
            &before.clues,
            Some(turn.clue),
            (thrown, turn.misplay),
            &tops(&self.cards.pieces, &turn.play, size),
        );

        // 4. Strikes: a misplay adds one, and the last one is never taken.
        let max_strikes = rules.max_strikes as usize;
        let next_strikes = strike_step(cnf, &before.strikes, turn.misplay, max_strikes);

        // 5. Drawing: every use draws while the pile lasts.
        let next_drawn = self.draw_step(cnf, before, uses, mover);

        // 5b. Pace: a throw while the pile lasts uses up one turn that could have played.
        if let Some(pace) = self.pace {
            let counted = cnf.and(&[thrown, -before.empty[t]]);
            cnf.clause(&[-counted, -thrown_so_far.at_least(pace as isize)]);
            pace_when(
                cnf,
                self.deal,
                self.state,
                self.higher,
                counted,
                thrown_so_far,
            );
            *thrown_so_far = thrown_so_far.plus_one_when(cnf, counted);
        }

        // 6. Fireworks: a played card raises its stack to its place.
        let next_heights = raise_stacks(cnf, &self.cards.pieces, &turn.play, &before.heights, size);

        before.clues = next_clues;
        before.strikes = next_strikes;
        before.drawn = next_drawn;
        before.heights = next_heights;
        let n = before.drawn.max() as isize;
        before.empty.push(before.drawn.at_least(n));
        before.over = self.over_after(cnf, before, t);
        turn
    }

    /// Step 0 of a block: a clue needs another player holding a card (endless mode, where
    /// hands run empty).
    fn clue_needs_a_holder(
        &self,
        cnf: &mut Cnf,
        before: &Before,
        turn: &Turn,
        mover: usize,
        t: usize,
    ) {
        let cards = self.cards;
        let held = holding_others(
            cnf,
            &cards.pieces,
            &cards.owner,
            &before.used,
            &before.drawn,
            mover,
        );
        let full = if self.hands_full_while_drawing {
            -before.empty[t]
        } else {
            Cnf::FALSE
        };
        let someone = cnf.or(&[full, held]);
        cnf.clause(&[-turn.clue, someone]);
    }

    /// Step 1 of a block: the cards the mover may use, once each: their own, and pile cards
    /// they drew. The r-th pile card is drawn on turn r at the earliest, and its drawer's next
    /// turn comes a round later. A card already below its stack is never played.
    fn card_uses(
        &self,
        cnf: &mut Cnf,
        before: &mut Before,
        turn: &mut Turn,
        mover: usize,
        t: usize,
        throws_of: &mut [Vec<Lit>],
    ) {
        let players = self.deal.rules.players as usize;
        let cards = self.cards;
        for (i, piece) in cards.pieces.iter().enumerate() {
            let mine = match piece.origin {
                Origin::Hand(p) => p == mover,
                Origin::Pile(r) => r + players <= t,
            };
            if !mine {
                continue;
            }
            let never_thrown = self.implied && cards.precious[i];
            let (play, throw) = use_lits(cnf, piece, self.state, never_thrown);
            for lit in [play, throw] {
                cnf.clause(&[-lit, -before.used[i]]);
                if let Origin::Pile(r) = piece.origin {
                    cnf.clause(&[-lit, before.drawn.at_least(r as isize + 1)]);
                    cnf.clause(&[-lit, cards.owner[i][mover]]);
                }
            }
            before.used[i] = cnf.or(&[before.used[i], play, throw]);
            fits(cnf, piece, &before.heights, play, throw, turn.misplay);
            if play != Cnf::FALSE {
                turn.play.push((i, play));
            }
            if throw != Cnf::FALSE {
                turn.throw.push((i, throw));
                throws_of[i].push(throw);
            }
        }
    }

    /// Step 5 of a block: the cards drawn after the turn (every use draws while the pile
    /// lasts), and the owner of a pile card drawn now is the mover.
    fn draw_step(&self, cnf: &mut Cnf, before: &Before, uses: Lit, mover: usize) -> Counter {
        let drawn = &before.drawn;
        let next_drawn = drawn.plus_one_when(cnf, uses);
        for (i, piece) in self.cards.pieces.iter().enumerate() {
            if let Origin::Pile(r) = piece.origin {
                let k = r as isize + 1;
                let now = [next_drawn.at_least(k), -drawn.at_least(k)];
                cnf.clause(&[-now[0], -now[1], self.cards.owner[i][mover]]);
            }
        }
        next_drawn
    }

    /// Whether the game is over before turn `t + 1`: every firework complete, or a round
    /// played since the pile ran out (or the turns left in the final round taken).
    fn over_after(&self, cnf: &mut Cnf, before: &Before, t: usize) -> Lit {
        let rules = &self.deal.rules;
        let done = won_lit(cnf, &before.heights);
        let last_round = match self.state.final_turns {
            _ if rules.endless => Cnf::FALSE,
            NOT_FINAL => (t + 1)
                .checked_sub(rules.players as usize)
                .map_or(Cnf::FALSE, |b| before.empty[b]),
            left => Cnf::constant(t + 1 >= left as usize),
        };
        cnf.or(&[done, last_round])
    }
}

/// A literal for "a player other than `mover` holds a card" before a turn, given each piece's
/// `used` literal and the `drawn` counter before it: a card dealt to that player and not yet
/// used, or a pile card they drew and have not used.
fn holding_others(
    cnf: &mut Cnf,
    pieces: &[Piece],
    owner: &[Vec<Lit>],
    used: &[Lit],
    drawn: &Counter,
    mover: usize,
) -> Lit {
    let mut held = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        match piece.origin {
            Origin::Hand(p) if p != mover => held.push(-used[i]),
            Origin::Hand(_) => {}
            Origin::Pile(r) => {
                let drawn_now = drawn.at_least(r as isize + 1);
                for (q, &own) in owner[i].iter().enumerate() {
                    if q != mover {
                        held.push(cnf.and(&[own, drawn_now, -used[i]]));
                    }
                }
            }
        }
    }
    cnf.or(&held)
}

/// A piece's play and throw literals for one turn or block, the play in a fresh variable
/// unless the piece is already below its stack at `root` (then never played), the throw
/// unless it is `never_thrown`.
pub(super) fn use_lits(
    cnf: &mut Cnf,
    piece: &Piece,
    root: &State,
    never_thrown: bool,
) -> (Lit, Lit) {
    let root_height = root.stacks[piece.card.suit() as usize].height();
    let play = if piece.place > root_height {
        cnf.var()
    } else {
        Cnf::FALSE
    };
    let throw = if never_thrown { Cnf::FALSE } else { cnf.var() };
    (play, throw)
}

/// "A play fits its stack, a misplay does not" for one piece and its literals of a turn: a
/// play needs the stack just below the piece's place; a throw that is a misplay needs it
/// elsewhere.
pub(super) fn fits(
    cnf: &mut Cnf,
    piece: &Piece,
    heights: &[Counter],
    play: Lit,
    throw: Lit,
    misplay: Lit,
) {
    let h = &heights[piece.card.suit() as usize];
    let below = h.at_least(piece.place as isize - 1);
    let on = h.at_least(piece.place as isize);
    cnf.clause(&[-play, below]);
    cnf.clause(&[-play, -on]);
    cnf.clause(&[-throw, -misplay, -below, on]);
}

/// The plays among `plays` that finish a stack (of pieces whose place is the stack's `size`).
pub(super) fn tops(pieces: &[Piece], plays: &[(usize, Lit)], size: usize) -> Vec<Lit> {
    plays
        .iter()
        .filter(|&&(i, _)| pieces[i].place as usize == size)
        .map(|&(_, l)| l)
        .collect()
}

/// The clue tokens after a turn, from `clues` before it: a clue (`clue`, whose affordability
/// the caller has checked) pays; a discard (`thrown` but not a misplay, legal below the
/// maximum, or always where the variant allows) and a finished stack (`tops`) gain, up to the
/// maximum.
pub(super) fn token_step(
    cnf: &mut Cnf,
    rules: &Rules,
    clues: &Counter,
    clue: Option<Lit>,
    (thrown, misplay): (Lit, Lit),
    tops: &[Lit],
) -> Counter {
    let tokens = rules.tokens();
    let max_clues = rules.max_clues as usize;
    let discard = cnf.and(&[thrown, -misplay]);
    if !tokens.discard_at_max {
        cnf.clause(&[-discard, -clues.at_least(max_clues as isize)]);
    }
    let finishes = cnf.or(tops);
    let next = Counter::fresh(cnf, max_clues);
    let mut still = vec![-discard, -finishes];
    if let Some(clue) = clue {
        clues.step(cnf, &[clue], &next, -(tokens.clue_cost as isize));
        still.insert(0, -clue);
    }
    clues.step(cnf, &[discard], &next, tokens.discard_gain as isize);
    clues.step(cnf, &[finishes], &next, tokens.stack_gain as isize);
    let still = cnf.and(&still);
    clues.step(cnf, &[still], &next, 0);
    next
}

/// The strikes after a turn: a misplay adds one, and the last one is never taken.
pub(super) fn strike_step(
    cnf: &mut Cnf,
    strikes: &Counter,
    misplay: Lit,
    max_strikes: usize,
) -> Counter {
    cnf.clause(&[-misplay, -strikes.at_least(max_strikes as isize - 1)]);
    strikes.plus_one_when(cnf, misplay)
}

/// The fireworks after a turn: a played card (`plays`) raises its stack to its place.
pub(super) fn raise_stacks(
    cnf: &mut Cnf,
    pieces: &[Piece],
    plays: &[(usize, Lit)],
    heights: &[Counter],
    size: usize,
) -> Vec<Counter> {
    let mut next_heights = Vec::with_capacity(heights.len());
    for (s, h) in heights.iter().enumerate() {
        let next = Counter::fresh(cnf, size);
        for k in 1..=size {
            let mut raise: Vec<Lit> = plays
                .iter()
                .filter(|&&(i, _)| {
                    pieces[i].card.suit() as usize == s && pieces[i].place as usize == k
                })
                .map(|&(_, l)| l)
                .collect();
            raise.push(h.at_least(k as isize));
            let reached = cnf.or(&raise);
            cnf.equal_when(&[], next.at_least(k as isize), reached);
        }
        next_heights.push(next);
    }
    next_heights
}

/// Which pieces are the last copy of a card still needed whose throw costs more points than
/// the target leaves to lose (`spare_points`): its stack then ends below it, short of the
/// stack's `size` by at least `size - place + 1`. For the perfect score, every last copy.
pub(super) fn precious(
    pieces: &[Piece],
    state: &State,
    size: usize,
    spare_points: usize,
) -> Vec<bool> {
    pieces
        .iter()
        .map(|a| {
            let last = pieces.iter().filter(|b| b.card == a.card).count() == 1;
            let cost = size + 1 - a.place as usize;
            let root = state.stacks[a.card.suit() as usize].height();
            a.place > root && last && cost > spare_points
        })
        .collect()
}

/// The implied clauses "a card whose every copy left is thrown is never played": its stack
/// ends (`heights`) below it. `throws_of[i]` are piece i's throw literals.
pub(super) fn stays_below_thrown(
    cnf: &mut Cnf,
    pieces: &[Piece],
    state: &State,
    throws_of: &[Vec<Lit>],
    heights: &[Counter],
) {
    let mut grouped = vec![false; pieces.len()];
    for (i, piece) in pieces.iter().enumerate() {
        let root = state.stacks[piece.card.suit() as usize].height();
        if grouped[i] || piece.place <= root {
            continue;
        }
        let mut clause = Vec::new();
        for (j, other) in pieces.iter().enumerate().skip(i) {
            if other.card == piece.card {
                grouped[j] = true;
                clause.push(-cnf.or(&throws_of[j]));
            }
        }
        let h = &heights[piece.card.suit() as usize];
        clause.push(-h.at_least(piece.place as isize));
        cnf.clause(&clause);
    }
}

/// A literal for "every firework is complete".
pub(super) fn won_lit(cnf: &mut Cnf, heights: &[Counter]) -> Lit {
    let tops: Vec<Lit> = heights
        .iter()
        .map(|h| h.at_least(h.max() as isize))
        .collect();
    cnf.and(&tops)
}

#[cfg(test)]
mod tests {
    use super::super::cnf::tests::{assignments, satisfied};
    use super::*;

    /// The half totaliser of the points against plain counting, over every assignment of a few
    /// small stacks' heights and the helper variables: "at least k points" can hold exactly
    /// where the heights add up to k or more, for every k up to the cap, and nothing is made
    /// above the cap.
    #[test]
    fn points_count_the_heights() {
        for (sizes, most) in [
            (vec![2, 2, 1], 5),
            (vec![2, 2, 1], 3),
            (vec![3, 1], 2),
            (vec![1, 1, 1, 1, 1], 4),
            (vec![2], 2),
        ] {
            let mut cnf = Cnf::new();
            let heights: Vec<Counter> =
                sizes.iter().map(|&m| Counter::fresh(&mut cnf, m)).collect();
            let sum = points(&mut cnf, &heights, most);
            let total: usize = sizes.iter().sum();
            assert_eq!(sum.max(), total.min(most), "{sizes:?} capped at {most}");
            // can[(heights, k)]: some assignment with these heights has "at least k points".
            let mut can = std::collections::HashSet::new();
            let mut seen = std::collections::HashSet::new();
            for value in assignments(cnf.vars()) {
                if !satisfied(&cnf, &value) {
                    continue;
                }
                let hs: Vec<usize> = heights
                    .iter()
                    .map(|h| h.lits().iter().filter(|&&l| value(l)).count())
                    .collect();
                seen.insert(hs.clone());
                for k in 1..=sum.max() {
                    if value(sum.at_least(k as isize)) {
                        can.insert((hs.clone(), k));
                    }
                }
            }
            let orders: usize = sizes.iter().map(|m| m + 1).product();
            assert_eq!(
                seen.len(),
                orders,
                "every combination of heights is allowed"
            );
            for hs in &seen {
                for k in 1..=sum.max() {
                    let want = hs.iter().sum::<usize>() >= k;
                    assert_eq!(can.contains(&(hs.clone(), k)), want, "{hs:?}, at least {k}");
                }
            }
        }
    }
}
