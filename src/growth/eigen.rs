//! Eigenvalues of small real matrices with a hard bound on the work done.
//!
//! nalgebra's `Matrix::eigenvalues()` / `complex_eigenvalues()` call `Schur::new`, which runs
//! the implicit double-shift QR iteration with *no* iteration cap. On matrices whose
//! eigenvalues share their modulus in an unlucky way the iteration never deflates and the call
//! never returns: the 8-puzzle generator matrix (eigenvalues `±√8, 0`) and the 4×4 and 6×6
//! cyclic permutation matrices (all eigenvalues on the unit circle) are known cases.
//!
//! [`eigenvalues`] therefore uses `Schur::try_new(M + σI, eps, cap)` with a total sweep cap
//! of [`SWEEPS_PER_DIM`]` · n` per attempt. The eigenvalues of `M + σI` are `λ + σ`, so a
//! shift leaves eigenvectors alone but breaks ties in modulus (`|√8 + σ| ≠ |−√8 + σ|`), which
//! is what the QR iteration needs to deflate. Attempts, in order:
//!
//! 1. the unshifted matrix,
//! 2. the real shifts [`REAL_SHIFTS`] (times the matrix scale),
//! 3. complex shifts [`COMPLEX_SHIFTS`] on the complexified matrix, which also separate
//!    complex-conjugate pairs.
//!
//! Each attempt is bounded, there are finitely many, so the whole call is bounded; if every
//! attempt fails the caller gets [`EigenError::NoConvergence`] instead of a hang.
//!
//! Before that, the matrix is split into the strongly connected components of its non-zero
//! pattern ([`strong_components`]); 1×1 components give their diagonal entry exactly and only
//! the larger ones go through the Schur attempts.
//!
//! Accuracy: simple eigenvalues come back to about `1e-13 · ‖M‖`; an eigenvalue in a Jordan
//! block of size `r` is only determined to about `ε^(1/r) · ‖M‖`, as for any backward-stable
//! method. Callers that care about multiplicities must cluster with a tolerance (see
//! `spectral::distinct_eigenvalues`).

use nalgebra::{Complex, DMatrix, Schur};
use std::borrow::Cow;
use std::cmp::Ordering;

/// Complex `f64`, the type eigenvalues are returned in.
pub type C64 = Complex<f64>;

/// Maximum number of QR sweeps per attempt, per row of the matrix (default 60; the iteration
/// normally needs 2–4 per eigenvalue, so this leaves a wide margin and still stops quickly).
pub const SWEEPS_PER_DIM: usize = 60;

/// Real shifts tried after the unshifted attempt, in units of the matrix scale
/// `max(1, max |m_ij|)`. Arbitrary non-round values so that they do not line up with the
/// small-integer structure of equivalence-graph matrices.
pub const REAL_SHIFTS: [f64; 5] = [0.3127, -0.5683, 1.3791, -1.7213, 2.6519];

/// Complex shifts `(re, im)` tried last, in units of the matrix scale.
pub const COMPLEX_SHIFTS: [(f64, f64); 3] =
    [(0.2713, 0.5791), (-0.3617, 0.3319), (0.6871, -1.0937)];

/// Why [`eigenvalues`] gave up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EigenError {
    /// The input is not square.
    #[error("matrix is not square ({rows}x{cols})")]
    NotSquare { rows: usize, cols: usize },
    /// The input holds a NaN or an infinity.
    #[error("matrix entry ({row}, {col}) is not finite")]
    NonFinite { row: usize, col: usize },
    /// Every shifted attempt hit its sweep cap.
    #[error("Schur iteration did not converge in {attempts} shifted attempts of at most {max_sweeps} sweeps each")]
    NoConvergence { attempts: usize, max_sweeps: usize },
}

/// All eigenvalues of `m` (with algebraic multiplicity), sorted by [`sort_by_modulus`].
///
/// Tiny real or imaginary parts (below `1e-11 · scale`) are set to exactly zero, so that e.g.
/// the 8-puzzle matrix reports `0` rather than `3e-17`.
pub fn eigenvalues(m: &DMatrix<f64>) -> Result<Vec<C64>, EigenError> {
    eigenvalues_in(m, None)
}

/// [`eigenvalues`] given `m`'s [`strong_components`] when the caller has them already
/// (`spectral` needs them to size the work first).
pub fn eigenvalues_in(
    m: &DMatrix<f64>,
    blocks: Option<&[Vec<usize>]>,
) -> Result<Vec<C64>, EigenError> {
    let (rows, cols) = m.shape();
    if rows != cols {
        return Err(EigenError::NotSquare { rows, cols });
    }
    for col in 0..cols {
        for row in 0..rows {
            if !m[(row, col)].is_finite() {
                return Err(EigenError::NonFinite { row, col });
            }
        }
    }
    let n = rows;
    let scale = m.iter().fold(1.0_f64, |acc, x| acc.max(x.abs()));
    let mut vals = Vec::with_capacity(n);
    let blocks = blocks.map_or_else(|| Cow::Owned(strong_components(m)), Cow::Borrowed);
    for block in blocks.iter() {
        if let [i] = block[..] {
            // A 1x1 diagonal block: its eigenvalue is the diagonal entry, exactly.
            vals.push(C64::new(m[(i, i)], 0.0));
        } else {
            let sub = DMatrix::from_fn(block.len(), block.len(), |r, c| m[(block[r], block[c])]);
            vals.extend(dense_eigenvalues(&sub)?);
        }
    }
    Ok(finish(vals, scale))
}

