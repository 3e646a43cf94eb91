//! What is solved: the deal and position that a seed, a deck, a position file or a hanab.live
//! game at some turn stands for, with what an answer needs besides (the player names, the whole
//! deck or the game's history for an export, the turn the line starts at).

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::game::card::Card;
use crate::game::rules::{Rules, DEFAULT_NAMES};
use crate::hanablive::address::GameAddress;
use crate::hanablive::{self, fetch, link, GameExport};
use crate::position::{self, Position};
use crate::seed::shuffled_deck;
use crate::state::{Action, Deal, State};

use super::AnalysisError;

/// Where a position comes from, before anything is read or dealt.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The deck hanab.live shuffles for a seed, under rules the caller has matched to the seed
    /// name.
    Seed { seed: String, rules: Rules },
    /// A whole deck, top first; seat 0 is dealt the first cards, as hanab.live deals.
    Deck { deck: Vec<Card>, rules: Rules },
    /// A position file (the `.hanabi` format), which sets the rules itself.
    PositionFile(PathBuf),
    /// A hanab.live game at a turn, numbered as the site's replays number turns: turn 1 is the
    /// start of the game, turn N the position before the game's N-th action. `path` is
    /// anything [`read_game`] reads (an export file, a replay link, a game id or the address
    /// of a game on the site), and `site` the server a game named by id is downloaded from.
    Game {
        path: PathBuf,
        turn: usize,
        site: String,
    },
}

/// A hanab.live game and the point in it that a problem starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTurn {
    pub export: GameExport,
    /// The index of the next action (the position is hanab.live's turn `index + 1`).
    pub index: usize,
}

/// A position with every card known, ready for the search.
#[derive(Clone, Debug)]
pub struct Problem {
    /// What is solved, for people: "seed p2v0s1", "position FILE", "game FILE at turn 40".
    pub label: String,
    pub deal: Deal,
    pub state: State,
    /// One name per seat.
    pub names: Vec<String>,
    /// The whole deck, top first, when the position is the start of a deal: an optimal line
    /// then exports as a game on its own.
    pub deck: Option<Vec<Card>>,
    /// The game export and the position's place in it, for a hanab.live game: an optimal line
    /// then exports after the game's own actions.
    pub game: Option<GameTurn>,
    /// Whether the position is a game in progress, which a report then shows in full.
    pub in_progress: bool,
    /// The number of the line's first turn: 1, or the game's turn.
    pub first_turn: usize,
    /// The hanab.live seed of the deal: the seed solved, or the one a game export names.
    pub seed: Option<String>,
}

impl Problem {
    /// Reads or deals what `source` names.
    pub fn new(source: &Source) -> Result<Problem, AnalysisError> {
        match source {
            Source::Seed { seed, rules } => Ok(Problem::from_seed(seed, rules.clone())?),
            Source::Deck { deck, rules } => Ok(Problem::from_deck(
                "the given deck".to_string(),
                rules.clone(),
                deck.clone(),
            )?),
            Source::PositionFile(path) => Problem::from_position_file(path),
            Source::Game { path, turn, site } => Problem::from_game_file(path, *turn, site),
        }
    }

    /// The start of the deal hanab.live shuffles for `seed` under `rules`.
    pub fn from_seed(seed: &str, rules: Rules) -> Result<Problem, Error> {
        let deck = shuffled_deck(seed, &rules.variant);
        let mut problem = Problem::from_deck(format!("seed {seed}"), rules, deck)?;
        problem.seed = Some(seed.to_string());
        Ok(problem)
    }

    /// The start of the deal of `deck` (top first), with the default player names.
    pub fn from_deck(label: String, rules: Rules, deck: Vec<Card>) -> Result<Problem, Error> {
        let (deal, state) = Deal::from_deck(rules.clone(), &deck)?;
        Ok(Problem {
            label,
            deal,
            state,
            names: DEFAULT_NAMES[..rules.players as usize]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            deck: Some(deck),
            game: None,
            in_progress: false,
            first_turn: 1,
            seed: None,
        })
    }

