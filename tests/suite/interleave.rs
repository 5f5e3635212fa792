//! The interleaved schedule (`solve --interleave on`) walks many subproblems side by
//! side and pauses each between slices. An exhaustive run must count exactly what the
//! plain depth-first search counts, whatever the window, slice and thread count; a run
//! that stops early must report what it found and why it stopped.

use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::puzzle::{verify, Puzzle};
use plytile::report::SolveResult;
use plytile::search::parallel::interleave::Interleave;
use plytile::search::parallel::{self, Split};
use plytile::search::{solve_with, Along, Heuristic, Limits, Mrv, Spread, Stop};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;

fn load(rel: &str) -> Puzzle {
    read_puzzle(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(rel),
        EdgeOrder::Urdl,
    )
    .unwrap()
}

fn limits(solutions: Option<u64>, max_nodes: Option<u64>) -> Limits {
    Limits {
        keep: 1000,
        max_solutions: solutions,
        max_nodes,
        ..Limits::default()
    }
}

fn run(p: &Puzzle, h: Heuristic, limits: &Limits, spread: &Spread) -> SolveResult {
    solve_with(p, h, limits, &AtomicBool::new(false), spread).unwrap()
}

fn interleaved(threads: usize, window: usize, slice: u64) -> Spread {
    Spread {
        threads,
        interleave: Some(Interleave { window, slice }),
        ..Spread::default()
    }
}

fn plain() -> Spread {
    Spread {
        threads: 1,
        ..Spread::default()
    }
}

/// Tiny windows and slices pause every walk many times, and a window of 1 on two
/// threads leaves one worker hungry, so subproblems are given away mid-walk.
#[test]
fn exhaustive_counts_equal_the_depth_first_search() {
    for name in [
        "brendan/pieces_05x05.txt",
        "brendan/pieces_06x05.txt",
        "brendan/pieces_07x04.txt",
        "brendan-set2/pieces_06x04.txt",
    ] {
        let p = load(name);
        let dfs = run(
            &p,
            Heuristic::Scan(Along::Shape),
            &limits(None, None),
            &plain(),
        );
        assert!(dfs.exhaustive && dfs.solutions_found > 0, "{name}");
        for (t, window, slice, split) in [
            (1, 1, 1, None),
            (1, 7, 13, Some(3)),
            (2, 1, 5, Some(2)),
            (2, 64, 97, None),
            (2, 4096, 2048, Some(4)),
        ] {
            let mut spread = interleaved(t, window, slice);
            spread.split_depth = split;
            let r = run(
                &p,
                Heuristic::Scan(Along::Shape),
                &limits(None, None),
                &spread,
            );
            let what = format!("{name} threads {t} window {window} slice {slice} split {split:?}");
            assert_eq!(r.nodes_per_depth, dfs.nodes_per_depth, "{what}: per depth");
            assert_eq!(r.solutions_found, dfs.solutions_found, "{what}: solutions");
            assert!(r.exhaustive, "{what}: exhaustive");
            // Outcomes are merged in prefix order: the same solutions, in DFS order.
            assert_eq!(r.solutions, dfs.solutions, "{what}: solution boards");
            assert_eq!(r.interleave, spread.interleave, "{what}: reported");
        }
    }
}

/// With a window of 1 on two threads the second worker goes hungry while the first
/// walks, and gets work given away mid-walk. (Thread start-up is not under the test's
/// control, so a few runs are allowed for it to happen.)
#[test]
fn a_hungry_worker_gets_work_given_away() {
    let p = load("brendan/pieces_07x05.txt");
    let dfs = run(
        &p,
        Heuristic::Scan(Along::Shape),
        &limits(None, None),
        &plain(),
    );
    let units = parallel::full_frontier(&p, Heuristic::Scan(Along::Shape), Split::Depth(2))
        .unwrap()
        .units;
    let mut given = false;
    for _ in 0..5 {
        let mut spread = interleaved(2, 1, 64);
        spread.split_depth = Some(2);
        let r = run(
            &p,
            Heuristic::Scan(Along::Shape),
            &limits(None, None),
            &spread,
        );
        assert_eq!(r.nodes_per_depth, dfs.nodes_per_depth);
        assert_eq!(r.solutions, dfs.solutions);
        if r.subproblems > units.len() {
            given = true;
            break;
        }
    }
    assert!(given, "no run gave work away");
}

