//! Helpers shared by the integration tests: a small deterministic random generator and random
//! tiny games.

#![allow(dead_code)]

pub mod site;

use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use hanabi_solver::game::card::Card;
use hanabi_solver::game::catalogue::{Catalogue, VariantFacts};
use hanabi_solver::game::rules::{Options, Rules};
use hanabi_solver::game::variant::Variant;
use hanabi_solver::search::bounds::BoundSet;
use hanabi_solver::search::Tuning;
use hanabi_solver::state::{Deal, State};

/// SplitMix64: deterministic test randomness without a dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    pub fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }

    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// A random tiny research game: returns the rules, the shuffled deck, and the deal.
pub fn random_tiny_game(
    rng: &mut Rng,
    max_cards: usize,
    endless: Option<bool>,
) -> (Rules, Vec<Card>, Deal, State) {
    random_game(rng, max_cards, endless, |rng, _| rng.range(1, 3) as u8)
}

/// `state` after one legal action of the mover's, drawn at random (the game must not be over).
pub fn random_step(rng: &mut Rng, deal: &Deal, state: &State) -> State {
    let legal = state.legal_actions(deal);
    let a = legal[rng.below(legal.len() as u64) as usize];
    state.apply(deal, a).expect("listed actions are legal")
}

/// A random position of `deal`: `state` after up to `most` random legal actions.
pub fn wander(rng: &mut Rng, deal: &Deal, state: &State, most: u64) -> State {
    let mut s = *state;
    for _ in 0..rng.below(most + 1) {
        if s.is_over() {
            break;
        }
        s = random_step(rng, deal, &s);
    }
    s
}

/// A random tiny game whose hands hold as many cards as there are players, or one or two more,
/// never endless: the games where the pool game applies.
pub fn random_pool_game(rng: &mut Rng, max_cards: usize) -> (Rules, Vec<Card>, Deal, State) {
    random_game(rng, max_cards, Some(false), |rng, players| {
        players + rng.range(0, 2) as u8
    })
}

/// A random tiny game with the hand size `hand(rng, players)`.
pub fn random_game(
    rng: &mut Rng,
    max_cards: usize,
    endless: Option<bool>,
    hand: impl Fn(&mut Rng, u8) -> u8,
) -> (Rules, Vec<Card>, Deal, State) {
    loop {
        let suits = rng.range(2, 4) as u8;
        let ranks = rng.range(2, 5) as u8;
        let variant = Variant::research(suits, ranks).unwrap();
        if variant.deck_size() > max_cards {
            continue;
        }
        let players = rng.range(2, 3) as u8;
        let hand_size = hand(rng, players);
        if let Some(game) = random_deal(rng, variant, players, hand_size, endless) {
            return game;
        }
    }
}

/// A shuffled deal of `variant` under random tiny token rules (endless as `endless` says, or
/// at random), or `None` where the rules refuse the sizes.
pub fn random_deal(
    rng: &mut Rng,
    variant: Variant,
    players: u8,
    hand_size: u8,
    endless: Option<bool>,
) -> Option<(Rules, Vec<Card>, Deal, State)> {
    let options = Options {
        hand_size: Some(hand_size),
        clues: Some(rng.range(1, 2) as u8),
        strikes: Some(rng.range(1, 3) as u8),
        empty_clues: rng.coin(),
        deck_plays: rng.below(4) == 0,
        endless: endless.unwrap_or_else(|| rng.below(3) == 0),
    };
    let rules = Rules::new(variant, players, &options).ok()?;
    let mut deck = rules.variant.deck();
    rng.shuffle(&mut deck);
    let (deal, state) = Deal::from_deck(rules.clone(), &deck).unwrap();
    Some((rules, deck, deal, state))
}

/// The best final score from `state`, by brute force: the deliberately simple reference the
/// solver is checked against. Plain memoised search over whole states (hands sorted, nothing
/// else merged), every legal action of every slot, no bounds.
pub fn reference(deal: &Deal, state: &State, memo: &mut HashMap<State, u8>) -> u8 {
    reference_by(deal, state, &|s: &State| s.score(&deal.rules), memo)
}

