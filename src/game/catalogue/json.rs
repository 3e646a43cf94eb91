//! Reading hanab.live's `colors.json`, `suits.json` and `variants.json` into facts, resolving the
//! defaults the site fills in (abbreviations, a suit's clue colours, a variant's clue colours and
//! ranks, the stack size).
//!
//! Unknown properties are refused rather than skipped: a property added on the site may change
//! the rules, and an exact solver must not play a variant by rules it only half knows.

use serde::de::IgnoredAny;
use serde::Deserialize;

use super::{
    Catalogue, CatalogueError, ColorFacts, SpecialRank, SuitFacts, VariantFacts, VariantFlags,
};

/// The ranks a rank clue can name when a variant does not list them.
const DEFAULT_CLUE_RANKS: [u8; 5] = [1, 2, 3, 4, 5];
/// Cards per stack when a variant does not say.
const DEFAULT_STACK_SIZE: u8 = 5;

// The fields read only to accept them (the cosmetic ones) start with an underscore.

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ColorJson {
    name: String,
    abbreviation: Option<String>,
    #[serde(rename = "fill")]
    _fill: Option<IgnoredAny>,
    #[serde(rename = "fillColorblind")]
    _fill_colorblind: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SuitJson {
    name: String,
    #[serde(rename = "id")]
    _id: Option<IgnoredAny>,
    abbreviation: Option<String>,
    display_name: Option<String>,
    clue_colors: Option<Vec<String>>,
    #[serde(default)]
    all_clue_colors: bool,
    #[serde(default)]
    all_clue_ranks: bool,
    #[serde(default)]
    no_clue_colors: bool,
    #[serde(default)]
    no_clue_ranks: bool,
    #[serde(default)]
    prism: bool,
    #[serde(default)]
    one_of_each: bool,
    #[serde(default)]
    inverted: bool,
    #[serde(rename = "createVariants")]
    _create_variants: Option<IgnoredAny>,
    #[serde(rename = "fill")]
    _fill: Option<IgnoredAny>,
    #[serde(rename = "fillColorblind")]
    _fill_colorblind: Option<IgnoredAny>,
    #[serde(rename = "fillColors")]
    _fill_colors: Option<IgnoredAny>,
    #[serde(rename = "pip")]
    _pip: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct VariantJson {
    id: u32,
    name: String,
    #[serde(rename = "newID")]
    _new_id: Option<IgnoredAny>,
    suits: Vec<String>,
    clue_colors: Option<Vec<String>>,
    clue_ranks: Option<Vec<u8>>,
    stack_size: Option<u8>,
    special_rank: Option<u8>,
    #[serde(default)]
    special_rank_all_clue_colors: bool,
    #[serde(default)]
    special_rank_all_clue_ranks: bool,
    #[serde(default)]
    special_rank_no_clue_colors: bool,
    #[serde(default)]
    special_rank_no_clue_ranks: bool,
    #[serde(default)]
    special_rank_deceptive: bool,
    critical_rank: Option<u8>,
    #[serde(default)]
    scarce_ones: bool,
    #[serde(default)]
    up_or_down: bool,
    #[serde(default)]
    sudoku: bool,
    #[serde(default)]
    odds_and_evens: bool,
    #[serde(default)]
    funnels: bool,
    #[serde(default)]
    chimneys: bool,
    #[serde(default)]
    synesthesia: bool,
    #[serde(default)]
    color_clues_touch_nothing: bool,
    #[serde(default)]
    rank_clues_touch_nothing: bool,
    #[serde(default)]
    cow_and_pig: bool,
    #[serde(default)]
    duck: bool,
    #[serde(default)]
    throw_it_in_a_hole: bool,
    #[serde(default)]
    clue_starved: bool,
    #[serde(default)]
    alternating_clues: bool,
}

/// Parses one of the site's JSON arrays, naming the file in the error.
fn parse_array<T: for<'de> Deserialize<'de>>(
    file: &str,
    text: &str,
) -> Result<Vec<T>, CatalogueError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str(text).map_err(|e| CatalogueError::new(format!("{file}: {e}")))
}

/// The colours of `colors.json`; a colour without an abbreviation is abbreviated by its first
/// letter, as the site does.
pub(super) fn colors(text: &str) -> Result<Vec<ColorFacts>, CatalogueError> {
    parse_array::<ColorJson>("colors.json", text)?
        .into_iter()
        .map(|c| {
            check_name("colors.json", "colour", &c.name)?;
            let abbreviation = letter("colors.json", &c.name, c.abbreviation.as_deref())?;
            Ok(ColorFacts {
                name: c.name,
                abbreviation,
            })
        })
        .collect()
}

/// The suits of `suits.json`, with the site's defaults filled in.
pub(super) fn suits(text: &str, colors: &[ColorFacts]) -> Result<Vec<SuitFacts>, CatalogueError> {
    parse_array::<SuitJson>("suits.json", text)?
        .into_iter()
        .map(|s| suit(s, colors))
        .collect()
}

fn suit(s: SuitJson, colors: &[ColorFacts]) -> Result<SuitFacts, CatalogueError> {
    check_name("suits.json", "suit", &s.name)?;
    let same_name = colors.iter().find(|c| c.name == s.name);
    // The site's abbreviation: the file's, else the same-named colour's, else the first letter.
    let abbreviation = match (&s.abbreviation, same_name) {
        (None, Some(color)) => color.abbreviation,
        (given, _) => letter("suits.json", &s.name, given.as_deref())?,
    };
    let clue_colors = suit_clue_colors(&s, colors)?;
    Ok(SuitFacts {
        display_name: s.display_name.clone().unwrap_or_else(|| s.name.clone()),
        name: s.name,
        abbreviation,
        clue_colors,
        all_clue_colors: s.all_clue_colors,
        all_clue_ranks: s.all_clue_ranks,
        no_clue_colors: s.no_clue_colors,
        no_clue_ranks: s.no_clue_ranks,
        prism: s.prism,
        one_of_each: s.one_of_each,
        inverted: s.inverted,
        reversed: false,
    })
}

/// A suit's clue colours as the site derives them: the listed ones; none for "Unknown" and for
/// the suits whose touching follows a flag (all colours, no colour, prism); else the colour of
/// the same name.
fn suit_clue_colors(s: &SuitJson, colors: &[ColorFacts]) -> Result<Vec<String>, CatalogueError> {
    if let Some(listed) = &s.clue_colors {
        let what = format!("suit {:?}", s.name);
        return listed
            .iter()
            .map(|c| known_color(colors, "suits.json", &what, c))
            .collect();
    }
    if s.name == "Unknown" || s.all_clue_colors || s.no_clue_colors || s.prism {
        return Ok(Vec::new());
    }
    match colors.iter().find(|c| c.name == s.name) {
        Some(c) => Ok(vec![c.name.clone()]),
        None => Err(CatalogueError::new(format!(
            "suits.json: suit {:?} lists no clue colours and no colour has its name",
            s.name
        ))),
    }
}

/// The variants of `variants.json`, their suits looked up in `suits`.
pub(super) fn variants(
    text: &str,
    suits: &[SuitFacts],
    colors: &[ColorFacts],
) -> Result<Vec<VariantFacts>, CatalogueError> {
    parse_array::<VariantJson>("variants.json", text)?
        .into_iter()
        .map(|v| variant(v, suits, colors))
        .collect()
}

fn variant(
    v: VariantJson,
    all_suits: &[SuitFacts],
    colors: &[ColorFacts],
) -> Result<VariantFacts, CatalogueError> {
    let what = format!("variant {} {:?}", v.id, v.name);
    let fail = |message: String| CatalogueError::new(format!("variants.json: {what}: {message}"));
    check_name("variants.json", "variant", &v.name)?;
    if v.suits.is_empty() {
        return Err(fail("it has no suits".to_string()));
    }
    let mut suits = Vec::with_capacity(v.suits.len());
    for name in &v.suits {
        match Catalogue::suit_for_variant(all_suits, name) {
            Some(s) => suits.push(s),
            None => return Err(fail(format!("suit {name:?} does not exist"))),
        }
    }
    let clue_colors = match &v.clue_colors {
        Some(listed) => listed
            .iter()
            .map(|c| known_color(colors, "variants.json", &what, c))
            .collect::<Result<_, _>>()?,
        None => derived_clue_colors(&suits),
    };
    let clue_ranks = v.clue_ranks.clone().unwrap_or(DEFAULT_CLUE_RANKS.to_vec());
    if let Some(r) = clue_ranks.iter().find(|r| !(1..=5).contains(*r)) {
        return Err(fail(format!("rank clue {r} is not 1 to 5")));
    }
    let stack_size = v.stack_size.unwrap_or(DEFAULT_STACK_SIZE);
    if !(1..=5).contains(&stack_size) {
        return Err(fail(format!("stack size {stack_size} is not 1 to 5")));
    }
    if v.up_or_down != v.name.starts_with("Up or Down") {
        // The site adds START by the name and plays by the flag; they must agree.
        return Err(fail("the upOrDown flag and the name disagree".to_string()));
    }
    let special_rank = special_rank(&v).map_err(fail)?;
    if let Some(r) = v.critical_rank.filter(|r| !(1..=5).contains(r)) {
        return Err(fail(format!("critical rank {r} is not 1 to 5")));
    }
    Ok(VariantFacts {
        flags: flags(&v),
        id: v.id,
        name: v.name,
        suits,
        clue_colors,
        clue_ranks,
        stack_size,
        special_rank,
        critical_rank: v.critical_rank,
    })
}

/// A variant's clue colours when it lists none: every clue colour of its suits, first seen
/// first, skipping the all-colour suits (they would add every colour).
fn derived_clue_colors(suits: &[SuitFacts]) -> Vec<String> {
    let mut colors: Vec<String> = Vec::new();
    for suit in suits.iter().filter(|s| !s.all_clue_colors) {
        for c in &suit.clue_colors {
            if !colors.contains(c) {
                colors.push(c.clone());
            }
        }
    }
    colors
}

/// The special rank, refusing properties given without a rank (they would mean nothing).
fn special_rank(v: &VariantJson) -> Result<Option<SpecialRank>, String> {
    let properties = [
        v.special_rank_all_clue_colors,
        v.special_rank_all_clue_ranks,
        v.special_rank_no_clue_colors,
        v.special_rank_no_clue_ranks,
        v.special_rank_deceptive,
    ];
    let Some(rank) = v.special_rank else {
        return match properties.contains(&true) {
            true => Err("special-rank properties without a specialRank".to_string()),
            false => Ok(None),
        };
    };
    if !(1..=5).contains(&rank) {
        return Err(format!("special rank {rank} is not 1 to 5"));
    }
    Ok(Some(SpecialRank {
        rank,
        all_clue_colors: v.special_rank_all_clue_colors,
        all_clue_ranks: v.special_rank_all_clue_ranks,
        no_clue_colors: v.special_rank_no_clue_colors,
        no_clue_ranks: v.special_rank_no_clue_ranks,
        deceptive: v.special_rank_deceptive,
    }))
}

fn flags(v: &VariantJson) -> VariantFlags {
    VariantFlags {
        scarce_ones: v.scarce_ones,
        up_or_down: v.up_or_down,
        sudoku: v.sudoku,
        odds_and_evens: v.odds_and_evens,
        funnels: v.funnels,
        chimneys: v.chimneys,
        synesthesia: v.synesthesia,
        color_clues_touch_nothing: v.color_clues_touch_nothing,
        rank_clues_touch_nothing: v.rank_clues_touch_nothing,
        cow_and_pig: v.cow_and_pig,
        duck: v.duck,
        throw_it_in_a_hole: v.throw_it_in_a_hole,
        clue_starved: v.clue_starved,
        alternating_clues: v.alternating_clues,
    }
}

/// `name` if it is a colour, else an error naming who asked for it.
fn known_color(
    colors: &[ColorFacts],
    file: &str,
    what: &str,
    name: &str,
) -> Result<String, CatalogueError> {
    match colors.iter().any(|c| c.name == name) {
        true => Ok(name.to_string()),
        false => Err(CatalogueError::new(format!(
            "{file}: {what}: clue colour {name:?} does not exist"
        ))),
    }
}

/// The one-letter abbreviation: the given one, else the name's first letter; upper case.
fn letter(file: &str, name: &str, given: Option<&str>) -> Result<char, CatalogueError> {
    let text = given.unwrap_or(name);
    let mut chars = text.chars();
    let first = chars.next().filter(|c| c.is_ascii_uppercase());
    match (first, given.is_some() && chars.next().is_some()) {
        (Some(c), false) => Ok(c),
        _ => Err(CatalogueError::new(format!(
            "{file}: {name:?}: the abbreviation must be one upper-case letter, not {text:?}"
        ))),
    }
}

/// Names go into a tab-separated table with comma-separated lists, so they must not hold those.
fn check_name(file: &str, what: &str, name: &str) -> Result<(), CatalogueError> {
    if name.is_empty() || name.contains(['\t', ',', '\n', '\r']) || name.trim() != name {
        return Err(CatalogueError::new(format!(
            "{file}: the {what} name {name:?} is empty or holds a tab, comma, line break or edge space"
        )));
    }
    Ok(())
}
