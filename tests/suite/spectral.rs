//! Spectral analysis of equivalence graphs against every number printed in
//! Edelkamp's "Prediction of Regular Search Tree Growth by Spectral Analysis", plus the
//! bounded eigenvalue wrapper, the file format and the report; and large graphs, whose
//! eigenvalues and closed form are skipped (with the reason) or that are refused.

use crate::common;

use common::{cleanup, code, plytile, s, scratch_dir, stderr};
use nalgebra::{Complex, DMatrix, Schur};
use plytile::growth::eigen::{self, C64};
use plytile::growth::perron::perron_root;
use plytile::growth::spectral::{
    closed_form, distinct_eigenvalues, exact_counts, float_counts, generator_matrix, period,
    power_iteration, spectral_radius, ClosedForm, Limits, Tolerances,
};
use plytile::growth::{load_graph, render_text, spectral_report, EquivalenceGraph, GraphError};
use proptest::prelude::*;
use std::sync::mpsc;
use std::time::Duration;

// ---------------------------------------------------------------------------------------------
// Helpers

fn load(name: &str) -> EquivalenceGraph {
    let path = format!("{}/puzzles/spectral/{name}", env!("CARGO_MANIFEST_DIR"));
    load_graph(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn cx(re: f64, im: f64) -> C64 {
    Complex::new(re, im)
}

fn re(x: f64) -> C64 {
    cx(x, 0.0)
}

/// Run `f` on a helper thread and fail (instead of hanging) if it takes longer than 5 s.
fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(5))
        .expect("computation did not finish within 5 s")
}

fn eigs(m: &DMatrix<f64>) -> Vec<C64> {
    let m = m.clone();
    bounded(move || eigen::eigenvalues(&m)).expect("eigenvalues")
}

/// Multiset equality of eigenvalues within `tol`.
fn assert_spectrum(got: &[C64], want: &[C64], tol: f64) {
    assert_eq!(got.len(), want.len(), "got {got:?}, want {want:?}");
    let mut used = vec![false; got.len()];
    for w in want {
        let hit = (0..got.len()).find(|&i| !used[i] && (got[i] - w).norm() <= tol);
        match hit {
            Some(i) => used[i] = true,
            None => panic!("eigenvalue {w} missing: got {got:?}, want {want:?}"),
        }
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

/// The coefficient the closed form gives to eigenvalue `lambda`, for the total (`class =
/// None`) or one class.
fn coef(form: &ClosedForm, lambda: C64, class: Option<usize>) -> C64 {
    let t = form
        .terms
        .iter()
        .find(|t| (cx(t.eigenvalue[0], t.eigenvalue[1]) - lambda).norm() < 1e-7)
        .unwrap_or_else(|| panic!("no term for {lambda}: {:?}", form.terms));
    let p = match class {
        None => t.coefficient,
        Some(j) => t.class_coefficients[j],
    };
    cx(p[0], p[1])
}

fn assert_coef(form: &ClosedForm, lambda: C64, class: Option<usize>, want: C64) {
    let got = coef(form, lambda, class);
    assert!(
        (got - want).norm() < 1e-9,
        "coefficient of {lambda} (class {class:?}): got {got}, want {want}"
    );
}

fn graph_form(g: &EquivalenceGraph, depth: usize) -> ClosedForm {
    let p = generator_matrix(g.children());
    let start: Vec<f64> = g.start().iter().map(|&x| x as f64).collect();
    closed_form(&p, &start, &eigs(&p), depth)
}

fn col(counts: &[Vec<u128>], class: usize) -> Vec<u128> {
    counts.iter().map(|v| v[class]).collect()
}

/// `num/den == a/b` exactly, by cross-multiplication.
fn same_ratio(num: u128, den: u128, a: u128, b: u128) -> bool {
    num * b == den * a
}

const S2: f64 = std::f64::consts::SQRT_2;

fn s3() -> f64 {
    3f64.sqrt()
}

fn s5() -> f64 {
    5f64.sqrt()
}

// ---------------------------------------------------------------------------------------------
// Eight-puzzle (Edelkamp §4, §5, §6)

#[test]
fn eight_puzzle_matrix_and_eigenvalues() {
    let g = load("eight.ron");
    // The paper's determinant matrix is A (rows = parent); P = A^T has the same spectrum.
    assert_eq!(g.children(), &[vec![0, 2, 0], vec![2, 0, 1], vec![0, 4, 0]]);
    let p = generator_matrix(g.children());
    let e = eigs(&p);
    assert_spectrum(&e, &[re(8f64.sqrt()), re(-(8f64.sqrt())), re(0.0)], 1e-12);
    assert!((8f64.sqrt() - 2.828427124).abs() < 1e-9);
    assert!(close(spectral_radius(&e), 2.828427124, 1e-9));
    assert_eq!(period(&e), Some(2));
    // b(4 - b^2) + 4b = 0 is the characteristic polynomial (up to sign).
    for z in &e {
        assert!((z * (re(4.0) - z * z) + z * 4.0).norm() < 1e-9);
    }
}

#[test]
fn eight_puzzle_eigenvectors_and_basis_change() {
    let p = generator_matrix(load("eight.ron").children());
    let r8 = 8f64.sqrt();
    let c = DMatrix::from_row_slice(3, 3, &[2.0, -2.0, 2.0, -r8, 0.0, r8, 1.0, 1.0, 1.0]);
    // The seed prints C^-1 = 1/16 [[2, -√8, 4], [-2, 0, 8], [2, √8, 4]]; the entry (1, 0) must
    // be -4, not -2 (row 1 times column 0 of C is 4/16 otherwise). It only affects the
    // zero-eigenvalue term, which vanishes for d >= 1.
    let seed_inv =
        DMatrix::from_row_slice(3, 3, &[2.0, -r8, 4.0, -2.0, 0.0, 8.0, 2.0, r8, 4.0]) / 16.0;
    assert!(((&seed_inv * &c)[(1, 0)] - 0.25).abs() < 1e-12);
    let mut c_inv = seed_inv.clone();
    c_inv[(1, 0)] = -4.0 / 16.0;
    assert!((&c_inv * &c - DMatrix::identity(3, 3)).norm() < 1e-12);
    assert!((c.clone().try_inverse().unwrap() - &c_inv).norm() < 1e-12);
    let q = &c_inv * &p * &c;
    let want = DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![-r8, 0.0, r8]));
    assert!((q - want).norm() < 1e-12);
}

