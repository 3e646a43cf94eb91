//! The `hanabi-solver` command: parses arguments, calls the library, prints the error on one line.

mod cli;

fn main() {
    if let Err(e) = cli::run() {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
