//! The presets and hanab.live variants of RULES.md ("Cards and variants"): names, ids, suit
//! letters, deck sizes, copies, clue colours and the rainbow suit. Expected values come from the
//! table in RULES.md, not from running the code.

use hanabi_solver::game::card::Card;
use hanabi_solver::game::variant::Variant;

/// (CLI name, hanab.live name, id, suit letters, cards in the deck).
const TABLE: &[(&str, &str, u32, &str, usize)] = &[
    ("no-variant", "No Variant", 0, "rygbp", 50),
    ("six-suits", "6 Suits", 1, "rygbpt", 60),
    ("black", "Black (6 Suits)", 2, "rygbpk", 55),
    ("rainbow", "Rainbow (6 Suits)", 3, "rygbpm", 60),
    ("four-suits", "4 Suits", 15, "rygb", 40),
    ("rainbow-5", "Rainbow (5 Suits)", 16, "rygbm", 50),
    ("three-suits", "3 Suits", 18, "rgb", 30),
    ("black-5", "Black (5 Suits)", 21, "rygbk", 45),
];

fn letters(v: &Variant) -> String {
    v.suits.iter().map(|s| s.short.as_str()).collect()
}

/// Whether colour clue `colour` (the site's value) touches `card`.
fn colour_touches(v: &Variant, colour: usize, card: Card) -> bool {
    v.colour_clues()[colour].touches & card.kind_bit() != 0
}

/// The colour clues' names.
fn colour_names(v: &Variant) -> Vec<String> {
    v.colour_clues().iter().map(|c| c.name.clone()).collect()
}

#[test]
fn every_variant_by_cli_name_hanablive_name_and_id() {
    for &(cli, live, id, suit_letters, cards) in TABLE {
        let by_cli = Variant::parse(cli).unwrap();
        let by_live = Variant::parse(live).unwrap();
        let by_id_text = Variant::parse(&id.to_string()).unwrap();
        let by_id = Variant::by_id(id).unwrap();
        for v in [&by_cli, &by_live, &by_id_text] {
            assert_eq!(v, &by_id, "{cli}");
        }
        assert_eq!(by_id.name, live);
        assert_eq!(by_id.id, Some(id));
        assert_eq!(letters(&by_id), suit_letters, "{cli}");
        assert_eq!(by_id.ranks, 5);
        assert_eq!(by_id.deck_size(), cards, "{cli}");
        assert_eq!(by_id.deck().len(), cards, "{cli}");
        assert_eq!(
            by_id.perfect_score() as usize,
            5 * suit_letters.len(),
            "{cli}"
        );
        // hanab.live names in any case.
        assert_eq!(Variant::parse(&live.to_uppercase()).unwrap(), by_id);
        assert_eq!(Variant::parse(&live.to_lowercase()).unwrap(), by_id);
        assert_eq!(Variant::parse(&cli.to_uppercase()).unwrap(), by_id);
    }
    assert_eq!(Variant::no_variant(), Variant::by_id(0).unwrap());
    assert_eq!(
        Variant::aliases().len(),
        TABLE.len(),
        "{:?}",
        Variant::aliases()
    );
}

#[test]
fn copies_of_ordinary_and_black_suits() {
    let ordinary = [3u8, 2, 2, 2, 1];
    for &(cli, _, _, suit_letters, _) in TABLE {
        let v = Variant::parse(cli).unwrap();
        for (s, letter) in suit_letters.chars().enumerate() {
            for rank in 1..=5u8 {
                let want = if letter == 'k' {
                    1
                } else {
                    ordinary[rank as usize - 1]
                };
                assert_eq!(v.copies(s as u8, rank), want, "{cli} {letter}{rank}");
                let in_deck = v
                    .deck()
                    .iter()
                    .filter(|&&c| c == Card::new(s as u8, rank))
                    .count();
                assert_eq!(in_deck, want as usize, "{cli} {letter}{rank}");
            }
        }
    }
}

#[test]
fn black_is_one_of_each_and_a_clue_colour() {
    for cli in ["black", "black-5"] {
        let v = Variant::parse(cli).unwrap();
        let k = v.suits.len() as u8 - 1;
        assert_eq!(v.suits[k as usize].short, "k");
        assert!(v.suits[k as usize].one_each);
        assert_eq!(colour_names(&v).last().unwrap(), "Black", "{cli}");
        assert_eq!(v.colour_clues().len(), v.suits.len());
        // A black clue touches black cards only; no other colour touches black.
        for c in 0..v.suits.len() {
            for s in 0..v.suits.len() as u8 {
                assert_eq!(
                    colour_touches(&v, c, Card::new(s, 2)),
                    c == s as usize,
                    "{cli}: colour {c} on suit {s}"
                );
            }
        }
        let ks = v.deck().iter().filter(|c| c.suit() == k).count();
        assert_eq!(ks, 5);
    }
}

#[test]
fn rainbow_is_touched_by_every_colour_and_never_a_clue_colour() {
    for (cli, colours) in [
        ("rainbow", vec!["Red", "Yellow", "Green", "Blue", "Purple"]),
        ("rainbow-5", vec!["Red", "Yellow", "Green", "Blue"]),
    ] {
        let v = Variant::parse(cli).unwrap();
        let m = v.suits.len() as u8 - 1;
        assert_eq!(v.suits[m as usize].short, "m");
        assert!(!v.suits[m as usize].one_each);
        assert_eq!(colour_names(&v), colours, "{cli}");
        for c in 0..colours.len() {
            for rank in 1..=5 {
                assert!(
                    colour_touches(&v, c, Card::new(m, rank)),
                    "{cli}: {c} on m{rank}"
                );
            }
            // Ordinary cards: only their own colour.
            for s in 0..m {
                assert_eq!(colour_touches(&v, c, Card::new(s, 1)), c == s as usize);
            }
        }
    }
}

