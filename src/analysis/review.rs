//! The review of a whole game: turn by turn, the most the team could still score with every
//! card known before and after each action, the turns whose action lowered it, and for those
//! the moves that would have kept it, with links that open the game on hanab.live.
//!
//! Every position of the game is solved with one shared table ([`SharedSearch`]): consecutive
//! positions share most of their futures, and each position's value is at most the one before
//! it (its action was one of the choices there), so the previous answer bounds the next search
//! and the whole review costs little more than its hardest turn. A turn is said to lose points
//! only when that is proven: the bound after the action is below the proven value before it.
//!
//! With hidden cards ([`ReviewOptions::chances`]) each turn also gets the chance to win of the
//! action taken and of the best one, with the pile hidden ([`super::win_chance`]).

use std::fmt;

use serde::Serialize;

use crate::hanablive::{self, link, GameExport};
use crate::line::describe;
use crate::search::{solve, SharedSearch, Solution, SolveConfig};
use crate::state::Action;

use super::hidden_cards::{group, names};
use super::loss::turn_loss;
use super::win_chance::{win_chance, ChanceConfig, WinChance};
use super::{AnalysisError, Problem};

/// What a review computes and where its links point.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// Limits of each position's search (its time limit is per position).
    pub search: SolveConfig,
    /// The server the links point at.
    pub site: String,
    /// The chance to win of each turn's action with the pile hidden, when asked for.
    pub chances: Option<ChanceConfig>,
}

/// How far a review has got: `done` of `total` steps of `stage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub stage: &'static str,
    pub done: usize,
    pub total: usize,
}

/// The value of one position: proven, or bounds a limit left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Reachable {
    /// The most that a line found reaches (the value itself when proven).
    pub max: u8,
    /// The most that can be reached, as far as the search proved.
    pub upper: u8,
}

impl Reachable {
    fn of(s: &Solution) -> Reachable {
        Reachable {
            max: s.lower_bound,
            upper: s.upper_bound,
        }
    }

    fn exact(score: u8) -> Reachable {
        Reachable {
            max: score,
            upper: score,
        }
    }

    pub fn proven(self) -> bool {
        self.max == self.upper
    }

    /// Whether this value is proven below `earlier`'s: an action between them lost points.
    pub fn below(self, earlier: Reachable) -> bool {
        self.upper < earlier.max
    }
}

impl fmt::Display for Reachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.proven() {
            write!(f, "{}", self.max)
        } else {
            write!(f, "{}-{}", self.max, self.upper)
        }
    }
}

/// One action of the game, reviewed.
#[derive(Clone, Debug, Serialize)]
pub struct TurnReview {
    /// hanab.live's turn number: the action is the game's `turn`-th.
    pub turn: usize,
    pub player: String,
    /// What happened, in words ("Bob discards r4").
    pub action: String,
    /// The most still reachable before the action (`max_before` when proven)...
    pub max_before: u8,
    pub max_before_upper: u8,
    /// ... and after it.
    pub max_after: u8,
    pub max_after_upper: u8,
    /// Both figures are exact.
    pub proven: bool,
    /// For an action proven to lower the maximum: the moves that keep it, in words.
    pub best_moves: Vec<String>,
    /// The same moves in groups equal in every figure (the most each still reaches), each
    /// group where its first move is in `best_moves`: the lines of the text.
    pub best_move_groups: Vec<MoveGroup>,
    /// For an action proven to lower the maximum: what it lost, in words ([`turn_loss`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<String>,
    /// The game on hanab.live, opened at this turn (none for a game whose options a link
    /// cannot carry, or of a variant the site does not have).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// For an action that lowered the maximum: the game up to this turn, then an optimal line
    /// from the best move, opened at this turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_link: Option<String>,
    /// With hidden cards: the chance to win of the action taken and of the best one, with the
    /// pile hidden.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<WinChance>,
}

impl TurnReview {
    /// Whether the action is proven to have lowered the most still reachable.
    pub fn lost_points(&self) -> bool {
        self.after().below(self.before())
    }

    /// The most still reachable before the action.
    fn before(&self) -> Reachable {
        Reachable {
            max: self.max_before,
            upper: self.max_before_upper,
        }
    }

    /// The most still reachable after the action.
    fn after(&self) -> Reachable {
        Reachable {
            max: self.max_after,
            upper: self.max_after_upper,
        }
    }
}

