//! The schema of a `plytile bench` export ([`BenchReport`]: settings, one record per
//! puzzle and setting, summaries) and how its settings are ranked.

use super::stats::{geometric_mean, ratio, Summary};
use crate::report::{
    limit_stop, quickest, rank, reached_goal, stop_text, winner, Second, SolveResult, Standing,
};
use crate::search::auto::Setting;
use crate::search::{Heuristic, Order, Stop};
use serde::{Deserialize, Serialize};

/// The settings of a `plytile bench` run, recorded in every export.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BenchConfig {
    /// The heuristics benchmarked, in order (`--select`, then `--ply A..B`).
    pub settings: Vec<Setting>,
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
    pub select: Setting,
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
    /// Warnings about the timed runs (a cold first run, outliers, a large spread), as
    /// `bench` prints them on stderr (without the `plytile: warning: ` prefix). JSON only.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// For `auto`: the heuristic it chose in each timed run, aligned with `times_s`
    /// (its choice rests on measured rates, so a near tie may go either way); empty
    /// for the others. JSON only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chosen: Vec<Heuristic>,
}

impl BenchRecord {
    /// Summarizes the measured runs of one setting on one puzzle. Relative fields are
    /// filled in by [`BenchReport::push_puzzle`].
    pub fn from_runs(puzzle: &str, pieces: usize, runs: &[SolveResult]) -> BenchRecord {
        let last = runs.last().expect("at least one run");
        // auto's runs count their choosing.
        let times: Vec<f64> = runs.iter().map(|r| r.total_s()).collect();
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
            select: last.setting(),
            chosen: runs
                .iter()
                .filter_map(|r| r.auto.as_ref().map(|c| c.chosen))
                .collect(),
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
            warnings: Vec::new(),
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
    pub fastest: Option<Setting>,
    /// The setting with the fewest nodes among those with a run that reached its
    /// goal (`goal_nodes_mean`: a limit may have stopped its other runs); null when
    /// none has one.
    pub fewest_nodes: Option<Setting>,
}

/// One setting over all puzzles.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OverallRecord {
    pub select: Setting,
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
    fn overall_of(&self, h: Setting) -> OverallRecord {
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
