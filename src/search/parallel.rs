//! The parallel search: the top of the tree expanded breadth-first into a frontier of
//! independent subproblems, each searched depth-first on rayon's pool, and the
//! per-worker counts summed at the end.
//!
//! **Subproblems.** A subproblem is a *prefix*: the placements `(cell, oriented piece)`
//! from the root, as the heuristic makes them. Its depth-first search counts its own
//! start node; the frontier counts the nodes above the frontier (its *internal* nodes)
//! exactly once, and treats a dead internal node exactly as the DFS does (counted, no
//! children). Disjoint subtrees plus the internal nodes are the whole tree, so
//! `nodes_per_depth` and `solutions_found` equal the single-thread run's for every
//! heuristic and thread count.
//!
//! **Frontier (tree packing, seed 003).** The top levels live in one packed array:
//! every node stores its parent's index and its placement, levels are contiguous, and
//! a node's prefix is read by walking parent indices (a heap indexation generalised
//! to a varying branching factor). Expansion stops at the first level with at least
//! the wanted number of nodes (default 8 per worker thread run, see
//! [`super::workers`]) or at `--split-depth`. The
//! frontier depends only on the puzzle, the heuristic and the split depth, so shards
//! and job files are reproducible.
//!
//! **Keeping every core busy.** Subtree sizes differ by orders of magnitude, so a
//! static split leaves cores idle at the end. A running DFS therefore gives work away
//! ([`super::limits::Share`]): when the queue of unstarted subproblems runs empty, the
//! next worker to poll (every 4096 nodes) hands the untried placements at its
//! *shallowest* open depth, the biggest pieces of work it has, to the pool as new
//! subproblems and drops them from its own stack. Nothing is abandoned or searched
//! twice, so counts stay exact; rayon's work stealing spreads the new tasks.
//!
//! **Stopping.** Workers poll one shared flag (`halt`) every 4096 nodes. It is set by
//! the first worker that reaches the solution limit or the node limit, and by a helper
//! thread that copies the caller's stop flag (Ctrl-C) and the deadline into it (once
//! before the first subproblem too: a run already due searches nothing). With `--solutions K`
//! the result keeps exactly K solutions: each subproblem may find up to the K still
//! missing when it starts, and the surplus of a race is cut off in search order.
//! `--max-nodes` is checked per subproblem against the budget left when it starts, so
//! with several threads a run may overshoot it.
//!
//! **Order.** Subproblems are started in prefix order (the DFS order; rayon's FIFO
//! scope), or with `--order penalty` least penalty first ([`order_by_penalty`]), which
//! changes only which solutions a run that stops early finds. Outcomes are merged in
//! the DFS order either way (`merged`: by prefix, or under `--move-order penalty`
//! by each placement's penalty at its node). A donor's own outcome covers only
//! placements that come before the ones it gave away, so with `--all` the kept
//! solutions are the single-thread run's first `--keep`, in its order. The boards
//! themselves go to one shelf for the whole run ([`super::shelf`]), which holds only
//! the first `--keep` in that order of those found so far.

use super::compact::{self, Finished};
use super::dfs::search_sharing;
use super::limits::{stop_reason, Limits, Share, Stats, Stop};
use super::interleave::{self, Plan};
use super::select::{log_options, move_penalty, Order, Pick, ScanTables, Select, Strategy};
use super::shelf::{self, Rank, Shelf};
use super::state::State;
use crate::puzzle::Puzzle;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Placements `(cell, oriented piece)` from the root: one subproblem.
pub type Prefix = Vec<(usize, u32)>;

/// Frontier size wanted per thread when no `--split-depth` is given.
pub const UNITS_PER_THREAD: usize = 8;
/// Frontier size wanted per shard or job for `--shard` / `split` without `--split-depth`.
pub const UNITS_PER_SHARD: usize = 64;
/// How often the helper thread calls the progress callback (checkpoints).
pub const SAVE_EVERY: Duration = Duration::from_secs(3);

/// The deepest `--split-depth` accepted: deeper than any board one would split.
pub const MAX_SPLIT_DEPTH: u64 = 256;
/// Nodes the frontier may hold (12 bytes each, plus the subproblems' prefixes): a
/// split deep enough to pass it enumerates most of the tree breadth-first, so it is
/// refused rather than left to grow without limit.
pub const FRONTIER_MAX: usize = 1 << 24;

/// Why [`frontier`] gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The stop flag or the deadline, polled every 1024 expanded nodes.
    Stopped(Stop),
    /// Level `depth` would pass [`FRONTIER_MAX`] nodes.
    TooBig { depth: usize },
}

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cut::Stopped(w) => write!(f, "stopped while expanding the frontier ({w:?})"),
            Cut::TooBig { depth } => write!(
                f,
                "the frontier of subproblems would hold more than {FRONTIER_MAX} nodes at depth {depth}; choose a smaller --split-depth (or fewer shards or jobs)"
            ),
        }
    }
}

/// A checkpointed run's way to its file: `save` is called now and then with what the
/// file holds, the subproblems summed so far (`Finished`) and the other records.
pub struct Saver<'a> {
    pub save: &'a (dyn Fn(&Finished, Vec<Record>) + Sync + 'a),
    /// The run's frontier subproblems (all of them, not only the ones left to search).
    pub units: &'a compact::Units<'a>,
}

/// Where to stop expanding the frontier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// Exactly this depth (or the full board, if shallower).
    Depth(usize),
    /// The first level with at least this many nodes.
    AtLeast(usize),
}

