//! Tables for people and spreadsheets. A [`Table`] is built once from the results;
//! each format ([`Text`], [`Markdown`], [`Csv`]) supplies only its row and divider
//! syntax (as hyperfine's `export/markup.rs`).

/// Column alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A header and rows of already formatted cells.
#[derive(Debug, Clone, Default)]
pub struct Table {
    pub header: Vec<String>,
    pub align: Vec<Align>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names; a name starting with `>` is right-aligned
    /// (the `>` is dropped).
    pub fn new(columns: &[&str]) -> Table {
        Table {
            header: columns
                .iter()
                .map(|c| c.trim_start_matches('>').to_string())
                .collect(),
            align: columns
                .iter()
                .map(|c| {
                    if c.starts_with('>') {
                        Align::Right
                    } else {
                        Align::Left
                    }
                })
                .collect(),
            rows: Vec::new(),
        }
    }

    pub fn push(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.header.len());
        self.rows.push(row);
    }

    /// The table in markup `m`.
    pub fn render(&self, m: &dyn Markup) -> String {
        let widths: Vec<usize> = (0..self.header.len())
            .map(|i| {
                self.rows
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain([self.header[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut s = m.row(&self.header, &widths, &self.align);
        s += &m.divider(&widths, &self.align);
        for r in &self.rows {
            s += &m.row(r, &widths, &self.align);
        }
        s
    }
}

/// The syntax of one table format.
pub trait Markup {
    /// One row, with its line ending.
    fn row(&self, cells: &[String], widths: &[usize], align: &[Align]) -> String;
    /// The line under the header (may be empty).
    fn divider(&self, widths: &[usize], align: &[Align]) -> String;
}

fn pad(cell: &str, width: usize, align: Align) -> String {
    match align {
        Align::Left => format!("{cell:<width$}"),
        Align::Right => format!("{cell:>width$}"),
    }
}

/// Aligned columns for a terminal.
pub struct Text;

impl Markup for Text {
    fn row(&self, cells: &[String], widths: &[usize], align: &[Align]) -> String {
        let cols: Vec<String> = (0..cells.len())
            .map(|i| pad(&cells[i], widths[i], align[i]))
            .collect();
        format!("  {}\n", cols.join("  ").trim_end())
    }
    fn divider(&self, widths: &[usize], _: &[Align]) -> String {
        let cols: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
        format!("  {}\n", cols.join("  "))
    }
}

/// A GitHub-flavoured Markdown table.
pub struct Markdown;

impl Markup for Markdown {
    fn row(&self, cells: &[String], widths: &[usize], align: &[Align]) -> String {
        let cols: Vec<String> = (0..cells.len())
            .map(|i| pad(&cells[i].replace('|', "\\|"), widths[i], align[i]))
            .collect();
        format!("| {} |\n", cols.join(" | "))
    }
    fn divider(&self, widths: &[usize], align: &[Align]) -> String {
        let cols: Vec<String> = (0..widths.len())
            .map(|i| match align[i] {
                Align::Left => format!(":{}", "-".repeat(widths[i].max(2) - 1)),
                Align::Right => format!("{}:", "-".repeat(widths[i].max(2) - 1)),
            })
            .collect();
        format!(
            "|{}|\n",
            cols.iter()
                .map(|c| format!(" {c} "))
                .collect::<Vec<_>>()
                .join("|")
        )
    }
}

/// Comma-separated values (RFC 4180 quoting), no padding, no divider.
pub struct Csv;

impl Markup for Csv {
    fn row(&self, cells: &[String], _: &[usize], _: &[Align]) -> String {
        let cols: Vec<String> = cells
            .iter()
            .map(|c| {
                if c.contains([',', '"', '\n']) {
                    format!("\"{}\"", c.replace('"', "\"\""))
                } else {
                    c.clone()
                }
            })
            .collect();
        format!("{}\n", cols.join(","))
    }
    fn divider(&self, _: &[usize], _: &[Align]) -> String {
        String::new()
    }
}
