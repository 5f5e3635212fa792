//! The search state: the board, the pieces still free, and each empty cell's set of
//! legal placements, kept up to date by `place` and `unplace`.
//!
//! A placement is an *oriented piece* `o = 4 * piece + rotation`; sets of them are
//! bitsets of `words` plain `u64`s (bit `o` of word `o / 64`). A piece's four
//! orientations share one nibble of one word, so using or freeing a piece flips four
//! bits with one mask.
//!
//! Invariants, kept by `place`/`unplace` and checked by [`State::check_invariants`]:
//! 1. `board[c]` is `EMPTY` or an oriented piece; no piece is on the board twice.
//! 2. `free` holds exactly the orientations of the pieces not on the board.
//! 3. For every empty cell c, `fits[c]` = AND over its four sides s of
//!    `side_mask[s][req]`, where req is colour 0 for a side on the rim, the colour the
//!    neighbour shows for a filled neighbour, and "any non-rim colour" for an empty
//!    one. So the legal placements at c are exactly `fits[c] & free`.
//!    (`fits` of a filled cell is stale and never read.)
//! 4. `open[..n_open]` lists the empty cells; `open_pos[c]` is c's index there. A place
//!    swap-removes the cell to just past the end; the matching unplace (always LIFO)
//!    re-extends the list over it, so `open[n_open..]` is the history of placements,
//!    newest first. The set is restored exactly, the order may differ,
//!    so nothing may depend on that order (heuristics break ties by cell index).
//! 5. `ids[k]` is the serial of the `place` that made the current node's ancestor with
//!    k empty cells (or the node itself, k = `n_open`): every `place` draws a new
//!    serial, so two nodes of one state's history with equal ids at k have the same
//!    placements down to k. Lets a selector trust what it stored at the parent.
//! 6. `unplace` exactly undoes the last `place`: `place` narrows each empty
//!    neighbour's `fits` by one AND with the colour it now faces (that side's
//!    requirement was "any non-rim colour", and the colour mask is a subset of it),
//!    after saving the old words on the `undo` stack; `unplace` pops them back.
//! 7. Counts by layer. The layer of a state is its number of pieces on the board,
//!    hints included (`cells - n_open`). An empty cell is *touched* when a neighbour
//!    was filled after the hints (`touch[c]` of them; `touched[..n_touched]` lists
//!    these cells). An untouched cell's `fits` is still its *static mask*, fixed at
//!    construction (rim and hints), so its count is shared with every cell of the
//!    same mask: the empty cells are grouped by static mask (`groups`). Row `layer`
//!    of `cnt` (`row = cells + groups` entries) holds `count << 16 | c` for every
//!    touched cell c, count = `popcount(fits[c] & free)` (its legal placements), and
//!    `count << 16` at `cells + g` for every *live* group g, count =
//!    `popcount(mask_g & free)`; other entries are stale and never read. A group is
//!    live while it has untouched empty cells (`groups.cells`, the lowest in
//!    `groups.low`): it dies deeper in the tree, never revives there, and is live
//!    again only back at a layer where its count was kept.
//!    `best[layer]` is the smallest `count << 16 | cell` over the empty cells
//!    (`u32::MAX` when none), the `mrv` site: the min over the touched cells and each
//!    live group's lowest cell. `place` writes layer + 1 from layer: each touched
//!    cell and live group loses the placed piece's orientations (one nibble each),
//!    the narrowed neighbours are recounted in full (a count only drops, so a
//!    recount can only lower the minimum) and become touched. `unplace` restores
//!    `touch`, the touched list (order included) and the groups, and leaves
//!    layer + 1 behind unread, so layer `layer` is exactly as before.
//!    A *probe* (`probe`, for lookahead) is a `place` that skips this: while any
//!    probe is outstanding, `count`/`fewest` are stale (use `count_fresh`), and no
//!    `place` may happen until every probe is taken back (`unplace`, LIFO).
//!
//! This file keeps the invariants (`new`, `place`/`unplace` and the counts they
//! keep); beside it, `bits.rs` has the bitset counts and unchecked word access,
//! `groups.rs` the groups of invariant 7, `kills.rs` the kill tests of the
//! lookahead heuristics, and `check.rs` the check of the invariants from scratch.

