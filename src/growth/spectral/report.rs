//! What `plytile spectral` reports: the analysis of one equivalence graph assembled
//! into [`SpectralReport`] (its `--json` schema) and rendered as text.

use super::{
    c, closed_form, exact_counts, generator_matrix, pair, period, power_iteration, spectral_radius,
    ClosedForm, Limits, PowerIteration, Tolerances,
};
use crate::growth::eigen::{self, C64};
use crate::growth::{perron, EquivalenceGraph};
use serde::Serialize;
use std::fmt::Write as _;

/// Everything `plytile spectral` prints; one serde schema for `--json`.
#[derive(Debug, Clone, Serialize)]
pub struct SpectralReport {
    /// Class names, in matrix order.
    pub classes: Vec<String>,
    /// `children[i][j]`: class-`j` children per class-`i` node (rows = parent, `A`).
    pub children: Vec<Vec<u64>>,
    /// `N(0)`.
    pub start: Vec<u64>,
    /// The requested depth `D`.
    pub depth: usize,
    /// Eigenvalues of `P = Aᵀ` as `[re, im]`, by decreasing modulus (with multiplicity).
    pub eigenvalues: Vec<[f64; 2]>,
    /// `ρ = max |λ|`, the asymptotic branching factor: from the eigenvalues, or by power
    /// iteration when they were skipped or failed (then [`Self::spectral_radius_bounds`]).
    pub spectral_radius: Option<f64>,
    /// `[lo, hi]` with `lo ≤ ρ ≤ hi` when `ρ` comes from power iteration (Collatz–Wielandt
    /// bounds, [`super::perron`]); `None` when it comes from the eigenvalues.
    pub spectral_radius_bounds: Option<[f64; 2]>,
    /// Period `k` of the top of the spectrum (see [`period`]).
    pub period: Option<usize>,
    /// `n(d)` for `d = 0..=exact_depth`.
    pub nodes_per_depth: Vec<u128>,
    /// `N(d)` per class, `class_counts_per_depth[d][j]`.
    pub class_counts_per_depth: Vec<Vec<u128>>,
    /// The two above as decimal strings, present when a count exceeds 2^53: JSON
    /// readers that use doubles (JavaScript, jq) round such numbers, and those limited
    /// to 64 bits refuse counts past 2^64.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nodes_per_depth_decimal: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub class_counts_per_depth_decimal: Vec<Vec<String>>,
    /// `n(d)/n(d−1)` (`None` at `d = 0` or when `n(d−1) = 0`).
    pub ratio_per_depth: Vec<Option<f64>>,
    /// Deepest depth with exact counts (`< depth` only on `u128` overflow).
    pub exact_depth: usize,
    /// `(n(d)/n(d−k))^(1/k)` at the deepest usable depth.
    pub power_iteration: Option<PowerIteration>,
    /// `n(d) = Σ c_i λ_i^d`, or the statement why not.
    pub closed_form: ClosedForm,
    /// Parts left out because the graph is too large for them ([`Limits`]), with why.
    pub skipped: Vec<Skipped>,
    /// Warnings and remarks (overflow, eigenvalue failure, start vector missing the top
    /// eigenvalue).
    pub notes: Vec<String>,
}

/// A part of [`SpectralReport`] that was not computed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The report key left empty: `eigenvalues` or `closed_form`.
    pub part: String,
    /// Why, with the limit that applies.
    pub reason: String,
}

