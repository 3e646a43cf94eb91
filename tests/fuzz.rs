//! Property-based fuzz tests of every text the library reads: seed names, variant names and
//! rule options, card and deck text, position files (and the hidden-card views built on them),
//! hanab.live game exports (replayed to every turn) and bench sets. Every input must give either
//! a valid result, checked as far as it can be, or an error whose message is one line; nothing
//! may panic. The command line's options are fuzzed by `tests/cli_options.rs`.
//!
//! Inputs are both arbitrary (any Unicode, control characters, arbitrary bytes) and near-valid:
//! the committed position files, game exports and bench sets, and positions and games generated
//! by random legal play, then mutated (lines dropped, duplicated or swapped, tokens replaced by
//! huge, negative or foreign numbers, JSON fields removed or given the wrong type, text cut
//! short, a byte order mark in front, ...).
//!
//! Each property runs 256 cases unless `PROPTEST_CASES` says otherwise; the whole file takes
//! well under a minute in release mode. A long campaign:
//!
//! ```text
//! PROPTEST_CASES=20000 cargo test --release --test fuzz
//! ```
//!
//! Without `--release` the test profile (opt-level 3 with debug assertions and overflow checks)
//! also turns arithmetic overflow into failures, at about the same speed.
//!
//! A failing case is shrunk and printed by proptest; add it as a plain `#[test]` next to the fix.
//! Failures are not persisted to files.
//!
//! hanab.live replay links are not covered: nothing in the crate parses them yet.

use std::fmt::Debug;
use std::path::Path;
use std::sync::OnceLock;

use hanabi_solver::benchset;
use hanabi_solver::error::Error;
use hanabi_solver::game::card::Card;
use hanabi_solver::game::rules::{default_hand_size, Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::hanablive::{self, GameExport, Tracker};
use hanabi_solver::hidden::{self, root_actions, ExactConfig, Filler, SplitMix64};
use hanabi_solver::line::describe;
use hanabi_solver::position::{self, Faults, Lines, Position, PositionFile, ALL_KINDS};
use hanabi_solver::search::{solve, SolveConfig};
use hanabi_solver::seed::{deck_for_seed, parse_seed_name, shuffled_deck};
use hanabi_solver::state::{Action, Deal, State};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// Configuration and shared checks.

/// Cases per property when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 256;

/// proptest's defaults (which read `PROPTEST_CASES`), 256 cases unless told otherwise, and no
/// failure files.
fn config() -> ProptestConfig {
    let mut c = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = DEFAULT_CASES;
    }
    c.failure_persistence = None;
    c
}

/// Characters that end a line somewhere: LF, CR, VT, FF, NEL and the Unicode line and
/// paragraph separators.
fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// An error message must be one non-empty line.
#[track_caller]
fn one_line(message: &str, input: &dyn Debug) {
    assert!(
        !message.trim().is_empty(),
        "empty error message for input {input:?}"
    );
    assert!(
        !message.chars().any(is_line_break),
        "the error message is not one line: {message:?} (input {input:?})"
    );
}

/// Every fault of a position file: one line each, in line order, each naming a line of the
/// file; the whole list one line too.
#[track_caller]
fn check_faults(faults: &Faults, text: &str) {
    assert!(!faults.0.is_empty(), "no faults in an error for {text:?}");
    let last = text.lines().count().max(1);
    for e in &faults.0 {
        one_line(&e.to_string(), &text);
        assert!(
            matches!(e, Error::Position { .. }),
            "a position fault that names no line: {e:?} for {text:?}"
        );
    }
    let lines = faults.lines();
    assert!(
        lines.windows(2).all(|w| w[0] <= w[1]),
        "faults out of line order: {lines:?} for {text:?}"
    );
    assert!(
        lines.iter().all(|l| (1..=last).contains(l)),
        "a fault names a line that is not in the file: {lines:?} ({last} lines) for {text:?}"
    );
    one_line(&faults.to_string(), &text);
}

/// Every known variant and every research deck.
fn variants() -> &'static [Variant] {
    static V: OnceLock<Vec<Variant>> = OnceLock::new();
    V.get_or_init(|| {
        let mut v = known_variants().to_vec();
        for suits in 1..=6 {
            for ranks in 1..=5 {
                v.push(Variant::research(suits, ranks).unwrap());
            }
        }
        v
    })
}

/// The hanab.live variants the crate knows.
fn known_variants() -> &'static [Variant] {
    static V: OnceLock<Vec<Variant>> = OnceLock::new();
    V.get_or_init(|| (0..256).filter_map(|id| Variant::by_id(id).ok()).collect())
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort();
    cards
}

/// The texts of the files in `dir` (under the crate root) whose names end with `ext`.
fn files(dir: &str, ext: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(ext)))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Text generators and mutations.

/// Characters that tend to trip up parsers: line breaks and other controls, a byte order mark,
/// foreign digits, letters that change length when case-folded, combining marks, separators.
const NASTY: &[char] = &[
    '\n', '\r', '\t', '\0', '\u{0b}', '\u{0c}', '\u{1b}', '\u{7f}', '\u{85}', '\u{a0}', '\u{2028}',
    '\u{feff}', 'é', 'ß', '２', '٢', '²', '𝟚', 'ｐ', 'İ', 'ﬀ', '\u{301}', '😀', ' ', ',', '#', ':',
    '?', '[', ']', '-', '+', '.', '_', '"', '\\', '{', '}',
];

fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::char::range(' ', '~'),
        2 => select(NASTY),
        1 => any::<char>(),
    ]
}

/// Any text of up to `max` characters, mostly printable ASCII.
fn text(max: usize) -> impl Strategy<Value = String> {
    vec(any_char(), 0..=max).prop_map(String::from_iter)
}

/// One edit of a text, by character position.
#[derive(Clone, Debug)]
enum Edit {
    Insert(Index, String),
    Delete(Index, usize),
    Replace(Index, String),
    Duplicate(Index, usize),
    Truncate(Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<Index>(), text(4)).prop_map(|(i, s)| Edit::Insert(i, s)),
        2 => (any::<Index>(), 1..6usize).prop_map(|(i, n)| Edit::Delete(i, n)),
        3 => (any::<Index>(), text(3)).prop_map(|(i, s)| Edit::Replace(i, s)),
        1 => (any::<Index>(), 1..6usize).prop_map(|(i, n)| Edit::Duplicate(i, n)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn apply_edits(s: &str, edits: &[Edit]) -> String {
    let mut cs: Vec<char> = s.chars().collect();
    for e in edits {
        match e {
            Edit::Insert(i, t) => {
                let at = i.index(cs.len() + 1);
                cs.splice(at..at, t.chars());
            }
            Edit::Truncate(i) => cs.truncate(i.index(cs.len() + 1)),
            _ if cs.is_empty() => {}
            Edit::Delete(i, n) => {
                let at = i.index(cs.len());
                cs.drain(at..(at + n).min(cs.len()));
            }
            Edit::Replace(i, t) => {
                let at = i.index(cs.len());
                cs.splice(at..at + 1, t.chars());
            }
            Edit::Duplicate(i, n) => {
                let at = i.index(cs.len());
                let end = (at + n).min(cs.len());
                let copy: Vec<char> = cs[at..end].to_vec();
                cs.splice(end..end, copy);
            }
        }
    }
    cs.into_iter().collect()
}

/// Numbers as they might be written, right or wrong: at the limits of u8, u32, u64 and beyond,
/// negative, signed, padded, with foreign digits, as floats.
const NUMBERS: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "15",
    "16",
    "00",
    "02",
    "10",
    "21",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "-0",
    "-1",
    "-128",
    "+2",
    " 2",
    "2 ",
    "２",
    "٢",
    "²",
    "𝟚",
    "2.0",
    "1e3",
    "1e19",
    "NaN",
    "inf",
    "0x10",
];

fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(NUMBERS).prop_map(str::to_string),
        1 => "[0-9]{1,30}",
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
    ]
}

