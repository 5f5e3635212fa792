//! `plytile merge`: sums the JSON results of shards or jobs into one result.

use super::{read_text, PuzzleArgs};
use crate::error::{InputError, Result};
use crate::puzzle::formats::EdgeOrder;
use crate::report::{depth_table, stop_text, SolveResult};
use crate::search::jobs;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// JSON results of `plytile solve --shard i/n --json` or `solve --job FILE --json`.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// Keep at most this many solution boards; all are counted.
    #[arg(long, default_value_t = 1000)]
    pub keep: usize,
    /// Print the result as one JSON object (the schema of `solve --json`).
    #[arg(long)]
    pub json: bool,
    /// The puzzle the results are of: each must match it, and every solution they
    /// hold is checked by the independent checker before it is reported.
    #[arg(long, value_name = "FILE")]
    pub puzzle: Option<PathBuf>,
    /// Edge order of --puzzle's piece lines: urdl (default) or blrt (Wortmann).
    #[arg(long, default_value = "urdl", requires = "puzzle")]
    pub edge_order: EdgeOrder,
    /// Hints of --puzzle from an Eternity II hints file, as given to `solve`.
    #[arg(long, value_name = "FILE", requires = "puzzle")]
    pub hints: Option<PathBuf>,
}

pub fn run(a: MergeArgs) -> Result<u8> {
    let puzzle = match &a.puzzle {
        Some(path) => Some(
            PuzzleArgs {
                puzzle: path.clone(),
                edge_order: a.edge_order,
                hints: a.hints.clone(),
            }
            .load()?,
        ),
        None => None,
    };
    let mut parts = Vec::new();
    for path in &a.results {
        let origin = path.display().to_string();
        let text = read_text(path)?;
        let r: SolveResult = serde_json::from_str(text.trim()).map_err(|e| {
            InputError::at(
                &origin,
                e.line(),
                format!("not a JSON result of `plytile solve --json`: {e}"),
            )
        })?;
        parts.push((origin, r));
    }
    let (m, warnings) = jobs::merge_with(&parts, a.keep, puzzle.as_ref())?;
    for w in warnings {
        eprintln!("plytile: {w}");
    }
    if a.json {
        outln!("{}", serde_json::to_string(&m).expect("results serialize"))?;
    } else {
        out!("{}", render(&m, parts.len()))?;
    }
    Ok(m.exit_code())
}

/// The summary of `solve`'s text report (boards need the puzzle file; see `--json`).
fn render(r: &SolveResult, parts: usize) -> String {
    let mut s = String::new();
    s += &format!(
        "puzzle      {} ({}x{}), {} results merged\n",
        r.puzzle, r.width, r.height, parts
    );
    s += &format!("select      {}\n", r.select);
    s += &format!("solutions   {}\n", r.solutions_found);
    s += &format!(
        "exhaustive  {}\n",
        match (r.exhaustive, r.stopped_by) {
            (true, _) => "yes".to_string(),
            (false, Some(stop)) => format!("no (stopped: {})", stop_text(stop)),
            (false, None) => "no (shards missing)".to_string(),
        }
    );
    s += &r.nodes_line();
    s += &format!("deepest     {}\n", r.deepest.depth);
    s += &format!("time        {:.3} s (longest part)\n", r.elapsed_s);
    s += &depth_table(&r.nodes_per_depth);
    s
}
