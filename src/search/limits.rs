//! The bottom of the search: when to stop ([`Limits`], [`Stop`]), what a search counts
//! ([`Stats`]), and where work and solutions go besides the search itself ([`Share`],
//! [`Sink`]). Every driver (the generic one, row-scan, the parallel run) and every
//! probe imports these; this file imports nothing of the search but the state.

use super::progress::PROGRESS;
use super::state::State;
use crate::puzzle::{verify, Board, Puzzle};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How often (in nodes) the loop looks at the clock and the stop flag.
pub const CHECK_EVERY: u32 = 4096;

/// When to stop early. The default runs to exhaustion.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Count at most this many nodes (the start node included). Each node counted is
    /// seen through (a solution recorded, or its candidates listed), so a tree that
    /// ends within the budget is searched to exhaustion.
    pub max_nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after finding this many solutions.
    pub max_solutions: Option<u64>,
    /// Keep at most this many solution boards (all are counted).
    pub keep: usize,
    /// Offer the boards to this sink instead of keeping them (`keep` then does not
    /// apply): a parallel run's holders offer theirs to one shelf, which keeps the
    /// run's first `keep` ([`super::parallel::shelf`]).
    pub shelf: Option<Arc<dyn Sink>>,
}

/// Why a search ended before exhausting its tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    MaxNodes,
    Timeout,
    Interrupted,
    Solutions,
}

/// What one search found and counted.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub nodes_per_depth: Vec<u64>,
    pub solutions_found: u64,
    pub solutions: Vec<Board>,
    pub deepest: usize,
    pub deepest_board: Board,
    pub stopped: Option<Stop>,
}

impl Stats {
    pub fn nodes(&self) -> u64 {
        self.nodes_per_depth.iter().sum()
    }

    /// Adds another search's counts (disjoint subtrees, `other` after this one in search
    /// order) into this one. The deepest board is the first met at the greatest depth;
    /// a checkpoint record may hold a depth without its board (it is never the first
    /// at the greatest depth, [`super::parallel::compact`]), which no shallower board replaces.
    pub fn merge(&mut self, other: &Stats, keep: usize) {
        if self.nodes_per_depth.len() < other.nodes_per_depth.len() {
            self.nodes_per_depth.resize(other.nodes_per_depth.len(), 0);
        }
        for (a, b) in self.nodes_per_depth.iter_mut().zip(&other.nodes_per_depth) {
            *a += b;
        }
        self.solutions_found += other.solutions_found;
        let room = keep.saturating_sub(self.solutions.len());
        self.solutions
            .extend(other.solutions.iter().take(room).cloned());
        if other.deepest > self.deepest
            || self.deepest_board.is_empty() && other.deepest >= self.deepest
        {
            self.deepest = other.deepest;
            self.deepest_board.clone_from(&other.deepest_board);
        }
        self.stopped = self.stopped.or(other.stopped);
    }
}

/// Work sharing, for the parallel driver (`search/parallel.rs`): at every poll (each
/// [`CHECK_EVERY`] nodes) the search asks `wants`; when it says yes, the search offers
/// the untried placements at its shallowest open depth to `take`, and drops them from
/// its own stack if `take` accepts. Whoever receives them searches those subtrees, so
/// counts stay exact. The per-node path is unchanged.
pub trait Share {
    /// Would an idle worker take work now? (A plain atomic load.)
    fn wants(&mut self) -> bool;
    /// `path`: the placements from the start node down to the node whose untried
    /// placements at `site` are the bitset `untried`. Returns true if taken.
    fn take(&mut self, path: &[(usize, u32)], site: usize, untried: &[u64]) -> bool;
    /// Whether a search that a limit (the solution limit too) or an interrupt stops should hand over the rest of
    /// its tree ([`Share::rest`]). When true, such a search has counted its part and
    /// handed over everything else: the two are its whole subtree, so a checkpoint can
    /// record it as finished. Otherwise a budget smaller than one subproblem would redo
    /// the same work on every run.
    fn wants_rest(&self) -> bool {
        false
    }
    /// At such a stop, the untried placements at `site` below `path`, one call per open
    /// depth (the node counted last opened first). Never refused.
    fn rest(&mut self, _path: &[(usize, u32)], _site: usize, _untried: &[u64]) {}
}

/// Where a search's solution boards go when not into its own [`Stats`]
/// ([`Limits::shelf`]): offered one by one, in the search's order, from the drivers'
/// solution path (never per node).
pub trait Sink: Send + Sync + std::fmt::Debug {
    /// Offers the search's next solution board; false if it is not kept.
    fn offer(&self, board: Board) -> bool;
}

/// Never shares: the single-thread search.
pub struct NoShare;

impl Share for NoShare {
    #[inline]
    fn wants(&mut self) -> bool {
        false
    }
    fn take(&mut self, _: &[(usize, u32)], _: usize, _: &[u64]) -> bool {
        false
    }
}

/// The stats of a search starting at `st`'s node (nothing counted yet).
pub(crate) fn start_stats(st: &State) -> Stats {
    Stats {
        nodes_per_depth: vec![0; st.max_depth() + 1],
        deepest: st.depth(),
        deepest_board: st.board(),
        ..Stats::default()
    }
}

/// The periodic check (every `every` nodes, [`CHECK_EVERY`] or the selector's
/// [`Select::check_every`]): publishes progress and says whether to stop (stop flag,
/// deadline).
#[cold]
pub(crate) fn poll(stats: &Stats, every: u32, limits: &Limits, stop: &AtomicBool) -> Option<Stop> {
    PROGRESS.add_nodes(every as u64);
    PROGRESS.note_depth(stats.deepest);
    stop_reason(limits, stop)
}

/// Why a run must stop now, if it must: the stop flag (Ctrl-C) first, then the
/// deadline.
pub(crate) fn stop_reason(limits: &Limits, stop: &AtomicBool) -> Option<Stop> {
    if stop.load(Ordering::Relaxed) {
        Some(Stop::Interrupted)
    } else if limits.deadline.is_some_and(|t| Instant::now() >= t) {
        Some(Stop::Timeout)
    } else {
        None
    }
}

/// Checks a full board with the independent checker, then counts and maybe keeps it.
pub(crate) fn record_solution(board: Board, puzzle: &Puzzle, limits: &Limits, stats: &mut Stats) {
    if let Err(v) = verify::check(puzzle, &board, true) {
        panic!("internal error: the search produced a board the checker rejects: {v}");
    }
    stats.solutions_found += 1;
    PROGRESS.add_solution();
    match &limits.shelf {
        Some(sink) => {
            sink.offer(board);
        }
        None if stats.solutions.len() < limits.keep => stats.solutions.push(board),
        None => {}
    }
}

/// A stop as the text reports say it.
pub fn stop_text(s: Stop) -> &'static str {
    match s {
        Stop::MaxNodes => "--max-nodes reached",
        Stop::Timeout => "--timeout reached",
        Stop::Interrupted => "interrupted",
        Stop::Solutions => "solution limit reached",
    }
}
