//! `plytile compare`: several heuristics on one puzzle under the same limits, side by
//! side. The report (tables, speed lines, plot) is built in `report::export`.

use super::{
    catch_interrupts, check_outputs, distinct, write_output, LimitArgs, PuzzleArgs, StrategyArgs,
    INTERRUPTED, SYMMETRY_HELP,
};
use crate::error::Result;
use crate::report::export::compare::CompareLimits;
use crate::report::export::markup::{Csv, Markdown, Text};
use crate::report::export::CompareReport;
use crate::search::{self, Heuristic};
use clap::Args;
use std::path::PathBuf;

/// Exit code when every run was exhaustive and the solution counts differ.
pub const EXIT_MISMATCH: u8 = 4;

#[derive(Args, Debug)]
#[command(
    after_help = "Exit codes: 0 a solution found, 1 every run exhaustive and none \
    exists, 2 bad input, 3 stopped by a limit with none found, 4 every run exhaustive but \
    the heuristics found different numbers of solutions (a bug; a loud error line on stderr)."
)]
pub struct CompareArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    #[arg(long, value_delimiter = ',', default_value = "scan,mrv,ply:2,ply:3", help = concat!("Heuristics to compare, comma-separated: ", heuristics!()))]
    pub select: Vec<Heuristic>,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    /// Find every solution (default: stop at the first), and cross-check the counts.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[arg(long, help = SYMMETRY_HELP)]
    pub symmetry: bool,
    /// Keep at most this many solution boards per heuristic in --json; all are counted.
    #[arg(long, default_value_t = 1000)]
    pub keep: usize,
    /// Print one JSON object whose `results` holds one `solve --json` object each.
    #[arg(long, group = "format")]
    pub json: bool,
    /// Print the comparison table as CSV.
    #[arg(long, group = "format")]
    pub csv: bool,
    /// Print the comparison and growth tables as Markdown.
    #[arg(long, group = "format")]
    pub markdown: bool,
    /// Write the nodes per depth of every heuristic as an SVG overlay (log scale).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

pub fn run(a: CompareArgs) -> Result<u8> {
    let puzzle = a.input.load()?;
    check_outputs(&Vec::from_iter(a.plot.as_deref()), &a.input.inputs())?;
    if let Some(out) = &a.plot {
        super::check_svg_name("--plot", out)?;
    }
    let symmetry = super::symmetry_applies(a.symmetry, &puzzle);
    catch_interrupts();
    let mut results = Vec::new();
    for h in distinct(a.select.iter().copied()) {
        let limits = a.limits.limits(if a.all { None } else { Some(1) }, a.keep);
        let mut r = search::solve_one(
            &puzzle,
            a.strategy.strategy(h),
            symmetry,
            1,
            &limits,
            &INTERRUPTED,
        );
        r.input = Some(a.input.input());
        results.push(r);
    }
    let limits = CompareLimits {
        all: a.all,
        max_nodes: a.limits.max_nodes,
        timeout_s: a.limits.timeout,
    };
    let report = CompareReport::new(limits, results);
    if a.json {
        outln!(
            "{}",
            serde_json::to_string(&report).expect("reports serialize")
        )?;
    } else if a.csv {
        out!("{}", report.csv_table().render(&Csv))?;
    } else if a.markdown {
        out!(
            "{}\n{}\n{}",
            report.settings_line(),
            report.table().render(&Markdown),
            report.growth_table().render(&Markdown)
        )?;
    } else {
        outln!(
            "{} ({}x{}, {} pieces), {}{}",
            report.puzzle,
            report.width,
            report.height,
            puzzle.pieces.len(),
            if a.all {
                "all solutions"
            } else {
                "first solution"
            },
            if symmetry {
                ", trees of solve --symmetry"
            } else {
                ""
            }
        )?;
        out!("{}", report.table().render(&Text))?;
        outln!()?;
        for line in report.speed_lines() {
            outln!("  {line}")?;
        }
        outln!("\nnodes per depth:")?;
        out!("{}", report.growth_table().render(&Text))?;
    }
    if let Some(path) = &a.plot {
        write_output(path, &report.plot())?;
    }
    if let Some(e) = &report.error {
        eprintln!("plytile: ERROR: {e}");
        return Ok(EXIT_MISMATCH);
    }
    // 0 if any heuristic found a solution, 1 if one proved there is none, else 3.
    Ok(report.runs().map(|r| r.exit_code()).min().unwrap_or(3))
}
