//! The `seeds` command, run as a program on 4-player seeds (each solves in milliseconds): output
//! lines, resuming, a cut-off last line, shards, `--summarize`, agreement with `solve`, undecided
//! seeds and their names, bad input, the lock on `--out`, `--out -`, and pipes and FIFOs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::run;

fn seeds(args: &[&str]) -> Output {
    let mut all = vec!["seeds", "--threads", "2"];
    all.extend_from_slice(args);
    run(&all)
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&ok(out)).expect("--json prints JSON")
}

/// A temporary file path, removed on drop.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let t = Temp(std::env::temp_dir().join(format!(
            "hanabi-solver-cli-seeds-{}-{name}",
            std::process::id()
        )));
        let _ = std::fs::remove_file(&t.0);
        t
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }

    fn text(&self) -> String {
        std::fs::read_to_string(&self.0).unwrap()
    }

    /// Each line's record.
    fn records(&self) -> Vec<serde_json::Value> {
        self.text()
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect()
    }

    /// Seed -> max_score.
    fn scores(&self) -> BTreeMap<String, u64> {
        self.records()
            .iter()
            .map(|r| {
                (
                    r["seed"].as_str().unwrap().to_string(),
                    r["max_score"].as_u64().unwrap(),
                )
            })
            .collect()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

const RANGE: [&str; 6] = ["--players", "4", "--from", "1", "--count", "6"];

fn range_with(extra: &[&str]) -> Vec<String> {
    RANGE.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn seeds_owned(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    seeds(&args)
}

#[test]
fn a_run_writes_a_line_per_seed_and_resumes() {
    let f = Temp::new("run.jsonl");
    let first = json(&seeds_owned(&range_with(&["--out", f.path(), "--json"])));
    let records = f.records();
    assert_eq!(records.len(), 6);
    for r in &records {
        for field in [
            "seed",
            "deck",
            "max_score",
            "perfect_score",
            "winnable",
            "proven",
            "lower_bound",
            "upper_bound",
            "nodes",
            "seconds",
            "players",
            "variant",
            "endless",
        ] {
            assert!(r.get(field).is_some(), "no {field} in {r}");
        }
        assert_eq!(r["players"], 4);
        assert_eq!(r["variant"], "No Variant");
        assert_eq!(r["deck"].as_array().unwrap().len(), 50);
        assert_eq!(r["proven"], true);
    }
    let names: Vec<String> = (1..=6).map(|i| format!("p4v0s{i}")).collect();
    assert_eq!(f.scores().into_keys().collect::<Vec<_>>(), {
        let mut n = names.clone();
        n.sort();
        n
    });
    assert_eq!(
        (first["seeds"].as_u64(), first["solved_now"].as_u64()),
        (Some(6), Some(6))
    );
    let winnable = records.iter().filter(|r| r["winnable"] == true).count() as u64;
    assert_eq!(first["winnable"].as_u64(), Some(winnable));

    // Again: nothing to do, the file unchanged, the same summary.
    let before = f.text();
    let out = seeds_owned(&range_with(&["--out", f.path(), "--json"]));
    let again = json(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("6 of the 6 seeds are already done"),
        "{stderr}"
    );
    assert_eq!(
        (again["already_done"].as_u64(), again["solved_now"].as_u64()),
        (Some(6), Some(0))
    );
    assert_eq!(again["winnable"], first["winnable"]);
    assert_eq!(f.text(), before);

    // --summarize on the file agrees with the run.
    let summary = json(&seeds(&["--summarize", f.path(), "--json"]));
    assert_eq!(summary["seeds"].as_u64(), Some(6));
    assert_eq!(summary["winnable"], first["winnable"]);
    assert_eq!(summary["histogram"], first["histogram"]);

    // A longer range appends only the new seeds.
    let more = json(&seeds(&[
        "--players",
        "4",
        "--from",
        "1",
        "--count",
        "8",
        "--out",
        f.path(),
        "--json",
    ]));
    assert_eq!(
        (more["already_done"].as_u64(), more["solved_now"].as_u64()),
        (Some(6), Some(2))
    );
    assert_eq!(f.records().len(), 8);
    assert!(f.text().starts_with(&before));
}

#[test]
fn a_cut_off_last_line_is_redone() {
    let f = Temp::new("cut.jsonl");
    ok(&seeds_owned(&range_with(&["--out", f.path()])));
    let full = f.scores();
    let text = f.text();
    let last_line = text.trim_end().rsplit('\n').next().unwrap();
    let last_seed = serde_json::from_str::<serde_json::Value>(last_line).unwrap()["seed"]
        .as_str()
        .unwrap()
        .to_string();
    std::fs::write(&f.0, &text[..text.len() - 40]).unwrap();
    let out = seeds_owned(&range_with(&["--out", f.path(), "--json"]));
    let v = json(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 6 was incomplete"), "{stderr}");
    assert_eq!(
        (v["already_done"].as_u64(), v["solved_now"].as_u64()),
        (Some(5), Some(1))
    );
    assert_eq!(f.records().len(), 6);
    assert_eq!(f.scores(), full);
    assert!(f.text().contains(&format!("\"seed\":\"{last_seed}\"")));

    // Damage in the middle is an error naming the line, and the file is left alone.
    let mut lines: Vec<String> = f.text().lines().map(str::to_string).collect();
    lines[2] = "{\"seed\": \"oops\"".to_string();
    let damaged = lines.join("\n") + "\n";
    std::fs::write(&f.0, &damaged).unwrap();
    let err = fails(&range_with(&["--out", f.path()]));
    assert!(err.contains("line 3"), "{err}");
    let err = fails(&["--summarize".to_string(), f.path().to_string()]);
    assert!(err.contains("line 3"), "{err}");
    assert_eq!(f.text(), damaged);
}

#[test]
fn two_shards_make_the_whole_range() {
    let whole = Temp::new("whole.jsonl");
    let one = Temp::new("shard1.jsonl");
    let two = Temp::new("shard2.jsonl");
    let both = Temp::new("both.jsonl");
    ok(&seeds_owned(&range_with(&["--out", whole.path()])));
    ok(&seeds_owned(&range_with(&[
        "--out",
        one.path(),
        "--shard",
        "1/2",
    ])));
    ok(&seeds_owned(&range_with(&[
        "--out",
        two.path(),
        "--shard",
        "2/2",
    ])));
    let (a, b) = (one.scores(), two.scores());
    assert_eq!(a.keys().collect::<Vec<_>>(), ["p4v0s1", "p4v0s3", "p4v0s5"]);
    assert_eq!(b.keys().collect::<Vec<_>>(), ["p4v0s2", "p4v0s4", "p4v0s6"]);
    std::fs::write(&both.0, one.text() + &two.text()).unwrap();
    assert_eq!(both.scores(), whole.scores());
    assert_eq!(both.records().len(), 6);
    // Summaries of the concatenation, and of everything with duplicates, match the whole run.
    let w = json(&seeds(&["--summarize", whole.path(), "--json"]));
    for files in [
        vec![both.path()],
        vec![one.path(), two.path(), whole.path()],
    ] {
        let mut args = vec!["--summarize"];
        args.extend(files);
        args.push("--json");
        let s = json(&seeds(&args));
        assert_eq!(s["seeds"].as_u64(), Some(6));
        assert_eq!(s["winnable"], w["winnable"]);
        assert_eq!(s["histogram"], w["histogram"]);
    }
}

#[test]
fn every_max_score_matches_solve() {
    let f = Temp::new("solve.jsonl");
    ok(&seeds_owned(&range_with(&["--out", f.path()])));
    let scores = f.scores();
    assert_eq!(scores.len(), 6);
    for (seed, max) in scores {
        let v = json(&run(&["solve", &seed, "--json", "--threads", "1"]));
        assert_eq!(v["max_score"].as_u64(), Some(max), "{seed}");
        assert_eq!(v["proven"], true, "{seed}");
    }
}

/// `seeds` with `args`, its records into `f` and then `extra`: the summary it prints.
fn run_into(args: &[&str], f: &Temp, extra: &[&str]) -> String {
    let mut all: Vec<&str> = args.to_vec();
    all.extend_from_slice(&["--out", f.path()]);
    all.extend_from_slice(extra);
    ok(&seeds(&all))
}

/// `--cores-per-seed 2` solves one seed at a time on the two threads, with the same answers as
/// one core a seed, with and without lending cores to the hard seeds (here on 4-player Black
/// seeds, a few of which need the SAT solver at a small `--sat-after`), and says so in its
/// speed line and `--json`; a value other than 1 or 2, or more cores a seed than threads, is a
/// one-line error.
#[test]
fn two_cores_a_seed_give_the_same_answers() {
    let (one, two) = (Temp::new("one-core.jsonl"), Temp::new("two-cores.jsonl"));
    let kept = Temp::new("no-lending.jsonl");
    let args = [
        "--players",
        "4",
        "--variant",
        "black",
        "--count",
        "12",
        "--sat-after",
        "0.01",
        "--time-limit",
        "30",
    ];
    let with = |f: &Temp, extra: &[&str]| run_into(&args, f, extra);
    with(&one, &[]);
    with(&kept, &["--no-lending"]);
    let text = with(&two, &["--cores-per-seed", "2"]);
    assert_eq!(one.scores(), two.scores());
    assert_eq!(one.scores(), kept.scores());
    assert_eq!(two.scores().len(), 12);
    assert!(two.records().iter().all(|r| r["proven"] == true));
    assert!(
        text.contains("1 seed at a time on 2 cores") && text.contains("per core of solving"),
        "{text}"
    );
    let mut all: Vec<&str> = args.to_vec();
    all.extend_from_slice(&["--cores-per-seed", "2", "--json"]);
    assert_eq!(json(&seeds(&all))["cores_per_seed"], 2);
    for (extra, want) in [
        (&["--cores-per-seed", "3"][..], "--cores-per-seed"),
        (&["--cores-per-seed", "0"][..], "--cores-per-seed"),
        (
            &["--cores-per-seed", "2", "--threads", "1"][..],
            "--cores-per-seed 2 needs --threads of at least 2, not 1",
        ),
    ] {
        let mut args = vec!["seeds", "--players", "4", "--count", "2"];
        args.extend_from_slice(extra);
        let err = common::fails(&args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// A lone seed the solver cannot settle in 2 s (p6v2s2475: its best score, 28, took 1500 s)
/// asks for a second core after 0.9 s, and the run's second thread, with no seed of its own,
/// lends it: the summary counts the lent core's time. With `--no-lending` it keeps its one.
/// In two passes (the default) it has both cores for the second pass, from 0.5 s, and the
/// summary counts the second one's time as lent too; its own time is still the limit's.
#[test]
fn a_lone_hard_seed_borrows_the_idle_thread() {
    let args = [
        "--players",
        "6",
        "--variant",
        "black",
        "--from",
        "2475",
        "--count",
        "1",
        "--time-limit",
        "2",
        "--json",
    ];
    let with = |extra: &[&str]| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend_from_slice(extra);
        json(&seeds(&all))
    };
    let lent = with(&["--one-pass"]);
    assert_eq!(lent["lent_a_core"], 1, "{lent}");
    let seconds = lent["lent_seconds"].as_f64().unwrap();
    assert!(seconds > 0.0 && seconds < 2.0, "{lent}");
    let kept = with(&["--one-pass", "--no-lending"]);
    assert_eq!(kept["lent_a_core"], 0, "{kept}");
    assert_eq!(kept["lent_seconds"], 0.0, "{kept}");
    let two = with(&[]);
    assert_eq!(two["lent_a_core"], 1, "{two}");
    // The summary's total counts each seed's own time and the lent core's.
    let lent = two["lent_seconds"].as_f64().unwrap();
    let own = two["total_seconds"].as_f64().unwrap() - lent;
    assert!(lent > 1.0 && lent < 1.6 && own > 1.9 && own < 2.5, "{two}");
}

/// With a time limit, the SAT solver and 4 or more players, a run makes two passes: the
/// search alone on each seed until `--sat-after`, then the seeds still open on two cores each
/// with the rest of the limit, from the bounds the first pass proved. The answers are those of
/// one pass (`--one-pass`); the second pass's records come after the first's, and count its
/// second core as lent.
#[test]
fn the_second_pass_gives_the_same_answers() {
    let (two, one) = (Temp::new("two-passes.jsonl"), Temp::new("one-pass.jsonl"));
    let args = [
        "--players",
        "6",
        "--variant",
        "black",
        "--count",
        "20",
        "--sat-after",
        "0.005",
        "--time-limit",
        "30",
    ];
    let with = |f: &Temp, extra: &[&str]| run_into(&args, f, extra);
    with(&two, &[]);
    with(&one, &["--one-pass"]);
    assert_eq!(two.scores(), one.scores());
    assert_eq!(two.scores().len(), 20);
    let records = two.records();
    assert!(records.iter().all(|r| r["proven"] == true));
    let second: Vec<bool> = records
        .iter()
        .map(|r| r["lent_seconds"].as_f64().is_some_and(|s| s > 0.0))
        .collect();
    let first_of_second = second.iter().position(|&s| s).expect("a second pass");
    assert!(second[first_of_second..].iter().all(|&s| s), "{second:?}");
}

#[test]
fn rule_options_go_into_the_records_and_must_match_on_resume() {
    let f = Temp::new("options.jsonl");
    ok(&seeds(&[
        "--players",
        "4",
        "--count",
        "2",
        "--clues",
        "6",
        "--endless",
        "--out",
        f.path(),
    ]));
    let records = f.records();
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(
            (r["clues"].as_u64(), r["endless"].as_bool()),
            (Some(6), Some(true))
        );
        assert!(r["seed"].as_str().unwrap().starts_with("p4v0s"));
    }
    let err = fails(&[
        "--players".to_string(),
        "4".to_string(),
        "--count".to_string(),
        "2".to_string(),
        "--out".to_string(),
        f.path().to_string(),
    ]);
    assert!(err.contains("endless"), "{err}");
    let plain = Temp::new("plain.jsonl");
    ok(&seeds(&[
        "--players",
        "4",
        "--count",
        "2",
        "--out",
        plain.path(),
    ]));
    let err = fails(&[
        "--summarize".to_string(),
        plain.path().to_string(),
        f.path().to_string(),
    ]);
    assert!(err.contains("summarise each game separately"), "{err}");
}

#[test]
fn prefix_seeds_are_named_prefix_number() {
    let v = json(&seeds(&[
        "--prefix",
        "batch-test-",
        "--players",
        "4",
        "--from",
        "5",
        "--count",
        "2",
        "--json",
    ]));
    assert_eq!(v["first_seed"], "batch-test-5");
    assert_eq!(v["last_seed"], "batch-test-6");
    assert_eq!(v["seeds"].as_u64(), Some(2));
}

/// Runs `seeds ARGS` expecting a clean one-line error, which it returns.
fn fails(args: &[String]) -> String {
    let mut all = vec!["seeds", "--threads", "2"];
    all.extend(args.iter().map(String::as_str));
    common::fails(&all)
}

#[test]
fn bad_input_is_a_one_line_error() {
    let dir = std::env::temp_dir();
    let dir = dir.to_str().unwrap();
    let cases: [(&[&str], &str); 8] = [
        (&["--players", "4", "--count", "0"], "empty"),
        (
            &["--players", "4", "--count", "3", "--variant", "nope"],
            "unknown variant",
        ),
        (
            &["--players", "4", "--count", "3", "--shard", "0/3"],
            "invalid shard",
        ),
        (
            &["--players", "4", "--count", "3", "--shard", "4/3"],
            "invalid shard",
        ),
        (
            &["--players", "4", "--count", "3", "--shard", "a/b"],
            "invalid shard",
        ),
        (
            &["--players", "4", "--count", "3", "--out", dir],
            "directory",
        ),
        (&["--count", "3"], "--players"),
        (&["--summarize", dir], "directory"),
    ];
    for (args, want) in cases {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let err = fails(&args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // Starting 65536 threads took minutes.
    let err = common::fails(&[
        "seeds",
        "--players",
        "4",
        "--count",
        "3",
        "--threads",
        "65536",
    ]);
    assert!(err.contains("--threads must be at most 1024"), "{err}");
}

/// Seeds proven not winnable carry a reason in their records, and the summary counts them.
#[test]
fn not_winnable_seeds_say_why() {
    let f = Temp::new("reasons");
    let s = json(&seeds(&[
        "--players",
        "2",
        "--variant",
        "black",
        "--count",
        "40",
        "--time-limit",
        "2",
        "--out",
        f.path(),
        "--json",
    ]));
    let not_winnable = s["not_winnable"].as_u64().unwrap();
    assert!(not_winnable > 0, "no seed lost: the test shows nothing");
    let counted: u64 = s["loss_reasons"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(counted, not_winnable);
    for r in f.records() {
        let lost = r["proven"].as_bool().unwrap() && !r["winnable"].as_bool().unwrap();
        assert_eq!(r.get("reason").is_some(), lost, "{r}");
    }
}

/// `solve` says why a deal proven not winnable is lost, and says nothing of the kind for a
/// winnable one.
#[test]
fn solve_says_why_a_deal_is_lost() {
    let lost = json(&run(&["solve", "p2v0s731", "--json", "--threads", "1"]));
    assert_eq!(lost["winnable"], false);
    assert_eq!(lost["proven"], true);
    assert!(lost["reason"].is_string(), "{}", lost["reason"]);
    let text = ok(&run(&["solve", "p2v0s731", "--threads", "1"]));
    assert!(text.contains("Why 25 is out of reach: "), "{text}");
    let won = json(&run(&["solve", "p2v0s1", "--json", "--threads", "1"]));
    assert!(won.get("reason").is_none());
}

/// With a node limit so small that some seeds stop undecided, their records say `"winnable":
/// null` (`false` only for a seed proven not winnable), and every summary counts them as
/// undecided, never as not winnable; files that hold `false` for undecided seeds (as older
/// versions wrote) give the same summaries and resume as before.
#[test]
fn undecided_seeds_are_neither_winnable_nor_not() {
    let f = Temp::new("undecided.jsonl");
    let args = [
        "--players",
        "2",
        "--variant",
        "black",
        "--count",
        "20",
        "--max-nodes",
        "1000",
        "--out",
        f.path(),
    ];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let run = json(&seeds(&with_json));
    let records = f.records();
    assert_eq!(records.len(), 20);
    let (mut winnable, mut not_winnable, mut undecided, mut maybe) = (0, 0, 0, 0);
    for r in &records {
        let proven = r["proven"].as_bool().unwrap();
        let perfect = r["perfect_score"].as_u64().unwrap();
        let (lo, hi) = (
            r["lower_bound"].as_u64().unwrap(),
            r["upper_bound"].as_u64().unwrap(),
        );
        let want = if lo == perfect {
            serde_json::json!(true)
        } else if hi < perfect {
            serde_json::json!(false)
        } else {
            serde_json::Value::Null
        };
        assert_eq!(r["winnable"], want, "{r}");
        match (proven, lo == perfect) {
            (true, true) => winnable += 1,
            (true, false) => not_winnable += 1,
            (false, _) => undecided += 1,
        }
        if r["winnable"].is_null() {
            maybe += 1;
        }
    }
    assert!(
        maybe > 0,
        "no seed undecided with 25 in reach: the test shows nothing"
    );
    let summaries = [
        run,
        json(&seeds(&with_json)),
        json(&seeds(&["--summarize", f.path(), "--json"])),
    ];
    for s in &summaries {
        let counts: Vec<u64> = [
            "seeds",
            "winnable",
            "not_winnable",
            "undecided",
            "maybe_winnable",
        ]
        .map(|k| s[k].as_u64().unwrap())
        .to_vec();
        assert_eq!(
            counts,
            [20, winnable, not_winnable, undecided, maybe],
            "{s}"
        );
        assert_eq!(
            s["winnable_share"],
            serde_json::json!(winnable as f64 / 20.0)
        );
        assert_eq!(
            s["winnable_share_max"],
            serde_json::json!((winnable + maybe) as f64 / 20.0)
        );
        let counted: u64 = s["loss_reasons"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(counted, not_winnable);
    }
    for text in [ok(&seeds(&args)), ok(&seeds(&["--summarize", f.path()]))] {
        assert!(
            text.contains(&format!("Not winnable (proven): {not_winnable}\n")),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "Undecided (a limit stopped the search): {undecided}, of which {maybe} may still \
                 be winnable"
            )),
            "{text}"
        );
        assert!(!text.contains("counted as not winnable"), "{text}");
    }

    // The same file as older versions wrote it: `false` for every seed not proven winnable.
    let old = Temp::new("undecided-old.jsonl");
    std::fs::write(
        &old.0,
        f.text().replace("\"winnable\":null", "\"winnable\":false"),
    )
    .unwrap();
    assert!(!old.text().contains("null"));
    let mut s = json(&seeds(&["--summarize", old.path(), "--json"]));
    s["files"] = summaries[2]["files"].clone();
    assert_eq!(s, summaries[2]);
    let mut resumed = args.to_vec();
    let n = resumed.len();
    resumed[n - 1] = old.path();
    resumed.push("--json");
    let r = json(&seeds(&resumed));
    assert_eq!(r["already_done"].as_u64(), Some(20));
    for key in ["winnable", "not_winnable", "undecided", "maybe_winnable"] {
        assert_eq!(r[key], summaries[0][key], "{key}");
    }
}

/// The text summary names the undecided seeds with their bounds, as their records give them:
/// the first ten in seed order, then how many more; and says how to settle them (again with
/// `--retry-undecided` from the `--out` file, or first with `--out` where there was none), as
/// does `--summarize`. Without undecided seeds, nothing is named.
#[test]
fn undecided_seeds_are_named_with_their_bounds() {
    let f = Temp::new("named.jsonl");
    let range = [
        "--players",
        "5",
        "--variant",
        "black",
        "--count",
        "60",
        "--max-nodes",
        "1",
    ];
    let with_out = [&range[..], &["--out", f.path()]].concat();
    let text = ok(&seeds(&with_out));
    let number = |r: &serde_json::Value| -> u64 {
        let seed = r["seed"].as_str().unwrap();
        seed.rsplit_once('s').unwrap().1.parse().unwrap()
    };
    let mut undecided: Vec<serde_json::Value> = f
        .records()
        .into_iter()
        .filter(|r| r["proven"] == serde_json::json!(false))
        .collect();
    undecided.sort_by_key(number);
    assert!(
        undecided.len() > 10,
        "too few undecided seeds to show the cut"
    );
    let named: Vec<String> = undecided[..10]
        .iter()
        .map(|r| {
            format!(
                "{} ({} to {})",
                r["seed"].as_str().unwrap(),
                r["lower_bound"],
                r["upper_bound"]
            )
        })
        .collect();
    let listing = format!(
        "  undecided (best line found to proven most): {}, and {} more\n",
        named.join(", "),
        undecided.len() - 10
    );
    assert!(text.contains(&listing), "{text}");
    assert!(
        text.contains(&format!(
            "  to settle them: run the same command again with --retry-undecided and a larger \
             --max-nodes (or none): it solves only the undecided seeds of {} again\n",
            f.path()
        )),
        "{text}"
    );
    let summarized = ok(&seeds(&["--summarize", f.path()]));
    assert!(summarized.contains(&listing), "{summarized}");
    assert!(
        summarized.contains("--retry-undecided --time-limit 60\n"),
        "{summarized}"
    );

    let without_out = ok(&seeds(&range));
    assert!(without_out.contains(&listing), "{without_out}");
    assert!(
        without_out.contains("run the same command with --out FILE.jsonl, then again with"),
        "{without_out}"
    );
    let decided = ok(&seeds(&RANGE));
    assert!(decided.contains("Undecided: 0\n"), "{decided}");
    assert!(!decided.contains("undecided ("), "{decided}");
}

/// The binary started with `args` in `dir` (or here), its standard output and error piped.
fn spawn(args: &[&str], dir: Option<&Path>) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hanabi-solver"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    cmd.spawn().expect("the binary starts")
}

/// Runs `seeds ARGS`, which must end within `secs` seconds.
fn seeds_within(args: &[&str], dir: Option<&Path>, secs: u64) -> Output {
    let mut all = vec!["seeds"];
    all.extend_from_slice(args);
    common::wait_within(spawn(&all, dir), Duration::from_secs(secs))
        .unwrap_or_else(|| panic!("{all:?} took more than {secs} s (hangs?)"))
}

/// Every numeric option at 0, -1, the largest u64, 1e19, 1e30, NaN and inf (as a separate
/// argument and after `=`) gives a run or a one-line error: never a panic, never a hang (a time
/// limit of 1e19 s or 1e30 s panicked, and --count or --threads of 2^64 - 1 ran for minutes).
#[test]
fn numeric_options_at_their_edges_never_panic() {
    let options = [
        "--from",
        "--count",
        "--threads",
        "--tt-mb",
        "--time-limit",
        "--max-nodes",
        "--shard",
    ];
    let mut values = vec![
        "0",
        "-1",
        "18446744073709551615",
        "1e19",
        "1e30",
        "NaN",
        "inf",
    ];
    let shards = [
        "1/18446744073709551615",
        "18446744073709551615/18446744073709551615",
        "1/0",
        "0/0",
        "-1/2",
        "NaN/inf",
    ];
    for option in options {
        if option == "--shard" {
            values.extend(shards);
        }
        let base: Vec<&str> = [
            ("--players", "4"),
            ("--count", "1"),
            ("--max-nodes", "1000"),
            ("--threads", "1"),
        ]
        .into_iter()
        .filter(|(o, _)| *o != option)
        .flat_map(|(o, v)| [o, v])
        .collect();
        for value in &values {
            let joined = format!("{option}={value}");
            for tail in [vec![option, *value], vec![joined.as_str()]] {
                let mut args = base.clone();
                args.extend(&tail);
                let out = seeds_within(&args, None, 60);
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
                let code = out.status.code();
                assert!(
                    matches!(code, Some(0..=2)),
                    "{args:?}: exit {code:?}: {stderr}"
                );
                if code == Some(0) {
                    let stdout = String::from_utf8_lossy(&out.stdout);
                    assert!(stdout.starts_with("Seeds: "), "{args:?}: {stdout}");
                } else {
                    let lines: Vec<&str> = stderr.trim_end().lines().collect();
                    assert!(
                        lines.len() == 1 && lines[0].starts_with("error: "),
                        "{args:?}: {stderr:?}"
                    );
                }
            }
        }
    }
}

/// What the largest values of --count and --threads are told.
#[test]
fn too_many_seeds_or_threads_are_refused_at_once() {
    for (option, want) in [
        (
            "--count",
            "split the range with --from and --count, or with --shard",
        ),
        ("--threads", "--threads must be at most 1024"),
    ] {
        let mut args = vec!["--players", "4", "--count", "1", "--threads", "1"];
        let at = args.iter().position(|a| *a == option).unwrap();
        args[at + 1] = "18446744073709551615";
        let out = seeds_within(&args, None, 60);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains(want),
            "{args:?}: {stderr}"
        );
    }
    // A shard of a huge range is fine when it is small.
    let v = json(&seeds_within(
        &[
            "--players",
            "4",
            "--count",
            "18446744073709551615",
            "--shard",
            "2/18446744073709551615",
            "--json",
        ],
        None,
        60,
    ));
    assert_eq!(v["seeds"].as_u64(), Some(1));
}

/// A time limit beyond any deadline (here 1e19 s and 1e30 s) is taken as 100 years: the run
/// solves the seeds, as with no limit.
#[test]
fn a_huge_time_limit_is_no_limit() {
    for limit in ["1e19", "1e30", "18446744073709551615"] {
        let v = json(&seeds(&[
            "--players",
            "4",
            "--count",
            "3",
            "--time-limit",
            limit,
            "--json",
        ]));
        assert_eq!(
            (v["seeds"].as_u64(), v["undecided"].as_u64()),
            (Some(3), Some(0)),
            "{limit}"
        );
    }
}

/// The seeds of JSON lines, checking that each line is a record.
fn seeds_of_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            let r: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?} is no record"));
            r["seed"]
                .as_str()
                .expect("a record names its seed")
                .to_string()
        })
        .collect()
}