use crate::puzzle::{rotated, Board, Puzzle, RIM};

mod bits;
mod check;
mod groups;
mod kills;

pub(crate) use bits::with_words;
use bits::{
    bytes, count_and, count_words, get, slot, words_at, words_at_mut, NIBBLE_BITS, NIBBLE_KEY,
};
pub use bits::{ones, pop_lowest, popcount};
use groups::Groups;

/// Marks an empty cell in `board`.
pub const EMPTY: u32 = u32::MAX;
/// Marks "no neighbour" (the rim) in `neighbours`.
const NONE: u32 = u32::MAX;

/// Where the placements whose side `side` meets requirement `req` (a colour, or `any`
/// for "any non-rim colour") start in `side_mask`, for puzzles of `any` colours and
/// `words`-word bitsets: the one home of that layout.
#[inline(always)]
fn mask_at(any: usize, words: usize, side: usize, req: usize) -> usize {
    (side * (any + 1) + req) * words
}

/// Where `piece`'s four orientations sit in a placement bitset: their word, and the
/// mask of their nibble in it (the module doc's layout).
#[inline(always)]
fn nibble(piece: usize) -> (usize, u64) {
    (piece / 16, 0xFu64 << (4 * (piece % 16)))
}

#[derive(Debug, Clone)]
pub struct State {
    pub width: usize,
    pub height: usize,
    /// u64 words per placement bitset.
    pub words: usize,
    /// Edges shown by each oriented piece, up right down left.
    pub edges: Vec<[u8; 4]>,
    /// Requirement index of "any non-rim colour" (= number of colours).
    any: usize,
    /// `side_mask[mask_at(any, words, side, req)..][..words]`.
    side_mask: Vec<u64>,
    /// `matching[o][side]`: the offset in `side_mask` of the placements that fit next
    /// to oriented piece o across `side` (their facing side shows o's colour there).
    /// Saves the index arithmetic in the kill tests and the narrowing.
    matching: Vec<[u32; 4]>,
    /// `fits[cell * words ..][..words]`; see invariant 3.
    fits: Vec<u64>,
    free: Vec<u64>,
    board: Vec<u32>,
    neighbours: Vec<[u32; 4]>,
    open: Vec<u32>,
    open_pos: Vec<u32>,
    n_open: usize,
    /// Saved `fits` words of the neighbours each `place` narrowed (invariant 6): a
    /// stack `undo[..undo_top]`, sized for a full board (at most 4 per place).
    undo: Vec<u64>,
    undo_top: usize,
    /// Cells filled by hints, placed at construction; depth counts beyond them.
    hint_count: usize,
    /// Node ids by number of empty cells (one spare past the root, always 0), and the
    /// last serial drawn (invariant 5).
    ids: Vec<u64>,
    serial: u64,
    /// `touch[c]`: filled neighbours of empty c placed after the hints (invariant 7).
    touch: Vec<u8>,
    /// `touched[..n_touched]`: the empty cells with `touch > 0`; `touched_pos[c]` is
    /// c's index there (kept after c is filled, so `unplace` puts it back).
    touched: Vec<u32>,
    touched_pos: Vec<u32>,
    n_touched: usize,
    /// Counts by layer (invariant 7), rows of `row = cells + groups`: `cnt[layer * row
    /// + c]` = `count << 16 | c` for touched cell c, `cnt[layer * row + cells + g]` =
    /// `count << 16` for group g.
    cnt: Vec<u32>,
    row: usize,
    /// The untouched cells, by static mask (invariant 7).
    groups: Groups,
    /// `best[layer]`: the smallest `count << 16 | cell` over the empty cells.
    best: Vec<u32>,
    /// Probes outstanding (debug builds only check it).
    #[cfg(debug_assertions)]
    probes: usize,
}

