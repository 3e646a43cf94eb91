//! Reversed suits (hanab.live's "Reversed" variants): such a stack is played from 5 down to 1,
//! and its copies are 1×1, 2×2, 2×3, 2×4, 3×5 (HANABLIVE.md). Checked three ways: the play rule
//! directly on dealt positions; the solver against itself on the mirror image (a reversed suit
//! with every rank r written as 6 - r is an ordinary suit with the ordinary copies, so the two
//! deals must have the same maximum score); and the solver against brute force on small decks.

mod common;

use std::collections::HashMap;

use common::{reference, run, wander, Rng};
use hanabi_solver::game::card::Card;
use hanabi_solver::game::catalogue::{Catalogue, VariantFacts};
use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::line::final_state;
use hanabi_solver::search::dfs::pool_applies;
use hanabi_solver::search::goal::Goal;
use hanabi_solver::search::{relaxed_reaches_tuned, solve, SolveConfig, Tuning};
use hanabi_solver::seed::shuffled_deck;
use hanabi_solver::state::{Action, Deal};

/// hanab.live's "Reversed (5 Suits)" (Purple Reversed) and "Reversed (6 Suits)" (Teal Reversed),
/// with the id of the same suits all ascending.
const PAIRS: [(u32, u32, u8); 2] = [(1343, 0, 4), (1342, 1, 5)];

#[test]
fn the_reversed_variants_are_the_sites() {
    for (id, plain, suit) in PAIRS {
        let v = Variant::by_id(id).unwrap();
        let facts = Catalogue::builtin().by_id(id).unwrap();
        assert!(facts.suits[suit as usize].reversed, "{}", v.name);
        assert!(v.play_order().is_reversed(suit));
        assert_eq!(v.suits.len(), Variant::by_id(plain).unwrap().suits.len());
        // Copies from HANABLIVE.md: 1x1, 2x2, 2x3, 2x4, 3x5.
        let copies: Vec<u8> = (1..=5).map(|r| v.copies(suit, r)).collect();
        assert_eq!(copies, [1, 2, 2, 2, 3], "{}", v.name);
        assert!((0..suit).all(|s| !v.play_order().is_reversed(s)));
    }
}

/// The play rule on a real position: the reversed suit takes its 5 first and its 1 last; an
/// ordinary suit takes its 1 first.
#[test]
fn a_reversed_stack_takes_5_first_and_1_last() {
    let v = Variant::by_id(1343).unwrap();
    let rules = Rules::new(v.clone(), 2, &Options::default()).unwrap();
    let mut deck = v.deck();
    // Alice holds p5 p4 p1 r1 r2, dealt first.
    let front = [
        Card::new(4, 5),
        Card::new(4, 4),
        Card::new(4, 1),
        Card::new(0, 1),
        Card::new(0, 2),
    ];
    for (i, &c) in front.iter().enumerate() {
        let at = deck.iter().skip(i).position(|&d| d == c).unwrap() + i;
        deck.swap(i, at);
    }
    let (deal, start) = Deal::from_deck(rules, &deck).unwrap();
    // p1 first is a strike; p5 first is a play.
    let s = start.apply(&deal, Action::Play(2)).unwrap();
    assert_eq!((s.strikes, s.height(4)), (1, 0));
    let s = start.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!((s.strikes, s.height(4)), (0, 1));
    // Then Bob clues and Alice plays p4 (now in slot 0): two cards on purple.
    let s = s.apply(&deal, Action::Clue).unwrap();
    let s = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!((s.strikes, s.height(4)), (0, 2));
    // r2 before r1 is a strike: red counts up.
    let t = start.apply(&deal, Action::Play(4)).unwrap();
    assert_eq!((t.strikes, t.height(0)), (1, 0));
}

/// The deck of a reversed variant with the reversed suit's ranks mirrored (r -> 6 - r): a deck
/// of the ascending variant.
fn mirrored(deck: &[Card], suit: u8) -> Vec<Card> {
    deck.iter()
        .map(|&c| {
            if c.suit() == suit {
                Card::new(suit, 6 - c.rank())
            } else {
                c
            }
        })
        .collect()
}

#[test]
fn a_reversed_deal_scores_as_its_mirror_image() {
    let config = SolveConfig {
        time_limit: Some(std::time::Duration::from_secs(20)),
        ..SolveConfig::default()
    };
    let mut below_perfect = 0;
    let mut compared = 0;
    for (id, plain, suit) in PAIRS {
        let v = Variant::by_id(id).unwrap();
        let w = Variant::by_id(plain).unwrap();
        for players in [2u8, 3, 4] {
            for n in 1..=12 {
                let deck = shuffled_deck(&format!("p{players}v{id}s{n}"), &v);
                let rules = Rules::new(v.clone(), players, &Options::default()).unwrap();
                let (deal, start) = Deal::from_deck(rules.clone(), &deck).unwrap();
                let got = solve(&deal, &start, &config);
                let plain_rules = Rules::new(w.clone(), players, &Options::default()).unwrap();
                let (plain_deal, plain_start) =
                    Deal::from_deck(plain_rules, &mirrored(&deck, suit)).unwrap();
                let want = solve(&plain_deal, &plain_start, &config);
                if !(got.proven && want.proven) {
                    continue;
                }
                assert_eq!(got.max_score, want.max_score, "p{players}v{id}s{n}");
                let end = final_state(&deal, &start, &got.line).unwrap();
                assert_eq!(end.score(&rules), got.max_score, "p{players}v{id}s{n}");
                below_perfect += (got.max_score < rules.perfect_score()) as usize;
                compared += 1;
            }
        }
    }
    assert!(compared >= 60, "{compared}");
    eprintln!("{compared} deals compared, {below_perfect} below perfect");
}