// ---------------------------------------------------------------------------------------------
// Seed names.

fn seed_name() -> impl Strategy<Value = String> {
    let parts = (
        select(
            &[
                "",
                "",
                "",
                "legacy-x-",
                "legacy-",
                "legacy-x-legacy-x-",
                "LEGACY-X-",
                "legacy-é-",
                " ",
            ][..],
        ),
        select(&["p", "p", "p", "P", "ｐ", "", "pp", "p-"][..]),
        number_text(),
        select(&["v", "v", "v", "V", "ｖ", "", "vv"][..]),
        number_text(),
        select(&["s", "s", "s", "S", "ｓ", "", "ss"][..]),
        prop_oneof![number_text(), text(12)],
    )
        .prop_map(|(a, b, c, d, e, f, g)| format!("{a}{b}{c}{d}{e}{f}{g}"));
    (parts, vec(edit(), 0..3)).prop_map(|(s, edits)| apply_edits(&s, &edits))
}

/// A seed string: read as a hanab.live name (or not), then shuffled in every variant.
fn check_seed(name: &str) {
    match parse_seed_name(name) {
        Err(e) => one_line(&e.to_string(), &name),
        Ok(None) => {}
        Ok(Some((players, id))) => {
            assert!(
                (2..=6).contains(&players),
                "{name:?} read as {players} players"
            );
            // A legacy- name's game name follows the next dash (`legacy-10-p2v0s1`).
            let body = name
                .strip_prefix("legacy-")
                .and_then(|rest| rest.split_once('-'))
                .map_or(name, |(_, body)| body);
            let head = format!("p{players}v{id}s");
            assert!(
                body.starts_with(&head) && body.len() > head.len(),
                "{name:?} read as players {players}, variant {id}"
            );
            match Variant::by_id(id) {
                Err(e) => one_line(&e.to_string(), &name),
                Ok(v) => match Rules::new(v, players, &Options::default()) {
                    Err(e) => one_line(&e.to_string(), &name),
                    Ok(rules) => {
                        let deck = shuffled_deck(name, &rules.variant);
                        Deal::from_deck(rules, &deck).unwrap_or_else(|e| {
                            panic!("the deck of seed {name:?} does not deal: {e}")
                        });
                    }
                },
            }
        }
    }
    for v in variants() {
        let deck = shuffled_deck(name, v);
        assert_eq!(sorted(deck.clone()), sorted(v.deck()), "seed {name:?}");
        assert_eq!(deck_for_seed(name, v), deck, "seed {name:?}");
    }
}

proptest! {
    #![proptest_config(config())]

    /// Any text as a seed name.
    #[test]
    fn seed_names_arbitrary(name in text(40)) {
        check_seed(&name);
    }

    /// Names close to `p2v0s1` and `legacy-x-p2v0s1`: every part altered, digits at and past the
    /// limits, foreign digits, multi-byte characters, then edited at random.
    #[test]
    fn seed_names_near_valid(name in seed_name()) {
        check_seed(&name);
    }
}

// ---------------------------------------------------------------------------------------------
// Variant names and rule options.

const VARIANT_NAMES: &[&str] = &[
    "no-variant",
    "six-suits",
    "black",
    "rainbow",
    "four-suits",
    "rainbow-5",
    "three-suits",
    "black-5",
    "No Variant",
    "6 Suits",
    "Black (6 Suits)",
    "Rainbow (6 Suits)",
    "4 Suits",
    "Rainbow (5 Suits)",
    "3 Suits",
    "Black (5 Suits)",
    "0",
    "1",
    "2",
    "3",
    "15",
    "16",
    "18",
    "21",
    "22",
    "4294967295",
    "4294967296",
    "-0",
    "+3",
    " black ",
    "BLACK",
    "Black  (6 Suits)",
    "ＢＬＡＣＫ",
    "black\u{0}",
];

fn variant_text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => select(VARIANT_NAMES).prop_map(str::to_string),
        2 => (select(VARIANT_NAMES), vec(edit(), 1..3))
            .prop_map(|(s, edits)| apply_edits(s, &edits)),
        1 => text(24),
    ]
}

fn small_u8() -> impl Strategy<Value = u8> {
    prop_oneof![0..=16u8, any::<u8>()]
}

