//! Criterion benches of the SAT solver on the questions that keep the 2 s rows of 5- and
//! 6-player Black (6 Suits) from deciding every seed: the perfect score of a deal whose search
//! found 29 points and neither a perfect line nor a proof that none exists. Each question is a
//! fresh formula in a fresh solver, as a batch asks it ([`sat::reach`], the per-turn formula
//! with the short question first; and the per-draw formula on the lost deals, as `solve`'s
//! race asks it). Run with `cargo bench --bench sat`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use hanabi_solver::benchset::parse_set;
use hanabi_solver::sat::{self, Decision, Stop};

/// Winnable deals whose perfect line the per-turn formula finds in about a second, and lost
/// ones it refutes in one or two (the 2 s row left each of them open).
const WON: [&str; 2] = ["p6v2s8304", "p6v2s673"];
const LOST: [&str; 2] = ["p6v2s3465", "p6v2s8220"];

/// Asks each deal for its perfect score, checking the answer (`won`: a line, otherwise none).
fn group(c: &mut Criterion, name: &str, seeds: &[&str], won: bool, by_draws: bool) {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    // Read as a bench set reads hanab.live seed names: players and variant from the name.
    let set = parse_set(name, "benches/sat.rs", &seeds.join("\n")).expect("hanab.live seeds");
    for d in &set.deals {
        let (deal, state) = d.deal();
        let seed = &d.label;
        let perfect = deal.rules.perfect_score();
        g.bench_function(BenchmarkId::from_parameter(seed), |b| {
            b.iter(|| {
                let answer =
                    sat::reach_by(black_box(&deal), &state, perfect, Stop::default(), by_draws)
                        .expect("the encoding models Black");
                assert_eq!(matches!(answer, Decision::Reached(_)), won, "{seed}");
                answer
            })
        });
    }
    g.finish();
}

fn perfect_lines(c: &mut Criterion) {
    group(c, "sat-black-won", &WON, true, false);
}

fn refutations(c: &mut Criterion) {
    group(c, "sat-black-lost", &LOST, false, false);
    group(c, "sat-black-lost-by-draws", &LOST, false, true);
}

criterion_group!(benches, perfect_lines, refutations);
criterion_main!(benches);
