//! The four hanab.live families that change clue tokens rather than how cards are played:
//! Throw It in a Hole (a finished stack gives no token), Clue Starved (a discard or a finished
//! stack gives half a token), Orange and Dark Orange (discarding is legal at the maximum; with
//! every card known the swapped buttons reach the same outcomes as plain plays and discards)
//! and Alternating Clues (a clue must not repeat the last clue's type).
//!
//! The expectations come from [`Referee`], a plain game written here from `HANABLIVE.md` over
//! deck orders, counting tokens in the site's own units (16 half tokens in Clue Starved), with
//! clue touching from the catalogue's facts. With it:
//! - along random games, the state's tokens, last clue type and legal actions are the referee's;
//! - on tiny decks of each family the solver's answer is the brute force's over the referee,
//!   with every pruning rule on, each on alone, and all off, and each optimal line replays
//!   through the referee to its score;
//! - solved seeds export games that the referee and `replay` play to the solver's score;
//! - hand-written exports break each family's rule and are refused (or, in Orange, accepted).

mod common;

use std::collections::HashMap;
use std::rc::Rc;

use common::{
    clues_of, facts, fails, run, site_cards, touches, Clue, Limits, Rng, SiteCard, TempFile,
};
use hanabi_solver::game::card::Card;
use hanabi_solver::game::catalogue::VariantFacts;
use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::search::{solve, SolveConfig, Tuning};
use hanabi_solver::seed::shuffle_for_seed;
use hanabi_solver::state::{Action, Deal, State};
use serde_json::{json, Value};

/// Variants of the four families, with special suits whose clue touching interacts with them
/// (a Brown card takes no rank clue, a White one no colour clue, a Null one neither: in
/// Alternating Clues which of them a hand holds decides which clue type can follow).
const FAMILIES: [&str; 10] = [
    "Throw It in a Hole (5 Suits)",
    "Clue Starved (5 Suits)",
    "Clue Starved & White (6 Suits)",
    "Orange (5 Suits)",
    "Dark Orange (5 Suits)",
    "Alternating Clues (5 Suits)",
    "Alternating Clues & Brown (5 Suits)",
    "Alternating Clues & White (5 Suits)",
    "Alternating Clues & Null (5 Suits)",
    "Alternating Clues & Orange (5 Suits)",
];

/// The token rules of `HANABLIVE.md` ("Play-rule families"), in the site's units: Clue Starved
/// counts half tokens (start and maximum 16, a clue 2, a discard or finished stack 1).
#[derive(Clone, Copy, Debug)]
struct Economy {
    per_token: u8,
    clue: u8,
    discard: u8,
    finish: u8,
    discard_at_max: bool,
    alternating: bool,
}

fn economy(f: &VariantFacts) -> Economy {
    let starved = f.flags.clue_starved;
    Economy {
        per_token: if starved { 2 } else { 1 },
        clue: if starved { 2 } else { 1 },
        discard: 1,
        finish: if f.flags.throw_it_in_a_hole { 0 } else { 1 },
        discard_at_max: f.suits.iter().any(|s| s.inverted),
        alternating: f.flags.alternating_clues,
    }
}

/// A plain referee over deck orders, with the family's token rules (see the module notes). It
/// plays by the rule book's end (RULES.md: the last strike scores 0, the game goes on while the
/// score can still change), as the solver does.
#[derive(Clone, Debug)]
struct Referee {
    f: Rc<VariantFacts>,
    economy: Economy,
    limits: Limits,
    deck: Vec<SiteCard>,
    hands: Vec<Vec<usize>>,
    drawn: usize,
    stacks: Vec<u8>,
    /// Tokens in the site's units.
    units: u8,
    max_units: u8,
    strikes: u8,
    turn: usize,
    final_turns: Option<usize>,
    lost: Vec<usize>,
    /// The type of the last clue (`true` colour), kept in Alternating Clues.
    last: Option<bool>,
    over: bool,
}

impl Referee {
    fn new(f: &VariantFacts, deck: &[SiteCard], limits: Limits) -> Referee {
        let (n, h) = (limits.players, limits.hand_size);
        let economy = economy(f);
        let max_units = limits.tokens * economy.per_token;
        Referee {
            f: Rc::new(f.clone()),
            economy,
            limits,
            deck: deck.to_vec(),
            hands: (0..n).map(|p| (p * h..(p + 1) * h).collect()).collect(),
            drawn: n * h,
            stacks: vec![0; f.suits.len()],
            units: max_units,
            max_units,
            strikes: 0,
            turn: 0,
            final_turns: None,
            lost: Vec::new(),
            last: None,
            over: false,
        }
    }

