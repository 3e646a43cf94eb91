//! The rules of every playable hanab.live variant against the catalogue's facts and the site's
//! own outputs: which clues are legal, what each clue touches, the decks the site deals, the card
//! names, and exact answers on small decks with suits no clue touches, checked by brute force.
//!
//! The references here are written from the rules as HANABLIVE.md states them, asking the
//! catalogue's per-card facts (`VariantFacts::color_touches`, `rank_touches`, `deck`) or the
//! site's files directly, never the variant's precomputed tables.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::Command;

use common::{reference, Rng};

use hanabi_solver::game::card::{Card, KINDS};
use hanabi_solver::game::catalogue::{
    Catalogue, RuleFamily, SuitFacts, VariantFacts, VariantFlags,
};
use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::line::final_state;
use hanabi_solver::search::{solve, SolveConfig};
use hanabi_solver::seed::{shuffle_for_seed, shuffled_deck};
use hanabi_solver::state::{Action, Deal, State};
use serde_json::Value;

/// A card as the site writes it: (suit index, rank).
type SiteCard = (usize, u8);

fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/hanablive-variants")
}

fn read_jsonl(name: &str) -> Vec<Value> {
    let path = shared_dir().join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The play-rule families the solver models (their variants are played): all of them.
const MODELLED: &[RuleFamily] = &[
    RuleFamily::UpOrDown,
    RuleFamily::Sudoku,
    RuleFamily::ReversedSuits,
    RuleFamily::InvertedSuits,
    RuleFamily::ThrowItInAHole,
    RuleFamily::ClueStarved,
    RuleFamily::AlternatingClues,
];

/// Every catalogue variant with its `Variant`: the solver plays them all.
fn playable() -> Vec<(&'static VariantFacts, Variant)> {
    let mut out = Vec::new();
    for facts in Catalogue::builtin().variants() {
        match Variant::from_facts(facts) {
            Ok(v) => {
                let families = facts.rule_families();
                assert!(
                    families.iter().all(|f| MODELLED.contains(f)),
                    "{} accepted",
                    facts.name
                );
                out.push((facts, v));
            }
            Err(e) => panic!("{}: {e}", facts.name),
        }
    }
    out
}

/// The card of a site card: START is rank 7 on the site.
fn card(c: SiteCard) -> Card {
    if c.1 == hanabi_solver::game::catalogue::START_RANK {
        Card::start(c.0 as u8)
    } else {
        Card::new(c.0 as u8, c.1)
    }
}

fn site_card(c: Card) -> SiteCard {
    (c.suit() as usize, Variant::site_rank(c))
}

/// Whether some clue the variant has touches the card, by the catalogue's per-card facts.
fn touchable(f: &VariantFacts, (suit, rank): SiteCard) -> bool {
    (0..f.clue_colors.len()).any(|c| f.color_touches(c, suit, rank))
        || f.clue_ranks.iter().any(|&r| f.rank_touches(r, suit, rank))
}

/// A clue type that exists and touches nothing by the variant's flags (Color, Number and Totally
/// Blind): HANABLIVE.md makes such clues always legal.
fn has_blind_clue_type(f: &VariantFacts) -> bool {
    (f.flags.color_clues_touch_nothing && !f.clue_colors.is_empty())
        || (f.flags.rank_clues_touch_nothing && !f.clue_ranks.is_empty())
}

/// The rule of HANABLIVE.md: a clue costs a token (two half tokens in Clue Starved, where
/// `clues` counts halves) and must touch a card of another player, unless empty clues are
/// allowed or the variant has a blind clue type. (In Alternating Clues the first clue may be of
/// either type, as in these positions.)
fn clue_is_legal(
    f: &VariantFacts,
    hands: &[Vec<SiteCard>],
    turn: usize,
    clues: u8,
    empty_clues: bool,
) -> bool {
    let cost = if f.flags.clue_starved { 2 } else { 1 };
    if clues < cost {
        return false;
    }
    if empty_clues || has_blind_clue_type(f) {
        return true;
    }
    hands
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != turn)
        .any(|(_, hand)| hand.iter().any(|&c| touchable(f, c)))
}

/// Whether the variant's name names one of the clue families this file is most about.
fn is_clue_family(name: &str) -> bool {
    [
        "Null",
        "Brown",
        "Muddy",
        "Blind",
        "Mute",
        "Light Pink",
        "Cocoa",
        "Pink",
        "White",
        "Omni",
        "Prism",
        "Odds",
        "Funnels",
        "Chimneys",
        "Synesthesia",
    ]
    .iter()
    .any(|k| name.contains(k))
}

