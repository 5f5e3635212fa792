//! `plytile compare`: several heuristics on one puzzle under the same limits, side by
//! side. The report (tables, speed lines, plot) is built in `report::export`.

use super::{
    catch_interrupts, check_outputs, distinct, write_output, LimitArgs, PuzzleArgs, StrategyArgs,
    INTERRUPTED, SYMMETRY_HELP,
};
use crate::error::Result;
use crate::puzzle::Puzzle;
use crate::report::export::compare::CompareLimits;
use crate::report::export::markup::{Csv, Markdown, Text};
use crate::report::export::CompareReport;
use crate::search::auto::{Budget, Setting};
use crate::search::{self, Order};
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// Exit code when every run was exhaustive and the solution counts differ.
pub const EXIT_MISMATCH: u8 = 4;

#[derive(Args, Debug)]
#[command(
    after_help = "The report ends with what to use: the fastest heuristic and how much \
    faster it was than each other (`use ply:2: 3.1x faster than mrv, 131x faster than \
    scan`), or, when no run reached its goal, the one that placed the most pieces \
    (JSON: `recommended`, `recommendation`).\n\n\
    Exit codes: 0 a solution found, 1 every run exhaustive and none \
    exists, 2 bad input, 3 stopped by a limit with none found, or interrupted (Ctrl-C: \
    no other heuristic is started, the report names them), 4 every run exhaustive but \
    the heuristics found different numbers of solutions (a bug; a loud error line on stderr)."
)]
pub struct CompareArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    #[arg(long, value_delimiter = ',', default_value = "scan,mrv,ply:2,ply:3", help = concat!("Heuristics to compare, comma-separated: auto (solve's default: its time includes its choosing, on the same trees as the others) or ", heuristics!()))]
    pub select: Vec<Setting>,
    /// Seed of auto's probes (as `solve --auto-seed`).
    #[arg(long, value_name = "S", default_value = "1")]
    pub auto_seed: u64,
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
    #[arg(long, value_name = "K", default_value = "1000", value_parser = super::parse_keep)]
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
    /// Write the nodes per depth of every heuristic as an SVG overlay (log scale; `-`
    /// = stdout, not with --json, --csv or --markdown: the text then goes to stderr).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

pub fn run(a: CompareArgs) -> Result<u8> {
    let puzzle = a.input.load_quiet()?;
    super::check_select(a.select.iter().filter_map(|s| s.fixed()), &puzzle)?;
    check_outputs(&Vec::from_iter(a.plot.as_deref()), &a.input.inputs())?;
    if let Some(why) = super::no_solution_reason(&puzzle) {
        // Without --all every heuristic would search the whole tree for a first
        // solution that is not there: nothing to compare. With --all the whole tree
        // is what is compared, and its size still differs by heuristic.
        let file = a.input.puzzle.display();
        if !a.all {
            eprintln!("plytile: {file}: {why}; nothing to compare (with --all, compare measures the whole tree of each heuristic)");
            return Ok(1);
        }
        eprintln!("plytile: note: {file}: {why}");
    }
    if let Some(out) = &a.plot {
        super::check_svg_name("--plot", out)?;
    }
    // One output per stream: `--plot -` with --json, --csv or --markdown is refused,
    // and beside the text for people it sends that text to stderr (as bench does).
    let plot_out = super::is_stdout(a.plot.as_deref());
    super::one_on_stdout(&[
        ("--plot -", plot_out),
        ("--json", a.json),
        ("--csv", a.csv),
        ("--markdown", a.markdown),
    ])?;
    let symmetry = super::symmetry_applies(a.symmetry, &puzzle);
    catch_interrupts();
    let mut results = Vec::new();
    let mut not_run = Vec::new();
    for h in distinct(a.select.iter().copied()) {
        // After a Ctrl-C no other heuristic is started: the report has the runs so
        // far (the one it stopped says "interrupted") and names the rest.
        if INTERRUPTED.load(Ordering::SeqCst) && !results.is_empty() {
            not_run.push(h);
            continue;
        }
        let limits = a.limits.limits(if a.all { None } else { Some(1) }, a.keep);
        let r = search::solve_setting(
            &puzzle,
            h,
            |h| a.strategy.strategy(h),
            symmetry,
            1,
            &limits,
            (Budget::for_timeout(a.limits.timeout), a.auto_seed),
            &INTERRUPTED,
        );
        // Ctrl-C while auto chose: nothing of it to report.
        let Some(mut r) = r else {
            not_run.push(h);
            continue;
        };
        r.input = Some(a.input.input());
        r.mark_timing();
        results.push(r);
    }
    let interrupted = INTERRUPTED.load(Ordering::SeqCst);
    let limits = CompareLimits {
        all: a.all,
        max_nodes: a.limits.max_nodes,
        timeout_s: a.limits.timeout,
    };
    let mut report = CompareReport::new(limits, results);
    report.interrupted = interrupted;
    report.not_run = not_run;
    report.recommend(puzzle.free_cells());
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
        let text = text_report(&report, &puzzle, a.all, symmetry);
        if plot_out {
            eprint!("{text}");
        } else {
            out!("{text}")?;
        }
    }
    if let Some(path) = &a.plot {
        write_output(path, &report.plot())?;
    }
    if let Some(e) = &report.error {
        eprintln!("plytile: ERROR: {e}");
        return Ok(EXIT_MISMATCH);
    }
    if interrupted {
        eprintln!(
            "plytile: interrupted; {} of {} heuristic(s) reported{}",
            report.results.len(),
            report.results.len() + report.not_run.len(),
            if report.not_run.is_empty() {
                String::new()
            } else {
                format!(
                    ", not run: {}",
                    report
                        .not_run
                        .iter()
                        .map(|h| h.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        );
        return Ok(3);
    }
    // 0 if any heuristic found a solution, 1 if one proved there is none, else 3.
    Ok(report.runs().map(|r| r.exit_code()).min().unwrap_or(3))
}

/// The text for people: a header naming the goal, the trees and the strategy flags
/// that change the counts (as the Markdown settings line), the table, the speed lines
/// and the nodes per depth.
fn text_report(report: &CompareReport, puzzle: &Puzzle, all: bool, symmetry: bool) -> String {
    let first = &report.results[0].run;
    let mut s = format!(
        "{} ({}x{}, {} pieces), {}{}{}{}\n",
        report.puzzle,
        report.width,
        report.height,
        puzzle.pieces.len(),
        if all {
            "all solutions"
        } else {
            "first solution"
        },
        if symmetry {
            ", trees of solve --symmetry"
        } else {
            ""
        },
        if first.factor { ", --factor on" } else { "" },
        match first.move_order {
            Order::Natural => String::new(),
            o => format!(", --move-order {o}"),
        }
    );
    s += &report.table().render(&Text);
    s.push('\n');
    for line in report.speed_lines() {
        s += &format!("  {line}\n");
    }
    s += "\nnodes per depth:\n";
    s += &report.growth_table().render(&Text);
    // Last: what to use.
    if let Some(line) = &report.recommendation {
        s += &format!("\n{line}\n");
    }
    s
}
