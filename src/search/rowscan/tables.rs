//! **Tables (built once per search).** In row-major order the cell at depth j has its
//! up and left neighbours filled (by the search or a hint) and its right and down
//! neighbours empty (or hints). So everything a cell asks of a piece is static except
//! the colours shown by the search's own up and left neighbours. Cells with the same
//! static requirements share a *class*; for every class and every key (up colour, left
//! colour) the table lists the orientations that fit, ascending by oriented piece
//! `o = 4 * piece + rotation` (the generic driver's order), each as an [`Entry`] that
//! carries what the loop needs: the piece and the colours it shows to later cells.
//! Keys and entries number the colours densely ([`DenseColours`]: the rim 0, the other
//! colours that occur 1, 2, ... in ascending order), so a table's size depends on how
//! many colours the puzzle uses, not on how large their numbers are (colours 201-208
//! cost what 1-8 do). Nothing outside the tables sees these numbers.

use super::records::{get, Axis, CellAt, Entry, Frame, Need};
use crate::puzzle::{DOWN, LEFT, RIGHT, RIM, UP};
use crate::search::state::{ones, State};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Tables built by this process ([`tables_built`]).
static BUILT: AtomicUsize = AtomicUsize::new(0);

/// How many times this process has built scan's tables ([`RowScan::new`]). A search
/// builds them once, a parallel one once for its frontier and once for all its
/// subproblems, whatever their number (`tests/suite/shared_tables.rs` checks it).
pub fn tables_built() -> usize {
    BUILT.load(Ordering::Relaxed)
}

/// Whether edges `e` meet `needs` (a key side: any non-rim colour).
fn fits(needs: &[Need; 4], e: &[u8; 4]) -> bool {
    (0..4).all(|s| match needs[s] {
        Need::Rim => e[s] == RIM,
        Need::Inner | Need::Key => e[s] != RIM,
        Need::Colour(x) => e[s] == x,
    })
}

/// The lines scan fills the board along: rows or columns (by default columns when
/// The candidate tables for one puzzle and its scan order of non-hint cells.
#[derive(Debug, Clone)]
pub struct RowScan {
    /// The non-hint cells along `axis`'s lines: the cell at depth j is `order[j]`.
    pub(super) order: Vec<u32>,
    pub(super) axis: Axis,
    /// Per depth: the cell's class and where its up/left colours come from.
    pub(super) cells: Vec<CellAt>,
    /// Per class, `radix * radix + 1` offsets into `entries` (key = far colour * radix +
    /// prev colour: up * radix + left along rows; dense colours, [`DenseColours`]).
    pub(super) heads: Vec<u32>,
    pub(super) entries: Vec<Entry>,
    /// `firsts[key]`: the first chunk of key's list (padding entries when it is empty),
    /// indexed as `heads`: list mode reads it straight from the key, one load less
    /// on the chain from one node's key to the next.
    pub(super) firsts: Vec<[Entry; CHUNK]>,
    /// The number of dense colours (the rim included): every key part is below it.
    pub(super) radix: usize,
    /// The dense number of each colour, for keys and entries.
    pub(super) dense: DenseColours,
    /// Room for the candidates of every depth at once: the sum over depths of the
    /// longest list of the depth's class, and a chunk to spare (an empty list still
    /// writes its padding chunk; invariant 3).
    pub(super) stack_len: usize,
    /// The tables of mask mode, when the puzzle allows it.
    pub(super) masks: Option<Masks>,
    /// True for a planned order ([`RowScan::with_order`]): keys are read through each
    /// frame's parts ([`key_planned`](super::walk::key_planned)), entries show all four colours.
    pub(super) planned: bool,
    /// Planned mode's translation tables: `tabs[t + c]` is dense colour c's share of a
    /// key (its rank among the colours a class shows on that side, plus one, times the
    /// part's multiplier; 0 for a colour no fitting orientation shows there). Table 0
    /// is all zeros, for a frame's unused parts.
    pub(super) tabs: Vec<u32>,
    /// The depth of the state the tables were built on (pieces beyond the hints): the
    /// table's depth j is the search's depth `base + j`.
    pub(super) base: usize,
    /// The cells filled when the tables were built (hints and placed cells) with their
    /// oriented pieces: static constraints a state must agree with ([`RowScan::fits_state`]).
    statics: Vec<(u32, u32)>,
    /// False when a planned order is too long for its frames' 16-bit parts: the
    /// driver then declines every state (the generic one runs).
    usable: bool,
}

