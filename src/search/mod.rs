//! The search: state (board and candidate sets), the depth-first driver, and the
//! site-selection heuristics.

pub mod dfs;
pub mod select;
pub mod state;

pub use dfs::{search, Limits, Stats, Stop};
pub use select::{Heuristic, Pick, Select};
pub use state::State;

use crate::puzzle::Puzzle;
use crate::report::SolveResult;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Solves `puzzle` from its hints with heuristic `h` on one thread.
pub fn solve(puzzle: &Puzzle, h: Heuristic, limits: &Limits, stop: &AtomicBool) -> SolveResult {
    let start = Instant::now();
    let mut st = State::new(puzzle);
    let stats = crate::with_selector!(h, &st, |sel| search(
        &mut st, &mut sel, puzzle, limits, stop
    ));
    SolveResult::new(puzzle, h, 1, stats, start.elapsed().as_secs_f64())
}
