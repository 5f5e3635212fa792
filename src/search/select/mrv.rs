//! `mrv`: the empty cell with the fewest legal placements (minimum remaining values);
//! ties go to the lowest cell index. A cell with none ends the branch.

use super::{Pick, Select};
use crate::search::state::State;

pub struct Mrv;

impl Select for Mrv {
    #[inline]
    fn pick(&mut self, st: &mut State) -> Pick {
        let mut best = (u32::MAX, u32::MAX);
        for &c in st.open_cells() {
            let n = st.count(c as usize);
            if n == 0 {
                return Pick::Dead;
            }
            if (n, c) < best {
                best = (n, c);
            }
        }
        Pick::Site(best.1 as usize)
    }
}
