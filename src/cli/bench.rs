//! `plytile bench`: every setting on every puzzle, several runs each, summarized in the
//! manner of hyperfine (mean ± σ, min … max, "ran N times faster"). The schema,
//! statistics and exports live in `report::export`. Before the first run, a check
//! ([`guard`]) refuses settings predicted to run for hours; after each setting, the
//! warnings of [`warnings`] (outliers, a cold first run, a large spread).

pub(super) mod guard;
pub(super) mod live;
pub(super) mod warnings;

use super::{
    catch_interrupts, check_outputs, distinct, shell_line, write_output, LimitArgs, StrategyArgs,
    INTERRUPTED, SYMMETRY_HELP,
};
use crate::error::Result;
use crate::puzzle::formats::{read_puzzle, EdgeOrder};
use crate::puzzle::Puzzle;
use crate::report::export::{
    count_mismatch, fmt_count, fmt_ratio, fmt_time, fmt_time_as, BenchConfig, BenchRecord,
    BenchReport, ExportFormat,
};
use crate::report::{rank, stop_text, Rank};
use crate::search::auto::{Budget, Setting};
use crate::search::select::{Along, Mrv, PlyN, MAX_PLY};
use crate::search::{self, Heuristic};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(Args, Debug)]
#[command(
    after_help = "Default settings (no --ply, no --select): scan (the baseline), mrv and ply:2..4; \
    each runs once untimed (--warmup 1), then 3 timed runs (--runs 3).\n\n\
    Before the first run, bench predicts how long each setting's runs take (warm-up \
    included): a short run of the search gives its rate (or its time, when it \
    finishes), and Knuth's estimate of the tree its nodes; about 2 s in all (0.25 s \
    at most per setting and puzzle, 0.02 s at least). A setting \
    predicted to take more than 5 minutes on a puzzle is refused with the prediction \
    (exit 2): an exhaustive search of a 7x7 takes hours per run. --timeout or \
    --max-nodes (each run bounded) or --allow-long skips the check.\n\n\
    Warnings (stderr, one line each, naming the setting; JSON `warnings` of each record), \
    as hyperfine: a first timed run much slower than the others (use --warmup), \
    statistical outliers (modified Z-score over 14.8), and a spread (σ) over half the \
    mean; not for runs under 5 ms, whose times are mostly noise.\n\n\
    Exit codes: 0 done, 1 with --solutions K a puzzle proven to have none (a colour on \
    an odd number of piece sides; nothing is run), 2 bad input or a setting predicted too long, 3 interrupted (finished puzzles are exported, and the settings finished on the one cut short, not ranked), \
    4 exhaustive runs of a puzzle found different numbers of solutions (a bug)."
)]
pub struct BenchArgs {
    /// Puzzle files (.ron or text).
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    /// Benchmark ply:A .. ply:B (inclusive; `A..B` or a single `N`, 1..=4).
    #[arg(long, value_name = "A..B", value_parser = parse_ply_range)]
    pub ply: Option<(u8, u8)>,
    #[arg(long, value_delimiter = ',', help = concat!("More settings, comma-separated, run before --ply's: auto (solve's default; each run chooses, and its time includes the choosing) or ", heuristics!()))]
    pub select: Vec<Setting>,
    /// Seed of auto's probes (as `solve --auto-seed`).
    #[arg(long, value_name = "S", default_value = "1")]
    pub auto_seed: u64,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    /// Measured runs per puzzle and setting.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Untimed runs of each setting before its timed ones (0: none), said in the
    /// output: the first run of a setting pays for cold caches and memory.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub warmup: u32,
    /// Run settings predicted to take more than 5 minutes on a puzzle (see below).
    #[arg(long)]
    pub allow_long: bool,
    /// Threads per search: more than one runs the parallel driver of `solve
    /// --threads` (exhaustive counts are the same; a first solution may come from
    /// another part of the tree, so its nodes vary between runs). At most the cores
    /// run, as with `solve` (the export's `threads_used`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// Stop each run at its K-th solution: time to the first solutions, what `solve`
    /// measures by default (default: every solution, an exhaustive run).
    #[arg(long, value_name = "K", value_parser = super::parse_count)]
    pub solutions: Option<u64>,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[arg(long, help = SYMMETRY_HELP)]
    pub symmetry: bool,
    /// Edge order of text puzzle files: urdl (default) or blrt (Wortmann).
    #[arg(long, default_value = "urdl")]
    pub edge_order: EdgeOrder,
    /// Write the results as JSON (`-` = stdout); rewritten after every puzzle.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Write one CSV line per puzzle and setting (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,
    /// Write the tables as Markdown (`-` = stdout), e.g. BENCHMARKS.md.
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
}

