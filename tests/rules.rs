//! Every rule of ../shared/RULES.md, checked on positions built by hand. Each expected value is
//! worked out from the rule text, not from running the code.

mod common;

use common::{random_tiny_game, Rng};
use hanabi_solver::game::card::Card;
use hanabi_solver::game::rules::{default_hand_size, score_words, Options, Rules, MAX_HAND};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::state::{Action, Deal, State, Status, NOT_FINAL};

// ---------------------------------------------------------------------------------------------
// Helpers

fn rules(variant: Variant, players: u8, options: &Options) -> Rules {
    Rules::new(variant, players, options).expect("valid rules")
}

fn no_variant(players: u8) -> Rules {
    rules(Variant::no_variant(), players, &Options::default())
}

fn cards(rules: &Rules, text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| rules.variant.parse_card(t).expect("a card name"))
        .collect()
}

fn card(rules: &Rules, name: &str) -> Card {
    rules.variant.parse_card(name).unwrap()
}

/// A position built by hand: `hands[p]` oldest first, the pile top first, `clues` tokens.
fn position(rules: &Rules, hands: &[&str], pile: &str, clues: u8) -> (Deal, State) {
    let mut s = State::empty();
    for (p, hand) in hands.iter().enumerate() {
        for c in cards(rules, hand) {
            s.push(p, c);
        }
    }
    s.clues = clues;
    let deal = Deal::with_pile(rules.clone(), cards(rules, pile));
    (deal, s)
}

/// The full No Variant deck in suit order, written out by hand from the rule "an ordinary suit
/// holds ranks 1,1,1,2,2,3,3,4,4,5".
fn hand_written_no_variant_deck(rules: &Rules) -> Vec<Card> {
    let mut names = Vec::new();
    for letter in ['r', 'y', 'g', 'b', 'p'] {
        for rank in [1, 1, 1, 2, 2, 3, 3, 4, 4, 5] {
            names.push(format!("{letter}{rank}"));
        }
    }
    names.iter().map(|n| card(rules, n)).collect()
}

fn names(rules: &Rules, cards: &[Card]) -> Vec<String> {
    cards.iter().map(|&c| rules.variant.card_name(c)).collect()
}

/// Stalls without playing: discards the oldest card when a token can be regained, else clues.
fn stall(deal: &Deal, s: &State) -> Action {
    if s.clues < deal.rules.max_clues {
        Action::Discard(0)
    } else {
        Action::Clue
    }
}

// ---------------------------------------------------------------------------------------------
// Set-up

#[test]
fn block_deal_gives_seat_p_the_cards_p_h_to_p_h_plus_h() {
    // No Variant, 3 players, 5 cards each, deck in the hand-written order.
    let r = no_variant(3);
    let deck = hand_written_no_variant_deck(&r);
    let (deal, s) = Deal::from_deck(r.clone(), &deck).unwrap();
    assert_eq!(names(&r, s.hand(0)), ["r1", "r1", "r1", "r2", "r2"]);
    assert_eq!(names(&r, s.hand(1)), ["r3", "r3", "r4", "r4", "r5"]);
    assert_eq!(names(&r, s.hand(2)), ["y1", "y1", "y1", "y2", "y2"]);
    assert_eq!(deal.pile.len(), 35);
    assert_eq!(names(&r, &deal.pile[..3]), ["y3", "y3", "y4"]);
    assert_eq!(s.turn, 0, "seat 0 moves first");
    assert_eq!(s.drawn, 0);
    // Seat 0 plays r1 (slot 0) and draws the top of the pile, y3, into its newest slot.
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(names(&r, t.hand(0)), ["r1", "r1", "r2", "r2", "y3"]);
    assert_eq!(t.turn, 1);
    assert_eq!(t.height(0), 1);
}

#[test]
fn block_deal_for_every_player_count_with_shuffled_decks() {
    let mut rng = Rng(11);
    for players in 2..=6u8 {
        let r = no_variant(players);
        let h = [0, 0, 5, 5, 4, 4, 3][players as usize];
        assert_eq!(r.hand_size, h);
        let mut deck = hand_written_no_variant_deck(&r);
        rng.shuffle(&mut deck);
        let (deal, s) = Deal::from_deck(r.clone(), &deck).unwrap();
        for p in 0..players as usize {
            assert_eq!(s.hand(p), &deck[p * h as usize..(p + 1) * h as usize]);
        }
        let dealt = players as usize * h as usize;
        assert_eq!(deal.pile, deck[dealt..], "the rest is the pile, top first");
        assert_eq!(deal.pile_left(&s) as usize, 50 - dealt);
        // The first draw takes deck[dealt].
        let t = s.apply(&deal, Action::Play(0)).unwrap();
        assert_eq!(*t.hand(0).last().unwrap(), deck[dealt]);
    }
}

#[test]
fn hand_sizes_per_player_count_and_the_option() {
    for (players, h) in [(2, 5), (3, 5), (4, 4), (5, 4), (6, 3)] {
        assert_eq!(default_hand_size(players), h);
        assert_eq!(no_variant(players).hand_size, h);
    }
    // One Extra Card / One Less Card.
    for (players, h) in [(2, 6), (3, 4), (4, 5), (6, 2)] {
        let opts = Options {
            hand_size: Some(h),
            ..Options::default()
        };
        let r = rules(Variant::no_variant(), players, &opts);
        assert_eq!(r.hand_size, h);
        let deck = hand_written_no_variant_deck(&r);
        let (deal, s) = Deal::from_deck(r, &deck).unwrap();
        for p in 0..players as usize {
            assert_eq!(s.hand(p).len(), h as usize);
        }
        assert_eq!(deal.pile.len(), 50 - players as usize * h as usize);
    }
    // Player counts outside 2..=6 are refused.
    for players in [0, 1, 7] {
        assert!(Rules::new(Variant::no_variant(), players, &Options::default()).is_err());
    }
}

