//! The walk: the per-node loops of the row-scan driver and the state they keep.
//!
//! **Invariants of the loop**, at depth d (pieces placed at depths `d0..d`):
//! 1. `used[p]` is 1 exactly for the hints' pieces, the start prefix's, and the pieces
//!    placed at depths `d0..d`.
//! 2. `frames[j].placed` (j < d) is the entry placed at depth j. `frames[top]` is never
//!    placed: its colours stay 0, and a static up neighbour (rim, hint) points there.
//!    An entry shows its down/right colour only toward a search cell ([`Entry::new`]),
//!    so the previous depth's entry is always the left part of the key ([`key_at`]),
//!    and a static side's part of the key is always 0.
//! 3. `frames[d].next..end` is the untried rest of depth d's candidate list; entries
//!    whose piece is used are skipped when reached, which is what `fits & free` means.
//!    Lists are padded to whole chunks with entries of a piece that is never free
//!    (`used[pieces] = 1`), so they are never pushed.
//! 4. Bounds: d0 <= d <= top; `frames` has top + 1 slots; a frame's `far` is the byte
//!    offset of a frame (an earlier depth or the ZERO slot); a key is below its
//!    class's `radix * radix` (dense colours < radix), so `heads[key + 1]` exists; entry
//!    indices stay inside one list; pieces < `used.len()`. The unchecked reads of the
//!    loop rely on these (debug builds check them).
//!
//! **Mask mode** (at most 64 pieces, [`Masks`]): the same walk over one `u64` of free
//! pieces instead of `used` and the stack. Invariant 1 holds for `free` (bit p set
//! exactly when piece p is free; `used` stays as the walk found it). Invariant 3
//! becomes: `frames[d].cand` holds the pieces with an untried orientation at depth d
//! (they were free when d was entered); the lowest one's untried orientations are
//! `first[row + p]` and the chain after it, where `row` is the key's row or one of its
//! virtual copies (see [`Masks`]); the others' are all their key's. The order of the
//! placements is the lists' (ascending `o`), so both modes visit the same nodes.
//!
//! **The walk.** [`RowScan::walk`] runs a [`Walker`] (invariants 1-4 are about its
//! fields). It pauses after counting a node when the node budget it was given is
//! reached or the node is at the goal depth (a solution), and resumes there, so
//! polling, sharing and solutions stay outside the per-node code. The per-node loops
//! ([`advance_mask`], [`RowScan::advance_list`]) return to it only at such nodes and
//! at new deepest ones; mask mode counts a child without candidates (a leaf) without
//! entering it.

use super::records::{get, get_mut, Entry, Frame};
use super::tables::{Masks, RowScan, CHUNK};
use crate::puzzle::Board;
use crate::search::limits::{self, Stats};
use crate::search::state::State;

