//! Spectral prediction of brute-force search-tree growth (Edelkamp, "Prediction of Regular
//! Search Tree Growth by Spectral Analysis").
//!
//! # Method
//!
//! States are partitioned into classes of equal branching behaviour (for the sliding-tile
//! puzzles: where the blank is). The *equivalence graph* has one node per class and an edge
//! `i → j` of weight `A[i][j]` = the number of class-`j` children of a class-`i` node. With the
//! generator matrix `P = Aᵀ` (so `P[j][i]` = class-`j` children per class-`i` node) the class
//! vector of depth `d` of the search tree is
//!
//! ```text
//! N(d) = P N(d−1) = P^d N(0),        n(d) = ‖N(d)‖₁  (nodes at depth d).
//! ```
//!
//! This module computes, from plain numbers only (no I/O, no puzzle types):
//!
//! * **exact counts** `N(d)` by repeated multiplication in `u128` ([`exact_counts`]);
//! * the **eigenvalues** of `P` (complex ones included, via the bounded Schur wrapper in
//!   [`super::eigen`]) and the **spectral radius** `ρ`, the asymptotic branching factor;
//! * the **period** `k`: when several eigenvalues share the top modulus they are `ρ·ω` with
//!   `ω` roots of unity, `n(d)/n(d−1)` oscillates (the paper's odd-even "anomaly" of the 8- and
//!   24-puzzle) and only `n(d)/n(d−k) → ρ^k` converges; `k` is the least common multiple of
//!   the orders of those roots of unity ([`period`]);
//! * the **power-iteration** ("von Mises") estimate `(n(D)/n(D−k))^(1/k)` of `ρ`
//!   ([`power_iteration`]);
//! * a **closed form** `n(d) = Σ c_i λ_i^d` (and per class `N_j(d) = Σ c_{ij} λ_i^d`) over the
//!   distinct eigenvalues when `P` is diagonalizable ([`closed_form`]). The coefficients are
//!   the components of `N(0)` in the eigenspaces, the paper's `C Q^d C⁻¹ N(0)` with `C` the
//!   eigenvectors, and are checked against the iterated counts. Diagonalizability is tested by
//!   comparing, for each distinct eigenvalue, its algebraic multiplicity with the nullity of
//!   `P − λI` (Edelkamp §2, §7.3). When they differ the report says so plainly: the growth then
//!   has Jordan terms `d^j λ^d`, which this module does not derive.
//!
//! Conventions: `0^0 = 1`, so a zero eigenvalue contributes only to the first depths (the
//! paper's printed closed forms leave this term out and hold for `d ≥ 1` only).
//!
//! Numerical tolerances are written once, in [`Tolerances`]; the sizes beyond which a part
//! is skipped (and the report says so) or a graph refused, in [`Limits`].
//!
//! # Cost
//!
//! Reading the graph and the strongly connected blocks cost O(k²) for k classes, the exact
//! counts O(non-zero entries) per depth. The eigenvalues (dense Schur iteration) cost O(b³)
//! per block of b classes, and the closed form O(k⁴): one SVD of `P − λI` per distinct
//! eigenvalue (262 s at k = 500 before it was capped). Above [`Limits::EIGENVALUE_BLOCK`]
//! the spectral radius comes from power iteration with Collatz–Wielandt bounds and the
//! period from the cycle lengths ([`super::perron`]); above [`Limits::CLOSED_FORM_CLASSES`]
//! there is no closed form. Either is listed in [`SpectralReport::skipped`] with the reason.

mod report;

pub use report::{fmt_complex, fmt_real, render_text, spectral_report, Skipped, SpectralReport};

use super::eigen::{self, C64};
use super::perron;
use nalgebra::{DMatrix, DVector, SVD};
use serde::Serialize;

/// Numerical tolerances, all relative to the matrix scale `max(1, ρ, max |p_ij|)`.
#[derive(Debug, Clone, Copy)]
pub struct Tolerances;