#[test]
fn eight_puzzle_counts_ratios_and_closed_form() {
    let g = load("eight.ron");
    let r = spectral_report(&g, 20);
    let n = &r.class_counts_per_depth;
    assert_eq!(n[1], vec![0, 2, 0]);
    assert_eq!(n[2], vec![4, 0, 2]);
    assert_eq!(n[3], vec![0, 16, 0]);
    assert_eq!(n[4], vec![32, 0, 16]);
    // Branching alternates between 3 and 8/3.
    for d in 2..=20 {
        let (a, b) = (r.nodes_per_depth[d], r.nodes_per_depth[d - 1]);
        if d % 2 == 0 {
            assert_eq!(a, b * 3, "d = {d}");
        } else {
            assert_eq!(a * 3, b * 8, "d = {d}");
        }
    }
    // N_1(d)/N_1(d-2) = 8 for d > 3 (even d; the corner count is 0 at odd depth).
    for d in (4..=20).step_by(2) {
        assert_eq!(n[d][0], 8 * n[d - 2][0]);
    }
    // n(d)/sqrt(8)^d alternates between 3/4 and 1/sqrt(2).
    for d in 1..=20 {
        let q = r.nodes_per_depth[d] as f64 / 8f64.powf(d as f64 / 2.0);
        let want = if d % 2 == 0 { 0.75 } else { 1.0 / S2 };
        assert!(close(q, want, 1e-12), "d = {d}: {q}");
    }
    // Power iteration with step 2 gives sqrt(8) exactly.
    let pi = r.power_iteration.as_ref().unwrap();
    assert_eq!(pi.step, 2);
    assert!(close(pi.estimate, 8f64.sqrt(), 1e-14));

    // N(d) = 1/16 (4 √8^d ((-1)^d+1), 2 √8^(d+1) ((-1)^(d+1)+1), 2 √8^d ((-1)^d+1)) for d >= 1,
    // plus the zero-eigenvalue term the paper leaves out (it only acts at d = 0).
    let f = &r.closed_form;
    assert!(f.diagonalizable);
    let (p8, m8, z) = (re(8f64.sqrt()), re(-(8f64.sqrt())), re(0.0));
    let r8 = 8f64.sqrt();
    assert_coef(f, p8, Some(0), re(0.25));
    assert_coef(f, m8, Some(0), re(0.25));
    assert_coef(f, z, Some(0), re(0.5));
    assert_coef(f, p8, Some(1), re(r8 / 8.0));
    assert_coef(f, m8, Some(1), re(-r8 / 8.0));
    assert_coef(f, z, Some(1), re(0.0));
    assert_coef(f, p8, Some(2), re(0.125));
    assert_coef(f, m8, Some(2), re(0.125));
    assert_coef(f, z, Some(2), re(-0.25));
    assert_coef(f, p8, None, re(0.375 + S2 / 4.0));
    assert_coef(f, m8, None, re(0.375 - S2 / 4.0));
    assert_coef(f, z, None, re(0.25));
    for d in 0..=20 {
        let v = f.total(d).unwrap();
        assert!(close(v.re, r.nodes_per_depth[d] as f64, 1e-12) && v.im.abs() < 1e-6);
    }
}

// ---------------------------------------------------------------------------------------------
// Fifteen-puzzle

#[test]
fn fifteen_puzzle_eigenvalues() {
    let g = load("fifteen.ron");
    assert_eq!(g.children(), &[vec![0, 2, 0], vec![1, 1, 1], vec![0, 2, 2]]);
    let p = generator_matrix(g.children());
    let e = eigs(&p);
    assert_spectrum(&e, &[re(1.0 + s5()), re(1.0), re(1.0 - s5())], 1e-12);
    assert!(close(1.0 + s5(), 3.236067978, 1e-9) && close(1.0 - s5(), -1.236067978, 1e-9));
    assert_eq!(period(&e), Some(1));
    // (1 - b)(b - 2)b + 4b - 4 = 0.
    for z in &e {
        assert!(((re(1.0) - z) * (z - 2.0) * z + z * 4.0 - 4.0).norm() < 1e-9);
    }
    // The paper's C and C^-1 (columns: eigenvectors of 1-√5, 1, 1+√5).
    let s = s5();
    let c = DMatrix::from_row_slice(
        3,
        3,
        &[
            1.0,
            -1.0,
            1.0,
            1.0 - s,
            -1.0,
            1.0 + s,
            1.5 - 0.5 * s,
            1.0,
            1.5 + 0.5 * s,
        ],
    );
    let c_inv = DMatrix::from_row_slice(
        3,
        3,
        &[
            (5.0 + 3.0 * s) * s / 50.0,
            -(5.0 + s) * s / 50.0,
            0.2,
            -0.4,
            -0.2,
            0.4,
            (-5.0 + 3.0 * s) * s / 50.0,
            -(-5.0 + s) * s / 50.0,
            0.2,
        ],
    );
    assert!((&c_inv * &c - DMatrix::identity(3, 3)).norm() < 1e-12);
    let q = &c_inv * &p * &c;
    let want = DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![1.0 - s, 1.0, 1.0 + s]));
    assert!((q - want).norm() < 1e-12);
}

#[test]
fn fifteen_puzzle_class_counts() {
    let r = spectral_report(&load("fifteen.ron"), 12);
    let n = &r.class_counts_per_depth;
    assert_eq!(col(n, 0)[..7], [1, 0, 2, 2, 10, 26, 90]);
    assert_eq!(col(n, 1)[..7], [0, 2, 2, 10, 26, 90, 282]);
    // The seed prints the middle counts as "0,0,6,22,70,230": the depth-2 value 2 is missing.
    assert_eq!(col(n, 2)[..7], [0, 0, 2, 6, 22, 70, 230]);
    assert_eq!(r.nodes_per_depth[..6], [1, 2, 6, 18, 58, 186]);
}

#[test]
fn fifteen_puzzle_ratio_sequence() {
    // The paper's sequence N_1(d)/N_1(d-1): 1, 3, 13/5, 45/13, 47/15, 461/141, 1485/461,
    // 4813/1485, 15565/4813, 50381/15565, 163021/50381, 527565/163021. It is the corner count
    // of a tree rooted at a *side* node (0, 1, 1, 5, 13, 45, 141, ...), for d = 2..=13; the
    // second ratio is 5/1 there, not 3 (no start vector gives 1, 3, 13/5, ...).
    let g = load("fifteen.ron").with_start(vec![0, 1, 0]).unwrap();
    let counts = exact_counts(g.children(), g.start(), 13);
    let corner = col(&counts.class_counts, 0);
    assert_eq!(corner[..8], [0, 1, 1, 5, 13, 45, 141, 461]);
    let seed: [(u128, u128); 12] = [
        (1, 1),
        (5, 1), // seed: 3
        (13, 5),
        (45, 13),
        (47, 15),
        (461, 141),
        (1485, 461),
        (4813, 1485),
        (15565, 4813),
        (50381, 15565),
        (163021, 50381),
        (527565, 163021),
    ];
    for (i, &(a, b)) in seed.iter().enumerate() {
        let d = i + 2;
        assert!(
            same_ratio(corner[d], corner[d - 1], a, b),
            "d = {d}: {}/{} vs {a}/{b}",
            corner[d],
            corner[d - 1]
        );
    }
    assert_eq!((corner[13], corner[12]), (527565, 163021));
    assert!(close(527565.0 / 163021.0, 3.236178161, 1e-9));
    // The side count of the same tree is the same sequence one depth earlier.
    assert_eq!(col(&counts.class_counts, 1)[..13], corner[1..14]);
}

#[test]
fn fifteen_puzzle_closed_form() {
    let g = load("fifteen.ron");
    let f = graph_form(&g, 30);
    assert!(f.diagonalizable);
    let s = s5();
    let (lp, l1, lm) = (re(1.0 + s), re(1.0), re(1.0 - s));
    // Corner: 1/50 (5+3√5)√5 (1-√5)^d + 2/5 + 1/50 (-5+3√5)√5 (1+√5)^d.
    let a = (5.0 + 3.0 * s) * s / 50.0;
    let b = (-5.0 + 3.0 * s) * s / 50.0;
    assert_coef(&f, lm, Some(0), re(a));
    assert_coef(&f, l1, Some(0), re(0.4));
    assert_coef(&f, lp, Some(0), re(b));
    assert_coef(&f, lm, Some(1), re((1.0 - s) * a));
    assert_coef(&f, l1, Some(1), re(0.4));
    assert_coef(&f, lp, Some(1), re((1.0 + s) * b));
    assert_coef(&f, lm, Some(2), re((1.5 - 0.5 * s) * a));
    assert_coef(&f, l1, Some(2), re(-0.4));
    assert_coef(&f, lp, Some(2), re((1.5 + 0.5 * s) * b));
    // Total: 1/50 (7/2 - 3/2 √5)(5+3√5)√5, 2/5, 1/50 (7/2 + 3/2 √5)(-5+3√5)√5 = .5236067984.
    assert_coef(&f, lm, None, re((3.5 - 1.5 * s) * a));
    assert_coef(&f, l1, None, re(0.4));
    assert_coef(&f, lp, None, re((3.5 + 1.5 * s) * b));
    assert!(close(coef(&f, lp, None).re, 0.5236067984, 1e-9));
    // n(d)/(1+√5)^d converges to it.
    let r = spectral_report(&g, 40);
    let q = r.nodes_per_depth[40] as f64 / (1.0 + s).powi(40);
    assert!(close(q, 0.5236067984, 1e-9), "{q}");
    assert!(f.max_relative_error.unwrap() < 1e-12);
}

