//! Exact values with a hidden draw pile (`solve FILE --exact`): agreement with a deliberately
//! simple expectimax on random tiny research decks, bounds against the open game, limits, and
//! the command line.

use std::collections::HashMap;

mod common;

use common::{fails, permutations, random_tiny_game, reference, run, Rng, TempFile};
use hanabi_solver::game::card::Card;
use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::hidden::exact::orders;
use hanabi_solver::hidden::team::{team, FirstMove, TeamConfig, TotalBounds};
use hanabi_solver::hidden::worlds::MergeDead;
use hanabi_solver::hidden::{exact, ExactConfig, ExactError, Fraction};
use hanabi_solver::position::{self, Position, PositionFile};
use hanabi_solver::state::{Action, Deal, State};

/// A plain fraction for the reference (u128, always reduced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Q(u128, u128);

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Q {
    fn new(n: u128, d: u128) -> Q {
        let g = gcd(n, d).max(1);
        Q(n / g, d / g)
    }
    fn add(self, o: Q) -> Q {
        Q::new(self.0 * o.1 + o.0 * self.1, self.1 * o.1)
    }
    fn scale(self, n: u128, d: u128) -> Q {
        Q::new(self.0 * n, self.1 * d)
    }
    fn max(self, o: Q) -> Q {
        if self.0 * o.1 >= o.0 * self.1 {
            self
        } else {
            o
        }
    }
}

type Memo = HashMap<(State, Vec<Card>), (Q, Q)>;

/// The reference expectimax: whole states (hands sorted) plus the sorted multiset of hidden
/// cards left as the memo key, every legal action, each draw of a hidden slot a chance node
/// with probability copies / cards left, explicit fractions. Returns (win probability,
/// expected score), each maximised on its own.
fn expectimax(
    deal: &mut Deal,
    hidden_at: &[bool],
    state: &State,
    left: &mut Vec<Card>,
    memo: &mut Memo,
) -> (Q, Q) {
    let perfect = deal.rules.perfect_score();
    if state.is_over() {
        let s = state.score(&deal.rules) as u128;
        return (Q::new((s == perfect as u128) as u128, 1), Q::new(s, 1));
    }
    let key = (state.normalized(), left.clone());
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = (Q(0, 1), Q(0, 1));
    for a in state.legal_actions(deal) {
        let v = after(deal, hidden_at, state, a, left, memo);
        best = (best.0.max(v.0), best.1.max(v.1));
    }
    memo.insert(key, best);
    best
}

/// A random position of a tiny research game a few random moves in, with a random subset of
/// its draw pile hidden (sometimes all of it, sometimes none).
fn random_hidden_position(
    rng: &mut Rng,
    max_cards: usize,
    min_steps: u64,
) -> Option<(Position, Deal, State)> {
    let (_, _, deal, state) = random_tiny_game(rng, max_cards, None);
    hidden_position_of(rng, deal, state, min_steps)
}

/// A position `deal` reaches a few random moves after `state`, with a random subset of its draw
/// pile hidden.
fn hidden_position_of(
    rng: &mut Rng,
    deal: Deal,
    mut state: State,
    min_steps: u64,
) -> Option<(Position, Deal, State)> {
    let rules = deal.rules.clone();
    for _ in 0..rng.range(min_steps, min_steps + 5) {
        let actions = state.legal_actions(&deal);
        if actions.is_empty() {
            break;
        }
        state = state
            .apply(&deal, actions[rng.below(actions.len() as u64) as usize])
            .unwrap();
    }
    if state.is_over() {
        return None;
    }
    let names: Vec<String> = (0..rules.players).map(|p| format!("P{p}")).collect();
    let mut file = PositionFile::from_state(&deal, &state, &names);
    let mode = rng.below(4);
    for c in &mut file.deck {
        if mode <= 1 || (mode == 2 && rng.coin()) {
            *c = None;
        }
    }
    let pos = Position::new(&file).unwrap();
    Some((pos, deal, state))
}

/// The reference value after action `a`: a sum over the card drawn when it draws a hidden
/// card, each weighted by its copies over the cards left.
fn after(
    deal: &mut Deal,
    hidden_at: &[bool],
    state: &State,
    a: Action,
    left: &mut Vec<Card>,
    memo: &mut Memo,
) -> (Q, Q) {
    let at = state.drawn as usize;
    let draws = !a.is_clue() && at < deal.pile.len();
    if !(draws && hidden_at[at]) {
        let child = state.apply(deal, a).unwrap();
        return expectimax(deal, hidden_at, &child, left, memo);
    }
    let mut kinds = left.clone();
    kinds.dedup();
    let total = left.len() as u128;
    let mut sum = (Q(0, 1), Q(0, 1));
    for c in kinds {
        let copies = left.iter().filter(|&&x| x == c).count() as u128;
        deal.pile[at] = c;
        let child = state.apply(deal, a).unwrap();
        let i = left.iter().position(|&x| x == c).unwrap();
        left.remove(i);
        let (w, e) = expectimax(deal, hidden_at, &child, left, memo);
        left.insert(i, c);
        sum = (
            sum.0.add(w.scale(copies, total)),
            sum.1.add(e.scale(copies, total)),
        );
    }
    sum
}

