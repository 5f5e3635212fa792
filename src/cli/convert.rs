//! `plytile convert`. The input is a puzzle file or an e2.bucas.name viewer link
//! (the link itself, or a file holding it): a link becomes a puzzle plus its board,
//! written next to the output as `OUT.solution.txt` (`piece rotation` lines).

use super::{check_outputs, puzzle_text, read_text, write_output, PuzzleArgs};
use crate::error::{InputError, Result};
use crate::puzzle::formats;
use crate::puzzle::{Board, Puzzle};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The puzzle file, or an e2.bucas.name viewer link (quoted) or a file holding one.
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Output file; its extension chooses the format (.ron or .txt); `-` for stdout.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Output format when writing to stdout or a name without an extension: ron
    /// (default) or txt.
    #[arg(long, value_parser = ["ron", "txt"])]
    pub to: Option<String>,
}

pub fn run(a: ConvertArgs) -> Result<u8> {
    let (p, board) = match link_input(&a.input)? {
        Some((p, b)) => (p, Some(b)),
        None => (a.input.load()?, None),
    };
    let text = puzzle_text(&p, &a.output, a.to.as_deref(), "ron")?;
    let board_path = board
        .as_ref()
        .filter(|_| a.output != Path::new("-"))
        .map(|_| solution_path(&a.output));
    let outputs: Vec<&Path> = std::iter::once(a.output.as_path())
        .chain(board_path.as_deref())
        .collect();
    check_outputs(&outputs, &a.input.inputs())?;
    write_output(&a.output, &text)?;
    if let Some(board) = board {
        match &board_path {
            Some(path) => write_output(path, &formats::board_to_text(&board))?,
            None => {
                eprintln!("plytile: the link's board is not written (the puzzle went to stdout)")
            }
        }
    }
    Ok(0)
}

/// Where convert writes a link's board: `OUT.solution.txt` for `OUT.ron`/`OUT.txt`.
pub fn solution_path(output: &Path) -> PathBuf {
    output.with_extension("solution.txt")
}

/// The puzzle and board of a viewer link, when the PUZZLE argument is one (the
/// link itself, or a `.url` file or any file holding one); None for a puzzle file.
pub(super) fn link_input(input: &PuzzleArgs) -> Result<Option<(Puzzle, Board)>> {
    let arg = input.puzzle.to_string_lossy();
    let (text, origin, name) = if formats::is_viewer_link(&arg) {
        (
            arg.to_string(),
            "viewer link".to_string(),
            "viewer-link".to_string(),
        )
    } else {
        let path = &input.puzzle;
        let is_url = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("url"));
        if !is_url
            && path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("ron"))
        {
            return Ok(None);
        }
        let text = match read_text(path) {
            Ok(t) if is_url || formats::is_viewer_link(&t) => t,
            Err(e) if is_url => return Err(e),
            // Not a link: the puzzle reader reads (and reports on) it again.
            _ => return Ok(None),
        };
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        (text, path.display().to_string(), name)
    };
    if input.hints.is_some() {
        return Err(InputError::new(
            "--hints",
            "not used with a viewer link (its board fixes every cell)",
        ));
    }
    let (mut p, board) = formats::parse_viewer_link(&text, &origin)?;
    p.name = name;
    Ok(Some((p, board)))
}
