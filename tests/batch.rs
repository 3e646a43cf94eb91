//! The library side of `seeds`: the statistics on hand-computed values, reading batch files back
//! (an incomplete last line is ignored, a bad line elsewhere is an error), duplicates, games and
//! shards.

use hanabi_solver::batch::{
    self, histogram, median, percentile, read_records, wilson_interval, BatchError, Entry, Game,
    Record, SeedResult, Shard, Summary, Z95,
};
use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::search::verdict;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 5e-5
}

#[test]
fn wilson_interval_matches_hand_computed_values() {
    // Each by hand from the formula with z = 1.96: centre (p + z²/2n) / (1 + z²/n), half-width
    // z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²). 81 of 263 is Newcombe's (1998) worked example,
    // whose published Wilson interval is 0.2553 to 0.3662.
    for (x, n, lo, hi) in [
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
        (289, 300, 0.9355, 0.9794),
    ] {
        let (a, b) = wilson_interval(x, n, Z95);
        assert!(close(a, lo) && close(b, hi), "{x}/{n}: got {a} {b}");
    }
    assert_eq!(wilson_interval(0, 0, Z95), (0.0, 1.0));
}

#[test]
fn median_percentile_and_histogram_on_a_hand_made_list() {
    let mut t = vec![0.5, 0.1, 0.3, 0.2, 0.4, 9.0, 0.6, 0.7, 0.8, 0.9];
    t.sort_by(f64::total_cmp);
    assert_eq!(median(&t), (0.5 + 0.6) / 2.0);
    assert_eq!(median(&t[..5]), 0.3);
    assert_eq!(median(&[]), 0.0);
    // Nearest rank: p99 of 10 values is the 10th, p50 the 5th, p90 the 9th.
    assert_eq!(percentile(&t, 99.0), 9.0);
    assert_eq!(percentile(&t, 50.0), 0.5);
    assert_eq!(percentile(&t, 90.0), 0.9);
    // Of 200 values 1..=200, p99 is the 198th.
    let many: Vec<f64> = (1..=200).map(f64::from).collect();
    assert_eq!(percentile(&many, 99.0), 198.0);
    assert_eq!(percentile(&[], 99.0), 0.0);
    let h = histogram([25, 24, 25, 0, 25, 23, 24]);
    assert_eq!(
        h.into_iter().collect::<Vec<_>>(),
        [(0, 1), (23, 1), (24, 2), (25, 3)]
    );
}

fn game() -> Game {
    Game::of(&Rules::new(Variant::no_variant(), 4, &Options::default()).unwrap())
}

fn record(seed: &str, max: u8, proven: bool, seconds: f64) -> Record {
    Record {
        seed: seed.to_string(),
        game: game(),
        deck: vec!["r1".to_string(), "y2".to_string()],
        outcome: SeedResult {
            max_score: max,
            perfect_score: 25,
            winnable: verdict(max, if proven { max } else { 25 }, 25),
            proven,
            lower_bound: max,
            upper_bound: if proven { max } else { 25 },
            nodes: 10,
            seconds,
            lent_seconds: 0.0,
            reason: (proven && max < 25).then(|| "late-card".to_string()),
            by_sat: false,
            certificate: None,
        },
    }
}

fn lines(records: &[Record]) -> String {
    records.iter().map(Record::to_line).collect()
}