// ---------------------------------------------------------------------------------------------
// Twenty-four-puzzle

#[test]
fn twenty_four_puzzle_eigenvalues() {
    let g = load("twenty_four.ron");
    let p = generator_matrix(g.children());
    let e = eigs(&p);
    let (a, b) = (s3(), 12f64.sqrt());
    assert_spectrum(&e, &[re(0.0), re(0.0), re(a), re(-a), re(b), re(-b)], 1e-9);
    assert!(close(a, 1.732050808, 1e-9) && close(b, 3.464101616, 1e-9));
    assert_eq!(period(&e), Some(2));
    // The double eigenvalue 0 is semisimple, so P is diagonalizable.
    let d = distinct_eigenvalues(&p, &e);
    let zero = d.iter().find(|x| x.value.norm() < 1e-9).unwrap();
    assert_eq!((zero.algebraic, zero.geometric), (2, 2));
}

#[test]
fn twenty_four_puzzle_counts_and_ratios() {
    let g = load("twenty_four.ron");
    // The totals 2, 6, 18, 60, 198, 684 are n(1..=6) from a corner start (n(0) = 1).
    let r = spectral_report(&g, 40);
    assert_eq!(r.nodes_per_depth[..7], [1, 2, 6, 18, 60, 198, 684]);
    // N_1(d)/N_1(d-2) for d = 4, 6, ..., 20 (corner counts, even depths).
    let corner = col(&r.class_counts_per_depth, 0);
    let seed: [(u128, u128); 9] = [
        (6, 1),
        (9, 1),
        (11, 1),
        (129, 11),
        (513, 43),
        (683, 57),
        (8193, 683),
        (32769, 2731),
        (43691, 3641),
    ];
    for (i, &(a, b)) in seed.iter().enumerate() {
        let d = 4 + 2 * i;
        assert!(same_ratio(corner[d], corner[d - 2], a, b), "d = {d}");
    }
    assert!(close(43691.0 / 3641.0, 11.99972535, 1e-9));
    // n(d)/√12^d alternates between .3888888889 (even) and .3849001795 (odd) for large d.
    for d in 34..=40 {
        let q = r.nodes_per_depth[d] as f64 / 12f64.powf(d as f64 / 2.0);
        let want = if d % 2 == 0 {
            0.3888888889
        } else {
            0.3849001795
        };
        assert!((q - want).abs() < 1e-8, "d = {d}: {q}");
    }
    let pi = r.power_iteration.as_ref().unwrap();
    assert_eq!(pi.step, 2);
    assert!(close(pi.estimate, 3.464101616, 1e-8));
}

#[test]
fn twenty_four_puzzle_closed_form() {
    let f = graph_form(&load("twenty_four.ron"), 30);
    assert!(f.diagonalizable);
    let (a, b) = (s3(), 2.0 * s3());
    // Order in the paper: (-2√3)^d, (-√3)^d, (√3)^d, (2√3)^d.
    let lam = [re(-b), re(-a), re(a), re(b)];
    let rows: [[f64; 4]; 6] = [
        [1.0 / 36.0, 2.0 / 9.0, 2.0 / 9.0, 1.0 / 36.0],
        [-a / 18.0, -2.0 * a / 9.0, 2.0 * a / 9.0, a / 18.0],
        [1.0 / 18.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 18.0],
        [1.0 / 12.0, 0.0, 0.0, 1.0 / 12.0],
        [-a / 18.0, a / 9.0, -a / 9.0, a / 18.0],
        [1.0 / 36.0, -1.0 / 9.0, -1.0 / 9.0, 1.0 / 36.0],
    ];
    for (class, row) in rows.iter().enumerate() {
        for (l, &want) in lam.iter().zip(row) {
            assert_coef(&f, *l, Some(class), re(want));
        }
    }
    // n(d) = 1/36 (7-4√3)(-2√3)^d + 1/9 (2-√3)(-√3)^d + 1/9 (2+√3)(√3)^d + 1/36 (7+4√3)(2√3)^d
    // for d >= 1; the zero eigenvalue adds 1/6 · 0^d, which makes n(0) = 1 (the paper's
    // formula gives 5/6 there).
    let totals = [
        (7.0 - 4.0 * a) / 36.0,
        (2.0 - a) / 9.0,
        (2.0 + a) / 9.0,
        (7.0 + 4.0 * a) / 36.0,
    ];
    for (l, &want) in lam.iter().zip(&totals) {
        assert_coef(&f, *l, None, re(want));
    }
    assert_coef(&f, re(0.0), None, re(1.0 / 6.0));
    assert!(close(totals[3] + totals[0], 0.3888888889, 1e-9));
    assert!(close(totals[3] - totals[0], 0.3849001795, 1e-9));
    let seed_total_at_0: f64 = totals.iter().sum();
    assert!(close(seed_total_at_0, 5.0 / 6.0, 1e-12));
}

// ---------------------------------------------------------------------------------------------
// Eight-puzzle with predecessor elimination (Edelkamp §7.2)

#[test]
fn predecessor_eight_puzzle() {
    let g = load("eight_pred.ron");
    assert_eq!(
        g.children(),
        &[
            vec![0, 1, 0, 0],
            vec![1, 0, 0, 1],
            vec![2, 0, 0, 0],
            vec![0, 0, 3, 0]
        ]
    );
    let p = generator_matrix(g.children());
    let e = eigs(&p);
    assert_spectrum(&e, &[cx(0.0, S2), cx(0.0, -S2), re(s3()), re(-s3())], 1e-12);
    assert!(close(spectral_radius(&e), s3(), 1e-12));
    assert_eq!(period(&e), Some(2));

    let r = spectral_report(&g, 9);
    assert_eq!(r.nodes_per_depth, [1, 2, 4, 8, 10, 20, 34, 68, 94, 188]);

    // The paper's closed form is for N(0) = (1, 0, 0, 0): its totals are the list above,
    // shifted by one depth (n = 1, 1, 2, 4, 8, 10, ...).
    let e0 = g.with_start(vec![1, 0, 0, 0]).unwrap();
    let r0 = spectral_report(&e0, 10);
    assert_eq!(r0.nodes_per_depth[1..], r.nodes_per_depth[..]);
    let f = &r0.closed_form;
    assert!(f.diagonalizable);
    let (ip, im, sp, sm) = (cx(0.0, S2), cx(0.0, -S2), re(s3()), re(-s3()));
    let i = cx(0.0, 1.0);
    let rows = [
        [re(0.2), re(0.2), re(0.3), re(0.3)],
        [
            -i * S2 / 10.0,
            i * S2 / 10.0,
            re(s3() / 10.0),
            re(-s3() / 10.0),
        ],
        [
            i * S2 * 3.0 / 20.0,
            -i * S2 * 3.0 / 20.0,
            re(s3() / 10.0),
            re(-s3() / 10.0),
        ],
        [re(-0.1), re(-0.1), re(0.1), re(0.1)],
    ];
    for (class, row) in rows.iter().enumerate() {
        for (l, want) in [ip, im, sp, sm].iter().zip(row) {
            assert_coef(f, *l, Some(class), *want);
        }
    }
    assert_coef(f, ip, None, (re(0.5) + i * S2 / 4.0) / 5.0);
    assert_coef(f, im, None, (re(0.5) - i * S2 / 4.0) / 5.0);
    assert_coef(f, sp, None, re((4.0 + 2.0 * s3()) / 10.0));
    assert_coef(f, sm, None, re((4.0 - 2.0 * s3()) / 10.0));
    for d in 0..=10 {
        let v = f.total(d).unwrap();
        assert!(close(v.re, r0.nodes_per_depth[d] as f64, 1e-12) && v.im.abs() < 1e-9);
    }
}

