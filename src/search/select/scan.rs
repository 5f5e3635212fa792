//! `scan`: fill the cells line by line from the top-left, along rows, or along
//! columns when the board is wider than tall (a much smaller tree); no lookahead.
//! `scan:rows` and `scan:columns` fix the lines whatever the shape.
//! Searches run on its own driver ([`RowScan`], chosen by [`crate::search::engine`]); `pick` serves the generic driver's
//! other users (frontier, probes, `explain`) and boards not filled in scan order.
//! The same selector carries the planned orders (`order:spiral`, `order:hints`,
//! [`Plan`]): tables built for any static order run on the same driver.

use super::heuristic::Entry;
use super::pick::{Pick, Select};
use crate::puzzle::scans_columns;
use crate::search::plan::{plan, spiral};
use crate::search::rowscan::RowScan;
use crate::search::state::State;
use std::fmt;
use std::sync::Arc;

/// Which lines `scan` fills (`--select scan`, `scan:rows`, `scan:columns`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Along {
    /// `scan`: rows, or columns when the board is wider than tall.
    Shape,
    /// `scan:rows`, whatever the board's shape.
    Rows,
    /// `scan:columns`, whatever the board's shape.
    Columns,
}

impl Along {
    /// `scan:columns` (`columns`) or `scan:rows`.
    pub fn fixed(columns: bool) -> Along {
        if columns {
            Along::Columns
        } else {
            Along::Rows
        }
    }

    /// Columns (`Some(true)`) or rows; None when the board's shape decides.
    pub fn columns(self) -> Option<bool> {
        match self {
            Along::Shape => None,
            Along::Rows => Some(false),
            Along::Columns => Some(true),
        }
    }
}

impl Entry for Along {
    const SYNTAXES: &'static [(&'static str, &'static str)] = &[
        ("scan", "rows from the top-left (columns when wider than tall), no lookahead (the textbook backtracker)"),
        ("scan:rows", "as scan, always along rows"),
        ("scan:columns", "as scan, always along columns"),
    ];
    type Selector = Scan;

    fn parse(s: &str) -> Option<Result<Along, String>> {
        let along = match s {
            "scan" => Along::Shape,
            "scan:rows" => Along::Rows,
            "scan:columns" => Along::Columns,
            _ => return None,
        };
        Some(Ok(along))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Along::Shape => "scan",
            Along::Rows => "scan:rows",
            Along::Columns => "scan:columns",
        })
    }

    fn selector(self, st: &State, tables: &ScanTables) -> Scan {
        Scan::sharing(st, self.columns(), tables)
    }

    fn instructions_per_node(&self) -> f64 {
        50.0
    }
}

impl Entry for Plan {
    const SYNTAXES: &'static [(&'static str, &'static str)] = &[
        ("order:spiral", "a static order: clockwise from the top-left corner, outside in, ring by ring (on scan's driver)"),
        ("order:hints", "a static order grown from the hints: next the empty cell with the most sides on the rim or a filled cell; ties: lowest cell index (on scan's driver)"),
        ("order:FILE", "a static order read from FILE: one 'ROW COL' per line (0-based); empty cells it leaves out follow in row order (on scan's driver)"),
    ];
    type Selector = Scan;

    fn parse(s: &str) -> Option<Result<Plan, String>> {
        Some(Ok(match s.strip_prefix("order:")? {
            "spiral" => Plan::Spiral,
            "hints" => Plan::Hints,
            path => return Some(Given::read(path).map(Plan::Given)),
        }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Plan::Spiral => f.write_str("order:spiral"),
            Plan::Hints => f.write_str("order:hints"),
            Plan::Given(g) => write!(f, "order:{}", g.path),
            // Not an `order:` value: scan's lines print as scan's.
            Plan::Lines { columns: false } => f.write_str("scan:rows"),
            Plan::Lines { columns: true } => f.write_str("scan:columns"),
        }
    }

    fn selector(self, st: &State, tables: &ScanTables) -> Scan {
        Scan::planned(st, self, tables)
    }

    /// The planned-order driver (Puzzle D: order:hints 68, order:spiral 71).
    fn instructions_per_node(&self) -> f64 {
        70.0
    }
}

pub struct Scan {
    /// Read only: shared by every subproblem of a parallel search ([`ScanTables`]).
    tables: Arc<RowScan>,
}

