//! Where a hanab.live game is, as a person gives it on the command line: a file, a replay link,
//! or a finished game on the site by id or by the address of its replay. One function
//! ([`GameAddress::classify`]) tells them apart, so that every command that reads a game takes
//! the same things.

use std::path::{Path, PathBuf};

use super::link;

/// What a game argument names, before anything is read or downloaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameAddress {
    /// A file holding a game export. An existing file is always read as one, whatever its
    /// name looks like, so that no file is ever mistaken for an address.
    File(PathBuf),
    /// A replay link (`.../replay-json/DATA` or `.../shared-replay-json/DATA`), which holds the
    /// game itself.
    ReplayLink(String),
    /// A finished game on the site: a bare id (`194321`), or the site's replay, shared replay
    /// or export address of it (`https://hanab.live/replay/194321`, `#N` and a trailing `/`
    /// allowed). The id is what counts: it is downloaded from the server the command is
    /// given, whatever host the address names.
    GameId(u64),
    /// A seed link (`https://hanab.live/seed/p2v0s1`), which names a deal, not a game played.
    SeedLink(String),
    /// A web address of none of these shapes.
    OtherUrl(String),
}

impl GameAddress {
    /// What `text` names. A file that exists comes first; then a replay link, a game id or a
    /// site address; anything else is taken as a file name (which reading then reports
    /// missing).
    pub fn classify(text: &str) -> GameAddress {
        GameAddress::classify_as(text, Path::new(text).is_file())
    }

    /// [`GameAddress::classify`], told whether `text` is an existing file.
    fn classify_as(text: &str, is_file: bool) -> GameAddress {
        if is_file {
            return GameAddress::File(PathBuf::from(text));
        }
        if link::is_replay_link(text) {
            return GameAddress::ReplayLink(text.to_string());
        }
        if let Some(id) = game_id(text) {
            return GameAddress::GameId(id);
        }
        let Some(path) = url_path(text) else {
            return GameAddress::File(PathBuf::from(text));
        };
        // The path without its `#turn` or query, and without trailing slashes.
        let path = path.split(['#', '?']).next().unwrap_or_default();
        let path = path.trim_end_matches('/');
        match path.split_once('/') {
            Some(("replay" | "shared-replay" | "export", id)) => match game_id(id) {
                Some(id) => GameAddress::GameId(id),
                None => GameAddress::OtherUrl(text.to_string()),
            },
            Some(("seed", name)) if !name.is_empty() && !name.contains('/') => {
                GameAddress::SeedLink(name.to_string())
            }
            _ => GameAddress::OtherUrl(text.to_string()),
        }
    }
}

/// The id of a game written as a number (`194321`); ids are positive.
fn game_id(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&id| id > 0)
}

/// The path of a web address (`https://HOST/PATH` or `http://HOST/PATH`, any host), or of
/// `hanab.live/PATH` written without a scheme, without its leading `/`. `None` for text that
/// is not such an address.
fn url_path(text: &str) -> Option<&str> {
    let scheme = ["https://", "http://"]
        .iter()
        .find_map(|scheme| text.strip_prefix(scheme));
    match scheme {
        Some(rest) => Some(rest.split_once('/').map_or("", |(_, path)| path)),
        None => {
            let rest = text.strip_prefix("www.").unwrap_or(text);
            rest.strip_prefix("hanab.live/")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::GameAddress::{self, *};

    fn classify(text: &str) -> GameAddress {
        GameAddress::classify_as(text, false)
    }

    #[test]
    fn game_ids_and_site_addresses() {
        for text in [
            "194321",
            "https://hanab.live/replay/194321",
            "https://hanab.live/replay/194321/",
            "https://hanab.live/replay/194321#40",
            "https://hanab.live/shared-replay/194321",
            "https://hanab.live/export/194321",
            "http://www.hanab.live/export/194321/",
            "hanab.live/replay/194321",
            "https://hanab.live/replay/194321?x=1",
            // Another server's address: the id is what counts.
            "http://127.0.0.1:8080/replay/194321",
        ] {
            assert_eq!(classify(text), GameId(194321), "{text}");
        }
    }

    #[test]
    fn links_seeds_files_and_other_addresses() {
        let link = "https://hanab.live/replay-json/215ab,03,0#2";
        assert_eq!(classify(link), ReplayLink(link.to_string()));
        let shared = "https://hanab.live/shared-replay-json/215ab,03,0";
        assert_eq!(classify(shared), ReplayLink(shared.to_string()));
        assert_eq!(
            classify("https://hanab.live/seed/p2v0s1/"),
            SeedLink("p2v0s1".into())
        );
        for file in ["game.json", "games/194321.json", "0", "-5", "12a", ""] {
            assert_eq!(classify(file), File(file.into()), "{file:?}");
        }
        for other in [
            "https://hanab.live/",
            "https://hanab.live",
            "https://hanab.live/replay/",
            "https://hanab.live/replay/abc",
            "https://hanab.live/replay/0",
            "https://hanab.live/replay/1/2",
            "https://hanab.live/history/alice",
            "https://hanab.live/replay/99999999999999999999999",
        ] {
            assert_eq!(classify(other), OtherUrl(other.into()), "{other}");
        }
    }

    /// An existing file is read as a file, even one named like an id or an address.
    #[test]
    fn an_existing_file_wins() {
        for text in ["194321", "https://hanab.live/replay/5"] {
            assert_eq!(GameAddress::classify_as(text, true), File(text.into()));
        }
    }
}