/// The top of the tree, expanded.
#[derive(Debug, Clone)]
pub struct Frontier {
    /// Depth of the subproblems' start nodes.
    pub depth: usize,
    /// The nodes above `depth` (counted here, once).
    pub internal: Stats,
    /// The subproblems, in search order.
    pub units: Vec<Prefix>,
}

/// One node of the packed top-levels array.
#[derive(Clone, Copy)]
struct Packed {
    parent: u32,
    cell: u32,
    o: u32,
}

/// The prefix of node `i` of the packed array (root = index 0, no placement), `depth`
/// placements below the root (the length it is allocated for).
fn prefix_of(nodes: &[Packed], mut i: usize, depth: usize) -> Prefix {
    let mut p = Vec::with_capacity(depth);
    while i != 0 {
        p.push((nodes[i].cell as usize, nodes[i].o));
        i = nodes[i].parent as usize;
    }
    p.reverse();
    p
}

/// Places `prefix` on `st`, checking that every placement is legal.
pub fn apply(st: &mut State, prefix: &[(usize, u32)]) -> Result<(), String> {
    let mut buf = vec![0u64; st.words];
    for (i, &(c, o)) in prefix.iter().enumerate() {
        if !legal(st, c, o, &mut buf) {
            unapply(st, &prefix[..i]);
            return Err(format!("{} is not legal there", placement(i, c, o)));
        }
        st.place(c, o);
    }
    Ok(())
}

/// Whether oriented piece `o` may be placed at cell `c` of `st` (`buf`: `st.words`
/// of scratch).
fn legal(st: &State, c: usize, o: u32, buf: &mut [u64]) -> bool {
    c < st.cells() && st.is_empty(c) && {
        st.candidates_into(c, buf);
        (o as usize) < 64 * st.words && buf[o as usize / 64] >> (o % 64) & 1 == 1
    }
}

/// Placement `i` of a prefix, cell `c`, oriented piece `o`, as messages name it.
fn placement(i: usize, c: usize, o: u32) -> String {
    format!(
        "placement {} (cell {c}, piece {}, rotation {})",
        i + 1,
        o / 4,
        o % 4
    )
}

/// Undoes [`apply`].
pub fn unapply(st: &mut State, prefix: &[(usize, u32)]) {
    for &(c, _) in prefix.iter().rev() {
        st.unplace(c);
    }
}

/// Checks that `prefix` is a path of the search tree of selector `sel` below the node
/// of `st`: every placement legal ([`apply`]) and at the cell `sel` branches on at that
/// node, as the frontier and the drivers pick it. Leaves `st` as it found it. A
/// prefix elsewhere names no subproblem of the run: a record of it counts nodes the
/// search never visits, and one given away there takes no part of the tree with it.
pub fn check_path<S: Select>(
    st: &mut State,
    sel: &mut S,
    prefix: &[(usize, u32)],
) -> Result<(), String> {
    apply(st, prefix)?;
    unapply(st, prefix);
    for (i, &(c, o)) in prefix.iter().enumerate() {
        let pick = sel.pick(st);
        if pick != Pick::Site(c) {
            unapply(st, &prefix[..i]);
            let there = match pick {
                Pick::Site(s) => format!("the search fills cell {s} at that node"),
                Pick::Dead => "the search has no children at that node".to_string(),
            };
            return Err(format!(
                "{} is off the search's path: {there}",
                placement(i, c, o)
            ));
        }
        st.place(c, o);
    }
    unapply(st, prefix);
    Ok(())
}

/// True when every one of `paths` passes [`check_path`] below the node of `st`: the
/// answer of checking each in turn, at a fraction of the cost (see `walk`).
pub fn paths_pass<S: Select>(st: &mut State, sel: &mut S, paths: &mut [&[(usize, u32)]]) -> bool {
    walk(st, paths, |st, c| sel.pick(st) == Pick::Site(c))
}

/// True when every one of `paths` passes [`apply`] below the node of `st` (see `walk`).
pub fn paths_legal(st: &mut State, paths: &mut [&[(usize, u32)]]) -> bool {
    walk(st, paths, |_, _| true)
}

/// True when every placement of `paths` is legal below the node of `st` and passes
/// `at(st, cell)` on the board before it; leaves `st` as it found it. The paths are
/// walked in sorted order as one trie, so a node that several share (sibling records
/// share all but their last placement) is placed and tested once, not once per path.
/// It says only whether all pass: a caller names the first that fails by checking
/// each in its own order.
fn walk(
    st: &mut State,
    paths: &mut [&[(usize, u32)]],
    mut at: impl FnMut(&mut State, usize) -> bool,
) -> bool {
    paths.sort_unstable();
    let mut buf = vec![0u64; st.words];
    // The placements on `st`: the walk's node, every one of them passed.
    let mut placed: Vec<(usize, u32)> = Vec::new();
    let mut pass = true;
    'paths: for p in paths.iter() {
        let common = placed
            .iter()
            .zip(p.iter())
            .take_while(|(a, b)| a == b)
            .count();
        unapply(st, &placed[common..]);
        placed.truncate(common);
        for &(c, o) in &p[common..] {
            if !legal(st, c, o, &mut buf) || !at(st, c) {
                pass = false;
                break 'paths;
            }
            st.place(c, o);
            placed.push((c, o));
        }
    }
    unapply(st, &placed);
    pass
}