impl RowScan {
    /// Walks `w` on until its node count reaches `until` (`Budget`: the last node
    /// counted is expanded when the walk resumes), a node at its goal depth is counted
    /// (`Goal`: the node is at `w.d`), or its subtree is done. The per-node loop is in
    /// [`advance_mask`] and [`RowScan::advance_list`]; they stop at the nodes that need
    /// attention here.
    pub(super) fn walk<const MASK: bool, const P: bool>(
        &self,
        w: &mut Walker,
        until: u64,
    ) -> Walked {
        let goal = w.goal;
        let mut h = Hot {
            d: w.d,
            d0: w.d0,
            // The one depth test per node: a node at `watch` or deeper is a new deepest
            // node (watch = deepest + 1) or a goal node (watch = goal once deepest is).
            watch: (w.stats.deepest + 1).min(goal),
            left: until as i64 - w.total as i64,
            free: w.free,
        };
        let (outcome, resume) = 'run: {
            match w.resume {
                Resume::Counted if h.d == goal => break 'run (Walked::Goal, Resume::AtGoal),
                Resume::Counted => self.open_at::<MASK, P>(w, &h),
                Resume::AtGoal => {
                    let f = &mut w.frames[h.d];
                    (f.next, f.end, f.cand) = (0, 0, 0);
                }
            }
            loop {
                let counted = match &self.masks {
                    Some(m) if MASK && P => advance_mask_planned(m, &mut w.frames, &mut h),
                    Some(m) if MASK => advance_mask_lines(m, &mut w.frames, &mut h),
                    _ if P => {
                        self.advance_list_planned(&mut w.frames, &mut w.stack, &mut w.used, &mut h)
                    }
                    _ => self.advance_list_lines(&mut w.frames, &mut w.stack, &mut w.used, &mut h),
                };
                if !counted {
                    break 'run (Walked::Done, Resume::AtGoal);
                }
                let d = h.d;
                if d >= h.watch {
                    if d > w.stats.deepest {
                        h.watch = (d + 1).min(goal);
                        w.stats.deepest = d;
                        w.stats.deepest_board = self.board(w, d);
                    }
                    if d == goal {
                        if h.left <= 0 {
                            break 'run (Walked::Budget, Resume::Counted);
                        }
                        break 'run (Walked::Goal, Resume::AtGoal);
                    }
                }
                if h.left <= 0 {
                    break 'run (Walked::Budget, Resume::Counted);
                }
                self.open_at::<MASK, P>(w, &h);
            }
        };
        let total = (until as i64 - h.left) as u64;
        (w.d, w.total, w.resume, w.free) = (h.d, total, resume, h.free);
        outcome
    }

    /// Opens depth `h.d` of `w` (its candidates), outside the per-node loops.
    pub(super) fn open_at<const MASK: bool, const P: bool>(&self, w: &mut Walker, h: &Hot) {
        let (frames, d) = (&mut w.frames[..], h.d);
        let prev = prev_at(frames, d);
        match &self.masks {
            Some(m) if MASK => open_mask::<P>(frames, m, &self.tabs, h.free, d, prev),
            _ => {
                let start = if d == h.d0 { 0 } else { frames[d - 1].end };
                let _ = self.open::<P>(frames, &mut w.stack, &w.used, d, prev, start);
            }
        }
    }

    /// The list driver's per-node loop: walks on from depth `h.d` (open) until a node
    /// it counts is at `h.watch` or deeper or uses up the budget (true: that node is
    /// at `h.d`, counted, not opened), or the subtree is done (false).
    #[inline(always)]
    fn advance_list<const P: bool>(
        &self,
        frames: &mut [Frame],
        stack: &mut [Entry],
        used: &mut [u8],
        h: &mut Hot,
    ) -> bool {
        let (mut d, d0, watch, mut left) = (h.d, h.d0, h.watch, h.left);
        loop {
            let f = get_mut(frames, d);
            if f.next < f.end {
                let mut e = get(stack, f.next as usize);
                f.next += 1;
                loop {
                    get_mut(frames, d).placed = e;
                    *get_mut(used, e.piece()) = 1;
                    d += 1;
                    get_mut(frames, d).nodes += 1;
                    left -= 1;
                    if d >= watch || left <= 0 {
                        (h.d, h.left) = (d, left);
                        return true;
                    }
                    let start = get(frames, d - 1).end;
                    let first = self.open::<P>(frames, stack, used, d, e, start);
                    let f = get_mut(frames, d);
                    if f.next == f.end {
                        break;
                    }
                    // Into the first candidate at once: `open` hands it over in a
                    // register. The loop is bound by the chain of loads from one key
                    // to the next, not by instructions: skipping the reload from the
                    // stack costs 6 instructions per node and gains 13-15% on E2.
                    f.next += 1;
                    e = first;
                }
                continue;
            }
            if d == d0 {
                (h.d, h.left) = (d, left);
                return false;
            }
            d -= 1;
            *get_mut(used, get(frames, d).placed.piece()) = 0;
        }
    }

    /// [`RowScan::advance_list`] along lines: not inlined, as before planned orders.
    #[inline(never)]
    fn advance_list_lines(
        &self,
        frames: &mut [Frame],
        stack: &mut [Entry],
        used: &mut [u8],
        h: &mut Hot,
    ) -> bool {
        self.advance_list::<false>(frames, stack, used, h)
    }

    /// [`RowScan::advance_list`] of a planned order.
    fn advance_list_planned(
        &self,
        frames: &mut [Frame],
        stack: &mut [Entry],
        used: &mut [u8],
        h: &mut Hot,
    ) -> bool {
        self.advance_list::<true>(frames, stack, used, h)
    }

    /// Pushes depth d's candidates whose piece is free onto `stack` from `start` on
    /// (branch-free: every entry is written, the free ones are kept) and sets d's range.
    /// Returns the first of them (meaningless when there is none).
    #[inline(always)]
    fn open<const P: bool>(
        &self,
        frames: &mut [Frame],
        stack: &mut [Entry],
        used: &[u8],
        d: usize,
        prev: Entry,
        start: u32,
    ) -> Entry {
        let key = key_at::<P>(&self.tabs, frames, d, prev);
        let mut n = start;
        let mut first = Entry::default();
        let mut push = |e: Entry| {
            *get_mut(stack, n as usize) = e;
            // Until one is kept, `first` follows the entries: it ends on the first
            // kept one.
            first = if n == start { e } else { first };
            n += (get(used, e.piece()) == 0) as u32;
        };
        // The first chunk from `firsts`, the rest (rare) from `entries`, in whole
        // chunks: most lists are one chunk, so the loop's exit is predictable.
        get(&self.firsts, key).into_iter().for_each(&mut push);
        let (mut i, end) = (
            get(&self.heads, key) as usize + CHUNK,
            get(&self.heads, key + 1) as usize,
        );
        while i < end {
            (i..i + CHUNK).for_each(|j| push(get(&self.entries, j)));
            i += CHUNK;
        }
        let f = get_mut(frames, d);
        f.next = start;
        f.end = n;
        first
    }

    /// The board of `w` at depth d: its base (hints and start prefix) plus its
    /// placements at depths `w.d0..d`.
    pub(super) fn board(&self, w: &Walker, d: usize) -> Board {
        self.board_of(&w.base, &w.frames, w.d0, d)
    }

    #[cold]
    fn board_of(&self, base: &Board, frames: &[Frame], d0: usize, d: usize) -> Board {
        let mut b = base.clone();
        for j in d0..d {
            let o = frames[j].placed.o();
            b[self.order[j] as usize] = Some(((o / 4) as usize, (o % 4) as u8));
        }
        b
    }
}

