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

use super::eigen::{self, C64};
use super::{perron, EquivalenceGraph};
use nalgebra::{DMatrix, DVector, SVD};
use serde::Serialize;
use std::fmt::Write as _;

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
                 independent eigenvector(s), so N(d) has Jordan terms d^j·λ^d (seed 001 §7.3) and \
                 no closed form n(d) = Σ c_i λ_i^d is given; use the exact counts",
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
                 slower than ρ^d (seed 001 §7.4)"
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