/// Moves `st` from the node of `path` (packed indices, root first) to node `i` of
/// `nodes`, `depth` placements below the root: unplaces the placements below their
/// deepest common ancestor and places `i`'s below it. A level's nodes come in search
/// order, so walking them in turn places and unplaces each node above them once, where
/// placing every prefix from the root cost `depth` placements (and a legality test
/// each) per node. The frontier's placements are legal: they come from candidates.
fn go_to(
    st: &mut State,
    nodes: &[Packed],
    path: &mut Vec<usize>,
    chain: &mut Vec<usize>,
    i: usize,
    depth: usize,
) {
    chain.clear();
    let (mut j, mut k) = (i, depth);
    // path[k - 1] is the node at depth k on `st`; j, at depth k, is an ancestor of i.
    while k > 0 && path.get(k - 1) != Some(&j) {
        chain.push(j);
        j = nodes[j].parent as usize;
        k -= 1;
    }
    while path.len() > k {
        let top = path.pop().expect("path is longer than k");
        st.unplace(nodes[top].cell as usize);
    }
    for &j in chain.iter().rev() {
        st.place(nodes[j].cell as usize, nodes[j].o);
        path.push(j);
    }
}

/// Takes the placements of `path` off `st` (see [`go_to`]): back at the root.
fn leave(st: &mut State, nodes: &[Packed], path: &mut Vec<usize>) {
    while let Some(top) = path.pop() {
        st.unplace(nodes[top].cell as usize);
    }
}

