//! Site selection: which empty cell to branch on at a node. One trait, one file per
//! heuristic, and one registry ([`HEURISTICS`]) that drives `--select` and its help.

mod factor;
mod mrv;
mod order;
mod ply;
mod scan;

pub use factor::Factor;
pub use mrv::Mrv;
pub use order::{log_options, move_penalty, Order, Ordered};
pub use ply::{Ply, Unscored, MAX_PLY};
pub use scan::{Scan, ScanTables};

use super::limits::{Limits, Share, Stats};
use super::state::State;
use crate::puzzle::Puzzle;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

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

    /// A heuristic with a driver of its own (`scan`: [`crate::search::rowscan`]) runs
    /// the whole search below `st`'s node here; None means "use the generic driver".
    /// It must count, order, stop and share exactly as the generic driver would.
    fn drive<W: Share>(
        &mut self,
        _st: &mut State,
        _puzzle: &Puzzle,
        _limits: &Limits,
        _stop: &AtomicBool,
        _share: &mut W,
    ) -> Option<Stats> {
        None
    }

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

/// A heuristic by name, as given to `--select`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heuristic {
    /// Line by line from the top-left along the shorter side (rows; columns when the
    /// board is wider than tall), no lookahead: the textbook backtracker.
    Scan,
    /// `scan` along rows (`scan:rows`) or columns (`scan:columns`) whatever the
    /// board's shape: to compare fill orders, or to follow a row-major solver.
    ScanAlong { columns: bool },
    /// The empty cell with the fewest legal placements (ties: lowest cell index).
    Mrv,
    /// The smallest N-ply average local branching factor; `adj` = follow-ups at every
    /// adjacent empty cell rather than at the one with the fewest placements.
    Ply { n: u8, adj: bool },
    /// `ply:N` with the hard min of the labels replaced by Rivest's generalized mean
    /// M_p (seed 004); `p_milli` = p x 1000 (p < 0).
    PMean { n: u8, p_milli: i32 },
}

/// Every `--select` value with its one-line description.
pub const HEURISTICS: &[(&str, &str)] = &[
    ("scan", "rows from the top-left (columns when wider than tall), no lookahead (the textbook backtracker)"),
    ("scan:rows", "as scan, always along rows"),
    ("scan:columns", "as scan, always along columns"),
    ("mrv", "the empty cell with the fewest legal placements; ties: lowest cell index"),
    ("ply:N", "smallest N-ply average local branching factor (N = 1..=4), follow-ups at the adjacent cell with the fewest placements"),
    ("ply:N:adj", "as ply:N, follow-ups at every empty cell adjacent to the local placements"),
    ("pmean:N:p", "as ply:N with the labels' min replaced by the generalized mean M_p, p < 0 (Rivest)"),
];

impl FromStr for Heuristic {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "scan" => Ok(Heuristic::Scan),
            "scan:rows" => Ok(Heuristic::ScanAlong { columns: false }),
            "scan:columns" => Ok(Heuristic::ScanAlong { columns: true }),
            "mrv" => Ok(Heuristic::Mrv),
            _ if s.starts_with("ply:") => {
                let mut parts = s[4..].split(':');
                let n = parts.next().and_then(|n| n.parse::<u8>().ok());
                let rule = parts.next();
                match (n, rule, parts.next()) {
                    (Some(n), None | Some("one") | Some("adj"), None)
                        if (1..=MAX_PLY as u8).contains(&n) =>
                    {
                        Ok(Heuristic::Ply {
                            n,
                            adj: rule == Some("adj"),
                        })
                    }
                    _ => Err(format!(
                        "bad heuristic '{s}': expected ply:N or ply:N:adj with N in 1..={MAX_PLY}"
                    )),
                }
            }
            _ if s.starts_with("pmean:") => {
                let parts: Vec<&str> = s[6..].split(':').collect();
                let n = parts.first().and_then(|n| n.parse::<u8>().ok());
                let p = parts.get(1).and_then(|p| p.parse::<f64>().ok());
                // p is kept in thousandths: it must stay below 0 once rounded to them.
                let p_milli = p.map(|p| (p * 1000.0).round());
                match (n, p_milli, parts.len()) {
                    (Some(n), Some(p_milli), 2) if (1..=MAX_PLY as u8).contains(&n) && (-1e6..=-1.0).contains(&p_milli) => {
                        Ok(Heuristic::PMean { n, p_milli: p_milli as i32 })
                    }
                    _ => Err(format!("bad heuristic '{s}': expected pmean:N:p with N in 1..={MAX_PLY} and p in -1000..=-0.001 (e.g. pmean:2:-4)")),
                }
            }
            _ => Err(format!(
                "unknown heuristic '{s}'; expected one of: {}",
                HEURISTICS
                    .iter()
                    .map(|h| h.0)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Heuristic::Scan => f.write_str("scan"),
            Heuristic::ScanAlong { columns: false } => f.write_str("scan:rows"),
            Heuristic::ScanAlong { columns: true } => f.write_str("scan:columns"),
            Heuristic::Mrv => f.write_str("mrv"),
            Heuristic::Ply { n, adj: false } => write!(f, "ply:{n}"),
            Heuristic::Ply { n, adj: true } => write!(f, "ply:{n}:adj"),
            Heuristic::PMean { n, p_milli } => write!(f, "pmean:{n}:{}", *p_milli as f64 / 1000.0),
        }
    }
}

