//! The two hanab.live families that change how cards go onto the stacks: Up or Down (a stack
//! starts with a 1 and goes up, with a 5 and goes down, or with START and then goes up from a 2
//! or down from a 4) and Sudoku (a stack starts at any rank no other stack started at, counts up
//! and wraps around).
//!
//! The expectations come from [`Referee`], a plain game written here from `HANABLIVE.md` and
//! `RULES.md` over deck orders: it keeps each stack as the list of the cards on it and decides
//! what may go on next from that list alone, never asking the solver's play order. Clue touching
//! comes from the catalogue's facts (START has the site's rank 7). With it:
//! - along random games of tiny and full decks, the state's stacks, score, tokens, strikes,
//!   hands, legal actions, playable and dead cards and reachable score are the referee's, and
//!   each play in hand strikes exactly when the referee says it misplays;
//! - on tiny decks, and from random mid-game positions of larger ones, the solver's answer is
//!   the brute force's over the referee, and each optimal line replays through the referee to
//!   its score; the same position set up by hand (`Deal::with_pile`, `State::push`,
//!   `PlayOrder::stack_of`) solves to the same answer;
//! - with every pruning rule on, each on alone, and all off, the answers stay the brute force's;
//! - hand-written play sequences follow the rules text, through both the state and the referee.

mod common;

use std::collections::HashMap;
use std::rc::Rc;

use common::{clues_of, cut_facts, facts, touches, Clue, Limits, Rng, SiteCard};
use hanabi_solver::game::card::{Card, START};
use hanabi_solver::game::catalogue::VariantFacts;
use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::search::{solve, SolveConfig, Tuning};
use hanabi_solver::state::{Action, Deal, State};

/// The rank hanab.live gives the Up or Down START card.
const START_SITE: u8 = 7;

/// Which stack rule a variant follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Family {
    UpOrDown,
    Sudoku,
}

impl Family {
    /// The family of `f`, which must be one of the two with standard tokens: the referee knows
    /// no other rule (no Orange suits, no token family).
    fn of(f: &VariantFacts) -> Family {
        let g = &f.flags;
        assert!(
            !(g.throw_it_in_a_hole || g.clue_starved || g.alternating_clues)
                && f.suits.iter().all(|s| !s.inverted && !s.reversed),
            "{}: the referee plays only standard tokens and suits",
            f.name
        );
        match (g.up_or_down, g.sudoku) {
            (true, false) => Family::UpOrDown,
            (false, true) => Family::Sudoku,
            _ => panic!("{} is neither Up or Down nor Sudoku", f.name),
        }
    }
}

/// A position as the referee and a position file see it: hands (oldest first), the pile (top
/// first), the cards on each stack in the order played, the cards lost, tokens, strikes, and
/// the seat to move.
#[derive(Clone, Debug)]
struct Position {
    hands: Vec<Vec<SiteCard>>,
    pile: Vec<SiteCard>,
    stacks: Vec<Vec<u8>>,
    lost: Vec<SiteCard>,
    tokens: u8,
    strikes: u8,
    turn: usize,
}

/// The ways an Up or Down stack can go, as the rules text lists them: up from 1, down from 5,
/// START then up from 2, START then down from 4.
const UP_OR_DOWN_PLANS: [[u8; 5]; 4] = [
    [1, 2, 3, 4, 5],
    [5, 4, 3, 2, 1],
    [START_SITE, 2, 3, 4, 5],
    [START_SITE, 4, 3, 2, 1],
];

/// A plain referee over card orders (see the module notes). It plays by the rule book's end
/// (RULES.md: the last strike scores 0, the final round is one turn each after the last draw),
/// as the solver does.
#[derive(Clone, Debug)]
struct Referee {
    f: Rc<VariantFacts>,
    family: Family,
    limits: Limits,
    /// The variant's clues, and for each card (by [`code`]) the set of those that touch it,
    /// one bit per clue, from the catalogue's facts.
    clues: Rc<[Clue]>,
    touched_by: Rc<[u64]>,
    /// Every card by order: the hands' at the start, then the pile's.
    cards: Rc<[SiteCard]>,
    hands: Vec<Vec<usize>>,
    drawn: usize,
    /// The site's ranks of the cards on each stack, first played first.
    stacks: Vec<Vec<u8>>,
    tokens: u8,
    strikes: u8,
    turn: usize,
    final_turns: Option<usize>,
    lost: Vec<SiteCard>,
    over: bool,
    /// Endless mode (RULES.md): no final round, and only a complete set of fireworks scores.
    endless: bool,
}

impl Referee {
    /// The start of a game dealt from `deck` (top first) in blocks, seat 0 first. The deal must
    /// leave a pile.
    fn new(f: &VariantFacts, deck: &[SiteCard], limits: Limits) -> Referee {
        let (n, h) = (limits.players, limits.hand_size);
        let pos = Position {
            hands: (0..n).map(|p| deck[p * h..(p + 1) * h].to_vec()).collect(),
            pile: deck[n * h..].to_vec(),
            stacks: vec![Vec::new(); f.suits.len()],
            lost: Vec::new(),
            tokens: limits.tokens,
            strikes: 0,
            turn: 0,
        };
        Referee::at(f, limits, &pos)
    }

    /// A game going on from `pos`, whose pile is not empty.
    fn at(f: &VariantFacts, limits: Limits, pos: &Position) -> Referee {
        assert!(!pos.pile.is_empty(), "positions here keep a pile");
        let mut cards = Vec::new();
        let mut hands = Vec::new();
        for hand in &pos.hands {
            hands.push((cards.len()..cards.len() + hand.len()).collect());
            cards.extend(hand);
        }
        let drawn = cards.len();
        cards.extend(&pos.pile);
        let clues = clues_of(f);
        assert!(clues.len() <= 64);
        let mut touched_by = vec![0u64; 8 * f.suits.len()];
        for (s, r) in f.deck() {
            for (i, &clue) in clues.iter().enumerate() {
                if touches(f, clue, (s, r)) {
                    touched_by[code((s, r))] |= 1 << i;
                }
            }
        }
        Referee {
            f: Rc::new(f.clone()),
            family: Family::of(f),
            limits,
            clues: clues.into(),
            touched_by: touched_by.into(),
            cards: cards.into(),
            hands,
            drawn,
            stacks: pos.stacks.clone(),
            tokens: pos.tokens,
            strikes: pos.strikes,
            turn: pos.turn,
            final_turns: None,
            lost: pos.lost.clone(),
            over: false,
            endless: false,
        }
    }

    /// The same game in endless mode.
    fn endless(mut self) -> Referee {
        self.endless = true;
        self
    }

