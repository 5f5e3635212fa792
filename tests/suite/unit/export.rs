//! Benchmark reports (`report::export`): records built from runs, the ranking of
//! settings, and every export format's words for stopped, partial and ranked runs.

use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::report::export::{
    count_mismatch, fmt_secs, fmt_time, fmt_time_as, BenchConfig, BenchRecord, BenchReport,
    ExportFormat,
};
use plytile::report::{limit_stop, SolveResult};
use plytile::search::{solve, Heuristic, Limits, Order, Stop};
use std::sync::atomic::AtomicBool;

fn run(h: &str) -> SolveResult {
    let path = format!(
        "{}/puzzles/brendan/pieces_04x03.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let p = read_puzzle(std::path::Path::new(&path), EdgeOrder::Urdl).unwrap();
    solve(
        &p,
        h.parse::<Heuristic>().unwrap(),
        &Limits::default(),
        &AtomicBool::new(false),
    )
}

#[test]
fn mismatch_is_named_only_when_exhaustive_counts_differ() {
    let (a, b) = (run("scan"), run("mrv"));
    assert_eq!(a.solutions_found, 32);
    assert_eq!(count_mismatch([&a, &b]), None);
    let mut bad = b.clone();
    bad.solutions_found = 31;
    let msg = count_mismatch([&a, &bad]).unwrap();
    assert!(
        msg.contains("scan found 32") && msg.contains("mrv found 31"),
        "{msg}"
    );
    bad.exhaustive = false;
    assert_eq!(count_mismatch([&a, &bad]), None);
}

/// A report on scan and mrv, with no limits.
fn scan_mrv_report() -> BenchReport {
    BenchReport::new(BenchConfig {
        settings: vec!["scan".parse().unwrap(), "mrv".parse().unwrap()],
        runs: 2,
        warmup: 0,
        threads: 1,
        threads_used: 1,
        max_solutions: None,
        max_nodes: None,
        timeout_s: None,
        symmetry: false,
        factor: false,
        move_order: Order::Natural,
        command: String::new(),
        version: "test".into(),
        cpu_features: "avx2".into(),
    })
}

/// One run of `h` on puzzle `name`, as if it took `time_s`, stopped as `stop` says.
fn record(name: &str, h: &str, time_s: f64, stop: Option<Stop>) -> BenchRecord {
    let mut r = BenchRecord::from_runs(name, 12, &[run(h)]);
    r.time_mean_s = time_s;
    r.stopped_by = stop;
    r.exhaustive = stop.is_none();
    r.stopped_by_run = vec![limit_stop(stop)];
    r.runs_stopped = usize::from(limit_stop(stop).is_some());
    if limit_stop(stop).is_some() {
        r.goal_nodes_mean = None;
    }
    r.runs_exhaustive = usize::from(stop.is_none());
    r
}

#[test]
fn a_setting_stopped_on_a_puzzle_ranks_after_one_that_finished_everywhere() {
    let mut report = scan_mrv_report();
    report.push_puzzle(
        vec![
            record("a", "scan", 2.0, None),
            record("a", "mrv", 1.0, None),
        ],
        true,
    );
    // mrv is quicker where it finished, but a timeout stopped it on b.
    let timed_out = Some(Stop::Timeout);
    report.push_puzzle(
        vec![
            record("b", "scan", 2.0, None),
            record("b", "mrv", 0.5, timed_out),
        ],
        true,
    );
    let order: Vec<(String, usize)> = report
        .overall
        .iter()
        .map(|o| (o.select.to_string(), o.puzzles_ranked))
        .collect();
    assert_eq!(order, [("scan".into(), 2), ("mrv".into(), 1)]);
    assert_eq!(report.overall[1].geomean_relative_time, Some(1.0));
    assert_eq!(report.overall[0].coverage(2), "");
    assert_eq!(report.overall[1].coverage(2), " (1 of 2 puzzles)");
    let md = ExportFormat::Markdown.exporter().serialize(&report);
    let mrv_row = md.lines().rfind(|l| l.starts_with("| mrv ")).unwrap();
    assert!(mrv_row.contains(" 1.00 (1 of 2 puzzles) |"), "{md}");
}

#[test]
fn markdown_marks_only_runs_a_limit_stopped() {
    let mut report = scan_mrv_report();
    let (goal, limit) = (Some(Stop::Solutions), Some(Stop::MaxNodes));
    report.push_puzzle(
        vec![
            record("a", "scan", 2.0, limit),
            record("a", "mrv", 1.0, goal),
        ],
        true,
    );
    let md = ExportFormat::Markdown.exporter().serialize(&report);
    let row = |h: &str| md.lines().find(|l| l.contains(&format!("| {h} "))).unwrap();
    assert!(
        row("scan").contains(" 32 (stopped: --max-nodes reached) |"),
        "{md}"
    );
    assert!(!row("mrv").contains("stopped"), "{md}");
    // The stopped run's relative nodes are a lower bound too.
    let last = |h: &str| {
        row(h)
            .trim_end_matches(['|', ' '])
            .rsplit('|')
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    assert!(last("scan").starts_with("≥ "), "{md}");
    assert!(!last("mrv").contains('≥'), "{md}");
}

#[test]
fn report_ranks_settings_and_every_format_serializes() {
    let mut report = scan_mrv_report();
    let scan = BenchRecord::from_runs("p.txt", 12, &[run("scan"), run("scan")]);
    let mrv = BenchRecord::from_runs("p.txt", 12, &[run("mrv"), run("mrv")]);
    assert_eq!(scan.nodes_stddev, 0.0);
    report.push_puzzle(vec![scan, mrv], true);
    assert_eq!(report.puzzles[0].solutions_found, Some(32));
    assert_eq!(report.overall.len(), 2);
    assert_eq!(report.overall[0].geomean_relative_time, Some(1.0));
    assert!(report.results.iter().any(|r| r.relative_time == Some(1.0)));
    let json = ExportFormat::Json.exporter().serialize(&report);
    let back: BenchReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back.results.len(), 2);
    let csv = ExportFormat::Csv.exporter().serialize(&report);
    assert_eq!(csv.lines().count(), 3);
    let md = ExportFormat::Markdown.exporter().serialize(&report);
    assert!(md.contains("| p "), "{md}");
    assert!(md.contains("Built for a CPU with avx2.\n"), "{md}");
}

/// Runs of one setting that stopped differently (a timeout stops some runs and not
/// others): each run's stop, their count, and the words of the text and Markdown.
#[test]
fn records_say_which_runs_a_limit_stopped() {
    let stopped = |stop: Option<Stop>| {
        let mut r = run("scan");
        r.stopped_by = stop;
        r.exhaustive = stop.is_none();
        r
    };
    let runs = [
        stopped(Some(Stop::Timeout)),
        stopped(None),
        stopped(Some(Stop::Timeout)),
        stopped(None),
    ];
    let r = BenchRecord::from_runs("p", 12, &runs);
    assert_eq!(
        r.stopped_by_run,
        [Some(Stop::Timeout), None, Some(Stop::Timeout), None]
    );
    assert_eq!(
        (r.runs_stopped, r.stopped_by, r.exhaustive),
        (2, Some(Stop::Timeout), false)
    );
    assert_eq!(
        r.stopped_runs_text().as_deref(),
        Some("2 of 4 runs stopped: --timeout reached")
    );
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(
        v["stopped_by_run"],
        serde_json::json!(["timeout", null, "timeout", null])
    );
    // Two limits, each with its count; a run that reached its --solutions goal is
    // not stopped.
    let mixed = [
        stopped(Some(Stop::MaxNodes)),
        stopped(Some(Stop::Solutions)),
        stopped(Some(Stop::Timeout)),
    ];
    let m = BenchRecord::from_runs("p", 12, &mixed);
    assert_eq!(
        m.stopped_by_run,
        [Some(Stop::MaxNodes), None, Some(Stop::Timeout)]
    );
    assert_eq!(
        m.stopped_runs_text().as_deref(),
        Some("2 of 3 runs stopped: --max-nodes reached (1), --timeout reached (1)")
    );
    let done = BenchRecord::from_runs("p", 12, &[stopped(None)]);
    assert_eq!((done.runs_stopped, done.stopped_runs_text()), (0, None));
    let mut report = scan_mrv_report();
    report.push_puzzle(vec![r], true);
    let csv = ExportFormat::Csv.exporter().serialize(&report);
    // runs_stopped, runs_exhaustive, goal_nodes_mean (the two that finished), and
    // the report not interrupted.
    let row = csv.lines().nth(1).unwrap();
    assert!(row.ends_with(",natural,2,2,727.0,false"), "{csv}");
    let md = ExportFormat::Markdown.exporter().serialize(&report);
    assert!(
        md.contains("| 32 (2 of 4 runs stopped: --timeout reached) |"),
        "{md}"
    );
}

/// A run that reached its goal is the authority on a setting's count and nodes:
/// "3 solutions so far" of a stopped last run does not hide the 32 a finished run
/// proved, and its nodes win `fewest_nodes` although a limit stopped another run.
#[test]
fn a_finished_run_gives_the_count_and_the_nodes() {
    let exact = run("scan");
    let mut stopped = exact.clone();
    stopped.stopped_by = Some(Stop::Timeout);
    stopped.exhaustive = false;
    stopped.solutions_found = 3;
    stopped.nodes = 10;
    let scan = BenchRecord::from_runs("p", 12, &[exact.clone(), stopped.clone()]);
    assert_eq!(scan.solutions_found, 32);
    assert_eq!((scan.exhaustive, scan.runs_exhaustive), (false, 1));
    assert_eq!(scan.goal_nodes_mean, Some(exact.nodes as f64));
    assert_eq!(scan.stopped_by, Some(Stop::Timeout));
    // No run finished: the most any run found, and no exact nodes.
    let mut fewer = stopped.clone();
    fewer.solutions_found = 1;
    let none = BenchRecord::from_runs("p", 12, &[stopped.clone(), fewer]);
    assert_eq!((none.solutions_found, none.runs_exhaustive), (3, 0));
    assert_eq!(none.goal_nodes_mean, None);
    // mrv finished every run with more nodes: scan's finished run has fewer.
    let mut more = run("mrv");
    more.nodes = exact.nodes + 100;
    let mrv = BenchRecord::from_runs("p", 12, &[more.clone(), more]);
    let mut report = scan_mrv_report();
    report.push_puzzle(vec![scan, mrv], true);
    let p = &report.puzzles[0];
    assert_eq!(p.fewest_nodes, Some("scan".parse().unwrap()));
    assert_eq!(p.fastest, Some("mrv".parse().unwrap()));
    assert_eq!(p.solutions_found, Some(32));
    assert_eq!(report.results[0].relative_nodes, Some(1.0));
    assert!(!report.results[0].nodes_lower_bound());
    let md = ExportFormat::Markdown.exporter().serialize(&report);
    let row = md.lines().find(|l| l.contains("| scan ")).unwrap();
    assert!(
        row.trim_end().ends_with(" 1.00 |") && !row.contains("≥ 1.00"),
        "{md}"
    );
}

/// The Markdown's "best ply:N" is the fastest ply setting that is ranked, never one
/// a limit stopped sooner; a ratio that is a lower bound says "≥".
#[test]
fn best_ply_names_a_ranked_setting_and_marks_lower_bounds() {
    let ply_report = |settings: &[&str]| {
        let mut r = scan_mrv_report();
        r.config.settings = settings.iter().map(|h| h.parse().unwrap()).collect();
        r
    };
    let best = |report: &BenchReport| {
        let md = ExportFormat::Markdown.exporter().serialize(report);
        let row = md
            .lines()
            .skip_while(|l| !l.starts_with("## Best setting"))
            .find(|l| l.starts_with("| a "))
            .unwrap()
            .to_string();
        row.trim_end_matches(['|', ' '])
            .rsplit('|')
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    // ply:2 was stopped sooner (quicker, not ranked); ply:3 finished.
    let mut report = ply_report(&["ply:2", "ply:3"]);
    report.push_puzzle(
        vec![
            record("a", "ply:2", 0.5, Some(Stop::MaxNodes)),
            record("a", "ply:3", 1.0, None),
        ],
        true,
    );
    assert_eq!(best(&report), "ply:3 (1.00x)");
    // Only an "at least" ply setting: its ratio is a lower bound.
    let mut report = ply_report(&["scan", "ply:2"]);
    report.push_puzzle(
        vec![
            record("a", "scan", 1.0, None),
            record("a", "ply:2", 30.0, Some(Stop::Timeout)),
        ],
        true,
    );
    assert_eq!(best(&report), "ply:2 (≥ 30.00x)");
    // Every ply setting stopped sooner: none is named.
    let mut report = ply_report(&["scan", "ply:2"]);
    report.push_puzzle(
        vec![
            record("a", "scan", 1.0, None),
            record("a", "ply:2", 0.5, Some(Stop::Timeout)),
        ],
        true,
    );
    assert_eq!(best(&report), "none reached its goal");
}

/// An interrupted report says so in every format: the JSON's `interrupted` and
/// `puzzles_not_reported`, a line at the top of the Markdown, the CSV's last
/// column; one written while the run goes on names the puzzles to come.
#[test]
fn an_interrupted_report_says_it_is_partial_in_every_format() {
    let mut report = scan_mrv_report();
    report.push_puzzle(
        vec![
            record("a.txt", "scan", 2.0, None),
            record("a.txt", "mrv", 1.0, None),
        ],
        true,
    );
    let csv = ExportFormat::Csv.exporter().serialize(&report);
    assert!(
        csv.lines().next().unwrap().ends_with(",interrupted"),
        "{csv}"
    );
    assert!(csv.lines().skip(1).all(|l| l.ends_with(",false")), "{csv}");
    let md = ExportFormat::Markdown.exporter().serialize(&report);
    assert!(
        !md.contains("Interrupted") && !md.contains("Partial"),
        "{md}"
    );
    report.puzzles_not_reported = vec!["b.txt".into()];
    let md = ExportFormat::Markdown.exporter().serialize(&report);
    assert!(
        md.contains(
            "**Partial results: written while the benchmark runs.** Not reported: `b.txt`.\n"
        ),
        "{md}"
    );
    report.interrupted = true;
    let md = ExportFormat::Markdown.exporter().serialize(&report);
    assert!(
        md.contains(
            "**Interrupted (Ctrl-C or SIGTERM): partial results.** Not reported: `b.txt`.\n"
        ),
        "{md}"
    );
    let csv = ExportFormat::Csv.exporter().serialize(&report);
    assert!(csv.lines().skip(1).all(|l| l.ends_with(",true")), "{csv}");
    let v: serde_json::Value =
        serde_json::from_str(&ExportFormat::Json.exporter().serialize(&report)).unwrap();
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["puzzles_not_reported"], serde_json::json!(["b.txt"]));
}

#[test]
fn times_for_people_take_a_unit_that_shows_them() {
    assert_eq!(fmt_time(0.000_040_4), "40.4 µs");
    assert_eq!(fmt_time(0.0), "0.0 µs");
    assert_eq!(fmt_time(0.0123), "12.3 ms");
    assert_eq!(fmt_time(2.5), "2.500 s");
    // σ and range in the mean's unit.
    assert_eq!(fmt_time_as(0.000_002_1, 0.0004), "2.1 µs");
    assert_eq!(fmt_time_as(0.0012, 0.0004), "1200.0 µs");
}

#[test]
fn seconds_keep_three_significant_digits() {
    assert_eq!(fmt_secs(0.000404, Some(0.00003)), "0.000404 ± 0.000030");
    assert_eq!(fmt_secs(32.31, None), "32.3");
    assert_eq!(fmt_secs(1.5, None), "1.50");
    assert_eq!(fmt_secs(0.0, None), "0.000");
}
