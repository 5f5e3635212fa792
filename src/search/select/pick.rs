//! What every heuristic implements: [`Select`] (what it decides at a node, [`Pick`];
//! the drivers call it) and [`Named`] (its `--select` value: the list of heuristics
//! holds it).

use super::tables::ScanTables;
use crate::search::state::State;
use std::fmt;

/// What a heuristic decides at a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// Branch on this empty cell, over all its legal placements.
    Site(usize),
    /// Some cell has no legal placement (or the lookahead proves it): no children.
    Dead,
}

/// A site-selection heuristic. `pick` is called only at nodes with an empty cell.
/// It may place and unplace pieces to look ahead, but must leave `st` as it found it.
pub trait Select {
    fn pick(&mut self, st: &mut State) -> Pick;

    /// `pick` restricted to `cells`: some empty cells in increasing index order, a
    /// union of whole regions of the empty cells ([`Factor`]). Only these cells are
    /// examined, so a dead cell elsewhere is the caller's to find. A heuristic with a
    /// static order (`scan`) keeps it and ignores the restriction: any empty site
    /// gives the same solutions, only the tree's shape depends on the choice.
    fn pick_in(&mut self, st: &mut State, cells: &[u32]) -> Pick {
        let _ = cells;
        self.pick(st)
    }

    /// True when `pick` returns `Dead` at every node where some empty cell has no
    /// legal placement (`mrv`, `ply:N`; not `scan`, whose next cell may be another).
    /// The driver then counts a child that leaves a neighbour of its site without a
    /// placement as a leaf without entering it ([`State::kills_neighbour_w`]): the
    /// same nodes, counted, at a fraction of the cost.
    const DEAD_ON_ZERO: bool = false;

    /// Nodes between two polls of the stop flag, the clock and work sharing in the
    /// generic driver. A selector that costs far more per node polls more often, so
    /// that `--timeout`, Ctrl-C and idle threads get an answer within milliseconds.
    fn check_every(&self) -> u32 {
        crate::search::limits::CHECK_EVERY
    }

    /// True when the search should try the placements at a site in the order
    /// [`Select::order_moves`] gives (the default: lowest oriented piece first).
    /// A constant, so the default search loop has no extra work per node.
    const ORDERS_MOVES: bool = false;

    /// Writes the placements of the bitset `cands` at `site` into `out` in the order
    /// to try them; returns how many. Called only when `ORDERS_MOVES`.
    fn order_moves(
        &mut self,
        st: &mut State,
        site: usize,
        cands: &[u64],
        out: &mut [u32],
    ) -> usize {
        let _ = (st, site, cands, out);
        0
    }
}

/// A heuristic's value as `--select` names it, from its own file, which is what the
/// list of heuristics ([`heuristic_list!`](crate::heuristic_list)) holds: its
/// syntaxes, how its values parse and print, and the selector a search runs.
pub trait Named: Sized {
    /// Its `--select` syntaxes with their one-line help, in `--help`'s order.
    const SYNTAXES: &'static [(&'static str, &'static str)];
    /// The selector a search with this value runs (`'static`: the engine picks a
    /// driver by its type, [`crate::search::engine`]).
    type Selector: Select + 'static;
    /// The value `s` names: None when `s` is of none of this entry's syntaxes, an
    /// error (one line) when it is but is out of range.
    fn parse(s: &str) -> Option<Result<Self, String>>;
    /// Its `--select` text, which [`Named::parse`] reads back.
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// The selector for a search from `st`; `tables` are scan's tables for the
    /// search ([`ScanTables::for_search`]), which the static orders share.
    fn selector(self, st: &State, tables: &ScanTables) -> Self::Selector;
    /// Instructions per node as measured (callgrind, x86-64-v3 build, Puzzle D and
    /// E2 with the starter; BENCHMARKS.md): `--select auto`'s cost per node when it
    /// does not time the candidates ([`crate::search::auto::fixed_cost`]).
    fn instructions_per_node(&self) -> f64;
}