/// [`reference`] with another measure of a finished game: the best `score` of any line.
pub fn reference_by(
    deal: &Deal,
    state: &State,
    score: &dyn Fn(&State) -> u8,
    memo: &mut HashMap<State, u8>,
) -> u8 {
    if state.is_over() {
        return score(state);
    }
    let key = state.normalized();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let best = state
        .legal_actions(deal)
        .into_iter()
        .map(|a| {
            reference_by(
                deal,
                &state.apply(deal, a).expect("listed actions are legal"),
                score,
                memo,
            )
        })
        .max()
        .expect("a state in play has a legal action");
    memo.insert(key, best);
    best
}

/// Whether some line from `state` ends with every firework at least as high as `target` (a lost
/// game reaches nothing), by brute force.
pub fn reference_reaches(deal: &Deal, state: &State, target: &[u8]) -> bool {
    let n = deal.rules.variant.suits.len();
    let met = |s: &State| {
        (s.status != hanabi_solver::state::Status::Lost
            && s.stacks[..n]
                .iter()
                .zip(target)
                .all(|(h, &t)| h.height() >= t)) as u8
    };
    reference_by(deal, state, &met, &mut HashMap::new()) == 1
}

/// Every ordering of `items` (n! of them; equal items count separately, so each ordering is
/// equally likely under a uniform shuffle).
pub fn permutations<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first.clone());
            out.push(tail);
        }
    }
    out
}

/// Runs the `hanabi-solver` binary, downloads going straight to the server ([`site::direct`]).
pub fn run(args: &[&str]) -> Output {
    site::direct(&mut Command::new(env!("CARGO_BIN_EXE_hanabi-solver")))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs a command that must fail cleanly (non-zero exit, one stderr line starting "error:", no
/// panic) and returns its error.
pub fn fails(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    let lines: Vec<&str> = stderr.trim_end().lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "{args:?}: one line expected, got {stderr:?}"
    );
    assert!(lines[0].starts_with("error:"), "{args:?}: {stderr:?}");
    stderr
}

/// A temporary path, named after the test program so programs running at once never share
/// one, removed on drop.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(name: &str) -> TempFile {
        TempFile(std::env::temp_dir().join(format!(
            "hanabi-solver-{}-{}-{name}",
            env!("CARGO_CRATE_NAME"),
            std::process::id()
        )))
    }

    pub fn with_text(name: &str, text: &str) -> TempFile {
        let f = TempFile::new(name);
        std::fs::write(&f.0, text).unwrap();
        f
    }

    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Waits for `child` at most `limit`: its output, or `None` (after killing it) when it took
