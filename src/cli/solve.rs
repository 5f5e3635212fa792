//! `plytile solve`.

use super::{catch_interrupts, parse_seconds, PuzzleArgs, INTERRUPTED};
use crate::error::Result;
use crate::report::SolveResult;
use crate::search::{self, Heuristic, Limits};
use clap::Args;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Site-selection heuristic: scan, mrv, ply:N, ply:N:adj (N = 1..=4).
    #[arg(long, default_value = "mrv")]
    pub select: Heuristic,
    /// Find every solution (default: stop at the first).
    #[arg(long, conflicts_with = "solutions")]
    pub all: bool,
    /// Stop after K solutions.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub solutions: Option<u64>,
    /// Stop after N nodes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,
    /// Stop after SECS seconds.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
    /// Keep (and print) at most this many solution boards; all are counted.
    #[arg(long, default_value_t = 1000)]
    pub keep: usize,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Print only the summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(a: SolveArgs) -> Result<u8> {
    let puzzle = a.input.load()?;
    catch_interrupts();
    let limits = Limits {
        max_nodes: a.max_nodes,
        deadline: a
            .timeout
            .map(|s| Instant::now() + Duration::from_secs_f64(s)),
        max_solutions: if a.all {
            None
        } else {
            Some(a.solutions.unwrap_or(1))
        },
        keep: a.keep,
    };
    let result = search::solve(&puzzle, a.select, &limits, &INTERRUPTED);
    if a.json {
        println!(
            "{}",
            serde_json::to_string(&result).expect("results serialize")
        );
    } else if a.quiet {
        println!(
            "{}: {} solution(s), {}exhaustive, {} nodes, {:.3} s",
            result.puzzle,
            result.solutions_found,
            if result.exhaustive { "" } else { "not " },
            result.nodes,
            result.elapsed_s
        );
    } else {
        print!("{}", result.render_text(&puzzle, 3));
    }
    log_summary(&result);
    Ok(result.exit_code())
}

/// Per-depth summaries for `-v`: emitted once, after the search, never per node.
fn log_summary(r: &SolveResult) {
    for (d, n) in r.nodes_per_depth.iter().enumerate() {
        tracing::debug!(depth = d, nodes = n, "nodes per depth");
    }
    tracing::info!(
        nodes = r.nodes,
        solutions = r.solutions_found,
        exhaustive = r.exhaustive,
        elapsed_s = r.elapsed_s,
        "search finished"
    );
}