/// Analyse `graph` to depth `depth`: exact counts, spectrum, period, power iteration and
/// closed form.
pub fn spectral_report(graph: &EquivalenceGraph, depth: usize) -> SpectralReport {
    let children = graph.children();
    let p = generator_matrix(children);
    let mut notes = Vec::new();

    let counts = exact_counts(children, graph.start(), depth);
    if let Some(d) = counts.overflow_at {
        notes.push(format!(
            "counts at depth {d} exceed u128; exact counts stop at depth {}",
            d - 1
        ));
    }
    let totals = counts.totals();
    let exact_depth = totals.len() - 1;
    let ratio_per_depth = (0..totals.len())
        .map(|d| (d > 0 && totals[d - 1] > 0).then(|| totals[d] as f64 / totals[d - 1] as f64))
        .collect();

    let k = children.len();
    let mut skipped = Vec::new();
    // The Schur work, as the size of one block of the same cost (1×1 blocks are free).
    let blocks = eigen::strong_components(&p);
    let largest_block = blocks.iter().map(Vec::len).max().unwrap_or(0);
    let schur_size = blocks
        .iter()
        .filter(|b| b.len() > 1)
        .map(|b| (b.len() as f64).powi(3))
        .sum::<f64>()
        .cbrt()
        .round() as usize;
    let eigs = if schur_size > Limits::EIGENVALUE_BLOCK {
        skipped.push(Skipped {
            part: "eigenvalues".to_string(),
            reason: format!(
                "they would cost as much as one strongly connected block of {schur_size} \
                 classes (O(b³) per block; the largest has {largest_block}), more than the {} \
                 allowed; ρ comes from power iteration, the period from the cycle lengths",
                Limits::EIGENVALUE_BLOCK
            ),
        });
        None
    } else {
        match eigen::eigenvalues_in(&p, Some(&blocks)) {
            Ok(v) => Some(v),
            Err(e) => {
                notes.push(format!("eigenvalues unavailable: {e}"));
                None
            }
        }
    };
    // Without eigenvalues, ρ and the period still follow from Perron–Frobenius.
    let perron = eigs
        .is_none()
        .then(|| perron::perron_root_in(&p, &blocks, Tolerances::TOP_MODULUS));
    if let Some(r) = perron.as_ref().filter(|r| !r.converged) {
        notes.push(format!(
            "power iteration on P converges slowly and stopped at its work limit: {} ≤ ρ ≤ {}",
            fmt_real(r.bounds[0]),
            fmt_real(r.bounds[1])
        ));
    }
    let (spectral_radius, period) = match (&eigs, &perron) {
        (Some(e), _) => (Some(spectral_radius(e)), period(e)),
        (_, Some(r)) => (Some(r.radius), Some(r.period)),
        (None, None) => (None, None),
    };
    if eigs.is_some() && period.is_none() {
        notes.push("a top-modulus eigenvalue is not ρ times a root of unity".to_string());
    }
    let totals_f: Vec<f64> = totals.iter().map(|&x| x as f64).collect();
    let power = power_iteration(&totals_f, period.unwrap_or(1));

    let start_f: Vec<f64> = graph.start().iter().map(|&x| x as f64).collect();
    let closed_skip = match &eigs {
        Some(_) if k > Limits::CLOSED_FORM_CLASSES => Some(format!(
            "{k} classes, more than the {} for which the closed form is derived (one SVD per \
             distinct eigenvalue, O(k⁴)); use the exact counts",
            Limits::CLOSED_FORM_CLASSES
        )),
        None if schur_size > Limits::EIGENVALUE_BLOCK => {
            Some("it needs the eigenvalues, which were skipped".to_string())
        }
        _ => None,
    };
    let closed = match (&eigs, closed_skip) {
        (_, Some(reason)) => {
            let form = ClosedForm::none(None, format!("skipped: {reason}"));
            skipped.push(Skipped {
                part: "closed_form".to_string(),
                reason,
            });
            form
        }
        (Some(e), None) => closed_form(&p, &start_f, e, exact_depth),
        (None, None) => ClosedForm::none(None, "no eigenvalues, so no closed form".to_string()),
    };
    if let (Some(rho), true) = (spectral_radius, closed.diagonalizable) {
        let top: f64 = closed
            .terms
            .iter()
            .filter(|t| c(t.eigenvalue).norm() >= rho * (1.0 - Tolerances::TOP_MODULUS))
            .map(|t| c(t.coefficient).norm())
            .sum();
        if rho > 0.0 && !closed.terms.is_empty() && top == 0.0 {
            notes.push(
                "the start vector has no component along the top eigenvalue(s); n(d) grows \
                 slower than ρ^d (Edelkamp, spectral prediction of search tree growth, §7.4)"
                    .to_string(),
            );
        }
    }

    SpectralReport {
        classes: graph.classes().to_vec(),
        children: children.to_vec(),
        start: graph.start().to_vec(),
        depth,
        eigenvalues: eigs
            .as_deref()
            .unwrap_or_default()
            .iter()
            .map(|&z| pair(z))
            .collect(),
        spectral_radius,
        spectral_radius_bounds: perron.map(|r| r.bounds),
        period,
        nodes_per_depth_decimal: decimal_if_big(&totals, &totals),
        class_counts_per_depth_decimal: counts
            .class_counts
            .iter()
            .map(|row| decimal_if_big(row, &totals))
            .filter(|row| !row.is_empty())
            .collect(),
        nodes_per_depth: totals,
        class_counts_per_depth: counts.class_counts,
        ratio_per_depth,
        exact_depth,
        power_iteration: power,
        closed_form: closed,
        skipped,
        notes,
    }
}

