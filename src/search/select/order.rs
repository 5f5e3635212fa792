//! Least-penalty ordering (Rivest, "Game Tree Searching by Min/Max Approximation"): which subproblem or placement to try first.
//!
//! Counts never change: an exhaustive search visits the same nodes in any order. What
//! changes is which solutions come first, so the time to the first solution.
//! - `--order penalty`: the frontier's subproblems (parallel search) are started in
//!   increasing order of [`log_options`] over their empty cells, the log of the
//!   product of the candidate counts: a crude prediction of the subtree's size, so
//!   the subtrees predicted smallest are finished first.
//! - `--move-order penalty`: at every node the placements at the chosen site are
//!   tried in decreasing order of [`log_options`] over the site's empty neighbours
//!   after the placement (the least constraining placement first); a placement that
//!   leaves a neighbour without candidates goes last.

use super::pick::{Pick, Select};
use crate::search::state::State;
use std::fmt;
use std::str::FromStr;

/// The order in which to try subproblems or placements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Search order: lowest prefix / lowest oriented piece first.
    #[default]
    Natural,
    /// Least penalty first (module doc).
    Penalty,
}

impl FromStr for Order {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "natural" => Ok(Order::Natural),
            "penalty" => Ok(Order::Penalty),
            _ => Err(format!("unknown order '{s}'; expected natural or penalty")),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Natural => "natural",
            Order::Penalty => "penalty",
        })
    }
}

/// Sum of ln(candidate count) over the empty ones of `cells`; -inf when one has
/// none. Cells not empty are skipped.
pub fn log_options(st: &State, cells: impl IntoIterator<Item = u32>) -> f64 {
    let mut sum = 0.0;
    for c in cells {
        if c != u32::MAX && st.is_empty(c as usize) {
            let n = st.count(c as usize);
            if n == 0 {
                return f64::NEG_INFINITY;
            }
            sum += (n as f64).ln();
        }
    }
    sum
}

/// The penalty of the placement just made at `site` under `--move-order penalty`:
/// minus [`log_options`] over the site's neighbours (the least constraining placement
/// scores lowest; one that starves a neighbour, +inf). The search sorts the tries at a
/// node by it, and the parallel merge keys subproblems by it.
pub fn move_penalty(st: &State, site: usize) -> f64 {
    -log_options(st, *st.neighbours(site))
}

/// Wraps a heuristic to try the placements at each site least constraining first.
pub struct Ordered<S> {
    inner: S,
    /// (penalty, oriented piece) of the placements being ordered.
    scored: Vec<(f64, u32)>,
}

impl<S: Select> Ordered<S> {
    pub fn new(inner: S, st: &State) -> Ordered<S> {
        Ordered {
            inner,
            scored: Vec::with_capacity(st.edges.len()),
        }
    }
}

impl<S: Select> Select for Ordered<S> {
    #[inline]
    fn pick(&mut self, st: &mut State) -> Pick {
        self.inner.pick(st)
    }

    #[inline]
    fn pick_in(&mut self, st: &mut State, cells: &[u32]) -> Pick {
        self.inner.pick_in(st, cells)
    }

    const DEAD_ON_ZERO: bool = S::DEAD_ON_ZERO;

    fn check_every(&self) -> u32 {
        self.inner.check_every()
    }

    const ORDERS_MOVES: bool = true;

    fn order_moves(
        &mut self,
        st: &mut State,
        site: usize,
        cands: &[u64],
        out: &mut [u32],
    ) -> usize {
        self.scored.clear();
        for (k, &w) in cands.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let o = (k * 64) as u32 + w.trailing_zeros();
                w &= w - 1;
                st.place(site, o);
                self.scored.push((move_penalty(st, site), o));
                st.unplace(site);
            }
        }
        // Equal penalties: lowest oriented piece first. (Unstable sorts do not allocate.)
        self.scored
            .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (slot, &(_, o)) in out.iter_mut().zip(&self.scored) {
            *slot = o;
        }
        self.scored.len()
    }
}
