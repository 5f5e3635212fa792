//! Tests of `plytile compare` and `plytile bench` through the binary: the JSON and CSV
//! outputs read back, their solution and node counts equal `solve --json`'s, the
//! exports are written, and the flags parse (or fail with exit code 2).

use crate::common;

use common::{code, plytile, stderr, stdout};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const P44: &str = "puzzles/brendan/pieces_04x04.txt"; // 36 solutions
const P53: &str = "puzzles/brendan/pieces_05x03.txt"; // 78 solutions

/// The JSON a successful run prints on stdout.
fn json_of(args: &[&str]) -> Value {
    let o = plytile(args);
    assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// [`json_of`] of a command line split at spaces.
fn json_cmd(line: &str) -> Value {
    json_of(&line.split_whitespace().collect::<Vec<_>>())
}

/// `solve --all --json` of one puzzle with one heuristic.
fn solve(puzzle: &str, h: &str) -> Value {
    json_of(&["solve", puzzle, "--all", "--json", "--select", h])
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

/// A fresh scratch directory for one test.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("plytile-compare-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A CSV with no quoted fields, as rows of column name -> cell.
fn read_csv(text: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            assert_eq!(cells.len(), header.len(), "row {l}");
            header
                .iter()
                .map(|h| h.to_string())
                .zip(cells.iter().map(|c| c.to_string()))
                .collect()
        })
        .collect()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn compare_json_holds_solve_results_with_equal_counts() {
    let o = plytile(&[
        "compare",
        P44,
        "--select",
        "scan,mrv,ply:2,ply:3",
        "--all",
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    assert_eq!(v["counts_agree"], true);
    for (r, h) in results.iter().zip(["scan", "mrv", "ply:2", "ply:3"]) {
        let solo = solve(P44, h);
        let mut solve_keys = keys(&solo);
        solve_keys.extend(["rank", "relative_time", "relative_nodes"].map(String::from));
        assert_eq!(keys(r), solve_keys, "{h}: solve --json's keys and its rank");
        assert_eq!(r["select"], h);
        assert_eq!(r["solutions_found"], 36, "{h}");
        assert_eq!(r["exhaustive"], true, "{h}");
        assert_eq!(r["nodes"], solo["nodes"], "{h}");
        assert_eq!(r["nodes_per_depth"], solo["nodes_per_depth"], "{h}");
    }
    let fewest = results.iter().map(|r| r["nodes"].as_u64().unwrap()).min();
    let named = results
        .iter()
        .find(|r| r["select"] == v["fewest_nodes"])
        .unwrap();
    assert_eq!(named["nodes"].as_u64(), fewest);
}

#[test]
fn compare_csv_reads_back_and_text_names_every_heuristic() {
    let o = plytile(&["compare", P53, "--select", "mrv,ply:2", "--all", "--csv"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let rows = read_csv(&stdout(&o));
    assert_eq!(rows.len(), 2);
    for (row, h) in rows.iter().zip(["mrv", "ply:2"]) {
        let solo = solve(P53, h);
        assert_eq!(row["select"], h);
        assert_eq!(row["solutions"], "78");
        assert_eq!(row["nodes"], solo["nodes"].to_string());
        assert!(row["time_s"].parse::<f64>().is_ok());
    }
    let min_rel = rows
        .iter()
        .map(|r| r["relative_nodes"].parse::<f64>().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(min_rel, 1.0);

    let dir = scratch("plot");
    let svg = dir.join("growth.svg");
    let o = plytile(&["compare", P53, "--select", "mrv,ply:2", "--plot", &s(&svg)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("times faster than"), "{text}");
    assert!(text.contains("nodes per depth"), "{text}");
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("mrv") && plot.contains("ply:2"));
    let _ = std::fs::remove_dir_all(dir);
}

/// 6x6 with a budget between the first solutions of mrv and ply:2: scan needs
/// 696,096 nodes to its first, mrv 145,310, ply:2 181,487 (one thread).
const P66: &str = "puzzles/brendan/pieces_06x06.txt";
const CAPPED_66: [&str; 6] = [
    "compare",
    P66,
    "--select",
    "scan,mrv,ply:2",
    "--max-nodes",
    "170000",
];

/// A run a limit stopped did less work, not the same work faster: only runs that
/// reached their goal are ranked by time. On Brendan's 6x6 the first solution takes
/// scan 696,096 nodes, mrv 145,310 and ply:2 181,487 (one thread).
#[test]
fn compare_ranks_by_time_only_the_runs_that_reached_their_goal() {
    let args = CAPPED_66;
    let o = plytile(&[&args[..], &["--json"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let found: Vec<u64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["solutions_found"].as_u64().unwrap())
        .collect();
    assert_eq!(found, [0, 1, 0]);
    // mrv is the only run that found one, so it is the fastest whatever the times
    // (scan's 170,000 nodes usually take less time than mrv's 145,310).
    assert_eq!(
        (v["fastest"].as_str(), v["fewest_nodes"].as_str()),
        (Some("mrv"), Some("mrv"))
    );
    let text = stdout(&plytile(&args));
    assert!(!text.contains("scan ran"), "{text}");
    assert!(text.contains("mrv ran at least"), "{text}");
    assert!(
        text.contains("--max-nodes reached: ply:2 stopped after 170000 nodes"),
        "{text}"
    );
    // bench ranks the same way: per puzzle, and in the overall wins.
    let bench = [
        "bench",
        P66,
        "--select",
        "scan,mrv,ply:2",
        "--max-nodes",
        "170000",
        "--runs",
        "1",
        "--solutions",
        "1",
    ];
    let o = plytile(&[&bench[..], &["--export-json", "-"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["puzzles"][0]["fastest"], "mrv");
    let wins: Vec<(String, u64)> = v["overall"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["select"].as_str().unwrap().to_string(),
                o["wins"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(wins.contains(&("mrv".to_string(), 1)), "{wins:?}");
    // The exports say how each time ranks, and give no ratio where it says nothing.
    let results = v["results"].as_array().unwrap();
    let rec = |h: &str| results.iter().find(|r| r["select"] == h).unwrap().clone();
    assert_eq!(rec("mrv")["rank"], "ranked");
    assert_eq!(rec("mrv")["relative_time"], 1.0);
    assert_eq!(rec("ply:2")["rank"], "at least");
    assert!(rec("ply:2")["relative_time"].as_f64().unwrap() > 1.0);
    let scan = rec("scan");
    match scan["rank"].as_str().unwrap() {
        "not ranked" => assert!(scan["relative_time"].is_null(), "{scan}"),
        "at least" => assert!(scan["relative_time"].as_f64().unwrap() >= 1.0),
        other => panic!("scan stopped at --max-nodes, ranked {other}"),
    }
    let csv = stdout(&plytile(&[&args[..], &["--csv"]].concat()));
    let rows = read_csv(&csv);
    let mrv_row = rows.iter().find(|r| r["select"] == "mrv").unwrap();
    assert_eq!(mrv_row["rank"], "ranked", "{csv}");
    let text = stdout(&plytile(&bench));
    assert!(
        text.contains("mrv ran") && !text.contains("scan ran"),
        "{text}"
    );
    assert!(
        text.contains("at least") && text.contains("than ply:2 (--max-nodes reached)"),
        "{text}"
    );
    // No run reached its goal: no time ranking at all.
    let text = stdout(&plytile(&[
        "compare",
        P66,
        "--select",
        "scan,mrv",
        "--max-nodes",
        "1000",
    ]));
    assert!(
        text.contains("no run reached its goal (--max-nodes reached)") && !text.contains(" ran "),
        "{text}"
    );
}

/// scan's first solution of the 6x6 takes 696,096 nodes: --max-nodes stops it there,
/// so its overall figures rest on the 4x4 alone, and it ranks after mrv.
#[test]
fn bench_overall_says_on_how_many_puzzles_a_setting_is_ranked() {
    let bench = [
        "bench",
        P44,
        P66,
        "--select",
        "scan,mrv",
        "--solutions",
        "1",
        "--max-nodes",
        "170000",
        "--runs",
        "1",
    ];
    let o = plytile(&[&bench[..], &["--export-json", "-"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let overall: Vec<(&str, u64)> = v["overall"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["select"].as_str().unwrap(),
                o["puzzles_ranked"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(overall, [("mrv", 2), ("scan", 1)]);
    let scan_line = stderr(&o)
        .lines()
        .find(|l| l.trim_start().starts_with("scan ") && l.contains("fastest on"))
        .map(String::from)
        .unwrap_or_else(|| panic!("{}", stderr(&o)));
    assert!(scan_line.contains(" (1 of 2 puzzles)"), "{scan_line}");
}

/// A heuristic given twice runs once, as in bench: it was timed against itself, and
/// the fastest found by name gave the other copy a relative time below 1.
#[test]
fn compare_runs_a_repeated_heuristic_once() {
    let v = json_of(&["compare", P44, "--select", "scan,scan", "--json"]);
    assert_eq!(v["results"].as_array().unwrap().len(), 1, "{v}");
    let csv = stdout(&plytile(&[
        "compare",
        P44,
        "--select",
        "mrv,scan,mrv",
        "--csv",
    ]));
    let rows = read_csv(&csv);
    let selects: Vec<&str> = rows.iter().map(|r| r["select"].as_str()).collect();
    assert_eq!(selects, ["mrv", "scan"], "{csv}");
    for r in &rows {
        assert!(r["relative_time"].parse::<f64>().unwrap() >= 1.0, "{csv}");
    }
    let text = stdout(&plytile(&["compare", P44, "--select", "mrv,scan,mrv"]));
    assert_eq!(text.matches(" times faster than ").count(), 1, "{text}");
}

#[test]
fn compare_first_solution_is_not_exhaustive_and_help_names_exit_4() {
    let o = plytile(&["compare", P44, "--select", "mrv,scan", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    for r in v["results"].as_array().unwrap() {
        assert_eq!(r["solutions_found"], 1);
        assert_eq!(r["exhaustive"], false);
        assert_eq!(r["stopped_by"], "solutions");
    }
    let help = stdout(&plytile(&["compare", "--help"]));
    assert!(help.contains("4 every run exhaustive"), "{help}");
    assert_eq!(
        code(&plytile(&["compare", P44, "--select", "mrv,bogus"])),
        2
    );
    assert_eq!(code(&plytile(&["compare", P44, "--json", "--csv"])), 2);
}

#[test]
fn bench_exports_read_back_with_solve_counts() {
    let dir = scratch("bench");
    let (json, csv, md) = (dir.join("b.json"), dir.join("b.csv"), dir.join("b.md"));
    let o = plytile(&[
        "bench",
        P44,
        P53,
        "--ply",
        "1..2",
        "--select",
        "scan,mrv",
        "--runs",
        "2",
        "--warmup",
        "1",
        "--export-json",
        &s(&json),
        "--export-csv",
        &s(&csv),
        "--export-markdown",
        &s(&md),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    for needle in [
        "Time (mean ± σ):",
        "Range (min … max):",
        "times faster than",
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    assert!(text.contains("Overall"), "{text}");

    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let settings = ["scan", "mrv", "ply:1", "ply:2"];
    assert_eq!(v["config"]["settings"], serde_json::json!(settings));
    assert_eq!(v["config"]["runs"], 2);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 8);
    let rows = read_csv(&std::fs::read_to_string(&csv).unwrap());
    assert_eq!(rows.len(), 8);
    let mut i = 0;
    for (puzzle, count) in [(P44, 36), (P53, 78)] {
        for h in settings {
            let (r, row) = (&results[i], &rows[i]);
            i += 1;
            let solo = solve(puzzle, h);
            assert_eq!(r["puzzle"], puzzle);
            assert_eq!(r["select"], h);
            assert_eq!(r["solutions_found"], count, "{puzzle} {h}");
            assert_eq!(r["exhaustive"], true);
            assert_eq!(r["runs"], 2);
            assert_eq!(r["times_s"].as_array().unwrap().len(), 2);
            assert_eq!(r["nodes_min"], solo["nodes"], "{puzzle} {h}");
            assert_eq!(r["nodes_max"], solo["nodes"], "{puzzle} {h}");
            assert_eq!(r["nodes_stddev"], 0.0);
            assert!(r["time_mean_s"].as_f64().unwrap() > 0.0);
            // CSV: the same record.
            assert_eq!(row["puzzle"], puzzle);
            assert_eq!(row["select"], h);
            assert_eq!(row["solutions_found"], count.to_string());
            assert_eq!(row["exhaustive"], "true");
            assert_eq!(row["nodes_min"], solo["nodes"].to_string());
            assert!(row["time_mean_s"].parse::<f64>().unwrap() > 0.0);
            assert!(row["relative_time"].parse::<f64>().unwrap() >= 1.0);
        }
    }
    for p in v["puzzles"].as_array().unwrap() {
        assert_eq!(p["counts_agree"], true);
    }
    assert_eq!(v["puzzles"][1]["solutions_found"], 78);
    let overall = v["overall"].as_array().unwrap();
    assert_eq!(overall.len(), 4);
    let wins: u64 = overall.iter().map(|o| o["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 2);
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains("| brendan/pieces_05x03"), "{md}");
    assert!(md.contains("## Overall"), "{md}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn compare_and_bench_symmetry_search_solve_symmetrys_trees() {
    // Square (quarter tree, symmetry 4) and 5x3 (two half runs, symmetry 2): every
    // heuristic finds all the solutions in the nodes of `solve --symmetry`, fewer
    // than the whole tree's.
    let dir = scratch("symmetry");
    let (json, md) = (dir.join("b.json"), dir.join("b.md"));
    let settings = ["scan", "mrv", "ply:2"];
    let o = plytile(&[
        "bench",
        P44,
        P53,
        "--select",
        "scan,mrv,ply:2",
        "--runs",
        "1",
        "--symmetry",
        "--export-json",
        &s(&json),
        "--export-markdown",
        &s(&md),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["config"]["symmetry"], true);
    let bench = v["results"].as_array().unwrap();
    assert_eq!(bench.len(), 6);
    for (k, (puzzle, count, turns)) in [(P44, 36, 4), (P53, 78, 2)].into_iter().enumerate() {
        let o = plytile(&[
            "compare",
            puzzle,
            "--select",
            "scan,mrv,ply:2",
            "--all",
            "--json",
            "--symmetry",
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["counts_agree"], true);
        for (i, (r, h)) in v["results"]
            .as_array()
            .unwrap()
            .iter()
            .zip(settings)
            .enumerate()
        {
            let o = plytile(&[
                "solve",
                puzzle,
                "--all",
                "--json",
                "--select",
                h,
                "--symmetry",
            ]);
            let anchored: Value = serde_json::from_str(&stdout(&o)).unwrap();
            let whole = solve(puzzle, h);
            assert_eq!(r["solutions_found"], count, "{puzzle} {h}");
            assert_eq!(r["symmetry"], turns, "{puzzle} {h}");
            assert_eq!(r["nodes"], anchored["nodes"], "{puzzle} {h}");
            assert!(
                r["nodes"].as_u64() < whole["nodes"].as_u64(),
                "{puzzle} {h}"
            );
            let b = &bench[3 * k + i];
            assert_eq!(b["select"], h);
            assert_eq!(b["solutions_found"], count, "{puzzle} {h}");
            assert_eq!(b["nodes_min"], anchored["nodes"], "{puzzle} {h}");
        }
    }
    // The words say so: solve's cut (auto), not always the one anchored tree.
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains("the trees of `solve --symmetry`;"), "{md}");
    for command in ["compare", "bench"] {
        let help = stdout(&plytile(&[command, "--help"]));
        assert!(
            help.contains("trees of `solve --symmetry` (its default --symmetry-parts auto)")
                && !help.contains("anchored trees"),
            "{help}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A puzzle given twice, under any name (a copy too: the same fingerprint), is
/// benchmarked once, with a note: it would count twice in the overall ranking.
#[test]
fn bench_runs_a_puzzle_given_twice_once() {
    let dir = scratch("bench-twice");
    let copy = dir.join("copy.txt");
    std::fs::copy(P44, &copy).unwrap();
    let (p54, copy) = ("puzzles/brendan/pieces_05x04.txt", s(&copy));
    let o = plytile(&[
        "bench",
        P44,
        p54,
        &copy,
        P44,
        "--select",
        "scan,mrv",
        "--runs",
        "1",
        "--export-json",
        "-",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let puzzles: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["puzzle"].as_str().unwrap())
        .collect();
    assert_eq!(
        puzzles,
        [P44, P44, p54, p54],
        "one record per setting and puzzle"
    );
    let err = stderr(&o);
    let notes: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("plytile: note:"))
        .collect();
    assert_eq!(
        notes,
        [
            format!("plytile: note: {copy} is the puzzle of {P44} (the same pieces and hints); benchmarking it once"),
            format!("plytile: note: {P44} is the puzzle of {P44} (the same pieces and hints); benchmarking it once"),
        ]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bench_json_to_stdout_keeps_people_text_on_stderr() {
    let o = plytile(&[
        "bench",
        P44,
        "--ply",
        "2",
        "--runs",
        "1",
        "--threads",
        "2",
        "--export-json",
        "-",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("only JSON on stdout");
    assert_eq!(v["config"]["settings"], serde_json::json!(["ply:2"]));
    assert_eq!(v["config"]["threads"], 2);
    let err = stderr(&o);
    assert!(err.contains("Time (abs ≡):"), "one run has no σ: {err}");
}

#[test]
fn bench_threads_run_the_parallel_driver_with_exact_counts() {
    let v = json_cmd(&format!(
        "bench {P53} --select scan,mrv --runs 2 --threads 2 --export-json -"
    ));
    // Two, or one on a machine of one core (at most the cores run).
    let used = plytile::search::workers(2);
    assert_eq!(v["config"]["threads_used"], used);
    assert_eq!(v["config"]["max_solutions"], Value::Null);
    for r in v["results"].as_array().unwrap() {
        let h = r["select"].as_str().unwrap();
        let one = json_cmd(&format!(
            "solve {P53} --all --json --select {h} --threads 1"
        ));
        assert_eq!(r["threads"], used, "{h}");
        assert_eq!(r["exhaustive"], true, "{h}");
        assert_eq!(r["solutions_found"], 78, "{h}");
        // Every run of the parallel driver counts the one-thread tree exactly.
        assert_eq!(r["nodes_min"], one["nodes"], "{h}");
        assert_eq!(r["nodes_max"], one["nodes"], "{h}");
    }
}

#[test]
fn bench_solutions_times_the_first_solutions() {
    // One thread: deterministic, so each run's nodes are `solve --solutions 2`'s.
    let dir = scratch("first");
    let md = dir.join("b.md");
    let o = plytile(&[
        "bench",
        P44,
        P53,
        "--select",
        "scan,mrv",
        "--runs",
        "2",
        "--solutions",
        "2",
        "--export-markdown",
        &s(&md),
        "--export-json",
        "-",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stderr(&o).contains("(to solution 2)"), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["config"]["max_solutions"], 2);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    for r in results {
        let (p, h) = (r["puzzle"].as_str().unwrap(), r["select"].as_str().unwrap());
        let solo = json_cmd(&format!(
            "solve {p} --solutions 2 --json --select {h} --threads 1"
        ));
        assert_eq!(r["solutions_found"], 2, "{p} {h}");
        assert_eq!(r["exhaustive"], false, "{p} {h}");
        assert_eq!(r["stopped_by"], "solutions", "{p} {h}");
        assert_eq!(r["nodes_min"], solo["nodes"], "{p} {h}");
        assert_eq!(r["nodes_max"], solo["nodes"], "{p} {h}");
    }
    // Two threads: each run stops at its first solution.
    let v = json_cmd(&format!(
        "bench {P53} --select scan --runs 3 --threads 2 --solutions 1 --export-json -"
    ));
    assert_eq!(v["results"][0]["solutions_found"], 1);
    assert_eq!(v["results"][0]["stopped_by"], "solutions");
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains("limits: --solutions 2."), "{md}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bench_limits_and_default_settings() {
    let o = plytile(&[
        "bench",
        P53,
        "--runs",
        "1",
        "--max-nodes",
        "50",
        "--export-json",
        "-",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // Issue 43: scan, the baseline, first; one warm-up run per setting.
    assert_eq!(
        v["config"]["settings"],
        serde_json::json!(["scan", "mrv", "ply:2", "ply:3", "ply:4"])
    );
    assert_eq!(v["config"]["warmup"], 1);
    for r in v["results"].as_array().unwrap() {
        assert_eq!(r["exhaustive"], false);
        assert_eq!(r["stopped_by"], "max_nodes");
        assert_eq!(r["nodes_min"], 50);
    }
}

/// One setting has nothing to be compared with: no "Summary for" with nothing under
/// it, and no overall ranking of one.
#[test]
fn bench_of_one_setting_prints_no_summary() {
    let o = plytile(&["bench", P44, P53, "--select", "scan,scan", "--runs", "1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.matches("Benchmark: ").count(), 2, "{text}");
    assert!(
        !text.contains("Summary for") && !text.contains(" ran"),
        "{text}"
    );
    assert!(!text.contains("Overall"), "{text}");
}

/// The command line recorded in the exports is quoted for a shell: pasted back, it
/// gives the same arguments, even for a file named `we,ird|"name.txt`.
#[test]
fn bench_records_a_command_line_that_pastes_back() {
    let dir = scratch("quoted");
    let weird = dir.join("we,ird|\"name's.txt");
    std::fs::copy(P44, &weird).unwrap();
    let md = dir.join("b.md");
    let args = [
        "bench",
        &s(&weird),
        "--select",
        "scan,mrv",
        "--runs",
        "1",
        "--export-markdown",
        &s(&md),
        "--export-json",
        "-",
    ];
    let v = json_of(&args);
    let command = v["config"]["command"].as_str().unwrap();
    let echoed = std::process::Command::new("sh")
        .args(["-c", &format!("printf '%s\\n' {command}")])
        .output()
        .unwrap();
    let words: Vec<String> = String::from_utf8(echoed.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(words[0], "plytile", "{command}");
    assert_eq!(words[1..], args, "{command}");
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains(&format!("Generated by `{command}`")), "{md}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bench_bad_flags_exit_2() {
    for bad in [
        &["--ply", "3..1"][..],
        &["--ply", "5"],
        &["--ply", "0..2"],
        &["--ply", "x"],
        &["--select", "nope"],
        &["--runs", "0"],
        &["--solutions", "0"],
        &["--threads", "0"],
        &["--export-json", "-", "--export-csv", "-"],
    ] {
        let mut args = vec!["bench", P44];
        args.extend_from_slice(bad);
        let o = plytile(&args);
        assert_eq!(code(&o), 2, "{bad:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{bad:?}: one line");
    }
    assert_eq!(code(&plytile(&["bench"])), 2);
    assert_eq!(code(&plytile(&["bench", "no/such/file.txt"])), 2);
}

/// `--factor` and `--move-order` change the node counts, so every export records them
/// under `solve --json`'s keys, beside the symmetry the runs searched: the JSON
/// `config` and records, CSV columns (added at the end) and the Markdown settings.
#[test]
fn bench_exports_record_factor_move_order_and_symmetry() {
    let dir = scratch("factor");
    let (json, csv, md) = (dir.join("b.json"), dir.join("b.csv"), dir.join("b.md"));
    let o = plytile(&[
        "bench",
        P44,
        "--select",
        "scan,mrv",
        "--factor",
        "on",
        "--move-order",
        "penalty",
        "--runs",
        "1",
        "--max-nodes",
        "2000",
        "--export-json",
        &s(&json),
        "--export-csv",
        &s(&csv),
        "--export-markdown",
        &s(&md),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let c = &v["config"];
    assert_eq!(
        (&c["factor"], &c["move_order"], &c["symmetry"]),
        (
            &Value::Bool(true),
            &Value::from("penalty"),
            &Value::Bool(false)
        )
    );
    for r in v["results"].as_array().unwrap() {
        assert_eq!(
            (&r["factor"], &r["move_order"], &r["symmetry"]),
            (&Value::Bool(true), &Value::from("penalty"), &Value::from(1))
        );
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.ends_with(
            ",relative_nodes,rank,symmetry,factor,move_order,runs_stopped,\
             runs_exhaustive,goal_nodes_mean,interrupted"
        ),
        "{header}"
    );
    for row in read_csv(&text) {
        assert_eq!(
            (
                row["symmetry"].as_str(),
                row["factor"].as_str(),
                row["move_order"].as_str()
            ),
            ("1", "true", "penalty")
        );
    }
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(
        md.contains(
            "1 thread(s); `--factor on`, `--move-order penalty`; limits: --max-nodes 2000."
        ),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `bench --symmetry` cuts only the boards without hints: a hinted one is searched
/// whole with `solve`'s note, its records say `symmetry` 1, and `config.symmetry` is
/// true only when some board was cut.
#[test]
fn bench_symmetry_on_a_hinted_board_searches_it_whole_and_says_so() {
    let dir = scratch("hinted");
    let json = dir.join("b.json");
    let hinted = "puzzles/hinted/b7x5_col3.txt";
    let note = "plytile: note: --symmetry is for boards without hints; searching the whole tree\n";
    let run = |puzzles: &[&str]| {
        let mut args = vec!["bench"];
        args.extend(puzzles);
        let j = s(&json);
        args.extend([
            "--select",
            "scan",
            "--runs",
            "1",
            "--symmetry",
            "--export-json",
            &j,
        ]);
        let o = plytile(&args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert_eq!(stderr(&o), note);
        serde_json::from_str::<Value>(&std::fs::read_to_string(&json).unwrap()).unwrap()
    };
    let v = run(&[hinted]);
    assert_eq!(v["config"]["symmetry"], false);
    assert_eq!(v["results"][0]["symmetry"], 1);
    assert_eq!(v["results"][0]["solutions_found"], 3);
    let v = run(&[hinted, P44]);
    assert_eq!(v["config"]["symmetry"], true);
    let cut: Vec<&Value> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["symmetry"])
        .collect();
    assert_eq!(cut, [&Value::from(1), &Value::from(4)]);
    let _ = std::fs::remove_dir_all(dir);
}

const P65: &str = "puzzles/brendan/pieces_06x05.txt";

/// Which runs a limit stopped, in every output: the JSON's `stopped_by_run` (aligned
/// with `times_s`; null for a run that reached its goal, `--solutions K` included) and
/// `runs_stopped`, the CSV's last column, the Markdown's solutions cell and the text.
/// With one thread the node counts, and so the stops by `--max-nodes`, are exact: scan
/// needs 17,718 nodes for its first solution of the 6x5, mrv 737.
#[test]
fn bench_exports_count_the_runs_a_limit_stopped() {
    let dir = scratch("stopped");
    let (json, csv, md) = (dir.join("b.json"), dir.join("b.csv"), dir.join("b.md"));
    let o = plytile(&[
        "bench",
        P65,
        "--select",
        "scan,mrv",
        "--solutions",
        "1",
        "--max-nodes",
        "1000",
        "--runs",
        "2",
        "--export-json",
        &s(&json),
        "--export-csv",
        &s(&csv),
        "--export-markdown",
        &s(&md),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let r = &v["results"];
    assert_eq!(r[0]["select"], "scan");
    assert_eq!(r[0]["stopped_by"], "max_nodes");
    assert_eq!(
        r[0]["stopped_by_run"],
        serde_json::json!(["max_nodes", "max_nodes"])
    );
    assert_eq!(r[0]["runs_stopped"], 2);
    assert_eq!(r[0]["nodes"], serde_json::json!([1000, 1000]));
    // mrv stopped at the solution it was asked for: its goal, not a limit.
    assert_eq!(r[1]["stopped_by"], "solutions");
    assert_eq!(r[1]["stopped_by_run"], serde_json::json!([null, null]));
    assert_eq!(r[1]["runs_stopped"], 0);
    let text = std::fs::read_to_string(&csv).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.contains(",rank,symmetry,factor,move_order,runs_stopped,"),
        "{header}"
    );
    let stopped: Vec<String> = read_csv(&text)
        .iter()
        .map(|row| row["runs_stopped"].clone())
        .collect();
    assert_eq!(stopped, ["2", "0"]);
    let md = std::fs::read_to_string(&md).unwrap();
    let row = |h: &str| md.lines().find(|l| l.contains(&format!("| {h} "))).unwrap();
    assert!(
        row("scan").contains("| 0 (2 of 2 runs stopped: --max-nodes reached) |"),
        "{md}"
    );
    assert!(!row("mrv").contains("stopped"), "{md}");
    assert!(
        md.contains("Means, σ and ranges are over all runs: where the solutions say that a limit stopped runs, those count with the time and nodes they took until it stopped, so the figures are lower bounds."),
        "{md}"
    );
    let text = stdout(&o);
    assert_eq!(
        text.matches(
            "\n  2 of 2 runs stopped: --max-nodes reached; the figures are over all 2 runs, \
             so lower bounds\n"
        )
        .count(),
        1,
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Where a limit stopped every setting nothing is fastest: the text says "no time
/// ranking", the JSON's `fastest` and `fewest_nodes` are null and the Markdown says
/// that none reached its goal; `compare` likewise.
#[test]
fn no_setting_that_reached_its_goal_means_no_fastest_in_any_export() {
    let dir = scratch("nowinner");
    let md = dir.join("b.md");
    let o = plytile(&[
        "bench",
        P65,
        "--select",
        "scan,mrv",
        "--max-nodes",
        "150000",
        "--runs",
        "1",
        "--export-markdown",
        &s(&md),
        "--export-json",
        "-",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no setting reached its goal: no time ranking"),
        "{}",
        stderr(&o)
    );
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let p = &v["puzzles"][0];
    assert_eq!(
        (&p["fastest"], &p["fewest_nodes"]),
        (&Value::Null, &Value::Null)
    );
    for r in v["results"].as_array().unwrap() {
        assert_eq!(r["nodes_min"], 150000, "{r}");
        assert_eq!(r["stopped_by_run"], serde_json::json!(["max_nodes"]), "{r}");
        assert_eq!(r["rank"], "not ranked", "{r}");
        assert_eq!(r["relative_time"], Value::Null, "{r}");
    }
    for o in v["overall"].as_array().unwrap() {
        assert_eq!(o["wins"], 0, "{o}");
    }
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(
        md.contains("| none reached its goal | none reached its goal |"),
        "{md}"
    );
    // compare: no run finds every solution within 1000 nodes.
    let args = [
        "compare",
        P65,
        "--select",
        "scan,mrv",
        "--all",
        "--max-nodes",
        "1000",
    ];
    let o = plytile(&[&args[..], &["--json"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (&v["fastest"], &v["fewest_nodes"]),
        (&Value::Null, &Value::Null)
    );
    for r in v["results"].as_array().unwrap() {
        assert_eq!(r["rank"], "not ranked", "{r}");
        assert_eq!(
            (&r["relative_time"], &r["relative_nodes"]),
            (&Value::Null, &Value::Null)
        );
    }
    let text = stdout(&plytile(&args));
    assert!(
        text.contains("no run reached its goal (--max-nodes reached)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// compare's JSON, CSV and Markdown say the same: each JSON result has the table's
/// `rank`, `relative_time` and `relative_nodes` (full precision; null where the CSV
/// cell is empty); the CSV keeps its columns and values (`exhaustive` "yes" / "no
/// (...)") and adds, at the end, `puzzle`, `stopped_by` (as bench's) and the settings
/// that change the counts; the Markdown names them in a settings line, as bench's.
#[test]
fn compare_json_csv_and_markdown_agree() {
    let args = CAPPED_66;
    let v = json_of(&[&args[..], &["--json"]].concat());
    let csv = stdout(&plytile(&[&args[..], &["--csv"]].concat()));
    assert_eq!(
        csv.lines().next().unwrap(),
        "select,solutions,exhaustive,nodes,time_s,nodes_per_s,relative_nodes,relative_time,\
         rank,puzzle,stopped_by,symmetry,factor,move_order"
    );
    let rows = read_csv(&csv);
    let results = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let cell = |x: &Value| x.as_f64().map(|x| format!("{x:.3}")).unwrap_or_default();
    for (r, row) in results.iter().zip(&rows) {
        let h = r["select"].as_str().unwrap();
        assert_eq!(row["select"], h);
        assert_eq!(row["rank"], r["rank"].as_str().unwrap(), "{h}");
        assert_eq!(row["relative_nodes"], cell(&r["relative_nodes"]), "{h}");
        // Times differ between the two runs: only whether there is a ratio.
        assert_eq!(
            row["relative_time"].is_empty(),
            r["relative_time"].is_null(),
            "{h}"
        );
        assert_eq!(row["puzzle"], "pieces_06x06");
        assert_eq!(
            (
                row["symmetry"].as_str(),
                row["factor"].as_str(),
                row["move_order"].as_str()
            ),
            ("1", "false", "natural")
        );
    }
    let exhaustive: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["exhaustive"].as_str(), r["stopped_by"].as_str()))
        .collect();
    assert_eq!(
        exhaustive,
        [
            ("no (max_nodes)", "max_nodes"),
            ("no (solutions)", "solutions"),
            ("no (max_nodes)", "max_nodes")
        ]
    );
    let rec = |h: &str| results.iter().find(|r| r["select"] == h).unwrap();
    assert_eq!(rec("mrv")["rank"], "ranked");
    assert_eq!(rec("mrv")["relative_time"], 1.0);
    assert_eq!(rec("mrv")["relative_nodes"], 1.0);
    assert_eq!(rec("ply:2")["rank"], "at least");
    assert_eq!(rec("ply:2")["relative_nodes"], 170000.0 / 145310.0);
    // --symmetry: counts of the quarter tree, and every output says so.
    let sym = [
        "compare",
        P44,
        "--select",
        "scan,mrv",
        "--all",
        "--symmetry",
    ];
    let rows = read_csv(&stdout(&plytile(&[&sym[..], &["--csv"]].concat())));
    for row in &rows {
        assert_eq!(
            (
                row["exhaustive"].as_str(),
                row["stopped_by"].as_str(),
                row["symmetry"].as_str()
            ),
            ("yes", "", "4")
        );
    }
    let md = stdout(&plytile(
        &[&sym[..], &["--markdown", "--max-nodes", "5000"]].concat(),
    ));
    assert!(
        md.starts_with(
            "Puzzle `pieces_04x04` (4x4): all solutions; the trees of `solve --symmetry` \
             (symmetry 4); `--factor off`, `--move-order natural`; limits: --max-nodes 5000.\n\n| select "
        ),
        "{md}"
    );
    let md = stdout(&plytile(&["compare", P44, "--select", "mrv", "--markdown"]));
    assert!(
        md.starts_with(
            "Puzzle `pieces_04x04` (4x4): first solution; the whole tree; `--factor off`, \
             `--move-order natural`.\n"
        ),
        "{md}"
    );
}

/// `--plot -` beside `--json`, `--csv` or `--markdown` would put an SVG after the
/// report on stdout: refused with one line, exit 2, as bench refuses two exports on
/// stdout. Beside the text for people, the SVG has stdout and the text goes to stderr.
#[test]
fn compare_refuses_a_plot_on_stdout_beside_another_output() {
    for format in ["--json", "--csv", "--markdown"] {
        let o = plytile(&[
            "compare", P44, "--select", "scan,mrv", "--plot", "-", format,
        ]);
        assert_eq!(code(&o), 2, "{format}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{format}");
        assert_eq!(
            stderr(&o),
            format!(
                "plytile: --plot - and {format}: only one output can go to stdout (-); \
                 write the other to a file\n"
            )
        );
    }
    let o = plytile(&["compare", P44, "--select", "scan,mrv", "--plot", "-"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let svg = stdout(&o);
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert!(stderr(&o).contains("nodes per depth"), "{}", stderr(&o));
}

/// The text header names the strategy flags that change the counts, as the Markdown
/// settings line does.
#[test]
fn compare_text_header_names_factor_and_move_order() {
    let o = plytile(&["compare", P44, "--select", "scan,mrv"]);
    let first = stdout(&o).lines().next().unwrap().to_string();
    assert_eq!(first, "pieces_04x04 (4x4, 16 pieces), first solution");
    let o = plytile(&[
        "compare",
        P44,
        "--select",
        "scan,mrv",
        "--factor",
        "on",
        "--move-order",
        "penalty",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let first = stdout(&o).lines().next().unwrap().to_string();
    assert_eq!(
        first,
        "pieces_04x04 (4x4, 16 pieces), first solution, --factor on, --move-order penalty"
    );
}

/// Ctrl-C during compare: no other heuristic is started, the report names the run it
/// stopped and those not run, and the exit code is 3 (as bench's), even though the
/// stopped run had found solutions.
#[test]
fn compare_interrupted_stops_at_once_and_exits_3() {
    use std::process::{Command, Stdio};
    use std::time::Duration;
    // mrv needs far more than the 1.5 s before the signal for all of the 7x6.
    let child = Command::new(env!("CARGO_BIN_EXE_plytile"))
        .args(["compare", "puzzles/brendan/pieces_07x06.txt"])
        .args(["--select", "mrv,scan,ply:1", "--all", "--json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["not_run"], serde_json::json!(["scan", "ply:1"]));
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["select"], "mrv");
    assert_eq!(results[0]["stopped_by"], "interrupted");
    assert_eq!(results[0]["exhaustive"], false);
    assert_eq!(
        stderr(&o),
        "plytile: interrupted; 1 of 3 heuristic(s) reported, not run: scan, ply:1\n"
    );
    // Not interrupted: the keys say so.
    let v = json_cmd(&format!("compare {P44} --select scan --json"));
    assert_eq!(v["interrupted"], false);
    assert_eq!(v["not_run"], serde_json::json!([]));
}

/// Ctrl-C during bench: exit 3, and every export says it is partial and names the
/// puzzles it leaves out (JSON `interrupted`, `puzzles_not_reported`; the Markdown's
/// line; the CSV's `interrupted` column).
#[test]
fn bench_interrupted_exports_say_they_are_partial() {
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let dir = scratch("bench-int");
    let (json, csv, md) = (dir.join("b.json"), dir.join("b.csv"), dir.join("b.md"));
    // The 4x4 is done at once; mrv needs far longer than the 2 s for all of the 7x6.
    let p76 = "puzzles/brendan/pieces_07x06.txt";
    let child = Command::new(env!("CARGO_BIN_EXE_plytile"))
        .args(["bench", P44, p76, "--select", "mrv", "--runs", "1"])
        // Ended by the Ctrl-C: not refused as predicted too long (minutes, near 5).
        .arg("--allow-long")
        .args(["--export-json", &s(&json), "--export-csv", &s(&csv)])
        .args(["--export-markdown", &s(&md)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(2000));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["puzzles_not_reported"], serde_json::json!([p76]));
    assert_eq!(v["results"].as_array().unwrap().len(), 1);
    let rows = read_csv(&std::fs::read_to_string(&csv).unwrap());
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r["interrupted"] == "true"));
    // The puzzle left out has a line of its own, with no result.
    assert_eq!(
        (rows[0]["puzzle"].as_str(), rows[0]["stopped_by"].as_str()),
        (P44, "")
    );
    assert_eq!(
        (rows[1]["puzzle"].as_str(), rows[1]["stopped_by"].as_str()),
        (p76, "not run")
    );
    assert_eq!(
        (rows[1]["select"].as_str(), rows[1]["time_mean_s"].as_str()),
        ("mrv", "")
    );
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(
        md.contains(&format!(
            "**Interrupted (Ctrl-C or SIGTERM): partial results.** Not reported: `{p76}`.\n"
        )),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Ctrl-C while a later setting runs on a puzzle: the settings that finished on it
/// were measured, so the exports keep them, not ranked (the puzzle stays in
/// `puzzles_not_reported`, and in no summary); only the setting cut short is "not
/// run" (QA, session 32: the finished ones were dropped and called "not run").
#[test]
fn bench_interrupted_mid_puzzle_keeps_its_finished_settings() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let dir = scratch("bench-int-mid");
    let (json, csv) = (dir.join("b.json"), dir.join("b.csv"));
    let p75 = "puzzles/brendan/pieces_07x05.txt";
    let mut child = Command::new(env!("CARGO_BIN_EXE_plytile"))
        .args(["bench", p75, "--select", "scan,mrv", "--runs", "3"])
        .args(["--export-json", &s(&json), "--export-csv", &s(&csv)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Watched for, not timed: Ctrl-C once scan's figures are out (each run of mrv
    // takes about 2 s here, so none of its runs is done).
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    loop {
        let line = lines
            .next()
            .expect("bench ended before scan's figures")
            .unwrap();
        if line.starts_with("Benchmark: ") && line.contains(" with scan ") {
            break;
        }
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    lines.for_each(drop);
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["puzzles_not_reported"], serde_json::json!([p75]));
    assert_eq!(v["puzzles"], serde_json::json!([]));
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(
        (
            &results[0]["rank"],
            &results[0]["solutions_found"],
            &results[0]["runs"]
        ),
        (
            &Value::from("not ranked"),
            &Value::from(32),
            &Value::from(3)
        )
    );
    let rows = read_csv(&std::fs::read_to_string(&csv).unwrap());
    let got: Vec<_> = (rows.iter())
        .map(|r| {
            (
                r["select"].as_str(),
                r["stopped_by"].as_str(),
                r["solutions_found"].as_str(),
            )
        })
        .collect();
    assert_eq!(got, [("scan", "", "32"), ("mrv", "not run", "")]);
    let _ = std::fs::remove_dir_all(dir);
}

/// A bench killed (SIGKILL: no handler runs) before its first puzzle is done leaves
/// exports that say so, not those of an earlier run in the same files.
#[test]
fn bench_killed_before_any_result_leaves_exports_that_say_so() {
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let dir = scratch("bench-kill");
    let (json, csv, md) = (dir.join("b.json"), dir.join("b.csv"), dir.join("b.md"));
    let exports = |c: &mut Command| {
        c.args(["--export-json", &s(&json), "--export-csv", &s(&csv)])
            .args(["--export-markdown", &s(&md)])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
    };
    // An earlier, complete run in the same files.
    let mut earlier = Command::new(env!("CARGO_BIN_EXE_plytile"));
    earlier.args(["bench", P44, "--runs", "1"]);
    exports(&mut earlier);
    assert_eq!(code(&earlier.output().unwrap()), 0);
    let p76 = "puzzles/brendan/pieces_07x06.txt";
    let mut c = Command::new(env!("CARGO_BIN_EXE_plytile"));
    c.args(["bench", p76, P44, "--select", "mrv", "--runs", "1"]);
    // Killed: not refused as predicted too long, nor kept by the check past the kill.
    c.arg("--allow-long");
    exports(&mut c);
    let mut child = c
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1000));
    child.kill().unwrap();
    child.wait().unwrap();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["results"].as_array().unwrap().len(), 0);
    assert_eq!(v["puzzles_not_reported"], serde_json::json!([p76, P44]));
    let rows = read_csv(&std::fs::read_to_string(&csv).unwrap());
    let not_run: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["puzzle"].as_str(), r["stopped_by"].as_str()))
        .collect();
    assert_eq!(not_run, [(p76, "not run"), (P44, "not run")]);
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(
        md.contains(&format!(
            "**Partial results: written while the benchmark runs.** Not reported: `{p76}`, `{P44}`.\n"
        )),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// An export to a FIFO (or the shell's `>(...)`, a pipe) is written once, at the end:
/// its reader gets one whole document, and no second open waits for a reader gone.
#[test]
fn bench_writes_an_export_to_a_fifo_once() {
    use std::process::Command;
    use std::time::{Duration, Instant};
    let dir = scratch("bench-fifo");
    let fifo = dir.join("b.json");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_plytile"))
        .args([
            "bench",
            P44,
            "puzzles/brendan/pieces_05x05.txt",
            "--runs",
            "1",
        ])
        .args(["--select", "scan", "--export-json", &s(&fifo)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break Some(st);
        }
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        status.is_some_and(|s| s.success()),
        "bench hung on the FIFO"
    );
    let text = reader.join().unwrap();
    let v: Value = serde_json::from_str(&text).expect("one JSON document");
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
    assert_eq!(v["puzzles_not_reported"], serde_json::json!([]));
    let _ = std::fs::remove_dir_all(dir);
}

const P77: &str = "puzzles/brendan/pieces_07x07.txt";

/// `plytile ARGS` with stdout and stderr on a terminal (`script`'s pseudo-terminal),
/// all it drew; `None` where there is no `script` (util-linux).
fn on_a_terminal(args: &[&str]) -> Option<String> {
    let line = std::iter::once(env!("CARGO_BIN_EXE_plytile"))
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let o = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_LOG")
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Issue 43: a default bench of a 7x7 (every setting exhaustive, 4 runs each) would
/// run for days. It is refused before any run, with one line giving the prediction
/// and the flags that allow it, exit 2, and no export written; a bound per run lets
/// it run.
#[test]
fn bench_refuses_a_setting_predicted_to_run_for_hours() {
    let dir = scratch("refused");
    let json = dir.join("b.json");
    let o = plytile(&["bench", P77, "--export-json", &s(&json)]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    let line = err.trim_end();
    let head = format!("plytile: bench: scan on {P77} is predicted to take ~");
    assert!(line.starts_with(&head), "{line}");
    assert!(
        line.contains(" for its 4 runs (1 warm-up, 3 timed; ") && line.contains(" nodes/s), "),
        "{line}"
    );
    assert!(
        line.ends_with(
            "more than the ~5.0 min bench gives a setting; give --timeout S to bound each \
             run, or --allow-long to run it anyway"
        ),
        "{line}"
    );
    assert!(!json.exists(), "a refused bench writes no export");
    // Each run bounded: no check, the runs stop at the limit.
    let v = json_cmd(&format!(
        "bench {P77} --select mrv --runs 1 --warmup 0 --max-nodes 1e4 --export-json -"
    ));
    assert_eq!(v["results"][0]["stopped_by"], "max_nodes");
    // --allow-long runs it anyway (here scan's first solution: the prediction is of
    // the whole tree, "up to").
    let o = plytile(&["bench", P77, "--select", "scan", "--solutions", "1"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("predicted to take up to ~"),
        "{}",
        stderr(&o)
    );
    let v = json_cmd(&format!(
        "bench {P77} --select scan --solutions 1 --runs 1 --warmup 0 --allow-long --export-json -"
    ));
    assert_eq!(v["results"][0]["solutions_found"], 1);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 43: each setting runs once untimed before its timed runs (--warmup 1), and
/// the output says so first; --warmup 0 turns it off. Only the timed runs are in the
/// figures, and each record carries its `warnings` (none for runs this short).
#[test]
fn bench_warms_up_each_setting_untimed_and_says_so() {
    let o = plytile(&["bench", P44, P53, "--select", "scan,mrv", "--runs", "2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(
        text.lines().next(),
        Some("Benchmarking 2 settings on 2 puzzles: 1 warm-up run each, not timed, then 2 timed runs."),
        "{text}"
    );
    let o = plytile(&[
        "bench", P44, "--select", "scan", "--runs", "1", "--warmup", "0",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().next(),
        Some("Benchmarking 1 setting on 1 puzzle: no warm-up run (--warmup 0), then 1 timed run.")
    );
    let v = json_cmd(&format!(
        "bench {P44} --select scan,mrv --runs 2 --export-json -"
    ));
    assert_eq!(v["config"]["warmup"], 1);
    for r in v["results"].as_array().unwrap() {
        assert_eq!(r["runs"], 2);
        assert_eq!(r["times_s"].as_array().unwrap().len(), 2);
        // Runs of microseconds: their times are noise, not warned about.
        assert_eq!(r["warnings"], serde_json::json!([]));
    }
}

/// Issue 43: on a terminal, bench's live line names the setting, the puzzle and the
/// run, with the nodes so far and their rate (it said `0/3 runs` for hours).
#[test]
fn bench_live_line_names_the_setting_the_run_and_its_nodes() {
    // A run of 0.6 s (--timeout): the line is redrawn every 0.25 s.
    let args = [
        "bench",
        P77,
        "--select",
        "scan",
        "--runs",
        "1",
        "--warmup",
        "0",
        "--timeout",
        "0.6",
    ];
    let Some(drawn) = on_a_terminal(&args) else {
        return; // no `script` here
    };
    let live = format!("scan on {P77}, run 1/1 (setting 1/1): ");
    let at = drawn.find(&live).unwrap_or_else(|| panic!("{drawn}"));
    let rest = &drawn[at + live.len()..];
    assert!(
        rest.split(" nodes/s").next().unwrap().contains(" nodes, "),
        "{drawn}"
    );
}

/// Issue 43: compare ends with what to use. A run that reached its goal: the
/// fastest, with its speed against each other run, nearest first (the JSON's
/// `recommended` and `recommendation` say the same); when none did, the one that
/// placed the most pieces (node counts on one thread are exact: so is this line).
#[test]
fn compare_ends_with_what_to_use() {
    let v = json_cmd(&format!("compare {P44} --select scan,mrv,ply:2 --json"));
    assert_eq!(v["recommended"], v["fastest"]);
    let fastest = v["fastest"].as_str().unwrap();
    let mut others: Vec<(f64, &str)> = (v["results"].as_array().unwrap().iter())
        .filter(|r| r["select"] != fastest)
        .map(|r| {
            (
                r["relative_time"].as_f64().unwrap(),
                r["select"].as_str().unwrap(),
            )
        })
        .collect();
    others.sort_by(|a, b| a.0.total_cmp(&b.0));
    let x = |r: f64| {
        if r < 10.0 {
            format!("{r:.1}x")
        } else {
            format!("{r:.0}x")
        }
    };
    let said: Vec<String> = (others.iter())
        .map(|(r, h)| format!("{} faster than {h}", x(*r)))
        .collect();
    assert_eq!(
        v["recommendation"],
        format!("use {fastest}: {}", said.join(", "))
    );
    // The text's last line.
    let text = stdout(&plytile(&["compare", P44, "--select", "scan,mrv,ply:2"]));
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("use "), "{text}");
    for h in ["scan", "mrv", "ply:2"] {
        assert!(
            last.contains(&format!("faster than {h}")) || last.starts_with(&format!("use {h}:")),
            "{last}"
        );
    }
    // No run reached its goal: the deepest.
    let o = plytile(&["compare", P77, "--max-nodes", "2000"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().last(),
        Some(
            "use scan: no run reached its goal (--max-nodes reached); it placed the most \
             pieces, 40 of 49 (mrv 39, ply:2 37, ply:3 37)"
        )
    );
    let v: Value = serde_json::from_str(&stdout(&plytile(&[
        "compare",
        P77,
        "--max-nodes",
        "2000",
        "--json",
    ])))
    .unwrap();
    assert_eq!(v["recommended"], "scan");
    assert!(v["fastest"].is_null());
    let one = json_cmd(&format!("compare {P44} --select mrv --json"));
    assert_eq!(
        one["recommendation"],
        "use mrv: the only heuristic compared"
    );
}
