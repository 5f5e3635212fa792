//! `bench`'s check before its first run: how long each setting's runs would take.
//! A default `bench` runs every setting several times to exhaustion, and an
//! exhaustive search of a 7x7 takes hours per run: a setting whose runs (warm-up
//! included) are predicted to take more than [`LONG_S`] is refused up front (exit 2)
//! with the prediction and the flags that allow it, instead of trapping the user.
//!
//! The whole check takes about [`CHECK_S`], shared by the settings and puzzles (at
//! most [`SLICE_S`] each, at least [`MIN_SLICE_S`]; a setting done sooner leaves its
//! time to the others). Each slice is split: 40% for a run of the real search (a tree
//! it exhausts is timed, not predicted), 60% for the probes of a Knuth estimate of the
//! tree ([`per_depth_within`]) that its rate turns into time. The check stops at the
//! first setting refused.

use super::super::INTERRUPTED;
use crate::puzzle::Puzzle;
use crate::report::reached_goal;
use crate::search::auto::{self, Budget, Costs};
use crate::search::estimate::per_depth_within;
use crate::search::{self, Heuristic, Limits, Strategy};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The longest a setting's runs on one puzzle (warm-up included) may be predicted to
/// take without `--allow-long`, `--timeout` or `--max-nodes`: 5 minutes.
pub const LONG_S: f64 = 300.0;
/// The time of the whole check, shared by the settings and puzzles.
pub const CHECK_S: f64 = 2.0;
/// The most and the least time of one setting on one puzzle.
pub const SLICE_S: f64 = 0.25;
pub const MIN_SLICE_S: f64 = 0.02;
/// The share of a slice for the measured run; the rest is the probes'.
const MEASURE_SHARE: f64 = 0.4;
/// Probes of the first estimate, which runs to its end (a probe of `ply:4` on an 8x8
/// takes about 3 ms), and of each further one, which stops at [`PROBE_S`].
const FIRST_PROBES: usize = 8;
const MORE_PROBES: usize = 64;

/// How long one run of a setting on a puzzle is predicted to take.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Forecast {
    /// Seconds per run.
    pub run_s: f64,
    /// The predicted nodes of a run and the rate they are timed at (nodes/s, on the
    /// threads the runs use); `None` when the measured run reached its goal: `run_s`
    /// is then its time.
    pub nodes: Option<(f64, f64)>,
}

/// The forecast of one setting, in about `slice` seconds: `None` when Ctrl-C stopped
/// the check.
///
/// `turns`: 4 or 2 when the runs search the trees of `--symmetry` (a quarter or a half
/// of the whole tree, which the estimate is of), else 1. `threads`: the threads each
/// run uses; the rate is measured on one, and taken as that many times faster.
pub fn forecast(
    puzzle: &Puzzle,
    h: Heuristic,
    strategy: Strategy,
    solutions: Option<u64>,
    turns: u64,
    threads: usize,
    slice: f64,
) -> Option<Forecast> {
    let limits = Limits {
        max_nodes: None,
        deadline: Some(Instant::now() + Duration::from_secs_f64(MEASURE_SHARE * slice)),
        max_solutions: solutions,
        keep: 0,
        shelf: None,
    };
    // The whole tree on one thread: a run of the trees of --symmetry is shorter.
    let r = search::solve(puzzle, strategy, &limits, &INTERRUPTED);
    let interrupted = || INTERRUPTED.load(Ordering::Relaxed);
    if interrupted() {
        return None;
    }
    if reached_goal(r.stopped_by) {
        return Some(Forecast {
            run_s: r.elapsed_s,
            nodes: None,
        });
    }
    let rate = r.nodes as f64 / r.elapsed_s.max(1e-9) * threads as f64;
    let end = Instant::now() + Duration::from_secs_f64((1.0 - MEASURE_SHARE) * slice);
    let late = || interrupted() || Instant::now() >= end;
    let batches = std::iter::once(FIRST_PROBES).chain(std::iter::repeat(MORE_PROBES));
    let tree: f64 = per_depth_within(puzzle, h, batches, 1, &interrupted, &late)?
        .iter()
        .sum();
    // The measured run searched this many nodes without finishing: a floor.
    let nodes = (tree / turns as f64).max(r.nodes as f64);
    Some(Forecast {
        run_s: nodes / rate,
        nodes: Some((nodes, rate)),
    })
}