    /// This position, to set the solver's state up by hand.
    fn position(&self) -> Position {
        assert!(self.final_turns.is_none() && !self.over);
        Position {
            hands: self
                .hands
                .iter()
                .map(|h| h.iter().map(|&o| self.cards[o]).collect())
                .collect(),
            pile: self.cards[self.drawn..].to_vec(),
            stacks: self.stacks.clone(),
            lost: self.lost.clone(),
            tokens: self.tokens,
            strikes: self.strikes,
            turn: self.turn,
        }
    }

    fn size(&self) -> usize {
        usize::from(self.f.stack_size)
    }

    fn score(&self) -> u32 {
        let total = self.stacks.iter().map(|s| s.len() as u32).sum();
        let perfect = (self.stacks.len() * self.size()) as u32;
        if self.strikes >= self.limits.max_strikes || (self.endless && total < perfect) {
            0
        } else {
            total
        }
    }

    /// Whether `card` goes onto its stack now, from the rules text.
    fn playable(&self, (s, r): SiteCard) -> bool {
        let stack = &self.stacks[s];
        if stack.len() == self.size() {
            return false;
        }
        match self.family {
            Family::UpOrDown => {
                let top = stack.last().copied().unwrap_or(0);
                match stack.as_slice() {
                    [] => matches!(r, 1 | 5 | START_SITE),
                    [START_SITE] => matches!(r, 2 | 4),
                    // Going up: begun with 1, or START then 2.
                    [1, ..] | [START_SITE, 2, ..] => r == top + 1,
                    // Going down: begun with 5, or START then 4.
                    _ => Some(r) == top.checked_sub(1),
                }
            }
            Family::Sudoku => match stack.last() {
                // Started at a rank no other stack started at.
                None => !self.stacks.iter().any(|t| t.first() == Some(&r)),
                // One up, from the top rank back to 1.
                Some(&top) => usize::from(r) == usize::from(top) % self.size() + 1,
            },
        }
    }

    /// The whole stacks suit `s` may still become: each way the rules allow whose first cards
    /// are the ones on the stack (in Sudoku an empty stack may start only where no other stack
    /// started).
    fn plans(&self, s: usize) -> Vec<Vec<u8>> {
        let stack = &self.stacks[s];
        let all: Vec<Vec<u8>> = match self.family {
            Family::UpOrDown => UP_OR_DOWN_PLANS.iter().map(|p| p.to_vec()).collect(),
            Family::Sudoku => {
                let n = self.f.stack_size;
                (1..=n)
                    .filter(|&k| {
                        !stack.is_empty() || !self.stacks.iter().any(|t| t.first() == Some(&k))
                    })
                    .map(|k| (0..n).map(|i| (k - 1 + i) % n + 1).collect())
                    .collect()
            }
        };
        all.into_iter().filter(|p| p.starts_with(stack)).collect()
    }

    /// Copies of `card` still in a hand or the pile.
    fn available(&self, card: SiteCard) -> usize {
        let held = self.hands.iter().flatten().map(|&o| self.cards[o]);
        held.chain(self.cards[self.drawn..].iter().copied())
            .filter(|&c| c == card)
            .count()
    }

    /// Whether `card` can never go onto its stack: no way the stack may still go has it above
    /// the stack's cards with a copy left of every card between.
    fn dead(&self, (s, r): SiteCard) -> bool {
        let h = self.stacks[s].len();
        !self.plans(s).iter().any(|plan| {
            plan.iter()
                .position(|&x| x == r)
                .is_some_and(|q| q >= h && plan[h..q].iter().all(|&x| self.available((s, x)) > 0))
        })
    }

    /// The height stack `s` reaches following `plan` with the cards left.
    fn reach(&self, s: usize, plan: &[u8]) -> usize {
        let h = self.stacks[s].len();
        h + plan[h..]
            .iter()
            .take_while(|&&x| self.available((s, x)) > 0)
            .count()
    }

    /// The most the stacks can still score together, each following the best way open to it;
    /// in Sudoku no two stacks may start at one rank, so the empty stacks share out the free
    /// start ranks (or stay empty) in the best way.
    fn max_reachable(&self) -> u32 {
        /// The best total of the empty Sudoku stacks, each given (start, height reached) for
        /// every start open to it, taking distinct starts not in `used`, or staying empty.
        fn share(open: &[Vec<(u8, usize)>], used: &[u8]) -> usize {
            let Some((first, rest)) = open.split_first() else {
                return 0;
            };
            let mut top = share(rest, used);
            for &(start, height) in first {
                if !used.contains(&start) {
                    let more: Vec<u8> = used.iter().copied().chain([start]).collect();
                    top = top.max(height + share(rest, &more));
                }
            }
            top
        }
        let mut fixed = 0;
        let mut open = Vec::new();
        for s in 0..self.stacks.len() {
            let plans = self.plans(s);
            if self.family == Family::Sudoku && self.stacks[s].is_empty() {
                open.push(plans.iter().map(|p| (p[0], self.reach(s, p))).collect());
            } else {
                fixed += plans.iter().map(|p| self.reach(s, p)).max().unwrap();
            }
        }
        let used: Vec<u8> = self
            .stacks
            .iter()
            .filter_map(|t| t.first().copied())
            .collect();
        (fixed + share(&open, &used)) as u32
    }

    /// The clues that touch a card of seat `target`, one bit per clue.
    fn touching(&self, target: usize) -> u64 {
        self.hands[target]
            .iter()
            .fold(0, |set, &o| set | self.touched_by[code(self.cards[o])])
    }

    fn clue_legal(&self, target: usize, clue: Clue) -> bool {
        let i = self.clues.iter().position(|&c| c == clue).unwrap();
        self.tokens >= 1
            && target < self.limits.players
            && target != self.turn
            && self.touching(target) & 1 << i != 0
    }

    /// Every legal clue of the player to move, as (target, clue).
    fn legal_clues(&self) -> Vec<(usize, Clue)> {
        let mut out = Vec::new();
        if self.tokens == 0 {
            return out;
        }
        for target in (0..self.limits.players).filter(|&p| p != self.turn) {
            let set = self.touching(target);
            for (i, &clue) in self.clues.iter().enumerate() {
                if set & 1 << i != 0 {
                    out.push((target, clue));
                }
            }
        }
        out
    }

    fn discard_legal(&self) -> bool {
        self.tokens < self.limits.tokens
    }