/// A second run writing an --out file that a run holds (the lock taken here, as a run takes it)
/// is refused with one line and leaves the file alone; once the lock is released it resumes,
/// and the file holds one line per seed.
#[test]
fn a_second_writer_is_refused_while_the_lock_is_held() {
    let f = Temp::new("locked.jsonl");
    ok(&seeds_owned(&range_with(&["--out", f.path()])));
    let before = f.text();
    let holder = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(&f.0)
        .unwrap();
    holder.lock().unwrap();
    let eight = [
        "--players",
        "4",
        "--from",
        "1",
        "--count",
        "8",
        "--out",
        f.path(),
    ]
    .map(String::from);
    let err = fails(&eight);
    assert!(
        err.contains(&format!(
            "{} is being written by another seeds run (it holds the file's lock); wait for it or \
             choose another --out",
            f.path()
        )),
        "{err}"
    );
    assert_eq!(f.text(), before);
    // --summarize only reads: the lock does not stop it.
    let s = json(&seeds(&["--summarize", f.path(), "--json"]));
    assert_eq!(s["seeds"].as_u64(), Some(6));
    drop(holder);
    ok(&seeds_owned(&eight));
    let names = seeds_of_lines(&f.text());
    assert_eq!(names.len(), 8);
    assert_eq!(names.iter().collect::<BTreeSet<_>>().len(), 8);
}

