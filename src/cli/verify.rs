//! `plytile verify`.

use super::{read_text, PuzzleArgs};
use crate::error::Result;
use crate::puzzle::{formats, verify};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Solution: solve's JSON, a `piece rotation` list, or a Brendan Owen solution file.
    pub solution: PathBuf,
}

pub fn run(a: VerifyArgs) -> Result<u8> {
    let p = a.input.load()?;
    let origin = a.solution.display().to_string();
    let board = formats::parse_board(&read_text(&a.solution)?, &origin, &p)?;
    match verify::check(&p, &board, true) {
        Ok(()) => {
            println!(
                "{origin}: a valid solution of {} ({} of {} inner joins matched)",
                p.name,
                verify::score(&p, &board),
                p.inner_joins()
            );
            Ok(0)
        }
        Err(v) => {
            println!("{origin}: not a solution: {v}");
            Ok(1)
        }
    }
}
