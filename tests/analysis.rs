//! The analysis module as a library: a problem from each kind of source is the deal and position
//! that source stands for, views hide what they should, the reports serialize the fields
//! `solve --json` prints (keys in the order it prints them) and their lines replay.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use hanabi_solver::analysis::{
    self, AnalysisError, ExactReport, Problem, SampleReport, Source, View, ViewedPosition,
};
use hanabi_solver::batch::Game;
use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::hanablive;
use hanabi_solver::hidden::ExactConfig;
use hanabi_solver::portfolio::SatPlan;
use hanabi_solver::position;
use hanabi_solver::search::SolveConfig;
use hanabi_solver::seed::shuffled_deck;
use hanabi_solver::spare_cores::SpareCores;
use hanabi_solver::state::Deal;
use serde::Serialize;

fn manifest(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn game_path() -> PathBuf {
    manifest("tests/data/hanablive/game-194321.json")
}

fn game_source(turn: usize) -> Source {
    Source::Game {
        path: game_path(),
        turn,
        site: hanablive::link::SITE.to_string(),
    }
}

fn no_variant(players: u8) -> Rules {
    Rules::new(Variant::no_variant(), players, &Options::default()).unwrap()
}

fn seed_source(seed: &str) -> Source {
    Source::Seed {
        seed: seed.to_string(),
        rules: no_variant(2),
    }
}

/// A research deck small enough for the exact analysis: 2 suits of 3 ranks, hands of 2, so
/// 8 cards in the pile.
fn tiny_deck_source() -> Source {
    let rules = Rules::new(
        Variant::research(2, 3).unwrap(),
        2,
        &Options {
            hand_size: Some(2),
            ..Options::default()
        },
    )
    .unwrap();
    let deck = "r1 y1 r1 r2 y1 y2 y3 y1 r1 r2 r3 y2"
        .split(' ')
        .map(|t| rules.variant.parse_card(t).unwrap())
        .collect();
    Source::Deck { deck, rules }
}

fn config() -> SolveConfig {
    SolveConfig {
        threads: 1,
        tt_mb: 16,
        ..SolveConfig::default()
    }
}

/// The keys of a JSON object.
fn keys(value: &serde_json::Value) -> Vec<&str> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

/// Serializing `report` straight to text gives what going through `serde_json::Value` (a
/// sorted map) gives: its keys, nested ones too, are in the order `solve --json` printed them.
fn assert_sorted_keys(report: &impl Serialize) {
    let direct = serde_json::to_string_pretty(report).unwrap();
    let sorted = serde_json::to_string_pretty(&serde_json::to_value(report).unwrap()).unwrap();
    assert_eq!(direct, sorted);
}

#[test]
fn a_seed_is_the_deal_its_shuffle_gives() {
    let rules = no_variant(2);
    let p = Problem::new(&seed_source("p2v0s1")).unwrap();
    let deck = shuffled_deck("p2v0s1", &rules.variant);
    let (deal, state) = Deal::from_deck(rules.clone(), &deck).unwrap();
    assert_eq!(p.deal.rules, rules);
    assert_eq!(p.deal.pile, deal.pile);
    assert_eq!(p.state, state);
    assert_eq!(p.deck.as_ref(), Some(&deck));
    assert_eq!(p.label, "seed p2v0s1");
    assert_eq!(p.names, ["Alice", "Bob"]);
    assert_eq!((p.in_progress, p.first_turn), (false, 1));
    assert!(p.game.is_none() && p.is_whole_game());
}

#[test]
fn a_deck_is_dealt_to_seat_0_first() {
    let Source::Deck { deck, rules } = tiny_deck_source() else {
        unreachable!()
    };
    let p = Problem::new(&tiny_deck_source()).unwrap();
    let (deal, state) = Deal::from_deck(rules, &deck).unwrap();
    assert_eq!(p.deal.pile, deal.pile);
    assert_eq!(p.state, state);
    assert_eq!(p.state.hand(0), &deck[..2]);
    assert_eq!(p.label, "the given deck");
}

#[test]
fn a_position_file_is_the_file_opened() {
    let path = manifest("positions/stall.hanabi");
    let p = Problem::new(&Source::PositionFile(path.clone())).unwrap();
    let pos = position::read(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let (deal, state) = pos.open().unwrap();
    assert_eq!(p.deal.rules, deal.rules);
    assert_eq!(p.deal.pile, deal.pile);
    assert_eq!(p.state, state);
    assert_eq!(p.names, pos.names);
    assert_eq!(p.label, format!("position {}", path.display()));
    assert!(p.in_progress && !p.is_whole_game());
    assert!(matches!(
        p.export_line(&[]),
        Err(AnalysisError::NotAWholeGame)
    ));
}

#[test]
fn a_position_file_with_hidden_cards_needs_a_hidden_card_analysis() {
    let path = manifest("positions/hidden/2p-pile-8.hanabi");
    let e = Problem::new(&Source::PositionFile(path)).unwrap_err();
    assert!(matches!(e, AnalysisError::HiddenCards { .. }), "{e}");
    assert!(e.to_string().contains("use --exact"), "{e}");
}

#[test]
fn a_game_at_a_turn_is_its_replay_to_that_turn() {
    let export = hanablive::read(&std::fs::read_to_string(game_path()).unwrap()).unwrap();
    let p = Problem::new(&game_source(40)).unwrap();
    let tracker = hanablive::replay_to(&export, 39).unwrap();
    assert_eq!(p.deal.pile, tracker.deal().pile);
    assert_eq!(p.state, *tracker.state());
    assert_eq!(p.names, tracker.names());
    assert_eq!(p.first_turn, 40);
    assert!(p.in_progress && p.is_whole_game());
    let game = p.game.as_ref().unwrap();
    assert_eq!((&game.export, game.index), (&export, 39));
    assert_eq!(
        p.label,
        format!("game {} at turn 40", game_path().display())
    );

    let start = Problem::new(&game_source(1)).unwrap();
    assert!(!start.in_progress && start.game.is_some());
}

#[test]
fn a_game_turn_must_be_in_play() {
    assert!(matches!(
        Problem::new(&game_source(0)),
        Err(AnalysisError::TurnZero)
    ));
    for turn in [47, 99] {
        match Problem::new(&game_source(turn)) {
            Err(AnalysisError::TurnAfterEnd { last, .. }) => assert_eq!(last, 46),
            other => panic!("turn {turn}: {other:?}"),
        }
    }
}

#[test]
fn views_read_as_written() {
    assert_eq!("open".parse::<View>().unwrap(), View::Open);
    assert_eq!("cheat".parse::<View>().unwrap(), View::Cheat);
    assert_eq!("seat=2".parse::<View>().unwrap(), View::Seat("2".into()));
    assert_eq!("team".parse::<View>().unwrap(), View::Team);
    for bad in ["seat=", "Alice", "", "Team", "team=1"] {
        assert!(matches!(
            bad.parse::<View>(),
            Err(AnalysisError::UnknownView(_))
        ));
    }
}

#[test]
fn the_cheat_view_hides_the_pile_only() {
    let open = ViewedPosition::new(&seed_source("p2v0s1"), &View::Open).unwrap();
    assert_eq!(open.position.hidden(), 0);
    assert_eq!(open.label, "seed p2v0s1");
    let cheat = ViewedPosition::new(&seed_source("p2v0s1"), &View::Cheat).unwrap();
    assert!(cheat.position.pile.iter().all(Option::is_none));
    assert_eq!(cheat.position.hands, open.position.hands);
    assert_eq!(cheat.position.hidden(), open.position.pile.len());
}

#[test]
fn a_seat_view_hides_the_pile_and_that_seat_s_hand() {
    let by_number = ViewedPosition::new(&game_source(40), &View::Seat("2".into())).unwrap();
    let name = by_number.position.names[1].clone();
    let by_name = ViewedPosition::new(&game_source(40), &View::Seat(name)).unwrap();
    assert_eq!(by_number, by_name);
    let pos = &by_number.position;
    assert!(pos.pile.iter().all(Option::is_none));
    for (seat, hand) in pos.hands.iter().enumerate() {
        assert_eq!(hand.iter().all(Option::is_none), seat == 1, "seat {seat}");
    }

    assert!(matches!(
        ViewedPosition::new(&game_source(40), &View::Seat("9".into())),
        Err(AnalysisError::SeatNumber {
            number: 9,
            seats: 4
        })
    ));
    assert!(matches!(
        ViewedPosition::new(&seed_source("p2v0s1"), &View::Seat("1".into())),
        Err(AnalysisError::SeatNeedsGame)
    ));
}

#[test]
fn the_team_view_hides_every_hand_narrowed_by_its_holder_s_clues() {
    let open = ViewedPosition::new(&game_source(40), &View::Open).unwrap();
    let team = ViewedPosition::new(&game_source(40), &View::Team).unwrap();
    let pos = &team.position;
    assert!(pos.pile.iter().all(Option::is_none));
    assert!(pos.hands.iter().flatten().all(Option::is_none));
    assert_eq!(pos.hidden(), open.position.hidden() + 24);
    assert!(pos.has_hints());
    // Each seat's cards carry what that seat was told, which always allows the card dealt.
    let game = hanablive::read(&std::fs::read_to_string(game_path()).unwrap()).unwrap();
    for (seat, hand) in open.position.hands.iter().enumerate() {
        let masks = hanablive::clue_knowledge(&game, 39, seat).unwrap();
        assert_eq!(pos.hints[seat], masks, "seat {seat}");
        for (card, mask) in hand.iter().zip(&masks) {
            assert_ne!(mask & card.unwrap().kind_bit(), 0, "seat {seat}");
        }
    }
    // Written as a position file (`r?`, `?1`, `?{...}`), it reads back to the same position.
    let text = position::to_text(&position::PositionFile::from_position(pos));
    let back = position::read(&text).unwrap_or_else(|f| panic!("{f}\n{text}"));
    assert_eq!(back.hands, pos.hands);
    assert_eq!(back.pile, pos.pile);
    for (seat, hints) in pos.hints.iter().enumerate() {
        let kinds = pos.rules.variant.kinds();
        let normal: Vec<u64> = hints
            .iter()
            .map(|&h| {
                if h & kinds == kinds {
                    u64::MAX
                } else {
                    h & kinds
                }
            })
            .collect();
        assert_eq!(back.hints[seat], normal, "seat {seat}");
    }
    assert_eq!(
        (
            back.stacks,
            back.discards,
            back.clues,
            back.strikes,
            back.turn,
            back.final_turns
        ),
        (
            pos.stacks.clone(),
            pos.discards.clone(),
            pos.clues,
            pos.strikes,
            pos.turn,
            pos.final_turns
        )
    );
    // A deal not yet played: every hand hidden, nobody told anything.
    let start = ViewedPosition::new(&seed_source("p2v0s1"), &View::Team).unwrap();
    assert_eq!(start.position.hidden(), 50);
    assert!(!start.position.has_hints());
    // A position file is the team's view as written.
    let path = manifest("positions/team/01-blind-play-vs-clue.hanabi");
    let file = ViewedPosition::new(&Source::PositionFile(path.clone()), &View::Team).unwrap();
    let written = ViewedPosition::new(&Source::PositionFile(path), &View::Open).unwrap();
    assert_eq!(file, written);
}

#[test]
fn a_seed_report_has_the_fields_solve_json_printed() {
    let p = Problem::new(&seed_source("p2v0s1")).unwrap();
    let report = analysis::solve(&p, &config(), None, None, false).unwrap();
    assert_sorted_keys(&report);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        keys(&json),
        [
            "deal",
            "deck",
            "endless",
            "line",
            "lower_bound",
            "max_score",
            "names",
            "nodes",
            "perfect_score",
            "players",
            "proven",
            "score_words",
            "seconds",
            "seed",
            "table_entries",
            "upper_bound",
            "variant",
            "variant_id",
            "winnable",
        ]
    );
    assert_eq!(json["winnable"], true);
    assert_eq!(json["seed"], "p2v0s1");
    assert_eq!(json["deck"].as_array().unwrap().len(), 50);
    assert_eq!(report.line.len(), report.actions.len());
    assert_eq!(report.line[0].turn, 1);

    let text = report.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Deal: seed p2v0s1, 2 players, No Variant (hand size 5, 8 clues, 3 strikes)"
    );
    assert!(lines[1].starts_with("Maximum score: 25 of 25: winnable"));
    assert_eq!(lines.len(), 4 + report.line.len());
    assert!(!text.ends_with('\n'));
}

