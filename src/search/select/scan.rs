//! `scan`: fill the cells line by line from the top-left, along rows, or along
//! columns when the board is wider than tall (a much smaller tree); no lookahead.
//! `scan:rows` and `scan:columns` fix the lines whatever the shape.
//! Searches run on its own driver ([`RowScan`], chosen by [`crate::search::engine`]); `pick` serves the generic driver's
//! other users (frontier, probes, `explain`) and boards not filled in scan order.

use super::pick::{Pick, Select};
use crate::puzzle::scans_columns;
use crate::search::rowscan::RowScan;
use crate::search::state::State;
use std::sync::Arc;

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
pub struct ScanTables(Option<(bool, Arc<RowScan>)>);

impl ScanTables {
    /// No tables: every [`Scan`] builds its own.
    pub fn none() -> ScanTables {
        ScanTables(None)
    }

    /// The tables of a `scan` search along columns (`Some(true)`) or rows on the
    /// puzzle whose hints-only state is `root`; none for None (not a `scan`
    /// heuristic: [`ScanTables::for_search`]).
    pub fn along_lines(root: &State, columns: Option<bool>) -> ScanTables {
        ScanTables(columns.map(|columns| (columns, Arc::new(RowScan::new(root, columns)))))
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
        let tables = match &tables.0 {
            Some((c, t)) if *c == columns => {
                debug_assert_eq!(t.order().len(), st.max_depth(), "tables of another puzzle");
                Arc::clone(t)
            }
            _ => Arc::new(RowScan::new(st, columns)),
        };
        Scan { tables }
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
        // When scan made every placement, the cell at depth d is order[d]; a board
        // filled some other way (a job prefix, `explain --moves`) falls back to the
        // first empty cell in order.
        let order = self.tables.order();
        let c = order[st.depth()] as usize;
        if st.is_empty(c) {
            return Pick::Site(c);
        }
        let c = order.iter().find(|&&c| st.is_empty(c as usize));
        Pick::Site(*c.expect("pick is only called with an empty cell") as usize)
    }
}
