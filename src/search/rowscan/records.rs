//! The packed records that the tables hold and the loop reads: [`Entry`] (one
//! candidate in one `u64`), [`CellAt`] (what a depth's cell asks, built with the
//! tables) and [`Frame`] (one depth of the loop, one cache line), with what they are
//! built from ([`Need`], [`Axis`]) and the loop's unchecked reads. Their layouts are
//! what the key arithmetic of the loop counts on ([`super::walk`]).

use crate::puzzle::{LEFT, UP};

/// What one side of a cell asks of a piece, apart from the search's up/left colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Need {
    Rim,
    /// Any non-rim colour (an empty neighbour).
    Inner,
    /// This colour (a hint's edge).
    Colour(u8),
    /// The colour a search-placed neighbour shows: part of the key.
    Key,
}

/// the board is wider than tall, [`crate::puzzle::scans_columns`]). Either way a
/// cell's up and left neighbours come before it, and the previous cell of its line is
/// the one on the `prev` side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Axis {
    /// LEFT along rows, UP along columns: this neighbour is the previous depth's
    /// whenever it is a search cell.
    pub(super) prev: usize,
    /// The other side whose colour is part of the key: UP along rows, LEFT along
    /// columns (its depth is kept per cell, [`CellAt::far`]).
    pub(super) far: usize,
}

impl Axis {
    pub(super) const ROWS: Axis = Axis {
        prev: LEFT,
        far: UP,
    };
    pub(super) const COLUMNS: Axis = Axis {
        prev: UP,
        far: LEFT,
    };

    /// Columns when `columns`, else rows.
    pub(super) fn of(columns: bool) -> Axis {
        if columns {
            Axis::COLUMNS
        } else {
            Axis::ROWS
        }
    }