/// Moves of a turn equal in every figure, as they share a line of a review: the most still
/// reachable after each of them (`max` when proven) and their words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveGroup {
    pub max: u8,
    pub upper: u8,
    pub moves: Vec<String>,
}

impl MoveGroup {
    fn value(&self) -> Reachable {
        Reachable {
            max: self.max,
            upper: self.upper,
        }
    }
}

/// A whole game, reviewed.
#[derive(Clone, Debug, Serialize)]
pub struct GameReview {
    /// Where the game came from (a file or a link).
    pub game: String,
    pub variant: String,
    pub players: Vec<String>,
    /// The score the game ended with (or has where the export stops).
    pub final_score: u8,
    /// Whether the game is over (an export may stop in the middle of one).
    pub finished: bool,
    pub perfect_score: u8,
    /// The most the deal allowed at the start, with every card known.
    pub max_at_start: u8,
    pub max_at_start_upper: u8,
    /// The turns whose action is proven to have lowered the maximum.
    pub lost_at: Vec<usize>,
    /// The whole game on hanab.live (as for [`TurnReview::link`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    pub turns: Vec<TurnReview>,
}

/// Reviews `game` (called `name` in messages) as `options` say, telling `progress` after each
/// step.
pub fn review(
    game: &GameExport,
    name: &str,
    options: &ReviewOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<GameReview, AnalysisError> {
    let file = |error| AnalysisError::File {
        path: name.to_string(),
        error,
    };
    let replay = hanablive::replay(game).map_err(file)?;
    let rules = &replay.deal.rules;
    let search = SharedSearch::new(&replay.deal, &options.search);
    let values = game_values(&replay, &search, progress);
    let reviewer = Reviewer {
        game,
        name,
        replay: &replay,
        values: &values,
        search: &search,
        config: &options.search,
        site: options.site.as_str(),
    };
    let mut turns = reviewer.turns(progress);
    if let Some(chances) = &options.chances {
        add_chances(&replay, &mut turns, chances, progress)?;
    }
    let lost_at = turns
        .iter()
        .filter(|t| t.lost_points())
        .map(|t| t.turn)
        .collect();
    Ok(GameReview {
        game: name.to_string(),
        variant: rules.variant.name.clone(),
        players: replay.names.clone(),
        final_score: replay.score,
        finished: replay.finished,
        perfect_score: rules.perfect_score(),
        max_at_start: values[0].max,
        max_at_start_upper: values[0].upper,
        lost_at,
        link: reviewer.link(game, None),
        turns,
    })
}

/// What the review of each turn needs: the game, its replay, the value of every position, the
/// shared search and its configuration (for the better moves and best lines), and the site
/// the links open on.
struct Reviewer<'a> {
    game: &'a GameExport,
    /// The export's name, for messages.
    name: &'a str,
    replay: &'a hanablive::Replay,
    /// The value of the position before each action, and after the last.
    values: &'a [Reachable],
    search: &'a SharedSearch<'a>,
    config: &'a SolveConfig,
    /// The site the links open on.
    site: &'a str,
}

