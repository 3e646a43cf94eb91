//! hanab.live replay links: a game that never existed on the site opens from
//! `https://hanab.live/replay-json/DATA`, `#N` after it opening turn N.
//!
//! DATA packs a game export into the characters `a-z0-9A-Z` (each stands for its index, 0 to
//! 61), in three parts joined by commas: the player count digit, the lowest and the highest
//! rank of the deck as two digits, and one character per card (`suit * rank span + rank -
//! lowest`); the lowest and the highest action type as two digits, then two characters per
//! action (`v * type span + type - lowest type`, where `v` is 0 for an action without a value
//! and the value plus one otherwise, then the target); and the variant id in decimal. A `-` is
//! inserted after every 20 characters (readers drop them). A link carries no player names (the
//! site names them Alice, Bob, ...) and no game options, so a game with options has none.

use crate::error::Error;
use crate::game::catalogue::Catalogue;
use crate::hanablive::{DeckCard, ExportAction, GameExport, GameOptions};

/// The characters of DATA, each standing for its index.
const ALPHABET: &[u8; 62] = b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The replay links of the main site.
pub const SITE: &str = "https://hanab.live";

/// The names the site gives the seats of a game opened from a link.
pub const LINK_NAMES: [&str; 6] = ["Alice", "Bob", "Cathy", "Donald", "Emily", "Frank"];

/// The character standing for `index`, or an error naming `what` when it is out of range.
fn char_of(index: i64, what: &str) -> Result<char, Error> {
    usize::try_from(index)
        .ok()
        .and_then(|i| ALPHABET.get(i))
        .map(|&c| char::from(c))
        .ok_or_else(|| Error::Json(format!("a replay link cannot hold {what} ({index})")))
}

/// The index a character stands for.
fn index_of(c: char) -> Option<i64> {
    ALPHABET
        .iter()
        .position(|&a| char::from(a) == c)
        .map(|i| i as i64)
}

/// The DATA of a replay link for `game` of the variant with id `variant_id`: every action
/// (with its game-over action, if any). Refused, with the reason, when the game has options a
/// link cannot carry, more than six players, or a value out of the link's range.
pub fn encode(game: &GameExport, variant_id: u32) -> Result<String, Error> {
    if let Some(o) = &game.options {
        let plain = GameOptions {
            variant: o.variant.clone(),
            ..GameOptions::default()
        };
        if *o != plain {
            return Err(Error::Json(
                "a replay link carries no game options (empty clues, deck plays, one extra \
                 card, ...): export the game as a file instead"
                    .into(),
            ));
        }
    }
    let players = game.players.len();
    if !(2..=LINK_NAMES.len()).contains(&players) {
        return Err(Error::Json(format!(
            "a replay link holds 2 to 6 players, not {players}"
        )));
    }
    let (lowest, highest) = digit_range(game.deck.iter().map(|c| c.rank), 1, "ranks")?;
    let mut deck = format!("{players}{lowest}{highest}");
    let span = highest - lowest + 1;
    for c in &game.deck {
        deck.push(char_of(c.suit_index * span + c.rank - lowest, "this card")?);
    }
    let (min_type, max_type) = digit_range(game.actions.iter().map(|a| a.kind), 0, "action types")?;
    let mut actions = format!("{min_type}{max_type}");
    let type_span = max_type - min_type + 1;
    for a in &game.actions {
        let v = a.value.map_or(0, |v| v + 1);
        actions.push(char_of(v * type_span + a.kind - min_type, "this action")?);
        actions.push(char_of(a.target, "this action's target")?);
    }
    let joined = format!("{deck},{actions},{variant_id}");
    let mut out = String::with_capacity(joined.len() + joined.len() / 20);
    for (i, c) in joined.chars().enumerate() {
        if i > 0 && i % 20 == 0 {
            out.push('-');
        }
        out.push(c);
    }
    Ok(out)
}

/// The lowest and highest of `values` (`none` for none), which DATA writes as one digit each.
fn digit_range(
    values: impl Iterator<Item = i64> + Clone,
    none: i64,
    what: &str,
) -> Result<(i64, i64), Error> {
    let lowest = values.clone().min().unwrap_or(none);
    let highest = values.max().unwrap_or(none);
    if !(0..=9).contains(&lowest) || !(0..=9).contains(&highest) {
        return Err(Error::Json(format!(
            "a replay link holds {what} 0 to 9, not {lowest} to {highest}"
        )));
    }
    Ok((lowest, highest))
}

