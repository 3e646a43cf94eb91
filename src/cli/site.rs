//! `--site`: the hanab.live server of the commands that read games or print links.

use clap::Args;
use hanabi_solver::hanablive::link;

/// The server a game given by id or address is downloaded from, and that printed links open
/// on. Another server (a copy of the site, or a local one in the tests) takes the same paths.
#[derive(Args, Debug, Clone)]
pub struct SiteArg {
    /// The hanab.live server: a game given by id or address (194321,
    /// https://hanab.live/replay/194321) is downloaded from it as URL/export/ID, and the links
    /// printed open on it.
    #[arg(long, value_name = "URL", default_value = link::SITE, value_parser = server)]
    pub site: String,
}

/// A server address as links and downloads need it: a scheme and a host, no trailing `/`.
fn server(text: &str) -> Result<String, String> {
    let host = ["https://", "http://"]
        .iter()
        .find_map(|scheme| text.strip_prefix(scheme))
        .unwrap_or_default();
    if host.trim_end_matches('/').is_empty() {
        return Err(format!(
            "{text:?} is not a server address: give it as https://HOST or http://HOST[:PORT]"
        ));
    }
    Ok(text.trim_end_matches('/').to_string())
}
