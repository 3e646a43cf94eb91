//! Sampled determinizations of positions with hidden cards (`solve FILE --samples N`): the same
//! numbers on any number of threads, agreement with the average over every ordering of the
//! hidden cards, legal actions only, and the command line.

use std::path::{Path, PathBuf};

mod common;

use common::{fails, permutations, run};
use hanabi_solver::game::card::Card;
use hanabi_solver::hidden::{
    evaluate, mean_interval, root_actions, sample, sample_until, wilson, Estimate,
};
use hanabi_solver::position::{self, Position};
use hanabi_solver::search::SolveConfig;
use std::time::{Duration, Instant};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn hidden_pile() -> Position {
    let text = std::fs::read_to_string(data("hidden-pile.hanabi")).unwrap();
    position::read(&text).unwrap()
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn the_file_hides_four_pile_cards() {
    let pos = hidden_pile();
    assert_eq!(pos.hidden(), 4);
    assert!(pos.hands.iter().flatten().all(|c| c.is_some()));
    assert_eq!(pos.unseen().len(), 4);
}

#[test]
fn same_seed_same_numbers_on_one_and_two_threads() {
    let pos = hidden_pile();
    let config = SolveConfig::default();
    let one: Estimate = in_pool(1, || sample(&pos, 300, 42, &config).unwrap());
    let two: Estimate = in_pool(2, || sample(&pos, 300, 42, &config).unwrap());
    assert_eq!(one, two);
    let again = in_pool(2, || sample(&pos, 300, 42, &config).unwrap());
    assert_eq!(two, again);
    // Another seed draws other orderings (the per-sample scores differ somewhere).
    let other = in_pool(2, || sample(&pos, 300, 43, &config).unwrap());
    let scores = |e: &Estimate| {
        e.moves
            .iter()
            .map(|m| m.score_counts.clone())
            .collect::<Vec<_>>()
    };
    assert_ne!(scores(&two), scores(&other));
}

#[test]
fn sampled_means_approach_the_mean_over_every_ordering() {
    let pos = hidden_pile();
    let config = SolveConfig::default();
    let actions = root_actions(&pos).unwrap();
    let perfect = pos.rules.perfect_score();
    let orderings = permutations(&pos.unseen());
    assert_eq!(orderings.len(), 24);
    // The exact mean score and win share of each root action over every ordering.
    let mut totals = vec![(0.0f64, 0.0f64, 0.0f64); actions.len()];
    for cards in &orderings {
        for (k, o) in evaluate(&pos, cards, &config).unwrap().iter().enumerate() {
            assert!(o.proven);
            let x = o.score as f64;
            totals[k].0 += x;
            totals[k].1 += x * x;
            totals[k].2 += (o.score == perfect) as u8 as f64;
        }
    }
    let n_exact = orderings.len() as f64;
    let samples = 2000;
    let est = sample(&pos, samples, 7, &config).unwrap();
    assert_eq!(est.moves.len(), actions.len());
    let mut varied = false;
    for (k, &a) in actions.iter().enumerate() {
        let m = est.moves.iter().find(|m| m.action == a).unwrap();
        let mean = totals[k].0 / n_exact;
        let var = (totals[k].1 / n_exact - mean * mean).max(0.0);
        let share = totals[k].2 / n_exact;
        varied |= var > 0.0;
        let se_mean = (var / samples as f64).sqrt();
        let se_share = (share * (1.0 - share) / samples as f64).sqrt();
        assert!(
            (m.expected_score - mean).abs() <= 4.0 * se_mean + 1e-12,
            "{}: sampled mean {} vs exact {mean} (se {se_mean})",
            m.name,
            m.expected_score
        );
        assert!(
            (m.win_probability - share).abs() <= 4.0 * se_share + 1e-12,
            "{}: sampled share {} vs exact {share} (se {se_share})",
            m.name,
            m.win_probability
        );
        assert!(m.score_ci95.0 <= m.expected_score && m.expected_score <= m.score_ci95.1);
        assert!(m.win_ci95.0 <= m.win_probability && m.win_probability <= m.win_ci95.1);
        assert_eq!(m.unproven, 0);
    }
    assert!(varied, "the test position should have outcomes that vary");
}

#[test]
fn every_listed_action_is_legal_in_every_sample() {
    let pos = hidden_pile();
    let est = sample(&pos, 50, 1, &SolveConfig::default()).unwrap();
    let mut names: Vec<&str> = est.moves.iter().map(|m| m.name.as_str()).collect();
    names.sort();
    // Alice's hand is r2 y2 in the file (oldest first): y2, drawn last, is hanab.live's slot 1.
    assert_eq!(
        names,
        [
            "discard r2 (slot 2)",
            "discard y2 (slot 1)",
            "play r2 (slot 2)",
            "play y2 (slot 1)"
        ]
    );
    for i in 0..50u64 {
        let mut cards = pos.unseen();
        hanabi_solver::hidden::SplitMix64::for_sample(1, i).shuffle(&mut cards);
        let (deal, state) = pos.fill(&cards).unwrap();
        for m in &est.moves {
            assert!(state.legal_actions(&deal).contains(&m.action), "{}", m.name);
            assert!(state.apply(&deal, m.action).is_ok(), "{}", m.name);
        }
    }
}

#[test]
fn hidden_hand_cards_are_named_by_slot_and_nothing_hidden_still_works() {
    let text = std::fs::read_to_string(data("hidden-pile.hanabi")).unwrap();
    // Alice's y2 hidden instead of one pile card.
    let hand = text
        .replace("hand Alice: r2 y2", "hand Alice: r2 ?")
        .replace("deck: r1 y1 ? ? ? ?", "deck: r1 y1 ? ? ? y2");
    let pos = position::read(&hand).unwrap();
    let est = sample(&pos, 20, 3, &SolveConfig::default()).unwrap();
    let mut names: Vec<(&str, Option<u8>)> = est
        .moves
        .iter()
        .map(|m| (m.name.as_str(), m.slot))
        .collect();
    names.sort();
    // The file lists hands oldest first; hanab.live numbers slots from the newest card, so
    // the hidden card (drawn last) is slot 1 and r2 slot 2.
    assert_eq!(
        names,
        [
            ("discard r2 (slot 2)", Some(2)),
            ("discard slot 1", Some(1)),
            ("play r2 (slot 2)", Some(2)),
            ("play slot 1", Some(1))
        ]
    );
    // Nothing hidden: every sample is the same deal.
    let open = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/stall.hanabi"),
    )
    .unwrap();
    let pos = position::read(&open).unwrap();
    let est = sample(&pos, 5, 9, &SolveConfig::default()).unwrap();
    assert_eq!(est.hidden, 0);
    for m in &est.moves {
        // Every sample in one score.
        assert_eq!(
            m.score_counts.iter().filter(|&&c| c > 0).count(),
            1,
            "{}",
            m.name
        );
        assert_eq!(m.score_counts.iter().sum::<u64>(), 5, "{}", m.name);
    }
    // The clue is named as the first legal one: Bob holds r2 r2.
    assert_eq!(est.moves[0].name, "clue Bob 2");
    assert_eq!(est.moves[0].win_probability, 1.0);
    assert!(sample(&pos, 0, 9, &SolveConfig::default()).is_err());
}

