//! Summary statistics over repeated runs, and speed ratios with their uncertainty, in
//! the manner of hyperfine's `relative_speed.rs`. Pure math: plain numbers in and out.

use serde::{Deserialize, Serialize};

/// Mean, sample standard deviation, median, minimum and maximum of some values.
/// With fewer than two values the standard deviation is 0 (it is undefined).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Summary {
    pub mean: f64,
    pub stddev: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    /// The summary of `xs`; all zero when `xs` is empty.
    pub fn of(xs: &[f64]) -> Summary {
        if xs.is_empty() {
            return Summary::default();
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let stddev = if xs.len() < 2 {
            0.0
        } else {
            (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
        };
        let mut sorted = xs.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        };
        Summary {
            mean,
            stddev,
            median,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
        }
    }
}

/// `a / b` for two means with standard deviations, σ carried through by first-order
/// error propagation: σ = r·sqrt((σa/a)² + (σb/b)²). `None` when a mean is not
/// positive (a ratio to zero time has no meaning).
pub fn ratio(a: f64, a_sd: f64, b: f64, b_sd: f64) -> Option<(f64, f64)> {
    if !(a > 0.0 && b > 0.0) {
        return None;
    }
    let r = a / b;
    Some((r, r * ((a_sd / a).powi(2) + (b_sd / b).powi(2)).sqrt()))
}

/// The geometric mean of positive values; `None` when there are none.
pub fn geometric_mean(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = xs
        .into_iter()
        .filter(|x| *x > 0.0)
        .fold((0.0, 0usize), |(s, n), x| (s + x.ln(), n + 1));
    (n > 0).then(|| (sum / n as f64).exp())
}
