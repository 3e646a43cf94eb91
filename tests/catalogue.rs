//! The variant catalogue against hanab.live's own outputs in ../shared/data/hanablive-variants:
//! the site's deck for seed p2v{ID}s1 of every variant, and the clue and rule facts the site's
//! code gives for 163 variants covering every family.

use std::collections::BTreeMap;
use std::path::PathBuf;

use hanabi_solver::game::catalogue::{Catalogue, RuleFamily, StackStart, VariantFacts, START_RANK};
use hanabi_solver::seed::shuffle_for_seed;
use serde_json::Value;

/// The folder of hanab.live's files and outputs, next to the repository.
fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/hanablive-variants")
}

fn read_shared(name: &str) -> String {
    let path = shared_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One JSON object per line.
fn read_jsonl(name: &str) -> Vec<Value> {
    read_shared(name)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn variant(record: &Value) -> &'static VariantFacts {
    let id = record["variant_id"].as_u64().unwrap() as u32;
    let v = Catalogue::builtin().by_id(id).unwrap();
    assert_eq!(v.name, record["variant"].as_str().unwrap(), "variant {id}");
    v
}

/// The suits' names as the site's game code shows them: a reversed suit keeps its base name.
fn base_suit_names(v: &VariantFacts) -> Vec<String> {
    v.suits.iter().map(|s| s.name.clone()).collect()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn numbers<T: TryFrom<u64>>(value: &Value) -> Vec<T> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|n| T::try_from(n.as_u64().unwrap()).ok().unwrap())
        .collect()
}

/// Fails with every mismatch listed (at most 20), after counting the matches.
fn assert_no_mismatches(what: &str, checked: usize, mismatches: &[String]) {
    eprintln!("{what}: {} of {checked} match", checked - mismatches.len());
    assert!(
        mismatches.is_empty(),
        "{what}: {} of {checked} differ:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(20)].join("\n")
    );
}

#[test]
fn catalogue_has_every_variant_once() {
    let cat = Catalogue::builtin();
    assert_eq!(cat.variants().len(), 2426);
    for (i, v) in cat.variants().iter().enumerate() {
        assert_eq!(v.id, i as u32);
        assert_eq!(cat.by_id(v.id).unwrap().name, v.name);
        assert_eq!(cat.by_name(&v.name.to_uppercase()).unwrap().id, v.id);
        assert_eq!(cat.by_name(&v.name.to_lowercase()).unwrap().id, v.id);
    }
    assert!(cat.by_id(2426).is_none());
    assert!(cat.by_name("No Variant ").is_none());
    assert_eq!(
        cat.by_id(18).unwrap().suit_names(),
        ["Red", "Green", "Blue"]
    );
}

#[test]
fn every_seed_deck_matches_the_site() {
    let records = read_jsonl("decks-p2-s1.jsonl");
    assert_eq!(records.len(), 2426);
    let mut mismatches = Vec::new();
    for record in &records {
        let v = variant(record);
        if base_suit_names(v) != strings(&record["suits"]) {
            mismatches.push(format!("{} {}: suits differ", v.id, v.name));
            continue;
        }
        let site: Vec<(usize, u8)> = record["deck"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c[0].as_u64().unwrap() as usize,
                    c[1].as_u64().unwrap() as u8,
                )
            })
            .collect();
        let mut deck = v.deck();
        shuffle_for_seed(record["seed"].as_str().unwrap(), &mut deck);
        if deck != site {
            mismatches.push(format!(
                "{} {}: {} cards, the site {}",
                v.id,
                v.name,
                deck.len(),
                site.len()
            ));
        }
    }
    assert_no_mismatches("seed decks", records.len(), &mismatches);
}

/// The site's touch table, `"suit:rank"` to (colour indices, rank values).
fn site_touch(record: &Value) -> BTreeMap<String, (Vec<usize>, Vec<u8>)> {
    record["touch"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(key, t)| (key.clone(), (numbers(&t["colors"]), numbers(&t["ranks"]))))
        .collect()
}

