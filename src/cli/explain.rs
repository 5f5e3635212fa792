//! `plytile explain`: every empty site's N-ply average local branching factor on the
//! current (or a given partial) board, and the site `ply:N` would choose.

use super::{catch_interrupts, read_text, PuzzleArgs, INTERRUPTED};
use crate::error::{InputError, Result};
use crate::puzzle::{formats, verify};
use crate::report::stop_text;
use crate::search::select::{Pick, Ply, Select, Unscored, MAX_PLY};
use crate::search::State;
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, Instant};

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
    /// Stop after SECS seconds (as Ctrl-C does): the sites scored by then are
    /// printed, the others with `-`, no site is chosen, and the exit code is 3.
    #[arg(long, value_name = "SECS", value_parser = super::parse_seconds)]
    pub timeout: Option<f64>,
    /// Most memory a site's recorded local tree may take, in MiB (fractions allowed).
    /// A site that needs more stops the scoring as --timeout does. An inner site of
    /// a 32x32 board at --ply 4 --adj needs gigabytes.
    #[arg(long, value_name = "MIB", default_value_t = 1024.0, value_parser = super::parse_mib)]
    pub max_memory: f64,
}

pub fn run(a: ExplainArgs) -> Result<u8> {
    // Ctrl-C and --timeout end the scoring; the sites scored by then are reported.
    catch_interrupts();
    let deadline = a
        .timeout
        .map(|t| Instant::now() + Duration::from_secs_f64(t));
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
    let mut scored = 0;
    let max_tree_bytes = (a.max_memory * (1u64 << 20) as f64) as usize;
    let stopped = sel.scores(
        &mut st,
        deadline,
        &INTERRUPTED,
        max_tree_bytes,
        |st, cell, score| {
            let (b, size) = match score {
                Some((b, size)) => {
                    scored += 1;
                    (format!("{b:.9}"), size.to_string())
                }
                None => ("-".into(), "-".into()),
            };
            outln!(
                "{cell:>5} {:>4} {:>4} {:>11} {b:>12} {size:>10}",
                cell / w,
                cell % w,
                st.count(cell)
            )
        },
    )?;
    if let Some(why) = stopped {
        let left = st.open_cells().len() - scored;
        let why = match why {
            Unscored::Stopped(s) => stop_text(s).to_string(),
            Unscored::TooBig { cell } => format!(
                "the local tree of cell {cell} (row {}, column {}) takes more than --max-memory {} MiB; give a larger --max-memory or a lower --ply",
                cell / w,
                cell % w,
                a.max_memory
            ),
        };
        let sites = if scored == 1 { "site" } else { "sites" };
        outln!(
            "stopped ({why}): {scored} {sites} scored, the {left} marked - not, so no site is chosen"
        )?;
        // As solve: 3 for a run that a limit or Ctrl-C cut short.
        return Ok(3);
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
