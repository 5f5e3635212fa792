//! The one place that knows the file formats.
//!
//! - native RON (`.ron`): a serialized [`Puzzle`];
//! - the community plain text (`.txt`): optional `W H` line, then one
//!   `up right down left` piece per line, `#` comments; plytile adds optional
//!   `hint ROW COL PIECE ROT` lines (0-based row, column and piece) so that hints
//!   round-trip;
//! - Brendan Owen's solution files: `W H`, then line i places piece i as `x y r`
//!   (x from the left, y from the **bottom**, r clockwise quarter turns);
//! - a plain solution list: one `piece rotation` pair per cell, row-major from the
//!   top-left (`-` for an empty cell);
//! - solve's JSON output (its first solution, or an array of `[piece, rotation]`).

use super::{piece_text, Board, Hint, Item, Piece, Placement, Puzzle};
use crate::error::{InputError, Result};
use std::path::Path;

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

/// Parses the native RON format.
pub fn parse_ron(text: &str, origin: &str) -> Result<Puzzle> {
    let p: Puzzle = from_ron(text, origin, "not a valid puzzle RON file")?;
    check_ron_puzzle(&p, text, origin, &[])?;
    Ok(p)
}

/// Validates `p`, parsed from the RON `text` where it is the struct at the field path
/// `at` (empty: the top-level struct), so that a problem with one piece or hint names
/// the line its entry starts on.
pub fn check_ron_puzzle(p: &Puzzle, text: &str, origin: &str, at: &[&str]) -> Result<()> {
    // Looked up only for a message: each look walks the whole text (a job file's
    // puzzle comes after its prefixes, megabytes of them).
    let lines = |field: &str| ron_lines(text, &[at, &[field]].concat());
    check_one_line(p, origin, |what| lines(what).key)?;
    p.validate_located(
        origin,
        &|item| match item {
            Item::Piece(k) => lines("pieces").entries.get(k).copied(),
            Item::Hint(k) => lines("hints").entries.get(k).copied(),
            Item::Field(f) => lines(f).key,
        },
        0,
    )
}

/// Refuses a puzzle whose name or source holds a control character, `line_of` giving
/// the line of the field (`name` or `source`). Both end up on `#` lines of the text
/// format (`convert`) and in one-line reports, where a line break would start a line
/// of another meaning; every reader applies this, so what `convert` writes reads back.
fn check_one_line(
    p: &Puzzle,
    origin: &str,
    line_of: impl Fn(&'static str) -> Option<usize>,
) -> Result<()> {
    for (what, t) in [("name", Some(&p.name)), ("source", p.source.as_ref())] {
        if t.is_some_and(|t| t.chars().any(char::is_control)) {
            return Err(InputError::located(
                origin,
                line_of(what),
                format!("the puzzle's {what} holds a control character (a tab or a line break?); write it on one line without them"),
            ));
        }
    }
    Ok(())
}

/// Where a field of a RON file is: the line of its name and, when its value is a
/// list, the line each entry starts on.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct RonLines {
    pub key: Option<usize>,
    pub entries: Vec<usize>,
}