fn our_touch(v: &VariantFacts) -> BTreeMap<String, (Vec<usize>, Vec<u8>)> {
    let mut table = BTreeMap::new();
    for suit in 0..v.suits.len() {
        for rank in v.ranks() {
            table.insert(format!("{suit}:{rank}"), v.touch(suit, rank));
        }
    }
    table
}

#[test]
fn clues_match_the_site() {
    let records = read_jsonl("clues-sample.jsonl");
    let mut mismatches = Vec::new();
    for record in &records {
        let v = variant(record);
        let (color_names, rank_names) = v.clue_names();
        let checks = [
            (
                "clue colours",
                v.clue_colors == strings(&record["color_clues"]),
            ),
            (
                "clue ranks",
                v.clue_ranks == numbers::<u8>(&record["rank_clues"]),
            ),
            (
                "colour names",
                color_names == strings(&record["clue_display_names"]["colors"]),
            ),
            (
                "rank names",
                rank_names == strings(&record["clue_display_names"]["ranks"]),
            ),
            (
                "value revealed",
                Some(v.clue_value_revealed()) == record["clue_value_revealed"].as_bool(),
            ),
            (
                "empty colour clues",
                Some(v.empty_color_clues_allowed())
                    == record["empty_color_clues_allowed_always"].as_bool(),
            ),
            (
                "empty rank clues",
                Some(v.empty_rank_clues_allowed())
                    == record["empty_rank_clues_allowed_always"].as_bool(),
            ),
        ];
        for (what, ok) in checks {
            if !ok {
                mismatches.push(format!("{} {}: {what}", v.id, v.name));
            }
        }
        let (ours, site) = (our_touch(v), site_touch(record));
        if ours != site {
            let first = site
                .iter()
                .find(|(k, t)| ours.get(*k) != Some(t))
                .map(|(k, t)| format!("{k}: site {t:?}, ours {:?}", ours.get(k)))
                .unwrap_or_else(|| "extra cards".to_string());
            mismatches.push(format!("{} {}: touch, first at {first}", v.id, v.name));
        }
    }
    assert_no_mismatches("clue samples", records.len(), &mismatches);
}

fn play_rule(v: &VariantFacts) -> &'static str {
    let families = v.rule_families();
    if families.contains(&RuleFamily::UpOrDown) {
        "up_or_down"
    } else if families.contains(&RuleFamily::Sudoku) {
        "sudoku"
    } else if families.contains(&RuleFamily::ReversedSuits) {
        "reversible"
    } else {
        "standard"
    }
}

fn stack_start_name(start: StackStart) -> &'static str {
    match start {
        StackStart::Up => "up",
        StackStart::Down => "down",
        StackStart::Undecided => "undecided",
        StackStart::Sudoku => "sudoku",
    }
}

/// The site's copies table, `suit -> rank -> copies`, as a flat map.
fn site_copies(record: &Value) -> BTreeMap<(usize, u8), u8> {
    let mut copies = BTreeMap::new();
    for (suit, ranks) in record["copies"].as_object().unwrap() {
        for (rank, n) in ranks.as_object().unwrap() {
            let key = (suit.parse().unwrap(), rank.parse().unwrap());
            copies.insert(key, n.as_u64().unwrap() as u8);
        }
    }
    copies
}

fn our_copies(v: &VariantFacts) -> BTreeMap<(usize, u8), u8> {
    let mut copies = BTreeMap::new();
    for suit in 0..v.suits.len() {
        for rank in v.ranks() {
            copies.insert((suit, rank), v.copies(suit, rank));
        }
    }
    copies
}

/// The site's special-rank mode: "deceptive", or the properties joined by "+".
fn special_rank_mode(v: &VariantFacts) -> Value {
    let Some(sr) = v.special_rank else {
        return Value::Null;
    };
    if sr.deceptive {
        return Value::from("deceptive");
    }
    let names = [
        (sr.all_clue_colors, "allClueColors"),
        (sr.no_clue_colors, "noClueColors"),
        (sr.all_clue_ranks, "allClueRanks"),
        (sr.no_clue_ranks, "noClueRanks"),
    ];
    let on: Vec<&str> = names.iter().filter(|(b, _)| *b).map(|(_, n)| *n).collect();
    Value::from(on.join("+"))
}