/// Expands the tree below the root of `st` breadth-first (see the module doc), giving
/// up when `stop` or the deadline of `limits` says so or the frontier grows too big.
pub fn frontier<S: Select>(
    st: &mut State,
    sel: &mut S,
    split: Split,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Frontier, Cut> {
    let top = st.max_depth();
    let d0 = st.depth();
    let mut internal = Stats {
        nodes_per_depth: vec![0; top + 1],
        deepest: d0,
        deepest_board: st.board(),
        ..Stats::default()
    };
    let mut nodes = vec![Packed {
        parent: 0,
        cell: 0,
        o: 0,
    }];
    let mut level = 0..1usize;
    // The level expanded last: its first node is the first at its depth in search order.
    let mut expanded = 0..0usize;
    let mut d = d0;
    let mut buf = vec![0u64; st.words];
    // The nodes placed on `st`, root first (the root itself, index 0, is not in it).
    let mut path: Vec<usize> = Vec::new();
    let mut chain: Vec<usize> = Vec::new();
    loop {
        let more = match split {
            Split::Depth(k) => d < k,
            Split::AtLeast(n) => level.len() < n,
        };
        if !more || d >= top || level.is_empty() {
            break;
        }
        let start = nodes.len();
        for i in level.clone() {
            if i % 1024 == 0 {
                if let Some(why) = stop_reason(limits, stop) {
                    leave(st, &nodes, &mut path);
                    return Err(Cut::Stopped(why));
                }
            }
            // Counted as the array grows: a level that passes the cap is refused at
            // its next node, not once it is whole.
            if nodes.len() > FRONTIER_MAX {
                leave(st, &nodes, &mut path);
                return Err(Cut::TooBig { depth: d + 1 });
            }
            go_to(st, &nodes, &mut path, &mut chain, i, d - d0);
            internal.nodes_per_depth[d] += 1;
            if let Pick::Site(c) = sel.pick(st) {
                st.candidates_into(c, &mut buf);
                for (k, &w) in buf.iter().enumerate() {
                    let mut w = w;
                    while w != 0 {
                        let o = (k * 64) as u32 + w.trailing_zeros();
                        w &= w - 1;
                        nodes.push(Packed {
                            parent: i as u32,
                            cell: c as u32,
                            o,
                        });
                    }
                }
            }
        }
        leave(st, &nodes, &mut path);
        expanded = std::mem::replace(&mut level, start..nodes.len());
        d += 1;
    }
    if d > d0 {
        // The deepest internal node, with its board: the first of the last level
        // expanded, as a depth-first search meets it. (Units go deeper; without any,
        // the tree ended inside the frontier and this is the deepest of the search.)
        let p = prefix_of(&nodes, expanded.start, d - 1 - d0);
        apply(st, &p).expect("frontier prefixes are legal");
        (internal.deepest, internal.deepest_board) = (d - 1, st.board());
        unapply(st, &p);
    }
    Ok(Frontier {
        depth: d,
        internal,
        units: level.map(|i| prefix_of(&nodes, i, d - d0)).collect(),
    })
}

/// The frontier of `puzzle` under heuristic `h` (or a [`Strategy`]); see [`frontier`].
pub fn frontier_of(
    puzzle: &Puzzle,
    h: impl Into<Strategy>,
    split: Split,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Frontier, Cut> {
    let mut st = State::new(puzzle);
    crate::with_strategy!(h.into(), &st, |sel| frontier(
        &mut st, &mut sel, split, limits, stop
    ))
}

/// The frontier with no limit and no stop flag: the whole split, as job files need
/// it (any error is [`Cut::TooBig`]).
pub fn full_frontier(
    puzzle: &Puzzle,
    h: impl Into<Strategy>,
    split: Split,
) -> Result<Frontier, Cut> {
    frontier_of(
        puzzle,
        h,
        split,
        &Limits::default(),
        &AtomicBool::new(false),
    )
}

/// Sorts subproblems least penalty first: increasing [`log_options`] of their empty
/// cells (the predicted subtree size), ties in prefix order. Deterministic.
pub fn order_by_penalty(puzzle: &Puzzle, units: &mut [Prefix]) {
    let mut st = State::new(puzzle);
    let mut keyed: Vec<(f64, Prefix)> = units
        .iter()
        .map(|u| {
            apply(&mut st, u).expect("subproblem prefixes were checked");
            let penalty = log_options(&st, st.open_cells().iter().copied());
            unapply(&mut st, u);
            (penalty, u.clone())
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    for (u, (_, p)) in units.iter_mut().zip(keyed) {
        *u = p;
    }
}

/// A finished subproblem: its exact counts, and the subtrees it gave away (searched
/// and recorded by others, not counted here).
#[derive(Debug, Clone)]
pub struct Record {
    pub prefix: Prefix,
    pub stats: Stats,
    pub given: Vec<Prefix>,
}

/// What [`run`] did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Everything counted: the `base` counts, finished and unfinished subproblems.
    pub stats: Stats,
    /// Finished subproblems (the checkpoint's content), previous ones included; with
    /// their boards (those among the run's first `--keep`) only when there is a
    /// checkpoint to save them to.
    pub records: Vec<Record>,
    /// The finished frontier subproblems summed instead of recorded (the checkpoint's
    /// too): the work's `finished`, plus what the run's saves compacted.
    pub finished: Finished,
    /// Subproblems searched by this run (frontier units plus the ones given away).
    pub subproblems: usize,
    /// Nodes of `stats` read from the checkpoint's records, not searched by this run.
    pub resumed_nodes: u64,
    /// Nodes of `stats` in the frontier (`base`) that `--max-nodes` was not charged
    /// for: all of them with a checkpoint (see `Ctx::base_nodes`), else none.
    pub rebuilt_nodes: u64,
}

/// Checks a checkpoint's `records` against the planned `units` and splits the work:
/// the records still valid (reached from a unit, directly or through the subproblems
/// records gave away) and the subproblems left to search (reached, without a record),
/// sorted. Records reached from no unit are stale and dropped. Without records (nor
/// summed units) it returns them all: `units` are always the frontier's own (a job
/// file's are checked against it when read, [`super::jobs::read_job`]), legal and
/// distinct. The units of `finished` (indices into `units`) are done and have no record.
///
/// Nothing is trusted before it fits: every subproblem reached is legal on the board
/// (each record's given-away prefixes lie strictly below its own, on the search's
/// paths: [`super::checkpoint::Checkpoint::records`] checked that), none is reached twice,
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
    let mut done = vec![false; units.len()];
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
        done[u] = true;
    }
    // Every prefix reached from the units, with the record that gave it away.
    let mut parent: FxHashMap<&Prefix, Option<&Prefix>> = Default::default();
    parent.reserve(units.len() + records.len());
    let mut stack: Vec<(&Prefix, Option<&Prefix>)> = (units.iter().zip(&done))
        .filter(|(_, &done)| !done)
        .map(|(u, _)| (u, None))
        .collect();
    let mut reached = vec![false; records.len()];
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
        reached[i] = true;
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
        .zip(reached)
        .filter_map(|(r, reached)| reached.then_some(r))
        .collect();
    todo.sort();
    Ok((valid, todo))
}

/// Shared by the workers of one [`run`].
pub(super) struct Ctx<'a> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) s: Strategy,
    pub(super) root: State,
    /// `scan`'s tables, built once from `root` and shared by every subproblem (none
    /// for the other heuristics).
    pub(super) tables: ScanTables,
    pub(super) limits: &'a Limits,
    /// Solutions wanted in all (u64::MAX: all).
    pub(super) want: u64,
    /// Nodes this run counted before any subproblem (the frontier's internal nodes):
    /// with the subproblems' nodes, what `--max-nodes` limits. A checkpoint's records
    /// are not in it, so a resumed run gets the whole budget for new work; with a
    /// checkpoint the frontier is not in it either (0).
    pub(super) base_nodes: u64,
    pub(super) halt: AtomicBool,
    pub(super) hungry: AtomicBool,
    pub(super) queued: AtomicUsize,
    pub(super) found: AtomicU64,
    pub(super) nodes: AtomicU64,
    pub(super) started: AtomicUsize,
    pub(super) records: Mutex<Vec<Record>>,
    /// The closed records, summed as they come ([`Folded`]).
    pub(super) folded: Mutex<Folded>,
    /// With a checkpoint, the frontier's subproblems: the file names the closed ones
    /// [`Folded`] sums by their index.
    pub(super) units: Option<&'a compact::Units<'a>>,
    pub(super) partial: Mutex<Vec<(Prefix, Stats)>>,
    /// The greatest depth a filed subproblem reached.
    pub(super) deepest: AtomicUsize,
    pub(super) skipped: AtomicUsize,
    /// A stopped subproblem hands over its untried rest and is recorded as finished
    /// ([`Share::wants_rest`]): when there is a checkpoint to keep its work.
    pub(super) keep_rest: bool,
    /// The run's solution boards: its first `--keep`, whichever subproblem found them.
    pub(super) shelf: Arc<Shelf>,
}