#[test]
fn a_lost_seed_reports_why() {
    let p = Problem::new(&seed_source("p2v0s731")).unwrap();
    let report = analysis::solve(&p, &config(), None, None, false).unwrap();
    assert_sorted_keys(&report);
    assert_eq!(report.winnable, Some(false));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["reason"], report.reason.unwrap().name());
    assert!(report.to_string().contains("is out of reach: "));
}

#[test]
fn a_game_report_shows_the_position_and_numbers_the_line_from_its_turn() {
    let p = Problem::new(&game_source(40)).unwrap();
    let report = analysis::solve(&p, &config(), None, None, false).unwrap();
    assert_sorted_keys(&report);
    let json = serde_json::to_value(&report).unwrap();
    assert!(json.get("deck").is_none());
    let position = &json["position"];
    assert_eq!(
        keys(position),
        [
            "clues",
            "final_turns",
            "hands",
            "pile",
            "score",
            "stacks",
            "strikes",
            "to_move",
            "turn"
        ]
    );
    assert_eq!(position["turn"], 40);
    assert_eq!(position["to_move"], p.names[p.state.turn as usize].as_str());
    assert_eq!(report.line[0].turn, 40);
    assert!(report
        .to_string()
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("Position: "));

    // The exported game replays to the score found.
    let export = p.export_line(&report.actions).unwrap();
    let replay = hanablive::replay(&export).unwrap();
    assert_eq!(replay.score, report.max_score);
}

