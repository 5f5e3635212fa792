//! The row-scan driver: `scan`'s own depth-first loop, which never touches the
//! generic [`State`](crate::search::state::State) bitsets. It visits exactly the
//! nodes of the generic driver with the `scan` heuristic, in the same order (same
//! per-depth counts, same first solutions), at a fraction of the cost per node.
//!
//! **Order.** Row-major, or column-major (`scan` when the board is wider than tall,
//! `scan:columns`; [`records::Axis`]); the docs of these modules speak of rows, and
//! columns swap up with left, down with right.
//!
//! **Where things are.**
//! - [`tables`]: the candidate tables built once per search ([`RowScan`]: per class
//!   of cell and key, the orientations that fit), and mask mode's ([`tables::Masks`]);
//! - [`records`]: the packed records they hold and the loop reads (`Entry`, `Frame`);
//! - [`walk`]: the per-node loops and the invariants they keep;
//! - [`drive`]: a walk run under a search's limits, sharing and handing over work,
//!   paused and resumed ([`Paused`]);
//! - [`probe`]: Knuth's probes on the tables ([`Prober`]).

// The docs state the invariants of the private loop next to it, for whoever changes it
// (`cargo doc --document-private-items` follows their links).
#![allow(rustdoc::private_intra_doc_links)]

mod drive;
mod probe;
mod records;
mod tables;
mod walk;

pub use drive::Paused;
pub use probe::Prober;
#[doc(hidden)]
pub use tables::DenseColours;
pub use tables::{tables_built, RowScan};