impl Tolerances {
    /// Eigenvalues closer than this are examined as one candidate multiple eigenvalue
    /// (a Jordan block of size `r` spreads its eigenvalue by about `ε^(1/r)`; `1e-3` catches
    /// blocks up to size 5).
    pub const CLUSTER: f64 = 1e-3;
    /// Singular values of `P − λI` below this count towards the nullity (geometric
    /// multiplicity).
    pub const RANK: f64 = 1e-8;
    /// Moduli within this (relative) of `ρ` share the top modulus.
    pub const TOP_MODULUS: f64 = 1e-6;
    /// `q·arg(λ)/2π` within this of an integer makes `λ/ρ` a `q`-th root of unity.
    pub const ROOT_OF_UNITY: f64 = 1e-6;
    /// Closed-form coefficient parts below this (relative to the largest) are printed as 0.
    pub const COEFFICIENT: f64 = 1e-11;
    /// A closed form that deviates more than this (relative) from the iterated counts is
    /// reported as ill-conditioned rather than as holding.
    pub const CLOSED_FORM: f64 = 1e-6;
}

/// Sizes beyond which `plytile spectral` skips a part of the report or refuses the graph.
#[derive(Debug, Clone, Copy)]
pub struct Limits;

impl Limits {
    /// Most classes a graph may have (default 5000): the file holds k² counts (50 MB at the
    /// limit), and the report repeats them.
    pub const CLASSES: usize = 5000;
    /// Most work for the eigenvalues, as the size of one strongly connected block of the
    /// same cost (default 600, about a second): the Schur iteration is O(b³) per block, so
    /// the eigenvalues are computed while Σ b³ ≤ 600³ (one block of 600 classes, or eight of
    /// 300).
    pub const EIGENVALUE_BLOCK: usize = 600;
    /// Most classes for the closed form and the multiplicities (default 100, under a
    /// second; one SVD per distinct eigenvalue makes it O(k⁴)).
    pub const CLOSED_FORM_CLASSES: usize = 100;
    /// Most class counts `N_j(d)` kept, classes × (depth + 1) (default 4·10⁶, 64 MB).
    pub const CLASS_COUNTS: usize = 4_000_000;
}

/// The generator matrix `P = Aᵀ`: `P[j][i] = children[i][j]`.
pub fn generator_matrix(children: &[Vec<u64>]) -> DMatrix<f64> {
    let k = children.len();
    DMatrix::from_fn(k, k, |j, i| children[i][j] as f64)
}

/// Exact class vectors `N(0..=D)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExactCounts {
    /// `class_counts[d][j]` = nodes of class `j` at depth `d`.
    pub class_counts: Vec<Vec<u128>>,
    /// First depth whose counts would overflow `u128` (counts stop before it), if any.
    pub overflow_at: Option<usize>,
}

impl ExactCounts {
    /// `n(d)` for every computed depth.
    pub fn totals(&self) -> Vec<u128> {
        self.class_counts.iter().map(|v| v.iter().sum()).collect()
    }
}

/// `N(d) = P^d N(0)` for `d = 0..=depth`, exactly, with `children` in the file's orientation
/// (rows = parent). Stops early (and says where) if a count would overflow `u128`.
pub fn exact_counts(children: &[Vec<u64>], start: &[u64], depth: usize) -> ExactCounts {
    let k = children.len();
    assert_eq!(
        start.len(),
        k,
        "start vector length must equal the class count"
    );
    // Only the non-zero counts: the matrices of large graphs are sparse.
    let nonzero: Vec<Vec<(usize, u128)>> = children
        .iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .filter(|&(_, &c)| c != 0)
                .map(|(j, &c)| (j, c as u128))
                .collect()
        })
        .collect();
    let mut cur: Vec<u128> = start.iter().map(|&v| v as u128).collect();
    let mut out = vec![cur.clone()];
    for d in 1..=depth {
        let mut next = vec![0u128; k];
        let mut ok = true;
        'parents: for (i, &count) in cur.iter().enumerate() {
            if count == 0 {
                continue;
            }
            for &(j, c) in &nonzero[i] {
                match c.checked_mul(count).and_then(|x| next[j].checked_add(x)) {
                    Some(v) => next[j] = v,
                    None => {
                        ok = false;
                        break 'parents;
                    }
                }
            }
        }
        // The total must fit as well.
        ok = ok
            && next
                .iter()
                .try_fold(0u128, |acc, &v| acc.checked_add(v))
                .is_some();
        if !ok {
            return ExactCounts {
                class_counts: out,
                overflow_at: Some(d),
            };
        }
        out.push(next.clone());
        cur = next;
    }
    ExactCounts {
        class_counts: out,
        overflow_at: None,
    }
}