    fn play_or_discard(&mut self, order: usize, play: bool) -> Result<(), String> {
        let mover = self.turn;
        let slot = self.hands[mover]
            .iter()
            .position(|&o| o == order)
            .ok_or_else(|| format!("card {order} is not in seat {mover}'s hand"))?;
        let card = self.cards[order];
        if play {
            if self.playable(card) {
                self.stacks[card.0].push(card.1);
                if self.stacks[card.0].len() == self.size() {
                    self.tokens = (self.tokens + 1).min(self.limits.tokens);
                }
            } else {
                self.strikes += 1;
                self.lost.push(card);
            }
        } else {
            if !self.discard_legal() {
                return Err("a discard with every clue token available".into());
            }
            self.tokens += 1;
            self.lost.push(card);
        }
        self.hands[mover].remove(slot);
        if self.drawn < self.cards.len() {
            self.hands[mover].push(self.drawn);
            self.drawn += 1;
            if self.drawn == self.cards.len() && !self.endless {
                self.final_turns = Some(self.limits.players + 1);
            }
        }
        Ok(())
    }

    fn clue(&mut self, target: usize, clue: Clue) -> Result<(), String> {
        if !self.clue_legal(target, clue) {
            return Err(format!("{clue:?} to seat {target} is not legal"));
        }
        self.tokens -= 1;
        Ok(())
    }

    fn after_action(&mut self) {
        if self.strikes >= self.limits.max_strikes
            || self.stacks.iter().all(|t| t.len() == self.size())
        {
            self.over = true;
            return;
        }
        if let Some(k) = self.final_turns {
            if k == 1 {
                self.over = true;
                return;
            }
            self.final_turns = Some(k - 1);
        }
        self.turn = (self.turn + 1) % self.limits.players;
        if self.hands[self.turn].is_empty() && self.legal_clues().is_empty() {
            self.over = true;
        }
    }

    /// Plays the card in `slot` of the mover's hand, or discards it, and ends the turn.
    fn act(&mut self, slot: usize, play: bool) -> Result<(), String> {
        let order = self.hands[self.turn][slot];
        self.play_or_discard(order, play)?;
        self.after_action();
        Ok(())
    }

    /// The positions one action away.
    fn children(&self) -> Vec<Referee> {
        let mut out = Vec::new();
        for slot in 0..self.hands[self.turn].len() {
            for play in [true, false] {
                let mut next = self.clone();
                if next.act(slot, play).is_ok() {
                    out.push(next);
                }
            }
        }
        // With every card known, any clue leads to the same position: the first is enough.
        if let Some(&(target, clue)) = self.legal_clues().first() {
            let mut next = self.clone();
            next.clue(target, clue).unwrap();
            next.after_action();
            out.push(next);
        }
        out
    }

    /// The position for the memo: everything that decides what can still happen. The cards
    /// lost are left out: they are the cards drawn so far less those in hands and on stacks.
    fn key(&self) -> Vec<u8> {
        let mut key = vec![
            self.drawn as u8,
            self.tokens,
            self.strikes,
            self.turn as u8,
            self.final_turns.map_or(u8::MAX, |k| k as u8),
        ];
        for stack in &self.stacks {
            key.push(u8::MAX);
            key.extend(stack);
        }
        for hand in &self.hands {
            let mut cards: Vec<u8> = hand.iter().map(|&o| code(self.cards[o]) as u8).collect();
            cards.sort_unstable();
            key.push(u8::MAX);
            key.extend(cards);
        }
        key
    }
}

/// A card's index in per-card tables: `8 * suit + rank` (ranks go up to START's 7).
fn code((s, r): SiteCard) -> usize {
    8 * s + usize::from(r)
}

/// The best score of any line from `r`: plain memoised search over every action.
fn brute(r: &Referee, memo: &mut HashMap<Vec<u8>, u32>) -> u32 {
    if r.over {
        return r.score();
    }
    let key = r.key();
    search(r, key, memo)
}

/// [`brute`] from a position in play whose memo key is `key`.
fn search(r: &Referee, key: Vec<u8>, memo: &mut HashMap<Vec<u8>, u32>) -> u32 {
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = None;
    // Plays or discards of equal cards lead to the same position: each position once.
    let mut seen = Vec::new();
    for next in r.children() {
        let v = if next.over {
            next.score()
        } else {
            let k = next.key();
            if seen.contains(&k) {
                continue;
            }
            seen.push(k.clone());
            search(&next, k, memo)
        };
        best = best.max(Some(v));
    }
    let v = best.expect("a player to move has an action");
    memo.insert(key, v);
    v
}

fn best_score(r: &Referee) -> u32 {
    brute(r, &mut HashMap::new())
}

fn rules_for(f: &VariantFacts, limits: Limits) -> Rules {
    rules_with(f, limits, false)
}

fn rules_with(f: &VariantFacts, limits: Limits, endless: bool) -> Rules {
    let options = Options {
        hand_size: Some(limits.hand_size as u8),
        clues: Some(limits.tokens),
        strikes: Some(limits.max_strikes),
        endless,
        ..Options::default()
    };
    Rules::new(
        Variant::from_facts(f).unwrap(),
        limits.players as u8,
        &options,
    )
    .unwrap()
}

/// The solver's card for a site card (START is the site's rank 7).
fn card_of(v: &Variant, (s, r): SiteCard) -> Card {
    v.card(s, usize::from(r)).unwrap()
}

fn deal_for(f: &VariantFacts, deck: &[SiteCard], limits: Limits) -> (Deal, State) {
    deal_with(f, deck, limits, false)
}

fn deal_with(f: &VariantFacts, deck: &[SiteCard], limits: Limits, endless: bool) -> (Deal, State) {
    let rules = rules_with(f, limits, endless);
    let cards: Vec<Card> = deck.iter().map(|&c| card_of(&rules.variant, c)).collect();
    Deal::from_deck(rules, &cards).unwrap()
}

/// The solver's state for `pos`, set up by hand as a position file would: hands, the pile,
/// each stack from its cards, lost cards, tokens, strikes and the turn.
fn state_for(f: &VariantFacts, limits: Limits, pos: &Position) -> (Deal, State) {
    let rules = rules_for(f, limits);
    let v = rules.variant.clone();
    let order = v.play_order();
    let mut s = State::empty();
    for (p, hand) in pos.hands.iter().enumerate() {
        for &c in hand {
            s.push(p, card_of(&v, c));
        }
    }
    for (i, stack) in pos.stacks.iter().enumerate() {
        let cards: Vec<Card> = stack.iter().map(|&r| card_of(&v, (i, r))).collect();
        s.stacks[i] = order
            .stack_of(i as u8, &cards)
            .unwrap_or_else(|| panic!("stack {i} {stack:?} is a stack of {}", f.name));
    }
    for &c in &pos.lost {
        s.add_lost(card_of(&v, c), 1);
    }
    s.clues = pos.tokens;
    s.strikes = pos.strikes;
    s.turn = pos.turn as u8;
    let pile = pos.pile.iter().map(|&c| card_of(&v, c)).collect();
    (Deal::with_pile(rules, pile), s)
}