/// The reference value of root action `k` of `pos`.
fn value_of(pos: &Position, k: usize, memo: &mut Memo) -> (Q, Q) {
    let (mut deal, state) = pos.fill(&pos.unseen()).unwrap();
    let hidden_at: Vec<bool> = pos.pile.iter().map(|c| c.is_none()).collect();
    let a = state.legal_actions(&deal)[k];
    let mut left = pos.unseen();
    left.sort_unstable();
    after(&mut deal, &hidden_at, &state, a, &mut left, memo)
}

fn q(f: Fraction) -> Q {
    Q(f.num, f.den)
}

/// Checks every move's exact values at `pos` (solved with `threads`) against the reference;
/// returns how many moves have a value that is not a whole number, and the hidden cards.
fn compare_with_expectimax(pos: &Position, threads: usize) -> (usize, usize) {
    let result = exact(
        pos,
        &ExactConfig {
            threads,
            ..ExactConfig::default()
        },
    )
    .unwrap();
    let (deal, state) = pos.fill(&pos.unseen()).unwrap();
    let actions = state.legal_actions(&deal);
    assert_eq!(result.moves.len(), actions.len());
    let mut memo = Memo::new();
    let mut fractional = 0;
    for m in &result.moves {
        let k = actions.iter().position(|&a| a == m.action).unwrap();
        let (w, e) = value_of(pos, k, &mut memo);
        let text = position::write(&deal, &state, &pos.names);
        assert_eq!(q(m.win_probability), w, "{} in\n{text}", m.name);
        assert_eq!(q(m.expected_score), e, "{} in\n{text}", m.name);
        if w.1 != 1 || e.1 != 1 {
            fractional += 1;
        }
    }
    (fractional, result.hidden)
}

#[test]
fn agrees_with_a_simple_expectimax_on_random_tiny_decks() {
    let mut rng = Rng(2026);
    let (mut checked, mut below_one, mut hidden_total) = (0, 0, 0);
    while checked < 600 {
        let Some((pos, _, _)) = random_hidden_position(&mut rng, 12, 2) else {
            continue;
        };
        // The reference is slow on big piles; keep it to a few thousand orders.
        let mut counts = [0u8; 30];
        pos.unseen().iter().for_each(|c| counts[c.kind()] += 1);
        if orders(&counts).unwrap() > 500 {
            continue;
        }
        let threads = 1 + (checked % 2);
        let (fractional, hidden) = compare_with_expectimax(&pos, threads);
        below_one += fractional;
        hidden_total += hidden;
        checked += 1;
    }
    // The sample must exercise real uncertainty, not only sure wins and sure losses.
    assert!(
        below_one >= 50,
        "only {below_one} moves with a value not a whole number"
    );
    assert!(
        hidden_total >= 400,
        "only {hidden_total} hidden cards in all"
    );
}

/// A random tiny game of a token family (Throw It in a Hole, Clue Starved, Orange, Alternating
/// Clues with Brown): the variant's first and last suits, stacks of 2 or 3.
fn random_family_game(rng: &mut Rng) -> (Deal, State) {
    const NAMES: [&str; 4] = [
        "Throw It in a Hole (5 Suits)",
        "Clue Starved (5 Suits)",
        "Orange (5 Suits)",
        "Alternating Clues & Brown (5 Suits)",
    ];
    loop {
        let name = NAMES[rng.below(4) as usize];
        let f = common::cut_facts(name, 2, rng.range(2, 3) as u8);
        let variant = Variant::from_facts(&f).unwrap();
        if variant.deck_size() > 12 {
            continue;
        }
        let options = Options {
            hand_size: Some(rng.range(1, 3) as u8),
            clues: Some(rng.range(1, 2) as u8),
            strikes: Some(rng.range(1, 3) as u8),
            ..Options::default()
        };
        let Ok(rules) = Rules::new(variant, rng.range(2, 3) as u8, &options) else {
            continue;
        };
        let mut deck = rules.variant.deck();
        rng.shuffle(&mut deck);
        return Deal::from_deck(rules, &deck).unwrap();
    }
}

