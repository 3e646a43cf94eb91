//! The `bench` command, run as a program, on a few deals of each set (never checking node
//! counts or answers, which change with the search).

use std::process::{Command, Output};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
        .arg("bench")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn text_output_has_a_row_per_set_and_the_signature() {
    let out = bench(&["--set", "3p-no-variant,4p-no-variant", "--limit", "3"]);
    let text = ok(&out);
    for name in ["3p-no-variant", "4p-no-variant", "total"] {
        let row = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row in\n{text}"));
        let deals: usize = row.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(deals, if name == "total" { 6 } else { 3 }, "{row}");
    }
    let signature = text
        .lines()
        .find_map(|l| l.strip_prefix("signature: "))
        .unwrap_or_else(|| panic!("no signature in\n{text}"));
    let nodes: u64 = signature
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let total_row = text.lines().find(|l| l.starts_with("total")).unwrap();
    assert!(total_row.contains(&nodes.to_string()), "{total_row}");
    assert!(!signature.contains("NOT reproducible"), "{signature}");
}

#[test]
fn json_covers_every_default_set() {
    let out = bench(&["--limit", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&ok(&out)).expect("bench --json prints JSON");
    let sets = v["sets"].as_array().expect("sets");
    let names: Vec<&str> = sets.iter().map(|s| s["name"].as_str().unwrap()).collect();
    for want in ["2p-no-variant", "3p-no-variant", "2p-black", "hard-2p"] {
        assert!(names.contains(&want), "{names:?}");
    }
    assert!(
        !names.contains(&"slow-2p"),
        "slow sets are not in the default run"
    );
    let mut nodes = 0;
    for s in sets {
        assert_eq!(s["deals"], 1, "{s}");
        assert_eq!(s["results"].as_array().unwrap().len(), 1);
        let r = &s["results"][0];
        assert!(r["max_score"].as_u64().unwrap() <= r["perfect_score"].as_u64().unwrap());
        assert_eq!(
            s["decided"].as_u64().unwrap(),
            r["proven"].as_bool().unwrap() as u64
        );
        nodes += s["nodes"].as_u64().unwrap();
    }
    assert_eq!(v["total"]["deals"].as_u64().unwrap(), sets.len() as u64);
    assert_eq!(v["signature"].as_u64().unwrap(), nodes);
    assert_eq!(v["total"]["nodes"].as_u64().unwrap(), nodes);
    assert_eq!(v["threads"], 1);
    assert_eq!(v["reproducible"], true);
}

#[test]
fn list_names_every_set() {
    let text = ok(&bench(&["--list"]));
    assert!(text
        .lines()
        .any(|l| l.starts_with("slow-2p") && l.contains("(slow)")));
    assert!(text.lines().any(|l| l.starts_with("hard-2p")));
}

#[test]
fn bad_arguments_fail_cleanly_on_one_line() {
    for (args, want) in [
        (&["--set", "no-such-set"][..], "known sets: "),
        (&["--limit", "0"][..], "--limit"),
        (&["--threads", "0"][..], "--threads"),
    ] {
        let out = bench(args);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr:?}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    }
    let stderr = String::from_utf8_lossy(&bench(&["--set", "nope"]).stderr).to_string();
    assert!(
        stderr.contains("2p-no-variant") && stderr.contains("hard-2p"),
        "{stderr}"
    );
}
