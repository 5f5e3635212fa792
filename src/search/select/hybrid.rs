//! `ply:N@D` and `mrv@D`: a dynamic heuristic for the first D placements beyond the
//! hints, then a planned order ([`crate::search::plan`]) for the rest of each subtree.
//!
//! The lookahead pays where it is decisive (near the root and around hints, where a
//! node is worth far more than it costs) and nowhere else. D counts placements from the
//! hints-only board, not from the node a search starts at, so that a parallel run's
//! subproblems, shards and jobs search the same tree as one thread. The planned order
//! is memoryless, so [`Hybrid::pick`] below depth D (the plan's first cell, in
//! O(cells)) and the planned-order driver that [`crate::search::engine`] hands each
//! depth-D subtree to walk the same tree; this file only answers the generic driver's
//! other users (frontier, probes, `explain`, `--factor`).

use super::pick::{Pick, Select};
use super::{Mrv, Ply};
use crate::search::plan;
use crate::search::state::State;

/// The dynamic heuristic of a hybrid, chosen at run time: one selector type for every
/// hybrid, so that the search code is compiled once for them all (a type per inner
/// heuristic made a fresh clone's build about a minute longer), at the cost of a
/// predictable branch per pick.
pub enum Lookahead {
    Mrv(Mrv),
    Ply(Ply),
}

impl Select for Lookahead {
    #[inline]
    fn pick(&mut self, st: &mut State) -> Pick {
        match self {
            Lookahead::Mrv(s) => s.pick(st),
            Lookahead::Ply(s) => s.pick(st),
        }
    }

    fn pick_in(&mut self, st: &mut State, cells: &[u32]) -> Pick {
        match self {
            Lookahead::Mrv(s) => s.pick_in(st, cells),
            Lookahead::Ply(s) => s.pick_in(st, cells),
        }
    }

    fn check_every(&self) -> u32 {
        match self {
            Lookahead::Mrv(s) => s.check_every(),
            Lookahead::Ply(s) => s.check_every(),
        }
    }
}

pub struct Hybrid<S = Lookahead> {
    /// The dynamic heuristic above depth `at`.
    pub inner: S,
    /// The first depth (placements beyond the hints) whose subtrees are planned.
    pub at: usize,
}

impl<S: Select> Hybrid<S> {
    pub fn new(inner: S, at: usize) -> Hybrid<S> {
        Hybrid { inner, at }
    }
}

impl<S: Select> Select for Hybrid<S> {
    #[inline]
    fn pick(&mut self, st: &mut State) -> Pick {
        if st.depth() < self.at {
            self.inner.pick(st)
        } else {
            Pick::Site(plan::next(st).expect("pick is only called with an empty cell"))
        }
    }

    fn pick_in(&mut self, st: &mut State, cells: &[u32]) -> Pick {
        if st.depth() < self.at {
            self.inner.pick_in(st, cells)
        } else {
            // A static order keeps its cell, as `scan` does (see `Select::pick_in`).
            self.pick(st)
        }
    }

    // Not DEAD_ON_ZERO: below depth D a dead cell ends a branch only when the plan
    // reaches it, as on the planned-order driver.

    fn check_every(&self) -> u32 {
        self.inner.check_every()
    }
}
