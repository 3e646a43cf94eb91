//! Sampled determinizations: fill the `?` with random orderings of the unseen cards and solve
//! every root action of each sample exactly.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::{mean_interval, wilson, Filler};
use crate::error::Error;
use crate::game::card::{Card, KindSet};
use crate::hanablive::first_clue;
use crate::line::{site_slot, GivenClue};
use crate::position::Position;
use crate::search::{solve_all, SolveConfig};
use crate::state::{Action, State};

/// SplitMix64: a small deterministic generator (enough for shuffling samples).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The generator of sample `index` under `seed`: depends on nothing else, so results do
    /// not depend on threads or the order samples run in.
    pub fn for_sample(seed: u64, index: u64) -> SplitMix64 {
        let mut a = SplitMix64(seed);
        let mut b = SplitMix64(index ^ 0x5851_f42d_4c95_7f2d);
        SplitMix64(a.next_u64() ^ b.next_u64().rotate_left(17))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiply-shift (bias below 2^-50 for small `n`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// What one root action reached in one sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampledScore {
    /// The best final score after the action (the proven lower bound when not `proven`).
    pub score: u8,
    /// False when a limit stopped the child's search.
    pub proven: bool,
}

/// The legal root actions of the player to move, in [`crate::state::State::legal_actions`]
/// order. They depend only on hand sizes, tokens and the pile's size, never on which card is
/// where, so they are the same in every sample.
pub fn root_actions(position: &Position) -> Result<Vec<Action>, Error> {
    let (deal, state) = position.fill(&position.unseen())?;
    Ok(state.legal_actions(&deal).into_vec())
}

/// Solves every root action of `position` with the `?` filled by `cards` (a reordering of
/// [`Position::unseen`]), each child exactly with one thread. One [`SampledScore`] per
/// [`root_actions`] entry, in that order.
pub fn evaluate(
    position: &Position,
    cards: &[Card],
    config: &SolveConfig,
) -> Result<Vec<SampledScore>, Error> {
    let (deal, state) = position.fill(cards)?;
    let config = SolveConfig {
        threads: 1,
        ..config.clone()
    };
    let rules = &deal.rules;
    let children: Vec<State> = state
        .legal_actions(&deal)
        .into_iter()
        .map(|a| {
            state.apply(&deal, a).map_err(|e| Error::Illegal {
                index: 0,
                reason: e,
            })
        })
        .collect::<Result<_, _>>()?;
    // The children in play are solved together, sharing one table.
    let open: Vec<State> = children.iter().filter(|c| !c.is_over()).copied().collect();
    let mut solved = solve_all(&deal, &open, &config).into_iter();
    Ok(children
        .iter()
        .map(|child| {
            if child.is_over() {
                SampledScore {
                    score: child.score(rules),
                    proven: true,
                }
            } else {
                let s = solved.next().expect("one solution per open child");
                SampledScore {
                    score: s.max_score,
                    proven: s.proven,
                }
            }
        })
        .collect())
}

/// One root action over all samples.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveEstimate {
    pub action: Action,
    /// "play r3 (slot 1)", "discard slot 2", "clue Bob red", "deck play".
    pub name: String,
    /// Hand slot as hanab.live numbers it (1 = newest), for plays and discards.
    pub slot: Option<u8>,
    /// Share of samples in which the perfect score is still reachable after the action.
    pub win_probability: f64,
    pub win_ci95: (f64, f64),
    /// Mean over samples of the maximum score after the action.
    pub expected_score: f64,
    pub score_ci95: (f64, f64),
    /// Samples whose solve a limit stopped (their score is a proven lower bound).
    pub unproven: usize,
    /// How many samples reached each final score after the action (index = score).
    pub score_counts: Vec<u64>,
}

/// The sampled estimate of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Samples taken: `requested`, or fewer when the time limit came first.
    pub samples: usize,
    /// Samples asked for.
    pub requested: usize,
    pub rng_seed: u64,
    pub hidden: usize,
    pub perfect_score: u8,
    /// Sorted by win probability, then expected score (both highest first), then root order.
    pub moves: Vec<MoveEstimate>,
}