#[test]
fn a_seed_line_exports_and_writes_positions_of_itself() {
    let p = Problem::new(&seed_source("p2v0s1")).unwrap();
    let report = analysis::solve(&p, &config(), None, None, false).unwrap();
    let replay = hanablive::replay(&p.export_line(&report.actions).unwrap()).unwrap();
    assert_eq!(replay.score, report.max_score);

    let first = p.position_on_line(&report.actions, 1).unwrap();
    assert_eq!(
        first,
        format!(
            "# seed p2v0s1\n{}",
            position::write(&p.deal, &p.state, &p.names)
        )
    );
    let later = p.position_on_line(&report.actions, 3).unwrap();
    assert!(later.starts_with("# seed p2v0s1: the position before turn 3 of an optimal line\n"));
    let written = position::read(&later).unwrap();
    assert_eq!(written.turn, 0, "two turns later, Alice is to move again");
    let n = report.actions.len();
    for turn in [0, n + 1] {
        match p.position_on_line(&report.actions, turn) {
            Err(AnalysisError::NotOnLine { first, last, .. }) => assert_eq!((first, last), (1, n)),
            other => panic!("turn {turn}: {other:?}"),
        }
    }
}

/// The record `seeds` would write for `seed` under `rules`: the search alone, `config()`'s
/// limits, with or without `certify`.
fn plain_record(seed: &str, rules: &Rules, certify: bool) -> hanabi_solver::batch::Record {
    let game = Game::of(rules);
    analysis::seed_record(seed, rules, &game, &config(), SatPlan::default(), certify).unwrap()
}

