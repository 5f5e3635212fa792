//! `scan`: fill the cells line by line from the top-left, along rows, or along
//! columns when the board is wider than tall (a much smaller tree); no lookahead.
//! `scan:rows` and `scan:columns` fix the lines whatever the shape.
//! Searches run on its own driver ([`RowScan`]); `pick` serves the generic driver's
//! other users (frontier, probes, `explain`) and boards not filled in scan order.

use super::{Pick, Select};
use crate::puzzle::{scans_columns, Puzzle};
use crate::search::dfs::{Limits, Share, Stats};
use crate::search::rowscan::RowScan;
use crate::search::state::State;
use std::sync::atomic::AtomicBool;

pub struct Scan {
    tables: RowScan,
}

impl Scan {
    pub fn new(st: &State) -> Scan {
        Scan::along(st, scans_columns(st.width, st.height))
    }

    /// `scan` along columns (`columns`) or rows, whatever the board's shape.
    pub fn along(st: &State, columns: bool) -> Scan {
        Scan {
            tables: RowScan::new(st, columns),
        }
    }

    /// `scan` (along columns if `columns`) on the list driver even where its mask
    /// mode applies (at most 64 pieces): for tests of the list driver on small boards.
    pub fn listed(st: &State, columns: bool) -> Scan {
        Scan {
            tables: RowScan::new(st, columns).without_masks(),
        }
    }

    /// True when searches run in mask mode (see [`RowScan`]).
    pub fn masked(&self) -> bool {
        self.tables.masked()
    }
}

impl Select for Scan {
    #[inline]
    fn pick(&mut self, st: &mut State) -> Pick {
        // When scan made every placement, the cell at depth d is order[d]; a board
        // filled some other way (a job prefix, `explain --moves`) falls back to the
        // first empty cell in order.
        let order = self.tables.order();
        let c = order[st.depth()] as usize;
        if st.is_empty(c) {
            return Pick::Site(c);
        }
        let c = order.iter().find(|&&c| st.is_empty(c as usize));
        Pick::Site(*c.expect("pick is only called with an empty cell") as usize)
    }

    fn drive<W: Share>(
        &mut self,
        st: &mut State,
        puzzle: &Puzzle,
        limits: &Limits,
        stop: &AtomicBool,
        share: &mut W,
    ) -> Option<Stats> {
        self.tables.search(st, puzzle, limits, stop, share)
    }
}
