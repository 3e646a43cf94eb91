//! The question "can the game from this position end with at least k points?" as a formula
//! with one block per card drawn, where [`super::encode`] has one per turn.
//!
//! Until the pile runs out, every turn either gives a clue or uses a card (plays, discards or
//! misplays it) and draws the next one, so the `j`-th card drawn from here is drawn by the
//! `j`-th use. A block of this formula is one draw: how many clues come before it, who then
//! moves (the player after the last drawer, moved on by those clues), and which card they use.
//! The pile card drawn in block `r` belongs to block `r`'s mover, so a card's owner is simply
//! that block's mover, with no counter of cards drawn; and the number of blocks is the number
//! of cards in the pile, where the per-turn formula must leave room for every clue the tokens
//! could pay for. The final round follows: one block per turn, each a clue, a use, or
//! nothing once the game is over. Like the per-turn formula, it counts the plays left
//! (`plays_fit_the_draws_left`). Outside endless mode only.

use super::cnf::{Cnf, Lit};
use super::encode::{
    fits, pieces, points, points_needed, precious, raise_stacks, stays_below_thrown, strike_step,
    token_step, tops, use_lits, won_lit, Counter, Origin, Piece, COUNT_EVERY,
};
use crate::game::rules::Rules;
use crate::state::{Action, Deal, State, NOT_FINAL};

/// The most clues any line from `state` reaching `target` gives before its last draw: the
/// horizon's count of clues the tokens can pay for ([`super::encode::horizon`]), which leaves
/// out those paid by discards of the final round (its turns are counted apart).
pub fn clue_room(deal: &Deal, state: &State, target: u8) -> usize {
    let n = deal.pile_left(state) as usize;
    super::encode::horizon(deal, state, target).saturating_sub(n + final_turns(deal, state))
}

/// The turns of the final round from `state`: a whole round, or those left once it started.
fn final_turns(deal: &Deal, state: &State) -> usize {
    if state.final_turns == NOT_FINAL {
        deal.rules.players as usize
    } else {
        state.final_turns as usize
    }
}

/// The count of the plays left ([`points_needed`]) before block `j`, which draws the
/// `j + 1`-th card from the position: the fireworks hold at least the points still needed once
/// `j` cards are drawn, each use to come playing at most one card. The per-draw formula knows
/// how many cards are drawn before each block, so the count is one clause on the points (a
/// totaliser of the heights, [`points`]), where the per-turn formula conditions it on its
/// counter of cards drawn. As there, resolution finds such counting hard, and a line that
/// falls behind is otherwise refuted only blocks later. Counted before every
/// [`COUNT_EVERY`]-th block, on the 34 hard 5- and 6-player Black questions (8 lost, 10 won,
/// 16 below the perfect score; 6 s each, CaDiCaL's `unsat` configuration as `solve`'s race
/// asks it), the lost ones took 8.5 s in all where they took 11.8 s uncounted, the won ones
/// 30 s against 36 s, and those below the perfect score 16 s against 27 s (14 settled within
/// 1.5 s against 10). Counting before every block or every second one did about as well.
/// In `solve`'s race, where this formula runs ([`crate::portfolio::TWO_FORMULAS_FROM`]), 12
/// hard 6-player Black seeds (`solve SEED --time-limit 20`, 2 cores, run back to back) took
/// 73 s in all where they took 85 s: p6v2s3963 1.6 s instead of 5.4 s, p6v2s2475 4.0 s
/// instead of 7.3 s, p6v2s8220 1.9 s instead of 3.5 s; p6v2s6574 12.4 s instead of 11.1 s.
fn plays_fit_the_draws_left(
    cnf: &mut Cnf,
    deal: &Deal,
    state: &State,
    target: u8,
    heights: &[Counter],
    j: usize,
) {
    let least = points_needed(deal, state, target, j as isize);
    if least > state.score(&deal.rules) as isize {
        let points = points(cnf, heights, least as usize);
        cnf.clause(&[points.at_least(least)]);
    }
}

/// One block's uses: `(piece, literal)` for plays and for throws (discards or misplays).
#[derive(Clone, Debug, Default)]
struct Uses {
    play: Vec<(usize, Lit)>,
    throw: Vec<(usize, Lit)>,
    misplay: Lit,
}

impl Uses {
    /// The literal "a card is used" (played or thrown).
    fn any(&self, cnf: &mut Cnf) -> Lit {
        let all: Vec<Lit> = self.play.iter().chain(&self.throw).map(|u| u.1).collect();
        cnf.or(&all)
    }
}

