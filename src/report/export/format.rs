//! Numbers for people: times in hyperfine's units, counts, ratios with their σ.

use crate::report::Second;

/// Formats a time in seconds for people: µs below a millisecond, ms below a second,
/// else s (as hyperfine, so that a fast run does not read "0.0 ms").
pub fn fmt_time(s: Second) -> String {
    fmt_time_as(s, s)
}

/// Formats `x` seconds in the unit [`fmt_time`] takes for `like`: a mean's σ and
/// range in the mean's unit, as hyperfine prints them.
pub fn fmt_time_as(x: Second, like: Second) -> String {
    let (scale, unit, decimals) = if like < 1e-3 {
        (1e6, "µs", 1)
    } else if like < 1.0 {
        (1e3, "ms", 1)
    } else {
        (1.0, "s", 3)
    };
    format!("{:.decimals$} {unit}", x * scale)
}

/// Formats seconds to 3 significant digits (at most 6 decimals), and a spread `sd`
/// to the same decimals, for tables with a `[s]` header.
pub fn fmt_secs(x: Second, sd: Option<Second>) -> String {
    let decimals = if x > 0.0 {
        (2 - x.log10().floor() as i32).clamp(0, 6) as usize
    } else {
        3
    };
    match sd {
        Some(sd) => format!("{x:.decimals$} ± {sd:.decimals$}"),
        None => format!("{x:.decimals$}"),
    }
}

/// Formats a count or a rate for people: exact below a million, else 3 significant
/// digits in e-notation.
pub fn fmt_count(x: f64) -> String {
    if x.abs() < 1e6 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.2e}")
    }
}

/// `r ± σ` as a factor, or `n/a` for an undefined ratio.
pub fn fmt_ratio(r: Option<f64>, sd: Option<f64>) -> String {
    match (r, sd) {
        (Some(r), Some(sd)) if sd > 0.0 => format!("{r:.2} ± {sd:.2}"),
        (Some(r), _) => format!("{r:.2}"),
        _ => "n/a".to_string(),
    }
}
