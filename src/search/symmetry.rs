//! Board symmetry (`solve --symmetry`), geometry only: the turns of a board, the
//! anchor, the corner pairs. No search here.
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
//! **Pairs** (square boards, [`Parts::Pairs`]). Going clockwise round a solution, its
//! four corner pieces follow each other in some cyclic order; a *pair* u → v says v
//! comes right after u. Every cyclic order of the corners holds four pairs, and the
//! three pairs out of one corner c (c → x for each other x), or the three into it,
//! meet every cyclic order exactly once (these 8 are the only such sets of three). So three searches, each with one pair fixed
//! on the first line the scan fills, find each solution in exactly one of its turns,
//! as the anchor does. A pair can sit on that line in two ways: u at the top-left and
//! v at the top-right, filled along rows, or v at the top-left and u at the
//! bottom-left, along columns. Which trees a run searches, and how, is
//! [`super::symmetric`]'s.
//!
//! Public rowscan solvers fix a corner the same way; Brendan's and Wortmann's counts
//! "up to rotation" are the square case.

use crate::puzzle::{rotated, scans_columns, Board, Hint, Puzzle, DOWN, LEFT, RIM, UP};
use std::fmt;
use std::str::FromStr;

/// How `--symmetry` cuts a square board's tree (`--symmetry-parts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Parts {
    /// Pairs for an `--all` run of a big tree, else the anchor (module doc).
    #[default]
    Auto,
    /// The anchor at the top-left: one tree.
    Anchor,
    /// Three trees, a pair of corners fixed in each, chosen by estimates.
    Pairs,
}

impl FromStr for Parts {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "auto" => Ok(Parts::Auto),
            "anchor" => Ok(Parts::Anchor),
            "pairs" => Ok(Parts::Pairs),
            _ => Err(format!(
                "unknown symmetry parts '{s}'; expected auto, anchor or pairs"
            )),
        }
    }
}

impl fmt::Display for Parts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parts::Auto => "auto",
            Parts::Anchor => "anchor",
            Parts::Pairs => "pairs",
        })
    }
}

/// The puzzles to search instead of `p` (the anchor fixed in each) and how many turns
/// each solution found stands for (4 square, 2 otherwise); None when `p` has hints or
/// a side shorter than 2.
pub fn anchored(p: &Puzzle) -> Option<(Vec<Puzzle>, u64)> {
    anchored_along(p, scans_columns(p.width, p.height))
}

/// `piece` fixed at corner (row, col) in the rotation that shows the rim there, or
/// None when no rotation does (not a corner piece).
pub(crate) fn corner_hint(p: &Puzzle, piece: usize, row: usize, col: usize) -> Option<Hint> {
    let rim = |s: usize| match s {
        UP => row == 0,
        DOWN => row == p.height - 1,
        LEFT => col == 0,
        _ => col == p.width - 1,
    };
    let rotation = (0..4u8).find(|&r| {
        let e = rotated(p.pieces[piece], r);
        (0..4).all(|s| (e[s] == RIM) == rim(s))
    })?;
    Some(Hint {
        row,
        col,
        piece,
        rotation,
    })
}

/// The corner pieces of `p`, ascending: those that fit the top-left corner.
pub(crate) fn corner_pieces(p: &Puzzle) -> Vec<usize> {
    (0..p.pieces.len())
        .filter(|&i| corner_hint(p, i, 0, 0).is_some())
        .collect()
}

/// `p` with `fixed` (piece, row, col) added as hints, or None when one is not a corner
/// piece.
pub(crate) fn with_corners(p: &Puzzle, fixed: &[(usize, usize, usize)]) -> Option<Puzzle> {
    let mut q = p.clone();
    for &(piece, row, col) in fixed {
        q.hints.push(corner_hint(p, piece, row, col)?);
    }
    Some(q)
}

/// [`anchored`] for a search filling columns (`columns`) or rows: on a board with
/// W != H the second anchor goes to the corner that order reaches first.
pub fn anchored_along(p: &Puzzle, columns: bool) -> Option<(Vec<Puzzle>, u64)> {
    if p.width < 2 || p.height < 2 || !p.hints.is_empty() {
        return None;
    }
    let anchor = *corner_pieces(p).first()?;
    let fix = |row: usize, col: usize| with_corners(p, &[(anchor, row, col)]);
    let (w, h) = (p.width, p.height);
    if w == h {
        Some((vec![fix(0, 0)?], 4))
    } else if columns {
        Some((vec![fix(0, 0)?, fix(h - 1, 0)?], 2))
    } else {
        Some((vec![fix(0, 0)?, fix(0, w - 1)?], 2))
    }
}

/// The corner pieces of `p` when pairs can cut it: a square board without hints and
/// with exactly four corner pieces.
pub(crate) fn pair_corners(p: &Puzzle) -> Option<Vec<usize>> {
    let corners = corner_pieces(p);
    let square = p.width == p.height && p.width >= 2 && p.hints.is_empty();
    (square && corners.len() == 4).then_some(corners)
}

/// The 8 covers (module doc) of the four `corners`, each as its three pairs in search
/// order: out of each corner, then into it.
pub(crate) fn covers(corners: &[usize]) -> Vec<Vec<(usize, usize)>> {
    corners
        .iter()
        .flat_map(|&c| {
            let others = || corners.iter().copied().filter(move |&x| x != c);
            [
                others().map(|x| (c, x)).collect(),
                others().map(|x| (x, c)).collect(),
            ]
        })
        .collect()
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
