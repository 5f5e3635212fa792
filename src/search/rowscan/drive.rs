//! Running a walk under a search's limits: polling, the node budget, solutions,
//! sharing work while it runs and handing the rest over when it stops; the paused
//! walks of the interleaved search.

use super::records::{Entry, Frame};
use super::tables::RowScan;
use super::walk::{Hot, Resume, Walked, Walker};
use crate::puzzle::Puzzle;
use crate::search::limits::{self, Limits, Share, Stats, Stop};
use crate::search::state::State;
use std::ops::Range;
use std::sync::atomic::AtomicBool;

impl RowScan {
    /// Searches the subtree below `st`'s node as the generic driver would with `scan`
    /// (same counts, order, limits, polling and sharing), or None when `st` was not
    /// filled in scan order (then the generic driver must run).
    pub fn search<W: Share>(
        &self,
        st: &State,
        puzzle: &Puzzle,
        limits: &Limits,
        stop: &AtomicBool,
        share: &mut W,
    ) -> Option<Stats> {
        let mut p = self.pause(st)?;
        let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
        if self.drive(&mut p.0, puzzle, limits, stop, share, max_nodes) {
            p.0.stats.stopped = Some(Stop::MaxNodes);
        }
        if p.0.stats.stopped.is_some() {
            let give = share.wants_rest();
            self.hand_over(&mut p.0, puzzle, limits, share, give);
        }
        Some(p.into_stats())
    }

    /// The search of the subtree below `st`'s node, not started yet (its start node
    /// counted): for the interleaved search ([`crate::search::parallel::interleave`]), which runs many and
    /// gives each a slice of nodes in turn. None when `st` was not filled in
    /// scan order.
    pub fn pause(&self, st: &State) -> Option<Paused> {
        self.fits_state(st).then(|| Paused(Walker::new(self, st)))
    }

    /// Runs `p` on for up to `slice` more nodes, with [`RowScan::search`]'s limits
    /// apart from `max_nodes`. True when it paused at the end of the slice; false when
    /// its subtree is done or it stopped (the reason is in its stats).
    pub fn resume(
        &self,
        p: &mut Paused,
        puzzle: &Puzzle,
        limits: &Limits,
        stop: &AtomicBool,
        slice: u64,
    ) -> bool {
        let until = p.0.total.saturating_add(slice);
        self.drive(&mut p.0, puzzle, limits, stop, &mut limits::NoShare, until)
    }

    /// About how many bytes one paused walk of a board of `cells` cells holds: its
    /// frames and per-depth counts, its list stack, and the two boards it keeps.
    pub fn walk_bytes(&self, cells: usize) -> usize {
        let depths = self.order.len() + 1;
        let stack = if self.masked() { 0 } else { self.stack_len };
        let board = cells * size_of::<Option<(usize, u8)>>();
        depths * (size_of::<Frame>() + 8) + stack * size_of::<Entry>() + 2 * board
    }

    /// Gives away the untried placements at `p`'s shallowest open depth, as a
    /// polling search does when `share` wants work.
    pub fn give<W: Share>(&self, p: &mut Paused, share: &mut W) {
        self.offer(&mut p.0, share);
    }

    /// Hands all of `p`'s untried work to `share` ([`Share::rest`]), for a walk that
    /// will not be resumed: a paused walk at a stop, kept in a checkpoint.
    pub fn give_rest<W: Share>(
        &self,
        p: &mut Paused,
        puzzle: &Puzzle,
        limits: &Limits,
        share: &mut W,
    ) {
        self.hand_over(&mut p.0, puzzle, limits, share, true);
    }

    /// Sees the node a paused walk counted last through ([`RowScan::settle`]: a
    /// solution is recorded), for a walk that will not be resumed nor handed over.
    pub fn settle_paused(&self, p: &mut Paused, puzzle: &Puzzle, limits: &Limits) {
        self.settle(&mut p.0, puzzle, limits);
    }

    /// Walks `w` until its node count reaches `max_nodes` (true), or its subtree is
    /// done or it stops (false), polling every [`limits::CHECK_EVERY`] nodes and
    /// recording solutions.
    fn drive<W: Share>(
        &self,
        w: &mut Walker,
        puzzle: &Puzzle,
        limits: &Limits,
        stop: &AtomicBool,
        share: &mut W,
        max_nodes: u64,
    ) -> bool {
        let max_solutions = limits.max_solutions.unwrap_or(u64::MAX);
        if w.total >= max_nodes {
            return true; // the start node used the budget up
        }
        // Poll or stop every CHECK_EVERY nodes, and exactly at the node budget.
        let mut until = max_nodes.min(w.total + limits::CHECK_EVERY as u64);
        loop {
            // Four instances: mask or list mode, lines or a planned order.
            let walked = match (self.masks.is_some(), self.planned) {
                (true, false) => self.walk::<true, false>(w, until),
                (false, false) => self.walk::<false, false>(w, until),
                (true, true) => self.walk::<true, true>(w, until),
                (false, true) => self.walk::<false, true>(w, until),
            };
            match walked {
                Walked::Budget => {
                    if w.total >= max_nodes {
                        return true;
                    }
                    until = max_nodes.min(w.total + limits::CHECK_EVERY as u64);
                    if let Some(why) = limits::poll(&w.stats, limits::CHECK_EVERY, limits, stop) {
                        w.stats.stopped = Some(why);
                        return false;
                    }
                    if share.wants() {
                        self.offer(w, share);
                    }
                }
                Walked::Goal => {
                    limits::record_solution(self.board(w, w.d), puzzle, limits, &mut w.stats);
                    if w.stats.solutions_found >= max_solutions {
                        w.stats.stopped = Some(Stop::Solutions);
                        return false;
                    }
                }
                Walked::Done => return false,
            }
        }
    }

