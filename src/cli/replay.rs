//! `hanabi-solver replay GAME.json`.

use anyhow::Context;
use clap::Args;
use hanabi_solver::hanablive::{self, link};
use hanabi_solver::line::SiteAction;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A hanab.live game export (JSON), or a replay link
    /// (https://hanab.live/replay-json/..., as `solve --link` prints).
    pub game: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<()> {
    let path = args.game.display().to_string();
    let game = if link::is_replay_link(&path) {
        link::decode(&path).context("reading the replay link")?
    } else {
        let text =
            std::fs::read_to_string(&args.game).with_context(|| format!("cannot read {path}"))?;
        hanablive::read(&text).with_context(|| path.clone())?
    };
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
