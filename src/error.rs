//! The library's one error type: each variant names what was wrong and, where it helps, how to
//! fix it, so the command line can print it on one line.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    #[error("unknown variant {0}; give a hanab.live variant name or id (`hanabi-solver variants WORDS` finds them) or a short name: {aliases}", aliases = crate::game::variant::alias_names())]
    UnknownVariant(String),
    #[error("invalid option: {0}")]
    Option(String),
    #[error("invalid card {0:?}: write a suit ({1}) then a rank, like r1")]
    Card(String, String),
    #[error("invalid deck: {0}")]
    Deck(String),
    #[error("invalid seed {0:?}: {1}")]
    Seed(String, String),
    #[error("invalid game JSON: {0}")]
    Json(String),
    /// `index` counts actions from 0; the message numbers turns as hanab.live's replays do
    /// (the action at index `i` is taken at turn `i + 1`).
    #[error("turn {}: illegal action: {reason}", .index + 1)]
    Illegal { index: usize, reason: String },
    #[error("line {line}: {message}")]
    Position { line: usize, message: String },
}

/// Whether `c` would break a one-line message: a control character (a tab included), or a line
/// or paragraph separator.
pub fn breaks_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `text` with control characters, line and paragraph separators and byte order marks written
/// as escapes (`\r`, `\u{b}`, `\u{feff}`), so that an error message quoting user input stays
/// on one line and shows what is there. Tabs are left alone.
pub fn escape_controls(text: &str) -> String {
    let hidden = |c: char| (breaks_line(c) && c != '\t') || c == '\u{feff}';
    if !text.contains(hidden) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if hidden(c) {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