/// The name of a root action: "play r3 (slot 2)" with the card when the position knows it,
/// "play slot 2" when it is hidden (slots numbered as hanab.live numbers them, 1 = newest),
/// "clue Bob red" (the first legal clue of the action's type among the cards known), "deck
/// play". Returns the slot too, for plays and discards.
pub(crate) fn action_name(position: &Position, action: Action) -> (String, Option<u8>) {
    let rules = &position.rules;
    let v = &rules.variant;
    let hand = &position.hands[position.turn as usize];
    let named = |verb: &str, i: u8| {
        let slot = site_slot(hand.len(), i as usize);
        let name = match hand.get(i as usize).copied().flatten() {
            Some(c) => format!("{verb} {} (slot {slot})", v.card_name(c)),
            None => format!("{verb} slot {slot}"),
        };
        (name, Some(slot))
    };
    match action {
        Action::Play(i) => named("play", i),
        Action::Discard(i) => named("discard", i),
        Action::Clue | Action::ColourClue | Action::RankClue => {
            let known = |seat: usize, touched: KindSet| {
                position.hands[seat]
                    .iter()
                    .flatten()
                    .any(|c| c.kind_bit() & touched != 0)
            };
            let clue = first_clue(rules, position.turn, action.clue_type(), known);
            let name = match clue {
                Some((target, kind, value)) => {
                    let given = GivenClue {
                        target,
                        kind: i64::from(kind),
                        value,
                    };
                    let who = position
                        .names
                        .get(target as usize)
                        .cloned()
                        .unwrap_or_else(|| format!("seat {}", target + 1));
                    format!("clue {who} {}", given.name(rules))
                }
                None => match action {
                    Action::ColourClue => "colour clue".to_string(),
                    Action::RankClue => "rank clue".to_string(),
                    _ => "clue".to_string(),
                },
            };
            (name, None)
        }
        Action::DeckPlay => ("deck play".to_string(), None),
    }
}

/// `samples` determinizations of `position` under `rng_seed`: sample `i` shuffles
/// [`Position::unseen`] with [`SplitMix64::for_sample`]`(rng_seed, i)` and fills the `?` with
/// it; every root action is then solved exactly ([`evaluate`]). Samples run in parallel on the
/// current rayon pool (the global one outside any pool); the result does not depend on the
/// number of threads or the order samples finish in.
pub fn sample(
    position: &Position,
    samples: usize,
    rng_seed: u64,
    config: &SolveConfig,
) -> Result<Estimate, Error> {
    sample_until(position, samples, rng_seed, config, None)
}

/// What the samples taken so far add up to, per root action: memory that does not grow with
/// the number of samples.
#[derive(Clone, Debug, Default)]
struct Tally {
    /// Samples counted.
    taken: usize,
    /// Per root action: how many samples reached each final score (index = score).
    score_counts: Vec<Vec<u64>>,
    /// Per root action: samples whose solve a limit stopped.
    unproven: Vec<usize>,
}

impl Tally {
    fn new(actions: usize, perfect: u8) -> Tally {
        Tally {
            taken: 0,
            score_counts: vec![vec![0; perfect as usize + 1]; actions],
            unproven: vec![0; actions],
        }
    }

    fn add(&mut self, outcomes: &[SampledScore]) {
        self.taken += 1;
        for (k, o) in outcomes.iter().enumerate() {
            self.score_counts[k][o.score as usize] += 1;
            self.unproven[k] += !o.proven as usize;
        }
    }

    /// The estimate of each of `actions` (the root actions, in the order the tally counts
    /// them), the best first: by the chance of the perfect score, then by the expected score,
    /// ties in root order.
    fn ranked_moves(
        &self,
        position: &Position,
        actions: &[Action],
        perfect: u8,
    ) -> Vec<MoveEstimate> {
        let mut moves: Vec<MoveEstimate> = actions
            .iter()
            .enumerate()
            .map(|(k, &action)| {
                let counts = &self.score_counts[k];
                let wins = counts[perfect as usize] as usize;
                let (expected_score, score_ci95) = mean_interval(counts, 0.0, perfect as f64);
                let (win_probability, win_ci95) = wilson(wins, self.taken);
                let (name, slot) = action_name(position, action);
                MoveEstimate {
                    action,
                    name,
                    slot,
                    win_probability,
                    win_ci95,
                    expected_score,
                    score_ci95,
                    unproven: self.unproven[k],
                    score_counts: counts.clone(),
                }
            })
            .collect();
        // A stable sort keeps root order among ties.
        moves.sort_by(|a, b| {
            b.win_probability
                .total_cmp(&a.win_probability)
                .then(b.expected_score.total_cmp(&a.expected_score))
        });
        moves
    }