#[test]
fn a_seed_record_agrees_with_the_report() {
    let rules = no_variant(2);
    let p = Problem::new(&seed_source("p2v0s731")).unwrap();
    let report = analysis::solve(&p, &config(), None, None, false).unwrap();
    let game = Game::of(&rules);
    let record = plain_record("p2v0s731", &rules, false);
    assert_eq!(Some(&record.deck), report.deck.as_ref());
    assert_eq!(record.outcome.max_score, report.max_score);
    assert_eq!(record.outcome.winnable, report.winnable);
    assert_eq!(
        record.outcome.reason.as_deref(),
        report.reason.map(|r| r.name())
    );
    // With the SAT solver beside it: the same answer (the search settles this seed alone).
    let with_sat = analysis::seed_record(
        "p2v0s731",
        &rules,
        &game,
        &config(),
        SatPlan::after(Some(Duration::ZERO)),
        false,
    )
    .unwrap();
    assert_eq!(with_sat.outcome.max_score, report.max_score);
    assert_eq!(with_sat.outcome.winnable, report.winnable);
}

/// A 5-player Black seed the search leaves between 29 and 30 for minutes: cut to a few nodes,
/// the search leaves it open, and the SAT solver beside it finds a winning line (which the
/// record checks against the rules).
#[test]
fn the_sat_solver_settles_a_seed_the_search_leaves_open() {
    let rules = Rules::new(
        Variant::parse("Black (6 Suits)").unwrap(),
        5,
        &Options::default(),
    )
    .unwrap();
    let game = Game::of(&rules);
    let cut = SolveConfig {
        max_nodes: Some(100),
        ..config()
    };
    let alone =
        analysis::seed_record("p5v2s202", &rules, &game, &cut, SatPlan::default(), false).unwrap();
    assert_eq!(alone.outcome.winnable, None);
    assert!(!alone.outcome.by_sat);
    let at_once = SatPlan::after(Some(Duration::ZERO));
    let with_sat = analysis::seed_record("p5v2s202", &rules, &game, &cut, at_once, false).unwrap();
    assert_eq!(with_sat.outcome.winnable, Some(true));
    assert!(with_sat.outcome.proven && with_sat.outcome.by_sat);
    // With a core of its own (`seeds --cores-per-seed 2`), the same: the search stops at its
    // nodes and hands its core to the per-draw formula, beside the per-turn one.
    let own_core = SatPlan {
        own_core: true,
        ..at_once
    };
    let with_core =
        analysis::seed_record("p5v2s202", &rules, &game, &cut, own_core, false).unwrap();
    assert_eq!(with_core.outcome.winnable, Some(true));
    assert!(with_core.outcome.proven && with_core.outcome.by_sat);
    // With a core lent by the batch's other worker once it asks (at once here), the same.
    let spare = SpareCores::new(Duration::ZERO);
    let done = AtomicBool::new(false);
    let lent = std::thread::scope(|scope| {
        scope.spawn(|| spare.lend_until(|| done.load(Ordering::Relaxed)));
        let lending = SatPlan {
            spare: Some(&spare),
            ..at_once
        };
        let lent = analysis::seed_record("p5v2s202", &rules, &game, &cut, lending, false);
        done.store(true, Ordering::Relaxed);
        lent.unwrap()
    });
    assert_eq!(lent.outcome.winnable, Some(true));
    assert!(lent.outcome.proven && lent.outcome.by_sat);
    // A time limit that ends before the SAT solver would start keeps it out.
    let short = SolveConfig {
        time_limit: Some(Duration::from_millis(400)),
        ..cut
    };
    let after = SatPlan::after(Some(Duration::from_millis(500)));
    let kept_out = analysis::seed_record("p5v2s202", &rules, &game, &short, after, false).unwrap();
    assert_eq!(kept_out.outcome.winnable, None);
    assert!(!kept_out.outcome.by_sat);
}