/// Two runs started at once on one --out file: the second is refused while the first runs, and
/// the file ends with one line per seed.
#[test]
fn two_runs_at_once_write_each_seed_once() {
    let f = Temp::new("twice.jsonl");
    let args = [
        "seeds",
        "--players",
        "2",
        "--variant",
        "black",
        "--count",
        "40",
        "--max-nodes",
        "300000",
        "--threads",
        "1",
        "--out",
        f.path(),
    ];
    let mut first = spawn(&args, None);
    // Wait until the first run has written a line: it holds the lock then.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_to_string(&f.0).is_ok_and(|t| t.contains('\n')) {
        if first.try_wait().unwrap().is_some() || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let second = common::wait_within(spawn(&args, None), Duration::from_secs(120))
        .expect("the second run ends");
    let first_still_runs = first.try_wait().unwrap().is_none();
    let first = common::wait_within(first, Duration::from_secs(120)).expect("the first run ends");
    ok(&first);
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!err.contains("panicked"), "{err}");
    if first_still_runs {
        assert!(!second.status.success(), "second run not refused: {err}");
    }
    if !second.status.success() {
        assert!(
            err.trim_end().lines().count() == 1
                && err.contains("is being written by another seeds run"),
            "{err}"
        );
    }
    let names = seeds_of_lines(&f.text());
    assert_eq!(names.len(), 40, "{}", f.text());
    assert_eq!(names.iter().collect::<BTreeSet<_>>().len(), 40);
}