/// `scan`'s tables for one search, built once from its hints-only state and shared,
/// read only, by all its subproblems and threads ([`crate::search::parallel`]), so
/// that a subproblem does not pay the time and memory of a build of its own (a run
/// has tens to thousands of subproblems: Brendan's 6x6 with colours 201-208, `--all`
/// on 2 threads, took 10.1 s and 421 MB when each built its own tables, keyed by the
/// colours' numbers; 1.7 s and 6.6 MB now, keyed densely). Empty for the other
/// heuristics.
#[derive(Clone, Default)]
pub struct ScanTables(Option<(Plan, Arc<RowScan>)>);

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

impl ScanTables {
    /// No tables: every [`Scan`] builds its own.
    pub fn none() -> ScanTables {
        ScanTables(None)
    }

    /// The tables of a `scan` search along columns (`Some(true)`) or rows on the
    /// puzzle whose hints-only state is `root`; none for None (not a `scan`
    /// heuristic: [`ScanTables::for_search`]).
    pub fn along_lines(root: &State, columns: Option<bool>) -> ScanTables {
        ScanTables::planned(root, columns.map(|columns| Plan::Lines { columns }))
    }

    /// The tables of `plan` (None: none) on the puzzle whose hints-only state is `root`.
    pub fn planned(root: &State, plan: Option<Plan>) -> ScanTables {
        ScanTables(plan.map(|p| (p, Arc::new(p.tables(root)))))
    }
}

impl Scan {
    pub fn new(st: &State) -> Scan {
        Scan::along(st, scans_columns(st.width, st.height))
    }

    /// `scan` along columns (`columns`) or rows, whatever the board's shape.
    pub fn along(st: &State, columns: bool) -> Scan {
        Scan::sharing(st, Some(columns), &ScanTables::none())
    }

    /// `scan` along columns (`columns`; None: the default for the board's shape),
    /// on `tables` when they were built for that order, else on tables of its own.
    /// `tables` must come from [`ScanTables::for_search`] on `st`'s puzzle (its
    /// hints-only state).
    pub fn sharing(st: &State, columns: Option<bool>, tables: &ScanTables) -> Scan {
        let columns = columns.unwrap_or_else(|| scans_columns(st.width, st.height));
        Scan::planned(st, Plan::Lines { columns }, tables)
    }

    /// The selector of `plan`'s order, on `tables` when they were built for it (as
    /// [`Scan::sharing`]), else on tables of its own built from `st`.
    pub fn planned(st: &State, plan: Plan, tables: &ScanTables) -> Scan {
        let tables = match &tables.0 {
            Some((p, t)) if *p == plan => {
                debug_assert_eq!(
                    t.order().len() + t.base(),
                    st.max_depth(),
                    "tables of another puzzle"
                );
                Arc::clone(t)
            }
            _ => Arc::new(plan.tables(st)),
        };
        Scan { tables }
    }

    /// The selector on `tables`, built for any order ([`RowScan::with_order`]).
    pub fn on(tables: RowScan) -> Scan {
        Scan {
            tables: Arc::new(tables),
        }
    }

    /// `scan` (along columns if `columns`) on the list driver even where its mask
    /// mode applies (at most 64 pieces): for tests of the list driver on small boards.
    pub fn listed(st: &State, columns: bool) -> Scan {
        Scan {
            tables: Arc::new(RowScan::new(st, columns).without_masks()),
        }
    }

    /// The tables, and with them the row-scan driver ([`crate::search::engine`]).
    pub fn tables(&self) -> &RowScan {
        &self.tables
    }

    /// True when searches run in mask mode (see [`RowScan`]).
    pub fn masked(&self) -> bool {
        self.tables.masked()
    }
}

impl Select for Scan {
    #[inline]
    fn pick(&mut self, st: &mut State) -> Pick {
        // When scan made every placement, the cell at depth d is order[d - base]; a
        // board filled some other way (a job prefix, `explain --moves`) falls back to
        // the first empty cell in order (or on the board, for a cell the tables took
        // as filled).
        let order = self.tables.order();
        let d = st.depth().wrapping_sub(self.tables.base());
        if let Some(&c) = order.get(d) {
            if st.is_empty(c as usize) {
                return Pick::Site(c as usize);
            }
        }
        let c = order.iter().map(|&c| c as usize).find(|&c| st.is_empty(c));
        let c = c.or_else(|| (0..st.cells()).find(|&c| st.is_empty(c)));
        Pick::Site(c.expect("pick is only called with an empty cell"))
    }
}