#[test]
fn hidden_card_reports_have_the_fields_solve_json_printed() {
    let viewed = ViewedPosition::new(&tiny_deck_source(), &View::Cheat).unwrap();
    assert_eq!(viewed.position.hidden(), 8);

    let exact = ExactReport::new(&viewed, &ExactConfig::default()).unwrap();
    assert_sorted_keys(&exact);
    let json = serde_json::to_value(&exact).unwrap();
    assert_eq!(
        keys(&json),
        [
            "hidden",
            "mode",
            "moves",
            "nodes",
            "orders",
            "perfect_score",
            "position",
            "seconds",
            "table_entries",
            "to_move"
        ]
    );
    assert_eq!(json["mode"], "exact");
    assert_eq!(
        keys(&json["moves"][0]),
        [
            "action",
            "expected_score",
            "expected_score_fraction",
            "slot",
            "win_probability",
            "win_probability_fraction"
        ]
    );
    assert_eq!(
        exact.to_string().lines().next().unwrap(),
        "Position: the given deck, 2 players, 2 suits x 3 ranks (hand size 2); Alice to move; \
         8 hidden cards"
    );

    let sampled = SampleReport::new(&viewed, 5, 0, &config(), None).unwrap();
    assert_sorted_keys(&sampled);
    let json = serde_json::to_value(&sampled).unwrap();
    assert_eq!(
        keys(&json),
        [
            "hidden",
            "mode",
            "moves",
            "optimistic",
            "perfect_score",
            "position",
            "requested_samples",
            "rng_seed",
            "samples",
            "to_move",
            "unproven"
        ]
    );
    assert_eq!(
        (json["mode"].as_str(), json["samples"].as_u64()),
        (Some("samples"), Some(5))
    );
    assert_eq!(
        keys(&json["moves"][0]),
        [
            "action",
            "ci95",
            "expected_score",
            "slot",
            "unproven",
            "win_probability"
        ]
    );
    assert_eq!(
        keys(&json["moves"][0]["ci95"]),
        ["expected_score", "win_probability"]
    );
    // Every action of the tiny deck wins in every sample.
    assert!(sampled.moves.iter().all(|m| m.win_probability == 1.0));
}