impl State {
    /// Builds the state for `puzzle` with its hints placed.
    pub fn new(puzzle: &Puzzle) -> State {
        let n = puzzle.cells();
        let n_or = 4 * puzzle.pieces.len();
        let words = n_or.div_ceil(64);
        let any = puzzle.colour_count();
        let edges: Vec<[u8; 4]> = (0..n_or)
            .map(|o| rotated(puzzle.pieces[o / 4], (o % 4) as u8))
            .collect();
        let mut side_mask = vec![0u64; 4 * (any + 1) * words];
        for (o, e) in edges.iter().enumerate() {
            for side in 0..4 {
                let bit = 1u64 << (o % 64);
                side_mask[mask_at(any, words, side, e[side] as usize) + o / 64] |= bit;
                if e[side] != RIM {
                    side_mask[mask_at(any, words, side, any) + o / 64] |= bit;
                }
            }
        }
        let matching = edges
            .iter()
            .map(|e| {
                std::array::from_fn(|side| {
                    mask_at(any, words, (side + 2) & 3, e[side] as usize) as u32
                })
            })
            .collect();
        let mut free = vec![0u64; words];
        for o in 0..n_or {
            free[o / 64] |= 1 << (o % 64);
        }
        let neighbours = (0..n)
            .map(|c| {
                let mut nb = [NONE; 4];
                for (side, slot) in nb.iter_mut().enumerate() {
                    if let Some(x) = puzzle.neighbour(c, side) {
                        *slot = x as u32;
                    }
                }
                nb
            })
            .collect();
        let mut st = State {
            width: puzzle.width,
            height: puzzle.height,
            words,
            edges,
            any,
            side_mask,
            matching,
            fits: vec![0; n * words],
            free,
            board: vec![EMPTY; n],
            neighbours,
            open: (0..n as u32).collect(),
            open_pos: (0..n as u32).collect(),
            n_open: n,
            undo: vec![0; 4 * n * words],
            undo_top: 0,
            hint_count: 0,
            ids: vec![0; n + 2],
            serial: 0,
            touch: vec![0; n],
            touched: vec![0; n],
            touched_pos: vec![0; n],
            n_touched: 0,
            cnt: Vec::new(),
            row: 0,
            groups: Groups::default(),
            best: vec![u32::MAX; n + 1],
            #[cfg(debug_assertions)]
            probes: 0,
        };
        assert!(
            n < 1 << 16 && n_or < 1 << 16,
            "board too large for 16-bit counts"
        );
        for c in 0..n {
            st.refresh(c);
        }
        // The hints fix the static masks: they are placed before the counts exist.
        for h in &puzzle.hints {
            st.put::<false, 0>(
                h.row * puzzle.width + h.col,
                4 * h.piece as u32 + h.rotation as u32,
            );
        }
        st.hint_count = puzzle.hints.len();
        st.groups = Groups::new(n, words, st.open_cells(), &st.fits, puzzle.pieces.len());
        let g = &st.groups;
        st.row = n + g.len;
        st.cnt = vec![0; (n + 1) * st.row];
        let layer = st.layer();
        for k in 0..g.len {
            let c = count_and(&g.mask[k * words..][..words], &st.free);
            st.cnt[layer * st.row + n + k] = c << 16;
            st.best[layer] = st.best[layer].min(c << 16 | g.low[k]);
        }
        st
    }

    pub fn cells(&self) -> usize {
        self.board.len()
    }

    /// Pieces placed beyond the hints: the depth of the current node.
    #[inline]
    pub fn depth(&self) -> usize {
        self.cells() - self.hint_count - self.n_open
    }

    /// Depth of a full board.
    pub fn max_depth(&self) -> usize {
        self.cells() - self.hint_count
    }

    /// The empty cells, in no particular order.
    #[inline]
    pub fn open_cells(&self) -> &[u32] {
        &self.open[..self.n_open]
    }

