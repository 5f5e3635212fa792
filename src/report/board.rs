//! A board as text: each cell shows its piece number and rotation in the middle and
//! the colour on each side, so a reader can check every join by eye.
//!
//! ```text
//!       3      |      5
//!   0  12/1 4  |  4   7/0 0
//!       6      |      0
//! ```

use crate::puzzle::{rotated, Board, Puzzle};

const CELL: usize = 13;

/// The line printed under the text boards of [`render`] (once per report).
pub const LEGEND: &str = "legend: each cell is 3 lines: its top colour; left colour, piece/rotation, right colour; its bottom colour (pieces numbered from 0 in file order, rotation = clockwise quarter turns, colour 0 = the rim, . = empty cell)";

/// The line printed under a board of [`render_ansi`].
pub const ANSI_LEGEND: &str = "legend: each cell's four sides in their colours with their numbers (top; left, right; bottom); H = hint, . = empty cell, ! = a side that does not match its neighbour or the rim";

pub fn render(puzzle: &Puzzle, board: &Board) -> String {
    let w = puzzle.width;
    let mut out = String::new();
    for row in board.chunks(w) {
        let mut lines = [String::new(), String::new(), String::new()];
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                for l in &mut lines {
                    l.push('|');
                }
            }
            match cell {
                Some((p, r)) => {
                    let e = rotated(puzzle.pieces[*p], *r);
                    lines[0] += &format!("{:^CELL$}", e[0]);
                    // Exactly CELL wide, a space at each end: ` ll ppp/r rr `.
                    lines[1] += &format!(" {:>2} {:>3}/{} {:<2} ", e[3], p, r, e[1]);
                    lines[2] += &format!("{:^CELL$}", e[2]);
                }
                None => {
                    lines[0] += &" ".repeat(CELL);
                    lines[1] += &format!("{:^CELL$}", ".");
                    lines[2] += &" ".repeat(CELL);
                }
            }
        }
        for l in lines {
            out += l.trim_end();
            out.push('\n');
        }
        out += &"-".repeat(w * (CELL + 1) - 1);
        out.push('\n');
    }
    out
}

/// Width of a cell of the coloured board, in terminal columns.
const ANSI_CELL: usize = 8;

/// The board for a terminal: each cell is a small square whose four sides are
/// painted with their edge colours (ANSI 256-colour backgrounds, the palette of the
/// SVG picture) with the colour number on them. A mismatched side is marked `!`;
/// hint cells show `H` in the middle; empty cells show `.`.
///
/// ```text
///  [  3   ]
///  [4 ]H[5 ]
///  [  0   ]
/// ```
pub fn render_ansi(puzzle: &Puzzle, board: &Board) -> String {
    use super::svg;
    let w = puzzle.width;
    let mut bad = vec![[false; 4]; board.len()];
    for (c, side) in svg::mismatches(puzzle, board) {
        bad[c][side] = true;
        if let Some(n) = puzzle.neighbour(c, side) {
            bad[n][(side + 2) % 4] = true;
        }
    }
    let hinted = crate::puzzle::verify::hints_in_place(puzzle, board);
    // One painted patch: `text` centred in `width` columns on colour `c`.
    let patch = |c: u8, width: usize, mark: bool| {
        let f = svg::fill(c);
        let ink = if svg::is_light(&f) { 16 } else { 231 };
        let label = if mark { format!("{c}!") } else { c.to_string() };
        format!(
            "\x1b[48;5;{};38;5;{ink}m{label:^width$}\x1b[0m",
            xterm256(svg::rgb(&f))
        )
    };
    let mut out = String::new();
    for (r, row) in board.chunks(w).enumerate() {
        let mut lines = [String::new(), String::new(), String::new()];
        for (i, cell) in row.iter().enumerate() {
            let c = r * w + i;
            match cell {
                Some((p, rot)) => {
                    let e = rotated(puzzle.pieces[*p], *rot);
                    let b = bad[c];
                    lines[0] += &format!(" {} ", patch(e[0], ANSI_CELL - 2, b[0]));
                    let mid = if hinted[c] { "H " } else { "  " };
                    lines[1] += &format!("{}{mid}{}", patch(e[3], 3, b[3]), patch(e[1], 3, b[1]));
                    lines[2] += &format!(" {} ", patch(e[2], ANSI_CELL - 2, b[2]));
                }
                None => {
                    lines[0] += &" ".repeat(ANSI_CELL);
                    lines[1] += &format!("{:^ANSI_CELL$}", if hinted[c] { "H" } else { "." });
                    lines[2] += &" ".repeat(ANSI_CELL);
                }
            }
            for l in &mut lines {
                l.push(' ');
            }
        }
        for l in lines {
            out += l.trim_end();
            out.push('\n');
        }
    }
    out
}

/// The nearest colour of the xterm 256-colour cube (16 + 36 r + 6 g + b), or of its
/// grey ramp (232 ... 255) when that is closer.
pub fn xterm256((r, g, b): (u8, u8, u8)) -> u8 {
    const LEVELS: [i32; 6] = [0, 95, 135, 175, 215, 255];
    let nearest = |v: u8| {
        (0..6)
            .min_by_key(|&k| (LEVELS[k] - v as i32).abs())
            .expect("six levels")
    };
    let (ri, gi, bi) = (nearest(r), nearest(g), nearest(b));
    let dist = |x: (i32, i32, i32)| {
        (x.0 - r as i32).pow(2) + (x.1 - g as i32).pow(2) + (x.2 - b as i32).pow(2)
    };
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    let avg = (r as i32 + g as i32 + b as i32) / 3;
    let grey_k = ((avg - 8).max(0) / 10).min(23);
    let grey = 8 + 10 * grey_k;
    if dist((grey, grey, grey)) < dist(cube) {
        232 + grey_k as u8
    } else {
        (16 + 36 * ri + 6 * gi + bi) as u8
    }
}
