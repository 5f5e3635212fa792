//! Site selection: which empty cell to branch on at a node. One trait ([`Select`],
//! `pick.rs`), one list of heuristics ([`heuristic_list!`](crate::heuristic_list),
//! `heuristic.rs`) that drives `--select`, its help, its errors and the dispatch, and
//! one file per heuristic (its [`Named`] value and its selector).

mod factor;
mod heuristic;
mod hybrid;
mod mrv;
mod order;
mod pick;
#[doc(hidden)]
pub mod ply;
mod pmean;
mod scan;
mod tables;

pub use crate::search::plan::{Given, Plan};
pub use factor::Factor;
pub use heuristic::{help, on_off, syntaxes, Heuristic, Strategy};
pub use hybrid::{Hybrid, Lookahead, Switch};
pub use mrv::Mrv;
pub use order::{log_options, move_penalty, Order, Ordered};
pub use pick::{Named, Pick, Select};
pub use ply::{Ply, PlyN, Unscored, MAX_PLY};
pub use pmean::PMean;
pub use scan::{Along, Scan};
pub use tables::ScanTables;