    /// The cell of the last `place` still on the board (the history is the tail of
    /// the open list, newest first: invariant 4).
    #[inline]
    pub fn last_placed(&self) -> Option<usize> {
        self.open.get(self.n_open).map(|&c| c as usize)
    }

    /// The id of the current node's ancestor with `k` empty cells, `k >= ` the
    /// current number (invariant 5).
    #[inline]
    pub fn node_id(&self, k: usize) -> u64 {
        self.ids[k]
    }

    #[inline]
    pub fn is_empty(&self, cell: usize) -> bool {
        self.board[cell] == EMPTY
    }

    /// The oriented piece at `cell`, or `EMPTY`.
    #[inline]
    pub fn at(&self, cell: usize) -> u32 {
        self.board[cell]
    }

    #[inline]
    pub fn neighbours(&self, cell: usize) -> &[u32; 4] {
        &self.neighbours[cell]
    }

    /// The free orientations as a bitset (invariant 2).
    #[inline]
    pub fn free(&self) -> &[u64] {
        &self.free
    }

    /// Number of colours, the rim colour 0 included.
    #[inline]
    pub fn colours(&self) -> usize {
        self.any
    }

    /// The layer of the current state (invariant 7).
    #[inline]
    fn layer(&self) -> usize {
        self.board.len() - self.n_open
    }

    /// For an untouched empty `cell` whose empty neighbours are untouched too: a key
    /// that two such cells share only if their legal placements are the same, and so
    /// are those of their empty neighbours side by side (by invariant 7 they are their
    /// groups' static masks and `free`), so anything computed from these alone holds
    /// for both. None for other cells, or with more groups than the key holds.
    #[inline]
    pub fn untouched_shape(&self, cell: usize) -> Option<u64> {
        // 12 bits per group + 1 (0: no empty neighbour), the cell's group on top.
        if get(&self.touch, cell) != 0 || self.groups.len >= 1 << 12 {
            return None;
        }
        let mut key = get(&self.groups.of, cell) as u64;
        for nb in get(&self.neighbours, cell) {
            let part = if nb == NONE || get(&self.board, nb as usize) != EMPTY {
                0
            } else if get(&self.touch, nb as usize) != 0 {
                return None;
            } else {
                get(&self.groups.of, nb as usize) as u64 + 1
            };
            key = key << 13 | part;
        }
        Some(key)
    }

    /// Number of legal placements at empty `cell` (kept incrementally, invariant 7).
    #[inline]
    pub fn count(&self, cell: usize) -> u32 {
        let i = if self.touch[cell] > 0 {
            cell
        } else {
            self.board.len() + self.groups.of[cell] as usize
        };
        self.cnt[self.layer() * self.row + i] >> 16
    }

    /// The empty cell with the fewest legal placements, ties to the lowest index, as
    /// `(count, cell)`; None when no cell is empty (invariant 7).
    #[inline]
    pub fn fewest(&self) -> Option<(u32, usize)> {
        let b = self.best[self.layer()];
        (b != u32::MAX).then_some((b >> 16, (b & 0xFFFF) as usize))
    }

    /// [`State::count`] computed from scratch: `popcount(fits & free)`.
    #[inline]
    pub fn count_fresh(&self, cell: usize) -> u32 {
        count_and(self.fits_of(cell), &self.free)
    }

    /// The placements that fit empty `cell` by its neighbours alone, free pieces or not
    /// (invariant 3), `words` long.
    #[inline]
    pub fn fits_of(&self, cell: usize) -> &[u64] {
        &self.fits[cell * self.words..][..self.words]
    }

    /// Legal placements at empty `cell` whose side `side` shows `colour`:
    /// what `count_fresh(cell)` becomes once the neighbour there shows `colour`
    /// (before that neighbour's piece leaves `free`).
    #[inline]
    pub fn count_facing(&self, cell: usize, side: usize, colour: usize) -> u32 {
        let words = self.words;
        let mask = &self.side_mask[mask_at(self.any, words, side, colour)..][..words];
        let f = &self.fits[cell * words..][..words];
        let free = &self.free[..words];
        count_words(words, |i| f[i] & mask[i] & free[i])
    }

