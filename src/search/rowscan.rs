//! The row-scan driver: `scan`'s own depth-first loop, which never touches the
//! generic [`State`] bitsets. It visits exactly the nodes of the generic driver with
//! the `scan` heuristic, in the same order (same per-depth counts, same first
//! solutions), at a fraction of the cost per node.
//!
//! **Order.** Row-major, or column-major (`scan` when the board is wider than tall,
//! `scan:columns`; [`Axis`]);
//! the text below speaks of rows, and columns swap up with left, down with right.
//!
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

// The doc above states the invariants of the private loop next to it, for whoever
// changes it (`cargo doc --document-private-items` follows its links).
#![allow(rustdoc::private_intra_doc_links)]

use super::limits::{self, Limits, Share, Stats, Stop};
use super::state::State;
use crate::puzzle::{Board, Puzzle, DOWN, LEFT, RIGHT, RIM, UP};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Tables built by this process ([`tables_built`]).
static BUILT: AtomicUsize = AtomicUsize::new(0);

/// How many times this process has built scan's tables ([`RowScan::new`]). A search
/// builds them once, a parallel one once for its frontier and once for all its
/// subproblems, whatever their number (`tests/suite/shared_tables.rs` checks it).
pub fn tables_built() -> usize {
    BUILT.load(Ordering::Relaxed)
}

/// What one side of a cell asks of a piece, apart from the search's up/left colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    Rim,
    /// Any non-rim colour (an empty neighbour).
    Inner,
    /// This colour (a hint's edge).
    Colour(u8),
    /// The colour a search-placed neighbour shows: part of the key.
    Key,
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
/// the board is wider than tall, [`crate::puzzle::scans_columns`]). Either way a
/// cell's up and left neighbours come before it, and the previous cell of its line is
/// the one on the `prev` side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Axis {
    /// LEFT along rows, UP along columns: this neighbour is the previous depth's
    /// whenever it is a search cell.
    prev: usize,
    /// The other side whose colour is part of the key: UP along rows, LEFT along
    /// columns (its depth is kept per cell, [`CellAt::far`]).
    far: usize,
}

impl Axis {
    const ROWS: Axis = Axis {
        prev: LEFT,
        far: UP,
    };
    const COLUMNS: Axis = Axis {
        prev: UP,
        far: LEFT,
    };

    /// Columns when `columns`, else rows.
    fn of(columns: bool) -> Axis {
        if columns {
            Axis::COLUMNS
        } else {
            Axis::ROWS
        }
    }

    /// The cells of a `width` x `height` board in fill order.
    fn cells(self, width: usize, height: usize) -> impl Iterator<Item = usize> {
        let along_rows = self == Axis::ROWS;
        let (lines, len) = if along_rows {
            (height, width)
        } else {
            (width, height)
        };
        (0..lines).flat_map(move |l| {
            (0..len).map(move |i| {
                if along_rows {
                    l * width + i
                } else {
                    i * width + l
                }
            })
        })
    }
}

