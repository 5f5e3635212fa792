//! The one place that knows the file formats, a file per format:
//!
//! - native RON (`.ron`, `native.rs`): a serialized [`Puzzle`];
//! - the community plain text (`.txt`, `text.rs`): optional `W H` line, then one
//!   `up right down left` piece per line, `#` comments; plytile adds optional
//!   `hint ROW COL PIECE ROT` lines (0-based row, column and piece) so that hints
//!   round-trip;
//! - the Eternity II hints file (`hints.rs`);
//! - boards (`boards.rs`): Brendan Owen's solution files, `W H`, then line i places
//!   piece i as `x y r` (x from the left, y from the **bottom**, r clockwise quarter
//!   turns); a plain solution list, one `piece rotation` pair per cell, row-major
//!   from the top-left (`-` for an empty cell); solve's JSON output (its first
//!   solution, or an array of `[piece, rotation]`);
//! - e2.bucas.name viewer links (`viewer.rs`).
//!
//! This file picks a puzzle file's format and reads input text; `tokens.rs` splits
//! the lines of the text formats.

mod boards;
mod hints;
mod native;
mod text;
mod tokens;
mod viewer;

pub use boards::{
    board_to_text, index_on_one_board, is_result_json, no_solution_at, parse_board, parse_boards,
    parse_result_board,
};
pub use hints::{check_hint_edges, parse_e2_hints, parse_e2_hints_located, HintLine};
pub use native::{check_ron_puzzle, from_ron, parse_ron, ron_lines, ron_reason, to_ron, RonLines};
pub use text::{parse_text, to_text, EdgeOrder};
pub use viewer::{
    is_viewer_link, parse_viewer_link, to_viewer_link, VIEWER_MAX_COLOUR, VIEWER_URL,
};

use crate::error::{InputError, Result};
use crate::puzzle::Puzzle;
use std::path::Path;

/// Reads a puzzle file, choosing the format by extension or content.
pub fn read_puzzle(path: &Path, order: EdgeOrder) -> Result<Puzzle> {
    parse_puzzle(&read_text(path)?, path, order)
}

/// Whether the puzzle file `path` holding `text` is read as RON: by its extension
/// (any case) or, whatever its name, by its opening `(`.
pub fn is_ron(text: &str, path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ron"))
        || text.trim_start().starts_with('(')
}

/// What to do with a viewer link where a puzzle file is wanted.
const LINK_ADVICE: &str = "a viewer link, not a puzzle file: `plytile convert LINK -o puzzle.txt` turns it into one (with its board in puzzle.solution.txt), and `plytile show LINK` draws it";

/// [`read_puzzle`] of the file's `text`, read already.
pub fn parse_puzzle(text: &str, path: &Path, order: EdgeOrder) -> Result<Puzzle> {
    let origin = path.display().to_string();
    let ron = is_ron(text, path);
    if !ron && is_viewer_link(text) {
        return Err(InputError::new(&origin, format!("holds {LINK_ADVICE}")));
    }
    let mut puzzle = if ron {
        parse_ron(text, &origin)?
    } else {
        parse_text(text, &origin, order)?
    };
    if puzzle.name.is_empty() {
        puzzle.name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    Ok(puzzle)
}

/// The text of an input file, without the byte-order mark some editors put first, its
/// lines ending in LF whatever they ended in.
pub fn read_text(path: &Path) -> Result<String> {
    let origin = path.display().to_string();
    let bytes = crate::files::read_input(path).map_err(|e| {
        let e = if origin.contains("://") && e.kind() == std::io::ErrorKind::NotFound {
            if is_viewer_link(&origin) {
                LINK_ADVICE.into()
            } else {
                "no such file, and plytile does not download: save it and give its path".into()
            }
        } else {
            e.to_string()
        };
        InputError::new(&origin, format!("cannot read: {e}"))
    })?;
    text_of(bytes, &origin)
}

/// The text of an input's `bytes` (see [`read_text`]), `origin` naming the input.
pub fn text_of(bytes: Vec<u8>, origin: &str) -> Result<String> {
    let text = String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..bad].iter().filter(|&&b| b == b'\n').count();
        InputError::at(origin, line, "not a text file (invalid UTF-8)")
    })?;
    // Lines may end in LF, CRLF or a lone CR (classic Mac), which `str::lines` would
    // not split on: a CR-only file would read as one line.
    let text = if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    };
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}
