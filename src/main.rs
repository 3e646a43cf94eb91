//! The `hanabi-solver` command: parses arguments, calls the library, prints the error on one line.

mod cli;

fn main() {
    if let Err(e) = cli::run() {
        if cli::is_broken_pipe(&e) {
            return;
        }
        eprintln!(
            "error: {}",
            hanabi_solver::error::escape_controls(&format!("{e:#}"))
        );
        std::process::exit(1);
    }
}
