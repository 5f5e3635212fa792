//! The engine of each heuristic family: which driver walks the tree. `scan` has a
//! driver of its own ([`super::rowscan`], on the tables its selector carries); every
//! other heuristic, and `scan` wrapped in `--factor` or `--move-order penalty`, runs
//! on the generic depth-first driver ([`super::dfs`]). A hybrid (`ply:N@D`, `mrv@D`)
//! runs its dynamic part on the generic driver, which hands every subtree at depth D
//! to a search of its planned order ([`Planned`]). The choice is made here, by the
//! selector's type, once per monomorphized search: no test per node, and the
//! heuristics themselves know nothing of drivers.

use super::dfs::{self, Below};
use super::limits::{Limits, NoShare, Share, Stats};
use super::plan;
use super::rowscan::RowScan;
use super::select::{Hybrid, Scan, Select};
use super::state::State;
use crate::puzzle::Puzzle;
use std::any::Any;
use std::sync::atomic::AtomicBool;

/// Searches the subtree below the current node of `st` with `sel` on its family's
/// driver and leaves `st` as it found it ([`dfs::search`] says what is counted).
pub fn search<S: Select + 'static>(
    st: &mut State,
    sel: &mut S,
    puzzle: &Puzzle,
    limits: &Limits,
    stop: &AtomicBool,
) -> Stats {
    search_sharing(st, sel, puzzle, limits, stop, &mut NoShare)
}

/// [`search`] that may give away parts of its tree through `share`.
pub fn search_sharing<S: Select + 'static, W: Share>(
    st: &mut State,
    sel: &mut S,
    puzzle: &Puzzle,
    limits: &Limits,
    stop: &AtomicBool,
    share: &mut W,
) -> Stats {
    // A type test the compiler settles: each instance keeps one of the two arms.
    if let Some(scan) = (sel as &mut dyn Any).downcast_mut::<Scan>() {
        // The row-scan driver counts, orders, stops and shares exactly as the generic
        // one would; it declines a board not filled in scan's order.
        if let Some(stats) = scan.tables().search(st, puzzle, limits, stop, share) {
            return stats;
        }
    }
    if let Some(h) = (sel as &mut dyn Any).downcast_mut::<Hybrid>() {
        let mut below = Planned { at: h.at, puzzle };
        return dfs::search_below(st, h, puzzle, limits, stop, share, &mut below);
    }
    dfs::search_sharing(st, sel, puzzle, limits, stop, share)
}

/// A hybrid's subtrees below depth `at`: each searched in the planned order of its
/// start node's board ([`plan::plan`]), the order [`Hybrid::pick`] follows there.
struct Planned<'a> {
    at: usize,
    puzzle: &'a Puzzle,
}

impl Below for Planned<'_> {
    fn from(&self) -> usize {
        self.at
    }

    fn search<W: Share>(
        &mut self,
        st: &mut State,
        limits: &Limits,
        stop: &AtomicBool,
        share: &mut W,
    ) -> Stats {
        // Tables for this node's board and plan: the memoryless plan is the order
        // Hybrid::pick follows below depth D, so the tree is the same.
        // (The planned driver itself, not `search_sharing`, whose hybrid arms would
        // instantiate this again for every depth of shares.)
        let tables = RowScan::with_order(st, plan::plan(st));
        match tables.search(st, self.puzzle, limits, stop, share) {
            Some(stats) => stats,
            None => unreachable!("tables built for this board fit it"),
        }
    }
}