/// longer. Both pipes are read meanwhile, so a child that writes much never blocks on a full
/// pipe.
pub fn wait_within(mut child: Child, limit: Duration) -> Option<Output> {
    let pipe = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let stdout = pipe(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = pipe(child.stderr.take().map(|p| Box::new(p) as _));
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(Output {
                status,
                stdout: stdout.join().unwrap(),
                stderr: stderr.join().unwrap(),
            });
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The search's switches to compare with the reference: every rule off but the table, each
/// bound alone (the capacity, schedule and seat bounds with the timing bound they refine), merging,
/// every bound without the table, the relaxed game, the misplay rule, goals, and the pool game
/// (alone and with goals).
pub fn pruning_switches() -> Vec<Tuning> {
    const BARE: Tuning = Tuning {
        bounds: BoundSet::NONE,
        merge: false,
        table: true,
        relaxed: false,
        dominance: false,
        goals: false,
        pool: false,
        pool_plays: false,
    };
    let only = |bounds: BoundSet| Tuning { bounds, ..BARE };
    let timing = BoundSet {
        timing: true,
        ..BoundSet::NONE
    };
    vec![
        BARE,
        only(BoundSet {
            copies: true,
            ..BoundSet::NONE
        }),
        only(BoundSet {
            pace: true,
            ..BoundSet::NONE
        }),
        only(timing),
        only(BoundSet {
            schedule: true,
            ..timing
        }),
        only(BoundSet {
            capacity: true,
            ..timing
        }),
        only(BoundSet {
            seats: true,
            ..timing
        }),
        Tuning {
            merge: true,
            ..BARE
        },
        Tuning {
            bounds: BoundSet::ALL,
            merge: true,
            table: false,
            ..BARE
        },
        Tuning {
            relaxed: true,
            ..BARE
        },
        // The seat rule prunes the relaxed game too (the pool game leaves it out).
        Tuning {
            relaxed: true,
            pool: true,
            ..only(BoundSet {
                seats: true,
                ..timing
            })
        },
        Tuning {
            dominance: true,
            ..BARE
        },
        Tuning {
            goals: true,
            ..BARE
        },
        Tuning {
            relaxed: true,
            pool: true,
            ..BARE
        },
        Tuning {
            relaxed: true,
            pool: true,
            goals: true,
            ..BARE
        },
        Tuning {
            relaxed: true,
            pool: true,
            pool_plays: true,
            goals: true,
            ..BARE
        },
    ]
}

/// A card as hanab.live writes it: (suitIndex, rank).
pub type SiteCard = (usize, u8);

/// A catalogue variant by its exact name.
pub fn facts(name: &str) -> &'static VariantFacts {
    Catalogue::builtin()
        .by_name(name)
        .unwrap_or_else(|| panic!("{name} is in the catalogue"))
}

/// The cards of a JSON list of `{suitIndex, rank}` (a game export's `deck`, `deal --json`'s
/// `deck_cards`).
pub fn site_cards(cards: &serde_json::Value) -> Vec<SiteCard> {
    cards
        .as_array()
        .expect("a deck is a list")
        .iter()
        .map(|c| {
            (
                c["suitIndex"].as_u64().unwrap() as usize,
                c["rank"].as_u64().unwrap() as u8,
            )
        })
        .collect()
}

/// A small copy of a catalogue variant: its first `suits - 1` suits and its last (usually the
/// variant's special suit), stacks of `stack` cards, and the colour and rank clues those suits
/// still have.
pub fn cut_facts(name: &str, suits: usize, stack: u8) -> VariantFacts {
    let mut f = facts(name).clone();
    let last = f.suits.len() - 1;
    let mut kept: Vec<_> = f.suits[..suits - 1].to_vec();
    kept.push(f.suits[last].clone());
    f.suits = kept;
    let named: Vec<String> = f
        .clue_colors
        .iter()
        .filter(|c| f.suits.iter().any(|s| s.clue_colors.contains(c)))
        .cloned()
        .collect();
    f.clue_colors = named;
    f.stack_size = stack;
    f.clue_ranks.retain(|&r| r <= stack);
    f
}

/// A clue as hanab.live records it: a colour (an index into the variant's clue colours) or a
/// rank. The referees of the play-rule families give clues this way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clue {
    Colour(usize),
    Rank(u8),
}

impl Clue {
    pub fn is_colour(self) -> bool {
        matches!(self, Clue::Colour(_))
    }
}

/// Every clue of a variant: its colours, then its ranks.
pub fn clues_of(f: &VariantFacts) -> Vec<Clue> {
    (0..f.clue_colors.len())
        .map(Clue::Colour)
        .chain(f.clue_ranks.iter().map(|&r| Clue::Rank(r)))
        .collect()
}

/// Whether `clue` touches the card, by the catalogue's facts.
pub fn touches(f: &VariantFacts, clue: Clue, (suit, rank): SiteCard) -> bool {
    match clue {
        Clue::Colour(c) => f.color_touches(c, suit, rank),
        Clue::Rank(r) => f.rank_touches(r, suit, rank),
    }
}

/// The table rules of a referee's game.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub players: usize,
    pub hand_size: usize,
    /// Whole tokens at the start and at most.
    pub tokens: u8,
    pub max_strikes: u8,
}

impl Limits {
    /// The site's: hands of 5 for 2-3 players and 4 for 4-5, 8 tokens, 3 strikes.
    pub fn site(players: usize) -> Limits {
        Limits {
            players,
            hand_size: if players <= 3 { 5 } else { 4 },
            tokens: 8,
            max_strikes: 3,
        }
    }
}
