//! Criterion benches of `review` on the committed games of `games/` (a 2-player game of 69
//! actions and a 5-player one of 50, each with one turn that lost a point): every position
//! solved with one shared table, and with the chance to win per turn (`--hidden`) at 10
//! sampled piles a turn where the exact answer is out of reach. Two threads, as on the 2-core
//! machine the README's timings come from. Run with `cargo bench --bench review`.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use hanabi_solver::analysis::{review, ChanceConfig, ReviewOptions};
use hanabi_solver::hanablive::{self, link, GameExport};
use hanabi_solver::search::SolveConfig;

fn load(name: &str) -> GameExport {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the review games are committed");
    hanablive::read(&text).expect("the review games read")
}

fn reviews(c: &mut Criterion) {
    let mut g = c.benchmark_group("review");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    let search = SolveConfig {
        threads: 2,
        tt_mb: 256,
        ..SolveConfig::default()
    };
    let plain = ReviewOptions {
        search: search.clone(),
        site: link::SITE.to_string(),
        chances: None,
    };
    let hidden = ReviewOptions {
        chances: Some(ChanceConfig {
            search: search.clone(),
            samples: 10,
            rng_seed: 1,
        }),
        ..plain.clone()
    };
    for (label, name) in [
        ("2p", "2p-p2v0s2-bad-discard.json"),
        ("5p", "5p-p5v0s2-bad-discard.json"),
    ] {
        let game = load(name);
        g.bench_function(format!("{label} every card known"), |b| {
            b.iter(|| review(&game, name, &plain, &mut |_| {}).expect("a review"))
        });
        g.bench_function(format!("{label} hidden, 10 samples a turn"), |b| {
            b.iter(|| review(&game, name, &hidden, &mut |_| {}).expect("a review"))
        });
    }
    g.finish();
}

criterion_group!(benches, reviews);
criterion_main!(benches);