    fn merge(&mut self, other: &Tally) {
        self.taken += other.taken;
        for (mine, theirs) in self.score_counts.iter_mut().zip(&other.score_counts) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        for (a, b) in self.unproven.iter_mut().zip(&other.unproven) {
            *a += b;
        }
    }
}

/// What the workers of [`sample_until`] share: the samples to take and how far they got.
struct Sampler<'a> {
    position: &'a Position,
    filler: &'a Filler,
    samples: usize,
    rng_seed: u64,
    config: &'a SolveConfig,
    deadline: Option<Instant>,
    /// The next sample to take.
    next: AtomicUsize,
    /// A sample failed: take no more.
    failed: AtomicBool,
    /// The error of the lowest sample that failed, so the error too is the same on any thread
    /// count.
    first_error: Mutex<Option<(usize, Error)>>,
}

impl Sampler<'_> {
    /// One worker's share: the next sample not yet taken, one after another, added to `tally`,
    /// until every sample is taken, the deadline has passed, or a sample failed.
    fn work(&self, mut tally: Tally) -> Tally {
        loop {
            if self.failed.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                return tally;
            }
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.samples {
                // Keep the counter from wrapping however many workers look.
                self.next.store(self.samples, Ordering::Relaxed);
                return tally;
            }
            let cards = self
                .filler
                .fill(&mut SplitMix64::for_sample(self.rng_seed, i as u64));
            match evaluate(self.position, &cards, &self.limited()) {
                Ok(scores) => tally.add(&scores),
                Err(e) => {
                    self.failed.store(true, Ordering::Relaxed);
                    let mut first = self
                        .first_error
                        .lock()
                        .expect("no worker panics holding it");
                    if first.as_ref().is_none_or(|(j, _)| i < *j) {
                        *first = Some((i, e));
                    }
                }
            }
        }
    }

    /// The search's limits for a sample begun now: at most the time left before the deadline.
    fn limited(&self) -> SolveConfig {
        let config = self.config;
        SolveConfig {
            time_limit: match (config.time_limit, self.deadline) {
                (limit, None) => limit,
                (limit, Some(d)) => {
                    let left = d.saturating_duration_since(Instant::now());
                    Some(limit.map_or(left, |l| l.min(left)))
                }
            },
            ..config.clone()
        }
    }
}

/// [`sample`] that takes no new sample once `deadline` has passed, and gives each solve at most
/// the time left: the estimate then covers the samples taken (always samples `0..taken`, so it
/// is still the same on any number of threads for the same `taken`). Nothing is allocated per
/// sample, so the count may be as large as the time allows.
pub fn sample_until(
    position: &Position,
    samples: usize,
    rng_seed: u64,
    config: &SolveConfig,
    deadline: Option<Instant>,
) -> Result<Estimate, Error> {
    if samples == 0 {
        return Err(Error::Option(
            "the number of samples must be at least 1".into(),
        ));
    }
    let actions = root_actions(position)?;
    let filler = Filler::new(position)?;
    let perfect = position.rules.perfect_score();
    let sampler = Sampler {
        position,
        filler: &filler,
        samples,
        rng_seed,
        config,
        deadline,
        next: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        first_error: Mutex::new(None),
    };
    let total = Mutex::new(Tally::new(actions.len(), perfect));
    // One long-lived task per worker of the current pool, each taking the next sample and
    // adding it to its own tally. (A plain `par_iter` would let a worker that waits for a
    // child's search, which runs on its own pool, start another sample meanwhile, nesting
    // searches on one stack without bound.)
    rayon::broadcast(|_| {
        let tally = sampler.work(Tally::new(actions.len(), perfect));
        total
            .lock()
            .expect("no worker panics holding the tally")
            .merge(&tally);
    });
    if let Some((_, e)) = sampler
        .first_error
        .into_inner()
        .expect("no worker panicked")
    {
        return Err(e);
    }
    let tally = total.into_inner().expect("no worker panicked");
    let moves = tally.ranked_moves(position, &actions, perfect);
    let taken = tally.taken;
    Ok(Estimate {
        samples: taken,
        requested: samples,
        rng_seed,
        hidden: position.hidden(),
        perfect_score: perfect,
        moves,
    })
}
