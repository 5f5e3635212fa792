//! `--symmetry`: a quarter of the tree of a square board (each solution found with its
//! three turns) and two anchored halves of a rectangle (each with its half turn) give
//! every solution, for every heuristic, thread count and limit; hinted boards are
//! searched whole.

mod common;

use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::puzzle::generate::generate;
use plytile::puzzle::Puzzle;
use plytile::search::symmetry::{anchored, half_turn, quarter, solve_symmetric, turn};
use plytile::search::{solve, Heuristic, Limits, Spread};
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn brendan(name: &str) -> Puzzle {
    let path = format!(
        "{}/puzzles/brendan/pieces_{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    read_puzzle(Path::new(&path), EdgeOrder::Urdl).unwrap()
}

fn limits(max_solutions: Option<u64>) -> Limits {
    Limits {
        max_solutions,
        keep: usize::MAX,
        ..Limits::default()
    }
}

fn sym(p: &Puzzle, h: Heuristic, threads: usize, l: &Limits) -> plytile::report::SolveResult {
    let spread = Spread {
        threads,
        ..Spread::default()
    };
    solve_symmetric(p, h, l, &AtomicBool::new(false), &spread).unwrap()
}

fn sorted(r: &plytile::report::SolveResult) -> Vec<Vec<[usize; 2]>> {
    let mut v = r.solutions.clone();
    v.sort();
    v
}

/// The heuristics and thread counts each anchored search is run with.
const RUNS: [(Heuristic, usize); 3] = [
    (Heuristic::Scan, 1),
    (Heuristic::Scan, 2),
    (Heuristic::Mrv, 1),
];

/// The whole tree's scan search, which must find `count` solutions.
fn whole_tree(p: &plytile::puzzle::Puzzle, count: u64) -> plytile::report::SolveResult {
    let whole = solve(p, Heuristic::Scan, &limits(None), &AtomicBool::new(false));
    assert_eq!(whole.solutions_found, count);
    whole
}

#[test]
fn a_quarter_of_the_tree_gives_every_solution() {
    for (name, count) in [("03x03", 16), ("04x04", 36), ("05x05", 16), ("06x06", 260)] {
        let p = brendan(name);
        let whole = whole_tree(&p, count);
        for (h, threads) in RUNS {
            if name == "06x06" && h == Heuristic::Mrv {
                continue; // slow; scan covers it
            }
            let r = sym(&p, h, threads, &limits(None));
            assert_eq!(r.symmetry, 4);
            assert_eq!(r.solutions_found, count, "{name} {h} {threads}");
            assert_eq!(sorted(&r), sorted(&whole), "{name} {h} {threads}");
            // A quarter, give or take: far fewer nodes than the whole tree.
            assert!(
                r.nodes * 2 < whole.nodes,
                "{name}: {} vs {}",
                r.nodes,
                whole.nodes
            );
            // The anchor is a hint: one level fewer.
            assert_eq!(
                r.nodes_per_depth.len() + 1,
                whole.nodes_per_depth.len(),
                "{name}"
            );
        }
    }
}

#[test]
fn solution_limits_count_turns() {
    let p = brendan("05x05");
    for k in [1, 2, 3, 4, 5, 9, 16, 17] {
        let r = sym(&p, Heuristic::Scan, 1, &limits(Some(k)));
        assert_eq!(r.solutions_found, k.min(16), "k = {k}");
        assert_eq!(r.solutions.len() as u64, k.min(16), "k = {k}");
        assert_eq!(r.exhaustive, k > 16, "k = {k}");
    }
}

#[test]
fn rectangles_search_two_anchored_halves() {
    for (name, count) in [
        ("04x03", 32),
        ("05x03", 78),
        ("05x04", 1952),
        ("06x04", 8),
        ("07x04", 76),
    ] {
        // Wide (anchors top-left, bottom-left) and tall (top-left, top-right).
        for p in [brendan(name), brendan(name).transposed()] {
            let name = format!("{name} as {}x{}", p.width, p.height);
            assert!(quarter(&p).is_none());
            assert_eq!(anchored(&p).unwrap().0.len(), 2);
            let whole = whole_tree(&p, count);
            for (h, threads) in RUNS {
                let r = sym(&p, h, threads, &limits(None));
                assert_eq!(
                    (r.symmetry, r.solutions_found),
                    (2, count),
                    "{name} {h} {threads}"
                );
                assert_eq!(sorted(&r), sorted(&whole), "{name} {h} {threads}");
                assert_eq!(r.threads, threads, "{name}");
                if h == Heuristic::Scan {
                    assert!(
                        r.nodes < whole.nodes,
                        "{name}: {} vs {}",
                        r.nodes,
                        whole.nodes
                    );
                }
            }
            for k in [1, 2, 3, count - 1, count, count + 1] {
                let r = sym(&p, Heuristic::Scan, 1, &limits(Some(k)));
                assert_eq!(r.solutions_found, k.min(count), "{name} k = {k}");
                assert_eq!(r.solutions.len() as u64, k.min(count), "{name} k = {k}");
                assert_eq!(r.exhaustive, k > count, "{name} k = {k}");
            }
        }
    }
}

#[test]
fn hinted_boards_are_searched_whole() {
    let mut hinted = generate(4, 4, 2, 2, 3).unwrap();
    let first = solve(
        &hinted,
        Heuristic::Mrv,
        &limits(Some(1)),
        &AtomicBool::new(false),
    );
    hinted
        .hints
        .push(common::hint_from(&hinted, &first.solution_board(0), 5));
    assert!(anchored(&hinted).is_none());
    assert_eq!(sym(&hinted, Heuristic::Scan, 1, &limits(None)).symmetry, 1);
}

#[test]
fn four_turns_are_the_identity_and_one_is_not() {
    let p = brendan("04x04");
    let r = solve(
        &p,
        Heuristic::Scan,
        &limits(Some(1)),
        &AtomicBool::new(false),
    );
    let b = r.solution_board(0);
    let t = turn(&b, 4);
    assert_ne!(t, b);
    assert_eq!(turn(&turn(&turn(&t, 4), 4), 4), b);
    plytile::puzzle::verify::check(&p, &t, true).unwrap();
    assert_eq!(half_turn(&b), turn(&t, 4));
    assert_eq!(half_turn(&half_turn(&b)), b);
}

#[test]
fn cli_symmetry_reports_whole_counts() {
    let out = common::plytile(&[
        "solve",
        &common::p("brendan/pieces_04x04.txt"),
        "--all",
        "--symmetry",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&common::stdout(&out)).unwrap();
    assert_eq!(v["solutions_found"], 36);
    assert_eq!(v["symmetry"], 4);
    assert_eq!(v["solutions"].as_array().unwrap().len(), 36);
}

#[test]
fn predict_symmetry_measures_the_quarter_tree() {
    let args = |extra: &[&'static str]| {
        let mut v = vec!["brendan/pieces_05x05.txt", "--select", "scan", "--json"];
        v.extend_from_slice(extra);
        v.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |cmd: &str, extra: &[&'static str]| {
        let mut a = vec![cmd.to_string()];
        a.extend(args(extra));
        a[1] = common::p(&a[1]);
        let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
        let out = common::plytile(&a);
        assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
        serde_json::from_str::<serde_json::Value>(&common::stdout(&out)).unwrap()
    };
    let solved = run("solve", &["--all", "--symmetry", "--threads", "1"]);
    let predicted = run("predict", &["--symmetry", "--measure", "--probes", "50"]);
    assert_eq!(predicted["measured_total"], solved["nodes"]);
    let whole = run("solve", &["--all", "--threads", "1"]);
    assert_eq!(whole["nodes"], 113_212);
    assert!(solved["nodes"].as_u64().unwrap() < 113_212 / 2);
}

/// With `scan:rows` on a board wider than tall the second anchor goes to the top-right
/// (the corner rows reach first), not the default's bottom-left: the same 18 solutions
/// and turns, in about half of the row tree (8,434,581 nodes).
#[test]
fn scan_rows_anchors_the_corner_its_rows_reach_first() {
    let p = brendan("08x04");
    let rows: Heuristic = "scan:rows".parse().unwrap();
    let (parts, turns) = plytile::search::symmetry::anchored_along(&p, false).unwrap();
    assert_eq!(turns, 2);
    assert_eq!((parts[1].hints[0].row, parts[1].hints[0].col), (0, 7));
    let r = sym(&p, rows, 1, &limits(None));
    assert_eq!((r.solutions_found, r.nodes), (18, 4_108_820));
    let whole = solve(&p, rows, &limits(None), &AtomicBool::new(false));
    assert_eq!(sorted(&r), sorted(&whole));
}
