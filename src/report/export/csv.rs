//! One CSV line per [`BenchRecord`](super::BenchRecord): every scalar field, headed by
//! the JSON key (units in the names). The per-run lists are left to the JSON export.

use super::markup::{Csv, Table};
use super::{BenchReport, Exporter};

pub struct CsvExporter;

/// `stopped_by` of a line of a puzzle not benchmarked (yet, or a Ctrl-C came first).
pub const NOT_RUN: &str = "not run";

const COLUMNS: &[&str] = &[
    "puzzle",
    "width",
    "height",
    "pieces",
    "select",
    "threads",
    "runs",
    "solutions_found",
    "exhaustive",
    "stopped_by",
    "time_mean_s",
    "time_stddev_s",
    "time_median_s",
    "time_min_s",
    "time_max_s",
    "nodes_mean",
    "nodes_stddev",
    "nodes_min",
    "nodes_max",
    "nodes_per_s_mean",
    "nodes_per_s_stddev",
    "nodes_per_s_min",
    "nodes_per_s_max",
    "relative_time",
    "relative_time_stddev",
    "relative_nodes",
    "rank",
    // Added later: at the end, so that the columns before keep their places.
    "symmetry",
    "factor",
    "move_order",
    "runs_stopped",
    "runs_exhaustive",
    "goal_nodes_mean",
    // The report's, on every line: the run was interrupted (Ctrl-C), so the file
    // holds only the puzzles finished before it.
    "interrupted",
];

impl Exporter for CsvExporter {
    fn serialize(&self, report: &BenchReport) -> String {
        let mut t = Table::new(COLUMNS);
        for r in &report.results {
            // The record as JSON, then its scalar fields in column order: one
            // source of truth for names and values.
            let mut v = serde_json::to_value(r).expect("records serialize");
            v["interrupted"] = report.interrupted.into();
            t.push(COLUMNS.iter().map(|c| cell(&v[*c])).collect());
        }
        // A line per puzzle and setting left out (see `puzzles_not_reported`), with
        // only its names and `stopped_by` "not run": a partial file says so even
        // before its first result.
        for puzzle in &report.puzzles_not_reported {
            for h in &report.config.settings {
                // The settings that finished on the puzzle a Ctrl-C cut short have lines.
                if (report.results.iter()).any(|r| r.puzzle == *puzzle && r.select == *h) {
                    continue;
                }
                let v = serde_json::json!({
                    "puzzle": puzzle,
                    "select": h.to_string(),
                    "stopped_by": NOT_RUN,
                    "interrupted": report.interrupted,
                });
                t.push(COLUMNS.iter().map(|c| cell(&v[*c])).collect());
            }
        }
        t.render(&Csv)
    }
}

/// A JSON scalar as a CSV cell: null is empty, a string unquoted, else as JSON writes
/// it (`true`, `2`, `0.5`). CSV columns that are JSON keys too read the same.
pub(super) fn cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        x => x.to_string(),
    }
}
