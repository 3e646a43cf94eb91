//! `hanabi-solver variants`: browse the catalogue of every hanab.live variant.
//!
//! The catalogue (`hanabi_solver::game::catalogue`) knows far more variants than the solver
//! plays, so this command says for each one which rules it changes and whether the solver can
//! play it, rather than leaving users to guess from the name. The JSON of one variant uses the
//! terms of hanab.live's own code (the `touch` table keyed `"suitIndex:rank"`), so it can be
//! checked against the site.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Args;
use hanabi_solver::game::catalogue::{
    Catalogue, RuleFamily, SpecialRank, SuitFacts, VariantFacts, START_RANK,
};
use hanabi_solver::game::variant::Variant;
use serde_json::{json, Value};

/// The examples at the end of `variants --help`.
const EXAMPLES: &str = "\
Examples:
  hanabi-solver variants                      every variant: id, name, what is special
  hanabi-solver variants pink                 the variants whose name contains \"pink\"
  hanabi-solver variants dark rainbow 6       names containing all three words
  hanabi-solver variants 107                  one variant by id
  hanabi-solver variants \"rainbow (5 suits)\"  one variant by exact name, any case
  hanabi-solver variants 16 --json            the same facts as JSON
  hanabi-solver variants --variants-json hanabi-live/packages/data/src/json 16
                                              variant 16 from a newer copy of the site's files

In the touch table each cell lists the colour clues (by letter) and the rank clues (by value)
that touch that card, \"-\" for none: \"RM/3\" is touched by the Red and the M colour clue and by
a 3 clue. In the JSON, touch[\"SUIT:RANK\"] = {\"colors\": [colour clue indices], \"ranks\": [rank
clue values]}, with suits numbered from 0 in the variant's order, as hanab.live's code gives it.
START (Up or Down) is rank 7.";

#[derive(Args, Debug)]
#[command(after_long_help = EXAMPLES)]
pub struct VariantsArgs {
    /// What to show: nothing (every variant), a hanab.live id (one variant), an exact name in
    /// any case (one variant), or words that every listed name must contain (any case).
    #[arg(value_name = "ID|NAME|WORDS")]
    pub query: Vec<String>,
    /// Print JSON instead of text: one object for one variant, else {"count", "variants"}.
    #[arg(long)]
    pub json: bool,
    /// Read the variants from newer copies of hanab.live's files instead of the built-in
    /// table: a folder holding variants.json and suits.json (and colors.json, else the built-in
    /// colours), or the path of a variants.json with suits.json beside it. In the site's
    /// repository they are in packages/data/src/json/.
    #[arg(long, value_name = "DIR|FILE")]
    pub variants_json: Option<PathBuf>,
}

pub fn run(args: VariantsArgs) -> anyhow::Result<()> {
    let loaded;
    let cat = match &args.variants_json {
        Some(path) => {
            loaded = load(path)?;
            &loaded
        }
        None => Catalogue::builtin(),
    };
    let query = args.query.join(" ");
    let query = query.trim();
    if query.is_empty() {
        return list(cat, cat.variants().iter().collect(), &[], args.json);
    }
    if let Ok(id) = query.parse::<u32>() {
        let Some(v) = cat.by_id(id) else {
            let last = cat.variants().last().map_or(0, |v| v.id);
            bail!("no variant has id {id} (ids run from 0 to {last}; `hanabi-solver variants` lists them)");
        };
        return show(cat, v, args.json);
    }
    if let Some(v) = cat.by_name(query) {
        return show(cat, v, args.json);
    }
    let words: Vec<String> = args
        .query
        .iter()
        .flat_map(|q| q.split_whitespace())
        .map(str::to_lowercase)
        .collect();
    let found: Vec<&VariantFacts> = cat
        .variants()
        .iter()
        .filter(|v| {
            let name = v.name.to_lowercase();
            words.iter().all(|w| name.contains(w.as_str()))
        })
        .collect();
    if found.is_empty() {
        let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
        bail!(
            "no variant name contains {}; {}",
            quoted.join(" and "),
            shorter_query(cat, &words)
        );
    }
    list(cat, found, &words, args.json)
}