impl Heuristic {
    /// For the `scan` heuristics, whether they fill a `width` x `height` board column
    /// by column; None for the others.
    pub fn scan_columns(self, width: usize, height: usize) -> Option<bool> {
        match self {
            Heuristic::Scan => Some(crate::puzzle::scans_columns(width, height)),
            Heuristic::ScanAlong { columns } => Some(columns),
            _ => None,
        }
    }

    /// Whether this is one of the `scan` heuristics (a static fill order).
    pub fn is_scan(self) -> bool {
        matches!(self, Heuristic::Scan | Heuristic::ScanAlong { .. })
    }

    /// The lines that order a search with this heuristic where an order is needed
    /// (the static models, the `--symmetry` anchor): its own for the `scan`
    /// heuristics, scan's default for the others.
    pub fn lines_columns(self, width: usize, height: usize) -> bool {
        self.scan_columns(width, height)
            .unwrap_or_else(|| crate::puzzle::scans_columns(width, height))
    }
}

impl serde::Serialize for Heuristic {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for Heuristic {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A heuristic with the options wrapped around it: `--select`, `--factor`,
/// `--move-order`. Converts from a bare [`Heuristic`] (no factoring, natural order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strategy {
    pub select: Heuristic,
    /// Search the regions of the empty cells one at a time ([`Factor`]).
    pub factor: bool,
    /// Order of the placements at each site ([`Ordered`]).
    pub moves: Order,
}

impl From<Heuristic> for Strategy {
    fn from(select: Heuristic) -> Strategy {
        Strategy {
            select,
            factor: false,
            moves: Order::Natural,
        }
    }
}

/// `on` / `off`, as `--factor` spells it.
pub fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// `with_selector!` for a [`Strategy`]: the heuristic wrapped in [`Factor`] and/or
/// [`Ordered`] as it says, each combination monomorphized.
#[macro_export]
macro_rules! with_strategy {
    ($s:expr, $st:expr, |$sel:ident| $body:expr) => {
        $crate::with_strategy!($s, $st, tables: &$crate::search::select::ScanTables::none(), |$sel| $body)
    };
    // With `scan`'s tables shared, as `with_selector!` takes them.
    ($s:expr, $st:expr, tables: $tables:expr, |$sel:ident| $body:expr) => {{
        let strategy: $crate::search::select::Strategy = $s;
        $crate::with_selector!(strategy.select, $st, tables: $tables, |plain| {
            use $crate::search::select::{Factor, Order, Ordered};
            match (strategy.factor, strategy.moves) {
                (false, Order::Natural) => {
                    let mut $sel = plain;
                    $body
                }
                (true, Order::Natural) => {
                    let mut $sel = Factor::new(plain, $st);
                    $body
                }
                (false, Order::Penalty) => {
                    let mut $sel = Ordered::new(plain, $st);
                    $body
                }
                (true, Order::Penalty) => {
                    let mut $sel = Ordered::new(Factor::new(plain, $st), $st);
                    $body
                }
            }
        })
    }};
}

/// Runs `f` with the concrete selector for `h`, so that the search loop is
/// monomorphized per heuristic (no dynamic dispatch per node).
#[macro_export]
macro_rules! with_selector {
    ($h:expr, $st:expr, |$sel:ident| $body:expr) => {
        $crate::with_selector!($h, $st, tables: &$crate::search::select::ScanTables::none(), |$sel| $body)
    };
    // `scan` on `tables` ([`ScanTables::for_search`] of `$st`'s puzzle) instead of
    // tables of its own.
    ($h:expr, $st:expr, tables: $tables:expr, |$sel:ident| $body:expr) => {
        match $h {
            $crate::search::select::Heuristic::Scan => {
                #[allow(unused_mut)]
                let mut $sel = $crate::search::select::Scan::sharing($st, None, $tables);
                $body
            }
            $crate::search::select::Heuristic::ScanAlong { columns } => {
                #[allow(unused_mut)]
                let mut $sel = $crate::search::select::Scan::sharing($st, Some(columns), $tables);
                $body
            }
            $crate::search::select::Heuristic::Mrv => {
                #[allow(unused_mut)]
                let mut $sel = $crate::search::select::Mrv;
                $body
            }
            $crate::search::select::Heuristic::Ply { n, adj } => {
                #[allow(unused_mut)]
                let mut $sel = $crate::search::select::Ply::new($st, n as usize, adj);
                $body
            }
            $crate::search::select::Heuristic::PMean { n, p_milli } => {
                let mean = $crate::branching::Mean::Power(p_milli as f64 / 1000.0);
                #[allow(unused_mut)]
                let mut $sel = $crate::search::select::Ply::with_mean($st, n as usize, false, mean);
                $body
            }
        }
    };
}
