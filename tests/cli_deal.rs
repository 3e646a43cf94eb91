//! The `deal` command, run as a program.

use std::process::{Command, Output};

fn deal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
        .arg("deal")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("deal --json prints JSON")
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|c| c.as_str().expect("a card").to_string())
        .collect()
}

/// Runs a command that must fail cleanly and returns its error message.
fn fails(args: &[&str]) -> String {
    let out = deal(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} should fail");
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "{args:?}: one line expected, got {stderr:?}"
    );
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    stderr
}

#[test]
fn deck_of_p4v0s415_is_the_deck_of_the_real_game() {
    let game: serde_json::Value =
        serde_json::from_str(include_str!("data/hanablive/game-194321.json")).unwrap();
    assert_eq!(game["seed"], "p4v0s415");
    let letters = ['r', 'y', 'g', 'b', 'p'];
    let want: Vec<String> = game["deck"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{}{}",
                letters[c["suitIndex"].as_u64().unwrap() as usize],
                c["rank"]
            )
        })
        .collect();

    let out = json(&deal(&["p4v0s415", "--json"]));
    assert_eq!(strings(&out["deck"]), want);
    assert_eq!(out["seed"], "p4v0s415");
    assert_eq!(out["players"], 4);
    assert_eq!(out["variant"], "No Variant");
    assert_eq!(out["variant_id"], 0);
    assert_eq!(out["hand_size"], 4);
    // Block deal: seat 0 takes the first four cards, seat 1 the next four, and so on; each hand
    // as hanab.live shows it, the last card dealt (slot 1) first.
    let hands: Vec<Vec<String>> = out["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(strings)
        .collect();
    assert_eq!(hands.len(), 4);
    for (p, hand) in hands.iter().enumerate() {
        let dealt: Vec<String> = want[p * 4..p * 4 + 4].iter().rev().cloned().collect();
        assert_eq!(hand, &dealt);
    }
    assert_eq!(strings(&out["pile"]), want[16..]);
}

#[test]
fn text_output_shows_hands_and_pile() {
    let out = deal(&["p2v0s1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // The first vector of tests/data/seed-vectors.txt: p2v0s1 starts b5 p4 b3 r4 g1 b3 b1 r1 g2 g4.
    assert!(text.contains("No Variant"), "{text}");
    // Shown as on hanab.live: the last card dealt is slot 1, on the left.
    assert!(text.contains("Alice    g1 r4 b3 p4 b5"), "{text}");
    assert!(text.contains("Bob      g4 g2 r1 b1 b3"), "{text}");
    assert!(text.contains("40 cards, top first: r2 b2"), "{text}");
}

#[test]
fn options_that_agree_with_the_seed_name_are_accepted() {
    let a = json(&deal(&["p2v3s1", "--json"]));
    let b = json(&deal(&[
        "p2v3s1",
        "--json",
        "--players",
        "2",
        "--variant",
        "rainbow",
    ]));
    assert_eq!(a, b);
    assert_eq!(a["variant"], "Rainbow (6 Suits)");
    assert_eq!(strings(&a["deck"]).len(), 60);
}

#[test]
fn plain_seeds_need_players() {
    let message = fails(&["some-seed"]);
    assert!(message.contains("--players"), "{message}");
    let out = json(&deal(&["some-seed", "--players", "3", "--json"]));
    assert_eq!(out["players"], 3);
    assert_eq!(out["variant"], "No Variant");
    assert_eq!(out["hand_size"], 5);
    assert_eq!(strings(&out["pile"]).len(), 50 - 15);
    let black = json(&deal(&[
        "some-seed",
        "--players",
        "3",
        "--variant",
        "black",
        "--json",
    ]));
    assert_eq!(black["variant_id"], 2);
}

#[test]
fn malformed_seed_names_fail_cleanly() {
    for seed in ["p2v0", "p2vXs1", "p99v0s1", "p2v0s"] {
        let message = fails(&[seed]);
        assert!(message.contains(seed), "{message}");
    }
}

#[test]
fn unknown_variants_fail_cleanly() {
    let message = fails(&["p2v9999s1"]);
    assert!(message.contains("unknown variant"), "{message}");
    let message = fails(&["some-seed", "--players", "2", "--variant", "nope"]);
    assert!(message.contains("unknown variant"), "{message}");
}

#[test]
fn options_that_contradict_the_seed_name_fail_cleanly() {
    let message = fails(&["p4v0s1", "--players", "3"]);
    assert!(message.contains("4-player"), "{message}");
    let message = fails(&["p4v0s1", "--variant", "black"]);
    assert!(message.contains("Black"), "{message}");
}

/// `deal --json` gives the deck in the site's own card form and the suits by name, exactly as
/// hanab.live deals `p2v{ID}s1` (the site's decks: `../shared/data/hanablive-variants`).
#[test]
fn json_deck_in_the_sites_card_form() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/hanablive-variants/decks-p2-s1.jsonl");
    let text = std::fs::read_to_string(path).expect("the shared deck vectors");
    let mut checked = 0;
    for line in text.lines() {
        let site: serde_json::Value = serde_json::from_str(line).unwrap();
        let id = site["variant_id"].as_u64().unwrap();
        if ![0, 1, 2, 3, 15, 16, 18, 21].contains(&id) {
            continue;
        }
        let ours = json(&deal(&[site["seed"].as_str().unwrap(), "--json"]));
        assert_eq!(ours["suits"], site["suits"], "variant {id}");
        let cards: Vec<serde_json::Value> = site["deck"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| serde_json::json!({"suitIndex": c[0], "rank": c[1]}))
            .collect();
        assert_eq!(ours["deck_cards"], serde_json::json!(cards), "variant {id}");
        checked += 1;
    }
    assert_eq!(checked, 8);
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A hanab.live seed link deals and solves as the seed it names.
#[test]
fn a_seed_link_is_its_seed() {
    let by_name = run(&["deal", "p3v2s17", "--json"]);
    assert!(by_name.status.success());
    for link in [
        "https://hanab.live/seed/p3v2s17",
        "http://www.hanab.live/seed/p3v2s17/",
        "hanab.live/seed/p3v2s17?x=1",
    ] {
        let by_link = run(&["deal", link, "--json"]);
        assert!(by_link.status.success(), "{link}: {by_link:?}");
        assert_eq!(by_link.stdout, by_name.stdout, "{link}");
    }
    let solved = |seed: &str| {
        let out = run(&["solve", seed, "--json"]);
        assert!(out.status.success(), "{out:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (v["max_score"].clone(), v["line"].clone(), v["deck"].clone())
    };
    assert_eq!(solved("https://hanab.live/seed/p2v0s7"), solved("p2v0s7"));
}
