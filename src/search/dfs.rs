//! The depth-first driver: an explicit stack over [`State`], a [`Select`] heuristic
//! choosing the site at each node, node counts per depth, limits, and solutions
//! handed to the independent checker before they are kept.
//!
//! A node is a consistent partial placement. `nodes_per_depth[d]` counts nodes with d
//! pieces placed beyond the hints; the node the search starts at is counted too (the
//! root, when starting from the empty board).

use super::progress::PROGRESS;
use super::select::{Pick, Select};
use super::shelf::Slot;
use super::state::{pop_lowest, with_words, State};
use crate::puzzle::{verify, Board, Puzzle};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Offer the boards to this slot of a parallel run's shared shelf instead of
    /// keeping them (`keep` then does not apply): one shelf keeps the run's first
    /// `keep` ([`super::shelf`]).
    pub shelf: Option<Slot>,
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
    /// at the greatest depth, [`super::compact`]), which no shallower board replaces.
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

/// Searches the subtree below the current node of `st` and leaves `st` as it found it.
///
/// `stop` is polled every few thousand nodes: set it to interrupt (Ctrl-C, another
/// worker's solution). Panics if a solution fails the independent checker: that would
/// be a bug in the search, never a property of the input.
pub fn search<S: Select>(
    st: &mut State,
    sel: &mut S,
    puzzle: &Puzzle,
    limits: &Limits,
    stop: &AtomicBool,
) -> Stats {
    search_sharing(st, sel, puzzle, limits, stop, &mut NoShare)
}

/// [`search`] that may give away parts of its tree through `share`.
pub fn search_sharing<S: Select, W: Share>(
    st: &mut State,
    sel: &mut S,
    puzzle: &Puzzle,
    limits: &Limits,
    stop: &AtomicBool,
    share: &mut W,
) -> Stats {
    if let Some(stats) = sel.drive(st, puzzle, limits, stop, share) {
        return stats;
    }
    // One copy of the loop per common bitset length.
    with_words!(st.words, N => run::<S, W, N>(st, sel, puzzle, limits, stop, share))
}

/// The loop of [`search_sharing`], compiled for bitsets of N words (0: any length).
fn run<S: Select, W: Share, const N: usize>(
    st: &mut State,
    sel: &mut S,
    puzzle: &Puzzle,
    limits: &Limits,
    stop: &AtomicBool,
    share: &mut W,
) -> Stats {
    let d0 = st.depth();
    let top = st.max_depth();
    let words = if N == 0 { st.words } else { N };
    let mut stats = start_stats(st);
    // site[d]: the cell branched on at depth d; cands[d]: its placements not yet tried.
    let mut site = vec![0usize; top + 1];
    let mut cands = vec![0u64; (top + 1) * words];
    let mut nodes = vec![0u64; top + 1];
    let mut moves = Moves::new::<S>(top, st.edges.len());
    let mut total: u64 = 0;
    let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
    let max_solutions = limits.max_solutions.unwrap_or(u64::MAX);
    let every = sel.check_every();
    let mut countdown = every;

    let mut d = d0;
    let mut fresh = true; // true when (d) is a node just entered
    nodes[d] += 1;
    total += 1;
    'run: {
        if total >= max_nodes {
            stats.stopped = Some(Stop::MaxNodes);
            break 'run;
        }
        loop {
            if fresh {
                if S::ORDERS_MOVES {
                    moves.at[d] = (0, 0);
                }
                let slot = &mut cands[d * words..][..words];
                if d == top {
                    slot.fill(0);
                    record_solution(st.board(), puzzle, limits, &mut stats);
                    if stats.solutions_found >= max_solutions {
                        stats.stopped = Some(Stop::Solutions);
                        break 'run;
                    }
                } else {
                    match sel.pick(st) {
                        Pick::Site(c) => {
                            site[d] = c;
                            st.candidates_into_w::<N>(c, slot);
                            if S::ORDERS_MOVES {
                                moves.order(sel, st, d, c, slot);
                            }
                        }
                        Pick::Dead => slot.fill(0),
                    }
                }
            }
            // Take the next untried placement at depth d: lowest oriented piece first, or
            // in the selector's order.
            let slot = &mut cands[d * words..][..words];
            let next = if S::ORDERS_MOVES {
                moves.next(d, slot)
            } else {
                pop_lowest(slot)
            };
            if let Some(o) = next {
                // A child the selector would declare dead is counted without being
                // entered (not a new deepest node: that one's board is kept).
                let leaf =
                    S::DEAD_ON_ZERO && d < stats.deepest && st.kills_neighbour_w::<N>(site[d], o);
                if leaf {
                    fresh = false;
                } else {
                    st.place_w::<N>(site[d], o);
                    d += 1;
                    fresh = true;
                    if d > stats.deepest {
                        stats.deepest = d;
                        stats.deepest_board = st.board();
                    }
                }
                // The child's depth: d now if entered, d + 1 if counted as a leaf.
                let child = d + leaf as usize;
                nodes[child] += 1;
                total += 1;
                if total >= max_nodes {
                    stats.stopped = Some(Stop::MaxNodes);
                    break 'run;
                }
                countdown -= 1;
                if countdown == 0 {
                    countdown = every;
                    if let Some(why) = poll(&stats, every, limits, stop) {
                        stats.stopped = Some(why);
                        break 'run;
                    }
                    if share.wants() {
                        offer(st, &site, &mut cands, words, d0, child, share);
                    }
                }
                continue;
            }
            if d == d0 {
                break;
            }
            d -= 1;
            st.unplace_w::<N>(site[d]);
            fresh = false;
        }
    }
    if let Some(why) = stats.stopped {
        // Every node counted is seen through: the one counted last is recorded (a
        // solution) or opened, so a budget of n nodes reports what those n hold. (A
        // stop at the solution limit came right after recording one.)
        if fresh && why != Stop::Solutions {
            let slot = &mut cands[d * words..][..words];
            slot.fill(0);
            if d == top {
                record_solution(st.board(), puzzle, limits, &mut stats);
                if stats.solutions_found >= max_solutions {
                    stats.stopped = Some(Stop::Solutions);
                }
            } else if let Pick::Site(c) = sel.pick(st) {
                site[d] = c;
                st.candidates_into_w::<N>(c, slot);
            }
        }
        let open = |k: usize| cands[k * words..][..words].iter().any(|&w| w != 0);
        let at_limit = stats.stopped == Some(Stop::Solutions);
        if !at_limit && !(d0..=d).any(open) {
            // Nothing was left untried: the stop came as the tree ended.
            stats.stopped = None;
        } else if share.wants_rest() {
            for k in (d0..=d).filter(|&k| open(k)) {
                let untried = &cands[k * words..][..words];
                share.rest(&path_to(st, &site, d0, k), site[k], untried);
            }
        }
    }
    // Leave the state as we found it, also after an early stop.
    while d > d0 {
        d -= 1;
        st.unplace_w::<N>(site[d]);
    }
    stats.nodes_per_depth = nodes;
    stats
}