/// `v` as decimal strings when a count of `totals` exceeds 2^53 (a double's exact
/// range), else nothing.
fn decimal_if_big(v: &[u128], totals: &[u128]) -> Vec<String> {
    if totals.iter().any(|&n| n > 1 << 53) {
        v.iter().map(u128::to_string).collect()
    } else {
        Vec::new()
    }
}

/// A number with up to 9 decimals, trailing zeros removed (`2.828427125`, `0.25`, `-3`).
pub fn fmt_real(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let s = format!("{x:.9}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A complex number: `2.5`, `1.414213562i`, `-0.5-1.2i`.
pub fn fmt_complex(z: C64) -> String {
    match (z.re == 0.0, z.im == 0.0) {
        (_, true) => fmt_real(z.re),
        (true, false) => format!("{}i", fmt_real(z.im)),
        (false, false) => {
            let sign = if z.im < 0.0 { '-' } else { '+' };
            format!("{}{sign}{}i", fmt_real(z.re), fmt_real(z.im.abs()))
        }
    }
}

/// Human-readable report: eigenvalues, radius, period, power iteration, the table of `n(d)`,
/// `n(d)/n(d−1)` and `N_j(d)`, and the closed form written out.
pub fn render_text(report: &SpectralReport) -> String {
    let mut out = String::new();
    let k = report.classes.len();
    let vec_str = |v: &[u64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        out,
        "equivalence graph: {k} classes ({}), N(0) = ({})",
        report.classes.join(", "),
        vec_str(&report.start)
    );
    match report.skipped.iter().find(|s| s.part == "eigenvalues") {
        Some(s) => {
            let _ = writeln!(out, "eigenvalues of P = A^T: skipped: {}", s.reason);
        }
        None => {
            let _ = writeln!(out, "eigenvalues of P = A^T (by modulus):");
        }
    }
    for (i, z) in report.eigenvalues.iter().enumerate() {
        let z = c(*z);
        let _ = writeln!(
            out,
            "  λ{:<2} = {:<28} |λ| = {}",
            i + 1,
            fmt_complex(z),
            fmt_real(z.norm())
        );
    }
    match (report.spectral_radius, report.spectral_radius_bounds) {
        (Some(rho), None) => {
            let _ = writeln!(
                out,
                "spectral radius ρ = {} (asymptotic branching factor)",
                fmt_real(rho)
            );
        }
        (Some(rho), Some([lo, hi])) => {
            let _ = writeln!(
                out,
                "spectral radius ρ = {} (asymptotic branching factor; Collatz–Wielandt bounds \
                 by power iteration on P: {} ≤ ρ ≤ {})",
                fmt_real(rho),
                fmt_real(lo),
                fmt_real(hi)
            );
        }
        (None, _) => {
            let _ = writeln!(out, "spectral radius: unavailable");
        }
    }
    match report.period {
        // ρ = 0 (no cycle: the tree dies out): every eigenvalue is 0, no ratio to tend.
        Some(1) if report.spectral_radius == Some(0.0) => {
            let _ = writeln!(
                out,
                "period 1: ρ = 0, no cycle among the classes: n(d) reaches 0"
            );
        }
        Some(1) => {
            let _ = writeln!(out, "period 1: one dominant eigenvalue; n(d)/n(d-1) → ρ");
        }
        Some(p) if report.eigenvalues.is_empty() => {
            let _ = writeln!(
                out,
                "period {p} (from the cycle lengths): the top eigenvalues are ρ·ω with ω^{p} = 1; \
                 n(d)/n(d-1) oscillates, n(d)/n(d-{p}) → ρ^{p}"
            );
        }
        Some(p) => {
            let _ = writeln!(
                out,
                "period {p}: {} eigenvalues share the top modulus; n(d)/n(d-1) oscillates, \
                 n(d)/n(d-{p}) → ρ^{p}",
                report
                    .eigenvalues
                    .iter()
                    .filter(|z| {
                        c(**z).norm()
                            >= report.spectral_radius.unwrap_or(0.0)
                                * (1.0 - Tolerances::TOP_MODULUS)
                    })
                    .count()
            );
        }
        None => {
            let _ = writeln!(out, "period: undetermined");
        }
    }
    match &report.power_iteration {
        Some(pi) if pi.step == 1 => {
            let _ = writeln!(
                out,
                "power iteration: n({})/n({}) = {}",
                pi.depth,
                pi.depth - 1,
                fmt_real(pi.estimate)
            );
        }
        Some(pi) => {
            let _ = writeln!(
                out,
                "power iteration: (n({})/n({}))^(1/{}) = {}^(1/{}) = {}",
                pi.depth,
                pi.depth - pi.step,
                pi.step,
                fmt_real(pi.ratio),
                pi.step,
                fmt_real(pi.estimate)
            );
        }
        None => {
            let step = report.period.unwrap_or(1).max(1);
            let why = if report.nodes_per_depth.last() == Some(&0) {
                "the tree dies out".to_string()
            } else if report.exact_depth < step {
                format!("it compares n(d) with n(d-{step}): give --depth {step} or more")
            } else {
                format!("no depth d with n(d) and n(d-{step}) both non-zero")
            };
            let _ = writeln!(out, "power iteration: no estimate ({why})");
        }
    }

    // Table.
    let mut header = vec![
        "d".to_string(),
        "n(d)".to_string(),
        "n(d)/n(d-1)".to_string(),
    ];
    header.extend(report.classes.iter().cloned());
    let rows: Vec<Vec<String>> = report
        .class_counts_per_depth
        .iter()
        .enumerate()
        .map(|(d, v)| {
            let mut row = vec![
                d.to_string(),
                report.nodes_per_depth[d].to_string(),
                report.ratio_per_depth[d].map_or("-".to_string(), |r| format!("{r:.6}")),
            ];
            row.extend(v.iter().map(|x| x.to_string()));
            row
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|col| {
            rows.iter()
                .map(|r| r[col].chars().count())
                .chain(std::iter::once(header[col].chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .map(|(s, &w)| format!("{s:>w$}"))
            .collect::<Vec<_>>()
            .join("  ")
    };
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", line(&header));
    for r in &rows {
        let _ = writeln!(out, "{}", line(r));
    }
    let _ = writeln!(out);

    // Closed form.
    let cf = &report.closed_form;
    if cf.terms.is_empty() {
        let _ = writeln!(out, "closed form: none. {}", cf.statement);
    } else {
        let mut written = String::new();
        for t in cf.terms.iter().filter(|t| t.coefficient != [0.0, 0.0]) {
            let coef = c(t.coefficient);
            // Real coefficients carry their sign into the joining operator.
            let (sign, coef) = if coef.im == 0.0 {
                (
                    if coef.re < 0.0 { "-" } else { "+" },
                    fmt_real(coef.re.abs()),
                )
            } else {
                ("+", format!("({})", fmt_complex(coef)))
            };
            let term = format!("{coef}·({})^d", fmt_complex(c(t.eigenvalue)));
            match (written.is_empty(), sign) {
                (true, "-") => written = format!("-{term}"),
                (true, _) => written = term,
                (false, _) => {
                    let _ = write!(written, " {sign} {term}");
                }
            }
        }
        let _ = writeln!(out, "closed form: n(d) = {written}");
        let _ = writeln!(out, "  {}", cf.statement);
    }
    for note in &report.notes {
        let _ = writeln!(out, "note: {note}");
    }
    out
}
