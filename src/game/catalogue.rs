//! Every hanab.live variant as typed facts, and what the site's rules make of them.
//!
//! The facts live in `data/variants.tsv`, a table generated from hanab.live's own `variants.json`,
//! `suits.json` and `colors.json` (see `examples/gen_variants.rs`). The table is embedded in the
//! library and parsed once; [`Catalogue::from_json`] reads newer copies of the site's files at run
//! time into the same catalogue, so a variant added on the site needs no new release.
//!
//! From a variant's facts this module computes, as the site does: the unshuffled deck
//! ([`VariantFacts::deck`]), the clues that exist and which cards each touches
//! ([`VariantFacts::touch`]), the maximum score, and the play-rule families the solver does not
//! model yet ([`VariantFacts::rule_families`]), so that callers can refuse those variants.
//!
//! ```
//! use hanabi_solver::game::catalogue::Catalogue;
//! let cat = Catalogue::builtin();
//! let v = cat.by_name("rainbow (5 suits)").unwrap();
//! assert_eq!(v.id, 16);
//! assert_eq!(v.clue_colors, ["Red", "Yellow", "Green", "Blue"]);
//! // A rainbow card is touched by every colour clue, and by its own rank.
//! assert_eq!(v.touch(4, 3), (vec![0, 1, 2, 3], vec![3]));
//! assert_eq!(v.deck().len(), 50);
//! assert_eq!(cat.by_id(18).unwrap().suit_names(), ["Red", "Green", "Blue"]);
//! ```

mod json;
mod table;

use std::collections::HashMap;
use std::sync::OnceLock;

/// The rank hanab.live gives the START card of Up or Down (it sorts after the five numbers and
/// leaves 6 unused).
pub const START_RANK: u8 = 7;

/// The suffix hanab.live appends to a suit's name for its reversed version ("Teal Reversed").
/// Every suit has one; `suits.json` does not list them.
pub const REVERSED_SUFFIX: &str = " Reversed";

/// The table generated from hanab.live's files, embedded so the library needs no data files.
const BUILTIN_TABLE: &str = include_str!("../../data/variants.tsv");

/// A problem with a variant table or with the site's JSON files, in one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CatalogueError(pub String);

impl CatalogueError {
    fn new(message: impl Into<String>) -> CatalogueError {
        CatalogueError(message.into())
    }
}

/// A colour that clues can name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColorFacts {
    pub name: String,
    /// One upper-case letter (K for Black, since B is Blue).
    pub abbreviation: char,
}

/// One suit as the site defines it. A variant's suit list holds these, with `reversed` set for
/// the suits it names with the " Reversed" suffix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuitFacts {
    /// The name in `suits.json`, without the " Reversed" suffix.
    pub name: String,
    /// The name the site shows: `name`, except for the Ambiguous blues ("Ice EA" shows "Ice").
    pub display_name: String,
    pub abbreviation: char,
    /// The colour clues that touch this suit by name (empty for the all-colour, no-colour and
    /// prism suits, whose touching follows their flag instead).
    pub clue_colors: Vec<String>,
    /// Touched by every colour clue (Rainbow, Muddy Rainbow, Omni, ...).
    pub all_clue_colors: bool,
    /// Touched by every rank clue (Pink, Light Pink, Omni, ...).
    pub all_clue_ranks: bool,
    /// Touched by no colour clue (White, Null, Light Pink, ...).
    pub no_clue_colors: bool,
    /// Touched by no rank clue (Brown, Null, Muddy Rainbow, ...).
    pub no_clue_ranks: bool,
    /// Rank r is touched only by clue colour (r - 1) mod #colours; START by the last colour.
    pub prism: bool,
    /// One copy of every card (the dark suits: Black, Gray, Dark Rainbow, ...).
    pub one_of_each: bool,
    /// Orange suits: on the site, playing one discards it and discarding one plays it.
    pub inverted: bool,
    /// Played 5 down to 1.
    pub reversed: bool,
}