/// The forecast of `auto` in about `slice` seconds: the choosing each of its runs
/// does (0.3 s, or 1% of `--timeout`), then the run of its choice as the choosing
/// predicted it. `turns` and `threads` as in [`forecast`]; `None` when Ctrl-C
/// stopped the check.
pub fn forecast_auto(
    puzzle: &Puzzle,
    solutions: Option<u64>,
    seed: u64,
    (turns, threads): (u64, usize),
    slice: f64,
) -> Option<Forecast> {
    let budget = Budget::seconds(slice);
    let choice = auto::choose(
        puzzle,
        solutions,
        budget,
        Costs::Measured,
        seed,
        &INTERRUPTED,
    )?;
    // The chosen is always among the candidates.
    let best = choice
        .candidates
        .iter()
        .find(|c| c.select == choice.chosen)?;
    let choosing = Budget::for_timeout(None).seconds;
    if best.measured {
        return Some(Forecast {
            run_s: best.time_s + choosing,
            nodes: None,
        });
    }
    let rate = threads as f64 / best.cost_s;
    let nodes = best.nodes / turns as f64;
    Some(Forecast {
        run_s: nodes / rate + choosing,
        nodes: Some((nodes, rate)),
    })
}

/// The one-line refusal of a setting whose `runs` (`warmup` of them not counted) are
/// predicted to take longer than [`LONG_S`]; `None` when they are not.
pub fn refusal(
    h: impl std::fmt::Display,
    puzzle: &str,
    f: &Forecast,
    warmup: u32,
    runs: u32,
    solutions: Option<u64>,
) -> Option<String> {
    let all = warmup + runs;
    let total = f.run_s * all as f64;
    if total <= LONG_S {
        return None;
    }
    let upto = if solutions.is_some() { "up to " } else { "" };
    let why = match f.nodes {
        Some((n, rate)) => format!(
            "{n:.1e} nodes at {rate:.1e} nodes/s{}",
            if solutions.is_some() {
                " in the whole tree; --solutions may end it sooner"
            } else {
                ""
            }
        ),
        None => "measured".to_string(),
    };
    let each = if all == 1 {
        format!("{upto}{} for its run ({why})", duration(f.run_s))
    } else {
        format!(
            "{upto}{} for its {all} runs ({}{runs} timed; {} each: {why})",
            duration(total),
            if warmup > 0 {
                format!("{warmup} warm-up, ")
            } else {
                String::new()
            },
            duration(f.run_s)
        )
    };
    Some(format!(
        "{h} on {puzzle} is predicted to take {each}, more than the {} bench gives a setting; \
         give --timeout S to bound each run, or --allow-long to run it anyway",
        duration(LONG_S)
    ))
}

/// A duration for people, to two significant digits: `~45 s`, `~12 min`, `~2.9 h`,
/// `~3.1 days`, `~4.2e5 years`.
pub fn duration(s: f64) -> String {
    let (x, unit) = if s < 60.0 {
        (s, "s")
    } else if s < 3600.0 {
        (s / 60.0, "min")
    } else if s < 86_400.0 {
        (s / 3600.0, "h")
    } else if s < 365.25 * 86_400.0 {
        (s / 86_400.0, "days")
    } else {
        (s / (365.25 * 86_400.0), "years")
    };
    if x >= 1e4 {
        format!("~{x:.1e} {unit}")
    } else if x >= 10.0 {
        format!("~{x:.0} {unit}")
    } else {
        format!("~{x:.1} {unit}")
    }
}