// ---------------------------------------------------------------------------------------------
// Rubik's cube (Edelkamp §7.1)

#[test]
fn rubiks_cube() {
    let g = load("rubik.ron");
    // The seed prints P itself: [[6, 6], [9, 6]].
    let p = generator_matrix(g.children());
    assert_eq!(p, DMatrix::from_row_slice(2, 2, &[6.0, 6.0, 9.0, 6.0]));
    let branching: Vec<u64> = g.children().iter().map(|r| r.iter().sum()).collect();
    assert_eq!(branching, [15, 12]);
    let e = eigs(&p);
    let r6 = 6f64.sqrt();
    assert_spectrum(&e, &[re(6.0 + 3.0 * r6), re(6.0 - 3.0 * r6)], 1e-12);
    assert!(close(6.0 + 3.0 * r6, 13.34846923, 1e-9));
    assert_eq!(period(&e), Some(1));

    // The paper's n(d) = 1/2 (6+3√6)^d + 1/2 (6-3√6)^d is the primary count from one primary
    // node (no non-negative start vector has it as its total: that needs N(0) = (-2, 3)).
    let r = spectral_report(&g, 25);
    let primary = col(&r.class_counts_per_depth, 0);
    assert_eq!(primary[..3], [1, 6, 90]);
    for (d, &x) in primary.iter().enumerate() {
        let want = 0.5 * (6.0 + 3.0 * r6).powi(d as i32) + 0.5 * (6.0 - 3.0 * r6).powi(d as i32);
        assert!(close(x as f64, want, 1e-12), "d = {d}");
    }
    let (lp, lm) = (re(6.0 + 3.0 * r6), re(6.0 - 3.0 * r6));
    assert_coef(&r.closed_form, lp, Some(0), re(0.5));
    assert_coef(&r.closed_form, lm, Some(0), re(0.5));
    let f = closed_form(&p, &[-2.0, 3.0], &e, 20);
    assert_coef(&f, lp, None, re(0.5));
    assert_coef(&f, lm, None, re(0.5));
    let pi = power_iteration(&primary.iter().map(|&x| x as f64).collect::<Vec<_>>(), 1).unwrap();
    assert!(close(pi.estimate, 13.34846923, 1e-8));

    // With the root as its own class the totals are the real tree sizes (Korf 1997).
    let root = spectral_report(&load("rubik_root.ron"), 4);
    assert_eq!(root.nodes_per_depth, [1, 18, 243, 3240, 43254]);
}

#[test]
fn power_iteration_says_why_there_is_no_estimate() {
    let graph =
        |c: u64| EquivalenceGraph::new(vec!["a".into()], vec![vec![c as i64]], vec![1]).unwrap();
    let says = |g: &EquivalenceGraph, depth: usize| {
        let text = render_text(&spectral_report(g, depth));
        text.lines()
            .find(|l| l.starts_with("power iteration"))
            .unwrap()
            .to_string()
    };
    // n(d) = 2^d, but depth 0 has no pair to compare: too shallow, not dead
    assert!(
        says(&graph(2), 0).contains("give --depth 1 or more"),
        "{}",
        says(&graph(2), 0)
    );
    assert!(says(&graph(0), 3).contains("the tree dies out"));
    // the 8-puzzle's period 2 compares n(d) with n(d-2)
    assert!(says(&load("eight.ron"), 1).contains("give --depth 2 or more"));
}

#[test]
fn closed_form_of_thirty_classes_has_the_eigenspace_coefficients() {
    // A fit of n(0..m-1) through the Vandermonde matrix of 30 eigenvalues matched those
    // depths to 1e-13 with coefficients off by O(1): a real eigenvalue got a complex one.
    let mut seed = 30u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        [0, 0, 0, 1, 2][(seed >> 33) as usize % 5]
    };
    let n = 30;
    let children: Vec<Vec<u64>> = (0..n).map(|_| (0..n).map(|_| next()).collect()).collect();
    let mut start = vec![0.0; n];
    start[0] = 1.0;
    let p = generator_matrix(&children);
    let f = closed_form(&p, &start, &eigs(&p), 29);
    assert!(f.statement.contains("holds"), "{}", f.statement);
    assert!(f.max_relative_error.unwrap() < 1e-9);
    // Real data: a real eigenvalue has a real coefficient, a conjugate pair conjugate ones.
    let terms: Vec<(C64, C64)> = f
        .terms
        .iter()
        .map(|t| {
            (
                cx(t.eigenvalue[0], t.eigenvalue[1]),
                cx(t.coefficient[0], t.coefficient[1]),
            )
        })
        .collect();
    for &(l, c) in &terms {
        if l.im == 0.0 {
            assert!(c.im.abs() < 1e-9, "real {l} has coefficient {c}");
        } else {
            let (_, cc) = terms
                .iter()
                .find(|(m, _)| (*m - l.conj()).norm() < 1e-9)
                .unwrap();
            assert!((*cc - c.conj()).norm() < 1e-9, "{l}: {c} against {cc}");
        }
    }
    // The dominant coefficient is (u·N(0))(Σv)/(u·v) with v, u the right and left Perron
    // vectors, here by plain power iteration on P and Pᵀ.
    let perron = |m: &DMatrix<f64>| {
        let mut v = vec![1.0; n];
        for _ in 0..200 {
            let w: Vec<f64> = (0..n)
                .map(|i| (0..n).map(|j| m[(i, j)] * v[j]).sum())
                .collect();
            let norm = w.iter().sum::<f64>();
            v = w.iter().map(|x| x / norm).collect();
        }
        v
    };
    let (v, u) = (perron(&p), perron(&p.transpose()));
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let want = dot(&u, &start) * v.iter().sum::<f64>() / dot(&u, &v);
    let (rho, c0) = terms[0];
    assert!(
        rho.im == 0.0 && (c0.re - want).abs() < 1e-9 * want,
        "{c0} against {want}"
    );
}

// ---------------------------------------------------------------------------------------------
// The bounded eigenvalue wrapper

fn cyclic(n: usize) -> DMatrix<f64> {
    DMatrix::from_fn(n, n, |i, j| if (j + 1) % n == i { 1.0 } else { 0.0 })
}

fn roots_of_unity(n: usize) -> Vec<C64> {
    (0..n)
        .map(|k| C64::from_polar(1.0, std::f64::consts::TAU * k as f64 / n as f64))
        .collect()
}

#[test]
fn unshifted_schur_does_not_converge() {
    // Why the wrapper exists: with a cap the unshifted iteration reports failure (nalgebra's
    // uncapped `eigenvalues()` would loop forever here).
    let p = generator_matrix(load("eight.ron").children());
    let out = bounded(move || Schur::try_new(p, f64::EPSILON, 10_000).is_none());
    assert!(out);
    // The 4x4 cycle in one orientation converges, its transpose does not; the 6x6 one fails.
    let c4t = cyclic(4).transpose();
    assert!(bounded(
        move || Schur::try_new(c4t, f64::EPSILON, 10_000).is_none()
    ));
    let c6 = cyclic(6);
    assert!(bounded(
        move || Schur::try_new(c6, f64::EPSILON, 10_000).is_none()
    ));
}