/// One draw: the clues given before it (`clues_at_least[v - 1]`: at least `v`), then the use.
#[derive(Clone, Debug)]
struct Draw {
    clues_at_least: Vec<Lit>,
    uses: Uses,
    /// The game was over before this block: no clue, no use.
    over: Lit,
}

/// One turn of the final round.
#[derive(Clone, Debug)]
struct Final {
    uses: Uses,
    clue: Lit,
    over: Lit,
}

/// The formula for one position, with what is needed to read a line back from a model.
pub struct DrawEncoding {
    pub cnf: Cnf,
    pieces: Vec<Piece>,
    draws: Vec<Draw>,
    finals: Vec<Final>,
    /// The score asked for: the only one this formula can be asked for.
    target: u8,
}

impl DrawEncoding {
    /// Whether this formula models `deal`'s rules: outside endless mode (where hands shrink
    /// and no final round ends the game). [`super::encode::applies`] must accept the position.
    pub fn models(deal: &Deal) -> bool {
        !deal.rules.endless
    }

    /// The formula for `state` and `target` (see [`super::encode::Encoding::new`] for
    /// `implied`): satisfiable exactly when some line reaches `target`.
    pub fn new(deal: &Deal, state: &State, target: u8, implied: bool) -> DrawEncoding {
        DrawEncoding::build(deal, state, target, implied, false)
    }

    /// The formula of the relaxed game, where clues are free (the search's relaxed game,
    /// [`crate::search::dfs::relaxed_root`]): before the final round any player may use the
    /// next card, and in the final round a clue takes its turn but no token. Satisfiable
    /// exactly when some line of that game reaches `target`; its models are not lines of the
    /// real game, so they are not read back ([`DrawEncoding::line`] is for the real formula).
    pub fn free_clues(deal: &Deal, state: &State, target: u8) -> DrawEncoding {
        DrawEncoding::build(deal, state, target, true, true)
    }

    fn build(
        deal: &Deal,
        state: &State,
        target: u8,
        implied: bool,
        free_clues: bool,
    ) -> DrawEncoding {
        let rules = &deal.rules;
        let size = rules.variant.play_order().stack_size() as usize;
        let spare_points = rules.perfect_score().saturating_sub(target) as usize;
        let mut cnf = Cnf::new();
        let pieces = pieces(deal, state);
        let precious = precious(&pieces, state, size, spare_points);
        let mut now = Between::start(rules, state, &pieces);
        let pace = super::encode::pace(deal, state, target);
        if pace.is_some_and(|p| p < 0) {
            cnf.clause(&[]);
        }
        let pace = pace.filter(|_| implied).map(|p| p.max(0) as usize);
        let mut thrown_so_far = Counter::fixed(0, pace.unwrap_or(0));
        let ctx = Ctx {
            pieces: &pieces,
            precious: &precious,
            implied,
            free_clues,
            rules,
            root: state,
        };
        let mut total = Counter::fixed(0, clue_room(deal, state, target));
        let n = deal.pile_left(state) as usize;
        let mut draws = Vec::with_capacity(n);
        for j in 0..n {
            if implied && j % COUNT_EVERY == 0 {
                plays_fit_the_draws_left(&mut cnf, deal, state, target, &now.heights, j);
            }
            let (draw, thrown) = ctx.draw_block(&mut cnf, j, &mut now, &mut total);
            if let Some(pace) = pace {
                cnf.clause(&[-thrown, -thrown_so_far.at_least(pace as isize)]);
                thrown_so_far = thrown_so_far.plus_one_when(&mut cnf, thrown);
            }
            draws.push(draw);
        }
        let finals = (0..final_turns(deal, state))
            .map(|k| ctx.final_block(&mut cnf, k, &mut now))
            .collect();

        let points: Vec<Lit> = now
            .heights
            .iter()
            .flat_map(|h| (1..=size as isize).map(|k| h.at_least(k)))
            .collect();
        cnf.at_least(&points, target as usize);
        if implied {
            stays_below_thrown(&mut cnf, &pieces, state, &now.throws_of, &now.heights);
        }
        DrawEncoding {
            cnf,
            pieces,
            draws,
            finals,
            target,
        }
    }

    /// The score the formula asks for.
    pub fn target(&self) -> u8 {
        self.target
    }