impl SuitFacts {
    /// The name a variant uses for this suit ("Teal Reversed" for a reversed Teal).
    pub fn variant_name(&self) -> String {
        if self.reversed {
            format!("{}{REVERSED_SUFFIX}", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// A variant-wide special rank (the "-Ones" and "-Fives" variants): every suit's card of that
/// rank gets the listed clue properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecialRank {
    pub rank: u8,
    pub all_clue_colors: bool,
    pub all_clue_ranks: bool,
    pub no_clue_colors: bool,
    pub no_clue_ranks: bool,
    /// Touched only by rank clue `clue_ranks[suit index mod len]`, never by its own number.
    pub deceptive: bool,
}

/// The variant-wide yes/no rules of `variants.json`, each named as the site names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VariantFlags {
    pub scarce_ones: bool,
    pub up_or_down: bool,
    pub sudoku: bool,
    pub odds_and_evens: bool,
    pub funnels: bool,
    pub chimneys: bool,
    pub synesthesia: bool,
    pub color_clues_touch_nothing: bool,
    pub rank_clues_touch_nothing: bool,
    pub cow_and_pig: bool,
    pub duck: bool,
    pub throw_it_in_a_hole: bool,
    pub clue_starved: bool,
    pub alternating_clues: bool,
}

impl VariantFlags {
    /// Every flag with the site's property name, so the table and the JSON reader cannot
    /// disagree on the list.
    fn named(&self) -> [(&'static str, bool); 14] {
        [
            ("scarceOnes", self.scarce_ones),
            ("upOrDown", self.up_or_down),
            ("sudoku", self.sudoku),
            ("oddsAndEvens", self.odds_and_evens),
            ("funnels", self.funnels),
            ("chimneys", self.chimneys),
            ("synesthesia", self.synesthesia),
            ("colorCluesTouchNothing", self.color_clues_touch_nothing),
            ("rankCluesTouchNothing", self.rank_clues_touch_nothing),
            ("cowAndPig", self.cow_and_pig),
            ("duck", self.duck),
            ("throwItInAHole", self.throw_it_in_a_hole),
            ("clueStarved", self.clue_starved),
            ("alternatingClues", self.alternating_clues),
        ]
    }

    /// Sets the flag the site calls `name`; false when there is none by that name.
    fn set(&mut self, name: &str) -> bool {
        let flag = match name {
            "scarceOnes" => &mut self.scarce_ones,
            "upOrDown" => &mut self.up_or_down,
            "sudoku" => &mut self.sudoku,
            "oddsAndEvens" => &mut self.odds_and_evens,
            "funnels" => &mut self.funnels,
            "chimneys" => &mut self.chimneys,
            "synesthesia" => &mut self.synesthesia,
            "colorCluesTouchNothing" => &mut self.color_clues_touch_nothing,
            "rankCluesTouchNothing" => &mut self.rank_clues_touch_nothing,
            "cowAndPig" => &mut self.cow_and_pig,
            "duck" => &mut self.duck,
            "throwItInAHole" => &mut self.throw_it_in_a_hole,
            "clueStarved" => &mut self.clue_starved,
            "alternatingClues" => &mut self.alternating_clues,
            _ => return false,
        };
        *flag = true;
        true
    }
}

/// One hanab.live variant: everything the site's files say that changes the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantFacts {
    pub id: u32,
    pub name: String,
    /// The suits in the variant's order; a card's suit index points here.
    pub suits: Vec<SuitFacts>,
    /// The colours a colour clue can name, in the site's order (a clue's value indexes this).
    pub clue_colors: Vec<String>,
    /// The numbers a rank clue can name (a clue's value is the number itself).
    pub clue_ranks: Vec<u8>,
    /// Cards per finished stack: 5, or the number of suits in Sudoku.
    pub stack_size: u8,
    pub special_rank: Option<SpecialRank>,
    /// Critical Fours: this rank has one copy per suit.
    pub critical_rank: Option<u8>,
    pub flags: VariantFlags,
}

/// The rule families that change play, tokens or clue order beyond what cards a clue touches.
/// Later code refuses the variants that have one it does not model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleFamily {
    /// Stacks start at 1, 5 or START and go up or down.
    UpOrDown,
    /// Stacks start at any rank no other stack started at and wrap around.
    Sudoku,
    /// At least one suit is played 5 down to 1.
    ReversedSuits,
    /// At least one Orange suit: plays and discards of it swap.
    InvertedSuits,
    /// Plays are hidden and completing a stack gives no token.
    ThrowItInAHole,
    /// Discards and completed stacks give half a token.
    ClueStarved,
    /// A clue must not be of the previous clue's type.
    AlternatingClues,
}

impl RuleFamily {
    /// The family's name as the site's players call it.
    pub fn name(self) -> &'static str {
        match self {
            RuleFamily::UpOrDown => "Up or Down",
            RuleFamily::Sudoku => "Sudoku",
            RuleFamily::ReversedSuits => "Reversed suits",
            RuleFamily::InvertedSuits => "Orange (inverted) suits",
            RuleFamily::ThrowItInAHole => "Throw It in a Hole",
            RuleFamily::ClueStarved => "Clue Starved",
            RuleFamily::AlternatingClues => "Alternating Clues",
        }
    }

