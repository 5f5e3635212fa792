//! The library's unit tests, one module per source file they test, through its public
//! API. They were `#[cfg(test)]` modules in `src/`, which made the library's own test
//! harness a third full build of the crate (one codegen unit, thin LTO) in every
//! `cargo test --release`; `[lib] test = false` in Cargo.toml spares it. The few items
//! they need that the library does not use outside their module are public and
//! `#[doc(hidden)]`.

mod bench;
mod cli;
mod export;
mod heuristic;
mod markup;
mod plan;
mod ply;
mod stats;
mod tables;
