//! `hanabi-solver deal SEED`.

use anyhow::Context;
use clap::Args;
use hanabi_solver::game::card::Card;
use hanabi_solver::game::variant::Variant;
use hanabi_solver::line::newest_first;
use hanabi_solver::seed::{seed_from_link, shuffled_deck};
use std::io::Write;

#[derive(Args, Debug)]
pub struct DealArgs {
    /// Seed name, e.g. p2v0s1, or a hanab.live seed link (https://hanab.live/seed/p2v0s1).
    pub seed: String,
    #[command(flatten)]
    pub game: super::GameArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Seat names as hanab.live's examples give them.
const NAMES: [&str; 6] = ["Alice", "Bob", "Cathy", "Donald", "Emily", "Frank"];

pub fn run(args: DealArgs) -> anyhow::Result<()> {
    let seed = seed_from_link(&args.seed);
    let rules = args.game.rules_for_seed(seed)?;
    let deck = shuffled_deck(seed, &rules.variant);
    let h = rules.hand_size as usize;
    let n = rules.players as usize;
    let hands: Vec<&[Card]> = (0..n).map(|p| &deck[p * h..(p + 1) * h]).collect();
    let pile = &deck[n * h..];
    let v = &rules.variant;
    let names = |cards: &[Card]| cards.iter().map(|&c| v.card_name(c)).collect::<Vec<_>>();

    if args.json {
        let out = serde_json::json!({
            "seed": seed,
            "players": rules.players,
            "variant": v.name,
            "variant_id": v.id,
            "hand_size": rules.hand_size,
            "deck": names(&deck),
            // The site's own card form, as in its game exports.
            "deck_cards": deck
                .iter()
                .map(|c| serde_json::json!({"suitIndex": c.suit(), "rank": Variant::site_rank(*c)}))
                .collect::<Vec<_>>(),
            "suits": v.suits.iter().map(|s| &s.site_name).collect::<Vec<_>>(),
            // As hanab.live shows them: the newest card (slot 1, the last dealt) first.
            "hands": hands.iter().map(|hand| newest_first(&names(hand))).collect::<Vec<_>>(),
            "pile": names(pile),
        });
        return print(&format!("{}\n", serde_json::to_string_pretty(&out)?));
    }

    let id = v.id.map(|id| format!(" (id {id})")).unwrap_or_default();
    let mut text = format!("seed     {seed}\n");
    text += &format!("variant  {}{id}\n", v.name);
    text += &format!(
        "players  {}, {} cards each (as hanab.live shows them: slot 1, the last dealt, first)\n",
        rules.players, rules.hand_size
    );
    for (name, hand) in NAMES.iter().zip(&hands) {
        text += &format!("{name:<8} {}\n", newest_first(&names(hand)).join(" "));
    }
    text += &format!(
        "pile     {} cards, top first: {}\n",
        pile.len(),
        names(pile).join(" ")
    );
    print(&text)
}

/// Writes `text` to standard output; a reader that stops early (`| head`) is not an error.
fn print(text: &str) -> anyhow::Result<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("writing the deal"),
        _ => Ok(()),
    }
}
