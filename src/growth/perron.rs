//! Spectral radius and period of a large non-negative matrix without its eigenvalues.
//!
//! The dense Schur iteration of [`super::eigen`] costs O(n³) per strongly connected block
//! (0.6 s for a block of 500 classes, so about 40 s for one of 2000). The two numbers `plytile spectral` needs
//! most, the spectral radius `ρ` (the asymptotic branching factor) and the period of the top
//! of the spectrum, follow from Perron–Frobenius theory in time linear in the non-zero
//! entries per step:
//!
//! * the spectrum of `P` is the union of those of its strongly connected blocks, so `ρ` is
//!   the largest block radius;
//! * an irreducible block `B` has the positive eigenvalue `ρ_B`, and by the Collatz–Wielandt
//!   formula every positive vector `x` brackets it: `min_i (Bx)_i/x_i ≤ ρ_B ≤ max_i
//!   (Bx)_i/x_i`. Power iteration (Edelkamp's spectral prediction, §9) on `B + σI` (`σ > 0` makes it primitive, so
//!   the iterates converge even when `B` is periodic) narrows the bracket; it stops when the
//!   bracket is within [`BRACKET`] or after [`WORK`] multiply-adds, and the bracket it
//!   reached is reported either way;
//! * the eigenvalues of modulus `ρ_B` are `ρ_B` times the `h`-th roots of unity, where `h`
//!   is the gcd of the block's cycle lengths (read off breadth-first levels: the gcd of
//!   `level(u) + 1 − level(v)` over its edges `u → v`), so the period of the whole top is
//!   the lcm of `h` over the blocks whose radius is `ρ`. Exact, whatever the bracket.

use super::eigen::strong_components;
use nalgebra::DMatrix;

/// Relative width of the Collatz–Wielandt bracket at which the iteration stops (default
/// `1e-13`, a few hundred ulps: the ratios themselves carry round-off).
pub const BRACKET: f64 = 1e-13;

/// Steps without a narrower bracket after which the iteration stops as converged (default
/// 32; the bracket narrows at every step until round-off stops it).
pub const STALL: usize = 32;

/// Multiply-adds allowed per block (default `2·10⁸`, well under a second); a block that has
/// not converged by then keeps the bracket it reached.
pub const WORK: usize = 200_000_000;

/// `ρ` of a non-negative matrix, bracketed, and the period of the top of its spectrum.
#[derive(Debug, Clone, PartialEq)]
pub struct PerronRoot {
    /// The estimate of `ρ`: the largest block's bracket midpoint (exact for 1×1 blocks).
    pub radius: f64,
    /// `[lo, hi]` with `lo ≤ ρ ≤ hi`.
    pub bounds: [f64; 2],
    /// The least `k` with `(λ/ρ)^k = 1` for every eigenvalue `λ` of modulus `ρ`; 1 for
    /// `ρ = 0` (as [`super::spectral::period`]).
    pub period: usize,
    /// Whether every block's bracket reached [`BRACKET`] or stopped narrowing (round-off)
    /// before [`WORK`] ran out.
    pub converged: bool,
}

/// `ρ(p)` and the period of its top for a matrix with non-negative entries; blocks whose
/// radius is within `tie` (relative) of `ρ` count as top blocks.
pub fn perron_root(p: &DMatrix<f64>, tie: f64) -> PerronRoot {
    perron_root_in(p, &strong_components(p), tie)
}

/// [`perron_root`] given `p`'s strongly connected blocks ([`strong_components`]).
pub fn perron_root_in(p: &DMatrix<f64>, blocks: &[Vec<usize>], tie: f64) -> PerronRoot {
    let blocks: Vec<Block> = blocks
        .iter()
        .map(|members| block_root(p, members))
        .collect();
    let radius = blocks.iter().map(|b| b.mid()).fold(0.0, f64::max);
    let bounds = blocks.iter().fold([0.0, 0.0], |[lo, hi], b| {
        [f64::max(lo, b.bounds[0]), f64::max(hi, b.bounds[1])]
    });
    let period = if radius <= f64::MIN_POSITIVE {
        1
    } else {
        blocks
            .iter()
            .filter(|b| b.mid() >= radius * (1.0 - tie))
            .fold(1, |k, b| lcm(k, b.period))
    };
    PerronRoot {
        radius,
        bounds,
        period,
        converged: blocks.iter().all(|b| b.converged),
    }
}