/// Depth d's key: its class and the colours its up and left neighbours show, where
/// `prev` is the entry placed at depth d - 1 (0 at depth 0). In row-major order a
/// cell's left neighbour, when it is a search cell, is the previous depth's; otherwise
/// the previous depth's right neighbour is static and its entry shows 0 there
/// ([`Entry::new`]). So `prev` is always the left part. A planned order (`P`) reads
/// its key through the frame's parts instead ([`key_planned`]).
#[inline(always)]
pub(super) fn key_at<const P: bool>(
    tabs: &[u32],
    frames: &[Frame],
    d: usize,
    prev: Entry,
) -> usize {
    if P {
        return key_planned(tabs, frames, d);
    }
    let f = get(frames, d);
    f.class as usize + frame_at(frames, f.far as usize).placed.far_key() + prev.near()
}

/// A planned order's key at depth d: its class plus, for each of its four parts, the
/// translated colour ([`RowScan::tabs`]) that the byte `offs[p]` bytes into `frames`
/// holds: the colour a key neighbour's entry shows toward the cell. Only the used
/// parts are read (an unused one would read the ZERO slot through the all-zero table
/// 0): 6 % (spiral) to 11 % (hints) fewer instructions per node on Puzzle D than
/// all four.
#[inline(always)]
pub(super) fn key_planned(tabs: &[u32], frames: &[Frame], d: usize) -> usize {
    let f = get(frames, d);
    let bytes = frames.as_ptr() as *const u8;
    let mut key = f.class as usize;
    for p in 0..f.parts as usize {
        let off = f.offs[p] as usize;
        debug_assert!(off < std::mem::size_of_val(frames));
        // SAFETY: `off` is a byte of an entry of a frame inside `frames` (invariant 4).
        let c = unsafe { *bytes.add(off) } as usize;
        key += get(tabs, f.tabs[p] as usize + c) as usize;
    }
    key
}