/// Plays the solver's line through the referee from `start` (a clue becomes the first legal
/// clue) and returns the referee at the end.
fn replay_line(start: &Referee, line: &[Action]) -> Referee {
    let mut r = start.clone();
    for (i, &a) in line.iter().enumerate() {
        assert!(!r.over, "turn {}: the game is over", i + 1);
        let done = match a {
            Action::Play(k) => r.act(k as usize, true),
            Action::Discard(k) => r.act(k as usize, false),
            Action::Clue => match r.legal_clues().first() {
                Some(&(target, clue)) => r.clue(target, clue).map(|()| r.after_action()),
                None => Err("no legal clue".into()),
            },
            other => Err(format!("{other:?} is not an action of these rules")),
        };
        done.unwrap_or_else(|e| panic!("turn {}: {a:?}: {e}", i + 1));
    }
    assert!(r.over, "the line ends the game");
    r
}

/// The solver's configuration for tiny games: every rule on, a small table.
fn small() -> SolveConfig {
    SolveConfig {
        tt_mb: 4,
        ..SolveConfig::default()
    }
}

fn random_limits(rng: &mut Rng) -> Limits {
    Limits {
        players: rng.range(2, 3) as usize,
        hand_size: rng.range(1, 3) as usize,
        tokens: rng.range(1, 3) as u8,
        max_strikes: rng.range(1, 2) as u8,
    }
}

/// Tiny decks the brute force solves from the deal: (variant, suits kept, stack size). The
/// first suits and the variant's last are kept (`common::cut_facts`).
const TINY: [(&str, usize, u8); 13] = [
    // 9 cards: one 1, two each of 2-4, one 5, START.
    ("Up or Down (5 Suits)", 1, 5),
    // No colour clue is left, and START takes no rank clue: a hand of START takes no clue.
    ("Up or Down & White (5 Suits)", 1, 5),
    // Pink takes every rank clue, START included.
    ("Up or Down & Pink (5 Suits)", 1, 5),
    // No clue touches anything.
    ("Up or Down & Null (5 Suits)", 1, 5),
    // A dark suit: one of each and START, 6 cards.
    ("Up or Down & Black (6 Suits)", 1, 5),
    // Red and Black: 15 cards, two stacks choosing their ways apart.
    ("Up or Down & Black (6 Suits)", 2, 5),
    ("Sudoku (5 Suits)", 2, 2),
    ("Sudoku (5 Suits)", 2, 3),
    // Three stacks and two start ranks: one stack can never start.
    ("Sudoku (5 Suits)", 3, 2),
    // One stack, which may start anywhere.
    ("Sudoku (5 Suits)", 1, 4),
    // Red, Yellow and a dark Black: 15 cards.
    ("Sudoku & Black (5 Suits)", 3, 3),
    // White takes only rank clues, Brown only colour clues.
    ("Sudoku & White (5 Suits)", 2, 3),
    ("Sudoku & Brown (5 Suits)", 2, 3),
];

/// A random tiny deal of `TINY[which]`: its facts, deck and limits, with a pile left after the
/// deal. Hands hold at most `max_dealt` cards in all, and one card each in decks of more than
/// 12 cards: more make the brute force slow.
fn tiny_deal(
    rng: &mut Rng,
    which: usize,
    max_dealt: usize,
) -> (VariantFacts, Vec<SiteCard>, Limits) {
    let (name, suits, stack) = TINY[which];
    let f = cut_facts(name, suits, stack);
    let mut deck = f.deck();
    rng.shuffle(&mut deck);
    loop {
        let limits = random_limits(rng);
        let dealt = limits.players * limits.hand_size;
        if dealt < deck.len() && dealt <= max_dealt && (deck.len() <= 12 || limits.hand_size == 1) {
            return (f, deck, limits);
        }
    }
}

/// Larger decks reached from the deal by random play, solved from the middle: (variant,
/// suits, stack size). Two whole Up or Down suits are 18 cards, too many to brute-force from
/// the deal.
const MIDGAME: [(&str, usize, u8); 7] = [
    ("Up or Down (5 Suits)", 2, 5),
    // Prism: START is touched by the last colour.
    ("Up or Down & Prism (5 Suits)", 2, 5),
    ("Up or Down & Black (6 Suits)", 3, 5),
    ("Up or Down (5 Suits)", 5, 5),
    ("Sudoku (5 Suits)", 3, 3),
    ("Sudoku (4 Suits)", 4, 4),
    ("Sudoku (5 Suits)", 5, 5),
];

/// Whether `r`'s card in `slot` of the mover's hand is playable.
fn slot_playable(r: &Referee, slot: usize) -> bool {
    r.playable(r.cards[r.hands[r.turn][slot]])
}

/// A fairly sensible random action for the player to move (by the referee): mostly a play of
/// a playable card, else a discard of a dead card, else any legal action, misplays included
/// (a misplay is avoided when it would end the game, as often as `careful` asks).
fn random_action(rng: &mut Rng, r: &Referee, legal: &[Action], careful: bool) -> Action {
    let hand = &r.hands[r.turn];
    let playable: Vec<usize> = (0..hand.len()).filter(|&k| slot_playable(r, k)).collect();
    if !playable.is_empty() && rng.below(4) != 0 {
        return Action::Play(playable[rng.below(playable.len() as u64) as usize] as u8);
    }
    if r.discard_legal() && rng.coin() {
        if let Some(k) = (0..hand.len()).find(|&k| r.dead(r.cards[hand[k]])) {
            return Action::Discard(k as u8);
        }
    }
    let last_strike = r.strikes + 1 >= r.limits.max_strikes;
    let choices: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|&a| {
            !(careful
                && last_strike
                && matches!(a, Action::Play(k) if !slot_playable(r, k as usize)))
        })
        .collect();
    let pool = if choices.is_empty() {
        legal
    } else {
        &choices[..]
    };
    pool[rng.below(pool.len() as u64) as usize]
}

/// Applies `a` to the referee as well.
fn referee_apply(r: &mut Referee, a: Action) {
    match a {
        Action::Play(k) => r.act(k as usize, true).unwrap(),
        Action::Discard(k) => r.act(k as usize, false).unwrap(),
        Action::Clue => {
            let (target, clue) = r.legal_clues()[0];
            r.clue(target, clue).unwrap();
            r.after_action();
        }
        other => panic!("{other:?} is not an action of these rules"),
    }
}