    /// What the family changes, in a few words (the `variants` command shows it).
    pub fn rule(self) -> &'static str {
        match self {
            RuleFamily::UpOrDown => "stacks start at 1, 5 or START and go up or down",
            RuleFamily::Sudoku => {
                "each stack starts at a rank no other stack started at and wraps around"
            }
            RuleFamily::ReversedSuits => "a reversed suit is played 5 down to 1",
            RuleFamily::InvertedSuits => {
                "playing an Orange card discards it and discarding plays it; a discard is \
                 legal with every token"
            }
            RuleFamily::ThrowItInAHole => "plays are hidden and a finished stack gives no token",
            RuleFamily::ClueStarved => "a discard or a finished stack gives half a token",
            RuleFamily::AlternatingClues => {
                "a clue may not be of the previous clue's type (colour or rank)"
            }
        }
    }
}

/// How one stack starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackStart {
    /// Takes a 1 and counts up.
    Up,
    /// A reversed suit: takes a 5 and counts down.
    Down,
    /// Up or Down: takes a 1, a 5 or START.
    Undecided,
    /// Sudoku: takes any rank no other stack started at.
    Sudoku,
}

/// The clue-token economy in the site's internal units: Clue Starved counts half tokens, so the
/// site doubles everything there (`scale` 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClueTokenRules {
    /// Internal units per token.
    pub scale: u8,
    pub start: u8,
    pub max: u8,
    pub clue_cost: u8,
    pub discard_gain: u8,
    pub stack_complete_gain: u8,
    /// Orange variants allow discarding at the maximum (it then gives nothing).
    pub discard_at_max: bool,
}

impl VariantFacts {
    /// The suits' names as the variant lists them (reversed ones with their suffix).
    pub fn suit_names(&self) -> Vec<String> {
        self.suits.iter().map(SuitFacts::variant_name).collect()
    }

    /// The ranks the cards carry: 1..=stack size, plus [`START_RANK`] in Up or Down.
    pub fn ranks(&self) -> Vec<u8> {
        let mut ranks: Vec<u8> = (1..=self.stack_size).collect();
        if self.flags.up_or_down {
            ranks.push(START_RANK);
        }
        ranks
    }

    /// Whether cards of `rank` exist in this variant (see [`Self::ranks`]).
    pub fn has_rank(&self, rank: u8) -> bool {
        (1..=self.stack_size).contains(&rank) || (self.flags.up_or_down && rank == START_RANK)
    }

    /// How many copies of (suit, rank) the deck holds, by the site's rules in the site's order:
    /// a dark suit has one of everything, Critical Fours one 4, Sudoku two of every rank; then
    /// 1s are single in Up or Down and reversed suits, double in Scarce Ones, else triple; 5s
    /// are triple in a reversed suit, else single; START is single; the rest are doubles.
    /// Zero for a rank the variant does not have.
    pub fn copies(&self, suit_index: usize, rank: u8) -> u8 {
        let Some(suit) = self.suits.get(suit_index) else {
            return 0;
        };
        if !self.has_rank(rank) {
            return 0;
        }
        if suit.one_of_each || self.critical_rank == Some(rank) {
            return 1;
        }
        if self.flags.sudoku {
            return 2;
        }
        match rank {
            1 if self.flags.up_or_down || suit.reversed => 1,
            1 if self.flags.scarce_ones => 2,
            1 => 3,
            5 if suit.reversed => 3,
            5 | START_RANK => 1,
            _ => 2,
        }
    }

