//! `plytile explain`: every empty site's N-ply average local branching factor on the
//! current (or a given partial) board, and the site `ply:N` would choose.

use super::{read_text, PuzzleArgs};
use crate::error::{InputError, Result};
use crate::puzzle::{formats, verify};
use crate::search::select::{Pick, Ply, Select, MAX_PLY};
use crate::search::State;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Ply N (1..=4).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=MAX_PLY as i64))]
    pub ply: u8,
    /// Follow-ups at every adjacent empty cell (the `ply:N:adj` rule).
    #[arg(long)]
    pub adj: bool,
    /// A partial board to start from: `piece rotation` per cell (`-` for empty), or
    /// solve's JSON.
    #[arg(long, value_name = "FILE")]
    pub moves: Option<PathBuf>,
}

pub fn run(a: ExplainArgs) -> Result<u8> {
    let puzzle = a.input.load()?;
    let mut st = State::new(&puzzle);
    if let Some(path) = &a.moves {
        let origin = path.display().to_string();
        let board = formats::parse_board(&read_text(path)?, &origin, &puzzle)?;
        verify::check(&puzzle, &board, false).map_err(|v| {
            InputError::new(&origin, format!("not a consistent partial board: {v}"))
        })?;
        for (cell, c) in board.iter().enumerate() {
            if let Some((p, r)) = *c {
                if st.is_empty(cell) {
                    st.place(cell, 4 * p as u32 + r as u32);
                }
            }
        }
    }
    let mut sel = Ply::new(&st, a.ply as usize, a.adj);
    let w = puzzle.width;
    outln!(
        "ply {}{}, {} empty sites",
        a.ply,
        if a.adj { ":adj" } else { "" },
        st.open_cells().len()
    )?;
    outln!(
        "{:>5} {:>4} {:>4} {:>11} {:>12} {:>10}",
        "cell",
        "row",
        "col",
        "placements",
        "b",
        "tree nodes"
    )?;
    for (cell, b, size) in sel.scores(&mut st) {
        outln!(
            "{cell:>5} {:>4} {:>4} {:>11} {b:>12.9} {size:>10}",
            cell / w,
            cell % w,
            st.count(cell)
        )?;
    }
    if st.open_cells().is_empty() {
        outln!("the board is full: a solution, no site to choose")?;
        return Ok(0);
    }
    match sel.pick(&mut st) {
        Pick::Site(c) => outln!("chosen site: cell {c} (row {}, column {})", c / w, c % w)?,
        Pick::Dead => outln!("the node is dead: some site has b = 0")?,
    }
    Ok(0)
}