/// The clue-token rules in the site's internal units (the sample gives them in tokens).
fn site_tokens_match(v: &VariantFacts, t: &Value) -> bool {
    let ours = v.clue_tokens();
    let scale = t["server_internal_scale"].as_f64().unwrap();
    let units = |key: &str| (t[key].as_f64().unwrap() * scale).round() as u8;
    f64::from(ours.scale) == scale
        && ours.start == units("start")
        && ours.max == units("max")
        && ours.clue_cost == units("clue_cost")
        && ours.discard_gain == units("discard_gain")
        && ours.stack_complete_gain == units("stack_complete_gain")
        && Some(ours.discard_at_max) == t["discard_allowed_at_max_clues"].as_bool()
}

fn suit_indices(v: &VariantFacts, has: impl Fn(usize) -> bool) -> Vec<usize> {
    (0..v.suits.len()).filter(|&i| has(i)).collect()
}

#[test]
fn rules_match_the_site() {
    let records = read_jsonl("rules-sample.jsonl");
    let mut mismatches = Vec::new();
    for r in &records {
        let v = variant(r);
        let f = &v.flags;
        let start_rank = v.flags.up_or_down.then_some(START_RANK);
        let one_copy = our_copies(v).values().filter(|&&n| n == 1).count();
        let starts: Vec<&str> = (0..v.suits.len())
            .map(|i| stack_start_name(v.stack_start(i)))
            .collect();
        let checks = [
            ("suits", base_suit_names(v) == strings(&r["suits"])),
            ("ranks", v.ranks() == numbers::<u8>(&r["ranks"])),
            (
                "start rank",
                start_rank.map(u64::from) == r["start_card_rank"].as_u64(),
            ),
            (
                "stack size",
                Some(u64::from(v.stack_size)) == r["stack_size"].as_u64(),
            ),
            (
                "max score",
                Some(u64::from(v.max_score())) == r["max_score"].as_u64(),
            ),
            (
                "deck size",
                Some(v.deck().len() as u64) == r["deck_size"].as_u64(),
            ),
            ("copies", our_copies(v) == site_copies(r)),
            (
                "one-copy cards",
                Some(one_copy as u64) == r["one_copy_cards_at_start"].as_u64(),
            ),
            (
                "dark suits",
                suit_indices(v, |i| v.suits[i].one_of_each)
                    == numbers::<usize>(&r["one_of_each_suits"]),
            ),
            (
                "reversed suits",
                suit_indices(v, |i| v.suits[i].reversed) == numbers::<usize>(&r["reversed_suits"]),
            ),
            (
                "inverted suits",
                suit_indices(v, |i| v.suits[i].inverted) == numbers::<usize>(&r["inverted_suits"]),
            ),
            ("play rule", Some(play_rule(v)) == r["play_rule"].as_str()),
            (
                "stack starts",
                starts == strings(&r["stack_directions_at_start"]),
            ),
            ("clue tokens", site_tokens_match(v, &r["clue_tokens"])),
            (
                "alternating clues",
                Some(f.alternating_clues) == r["alternating_clues"].as_bool(),
            ),
            (
                "throw it in a hole",
                Some(f.throw_it_in_a_hole) == r["throw_it_in_a_hole"].as_bool(),
            ),
            (
                "clue starved",
                Some(f.clue_starved) == r["clue_starved"].as_bool(),
            ),
            (
                "cow and pig",
                Some(f.cow_and_pig) == r["cow_and_pig"].as_bool(),
            ),
            ("duck", Some(f.duck) == r["duck"].as_bool()),
            (
                "synesthesia",
                Some(f.synesthesia) == r["synesthesia"].as_bool(),
            ),
            (
                "odds and evens",
                Some(f.odds_and_evens) == r["odds_and_evens"].as_bool(),
            ),
            ("funnels", Some(f.funnels) == r["funnels"].as_bool()),
            ("chimneys", Some(f.chimneys) == r["chimneys"].as_bool()),
            (
                "colour blind",
                Some(f.color_clues_touch_nothing) == r["color_clues_touch_nothing"].as_bool(),
            ),
            (
                "number blind",
                Some(f.rank_clues_touch_nothing) == r["rank_clues_touch_nothing"].as_bool(),
            ),
            (
                "special rank",
                v.special_rank.map(|s| u64::from(s.rank)) == r["special_rank"].as_u64(),
            ),
            (
                "special rank mode",
                special_rank_mode(v) == r["special_rank_mode"],
            ),
            (
                "critical rank",
                v.critical_rank.map(u64::from) == r["critical_rank"].as_u64(),
            ),
            (
                "scarce ones",
                Some(f.scarce_ones) == r["scarce_ones"].as_bool(),
            ),
            ("sudoku", Some(f.sudoku) == r["sudoku"].as_bool()),
            (
                "up or down",
                Some(f.up_or_down) == r["up_or_down"].as_bool(),
            ),
            (
                "suit properties",
                suit_properties_match(v, &r["suit_properties"]),
            ),
        ];
        for (what, ok) in checks {
            if !ok {
                mismatches.push(format!("{} {}: {what}", v.id, v.name));
            }
        }
    }
    assert_no_mismatches("rule samples", records.len(), &mismatches);
}

