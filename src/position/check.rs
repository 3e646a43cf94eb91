//! The checks of [`super::Position::new`]: what a position file means, part by part. Each
//! step adds the faults it finds, with their lines, so a file's faults are all reported at once.

use super::{cards, fault, HintFit, PositionFile, ALL_KINDS};
use crate::error::Error;
use crate::game::card::{Card, KindSet, KINDS};
use crate::game::rules::{Options, Rules, MAX_HAND, MAX_PLAYERS};
use crate::game::tokens::TokenRules;
use crate::state::NOT_FINAL;

/// The shape of the data: a hand per player and a height per suit (always right for a file
/// that [`super::parse`] read, but a [`PositionFile`] may be built by hand).
pub(super) fn shape(file: &PositionFile) -> Vec<Error> {
    let mut faults = Vec::new();
    let l = &file.lines;
    let v = &file.variant;
    let players = file.names.len();
    if file.hands.len() != players {
        faults.push(fault(
            l.last,
            format!("{} hands for {players} players", file.hands.len()),
        ));
    }
    if file.stacks.len() != v.suits.len() {
        faults.push(fault(
            l.stacks,
            format!(
                "{} firework heights for {} suits",
                file.stacks.len(),
                v.suits.len()
            ),
        ));
    }
    faults
}

/// The rules the file asks for: player count, hand size, clue and strike limits, options.
/// `None` where one of them is out of range or the rules refuse their combination (each a
/// fault).
pub(super) fn rules(file: &PositionFile, faults: &mut Vec<Error>) -> Option<Rules> {
    let l = &file.lines;
    let v = &file.variant;
    let players = file.names.len();
    if !(2..=MAX_PLAYERS).contains(&players) {
        faults.push(fault(
            l.players,
            format!("players: a game has 2 to 6 players, not {players}"),
        ));
    }
    if let Some(h) = file.hand_size {
        if !(1..=MAX_HAND as u8).contains(&h) {
            faults.push(fault(
                l.hand_size,
                format!("hand-size must be 1 to {MAX_HAND}, not {h}"),
            ));
        }
    }
    if let Some(m) = file.max_clues {
        if !(1..=15).contains(&m) {
            faults.push(fault(
                l.max_clues,
                format!("max-clues must be 1 to 15, not {m}"),
            ));
        }
    }
    if let Some(m) = file.max_strikes {
        if !(1..=7).contains(&m) {
            faults.push(fault(
                l.max_strikes,
                format!("max-strikes must be 1 to 7, not {m}"),
            ));
        }
    }
    if faults.is_empty() {
        let options = Options {
            hand_size: file.hand_size,
            clues: file.max_clues,
            strikes: file.max_strikes,
            empty_clues: file.empty_clues,
            deck_plays: file.deck_plays,
            endless: file.endless,
        };
        match Rules::new(v.clone(), players as u8, &options) {
            Ok(r) => Some(r),
            Err(e) => {
                let line = if file.hand_size.is_some() {
                    l.hand_size
                } else {
                    l.players
                };
                faults.push(fault(line, e.to_string()));
                None
            }
        }
    } else {
        None
    }
}

/// Tokens, strikes, fireworks, hands and turn within their limits (`max_clues` in the variant's
/// token units).
pub(super) fn limits(
    file: &PositionFile,
    (hand_size, max_clues, max_strikes): (u8, u8, u8),
    tokens: &TokenRules,
    faults: &mut Vec<Error>,
) {
    let l = &file.lines;
    let v = &file.variant;
    let players = file.names.len();
    if file.clues > max_clues {
        faults.push(fault(
            l.clues,
            format!(
                "clues: {} tokens but there are only {}",
                tokens.text(file.clues),
                tokens.text(max_clues)
            ),
        ));
    }
    if file.strikes >= max_strikes {
        faults.push(fault(
            l.strikes,
            format!(
                "strikes: {} strikes already end the game (the last strike is number {max_strikes})",
                file.strikes
            ),
        ));
    }
    for (s, h) in file.stacks.iter().map(|st| st.height()).enumerate() {
        if h > v.ranks {
            faults.push(fault(
                l.stacks,
                format!(
                    "stacks: {}{h} is above the top rank {}",
                    v.suits[s].short, v.ranks
                ),
            ));
        }
    }
    for (p, hand) in file.hands.iter().enumerate() {
        if hand.len() > hand_size as usize {
            faults.push(fault(
                l.hands.get(p).copied().unwrap_or(0),
                format!(
                    "{}'s hand has {} cards but the hand size is {hand_size}",
                    file.names[p],
                    hand.len()
                ),
            ));
        }
    }
    if file.turn as usize >= players {
        faults.push(fault(
            l.turn,
            format!("turn: there is no seat {}", file.turn),
        ));
    }
}

