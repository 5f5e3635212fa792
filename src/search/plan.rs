//! Planned orders: a static fill order for the empty cells of a board, made once and
//! then followed by the planned-order driver ([`super::rowscan::RowScan::with_order`]):
//! `order:hints` and the hybrids' subtrees ([`plan`]), `order:spiral` ([`spiral`]),
//! `order:deep` ([`deep`]).
//!
//! **The rule** ([`plan`]): repeatedly take the empty cell with the highest *score*,
//! 2 for every side facing a filled cell (a hint, a placed piece, or a cell earlier in
//! the plan) and 1 for every rim side; ties go to the lowest cell index. On an empty
//! board this is row-major order (a cell's up and left neighbours, 4, outweigh a
//! corner's rim, 2); around hints and placed pieces the order grows out of them.
//! Weighing the two alike (1 and 1) searched 300 times the nodes on Puzzle C with five
//! E2-like hints (`puzzles/hinted/b08x08_e2hints.txt`, all solutions, the plan from
//! the root: 17.8e6 nodes against 59,715); 3 and 1 searched 72,481.
//!
//! **Why this rule:** a filled neighbour's colour is what a cell's candidate list is
//! keyed by (about one colour in the puzzle's few), a rim side only asks for a border
//! piece: the best-scored cell is the one with the shortest lists. And the score
//! depends on which cells are filled, never on their colours. That makes it
//! *memoryless*: the plan of a board with its first cell filled is the rest of the
//! board's plan ([`next`] is the plan's first cell). A hybrid (`ply:N@D`) therefore
//! searches the same tree whether a subtree's plan is made at depth D or at any node
//! below it (a parallel run's subproblems start deeper), and whichever driver runs it.

use super::rowscan::RowScan;
use super::state::State;
use crate::puzzle::{scans_columns, DOWN, RIGHT};

/// What a side facing a filled cell weighs; a rim side weighs 1.
const FILLED: usize = 2;
/// Scores 0..=4 * FILLED.
const LEVELS: usize = 4 * FILLED + 1;

/// The score of empty cell `c`: [`FILLED`] per side facing a filled cell, 1 per rim side.
fn score(st: &State, filled: impl Fn(usize) -> bool, c: usize) -> usize {
    st.neighbours(c)
        .iter()
        .map(|&nb| match nb {
            u32::MAX => 1,
            nb if filled(nb as usize) => FILLED,
            _ => 0,
        })
        .sum()
}