    /// The position of a position file, which must have every card known.
    pub fn from_position_file(path: &Path) -> Result<Problem, AnalysisError> {
        let pos = read_position(path)?;
        let shown = path.display().to_string();
        let (deal, state) = pos.open().map_err(|e| match e {
            Error::Position { line, message } => AnalysisError::HiddenCards {
                path: shown.clone(),
                line,
                message,
            },
            error => AnalysisError::File {
                path: shown.clone(),
                error,
            },
        })?;
        Ok(Problem {
            label: format!("position {shown}"),
            deal,
            state,
            names: pos.names,
            deck: None,
            game: None,
            in_progress: true,
            first_turn: 1,
            seed: None,
        })
    }

    /// The position at `turn` (counted from 1) of the hanab.live game `path` names: an export
    /// file, a replay link, or a game on `site` (see [`read_game`]).
    pub fn from_game_file(path: &Path, turn: usize, site: &str) -> Result<Problem, AnalysisError> {
        let shown = path.display().to_string();
        Problem::from_game(read_game(&shown, site)?, &shown, turn)
    }

    /// The position at `turn` (counted from 1) of a game export that messages call `name`. A
    /// turn at or after the end of the game is refused, with the turns that can be solved.
    pub fn from_game(
        export: GameExport,
        name: &str,
        turn: usize,
    ) -> Result<Problem, AnalysisError> {
        let in_file = |error| AnalysisError::File {
            path: name.to_string(),
            error,
        };
        if turn == 0 {
            return Err(AnalysisError::TurnZero);
        }
        let index = turn - 1;
        let tracker = if index <= export.actions.len() {
            Some(hanablive::replay_to(&export, index).map_err(in_file)?)
        } else {
            None
        };
        let Some(tracker) = tracker.filter(|t| !t.is_over()) else {
            let (last, end) = last_open_turn(&export).map_err(in_file)?;
            return Err(AnalysisError::TurnAfterEnd {
                turn,
                path: name.to_string(),
                last,
                end,
            });
        };
        Ok(Problem {
            label: format!("game {name} at turn {turn}"),
            deal: tracker.deal().clone(),
            state: *tracker.state(),
            names: tracker.names().to_vec(),
            deck: None,
            in_progress: index > 0,
            seed: export.seed.clone(),
            game: Some(GameTurn { export, index }),
            first_turn: turn,
        })
    }

    /// Whether an optimal line can be written as a whole hanab.live game: the problem is the
    /// start of a deal or a point of a game export, not a position file without a history.
    pub fn is_whole_game(&self) -> bool {
        self.deck.is_some() || self.game.is_some()
    }

    /// The position as a hanab.live game that knows each card's deck order, where there is
    /// one: the start of the deal, or the game export at its turn.
    pub fn tracker(&self) -> Option<hanablive::Tracker> {
        match (&self.deck, &self.game) {
            (Some(deck), _) => {
                hanablive::Tracker::new(self.deal.rules.clone(), deck, self.names.clone()).ok()
            }
            (None, Some(game)) => hanablive::replay_to(&game.export, game.index).ok(),
            (None, None) => None,
        }
    }

    /// The positions that led here, first to last, the problem's own position last: a game
    /// export's from its start (`[i]` before its turn `i + 1`); just the position, for a seed,
    /// a deck or a position file.
    pub fn history(&self) -> Result<Vec<State>, AnalysisError> {
        let Some(game) = &self.game else {
            return Ok(vec![self.state]);
        };
        let mut played = game.export.clone();
        played.actions.truncate(game.index);
        let replay = hanablive::replay(&played).map_err(|error| AnalysisError::File {
            path: self.label.clone(),
            error,
        })?;
        Ok(replay.states)
    }

    /// `line`, played from this problem's position, as a hanab.live game that `replay` and
    /// the site can load: from the start of the deal, or after the game's own actions.
    pub fn export_line(&self, line: &[Action]) -> Result<GameExport, AnalysisError> {
        match (&self.deck, &self.game) {
            (Some(deck), _) => Ok(hanablive::export_line(
                deck,
                &self.deal.rules,
                &self.names,
                line,
            )?),
            (None, Some(game)) => export_game(&game.export, game.index, line),
            (None, None) => Err(AnalysisError::NotAWholeGame),
        }
    }

