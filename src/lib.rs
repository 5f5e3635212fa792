//! plytile: an exact edge-matching (Eternity II-style) puzzle solver.
//!
//! Data flows one way: a file becomes a [`puzzle::Puzzle`], the puzzle becomes a
//! search [`search::State`], a [`search::Select`] heuristic picks the next site at
//! every node, the depth-first driver counts and reports, and reports become text or
//! JSON. Math that needs no board ([`branching`], [`growth`]) lives apart from it.

pub mod branching;
pub mod cli;
pub mod cpu;
pub mod error;
pub mod files;
pub mod growth;
pub mod merge;
pub mod predict;
pub mod puzzle;
pub mod report;
pub mod search;
