//! Writes the variant table (`data/variants.tsv`) from hanab.live's data files.
//!
//! ```text
//! cargo run --example gen_variants -- ../shared/data/hanablive-variants > data/variants.tsv
//! ```
//!
//! The folder must hold the site's `variants.json`, `suits.json` and `colors.json` (from
//! github.com/Hanabi-Live/hanabi-live, `packages/data/src/json/`). The table keeps only the
//! facts the rules need, so the GPL-3.0 files themselves stay out of this repository.

use std::path::Path;
use std::process::ExitCode;

use hanabi_solver::game::catalogue::Catalogue;

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: gen_variants <folder with variants.json, suits.json, colors.json>");
        return ExitCode::FAILURE;
    };
    match table(Path::new(&dir)) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The table for the files in `dir`.
fn table(dir: &Path) -> Result<String, String> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let (variants, suits, colors) = (
        read("variants.json")?,
        read("suits.json")?,
        read("colors.json")?,
    );
    let catalogue =
        Catalogue::from_json(&variants, &suits, Some(&colors)).map_err(|e| e.to_string())?;
    Ok(catalogue.to_table())
}