/// The lines of the field at `path` of a RON file: `["prefixes"]` is a field of the
/// top-level struct, `["puzzle", "pieces"]` a field of the struct in its `puzzle`.
/// Nothing when there is no such field. A scan of brackets, strings and comments
/// only: the file has been parsed already, so it is well formed.
pub fn ron_lines(text: &str, path: &[&str]) -> RonLines {
    let mut out = RonLines::default();
    let (mut line, mut depth) = (1usize, 0usize);
    // How many of `path`'s structs the scan is inside (the struct of path[k - 1]
    // opened at depth k + 1), whether the last field name read is path's next, the depth
    // inside the final field's list while in it, and whether an entry may start.
    let (mut inside, mut keyed, mut list, mut entry) = (0, false, None, false);
    let last = path.len().saturating_sub(1);
    let mut it = text.chars().peekable();
    while let Some(c) = it.next() {
        if c.is_whitespace() {
            line += (c == '\n') as usize;
            continue;
        }
        if c == '/' && it.peek() == Some(&'/') {
            it.by_ref().take_while(|&c| c != '\n').for_each(drop);
            line += 1;
            continue;
        }
        if c == '/' && it.peek() == Some(&'*') {
            it.next();
            let mut prev = ' ';
            for c in it.by_ref() {
                line += (c == '\n') as usize;
                if prev == '*' && c == '/' {
                    break;
                }
                prev = c;
            }
            continue;
        }
        if entry && list == Some(depth) && !matches!(c, ']' | ',') {
            out.entries.push(line);
            entry = false;
        }
        match c {
            '"' => {
                let mut escaped = false;
                for c in it.by_ref() {
                    line += (c == '\n') as usize;
                    match c {
                        '\\' if !escaped => escaped = true,
                        '"' if !escaped => break,
                        _ => escaped = false,
                    }
                }
            }
            '(' | '[' | '{' => {
                depth += 1;
                if keyed && inside == last && c == '[' {
                    (list, entry) = (Some(depth), true);
                } else if keyed && inside < last && c == '(' {
                    inside += 1;
                }
                keyed = false;
            }
            ')' | ']' | '}' => {
                if list == Some(depth) {
                    list = None;
                }
                if inside > 0 && depth == inside + 1 {
                    inside -= 1;
                }
                depth = depth.saturating_sub(1);
            }
            ',' if list == Some(depth) => entry = true,
            c if depth == inside + 1 && (c.is_alphabetic() || c == '_') => {
                let mut ident = String::from(c);
                while let Some(&n) = it.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                    ident.push(n);
                    it.next();
                }
                let at = line;
                while let Some(&n) = it.peek().filter(|n| n.is_whitespace()) {
                    line += (n == '\n') as usize;
                    it.next();
                }
                // A field's name, not a value (`Some`, a struct's name, an enum's variant).
                if it.peek() == Some(&':') {
                    keyed = path.get(inside) == Some(&ident.as_str());
                    if keyed && inside == last && out.key.is_none() {
                        out.key = Some(at);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Writes the native RON format.
pub fn to_ron(p: &Puzzle) -> String {
    let cfg = ron::ser::PrettyConfig::new()
        .depth_limit(1)
        .struct_names(false);
    let mut s = ron::ser::to_string_pretty(p, cfg).expect("a puzzle always serializes");
    s.push('\n');
    s
}

/// Splits a line into its comment-free, whitespace-separated tokens.
fn tokens(line: &str) -> Vec<&str> {
    line.split('#')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect()
}

fn number<T: std::str::FromStr>(tok: &str, what: &str, origin: &str, line: usize) -> Result<T> {
    tok.parse::<T>().map_err(|_| {
        let hint = if tok.starts_with('-') {
            " (negative)"
        } else {
            ""
        };
        InputError::at(origin, line, format!("'{tok}' is not a valid {what}{hint}"))
    })
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
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
                if !(2..=super::MAX_SIDE).contains(&w) || !(2..=super::MAX_SIDE).contains(&h) {
                    return Err(InputError::at(
                        origin,
                        ln,
                        format!(
                            "board is {w}x{h}; each side must be 2..={}",
                            super::MAX_SIDE
                        ),
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

/// Reads the Eternity II hints file of `../shared/puzzles/e2/e2_hints.txt`: per line
/// `SQUARE ROW COL PIECE ROT ...` with 0-based row/column and a 1-based piece number.
pub fn parse_e2_hints(text: &str, origin: &str) -> Result<Vec<Hint>> {
    Ok(parse_e2_hints_located(text, origin)?
        .into_iter()
        .map(|l| l.hint)
        .collect())
}

/// One line of a hints file: the hint, its 1-based line, and the `up right down left`
/// colours the line says the placed piece shows, when it lists them (checked against
/// the puzzle's pieces by [`check_hint_edges`]).
pub struct HintLine {
    pub hint: Hint,
    pub line: usize,
    pub edges: Option<Piece>,
}

/// Checks that each hint line's listed colours are those its piece shows when turned
/// as the line says: a hints file made for another piece set (or numbering) is
/// refused rather than fixing pieces the file did not mean.
pub fn check_hint_edges(puzzle: &Puzzle, lines: &[HintLine], origin: &str) -> Result<()> {
    for l in lines {
        let (Some(want), Some(&piece)) = (l.edges, puzzle.pieces.get(l.hint.piece)) else {
            continue;
        };
        let got = crate::puzzle::rotated(piece, l.hint.rotation);
        if got != want {
            let show = |e: Piece| format!("{} {} {} {}", e[0], e[1], e[2], e[3]);
            return Err(InputError::at(
                origin,
                l.line,
                format!(
                    "piece {} turned {} shows `{}` (up right down left), but the line lists `{}`: is this hints file for these pieces?",
                    l.hint.piece + 1,
                    l.hint.rotation,
                    show(got),
                    show(want)
                ),
            ));
        }
    }
    Ok(())
}

/// The row and column a square label such as `I8` (or `i8`) names: row letter from A
/// at the top, column from 1 at the left. None when `label` is not one.
fn square_label(label: &str) -> Option<(usize, usize)> {
    let mut chars = label.chars();
    let letter = chars.next().filter(char::is_ascii_alphabetic)?;
    let col: usize = chars.as_str().parse().ok().filter(|&c| c >= 1)?;
    Some((letter.to_ascii_uppercase() as usize - 'A' as usize, col - 1))
}

/// As [`parse_e2_hints`], each hint with its line and listed colours.
pub fn parse_e2_hints_located(text: &str, origin: &str) -> Result<Vec<HintLine>> {
    let mut hints = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = tokens(line);
        if t.is_empty() {
            continue;
        }
        let ln = i + 1;
        if t.len() < 5 {
            return Err(InputError::at(
                origin,
                ln,
                "a hint line is `SQUARE ROW COL PIECE ROT` (piece 1-based)",
            ));
        }
        let piece: usize = number(t[3], "piece number", origin, ln)?;
        if piece == 0 {
            return Err(InputError::at(
                origin,
                ln,
                "piece numbers in a hints file are 1-based",
            ));
        }
        let hint = Hint {
            row: number(t[1], "row", origin, ln)?,
            col: number(t[2], "column", origin, ln)?,
            piece: piece - 1,
            rotation: number(t[4], "rotation (0..=3)", origin, ln)?,
        };
        // The square label repeats the row and column: they must agree.
        let Some((row, col)) = square_label(t[0]) else {
            return Err(InputError::at(
                origin,
                ln,
                format!(
                    "square label '{}' is not a row letter and a column number, such as I8",
                    t[0]
                ),
            ));
        };
        if (row, col) != (hint.row, hint.col) {
            return Err(InputError::at(
                origin,
                ln,
                format!(
                    "square {} is row {row}, column {col} (0-based), but the line says row {}, column {}",
                    t[0], hint.row, hint.col
                ),
            ));
        }
        let edges = match t.len() {
            5 => None,
            9 => {
                let mut e = [0u8; 4];
                for (k, side) in e.iter_mut().enumerate() {
                    *side = number(t[5 + k], "colour", origin, ln)?;
                }
                Some(e)
            }
            n => {
                return Err(InputError::at(
                    origin,
                    ln,
                    format!("a hint line has 5 fields, or 9 with the piece's `up right down left` colours; this one has {n}"),
                ))
            }
        };
        hints.push(HintLine {
            hint,
            line: ln,
            edges,
        });
    }
    if hints.is_empty() {
        return Err(InputError::new(
            origin,
            "holds no hint lines (`SQUARE ROW COL PIECE ROT`, piece 1-based)",
        ));
    }
    Ok(hints)
}

/// Reads a solution (or partial board) for `puzzle` in any of the formats listed in
/// the module documentation.
pub fn parse_board(text: &str, origin: &str, puzzle: &Puzzle) -> Result<Board> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return parse_result_board(trimmed, origin, puzzle, None);
    }
    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, tokens(l)))
        .filter(|(_, t)| !t.is_empty())
        .collect();
    // Brendan's `W H` header is a line of two fields, as a `piece rotation` line is:
    // the lines after it decide, most of them `x y r`, so that one stray line of
    // three fields in a list is named as that, not read as a header.
    let three = lines.iter().skip(1).filter(|(_, t)| t.len() == 3).count();
    let brendan = lines.len() >= 2 && lines[0].1.len() == 2 && 2 * three > lines.len() - 1;
    let n = puzzle.cells();
    let mut board: Board = vec![None; n];
    if brendan {
        let (ln, head) = &lines[0];
        let w: usize = number(head[0], "board width", origin, *ln)?;
        let h: usize = number(head[1], "board height", origin, *ln)?;
        if (w, h) != (puzzle.width, puzzle.height) {
            return Err(InputError::at(
                origin,
                *ln,
                format!(
                    "solution is for a {w}x{h} board, the puzzle is {}x{}",
                    puzzle.width, puzzle.height
                ),
            ));
        }
        if lines.len() - 1 != n {
            return Err(InputError::new(
                origin,
                format!("{} placements for {} pieces", lines.len() - 1, n),
            ));
        }
        for (piece, (ln, t)) in lines[1..].iter().enumerate() {
            if t.len() != 3 {
                return Err(InputError::at(origin, *ln, "expected `x y r`"));
            }
            let x: usize = number(t[0], "column x", origin, *ln)?;
            let y: usize = number(t[1], "row y (from the bottom)", origin, *ln)?;
            let r: u8 = number(t[2], "rotation", origin, *ln)?;
            if x >= w || y >= h || r > 3 {
                return Err(InputError::at(
                    origin,
                    *ln,
                    format!("placement `{x} {y} {r}` is off the {w}x{h} board or r > 3"),
                ));
            }
            let cell = (h - 1 - y) * w + x;
            if board[cell].is_some() {
                return Err(InputError::at(
                    origin,
                    *ln,
                    format!("cell x={x} y={y} is filled twice"),
                ));
            }
            board[cell] = Some((piece, r));
        }
        return Ok(board);
    }
    // A line of another shape is named first: it may be what throws the count off.
    let shaped = |t: &[&str]| matches!(t, ["-"] | ["."] | [_, _]);
    if let Some((ln, t)) = lines.iter().find(|(_, t)| !shaped(t)) {
        return Err(InputError::at(
            origin,
            *ln,
            format!(
                "a `piece rotation` line has 2 fields (`-` for an empty cell); this one has {}",
                t.len()
            ),
        ));
    }
    if lines.len() != n {
        return Err(InputError::new(
            origin,
            format!(
                "{} `piece rotation` lines for a board of {n} cells",
                lines.len()
            ),
        ));
    }
    for (cell, (ln, t)) in lines.iter().enumerate() {
        board[cell] = match t.as_slice() {
            ["-", "-"] => None,
            [p, r] => Some(placement(
                number(p, "piece index", origin, *ln)?,
                number(r, "rotation", origin, *ln)?,
                puzzle,
                origin,
                Some(*ln),
            )?),
            // `-` or `.`, the one-field shapes `shaped` lets through.
            _ => None,
        };
    }
    Ok(board)
}

fn placement(
    p: usize,
    r: u8,
    puzzle: &Puzzle,
    origin: &str,
    line: Option<usize>,
) -> Result<Placement> {
    if p >= puzzle.pieces.len() || r > 3 {
        let msg = format!(
            "placement ({p}, {r}): piece must be < {} and rotation <= 3",
            puzzle.pieces.len()
        );
        return Err(InputError::located(origin, line, msg));
    }
    Ok((p, r))
}

/// Every board of a solution file: each of the `solutions` of solve's JSON, else the
/// one board another format holds (errors in the k-th solution name it).
pub fn parse_boards(text: &str, origin: &str, puzzle: &Puzzle) -> Result<Vec<Board>> {
    if !is_result_json(text) {
        return Ok(vec![parse_board(text, origin, puzzle)?]);
    }
    let solutions = json_solutions(text.trim_start(), origin, puzzle)?;
    solutions
        .iter()
        .enumerate()
        .map(|(k, cells)| json_cells(cells, &format!("{origin} (solution {})", k + 1), puzzle))
        .collect()
}

/// Whether a solution file's `text` is solve's JSON result (an object), the one format
/// that holds several boards; the others hold one.
pub fn is_result_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// Refuses solve's JSON `v` (an object) when it records the fingerprint of another
/// puzzle than `puzzle` ([`super::fingerprint`]: size, pieces and hints): its boards
/// would be checked or drawn against the wrong pieces. Older results without one
/// pass.
fn same_puzzle(v: &serde_json::Value, origin: &str, puzzle: &Puzzle) -> Result<()> {
    let recorded = super::recorded_fingerprint(
        v.get("fingerprint_hex").and_then(|h| h.as_str()),
        v.get("fingerprint").and_then(|f| f.as_u64()),
    );
    let ours = super::fingerprint(puzzle);
    match recorded {
        Some(f) if f != ours => {
            let name = v.get("puzzle").and_then(|n| n.as_str()).unwrap_or("?");
            Err(InputError::new(
                origin,
                format!(
                    "is a result of another puzzle ({name}, fingerprint {f:016x}; this one's is {ours:016x}: other pieces or hints, or --hints missing or different)"
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// The `solutions` of solve's JSON: at least one.
fn json_solutions(text: &str, origin: &str, puzzle: &Puzzle) -> Result<Vec<serde_json::Value>> {
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| InputError::at(origin, e.line(), format!("not valid JSON: {e}")))?;
    if v.is_object() {
        same_puzzle(&v, origin, puzzle)?;
    }
    match v {
        serde_json::Value::Object(mut o) => match o.remove("solutions") {
            Some(serde_json::Value::Array(s)) if !s.is_empty() => Ok(s),
            Some(serde_json::Value::Array(_)) => {
                let found = o.get("solutions_found").and_then(|f| f.as_u64());
                Err(InputError::new(
                    origin,
                    match found {
                        Some(n) if n > 0 => format!(
                            "the result found {n} solution(s) but kept no board (`--keep 0`?): nothing to check; solve again with --keep 1 or more"
                        ),
                        _ => "the result holds no solution: nothing to check".to_string(),
                    },
                ))
            }
            _ => Err(InputError::new(
                origin,
                "not solve's JSON (no `solutions` array)",
            )),
        },
        arr => Ok(vec![arr]),
    }
}

/// A board from JSON: one array of cells, or solve's result: its solution `index`
/// (1-based) when given, else its first solution, else its deepest partial board (a
/// run that found none still shows, and explains, how far it got).
pub fn parse_result_board(
    text: &str,
    origin: &str,
    puzzle: &Puzzle,
    index: Option<usize>,
) -> Result<Board> {
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| InputError::at(origin, e.line(), format!("not valid JSON: {e}")))?;
    let err = |m: String| InputError::new(origin, m);
    if !v.is_object() {
        return match index {
            Some(k) if k > 1 => Err(no_solution_at(origin, k as u64, 1)),
            _ => json_cells(&v, origin, puzzle),
        };
    }
    for (key, want) in [("width", puzzle.width), ("height", puzzle.height)] {
        if let Some(got) = v.get(key).and_then(|x| x.as_u64()) {
            if got as usize != want {
                return Err(err(format!(
                    "the result is for a {}x{} board, the puzzle is {}x{}",
                    v["width"], v["height"], puzzle.width, puzzle.height
                )));
            }
        }
    }
    same_puzzle(&v, origin, puzzle)?;
    let solutions = v
        .get("solutions")
        .and_then(|s| s.as_array())
        .ok_or_else(|| err("not solve's JSON (no `solutions` array)".into()))?;
    let cells = match index {
        Some(k) => solutions
            .get(k - 1)
            .ok_or_else(|| no_solution_at(origin, k as u64, solutions.len()))?,
        None => match solutions.first() {
            Some(s) => s,
            None => v
                .pointer("/deepest/board")
                .ok_or_else(|| err("no solutions and no `deepest.board` to read".into()))?,
        },
    };
    json_cells(cells, origin, puzzle)
}

/// `--index K` asks for more solutions than the result in `origin` holds (`n`).
pub fn no_solution_at(origin: &str, k: u64, n: usize) -> InputError {
    let s = if n == 1 { "" } else { "s" };
    InputError::new(
        origin,
        format!("--index {k}: the result holds {n} solution{s}"),
    )
}

/// `--index K` given for `origin`, a file of one board (not solve's JSON).
pub fn index_on_one_board(origin: &str) -> InputError {
    InputError::new(
        "--index",
        format!("picks a solution of solve's JSON; {origin} holds one board: leave --index out"),
    )
}

/// A board from a JSON array of `[piece, rotation]` or null per cell.
fn json_cells(cells: &serde_json::Value, origin: &str, puzzle: &Puzzle) -> Result<Board> {
    let arr = cells.as_array().ok_or_else(|| {
        InputError::new(origin, "expected an array of [piece, rotation] per cell")
    })?;
    if arr.len() != puzzle.cells() {
        return Err(InputError::new(
            origin,
            format!(
                "{} cells in the JSON board, the puzzle has {}",
                arr.len(),
                puzzle.cells()
            ),
        ));
    }
    arr.iter()
        .map(|c| {
            if c.is_null() {
                return Ok(None);
            }
            let pr = c.as_array().filter(|a| a.len() == 2);
            let p = pr.and_then(|a| a[0].as_u64());
            let r = pr.and_then(|a| a[1].as_u64());
            match (p, r) {
                (Some(p), Some(r)) if r <= 3 => {
                    placement(p as usize, r as u8, puzzle, origin, None).map(Some)
                }
                _ => Err(InputError::new(
                    origin,
                    format!("cell entry {c} is not [piece, rotation] or null"),
                )),
            }
        })
        .collect()
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

/// Reads RON text as a `T`, or says on which line it is not one:
/// `origin:line: {what}: {why}`.
pub fn from_ron<T: serde::de::DeserializeOwned>(text: &str, origin: &str, what: &str) -> Result<T> {
    ron::from_str(text).map_err(|e| {
        InputError::at(
            origin,
            e.position.line,
            format!("{what}: {}", ron_reason(&e.code)),
        )
    })
}

/// Why RON text does not parse, in the user's terms: ron's own wording of an unknown
/// field names our Rust type and not the fields there are.
pub fn ron_reason(e: &ron::Error) -> String {
    match e {
        ron::Error::NoSuchStructField {
            expected, found, ..
        } => {
            let fields: Vec<String> = expected.iter().map(|f| format!("`{f}`")).collect();
            format!(
                "unknown field `{found}`; the fields are {}",
                fields.join(", ")
            )
        }
        e => e.to_string(),
    }
}

/// A board as `piece rotation` lines (the plain solution list).
pub fn board_to_text(board: &Board) -> String {
    board
        .iter()
        .map(|c| match c {
            Some((p, r)) => format!("{p} {r}\n"),
            None => "-\n".to_string(),
        })
        .collect()
}

/// The e2.bucas.name viewer's address; a board link is this plus a `#...` fragment.
pub const VIEWER_URL: &str = "https://e2.bucas.name/";

/// Highest colour a viewer link can carry: `a` = 0 ... `z` = 25 (the viewer itself
/// draws `a` ... `w`, the Eternity II colours 0 ... 22).
pub const VIEWER_MAX_COLOUR: u8 = 25;

/// A board as an e2.bucas.name viewer link:
/// `https://e2.bucas.name/#board_w=W&board_h=H&board_edges=...&board_pieces=...`.
/// `board_edges` has four letters per cell (`a` = colour 0, up right down left as
/// the piece shows after its rotation), cells row-major from the top-left;
/// `board_pieces` has three digits per cell, the 1-based piece number (`000` = empty
/// cell, whose edges are `aaaa`). Fails when a colour is above `z` = 25 or a piece
/// number above 999.
pub fn to_viewer_link(puzzle: &Puzzle, board: &Board) -> std::result::Result<String, String> {
    let mut edges = String::with_capacity(4 * board.len());
    let mut pieces = String::with_capacity(3 * board.len());
    for cell in board {
        match *cell {
            Some((p, r)) => {
                for c in super::rotated(puzzle.pieces[p], r) {
                    if c > VIEWER_MAX_COLOUR {
                        return Err(format!(
                            "colour {c} has no letter in a viewer link (a = 0 ... z = 25)"
                        ));
                    }
                    edges.push((b'a' + c) as char);
                }
                if p + 1 > 999 {
                    return Err(format!("piece {p} has no 3-digit number in a viewer link"));
                }
                pieces += &format!("{:03}", p + 1);
            }
            None => {
                edges += "aaaa";
                pieces += "000";
            }
        }
    }
    Ok(format!(
        "{VIEWER_URL}#board_w={}&board_h={}&board_edges={edges}&board_pieces={pieces}",
        puzzle.width, puzzle.height
    ))
}

/// Does `text` look like a viewer link (or its bare `board_w=...` fragment)? Any of
/// the link's board keys makes it one, so a link missing `board_edges` is reported as
/// such, not looked for as a file.
pub fn is_viewer_link(text: &str) -> bool {
    ["board_edges=", "board_w=", "board_h=", "board_pieces="]
        .iter()
        .any(|k| text.contains(k))
}

/// Reads a viewer link (see [`to_viewer_link`]; the text may be the whole address,
/// only its fragment, or a file holding either) back into a puzzle and a full board.
///
/// The pieces are the cells' edges as the link shows them, so every piece is placed
/// with rotation 0. With `board_pieces` (a permutation of 1 ... W*H), piece k-1 is
/// the one on the cell numbered k, so piece numbers survive a round trip; without it
/// piece i is the one on cell i. Every cell must be filled: the pieces of an empty
/// cell are unknown.
pub fn parse_viewer_link(text: &str, origin: &str) -> Result<(Puzzle, Board)> {
    let err = |m: String| InputError::new(origin, m);
    let link = text
        .split_whitespace()
        .find(|t| is_viewer_link(t))
        .ok_or_else(|| {
            err("no viewer link (`...#board_w=W&board_h=H&board_edges=...`) found".into())
        })?;
    let fragment = link.rsplit(['#', '?']).next().unwrap_or(link);
    let (mut w, mut h, mut edges, mut numbers) = (None, None, None, None);
    for pair in fragment.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let size = |v: &str| {
            v.parse::<usize>()
                .ok()
                .filter(|n| (2..=super::MAX_SIDE).contains(n))
                .ok_or_else(|| {
                    err(format!(
                        "{k}={v}: each side must be 2..={}",
                        super::MAX_SIDE
                    ))
                })
        };
        match k {
            "board_w" => w = Some(size(v)?),
            "board_h" => h = Some(size(v)?),
            "board_edges" => edges = Some(v),
            "board_pieces" => numbers = Some(v),
            // Other viewer settings (motifs, names, ...) do not change the board.
            _ => {}
        }
    }
    let missing = |k: &str| err(format!("the viewer link has no `{k}=`"));
    let (w, h) = (
        w.ok_or_else(|| missing("board_w"))?,
        h.ok_or_else(|| missing("board_h"))?,
    );
    let edges = edges.ok_or_else(|| missing("board_edges"))?.as_bytes();
    let n = w * h;
    if edges.len() != 4 * n {
        return Err(err(format!(
            "board_edges has {} letters; a {w}x{h} board needs 4 per cell, {}",
            edges.len(),
            4 * n
        )));
    }
    let mut cell_edges: Vec<Piece> = Vec::with_capacity(n);
    for (cell, four) in edges.chunks(4).enumerate() {
        let mut e = [0u8; 4];
        for (s, &ch) in four.iter().enumerate() {
            if !ch.is_ascii_lowercase() {
                return Err(err(format!(
                    "board_edges letter {} ('{}') is not a colour letter a..z",
                    4 * cell + s + 1,
                    ch as char
                )));
            }
            e[s] = ch - b'a';
        }
        if e == [0; 4] {
            return Err(err(format!(
                "cell row {} column {} is empty (`aaaa`); a puzzle needs every cell filled",
                cell / w,
                cell % w
            )));
        }
        cell_edges.push(e);
    }
    // Piece index of each cell: from board_pieces when it is a permutation, else
    // the cell's own index.
    let mut order: Vec<usize> = (0..n).collect();
    if let Some(v) = numbers.filter(|v| !v.is_empty()) {
        let digits = v.as_bytes();
        if digits.len() != 3 * n || !digits.iter().all(u8::is_ascii_digit) {
            return Err(err(format!(
                "board_pieces must be 3 digits per cell ({} for a {w}x{h} board)",
                3 * n
            )));
        }
        let mut seen = vec![false; n];
        for (cell, d) in digits.chunks(3).enumerate() {
            let k: usize = std::str::from_utf8(d)
                .expect("ASCII digits")
                .parse()
                .expect("digits");
            if k == 0 || k > n || std::mem::replace(&mut seen[k - 1], true) {
                return Err(err(format!(
                    "board_pieces gives cell row {} column {} piece {k}; expected each of 1..={n} once",
                    cell / w,
                    cell % w
                )));
            }
            order[cell] = k - 1;
        }
    }
    let mut pieces = vec![[0u8; 4]; n];
    for (cell, &p) in order.iter().enumerate() {
        pieces[p] = cell_edges[cell];
    }
    let mut puzzle = Puzzle::new(origin, String::new(), w, h, pieces, Vec::new())?;
    puzzle.source = Some("e2.bucas.name viewer link".to_string());
    let board = order.iter().map(|&p| Some((p, 0))).collect();
    Ok((puzzle, board))
}
