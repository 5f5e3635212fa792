//! `plytile predict`: nodes per depth predicted by the analytic and sampled class models
//! and the Knuth (plain and stratified) and Owen baselines, optionally against a
//! measured exhaustive run.

use super::{
    catch_interrupts, check_outputs, parse_count, write_output, PuzzleArgs, SymmetryParts,
    INTERRUPTED,
};
use crate::error::Result;
use crate::predict::{self, ModelChoice, Options};
use crate::puzzle::Puzzle;
use crate::report::plot::{growth_svg, Series};
use crate::search::symmetric as symmetry;
use crate::search::{self, Heuristic, Limits};
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct PredictArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    #[arg(long, default_value = "scan", help = concat!("Site-selection heuristic of the search to predict: ", heuristics!()))]
    pub select: Heuristic,
    /// Which class model(s) to run; the knuth, stratified and owen baselines always
    /// run.
    #[arg(long, value_enum, default_value = "all")]
    pub model: ModelChoice,
    /// Random probes for the sampled model and Knuth's estimate, and for the stratified
    /// model of heuristics other than scan (10,000: half the error of 1,000 on trees of
    /// 1e7-2e9 nodes, BENCHMARKS.md; ply:4 on Puzzle D then takes 30 s).
    #[arg(long, value_name = "K", default_value_t = 10_000, value_parser = super::parse_probes)]
    pub probes: u64,
    /// Probes of the `stratified` model of the scan heuristics (they run on scan's
    /// tables, about 0.3 s per million on Puzzle D; the others take --probes).
    #[arg(long, value_name = "K", default_value_t = 1_000_000, value_parser = super::parse_probes)]
    pub stratified_probes: u64,
    /// Seed of the probes (SplitMix64).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also run the search exhaustively and compare (with `solve`'s status line on
    /// stderr while it runs, when stderr is a terminal).
    #[arg(long)]
    pub measure: bool,
    /// Stop after S seconds: the tree choice of --symmetry (nothing predicted), the
    /// probes (the models that need them are left out), or the measured run, which
    /// comes after them (its counts are then partial). Exit code 3, as Ctrl-C.
    #[arg(long, value_name = "S", value_parser = super::parse_seconds)]
    pub timeout: Option<f64>,
    /// Stop the measured run after N nodes (its counts are then partial; exit code 3).
    #[arg(long, value_name = "N", requires = "measure", value_parser = parse_count)]
    pub max_nodes: Option<u64>,
    /// Predict the trees `solve --symmetry --all` searches (boards without hints):
    /// on a square board the anchored quarter tree or the three trees of corner pairs
    /// that `--symmetry-parts` picks as `solve` does, with the stratified estimates
    /// that chose them (`parts`, `estimated_total`); on another the two anchored
    /// halves. Each tree is predicted on its own, then summed.
    #[arg(long)]
    pub symmetry: bool,
    #[command(flatten)]
    pub symmetry_parts: SymmetryParts,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write a log-scale SVG of measured and predicted nodes per depth (`-` = stdout,
    /// not with --json: the text then goes to stderr).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

pub fn run(a: PredictArgs) -> Result<u8> {
    let puzzle = a.input.load()?;
    super::check_select([a.select], &puzzle)?;
    check_outputs(&Vec::from_iter(a.plot.as_deref()), &a.input.inputs())?;
    if let Some(out) = &a.plot {
        super::check_svg_name("--plot", out)?;
    }
    let plot_out = super::is_stdout(a.plot.as_deref());
    super::one_on_stdout(&[("--plot -", plot_out), ("--json", a.json)])?;
    let opts = Options {
        select: a.select,
        model: a.model,
        probes: a.probes as usize,
        stratified_probes: a.stratified_probes as usize,
        seed: a.seed,
    };
    // Ctrl-C (or --timeout) ends the tree choice, the measured runs and the probes,
    // which check for it; what was done is still reported.
    catch_interrupts();
    let deadline = a
        .timeout
        .map(|s| Instant::now() + Duration::from_secs_f64(s));
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    let measure = |p: &Puzzle, select: Heuristic| {
        a.measure.then(|| {
            let limits = Limits {
                max_nodes: a.max_nodes,
                deadline,
                max_solutions: None,
                keep: 0,
                shelf: None,
            };
            // The status line of `solve`: the measured run may take hours.
            let status = super::status::StatusLine::start(p, select, None, true);
            let r = search::solve(p, select, &limits, &INTERRUPTED);
            status.stop();
            (r.nodes_per_depth, r.stopped_by)
        })
    };
    let interrupted = || INTERRUPTED.load(Ordering::Relaxed) || late();
    let instead = if a.measure {
        "predicting and measuring the whole tree"
    } else {
        "predicting the whole tree"
    };
    let symmetry = super::symmetry_applies_as(a.symmetry, &puzzle, instead);
    super::note_symmetry_parts(symmetry, a.symmetry_parts.how(), &puzzle);
    let cut = symmetry
        .then(|| {
            let threads = rayon::current_num_threads();
            symmetry::parts_until(
                &puzzle,
                a.select,
                a.symmetry_parts.how(),
                true,
                threads,
                &interrupted,
            )
        })
        .flatten();
    // The probes stop at the deadline or at Ctrl-C; they run before the measured run
    // (which then stops at once too), so that its deadline leaves them their share.
    let stopped = || late() || INTERRUPTED.load(Ordering::Relaxed);
    let report = match cut {
        Some((parts, ..)) if parts.is_empty() => {
            eprintln!("plytile: stopped (Ctrl-C or --timeout) while choosing the trees to predict");
            if a.json {
                let report = predict::PredictReport::stopped_choosing_trees(&puzzle, &opts);
                outln!(
                    "{}",
                    serde_json::to_string(&report).expect("reports serialize")
                )?;
            }
            return Ok(3);
        }
        Some((parts, ..)) => {
            let measured = |t: &symmetry::Part| measure(&t.puzzle, t.select);
            predict::predict_parts(&puzzle.name, &parts, &opts, &measured, &stopped)
        }
        None => predict::predict_until(&puzzle, &opts, || measure(&puzzle, a.select), &stopped),
    };
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
        outln!(
            "{}",
            serde_json::to_string(&report).expect("reports serialize")
        )?;
    } else if plot_out {
        // The SVG has stdout: the text for people goes to stderr (as bench's).
        eprint!("{}", predict::render_text(&report));
    } else {
        out!("{}", predict::render_text(&report))?;
    }
    // As solve and compare: 3 when a limit or Ctrl-C cut the work short.
    let cut = report.probes_stopped || report.measured_exhaustive == Some(false);
    Ok(if cut || INTERRUPTED.load(Ordering::Relaxed) {
        3
    } else {
        0
    })
}
