//! The `.hanabi` text format: one `key: value` per line, `#` starts a comment, blank lines are
//! ignored, keys may come in any order.
//!
//! ```text
//! variant: no-variant        # or: suits: 3 and ranks: 3 for a research deck
//!                            # (and copies: 3 2 1, the copies of each rank)
//! players: Alice Bob         # names in seat order, or a count (Alice, Bob, Cathy, ...)
//! hand-size: 2               # optional; default from the player count
//! clues: 1                   # tokens available now (3.5 in Clue Starved); max-clues: 8 optional
//! # last-clue: colour         # Alternating Clues only: the type of the last clue (or rank)
//! strikes: 0                 # taken so far; max-strikes: 3 optional
//! stacks: r2 y0 g1 b0 p0     # height of every suit's firework
//! discards: r1 y1            # cards discarded or misplayed so far (may be empty)
//! hand Alice: r3 ? y1        # oldest card first; ? = a card its holder does not know
//!                            # (r? its suit known, ?1 its rank, ?{r1,r3} one of these)
//! hand Bob: g2 b4
//! deck: ? ? ? r1             # the draw pile, top first (may be empty)
//! turn: Alice
//! final-turns: 2             # only when the deck is empty: turns left in the final round
//! endless: true              # optional, as are empty-clues: true and deck-plays: true
//! ```
//!
//! [`parse`] checks the syntax (every fault names its line and the token); the meaning is
//! checked by [`super::Position::new`].

use std::collections::HashMap;

use super::{fault, Faults, Lines, PositionFile, ALL_KINDS};
use crate::error::Error;
use crate::game::card::{Card, KindSet, KINDS, MAX_RANK};
use crate::game::play::Stack;
use crate::game::rules::{default_hand_size, DEFAULT_NAMES, MAX_PLAYERS};
use crate::game::tokens::TokenRules;
use crate::game::variant::{Variant, MAX_COPIES};

/// Every key a file may hold (`hand NAME` stands for one per player).
pub const KEYS: &[&str] = &[
    "variant",
    "suits",
    "ranks",
    "copies",
    "players",
    "hand-size",
    "clues",
    "max-clues",
    "last-clue",
    "strikes",
    "max-strikes",
    "stacks",
    "discards",
    "hand NAME",
    "deck",
    "turn",
    "final-turns",
    "endless",
    "empty-clues",
    "deck-plays",
];

struct Entry {
    line: usize,
    value: String,
}

struct Parser {
    entries: HashMap<String, Entry>,
    /// `hand NAME` entries in file order: (name, line, value).
    hands: Vec<(String, usize, String)>,
    faults: Vec<Error>,
    last: usize,
}

impl Parser {
    fn take(&mut self, key: &str) -> Option<Entry> {
        self.entries.remove(key)
    }

    fn number(&mut self, key: &str) -> Option<(u8, usize)> {
        let e = self.take(key)?;
        match e.value.parse::<u8>() {
            Ok(n) => Some((n, e.line)),
            Err(_) => {
                self.faults.push(fault(
                    e.line,
                    format!("{key}: `{}` is not a whole number from 0 to 255", e.value),
                ));
                None
            }
        }
    }

    fn flag(&mut self, key: &str) -> (bool, usize) {
        let Some(e) = self.take(key) else {
            return (false, 0);
        };
        match e.value.to_ascii_lowercase().as_str() {
            "true" | "yes" => (true, e.line),
            "false" | "no" => (false, e.line),
            _ => {
                self.faults.push(fault(
                    e.line,
                    format!("{key}: `{}` is not true or false", e.value),
                ));
                (false, e.line)
            }
        }
    }

    /// The entry of a key every file must have, or a fault naming it with `example`.
    fn required(&mut self, key: &str, example: &str) -> Option<Entry> {
        let entry = self.take(key);
        if entry.is_none() {
            self.missing(key, example);
        }
        entry
    }

    fn missing(&mut self, key: &str, example: &str) {
        self.faults.push(fault(
            self.last,
            format!("missing required key `{key}:` (e.g. `{example}`)"),
        ));
    }

