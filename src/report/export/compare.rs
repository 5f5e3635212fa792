//! `plytile compare`: several heuristics on one puzzle under the same limits. The
//! schema is [`CompareReport`] (`results` holds `solve --json` objects); the tables and
//! the growth plot are built from it.

use super::csv::cell;
use super::markdown::{limit_flags, strategy_text};
use super::markup::Table;
use super::{count_mismatch, fmt_count};
use crate::report::plot::{growth_svg, Series};
use crate::report::{
    limit_stop, quickest, rank, reached_goal, stop_text, winner, Second, SolveResult, Standing,
};
use crate::search::auto::Setting;
use serde::{Deserialize, Serialize};

/// The limits every heuristic ran under.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareLimits {
    /// `--all`: every solution (else stop at the first).
    pub all: bool,
    pub max_nodes: Option<u64>,
    /// Per heuristic.
    pub timeout_s: Option<Second>,
}

/// One heuristic's run: its `solve --json` object, with how it ranks against the
/// others (as the table's `rank`, `relative_time` and `relative_nodes` columns and
/// `bench`'s records).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareResult {
    #[serde(flatten)]
    pub run: SolveResult,
    /// How its time ranks ([`crate::report::Rank`]): "ranked" (it reached its goal),
    /// "at least" (a limit stopped it after the fastest had finished) or "not ranked"
    /// (a limit stopped it sooner, or no run reached its goal).
    pub rank: Standing,
    /// Its time over the fastest run's (1 = fastest); a lower bound when `rank` is
    /// "at least"; null when "not ranked" or the fastest took no measurable time.
    pub relative_time: Option<f64>,
    /// Its nodes over the fewest nodes, by the same rule (a lower bound for a run a
    /// limit stopped after the one with the fewest had finished).
    pub relative_nodes: Option<f64>,
}

/// The result of `plytile compare --json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareReport {
    pub puzzle: String,
    pub width: usize,
    pub height: usize,
    pub limits: CompareLimits,
    /// One `solve --json` object per heuristic, in `--select` order, with its `rank`,
    /// `relative_time` and `relative_nodes`.
    pub results: Vec<CompareResult>,
    /// The smallest time among the runs that reached their goal (every solution, or
    /// the first; see [`crate::report::reached_goal`]); null when none did (no time
    /// ranking). By the same rule, the smallest node count.
    pub fastest: Option<Setting>,
    pub fewest_nodes: Option<Setting>,
    /// False when every run was exhaustive and the solution counts differ (a bug;
    /// exit code 4). True otherwise.
    pub counts_agree: bool,
    /// The disagreement, as one line, when there is one.
    pub error: Option<String>,
    pub version: String,
    /// Ctrl-C stopped the comparison: the run it cut short says so (`stopped_by`
    /// "interrupted") and the heuristics after it were not started (`not_run`).
    #[serde(default)]
    pub interrupted: bool,
    /// The `--select` heuristics a Ctrl-C kept from starting, in order; they have no
    /// entry in `results`.
    #[serde(default)]
    pub not_run: Vec<Setting>,
    /// The heuristic to use: the fastest (`fastest`), or when no run reached its goal
    /// the one that placed the most pieces (`deepest.depth`). See `recommendation`.
    #[serde(default)]
    pub recommended: Option<Setting>,
    /// The last line of the text report, saying what to use and by how much it beat
    /// the others: `use ply:2: 3.1x faster than mrv, 131x faster than scan`.
    #[serde(default)]
    pub recommendation: Option<String>,
}

