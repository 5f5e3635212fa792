//! `--factor on`: split the empty cells into regions and search them one at a time.
//!
//! When the empty cells fall into two or more 4-connected regions, the regions share
//! nothing but the pool of free pieces: conditionally independent subgames
//! ("Factoring", chapter 11 of Genesereth and Thielscher's "General Game Playing"). Searching them interleaved multiplies their independent choices; finishing
//! one before starting the next adds them instead. [`Factor`] wraps any heuristic:
//! at every node it finds the regions (a flood fill over the empty cells into
//! reusable buffers), kills the node when a region cannot be filled, and restricts
//! the inner heuristic to the smallest region ([`Select::pick_in`]).
//!
//! *Smallest region first, each finished before the next* needs no memory between
//! nodes: a placement in the smallest region leaves it the smallest (or splits it
//! into smaller ones), so the rule keeps choosing inside it until it is full.
//!
//! The flood fill is skipped where no split can be new: when the parent had one
//! region (remembered per node id, [`State::node_id`]) and the cell just filled
//! leaves its empty neighbours connected around it (within its 3x3 block), the
//! node has one region too.
//!
//! Checks at a node with two or more regions (each is a necessary condition for a
//! solution below, so solution counts are unchanged):
//! - every empty cell has a legal placement (the inner heuristic sees one region);
//! - colour budget: for each colour, the sides of empty cells facing a filled cell of
//!   that colour are at most the free pieces' half-edges of that colour. (Per region
//!   this is implied by the sum over the regions, and piece kinds always balance, so
//!   the sum is what is checked.)
//! - a region of at most [`SMALL`] cells is searched exhaustively on its own, stopping
//!   at its first filling.
//!
//! With one region the node is handed to the inner heuristic untouched, so a board
//! that never splits is searched exactly as without factoring. `scan` keeps its
//! static order (it ignores the restriction) and gets only the checks.

use super::pick::{Pick, Select};
use crate::puzzle::RIM;
use crate::search::state::{pop_lowest, State};

/// Regions of at most this many cells are filled exhaustively as a check.
pub const SMALL: usize = 5;

pub struct Factor<S> {
    inner: S,
    /// `mark[c] == stamp`: cell c is already in a region of the current node.
    mark: Vec<u32>,
    stamp: u32,
    /// The empty cells grouped by region; region r is `cells[starts[r]..starts[r+1]]`.
    cells: Vec<u32>,
    starts: Vec<usize>,
    words: usize,
    /// Candidate sets of the exhaustive check, one per level.
    cands: Vec<u64>,
    /// Per colour: sides needing it, and free half-edges showing it.
    need: Vec<u32>,
    supply: Vec<u32>,
    /// By number of empty cells: (node id, its number of regions) of the last node
    /// with that many where `pick` ran.
    memo: Vec<(u64, usize)>,
}

impl<S: Select> Factor<S> {
    pub fn new(inner: S, st: &State) -> Factor<S> {
        let n = st.cells();
        Factor {
            inner,
            mark: vec![0; n],
            stamp: 0,
            cells: Vec::with_capacity(n),
            starts: Vec::with_capacity(n + 1),
            words: st.words,
            cands: vec![0; (SMALL + 1) * st.words],
            need: vec![0; st.colours()],
            supply: vec![0; st.colours()],
            memo: vec![(0, 0); n + 2],
        }
    }

    /// Is the current node surely one region? True when the parent was (per the memo)
    /// and the last placement cannot have cut its region (module doc).
    fn still_one(&self, st: &State) -> bool {
        let k = st.open_cells().len();
        self.memo[k + 1] == (st.node_id(k + 1), 1)
            && st.last_placed().is_some_and(|c| !may_split(st, c))
    }

    /// Fills `cells`/`starts` with the regions of the empty cells; returns how many.
    fn regions(&mut self, st: &State) -> usize {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        self.cells.clear();
        self.starts.clear();
        for &seed in st.open_cells() {
            if self.mark[seed as usize] == self.stamp {
                continue;
            }
            self.starts.push(self.cells.len());
            self.mark[seed as usize] = self.stamp;
            self.cells.push(seed);
            // Breadth-first, with the region's own tail of `cells` as the queue.
            let mut i = self.cells.len() - 1;
            while i < self.cells.len() {
                let c = self.cells[i] as usize;
                for &nb in st.neighbours(c) {
                    if nb != u32::MAX
                        && st.is_empty(nb as usize)
                        && self.mark[nb as usize] != self.stamp
                    {
                        self.mark[nb as usize] = self.stamp;
                        self.cells.push(nb);
                    }
                }
                i += 1;
            }
        }
        let n = self.starts.len();
        self.starts.push(self.cells.len());
        n
    }