/// A two-player game of a winnable seed where Bob throws away a 5 on turn 2 (after Alice tells
/// him about it): the review must find that turn, and only it, and its figures must be the
/// plain solver's on every position of the game.
#[test]
fn a_review_finds_the_turn_that_threw_the_win_away() {
    use hanabi_solver::analysis::{review, ReviewOptions};
    use hanabi_solver::hanablive::{link, DeckCard, ExportAction, GameExport, GameOptions};
    use hanabi_solver::search::solve;
    let v = Variant::no_variant();
    let rules = Rules::new(v.clone(), 2, &Options::default()).unwrap();
    let config = SolveConfig {
        tt_mb: 64,
        ..SolveConfig::default()
    };
    // The first seed whose deal is winnable and deals Bob a 5.
    let (deck, five) = (1..200)
        .find_map(|n| {
            let deck = shuffled_deck(&format!("p2v0s{n}"), &v);
            let five = (5..10).find(|&o| deck[o].rank() == 5)?;
            let (deal, state) = Deal::from_deck(rules.clone(), &deck).unwrap();
            (solve(&deal, &state, &config).max_score == 25).then_some((deck, five))
        })
        .expect("a seed deals Bob a 5");
    let game = GameExport {
        id: None,
        players: vec!["Alice".into(), "Bob".into()],
        deck: deck
            .iter()
            .map(|c| DeckCard {
                suit_index: i64::from(c.suit()),
                rank: i64::from(c.rank()),
            })
            .collect(),
        actions: vec![
            ExportAction::clue(hanablive::RANK_CLUE, 1, 5),
            ExportAction::discard(five),
        ],
        options: Some(GameOptions {
            variant: Some("No Variant".into()),
            ..GameOptions::default()
        }),
        seed: None,
    };
    let options = ReviewOptions {
        search: config.clone(),
        site: link::SITE.to_string(),
        chances: None,
    };
    let r = review(&game, "thrown", &options, &mut |_| {}).unwrap();
    assert_eq!(r.max_at_start, 25);
    assert_eq!(r.lost_at, vec![2], "{r}");
    let replay = hanablive::replay(&game).unwrap();
    for (t, turn) in r.turns.iter().enumerate() {
        assert!(turn.proven, "turn {}", turn.turn);
        for (value, i) in [(turn.max_before, t), (turn.max_after, t + 1)] {
            let want = solve(&replay.deal, &replay.states[i], &config).max_score;
            assert_eq!(value, want, "turn {}: position {i}", turn.turn);
        }
        // Each turn's link opens the game itself at that turn.
        let turn_link = turn.link.as_deref().expect("a link");
        assert!(
            turn_link.ends_with(&format!("#{}", turn.turn)),
            "{turn_link}"
        );
        assert_eq!(link::decode(turn_link).unwrap().actions, game.actions);
    }
    let lost = &r.turns[1];
    assert!(lost.max_after < 25 && !lost.best_moves.is_empty(), "{r}");
    // The moves that kept it, in groups equal in every figure (each proven to keep 25 here:
    // one group), as `solve --exact` puts equal moves on one line: every move once, in its
    // order, a group's moves one after another.
    let grouped: Vec<&String> = lost
        .best_move_groups
        .iter()
        .flat_map(|g| &g.moves)
        .collect();
    assert_eq!(grouped, lost.best_moves.iter().collect::<Vec<_>>(), "{r}");
    assert_eq!(lost.best_move_groups.len(), 1, "{r}");
    let kept = &lost.best_move_groups[0];
    assert_eq!((kept.max, kept.upper), (25, 25), "{r}");
    if lost.best_moves.len() > 1 {
        assert!(
            r.to_string().contains(&format!(
                "moves that kept 25: {}\n",
                lost.best_moves.join(", ")
            )),
            "{r}"
        );
    }
    assert!(r.turns[0].best_move_groups.is_empty());
    // What was lost, named: the 5 Bob threw away (deck order `five`), the only copy.
    let name = v.card_name(deck[five]);
    assert_eq!(
        lost.lost.as_deref(),
        Some(format!("the last copy of {name} was discarded").as_str()),
        "{r}"
    );
    assert!(r.turns[0].lost.is_none());
    // Bob's hand is deck orders 5..10, the first dealt his oldest: hanab.live's slot 5.
    let slot = 10 - five;
    assert_eq!(
        lost.action,
        format!("Bob discards {name} (slot {slot})"),
        "{r}"
    );
    // Solving the game after it names the card and the turn that lost it.
    let after = Problem::from_game(game.clone(), "thrown", 3).unwrap();
    let report = analysis::solve(&after, &config, None, None, false).unwrap();
    assert_eq!(report.winnable, Some(false));
    assert_eq!(report.reason.map(|r| r.name()), Some("lost-card"));
    assert_eq!(report.lost_cards.len(), 1, "{report}");
    let gone = &report.lost_cards[0];
    assert_eq!(
        (gone.card.as_str(), gone.how, gone.turn),
        (name.as_str(), Some("discarded"), Some(2))
    );
    assert!(
        report.to_string().contains(&format!(
            "Why 25 is out of reach: {name} was discarded at turn 2."
        )),
        "{report}"
    );
    // The best line, opened from its link, replays to the maximum that turn had.
    let best = link::decode(lost.best_link.as_deref().expect("a best line")).unwrap();
    assert_eq!(best.actions[0], game.actions[0]);
    assert_eq!(hanablive::replay(&best).unwrap().score, 25, "{r}");
    // The text puts the summary first.
    let text = r.to_string();
    let summary = text
        .find("turn 2: Bob discards")
        .expect("the lost turn in words");
    assert!(summary < text.find("max before").unwrap(), "{text}");
}