    /// Orientations of `piece` that fit empty `cell` (by `fits` alone), and of those
    /// the ones whose side `side` shows `colour`.
    #[inline]
    pub fn piece_fits(&self, cell: usize, piece: usize, side: usize, colour: usize) -> (u32, u32) {
        let words = self.words;
        let (pw, shift) = (piece / 16, 4 * (piece % 16));
        let f = (self.fits[cell * words + pw] >> shift) & 0xF;
        let m = (self.side_mask[mask_at(self.any, words, side, colour) + pw] >> shift) & 0xF;
        (
            NIBBLE_BITS[f as usize] as u32,
            NIBBLE_BITS[(f & m) as usize] as u32,
        )
    }

    /// Writes the legal placements at empty `cell` into `out` (`words` long).
    #[inline]
    pub fn candidates_into(&self, cell: usize, out: &mut [u64]) {
        self.candidates_into_w::<0>(cell, out)
    }

    /// [`State::candidates_into`] for a caller compiled for `words` = N (see
    /// [`State::place_w`]).
    #[inline(always)]
    pub fn candidates_into_w<const N: usize>(&self, cell: usize, out: &mut [u64]) {
        let words = self.wl::<N>();
        let f = &self.fits[cell * words..][..words];
        for ((o, a), b) in out.iter_mut().zip(f).zip(&self.free) {
            *o = a & b;
        }
    }

    /// Recomputes `fits[cell]` from its neighbours (invariant 3).
    #[inline]
    fn refresh(&mut self, cell: usize) {
        let words = self.words;
        let mut req = [0usize; 4];
        for (side, r) in req.iter_mut().enumerate() {
            let nb = self.neighbours[cell][side];
            *r = if nb == NONE {
                RIM as usize
            } else if self.board[nb as usize] == EMPTY {
                self.any
            } else {
                self.edges[self.board[nb as usize] as usize][(side + 2) & 3] as usize
            };
        }
        let base = |side: usize| mask_at(self.any, words, side, req[side]);
        let (m0, m1, m2, m3) = (base(0), base(1), base(2), base(3));
        let out = &mut self.fits[cell * words..][..words];
        for (k, o) in out.iter_mut().enumerate() {
            *o = self.side_mask[m0 + k]
                & self.side_mask[m1 + k]
                & self.side_mask[m2 + k]
                & self.side_mask[m3 + k];
        }
    }

    /// Puts oriented piece `o` on empty `cell`. The caller guarantees `o` is a legal
    /// placement there (bit set in the candidates).
    #[inline]
    pub fn place(&mut self, cell: usize, o: u32) {
        self.place_w::<0>(cell, o)
    }

    /// [`State::place`] for a caller compiled for bitsets of N words (N = `words`),
    /// or 0 to read the length from the state. With N fixed the word loops unroll and
    /// lose their bounds checks: the depth-first driver has a copy per common N.
    #[inline(always)]
    pub fn place_w<const N: usize>(&mut self, cell: usize, o: u32) {
        #[cfg(debug_assertions)]
        assert!(self.probes == 0, "place under an outstanding probe");
        self.put::<true, N>(cell, o);
    }

    /// `words`, as a constant when the caller was compiled for it (N > 0).
    #[inline(always)]
    fn wl<const N: usize>(&self) -> usize {
        debug_assert!(N == 0 || N == self.words, "compiled for {N} words");
        if N == 0 {
            self.words
        } else {
            N
        }
    }

    /// A lookahead `place` that does not keep the counts (invariant 7): cheaper, and
    /// taken back by `unplace` like any placement.
    #[inline]
    pub fn probe(&mut self, cell: usize, o: u32) {
        #[cfg(debug_assertions)]
        {
            self.probes += 1;
        }
        self.put::<false, 0>(cell, o);
    }