/// One position: hands, whose turn, tokens and the empty-clues option.
struct Position {
    hands: Vec<Vec<SiteCard>>,
    turn: usize,
    clues: u8,
    empty_clues: bool,
}

/// Sets the position up in `variant` and checks every way the state answers "may a clue be
/// given" against [`clue_is_legal`]. Returns the expected answer.
fn check_position(f: &VariantFacts, variant: &Variant, pos: &Position, pile: &[SiteCard]) -> bool {
    let options = Options {
        hand_size: Some(4),
        clues: Some(8),
        empty_clues: pos.empty_clues,
        ..Options::default()
    };
    let rules = Rules::new(variant.clone(), pos.hands.len() as u8, &options).unwrap();
    let mut state = State::empty();
    for (p, hand) in pos.hands.iter().enumerate() {
        for &c in hand {
            state.push(p, card(c));
        }
    }
    state.clues = pos.clues;
    state.turn = pos.turn as u8;
    let deal = Deal::with_pile(rules.clone(), pile.iter().map(|&c| card(c)).collect());
    let want = clue_is_legal(f, &pos.hands, pos.turn, pos.clues, pos.empty_clues);
    let what = || {
        format!(
            "{} (id {}): hands {:?}, turn {}, {} clues, empty clues {}",
            f.name, f.id, pos.hands, pos.turn, pos.clues, pos.empty_clues
        )
    };
    assert_eq!(state.can_clue(&rules), want, "can_clue in {}", what());
    // Alternating Clues has a move per clue type.
    let clue_moves = if variant.tokens().alternating {
        vec![Action::ColourClue, Action::RankClue]
    } else {
        vec![Action::Clue]
    };
    let listed = state
        .legal_actions(&deal)
        .iter()
        .any(|a| clue_moves.contains(a));
    assert_eq!(listed, want, "Clue in legal_actions in {}", what());
    assert_eq!(
        clue_moves.iter().any(|&a| state.apply(&deal, a).is_ok()),
        want,
        "apply(Clue) in {}",
        what()
    );
    let mover_has_cards = !pos.hands[pos.turn].is_empty();
    assert_eq!(
        state.has_legal_action(&deal),
        mover_has_cards || want,
        "has_legal_action in {}",
        what()
    );
    want
}

/// Random positions in the clue-family variants and a sample of the others; half of them deal
/// the untouchable cards of the deck first, so that hands of only such cards come up.
#[test]
fn clue_legality_follows_the_catalogue_facts() {
    let mut rng = Rng(0x5eed_c1e5);
    let (mut variants, mut positions, mut refused, mut refused_for_touch) = (0, 0, 0, 0);
    let mut refused_variants = 0;
    for (f, variant) in playable() {
        if !is_clue_family(&f.name) && rng.below(6) != 0 {
            continue;
        }
        variants += 1;
        let mut refused_here = false;
        for _ in 0..24 {
            let mut deck = f.deck();
            rng.shuffle(&mut deck);
            if rng.coin() {
                // Untouchable cards first (a stable sort keeps the shuffle within each part).
                deck.sort_by_key(|&c| touchable(f, c));
            }
            let players = rng.range(2, 5) as usize;
            let mut hands = Vec::new();
            for _ in 0..players {
                let n = if rng.below(6) == 0 {
                    0
                } else {
                    rng.range(1, 4) as usize
                };
                hands.push(deck.drain(..n).collect::<Vec<_>>());
            }
            let pos = Position {
                hands,
                turn: rng.below(players as u64) as usize,
                clues: if rng.below(8) == 0 {
                    0
                } else {
                    rng.range(1, 8) as u8
                },
                empty_clues: rng.below(4) == 0,
            };
            let legal = check_position(f, &variant, &pos, &deck);
            positions += 1;
            if !legal && pos.clues > 0 && !pos.empty_clues {
                refused += 1;
                let others_hold = (0..players).any(|p| p != pos.turn && !pos.hands[p].is_empty());
                if others_hold {
                    refused_for_touch += 1;
                    refused_here = true;
                }
            }
        }
        refused_variants += refused_here as usize;
    }
    eprintln!(
        "{variants} variants, {positions} positions, {refused} with no legal clue, \
         {refused_for_touch} of them while others hold only untouchable cards \
         (in {refused_variants} variants)"
    );
    assert!(variants >= 800, "{variants} variants");
    assert!(refused_for_touch >= 500, "{refused_for_touch}");
    assert!(refused_variants >= 50, "{refused_variants}");
}