#[test]
fn intervals() {
    let (p, (lo, hi)) = wilson(0, 10);
    assert_eq!(p, 0.0);
    assert_eq!(lo, 0.0);
    assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
    let (p, (lo, hi)) = wilson(5, 10);
    assert_eq!(p, 0.5);
    assert!((lo - 0.2366).abs() < 1e-3 && (hi - 0.7634).abs() < 1e-3);
    let (m, (lo, hi)) = listed_mean_interval(&[1.0, 2.0, 3.0, 4.0], 0.0, 10.0);
    assert_eq!(m, 2.5);
    // sd = 1.29099, half width = 1.96 * sd / 2
    assert!((hi - lo - 1.96 * 1.290_994_4).abs() < 1e-6);
    let (_, (lo, hi)) = listed_mean_interval(&[3.0], 0.0, 10.0);
    assert_eq!((lo, hi), (3.0, 3.0));
    // The same figures from counts: one each of 1, 2, 3 and 4; one 3.
    let (m, (lo, hi)) = mean_interval(&[0, 1, 1, 1, 1], 0.0, 10.0);
    assert_eq!(m, 2.5);
    assert!((hi - lo - 1.96 * 1.290_994_4).abs() < 1e-6);
    let (_, (lo, hi)) = mean_interval(&[0, 0, 0, 1], 0.0, 10.0);
    assert_eq!((lo, hi), (3.0, 3.0));
}

