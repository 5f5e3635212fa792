//! `plytile branching`: the N-ply average local branching factor of a tree given by
//! hand, so users can try the measure (seed 000).

use crate::branching;
use crate::error::{InputError, Result};
use clap::Args;

#[derive(Args, Debug)]
pub struct BranchingArgs {
    /// The tree as nested JSON lists, e.g. '[[[],[]],[[]]]' (the outer list is the site).
    pub tree: String,
    /// Ply N: leaves above level N are dead ends, deeper levels are ignored
    /// (default: the tree's height).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub ply: Option<u64>,
}

pub fn run(a: BranchingArgs) -> Result<u8> {
    let text = branching::cli_branching(&a.tree, a.ply.map(|n| n as usize))
        .map_err(|e| InputError::new("TREE", e))?;
    outln!("{text}")?;
    Ok(0)
}