/// In every playable variant with cards no clue touches (by the facts), hands made only of those
/// cards leave no legal clue, one touchable card anywhere but the mover's hand makes one legal,
/// and empty clues make it legal again.
#[test]
fn hands_of_untouchable_cards_leave_no_legal_clue() {
    let mut rng = Rng(0xdead_c1e5);
    let (mut variants, mut refused, mut with_blind) = (0, 0, 0);
    let mut families = BTreeMap::new();
    for (f, variant) in playable() {
        let deck = f.deck();
        let (untouchable, touchable_cards): (Vec<SiteCard>, Vec<SiteCard>) =
            deck.iter().partition(|&&c| !touchable(f, c));
        if untouchable.is_empty() {
            continue;
        }
        variants += 1;
        for k in ["Null", "Brown", "White", "Gray", "Synesthesia", "Blind"] {
            if f.name.contains(k) {
                *families.entry(k).or_insert(0) += 1;
            }
        }
        with_blind += has_blind_clue_type(f) as usize;
        for _ in 0..6 {
            let players = rng.range(2, 4) as usize;
            let turn = rng.below(players as u64) as usize;
            let mut pool = untouchable.clone();
            rng.shuffle(&mut pool);
            let mut hands = vec![Vec::new(); players];
            // The mover's hand may hold anything; the others only untouchable cards.
            let mut rest = touchable_cards.clone();
            rng.shuffle(&mut rest);
            let n = (rng.range(0, 3) as usize).min(rest.len());
            hands[turn] = rest.drain(..n).collect();
            let mut dealt_untouchable = 0;
            for (p, hand) in hands.iter_mut().enumerate() {
                if p != turn && !pool.is_empty() {
                    let n = (rng.range(1, 4) as usize).min(pool.len());
                    hand.extend(pool.drain(..n));
                    dealt_untouchable += n;
                }
            }
            assert!(dealt_untouchable > 0);
            // A touchable card kept back for the last check.
            let extra = rest.pop();
            let pile: Vec<SiteCard> = pool.iter().chain(&rest).copied().collect();
            let mut pos = Position {
                hands,
                turn,
                // At least one clue's cost (two half tokens in Clue Starved).
                clues: rng.range(1, 8) as u8 * variant.tokens().clue_cost,
                empty_clues: false,
            };
            let legal = check_position(f, &variant, &pos, &pile);
            assert_eq!(legal, has_blind_clue_type(f), "{}", f.name);
            refused += !legal as usize;
            // Empty clues make the clue legal.
            pos.empty_clues = true;
            assert!(
                check_position(f, &variant, &pos, &pile),
                "{}: {} clues",
                f.name,
                pos.clues
            );
            pos.empty_clues = false;
            // One touchable card in another player's hand makes it legal.
            if let Some(c) = extra {
                let other = (turn + 1 + rng.below(players as u64 - 1) as usize) % players;
                pos.hands[other].push(c);
                assert!(check_position(f, &variant, &pos, &pile), "{}", f.name);
            }
        }
    }
    eprintln!(
        "{variants} variants with untouchable cards ({with_blind} with a blind clue type), \
         {refused} positions with no legal clue; by name: {families:?}"
    );
    assert!(variants >= 100, "{variants}");
    assert!(refused >= 500, "{refused}");
    for k in ["Null", "Brown", "White", "Gray", "Synesthesia", "Blind"] {
        assert!(families.get(k).copied().unwrap_or(0) > 0, "no {k} variant");
    }
}

/// The kinds of a deck, as the site writes cards, each once.
fn kinds(f: &VariantFacts) -> Vec<SiteCard> {
    let mut deck = f.deck();
    deck.dedup();
    deck
}

/// The colour clues (by index) and rank clues (by value) of `variant` whose touch sets hold the
/// card, in the order `VariantFacts::touch` lists them.
fn variant_touch(variant: &Variant, c: SiteCard) -> (Vec<usize>, Vec<u8>) {
    let bit = card(c).kind_bit();
    let colours = variant
        .colour_clues()
        .iter()
        .enumerate()
        .filter(|(_, clue)| clue.touches & bit != 0)
        .map(|(i, _)| i)
        .collect();
    let ranks = variant
        .rank_clues()
        .iter()
        .filter(|clue| clue.touches & bit != 0)
        .map(|clue| clue.value)
        .collect();
    (colours, ranks)
}

