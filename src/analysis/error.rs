//! What can stop an analysis. Each message is whole on one line (a cause is written into it,
//! not chained), and names the file or turn it is about, so that a command prints it as it is.

use thiserror::Error;

use crate::error::Error;
use crate::hanablive::fetch::FetchError;
use crate::hidden::exact::ExactError;
use crate::hidden::team::TeamError;
use crate::position::Faults;

#[derive(Debug, Error)]
pub enum AnalysisError {
    /// A file that could not be read.
    #[error("reading {path}: {error}")]
    Read { path: String, error: std::io::Error },
    /// A position file that does not read as one.
    #[error("{path}: {faults}")]
    PositionFile { path: String, faults: Faults },
    /// A position file with hidden cards (`?`), given where every card must be known.
    #[error("{path}: line {line}: {message}; use --exact for exact values when only pile cards are hidden, or --samples N (e.g. --samples 1000) for a sampled estimate")]
    HiddenCards {
        path: String,
        line: usize,
        message: String,
    },
    /// Anything else wrong with a file's game or position.
    #[error("{path}: {error}")]
    File { path: String, error: Error },
    #[error("--turn counts from 1 (turn 1 is the start of the game)")]
    TurnZero,
    /// A turn of a game export at or after the game's end.
    #[error("--turn {turn}: the turns of {path} that can be solved are 1 to {last} (the game is over at turn {}: {end})", .last + 1)]
    TurnAfterEnd {
        turn: usize,
        path: String,
        /// The last turn with the game still in play.
        last: usize,
        /// Why the game is over after it.
        end: String,
    },
    #[error("unknown --view {0:?}: use open (every card known), cheat (hands known, draw pile hidden), seat=K (K's view: the pile and K's own hand hidden; K a name or a seat number from 1) or team (every hand hidden from its holder, narrowed by the clues each was given, and the pile)")]
    UnknownView(String),
    /// A seat's view of something that is not a game export.
    #[error("--view seat=K needs a hanab.live game export (GAME.json --turn N): the clues a seat was given come from the game's actions")]
    SeatNeedsGame,
    #[error("--view seat={number}: seats are numbered 1 to {seats}")]
    SeatNumber { number: usize, seats: usize },
    #[error("--view seat={name}: no player of that name; the players are {}", .players.join(", "))]
    SeatName { name: String, players: Vec<String> },
    /// An export of a position without its history.
    #[error("--export and --link need a whole game: a seed, --deck or a hanab.live game export, not a position file")]
    NotAWholeGame,
    /// A turn asked of a line that does not have it.
    #[error("--write-turn {turn}: the line's turns are {first} to {last}")]
    NotOnLine {
        turn: usize,
        first: usize,
        last: usize,
    },
    /// A game on hanab.live that could not be downloaded.
    #[error(transparent)]
    Fetch(#[from] FetchError),
    /// A seed link where a game played is needed.
    #[error("{link} is a seed (a deal), not a game played: give a game id, a replay address or an export file (`solve {seed}` solves the deal)")]
    SeedNotGame { link: String, seed: String },
    /// A web address that names no game.
    #[error("{0} is not the address of a hanab.live game: give https://hanab.live/replay/ID, .../shared-replay/ID, .../export/ID, a game id, a replay link (.../replay-json/...) or an export file")]
    NotAGameAddress(String),
    #[error("{label}: {error}")]
    Exact { label: String, error: ExactError },
    #[error("{label}: {error}")]
    Team { label: String, error: TeamError },
    #[error("{label}: {error}")]
    Samples { label: String, error: Error },
    #[error("the time limit ended before the first sample was solved: allow more time")]
    NoSample,
    #[error("starting worker threads: {0}")]
    Threads(String),
    /// A check of the solver's own answer failed: a bug, not a fault of the input.
    #[error("internal error: {0}")]
    Internal(String),
    #[error(transparent)]
    Game(#[from] Error),
}
