//! Live progress for the status line (`cli/status.rs`): process-wide atomics that the
//! depth-first driver bumps at its poll points (every few thousand nodes) and on each
//! solution, never per node. Workers of the parallel search add into the same totals.
//! Display only: the exact counts are in each search's [`super::Stats`].

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

pub struct Progress {
    nodes: AtomicU64,
    deepest: AtomicUsize,
    solutions: AtomicU64,
    /// Nodes a checkpoint brought (counted before this process): shown, not in the rate.
    resumed: AtomicU64,
}

/// The one progress record of this process.
pub static PROGRESS: Progress = Progress {
    nodes: AtomicU64::new(0),
    deepest: AtomicUsize::new(0),
    solutions: AtomicU64::new(0),
    resumed: AtomicU64::new(0),
};

impl Progress {
    #[inline]
    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }

    #[inline]
    pub fn note_depth(&self, d: usize) {
        self.deepest.fetch_max(d, Ordering::Relaxed);
    }

    #[inline]
    pub fn add_solution(&self) {
        self.solutions.fetch_add(1, Ordering::Relaxed);
    }

    /// A checkpoint's finished subproblems: their nodes and solutions.
    pub fn add_resumed(&self, nodes: u64, solutions: u64) {
        self.resumed.fetch_add(nodes, Ordering::Relaxed);
        self.solutions.fetch_add(solutions, Ordering::Relaxed);
    }

    /// Nodes counted before this process ([`Progress::add_resumed`]).
    pub fn resumed(&self) -> u64 {
        self.resumed.load(Ordering::Relaxed)
    }

    /// (nodes searched by this process, deepest depth, solutions) so far, approximately.
    pub fn snapshot(&self) -> (u64, usize, u64) {
        (
            self.nodes.load(Ordering::Relaxed),
            self.deepest.load(Ordering::Relaxed),
            self.solutions.load(Ordering::Relaxed),
        )
    }
}
