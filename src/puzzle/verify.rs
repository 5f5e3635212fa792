//! The independent checker: every solution is passed through here before it is
//! reported. It shares nothing with the search but the puzzle itself, and recomputes
//! rotations from the definition rather than calling the search's tables.

use super::{Board, Hint, Puzzle, RIM};

/// Why a board is not a solution (or not a consistent partial board).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation(pub String);

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Edge of `piece` shown on side `side` after `rot` clockwise quarter turns, straight
/// from the definition: side s shows listed edge (s - rot) mod 4.
fn shown(puzzle: &Puzzle, piece: usize, rot: u8, side: usize) -> u8 {
    puzzle.pieces[piece][(side + 4 - (rot as usize % 4)) % 4]
}

/// Checks a board: pieces in range and used at most once, hints in place, rim sides
/// grey, inner sides not grey, and every join between two filled cells matching.
/// With `complete`, every cell must be filled.
pub fn check(puzzle: &Puzzle, board: &Board, complete: bool) -> Result<(), Violation> {
    let (w, h) = (puzzle.width, puzzle.height);
    let v = |m: String| Err(Violation(m));
    if board.len() != w * h {
        return v(format!(
            "board has {} cells, puzzle has {}",
            board.len(),
            w * h
        ));
    }
    let mut used = vec![false; puzzle.pieces.len()];
    for (cell, c) in board.iter().enumerate() {
        let (row, col) = (cell / w, cell % w);
        let Some((p, r)) = *c else {
            if complete {
                return v(format!("cell row {row} column {col} is empty"));
            }
            continue;
        };
        if p >= puzzle.pieces.len() || r > 3 {
            return v(format!(
                "cell row {row} column {col}: no piece {p} rotation {r}"
            ));
        }
        if std::mem::replace(&mut used[p], true) {
            return v(format!("piece {p} is used twice"));
        }
        let rim = [row == 0, col + 1 == w, row + 1 == h, col == 0];
        for (side, &on_rim) in rim.iter().enumerate() {
            let e = shown(puzzle, p, r, side);
            if on_rim != (e == RIM) {
                return v(format!(
                    "cell row {row} column {col}: piece {p} turned {r} shows colour {e} on side {side}, {}",
                    if on_rim { "which faces the rim" } else { "an inner join" }
                ));
            }
        }
        // Right and down joins; each join is checked once.
        if col + 1 < w {
            if let Some((q, s)) = board[cell + 1] {
                if q < puzzle.pieces.len() && shown(puzzle, p, r, 1) != shown(puzzle, q, s, 3) {
                    return v(format!(
                        "join right of row {row} column {col} does not match"
                    ));
                }
            }
        }
        if row + 1 < h {
            if let Some((q, s)) = board[cell + w] {
                if q < puzzle.pieces.len() && shown(puzzle, p, r, 2) != shown(puzzle, q, s, 0) {
                    return v(format!("join below row {row} column {col} does not match"));
                }
            }
        }
    }
    for hint in &puzzle.hints {
        let cell = hint.row * w + hint.col;
        if board[cell] != Some((hint.piece, hint.rotation)) {
            return v(format!(
                "hint at row {} column {} (piece {} turned {}) is not on the board",
                hint.row, hint.col, hint.piece, hint.rotation
            ));
        }
    }
    Ok(())
}

/// Number of matched inner joins (both cells filled, colours equal), out of
/// `puzzle.inner_joins()`: the score puzzle viewers show.
pub fn score(puzzle: &Puzzle, board: &Board) -> usize {
    let w = puzzle.width;
    let mut s = 0;
    for (cell, c) in board.iter().enumerate() {
        let Some((p, r)) = *c else { continue };
        if cell % w + 1 < w {
            if let Some((q, t)) = board[cell + 1] {
                s += (shown(puzzle, p, r, 1) == shown(puzzle, q, t, 3)) as usize;
            }
        }
        if cell + w < board.len() {
            if let Some((q, t)) = board[cell + w] {
                s += (shown(puzzle, p, r, 2) == shown(puzzle, q, t, 0)) as usize;
            }
        }
    }
    s
}

/// Per cell, whether it holds its hint as the puzzle places it (false where there is
/// no hint): the cells a picture marks as hints.
pub fn hints_in_place(puzzle: &Puzzle, board: &Board) -> Vec<bool> {
    let mut v = vec![false; board.len()];
    for hint in &puzzle.hints {
        let cell = hint.row * puzzle.width + hint.col;
        v[cell] = board.get(cell) == Some(&Some((hint.piece, hint.rotation)));
    }
    v
}

/// The hints `board` does not hold (their cell empty, or another piece or rotation on
/// it): [`check`] refuses such a board; a picture of it (`show`) says so.
pub fn missing_hints<'a>(puzzle: &'a Puzzle, board: &Board) -> Vec<&'a Hint> {
    let placed = hints_in_place(puzzle, board);
    (puzzle.hints.iter())
        .filter(|h| !placed[h.row * puzzle.width + h.col])
        .collect()
}

/// The pieces `board` places more than once, ascending: [`check`] refuses such a
/// board; a picture of it (`show`) says so.
pub fn repeated_pieces(board: &Board) -> Vec<usize> {
    let mut placed: Vec<usize> = board.iter().flatten().map(|&(p, _)| p).collect();
    placed.sort_unstable();
    let mut twice: Vec<usize> = placed
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    twice.dedup();
    twice
}

/// The first pair `(i, j)`, `i < j`, of equal items in sort order (boards listed twice:
/// `verify`, `merge`), or None when all differ.
pub fn first_repeat<T: Ord>(items: &[T]) -> Option<(usize, usize)> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&i, &j| items[i].cmp(&items[j]).then(i.cmp(&j)));
    order
        .windows(2)
        .find(|w| items[w[0]] == items[w[1]])
        .map(|w| (w[0], w[1]))
}
