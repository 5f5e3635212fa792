//! Benchmark and comparison results: one serde schema ([`BenchReport`] for `bench`,
//! [`CompareReport`] for `compare`) and the exporters that turn them into bytes, one
//! file per format (`json.rs`, `csv.rs`, `markdown.rs`), as hyperfine's `export/`.
//! Units are in the field names (`time_mean_s`). Nothing here runs a search: the
//! commands run it and hand the finished [`SolveResult`]s over.

pub mod compare;
mod csv;
mod json;
mod markdown;
pub mod markup;
pub mod stats;

pub use compare::CompareReport;

use super::{
    limit_stop, quickest, rank, reached_goal, stop_text, winner, Second, SolveResult, Standing,
};
use crate::search::{Heuristic, Order, Stop};
use serde::{Deserialize, Serialize};
use stats::{geometric_mean, ratio, Summary};

/// The settings of a `plytile bench` run, recorded in every export.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BenchConfig {
    /// The heuristics benchmarked, in order (`--select`, then `--ply A..B`).
    pub settings: Vec<Heuristic>,
    /// Measured runs per puzzle and setting (`--runs`).
    pub runs: u32,
    /// Unmeasured runs before them (`--warmup`).
    pub warmup: u32,
    /// Threads asked for (`--threads`).
    pub threads: usize,
    /// Threads the searches actually used.
    pub threads_used: usize,
    /// Solutions after which each run stops (`--solutions`); none = all of them.
    #[serde(default)]
    pub max_solutions: Option<u64>,
    /// Node limit per run (`--max-nodes`); none = exhaustive.
    pub max_nodes: Option<u64>,
    /// Time limit per run (`--timeout`); none = exhaustive.
    pub timeout_s: Option<Second>,
    /// Runs searched the trees of `solve --symmetry` (its default `--symmetry-parts
    /// auto`; nodes are theirs): `--symmetry` was given and at least one puzzle has no
    /// hints (a hinted board is searched whole; each record's `symmetry` says which).
    #[serde(default)]
    pub symmetry: bool,
    /// `--factor on`: regions of the empty cells searched one at a time (as `solve
    /// --json`'s `factor`).
    #[serde(default)]
    pub factor: bool,
    /// `--move-order`: order of the placements at each site (as `solve --json`'s
    /// `move_order`).
    #[serde(default)]
    pub move_order: Order,
    /// The command line that produced the report (program name shortened to
    /// `plytile`), so that a table can say how to regenerate it.
    pub command: String,
    pub version: String,
    /// The CPU extensions the binary was compiled for ([`crate::cpu::compiled`]):
    /// rates from builds for different CPUs are not comparable.
    #[serde(default)]
    pub cpu_features: String,
}