/// `--out -` writes the JSON lines to standard output and the summary to standard error (text
/// or --json); no file named `-` is made.
#[test]
fn out_dash_streams_the_lines_to_stdout() {
    let dir = Temp::new("dash-dir");
    std::fs::create_dir_all(&dir.0).unwrap();
    for json_summary in [false, true] {
        let mut args = vec![
            "--threads",
            "2",
            "--players",
            "4",
            "--count",
            "5",
            "--out",
            "-",
        ];
        if json_summary {
            args.push("--json");
        }
        let out = seeds_within(&args, Some(&dir.0), 60);
        let stdout = ok(&out);
        let names = seeds_of_lines(&stdout);
        assert_eq!(
            names.iter().collect::<BTreeSet<_>>(),
            (1..=5)
                .map(|i| format!("p4v0s{i}"))
                .collect::<BTreeSet<_>>()
                .iter()
                .collect()
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        if json_summary {
            let v: serde_json::Value = serde_json::from_str(&stderr).expect("JSON on stderr");
            assert_eq!(v["seeds"].as_u64(), Some(5));
            assert_eq!(v["out"], "-");
        } else {
            assert!(stderr.starts_with("Seeds: 5, p4v0s1 to p4v0s5"), "{stderr}");
            assert!(stderr.contains("written to standard output"), "{stderr}");
        }
        assert!(!dir.0.join("-").exists(), "a file named - was made");
    }
    let _ = std::fs::remove_dir(&dir.0);
}

/// `--out /dev/stdout` with standard output a pipe (as in `seeds --out /dev/stdout | cat`) is
/// written, not read back (reading the pipe to resume never ended); the summary goes to standard
/// error.
#[test]
fn out_dev_stdout_into_a_pipe_is_written_not_read() {
    let out = seeds_within(
        &[
            "--threads",
            "2",
            "--players",
            "4",
            "--count",
            "4",
            "--out",
            "/dev/stdout",
        ],
        None,
        60,
    );
    let stdout = ok(&out);
    assert_eq!(seeds_of_lines(&stdout).len(), 4, "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Seeds: 4,"), "{stderr}");
}