/// The suits of `base` ("Reversed (5 Suits)") cut to 2 or 3 suits of 2 to `most_ranks` ranks:
/// the first suits and the reversed one (the last).
fn small_reversed_variant(rng: &mut Rng, base: &VariantFacts, most_ranks: u64) -> Variant {
    let mut facts = base.clone();
    let suits = rng.range(2, 3) as usize;
    let mut kept: Vec<_> = base.suits[..suits - 1].to_vec();
    kept.push(base.suits[4].clone());
    facts.suits = kept;
    facts.clue_colors = facts.clue_colors[..suits].to_vec();
    facts.stack_size = rng.range(2, most_ranks) as u8;
    facts.clue_ranks = (1..=facts.stack_size).collect();
    Variant::from_facts(&facts).unwrap()
}

/// Small decks: the suits of "Reversed (5 Suits)" cut to 2 or 3 suits of 2 or 3 ranks, one of
/// them reversed, solved and brute-forced.
#[test]
fn solver_agrees_with_brute_force_on_small_reversed_decks() {
    let base = Catalogue::builtin().by_id(1343).unwrap();
    let mut rng = Rng(0x5e7e_45ed);
    let mut games = 0;
    let mut below_perfect = 0;
    while games < 120 {
        let v = small_reversed_variant(&mut rng, base, 3);
        if v.deck_size() > 12 {
            continue;
        }
        let players = rng.range(2, 3) as u8;
        let options = Options {
            hand_size: Some(rng.range(1, 3) as u8),
            clues: Some(rng.range(1, 2) as u8),
            strikes: Some(rng.range(1, 3) as u8),
            empty_clues: rng.coin(),
            deck_plays: rng.below(4) == 0,
            endless: rng.below(3) == 0,
        };
        let Ok(rules) = Rules::new(v, players, &options) else {
            continue;
        };
        let mut deck = rules.variant.deck();
        rng.shuffle(&mut deck);
        let (deal, start) = Deal::from_deck(rules.clone(), &deck).unwrap();
        let expected = reference(&deal, &start, &mut HashMap::new());
        let got = solve(&deal, &start, &SolveConfig::default());
        assert!(got.proven);
        assert_eq!(got.max_score, expected, "game {games}: {rules:?} {deck:?}");
        let end = final_state(&deal, &start, &got.line).unwrap();
        assert_eq!(
            end.score(&rules),
            expected,
            "game {games}: the line's score"
        );
        below_perfect += (expected < rules.perfect_score()) as usize;
        games += 1;
    }
    assert!(below_perfect >= 10, "{below_perfect}");
}

/// The pool game's forced play (a needed card that can be played is played at once) keeps the
/// pool game's answers with a reversed suit too: at positions of small decks like those above
/// (hands of at least as many cards as players, where the pool game applies), every score is
/// reached with it exactly where it is reached without it.
#[test]
fn forced_pool_play_keeps_answers_with_a_reversed_suit() {
    let base = Catalogue::builtin().by_id(1343).unwrap();
    let without = Tuning {
        pool_plays: false,
        ..Tuning::FULL
    };
    let mut rng = Rng(0x0f_0c_ed);
    let (mut positions, mut fewer) = (0, 0);
    while positions < 300 {
        let v = small_reversed_variant(&mut rng, base, 4);
        let players = rng.range(2, 3) as u8;
        let options = Options {
            hand_size: Some(players + rng.range(0, 1) as u8),
            clues: Some(rng.range(1, 3) as u8),
            strikes: Some(rng.range(1, 3) as u8),
            ..Options::default()
        };
        let Ok(rules) = Rules::new(v, players, &options) else {
            continue;
        };
        let mut deck = rules.variant.deck();
        rng.shuffle(&mut deck);
        let Ok((deal, start)) = Deal::from_deck(rules.clone(), &deck) else {
            continue;
        };
        let state = wander(&mut rng, &deal, &start, deal.pile.len() as u64);
        if state.is_over() || !pool_applies(&deal, &state) {
            continue;
        }
        positions += 1;
        let full = Goal::full(&rules);
        for k in 1..=rules.perfect_score() {
            let pool =
                |tuning| relaxed_reaches_tuned(&deal, &state, &full, k, true, tuning).unwrap();
            let ((with, n_with), (plain, n_plain)) = (pool(Tuning::FULL), pool(without));
            assert_eq!(with, plain, "k {k} at {state:?} of {deck:?}");
            fewer += (n_with < n_plain) as usize;
        }
    }
    assert!(
        fewer >= 30,
        "the forced play saved nodes only {fewer} times"
    );
}

/// The command line plays a reversed seed, and its exported game replays to the same score.
#[test]
fn a_reversed_seed_solves_and_its_export_replays() {
    let file = common::TempFile::new("reversed-export.json");
    let out = run(&["solve", "p3v1342s4", "--json", "--export", file.path()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let solved: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(solved["proven"], true);
    let out = run(&["replay", file.path(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(replayed["score"], solved["max_score"], "{replayed}");
    // Orange Reversed: reversed suits with Orange's discards at the maximum.
    let out = run(&["solve", "p2v2366s1", "--json"]);
    assert!(out.status.success(), "{out:?}");
}