/// `N(0..=depth)` in floating point for an arbitrary real start vector.
pub fn float_counts(p: &DMatrix<f64>, start: &[f64], depth: usize) -> Vec<DVector<f64>> {
    let mut cur = DVector::from_column_slice(start);
    let mut out = Vec::with_capacity(depth + 1);
    out.push(cur.clone());
    for _ in 0..depth {
        cur = p * &cur;
        out.push(cur.clone());
    }
    out
}

/// The spectral radius `ρ = max |λ_i|` (0 for an empty spectrum).
pub fn spectral_radius(eigenvalues: &[C64]) -> f64 {
    eigenvalues.iter().fold(0.0, |acc, z| acc.max(z.norm()))
}

/// The period `k` of the top of the spectrum: the least `k ≥ 1` with `(λ/ρ)^k = 1` for every
/// eigenvalue `λ` of modulus `ρ`, so that `n(d)/n(d−k)` converges to `ρ^k` while `n(d)/n(d−1)`
/// may oscillate. `k = 1` means a unique dominant eigenvalue (15-puzzle); `k = 2` is the
/// odd-even effect of the 8- and 24-puzzle. Returns 1 for `ρ = 0`, and `None` if a top
/// eigenvalue is not `ρ` times a root of unity of order at most `n` (impossible for
/// non-negative matrices, by Perron–Frobenius).
pub fn period(eigenvalues: &[C64]) -> Option<usize> {
    let rho = spectral_radius(eigenvalues);
    if rho <= f64::MIN_POSITIVE {
        return Some(1);
    }
    let max_order = eigenvalues.len().max(1);
    let mut k = 1usize;
    for z in eigenvalues {
        if z.norm() < rho * (1.0 - Tolerances::TOP_MODULUS) {
            continue;
        }
        let turns = z.im.atan2(z.re) / std::f64::consts::TAU;
        let order = (1..=max_order).find(|&q| {
            let x = q as f64 * turns;
            (x - x.round()).abs() <= Tolerances::ROOT_OF_UNITY * q as f64
        })?;
        k = perron::lcm(k, order);
    }
    Some(k)
}

/// The power-iteration ("von Mises") estimate of the spectral radius from node counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PowerIteration {
    /// The depth `d` used (the deepest with `n(d) > 0` and `n(d−k) > 0`).
    pub depth: usize,
    /// The step `k` (the period).
    pub step: usize,
    /// `n(d)/n(d−k)`, which tends to `ρ^k`.
    pub ratio: f64,
    /// `ratio^(1/k)`, the estimate of `ρ`.
    pub estimate: f64,
}

/// Power-iteration estimate from totals `n(0..=D)` with step `k`, using `n(D)/n(D−k)`
/// (backing off to shallower depths if `n(D−k) = 0`). `None` if the tree dies out
/// (`n(D) = 0`) or no usable pair exists.
pub fn power_iteration(totals: &[f64], step: usize) -> Option<PowerIteration> {
    let step = step.max(1);
    let last = totals.len().checked_sub(1)?;
    if totals[last] <= 0.0 {
        return None;
    }
    (step..=last).rev().find_map(|d| {
        let (num, den) = (totals[d], totals[d - step]);
        (num > 0.0 && den > 0.0).then(|| {
            let ratio = num / den;
            PowerIteration {
                depth: d,
                step,
                ratio,
                estimate: ratio.powf(1.0 / step as f64),
            }
        })
    })
}

/// One distinct eigenvalue with its multiplicities.
#[derive(Debug, Clone, PartialEq)]
pub struct DistinctEigenvalue {
    /// The eigenvalue (mean of its cluster of computed eigenvalues).
    pub value: C64,
    /// Algebraic multiplicity (size of the cluster).
    pub algebraic: usize,
    /// Geometric multiplicity: nullity of `P − λI`.
    pub geometric: usize,
}

