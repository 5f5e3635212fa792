//! The integration tests, in one binary: each of the 20 files it was once split into
//! was linked on its own (thin LTO over every dependency, per binary), which made up
//! most of a fresh `cargo test --release`. One module per area, as the files were;
//! `unit` holds the library's unit tests (the library has no test harness of its own).
//! `shared_tables` reads a process-wide count, so it runs itself in a child process.

mod common;

mod auto;
mod batch;
mod branching;
mod cli;
mod compare;
mod correctness;
mod factor;
mod hybrid;
mod interleave;
mod keep;
mod parallel;
mod planned;
mod predict;
mod rowscan;
mod select;
mod shared_tables;
mod show;
mod sliding;
mod spectral;
mod symmetry;
mod tampered;
mod unit;
