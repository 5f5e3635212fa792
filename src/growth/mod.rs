//! Growth of brute-force search trees.
//!
//! * [`eigen`]: bounded eigenvalue computation for small real matrices.
//! * [`perron`]: spectral radius and period of large non-negative matrices, without
//!   eigenvalues.
//! * [`spectral`]: the spectral analysis of an equivalence graph (Edelkamp, "Prediction of Regular Search Tree Growth by Spectral Analysis"): exact
//!   node counts, spectral radius, period, power iteration and closed form.
//! * this file: the equivalence-graph file format (RON) and its validation.
//!
//! # File format
//!
//! ```ron
//! // 8-puzzle, blank in a corner (Edelkamp, Section 4)
//! (
//!     classes: ["corner", "side", "middle"],
//!     children: [[0, 2, 0], [2, 0, 1], [0, 4, 0]],
//!     start: [1, 0, 0],
//! )
//! ```
//!
//! Rows are the parent's class: `children[i][j]` is the number of class-`j` children of one
//! class-`i` node (the adjacency matrix `A` of Edelkamp's equivalence graph). `start` is the
//! class vector `N(0)` of the root level. The generator matrix of the paper is `P = Aᵀ`, so
//! `N(d) = P N(d−1)`. Entries are non-negative integers, so node counts are exact.

pub mod eigen;
pub mod models;
pub mod perron;
pub mod spectral;

pub use spectral::{render_text, spectral_report, SpectralReport};

use crate::error::InputError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A validated equivalence graph: class names, children counts (rows = parent class) and the
/// root-level class vector.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EquivalenceGraph {
    classes: Vec<String>,
    children: Vec<Vec<u64>>,
    start: Vec<u64>,
}

/// What is wrong with an equivalence graph.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GraphError {
    /// The RON text does not parse.
    #[error("line {line}: RON syntax: {message}")]
    Syntax { line: usize, message: String },
    /// No classes at all.
    #[error("`classes` is empty; at least one class is needed")]
    NoClasses,
    /// More classes than `plytile spectral` takes ([`spectral::Limits::CLASSES`]).
    #[error("more than the {limit} classes this tool analyses (the file holds classes² counts); merge classes of equal branching into one")]
    TooManyClasses { limit: usize },
    /// Empty or duplicated class name.
    #[error("class {index} has name {name:?}; class names must be non-empty and distinct")]
    BadClassName { index: usize, name: String },
    /// `children` does not have one row per class.
    #[error("`children` has {rows} rows but there are {classes} classes; the matrix must be square with one row per class")]
    RowCount { rows: usize, classes: usize },
    /// One row of `children` has the wrong length.
    #[error("`children` row {row} ({class}) has {len} entries but there are {classes} classes; the matrix must be square")]
    RowLength {
        row: usize,
        class: String,
        len: usize,
        classes: usize,
    },
    /// A negative count in `children`.
    #[error(
        "`children[{row}][{col}]` ({from} -> {to}) is {value}; child counts must be non-negative"
    )]
    NegativeChild {
        row: usize,
        col: usize,
        from: String,
        to: String,
        value: i64,
    },
    /// `start` has the wrong length.
    #[error("`start` has {len} entries but there are {classes} classes")]
    StartLength { len: usize, classes: usize },
    /// A negative entry in `start`.
    #[error("`start[{index}]` ({class}) is {value}; the start vector must be non-negative")]
    NegativeStart {
        index: usize,
        class: String,
        value: i64,
    },
    /// `start` is all zero, so the tree is empty.
    #[error("`start` is all zero; the root level needs at least one node")]
    EmptyStart,
}

/// The file as written, before validation (signed so that negative entries get a clear
/// message instead of a bare type error).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGraph {
    classes: AtMostClasses<String>,
    children: AtMostClasses<AtMostClasses<i64>>,
    start: AtMostClasses<i64>,
}

/// A list of at most [`spectral::Limits::CLASSES`] entries. Reading stops at the first
/// entry past the limit, so a file far too large is refused before it fills the memory.
#[derive(Debug)]
struct AtMostClasses<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for AtMostClasses<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Entries<T> {
            type Value = AtMostClasses<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a list of at most {} entries", spectral::Limits::CLASSES)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(x) = seq.next_element()? {
                    if entries.len() == spectral::Limits::CLASSES {
                        let limit = spectral::Limits::CLASSES;
                        let e = GraphError::TooManyClasses { limit };
                        return Err(serde::de::Error::custom(e));
                    }
                    entries.push(x);
                }
                Ok(AtMostClasses(entries))
            }
        }
        d.deserialize_seq(Entries(std::marker::PhantomData))
    }
}

