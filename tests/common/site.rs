//! A stand-in for hanab.live in the tests that download games: an HTTP server on 127.0.0.1
//! that answers fixed paths with fixed replies, so that `--site` can point at it and no test
//! needs the network.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;

/// What the server answers for one path.
#[derive(Clone)]
pub struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn new(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            body: body.into(),
        }
    }
}

/// A server answering `routes` (path, reply) and 404 for any other path, on a port of its own,
/// in a thread that lives as long as the test program.
pub struct TestSite {
    /// `http://127.0.0.1:PORT`, what `--site` takes.
    pub url: String,
}

impl TestSite {
    pub fn start(routes: Vec<(&str, Reply)>) -> TestSite {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let routes: Vec<(String, Reply)> = routes
            .into_iter()
            .map(|(path, reply)| (path.to_string(), reply))
            .collect();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                // A client that goes away early (a reply too large for it) is no failure.
                let _ = answer(stream, &routes);
            }
        });
        TestSite { url }
    }
}

/// Reads one request from `stream` and writes the reply for its path.
fn answer(stream: TcpStream, routes: &[(String, Reply)]) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // The headers, up to the blank line; a GET has no body.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let path = request_line.split(' ').nth(1).unwrap_or_default();
    let not_found = Reply::new(404, "Error: That game does not exist in the database.\n");
    let reply = routes
        .iter()
        .find(|(p, _)| p == path)
        .map_or(&not_found, |(_, r)| r);
    let reason = match reply.status {
        200 => "OK",
        404 => "Not Found",
        500 => "Internal Server Error",
        _ => "Other",
    };
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 {} {reason}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        reply.status,
        reply.body.len()
    )?;
    stream.write_all(&reply.body)?;
    stream.flush()
}

/// The address of a port that nothing listens on: one the system just handed out and took back.
pub fn closed_port_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    url
}

/// `command` with its downloads sent straight to the server: a proxy named in the environment
/// (`HTTP_PROXY` and the like, which the program honours) cannot reach the test's 127.0.0.1.
pub fn direct(command: &mut Command) -> &mut Command {
    command.env("NO_PROXY", "*").env("no_proxy", "*")
}