/// A device that refuses every write (`/dev/full`: "no space left") stops the run with one line
/// naming it and a non-zero exit, and no summary.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_stops_the_run_with_one_line() {
    let out = seeds(&["--players", "4", "--count", "6", "--out", "/dev/full"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("writing /dev/full"), "{stderr}");
    assert!(out.stdout.is_empty(), "no summary after a failed run");
}

/// An --out FIFO is written without being read back (reading it to resume never ended) or
/// locked, each run writing every seed; the summary stays on standard output.
#[cfg(unix)]
#[test]
fn out_to_a_fifo_is_written_without_resuming() {
    let fifo = Temp::new("out.fifo");
    let made = Command::new("mkfifo").arg(&fifo.0).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    for _ in 0..2 {
        let path = fifo.0.clone();
        let reader = std::thread::spawn(move || std::fs::read_to_string(path));
        let child = spawn(
            &[
                "seeds",
                "--threads",
                "2",
                "--players",
                "4",
                "--count",
                "3",
                "--out",
                fifo.path(),
            ],
            None,
        );
        let Some(out) = common::wait_within(child, Duration::from_secs(60)) else {
            // Let the reader's open return, then fail.
            drop(std::fs::OpenOptions::new().write(true).open(&fifo.0));
            let _ = reader.join();
            panic!("seeds --out FIFO took more than 60 s (hangs?)");
        };
        let stdout = ok(&out);
        assert!(stdout.starts_with("Seeds: 3,"), "{stdout}");
        assert!(stdout.contains("3 solved now"), "{stdout}");
        let lines = reader.join().unwrap().unwrap();
        assert_eq!(seeds_of_lines(&lines).len(), 3, "{lines}");
    }
}

