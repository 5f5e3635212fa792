//! `scan`: fill the cells row-major from the top-left; no lookahead.

use super::{Pick, Select};
use crate::search::state::State;

pub struct Scan {
    /// The non-hint cells in row-major order.
    order: Vec<u32>,
}

impl Scan {
    pub fn new(st: &State) -> Scan {
        Scan {
            order: (0..st.cells() as u32)
                .filter(|&c| st.is_empty(c as usize))
                .collect(),
        }
    }
}

impl Select for Scan {
    #[inline]
    fn pick(&mut self, st: &mut State) -> Pick {
        // When scan made every placement, the cell at depth d is order[d]; a board
        // filled some other way (a job prefix, `explain --moves`) falls back to the
        // first empty cell in order.
        let d = st.depth();
        let c = self.order[d] as usize;
        if st.is_empty(c) {
            return Pick::Site(c);
        }
        let c = self.order.iter().find(|&&c| st.is_empty(c as usize));
        Pick::Site(*c.expect("pick is only called with an empty cell") as usize)
    }
}