/// The candidate tables for one puzzle and its scan order of non-hint cells.
#[derive(Debug, Clone)]
pub struct RowScan {
    /// The non-hint cells along `axis`'s lines: the cell at depth j is `order[j]`.
    order: Vec<u32>,
    axis: Axis,
    /// Per depth: the cell's class and where its up/left colours come from.
    cells: Vec<CellAt>,
    /// Per class, `radix * radix + 1` offsets into `entries` (key = far colour * radix +
    /// prev colour: up * radix + left along rows; dense colours, [`DenseColours`]).
    heads: Vec<u32>,
    entries: Vec<Entry>,
    /// `firsts[key]`: the first chunk of key's list (padding entries when it is empty),
    /// indexed as `heads`: list mode reads it straight from the key, one load less
    /// on the chain from one node's key to the next.
    firsts: Vec<[Entry; CHUNK]>,
    /// The number of dense colours (the rim included): every key part is below it.
    radix: usize,
    /// The dense number of each colour, for keys and entries.
    dense: DenseColours,
    /// Room for the candidates of every depth at once: the sum over depths of the
    /// longest list of the depth's class, and a chunk to spare (an empty list still
    /// writes its padding chunk; invariant 3).
    stack_len: usize,
    /// The tables of mask mode, when the puzzle allows it.
    masks: Option<Masks>,
    /// True for a planned order ([`RowScan::with_order`]): keys are read through each
    /// frame's parts ([`key_planned`]), entries show all four colours.
    planned: bool,
    /// Planned mode's translation tables: `tabs[t + c]` is dense colour c's share of a
    /// key (its rank among the colours a class shows on that side, plus one, times the
    /// part's multiplier; 0 for a colour no fitting orientation shows there). Table 0
    /// is all zeros, for a frame's unused parts.
    tabs: Vec<u32>,
    /// The depth of the state the tables were built on (pieces beyond the hints): the
    /// table's depth j is the search's depth `base + j`.
    base: usize,
    /// The cells filled when the tables were built (hints and placed cells) with their
    /// oriented pieces: static constraints a state must agree with ([`RowScan::fits_state`]).
    statics: Vec<(u32, u32)>,
    /// False when a planned order is too long for its frames' 16-bit parts: the
    /// driver then declines every state (the generic one runs).
    usable: bool,
}

/// Mask mode's tables, indexed by key as `heads` is.
#[derive(Debug, Clone)]
struct Masks {
    /// `bits[key]`: the pieces with an orientation in key's list.
    bits: Vec<u64>,
    /// Rows of 64 entries: `first[key * 64 + p]` is piece p's first entry in key's list.
    /// A piece with several orientations in one list (rare) chains them through
    /// *virtual rows*: an entry with [`Entry::chained`] names row `keys + next`, a copy
    /// of its key's row whose entry for p is the piece's next orientation. Every other
    /// piece's entry in a copy is its key row's, so a depth that moved to a virtual row
    /// reads the same entries for the pieces after p.
    first: Vec<Entry>,
    /// Where the virtual rows start: `keys * 64` (lines), or after the rows of the
    /// keys with a non-empty list (planned: `rows`).
    virt: usize,
    /// Planned orders only: `rows[key]`, where key's row starts in `first` (a key
    /// with an empty list has none: its candidates are never read). A class of a
    /// planned order may have many keys and few lists.
    rows: Vec<u32>,
    /// Planned orders only: a copy of [`RowScan::tabs`] (a few hundred bytes), so
    /// that [`advance_mask`] takes what it took before planned orders (an argument
    /// more costs the row loop a register: 2 % more instructions per node).
    tabs: Vec<u32>,
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
    fn row<const P: bool>(&self, key: usize) -> u32 {
        if P {
            get(&self.rows, key)
        } else {
            (key * 64) as u32
        }
    }

