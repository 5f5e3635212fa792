//! Warnings about the timed runs of one setting, as hyperfine gives them
//! (`src/outlier_detection.rs`, `src/output/warnings.rs` there): a first run much
//! slower than the rest (advise `--warmup`), statistical outliers, and a spread as
//! large as half the mean. Pure: plain numbers in, lines out.
//!
//! Outliers are runs whose modified Z-score, `(x - median) / MAD` (Iglewicz and
//! Hoaglin 1993; MAD the median absolute deviation), is above [`OUTLIER_THRESHOLD`],
//! hyperfine's 1.4826 × 10: ten standard deviations, were the times normal.

use crate::report::export::fmt_time;
use crate::report::export::stats::Summary;

/// Hyperfine's threshold of the modified Z-score.
pub const OUTLIER_THRESHOLD: f64 = 1.4826 * 10.0;
/// Runs shorter than this (median) are mostly the noise of the clock and the caches:
/// no warning about their times.
pub const MIN_TIMED_S: f64 = 0.005;
/// A spread (σ) above this fraction of the mean is warned about.
pub const SPREAD: f64 = 0.5;

/// The modified Z-scores of `xs` (hyperfine's `modified_zscores`: a MAD of 0 is taken
/// as `f64::EPSILON`, so that one run off many equal ones stands out).
#[inline] // crate::cli::bench_parts
pub fn modified_zscores(xs: &[f64]) -> Vec<f64> {
    let median = Summary::of(xs).median;
    let deviations: Vec<f64> = xs.iter().map(|x| (x - median).abs()).collect();
    let mad = Summary::of(&deviations).median;
    let mad = if mad > 0.0 { mad } else { f64::EPSILON };
    xs.iter().map(|x| (x - median) / mad).collect()
}

/// The warnings about one setting's timed runs, each one line naming `what` (`mrv on
/// p.txt`). `times` and `nodes` are per run, in order; `warmup` the untimed runs before
/// them. Over 2 runs or more, and only when every run stopped alike (each reached its
/// goal, or a limit stopped each the same way: else the times differ by design) and
/// the median run took [`MIN_TIMED_S`] at least. A slow first run is said instead of
/// the outliers it is one of (as hyperfine); the spread only when no outlier is: when
/// the node counts differ (threads racing to a first solution), the spread of the rate
/// (nodes/s), else of the times.
#[inline] // crate::cli::bench_parts
pub fn warnings(what: &str, times: &[f64], nodes: &[u64], alike: bool, warmup: u32) -> Vec<String> {
    let t = Summary::of(times);
    if times.len() < 2 || !alike || t.median < MIN_TIMED_S {
        return Vec::new();
    }
    let z = modified_zscores(times);
    if z[0] > OUTLIER_THRESHOLD {
        let rest = Summary::of(&times[1..]).median;
        let advice = if warmup == 0 {
            "give --warmup 1 (or more) to run it untimed first".to_string()
        } else {
            format!("a larger --warmup (now {warmup}) or a quieter system may help")
        };
        return vec![format!(
            "{what}: the first timed run took {}, {:.1}x the median of the others ({}): \
             a cold start (caches, memory, CPU clock); {advice}",
            fmt_time(times[0]),
            times[0] / rest,
            fmt_time(rest),
        )];
    }
    let outliers = z.iter().filter(|s| s.abs() > OUTLIER_THRESHOLD).count();
    if outliers > 0 {
        return vec![format!(
            "{what}: {outliers} of {} timed runs are statistical outliers (modified Z-score \
             over {OUTLIER_THRESHOLD:.1}, as hyperfine): rerun on a quiet system{}",
            times.len(),
            if warmup == 0 {
                ", or with --warmup 1"
            } else {
                ""
            }
        )];
    }
    let (figure, s) = if nodes.iter().all(|&n| n == nodes[0]) {
        ("times", t)
    } else {
        let rates: Vec<f64> = (times.iter().zip(nodes))
            .map(|(&t, &n)| n as f64 / t.max(1e-9))
            .collect();
        ("rates (nodes/s)", Summary::of(&rates))
    };
    if s.stddev > SPREAD * s.mean {
        let (sd, mean) = if figure == "times" {
            (fmt_time(s.stddev), fmt_time(s.mean))
        } else {
            (format!("{:.2e}", s.stddev), format!("{:.2e}", s.mean))
        };
        return vec![format!(
            "{what}: the {figure} vary by σ {sd}, {:.0}% of their mean {mean}: rerun on a \
             quiet system, or with more --runs",
            100.0 * s.stddev / s.mean
        )];
    }
    Vec::new()
}
