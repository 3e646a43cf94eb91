//! A variant the solver plays: its deck, which clues exist and what each touches, and the names
//! of its cards, built once from the catalogue's facts so that the state and the search ask
//! precomputed tables (copies and touch sets per card kind) instead of the facts.
//!
//! Every hanab.live variant is playable: the play-rule families
//! ([`crate::game::catalogue::RuleFamily`]) change the play order ([`PlayOrder`]) or the token
//! economy ([`TokenRules`]), which the variant carries.

use crate::error::{escape_controls, Error};
use crate::game::card::{Card, KindSet, KINDS, MAX_RANK, MAX_SUITS, START};
use crate::game::catalogue::{Catalogue, VariantFacts, START_RANK};
use crate::game::play::{PlayOrder, Stack};
use crate::game::tokens::TokenRules;

/// How one suit is named and dealt. What clues touch it is in the variant's clue table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suit {
    /// The name the site shows ("Black", "Light Pink", "Ice").
    pub name: String,
    /// The name in the site's variant files and game data ("Ice EA" for the Ambiguous blue
    /// shown as "Ice"); the same as `name` for most suits.
    pub site_name: String,
    /// The card-name prefix (`r` in `r1`, `k` for Black, `li` for Light Pink beside Pink): the
    /// site's abbreviation in lower case, made longer only where two suits of the variant share
    /// an abbreviation.
    pub short: String,
    /// One card of each rank (the dark suits) instead of 3/2/2/2/1.
    pub one_each: bool,
}

/// One clue the variant has: a colour (its value is the site's colour index) or a rank (its
/// value is the number named), and the card kinds it touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clue {
    /// The colour's name, the number, or "Odd"/"Even" in Odds and Evens.
    pub name: String,
    /// The value hanab.live records for this clue.
    pub value: u8,
    /// Kinds of card this clue touches.
    pub touches: KindSet,
}

/// What the players see of a clue besides the cards it touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClueReveals {
    /// Its type and value ("Red", "3").
    Value,
    /// Its type only (Cow & Pig: "Moo" for a colour, "Oink" for a rank).
    Type,
    /// Nothing (Duck: "Quack").
    Nothing,
}

/// The CLI names of the variants the program has always known (`--variant black`).
const ALIASES: &[(&str, u32)] = &[
    ("no-variant", 0),
    ("six-suits", 1),
    ("black", 2),
    ("rainbow", 3),
    ("four-suits", 15),
    ("rainbow-5", 16),
    ("three-suits", 18),
    ("black-5", 21),
];

/// The most copies of one card a deck may hold: a state counts the lost copies of each card in
/// two bits.
pub const MAX_COPIES: u8 = 3;

/// The ordinary suits of research decks, in the order they take them.
const ORDINARY: [(&str, &str); MAX_SUITS] = [
    ("Red", "r"),
    ("Yellow", "y"),
    ("Green", "g"),
    ("Blue", "b"),
    ("Purple", "p"),
    ("Teal", "t"),
];

/// A deck with its clue rules: the suits in hanab.live order, ranks 1..=`ranks`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// hanab.live's name, or a description of a research deck.
    pub name: String,
    /// hanab.live's variant id, when the variant exists there.
    pub id: Option<u32>,
    pub suits: Vec<Suit>,
    /// Cards in a finished stack; ranks run 1..=ranks.
    pub ranks: u8,
    /// Which way each stack is played.
    order: PlayOrder,
    copies: [u8; KINDS],
    colour_clues: Vec<Clue>,
    rank_clues: Vec<Clue>,
    /// Colour or rank clues touch nothing and are always legal (Color, Number, Totally Blind).
    blind_clue: bool,
    /// Kinds of the deck that at least one clue touches.
    clueable: KindSet,
    /// Every kind of the deck is touched by some clue: a clue is legal whenever another
    /// player holds a card (the state's fast path).
    every_card_clueable: bool,
    reveals: ClueReveals,
    /// Kinds that some colour clue touches, and some rank clue (for Alternating Clues, where
    /// only one type may be legal).
    clueable_by_type: [KindSet; 2],
    /// The clue-token economy (Clue Starved, Throw It in a Hole, Orange, Alternating Clues).
    tokens: TokenRules,
    /// Kinds whose dead cards are interchangeable with any other such dead card: holding one
    /// makes its holder a target of every clue type that any dead card could make it (see
    /// [`Variant::dead_cards_merge`]).
    trash_merges: KindSet,
    /// Plays and misplays are hidden from the players (Throw It in a Hole): a player does not
    /// learn what its own played cards were, so a seat's view of the stacks is not exact.
    plays_hidden: bool,
}

