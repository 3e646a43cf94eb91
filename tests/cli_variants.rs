//! `hanabi-solver variants`: the clue facts it prints against hanab.live's own outputs
//! (../shared/data/hanablive-variants/clues-sample.jsonl), listing, search, lookup, errors, and
//! loading the site's files at run time.

mod common;

use std::path::PathBuf;

use common::{fails, run, TempFile};
use serde_json::Value;

/// The folder of hanab.live's files and outputs, next to the repository.
fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/hanablive-variants")
}

/// Standard output of a run that must succeed.
fn stdout(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

#[test]
fn every_sampled_variant_has_the_sites_clues_and_touch_table() {
    let text = std::fs::read_to_string(shared_dir().join("clues-sample.jsonl")).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let site: Value = serde_json::from_str(line).unwrap();
        let id = site["variant_id"].to_string();
        let ours = json(&["variants", &id, "--json"]);
        assert_eq!(ours["id"], site["variant_id"], "variant {id}");
        assert_eq!(ours["name"], site["variant"], "variant {id}");
        for key in [
            "color_clues",
            "rank_clues",
            "touch",
            "clue_display_names",
            "clue_value_revealed",
            "empty_color_clues_allowed_always",
            "empty_rank_clues_allowed_always",
        ] {
            assert_eq!(ours[key], site[key], "variant {id}: {key}");
        }
        // The site's game code names a reversed suit by its base name.
        let suits: Vec<&Value> = ours["suits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["base_name"])
            .collect();
        let site_suits: Vec<&Value> = site["suits"].as_array().unwrap().iter().collect();
        assert_eq!(suits, site_suits, "variant {id}: suits");
        checked += 1;
    }
    assert_eq!(checked, 163);
}

#[test]
fn one_variant_in_text_and_json() {
    let text = stdout(&["variants", "16"]);
    for want in [
        "Rainbow (5 Suits)",
        "touched by every colour clue",
        "deck          50 cards",
        "max score     25",
        "none: the solver's rules apply",
        "RYGB/3",
    ] {
        assert!(text.contains(want), "{want:?} missing from:\n{text}");
    }
    let v = json(&["variants", "16", "--json"]);
    assert_eq!(v["deck_size"], 50);
    assert_eq!(v["max_score"], 25);
    assert_eq!(v["copies"]["4:1"], 3);
    assert_eq!(v["copies"]["4:5"], 1);
    assert_eq!(v["solver_plays"], true);
    assert_eq!(v["play_rule_families"], serde_json::json!([]));

    let up = json(&["variants", "up or down (5 suits)", "--json"]);
    assert_eq!(up["play_rule_families"], serde_json::json!(["Up or Down"]));
    assert_eq!(up["solver_plays"], true);
    assert_eq!(up["copies"]["0:7"], 1);
    let text = stdout(&["variants", "Up or Down (5 Suits)"]);
    assert!(
        text.contains("play rules    Up or Down: stacks start at 1, 5 or START"),
        "{text}"
    );
    // A family the solver plays says what it changes.
    let starved = json(&["variants", "Clue Starved (6 Suits)", "--json"]);
    assert_eq!(starved["solver_plays"], true);
    let text = stdout(&["variants", "Clue Starved (6 Suits)"]);
    assert!(
        text.contains(
            "play rules    Clue Starved: a discard or a finished stack gives half a token"
        ),
        "{text}"
    );
}

#[test]
fn lookup_by_name_ignores_case() {
    let by_id = stdout(&["variants", "2"]);
    assert!(by_id.contains("Black (6 Suits)"), "{by_id}");
    assert_eq!(stdout(&["variants", "bLaCk (6 SUITS)"]), by_id);
    // Several arguments make one name when together they name a variant exactly.
    assert_eq!(stdout(&["variants", "black", "(6", "suits)"]), by_id);
}

#[test]
fn listing_and_search() {
    let all = stdout(&["variants"]);
    assert_eq!(
        all.lines().count(),
        2426 + 1,
        "one line per variant and a total"
    );
    assert!(all.contains("Black: one of each rank"));
    assert!(all.contains("play rules: Up or Down\n"));
    assert!(!all.contains("not solvable yet"));
    let listed = json(&["variants", "--json"]);
    assert_eq!(listed["count"], 2426);

    let pink = stdout(&["variants", "pink"]);
    assert!(pink.contains("Pink (6 Suits)"), "{pink}");
    assert!(pink.contains("Pink: touched by every rank clue"), "{pink}");
    assert!(pink.lines().all(|l| l.to_lowercase().contains("pink")));
    let found = json(&["variants", "PINK", "6", "--json"]);
    let names: Vec<&str> = found["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(found["count"], names.len());
    assert!(names.contains(&"Pink (6 Suits)"));
    assert!(names
        .iter()
        .all(|n| n.to_lowercase().contains("pink") && n.contains('6')));
}

#[test]
fn unknown_variants_are_one_line_errors() {
    assert!(fails(&["variants", "99999"]).contains("no variant has id 99999"));
    let e = fails(&["variants", "pink", "zzzz"]);
    assert!(e.contains("shorter"), "{e}");
    fails(&["variants", "zzzz"]);
    fails(&["variants", "--variants-json", "/nonexistent/variants"]);
    let dir = TempFile::new("bad-variants");
    std::fs::create_dir_all(&dir.0).unwrap();
    std::fs::write(dir.0.join("variants.json"), "{").unwrap();
    std::fs::copy(shared_dir().join("suits.json"), dir.0.join("suits.json")).unwrap();
    let e = fails(&["variants", "--variants-json", dir.path(), "0"]);
    assert!(e.contains("variants.json"), "{e}");
    std::fs::write(
        dir.0.join("variants.json"),
        r#"[{"id": 0, "name": "X", "suits": ["No Such Suit"]}]"#,
    )
    .unwrap();
    let e = fails(&["variants", "--variants-json", dir.path()]);
    assert!(e.contains("No Such Suit"), "{e}");
    std::fs::remove_dir_all(&dir.0).unwrap();
}

#[test]
fn the_sites_files_give_the_builtin_catalogue() {
    let dir = shared_dir();
    let dir = dir.to_str().unwrap();
    let file = format!("{dir}/variants.json");
    assert_eq!(
        stdout(&["variants", "--variants-json", dir]),
        stdout(&["variants"])
    );
    for id in ["0", "16", "107", "1700", "2425"] {
        let builtin = stdout(&["variants", id, "--json"]);
        assert_eq!(
            stdout(&["variants", "--variants-json", dir, id, "--json"]),
            builtin
        );
        assert_eq!(
            stdout(&["variants", "--variants-json", &file, id, "--json"]),
            builtin
        );
    }
}

/// A variant the built-in table does not have, read from newer site files with
/// `--variants-json`, deals and solves by seed name and by `--variant`.
#[test]
fn a_newer_variant_list_is_played_by_seed_name() {
    let dir = TempFile::new("newer-variants");
    std::fs::create_dir_all(&dir.0).unwrap();
    std::fs::copy(shared_dir().join("suits.json"), dir.0.join("suits.json")).unwrap();
    std::fs::write(
        dir.0.join("variants.json"),
        r#"[{"id": 0, "name": "No Variant", "suits": ["Red", "Yellow", "Green", "Blue", "Purple"]},
           {"id": 90001, "name": "Null Test (3 Suits)", "suits": ["Red", "Blue", "Null"]}]"#,
    )
    .unwrap();
    // Without the newer list the id is unknown.
    let e = fails(&["deal", "p2v90001s1"]);
    assert!(e.contains("unknown variant"), "{e}");
    let deal = json(&[
        "deal",
        "p2v90001s1",
        "--json",
        "--variants-json",
        dir.path(),
    ]);
    assert_eq!(deal["suits"], serde_json::json!(["Red", "Blue", "Null"]));
    assert_eq!(deal["deck_cards"].as_array().unwrap().len(), 30);
    let solved = json(&[
        "solve",
        "p2v90001s1",
        "--json",
        "--variants-json",
        dir.path(),
    ]);
    assert_eq!(solved["perfect_score"], 15, "{solved}");
    let by_name = json(&[
        "solve",
        "x",
        "--players",
        "2",
        "--variant",
        "null test (3 suits)",
        "--json",
        "--variants-json",
        dir.path(),
    ]);
    assert_eq!(by_name["perfect_score"], 15, "{by_name}");
    std::fs::remove_dir_all(&dir.0).unwrap();
}
