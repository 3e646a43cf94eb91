//! `solve` on position files (`FILE.hanabi`, `--position FILE`) and on a hanab.live game at a
//! turn (`GAME.json --turn N`), run as a program: text and JSON output, lines that replay, files
//! written back, and one-line errors for bad input.

mod common;

use common::{fails, run, TempFile};
use hanabi_solver::hanablive;
use hanabi_solver::position;
use hanabi_solver::state::{Action, Deal, State, Status};

fn manifest(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn game_file() -> String {
    manifest("tests/data/hanablive/game-194321.json")
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("--json prints JSON")
}

/// Replays the JSON `line` of a solve from `state`, finding each card in the mover's hand by its
/// slot (hanab.live's numbering: 1 is the newest card, the last in the state's hand) and
/// checking it is the card named; returns the final state.
fn replay_json_line(deal: &Deal, mut s: State, names: &[&str], line: &serde_json::Value) -> State {
    let v = &deal.rules.variant;
    for (i, step) in line.as_array().unwrap().iter().enumerate() {
        assert_eq!(step["player"], names[s.turn as usize], "step {i}");
        let find = || {
            let c = v.parse_card(step["card"].as_str().unwrap()).unwrap();
            let hand = s.hand(s.turn as usize);
            let slot = step["slot"].as_u64().expect("a slot") as usize;
            assert!((1..=hand.len()).contains(&slot), "step {i}: slot {slot}");
            let index = hand.len() - slot;
            assert_eq!(hand[index], c, "step {i}: slot {slot} holds another card");
            assert!(
                step["text"]
                    .as_str()
                    .unwrap()
                    .contains(&format!(" {} (slot {slot}", step["card"].as_str().unwrap())),
                "step {i}: {step}"
            );
            index as u8
        };
        let a = match step["action"].as_str().unwrap() {
            "play" if step["deck_play"] == true => Action::DeckPlay,
            "play" => Action::Play(find()),
            "discard" => Action::Discard(find()),
            "clue" => Action::Clue,
            other => panic!("step {i}: {other}"),
        };
        s = s.apply(deal, a).unwrap_or_else(|e| panic!("step {i}: {e}"));
    }
    assert_ne!(s.status, Status::Playing, "the line ends the game");
    s
}

// ---------------------------------------------------------------------------------------------
// Position files

#[test]
fn position_file_in_text() {
    let file = manifest("positions/stall.hanabi");
    let out = ok(&["solve", &file, "--threads", "1"]);
    assert!(out.starts_with("Deal: position "), "{out}");
    assert!(
        out.contains("2 players, 1 suits x 4 ranks (hand size 2"),
        "{out}"
    );
    assert!(
        out.contains("Position: Alice to move; fireworks r1 (score 1); 1 clue, 0 strikes; 1 card in the deck"),
        "{out}"
    );
    assert!(out.contains("  Alice: r3 r3\n  Bob: r2 r2\n"), "{out}");
    assert!(out.contains("Maximum score: 4 of 4: winnable"), "{out}");
    // The line's clue is the first legal one, named; slots are hanab.live's (1 = newest).
    assert!(
        out.contains("    1. Alice clues Bob 2 (touches 2 cards)\n"),
        "{out}"
    );
    assert!(
        out.contains("    4. Bob plays r4 (slot 1; a clue token comes back)\n"),
        "{out}"
    );
}

#[test]
fn position_file_in_json_replays_to_its_max() {
    for name in ["no-stall", "deck-play", "endless", "game-194321-turn40"] {
        let file = manifest(&format!("positions/{name}.hanabi"));
        let v = json(&["solve", "--position", &file, "--json"]);
        let text = std::fs::read_to_string(&file).unwrap();
        let pos = position::read(&text).unwrap();
        let (deal, state) = pos.open().unwrap();
        let names: Vec<&str> = pos.names.iter().map(String::as_str).collect();
        assert_eq!(v["names"], serde_json::json!(names), "{name}");
        assert_eq!(v["proven"], true, "{name}");
        assert!(v.get("deck").is_none(), "a position has no whole deck");
        assert_eq!(v["position"]["to_move"], names[state.turn as usize]);
        let end = replay_json_line(&deal, state, &names, &v["line"]);
        assert_eq!(
            end.score(&deal.rules) as u64,
            v["max_score"].as_u64().unwrap(),
            "{name}"
        );
    }
}

#[test]
fn write_position_then_solve_it() {
    // The position before turn 3 of the stall line: Alice to move, r2 played, r4 in Bob's hand.
    let out_file = TempFile::new("stall-turn3.hanabi");
    let stall = manifest("positions/stall.hanabi");
    let text = ok(&[
        "solve",
        &stall,
        "--threads",
        "1",
        "--write-position",
        out_file.path(),
        "--write-turn",
        "3",
    ]);
    assert!(
        text.contains("Wrote the position before turn 3 to"),
        "{text}"
    );
    let written = std::fs::read_to_string(&out_file.0).unwrap();
    assert!(written.contains("stacks: r2\n"), "{written}");
    assert!(written.contains("hand Bob: r2 r4\n"), "{written}");
    assert!(
        written.contains("turn: Alice\nfinal-turns: 2\n"),
        "{written}"
    );
    let v = json(&["solve", out_file.path(), "--json"]);
    assert_eq!(v["max_score"], 4);
    // Turn 1 is the position itself: the same file, comments aside.
    let same = TempFile::new("stall-turn1.hanabi");
    ok(&["solve", &stall, "--write-position", same.path()]);
    let body = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    assert_eq!(
        body(&std::fs::read_to_string(&same.0).unwrap()),
        body(&std::fs::read_to_string(&stall).unwrap())
    );
    let message = fails(&[
        "solve",
        &stall,
        "--write-position",
        same.path(),
        "--write-turn",
        "9",
    ]);
    assert!(message.contains("the line's turns are 1 to 4"), "{message}");
}

// ---------------------------------------------------------------------------------------------
// A hanab.live game at a turn

#[test]
fn game_at_turn_40_in_text() {
    let out = ok(&["solve", &game_file(), "--turn", "40", "--threads", "1"]);
    assert!(
        out.contains("game-194321.json at turn 40, 4 players, No Variant"),
        "{out}"
    );
    // Turn 40 is the position before action 39 (0-based), Libster's p3 in `replay`'s numbering.
    assert!(
        out.contains("Position: Libster to move; fireworks r5 y5 g4 b5 p2 (score 21); 3 clues"),
        "{out}"
    );
    // Hands as hanab.live shows them: the newest card (slot 1) first.
    assert!(out.contains("  florrat2: g3 r1 p4 p5\n"), "{out}");
    assert!(out.contains("Maximum score: 25 of 25: winnable"), "{out}");
    // The line is numbered as the game's turns.
    assert!(out.contains("   40. Libster "), "{out}");
    let replay = ok(&["replay", &game_file()]);
    assert!(replay.contains("turn  40  Libster plays p3"), "{replay}");
}

#[test]
fn game_at_turn_40_in_json_replays_from_the_game() {
    let v = json(&[
        "solve",
        &game_file(),
        "--turn",
        "40",
        "--view",
        "open",
        "--json",
    ]);
    assert_eq!(v["max_score"], 25);
    assert_eq!(v["position"]["turn"], 40);
    assert_eq!(v["position"]["to_move"], "Libster");
    assert_eq!(v["line"][0]["turn"], 40);
    let game = hanablive::read(&std::fs::read_to_string(game_file()).unwrap()).unwrap();
    let t = hanablive::replay_to(&game, 39).unwrap();
    let names: Vec<&str> = game.players.iter().map(String::as_str).collect();
    let end = replay_json_line(t.deal(), *t.state(), &names, &v["line"]);
    assert_eq!(end.score(&t.deal().rules), 25);
    // Turn 1 is the start of the game.
    let v = json(&[
        "solve",
        &game_file(),
        "--turn",
        "1",
        "--json",
        "--max-nodes",
        "2000000",
    ]);
    assert_eq!(v["position"]["turn"], 1);
    assert_eq!(v["position"]["to_move"], "florrat2");
}

#[test]
fn game_export_keeps_the_game_up_to_the_turn() {
    let file = TempFile::new("game-turn40.json");
    ok(&[
        "solve",
        &game_file(),
        "--turn",
        "40",
        "--export",
        file.path(),
    ]);
    let game = hanablive::read(&std::fs::read_to_string(game_file()).unwrap()).unwrap();
    let out = hanablive::read(&std::fs::read_to_string(&file.0).unwrap()).unwrap();
    assert_eq!(out.actions[..39], game.actions[..39]);
    assert_eq!(out.deck, game.deck);
    let r = hanablive::replay(&out).unwrap();
    assert_eq!(r.score, 25);
    assert!(r.finished);
}

// ---------------------------------------------------------------------------------------------
// Errors: one line, a line number for file faults, non-zero exit

#[test]
fn bad_position_files() {
    let base = std::fs::read_to_string(manifest("positions/stall.hanabi")).unwrap();
    let line_of = |key: &str| base.lines().position(|l| l.starts_with(key)).unwrap() + 1;

    let f = TempFile::with_text("unknown-key.hanabi", &base.replace("clues:", "clus:"));
    let message = fails(&["solve", f.path()]);
    let n = line_of("clues:");
    assert!(
        message.contains(&format!("line {n}: unknown key `clus`")),
        "{message}"
    );
    assert!(message.contains(f.path()), "{message}");

    let f = TempFile::with_text(
        "bad-card.hanabi",
        &base.replace("hand Bob: r2 r2", "hand Bob: r2 z2"),
    );
    let message = fails(&["solve", "--position", f.path()]);
    let n = line_of("hand Bob");
    assert!(
        message.contains(&format!("line {n}: hand Bob: invalid card \"z2\"")),
        "{message}"
    );

    let f = TempFile::with_text(
        "too-many.hanabi",
        &base.replace("hand Bob: r2 r2", "hand Bob: r4 r2"),
    );
    let message = fails(&["solve", f.path()]);
    assert!(
        message.contains(&format!("line {}: more copies of r4", line_of("deck"))),
        "{message}"
    );

    let f = TempFile::with_text(
        "missing.hanabi",
        &base.replace("discards: r1 r1", "discards: r1"),
    );
    let message = fails(&["solve", f.path()]);
    assert!(message.contains("1 card is unaccounted for"), "{message}");

    let f = TempFile::with_text(
        "hidden.hanabi",
        &base.replace("hand Bob: r2 r2", "hand Bob: ? ?"),
    );
    let message = fails(&["solve", f.path()]);
    let n = line_of("hand Bob");
    assert!(
        message.contains(&format!("line {n}: 2 cards are hidden")),
        "{message}"
    );
    assert!(message.contains("--exact"), "{message}");
    assert!(message.contains("--samples N"), "{message}");

    let missing = TempFile::new("no-such-file.hanabi");
    let message = fails(&["solve", missing.path()]);
    assert!(message.contains("reading"), "{message}");

    let message = fails(&["solve", f.path(), "--players", "2"]);
    assert!(
        message.contains("--players cannot be used with a position file"),
        "{message}"
    );
    let stall = manifest("positions/stall.hanabi");
    let message = fails(&["solve", &stall, "--export", missing.path()]);
    assert!(
        message.contains("--export and --link need a whole game"),
        "{message}"
    );
    let message = fails(&["solve", &stall, "--turn", "3"]);
    assert!(
        message.contains("--turn needs a hanab.live game export"),
        "{message}"
    );
}

#[test]
fn bad_game_turns_and_views() {
    let g = game_file();
    let message = fails(&["solve", &g, "--turn", "0"]);
    assert!(message.contains("--turn counts from 1"), "{message}");
    let message = fails(&["solve", &g, "--turn", "99"]);
    assert!(
        message.contains("can be solved are 1 to 46 (the game is over at turn 47"),
        "{message}"
    );
    // After the last action the game is over: the same range.
    let message = fails(&["solve", &g, "--turn", "47"]);
    assert!(
        message.contains("are 1 to 46 (the game is over at turn 47"),
        "{message}"
    );
    let message = fails(&["solve", &g, "--turn", "40", "--view", "James"]);
    assert!(
        message.contains("unknown --view") && message.contains("seat=K"),
        "{message}"
    );
    let message = fails(&["solve", &g, "--turn", "40", "--view", "nobody"]);
    assert!(message.contains("unknown --view"), "{message}");
    let message = fails(&["solve", &g, "--turn", "40", "--variant", "black"]);
    assert!(
        message.contains("--variant cannot be used with a game file"),
        "{message}"
    );
    let message = fails(&["solve", "p2v0s1", "--view", "Alice"]);
    assert!(message.contains("--view"), "{message}");
}

#[test]
fn seeds_still_solve() {
    let v = json(&["solve", "p2v0s1", "--json", "--threads", "1"]);
    assert_eq!(v["max_score"], 25);
    assert_eq!(v["deck"].as_array().unwrap().len(), 50);
    assert!(v.get("position").is_none());
}
