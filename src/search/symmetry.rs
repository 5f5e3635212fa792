//! Board symmetry (`solve --symmetry`): search a fraction of the tree.
//!
//! Pieces cannot be flipped, so a board's only symmetries are its rotations: the
//! quarter turns of a square board, the half turn of any board. Turning a solution of
//! a board without hints gives another solution, and the turns of one are distinct
//! (the corner pieces trade places). The *anchor* is the corner piece of lowest index.
//! - Square: exactly one of a solution's four turns has the anchor at the top-left.
//!   One search with the anchor fixed there (a hint in the one rotation that shows the
//!   rim up and left) finds a quarter of the solutions.
//! - W != H: the half turn takes the top-left to the bottom-right and the top-right to
//!   the bottom-left, so exactly one of a solution and its half turn has the anchor in
//!   the top row's corners, and exactly one in the left column's. Two searches, the
//!   anchor fixed at the top-left and then at the top-right (bottom-left on a board
//!   wider than tall, where scan fills columns: the corner it reaches first; with
//!   `scan:rows` / `scan:columns` their lines decide), find half of the solutions.
//!
//! Every solution found is reported with its turns, each checked again by the
//! independent checker. Public rowscan solvers fix a corner the same way; Brendan's
//! and Wortmann's counts "up to rotation" are the square case.

use super::dfs::Limits;
use super::jobs::absorb;
use super::select::Strategy;
use super::{solve_with, Spread};
use crate::error::Result;
use crate::puzzle::{rotated, scans_columns, verify, Board, Hint, Puzzle, DOWN, LEFT, RIM, UP};
use crate::report::SolveResult;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// The puzzles to search instead of `p` (the anchor fixed in each) and how many turns
/// each solution found stands for (4 square, 2 otherwise); None when `p` has hints or
/// a side shorter than 2.
pub fn anchored(p: &Puzzle) -> Option<(Vec<Puzzle>, u64)> {
    anchored_along(p, scans_columns(p.width, p.height))
}

/// [`anchored`] for a search filling columns (`columns`) or rows: on a board with
/// W != H the second anchor goes to the corner that order reaches first.
pub fn anchored_along(p: &Puzzle, columns: bool) -> Option<(Vec<Puzzle>, u64)> {
    if p.width < 2 || p.height < 2 || !p.hints.is_empty() {
        return None;
    }
    // The anchor at corner (row, col), in the rotation that shows the rim there.
    let fix = |row: usize, col: usize| {
        let rim = |s: usize| match s {
            UP => row == 0,
            DOWN => row == p.height - 1,
            LEFT => col == 0,
            _ => col == p.width - 1,
        };
        let (piece, rotation) = p.pieces.iter().enumerate().find_map(|(i, &piece)| {
            (0..4u8)
                .find(|&r| {
                    let e = rotated(piece, r);
                    (0..4).all(|s| (e[s] == RIM) == rim(s))
                })
                .map(|r| (i, r))
        })?;
        let mut q = p.clone();
        q.hints.push(Hint {
            row,
            col,
            piece,
            rotation,
        });
        Some(q)
    };
    let (w, h) = (p.width, p.height);
    if w == h {
        Some((vec![fix(0, 0)?], 4))
    } else if columns {
        Some((vec![fix(0, 0)?, fix(h - 1, 0)?], 2))
    } else {
        Some((vec![fix(0, 0)?, fix(0, w - 1)?], 2))
    }
}

/// The puzzle with its anchor fixed at the top-left when `p` is square, has no hints
/// and a side of 2 or more: the quarter tree of `solve --symmetry`.
pub fn quarter(p: &Puzzle) -> Option<Puzzle> {
    match anchored(p) {
        Some((mut v, 4)) => v.pop(),
        _ => None,
    }
}

/// The board turned a quarter clockwise (square boards): cell (r, c) moves to
/// (c, n - 1 - r) and every piece turns once more.
pub fn turn(board: &Board, n: usize) -> Board {
    let mut out = vec![None; board.len()];
    for (cell, &pl) in board.iter().enumerate() {
        let (r, c) = (cell / n, cell % n);
        out[c * n + (n - 1 - r)] = pl.map(|(piece, rot)| (piece, (rot + 1) & 3));
    }
    out
}

/// The board turned half around: cell i moves to cells - 1 - i, every piece turns twice.
pub fn half_turn(board: &Board) -> Board {
    board
        .iter()
        .rev()
        .map(|pl| pl.map(|(piece, rot)| (piece, (rot + 2) & 3)))
        .collect()
}

/// [`solve_with`] on the anchored puzzles when `p` allows it (see the module doc), else
/// on `p`. Solution counts and kept solutions are those of the whole puzzle; node
/// counts are those of the trees searched, the anchor counted as a hint. The runs go
/// one after the other; with `--checkpoint FILE` the second uses `FILE.tr`.
pub fn solve_symmetric(
    p: &Puzzle,
    h: impl Into<Strategy>,
    limits: &Limits,
    stop: &AtomicBool,
    spread: &Spread,
) -> Result<SolveResult> {
    let h: Strategy = h.into();
    let Some((parts, turns)) = anchored_along(p, h.select.lines_columns(p.width, p.height)) else {
        return solve_with(p, h, limits, stop, spread);
    };
    let keep = limits.keep.div_ceil(turns as usize);
    let mut total: Option<SolveResult> = None;
    for (i, q) in parts.iter().enumerate() {
        let found = total.as_ref().map_or(0, |t| t.solutions_found);
        let inner = Limits {
            max_solutions: limits
                .max_solutions
                .map(|k| k.div_ceil(turns).saturating_sub(found)),
            keep,
            ..limits.clone()
        };
        let mut spread = spread.clone();
        if i > 0 {
            spread.checkpoint = spread
                .checkpoint
                .map(|f| PathBuf::from(format!("{}.tr", f.display())));
        }
        let r = solve_with(q, h, &inner, stop, &spread)?;
        let stopped = r.stopped_by.is_some();
        total = Some(match total {
            None => r,
            Some(mut t) => {
                let elapsed = t.elapsed_s + r.elapsed_s;
                absorb(&mut t, &r, keep);
                (t.threads, t.elapsed_s) = (r.threads, elapsed);
                t.nodes_per_s = crate::report::rate(t.nodes, elapsed);
                t
            }
        });
        if stopped {
            break;
        }
    }
    let mut r = total.expect("at least one anchored puzzle");
    let found = r.solutions_found * turns;
    r.solutions_found = limits.max_solutions.map_or(found, |k| found.min(k));
    let mut kept = Vec::new();
    for i in 0..r.solutions.len() {
        let mut b = r.solution_board(i);
        for _ in 0..turns {
            if let Err(v) = verify::check(p, &b, true) {
                panic!("internal error: a turned solution fails the checker: {v}");
            }
            kept.push(b.clone());
            b = if turns == 4 {
                turn(&b, p.width)
            } else {
                half_turn(&b)
            };
        }
    }
    kept.truncate(limits.keep.min(r.solutions_found as usize));
    r.solutions = kept.iter().map(crate::report::solution_cells).collect();
    r.symmetry = turns;
    Ok(r)
}