impl Ctx<'_> {
    /// Adds what a worker just searched to the run's totals; halts the run once it has
    /// the solutions wanted. Returns the nodes this run has searched (see `base_nodes`).
    pub(super) fn count(&self, nodes: u64, solutions: u64) -> u64 {
        let used = self.base_nodes + self.nodes.fetch_add(nodes, Ordering::AcqRel) + nodes;
        if solutions > 0
            && self.found.fetch_add(solutions, Ordering::AcqRel) + solutions >= self.want
        {
            self.halt.store(true, Ordering::Release);
        }
        used
    }

    /// Files the outcome of a subproblem: a record when `finished` (its subtree searched
    /// to the end, or what a stop left of it handed over to `given`, see
    /// [`Ctx::keep_rest`]); else a partial outcome. A limit that stopped it (not the halt
    /// flag) halts the run.
    pub(super) fn file(
        &self,
        prefix: Prefix,
        mut stats: Stats,
        given: Vec<Prefix>,
        finished: bool,
    ) {
        if stats.stopped.is_some_and(|w| w != Stop::Interrupted) {
            self.halt.store(true, Ordering::Release);
        }
        // A subproblem shallower than one filed before never holds the run's deepest
        // board (`Stats::merge` keeps its depth without a board, as a compacted
        // checkpoint's records do), so its board (a cell each) is not kept.
        if stats.deepest < self.deepest.fetch_max(stats.deepest, Ordering::AcqRel) {
            stats.deepest_board = Vec::new();
        }
        let closed = given.is_empty() && stats.solutions_found == 0 && stats.stopped.is_none();
        // With a checkpoint only the frontier's are summed at once (the file names them
        // by index); one given away waits among the records for its giver (`compact`).
        let unit = self.units.map(|u| u.index(&prefix));
        if finished && closed && unit != Some(None) {
            let unit = unit.flatten();
            (self.folded.lock().unwrap()).add(self.puzzle, self.s, prefix, stats, unit);
        } else if finished {
            self.records.lock().unwrap().push(Record {
                prefix,
                stats,
                given,
            });
        } else {
            self.partial.lock().unwrap().push((prefix, stats));
        }
    }
}

/// The closed records of a run (searched to the end, no solution, nothing given away,
/// no stop), summed as they are filed instead of kept: the merge (and a checkpoint) needs
/// of them only their counts and the first of them in search order at the greatest
/// depth, the one whose deepest board the merge would keep. A record costs its prefix,
/// its nodes per depth and a board (about 2 KB on a 6x6), and a deep `--split-depth`
/// files millions (6.6 GB at depth 16 on Brendan's 6x6 when all were kept).
#[derive(Default)]
pub(super) struct Folded {
    /// The first at the greatest depth so far, as filed.
    first: Option<(Rank, Record, Option<usize>)>,
    /// The counts of all the others (no board).
    rest: Stats,
    /// Their indices among the frontier's subproblems (with a checkpoint, see
    /// [`Ctx::units`]; else none).
    units: Vec<usize>,
    /// For the ranks under `--move-order penalty` (None until a tie needs one).
    st: Option<State>,
}

impl Folded {
    /// Files subproblem `prefix` (the frontier's `unit`-th, with a checkpoint).
    fn add(
        &mut self,
        puzzle: &Puzzle,
        s: Strategy,
        prefix: Prefix,
        stats: Stats,
        unit: Option<usize>,
    ) {
        let mut rank = |p: &Prefix| {
            let st = self.st.get_or_insert_with(|| State::new(puzzle));
            Rank::of(st, s, p)
        };
        // Its rank when it takes over as the first deepest.
        let wins = match &self.first {
            None => Some(rank(&prefix)),
            Some((first_rank, first, _)) => match stats.deepest.cmp(&first.stats.deepest) {
                std::cmp::Ordering::Greater => Some(rank(&prefix)),
                std::cmp::Ordering::Equal => Some(rank(&prefix)).filter(|r| r < first_rank),
                std::cmp::Ordering::Less => None,
            },
        };
        // The one it beats, or itself, goes to the rest.
        let beaten = match wins {
            Some(r) => {
                let given = Vec::new();
                let first = (
                    r,
                    Record {
                        prefix,
                        stats,
                        given,
                    },
                    unit,
                );
                self.first
                    .replace(first)
                    .map(|(_, old, unit)| (old.stats, unit))
            }
            None => Some((stats, unit)),
        };
        let Some((mut stats, unit)) = beaten else {
            return;
        };
        stats.deepest_board = Vec::new();
        self.rest.merge(&stats, 0);
        self.units.extend(unit);
    }

    /// `before` (the subproblems a checkpoint summed) with the ones filed here, and
    /// `records` with the first deepest, which keeps a record of its own.
    fn with(&self, before: &Finished, mut records: Vec<Record>) -> (Finished, Vec<Record>) {
        let mut sum = before.stats();
        sum.merge(&self.rest, 0);
        let mut units = before.units.clone();
        units.extend(&self.units);
        units.sort_unstable();
        records.extend(self.first.as_ref().map(|(_, r, _)| Record {
            prefix: r.prefix.clone(),
            stats: r.stats.clone(),
            given: Vec::new(),
        }));
        let finished = Finished {
            units,
            nodes_per_depth: sum.nodes_per_depth,
        };
        (finished, records)
    }
}

/// The [`Share`] of one running subproblem: spawns what it gives away.
struct Donor<'x, 's, 'a> {
    ctx: &'s Ctx<'a>,
    scope: &'x rayon::ScopeFifo<'s>,
    base: &'x [(usize, u32)],
    given: Vec<Prefix>,
}

impl<'a: 's, 's> Share for Donor<'_, 's, 'a> {
    #[inline]
    fn wants(&mut self) -> bool {
        self.ctx.hungry.load(Ordering::Relaxed)
    }

    fn take(&mut self, path: &[(usize, u32)], site: usize, untried: &[u64]) -> bool {
        if !self.ctx.hungry.swap(false, Ordering::AcqRel) {
            return false;
        }
        for p in given_away(self.base, path, site, untried) {
            self.given.push(p.clone());
            spawn(self.ctx, self.scope, p);
        }
        true
    }