    /// The unshuffled deck as (suit index, rank): suits in order, ranks ascending, copies
    /// adjacent. Shuffling it with [`crate::seed::shuffle_for_seed`] gives the site's deal.
    pub fn deck(&self) -> Vec<(usize, u8)> {
        let ranks = self.ranks();
        let mut deck = Vec::new();
        for suit in 0..self.suits.len() {
            for &rank in &ranks {
                let copies = self.copies(suit, rank) as usize;
                deck.extend(std::iter::repeat_n((suit, rank), copies));
            }
        }
        deck
    }

    /// Number of suits times stack size.
    pub fn max_score(&self) -> u32 {
        self.suits.len() as u32 * u32::from(self.stack_size)
    }

    /// Which clues touch the card (suit index, rank): the indices into [`Self::clue_colors`] of
    /// the colour clues and the values of the rank clues, both ascending.
    pub fn touch(&self, suit_index: usize, rank: u8) -> (Vec<usize>, Vec<u8>) {
        let colors = (0..self.clue_colors.len())
            .filter(|&c| self.color_touches(c, suit_index, rank))
            .collect();
        let ranks = self
            .clue_ranks
            .iter()
            .copied()
            .filter(|&r| self.rank_touches(r, suit_index, rank))
            .collect();
        (colors, ranks)
    }

    /// Whether colour clue `color` (an index into [`Self::clue_colors`]) touches the card. The
    /// checks run in the site's order, which decides the combined families (a Synesthesia White
    /// card stays untouched because the suit's no-colour rule comes first).
    pub fn color_touches(&self, color: usize, suit_index: usize, rank: u8) -> bool {
        let (Some(suit), Some(name)) = (self.suits.get(suit_index), self.clue_colors.get(color))
        else {
            return false;
        };
        if self.flags.color_clues_touch_nothing {
            return false;
        }
        if suit.all_clue_colors {
            return true;
        }
        if suit.no_clue_colors {
            return false;
        }
        if self.flags.synesthesia && !suit.no_clue_ranks && self.prism_color(rank) == Some(color) {
            return true;
        }
        if let Some(special) = self.special_rank.filter(|s| s.rank == rank) {
            if special.all_clue_colors {
                return true;
            }
            if special.no_clue_colors {
                return false;
            }
        }
        if suit.prism {
            let prism = if rank == START_RANK {
                self.clue_colors.len().checked_sub(1)
            } else {
                self.prism_color(rank)
            };
            return prism == Some(color);
        }
        suit.clue_colors.iter().any(|c| c == name)
    }

    /// The clue colour a prism card of `rank` answers to: (rank - 1) mod #colours.
    fn prism_color(&self, rank: u8) -> Option<usize> {
        let n = self.clue_colors.len();
        (n > 0).then(|| (usize::from(rank) - 1) % n)
    }

    /// Whether a rank clue naming `value` touches the card, checked in the site's order. START is
    /// touched only through an all-ranks suit (no clue names 7, and Funnels and Chimneys never
    /// meet Up or Down).
    pub fn rank_touches(&self, value: u8, suit_index: usize, rank: u8) -> bool {
        let Some(suit) = self.suits.get(suit_index) else {
            return false;
        };
        if self.flags.rank_clues_touch_nothing {
            return false;
        }
        if suit.all_clue_ranks {
            return true;
        }
        if suit.no_clue_ranks || rank == START_RANK {
            return false;
        }
        if self.flags.funnels {
            return rank <= value;
        }
        if self.flags.chimneys {
            return rank >= value;
        }
        if self.flags.odds_and_evens {
            return (rank % 2 == 1) == (value == 1);
        }
        if let Some(special) = self.special_rank.filter(|s| s.rank == rank) {
            if special.all_clue_ranks {
                return true;
            }
            if special.no_clue_ranks {
                return false;
            }
            if special.deceptive {
                let n = self.clue_ranks.len();
                return n > 0 && self.clue_ranks[suit_index % n] == value;
            }
        }
        value == rank
    }

