//! `mrv`: the empty cell with the fewest legal placements (minimum remaining values);
//! ties go to the lowest cell index. A cell with none ends the branch.

use super::pick::{Named, Pick, Select};
use super::tables::ScanTables;
use crate::search::state::State;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mrv;

impl Named for Mrv {
    const SYNTAXES: &'static [(&'static str, &'static str)] = &[(
        "mrv",
        "the empty cell with the fewest legal placements; ties: lowest cell index",
    )];
    type Selector = Mrv;

    fn parse(s: &str) -> Option<Result<Mrv, String>> {
        (s == "mrv").then_some(Ok(Mrv))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("mrv")
    }

    fn selector(self, _: &State, _: &ScanTables) -> Mrv {
        Mrv
    }

    fn instructions_per_node(&self) -> f64 {
        574.0
    }
}

impl Mrv {
    /// The mrv site among `cells` (any order: ties go to the lowest index anyway).
    #[inline]
    pub fn among(st: &State, cells: &[u32]) -> Pick {
        let mut best = (u32::MAX, u32::MAX);
        for &c in cells {
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

impl Select for Mrv {
    const DEAD_ON_ZERO: bool = true;

    /// The state keeps the minimum up to date (`State::fewest`), so this is O(1).
    #[inline]
    fn pick(&mut self, st: &mut State) -> Pick {
        match st.fewest() {
            Some((0, _)) | None => Pick::Dead,
            Some((_, c)) => Pick::Site(c),
        }
    }

    #[inline]
    fn pick_in(&mut self, st: &mut State, cells: &[u32]) -> Pick {
        Mrv::among(st, cells)
    }
}
