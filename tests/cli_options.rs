//! The binary under hostile options: every numeric option of `solve`, `deal` and `bench` (and
//! the files `replay` and `solve` read) at 0, -1, the limits of u32 and u64, 1e19, 1e30, NaN
//! and inf. Each run must exit within 20 seconds, never panic or die by a signal, and, when it
//! fails, say why on exactly one line of stderr. Each run is kept tiny (a small seed, a node
//! limit or a one-second time limit beside the option under test).
//!
//! Every problem of a command is collected before its test fails, so one run lists them all.
//! The library's parsers are fuzzed by `tests/fuzz.rs`; `seeds` by `tests/cli_seeds.rs`.
//!
//! The property at the end feeds arbitrary seed strings to `deal` and `solve`; it runs 16
//! cases, or a hundredth of `PROPTEST_CASES` when that is set.

mod common;

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::TempFile;
use proptest::prelude::*;

/// How long one run may take.
const LIMIT: Duration = Duration::from_secs(20);

/// The values every numeric option is tried with.
const VALUES: &[&str] = &[
    "0",
    "-1",
    "18446744073709551615",
    "1e19",
    "1e30",
    "NaN",
    "inf",
    "4294967295",
    "65536",
];

/// A path under the crate root.
fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .to_str()
        .unwrap()
        .to_string()
}

/// What a run did.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

/// Runs the binary with `args`, killing it after [`LIMIT`].
fn run(args: &[OsString]) -> Run {
    let child = Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    match common::wait_within(child, LIMIT) {
        Some(out) => Run {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            timed_out: false,
        },
        None => Run {
            code: None,
            stdout: String::new(),
            stderr: String::new(),
            timed_out: true,
        },
    }
}

