//! `plytile branching`: the N-ply average local branching factor of a tree given by
//! hand, so users can try the measure ("The N-ply average local branching factor").

use super::read_text;
use crate::branching;
use crate::error::{InputError, Result};
use clap::Args;
use std::path::Path;

#[derive(Args, Debug)]
pub struct BranchingArgs {
    /// The tree as nested JSON lists, e.g. '[[[],[]],[[]]]' (the outer list is the
    /// site), or a file holding them.
    pub tree: String,
    /// Ply N: leaves above level N are dead ends, deeper levels are ignored
    /// (default: the tree's height).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub ply: Option<u64>,
}

pub fn run(a: BranchingArgs) -> Result<u8> {
    let path = Path::new(&a.tree);
    let (origin, json) = if a.tree.trim_start().starts_with('[') {
        ("TREE".to_string(), a.tree.clone())
    } else if path.exists() {
        // A directory or a FIFO says so through the reader.
        (a.tree.clone(), read_text(path)?)
    } else {
        let m = format!(
            "'{}' is neither nested JSON lists (e.g. '[[[],[]],[[]]]') nor a file",
            a.tree
        );
        return Err(InputError::new("TREE", m));
    };
    let text = branching::cli_branching(&json, a.ply.map(|n| n as usize))
        .map_err(|e| InputError::new(origin, e))?;
    outln!("{text}")?;
    Ok(0)
}
