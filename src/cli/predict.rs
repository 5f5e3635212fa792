//! `plytile predict`: nodes per depth predicted by the analytic and sampled class models
//! and the Knuth and Owen baselines, optionally against a measured exhaustive run.

use super::{catch_interrupts, write_output, PuzzleArgs, INTERRUPTED};
use crate::error::Result;
use crate::growth::predict::{self, ModelChoice, Options};
use crate::report::plot::{growth_svg, Series};
use crate::search::{self, Heuristic, Limits};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PredictArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Site-selection heuristic of the search to predict: scan, mrv, ply:N, ply:N:adj.
    #[arg(long, default_value = "scan")]
    pub select: Heuristic,
    /// Which class model(s) to run; the knuth and owen baselines always run.
    #[arg(long, value_enum, default_value = "all")]
    pub model: ModelChoice,
    /// Random probes for the sampled model and Knuth's estimate.
    #[arg(long, value_name = "K", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub probes: u64,
    /// Seed of the probes (SplitMix64).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also run the search exhaustively and compare.
    #[arg(long)]
    pub measure: bool,
    /// Stop the measured run after N nodes (its counts are then partial).
    #[arg(long, value_name = "N", requires = "measure", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,
    /// Predict the anchored quarter tree of `solve --symmetry --symmetry-parts anchor`
    /// (square boards without hints: the lowest corner piece fixed at the top-left).
    #[arg(long)]
    pub symmetry: bool,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write a log-scale SVG of measured and predicted nodes per depth.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

pub fn run(a: PredictArgs) -> Result<u8> {
    let mut puzzle = a.input.load()?;
    if a.symmetry {
        if let Some(q) = search::symmetry::quarter(&puzzle) {
            puzzle = q;
        }
    }
    let opts = Options {
        select: a.select,
        model: a.model,
        probes: a.probes as usize,
        seed: a.seed,
    };
    let measured = if a.measure {
        catch_interrupts();
        let limits = Limits {
            max_nodes: a.max_nodes,
            deadline: None,
            max_solutions: None,
            keep: 0,
        };
        let r = search::solve(&puzzle, a.select, &limits, &INTERRUPTED);
        Some((r.nodes_per_depth, r.exhaustive))
    } else {
        None
    };
    let report = predict::predict(&puzzle, &opts, measured);
    if let Some(path) = &a.plot {
        let measured: Option<Vec<f64>> = report
            .measured_per_depth
            .as_ref()
            .map(|m| m.iter().map(|&x| x as f64).collect());
        let mut series = Vec::new();
        if let Some(m) = &measured {
            series.push(Series {
                name: "measured",
                values: m,
            });
        }
        for m in &report.models {
            series.push(Series {
                name: m,
                values: &report.predicted_per_depth[m],
            });
        }
        let title = format!("{} — {} nodes per depth", report.puzzle, report.select);
        write_output(path, &growth_svg(&title, "nodes", &series))?;
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialize")
        );
    } else {
        print!("{}", predict::render_text(&report));
    }
    Ok(0)
}