    /// The cells of a `width` x `height` board in fill order.
    pub(super) fn cells(self, width: usize, height: usize) -> impl Iterator<Item = usize> {
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

/// One candidate: an oriented piece and what placing it means to the loop, packed in
/// one `u64` so that it is copied with one move: bits 0..16 the piece, 16..32 the
/// oriented piece `4 * piece + rotation`, 32..48 the (dense) colour it shows below
/// times the key radix (the up part of the key below it), 48..56 the (dense) colour it
/// shows to the right (the left part of the key to its right), 56..63 mask mode's `next` and bit 63
/// set when it names one ([`Entry::chained`], see [`Masks`](super::tables::Masks); 0 elsewhere).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Entry(pub(super) u64);

impl Entry {
    /// The entry of oriented piece `o` (edges `e`, in dense colours: [`DenseColours`](super::tables::DenseColours))
    /// in a cell that asks `needs`. It shows
    /// its down / right colour only where the neighbour there is a search cell: a
    /// static side shows 0, which is what key parts of static sides are (invariant 2).
    pub(super) fn new(axis: Axis, o: usize, e: &[u8; 4], radix: usize, needs: &[Need; 4]) -> Entry {
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
    pub(super) fn planned(o: usize, e: &[u8; 4]) -> Entry {
        let colours = u32::from_le_bytes(*e) as u64;
        Entry((o / 4) as u64 | ((o % 4) as u64) << 16 | colours << 24)
    }

    /// The byte of a planned entry (within its frame's `placed`) that holds side s's
    /// colour, from the frame's start.
    pub(super) fn colour_byte(s: usize) -> usize {
        std::mem::offset_of!(Frame, placed) + 3 + s
    }

    /// The padding entry of a puzzle with `orientations` oriented pieces: the
    /// never-free piece (`orientations / 4`, `used` 1 for it), showing no colour. It
    /// fills lists to whole chunks and `firsts` of empty lists, and is never kept.
    pub(super) fn padding(orientations: usize) -> Entry {
        Entry((orientations / 4) as u64 | (orientations as u64) << 16)
    }

    /// The largest `next`: 7 bits, bit 63 flags it.
    pub(super) const MAX_NEXT: usize = 127;

    pub(super) fn with_next(self, i: usize) -> Entry {
        debug_assert!(i <= Self::MAX_NEXT);
        Entry(self.0 & !(0xFF << 56) | (0x80 | i as u64) << 56)
    }

    /// True when a further orientation of the piece follows in the same list: at
    /// virtual row [`Entry::next`] (mask mode).
    #[inline(always)]
    pub(super) fn chained(self) -> bool {
        (self.0 as i64) < 0
    }

    #[inline(always)]
    pub(super) fn piece(self) -> usize {
        (self.0 & 0xFFFF) as usize
    }

    /// The oriented piece: the piece and the rotation (the low bits of the `o` field
    /// along lines, the rotation field of a planned entry).
    #[inline(always)]
    pub(super) fn o(self) -> u32 {
        4 * self.piece() as u32 + (self.0 >> 16 & 3) as u32
    }

    #[inline(always)]
    pub(super) fn far_key(self) -> usize {
        (self.0 >> 32 & 0xFFFF) as usize
    }

    #[inline(always)]
    pub(super) fn near(self) -> usize {
        (self.0 >> 48 & 0xFF) as usize
    }

    #[inline(always)]
    pub(super) fn next(self) -> usize {
        (self.0 >> 56 & 0x7F) as usize
    }
}

/// One depth of the loop: its cell's static part (copied from [`CellAt`]) and its
/// search state, in one record so that the loop keeps one pointer for both. One
/// cache line each, which also makes a depth's address one shift.
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(64))]
pub(super) struct Frame {
    /// The untried rest of the candidate list: `stack[next..end]`.
    pub(super) next: u32,
    pub(super) end: u32,
    /// The entry placed at this depth.
    pub(super) placed: Entry,
    /// Nodes counted at this depth.
    pub(super) nodes: u64,
    /// Mask mode's state (invariant 3 there): the pieces with an untried
    /// orientation, and the row of `first` they are read from.
    pub(super) cand: u64,
    pub(super) row: u32,
    /// [`CellAt`]'s fields, `far` as the byte offset of its frame in `frames` (the
    /// loop adds it to the base as it is); depths fit in 16 bits (`fits_state`).
    pub(super) class: u32,
    pub(super) far: u32,
    /// A planned order's key parts ([`key_planned`](super::walk::key_planned)): byte offsets into `frames`
    /// (of the colour a key neighbour shows toward this cell, or of the ZERO slot) and
    /// their translation tables in [`RowScan::tabs`](super::tables::RowScan::tabs).
    pub(super) offs: [u16; 4],
    pub(super) tabs: [u16; 4],
    /// How many of the parts are used (the key sides: 0 to 4).
    pub(super) parts: u8,
}

// One cache line: `frame_at` and the 16-bit part offsets count on it.
const _: () = assert!(size_of::<Frame>() == 64);

impl Frame {
    pub(super) fn at(c: &CellAt) -> Frame {
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
pub(super) struct CellAt {
    /// Start of its class's key table in `heads`.
    pub(super) class: u32,
    /// Depth of the neighbour on the axis's `far` side (up along rows), or
    /// `order.len()` (the ZERO slot) if static. The `prev` one is never needed: see
    /// [`key_at`](super::walk::key_at).
    pub(super) far: u32,
    /// What the cell asks of each side (for entries built outside the tables).
    pub(super) needs: [Need; 4],
    /// A planned order's key parts, as [`Frame`] holds them.
    pub(super) offs: [u16; 4],
    pub(super) tabs: [u16; 4],
    pub(super) parts: u8,
}

/// Unchecked read: the loop's bounds invariants keep `i` in range (checked in debug).
#[inline(always)]
pub(super) fn get<T: Copy>(v: &[T], i: usize) -> T {
    debug_assert!(i < v.len());
    // SAFETY: the bounds invariant of the loop (invariant 4, rowscan/walk.rs).
    unsafe { *v.get_unchecked(i) }
}

#[inline(always)]
pub(super) fn get_mut<T>(v: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < v.len());
    // SAFETY: the bounds invariant of the loop (invariant 4, rowscan/walk.rs).
    unsafe { v.get_unchecked_mut(i) }
}
