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

use super::pick::{Named, Pick, Select};
use super::ply::MAX_PLY;
use super::tables::ScanTables;
use super::{Mrv, Ply, PlyN};
use crate::search::plan;
use crate::search::state::State;
use std::fmt;

/// `ply:N@D` (`mrv@D` when `n` is 0) as `--select` names it: that heuristic for the
/// first `at` placements beyond the hints, then each subtree in its planned order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switch {
    /// The ply of the dynamic part; 0 for mrv.
    pub n: u8,
    /// D: the placements beyond the hints made by the dynamic part.
    pub at: u16,
}

impl Switch {
    /// The instructions per node of its dynamic part, above D (its
    /// [`Named::instructions_per_node`] are its planned part's).
    pub fn dynamic_instructions_per_node(&self) -> f64 {
        match self.n {
            0 => Mrv.instructions_per_node(),
            n => PlyN { n, adj: false }.instructions_per_node(),
        }
    }

    /// The instructions to plan a subtree at depth D and build its tables, on a board of
    /// `open` empty cells and `orientations` oriented pieces: about 32 per pair
    /// (callgrind, `--toggle-collect` of the table builds, ply:2@7 `--all`: 26 on
    /// Puzzle C with five hints, 41 on b7x5_col3, 40 on g7x6_col3). Where subtrees are
    /// small they cost more than their nodes (Puzzle C: 400,000 instructions a build,
    /// 2,500 nodes a subtree).
    pub fn instructions_per_subtree(open: usize, orientations: usize) -> f64 {
        32.0 * open as f64 * orientations as f64
    }
}

impl Named for Switch {
    const SYNTAXES: &'static [(&'static str, &'static str)] = &[
        ("ply:N@D", "ply:N for the first D placements beyond the hints, then each subtree in its planned order (docs/guide.md)"),
        ("mrv@D", "mrv for the first D placements beyond the hints, then each subtree in its planned order"),
    ];
    type Selector = Hybrid;

    fn parse(s: &str) -> Option<Result<Switch, String>> {
        let (head, at) = s.split_once('@')?;
        let n = match head {
            "mrv" => Some(0),
            _ => head
                .strip_prefix("ply:")
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| (1..=MAX_PLY as u8).contains(n)),
        };
        Some(match (n, at.parse::<u16>()) {
            (Some(n), Ok(at)) => Ok(Switch { n, at }),
            _ => Err(format!(
                "bad heuristic '{s}': expected ply:N@D (N in 1..={MAX_PLY}) or mrv@D, D a depth (0..=65535)"
            )),
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.n {
            0 => write!(f, "mrv@{}", self.at),
            n => write!(f, "ply:{n}@{}", self.at),
        }
    }

    fn selector(self, st: &State, _: &ScanTables) -> Hybrid {
        let inner = match self.n {
            0 => Lookahead::Mrv(Mrv),
            n => Lookahead::Ply(Ply::new(st, n as usize, false)),
        };
        Hybrid::new(inner, self.at as usize)
    }

    /// A hybrid's nodes are mostly its planned part's.
    fn instructions_per_node(&self) -> f64 {
        100.0
    }
}

/// The dynamic heuristic of a hybrid, chosen at run time: one selector type for every
/// hybrid, so that the search code is compiled once for them all (a type per inner
/// heuristic made a fresh clone's build about a minute longer), at the cost of a
/// predictable branch per pick. Not boxed: one per thread, read at every pick.
#[allow(clippy::large_enum_variant)]
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