/// Mask mode's tables, indexed by key as `heads` is.
#[derive(Debug, Clone)]
pub(super) struct Masks {
    /// `bits[key]`: the pieces with an orientation in key's list.
    pub(super) bits: Vec<u64>,
    /// Rows of 64 entries: `first[key * 64 + p]` is piece p's first entry in key's list.
    /// A piece with several orientations in one list (rare) chains them through
    /// *virtual rows*: an entry with [`Entry::chained`] names row `keys + next`, a copy
    /// of its key's row whose entry for p is the piece's next orientation. Every other
    /// piece's entry in a copy is its key row's, so a depth that moved to a virtual row
    /// reads the same entries for the pieces after p.
    pub(super) first: Vec<Entry>,
    /// Where the virtual rows start: `keys * 64` (lines), or after the rows of the
    /// keys with a non-empty list (planned: `rows`).
    virt: usize,
    /// Planned orders only: `rows[key]`, where key's row starts in `first` (a key
    /// with an empty list has none: its candidates are never read). A class of a
    /// planned order may have many keys and few lists.
    rows: Vec<u32>,
    /// Planned orders only: a copy of [`RowScan::tabs`] (a few hundred bytes), so
    /// that [`advance_mask`](super::walk::advance_mask) takes what it took before planned orders (an argument
    /// more costs the row loop a register: 2 % more instructions per node).
    pub(super) tabs: Vec<u32>,
}

impl Masks {
    /// The tables for `heads`/`entries`, or None with more than 64 pieces or more
    /// than [`Entry::MAX_NEXT`] further orientations.
    /// With `compact`, only the keys with a non-empty list get a row (`rows`).
    fn new(
        heads: &[u32],
        entries: &[Entry],
        pieces: usize,
        compact: bool,
        tabs: &[u32],
    ) -> Option<Masks> {
        if pieces > 64 {
            return None;
        }
        let keys = heads.len().saturating_sub(1); // no classes: every cell a hint
        let mut bits = vec![0u64; keys];
        let mut rows = Vec::new();
        if compact {
            let mut n = 0;
            rows = (0..keys)
                .map(|k| {
                    let at = n * 64;
                    n += (heads[k] < heads[k + 1]) as u32;
                    at
                })
                .collect();
        }
        let row = |key: usize| {
            if compact {
                rows[key] as usize
            } else {
                key * 64
            }
        };
        let real = if compact {
            (0..keys).filter(|&k| heads[k] < heads[k + 1]).count()
        } else {
            keys
        };
        let mut first = vec![Entry::default(); real * 64];
        // The further orientations, (key, entry), in list order: one piece's are
        // consecutive (lists ascend in o), so each follows the one before it.
        let mut further = Vec::new();
        for key in 0..keys {
            // Only the padding entries' piece is >= pieces.
            let list = &entries[heads[key] as usize..heads[key + 1] as usize];
            for &e in list.iter().filter(|e| e.piece() < pieces) {
                if bits[key] >> e.piece() & 1 == 0 {
                    bits[key] |= 1 << e.piece();
                    first[row(key) + e.piece()] = e;
                } else {
                    further.push((key, e));
                }
            }
        }
        if further.len() > Entry::MAX_NEXT + 1 {
            return None;
        }
        let follows = |i: usize| {
            i > 0
                && further[i - 1].0 == further[i].0
                && further[i - 1].1.piece() == further[i].1.piece()
        };
        // Link each chain's head in its key row first, so that the copies carry the links.
        for (i, &(key, e)) in further.iter().enumerate() {
            if !follows(i) {
                let at = row(key) + e.piece();
                first[at] = first[at].with_next(i);
            }
        }
        for (i, &(key, e)) in further.iter().enumerate() {
            let at = first.len();
            first.extend_from_within(row(key)..row(key) + 64);
            let more = i + 1 < further.len() && follows(i + 1);
            first[at + e.piece()] = if more { e.with_next(i + 1) } else { e };
        }
        Some(Masks {
            bits,
            first,
            virt: real * 64,
            rows,
            tabs: if compact { tabs.to_vec() } else { Vec::new() },
        })
    }

