//! Which cards are known: every card, every hand but not the draw pile, what one seat of a
//! hanab.live game knew at a turn, or what the whole team knew (each seat's own hand hidden
//! from it). A view turns a source into a position with hidden cards, which the hidden-card
//! analyses ([`crate::hidden`]) work on.

use std::str::FromStr;

use crate::hanablive;
use crate::position::Position;

use super::problem::{read_position, Problem, Source};
use super::AnalysisError;

/// Which cards are known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum View {
    /// Every card.
    #[default]
    Open,
    /// Every hand, not the draw pile.
    Cheat,
    /// One seat's view: the pile and that seat's own hand hidden, each of its cards narrowed to
    /// what the clues it was given allow. The seat is a name or a number counted from 1, as a
    /// person writes it: it is resolved once the players are known.
    Seat(String),
    /// The team's view: every hand hidden, each card narrowed to what its holder knows of it
    /// from the clues it was given (every kind before any clue), and the pile hidden. What one
    /// player sees of the others' hands is the hidden cards as dealt.
    Team,
}

impl FromStr for View {
    type Err = AnalysisError;

    /// `open`, `cheat`, `seat=K` or `team`.
    fn from_str(text: &str) -> Result<View, AnalysisError> {
        match text {
            "open" => Ok(View::Open),
            "cheat" => Ok(View::Cheat),
            "team" => Ok(View::Team),
            v if v.starts_with("seat=") && v.len() > 5 => Ok(View::Seat(v[5..].to_string())),
            v => Err(AnalysisError::UnknownView(v.to_string())),
        }
    }
}

/// A position as a view sees it, with what it is called.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewedPosition {
    /// What the position is, for people: a position file's path, or a problem's label.
    pub label: String,
    pub position: Position,
}

impl ViewedPosition {
    /// The position `source` names, with the cards `view` does not see hidden. A position file
    /// is taken as written, its own hidden cards (`?`, `r?`, ...) hidden whatever the view (the
    /// team view adds nothing to it: the file says what each holder knows); any other source
    /// starts with every card known.
    pub fn new(source: &Source, view: &View) -> Result<ViewedPosition, AnalysisError> {
        let (label, mut position, game) = match source {
            Source::PositionFile(path) => (path.display().to_string(), read_position(path)?, None),
            _ => {
                let problem = Problem::new(source)?;
                let position = problem.position()?;
                (problem.label, position, problem.game)
            }
        };
        match view {
            View::Open => {}
            View::Cheat => position.hide_pile(),
            View::Seat(who) => {
                let (Source::Game { path, .. }, Some(game)) = (source, game) else {
                    return Err(AnalysisError::SeatNeedsGame);
                };
                let seat = seat_of(who, &position.names)?;
                let masks =
                    hanablive::clue_knowledge(&game.export, game.index, seat).map_err(|error| {
                        AnalysisError::File {
                            path: path.display().to_string(),
                            error,
                        }
                    })?;
                position.hide_pile();
                position.hide_hand(seat, &masks);
            }
            View::Team => match (source, &game) {
                (Source::PositionFile(_), _) => {}
                (Source::Game { path, .. }, Some(game)) => {
                    position.hide_pile();
                    for seat in 0..position.hands.len() {
                        let masks = hanablive::clue_knowledge(&game.export, game.index, seat)
                            .map_err(|error| AnalysisError::File {
                                path: path.display().to_string(),
                                error,
                            })?;
                        position.hide_hand(seat, &masks);
                    }
                }
                // A deal not yet played: nobody has been given a clue.
                _ => {
                    position.hide_pile();
                    for seat in 0..position.hands.len() {
                        position.hide_hand(seat, &[]);
                    }
                }
            },
        }
        Ok(ViewedPosition { label, position })
    }
}

/// The seat (from 0) that `who` names among `names`: a number counted from 1, or a name.
fn seat_of(who: &str, names: &[String]) -> Result<usize, AnalysisError> {
    match who.parse::<usize>() {
        Ok(k) if (1..=names.len()).contains(&k) => Ok(k - 1),
        Ok(number) => Err(AnalysisError::SeatNumber {
            number,
            seats: names.len(),
        }),
        Err(_) => names
            .iter()
            .position(|n| n == who)
            .ok_or_else(|| AnalysisError::SeatName {
                name: who.to_string(),
                players: names.to_vec(),
            }),
    }
}
