//! `plytile compare`: several heuristics on one puzzle under the same limits. The
//! schema is [`CompareReport`] (`results` holds `solve --json` objects); the tables and
//! the growth plot are built from it.

use super::markup::Table;
use super::{count_mismatch, fmt_count};
use crate::report::plot::{growth_svg, Series};
use crate::report::{quickest, rank, reached_goal, stop_text, Rank, Second, SolveResult};
use crate::search::Heuristic;
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

/// The result of `plytile compare --json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareReport {
    pub puzzle: String,
    pub width: usize,
    pub height: usize,
    pub limits: CompareLimits,
    /// One `solve --json` object per heuristic, in `--select` order.
    pub results: Vec<SolveResult>,
    /// The smallest time among the runs that reached their goal (every solution, or
    /// the first; see [`crate::report::reached_goal`]), or among all runs when none did; and,
    /// by the same rule, the smallest node count.
    pub fastest: Heuristic,
    pub fewest_nodes: Heuristic,
    /// False when every run was exhaustive and the solution counts differ (a bug;
    /// exit code 4). True otherwise.
    pub counts_agree: bool,
    /// The disagreement, as one line, when there is one.
    pub error: Option<String>,
    pub version: String,
}

impl CompareReport {
    /// Collects finished runs (at least one).
    pub fn new(limits: CompareLimits, results: Vec<SolveResult>) -> CompareReport {
        // A run cut short by a limit did less work, not the same work faster.
        let fastest =
            quickest(&results, |r| r.stopped_by, |r| r.elapsed_s).expect("at least one run");
        let fewest =
            quickest(&results, |r| r.stopped_by, |r| r.nodes as f64).expect("at least one run");
        let all_exhaustive = results.iter().all(|r| r.exhaustive);
        let error = if all_exhaustive {
            count_mismatch(&results)
        } else {
            None
        };
        CompareReport {
            puzzle: fastest.puzzle.clone(),
            width: fastest.width,
            height: fastest.height,
            limits,
            fastest: fastest.select,
            fewest_nodes: fewest.select,
            counts_agree: error.is_none(),
            error,
            version: env!("CARGO_PKG_VERSION").to_string(),
            results,
        }
    }

    /// The run of heuristic `h`.
    fn run_of(&self, h: Heuristic) -> &SolveResult {
        self.results
            .iter()
            .find(|r| r.select == h)
            .expect("fastest and fewest_nodes are results")
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
        let (bt, bn) = (self.run_of(self.fastest), self.run_of(self.fewest_nodes));
        // Ratios as `rank` says: a lower bound ("at least"), or none ("not ranked").
        let relative = |r: &SolveResult, x: f64, best: f64, b: &SolveResult| {
            let place = rank(r.stopped_by, x / best, reached_goal(b.stopped_by));
            let cell = match place.ratio(x) {
                Some(x) => rel(x, best),
                None => String::new(),
            };
            (cell, place.standing())
        };
        for r in &self.results {
            let (nodes, _) = relative(r, r.nodes as f64, bn.nodes as f64, bn);
            let (time, place) = relative(r, r.elapsed_s, bt.elapsed_s, bt);
            t.push(vec![
                r.select.to_string(),
                r.solutions_found.to_string(),
                match r.stopped_by {
                    None => "yes".to_string(),
                    Some(s) => format!(
                        "no ({})",
                        serde_json::to_value(s).unwrap().as_str().unwrap_or("")
                    ),
                },
                r.nodes.to_string(),
                format!("{:.6}", r.elapsed_s),
                format!("{:.0}", r.nodes_per_s),
                nodes,
                time,
                place.to_string(),
            ]);
        }
        t
    }

    /// Nodes per depth, one column per heuristic.
    pub fn growth_table(&self) -> Table {
        let mut cols = vec![">depth".to_string()];
        cols.extend(self.results.iter().map(|r| format!(">{}", r.select)));
        let cols: Vec<&str> = cols.iter().map(|c| c.as_str()).collect();
        let mut t = Table::new(&cols);
        let depths = self
            .results
            .iter()
            .map(|r| r.nodes_per_depth.len())
            .max()
            .unwrap_or(0);
        for d in 0..depths {
            let mut row = vec![d.to_string()];
            row.extend(self.results.iter().map(|r| {
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
        let f = self
            .results
            .iter()
            .find(|r| r.select == self.fastest)
            .expect("fastest is a result");
        if !reached_goal(f.stopped_by) {
            return vec![format!(
                "no run reached its goal ({}): times do not rank them; the nodes are \
                 what each searched before it stopped",
                f.stopped_by.map_or("stopped", stop_text)
            )];
        }
        if f.elapsed_s <= 0.0 {
            return vec![format!("{} took no measurable time", f.select)];
        }
        self.results
            .iter()
            .filter(|r| r.select != f.select)
            .map(|r| {
                let nodes = format!(
                    "{} nodes = {}x {}'s",
                    fmt_count(r.nodes as f64),
                    rel(r.nodes as f64, f.nodes as f64),
                    f.select
                );
                let x = r.elapsed_s / f.elapsed_s;
                match rank(r.stopped_by, x, true) {
                    Rank::Ranked => format!(
                        "{} ran {x:.2} times faster than {} ({nodes})",
                        f.select, r.select
                    ),
                    Rank::AtLeast(why) => format!(
                        "{} ran at least {x:.2} times faster than {} ({}: {} stopped after {nodes})",
                        f.select,
                        r.select,
                        stop_text(why),
                        r.select
                    ),
                    Rank::Unranked(why) => format!(
                        "{} is not ranked against {} ({}: it stopped sooner, after {nodes})",
                        r.select,
                        f.select,
                        stop_text(why)
                    ),
                }
            })
            .collect()
    }

    /// The per-depth node counts of every heuristic overlaid, log scale.
    pub fn plot(&self) -> String {
        let values: Vec<Vec<f64>> = self
            .results
            .iter()
            .map(|r| r.nodes_per_depth.iter().map(|&n| n as f64).collect())
            .collect();
        let names: Vec<String> = self.results.iter().map(|r| r.select.to_string()).collect();
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

/// `x / best` to 3 decimals; `n/a` when best is zero.
fn rel(x: f64, best: f64) -> String {
    if best > 0.0 {
        format!("{:.3}", x / best)
    } else {
        "n/a".to_string()
    }
}
