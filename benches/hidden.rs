//! Criterion benches of the hidden-card modes on the committed positions of
//! `positions/hidden/`: the exact hidden-pile analysis of an 8-card pile (one thread) and 100
//! sampled determinizations of a 20-card pile (one thread). Run with `cargo bench --bench hidden`.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use hanabi_solver::hidden::{exact, sample, ExactConfig};
use hanabi_solver::position::{self, Position};
use hanabi_solver::search::SolveConfig;

fn load(name: &str) -> Position {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("positions/hidden")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the hidden positions are committed");
    position::read(&text).expect("the hidden positions read")
}

fn hidden(c: &mut Criterion) {
    let mut g = c.benchmark_group("hidden");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    let pile8 = load("2p-pile-8.hanabi");
    g.bench_function("exact 2p-pile-8", |b| {
        b.iter(|| exact(black_box(&pile8), &ExactConfig::default()).expect("small enough"))
    });
    let pile20 = load("2p-pile-20.hanabi");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let config = SolveConfig::default();
    g.bench_function("100 samples 2p-pile-20", |b| {
        b.iter(|| pool.install(|| sample(black_box(&pile20), 100, 1, &config).expect("samples")))
    });
    g.finish();
}

criterion_group!(benches, hidden);
criterion_main!(benches);