/// One puzzle under one setting, summarized over its runs. This is the export schema
/// (one CSV line per record).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BenchRecord {
    /// The puzzle file as given on the command line.
    pub puzzle: String,
    pub width: usize,
    pub height: usize,
    pub pieces: usize,
    pub select: Heuristic,
    pub threads: usize,
    /// As in `solve --json`: 4 or 2 when the runs searched the trees of `--symmetry`,
    /// 1 for the whole tree (no `--symmetry`, or a board with hints).
    #[serde(default = "crate::search::outcome::one")]
    pub symmetry: u64,
    /// As in `solve --json` (`--factor on`).
    #[serde(default)]
    pub factor: bool,
    /// As in `solve --json` (`--move-order`).
    #[serde(default)]
    pub move_order: Order,
    pub runs: usize,
    /// Solutions found: the count of a run that reached its goal (every solution, or
    /// the `--solutions K` asked for) when one did, the authority (exhaustive runs all
    /// agree, else exit 4); else the most any run found before a limit stopped it, a
    /// lower bound.
    pub solutions_found: u64,
    /// True when every run searched the whole tree (`runs_exhaustive` says how many
    /// did: with one, `solutions_found` is exact).
    pub exhaustive: bool,
    /// How many of the `runs` searched the whole tree.
    #[serde(default)]
    pub runs_exhaustive: usize,
    /// Why a run stopped early (the first such run), if one did.
    pub stopped_by: Option<Stop>,
    /// The time, node and rate statistics below are over all `runs`, those a limit
    /// stopped (`runs_stopped`) included: a stopped run's time and nodes are what it
    /// took until it stopped, less than it needed, so with any such run they are lower
    /// bounds (and `rank` is not "ranked"). Dropping the stopped runs would keep only
    /// the quicker ones, a bias with no bound.
    pub time_mean_s: Second,
    pub time_stddev_s: Second,
    pub time_median_s: Second,
    pub time_min_s: Second,
    pub time_max_s: Second,
    pub nodes_mean: f64,
    pub nodes_stddev: f64,
    pub nodes_min: u64,
    pub nodes_max: u64,
    pub nodes_per_s_mean: f64,
    pub nodes_per_s_stddev: f64,
    pub nodes_per_s_min: f64,
    pub nodes_per_s_max: f64,
    /// Mean nodes of the runs that reached their goal (null when a limit stopped every
    /// run): a tree's size does not depend on the clock, so one finished run gives it
    /// (the same in every run on one thread). `fewest_nodes` and `relative_nodes` rank
    /// by it, so a setting whose finished run proved fewer nodes wins even when a limit
    /// stopped its other runs.
    #[serde(default)]
    pub goal_nodes_mean: Option<f64>,
    /// Mean time over the fastest setting's mean time on this puzzle (1 = fastest; the
    /// fastest of the settings that reached their goal, see `rank`); a lower bound when
    /// `rank` is "at least"; null when "not ranked" or a mean time is zero.
    pub relative_time: Option<f64>,
    pub relative_time_stddev: Option<f64>,
    /// Nodes over the fewest nodes on this puzzle, by the same rule, taking
    /// `goal_nodes_mean` where there is one (exact), else `nodes_mean` (then a lower
    /// bound, or null when the setting stopped sooner than the fewest finished).
    pub relative_nodes: Option<f64>,
    /// How this setting's time ranks ([`crate::report::Rank`]): "ranked" (it reached
    /// its goal), "at least" (a limit stopped it after the fastest had finished) or
    /// "not ranked" (a limit stopped it sooner, or no setting reached its goal).
    #[serde(default)]
    pub rank: Standing,
    /// Each run's time (JSON only).
    pub times_s: Vec<Second>,
    /// Each run's node count (JSON only).
    pub nodes: Vec<u64>,
    /// Each run's stop by a limit (`max_nodes`, `timeout`, `interrupted`), aligned
    /// with `times_s`; null for a run that reached its goal (every solution, or the
    /// `--solutions K` asked for). JSON only.
    #[serde(default)]
    pub stopped_by_run: Vec<Option<Stop>>,
    /// How many of the `runs` a limit stopped (the non-null `stopped_by_run`).
    #[serde(default)]
    pub runs_stopped: usize,
}

impl BenchRecord {
    /// Summarizes the measured runs of one setting on one puzzle. Relative fields are
    /// filled in by [`BenchReport::push_puzzle`].
    pub fn from_runs(puzzle: &str, pieces: usize, runs: &[SolveResult]) -> BenchRecord {
        let last = runs.last().expect("at least one run");
        let times: Vec<f64> = runs.iter().map(|r| r.elapsed_s).collect();
        let nodes: Vec<u64> = runs.iter().map(|r| r.nodes).collect();
        let nodes_f: Vec<f64> = nodes.iter().map(|&n| n as f64).collect();
        let rates: Vec<f64> = runs.iter().map(|r| r.nodes_per_s).collect();
        let stops: Vec<Option<Stop>> = runs.iter().map(|r| limit_stop(r.stopped_by)).collect();
        let (t, n, v) = (
            Summary::of(&times),
            Summary::of(&nodes_f),
            Summary::of(&rates),
        );
        // The runs that reached their goal are the authority on the count and the
        // nodes; without one, the most any run got to.
        let goal: Vec<&SolveResult> = runs.iter().filter(|r| reached_goal(r.stopped_by)).collect();
        let solutions_found = goal.first().map_or_else(
            || runs.iter().map(|r| r.solutions_found).max().unwrap_or(0),
            |r| r.solutions_found,
        );
        let goal_nodes: Vec<f64> = goal.iter().map(|r| r.nodes as f64).collect();
        BenchRecord {
            puzzle: puzzle.to_string(),
            width: last.width,
            height: last.height,
            pieces,
            select: last.select,
            threads: last.threads,
            symmetry: last.symmetry,
            factor: last.factor,
            move_order: last.move_order,
            runs: runs.len(),
            solutions_found,
            exhaustive: runs.iter().all(|r| r.exhaustive),
            runs_exhaustive: runs.iter().filter(|r| r.exhaustive).count(),
            // A limit's stop first: it says the record did not reach its goal.
            stopped_by: runs
                .iter()
                .find_map(|r| limit_stop(r.stopped_by))
                .or_else(|| runs.iter().find_map(|r| r.stopped_by)),
            time_mean_s: t.mean,
            time_stddev_s: t.stddev,
            time_median_s: t.median,
            time_min_s: t.min,
            time_max_s: t.max,
            nodes_mean: n.mean,
            nodes_stddev: n.stddev,
            nodes_min: *nodes.iter().min().unwrap(),
            nodes_max: *nodes.iter().max().unwrap(),
            nodes_per_s_mean: v.mean,
            nodes_per_s_stddev: v.stddev,
            nodes_per_s_min: v.min,
            nodes_per_s_max: v.max,
            goal_nodes_mean: (!goal_nodes.is_empty()).then(|| Summary::of(&goal_nodes).mean),
            relative_time: None,
            relative_time_stddev: None,
            relative_nodes: None,
            rank: Standing::default(),
            times_s: times,
            nodes,
            runs_stopped: stops.iter().flatten().count(),
            stopped_by_run: stops,
        }
    }

