//! A board as text: each cell shows its piece number and rotation in the middle and
//! the colour on each side, so a reader can check every join by eye.
//!
//! ```text
//!      3    |     5
//!   0 12/1 4| 4  7/0 0
//!      6    |     0
//! ```

use crate::puzzle::{rotated, Board, Puzzle};

const CELL: usize = 11;

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
                    lines[1] += &format!("{:>2} {:>4}/{} {:<2}", e[3], p, r, e[1]);
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