/// What happened to the stacks along the random games, so the test can show every rule was
/// met: Up or Down stacks going down, START then up, START then down, START misplayed on a
/// chosen stack; Sudoku stacks starting above 1, wrapping, and a start refused because another
/// stack took that rank; finished stacks.
#[derive(Default, Debug)]
struct Seen {
    down: usize,
    start_up: usize,
    start_down: usize,
    start_refused: usize,
    sudoku_high_start: usize,
    wrap: usize,
    start_taken: usize,
    finished: usize,
}

impl Seen {
    fn note(&mut self, r: &Referee, card: SiteCard, playable: bool) {
        let stack = &r.stacks[card.0];
        match (r.family, stack.as_slice(), card.1, playable) {
            (Family::UpOrDown, [5, ..], 4, true) => self.down += 1,
            (Family::UpOrDown, [START_SITE], 2, true) => self.start_up += 1,
            (Family::UpOrDown, [START_SITE], 4, true) => self.start_down += 1,
            (Family::UpOrDown, [_, ..], START_SITE, false) => self.start_refused += 1,
            (Family::Sudoku, [], rank, true) if rank > 1 => self.sudoku_high_start += 1,
            (Family::Sudoku, [.., top], 1, true) if *top == r.f.stack_size => self.wrap += 1,
            (Family::Sudoku, [], _, false) => self.start_taken += 1,
            _ => {}
        }
        if playable && stack.len() + 1 == r.size() {
            self.finished += 1;
        }
    }
}

/// Checks that the solver's state `s` is the referee's position `r`.
fn check_agrees(deal: &Deal, s: &State, r: &Referee, what: &str) {
    let rules = &deal.rules;
    let v = &rules.variant;
    assert_eq!(s.is_over(), r.over, "{what}: over");
    if r.over {
        assert_eq!(u32::from(s.score(rules)), r.score(), "{what}: final score");
        return;
    }
    assert_eq!(u32::from(s.score(rules)), r.score(), "{what}: score");
    for (i, stack) in r.stacks.iter().enumerate() {
        assert_eq!(usize::from(s.height(i)), stack.len(), "{what}: height {i}");
    }
    assert_eq!(s.clues, r.tokens, "{what}: tokens");
    assert_eq!(s.strikes, r.strikes, "{what}: strikes");
    assert_eq!(s.turn as usize, r.turn, "{what}: turn");
    for (p, hand) in r.hands.iter().enumerate() {
        let want: Vec<Card> = hand.iter().map(|&o| card_of(v, r.cards[o])).collect();
        assert_eq!(s.hand(p), want.as_slice(), "{what}: hand {p}");
        for &o in hand {
            let c = r.cards[o];
            let card = card_of(v, c);
            let stacks = &r.stacks;
            assert_eq!(
                s.is_playable(rules, card),
                r.playable(c),
                "{what}: is {c:?} playable on {stacks:?}"
            );
            // The state asks each stack alone whether a card is dead, so in Sudoku an empty
            // stack counts every start rank as open, also those another stack took: there
            // a card the state calls live may be dead, never the other way round.
            let (solver, referee) = (s.is_trash(rules, card), r.dead(c));
            if r.family == Family::Sudoku && stacks[c.0].is_empty() {
                assert!(!solver || referee, "{what}: {c:?} trash on {stacks:?}");
            } else {
                assert_eq!(solver, referee, "{what}: is {c:?} dead on {stacks:?}");
            }
        }
    }
    assert_eq!(
        u32::from(s.max_reachable_score(rules)),
        r.max_reachable(),
        "{what}: reachable score with stacks {:?}",
        r.stacks
    );
    // The referee's legal actions, in the state's terms.
    let mut want = Vec::new();
    for k in 0..r.hands[r.turn].len() {
        want.push(Action::Play(k as u8));
        if r.discard_legal() {
            want.push(Action::Discard(k as u8));
        }
    }
    if !r.legal_clues().is_empty() {
        want.push(Action::Clue);
    }
    let mut got = s.legal_actions(deal).to_vec();
    got.sort_by_key(|a| format!("{a:?}"));
    want.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(got, want, "{what}: legal actions");
    // Each play strikes exactly when the referee says the card does not go on.
    for k in 0..r.hands[r.turn].len() {
        let next = s.apply(deal, Action::Play(k as u8)).unwrap();
        assert_eq!(
            next.strikes > s.strikes,
            !slot_playable(r, k),
            "{what}: playing slot {k}"
        );
    }
}

/// Along random games of tiny and whole decks of many variants of both families, the state is
/// the referee's at every turn (see [`check_agrees`]): stacks, score, tokens, strikes, hands,
/// legal actions, which cards are playable and dead, the reachable score, and which plays
/// strike.
#[test]
fn states_follow_the_referee_along_random_games() {
    const WHOLE: [&str; 10] = [
        "Up or Down (5 Suits)",
        "Up or Down & Black (6 Suits)",
        "Up or Down & Pink (5 Suits)",
        "Up or Down & Dark Prism (6 Suits)",
        "Up or Down & Null (5 Suits)",
        "Sudoku (5 Suits)",
        "Sudoku (4 Suits)",
        "Sudoku & Black (5 Suits)",
        "Sudoku & Dark Null (5 Suits)",
        "Sudoku & Rainbow (4 Suits)",
    ];
    let mut rng = Rng(0x5a_c4_01);
    let mut seen: HashMap<Family, Seen> = HashMap::new();
    let mut actions = 0;
    let mut games = Vec::new();
    for name in WHOLE {
        for _ in 0..24 {
            let f = facts(name).clone();
            let mut deck = f.deck();
            rng.shuffle(&mut deck);
            games.push((f, deck, Limits::site(rng.range(2, 5) as usize)));
        }
    }
    for which in 0..TINY.len() {
        for _ in 0..16 {
            games.push(tiny_deal(&mut rng, which, 9));
        }
    }
    for (game, (f, deck, limits)) in games.iter().enumerate() {
        let (deal, mut s) = deal_for(f, deck, *limits);
        let mut r = Referee::new(f, deck, *limits);
        for turn in 1.. {
            let what = format!("{} game {game} turn {turn} ({limits:?})", f.name);
            check_agrees(&deal, &s, &r, &what);
            if r.over {
                break;
            }
            let careful = rng.below(3) != 0;
            let a = random_action(&mut rng, &r, &s.legal_actions(&deal), careful);
            if let Action::Play(k) = a {
                let card = r.cards[r.hands[r.turn][k as usize]];
                let ok = r.playable(card);
                seen.entry(r.family).or_default().note(&r, card, ok);
            }
            referee_apply(&mut r, a);
            s = s.apply(&deal, a).unwrap();
            actions += 1;
        }
    }
    println!("{} games, {actions} actions: {seen:?}", games.len());
    let (u, d) = (&seen[&Family::UpOrDown], &seen[&Family::Sudoku]);
    for n in [
        u.down,
        u.start_up,
        u.start_down,
        u.start_refused,
        u.finished,
    ] {
        assert!(n >= 10, "{u:?}");
    }
    for n in [d.sudoku_high_start, d.wrap, d.start_taken, d.finished] {
        assert!(n >= 10, "{d:?}");
    }
}