impl CompareReport {
    /// Collects finished runs (at least one).
    pub fn new(limits: CompareLimits, results: Vec<SolveResult>) -> CompareReport {
        // A run cut short by a limit did less work, not the same work faster.
        // auto's time counts its choosing.
        let time = |r: &SolveResult| r.total_s();
        let nodes = |r: &SolveResult| r.nodes as f64;
        let stop = |r: &SolveResult| r.stopped_by;
        let bt = quickest(&results, stop, time).expect("at least one run");
        let bn = quickest(&results, stop, nodes).expect("at least one run");
        // Ratios as `rank` says: a lower bound ("at least"), or none ("not ranked").
        let relative = |r: &SolveResult, by: &dyn Fn(&SolveResult) -> f64, b: &SolveResult| {
            let x = (by(b) > 0.0).then(|| by(r) / by(b));
            let place = rank(r.stopped_by, x.unwrap_or(1.0), reached_goal(b.stopped_by));
            (place.standing(), x.and_then(|x| place.ratio(x)))
        };
        let ranked: Vec<CompareResult> = results
            .iter()
            .map(|r| {
                let (place, relative_time) = relative(r, &time, bt);
                CompareResult {
                    run: r.clone(),
                    rank: place,
                    relative_time,
                    relative_nodes: relative(r, &nodes, bn).1,
                }
            })
            .collect();
        let error = if results.iter().all(|r| r.exhaustive) {
            count_mismatch(&results)
        } else {
            None
        };
        CompareReport {
            puzzle: bt.puzzle.clone(),
            width: bt.width,
            height: bt.height,
            limits,
            fastest: winner(&results, stop, time).map(|r| r.setting()),
            fewest_nodes: winner(&results, stop, nodes).map(|r| r.setting()),
            counts_agree: error.is_none(),
            error,
            version: env!("CARGO_PKG_VERSION").to_string(),
            results: ranked,
            interrupted: false,
            not_run: Vec::new(),
            recommended: None,
            recommendation: None,
        }
    }

