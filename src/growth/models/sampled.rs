//! Sampled class model and Knuth's estimator, from probe statistics (pure: no search).
//!
//! Classes: the kind of the cell the heuristic branches on (corner / edge / inner) and the
//! number `b` of legal placements there, bucketed ([`BUCKETS`]); plus two leaf classes,
//! `dead` (the heuristic found no child: `b = 0` or a proven dead end) and `solution`.
//!
//! A probe (Knuth 1975) walks from the root to a leaf choosing a uniformly random child;
//! the node it reaches at depth `d` carries the weight `w` = product of the branching
//! factors above it, the inverse of the chance the probe reaches it. Every visited node
//! with `b` children, of class `i`, whose sampled child has class `j`, adds (probe mass
//! `π` = 1 per probe, the sums divided by `K` at the end)
//!
//! ```text
//! S_d[i] += π,         T_d[i][j] += π·b          (class model, unweighted)
//! Sw_d[i] += π·w,      Tw_d[i][j] += π·w·b       (Knuth weighted)
//! ```
//!
//! * **Knuth**: `n̂(d) = Σ_i Sw_d[i]`, the mean over probes of the product of branching
//!   factors: unbiased for every depth. The per-depth class matrices built from the
//!   weighted sums, `Tw_d[i][j] / Sw_d[i]`, reproduce it exactly (the class split changes
//!   nothing); they are not reported separately.
//! * **Sampled** (class Markov model): `P_d[j][i] = T_d[i][j] / S_d[i]`, the mean number of
//!   class-`j` children of a class-`i` node at depth `d` *as the probes see them*, and
//!   `N(d+1) = P_d N(d)`. It assumes nodes of one class at one depth branch alike
//!   (Edelkamp's equivalence assumption); it uses every probe that reaches depth `d` with
//!   equal weight, so it does not suffer from the heavy-tailed weights that make Knuth's
//!   estimate erratic at depth, at the price of a bias where the assumption fails (the
//!   probes over-represent nodes below narrow parents).
//! * **Pooled**: `P[j][i] = Σ_d T_d[i][j] / Σ_d S_d[i]`, one stationary matrix for all
//!   depths; its eigenvalues and spectral radius are reported.
//!
//! Exhaustive statistics ([`ProbeStats`] built by enumerating the tree with the exact
//! reach probabilities as `π`) give the `K → ∞` limit of both.

use nalgebra::DMatrix;

/// Upper bounds (inclusive) of the `b` buckets for `b ≥ 1`; the last bucket is open.
pub const BUCKETS: [u32; 9] = [1, 2, 3, 4, 6, 9, 14, 24, 49];

/// Number of classes: 3 kinds × (BUCKETS + 1 open bucket) + dead + solution.
pub const CLASSES: usize = 3 * (BUCKETS.len() + 1) + 2;
/// The `dead` leaf class.
pub const DEAD: usize = CLASSES - 2;
/// The `solution` leaf class.
pub const SOLUTION: usize = CLASSES - 1;

/// The class of a site of kind index `kind` (0 corner, 1 edge, 2 inner) with `b ≥ 1`
/// placements; `b = 0` is [`DEAD`].
pub fn class_of(kind: usize, b: u32) -> usize {
    if b == 0 {
        return DEAD;
    }
    let bucket = BUCKETS
        .iter()
        .position(|&hi| b <= hi)
        .unwrap_or(BUCKETS.len());
    kind * (BUCKETS.len() + 1) + bucket
}

/// Display name of a class.
pub fn class_name(i: usize) -> String {
    if i == DEAD {
        return "dead".into();
    }
    if i == SOLUTION {
        return "solution".into();
    }
    let per = BUCKETS.len() + 1;
    let kind = ["corner", "edge", "inner"][i / per];
    let bucket = i % per;
    let lo = if bucket == 0 {
        1
    } else {
        BUCKETS[bucket - 1] + 1
    };
    match BUCKETS.get(bucket) {
        Some(&hi) if hi == lo => format!("{kind}:b={lo}"),
        Some(&hi) => format!("{kind}:b={lo}-{hi}"),
        None => format!("{kind}:b>={lo}"),
    }
}