#[test]
fn eight_tokens_at_start_or_the_option() {
    let r = no_variant(2);
    assert_eq!(r.max_clues, 8);
    assert_eq!(r.max_strikes, 3);
    let (_, s) = Deal::from_deck(r.clone(), &hand_written_no_variant_deck(&r)).unwrap();
    assert_eq!(s.clues, 8);
    assert_eq!(s.strikes, 0);
    assert_eq!(s.heights(), [0; 6]);
    for clues in [1, 6, 9] {
        let opts = Options {
            clues: Some(clues),
            ..Options::default()
        };
        let r = rules(Variant::no_variant(), 2, &opts);
        let (deal, s) = Deal::from_deck(r.clone(), &hand_written_no_variant_deck(&r)).unwrap();
        assert_eq!(s.clues, clues, "all tokens available at the start");
        assert!(s.apply(&deal, Action::Discard(0)).is_err());
    }
}

// ---------------------------------------------------------------------------------------------
// Clues

#[test]
fn a_clue_spends_a_token_and_needs_one() {
    let r = no_variant(2);
    let (deal, s) = position(&r, &["r1 r2", "y1 y2"], "g1 g2", 8);
    let t = s.apply(&deal, Action::Clue).unwrap();
    assert_eq!(t.clues, 7);
    assert_eq!(t.turn, 1);
    assert_eq!(t.hand(0), s.hand(0), "a clue draws nothing");
    assert_eq!(t.drawn, 0);
    let t = t.apply(&deal, Action::Clue).unwrap();
    assert_eq!(t.clues, 6);

    let (deal, mut s) = position(&r, &["r1 r2", "y1 y2"], "g1 g2", 1);
    let t = s.apply(&deal, Action::Clue).unwrap();
    assert_eq!(t.clues, 0);
    assert!(t.apply(&deal, Action::Clue).is_err(), "no token left");
    assert!(!t.legal_actions(&deal).contains(&Action::Clue));
    s.clues = 0;
    assert!(s.apply(&deal, Action::Clue).is_err());
}

#[test]
fn a_clue_must_touch_a_card_unless_empty_clues() {
    // Player 1 holds nothing: a clue to them touches no card.
    let r = no_variant(2);
    let (deal, s) = position(&r, &["r1 r2"], "g1 g2", 5);
    assert!(s.apply(&deal, Action::Clue).is_err());
    assert!(!s.legal_actions(&deal).contains(&Action::Clue));

    let opts = Options {
        empty_clues: true,
        ..Options::default()
    };
    let r = rules(Variant::no_variant(), 2, &opts);
    let (deal, s) = position(&r, &["r1 r2"], "g1 g2", 5);
    assert!(s.legal_actions(&deal).contains(&Action::Clue));
    let t = s.apply(&deal, Action::Clue).unwrap();
    assert_eq!(t.clues, 4);
    assert_eq!(t.turn, 1);
    // Empty clues still need a token.
    let (deal, s) = position(&r, &["r1 r2"], "g1 g2", 0);
    assert!(s.apply(&deal, Action::Clue).is_err());

    // Three players: seat 1 is empty, but seat 2 holds a card, so a clue can touch it.
    let r = no_variant(3);
    let (deal, s) = position(&r, &["r1", "", "y1"], "g1 g2", 5);
    assert_eq!(s.apply(&deal, Action::Clue).unwrap().clues, 4);
    // The mover's own cards do not count.
    let (deal, s) = position(&r, &["r1 r2 r3", "", ""], "g1 g2", 5);
    assert!(s.apply(&deal, Action::Clue).is_err());
}

// ---------------------------------------------------------------------------------------------
// Discards

#[test]
fn discard_is_illegal_with_all_tokens() {
    let r = no_variant(2);
    let (deal, s) = position(&r, &["r1 r2", "y1 y2"], "g1 g2", 8);
    for i in 0..2 {
        assert!(s.apply(&deal, Action::Discard(i)).is_err());
        assert!(!s.legal_actions(&deal).contains(&Action::Discard(i)));
    }
    let (deal, s) = position(&r, &["r1 r2", "y1 y2"], "g1 g2", 7);
    assert!(s.apply(&deal, Action::Discard(1)).is_ok());
}

#[test]
fn discard_regains_a_token_and_draws() {
    let r = no_variant(2);
    let (deal, s) = position(&r, &["r1 r2 b4", "y1 y2"], "g1 g2", 3);
    let t = s.apply(&deal, Action::Discard(1)).unwrap();
    assert_eq!(t.clues, 4);
    assert_eq!(names(&r, t.hand(0)), ["r1", "b4", "g1"]);
    assert_eq!(t.drawn, 1);
    assert_eq!(t.lost(card(&r, "r2")), 1);
    assert_eq!(t.strikes, 0);
    assert_eq!(t.heights(), [0; 6]);
    assert_eq!(t.turn, 1);
}

// ---------------------------------------------------------------------------------------------
// Plays

#[test]
fn a_good_play_joins_the_firework_and_draws() {
    let r = no_variant(2);
    let (deal, mut s) = position(&r, &["y5 g3 b4", "y1 y2"], "g1 g2", 5);
    s.stacks = [0, 0, 2, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(1)).unwrap();
    assert_eq!(t.heights(), [0, 0, 3, 0, 0, 0]);
    assert_eq!(t.strikes, 0);
    assert_eq!(t.clues, 5, "a play below the top rank regains nothing");
    assert_eq!(names(&r, t.hand(0)), ["y5", "b4", "g1"]);
    assert_eq!(t.lost(card(&r, "g3")), 0);
    assert_eq!(t.score(&r), 3);
}

