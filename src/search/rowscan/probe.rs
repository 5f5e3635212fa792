//! Knuth's probes and exhaustive walks of the top levels on scan's tables, for the
//! estimates ([`Prober`]).

use super::records::{Entry, Frame};
use super::tables::RowScan;
use super::walk::{key_at, prev_at, Walker};
use crate::search::state::State;

/// Random paths down scan's tree (Knuth's probes, 1975) and exhaustive walks of its
/// top levels, on the tables alone: what the generic probes do with [`State`],
/// without the state's upkeep (4x faster on Puzzle C), for the estimates that choose
/// `--symmetry`'s trees ([`crate::search::estimate::estimate`]).
#[derive(Debug, Clone)]
pub struct Prober<'a> {
    rs: &'a RowScan,
    w: Walker,
    /// The depth of the node the next probe starts from (`w.d0` outside
    /// [`Prober::each_at`]): depths `w.d0..at` hold its placements.
    at: usize,
}

impl RowScan {
    /// A prober of the subtree below `st`'s node; None when `st` was not filled in
    /// scan order.
    pub fn prober(&self, st: &State) -> Option<Prober<'_>> {
        self.fits_state(st).then(|| {
            let w = Walker::new(self, st);
            Prober {
                rs: self,
                at: w.d0,
                w,
            }
        })
    }
}

impl RowScan {
    /// Depth d's key, outside the per-node loops.
    fn key(&self, frames: &[Frame], d: usize) -> usize {
        if self.planned {
            key_at::<true>(&self.tabs, frames, d, Entry::default())
        } else {
            key_at::<false>(&self.tabs, frames, d, prev_at(frames, d))
        }
    }
}

impl<'a> Prober<'a> {
    /// The list of depth d's key, used pieces included: borrowed from the tables, not
    /// from the prober, so placements can be made while it is read.
    fn entries(&self, d: usize) -> &'a [Entry] {
        let (rs, frames) = (self.rs, &self.w.frames);
        let key = rs.key(frames, d);
        &rs.entries[rs.heads[key] as usize..rs.heads[key + 1] as usize]
    }

    /// The free candidates at depth d, in the order of every search (ascending
    /// oriented piece).
    fn candidates(&self, d: usize) -> impl Iterator<Item = Entry> + '_ {
        let used = &self.w.used;
        self.entries(d)
            .iter()
            .copied()
            .filter(|e| used[e.piece()] == 0)
    }

    fn place(&mut self, d: usize, e: Entry) {
        self.w.frames[d].placed = e;
        self.w.used[e.piece()] = 1;
    }

    /// One path down from the current node: at each node on it, `visit(depth below
    /// the prober's start, weight)`, the weight being the product of the candidate
    /// counts above it (from the current node); then, unless the node is a solution
    /// or has no candidates, candidate `draw(count)` is placed. The same draws choose
    /// the same path as the generic probe.
    pub fn probe(&mut self, mut draw: impl FnMut(u64) -> u64, mut visit: impl FnMut(usize, f64)) {
        let (mut d, mut weight) = (self.at, 1.0);
        loop {
            visit(d - self.w.d0, weight);
            if d == self.w.goal {
                break;
            }
            let b = self.candidates(d).count();
            if b == 0 {
                break;
            }
            let i = draw(b as u64) as usize;
            let e = self.candidates(d).nth(i).expect("draw(b) is below b");
            self.place(d, e);
            weight *= b as f64;
            d += 1;
        }
        for j in self.at..d {
            let p = self.w.frames[j].placed.piece();
            self.w.used[p] = 0;
        }
    }

    /// Walks every node `depth` levels below the start, in search order, calling
    /// `f` with the prober standing at it (its probes start there), and adds the
    /// nodes above that level to `above` (per depth below the start, `depth` long).
    /// None as soon as `f` returns false.
    pub fn each_at(
        &mut self,
        depth: usize,
        above: &mut [u64],
        f: &mut impl FnMut(&mut Self) -> bool,
    ) -> Option<()> {
        let d = self.at;
        if d - self.w.d0 == depth || d == self.w.goal {
            return f(self).then_some(());
        }
        above[d - self.w.d0] += 1;
        // The key's list, read in place (no copy per node): the walk below restores
        // `used` before the next entry is looked at.
        for &e in self.entries(d) {
            if self.w.used[e.piece()] != 0 {
                continue;
            }
            self.place(d, e);
            self.at = d + 1;
            let below = self.each_at(depth, above, f);
            self.at = d;
            self.w.used[e.piece()] = 0;
            below?;
        }
        Some(())
    }
}