    fn score(&self) -> u32 {
        if self.strikes >= self.limits.max_strikes {
            0
        } else {
            self.stacks.iter().map(|&h| u32::from(h)).sum()
        }
    }

    fn clue_legal(&self, target: usize, clue: Clue) -> bool {
        self.units >= self.economy.clue
            && target < self.limits.players
            && target != self.turn
            && !(self.economy.alternating && self.last == Some(clue.is_colour()))
            && self.hands[target]
                .iter()
                .any(|&o| touches(&self.f, clue, self.deck[o]))
    }

    /// Every legal clue of the player to move, as (target, clue).
    fn legal_clues(&self) -> Vec<(usize, Clue)> {
        let mut out = Vec::new();
        for target in 0..self.limits.players {
            for clue in clues_of(&self.f) {
                if self.clue_legal(target, clue) {
                    out.push((target, clue));
                }
            }
        }
        out
    }

    fn discard_legal(&self) -> bool {
        self.units < self.max_units || self.economy.discard_at_max
    }

    fn play_or_discard(&mut self, order: usize, play: bool) -> Result<(), String> {
        let mover = self.turn;
        let slot = self.hands[mover]
            .iter()
            .position(|&o| o == order)
            .ok_or_else(|| format!("card {order} is not in seat {mover}'s hand"))?;
        let (s, r) = self.deck[order];
        if play {
            if self.stacks[s] + 1 == r {
                self.stacks[s] = r;
                if r == self.f.stack_size {
                    self.units = (self.units + self.economy.finish).min(self.max_units);
                }
            } else {
                self.strikes += 1;
                self.lost.push(order);
            }
        } else {
            if !self.discard_legal() {
                return Err("a discard with every clue token available".into());
            }
            self.units = (self.units + self.economy.discard).min(self.max_units);
            self.lost.push(order);
        }
        self.hands[mover].remove(slot);
        if self.drawn < self.deck.len() {
            self.hands[mover].push(self.drawn);
            self.drawn += 1;
            if self.drawn == self.deck.len() {
                self.final_turns = Some(self.limits.players + 1);
            }
        }
        Ok(())
    }

    fn clue(&mut self, target: usize, clue: Clue) -> Result<(), String> {
        if !self.clue_legal(target, clue) {
            return Err(format!("{clue:?} to seat {target} is not legal"));
        }
        self.units -= self.economy.clue;
        if self.economy.alternating {
            self.last = Some(clue.is_colour());
        }
        Ok(())
    }

    fn step(&mut self, a: &Value) -> Result<(), String> {
        if self.over {
            return Err("the game is already over".into());
        }
        let target = a["target"].as_u64().ok_or("no target")? as usize;
        let value = a["value"].as_u64().unwrap_or(0);
        match a["type"].as_i64() {
            Some(0) => self.play_or_discard(target, true)?,
            Some(1) => self.play_or_discard(target, false)?,
            Some(2) => self.clue(target, Clue::Colour(value as usize))?,
            Some(3) => self.clue(target, Clue::Rank(value as u8))?,
            other => return Err(format!("unexpected action type {other:?}")),
        }
        self.after_action();
        Ok(())
    }