/// The selector's order of the placements at each depth ([`Select::ORDERS_MOVES`]);
/// empty, and never used, otherwise. The slot's bitset stays the set of untried
/// placements (`offer` may clear it), the list only says in which order to try them.
struct Moves {
    stride: usize,
    list: Vec<u32>,
    /// Per depth: next index into its row of `list`, and the row's length.
    at: Vec<(usize, usize)>,
}

impl Moves {
    fn new<S: Select>(top: usize, orientations: usize) -> Moves {
        let (stride, depths) = if S::ORDERS_MOVES {
            (orientations, top + 1)
        } else {
            (0, 0)
        };
        Moves {
            stride,
            list: vec![0; stride * depths],
            at: vec![(0, 0); depths],
        }
    }

    fn order<S: Select>(
        &mut self,
        sel: &mut S,
        st: &mut State,
        d: usize,
        site: usize,
        slot: &[u64],
    ) {
        let n = sel.order_moves(
            st,
            site,
            slot,
            &mut self.list[d * self.stride..][..self.stride],
        );
        self.at[d] = (0, n);
    }

    /// The next placement of depth d's order still in `slot`, taken out of it.
    #[inline]
    fn next(&mut self, d: usize, slot: &mut [u64]) -> Option<u32> {
        let (i, n) = &mut self.at[d];
        while *i < *n {
            let o = self.list[d * self.stride + *i];
            *i += 1;
            let (k, bit) = (o as usize / 64, o % 64);
            if slot[k] >> bit & 1 == 1 {
                slot[k] &= !(1 << bit);
                return Some(o);
            }
        }
        None
    }
}

/// Offers the untried placements of the shallowest ancestor (depth d0..d) that has
/// any; clears them if taken. The current node's own slot (depth d) is not yet filled.
#[cold]
fn offer<W: Share>(
    st: &State,
    site: &[usize],
    cands: &mut [u64],
    words: usize,
    d0: usize,
    d: usize,
    share: &mut W,
) {
    let Some(k) = (d0..d).find(|&k| cands[k * words..][..words].iter().any(|&w| w != 0)) else {
        return;
    };
    if share.take(
        &path_to(st, site, d0, k),
        site[k],
        &cands[k * words..][..words],
    ) {
        cands[k * words..][..words].fill(0);
    }
}

/// The placements from the start depth `d0` down to depth `k`, for [`Share`].
fn path_to(st: &State, site: &[usize], d0: usize, k: usize) -> Vec<(usize, u32)> {
    (d0..k).map(|j| (site[j], st.at(site[j]))).collect()
}

/// The stats of a search starting at `st`'s node (nothing counted yet).
pub(super) fn start_stats(st: &State) -> Stats {
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
pub(super) fn poll(stats: &Stats, every: u32, limits: &Limits, stop: &AtomicBool) -> Option<Stop> {
    PROGRESS.add_nodes(every as u64);
    PROGRESS.note_depth(stats.deepest);
    stop_reason(limits, stop)
}

/// Why a run must stop now, if it must: the stop flag (Ctrl-C) first, then the
/// deadline.
pub(super) fn stop_reason(limits: &Limits, stop: &AtomicBool) -> Option<Stop> {
    if stop.load(Ordering::Relaxed) {
        Some(Stop::Interrupted)
    } else if limits.deadline.is_some_and(|t| Instant::now() >= t) {
        Some(Stop::Timeout)
    } else {
        None
    }
}

/// Checks a full board with the independent checker, then counts and maybe keeps it.
pub(super) fn record_solution(board: Board, puzzle: &Puzzle, limits: &Limits, stats: &mut Stats) {
    if let Err(v) = verify::check(puzzle, &board, true) {
        panic!("internal error: the search produced a board the checker rejects: {v}");
    }
    stats.solutions_found += 1;
    PROGRESS.add_solution();
    match &limits.shelf {
        Some(slot) => {
            slot.offer(board);
        }
        None if stats.solutions.len() < limits.keep => stats.solutions.push(board),
        None => {}
    }
}
