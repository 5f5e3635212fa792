//! `mrv`: the empty cell with the fewest legal placements (minimum remaining values);
//! ties go to the lowest cell index. A cell with none ends the branch.

use super::{Pick, Select};
use crate::search::state::State;

pub struct Mrv;

impl Select for Mrv {
    /// The state keeps the minimum up to date (`State::fewest`), so this is O(1).
    #[inline]
    fn pick(&mut self, st: &mut State) -> Pick {
        match st.fewest() {
            Some((0, _)) | None => Pick::Dead,
            Some((_, c)) => Pick::Site(c),
        }
    }
}
