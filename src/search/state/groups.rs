//! The untouched empty cells grouped by static mask (invariant 7 of [`super`]).

use super::bits::{get, slot, NIBBLE_BITS};

/// The untouched empty cells (invariant 7), grouped by their `fits`, which is still
/// the static mask fixed at construction.
#[derive(Debug, Clone, Default)]
pub(super) struct Groups {
    /// Number of groups.
    pub(super) len: usize,
    /// `of[c]`: the group of cell c (0 for a hint's cell, never read).
    pub(super) of: Vec<u16>,
    /// `mask[g * words..][..words]`: group g's static mask (for checking).
    pub(super) mask: Vec<u64>,
    /// `u64` words per cell bitset.
    pub(super) cw: usize,
    /// `cells[g * cw..][..cw]`: the untouched empty cells of group g.
    pub(super) cells: Vec<u64>,
    /// `low[g]`: the lowest of them, `u32::MAX` when none.
    pub(super) low: Vec<u32>,
    /// Bitset of the groups with untouched cells (`low[g]` not `u32::MAX`).
    pub(super) live: Vec<u64>,
    /// `sub[piece * len + g]`: orientations of `piece` in group g's mask, `<< 16`.
    pub(super) sub: Vec<u32>,
}

impl Groups {
    /// Groups the empty cells `open` of a board of `n` cells and `pieces` pieces by
    /// their `fits` (`words` per cell), all untouched, at the current layer.
    pub(super) fn new(n: usize, words: usize, open: &[u32], fits: &[u64], pieces: usize) -> Groups {
        let mut g = Groups {
            of: vec![0; n],
            cw: n.div_ceil(64),
            ..Groups::default()
        };
        for &c in open {
            let c = c as usize;
            let f = &fits[c * words..][..words];
            let k = (0..g.len)
                .position(|k| &g.mask[k * words..][..words] == f)
                .unwrap_or_else(|| {
                    g.mask.extend_from_slice(f);
                    g.len += 1;
                    g.len - 1
                });
            g.of[c] = k as u16;
        }
        g.cells = vec![0; g.len * g.cw];
        g.low = vec![u32::MAX; g.len];
        g.live = vec![0; g.len.div_ceil(64)];
        for &c in open {
            g.insert(c as usize);
        }
        g.sub = (0..pieces * g.len)
            .map(|i| {
                let (p, k) = (i / g.len, i % g.len);
                let nib = g.mask[k * words + p / 16] >> (4 * (p % 16)) & 0xF;
                (NIBBLE_BITS[nib as usize] as u32) << 16
            })
            .collect();
        g
    }

    /// Takes empty cell c out of its group (it is filled or touched).
    #[inline(always)]
    pub(super) fn remove(&mut self, c: usize) {
        let (g, w) = (get(&self.of, c) as usize, c / 64);
        *slot(&mut self.cells, g * self.cw + w) &= !(1 << (c % 64));
        if get(&self.low, g) == c as u32 {
            self.next_low(g, c);
        }
    }

    /// Group g's lowest cell c left: the next one is above it.
    #[cold]
    #[inline(never)]
    fn next_low(&mut self, g: usize, c: usize) {
        let set = &self.cells[g * self.cw..][..self.cw];
        self.low[g] = set[c / 64..]
            .iter()
            .position(|&w| w != 0)
            .map_or(u32::MAX, |k| {
                let k = c / 64 + k;
                (k * 64) as u32 + set[k].trailing_zeros()
            });
        if self.low[g] == u32::MAX {
            self.live[g / 64] &= !(1 << (g % 64));
        }
    }

    /// Puts empty cell c back into its group (it is emptied or untouched).
    #[inline(always)]
    pub(super) fn insert(&mut self, c: usize) {
        let (g, w) = (get(&self.of, c) as usize, c / 64);
        *slot(&mut self.cells, g * self.cw + w) |= 1 << (c % 64);
        let low = slot(&mut self.low, g);
        *low = (*low).min(c as u32);
        *slot(&mut self.live, g / 64) |= 1 << (g % 64);
    }
}