    /// Offers the untried candidates of the shallowest depth (d0..d) that has any,
    /// as the generic driver's `offer` does; clears them if taken.
    fn offer<W: Share>(&self, w: &mut Walker, share: &mut W) {
        let Some(k) = (w.d0..w.d).find(|&k| untried(&w.frames[k])) else {
            return;
        };
        let bits = self.untried_bits(w, k);
        if share.take(&self.path(w, k), self.order[k] as usize, &bits) {
            let f = &mut w.frames[k];
            (f.next, f.cand) = (f.end, 0);
        }
    }

    /// Sees the node a stopped walk counted last through, as the generic driver does:
    /// records it (a solution) or opens it. Returns the depths that may hold untried
    /// candidates. The walk cannot be resumed after this.
    fn settle(&self, w: &mut Walker, puzzle: &Puzzle, limits: &Limits) -> Range<usize> {
        if w.resume != Resume::Counted {
            return w.d0..w.d;
        }
        w.resume = Resume::AtGoal;
        if w.d == w.goal {
            limits::record_solution(self.board(w, w.d), puzzle, limits, &mut w.stats);
            if w.stats.solutions_found >= limits.max_solutions.unwrap_or(u64::MAX) {
                w.stats.stopped = Some(Stop::Solutions);
            }
            return w.d0..w.d;
        }
        let h = Hot {
            d: w.d,
            d0: w.d0,
            watch: w.goal,
            left: 0,
            free: w.free,
        };
        match (self.masks.is_some(), self.planned) {
            (true, false) => self.open_at::<true, false>(w, &h),
            (false, false) => self.open_at::<false, false>(w, &h),
            (true, true) => self.open_at::<true, true>(w, &h),
            (false, true) => self.open_at::<false, true>(w, &h),
        }
        w.d0..w.d + 1
    }

    /// Ends a walk that a limit or an interrupt stopped ([`RowScan::settle`]): if nothing
    /// is left untried its tree is done (no stop); otherwise, when `give`, every open
    /// depth's untried candidates go to `share`.
    fn hand_over<W: Share>(
        &self,
        w: &mut Walker,
        puzzle: &Puzzle,
        limits: &Limits,
        share: &mut W,
        give: bool,
    ) {
        let open = self.settle(w, puzzle, limits);
        let at_limit = w.stats.stopped == Some(Stop::Solutions);
        if !at_limit && !open.clone().any(|k| untried(&w.frames[k])) {
            w.stats.stopped = None;
            return;
        }
        if !give {
            return;
        }
        for k in open {
            if untried(&w.frames[k]) {
                let bits = self.untried_bits(w, k);
                share.rest(&self.path(w, k), self.order[k] as usize, &bits);
            }
        }
    }

    /// The placements from the walk's start node down to depth `k`.
    fn path(&self, w: &Walker, k: usize) -> Vec<(usize, u32)> {
        (w.d0..k)
            .map(|j| (self.order[j] as usize, w.frames[j].placed.o()))
            .collect()
    }

    /// Depth `k`'s untried candidates as an oriented-piece bitset.
    fn untried_bits(&self, w: &Walker, k: usize) -> Vec<u64> {
        let mut bits = vec![0u64; w.words];
        let mut add = |e: Entry| {
            let o = e.o() as usize;
            bits[o / 64] |= 1 << (o % 64);
        };
        let f = w.frames[k];
        match &self.masks {
            Some(m) => {
                // Every untried orientation: each piece's from the depth's row on.
                let mut cand = f.cand;
                while cand != 0 {
                    let p = cand.trailing_zeros() as usize;
                    let mut e = m.first[f.row as usize + p];
                    add(e);
                    while e.chained() {
                        e = m.first[m.next_row(e) + p];
                        add(e);
                    }
                    cand &= cand - 1;
                }
            }
            None => w.stack[f.next as usize..f.end as usize]
                .iter()
                .for_each(|&e| add(e)),
        }
        bits
    }
}

/// Whether a frame has candidates left to try.
fn untried(f: &Frame) -> bool {
    f.cand != 0 || f.next < f.end
}

/// A search paused between slices of the interleaved search ([`RowScan::pause`]).
#[derive(Debug, Clone)]
pub struct Paused(Walker);

impl Paused {
    /// Nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.0.total
    }

    /// Solutions found so far.
    pub fn solutions(&self) -> u64 {
        self.0.stats.solutions_found
    }

    /// Why the walk stopped, if a limit or an interrupt stopped it.
    pub fn stopped(&self) -> Option<Stop> {
        self.0.stats.stopped
    }

    /// Marks a walk that is paused for good (the run halts).
    pub fn set_stopped(&mut self, why: Stop) {
        self.0.stats.stopped = Some(why);
    }

    /// The statistics so far, node counts per depth included.
    pub fn into_stats(self) -> Stats {
        self.0.into_stats()
    }
}