/// Hints leave static cells in the row-scan order (as the E2 starter does).
#[test]
fn exhaustive_counts_with_hints() {
    let p = load("brendan/pieces_07x05.txt");
    let hinted = {
        let dfs = run(
            &p,
            Heuristic::Scan(Along::Shape),
            &limits(Some(1), None),
            &plain(),
        );
        assert_eq!(dfs.solutions_found, 1);
        // Fix the first solution's top row and left column: a solvable tree.
        let mut q = p.clone();
        let b = dfs.solution_board(0);
        for (cell, c) in b.iter().enumerate() {
            let (row, col) = (cell / p.width, cell % p.width);
            if row == 0 || col == 0 {
                let (piece, rotation) = c.unwrap();
                q.hints.push(plytile::puzzle::Hint {
                    row,
                    col,
                    piece,
                    rotation,
                });
            }
        }
        q
    };
    let dfs = run(
        &hinted,
        Heuristic::Scan(Along::Shape),
        &limits(None, None),
        &plain(),
    );
    assert!(dfs.exhaustive && dfs.solutions_found >= 1);
    for t in [1, 2] {
        let r = run(
            &hinted,
            Heuristic::Scan(Along::Shape),
            &limits(None, None),
            &interleaved(t, 5, 3),
        );
        assert_eq!(r.nodes_per_depth, dfs.nodes_per_depth, "threads {t}");
        assert_eq!(r.solutions, dfs.solutions, "threads {t}");
    }
}

#[test]
fn stops_at_the_solutions_asked_for_and_they_verify() {
    let p = load("brendan/pieces_06x05.txt"); // 4 solutions
    for k in [1, 2, 4] {
        for t in [1, 2] {
            let r = run(
                &p,
                Heuristic::Scan(Along::Shape),
                &limits(Some(k), None),
                &interleaved(t, 16, 50),
            );
            assert_eq!(r.solutions_found, k, "k {k} threads {t}");
            assert_eq!(r.solutions.len() as u64, k);
            assert_eq!(r.stopped_by, Some(Stop::Solutions), "k {k} threads {t}");
            for i in 0..r.solutions.len() {
                verify::check(&p, &r.solution_board(i), true).unwrap();
            }
        }
    }
    // Asking for more than exist searches the whole tree.
    let r = run(
        &p,
        Heuristic::Scan(Along::Shape),
        &limits(Some(5), None),
        &interleaved(2, 16, 50),
    );
    assert_eq!(r.solutions_found, 4);
    assert!(r.exhaustive);
}

#[test]
fn a_node_budget_stops_the_run_and_says_so() {
    let p = load("brendan/pieces_07x05.txt");
    let budget = 200_000;
    for t in [1, 2] {
        let r = run(
            &p,
            Heuristic::Scan(Along::Shape),
            &limits(None, Some(budget)),
            &interleaved(t, 256, 100),
        );
        assert_eq!(r.stopped_by, Some(Stop::MaxNodes), "threads {t}");
        assert!(!r.exhaustive);
        // Checked after every slice: at most one slice per thread over.
        assert!(
            r.nodes >= budget && r.nodes <= budget + 100 * t as u64 + 100_000,
            "{}",
            r.nodes
        );
        assert_eq!(r.nodes, r.nodes_per_depth.iter().sum::<u64>());
    }
}

#[test]
fn other_heuristics_are_refused() {
    let p = load("brendan/pieces_04x04.txt");
    for h in [Heuristic::Mrv(Mrv), "ply:2".parse().unwrap()] {
        let e = solve_with(
            &p,
            h,
            &limits(None, None),
            &AtomicBool::new(false),
            &interleaved(1, 4, 4),
        )
        .unwrap_err();
        assert!(e.to_string().contains("--interleave"), "{e}");
    }
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_plytile"))
}

