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
use hanabi_solver::line::final_state;
use hanabi_solver::position::{self, parse, to_text, Faults, Position, PositionFile};
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
            (s2.clues, s2.strikes, s2.turn, s2.final_turns, s2.outcome),
            (
                state.clues,
                state.strikes,
                state.turn,
                state.final_turns,
                state.outcome
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