    /// The names the site shows for the clues: colours and numbers, "Odd"/"Even" in Odds and
    /// Evens, "Moo"/"Oink" in Cow & Pig and "Quack" in Duck.
    pub fn clue_names(&self) -> (Vec<String>, Vec<String>) {
        let rename = |n: usize, name: &str| vec![name.to_string(); n];
        let (nc, nr) = (self.clue_colors.len(), self.clue_ranks.len());
        if self.flags.cow_and_pig {
            return (rename(nc, "Moo"), rename(nr, "Oink"));
        }
        if self.flags.duck {
            return (rename(nc, "Quack"), rename(nr, "Quack"));
        }
        let ranks = self
            .clue_ranks
            .iter()
            .map(|&r| match (self.flags.odds_and_evens, r) {
                (true, 1) => "Odd".to_string(),
                (true, 2) => "Even".to_string(),
                _ => r.to_string(),
            })
            .collect();
        (self.clue_colors.clone(), ranks)
    }

    /// Whether players learn which colour or number a clue named (not in Cow & Pig or Duck,
    /// where only the touched cards are shown).
    pub fn clue_value_revealed(&self) -> bool {
        !(self.flags.cow_and_pig || self.flags.duck)
    }

    /// Whether a colour clue may touch nothing whatever the game options (Color and Totally
    /// Blind, where colour clues touch nothing).
    pub fn empty_color_clues_allowed(&self) -> bool {
        self.flags.color_clues_touch_nothing
    }

    /// Whether a rank clue may touch nothing whatever the game options (Number and Totally
    /// Blind).
    pub fn empty_rank_clues_allowed(&self) -> bool {
        self.flags.rank_clues_touch_nothing
    }

    /// How stack `suit_index` starts.
    pub fn stack_start(&self, suit_index: usize) -> StackStart {
        if self.flags.sudoku {
            StackStart::Sudoku
        } else if self.flags.up_or_down {
            StackStart::Undecided
        } else if self.suits.get(suit_index).is_some_and(|s| s.reversed) {
            StackStart::Down
        } else {
            StackStart::Up
        }
    }

    /// The clue-token rules: 8 tokens, a clue costs one, a discard and a finished stack give one;
    /// Clue Starved halves the gains, Throw It in a Hole drops the stack bonus, and Orange
    /// variants allow discarding at the maximum.
    pub fn clue_tokens(&self) -> ClueTokenRules {
        let scale = if self.flags.clue_starved { 2 } else { 1 };
        ClueTokenRules {
            scale,
            start: 8 * scale,
            max: 8 * scale,
            clue_cost: scale,
            discard_gain: 1,
            stack_complete_gain: u8::from(!self.flags.throw_it_in_a_hole),
            discard_at_max: self.suits.iter().any(|s| s.inverted),
        }
    }

    /// The play-rule families this variant belongs to, in [`RuleFamily`] order; empty for a
    /// variant that plays by the standard rules (whatever its clue rules).
    pub fn rule_families(&self) -> Vec<RuleFamily> {
        let f = &self.flags;
        [
            (f.up_or_down, RuleFamily::UpOrDown),
            (f.sudoku, RuleFamily::Sudoku),
            (
                self.suits.iter().any(|s| s.reversed),
                RuleFamily::ReversedSuits,
            ),
            (
                self.suits.iter().any(|s| s.inverted),
                RuleFamily::InvertedSuits,
            ),
            (f.throw_it_in_a_hole, RuleFamily::ThrowItInAHole),
            (f.clue_starved, RuleFamily::ClueStarved),
            (f.alternating_clues, RuleFamily::AlternatingClues),
        ]
        .into_iter()
        .filter_map(|(has, family)| has.then_some(family))
        .collect()
    }
}