/// How the stacks were played at the end of a line: Up or Down stacks that went down or began
/// with START, Sudoku stacks that began above 1.
fn unusual_stacks(r: &Referee) -> usize {
    r.stacks
        .iter()
        .filter(|t| t.first().is_some_and(|&first| first != 1))
        .count()
}

/// Solves from `state` and checks the answer against `expected` (the brute force's from
/// `start`, the same position, when not given) and the line against the referee; counts the
/// line's unusual stacks. Returns the answer.
fn solve_and_compare(
    start: &Referee,
    (deal, state): (&Deal, &State),
    expected: Option<u32>,
    what: &str,
    unusual: &mut HashMap<Family, usize>,
) -> u32 {
    let expected = expected.unwrap_or_else(|| best_score(start));
    let got = solve(deal, state, &small());
    assert!(got.proven, "{what}");
    assert_eq!(u32::from(got.max_score), expected, "{what}");
    let end = replay_line(start, &got.line);
    assert_eq!(end.score(), expected, "{what}: the line's score");
    *unusual.entry(start.family).or_default() += unusual_stacks(&end);
    expected
}

/// The solver with all its rules against the brute force, on tiny decks of both families and
/// from random mid-game positions of larger decks; each optimal line replays through the
/// referee to its score, and a mid-game position set up by hand solves as the one played to.
/// Optimal lines must use the families' rules (a stack going down or starting with START, a
/// Sudoku stack starting above 1), or the comparison would not show they are followed.
#[test]
fn tiny_decks_solve_to_the_brute_force_answer() {
    let mut rng = Rng(0x5a_c4_02);
    let mut deals = 0;
    let mut unusual: HashMap<Family, usize> = HashMap::new();
    for which in 0..TINY.len() {
        for game in 0..8 {
            let (f, deck, limits) = tiny_deal(&mut rng, which, 9);
            let what = format!("{} deal {game}: {limits:?} deck {deck:?}", f.name);
            let (deal, state) = deal_for(&f, &deck, limits);
            let start = Referee::new(&f, &deck, limits);
            solve_and_compare(&start, (&deal, &state), None, &what, &mut unusual);
            deals += 1;
        }
    }
    let mut positions = 0;
    for (name, suits, stack) in MIDGAME {
        let f = cut_facts(name, suits, stack);
        let mut game = 0;
        while game < 8 {
            let mut deck = f.deck();
            rng.shuffle(&mut deck);
            let mut limits = random_limits(&mut rng);
            limits.max_strikes += 1;
            let (deal, mut s) = deal_for(&f, &deck, limits);
            let mut r = Referee::new(&f, &deck, limits);
            // Random play until at most 12 cards are left in hands and pile, with a pile left.
            let left = |r: &Referee| r.cards.len() - r.drawn + r.hands.iter().flatten().count();
            while !r.over && left(&r) > 12 {
                let a = random_action(&mut rng, &r, &s.legal_actions(&deal), true);
                referee_apply(&mut r, a);
                s = s.apply(&deal, a).unwrap();
            }
            if r.over || r.drawn == r.cards.len() {
                continue;
            }
            game += 1;
            let pos = r.position();
            let what = format!("{name} cut to {suits}, position {game}: {limits:?} {pos:?}");
            check_agrees(&deal, &s, &r, &what);
            let expected = solve_and_compare(&r, (&deal, &s), None, &what, &mut unusual);
            // The same position set up by hand, and its referee.
            let (deal2, s2) = state_for(&f, limits, &pos);
            let r2 = Referee::at(&f, limits, &pos);
            check_agrees(&deal2, &s2, &r2, &what);
            let hand_made = format!("{what}, set up by hand");
            solve_and_compare(&r2, (&deal2, &s2), Some(expected), &hand_made, &mut unusual);
            positions += 1;
        }
    }
    println!("{deals} deals and {positions} mid-game positions; unusual stacks in the lines: {unusual:?}");
    assert!(deals + positions >= 100);
    let count = |family| unusual.get(&family).copied().unwrap_or(0);
    assert!(count(Family::UpOrDown) >= 5 && count(Family::Sudoku) >= 5);
}

/// Endless mode in both families: the referee plays on past the pile with no final round and
/// scores only a complete set of fireworks, so its brute force knows nothing of when the game
/// becomes lost; the solver must give the same answer, and a winning line must replay to it.
/// Both answers must occur, or the comparison would show little.
#[test]
fn endless_tiny_decks_solve_to_the_brute_force_answer() {
    let mut rng = Rng(0x5a_c4_04);
    let (mut won, mut lost) = (0, 0);
    for which in 0..TINY.len() {
        for game in 0..5 {
            let (f, deck, limits) = tiny_deal(&mut rng, which, 5);
            let what = format!("{} endless deal {game}: {limits:?} deck {deck:?}", f.name);
            let start = Referee::new(&f, &deck, limits).endless();
            let expected = best_score(&start);
            let (deal, state) = deal_with(&f, &deck, limits, true);
            let got = solve(&deal, &state, &small());
            assert!(got.proven, "{what}");
            assert_eq!(u32::from(got.max_score), expected, "{what}");
            if expected > 0 {
                let end = replay_line(&start, &got.line);
                assert_eq!(end.score(), expected, "{what}: the line's score");
                won += 1;
            } else {
                lost += 1;
            }
        }
    }
    println!("endless: {won} won, {lost} lost");
    assert!(won >= 10 && lost >= 10, "{won} won, {lost} lost");
}

