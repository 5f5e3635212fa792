//! `plytile spectral`: eigenvalues, spectral radius, period and N(d) of an
//! equivalence graph (Edelkamp, "Prediction of Regular Search Tree Growth by Spectral Analysis").

use crate::error::{InputError, Result};
use crate::growth::{self, spectral::Limits};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SpectralArgs {
    /// Equivalence graph (RON): `(classes: [..], children: [[..]..], start: [..])`,
    /// `children[i][j]` = class-j children of a class-i node, `start` = N(0).
    pub matrix: PathBuf,
    /// Last depth of N(d) (at most 10000: the counts are kept for every depth).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub depth: u64,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: SpectralArgs) -> Result<u8> {
    let graph = growth::load_graph(&a.matrix)?;
    let (classes, depth) = (graph.classes().len(), a.depth as usize);
    // Every depth's class vector is kept (and printed): refuse a table that large up front.
    if classes * (depth + 1) > Limits::CLASS_COUNTS {
        return Err(InputError::new(
            "--depth",
            format!(
                "{depth} with the {classes} classes of {} keeps {} class counts, more than the \
                 {} allowed; give --depth {} or less",
                a.matrix.display(),
                classes * (depth + 1),
                Limits::CLASS_COUNTS,
                Limits::CLASS_COUNTS / classes - 1
            ),
        ));
    }
    let report = growth::spectral_report(&graph, depth);
    if a.json {
        outln!(
            "{}",
            serde_json::to_string(&report).expect("reports serialize")
        )?;
    } else {
        out!("{}", growth::render_text(&report))?;
    }
    Ok(0)
}
