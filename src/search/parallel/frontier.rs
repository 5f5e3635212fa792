//! The frontier: the top levels of the tree expanded breadth-first into independent
//! subproblems, each named by its prefix (tree packing: see the [`super`] module doc),
//! and the order a search visits them in.

use crate::puzzle::Puzzle;
use crate::search::limits::{stop_reason, Limits, Stats, Stop};
use crate::search::select::{log_options, move_penalty, Order, Pick, Select, Strategy};
use crate::search::state::State;
use std::sync::atomic::AtomicBool;

/// Placements `(cell, oriented piece)` from the root: one subproblem.
pub type Prefix = Vec<(usize, u32)>;

/// Frontier size wanted per thread when no `--split-depth` is given.
pub const UNITS_PER_THREAD: usize = 8;
/// Frontier size wanted per shard or job for `--shard` / `split` without `--split-depth`.
pub const UNITS_PER_SHARD: usize = 64;

/// The deepest `--split-depth` accepted: deeper than any board one would split.
pub const MAX_SPLIT_DEPTH: u64 = 256;
/// Nodes the frontier may hold (12 bytes each, plus the subproblems' prefixes): a
/// split deep enough to pass it enumerates most of the tree breadth-first, so it is
/// refused rather than left to grow without limit.
pub const FRONTIER_MAX: usize = 1 << 24;

/// Why [`frontier`] gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontierError {
    /// The stop flag or the deadline, polled every 1024 expanded nodes.
    Stopped(Stop),
    /// Level `depth` would pass [`FRONTIER_MAX`] nodes.
    TooBig { depth: usize },
}

impl std::fmt::Display for FrontierError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrontierError::Stopped(w) => write!(f, "stopped while expanding the frontier ({w:?})"),
            FrontierError::TooBig { depth } => write!(
                f,
                "the frontier of subproblems would hold more than {FRONTIER_MAX} nodes at depth {depth}; choose a smaller --split-depth (or fewer shards or jobs)"
            ),
        }
    }
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
) -> Result<Frontier, FrontierError> {
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
                    return Err(FrontierError::Stopped(why));
                }
            }
            // Counted as the array grows: a level that passes the cap is refused at
            // its next node, not once it is whole.
            if nodes.len() > FRONTIER_MAX {
                leave(st, &nodes, &mut path);
                return Err(FrontierError::TooBig { depth: d + 1 });
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
) -> Result<Frontier, FrontierError> {
    let mut st = State::new(puzzle);
    crate::with_strategy!(h.into(), &st, |sel| frontier(
        &mut st, &mut sel, split, limits, stop
    ))
}

/// The frontier with no limit and no stop flag: the whole split, as job files need
/// it (any error is [`FrontierError::TooBig`]).
pub fn full_frontier(
    puzzle: &Puzzle,
    h: impl Into<Strategy>,
    split: Split,
) -> Result<Frontier, FrontierError> {
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

/// Sorts `items` by their prefixes (`key`) in the order a search with `s` visits them.
/// In the natural move order that is the prefixes' order; `--move-order penalty` tries
/// the placements at a node in order of their penalty, so there each placement of a
/// prefix is keyed by it. A prefix comes before the prefixes below it either way.
pub(crate) fn in_search_order<T>(
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
/// [`crate::search::select::Ordered`] sorts by. Two prefixes first differ at a node they share,
/// so these keys sort them as that search visits them.
pub(crate) fn penalty_key(st: &mut State, prefix: &Prefix) -> Vec<(f64, u32)> {
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