    /// Where key's row starts in `first`: `key * 64` along lines, `rows[key]` for a
    /// planned order (`P`).
    #[inline(always)]
    pub(super) fn row<const P: bool>(&self, key: usize) -> u32 {
        if P {
            get(&self.rows, key)
        } else {
            (key * 64) as u32
        }
    }

    /// Where in `first` the virtual row that chained entry `e` names starts.
    #[inline(always)]
    pub(super) fn next_row(&self, e: Entry) -> usize {
        self.virt + e.next() * 64
    }
}

impl RowScan {
    /// Tables for the cells empty in `st` (the hints-only state), in scan order:
    /// along columns (`columns`) or rows.
    pub fn new(st: &State, columns: bool) -> RowScan {
        let axis = Axis::of(columns);
        let order: Vec<u32> = axis
            .cells(st.width, st.height)
            .filter(|&c| st.is_empty(c))
            .map(|c| c as u32)
            .collect();
        RowScan::build(st, order, axis, false)
    }

    /// Tables for any static order of the cells empty in `st`: `order` lists each of
    /// them exactly once. `st` is a consistent partial board: its filled cells (hints
    /// and placed ones) are static constraints, as hints are. A cell's key sides are
    /// those toward cells earlier in `order` (0 to 4 of them); a side toward a later
    /// cell asks for any non-rim colour. Searches from `st` or from a state filled
    /// from it along `order` run on the planned driver; others decline.
    pub fn with_order(st: &State, order: Vec<u32>) -> RowScan {
        let mut seen = vec![false; st.cells()];
        for &c in &order {
            let c = c as usize;
            assert!(
                st.is_empty(c) && !seen[c],
                "order: cell {c} is not an empty cell listed once"
            );
            seen[c] = true;
        }
        assert_eq!(
            order.len(),
            st.max_depth() - st.depth(),
            "order must list every empty cell"
        );
        RowScan::build(st, order, Axis::ROWS, true)
    }

