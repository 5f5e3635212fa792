//! Boards (solutions and partial boards): Brendan Owen's solution files, the plain
//! solution list, and solve's JSON output.

use super::tokens::{number, tokens};
use crate::error::{InputError, Result};
use crate::puzzle::{fingerprint, recorded_fingerprint, Board, Placement, Puzzle};

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
/// puzzle than `puzzle` ([`crate::puzzle::fingerprint`]: size, pieces and hints): its boards
/// would be checked or drawn against the wrong pieces. Older results without one
/// pass.
fn same_puzzle(v: &serde_json::Value, origin: &str, puzzle: &Puzzle) -> Result<()> {
    let recorded = recorded_fingerprint(
        v.get("fingerprint_hex").and_then(|h| h.as_str()),
        v.get("fingerprint").and_then(|f| f.as_u64()),
    );
    let ours = fingerprint(puzzle);
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
