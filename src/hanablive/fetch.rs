//! Downloading a finished game from hanab.live: `{site}/export/{id}` answers the game's export
//! JSON, the format [`super::read`] reads. The site answers an unknown id with 404 and a line
//! of text, and a failure of its own with 500.
//!
//! Every way this can fail is one [`FetchError`] whose message is one line naming the address,
//! so that a command can print it as it is. The server is a parameter (`--site`), so that the
//! tests can serve games from a local server.

use std::time::Duration;

use thiserror::Error;

use crate::error::{escape_controls, Error};

use super::GameExport;

/// How long a download may take in all, connecting included.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The largest reply read: real exports are tens of KiB, so anything near this is not one,
/// and the cap keeps a wrong server from filling the memory.
pub const MAX_BYTES: u64 = 16 << 20;

/// What went wrong downloading a game.
#[derive(Debug, Error)]
pub enum FetchError {
    /// No answer at all: offline, refused, timed out, a name that does not resolve, TLS.
    #[error("cannot reach {url}: {why}")]
    Unreachable { url: String, why: String },
    /// The site does not know the id (404), or sent text or a web page instead of a game.
    #[error("{site} has no game {id} ({url} answered {answer})")]
    NoGame {
        site: String,
        id: u64,
        url: String,
        answer: String,
    },
    /// The server failed (5xx): the game may well exist.
    #[error("{url} answered {status}: the server failed, try again later")]
    Server { url: String, status: String },
    /// Any other refusal (4xx other than 404).
    #[error("{url} answered {status}")]
    Refused { url: String, status: String },
    #[error("{url} sent more than {} MiB, which is no game export", MAX_BYTES >> 20)]
    TooLarge { url: String },
    /// A reply that does not read as a game export.
    #[error("{url} did not send a game export: {error}")]
    NotAnExport { url: String, error: Error },
}

/// The address of the export of game `id` on `site` (`https://hanab.live`, no trailing `/`
/// needed).
pub fn export_url(site: &str, id: u64) -> String {
    format!("{}/export/{id}", site.trim_end_matches('/'))
}