#[test]
fn records_round_trip_and_name_their_game() {
    let r = record("p4v0s1", 25, true, 0.25);
    let line = r.to_line();
    assert!(line.ends_with('\n') && !line.trim_end().contains('\n'));
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    for field in [
        "seed",
        "deck",
        "max_score",
        "perfect_score",
        "winnable",
        "proven",
        "lower_bound",
        "upper_bound",
        "nodes",
        "seconds",
        "players",
        "variant",
        "endless",
        "clues",
    ] {
        assert!(v.get(field).is_some(), "no {field} in {line}");
    }
    let loaded = read_records(line.as_bytes(), "").unwrap();
    assert_eq!(
        loaded.entries,
        [Entry {
            line: 1,
            ..r.entry()
        }]
    );
    // The time of a core lent to the seed is written only where there was one.
    assert!(v.get("lent_seconds").is_none(), "{line}");
    let mut lent = r.clone();
    lent.outcome.lent_seconds = 0.75;
    let line = lent.to_line();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["lent_seconds"], 0.75);
    let loaded = read_records(line.as_bytes(), "").unwrap();
    assert_eq!(loaded.entries[0].outcome.lent_seconds, 0.75);
}

#[test]
fn a_cut_off_last_line_is_ignored() {
    let full = lines(&[
        record("a1", 25, true, 0.1),
        record("a2", 24, true, 0.2),
        record("a3", 25, true, 0.3),
    ]);
    let fourth = record("a4", 25, true, 0.4).to_line();
    // Cut inside the fourth line, and just before its newline: both count as incomplete.
    for cut in [10, fourth.len() - 1] {
        let text = format!("{full}{}", &fourth[..cut]);
        let loaded = read_records(text.as_bytes(), "f").unwrap();
        let seeds: Vec<&str> = loaded.entries.iter().map(|e| e.seed.as_str()).collect();
        assert_eq!(seeds, ["a1", "a2", "a3"]);
        assert_eq!(loaded.good_len, full.len() as u64);
        assert_eq!(loaded.partial_line, Some(4));
    }
    // A last line that is complete but not a record is also the remains of an interrupted run.
    let text = format!("{full}{{\"seed\": \"a4\", \"max_sc\n");
    let loaded = read_records(text.as_bytes(), "f").unwrap();
    assert_eq!(loaded.entries.len(), 3);
    assert_eq!(
        (loaded.good_len, loaded.partial_line),
        (full.len() as u64, Some(4))
    );
    // A whole file reads whole.
    let loaded = read_records(full.as_bytes(), "f").unwrap();
    assert_eq!(
        (loaded.good_len, loaded.partial_line),
        (full.len() as u64, None)
    );
    // Blank lines are skipped.
    let text = format!("\n{full}\n");
    let loaded = read_records(text.as_bytes(), "f").unwrap();
    assert_eq!((loaded.entries.len(), loaded.partial_line), (3, None));
    assert_eq!(loaded.entries[0].line, 2);
}

#[test]
fn a_bad_line_in_the_middle_is_an_error_naming_it() {
    let good = lines(&[record("a1", 25, true, 0.1), record("a2", 24, true, 0.2)]);
    let text = format!(
        "{good}{{\"seed\": \"a3\"\n{}",
        record("a4", 25, true, 0.1).to_line()
    );
    let err = read_records(text.as_bytes(), "out.jsonl").unwrap_err();
    assert!(
        matches!(err, BatchError::BadLine { line: 3, .. }),
        "{err:?}"
    );
    assert!(err.to_string().starts_with("out.jsonl line 3:"), "{err}");
    let text = format!("garbage\n{good}");
    let err = read_records(text.as_bytes(), "").unwrap_err();
    assert!(err.to_string().starts_with("line 1:"), "{err}");
}