proptest! {
    #![proptest_config(config())]

    /// `--variant`, `--suits`/`--ranks` and every rule option: a variant and rules that hold
    /// together, or a one-line error.
    #[test]
    fn variants_and_rules(
        name in variant_text(),
        suits in small_u8(),
        ranks in small_u8(),
        players in small_u8(),
        hand_size in proptest::option::of(small_u8()),
        clues in proptest::option::of(small_u8()),
        strikes in proptest::option::of(small_u8()),
        flags in any::<(bool, bool, bool)>(),
        pick in any::<Index>(),
    ) {
        let mut candidates = vec![variants()[pick.index(variants().len())].clone()];
        match Variant::parse(&name) {
            Ok(v) => {
                let id = v.id.expect("a parsed variant is a hanab.live variant");
                assert_eq!(Variant::by_id(id).unwrap(), v, "{name:?}");
                candidates.push(v);
            }
            Err(e) => one_line(&e.to_string(), &name),
        }
        match Variant::research(suits, ranks) {
            Ok(v) => {
                assert!((1..=6).contains(&suits) && (1..=5).contains(&ranks));
                assert_eq!((v.suits.len(), v.ranks), (suits as usize, ranks));
                candidates.push(v);
            }
            Err(e) => {
                assert!(!(1..=6).contains(&suits) || !(1..=5).contains(&ranks));
                one_line(&e.to_string(), &(suits, ranks));
            }
        }
        let options = Options {
            hand_size,
            clues,
            strikes,
            empty_clues: flags.0,
            deck_plays: flags.1,
            endless: flags.2,
        };
        for v in candidates {
            assert_eq!(v.deck().len(), v.deck_size());
            assert_eq!(v.perfect_score() as usize, v.suits.len() * v.ranks as usize);
            match Rules::new(v.clone(), players, &options) {
                Err(e) => one_line(&e.to_string(), &(players, &options)),
                Ok(rules) => {
                    assert!((2..=6).contains(&rules.players));
                    assert!((1..=8).contains(&rules.hand_size));
                    assert!(rules.players as usize * rules.hand_size as usize <= v.deck_size());
                    assert!((1..=15).contains(&rules.max_tokens()));
                    assert_eq!(rules.max_clues, rules.max_tokens() * v.tokens().scale);
                    assert!((1..=7).contains(&rules.max_strikes));
                    let (deal, state) = Deal::from_deck(rules.clone(), &v.deck())
                        .unwrap_or_else(|e| panic!("{rules:?}: the unshuffled deck does not deal: {e}"));
                    check_playable(&deal, &state, &hanablive::default_names(rules.players));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Cards and decks.

const LETTERS: &[&str] = &[
    "r", "y", "g", "b", "p", "t", "k", "m", "w", "R", "Y", "W", "K", "M", "x", "z", "ｒ", "é", "?",
    "", " ", "rr", "İ",
];

fn card_text() -> impl Strategy<Value = String> {
    let plain = (select(LETTERS), number_text())
        .prop_map(|(l, r)| format!("{l}{r}"))
        .boxed();
    prop_oneof![
        3 => plain.clone(),
        1 => text(6),
        1 => (plain, vec(edit(), 1..3)).prop_map(|(s, edits)| apply_edits(&s, &edits)),
    ]
}

#[track_caller]
fn check_card(v: &Variant, text: &str) {
    match v.parse_card(text) {
        Ok(c) => {
            // A rank of the stacks, or START where the deck has it.
            assert!(
                (c.suit() as usize) < v.suits.len()
                    && ((1..=v.ranks).contains(&c.rank()) || v.deck().contains(&c)),
                "{text:?} read as {c:?} in {}",
                v.name
            );
            let name = v.card_name(c);
            assert_eq!(v.parse_card(&name), Ok(c), "{text:?} in {}", v.name);
        }
        Err(e) => one_line(&e.to_string(), &text),
    }
}

/// `solve --deck`'s reading of a deck: cards separated by spaces or commas, brackets ignored.
fn parse_deck(rules: &Rules, text: &str) -> Result<Vec<Card>, Error> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            rules
                .variant
                .parse_card(t.trim_matches(|c| c == '[' || c == ']'))
        })
        .collect()
}

#[derive(Clone, Debug)]
enum TokenEdit {
    Drop(Index),
    Duplicate(Index),
    Swap(Index, Index),
    Replace(Index, String),
}

fn token_edit() -> impl Strategy<Value = TokenEdit> {
    prop_oneof![
        any::<Index>().prop_map(TokenEdit::Drop),
        any::<Index>().prop_map(TokenEdit::Duplicate),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| TokenEdit::Swap(a, b)),
        (any::<Index>(), card_text()).prop_map(|(a, s)| TokenEdit::Replace(a, s)),
    ]
}

fn apply_token_edits(tokens: &mut Vec<String>, edits: &[TokenEdit]) {
    for e in edits {
        if tokens.is_empty() {
            return;
        }
        let n = tokens.len();
        match e {
            TokenEdit::Drop(i) => {
                tokens.remove(i.index(n));
            }
            TokenEdit::Duplicate(i) => {
                let t = tokens[i.index(n)].clone();
                tokens.insert(i.index(n), t);
            }
            TokenEdit::Swap(a, b) => tokens.swap(a.index(n), b.index(n)),
            TokenEdit::Replace(i, s) => tokens[i.index(n)] = s.clone(),
        }
    }
}

const SEPARATORS: &[&str] = &[
    " ", ",", ", ", "\t", "\n", "  ", ",,", " , ", "\u{a0}", "\u{3000}",
];

proptest! {
    #![proptest_config(config())]

    /// Card names, valid or not, in every variant.
    #[test]
    fn card_names(text in card_text(), pick in any::<Index>()) {
        let v = &variants()[pick.index(variants().len())];
        check_card(v, &text);
    }

    /// `--deck` text: a real shuffled deck with cards dropped, repeated, swapped or replaced,
    /// other separators and brackets, then edited at random; read, then dealt.
    #[test]
    fn deck_text(
        pick in any::<Index>(),
        players in 1u8..=7,
        seed in any::<u64>(),
        token_edits in vec(token_edit(), 0..4),
        separator in select(SEPARATORS),
        brackets in any::<bool>(),
        edits in vec(edit(), 0..2),
    ) {
        let v = &variants()[pick.index(variants().len())];
        let deck = shuffled_deck(&seed.to_string(), v);
        let mut tokens: Vec<String> = deck.iter().map(|&c| v.card_name(c)).collect();
        apply_token_edits(&mut tokens, &token_edits);
        let mut text = tokens.join(separator);
        if brackets {
            text = format!("[{text}]");
        }
        let text = apply_edits(&text, &edits);
        let rules = match Rules::new(v.clone(), players, &Options::default()) {
            Ok(r) => r,
            Err(e) => {
                one_line(&e.to_string(), &players);
                return Ok(());
            }
        };
        match parse_deck(&rules, &text) {
            Err(e) => one_line(&e.to_string(), &text),
            Ok(cards) => match Deal::from_deck(rules.clone(), &cards) {
                Err(e) => one_line(&e.to_string(), &text),
                Ok((deal, state)) => {
                    assert_eq!(sorted(cards.clone()), sorted(v.deck()), "{text:?}");
                    for p in 0..players as usize {
                        assert_eq!(state.hand(p).len(), rules.hand_size as usize);
                    }
                    assert_eq!(
                        deal.pile.len(),
                        v.deck_size() - players as usize * rules.hand_size as usize
                    );
                }
            },
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Games in play: what any position the parsers accept must allow.

/// A small search: the listed actions are legal, and the search's line is legal and reaches
/// the score it claims.
fn check_playable(deal: &Deal, state: &State, names: &[String]) {
    if state.is_over() {
        return;
    }
    let actions = state.legal_actions(deal);
    assert!(
        !actions.is_empty(),
        "a game in play with no legal action: {state:?}"
    );
    for &a in &actions {
        state
            .apply(deal, a)
            .unwrap_or_else(|e| panic!("listed action {a:?} is illegal: {e}"));
    }
    let config = SolveConfig {
        threads: 1,
        tt_mb: 1,
        max_nodes: Some(300),
        ..SolveConfig::default()
    };
    let s = solve(deal, state, &config);
    assert!(s.lower_bound <= s.upper_bound && s.upper_bound <= s.perfect_score);
    let (_, end) = describe(deal, state, &s.line, names)
        .unwrap_or_else(|(i, e)| panic!("line action {i} is illegal: {e}"));
    assert!(end.is_over(), "the search's line does not finish the game");
    assert_eq!(end.score(&deal.rules), s.lower_bound);
}

/// How a generated game is set up and played.
#[derive(Clone, Debug)]
struct GameSpec {
    variant: Index,
    players: u8,
    hand_size: Option<u8>,
    clues: Option<u8>,
    strikes: Option<u8>,
    flags: (bool, bool, bool),
    seed: u64,
    steps: usize,
}

/// Games of any variant and rules (`live`: only rules hanab.live can express).
fn game_spec(live: bool) -> impl Strategy<Value = GameSpec> {
    let hand = if live {
        prop_oneof![Just(None), (-1i8..=1).prop_map(Some)].boxed()
    } else {
        prop_oneof![Just(None), (1i8..=8).prop_map(Some)].boxed()
    };
    let tokens = if live {
        Just((None, None)).boxed()
    } else {
        (
            proptest::option::of(1u8..=15),
            proptest::option::of(1u8..=7),
        )
            .boxed()
    };
    (
        any::<Index>(),
        2u8..=6,
        hand,
        tokens,
        any::<(bool, bool, bool)>(),
        any::<u64>(),
        0usize..90,
    )
        .prop_map(
            move |(variant, players, hand, (clues, strikes), flags, seed, steps)| GameSpec {
                variant,
                players,
                hand_size: hand.map(|h| {
                    if live {
                        (default_hand_size(players) as i8 + h) as u8
                    } else {
                        h as u8
                    }
                }),
                clues,
                strikes,
                flags,
                seed,
                steps,
            },
        )
}

/// Plays `spec.steps` random legal actions (fewer if the game ends; with `keep_playing`, the
/// game is left before the action that would end it). Returns the rules, the deck, the deal,
/// the state reached and the line.
fn play(
    spec: &GameSpec,
    live: bool,
    keep_playing: bool,
) -> (Rules, Vec<Card>, Deal, State, Vec<Action>) {
    let vs = if live { known_variants() } else { variants() };
    let variant = vs[spec.variant.index(vs.len())].clone();
    let options = Options {
        hand_size: spec.hand_size,
        clues: spec.clues,
        strikes: spec.strikes,
        empty_clues: spec.flags.0,
        deck_plays: spec.flags.1,
        endless: spec.flags.2,
    };
    let rules = Rules::new(variant.clone(), spec.players, &options)
        .or_else(|_| Rules::new(variant, spec.players, &Options::default()))
        .or_else(|_| Rules::new(Variant::no_variant(), spec.players, &Options::default()))
        .unwrap();
    let deck = shuffled_deck(&format!("fuzz{}", spec.seed), &rules.variant);
    let (deal, mut state) = Deal::from_deck(rules.clone(), &deck).unwrap();
    let mut rng = SplitMix64(spec.seed);
    let mut line = Vec::new();
    for _ in 0..spec.steps {
        if state.is_over() {
            break;
        }
        let actions = state.legal_actions(&deal);
        let a = actions[rng.below(actions.len())];
        let next = state.apply(&deal, a).unwrap();
        if keep_playing && next.is_over() {
            break;
        }
        state = next;
        line.push(a);
    }
    (rules, deck, deal, state, line)
}

// ---------------------------------------------------------------------------------------------
// Position files.

/// The committed position files.
fn position_files() -> &'static [String] {
    static F: OnceLock<Vec<String>> = OnceLock::new();
    F.get_or_init(|| {
        let mut f = files("positions", ".hanabi");
        f.extend(files("positions/hidden", ".hanabi"));
        f.extend(files("positions/team", ".hanabi"));
        f.extend(files("tests/data", ".hanabi"));
        assert!(f.len() > 20);
        f
    })
}

/// A position of a random game, written as a file, some of its cards hidden: none, the whole
/// pile, or any (`mode` 0, 1, 2).
fn generated_position() -> impl Strategy<Value = String> {
    (game_spec(false), 0..3u8, any::<u64>()).prop_map(|(spec, mode, bits)| {
        let (_, _, deal, state, _) = play(&spec, false, true);
        let names = hanablive::default_names(deal.rules.players);
        let mut file = PositionFile::from_state(&deal, &state, &names);
        let mut rng = SplitMix64(bits);
        let v = deal.rules.variant.clone();
        for c in file.hands.iter_mut().flatten().chain(file.deck.iter_mut()) {
            let hide = match mode {
                0 => false,
                1 => false,
                _ => rng.below(3) == 0,
            };
            if hide {
                *c = None;
            }
        }
        // Some hidden hand cards say what their holder knows: the suit or rank of the card
        // dealt there, or a list holding it.
        if mode == 2 {
            for (seat, hand) in file.hands.iter().enumerate() {
                for (slot, c) in hand.iter().enumerate() {
                    if c.is_some() {
                        continue;
                    }
                    let real = state.hand(seat)[slot];
                    let kinds = v.kinds();
                    let hint = match rng.below(4) {
                        0 => kinds,
                        1 => (0..64)
                            .filter(|&k| Card::from_kind(k).suit() == real.suit())
                            .fold(0, |m, k| m | 1u64 << k),
                        2 => (0..64)
                            .filter(|&k| Card::from_kind(k).rank() == real.rank())
                            .fold(0, |m, k| m | 1u64 << k),
                        _ => real.kind_bit() | (rng.next_u64() & kinds),
                    };
                    file.hints[seat][slot] = position::text::normal_hint(&v, hint);
                }
            }
        }
        if mode == 1 {
            file.deck.iter_mut().for_each(|c| *c = None);
        }
        position::to_text(&file)
    })
}

/// Tokens for position files: numbers, cards, names, flags, keys, junk.
fn position_token() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => number_text(),
        2 => card_text(),
        2 => select(
            &[
                "?", "??", "true", "false", "yes", "no", "TRUE", "Alice", "Bob", "Cathy", "Donald",
                "Emily", "Frank", "alice", "hand", ":", "#", "r0", "r6", "k5", "m1", "w5", "t1",
                "seat0", "Alice:", "hand Alice:", "no-variant", "black", "rainbow", "r?", "m?",
                "?1", "?5", "?9", "x?", "?{r1,y2}", "?{r1 k5}", "?{}", "?{r1", "?{?}", "copies:",
            ][..]
        )
        .prop_map(str::to_string),
        1 => text(6),
    ]
}

/// Tokens that read: small numbers, cards of the usual suits, `?`, names, flags; a file
/// changed by them often still reads and fails only on what it means.
fn plausible_token() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u8..=9).prop_map(|n| n.to_string()),
        ("[rygbptkm]", 0u8..=6).prop_map(|(l, r)| format!("{l}{r}")),
        select(&["?", "true", "false", "Alice", "Bob", "Cathy", "r?", "?2", "?{r1,y1}"][..])
            .prop_map(str::to_string),
    ]
}