/// Parses `A..B` (inclusive) or `N` into a range of ply depths within 1..=4.
pub fn parse_ply_range(s: &str) -> std::result::Result<(u8, u8), String> {
    let bad =
        || format!("'{s}' is not a ply range: expected A..B or N with 1 <= A <= B <= {MAX_PLY}");
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (a.trim(), b.trim_start_matches('=').trim()),
        None => (s.trim(), s.trim()),
    };
    let (a, b) = (
        a.parse::<u8>().map_err(|_| bad())?,
        b.parse::<u8>().map_err(|_| bad())?,
    );
    if 1 <= a && a <= b && b as usize <= MAX_PLY {
        Ok((a, b))
    } else {
        Err(bad())
    }
}

/// The settings in order, without repeats.
fn settings(a: &BenchArgs) -> Vec<Setting> {
    let mut out: Vec<Setting> = a.select.clone();
    let ply = match (a.ply, a.select.is_empty()) {
        (Some(r), _) => Some(r),
        (None, true) => {
            out.extend([Heuristic::Scan(Along::Shape), Heuristic::Mrv(Mrv)].map(Setting::Use));
            Some((2, 4))
        }
        (None, false) => None,
    };
    if let Some((lo, hi)) = ply {
        out.extend((lo..=hi).map(|n| Setting::Use(Heuristic::Ply(PlyN { n, adj: false }))));
    }
    distinct(out)
}