#[test]
fn records_of_another_game_are_found() {
    let mut other = record("a2", 25, true, 0.1);
    other.game.endless = true;
    let text = lines(&[record("a1", 25, true, 0.1), other]);
    let loaded = read_records(text.as_bytes(), "").unwrap();
    let err = batch::check_game(&loaded.entries, &game(), "this run", "out.jsonl").unwrap_err();
    assert!(
        matches!(err, BatchError::OtherGame { line: 2, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("endless"), "{err}");
    assert!(batch::check_game(&loaded.entries[..1], &game(), "this run", "x").is_ok());
}

#[test]
fn duplicates_count_once_and_proven_ones_win() {
    let text = lines(&[
        record("a1", 23, false, 10.0),
        record("a2", 25, true, 0.1),
        record("a1", 24, true, 1.0),
        record("a2", 25, true, 0.2),
    ]);
    let entries = read_records(text.as_bytes(), "").unwrap().entries;
    let unique = batch::unique(entries).unwrap();
    assert_eq!(unique.len(), 2);
    assert_eq!(
        (unique[0].seed.as_str(), unique[0].outcome.max_score),
        ("a1", 24)
    );
    let clash = [
        record("a1", 24, true, 1.0).entry(),
        record("a1", 25, true, 1.0).entry(),
    ];
    assert!(matches!(
        batch::unique(clash),
        Err(BatchError::Conflict { .. })
    ));
}

/// A record of `seed` with the bounds `lo..=hi` (proven where they meet), perfect score 25.
fn bounded(seed: &str, lo: u8, hi: u8, seconds: f64) -> Entry {
    let mut r = record(seed, lo, lo == hi, seconds);
    r.outcome.upper_bound = hi;
    r.outcome.winnable = verdict(lo, hi, 25);
    r.outcome.reason = None;
    r.entry()
}

/// Every bound is a proof, so the undecided records of a seed narrow each other: the best line
/// is kept, with the lowest upper bound any of them proved (the seed decided where they meet);
/// bounds that cross are refused, as are two proven records that disagree.
#[test]
fn undecided_records_of_a_seed_narrow_each_other() {
    let unique = batch::unique([
        bounded("a1", 22, 25, 2.0),
        bounded("a2", 23, 25, 2.0),
        bounded("a3", 23, 24, 2.0),
        bounded("a1", 23, 25, 60.0),
        bounded("a2", 22, 24, 60.0),
        bounded("a3", 22, 23, 60.0),
        bounded("a4", 23, 25, 2.0),
        bounded("a4", 23, 25, 60.0),
    ])
    .unwrap();
    /// Seed, bounds, proven, winnable, seconds.
    type Seen<'a> = (&'a str, u8, u8, bool, Option<bool>, f64);
    let seen: Vec<Seen> = unique
        .iter()
        .map(|e| {
            let o = &e.outcome;
            (
                e.seed.as_str(),
                o.lower_bound,
                o.upper_bound,
                o.proven,
                o.winnable,
                o.seconds,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            // The later line is better.
            ("a1", 23, 25, false, None, 60.0),
            // The first line is better, the later upper bound lower: the perfect score is out
            // of reach, the maximum still open.
            ("a2", 23, 24, false, Some(false), 2.0),
            // The bounds meet: decided.
            ("a3", 23, 23, true, Some(false), 2.0),
            // Equal: the later record.
            ("a4", 23, 25, false, None, 60.0),
        ]
    );
    assert_eq!(unique[2].outcome.max_score, 23);
    let summary = Summary::of(&unique);
    assert_eq!(
        (
            summary.undecided,
            summary.maybe_winnable,
            summary.not_winnable
        ),
        (3, 2, 1)
    );

    for crossing in [
        [bounded("a1", 24, 25, 2.0), bounded("a1", 22, 23, 60.0)],
        [bounded("a1", 22, 23, 2.0), bounded("a1", 24, 25, 60.0)],
        [bounded("a1", 23, 23, 2.0), bounded("a1", 24, 25, 60.0)],
        [bounded("a1", 24, 25, 2.0), bounded("a1", 23, 23, 60.0)],
    ] {
        let err = batch::unique(crossing).unwrap_err();
        assert!(
            matches!(
                err,
                BatchError::Contradiction {
                    lower: 24,
                    upper: 23,
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "seed a1 has records that contradict each other: a line reaches 24, yet another \
             record proves at most 23"
        );
    }
}

#[test]
fn summary_of_a_hand_made_batch() {
    let entries: Vec<Entry> = [
        record("a1", 25, true, 0.1),
        record("a2", 25, true, 0.2),
        record("a3", 24, true, 0.3),
        record("a4", 22, false, 10.0),
        record("a5", 25, true, 0.4),
    ]
    .iter()
    .map(Record::entry)
    .collect();
    let s = Summary::of(&entries);
    assert_eq!(
        (s.seeds, s.winnable, s.not_winnable, s.undecided),
        (5, 3, 1, 1)
    );
    assert_eq!(s.maybe_winnable, 1);
    assert_eq!(s.winnable_share, 0.6);
    assert_eq!(s.winnable_ci95, {
        let (a, b) = wilson_interval(3, 5, Z95);
        [a, b]
    });
    assert_eq!(
        s.histogram.into_iter().collect::<Vec<_>>(),
        [(24, 1), (25, 3)]
    );
    assert_eq!(s.mean_max_score, Some(99.0 / 4.0));
    assert_eq!(s.median_seconds, 0.3);
    assert_eq!((s.p99_seconds, s.max_seconds), (10.0, 10.0));
    assert!(close(s.total_seconds, 11.0));
    assert_eq!(s.nodes, 50);
    assert_eq!(s.winnable_share_max, 0.8);
    // A core lent to a seed counts in the solving time, not in the seed's own time.
    let mut lent = entries.clone();
    lent[4].outcome.lent_seconds = 1.5;
    let s = Summary::of(&lent);
    assert_eq!((s.median_seconds, s.max_seconds), (0.3, 10.0));
    assert!(close(s.total_seconds, 12.5));
    assert!(close(s.lent_seconds, 1.5) && s.lent_a_core == 1);
    assert!(close(s.seeds_per_thread_second.unwrap(), 5.0 / 12.5));
    let empty = Summary::of(&[]);
    assert_eq!((empty.seeds, empty.mean_max_score), (0, None));
}

/// `winnable` is true when the perfect score is proven reached, false when it is proven out of
/// reach (even if the maximum is not proven), and null otherwise.
#[test]
fn winnable_is_null_for_undecided_seeds() {
    assert_eq!(verdict(25, 25, 25), Some(true));
    assert_eq!(verdict(23, 23, 25), Some(false));
    assert_eq!(verdict(20, 24, 25), Some(false));
    assert_eq!(verdict(24, 25, 25), None);
    let undecided = record("a1", 22, false, 1.0);
    assert_eq!(undecided.outcome.winnable, None);
    let line = undecided.to_line();
    assert!(line.contains("\"winnable\":null"), "{line}");
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert!(v["winnable"].is_null());
    let back = read_records(line.as_bytes(), "").unwrap().entries;
    assert_eq!(back[0].outcome, undecided.outcome);
    let won = record("a2", 25, true, 1.0).to_line();
    assert!(won.contains("\"winnable\":true"), "{won}");
    let lost = record("a3", 24, true, 1.0).to_line();
    assert!(lost.contains("\"winnable\":false"), "{lost}");
}

/// Files written before undecided seeds got `null` hold `false` for them: reading derives
/// `winnable` from the bounds, so such a seed is undecided (and maybe winnable), never not
/// winnable, and a wrong `true` or `false` in a line changes nothing either.
#[test]
fn old_lines_with_false_for_undecided_seeds_read_as_undecided() {
    // The last seed stopped with 25 out of reach but its maximum unproven.
    let mut stopped = record("a4", 20, false, 10.0);
    stopped.outcome.upper_bound = 23;
    stopped.outcome.winnable = verdict(20, 23, 25);
    assert_eq!(stopped.outcome.winnable, Some(false));
    let fresh = [
        record("a1", 25, true, 0.1),
        record("a2", 24, true, 0.2),
        record("a3", 22, false, 10.0),
        stopped,
    ];
    // As older versions wrote it (`false` when undecided), with a wrong `false` for good measure.
    let old_text = lines(&fresh)
        .replace("\"winnable\":null", "\"winnable\":false")
        .replacen("\"winnable\":true", "\"winnable\":false", 1);
    assert!(!old_text.contains("null"));
    let old = read_records(old_text.as_bytes(), "old.jsonl")
        .unwrap()
        .entries;
    let new = read_records(lines(&fresh).as_bytes(), "new.jsonl")
        .unwrap()
        .entries;
    assert_eq!(old, new);
    assert_eq!(
        old.iter().map(|e| e.outcome.winnable).collect::<Vec<_>>(),
        [Some(true), Some(false), None, Some(false)]
    );
    // A line without `winnable` at all reads the same.
    let bare = fresh[2].to_line().replace("\"winnable\":null,", "");
    assert!(!bare.contains("winnable"));
    assert_eq!(
        read_records(bare.as_bytes(), "").unwrap().entries[0].outcome,
        old[2].outcome
    );
    let s = Summary::of(&old);
    assert_eq!(
        (
            s.seeds,
            s.winnable,
            s.not_winnable,
            s.undecided,
            s.maybe_winnable
        ),
        (4, 1, 1, 2, 1)
    );
    assert_eq!((s.winnable_share, s.winnable_share_max), (0.25, 0.5));
    assert_eq!(s.loss_reasons.values().sum::<usize>(), 1);
}

#[test]
fn a_shard_lists_its_numbers_without_visiting_the_others() {
    for (shard, from, last) in [
        ("1/1", 1, 6),
        ("2/3", 10, 19),
        ("3/3", 10, 11),
        ("1/4", 5, 5),
        ("4/4", 0, 100),
    ] {
        let s: Shard = shard.parse().unwrap();
        let want: Vec<u64> = (from..=last).filter(|&i| s.contains(i, from)).collect();
        assert_eq!(s.numbers(from, last).collect::<Vec<_>>(), want, "{shard}");
        assert_eq!(s.len(from, last), want.len() as u64, "{shard}");
    }
    let top = u64::MAX;
    // 2^64 numbers: the one count that does not fit.
    assert_eq!(Shard::ALL.len(0, top), top);
    assert_eq!(Shard::ALL.numbers(0, top).nth(5), Some(5));
    assert_eq!(Shard::ALL.len(top, top), 1);
    assert_eq!(Shard::ALL.numbers(top, top).collect::<Vec<_>>(), [top]);
    let half: Shard = "2/2".parse().unwrap();
    assert_eq!(half.len(0, top), 1 << 63);
    assert_eq!(
        half.numbers(top - 3, top).collect::<Vec<_>>(),
        [top - 2, top]
    );
    let far = Shard {
        index: top,
        count: top,
    };
    assert_eq!(far.len(1, 5), 0);
    assert_eq!(far.len(0, top), 1);
    assert_eq!(far.numbers(0, top).collect::<Vec<_>>(), [top - 1]);
}

#[test]
fn shards_split_a_range_into_disjoint_slices() {
    for bad in ["0/3", "4/3", "a/b", "1/0", "3", "", "1/3/4", "-1/3"] {
        let err = bad.parse::<Shard>().unwrap_err();
        assert!(err.to_string().contains("invalid shard"), "{bad}: {err}");
    }
    let s: Shard = "2/3".parse().unwrap();
    assert_eq!((s.index, s.count, s.to_string()), (2, 3, "2/3".to_string()));
    // Seeds 10..=19: every seed in exactly one of three shards, in turn.
    let shards: Vec<Shard> = (1..=3).map(|i| format!("{i}/3").parse().unwrap()).collect();
    for seed in 10..20u64 {
        let owners: Vec<u64> = shards
            .iter()
            .filter(|s| s.contains(seed, 10))
            .map(|s| s.index)
            .collect();
        assert_eq!(owners, [(seed - 10) % 3 + 1]);
    }
    assert!((5..9).all(|i| Shard::ALL.contains(i, 5)));
}