    /// The nodes `fewest_nodes` ranks by ([`Self::goal_nodes_mean`] when a run
    /// reached its goal, else the mean over all runs) and the stop that says whether
    /// they are exact: none when a run reached its goal.
    fn node_figure(&self) -> (f64, Option<Stop>) {
        match self.goal_nodes_mean {
            Some(n) => (n, None),
            None => (self.nodes_mean, self.stopped_by),
        }
    }

    /// Whether the record's relative nodes are a lower bound: no run reached its goal
    /// and a limit stopped them.
    pub fn nodes_lower_bound(&self) -> bool {
        limit_stop(self.node_figure().1).is_some()
    }

    /// "2 of 6 runs stopped: --timeout reached" (each limit with its count when they
    /// differ: "3 of 6 runs stopped: --max-nodes reached (1), --timeout reached (2)");
    /// `None` when every run reached its goal.
    pub fn stopped_runs_text(&self) -> Option<String> {
        if self.runs_stopped == 0 {
            return None;
        }
        let mut seen: Vec<(Stop, usize)> = Vec::new();
        for s in self.stopped_by_run.iter().flatten() {
            match seen.iter_mut().find(|(t, _)| t == s) {
                Some((_, n)) => *n += 1,
                None => seen.push((*s, 1)),
            }
        }
        let why = match seen.as_slice() {
            [(s, _)] => stop_text(*s).to_string(),
            _ => seen
                .iter()
                .map(|(s, n)| format!("{} ({n})", stop_text(*s)))
                .collect::<Vec<_>>()
                .join(", "),
        };
        Some(format!(
            "{} of {} runs stopped: {why}",
            self.runs_stopped, self.runs
        ))
    }
}

/// One puzzle's verdict: which setting was fastest and whether the counts agreed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PuzzleSummary {
    pub puzzle: String,
    pub width: usize,
    pub height: usize,
    /// The solution count all exhaustive runs agreed on (null if none was exhaustive
    /// or they disagree).
    pub solutions_found: Option<u64>,
    /// False when exhaustive runs found different numbers of solutions: a bug.
    pub counts_agree: bool,
    /// The setting with the smallest mean time among those that reached their goal;
    /// null when none did (a limit stopped every setting: no time ranking).
    pub fastest: Option<Heuristic>,
    /// The setting with the fewest nodes among those with a run that reached its
    /// goal (`goal_nodes_mean`: a limit may have stopped its other runs); null when
    /// none has one.
    pub fewest_nodes: Option<Heuristic>,
}

/// One setting over all puzzles.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OverallRecord {
    pub select: Heuristic,
    /// Geometric mean over the puzzles where this setting reached its goal of the
    /// time relative to the fastest setting on each (1 = fastest everywhere).
    pub geomean_relative_time: Option<f64>,
    /// Geometric mean of the nodes relative to the fewest on each of those puzzles.
    pub geomean_relative_nodes: Option<f64>,
    /// On how many puzzles this setting was the fastest.
    pub wins: usize,
    /// On how many puzzles this setting reached its goal: the geometric means are
    /// over those alone, so fewer than all puzzles means they flatter it.
    #[serde(default)]
    pub puzzles_ranked: usize,
}

impl OverallRecord {
    /// " (1 of 2 puzzles)" when the figures rest on fewer than all `puzzles`, else "".
    pub fn coverage(&self, puzzles: usize) -> String {
        if self.puzzles_ranked < puzzles {
            format!(" ({} of {puzzles} puzzles)", self.puzzles_ranked)
        } else {
            String::new()
        }
    }
}

/// Everything `plytile bench` measured so far: the export schema.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BenchReport {
    pub config: BenchConfig,
    /// One record per puzzle and setting, in run order.
    pub results: Vec<BenchRecord>,
    pub puzzles: Vec<PuzzleSummary>,
    /// One record per setting: those that reached their goal on more puzzles first,
    /// then by smallest geometric mean of relative time.
    pub overall: Vec<OverallRecord>,
    /// Ctrl-C stopped the benchmark: the report holds only the puzzles finished before
    /// it (`puzzles_not_reported` lists the others), and is partial.
    #[serde(default)]
    pub interrupted: bool,
    /// The puzzles given that the report leaves out, in order: those a Ctrl-C kept
    /// from finishing (of the one it cut short, `results` holds the settings that
    /// finished, not ranked), or, in a file written while the benchmark runs, those to
    /// come.
    #[serde(default)]
    pub puzzles_not_reported: Vec<String>,
}

