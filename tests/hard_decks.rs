//! The hard 2-player decks of `tests/data/hard-decks/`: every deck must be decided within a
//! node budget (the same on every machine: one thread), consistently with the file's claims,
//! and every line must replay. How fast is measured by the bench, not asserted here.
//!
//! `True` in an answer file means an independent prover showed the deck cannot reach 25; the
//! solver must say not winnable for such a deck.

mod common;

use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::line::final_state;
use hanabi_solver::search::{solve, SolveConfig};
use hanabi_solver::state::Deal;

fn load(name: &str) -> Vec<(String, bool)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hard-decks/");
    let decks = std::fs::read_to_string(format!("{dir}{name}_decks.txt")).unwrap();
    let answers = std::fs::read_to_string(format!("{dir}{name}_decks_ans.txt")).unwrap();
    let decks: Vec<String> = decks
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect();
    let answers: Vec<bool> = answers
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match l.trim() {
            "True" => true,
            "False" => false,
            other => panic!("unexpected answer {other:?}"),
        })
        .collect();
    assert_eq!(decks.len(), answers.len(), "{name}: one answer per deck");
    decks.into_iter().zip(answers).collect()
}

fn check_set(name: &str, expected_count: usize) {
    let set = load(name);
    assert_eq!(set.len(), expected_count, "{name}: deck count");
    let rules = Rules::new(Variant::no_variant(), 2, &Options::default()).unwrap();
    let config = SolveConfig {
        // Over four times the most any deck takes (hand_dist 10: about 11 million).
        max_nodes: Some(50_000_000),
        ..SolveConfig::default()
    };
    for (i, (text, cannot_win)) in set.iter().enumerate() {
        let deck: Vec<_> = text
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .map(|t| rules.variant.parse_card(t.trim()).unwrap())
            .collect();
        let (deal, state) = Deal::from_deck(rules.clone(), &deck).unwrap();
        let s = solve(&deal, &state, &config);
        let end = final_state(&deal, &state, &s.line).unwrap();
        assert_eq!(
            end.score(&rules),
            s.lower_bound,
            "{name} {}: line score",
            i + 1
        );
        assert!(s.lower_bound <= s.upper_bound && s.upper_bound <= 25);
        assert!(s.proven, "{name} {}: not decided within the budget", i + 1);
        if *cannot_win {
            assert!(
                s.max_score < 25,
                "{name} {}: marked unwinnable, but a winning line was found",
                i + 1
            );
        }
    }
}

#[test]
fn rama_old_decks() {
    check_set("rama_old", 31);
}

#[test]
fn hand_dist_decks() {
    check_set("hand_dist", 10);
}

#[test]
fn rama_hard_decks() {
    check_set("rama_hard", 113);
}