pub fn run(mut a: BenchArgs) -> Result<u8> {
    let settings = settings(&a);
    let puzzles = a
        .puzzles
        .iter()
        .map(|p| read_puzzle(p, a.edge_order))
        .collect::<Result<Vec<_>>>()?;
    for p in &puzzles {
        super::check_select(settings.iter().filter_map(|s| s.fixed()), p)?;
    }
    // Every file given is an input, a left-out duplicate too (check_outputs below).
    let given = a.puzzles.clone();
    let (paths, puzzles) = once_each(std::mem::take(&mut a.puzzles), puzzles);
    a.puzzles = paths;
    let exports: Vec<(ExportFormat, &Path)> = [
        (ExportFormat::Json, &a.export_json),
        (ExportFormat::Csv, &a.export_csv),
        (ExportFormat::Markdown, &a.export_markdown),
    ]
    .into_iter()
    .filter_map(|(f, p)| p.as_deref().map(|p| (f, p)))
    .collect();
    super::one_on_stdout(&[
        (
            "--export-json -",
            super::is_stdout(a.export_json.as_deref()),
        ),
        ("--export-csv -", super::is_stdout(a.export_csv.as_deref())),
        (
            "--export-markdown -",
            super::is_stdout(a.export_markdown.as_deref()),
        ),
    ])?;
    // Per puzzle: a hinted board is searched whole (with a note).
    let symmetric: Vec<bool> = puzzles
        .iter()
        .map(|p| super::symmetry_applies(a.symmetry, p))
        .collect();
    let inputs: Vec<&Path> = given.iter().map(PathBuf::as_path).collect();
    let paths: Vec<&Path> = exports.iter().map(|&(_, p)| p).collect();
    check_outputs(&paths, &inputs)?;
    // A puzzle proven to have no solution: timing its whole tree is a benchmark, but
    // timing a search for its first solutions (`--solutions K`) times nothing.
    for (path, p) in a.puzzles.iter().zip(&puzzles) {
        if let Some(why) = super::no_solution_reason(p) {
            let file = path.display();
            if a.solutions.is_some() {
                eprintln!("plytile: {file}: {why}; --solutions would time a search for solutions that do not exist (leave it out to time the whole tree)");
                return Ok(1);
            }
            eprintln!("plytile: note: {file}: {why}");
        }
    }
    // With an export on stdout, the text for people goes to stderr.
    let to_stdout = !exports.iter().any(|(_, p)| *p == Path::new("-"));
    catch_interrupts();
    // Before the exports are first written: a refused run leaves those of an earlier
    // one as they were.
    let forecasts = forecasts(&a, &settings, &puzzles, &symmetric)?;
    let mut report = BenchReport::new(BenchConfig {
        settings: settings.clone(),
        runs: a.runs,
        warmup: a.warmup,
        threads: a.threads as usize,
        threads_used: super::threads(a.threads),
        max_solutions: a.solutions,
        max_nodes: a.limits.max_nodes,
        timeout_s: a.limits.timeout,
        symmetry: symmetric.contains(&true),
        factor: a.strategy.factor,
        move_order: a.strategy.move_order,
        command: command_line(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        cpu_features: crate::cpu::compiled_string(),
    });
    let total = (puzzles.len() * settings.len()) as u64 * (a.warmup + a.runs) as u64;
    let bar = progress_bar(total);
    let live = live::Live::start(&bar);
    let report_text = |text: &str| {
        bar.suspend(|| {
            if to_stdout {
                out!("{text}")?;
                super::flush_stdout()
            } else {
                eprint!("{text}");
                Ok(())
            }
        })
    };
    // One setting has nothing to be compared with: no summaries, no ranking.
    let compared = settings.len() > 1;
    let mut mismatch = false;
    // Puzzles benchmarked in full: the first `done`.
    let mut done = 0;
    // The exports of the first `done` puzzles. Files written while the run goes on
    // (not `last`) name the puzzles still to come, so that one left by a killed run
    // says what it lacks, from the start: else a file of an earlier run would stand
    // there, as if complete. A pipe or a device (`-` too) gets only the last.
    let write_exports = |report: &mut BenchReport, done: usize, last: bool| -> Result<()> {
        report.puzzles_not_reported = not_reported(&a.puzzles, done);
        for (f, p) in &exports {
            if last || *p != Path::new("-") && !crate::files::is_stream(p) {
                write_output(p, &f.exporter().serialize(report))?;
            }
        }
        Ok(())
    };
    write_exports(&mut report, 0, false)?;
    report_text(&preface(&a, settings.len(), puzzles.len(), &forecasts))?;
    'puzzles: for (p, ((path, puzzle), &symmetric)) in
        a.puzzles.iter().zip(&puzzles).zip(&symmetric).enumerate()
    {
        let name = path.display().to_string();
        let mut all_runs = Vec::new();
        let mut records = Vec::new();
        for (k, &h) in settings.iter().enumerate() {
            let mut runs = Vec::new();
            let predicted = forecasts
                .get(p)
                .and_then(|f| f.get(k))
                .and_then(|f| f.as_ref())
                .map(|f| guard::duration(f.run_s));
            for i in 0..a.warmup + a.runs {
                live.run(live::run_label(
                    &format!("{h} on {name}"),
                    i,
                    a.warmup,
                    a.runs,
                    (k + 1, settings.len()),
                    predicted.as_deref(),
                ));
                let limits = a.limits.limits(a.solutions, 0);
                let r = search::solve_setting(
                    puzzle,
                    h,
                    |h| a.strategy.strategy(h),
                    symmetric,
                    a.threads as usize,
                    &limits,
                    (Budget::for_timeout(a.limits.timeout), a.auto_seed),
                    &INTERRUPTED,
                );
                bar.inc(1);
                if INTERRUPTED.load(Ordering::SeqCst) {
                    // What was measured on this puzzle is kept: the settings done, and
                    // the runs done of the one cut short (its `runs` says how many).
                    if !runs.is_empty() {
                        records.push(BenchRecord::from_runs(&name, puzzle.pieces.len(), &runs));
                    }
                    report.push_unfinished_puzzle(records);
                    break 'puzzles;
                }
                // (None only when Ctrl-C stopped auto's choosing, seen above.)
                if let (true, Some(r)) = (i >= a.warmup, r) {
                    runs.push(r);
                }
            }
            let mut record = BenchRecord::from_runs(&name, puzzle.pieces.len(), &runs);
            let alike = record
                .stopped_by_run
                .iter()
                .all(|s| *s == record.stopped_by_run[0]);
            record.warnings = warnings::warnings(
                &format!("{h} on {name}"),
                &record.times_s,
                &record.nodes,
                alike,
                a.warmup,
            );
            report_text(&describe(&record))?;
            for w in &record.warnings {
                bar.suspend(|| eprintln!("plytile: warning: {w}"));
            }
            records.push(record);
            all_runs.extend(runs);
        }
        let error = count_mismatch(&all_runs);
        if let Some(e) = &error {
            bar.suspend(|| eprintln!("plytile: ERROR: {e}"));
            mismatch = true;
        }
        report.push_puzzle(records, error.is_none());
        done += 1;
        if compared {
            report_text(&summary(&report, &name))?;
        }
        write_exports(&mut report, done, false)?;
    }
    live.stop();
    bar.finish_and_clear();
    if INTERRUPTED.load(Ordering::SeqCst) {
        // The exports say they are partial, and which puzzles they leave out.
        report.interrupted = true;
    }
    if compared && report.puzzles.len() > 1 {
        report_text(&overall(&report))?;
    }
    write_exports(&mut report, done, true)?;
    if mismatch {
        eprintln!("plytile: ERROR: solution counts disagree (see above); exit code 4");
        return Ok(super::compare::EXIT_MISMATCH);
    }
    if INTERRUPTED.load(Ordering::SeqCst) {
        eprintln!(
            "plytile: interrupted; {} finished puzzle(s) reported",
            report.puzzles.len()
        );
        return Ok(3);
    }
    Ok(0)
}

/// The forecast of every setting on every puzzle ([`guard::forecast`]), by puzzle
/// then setting; `Err` with the one-line refusal of the first predicted to take more
/// than [`guard::LONG_S`]. Empty when no check is made: each run is bounded
/// (`--timeout`, `--max-nodes`) or `--allow-long` was given; cut short at a forecast
/// left out (`None`) when Ctrl-C stopped the check (the first run then stops at once).
fn forecasts(
    a: &BenchArgs,
    settings: &[Setting],
    puzzles: &[Puzzle],
    symmetric: &[bool],
) -> Result<Vec<Vec<Option<guard::Forecast>>>> {
    if a.allow_long || a.limits.timeout.is_some() || a.limits.max_nodes.is_some() {
        return Ok(Vec::new());
    }
    let threads = super::threads(a.threads);
    let start = std::time::Instant::now();
    let (mut left, mut all) = (puzzles.len() * settings.len(), Vec::new());
    for ((path, puzzle), &symmetric) in a.puzzles.iter().zip(puzzles).zip(symmetric) {
        // solve --symmetry: a quarter of a square's tree, a half of another's.
        let turns = match (symmetric, puzzle.width == puzzle.height) {
            (false, _) => 1,
            (true, true) => 4,
            (true, false) => 2,
        };
        let mut each = Vec::new();
        for &h in settings {
            // What is left of the check's time, shared by the forecasts to come.
            let rest = guard::CHECK_S - start.elapsed().as_secs_f64();
            let slice = (rest / left as f64).clamp(guard::MIN_SLICE_S, guard::SLICE_S);
            left -= 1;
            let f = match h {
                Setting::Use(h) => {
                    let strategy = a.strategy.strategy(h);
                    guard::forecast(puzzle, h, strategy, a.solutions, turns, threads, slice)
                }
                Setting::Auto => {
                    guard::forecast_auto(puzzle, a.solutions, a.auto_seed, (turns, threads), slice)
                }
            };
            let Some(f) = f else {
                each.push(None);
                all.push(each);
                return Ok(all);
            };
            let name = path.display().to_string();
            if let Some(no) = guard::refusal(h, &name, &f, a.warmup, a.runs, a.solutions) {
                return Err(crate::error::InputError::new("bench", no));
            }
            each.push(Some(f));
        }
        all.push(each);
    }
    Ok(all)
}

/// What the runs will be, said before them: the warm-up (not timed) and the timed
/// runs, and the time predicted in all when it is 10 s or more.
fn preface(
    a: &BenchArgs,
    settings: usize,
    puzzles: usize,
    forecasts: &[Vec<Option<guard::Forecast>>],
) -> String {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let warmup = match a.warmup {
        0 => "no warm-up run (--warmup 0)".to_string(),
        w => format!("{} each, not timed", plural(w as usize, "warm-up run")),
    };
    let mut s = format!(
        "Benchmarking {} on {}: {warmup}, then {}.\n",
        plural(settings, "setting"),
        plural(puzzles, "puzzle"),
        plural(a.runs as usize, "timed run"),
    );
    let each = (a.warmup + a.runs) as f64;
    let total: f64 = forecasts
        .iter()
        .flatten()
        .flatten()
        .map(|f| f.run_s * each)
        .sum();
    if total >= 10.0 {
        // With --solutions, of the whole trees: the runs may end sooner.
        let upto = if a.solutions.is_some() { "up to " } else { "" };
        s += &format!("Predicted: {upto}{} in all.\n", guard::duration(total));
    }
    s + "\n"
}

/// The puzzles given, each once: a puzzle given again, under any name (the same
/// [`crate::puzzle::fingerprint`]: size, pieces and hints), would count twice in the
/// overall ranking, so it is left out with a note, as a setting given twice is.
fn once_each(paths: Vec<PathBuf>, puzzles: Vec<Puzzle>) -> (Vec<PathBuf>, Vec<Puzzle>) {
    // The fingerprints of the kept puzzles, side by side with them.
    let mut prints = Vec::new();
    let mut kept: (Vec<PathBuf>, Vec<Puzzle>) = (Vec::new(), Vec::new());
    for (path, puzzle) in paths.into_iter().zip(puzzles) {
        let f = crate::puzzle::fingerprint(&puzzle);
        if let Some(i) = prints.iter().position(|&g| g == f) {
            eprintln!(
                "plytile: note: {} is the puzzle of {} (the same pieces and hints); benchmarking it once",
                path.display(),
                kept.0[i].display()
            );
            continue;
        }
        prints.push(f);
        kept.0.push(path);
        kept.1.push(puzzle);
    }
    kept
}

/// The puzzles after the first `done` (those benchmarked), in order: those the report
/// does not hold (yet).
fn not_reported(puzzles: &[PathBuf], done: usize) -> Vec<String> {
    puzzles[done..]
        .iter()
        .map(|p| p.display().to_string())
        .collect()
}

/// A progress bar on stderr; drawn only when stderr is a terminal.
fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} runs  {msg}",
        )
        .expect("valid template"),
    );
    if !bar.is_hidden() {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    bar
}