#[test]
fn a_misplay_strikes_and_loses_the_card() {
    let r = no_variant(2);
    let (deal, mut s) = position(&r, &["y5 g3 b4", "y1 y2"], "g1 g2", 5);
    s.stacks = [0, 0, 1, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(1)).unwrap();
    assert_eq!(t.heights(), [0, 0, 1, 0, 0, 0]);
    assert_eq!(t.strikes, 1);
    assert_eq!(t.lost(card(&r, "g3")), 1);
    assert_eq!(t.clues, 5);
    assert_eq!(names(&r, t.hand(0)), ["y5", "b4", "g1"]);
    assert_eq!(t.status, Status::Playing);
    // Playing a card already played is a misplay too.
    let (deal, mut s) = position(&r, &["g1", "y1 y2"], "g1 g2", 5);
    s.stacks = [0, 0, 1, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!((t.strikes, t.height(2), t.lost(card(&r, "g1"))), (1, 1, 1));
}

#[test]
fn completing_a_suit_regains_a_token_unless_at_max() {
    let r = no_variant(2);
    let (deal, mut s) = position(&r, &["b5", "y1 y2"], "g1 g2", 5);
    s.stacks = [0, 0, 0, 4, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(t.height(3), 5);
    assert_eq!(t.clues, 6);

    let (deal, mut s) = position(&r, &["b5", "y1 y2"], "g1 g2", 8);
    s.stacks = [0, 0, 0, 4, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(t.height(3), 5);
    assert_eq!(t.clues, 8, "no token beyond the maximum");

    // With the clue option, the maximum is the option's count.
    let opts = Options {
        clues: Some(4),
        ..Options::default()
    };
    let r4 = rules(Variant::no_variant(), 2, &opts);
    let (deal, mut s) = position(&r4, &["b5", "y1 y2"], "g1 g2", 4);
    s.stacks = [0, 0, 0, 4, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    assert_eq!(s.apply(&deal, Action::Play(0)).unwrap().clues, 4);
    let (deal, mut s) = position(&r4, &["b5", "y1 y2"], "g1 g2", 3);
    s.stacks = [0, 0, 0, 4, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    assert_eq!(s.apply(&deal, Action::Play(0)).unwrap().clues, 4);

    // A research deck of 3 ranks: the top rank is 3.
    let r3 = rules(Variant::research(2, 3).unwrap(), 2, &Options::default());
    let (deal, mut s) = position(&r3, &["r3", "y1 y2"], "y1", 2);
    s.stacks = [2, 0, 0, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    assert_eq!(s.apply(&deal, Action::Play(0)).unwrap().clues, 3);
    // A 4 of No Variant is not a top rank.
    let (deal, mut s) = position(&r, &["b4", "y1 y2"], "g1 g2", 5);
    s.stacks = [0, 0, 0, 3, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    assert_eq!(s.apply(&deal, Action::Play(0)).unwrap().clues, 5);
}

// ---------------------------------------------------------------------------------------------
// End of the game (normal)

#[test]
fn the_last_strike_ends_the_game_with_score_zero() {
    let r = no_variant(2);
    let (deal, mut s) = position(&r, &["r3 r1", "y1 y2"], "g1 g2 g3", 5);
    s.stacks = [0, 4, 0, 2, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    s.strikes = 2;
    assert_eq!(s.score(&r), 6);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(t.strikes, 3);
    assert_eq!(t.status, Status::Lost);
    assert!(t.is_over());
    assert_eq!(t.score(&r), 0);
    assert!(t.legal_actions(&deal).is_empty());
    assert!(t.apply(&deal, Action::Clue).is_err());
    assert!(t.apply(&deal, Action::Play(0)).is_err());

    // Two strikes are not the end.
    s.strikes = 1;
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!((t.strikes, t.status), (2, Status::Playing));

    // The strikes option: one strike ends the game.
    let opts = Options {
        strikes: Some(1),
        ..Options::default()
    };
    let r1 = rules(Variant::no_variant(), 2, &opts);
    let (deal, mut s) = position(&r1, &["r3 r1", "y1 y2"], "g1 g2 g3", 5);
    s.stacks = [0, 4, 0, 2, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!((t.status, t.score(&r1)), (Status::Lost, 0));
}

#[test]
fn completing_every_firework_ends_at_once_with_the_perfect_score() {
    let r = no_variant(3);
    let (deal, mut s) = position(&r, &["r1 p5", "y1 y2", "g4"], "g1 g2 g3 b1", 2);
    s.stacks = [5, 5, 5, 5, 4, 0].map(hanabi_solver::game::play::Stack::of_height);
    s.strikes = 2;
    let t = s.apply(&deal, Action::Play(1)).unwrap();
    assert_eq!(t.status, Status::Finished);
    assert_eq!(t.score(&r), 25);
    assert_eq!(r.perfect_score(), 25);
    assert!(t.legal_actions(&deal).is_empty());
    assert!(t.apply(&deal, Action::Clue).is_err());
}

/// Plays `stall` to the end; returns (turns taken, seat of each mover, turn count when the
/// last card was drawn, seat that drew it).
fn stall_to_the_end(deal: &Deal, mut s: State) -> (u16, Vec<u8>, u16, u8) {
    let mut movers = Vec::new();
    let mut last_draw = None;
    while !s.is_over() {
        movers.push(s.turn);
        let before = s.drawn;
        let t = s.apply(deal, stall(deal, &s)).unwrap();
        if t.drawn as usize == deal.pile.len() && before < t.drawn {
            last_draw = Some((t.turns, s.turn));
        }
        s = t;
        assert!(movers.len() < 100);
    }
    assert_eq!(s.status, Status::Finished);
    let (at, drawer) = last_draw.expect("the last card was drawn");
    (s.turns, movers, at, drawer)
}

#[test]
fn final_round_two_players() {
    // 1 suit of 3 ranks: r1 r1 r1 r2 r2 r3 (6 cards); hands of 2; pile of 2.
    // Turns: 1 P0 clue (7), 2 P1 discard (8, draws), 3 P0 clue (7), 4 P1 discard (8, draws the
    // last card), then one more turn each: 5 P0, 6 P1 (the drawer). The game ends after turn 6.
    let opts = Options {
        hand_size: Some(2),
        ..Options::default()
    };
    let r = rules(Variant::research(1, 3).unwrap(), 2, &opts);
    let deck = cards(&r, "r1 r2 r1 r3 r2 r1");
    let (deal, s) = Deal::from_deck(r.clone(), &deck).unwrap();
    assert_eq!(deal.pile.len(), 2);
    let (turns, movers, at, drawer) = stall_to_the_end(&deal, s);
    assert_eq!((at, drawer), (4, 1));
    assert_eq!(turns, 6);
    assert_eq!(movers, [0, 1, 0, 1, 0, 1]);

    // Step by step: still going after turn 5, over after turn 6.
    let mut s = s;
    for _ in 0..4 {
        s = s.apply(&deal, stall(&deal, &s)).unwrap();
    }
    assert_eq!(deal.pile_left(&s), 0);
    assert_eq!(s.final_turns, 2);
    assert_eq!(s.status, Status::Playing);
    let s5 = s.apply(&deal, stall(&deal, &s)).unwrap();
    assert_eq!(s5.status, Status::Playing);
    assert_eq!(s5.turn, 1);
    let s6 = s5.apply(&deal, stall(&deal, &s5)).unwrap();
    assert_eq!(s6.status, Status::Finished);
    assert_eq!(s6.score(&r), 0);
}

#[test]
fn final_round_three_players() {
    // 1 suit of 3 ranks (6 cards), hands of 1, pile of 3.
    // 1 P0 clue, 2 P1 discard (draw), 3 P2 clue, 4 P0 discard (draw), 5 P1 clue,
    // 6 P2 discard (draws the last card), 7 P0, 8 P1, 9 P2 (the drawer): over after 9 turns.
    let opts = Options {
        hand_size: Some(1),
        ..Options::default()
    };
    let r = rules(Variant::research(1, 3).unwrap(), 3, &opts);
    let deck = cards(&r, "r1 r2 r1 r3 r2 r1");
    let (deal, s) = Deal::from_deck(r.clone(), &deck).unwrap();
    assert_eq!(deal.pile.len(), 3);
    let (turns, movers, at, drawer) = stall_to_the_end(&deal, s);
    assert_eq!((at, drawer), (6, 2));
    assert_eq!(turns, 9);
    assert_eq!(movers, [0, 1, 2, 0, 1, 2, 0, 1, 2]);

    // 2 suits of 2 ranks (r1 r1 r1 r2 y1 y1 y1 y2: 8 cards), hands of 1, pile of 5.
    // Discards at turns 2, 4, 6, 8, 10; turn 10 is P0's and draws the last card; then P1, P2
    // and P0 take one more turn each: over after 13 turns.
    let r = rules(Variant::research(2, 2).unwrap(), 3, &opts);
    let deck = cards(&r, "r1 y1 r2 y2 r1 y1 r1 y1");
    let (deal, s) = Deal::from_deck(r, &deck).unwrap();
    assert_eq!(deal.pile.len(), 5);
    let (turns, movers, at, drawer) = stall_to_the_end(&deal, s);
    assert_eq!((at, drawer), (10, 0));
    assert_eq!(turns, 13);
    assert_eq!(movers, [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
}

#[test]
fn final_round_starts_after_a_play_that_draws_the_last_card() {
    // 2 players, hands r1 y1 / r2 y2, pile [g1]. P0 plays r1 and draws g1, the last card.
    // Then P1 and P0 take one turn each.
    let r = no_variant(2);
    let (deal, s) = position(&r, &["r1 y1", "r2 y2"], "g1", 8);
    let s1 = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(names(&r, s1.hand(0)), ["y1", "g1"]);
    assert_eq!(s1.final_turns, 2);
    let s2 = s1.apply(&deal, Action::Play(0)).unwrap(); // P1 plays r2 onto r1
    assert_eq!((s2.height(0), s2.status), (2, Status::Playing));
    assert_eq!(s2.hand(1).len(), 1, "no card left to draw");
    let s3 = s2.apply(&deal, Action::Play(1)).unwrap(); // P0 plays g1
    assert_eq!(s3.status, Status::Finished);
    assert_eq!(s3.score(&r), 3);
}

// ---------------------------------------------------------------------------------------------
// Deck plays

fn deck_plays(players: u8) -> Rules {
    let opts = Options {
        deck_plays: true,
        ..Options::default()
    };
    rules(Variant::no_variant(), players, &opts)
}

#[test]
fn deck_play_needs_the_option_and_exactly_one_card_in_the_pile() {
    // Without the option: refused even with one card in the pile.
    let r = no_variant(2);
    let (deal, s) = position(&r, &["r1 y1", "r2 y2"], "g1", 8);
    assert!(s.apply(&deal, Action::DeckPlay).is_err());
    assert!(!s.legal_actions(&deal).contains(&Action::DeckPlay));

    let r = deck_plays(2);
    // Two cards in the pile: refused.
    let (deal, s) = position(&r, &["r1 y1", "r2 y2"], "g1 b1", 8);
    assert!(s.apply(&deal, Action::DeckPlay).is_err());
    assert!(!s.legal_actions(&deal).contains(&Action::DeckPlay));
    // One drawn, one left: allowed.
    let s1 = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(deal.pile_left(&s1), 1);
    assert!(s1.legal_actions(&deal).contains(&Action::DeckPlay));
    assert!(s1.apply(&deal, Action::DeckPlay).is_ok());
    // Empty pile: refused.
    let s2 = s1.apply(&deal, Action::Play(1)).unwrap();
    assert_eq!(deal.pile_left(&s2), 0);
    assert!(s2.apply(&deal, Action::DeckPlay).is_err());
    assert!(!s2.legal_actions(&deal).contains(&Action::DeckPlay));
}

#[test]
fn deck_play_plays_the_last_card_blind_and_starts_the_final_round() {
    let r = deck_plays(2);
    // P0 deck-plays g1 (playable): the hand is unchanged, the pile is empty.
    let (deal, s) = position(&r, &["r1 y1", "r2 y2"], "g1", 8);
    let t = s.apply(&deal, Action::DeckPlay).unwrap();
    assert_eq!(t.height(2), 1);
    assert_eq!(names(&r, t.hand(0)), ["r1", "y1"]);
    assert_eq!(deal.pile_left(&t), 0);
    assert_eq!(t.final_turns, 2);
    assert_eq!(t.turn, 1);
    // Final round: P1 and then P0 (the deck player) take one more turn.
    let t = t.apply(&deal, Action::Clue).unwrap();
    assert_eq!(t.status, Status::Playing);
    let t = t.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(t.status, Status::Finished);
    assert_eq!(t.score(&r), 2);

    // A blind misplay: a strike, the card is lost, the hand is unchanged.
    let (deal, s) = position(&r, &["r1 y1", "r2 y2"], "g4", 8);
    let t = s.apply(&deal, Action::DeckPlay).unwrap();
    assert_eq!((t.strikes, t.height(2)), (1, 0));
    assert_eq!(t.lost(card(&r, "g4")), 1);
    assert_eq!(names(&r, t.hand(0)), ["r1", "y1"]);
    assert_eq!(t.final_turns, 2);
}

// ---------------------------------------------------------------------------------------------
// Endless mode

/// Endless rules with hands of 2 (positions are built by hand, so only the deck size matters).
fn endless(variant: Variant, players: u8) -> Rules {
    let opts = Options {
        endless: true,
        hand_size: Some(2),
        ..Options::default()
    };
    rules(variant, players, &opts)
}

#[test]
fn endless_has_no_final_round_and_hands_shrink() {
    // 1 suit of 3 ranks; hands r1 r2 / r1 r2; pile r1 r3.
    let r = endless(Variant::research(1, 3).unwrap(), 2);
    let (deal, s) = position(&r, &["r1 r2", "r1 r2"], "r1 r3", 8);
    let s = s.apply(&deal, Action::Play(0)).unwrap(); // P0 plays r1, draws r1
    let s = s.apply(&deal, Action::Play(1)).unwrap(); // P1 plays r2, draws r3 (last)
    assert_eq!(s.height(0), 2);
    assert_eq!(deal.pile_left(&s), 0);
    assert_eq!(s.final_turns, NOT_FINAL);
    assert_eq!(names(&r, s.hand(1)), ["r1", "r3"]);
    // Many more turns than a final round would allow.
    let mut s = s;
    for _ in 0..5 {
        s = s.apply(&deal, Action::Clue).unwrap();
        assert_eq!(s.status, Status::Playing);
    }
    assert_eq!(s.turn, 1);
    // P1 discards r1 (one played, so it is trash); no card to draw: the hand shrinks.
    let s = s.apply(&deal, Action::Discard(0)).unwrap();
    assert_eq!(s.status, Status::Playing);
    assert_eq!(names(&r, s.hand(1)), ["r3"]);
    let s = s.apply(&deal, Action::Play(0)).unwrap(); // P0 plays r2 onto r2: misplay
    assert_eq!((s.strikes, s.status), (1, Status::Playing));
    assert_eq!(names(&r, s.hand(0)), ["r1"]);
    let s = s.apply(&deal, Action::Play(0)).unwrap(); // P1 plays r3: every firework complete
    assert_eq!(s.status, Status::Finished);
    assert_eq!(s.score(&r), 3);
}

#[test]
fn endless_loses_on_the_last_strike() {
    let r = endless(Variant::no_variant(), 2);
    let (deal, mut s) = position(&r, &["r1 r2", "y1 y2"], "g1", 8);
    s.strikes = 2;
    s.stacks = [0, 3, 0, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(1)).unwrap();
    assert_eq!((t.status, t.score(&r)), (Status::Lost, 0));
}

#[test]
fn endless_loses_when_the_last_copy_of_a_needed_card_is_discarded() {
    let r = endless(Variant::no_variant(), 2);
    // A 5 has one copy.
    let (deal, s) = position(&r, &["r5 r1", "y1 y2"], "g1 g2", 7);
    let t = s.apply(&deal, Action::Discard(0)).unwrap();
    assert_eq!((t.status, t.score(&r)), (Status::Lost, 0));
    // The same discard outside endless mode goes on.
    let normal = no_variant(2);
    let (deal_n, s_n) = position(&normal, &["r5 r1", "y1 y2"], "g1 g2", 7);
    assert_eq!(
        s_n.apply(&deal_n, Action::Discard(0)).unwrap().status,
        Status::Playing
    );
    // A 1 with two other copies left: fine.
    let t = s.apply(&deal, Action::Discard(1)).unwrap();
    assert_eq!(t.status, Status::Playing);
    // The third copy of r1 after two were lost: loss.
    let mut s2 = s;
    s2.add_lost(card(&r, "r1"), 2);
    let t = s2.apply(&deal, Action::Discard(1)).unwrap();
    assert_eq!(t.status, Status::Lost);
    // The last r1 when r1 is already played: not needed, the game goes on.
    let mut s3 = s;
    s3.add_lost(card(&r, "r1"), 1);
    s3.stacks[0] = hanabi_solver::game::play::Stack::of_height(1);
    let t = s3.apply(&deal, Action::Discard(1)).unwrap();
    assert_eq!(t.status, Status::Playing);
    // The second copy of y2 is still in player 1's hand: fine.
    let (deal, s) = position(&r, &["y2 r1", "y1 y2"], "g1 g2", 7);
    assert_eq!(
        s.apply(&deal, Action::Discard(0)).unwrap().status,
        Status::Playing
    );
    // ... or still in the pile.
    let (deal, s) = position(&r, &["y2 r1", "y1 b2"], "g1 y2", 7);
    assert_eq!(
        s.apply(&deal, Action::Discard(0)).unwrap().status,
        Status::Playing
    );
}

#[test]
fn endless_loses_when_the_last_copy_of_a_needed_card_is_misplayed() {
    let r = endless(Variant::no_variant(), 2);
    // r5 misplayed on r3: the first strike, but no r5 is left.
    let (deal, mut s) = position(&r, &["r5 r1", "y1 y2"], "g1 g2", 7);
    s.stacks = [3, 0, 0, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(t.strikes, 1);
    assert_eq!((t.status, t.score(&r)), (Status::Lost, 0));
    // r4 misplayed on r2 with the other r4 in the pile: a strike only.
    let (deal, mut s) = position(&r, &["r4 r1", "y1 y2"], "g1 r4", 7);
    s.stacks = [2, 0, 0, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!((t.strikes, t.status), (1, Status::Playing));
}

#[test]
fn endless_loses_when_the_player_to_move_has_no_legal_action() {
    // Pile empty; P0 plays its last card; P1 holds nothing and there is no card to clue.
    let r = endless(Variant::no_variant(), 2);
    let (deal, s) = position(&r, &["r1"], "", 3);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(t.height(0), 1);
    assert_eq!((t.status, t.score(&r)), (Status::Lost, 0));

    // With empty clues, P1 can clue (a token is left): the game goes on.
    let opts = Options {
        endless: true,
        empty_clues: true,
        ..Options::default()
    };
    let re = rules(Variant::no_variant(), 2, &opts);
    let (deal, s) = position(&re, &["r1"], "", 3);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(t.status, Status::Playing);
    assert_eq!(t.turn, 1);
    assert_eq!(t.legal_actions(&deal).as_slice(), &[Action::Clue]);
    // ... but not without a token.
    let (deal, s) = position(&re, &["r1"], "", 0);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!(t.status, Status::Lost);
}

#[test]
fn endless_wins_only_with_every_firework() {
    let r = endless(Variant::research(2, 2).unwrap(), 2);
    // Pile empty, both y cards played; P0 plays r2: every firework complete.
    let (deal, mut s) = position(&r, &["r2", "r1"], "", 3);
    s.stacks = [1, 2, 0, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!((t.status, t.score(&r)), (Status::Finished, 4));
    assert_eq!(r.perfect_score(), 4);
    // With the pile empty and two of four points scored, the game is not over.
    let (deal, mut s) = position(&r, &["r1 r2", "y2"], "", 3);
    s.stacks = [1, 1, 0, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Clue).unwrap();
    assert_eq!(t.status, Status::Playing);
}

// ---------------------------------------------------------------------------------------------
// Research decks, score

#[test]
fn research_deck_copies_and_perfect_score() {
    for suits in 1..=6u8 {
        for ranks in 1..=5u8 {
            let v = Variant::research(suits, ranks).unwrap();
            assert_eq!(v.suits.len(), suits as usize);
            for s in 0..suits {
                for rank in 1..=ranks {
                    let want = if ranks == 1 {
                        1
                    } else if rank == 1 {
                        3
                    } else if rank == ranks {
                        1
                    } else {
                        2
                    };
                    assert_eq!(v.copies(s, rank), want, "{suits}x{ranks} rank {rank}");
                    let n = v
                        .deck()
                        .iter()
                        .filter(|&&c| c == Card::new(s, rank))
                        .count();
                    assert_eq!(n, want as usize);
                }
            }
            // Per suit: 3 + 2 (ranks - 2) + 1 = 2 ranks cards, or 1 with one rank.
            let per_suit = if ranks == 1 { 1 } else { 2 * ranks as usize };
            assert_eq!(v.deck_size(), suits as usize * per_suit);
            assert_eq!(v.deck().len(), v.deck_size());
            assert_eq!(v.perfect_score(), suits * ranks);
        }
    }
    assert_eq!(Variant::research(6, 5).unwrap().deck_size(), 60);
    assert_eq!(Variant::research(3, 1).unwrap().deck_size(), 3);
    for (s, r) in [(0, 5), (7, 5), (3, 0), (3, 6)] {
        assert!(Variant::research(s, r).is_err(), "{s}x{r}");
    }
}

#[test]
fn perfect_score_is_suits_times_ranks_in_play() {
    // 3 suits of 2 ranks: a perfect game scores 6.
    let r = rules(Variant::research(3, 2).unwrap(), 2, &Options::default());
    assert_eq!(r.perfect_score(), 6);
    let (deal, mut s) = position(&r, &["g2", "r1"], "r1", 1);
    s.stacks = [2, 2, 1, 0, 0, 0].map(hanabi_solver::game::play::Stack::of_height);
    let t = s.apply(&deal, Action::Play(0)).unwrap();
    assert_eq!((t.status, t.score(&r)), (Status::Finished, 6));
}

#[test]
fn score_words_follow_the_scale() {
    let horrible = "horrible, booed by the crowd";
    let mediocre = "mediocre, just a hint of scattered applause";
    let honorable = "honorable attempt, but quickly forgotten";
    let excellent = "excellent, crowd pleasing";
    let amazing = "amazing, they will be talking about it for weeks";
    let legendary = "legendary, everyone left speechless";
    for score in 0..=25u8 {
        let want = match score {
            0..=5 => horrible,
            6..=10 => mediocre,
            11..=15 => honorable,
            16..=20 => excellent,
            21..=24 => amazing,
            _ => legendary,
        };
        assert_eq!(score_words(score, 25), want, "score {score}");
    }
    // Six suits: the perfect score is 30.
    assert_eq!(score_words(30, 30), legendary);
    assert_eq!(score_words(0, 30), horrible);
}

// ---------------------------------------------------------------------------------------------
// Property: legality and transitions over many random games

/// Every action worth trying: each slot (and one past the largest hand), clue, deck play.
fn candidates() -> Vec<Action> {
    let mut v = Vec::new();
    for i in 0..=MAX_HAND as u8 {
        v.push(Action::Play(i));
        v.push(Action::Discard(i));
    }
    v.push(Action::Clue);
    v.push(Action::DeckPlay);
    v
}

fn every_card(rules: &Rules) -> Vec<Card> {
    let mut v = Vec::new();
    for s in 0..rules.variant.suits.len() as u8 {
        for r in 1..=rules.variant.ranks {
            v.push(Card::new(s, r));
        }
    }
    v
}

/// Legality as RULES.md states it, computed without `legal_actions`.
fn legal_by_the_rules(deal: &Deal, s: &State, a: Action) -> bool {
    let r = &deal.rules;
    if s.is_over() {
        return false;
    }
    let me = s.turn as usize;
    let n = s.hand(me).len() as u8;
    let others = (0..r.players as usize).any(|p| p != me && !s.hand(p).is_empty());
    let pile_left = deal.pile.len() - s.drawn as usize;
    match a {
        Action::Play(i) => i < n,
        Action::Discard(i) => i < n && s.clues < r.max_clues,
        Action::Clue => s.clues > 0 && (r.empty_clues || others),
        Action::DeckPlay => r.deck_plays && pile_left == 1,
        // Typed clues exist only in Alternating Clues.
        Action::ColourClue | Action::RankClue => false,
    }
}

/// Cards in hands, in the pile, on fireworks and lost add up to the deck.
fn cards_are_conserved(deal: &Deal, s: &State) {
    let r = &deal.rules;
    let hands: usize = (0..r.players as usize).map(|p| s.hand(p).len()).sum();
    let pile = deal.pile.len() - s.drawn as usize;
    let played: usize = s.stacks[..r.variant.suits.len()]
        .iter()
        .map(|h| h.height() as usize)
        .sum();
    let lost: usize = every_card(r).iter().map(|&c| s.lost(c) as usize).sum();
    assert_eq!(hands + pile + played + lost, r.variant.deck_size());
}

/// Checks one legal transition `s --a--> t` against the rules.
fn check_transition(deal: &Deal, s: &State, a: Action, t: &State) {
    let r = &deal.rules;
    let me = s.turn as usize;
    let pile_left = deal.pile.len() - s.drawn as usize;
    assert_eq!(t.turns, s.turns + 1);
    let mut hand: Vec<Card> = s.hand(me).to_vec();
    let mut expect_clues = s.clues;
    let mut expect_strikes = s.strikes;
    let mut expect_stacks = s.heights();
    let mut expect_drawn = s.drawn;
    let mut play = |c: Card, clues: &mut u8| {
        let suit = c.suit() as usize;
        if expect_stacks[suit] + 1 == c.rank() {
            expect_stacks[suit] += 1;
            if c.rank() == r.variant.ranks && *clues < r.max_clues {
                *clues += 1;
            }
            None
        } else {
            expect_strikes += 1;
            Some(c)
        }
    };
    let mut lost = None;
    match a {
        Action::Clue => expect_clues -= 1,
        Action::ColourClue | Action::RankClue => panic!("a typed clue outside Alternating Clues"),
        Action::Discard(i) => {
            let c = hand.remove(i as usize);
            expect_clues += 1;
            lost = Some(c);
        }
        Action::Play(i) => {
            let c = hand.remove(i as usize);
            lost = play(c, &mut expect_clues);
        }
        Action::DeckPlay => {
            let c = deal.pile[s.drawn as usize];
            expect_drawn += 1;
            lost = play(c, &mut expect_clues);
        }
    }
    if matches!(a, Action::Play(_) | Action::Discard(_)) && pile_left > 0 {
        hand.push(deal.pile[s.drawn as usize]);
        expect_drawn += 1;
    }
    assert_eq!(t.hand(me), hand.as_slice(), "{a:?}");
    for p in 0..r.players as usize {
        if p != me {
            assert_eq!(t.hand(p), s.hand(p));
        }
    }
    assert_eq!(t.clues, expect_clues, "{a:?}");
    assert!(t.clues <= r.max_clues);
    assert_eq!(t.strikes, expect_strikes, "{a:?}");
    assert_eq!(t.heights(), expect_stacks, "{a:?}");
    assert_eq!(t.drawn, expect_drawn, "{a:?}");
    for c in every_card(r) {
        let extra = (lost == Some(c)) as u8;
        assert_eq!(t.lost(c), s.lost(c) + extra, "{a:?} {c:?}");
    }
    cards_are_conserved(deal, t);

    // How the game goes on or ends.
    let perfect = r.perfect_score();
    let complete = t.stacks[..r.variant.suits.len()]
        .iter()
        .all(|h| h.height() == r.variant.ranks);
    if t.strikes >= r.max_strikes {
        assert_eq!(t.status, Status::Lost);
    } else if complete {
        assert_eq!(t.status, Status::Finished);
        assert_eq!(t.score(r), perfect);
    }
    match t.status {
        Status::Lost => assert_eq!(t.score(r), 0),
        Status::Finished => {
            if r.endless {
                assert_eq!(t.score(r), perfect, "endless: win only with every firework");
            }
        }
        Status::Playing => {
            assert!(t.strikes < r.max_strikes);
            assert_eq!(t.turn as usize, (me + 1) % r.players as usize);
            let any = candidates()
                .into_iter()
                .any(|b| legal_by_the_rules(deal, t, b));
            assert!(any, "the player to move has a legal action");
            if r.endless {
                // No needed card has lost its last copy.
                for c in every_card(r) {
                    if c.rank() > t.height(c.suit() as usize) {
                        let left = r.variant.copies(c.suit(), c.rank()) - t.lost(c);
                        assert!(left > 0, "endless: {c:?} is gone but the game goes on");
                    }
                }
            }
        }
    }
    if r.endless && t.status == Status::Lost && t.strikes < r.max_strikes {
        // Lost by a needed card gone for good, or by the next player having no action.
        let gone = lost.is_some_and(|c| {
            c.rank() > t.height(c.suit() as usize)
                && r.variant.copies(c.suit(), c.rank()) == t.lost(c)
        });
        let mut next = *t;
        next.turn = ((me + 1) % r.players as usize) as u8;
        next.status = Status::Playing;
        let stuck = !candidates()
            .into_iter()
            .any(|b| legal_by_the_rules(deal, &next, b));
        assert!(gone || stuck, "endless loss without a reason");
    }
}

/// Checks every candidate action at `s` and returns the legal ones.
fn check_position(deal: &Deal, s: &State) -> Vec<Action> {
    let listed = s.legal_actions(deal);
    let mut legal = Vec::new();
    for a in candidates() {
        let want = legal_by_the_rules(deal, s, a);
        assert_eq!(listed.contains(&a), want, "{a:?} at {s:?}");
        match s.apply(deal, a) {
            Ok(t) => {
                assert!(want, "apply accepted an illegal {a:?} at {s:?}");
                assert_eq!(t, s.apply_unchecked(deal, a), "{a:?}");
                check_transition(deal, s, a, &t);
                legal.push(a);
            }
            Err(_) => assert!(!want, "apply refused a legal {a:?} at {s:?}"),
        }
    }
    assert_eq!(listed.len(), legal.len(), "no duplicates in legal_actions");
    legal
}

/// A random legal action that mostly plays well, so that games last: now and then any action;
/// otherwise a playable card if there is one, else a clue, discard or deck play.
fn pick(rng: &mut Rng, rules: &Rules, s: &State, legal: &[Action]) -> Action {
    let any = legal[rng.below(legal.len() as u64) as usize];
    if rng.below(20) == 0 {
        return any;
    }
    let hand = s.hand(s.turn as usize);
    let good: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Play(i) if s.is_playable(rules, hand[*i as usize])))
        .collect();
    if !good.is_empty() {
        return good[rng.below(good.len() as u64) as usize];
    }
    let other: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| !matches!(a, Action::Play(_)))
        .collect();
    if other.is_empty() {
        any
    } else {
        other[rng.below(other.len() as u64) as usize]
    }
}

/// What random games exercised: deck plays, normal games ended by the final round, endless
/// wins.
#[derive(Debug, Default)]
struct Seen {
    deck_plays: usize,
    final_rounds: usize,
    endless_wins: usize,
}

/// Plays random legal actions to the end, checking every position; returns the final state.
fn random_game(rng: &mut Rng, deal: &Deal, mut s: State, seen: &mut Seen) -> State {
    let r = &deal.rules;
    let mut last_draw: Option<u16> = None;
    if deal.pile.is_empty() && !r.endless {
        last_draw = Some(0);
    }
    loop {
        let legal = check_position(deal, &s);
        if s.is_over() {
            assert!(legal.is_empty());
            break;
        }
        let a = pick(rng, &deal.rules, &s, &legal);
        let t = s.apply(deal, a).unwrap();
        seen.deck_plays += (a == Action::DeckPlay) as usize;
        if r.endless && t.status == Status::Finished {
            seen.endless_wins += 1;
        }
        if !r.endless {
            if let Some(at) = last_draw {
                assert!(t.turns <= at + r.players as u16, "final round too long");
                if t.status == Status::Playing {
                    assert!(t.turns < at + r.players as u16);
                }
            } else if t.drawn as usize == deal.pile.len() {
                last_draw = Some(t.turns);
            }
            if t.status == Status::Finished && t.score(r) < r.perfect_score() {
                // Only the final round ends a normal game below the perfect score.
                assert_eq!(Some(t.turns), last_draw.map(|at| at + r.players as u16));
                seen.final_rounds += 1;
            }
        }
        s = t;
        assert!(s.turns < 2000, "the game must end");
    }
    s
}

#[test]
fn random_tiny_games_respect_every_rule() {
    let mut rng = Rng(0x0123_4567);
    let mut outcomes = [0usize; 3];
    let mut seen = Seen::default();
    for _ in 0..3000 {
        let (_, _, deal, s) = random_tiny_game(&mut rng, 24, None);
        let end = random_game(&mut rng, &deal, s, &mut seen);
        outcomes[end.status as usize] += 1;
    }
    // Both endings and every special case are exercised.
    assert!(outcomes[1] > 100 && outcomes[2] > 100, "{outcomes:?}");
    assert!(seen.deck_plays > 10, "{seen:?}");
    assert!(seen.final_rounds > 100, "{seen:?}");
    assert!(seen.endless_wins > 10, "{seen:?}");
}

#[test]
fn random_full_games_respect_every_rule() {
    let mut rng = Rng(0xfeed_beef);
    let variants = [
        "no-variant",
        "six-suits",
        "black",
        "rainbow",
        "four-suits",
        "rainbow-5",
        "three-suits",
        "black-5",
    ];
    let mut games = 0;
    let mut seen = Seen::default();
    while games < 600 {
        let variant = if rng.coin() {
            Variant::parse(variants[rng.below(8) as usize]).unwrap()
        } else {
            Variant::research(rng.range(1, 6) as u8, rng.range(1, 5) as u8).unwrap()
        };
        let players = rng.range(2, 6) as u8;
        let opts = Options {
            hand_size: rng.coin().then(|| rng.range(1, 8) as u8),
            clues: rng.coin().then(|| rng.range(1, 10) as u8),
            strikes: rng.coin().then(|| rng.range(1, 3) as u8),
            empty_clues: rng.coin(),
            deck_plays: rng.coin(),
            endless: rng.below(3) == 0,
        };
        let Ok(r) = Rules::new(variant, players, &opts) else {
            continue;
        };
        let mut deck = r.variant.deck();
        rng.shuffle(&mut deck);
        let (deal, s) = Deal::from_deck(r, &deck).unwrap();
        random_game(&mut rng, &deal, s, &mut seen);
        games += 1;
    }
    assert!(seen.deck_plays > 10, "{seen:?}");
    assert!(seen.final_rounds > 100, "{seen:?}");
    assert!(seen.endless_wins > 10, "{seen:?}");
}