#[test]
fn cyclic_permutation_matrices() {
    for (n, m) in [2, 3, 4, 5, 6, 8]
        .into_iter()
        .flat_map(|n| [(n, cyclic(n)), (n, cyclic(n).transpose())])
    {
        let e = eigs(&m);
        assert_spectrum(&e, &roots_of_unity(n), 1e-9);
        assert!(close(spectral_radius(&e), 1.0, 1e-9));
        assert_eq!(period(&e), Some(n), "n = {n}");
        // The permutation is diagonalizable (distinct eigenvalues).
        let f = closed_form(&m, &vec![1.0; n], &e, 3 * n);
        assert!(f.diagonalizable);
    }
}

#[test]
fn block_cyclic_period() {
    // Two cycles of lengths 2 and 3: top eigenvalues are the 2nd and 3rd roots of unity.
    let mut m = DMatrix::zeros(5, 5);
    m[(1, 0)] = 1.0;
    m[(0, 1)] = 1.0;
    m[(3, 2)] = 1.0;
    m[(4, 3)] = 1.0;
    m[(2, 4)] = 1.0;
    let e = eigs(&m);
    assert_eq!(period(&e), Some(6));
}

#[test]
fn nilpotent_matrices() {
    // Strictly upper triangular, and the same conjugated by a unimodular integer matrix.
    let n = DMatrix::from_fn(4, 4, |i, j| if j == i + 1 { 1.0 } else { 0.0 });
    let t = DMatrix::from_row_slice(
        4,
        4,
        &[
            1.0, 2.0, 0.0, 1.0, 0.0, 1.0, 3.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0,
        ],
    );
    let t_inv = t.clone().try_inverse().unwrap();
    let conj = &t * &n * &t_inv;
    for (m, tol) in [(n.clone(), 1e-12), (conj, 1e-2)] {
        let e = eigs(&m);
        assert_spectrum(&e, &[re(0.0); 4], tol);
        assert!(spectral_radius(&e) < tol);
        let f = closed_form(&m, &[1.0, 1.0, 1.0, 1.0], &e, 10);
        assert!(!f.diagonalizable, "{f:?}");
        assert!(f.terms.is_empty());
        assert!(
            f.statement.contains("not diagonalizable"),
            "{}",
            f.statement
        );
    }
    // Equivalence graph whose tree dies out: chain of 3 classes.
    let g = EquivalenceGraph::new(
        vec!["a".into(), "b".into(), "c".into()],
        vec![vec![0, 2, 0], vec![0, 0, 3], vec![0, 0, 0]],
        vec![1, 0, 0],
    )
    .unwrap();
    let r = spectral_report(&g, 5);
    assert_eq!(r.nodes_per_depth, [1, 2, 6, 0, 0, 0]);
    assert_eq!(r.spectral_radius, Some(0.0));
    assert_eq!(r.period, Some(1));
    assert!(r.power_iteration.is_none());
    assert!(!r.closed_form.diagonalizable);
    assert!(r.closed_form.diagonalizable_known);
    let text = render_text(&r);
    assert!(
        text.contains("period 1: ρ = 0, no cycle among the classes: n(d) reaches 0"),
        "{text}"
    );
    assert!(!text.contains("n(d)/n(d-1) → ρ"), "{text}");
}

#[test]
fn jordan_matrices() {
    // J = 2I + N (3x3 Jordan block) plus a simple eigenvalue 5, conjugated.
    let mut j = DMatrix::zeros(4, 4);
    for i in 0..3 {
        j[(i, i)] = 2.0;
    }
    j[(0, 1)] = 1.0;
    j[(1, 2)] = 1.0;
    j[(3, 3)] = 5.0;
    let t = DMatrix::from_row_slice(
        4,
        4,
        &[
            2.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 2.0, 1.0, 1.0, 0.0, 0.0, 1.0,
        ],
    );
    let conj = &t * &j * t.clone().try_inverse().unwrap();
    for (m, tol) in [(j.clone(), 1e-12), (conj, 1e-3)] {
        let e = eigs(&m);
        assert_spectrum(&e, &[re(5.0), re(2.0), re(2.0), re(2.0)], tol);
        let d = distinct_eigenvalues(&m, &e);
        let two = d.iter().find(|x| (x.value - 2.0).norm() < tol).unwrap();
        assert_eq!((two.algebraic, two.geometric), (3, 1));
        let f = closed_form(&m, &[1.0, 0.0, 0.0, 1.0], &e, 10);
        assert!(!f.diagonalizable);
        assert!(
            f.statement.contains("algebraic multiplicity 3"),
            "{}",
            f.statement
        );
    }
    // A 2x2 Jordan block in an equivalence graph: [[2, 1], [0, 2]].
    let g = EquivalenceGraph::new(
        vec!["x".into(), "y".into()],
        vec![vec![2, 0], vec![1, 2]],
        vec![1, 1],
    )
    .unwrap();
    let r = spectral_report(&g, 6);
    assert!(!r.closed_form.diagonalizable);
    assert!(close(r.spectral_radius.unwrap(), 2.0, 1e-6));
    // Semisimple repeated eigenvalue: 2I is diagonalizable.
    let two = DMatrix::identity(3, 3) * 2.0;
    let e = eigs(&two);
    let f = closed_form(&two, &[1.0, 2.0, 3.0], &e, 10);
    assert!(f.diagonalizable);
    assert_eq!(f.terms.len(), 1);
    assert_eq!(f.terms[0].multiplicity, 3);
    assert!(close(f.terms[0].coefficient[0], 6.0, 1e-12));
}

