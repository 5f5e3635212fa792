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
    /// Solution: solve's JSON (every solution in it), a `piece rotation` list, or a
    /// Brendan Owen solution file.
    pub solution: PathBuf,
    /// Check only solution K (1-based) of solve's JSON.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub index: Option<u64>,
}

pub fn run(a: VerifyArgs) -> Result<u8> {
    let p = a.input.load()?;
    let origin = a.solution.display().to_string();
    let text = read_text(&a.solution)?;
    if a.index.is_some() && !formats::is_result_json(&text) {
        return Err(formats::index_on_one_board(&origin));
    }
    let mut boards = formats::parse_boards(&text, &origin, &p)?;
    let n = boards.len();
    let first = match a.index {
        Some(k) if k as usize > n => return Err(super::no_solution_at(&origin, k, n)),
        Some(k) => {
            boards = vec![boards.swap_remove(k as usize - 1)];
            k as usize
        }
        None => 1,
    };
    // The i-th board checked, as the messages name it.
    let name = |i: usize| match n {
        1 => origin.clone(),
        _ => format!("{origin}: solution {}", first + i),
    };
    for (i, b) in boards.iter().enumerate() {
        if let Err(v) = verify::check(&p, b, true) {
            outln!("{}: not a solution: {v}", name(i))?;
            return Ok(1);
        }
    }
    if let Some((i, j)) = verify::first_repeat(&boards) {
        outln!("{}: the same board as solution {}", name(j), first + i)?;
        return Ok(1);
    }
    let joins = p.inner_joins();
    match &boards[..] {
        [b] => outln!(
            "{}: a valid solution of {} ({} of {joins} inner joins matched)",
            name(0),
            p.name,
            verify::score(&p, b)
        )?,
        _ => outln!(
            "{origin}: {n} valid and distinct solutions of {} (each: {joins} of {joins} inner joins matched)",
            p.name
        )?,
    }
    Ok(0)
}