impl EquivalenceGraph {
    /// Build and validate a graph from signed entries (see [`GraphError`] for the checks).
    pub fn new(
        classes: Vec<String>,
        children: Vec<Vec<i64>>,
        start: Vec<i64>,
    ) -> Result<Self, GraphError> {
        let k = classes.len();
        if k == 0 {
            return Err(GraphError::NoClasses);
        }
        if k > spectral::Limits::CLASSES {
            return Err(GraphError::TooManyClasses {
                limit: spectral::Limits::CLASSES,
            });
        }
        for (index, name) in classes.iter().enumerate() {
            if name.trim().is_empty() || classes[..index].contains(name) {
                return Err(GraphError::BadClassName {
                    index,
                    name: name.clone(),
                });
            }
        }
        if children.len() != k {
            return Err(GraphError::RowCount {
                rows: children.len(),
                classes: k,
            });
        }
        for (row, r) in children.iter().enumerate() {
            if r.len() != k {
                return Err(GraphError::RowLength {
                    row,
                    class: classes[row].clone(),
                    len: r.len(),
                    classes: k,
                });
            }
            if let Some(col) = r.iter().position(|&v| v < 0) {
                return Err(GraphError::NegativeChild {
                    row,
                    col,
                    from: classes[row].clone(),
                    to: classes[col].clone(),
                    value: r[col],
                });
            }
        }
        if start.len() != k {
            return Err(GraphError::StartLength {
                len: start.len(),
                classes: k,
            });
        }
        if let Some(index) = start.iter().position(|&v| v < 0) {
            return Err(GraphError::NegativeStart {
                index,
                class: classes[index].clone(),
                value: start[index],
            });
        }
        if start.iter().all(|&v| v == 0) {
            return Err(GraphError::EmptyStart);
        }
        // Non-negative was checked above, so the casts are lossless.
        let children = children
            .into_iter()
            .map(|r| r.into_iter().map(|v| v as u64).collect())
            .collect();
        let start = start.into_iter().map(|v| v as u64).collect();
        Ok(Self {
            classes,
            children,
            start,
        })
    }

    /// Parse and validate RON text in the format of the module documentation.
    pub fn from_ron_str(text: &str) -> Result<Self, GraphError> {
        let raw: RawGraph = ron::from_str(text).map_err(|e| GraphError::Syntax {
            line: e.position.line,
            message: crate::puzzle::formats::ron_reason(&e.code),
        })?;
        let children = raw.children.0.into_iter().map(|row| row.0).collect();
        Self::new(raw.classes.0, children, raw.start.0)
    }

    /// Class names, in matrix order.
    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    /// `children[i][j]`: class-`j` children of one class-`i` node (rows = parent).
    pub fn children(&self) -> &[Vec<u64>] {
        &self.children
    }

    /// `N(0)`, the class vector of the root level.
    pub fn start(&self) -> &[u64] {
        &self.start
    }

    /// A copy with a different start vector (same validation as [`EquivalenceGraph::new`]).
    pub fn with_start(&self, start: Vec<u64>) -> Result<Self, GraphError> {
        let start = start
            .into_iter()
            .map(|v| i64::try_from(v).unwrap_or(i64::MAX))
            .collect();
        let children = self
            .children
            .iter()
            .map(|r| r.iter().map(|&v| v as i64).collect())
            .collect();
        Self::new(self.classes.clone(), children, start)
    }
}

/// Read and validate an equivalence graph file; the error names the file, and the line
/// of a syntax error.
pub fn load_graph(path: impl AsRef<Path>) -> crate::error::Result<EquivalenceGraph> {
    let path = path.as_ref();
    let origin = path.display().to_string();
    let text = crate::puzzle::formats::read_text(path)?;
    EquivalenceGraph::from_ron_str(&text).map_err(|e| match e {
        GraphError::Syntax { line, message } => InputError::at(
            origin,
            line,
            format!("not a valid equivalence graph: {message}"),
        ),
        e => InputError::new(origin, e.to_string()),
    })
}
