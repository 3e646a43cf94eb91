//! The report of `solve --team`: the exact value of a position for a team whose players do not
//! see their own cards, beside the every-card-known and per-view figures, and the value of each
//! first move. It serializes as `solve --team --json` prints it (fields in alphabetical order)
//! and reads as `solve --team` prints it.

use std::fmt;

use serde::Serialize;

use crate::hidden::team::{team, FirstMove, GoalValues, Team, TeamConfig, TotalBounds};

use super::hidden_cards::{group, names};
use super::view::ViewedPosition;
use super::AnalysisError;

/// A win probability and an expected score, each as an exact fraction (`"3/4"`); where a time
/// limit stopped the search, the lower bounds, with the upper bounds beside them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WinAndScore {
    pub score: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_upper: Option<String>,
    pub win: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_upper: Option<String>,
}

impl WinAndScore {
    fn of(win: TotalBounds, score: TotalBounds, worlds: u64) -> WinAndScore {
        let (win_lo, win_hi) = win.fractions(worlds);
        let (score_lo, score_hi) = score.fractions(worlds);
        WinAndScore {
            score: score_lo.to_string(),
            score_upper: (!score.exact()).then(|| score_hi.to_string()),
            win: win_lo.to_string(),
            win_upper: (!win.exact()).then(|| win_hi.to_string()),
        }
    }

    /// "3/4 (75.0%)" and "11/2 (5.500)", or "1/2..3/4 (50.0-75.0%)" when not proven.
    fn words(&self, worlds: u64, win: TotalBounds, score: TotalBounds) -> (String, String) {
        let pct = |b: u64| 100.0 * b as f64 / worlds as f64;
        let mean = |b: u64| b as f64 / worlds as f64;
        let win = match &self.win_upper {
            None => format!("{} ({:.1}%)", self.win, pct(win.lo)),
            Some(hi) => format!(
                "{}..{hi} ({:.1}-{:.1}%)",
                self.win,
                pct(win.lo),
                pct(win.hi)
            ),
        };
        let score = match &self.score_upper {
            None => format!("{} ({:.3})", self.score, mean(score.lo)),
            Some(hi) => format!(
                "{}..{hi} ({:.3}-{:.3})",
                self.score,
                mean(score.lo),
                mean(score.hi)
            ),
        };
        (win, score)
    }
}

/// The team value if the player to move makes one move first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamMoveReport {
    /// "play slot 2", "discard slot 1", "clue Bob" (the clue may differ with what the mover
    /// sees), "deck play".
    pub action: String,
    /// Both values proven (no time limit stopped them).
    pub proven: bool,
    /// Hand slot as hanab.live numbers it (1 = newest), for plays and discards.
    pub slot: Option<u8>,
    /// `win`, `score` and their upper bounds, beside the other keys.
    #[serde(flatten)]
    pub figures: WinAndScore,
    #[serde(skip)]
    bounds: (TotalBounds, TotalBounds),
}

/// Team play of a position whose players do not see their own cards.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamReport {
    /// Every card known to everyone, averaged over the worlds: an upper bound.
    pub cheat: WinAndScore,
    /// Always "team".
    pub mode: &'static str,
    /// Best first (win, then score).
    pub moves: Vec<TeamMoveReport>,
    pub nodes: u64,
    /// Each class of worlds the mover cannot tell apart takes the move best with every card
    /// known afterwards (what determinizing engines report): an upper bound.
    pub per_view: WinAndScore,
    /// The per-view choice made by every player at every turn, played out: a strategy, so a
    /// lower bound.
    pub per_view_played: WinAndScore,
    /// What the position is ([`ViewedPosition::label`]).
    pub position: String,
    /// The team values are exact (no time limit stopped the search).
    pub proven: bool,
    pub seconds: f64,
    /// The most the fireworks can still reach: a win reaches it.
    pub target: u8,
    /// The team's best, each goal maximised on its own.
    pub team: WinAndScore,
    pub to_move: String,
    /// Ways the hidden cards may lie that fit what the players know, all equally likely.
    pub worlds: u128,
    /// Where those were too many to search one by one: the worlds searched, one per placement
    /// of the cards still alive (dead cards merged; the team values are then bounds unless
    /// they meet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_worlds: Option<u64>,
    #[serde(skip)]
    result: Team,
}