/// What an action lost, from the rules alone: a strike that ends the game, the last copy of a
/// card still needed, too few turns left; and which gone cards still matter.
#[test]
fn loss_words_name_what_was_lost() {
    use hanabi_solver::analysis::loss::{needed_cards_gone, turn_loss};
    use hanabi_solver::state::Action;
    let rules = no_variant(2);
    let v = &rules.variant;
    let deck = shuffled_deck("p2v0s1", v);
    let (deal, start) = Deal::from_deck(rules.clone(), &deck).unwrap();
    // Three misplays in a row: a card of rank 2 or more, which nothing on the empty stacks
    // takes, and the third strike ends the game.
    let mut states = vec![start];
    for _ in 0..3 {
        let s = *states.last().unwrap();
        let hand = s.hand(s.turn as usize);
        let i = hand.iter().position(|c| c.rank() > 1).unwrap();
        states.push(s.apply(&deal, Action::Play(i as u8)).unwrap());
    }
    assert_eq!(
        turn_loss(&deal, &states[2], &states[3], 25),
        "strike 3 ended the game, which scores 0"
    );
    // Alice discards her b5 (dealt first: the oldest card, index 0).
    let mut s = start;
    s.clues = 7;
    assert_eq!(v.card_name(s.hand(0)[0]), "b5");
    let after = s.apply(&deal, Action::Discard(0)).unwrap();
    assert_eq!(
        turn_loss(&deal, &s, &after, 25),
        "the last copy of b5 was discarded"
    );
    assert_eq!(needed_cards_gone(&rules, &after), [s.hand(0)[0]]);
    // Both b4s gone as well: both cards are still needed, each keeping blue lower.
    let mut both = after;
    let b4 = v.parse_card("b4").unwrap();
    both.add_lost(b4, 2);
    assert_eq!(
        needed_cards_gone(&rules, &both)
            .iter()
            .map(|&c| v.card_name(c))
            .collect::<Vec<_>>(),
        ["b4", "b5"]
    );
    // The stall position: discarding an r3 (another is left) draws the last card, and two
    // turns are too few for r2, r3 and r4.
    let p = Problem::new(&Source::PositionFile(manifest("positions/stall.hanabi"))).unwrap();
    let next = p.state.apply(&p.deal, Action::Discard(0)).unwrap();
    assert_eq!(
        turn_loss(&p.deal, &p.state, &next, 4),
        "too few turns left to play every card still needed"
    );
    assert!(needed_cards_gone(&p.deal.rules, &next).is_empty());
}

