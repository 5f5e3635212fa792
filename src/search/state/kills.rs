//! Kill tests: would a placement leave an empty neighbour without a legal placement?
//! For heuristics that make such a child a leaf without entering it.

use super::bits::{get, slot, words_at, words_at_mut};
use super::{nibble, State, EMPTY, NONE};

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

impl State {
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
}