/// The first cell of [`plan`]`(st)`, in O(cells) without allocating: the pick of a
/// planned order at a node of the generic driver. None when the board is full.
pub fn next(st: &State) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for c in (0..st.cells()).filter(|&c| st.is_empty(c)) {
        let k = score(st, |nb| !st.is_empty(nb), c);
        if best.is_none_or(|(bk, _)| k > bk) {
            best = Some((k, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The planned order of `st`'s empty cells (the module's rule), in O(cells x words).
pub fn plan(st: &State) -> Vec<u32> {
    let cells = st.cells();
    let words = cells.div_ceil(64);
    // levels[k]: the unplanned empty cells of score k, as a bitset.
    let mut levels = vec![0u64; LEVELS * words];
    let mut scores = vec![0u8; cells];
    let mut planned = vec![false; cells];
    for c in (0..cells).filter(|&c| st.is_empty(c)) {
        let k = score(st, |nb| !st.is_empty(nb), c);
        scores[c] = k as u8;
        levels[k * words + c / 64] |= 1 << (c % 64);
    }
    let mut order = Vec::with_capacity(st.max_depth() - st.depth());
    while let Some(c) = (0..LEVELS)
        .rev()
        .find_map(|k| lowest(&levels[k * words..][..words]))
    {
        levels[scores[c] as usize * words + c / 64] &= !(1 << (c % 64));
        planned[c] = true;
        order.push(c as u32);
        for &nb in st.neighbours(c) {
            let nb = nb as usize;
            if nb != u32::MAX as usize && st.is_empty(nb) && !planned[nb] {
                let k = scores[nb] as usize;
                levels[k * words + nb / 64] &= !(1 << (nb % 64));
                levels[(k + FILLED) * words + nb / 64] |= 1 << (nb % 64);
                scores[nb] += FILLED as u8;
            }
        }
    }
    order
}

/// The order of `order:deep`: scan's lines (columns when the board is wider than tall,
/// as `scan` runs them), with the cells *walled in* by a filled cell moved to the end,
/// in the lines' order. A cell is walled in when
/// its right or lower neighbour is filled: along either lines those are the sides the
/// order reaches later, so such a cell has a side more to match than the cells around
/// it, and in a row order it comes deep in the tree, where few pieces are left.
///
/// **Why:** for the deepest board within a time limit (auto's goal when the solutions
/// are out of reach), not for solutions. Eternity II with its five hints, one thread,
/// 1e9 nodes: rows end at depth 200, at the cell above the hint at (13,13); with the
/// walled cells last, 207 (the rows then reach 203 cells before one with three sides to
/// match). The tree to the bottom is bigger: the walled cells are filled last, with
/// four sides each. Memoryless as [`plan`] is: filling cells in this order walls in
/// no other cell (a cell's right and lower neighbours come after it in the lines), so
/// the order of a board part-filled by it is the rest of the root's.
pub fn deep(st: &State) -> Vec<u32> {
    let filled = |nb: u32| nb != u32::MAX && !st.is_empty(nb as usize);
    let walled = |c: usize| [RIGHT, DOWN].iter().any(|&s| filled(st.neighbours(c)[s]));
    let columns = scans_columns(st.width, st.height);
    let (last, first): (Vec<u32>, Vec<u32>) = Plan::Lines { columns }
        .order(st)
        .into_iter()
        .partition(|&c| walled(c as usize));
    first.into_iter().chain(last).collect()
}

/// The order of `order:spiral`: the empty cells of `st` clockwise from the top-left
/// corner, outside in, ring by ring (each ring: its top row left to right, its right
/// column down, its bottom row right to left, its left column up).
pub fn spiral(st: &State) -> Vec<u32> {
    spiral_cells(st.width, st.height)
        .into_iter()
        .filter(|&c| st.is_empty(c as usize))
        .collect()
}

/// Every cell of a `width` x `height` board in spiral order.
pub fn spiral_cells(width: usize, height: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(width * height);
    let (mut top, mut left) = (0usize, 0usize);
    let (mut bottom, mut right) = (height, width); // exclusive
    let at = |r: usize, c: usize| (r * width + c) as u32;
    while top < bottom && left < right {
        out.extend((left..right).map(|c| at(top, c)));
        out.extend((top + 1..bottom).map(|r| at(r, right - 1)));
        if bottom - top > 1 {
            out.extend((left..right - 1).rev().map(|c| at(bottom - 1, c)));
        }
        if right - left > 1 {
            out.extend((top + 1..bottom - 1).rev().map(|r| at(r, left)));
        }
        (top, left, bottom, right) = (top + 1, left + 1, bottom - 1, right - 1);
    }
    out
}

/// The lowest set bit of a bitset.
fn lowest(set: &[u64]) -> Option<usize> {
    set.iter()
        .enumerate()
        .find(|(_, &w)| w != 0)
        .map(|(k, &w)| k * 64 + w.trailing_zeros() as usize)
}

/// A static fill order of the empty cells, as the row-scan driver runs it: scan's
/// lines, or a planned order ([`crate::search::plan`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Along columns (`columns`) or rows: [`RowScan::new`].
    Lines { columns: bool },
    /// `order:spiral`: clockwise from the top-left, outside in.
    Spiral,
    /// `order:hints`: grown from the hints ([`crate::search::plan::plan`]).
    Hints,
    /// `order:deep`: scan's lines, the cells walled in by a hint last ([`deep`]).
    Deep,
    /// `order:FILE`: the cells a file lists ([`Given`]).
    Given(&'static Given),
}

/// A user's order of the cells (`order:FILE`): one cell per line, `ROW COL`, 0-based
/// from the top-left; `#` starts a comment. Listed cells that are filled (hints, or
/// placed above a subproblem) are skipped; empty cells the file leaves out follow in
/// row order, so a file may give just where to start. Read once, when `--select` is
/// parsed, and kept for the run (a `Plan` is copied into every selector).
#[derive(Debug, PartialEq, Eq)]
pub struct Given {
    /// The path as given: `order:PATH` prints it, and a checkpoint reads it again.
    pub path: String,
    /// `(row, column, line)` in the file's order, each cell once.
    pub cells: Vec<(usize, usize, usize)>,
}

impl Given {
    /// Reads `order:PATH`'s file: errors as `PATH:LINE: what`.
    pub fn read(path: &str) -> Result<&'static Given, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{path}: cannot read the order file ({e})"))?;
        let mut cells = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let body = line.split('#').next().unwrap_or("").trim();
            if body.is_empty() {
                continue;
            }
            let nums: Vec<Option<usize>> =
                body.split_whitespace().map(|t| t.parse().ok()).collect();
            let (r, c) = match nums.as_slice() {
                [Some(r), Some(c)] => (*r, *c),
                _ => {
                    return Err(format!(
                        "{path}:{line_no}: expected 'ROW COL' (0-based), found '{body}'"
                    ))
                }
            };
            if let Some(&(_, _, first)) = cells.iter().find(|&&(r0, c0, _)| (r0, c0) == (r, c)) {
                return Err(format!(
                    "{path}:{line_no}: cell {r} {c} is listed twice (first on line {first})"
                ));
            }
            cells.push((r, c, line_no));
        }
        // Kept for the rest of the process: a `Plan` is `Copy`, and the file is read
        // once per `--select` value.
        Ok(Box::leak(Box::new(Given {
            path: path.to_string(),
            cells,
        })))
    }

    /// A one-line error when a listed cell is off a `width` x `height` board.
    pub fn check(&self, width: usize, height: usize) -> Result<(), String> {
        match self.cells.iter().find(|&&(r, c, _)| r >= height || c >= width) {
            Some(&(r, c, line)) => Err(format!(
                "{}:{line}: cell {r} {c} is off the {width}x{height} board (rows 0..{height}, columns 0..{width})",
                self.path
            )),
            None => Ok(()),
        }
    }
}

impl Plan {
    /// The order's cells among the empty cells of `st`.
    pub fn order(self, st: &State) -> Vec<u32> {
        match self {
            Plan::Lines { columns } => {
                let (w, h) = (st.width, st.height);
                let cell =
                    |line: usize, i: usize| if columns { i * w + line } else { line * w + i };
                let (lines, len) = if columns { (w, h) } else { (h, w) };
                (0..lines)
                    .flat_map(|l| (0..len).map(move |i| cell(l, i)))
                    .filter(|&c| st.is_empty(c))
                    .map(|c| c as u32)
                    .collect()
            }
            Plan::Spiral => spiral(st),
            Plan::Hints => plan(st),
            Plan::Deep => deep(st),
            Plan::Given(g) => {
                let (w, h) = (st.width, st.height);
                let listed = (g.cells.iter())
                    .filter(|&&(r, c, _)| r < h && c < w)
                    .map(|&(r, c, _)| r * w + c);
                let mut seen = vec![false; w * h];
                listed
                    .chain(0..w * h)
                    .filter(|&c| st.is_empty(c) && !std::mem::replace(&mut seen[c], true))
                    .map(|c| c as u32)
                    .collect()
            }
        }
    }

    /// The driver's tables for this order from `st` (its filled cells static).
    pub fn tables(self, st: &State) -> RowScan {
        match self {
            Plan::Lines { columns } => RowScan::new(st, columns),
            _ => RowScan::with_order(st, self.order(st)),
        }
    }
}
