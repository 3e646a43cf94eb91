//! Inputs and options that once crashed or hung the program: each gives a clean one-line error
//! or a correct result.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

mod common;

use common::{fails, run, TempFile};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Waits for `child` at most `limit`; fails the test (after killing it) if it runs longer.
fn finishes_within(child: Child, limit: Duration, what: &str) -> Output {
    common::wait_within(child, limit)
        .unwrap_or_else(|| panic!("{what} still running after {limit:?}"))
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// With several threads, rebuilding the line of a question that a split search answered
/// used to search open siblings again without any limit: these two ran for minutes past their
/// time limit. (The program replays every line it reports and fails if the line does not reach
/// the score claimed.)
#[test]
fn several_threads_honour_the_time_limit_and_find_the_line() {
    for seed in ["p5v2s20060", "p3v2s30271"] {
        let args = [
            "solve",
            seed,
            "--threads",
            "2",
            "--time-limit",
            "30",
            "--json",
        ];
        let out = finishes_within(spawn(&args), Duration::from_secs(90), seed);
        let v = json(&out);
        if v["proven"] == true {
            assert_eq!(
                v["winnable"],
                v["max_score"] == v["perfect_score"],
                "{seed}"
            );
        } else {
            assert!(v["lower_bound"].as_u64() <= v["upper_bound"].as_u64());
        }
    }
}

/// A limit that stops the search leaves `winnable` open (`null`), never `false`, unless the
/// upper bound proves the perfect score out of reach.
#[test]
fn undecided_is_never_not_winnable() {
    let mut open = 0;
    for s in 1..=40 {
        let seed = format!("p2v2s{s}");
        let v = json(&run(&[
            "solve",
            &seed,
            "--max-nodes",
            "1",
            "--threads",
            "1",
            "--json",
        ]));
        let perfect = v["perfect_score"].as_u64().unwrap();
        let (lo, hi) = (
            v["lower_bound"].as_u64().unwrap(),
            v["upper_bound"].as_u64().unwrap(),
        );
        let expected = if lo == perfect {
            serde_json::json!(true)
        } else if hi < perfect {
            serde_json::json!(false)
        } else {
            open += 1;
            assert_eq!(v["proven"], false, "{seed}");
            serde_json::Value::Null
        };
        assert_eq!(v["winnable"], expected, "{seed}: {v}");
    }
    assert!(open > 0, "some seed must be left open by one node");
}

/// Names whose last bytes fall inside a multi-byte character are seeds like any other, not a
/// reason to panic.
#[test]
fn multi_byte_names_are_clean_errors() {
    for name in ["éabcd", "漢字", "p２v0s1", "é.json", "x漢.hanabi"] {
        let err = fails(&["solve", name]);
        assert!(err.contains("error:"), "{err}");
    }
}

/// A time limit beyond any clock is no limit, in every mode.
#[test]
fn huge_time_limits_are_no_limit() {
    for t in ["1e19", "1e30", "18446744073709551615"] {
        let v = json(&run(&["solve", "p2v0s1", "--time-limit", t, "--json"]));
        assert_eq!(v["proven"], true, "{t}");
        let pile8 = repo("positions/hidden/2p-pile-8.hanabi");
        let pile8 = pile8.to_str().unwrap();
        for mode in [&["--exact", "--threads", "1"][..], &["--samples", "3"]] {
            let mut args = vec!["solve", pile8, "--time-limit", t];
            args.extend_from_slice(mode);
            let out = run(&args);
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    for t in ["0", "-1", "NaN", "inf", "-inf"] {
        let err = fails(&["solve", "p2v0s1", &format!("--time-limit={t}")]);
        assert!(err.contains("--time-limit"), "{err}");
    }
}

/// A huge sample count allocates nothing up front: the time limit ends the run with the samples
/// taken, and the output says how many.
#[test]
fn huge_sample_counts_stop_at_the_time_limit() {
    let pile20 = repo("positions/hidden/2p-pile-20.hanabi");
    for n in ["4294967295", "9223372036854775807"] {
        let args = [
            "solve",
            pile20.to_str().unwrap(),
            "--samples",
            n,
            "--time-limit",
            "1",
            "--json",
        ];
        let out = finishes_within(spawn(&args), Duration::from_secs(60), n);
        let v = json(&out);
        let taken = v["samples"].as_u64().unwrap();
        assert!(taken >= 1, "{v}");
        assert_eq!(v["requested_samples"].to_string(), n);
        assert!(taken < n.parse::<u64>().unwrap());
    }
}

#[test]
fn huge_thread_counts_are_refused_at_once() {
    for n in ["65536", "18446744073709551615"] {
        let err = fails(&["solve", "p2v0s1", "--threads", n]);
        assert!(err.contains("--threads"), "{err}");
    }
    assert!(run(&["solve", "p2v0s1", "--threads", "1024"])
        .status
        .success());
}

/// Errors that echo raw input stay on one line: control characters are escaped.
#[test]
fn errors_escape_control_characters() {
    let err = fails(&[
        "solve",
        "x",
        "--players",
        "2",
        "--variant",
        "a\nsecond line\u{1b}[2J",
    ]);
    assert!(err.contains("\\n") && err.contains("\\u{1b}"), "{err}");
    let file = TempFile::with_text("control.hanabi", "suits: 5\nbogus\rkey: 1\u{7}\n");
    let err = fails(&["solve", file.path()]);
    assert!(!err.contains('\r') && !err.contains('\u{7}'), "{err:?}");
}

/// A file with thousands of faults: the first few and the count.
#[test]
fn thousands_of_faults_are_counted_not_listed() {
    let mut text = String::from("players: Alice Bob\n");
    for i in 0..3000 {
        text += &format!("nonsense{i}: 1\n");
    }
    let file = TempFile::with_text("faults.hanabi", &text);
    let err = fails(&["solve", file.path()]);
    assert!(err.len() < 2000, "{} bytes", err.len());
    assert!(err.contains("more faults"), "{err}");
}

/// A UTF-8 byte-order mark at the start of a file is not an error.
#[test]
fn byte_order_marks_are_accepted() {
    let stall = std::fs::read_to_string(repo("positions/stall.hanabi")).unwrap();
    let file = TempFile::with_text("bom.hanabi", &format!("\u{feff}{stall}"));
    let plain = json(&run(&["solve", "positions/stall.hanabi", "--json"]));
    let v = json(&run(&["solve", file.path(), "--json"]));
    assert_eq!(v["max_score"], plain["max_score"]);

    let game = std::fs::read_to_string(repo("tests/data/hanablive/game-194321.json")).unwrap();
    let file = TempFile::with_text("bom.json", &format!("\u{feff}{game}"));
    let out = run(&["replay", file.path()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["solve", file.path(), "--turn", "30", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A reader that stops early ends the program quietly, with success.
#[test]
fn a_closed_pipe_is_not_an_error() {
    for args in [
        &["solve", "p2v0s1"][..],
        &["solve", "p2v0s1", "--json"],
        &["deal", "p2v0s1"],
        &["replay", "tests/data/hanablive/game-194321.json"],
        &["seeds", "--players", "2", "--count", "50", "--out", "-"],
        &[
            "seeds",
            "--players",
            "2",
            "--count",
            "50",
            "--out",
            "/dev/stdout",
        ],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(status.success(), "{args:?}: {status:?} {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

/// `--turn` beyond a game names the turns that can be solved, and the last of them works.
#[test]
fn turn_errors_give_the_range_that_works() {
    let game = repo("tests/data/hanablive/game-194321.json");
    let game = game.to_str().unwrap();
    let err = fails(&["solve", game, "--turn", "500"]);
    let last: usize = err
        .split("can be solved are 1 to ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no range in {err}"));
    let ok = run(&["solve", game, "--turn", &last.to_string(), "--json"]);
    assert!(
        ok.status.success(),
        "--turn {last}: {}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let err2 = fails(&["solve", game, "--turn", &(last + 1).to_string()]);
    assert!(
        err2.contains(&format!("can be solved are 1 to {last} ")),
        "{err2}"
    );
}

/// `bench --json` too: a deal a limit left open is neither winnable nor not.
#[test]
fn bench_leaves_undecided_deals_open() {
    let v = json(&run(&[
        "bench",
        "--set",
        "refute-2p",
        "--limit",
        "2",
        "--time-limit",
        "0.01",
        "--json",
    ]));
    let mut open = 0;
    for d in v["sets"][0]["results"].as_array().unwrap() {
        if d["proven"] == false && d["upper_bound"] == d["perfect_score"] {
            assert_eq!(d["winnable"], serde_json::Value::Null, "{d}");
            open += 1;
        }
    }
    assert!(open > 0, "{v}");
}

/// Every hanab.live variant is played, the last two families (Up or Down, Sudoku) included, by
/// seed name or by variant name; a name the site does not have is unknown.
#[test]
fn every_variant_of_the_site_is_played() {
    let up = json(&run(&["solve", "p3v24s12", "--time-limit", "5", "--json"]));
    assert_eq!(up["perfect_score"], 25, "{up}");
    let sudoku = json(&run(&[
        "solve",
        "x",
        "--players",
        "2",
        "--variant",
        "sudoku (5 suits)",
        "--time-limit",
        "5",
        "--json",
    ]));
    assert_eq!(sudoku["perfect_score"], 25, "{sudoku}");
    let err = fails(&["solve", "x", "--players", "2", "--variant", "Purple Rain"]);
    assert!(err.contains("unknown variant Purple Rain"), "{err}");
}