/// The same comparison in the families that change clue tokens: half tokens, no token for a
/// finished stack, discards at the maximum, and clue types that alternate (the exact mode's
/// table key and move merging must keep them apart as the state does).
#[test]
fn agrees_with_a_simple_expectimax_in_the_token_families() {
    let mut rng = Rng(2027);
    let (mut checked, mut below_one) = (0, 0);
    while checked < 200 {
        let (deal, state) = random_family_game(&mut rng);
        let Some((pos, _, _)) = hidden_position_of(&mut rng, deal, state, 2) else {
            continue;
        };
        let mut counts = [0u8; 30];
        pos.unseen().iter().for_each(|c| counts[c.kind()] += 1);
        if orders(&counts).unwrap() > 500 {
            continue;
        }
        below_one += compare_with_expectimax(&pos, 1).0;
        checked += 1;
    }
    assert!(
        below_one >= 20,
        "only {below_one} moves with a value not a whole number"
    );
}

#[test]
fn nothing_hidden_gives_the_open_answer() {
    let mut rng = Rng(7);
    let mut checked = 0;
    while checked < 100 {
        let (rules, _deck, deal, state) = random_tiny_game(&mut rng, 12, None);
        let names: Vec<String> = (0..rules.players).map(|p| format!("P{p}")).collect();
        let pos = Position::new(&PositionFile::from_state(&deal, &state, &names)).unwrap();
        let result = exact(&pos, &ExactConfig::default()).unwrap();
        assert_eq!(result.orders, 1);
        let best = &result.moves[0];
        let open = reference(&deal, &state, &mut HashMap::new());
        assert_eq!(best.expected_score, Fraction::new(open as u128, 1));
        let won = open == rules.perfect_score();
        assert_eq!(best.win_probability, Fraction::new(won as u128, 1));
        checked += 1;
    }
}

#[test]
fn never_above_the_mean_of_the_open_games() {
    // Knowing the pile can only help: for each action, the exact expected score is at most the
    // mean over every order of the open game's best score after it.
    let mut rng = Rng(99);
    let mut checked = 0;
    while checked < 40 {
        let Some((pos, _, _)) = random_hidden_position(&mut rng, 12, 0) else {
            continue;
        };
        if pos.hidden() > 4 {
            continue;
        }
        let result = exact(&pos, &ExactConfig::default()).unwrap();
        let unseen = pos.unseen();
        let perms = permutations(&unseen);
        for m in &result.moves {
            let mut sum = 0u128;
            for p in &perms {
                let (deal, state) = pos.fill(p).unwrap();
                let child = state.apply(&deal, m.action).unwrap();
                sum += reference(&deal, &child, &mut HashMap::new()) as u128;
            }
            let open_mean = Q::new(sum, perms.len() as u128);
            let e = q(m.expected_score);
            assert!(e.0 * open_mean.1 <= open_mean.0 * e.1, "{}", m.name);
        }
        checked += 1;
    }
}

#[test]
fn orders_counts_distinct_arrangements() {
    assert_eq!(orders(&[]), Some(1));
    assert_eq!(orders(&[1; 8]), Some(40_320));
    assert_eq!(orders(&[2, 1, 1]), Some(12));
    assert_eq!(orders(&[3, 2]), Some(10));
    // By enumeration for small multisets.
    let cards = [
        Card::new(0, 1),
        Card::new(0, 1),
        Card::new(0, 2),
        Card::new(1, 1),
        Card::new(1, 1),
        Card::new(1, 1),
    ];
    let mut distinct = permutations(&cards);
    distinct.sort();
    distinct.dedup();
    assert_eq!(orders(&[2, 1, 3]), Some(distinct.len() as u128));
    // 50 different cards have 50! orders, more than a u128 holds.
    assert_eq!(orders(&[1; 50]), None);
    assert_eq!(orders(&[1; 34]), Some((1..=34u128).product()));
}

#[test]
fn hidden_hand_cards_and_huge_piles_are_refused() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hidden-pile.hanabi"),
    )
    .unwrap();
    let hand = text.replace("hand Bob: r1 y1", "hand Bob: r1 ?");
    let hand = hand.replace("deck: r1 y1 ? ? ? ?", "deck: ? y1 ? ? ? ?");
    let pos = position::read(&hand).unwrap();
    assert!(matches!(
        exact(&pos, &ExactConfig::default()),
        Err(ExactError::HiddenHand(1))
    ));
    let pos = position::read(&text).unwrap();
    let small = ExactConfig {
        max_orders: 23,
        ..ExactConfig::default()
    };
    let err = exact(&pos, &small).unwrap_err();
    assert!(matches!(err, ExactError::TooLarge { .. }));
    assert!(
        err.to_string().contains("24 equally likely orders"),
        "{err}"
    );
    let enough = ExactConfig {
        max_orders: 24,
        ..ExactConfig::default()
    };
    assert!(exact(&pos, &enough).is_ok());
}