    fn after_action(&mut self) {
        if self.strikes >= self.limits.max_strikes
            || self.stacks.iter().all(|&h| h == self.f.stack_size)
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

    /// The positions one action away: (what it was, the position after it).
    fn children(&self) -> Vec<(String, Referee)> {
        let mut out = Vec::new();
        for &order in &self.hands[self.turn] {
            for play in [true, false] {
                let mut next = self.clone();
                if next.play_or_discard(order, play).is_ok() {
                    next.after_action();
                    out.push((
                        format!("{} {order}", if play { "play" } else { "discard" }),
                        next,
                    ));
                }
            }
        }
        for (target, clue) in self.legal_clues() {
            let mut next = self.clone();
            next.clue(target, clue).unwrap();
            next.after_action();
            out.push((format!("clue {target} {clue:?}"), next));
        }
        out
    }

    fn key(&self) -> Vec<u8> {
        let card = |o: usize| (self.deck[o].0 * 8) as u8 + self.deck[o].1;
        let mut key = vec![
            self.drawn as u8,
            self.units,
            self.strikes,
            self.turn as u8,
            self.final_turns.map_or(u8::MAX, |k| k as u8),
            self.last.map_or(2, u8::from),
        ];
        key.extend(&self.stacks);
        for hand in &self.hands {
            let mut cards: Vec<u8> = hand.iter().map(|&o| card(o)).collect();
            cards.sort_unstable();
            key.push(u8::MAX);
            key.extend(cards);
        }
        let mut lost: Vec<u8> = self.lost.iter().map(|&o| card(o)).collect();
        lost.sort_unstable();
        key.push(u8::MAX);
        key.extend(lost);
        key
    }
}

/// The best score of any line from `r`: plain memoised search over every action, every clue
/// to every target included.
fn brute(r: &Referee, memo: &mut HashMap<Vec<u8>, u32>) -> u32 {
    if r.over {
        return r.score();
    }
    let key = r.key();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    // Clues of one type lead to the same position whoever they touch: each position once.
    let mut seen = std::collections::HashSet::new();
    let v = r
        .children()
        .iter()
        .filter(|(_, next)| seen.insert(next.key()))
        .map(|(_, next)| brute(next, memo))
        .max()
        .expect("a player to move has an action");
    memo.insert(key, v);
    v
}

/// A two- or three-suit copy of a variant with stacks of `stack` cards: its first suit, and its
/// last (the family's own suit: Orange, Brown, White, Null, ...).
fn tiny(name: &str, suits: usize, stack: u8) -> VariantFacts {
    common::cut_facts(name, suits, stack)
}

fn rules_for(f: &VariantFacts, limits: Limits) -> Rules {
    let options = Options {
        hand_size: Some(limits.hand_size as u8),
        clues: Some(limits.tokens),
        strikes: Some(limits.max_strikes),
        ..Options::default()
    };
    Rules::new(
        Variant::from_facts(f).unwrap(),
        limits.players as u8,
        &options,
    )
    .unwrap()
}

fn deal_for(f: &VariantFacts, deck: &[SiteCard], limits: Limits) -> (Deal, State) {
    let cards: Vec<Card> = deck.iter().map(|&(s, r)| Card::new(s as u8, r)).collect();
    Deal::from_deck(rules_for(f, limits), &cards).unwrap()
}

/// Plays the solver's line through the referee (a typed or untyped clue becomes the first
/// legal clue of that type) and returns its final score.
fn referee_score_of_line(
    f: &VariantFacts,
    deck: &[SiteCard],
    limits: Limits,
    line: &[Action],
) -> u32 {
    let mut r = Referee::new(f, deck, limits);
    for (i, &a) in line.iter().enumerate() {
        assert!(!r.over, "turn {}: the game is over", i + 1);
        let hand = r.hands[r.turn].clone();
        let done = match a {
            Action::Play(k) => r.play_or_discard(hand[k as usize], true),
            Action::Discard(k) => r.play_or_discard(hand[k as usize], false),
            Action::Clue | Action::ColourClue | Action::RankClue => {
                let want = match a {
                    Action::ColourClue => Some(true),
                    Action::RankClue => Some(false),
                    _ => None,
                };
                let clue = r
                    .legal_clues()
                    .into_iter()
                    .find(|(_, c)| want.is_none_or(|w| w == c.is_colour()));
                match clue {
                    Some((target, clue)) => r.clue(target, clue),
                    None => Err(format!("no legal clue for {a:?}")),
                }
            }
            Action::DeckPlay => Err("deck plays are off".into()),
        };
        done.unwrap_or_else(|e| panic!("turn {}: {a:?}: {e}", i + 1));
        r.after_action();
    }
    assert!(r.over, "the line ends the game");
    r.score()
}

/// The solver's configuration for tiny decks: every rule on, a small table.
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

/// A random tiny deal of a family: its facts, deck and limits (at most 12 cards).
fn tiny_deal(rng: &mut Rng, name: &str) -> (VariantFacts, Vec<SiteCard>, Limits) {
    loop {
        let f = tiny(name, rng.range(2, 3) as usize, rng.range(2, 3) as u8);
        let mut deck = f.deck();
        if deck.len() > 12 {
            continue;
        }
        rng.shuffle(&mut deck);
        let limits = random_limits(rng);
        if limits.players * limits.hand_size > deck.len() {
            continue;
        }
        return (f, deck, limits);
    }
}

/// The same facts without the family's token rules, to show the rules change answers.
fn standard(f: &VariantFacts) -> VariantFacts {
    let mut g = f.clone();
    g.flags.throw_it_in_a_hole = false;
    g.flags.clue_starved = false;
    g.flags.alternating_clues = false;
    for s in &mut g.suits {
        s.inverted = false;
    }
    g
}

#[test]
fn the_families_token_rules_are_the_notes() {
    for name in FAMILIES {
        let f = facts(name);
        let v = Variant::by_id(f.id).unwrap();
        let t = v.tokens();
        let e = economy(f);
        assert_eq!(
            (t.scale, t.clue_cost, t.discard_gain, t.stack_gain),
            (e.per_token, e.clue, e.discard, e.finish),
            "{name}"
        );
        assert_eq!(
            (t.discard_at_max, t.alternating),
            (e.discard_at_max, e.alternating)
        );
        let rules = Rules::new(v, 2, &Options::default()).unwrap();
        assert_eq!(rules.max_clues, 8 * e.per_token, "{name}");
        assert_eq!(rules.max_tokens(), 8, "{name}");
    }
}

/// Along random games of tiny and full decks, the state's tokens, last clue type and legal
/// actions are the referee's at every turn.
#[test]
fn states_follow_the_referee_along_random_games() {
    let mut rng = Rng(0x70_4e_75);
    let mut actions_seen: HashMap<&str, usize> = HashMap::new();
    for name in FAMILIES {
        for game in 0..40 {
            let (f, deck, limits) = if game % 4 == 0 {
                let f = facts(name).clone();
                let mut deck = f.deck();
                rng.shuffle(&mut deck);
                (f, deck, Limits::site(rng.range(2, 5) as usize))
            } else {
                tiny_deal(&mut rng, name)
            };
            let (deal, mut s) = deal_for(&f, &deck, limits);
            let mut r = Referee::new(&f, &deck, limits);
            loop {
                assert_eq!(s.is_over(), r.over, "{name} game {game}");
                if r.over {
                    assert_eq!(
                        u32::from(s.score(&deal.rules)),
                        r.score(),
                        "{name} game {game}"
                    );
                    break;
                }
                assert_eq!(s.clues, r.units, "{name} game {game}");
                assert_eq!(s.turn as usize, r.turn);
                let legal = s.legal_actions(&deal);
                // The referee's legal actions, in the state's terms.
                let hand = r.hands[r.turn].clone();
                let mut want = Vec::new();
                for (k, &o) in hand.iter().enumerate() {
                    want.push(Action::Play(k as u8));
                    let mut t = r.clone();
                    if t.play_or_discard(o, false).is_ok() {
                        want.push(Action::Discard(k as u8));
                    }
                }
                let clues = r.legal_clues();
                if r.economy.alternating {
                    for (colour, a) in [(true, Action::ColourClue), (false, Action::RankClue)] {
                        if clues.iter().any(|(_, c)| c.is_colour() == colour) {
                            want.push(a);
                        }
                    }
                } else if !clues.is_empty() {
                    want.push(Action::Clue);
                }
                let mut got = legal.to_vec();
                got.sort_by_key(|a| format!("{a:?}"));
                want.sort_by_key(|a| format!("{a:?}"));
                assert_eq!(got, want, "{name} game {game}: {s:?}");
                // A random legal action, mostly useful ones so games last.
                let a = legal[rng.below(legal.len() as u64) as usize];
                *actions_seen.entry(name).or_default() += 1;
                match a {
                    Action::Play(k) => r.play_or_discard(hand[k as usize], true).unwrap(),
                    Action::Discard(k) => r.play_or_discard(hand[k as usize], false).unwrap(),
                    _ => {
                        let colour = match a {
                            Action::ColourClue => Some(true),
                            Action::RankClue => Some(false),
                            _ => None,
                        };
                        let (t, c) = *clues
                            .iter()
                            .find(|(_, c)| colour.is_none_or(|w| w == c.is_colour()))
                            .unwrap();
                        r.clue(t, c).unwrap();
                    }
                }
                r.after_action();
                s = s.apply(&deal, a).unwrap();
            }
        }
    }
    assert!(actions_seen.values().all(|&n| n > 200), "{actions_seen:?}");
}

/// The solver with all its rules against the brute force, on tiny decks of every family; each
/// optimal line replays through the referee to its score. Each family's rule must change the
/// answer of some deals (against the same deal under the standard token rules), or the
/// comparison would not show the rule is followed.
#[test]
fn tiny_decks_of_every_family_solve_to_the_brute_force_answer() {
    let mut rng = Rng(0x70_4e_76);
    for name in FAMILIES {
        let mut changed = 0;
        let mut game = 0;
        // At least 40 deals, and more (up to 600) until the rule has mattered in one.
        // Clue Starved's half tokens must matter on some deal, and so must alternation where
        // a hand can hold cards only one clue type touches (Brown, White). Where every
        // card takes both types, the alternation never takes a clue away: with every card known
        // a clue is a pass, and the other type is always there. Orange's discard at the
        // maximum and Throw It in a Hole's missing token rarely matter on decks this small
        // (see the next test for the hole).
        let must_matter = name.contains("Starved")
            || (name.contains("Alternating")
                && ["Brown", "White"].iter().any(|s| name.contains(s)));
        while game < 40 || (must_matter && changed == 0 && game < 600) {
            game += 1;
            let (f, deck, limits) = tiny_deal(&mut rng, name);
            let expected = brute(&Referee::new(&f, &deck, limits), &mut HashMap::new());
            let (deal, start) = deal_for(&f, &deck, limits);
            let got = solve(&deal, &start, &small());
            assert!(got.proven, "{name} game {game}");
            assert_eq!(
                u32::from(got.max_score),
                expected,
                "{name} game {game}: {limits:?} deck {deck:?}"
            );
            let line_score = referee_score_of_line(&f, &deck, limits, &got.line);
            assert_eq!(line_score, expected, "{name} game {game}: the line's score");
            // Until the rule has mattered once.
            if must_matter && changed == 0 {
                let plain = standard(&f);
                if brute(&Referee::new(&plain, &deck, limits), &mut HashMap::new()) != expected {
                    changed += 1;
                }
            }
        }
        println!(
            "{name}: {game} deals; the rule changed an answer: {}",
            changed > 0
        );
        if must_matter {
            assert!(changed > 0, "{name}: the family's rule never mattered");
        }
    }
}

/// Two 14-card deals (hands of one card) where the token a finished stack gives changes the
/// answer, found among 3,000 random small deals: without it the team scores less in one and,
/// in the other, more (at the maximum a discard is illegal, so the token can force a clue or a
/// play). The brute force shows the difference and the solver follows it.
#[test]
fn throw_it_in_a_hole_changes_these_deals() {
    let cases: [(usize, u8, u8, &[SiteCard]); 2] = [
        (
            2,
            2,
            1,
            &[
                (1, 1),
                (0, 3),
                (1, 2),
                (0, 3),
                (1, 1),
                (1, 3),
                (0, 1),
                (1, 2),
                (0, 1),
                (1, 3),
                (1, 1),
                (0, 1),
                (0, 2),
                (0, 2),
            ],
        ),
        (
            3,
            1,
            1,
            &[
                (0, 1),
                (0, 1),
                (1, 2),
                (0, 2),
                (0, 2),
                (1, 2),
                (0, 3),
                (1, 3),
                (0, 1),
                (1, 1),
                (1, 3),
                (0, 3),
                (1, 1),
                (1, 1),
            ],
        ),
    ];
    let name = "Throw It in a Hole (5 Suits)";
    let mut signs = Vec::new();
    for (players, tokens, max_strikes, deck) in cases {
        let mut f = facts(name).clone();
        f.suits.truncate(2);
        f.clue_colors.truncate(2);
        f.stack_size = 3;
        f.clue_ranks.retain(|&r| r <= 3);
        let limits = Limits {
            players,
            hand_size: 1,
            tokens,
            max_strikes,
        };
        let hole = brute(&Referee::new(&f, deck, limits), &mut HashMap::new());
        let plain = brute(
            &Referee::new(&standard(&f), deck, limits),
            &mut HashMap::new(),
        );
        assert_ne!(hole, plain, "{deck:?}");
        signs.push(hole > plain);
        let (deal, start) = deal_for(&f, deck, limits);
        let got = solve(&deal, &start, &small());
        assert!(got.proven);
        assert_eq!(u32::from(got.max_score), hole, "{deck:?}");
        assert_eq!(referee_score_of_line(&f, deck, limits, &got.line), hole);
    }
    assert_eq!(signs, [false, true]);
}

/// A tiny Alternating Clues & White deal (found among 4,000 random ones) where dead cards must
/// keep apart by the clue types that touch them: a dead White card takes only rank clues, a
/// dead Red one both, so after a rank clue a hand of dead White cards can take no clue. While
/// the table key wrote every dead card as one trash code, the solver answered 5 here.
#[test]
fn alternating_clues_keep_dead_cards_apart_by_clue_type() {
    let name = "Alternating Clues & White (5 Suits)";
    let f = tiny(name, 2, 3);
    let deck: &[SiteCard] = &[
        (0, 3),
        (1, 2),
        (1, 1),
        (1, 3),
        (1, 2),
        (0, 3),
        (0, 1),
        (0, 1),
        (1, 1),
        (0, 2),
        (0, 2),
        (0, 1),
        (1, 1),
        (1, 3),
    ];
    let limits = Limits {
        players: 2,
        hand_size: 1,
        tokens: 2,
        max_strikes: 2,
    };
    let expected = brute(&Referee::new(&f, deck, limits), &mut HashMap::new());
    assert_eq!(expected, 6, "the brute force's answer");
    let (deal, start) = deal_for(&f, deck, limits);
    let got = solve(&deal, &start, &small());
    assert!(got.proven);
    assert_eq!(u32::from(got.max_score), expected);
    assert_eq!(referee_score_of_line(&f, deck, limits, &got.line), expected);
}

/// Whole decks: where every card takes both clue types, the alternation never takes a clue
/// away (with every card known a clue is a pass, and the other type is always there), so
/// Alternating Clues (6 Suits) scores each deck as 6 Suits does; Orange (6 Suits) differs from
/// 6 Suits only by allowing a discard at the maximum, which can only help.
#[test]
fn whole_decks_compare_with_six_suits() {
    let six = facts("6 Suits");
    let config = SolveConfig {
        time_limit: Some(std::time::Duration::from_secs(20)),
        tt_mb: 256,
        ..SolveConfig::default()
    };
    let mut compared = 0;
    let mut below_perfect = 0;
    // 2-player seeds that the `results/` rows found not winnable, and seeds 1..6 of 3 players.
    let cases: [(&str, bool, &[u32]); 2] = [
        (
            "Alternating Clues (6 Suits)",
            true,
            &[189, 301, 324, 360, 390, 391, 401, 415],
        ),
        (
            "Orange (6 Suits)",
            false,
            &[36, 142, 150, 190, 195, 329, 339, 221],
        ),
    ];
    for (name, equal, lost) in cases {
        let f = facts(name);
        let seeds = lost.iter().map(|&n| (2, n)).chain((1..=6).map(|n| (3, n)));
        for (players, n) in seeds {
            let deck = seed_deck(f, &format!("p{players}v{}s{n}", f.id));
            let limits = Limits::site(players);
            let (deal, start) = deal_for(f, &deck, limits);
            let got = solve(&deal, &start, &config);
            let (plain_deal, plain_start) = deal_for(six, &deck, limits);
            let plain = solve(&plain_deal, &plain_start, &config);
            if !(got.proven && plain.proven) {
                continue;
            }
            if equal {
                assert_eq!(got.max_score, plain.max_score, "{name} p{players} s{n}");
            } else {
                assert!(got.max_score >= plain.max_score, "{name} p{players} s{n}");
            }
            below_perfect += usize::from(got.max_score < 30);
            compared += 1;
        }
    }
    assert!(
        compared >= 25 && below_perfect >= 12,
        "{compared} {below_perfect}"
    );
}

/// Each pruning rule alone, all of them, and none: the answers stay the brute force's in every
/// family.
#[test]
fn each_pruning_rule_keeps_answers_in_every_family() {
    let mut tunings = common::pruning_switches();
    tunings.push(Tuning::FULL);
    let mut rng = Rng(0x70_4e_77);
    for name in FAMILIES {
        for game in 0..12 {
            let (f, deck, limits) = tiny_deal(&mut rng, name);
            let expected = brute(&Referee::new(&f, &deck, limits), &mut HashMap::new());
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
                    "{name} game {game}, tuning {i}: {limits:?} deck {deck:?}"
                );
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Game exports.

fn seed_deck(f: &VariantFacts, seed: &str) -> Vec<SiteCard> {
    let mut deck = f.deck();
    shuffle_for_seed(seed, &mut deck);
    deck
}

/// Solved seeds of every family export lines that the referee and `replay` play legally to
/// the solver's score.
#[test]
fn solved_seeds_export_lines_that_replay_to_the_solvers_score() {
    let mut kinds_seen: HashMap<&str, [usize; 4]> = HashMap::new();
    for name in FAMILIES {
        let f = facts(name);
        for players in [2, 4] {
            let seed = format!("p{players}v{}s2", f.id);
            let file = TempFile::new(&format!("{seed}.json"));
            let out = run(&["solve", &seed, "--export", file.path(), "--json"]);
            assert!(out.status.success(), "{seed}: {out:?}");
            let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(answer["proven"], true, "{seed}");
            let score = answer["max_score"].as_u64().unwrap() as u32;
            let game: Value =
                serde_json::from_str(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
            assert_eq!(game["options"]["variant"], name, "{seed}");
            let deck = site_cards(&game["deck"]);
            assert_eq!(deck, seed_deck(f, &seed), "{seed}");
            let mut referee = Referee::new(f, &deck, Limits::site(players));
            let actions = game["actions"].as_array().unwrap();
            for (i, a) in actions.iter().enumerate() {
                if a["type"] == 4 {
                    break;
                }
                let kind = a["type"].as_u64().unwrap() as usize;
                kinds_seen.entry(name).or_default()[kind] += 1;
                referee
                    .step(a)
                    .unwrap_or_else(|e| panic!("{seed}: turn {}: {a}: {e}", i + 1));
            }
            let out = run(&["replay", file.path(), "--json"]);
            assert!(out.status.success(), "{seed}: replay: {out:?}");
            let replay: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(replay["score"], score, "{seed}: replay's score");
            // The export may stop where hanab.live ends the game, before the rule book's end.
            assert_eq!(referee.score(), score, "{seed}: the referee's score");
        }
    }
    println!("export action types per family: {kinds_seen:?}");
    for name in FAMILIES {
        let [_, _, colour, rank] = kinds_seen[name];
        assert!(colour + rank > 0, "{name}: the lines give clues");
        if name.starts_with("Alternating") {
            assert!(colour > 0 && rank > 0, "{name}: both clue types are used");
        }
    }
}

/// The deck of seed `p2v{ID}s1` of `name`.
fn site_deck(name: &str) -> Vec<SiteCard> {
    let f = facts(name);
    seed_deck(f, &format!("p2v{}s1", f.id))
}

/// A two-player export of `name` with this deck and these actions.
fn game_file(name: &str, deck: &[SiteCard], actions: &[Value]) -> TempFile {
    let cards: Vec<Value> = deck
        .iter()
        .map(|&(s, r)| json!({"suitIndex": s, "rank": r}))
        .collect();
    let game = json!({
        "players": ["Alice", "Bob"],
        "deck": cards,
        "actions": actions,
        "options": {"variant": name},
    });
    let tag: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
    TempFile::with_text(&format!("{tag}-{}.json", actions.len()), &game.to_string())
}

/// A clue to `target` of the type asked for that touches a card of the hand `cards` (seat
/// `target` holds deck orders `5 * target ..`), by the catalogue's facts.
fn clue_touching(name: &str, deck: &[SiteCard], target: usize, colour: bool) -> Value {
    let f = facts(name);
    let hand = &deck[5 * target..5 * target + 5];
    let clue = clues_of(f)
        .into_iter()
        .filter(|c| c.is_colour() == colour)
        .find(|&c| hand.iter().any(|&card| touches(f, c, card)))
        .expect("a clue of that type touches the hand");
    match clue {
        Clue::Colour(c) => json!({"type": 2, "target": target, "value": c}),
        Clue::Rank(r) => json!({"type": 3, "target": target, "value": r}),
    }
}

fn replay_score(file: &TempFile) -> Value {
    let out = run(&["replay", file.path(), "--json"]);
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn alternating_clues_refuse_a_repeated_clue_type() {
    let name = "Alternating Clues (5 Suits)";
    let deck = site_deck(name);
    let colour_to_bob = clue_touching(name, &deck, 1, true);
    let colour_to_alice = clue_touching(name, &deck, 0, true);
    let rank_to_alice = clue_touching(name, &deck, 0, false);
    let ok = game_file(name, &deck, &[colour_to_bob.clone(), rank_to_alice]);
    assert_eq!(replay_score(&ok)["turns"].as_array().unwrap().len(), 2);
    let both = [colour_to_bob, colour_to_alice];
    let bad = game_file(name, &deck, &both);
    let e = fails(&["replay", bad.path()]);
    assert!(e.contains("turn 2") && e.contains("alternate"), "{e}");
    // The same two colour clues on the same deck are fine without the rule.
    let fine = game_file("No Variant", &deck, &both);
    replay_score(&fine);
}

#[test]
fn clue_starved_needs_a_whole_token_for_a_clue() {
    let name = "Clue Starved (5 Suits)";
    let deck = site_deck(name);
    // Eight clues spend all 8 tokens (16 half tokens), then a discard gives back half a token.
    let mut actions = Vec::new();
    for k in 0..8 {
        actions.push(clue_touching(name, &deck, (k + 1) % 2, false));
    }
    // Alice is to move (turn 9): she discards her oldest card (deck order 0).
    actions.push(json!({"type": 1, "target": 0}));
    let mut short = actions.clone();
    short.push(clue_touching(name, &deck, 0, false));
    let bad = game_file(name, &deck, &short);
    let e = fails(&["replay", bad.path()]);
    assert!(e.contains("turn 10") && e.contains("whole token"), "{e}");
    // In No Variant the discard gave a whole token: the same clue is legal.
    let plain = game_file("No Variant", &deck, &short);
    assert_eq!(replay_score(&plain)["turns"].as_array().unwrap().len(), 10);
    // A second discard (Bob, deck order 5) makes a whole token: the clue is legal.
    actions.push(json!({"type": 1, "target": 5}));
    actions.push(clue_touching(name, &deck, 1, false));
    let ok = game_file(name, &deck, &actions);
    assert_eq!(replay_score(&ok)["turns"].as_array().unwrap().len(), 11);
}

#[test]
fn orange_allows_a_discard_with_every_token() {
    let discard = [json!({"type": 1, "target": 0})];
    let deck = site_deck("Orange (5 Suits)");
    let ok = game_file("Orange (5 Suits)", &deck, &discard);
    let v = replay_score(&ok);
    assert_eq!(v["turns"].as_array().unwrap().len(), 1);
    let bad = game_file("No Variant", &deck, &discard);
    let e = fails(&["replay", bad.path()]);
    assert!(e.contains("turn 1"), "{e}");
    // Clue Starved counts half tokens, but speaks of whole ones.
    let bad = game_file("Clue Starved (5 Suits)", &deck, &discard);
    let e = fails(&["replay", bad.path()]);
    assert!(e.contains("all 8 clue tokens"), "{e}");
}

/// In Throw It in a Hole a seat does not see its own played cards, so its view is refused
/// once it has played one; before that it is given.
#[test]
fn throw_it_in_a_hole_refuses_a_seat_view_after_its_own_play() {
    let name = "Throw It in a Hole (5 Suits)";
    let file = game_file(
        name,
        &site_deck(name),
        &[
            json!({"type": 0, "target": 0}),
            json!({"type": 0, "target": 5}),
        ],
    );
    let e = fails(&[
        "solve",
        file.path(),
        "--turn",
        "3",
        "--view",
        "seat=Alice",
        "--samples",
        "5",
    ]);
    assert!(e.contains("hidden"), "{e}");
    let out = run(&[
        "solve",
        file.path(),
        "--turn",
        "1",
        "--view",
        "seat=Alice",
        "--samples",
        "5",
    ]);
    assert!(out.status.success(), "{out:?}");
}

/// Position files in Clue Starved count tokens with halves, and Alternating Clues positions
/// name the last clue's type; both read back as written.
#[test]
fn positions_keep_half_tokens_and_the_last_clue_type() {
    for (seed, turn) in [
        ("p2v52s3", "21"),
        ("p2v52s3", "22"),
        ("p2v284s2", "9"),
        ("p2v284s2", "10"),
    ] {
        let file = TempFile::new(&format!("{seed}-{turn}.hanabi"));
        let out = run(&[
            "solve",
            seed,
            "--write-position",
            file.path(),
            "--write-turn",
            turn,
            "--json",
        ]);
        assert!(out.status.success(), "{out:?}");
        let text = std::fs::read_to_string(file.path()).unwrap();
        if seed.contains("v284") {
            assert!(text.contains("last-clue: "), "{text}");
        }
        let again = run(&["solve", file.path(), "--json"]);
        assert!(again.status.success(), "{seed} {turn}: {again:?}\n{text}");
        let v: Value = serde_json::from_slice(&again.stdout).unwrap();
        assert_eq!(v["proven"], true);
    }
    let bad = TempFile::with_text(
        "half.hanabi",
        "variant: No Variant\nplayers: 2\nclues: 3.5\nstrikes: 0\nstacks: r0 y0 g0 b0 p0\ndiscards:\nhand Alice: r1 r1 r1 y1 y1\nhand Bob: g1 g1 g1 b1 b1\ndeck: p1\nturn: Alice\n",
    );
    let e = fails(&["solve", bad.path()]);
    assert!(e.contains("3.5"), "{e}");
    // An out-of-range max-clues in Clue Starved is one fault, not an overflow.
    let bad = TempFile::with_text(
        "max.hanabi",
        "variant: Clue Starved (5 Suits)\nplayers: 2\nclues: 3.5\nmax-clues: 200\nstrikes: 0\nstacks: r0 y0 g0 b0 p0\ndiscards:\nhand Alice: r1 r1 r1 y1 y1\nhand Bob: g1 g1 g1 b1 b1\ndeck: p1\nturn: Alice\n",
    );
    let e = fails(&["solve", bad.path()]);
    assert!(e.contains("max-clues must be 1 to 15"), "{e}");
}
