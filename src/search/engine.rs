//! The engine of each heuristic family: which driver walks the tree. `scan` has a
//! driver of its own ([`super::rowscan`], on the tables its selector carries); every
//! other heuristic, and `scan` wrapped in `--factor` or `--move-order penalty`, runs
//! on the generic depth-first driver ([`super::dfs`]). The choice is made here, by the
//! selector's type, once per monomorphized search: no test per node, and the
//! heuristics themselves know nothing of drivers.

use super::dfs;
use super::limits::{Limits, NoShare, Share, Stats};
use super::select::{Scan, Select};
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
    dfs::search_sharing(st, sel, puzzle, limits, stop, share)
}
