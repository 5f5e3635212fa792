//! The whole [`BenchReport`] as pretty JSON.

use super::{BenchReport, Exporter};

pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn serialize(&self, report: &BenchReport) -> String {
        serde_json::to_string_pretty(report).expect("reports serialize") + "\n"
    }
}
