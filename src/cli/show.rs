//! `plytile show`: a board as an SVG picture (`-o FILE.svg`), an e2.bucas.name viewer
//! link (`--link`), or a text board (ANSI colours in a terminal, plain otherwise).

use super::convert::link_input;
use super::{check_outputs, read_text, write_output, PuzzleArgs};
use crate::error::{InputError, Result};
use crate::puzzle::{formats, verify, Board, Puzzle};
use crate::report::{board, svg};
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The puzzle file (or a viewer link, which brings its own board).
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Board to show: a `piece rotation` list, a Brendan Owen solution file, or
    /// solve's JSON. Without one (and without --json) the board holds the hints only.
    #[arg(conflicts_with = "json")]
    pub solution: Option<PathBuf>,
    /// Read solve's JSON output: its first solution, or `deepest.board` when it found
    /// none.
    #[arg(long, value_name = "RESULT")]
    pub json: Option<PathBuf>,
    /// Show the K-th solution (1-based) of solve's JSON (given with --json or as
    /// SOLUTION).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub index: Option<u64>,
    /// Write the board as SVG to FILE (`-` for stdout, not with --link).
    #[arg(short, long, value_name = "FILE.svg")]
    pub output: Option<PathBuf>,
    /// Print each edge's colour number in the picture.
    #[arg(long)]
    pub numbers: bool,
    /// Print the board as an e2.bucas.name viewer link.
    #[arg(long)]
    pub link: bool,
}

pub fn run(a: ShowArgs) -> Result<u8> {
    if a.index.is_some() && a.json.is_none() && a.solution.is_none() {
        return Err(InputError::new(
            "--index",
            "picks a solution of solve's JSON; give it with --json RESULT",
        ));
    }
    let (p, link_board) = match link_input(&a.input)? {
        Some((p, b)) => (p, Some(b)),
        None => (a.input.load()?, None),
    };
    let index = a.index.map(|k| k as usize);
    let mut board = if let Some(path) = &a.solution {
        let origin = path.display().to_string();
        let text = read_text(path)?;
        // As verify reads it: solve's JSON as SOLUTION takes --index too.
        match (formats::is_result_json(&text), index) {
            (true, _) => formats::parse_result_board(&text, &origin, &p, index)?,
            (false, None) => formats::parse_board(&text, &origin, &p)?,
            (false, Some(_)) => return Err(formats::index_on_one_board(&origin)),
        }
    } else if let Some(path) = &a.json {
        json_board(&p, path, index)?
    } else {
        link_board.unwrap_or_else(|| vec![None; p.cells()])
    };
    add_hints(&p, &mut board);
    let mut inputs = a.input.inputs();
    inputs.extend(a.solution.as_deref().into_iter().chain(a.json.as_deref()));
    check_outputs(&Vec::from_iter(a.output.as_deref()), &inputs)?;
    if let Some(out) = &a.output {
        super::check_svg_name("-o", out)?;
    }
    super::one_on_stdout(&[
        ("-o -", super::is_stdout(a.output.as_deref())),
        ("--link", a.link),
    ])?;
    if a.link {
        let link = formats::to_viewer_link(&p, &board).map_err(|m| InputError::new("--link", m))?;
        // The link carries the pieces as the cells show them, so it holds the whole
        // puzzle only when each piece is on the board once.
        let filled = board.iter().flatten().count();
        let why = if filled < board.len() {
            Some(format!(
                "the board has {filled} of {} cells filled, and the link holds only the placed pieces",
                board.len()
            ))
        } else {
            verify::repeated_pieces(&board)
                .first()
                .map(|p| format!("the board places piece {p} more than once, and so does the link"))
        };
        if let Some(why) = why {
            eprintln!(
                "plytile: note: {why}: the viewer shows it, but show and convert cannot read the puzzle back from it"
            );
        }
        outln!("{link}")?;
    }
    if let Some(out) = &a.output {
        let opts = svg::SvgOptions { numbers: a.numbers };
        write_output(out, &svg::board_svg(&p, &board, opts))?;
        if !a.link && out.as_os_str() != "-" {
            outln!("{}: {}", out.display(), svg::caption(&p, &board))?;
        }
    } else if !a.link {
        let (text, legend) = if std::io::stdout().is_terminal() {
            (board::render_ansi(&p, &board), board::ANSI_LEGEND)
        } else {
            (board::render(&p, &board), board::LEGEND)
        };
        outln!("{text}{legend}\n{}", svg::caption(&p, &board))?;
    }
    Ok(0)
}

/// The board of solve's JSON: solution `index` (1-based) when given, else the first
/// solution, else the deepest partial board.
fn json_board(p: &Puzzle, path: &Path, index: Option<usize>) -> Result<Board> {
    let origin = path.display().to_string();
    formats::parse_result_board(&read_text(path)?, &origin, p, index)
}

/// Puts each hint on its cell when the board leaves the cell empty and the piece
/// unused, so that a board without hints (or no board) still shows them.
fn add_hints(p: &Puzzle, board: &mut Board) {
    for h in &p.hints {
        let cell = h.row * p.width + h.col;
        let used = board
            .iter()
            .any(|c| matches!(c, Some((q, _)) if *q == h.piece));
        if board[cell].is_none() && !used {
            board[cell] = Some((h.piece, h.rotation));
        }
    }
}
