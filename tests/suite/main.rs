//! The integration tests, in one binary: each of the 20 files it was once split into
//! was linked on its own (thin LTO over every dependency, per binary), which made up
//! most of a fresh `cargo test --release`. One module per area, as the files were.
//! `tests/shared_tables.rs` stays a binary of its own: it reads a process-wide count.

mod common;

mod batch;
mod branching;
mod cli;
mod compare;
mod correctness;
mod factor;
mod interleave;
mod keep;
mod parallel;
mod predict;
mod rowscan;
mod select;
mod show;
mod sliding;
mod spectral;
mod symmetry;
mod tampered;