fn suit_properties_match(v: &VariantFacts, site: &Value) -> bool {
    let site = site.as_array().unwrap();
    site.len() == v.suits.len()
        && v.suits.iter().zip(site).all(|(s, p)| {
            let flag = |key: &str| p[key].as_bool().unwrap();
            p["name"].as_str() == Some(s.name.as_str())
                && s.clue_colors == strings(&p["clueColors"])
                && s.one_of_each == flag("oneOfEach")
                && s.reversed == flag("reversed")
                && s.inverted == flag("inverted")
                && s.prism == flag("prism")
                && s.all_clue_colors == flag("allClueColors")
                && s.all_clue_ranks == flag("allClueRanks")
                && s.no_clue_colors == flag("noClueColors")
                && s.no_clue_ranks == flag("noClueRanks")
        })
}

#[test]
fn checked_in_table_is_what_the_generator_writes() {
    let dir = shared_dir();
    if !dir.join("variants.json").exists() {
        eprintln!(
            "skipped: {} is absent, so the table cannot be regenerated here",
            dir.display()
        );
        return;
    }
    let generated = Catalogue::from_json(
        &read_shared("variants.json"),
        &read_shared("suits.json"),
        Some(&read_shared("colors.json")),
    )
    .unwrap();
    let table_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/variants.tsv");
    let checked_in = std::fs::read_to_string(table_path).unwrap();
    assert!(
        generated.to_table() == checked_in,
        "data/variants.tsv is stale: regenerate it with the command in its header"
    );
    assert_eq!(&generated, Catalogue::builtin());
}

#[test]
fn json_without_colors_uses_the_builtin_colours() {
    let cat = Catalogue::from_json(
        &read_shared("variants.json"),
        &read_shared("suits.json"),
        None,
    )
    .unwrap();
    assert_eq!(&cat, Catalogue::builtin());
}