const POSITION_KEYS: &[&str] = &[
    "variant",
    "suits",
    "ranks",
    "copies",
    "players",
    "hand-size",
    "clues",
    "max-clues",
    "strikes",
    "max-strikes",
    "stacks",
    "discards",
    "hand Alice",
    "hand Bob",
    "hand Cathy",
    "hand",
    "hand Alice Bob",
    "deck",
    "turn",
    "final-turns",
    "endless",
    "empty-clues",
    "deck-plays",
    "Variant",
    "",
];

/// A file of `key: value` lines from the real keys, values made of tokens.
fn structured_position() -> impl Strategy<Value = String> {
    let line = (
        prop_oneof![4 => select(POSITION_KEYS).prop_map(str::to_string), 1 => text(8)],
        select(&[": ", ":", " : ", "::", " ", ":\t"][..]),
        vec(position_token(), 0..10),
        select(&["", "", "", " # comment", "#", " #:"][..]),
    )
        .prop_map(|(k, sep, values, comment)| format!("{k}{sep}{}{comment}", values.join(" ")));
    vec(line, 0..20).prop_map(|lines| lines.join("\n"))
}

/// An edit of a file by lines.
#[derive(Clone, Debug)]
enum LineEdit {
    Drop(Index),
    Duplicate(Index),
    Swap(Index, Index),
    Replace(Index, String),
    /// Replaces one space-separated token of a line.
    Token(Index, Index, String),
    /// Removes one space-separated token of a line.
    DropToken(Index, Index),
    /// Repeats one space-separated token of a line.
    DuplicateToken(Index, Index),
    /// Edits one line by characters.
    Chars(Index, Edit),
    /// A UTF-8 byte order mark in front.
    Bom,
    /// Windows line ends.
    CrLf,
    /// Old Mac line ends: every line break a lone CR.
    Cr,
}

fn line_edit() -> impl Strategy<Value = LineEdit> {
    prop_oneof![
        2 => any::<Index>().prop_map(LineEdit::Drop),
        2 => any::<Index>().prop_map(LineEdit::Duplicate),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| LineEdit::Swap(a, b)),
        1 => (any::<Index>(), text(30)).prop_map(|(a, s)| LineEdit::Replace(a, s)),
        6 => (any::<Index>(), any::<Index>(), position_token())
            .prop_map(|(a, b, s)| LineEdit::Token(a, b, s)),
        4 => (any::<Index>(), any::<Index>(), plausible_token())
            .prop_map(|(a, b, s)| LineEdit::Token(a, b, s)),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| LineEdit::DropToken(a, b)),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| LineEdit::DuplicateToken(a, b)),
        3 => (any::<Index>(), edit()).prop_map(|(a, e)| LineEdit::Chars(a, e)),
        1 => Just(LineEdit::Bom),
        1 => Just(LineEdit::CrLf),
        1 => Just(LineEdit::Cr),
    ]
}