/// The copies of each card: none above the deck's, and the `?` exactly the cards not seen.
/// Returns the known cards of each kind and the line of the first `?` (0 if none).
pub(super) fn copies(file: &PositionFile, faults: &mut Vec<Error>) -> ([u8; KINDS], usize) {
    let l = &file.lines;
    let v = &file.variant;
    let mut seen = [0u8; KINDS];
    let mut reported = [false; KINDS];
    let mut count = |card: Card, line: usize, faults: &mut Vec<Error>| {
        if card.suit() as usize >= v.suits.len() || v.copies_by_kind()[card.kind()] == 0 {
            faults.push(fault(line, format!("{card:?} is not a card of {}", v.name)));
            return;
        }
        let k = card.kind();
        seen[k] += 1;
        let copies = v.copies(card.suit(), card.rank());
        if seen[k] > copies && !reported[k] {
            reported[k] = true;
            faults.push(fault(
                line,
                format!(
                    "more copies of {} than exist: {} counting fireworks, discards, hands and deck up to here, but {} has {copies}",
                    v.card_name(card),
                    seen[k],
                    v.name
                ),
            ));
        }
    };
    for (s, &stack) in file.stacks.iter().enumerate() {
        if stack.height() <= v.ranks {
            for c in v.play_order().cards_on(s as u8, stack) {
                count(c, l.stacks, faults);
            }
        }
    }
    for &c in &file.discards {
        count(c, l.discards, faults);
    }
    let mut hidden = 0;
    let mut hidden_line = 0;
    let places = file
        .hands
        .iter()
        .enumerate()
        .map(|(p, h)| (h, l.hands.get(p).copied().unwrap_or(0)))
        .chain(std::iter::once((&file.deck, l.deck)));
    for (cards, line) in places {
        for c in cards {
            match c {
                Some(c) => count(*c, line, faults),
                None => {
                    hidden += 1;
                    if hidden_line == 0 {
                        hidden_line = line;
                    }
                }
            }
        }
    }
    let known: usize = seen.iter().map(|&n| n as usize).sum();
    let total = v.deck_size();
    if !reported.iter().any(|&r| r) && known + hidden != total {
        let unseen = total.saturating_sub(known);
        let message = if known + hidden < total {
            format!(
                "{} unaccounted for: {} has {total} cards, the fireworks, discards and known cards account for {known}, and the hands and deck have {hidden} `?`; list the missing discards or add `?` for cards not known",
                cards(total - known - hidden, "is", "are"),
                v.name
            )
        } else {
            format!(
                "{} too many: {} has {total} cards, the fireworks, discards and known cards account for {known}, which leaves {unseen} unknown, but the hands and deck have {hidden} `?`",
                cards(known + hidden - total, "", ""),
                v.name
            )
        };
        let line = if l.deck > 0 { l.deck } else { l.last };
        faults.push(fault(line, message));
    }
    (seen, hidden_line)
}

/// The turns left in the final round ([`NOT_FINAL`] before it): given exactly when the pile
/// is empty, outside endless mode.
pub(super) fn final_turns(file: &PositionFile, faults: &mut Vec<Error>) -> u8 {
    let l = &file.lines;
    let players = file.names.len();
    let pile_empty = file.deck.is_empty();
    match file.final_turns {
        Some(_) if file.endless => {
            faults.push(fault(
                l.final_turns,
                "final-turns: endless mode has no final round",
            ));
            NOT_FINAL
        }
        Some(_) if !pile_empty => {
            faults.push(fault(
                l.final_turns,
                "final-turns: the final round only starts once the deck is empty",
            ));
            NOT_FINAL
        }
        Some(t) if t == 0 || t as usize > players => {
            faults.push(fault(
                l.final_turns,
                format!(
                    "final-turns must be 1 to {players} (one turn per player at most), not {t}"
                ),
            ));
            NOT_FINAL
        }
        Some(t) => t,
        None if pile_empty && !file.endless => {
            faults.push(fault(
                l.deck,
                format!(
                    "the deck is empty, so the final round is on: say how many turns are left with `final-turns: N` (1 to {players})"
                ),
            ));
            NOT_FINAL
        }
        None => NOT_FINAL,
    }
}

