//! Bench sets: fixed lists of deals in `positions/bench/*.txt` that the `bench` command and the
//! criterion benches solve.
//!
//! A set is one text file; its name is the file name without `.txt`. Lines starting with `#`
//! are comments: the first one describes the set, and a comment `# tags: slow` keeps the set out
//! of the default run. Every other non-empty line is one deal, either
//!
//! - a hanab.live seed name, `p2v0s1`: players and variant come from the name, or
//! - `LABEL PLAYERS VARIANT [CARD...]`: a variant by its CLI name (`no-variant`, `black`, ...),
//!   then the whole deck top first (`r1 y3 ...`; commas and brackets are ignored). Without
//!   cards, `LABEL` is a seed string shuffled as hanab.live would.
//!
//! Every deal uses the default rules for its player count (hand size, 8 clues, 3 strikes).

use std::path::{Path, PathBuf};

use crate::game::card::Card;
use crate::game::rules::{Options, Rules};
use crate::game::variant::Variant;
use crate::seed::{parse_seed_name, shuffled_deck};
use crate::state::{Deal, State};

/// The folder of the committed bench sets (`positions/bench` in this source tree).
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/bench")
}

/// What can go wrong reading bench sets.
#[derive(Debug, thiserror::Error)]
pub enum BenchSetError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} line {line}: {message}")]
    Line {
        path: String,
        line: usize,
        message: String,
    },
    #[error("unknown bench set {name:?}; known sets: {known}")]
    Unknown { name: String, known: String },
}

/// One deal of a set.
#[derive(Clone, Debug)]
pub struct BenchDeal {
    /// The seed name or the label given in the file.
    pub label: String,
    pub rules: Rules,
    /// The whole deck, top first; checked to be the variant's cards.
    pub deck: Vec<Card>,
}

impl BenchDeal {
    /// The deal and its starting position.
    pub fn deal(&self) -> (Deal, State) {
        Deal::from_deck(self.rules.clone(), &self.deck).expect("bench decks are checked on loading")
    }
}

/// A named list of deals.
#[derive(Clone, Debug)]
pub struct BenchSet {
    pub name: String,
    /// The first comment line, without `#`.
    pub description: String,
    /// Tagged `slow`: left out of the default run.
    pub slow: bool,
    pub deals: Vec<BenchDeal>,
}

impl BenchSet {
    /// The deal with this label.
    pub fn find(&self, label: &str) -> Option<&BenchDeal> {
        self.deals.iter().find(|d| d.label == label)
    }
}

/// Reads one deal line (without comments).
fn parse_deal(line: &str) -> Result<BenchDeal, String> {
    let tokens: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']')
        .filter(|t| !t.is_empty())
        .collect();
    let Some(first) = tokens.first() else {
        return Err("no deal on this line".to_string());
    };
    let label = first.to_string();
    let (rules, deck) = if tokens.len() == 1 {
        let Some((players, id)) = parse_seed_name(&label).map_err(|e| e.to_string())? else {
            return Err(format!(
                "{label:?} is not a hanab.live seed name; write `LABEL PLAYERS VARIANT [CARDS...]`"
            ));
        };
        let variant = Variant::by_id(id).map_err(|e| e.to_string())?;
        let rules = Rules::new(variant, players, &Options::default()).map_err(|e| e.to_string())?;
        let deck = shuffled_deck(&label, &rules.variant);
        (rules, deck)
    } else {
        if tokens.len() < 3 {
            return Err("expected `LABEL PLAYERS VARIANT [CARDS...]` or a seed name".to_string());
        }
        let players: u8 = tokens[1]
            .parse()
            .map_err(|_| format!("{:?} is not a number of players", tokens[1]))?;
        let variant = Variant::parse(tokens[2]).map_err(|e| e.to_string())?;
        let rules = Rules::new(variant, players, &Options::default()).map_err(|e| e.to_string())?;
        if let Ok(Some((p, id))) = parse_seed_name(&label) {
            if tokens.len() == 3 && (p != players || rules.variant.id != Some(id)) {
                return Err(format!(
                    "seed {label} is for {p} players and variant id {id}, not what the line says"
                ));
            }
        }
        let deck = if tokens.len() == 3 {
            shuffled_deck(&label, &rules.variant)
        } else {
            tokens[3..]
                .iter()
                .map(|t| rules.variant.parse_card(t))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?
        };
        (rules, deck)
    };
    Deal::from_deck(rules.clone(), &deck).map_err(|e| e.to_string())?;
    Ok(BenchDeal { label, rules, deck })
}

/// Reads a set from its text; `path` is only for error messages.
pub fn parse_set(name: &str, path: &str, text: &str) -> Result<BenchSet, BenchSetError> {
    let mut description = None;
    let mut slow = false;
    let mut deals: Vec<BenchDeal> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |message: String| BenchSetError::Line {
            path: path.to_string(),
            line: i + 1,
            message,
        };
        if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.trim();
            if let Some(tags) = comment.strip_prefix("tags:") {
                for tag in tags.split(|c: char| c.is_whitespace() || c == ',') {
                    match tag {
                        "" => {}
                        "slow" => slow = true,
                        other => return Err(err(format!("unknown tag {other:?} (known: slow)"))),
                    }
                }
            } else if description.is_none() {
                description = Some(comment.to_string());
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let deal = parse_deal(line).map_err(err)?;
        if deals.iter().any(|d| d.label == deal.label) {
            return Err(err(format!("{} is listed twice", deal.label)));
        }
        deals.push(deal);
    }
    if deals.is_empty() {
        return Err(BenchSetError::Line {
            path: path.to_string(),
            line: 0,
            message: "the set has no deals".to_string(),
        });
    }
    Ok(BenchSet {
        name: name.to_string(),
        description: description.unwrap_or_default(),
        slow,
        deals,
    })
}

