//! plytile: an exact edge-matching puzzle solver.
pub mod growth;
