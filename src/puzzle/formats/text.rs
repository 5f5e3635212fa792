//! The community plain text format (`.txt`): optional `W H` line, then one
//! `up right down left` piece per line, `#` comments, and plytile's `hint` lines.

use super::native::check_one_line;
use super::tokens::{is_number, number, tokens};
use crate::error::{InputError, Result};
use crate::puzzle::{piece_text, Hint, Item, Piece, Puzzle, MAX_SIDE};

/// Edge order of a text file's piece lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeOrder {
    /// up right down left (clockwise from the top): the community convention.
    #[default]
    Urdl,
    /// bottom left top right: Wortmann's files.
    Blrt,
}

impl std::str::FromStr for EdgeOrder {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "urdl" => Ok(EdgeOrder::Urdl),
            "blrt" => Ok(EdgeOrder::Blrt),
            _ => Err(format!("unknown edge order '{s}'; expected urdl or blrt")),
        }
    }
}

/// Parses the community plain text format.
pub fn parse_text(text: &str, origin: &str, order: EdgeOrder) -> Result<Puzzle> {
    let [name, source] = header_comments(text);
    let line_of = |what| match what {
        "name" => name.as_ref().map(|n| n.0),
        _ => source.as_ref().map(|s| s.0),
    };
    let mut size: Option<(usize, usize)> = None;
    let mut pieces: Vec<Piece> = Vec::new();
    let mut hints = Vec::new();
    // File lines of each piece and hint, for validation messages.
    let mut piece_lines = Vec::new();
    let mut hint_lines = Vec::new();
    let mut last_line = 0;
    for (i, line) in text.lines().enumerate() {
        let ln = i + 1;
        let t = tokens(line);
        if t.is_empty() {
            continue;
        }
        last_line = ln;
        if t[0] == "hint" {
            if t.len() != 5 {
                return Err(InputError::at(
                    origin,
                    ln,
                    "a hint line is `hint ROW COL PIECE ROT` (0-based)",
                ));
            }
            hint_lines.push(ln);
            hints.push(Hint {
                row: number(t[1], "row", origin, ln)?,
                col: number(t[2], "column", origin, ln)?,
                piece: number(t[3], "piece index", origin, ln)?,
                rotation: number(t[4], "rotation (0..=3)", origin, ln)?,
            });
            continue;
        }
        match t.len() {
            2 if size.is_none() && pieces.is_empty() => {
                let w: usize = number(t[0], "board width", origin, ln)?;
                let h: usize = number(t[1], "board height", origin, ln)?;
                if !(2..=MAX_SIDE).contains(&w) || !(2..=MAX_SIDE).contains(&h) {
                    return Err(InputError::at(
                        origin,
                        ln,
                        format!("board is {w}x{h}; each side must be 2..={}", MAX_SIDE),
                    ));
                }
                size = Some((w, h));
            }
            4 => {
                let mut e = [0u8; 4];
                for (k, tok) in t.iter().enumerate() {
                    e[k] = number::<u8>(tok, "colour (0..=255)", origin, ln)?;
                }
                let piece = match order {
                    EdgeOrder::Urdl => e,
                    EdgeOrder::Blrt => [e[2], e[3], e[0], e[1]],
                };
                pieces.push(piece);
                piece_lines.push(ln);
            }
            // The first line may be the size (`W H`) or a piece: name both.
            n if size.is_none() && pieces.is_empty() => {
                let sized = t[0].split_once(['x', 'X']);
                let m = match sized.filter(|(w, h)| is_number(w) && is_number(h)) {
                    Some((w, h)) if n == 1 => format!(
                        "a board size line is `W H`, found `{}`; write `{w} {h}`",
                        t[0]
                    ),
                    _ => format!(
                        "expected the board size `W H` (or a piece line of 4 colours `up right down left`), found {n} field{}",
                        if n == 1 { "" } else { "s" }
                    ),
                };
                return Err(InputError::at(origin, ln, m));
            }
            n => {
                return Err(InputError::at(
                    origin,
                    ln,
                    format!(
                    "expected a piece line of 4 colours `up right down left`, found {n} field{}",
                    if n == 1 { "" } else { "s" }),
                ));
            }
        }
    }
    if pieces.is_empty() {
        return Err(InputError::new(origin, "no pieces found (empty file?)"));
    }
    let (w, h) = match size {
        Some(s) => s,
        None => {
            let n = pieces.len();
            let side = (n as f64).sqrt().round() as usize;
            if side * side != n {
                return Err(InputError::at(origin, last_line, format!(
                    "no `W H` line, and {n} pieces do not make a square board; add a `W H` first line")));
            }
            (side, side)
        }
    };
    if pieces.len() != w * h {
        return Err(InputError::at(
            origin,
            last_line,
            format!(
                "{} pieces for a {w}x{h} board, which needs {}",
                pieces.len(),
                w * h
            ),
        ));
    }
    let p = Puzzle {
        name: name.clone().map(|n| n.1).unwrap_or_default(),
        width: w,
        height: h,
        pieces,
        hints,
        source: source.clone().map(|s| s.1),
        notes: None,
    };
    check_one_line(&p, origin, line_of)?;
    p.validate_located(
        origin,
        &|item| match item {
            Item::Piece(i) => piece_lines.get(i).copied(),
            Item::Hint(k) => hint_lines.get(k).copied(),
            // The size and the piece count were checked above, with their lines.
            Item::Field(_) => None,
        },
        0,
    )?;
    Ok(p)
}

/// The comment line of the text format that holds the puzzle's name ([`to_text`]
/// writes it, [`parse_text`] reads it back); a file without one is named after itself.
const NAME_COMMENT: &str = "# name: ";
/// The comment line that holds the puzzle's source.
const SOURCE_COMMENT: &str = "# source: ";

/// The name and source of a text puzzle: the first [`NAME_COMMENT`] and
/// [`SOURCE_COMMENT`] lines among the comments that open the file, where
/// [`to_text`] puts them. Other comments, and these past the first line of data,
/// are only comments.
/// Each with its line (1-based).
fn header_comments(text: &str) -> [Option<(usize, String)>; 2] {
    let (mut name, mut source) = (None, None);
    for (i, line) in text.lines().map(str::trim_start).enumerate() {
        if !line.is_empty() && !line.starts_with('#') {
            break;
        }
        if let Some(n) = line.strip_prefix(NAME_COMMENT) {
            name.get_or_insert_with(|| (i + 1, n.to_string()));
        } else if let Some(s) = line.strip_prefix(SOURCE_COMMENT) {
            source.get_or_insert_with(|| (i + 1, s.to_string()));
        }
    }
    [name, source]
}

/// Writes the community plain text format (with plytile's hint lines).
pub fn to_text(p: &Puzzle) -> String {
    let mut s = String::new();
    if !p.name.is_empty() {
        s += &format!("{NAME_COMMENT}{}\n", p.name);
    }
    if let Some(src) = &p.source {
        s += &format!("{SOURCE_COMMENT}{src}\n");
    }
    s += &format!("{} {}\n", p.width, p.height);
    for piece in &p.pieces {
        s += &piece_text(*piece);
        s.push('\n');
    }
    for h in &p.hints {
        s += &format!("hint {} {} {} {}\n", h.row, h.col, h.piece, h.rotation);
    }
    s
}