/// Checks the variant's clue tables against the facts card by card; returns the cards checked.
fn check_touch_tables(f: &VariantFacts, v: &Variant) -> usize {
    let name = &f.name;
    let colour_names: Vec<&str> = v.colour_clues().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(colour_names, f.clue_colors, "{name}");
    for (i, clue) in v.colour_clues().iter().enumerate() {
        assert_eq!(usize::from(clue.value), i, "{name}");
    }
    let values: Vec<u8> = v.rank_clues().iter().map(|c| c.value).collect();
    assert_eq!(values, f.clue_ranks, "{name}");
    for clue in v.rank_clues() {
        let want = match (f.flags.odds_and_evens, clue.value) {
            (true, 1) => "Odd".to_string(),
            (true, 2) => "Even".to_string(),
            (_, value) => value.to_string(),
        };
        assert_eq!(clue.name, want, "{name}");
    }
    let deck_kinds = kinds(f);
    let in_deck = deck_kinds
        .iter()
        .fold(0, |set, &c| set | card(c).kind_bit());
    for clue in v.colour_clues().iter().chain(v.rank_clues()) {
        assert_eq!(
            clue.touches & !in_deck,
            0,
            "{name}: {} touches no card",
            clue.name
        );
    }
    for &c in &deck_kinds {
        assert_eq!(variant_touch(v, c), f.touch(c.0, c.1), "{name}: card {c:?}");
    }
    // The derived sets, from the facts.
    let clueable = deck_kinds
        .iter()
        .filter(|&&c| touchable(f, c))
        .fold(0, |set, &c| set | card(c).kind_bit());
    assert_eq!(v.clueable(), clueable, "{name}");
    let blind = has_blind_clue_type(f);
    assert_eq!(v.has_blind_clue(), blind, "{name}");
    assert_eq!(
        v.every_card_clueable(),
        blind || clueable == in_deck,
        "{name}"
    );
    assert_eq!(
        v.clue_type_is_blind(true),
        f.flags.color_clues_touch_nothing && !f.clue_colors.is_empty(),
        "{name}"
    );
    assert_eq!(
        v.clue_type_is_blind(false),
        f.flags.rank_clues_touch_nothing && !f.clue_ranks.is_empty(),
        "{name}"
    );
    deck_kinds.len()
}

/// Every playable variant's clue tables hold exactly the cards the catalogue says each clue
/// touches; and so do shortened copies (fewer suits, shorter stacks), as tests build them.
#[test]
fn variant_touch_sets_are_the_catalogues() {
    let mut rng = Rng(0x70c4);
    let (mut variants, mut cards, mut short) = (0, 0, 0);
    for (f, v) in playable() {
        cards += check_touch_tables(f, &v);
        variants += 1;
        let mut small = f.clone();
        // Up or Down keeps its stacks of 5: its START rule names the 2 and the 4.
        let stack = rng.range(1, 4) as u8;
        if !small.flags.up_or_down {
            small.stack_size = stack;
        }
        small.clue_ranks.retain(|&r| rng.below(4) != 0 || r == 1);
        let keep = rng.range(1, small.suits.len() as u64) as usize;
        small.suits.truncate(keep);
        let sv = Variant::from_facts(&small).unwrap();
        assert_eq!(sv.deck_size(), small.deck().len(), "{}", f.name);
        cards += check_touch_tables(&small, &sv);
        short += 1;
    }
    eprintln!("{variants} variants and {short} shortened copies, {cards} cards");
    assert!(variants >= 1800 && cards >= 50_000, "{variants} {cards}");
}