/// Solution counts that differ between exhaustive runs of the same puzzle, as one
/// line naming each run's count; `None` when they agree (or none is exhaustive).
pub fn count_mismatch<'a>(runs: impl IntoIterator<Item = &'a SolveResult>) -> Option<String> {
    let exhaustive: Vec<&SolveResult> = runs.into_iter().filter(|r| r.exhaustive).collect();
    let first = exhaustive.first()?.solutions_found;
    if exhaustive.iter().all(|r| r.solutions_found == first) {
        return None;
    }
    let mut seen: Vec<(Heuristic, u64)> = Vec::new();
    for r in &exhaustive {
        if !seen.contains(&(r.select, r.solutions_found)) {
            seen.push((r.select, r.solutions_found));
        }
    }
    Some(format!(
        "exhaustive searches of {} disagree on the number of solutions: {}",
        exhaustive[0].puzzle,
        seen.iter()
            .map(|(h, n)| format!("{h} found {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

impl BenchReport {
    pub fn new(config: BenchConfig) -> BenchReport {
        BenchReport {
            config,
            results: Vec::new(),
            puzzles: Vec::new(),
            overall: Vec::new(),
            interrupted: false,
            puzzles_not_reported: Vec::new(),
        }
    }

    /// Adds the records of the settings that finished on a puzzle a Ctrl-C cut short:
    /// measured, so kept, but not ranked (the others are missing) and in no summary.
    /// The puzzle stays in `puzzles_not_reported`.
    pub fn push_unfinished_puzzle(&mut self, records: Vec<BenchRecord>) {
        self.results.extend(records.into_iter().map(|mut r| {
            r.rank = Standing::NotRanked;
            r
        }));
    }

    /// Adds one puzzle's records (one per setting), fills in their relative fields
    /// and recomputes the summaries.
    pub fn push_puzzle(&mut self, mut records: Vec<BenchRecord>, counts_agree: bool) {
        // Only settings that reached their goal are ranked by time (as in `compare`).
        let Some(fastest) = quickest(&records, |r| r.stopped_by, |r| r.time_mean_s).cloned() else {
            return;
        };
        // Nodes by the runs that reached their goal, where a setting has one.
        let node_stop = |r: &BenchRecord| r.node_figure().1;
        let node_count = |r: &BenchRecord| r.node_figure().0;
        let fewest = quickest(&records, node_stop, node_count)
            .cloned()
            .expect("non-empty");
        for r in &mut records {
            let rel = ratio(
                r.time_mean_s,
                r.time_stddev_s,
                fastest.time_mean_s,
                fastest.time_stddev_s,
            );
            let place = rank(
                r.stopped_by,
                rel.map_or(f64::NAN, |x| x.0),
                reached_goal(fastest.stopped_by),
            );
            r.relative_time = rel.and_then(|x| place.ratio(x.0));
            r.relative_time_stddev = rel.and_then(|x| place.ratio(x.1));
            r.rank = place.standing();
            let nodes = ratio(node_count(r), 0.0, node_count(&fewest), 0.0).map(|x| x.0);
            r.relative_nodes = nodes
                .and_then(|x| rank(node_stop(r), x, reached_goal(node_stop(&fewest))).ratio(x));
        }
        // A record with an exhaustive run has that run's exact count.
        let agreed = records
            .iter()
            .find(|r| r.runs_exhaustive > 0)
            .map(|r| r.solutions_found)
            .filter(|_| counts_agree);
        self.puzzles.push(PuzzleSummary {
            puzzle: fastest.puzzle.clone(),
            width: fastest.width,
            height: fastest.height,
            solutions_found: agreed,
            counts_agree,
            fastest: winner(&records, |r| r.stopped_by, |r| r.time_mean_s).map(|r| r.select),
            fewest_nodes: winner(&records, node_stop, node_count).map(|r| r.select),
        });
        self.results.extend(records);
        self.overall = self
            .config
            .settings
            .iter()
            .map(|&h| self.overall_of(h))
            .collect();
        // A setting that reached its goal on more puzzles first: a geometric mean over
        // fewer puzzles leaves out the ones where a limit stopped it.
        self.overall.sort_by(|a, b| {
            let mean = |o: &OverallRecord| o.geomean_relative_time.unwrap_or(f64::INFINITY);
            b.puzzles_ranked
                .cmp(&a.puzzles_ranked)
                .then(mean(a).total_cmp(&mean(b)))
        });
    }

    /// Setting `h` over the puzzles so far.
    fn overall_of(&self, h: Heuristic) -> OverallRecord {
        let ranked = || {
            self.results
                .iter()
                .filter(move |r| r.select == h && reached_goal(r.stopped_by))
        };
        OverallRecord {
            select: h,
            geomean_relative_time: geometric_mean(ranked().filter_map(|r| r.relative_time)),
            geomean_relative_nodes: geometric_mean(ranked().filter_map(|r| r.relative_nodes)),
            // A puzzle where no setting reached its goal has no winner.
            wins: self.puzzles.iter().filter(|p| p.fastest == Some(h)).count(),
            puzzles_ranked: ranked().count(),
        }
    }

    /// The records of one puzzle (consecutive, in setting order).
    pub fn records_of<'a>(&'a self, puzzle: &'a str) -> impl Iterator<Item = &'a BenchRecord> {
        self.results.iter().filter(move |r| r.puzzle == puzzle)
    }
}

/// An export format: turns a report into the bytes of a file.
pub trait Exporter {
    fn serialize(&self, report: &BenchReport) -> String;
}

/// The export formats, as named by the `--export-*` flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Json,
    Csv,
    Markdown,
}

impl ExportFormat {
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            ExportFormat::Json => Box::new(json::JsonExporter),
            ExportFormat::Csv => Box::new(csv::CsvExporter),
            ExportFormat::Markdown => Box::new(markdown::MarkdownExporter),
        }
    }
}

/// Formats a time in seconds for people: µs below a millisecond, ms below a second,
/// else s (as hyperfine, so that a fast run does not read "0.0 ms").
pub fn fmt_time(s: Second) -> String {
    fmt_time_as(s, s)
}

/// Formats `x` seconds in the unit [`fmt_time`] takes for `like`: a mean's σ and
/// range in the mean's unit, as hyperfine prints them.
pub fn fmt_time_as(x: Second, like: Second) -> String {
    let (scale, unit, decimals) = if like < 1e-3 {
        (1e6, "µs", 1)
    } else if like < 1.0 {
        (1e3, "ms", 1)
    } else {
        (1.0, "s", 3)
    };
    format!("{:.decimals$} {unit}", x * scale)
}

/// Formats seconds to 3 significant digits (at most 6 decimals), and a spread `sd`
/// to the same decimals, for tables with a `[s]` header.
pub fn fmt_secs(x: Second, sd: Option<Second>) -> String {
    let decimals = if x > 0.0 {
        (2 - x.log10().floor() as i32).clamp(0, 6) as usize
    } else {
        3
    };
    match sd {
        Some(sd) => format!("{x:.decimals$} ± {sd:.decimals$}"),
        None => format!("{x:.decimals$}"),
    }
}

/// Formats a count or a rate for people: exact below a million, else 3 significant
/// digits in e-notation.
pub fn fmt_count(x: f64) -> String {
    if x.abs() < 1e6 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.2e}")
    }
}