/// What to try after a search found nothing: a word of the query that matches on its own, else
/// the full list.
fn shorter_query(cat: &Catalogue, words: &[String]) -> String {
    let alone = words.iter().find(|w| {
        cat.variants()
            .iter()
            .any(|v| v.name.to_lowercase().contains(w.as_str()))
    });
    match alone {
        Some(w) if words.len() > 1 => {
            format!("try a shorter query, e.g. `hanabi-solver variants {w}`")
        }
        _ => "try a shorter word, or `hanabi-solver variants` for every name".to_string(),
    }
}

/// Reads the site's files from `path`: a folder holding them, or a variants.json with its
/// suits.json beside it. Every problem is one line naming the file.
pub fn load(path: &Path) -> anyhow::Result<Catalogue> {
    let (dir, variants_path) = if path.is_dir() {
        (path.to_path_buf(), path.join("variants.json"))
    } else {
        let dir = path
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        (dir, path.to_path_buf())
    };
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .with_context(|| format!("--variants-json: reading {}", p.display()))
    };
    let variants = read(&variants_path)?;
    let suits = read(&dir.join("suits.json"))?;
    let colors_path = dir.join("colors.json");
    let colors = if colors_path.exists() {
        Some(read(&colors_path)?)
    } else {
        None
    };
    Catalogue::from_json(&variants, &suits, colors.as_deref()).with_context(|| {
        format!(
            "--variants-json: {} with {}",
            variants_path.display(),
            dir.join("suits.json").display()
        )
    })
}

/// Whether the solver's own rules (`--variant`, seed names) play this variant; the rest are in
/// the catalogue only. Matched by id and name, so a variant loaded from newer files that reuses
/// an id for something else is not claimed.
fn solver_plays(v: &VariantFacts) -> bool {
    Variant::by_id(v.id).is_ok_and(|s| s.name == v.name)
}

/// What a suit's clue properties and deck rules are, in words; empty for an ordinary suit
/// (touched by its own colour only).
fn suit_properties(s: &SuitFacts) -> Vec<String> {
    let mut p = Vec::new();
    if s.one_of_each {
        p.push("one of each rank".to_string());
    }
    if s.all_clue_colors {
        p.push("touched by every colour clue".to_string());
    }
    if s.no_clue_colors {
        p.push("touched by no colour clue".to_string());
    }
    if s.prism {
        p.push("prism: rank r touched by colour clue r-1 (wrapping)".to_string());
    }
    let plain = s.clue_colors.len() == 1 && s.clue_colors[0] == s.name;
    if !s.all_clue_colors && !s.no_clue_colors && !s.prism && !plain && !s.clue_colors.is_empty() {
        p.push(format!("touched by {} clues", s.clue_colors.join(" and ")));
    }
    if s.all_clue_ranks {
        p.push("touched by every rank clue".to_string());
    }
    if s.no_clue_ranks {
        p.push("touched by no rank clue".to_string());
    }
    if s.inverted {
        p.push("orange: playing discards it, discarding plays it".to_string());
    }
    if s.reversed {
        p.push("reversed: played 5 down to 1".to_string());
    }
    p
}

/// What a variant-wide special rank does ("1s touched by every colour clue").
fn special_rank_text(v: &VariantFacts, s: &SpecialRank) -> String {
    let mut p = Vec::new();
    if s.all_clue_colors {
        p.push("touched by every colour clue");
    }
    if s.no_clue_colors {
        p.push("touched by no colour clue");
    }
    if s.all_clue_ranks {
        p.push("touched by every rank clue");
    }
    if s.no_clue_ranks {
        p.push("touched by no rank clue");
    }
    let deceptive;
    if s.deceptive {
        let ranks: Vec<String> = v.clue_ranks.iter().map(u8::to_string).collect();
        deceptive = format!(
            "deceptive: each suit's {} is touched only by another rank clue ({} in suit order, repeating)",
            s.rank,
            ranks.join(", ")
        );
        p.push(&deceptive);
    }
    format!("{}s {}", s.rank, p.join(", "))
}