impl Variant {
    /// No Variant: five ordinary suits.
    pub fn no_variant() -> Variant {
        Variant::by_id(0).expect("No Variant plays by the standard rules")
    }

    /// A hanab.live variant by its id, from the built-in catalogue.
    pub fn by_id(id: u32) -> Result<Variant, Error> {
        Variant::by_id_in(Catalogue::builtin(), id)
    }

    /// A hanab.live variant by its id, from `catalogue`.
    pub fn by_id_in(catalogue: &Catalogue, id: u32) -> Result<Variant, Error> {
        let facts = catalogue
            .by_id(id)
            .ok_or_else(|| Error::UnknownVariant(format!("id {id}")))?;
        Variant::from_facts(facts)
    }

    /// A variant by CLI name (`no-variant`, `black`, ...), hanab.live name (`Black (6 Suits)`,
    /// any case) or id (`2`), from the built-in catalogue.
    ///
    /// ```
    /// use hanabi_solver::game::variant::Variant;
    /// assert_eq!(Variant::parse("Rainbow (6 Suits)").unwrap().id, Some(3));
    /// assert_eq!(Variant::parse("black").unwrap().suits.len(), 6);
    /// assert_eq!(Variant::parse("null (5 suits)").unwrap().suits[4].short, "u");
    /// assert!(Variant::parse("nope").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Variant, Error> {
        Variant::parse_in(Catalogue::builtin(), text)
    }

    /// [`Variant::parse`] in `catalogue`.
    pub fn parse_in(catalogue: &Catalogue, text: &str) -> Result<Variant, Error> {
        let t = text.trim();
        if let Ok(id) = t.parse::<u32>() {
            return Variant::by_id_in(catalogue, id);
        }
        if let Some(&(_, id)) = ALIASES.iter().find(|a| a.0.eq_ignore_ascii_case(t)) {
            return Variant::by_id_in(catalogue, id);
        }
        match catalogue.by_name(t) {
            Some(facts) => Variant::from_facts(facts),
            None => Err(Error::UnknownVariant(escape_controls(t))),
        }
    }

    /// The CLI name of this variant, if it has one (`black` for "Black (6 Suits)").
    pub fn alias(&self) -> Option<&'static str> {
        ALIASES.iter().find(|a| Some(a.1) == self.id).map(|a| a.0)
    }

    /// The CLI names with their hanab.live names and ids, for help texts.
    pub fn aliases() -> Vec<String> {
        ALIASES
            .iter()
            .map(|&(alias, id)| {
                let name = Catalogue::builtin()
                    .by_id(id)
                    .map_or("?", |f| f.name.as_str());
                format!("{alias} (\"{name}\", id {id})")
            })
            .collect()
    }

    /// The variant the facts describe. Facts with a shorter stack (ranks 1..stack size, as
    /// tests build small decks) give a shorter deck; Up or Down needs stacks of 5 (its START
    /// rule names the 2 and the 4).
    pub fn from_facts(facts: &VariantFacts) -> Result<Variant, Error> {
        check_shape(facts)?;
        let (colour_clues, rank_clues, blind_clue) = clues_of(facts);
        let mut variant = Variant::assemble(
            facts.name.clone(),
            Some(facts.id),
            suits_of(facts),
            play_order_of(facts),
            copies_of(facts),
            colour_clues,
            rank_clues,
            blind_clue,
            if facts.flags.duck {
                ClueReveals::Nothing
            } else if facts.flags.cow_and_pig {
                ClueReveals::Type
            } else {
                ClueReveals::Value
            },
        );
        variant.set_tokens(TokenRules::from_facts(facts));
        variant.plays_hidden = facts.flags.throw_it_in_a_hole;
        Ok(variant)
    }

    /// Fills in the derived clue sets.
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        name: String,
        id: Option<u32>,
        suits: Vec<Suit>,
        order: PlayOrder,
        copies: [u8; KINDS],
        colour_clues: Vec<Clue>,
        rank_clues: Vec<Clue>,
        blind_clue: bool,
        reveals: ClueReveals,
    ) -> Variant {
        let touched = |clues: &[Clue]| clues.iter().fold(0, |set, c| set | c.touches);
        let clueable_by_type = [touched(&colour_clues), touched(&rank_clues)];
        let clueable = clueable_by_type[0] | clueable_by_type[1];
        let mut variant = Variant {
            name,
            id,
            suits,
            ranks: order.stack_size(),
            order,
            copies,
            colour_clues,
            rank_clues,
            blind_clue,
            clueable,
            every_card_clueable: false,
            reveals,
            clueable_by_type,
            tokens: TokenRules::STANDARD,
            trash_merges: 0,
            plays_hidden: false,
        };
        variant.every_card_clueable = blind_clue || variant.kinds() & !clueable == 0;
        variant.set_tokens(TokenRules::STANDARD);
        variant
    }

    /// Sets the clue-token economy, and with it which dead cards are interchangeable: where
    /// clue types alternate, a dead card touched only by colour clues and one touched only by
    /// rank clues make their holder the target of different clues, so only the cards every
    /// clue type can reach (or that a blind type reaches anyway) share one code.
    fn set_tokens(&mut self, tokens: TokenRules) {
        self.tokens = tokens;
        self.trash_merges = if tokens.alternating {
            let mut set = self.kinds();
            for colour in [true, false] {
                if !self.clues_of_type(colour).is_empty() && !self.clue_type_is_blind(colour) {
                    set &= self.clueable_by_type[usize::from(!colour)];
                }
            }
            set
        } else if self.every_card_clueable {
            self.kinds()
        } else {
            self.clueable
        };
    }

    /// A research deck as in DeepMind's Hanabi Learning Environment: `suits` ordinary suits
    /// (1..=6) of `ranks` ranks (1..=5), a colour clue per suit and a rank clue per rank, with
    /// the default copies of each rank ([`Variant::research_default_copies`]).
    pub fn research(suits: u8, ranks: u8) -> Result<Variant, Error> {
        let copies = Variant::research_default_copies(ranks.clamp(1, MAX_RANK as u8));
        Variant::research_with_copies(suits, ranks, &copies)
    }

    /// The copies of each rank (rank 1 first) in a research deck of `ranks` ranks by default:
    /// rank 1 has 3, the top rank 1, the ranks between 2 (a single rank: 1).
    pub fn research_default_copies(ranks: u8) -> Vec<u8> {
        (1..=ranks)
            .map(|r| match r {
                _ if ranks == 1 => 1,
                1 => 3,
                _ if r == ranks => 1,
                _ => 2,
            })
            .collect()
    }

    /// A research deck ([`Variant::research`]) whose every suit holds `copies[r - 1]` copies of
    /// rank `r`: one number per rank, each 1 to [`MAX_COPIES`]. Named like a default research
    /// deck, with the copies added when they are not the default ("2 suits x 3 ranks, copies 2
    /// 2 1").
    pub fn research_with_copies(suits: u8, ranks: u8, copies: &[u8]) -> Result<Variant, Error> {
        if !(1..=MAX_SUITS as u8).contains(&suits) {
            return Err(Error::Option(format!(
                "--suits must be 1 to {MAX_SUITS}, not {suits}"
            )));
        }
        if !(1..=MAX_RANK as u8).contains(&ranks) {
            return Err(Error::Option(format!(
                "--ranks must be 1 to {MAX_RANK}, not {ranks}"
            )));
        }
        if copies.len() != ranks as usize {
            return Err(Error::Option(format!(
                "copies: give one number per rank (ranks 1 to {ranks}), not {}",
                copies.len()
            )));
        }
        if let Some(&c) = copies.iter().find(|&&c| !(1..=MAX_COPIES).contains(&c)) {
            return Err(Error::Option(format!(
                "copies: each rank has 1 to {MAX_COPIES} copies, not {c}"
            )));
        }
        let default = copies == Variant::research_default_copies(ranks).as_slice();
        let mut kinds = [0u8; KINDS];
        let mut colour_clues = Vec::new();
        for s in 0..suits {
            let mut touches = 0;
            for r in 1..=ranks {
                let card = Card::new(s, r);
                kinds[card.kind()] = copies[r as usize - 1];
                touches |= card.kind_bit();
            }
            colour_clues.push(Clue {
                name: ORDINARY[s as usize].0.to_string(),
                value: s,
                touches,
            });
        }
        let rank_clues = (1..=ranks)
            .map(|r| Clue {
                name: r.to_string(),
                value: r,
                touches: (0..suits).fold(0, |set, s| set | Card::new(s, r).kind_bit()),
            })
            .collect();
        let suit_list = ORDINARY[..suits as usize]
            .iter()
            .map(|&(name, short)| Suit {
                name: name.to_string(),
                site_name: name.to_string(),
                short: short.to_string(),
                one_each: false,
            })
            .collect();
        let mut name = format!("{suits} suits x {ranks} ranks");
        if !default {
            name += ", copies";
            for c in copies {
                name += &format!(" {c}");
            }
        }
        Ok(Variant::assemble(
            name,
            None,
            suit_list,
            PlayOrder::ascending(ranks),
            kinds,
            colour_clues,
            rank_clues,
            false,
            ClueReveals::Value,
        ))
    }

    /// Which way each stack is played: every question about play order goes here.
    #[inline]
    pub fn play_order(&self) -> PlayOrder {
        self.order
    }

    /// Copies of each card of `suit` and `rank` in the deck.
    #[inline]
    pub fn copies(&self, suit: u8, rank: u8) -> u8 {
        self.copies[Card::new(suit, rank).kind()]
    }

    /// Copies of each card kind, indexed by [`Card::kind`] (0 for kinds not in the deck).
    pub fn copies_by_kind(&self) -> &[u8; KINDS] {
        &self.copies
    }

    /// The unshuffled deck as hanab.live builds it: suits in variant order, ranks ascending
    /// (START last), copies adjacent.
    pub fn deck(&self) -> Vec<Card> {
        let mut deck = Vec::new();
        for s in 0..self.suits.len() as u8 {
            for r in (1..=self.ranks).chain([START]) {
                for _ in 0..self.copies(s, r) {
                    deck.push(Card::new(s, r));
                }
            }
        }
        deck
    }

    /// Whether the deck has START cards (Up or Down).
    pub fn has_start(&self) -> bool {
        self.copies(0, START) > 0
    }

    pub fn deck_size(&self) -> usize {
        self.copies.iter().map(|&c| c as usize).sum()
    }

    /// Every kind of card in the deck.
    pub fn kinds(&self) -> KindSet {
        (0..KINDS)
            .filter(|&k| self.copies[k] > 0)
            .fold(0, |set, k| set | 1 << k)
    }

    /// Number of suits times number of ranks.
    pub fn perfect_score(&self) -> u8 {
        self.suits.len() as u8 * self.ranks
    }

    /// The colour clues, indexed by the value hanab.live records.
    pub fn colour_clues(&self) -> &[Clue] {
        &self.colour_clues
    }

    /// The rank clues, in the site's order.
    pub fn rank_clues(&self) -> &[Clue] {
        &self.rank_clues
    }

    /// The colour clue of hanab.live value `value`, if the variant has it.
    pub fn colour_clue(&self, value: i64) -> Option<&Clue> {
        usize::try_from(value)
            .ok()
            .and_then(|v| self.colour_clues.get(v))
    }

    /// The rank clue naming `value`, if the variant has it.
    pub fn rank_clue(&self, value: i64) -> Option<&Clue> {
        self.rank_clues.iter().find(|c| i64::from(c.value) == value)
    }

    /// The colour clue (`colour`) or rank clue of hanab.live value `value`, if the variant has
    /// it.
    pub fn clue(&self, colour: bool, value: i64) -> Option<&Clue> {
        if colour {
            self.colour_clue(value)
        } else {
            self.rank_clue(value)
        }
    }

    /// Whether clues of this type are legal even when they touch nothing (the Blind variants,
    /// where they always touch nothing).
    pub fn clue_type_is_blind(&self, colour: bool) -> bool {
        let clues = self.clues_of_type(colour);
        self.blind_clue && !clues.is_empty() && clues.iter().all(|c| c.touches == 0)
    }

    /// The colour clues (`colour`) or the rank clues.
    pub fn clues_of_type(&self, colour: bool) -> &[Clue] {
        if colour {
            &self.colour_clues
        } else {
            &self.rank_clues
        }
    }

    /// What a player learns of a clue beyond the cards it touched: its value and type, only its
    /// type (Cow & Pig: "Moo" or "Oink"), or nothing (Duck: "Quack").
    pub fn clue_reveals(&self) -> ClueReveals {
        self.reveals
    }

    /// The clues a player told `colour` (a colour clue, else a rank clue) and `value` can tell it
    /// was given: that one clue where values are revealed, every clue of its type in Cow & Pig,
    /// every clue in Duck.
    pub fn clues_seen_as(&self, colour: bool, value: i64) -> Vec<&Clue> {
        let of_type = |colour: bool| self.clues_of_type(colour).iter();
        match self.reveals {
            ClueReveals::Value => self.clue(colour, value).into_iter().collect(),
            ClueReveals::Type => of_type(colour).collect(),
            ClueReveals::Nothing => of_type(true).chain(of_type(false)).collect(),
        }
    }

    /// Some clue type is always legal (Blind variants): a clue needs only a token and another
    /// player.
    #[inline]
    pub fn has_blind_clue(&self) -> bool {
        self.blind_clue
    }

    /// The clue-token economy.
    #[inline]
    pub fn tokens(&self) -> TokenRules {
        self.tokens
    }

    /// Whether a clue of this type (`colour`, else rank) could be given to a player holding
    /// the cards `held`: the type exists and is blind, or some clue of it touches one of them.
    /// With `empty_clues`, any clue of an existing type may be given.
    #[inline]
    pub fn type_can_touch(&self, colour: bool, held: KindSet, empty_clues: bool) -> bool {
        !self.clues_of_type(colour).is_empty()
            && (empty_clues
                || self.clue_type_is_blind(colour)
                || held & self.clueable_by_type[usize::from(!colour)] != 0)
    }

    /// Kinds of card that some clue touches; a clue is legal only if another player holds one
    /// (unless empty clues are allowed or a clue type is blind).
    #[inline]
    pub fn clueable(&self) -> KindSet {
        self.clueable
    }

    /// Whether some clue touches `card` (or clues are blind): holding it makes its holder a
    /// legal clue target.
    #[inline]
    pub fn touchable(&self, card: Card) -> bool {
        self.every_card_clueable || card.kind_bit() & self.clueable != 0
    }

    /// Whether plays are hidden from the players (Throw It in a Hole). With every card known it
    /// changes nothing; a seat's own view lacks the cards it played itself.
    #[inline]
    pub fn plays_hidden(&self) -> bool {
        self.plays_hidden
    }

    /// Whether a dead `card` is interchangeable with every other dead card this answers true
    /// for, so the table key and the move list may write them all as one "trash" code. A dead
    /// card no clue touches (Null) is not: holding only such cards leaves no clue to give; in
    /// Alternating Clues neither is one that only one clue type touches.
    #[inline]
    pub fn dead_cards_merge(&self, card: Card) -> bool {
        card.kind_bit() & self.trash_merges != 0
    }

    /// Every card of the deck can be touched by some clue (or clues are blind): holding any card
    /// is enough to be clued.
    #[inline]
    pub fn every_card_clueable(&self) -> bool {
        self.every_card_clueable
    }

    /// The card's name: suit prefix then rank (`r1`, `k5`, `li3`).
    pub fn card_name(&self, card: Card) -> String {
        if card.is_none() {
            return "??".to_string();
        }
        let short = &self.suits[card.suit() as usize].short;
        if card.is_start() {
            format!("{short}S")
        } else {
            format!("{short}{}", card.rank())
        }
    }

    /// The suit a card-name prefix names (any case); `w` also names the fifth suit where no
    /// suit uses it, as the physical editions call that suit white.
    pub fn suit_of_prefix(&self, prefix: &str) -> Option<u8> {
        let p = prefix.to_ascii_lowercase();
        self.suits
            .iter()
            .position(|s| s.short == p)
            .or_else(|| {
                (p == "w" && self.suits.len() >= 5 && self.suits.iter().all(|s| s.short != "w"))
                    .then_some(4)
            })
            .map(|s| s as u8)
    }

    /// Reads a card name (`r1`, `K5`, `li3`; in Up or Down `rS` or `r7` for START).
    pub fn parse_card(&self, text: &str) -> Result<Card, Error> {
        let t = text.trim();
        let bad = || Error::Card(escape_controls(t), self.prefixes());
        if self.has_start() {
            if let Some(suit) = t
                .strip_suffix(['S', 's'])
                .or_else(|| t.strip_suffix('7'))
                .and_then(|p| self.suit_of_prefix(p))
            {
                return Ok(Card::start(suit));
            }
        }
        let split = t.find(|c: char| c.is_ascii_digit()).ok_or_else(bad)?;
        let (prefix, rank) = t.split_at(split);
        let suit = self.suit_of_prefix(prefix).ok_or_else(bad)?;
        let rank: u8 = rank.parse().map_err(|_| bad())?;
        if rank < 1 || rank > self.ranks {
            return Err(bad());
        }
        Ok(Card::new(suit, rank))
    }

    /// How position files and the output write stack `suit`: its prefix and height (`r2`), or
    /// where the players choose each stack's way, its cards in the order played (`r=S43`,
    /// `r0` while empty).
    pub fn stack_name(&self, suit: u8, stack: Stack) -> String {
        let short = &self.suits[suit as usize].short;
        let order = self.order;
        if !order.ways_chosen_in_play() || stack.height() == 0 {
            return format!("{short}{}", stack.height());
        }
        let ranks: String = order
            .cards_on(suit, stack)
            .map(|c| {
                if c.is_start() {
                    'S'
                } else {
                    char::from(b'0' + c.rank())
                }
            })
            .collect();
        format!("{short}={ranks}")
    }

    /// Reads a stack as [`Variant::stack_name`] writes it: the suit and its stack, or why not.
    pub fn parse_stack(&self, token: &str) -> Result<(u8, Stack), String> {
        let order = self.order;
        let example = if order.ways_chosen_in_play() {
            "r0, or r=S43 (the cards in the order played)"
        } else {
            "r2"
        };
        let not_a_stack = || {
            format!(
                "`{}` is not a suit ({}) then a height, like {example}",
                escape_controls(token),
                self.prefixes()
            )
        };
        if let Some((prefix, cards)) = token.split_once('=') {
            let suit = self.suit_of_prefix(prefix).ok_or_else(not_a_stack)?;
            let short = &self.suits[suit as usize].short;
            let cards = cards
                .chars()
                .map(|ch| self.parse_card(&format!("{short}{ch}")))
                .collect::<Result<Vec<Card>, Error>>()
                .map_err(|_| not_a_stack())?;
            let stack = order.stack_of(suit, &cards).ok_or_else(|| {
                format!(
                    "`{}`: these cards cannot be played on a stack in this order",
                    escape_controls(token)
                )
            })?;
            return Ok((suit, stack));
        }
        let split = token
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(token.len());
        let (prefix, height) = token.split_at(split);
        let suit = self.suit_of_prefix(prefix).ok_or_else(not_a_stack)?;
        let height: u8 = height.parse().map_err(|_| not_a_stack())?;
        if height > self.ranks {
            return Err(format!(
                "{}{height} is above the top rank {}",
                self.suits[suit as usize].short, self.ranks
            ));
        }
        if order.ways_chosen_in_play() && height > 0 {
            return Err(format!(
                "`{}`: in {} a stack is written as its cards in the order played, like {}=S43",
                escape_controls(token),
                self.name,
                self.suits[suit as usize].short
            ));
        }
        Ok((suit, Stack::of_height(height)))
    }

    /// The suit prefixes, for messages: "r y g b p".
    pub fn prefixes(&self) -> String {
        self.suits
            .iter()
            .map(|s| s.short.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The card of a suit index and a rank as hanab.live numbers them (START is 7), if it is
    /// a card of this variant.
    pub fn card(&self, suit: usize, rank: usize) -> Result<Card, Error> {
        let card = (suit < self.suits.len())
            .then(|| u8::try_from(rank).ok())
            .flatten()
            .filter(|&r| (1..=self.ranks).contains(&r) || r == START_RANK)
            .map(|r| Card::new(suit as u8, rank_of_site(r)))
            .filter(|&c| self.copies_by_kind()[c.kind()] > 0);
        card.ok_or_else(|| {
            Error::Deck(format!(
                "card with suitIndex {suit} and rank {rank} is not in {}",
                self.name
            ))
        })
    }

    /// The rank hanab.live gives `card` (7 for START).
    pub fn site_rank(card: Card) -> u8 {
        if card.is_start() {
            START_RANK
        } else {
            card.rank()
        }
    }
}

/// Refuses facts the solver cannot hold: no suits or more than [`MAX_SUITS`], stacks of no
/// card or more than [`MAX_RANK`], Up or Down with stacks short of [`MAX_RANK`].
fn check_shape(facts: &VariantFacts) -> Result<(), Error> {
    let bad = |why: String| Error::UnknownVariant(format!("{} ({why})", facts.name));
    if facts.suits.is_empty() || facts.suits.len() > MAX_SUITS {
        return Err(bad(format!("{} suits", facts.suits.len())));
    }
    if !(1..=MAX_RANK as u8).contains(&facts.stack_size) {
        return Err(bad(format!("stacks of {}", facts.stack_size)));
    }
    if facts.flags.up_or_down && facts.stack_size != MAX_RANK as u8 {
        let ranks = facts.stack_size;
        return Err(bad(format!("Up or Down with stacks of {ranks}")));
    }
    Ok(())
}

/// Every kind of the deck as (suit index, the site's rank, card).
fn kinds_of(facts: &VariantFacts) -> impl Iterator<Item = (usize, u8, Card)> + '_ {
    let site_ranks = facts.ranks();
    (0..facts.suits.len()).flat_map(move |s| {
        site_ranks
            .clone()
            .into_iter()
            .map(move |r| (s, r, Card::new(s as u8, rank_of_site(r))))
    })
}

