//! The catalogue's text form: one record a line, fields separated by tabs, lists by commas, `-`
//! for an empty list or no properties, `#` starting a comment.
//!
//! ```text
//! C  name  abbreviation
//! S  name  abbreviation  display-name  clue-colours  properties
//! V  id  name  suits  clue-colours  clue-ranks  stack-size  flags
//! ```
//!
//! Colours come before the suits that name them and suits before the variants. A variant's suits
//! are named as the variant names them ("Teal Reversed" for a reversed Teal). Suit properties and
//! variant flags carry the site's property names; a special or critical rank is written
//! `specialRank=1` or `criticalRank=4`.

use super::{
    Catalogue, CatalogueError, ColorFacts, SpecialRank, SuitFacts, VariantFacts, VariantFlags,
};

/// The comment at the top of the generated table: where the facts come from and how to
/// regenerate them.
const HEADER: &str = "\
# hanab.live variant facts, one record a line, fields separated by tabs.
# The facts come from hanab.live (github.com/Hanabi-Live/hanabi-live): its variants.json,
# suits.json and colors.json are GPL-3.0 data; this table holds only facts read from them.
# Regenerate: cargo run --example gen_variants -- ../shared/data/hanablive-variants > data/variants.tsv
#
# C <name> <abbreviation>
# S <name> <abbreviation> <display name> <clue colours> <properties>
# V <id> <name> <suits> <clue colours> <clue ranks> <stack size> <flags>
# Lists are comma-separated, - when empty. Properties and flags use the site's names.
";

/// The table for `catalogue`, header included.
pub(super) fn write(catalogue: &Catalogue) -> String {
    let mut out = String::from(HEADER);
    for c in &catalogue.colors {
        out.push_str(&format!("C\t{}\t{}\n", c.name, c.abbreviation));
    }
    for s in &catalogue.suits {
        out.push_str(&suit_line(s));
    }
    for v in &catalogue.variants {
        out.push_str(&variant_line(v));
    }
    out
}

fn suit_line(s: &SuitFacts) -> String {
    let properties = [
        ("allClueColors", s.all_clue_colors),
        ("allClueRanks", s.all_clue_ranks),
        ("noClueColors", s.no_clue_colors),
        ("noClueRanks", s.no_clue_ranks),
        ("prism", s.prism),
        ("oneOfEach", s.one_of_each),
        ("inverted", s.inverted),
    ];
    let properties: Vec<String> = properties
        .iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| name.to_string())
        .collect();
    format!(
        "S\t{}\t{}\t{}\t{}\t{}\n",
        s.name,
        s.abbreviation,
        s.display_name,
        list(&s.clue_colors),
        words(&properties)
    )
}

fn variant_line(v: &VariantFacts) -> String {
    let mut flags = Vec::new();
    if let Some(sr) = &v.special_rank {
        flags.push(format!("specialRank={}", sr.rank));
        for (name, on) in special_properties(sr) {
            if on {
                flags.push(name.to_string());
            }
        }
    }
    if let Some(r) = v.critical_rank {
        flags.push(format!("criticalRank={r}"));
    }
    for (name, on) in v.flags.named() {
        if on {
            flags.push(name.to_string());
        }
    }
    let ranks: Vec<String> = v.clue_ranks.iter().map(u8::to_string).collect();
    format!(
        "V\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
        v.id,
        v.name,
        list(&v.suit_names()),
        list(&v.clue_colors),
        list(&ranks),
        v.stack_size,
        words(&flags)
    )
}

/// The special rank's properties with the site's names, for writing and reading alike.
fn special_properties(sr: &SpecialRank) -> [(&'static str, bool); 5] {
    [
        ("specialRankAllClueColors", sr.all_clue_colors),
        ("specialRankAllClueRanks", sr.all_clue_ranks),
        ("specialRankNoClueColors", sr.no_clue_colors),
        ("specialRankNoClueRanks", sr.no_clue_ranks),
        ("specialRankDeceptive", sr.deceptive),
    ]
}

fn list(items: &[String]) -> String {
    match items.is_empty() {
        true => "-".to_string(),
        false => items.join(","),
    }
}

fn words(items: &[String]) -> String {
    match items.is_empty() {
        true => "-".to_string(),
        false => items.join(" "),
    }
}

/// Reads a table, checking each record as it goes.
pub(super) fn parse(text: &str) -> Result<Catalogue, CatalogueError> {
    let mut colors = Vec::new();
    let mut suits = Vec::new();
    let mut variants = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let at = |e: String| CatalogueError::new(format!("variant table line {}: {e}", i + 1));
        match fields[0] {
            "C" => colors.push(parse_color(&fields).map_err(at)?),
            "S" => suits.push(parse_suit(&fields, &colors).map_err(at)?),
            "V" => variants.push(parse_variant(&fields, &suits, &colors).map_err(at)?),
            other => return Err(at(format!("unknown record type {other:?} (C, S or V)"))),
        }
    }
    Catalogue::new(colors, suits, variants)
}

/// Checks the field count of a record.
fn expect_fields(fields: &[&str], n: usize, what: &str) -> Result<(), String> {
    match fields.len() == n {
        true => Ok(()),
        false => Err(format!(
            "a {what} record has {n} tab-separated fields, this one {}",
            fields.len()
        )),
    }
}

