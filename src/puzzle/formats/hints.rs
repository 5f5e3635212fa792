//! The Eternity II hints file: one hint per line, with the colours it shows.

use super::tokens::{number, tokens};
use crate::error::{InputError, Result};
use crate::puzzle::{rotated, Hint, Piece, Puzzle};

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
        let got = rotated(piece, l.hint.rotation);
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