#[test]
fn cli_flags_and_json() {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/brendan/pieces_06x05.txt");
    let puzzle = puzzle.to_str().unwrap();
    let out = bin()
        .args([
            "solve",
            "--select",
            "scan",
            puzzle,
            "--all",
            "--json",
            "--interleave",
            "on",
            "--window",
            "9",
            "--slice",
            "33",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let r: SolveResult = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r.solutions_found, 4);
    assert_eq!(
        r.interleave,
        Some(Interleave {
            window: 9,
            slice: 33
        })
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\"interleave\":{\"window\":9,\"slice\":33}"),
        "{text}"
    );
    for args in [
        vec!["--window", "9"],
        vec!["--interleave", "on", "--window", "0"],
        vec!["--interleave", "on", "--slice", "0"],
        vec!["--interleave", "maybe"],
        vec!["--interleave", "on", "--select", "mrv"],
    ] {
        let o = bin().arg("solve").arg(puzzle).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// The paused walks of a window must fit in memory: on the 16x16 Eternity II board
/// (about 45 kB a walk) the window is cut, and the JSON says to what.
#[test]
fn a_big_board_gets_a_window_that_fits() {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/e2/e2pieces.txt");
    let hints = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/e2/e2_starter.txt");
    let out = bin()
        .arg("solve")
        .arg(&puzzle)
        .arg("--hints")
        .arg(&hints)
        .args(["--json", "--interleave", "on", "--max-nodes", "200000"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: SolveResult = serde_json::from_slice(&out.stdout).unwrap();
    let how = r.interleave.unwrap();
    let budget = 48 << 20; // interleave::WINDOW_BYTES
    assert!(how.window < 4096 && how.window >= 256, "{how:?}");
    assert!(how.window * 30_000 <= budget, "{how:?}");
    assert_eq!(r.stopped_by, Some(Stop::MaxNodes));
}

/// A walk paused at the node budget on a full board, with no checkpoint to hand it to,
/// still reports that solution: solutions_found equals the full-depth count (it was
/// one short, and merge refused such a shard).
#[test]
fn a_budget_stop_reports_the_solution_it_counted_last() {
    let bin = env!("CARGO_BIN_EXE_plytile");
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/brendan/pieces_04x04.txt");
    let o = Command::new(bin)
        .arg("solve")
        .arg(&puzzle)
        .args(["--all", "--json", "--threads", "1", "--max-nodes", "170"])
        .args(["--interleave", "on", "--window", "8", "--slice", "5"])
        .output()
        .unwrap();
    let r: SolveResult = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r.stopped_by, Some(Stop::MaxNodes));
    assert_eq!((r.solutions_found, r.nodes_per_depth[16]), (3, 3));
}

/// With `--interleave on` every paused walk of the window hands its rest over at each
/// stop. The checkpoint folds what is finished into the records that gave it away,
/// sums finished subproblems without solutions into `finished` and keeps one deepest
/// board, so it stays small over reruns (before: 1,281 records after the second of
/// these runs, 3,830 after the third, growing by a window's worth each time), and the
/// last run ends with exactly the counts, solutions (in order) and deepest node of
/// one run. So does a run that only reads the finished file.
#[test]
fn reruns_keep_the_checkpoint_small_and_end_exact() {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/brendan/pieces_07x05.txt");
    let base = [
        "solve",
        "--select",
        "scan",
        puzzle.to_str().unwrap(),
        "--all",
        "--json",
        "-q",
    ];
    let json = |o: std::process::Output| -> SolveResult {
        assert!(
            o.status.code().is_some_and(|c| c <= 3),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let whole = json(bin().args(base).args(["--threads", "1"]).output().unwrap());
    assert_eq!((whole.nodes, whole.solutions_found), (7_849_260, 32));
    for threads in ["1", "2"] {
        let dir = std::env::temp_dir().join(format!(
            "plytile-interleave-ck-{}-{threads}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let ck = dir.join("run.ck");
        let mut args = base.to_vec();
        args.extend([
            "--interleave",
            "on",
            "--window",
            "256",
            "--threads",
            threads,
        ]);
        args.extend(["--checkpoint", ck.to_str().unwrap()]);
        let read = || -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(&ck).unwrap()).unwrap()
        };
        let mut first_size = None;
        let mut runs = 0;
        let last = loop {
            runs += 1;
            assert!(runs <= 30, "{threads} threads: no end in 30 runs");
            let r = json(
                bin()
                    .args(&args)
                    .args(["--max-nodes", "600000"])
                    .output()
                    .unwrap(),
            );
            let size = std::fs::metadata(&ck).unwrap().len();
            let records = read()["records"].as_array().unwrap().len();
            let first = *first_size.get_or_insert(size);
            assert!(
                records <= 3 * 256 && size <= 3 * first,
                "{threads} threads, run {runs}: {records} records, {size} bytes (first {first})"
            );
            if r.exhaustive {
                break r;
            }
        };
        assert!(runs >= 10, "{threads} threads: the budget was not small");
        let what = format!("{threads} threads, {runs} runs");
        let same = |r: &SolveResult, what: &str| {
            assert_eq!(r.nodes_per_depth, whole.nodes_per_depth, "{what}");
            assert_eq!(r.solutions_found, whole.solutions_found, "{what}");
            assert_eq!(r.solutions, whole.solutions, "{what}");
            assert_eq!(r.deepest, whole.deepest, "{what}");
            assert!(r.exhaustive, "{what}");
        };
        same(&last, &what);
        // All searched: nothing given away is left, every record holds solutions
        // but the one with the deepest board, and the rest is summed.
        let v = read();
        let records = v["records"].as_array().unwrap();
        let boards = |r: &&serde_json::Value| !r["deepest_board"].as_array().unwrap().is_empty();
        assert_eq!(records.iter().filter(boards).count(), 1, "{what}");
        for r in records {
            assert!(r["given"].as_array().unwrap().is_empty(), "{what}: {r}");
            assert!(r.get("given_coded").is_none(), "{what}: {r}");
            assert!(
                r["solutions_found"].as_u64().unwrap() > 0 || boards(&r),
                "{r}"
            );
        }
        assert!(records.len() <= 32, "{what}: {} records", records.len());
        assert!(!v["finished"]["units"].as_array().unwrap().is_empty());
        let again = json(bin().args(&args).output().unwrap());
        same(&again, &format!("{what}, read again"));
        // Searched again: the frontier's internal nodes only.
        let p = load("brendan/pieces_07x05.txt");
        let f = parallel::full_frontier(&p, Heuristic::Scan(Along::Shape), Split::AtLeast(256))
            .unwrap();
        assert_eq!(again.resumed_nodes + f.internal.nodes(), whole.nodes);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