/// The copies of each card kind in the deck.
fn copies_of(facts: &VariantFacts) -> [u8; KINDS] {
    let mut copies = [0u8; KINDS];
    for (s, r, card) in kinds_of(facts) {
        copies[card.kind()] = facts.copies(s, r);
    }
    copies
}

/// The colour clues and the rank clues with the kinds each touches, and whether a clue may
/// touch no card (a blind clue type).
fn clues_of(facts: &VariantFacts) -> (Vec<Clue>, Vec<Clue>, bool) {
    let touch_set = |touches: &dyn Fn(usize, u8) -> bool| {
        kinds_of(facts)
            .filter(|&(s, r, _)| touches(s, r))
            .fold(0, |set, (_, _, card)| set | card.kind_bit())
    };
    let (_, rank_names) = facts.clue_names();
    let colour_clues = facts
        .clue_colors
        .iter()
        .enumerate()
        .map(|(i, name)| Clue {
            name: name.clone(),
            value: i as u8,
            touches: touch_set(&|s, r| facts.color_touches(i, s, r)),
        })
        .collect();
    let rank_clues = facts
        .clue_ranks
        .iter()
        .zip(rank_names)
        .map(|(&value, name)| Clue {
            name: if facts.flags.odds_and_evens {
                name
            } else {
                value.to_string()
            },
            value,
            touches: touch_set(&|s, r| facts.rank_touches(value, s, r)),
        })
        .collect();
    let blind_clue = (facts.empty_color_clues_allowed() && !facts.clue_colors.is_empty())
        || (facts.empty_rank_clues_allowed() && !facts.clue_ranks.is_empty());
    (colour_clues, rank_clues, blind_clue)
}