/// Accumulated probe statistics of one depth.
#[derive(Debug, Clone)]
pub struct DepthStats {
    pub s: Vec<f64>,
    pub s_w: Vec<f64>,
    /// `t[i * CLASSES + j]`.
    pub t: Vec<f64>,
    pub t_w: Vec<f64>,
}

impl Default for DepthStats {
    fn default() -> Self {
        DepthStats {
            s: vec![0.0; CLASSES],
            s_w: vec![0.0; CLASSES],
            t: vec![0.0; CLASSES * CLASSES],
            t_w: vec![0.0; CLASSES * CLASSES],
        }
    }
}

/// Statistics per depth (index = depth), plus the root's class.
#[derive(Debug, Clone)]
pub struct ProbeStats {
    pub depths: Vec<DepthStats>,
    pub root_class: usize,
    /// Probes (or `0` for an exhaustive enumeration).
    pub probes: usize,
}

impl ProbeStats {
    pub fn new(max_depth: usize, probes: usize) -> Self {
        ProbeStats {
            depths: vec![DepthStats::default(); max_depth + 1],
            root_class: DEAD,
            probes,
        }
    }

    /// A node of class `i` at depth `d` with probe mass `pi` and Knuth weight `w`.
    pub fn visit(&mut self, d: usize, i: usize, pi: f64, w: f64) {
        let s = &mut self.depths[d];
        s.s[i] += pi;
        s.s_w[i] += pi * w;
    }

    /// `mass` (already multiplied by `b`, or per enumerated child) of class-`j` children of a
    /// class-`i` node at depth `d`, with Knuth weight `w` of the parent.
    pub fn child(&mut self, d: usize, i: usize, j: usize, mass: f64, w: f64) {
        let s = &mut self.depths[d];
        s.t[i * CLASSES + j] += mass;
        s.t_w[i * CLASSES + j] += mass * w;
    }

    /// Knuth's estimate per depth: `Σ_i Sw_d[i]`.
    pub fn knuth(&self) -> Vec<f64> {
        let k = if self.probes > 0 {
            self.probes as f64
        } else {
            1.0
        };
        self.depths
            .iter()
            .map(|s| s.s_w.iter().sum::<f64>() / k)
            .collect()
    }

    /// The per-depth matrix `P_d[j][i] = T_d[i][j] / S_d[i]` (unweighted).
    pub fn matrix(&self, d: usize) -> DMatrix<f64> {
        let s = &self.depths[d];
        DMatrix::from_fn(CLASSES, CLASSES, |j, i| {
            if s.s[i] > 0.0 {
                s.t[i * CLASSES + j] / s.s[i]
            } else {
                0.0
            }
        })
    }

    /// The class model's node counts per depth (`N(d+1) = P_d N(d)`), and class vectors.
    pub fn class_model(&self) -> (Vec<f64>, Vec<Vec<f64>>) {
        let mut cur = vec![0.0; CLASSES];
        cur[self.root_class] = 1.0;
        let mut vecs = vec![cur.clone()];
        for d in 0..self.depths.len() - 1 {
            let p = self.matrix(d);
            let mut next = vec![0.0; CLASSES];
            for (j, slot) in next.iter_mut().enumerate() {
                for (i, &c) in cur.iter().enumerate() {
                    *slot += p[(j, i)] * c;
                }
            }
            cur = next;
            vecs.push(cur.clone());
        }
        (vecs.iter().map(|v| v.iter().sum()).collect(), vecs)
    }

    /// The pooled (stationary) matrix over all depths, restricted to the classes that were
    /// seen; returns the matrix and its class indices.
    pub fn pooled(&self) -> (DMatrix<f64>, Vec<usize>) {
        let mut s = vec![0.0; CLASSES];
        let mut t = vec![0.0; CLASSES * CLASSES];
        for ds in &self.depths {
            for (a, b) in s.iter_mut().zip(&ds.s) {
                *a += b;
            }
            for (a, b) in t.iter_mut().zip(&ds.t) {
                *a += b;
            }
        }
        let seen: Vec<usize> = (0..CLASSES).filter(|&i| s[i] > 0.0).collect();
        let k = seen.len();
        let m = DMatrix::from_fn(k, k, |r, c| {
            let (j, i) = (seen[r], seen[c]);
            t[i * CLASSES + j] / s[i]
        });
        (m, seen)
    }
}
