//! The one table of heuristics ([`HEURISTICS`]): every `--select` value, its syntax,
//! its one-line help and its parser; [`Heuristic`] as a value, [`Strategy`] with the
//! options around it, and the dispatch to each heuristic's selector
//! ([`with_selector!`](crate::with_selector), [`with_strategy!`](crate::with_strategy)).

use super::ply::MAX_PLY;
use super::scan::{Given, Plan, ScanTables};
use super::Order;
use crate::search::state::State;
use std::fmt;
use std::str::FromStr;

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
    /// M_p (Rivest, "Game Tree Searching by Min/Max Approximation"); `p_milli` = p x 1000 (p < 0).
    PMean { n: u8, p_milli: i32 },
    /// `ply:N@D` (`mrv@D` when `n` is 0): that heuristic for the first `at`
    /// placements beyond the hints, then each subtree in its planned order
    /// ([`super::Hybrid`], [`crate::search::plan`]).
    Hybrid { n: u8, at: u16 },
    /// A planned static order on the row-scan driver: `order:spiral`
    /// ([`Plan::Spiral`]) or `order:hints` ([`Plan::Hints`]); never `Plan::Lines`
    /// (that is `scan`).
    Order { plan: Plan },
}

/// One row of [`HEURISTICS`]: a `--select` syntax's one-line help and its parser.
pub struct Family {
    /// For `--help` (`--select`'s list is the table's syntaxes) and the docs.
    pub about: &'static str,
    /// The heuristic a `--select` value of this row's syntax names: None when the
    /// value is not of it, an error when it is but is out of range. None for a row
    /// whose values the row above parses (`ply:N:adj` is `ply:N`'s).
    pub parse: Option<fn(&str) -> Option<Result<Heuristic, String>>>,
}

/// Every `--select` syntax with its help and parser: the one table that parsing,
/// `--help` ([`help`]) and the error for an unknown name read. A new heuristic is a
/// row here, a [`Heuristic`] variant with its `Display` arm, its arm in
/// [`with_selector!`](crate::with_selector), and its own file.
pub const HEURISTICS: &[(&str, Family)] = &[
    ("scan", Family {
        about: "rows from the top-left (columns when wider than tall), no lookahead (the textbook backtracker)",
        parse: Some(|s| (s == "scan").then_some(Ok(Heuristic::Scan))),
    }),
    ("scan:rows", Family {
        about: "as scan, always along rows",
        parse: Some(|s| (s == "scan:rows").then_some(Ok(Heuristic::ScanAlong { columns: false }))),
    }),
    ("scan:columns", Family {
        about: "as scan, always along columns",
        parse: Some(|s| (s == "scan:columns").then_some(Ok(Heuristic::ScanAlong { columns: true }))),
    }),
    ("mrv", Family {
        about: "the empty cell with the fewest legal placements; ties: lowest cell index",
        parse: Some(|s| (s == "mrv").then_some(Ok(Heuristic::Mrv))),
    }),
    ("ply:N", Family {
        about: "smallest N-ply average local branching factor (N = 1..=4), follow-ups at the adjacent cell with the fewest placements",
        parse: Some(parse_ply),
    }),
    ("ply:N:adj", Family {
        about: "as ply:N, follow-ups at every empty cell adjacent to the local placements",
        parse: None,
    }),
    ("order:spiral", Family {
        about: "a static order: clockwise from the top-left corner, outside in, ring by ring (on scan's driver)",
        parse: Some(|s| (s == "order:spiral").then_some(Ok(Heuristic::Order { plan: Plan::Spiral }))),
    }),
    ("order:hints", Family {
        about: "a static order grown from the hints: next the empty cell with the most sides on the rim or a filled cell; ties: lowest cell index (on scan's driver)",
        parse: Some(|s| (s == "order:hints").then_some(Ok(Heuristic::Order { plan: Plan::Hints }))),
    }),
    ("order:FILE", Family {
        about: "a static order read from FILE: one 'ROW COL' per line (0-based); empty cells it leaves out follow in row order (on scan's driver)",
        parse: Some(parse_order_file),
    }),
    ("pmean:N:p", Family {
        about: "as ply:N with the labels' min replaced by the generalized mean M_p, p < 0 (Rivest)",
        parse: Some(parse_pmean),
    }),
    ("ply:N@D", Family {
        about: "ply:N for the first D placements beyond the hints, then each subtree in its planned order (docs/guide.md)",
        parse: Some(parse_hybrid),
    }),
    ("mrv@D", Family {
        about: "mrv for the first D placements beyond the hints, then each subtree in its planned order",
        parse: None,
    }),
];

/// What `--help` says of the ranges, after the table's syntaxes.
const RANGES: &str = "(N = 1..=4, p from -1000 to -0.001, D placements beyond the hints; docs/guide.md, \"Heuristics\")";

/// The `--select` values as every command's `--help` lists them: the table's
/// syntaxes, then their ranges.
pub fn help() -> String {
    let names: Vec<&str> = HEURISTICS.iter().map(|h| h.0).collect();
    format!("{} {RANGES}", names.join(", "))
}

/// `ply:N` and `ply:N:adj` (`ply:N:one` is `ply:N`).
fn parse_ply(s: &str) -> Option<Result<Heuristic, String>> {
    let rest = s.strip_prefix("ply:").filter(|_| !s.contains('@'))?;
    let mut parts = rest.split(':');
    let n = parts.next().and_then(|n| n.parse::<u8>().ok());
    let rule = parts.next();
    Some(match (n, rule, parts.next()) {
        (Some(n), None | Some("one") | Some("adj"), None) if (1..=MAX_PLY as u8).contains(&n) => {
            Ok(Heuristic::Ply {
                n,
                adj: rule == Some("adj"),
            })
        }
        _ => Err(format!(
            "bad heuristic '{s}': expected ply:N or ply:N:adj with N in 1..={MAX_PLY}"
        )),
    })
}

