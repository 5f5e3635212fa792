//! The tables of the row-scan driver that a search shares among its selectors
//! ([`ScanTables`]): `scan`'s and the planned orders'.

use crate::search::plan::Plan;
use crate::search::rowscan::RowScan;
use crate::search::state::State;
use std::sync::Arc;

/// `scan`'s tables for one search, built once from its hints-only state and shared,
/// read only, by all its subproblems and threads ([`crate::search::parallel`]), so
/// that a subproblem does not pay the time and memory of a build of its own (a run
/// has tens to thousands of subproblems: Brendan's 6x6 with colours 201-208, `--all`
/// on 2 threads, took 10.1 s and 421 MB when each built its own tables, keyed by the
/// colours' numbers; 1.7 s and 6.6 MB now, keyed densely). Empty for the other
/// heuristics.
#[derive(Clone, Default)]
pub struct ScanTables(Option<(Plan, Arc<RowScan>)>);

impl ScanTables {
    /// No tables: every `Scan` builds its own.
    pub fn none() -> ScanTables {
        ScanTables(None)
    }

    /// The tables of `plan` (None: none) on the puzzle whose hints-only state is `root`.
    pub fn planned(root: &State, plan: Option<Plan>) -> ScanTables {
        ScanTables(plan.map(|p| (p, Arc::new(p.tables(root)))))
    }

    /// The tables, when they were built for `plan`.
    pub fn of(&self, plan: Plan) -> Option<&Arc<RowScan>> {
        self.0.as_ref().filter(|(p, _)| *p == plan).map(|(_, t)| t)
    }
}
