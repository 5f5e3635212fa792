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

use crate::puzzle::{rotated, Board, Puzzle, RIM};

/// Evaluates `$body` with the const `$n` set to `$words` when that is a common bitset
/// length (1-4 words: boards up to 8x8; 16: 16x16), else to 0 (the length is read at
/// run time): code generic over N (see [`State::place_w`]) is compiled once per common
/// length, so the state's word loops unroll.
macro_rules! with_words {
    ($words:expr, $n:ident => $body:expr) => {
        $crate::search::state::with_words!(@lengths $words, $n, $body, 1 2 3 4 16)
    };
    (@lengths $words:expr, $n:ident, $body:expr, $($k:literal)*) => {
        match $words {
            $($k => {
                const $n: usize = $k;
                $body
            })*
            _ => {
                const $n: usize = 0;
                $body
            }
        }
    };
}
pub(crate) use with_words;

/// Removes the lowest oriented piece from the placement bitset `set` and returns it:
/// the order in which every search tries the placements at a site.
#[inline]
pub fn pop_lowest(set: &mut [u64]) -> Option<u32> {
    let k = set.iter().position(|&w| w != 0)?;
    let bit = set[k].trailing_zeros();
    set[k] &= set[k] - 1;
    Some((k * 64) as u32 + bit)
}

/// Number of oriented pieces in the placement bitset `set`.
#[inline]
pub fn popcount(set: &[u64]) -> u32 {
    count_words(set.len(), |i| set[i])
}

/// Marks an empty cell in `board`.
pub const EMPTY: u32 = u32::MAX;
/// Marks "no neighbour" (the rim) in `neighbours`.
const NONE: u32 = u32::MAX;