/// `ply:N@D` and `mrv@D`.
fn parse_hybrid(s: &str) -> Option<Result<Heuristic, String>> {
    let (head, at) = s.split_once('@')?;
    let n = match head {
        "mrv" => Some(0),
        _ => head
            .strip_prefix("ply:")
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| (1..=MAX_PLY as u8).contains(n)),
    };
    Some(match (n, at.parse::<u16>()) {
        (Some(n), Ok(at)) => Ok(Heuristic::Hybrid { n, at }),
        _ => Err(format!(
            "bad heuristic '{s}': expected ply:N@D (N in 1..={MAX_PLY}) or mrv@D, D a depth (0..=65535)"
        )),
    })
}

/// `order:FILE`: any `order:` value that is not a planned order's name.
fn parse_order_file(s: &str) -> Option<Result<Heuristic, String>> {
    let path = s
        .strip_prefix("order:")
        .filter(|p| !["spiral", "hints"].contains(p))?;
    Some(Given::read(path).map(|g| Heuristic::Order {
        plan: Plan::Given(g),
    }))
}

/// `pmean:N:p`.
fn parse_pmean(s: &str) -> Option<Result<Heuristic, String>> {
    let rest = s.strip_prefix("pmean:")?;
    let parts: Vec<&str> = rest.split(':').collect();
    let n = parts.first().and_then(|n| n.parse::<u8>().ok());
    let p = parts.get(1).and_then(|p| p.parse::<f64>().ok());
    // p is kept in thousandths: it must stay below 0 once rounded to them.
    let p_milli = p.map(|p| (p * 1000.0).round());
    Some(match (n, p_milli, parts.len()) {
        (Some(n), Some(p_milli), 2) if (1..=MAX_PLY as u8).contains(&n) && (-1e6..=-1.0).contains(&p_milli) => {
            Ok(Heuristic::PMean { n, p_milli: p_milli as i32 })
        }
        _ => Err(format!("bad heuristic '{s}': expected pmean:N:p with N in 1..={MAX_PLY} and p in -1000..=-0.001 (e.g. pmean:2:-4)")),
    })
}

impl FromStr for Heuristic {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let parsed = HEURISTICS
            .iter()
            .find_map(|(_, f)| f.parse.and_then(|parse| parse(s)));
        parsed.unwrap_or_else(|| {
            Err(format!(
                "unknown heuristic '{s}'; expected one of: {}",
                HEURISTICS
                    .iter()
                    .map(|h| h.0)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
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
            Heuristic::Hybrid { n: 0, at } => write!(f, "mrv@{at}"),
            Heuristic::Hybrid { n, at } => write!(f, "ply:{n}@{at}"),
            Heuristic::Order { plan: Plan::Spiral } => f.write_str("order:spiral"),
            Heuristic::Order { plan: Plan::Hints } => f.write_str("order:hints"),
            Heuristic::Order {
                plan: Plan::Given(g),
            } => write!(f, "order:{}", g.path),
            Heuristic::Order {
                plan: Plan::Lines { columns: false },
            } => f.write_str("scan:rows"),
            Heuristic::Order {
                plan: Plan::Lines { columns: true },
            } => f.write_str("scan:columns"),
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

    /// The static order a search with this heuristic runs on the row-scan driver:
    /// scan's lines for the `scan` heuristics, the plan of `order:*`; None for the
    /// others.
    pub fn plan(self, width: usize, height: usize) -> Option<Plan> {
        match self {
            Heuristic::Order { plan } => Some(plan),
            _ => self
                .scan_columns(width, height)
                .map(|columns| Plan::Lines { columns }),
        }
    }

    /// A one-line error when this heuristic cannot run on a `width` x `height`
    /// board (an `order:FILE` cell off it).
    pub fn check(self, width: usize, height: usize) -> Result<(), String> {
        match self {
            Heuristic::Order {
                plan: Plan::Given(g),
            } => g.check(width, height),
            _ => Ok(()),
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

impl ScanTables {
    /// The tables of a search with `h` on the puzzle whose hints-only state is `root`;
    /// none unless `h` runs on the row-scan driver (`scan`, `order:*`).
    pub fn for_search(root: &State, h: Heuristic) -> ScanTables {
        ScanTables::planned(root, h.plan(root.width, root.height))
    }
}

/// Serde for a type that prints and parses as its `--select` text (`Display` and
/// `FromStr`): a JSON or RON string, the same in every file.
#[macro_export]
macro_rules! serde_as_select_text {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.to_string())
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <String as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

crate::serde_as_select_text!(Heuristic);

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
            $crate::search::select::Heuristic::Order { plan } => {
                #[allow(unused_mut)]
                let mut $sel = $crate::search::select::Scan::planned($st, plan, $tables);
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
            $crate::search::select::Heuristic::Hybrid { n: 0, at } => {
                let inner = $crate::search::select::Lookahead::Mrv($crate::search::select::Mrv);
                #[allow(unused_mut)]
                let mut $sel = $crate::search::select::Hybrid::new(inner, at as usize);
                $body
            }
            $crate::search::select::Heuristic::Hybrid { n, at } => {
                let inner = $crate::search::select::Ply::new($st, n as usize, false);
                let inner = $crate::search::select::Lookahead::Ply(inner);
                #[allow(unused_mut)]
                let mut $sel = $crate::search::select::Hybrid::new(inner, at as usize);
                $body
            }
        }
    };
}