    /// Fills in `recommended` and `recommendation` (after `not_run`): the fastest run
    /// that reached its goal, with its speed against each other run, nearest first
    /// (`at least` against one a limit stopped later, "not ranked" for one it stopped
    /// sooner); when none did, the one that placed the most pieces of `free_cells`
    /// (a tie goes to the one with more nodes at that depth, then to the first).
    pub fn recommend(&mut self, free_cells: usize) {
        let (h, line) = match self.fastest {
            Some(f) => (f, self.fastest_line(f)),
            None => {
                let at = |r: &SolveResult| {
                    let d = r.deepest.depth;
                    (d, r.nodes_per_depth.get(d).copied().unwrap_or(0))
                };
                // max_by_key keeps the last of equals: take the first instead.
                let best = (self.results.iter().rev())
                    .map(|c| &c.run)
                    .max_by_key(|r| at(r))
                    .expect("at least one run");
                let others: Vec<String> = (self.runs())
                    .filter(|r| r.setting() != best.setting())
                    .map(|r| format!("{} {}", r.label(), r.deepest.depth))
                    .collect();
                let stop = self.runs().find_map(|r| limit_stop(r.stopped_by));
                let mut line = format!(
                    "use {}: no run reached its goal ({}); it placed the most pieces, {} of {free_cells}",
                    best.label(),
                    stop.map_or("stopped", stop_text),
                    best.deepest.depth
                );
                if !others.is_empty() {
                    line += &format!(" ({})", others.join(", "));
                }
                (best.setting(), line)
            }
        };
        let mut line: String = line;
        if !self.not_run.is_empty() {
            line += &format!(
                "; not run: {}",
                self.not_run
                    .iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        self.recommended = Some(h);
        self.recommendation = Some(line);
    }

    /// [`Self::recommend`]'s line when `f` is the fastest.
    fn fastest_line(&self, f: Setting) -> String {
        let others: Vec<&CompareResult> = (self.results.iter())
            .filter(|c| c.run.setting() != f)
            .collect();
        // auto named with its choice.
        let f = (self.runs().find(|r| r.setting() == f)).map_or(f.to_string(), |r| r.label());
        if others.is_empty() {
            return format!("use {f}: the only heuristic compared");
        }
        let mut ranked: Vec<&&CompareResult> = others
            .iter()
            .filter(|c| c.relative_time.is_some())
            .collect();
        if ranked.is_empty() && others.iter().all(|c| c.rank != Standing::NotRanked) {
            return format!("use {f}: it took no measurable time");
        }
        ranked.sort_by(|a, b| {
            a.relative_time
                .unwrap()
                .total_cmp(&b.relative_time.unwrap())
        });
        let x = |r: f64| {
            if r < 10.0 {
                format!("{r:.1}x")
            } else {
                format!("{r:.0}x")
            }
        };
        let mut parts: Vec<String> = ranked
            .iter()
            .map(|c| {
                let r = c.relative_time.unwrap();
                match limit_stop(c.run.stopped_by) {
                    Some(why) if c.rank == Standing::AtLeast => format!(
                        "at least {} faster than {} ({})",
                        x(r),
                        c.run.label(),
                        stop_text(why)
                    ),
                    _ => format!("{} faster than {}", x(r), c.run.label()),
                }
            })
            .collect();
        parts.extend((others.iter()).filter(|c| c.relative_time.is_none()).map(
            |c| match limit_stop(c.run.stopped_by) {
                Some(why) => format!(
                    "{} not ranked (stopped sooner: {})",
                    c.run.label(),
                    stop_text(why)
                ),
                None => format!("{} not ranked", c.run.label()),
            },
        ));
        format!("use {f}: {}", parts.join(", "))
    }

    /// The `solve --json` objects, in `--select` order.
    pub fn runs(&self) -> impl Iterator<Item = &SolveResult> {
        self.results.iter().map(|r| &r.run)
    }

    /// The settings that change the counts, as a Markdown line (as `bench`'s): the
    /// puzzle, the goal, the trees searched, the strategy and the limits.
    pub fn settings_line(&self) -> String {
        let first = &self.results[0].run;
        let mut s = format!(
            "Puzzle `{}` ({}x{}): {}; ",
            self.puzzle,
            self.width,
            self.height,
            if self.limits.all {
                "all solutions"
            } else {
                "first solution"
            }
        );
        s += &match first.symmetry {
            1 => "the whole tree; ".to_string(),
            k => format!("the trees of `solve --symmetry` (symmetry {k}); "),
        };
        s += &strategy_text(first.factor, first.move_order);
        let flags = limit_flags(None, self.limits.max_nodes, self.limits.timeout_s);
        if !flags.is_empty() {
            s += &format!("; limits: {flags}");
        }
        if self.interrupted {
            s += "; **interrupted** (Ctrl-C or SIGTERM): partial";
        }
        s + ".\n"
    }

    /// One row per heuristic. Cells are plain numbers, so the same table serves the
    /// terminal, Markdown and CSV.
    pub fn table(&self) -> Table {
        let mut t = Table::new(&[
            "select",
            ">solutions",
            "exhaustive",
            ">nodes",
            ">time_s",
            ">nodes_per_s",
            ">relative_nodes",
            ">relative_time",
            "rank",
        ]);
        // Empty where the rank gives no ratio, n/a where the best took no time.
        let ratio = |x: Option<f64>, place: Standing| match (x, place) {
            (Some(x), _) => format!("{x:.3}"),
            (None, Standing::NotRanked) => String::new(),
            (None, _) => "n/a".to_string(),
        };
        for c in &self.results {
            let r = &c.run;
            t.push(vec![
                r.label(),
                r.solutions_found.to_string(),
                match r.stopped_by {
                    None => "yes".to_string(),
                    Some(s) => format!(
                        "no ({})",
                        serde_json::to_value(s).unwrap().as_str().unwrap_or("")
                    ),
                },
                r.nodes.to_string(),
                format!("{:.6}", r.total_s()),
                format!("{:.0}", r.nodes_per_s),
                ratio(c.relative_nodes, Standing::NotRanked),
                ratio(c.relative_time, c.rank),
                c.rank.to_string(),
            ]);
        }
        // The heuristics a Ctrl-C kept from starting: named, with no figures.
        for h in &self.not_run {
            let mut row = vec![String::new(); t.header.len()];
            row[0] = h.to_string();
            row[2] = NOT_RUN.to_string();
            row[8] = Standing::NotRanked.to_string();
            t.push(row);
        }
        t
    }

    /// [`Self::table`] with the columns a script needs to read one line alone, as
    /// `bench`'s CSV has them: added at the end, so that the columns before keep their
    /// places. Cells are the JSON values (`stopped_by` as `solve --json` gives it,
    /// empty for an exhaustive run).
    pub fn csv_table(&self) -> Table {
        const MORE: [&str; 5] = ["puzzle", "stopped_by", "symmetry", "factor", "move_order"];
        let mut t = self.table();
        t.header.extend(MORE.map(String::from));
        t.align.extend(MORE.map(|_| super::markup::Align::Left));
        for (row, r) in t.rows.iter_mut().zip(self.runs()) {
            let v = serde_json::to_value(r).expect("results serialize");
            row.extend(MORE.iter().map(|c| cell(&v[*c])));
        }
        // A row of a heuristic not run: the puzzle, and the interrupt as its stop.
        let first = serde_json::to_value(&self.results[0].run).expect("results serialize");
        for row in t.rows.iter_mut().skip(self.results.len()) {
            row.push(self.puzzle.clone());
            row.push("interrupted".to_string());
            row.extend(MORE[2..].iter().map(|c| cell(&first[*c])));
        }
        t
    }

    /// Nodes per depth, one column per heuristic.
    pub fn growth_table(&self) -> Table {
        let mut cols = vec![">depth".to_string()];
        cols.extend(self.runs().map(|r| format!(">{}", r.label())));
        let cols: Vec<&str> = cols.iter().map(|c| c.as_str()).collect();
        let mut t = Table::new(&cols);
        let depths = self
            .runs()
            .map(|r| r.nodes_per_depth.len())
            .max()
            .unwrap_or(0);
        for d in 0..depths {
            let mut row = vec![d.to_string()];
            row.extend(self.runs().map(|r| {
                r.nodes_per_depth
                    .get(d)
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            }));
            t.push(row);
        }
        t
    }

    /// Lines like `mrv ran 4.80 times faster than ply:2`, fastest first; "at least"
    /// against a run a limit stopped, and no ranking when every run was stopped.
    pub fn speed_lines(&self) -> Vec<String> {
        let mut lines = self.ranking_lines();
        if !self.not_run.is_empty() {
            lines.push(format!(
                "interrupted (Ctrl-C or SIGTERM): {} not run",
                self.not_run
                    .iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        lines
    }

    /// [`Self::speed_lines`] of the runs made.
    fn ranking_lines(&self) -> Vec<String> {
        let Some(f) = self
            .fastest
            .and_then(|h| self.runs().find(|r| r.setting() == h))
        else {
            let first = self.runs().find_map(|r| limit_stop(r.stopped_by));
            return vec![format!(
                "no run reached its goal ({}): times do not rank them; the nodes are \
                 what each searched before it stopped",
                first.map_or("stopped", stop_text)
            )];
        };
        if f.total_s() <= 0.0 {
            return vec![format!("{} took no measurable time", f.label())];
        }
        self.results
            .iter()
            .filter(|c| c.run.setting() != f.setting())
            .map(|c| {
                let r = &c.run;
                let nodes = format!(
                    "{} nodes = {}x {}'s",
                    fmt_count(r.nodes as f64),
                    rel(r.nodes as f64, f.nodes as f64),
                    f.label()
                );
                // The fastest took measurable time: every ranked run has its ratio.
                let x = c.relative_time.unwrap_or(f64::NAN);
                match (c.rank, limit_stop(r.stopped_by)) {
                    (Standing::AtLeast, Some(why)) => format!(
                        "{} ran at least {x:.2} times faster than {} ({}: {} stopped after {nodes})",
                        f.label(),
                        r.label(),
                        stop_text(why),
                        r.label()
                    ),
                    (Standing::NotRanked, Some(why)) => format!(
                        "{} is not ranked against {} ({}: it stopped sooner, after {nodes})",
                        r.label(),
                        f.label(),
                        stop_text(why)
                    ),
                    _ => format!(
                        "{} ran {x:.2} times faster than {} ({nodes})",
                        f.label(), r.label()
                    ),
                }
            })
            .collect()
    }

    /// The per-depth node counts of every heuristic overlaid, log scale.
    pub fn plot(&self) -> String {
        let values: Vec<Vec<f64>> = self
            .runs()
            .map(|r| r.nodes_per_depth.iter().map(|&n| n as f64).collect())
            .collect();
        let names: Vec<String> = self.runs().map(|r| r.label()).collect();
        let series: Vec<Series> = names
            .iter()
            .zip(&values)
            .map(|(name, v)| Series { name, values: v })
            .collect();
        growth_svg(
            &format!(
                "{} ({}x{}): nodes per depth",
                self.puzzle, self.width, self.height
            ),
            "nodes",
            &series,
        )
    }
}

/// The `exhaustive` cell of a heuristic a Ctrl-C kept from starting.
pub const NOT_RUN: &str = "not run (interrupted)";

/// `x / best` to 3 decimals; `n/a` when best is zero.
fn rel(x: f64, best: f64) -> String {
    if best > 0.0 {
        format!("{:.3}", x / best)
    } else {
        "n/a".to_string()
    }
}