/// Families the site's samples leave out, checked by hand against HANABLIVE.md.
#[test]
fn families_outside_the_samples() {
    let cat = Catalogue::builtin();
    let by_name = |name: &str| cat.by_name(name).unwrap();
    // Synesthesia & White: the suit's no-colour rule comes before the prism-colour match, as in
    // the site's current clue code, so a White card is touched by no clue at all.
    let v = by_name("Synesthesia & White (5 Suits)");
    assert!(v.clue_ranks.is_empty());
    assert_eq!(v.touch(4, 2), (vec![], vec![]));
    assert_eq!(v.touch(0, 2), (vec![0, 1], vec![]));
    // Funnels: a rank clue touches its rank and every lower one; Chimneys the higher ones.
    assert_eq!(by_name("Funnels (5 Suits)").touch(0, 3).1, [3, 4, 5]);
    assert_eq!(by_name("Chimneys (5 Suits)").touch(0, 3).1, [1, 2, 3]);
    // Up or Down: START is rank 7, single, touched by no rank clue.
    let v = by_name("Up or Down (5 Suits)");
    assert_eq!(v.copies(0, START_RANK), 1);
    assert_eq!(v.touch(0, START_RANK), (vec![0], vec![]));
    assert_eq!(v.rule_families(), [RuleFamily::UpOrDown]);
    // Critical Fours and Scarce Ones change only the deck.
    let v = by_name("Critical Fours (5 Suits)");
    assert_eq!(
        (v.copies(0, 4), v.deck().len(), v.rule_families()),
        (1, 45, vec![])
    );
    let v = by_name("Scarce Ones (5 Suits)");
    assert_eq!((v.copies(0, 1), v.deck().len()), (2, 45));
    // Clue Starved counts half tokens; Throw It in a Hole gives none for a finished stack.
    let t = by_name("Clue Starved (5 Suits)").clue_tokens();
    assert_eq!(
        (t.scale, t.start, t.clue_cost, t.discard_gain),
        (2, 16, 2, 1)
    );
    assert_eq!(
        by_name("Throw It in a Hole (5 Suits)")
            .clue_tokens()
            .stack_complete_gain,
        0
    );
    assert_eq!(
        by_name("Alternating Clues (5 Suits)").rule_families(),
        [RuleFamily::AlternatingClues]
    );
}

#[test]
fn json_errors_are_one_line_and_name_the_fault() {
    let suits = read_shared("suits.json");
    let bad_suit = r#"[{"id": 0, "name": "Mine", "suits": ["Red", "Mauve"]}]"#;
    let e = Catalogue::from_json(bad_suit, &suits, None)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        r#"variants.json: variant 0 "Mine": suit "Mauve" does not exist"#
    );
    let new_rule = r#"[{"id": 0, "name": "Mine", "suits": ["Red"], "gravity": true}]"#;
    let e = Catalogue::from_json(new_rule, &suits, None)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("variants.json: unknown field `gravity`"),
        "{e}"
    );
    let twice =
        r#"[{"id": 3, "name": "A", "suits": ["Red"]}, {"id": 3, "name": "B", "suits": ["Red"]}]"#;
    let e = Catalogue::from_json(twice, &suits, None)
        .unwrap_err()
        .to_string();
    assert_eq!(e, r#"variant id 3 is used twice ("A" and "B")"#);
    let e = Catalogue::from_json("[", &suits, None)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("variants.json: ") && !e.contains('\n'), "{e}");
}

#[test]
fn table_errors_name_the_line() {
    let table =
        "# comment\nC\tRed\tR\nS\tRed\tR\tRed\tRed\t-\nV\t0\tMine\tRed,Blue\tRed\t1\t5\t-\n";
    let e = Catalogue::from_table(table).unwrap_err().to_string();
    assert_eq!(
        e,
        r#"variant table line 4: suit "Blue" is not listed before it"#
    );
    let e = Catalogue::from_table("X\t1\n").unwrap_err().to_string();
    assert_eq!(
        e,
        r#"variant table line 1: unknown record type "X" (C, S or V)"#
    );
    let ok =
        "C\tRed\tR\nS\tRed\tR\tRed\tRed\t-\nV\t0\tMine\tRed,Red Reversed\tRed\t1,2\t5\tfunnels\n";
    let cat = Catalogue::from_table(ok).unwrap();
    let v = cat.by_name("MINE").unwrap();
    assert!(v.suits[1].reversed && v.flags.funnels);
    assert_eq!(v.deck().len(), 20);
    assert_eq!(Catalogue::from_table(&cat.to_table()).unwrap(), cat);
}