/// For every playable variant of the site's clue sample, the variant's clue tables are the
/// site's own touch table (`touch["suit:rank"]`), with the site's clue colours and ranks.
#[test]
fn touch_sets_match_the_sites_table() {
    let cat = Catalogue::builtin();
    let (mut checked, mut refused, mut cards) = (0, 0, 0);
    for record in read_jsonl("clues-sample.jsonl") {
        let id = record["variant_id"].as_u64().unwrap() as u32;
        let f = cat.by_id(id).unwrap();
        assert_eq!(f.name, record["variant"].as_str().unwrap());
        let v = match Variant::from_facts(f) {
            Ok(v) => v,
            Err(e) => panic!("{}: {e}", f.name),
        };
        refused += usize::from(!f.rule_families().is_empty());
        let colour_names: Vec<&str> = v.colour_clues().iter().map(|c| c.name.as_str()).collect();
        let site_colours: Vec<&str> = record["color_clues"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(colour_names, site_colours, "{}", f.name);
        let values: Vec<u64> = v.rank_clues().iter().map(|c| u64::from(c.value)).collect();
        let site_values: Vec<u64> = record["rank_clues"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_u64().unwrap())
            .collect();
        assert_eq!(values, site_values, "{}", f.name);
        let touch = record["touch"].as_object().unwrap();
        let mut ours: Vec<String> = v
            .deck()
            .iter()
            .map(|&c| format!("{}:{}", c.suit(), Variant::site_rank(c)))
            .collect();
        ours.dedup();
        let mut site_keys: Vec<&String> = touch.keys().collect();
        site_keys.sort();
        let mut our_keys: Vec<&String> = ours.iter().collect();
        our_keys.sort();
        assert_eq!(our_keys, site_keys, "{}: the cards", f.name);
        for (key, t) in touch {
            let (suit, rank) = key.split_once(':').unwrap();
            let c = (suit.parse().unwrap(), rank.parse().unwrap());
            let (colours, ranks) = variant_touch(&v, c);
            let site_colours: Vec<usize> = t["colors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap() as usize)
                .collect();
            let site_ranks: Vec<u8> = t["ranks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap() as u8)
                .collect();
            assert_eq!(
                (colours, ranks),
                (site_colours, site_ranks),
                "{} card {key}",
                f.name
            );
            cards += 1;
        }
        checked += 1;
    }
    eprintln!(
        "{checked} sampled variants checked ({cards} cards), {refused} of a play-rule family"
    );
    assert!(checked >= 150 && refused >= 1, "{checked} {refused}");
}

/// Every catalogue variant builds by id with the catalogue's deck, copies and score.
#[test]
fn every_playable_variant_deck_is_the_catalogues() {
    let mut played = 0;
    for f in Catalogue::builtin().variants() {
        match Variant::by_id(f.id) {
            Ok(v) => {
                let families = f.rule_families();
                assert!(families.iter().all(|x| MODELLED.contains(x)), "{}", f.name);
                assert_eq!((v.id, v.name.as_str()), (Some(f.id), f.name.as_str()));
                let deck: Vec<SiteCard> = v.deck().into_iter().map(site_card).collect();
                assert_eq!(deck, f.deck(), "{}", f.name);
                assert_eq!(v.deck_size(), deck.len(), "{}", f.name);
                assert_eq!(u32::from(v.perfect_score()), f.max_score(), "{}", f.name);
                for (s, suit) in f.suits.iter().enumerate() {
                    assert_eq!(v.suits[s].one_each, suit.one_of_each, "{}", f.name);
                    for r in 1..=5 {
                        assert_eq!(v.copies(s as u8, r), f.copies(s, r), "{}", f.name);
                    }
                    assert_eq!(
                        v.copies(s as u8, hanabi_solver::game::card::START),
                        f.copies(s, hanabi_solver::game::catalogue::START_RANK),
                        "{}",
                        f.name
                    );
                }
                let kinds = v.copies_by_kind().iter().filter(|&&n| n > 0).count();
                assert_eq!(kinds, self::kinds(f).len(), "{}", f.name);
                assert!(kinds <= KINDS);
                played += 1;
            }
            Err(e) => panic!("{}: {e}", f.name),
        }
    }
    eprintln!("{played} variants played");
    assert_eq!(played, Catalogue::builtin().variants().len());
}

/// Runs `deal SEED --json` for each seed, on two threads, and returns the parsed outputs.
fn deal_json_all(seeds: &[String]) -> Vec<Value> {
    let run = |seed: &String| -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
            .args(["deal", seed, "--json"])
            .output()
            .expect("the binary runs");
        assert!(
            out.status.success(),
            "deal {seed}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("deal --json prints JSON")
    };
    let half = seeds.len().div_ceil(2);
    std::thread::scope(|scope| {
        let parts: Vec<_> = seeds
            .chunks(half.max(1))
            .map(|part| scope.spawn(move || part.iter().map(run).collect::<Vec<_>>()))
            .collect();
        parts.into_iter().flat_map(|h| h.join().unwrap()).collect()
    })
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Checks one `deal --json` output against the deck it must deal.
fn check_deal_output(
    out: &Value,
    f: &VariantFacts,
    v: &Variant,
    players: usize,
    want: &[SiteCard],
) {
    let name = &f.name;
    assert_eq!(common::site_cards(&out["deck_cards"]), want, "{name}");
    assert_eq!(out["variant_id"], f.id, "{name}");
    assert_eq!(out["variant"], f.name.as_str(), "{name}");
    assert_eq!(out["players"], players, "{name}");
    // The suits as the site's variant files and game data name them ("Ice EA", not "Ice").
    let site_names: Vec<String> = f.suits.iter().map(|s| s.variant_name()).collect();
    assert_eq!(strings(&out["suits"]), site_names, "{name}");
    let names: Vec<String> = want.iter().map(|&c| v.card_name(card(c))).collect();
    assert_eq!(strings(&out["deck"]), names, "{name}");
    let h = out["hand_size"].as_u64().unwrap() as usize;
    let hands: Vec<Vec<String>> = out["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(strings)
        .collect();
    assert_eq!(hands.len(), players, "{name}");
    // Each hand as hanab.live shows it: the last card dealt (slot 1) first.
    for (p, hand) in hands.iter().enumerate() {
        let dealt: Vec<String> = names[p * h..(p + 1) * h].iter().rev().cloned().collect();
        assert_eq!(hand, &dealt, "{name}");
    }
    assert_eq!(strings(&out["pile"]), names[players * h..], "{name}");
}

/// The site's deck of `p2v{ID}s1` for every playable variant: by the library for all of them,
/// and by the `deal` command for every seventh.
#[test]
fn site_decks_of_every_playable_variant() {
    let playable: HashMap<u32, (&VariantFacts, Variant)> = playable()
        .into_iter()
        .map(|(f, v)| (f.id, (f, v)))
        .collect();
    let (mut checked, mut base_names_differ) = (0, 0);
    let mut by_cli = Vec::new();
    for record in read_jsonl("decks-p2-s1.jsonl") {
        let id = record["variant_id"].as_u64().unwrap() as u32;
        let Some((f, v)) = playable.get(&id) else {
            continue;
        };
        let seed = record["seed"].as_str().unwrap().to_string();
        assert_eq!(seed, format!("p2v{id}s1"));
        let site: Vec<SiteCard> = record["deck"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c[0].as_u64().unwrap() as usize,
                    c[1].as_u64().unwrap() as u8,
                )
            })
            .collect();
        let ours: Vec<SiteCard> = shuffled_deck(&seed, v).into_iter().map(site_card).collect();
        assert_eq!(ours, site, "{}", f.name);
        let base: Vec<String> = f.suits.iter().map(|s| s.name.clone()).collect();
        assert_eq!(base, strings(&record["suits"]), "{}", f.name);
        base_names_differ += f.suits.iter().any(|s| s.display_name != s.name) as usize;
        if checked % 7 == 0 {
            by_cli.push((seed, *f, v, site));
        }
        checked += 1;
    }
    let seeds: Vec<String> = by_cli.iter().map(|j| j.0.clone()).collect();
    for (out, (_, f, v, site)) in deal_json_all(&seeds).iter().zip(&by_cli) {
        check_deal_output(out, f, v, 2, site);
    }
    eprintln!(
        "{checked} site decks checked, {} by the command; {base_names_differ} variants show \
         suit names other than the site's file names",
        by_cli.len()
    );
    assert_eq!(checked, playable.len());
    assert!(by_cli.len() >= checked / 7);
}

/// `p3v{ID}s7` for every playable variant is the site's shuffle of the catalogue's deck: by the
/// library for all, by the `deal` command for every seventh.
#[test]
fn three_player_decks_follow_the_sites_shuffle() {
    let mut by_cli = Vec::new();
    let all = playable();
    for (i, (f, v)) in all.iter().enumerate() {
        let seed = format!("p3v{}s7", f.id);
        let mut want = f.deck();
        shuffle_for_seed(&seed, &mut want);
        let ours: Vec<SiteCard> = shuffled_deck(&seed, v).into_iter().map(site_card).collect();
        assert_eq!(ours, want, "{}", f.name);
        if i % 7 == 3 {
            by_cli.push((seed, *f, v, want));
        }
    }
    let seeds: Vec<String> = by_cli.iter().map(|j| j.0.clone()).collect();
    for (out, (_, f, v, want)) in deal_json_all(&seeds).iter().zip(&by_cli) {
        check_deal_output(out, f, v, 3, want);
        assert_eq!(out["hand_size"], 5);
    }
    eprintln!("{} variants, {} by the command", all.len(), by_cli.len());
    assert!(by_cli.len() >= all.len() / 7);
}

/// Every playable variant's card names: one prefix per suit, lower-case letters, unique, the
/// site's abbreviation where no other suit of the variant shares it; every card's name reads
/// back to the card in either case, and ranks outside the stack are refused.
#[test]
fn card_names_of_every_playable_variant_round_trip() {
    let (mut variants, mut cards, mut longer) = (0, 0, 0);
    for (f, v) in playable() {
        let name = &f.name;
        let shorts: Vec<&str> = v.suits.iter().map(|s| s.short.as_str()).collect();
        assert_eq!(shorts.len(), f.suits.len(), "{name}");
        for (i, short) in shorts.iter().enumerate() {
            assert!(
                !short.is_empty() && short.chars().all(|c| c.is_ascii_lowercase()),
                "{name}: prefix {short:?}"
            );
            assert_eq!(
                shorts.iter().filter(|&s| s == short).count(),
                1,
                "{name}: prefix {short:?} twice in {shorts:?}"
            );
            let abbreviation = f.suits[i].abbreviation;
            let shared = f
                .suits
                .iter()
                .filter(|s| s.abbreviation == abbreviation)
                .count();
            if shared == 1 {
                assert_eq!(
                    *short,
                    abbreviation.to_ascii_lowercase().to_string(),
                    "{name}"
                );
            } else {
                longer += (short.len() > 1) as usize;
            }
            // A reversed suit shows as the site shows it: "Teal Reversed".
            let shown = if f.suits[i].reversed {
                format!("{} Reversed", f.suits[i].display_name)
            } else {
                f.suits[i].display_name.clone()
            };
            assert_eq!(v.suits[i].name, shown, "{name}");
        }
        for c in kinds(f) {
            let rank = if c.1 == hanabi_solver::game::catalogue::START_RANK {
                "S".to_string()
            } else {
                c.1.to_string()
            };
            let text = format!("{}{rank}", shorts[c.0]);
            assert_eq!(v.card_name(card(c)), text, "{name}");
            assert_eq!(v.parse_card(&text).unwrap(), card(c), "{name}: {text}");
            let upper = text.to_uppercase();
            assert_eq!(v.parse_card(&upper).unwrap(), card(c), "{name}: {upper}");
            cards += 1;
        }
        for short in &shorts {
            for rank in [0, f.stack_size + 1] {
                let text = format!("{short}{rank}");
                assert!(v.parse_card(&text).is_err(), "{name}: {text}");
            }
        }
        variants += 1;
    }
    eprintln!("{variants} variants, {cards} card names, {longer} longer prefixes");
    assert!(variants >= 1800 && longer > 0, "{variants} {longer}");
}

/// Suits of the small decks: ordinary, dark (one of each) and the clue families, Null and Dark
/// Null touched by no clue at all.
const SMALL_SUITS: &[&str] = &[
    "Red",
    "Blue",
    "Null",
    "Dark Null",
    "Black",
    "Brown",
    "Dark Brown",
    "White",
    "Gray",
    "Pink",
    "Light Pink",
    "Rainbow",
    "Muddy Rainbow",
    "Cocoa Rainbow",
];

fn catalogue_suit(name: &str) -> SuitFacts {
    let suit = Catalogue::builtin()
        .suits()
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no suit {name}"));
    suit.clone()
}

/// Random small variant facts: two or three of [`SMALL_SUITS`] (one of them untouchable half the
/// time), stacks of 2 or 3, the clue colours the suits name (each once, in suit order, as the
/// site derives them), every rank clue; sometimes a clue type muted or blind. At most 12 cards.
fn small_facts(rng: &mut Rng) -> VariantFacts {
    loop {
        let n = rng.range(2, 3) as usize;
        let mut names: Vec<&str> = Vec::new();
        if rng.coin() {
            names.push(["Null", "Dark Null"][rng.below(2) as usize]);
        }
        while names.len() < n {
            let s = SMALL_SUITS[rng.below(SMALL_SUITS.len() as u64) as usize];
            if !names.contains(&s) {
                names.push(s);
            }
        }
        rng.shuffle(&mut names);
        let suits: Vec<SuitFacts> = names.iter().map(|n| catalogue_suit(n)).collect();
        let stack_size = rng.range(2, 3) as u8;
        let mut clue_colors: Vec<String> = Vec::new();
        for s in &suits {
            for c in &s.clue_colors {
                if !clue_colors.contains(c) {
                    clue_colors.push(c.clone());
                }
            }
        }
        let mut clue_ranks: Vec<u8> = (1..=stack_size).collect();
        let mut flags = VariantFlags::default();
        match rng.below(10) {
            0 => clue_colors.clear(),
            1 => clue_ranks.clear(),
            2 => flags.color_clues_touch_nothing = true,
            3 => flags.rank_clues_touch_nothing = true,
            _ => {}
        }
        let facts = VariantFacts {
            id: 100_000,
            name: format!("{} x{stack_size}", names.join(" & ")),
            suits,
            clue_colors,
            clue_ranks,
            stack_size,
            special_rank: None,
            critical_rank: None,
            flags,
        };
        if facts.deck().len() <= 12 {
            return facts;
        }
    }
}

/// The same deck with every card touched by its own rank clue: what the game would be if no
/// card were untouchable.
fn every_card_clueable(f: &VariantFacts) -> VariantFacts {
    let mut g = f.clone();
    g.clue_ranks = (1..=f.stack_size).collect();
    g.flags.rank_clues_touch_nothing = false;
    for s in &mut g.suits {
        s.no_clue_ranks = false;
    }
    g
}

/// The solver's answer, proven, with a line that reaches it.
fn solved(deal: &Deal, state: &State, what: &str) -> u8 {
    let got = solve(deal, state, &SolveConfig::default());
    assert!(got.proven, "{what}: not proven");
    let end = final_state(deal, state, &got.line).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(
        end.score(&deal.rules),
        got.max_score,
        "{what}: the line's score"
    );
    got.max_score
}

/// Small games of small decks with untouchable, one-of-each and clue-family suits: the solver's
/// best score is the brute-force reference's, and its line reaches it. The same deals with every
/// card clueable must score differently in some games, or untouchable cards were never tested.
#[test]
fn solver_agrees_with_reference_on_small_decks_with_untouchable_suits() {
    let mut rng = Rng(0x5a11);
    let (mut games, mut untouchable_games, mut differ, mut below_perfect) = (0, 0, 0, 0);
    while games < 160 {
        let f = small_facts(&mut rng);
        let variant = Variant::from_facts(&f).unwrap();
        let players = rng.range(2, 3) as u8;
        let options = Options {
            hand_size: Some(rng.range(1, 3) as u8),
            clues: Some(rng.range(1, 2) as u8),
            strikes: Some(rng.range(1, 3) as u8),
            empty_clues: rng.below(3) == 0,
            deck_plays: rng.below(4) == 0,
            endless: rng.below(3) == 0,
        };
        let Ok(rules) = Rules::new(variant, players, &options) else {
            continue;
        };
        let mut deck = rules.variant.deck();
        rng.shuffle(&mut deck);
        let (deal, state) = Deal::from_deck(rules.clone(), &deck).unwrap();
        let names: Vec<String> = deck.iter().map(|&c| rules.variant.card_name(c)).collect();
        let what = format!(
            "game {games}: {} {options:?} {players}p deck {names:?}",
            f.name
        );
        let expected = reference(&deal, &state, &mut HashMap::new());
        assert_eq!(solved(&deal, &state, &what), expected, "{what}");
        below_perfect += (expected < rules.perfect_score()) as usize;
        let has_untouchable = f.deck().iter().any(|&c| !touchable(&f, c));
        if has_untouchable && !options.empty_clues && !has_blind_clue_type(&f) {
            untouchable_games += 1;
            let g = every_card_clueable(&f);
            let open = Rules::new(Variant::from_facts(&g).unwrap(), players, &options).unwrap();
            assert!(open.variant.every_card_clueable());
            let (open_deal, open_state) = Deal::from_deck(open, &deck).unwrap();
            let open_expected = reference(&open_deal, &open_state, &mut HashMap::new());
            let open_what = format!("{what}, every card clueable");
            assert_eq!(solved(&open_deal, &open_state, &open_what), open_expected);
            differ += (open_expected != expected) as usize;
        }
        games += 1;
    }
    eprintln!(
        "{games} games, {below_perfect} below perfect, {untouchable_games} with untouchable \
         cards and empty clues off, {differ} of them scoring otherwise with every card clueable"
    );
    assert!(below_perfect >= games / 10, "{below_perfect}");
    assert!(untouchable_games >= 30, "{untouchable_games}");
    assert!(differ > 0, "untouchable cards never changed an answer");
}