/// One strongly connected block's bracket and cycle period.
struct Block {
    bounds: [f64; 2],
    period: usize,
    converged: bool,
}

impl Block {
    fn mid(&self) -> f64 {
        0.5 * (self.bounds[0] + self.bounds[1])
    }
}

fn block_root(p: &DMatrix<f64>, members: &[usize]) -> Block {
    if let [i] = *members {
        // One class: its loop weight, exactly (a class without a loop has ρ = 0).
        let w = p[(i, i)];
        return Block {
            bounds: [w, w],
            period: 1,
            converged: true,
        };
    }
    let n = members.len();
    let mut local = vec![usize::MAX; p.nrows()];
    for (l, &g) in members.iter().enumerate() {
        local[g] = l;
    }
    // rows[j]: the non-zero `(i, p_ji)` of the block's row j, in local indices.
    let rows: Vec<Vec<(usize, f64)>> = members
        .iter()
        .map(|&gj| {
            members
                .iter()
                .filter_map(|&gi| {
                    let v = p[(gj, gi)];
                    (v != 0.0).then_some((local[gi], v))
                })
                .collect()
        })
        .collect();
    let nonzeros: usize = rows.iter().map(Vec::len).sum();

    // (P x)_j / x_j for x = 1 brackets ρ already; the midpoint is a shift of ρ's size.
    let (mut lo, mut hi) = min_max(rows.iter().map(|r| r.iter().map(|e| e.1).sum()));
    let sigma = 0.5 * hi;
    let mut x = vec![1.0; n];
    let mut y = vec![0.0; n];
    let steps = (WORK / (nonzeros + n)).max(1);
    // The bounds only ever narrow (for non-negative matrices the max ratio cannot rise nor
    // the min fall from one step to the next), so a bracket that stops narrowing has hit
    // round-off: that is as converged as it gets.
    let mut stalled = 0;
    let mut converged = hi - lo <= BRACKET * hi;
    for _ in 0..steps {
        if converged {
            break;
        }
        for (j, row) in rows.iter().enumerate() {
            y[j] = sigma * x[j] + row.iter().map(|&(i, v)| v * x[i]).sum::<f64>();
        }
        // The bounds need x > 0: an entry that underflowed ends the iteration.
        if y.iter().any(|&v| !(v > 0.0 && v.is_finite())) {
            break;
        }
        let (l, h) = min_max(y.iter().zip(&x).map(|(a, b)| a / b - sigma));
        // Every positive x gives valid bounds, so the tightest so far hold.
        stalled = if l > lo || h < hi { 0 } else { stalled + 1 };
        lo = lo.max(l);
        hi = hi.min(h);
        converged = hi - lo <= BRACKET * hi || stalled >= STALL;
        // Rescale so the iterates neither overflow nor underflow early.
        let top = y.iter().copied().fold(0.0, f64::max);
        for (xi, yi) in x.iter_mut().zip(&y) {
            *xi = yi / top;
        }
    }
    Block {
        bounds: [lo, hi],
        period: cycle_period(&rows),
        converged,
    }
}

fn min_max(v: impl Iterator<Item = f64>) -> (f64, f64) {
    v.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}

/// The gcd of the cycle lengths of a strongly connected graph given by its in-edges
/// (`rows[j]` lists the `i` with an edge `i → j`; the direction does not change the gcd).
fn cycle_period(rows: &[Vec<(usize, f64)>]) -> usize {
    let n = rows.len();
    let mut level = vec![usize::MAX; n];
    level[0] = 0;
    let mut queue = std::collections::VecDeque::from([0]);
    while let Some(j) = queue.pop_front() {
        for &(i, _) in &rows[j] {
            if level[i] == usize::MAX {
                level[i] = level[j] + 1;
                queue.push_back(i);
            }
        }
    }
    let mut g = 0;
    for (j, row) in rows.iter().enumerate() {
        for &(i, _) in row {
            // Walking edges backwards from 0: j → i along the reversed edge.
            g = gcd(g, (level[j] + 1).abs_diff(level[i]));
        }
    }
    g.max(1)
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Least common multiple (both positive).
pub fn lcm(a: usize, b: usize) -> usize {
    a / gcd(a, b) * b
}