/// The program's arguments with the program name shortened to `plytile`, quoted for
/// a POSIX shell so that the line can be pasted back.
fn command_line() -> String {
    let args = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned());
    shell_line(std::iter::once("plytile".to_string()).chain(args))
}

/// One setting on one puzzle, hyperfine style.
fn describe(r: &BenchRecord) -> String {
    // A run that reached its goal gives the count (README); "in 1 of 4 runs" when a
    // limit stopped the others.
    let reached = r.runs - r.runs_stopped;
    let of_runs = if r.runs_stopped > 0 {
        format!(" in {reached} of {} runs", r.runs)
    } else {
        String::new()
    };
    let status = if r.exhaustive {
        format!("exhaustive, {} solutions", r.solutions_found)
    } else if r.runs_exhaustive > 0 {
        format!("exhaustive{of_runs}, {} solutions", r.solutions_found)
    } else if reached > 0 {
        // `--solutions K` reached: the run did what was asked.
        format!("to solution {}{of_runs}", r.solutions_found)
    } else {
        format!(
            "NOT exhaustive ({}), {} solutions so far",
            r.stopped_by.map(stop_text).unwrap_or("stopped"),
            r.solutions_found
        )
    };
    // What auto ran: "auto chose ply:2" (in every run), or each choice's count.
    let mut chosen: Vec<(Heuristic, usize)> = Vec::new();
    for &h in &r.chosen {
        match chosen.iter_mut().find(|(c, _)| *c == h) {
            Some((_, n)) => *n += 1,
            None => chosen.push((h, 1)),
        }
    }
    let status = match chosen.as_slice() {
        [] => status,
        [(h, _)] => format!("{status}; auto chose {h}, its time includes the choosing"),
        many => format!(
            "{status}; auto chose {}, its time includes the choosing",
            many.iter()
                .map(|(h, n)| format!("{h} in {n} of {} runs", r.chosen.len()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    // Which runs a limit stopped, and what that does to the figures.
    let stopped = r
        .stopped_runs_text()
        .map(|t| {
            format!(
                "  {t}; the figures are over all {} runs, so lower bounds\n",
                r.runs
            )
        })
        .unwrap_or_default();
    if r.runs == 1 {
        // One run has no spread: hyperfine's "abs ≡" form.
        return format!(
            "Benchmark: {} with {}  ({status})\n\
             \x20 Time (abs ≡):        {:>10}\n\
             \x20 Nodes (abs ≡):       {:>10}\n\
             \x20 Nodes/s (abs ≡):     {:>10}\n\n",
            r.puzzle,
            r.select,
            fmt_time(r.time_mean_s),
            fmt_count(r.nodes_mean),
            fmt_count(r.nodes_per_s_mean),
        );
    }
    format!(
        "Benchmark: {} with {}  ({status})\n\
         \x20 Time (mean ± σ):     {:>10} ± {:>10}\n\
         \x20 Range (min … max):   {:>10} … {:>10}    {} runs\n\
         \x20 Nodes (mean ± σ):    {:>10} ± {:>10}\n\
         \x20 Nodes/s (mean ± σ):  {:>10} ± {:>10}\n{stopped}\n",
        r.puzzle,
        r.select,
        fmt_time(r.time_mean_s),
        fmt_time_as(r.time_stddev_s, r.time_mean_s),
        fmt_time_as(r.time_min_s, r.time_mean_s),
        fmt_time_as(r.time_max_s, r.time_mean_s),
        r.runs,
        fmt_count(r.nodes_mean),
        fmt_count(r.nodes_stddev),
        fmt_count(r.nodes_per_s_mean),
        fmt_count(r.nodes_per_s_stddev),
    )
}

/// "X ran N ± s times faster than Y" for one puzzle.
fn summary(report: &BenchReport, puzzle: &str) -> String {
    let Some(p) = report.puzzles.iter().find(|p| p.puzzle == puzzle) else {
        return String::new();
    };
    let Some(fastest) = p.fastest else {
        return format!("Summary for {puzzle}\n  no setting reached its goal: no time ranking\n\n");
    };
    let mut s = format!("Summary for {puzzle}\n  {fastest} ran\n");
    for r in report.records_of(puzzle).filter(|r| r.select != fastest) {
        let ratio = fmt_ratio(r.relative_time, r.relative_time_stddev);
        s += &match rank(r.stopped_by, r.relative_time.unwrap_or(0.0), true) {
            Rank::Ranked => format!("    {ratio} times faster than {}\n", r.select),
            Rank::AtLeast(why) => format!(
                "    at least {ratio} times faster than {} ({})\n",
                r.select,
                stop_text(why)
            ),
            Rank::Unranked(why) => format!(
                "    {} not ranked: a limit stopped it sooner ({})\n",
                r.select,
                stop_text(why)
            ),
        };
    }
    s.push('\n');
    s
}

/// The ranking over all puzzles.
fn overall(report: &BenchReport) -> String {
    let n = report.puzzles.len();
    let mut s = format!(
        "Overall ({n} puzzles; geometric mean of time relative to the fastest per puzzle, \
         over the puzzles where a setting reached its goal)\n"
    );
    // "(1 of 2 puzzles)" beside the mean it qualifies, padded to keep the columns.
    let coverage: Vec<String> = report.overall.iter().map(|o| o.coverage(n)).collect();
    let w = coverage.iter().map(|c| c.len()).max().unwrap_or(0);
    for (o, c) in report.overall.iter().zip(&coverage) {
        s += &format!(
            "  {:<10} {:>8}{c:<w$}  fastest on {} of {n}\n",
            o.select.to_string(),
            fmt_ratio(o.geomean_relative_time, None),
            o.wins,
        );
    }
    s
}