    /// Where in `first` the virtual row that chained entry `e` names starts.
    #[inline(always)]
    fn next_row(&self, e: Entry) -> usize {
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
                    let (keys, parts) = if planned {
                        let (keys, parts, ok) =
                            Self::planned_parts(&needs, &st.edges, &dense, &mut tabs, &mut tab_ids);
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
                        &needs,
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
    /// `needs` (in side order), appended to `tabs` unless an equal one is there, and
    /// the class's number of keys. The colours a side can show are those the class's
    /// fitting orientations show there: numbered 1, 2, ... (0: none fits), each part
    /// weighted by the product of the earlier parts' counts. False when a table's
    /// start does not fit 16 bits.
    fn planned_parts(
        needs: &[Need; 4],
        edges: &[[u8; 4]],
        dense: &DenseColours,
        tabs: &mut Vec<u32>,
        ids: &mut std::collections::HashMap<Vec<u32>, u16>,
    ) -> (usize, [u16; 4], bool) {
        let radix = dense.count();
        let mut shown = [[false; 256]; 4];
        for e in edges.iter().filter(|e| fits(needs, e)) {
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
    fn entry_of(
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
    /// orientation's edges below it): a counting sort of the fitting orientations by
    /// key, stable so each list stays ascending in `o`. Returns its longest list.
    fn add_class(
        needs: &[Need; 4],
        edges: &[[u8; 4]],
        keys: usize,
        key: impl Fn(&[u8; 4]) -> usize,
        entry: impl Fn(usize, &[u8; 4]) -> Entry,
        heads: &mut Vec<u32>,
        entries: &mut Vec<Entry>,
    ) -> usize {
        let mut count = vec![0u32; keys + 1];
        for e in edges.iter().filter(|e| fits(needs, e)) {
            count[key(e) + 1] += 1;
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
        for (o, e) in edges.iter().enumerate() {
            if fits(needs, e) {
                let k = key(e);
                entries[fill[k] as usize] = entry(o, e);
                fill[k] += 1;
            }
        }
        longest
    }

    /// The scan order of the non-hint cells (rows, or columns on a wide board).
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// True when `st` was filled in this order: hints, then `order[..depth]`.
    fn fits_state(&self, st: &State) -> bool {
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
    /// counted): for the interleaved search ([`super::parallel::interleave`]), which runs many and
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

    /// Walks `w` on until its node count reaches `until` (`Budget`: the last node
    /// counted is expanded when the walk resumes), a node at its goal depth is counted
    /// (`Goal`: the node is at `w.d`), or its subtree is done. The per-node loop is in
    /// [`advance_mask`] and [`RowScan::advance_list`]; they stop at the nodes that need
    /// attention here.
    fn walk<const MASK: bool, const P: bool>(&self, w: &mut Walker, until: u64) -> Walked {
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
    fn open_at<const MASK: bool, const P: bool>(&self, w: &mut Walker, h: &Hot) {
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
    fn board(&self, w: &Walker, d: usize) -> Board {
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

/// Depth d's key: its class and the colours its up and left neighbours show, where
/// `prev` is the entry placed at depth d - 1 (0 at depth 0). In row-major order a
/// cell's left neighbour, when it is a search cell, is the previous depth's; otherwise
/// the previous depth's right neighbour is static and its entry shows 0 there
/// ([`Entry::new`]). So `prev` is always the left part. A planned order (`P`) reads
/// its key through the frame's parts instead ([`key_planned`]).
#[inline(always)]
fn key_at<const P: bool>(tabs: &[u32], frames: &[Frame], d: usize, prev: Entry) -> usize {
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
fn key_planned(tabs: &[u32], frames: &[Frame], d: usize) -> usize {
    let f = get(frames, d);
    let bytes = frames.as_ptr() as *const u8;
    let mut key = f.class as usize;
    for p in 0..f.parts as usize {
        let off = f.offs[p] as usize;
        debug_assert!(off < frames.len() * size_of::<Frame>());
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
fn prev_at(frames: &[Frame], d: usize) -> Entry {
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
fn advance_mask<const P: bool>(m: &Masks, frames: &mut [Frame], h: &mut Hot) -> bool {
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
struct Hot {
    /// The current depth (open unless a loop just returned true), the start depth.
    d: usize,
    d0: usize,
    /// The depth from which on a counted node goes back to the walk.
    watch: usize,
    /// Nodes still to count before the budget pause (<= 0: pause at the next one).
    left: i64,
    /// Mask mode's free pieces.
    free: u64,
}

/// How a walk ended: see [`RowScan::walk`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Walked {
    Budget,
    Goal,
    Done,
}

/// Where a paused walk picks up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resume {
    /// The node at `d` is counted but not expanded.
    Counted,
    /// The node at `d` is a goal node already reported (or the subtree is done).
    AtGoal,
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

/// A resumable row-scan walk below one start node: the loop's state (invariants
/// 1-4) and what it counted. [`RowScan::walk`] runs it.
#[derive(Debug, Clone)]
struct Walker {
    /// Per depth: the static cell part, the search state and the node count.
    frames: Vec<Frame>,
    stack: Vec<Entry>,
    used: Vec<u8>,
    /// Mask mode: bit p set exactly when `used[p]` is 0 (p < 64).
    free: u64,
    /// The start depth, the current depth, the goal depth: the last one (a node there
    /// is a solution and pauses the walk).
    d0: usize,
    d: usize,
    goal: usize,
    /// Nodes counted by this walk.
    total: u64,
    /// Words of an oriented-piece bitset (`State::words`), for `offer`.
    words: usize,
    resume: Resume,
    /// The board at the start node.
    base: Board,
    /// Solutions, deepest node and stop reason (node counts are in the frames; the
    /// deepest depth counted from the tables' state until [`Walker::into_stats`]).
    stats: Stats,
    /// The tables' base depth ([`RowScan::base`]): frames[j] is the search's depth
    /// `shift + j`.
    shift: usize,
}

impl Walker {
    /// A walk of the subtree below `st`'s node (counted: its first node), pausing at
    /// solutions. `st` must be filled in `rs`'s order.
    fn new(rs: &RowScan, st: &State) -> Walker {
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
    fn into_stats(self) -> Stats {
        let mut s = self.stats;
        let above = std::iter::repeat_n(0, self.shift);
        s.nodes_per_depth = above.chain(self.frames.iter().map(|f| f.nodes)).collect();
        s.deepest += self.shift;
        s
    }
}

/// One candidate: an oriented piece and what placing it means to the loop, packed in
/// one `u64` so that it is copied with one move: bits 0..16 the piece, 16..32 the
/// oriented piece `4 * piece + rotation`, 32..48 the (dense) colour it shows below
/// times the key radix (the up part of the key below it), 48..56 the (dense) colour it
/// shows to the right (the left part of the key to its right), 56..63 mask mode's `next` and bit 63
/// set when it names one ([`Entry::chained`], see [`Masks`]; 0 elsewhere).
#[derive(Debug, Clone, Copy, Default)]
struct Entry(u64);

impl Entry {
    /// The entry of oriented piece `o` (edges `e`, in dense colours: [`DenseColours`])
    /// in a cell that asks `needs`. It shows
    /// its down / right colour only where the neighbour there is a search cell: a
    /// static side shows 0, which is what key parts of static sides are (invariant 2).
    fn new(axis: Axis, o: usize, e: &[u8; 4], radix: usize, needs: &[Need; 4]) -> Entry {
        let shown = |side: usize| {
            if needs[side] == Need::Inner {
                e[side] as u64
            } else {
                0
            }
        };
        // The sides facing the later cells whose keys it is part of.
        let far_key = shown(axis.far ^ 2) * radix as u64;
        let near = shown(axis.prev ^ 2);
        Entry((o / 4) as u64 | (o as u64) << 16 | far_key << 32 | near << 48)
    }

    /// The entry of oriented piece `o` (dense edges `e`) for a planned order: bits
    /// 0..16 the piece, 16..18 the rotation, byte 3 + s the colour shown on side s
    /// (read by later cells' key parts, [`Entry::colour_byte`]), 56..64 as above.
    fn planned(o: usize, e: &[u8; 4]) -> Entry {
        let colours = u32::from_le_bytes(*e) as u64;
        Entry((o / 4) as u64 | ((o % 4) as u64) << 16 | colours << 24)
    }

    /// The byte of a planned entry (within its frame's `placed`) that holds side s's
    /// colour, from the frame's start.
    fn colour_byte(s: usize) -> usize {
        std::mem::offset_of!(Frame, placed) + 3 + s
    }

    /// The padding entry of a puzzle with `orientations` oriented pieces: the
    /// never-free piece (`orientations / 4`, `used` 1 for it), showing no colour. It
    /// fills lists to whole chunks and `firsts` of empty lists, and is never kept.
    fn padding(orientations: usize) -> Entry {
        Entry((orientations / 4) as u64 | (orientations as u64) << 16)
    }

    /// The largest `next`: 7 bits, bit 63 flags it.
    const MAX_NEXT: usize = 127;

    fn with_next(self, i: usize) -> Entry {
        debug_assert!(i <= Self::MAX_NEXT);
        Entry(self.0 & !(0xFF << 56) | (0x80 | i as u64) << 56)
    }

    /// True when a further orientation of the piece follows in the same list: at
    /// virtual row [`Entry::next`] (mask mode).
    #[inline(always)]
    fn chained(self) -> bool {
        (self.0 as i64) < 0
    }

    #[inline(always)]
    fn piece(self) -> usize {
        (self.0 & 0xFFFF) as usize
    }

    /// The oriented piece: the piece and the rotation (the low bits of the `o` field
    /// along lines, the rotation field of a planned entry).
    #[inline(always)]
    fn o(self) -> u32 {
        4 * self.piece() as u32 + (self.0 >> 16 & 3) as u32
    }

    #[inline(always)]
    fn far_key(self) -> usize {
        (self.0 >> 32 & 0xFFFF) as usize
    }

    #[inline(always)]
    fn near(self) -> usize {
        (self.0 >> 48 & 0xFF) as usize
    }

    #[inline(always)]
    fn next(self) -> usize {
        (self.0 >> 56 & 0x7F) as usize
    }
}

/// One depth of the loop: its cell's static part (copied from [`CellAt`]) and its
/// search state, in one record so that the loop keeps one pointer for both. One
/// cache line each, which also makes a depth's address one shift.
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(64))]
struct Frame {
    /// The untried rest of the candidate list: `stack[next..end]`.
    next: u32,
    end: u32,
    /// The entry placed at this depth.
    placed: Entry,
    /// Nodes counted at this depth.
    nodes: u64,
    /// Mask mode's state (invariant 3 there): the pieces with an untried
    /// orientation, and the row of `first` they are read from.
    cand: u64,
    row: u32,
    /// [`CellAt`]'s fields, `far` as the byte offset of its frame in `frames` (the
    /// loop adds it to the base as it is); depths fit in 16 bits (`fits_state`).
    class: u32,
    far: u32,
    /// A planned order's key parts ([`key_planned`]): byte offsets into `frames`
    /// (of the colour a key neighbour shows toward this cell, or of the ZERO slot) and
    /// their translation tables in [`RowScan::tabs`].
    offs: [u16; 4],
    tabs: [u16; 4],
    /// How many of the parts are used (the key sides: 0 to 4).
    parts: u8,
}

// One cache line: `frame_at` and the 16-bit part offsets count on it.
const _: () = assert!(size_of::<Frame>() == 64);

impl Frame {
    fn at(c: &CellAt) -> Frame {
        Frame {
            class: c.class,
            far: c.far * size_of::<Frame>() as u32,
            offs: c.offs,
            tabs: c.tabs,
            parts: c.parts,
            ..Frame::default()
        }
    }
}

/// What the loop needs of the cell at one depth.
#[derive(Debug, Clone, Copy)]
struct CellAt {
    /// Start of its class's key table in `heads`.
    class: u32,
    /// Depth of the neighbour on the axis's `far` side (up along rows), or
    /// `order.len()` (the ZERO slot) if static. The `prev` one is never needed: see
    /// [`key_at`].
    far: u32,
    /// What the cell asks of each side (for entries built outside the tables).
    needs: [Need; 4],
    /// A planned order's key parts, as [`Frame`] holds them.
    offs: [u16; 4],
    tabs: [u16; 4],
    parts: u8,
}

/// Lists are padded to whole chunks of this many entries (see `open`).
const CHUNK: usize = 2;

/// Dense numbers for the colours of one puzzle, the tables' own: the rim 0 stays 0,
/// and the other colours that occur become 1, 2, ... in ascending order. The tables
/// are keyed by (up colour, left colour), `radix * radix` keys per class, so keying
/// them by the colours as numbered in the file would size them by the largest number
/// (a 6x6 with colours 201-208: 209 * 209 keys per class, and mask mode's 64 entries
/// per key, 400 MB) instead of by how many colours there are (9 * 9).
#[derive(Clone)]
struct DenseColours {
    /// `of[c]`: the dense number of colour c (0 for a colour that does not occur).
    of: [u8; 256],
    /// The number of dense colours, the rim included: the key radix.
    count: usize,
}

impl DenseColours {
    /// The numbering of the colours shown by `edges` (and the rim).
    fn new(edges: &[[u8; 4]]) -> DenseColours {
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
    fn count(&self) -> usize {
        self.count
    }

    /// The dense number of colour `c`.
    fn get(&self, c: u8) -> u8 {
        self.of[c as usize]
    }

    /// `e` with its colours renumbered.
    fn edges(&self, e: &[u8; 4]) -> [u8; 4] {
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

/// Unchecked read: the loop's bounds invariants keep `i` in range (checked in debug).
#[inline(always)]
fn get<T: Copy>(v: &[T], i: usize) -> T {
    debug_assert!(i < v.len());
    // SAFETY: see the bounds comment in `RowScan::search`.
    unsafe { *v.get_unchecked(i) }
}

#[inline(always)]
fn get_mut<T>(v: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < v.len());
    // SAFETY: see the bounds comment in `RowScan::search`.
    unsafe { v.get_unchecked_mut(i) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_colours_number_the_colours_that_occur_in_order() {
        let edges = [[0, 0, 201, 255], [201, 7, 255, 0], [7, 7, 7, 7]];
        let d = DenseColours::new(&edges);
        assert_eq!(d.count(), 4);
        assert_eq!(
            [0, 7, 201, 255].map(|c| d.get(c)),
            [0, 1, 2, 3],
            "the rim keeps 0, the others ascend"
        );
        assert_eq!(d.edges(&[201, 7, 255, 0]), [2, 1, 3, 0]);
        assert_eq!(format!("{d:?}"), "{0: 0, 7: 1, 201: 2, 255: 3}");
        // Already dense colours keep their numbers: the tables of such puzzles are
        // the same as before.
        let plain = DenseColours::new(&[[0, 1, 2, 3], [4, 0, 0, 5]]);
        assert_eq!(plain.count(), 6);
        assert!((0..6).all(|c| plain.get(c) == c));
        // No rim anywhere: 0 is still reserved for it (static key parts are 0).
        let rimless = DenseColours::new(&[[5, 5, 9, 9]]);
        assert_eq!((rimless.count(), rimless.get(5), rimless.get(9)), (3, 1, 2));
    }

    #[test]
    fn renumbered_colours_build_the_same_tables() {
        use crate::puzzle::formats::EdgeOrder;
        use crate::puzzle::Puzzle;
        let text = "3 3\n0 0 1 2\n0 0 2 1\n0 0 1 1\n0 0 2 2\n0 1 1 2\n0 2 2 1\n0 1 2 2\n0 2 1 1\n1 2 1 2\n";
        let p: Puzzle =
            crate::puzzle::formats::parse_text(text, "3x3", EdgeOrder::Urdl).expect("a 3x3");
        let mut q = p.clone();
        for piece in &mut q.pieces {
            for c in piece.iter_mut().filter(|c| **c != RIM) {
                *c += 250;
            }
        }
        for columns in [false, true] {
            let (a, b) = (
                RowScan::new(&State::new(&p), columns),
                RowScan::new(&State::new(&q), columns),
            );
            assert_eq!((a.radix, b.radix), (3, 3));
            assert_eq!(a.heads, b.heads);
            let bits = |rs: &RowScan| rs.entries.iter().map(|e| e.0).collect::<Vec<_>>();
            assert_eq!(bits(&a), bits(&b));
            let bits = |rs: &RowScan| rs.masks.as_ref().map(|m| m.bits.clone());
            assert_eq!(bits(&a), bits(&b));
        }
    }
}
