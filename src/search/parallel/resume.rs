//! Resuming a spread search: a checkpoint's records checked against the frontier,
//! and the subproblems left to search.

use super::compact::{Finished, Record};
use super::frontier::{apply, paths_legal, unapply, Prefix};
use crate::puzzle::Puzzle;
use crate::search::state::State;
use bitvec::vec::BitVec;
use rustc_hash::FxHashMap;

/// Checks a checkpoint's `records` against the planned `units` and splits the work:
/// the records still valid (reached from a unit, directly or through the subproblems
/// records gave away) and the subproblems left to search (reached, without a record),
/// sorted. Records reached from no unit are stale and dropped. Without records (nor
/// summed units) it returns them all: `units` are always the frontier's own (a job
/// file's are checked against it when read, [`crate::search::jobs::read_job`]), legal and
/// distinct. The units of `finished` (indices into `units`) are done and have no record.
///
/// Nothing is trusted before it fits: every subproblem reached is legal on the board
/// (each record's given-away prefixes lie strictly below its own, on the search's
/// paths: [`crate::search::checkpoint::Checkpoint::records`] checked that), none is reached twice,
/// and none lies inside another subproblem's searched area (its nearest named
/// ancestor must be the record that gave it away). A hand-edited file could otherwise
/// count a subtree twice or leave one out and still call the result exhaustive.
pub fn resume(
    puzzle: &Puzzle,
    units: &[Prefix],
    records: Vec<Record>,
    finished: &Finished,
) -> Result<(Vec<Record>, Vec<Prefix>), String> {
    let show = |p: &Prefix| {
        let cells: Vec<String> = p
            .iter()
            .map(|(c, o)| format!("{c}:{}/{}", o / 4, o % 4))
            .collect();
        format!("[{}]", cells.join(" "))
    };
    if records.is_empty() && finished.units.is_empty() {
        // Checking millions of them (a deep split) took longer than searching them.
        let mut todo = units.to_vec();
        todo.sort();
        return Ok((Vec::new(), todo));
    }
    let mut index = FxHashMap::default();
    for (i, r) in records.iter().enumerate() {
        if index.insert(&r.prefix, i).is_some() {
            return Err(format!("two records of subproblem {}", show(&r.prefix)));
        }
    }
    // Sets of subproblems by index: one bit each (a deep split has millions).
    let mut done: BitVec = BitVec::repeat(false, units.len());
    for &u in &finished.units {
        let Some(p) = units.get(u) else {
            return Err(format!(
                "finished subproblem {u} is not one of the run's {}",
                units.len()
            ));
        };
        if index.contains_key(p) {
            return Err(format!("two records of subproblem {}", show(p)));
        }
        done.set(u, true);
    }
    // Every prefix reached from the units, with the record that gave it away.
    let mut parent: FxHashMap<&Prefix, Option<&Prefix>> = Default::default();
    parent.reserve(units.len() + records.len());
    let mut stack: Vec<(&Prefix, Option<&Prefix>)> = (units.iter().zip(done.iter().by_vals()))
        .filter(|(_, done)| !done)
        .map(|(u, _)| (u, None))
        .collect();
    let mut reached: BitVec = BitVec::repeat(false, records.len());
    let mut todo = Vec::new();
    let mut st = State::new(puzzle);
    // Every subproblem that can be reached at once; one by one only to name the
    // first that fails.
    let mut reachable: Vec<&[(usize, u32)]> = units.iter().map(|u| &u[..]).collect();
    reachable.extend(records.iter().flat_map(|r| &r.given).map(|g| &g[..]));
    let legal = paths_legal(&mut st, &mut reachable);
    while let Some((p, from)) = stack.pop() {
        if parent.insert(p, from).is_some() {
            return Err(format!("subproblem {} is named twice", show(p)));
        }
        if !legal {
            apply(&mut st, p).map_err(|e| format!("subproblem {}: {e}", show(p)))?;
            unapply(&mut st, p);
        }
        let Some(&i) = index.get(p) else {
            todo.push(p.clone());
            continue;
        };
        reached.set(i, true);
        for g in &records[i].given {
            stack.push((g, Some(p)));
        }
    }
    let mut all: Vec<&Prefix> = parent.keys().copied().collect();
    all.sort();
    // Sorted, a prefix's named ancestors are on the chain of the prefixes before it.
    let mut chain: Vec<&Prefix> = Vec::new();
    for p in all {
        while chain.last().is_some_and(|a| !p.starts_with(a)) {
            chain.pop();
        }
        let nearest = chain.last().copied();
        if nearest != parent[p] {
            return Err(format!(
                "subproblem {} lies inside {}, which does not give it away",
                show(p),
                nearest.map_or("another subproblem".to_string(), &show)
            ));
        }
        chain.push(p);
    }
    let valid = records
        .into_iter()
        .zip(reached.iter().by_vals())
        .filter_map(|(r, reached)| reached.then_some(r))
        .collect();
    todo.sort();
    Ok((valid, todo))
}