    /// Takes back the last `probe`.
    #[inline]
    pub fn unprobe(&mut self, cell: usize) {
        #[cfg(debug_assertions)]
        {
            self.probes -= 1;
        }
        self.take::<false, 0>(cell);
    }

    #[inline(always)]
    fn put<const COUNTS: bool, const N: usize>(&mut self, cell: usize, o: u32) {
        debug_assert!(self.board[cell] == EMPTY);
        debug_assert!(self.free[o as usize / 64] >> (o % 64) & 1 == 1);
        let words = self.wl::<N>();
        // The fields as local slices: their addresses stay in registers across the
        // stores below. Indices are in range by invariants 1-7 (`get`/`slot`).
        let State {
            side_mask,
            matching,
            fits,
            free,
            board,
            neighbours,
            open,
            open_pos,
            n_open,
            undo,
            undo_top,
            ids,
            serial,
            touch,
            touched,
            touched_pos,
            n_touched,
            cnt,
            row,
            groups,
            best,
            ..
        } = self;
        let (fits, free, board, undo) =
            (&mut fits[..], &mut free[..], &mut board[..], &mut undo[..]);
        let (open, open_pos, touch) = (&mut open[..], &mut open_pos[..], &mut touch[..]);
        let (touched, touched_pos) = (&mut touched[..], &mut touched_pos[..]);
        *slot(board, cell) = o;
        let piece = o as usize / 4;
        let (pw, pm) = nibble(piece);
        *slot(free, pw) &= !pm;
        let n = board.len();
        let layer = n - *n_open;
        // Swap-remove cell from the open list.
        let pos = get(open_pos, cell) as usize;
        let last = get(open, *n_open - 1);
        *slot(open, pos) = last;
        *slot(open, *n_open - 1) = cell as u32;
        *slot(open_pos, last as usize) = pos as u32;
        *slot(open_pos, cell) = (*n_open - 1) as u32;
        *n_open -= 1;
        *serial += 1;
        *slot(ids, *n_open) = *serial;
        // Invariant 7 (skipped by a probe): the next layer's counts, the piece's nibble
        // gone from `free`; the narrowed neighbours are recounted below.
        let row = *row;
        let (old, new) = cnt[layer * row..][..2 * row].split_at_mut(row);
        let mut best_k = u32::MAX;
        if COUNTS {
            if get(touch, cell) > 0 {
                // Swap-remove; touched_pos[cell] keeps its slot for `unplace`.
                let pos = get(touched_pos, cell) as usize;
                *n_touched -= 1;
                let last = get(touched, *n_touched);
                *slot(touched, pos) = last;
                *slot(touched_pos, last as usize) = pos as u32;
            } else {
                groups.remove(cell);
            }
            // The byte of `fits[c]` that holds the piece's nibble: `c * 8 * words + at`.
            let half = (piece % 16) / 2;
            let at = 8 * pw
                + if cfg!(target_endian = "little") {
                    half
                } else {
                    7 - half
                };
            let (table, fit_bytes) = (&NIBBLE_KEY[piece % 2], bytes(fits));
            for &c in &touched[..*n_touched] {
                // c is an empty cell (< n), so the byte is within fits.
                let c = c as usize;
                let k = get(old, c) - table[get(fit_bytes, c * 8 * words + at) as usize];
                *slot(new, c) = k;
                best_k = best_k.min(k);
            }
        }
        // Invariant 6: narrow each empty neighbour, saving its old words.
        let nbs = get(neighbours, cell);
        let at = get(matching, o as usize);
        for (side, &nb) in nbs.iter().enumerate() {
            if nb != NONE && get(board, nb as usize) == EMPTY {
                let mask = words_at(side_mask, at[side] as usize, words);
                let f = words_at_mut(fits, nb as usize * words, words);
                let saved = words_at_mut(undo, *undo_top, words);
                *undo_top += words;
                saved.copy_from_slice(f);
                for (x, m) in f.iter_mut().zip(mask) {
                    *x &= m;
                }
                if COUNTS {
                    let k = count_and(f, free) << 16 | nb;
                    *slot(new, nb as usize) = k;
                    best_k = best_k.min(k);
                    let nb = nb as usize;
                    let t = get(touch, nb) + 1;
                    *slot(touch, nb) = t;
                    if t == 1 {
                        *slot(touched, *n_touched) = nb as u32;
                        *slot(touched_pos, nb) = *n_touched as u32;
                        *n_touched += 1;
                        groups.remove(nb);
                    }
                }
            }
        }
        if COUNTS {
            // Only live groups: a dead one stays dead deeper, its counts unread.
            let g = &*groups;
            let sub = piece * g.len;
            for (w, &bits) in g.live.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let k = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let v = get(old, n + k) - get(&g.sub, sub + k);
                    *slot(new, n + k) = v;
                    best_k = best_k.min(v | get(&g.low, k));
                }
            }
            *slot(best, layer + 1) = best_k;
        }
    }

    /// Takes the piece off `cell`, which must be the cell of the last `place`.
    #[inline(never)]
    pub fn unplace(&mut self, cell: usize) {
        self.unplace_w::<0>(cell)
    }

    /// [`State::unplace`] for a caller compiled for N words (see [`State::place_w`]).
    #[inline(always)]
    pub fn unplace_w<const N: usize>(&mut self, cell: usize) {
        #[cfg(debug_assertions)]
        assert!(self.probes == 0, "unplace under an outstanding probe");
        self.take::<true, N>(cell);
    }

    /// Undoes `put::<COUNTS>` of `cell`, the last one.
    #[inline(always)]
    fn take<const COUNTS: bool, const N: usize>(&mut self, cell: usize) {
        debug_assert!(self.board[cell] != EMPTY);
        debug_assert!(
            self.open[self.n_open] as usize == cell,
            "unplace out of LIFO order"
        );
        let words = self.wl::<N>();
        // Local slices as in `put`.
        let State {
            fits,
            free,
            board,
            neighbours,
            n_open,
            undo,
            undo_top,
            touch,
            touched,
            touched_pos,
            n_touched,
            groups,
            ..
        } = self;
        let (fits, free, board, undo) = (&mut fits[..], &mut free[..], &mut board[..], &undo[..]);
        let (touch, touched, touched_pos) =
            (&mut touch[..], &mut touched[..], &mut touched_pos[..]);
        let piece = get(board, cell) as usize / 4;
        *slot(board, cell) = EMPTY;
        let (pw, pm) = nibble(piece);
        *slot(free, pw) |= pm;
        // The cell sits just past the end of the open list (invariant 4).
        *n_open += 1;
        // Restore the neighbours' fits in the reverse order of `place` (invariant 6).
        for &nb in get(neighbours, cell).iter().rev() {
            if nb != NONE && get(board, nb as usize) == EMPTY {
                *undo_top -= words;
                words_at_mut(fits, nb as usize * words, words)
                    .copy_from_slice(words_at(undo, *undo_top, words));
                if COUNTS {
                    // Newly touched by this place: last in the touched list.
                    let nb = nb as usize;
                    let t = get(touch, nb) - 1;
                    *slot(touch, nb) = t;
                    if t == 0 {
                        *n_touched -= 1;
                        groups.insert(nb);
                    }
                }
            }
        }
        if COUNTS {
            if get(touch, cell) > 0 {
                // Undo the swap-remove: the list comes back in the same order.
                let pos = get(touched_pos, cell) as usize;
                if pos < *n_touched {
                    let moved = get(touched, pos);
                    *slot(touched, *n_touched) = moved;
                    *slot(touched_pos, moved as usize) = *n_touched as u32;
                }
                *slot(touched, pos) = cell as u32;
                *n_touched += 1;
            } else {
                groups.insert(cell);
            }
        }
    }

    /// The board as (piece, rotation) per cell.
    pub fn board(&self) -> Board {
        self.board
            .iter()
            .map(|&o| (o != EMPTY).then_some(((o / 4) as usize, (o % 4) as u8)))
            .collect()
    }
}