/// `--retry-undecided` solves again the seeds a file holds as undecided (here without the node
/// limit that stopped them), appends their records, and the summary counts each seed once with
/// its proven record: the same as one run without the limit.
#[test]
fn retry_undecided_settles_the_seeds_a_limit_stopped() {
    let f = Temp::new("retry.jsonl");
    let whole = Temp::new("retry-whole.jsonl");
    let base = ["--players", "2", "--variant", "black", "--count", "20"];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let first = json(&seeds_owned(&with(&[
        "--max-nodes",
        "1000",
        "--out",
        f.path(),
        "--json",
    ])));
    let undecided = first["undecided"].as_u64().unwrap();
    assert!(
        undecided > 0,
        "the node limit should leave some seeds undecided"
    );
    let again = json(&seeds_owned(&with(&[
        "--out",
        f.path(),
        "--retry-undecided",
        "--json",
    ])));
    assert_eq!(again["solved_now"].as_u64().unwrap(), undecided);
    assert_eq!(f.records().len() as u64, 20 + undecided);
    let one_run = json(&seeds_owned(&with(&["--out", whole.path(), "--json"])));
    assert_eq!(again["undecided"], 0);
    // Summarizing the file gives the same figures.
    let summarized = json(&seeds(&["--summarize", f.path(), "--json"]));
    for key in [
        "seeds",
        "winnable",
        "not_winnable",
        "undecided",
        "histogram",
    ] {
        assert_eq!(again[key], one_run[key], "{key}");
        assert_eq!(summarized[key], one_run[key], "{key}");
    }
}

