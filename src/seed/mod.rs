//! hanab.live seeds: reading seed names and dealing exactly the deck hanab.live deals for a seed.
//!
//! hanab.live names a seed `p{players}v{variant id}s{suffix}` (`p2v0s1`; the suffix is a number
//! for ordinary games and any text for games started with a chosen seed). To shuffle, it hashes
//! the whole seed string with CRC-64 (ECMA polynomial, reflected, all-ones start and end: the
//! parameters named CRC-64/XZ), seeds Go's `math/rand` with the hash taken as a signed 64-bit
//! number, and runs an ascending Fisher-Yates shuffle over the unshuffled deck: for each index
//! `i` from the top, swap card `i` with card `Intn(i + 1)`.

mod gorand;

pub use gorand::GoRand;

use crate::error::Error;
use crate::game::card::Card;
use crate::game::rules::MAX_PLAYERS;
use crate::game::variant::Variant;

/// How hanab.live marks seeds of games imported from its predecessor (`legacy-10-p2v0s1`).
/// The site drops the first [`LEGACY_DROPPED`] bytes of such a seed before hashing, whatever
/// they are, and fails on a shorter one.
const LEGACY_PREFIX: &str = "legacy-";

/// Bytes of a `legacy-` seed that hanab.live does not hash.
const LEGACY_DROPPED: usize = 9;

/// The bytes hanab.live hashes for `seed`: all of them, or for a `legacy-` seed all but the
/// first nine.
fn hashed_bytes(seed: &str) -> &[u8] {
    let bytes = seed.as_bytes();
    if seed.starts_with(LEGACY_PREFIX) {
        &bytes[LEGACY_DROPPED.min(bytes.len())..]
    } else {
        bytes
    }
}

/// The seed a hanab.live seed link names: `https://hanab.live/seed/p2v0s1` (also with
/// `http://`, `www.`, no scheme, or a trailing `/`, `?...` or `#...`) is `p2v0s1`; any other
/// text is itself. The site's seed pages show every game played on that seed, so players copy
/// these links; the deal is the seed's.
///
/// ```
/// use hanabi_solver::seed::seed_from_link;
/// assert_eq!(seed_from_link("https://hanab.live/seed/p2v0s1"), "p2v0s1");
/// assert_eq!(seed_from_link("hanab.live/seed/p3v2s17/"), "p3v2s17");
/// assert_eq!(seed_from_link("p2v0s1"), "p2v0s1");
/// ```
pub fn seed_from_link(text: &str) -> &str {
    let rest = ["https://", "http://"]
        .iter()
        .find_map(|scheme| text.strip_prefix(scheme))
        .unwrap_or(text);
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    match rest.strip_prefix("hanab.live/seed/") {
        Some(seed) => {
            let end = seed.find(['?', '#']).unwrap_or(seed.len());
            seed[..end].trim_end_matches('/')
        }
        None => text,
    }
}

/// Reads a hanab.live seed name.
///
/// Returns `Some((players, variant_id))` for a name `p{players}v{variant id}s{suffix}` (also
/// behind a `legacy-{anything}-` prefix), `None` for a string that does not start like one (`p`
/// then a digit), which is then just some other seed string, and an error for a string that
/// starts like a seed name but does not follow the pattern, or a `legacy-` seed too short for
/// the site to hash. The variant id is not checked against the known variants here.
///
/// ```
/// use hanabi_solver::seed::parse_seed_name;
/// assert_eq!(parse_seed_name("p4v0s415").unwrap(), Some((4, 0)));
/// assert_eq!(parse_seed_name("hello").unwrap(), None);
/// assert!(parse_seed_name("p2v0").is_err());
/// assert_eq!(parse_seed_name("legacy-10-p3v2s5").unwrap(), Some((3, 2)));
/// assert!(parse_seed_name("legacy-1").is_err());
/// ```
pub fn parse_seed_name(name: &str) -> Result<Option<(u8, u32)>, Error> {
    let body = match name.strip_prefix(LEGACY_PREFIX) {
        Some(_) if name.len() < LEGACY_DROPPED => {
            return Err(Error::Seed(
                name.to_string(),
                format!(
                    "a legacy- seed needs at least {LEGACY_DROPPED} bytes: hanab.live drops the \
                     first {LEGACY_DROPPED} before hashing"
                ),
            ))
        }
        // The game's name follows the next dash: `legacy-10-p2v0s1`.
        Some(rest) => match rest.split_once('-') {
            Some((_, body)) => body,
            None => return Ok(None),
        },
        None => name,
    };
    let starts_like_seed =
        body.starts_with('p') && body[1..].starts_with(|c: char| c.is_ascii_digit());
    if !starts_like_seed {
        return Ok(None);
    }
    let bad = |reason: String| Err(Error::Seed(name.to_string(), reason));
    let expected = "hanab.live seed names look like p{players}v{variant id}s{suffix}, e.g. p2v0s1";

    let rest = &body[1..];
    let (players, rest) = split_number(rest);
    let Some(rest) = rest.strip_prefix('v') else {
        return bad(format!("expected 'v' after the player count; {expected}"));
    };
    let (variant, rest) = split_number(rest);
    if variant.is_empty() {
        return bad(format!(
            "expected a variant id (digits) after 'v'; {expected}"
        ));
    }
    let Some(suffix) = rest.strip_prefix('s') else {
        return bad(format!("expected 's' after the variant id; {expected}"));
    };
    if suffix.is_empty() {
        return bad(format!("nothing after 's'; {expected}"));
    }
    for (what, digits) in [("player count", players), ("variant id", variant)] {
        if digits.len() > 1 && digits.starts_with('0') {
            return bad(format!(
                "the {what} {digits} has a leading zero, which hanab.live never writes"
            ));
        }
    }
    let players: u8 = match players.parse() {
        Ok(p) if (2..=MAX_PLAYERS as u8).contains(&p) => p,
        _ => {
            return bad(format!(
                "hanab.live games have 2 to {MAX_PLAYERS} players, not {players}"
            ))
        }
    };
    let Ok(variant) = variant.parse::<u32>() else {
        return bad(format!("variant id {variant} is too large"));
    };
    Ok(Some((players, variant)))
}