/// The variant-wide rules other than the play-rule families: clue rules and deck changes.
fn variant_rules(v: &VariantFacts) -> Vec<String> {
    let f = &v.flags;
    let mut p = Vec::new();
    if let Some(s) = &v.special_rank {
        p.push(special_rank_text(v, s));
    }
    if let Some(r) = v.critical_rank {
        p.push(format!("one {r} per suit"));
    }
    // Synesthesia says itself that it has no rank clues.
    let rules = [
        (f.scarce_ones, "two 1s per suit"),
        (f.odds_and_evens, "rank clues are Odd (1) and Even (2)"),
        (f.funnels, "rank clue N touches ranks N and below"),
        (f.chimneys, "rank clue N touches ranks N and above"),
        (
            f.synesthesia,
            "no rank clues; a colour clue also touches the ranks of its prism colour",
        ),
        (
            !f.synesthesia && v.clue_colors.is_empty(),
            "no colour clues",
        ),
        (!f.synesthesia && v.clue_ranks.is_empty(), "no rank clues"),
        (f.color_clues_touch_nothing, "colour clues touch nothing"),
        (f.rank_clues_touch_nothing, "rank clues touch nothing"),
        (f.cow_and_pig, "clues only say Moo (colour) or Oink (rank)"),
        (f.duck, "clues only say Quack"),
    ];
    p.extend(rules.iter().filter(|r| r.0).map(|r| r.1.to_string()));
    p
}

/// One line on what sets a variant apart from No Variant.
fn summary(v: &VariantFacts) -> String {
    let mut parts = Vec::new();
    if v.suits.len() != 5 {
        parts.push(format!("{} suits", v.suits.len()));
    }
    for s in &v.suits {
        let p = suit_properties(s);
        if !p.is_empty() {
            parts.push(format!("{}: {}", s.variant_name(), p.join(", ")));
        }
    }
    parts.extend(variant_rules(v));
    let families = v.rule_families();
    if !families.is_empty() {
        let names: Vec<&str> = families.into_iter().map(RuleFamily::name).collect();
        let note = if solver_plays(v) {
            ""
        } else {
            " (not solvable yet)"
        };
        parts.push(format!("play rules: {}{note}", names.join(", ")));
    }
    if parts.is_empty() {
        parts.push("5 ordinary suits".to_string());
    }
    parts.join("; ")
}

fn list(
    cat: &Catalogue,
    found: Vec<&VariantFacts>,
    words: &[String],
    json: bool,
) -> anyhow::Result<()> {
    if json {
        let variants: Vec<Value> = found
            .iter()
            .map(|v| {
                json!({
                    "id": v.id,
                    "name": v.name,
                    "suits": v.suit_names(),
                    "summary": summary(v),
                    "play_rule_families": families_json(v),
                    "solver_plays": solver_plays(v),
                })
            })
            .collect();
        let out = json!({"count": found.len(), "variants": variants});
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    let width = found
        .iter()
        .map(|v| v.name.chars().count())
        .max()
        .unwrap_or(0);
    for v in &found {
        outln!("{:>4}  {:<width$}  {}", v.id, v.name, summary(v));
    }
    if words.is_empty() {
        outln!(
            "{} variants; `hanabi-solver variants WORDS` searches names, `hanabi-solver variants ID` shows one",
            cat.variants().len()
        );
    } else {
        let plural = if found.len() == 1 { "" } else { "s" };
        outln!(
            "{} variant{plural} whose name contains {}; `hanabi-solver variants ID` shows one",
            found.len(),
            words
                .iter()
                .map(|w| format!("{w:?}"))
                .collect::<Vec<_>>()
                .join(" and ")
        );
    }
    Ok(())
}

fn families_json(v: &VariantFacts) -> Vec<&'static str> {
    v.rule_families()
        .into_iter()
        .map(RuleFamily::name)
        .collect()
}

/// The key of a card in the site's touch table: suit index and rank.
fn card_key(suit: usize, rank: u8) -> String {
    format!("{suit}:{rank}")
}

/// How a rank is written in tables: its number, or S for START.
fn rank_label(rank: u8) -> String {
    if rank == START_RANK {
        "S".to_string()
    } else {
        rank.to_string()
    }
}

/// The letter of a clue colour, from the catalogue's colours (K for Black); a colour the
/// catalogue does not list shows its initial.
fn color_letter(cat: &Catalogue, name: &str) -> char {
    cat.colors()
        .iter()
        .find(|c| c.name == name)
        .map(|c| c.abbreviation)
        .or_else(|| name.chars().next())
        .unwrap_or('?')
}