/// Group computed eigenvalues into distinct ones and find their multiplicities.
///
/// Eigenvalues within [`Tolerances::CLUSTER`] of each other form a candidate group; the group
/// is one eigenvalue if `P − μI` (μ = group mean) is singular, else its members are distinct
/// eigenvalues that merely lie close together.
pub fn distinct_eigenvalues(p: &DMatrix<f64>, eigenvalues: &[C64]) -> Vec<DistinctEigenvalue> {
    let n = eigenvalues.len();
    let scale = matrix_scale(p, eigenvalues);
    // Single-linkage grouping (n is small; O(n²) is fine).
    let mut group: Vec<usize> = (0..n).collect();
    for i in 0..n {
        for j in 0..i {
            if (eigenvalues[i] - eigenvalues[j]).norm() <= Tolerances::CLUSTER * scale {
                let (gi, gj) = (group[i], group[j]);
                for g in group.iter_mut() {
                    if *g == gi {
                        *g = gj;
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut seen = vec![false; n];
    for i in 0..n {
        if seen[i] {
            continue;
        }
        let members: Vec<usize> = (0..n).filter(|&j| group[j] == group[i]).collect();
        for &j in &members {
            seen[j] = true;
        }
        if members.len() == 1 {
            out.push(DistinctEigenvalue {
                value: eigenvalues[i],
                algebraic: 1,
                geometric: 1,
            });
            continue;
        }
        let mean = members.iter().map(|&j| eigenvalues[j]).sum::<C64>() / members.len() as f64;
        let mean = snap(mean, 1e-9 * scale);
        let g = nullity(p, mean, Tolerances::RANK * scale);
        if g == 0 {
            // Close but distinct eigenvalues.
            out.extend(members.iter().map(|&j| DistinctEigenvalue {
                value: eigenvalues[j],
                algebraic: 1,
                geometric: 1,
            }));
        } else {
            out.push(DistinctEigenvalue {
                value: mean,
                algebraic: members.len(),
                geometric: g.min(members.len()),
            });
        }
    }
    out
}

/// `max(1, ρ, max |p_ij|)`, the unit for all tolerances.
fn matrix_scale(p: &DMatrix<f64>, eigenvalues: &[C64]) -> f64 {
    p.iter()
        .fold(1.0_f64, |acc, x| acc.max(x.abs()))
        .max(spectral_radius(eigenvalues))
}

fn snap(z: C64, tiny: f64) -> C64 {
    C64::new(
        if z.re.abs() < tiny { 0.0 } else { z.re },
        if z.im.abs() < tiny { 0.0 } else { z.im },
    )
}

/// Nullity of `P − μI`: singular values below `tol` (bounded SVD; LU rank as a fallback).
fn nullity(p: &DMatrix<f64>, mu: C64, tol: f64) -> usize {
    let n = p.nrows();
    let m = p.map(|x| C64::new(x, 0.0)) - DMatrix::<C64>::identity(n, n) * mu;
    match SVD::try_new(m.clone(), false, false, f64::EPSILON, 200 * n.max(1)) {
        Some(svd) => svd.singular_values.iter().filter(|&&s| s <= tol).count(),
        None => {
            // Complete pivoting orders |u_ii| decreasingly; count the negligible ones.
            let u = m.full_piv_lu().u();
            (0..n).filter(|&i| u[(i, i)].norm() <= tol).count()
        }
    }
}

/// One term `c·λ^d` of the closed form.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClosedFormTerm {
    /// `λ` as `[re, im]`.
    pub eigenvalue: [f64; 2],
    /// Algebraic multiplicity of `λ` (the term is one term regardless).
    pub multiplicity: usize,
    /// `c` in `n(d) = Σ c λ^d`, as `[re, im]`.
    pub coefficient: [f64; 2],
    /// `c_j` in `N_j(d) = Σ c_j λ^d`, one `[re, im]` per class.
    pub class_coefficients: Vec<[f64; 2]>,
}

/// The closed form of `n(d)`, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClosedForm {
    /// Whether `P` is diagonalizable (all geometric multiplicities equal the algebraic ones);
    /// also `false` when that was not determined: see `diagonalizable_known`.
    pub diagonalizable: bool,
    /// False when `diagonalizable` was not determined (no eigenvalues, or the closed form
    /// was skipped: see [`SpectralReport::skipped`]). A key of its own, so that
    /// `diagonalizable` stays a bool for the scripts that read it.
    pub diagonalizable_known: bool,
    /// The terms, by decreasing `|λ|` (empty when there is no closed form).
    pub terms: Vec<ClosedFormTerm>,
    /// Largest relative deviation of the closed form from the iterated counts over the
    /// checked depths (`None` when there is no closed form).
    pub max_relative_error: Option<f64>,
    /// One plain sentence: what holds, or why there is no closed form.
    pub statement: String,
}

impl ClosedForm {
    /// No closed form; `diagonalizable` is None when that was not determined.
    fn none(diagonalizable: Option<bool>, statement: String) -> Self {
        Self {
            diagonalizable: diagonalizable.unwrap_or(false),
            diagonalizable_known: diagonalizable.is_some(),
            terms: Vec::new(),
            max_relative_error: None,
            statement,
        }
    }

    /// `n(d)` from the closed form (`None` when there is none). Complex in general; the
    /// imaginary part is round-off for a real start vector.
    pub fn total(&self, d: usize) -> Option<C64> {
        (!self.terms.is_empty()).then(|| {
            self.terms
                .iter()
                .map(|t| c(t.coefficient) * pow(c(t.eigenvalue), d))
                .sum()
        })
    }

    /// `N_class(d)` from the closed form.
    pub fn class_count(&self, class: usize, d: usize) -> Option<C64> {
        (!self.terms.is_empty()).then(|| {
            self.terms
                .iter()
                .map(|t| c(t.class_coefficients[class]) * pow(c(t.eigenvalue), d))
                .sum()
        })
    }
}

fn c(pair: [f64; 2]) -> C64 {
    C64::new(pair[0], pair[1])
}

fn pair(z: C64) -> [f64; 2] {
    [z.re, z.im]
}

/// `z^d` with `0^0 = 1`, by repeated squaring.
fn pow(z: C64, d: usize) -> C64 {
    let (mut base, mut e, mut acc) = (z, d, C64::new(1.0, 0.0));
    while e > 0 {
        if e & 1 == 1 {
            acc *= base;
        }
        base *= base;
        e >>= 1;
    }
    acc
}

/// The closed form `n(d) = Σ c_i λ_i^d` over the distinct eigenvalues of `P`, for the real
/// start vector `start`, checked against iterated counts for `d = 0..=check_depth`.
///
/// When `P` is diagonalizable, `N(0) = Σ_i v_i` with `v_i` in the `λ_i`-eigenspace, so
/// `N(d) = Σ_i λ_i^d v_i` (Edelkamp §5, §7.4): `c_ij = (v_i)_j` and `c_i = Σ_j c_ij`. The `v_i`
/// come from solving `V x = N(0)` over a basis `V` of eigenvectors (each eigenspace's
/// basis: the right singular vectors of `P − λ_i I` with the smallest singular values). A
/// fit to `n(0..m−1)` through the Vandermonde matrix of the `λ_i` would need no
/// eigenvectors, but past about 15 distinct eigenvalues its round-off swamps the
/// coefficients while still matching the fitted depths.
pub fn closed_form(
    p: &DMatrix<f64>,
    start: &[f64],
    eigenvalues: &[C64],
    check_depth: usize,
) -> ClosedForm {
    let k = p.nrows();
    let distinct = distinct_eigenvalues(p, eigenvalues);
    if let Some(bad) = distinct.iter().find(|e| e.geometric < e.algebraic) {
        return ClosedForm::none(
            Some(false),
            format!(
                "P is not diagonalizable: eigenvalue {} has algebraic multiplicity {} but only {} \
                 independent eigenvector(s), so N(d) has Jordan terms d^j·λ^d (Edelkamp, \
                 spectral prediction of search tree growth, §7.3) and no closed form n(d) = Σ c_i λ_i^d is given; use the exact counts",
                fmt_complex(bad.value),
                bad.algebraic,
                bad.geometric
            ),
        );
    }
    let m = distinct.len();
    if m == 0 {
        return ClosedForm::none(Some(true), "empty matrix: no closed form".to_string());
    }
    let Some(components) = eigenspace_components(p, start, &distinct) else {
        return ClosedForm::none(
            Some(true),
            "the eigenvectors found do not span the class space; no closed form".to_string(),
        );
    };
    let check = check_depth.max(m - 1);
    let seq = float_counts(p, start, check);
    // sol[(i, j)]: class j's coefficient of eigenvalue i; column k: the total's.
    let sol = DMatrix::<C64>::from_fn(m, k + 1, |i, j| {
        if j < k {
            components[i][j]
        } else {
            components[i].sum()
        }
    });
    let biggest = sol
        .iter()
        .fold(0.0_f64, |a, z| a.max(z.re.abs()).max(z.im.abs()));
    let tiny = Tolerances::COEFFICIENT * biggest.max(f64::MIN_POSITIVE);
    let mut terms: Vec<ClosedFormTerm> = distinct
        .iter()
        .enumerate()
        .map(|(i, e)| ClosedFormTerm {
            eigenvalue: pair(e.value),
            multiplicity: e.algebraic,
            coefficient: pair(snap(sol[(i, k)], tiny)),
            class_coefficients: (0..k).map(|j| pair(snap(sol[(i, j)], tiny))).collect(),
        })
        .collect();
    // Keep the eigenvalue order of `eigen::sort_by_modulus`.
    let mut order: Vec<C64> = terms.iter().map(|t| c(t.eigenvalue)).collect();
    eigen::sort_by_modulus(&mut order);
    terms.sort_by_key(|t| {
        order
            .iter()
            .position(|z| *z == c(t.eigenvalue))
            .unwrap_or(usize::MAX)
    });

    let mut form = ClosedForm {
        diagonalizable: true,
        diagonalizable_known: true,
        terms,
        max_relative_error: None,
        statement: String::new(),
    };
    // Relative to n(d) itself: terms that are large and cancel must not hide an error.
    // Where n(d) = 0 (a tree that dies out), relative to the terms.
    let mut worst = 0.0_f64;
    for (d, v) in seq.iter().enumerate() {
        let actual = v.sum();
        let predicted = form.total(d).unwrap_or_default();
        let denom = if actual != 0.0 {
            actual.abs()
        } else {
            form.terms
                .iter()
                .map(|t| (c(t.coefficient) * pow(c(t.eigenvalue), d)).norm())
                .sum()
        };
        if denom > 0.0 {
            worst = worst.max((predicted - C64::new(actual, 0.0)).norm() / denom);
        }
    }
    form.max_relative_error = Some(worst);
    form.statement = if worst <= Tolerances::CLOSED_FORM {
        format!(
            "P is diagonalizable; n(d) = Σ c_i λ_i^d over its {m} distinct eigenvalues holds for \
             every d ≥ 0 (0^0 = 1); largest relative deviation from the iterated counts for \
             d = 0..={check}: {worst:.1e}"
        )
    } else {
        format!(
            "P is diagonalizable, but its eigenvectors are too ill-conditioned for a closed \
             form in floating point: n(d) = Σ c_i λ_i^d over its {m} distinct eigenvalues \
             deviates from the iterated counts by up to {worst:.1e} (relative) for \
             d = 0..={check}; use the exact counts"
        )
    };
    form
}

/// The component of `start` in each distinct eigenvalue's eigenspace (`P` diagonalizable),
/// or `None` when the eigenvectors found are not a basis.
fn eigenspace_components(
    p: &DMatrix<f64>,
    start: &[f64],
    distinct: &[DistinctEigenvalue],
) -> Option<Vec<DVector<C64>>> {
    let k = p.nrows();
    let pc = p.map(|x| C64::new(x, 0.0));
    let mut basis: Vec<DVector<C64>> = Vec::with_capacity(k);
    let mut owner: Vec<usize> = Vec::with_capacity(k);
    for (i, e) in distinct.iter().enumerate() {
        let shifted = &pc - DMatrix::<C64>::identity(k, k) * e.value;
        // Singular values come sorted decreasingly: the eigenspace is the last rows of Vᴴ.
        let svd = SVD::try_new(shifted, false, true, f64::EPSILON, 200 * k.max(1))?;
        let v_t = svd.v_t?;
        for r in k - e.geometric..k {
            basis.push(v_t.row(r).adjoint());
            owner.push(i);
        }
    }
    if basis.len() != k {
        return None;
    }
    let v = DMatrix::<C64>::from_columns(&basis);
    let n0 = DVector::<C64>::from_iterator(k, start.iter().map(|&x| C64::new(x, 0.0)));
    let x = v.clone().full_piv_lu().solve(&n0)?;
    let mut out = vec![DVector::<C64>::zeros(k); distinct.len()];
    for (col, &i) in owner.iter().enumerate() {
        out[i] += v.column(col) * x[col];
    }
    Some(out)
}