impl Reviewer<'_> {
    /// A replay link to `game` (at `turn`, else its start) on the site, where the variant has
    /// a site id and the link can carry the game's options.
    fn link(&self, game: &GameExport, turn: Option<usize>) -> Option<String> {
        let id = self.replay.deal.rules.variant.id?;
        link::replay_link(self.site, game, id, turn).ok()
    }

    /// The review of every turn with an action, the better moves of those that lost points
    /// (reported to `progress` one by one).
    fn turns(&self, progress: &mut dyn FnMut(Progress)) -> Vec<TurnReview> {
        let (replay, values) = (self.replay, self.values);
        let losing = replay
            .turns
            .iter()
            .filter(|r| r.action.is_some() && values[r.index + 1].below(values[r.index]))
            .count();
        let mut losing_done = 0;
        let mut turns = Vec::new();
        for record in &replay.turns {
            let Some(action) = record.action else {
                continue;
            };
            let review = self.turn(record, action);
            if review.lost_points() {
                losing_done += 1;
                progress(Progress {
                    stage: "turns that lost points",
                    done: losing_done,
                    total: losing,
                });
            }
            turns.push(review);
        }
        turns
    }

    /// The review of one turn: the values before and after its `action`, and where it lost
    /// points, how, the moves that would have kept them, and a link to a best line.
    fn turn(&self, record: &hanablive::TurnRecord, action: Action) -> TurnReview {
        let replay = self.replay;
        // `states[i]` is the position before the export's action `i`.
        let step = record.index;
        let (before, after) = (self.values[step], self.values[step + 1]);
        let mut review = TurnReview {
            turn: record.turn,
            player: record.player.clone(),
            action: record.text.clone(),
            max_before: before.max,
            max_before_upper: before.upper,
            max_after: after.max,
            max_after_upper: after.upper,
            proven: before.proven() && after.proven(),
            best_moves: Vec::new(),
            best_move_groups: Vec::new(),
            lost: None,
            link: self.link(self.game, Some(record.turn)),
            best_link: None,
            chance: None,
        };
        if !review.lost_points() {
            return review;
        }
        let (s0, s1) = (&replay.states[step], &replay.states[step + 1]);
        review.lost = Some(turn_loss(&replay.deal, s0, s1, before.max));
        let keep = better_moves(replay, step, action, before, self.search);
        if let Some(&(first, _, _)) = keep.first() {
            review.best_link =
                best_line_link(self.game, self.name, record.turn, first, self.config)
                    .and_then(|g| self.link(&g, Some(record.turn)));
        }
        review.best_move_groups = group(&keep, |&(_, _, value)| value)
            .into_iter()
            .map(|members| MoveGroup {
                max: members[0].2.max,
                upper: members[0].2.upper,
                moves: members.iter().map(|m| m.1.clone()).collect(),
            })
            .collect();
        review.best_moves = keep.into_iter().map(|(_, text, _)| text).collect();
        review
    }
}

/// Each turn's chance to win (see [`win_chance`]), reported to `progress` one by one.
fn add_chances(
    replay: &hanablive::Replay,
    turns: &mut [TurnReview],
    chances: &ChanceConfig,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), AnalysisError> {
    let total = turns.len();
    for (done, (review, record)) in turns
        .iter_mut()
        .zip(replay.turns.iter().filter(|r| r.action.is_some()))
        .enumerate()
    {
        let state = &replay.states[record.index];
        let action = record.action.expect("turns with an action");
        review.chance = Some(win_chance(
            &replay.deal,
            state,
            &replay.names,
            action,
            chances,
        )?);
        progress(Progress {
            stage: "chances to win",
            done: done + 1,
            total,
        });
    }
    Ok(())
}

/// The value of every position of the game (before each action, and the last), in order, each
/// search bounded by the one before.
fn game_values(
    replay: &hanablive::Replay,
    search: &SharedSearch,
    progress: &mut dyn FnMut(Progress),
) -> Vec<Reachable> {
    let rules = &replay.deal.rules;
    let total = replay.states.len();
    let mut values = Vec::with_capacity(total);
    let mut ceiling = None;
    for (i, state) in replay.states.iter().enumerate() {
        let value = if state.is_over() {
            Reachable::exact(state.score(rules))
        } else {
            let s = search.value(state, ceiling);
            // The next position follows from this one by one of its actions: it can reach no
            // more than this one can.
            ceiling = Some(s.upper_bound);
            Reachable::of(&s)
        };
        values.push(value);
        progress(Progress {
            stage: "positions",
            done: i + 1,
            total,
        });
    }
    values
}

/// The legal moves of the position before action `step` (other than `taken`) that keep a
/// maximum of at least `before.max`, proven, each with its words (two copies of a card told
/// apart by their slots) and the most it still reaches.
fn better_moves(
    replay: &hanablive::Replay,
    step: usize,
    taken: Action,
    before: Reachable,
    search: &SharedSearch,
) -> Vec<(Action, String, Reachable)> {
    let keep = before.max;
    let deal = &replay.deal;
    let state = replay.states[step];
    // Each other legal move with the position it leads to.
    let moves: Vec<(Action, _)> = state
        .legal_actions(deal)
        .into_iter()
        .filter(|&a| a != taken)
        .filter_map(|a| state.apply(deal, a).ok().map(|child| (a, child)))
        .collect();
    let mut out: Vec<(Action, String, Reachable, u8)> = Vec::new();
    for &(a, child) in &moves {
        let value = if child.is_over() {
            Reachable::exact(child.score(&deal.rules))
        } else {
            // A move's position can reach no more than the position it is made from.
            Reachable::of(&search.value(&child, Some(before.upper)))
        };
        if value.max < keep {
            continue;
        }
        let Ok((steps, _)) = describe(deal, &state, &[a], &replay.names) else {
            continue;
        };
        let step = &steps[0];
        // Plays first, then clues, discards, and misplays last: the moves a player would try.
        let order = match (step.action, step.misplay) {
            ("play", false) => 0,
            ("clue", _) => 1,
            ("discard", _) => 2,
            _ => 3,
        };
        if out.iter().all(|(_, t, _, _)| *t != step.text) {
            out.push((a, step.text.clone(), value, order));
        }
    }
    out.sort_by_key(|&(_, _, _, order)| order);
    out.into_iter()
        .map(|(a, text, value, _)| (a, text, value))
        .collect()
}