fn show(cat: &Catalogue, v: &VariantFacts, json: bool) -> anyhow::Result<()> {
    let ranks = v.ranks();
    if json {
        return show_json(v, &ranks);
    }
    outln!("id            {}", v.id);
    outln!("name          {}", v.name);
    if solver_plays(v) {
        outln!(
            "solver        plays it (--variant {}, or seed names p{{players}}v{}s...)",
            v.id,
            v.id
        );
    } else {
        outln!("solver        catalogue only: the solver does not play this variant yet");
    }
    outln!("suits         {}", v.suits.len());
    show_suits(v, &ranks)?;
    outln!("deck          {} cards", v.deck().len());
    outln!("max score     {}", v.max_score());
    show_clues(cat, v)?;
    show_touch(cat, v, &ranks)
}

/// The width of the longest suit name, for the columns.
fn name_width(v: &VariantFacts) -> usize {
    v.suits
        .iter()
        .map(|s| s.variant_name().chars().count())
        .max()
        .unwrap_or(0)
}

/// Each suit with its abbreviation and properties, then the copies of each rank, suits with
/// the same counts on one line.
fn show_suits(v: &VariantFacts, ranks: &[u8]) -> anyhow::Result<()> {
    let name_width = name_width(v);
    for s in &v.suits {
        let p = suit_properties(s);
        let p = if p.is_empty() && !s.clue_colors.is_empty() {
            format!("touched by {} clues", s.clue_colors.join(" and "))
        } else {
            p.join(", ")
        };
        outln!(
            "  {:<name_width$}  {}  {}",
            s.variant_name(),
            s.abbreviation,
            p
        );
    }
    // Copies: suits with the same counts share a line.
    let mut groups: Vec<(Vec<u8>, Vec<String>)> = Vec::new();
    for (i, s) in v.suits.iter().enumerate() {
        let copies: Vec<u8> = ranks.iter().map(|&r| v.copies(i, r)).collect();
        match groups.iter_mut().find(|g| g.0 == copies) {
            Some(g) => g.1.push(s.variant_name()),
            None => groups.push((copies, vec![s.variant_name()])),
        }
    }
    let labels: Vec<String> = ranks.iter().map(|&r| rank_label(r)).collect();
    outln!("copies        of ranks {}:", labels.join(" "));
    for (copies, names) in &groups {
        let counts: Vec<String> = copies.iter().map(u8::to_string).collect();
        outln!("  {}  {}", counts.join(" "), names.join(", "));
    }
    Ok(())
}

/// The colour and rank clues, the variant's clue rules, and its play rules.
fn show_clues(cat: &Catalogue, v: &VariantFacts) -> anyhow::Result<()> {
    let (color_names, rank_names) = v.clue_names();
    let colors: Vec<String> = v
        .clue_colors
        .iter()
        .zip(&color_names)
        .map(|(c, shown)| {
            let letter = color_letter(cat, c);
            if shown == c {
                format!("{c} ({letter})")
            } else {
                format!("{c} ({letter}, shown as {shown})")
            }
        })
        .collect();
    outln!("colour clues  {}", or_none(&colors.join(", ")));
    let rank_clues: Vec<String> = v
        .clue_ranks
        .iter()
        .zip(&rank_names)
        .map(|(r, shown)| {
            if *shown == r.to_string() {
                r.to_string()
            } else {
                format!("{r} ({shown})")
            }
        })
        .collect();
    outln!("rank clues    {}", or_none(&rank_clues.join(", ")));
    let rules = variant_rules(v);
    if !rules.is_empty() {
        outln!("clue rules    {}", rules.join("; "));
    }
    let families = v.rule_families();
    if families.is_empty() {
        outln!("play rules    none: the solver's rules apply");
    } else if solver_plays(v) {
        let rules: Vec<String> = families
            .into_iter()
            .map(|f| format!("{}: {}", f.name(), f.rule()))
            .collect();
        outln!("play rules    {}", rules.join("; "));
    } else {
        let names: Vec<&str> = families.into_iter().map(RuleFamily::name).collect();
        outln!(
            "play rules    {} (catalogue only: the solver does not play these rules yet)",
            names.join(", ")
        );
    }
    Ok(())
}