    fn wants_rest(&self) -> bool {
        self.ctx.keep_rest
    }

    fn rest(&mut self, path: &[(usize, u32)], site: usize, untried: &[u64]) {
        // Left for the next run: the run is stopping.
        self.given
            .extend(given_away(self.base, path, site, untried));
    }
}

/// The subproblems a search below `base` gives away through [`Share::take`]: one per
/// untried placement at `site`, below the placements `path`.
pub(super) fn given_away(
    base: &[(usize, u32)],
    path: &[(usize, u32)],
    site: usize,
    untried: &[u64],
) -> Vec<Prefix> {
    let mut out = Vec::new();
    for (k, &w) in untried.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let o = (k * 64) as u32 + w.trailing_zeros();
            w &= w - 1;
            let mut p = Vec::with_capacity(base.len() + path.len() + 1);
            p.extend_from_slice(base);
            p.extend_from_slice(path);
            p.push((site, o));
            out.push(p);
        }
    }
    out
}

fn spawn<'a: 's, 's>(ctx: &'s Ctx<'a>, scope: &rayon::ScopeFifo<'s>, p: Prefix) {
    ctx.queued.fetch_add(1, Ordering::AcqRel);
    scope.spawn_fifo(move |s| task(ctx, s, p));
}

/// Searches one subproblem and files its outcome.
fn task<'a: 's, 's>(ctx: &'s Ctx<'a>, scope: &rayon::ScopeFifo<'s>, prefix: Prefix) {
    if ctx.queued.fetch_sub(1, Ordering::AcqRel) == 1 {
        ctx.hungry.store(true, Ordering::Release);
    }
    let found = ctx.found.load(Ordering::Acquire);
    let used = ctx.base_nodes + ctx.nodes.load(Ordering::Acquire);
    let budget = ctx.limits.max_nodes.map(|m| m.saturating_sub(used));
    if ctx.halt.load(Ordering::Acquire) || found >= ctx.want || budget == Some(0) {
        ctx.halt.store(true, Ordering::Release);
        ctx.skipped.fetch_add(1, Ordering::Relaxed);
        return;
    }
    ctx.started.fetch_add(1, Ordering::Relaxed);
    let mut st = ctx.root.clone();
    let limits = Limits {
        max_nodes: budget,
        deadline: ctx.limits.deadline,
        max_solutions: (ctx.want != u64::MAX).then(|| ctx.want - found),
        keep: ctx.limits.keep,
        shelf: Some(ctx.shelf.slot(Rank::of(&mut st, ctx.s, &prefix)).sink()),
    };
    apply(&mut st, &prefix).expect("subproblem prefixes were checked");
    let mut donor = Donor {
        ctx,
        scope,
        base: &prefix,
        given: Vec::new(),
    };
    let stats = crate::with_strategy!(ctx.s, &ctx.root, tables: &ctx.tables, |sel| search_sharing(
        &mut st, &mut sel, ctx.puzzle, &limits, &ctx.halt, &mut donor
    ));
    let given = donor.given;
    ctx.count(stats.nodes(), stats.solutions_found);
    // A stop (the solution limit too) made the search hand its rest over when
    // keep_rest is on.
    let finished = stats.stopped.is_none() || ctx.keep_rest;
    ctx.file(prefix, stats, given, finished);
    if ctx.queued.load(Ordering::Acquire) == 0 {
        ctx.hungry.store(true, Ordering::Release);
    }
}

/// What one [`run`] searches: the subproblems left to search, what is counted before
/// any of them (the frontier's internal nodes, when this run owns them), and the
/// subproblems an earlier run finished (a checkpoint's records). Both lists come from
/// [`resume`], which checked them.
pub struct Work {
    pub todo: Vec<Prefix>,
    pub base: Stats,
    pub done: Vec<Record>,
    /// The subproblems an earlier run finished and summed.
    pub finished: Finished,
}

/// How a [`run`] schedules its subproblems: in which order, on how many workers (0: all
/// cores), depth-first each or interleaved.
#[derive(Clone, Copy)]
pub struct Schedule<'a> {
    pub order: Order,
    pub threads: usize,
    pub interleave: Option<&'a Plan>,
}

/// `records` with the boards their subproblems have on `shelf` ([`shelf::with_boards`]):
/// the ones among the run's first `--keep`, a checkpoint's records' included.
fn shelved(puzzle: &Puzzle, s: Strategy, shelf: &Shelf, records: Vec<Record>) -> Vec<Record> {
    let mut st = State::new(puzzle);
    (records.into_iter())
        .map(|mut r| {
            let rank = Rank::of(&mut st, s, &r.prefix);
            r.stats = shelf::with_boards(shelf, &rank, r.stats);
            r
        })
        .collect()
}

/// `base` plus the subproblems' `outcomes` of a search with `s` merged in search
/// order ([`in_search_order`]), keeping the first `keep` solutions.
fn merged<'x>(
    puzzle: &Puzzle,
    s: Strategy,
    base: Stats,
    outcomes: impl Iterator<Item = (&'x Prefix, &'x Stats)>,
    keep: usize,
) -> Stats {
    let mut outcomes: Vec<_> = outcomes.collect();
    in_search_order(puzzle, s, &mut outcomes, |o| o.0);
    let mut stats = base;
    for (_, s) in outcomes {
        stats.merge(s, keep);
    }
    stats
}