#[test]
fn eigen_rejects_bad_input() {
    assert!(matches!(
        eigen::eigenvalues(&DMatrix::zeros(2, 3)),
        Err(eigen::EigenError::NotSquare { rows: 2, cols: 3 })
    ));
    let mut m = DMatrix::zeros(2, 2);
    m[(1, 0)] = f64::NAN;
    assert!(matches!(
        eigen::eigenvalues(&m),
        Err(eigen::EigenError::NonFinite { row: 1, col: 0 })
    ));
    assert_eq!(eigen::eigenvalues(&DMatrix::zeros(0, 0)), Ok(vec![]));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Random small non-negative integer matrices: the wrapper always answers quickly, the
    /// eigenvalues sum to the trace, and a closed form, when one is claimed, reproduces the
    /// exact counts.
    #[test]
    fn random_equivalence_graphs(k in 1usize..6, entries in prop::collection::vec(0u64..4, 36)) {
        let children: Vec<Vec<u64>> = (0..k).map(|i| entries[i * 6..i * 6 + k].to_vec()).collect();
        let p = generator_matrix(&children);
        let e = eigs(&p);
        prop_assert_eq!(e.len(), k);
        let sum: C64 = e.iter().sum();
        prop_assert!((sum - p.trace()).norm() < 1e-6 * (1.0 + p.norm()));
        prop_assert!(period(&e).is_some());
        let start = vec![1.0; k];
        let f = closed_form(&p, &start, &e, 12);
        if f.diagonalizable {
            let exact = exact_counts(&children, &vec![1; k], 12).totals();
            for (d, &x) in exact.iter().enumerate() {
                let v = f.total(d).unwrap();
                prop_assert!((v.re - x as f64).abs() <= 1e-6 * (1.0 + x as f64),
                    "d = {} closed {} exact {} ({:?})", d, v, x, f);
            }
        }
        let fl = float_counts(&p, &start, 12);
        prop_assert_eq!(fl.len(), 13);
        // Perron–Frobenius without eigenvalues gives the same ρ (inside its bracket) and,
        // where the spectrum is clean enough to read one, the same period.
        let r = perron_root(&p, Tolerances::TOP_MODULUS);
        let rho = spectral_radius(&e);
        prop_assert!(r.converged);
        prop_assert!(r.bounds[0] <= r.radius && r.radius <= r.bounds[1]);
        let tol = if f.diagonalizable { 1e-9 } else { 1e-4 };
        prop_assert!((r.radius - rho).abs() <= tol * (1.0 + rho), "{:?} against {}", r, rho);
        if f.diagonalizable {
            prop_assert!(r.bounds[0] - 1e-9 * (1.0 + rho) <= rho && rho <= r.bounds[1] + 1e-9 * (1.0 + rho));
            prop_assert_eq!(Some(r.period), period(&e));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// File format, validation, report

#[test]
fn parse_example_from_the_issue() {
    let g = EquivalenceGraph::from_ron_str(
        r#"(classes: ["corner", "side", "middle"], children: [[0,2,0],[2,0,1],[0,4,0]], start: [1,0,0])"#,
    )
    .unwrap();
    assert_eq!(g, load("eight.ron"));
}

#[test]
fn validation_messages() {
    let bad = |s: &str| EquivalenceGraph::from_ron_str(s).unwrap_err();
    let e = bad(r#"(classes: ["a", "b"], children: [[0, 1]], start: [1, 0])"#);
    assert_eq!(
        e,
        GraphError::RowCount {
            rows: 1,
            classes: 2
        }
    );
    assert!(e.to_string().contains("square"), "{e}");
    let e = bad(r#"(classes: ["a", "b"], children: [[0, 1], [1]], start: [1, 0])"#);
    assert!(matches!(e, GraphError::RowLength { row: 1, len: 1, .. }));
    assert!(
        e.to_string().contains("row 1 (b)") && e.to_string().contains("square"),
        "{e}"
    );
    let e = bad(r#"(classes: ["a", "b"], children: [[0, 1], [-2, 0]], start: [1, 0])"#);
    assert!(
        e.to_string().contains("children[1][0]") && e.to_string().contains("b -> a"),
        "{e}"
    );
    assert!(e.to_string().contains("non-negative"), "{e}");
    let e = bad(r#"(classes: ["a", "b"], children: [[0, 1], [1, 0]], start: [1])"#);
    assert_eq!(e, GraphError::StartLength { len: 1, classes: 2 });
    let e = bad(r#"(classes: ["a", "b"], children: [[0, 1], [1, 0]], start: [1, -1])"#);
    assert!(
        e.to_string().contains("start[1]") && e.to_string().contains("(b)"),
        "{e}"
    );
    let e = bad(r#"(classes: ["a", "b"], children: [[0, 1], [1, 0]], start: [0, 0])"#);
    assert_eq!(e, GraphError::EmptyStart);
    let e = bad(r#"(classes: [], children: [], start: [])"#);
    assert_eq!(e, GraphError::NoClasses);
    let e = bad(r#"(classes: ["a", "a"], children: [[0, 1], [1, 0]], start: [1, 0])"#);
    assert!(matches!(e, GraphError::BadClassName { index: 1, .. }));
    let e = bad(r#"(classes: ["a"], children: [[1]], start: [1], extra: 3)"#);
    assert!(matches!(e, GraphError::Syntax { line: 1, .. }), "{e}");
    let e = bad("(classes: [\"a\"],\n children: [[1]\n start: [1])");
    assert!(
        matches!(e, GraphError::Syntax { line: 3, .. }),
        "syntax errors carry the line: {e}"
    );
}

#[test]
fn load_graph_errors_name_the_file() {
    let missing = "/nonexistent/dir/graph.ron";
    let e = load_graph(missing).unwrap_err().to_string();
    assert!(e.starts_with(missing), "{e}");
    let dir = std::env::temp_dir().join(format!("plytile-spectral-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.ron");
    std::fs::write(&path, r#"(classes: ["a"], children: [[-1]], start: [1])"#).unwrap();
    let e = load_graph(&path).unwrap_err().to_string();
    assert!(e.starts_with(&path.display().to_string()), "{e}");
    assert!(e.contains("non-negative"), "{e}");
    // a syntax error is `file:line:`, as for every other input
    std::fs::write(&path, "(classes: [\"a\"],\n children: [[1]\n start: [1])").unwrap();
    let e = load_graph(&path).unwrap_err().to_string();
    assert!(e.starts_with(&format!("{}:3: ", path.display())), "{e}");
    // an unknown field is named, with the fields there are
    std::fs::write(
        &path,
        "(classes: [\"a\"], children: [[1]], start: [1],\n size: 3)",
    )
    .unwrap();
    let e = load_graph(&path).unwrap_err().to_string();
    assert!(e.starts_with(&format!("{}:2: ", path.display())), "{e}");
    assert!(
        e.contains("unknown field `size`; the fields are `classes`, `children`, `start`"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn report_json_schema() {
    let r = spectral_report(&load("eight.ron"), 6);
    let v = serde_json::to_value(&r).unwrap();
    for key in [
        "eigenvalues",
        "spectral_radius",
        "period",
        "nodes_per_depth",
        "class_counts_per_depth",
        "ratio_per_depth",
        "power_iteration",
        "closed_form",
        "spectral_radius_bounds",
        "skipped",
    ] {
        assert!(v.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(v["eigenvalues"].as_array().unwrap().len(), 3);
    assert_eq!(v["eigenvalues"][0].as_array().unwrap().len(), 2);
    assert_eq!(v["period"], 2);
    assert_eq!(
        v["nodes_per_depth"],
        serde_json::json!([1, 2, 6, 16, 48, 128, 384])
    );
    assert_eq!(v["class_counts_per_depth"][2], serde_json::json!([4, 0, 2]));
    assert_eq!(v["closed_form"]["diagonalizable"], true);
    assert_eq!(v["closed_form"]["diagonalizable_known"], true);
    assert_eq!(
        v["closed_form"]["terms"][0]["eigenvalue"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert!(v["power_iteration"]["estimate"].as_f64().is_some());
    assert!(v["ratio_per_depth"][0].is_null());
    // small graphs: ρ from the eigenvalues, nothing skipped
    assert!(v["spectral_radius_bounds"].is_null());
    assert_eq!(v["skipped"], serde_json::json!([]));
}

#[test]
fn render_text_shows_everything() {
    let t = render_text(&spectral_report(&load("eight.ron"), 6));
    for needle in [
        "2.828427125",
        "-2.828427125",
        "spectral radius ρ = 2.828427125",
        "period 2",
        "corner",
        "n(d)/n(d-1)",
        "3.000000",
        "2.666667",
        "closed form: n(d) = ",
        "·(2.828427125)^d",
    ] {
        assert!(t.contains(needle), "missing {needle:?} in\n{t}");
    }
    let t = render_text(&spectral_report(&load("eight_pred.ron"), 4));
    assert!(t.contains("1.414213562i"), "{t}");
    let g = EquivalenceGraph::new(
        vec!["x".into(), "y".into()],
        vec![vec![2, 0], vec![1, 2]],
        vec![1, 1],
    )
    .unwrap();
    let t = render_text(&spectral_report(&g, 3));
    assert!(
        t.contains("closed form: none") && t.contains("not diagonalizable"),
        "{t}"
    );
}

#[test]
fn overflow_stops_exact_counts() {
    let r = spectral_report(&load("rubik_root.ron"), 200);
    assert!(r.exact_depth < 200 && r.exact_depth > 30);
    assert_eq!(r.nodes_per_depth.len(), r.exact_depth + 1);
    assert!(r.notes.iter().any(|n| n.contains("u128")), "{:?}", r.notes);
    assert!(close(
        r.power_iteration.unwrap().estimate,
        13.34846923,
        1e-8
    ));
}

#[test]
fn start_vector_without_top_component() {
    // P = diag(3, 1) with the tree rooted in the slow class: grows like 1^d, not 3^d.
    let g = EquivalenceGraph::new(
        vec!["fast".into(), "slow".into()],
        vec![vec![3, 0], vec![0, 1]],
        vec![0, 1],
    )
    .unwrap();
    let r = spectral_report(&g, 5);
    assert_eq!(r.nodes_per_depth, [1; 6]);
    assert!(r.notes.iter().any(|n| n.contains("§7.4")), "{:?}", r.notes);
}

/// Counts past 2^53 also come as decimal strings in `--json` (doubles round them, and
/// 64-bit readers refuse them past 2^64); small ones do not.
#[test]
fn big_counts_come_as_decimal_strings_too() {
    let r = spectral_report(&load("rubik.ron"), 30);
    assert_eq!(r.exact_depth, 30);
    let last = *r.nodes_per_depth.last().unwrap();
    assert!(last > u64::MAX as u128);
    let json: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    let decimal = json["nodes_per_depth_decimal"].as_array().unwrap();
    assert_eq!(decimal.len(), 31);
    assert_eq!(decimal[30].as_str().unwrap().parse::<u128>().unwrap(), last);
    let classes = &json["class_counts_per_depth_decimal"][30];
    for (j, &n) in r.class_counts_per_depth[30].iter().enumerate() {
        assert_eq!(classes[j].as_str().unwrap().parse::<u128>().unwrap(), n);
    }
    let small = serde_json::to_string(&spectral_report(&load("eight.ron"), 3)).unwrap();
    assert!(!small.contains("decimal"), "{small}");
}

// ---------------------------------------------------------------------------------------------
// Perron–Frobenius without eigenvalues, and large graphs: what is skipped, what is refused

#[test]
fn strong_components_are_sorted_and_ordered_by_smallest_member() {
    // 5 -> 0 <-> 1 -> 2 <-> 3, and 4 alone with a loop
    let mut m = DMatrix::zeros(6, 6);
    for (i, j) in [(0, 1), (1, 0), (1, 2), (2, 3), (3, 2), (4, 4), (5, 0)] {
        m[(i, j)] = 1.0;
    }
    assert_eq!(
        eigen::strong_components(&m),
        vec![vec![0, 1], vec![2, 3], vec![4], vec![5]]
    );
    // one cycle through every class, numbered out of order
    let order = [3, 0, 4, 1, 5, 2];
    let mut m = DMatrix::zeros(6, 6);
    for w in 0..6 {
        m[(order[w], order[(w + 1) % 6])] = 2.0;
    }
    assert_eq!(eigen::strong_components(&m), vec![vec![0, 1, 2, 3, 4, 5]]);
}

#[test]
fn perron_root_of_the_seed_graphs() {
    let r8 = 8f64.sqrt();
    for (name, rho, period_) in [
        ("eight.ron", r8, 2),
        ("eight_pred.ron", s3(), 2),
        ("rubik.ron", 6.0 + 3.0 * 6f64.sqrt(), 1),
        ("fifteen.ron", f64::NAN, 1),
        ("twenty_four.ron", f64::NAN, 2),
    ] {
        let p = generator_matrix(load(name).children());
        let r = perron_root(&p, Tolerances::TOP_MODULUS);
        let e = eigs(&p);
        assert!(r.converged, "{name}");
        assert!(close(r.radius, spectral_radius(&e), 1e-12), "{name}: {r:?}");
        if !rho.is_nan() {
            assert!(close(r.radius, rho, 1e-12), "{name}: {r:?}");
            assert!(r.bounds[0] <= rho * (1.0 + 1e-12) && rho <= r.bounds[1] * (1.0 + 1e-12));
        }
        assert_eq!(r.period, period_, "{name}");
        assert_eq!(Some(r.period), period(&e), "{name}");
    }
}

#[test]
fn perron_root_of_reducible_matrices() {
    // a tree that dies out: ρ = 0, period 1
    let chain = generator_matrix(&[vec![0, 2, 0], vec![0, 0, 3], vec![0, 0, 0]]);
    let r = perron_root(&chain, Tolerances::TOP_MODULUS);
    assert_eq!((r.radius, r.bounds, r.period), (0.0, [0.0, 0.0], 1));
    // cycles of lengths 2 and 3 side by side: period 6; with the 3-cycle doubled, only it
    // is on top: period 3
    let mut m = DMatrix::zeros(5, 5);
    for (i, j) in [(1, 0), (0, 1), (3, 2), (4, 3), (2, 4)] {
        m[(i, j)] = 1.0;
    }
    assert_eq!(perron_root(&m, Tolerances::TOP_MODULUS).period, 6);
    for (i, j) in [(3, 2), (4, 3), (2, 4)] {
        m[(i, j)] = 2.0;
    }
    let r = perron_root(&m, Tolerances::TOP_MODULUS);
    assert_eq!(r.period, 3);
    assert!(close(r.radius, 2.0, 1e-12), "{r:?}");
    // a loop weight is its class's eigenvalue, exactly: diag(3, 1)
    let r = perron_root(&generator_matrix(&[vec![3, 0], vec![0, 1]]), 1e-6);
    assert_eq!((r.radius, r.bounds, r.period), (3.0, [3.0, 3.0], 1));
}

/// `k` (even) classes in two halves, each class with 6 children in the other half: 1, 2
/// and 3 in the classes 0, 1 and 3 places on. Strongly connected, ρ = 6 exactly (every
/// class has 6 children, so n(d) = 6^d), period 2 (bipartite, with 2-cycles).
fn bipartite_six(k: usize) -> EquivalenceGraph {
    let h = k / 2;
    let children = (0..k)
        .map(|i| {
            let mut row = vec![0; k];
            let other = if i < h { h } else { 0 };
            for (shift, w) in [(0, 1), (1, 2), (3, 3)] {
                row[other + (i + shift) % h] += w;
            }
            row
        })
        .collect();
    from_class_zero(children)
}

#[test]
fn a_graph_too_large_for_the_closed_form_still_has_its_eigenvalues() {
    let k = Limits::CLOSED_FORM_CLASSES + 2;
    let r = spectral_report(&bipartite_six(k), 12);
    assert_eq!(r.eigenvalues.len(), k);
    assert!(
        close(r.spectral_radius.unwrap(), 6.0, 1e-9),
        "{:?}",
        r.spectral_radius
    );
    assert_eq!(r.spectral_radius_bounds, None);
    assert_eq!(r.period, Some(2));
    assert_eq!(r.nodes_per_depth[12], 6u128.pow(12));
    let reason = format!(
        "{k} classes, more than the {} for which the closed form is derived (one SVD per \
         distinct eigenvalue, O(k⁴)); use the exact counts",
        Limits::CLOSED_FORM_CLASSES
    );
    assert_eq!(r.skipped.len(), 1);
    assert_eq!(
        (r.skipped[0].part.as_str(), &r.skipped[0].reason),
        ("closed_form", &reason)
    );
    assert!(r.closed_form.terms.is_empty());
    assert_eq!(r.closed_form.statement, format!("skipped: {reason}"));
    assert!(!r.closed_form.diagonalizable_known);
    let t = render_text(&r);
    assert!(
        t.contains(&format!("closed form: none. skipped: {reason}")),
        "{t}"
    );
}

#[test]
fn a_graph_too_large_for_eigenvalues_gets_rho_by_power_iteration() {
    let k = Limits::EIGENVALUE_BLOCK + 2;
    let r = spectral_report(&bipartite_six(k), 12);
    assert!(r.eigenvalues.is_empty());
    let [lo, hi] = r.spectral_radius_bounds.unwrap();
    assert!(lo <= 6.0 && 6.0 <= hi && hi - lo <= 1e-12, "{lo} {hi}");
    assert!(close(r.spectral_radius.unwrap(), 6.0, 1e-12));
    assert_eq!(r.period, Some(2));
    assert_eq!(r.nodes_per_depth[12], 6u128.pow(12));
    let pi = r.power_iteration.as_ref().unwrap();
    assert_eq!((pi.step, pi.estimate), (2, 6.0));
    let eigen_reason = format!(
        "they would cost as much as one strongly connected block of {k} classes (O(b³) per \
         block; the largest has {k}), more than the {} allowed; ρ comes from power iteration, \
         the period from the cycle lengths",
        Limits::EIGENVALUE_BLOCK
    );
    let closed_reason = "it needs the eigenvalues, which were skipped";
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(
        json["skipped"],
        serde_json::json!([
            {"part": "eigenvalues", "reason": eigen_reason},
            {"part": "closed_form", "reason": closed_reason},
        ])
    );
    assert_eq!(json["eigenvalues"], serde_json::json!([]));
    assert_eq!(json["closed_form"]["terms"], serde_json::json!([]));
    assert_eq!(json["closed_form"]["diagonalizable_known"], false);
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    let t = render_text(&r);
    for line in [
        format!("eigenvalues of P = A^T: skipped: {eigen_reason}"),
        "spectral radius ρ = 6 (asymptotic branching factor; Collatz–Wielandt bounds by power \
         iteration on P: 6 ≤ ρ ≤ 6)"
            .to_string(),
        "period 2 (from the cycle lengths): the top eigenvalues are ρ·ω with ω^2 = 1; \
         n(d)/n(d-1) oscillates, n(d)/n(d-2) → ρ^2"
            .to_string(),
        format!("closed form: none. skipped: {closed_reason}"),
    ] {
        assert!(t.lines().any(|l| l == line), "missing {line:?} in\n{t}");
    }
    // The limit is on the work: two blocks of 500 classes cost as much as one of 630.
    let one = bipartite_six(500);
    let children = (0..1000)
        .map(|i| {
            let mut row = vec![0; 1000];
            let shift = if i < 500 { 0 } else { 500 };
            for (j, &c) in one.children()[i % 500].iter().enumerate() {
                row[shift + j] = c as i64;
            }
            row
        })
        .collect();
    let mut start = vec![0; 1000];
    start[0] = 1;
    let names = (0..1000).map(|i| format!("c{i}")).collect();
    let r = spectral_report(&EquivalenceGraph::new(names, children, start).unwrap(), 4);
    assert!(
        r.skipped[0].reason.starts_with(
            "they would cost as much as one strongly connected block of 630 classes (O(b³) per \
             block; the largest has 500)"
        ),
        "{:?}",
        r.skipped
    );
    assert!(close(r.spectral_radius.unwrap(), 6.0, 1e-12));
    assert_eq!(r.period, Some(2));
}

/// A random sparse graph as in the report of the slow case: every class has 5 child classes
/// with 1 to 3 children each.
fn random_sparse(k: usize, seed: u64) -> EquivalenceGraph {
    let mut rng = common::Rng::new(seed);
    let children = (0..k)
        .map(|_| {
            let mut row = vec![0; k];
            let mut cols: Vec<usize> = (0..k).collect();
            rng.shuffle(&mut cols);
            for &j in &cols[..5] {
                row[j] = 1 + rng.below(3) as i64;
            }
            row
        })
        .collect();
    from_class_zero(children)
}

#[test]
fn power_iteration_agrees_with_the_eigenvalues_and_the_exact_counts() {
    // Below the eigenvalue limit both ways give ρ.
    let g = random_sparse(150, 1);
    let p = generator_matrix(g.children());
    let r = perron_root(&p, Tolerances::TOP_MODULUS);
    let e = eigs(&p);
    assert!(close(r.radius, spectral_radius(&e), 1e-11), "{r:?}");
    assert_eq!(Some(r.period), period(&e));
    // Above it, the exact counts up to u128 overflow (n(d)/n(d-1) converges geometrically)
    // confirm the bracket.
    let g = random_sparse(Limits::EIGENVALUE_BLOCK + 100, 2);
    let r = spectral_report(&g, 200);
    assert_eq!(r.skipped[0].part, "eigenvalues");
    assert!(
        r.exact_depth > 30 && r.exact_depth < 200,
        "{}",
        r.exact_depth
    );
    let [lo, hi] = r.spectral_radius_bounds.unwrap();
    let counted = r.power_iteration.as_ref().unwrap().estimate;
    assert!(hi - lo <= 1e-12 * hi, "{lo} {hi}");
    assert!(
        close(counted, r.spectral_radius.unwrap(), 1e-9),
        "{counted} {lo} {hi}"
    );
    assert_eq!(r.period, Some(1));
}

#[test]
fn too_many_classes_are_refused_with_the_limit_and_the_file() {
    let k = Limits::CLASSES + 1;
    let names: Vec<String> = (0..k).map(|i| format!("c{i}")).collect();
    // Refused on the class count alone, before the k² counts are looked at.
    let e = EquivalenceGraph::new(names.clone(), vec![], vec![]).unwrap_err();
    assert_eq!(
        e,
        GraphError::TooManyClasses {
            limit: Limits::CLASSES
        }
    );
    let why = format!(
        "more than the {} classes this tool analyses (the file holds classes² counts); merge \
         classes of equal branching into one",
        Limits::CLASSES
    );
    assert_eq!(e.to_string(), why);
    // A file is read no further than the first list entry past the limit (a file far too
    // large must not fill the memory first), here the last class name, on line 2.
    let dir = scratch_dir("spectral-limits");
    let path = dir.join("huge.ron");
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    std::fs::write(
        &path,
        format!(
            "(classes: [{},\n{}], children: [], start: [])",
            quoted[..k - 1].join(", "),
            quoted[k - 1]
        ),
    )
    .unwrap();
    let o = plytile(&["spectral", &s(&path)]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        format!(
            "plytile: {}:2: not a valid equivalence graph: {why}\n",
            path.display()
        )
    );
    // So is a row of `children` that is too long.
    let e = EquivalenceGraph::from_ron_str(&format!(
        "(classes: [\"a\"], children: [[{}]], start: [1])",
        vec!["0"; k].join(",")
    ))
    .unwrap_err();
    assert!(
        matches!(e, GraphError::Syntax { line: 1, ref message } if *message == why),
        "{e}"
    );
    cleanup(&dir);
}

#[test]
fn a_depth_whose_table_is_too_large_is_refused() {
    // 400 classes in a cycle: 400 · 10001 class counts are over the limit of 4·10⁶.
    let k = 400;
    assert_eq!(Limits::CLASS_COUNTS, 4_000_000);
    let dir = scratch_dir("spectral-depth");
    let path = dir.join("cycle.ron");
    let rows: Vec<String> = (0..k)
        .map(|i| {
            let row: Vec<&str> = (0..k)
                .map(|j| if j == (i + 1) % k { "1" } else { "0" })
                .collect();
            format!("[{}]", row.join(","))
        })
        .collect();
    let names: Vec<String> = (0..k).map(|i| format!("\"c{i}\"")).collect();
    let start: Vec<&str> = (0..k).map(|i| if i == 0 { "1" } else { "0" }).collect();
    std::fs::write(
        &path,
        format!(
            "(classes: [{}], children: [{}], start: [{}])",
            names.join(","),
            rows.join(","),
            start.join(",")
        ),
    )
    .unwrap();
    let o = plytile(&["spectral", &s(&path), "--depth", "10000", "--json"]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        format!(
            "plytile: --depth: 10000 with the 400 classes of {} keeps 4000400 class counts, \
             more than the 4000000 allowed; give --depth 9999 or less\n",
            path.display()
        )
    );
    let o = plytile(&["spectral", &s(&path), "--depth", "3", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    cleanup(&dir);
}

/// The graph of `children` (classes `c0`, `c1`, ...) that starts with one node of
/// class 0.
fn from_class_zero(children: Vec<Vec<i64>>) -> EquivalenceGraph {
    let k = children.len();
    let mut start = vec![0; k];
    start[0] = 1;
    EquivalenceGraph::new((0..k).map(|i| format!("c{i}")).collect(), children, start).unwrap()
}