    /// The tables of `order` (its cells empty in `st`): along `axis`'s lines, or
    /// `planned`.
    fn build(st: &State, order: Vec<u32>, axis: Axis, planned: bool) -> RowScan {
        BUILT.fetch_add(1, Ordering::Relaxed);
        let zero = order.len() as u32;
        let mut depth_of = vec![zero; st.cells()];
        for (j, &c) in order.iter().enumerate() {
            depth_of[c as usize] = j as u32;
        }
        // Dense colours are 0..radix: every key part is below it (invariant 4).
        let dense = DenseColours::new(&st.edges);
        let radix = dense.count();
        let neighbour = |c: usize, side: usize| {
            let nb = st.neighbours(c)[side];
            (nb != u32::MAX).then_some(nb as usize)
        };
        let need = |c: usize, side: usize| match neighbour(c, side) {
            None => Need::Rim,
            Some(nb) if st.is_empty(nb) => {
                let key = if planned {
                    depth_of[nb] < depth_of[c]
                } else {
                    side == UP || side == LEFT
                };
                if key {
                    Need::Key
                } else {
                    Need::Inner
                }
            }
            Some(nb) => Need::Colour(st.edges[st.at(nb) as usize][(side + 2) & 3]),
        };
        let mut classes: Vec<[Need; 4]> = Vec::new();
        // Per class: where its key table starts in `heads`, its keys, its longest
        // list and (planned) the translation table of each key side.
        let mut class_info: Vec<(u32, usize, usize, [u16; 4])> = Vec::new();
        let mut heads = Vec::new();
        let mut entries = Vec::new();
        let mut tabs = vec![0u32; radix];
        let mut tab_ids: std::collections::HashMap<Vec<u32>, u16> = Default::default();
        let mut class_at = Vec::with_capacity(order.len());
        let mut fitting = Vec::with_capacity(st.edges.len());
        let mut needs_at = Vec::with_capacity(order.len());
        // Planned keys read bytes of entries as little-endian u64s, at 16-bit offsets.
        let mut usable = !planned
            || (cfg!(target_endian = "little")
                && (order.len() + 1) * size_of::<Frame>() <= u16::MAX as usize);
        for &c in &order {
            let c = c as usize;
            let needs = [need(c, UP), need(c, RIGHT), need(c, DOWN), need(c, LEFT)];
            needs_at.push(needs);
            let k = match classes.iter().position(|n| *n == needs) {
                Some(k) => k,
                None => {
                    classes.push(needs);
                    let start = heads.len() as u32;
                    // The oriented pieces that fit the class, once for the passes below: the
                    // state's `fits` of the cell, whose neighbours ask what `needs` says.
                    fitting.clear();
                    fitting.extend(ones(st.fits_of(c)));
                    debug_assert!(fitting
                        .iter()
                        .copied()
                        .eq((0..st.edges.len()).filter(|&o| fits(&needs, &st.edges[o]))));
                    let (keys, parts) = if planned {
                        let (keys, parts, ok) = Self::planned_parts(
                            &needs,
                            &fitting,
                            &st.edges,
                            &dense,
                            &mut tabs,
                            &mut tab_ids,
                        );
                        usable &= ok;
                        (keys, parts)
                    } else {
                        (radix * radix, [0; 4])
                    };
                    let key = |e: &[u8; 4]| {
                        if planned {
                            (0..4)
                                .filter(|&s| needs[s] == Need::Key)
                                .zip(parts)
                                .map(|(s, t)| tabs[t as usize + dense.get(e[s]) as usize] as usize)
                                .sum()
                        } else {
                            let part = |s: usize| {
                                if needs[s] == Need::Key {
                                    dense.get(e[s]) as usize
                                } else {
                                    0
                                }
                            };
                            part(axis.far) * radix + part(axis.prev)
                        }
                    };
                    let longest = Self::add_class(
                        &fitting,
                        &st.edges,
                        keys,
                        key,
                        |o, e| Self::entry_of(planned, axis, o, &dense.edges(e), radix, &needs),
                        &mut heads,
                        &mut entries,
                    );
                    class_info.push((start, keys, longest, parts));
                    classes.len() - 1
                }
            };
            class_at.push(k);
        }
        let stack_len = class_at.iter().map(|&k| class_info[k].2).sum::<usize>() + CHUNK;
        let pad = Entry::padding(st.edges.len());
        let firsts = (0..heads.len())
            .map(|k| {
                let (a, b) = (
                    heads[k] as usize,
                    heads.get(k + 1).map_or(0, |&b| b as usize),
                );
                if a < b {
                    std::array::from_fn(|j| entries[a + j])
                } else {
                    [pad; CHUNK]
                }
            })
            .collect();
        let frame_of = |nb: usize| depth_of[nb] as usize * size_of::<Frame>();
        let cells = order
            .iter()
            .zip(&class_at)
            .zip(needs_at)
            .map(|((&c, &k), needs)| {
                let c = c as usize;
                let (class, _, _, tabs_of) = class_info[k];
                let mut cell = CellAt {
                    class,
                    far: match neighbour(c, axis.far) {
                        Some(nb) if st.is_empty(nb) && !planned => depth_of[nb],
                        _ => zero,
                    },
                    needs,
                    offs: [(zero as usize * size_of::<Frame>()) as u16; 4],
                    tabs: [0; 4],
                    parts: 0,
                };
                if planned && usable {
                    let sides = (0..4).filter(|&s| needs[s] == Need::Key);
                    for (p, s) in sides.enumerate() {
                        let nb = neighbour(c, s).expect("a key side has a neighbour");
                        // The byte of the neighbour's entry that shows its side facing c.
                        cell.offs[p] = (frame_of(nb) + Entry::colour_byte((s + 2) & 3)) as u16;
                        cell.tabs[p] = tabs_of[p];
                        cell.parts = p as u8 + 1;
                    }
                }
                cell
            })
            .collect();
        let statics = (0..st.cells())
            .filter(|&c| !st.is_empty(c))
            .map(|c| (c as u32, st.at(c)))
            .collect();
        RowScan {
            firsts,
            stack_len,
            cells,
            masks: Masks::new(&heads, &entries, st.edges.len() / 4, planned, &tabs),
            order,
            axis,
            heads,
            entries,
            radix,
            dense,
            planned,
            tabs,
            base: st.depth(),
            statics,
            usable,
        }
    }