/// A position whose game is already over has nothing to solve: every firework complete, in
/// endless mode a card whose every copy is gone, or a player to move with no legal action.
pub(super) fn not_over(file: &PositionFile, tokens: &TokenRules, faults: &mut Vec<Error>) {
    let l = &file.lines;
    let v = &file.variant;
    let players = file.names.len();
    if file.stacks.len() == v.suits.len() && file.stacks.iter().all(|h| h.height() == v.ranks) {
        faults.push(fault(
            l.stacks,
            "every firework is complete: the game is already over",
        ));
    } else if file.endless && faults.is_empty() {
        // Copies left of a card not on its stack: the deck's, less the discards.
        let copy_left = |c: Card| {
            file.discards.iter().filter(|&&d| d == c).count()
                < v.copies_by_kind()[c.kind()] as usize
        };
        let order = v.play_order();
        if order.max_score(&file.stacks, copy_left) < v.perfect_score() {
            // Name the first card whose every copy is gone and that some stack needed.
            let gone = v.deck().into_iter().find(|&c| {
                !copy_left(c)
                    && !order.is_played(file.stacks[c.suit() as usize], c)
                    && !order.is_dead(file.stacks[c.suit() as usize], c, |_| true)
            });
            faults.push(fault(
                l.discards,
                match gone {
                    Some(c) => format!(
                        "every copy of {} is discarded: in endless mode the game is already lost",
                        v.card_name(c)
                    ),
                    None => "the fireworks can no longer all be finished: in endless mode \
                             the game is already lost"
                        .to_string(),
                },
            ));
        }
    }
    if faults.is_empty() {
        let t = file.turn as usize;
        // An unknown card might be one a clue touches.
        let others_hold = (0..players).any(|p| {
            p != t
                && file.hands[p]
                    .iter()
                    .any(|c| c.is_none_or(|c| v.touchable(c)))
        });
        // A clue type allowed now (Alternating Clues) that could touch another hand.
        let type_fits = |colour: bool| {
            file.last_clue != Some(colour)
                && (0..players).any(|p| {
                    let held = file.hands[p]
                        .iter()
                        .fold(0, |set, c| set | c.map_or(ALL_KINDS, |c| c.kind_bit()));
                    p != t && v.type_can_touch(colour, held, file.empty_clues)
                })
        };
        let clue_fits = if tokens.alternating {
            type_fits(true) || type_fits(false)
        } else {
            file.empty_clues || v.has_blind_clue() || others_hold
        };
        let can_act = !file.hands[t].is_empty()
            || (file.clues >= tokens.clue_cost && clue_fits)
            || (file.deck_plays && file.deck.len() == 1);
        if !can_act {
            faults.push(fault(
                l.turn,
                format!(
                    "{} is to move but has no legal action: the game is already over",
                    file.names[t]
                ),
            ));
        }
    }
}

/// What each holder knows of each hand card ([`ALL_KINDS`] for a known card).
pub(super) fn hand_hints(file: &PositionFile) -> Vec<Vec<KindSet>> {
    let hint = |p: usize, slot: usize| {
        file.hints
            .get(p)
            .and_then(|h| h.get(slot))
            .copied()
            .unwrap_or(ALL_KINDS)
    };
    file.hands
        .iter()
        .enumerate()
        .map(|(p, hand)| {
            hand.iter()
                .enumerate()
                .map(|(slot, c)| {
                    if c.is_some() {
                        ALL_KINDS
                    } else {
                        hint(p, slot)
                    }
                })
                .collect()
        })
        .collect()
}

/// Some way to deal the unseen cards (the deck less `seen`) fits what the holders know of
/// their hidden cards (`hints`).
pub(super) fn hints_fit(
    file: &PositionFile,
    hints: &[Vec<KindSet>],
    seen: &[u8; KINDS],
    faults: &mut Vec<Error>,
) {
    let l = &file.lines;
    let v = &file.variant;
    if faults.is_empty() {
        // The unseen cards: the deck less every card counted.
        let mut left = [0u8; KINDS];
        for c in v.deck() {
            left[c.kind()] += 1;
        }
        for (k, n) in seen.iter().enumerate() {
            left[k] -= n;
        }
        // Only narrowed cards need matching: the `?` of hands and deck take the rest.
        let mut fit = HintFit::new(left);
        let narrowed = file.hands.iter().enumerate().flat_map(|(p, hand)| {
            let hints = &hints[p];
            hand.iter()
                .enumerate()
                .filter(move |&(slot, c)| c.is_none() && hints[slot] != ALL_KINDS)
                .map(move |(slot, _)| (p, hints[slot]))
        });
        for (p, hint) in narrowed {
            if !fit.add(hint) {
                let mut unseen = Vec::new();
                for c in v.deck() {
                    if left[c.kind()] > 0 {
                        left[c.kind()] -= 1;
                        unseen.push(v.card_name(c));
                    }
                }
                faults.push(fault(
                    l.hands.get(p).copied().unwrap_or(l.last),
                    format!(
                        "no way to deal the unseen cards ({}) fits what the players know of their cards, up to {}'s hand",
                        unseen.join(" "),
                        file.names[p]
                    ),
                ));
                break;
            }
        }
    }
}