/// The frame `off` bytes into `frames`: `Frame::up` without a multiply.
#[inline(always)]
fn frame_at(frames: &[Frame], off: usize) -> &Frame {
    let size = size_of::<Frame>(); // a power of two (64)
    debug_assert!(off & (size - 1) == 0 && off / size < frames.len());
    // SAFETY: `off` is a whole number of frames inside `frames` (invariant 4).
    unsafe { &*frames.as_ptr().byte_add(off) }
}

/// The entry placed at depth d - 1, for [`key_at`] when the loop does not hold it.
#[inline(always)]
pub(super) fn prev_at(frames: &[Frame], d: usize) -> Entry {
    if d == 0 {
        Entry::default()
    } else {
        get(frames, d - 1).placed
    }
}

/// Mask mode's `open`: depth d's candidates are the free pieces of its key's mask.
#[inline(always)]
fn open_mask<const P: bool>(
    frames: &mut [Frame],
    m: &Masks,
    tabs: &[u32],
    free: u64,
    d: usize,
    prev: Entry,
) {
    let key = key_at::<P>(tabs, frames, d, prev);
    let f = get_mut(frames, d);
    (f.cand, f.row) = (get(&m.bits, key) & free, m.row::<P>(key));
}

/// Mask mode's per-node loop, with the contract of [`RowScan::advance_list`]. A child
/// without candidates (a leaf: about 40 % of the nodes on Puzzle D) is counted without
/// being entered.
#[inline(always)]
pub(super) fn advance_mask<const P: bool>(m: &Masks, frames: &mut [Frame], h: &mut Hot) -> bool {
    let (bits, first) = (&m.bits[..], &m.first[..]);
    let (mut d, d0, watch, mut left, mut free) = (h.d, h.d0, h.watch, h.left, h.free);
    let mut cand = get(frames, d).cand;
    loop {
        if cand == 0 {
            if d == d0 {
                (h.d, h.left, h.free) = (d, left, free);
                return false;
            }
            d -= 1;
            let f = get(frames, d);
            free |= 1 << f.placed.piece();
            cand = f.cand;
            continue;
        }
        let f = get_mut(frames, d);
        let e = get(first, f.row as usize + cand.trailing_zeros() as usize);
        if e.chained() {
            next_orientation(f, m, e);
        } else {
            cand &= cand - 1;
            f.cand = cand;
        }
        f.placed = e;
        // The free pieces below the child; `free` itself changes only if it is entered.
        let rest = free & !(1 << e.piece());
        get_mut(frames, d + 1).nodes += 1;
        left -= 1;
        if d + 1 >= watch || left <= 0 {
            (h.d, h.left, h.free) = (d + 1, left, rest);
            return true;
        }
        let key = key_at::<P>(&m.tabs, frames, d + 1, e);
        let child = get(bits, key) & rest;
        if child != 0 {
            d += 1;
            free = rest;
            let f = get_mut(frames, d);
            (f.cand, f.row) = (child, m.row::<P>(key));
            cand = child;
        }
    }
}

/// [`advance_mask`] along lines, not inlined into `walk`: as a function of its own (as
/// it was before planned orders) it keeps its registers, 8 % fewer instructions per
/// node on Puzzle D than inlined.
#[inline(never)]
fn advance_mask_lines(m: &Masks, frames: &mut [Frame], h: &mut Hot) -> bool {
    advance_mask::<false>(m, frames, h)
}

/// [`advance_mask`] of a planned order, which the compiler may inline into `walk`
/// (7 % fewer instructions per node on Puzzle D than not).
fn advance_mask_planned(m: &Masks, frames: &mut [Frame], h: &mut Hot) -> bool {
    advance_mask::<true>(m, frames, h)
}

/// Moves `f` to the virtual row of `e`'s next orientation (the rare case, out of the
/// loop's straight line).
#[cold]
#[inline(never)]
fn next_orientation(f: &mut Frame, m: &Masks, e: Entry) {
    f.row = m.next_row(e) as u32;
}

/// The per-node loops' state, handed between them and [`RowScan::walk`].
pub(super) struct Hot {
    /// The current depth (open unless a loop just returned true), the start depth.
    pub(super) d: usize,
    pub(super) d0: usize,
    /// The depth from which on a counted node goes back to the walk.
    pub(super) watch: usize,
    /// Nodes still to count before the budget pause (<= 0: pause at the next one).
    pub(super) left: i64,
    /// Mask mode's free pieces.
    pub(super) free: u64,
}