/// What is wrong with a run, if anything: a time-out, a panic, death by a signal, or a failure
/// that does not say why on exactly one line.
fn problem(args: &[OsString], r: &Run) -> Option<String> {
    let what = if r.timed_out {
        format!("still running after {} s", LIMIT.as_secs())
    } else if r.stderr.contains("panicked") || r.stderr.contains("RUST_BACKTRACE") {
        "panicked".to_string()
    } else if r.code.is_none() {
        "was killed by a signal".to_string()
    } else if r.code != Some(0) && r.stderr.trim_end().lines().count() != 1 {
        format!(
            "failed with {} lines on stderr",
            r.stderr.trim_end().lines().count()
        )
    } else if r.code != Some(0) && r.stderr.trim_end().contains('\r') {
        "failed with a carriage return on stderr".to_string()
    } else {
        return None;
    };
    let tail: String = {
        let lines: Vec<&str> = r.stderr.lines().collect();
        lines[lines.len().saturating_sub(4)..].join(" | ")
    };
    Some(format!("{args:?} {what} (exit {:?}): {tail:?}", r.code))
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// Runs every argument list and fails with the list of problems, if any.
fn check_all(runs: Vec<Vec<OsString>>) {
    let problems = problems(&runs);
    assert_none(&problems, runs.len());
}

/// The problems of the runs of `runs`.
fn problems(runs: &[Vec<OsString>]) -> Vec<String> {
    runs.iter()
        .filter_map(|args| problem(args, &run(args)))
        .collect()
}

#[track_caller]
fn assert_none(problems: &[String], runs: usize) {
    assert!(
        problems.is_empty(),
        "{} of {runs} runs went wrong:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// `base` plus each `(option, value)` of `defaults` other than `option`, then `option` at
/// every value of [`VALUES`] (`-1` both as a separate word and after `=`).
fn matrix(base: &[&str], defaults: &[(&str, &str)], option: &str) -> Vec<Vec<OsString>> {
    let mut out = Vec::new();
    let mut head: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    for (k, v) in defaults {
        if *k != option {
            head.push(k.to_string());
            head.push(v.to_string());
        }
    }
    for value in VALUES {
        let mut args = head.clone();
        args.push(option.to_string());
        args.push(value.to_string());
        out.push(args);
        if value.starts_with('-') {
            let mut args = head.clone();
            args.push(format!("{option}={value}"));
            out.push(args);
        }
    }
    out.into_iter()
        .map(|a| a.into_iter().map(OsString::from).collect())
        .collect()
}

/// Search limits that keep a solve tiny.
const SEARCH: &[(&str, &str)] = &[
    ("--threads", "1"),
    ("--tt-mb", "16"),
    ("--max-nodes", "2000"),
    ("--time-limit", "1"),
];

/// The same without `--max-nodes`, which `--exact` refuses.
const EXACT_SEARCH: &[(&str, &str)] =
    &[("--threads", "1"), ("--tt-mb", "16"), ("--time-limit", "1")];

const RULE_OPTIONS: &[&str] = &[
    "--players",
    "--suits",
    "--ranks",
    "--hand-size",
    "--clues",
    "--strikes",
];

const SEARCH_OPTIONS: &[&str] = &["--threads", "--tt-mb", "--time-limit", "--max-nodes"];

/// The rule options of `command SEED` (`solve` or `deal`) at every value.
fn rule_runs(command: &str, extra: &[(&str, &str)]) -> Vec<Vec<OsString>> {
    let mut runs = Vec::new();
    for option in RULE_OPTIONS {
        let mut defaults = vec![("--players", "2")];
        if *option == "--ranks" {
            defaults.push(("--suits", "3"));
        }
        defaults.extend_from_slice(extra);
        runs.extend(matrix(&[command, "x"], &defaults, option));
        // A hanab.live seed name fixes players and variant; the options must agree.
        runs.extend(matrix(&[command, "p2v0s1"], extra, option));
    }
    runs
}

#[test]
fn solve_rule_options() {
    check_all(rule_runs("solve", SEARCH));
}

#[test]
fn deal_rule_options() {
    check_all(rule_runs("deal", &[]));
}

/// `--threads`, `--tt-mb`, `--time-limit` and `--max-nodes` in every mode of `solve`: a seed,
/// `--exact` and `--samples` on a position with a hidden pile, and `--view cheat`.
#[test]
fn solve_search_options() {
    let hidden = data("tests/data/hidden-pile.hanabi");
    let mut runs = Vec::new();
    for option in SEARCH_OPTIONS {
        runs.extend(matrix(&["solve", "p2v0s1"], SEARCH, option));
        runs.extend(matrix(&["solve", &hidden, "--exact"], EXACT_SEARCH, option));
        runs.extend(matrix(
            &["solve", &hidden, "--samples", "2"],
            SEARCH,
            option,
        ));
        runs.extend(matrix(
            &["solve", &hidden, "--view", "cheat", "--samples", "2"],
            SEARCH,
            option,
        ));
    }
    check_all(runs);
}

/// The options that take a count or a turn: `--turn` (with and without `--view seat=1`),
/// `--write-turn`, `--samples`, `--rng-seed` and `--max-orders`.
#[test]
fn solve_count_options() {
    let hidden = data("tests/data/hidden-pile.hanabi");
    let game = data("tests/data/hanablive/game-194321.json");
    let out = TempFile::new("written.hanabi");
    let mut runs = Vec::new();
    runs.extend(matrix(&["solve", &game], SEARCH, "--turn"));
    runs.extend(matrix(
        &["solve", &game, "--view", "seat=1", "--samples", "2"],
        SEARCH,
        "--turn",
    ));
    runs.extend(matrix(
        &["solve", "p2v0s1", "--write-position", out.path()],
        SEARCH,
        "--write-turn",
    ));
    runs.extend(matrix(&["solve", &hidden], SEARCH, "--samples"));
    runs.extend(matrix(
        &["solve", &hidden, "--samples", "2"],
        SEARCH,
        "--rng-seed",
    ));
    runs.extend(matrix(
        &["solve", &hidden, "--exact"],
        EXACT_SEARCH,
        "--max-orders",
    ));
    check_all(runs);
}

#[test]
fn bench_options() {
    let defaults = [
        ("--limit", "1"),
        ("--threads", "1"),
        ("--tt-mb", "16"),
        ("--time-limit", "1"),
    ];
    let mut runs = Vec::new();
    for option in ["--threads", "--tt-mb", "--time-limit", "--limit"] {
        runs.extend(matrix(
            &["bench", "--set", "2p-no-variant"],
            &defaults,
            option,
        ));
    }
    check_all(runs);
}

/// Files that are not what they should be, and arguments with line breaks or invalid UTF-8:
/// `replay` has no numeric option, so it gets these.
#[test]
fn odd_files_and_arguments() {
    let game = std::fs::read_to_string(data("tests/data/hanablive/game-194321.json")).unwrap();
    let position = std::fs::read_to_string(data("positions/2p-no-variant.hanabi")).unwrap();
    let bom_game = TempFile::with_text("bom.json", &format!("\u{feff}{game}"));
    let bom_position = TempFile::with_text("bom.hanabi", &format!("\u{feff}{position}"));
    let cr_position = TempFile::with_text("cr.hanabi", &position.replace('\n', "\r"));
    let cut_game = TempFile::with_text("cut.json", &game[..game.len() / 2]);
    let not_utf8 = TempFile::new("bytes.json");
    std::fs::write(&not_utf8.0, b"{\"players\": [\"\xff\xfe\"]}").unwrap();
    let renamed = game.replace("\"James\"", "\"Ja\\nmes\"");
    // The first action becomes illegal: a play of a card in James's hand.
    let illegal = TempFile::with_text(
        "illegal.json",
        &renamed.replacen(
            "\"actions\": [",
            "\"actions\": [{\"type\": 0, \"target\": 5},",
            1,
        ),
    );
    let option_key = TempFile::with_text(
        "option.json",
        &game.replacen('{', "{\"options\": {\"bad\\nkey\": true},", 1),
    );
    let dir = std::env::temp_dir();
    let dir = dir.to_str().unwrap();
    let mut runs: Vec<Vec<OsString>> = [
        vec!["replay", bom_game.path()],
        vec!["replay", cut_game.path()],
        vec!["replay", not_utf8.path()],
        vec!["replay", illegal.path()],
        vec!["replay", option_key.path()],
        vec!["replay", dir],
        vec!["replay", "/no/such\ndir/game.json"],
        vec!["replay", ""],
        vec!["solve", bom_position.path(), "--max-nodes", "2000"],
        vec!["solve", cr_position.path()],
        vec![
            "solve",
            bom_game.path(),
            "--turn",
            "40",
            "--max-nodes",
            "2000",
        ],
        vec!["solve", "/no/such\ndir/x.hanabi"],
        vec!["solve", "éabcd", "--players", "2", "--max-nodes", "200"],
        vec!["solve", "é.hanabi"],
        vec!["solve", "é.json"],
        vec!["solve", ".json"],
        vec!["deal", "éabcd", "--players", "2"],
        vec!["solve", "x", "--players", "2", "--variant", "a\nb"],
        vec!["deal", "x", "--players", "2", "--variant", "a\rb"],
        vec!["solve", "x", "--players", "2", "--deck", "r1\nr9"],
        vec!["solve", "x", "--players", "2", "--view", "a\nb"],
        vec!["bench", "--set", "a\nb"],
        vec!["bench", "--dir", "/no/such\ndir", "--list"],
    ]
    .iter()
    .map(|a| os(a))
    .collect();
    runs.push(vec![
        OsString::from("solve"),
        OsString::from(data("tests/data/hanablive/game-194321.json")),
        OsString::from("--view"),
        OsString::from("seat=Ja\nmes"),
        OsString::from("--samples"),
        OsString::from("2"),
    ]);
    runs.push(vec![
        OsString::from("solve"),
        OsString::from_vec(b"p2v0s\xff".to_vec()),
    ]);
    runs.push(vec![
        OsString::from("deal"),
        OsString::from_vec(b"x\xff.json".to_vec()),
        OsString::from("--players"),
        OsString::from("2"),
    ]);
    let mut found = problems(&runs);
    let mut count = runs.len();
    // A byte order mark in front changes nothing.
    let game = data("tests/data/hanablive/game-194321.json");
    let position = data("positions/2p-no-variant.hanabi");
    for (plain, bom) in [
        (os(&["replay", &game]), os(&["replay", bom_game.path()])),
        (
            os(&["solve", &position]),
            os(&["solve", bom_position.path()]),
        ),
        (
            os(&["solve", &game, "--turn", "40", "--max-nodes", "2000"]),
            os(&[
                "solve",
                bom_game.path(),
                "--turn",
                "40",
                "--max-nodes",
                "2000",
            ]),
        ),
    ] {
        count += 1;
        let (a, b) = (run(&plain), run(&bom));
        assert_eq!(a.code, Some(0), "{plain:?}: {}", a.stderr);
        // The solve's timing line and the file's name differ between runs.
        let strip = |s: &str| -> String {
            s.lines()
                .filter(|l| !l.starts_with("Searched") && !l.starts_with("Deal:"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        if b.code != Some(0) || strip(&a.stdout) != strip(&b.stdout) {
            found.push(format!(
                "{bom:?}: a byte order mark in front changes the outcome (exit {:?}): {:?}",
                b.code,
                b.stderr.trim_end()
            ));
        }
    }
    assert_none(&found, count);
}

/// Seeds for the command line: arbitrary text (no NUL, which no argument can hold) and names
/// close to hanab.live's.
fn cli_seed() -> impl Strategy<Value = String> {
    let chars = prop_oneof![
        4 => proptest::char::range(' ', '~'),
        1 => proptest::sample::select(&['é', '２', '\u{feff}', '\n', '\r', '😀', '.', 'ｐ'][..]),
        1 => any::<char>(),
    ];
    prop_oneof![
        proptest::collection::vec(chars, 0..16).prop_map(String::from_iter),
        (
            "p[0-9]{1,3}v[0-9]{1,3}s[0-9]{0,3}",
            "(\\.hanabi|\\.json|\\.JSON|é|)"
        )
            .prop_map(|(a, b)| format!("{a}{b}")),
    ]
    .prop_map(|s| s.replace('\0', ""))
}

fn cli_config() -> ProptestConfig {
    let cases = match std::env::var("PROPTEST_CASES") {
        Ok(n) => n.parse::<u32>().map_or(16, |n| (n / 100).max(16)),
        Err(_) => 16,
    };
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cli_config())]

    /// Any seed, given to `deal` and `solve` with and without `--players`.
    #[test]
    fn seed_arguments(seed in cli_seed()) {
        for args in [
            vec!["deal", &seed],
            vec!["deal", &seed, "--players", "2"],
            vec!["solve", &seed, "--players", "3", "--threads", "1", "--max-nodes", "200"],
        ] {
            let args = os(&args);
            if let Some(p) = problem(&args, &run(&args)) {
                panic!("{p}");
            }
        }
    }
}

/// `--sat-after` in `solve` and `seeds`: a delay, or a one-line error.
#[test]
fn sat_after_option() {
    let mut runs = matrix(&["solve", "p2v0s1"], SEARCH, "--sat-after");
    runs.extend(matrix(
        &["seeds", "--players", "2", "--count", "2"],
        &[("--threads", "1"), ("--time-limit", "1")],
        "--sat-after",
    ));
    check_all(runs);
}