    /// Planned mode: the translation table of each key side of a class that asks
    /// `needs` (in side order; `fitting`: the oriented pieces that fit it), appended to
    /// `tabs` unless an equal one is there, and the class's number of keys. The colours a side can show are those the class's
    /// fitting orientations show there: numbered 1, 2, ... (0: none fits), each part
    /// weighted by the product of the earlier parts' counts. False when a table's
    /// start does not fit 16 bits.
    fn planned_parts(
        needs: &[Need; 4],
        fitting: &[usize],
        edges: &[[u8; 4]],
        dense: &DenseColours,
        tabs: &mut Vec<u32>,
        ids: &mut std::collections::HashMap<Vec<u32>, u16>,
    ) -> (usize, [u16; 4], bool) {
        let radix = dense.count();
        let mut shown = [[false; 256]; 4];
        for e in fitting.iter().map(|&o| &edges[o]) {
            for s in 0..4 {
                shown[s][dense.get(e[s]) as usize] = true;
            }
        }
        let (mut keys, mut parts, mut ok) = (1usize, [0u16; 4], true);
        for (p, s) in (0..4).filter(|&s| needs[s] == Need::Key).enumerate() {
            let mut table = vec![0u32; radix];
            let mut rank = 0;
            for c in 0..radix {
                if shown[s][c] {
                    rank += 1;
                    table[c] = (rank * keys) as u32;
                }
            }
            keys *= rank + 1;
            let at = match ids.get(&table) {
                Some(&t) => t,
                None => {
                    let t = tabs.len();
                    ok &= t <= u16::MAX as usize;
                    tabs.extend_from_slice(&table);
                    ids.insert(table, t as u16);
                    t as u16
                }
            };
            parts[p] = at;
        }
        (keys, parts, ok)
    }

    /// The entry of oriented piece `o` (dense edges `e`) in a cell asking `needs`:
    /// along `axis`'s lines ([`Entry::new`]) or planned ([`Entry::planned`]).
    pub(super) fn entry_of(
        planned: bool,
        axis: Axis,
        o: usize,
        e: &[u8; 4],
        radix: usize,
        needs: &[Need; 4],
    ) -> Entry {
        if planned {
            Entry::planned(o, e)
        } else {
            Entry::new(axis, o, e, radix, needs)
        }
    }

    /// The same driver without mask mode (lists and `used` bytes, as for more than 64
    /// pieces): for tests of that mode on small boards.
    pub fn without_masks(mut self) -> RowScan {
        self.masks = None;
        self
    }

    /// True when the walk runs in mask mode.
    pub fn masked(&self) -> bool {
        self.masks.is_some()
    }

    /// Appends the key table of one class (`keys` keys, `key` of a fitting
    /// orientation's edges below it): a counting sort of the fitting orientations
    /// (`fitting`, ascending) by key, stable so each list stays ascending in `o`.
    /// Returns its longest list.
    fn add_class(
        fitting: &[usize],
        edges: &[[u8; 4]],
        keys: usize,
        key: impl Fn(&[u8; 4]) -> usize,
        entry: impl Fn(usize, &[u8; 4]) -> Entry,
        heads: &mut Vec<u32>,
        entries: &mut Vec<Entry>,
    ) -> usize {
        let mut count = vec![0u32; keys + 1];
        for &o in fitting {
            count[key(&edges[o]) + 1] += 1;
        }
        // Padded to whole chunks, as the stack holds them (invariant 3).
        let longest = count
            .iter()
            .max()
            .copied()
            .unwrap_or(0)
            .next_multiple_of(CHUNK as u32) as usize;
        let base = entries.len() as u32;
        let mut start = base;
        for n in count.iter_mut() {
            start += n.next_multiple_of(CHUNK as u32);
            *n = start;
        }
        // count[k] is now the start of key k's list, count[k + 1] its end; the padding
        // at the end of each list is the never-free piece's.
        heads.extend_from_slice(&count);
        entries.resize(start as usize, Entry::padding(edges.len()));
        let mut fill = count;
        for &o in fitting {
            let k = key(&edges[o]);
            entries[fill[k] as usize] = entry(o, &edges[o]);
            fill[k] += 1;
        }
        longest
    }