/// The replay link of `game` on `site`, opening at `turn` (1 = the start) when given.
pub fn replay_link(
    site: &str,
    game: &GameExport,
    variant_id: u32,
    turn: Option<usize>,
) -> Result<String, Error> {
    let data = encode(game, variant_id)?;
    let anchor = turn.map(|t| format!("#{t}")).unwrap_or_default();
    Ok(format!(
        "{}/replay-json/{data}{anchor}",
        site.trim_end_matches('/')
    ))
}

/// Whether `text` is a replay link (`https://hanab.live/replay-json/...` or
/// `.../shared-replay-json/...`, any server) rather than a file name.
pub fn is_replay_link(text: &str) -> bool {
    (text.starts_with("https://") || text.starts_with("http://")) && text.contains("replay-json/")
}

/// The turn a replay link opens at (`#N`), if it says.
pub fn link_turn(link: &str) -> Option<usize> {
    link.rsplit_once('#').and_then(|(_, t)| t.parse().ok())
}

/// A game read back from a replay link's DATA (or the whole link): the players named as the
/// site names them, the variant named from the catalogue. Every fault is one line naming it.
pub fn decode(link: &str) -> Result<GameExport, Error> {
    let bad = |why: &str| Error::Json(format!("not a hanab.live replay link: {why}"));
    let data = link
        .rsplit_once("replay-json/")
        .map_or(link, |(_, d)| d)
        .split('#')
        .next()
        .unwrap_or_default();
    let data: String = data.chars().filter(|&c| c != '-').collect();
    let parts: Vec<&str> = data.split(',').collect();
    let [deck, actions, variant] = parts[..] else {
        return Err(bad("DATA must have three parts separated by commas"));
    };
    let digit = |c: Option<char>, what: &str| {
        c.and_then(|c| c.to_digit(10))
            .map(i64::from)
            .ok_or_else(|| bad(&format!("no {what}")))
    };
    let mut chars = deck.chars();
    let players = digit(chars.next(), "player count")? as usize;
    if !(2..=LINK_NAMES.len()).contains(&players) {
        return Err(bad(&format!("{players} players")));
    }
    let lowest = digit(chars.next(), "lowest rank")?;
    let highest = digit(chars.next(), "highest rank")?;
    if highest < lowest {
        return Err(bad("the highest rank is below the lowest"));
    }
    let span = highest - lowest + 1;
    let deck = chars
        .map(|c| {
            let i = index_of(c).ok_or_else(|| bad(&format!("`{c}` in the deck")))?;
            Ok(DeckCard {
                suit_index: i / span,
                rank: i % span + lowest,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let mut chars = actions.chars();
    let min_type = digit(chars.next(), "lowest action type")?;
    let max_type = digit(chars.next(), "highest action type")?;
    if max_type < min_type {
        return Err(bad("the highest action type is below the lowest"));
    }
    let type_span = max_type - min_type + 1;
    let rest: Vec<char> = chars.collect();
    if !rest.len().is_multiple_of(2) {
        return Err(bad("an action is cut short"));
    }
    let actions = rest
        .chunks(2)
        .map(|pair| {
            let code = index_of(pair[0]).ok_or_else(|| bad(&format!("`{}`", pair[0])))?;
            let target = index_of(pair[1]).ok_or_else(|| bad(&format!("`{}`", pair[1])))?;
            let v = code / type_span;
            Ok(ExportAction {
                kind: code % type_span + min_type,
                target,
                value: (v > 0).then_some(v - 1),
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let variant_id: u32 = variant
        .parse()
        .map_err(|_| bad(&format!("variant id `{variant}`")))?;
    let name = Catalogue::builtin()
        .by_id(variant_id)
        .ok_or_else(|| Error::UnknownVariant(format!("id {variant_id}")))?
        .name
        .clone();
    Ok(GameExport {
        id: None,
        players: LINK_NAMES[..players]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        deck,
        actions,
        options: Some(GameOptions {
            variant: Some(name),
            ..GameOptions::default()
        }),
        seed: None,
    })
}