/// Each pruning rule alone, all of them, and none: the answers stay the brute force's in both
/// families. Hands hold at most four cards in all here: the searches with no bound and a
/// small table take seconds where the full solver takes milliseconds on the larger deals.
#[test]
fn each_pruning_rule_keeps_answers() {
    let mut tunings = common::pruning_switches();
    tunings.push(Tuning::FULL);
    let mut rng = Rng(0x5a_c4_03);
    for which in 0..TINY.len() {
        for game in 0..3 {
            let (f, deck, limits) = tiny_deal(&mut rng, which, 4);
            let expected = best_score(&Referee::new(&f, &deck, limits));
            let (deal, start) = deal_for(&f, &deck, limits);
            for (i, tuning) in tunings.iter().enumerate() {
                let config = SolveConfig {
                    tuning: *tuning,
                    tt_mb: 4,
                    ..SolveConfig::default()
                };
                let got = solve(&deal, &start, &config);
                assert!(got.proven);
                assert_eq!(
                    u32::from(got.max_score),
                    expected,
                    "{} game {game}, tuning {i} {tuning:?}: {limits:?} deck {deck:?}",
                    f.name
                );
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Hand-written play sequences.

/// Plays `seq` (site cards) one by one in `name`: seat 0 holds the cards at even places, seat 1
/// those at odd places, and each plays its oldest card in turn (the pile holds cards of the
/// last suit, which no sequence here plays, drawn behind them). Seven tokens, so a finished
/// stack shows its token; seven strikes, so the game goes on. The referee must agree with the
/// state at every step. Returns each play as `x` (a strike) or `.`, then the final score and
/// tokens.
fn play_in_turn(name: &str, seq: &[SiteCard]) -> (String, u8, u8) {
    let f = facts(name);
    let limits = Limits {
        players: 2,
        hand_size: 1,
        tokens: 8,
        max_strikes: 7,
    };
    let last = f.suits.len() - 1;
    let pos = Position {
        hands: vec![
            seq.iter().step_by(2).copied().collect(),
            seq.iter().skip(1).step_by(2).copied().collect(),
        ],
        pile: vec![(last, 1); seq.len() + 1],
        stacks: vec![Vec::new(); f.suits.len()],
        lost: Vec::new(),
        tokens: 7,
        strikes: 0,
        turn: 0,
    };
    assert!(seq.iter().all(|&(s, _)| s != last));
    let (deal, mut s) = state_for(f, limits, &pos);
    let mut r = Referee::at(f, limits, &pos);
    let mut out = String::new();
    for (i, &c) in seq.iter().enumerate() {
        let what = format!("{name} {seq:?}, play {i}");
        assert_eq!(s.hand(i % 2)[0], card_of(&deal.rules.variant, c), "{what}");
        let next = s.apply(&deal, Action::Play(0)).unwrap();
        out.push(if next.strikes > s.strikes { 'x' } else { '.' });
        r.act(0, true).unwrap();
        assert_eq!(r.strikes, next.strikes, "{what}: the referee's strikes");
        assert_eq!(r.tokens, next.clues, "{what}: the referee's tokens");
        assert_eq!(u32::from(next.score(&deal.rules)), r.score(), "{what}");
        s = next;
    }
    (out, s.score(&deal.rules), s.clues)
}

/// Whether `seq`, played in order, strikes as `want` says (`x` a strike, `.` a play).
fn check_strikes(name: &str, seq: &[SiteCard], want: &str) {
    assert_eq!(play_in_turn(name, seq).0, want, "{name}: {seq:?}");
}

/// Up or Down, from the rules text: an empty stack takes a 1, a 5 or START; after START a 2
/// goes up and a 4 down; then the stack goes on one way; START has no place once a 1 or a 5
/// began the stack; a stack of five cards is finished and gives a token.
#[test]
fn up_or_down_follows_the_rules_text() {
    let name = "Up or Down (5 Suits)";
    let (r, y, s) = (0, 1, START_SITE);
    // The site's START (rank 7) is the solver's START card.
    let v = Variant::from_facts(facts(name)).unwrap();
    assert_eq!(card_of(&v, (y, s)), Card::new(1, START));
    check_strikes(name, &[(r, s), (r, 3)], ".x");
    // START counts as a card of the stack: five cards finish it, score 5 and give a token.
    let up = [(r, s), (r, 2), (r, 3), (r, 4), (r, 5)];
    assert_eq!(play_in_turn(name, &up), (".....".into(), 5, 8));
    check_strikes(name, &[(r, s), (r, 4), (r, 3), (r, 2), (r, 1)], ".....");
    check_strikes(name, &[(r, s), (r, 1), (r, 5), (r, 2)], ".xx.");
    check_strikes(name, &[(r, 1), (r, s), (r, 2)], ".x.");
    check_strikes(name, &[(r, 5), (r, s), (r, 1), (r, 4)], ".xx.");
    check_strikes(name, &[(r, 1), (r, 2), (r, 5), (r, 3), (r, 4)], "..x..");
    check_strikes(name, &[(r, 5), (r, 4), (r, 3), (r, 2), (r, 1)], ".....");
    check_strikes(name, &[(r, 2), (r, 3), (r, 4), (r, 1), (r, 5)], "xxx.x");
    check_strikes(name, &[(r, s), (r, 2), (r, 1), (r, 4), (r, 3)], "..xx.");
    check_strikes(name, &[(r, s), (r, 4), (r, 5), (r, 3)], "..x.");
    // Each stack chooses alone.
    check_strikes(
        name,
        &[(r, 1), (y, 5), (y, 4), (r, s), (y, s), (r, 2)],
        "...xx.",
    );
    check_strikes(
        name,
        &[(r, s), (y, s), (r, 2), (y, 4), (y, 2), (r, 4)],
        "....xx",
    );
}

/// Sudoku, from the rules text: an empty stack starts at any rank no other stack started at
/// (a finished stack keeps its start; a misplayed card starts nothing), then counts up by one
/// and wraps from the top rank to 1, finishing after as many cards as ranks.
#[test]
fn sudoku_follows_the_rules_text() {
    let name = "Sudoku (5 Suits)";
    let (r, y, g) = (0, 1, 2);
    check_strikes(name, &[(r, 3), (y, 3)], ".x");
    check_strikes(name, &[(r, 3), (y, 4), (g, 3), (g, 4), (g, 5)], "..xx.");
    let wrap = [(r, 4), (r, 5), (r, 1), (r, 2), (r, 3)];
    assert_eq!(play_in_turn(name, &wrap), (".....".into(), 5, 8));
    check_strikes(name, &[(r, 4), (r, 5), (r, 2), (r, 1)], "..x.");
    check_strikes(name, &[(r, 5), (r, 1), (r, 3), (r, 2)], "..x.");
    check_strikes(
        name,
        &[(r, 2), (r, 3), (r, 4), (r, 5), (r, 1), (y, 2)],
        ".....x",
    );
    check_strikes(name, &[(r, 1), (y, 1), (y, 2), (g, 1), (g, 3)], ".x.x.");
    check_strikes(name, &[(r, 2), (r, 2)], ".x");
    let name = "Sudoku (4 Suits)";
    check_strikes(
        name,
        &[(r, 4), (r, 1), (r, 2), (r, 3), (y, 4), (y, 3)],
        "....x.",
    );
    check_strikes(name, &[(r, 3), (r, 4), (r, 1), (r, 2), (g, 1)], ".....");
}

/// Plays one action of a hanab.live export (`type` 0 play, 1 discard, 2 colour clue, 3 rank
/// clue; `target` a deck order or a seat) through the referee.
fn referee_step(r: &mut Referee, a: &serde_json::Value) -> Result<(), String> {
    let target = a["target"].as_u64().ok_or("no target")? as usize;
    let value = a["value"].as_u64().unwrap_or(0);
    match a["type"].as_u64() {
        Some(0) => r.play_or_discard(target, true)?,
        Some(1) => r.play_or_discard(target, false)?,
        Some(2) => r.clue(target, Clue::Colour(value as usize))?,
        Some(3) => r.clue(target, Clue::Rank(value as u8))?,
        other => return Err(format!("unexpected action type {other:?}")),
    }
    r.after_action();
    Ok(())
}

/// What the command line gives for a full game of these families, as a player uses it: a seed
/// solved and exported plays through the referee and `replay` to the solver's score; the game
/// at a turn, written as a position file (stacks as their cards, `r=S43`), solves to the same
/// answer as the game itself at that turn; and the hidden-card modes run on that position.
#[test]
fn exported_games_replay_and_positions_round_trip() {
    use common::{run, TempFile};
    let json = |args: &[&str]| -> serde_json::Value {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {out:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let mut chosen_stacks = 0;
    let mut exact_runs = 0;
    for name in [
        "Up or Down (5 Suits)",
        "Up or Down & Black (6 Suits)",
        "Sudoku (5 Suits)",
        "Sudoku (4 Suits)",
    ] {
        let f = facts(name);
        for players in [2, 4] {
            let seed = format!("p{players}v{}s3", f.id);
            let file = TempFile::new(&format!("{seed}.json"));
            let answer = json(&["solve", &seed, "--export", file.path(), "--json"]);
            assert_eq!(answer["proven"], true, "{seed}");
            let score = answer["max_score"].as_u64().unwrap() as u32;
            let game: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
            let deck = common::site_cards(&game["deck"]);
            let mut referee = Referee::new(f, &deck, Limits::site(players));
            let actions = game["actions"].as_array().unwrap();
            for (i, a) in actions.iter().enumerate() {
                if a["type"] == 4 {
                    break;
                }
                referee_step(&mut referee, a)
                    .unwrap_or_else(|e| panic!("{seed}: turn {}: {a}: {e}", i + 1));
            }
            assert_eq!(referee.score(), score, "{seed}: the referee's score");
            chosen_stacks += unusual_stacks(&referee);
            let replay = json(&["replay", file.path(), "--json"]);
            assert_eq!(replay["score"], score, "{seed}: replay's score");

            // The game at a turn a third of the way in, as the game and as a position file.
            let turn = (actions.len() / 3).max(2).to_string();
            let at_turn = json(&["solve", file.path(), "--turn", &turn, "--json"]);
            let position = TempFile::new(&format!("{seed}-{turn}.hanabi"));
            let out = run(&[
                "solve",
                file.path(),
                "--turn",
                &turn,
                "--write-position",
                position.path(),
            ]);
            assert!(out.status.success(), "{seed}: {out:?}");
            let text = std::fs::read_to_string(position.path()).unwrap();
            let from_file = json(&["solve", position.path(), "--json"]);
            assert_eq!(
                from_file["max_score"], at_turn["max_score"],
                "{seed} at turn {turn}:\n{text}"
            );
            assert_eq!(
                at_turn["max_score"], score,
                "{seed}: an optimal line keeps its score"
            );
            // Hidden cards: the pile hidden (exact) at the first turn with at most 6 cards left
            // in it (at most 720 orders, so that the answer comes well within the limit on a
            // busy machine), if the game gets there, and sampled fillings.
            let hand_size = Limits::site(players).hand_size;
            let mut pile = deck.len() - players * hand_size;
            let mut late = None;
            for (i, a) in actions.iter().enumerate() {
                if a["type"] == 4 {
                    break;
                }
                if pile <= 6 {
                    late = Some(i + 1);
                    break;
                }
                if a["type"].as_u64().unwrap() <= 1 {
                    pile -= 1;
                }
            }
            if let Some(late) = late {
                let late = late.to_string();
                let exact = json(&[
                    "solve",
                    file.path(),
                    "--turn",
                    &late,
                    "--view",
                    "cheat",
                    "--exact",
                    "--time-limit",
                    "120",
                    "--json",
                ]);
                assert!(exact.is_object(), "{seed}: {exact}");
                exact_runs += 1;
            }
            let sampled = json(&[
                "solve",
                position.path(),
                "--samples",
                "3",
                "--threads",
                "1",
                "--max-nodes",
                "100000",
                "--json",
            ]);
            assert!(sampled.is_object(), "{seed}: {sampled}");
        }
    }
    // Some of these lines go down or start with START (Up or Down), or start above 1 (Sudoku).
    assert!(chosen_stacks > 0, "{chosen_stacks}");
    assert!(exact_runs >= 4, "{exact_runs}");
}

/// `replay` follows the site's stack rules on a hand-made Up or Down game: a 3 after START is a
/// strike, a 2 after START starts the stack going up.
#[test]
fn replay_strikes_a_card_that_does_not_fit_its_stack() {
    use common::{run, TempFile};
    let name = "Up or Down (5 Suits)";
    // Alice holds r START, r3, r2 and two blues; Bob five greens.
    let mut deck: Vec<SiteCard> = vec![(0, START_SITE), (0, 3), (0, 2), (3, 1), (3, 2)];
    deck.extend([(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)]);
    let mut rest = facts(name).deck();
    for c in &deck {
        let i = rest.iter().position(|x| x == c).unwrap();
        rest.remove(i);
    }
    deck.extend(rest);
    let cards: Vec<serde_json::Value> = deck
        .iter()
        .map(|&(s, r)| serde_json::json!({"suitIndex": s, "rank": r}))
        .collect();
    let play = |order: usize| serde_json::json!({"type": 0, "target": order});
    let actions = vec![play(0), play(5), play(1), play(6), play(2)];
    let game = serde_json::json!({
        "players": ["Alice", "Bob"],
        "deck": cards,
        "actions": actions,
        "options": {"variant": name},
    });
    let file = TempFile::with_text("up-or-down-strike.json", &game.to_string());
    let out = run(&["replay", file.path(), "--json"]);
    assert!(out.status.success(), "{out:?}");
    let replay: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // START, g1, r3 (a strike), g2, r2: red START 2, green 1 2.
    assert_eq!(replay["score"], 4, "{replay}");
    let said: Vec<&str> = replay["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["action"].as_str().unwrap())
        .collect();
    assert!(
        said[2].contains(" r3 (slot ") && said[2].ends_with("): misplay (strike 1)"),
        "{said:?}"
    );
    assert!(!said[4].contains("misplay"), "{said:?}");
}