/// Bits set in each nibble value: one piece's orientations within a word.
const NIBBLE_BITS: [u16; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// `NIBBLE_KEY[h][b]`: bits set in nibble h (0 low, 1 high) of byte b, moved to the
/// count field of a key `count << 16 | cell`: one load per cell in `put`.
const NIBBLE_KEY: [[u32; 256]; 2] = {
    let mut t = [[0; 256]; 2];
    let mut b = 0;
    while b < 256 {
        t[0][b] = ((b & 0xF) as u32).count_ones() << 16;
        t[1][b] = ((b >> 4) as u32).count_ones() << 16;
        b += 1;
    }
    t
};

/// The bytes of `v` in memory order.
#[inline(always)]
fn bytes(v: &[u64]) -> &[u8] {
    // SAFETY: any u64 memory is valid as u8s, and u8 needs no alignment.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), v.len() * 8) }
}

/// Whether `count_ones` is one instruction. Baseline x86-64 has no POPCNT, so
/// `.cargo/config.toml` turns it on (every x86-64 CPU since 2008 has it); a build
/// without it (RUSTFLAGS set, say) counts bits per byte instead.
const HW_POPCOUNT: bool = !cfg!(target_arch = "x86_64") || cfg!(target_feature = "popcnt");

/// Per-byte bit counts of `x` (each byte 0..=8): without a hardware popcount,
/// summing these over up to 31 words before one horizontal add ([`byte_sum`]) is
/// much cheaper than a software `count_ones` per word.
#[inline(always)]
fn byte_counts(x: u64) -> u64 {
    let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

/// Sum of the bytes of `acc` (each at most 248: up to 31 words of [`byte_counts`]),
/// in 16-bit lanes so that it cannot overflow.
#[inline(always)]
fn byte_sum(acc: u64) -> u32 {
    let pairs = (acc & 0x00ff_00ff_00ff_00ff) + ((acc >> 8) & 0x00ff_00ff_00ff_00ff);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// Number of set bits of the words `word(0..n)`.
#[inline(always)]
fn count_words(n: usize, word: impl Fn(usize) -> u64) -> u32 {
    if HW_POPCOUNT {
        return (0..n).map(|i| word(i).count_ones()).sum();
    }
    let (mut total, mut start) = (0, 0);
    // Runs of 31 words (boards need one or two).
    while start < n {
        let end = n.min(start + 31);
        total += byte_sum((start..end).map(|i| byte_counts(word(i))).sum());
        start = end;
    }
    total
}

/// Number of set bits of `a & b` (equal-length bitsets).
#[inline(always)]
fn count_and(a: &[u64], b: &[u64]) -> u32 {
    let b = &b[..a.len()];
    count_words(a.len(), |i| a[i] & b[i])
}

/// Unchecked read; every caller indexes within the bounds its invariants keep.
#[inline(always)]
fn get<T: Copy>(v: &[T], i: usize) -> T {
    debug_assert!(i < v.len());
    // SAFETY: callers keep i < v.len() (checked in debug builds).
    unsafe { *v.get_unchecked(i) }
}

/// Unchecked element for writing, under the contract of [`get`].
#[inline(always)]
fn slot<T>(v: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < v.len());
    // SAFETY: callers keep i < v.len() (checked in debug builds).
    unsafe { v.get_unchecked_mut(i) }
}

/// Unchecked `&v[i..i + n]`, under the contract of [`get`].
#[inline(always)]
fn words_at(v: &[u64], i: usize, n: usize) -> &[u64] {
    debug_assert!(i + n <= v.len());
    // SAFETY: callers keep i + n <= v.len() (checked in debug builds).
    unsafe { v.get_unchecked(i..i + n) }
}

/// Unchecked `&mut v[i..i + n]`, under the contract of [`get`].
#[inline(always)]
fn words_at_mut(v: &mut [u64], i: usize, n: usize) -> &mut [u64] {
    debug_assert!(i + n <= v.len());
    // SAFETY: callers keep i + n <= v.len() (checked in debug builds).
    unsafe { v.get_unchecked_mut(i..i + n) }
}

/// The untouched empty cells (invariant 7), grouped by their `fits`, which is still
/// the static mask fixed at construction.
#[derive(Debug, Clone, Default)]
struct Groups {
    /// Number of groups.
    len: usize,
    /// `of[c]`: the group of cell c (0 for a hint's cell, never read).
    of: Vec<u16>,
    /// `mask[g * words..][..words]`: group g's static mask (for checking).
    mask: Vec<u64>,
    /// `u64` words per cell bitset.
    cw: usize,
    /// `cells[g * cw..][..cw]`: the untouched empty cells of group g.
    cells: Vec<u64>,
    /// `low[g]`: the lowest of them, `u32::MAX` when none.
    low: Vec<u32>,
    /// Bitset of the groups with untouched cells (`low[g]` not `u32::MAX`).
    live: Vec<u64>,
    /// `sub[piece * len + g]`: orientations of `piece` in group g's mask, `<< 16`.
    sub: Vec<u32>,
}

impl Groups {
    /// Groups the empty cells of `st` by `fits`, all untouched, at the current layer.
    fn new(st: &State) -> Groups {
        let (n, words) = (st.cells(), st.words);
        let mut g = Groups {
            of: vec![0; n],
            cw: n.div_ceil(64),
            ..Groups::default()
        };
        for &c in st.open_cells() {
            let c = c as usize;
            let f = &st.fits[c * words..][..words];
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
        for &c in st.open_cells() {
            g.insert(c as usize);
        }
        let pieces = st.edges.len() / 4;
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
    fn remove(&mut self, c: usize) {
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
    fn insert(&mut self, c: usize) {
        let (g, w) = (get(&self.of, c) as usize, c / 64);
        *slot(&mut self.cells, g * self.cw + w) |= 1 << (c % 64);
        let low = slot(&mut self.low, g);
        *low = (*low).min(c as u32);
        *slot(&mut self.live, g / 64) |= 1 << (g % 64);
    }
}

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

/// What a kill test needs of the oriented piece it places: where the placements that
/// match it start in `side_mask`, and the word and nibble of its piece's orientations
/// (they leave `free` with it).
struct Leaving<'a> {
    /// [`State::matching`] of the piece: per side, the neighbour's placements that
    /// show its colour back.
    at: &'a [u32; 4],
    pw: usize,
    pm: u64,
}

impl<'a> Leaving<'a> {
    #[inline(always)]
    fn new(st: &'a State, o: u32) -> Leaving<'a> {
        let (pw, pm) = nibble(o as usize / 4);
        debug_assert!((o as usize) < st.matching.len());
        Leaving {
            // SAFETY: `matching` has a row per oriented piece of the puzzle, and o is
            // one (a placement the caller took from a placement set).
            at: unsafe { st.matching.get_unchecked(o as usize) },
            pw,
            pm,
        }
    }
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
        st.groups = Groups::new(&st);
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
        count_and(&self.fits[cell * self.words..][..self.words], &self.free)
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

    /// What [`State::kills_in_room_w`] asks of empty `cell`'s neighbours, read once
    /// for all the placements tried there: `room[side * words..][..words]` gets the
    /// legal placements (`fits & free`) of the empty neighbour on `side`; returns the
    /// sides that have one, as bits. `room` is `4 * words` long.
    #[inline(always)]
    pub fn neighbour_room_w<const N: usize>(&self, cell: usize, room: &mut [u64]) -> u8 {
        let words = self.wl::<N>();
        let free = words_at(&self.free, 0, words);
        let mut sides = 0;
        for (side, &nb) in get(&self.neighbours, cell).iter().enumerate() {
            if nb != NONE && get(&self.board, nb as usize) == EMPTY {
                sides |= 1 << side;
                let f = words_at(&self.fits, nb as usize * words, words);
                let r = words_at_mut(room, side * words, words);
                for i in 0..words {
                    *slot(r, i) = get(f, i) & get(free, i);
                }
            }
        }
        sides
    }

    /// True when putting oriented piece `o` on empty `cell` would leave one of its
    /// empty neighbours without a legal placement: the child is then a leaf for any
    /// heuristic that kills a node with such a cell ([`crate::search::select::Select::DEAD_ON_ZERO`]).
    /// Sound, not complete: a cell further away that loses its last placement (the
    /// piece's) is not looked for, and such a child is entered as usual.
    #[inline(always)]
    pub fn kills_neighbour_w<const N: usize>(&self, cell: usize, o: u32) -> bool {
        let words = self.wl::<N>();
        let free = words_at(&self.free, 0, words);
        let leaving = Leaving::new(self, o);
        for (side, &nb) in get(&self.neighbours, cell).iter().enumerate() {
            if nb != NONE && get(&self.board, nb as usize) == EMPTY {
                let f = words_at(&self.fits, nb as usize * words, words);
                if self.starves::<N>(&leaving, side, |i| get(f, i) & get(free, i)) {
                    return true;
                }
            }
        }
        false
    }

    /// [`State::kills_neighbour_w`] for the cell that [`State::neighbour_room_w`] gave
    /// `sides` and `room` for (in this same state): cheaper when many placements are
    /// tested at one cell.
    #[inline(always)]
    pub fn kills_in_room_w<const N: usize>(&self, o: u32, sides: u8, room: &[u64]) -> bool {
        let words = self.wl::<N>();
        let leaving = Leaving::new(self, o);
        let mut rest = sides;
        while rest != 0 {
            let side = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let r = words_at(room, side * words, words);
            if self.starves::<N>(&leaving, side, |i| get(r, i)) {
                return true;
            }
        }
        false
    }

    /// Narrows `cands` (placements at a cell) to those whose side `side` shows a colour
    /// that some placement in `room` (the neighbour's there, from
    /// [`State::neighbour_room_w`]) shows back: every other one starves that neighbour
    /// ([`State::kills_in_room_w`] is true for it). `keep` is scratch, `words` long.
    #[inline(always)]
    pub fn keep_matching_w<const N: usize>(
        &self,
        side: usize,
        room: &[u64],
        cands: &mut [u64],
        keep: &mut [u64],
    ) {
        let words = self.wl::<N>();
        let facing = (side + 2) & 3;
        keep[..words].fill(0);
        for i in 0..words {
            let mut bits = get(room, i);
            while bits != 0 {
                let p = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // The placements here whose side `side` shows p's colour back.
                let at = get(&self.matching, p)[facing] as usize;
                let mask = words_at(&self.side_mask, at, words);
                for j in 0..words {
                    *slot(keep, j) |= get(mask, j);
                }
            }
        }
        for i in 0..words {
            *slot(cands, i) &= get(keep, i);
        }
    }

    /// True when no placement of the neighbour on `side` of the cell is left once `l`'s
    /// piece is there: none of `avail` (that neighbour's `fits & free`, word by word)
    /// shows the piece's colour on the facing side, apart from the piece's own
    /// orientations, which leave with it.
    #[inline(always)]
    fn starves<const N: usize>(
        &self,
        l: &Leaving,
        side: usize,
        avail: impl Fn(usize) -> u64,
    ) -> bool {
        let words = self.wl::<N>();
        let mask = words_at(&self.side_mask, l.at[side] as usize, words);
        let mut left = 0;
        for i in 0..words {
            let gone = if i == l.pw { l.pm } else { 0 };
            left |= avail(i) & get(mask, i) & !gone;
        }
        left == 0
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