#[test]
fn command_line() {
    let file = "tests/data/hidden-pile.hanabi";
    let out = run(&["solve", file, "--exact", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mode"], "exact");
    assert_eq!(v["orders"], "24");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    // The file's comment: playing either 2 wins whatever the order; discarding one does not.
    for m in moves {
        let action = m["action"].as_str().unwrap();
        let won = m["win_probability"].as_f64().unwrap();
        if action.starts_with("play") {
            assert_eq!(won, 1.0, "{action}");
            assert_eq!(m["win_probability_fraction"], "1");
        } else {
            assert!(won < 1.0, "{action}");
        }
        assert!(m["expected_score_fraction"].is_string());
    }
    let out = run(&["solve", file, "--exact"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("24 equally likely orders"), "{text}");
    assert!(text.contains("play r2"), "{text}");

    // A hanab.live game at a turn, seen with every hand known and the pile hidden.
    let game = "tests/data/hanablive/game-194321.json";
    let out = run(&[
        "solve", game, "--turn", "40", "--view", "cheat", "--exact", "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["hidden"], 8);
    assert!(!v["moves"].as_array().unwrap().is_empty());
    // The same position written as a file with its pile hidden gives the same numbers.
    let file8 = TempFile::new("turn40.hanabi");
    let out = run(&[
        "solve",
        game,
        "--turn",
        "40",
        "--write-position",
        file8.path(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&file8.0).unwrap();
    let hidden: String = text
        .lines()
        .map(|l| {
            if l.starts_with("deck:") {
                format!("deck:{}", " ?".repeat(l.split_whitespace().count() - 1))
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let hidden8 = TempFile::with_text("turn40-hidden.hanabi", &hidden);
    let out = run(&["solve", hidden8.path(), "--exact", "--json"]);
    let w: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["moves"], w["moves"]);

    let message = fails(&["solve", file, "--exact", "--max-orders", "10"]);
    assert!(message.contains("--samples"), "{message}");
    let message = fails(&["solve", file, "--exact", "--samples", "3"]);
    assert!(message.contains("--samples"), "{message}");
    let message = fails(&["solve", file, "--exact", "--export", "x.json"]);
    assert!(message.contains("--export"), "{message}");
    let message = fails(&["solve", "p2v0s1", "--view", "cheat", "--exact"]);
    assert!(message.contains("equally likely orders"), "{message}");
    let message = fails(&["solve", "p2v0s1", "--view", "cheat"]);
    assert!(message.contains("--exact"), "{message}");
    let hidden_hand = TempFile::with_text(
        "exact-hand.hanabi",
        &std::fs::read_to_string(file)
            .unwrap()
            .replace("hand Bob: r1 y1", "hand Bob: r1 ?")
            .replace("deck: r1 y1 ? ? ? ?", "deck: ? y1 ? ? ? ?"),
    );
    let message = fails(&["solve", hidden_hand.path(), "--exact"]);
    assert!(message.contains("hand card"), "{message}");
}

#[test]
fn curated_hidden_positions_are_analysed_the_same_on_any_thread_count() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/hidden");
    let path = dir.join("2p-pile-8.hanabi");
    let pos = position::read(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(pos.hidden(), 8);
    let one = exact(&pos, &ExactConfig::default()).unwrap();
    let two = exact(
        &pos,
        &ExactConfig {
            threads: 2,
            ..ExactConfig::default()
        },
    )
    .unwrap();
    assert_eq!(one.moves, two.moves);
    assert_eq!(one.orders, 20_160);
    // Every value is a probability and a score of the deck.
    for m in &one.moves {
        assert!(m.win_probability.num <= m.win_probability.den);
        assert!(m.expected_score.num <= 25 * m.expected_score.den);
    }
    // The larger file reads and holds 12 hidden cards (analysed by the README's example).
    let big = dir.join("2p-pile-12.hanabi");
    let pos = position::read(&std::fs::read_to_string(big).unwrap()).unwrap();
    assert_eq!(pos.hidden(), 12);
}

// ---- Team play with hidden hands: a plain enumeration of joint strategies ----

/// One world of the reference: one physical arrangement of the unseen cards (copies told
/// apart, so all are equally likely), its deal and state, and what each player has observed.
#[derive(Clone)]
struct TeamWorld {
    deal: usize,
    state: State,
    logs: Vec<Vec<Vec<u64>>>,
}

/// Every arrangement of the unseen cards that fits the hints, with each player's first
/// observation: the other hands.
fn team_worlds(pos: &Position) -> (Vec<Deal>, Vec<TeamWorld>) {
    let masks: Vec<u64> = pos
        .hands
        .iter()
        .zip(&pos.hints)
        .flat_map(|(h, hints)| {
            h.iter()
                .zip(hints)
                .filter(|(c, _)| c.is_none())
                .map(|(_, &m)| m)
        })
        .chain(pos.pile.iter().filter(|c| c.is_none()).map(|_| u64::MAX))
        .collect();
    let players = pos.hands.len();
    let (mut deals, mut worlds) = (Vec::new(), Vec::new());
    for perm in permutations(&pos.unseen()) {
        if perm
            .iter()
            .zip(&masks)
            .any(|(c, m)| m & (1 << c.kind()) == 0)
        {
            continue;
        }
        let (deal, state) = pos.fill(&perm).unwrap();
        deals.push(deal);
        let logs = (0..players)
            .map(|q| vec![seen_hands(&state, q, players)])
            .collect();
        worlds.push(TeamWorld {
            deal: deals.len() - 1,
            state,
            logs,
        });
    }
    (deals, worlds)
}

/// The hands player `q` sees (every other one), as card kinds.
fn seen_hands(state: &State, q: usize, players: usize) -> Vec<u64> {
    (0..players)
        .filter(|&o| o != q)
        .flat_map(|o| {
            std::iter::once(100 + o as u64).chain(state.hand(o).iter().map(|c| c.kind() as u64))
        })
        .collect()
}

/// A concrete move of the reference: an engine action, and for a clue its target, type and
/// index in the variant's list.
#[derive(Clone, Copy, PartialEq, Debug)]
enum RefMove {
    Engine(Action),
    Clue(usize, bool, usize),
}

/// The moves of the player to move, clues given concretely (research decks: a clue touches its
/// suit or rank; it must touch a card unless empty clues are on).
fn ref_moves(deal: &Deal, state: &State) -> Vec<RefMove> {
    let mut out = Vec::new();
    for a in state.legal_actions(deal) {
        if !a.is_clue() {
            out.push(RefMove::Engine(a));
        }
    }
    if state.clues >= 1 {
        let p = state.turn as usize;
        let v = &deal.rules.variant;
        for t in (0..deal.rules.players as usize).filter(|&t| t != p) {
            for colour in [true, false] {
                let list = if colour {
                    v.colour_clues()
                } else {
                    v.rank_clues()
                };
                for (i, clue) in list.iter().enumerate() {
                    let touched = state
                        .hand(t)
                        .iter()
                        .any(|c| c.kind_bit() & clue.touches != 0);
                    if touched || deal.rules.empty_clues {
                        out.push(RefMove::Clue(t, colour, i));
                    }
                }
            }
        }
    }
    out
}

/// What everyone sees of move `m` in a world, and the state after it.
fn ref_step(deal: &Deal, state: &State, m: RefMove) -> (Vec<u64>, State) {
    let p = state.turn as usize;
    match m {
        RefMove::Engine(a) => {
            let card = match a {
                Action::Play(i) | Action::Discard(i) => state.hand(p)[i as usize],
                Action::DeckPlay => deal.pile[state.drawn as usize],
                _ => unreachable!(),
            };
            let code = match a {
                Action::Play(i) => 10 + i as u64,
                Action::Discard(i) => 20 + i as u64,
                _ => 30,
            };
            (
                vec![p as u64, code, card.kind() as u64],
                state.apply(deal, a).unwrap(),
            )
        }
        RefMove::Clue(t, colour, i) => {
            let v = &deal.rules.variant;
            let clue = if colour {
                &v.colour_clues()[i]
            } else {
                &v.rank_clues()[i]
            };
            let touched: Vec<u64> = state
                .hand(t)
                .iter()
                .map(|c| (c.kind_bit() & clue.touches != 0) as u64)
                .collect();
            let mut seen = vec![p as u64, 40, t as u64, colour as u64, i as u64];
            seen.extend(touched);
            (seen, state.apply(deal, Action::Clue).unwrap())
        }
    }
}

/// The first-move families of the per-move values: 0 play, 1 discard, 2 clue, 3 deck play.
fn ref_family(m: RefMove) -> (u8, usize) {
    match m {
        RefMove::Engine(Action::Play(i)) => (0, i as usize),
        RefMove::Engine(Action::Discard(i)) => (1, i as usize),
        RefMove::Clue(t, _, _) => (2, t),
        _ => (3, 0),
    }
}

/// The team's best total over `worlds` (worlds won, or scores summed): every prescription (a
/// move for each set of worlds the player to move cannot tell apart by everything it has
/// observed) tried, the worlds split by what everyone saw. `budget` counts prescriptions; `None`
/// when it runs out. `first` restricts the root's moves to one family where a class has one.
fn ref_team(
    deals: &[Deal],
    worlds: &[TeamWorld],
    win: Option<u8>,
    first: Option<(u8, usize)>,
    budget: &mut u64,
) -> Option<u64> {
    let s0 = &worlds[0].state;
    if s0.is_over() {
        return Some(
            worlds
                .iter()
                .map(|w| {
                    let score = w.state.score(&deals[w.deal].rules);
                    match win {
                        Some(target) => (score >= target) as u64,
                        None => score as u64,
                    }
                })
                .sum(),
        );
    }
    let p = s0.turn as usize;
    let players = deals[0].rules.players as usize;
    let mut classes: Vec<(Vec<Vec<u64>>, Vec<usize>)> = Vec::new();
    for (i, w) in worlds.iter().enumerate() {
        match classes.iter_mut().find(|c| c.0 == w.logs[p]) {
            Some(c) => c.1.push(i),
            None => classes.push((w.logs[p].clone(), vec![i])),
        }
    }
    let moves: Vec<Vec<RefMove>> = classes
        .iter()
        .map(|(_, members)| {
            let w = &worlds[members[0]];
            let mut all = ref_moves(&deals[w.deal], &w.state);
            if let Some(f) = first {
                if all.iter().any(|&m| ref_family(m) == f) {
                    all.retain(|&m| ref_family(m) == f);
                }
            }
            all
        })
        .collect();
    let mut choice = vec![0usize; classes.len()];
    let mut best = 0;
    loop {
        *budget = budget.checked_sub(1)?;
        let mut parts: Vec<(Vec<u64>, Vec<TeamWorld>)> = Vec::new();
        for (c, (_, members)) in classes.iter().enumerate() {
            for &i in members {
                let w = &worlds[i];
                let (seen, next) = ref_step(&deals[w.deal], &w.state, moves[c][choice[c]]);
                let mut logs = w.logs.clone();
                for (q, log) in logs.iter_mut().enumerate() {
                    log.push(seen.clone());
                    if q != p {
                        log.push(seen_hands(&next, q, players));
                    }
                }
                let world = TeamWorld {
                    deal: w.deal,
                    state: next,
                    logs,
                };
                match parts.iter_mut().find(|x| x.0 == seen) {
                    Some(x) => x.1.push(world),
                    None => parts.push((seen, vec![world])),
                }
            }
        }
        let mut total = 0;
        for (_, part) in &parts {
            total += ref_team(deals, part, win, None, budget)?;
        }
        best = best.max(total);
        // The next prescription, as an odometer.
        let mut c = 0;
        loop {
            if c == choice.len() {
                return Some(best);
            }
            choice[c] += 1;
            if choice[c] < moves[c].len() {
                break;
            }
            choice[c] = 0;
            c += 1;
        }
    }
}

/// A random tiny position near the end of a game, every hand card hidden from its holder (some
/// narrowed by a random hint that holds the true card), the pile hidden.
fn random_team_position(rng: &mut Rng) -> Option<Position> {
    let (rules, _, deal, mut state) = random_tiny_game(rng, 10, None);
    while deal.pile_left(&state) > rng.below(2) as u8 {
        let actions = state.legal_actions(&deal);
        if actions.is_empty() {
            return None;
        }
        state = state
            .apply(&deal, actions[rng.below(actions.len() as u64) as usize])
            .unwrap();
        if state.is_over() {
            return None;
        }
    }
    // Where one misplay ends the game, not seeing one's cards costs most.
    if state.strikes + 1 < rules.max_strikes && rng.below(4) > 0 {
        return None;
    }
    let names: Vec<String> = (0..rules.players).map(|p| format!("P{p}")).collect();
    let mut pos = Position::new(&PositionFile::from_state(&deal, &state, &names)).unwrap();
    let kinds = rules.variant.kinds();
    for seat in 0..rules.players as usize {
        let masks: Vec<u64> = state
            .hand(seat)
            .iter()
            .map(|c| match rng.below(4) {
                0 | 1 => kinds,
                2 => c.kind_bit(),
                _ => (rng.next() & kinds) | c.kind_bit(),
            })
            .collect();
        pos.hide_hand(seat, &masks);
    }
    pos.hide_pile();
    Some(pos)
}

/// `a / n == b / m`.
fn same_fraction(a: u64, n: u64, b: u64, m: u64) -> bool {
    a as u128 * m as u128 == b as u128 * n as u128
}

#[test]
fn team_play_equals_a_plain_enumeration_of_joint_strategies() {
    let mut rng = Rng(2024);
    let (mut compared, mut below_cheat, mut moves_checked, mut signals) = (0, 0, 0, 0);
    for _ in 0..50_000 {
        if compared >= 100 && below_cheat >= 30 {
            break;
        }
        let Some(pos) = random_team_position(&mut rng) else {
            continue;
        };
        if pos.unseen().len() > 5 {
            continue;
        }
        let (deals, worlds) = team_worlds(&pos);
        let target = worlds[0].state.max_reachable_score(&deals[0].rules);
        let mut budget = 4_000;
        let (Some(win), Some(score)) = (
            ref_team(&deals, &worlds, Some(target), None, &mut budget),
            ref_team(&deals, &worlds, None, None, &mut budget),
        ) else {
            continue;
        };
        let team = team(&pos, &TeamConfig::default()).unwrap();
        let n = worlds.len() as u64;
        assert_eq!(team.target, target);
        assert!(team.win.team.exact() && team.score.team.exact());
        assert!(
            same_fraction(team.win.team.lo, team.total, win, n),
            "win {}/{} against the reference {win}/{n}\n{}",
            team.win.team.lo,
            team.total,
            position::to_text(&PositionFile::from_state(&deals[0], &worlds[0].state, &[]))
        );
        assert!(
            same_fraction(team.score.team.lo, team.total, score, n),
            "score {}/{} against the reference {score}/{n}",
            team.score.team.lo,
            team.total
        );
        // Every bound in its place: the per-view policy played <= team <= per-view <= cheat.
        for g in [&team.win, &team.score] {
            assert!(g.per_view_played <= g.team.lo);
            assert!(g.team.hi <= g.per_view.lo && g.per_view.hi <= g.cheat.lo);
        }
        below_cheat += (team.win.team.hi < team.win.cheat.lo) as usize;
        signals += (team.win.team.lo > team.win.per_view_played) as usize;
        // The value of each first move, against the reference restricted the same way.
        for (m, value) in &team.win.moves {
            let family = match m {
                FirstMove::Play(i) => (0, *i as usize),
                FirstMove::Discard(i) => (1, *i as usize),
                FirstMove::ClueTo(t) => (2, *t as usize),
                FirstMove::DeckPlay => (3, 0),
            };
            let mut budget = 4_000;
            if let Some(r) = ref_team(&deals, &worlds, Some(target), Some(family), &mut budget) {
                assert!(
                    value.exact() && same_fraction(value.lo, team.total, r, n),
                    "{m:?}"
                );
                assert!(value.lo <= team.win.team.lo);
                moves_checked += 1;
            }
        }
        compared += 1;
    }
    eprintln!(
        "{compared} positions, {below_cheat} below the every-card-known value, {signals} above \
         the per-view rule played, {moves_checked} first moves"
    );
    assert!(compared >= 100, "only {compared} positions small enough");
    assert!(
        below_cheat >= 30,
        "too few positions where hidden cards cost anything"
    );
}

/// Merging dead cards (what the team search does when the worlds are too many) gives proven
/// bounds: on small positions its lower figures are at most the exact values and its upper
/// ones at least, for the team, the per-view estimate and every first move; it counts the same
/// arrangements as listing them one by one; and the every-card-known average is the same.
#[test]
fn merged_dead_cards_bound_the_exact_team_values() {
    let mut rng = Rng(4242);
    let (mut compared, mut fewer, mut lossy, mut met) = (0, 0, 0, 0);
    for _ in 0..50_000 {
        if compared >= 300 {
            break;
        }
        let Some(pos) = random_team_position(&mut rng) else {
            continue;
        };
        if pos.unseen().len() > 5 {
            continue;
        }
        let exact = team(&pos, &TeamConfig::default()).unwrap();
        let config = TeamConfig {
            merge_dead: MergeDead::Always,
            ..TeamConfig::default()
        };
        let merged = match team(&pos, &config) {
            Ok(m) => m,
            Err(e) if e.to_string().contains("cannot be merged") => continue,
            Err(e) => panic!("{e}"),
        };
        let text = position::to_text(&PositionFile::from_position(&pos));
        assert_eq!(merged.arrangements, exact.arrangements, "{text}");
        let (n, m) = (exact.total as u128, merged.total as u128);
        // lo/m <= v/n <= hi/m
        let within = |b: &TotalBounds, v: u64| {
            b.lo as u128 * n <= v as u128 * m && v as u128 * m <= b.hi as u128 * n
        };
        for (e, g) in [(&exact.win, &merged.win), (&exact.score, &merged.score)] {
            assert!(exact.merged_worlds.is_none() && e.team.exact());
            assert!(
                within(&g.team, e.team.lo),
                "{:?} {:?}\n{text}",
                g.team,
                e.team
            );
            assert!(same_fraction(
                g.cheat.lo,
                merged.total,
                e.cheat.lo,
                exact.total
            ));
            assert!(within(&g.per_view, e.per_view.lo), "{text}");
            assert!(g.per_view_played <= g.team.lo);
            for (fm, fe) in &e.moves {
                let (_, fg) = g.moves.iter().find(|(x, _)| x == fm).expect("same moves");
                assert!(within(fg, fe.lo), "{fm:?} {fg:?} {fe:?}\n{text}");
            }
            lossy += (g.team.lo as u128 * n < e.team.lo as u128 * m) as usize;
            met += g.team.exact() as usize;
        }
        fewer += (merged.merged_worlds.unwrap() < exact.total) as usize;
        compared += 1;
    }
    eprintln!(
        "{compared} positions, {fewer} with fewer worlds merged, {met} goals exact when merged, \
         {lossy} below the exact value"
    );
    assert!(compared >= 300);
    assert!(
        fewer >= 60,
        "merging should shrink many positions, only {fewer} did"
    );
}

/// The exact values listed for the three positions of ../shared/data/team (its README's table:
/// every card known, the per-view estimate, that per-view rule played, the team optimum), each
/// as `solve --team --json` gives it for the copy in positions/team.
#[test]
fn shared_team_positions_give_their_listed_values() {
    let table = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/team/README.md"),
    )
    .unwrap();
    let files = [
        ("01", "positions/team/01-blind-play-vs-clue.hanabi"),
        ("03", "positions/team/03-three-player-final-round.hanabi"),
        ("12", "positions/team/12-control-all-known.hanabi"),
    ];
    for (id, file) in files {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| {id} ")))
            .unwrap_or_else(|| panic!("no row {id}"));
        // "win 1, score 6" | "3/4, 11/2" | ... | "**3/4, 11/2**"
        let cells: Vec<(String, String)> = row
            .split('|')
            .skip(2)
            .filter(|c| !c.trim().is_empty())
            .map(|c| {
                let c = c
                    .replace("**", "")
                    .replace("win ", "")
                    .replace("score ", "");
                let (w, s) = c.trim().split_once(", ").unwrap();
                (w.trim().to_string(), s.trim().to_string())
            })
            .collect();
        assert_eq!(cells.len(), 4, "{row}");
        let out = run(&["solve", file, "--team", "--json"]);
        assert!(out.status.success(), "{file}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let got = |key: &str| {
            (
                v[key]["win"].as_str().unwrap().to_string(),
                v[key]["score"].as_str().unwrap().to_string(),
            )
        };
        assert_eq!(got("cheat"), cells[0], "{file}: every card known");
        assert_eq!(got("per_view"), cells[1], "{file}: per-view estimate");
        assert_eq!(got("per_view_played"), cells[2], "{file}: per-view played");
        assert_eq!(got("team"), cells[3], "{file}: team optimum");
        assert_eq!(v["proven"], true);
        // No first move beats the team, and the best first move of a position where the
        // mover's best move does not depend on what it sees reaches it.
        let best_first = v["moves"][0]["win"].as_str().unwrap();
        assert!(v["moves"].as_array().unwrap().len() >= 2);
        if id == "12" {
            assert_eq!(best_first, cells[3].0);
        }
    }
}

/// With every card known there is one world, and the team value is the perfect-information
/// value of the plain reference search.
#[test]
fn team_play_with_every_card_known_is_the_open_value() {
    let mut rng = Rng(77);
    let mut checked = 0;
    while checked < 60 {
        let (rules, _deck, deal, state) = random_tiny_game(&mut rng, 10, Some(false));
        let names: Vec<String> = (0..rules.players).map(|p| format!("P{p}")).collect();
        let pos = Position::new(&PositionFile::from_state(&deal, &state, &names)).unwrap();
        let result = team(&pos, &TeamConfig::default()).unwrap();
        assert_eq!((result.total, result.arrangements), (1, 1));
        let open = reference(&deal, &state, &mut HashMap::new()) as u64;
        assert_eq!((result.score.team.lo, result.score.team.hi), (open, open));
        let won = (open >= result.target as u64) as u64;
        assert_eq!((result.win.team.lo, result.win.team.hi), (won, won));
        checked += 1;
    }
}
