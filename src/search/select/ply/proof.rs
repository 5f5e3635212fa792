//! The cheap proofs of ply 2 that a site cannot beat b*
//! ([`Ply::cannot_beat`](super::Ply::cannot_beat)): enough placements that leave
//! every empty neighbour a placement, tested hints first, and what one pick learnt
//! per shape of untouched site ([`Shapes`]); and the narrowing by tight neighbours
//! that walks share ([`narrow_by_tight_neighbours`]).

use crate::search::state::{pop_lowest, popcount, State};

/// True when at least `need` placements at empty `s` leave each empty neighbour of
/// `s` a placement (`cands` and `keep`, `words` long, and `room`, 4 times that, are
/// scratch). N as in [`State::place_w`].
///
/// The answer does not depend on the order in which placements are tested, so the
/// ones found alive at `s` last time (`hints`, any state) go first: most placements
/// starve a neighbour, and last time's survivors mostly survive again.
#[inline(always)]
pub(super) fn alive_at_least<const N: usize>(
    st: &State,
    s: usize,
    need: u32,
    hints: &mut [u32; HINTS],
    cands: &mut [u64],
    keep: &mut [u64],
    room: &mut [u64],
) -> bool {
    st.candidates_into_w::<N>(s, cands);
    let sides = st.neighbour_room_w::<N>(s, room);
    let mut found = [NO_HINT; HINTS];
    let mut alive = 0;
    // True once `need` placements are found alive.
    let mut enough = |o: u32, alive: &mut u32| {
        if st.kills_in_room_w::<N>(o, sides, room) {
            return false;
        }
        if (*alive as usize) < HINTS {
            found[*alive as usize] = o;
        }
        *alive += 1;
        *alive >= need
    };
    let proven = 'proof: {
        for &o in hints.iter().take_while(|&&o| o != NO_HINT) {
            let (w, bit) = (o as usize / 64, 1u64 << (o % 64));
            if cands[w] & bit != 0 {
                cands[w] &= !bit;
                if enough(o, &mut alive) {
                    break 'proof true;
                }
            }
        }
        // The hints were not enough: a tight neighbour's colours rule out most of
        // the other placements at once.
        keep_tight_matches::<N>(st, sides, room, cands, keep, TIGHT);
        while let Some(o) = pop_lowest(cands) {
            if enough(o, &mut alive) {
                break 'proof true;
            }
        }
        false
    };
    *hints = found;
    proven
}

/// Narrows `cands` (placements at a cell whose empty neighbours are `sides`, with
/// placements `room`, from [`State::neighbour_room_w`]) by every neighbour with at
/// most [`TIGHT`] placements ([`State::keep_matching_w`]): the dropped ones starve it.
#[inline(always)]
fn keep_tight_matches<const N: usize>(
    st: &State,
    sides: u8,
    room: &[u64],
    cands: &mut [u64],
    keep: &mut [u64],
    tight: u32,
) {
    let words = cands.len();
    let mut rest = sides;
    while rest != 0 {
        let side = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let r = &room[side * words..][..words];
        if popcount(r) <= tight {
            st.keep_matching_w::<N>(side, r, cands, keep);
        }
    }
}

/// [`keep_tight_matches`] at empty cell `c` (`room` is scratch).
#[inline(always)]
pub(super) fn narrow_by_tight_neighbours<const N: usize>(
    st: &State,
    c: usize,
    cands: &mut [u64],
    keep: &mut [u64],
    room: &mut [u64],
) {
    let sides = st.neighbour_room_w::<N>(c, room);
    keep_tight_matches::<N>(st, sides, room, cands, keep, TIGHT_WALK);
}

/// A neighbour with at most this many placements narrows the placements a proof
/// tests after its hints ([`State::keep_matching_w`]).
const TIGHT: u32 = 6;
/// The same for the placements a walk labels
/// ([`Ply::drop_dead`](super::Ply::drop_dead)): a walk goes through all of them, so a
/// looser filter pays there (D, instructions per node, at 6, 10, 20: ply:2 4,279,
/// 4,211, 4,229; ply:3 29,024, 26,961, 27,408).
const TIGHT_WALK: u32 = 10;
/// Alive placements remembered per cell ([`alive_at_least`]).
pub(super) const HINTS: usize = 4;
/// An empty hint slot.
pub(super) const NO_HINT: u32 = u32::MAX;

/// What [`Ply::cannot_beat`](super::Ply::cannot_beat) found in one pick for the sites
/// of a few [`State::untouched_shape`]s: per shape, the largest `need` met (at least
/// that many placements survive) and the smallest not met, so a later site of the
/// shape is answered without a proof when its `need` is at most the one or at least
/// the other.
///
/// Public (hidden) for the test suite.
#[derive(Default)]
pub struct Shapes {
    /// (shape, largest need met or 0, smallest need not met or u32::MAX)
    known: [(u64, u32, u32); SHAPES],
    len: usize,
}

/// Shapes kept per pick: most sites far from the placed cells are of a handful.
pub const SHAPES: usize = 8;

impl Shapes {
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The answer for `need` at a site of `shape`, when it follows from what is known.
    #[inline]
    pub fn known(&self, shape: u64, need: u32) -> Option<bool> {
        let &(_, met, unmet) = self.known[..self.len].iter().find(|k| k.0 == shape)?;
        if need <= met {
            Some(true)
        } else if need >= unmet {
            Some(false)
        } else {
            None
        }
    }

    /// Records that `need` is met (`alive`) or not at a site of `shape`.
    pub fn learn(&mut self, shape: u64, need: u32, alive: bool) {
        let i = match self.known[..self.len].iter().position(|k| k.0 == shape) {
            Some(i) => i,
            None if self.len < SHAPES => {
                self.known[self.len] = (shape, 0, u32::MAX);
                self.len += 1;
                self.len - 1
            }
            None => return,
        };
        let k = &mut self.known[i];
        if alive {
            k.1 = k.1.max(need);
        } else {
            k.2 = k.2.min(need);
        }
    }
}