/// All variants, suits and colours of one version of the site's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    colors: Vec<ColorFacts>,
    /// The suits of `suits.json` in its order (none reversed).
    suits: Vec<SuitFacts>,
    /// Sorted by id.
    variants: Vec<VariantFacts>,
    /// Lower-cased name to index in `variants`.
    by_name: HashMap<String, usize>,
}

impl Catalogue {
    /// The catalogue built into the library (`data/variants.tsv`), parsed on first use.
    pub fn builtin() -> &'static Catalogue {
        static BUILTIN: OnceLock<Catalogue> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            Catalogue::from_table(BUILTIN_TABLE)
                .unwrap_or_else(|e| panic!("the built-in variant table is broken: {e}"))
        })
    }

    /// Reads a table in the format [`Catalogue::to_table`] writes.
    pub fn from_table(text: &str) -> Result<Catalogue, CatalogueError> {
        table::parse(text)
    }

    /// Writes the catalogue as the tab-separated table checked in as `data/variants.tsv`.
    pub fn to_table(&self) -> String {
        table::write(self)
    }

    /// Builds the catalogue from the texts of hanab.live's `variants.json` and `suits.json`, and
    /// `colors.json` when given (otherwise the built-in colours, which rarely change).
    pub fn from_json(
        variants_json: &str,
        suits_json: &str,
        colors_json: Option<&str>,
    ) -> Result<Catalogue, CatalogueError> {
        let colors = match colors_json {
            Some(text) => json::colors(text)?,
            None => Catalogue::builtin().colors.clone(),
        };
        let suits = json::suits(suits_json, &colors)?;
        let variants = json::variants(variants_json, &suits, &colors)?;
        Catalogue::new(colors, suits, variants)
    }

    /// Checks what every source must satisfy (unique ids and names, whatever the case) and
    /// indexes the names.
    fn new(
        colors: Vec<ColorFacts>,
        suits: Vec<SuitFacts>,
        mut variants: Vec<VariantFacts>,
    ) -> Result<Catalogue, CatalogueError> {
        variants.sort_by_key(|v| v.id);
        if let Some(w) = variants.windows(2).find(|w| w[0].id == w[1].id) {
            return Err(CatalogueError::new(format!(
                "variant id {} is used twice ({:?} and {:?})",
                w[0].id, w[0].name, w[1].name
            )));
        }
        let mut by_name = HashMap::new();
        for (i, v) in variants.iter().enumerate() {
            if let Some(j) = by_name.insert(v.name.to_lowercase(), i) {
                return Err(CatalogueError::new(format!(
                    "variant names {:?} and {:?} differ only in case",
                    variants[j].name, v.name
                )));
            }
        }
        Ok(Catalogue {
            colors,
            suits,
            variants,
            by_name,
        })
    }

    /// The variant with hanab.live id `id`.
    pub fn by_id(&self, id: u32) -> Option<&VariantFacts> {
        let i = self.variants.binary_search_by_key(&id, |v| v.id).ok()?;
        Some(&self.variants[i])
    }

    /// The variant named `name`, ignoring case ("no variant" finds "No Variant").
    pub fn by_name(&self, name: &str) -> Option<&VariantFacts> {
        self.by_name
            .get(&name.to_lowercase())
            .map(|&i| &self.variants[i])
    }

    /// Every variant, by id.
    pub fn variants(&self) -> &[VariantFacts] {
        &self.variants
    }

    /// Every suit of `suits.json`, in its order (reversed versions are not listed).
    pub fn suits(&self) -> &[SuitFacts] {
        &self.suits
    }

    /// Every colour of `colors.json`, in its order.
    pub fn colors(&self) -> &[ColorFacts] {
        &self.colors
    }

    /// The suit a variant names: a suit of `suits.json`, or one with " Reversed" appended.
    fn suit_for_variant(suits: &[SuitFacts], name: &str) -> Option<SuitFacts> {
        if let Some(s) = suits.iter().find(|s| s.name == name) {
            return Some(s.clone());
        }
        let base = name.strip_suffix(REVERSED_SUFFIX)?;
        let mut suit = suits.iter().find(|s| s.name == base)?.clone();
        suit.reversed = true;
        Some(suit)
    }
}