/// The game up to `turn`, then `first` and an optimal line after it, as an export.
fn best_line_link(
    game: &GameExport,
    name: &str,
    turn: usize,
    first: Action,
    config: &SolveConfig,
) -> Option<GameExport> {
    let p = Problem::from_game(game.clone(), name, turn).ok()?;
    let child = p.state.apply(&p.deal, first).ok()?;
    let mut line = vec![first];
    if !child.is_over() {
        line.extend(solve(&p.deal, &child, config).line);
    }
    p.export_line(&line).ok()
}

impl fmt::Display for GameReview {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let start = Reachable {
            max: self.max_at_start,
            upper: self.max_at_start_upper,
        };
        writeln!(
            f,
            "Review: {} ({}, {} players)",
            self.game,
            self.variant,
            self.players.len()
        )?;
        let end = if self.finished {
            format!("Final score {} of {}", self.final_score, self.perfect_score)
        } else {
            format!(
                "The export stops with the game going on, at {} of {}",
                self.final_score, self.perfect_score
            )
        };
        writeln!(
            f,
            "{end}; with every card known the deal allowed {start} at the start."
        )?;
        let lost: Vec<&TurnReview> = self.turns.iter().filter(|t| t.lost_points()).collect();
        if lost.is_empty() {
            writeln!(f, "No action lowered the most the team could still score.")?;
        } else {
            writeln!(
                f,
                "Actions that lowered the most the team could still score:"
            )?;
            for t in &lost {
                let keep = match t.best_moves.first() {
                    Some(m) => format!("; {m} kept {}", t.max_before),
                    None => String::new(),
                };
                let lost = t
                    .lost
                    .as_deref()
                    .map(|l| format!(": {l}"))
                    .unwrap_or_default();
                writeln!(
                    f,
                    "  turn {}: {} ({} to {}){lost}{keep}",
                    t.turn, t.action, t.max_before, t.max_after
                )?;
                // Moves equal in every figure share a line, as in `solve`'s lists of moves.
                if t.best_moves.len() > 1 {
                    for g in &t.best_move_groups {
                        writeln!(
                            f,
                            "    moves that kept {}: {}",
                            g.value(),
                            names(g.moves.iter().map(String::as_str))
                        )?;
                    }
                }
                if let Some(link) = &t.best_link {
                    writeln!(f, "    the game with the best line: {link}")?;
                }
            }
        }
        if let Some(link) = &self.link {
            writeln!(f, "On hanab.live: {link}")?;
        }
        writeln!(f)?;
        let chances = self.turns.iter().any(|t| t.chance.is_some());
        if chances {
            writeln!(
                f,
                "Chance to win with the draw pile hidden, of the action taken and of the best one: \
                 exact over every pile order, or ~ sampled (each pile solved with every card \
                 known, so it can only be too high; the JSON has the intervals)."
            )?;
            writeln!(f)?;
            writeln!(f, "turn  max before  max after  win taken     best  action")?;
        } else {
            writeln!(f, "turn  max before  max after  action")?;
        }
        for t in &self.turns {
            let (before, after) = (t.before(), t.after());
            let mark = if t.lost_points() { "  <-- lost" } else { "" };
            let chance = match &t.chance {
                Some(c) => format!("{:>9}  {:>7}  ", c.taken.short(), c.best.short()),
                None if chances => format!("{:>9}  {:>7}  ", "", ""),
                None => String::new(),
            };
            writeln!(
                f,
                "{:>4}  {:>10}  {:>9}  {chance}{}{mark}",
                t.turn,
                before.to_string(),
                after.to_string(),
                t.action
            )?;
        }
        Ok(())
    }
}