/// The suits, with their names for people and the site, and their cards' short prefixes.
fn suits_of(facts: &VariantFacts) -> Vec<Suit> {
    let names: Vec<(String, char)> = facts
        .suits
        .iter()
        .map(|s| (s.display_name.clone(), s.abbreviation))
        .collect();
    facts
        .suits
        .iter()
        .zip(card_prefixes(&names))
        .map(|(s, short)| Suit {
            name: if s.reversed {
                format!("{} Reversed", s.display_name)
            } else {
                s.display_name.clone()
            },
            site_name: s.variant_name(),
            short,
            one_each: s.one_of_each,
        })
        .collect()
}

/// The order cards go on the stacks: Up or Down, Sudoku, or a fixed way for each suit (down
/// for the reversed ones).
fn play_order_of(facts: &VariantFacts) -> PlayOrder {
    let ranks = facts.stack_size;
    if facts.flags.up_or_down {
        PlayOrder::up_or_down(ranks)
    } else if facts.flags.sudoku {
        PlayOrder::sudoku(ranks)
    } else {
        let reversed = facts
            .suits
            .iter()
            .enumerate()
            .filter(|(_, s)| s.reversed)
            .fold(0u8, |mask, (i, _)| mask | 1 << i);
        PlayOrder::with_reversed(ranks, reversed)
    }
}

