//! Board symmetry (`solve --symmetry`): search a quarter of the tree of a square board.
//!
//! Pieces cannot be flipped, so a board's only symmetries are its rotations. On a
//! square board without hints, turning a solution a quarter turn gives another
//! solution, and the four turns of one are distinct (the four corner pieces trade
//! places). Exactly one of the four has the *anchor* (the corner piece of lowest index)
//! at the top-left. So the search fixes the anchor there, as a hint in the one rotation
//! that shows the rim up and left, finds a quarter of the solutions, and reports each
//! with its three turns (each checked again by the independent checker). Public
//! rowscan solvers do the same; Brendan's and Wortmann's counts "up to rotation" are
//! this quarter.
//!
//! Boards that are not square, or have hints, are searched whole: a W x H board with
//! W != H has only the half turn, and pairing its solutions needs two runs (left undone).

use super::dfs::Limits;
use super::select::Strategy;
use super::{solve_with, Spread};
use crate::error::Result;
use crate::puzzle::{rotated, verify, Board, Hint, Puzzle, LEFT, RIM, UP};
use crate::report::SolveResult;
use std::sync::atomic::AtomicBool;

/// How many rotations map solutions to solutions when the search uses [`quarter`].
pub const TURNS: u64 = 4;

/// The puzzle with its anchor fixed at the top-left, or None when the board is not
/// square, has hints, or is a single cell.
pub fn quarter(p: &Puzzle) -> Option<Puzzle> {
    if p.width != p.height || p.width < 2 || !p.hints.is_empty() {
        return None;
    }
    let (piece, rotation) = p.pieces.iter().enumerate().find_map(|(i, &piece)| {
        (0..4u8)
            .find(|&r| {
                let e = rotated(piece, r);
                e[UP] == RIM && e[LEFT] == RIM && e[1] != RIM && e[2] != RIM
            })
            .map(|r| (i, r))
    })?;
    let mut q = p.clone();
    q.hints.push(Hint {
        row: 0,
        col: 0,
        piece,
        rotation,
    });
    Some(q)
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

/// [`solve_with`] on a quarter of the tree when `p` allows it (see the module doc),
/// else on the whole tree. Solution counts and kept solutions are those of the whole
/// puzzle; node counts are those of the tree searched, the anchor counted as a hint.
pub fn solve_symmetric(
    p: &Puzzle,
    h: impl Into<Strategy>,
    limits: &Limits,
    stop: &AtomicBool,
    spread: &Spread,
) -> Result<SolveResult> {
    let Some(q) = quarter(p) else {
        return solve_with(p, h, limits, stop, spread);
    };
    let per_turns = |k: Option<u64>| k.map(|k| k.div_ceil(TURNS));
    let inner = Limits {
        max_solutions: per_turns(limits.max_solutions),
        keep: limits.keep.div_ceil(TURNS as usize),
        ..limits.clone()
    };
    let mut r = solve_with(&q, h, &inner, stop, spread)?;
    let found = r.solutions_found * TURNS;
    r.solutions_found = limits.max_solutions.map_or(found, |k| found.min(k));
    let mut kept = Vec::new();
    for i in 0..r.solutions.len() {
        let mut b = r.solution_board(i);
        for _ in 0..TURNS {
            if let Err(v) = verify::check(p, &b, true) {
                panic!("internal error: a turned solution fails the checker: {v}");
            }
            kept.push(b.clone());
            b = turn(&b, p.width);
        }
    }
    kept.truncate(limits.keep.min(r.solutions_found as usize));
    r.solutions = kept.iter().map(crate::report::solution_cells).collect();
    r.symmetry = TURNS;
    Ok(r)
}