/// Game `id`, downloaded from `site` and read as an export.
pub fn fetch_game(site: &str, id: u64) -> Result<GameExport, FetchError> {
    let url = export_url(site, id);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        // A 404 or 500 is an answer to read, not a failure to reach the server.
        .http_status_as_error(false)
        .user_agent(concat!("hanabi-solver/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut response = agent.get(&url).call().map_err(|e| no_answer(&url, e))?;
    let status = response.status();
    let body = response
        .body_mut()
        .with_config()
        .limit(MAX_BYTES)
        .read_to_vec();
    let body = match body {
        Ok(bytes) => bytes,
        Err(ureq::Error::BodyExceedsLimit(_)) => return Err(FetchError::TooLarge { url }),
        Err(e) => return Err(no_answer(&url, e)),
    };
    let reason = status.canonical_reason().unwrap_or_default();
    let reply = Reply {
        status: status.as_u16(),
        status_text: format!("{} {reason}", status.as_u16())
            .trim_end()
            .to_string(),
        body: &body,
    };
    read_reply(site, id, &url, &reply)
}

/// What a server answered.
struct Reply<'a> {
    status: u16,
    /// The status with its reason, `404 Not Found`.
    status_text: String,
    body: &'a [u8],
}

/// The game in `reply` to a request for game `id` at `url`, or what is wrong with it.
fn read_reply(site: &str, id: u64, url: &str, reply: &Reply) -> Result<GameExport, FetchError> {
    let text = String::from_utf8_lossy(reply.body);
    let no_game = |answer: String| FetchError::NoGame {
        site: site.trim_end_matches('/').to_string(),
        id,
        url: url.to_string(),
        answer,
    };
    match reply.status {
        200..=299 => {}
        404 => {
            let said = gist(&text).map(|s| format!(": {s}")).unwrap_or_default();
            return Err(no_game(format!("{}{said}", reply.status_text)));
        }
        500..=599 => {
            return Err(FetchError::Server {
                url: url.to_string(),
                status: reply.status_text.clone(),
            })
        }
        _ => {
            let said = gist(&text).map(|s| format!(": {s}")).unwrap_or_default();
            return Err(FetchError::Refused {
                url: url.to_string(),
                status: format!("{}{said}", reply.status_text),
            });
        }
    }
    let trimmed = text.trim_start();
    if trimmed.starts_with('<') {
        return Err(no_game("with a web page, not a game export".to_string()));
    }
    if !trimmed.starts_with(['{', '[']) {
        return Err(match gist(&text) {
            Some(said) => no_game(format!("{said:?}, not a game export")),
            None => FetchError::NotAnExport {
                url: url.to_string(),
                error: Error::Json("the reply is empty".into()),
            },
        });
    }
    super::read(&text).map_err(|error| FetchError::NotAnExport {
        url: url.to_string(),
        error,
    })
}

/// The first line of a text answer, shortened, for a message; `None` for an empty one or a
/// web page, whose first line says nothing.
fn gist(text: &str) -> Option<String> {
    const MOST: usize = 80;
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    if line.starts_with('<') {
        return None;
    }
    let mut short: String = line.chars().take(MOST).collect();
    if line.chars().count() > MOST {
        short.push_str("...");
    }
    Some(escape_controls(&short))
}

/// A failure to get an answer from `url`, in words.
fn no_answer(url: &str, error: ureq::Error) -> FetchError {
    let timeout = format!("no answer within {} s", TIMEOUT.as_secs());
    let why = match error {
        ureq::Error::BodyExceedsLimit(_) => {
            return FetchError::TooLarge {
                url: url.to_string(),
            }
        }
        ureq::Error::Io(e) => match e.kind() {
            std::io::ErrorKind::ConnectionRefused => "connection refused".to_string(),
            std::io::ErrorKind::TimedOut => timeout,
            _ => e.to_string(),
        },
        ureq::Error::Timeout(_) => timeout,
        ureq::Error::HostNotFound => "the host name does not resolve (offline?)".to_string(),
        e => e.to_string(),
    };
    FetchError::Unreachable {
        url: url.to_string(),
        why: escape_controls(&why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str = "https://hanab.live";
    const URL: &str = "https://hanab.live/export/7";

    fn reply(status: u16, status_text: &str, body: &str) -> Result<GameExport, FetchError> {
        let reply = Reply {
            status,
            status_text: status_text.to_string(),
            body: body.as_bytes(),
        };
        read_reply(SITE, 7, URL, &reply)
    }

    fn message(status: u16, status_text: &str, body: &str) -> String {
        let e = reply(status, status_text, body).expect_err("refused");
        e.to_string()
    }

    #[test]
    fn the_address_of_an_export() {
        assert_eq!(export_url("https://hanab.live/", 5), URL.replace('7', "5"));
        assert_eq!(
            export_url("http://127.0.0.1:80", 5),
            "http://127.0.0.1:80/export/5"
        );
    }

    #[test]
    fn every_bad_answer_is_one_line_that_says_what() {
        let m = message(
            404,
            "404 Not Found",
            "Error: That game does not exist in the database.\n",
        );
        assert_eq!(
            m,
            "https://hanab.live has no game 7 (https://hanab.live/export/7 answered 404 Not \
             Found: Error: That game does not exist in the database.)"
        );
        let m = message(404, "404 Not Found", "<!DOCTYPE html>\n<html>");
        assert_eq!(
            m,
            format!("https://hanab.live has no game 7 ({URL} answered 404 Not Found)")
        );
        let m = message(500, "500 Internal Server Error", "Internal Server Error\n");
        assert!(
            m.contains("500 Internal Server Error") && m.contains(URL),
            "{m}"
        );
        let m = message(200, "200 OK", "<!DOCTYPE html>\n<html>");
        assert!(m.contains("has no game 7") && m.contains("web page"), "{m}");
        let m = message(200, "200 OK", "Error: something\r\nelse");
        assert!(m.contains("has no game 7") && m.contains("\"Error: something\""));
        let m = message(200, "200 OK", "{\"players\": 3}");
        assert!(
            m.contains("did not send a game export: invalid game JSON"),
            "{m}"
        );
        let m = message(200, "200 OK", "");
        assert!(m.contains("the reply is empty"), "{m}");
        let m = message(403, "403 Forbidden", "");
        assert_eq!(m, format!("{URL} answered 403 Forbidden"));
        for m in [m, message(404, "404 Not Found", &"x\u{7}".repeat(100))] {
            assert_eq!(m.lines().count(), 1, "{m}");
        }
    }
}