    /// The scan order of the non-hint cells (rows, or columns on a wide board).
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// True when `st` was filled in this order: hints, then `order[..depth]`.
    pub(super) fn fits_state(&self, st: &State) -> bool {
        let Some(d) = st.depth().checked_sub(self.base) else {
            return false;
        };
        self.usable
            && self.order.len() < u16::MAX as usize
            && self.order.len() + self.base == st.max_depth()
            && d <= self.order.len()
            && self.order[..d].iter().all(|&c| !st.is_empty(c as usize))
            && self.order[d..].iter().all(|&c| st.is_empty(c as usize))
            && (self.base == 0 || self.statics.iter().all(|&(c, o)| st.at(c as usize) == o))
    }

    /// The depth of the state the tables were built on: the search's depth of the
    /// table's depth 0.
    pub fn base(&self) -> usize {
        self.base
    }

    /// True for a planned order ([`RowScan::with_order`]).
    pub fn planned(&self) -> bool {
        self.planned
    }

    /// The tables as plain numbers: the key radix, the class heads, each entry's bits
    /// and mask mode's bits. For the test suite, to compare two builds.
    #[doc(hidden)]
    pub fn raw_tables(&self) -> (usize, &[u32], Vec<u64>, Option<&[u64]>) {
        let entries = self.entries.iter().map(|e| e.0).collect();
        let masks = self.masks.as_ref().map(|m| &m.bits[..]);
        (self.radix, &self.heads, entries, masks)
    }
}

/// Lists are padded to whole chunks of this many entries (see `open`).
pub(super) const CHUNK: usize = 2;

/// Dense numbers for the colours of one puzzle, the tables' own: the rim 0 stays 0,
/// and the other colours that occur become 1, 2, ... in ascending order. The tables
/// are keyed by (up colour, left colour), `radix * radix` keys per class, so keying
/// them by the colours as numbered in the file would size them by the largest number
/// (a 6x6 with colours 201-208: 209 * 209 keys per class, and mask mode's 64 entries
/// per key, 400 MB) instead of by how many colours there are (9 * 9).
///
/// Public (hidden) for the test suite's checks of the numbering.
#[derive(Clone)]
pub struct DenseColours {
    /// `of[c]`: the dense number of colour c (0 for a colour that does not occur).
    of: [u8; 256],
    /// The number of dense colours, the rim included: the key radix.
    count: usize,
}

impl DenseColours {
    /// The numbering of the colours shown by `edges` (and the rim).
    pub fn new(edges: &[[u8; 4]]) -> DenseColours {
        let mut seen = [false; 256];
        seen[RIM as usize] = true;
        for &c in edges.iter().flatten() {
            seen[c as usize] = true;
        }
        let (mut of, mut count) = ([0u8; 256], 0);
        // RIM is 0, the first seen: it keeps 0.
        for c in (0..256).filter(|&c| seen[c]) {
            of[c] = count as u8;
            count += 1;
        }
        DenseColours { of, count }
    }

    /// The number of dense colours, the rim included.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The dense number of colour `c`.
    pub fn get(&self, c: u8) -> u8 {
        self.of[c as usize]
    }

    /// `e` with its colours renumbered.
    pub fn edges(&self, e: &[u8; 4]) -> [u8; 4] {
        e.map(|c| self.get(c))
    }
}

impl std::fmt::Debug for DenseColours {
    /// The colours that occur, with their dense numbers (not the 256 slots).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pairs = (0..256)
            .filter(|&c| c == RIM as usize || self.of[c] != 0)
            .map(|c| (c, self.of[c]));
        f.debug_map().entries(pairs).finish()
    }
}
