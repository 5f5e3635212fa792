//! `scan`: fill the cells line by line from the top-left, along rows, or along
//! columns when the board is wider than tall (a much smaller tree); no lookahead.
//! `scan:rows` and `scan:columns` fix the lines whatever the shape.
//! Searches run on its own driver ([`RowScan`], chosen by [`crate::search::engine`]); `pick` serves the generic driver's
//! other users (frontier, probes, `explain`) and boards not filled in scan order.
//! The same selector carries the planned orders (`order:spiral`, `order:hints`,
//! [`Plan`]): tables built for any static order run on the same driver.

use super::pick::{Named, Pick, Select};
use super::tables::ScanTables;
use crate::puzzle::scans_columns;
use crate::search::plan::{Given, Plan};
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

    /// Whether these lines are columns on a `width` x `height` board.
    pub fn columns(self, width: usize, height: usize) -> bool {
        match self {
            Along::Shape => scans_columns(width, height),
            Along::Rows => false,
            Along::Columns => true,
        }
    }
}

impl Named for Along {
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
        let columns = self.columns(st.width, st.height);
        Scan::planned(st, Plan::Lines { columns }, tables)
    }

    fn instructions_per_node(&self) -> f64 {
        50.0
    }
}

impl Named for Plan {
    const SYNTAXES: &'static [(&'static str, &'static str)] = &[
        ("order:spiral", "a static order: clockwise from the top-left corner, outside in, ring by ring (on scan's driver)"),
        ("order:hints", "a static order grown from the hints: next the empty cell with the most sides on the rim or a filled cell; ties: lowest cell index (on scan's driver)"),
        ("order:deep", "scan's lines with the cells walled in by a hint (one on their right or below) last: deeper boards within a time limit, a bigger tree to the solutions (on scan's driver)"),
        ("order:FILE", "a static order read from FILE: one 'ROW COL' per line (0-based); empty cells it leaves out follow in row order (on scan's driver)"),
    ];
    type Selector = Scan;

    fn parse(s: &str) -> Option<Result<Plan, String>> {
        Some(Ok(match s.strip_prefix("order:")? {
            "spiral" => Plan::Spiral,
            "hints" => Plan::Hints,
            "deep" => Plan::Deep,
            path => return Some(Given::read(path).map(Plan::Given)),
        }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Plan::Spiral => f.write_str("order:spiral"),
            Plan::Hints => f.write_str("order:hints"),
            Plan::Deep => f.write_str("order:deep"),
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

impl Scan {
    pub fn new(st: &State) -> Scan {
        Scan::along(st, scans_columns(st.width, st.height))
    }

    /// `scan` along columns (`columns`) or rows, whatever the board's shape.
    pub fn along(st: &State, columns: bool) -> Scan {
        Scan::planned(st, Plan::Lines { columns }, &ScanTables::none())
    }

    /// The selector of `plan`'s order, on `tables` when they were built for it, else
    /// on tables of its own built from `st`. `tables` must come from
    /// [`ScanTables::for_search`] on `st`'s puzzle (its hints-only state).
    pub fn planned(st: &State, plan: Plan, tables: &ScanTables) -> Scan {
        let tables = match tables.of(plan) {
            Some(t) => {
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
