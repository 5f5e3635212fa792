//! `pmean:N:p`: `ply:N` with the hard min of the labels replaced by Rivest's
//! generalized mean M_p (Rivest, "Game Tree Searching by Min/Max Approximation"); the
//! selector is [`Ply`] with that mean ([`Ply::with_mean`]).

use super::pick::Named;
use super::ply::{Ply, PlyN, MAX_PLY};
use super::tables::ScanTables;
use crate::branching::Mean;
use crate::search::state::State;
use std::fmt;

/// `pmean:N:p` as `--select` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PMean {
    pub n: u8,
    /// p x 1000 (p < 0): thousandths keep the value `Eq` and its text exact.
    pub p_milli: i32,
}

impl Named for PMean {
    const SYNTAXES: &'static [(&'static str, &'static str)] = &[(
        "pmean:N:p",
        "as ply:N with the labels' min replaced by the generalized mean M_p, p < 0 (Rivest)",
    )];
    type Selector = Ply;

    fn parse(s: &str) -> Option<Result<PMean, String>> {
        let rest = s.strip_prefix("pmean:")?;
        let parts: Vec<&str> = rest.split(':').collect();
        let n = parts.first().and_then(|n| n.parse::<u8>().ok());
        let p = parts.get(1).and_then(|p| p.parse::<f64>().ok());
        // p is kept in thousandths: it must stay below 0 once rounded to them.
        let p_milli = p.map(|p| (p * 1000.0).round());
        Some(match (n, p_milli, parts.len()) {
            (Some(n), Some(p_milli), 2)
                if (1..=MAX_PLY as u8).contains(&n) && (-1e6..=-1.0).contains(&p_milli) =>
            {
                Ok(PMean {
                    n,
                    p_milli: p_milli as i32,
                })
            }
            _ => Err(format!("bad heuristic '{s}': expected pmean:N:p with N in 1..={MAX_PLY} and p in -1000..=-0.001 (e.g. pmean:2:-4)")),
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pmean:{}:{}", self.n, self.p_milli as f64 / 1000.0)
    }

    fn selector(self, st: &State, _: &ScanTables) -> Ply {
        let mean = Mean::Power(self.p_milli as f64 / 1000.0);
        Ply::with_mean(st, self.n as usize, false, mean)
    }

    /// As `ply:N`'s.
    fn instructions_per_node(&self) -> f64 {
        PlyN {
            n: self.n,
            adj: false,
        }
        .instructions_per_node()
    }
}