    /// The line a model gives, as actions from the position (see
    /// [`super::encode::Encoding::line`]).
    pub fn line(&self, deal: &Deal, state: &State, value: impl Fn(Lit) -> bool) -> Vec<Action> {
        let mut line = Vec::new();
        let mut s = *state;
        let act = |s: &mut State, line: &mut Vec<Action>, action: Action| -> bool {
            line.push(action);
            match s.apply(deal, action) {
                Ok(next) => {
                    *s = next;
                    true
                }
                Err(_) => false,
            }
        };
        let use_of = |s: &State, uses: &Uses| -> Option<Action> {
            let slot = |i: usize| {
                let card = self.pieces[i].card;
                s.hand(s.turn as usize)
                    .iter()
                    .position(|&c| c == card)
                    .map_or(u8::MAX, |x| x as u8)
            };
            let pick = |list: &[(usize, Lit)]| list.iter().find(|&&(_, l)| value(l)).map(|p| p.0);
            if let Some(i) = pick(&uses.play) {
                return Some(Action::Play(slot(i)));
            }
            pick(&uses.throw).map(|i| {
                if value(uses.misplay) {
                    Action::Play(slot(i))
                } else {
                    Action::Discard(slot(i))
                }
            })
        };
        for draw in &self.draws {
            if value(draw.over) || s.is_over() {
                return line;
            }
            let clues = draw.clues_at_least.iter().filter(|&&l| value(l)).count();
            for _ in 0..clues {
                if !act(&mut s, &mut line, Action::Clue) {
                    return line;
                }
            }
            let Some(action) = use_of(&s, &draw.uses) else {
                return line;
            };
            if !act(&mut s, &mut line, action) {
                return line;
            }
        }
        for turn in &self.finals {
            if value(turn.over) || s.is_over() {
                return line;
            }
            let action = if value(turn.clue) {
                Action::Clue
            } else {
                match use_of(&s, &turn.uses) {
                    Some(a) => a,
                    None => return line,
                }
            };
            if !act(&mut s, &mut line, action) {
                return line;
            }
        }
        line
    }
}

/// The mover of a draw block (one literal per player) and the running total of clues after
/// the block's clues (`clues`, order-encoded, and `exact[v]`: exactly v), given the mover of
/// the block before (`before`) and the total before (`total`). `first` is the player who
/// would move with no clue given since the position.
///
/// The mover is `before` moved on by one plus the clues (a modular step), and also `first`
/// moved on by the total (an adder of order encodings): the two say the same, but with both a
/// use fixes the total's residue, and a total fixes the mover, at once.
fn mover_after_clues(
    cnf: &mut Cnf,
    before: &[Lit],
    first: usize,
    clues: &Counter,
    exact: &[Lit],
    total: &Counter,
) -> (Vec<Lit>, Counter) {
    let players = before.len();
    let mover: Vec<Lit> = (0..players).map(|_| cnf.var()).collect();
    cnf.exactly_one(&mover);
    for p in 0..players {
        for (v, &e) in exact.iter().enumerate() {
            cnf.clause(&[-before[p], -e, mover[(p + 1 + v) % players]]);
        }
        for (q, &m) in mover.iter().enumerate() {
            let d = (q + players * 2 - p - 1) % players;
            let mut clause = vec![-before[p], -m];
            clause.extend(
                exact
                    .iter()
                    .enumerate()
                    .filter(|&(v, _)| v % players == d)
                    .map(|(_, &e)| e),
            );
            cnf.clause(&clause);
        }
    }
    let room = total.max() as isize;
    let next = Counter::fresh(cnf, total.max());
    for a in 0..=room {
        for b in 0..=clues.max() as isize {
            let (sum, past) = (next.at_least(a + b), next.at_least(a + b + 1));
            cnf.clause(&[-total.at_least(a), -clues.at_least(b), sum]);
            cnf.clause(&[total.at_least(a + 1), clues.at_least(b + 1), -past]);
        }
    }
    // `residues[p]`: "p does not move", or one of the totals that make p the mover.
    let mut residues: Vec<Vec<Lit>> = mover.iter().map(|&m| vec![-m]).collect();
    for v in 0..=room {
        let e = cnf.and(&[next.at_least(v), -next.at_least(v + 1)]);
        let p = (first + v as usize) % players;
        cnf.clause(&[-e, mover[p]]);
        residues[p].push(e);
    }
    for clause in &residues {
        cnf.clause(clause);
    }
    (mover, next)
}

/// The game between two blocks, as the formula's counters and literals.
struct Between {
    clues: Counter,
    strikes: Counter,
    heights: Vec<Counter>,
    /// Each piece used (played or thrown) before the block.
    used: Vec<Lit>,
    /// Each piece's throw literals so far, one a block it may be thrown.
    throws_of: Vec<Vec<Lit>>,
    /// `movers[j][p]`: player p uses a card in draw block j, for the draw blocks so far.
    movers: Vec<Vec<Lit>>,
}