/// Splits the leading ASCII digits off `text`.
fn split_number(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    text.split_at(end)
}

/// The 64-bit number hanab.live seeds Go's generator with for `seed`: the CRC-64/XZ of the
/// seed's bytes (a `legacy-` seed's without its first nine), reinterpreted as signed.
pub fn seed_number(seed: &str) -> i64 {
    crc::Crc::<u64>::new(&crc::CRC_64_XZ).checksum(hashed_bytes(seed)) as i64
}

/// The variant's deck shuffled as hanab.live shuffles it for `seed`, top first (`deck[0]` is the
/// first card dealt).
///
/// `seed` is the whole seed string (`p2v0s1`, not just its suffix); any string can be shuffled
/// with, whether or not it is a hanab.live seed name.
pub fn shuffled_deck(seed: &str, variant: &Variant) -> Vec<Card> {
    let mut deck = variant.deck();
    shuffle_for_seed(seed, &mut deck);
    deck
}

/// Shuffles `items` in place exactly as hanab.live shuffles an unshuffled deck for `seed`.
///
/// The shuffle depends only on the seed string and the number of items, so any representation of
/// the cards (this crate's [`Card`], or `(suit index, rank)` pairs for variants [`Card`] cannot
/// hold) comes out in the site's order.
///
/// ```
/// use hanabi_solver::seed::shuffle_for_seed;
/// let mut items: Vec<u32> = (0..10).collect();
/// shuffle_for_seed("p2v0s1", &mut items);
/// let mut sorted = items.clone();
/// sorted.sort();
/// assert_eq!(sorted, (0..10).collect::<Vec<_>>());
/// ```
pub fn shuffle_for_seed<T>(seed: &str, items: &mut [T]) {
    let mut rng = GoRand::new(seed_number(seed));
    for i in 0..items.len() {
        let j = rng.intn(i + 1);
        items.swap(i, j);
    }
}

/// The same as [`shuffled_deck`]: the deck hanab.live deals for `seed` in `variant`, top first.
pub fn deck_for_seed(seed: &str, variant: &Variant) -> Vec<Card> {
    shuffled_deck(seed, variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_number_is_crc64_xz() {
        // The standard CRC-64/XZ check value: the CRC of "123456789".
        assert_eq!(seed_number("123456789") as u64, 0x995d_c9bb_df19_39fa);
    }

    /// HANABLIVE.md: `legacy-10-p2v0s1` hashes `-p2v0s1`.
    #[test]
    fn legacy_seeds_hash_all_but_their_first_nine_bytes() {
        assert_eq!(seed_number("legacy-10-p2v0s1"), seed_number("-p2v0s1"));
        assert_eq!(seed_number("legacy-x-p2v0s1"), seed_number("p2v0s1"));
        let crc = crc::Crc::<u64>::new(&crc::CRC_64_XZ);
        assert_eq!(
            seed_number("legacy-1é"),
            crc.checksum(&"legacy-1é".as_bytes()[9..]) as i64
        );
        assert_eq!(seed_number("x-p2v0s1"), crc.checksum(b"x-p2v0s1") as i64);
    }

    #[test]
    fn shuffled_deck_is_a_permutation() {
        let v = Variant::by_id(2).unwrap();
        let mut a = shuffled_deck("p3v2s17", &v);
        let mut b = v.deck();
        assert_ne!(a, b);
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }
}
