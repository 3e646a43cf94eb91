//! `hanabi-solver replay GAME`.

use anyhow::Context;
use clap::Args;
use hanabi_solver::analysis;
use hanabi_solver::hanablive;
use hanabi_solver::line::SiteAction;
use std::io::Write;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The game: a hanab.live export file (GAME.json), a finished game on the site by id
    /// (194321) or address (https://hanab.live/replay/194321, .../shared-replay/ID or
    /// .../export/ID; downloaded from --site), or a replay link
    /// (https://hanab.live/replay-json/..., as `solve --link` prints). An existing file of that
    /// name is always read as a file.
    pub game: String,
    #[command(flatten)]
    pub site: super::SiteArg,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<()> {
    let path = &args.game;
    let game = analysis::read_game(path, &args.site.site)?;
    let replay = hanablive::replay(&game).with_context(|| path.clone())?;
    let rules = &replay.deal.rules;
    let perfect = rules.perfect_score();

    let out = if args.json {
        let turns: Vec<_> = replay
            .turns
            .iter()
            .map(|t| {
                serde_json::json!({
                    "turn": t.turn,
                    "index": t.index,
                    "seat": t.seat,
                    "player": t.player,
                    "action": t.text,
                    // The action as the export gives it, beside its words.
                    "site": SiteAction::from(game.actions[t.index]),
                })
            })
            .collect();
        let value = serde_json::json!({
            "id": game.id,
            "seed": game.seed,
            "variant": rules.variant.name,
            "players": replay.names,
            "hand_size": rules.hand_size,
            "turns": turns,
            "score": replay.score,
            "perfect_score": perfect,
            "fireworks": replay.fireworks,
            "finished": replay.finished,
            "end_reason": replay.end_reason,
        });
        format!("{}\n", serde_json::to_string_pretty(&value)?)
    } else {
        let mut s = String::new();
        let id = game.id.map(|id| format!("game {id}, ")).unwrap_or_default();
        let seed = game
            .seed
            .as_ref()
            .map(|s| format!("seed {s}, "))
            .unwrap_or_default();
        s += &format!(
            "{id}{seed}{}: {} ({} cards each)\n",
            rules.variant.name,
            replay.names.join(", "),
            rules.hand_size
        );
        for t in &replay.turns {
            s += &format!("turn {:>3}  {}\n", t.turn, t.text);
        }
        if replay.finished {
            s += &format!("score {} of {perfect}\n", replay.score);
            s += &format!("the game ended: {}\n", replay.end_reason);
        } else {
            s += &format!("score so far {} of {perfect}\n", replay.score);
            s += &format!(
                "not over: {} after {} actions\n",
                replay.end_reason,
                replay.turns.len()
            );
        }
        s
    };
    match std::io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("writing the replay")
        }
        _ => Ok(()),
    }
}