/// The reference: the mean of the listed values `xs` and its 95% interval (normal
/// approximation with the sample standard deviation), clamped to `[lo, hi]`.
fn listed_mean_interval(xs: &[f64], lo: f64, hi: f64) -> (f64, (f64, f64)) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, (lo, hi));
    }
    let mean = xs.iter().sum::<f64>() / n;
    let sd = if xs.len() > 1 {
        (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    let half = 1.96 * sd / n.sqrt();
    (mean, ((mean - half).max(lo), (mean + half).min(hi)))
}

/// The interval from counts equals the one from the listed values, on random samples.
#[test]
fn interval_of_counts_matches_the_listed_values() {
    let mut x = 12345u64;
    for _ in 0..200 {
        let mut counts = vec![0u64; 26];
        let mut values = Vec::new();
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let n = 1 + (x >> 59) as usize;
        for _ in 0..n {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = (x >> 33) as usize % 26;
            counts[v] += 1;
            values.push(v as f64);
        }
        let (m1, (lo1, hi1)) = listed_mean_interval(&values, 0.0, 25.0);
        let (m2, (lo2, hi2)) = mean_interval(&counts, 0.0, 25.0);
        assert!((m1 - m2).abs() < 1e-9 && (lo1 - lo2).abs() < 1e-9 && (hi1 - hi2).abs() < 1e-9);
    }
    assert_eq!(mean_interval(&[0, 0], 0.0, 1.0), (0.0, (0.0, 1.0)));
}

/// A huge sample count allocates nothing per sample: with a deadline already passed, no
/// sample is taken and the estimate says so; a deadline in time gives the full count.
#[test]
fn sample_count_is_not_allocated_up_front() {
    let pos = hidden_pile();
    let config = SolveConfig::default();
    let past = Some(Instant::now());
    let est = sample_until(&pos, usize::MAX, 1, &config, past).unwrap();
    assert_eq!((est.samples, est.requested), (0, usize::MAX));
    let later = Some(Instant::now() + Duration::from_secs(3600));
    let est = sample_until(&pos, 40, 1, &config, later).unwrap();
    assert_eq!(est.samples, 40);
    assert_eq!(est, sample(&pos, 40, 1, &config).unwrap());
}

// ---------------------------------------------------------------------------------------------
// The command line

#[test]
fn cli_text_and_json() {
    let file = data("hidden-pile.hanabi");
    let file = file.to_str().unwrap();
    let out = run(&["solve", file, "--samples", "200", "--rng-seed", "5"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Optimistic estimate from 200 sampled"),
        "{text}"
    );
    assert!(text.contains("as if every card were known"), "{text}");
    assert!(text.contains("rng seed 5"), "{text}");
    for name in ["play r2", "play y2", "discard r2", "discard y2"] {
        assert!(text.contains(name), "{text}");
    }

    let out = run(&[
        "solve",
        file,
        "--samples",
        "200",
        "--rng-seed",
        "5",
        "--json",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["mode"], "samples");
    assert_eq!(json["samples"], 200);
    assert_eq!(json["rng_seed"], 5);
    assert_eq!(json["optimistic"], true);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    // Sorted by win probability, then expected score.
    for w in moves.windows(2) {
        let key = |m: &serde_json::Value| {
            (
                m["win_probability"].as_f64().unwrap(),
                m["expected_score"].as_f64().unwrap(),
            )
        };
        assert!(key(&w[0]) >= key(&w[1]), "{moves:?}");
    }
    for m in moves {
        let ci = &m["ci95"];
        assert_eq!(ci["win_probability"].as_array().unwrap().len(), 2);
        assert_eq!(ci["expected_score"].as_array().unwrap().len(), 2);
        assert_eq!(m["unproven"], 0);
        assert!(m["slot"].as_u64().is_some());
    }
    // The library gives the same numbers (same seed, another thread count).
    let est = sample(&hidden_pile(), 200, 5, &SolveConfig::default()).unwrap();
    for (m, e) in moves.iter().zip(&est.moves) {
        assert_eq!(m["action"], e.name.as_str());
        assert_eq!(m["win_probability"].as_f64().unwrap(), e.win_probability);
        assert_eq!(m["expected_score"].as_f64().unwrap(), e.expected_score);
    }
}

#[test]
fn cli_bad_inputs() {
    let file = data("hidden-pile.hanabi");
    let file = file.to_str().unwrap();
    let message = fails(&["solve", file, "--samples", "0"]);
    assert!(
        message.contains("--samples must be at least 1"),
        "{message}"
    );
    let message = fails(&["solve", file]);
    assert!(message.contains("4 cards are hidden"), "{message}");
    assert!(message.contains("--samples N"), "{message}");
    let message = fails(&["solve", file, "--samples", "10", "--view", "Alice"]);
    assert!(message.contains("unknown --view"), "{message}");
    let message = fails(&["solve", file, "--samples", "10", "--export", "x.json"]);
    assert!(
        message.contains("--export needs a line of play"),
        "{message}"
    );
}

#[test]
fn clue_hints_narrow_the_filling_uniformly() {
    use hanabi_solver::hidden::{Filler, SplitMix64};
    use std::collections::HashMap;
    let mut pos = hidden_pile();
    let v = pos.rules.variant.clone();
    let kind = |s: &str| v.parse_card(s).unwrap().kind();
    // Bob's first card is known to be red (r1, r2 or r3); his second was passed over by a "2"
    // clue. The pile is hidden too, so the unseen cards hold two copies of r1 and of y1.
    let red = 1 << kind("r1") | 1 << kind("r2") | 1 << kind("r3");
    let not_two = !(1 << kind("r2") | 1 << kind("y2"));
    pos.hide_pile();
    pos.hide_hand(1, &[red, not_two]);
    assert!(pos.has_hints());
    let unseen = pos.unseen();
    assert_eq!(unseen.len(), 8);
    // The exact distribution of Bob's hand: every ordering of the unseen cards that fits.
    let mut exact: HashMap<(Card, Card), f64> = HashMap::new();
    let mut fits = 0.0;
    for order in permutations(&(0..unseen.len()).collect::<Vec<_>>()) {
        let (a, b) = (unseen[order[0]], unseen[order[1]]);
        if red & (1 << a.kind()) != 0 && not_two & (1 << b.kind()) != 0 {
            *exact.entry((a, b)).or_default() += 1.0;
            fits += 1.0;
        }
    }
    let filler = Filler::new(&pos).unwrap();
    let n = 40_000;
    let mut seen: HashMap<(Card, Card), f64> = HashMap::new();
    for i in 0..n {
        let cards = filler.fill(&mut SplitMix64::for_sample(5, i));
        let mut sorted = cards.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted, unseen,
            "a filling is a reordering of the unseen cards"
        );
        assert!(pos.fill(&cards).is_ok());
        *seen.entry((cards[0], cards[1])).or_default() += 1.0;
    }
    assert_eq!(
        seen.keys().collect::<std::collections::HashSet<_>>(),
        exact.keys().collect::<std::collections::HashSet<_>>()
    );
    for (hand, count) in &exact {
        let p = count / fits;
        let got = seen[hand] / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!((got - p).abs() < 5.0 * se, "{hand:?}: {got} vs {p}");
    }
    // Hints nothing fits are refused.
    let mut impossible = hidden_pile();
    impossible.hide_hand(1, &[1 << kind("r3"), 1 << kind("r3")]);
    assert!(Filler::new(&impossible).is_err());
}

/// positions/team/01 (a research deck, final round, unseen r1 r2 r3 y2) with Alice's hand
/// written as `hand`.
fn team_01_with(hand: &str) -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/team/01-blind-play-vs-clue.hanabi");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("hand Alice: ? ?\n"));
    text.replace("hand Alice: ? ?\n", &format!("hand Alice: {hand}\n"))
}

#[test]
fn hints_written_in_a_position_file_narrow_the_samples() {
    use hanabi_solver::hidden::{Filler, SplitMix64};
    // Alice knows her older card is red: r1, r2 or r3, each as likely (one copy of each is
    // unseen), and Bob's cards and her newer one take the rest.
    let pos = position::read(&team_01_with("r? ?")).unwrap();
    let v = pos.rules.variant.clone();
    let card = |s: &str| v.parse_card(s).unwrap();
    assert_eq!(
        pos.unseen(),
        [card("r1"), card("r2"), card("r3"), card("y2")]
    );
    let filler = Filler::new(&pos).unwrap();
    let n = 30_000;
    let mut seen = std::collections::HashMap::new();
    for i in 0..n {
        let cards = filler.fill(&mut SplitMix64::for_sample(9, i));
        assert!(pos.fill(&cards).is_ok());
        *seen.entry(cards[0]).or_insert(0.0) += 1.0 / n as f64;
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
    let se = (1.0f64 / 3.0 * 2.0 / 3.0 / n as f64).sqrt();
    for c in ["r1", "r2", "r3"] {
        assert!(
            (seen[&card(c)] - 1.0 / 3.0).abs() < 5.0 * se,
            "{c}: {seen:?}"
        );
    }

    // Knowing her older card is r3 (`?{r3}`), playing it (hanab.live's slot 2) wins in every
    // sample, from the file as from the library; without the hint, in a quarter of them.
    let win = |hand: &str| {
        let dir = std::env::temp_dir().join(format!("hanabi-hints-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{}.hanabi", hand.len()));
        std::fs::write(&file, team_01_with(hand)).unwrap();
        let out = run(&[
            "solve",
            file.to_str().unwrap(),
            "--samples",
            "200",
            "--json",
        ]);
        std::fs::remove_dir_all(&dir).ok();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let play = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["action"] == "play slot 2")
            .unwrap()
            .clone();
        play["win_probability"].as_f64().unwrap()
    };
    assert_eq!(win("?{r3} ?"), 1.0);
    let blind = win("? ?");
    assert!((0.1..0.4).contains(&blind), "{blind}");
    let pos = position::read(&team_01_with("?{r3} ?")).unwrap();
    let est = sample(&pos, 50, 1, &SolveConfig::default()).unwrap();
    let play = est.moves.iter().find(|m| m.name == "play slot 2").unwrap();
    assert_eq!(play.win_probability, 1.0);
}

/// Every hand of a deal's start hidden, each card known not to be the kind of the deck's first
/// card: so many narrowed cards that the fillings outgrow 64 bits (18 cards of 6 players), or
/// even 128 (48 cards of 6 players with hands of 8).
#[test]
fn fillings_of_many_narrowed_cards_are_counted_past_64_bits() {
    use hanabi_solver::game::rules::{Options, Rules};
    use hanabi_solver::game::variant::Variant;
    use hanabi_solver::hidden::{Filler, SplitMix64};
    use hanabi_solver::position::PositionFile;
    use hanabi_solver::state::Deal;
    let team = |variant: Variant, hand_size: Option<u8>| {
        let options = Options {
            hand_size,
            ..Options::default()
        };
        let rules = Rules::new(variant.clone(), 6, &options).unwrap();
        let (deal, state) = Deal::from_deck(rules, &variant.deck()).unwrap();
        let names: Vec<String> = (1..=6).map(|p| format!("P{p}")).collect();
        let mut pos = Position::new(&PositionFile::from_state(&deal, &state, &names)).unwrap();
        let not_first = variant.kinds() & !variant.deck()[0].kind_bit();
        for seat in 0..6 {
            let masks = vec![not_first; pos.hands[seat].len()];
            pos.hide_hand(seat, &masks);
        }
        pos.hide_pile();
        pos
    };
    let pos = team(Variant::no_variant(), None);
    assert_eq!(pos.hands.iter().flatten().count(), 18);
    let filler = Filler::new(&pos).unwrap();
    let first = Variant::no_variant().deck()[0];
    for i in 0..200 {
        let cards = filler.fill(&mut SplitMix64::for_sample(1, i));
        let (_, state) = pos.fill(&cards).unwrap();
        for seat in 0..6 {
            assert!(state.hand(seat).iter().all(|&c| c != first));
        }
    }
    let error = Filler::new(&team(Variant::parse("six-suits").unwrap(), Some(8)))
        .err()
        .unwrap();
    assert!(error.to_string().contains("more than 2^128"), "{error}");
}

#[test]
fn the_team_view_of_a_game() {
    let game = "tests/data/hanablive/game-194321.json";
    let out = run(&[
        "solve",
        game,
        "--turn",
        "40",
        "--view",
        "team",
        "--samples",
        "20",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The pile (8) and the four hands of 4 are hidden; moves name slots.
    assert_eq!(v["hidden"], 24);
    assert_eq!(v["to_move"], "Libster");
    assert!(v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| !m["action"].as_str().unwrap().contains('(')));
    let message = fails(&["solve", game, "--turn", "40", "--view", "team"]);
    assert!(
        message.contains("--view team") && message.contains("--samples"),
        "{message}"
    );
    // The team view of a game early on, with many cards narrowed: the deals that fit are
    // counted quickly.
    let started = Instant::now();
    let out = run(&[
        "solve",
        game,
        "--turn",
        "12",
        "--view",
        "team",
        "--samples",
        "2",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn a_seat_view_of_a_game() {
    let game = "tests/data/hanablive/game-194321.json";
    let out = run(&[
        "solve",
        game,
        "--turn",
        "40",
        "--view",
        "seat=Libster",
        "--samples",
        "40",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The pile (8) and Libster's own hand (4) are hidden; Libster moves, so moves name slots.
    assert_eq!(v["hidden"], 12);
    assert_eq!(v["to_move"], "Libster");
    let names: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["action"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"play slot 1"), "{names:?}");
    // The same seat by number gives the same numbers.
    let seat = v["moves"].clone();
    let names_out = run(&["solve", game, "--turn", "40", "--json"]);
    let open: serde_json::Value = serde_json::from_slice(&names_out.stdout).unwrap();
    let k = open["names"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n == "Libster")
        .unwrap()
        + 1;
    let by_number = run(&[
        "solve",
        game,
        "--turn",
        "40",
        "--view",
        &format!("seat={k}"),
        "--samples",
        "40",
        "--json",
    ]);
    let w: serde_json::Value = serde_json::from_slice(&by_number.stdout).unwrap();
    assert_eq!(seat, w["moves"]);

    // Bad views of the game: each a one-line error naming the problem.
    for (view, mode, problem) in [
        ("seat=9", "--samples", "seats are numbered 1 to 4"),
        ("seat=nobody", "--samples", "no player of that name"),
        ("seat=1", "--exact", "hand card"),
    ] {
        let mut args = vec!["solve", game, "--turn", "40", "--view", view, mode];
        if mode == "--samples" {
            args.push("5");
        }
        let message = fails(&args);
        assert!(message.contains(problem), "{view} {mode}: {message}");
    }
    let message = fails(&["solve", game, "--turn", "40", "--view", "seat=1"]);
    assert!(message.contains("--samples"), "{message}");
    let message = fails(&["solve", "p2v0s1", "--view", "seat=1", "--samples", "5"]);
    assert!(
        message.contains("needs a hanab.live game export"),
        "{message}"
    );
}
