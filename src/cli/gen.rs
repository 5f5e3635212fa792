//! `plytile gen`.

use super::{puzzle_text, write_output};
use crate::error::Result;
use crate::puzzle::{formats, generate};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct GenArgs {
    /// Board width (columns), 2..=32.
    #[arg(long)]
    pub width: usize,
    /// Board height (rows), 2..=32.
    #[arg(long)]
    pub height: usize,
    /// Colours for joins between two rim cells (default: Brendan Owen's count for the size).
    #[arg(long)]
    pub rim_colours: Option<usize>,
    /// Colours for all other inner joins (default: Brendan Owen's count for the size).
    #[arg(long)]
    pub inner_colours: Option<usize>,
    /// Random seed: the same seed gives the same file on every platform.
    #[arg(long)]
    pub seed: u64,
    /// Output file (.ron or .txt by extension; default: text on stdout).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(a: GenArgs) -> Result<u8> {
    let (rim, inner) = generate::default_colours(a.width, a.height);
    let p = generate::generate(
        a.width,
        a.height,
        a.rim_colours.unwrap_or(rim),
        a.inner_colours.unwrap_or(inner),
        a.seed,
    )?;
    match a.output {
        Some(path) => write_output(&path, &puzzle_text(&p, &path, None, "txt")?)?,
        None => out!("{}", formats::to_text(&p))?,
    }
    Ok(0)
}