/// The rank a card of the site's rank `rank` carries here: START is 7 on the site.
fn rank_of_site(rank: u8) -> u8 {
    if rank == START_RANK {
        START
    } else {
        rank
    }
}

/// The short names `--variant` accepts besides hanab.live's names and ids, comma-separated.
pub fn alias_names() -> String {
    ALIASES.iter().map(|a| a.0).collect::<Vec<_>>().join(", ")
}

/// Card-name prefixes for suits given as (name, abbreviation): the lower-case abbreviation
/// where the variant has no other suit with it; otherwise, for a name of several words, the
/// initials of the words before the last then the abbreviation ("Light Pink" beside "Pink" is
/// `li`); and where that still collides, the name's letters, as few as make it unique.
pub fn card_prefixes(suits: &[(String, char)]) -> Vec<String> {
    let letters = |name: &str| -> String {
        name.chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let mut out: Vec<String> = suits
        .iter()
        .map(|(_, a)| a.to_ascii_lowercase().to_string())
        .collect();
    let collides = |out: &[String], i: usize| out.iter().filter(|p| **p == out[i]).count() > 1;
    let first = out.clone();
    for (i, (name, abbreviation)) in suits.iter().enumerate() {
        if collides(&first, i) {
            let words: Vec<&str> = name.split_whitespace().collect();
            if words.len() > 1 {
                let initials: String = words[..words.len() - 1]
                    .iter()
                    .filter_map(|w| w.chars().find(char::is_ascii_alphabetic))
                    .map(|c| c.to_ascii_lowercase())
                    .collect();
                out[i] = format!("{initials}{}", abbreviation.to_ascii_lowercase());
            }
        }
    }
    // From the last suit back, so the first of two one-word suits keeps the letter.
    for i in (0..suits.len()).rev() {
        if collides(&out, i) {
            let all = letters(&suits[i].0);
            let others: Vec<String> = (0..suits.len())
                .filter(|&j| j != i)
                .map(|j| out[j].clone())
                .collect();
            out[i] = (2..=all.len())
                .map(|n| all[..n].to_string())
                .find(|p| !others.contains(p))
                .unwrap_or(all);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by tests/fuzz.rs: a variant name with a vertical tab was quoted raw in the error,
    /// which then took two lines.
    #[test]
    fn unknown_variant_with_a_control_character_is_one_line() {
        let e = Variant::parse("A\u{b}o-variant").unwrap_err().to_string();
        assert!(e.starts_with("unknown variant A\\u{b}o-variant;"), "{e}");
        let e = Variant::parse("a\nb\r\u{2028}\u{feff}c\td")
            .unwrap_err()
            .to_string();
        assert!(e.contains("a\\nb\\r\\u{2028}\\u{feff}c\td"), "{e}");
    }

    /// Facts the solver cannot hold are refused with one line naming the variant and why;
    /// the site's own facts are all held.
    #[test]
    fn facts_of_a_shape_the_solver_cannot_hold_are_refused() {
        let catalogue = Catalogue::builtin();
        let no_variant = catalogue.by_id(0).expect("No Variant").clone();
        let refused = |facts: &VariantFacts| {
            let e = Variant::from_facts(facts).expect_err("refused").to_string();
            assert_eq!(e.lines().count(), 1, "{e}");
            e
        };
        let mut none = no_variant.clone();
        none.suits.clear();
        assert!(refused(&none).contains("No Variant (0 suits)"));
        let mut seven = no_variant.clone();
        seven.suits = [&no_variant.suits[..], &no_variant.suits[..2]].concat();
        assert!(refused(&seven).contains("(7 suits)"));
        let mut tall = no_variant.clone();
        tall.stack_size = MAX_RANK as u8 + 1;
        assert!(refused(&tall).contains("(stacks of 6)"));
        let mut flat = no_variant.clone();
        flat.stack_size = 0;
        assert!(refused(&flat).contains("(stacks of 0)"));
        let up_or_down = catalogue
            .variants()
            .iter()
            .find(|v| v.flags.up_or_down)
            .expect("an Up or Down variant");
        let mut short = up_or_down.clone();
        short.stack_size = 4;
        assert!(refused(&short).contains("(Up or Down with stacks of 4)"));
        for facts in catalogue.variants() {
            assert!(Variant::from_facts(facts).is_ok(), "{}", facts.name);
        }
    }

    #[test]
    fn prefixes_of_colliding_abbreviations() {
        let p = |list: &[(&str, char)]| {
            card_prefixes(
                &list
                    .iter()
                    .map(|&(n, a)| (n.to_string(), a))
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(p(&[("Red", 'R'), ("Black", 'K')]), ["r", "k"]);
        assert_eq!(p(&[("Pink", 'I'), ("Light Pink", 'I')]), ["i", "li"]);
        assert_eq!(p(&[("Pink", 'I'), ("Prism", 'I')]), ["i", "pr"]);
    }
}
