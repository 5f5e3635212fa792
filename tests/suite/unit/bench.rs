//! `plytile bench`'s pure parts (`cli::bench`): the check before the runs, the live
//! line, and the warnings about the timed runs.

use plytile::cli::bench_parts::{
    duration, elapsed, modified_zscores, refusal, run_label, status_text, warnings, Forecast,
    OUTLIER_THRESHOLD,
};
use plytile::search::Heuristic;

/// Hyperfine's own cases (`outlier_detection.rs`): how many are outliers.
#[test]
fn outliers_as_hyperfine_counts_them() {
    let count = |xs: &[f64]| {
        (modified_zscores(xs).iter())
            .filter(|s| s.abs() > OUTLIER_THRESHOLD)
            .count()
    };
    assert_eq!(count(&[50.0]), 0);
    assert_eq!(count(&[1000.0, 0.0]), 0);
    assert_eq!(count(&[-0.2, 0.0, 0.2]), 0);
    assert_eq!(count(&[-0.2, 0.0, 0.2, 4.0]), 1);
    assert_eq!(count(&[0.5, 0.30, 0.29, 0.31, 0.30]), 1);
    assert_eq!(count(&[10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 100.0]), 1);
}

#[test]
fn a_slow_first_run_advises_a_warmup() {
    let w = warnings("mrv on p.txt", &[2.0, 1.0, 1.01], &[7; 3], true, 0);
    assert_eq!(
        w,
        [
            "mrv on p.txt: the first timed run took 2.000 s, 2.0x the median of the \
          others (1.005 s): a cold start (caches, memory, CPU clock); give --warmup 1 \
          (or more) to run it untimed first"
        ]
    );
    let w = warnings("mrv on p.txt", &[2.0, 1.0, 1.01], &[7; 3], true, 2);
    assert!(w[0].ends_with("a larger --warmup (now 2) or a quieter system may help"));
}

#[test]
fn an_outlier_later_is_named_as_one() {
    let w = warnings("scan on p.txt", &[1.0, 1.01, 3.0, 1.0], &[7; 4], true, 1);
    assert_eq!(
        w,
        [
            "scan on p.txt: 1 of 4 timed runs are statistical outliers (modified Z-score \
          over 14.8, as hyperfine): rerun on a quiet system"
        ]
    );
}

#[test]
fn a_spread_over_half_the_mean_is_said() {
    // No outlier by the median rule (two groups), but σ is 58% of the mean.
    let w = warnings("ply:2 on p.txt", &[0.1, 0.3, 0.1, 0.3], &[7; 4], true, 1);
    assert_eq!(
        w,
        [
            "ply:2 on p.txt: the times vary by σ 115.5 ms, 58% of their mean 200.0 ms: \
          rerun on a quiet system, or with more --runs"
        ]
    );
    // Node counts that differ: the rate's spread, not the times'.
    let w = warnings(
        "mrv on p.txt",
        &[0.1, 0.3, 0.1, 0.3],
        &[1, 3, 1, 3],
        true,
        1,
    );
    assert_eq!(w, Vec::<String>::new());
}

#[test]
fn no_warning_without_reason() {
    // Steady runs; one run; runs too short to time; runs stopped differently.
    assert!(warnings("a", &[1.0, 1.02, 0.99], &[7; 3], true, 1).is_empty());
    assert!(warnings("a", &[5.0], &[7], true, 0).is_empty());
    assert!(warnings("a", &[0.004, 0.001, 0.001], &[7; 3], true, 0).is_empty());
    assert!(warnings("a", &[2.0, 1.0, 1.01], &[7; 3], false, 0).is_empty());
}

#[test]
fn durations_read_as_people_say_them() {
    assert_eq!(duration(0.25), "~0.2 s");
    assert_eq!(duration(45.0), "~45 s");
    assert_eq!(duration(300.0), "~5.0 min");
    assert_eq!(duration(720.0), "~12 min");
    assert_eq!(duration(2.9 * 3600.0), "~2.9 h");
    assert_eq!(duration(3.0 * 86_400.0), "~3.0 days");
    assert_eq!(duration(4.2e5 * 365.25 * 86_400.0), "~4.2e5 years");
}

#[test]
fn a_setting_over_five_minutes_is_refused_with_its_prediction() {
    let mrv: Heuristic = "mrv".parse().unwrap();
    let f = Forecast {
        run_s: 1.2e11 / 1.1e7,
        nodes: Some((1.2e11, 1.1e7)),
    };
    assert_eq!(
        refusal(mrv, "p.txt", &f, 1, 3, None).unwrap(),
        "mrv on p.txt is predicted to take ~12 h for its 4 runs (1 warm-up, 3 timed; \
         ~3.0 h each: 1.2e11 nodes at 1.1e7 nodes/s), more than the ~5.0 min bench \
         gives a setting; give --timeout S to bound each run, or --allow-long to run \
         it anyway"
    );
    assert_eq!(
        refusal(mrv, "p.txt", &f, 0, 1, Some(1)).unwrap(),
        "mrv on p.txt is predicted to take up to ~3.0 h for its run (1.2e11 nodes at \
         1.1e7 nodes/s in the whole tree; --solutions may end it sooner), more than \
         the ~5.0 min bench gives a setting; give --timeout S to bound each run, or \
         --allow-long to run it anyway"
    );
    // 4 runs of 70 s: 280 s, within the 5 minutes; 5 of them are not.
    let short = Forecast {
        run_s: 70.0,
        nodes: None,
    };
    assert_eq!(refusal(mrv, "p.txt", &short, 1, 3, None), None);
    assert!(refusal(mrv, "p.txt", &short, 1, 4, None).is_some());
}

#[test]
fn the_live_line_names_the_setting_the_run_and_its_progress() {
    let label = run_label("mrv on p.txt", 2, 1, 3, (2, 5), Some("~3.0 h"));
    assert_eq!(
        status_text(&label, 12.3, 1_230_000_000),
        "mrv on p.txt, run 2/3 (setting 2/5), ~3.0 h per run predicted: 12.3 s, \
         1.23e9 nodes, 1.00e8 nodes/s"
    );
    let label = run_label("scan on p.txt", 0, 1, 3, (1, 5), None);
    assert_eq!(
        status_text(&label, 0.0, 0),
        "scan on p.txt, warm-up 1/1 (setting 1/5): 0.0 s, 0 nodes, 0.00e0 nodes/s"
    );
    assert_eq!(elapsed(725.0), "12 min 05 s");
    assert_eq!(elapsed(3.0 * 3600.0 + 7.0 * 60.0 + 59.0), "3 h 07 min");
}
