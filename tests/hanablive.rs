//! hanab.live game exports: the two real exports replay legally, hand-made illegal games are
//! refused with the right reason, and exports round-trip.

use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::hanablive::{self, ExportAction, GameExport, GameOptions};
use hanabi_solver::state::{Action, Deal, State, Status};
use hanabi_solver::Error;

fn load(name: &str) -> GameExport {
    let path = format!("{}/tests/data/hanablive/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    hanablive::read(&text).unwrap()
}

fn real_game() -> GameExport {
    load("game-194321.json")
}

/// Replays `game` and returns the illegal action's index and reason.
fn illegal(game: &GameExport) -> (usize, String) {
    match hanablive::replay(game) {
        Err(Error::Illegal { index, reason }) => (index, reason),
        other => panic!("expected an illegal action, got {other:?}"),
    }
}

fn act(kind: i64, target: i64, value: Option<i64>) -> ExportAction {
    ExportAction {
        kind,
        target,
        value,
    }
}

#[test]
fn real_game_reaches_25_at_its_last_action() {
    let game = real_game();
    assert_eq!(game.players.len(), 4);
    assert_eq!(game.actions.len(), 46);
    let rules = game.rules().unwrap();
    assert_eq!(rules.variant.name, "No Variant");
    assert_eq!((rules.players, rules.hand_size), (4, 4));

    let r = hanablive::replay(&game).unwrap();
    assert_eq!(r.score, 25);
    assert_eq!(r.fireworks, 25);
    assert!(r.finished);
    assert_eq!(r.final_state().status, Status::Finished);
    assert_eq!(r.end_reason, "every firework is complete");
    assert_eq!(r.turns.len(), 46);
    assert_eq!(r.states.len(), 47);
    assert_eq!(r.actions.len(), 46);
    // The 46th action (index 45) is the one that completes the last firework.
    assert!(r.states[45].status == Status::Playing);
    assert_eq!(r.states[45].score(&rules), 24);
    let last = &r.turns[45];
    assert_eq!((last.index, last.turn), (45, 46));
    assert!(last.text.contains("plays"), "{}", last.text);
    // Turn records name the player and say what happened.
    assert_eq!(r.turns[0].player, "florrat2");
    assert_eq!(
        r.turns[0].text,
        "florrat2 clues NoMercy green (touches 1 card)"
    );
    assert!(r.turns.iter().any(|t| t.text.contains("discards")));
    assert!(r.game_over.is_none());
}

#[test]
fn partial_game_replays_and_is_still_going_on() {
    let game = load("game-p4v0s1-partial.json");
    let r = hanablive::replay(&game).unwrap();
    assert_eq!(r.turns.len(), 17);
    assert!(!r.finished);
    assert_eq!(r.final_state().status, Status::Playing);
    assert_eq!(r.end_reason, "the game is still going on");
    let s = r.final_state();
    println!(
        "partial game: score {}, clues {}, strikes {}, drawn {}, stacks {:?}",
        r.score, s.clues, s.strikes, s.drawn, s.stacks
    );
    assert_eq!(r.score, r.fireworks);
    assert_eq!((r.score, s.clues, s.strikes, s.drawn), (8, 1, 0, 9));
}

/// hanab.live stops a game once the score cannot grow: at the most still possible, or in the
/// final round when nobody still to move holds a playable card.
#[test]
fn hanablive_ends_games_that_cannot_score_more() {
    let rules = Rules::new(Variant::no_variant(), 2, &Options::default()).unwrap();
    let v = &rules.variant;
    let card = |name: &str| v.parse_card(name).unwrap();
    let deal = Deal::with_pile(rules.clone(), vec![card("g1")]);
    let mut s = State::empty();
    s.stacks = [4, 5, 5, 5, 5, 0].map(hanabi_solver::game::play::Stack::of_height);
    s.clues = 3;
    for c in ["r1", "y1"] {
        s.push(0, card(c));
    }
    for c in ["r2", "b1"] {
        s.push(1, card(c));
    }
    // r5 is still to come: play on.
    assert_eq!(hanablive::max_achievable(&rules, &s), 25);
    assert_eq!(hanablive::live_end(&deal, &s), None);
    // r5 lost: 24 is the most, and the score is there.
    s.add_lost(card("r5"), 1);
    assert_eq!(hanablive::max_achievable(&rules, &s), 24);
    assert!(hanablive::live_end(&deal, &s)
        .unwrap()
        .contains("most still possible"));

    // Final round: r4 is needed and only Bob holds it.
    let deal = Deal::with_pile(rules.clone(), vec![]);
    let mut s = State::empty();
    s.stacks = [3, 5, 5, 5, 5, 0].map(hanabi_solver::game::play::Stack::of_height);
    s.clues = 3;
    s.push(0, card("r1"));
    s.push(1, card("r4"));
    s.turn = 0;
    s.final_turns = 2; // Alice then Bob still move
    assert_eq!(hanablive::live_end(&deal, &s), None);
    s.final_turns = 1; // only Alice still moves
    assert!(hanablive::live_end(&deal, &s)
        .unwrap()
        .contains("final round"));
    // All or Nothing has no such stop.
    let endless = Rules::new(
        Variant::no_variant(),
        2,
        &Options {
            endless: true,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(
        hanablive::live_end(&Deal::with_pile(endless, vec![]), &s),
        None
    );
}

#[test]
fn replay_to_gives_the_position_before_an_action() {
    let game = real_game();
    let full = hanablive::replay(&game).unwrap();
    for n in [0, 1, 10, 45, 46] {
        let t = hanablive::replay_to(&game, n).unwrap();
        assert_eq!(*t.state(), full.states[n], "before action {n}");
    }
    assert!(hanablive::replay_to(&game, 47).is_err());
    // Card orders follow the hands: the card NoMercy plays at action 2 (order 8) is in their
    // hand before it, and gone after.
    let t = hanablive::replay_to(&game, 2).unwrap();
    assert_eq!(t.state().turn, 2);
    assert_eq!(t.hand_orders(2), &[8, 9, 10, 11]);
    let t = hanablive::replay_to(&game, 3).unwrap();
    assert_eq!(t.hand_orders(2), &[9, 10, 11, 16]);
}

#[test]
fn play_of_a_card_not_in_hand_is_refused() {
    let mut game = real_game();
    game.actions[0] = act(0, 10, None); // order 10 is NoMercy's
    let (index, reason) = illegal(&game);
    assert_eq!(index, 0);
    assert!(
        reason.contains("card 10 is not in florrat2's hand"),
        "{reason}"
    );
    assert!(reason.contains("NoMercy"), "{reason}");

    let mut game = real_game();
    game.actions[3] = act(1, 40, None); // still in the draw pile
    let (index, reason) = illegal(&game);
    assert_eq!(index, 3);
    assert!(reason.contains("draw pile"), "{reason}");
}

#[test]
fn clue_to_self_is_refused() {
    let mut game = real_game();
    game.actions[0] = act(3, 0, Some(1));
    let (index, reason) = illegal(&game);
    assert_eq!(index, 0);
    assert!(reason.contains("themselves"), "{reason}");
}

#[test]
fn clue_touching_nothing_is_refused_unless_empty_clues() {
    // James (seat 1) holds b4 p2 p2 g3: no 1.
    let mut game = real_game();
    game.actions[0] = act(3, 1, Some(1));
    let (index, reason) = illegal(&game);
    assert_eq!(index, 0);
    assert!(reason.contains("touches no card"), "{reason}");

    game.options = Some(GameOptions {
        empty_clues: Some(true),
        ..GameOptions::default()
    });
    game.actions.truncate(1);
    let r = hanablive::replay(&game).unwrap();
    assert_eq!(r.turns[0].text, "florrat2 clues James 1 (touches no card)");
}

#[test]
fn clue_with_no_token_is_refused() {
    let mut game = real_game();
    // Eight clues, each on the first card of the next player, spend every token.
    let first_rank = |seat: usize| game.deck[seat * 4].rank;
    let clues: Vec<ExportAction> = (0..9)
        .map(|i| act(3, ((i + 1) % 4) as i64, Some(first_rank((i + 1) % 4))))
        .collect();
    game.actions = clues;
    let (index, reason) = illegal(&game);
    assert_eq!(index, 8);
    assert!(reason.contains("no clue token"), "{reason}");
}

#[test]
fn discard_at_eight_tokens_is_refused() {
    let mut game = real_game();
    game.actions[0] = act(1, 0, None);
    let (index, reason) = illegal(&game);
    assert_eq!(index, 0);
    assert!(reason.contains("clue tokens"), "{reason}");
}

#[test]
fn colour_value_out_of_range_is_refused() {
    let mut game = real_game();
    game.actions[1] = act(2, 2, Some(5));
    let (index, reason) = illegal(&game);
    assert_eq!(index, 1);
    assert!(reason.contains("out of range"), "{reason}");

    let mut game = real_game();
    game.actions[0] = act(3, 1, Some(6));
    let (index, reason) = illegal(&game);
    assert_eq!(index, 0);
    assert!(reason.contains("rank value 6"), "{reason}");

    let mut game = real_game();
    game.actions[0] = act(3, 4, Some(1));
    let (_, reason) = illegal(&game);
    assert!(reason.contains("no seat 4"), "{reason}");
}

#[test]
fn unknown_action_type_and_actions_after_the_end_are_refused() {
    let mut game = real_game();
    game.actions[0] = act(9, 0, None);
    let (index, reason) = illegal(&game);
    assert_eq!(index, 0);
    assert!(reason.contains("unknown action type 9"), "{reason}");

    let mut game = real_game();
    game.actions.push(act(3, 1, Some(1)));
    let (index, reason) = illegal(&game);
    assert_eq!(index, 46);
    assert!(reason.contains("already over"), "{reason}");
}

#[test]
fn wrong_deck_size_is_refused() {
    let mut game = real_game();
    game.deck.pop();
    match hanablive::replay(&game) {
        Err(Error::Deck(m)) => assert!(m.contains("50 cards") && m.contains("49"), "{m}"),
        other => panic!("expected a deck error, got {other:?}"),
    }
}

#[test]
fn card_the_variant_lacks_is_refused() {
    let mut game = real_game();
    game.deck[0].suit_index = 7;
    match hanablive::replay(&game) {
        Err(Error::Deck(m)) => assert!(m.contains("suitIndex 7"), "{m}"),
        other => panic!("expected a deck error, got {other:?}"),
    }
    // A swapped card keeps the size but breaks the copy counts.
    let mut game = real_game();
    game.deck[0] = game.deck[10]; // y5 twice
    match hanablive::replay(&game) {
        Err(Error::Deck(m)) => assert!(m.contains("too many copies of y5"), "{m}"),
        other => panic!("expected a deck error, got {other:?}"),
    }
}

#[test]
fn unparsable_json_is_refused() {
    match hanablive::read("{\"players\": [") {
        Err(Error::Json(m)) => assert!(m.contains("EOF"), "{m}"),
        other => panic!("expected a JSON error, got {other:?}"),
    }
    assert!(
        matches!(hanablive::read("{\"players\": []}"), Err(Error::Json(m)) if m.contains("deck"))
    );
}

#[test]
fn unknown_variant_and_unsupported_options_are_refused() {
    let mut game = real_game();
    game.options = Some(GameOptions {
        variant: Some("Purple Rain".into()),
        ..GameOptions::default()
    });
    match hanablive::replay(&game) {
        Err(Error::UnknownVariant(v)) => assert_eq!(v, "Purple Rain"),
        other => panic!("expected an unknown variant, got {other:?}"),
    }

    for flag in ["cardCycle", "detrimentalCharacters", "someFutureRule"] {
        let text = std::fs::read_to_string(format!(
            "{}/tests/data/hanablive/game-194321.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let patched = text.replacen(
            "{",
            &format!("{{\"options\": {{\"{flag}\": true, \"timed\": true}},"),
            1,
        );
        let game = hanablive::read(&patched).unwrap();
        match game.rules() {
            Err(Error::Option(m)) => {
                assert!(m.contains(flag) && m.contains("not supported"), "{m}")
            }
            other => panic!("expected {flag} to be refused, got {other:?}"),
        }
    }
    // A false flag and harmless options are fine.
    let mut game = real_game();
    let mut opts = GameOptions::default();
    opts.other
        .insert("cardCycle".into(), serde_json::Value::Bool(false));
    opts.other
        .insert("timePerTurn".into(), serde_json::json!(20));
    game.options = Some(opts);
    assert_eq!(hanablive::replay(&game).unwrap().score, 25);
}

#[test]
fn hand_size_options_map_to_rules() {
    let mut game = real_game();
    game.options = Some(GameOptions {
        one_extra_card: Some(true),
        ..GameOptions::default()
    });
    assert_eq!(game.rules().unwrap().hand_size, 5);
    game.options = Some(GameOptions {
        one_less_card: Some(true),
        deck_plays: Some(true),
        ..GameOptions::default()
    });
    let r = game.rules().unwrap();
    assert_eq!((r.hand_size, r.deck_plays, r.endless), (3, true, false));
    game.options = Some(GameOptions {
        all_or_nothing: Some(true),
        ..GameOptions::default()
    });
    assert!(game.rules().unwrap().endless);
}

#[test]
fn export_of_the_replayed_line_round_trips() {
    let game = real_game();
    let r = hanablive::replay(&game).unwrap();
    let deck = game.cards(&r.deal.rules.variant).unwrap();
    let out = hanablive::export_line(&deck, &r.deal.rules, &r.names, &r.actions).unwrap();
    // The game ends by itself: no game-over action is added.
    assert_eq!(out.actions.len(), 46);
    for (a, b) in out.actions.iter().zip(&game.actions) {
        assert_eq!(a.kind == 0 || a.kind == 1, b.kind == 0 || b.kind == 1);
        if a.kind <= 1 {
            assert_eq!((a.kind, a.target), (b.kind, b.target));
        }
    }
    let text = hanablive::to_json(&out);
    assert!(text.contains("\"variant\": \"No Variant\""), "{text}");
    let back = hanablive::read(&text).unwrap();
    let r2 = hanablive::replay(&back).unwrap();
    assert_eq!(r2.score, 25);
    assert_eq!(r2.actions, r.actions);
    assert_eq!(r2.final_state(), r.final_state());

    // The plain writer keeps the actions as they are.
    let same = hanablive::export(&r.deal.rules, &r.names, &deck, &game.actions).unwrap();
    assert_eq!(hanablive::replay(&same).unwrap().score, 25);
}

#[test]
fn an_unfinished_line_gets_a_game_over_action() {
    let game = real_game();
    let r = hanablive::replay(&game).unwrap();
    let deck = game.cards(&r.deal.rules.variant).unwrap();
    let out = hanablive::export_line(&deck, &r.deal.rules, &r.names, &r.actions[..10]).unwrap();
    assert_eq!(out.actions.len(), 11);
    assert_eq!(
        out.actions[10],
        ExportAction::game_over(2, hanablive::TERMINATED)
    );
    let r2 = hanablive::replay(&out).unwrap();
    assert!(r2.finished);
    assert_eq!(r2.score, 0);
    assert_eq!(r2.game_over.as_ref().unwrap().index, 10);
    assert!(
        r2.end_reason.contains("game-over action"),
        "{}",
        r2.end_reason
    );
    assert_eq!(r2.turns[10].text, "game over: NoMercy ended the game");

    // An illegal line is refused with its index.
    let mut bad = r.actions[..3].to_vec();
    bad.push(Action::Play(9));
    match hanablive::export_line(&deck, &r.deal.rules, &r.names, &bad) {
        Err(Error::Illegal { index, .. }) => assert_eq!(index, 3),
        other => panic!("expected an illegal line, got {other:?}"),
    }
}

#[test]
fn hand_size_that_hanablive_cannot_express_is_refused_on_export() {
    let rules = Rules::new(
        Variant::no_variant(),
        2,
        &Options {
            hand_size: Some(3),
            ..Options::default()
        },
    )
    .unwrap();
    let names = hanablive::default_names(2);
    let deck = rules.variant.deck();
    match hanablive::export(&rules, &names, &deck, &[]) {
        Err(Error::Option(m)) => assert!(m.contains("4 to 6"), "{m}"),
        other => panic!("expected an error, got {other:?}"),
    }
    let rules = Rules::new(
        Variant::no_variant(),
        2,
        &Options {
            hand_size: Some(6),
            ..Options::default()
        },
    )
    .unwrap();
    let game = hanablive::export(&rules, &names, &deck, &[]).unwrap();
    assert_eq!(game.options.as_ref().unwrap().one_extra_card, Some(true));
    assert_eq!(game.rules().unwrap(), rules);
}

/// Rainbow (6 Suits): rainbow cards are touched by every colour clue, and rainbow is not a clue
/// colour.
#[test]
fn colour_clues_touch_rainbow_cards() {
    let variant = Variant::parse("Rainbow (6 Suits)").unwrap();
    assert_eq!(variant.colour_clues().len(), 5);
    let rules = Rules::new(variant, 2, &Options::default()).unwrap();
    let mut deck = rules.variant.deck();
    // Bob (seat 1, deck[5..10]) gets m1 and m2 in place of r3 r3.
    deck.swap(5, 50);
    deck.swap(6, 53);
    let names = hanablive::default_names(2);
    let mut game = hanablive::export(
        &rules,
        &names,
        &deck,
        &[
            act(2, 1, Some(3)), // Alice: blue to Bob touches his two rainbow cards
            act(2, 0, Some(0)), // Bob: red to Alice touches all five
            act(2, 1, Some(0)), // Alice: red to Bob: m1 m2 r4 r4 r5
            act(0, 5, None),    // Bob plays m1
        ],
    )
    .unwrap();
    assert_eq!(
        game.options.as_ref().unwrap().variant.as_deref(),
        Some("Rainbow (6 Suits)")
    );
    let r = hanablive::replay(&game).unwrap();
    let texts: Vec<&str> = r.turns.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Alice clues Bob blue (touches 2 cards)",
            "Bob clues Alice red (touches 5 cards)",
            "Alice clues Bob red (touches 5 cards)",
            // Card 5, the first dealt to Bob, is his oldest: hanab.live's slot 5.
            "Bob plays m1 (slot 5)",
        ]
    );
    assert_eq!(r.final_state().height(5), 1);

    // Index 5 would be rainbow, which is not a clue colour.
    game.actions[0] = act(2, 1, Some(5));
    let (index, reason) = illegal(&game);
    assert_eq!(index, 0);
    assert!(reason.contains("5 clue colours"), "{reason}");

    // Without rainbow cards, a colour clue must still touch something.
    let plain = rules.variant.deck();
    let game = hanablive::export(&rules, &names, &plain, &[act(2, 1, Some(3))]).unwrap();
    let (_, reason) = illegal(&game);
    assert!(reason.contains("touches no card"), "{reason}");
}

#[test]
fn deck_plays_take_the_last_card() {
    // 2 players, No Variant, deck in order: play every card that can be played, else discard,
    // until one card is left, then play it blind.
    let rules = Rules::new(
        Variant::no_variant(),
        2,
        &Options {
            deck_plays: true,
            ..Options::default()
        },
    )
    .unwrap();
    let deck = rules.variant.deck();
    let names = hanablive::default_names(2);
    let mut t = hanablive::Tracker::new(rules.clone(), &deck, names.clone()).unwrap();
    let mut line = Vec::new();
    while t.deal().pile_left(t.state()) > 1 && !t.is_over() {
        let hand = t.state().hand(t.state().turn as usize);
        let action = match hand
            .iter()
            .position(|&c| t.state().is_playable(&t.deal().rules, c))
        {
            Some(i) => Action::Play(i as u8),
            None if t.state().can_discard(&rules) => Action::Discard(0),
            None => Action::Clue,
        };
        let a = t.to_export(action).unwrap();
        t.step(&a).unwrap();
        line.push(action);
    }
    assert!(!t.is_over());
    line.push(Action::DeckPlay);
    let out = hanablive::export_line(&deck, &rules, &names, &line).unwrap();
    let last = out.actions[line.len() - 1];
    assert_eq!((last.kind, last.target), (0, 49));
    assert_eq!(out.options.as_ref().unwrap().deck_plays, Some(true));
    let r = hanablive::replay(&out).unwrap();
    assert_eq!(r.actions.last(), Some(&Action::DeckPlay));
    assert!(
        r.turns[line.len() - 1].text.contains("from the deck"),
        "{}",
        r.turns[line.len() - 1].text
    );
}

#[test]
fn clue_knowledge_always_allows_the_true_card_and_follows_each_clue() {
    let game = real_game();
    let (mut narrowed, mut clues_checked) = (0, 0);
    for index in 0..game.actions.len() {
        let t = hanablive::replay_to(&game, index).unwrap();
        let rules = &t.deal().rules;
        for seat in 0..rules.players as usize {
            let masks = hanablive::clue_knowledge(&game, index, seat).unwrap();
            let hand = t.state().hand(seat);
            assert_eq!(masks.len(), hand.len());
            for (&m, &c) in masks.iter().zip(hand) {
                assert!(m & (1 << c.kind()) != 0, "action {index} seat {seat}");
                if m.count_ones() < 25 {
                    narrowed += 1;
                }
            }
        }
        // Right after a rank clue, the target's touched cards allow only that rank, and the
        // others never allow it.
        if index > 0 {
            let a = &game.actions[index - 1];
            if a.kind == 3 {
                let seat = a.target as usize;
                let rank = a.value.unwrap() as u8;
                let masks = hanablive::clue_knowledge(&game, index, seat).unwrap();
                for (&m, &c) in masks.iter().zip(t.state().hand(seat)) {
                    let kinds: Vec<u8> = (0..25)
                        .filter(|k| m & (1 << k) != 0)
                        .map(|k| k % 5 + 1)
                        .collect();
                    if c.rank() == rank {
                        assert!(kinds.iter().all(|&r| r == rank), "action {index}");
                    } else {
                        assert!(kinds.iter().all(|&r| r != rank), "action {index}");
                    }
                }
                clues_checked += 1;
            }
        }
    }
    assert!(narrowed > 50, "{narrowed}");
    assert!(clues_checked > 3, "{clues_checked}");
    assert!(hanablive::clue_knowledge(&game, 0, 9).is_err());
}

/// In Cow & Pig a player told "Moo" or "Oink" learns the clue's type but not its value, and in
/// Duck ("Quack") not even its type; with values shown (Pink) the clue itself narrows. Expected
/// sets come from the catalogue's touching rules, clue by clue.
#[test]
fn clue_knowledge_learns_only_what_the_variant_shows_of_a_clue() {
    use hanabi_solver::game::card::Card;
    use hanabi_solver::game::catalogue::Catalogue;
    for (id, reveals) in [(99u32, "type"), (55, "nothing"), (107, "value")] {
        let facts = Catalogue::builtin().by_id(id).unwrap();
        let variant = Variant::by_id(id).unwrap();
        let rules = Rules::new(variant.clone(), 2, &Options::default()).unwrap();
        let deck = hanabi_solver::seed::shuffled_deck(&format!("p2v{id}s3"), &variant);
        let names = vec!["Alice".to_string(), "Bob".to_string()];
        let bob: Vec<Card> = deck[5..10].to_vec();
        // Every clue, as (is colour, value, touches (suit, rank)).
        let colours = (0..facts.clue_colors.len()).map(|c| (true, c as i64));
        let ranks = facts.clue_ranks.iter().map(|&r| (false, i64::from(r)));
        let touches = |colour: bool, value: i64, c: Card| {
            let (s, r) = (c.suit() as usize, c.rank());
            if colour {
                facts.color_touches(value as usize, s, r)
            } else {
                facts.rank_touches(value as u8, s, r)
            }
        };
        let all: Vec<(bool, i64)> = colours.chain(ranks).collect();
        let mut checked = 0;
        for &(colour, value) in &all {
            if !bob.iter().any(|&c| touches(colour, value, c)) {
                continue;
            }
            let kind = if colour { 2 } else { 3 };
            let actions = [ExportAction::clue(kind, 1, value as u8)];
            let game = hanablive::export(&rules, &names, &deck, &actions).unwrap();
            let masks = hanablive::clue_knowledge(&game, 1, 1).unwrap();
            // The clues Bob cannot tell apart from this one.
            let alike: Vec<(bool, i64)> = all
                .iter()
                .copied()
                .filter(|&(c, v)| match reveals {
                    "value" => (c, v) == (colour, value),
                    "type" => c == colour,
                    _ => true,
                })
                .collect();
            for (slot, &card) in bob.iter().enumerate() {
                let hit = touches(colour, value, card);
                let want: Vec<Card> = variant
                    .deck()
                    .into_iter()
                    .filter(|&k| alike.iter().any(|&(c, v)| touches(c, v, k) == hit))
                    .collect();
                let got: Vec<Card> = variant
                    .deck()
                    .into_iter()
                    .filter(|k| masks[slot] & k.kind_bit() != 0)
                    .collect();
                assert_eq!(
                    got, want,
                    "{} clue {colour} {value} slot {slot}",
                    facts.name
                );
                checked += 1;
            }
        }
        assert!(checked >= 10, "{}: {checked}", facts.name);
    }
}

/// The DATA of a replay link as `HANABLIVE.md` spells it out, written plainly here to check the
/// library's encoder: the player count, the lowest and highest rank, a character per card;
/// the lowest and highest action type, two characters per action; the variant id; a `-` after
/// every 20 characters.
fn spec_link_data(game: &GameExport, variant_id: u32) -> String {
    let alphabet: Vec<char> = ('a'..='z').chain('0'..='9').chain('A'..='Z').collect();
    let ch = |i: i64| alphabet[i as usize];
    let lo = game.deck.iter().map(|c| c.rank).min().unwrap();
    let hi = game.deck.iter().map(|c| c.rank).max().unwrap();
    let mut s = format!("{}{lo}{hi}", game.players.len());
    for c in &game.deck {
        s.push(ch(c.suit_index * (hi - lo + 1) + c.rank - lo));
    }
    let tlo = game.actions.iter().map(|a| a.kind).min().unwrap();
    let thi = game.actions.iter().map(|a| a.kind).max().unwrap();
    s += &format!(",{tlo}{thi}");
    for a in &game.actions {
        let v = match a.value {
            None => 0,
            Some(v) => v + 1,
        };
        s.push(ch(v * (thi - tlo + 1) + a.kind - tlo));
        s.push(ch(a.target));
    }
    s += &format!(",{variant_id}");
    let chars: Vec<char> = s.chars().collect();
    chars
        .chunks(20)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// Both real games encode as the spec says, and read back from the link to the same deck and
/// actions, replaying to the same score; broken links are refused with one line.
#[test]
fn replay_links_follow_the_site_encoding_and_read_back() {
    use hanabi_solver::hanablive::link;
    for name in ["game-194321.json", "game-p4v0s1-partial.json"] {
        let game = load(name);
        let id = game.rules().unwrap().variant.id.unwrap();
        let data = link::encode(&game, id).unwrap();
        assert_eq!(data, spec_link_data(&game, id), "{name}");
        let url = link::replay_link(link::SITE, &game, id, Some(7)).unwrap();
        assert_eq!(url, format!("https://hanab.live/replay-json/{data}#7"));
        assert!(link::is_replay_link(&url) && link::link_turn(&url) == Some(7));
        let back = link::decode(&url).unwrap();
        assert_eq!(back.deck, game.deck, "{name}");
        assert_eq!(back.actions, game.actions, "{name}");
        assert_eq!(back.players.len(), game.players.len(), "{name}");
        assert_eq!(back.rules().unwrap().variant.id, Some(id), "{name}");
        let (a, b) = (
            hanablive::replay(&game).unwrap(),
            hanablive::replay(&back).unwrap(),
        );
        assert_eq!((a.score, a.finished), (b.score, b.finished), "{name}");
    }
    // Options a link cannot carry are refused rather than dropped.
    let mut game = real_game();
    game.options
        .get_or_insert_with(GameOptions::default)
        .empty_clues = Some(true);
    let e = link::encode(&game, 0).unwrap_err().to_string();
    assert!(e.contains("no game options"), "{e}");
    for bad in [
        "https://hanab.live/replay-json/",
        "https://hanab.live/replay-json/215abc,03a",
        "https://hanab.live/replay-json/915ab,03,0",
        "https://hanab.live/replay-json/215a!,03,0",
        "https://hanab.live/replay-json/215ab,03ab,99999",
    ] {
        let e = link::decode(bad).unwrap_err().to_string();
        assert_eq!(e.lines().count(), 1, "{bad}: {e}");
    }
}
