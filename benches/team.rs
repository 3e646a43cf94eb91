//! Criterion benches of exact team play (`solve --team`): the shared reference positions, and
//! the final round of the committed 2-player game (games/2p-p2v0s2-bad-discard.json), where
//! each player's knowledge of its own cards comes from the game's clues: turn 69 (the last
//! turn, 8,640 worlds) and turn 68 (both final turns, 8,640 worlds); and the last turns of the
//! real 4-player game games/4p-game-194321.json, whose 10^15 worlds are searched with the dead
//! cards merged: turn 46 (one merged world) and turn 45 (16 merged worlds, four turns left).
//! One thread. Run with `cargo bench --bench team`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use hanabi_solver::analysis::{Source, View, ViewedPosition};
use hanabi_solver::hanablive::link;
use hanabi_solver::hidden::team::{team, TeamConfig};

fn here(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn teams(c: &mut Criterion) {
    let mut g = c.benchmark_group("team");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    let config = TeamConfig::default();
    let mut cases = Vec::new();
    for file in [
        "positions/team/01-blind-play-vs-clue.hanabi",
        "positions/team/03-three-player-final-round.hanabi",
    ] {
        cases.push((file.to_string(), Source::PositionFile(here(file))));
    }
    for (game, turn) in [
        ("2p-p2v0s2-bad-discard", 69),
        ("2p-p2v0s2-bad-discard", 68),
        ("4p-game-194321", 46),
        ("4p-game-194321", 45),
    ] {
        cases.push((
            format!("{game} turn {turn}"),
            Source::Game {
                path: here(&format!("games/{game}.json")),
                turn,
                site: link::SITE.to_string(),
            },
        ));
    }
    for (label, source) in cases {
        let viewed = ViewedPosition::new(&source, &View::Team).expect("a team position");
        g.bench_function(label, |b| {
            b.iter(|| team(&viewed.position, &config).expect("a team value"))
        });
    }
    g.finish();
}

criterion_group!(benches, teams);
criterion_main!(benches);