/// `r ± σ` as a factor, or `n/a` for an undefined ratio.
pub fn fmt_ratio(r: Option<f64>, sd: Option<f64>) -> String {
    match (r, sd) {
        (Some(r), Some(sd)) if sd > 0.0 => format!("{r:.2} ± {sd:.2}"),
        (Some(r), _) => format!("{r:.2}"),
        _ => "n/a".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::formats::{read_puzzle, EdgeOrder};
    use crate::search::{solve, Limits};
    use std::sync::atomic::AtomicBool;

    fn run(h: &str) -> SolveResult {
        let path = format!(
            "{}/puzzles/brendan/pieces_04x03.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let p = read_puzzle(std::path::Path::new(&path), EdgeOrder::Urdl).unwrap();
        solve(
            &p,
            h.parse::<crate::search::Heuristic>().unwrap(),
            &Limits::default(),
            &AtomicBool::new(false),
        )
    }

    #[test]
    fn mismatch_is_named_only_when_exhaustive_counts_differ() {
        let (a, b) = (run("scan"), run("mrv"));
        assert_eq!(a.solutions_found, 32);
        assert_eq!(count_mismatch([&a, &b]), None);
        let mut bad = b.clone();
        bad.solutions_found = 31;
        let msg = count_mismatch([&a, &bad]).unwrap();
        assert!(
            msg.contains("scan found 32") && msg.contains("mrv found 31"),
            "{msg}"
        );
        bad.exhaustive = false;
        assert_eq!(count_mismatch([&a, &bad]), None);
    }

    /// A report on scan and mrv, with no limits.
    fn scan_mrv_report() -> BenchReport {
        BenchReport::new(BenchConfig {
            settings: vec!["scan".parse().unwrap(), "mrv".parse().unwrap()],
            runs: 2,
            warmup: 0,
            threads: 1,
            threads_used: 1,
            max_solutions: None,
            max_nodes: None,
            timeout_s: None,
            symmetry: false,
            factor: false,
            move_order: Order::Natural,
            command: String::new(),
            version: "test".into(),
            cpu_features: "avx2".into(),
        })
    }

    /// One run of `h` on puzzle `name`, as if it took `time_s`, stopped as `stop` says.
    fn record(name: &str, h: &str, time_s: f64, stop: Option<Stop>) -> BenchRecord {
        let mut r = BenchRecord::from_runs(name, 12, &[run(h)]);
        r.time_mean_s = time_s;
        r.stopped_by = stop;
        r.exhaustive = stop.is_none();
        r.stopped_by_run = vec![limit_stop(stop)];
        r.runs_stopped = usize::from(limit_stop(stop).is_some());
        if limit_stop(stop).is_some() {
            r.goal_nodes_mean = None;
        }
        r.runs_exhaustive = usize::from(stop.is_none());
        r
    }

    #[test]
    fn a_setting_stopped_on_a_puzzle_ranks_after_one_that_finished_everywhere() {
        let mut report = scan_mrv_report();
        report.push_puzzle(
            vec![
                record("a", "scan", 2.0, None),
                record("a", "mrv", 1.0, None),
            ],
            true,
        );
        // mrv is quicker where it finished, but a timeout stopped it on b.
        let timed_out = Some(Stop::Timeout);
        report.push_puzzle(
            vec![
                record("b", "scan", 2.0, None),
                record("b", "mrv", 0.5, timed_out),
            ],
            true,
        );
        let order: Vec<(String, usize)> = report
            .overall
            .iter()
            .map(|o| (o.select.to_string(), o.puzzles_ranked))
            .collect();
        assert_eq!(order, [("scan".into(), 2), ("mrv".into(), 1)]);
        assert_eq!(report.overall[1].geomean_relative_time, Some(1.0));
        assert_eq!(report.overall[0].coverage(2), "");
        assert_eq!(report.overall[1].coverage(2), " (1 of 2 puzzles)");
        let md = ExportFormat::Markdown.exporter().serialize(&report);
        let mrv_row = md.lines().rfind(|l| l.starts_with("| mrv ")).unwrap();
        assert!(mrv_row.contains(" 1.00 (1 of 2 puzzles) |"), "{md}");
    }

    #[test]
    fn markdown_marks_only_runs_a_limit_stopped() {
        let mut report = scan_mrv_report();
        let (goal, limit) = (Some(Stop::Solutions), Some(Stop::MaxNodes));
        report.push_puzzle(
            vec![
                record("a", "scan", 2.0, limit),
                record("a", "mrv", 1.0, goal),
            ],
            true,
        );
        let md = ExportFormat::Markdown.exporter().serialize(&report);
        let row = |h: &str| md.lines().find(|l| l.contains(&format!("| {h} "))).unwrap();
        assert!(
            row("scan").contains(" 32 (stopped: --max-nodes reached) |"),
            "{md}"
        );
        assert!(!row("mrv").contains("stopped"), "{md}");
        // The stopped run's relative nodes are a lower bound too.
        let last = |h: &str| {
            row(h)
                .trim_end_matches(['|', ' '])
                .rsplit('|')
                .next()
                .unwrap()
                .trim()
                .to_string()
        };
        assert!(last("scan").starts_with("≥ "), "{md}");
        assert!(!last("mrv").contains('≥'), "{md}");
    }

    #[test]
    fn report_ranks_settings_and_every_format_serializes() {
        let mut report = scan_mrv_report();
        let scan = BenchRecord::from_runs("p.txt", 12, &[run("scan"), run("scan")]);
        let mrv = BenchRecord::from_runs("p.txt", 12, &[run("mrv"), run("mrv")]);
        assert_eq!(scan.nodes_stddev, 0.0);
        report.push_puzzle(vec![scan, mrv], true);
        assert_eq!(report.puzzles[0].solutions_found, Some(32));
        assert_eq!(report.overall.len(), 2);
        assert_eq!(report.overall[0].geomean_relative_time, Some(1.0));
        assert!(report.results.iter().any(|r| r.relative_time == Some(1.0)));
        let json = ExportFormat::Json.exporter().serialize(&report);
        let back: BenchReport = serde_json::from_str(&json).unwrap();
        assert_eq!(back.results.len(), 2);
        let csv = ExportFormat::Csv.exporter().serialize(&report);
        assert_eq!(csv.lines().count(), 3);
        let md = ExportFormat::Markdown.exporter().serialize(&report);
        assert!(md.contains("| p "), "{md}");
        assert!(md.contains("Built for a CPU with avx2.\n"), "{md}");
    }

    /// Runs of one setting that stopped differently (a timeout stops some runs and not
    /// others): each run's stop, their count, and the words of the text and Markdown.
    #[test]
    fn records_say_which_runs_a_limit_stopped() {
        let stopped = |stop: Option<Stop>| {
            let mut r = run("scan");
            r.stopped_by = stop;
            r.exhaustive = stop.is_none();
            r
        };
        let runs = [
            stopped(Some(Stop::Timeout)),
            stopped(None),
            stopped(Some(Stop::Timeout)),
            stopped(None),
        ];
        let r = BenchRecord::from_runs("p", 12, &runs);
        assert_eq!(
            r.stopped_by_run,
            [Some(Stop::Timeout), None, Some(Stop::Timeout), None]
        );
        assert_eq!(
            (r.runs_stopped, r.stopped_by, r.exhaustive),
            (2, Some(Stop::Timeout), false)
        );
        assert_eq!(
            r.stopped_runs_text().as_deref(),
            Some("2 of 4 runs stopped: --timeout reached")
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(
            v["stopped_by_run"],
            serde_json::json!(["timeout", null, "timeout", null])
        );
        // Two limits, each with its count; a run that reached its --solutions goal is
        // not stopped.
        let mixed = [
            stopped(Some(Stop::MaxNodes)),
            stopped(Some(Stop::Solutions)),
            stopped(Some(Stop::Timeout)),
        ];
        let m = BenchRecord::from_runs("p", 12, &mixed);
        assert_eq!(
            m.stopped_by_run,
            [Some(Stop::MaxNodes), None, Some(Stop::Timeout)]
        );
        assert_eq!(
            m.stopped_runs_text().as_deref(),
            Some("2 of 3 runs stopped: --max-nodes reached (1), --timeout reached (1)")
        );
        let done = BenchRecord::from_runs("p", 12, &[stopped(None)]);
        assert_eq!((done.runs_stopped, done.stopped_runs_text()), (0, None));
        let mut report = scan_mrv_report();
        report.push_puzzle(vec![r], true);
        let csv = ExportFormat::Csv.exporter().serialize(&report);
        // runs_stopped, runs_exhaustive, goal_nodes_mean (the two that finished), and
        // the report not interrupted.
        let row = csv.lines().nth(1).unwrap();
        assert!(row.ends_with(",natural,2,2,727.0,false"), "{csv}");
        let md = ExportFormat::Markdown.exporter().serialize(&report);
        assert!(
            md.contains("| 32 (2 of 4 runs stopped: --timeout reached) |"),
            "{md}"
        );
    }

    /// A run that reached its goal is the authority on a setting's count and nodes:
    /// "3 solutions so far" of a stopped last run does not hide the 32 a finished run
    /// proved, and its nodes win `fewest_nodes` although a limit stopped another run.
    #[test]
    fn a_finished_run_gives_the_count_and_the_nodes() {
        let exact = run("scan");
        let mut stopped = exact.clone();
        stopped.stopped_by = Some(Stop::Timeout);
        stopped.exhaustive = false;
        stopped.solutions_found = 3;
        stopped.nodes = 10;
        let scan = BenchRecord::from_runs("p", 12, &[exact.clone(), stopped.clone()]);
        assert_eq!(scan.solutions_found, 32);
        assert_eq!((scan.exhaustive, scan.runs_exhaustive), (false, 1));
        assert_eq!(scan.goal_nodes_mean, Some(exact.nodes as f64));
        assert_eq!(scan.stopped_by, Some(Stop::Timeout));
        // No run finished: the most any run found, and no exact nodes.
        let mut fewer = stopped.clone();
        fewer.solutions_found = 1;
        let none = BenchRecord::from_runs("p", 12, &[stopped.clone(), fewer]);
        assert_eq!((none.solutions_found, none.runs_exhaustive), (3, 0));
        assert_eq!(none.goal_nodes_mean, None);
        // mrv finished every run with more nodes: scan's finished run has fewer.
        let mut more = run("mrv");
        more.nodes = exact.nodes + 100;
        let mrv = BenchRecord::from_runs("p", 12, &[more.clone(), more]);
        let mut report = scan_mrv_report();
        report.push_puzzle(vec![scan, mrv], true);
        let p = &report.puzzles[0];
        assert_eq!(p.fewest_nodes, Some("scan".parse().unwrap()));
        assert_eq!(p.fastest, Some("mrv".parse().unwrap()));
        assert_eq!(p.solutions_found, Some(32));
        assert_eq!(report.results[0].relative_nodes, Some(1.0));
        assert!(!report.results[0].nodes_lower_bound());
        let md = ExportFormat::Markdown.exporter().serialize(&report);
        let row = md.lines().find(|l| l.contains("| scan ")).unwrap();
        assert!(
            row.trim_end().ends_with(" 1.00 |") && !row.contains("≥ 1.00"),
            "{md}"
        );
    }

    /// The Markdown's "best ply:N" is the fastest ply setting that is ranked, never one
    /// a limit stopped sooner; a ratio that is a lower bound says "≥".
    #[test]
    fn best_ply_names_a_ranked_setting_and_marks_lower_bounds() {
        let ply_report = |settings: &[&str]| {
            let mut r = scan_mrv_report();
            r.config.settings = settings.iter().map(|h| h.parse().unwrap()).collect();
            r
        };
        let best = |report: &BenchReport| {
            let md = ExportFormat::Markdown.exporter().serialize(report);
            let row = md
                .lines()
                .skip_while(|l| !l.starts_with("## Best setting"))
                .find(|l| l.starts_with("| a "))
                .unwrap()
                .to_string();
            row.trim_end_matches(['|', ' '])
                .rsplit('|')
                .next()
                .unwrap()
                .trim()
                .to_string()
        };
        // ply:2 was stopped sooner (quicker, not ranked); ply:3 finished.
        let mut report = ply_report(&["ply:2", "ply:3"]);
        report.push_puzzle(
            vec![
                record("a", "ply:2", 0.5, Some(Stop::MaxNodes)),
                record("a", "ply:3", 1.0, None),
            ],
            true,
        );
        assert_eq!(best(&report), "ply:3 (1.00x)");
        // Only an "at least" ply setting: its ratio is a lower bound.
        let mut report = ply_report(&["scan", "ply:2"]);
        report.push_puzzle(
            vec![
                record("a", "scan", 1.0, None),
                record("a", "ply:2", 30.0, Some(Stop::Timeout)),
            ],
            true,
        );
        assert_eq!(best(&report), "ply:2 (≥ 30.00x)");
        // Every ply setting stopped sooner: none is named.
        let mut report = ply_report(&["scan", "ply:2"]);
        report.push_puzzle(
            vec![
                record("a", "scan", 1.0, None),
                record("a", "ply:2", 0.5, Some(Stop::Timeout)),
            ],
            true,
        );
        assert_eq!(best(&report), "none reached its goal");
    }

    /// An interrupted report says so in every format: the JSON's `interrupted` and
    /// `puzzles_not_reported`, a line at the top of the Markdown, the CSV's last
    /// column; one written while the run goes on names the puzzles to come.
    #[test]
    fn an_interrupted_report_says_it_is_partial_in_every_format() {
        let mut report = scan_mrv_report();
        report.push_puzzle(
            vec![
                record("a.txt", "scan", 2.0, None),
                record("a.txt", "mrv", 1.0, None),
            ],
            true,
        );
        let csv = ExportFormat::Csv.exporter().serialize(&report);
        assert!(
            csv.lines().next().unwrap().ends_with(",interrupted"),
            "{csv}"
        );
        assert!(csv.lines().skip(1).all(|l| l.ends_with(",false")), "{csv}");
        let md = ExportFormat::Markdown.exporter().serialize(&report);
        assert!(
            !md.contains("Interrupted") && !md.contains("Partial"),
            "{md}"
        );
        report.puzzles_not_reported = vec!["b.txt".into()];
        let md = ExportFormat::Markdown.exporter().serialize(&report);
        assert!(
            md.contains(
                "**Partial results: written while the benchmark runs.** Not reported: `b.txt`.\n"
            ),
            "{md}"
        );
        report.interrupted = true;
        let md = ExportFormat::Markdown.exporter().serialize(&report);
        assert!(
            md.contains(
                "**Interrupted (Ctrl-C or SIGTERM): partial results.** Not reported: `b.txt`.\n"
            ),
            "{md}"
        );
        let csv = ExportFormat::Csv.exporter().serialize(&report);
        assert!(csv.lines().skip(1).all(|l| l.ends_with(",true")), "{csv}");
        let v: serde_json::Value =
            serde_json::from_str(&ExportFormat::Json.exporter().serialize(&report)).unwrap();
        assert_eq!(v["interrupted"], true);
        assert_eq!(v["puzzles_not_reported"], serde_json::json!(["b.txt"]));
    }

    #[test]
    fn times_for_people_take_a_unit_that_shows_them() {
        assert_eq!(fmt_time(0.000_040_4), "40.4 µs");
        assert_eq!(fmt_time(0.0), "0.0 µs");
        assert_eq!(fmt_time(0.0123), "12.3 ms");
        assert_eq!(fmt_time(2.5), "2.500 s");
        // σ and range in the mean's unit.
        assert_eq!(fmt_time_as(0.000_002_1, 0.0004), "2.1 µs");
        assert_eq!(fmt_time_as(0.0012, 0.0004), "1200.0 µs");
    }

    #[test]
    fn seconds_keep_three_significant_digits() {
        assert_eq!(fmt_secs(0.000404, Some(0.00003)), "0.000404 ± 0.000030");
        assert_eq!(fmt_secs(32.31, None), "32.3");
        assert_eq!(fmt_secs(1.5, None), "1.50");
        assert_eq!(fmt_secs(0.0, None), "0.000");
    }
}
