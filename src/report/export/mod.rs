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

mod bench;
mod format;

pub use bench::{
    count_mismatch, BenchConfig, BenchRecord, BenchReport, OverallRecord, PuzzleSummary,
};
pub use compare::CompareReport;
pub use format::{fmt_count, fmt_ratio, fmt_secs, fmt_time, fmt_time_as};

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