fn black(players: u8) -> Rules {
    Rules::new(
        Variant::parse("Black (6 Suits)").unwrap(),
        players,
        &Options::default(),
    )
    .unwrap()
}

/// With `certify`, a best score proven below the perfect score comes with a checked proof that
/// no line reaches one point more, in the report and in a batch record alike; a winnable deal
/// has none (its line is its certificate), and a proof the time runs out on says so.
#[test]
fn a_bound_below_the_perfect_score_is_certified() {
    let rules = black(6);
    // p6v2s446: 26 of 30, its fives drawn too late.
    let source = |seed: &str| Source::Seed {
        seed: seed.to_string(),
        rules: rules.clone(),
    };
    let p = Problem::new(&source("p6v2s446")).unwrap();
    let report = analysis::solve(&p, &config(), None, None, true).unwrap();
    assert_eq!((report.max_score, report.proven), (26, true));
    let c = report.certificate.as_ref().expect("a certificate");
    assert!(c.checked && c.score == 27 && c.proof_bytes > 0, "{c:?}");
    let record = plain_record("p6v2s446", &rules, true);
    assert_eq!(
        record.outcome.certificate.as_ref().map(|c| c.score),
        Some(27)
    );
    let line = record.to_line();
    let back = hanabi_solver::batch::read_records(line.as_bytes(), "line").unwrap();
    assert_eq!(back.entries[0].outcome, record.outcome);
    // Without it, none.
    let plain = plain_record("p6v2s446", &rules, false);
    assert_eq!(plain.outcome.certificate, None);
    // A winnable seed has no bound below the perfect score to certify.
    let won = Problem::new(&source("p6v2s1")).unwrap();
    let report = analysis::solve(&won, &config(), None, None, true).unwrap();
    assert_eq!((report.max_score, report.certificate), (30, None));
    // Out of time: not certified, and why.
    let c = analysis::certify_upper_bound(&p, &p_solution(&p), Some(std::time::Instant::now()))
        .unwrap()
        .unwrap();
    assert!(
        !c.checked && c.why.as_deref() == Some("the time limit came first"),
        "{c:?}"
    );
}

/// The search's answer for `p`, unlimited.
fn p_solution(p: &Problem) -> hanabi_solver::search::Solution {
    hanabi_solver::search::solve(&p.deal, &p.state, &config())
}