    /// The colour budget (module doc): false when some colour is short.
    fn colours_suffice(&mut self, st: &State) -> bool {
        self.need.fill(0);
        self.supply.fill(0);
        for &c in &self.cells {
            for (side, &nb) in st.neighbours(c as usize).iter().enumerate() {
                if nb != u32::MAX && !st.is_empty(nb as usize) {
                    let o = st.at(nb as usize) as usize;
                    self.need[st.edges[o][(side + 2) & 3] as usize] += 1;
                }
            }
        }
        // Rotation 0 of every free piece: bit 4p of the free set.
        for (k, &w) in st.free().iter().enumerate() {
            let mut w = w & 0x1111_1111_1111_1111;
            while w != 0 {
                let o = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                for &colour in &st.edges[o] {
                    self.supply[colour as usize] += 1;
                }
            }
        }
        (0..self.need.len()).all(|x| x == RIM as usize || self.need[x] <= self.supply[x])
    }

    /// Can the empty cells `region` (at most [`SMALL`]) be filled from the free
    /// pieces? A depth-first search on `st`, fewest placements first, restored after.
    fn fillable(&mut self, st: &mut State, region: &mut [u32]) -> bool {
        let Some((i, _)) = region
            .iter()
            .enumerate()
            .min_by_key(|&(_, &c)| (st.count(c as usize), c))
        else {
            return true;
        };
        let c = region[i] as usize;
        let last = region.len() - 1;
        region.swap(i, last);
        let (rest, _) = region.split_at_mut(last);
        let w = self.words;
        let level = rest.len();
        st.candidates_into(c, &mut self.cands[level * w..][..w]);
        let mut ok = false;
        while let Some(o) = pop_lowest(&mut self.cands[level * w..][..w]) {
            st.place(c, o);
            ok = self.fillable(st, rest);
            st.unplace(c);
            if ok {
                break;
            }
        }
        region.swap(i, last);
        ok
    }
}

impl<S: Select> Select for Factor<S> {
    fn pick(&mut self, st: &mut State) -> Pick {
        let k = st.open_cells().len();
        let n = if self.still_one(st) {
            1
        } else {
            self.regions(st)
        };
        self.memo[k] = (st.node_id(k), n);
        if n == 1 {
            return self.inner.pick(st);
        }
        if self.cells.iter().any(|&c| st.count(c as usize) == 0) || !self.colours_suffice(st) {
            return Pick::Dead;
        }
        let mut region = [0u32; SMALL];
        let mut best = (usize::MAX, u32::MAX, 0);
        for r in 0..n {
            let cells = &mut self.cells[self.starts[r]..self.starts[r + 1]];
            cells.sort_unstable();
            let (len, first) = (cells.len(), cells[0]);
            if (2..=SMALL).contains(&len) {
                region[..len].copy_from_slice(cells);
                if !self.fillable(st, &mut region[..len]) {
                    return Pick::Dead;
                }
            }
            best = best.min((len, first, r));
        }
        let r = best.2;
        self.inner
            .pick_in(st, &self.cells[self.starts[r]..self.starts[r + 1]])
    }

    // With one region the inner heuristic picks; with more, a cell without a
    // placement kills the node here.
    const DEAD_ON_ZERO: bool = S::DEAD_ON_ZERO;

    fn check_every(&self) -> u32 {
        self.inner.check_every()
    }

    // Move ordering passes through, so `Ordered<Factor<S>>` and `Factor<Ordered<S>>`
    // both order.
    const ORDERS_MOVES: bool = S::ORDERS_MOVES;

    fn order_moves(
        &mut self,
        st: &mut State,
        site: usize,
        cands: &[u64],
        out: &mut [u32],
    ) -> usize {
        self.inner.order_moves(st, site, cands, out)
    }
}

/// Could filling `cell` have split its region? False when its empty 4-neighbours are
/// joined by empty cells of its 3x3 block: walking the eight cells around it, each
/// step between 4-adjacent cells, they all lie in one run of empty cells.
fn may_split(st: &State, cell: usize) -> bool {
    const RING: [(isize, isize); 8] = [
        (-1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let (w, h) = (st.width as isize, st.height as isize);
    let (r, c) = ((cell / st.width) as isize, (cell % st.width) as isize);
    let empty = RING.map(|(dr, dc)| {
        let (y, x) = (r + dr, c + dc);
        (0..h).contains(&y) && (0..w).contains(&x) && st.is_empty((y * w + x) as usize)
    });
    // Runs of empty ring cells that hold an orthogonal neighbour (even positions).
    let mut runs = 0;
    for i in 0..8 {
        if empty[i] && !empty[(i + 7) % 8] {
            let mut j = i;
            let mut orth = false;
            while empty[j % 8] && j < i + 8 {
                orth |= j % 2 == 0;
                j += 1;
            }
            runs += orth as u32;
        }
    }
    runs > 1
}
