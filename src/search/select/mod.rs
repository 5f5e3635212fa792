//! Site selection: which empty cell to branch on at a node. One trait ([`Select`],
//! `pick.rs`), one table of heuristics ([`HEURISTICS`], `heuristic.rs`) that drives
//! `--select`, its help and its errors, and one file per heuristic.

mod factor;
mod heuristic;
mod hybrid;
mod mrv;
mod order;
mod pick;
#[doc(hidden)]
pub mod ply;
mod scan;

pub use factor::Factor;
pub use heuristic::{help, on_off, Family, Heuristic, Strategy, HEURISTICS};
pub use hybrid::{Hybrid, Lookahead};
pub use mrv::Mrv;
pub use order::{log_options, move_penalty, Order, Ordered};
pub use pick::{Pick, Select};
pub use ply::{Ply, Unscored, MAX_PLY};
pub use scan::{Given, Plan, Scan, ScanTables};