fn apply_line_edits(text: &str, edits: &[LineEdit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (mut bom, mut end) = (false, "\n");
    for e in edits {
        let n = lines.len();
        match e {
            LineEdit::Bom => bom = true,
            LineEdit::CrLf => end = "\r\n",
            LineEdit::Cr => end = "\r",
            _ if n == 0 => {}
            LineEdit::Drop(i) => {
                lines.remove(i.index(n));
            }
            LineEdit::Duplicate(i) => {
                let l = lines[i.index(n)].clone();
                lines.insert(i.index(n), l);
            }
            LineEdit::Swap(a, b) => lines.swap(a.index(n), b.index(n)),
            LineEdit::Replace(i, s) => lines[i.index(n)] = s.clone(),
            LineEdit::Token(i, j, s) => {
                let line = &mut lines[i.index(n)];
                let mut tokens: Vec<String> = line.split(' ').map(str::to_string).collect();
                let k = j.index(tokens.len());
                tokens[k] = s.clone();
                *line = tokens.join(" ");
            }
            LineEdit::DropToken(i, j) | LineEdit::DuplicateToken(i, j) => {
                let line = &mut lines[i.index(n)];
                let mut tokens: Vec<&str> = line.split(' ').collect();
                let k = j.index(tokens.len());
                if matches!(e, LineEdit::DropToken(..)) {
                    tokens.remove(k);
                } else {
                    tokens.insert(k, tokens[k]);
                }
                *line = tokens.join(" ");
            }
            LineEdit::Chars(i, edit) => {
                let line = &mut lines[i.index(n)];
                *line = apply_edits(line, std::slice::from_ref(edit));
            }
        }
    }
    let mut out = if bom {
        "\u{feff}".to_string()
    } else {
        String::new()
    };
    for l in &lines {
        out += l;
        out += end;
    }
    out
}

fn position_text() -> impl Strategy<Value = String> {
    let base = prop_oneof![
        2 => any::<Index>().prop_map(|i| {
            let f = position_files();
            f[i.index(f.len())].clone()
        }),
        3 => generated_position(),
    ];
    prop_oneof![
        1 => text(200),
        2 => structured_position(),
        2 => base.clone(),
        8 => (base, vec(line_edit(), 1..4)).prop_map(|(t, edits)| apply_line_edits(&t, &edits)),
    ]
}

/// The file without its line numbers.
fn without_lines(mut file: PositionFile) -> PositionFile {
    file.lines = Lines::default();
    file
}

/// A position file: read (with faults of one line each), written back, checked, and every view
/// of it built and filled.
fn check_position_text(text: &str, seed: u64) {
    let read = position::read(text);
    let file = match position::parse(text) {
        Err(faults) => {
            check_faults(&faults, text);
            assert_eq!(read.as_ref().err(), Some(&faults));
            return;
        }
        Ok(file) => file,
    };
    let written = position::to_text(&file);
    let back = position::parse(&written).unwrap_or_else(|f| {
        panic!("{text:?} was read, but not when written back as {written:?}: {f}")
    });
    assert_eq!(
        without_lines(back),
        without_lines(file.clone()),
        "written back as {written:?}"
    );
    match Position::new(&file) {
        Err(faults) => {
            check_faults(&faults, text);
            assert_eq!(read.as_ref().err(), Some(&faults));
        }
        Ok(pos) => {
            assert_eq!(read.as_ref().ok(), Some(&pos));
            check_position(&pos, seed);
        }
    }
}

/// A checked position: opened or filled, solved a little, written back, and seen as `--view
/// cheat` and with a seat's hand hidden under clue hints.
fn check_position(pos: &Position, seed: u64) {
    let hidden = pos.hidden();
    let unseen = pos.unseen();
    assert_eq!(unseen.len(), hidden);
    let mut rng = SplitMix64(seed);
    if hidden == 0 {
        let (deal, state) = pos
            .open()
            .unwrap_or_else(|e| panic!("a position with every card known does not open: {e}"));
        check_playable(&deal, &state, &pos.names);
        let text = position::write(&deal, &state, &pos.names);
        let again = position::read(&text)
            .unwrap_or_else(|f| panic!("the position written as {text:?} does not read: {f}"));
        let (deal2, state2) = again.open().unwrap();
        assert_eq!(
            (&deal2.rules, &deal2.pile, state2),
            (&deal.rules, &deal.pile, state)
        );
    } else {
        one_line(&pos.open().unwrap_err().to_string(), pos);
        check_fillings(pos, &mut rng);
    }
    // `--view cheat`: the pile hidden.
    let mut cheat = pos.clone();
    cheat.hide_pile();
    assert_eq!(cheat.unseen().len(), cheat.hidden());
    check_fillings(&cheat, &mut rng);
    if rng.below(4) == 0 {
        check_exact(&cheat);
    }
    // A seat's view: its hand hidden too, each card narrowed by hints.
    let seat = rng.below(pos.hands.len());
    let mut view = cheat.clone();
    let masks: Vec<u64> = pos.hands[seat]
        .iter()
        .map(|c| hint(c.map(Card::kind), &pos.rules.variant, &mut rng))
        .collect();
    view.hide_hand(seat, &masks);
    assert_eq!(view.unseen().len(), view.hidden());
    // With hints, the filler counts the fillings of every hidden hand card, which takes time
    // exponential in their number: keep to 5, as many as a seat's own hand in the usual
    // hanab.live game (the command line hides only one seat's hand).
    let hidden_in_hands = view.hands.iter().flatten().filter(|c| c.is_none()).count();
    if hidden_in_hands <= 5 {
        check_fillings(&view, &mut rng);
        if rng.below(8) == 0 {
            check_samples(&view, rng.next_u64());
        }
    }
}

/// A clue hint for a card of kind `kind` (if known): every kind, a colour's or a rank's kinds
/// (or all others), or any mask at all.
fn hint(kind: Option<usize>, v: &Variant, rng: &mut SplitMix64) -> u64 {
    let suits = v.suits.len();
    let mask = |f: &dyn Fn(usize, usize) -> bool| -> u64 {
        (0..suits * 5)
            .filter(|&k| f(k / 5, k % 5 + 1))
            .fold(0, |m, k| m | 1 << k)
    };
    match rng.below(6) {
        0 | 1 => ALL_KINDS,
        2 => {
            let s = kind.map_or(rng.below(suits), |k| k / 5);
            // The suit's own colour; a rainbow suit (last, no colour of its own) takes the
            // last colour, which touches it too.
            let colours = v.colour_clues();
            let Some(last) = colours.len().checked_sub(1) else {
                return ALL_KINDS;
            };
            let touches = colours[s.min(last)].touches;
            mask(&|suit, rank| touches & Card::new(suit as u8, rank as u8).kind_bit() != 0)
        }
        3 => {
            let r = kind.map_or(rng.below(5) + 1, |k| k % 5 + 1);
            mask(&|_, rank| rank == r)
        }
        4 => {
            let r = rng.below(5) + 1;
            mask(&|_, rank| rank != r)
        }
        _ => u64::from(rng.next_u64() as u32),
    }
}

/// The `?` of a position filled: by the unseen cards in any order, by the hints' filler, and by
/// wrong cards (an error of one line).
fn check_fillings(pos: &Position, rng: &mut SplitMix64) {
    let unseen = pos.unseen();
    if !pos.has_hints() {
        let mut cards = unseen.clone();
        rng.shuffle(&mut cards);
        let (deal, state) = pos
            .fill(&cards)
            .unwrap_or_else(|e| panic!("filling with the unseen cards failed: {e}"));
        if rng.below(4) == 0 {
            check_playable(&deal, &state, &pos.names);
        }
        let actions = root_actions(pos).unwrap_or_else(|e| panic!("root actions: {e}"));
        assert_eq!(actions.as_slice(), state.legal_actions(&deal).as_slice());
    }
    if !unseen.is_empty() {
        one_line(&pos.fill(&unseen[1..]).unwrap_err().to_string(), pos);
    }
    let mut extra = unseen.clone();
    extra.push(unseen.first().copied().unwrap_or(Card::new(0, 1)));
    one_line(&pos.fill(&extra).unwrap_err().to_string(), pos);
    match Filler::new(pos) {
        Err(e) => {
            assert!(pos.has_hints(), "no filling without hints: {e}");
            one_line(&e.to_string(), pos);
        }
        Ok(filler) => {
            let cards = filler.fill(rng);
            let (_, state) = pos
                .fill(&cards)
                .unwrap_or_else(|e| panic!("the filler's cards do not fill: {e}"));
            for (seat, hand) in pos.hands.iter().enumerate() {
                for (slot, c) in hand.iter().enumerate() {
                    let real = state.hand(seat)[slot];
                    match c {
                        Some(c) => assert_eq!(*c, real),
                        None => assert!(
                            pos.hints[seat][slot] & 1 << real.kind() != 0,
                            "the filler broke a hint"
                        ),
                    }
                }
            }
        }
    }
}

/// `--samples 2` with a tiny node limit: an estimate that holds together, or an error of one
/// line.
fn check_samples(pos: &Position, seed: u64) {
    let config = SolveConfig {
        threads: 1,
        tt_mb: 1,
        max_nodes: Some(100),
        ..SolveConfig::default()
    };
    match hidden::sample(pos, 2, seed, &config) {
        Err(e) => one_line(&e.to_string(), pos),
        Ok(estimate) => {
            assert_eq!(estimate.hidden, pos.hidden());
            assert!(!estimate.moves.is_empty());
            for m in &estimate.moves {
                assert!((0.0..=1.0).contains(&m.win_probability), "{m:?}");
                assert!(m.expected_score <= estimate.perfect_score as f64, "{m:?}");
                assert_eq!(m.score_counts.iter().sum::<u64>(), 2);
                one_line(&m.name, pos);
            }
        }
    }
}

/// `--exact` on a hidden pile, with few orders and a short time limit: a result or an error of
/// one line.
fn check_exact(pos: &Position) {
    let config = ExactConfig {
        threads: 1,
        tt_mb: 1,
        time_limit: Some(std::time::Duration::from_millis(20)),
        max_orders: 24,
    };
    match hidden::exact(pos, &config) {
        Err(e) => one_line(&e.to_string(), pos),
        Ok(r) => {
            assert_eq!(r.hidden, pos.hidden());
            for m in &r.moves {
                let p = m.win_probability.to_f64();
                assert!((0.0..=1.0).contains(&p), "{m:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// Position files: arbitrary text, lines of the real keys, and the committed and generated
    /// files mutated line by line.
    #[test]
    fn position_files_fuzz(text in position_text(), seed in any::<u64>()) {
        check_position_text(&text, seed);
    }
}

// ---------------------------------------------------------------------------------------------
// hanab.live game exports.

/// The committed exports.
fn export_files() -> &'static [Value] {
    static F: OnceLock<Vec<Value>> = OnceLock::new();
    F.get_or_init(|| {
        files("tests/data/hanablive", ".json")
            .iter()
            .map(|t| serde_json::from_str(t).unwrap())
            .collect()
    })
}

/// The export of a random legal game of any hanab.live variant and options.
fn generated_export() -> impl Strategy<Value = Value> {
    game_spec(true).prop_map(|spec| {
        let (rules, deck, _, _, line) = play(&spec, true, false);
        let names = hanablive::default_names(rules.players);
        let game = hanablive::export_line(&deck, &rules, &names, &line)
            .unwrap_or_else(|e| panic!("a legal line does not export: {e} ({spec:?})"));
        serde_json::to_value(&game).unwrap()
    })
}

/// One step of a JSON path.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    At(usize),
}

fn json_paths(v: &Value) -> Vec<Vec<Seg>> {
    fn walk(v: &Value, path: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
        out.push(path.clone());
        match v {
            Value::Object(m) => {
                for (k, c) in m {
                    path.push(Seg::Key(k.clone()));
                    walk(c, path, out);
                    path.pop();
                }
            }
            Value::Array(a) => {
                for (i, c) in a.iter().enumerate() {
                    path.push(Seg::At(i));
                    walk(c, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

fn node_mut<'a>(v: &'a mut Value, path: &[Seg]) -> &'a mut Value {
    path.iter().fold(v, |v, s| match s {
        Seg::Key(k) => v.get_mut(k.as_str()).unwrap(),
        Seg::At(i) => v.get_mut(*i).unwrap(),
    })
}

/// An edit of a JSON document, at a node picked among all of them.
#[derive(Clone, Debug)]
enum JsonEdit {
    Set(Index, Value),
    Remove(Index),
    Insert(Index, Index, String, Value),
    Truncate(Index, Index),
    Duplicate(Index, Index),
    Swap(Index, Index, Index),
    /// Adds a small number to a number.
    Nudge(Index, i64),
    /// Sets a top-level field.
    Root(String, Value),
    /// Sets an option (making `options` an object first).
    Option(String, Value),
}

/// Any text of up to `max` characters without a line break (see [`is_line_break`]).
fn line_text(max: usize) -> impl Strategy<Value = String> {
    text(max).prop_map(|t| t.replace(is_line_break, " "))
}

const OPTION_KEYS: &[&str] = &[
    "variant",
    "deckPlays",
    "emptyClues",
    "oneExtraCard",
    "oneLessCard",
    "allOrNothing",
    "startingPlayer",
    "cardCycle",
    "detrimentalCharacters",
    "speedrun",
    "timed",
    "timeBase",
    "numPlayers",
    "foo",
];

/// Values to put into a game export: numbers at every limit, strings that name variants, every
/// JSON type, and pieces of a real export. Strings hold no line break: those are the business
/// of [`game_export_strings`].
fn json_value() -> impl Strategy<Value = Value> {
    let numbers = select(
        &[
            0.0,
            -0.0,
            1.0,
            2.0,
            5.0,
            6.0,
            7.0,
            -1.0,
            0.5,
            255.0,
            256.0,
            65536.0,
            4294967295.0,
            4294967296.0,
            9007199254740993.0,
            1e19,
            1e30,
            -1e30,
            1e308,
        ][..],
    )
    .prop_map(|x: f64| json!(x));
    let integers = prop_oneof![
        select(
            &[
                0i64,
                1,
                2,
                3,
                4,
                5,
                6,
                7,
                8,
                10,
                59,
                60,
                -1,
                -2,
                i64::MIN,
                i64::MAX
            ][..]
        )
        .prop_map(|n| json!(n)),
        Just(json!(u64::MAX)),
        any::<i64>().prop_map(|n| json!(n)),
        (-3i64..70).prop_map(|n| json!(n)),
    ];
    let strings = prop_oneof![
        select(
            &[
                "",
                "x",
                "No Variant",
                "Black (6 Suits)",
                "Rainbow (6 Suits)",
                "6 Suits",
                "3 Suits",
                "black",
                "0",
                "2",
                "Alice",
                "é",
                "\u{feff}",
            ][..]
        )
        .prop_map(|s| json!(s)),
        line_text(10).prop_map(Value::String),
    ];
    let scalar = prop_oneof![
        numbers.clone(),
        integers.clone(),
        strings.clone(),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
    ];
    prop_oneof![
        2 => numbers,
        4 => integers,
        2 => strings,
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(Value::Null),
        1 => Just(json!([])),
        1 => Just(json!({})),
        1 => Just(json!({"suitIndex": 0, "rank": 1})),
        1 => Just(json!({"type": 0, "target": 0})),
        1 => Just(json!({"type": 3, "target": 1, "value": 1})),
        2 => vec((select(OPTION_KEYS), scalar), 0..4)
            .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
    ]
}

fn json_key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(
            &[
                "options", "id", "seed", "players", "deck", "actions", "variant", "suitIndex",
                "rank", "type", "target", "value", "emptyClues", "deckPlays", "oneExtraCard",
                "oneLessCard", "allOrNothing", "startingPlayer", "cardCycle", "timed", "notes",
            ][..]
        )
        .prop_map(str::to_string),
        1 => line_text(6),
    ]
}

fn json_edit() -> impl Strategy<Value = JsonEdit> {
    prop_oneof![
        4 => (any::<Index>(), json_value()).prop_map(|(i, v)| JsonEdit::Set(i, v)),
        2 => any::<Index>().prop_map(JsonEdit::Remove),
        2 => (any::<Index>(), any::<Index>(), json_key(), json_value())
            .prop_map(|(i, j, k, v)| JsonEdit::Insert(i, j, k, v)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(i, j)| JsonEdit::Truncate(i, j)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(i, j)| JsonEdit::Duplicate(i, j)),
        1 => (any::<Index>(), any::<Index>(), any::<Index>())
            .prop_map(|(i, j, k)| JsonEdit::Swap(i, j, k)),
        4 => (any::<Index>(), -2i64..=2).prop_map(|(i, d)| JsonEdit::Nudge(i, d)),
        1 => (json_key(), json_value()).prop_map(|(k, v)| JsonEdit::Root(k, v)),
        2 => (select(OPTION_KEYS), json_value())
            .prop_map(|(k, v)| JsonEdit::Option(k.to_string(), v)),
    ]
}

fn apply_json_edit(v: &mut Value, e: &JsonEdit) {
    let paths = json_paths(v);
    let pick = |i: &Index| &paths[i.index(paths.len())];
    match e {
        JsonEdit::Set(i, new) => *node_mut(v, pick(i)) = new.clone(),
        JsonEdit::Remove(i) => {
            if let Some((last, parent)) = pick(i).split_last() {
                match (node_mut(v, parent), last) {
                    (Value::Object(m), Seg::Key(k)) => {
                        m.remove(k);
                    }
                    (Value::Array(a), Seg::At(j)) => {
                        a.remove(*j);
                    }
                    _ => {}
                }
            }
        }
        JsonEdit::Insert(i, j, key, new) => match node_mut(v, pick(i)) {
            Value::Object(m) => {
                m.insert(key.clone(), new.clone());
            }
            Value::Array(a) => {
                let at = j.index(a.len() + 1);
                a.insert(at, new.clone());
            }
            _ => {}
        },
        JsonEdit::Truncate(i, j) => match node_mut(v, pick(i)) {
            Value::Array(a) => a.truncate(j.index(a.len() + 1)),
            Value::String(s) => {
                let n = j.index(s.chars().count() + 1);
                *s = s.chars().take(n).collect();
            }
            _ => {}
        },
        JsonEdit::Duplicate(i, j) => {
            if let Value::Array(a) = node_mut(v, pick(i)) {
                if !a.is_empty() {
                    let k = j.index(a.len());
                    a.insert(k, a[k].clone());
                }
            }
        }
        JsonEdit::Swap(i, j, k) => {
            if let Value::Array(a) = node_mut(v, pick(i)) {
                if !a.is_empty() {
                    let n = a.len();
                    a.swap(j.index(n), k.index(n));
                }
            }
        }
        JsonEdit::Nudge(i, d) => {
            let node = node_mut(v, pick(i));
            if let Some(x) = node.as_i64() {
                *node = json!(x.saturating_add(*d));
            }
        }
        JsonEdit::Root(key, new) => {
            if let Value::Object(m) = v {
                m.insert(key.clone(), new.clone());
            }
        }
        JsonEdit::Option(key, new) => {
            if let Value::Object(m) = v {
                let options = m.entry("options").or_insert_with(|| json!({}));
                if !options.is_object() {
                    *options = json!({});
                }
                options[key.as_str()] = new.clone();
            }
        }
    }
}

const JSON_SOUP: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"players\"",
    "\"deck\"",
    "\"actions\"",
    "\"options\"",
    "\"suitIndex\"",
    "\"rank\"",
    "\"type\"",
    "\"target\"",
    "\"value\"",
    "\"variant\"",
    "0",
    "1",
    "-1",
    "1e999",
    "18446744073709551616",
    "\"x\"",
    "null",
    "true",
    "\"\\u0000\"",
    "\"\\ud800\"",
    " ",
    "\n",
];

/// A committed or generated export.
fn base_export() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => any::<Index>().prop_map(|i| export_files()[i.index(export_files().len())].clone()),
        2 => generated_export(),
    ]
}

fn export_text() -> impl Strategy<Value = String> {
    let mutated = (base_export(), vec(json_edit(), 0..5))
        .prop_map(|(mut v, edits)| {
            for e in &edits {
                apply_json_edit(&mut v, e);
            }
            v
        })
        .boxed();
    prop_oneof![
        1 => vec(any::<u8>(), 0..300).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => vec(select(JSON_SOUP), 0..60).prop_map(|t| t.concat()),
        10 => mutated.clone().prop_map(|v| serde_json::to_string(&v).unwrap()),
        2 => (mutated, vec(edit(), 1..3), any::<bool>()).prop_map(|(v, edits, bom)| {
            let text = apply_edits(&serde_json::to_string_pretty(&v).unwrap(), &edits);
            if bom { format!("\u{feff}{text}") } else { text }
        }),
    ]
}

/// A game export: read, written back, replayed whole and to every turn, and at some turns
/// turned into the position `solve GAME.json --turn N` solves, seen by every seat.
fn check_export_text(text: &str, seed: u64) {
    match hanablive::read(text) {
        Err(e) => one_line(&e.to_string(), &text),
        Ok(game) => check_game(&game, seed),
    }
}

fn check_game(game: &GameExport, seed: u64) {
    let json = hanablive::to_json(game);
    // The input as failures show it: the export on one line.
    let game_text = serde_json::to_string(game).unwrap();
    let back = hanablive::read(&json)
        .unwrap_or_else(|e| panic!("the export written as {json} does not read back: {e}"));
    assert_eq!(&back, game, "written back as {json}");
    let n = game.actions.len();
    let full = hanablive::replay(game);
    // Actions before this index replay; `None` when the game does not even start.
    let legal_prefix = match &full {
        Ok(r) => {
            assert_eq!((r.turns.len(), r.states.len()), (n, n + 1));
            let perfect = r.deal.rules.perfect_score();
            assert!(r.score <= r.fireworks && r.fireworks <= perfect);
            one_line(&r.end_reason, &game_text);
            Some(n)
        }
        Err(e) => {
            one_line(&e.to_string(), &game_text);
            match e {
                Error::Illegal { index, .. } => Some(*index),
                _ => None,
            }
        }
    };
    let mut rng = SplitMix64(seed);
    for i in 0..=n + 1 {
        match hanablive::replay_to(game, i) {
            Err(e) => {
                one_line(&e.to_string(), &game_text);
                assert!(
                    legal_prefix.is_none_or(|p| i > p),
                    "replay_to({i}) fails ({e}) but replay reached action {legal_prefix:?}"
                );
            }
            Ok(t) => {
                assert!(
                    legal_prefix.is_some_and(|p| i <= p),
                    "replay_to({i}) succeeds but replay stopped before {legal_prefix:?}"
                );
                if let Ok(r) = &full {
                    assert_eq!(t.state(), &r.states[i]);
                }
                if i == 0 || i == n || rng.below(8) == 0 {
                    check_turn(game, &game_text, i, &t, &mut rng);
                }
            }
        }
    }
}

/// The game at action `i`: what each seat knows from clues, the position as a file, and every
/// legal action exported back to hanab.live.
fn check_turn(game: &GameExport, game_text: &str, i: usize, t: &Tracker, rng: &mut SplitMix64) {
    let players = t.deal().rules.players as usize;
    let mut knowledge = Vec::new();
    for seat in 0..=players {
        match hanablive::clue_knowledge(game, i, seat) {
            Err(e) => {
                one_line(&e.to_string(), &game_text);
                assert_eq!(seat, players, "clue_knowledge({i}, {seat}) fails: {e}");
            }
            Ok(masks) => {
                assert!(
                    seat < players,
                    "clue_knowledge for seat {seat} of {players}"
                );
                let hand = t.state().hand(seat);
                assert_eq!(masks.len(), hand.len());
                for (c, m) in hand.iter().zip(&masks) {
                    assert!(
                        m & 1 << c.kind() != 0,
                        "the clues rule out the real card {c:?}"
                    );
                }
                knowledge.push(masks);
            }
        }
    }
    if t.is_over() {
        return;
    }
    let file = PositionFile::from_state(t.deal(), t.state(), t.names());
    let pos = Position::new(&file)
        .unwrap_or_else(|f| panic!("the position at action {i} of a game in play is refused: {f}"));
    let text = position::to_text(&file);
    let again = position::read(&text).unwrap_or_else(|f| {
        panic!("the position at action {i}, written as {text:?}, does not read: {f}")
    });
    assert_eq!(again.open().unwrap().1, pos.open().unwrap().1);
    // `--view seat=K`: the pile and K's hand hidden, narrowed by what K was told.
    let seat = rng.below(players);
    let mut view = pos.clone();
    view.hide_pile();
    view.hide_hand(seat, &knowledge[seat]);
    if view.hands[seat].len() <= 5 {
        let filler =
            Filler::new(&view).unwrap_or_else(|e| panic!("the real cards fit the clues, yet: {e}"));
        view.fill(&filler.fill(rng))
            .unwrap_or_else(|e| panic!("the filler's cards do not fill: {e}"));
    }
    // Every legal action, exported and replayed.
    for a in t.state().legal_actions(t.deal()) {
        let exported = t
            .to_export(a)
            .unwrap_or_else(|e| panic!("legal action {a:?} does not export: {e}"));
        let mut next = t.clone();
        next.step(&exported)
            .unwrap_or_else(|e| panic!("exported action {exported:?} is refused: {e}"));
    }
}

proptest! {
    #![proptest_config(config())]

    /// Game exports: arbitrary bytes, JSON token soup, and the committed and generated exports
    /// with values changed (huge, negative, out of range, the wrong type), fields removed or
    /// added, arrays cut, and the text cut short or given a byte order mark.
    #[test]
    fn game_exports(text in export_text(), seed in any::<u64>()) {
        check_export_text(&text, seed);
    }

    /// Game exports whose player names, option keys, variant name or seed are any text, line
    /// breaks and control characters included, with a few other edits to make actions illegal:
    /// every message that quotes them must still be one line.
    #[test]
    fn game_export_strings(
        base in base_export(),
        strings in vec(string_edit(), 1..3),
        edits in vec(json_edit(), 0..3),
        seed in any::<u64>(),
    ) {
        let mut v = base;
        for e in &strings {
            apply_string_edit(&mut v, e);
        }
        for e in &edits {
            apply_json_edit(&mut v, e);
        }
        check_export_text(&serde_json::to_string(&v).unwrap(), seed);
    }
}

/// A string of an export replaced by any text, line breaks included.
#[derive(Clone, Debug)]
enum StringEdit {
    Player(Index, String),
    OptionKey(String),
    Variant(String),
    Seed(String),
}

fn string_edit() -> impl Strategy<Value = StringEdit> {
    prop_oneof![
        3 => (any::<Index>(), text(8)).prop_map(|(i, s)| StringEdit::Player(i, s)),
        1 => text(8).prop_map(StringEdit::OptionKey),
        1 => text(12).prop_map(StringEdit::Variant),
        1 => text(8).prop_map(StringEdit::Seed),
    ]
}

fn apply_string_edit(v: &mut Value, e: &StringEdit) {
    match e {
        StringEdit::Player(i, s) => {
            if let Some(Value::Array(players)) = v.get_mut("players") {
                if !players.is_empty() {
                    let n = players.len();
                    players[i.index(n)] = json!(s);
                }
            }
        }
        StringEdit::OptionKey(k) => apply_json_edit(v, &JsonEdit::Option(k.clone(), json!(true))),
        StringEdit::Variant(s) => apply_json_edit(v, &JsonEdit::Option("variant".into(), json!(s))),
        StringEdit::Seed(s) => apply_json_edit(v, &JsonEdit::Root("seed".into(), json!(s))),
    }
}

// ---------------------------------------------------------------------------------------------
// Bench sets.

fn bench_files() -> &'static [String] {
    static F: OnceLock<Vec<String>> = OnceLock::new();
    F.get_or_init(|| files("positions/bench", ".txt"))
}

/// A bench-set line: a seed name, or `LABEL PLAYERS VARIANT [CARDS...]`.
fn bench_line() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => seed_name(),
        2 => (
            prop_oneof![seed_name(), text(6)],
            number_text(),
            variant_text(),
            vec(card_text(), 0..4),
        )
            .prop_map(|(l, p, v, cards)| format!("{l} {p} {v} {}", cards.join(" "))),
        1 => (game_spec(false), vec(token_edit(), 0..3)).prop_map(|(spec, edits)| {
            let (rules, deck, ..) = play(&spec, false, true);
            let v = &rules.variant;
            let name = v.alias().map_or_else(|| v.name.clone(), str::to_string);
            let mut tokens: Vec<String> = deck.iter().map(|&c| v.card_name(c)).collect();
            apply_token_edits(&mut tokens, &edits);
            format!("deal{} {} {name} {}", spec.seed, rules.players, tokens.join(" "))
        }),
        1 => select(&["# tags: slow", "# tags: fast", "# description", "#", "", "   "][..])
            .prop_map(str::to_string),
    ]
}