    /// Cards separated by spaces or commas; `?` is `None` when `unknown_ok`.
    fn cards(
        &mut self,
        variant: &Variant,
        key: &str,
        line: usize,
        value: &str,
        unknown_ok: bool,
    ) -> Option<Vec<Option<Card>>> {
        let mut out = Vec::new();
        let mut ok = true;
        for token in tokens(value) {
            if token == "?" {
                if unknown_ok {
                    out.push(None);
                } else {
                    self.faults.push(fault(
                        line,
                        format!("{key}: `?` is not allowed here; every {key} card is known"),
                    ));
                    ok = false;
                }
                continue;
            }
            if token.contains('?') {
                self.faults.push(fault(
                    line,
                    format!(
                        "{key}: `{token}`: only a hand card may say what its holder knows of it \
                         (`r?`, `?1`, `?{{r1,r3}}`); here a card is known or `?`"
                    ),
                ));
                ok = false;
                continue;
            }
            match variant.parse_card(token) {
                Ok(c) => out.push(Some(c)),
                Err(e) => {
                    self.faults.push(fault(line, format!("{key}: {e}")));
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    /// A hand's cards, each with what its holder knows of it ([`parse_hand_card`]).
    fn hand(
        &mut self,
        variant: &Variant,
        key: &str,
        line: usize,
        value: &str,
    ) -> Option<(Vec<Option<Card>>, Vec<KindSet>)> {
        let mut cards = Vec::new();
        let mut hints = Vec::new();
        let mut ok = true;
        for token in hand_tokens(value) {
            match parse_hand_card(variant, token) {
                Ok((card, hint)) => {
                    cards.push(card);
                    hints.push(hint);
                }
                Err(why) => {
                    self.faults.push(fault(line, format!("{key}: {why}")));
                    ok = false;
                }
            }
        }
        ok.then_some((cards, hints))
    }
}

fn tokens(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
}

/// The tokens of a hand: as [`tokens`], except that a `{...}` list is one token whatever
/// separates its cards (an unclosed list runs to the end of the line).
fn hand_tokens(value: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    let mut depth = 0usize;
    for (i, ch) in value.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let separator = depth == 0 && (ch.is_whitespace() || ch == ',');
        match (start, separator) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                out.push(&value[s..i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(&value[s..]);
    }
    out
}

/// The card kinds of suit `suit` in `variant`'s deck.
fn suit_kinds(variant: &Variant, suit: u8) -> KindSet {
    (0..KINDS)
        .filter(|&k| variant.copies_by_kind()[k] > 0 && Card::from_kind(k).suit() == suit)
        .fold(0, |set, k| set | 1 << k)
}

/// The card kinds of rank `rank` (1 to the top rank) in `variant`'s deck.
fn rank_kinds(variant: &Variant, rank: u8) -> KindSet {
    (0..KINDS)
        .filter(|&k| variant.copies_by_kind()[k] > 0 && Card::from_kind(k).rank() == rank)
        .fold(0, |set, k| set | 1 << k)
}

/// `hint` as a hint is stored: [`ALL_KINDS`] when it allows every kind of `variant`'s deck,
/// else the kinds of the deck it allows.
pub fn normal_hint(variant: &Variant, hint: KindSet) -> KindSet {
    let kinds = variant.kinds();
    if hint & kinds == kinds {
        ALL_KINDS
    } else {
        hint & kinds
    }
}

/// Reads one hand card of a position file: the card and the kinds its holder knows it may be
/// ([`ALL_KINDS`] unless narrowed; the card itself is `None` unless known to everyone).
///
/// - `r1`: a card known to everyone, its holder included;
/// - `?`: a card its holder does not know (any card);
/// - `r?`: its holder knows its suit (every card of the suit whose letter is given);
/// - `?1`: its holder knows its rank (every card of that rank);
/// - `?{r1,r3}`: one of these cards (spaces or commas between them).
///
/// The narrowed forms are hidden cards; a narrowing that allows every card of the deck is the
/// same as `?`. The error says why a token is none of these.
pub fn parse_hand_card(variant: &Variant, token: &str) -> Result<(Option<Card>, KindSet), String> {
    let quoted = crate::error::escape_controls(token);
    if token == "?" {
        return Ok((None, ALL_KINDS));
    }
    if let Some(list) = token.strip_prefix("?{") {
        let Some(list) = list.strip_suffix('}') else {
            return Err(format!("`{quoted}`: a list of cards ends with `}}`"));
        };
        let mut hint = 0;
        let mut names = 0;
        for name in tokens(list) {
            names += 1;
            let card = variant
                .parse_card(name)
                .map_err(|e| format!("`{quoted}`: {e}"))?;
            if card.suit() as usize >= variant.suits.len()
                || variant.copies_by_kind()[card.kind()] == 0
            {
                return Err(format!(
                    "`{quoted}`: {} is not a card of {}",
                    variant.card_name(card),
                    variant.name
                ));
            }
            hint |= card.kind_bit();
        }
        if names == 0 {
            return Err(format!(
                "`{quoted}`: name at least one card between the braces, like ?{{r1,r3}}"
            ));
        }
        return Ok((None, normal_hint(variant, hint)));
    }
    if let Some(rank) = token.strip_prefix('?') {
        let top = variant.ranks;
        return match rank.parse::<u8>() {
            Ok(r) if (1..=top).contains(&r) => {
                Ok((None, normal_hint(variant, rank_kinds(variant, r))))
            }
            Ok(r) => Err(format!(
                "`{quoted}`: there is no rank {r}: the ranks are 1 to {top}"
            )),
            Err(_) => Err(format!(
                "`{quoted}` is not a hand card: write a card (r1), ? (not known), r? (its suit \
                 known), ?1 (its rank known) or ?{{r1,r3}} (one of these cards)"
            )),
        };
    }
    if let Some(prefix) = token.strip_suffix('?') {
        return match variant.suit_of_prefix(prefix) {
            Some(s) => Ok((None, normal_hint(variant, suit_kinds(variant, s)))),
            None => Err(format!(
                "`{quoted}`: `{}` is not a suit (the suits are {})",
                crate::error::escape_controls(prefix),
                variant.prefixes()
            )),
        };
    }
    variant
        .parse_card(token)
        .map(|c| (Some(c), ALL_KINDS))
        .map_err(|e| e.to_string())
}

/// How a position file writes a hand card: the card when known; else what its holder knows of
/// it in the shortest form [`parse_hand_card`] reads (`?`, `r?`, `?1`, else `?{r1,r3}`).
pub fn hand_card_text(variant: &Variant, card: Option<Card>, hint: KindSet) -> String {
    if let Some(c) = card {
        return variant.card_name(c);
    }
    let hint = normal_hint(variant, hint);
    if hint == ALL_KINDS {
        return "?".to_string();
    }
    if let Some(s) = (0..variant.suits.len() as u8).find(|&s| suit_kinds(variant, s) == hint) {
        return format!("{}?", variant.suits[s as usize].short);
    }
    if let Some(r) = (1..=variant.ranks).find(|&r| rank_kinds(variant, r) == hint) {
        return format!("?{r}");
    }
    let mut names: Vec<String> = Vec::new();
    for c in variant.deck() {
        let name = variant.card_name(c);
        if hint & c.kind_bit() != 0 && !names.contains(&name) {
            names.push(name);
        }
    }
    format!("?{{{}}}", names.join(","))
}

/// The hands of every seat (`None` if any hand did not read, or one is missing) and what each
/// holder knows of each card.
type Hands = (Option<Vec<Vec<Option<Card>>>>, Vec<Vec<KindSet>>);

/// The steps of [`parse`], one per part of the position, each taking its keys and faulting
/// what it cannot read.
impl Parser {
    /// Reads every `key: value` line, faulting unknown and repeated keys.
    fn read(text: &str) -> Parser {
        // A byte-order mark some editors put at the start of a UTF-8 file is not part of the text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut p = Parser {
            entries: HashMap::new(),
            hands: Vec::new(),
            faults: Vec::new(),
            last: text.lines().count().max(1),
        };
        let mut first_seen: HashMap<String, usize> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let Some((key, value)) = content.split_once(':') else {
                p.faults.push(fault(
                    line,
                    format!("expected `key: value`, found `{content}`"),
                ));
                continue;
            };
            let words: Vec<&str> = key.split_whitespace().collect();
            let value = value.trim().to_string();
            let key = match words.as_slice() {
                ["hand", name] => format!("hand {name}"),
                [k] if KEYS.contains(k) && *k != "hand NAME" => k.to_string(),
                ["hand"] | ["hand", ..] => {
                    p.faults.push(fault(
                        line,
                        format!(
                            "`{}`: write `hand NAME:` with one player's name",
                            key.trim()
                        ),
                    ));
                    continue;
                }
                _ => {
                    p.faults.push(fault(
                        line,
                        format!(
                            "unknown key `{}` (known keys: {})",
                            key.trim(),
                            KEYS.join(", ")
                        ),
                    ));
                    continue;
                }
            };
            if let Some(&first) = first_seen.get(&key) {
                p.faults.push(fault(
                    line,
                    format!("duplicate key `{key}` (first on line {first})"),
                ));
                continue;
            }
            first_seen.insert(key.clone(), line);
            if let Some(name) = key.strip_prefix("hand ") {
                p.hands.push((name.to_string(), line, value));
            } else {
                p.entries.insert(key, Entry { line, value });
            }
        }
        p
    }

    /// The variant: `variant:`, or `suits:` (with `ranks:` and `copies:`) for a research deck.
    fn variant(&mut self, lines: &mut Lines) -> Option<Variant> {
        let copies = self.take("copies");
        match (self.take("variant"), self.take("suits"), self.take("ranks")) {
            (Some(v), suits, ranks) => {
                for e in [suits, ranks, copies].into_iter().flatten() {
                    self.faults.push(fault(
                        e.line,
                        format!(
                            "`suits:`, `ranks:` and `copies:` describe a research deck; the file already names the variant on line {}",
                            v.line
                        ),
                    ));
                }
                lines.variant = v.line;
                match Variant::parse(&v.value) {
                    Ok(variant) => Some(variant),
                    Err(e) => {
                        self.faults.push(fault(v.line, format!("variant: {e}")));
                        None
                    }
                }
            }
            (None, Some(s), r) => {
                lines.variant = s.line;
                self.research_variant(s, r, copies)
            }
            (None, None, Some(r)) => {
                self.faults.push(fault(
                    r.line,
                    "`ranks:` needs `suits:` (a research deck) or use `variant:`",
                ));
                if let Some(c) = copies {
                    self.faults
                        .push(fault(c.line, "`copies:` needs `suits:` (a research deck)"));
                }
                None
            }
            (None, None, None) if copies.is_some() => {
                let c = copies.expect("some");
                self.faults
                    .push(fault(c.line, "`copies:` needs `suits:` (a research deck)"));
                None
            }
            (None, None, None) => {
                self.missing(
                    "variant",
                    "variant: no-variant, or suits: 3 and ranks: 3 for a research deck",
                );
                None
            }
        }
    }

    /// A research deck: `suits:`, with `ranks:` (default 5) and `copies:` (default: the usual
    /// copies of each rank).
    fn research_variant(
        &mut self,
        s: Entry,
        r: Option<Entry>,
        copies: Option<Entry>,
    ) -> Option<Variant> {
        let number = |e: &Entry, key: &str, faults: &mut Vec<Error>| match e.value.parse::<u8>() {
            Ok(n) => Some(n),
            Err(_) => {
                faults.push(fault(
                    e.line,
                    format!("{key}: `{}` is not a whole number", e.value),
                ));
                None
            }
        };
        let suits = number(&s, "suits", &mut self.faults);
        let ranks = match &r {
            Some(r) => number(r, "ranks", &mut self.faults),
            None => Some(5),
        };
        let per_rank = self.copies_per_rank(copies.as_ref(), ranks);
        match (suits, ranks, per_rank) {
            (Some(suits), Some(ranks), Some(per_rank)) => {
                match Variant::research_with_copies(suits, ranks, &per_rank) {
                    Ok(v) => Some(v),
                    Err(e) => {
                        let line = if (1..=6).contains(&suits) {
                            r.as_ref().map_or(s.line, |r| r.line)
                        } else {
                            s.line
                        };
                        self.faults.push(fault(
                            line,
                            e.to_string()
                                .replace("--suits", "suits")
                                .replace("--ranks", "ranks"),
                        ));
                        None
                    }
                }
            }
            _ => None,
        }
    }

    /// The copies of each rank of a research deck with `ranks` ranks (`copies:`, or the
    /// default), checked here so that each fault names its number.
    fn copies_per_rank(&mut self, copies: Option<&Entry>, ranks: Option<u8>) -> Option<Vec<u8>> {
        match (copies, ranks) {
            (None, Some(ranks)) => Some(Variant::research_default_copies(
                ranks.clamp(1, MAX_RANK as u8),
            )),
            (Some(c), Some(ranks)) => {
                let mut list = Vec::new();
                let mut ok = true;
                for token in tokens(&c.value) {
                    match token.parse::<u8>() {
                        Ok(n) if (1..=MAX_COPIES).contains(&n) => list.push(n),
                        _ => {
                            self.faults.push(fault(
                                c.line,
                                format!(
                                    "copies: `{token}` is not a number of copies from 1 to {MAX_COPIES}"
                                ),
                            ));
                            ok = false;
                        }
                    }
                }
                if ok && (1..=MAX_RANK as u8).contains(&ranks) && list.len() != ranks as usize {
                    self.faults.push(fault(
                        c.line,
                        format!(
                            "copies: give one number per rank, rank 1 first: {ranks} numbers, not {}",
                            list.len()
                        ),
                    ));
                    ok = false;
                }
                ok.then_some(list)
            }
            (_, None) => None,
        }
    }

    /// The players' names, in seat order (`players:` names them or counts them).
    fn players(&mut self, lines: &mut Lines) -> Option<Vec<String>> {
        let e = self.required("players", "players: Alice Bob")?;
        lines.players = e.line;
        let words: Vec<&str> = tokens(&e.value).collect();
        match words.as_slice() {
            [] => {
                self.faults.push(fault(
                    e.line,
                    "players: give the names in seat order, or how many players",
                ));
                None
            }
            [n] if n.chars().all(|c| c.is_ascii_digit()) => match n.parse::<usize>() {
                Ok(n) if (2..=MAX_PLAYERS).contains(&n) => {
                    Some(DEFAULT_NAMES[..n].iter().map(|s| s.to_string()).collect())
                }
                _ => {
                    self.faults.push(fault(
                        e.line,
                        format!("players: a game has 2 to 6 players, not {n}"),
                    ));
                    None
                }
            },
            names => {
                let mut ok = true;
                for (i, name) in names.iter().enumerate() {
                    if *name == "?" || name.chars().all(|c| c.is_ascii_digit()) {
                        self.faults
                            .push(fault(e.line, format!("players: `{name}` cannot be a name")));
                        ok = false;
                    } else if names[..i].contains(name) {
                        self.faults
                            .push(fault(e.line, format!("players: `{name}` is named twice")));
                        ok = false;
                    }
                }
                if !(2..=MAX_PLAYERS).contains(&names.len()) {
                    self.faults.push(fault(
                        e.line,
                        format!("players: a game has 2 to 6 players, not {}", names.len()),
                    ));
                    ok = false;
                }
                ok.then(|| names.iter().map(|s| s.to_string()).collect())
            }
        }
    }

    /// The clue tokens held now, in the units of the variant's token rules.
    fn clues(&mut self, economy: &TokenRules, lines: &mut Lines) -> Option<u8> {
        self.take("clues").and_then(|e| {
            lines.clues = e.line;
            let units = economy.units(&e.value);
            if units.is_none() {
                let halves = if economy.scale == 2 {
                    ", or one and a half like 3.5 in Clue Starved"
                } else {
                    ""
                };
                self.faults.push(fault(
                    e.line,
                    format!(
                        "clues: `{}` is not a whole number of tokens{halves}",
                        e.value
                    ),
                ));
            }
            units
        })
    }

    /// The type of the last clue given (Alternating Clues only): `Some(true)` for a colour.
    fn last_clue(&mut self, economy: &TokenRules, lines: &mut Lines) -> Option<bool> {
        self.take("last-clue").and_then(|e| {
            lines.last_clue = e.line;
            let value = match e.value.to_ascii_lowercase().as_str() {
                "colour" | "color" => Some(Some(true)),
                "rank" | "number" => Some(Some(false)),
                "none" => Some(None),
                _ => None,
            };
            match value {
                None => {
                    self.faults.push(fault(
                        e.line,
                        format!("last-clue: `{}` is not colour, rank or none", e.value),
                    ));
                    None
                }
                Some(v) if v.is_some() && !economy.alternating => {
                    self.faults.push(fault(
                        e.line,
                        "last-clue: only Alternating Clues variants remember the last clue's type"
                            .to_string(),
                    ));
                    None
                }
                Some(v) => v,
            }
        })
    }

    /// Every suit's firework height.
    fn stacks(&mut self, variant: Option<&Variant>, lines: &mut Lines) -> Option<Vec<Stack>> {
        let e = self.required("stacks", "stacks: r0 y0 g0 b0 p0")?;
        lines.stacks = e.line;
        let v = variant?;
        let mut heights: Vec<Option<Stack>> = vec![None; v.suits.len()];
        let mut ok = true;
        for token in tokens(&e.value) {
            match v.parse_stack(token) {
                Ok((s, stack)) => {
                    let s = s as usize;
                    if heights[s].is_some() {
                        self.faults.push(fault(
                            e.line,
                            format!(
                                "stacks: `{token}`: suit {} is given twice",
                                v.suits[s].short
                            ),
                        ));
                        ok = false;
                    }
                    heights[s] = Some(stack);
                }
                Err(why) => {
                    self.faults.push(fault(e.line, format!("stacks: {why}")));
                    ok = false;
                }
            }
        }
        for (s, h) in heights.iter().enumerate() {
            if h.is_none() {
                self.faults.push(fault(
                    e.line,
                    format!(
                        "stacks: no height for suit {} (every suit needs one, e.g. {}0)",
                        v.suits[s].short, v.suits[s].short
                    ),
                ));
                ok = false;
            }
        }
        ok.then(|| {
            heights
                .into_iter()
                .map(|h| h.unwrap_or(Stack::EMPTY))
                .collect::<Vec<Stack>>()
        })
    }

    /// The cards discarded or misplayed so far (every one known).
    fn discards(&mut self, variant: Option<&Variant>, lines: &mut Lines) -> Option<Vec<Card>> {
        let e = self.required("discards", "discards: r1 y1 (or nothing after the colon)")?;
        lines.discards = e.line;
        let v = variant?;
        let cards = self.cards(v, "discards", e.line, &e.value, false)?;
        Some(cards.into_iter().flatten().collect())
    }

    /// The draw pile, top first (`None` for a card nobody sees).
    fn deck(&mut self, variant: Option<&Variant>, lines: &mut Lines) -> Option<Vec<Option<Card>>> {
        let e = self.required("deck", "deck: ? ? r1 (or nothing after the colon)")?;
        lines.deck = e.line;
        self.cards(variant?, "deck", e.line, &e.value, true)
    }

    /// Every player's hand, and what each holder knows of each card; a missing hand is a fault.
    fn hands_of(
        &mut self,
        variant: Option<&Variant>,
        names: Option<&[String]>,
        hand_size: Option<u8>,
        lines: &mut Lines,
    ) -> Hands {
        let mut hands: Option<Vec<Vec<Option<Card>>>> = names.map(|n| vec![vec![]; n.len()]);
        let mut hints: Vec<Vec<KindSet>> = vec![vec![]; names.map_or(0, |n| n.len())];
        let mut hand_lines = vec![0; names.map_or(0, |n| n.len())];
        for (name, line, value) in std::mem::take(&mut self.hands) {
            let Some(names) = names else { continue };
            let Some(seat) = names.iter().position(|n| *n == name) else {
                self.faults.push(fault(
                    line,
                    format!(
                        "`hand {name}`: there is no player named {name} (players: {})",
                        names.join(" ")
                    ),
                ));
                continue;
            };
            hand_lines[seat] = line;
            match variant.and_then(|v| self.hand(v, &format!("hand {name}"), line, &value)) {
                Some((cards, known)) => {
                    if let Some(h) = hands.as_mut() {
                        h[seat] = cards;
                    }
                    hints[seat] = known;
                }
                None => hands = None,
            }
        }
        if let Some(names) = names {
            for (seat, name) in names.iter().enumerate() {
                if hand_lines[seat] == 0 {
                    let example = match hand_size.unwrap_or(default_hand_size(names.len() as u8)) {
                        0..=2 => "r1 ?",
                        _ => "r1 ? g2",
                    };
                    self.faults.push(fault(
                        self.last,
                        format!(
                            "missing required key `hand {name}:` (e.g. `hand {name}: {example}`; nothing after the colon for an empty hand)"
                        ),
                    ));
                    hands = None;
                }
            }
        }
        lines.hands = hand_lines;
        (hands, hints)
    }

    /// The seat of the player to move.
    fn turn(&mut self, names: Option<&[String]>, lines: &mut Lines) -> Option<u8> {
        let e = self.required("turn", "turn: Alice")?;
        lines.turn = e.line;
        names.and_then(|names| match names.iter().position(|n| *n == e.value) {
            Some(seat) => Some(seat as u8),
            None => {
                self.faults.push(fault(
                    e.line,
                    format!(
                        "turn: there is no player named `{}` (players: {})",
                        e.value,
                        names.join(" ")
                    ),
                ));
                None
            }
        })
    }
}

/// Reads a position file. Every syntax fault found is reported, each with its line; a file
/// that reads may still mean something impossible ([`super::Position::new`] checks that).
pub fn parse(text: &str) -> Result<PositionFile, Faults> {
    let mut p = Parser::read(text);
    let mut lines = Lines {
        last: p.last,
        ..Lines::default()
    };
    let variant = p.variant(&mut lines);
    let names = p.players(&mut lines);

    // Numbers and flags.
    let hand_size = p.number("hand-size").map(|(n, l)| {
        lines.hand_size = l;
        n
    });
    if !p.entries.contains_key("clues") {
        p.missing("clues", "clues: 8");
    }
    if !p.entries.contains_key("strikes") {
        p.missing("strikes", "strikes: 0");
    }
    let economy = variant
        .as_ref()
        .map_or(TokenRules::STANDARD, Variant::tokens);
    let clues = p.clues(&economy, &mut lines);
    let last_clue = p.last_clue(&economy, &mut lines);
    let max_clues = p.number("max-clues").map(|(n, l)| {
        lines.max_clues = l;
        n
    });
    let strikes = p.number("strikes").map(|(n, l)| {
        lines.strikes = l;
        n
    });
    let max_strikes = p.number("max-strikes").map(|(n, l)| {
        lines.max_strikes = l;
        n
    });
    let final_turns = p.number("final-turns").map(|(n, l)| {
        lines.final_turns = l;
        n
    });
    let (endless, l) = p.flag("endless");
    lines.endless = l;
    let (empty_clues, l) = p.flag("empty-clues");
    lines.empty_clues = l;
    let (deck_plays, l) = p.flag("deck-plays");
    lines.deck_plays = l;

    let stacks = p.stacks(variant.as_ref(), &mut lines);
    let discards = p.discards(variant.as_ref(), &mut lines);
    let deck = p.deck(variant.as_ref(), &mut lines);
    let (hands, hints) = p.hands_of(variant.as_ref(), names.as_deref(), hand_size, &mut lines);
    let turn = p.turn(names.as_deref(), &mut lines);
    if !p.faults.is_empty() {
        return Err(Faults::sorted(p.faults));
    }
    let none = "no fault, so every required part was read";
    Ok(PositionFile {
        variant: variant.expect(none),
        names: names.expect(none),
        hand_size,
        clues: clues.expect(none),
        max_clues,
        last_clue,
        strikes: strikes.expect(none),
        max_strikes,
        stacks: stacks.expect(none),
        discards: discards.expect(none),
        hands: hands.expect(none),
        hints,
        deck: deck.expect(none),
        turn: turn.expect(none),
        final_turns,
        endless,
        empty_clues,
        deck_plays,
        lines,
    })
}
/// The key that names `variant`: its CLI name (`variant: black`), its hanab.live name, or, for
/// a research deck, `suits:` and `ranks:` (and `copies:` when they are not the default).
fn variant_lines(variant: &Variant) -> String {
    if variant.id.is_some() {
        let name = variant.alias().unwrap_or(&variant.name);
        return format!("variant: {name}\n");
    }
    let mut out = format!("suits: {}\nranks: {}\n", variant.suits.len(), variant.ranks);
    let copies: Vec<u8> = (1..=variant.ranks).map(|r| variant.copies(0, r)).collect();
    if copies != Variant::research_default_copies(variant.ranks) {
        let copies: Vec<String> = copies.iter().map(u8::to_string).collect();
        out += &format!("copies: {}\n", copies.join(" "));
    }
    out
}

/// Writes a position file that [`parse`] reads back to the same data (line numbers aside).
/// Keys with their default value are left out.
pub fn to_text(file: &PositionFile) -> String {
    let v = &file.variant;
    let card = |c: &Option<Card>| c.map_or("?".to_string(), |c| v.card_name(c));
    let list = |cards: &[Option<Card>]| cards.iter().map(card).collect::<Vec<_>>().join(" ");
    let line = |key: &str, value: String| {
        if value.is_empty() {
            format!("{key}:\n")
        } else {
            format!("{key}: {value}\n")
        }
    };
    let mut out = variant_lines(v);
    out += &line("players", file.names.join(" "));
    if let Some(h) = file.hand_size {
        out += &line("hand-size", h.to_string());
    }
    out += &line("clues", v.tokens().text(file.clues));
    if let Some(m) = file.max_clues {
        out += &line("max-clues", m.to_string());
    }
    if let Some(colour) = file.last_clue {
        out += &line(
            "last-clue",
            if colour { "colour" } else { "rank" }.to_string(),
        );
    }
    out += &line("strikes", file.strikes.to_string());
    if let Some(m) = file.max_strikes {
        out += &line("max-strikes", m.to_string());
    }
    let stacks: Vec<String> = file
        .stacks
        .iter()
        .enumerate()
        .map(|(s, &stack)| v.stack_name(s as u8, stack))
        .collect();
    out += &line("stacks", stacks.join(" "));
    let discards: Vec<Option<Card>> = file.discards.iter().map(|&c| Some(c)).collect();
    out += &line("discards", list(&discards));
    for (seat, (name, hand)) in file.names.iter().zip(&file.hands).enumerate() {
        let cards: Vec<String> = hand
            .iter()
            .enumerate()
            .map(|(slot, &c)| {
                let hint = file
                    .hints
                    .get(seat)
                    .and_then(|h| h.get(slot))
                    .copied()
                    .unwrap_or(ALL_KINDS);
                hand_card_text(v, c, hint)
            })
            .collect();
        out += &line(&format!("hand {name}"), cards.join(" "));
    }
    out += &line("deck", list(&file.deck));
    out += &line(
        "turn",
        file.names
            .get(file.turn as usize)
            .cloned()
            .unwrap_or_default(),
    );
    if let Some(t) = file.final_turns {
        out += &line("final-turns", t.to_string());
    }
    for (key, on) in [
        ("endless", file.endless),
        ("empty-clues", file.empty_clues),
        ("deck-plays", file.deck_plays),
    ] {
        if on {
            out += &line(key, "true".to_string());
        }
    }
    out
}