/// The names of the sets in `dir`, sorted.
pub fn set_names(dir: &Path) -> Result<Vec<String>, BenchSetError> {
    let io = |source| BenchSetError::Io {
        path: dir.display().to_string(),
        source,
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "txt") {
            if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                names.push(stem.to_string());
            }
        }
    }
    names.sort();
    Ok(names)
}

/// Loads the set `name` from `dir`.
pub fn load_set(dir: &Path, name: &str) -> Result<BenchSet, BenchSetError> {
    let known = set_names(dir)?;
    if !known.iter().any(|k| k == name) {
        return Err(BenchSetError::Unknown {
            name: name.to_string(),
            known: known.join(", "),
        });
    }
    let path = dir.join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path).map_err(|source| BenchSetError::Io {
        path: path.display().to_string(),
        source,
    })?;
    parse_set(name, &path.display().to_string(), &text)
}

/// Loads every set in `dir`, sorted by name.
pub fn load_all(dir: &Path) -> Result<Vec<BenchSet>, BenchSetError> {
    set_names(dir)?
        .iter()
        .map(|name| load_set(dir, name))
        .collect()
}

/// Loads the sets a selection names: `default` (every set not tagged slow), `all`, or set names.
/// An empty selection means `default`. Each set is loaded once, in the order first named.
pub fn select(dir: &Path, names: &[String]) -> Result<Vec<BenchSet>, BenchSetError> {
    let all = load_all(dir)?;
    let names: Vec<String> = if names.is_empty() {
        vec!["default".to_string()]
    } else {
        names.to_vec()
    };
    let mut chosen: Vec<BenchSet> = Vec::new();
    for name in &names {
        let picked: Vec<&BenchSet> = match name.as_str() {
            "all" => all.iter().collect(),
            "default" => all.iter().filter(|s| !s.slow).collect(),
            _ => match all.iter().find(|s| &s.name == name) {
                Some(s) => vec![s],
                None => {
                    return Err(BenchSetError::Unknown {
                        name: name.clone(),
                        known: all
                            .iter()
                            .map(|s| s.name.clone())
                            .chain(["default".to_string(), "all".to_string()])
                            .collect::<Vec<_>>()
                            .join(", "),
                    })
                }
            },
        };
        for s in picked {
            if !chosen.iter().any(|c| c.name == s.name) {
                chosen.push(s.clone());
            }
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_seed_names_and_explicit_decks() {
        let nv = Variant::no_variant();
        let deck: Vec<String> = shuffled_deck("p2v0s7", &nv)
            .iter()
            .map(|&c| nv.card_name(c))
            .collect();
        let text = format!(
            "# A test set.\n# more words\n\np3v2s5\nmine 2 no-variant [{}]\nanything 4 black\n",
            deck.join(", ")
        );
        let set = parse_set("t", "t.txt", &text).unwrap();
        assert_eq!(set.description, "A test set.");
        assert!(!set.slow);
        let labels: Vec<&str> = set.deals.iter().map(|d| d.label.as_str()).collect();
        assert_eq!(labels, ["p3v2s5", "mine", "anything"]);
        assert_eq!(set.deals[0].rules.players, 3);
        assert_eq!(set.deals[0].rules.variant.id, Some(2));
        assert_eq!(set.deals[1].deck, shuffled_deck("p2v0s7", &nv));
        assert_eq!(set.deals[2].rules.players, 4);
        let black = Variant::parse("black").unwrap();
        assert_eq!(set.deals[2].deck, shuffled_deck("anything", &black));
        assert!(
            parse_set("t", "t.txt", "# x\n# tags: slow\np2v0s1\n")
                .unwrap()
                .slow
        );
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        for (text, line) in [
            ("# x\nhello\n", 2),
            ("p2v0s1\np2v0s1\n", 2),
            ("p2v0s1\nx 2 no-variant r1 r2\n", 2),
            ("x 2 nope\n", 1),
            ("x two no-variant\n", 1),
            ("p3v0s1 2 no-variant\n", 1),
            ("# tags: fast\np2v0s1\n", 1),
        ] {
            let e = parse_set("t", "t.txt", text).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("t.txt line {line}: ")),
                "{text:?}: {e}"
            );
        }
        assert!(parse_set("t", "t.txt", "# only a comment\n").is_err());
    }

    #[test]
    fn the_committed_sets_load() {
        let sets = load_all(&default_dir()).unwrap();
        assert!(sets.len() >= 8, "{} sets", sets.len());
        for s in &sets {
            assert!(!s.description.is_empty(), "{} has no description", s.name);
            for d in &s.deals {
                d.deal();
            }
        }
        let default = select(&default_dir(), &[]).unwrap();
        assert!(default.iter().all(|s| !s.slow));
        assert!(default.len() < sets.len(), "some set is tagged slow");
        assert!(select(&default_dir(), &["nope".to_string()]).is_err());
    }
}
