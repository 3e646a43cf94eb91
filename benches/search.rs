//! Criterion benches of the search on fixed deals of the bench sets (`positions/bench/`), one
//! thread each. Run with `cargo bench`; `cargo bench -- hard-2p` runs one group.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use hanabi_solver::benchset::{default_dir, load_set, BenchDeal};
use hanabi_solver::search::{solve, SolveConfig};

fn config() -> SolveConfig {
    SolveConfig {
        threads: 1,
        ..SolveConfig::default()
    }
}

/// The first `n` deals of a set.
fn first(set: &str, n: usize) -> Vec<BenchDeal> {
    let set = load_set(&default_dir(), set).expect("the bench sets load");
    set.deals.into_iter().take(n).collect()
}

/// One deal of a set, by label.
fn named(set: &str, label: &str) -> BenchDeal {
    let set = load_set(&default_dir(), set).expect("the bench sets load");
    set.find(label)
        .unwrap_or_else(|| panic!("{label} is not in bench set {}", set.name))
        .clone()
}

/// A group solving each deal as its own benchmark. Flat sampling: a deal can take a second,
/// and linear sampling would run it 55 times.
fn group(c: &mut Criterion, name: &str, deals: &[BenchDeal]) {
    let config = config();
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for d in deals {
        let (deal, state) = d.deal();
        g.bench_function(BenchmarkId::from_parameter(&d.label), |b| {
            b.iter(|| solve(black_box(&deal), black_box(&state), &config))
        });
    }
    g.finish();
}

fn two_players(c: &mut Criterion) {
    group(c, "2p-no-variant", &first("2p-no-variant", 5));
}

fn four_players(c: &mut Criterion) {
    group(c, "4p-no-variant", &[named("4p-no-variant", "p4v0s37")]);
}

fn hard(c: &mut Criterion) {
    group(c, "hard-2p", &[named("hard-2p", "rama-old-11")]);
}

criterion_group!(benches, two_players, four_players, hard);
criterion_main!(benches);