fn bench_text() -> impl Strategy<Value = String> {
    let real = any::<Index>().prop_map(|i| bench_files()[i.index(bench_files().len())].clone());
    prop_oneof![
        1 => text(200),
        2 => vec(bench_line(), 0..6).prop_map(|l| l.join("\n")),
        3 => (real, vec(line_edit(), 1..4)).prop_map(|(t, edits)| apply_line_edits(&t, &edits)),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// Bench sets (`bench --dir`): arbitrary text, lines of seeds and decks, and the committed
    /// sets mutated line by line.
    #[test]
    fn bench_sets(text in bench_text()) {
        match benchset::parse_set("fuzz", "fuzz.txt", &text) {
            Err(e) => one_line(&e.to_string(), &text),
            Ok(set) => {
                assert!(!set.deals.is_empty());
                for d in &set.deals {
                    let (deal, _) = d.deal();
                    assert_eq!(deal.rules, d.rules);
                    assert_eq!(sorted(d.deck.clone()), sorted(d.rules.variant.deck()));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The committed inputs, unchanged: every one must be accepted.

#[test]
fn committed_inputs_are_accepted() {
    for text in position_files() {
        let pos = position::read(text).unwrap_or_else(|f| panic!("{f}: {text}"));
        check_position(&pos, 1);
    }
    for v in export_files() {
        let game: GameExport = serde_json::from_value(v.clone()).unwrap();
        hanablive::replay(&game).unwrap();
        check_game(&game, 1);
    }
    for text in bench_files() {
        benchset::parse_set("x", "x.txt", text).unwrap();
    }
}