/// Strongly connected components of the pattern of non-zero off-diagonal entries, each
/// sorted, ordered by their smallest member.
///
/// Ordering the rows and columns by components makes the matrix block triangular, so its
/// spectrum is the union of the spectra of the diagonal blocks. This splits reducible
/// equivalence graphs exactly: a class that cannot return to itself gives the eigenvalue 0 (or
/// its loop weight) with no round-off, which keeps nilpotent and triangular Jordan parts
/// exact instead of spreading them by `ε^(1/r)`.
pub fn strong_components(m: &DMatrix<f64>) -> Vec<Vec<usize>> {
    let n = m.nrows();
    let succ: Vec<Vec<usize>> = (0..n)
        .map(|i| (0..n).filter(|&j| j != i && m[(i, j)] != 0.0).collect())
        .collect();
    // Tarjan's algorithm, iterative (a recursive one overflows the stack on a long chain),
    // in O(n + edges) after the O(n²) scan above. A Floyd–Warshall closure took O(n³):
    // seconds at 2000 classes.
    const NONE: usize = usize::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut blocks = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        // (node, position in its successor list)
        let mut calls = vec![(root, 0)];
        while let Some(top) = calls.last_mut() {
            let (v, pos) = *top;
            if pos == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = succ[v].get(pos) {
                top.1 += 1;
                if index[w] == NONE {
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut block = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    block.push(w);
                    if w == v {
                        break;
                    }
                }
                block.sort_unstable();
                blocks.push(block);
            }
        }
    }
    // The order of the closure version: by smallest member.
    blocks.sort_unstable_by_key(|b| b[0]);
    blocks
}

/// Eigenvalues of one (irreducible) block by bounded, shifted Schur attempts.
fn dense_eigenvalues(m: &DMatrix<f64>) -> Result<Vec<C64>, EigenError> {
    let n = m.nrows();
    let scale = m.iter().fold(1.0_f64, |acc, x| acc.max(x.abs()));
    let max_sweeps = SWEEPS_PER_DIM * n;
    let eps = f64::EPSILON;
    let mut attempts = 0;

    // Real attempts: the unshifted matrix, then each real shift.
    for shift in std::iter::once(0.0).chain(REAL_SHIFTS.iter().map(|s| s * scale)) {
        attempts += 1;
        let shifted = m + DMatrix::<f64>::identity(n, n) * shift;
        if let Some(schur) = Schur::try_new(shifted, eps, max_sweeps) {
            let vals: Vec<C64> = schur
                .complex_eigenvalues()
                .iter()
                .map(|z| z - shift)
                .collect();
            if vals.iter().all(|z| z.re.is_finite() && z.im.is_finite()) {
                return Ok(vals);
            }
        }
    }

    // Complex attempts: complexify and shift off the real axis.
    for (re, im) in COMPLEX_SHIFTS {
        attempts += 1;
        let shift = C64::new(re * scale, im * scale);
        let shifted = m.map(|x| C64::new(x, 0.0)) + DMatrix::<C64>::identity(n, n) * shift;
        if let Some(schur) = Schur::try_new(shifted, eps, max_sweeps) {
            let (_, t) = schur.unpack();
            let vals: Vec<C64> = (0..n).map(|i| t[(i, i)] - shift).collect();
            if vals.iter().all(|z| z.re.is_finite() && z.im.is_finite()) {
                return Ok(vals);
            }
        }
    }

    Err(EigenError::NoConvergence {
        attempts,
        max_sweeps,
    })
}

/// Clean up round-off and sort.
fn finish(mut vals: Vec<C64>, scale: f64) -> Vec<C64> {
    let tiny = 1e-11 * scale;
    for z in &mut vals {
        if z.re.abs() < tiny {
            z.re = 0.0;
        }
        if z.im.abs() < tiny {
            z.im = 0.0;
        }
    }
    sort_by_modulus(&mut vals);
    vals
}

/// Sort eigenvalues by decreasing modulus; ties (within `1e-9` relative) are ordered by
/// argument in `[0, 2π)`, so the positive real one comes first, then counter-clockwise.
pub fn sort_by_modulus(vals: &mut [C64]) {
    let scale = vals.iter().fold(1.0_f64, |acc, z| acc.max(z.norm()));
    let tol = 1e-9 * scale;
    let arg = |z: &C64| {
        let a = z.im.atan2(z.re);
        if a < -1e-12 {
            a + std::f64::consts::TAU
        } else {
            a.max(0.0)
        }
    };
    // Sort by modulus first (a total order), then re-sort each run of near-equal moduli by
    // argument; a tolerance inside one comparator would not be transitive.
    vals.sort_by(|a, b| b.norm().partial_cmp(&a.norm()).unwrap_or(Ordering::Equal));
    let mut start = 0;
    while start < vals.len() {
        let mut end = start + 1;
        while end < vals.len() && vals[end - 1].norm() - vals[end].norm() <= tol {
            end += 1;
        }
        vals[start..end].sort_by(|a, b| arg(a).partial_cmp(&arg(b)).unwrap_or(Ordering::Equal));
        start = end;
    }
}