/// Sorts `items` by their prefixes (`key`) in the order a search with `s` visits them.
/// In the natural move order that is the prefixes' order; `--move-order penalty` tries
/// the placements at a node in order of their penalty, so there each placement of a
/// prefix is keyed by it. A prefix comes before the prefixes below it either way.
pub(super) fn in_search_order<T>(
    puzzle: &Puzzle,
    s: Strategy,
    items: &mut Vec<T>,
    key: impl Fn(&T) -> &Prefix,
) {
    match s.moves {
        Order::Natural => items.sort_by(|a, b| key(a).cmp(key(b))),
        Order::Penalty => {
            let mut st = State::new(puzzle);
            let mut keyed: Vec<_> = std::mem::take(items)
                .into_iter()
                .map(|o| (penalty_key(&mut st, key(&o)), o))
                .collect();
            keyed.sort_by(|a, b| {
                let pairs = a.0.iter().zip(&b.0);
                let mut first = pairs.map(|(x, y)| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                first
                    .find(|o| o.is_ne())
                    .unwrap_or_else(|| a.0.len().cmp(&b.0.len()))
            });
            *items = keyed.into_iter().map(|(_, o)| o).collect();
        }
    }
}

/// Shard (or job) `i` of `n`'s share of a frontier's subproblems, or of anything listed
/// per subproblem: items i, i + n, i + 2n, ... The one home of how shards and job
/// files divide the frontier (`merge` relies on it to restore the search order).
pub fn share<T>(all: impl IntoIterator<Item = T>, i: usize, n: usize) -> impl Iterator<Item = T> {
    all.into_iter().skip(i).step_by(n)
}

/// The place of each of `units` (subproblems of one frontier) in the order a search
/// with `s` visits them (`in_search_order`): in the natural move order their index
/// in prefix order.
pub fn search_ranks(puzzle: &Puzzle, s: Strategy, units: &[Prefix]) -> Vec<usize> {
    if s.moves == Order::Natural {
        // A frontier's units are in prefix order already.
        return (0..units.len()).collect();
    }
    let mut order: Vec<(usize, &Prefix)> = units.iter().enumerate().collect();
    in_search_order(puzzle, s, &mut order, |o| o.1);
    let mut rank = vec![0; units.len()];
    for (r, (i, _)) in order.into_iter().enumerate() {
        rank[i] = r;
    }
    rank
}

/// The index of the subproblem of `units` (of one frontier, or a shard's share of
/// it, in prefix order) whose placements `board` holds: the one whose subtree holds
/// the board, a node at or below the frontier. None for a board above the frontier
/// (the frontier's internal nodes) or of no subproblem of `units`.
pub fn unit_of(units: &[Prefix], board: &crate::puzzle::Board) -> Option<usize> {
    let (mut lo, mut hi) = (0, units.len());
    let depth = units.first()?.len();
    for k in 0..depth {
        // Sorted, the units that share the first k placements are one run, and
        // they branch at one cell (the one the search picks at that node).
        let c = units.get(lo)?.get(k)?.0;
        let (piece, rot) = (*board.get(c)?)?;
        let here = (c, (4 * piece + rot as usize) as u32);
        let run = &units[lo..hi];
        let from = run.partition_point(|u| u.get(k).is_some_and(|&x| x < here));
        let to = run.partition_point(|u| u.get(k).is_some_and(|&x| x <= here));
        (lo, hi) = (lo + from, lo + to);
        if lo >= hi {
            return None;
        }
    }
    let holds =
        |&(c, o): &(usize, u32)| board.get(c) == Some(&Some((o as usize / 4, (o % 4) as u8)));
    (hi == lo + 1 && units[lo].iter().all(holds)).then_some(lo)
}

/// Where each placement of `prefix` comes among the tries at its node under
/// `--move-order penalty`: the ([`move_penalty`], oriented piece) that
/// [`super::select::Ordered`] sorts by. Two prefixes first differ at a node they share,
/// so these keys sort them as that search visits them.
pub(super) fn penalty_key(st: &mut State, prefix: &Prefix) -> Vec<(f64, u32)> {
    let key = prefix
        .iter()
        .map(|&(c, o)| {
            st.place(c, o);
            (move_penalty(st, c), o)
        })
        .collect();
    for &(c, _) in prefix.iter().rev() {
        st.unplace(c);
    }
    key
}

/// Searches `work` as `schedule` says and sums everything. `stop` is the caller's stop
/// flag (Ctrl-C). `save` is called with the finished subproblems, compacted, every
/// [`SAVE_EVERY`] from a helper thread, never from a worker.
pub fn run(
    puzzle: &Puzzle,
    s: Strategy,
    work: Work,
    schedule: Schedule<'_>,
    limits: &Limits,
    stop: &AtomicBool,
    save: Option<&Saver<'_>>,
) -> Result<Outcome, String> {
    let Work {
        mut todo,
        base,
        done: mut valid,
        finished,
    } = work;
    let Schedule {
        order,
        threads,
        interleave,
    } = schedule;
    let root = State::new(puzzle);
    if order == Order::Penalty {
        order_by_penalty(puzzle, &mut todo);
    }
    let mut prior = finished.stats();
    for r in &valid {
        prior.merge(&r.stats, 0);
    }
    super::progress::PROGRESS.add_resumed(prior.nodes(), prior.solutions_found);
    // The checkpoint's boards are in the running for the first `keep` too: they move
    // to the shelf (and come back to their records from there, see `shelved`). The
    // shelf has room for all of them, so that a rerun with a smaller `--keep` does not
    // drop boards from the checkpoint (the result lists the first `keep`). A record
    // that found more boards than it holds leaves a gap ([`Shelf::mark_gap`]).
    let held = valid.iter().map(|r| r.stats.solutions.len()).sum::<usize>();
    let shelf = Shelf::new(limits.keep.max(held));
    let mut st = State::new(puzzle);
    for r in &mut valid {
        let boards = std::mem::take(&mut r.stats.solutions);
        let rank = Rank::of(&mut st, s, &r.prefix);
        let lost = r.stats.solutions_found > boards.len() as u64;
        shelf.offer_all(rank.clone(), boards);
        if lost {
            shelf.mark_gap(rank);
        }
    }
    let want = limits.max_solutions.unwrap_or(u64::MAX);
    let frontier_nodes = base.nodes();
    let ctx = Ctx {
        puzzle,
        s,
        // An interleaved run walks on its plan's tables alone.
        tables: match interleave {
            Some(_) => ScanTables::none(),
            None => ScanTables::for_search(&root, s.select),
        },
        root,
        limits,
        want,
        // With a checkpoint the frontier is not new work after the first run, and a
        // budget it used up would leave every rerun where the last one stopped.
        base_nodes: if save.is_some() { 0 } else { frontier_nodes },
        halt: AtomicBool::new(false),
        hungry: AtomicBool::new(false),
        queued: AtomicUsize::new(0),
        found: AtomicU64::new(prior.solutions_found),
        nodes: AtomicU64::new(0),
        started: AtomicUsize::new(0),
        records: Mutex::new(valid),
        folded: Mutex::new(Folded::default()),
        units: save.map(|sv| sv.units),
        partial: Mutex::new(Vec::new()),
        deepest: AtomicUsize::new(0),
        skipped: AtomicUsize::new(0),
        keep_rest: save.is_some(),
        shelf,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let done = AtomicBool::new(false);
    // The deadline too: subproblems smaller than a poll's nodes never see it.
    let halt_if_due = || {
        if stop_reason(limits, stop).is_some() {
            ctx.halt.store(true, Ordering::Release);
        }
    };
    // Once before any subproblem starts, so that a run already due searches nothing
    // (else what it searched would depend on when the helper first looks).
    halt_if_due();
    std::thread::scope(|scope| {
        let helper = scope.spawn(|| {
            let mut last = Instant::now();
            while !done.load(Ordering::Acquire) {
                halt_if_due();
                if let Some(sv) = save {
                    if last.elapsed() >= SAVE_EVERY {
                        let records = ctx.records.lock().unwrap().clone();
                        let (now, records) = ctx.folded.lock().unwrap().with(&finished, records);
                        (sv.save)(&now, shelved(puzzle, s, &ctx.shelf, records));
                        last = Instant::now();
                    }
                }
                std::thread::park_timeout(Duration::from_millis(20));
            }
        });
        match interleave {
            Some(plan) => {
                let queue = interleave::queue(todo);
                pool.broadcast(|_| interleave::work(&ctx, &plan.tables, &queue, plan.how));
                interleave::drain(&ctx, &plan.tables, queue);
            }
            None => pool.scope_fifo(|s| {
                for u in todo {
                    spawn(&ctx, s, u);
                }
            }),
        }
        done.store(true, Ordering::Release);
        helper.thread().unpark();
    });
    let user_stop = stop.load(Ordering::Relaxed);

    // Merge in search order (see the module doc).
    let records = ctx.records.into_inner().unwrap();
    let (finished, records) = ctx.folded.into_inner().unwrap().with(&finished, records);
    // Their boards for the checkpoint (no other reader): a second copy of the shelf's.
    let records = match save {
        Some(_) => shelved(puzzle, s, &ctx.shelf, records),
        None => records,
    };
    let partial = ctx.partial.into_inner().unwrap();
    let outcomes = records.iter().map(|r| (&r.prefix, &r.stats));
    let outcomes = outcomes.chain(partial.iter().map(|(p, s)| (p, s)));
    // The counts; the boards are the shelf's.
    let mut stats = merged(puzzle, s, base, outcomes, 0);
    stats.solutions = ctx.shelf.take_all();
    stats.solutions.truncate(limits.keep);
    stats.merge(&finished.stats(), 0);
    stats.stopped = None;
    let found = stats.solutions_found;
    // What stopped subproblems: unfinished ones, and finished ones that handed their
    // rest over (records of this run only carry a stop).
    let stops: Vec<Stop> = partial
        .iter()
        .map(|(_, s)| s)
        .chain(records.iter().map(|r| &r.stats))
        .filter_map(|s| s.stopped)
        .collect();
    let unfinished =
        !stops.is_empty() || !partial.is_empty() || ctx.skipped.load(Ordering::Relaxed) > 0;
    if found >= want {
        stats.solutions_found = want;
        stats
            .solutions
            .truncate(want.min(limits.keep as u64) as usize);
        stats.stopped = Some(Stop::Solutions);
    } else if unfinished {
        let why = |w: Stop| stops.contains(&w);
        stats.stopped = Some(if user_stop {
            Stop::Interrupted
        } else if why(Stop::MaxNodes)
            || limits
                .max_nodes
                .is_some_and(|m| stats.nodes() - prior.nodes() >= m)
        {
            Stop::MaxNodes
        } else if why(Stop::Timeout) || limits.deadline.is_some() {
            Stop::Timeout
        } else {
            Stop::Interrupted
        });
    }
    Ok(Outcome {
        stats,
        records,
        finished,
        subproblems: ctx.started.load(Ordering::Relaxed),
        resumed_nodes: prior.nodes(),
        rebuilt_nodes: frontier_nodes - ctx.base_nodes,
    })
}