/// How a walk ended: see [`RowScan::walk`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Walked {
    Budget,
    Goal,
    Done,
}

/// Where a paused walk picks up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Resume {
    /// The node at `d` is counted but not expanded.
    Counted,
    /// The node at `d` is a goal node already reported (or the subtree is done).
    AtGoal,
}

/// A resumable row-scan walk below one start node: the loop's state (invariants
/// 1-4) and what it counted. [`RowScan::walk`] runs it.
#[derive(Debug, Clone)]
pub(super) struct Walker {
    /// Per depth: the static cell part, the search state and the node count.
    pub(super) frames: Vec<Frame>,
    pub(super) stack: Vec<Entry>,
    pub(super) used: Vec<u8>,
    /// Mask mode: bit p set exactly when `used[p]` is 0 (p < 64).
    pub(super) free: u64,
    /// The start depth, the current depth, the goal depth: the last one (a node there
    /// is a solution and pauses the walk).
    pub(super) d0: usize,
    pub(super) d: usize,
    pub(super) goal: usize,
    /// Nodes counted by this walk.
    pub(super) total: u64,
    /// Words of an oriented-piece bitset (`State::words`), for `offer`.
    pub(super) words: usize,
    pub(super) resume: Resume,
    /// The board at the start node.
    pub(super) base: Board,
    /// Solutions, deepest node and stop reason (node counts are in the frames; the
    /// deepest depth counted from the tables' state until [`Walker::into_stats`]).
    pub(super) stats: Stats,
    /// The tables' base depth ([`RowScan::base`]): `frames[j]` is the search's depth
    /// `shift + j`.
    pub(super) shift: usize,
}

impl Walker {
    /// A walk of the subtree below `st`'s node (counted: its first node), pausing at
    /// solutions. `st` must be filled in `rs`'s order.
    pub(super) fn new(rs: &RowScan, st: &State) -> Walker {
        let top = rs.order.len();
        // The walk counts depths from the tables' state: the search's depth rs.base.
        let d0 = st.depth() - rs.base;
        // One slot past the pieces: the padding's piece, never free.
        let pieces = st.edges.len() / 4;
        let mut used = vec![0u8; pieces + 1];
        used[pieces] = 1;
        for c in 0..st.cells() {
            if !st.is_empty(c) {
                used[st.at(c) as usize / 4] = 1;
            }
        }
        // frames[top] is the ZERO slot of invariant 2: never placed, its colours stay 0.
        let mut frames: Vec<Frame> = (0..=top)
            .map(|j| rs.cells.get(j).map_or(Frame::default(), Frame::at))
            .collect();
        for (j, f) in frames.iter_mut().enumerate().take(d0) {
            let o = st.at(rs.order[j] as usize) as usize;
            let e = rs.dense.edges(&st.edges[o]);
            f.placed = RowScan::entry_of(rs.planned, rs.axis, o, &e, rs.radix, &rs.cells[j].needs);
        }
        frames[d0].nodes = 1;
        let mut stats = limits::start_stats(st);
        stats.deepest -= rs.base;
        let free = (0..pieces.min(64))
            .filter(|&p| used[p] == 0)
            .fold(0u64, |m, p| m | 1 << p);
        Walker {
            frames,
            // Mask mode never touches the list driver's stack.
            stack: vec![Entry::default(); if rs.masked() { 0 } else { rs.stack_len }],
            used,
            free,
            d0,
            d: d0,
            goal: top,
            total: 1,
            words: st.words,
            resume: Resume::Counted,
            base: st.board(),
            stats,
            shift: rs.base,
        }
    }

    /// The walk's statistics, node counts per depth included.
    pub(super) fn into_stats(self) -> Stats {
        let mut s = self.stats;
        let above = std::iter::repeat_n(0, self.shift);
        s.nodes_per_depth = above.chain(self.frames.iter().map(|f| f.nodes)).collect();
        s.deepest += self.shift;
        s
    }
}
