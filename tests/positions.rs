//! Position files (`.hanabi`): reading, writing back, every syntax and meaning fault with its
//! line, and the curated positions of `positions/` (each solves, its line replays to the answer,
//! the small ones agree with a brute-force reference, and positions/README.md gives the same
//! answers).

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::{random_tiny_game, reference, Rng};
use hanabi_solver::error::Error;
use hanabi_solver::game::card::Card;
use hanabi_solver::game::variant::Variant;
use hanabi_solver::line::final_state;
use hanabi_solver::position::{self, parse, to_text, Faults, Position, PositionFile, ALL_KINDS};
use hanabi_solver::search::{solve, SolveConfig};
use hanabi_solver::state::{Deal, State, NOT_FINAL};

fn positions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("positions")
}

fn open(text: &str) -> (Deal, State) {
    position::read(text)
        .unwrap_or_else(|f| panic!("{f}\n{text}"))
        .open()
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Parses and checks `text`, which must fail; returns the faults.
fn faults(text: &str) -> Faults {
    match position::read(text) {
        Ok(p) => panic!("should fail:\n{text}\n{p:?}"),
        Err(f) => f,
    }
}

/// `text` must fail with a fault on `line` whose message contains `needle`.
fn fails_at(text: &str, line: usize, needle: &str) {
    let f = faults(text);
    let hit = f.0.iter().any(|e| match e {
        Error::Position { line: l, message } => *l == line && message.contains(needle),
        _ => false,
    });
    assert!(
        hit,
        "expected line {line} with {needle:?}, got: {f}\n{text}"
    );
}

/// A small valid file (1 suit of 3 ranks: r1 r1 r1 r2 r2 r3) to break line by line.
const BASE: &str = "\
# a comment line
suits: 1
ranks: 3
players: Alice Bob
hand-size: 2
clues: 1
strikes: 0

stacks: r1            # a comment after a value
discards: r1
hand Alice: r2 r3
hand Bob: r1 r2
deck:
turn: Bob
final-turns: 2
";

/// BASE with line `n` (1-based) replaced by `with`.
fn replace_line(n: usize, with: &str) -> String {
    BASE.lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == n { with } else { l })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

// ---------------------------------------------------------------------------------------------
// Reading and writing

#[test]
fn base_file_reads_into_the_expected_state() {
    let file = parse(BASE).unwrap();
    assert_eq!(file.names, ["Alice", "Bob"]);
    assert_eq!(file.lines.turn, 14);
    assert_eq!(file.lines.hands, [11, 12]);
    let (deal, state) = open(BASE);
    let v = &deal.rules.variant;
    let r = |rank| Card::new(0, rank);
    assert_eq!(v.suits.len(), 1);
    assert_eq!(deal.rules.hand_size, 2);
    assert_eq!(deal.rules.max_clues, 8);
    assert!(deal.pile.is_empty());
    assert_eq!(state.hand(0), [r(2), r(3)]);
    assert_eq!(state.hand(1), [r(1), r(2)]);
    assert_eq!(state.height(0), 1);
    assert_eq!(state.lost(r(1)), 1);
    assert_eq!((state.clues, state.strikes, state.turn), (1, 0, 1));
    assert_eq!((state.final_turns, state.drawn, state.turns), (2, 0, 0));
    assert!(!state.is_over());
    let s = solve(&deal, &state, &SolveConfig::default());
    assert_eq!(s.max_score, 3);
    assert_eq!(reference(&deal, &state, &mut HashMap::new()), 3);
}

#[test]
fn players_as_a_count_and_hanab_live_variant_names() {
    let text = "\
variant: Black (6 Suits)
players: 3
clues: 8
strikes: 2
stacks: r5 y5 g5 b5 p5 k4
discards:
hand Alice: r1 r1 r2 r3 r4
hand Bob: y1 y1 y2 y3 y4
hand Cathy: k5 g1 g1 g2 g3
deck: g4 b1 b1 b2 b3 b4 p1 p1 p2 p3 p4
turn: Cathy
";
    let (deal, state) = open(text);
    assert_eq!(deal.rules.players, 3);
    assert_eq!(deal.rules.variant.id, Some(2));
    assert_eq!(deal.pile.len(), 11);
    let s = solve(&deal, &state, &SolveConfig::default());
    assert_eq!(s.max_score, 30, "Cathy plays k5");
    // The writer names the variant by its command-line name and the players as given.
    let back = to_text(&PositionFile::from_state(
        &deal,
        &state,
        &parse(text).unwrap().names,
    ));
    assert!(back.contains("variant: black\n"), "{back}");
    assert!(back.contains("players: Alice Bob Cathy\n"), "{back}");
}

/// Random positions of random tiny games: writing them and reading them back gives the same
/// position (same hands, fireworks, discards, tokens, turn, final round and remaining pile),
/// and the same text when written again; the brute-force answer does not change.
#[test]
fn round_trip_of_random_positions() {
    let mut rng = Rng(11);
    let mut checked = 0;
    while checked < 300 {
        let (rules, _deck, deal, mut state) = random_tiny_game(&mut rng, 14, None);
        let steps = rng.below(12);
        for _ in 0..steps {
            let actions = state.legal_actions(&deal);
            if actions.is_empty() {
                break;
            }
            let a = actions[rng.below(actions.len() as u64) as usize];
            state = state.apply(&deal, a).unwrap();
        }
        if state.is_over() {
            continue;
        }
        let names: Vec<String> = ["Ann", "Ben", "Cy"][..rules.players as usize]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let text = position::write(&deal, &state, &names);
        let (deal2, s2) = open(&text);
        assert_eq!(deal2.rules, rules, "{text}");
        assert_eq!(
            &deal2.pile[..],
            &deal.pile[state.drawn as usize..],
            "{text}"
        );
        for p in 0..rules.players as usize {
            assert_eq!(s2.hand(p), state.hand(p), "{text}");
        }
        for c in rules.variant.deck() {
            assert_eq!(s2.lost(c), state.lost(c), "{text}");
        }
        assert_eq!(s2.stacks, state.stacks);
        assert_eq!(
            (s2.clues, s2.strikes, s2.turn, s2.final_turns, s2.status),
            (
                state.clues,
                state.strikes,
                state.turn,
                state.final_turns,
                state.status
            ),
            "{text}"
        );
        assert_eq!(position::write(&deal2, &s2, &names), text);
        // The parsed file is the written one, field by field.
        let file = parse(&text).unwrap();
        let mut again = PositionFile::from_state(&deal, &state, &names);
        again.lines = file.lines.clone();
        assert_eq!(file, again);
        if checked % 10 == 0 {
            assert_eq!(
                reference(&deal, &state, &mut HashMap::new()),
                reference(&deal2, &s2, &mut HashMap::new()),
                "{text}"
            );
        }
        checked += 1;
    }
}

#[test]
fn options_and_research_decks_round_trip() {
    let text = "\
suits: 2
ranks: 2
players: P Q
hand-size: 1
clues: 1
max-clues: 2
strikes: 0
max-strikes: 1
stacks: r0 y1
discards: y1
hand P: r1
hand Q: y2
deck: r1 r1 y1 r2
turn: Q
endless: true
empty-clues: true
deck-plays: true
";
    let (deal, state) = open(text);
    let r = &deal.rules;
    assert_eq!((r.max_clues, r.max_strikes, r.hand_size), (2, 1, 1));
    assert!(r.endless && r.empty_clues && r.deck_plays);
    assert_eq!(state.final_turns, NOT_FINAL);
    let names = vec!["P".to_string(), "Q".to_string()];
    assert_eq!(position::write(&deal, &state, &names), text);
}

// ---------------------------------------------------------------------------------------------
// Hidden cards

#[test]
fn hidden_cards_are_counted_and_can_be_filled() {
    let text = replace_line(11, "hand Alice: ? r3").replace("hand Bob: r1 r2", "hand Bob: ? r2");
    let pos = position::read(&text).unwrap();
    assert_eq!(pos.hidden(), 2);
    let r = |rank| Card::new(0, rank);
    assert_eq!(pos.unseen(), [r(1), r(2)]);
    // Not solvable as it is: the error names the line of the first `?`.
    match pos.open() {
        Err(Error::Position { line, message }) => {
            assert_eq!(line, 11);
            assert!(message.contains("2 cards are hidden"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // Filled in order (Alice's ? first), it is the base position.
    let (deal, state) = pos.fill(&[r(2), r(1)]).unwrap();
    let (deal0, state0) = open(BASE);
    assert_eq!(state, state0);
    assert_eq!(deal.pile, deal0.pile);
    // Filled the other way round it is another position; other cards are refused.
    let (_, swapped) = pos.fill(&[r(1), r(2)]).unwrap();
    assert_eq!(swapped.hand(0), [r(1), r(3)]);
    assert!(pos.fill(&[r(1), r(1)]).is_err());
    assert!(pos.fill(&[r(1)]).is_err());
}

#[test]
fn unknown_cards_in_the_deck() {
    let text = replace_line(10, "discards:").replace("deck:\n", "deck: ?\n");
    let text = text.replace("final-turns: 2\n", "");
    let pos = position::read(&text).unwrap();
    assert_eq!(pos.hidden(), 1);
    assert_eq!(pos.unseen(), [Card::new(0, 1)]);
    assert_eq!(pos.final_turns, NOT_FINAL);
}

// ---------------------------------------------------------------------------------------------
// What each holder knows of its cards; research decks with chosen copies

/// A research deck of 2 suits x 3 ranks with 2, 2 and 1 copies of each rank (r1 r1 r2 r2 r3,
/// y1 y1 y2 y2 y3), Alice's hand written in every form a hand card takes: known to everyone
/// (r2), its suit known (r?), its rank known (?1), one of a list (?{r3,y2}). Bob knows nothing.
const KNOWS: &str = "\
suits: 2
ranks: 3
copies: 2 2 1
players: Alice Bob
hand-size: 4
clues: 1
strikes: 0
stacks: r1 y0
discards: y1
hand Alice: r2 r? ?1 ?{r3,y2}
hand Bob: ? ? ? ?
deck:
turn: Alice
final-turns: 2
";

/// The file without its line numbers.
fn without_lines(mut file: PositionFile) -> PositionFile {
    file.lines = position::Lines::default();
    file
}

#[test]
fn hand_cards_say_what_their_holder_knows_and_read_back() {
    let file = parse(KNOWS).unwrap();
    let v = &file.variant;
    assert_eq!(*v, Variant::research_with_copies(2, 3, &[2, 2, 1]).unwrap());
    assert_eq!(v.deck_size(), 10);
    assert_eq!(v.name, "2 suits x 3 ranks, copies 2 2 1");
    let bit = |name: &str| v.parse_card(name).unwrap().kind_bit();
    let set = |names: &[&str]| names.iter().fold(0, |m, n| m | bit(n));
    assert_eq!(
        file.hands[0],
        [Some(v.parse_card("r2").unwrap()), None, None, None]
    );
    assert_eq!(
        file.hints[0],
        [
            ALL_KINDS,
            set(&["r1", "r2", "r3"]),
            set(&["r1", "y1"]),
            set(&["r3", "y2"])
        ]
    );
    assert_eq!(file.hints[1], [ALL_KINDS; 4]);
    // Written back as it was; a list in any order and with any separators reads the same.
    assert_eq!(to_text(&file), KNOWS);
    for list in ["?{y2,r3}", "?{ y2  r3 }", "?{r3, y2}"] {
        let other = parse(&KNOWS.replace("?{r3,y2}", list)).unwrap();
        assert_eq!(other.hints, file.hints, "{list}");
    }
    // The checked position carries the hints, and writes the same file.
    let pos = Position::new(&file).unwrap();
    assert_eq!(pos.hints, file.hints);
    assert!(pos.has_hints());
    assert_eq!(pos.hidden(), 7);
    assert_eq!(to_text(&PositionFile::from_position(&pos)), KNOWS);
    // Each hint in its shortest form: a whole suit is `r?`, a whole rank `?1`, every card `?`.
    for (written, reads_as) in [
        ("?{r1,r2,r3}", "r?"),
        ("?{y1,r1}", "?1"),
        ("?{r3,y3}", "?3"),
        ("?{r1,r2,r3,y1,y2,y3}", "?"),
        ("?{r1}", "?{r1}"),
        ("?{y3,r1,y1}", "?{r1,y1,y3}"),
        ("y?", "y?"),
        ("R?", "r?"),
    ] {
        let text = KNOWS.replace("?{r3,y2}", written);
        let back = to_text(&parse(&text).unwrap());
        assert_eq!(back, KNOWS.replace("?{r3,y2}", reads_as), "{written}");
    }
    // A hint that allows every card is `?` itself.
    let all = parse(&KNOWS.replace("?{r3,y2}", "?{r1,r2,r3,y1,y2,y3}")).unwrap();
    assert_eq!(all.hints[0][3], ALL_KINDS);
    let plain = KNOWS.replace("r2 r? ?1 ?{r3,y2}", "r2 ? ? ?");
    assert!(!position::read(&plain).unwrap().has_hints());
}

#[test]
fn suit_and_rank_knowledge_in_variants_with_special_suits() {
    // Rainbow (6 Suits): `m?` is every rainbow card, `?5` every 5, whatever clues touch them.
    let text = "\
variant: rainbow
players: Alice Bob
clues: 8
strikes: 0
stacks: r0 y0 g0 b0 p0 m0
discards:
hand Alice: m? ?5 ? ? ?
hand Bob: ? ? ? ? ?
deck: ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ?
turn: Alice
";
    let file = parse(text).unwrap();
    let v = &file.variant;
    let rainbow: Vec<usize> = (0..64)
        .filter(|&k| file.hints[0][0] & 1 << k != 0)
        .collect();
    let m = v.suit_of_prefix("m").unwrap();
    assert_eq!(
        rainbow,
        (1..=5).map(|r| Card::new(m, r).kind()).collect::<Vec<_>>()
    );
    let fives = (0..6).fold(0, |set, s| set | Card::new(s, 5).kind_bit());
    assert_eq!(file.hints[0][1], fives);
    assert_eq!(
        to_text(&file).lines().nth(6),
        Some("hand Alice: m? ?5 ? ? ?")
    );
    let pos = Position::new(&file).unwrap();
    assert_eq!(pos.hints[0][..2], file.hints[0][..2]);
}

#[test]
fn research_copies_are_written_only_when_not_the_default() {
    // The default copies (3 2 1 for three ranks) name the same deck as leaving them out: two
    // cards more than KNOWS accounts for.
    let default = position::read(&KNOWS.replace("copies: 2 2 1", "copies: 3 2 1")).unwrap_err();
    assert!(
        default.to_string().contains("2 cards are unaccounted for"),
        "{default}"
    );
    let text = BASE.replace("ranks: 3\n", "ranks: 3\ncopies: 3 2 1\n");
    let file = parse(&text).unwrap();
    assert_eq!(file.variant, parse(BASE).unwrap().variant);
    assert!(!to_text(&file).contains("copies"));
    assert_eq!(
        Variant::research(2, 3).unwrap(),
        Variant::research_with_copies(2, 3, &[3, 2, 1]).unwrap()
    );
    assert_eq!(Variant::research_default_copies(1), [1]);
    assert_eq!(Variant::research_default_copies(5), [3, 2, 2, 2, 1]);
    // Any copies from 1 to 3 per rank round-trip.
    let three = BASE
        .replace("ranks: 3\n", "ranks: 3\ncopies: 3 3 3\n")
        .replace("deck:\n", "deck: r2 r3 r3\n")
        .replace("final-turns: 2\n", "");
    let file = parse(&three).unwrap();
    assert_eq!(file.variant.deck_size(), 9);
    assert!(to_text(&file).starts_with("suits: 1\nranks: 3\ncopies: 3 3 3\n"));
    assert_eq!(
        without_lines(parse(&to_text(&file)).unwrap()),
        without_lines(file)
    );
    let (deal, state) = open(&three);
    assert_eq!(deal.pile.len(), 3);
    assert!(!state.is_over());
    assert!(Variant::research_with_copies(2, 3, &[2, 2]).is_err());
    assert!(Variant::research_with_copies(2, 3, &[2, 4, 1]).is_err());
    assert!(Variant::research_with_copies(2, 3, &[0, 2, 1]).is_err());
}

#[test]
fn knowledge_and_copies_faults_name_their_line() {
    let hand = |with: &str| KNOWS.replace("hand Alice: r2 r? ?1 ?{r3,y2}", with);
    for (with, needle) in [
        (
            "hand Alice: r2 x? ?1 ?{r3,y2}",
            "`x?`: `x` is not a suit (the suits are r y)",
        ),
        (
            "hand Alice: r2 r? ?4 ?{r3,y2}",
            "`?4`: there is no rank 4: the ranks are 1 to 3",
        ),
        ("hand Alice: r2 r? ?0 ?{r3,y2}", "there is no rank 0"),
        ("hand Alice: r2 r? ?x ?{r3,y2}", "`?x` is not a hand card"),
        (
            "hand Alice: r2 r? ?1 ?{}",
            "name at least one card between the braces",
        ),
        ("hand Alice: r2 r? ?1 ?{ , }", "name at least one card"),
        ("hand Alice: r2 r? ?1 ?{r3,g2}", "invalid card \"g2\""),
        ("hand Alice: r2 r? ?1 ?{r3,r4}", "invalid card \"r4\""),
        ("hand Alice: r2 r? ?1 ?{r3,y2", "ends with `}`"),
        ("hand Alice: r2 r? ?1 ??", "`??` is not a hand card"),
    ] {
        fails_at(&hand(with), 10, needle);
    }
    // Only hand cards say what their holder knows.
    fails_at(
        &KNOWS.replace("discards: y1", "discards: ?1"),
        9,
        "only a hand card may say what its holder knows",
    );
    let deck = KNOWS
        .replace("hand Bob: ? ? ? ?", "hand Bob: ? ? ?")
        .replace("deck:\n", "deck: r?\n")
        .replace("final-turns: 2\n", "");
    fails_at(&deck, 12, "only a hand card may say what its holder knows");
    // Hints no deal of the unseen cards fits (r1 r2 r3 y1 y2 y2 y3): two cards that are both
    // r3, or three 1s.
    fails_at(
        &hand("hand Alice: r2 r? ?{r3} ?{r3}"),
        10,
        "no way to deal the unseen cards (r1 r2 r3 y1 y2 y2 y3) fits what the players know of \
         their cards, up to Alice's hand",
    );
    fails_at(
        &KNOWS.replace("hand Bob: ? ? ? ?", "hand Bob: ?1 ?1 ? ?"),
        11,
        "up to Bob's hand",
    );
    // One y1 is discarded: the other cannot be two cards.
    let two_y1 =
        hand("hand Alice: r2 r? ?1 ?{y1}").replace("hand Bob: ? ? ? ?", "hand Bob: ?{y1} ? ? ?");
    fails_at(&two_y1, 11, "no way to deal");
    // copies: only for research decks, one number from 1 to 3 per rank.
    for (with, line, needle) in [
        ("copies: 2 2", 3, "3 numbers, not 2"),
        ("copies: 2 2 1 1", 3, "3 numbers, not 4"),
        (
            "copies: 2 4 1",
            3,
            "`4` is not a number of copies from 1 to 3",
        ),
        ("copies: 0 2 1", 3, "`0` is not a number of copies"),
        ("copies: two", 3, "`two` is not a number of copies"),
    ] {
        fails_at(&KNOWS.replace("copies: 2 2 1", with), line, needle);
    }
    let named = KNOWS.replace("suits: 2\nranks: 3\n", "variant: no-variant\n");
    fails_at(&named, 2, "`copies:` describe a research deck");
    fails_at(
        &KNOWS.replace("suits: 2\nranks: 3\n", ""),
        1,
        "`copies:` needs `suits:`",
    );
}

// ---------------------------------------------------------------------------------------------
// Syntax faults: each names its line and the token

#[test]
fn syntax_faults_name_line_and_token() {
    let cases: &[(usize, &str, &str)] = &[
        (4, "players Alice Bob", "expected `key: value`"),
        (6, "clue: 1", "unknown key `clue`"),
        (6, "clues: many", "`many` is not a whole number"),
        (7, "strikes: -1", "`-1`"),
        (9, "stacks: r1 x0", "`x0` is not a suit ("),
        (9, "stacks: r", "`r` is not a suit ("),
        (9, "stacks:", "no height for suit r"),
        (9, "stacks: r1 r0", "given twice"),
        (10, "discards: q9", "invalid card \"q9\""),
        (10, "discards: ?", "`?` is not allowed"),
        (11, "hand Alice: r2 r7", "invalid card \"r7\""),
        (11, "hand Zoe: r2 r3", "no player named Zoe"),
        (11, "hand: r2 r3", "write `hand NAME:`"),
        (13, "deck: r1 banana", "\"banana\""),
        (14, "turn: Zoe", "no player named `Zoe`"),
        (4, "players: Alice Alice", "named twice"),
        (4, "players: Alice", "2 to 6 players"),
        (4, "players: 7", "2 to 6 players"),
        (2, "suits: 9", "suits must be 1 to 6"),
        (3, "ranks: 0", "ranks must be 1 to 5"),
        (2, "variant: nope", "unknown variant nope"),
    ];
    for &(line, with, needle) in cases {
        let text = replace_line(line, with);
        let text = if with.starts_with("variant:") {
            // A variant and research-deck keys together are a fault of their own; drop ranks.
            text.replace("ranks: 3\n", "")
        } else {
            text
        };
        fails_at(&text, line, needle);
    }
}

#[test]
fn duplicate_and_missing_keys() {
    fails_at(
        &format!("{BASE}clues: 2\n"),
        16,
        "duplicate key `clues` (first on line 6)",
    );
    fails_at(
        &format!("{BASE}hand Bob: r1\n"),
        16,
        "duplicate key `hand Bob`",
    );
    // A missing key is reported at the last line.
    for (n, key) in [
        (4, "players"),
        (6, "clues"),
        (7, "strikes"),
        (9, "stacks"),
        (10, "discards"),
        (12, "hand Bob"),
        (13, "deck"),
        (14, "turn"),
    ] {
        let text = replace_line(n, "# removed");
        fails_at(&text, 15, &format!("missing required key `{key}:`"));
    }
    let text = replace_line(2, "# removed").replace("ranks: 3\n", "# removed\n");
    fails_at(&text, 15, "missing required key `variant:`");
    fails_at(
        &replace_line(1, "variant: no-variant"),
        2,
        "the file already names the variant on line 1",
    );
}

#[test]
fn every_fault_is_reported_in_line_order() {
    let text = BASE
        .replace("clues: 1", "clue: 1")
        .replace("hand Alice: r2 r3", "hand Alice: r2 x3")
        .replace("turn: Bob", "turn: Zoe");
    let f = faults(&text);
    assert_eq!(f.lines(), [6, 11, 14, 15], "{f}");
    let shown = f.to_string();
    assert!(shown.starts_with("line 6: "), "{shown}");
    assert!(!shown.contains('\n'), "one line: {shown}");
    assert_eq!(Error::from(f.clone()), f.0[0]);
}

// ---------------------------------------------------------------------------------------------
// Meaning faults

#[test]
fn meaning_faults_name_line_and_reason() {
    let cases: &[(usize, &str, &str)] = &[
        // Counting stacks, discards, hands and deck: a fourth r1.
        (12, "hand Bob: r1 r1", "more copies of r1 than exist"),
        (11, "hand Alice: r3 r3", "more copies of r3 than exist"),
        (
            11,
            "hand Alice: r2 r3 r1",
            "hand has 3 cards but the hand size is 2",
        ),
        (9, "stacks: r4", "above the top rank 3"),
        (6, "clues: 9", "9 tokens but there are only 8"),
        (7, "strikes: 3", "3 strikes already end the game"),
        (15, "final-turns: 3", "final-turns must be 1 to 2"),
        (15, "final-turns: 0", "final-turns must be 1 to 2"),
        (5, "hand-size: 9", "hand-size must be 1 to 8"),
        // Three hands of... no: two hands of 4 need 8 cards, 1 x 3 has 6.
        (5, "hand-size: 4", "need 8 cards"),
        (9, "stacks: r3", "every firework is complete"),
    ];
    for &(line, with, needle) in cases {
        fails_at(&replace_line(line, with), line, needle);
    }
    fails_at(
        &format!("{BASE}max-clues: 0\n"),
        16,
        "max-clues must be 1 to 15",
    );
    fails_at(
        &format!("{BASE}max-strikes: 9\n"),
        16,
        "max-strikes must be 1 to 7",
    );
    fails_at(
        &replace_line(6, "clues: 3").replace("final-turns: 2\n", "final-turns: 2\nmax-clues: 2\n"),
        6,
        "3 tokens but there are only 2",
    );
}

#[test]
fn cards_unaccounted_for() {
    // One discard left out: one card unaccounted for, reported at the deck line.
    fails_at(
        &replace_line(10, "discards:"),
        13,
        "1 card is unaccounted for",
    );
    // A `?` too many.
    fails_at(
        &replace_line(13, "deck: ?").replace("final-turns: 2\n", ""),
        13,
        "1 card too many",
    );
    // The No Variant deck with only the hands listed: 40 cards unaccounted for.
    let text = "\
variant: no-variant
players: 2
clues: 8
strikes: 0
stacks: r0 y0 g0 b0 p0
discards:
hand Alice: r1 r1 r1 y1 y1
hand Bob: ? ? ? ? ?
deck:
turn: Alice
final-turns: 2
";
    fails_at(text, 9, "40 cards are unaccounted for");
}

#[test]
fn final_round_faults() {
    // An empty deck outside endless mode needs final-turns.
    fails_at(
        &BASE.replace("final-turns: 2\n", ""),
        13,
        "say how many turns are left with `final-turns: N`",
    );
    // final-turns with cards still in the deck, or in endless mode.
    let text = replace_line(10, "discards:").replace("deck:\n", "deck: r1\n");
    fails_at(&text, 15, "only starts once the deck is empty");
    fails_at(
        &format!("{BASE}endless: true\n"),
        15,
        "endless mode has no final round",
    );
    // Endless mode needs no final-turns with an empty deck.
    let endless = BASE.replace("final-turns: 2\n", "endless: true\n");
    let (_, state) = open(&endless);
    assert_eq!(state.final_turns, NOT_FINAL);
}

#[test]
fn positions_already_over_are_refused() {
    // Endless mode with every r3 discarded: already lost.
    let text = BASE
        .replace("hand Alice: r2 r3", "hand Alice: r2 r1")
        .replace("hand Bob: r1 r2", "hand Bob: r2")
        .replace("discards: r1", "discards: r3 r1")
        .replace("final-turns: 2\n", "endless: true\n");
    fails_at(&text, 10, "every copy of r3 is discarded");
    // Bob to move with no card, no token and nothing to play from the deck.
    let text = BASE
        .replace("clues: 1", "clues: 0")
        .replace("hand Bob: r1 r2", "hand Bob:")
        .replace("discards: r1", "discards: r1 r1 r2");
    fails_at(&text, 14, "Bob is to move but has no legal action");
}

// ---------------------------------------------------------------------------------------------
// The curated positions

/// Every curated position with its answer. `brute` marks the small ones, whose answer the
/// brute-force reference must confirm; for the others the answer is the perfect score, which
/// the replayed line proves on its own.
const CURATED: &[(&str, u8, bool)] = &[
    ("2p-b5-gone.hanabi", 24, true),
    ("2p-no-variant.hanabi", 25, true),
    ("3p-no-variant.hanabi", 25, false),
    ("4p-no-variant.hanabi", 25, false),
    ("5p-no-variant.hanabi", 25, false),
    ("6p-no-variant.hanabi", 25, false),
    ("black-5.hanabi", 25, false),
    ("black.hanabi", 30, false),
    ("deck-play.hanabi", 3, true),
    ("empty-clues.hanabi", 3, true),
    ("endless-lost.hanabi", 0, true),
    ("endless.hanabi", 3, true),
    ("final-round.hanabi", 3, true),
    ("forced-bomb.hanabi", 0, true),
    ("four-suits.hanabi", 20, false),
    ("game-194321-turn40.hanabi", 25, false),
    ("no-stall.hanabi", 3, true),
    ("rainbow-5.hanabi", 25, false),
    ("rainbow.hanabi", 30, false),
    ("research-three-twos.hanabi", 5, true),
    ("research-two-threes.hanabi", 5, true),
    ("six-suits.hanabi", 30, false),
    ("stall.hanabi", 4, true),
    ("three-players-final.hanabi", 3, true),
    ("three-suits.hanabi", 15, false),
];

fn curated_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(positions_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".hanabi"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_list_names_every_curated_file() {
    let listed: Vec<&str> = CURATED.iter().map(|c| c.0).collect();
    assert_eq!(curated_files(), listed);
    assert!(listed.len() >= 20);
}

#[test]
fn every_curated_position_solves_and_its_line_replays() {
    for &(name, answer, brute) in CURATED {
        let text = std::fs::read_to_string(positions_dir().join(name)).unwrap();
        let (deal, state) = open(&text);
        let s = solve(&deal, &state, &SolveConfig::default());
        assert!(s.proven, "{name}");
        assert_eq!(s.max_score, answer, "{name}");
        let end = final_state(&deal, &state, &s.line).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            end.score(&deal.rules),
            s.max_score,
            "{name}: the line's score"
        );
        if brute {
            let r = reference(&deal, &state, &mut HashMap::new());
            assert_eq!(r, answer, "{name}: brute force");
        } else {
            assert_eq!(
                answer,
                deal.rules.perfect_score(),
                "{name}: only perfect answers are proven by their line alone"
            );
        }
        // The file is what the writer writes (comments aside).
        let names = parse(&text).unwrap().names;
        let body: String = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(position::write(&deal, &state, &names), body, "{name}");
    }
}

/// positions/README.md has one row per file, and its answer is the solver's.
#[test]
fn the_readme_table_agrees() {
    let readme = std::fs::read_to_string(positions_dir().join("README.md")).unwrap();
    let mut rows = HashMap::new();
    for line in readme.lines().filter(|l| l.starts_with("| [")) {
        let name = line[3..line.find(']').unwrap()].to_string();
        let cells: Vec<&str> = line.split('|').collect();
        let answer = cells[3].trim();
        let number: u8 = answer
            .trim_start_matches("**")
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("answer cell of {name}: {answer:?}"));
        rows.insert(name, number);
    }
    for &(name, answer, _) in CURATED {
        assert_eq!(rows.get(name), Some(&answer), "README row of {name}");
    }
    assert_eq!(rows.len(), CURATED.len());
}

#[test]
fn hidden_curated_positions_are_refused_with_the_line() {
    // The curated stall position with Bob's hand hidden reads, but cannot be opened.
    let text = std::fs::read_to_string(positions_dir().join("stall.hanabi")).unwrap();
    let hidden = text.replace("hand Bob: r2 r2", "hand Bob: ? ?");
    let pos: Position = position::read(&hidden).unwrap();
    assert_eq!(pos.hidden(), 2);
    assert_eq!(pos.unseen(), [Card::new(0, 2), Card::new(0, 2)]);
    let line = hidden
        .lines()
        .position(|l| l.starts_with("hand Bob"))
        .unwrap()
        + 1;
    assert!(matches!(pos.open(), Err(Error::Position { line: l, .. }) if l == line));
}

// ---------------------------------------------------------------------------------------------
// positions/team: the shared reference positions of team play with hidden hands

/// The JSON positions of ../shared/data/team (public information only: what every player
/// knows) and their copies in positions/team.
const TEAM: &[(&str, &str)] = &[
    ("01_blind_play_vs_clue", "01-blind-play-vs-clue"),
    ("03_three_player_final_round", "03-three-player-final-round"),
    ("12_control_all_known", "12-control-all-known"),
];

/// Each committed `.hanabi` copy is the same position as its shared JSON: deck, stacks,
/// discards, tokens, strikes, every hand card with what its holder knows, whose turn and the
/// final round. The JSON's suit letters name the research deck's suits in order (`r b` are
/// `r y` here), and its hands list the newest card first.
#[test]
fn the_team_positions_are_the_shared_ones() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/team");
    let mut files: Vec<String> = std::fs::read_dir(positions_dir().join("team"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    files.sort();
    let listed: Vec<String> = TEAM.iter().map(|t| format!("{}.hanabi", t.1)).collect();
    assert_eq!(files, listed);
    for &(json_name, name) in TEAM {
        let path = shared.join(format!("{json_name}.json"));
        let json =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let j: serde_json::Value = serde_json::from_str(&json).unwrap();
        let text =
            std::fs::read_to_string(positions_dir().join("team").join(format!("{name}.hanabi")))
                .unwrap();
        let pos = position::read(&text).unwrap_or_else(|f| panic!("{name}: {f}"));
        let v = &pos.rules.variant;
        // The deck: the suits in order, the copies of each rank.
        let letters: Vec<&str> = j["suits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(v.id, None, "{name}: a research deck");
        assert_eq!(letters.len(), v.suits.len(), "{name}");
        let copies = j["copies"].as_object().unwrap();
        assert_eq!(copies.len(), v.ranks as usize, "{name}");
        for (rank, n) in copies {
            let rank: u8 = rank.parse().unwrap();
            for s in 0..v.suits.len() as u8 {
                assert_eq!(
                    v.copies(s, rank) as u64,
                    n.as_u64().unwrap(),
                    "{name}: copies"
                );
            }
        }
        // A card or hand card of the JSON, its suit letter turned into the deck's.
        let translate = |token: &str| -> String {
            match letters.iter().position(|&l| token.starts_with(l)) {
                Some(s) => format!("{}{}", v.suits[s].short, &token[letters[s].len()..]),
                None => token.to_string(),
            }
        };
        let card =
            |token: &serde_json::Value| v.parse_card(&translate(token.as_str().unwrap())).unwrap();
        // Players, fireworks, discards, tokens, strikes, turn, final round.
        assert_eq!(
            pos.names.len() as u64,
            j["players"].as_u64().unwrap(),
            "{name}"
        );
        let heights: Vec<u64> = pos.stacks.iter().map(|s| s.height() as u64).collect();
        let stacks: Vec<u64> = j["stacks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_u64().unwrap())
            .collect();
        assert_eq!(heights, stacks, "{name}: stacks");
        let mut discards: Vec<Card> = j["discards"].as_array().unwrap().iter().map(card).collect();
        let mut ours = pos.discards.clone();
        discards.sort_unstable();
        ours.sort_unstable();
        assert_eq!(ours, discards, "{name}: discards");
        assert_eq!(
            pos.clues as u64,
            j["clue_tokens"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(pos.strikes as u64, j["strikes"].as_u64().unwrap(), "{name}");
        assert_eq!(
            pos.turn as u64,
            j["current_player"].as_u64().unwrap(),
            "{name}"
        );
        match j["turns_left"].as_u64() {
            Some(t) => assert_eq!(pos.final_turns as u64, t, "{name}: final turns"),
            None => assert_eq!(pos.final_turns, NOT_FINAL, "{name}"),
        }
        // The pile: every card not accounted for elsewhere, order unknown.
        assert!(pos.pile.iter().all(Option::is_none), "{name}: pile");
        // Hands: the JSON's newest card first, ours oldest first; each card with the kinds its
        // holder knows it may be.
        let hands = j["hands"].as_array().unwrap();
        assert_eq!(hands.len(), pos.hands.len(), "{name}");
        for (p, hand) in hands.iter().enumerate() {
            let theirs: Vec<(Option<Card>, u64)> = hand
                .as_array()
                .unwrap()
                .iter()
                .rev()
                .map(|c| position::parse_hand_card(v, &translate(c.as_str().unwrap())).unwrap())
                .collect();
            let ours: Vec<(Option<Card>, u64)> = pos.hands[p]
                .iter()
                .copied()
                .zip(pos.hints[p].iter().copied())
                .collect();
            assert_eq!(ours, theirs, "{name}: hand of seat {p}");
        }
        // The comment gives the JSON's description; the rest is what the writer writes.
        let comment: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("# ")).collect();
        let description = j["description"].as_str().unwrap();
        assert!(
            comment.join(" ").contains(description),
            "{name}: {comment:?}"
        );
        let body: String = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(to_text(&PositionFile::from_position(&pos)), body, "{name}");
    }
    // The control position has every card known: 6 of 6, as every value of it says.
    let text =
        std::fs::read_to_string(positions_dir().join("team/12-control-all-known.hanabi")).unwrap();
    let (deal, state) = open(&text);
    assert_eq!(solve(&deal, &state, &SolveConfig::default()).max_score, 6);
    assert_eq!(reference(&deal, &state, &mut HashMap::new()), 6);
}
