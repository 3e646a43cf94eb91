//! hanab.live seed names and the decks they deal.

use hanabi_solver::error::Error;
use hanabi_solver::game::variant::Variant;
use hanabi_solver::seed::{deck_for_seed, parse_seed_name, shuffled_deck};

/// `(seed name, deck top first)` for every line of `tests/data/seed-vectors.txt`.
fn vectors() -> Vec<(String, Vec<String>)> {
    let text = include_str!("data/seed-vectors.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next().unwrap().to_string();
            (name, words.map(str::to_string).collect())
        })
        .collect()
}

#[test]
fn every_seed_vector_deals_exactly() {
    let vectors = vectors();
    assert!(
        vectors.len() >= 8,
        "expected the seed vectors, found {}",
        vectors.len()
    );
    for (name, want) in vectors {
        let (_, variant_id) = parse_seed_name(&name)
            .unwrap()
            .expect("a hanab.live seed name");
        let variant = Variant::by_id(variant_id).unwrap();
        let deck = shuffled_deck(&name, &variant);
        let got: Vec<String> = deck.iter().map(|&c| variant.card_name(c)).collect();
        assert_eq!(got, want, "deck of {name} ({})", variant.name);
        assert_eq!(deck_for_seed(&name, &variant), deck);
    }
}

#[test]
fn seed_names_give_players_and_variant() {
    assert_eq!(parse_seed_name("p2v0s1").unwrap(), Some((2, 0)));
    assert_eq!(parse_seed_name("p6v16s12345").unwrap(), Some((6, 16)));
    assert_eq!(
        parse_seed_name("p3v1sabc-def").unwrap(),
        Some((3, 1)),
        "custom suffixes are text"
    );
    assert_eq!(parse_seed_name("legacy-x-p4v0s7").unwrap(), Some((4, 0)));
    // A known pattern with an id this project does not model is still a seed name.
    assert_eq!(parse_seed_name("p2v999s1").unwrap(), Some((2, 999)));
}

#[test]
fn other_strings_are_plain_seeds() {
    for s in [
        "",
        "hello",
        "p",
        "pv0s1",
        "P2v0s1",
        "x-p2v0s1",
        "legacy-x-",
        "legacy-x-hello",
        "legacy-abcdef",
        "42",
    ] {
        assert_eq!(parse_seed_name(s).unwrap(), None, "{s:?}");
    }
}

#[test]
fn malformed_seed_names_are_errors() {
    for s in [
        "p2v0",
        "p2v0s",
        "p2vXs1",
        "p2vs1",
        "p2",
        "p2x0s1",
        "p2v0x1",
        "p99v0s1",
        "p1v0s1",
        "p7v0s1",
        "p0v0s1",
        "p02v0s1",
        "p2v00s1",
        "p2v99999999999s1",
        "legacy-x-p2v0",
        "legacy-",
        "legacy-1",
    ] {
        match parse_seed_name(s) {
            Err(Error::Seed(name, reason)) => {
                assert_eq!(name, s);
                assert!(
                    !reason.is_empty() && !reason.contains('\n'),
                    "{s:?}: {reason:?}"
                );
            }
            other => panic!("{s:?} should be a malformed seed name, got {other:?}"),
        }
    }
    let message = parse_seed_name("p99v0s1").unwrap_err().to_string();
    assert!(message.contains("2 to 6 players"), "{message}");
    let message = parse_seed_name("p2v0").unwrap_err().to_string();
    assert!(
        message.contains("p2v0s1"),
        "the message shows the pattern: {message}"
    );
}

#[test]
fn any_string_shuffles_to_a_full_deck() {
    let v = Variant::no_variant();
    let mut a = shuffled_deck("some custom seed", &v);
    let b = shuffled_deck("some custom seed", &v);
    assert_eq!(a, b, "the shuffle is deterministic");
    assert_ne!(a, shuffled_deck("another seed", &v));
    a.sort();
    let mut d = v.deck();
    d.sort();
    assert_eq!(a, d);
}

#[test]
fn decks_of_real_hanablive_exports_match() {
    for text in [
        include_str!("data/hanablive/game-194321.json"),
        include_str!("data/hanablive/game-p4v0s1-partial.json"),
    ] {
        let game: serde_json::Value = serde_json::from_str(text).unwrap();
        let seed = game["seed"].as_str().unwrap();
        let (players, id) = parse_seed_name(seed).unwrap().unwrap();
        assert_eq!(players as usize, game["players"].as_array().unwrap().len());
        let variant = Variant::by_id(id).unwrap();
        let want: Vec<_> = game["deck"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                variant
                    .card(
                        c["suitIndex"].as_u64().unwrap() as usize,
                        c["rank"].as_u64().unwrap() as usize,
                    )
                    .unwrap()
            })
            .collect();
        assert_eq!(shuffled_deck(seed, &variant), want, "deck of {seed}");
    }
}