/// The touch table: for each card, the letters of the colour clues and the values of the rank
/// clues that touch it.
fn show_touch(cat: &Catalogue, v: &VariantFacts, ranks: &[u8]) -> anyhow::Result<()> {
    let name_width = name_width(v);
    let labels: Vec<String> = ranks.iter().map(|&r| rank_label(r)).collect();
    let cells: Vec<Vec<String>> = (0..v.suits.len())
        .map(|s| {
            ranks
                .iter()
                .map(|&r| {
                    let (colors, ranks) = v.touch(s, r);
                    let letters: String = colors
                        .iter()
                        .map(|&c| color_letter(cat, &v.clue_colors[c]))
                        .collect();
                    let numbers: String = ranks.iter().map(u8::to_string).collect();
                    format!("{}/{}", or_dash(&letters), or_dash(&numbers))
                })
                .collect()
        })
        .collect();
    let width = cells
        .iter()
        .flatten()
        .map(String::len)
        .chain(labels.iter().map(String::len))
        .max()
        .unwrap_or(1);
    outln!("touch         colour clue letters / rank clue values touching each card:");
    let header: Vec<String> = labels.iter().map(|l| format!("{l:<width$}")).collect();
    outln!("  {:<name_width$}  {}", "", header.join("  ").trim_end());
    for (s, row) in v.suits.iter().zip(&cells) {
        let row: Vec<String> = row.iter().map(|c| format!("{c:<width$}")).collect();
        outln!(
            "  {:<name_width$}  {}",
            s.variant_name(),
            row.join("  ").trim_end()
        );
    }
    Ok(())
}

fn or_none(text: &str) -> &str {
    if text.is_empty() {
        "none"
    } else {
        text
    }
}

fn or_dash(text: &str) -> &str {
    if text.is_empty() {
        "-"
    } else {
        text
    }
}

/// One variant as JSON: the facts, and the clue table in hanab.live's terms.
fn show_json(v: &VariantFacts, ranks: &[u8]) -> anyhow::Result<()> {
    let suits: Vec<Value> = v
        .suits
        .iter()
        .map(|s| {
            json!({
                "name": s.variant_name(),
                "base_name": s.name,
                "display_name": s.display_name,
                "abbreviation": s.abbreviation.to_string(),
                "clue_colors": s.clue_colors,
                "all_clue_colors": s.all_clue_colors,
                "all_clue_ranks": s.all_clue_ranks,
                "no_clue_colors": s.no_clue_colors,
                "no_clue_ranks": s.no_clue_ranks,
                "prism": s.prism,
                "one_of_each": s.one_of_each,
                "inverted": s.inverted,
                "reversed": s.reversed,
                "properties": suit_properties(s),
            })
        })
        .collect();
    let mut copies = BTreeMap::new();
    let mut touch = BTreeMap::new();
    for s in 0..v.suits.len() {
        for &r in ranks {
            copies.insert(card_key(s, r), v.copies(s, r));
            let (colors, rank_clues) = v.touch(s, r);
            touch.insert(
                card_key(s, r),
                json!({"colors": colors, "ranks": rank_clues}),
            );
        }
    }
    let (color_names, rank_names) = v.clue_names();
    let special_rank = v.special_rank.map(|s| {
        json!({
            "rank": s.rank,
            "all_clue_colors": s.all_clue_colors,
            "all_clue_ranks": s.all_clue_ranks,
            "no_clue_colors": s.no_clue_colors,
            "no_clue_ranks": s.no_clue_ranks,
            "deceptive": s.deceptive,
        })
    });
    let tokens = v.clue_tokens();
    let out = json!({
        "id": v.id,
        "name": v.name,
        "solver_plays": solver_plays(v),
        "summary": summary(v),
        "suits": suits,
        "ranks": ranks,
        "stack_size": v.stack_size,
        "copies": copies,
        "deck_size": v.deck().len(),
        "max_score": v.max_score(),
        "color_clues": v.clue_colors,
        "rank_clues": v.clue_ranks,
        "clue_display_names": {"colors": color_names, "ranks": rank_names},
        "clue_value_revealed": v.clue_value_revealed(),
        "empty_color_clues_allowed_always": v.empty_color_clues_allowed(),
        "empty_rank_clues_allowed_always": v.empty_rank_clues_allowed(),
        "special_rank": special_rank,
        "critical_rank": v.critical_rank,
        "clue_rules": variant_rules(v),
        "play_rule_families": families_json(v),
        "clue_tokens": {
            "scale": tokens.scale,
            "start": tokens.start,
            "max": tokens.max,
            "clue_cost": tokens.clue_cost,
            "discard_gain": tokens.discard_gain,
            "stack_complete_gain": tokens.stack_complete_gain,
            "discard_at_max": tokens.discard_at_max,
        },
        "touch": touch,
    });
    outln!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}