#[test]
fn clue_colours_of_variants_without_rainbow_are_every_suit() {
    for &(cli, _, _, suit_letters, _) in TABLE {
        if suit_letters.contains('m') {
            continue;
        }
        let v = Variant::parse(cli).unwrap();
        let all: Vec<String> = v.suits.iter().map(|s| s.name.clone()).collect();
        assert_eq!(colour_names(&v), all, "{cli}");
    }
}

#[test]
fn card_names_use_the_suit_letters() {
    for &(cli, _, _, suit_letters, _) in TABLE {
        let v = Variant::parse(cli).unwrap();
        for (s, letter) in suit_letters.chars().enumerate() {
            for rank in 1..=5u8 {
                let name = format!("{letter}{rank}");
                let c = Card::new(s as u8, rank);
                assert_eq!(v.card_name(c), name);
                assert_eq!(v.parse_card(&name).unwrap(), c);
                assert_eq!(v.parse_card(&name.to_uppercase()).unwrap(), c);
            }
        }
        for bad in ["x1", "r0", "r6", "r", "1", "", "rr", "r1x"] {
            assert!(v.parse_card(bad).is_err(), "{cli}: {bad:?}");
        }
    }
    // Letters of suits a variant does not have are refused.
    assert!(Variant::no_variant().parse_card("t1").is_err());
    assert!(Variant::no_variant().parse_card("k1").is_err());
    assert!(Variant::no_variant().parse_card("m1").is_err());
    assert!(Variant::parse("four-suits")
        .unwrap()
        .parse_card("p1")
        .is_err());
}

#[test]
fn w_names_the_fifth_suit() {
    for &(cli, _, _, suit_letters, _) in TABLE {
        let v = Variant::parse(cli).unwrap();
        for rank in 1..=5u8 {
            let w = v.parse_card(&format!("w{rank}"));
            if suit_letters.len() >= 5 {
                assert_eq!(w.unwrap(), Card::new(4, rank), "{cli} w{rank}");
            } else {
                assert!(w.is_err(), "{cli} has no fifth suit");
            }
        }
    }
    // In No Variant the fifth suit is purple: w3 is p3.
    let v = Variant::no_variant();
    assert_eq!(v.parse_card("w3").unwrap(), v.parse_card("p3").unwrap());
    assert_eq!(v.parse_card("W5").unwrap(), Card::new(4, 5));
    // In six suits, w is still the fifth suit (purple), not teal.
    let v = Variant::parse("six-suits").unwrap();
    assert_eq!(v.parse_card("w2").unwrap(), v.parse_card("p2").unwrap());
    assert_ne!(v.parse_card("w2").unwrap(), v.parse_card("t2").unwrap());
    // Research decks with five or more suits, too.
    let v = Variant::research(5, 3).unwrap();
    assert_eq!(v.parse_card("w3").unwrap(), Card::new(4, 3));
    assert!(v.parse_card("w4").is_err(), "only 3 ranks");
    assert!(Variant::research(4, 5).unwrap().parse_card("w1").is_err());
}

#[test]
fn unknown_names_and_ids_are_refused() {
    for bad in [
        "",
        "nope",
        "rainbows",
        "7 Suits",
        "Black (7 Suits)",
        "No-Variant-2",
        "no_variant",
        "100000",
        "4294967295",
        "-1",
    ] {
        assert!(Variant::parse(bad).is_err(), "{bad:?} accepted");
    }
    // Surrounding spaces do not matter.
    assert_eq!(Variant::parse(" no variant ").unwrap().id, Some(0));
    for id in [100000, u32::MAX] {
        assert!(Variant::by_id(id).is_err(), "id {id}");
    }
}

#[test]
fn research_decks_take_the_ordinary_suits_in_order() {
    for (suits, want) in [(1, "r"), (3, "ryg"), (5, "rygbp"), (6, "rygbpt")] {
        let v = Variant::research(suits, 5).unwrap();
        assert_eq!(letters(&v), want);
        assert_eq!(v.id, None);
        assert!(v.suits.iter().all(|s| !s.one_each));
        assert_eq!(v.colour_clues().len(), suits as usize);
        assert!(v.every_card_clueable());
    }
}

/// Every variant this crate plays deals hanab.live's own deck of `p2v{ID}s1` (the site's code
/// made these decks: `../shared/data/hanablive-variants/decks-p2-s1.jsonl`), suit names and
/// order included ("3 Suits" is red, green, blue).
#[test]
fn every_known_variant_deals_the_sites_deck() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/hanablive-variants/decks-p2-s1.jsonl");
    let text = std::fs::read_to_string(&path).expect("the shared deck vectors");
    let mut checked = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let id = v["variant_id"].as_u64().unwrap() as u32;
        if !TABLE.iter().any(|t| t.2 == id) {
            continue;
        }
        let variant = Variant::by_id(id).unwrap();
        let names: Vec<&str> = variant.suits.iter().map(|s| s.name.as_str()).collect();
        let site: Vec<&str> = v["suits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(names, site, "variant {id}");
        let deck = hanabi_solver::seed::shuffled_deck(v["seed"].as_str().unwrap(), &variant);
        let ours: Vec<(u64, u64)> = deck
            .iter()
            .map(|c| (c.suit() as u64, c.rank() as u64))
            .collect();
        let theirs: Vec<(u64, u64)> = v["deck"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c[0].as_u64().unwrap(), c[1].as_u64().unwrap()))
            .collect();
        assert_eq!(ours, theirs, "variant {id}");
        checked += 1;
    }
    assert_eq!(checked, TABLE.len());
}
