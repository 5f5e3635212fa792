//! The invariants of [`super`], checked from scratch (tests and debug builds).

use super::bits::count_and;
use super::{State, EMPTY, NONE};

impl State {
    /// Checks invariants 1-4, 6 and 7 from scratch (tests and debug builds).
    pub fn check_invariants(&self) -> Result<(), String> {
        let n_pieces = self.edges.len() / 4;
        let mut used = vec![false; n_pieces];
        for (c, &o) in self.board.iter().enumerate() {
            if o != EMPTY {
                let p = o as usize / 4;
                if std::mem::replace(&mut used[p], true) {
                    return Err(format!("piece {p} twice (cell {c})"));
                }
            }
        }
        for o in 0..self.edges.len() {
            let bit = self.free[o / 64] >> (o % 64) & 1 == 1;
            if bit == used[o / 4] {
                return Err(format!("free bit of orientation {o} is wrong"));
            }
        }
        let mut fresh = self.clone();
        for c in 0..self.cells() {
            if self.board[c] == EMPTY {
                fresh.refresh(c);
                if fresh.fits[c * self.words..][..self.words]
                    != self.fits[c * self.words..][..self.words]
                {
                    return Err(format!("fits of cell {c} is stale"));
                }
            }
        }
        let mut listed = vec![false; self.cells()];
        for (i, &c) in self.open_cells().iter().enumerate() {
            if self.board[c as usize] != EMPTY || self.open_pos[c as usize] as usize != i {
                return Err(format!("open list entry {i} (cell {c}) is wrong"));
            }
            listed[c as usize] = true;
        }
        if (0..self.cells()).any(|c| (self.board[c] == EMPTY) != listed[c]) {
            return Err("open list does not match the board".into());
        }
        // Invariant 7: touch, the touched list, the groups, then every count.
        let hints = &self.open[self.cells() - self.hint_count..];
        let g = &self.groups;
        let mut untouched = vec![0u64; g.len * g.cw];
        let mut n_touched = 0;
        for &c in self.open_cells() {
            let c = c as usize;
            let filled = self.neighbours[c]
                .iter()
                .filter(|&&x| x != NONE && !self.is_empty(x as usize) && !hints.contains(&x))
                .count();
            if self.touch[c] as usize != filled {
                return Err(format!("touch of cell {c} is wrong"));
            }
            if filled > 0 {
                let pos = self.touched_pos[c] as usize;
                if pos >= self.n_touched || self.touched[pos] as usize != c {
                    return Err(format!("touched cell {c} is not listed"));
                }
                n_touched += 1;
            } else {
                let k = g.of[c] as usize;
                if self.fits[c * self.words..][..self.words]
                    != g.mask[k * self.words..][..self.words]
                {
                    return Err(format!("untouched cell {c} is not its group's mask"));
                }
                untouched[k * g.cw + c / 64] |= 1 << (c % 64);
            }
        }
        if n_touched != self.n_touched {
            return Err("touched list has extra cells".into());
        }
        if untouched != g.cells {
            return Err("group cells are stale".into());
        }
        for k in 0..g.len {
            let set = &g.cells[k * g.cw..][..g.cw];
            let low = (0..64 * g.cw).find(|&c| set[c / 64] >> (c % 64) & 1 == 1);
            if g.low[k] != low.map_or(u32::MAX, |c| c as u32) {
                return Err(format!("lowest cell of group {k} is stale"));
            }
            let mask = &g.mask[k * self.words..][..self.words];
            if (g.live[k / 64] >> (k % 64) & 1 == 1) != low.is_some() {
                return Err(format!("live bit of group {k} is wrong"));
            }
            if low.is_some()
                && self.cnt[self.layer() * self.row + self.cells() + k]
                    != count_and(mask, &self.free) << 16
            {
                return Err(format!("count of group {k} is stale"));
            }
        }
        let mut best = u32::MAX;
        for &c in self.open_cells() {
            let k = self.count_fresh(c as usize);
            if self.count(c as usize) != k {
                return Err(format!("count of cell {c} is stale"));
            }
            best = best.min(k << 16 | c);
        }
        if self.best[self.layer()] != best {
            return Err("best (fewest placements) is stale".into());
        }
        Ok(())
    }
}
