//! Keeping `--checkpoint` files small across many reruns.
//!
//! A run records every subproblem it finishes, and a stopped one hands its untried
//! placements over (`given`) as subproblems of their own; with `--interleave on` every
//! paused walk of the window does so at each stop, so the records pile up. Before each
//! save, [`compact`] replaces what no later run needs one by one:
//! - **Folding.** A record's given-away subtrees that are searched to the end (their
//!   records give nothing away) are added into it, in search order and only as long
//!   as no unfinished one comes before them: the record then counts its own nodes and
//!   theirs, a search order consistent part of its subtree, so it is checked, merged
//!   and resumed as any record (the solutions stay in the search's order).
//! - **Aggregating.** A frontier subproblem searched to the end without a solution
//!   needs no record of its own: its index joins [`Finished`], whose nodes per depth
//!   are the sum of theirs. Subproblems with solutions keep their records (the boards
//!   and their order).
//! - **One deepest board.** Only the record whose deepest node comes first at the
//!   greatest depth in search order keeps its board (that is the run's deepest board,
//!   [`Stats::merge`]); the others keep their depth. A later run meets a deeper or
//!   an earlier node of that depth in a record of its own, with its board.

use super::frontier::{in_search_order, Prefix};
use crate::puzzle::Puzzle;
use crate::search::limits::Stats;
use crate::search::select::Strategy;
use rustc_hash::FxHashMap;

/// A finished subproblem: its exact counts, and the subtrees it gave away (searched
/// and recorded by others, not counted here).
#[derive(Debug, Clone)]
pub struct Record {
    pub prefix: Prefix,
    pub stats: Stats,
    pub given: Vec<Prefix>,
}

/// Frontier subproblems (of one run's share: shard, job) searched to the end without a
/// solution, their counts summed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finished {
    /// Indices into the run's subproblems, increasing.
    pub units: Vec<usize>,
    /// Their nodes per depth, summed (no trailing zeros).
    pub nodes_per_depth: Vec<u64>,
}

impl Finished {
    /// The counts, as one search's (no solution, no deepest board: see the module doc).
    pub fn stats(&self) -> Stats {
        Stats {
            nodes_per_depth: self.nodes_per_depth.clone(),
            ..Stats::default()
        }
    }
}

/// A run's frontier subproblems by prefix (built once per run: a deep split has
/// millions, and a running checkpoint compacts every few seconds).
pub struct Units<'a>(FxHashMap<&'a Prefix, usize>);

impl<'a> Units<'a> {
    pub fn new(units: &'a [Prefix]) -> Units<'a> {
        Units(units.iter().enumerate().map(|(i, u)| (u, i)).collect())
    }

    /// The index of `prefix` among them.
    pub fn index(&self, prefix: &Prefix) -> Option<usize> {
        self.0.get(prefix).copied()
    }
}

/// `records` (a checkpoint's finished subproblems, of a run over `units` with `s`) and
/// `finished` made compact as the module doc says: the same counts, solutions in the
/// same order and the same deepest node when merged, and the same subproblems left to
/// search for [`super::resume`]. Records come out in search order.
pub fn compact(
    puzzle: &Puzzle,
    s: Strategy,
    units: &Units<'_>,
    finished: &Finished,
    records: Vec<Record>,
) -> (Finished, Vec<Record>) {
    let index: FxHashMap<Prefix, usize> = (records.iter().enumerate())
        .map(|(i, r)| (r.prefix.clone(), i))
        .collect();
    let mut order: Vec<usize> = (0..records.len()).collect();
    let mut slots: Vec<Option<Record>> = records.into_iter().map(Some).collect();
    // A given-away prefix is longer than its giver's: children fold first.
    order.sort_by_key(|&i| std::cmp::Reverse(slots[i].as_ref().map_or(0, |r| r.prefix.len())));
    for i in order {
        let Some(mut r) = slots[i].take() else {
            continue;
        };
        in_search_order(puzzle, s, &mut r.given, |g| g);
        let mut folded = 0;
        for g in &r.given {
            // Searched to the end: recorded, and giving nothing away that is not.
            let Some(&j) = index.get(g) else { break };
            if !slots[j].as_ref().is_some_and(|c| c.given.is_empty()) {
                break;
            }
            let c = slots[j].take().expect("checked");
            r.stats.merge(&c.stats, usize::MAX);
            folded += 1;
        }
        r.given.drain(..folded);
        slots[i] = Some(r);
    }
    let mut left: Vec<Record> = slots.into_iter().flatten().collect();
    in_search_order(puzzle, s, &mut left, |r| &r.prefix);
    // The first record at the greatest depth keeps its board.
    let mut winner = None;
    for (i, r) in left.iter().enumerate() {
        if winner.is_none_or(|w: usize| r.stats.deepest > left[w].stats.deepest) {
            winner = Some(i);
        }
    }
    let mut sum = finished.stats();
    let mut done = finished.units.clone();
    let mut kept = Vec::with_capacity(left.len());
    for (i, mut r) in left.into_iter().enumerate() {
        let unit = units.index(&r.prefix);
        let closed = r.given.is_empty() && r.stats.solutions_found == 0;
        match unit.filter(|_| closed && Some(i) != winner) {
            Some(u) => {
                sum.merge(&r.stats, 0);
                done.push(u);
            }
            None => {
                if Some(i) != winner {
                    r.stats.deepest_board = Vec::new();
                }
                kept.push(r);
            }
        }
    }
    done.sort_unstable();
    let finished = Finished {
        units: done,
        nodes_per_depth: sum.nodes_per_depth,
    };
    (finished, kept)
}