impl TeamReport {
    /// Analyses `viewed`: its hidden cards (`?`, each narrowed by what its holder knows) are
    /// hidden from their holders, seen by everyone else.
    pub fn new(viewed: &ViewedPosition, config: &TeamConfig) -> Result<TeamReport, AnalysisError> {
        let pos = &viewed.position;
        let result = team(pos, config).map_err(|error| AnalysisError::Team {
            label: viewed.label.clone(),
            error,
        })?;
        let n = result.total;
        let mover = pos.turn as usize;
        let hand_len = pos.hands[mover].len() as u8;
        let mut moves: Vec<TeamMoveReport> = result
            .win
            .moves
            .iter()
            .zip(&result.score.moves)
            .map(|(&(m, win), &(m2, score))| {
                debug_assert_eq!(m, m2);
                let figures = WinAndScore::of(win, score, n);
                let (action, slot) = match m {
                    FirstMove::Play(i) => {
                        (format!("play slot {}", hand_len - i), Some(hand_len - i))
                    }
                    FirstMove::Discard(i) => {
                        (format!("discard slot {}", hand_len - i), Some(hand_len - i))
                    }
                    FirstMove::ClueTo(t) => (format!("clue {}", pos.names[t as usize]), None),
                    FirstMove::DeckPlay => ("deck play".to_string(), None),
                };
                TeamMoveReport {
                    action,
                    proven: win.exact() && score.exact(),
                    slot,
                    figures,
                    bounds: (win, score),
                }
            })
            .collect();
        moves.sort_by(|a, b| {
            (b.bounds.0.lo, b.bounds.1.lo)
                .cmp(&(a.bounds.0.lo, a.bounds.1.lo))
                .then(a.slot.cmp(&b.slot))
        });
        let played = |g: &GoalValues| TotalBounds {
            lo: g.per_view_played,
            hi: g.per_view_played,
        };
        Ok(TeamReport {
            cheat: WinAndScore::of(result.win.cheat, result.score.cheat, n),
            mode: "team",
            moves,
            nodes: result.nodes,
            per_view: WinAndScore::of(result.win.per_view, result.score.per_view, n),
            per_view_played: WinAndScore::of(played(&result.win), played(&result.score), n),
            position: viewed.label.clone(),
            proven: result.win.team.exact() && result.score.team.exact(),
            seconds: result.seconds,
            target: result.target,
            team: WinAndScore::of(result.win.team, result.score.team, n),
            to_move: pos.names[mover].clone(),
            worlds: result.arrangements,
            merged_worlds: result.merged_worlds,
            result,
        })
    }
}

/// The report as `solve --team` prints it (no newline after the last line).
impl fmt::Display for TeamReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.result;
        let n = r.total;
        let worlds = self.worlds;
        writeln!(f, "Position: {}; {} to move", self.position, self.to_move)?;
        writeln!(
            f,
            "Team play: {worlds} equally likely world{} fit what the players know (every hidden \
             card seen by all but its holder). Each player acts only on what it has seen; \"win\" \
             is reaching {}, \"score\" the final score, each maximised on its own.",
            if worlds == 1 { "" } else { "s" },
            self.target
        )?;
        if let Some(merged) = self.merged_worlds {
            writeln!(
                f,
                "Too many to search one by one: searched as {merged} world{}, one per placement \
                 of the cards still alive, dead cards merged. The team figures are then what the \
                 best team reaches telling dead cards apart by nothing but what is public (a \
                 lower bound: every such strategy is a real one), up to every card known.",
                if merged == 1 { "" } else { "s" }
            )?;
        }
        let rows = [
            (
                if self.proven {
                    "team (exact)"
                } else {
                    "team (bounds)"
                },
                &self.team,
                r.win.team,
                r.score.team,
                "the best joint strategy",
            ),
            (
                "every card known",
                &self.cheat,
                r.win.cheat,
                r.score.cheat,
                "upper bound: players who see their own cards",
            ),
            (
                "per-view estimate",
                &self.per_view,
                r.win.per_view,
                r.score.per_view,
                "upper bound: the mover's best move per view, then every card known",
            ),
            (
                "per-view played",
                &self.per_view_played,
                TotalBounds {
                    lo: r.win.per_view_played,
                    hi: r.win.per_view_played,
                },
                TotalBounds {
                    lo: r.score.per_view_played,
                    hi: r.score.per_view_played,
                },
                "lower bound: that rule followed by every player at every turn",
            ),
        ];
        let cells: Vec<(String, String)> = rows
            .iter()
            .map(|(_, figures, win, score, _)| figures.words(n, *win, *score))
            .collect();
        let ww = cells.iter().map(|c| c.0.len()).max().unwrap_or(3).max(3);
        let sw = cells.iter().map(|c| c.1.len()).max().unwrap_or(5).max(5);
        writeln!(f, "  {:<18} {:<ww$}  {:<sw$}", "", "win", "score")?;
        for ((name, _, _, _, note), (win, score)) in rows.iter().zip(&cells) {
            writeln!(f, "  {name:<18} {win:<ww$}  {score:<sw$}  {note}")?;
        }
        writeln!(
            f,
            "If {} makes this move first (a clue: the team's best clue to that player for \
             each view; slots as on hanab.live, 1 = newest; moves equal in both figures share \
             a line):",
            self.to_move
        )?;
        let cells: Vec<(String, String)> = self
            .moves
            .iter()
            .map(|m| m.figures.words(n, m.bounds.0, m.bounds.1))
            .collect();
        let ww = cells.iter().map(|c| c.0.len()).max().unwrap_or(3).max(3);
        let sw = cells.iter().map(|c| c.1.len()).max().unwrap_or(5).max(5);
        writeln!(f, "  {:<ww$}  {:<sw$}  move", "win", "score")?;
        let rows: Vec<(&TeamMoveReport, &(String, String))> =
            self.moves.iter().zip(&cells).collect();
        for same in group(&rows, |(_, cells)| (*cells).clone()) {
            let (win, score) = same[0].1;
            let moves = names(same.iter().map(|(m, _)| m.action.as_str()));
            writeln!(f, "  {win:<ww$}  {score:<sw$}  {moves}")?;
        }
        write!(
            f,
            "Searched {} public positions in {:.3} s.",
            self.nodes, self.seconds
        )
    }
}