/// `--certify`: every seed with an upper bound below the perfect score gets a checked proof in
/// its record, and the summary counts them; `solve --certify` prints its own, and refuses the
/// hidden-card modes, where there is no such bound to certify.
#[test]
fn certify_proves_each_bound_below_the_perfect_score() {
    let out = Temp::new("certify.jsonl");
    // Eight 6-player Black seeds, some of them lost.
    let range = [
        "--players",
        "6",
        "--variant",
        "black",
        "--from",
        "446",
        "--count",
        "8",
        "--certify",
    ];
    let summary = json(&seeds(
        &[&range[..], &["--json", "--out", out.path()]].concat(),
    ));
    let text = std::fs::read_to_string(out.path()).unwrap();
    let mut bounds = 0;
    for line in text.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        let upper = r["upper_bound"].as_u64().unwrap();
        if upper < r["perfect_score"].as_u64().unwrap() {
            bounds += 1;
            assert_eq!(
                r["certificate"]["score"].as_u64(),
                Some(upper + 1),
                "{line}"
            );
            assert_eq!(r["certificate"]["checked"], true, "{line}");
        } else {
            assert!(r.get("certificate").is_none(), "{line}");
        }
    }
    assert!(bounds >= 2, "the range should hold lost seeds: {text}");
    assert_eq!(summary["certified"]["bounds"], bounds);
    assert_eq!(summary["certified"]["checked"], bounds);

    let v = json(&run(&["solve", "p6v2s446", "--certify", "--json"]));
    assert_eq!(v["max_score"], 26);
    assert_eq!(v["certificate"]["score"], 27);
    assert_eq!(v["certificate"]["checked"], true);
    let text = ok(&run(&["solve", "p6v2s446", "--certify"]));
    assert!(text.contains("Certified: no line reaches 27"), "{text}");
    // Where no proof can be written (a temporary folder that does not exist), the bound is
    // reported as not certified, with why, and the command still succeeds.
    let no_proof_folder = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
            .args(args)
            .env("TMPDIR", "/nonexistent-folder-for-proofs")
            .output()
            .unwrap()
    };
    let v = json(&no_proof_folder(&[
        "solve",
        "p6v2s446",
        "--certify",
        "--json",
    ]));
    assert_eq!(v["certificate"]["checked"], false);
    let why = v["certificate"]["why"].as_str().unwrap();
    assert!(why.contains("could not be written"), "{why}");
    // A batch's summary names the bounds left without a proof, and how to certify one.
    let batch = no_proof_folder(&[&["seeds"][..], &range[..]].concat());
    let text = ok(&batch);
    assert!(text.contains(&format!("Certified (a checked proof that no line goes above the bound): 0 of the {bounds} seeds")), "{text}");
    assert!(
        text.contains("not certified: p6v2s446 (27 out of reach)"),
        "{text}"
    );
    assert!(
        text.contains("solve SEED --certify --time-limit 600"),
        "{text}"
    );
    let message = common::fails(&[
        "solve",
        "p6v2s446",
        "--certify",
        "--view",
        "cheat",
        "--exact",
    ]);
    assert!(message.contains("--certify"), "{message}");
}
