//! The one list of heuristics ([`heuristic_list!`](crate::heuristic_list)): every
//! `--select` value is a [`Heuristic`] variant whose payload, in the heuristic's own
//! file, implements [`Named`] (its syntaxes, help, parsing, printing and selector).
//! From that list come the enum, parsing, `--help`, the unknown-name error and the
//! dispatch to each heuristic's selector ([`with_selector!`](crate::with_selector),
//! [`with_strategy!`](crate::with_strategy)); [`Strategy`] is a heuristic with the
//! options around it.

use super::pick::Named;
use super::tables::ScanTables;
use super::Order;
use crate::search::plan::Plan;
use crate::search::state::State;
use std::fmt;
use std::str::FromStr;

/// The one list of heuristics, in `--help`'s order: a [`Heuristic`] variant and the
/// type in the heuristic's own file that implements [`Named`]. **A new heuristic is
/// a line here plus its file** (and its row in the docs' table, which a test checks).
/// The list is handed to the macro `$then` (a callback, so that the list is written
/// once): [`define_heuristics!`](crate::define_heuristics) makes the enum from it,
/// [`select_for!`](crate::select_for) the dispatch.
#[doc(hidden)]
#[macro_export]
macro_rules! heuristic_list {
    ($then:ident ! ($($args:tt)*)) => {
        $crate::$then! { ($($args)*)
            /// `scan`, `scan:rows`, `scan:columns`: line by line from the top-left, no
            /// lookahead ([`Along`](crate::search::select::Along)).
            Scan($crate::search::select::Along),
            /// `mrv`: the empty cell with the fewest legal placements.
            Mrv($crate::search::select::Mrv),
            /// `ply:N`, `ply:N:adj`: the smallest N-ply average local branching factor.
            Ply($crate::search::select::PlyN),
            /// `order:spiral`, `order:hints`, `order:FILE`: a planned static order on
            /// scan's driver ([`Plan`](crate::search::select::Plan); never
            /// `Plan::Lines`, which is `scan`).
            Order($crate::search::select::Plan),
            /// `pmean:N:p`: `ply:N` with Rivest's generalized mean for the min.
            PMean($crate::search::select::PMean),
            /// `ply:N@D`, `mrv@D`: a dynamic heuristic for D placements, then planned
            /// subtrees ([`Switch`](crate::search::select::Switch)).
            Hybrid($crate::search::select::Switch),
        }
    };
}

/// Makes [`Heuristic`], its parsing and printing, and [`syntaxes`] from the list.
#[doc(hidden)]
#[macro_export]
macro_rules! define_heuristics {
    (() $($(#[$doc:meta])* $variant:ident($value:ty),)*) => {
        /// A heuristic by name, as given to `--select` (the variants:
        /// [`heuristic_list!`](crate::heuristic_list)).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Heuristic {
            $($(#[$doc])* $variant($value),)*
        }

        /// Every `--select` syntax with its one-line help, in `--help`'s order.
        pub fn syntaxes() -> impl Iterator<Item = (&'static str, &'static str)> {
            [$(<$value as Named>::SYNTAXES),*].into_iter().flatten().copied()
        }

        impl Heuristic {
            /// [`Named::instructions_per_node`] of the value.
            pub fn instructions_per_node(self) -> f64 {
                match self {
                    $(Heuristic::$variant(e) => e.instructions_per_node(),)*
                }
            }

            /// The first reading of `s` by a value of the list (None: of no syntax).
            fn parse_any(s: &str) -> Option<Result<Heuristic, String>> {
                $(if let Some(r) = <$value as Named>::parse(s) {
                    return Some(r.map(Heuristic::$variant));
                })*
                None
            }
        }

        impl fmt::Display for Heuristic {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(Heuristic::$variant(e) => e.write(f),)*
                }
            }
        }
    };
}

crate::heuristic_list!(define_heuristics!());

/// What `--help` says of the ranges, after the syntaxes.
const RANGES: &str = "(N = 1..=4, p from -1000 to -0.001, D placements beyond the hints; docs/guide.md, \"Heuristics\")";

/// The `--select` values as every command's `--help` lists them: the syntaxes, then
/// their ranges.
pub fn help() -> String {
    let names: Vec<&str> = syntaxes().map(|s| s.0).collect();
    format!("{} {RANGES}", names.join(", "))
}

impl FromStr for Heuristic {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Heuristic::parse_any(s).unwrap_or_else(|| {
            let names: Vec<&str> = syntaxes().map(|s| s.0).collect();
            Err(format!(
                "unknown heuristic '{s}'; expected one of: {}",
                names.join(", ")
            ))
        })
    }
}

impl Heuristic {
    /// For the `scan` heuristics, whether they fill a `width` x `height` board column
    /// by column; None for the others.
    pub fn scan_columns(self, width: usize, height: usize) -> Option<bool> {
        match self {
            Heuristic::Scan(along) => Some(along.columns(width, height)),
            _ => None,
        }
    }

    /// The static order a search with this heuristic runs on the row-scan driver:
    /// scan's lines for the `scan` heuristics, the plan of `order:*`; None for the
    /// others.
    pub fn plan(self, width: usize, height: usize) -> Option<Plan> {
        match self {
            Heuristic::Order(plan) => Some(plan),
            _ => self
                .scan_columns(width, height)
                .map(|columns| Plan::Lines { columns }),
        }
    }

    /// A one-line error when this heuristic cannot run on a `width` x `height`
    /// board (an `order:FILE` cell off it).
    pub fn check(self, width: usize, height: usize) -> Result<(), String> {
        match self {
            Heuristic::Order(Plan::Given(g)) => g.check(width, height),
            _ => Ok(()),
        }
    }

    /// Whether this is one of the `scan` heuristics (a static fill order).
    pub fn is_scan(self) -> bool {
        matches!(self, Heuristic::Scan(_))
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
    // `scan` and the planned orders on `tables` ([`ScanTables::for_search`] of `$st`'s
    // puzzle) instead of tables of their own.
    ($h:expr, $st:expr, tables: $tables:expr, |$sel:ident| $body:expr) => {
        $crate::heuristic_list!(select_for!($h, $st, $tables, $sel, $body))
    };
}

/// [`with_selector!`](crate::with_selector)'s match, one arm per variant of the list.
#[doc(hidden)]
#[macro_export]
macro_rules! select_for {
    (($h:expr, $st:expr, $tables:expr, $sel:ident, $body:expr)
     $($(#[$doc:meta])* $variant:ident($value:ty),)*) => {
        match $h {
            $($crate::search::select::Heuristic::$variant(entry) => {
                #[allow(unused_mut)]
                let mut $sel = $crate::search::select::Named::selector(entry, $st, $tables);
                $body
            })*
        }
    };
}
