//! The `replay` command, run as a program.

// Only the stand-in site of the shared helpers: the rest is not needed here.
#[allow(dead_code)]
#[path = "common/site.rs"]
mod site;

use std::path::PathBuf;
use std::process::{Command, Output};

use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::hanablive::{self, ExportAction};
use hanabi_solver::seed::shuffled_deck;
use site::{Reply, TestSite};

fn replay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
        .arg("replay")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn data(name: &str) -> String {
    format!("{}/tests/data/hanablive/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs a replay that must fail cleanly and returns its one-line error.
fn fails(args: &[&str]) -> String {
    let out = replay(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    stderr
}

/// A temporary file holding `text`, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("hanabi-solver-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn real_game_scores_25_in_json() {
    let out = replay(&[&data("game-194321.json"), "--json"]);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("replay --json prints JSON");
    assert_eq!(v["score"], 25);
    assert_eq!(v["variant"], "No Variant");
    assert_eq!(v["players"].as_array().unwrap().len(), 4);
    assert_eq!(v["end_reason"], "every firework is complete");
    assert_eq!(v["finished"], true);
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 46);
    assert_eq!(turns[0]["turn"], 1);
    assert_eq!(turns[0]["player"], "florrat2");
    assert_eq!(
        turns[0]["action"],
        "florrat2 clues NoMercy green (touches 1 card)"
    );
}

#[test]
fn text_output_ends_with_score_and_reason() {
    let out = replay(&[&data("game-194321.json")]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 46 + 2, "{text}");
    assert!(
        lines[0].contains("No Variant") && lines[0].contains("florrat2"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("turn   1  florrat2 clues"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[47], "score 25 of 25");
    assert_eq!(lines[48], "the game ended: every firework is complete");

    let out = replay(&[&data("game-p4v0s1-partial.json")]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with(
            "score so far 8 of 25\nnot over: the game is still going on after 17 actions\n"
        ),
        "{text}"
    );
}

#[test]
fn illegal_game_fails_on_one_line_naming_the_action() {
    let text = std::fs::read_to_string(data("game-194321.json")).unwrap();
    let mut game: serde_json::Value = serde_json::from_str(&text).unwrap();
    game["actions"][5] = serde_json::json!({"type": 0, "target": 49});
    let file = TempFile::new("illegal.json", &game.to_string());
    let err = fails(&[file.path()]);
    assert!(err.contains("turn 6: illegal action"), "{err}");
    assert!(err.contains("card 49 is not in"), "{err}");
    assert!(err.contains("illegal.json"), "{err}");
}

#[test]
fn unreadable_or_broken_files_fail_on_one_line_naming_the_file() {
    let err = fails(&["/nonexistent/game.json"]);
    assert!(err.contains("/nonexistent/game.json"), "{err}");

    let file = TempFile::new("broken.json", "{\"players\": [\"a\"");
    let err = fails(&[file.path()]);
    assert!(
        err.contains("broken.json") && err.contains("invalid game JSON"),
        "{err}"
    );
}

/// Runs the program with `args`, which must succeed, and parses its JSON output.
fn solver_json(args: &[&str]) -> serde_json::Value {
    let out = site::direct(&mut Command::new(env!("CARGO_BIN_EXE_hanabi-solver")))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{args:?}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `solve --link` prints a replay link that `replay` reads back (as the site would open it) to
/// the solver's score, for a plain seed, an Up or Down seed (START is rank 7 in the link) and a
/// game at a turn (the game as played, then the line, opening at that turn).
#[test]
fn solve_links_replay_to_the_solvers_score() {
    let solver = solver_json;
    let game = data("game-194321.json");
    for args in [
        vec!["solve", "p2v0s1", "--link", "--json"],
        vec!["solve", "p3v24s2", "--link", "--json"],
        vec!["solve", &game, "--turn", "20", "--link", "--json"],
    ] {
        let answer = solver(&args);
        let link = answer["link"].as_str().expect("a link");
        assert!(
            link.starts_with("https://hanab.live/replay-json/"),
            "{link}"
        );
        let back = solver(&["replay", link, "--json"]);
        assert_eq!(back["score"], answer["max_score"], "{args:?}: {link}");
        // The link opens where the line starts; solving it there gives the same answer.
        let again = solver(&["solve", link, "--json"]);
        assert_eq!(again["max_score"], answer["max_score"], "{args:?}: {link}");
    }
    let at_20 = solver(&["solve", &game, "--turn", "20", "--link", "--json"]);
    assert!(at_20["link"].as_str().unwrap().ends_with("#20"), "{at_20}");
    let message = fails(&["https://hanab.live/replay-json/215ab,03,0"]);
    assert!(
        message.contains("has 50 cards but the deck given has 2"),
        "{message}"
    );
    let message = fails(&["https://hanab.live/replay-json/215a!,03,0"]);
    assert!(
        message.contains("not a hanab.live replay link"),
        "{message}"
    );
}

/// `review` on the real game, as a player runs it: every turn with its figures and link, no
/// turn lost (the game was won), the same from the game's replay link; a missing file is one
/// line.
#[test]
fn review_a_real_game() {
    let run = solver_json;
    let game = data("game-194321.json");
    let r = run(&["review", &game, "--json"]);
    assert_eq!(r["final_score"], 25);
    assert_eq!(r["max_at_start"], 25);
    assert_eq!(r["lost_at"], serde_json::json!([]));
    let turns = r["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 46);
    for (i, t) in turns.iter().enumerate() {
        assert_eq!(t["turn"], i + 1);
        for key in [
            "player",
            "action",
            "max_before",
            "max_after",
            "proven",
            "best_moves",
        ] {
            assert!(!t[key].is_null(), "turn {}: {key}", i + 1);
        }
        assert!(t["link"]
            .as_str()
            .unwrap()
            .ends_with(&format!("#{}", i + 1)));
    }
    let by_link = run(&["review", r["link"].as_str().unwrap(), "--json"]);
    assert_eq!(by_link["turns"].as_array().unwrap().len(), 46);
    assert_eq!(by_link["lost_at"], r["lost_at"]);
    let out = Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
        .args(["review", "no-such-game.json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.trim_end().lines().count() == 1,
        "{err}"
    );
}

/// `review` of the generated 2-player game whose turn 2 throws away the last p5: the moves that
/// would have kept 25 come in `best_moves` and, grouped as `solve --exact` groups moves equal in
/// every figure, in `best_move_groups` (the most each keeps and its moves, every move once and
/// in order); the text puts each group on one line.
#[test]
fn review_groups_the_moves_that_kept_the_maximum() {
    let game = format!(
        "{}/games/2p-p2v0s2-bad-discard.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let r = solver_json(&["review", &game, "--json", "--threads", "2"]);
    assert_eq!(r["lost_at"], serde_json::json!([2]));
    for t in r["turns"].as_array().unwrap() {
        let groups = t["best_move_groups"].as_array().expect("a list of groups");
        let flat: Vec<&serde_json::Value> = groups
            .iter()
            .flat_map(|g| g["moves"].as_array().unwrap())
            .collect();
        let moves: Vec<&serde_json::Value> = t["best_moves"].as_array().unwrap().iter().collect();
        assert_eq!(flat, moves, "turn {}", t["turn"]);
        for g in groups {
            assert!(g["max"].as_u64() <= g["upper"].as_u64(), "{g}");
            assert!(g["max"].as_u64() >= t["max_before"].as_u64(), "{g}");
        }
    }
    let lost = &r["turns"][1];
    let groups = lost["best_move_groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{lost}");
    assert_eq!(
        (&groups[0]["max"], &groups[0]["upper"]),
        (&25.into(), &25.into())
    );
    let moves: Vec<&str> = lost["best_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(moves.len() > 1, "{lost}");
    let text = stdout_of(&["review", &game, "--threads", "2"]);
    let line = format!("    moves that kept 25: {}\n", moves.join(", "));
    assert!(text.contains(&line), "{text}");
}

/// Per-turn maxima of both real games, as a player reads them: they never rise along the game,
/// the last is the score the game ends with, and each agrees with `solve GAME --turn N`.
#[test]
fn review_maxima_never_rise_and_agree_with_solve_at_each_turn() {
    for name in ["game-194321.json", "game-p4v0s1-partial.json"] {
        let game = data(name);
        let r = solver_json(&["review", &game, "--json", "--threads", "2"]);
        let turns = r["turns"].as_array().unwrap();
        let mut last = r["max_at_start"].as_u64().unwrap();
        for t in turns {
            let (before, after) = (
                t["max_before"].as_u64().unwrap(),
                t["max_after"].as_u64().unwrap(),
            );
            assert!(t["proven"].as_bool().unwrap(), "{name} turn {}", t["turn"]);
            assert_eq!(before, last, "{name} turn {}", t["turn"]);
            assert!(
                after <= before,
                "{name} turn {}: the maximum rose",
                t["turn"]
            );
            last = after;
        }
        if r["finished"].as_bool().unwrap() {
            assert_eq!(last, r["final_score"].as_u64().unwrap(), "{name}");
        }
        for t in turns.iter().step_by(7) {
            let turn = t["turn"].to_string();
            let solved =
                solver_json(&["solve", &game, "--turn", &turn, "--json", "--threads", "2"]);
            assert_eq!(solved["max_score"], t["max_before"], "{name} turn {turn}");
        }
    }
}

/// `review --hidden`: every turn has the chance to win of the action taken and of the best
/// one; the last turns are exact and agree with `solve --turn N --view cheat --exact` for the
/// same action, the best is never below the action taken, a sampled figure lies in its
/// interval; the text has the column and `--svg` writes the picture.
#[test]
fn review_hidden_gives_each_turn_a_chance_to_win() {
    let game = data("game-194321.json");
    let svg = std::env::temp_dir().join(format!("review-{}.svg", std::process::id()));
    let svg_path = svg.display().to_string();
    let args = [
        "review",
        &game,
        "--hidden",
        "--samples",
        "12",
        "--threads",
        "2",
    ];
    let r = solver_json(&[&args[..], &["--json", "--svg", &svg_path]].concat());
    let picture = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_file(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("the most still reachable"));
    let turns = r["turns"].as_array().unwrap();
    let mut exact_turns = 0;
    for t in turns {
        let c = &t["chance"];
        let (taken, best) = (&c["taken"], &c["best"]);
        let win = |x: &serde_json::Value| x["win"].as_f64().unwrap();
        assert!(win(best) >= win(taken), "turn {}: {c}", t["turn"]);
        match c["mode"].as_str().unwrap() {
            "exact" => {
                exact_turns += 1;
                let turn = t["turn"].to_string();
                let solved = solver_json(&[
                    "solve", &game, "--turn", &turn, "--view", "cheat", "--exact", "--json",
                ]);
                let same = solved["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|m| m["action"] == taken["action"])
                    .unwrap_or_else(|| panic!("turn {turn}: {taken} among {solved}"));
                assert_eq!(
                    same["win_probability_fraction"], taken["fraction"],
                    "turn {turn}"
                );
                let best_exact = solved["moves"][0]["win_probability"].as_f64().unwrap();
                assert_eq!(best_exact, win(best), "turn {turn}");
            }
            "sampled" => {
                let (lo, hi) = (
                    taken["interval"][0].as_f64().unwrap(),
                    taken["interval"][1].as_f64().unwrap(),
                );
                assert!(
                    lo <= win(taken) && win(taken) <= hi + 1e-9,
                    "turn {}: {c}",
                    t["turn"]
                );
                assert!(c["samples"].as_u64().unwrap() >= 1);
            }
            other => panic!("mode {other}"),
        }
    }
    assert!(exact_turns >= 3, "{exact_turns} exact turns");
    let out = Command::new(env!("CARGO_BIN_EXE_hanabi-solver"))
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("win taken"), "{text}");
}

/// The program's standard output for `args`, which must succeed.
fn stdout_of(args: &[&str]) -> String {
    let out = site::direct(&mut Command::new(env!("CARGO_BIN_EXE_hanabi-solver")))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A game downloaded from the site, by id or by any of the site's addresses of it, reads as
/// its export file does: `replay` prints the same, `solve` at turn 40 (`--turn 40` or `#40`)
/// finds the same line, and `review` the same review, but for the game's name and links that
/// open on `--site`. A bare number with `--players` is still a seed string.
#[test]
fn games_download_by_id_and_address() {
    let file = data("game-194321.json");
    let export = std::fs::read(&file).unwrap();
    let site = TestSite::start(vec![("/export/194321", Reply::new(200, export))]);
    let url = site.url.as_str();

    let by_file = stdout_of(&["replay", &file]);
    for game in [
        "194321",
        "https://hanab.live/replay/194321",
        "https://hanab.live/shared-replay/194321/",
        "https://hanab.live/export/194321#12",
    ] {
        assert_eq!(
            stdout_of(&["replay", game, "--site", url]),
            by_file,
            "{game}"
        );
    }

    let answer = |v: &serde_json::Value| (v["max_score"].clone(), v["line"].clone());
    let by_file = solver_json(&["solve", &file, "--turn", "40", "--json"]);
    assert!(by_file["line"].as_array().is_some_and(|l| !l.is_empty()));
    for game in [
        vec!["194321", "--turn", "40"],
        vec!["https://hanab.live/replay/194321#40"],
    ] {
        let mut args = vec!["solve", "--site", url, "--json"];
        args.extend(&game);
        assert_eq!(answer(&solver_json(&args)), answer(&by_file), "{game:?}");
    }

    let by_file = stdout_of(&["review", &file]);
    let by_id = stdout_of(&["review", "194321", "--site", url]);
    assert!(by_id.starts_with("Review: 194321 (No Variant"), "{by_id}");
    assert!(by_id.contains(&format!("{url}/replay-json/")), "{by_id}");
    assert_eq!(
        by_id.replace(url, "https://hanab.live"),
        by_file.replace(&file, "194321")
    );

    let seed = solver_json(&["solve", "12345", "--players", "2", "--json"]);
    assert_eq!(seed["deal"], "seed 12345");
}

/// The letters of No Variant's suits, by suit index.
const NO_VARIANT: [&str; 5] = ["r", "y", "g", "b", "p"];

/// `replay` numbers slots as hanab.live does (slot 1 is the card drawn last), and its JSON gives
/// each action as the export has it: checked on both real games against hands kept here from the
/// export's card orders alone (block deal, each play or discard draws the next card).
#[test]
fn replay_slots_are_the_sites_and_actions_are_the_exports() {
    let mut slots_seen = 0;
    for name in ["game-194321.json", "game-p4v0s1-partial.json"] {
        let path = data(name);
        let game: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let deck = game["deck"].as_array().unwrap();
        let card = |order: usize| {
            let c = &deck[order];
            format!(
                "{}{}",
                NO_VARIANT[c["suitIndex"].as_u64().unwrap() as usize],
                c["rank"]
            )
        };
        let players = game["players"].as_array().unwrap().len();
        let h = if players <= 3 { 5 } else { 4 };
        // Each hand's card orders, in the order drawn.
        let mut hands: Vec<Vec<usize>> = (0..players)
            .map(|p| (p * h..(p + 1) * h).collect())
            .collect();
        let mut next = players * h;
        let v = solver_json(&["replay", &path, "--json"]);
        let turns = v["turns"].as_array().unwrap();
        let actions = game["actions"].as_array().unwrap();
        assert_eq!(turns.len(), actions.len());
        for (t, a) in turns.iter().zip(actions) {
            let site = &t["site"];
            assert_eq!(site["type"], a["type"], "{t}");
            assert_eq!(site["target"], a["target"], "{t}");
            assert_eq!(
                site.get("value"),
                a.get("value").filter(|x| !x.is_null()),
                "{t}"
            );
            let kind = a["type"].as_u64().unwrap();
            if kind > 1 {
                continue;
            }
            let seat = t["seat"].as_u64().unwrap() as usize;
            let order = a["target"].as_u64().unwrap() as usize;
            let hand = &mut hands[seat];
            let index = hand.iter().position(|&o| o == order).expect("in the hand");
            let slot = hand.len() - index;
            let verb = if kind == 0 { "plays" } else { "discards" };
            let text = t["action"].as_str().unwrap();
            let want = format!(
                "{} {verb} {} (slot {slot}",
                t["player"].as_str().unwrap(),
                card(order)
            );
            assert!(text.starts_with(&want), "{text}: want {want}");
            slots_seen |= 1 << slot;
            hand.remove(index);
            if next < deck.len() {
                hand.push(next);
                next += 1;
            }
        }
    }
    // Every slot of a 4-card hand occurs.
    assert_eq!(slots_seen, 0b11110, "slots {slots_seen:b}");
}

/// `solve --json` names the seed and gives each action of its line in hanab.live's form beside
/// the words: those actions, played on the site's terms after the game so far, replay to the
/// same words, turn by turn, and to the score the solver claims.
#[test]
fn solve_json_actions_replay_as_the_site_reads_them() {
    let game_file = data("game-194321.json");
    let game = hanablive::read(&std::fs::read_to_string(&game_file).unwrap()).unwrap();
    let rules = Rules::new(Variant::no_variant(), 2, &Options::default()).unwrap();
    let deck = shuffled_deck("p2v0s1", &rules.variant);
    let seed_game = hanablive::export(&rules, &hanablive::default_names(2), &deck, &[]).unwrap();
    for (args, start, before) in [
        (vec!["solve", "p2v0s1", "--json"], seed_game, 0),
        (
            vec!["solve", &game_file, "--turn", "20", "--json"],
            game.clone(),
            19,
        ),
    ] {
        let v = solver_json(&args);
        let want_seed = if before == 0 { "p2v0s1" } else { "p4v0s415" };
        assert_eq!(v["seed"], want_seed, "{args:?}");
        let line = v["line"].as_array().unwrap();
        let mut export = start.clone();
        export.actions.truncate(before);
        let mut words = Vec::new();
        for step in line {
            let Some(site) = step.get("site") else { break };
            export.actions.push(ExportAction {
                kind: site["type"].as_i64().unwrap(),
                target: site["target"].as_i64().unwrap(),
                value: site.get("value").and_then(|x| x.as_i64()),
            });
            words.push(step["text"].as_str().unwrap());
        }
        assert!(words.len() > 10, "{args:?}");
        let replay = hanablive::replay(&export).unwrap();
        let said: Vec<&str> = replay.turns[before..]
            .iter()
            .map(|t| t.text.as_str())
            .collect();
        assert_eq!(said, words, "{args:?}");
        assert!(replay.finished, "{args:?}");
        assert_eq!(replay.score, v["max_score"], "{args:?}");
        // Clues name what they clue: "Alice clues Bob 1 (touches 1 card)".
        let clue = line.iter().find(|s| s["action"] == "clue").expect("a clue");
        let text = clue["text"].as_str().unwrap();
        assert!(
            text.starts_with(&format!(
                "{} clues {} ",
                clue["player"].as_str().unwrap(),
                clue["clued"].as_str().unwrap()
            )),
            "{text}"
        );
    }
}

/// After the only p5 is discarded (turn 2 of the committed 2-player game), no order of the pile
/// can win: the review says exactly 0 for every later turn without a search, and the exact
/// pile analysis of `solve --exact`, where the pile is small enough for it, agrees for every
/// move.
#[test]
fn review_hidden_says_exactly_zero_once_a_needed_card_is_gone() {
    let game = format!(
        "{}/games/2p-p2v0s2-bad-discard.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let r = solver_json(&["review", &game, "--hidden", "--samples", "4", "--json"]);
    let turns = r["turns"].as_array().unwrap();
    for t in &turns[2..] {
        let c = &t["chance"];
        assert_eq!(c["mode"], "exact", "turn {}", t["turn"]);
        assert_eq!(c["taken"]["win"].as_f64(), Some(0.0), "turn {}", t["turn"]);
        assert_eq!(c["best"]["win"].as_f64(), Some(0.0), "turn {}", t["turn"]);
    }
    for turn in ["60", "66", "69"] {
        let solved = solver_json(&[
            "solve", &game, "--turn", turn, "--view", "cheat", "--exact", "--json",
        ]);
        let moves = solved["moves"].as_array().unwrap();
        assert!(!moves.is_empty());
        for m in moves {
            assert_eq!(m["win_probability"].as_f64(), Some(0.0), "turn {turn}: {m}");
        }
    }
}