impl Between {
    /// The position itself, before the first block.
    fn start(rules: &Rules, state: &State, pieces: &[Piece]) -> Between {
        let size = rules.variant.play_order().stack_size() as usize;
        Between {
            clues: Counter::fixed(state.clues as usize, rules.max_clues as usize),
            strikes: Counter::fixed(state.strikes as usize, rules.max_strikes as usize - 1),
            heights: (0..rules.variant.suits.len())
                .map(|s| Counter::fixed(state.stacks[s].height() as usize, size))
                .collect(),
            used: vec![Cnf::FALSE; pieces.len()],
            throws_of: vec![Vec::new(); pieces.len()],
            movers: Vec::new(),
        }
    }
}

/// What every block's use needs to know.
struct Ctx<'a> {
    pieces: &'a [Piece],
    precious: &'a [bool],
    implied: bool,
    /// The relaxed game's blocks ([`DrawEncoding::free_clues`]): no tokens.
    free_clues: bool,
    rules: &'a Rules,
    root: &'a State,
}

impl Ctx<'_> {
    /// Draw block `j`: the clues given before it (paid from the tokens held), who then uses a
    /// card (the player after the last drawer, moved on by one per clue) and what that use
    /// does; `now` and `total` (the clues so far) move on past it. Returns the block and
    /// "a card is thrown" in it.
    fn draw_block(
        &self,
        cnf: &mut Cnf,
        j: usize,
        now: &mut Between,
        total: &mut Counter,
    ) -> (Draw, Lit) {
        let rules = self.rules;
        let players = rules.players as usize;
        let max_clues = rules.max_clues as usize;
        let cost = rules.tokens().clue_cost.max(1) as usize;
        let most_clues = max_clues / cost;
        let over = won_lit(cnf, &now.heights);
        if self.free_clues {
            return self.free_draw_block(cnf, now, over);
        }
        // Clues before the draw, in the order encoding, and the exact count.
        let at_least = Counter::fresh(cnf, most_clues);
        cnf.clause(&[-over, -at_least.at_least(1)]);
        let exact: Vec<Lit> = (0..=most_clues as isize)
            .map(|v| {
                let a = at_least.at_least(v);
                let b = at_least.at_least(v + 1);
                cnf.and(&[a, -b])
            })
            .collect();
        // Who moves: the player after the last drawer (or the player to move now), moved on
        // by one per clue.
        let before: Vec<Lit> = match now.movers.last() {
            Some(last) => last.clone(),
            None => (0..players)
                .map(|p| Cnf::constant((p + 1) % players == self.root.turn as usize % players))
                .collect(),
        };
        let first = (self.root.turn as usize + j) % players;
        let (mover, next_total) = mover_after_clues(cnf, &before, first, &at_least, &exact, total);
        *total = next_total;
        // Tokens: the clues are paid from those held before them.
        for v in 1..=most_clues as isize {
            cnf.clause(&[-at_least.at_least(v), now.clues.at_least(v * cost as isize)]);
        }
        let after = Counter::fresh(cnf, max_clues);
        for (v, &e) in exact.iter().enumerate() {
            now.clues.step(cnf, &[e], &after, -((v * cost) as isize));
        }
        // The use: of a card dealt, or drawn in an earlier block.
        now.clues = after;
        let (uses, thrown) = self.uses(cnf, now, &mover);
        let one = uses.any(cnf);
        cnf.exactly_one(&[one, over]);
        self.effects(cnf, &uses, (None, thrown), now);
        now.movers.push(mover);
        let draw = Draw {
            clues_at_least: at_least.lits().to_vec(),
            uses,
            over,
        };
        (draw, thrown)
    }

    /// Turn `k` of the final round (after the draw blocks): its mover follows the last
    /// drawer's, and a clue is a turn of its own.
    fn final_block(&self, cnf: &mut Cnf, k: usize, now: &mut Between) -> Final {
        let players = self.rules.players as usize;
        let cost = self.rules.tokens().clue_cost.max(1) as isize;
        let over = won_lit(cnf, &now.heights);
        let mover: Vec<Lit> = (0..players)
            .map(|p| match now.movers.last() {
                Some(last) => last[(p + players * 2 - 1 - k % players) % players],
                None => Cnf::constant((self.root.turn as usize + k) % players == p),
            })
            .collect();
        let (uses, thrown) = self.uses(cnf, now, &mover);
        let clue = cnf.var();
        let one = uses.any(cnf);
        cnf.exactly_one(&[one, clue, over]);
        if self.free_clues {
            self.effects_without_tokens(cnf, &uses, now);
            return Final { uses, clue, over };
        }
        cnf.clause(&[-clue, now.clues.at_least(cost)]);
        self.effects(cnf, &uses, (Some(clue), thrown), now);
        Final { uses, clue, over }
    }

    /// The uses of a block whose mover is `mover`: a play or a throw of a card dealt to the
    /// mover, or of a pile card they drew in one of the draw blocks before it (`before.movers`).
    /// `before.used` and `before.throws_of` are brought up to date. Returns the uses and "a
    /// card is thrown".
    fn uses(&self, cnf: &mut Cnf, before: &mut Between, mover: &[Lit]) -> (Uses, Lit) {
        let drawn = before.movers.len();
        let Between {
            used,
            throws_of,
            heights,
            movers,
            ..
        } = before;
        let mut uses = Uses {
            misplay: cnf.var(),
            ..Uses::default()
        };
        for (i, piece) in self.pieces.iter().enumerate() {
            if matches!(piece.origin, Origin::Pile(r) if r >= drawn) {
                continue;
            }
            let never_thrown = self.implied && self.precious[i];
            let (play, throw) = use_lits(cnf, piece, self.root, never_thrown);
            let now = cnf.or(&[play, throw]);
            if now == Cnf::FALSE {
                continue;
            }
            cnf.clause(&[-now, -used[i]]);
            match piece.origin {
                Origin::Hand(p) => cnf.clause(&[-now, mover[p]]),
                // The drawer of a pile card is the mover of the block that drew it.
                Origin::Pile(r) => {
                    for (p, &m) in mover.iter().enumerate() {
                        cnf.clause(&[-now, -movers[r][p], m]);
                        cnf.clause(&[-now, movers[r][p], -m]);
                    }
                }
            }
            used[i] = cnf.or(&[used[i], now]);
            fits(cnf, piece, heights, play, throw, uses.misplay);
            if play != Cnf::FALSE {
                uses.play.push((i, play));
            }
            if throw != Cnf::FALSE {
                uses.throw.push((i, throw));
                throws_of[i].push(throw);
            }
        }
        let all: Vec<Lit> = uses.play.iter().chain(&uses.throw).map(|u| u.1).collect();
        cnf.at_most_one(&all);
        let throws: Vec<Lit> = uses.throw.iter().map(|u| u.1).collect();
        let thrown = cnf.or(&throws);
        cnf.clause(&[-uses.misplay, thrown]);
        (uses, thrown)
    }

    /// A draw block of the relaxed game: any player uses the next card (free clues bring
    /// the turn to them), or nobody once the game is over.
    fn free_draw_block(&self, cnf: &mut Cnf, now: &mut Between, over: Lit) -> (Draw, Lit) {
        let mover: Vec<Lit> = (0..self.rules.players).map(|_| cnf.var()).collect();
        cnf.exactly_one(&mover);
        let (uses, thrown) = self.uses(cnf, now, &mover);
        let one = uses.any(cnf);
        cnf.exactly_one(&[one, over]);
        self.effects_without_tokens(cnf, &uses, now);
        now.movers.push(mover);
        let draw = Draw {
            clues_at_least: Vec::new(),
            uses,
            over,
        };
        (draw, thrown)
    }

    /// Moves `now`'s strikes and stacks past a use of the relaxed game, whose tokens do not
    /// count.
    fn effects_without_tokens(&self, cnf: &mut Cnf, uses: &Uses, now: &mut Between) {
        let size = self.rules.variant.play_order().stack_size() as usize;
        let max_strikes = self.rules.max_strikes as usize;
        now.strikes = strike_step(cnf, &now.strikes, uses.misplay, max_strikes);
        now.heights = raise_stacks(cnf, self.pieces, &uses.play, &now.heights, size);
    }

    /// Moves `now`'s tokens, strikes and stacks past a turn's clue (a final-round turn's
    /// `clue`; a draw block's clues are paid before this) or use.
    fn effects(
        &self,
        cnf: &mut Cnf,
        uses: &Uses,
        (clue, thrown): (Option<Lit>, Lit),
        now: &mut Between,
    ) {
        let size = self.rules.variant.play_order().stack_size() as usize;
        let tops = tops(self.pieces, &uses.play, size);
        let (misplay, rules) = (uses.misplay, self.rules);
        now.clues = token_step(cnf, rules, &now.clues, clue, (thrown, misplay), &tops);
        self.effects_without_tokens(cnf, uses, now);
    }
}
