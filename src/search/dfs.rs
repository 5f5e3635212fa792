//! The depth-first driver: an explicit stack over [`State`], a [`Select`] heuristic
//! choosing the site at each node, node counts per depth, limits, and solutions
//! handed to the independent checker before they are kept.
//!
//! A node is a consistent partial placement. `nodes_per_depth[d]` counts nodes with d
//! pieces placed beyond the hints; the node the search starts at is counted too (the
//! root, when starting from the empty board).

use super::limits::{poll, record_solution, start_stats};
use super::limits::{Limits, NoShare, Share, Stats, Stop};
use super::select::{Pick, Select};
use super::state::{pop_lowest, with_words, State};
use crate::puzzle::Puzzle;
use std::sync::atomic::AtomicBool;

/// Searches the subtree below the current node of `st` on the generic driver, whatever
/// the heuristic ([`super::engine`] gives `scan` its own), and leaves `st` as it found it.
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
    search_below(st, sel, puzzle, limits, stop, share, &mut Nowhere)
}

/// A search that takes whole subtrees over from the generic driver: a hybrid's
/// planned part ([`super::engine`]). Every node at depth [`Below::from`] or deeper
/// that the driver enters is handed to [`Below::search`] as the start node of a
/// search of its own, which counts its subtree (that node again included), records its
/// solutions, stops at the limits it is given and shares through the share given.
pub trait Below {
    /// The first depth handed over (`usize::MAX`: none).
    fn from(&self) -> usize;
    fn search<W: Share>(
        &mut self,
        st: &mut State,
        limits: &Limits,
        stop: &AtomicBool,
        share: &mut W,
    ) -> Stats;
}

/// Hands nothing over: the plain generic search (the depth test is compiled out).
pub struct Nowhere;

impl Below for Nowhere {
    #[inline(always)]
    fn from(&self) -> usize {
        usize::MAX
    }
    fn search<W: Share>(&mut self, _: &mut State, _: &Limits, _: &AtomicBool, _: &mut W) -> Stats {
        unreachable!("Nowhere takes no subtree")
    }
}

/// [`search_sharing`] that hands the subtrees at `below`'s depth over to it.
pub fn search_below<S: Select, W: Share, B: Below>(
    st: &mut State,
    sel: &mut S,
    puzzle: &Puzzle,
    limits: &Limits,
    stop: &AtomicBool,
    share: &mut W,
    below: &mut B,
) -> Stats {
    // One copy of the loop per common bitset length.
    with_words!(st.words, N => run::<S, W, B, N>(st, sel, puzzle, limits, stop, share, below))
}

/// The loop of [`search_below`], compiled for bitsets of N words (0: any length).
fn run<S: Select, W: Share, B: Below, const N: usize>(
    st: &mut State,
    sel: &mut S,
    puzzle: &Puzzle,
    limits: &Limits,
    stop: &AtomicBool,
    share: &mut W,
    below: &mut B,
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
    // A subtree handed over stopped early: its rest went to `share`, not to the stack.
    let mut below_stopped = false;

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
                } else if d >= below.from() {
                    slot.fill(0);
                    let sub = hand_over(st, &site, d0, total, &stats, limits, stop, share, below);
                    // Its start node is this one, counted already.
                    for (a, b) in nodes.iter_mut().zip(&sub.nodes_per_depth) {
                        *a += b;
                    }
                    nodes[d] -= 1;
                    total += sub.nodes() - 1;
                    stats.merge(&sub, limits.keep);
                    if sub.stopped.is_some() {
                        (below_stopped, fresh) = (true, false);
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
        if !at_limit && !below_stopped && !(d0..=d).any(open) {
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

/// Hands the subtree of the current node (depth `d`, reached from the start depth `d0`
/// through `site`) to `below`, with what is left of the limits after `total` nodes
/// and `stats`' solutions, and a share that sees the whole path from `d0`.
#[cold]
#[allow(clippy::too_many_arguments)]
fn hand_over<W: Share, B: Below>(
    st: &mut State,
    site: &[usize],
    d0: usize,
    total: u64,
    stats: &Stats,
    limits: &Limits,
    stop: &AtomicBool,
    share: &mut W,
    below: &mut B,
) -> Stats {
    let rest = Limits {
        // Its start node is counted again there.
        max_nodes: limits.max_nodes.map(|m| m - total + 1),
        max_solutions: limits.max_solutions.map(|m| m - stats.solutions_found),
        ..limits.clone()
    };
    let d = st.depth();
    let mut share = Prefixed {
        prefix: path_to(st, site, d0, d),
        path: Vec::new(),
        share,
    };
    below.search(st, &rest, stop, &mut share)
}

/// A share seen from a subtree handed over: its paths start below `prefix`. It holds
/// the share as a trait object (it is asked only at polls), so the planned driver is
/// compiled once for every share type a hybrid runs with.
struct Prefixed<'a> {
    prefix: Vec<(usize, u32)>,
    /// The whole path of the last offer (reused).
    path: Vec<(usize, u32)>,
    share: &'a mut dyn Share,
}

impl Prefixed<'_> {
    fn whole(&mut self, path: &[(usize, u32)]) -> Vec<(usize, u32)> {
        let mut whole = std::mem::take(&mut self.path);
        whole.clear();
        whole.extend_from_slice(&self.prefix);
        whole.extend_from_slice(path);
        whole
    }
}

impl Share for Prefixed<'_> {
    fn wants(&mut self) -> bool {
        self.share.wants()
    }
    fn take(&mut self, path: &[(usize, u32)], site: usize, untried: &[u64]) -> bool {
        let whole = self.whole(path);
        let taken = self.share.take(&whole, site, untried);
        self.path = whole;
        taken
    }
    fn wants_rest(&self) -> bool {
        self.share.wants_rest()
    }
    fn rest(&mut self, path: &[(usize, u32)], site: usize, untried: &[u64]) {
        let whole = self.whole(path);
        self.share.rest(&whole, site, untried);
        self.path = whole;
    }
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