    /// The position file of the position before `turn` of `line` played from this problem's
    /// position (turns numbered from [`Problem::first_turn`]), headed by a comment that says
    /// where it comes from.
    pub fn position_on_line(&self, line: &[Action], turn: usize) -> Result<String, AnalysisError> {
        let first = self.first_turn;
        if turn < first || turn >= first + line.len() {
            let last = (first + line.len()).saturating_sub(1);
            return Err(AnalysisError::NotOnLine { turn, first, last });
        }
        let mut s = self.state;
        for &a in &line[..turn - first] {
            s = s.apply(&self.deal, a).map_err(AnalysisError::Internal)?;
        }
        let mut text = if turn == first {
            format!("# {}\n", self.label)
        } else {
            format!(
                "# {}: the position before turn {turn} of an optimal line\n",
                self.label
            )
        };
        text += &position::write(&self.deal, &s, &self.names);
        Ok(text)
    }

    /// The position as a checked [`Position`] with every card known, which a view can then
    /// hide cards of.
    pub fn position(&self) -> Result<Position, AnalysisError> {
        let file = position::PositionFile::from_state(&self.deal, &self.state, &self.names);
        Position::new(&file)
            .map_err(|f| AnalysisError::Internal(format!("the position does not read back: {f}")))
    }
}

/// The game export `source` names (told apart by [`GameAddress::classify`]): the path of an
/// export file, a replay link (`https://hanab.live/replay-json/...`, read back by
/// [`link::decode`]), or a finished game on the site, by id (`194321`) or by the address of
/// its replay (`https://hanab.live/replay/194321`), downloaded from `site`.
pub fn read_game(source: &str, site: &str) -> Result<GameExport, AnalysisError> {
    let in_source = |error| AnalysisError::File {
        path: source.to_string(),
        error,
    };
    match GameAddress::classify(source) {
        GameAddress::File(path) => hanablive::read(&read_text(&path)?).map_err(in_source),
        GameAddress::ReplayLink(text) => link::decode(&text).map_err(in_source),
        GameAddress::GameId(id) => Ok(fetch::fetch_game(site, id)?),
        GameAddress::SeedLink(seed) => Err(AnalysisError::SeedNotGame {
            link: source.to_string(),
            seed,
        }),
        GameAddress::OtherUrl(url) => Err(AnalysisError::NotAGameAddress(url)),
    }
}

/// The text of the file at `path`.
pub(super) fn read_text(path: &Path) -> Result<String, AnalysisError> {
    std::fs::read_to_string(path).map_err(|error| AnalysisError::Read {
        path: path.display().to_string(),
        error,
    })
}

/// The position file at `path` as written, hidden cards (`?`) and all.
pub(super) fn read_position(path: &Path) -> Result<Position, AnalysisError> {
    let text = read_text(path)?;
    position::read(&text).map_err(|faults| AnalysisError::PositionFile {
        path: path.display().to_string(),
        faults,
    })
}

/// The last turn of `game` with the game still in play, and why it is over after it (or that
/// the export stops there).
fn last_open_turn(game: &GameExport) -> Result<(usize, String), Error> {
    for index in 1..=game.actions.len() {
        let t = hanablive::replay_to(game, index)?;
        if t.is_over() {
            return Ok((index, t.end_reason()));
        }
    }
    Ok((
        game.actions.len() + 1,
        "the export has no more actions".to_string(),
    ))
}

/// An optimal line of a game export as a hanab.live game: the game's actions up to the
/// position (action `index`), then the line, then a game-over action if the game is still on.
fn export_game(
    game: &GameExport,
    index: usize,
    line: &[Action],
) -> Result<GameExport, AnalysisError> {
    let mut t = hanablive::replay_to(game, index)?;
    let mut actions = game.actions[..index].to_vec();
    let internal = |i: usize, e: String| AnalysisError::Internal(format!("line action {i}: {e}"));
    for (i, &action) in line.iter().enumerate() {
        if t.is_over() {
            break;
        }
        let a = t.to_export(action).map_err(|e| internal(i, e))?;
        t.step(&a).map_err(|e| internal(i, e))?;
        actions.push(a);
    }
    if !t.is_over() {
        actions.push(hanablive::ExportAction::game_over(
            t.state().turn,
            hanablive::TERMINATED,
        ));
    }
    let mut out = hanablive::export(&t.deal().rules, &game.players, t.deck(), &actions)?;
    out.id = game.id;
    out.seed = game.seed.clone();
    Ok(out)
}