fn parse_color(fields: &[&str]) -> Result<ColorFacts, String> {
    expect_fields(fields, 3, "colour")?;
    Ok(ColorFacts {
        name: fields[1].to_string(),
        abbreviation: parse_letter(fields[2])?,
    })
}

fn parse_letter(text: &str) -> Result<char, String> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_uppercase() => Ok(c),
        _ => Err(format!(
            "abbreviation {text:?} is not one upper-case letter"
        )),
    }
}

fn parse_suit(fields: &[&str], colors: &[ColorFacts]) -> Result<SuitFacts, String> {
    expect_fields(fields, 6, "suit")?;
    let mut suit = SuitFacts {
        name: fields[1].to_string(),
        abbreviation: parse_letter(fields[2])?,
        display_name: fields[3].to_string(),
        clue_colors: parse_colors(fields[4], colors)?,
        all_clue_colors: false,
        all_clue_ranks: false,
        no_clue_colors: false,
        no_clue_ranks: false,
        prism: false,
        one_of_each: false,
        inverted: false,
        reversed: false,
    };
    for word in split_words(fields[5]) {
        let flag = match word {
            "allClueColors" => &mut suit.all_clue_colors,
            "allClueRanks" => &mut suit.all_clue_ranks,
            "noClueColors" => &mut suit.no_clue_colors,
            "noClueRanks" => &mut suit.no_clue_ranks,
            "prism" => &mut suit.prism,
            "oneOfEach" => &mut suit.one_of_each,
            "inverted" => &mut suit.inverted,
            other => return Err(format!("unknown suit property {other:?}")),
        };
        *flag = true;
    }
    Ok(suit)
}

fn parse_variant(
    fields: &[&str],
    all_suits: &[SuitFacts],
    colors: &[ColorFacts],
) -> Result<VariantFacts, String> {
    expect_fields(fields, 8, "variant")?;
    let id = fields[1]
        .parse()
        .map_err(|_| format!("variant id {:?} is not a number", fields[1]))?;
    let suits = split_list(fields[3])
        .map(|name| {
            Catalogue::suit_for_variant(all_suits, name)
                .ok_or_else(|| format!("suit {name:?} is not listed before it"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if suits.is_empty() {
        return Err("a variant needs at least one suit".to_string());
    }
    let clue_ranks = split_list(fields[5])
        .map(|r| parse_rank(r, "rank clue"))
        .collect::<Result<_, _>>()?;
    let mut variant = VariantFacts {
        id,
        name: fields[2].to_string(),
        suits,
        clue_colors: parse_colors(fields[4], colors)?,
        clue_ranks,
        stack_size: parse_rank(fields[6], "stack size")?,
        special_rank: None,
        critical_rank: None,
        flags: VariantFlags::default(),
    };
    for word in split_words(fields[7]) {
        apply_flag(&mut variant, word)?;
    }
    Ok(variant)
}

/// Sets one variant flag word on `v`.
fn apply_flag(v: &mut VariantFacts, word: &str) -> Result<(), String> {
    if let Some(r) = word.strip_prefix("specialRank=") {
        v.special_rank = Some(SpecialRank {
            rank: parse_rank(r, "special rank")?,
            all_clue_colors: false,
            all_clue_ranks: false,
            no_clue_colors: false,
            no_clue_ranks: false,
            deceptive: false,
        });
        return Ok(());
    }
    if let Some(r) = word.strip_prefix("criticalRank=") {
        v.critical_rank = Some(parse_rank(r, "critical rank")?);
        return Ok(());
    }
    if let Some(sr) = v.special_rank.as_mut() {
        let flag = match word {
            "specialRankAllClueColors" => Some(&mut sr.all_clue_colors),
            "specialRankAllClueRanks" => Some(&mut sr.all_clue_ranks),
            "specialRankNoClueColors" => Some(&mut sr.no_clue_colors),
            "specialRankNoClueRanks" => Some(&mut sr.no_clue_ranks),
            "specialRankDeceptive" => Some(&mut sr.deceptive),
            _ => None,
        };
        if let Some(flag) = flag {
            *flag = true;
            return Ok(());
        }
    }
    match v.flags.set(word) {
        true => Ok(()),
        false => Err(format!("unknown variant flag {word:?}")),
    }
}

/// A rank-like number 1..=5.
fn parse_rank(text: &str, what: &str) -> Result<u8, String> {
    match text.parse() {
        Ok(r @ 1..=5) => Ok(r),
        _ => Err(format!("{what} {text:?} is not 1 to 5")),
    }
}

fn parse_colors(field: &str, colors: &[ColorFacts]) -> Result<Vec<String>, String> {
    split_list(field)
        .map(|name| match colors.iter().any(|c| c.name == name) {
            true => Ok(name.to_string()),
            false => Err(format!("colour {name:?} is not listed before it")),
        })
        .collect()
}

fn split_list(field: &str) -> impl Iterator<Item = &str> {
    field.split(',').filter(move |_| field != "-")
}

fn split_words(field: &str) -> impl Iterator<Item = &str> {
    field.split(' ').filter(move |_| field != "-")
}
